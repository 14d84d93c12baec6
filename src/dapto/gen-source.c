/* SPDX-License-Identifier: MIT */
/*
 * gen-source.c - the generated C file X_dapto.c: the state bytes, an
 * encoder per event, a function per operation wrapping its body, the
 * descriptions of every aspect (struct dapto_aspect and its tables, the
 * same information as the .db file), and a constructor that registers
 * the aspects with the runtime.
 *
 * The output must compile without warnings as C and as C++, so it uses
 * positional initialisers, explicit casts, and marks every parameter used.
 */
#include <string.h>

#include "gen.h"
#include "quote.h"

/* static const struct dapto_param PREFIX_dapto_params_NAME[] = {...}; */
static void gen_param_table(const struct gen *g, struct buf *b,
                            const struct sig *sig)
{
    const struct param *p;
    size_t i;

    if (sig->nparams == 0)
        return;
    buf_printf(b, "static const struct dapto_param %s_dapto_params_%s[] = {\n",
               g->prefix, sig->name);
    for (i = 0; i < sig->nparams; i++) {
        p = &sig->params[i];
        buf_printf(b, "    { \"%s\", \"%s\", %s, ", p->name, p->type,
                   type_info(p->kind)->kind);
        quote_c(b, p->doc);
        buf_puts(b, " },\n");
    }
    buf_puts(b, "};\n\n");
}

/* The params pointer of a description: the table or NULL. */
static void gen_param_ref(const struct gen *g, struct buf *b,
                          const struct sig *sig)
{
    if (sig->nparams == 0)
        buf_puts(b, "0, NULL");
    else
        buf_printf(b, "%zu, %s_dapto_params_%s", sig->nparams, g->prefix,
                   sig->name);
}

/* How an encoder hands argument P to its filter (dapto.h): the member of
 * union dapto_arg and the conversion; NULL for a user type. */
static const char *arg_member(const struct param *p, const char **conv)
{
    switch (p->kind) {
    case TYPE_INT:
        *conv = "(int)";
        return "i";
    case TYPE_LONG:
        *conv = "(long)";
        return "i";
    case TYPE_PTR:
        *conv = "(long long)(size_t)";
        return "i";
    case TYPE_DOUBLE:
        *conv = "(double)";
        return "d";
    case TYPE_STR:
        *conv = "";
        return "s";
    default:
        return NULL;
    }
}

/* The dapto_keep_* function (dapto.h) of parameter P, of a built-in type. */
static const char *keep_kind(const struct param *p)
{
    switch (p->kind) {
    case TYPE_INT:
        return "int";
    case TYPE_LONG:
        return "long";
    case TYPE_PTR:
        return "ptr";
    case TYPE_DOUBLE:
        return "double";
    default:
        return "str";
    }
}

/* The value of the parameter of SIG a quick clause _dapto_q compares, as
 * dapto_event_filter() takes it: the only integer one's, else the one
 * its ARG names (the runtime names only an integer one); 0 when SIG has
 * no integer parameter (int, long, ptr), whose quick clause can only be a
 * question's count, which compares nothing <protocol#quick>. */
static void gen_quick_value(struct buf *b, const struct sig *sig)
{
    const char *conv = "";
    size_t i, n = 0, last = 0;

    for (i = 0; i < sig->nparams; i++)
        if (sig->params[i].kind == TYPE_INT || sig->params[i].kind == TYPE_LONG ||
            sig->params[i].kind == TYPE_PTR) {
            n++;
            last = i;
        }
    for (i = 0; i < sig->nparams; i++) {
        if (sig->params[i].kind != TYPE_INT && sig->params[i].kind != TYPE_LONG &&
            sig->params[i].kind != TYPE_PTR)
            continue;
        (void)arg_member(&sig->params[i], &conv);
        if (i != last && n > 1)
            buf_printf(b, "_dapto_q->arg == %zu ? ", i);
        buf_printf(b, "%s%s(%s)", sig->params[i].kind == TYPE_PTR ? "" : "(long long)",
                   conv, sig->params[i].name);
        if (i != last && n > 1)
            buf_puts(b, " : ");
    }
    if (n == 0)
        buf_puts(b, "0");
}

