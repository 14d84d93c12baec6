/* SPDX-License-Identifier: MIT */
/*
 * gen-header.c - the generated header X_dapto.h: the specification's own
 * #include lines, the event state bytes, and for every event the
 * prototype of its encoder and its stub _dapto_EVENT().
 *
 * The stub is the only code on the program's path when nobody monitors
 * it, so it is one load of the state byte and one predictable branch
 * <design#stub>; everything else is out of line in X_dapto.c.  None of
 * it is instrumented by -finstrument-functions (DAPTO_NOINSTR).
 */
#include <string.h>

#include "gen.h"
#include "quote.h"

/* The USDT probe of event SIG of aspect A at the start of its stub: its
 * arguments as they are (one of a user type by its address), at most the
 * 12 that <sys/sdt.h> takes. */
static void gen_probe(struct buf *b, const struct aspect *a,
                      const struct sig *sig)
{
    size_t i;

    if (sig->nparams > 12)
        return;
    buf_printf(b, "#ifdef DAPTO_PROBES\n    STAP_PROBE%.0zu(%s, %s",
               sig->nparams, a->name, sig->name);
    for (i = 0; i < sig->nparams; i++) {
        const struct param *p = &sig->params[i];
        const char *t = p->type;

        buf_printf(b, ", %s%s",
                   p->kind == TYPE_USER && t[strlen(t) - 1] != '*' ? "&" : "",
                   p->name);
    }
    buf_puts(b, ");\n#endif\n");
}

void gen_header(const struct gen *g, struct buf *b)
{
    const struct spec *s = g->spec;
    const struct aspect *a;
    const struct sig *sig;
    size_t i, j, n = 0, nevents = spec_nevents(s);

    gen_banner(b, g, "/* ", " */");
    buf_printf(b, "#ifndef %s\n#define %s\n\n#include <dapto.h>\n",
               g->guard, g->guard);
    for (i = 0; i < s->naspects; i++) {
        a = &s->aspects[i];
        for (j = 0; j < a->nsigs; j++) {
            sig = &a->sigs[j];
            if (sig->kind == SIG_HEADER)
                buf_printf(b, sig->angled ? "#include <%s>\n" :
                           "#include \"%s\"\n", sig->name);
        }
    }
    /* <design#probes>: the aspects whose events are also probes, in a
     * note that tells noosa so (it takes them from the runtime) */
    if (nevents > 0) {
        buf_puts(b, "\n#ifdef DAPTO_PROBES\n");
        for (i = 0; i < s->naspects; i++) {
            a = &s->aspects[i];
            buf_printf(b, "__asm__(\".pushsection .note.dapto,\\\"\\\","
                       "@note\\n.balign 4\\n.4byte 6, %zu, 1\\n"
                       ".asciz \\\"dapto\\\"\\n.balign 4\\n"
                       ".asciz \\\"%s\\\"\\n.balign 4\\n.popsection\");\n",
                       strlen(a->name) + 1, a->name);
        }
        buf_puts(b, "#endif\n");
    }
    buf_puts(b, "\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
    buf_puts(b, "/* The aspects, registered with the runtime at start-up. */\n");
    for (i = 0; i < s->naspects; i++)
        buf_printf(b, "extern struct dapto_aspect %s_dapto_aspect_%s;\n",
                   g->prefix, s->aspects[i].name);
    if (nevents > 0) {
        buf_printf(b, "\n/* One state byte per event, written by the monitor; "
                   "zero means off. */\nextern dapto_state_t "
                   "%s_dapto_state[%zu];\n", g->prefix, nevents);
    }
    for (i = 0; i < s->naspects; i++) {
        a = &s->aspects[i];
        for (j = 0; j < a->nsigs; j++) {
            sig = &a->sigs[j];
            if (sig->kind != SIG_EVENT)
                continue;
            buf_printf(b, "\n/* %s%s: ", sig->name, sig->visible ? "*" : "");
            quote_comment(b, sig->doc);
            buf_puts(b, " */\n");
            buf_printf(b, "DAPTO_NOINSTR void %s_dapto_emit_%s(", g->prefix,
                       sig->name);
            gen_params(b, sig);
            buf_printf(b, ");\n\nstatic inline DAPTO_NOINSTR void _dapto_%s(",
                       sig->name);
            gen_params(b, sig);
            buf_puts(b, ")\n{\n");
            gen_probe(b, a, sig);
            buf_printf(b, "    if (DAPTO_UNLIKELY(%s_dapto_state[%zu]))\n"
                       "        %s_dapto_emit_%s(", g->prefix, n, g->prefix,
                       sig->name);
            gen_args(b, sig);
            buf_puts(b, ");\n}\n");
            n++;
        }
    }
    buf_printf(b, "\n#ifdef __cplusplus\n}\n#endif\n\n#endif /* %s */\n",
               g->guard);
}