/* SIG's parameter names as the arguments after a first one (gen_args). */
static void gen_more_args(struct buf *b, const struct sig *sig)
{
    if (sig->nparams > 0) {
        buf_puts(b, ", ");
        gen_args(b, sig);
    }
}

/* The head of SIG's static half WHAT (put, ask) of an encoder: the state
 * the emit function read, then the event's parameters.  (noosa knows the
 * halves by name, src/base/codenames.h: a new one is named there too.) */
static void gen_half_head(const struct gen *g, struct buf *b, const struct sig *sig,
                          const char *what)
{
    size_t i;

    buf_printf(b, "static DAPTO_NOINLINE DAPTO_NOINSTR void %s_dapto_%s_%s(",
               g->prefix, what, sig->name);
    /* (keep and hold: the arguments alone) */
    int bare = strcmp(what, "keep") == 0 || strcmp(what, "hold") == 0;

    if (!bare)
        buf_puts(b, "unsigned int _dapto_v");
    else if (sig->nparams == 0)
        buf_puts(b, "void");
    for (i = 0; i < sig->nparams; i++) {
        if (i > 0 || !bare)
            buf_puts(b, ", ");
        gen_decl(b, &sig->params[i]);
    }
    buf_puts(b, ")\n{\n");
}

/* The arguments of SIG into the array _dapto_a (when it has any), as its
 * filter and the trail take them (dapto.h), indented by IN spaces. */
static void gen_arg_array(struct buf *b, const struct sig *sig, int in)
{
    const char *conv = "", *member;
    size_t i;

    if (sig->nparams > 0)
        buf_printf(b, "%*sunion dapto_arg _dapto_a[%zu];\n\n", in, "",
                   sig->nparams);
    for (i = 0; i < sig->nparams; i++) {
        member = arg_member(&sig->params[i], &conv);
        buf_printf(b, "%*s_dapto_a[%zu].%s = %s(%s);\n", in, "", i, member,
                   conv, sig->params[i].name);
    }
}

/* The encoder of event SIG, number INDEX within aspect A and STATE in the
 * state array.  An event whose parameters are all of built-in types is
 * kept in the trail from its arguments while nothing else wants it
 * <protocol#ttrail>, and asks its filter about its arguments before
 * encoding anything <protocol#filter>; one with a user type is encoded
 * first, and filtered and kept from its record. */
static void gen_encoder(const struct gen *g, struct buf *b,
                        const struct aspect *a, const struct sig *sig,
                        size_t index, size_t state)
{
    const struct param *p;
    const char *conv = "";
    size_t i;
    int early = 1;

    for (i = 0; i < sig->nparams; i++)
        if (arg_member(&sig->params[i], &conv) == NULL)
            early = 0;
    if (early) {
        /* the record built apart, so that the filter's path has no
         * record buffer on its stack */
        gen_half_head(g, b, sig, "put");
    } else {
        buf_printf(b, "DAPTO_NOINSTR void %s_dapto_emit_%s(", g->prefix, sig->name);
        gen_params(b, sig);
        buf_puts(b, ")\n{\n");
    }
    buf_printf(b, "    DAPTO_EVENT_BEGIN(&%s_dapto_aspect_%s, %zu);\n", g->prefix,
               a->name, index);
    for (i = 0; i < sig->nparams; i++) {
        p = &sig->params[i];
        if (p->kind != TYPE_USER) {
            buf_printf(b, "    %s(%s);\n", type_info(p->kind)->result, p->name);
            continue;
        }
        buf_printf(b, "#ifdef DAPTO_RESULT%s\n    DAPTO_RESULT%s(%s);\n"
                   "#else\n    DAPTO_RESULT_UNKNOWN();\n    (void)%s;\n"
                   "#endif\n", p->type, p->type, p->name, p->name);
    }
    if (!early) {
        buf_puts(b, "    DAPTO_EVENT_END();\n}\n\n");
        return;
    }
    buf_puts(b, "    DAPTO_EVENT_END_AS(_dapto_v);\n}\n\n");
    /* the trail alone, and the filter, each apart too, so that an event
     * recorded without one costs its encoder no stack frame of its own */
    /* the thread without a trail of its own yet apart, so that keeping
     * costs no frame */
    gen_half_head(g, b, sig, "hold");
    gen_arg_array(b, sig, 4);
    buf_printf(b, "    dapto_event_keep(&%s_dapto_aspect_%s, %zu, %s);\n}\n\n",
               g->prefix, a->name, index, sig->nparams > 0 ? "_dapto_a" : "NULL");
    gen_half_head(g, b, sig, "keep");
    buf_puts(b, "    struct dapto_keep _dapto_k;\n\n"
             "    if (DAPTO_UNLIKELY(!dapto_keep_begin(&_dapto_k))) {\n");
    buf_printf(b, "        %s_dapto_hold_%s(", g->prefix, sig->name);
    gen_args(b, sig);
    buf_puts(b, ");\n        return;\n    }\n");
    for (i = 0; i < sig->nparams; i++) {
        p = &sig->params[i];
        buf_printf(b, "    dapto_keep_%s(&_dapto_k, %s(%s));\n",
                   keep_kind(p), p->kind == TYPE_PTR ? "(const void *)" : "",
                   p->name);
    }
    buf_printf(b, "    dapto_keep_end(&_dapto_k, &%s_dapto_aspect_%s, %zu);\n}\n\n",
               g->prefix, a->name, index);
    gen_half_head(g, b, sig, "ask");
    gen_arg_array(b, sig, 4);
    buf_printf(b, "    _dapto_v = dapto_event_filter(&%s_dapto_aspect_%s, %zu, %s, _dapto_v);\n"
               "    if (DAPTO_VERDICT_STATE(_dapto_v) == DAPTO_STATE_TRAIL)\n"
               "        %s_dapto_keep_%s(", g->prefix, a->name,
               index, sig->nparams > 0 ? "_dapto_a" : "NULL", g->prefix, sig->name);
    gen_args(b, sig);
    buf_printf(b, ");\n    else if (_dapto_v != 0)\n        %s_dapto_put_%s(_dapto_v",
               g->prefix, sig->name);
    gen_more_args(b, sig);
    buf_puts(b, ");\n}\n\n");
    /* counted in the program's tree <protocol#cct> and kept: no record;
     * apart, with the record's path, so that the emit function's path
     * of a program asked nothing saves no register (its frame cost 0.35
     * ns an event, make bench-defaults) */
    gen_half_head(g, b, sig, "route");
    buf_printf(b, "    if (_dapto_v == (DAPTO_STATE_TRAIL | DAPTO_STATE_PROFILE)) {\n"
               "        dapto_event_count(&%s_dapto_aspect_%s, %zu);\n"
               "        %s_dapto_keep_%s(", g->prefix, a->name, index, g->prefix, sig->name);
    gen_args(b, sig);
    buf_printf(b, ");\n    } else\n        %s_dapto_put_%s(_dapto_v", g->prefix, sig->name);
    gen_more_args(b, sig);
    buf_puts(b, ");\n}\n\n");
    buf_printf(b, "DAPTO_NOINSTR void %s_dapto_emit_%s(", g->prefix, sig->name);
    gen_params(b, sig);
    buf_printf(b, ")\n{\n    unsigned int _dapto_v = %s_dapto_state[%zu];\n\n"
               "    if (DAPTO_LIKELY(_dapto_v == DAPTO_STATE_TRAIL))\n        %s_dapto_keep_%s(",
               g->prefix, state, g->prefix, sig->name);
    gen_args(b, sig);
    /* the thread's quick clause first <protocol#quick>: no call (here,
     * not in a half of its own: a question's count took 0.6 ns more an
     * event so) */
    buf_printf(b, ");\n    else if (_dapto_v & DAPTO_STATE_FILTER) {\n"
               "        unsigned long long _dapto_t;\n"
               "        struct dapto_quick *_dapto_q =\n"
               "            dapto_quick_entry(&%s_dapto_aspect_%s, %zu, _dapto_v, &_dapto_t);\n"
               "        int _dapto_w = _dapto_q == NULL ? -1\n"
               "                       : dapto_quick_decide(_dapto_q, _dapto_t, ",
               g->prefix, a->name, index);
    gen_quick_value(b, sig);
    buf_printf(b, ");\n\n        if (_dapto_w == DAPTO_STATE_TRAIL)\n"
               "            %s_dapto_keep_%s(", g->prefix, sig->name);
    gen_args(b, sig);
    buf_printf(b, ");\n        else if (_dapto_w != 0)\n"
               "            %s_dapto_ask_%s(_dapto_v", g->prefix, sig->name);
    gen_more_args(b, sig);
    buf_puts(b, ");\n    } else\n");
    buf_printf(b, "        %s_dapto_route_%s(_dapto_v", g->prefix, sig->name);
    gen_more_args(b, sig);
    buf_puts(b, ");\n}\n\n");
}

/* The function of operation SIG: read the arguments, then run the body. */
static void gen_operation(const struct gen *g, struct buf *b,
                          const struct sig *sig)
{
    const struct param *p;
    size_t i;

    buf_printf(b, "static DAPTO_NOINSTR void %s_dapto_op_%s(struct dapto_in *_dapto_in,\n"
               "%*sstruct dapto_out *_dapto_out)\n{\n", g->prefix, sig->name,
               (int)(strlen("static DAPTO_NOINSTR void _dapto_op_(") + strlen(g->prefix) +
                     strlen(sig->name)), "");
    for (i = 0; i < sig->nparams; i++) {
        buf_puts(b, "    ");
        gen_decl(b, &sig->params[i]);
        buf_puts(b, ";\n");
    }
    if (sig->nparams > 0)
        buf_putc(b, '\n');
    for (i = 0; i < sig->nparams; i++) {
        p = &sig->params[i];
        if (p->kind != TYPE_USER) {
            buf_printf(b, "    %s(%s, %s);\n", type_info(p->kind)->arg,
                       p->name, type_info(p->kind)->ctype);
            continue;
        }
        buf_printf(b, "#ifdef DAPTO_ARG%s\n    DAPTO_ARG%s(%s);\n#else\n"
                   "    memset(&%s, 0, sizeof %s);\n"
                   "    dapto_get_unknown(_dapto_in, ", p->type, p->type,
                   p->name, p->name, p->name);
        quote_c(b, p->type);
        buf_puts(b, ");\n#endif\n");
    }
    if (sig->nparams > 0)
        buf_puts(b, "    if (_dapto_in->failed)\n        return;\n");
    else
        buf_puts(b, "    (void)_dapto_in;\n");
    for (i = 0; i < sig->nparams; i++)
        buf_printf(b, "    (void)%s;\n", sig->params[i].name);
    buf_puts(b, "    (void)_dapto_out;\n");
    buf_printf(b, "#line %lu ", sig->body_pos.line);
    quote_c(b, sig->body_pos.file);
    buf_printf(b, "\n%s%s\n", sig->body_indent, sig->body);
    /* the directive is on line lines + 1 and names the line after it */
    buf_printf(b, "#line %zu ", b->lines + 2);
    quote_c(b, g->source);
    buf_puts(b, "\n}\n\n");
}

/* The descriptions of aspect A and the aspect itself.  EVENT0 is the
 * number of A's first event in the state array. */
static void gen_aspect(const struct gen *g, struct buf *b,
                       const struct aspect *a, size_t event0)
{
    const struct sig *sig;
    size_t j, nevents = 0, nops = 0;

    for (j = 0; j < a->nsigs; j++) {
        sig = &a->sigs[j];
        if (sig->kind != SIG_EVENT)
            continue;
        if (nevents++ == 0)
            buf_printf(b, "static const struct dapto_event "
                       "%s_dapto_events_%s[] = {\n", g->prefix, a->name);
        buf_printf(b, "    { \"%s\", ", sig->name);
        quote_c(b, sig->doc);
        buf_printf(b, ",\n      %d, ", sig->visible);
        gen_param_ref(g, b, sig);
        buf_printf(b, ", &%s_dapto_state[%zu] },\n", g->prefix,
                   event0 + nevents - 1);
    }
    if (nevents > 0)
        buf_puts(b, "};\n\n");
    for (j = 0; j < a->nsigs; j++) {
        sig = &a->sigs[j];
        if (sig->kind != SIG_OPERATION)
            continue;
        if (nops++ == 0)
            buf_printf(b, "static const struct dapto_operation "
                       "%s_dapto_ops_%s[] = {\n", g->prefix, a->name);
        buf_printf(b, "    { \"%s\", ", sig->name);
        quote_c(b, sig->doc);
        buf_puts(b, ",\n      ");
        gen_param_ref(g, b, sig);
        if (sig->result_type != NULL)
            buf_printf(b, ", \"%s\", %s,", sig->result_type,
                       type_info(sig->result_kind)->kind);
        else
            buf_puts(b, ", NULL, 0,");
        buf_printf(b, " %s_dapto_op_%s },\n", g->prefix, sig->name);
    }
    if (nops > 0)
        buf_puts(b, "};\n\n");
    buf_printf(b, "struct dapto_aspect %s_dapto_aspect_%s = {\n"
               "    DAPTO_ABI_VERSION, \"%s\", ", g->prefix, a->name, a->name);
    quote_c(b, a->pos.file);
    if (nevents > 0)
        buf_printf(b, ", %zu, %s_dapto_events_%s,", nevents, g->prefix,
                   a->name);
    else
        buf_puts(b, ", 0, NULL,");
    if (nops > 0)
        buf_printf(b, "\n    %zu, %s_dapto_ops_%s, 0, 0, 0\n};\n\n", nops,
                   g->prefix, a->name);
    else
        buf_puts(b, "\n    0, NULL, 0, 0, 0\n};\n\n");
}

void gen_source(const struct gen *g, struct buf *b)
{
    const struct spec *s = g->spec;
    const struct aspect *a;
    const struct sig *sig;
    size_t i, j, index, event0 = 0, nevents = spec_nevents(s);

    gen_banner(b, g, "/* ", " */");
    buf_puts(b, "#include \"");
    buf_puts(b, g->header);
    buf_puts(b, "\"\n\n");
    if (nevents > 0)
        buf_printf(b, "dapto_state_t %s_dapto_state[%zu];\n\n", g->prefix,
                   nevents);
    for (i = 0; i < s->naspects; i++) {
        a = &s->aspects[i];
        buf_printf(b, "/* Aspect %s */\n\n", a->name);
        index = 0;
        for (j = 0; j < a->nsigs; j++) {
            sig = &a->sigs[j];
            if (sig->kind == SIG_EVENT) {
                gen_param_table(g, b, sig);
                gen_encoder(g, b, a, sig, index, event0 + index);
                index++;
            } else if (sig->kind == SIG_OPERATION) {
                gen_param_table(g, b, sig);
                gen_operation(g, b, sig);
            }
        }
        gen_aspect(g, b, a, event0);
        event0 += index;
    }
    buf_printf(b, "/* Register the aspects when the program starts. */\n"
               "static DAPTO_NOINSTR void %s_dapto_register(void) "
               "__attribute__((constructor));\n\n"
               "static DAPTO_NOINSTR void %s_dapto_register(void)\n{\n", g->prefix,
               g->prefix);
    for (i = 0; i < s->naspects; i++)
        buf_printf(b, "    dapto_register(&%s_dapto_aspect_%s);\n", g->prefix,
                   s->aspects[i].name);
    buf_puts(b, "}\n");
}
