/* SPDX-License-Identifier: MIT */
/*
 * interface-test.c - calc's monitoring interfaces, tested inside the
 * program without a monitor.
 *
 * The test links calc's modules built with -DMONITOR and the code dapto
 * generated for them, turns every event on, and stands in for the
 * runtime's event path: it defines dapto_event_begin/end/end_as and
 * dapto_emit_enter/leave itself (the program's own definitions take
 * precedence over libdapto's), decodes each event's values as the
 * channel would carry them (<protocol#record>), and keeps a trace.  The
 * operations are called through the aspects' descriptions, as the
 * runtime calls them for n_send, at chosen events ("stops") and after a
 * run.  This checks what calc emits and answers; carrying it to noosa is
 * the runtime's business and is tested there.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dapto.h>

#include "buf.h"
#include "env_dapto.h"
#include "eval_dapto.h"
#include "lexer_dapto.h"
#include "parser.h"
#include "run.h"
#include "strtab_dapto.h"
#include "tree_dapto.h"
#include "value_dapto.h"
#include "unit.h"

/* --- values as the channel carries them ------------------------------ */

struct val {
    int kind; /* enum dapto_kind */
    long long i;
    double d;
    const void *p;
    const char *s; /* strings: into the text of their struct vals */
};

#define MAX_VALS 16

struct vals {
    int n;
    int bad; /* a value did not decode */
    struct val v[MAX_VALS];
    size_t used;
    char text[2048]; /* the strings, NUL-terminated one after another */
};

static void decode(const unsigned char *p, const unsigned char *end,
                   struct vals *out)
{
    out->n = 0;
    out->bad = 0;
    out->used = 0;
    while (p < end) {
        struct val *v = &out->v[out->n];
        int tag = *p++ & ~DAPTO_K_TRUNC;
        unsigned int len;
        int iv;
        long lv;
        unsigned long long u;

        if (out->n == MAX_VALS) {
            out->bad = 1;
            return;
        }
        memset(v, 0, sizeof *v);
        v->kind = tag;
        switch (tag) {
        case DAPTO_K_INT:
            memcpy(&iv, p, 4);
            v->i = iv;
            p += 4;
            break;
        case DAPTO_K_LONG:
            memcpy(&lv, p, 8);
            v->i = lv;
            p += 8;
            break;
        case DAPTO_K_DOUBLE:
            memcpy(&v->d, p, 8);
            p += 8;
            break;
        case DAPTO_K_PTR:
            memcpy(&u, p, 8);
            v->p = (const void *)(size_t)u;
            v->i = (long long)u;
            p += 8;
            break;
        case DAPTO_K_STR:
            memcpy(&len, p, 4);
            p += 4;
            if (len >= sizeof out->text - out->used || p + len + 1 > end) {
                out->bad = 1;
                return;
            }
            memcpy(out->text + out->used, p, len);
            out->text[out->used + len] = '\0';
            v->s = out->text + out->used;
            out->used += len + 1;
            p += len + 1;
            break;
        case DAPTO_K_UNKNOWN:
            break;
        default:
            out->bad = 1;
            return;
        }
        out->n++;
    }
}

/* Copy FROM to TO, strings included. */
static void vals_copy(struct vals *to, const struct vals *from)
{
    int i;

    *to = *from;
    for (i = 0; i < to->n; i++) {
        if (to->v[i].s != NULL)
            to->v[i].s = to->text + (from->v[i].s - from->text);
    }
}

/* --- the trace of events -------------------------------------------- */

struct event {
    char name[32];
    struct vals vals;
    char stack[256]; /* the component stack when it happened: "driver/parser" */
};

static struct event *trace;
static int ntrace, captrace;
static char stack[256];   /* current component stack */
static int unbalanced;    /* a leave that did not match */
static void (*stop_hook)(const struct event *ev);

static void record(const char *name, const struct vals *vals)
{
    struct event *ev;

    if (ntrace == captrace) {
        captrace = captrace == 0 ? 1024 : captrace * 2;
        trace = realloc(trace, (size_t)captrace * sizeof *trace);
        if (trace == NULL)
            abort();
    }
    ev = &trace[ntrace++];
    snprintf(ev->name, sizeof ev->name, "%s", name);
    vals_copy(&ev->vals, vals);
    snprintf(ev->stack, sizeof ev->stack, "%s", stack);
    if (stop_hook != NULL)
        stop_hook(ev);
}

struct dapto_out *dapto_event_begin(struct dapto_out *o, unsigned char *buf,
                                    size_t size,
                                    const struct dapto_aspect *aspect,
                                    unsigned int index)
{
    o->base = buf;
    o->p = buf + DAPTO_EVENT_HEADER;
    o->end = buf + size;
    o->count = 0;
    o->truncated = 0;
    o->aspect = aspect;
    o->index = index;
    return o;
}

void dapto_event_end(struct dapto_out *o)
{
    struct vals vals;

    decode(o->base + DAPTO_EVENT_HEADER, o->p, &vals);
    CHECK(!vals.bad);
    CHECK_EQ_INT(vals.n, o->aspect->events[o->index].nparams);
    record(o->aspect->events[o->index].name, &vals);
}

/* The end of an encoder of an event of the built-in types, in state V:
 * every event is on and has no filter here. */
void dapto_event_end_as(struct dapto_out *o, unsigned int v)
{
    CHECK_EQ_INT(v, DAPTO_STATE_RECORD);
    dapto_event_end(o);
}

/* VALS holding the single string S. */
static void vals_str(struct vals *vals, const char *s)
{
    memset(vals, 0, sizeof *vals);
    vals->n = 1;
    vals->v[0].kind = DAPTO_K_STR;
    snprintf(vals->text, sizeof vals->text, "%s", s);
    vals->v[0].s = vals->text;
}

void dapto_emit_enter(const char *name)
{
    struct vals vals;

    vals_str(&vals, name);
    if (stack[0] != '\0')
        strncat(stack, "/", sizeof stack - strlen(stack) - 1);
    strncat(stack, name, sizeof stack - strlen(stack) - 1);
    record("enter", &vals);
}

void dapto_emit_leave(const char *name)
{
    struct vals vals;
    char *slash = strrchr(stack, '/');
    const char *top = slash != NULL ? slash + 1 : stack;

    vals_str(&vals, name);
    record("leave", &vals);
    if (strcmp(top, name) != 0) {
        fprintf(stderr, "leave %s with stack %s\n", name, stack);
        unbalanced++;
    }
    if (slash != NULL)
        *slash = '\0';
    else
        stack[0] = '\0';
}

static const struct dapto_aspect *const aspects[] = {
    &strtab_dapto_aspect_string, &lexer_dapto_aspect_lexical,
    &tree_dapto_aspect_tree,     &env_dapto_aspect_environment,
    &value_dapto_aspect_value,   &eval_dapto_aspect_evaluator,
};
#define NASPECTS (sizeof aspects / sizeof aspects[0])

static void set_all_states(unsigned char state)
{
    size_t a;
    unsigned int e;

    for (a = 0; a < NASPECTS; a++) {
        for (e = 0; e < aspects[a]->nevents; e++)
            *aspects[a]->events[e].state = state;
    }
    dapto_builtin_state[DAPTO_EV_ENTER] = state;
    dapto_builtin_state[DAPTO_EV_LEAVE] = state;
}

/* Run PROGRAM with every event on; its output goes to OUT (NUL-terminated,
 * cut to its size), its errors are kept in ERR.  Returns calc's status. */
static int run(const char *program, char *out, size_t outsize, char *err,
               size_t errsize)
{
    FILE *o = tmpfile(), *e = tmpfile();
    size_t n;
    int status;

    if (o == NULL || e == NULL)
        abort();
    ntrace = 0;
    stack[0] = '\0';
    unbalanced = 0;
    set_all_states(DAPTO_STATE_RECORD);
    status = calc_run("t.calc", program, strlen(program), o, e);
    set_all_states(DAPTO_STATE_OFF);
    rewind(o);
    n = fread(out, 1, outsize - 1, o);
    out[n] = '\0';
    rewind(e);
    n = fread(err, 1, errsize - 1, e);
    err[n] = '\0';
    fclose(o);
    fclose(e);
    return status;
}

/* --- calling operations ---------------------------------------------- */

struct call {
    unsigned char args[1024];
    struct dapto_out a;
    int failed;
    char message[160];
    struct vals res;
};

static void call_begin(struct call *c)
{
    c->a.base = c->a.p = c->args;
    c->a.end = c->args + sizeof c->args;
    c->a.count = 0;
    c->a.truncated = 0;
    c->a.aspect = NULL;
    c->a.index = 0;
}

/* Run operation NAME of whichever aspect has it.  Returns 0 when it ran,
 * 1 when it refused its arguments (c->message), -1 when unknown. */
static int call_run(struct call *c, const char *name)
{
    static unsigned char resbuf[65536];
    struct dapto_in in;
    struct dapto_out out;
    size_t a;
    unsigned int i;

    for (a = 0; a < NASPECTS; a++) {
        for (i = 0; i < aspects[a]->nops; i++) {
            const struct dapto_operation *op = &aspects[a]->ops[i];

            if (strcmp(op->name, name) != 0)
                continue;
            in.p = c->args;
            in.end = c->a.p;
            in.index = 0;
            in.failed = 0;
            in.message[0] = '\0';
            out.base = out.p = resbuf;
            out.end = resbuf + sizeof resbuf;
            out.count = 0;
            out.truncated = 0;
            out.aspect = NULL;
            out.index = 0;
            op->fn(&in, &out);
            c->failed = in.failed;
            snprintf(c->message, sizeof c->message, "%s", in.message);
            decode(resbuf, out.p, &c->res);
            CHECK(!c->res.bad);
            CHECK_EQ_INT(c->res.n, out.count);
            return c->failed ? 1 : 0;
        }
    }
    return -1;
}

/* Call NAME with arguments described by FMT ('i' int, 's' str, 'p'
 * pointer); the results are in *C.  Returns as call_run(). */
static int op(struct call *c, const char *name, const char *fmt, ...)
{
    va_list ap;

    call_begin(c);
    va_start(ap, fmt);
    for (; *fmt != '\0'; fmt++) {
        if (*fmt == 'i')
            dapto_put_int(&c->a, va_arg(ap, int));
        else if (*fmt == 's')
            dapto_put_str(&c->a, va_arg(ap, const char *));
        else
            dapto_put_ptr(&c->a, va_arg(ap, const void *));
    }
    va_end(ap);
    return call_run(c, name);
}

/* The single pointer an operation returned. */
static const void *op_ptr(const char *name, const char *fmt, const void *arg)
{
    struct call c;
    int r = *fmt == '\0' ? op(&c, name, "") : op(&c, name, fmt, arg);

    CHECK_EQ_INT(r, 0);
    CHECK_EQ_INT(c.res.n, 1);
    CHECK_EQ_INT(c.res.v[0].kind, DAPTO_K_PTR);
    return c.res.v[0].p;
}

/* --- helpers ---------------------------------------------------------- */

static int count_events(const char *name)
{
    int i, n = 0;

    for (i = 0; i < ntrace; i++)
        n += strcmp(trace[i].name, name) == 0;
    return n;
}

/* The Nth event called NAME, or NULL. */
static const struct event *nth_event(const char *name, int nth)
{
    int i;

    for (i = 0; i < ntrace; i++) {
        if (strcmp(trace[i].name, name) == 0 && nth-- == 0)
            return &trace[i];
    }
    return NULL;
}

/* The last component of an event's stack. */
static const char *top_of(const struct event *ev)
{
    const char *s = strrchr(ev->stack, '/');

    return s != NULL ? s + 1 : ev->stack;
}

/* Kind and printed form of value V through get_value: "int 13". */
static const char *describe(const void *v)
{
    static char text[1100];
    struct call c;

    if (op(&c, "get_value", "p", v) != 0 || c.res.n < 2)
        return "(refused)";
    snprintf(text, sizeof text, "%s %s", c.res.v[0].s, c.res.v[1].s);
    return text;
}

/* The name bound by get_scope_info's results, pair K. */
static const char *scope_name(const struct call *c, int k)
{
    static char name[512];
    struct call s;

    if (op(&s, "get_string", "i", (int)c->res.v[1 + 2 * k].i) != 0)
        return "(refused)";
    snprintf(name, sizeof name, "%s", s.res.v[0].s);
    return name;
}

/* --- the tests -------------------------------------------------------- */

/* Tokens, strings, nodes, environments, values and output of a small
 * program, in order. */
static void test_events(void)
{
    static const struct {
        int kind;
        const char *name, *text;
        int line, col;
    } tokens[] = {
        { T_LET, "'let'", "let", 1, 1 },   { T_IDENT, "name", "x", 1, 5 },
        { T_ASSIGN, "'='", "=", 1, 7 },    { T_INT, "integer", "12", 1, 9 },
        { T_IN, "'in'", "in", 1, 12 },     { T_PRINT, "'print'", "print", 2, 3 },
        { T_IDENT, "name", "x", 2, 9 },    { T_PLUS, "'+'", "+", 2, 11 },
        { T_STR, "string", "\"a\\tb\"", 2, 13 },
        { T_SEMI, "';'", ";", 2, 19 },     { T_EOF, "end of input", "", 3, 1 },
    };
    static const int kinds[] = { N_INT, N_NAME, N_STR, N_BINARY, N_PRINT,
                                 N_LET, N_PROGRAM };
    char out[256], err[1024];
    const struct event *ev;
    const void *builtins, *global, *letenv;
    size_t i;
    int status;

    status = run("let x = 12 in\n  print x + \"a\\tb\";\n", out, sizeof out,
                 err, sizeof err);
    CHECK_EQ_INT(status, 1); /* int + str */
    CHECK(strstr(err, "t.calc:2:11: error: operator '+' cannot be applied "
                      "to int and str") != NULL);

    /* token*(kind, name, text, line, col) */
    CHECK_EQ_INT(count_events("token"), sizeof tokens / sizeof tokens[0]);
    for (i = 0; i < sizeof tokens / sizeof tokens[0]; i++) {
        ev = nth_event("token", (int)i);
        if (ev == NULL)
            break;
        CHECK_EQ_INT(ev->vals.v[0].i, tokens[i].kind);
        CHECK(strcmp(ev->vals.v[1].s, tokens[i].name) == 0);
        CHECK(strcmp(ev->vals.v[2].s, tokens[i].text) == 0);
        CHECK_EQ_INT(ev->vals.v[3].i, tokens[i].line);
        CHECK_EQ_INT(ev->vals.v[4].i, tokens[i].col);
        CHECK(strcmp(ev->stack, "driver/parser/lexical") == 0);
    }

    /* string_stored*(index, string): x once, the literal, the built-ins. */
    CHECK_EQ_INT(count_events("string_stored"), 4);
    ev = nth_event("string_stored", 0);
    CHECK(ev != NULL && ev->vals.v[0].i == 0 && strcmp(ev->vals.v[1].s, "x") == 0);
    CHECK(ev != NULL && strcmp(ev->stack, "driver/parser/lexical/string") == 0);
    ev = nth_event("string_stored", 1);
    CHECK(ev != NULL && ev->vals.v[0].i == 1 && strcmp(ev->vals.v[1].s, "a\tb") == 0);
    ev = nth_event("string_stored", 2);
    CHECK(ev != NULL && ev->vals.v[0].i == 2 && strcmp(ev->vals.v[1].s, "str") == 0);
    CHECK(ev != NULL && strcmp(ev->stack, "driver/evaluator/string") == 0);

    /* node_created*(node, kind, line, col), children first. */
    CHECK_EQ_INT(count_events("node_created"), sizeof kinds / sizeof kinds[0]);
    for (i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        ev = nth_event("node_created", (int)i);
        if (ev == NULL)
            break;
        CHECK_EQ_INT(ev->vals.v[1].i, kinds[i]);
        CHECK(tree_is_node(ev->vals.v[0].p));
        CHECK(strcmp(top_of(ev), "tree") == 0);
    }
    ev = nth_event("node_created", 3); /* the + */
    CHECK(ev != NULL && ev->vals.v[2].i == 2 && ev->vals.v[3].i == 11);
    ev = nth_event("node_created", 6);
    CHECK(ev != NULL && ev->vals.v[0].p == tree_root());

    /* env_created*(env, parent): built-ins, global, the let's. */
    CHECK_EQ_INT(count_events("env_created"), 3);
    builtins = nth_event("env_created", 0)->vals.v[0].p;
    CHECK(nth_event("env_created", 0)->vals.v[1].p == NULL);
    global = nth_event("env_created", 1)->vals.v[0].p;
    CHECK(nth_event("env_created", 1)->vals.v[1].p == builtins);
    CHECK(global == env_global());
    letenv = nth_event("env_created", 2)->vals.v[0].p;
    CHECK(nth_event("env_created", 2)->vals.v[1].p == global);
    CHECK(strcmp(nth_event("env_created", 2)->stack,
                 "driver/evaluator/environment") == 0);

    /* binding_made*(env, idn, v) */
    CHECK_EQ_INT(count_events("binding_made"), 3);
    ev = nth_event("binding_made", 0);
    CHECK(ev->vals.v[0].p == builtins && ev->vals.v[1].i == 2);
    CHECK(strcmp(describe(ev->vals.v[2].p), "builtin <builtin str/1>") == 0);
    ev = nth_event("binding_made", 2);
    CHECK(ev->vals.v[0].p == letenv && ev->vals.v[1].i == 0);
    CHECK(strcmp(describe(ev->vals.v[2].p), "int 12") == 0);

    /* value_computed(node, v): 12, x, "a\tb", then the error. */
    CHECK_EQ_INT(count_events("value_computed"), 3);
    ev = nth_event("value_computed", 1);
    CHECK(strcmp(describe(ev->vals.v[1].p), "int 12") == 0);
    CHECK(((Node)ev->vals.v[0].p)->kind == N_NAME);
    CHECK(strcmp(describe(nth_event("value_computed", 2)->vals.v[1].p),
                 "str a\tb") == 0);

    /* runtime_error*(node, message), and nothing printed. */
    CHECK_EQ_INT(count_events("runtime_error"), 1);
    ev = nth_event("runtime_error", 0);
    CHECK(((Node)ev->vals.v[0].p)->kind == N_BINARY);
    CHECK(strcmp(ev->vals.v[1].s, "operator '+' cannot be applied to int and str") == 0);
    CHECK_EQ_INT(count_events("printed"), 0);
    CHECK(out[0] == '\0');

    /* The component brackets match, also on the error path. */
    CHECK_EQ_INT(unbalanced, 0);
    CHECK(stack[0] == '\0');
    CHECK(strcmp(trace[0].name, "enter") == 0 &&
          strcmp(trace[0].vals.v[0].s, "driver") == 0);
    CHECK(strcmp(trace[ntrace - 1].name, "leave") == 0 &&
          strcmp(trace[ntrace - 1].vals.v[0].s, "driver") == 0);
    calc_free();
}

/* Calls and output: call_entered/call_returned with depths, printed. */
static void test_calls(void)
{
    char out[256], err[256];
    const struct event *ev;
    int i;

    CHECK_EQ_INT(run("fn f(n) = if n == 0 then 0 else n + f(n - 1);\n"
                     "print \"sum\", f(3), len(\"abc\");", out, sizeof out,
                     err, sizeof err), 0);
    CHECK(strcmp(out, "sum 6 3\n") == 0);
    CHECK(err[0] == '\0');
    CHECK_EQ_INT(count_events("printed"), 1);
    CHECK(strcmp(nth_event("printed", 0)->vals.v[0].s, "sum 6 3") == 0);
    CHECK_EQ_INT(count_events("call_entered"), 5); /* f 4 times, len */
    CHECK_EQ_INT(count_events("call_returned"), 5);
    for (i = 0; i < 4; i++) {
        ev = nth_event("call_entered", i);
        CHECK_EQ_INT(ev->vals.v[2].i, i + 1);
        CHECK(strcmp(describe(ev->vals.v[1].p), "fn <fn f/1>") == 0);
        CHECK(((Node)ev->vals.v[0].p)->kind == N_CALL);
        ev = nth_event("call_returned", i);
        CHECK_EQ_INT(ev->vals.v[2].i, 4 - i);
    }
    CHECK(strcmp(describe(nth_event("call_returned", 0)->vals.v[1].p), "int 0") == 0);
    CHECK(strcmp(describe(nth_event("call_returned", 3)->vals.v[1].p), "int 6") == 0);
    ev = nth_event("call_entered", 4);
    CHECK(strcmp(describe(ev->vals.v[1].p), "builtin <builtin len/1>") == 0);
    CHECK_EQ_INT(ev->vals.v[2].i, 1);
    CHECK_EQ_INT(unbalanced, 0);
    calc_free();
}

/* Syntax and lexical errors: no evaluation, brackets still balanced. */
static void test_syntax_errors(void)
{
    static const char *const programs[] = { "print (1 +;", "let x = 1 in",
                                            "print 1 @ 2;", "print \"abc" };
    char out[64], err[256];
    size_t i;

    for (i = 0; i < sizeof programs / sizeof programs[0]; i++) {
        CHECK_EQ_INT(run(programs[i], out, sizeof out, err, sizeof err), 1);
        CHECK(strstr(err, "t.calc:1:") == err);
        CHECK_EQ_INT(unbalanced, 0);
        CHECK(stack[0] == '\0');
        CHECK(ntrace > 0 && strcmp(trace[ntrace - 1].name, "leave") == 0 &&
              strcmp(trace[ntrace - 1].vals.v[0].s, "driver") == 0);
        CHECK_EQ_INT(count_events("env_created"), 0);
        CHECK(tree_root() == NULL);
        calc_free();
    }
}

/* At the third nested call, as a monitor stopped there would: the call
 * stack, the arguments in the call's environment, the current one. */
static int stops_seen;

static void stop_at_depth_3(const struct event *ev)
{
    struct call c;
    const void *frame_env[3];
    int i;

    if (strcmp(ev->name, "call_entered") != 0 || ev->vals.v[2].i != 3)
        return;
    stops_seen++;
    stop_hook = NULL; /* operations must not emit events; see below */
    CHECK_EQ_INT(op(&c, "get_call_depth", ""), 0);
    CHECK_EQ_INT(c.res.v[0].i, 3);
    CHECK_EQ_INT(op(&c, "get_call_stack", ""), 0);
    CHECK_EQ_INT(c.res.n, 9);
    for (i = 0; i < 3 && c.res.n == 9; i++) {
        CHECK(((Node)c.res.v[3 * i].p)->kind == N_CALL);
        CHECK(strcmp(describe(c.res.v[3 * i + 1].p), "fn <fn down/1>") == 0);
        frame_env[i] = c.res.v[3 * i + 2].p;
    }
    CHECK(c.res.v[0].p == ev->vals.v[0].p); /* innermost first */
    if (c.res.n == 9) {
        for (i = 0; i < 3; i++) {
            char want[16];

            CHECK_EQ_INT(op(&c, "get_scope_info", "p", frame_env[i]), 0);
            CHECK_EQ_INT(c.res.n, 3);
            CHECK(c.res.v[0].p == env_global());
            CHECK(strcmp(scope_name(&c, 0), "n") == 0);
            /* The innermost n is 3, then 4, then 5. */
            snprintf(want, sizeof want, "int %d", 3 + i);
            CHECK(strcmp(describe(c.res.v[2].p), want) == 0);
        }
        /* The call is evaluated in its caller's environment. */
        CHECK(op_ptr("get_current_env", "", NULL) == frame_env[1]);
    }
    /* The current environment names what the caller sees. */
    CHECK_EQ_INT(op(&c, "lookup_name", "ps", op_ptr("get_current_env", "", NULL), "n"), 0);
    CHECK(strcmp(describe(c.res.v[0].p), "int 4") == 0);
    CHECK_EQ_INT(op(&c, "lookup_name", "ps", op_ptr("get_current_env", "", NULL), "down"), 0);
    CHECK(strcmp(describe(c.res.v[0].p), "fn <fn down/1>") == 0);
    CHECK_EQ_INT(op(&c, "lookup_name", "ps", op_ptr("get_current_env", "", NULL), "nowhere"), 0);
    CHECK(c.res.v[0].p == NULL);
}

static void test_stop(void)
{
    char out[256], err[256];
    int before;

    stops_seen = 0;
    stop_hook = stop_at_depth_3;
    CHECK_EQ_INT(run("fn down(n) = if n == 0 then 0 else down(n - 1);\n"
                     "down(5);", out, sizeof out, err, sizeof err), 0);
    stop_hook = NULL;
    CHECK_EQ_INT(stops_seen, 1);
    /* Operations emit no events: a monitor's n_send must not add to the
     * trace or disturb the component stack. */
    set_all_states(DAPTO_STATE_RECORD);
    before = ntrace;
    {
        struct call c;

        int ran = 0;

        ran += op(&c, "lookup_name", "ps", env_global(), "down") == 0;
        ran += op(&c, "get_value", "p", c.res.v[0].p) == 0;
        ran += op(&c, "get_scope_info", "p", env_global()) == 0;
        ran += op(&c, "get_global_env", "") == 0;
        ran += op(&c, "unparse_node", "p", tree_root()) == 0;
        ran += op(&c, "get_node_info", "p", tree_root()) == 0;
        ran += op(&c, "get_node_children", "p", tree_root()) == 0;
        ran += op(&c, "get_node_attrs", "p", tree_root()) == 0;
        ran += op(&c, "get_tree_root", "") == 0;
        ran += op(&c, "node_kind_name", "i", 1) == 0;
        ran += op(&c, "find_string", "s", "down") == 0;
        ran += op(&c, "get_string", "i", 0) == 0;
        ran += op(&c, "string_count", "") == 0;
        ran += op(&c, "token_name", "i", 1) == 0;
        ran += op(&c, "get_call_depth", "") == 0;
        ran += op(&c, "get_call_stack", "") == 0;
        ran += op(&c, "get_current_env", "") == 0;
        CHECK_EQ_INT(ran, 17); /* every operation */
    }
    CHECK_EQ_INT(ntrace, before);
    set_all_states(DAPTO_STATE_OFF);
    calc_free();
}

/* The string table, token and node kinds. */
static void test_names(void)
{
    char out[64], err[64];
    struct call c;

    CHECK_EQ_INT(run("let abc = \"xyz\";", out, sizeof out, err, sizeof err), 0);
    CHECK_EQ_INT(op(&c, "get_string", "i", 0), 0);
    CHECK(c.res.n == 1 && strcmp(c.res.v[0].s, "abc") == 0);
    CHECK_EQ_INT(op(&c, "get_string", "i", 1), 0);
    CHECK(strcmp(c.res.v[0].s, "xyz") == 0);
    CHECK_EQ_INT(op(&c, "get_string", "i", 99), 0);
    CHECK(strcmp(c.res.v[0].s, "*** Illegal string table index ***") == 0);
    CHECK_EQ_INT(op(&c, "get_string", "i", -1), 0);
    CHECK(strcmp(c.res.v[0].s, "*** Illegal string table index ***") == 0);
    CHECK_EQ_INT(op(&c, "string_count", ""), 0);
    CHECK_EQ_INT(c.res.v[0].i, 4); /* abc xyz str len */
    CHECK_EQ_INT(op(&c, "find_string", "s", "len"), 0);
    CHECK_EQ_INT(c.res.v[0].i, 3);
    CHECK_EQ_INT(op(&c, "find_string", "s", "nope"), 0);
    CHECK_EQ_INT(c.res.v[0].i, -1);
    CHECK_EQ_INT(op(&c, "token_name", "i", T_LET), 0);
    CHECK(strcmp(c.res.v[0].s, "'let'") == 0);
    CHECK_EQ_INT(op(&c, "token_name", "i", 999), 0);
    CHECK(strcmp(c.res.v[0].s, "unknown token") == 0);
    CHECK_EQ_INT(op(&c, "node_kind_name", "i", N_LETFN), 0);
    CHECK(strcmp(c.res.v[0].s, "letfn") == 0);
    CHECK_EQ_INT(op(&c, "no_such_operation", ""), -1);
    calc_free();
}

/* Walking a tree through get_node_info, get_node_attrs and
 * get_node_children, as the Node browser does. */
static void test_tree(void)
{
    char out[64], err[64];
    const void *root, *def, *fn, *body, *kid;
    struct call c;

    CHECK_EQ_INT(run("fn f(a, b) = a * -b;\nprint \"q\\\"\" + str(f(2, 3));",
                     out, sizeof out, err, sizeof err), 0);
    CHECK(strcmp(out, "q\"-6\n") == 0);
    root = op_ptr("get_tree_root", "", NULL);
    CHECK(root == tree_root());
    CHECK_EQ_INT(op(&c, "get_node_info", "p", root), 0);
    CHECK_EQ_INT(c.res.n, 5);
    CHECK_EQ_INT(c.res.v[0].i, N_PROGRAM);
    CHECK(strcmp(c.res.v[1].s, "program") == 0);
    CHECK_EQ_INT(c.res.v[2].i, 1);
    CHECK_EQ_INT(c.res.v[3].i, 1);
    CHECK_EQ_INT(c.res.v[4].i, 2);
    CHECK_EQ_INT(op(&c, "get_node_children", "p", root), 0);
    CHECK_EQ_INT(c.res.n, 4);
    CHECK(strcmp(c.res.v[0].s, "item") == 0 && strcmp(c.res.v[2].s, "item") == 0);
    def = c.res.v[1].p;

    CHECK_EQ_INT(op(&c, "get_node_info", "p", def), 0);
    CHECK(strcmp(c.res.v[1].s, "define") == 0);
    CHECK(c.res.v[2].i == 1 && c.res.v[3].i == 4); /* the name's position */
    CHECK_EQ_INT(op(&c, "get_node_attrs", "p", def), 0);
    CHECK_EQ_INT(c.res.n, 4);
    CHECK(strcmp(c.res.v[0].s, "idn") == 0 && c.res.v[1].kind == DAPTO_K_INT);
    CHECK(strcmp(c.res.v[2].s, "name") == 0 && strcmp(c.res.v[3].s, "f") == 0);
    CHECK_EQ_INT(op(&c, "unparse_node", "p", def), 0);
    CHECK(strcmp(c.res.v[0].s, "fn f(a, b) = a * -b") == 0);

    CHECK_EQ_INT(op(&c, "get_node_children", "p", def), 0);
    CHECK(c.res.n == 2 && strcmp(c.res.v[0].s, "value") == 0);
    fn = c.res.v[1].p;
    CHECK_EQ_INT(op(&c, "get_node_children", "p", fn), 0);
    CHECK_EQ_INT(c.res.n, 6);
    CHECK(strcmp(c.res.v[0].s, "param") == 0 && strcmp(c.res.v[2].s, "param") == 0 &&
          strcmp(c.res.v[4].s, "body") == 0);
    body = c.res.v[5].p;
    CHECK_EQ_INT(op(&c, "get_node_attrs", "p", body), 0);
    CHECK(c.res.n == 2 && strcmp(c.res.v[0].s, "operator") == 0 &&
          strcmp(c.res.v[1].s, "*") == 0);
    CHECK_EQ_INT(op(&c, "get_node_children", "p", body), 0);
    CHECK(c.res.n == 4 && strcmp(c.res.v[0].s, "left") == 0 &&
          strcmp(c.res.v[2].s, "right") == 0);
    kid = c.res.v[3].p;
    CHECK_EQ_INT(op(&c, "get_node_info", "p", kid), 0);
    CHECK(strcmp(c.res.v[1].s, "unary") == 0 && c.res.v[2].i == 1 && c.res.v[3].i == 18);

    /* The second item: print "q\"" + str(f(2, 3)) */
    CHECK_EQ_INT(op(&c, "get_node_children", "p", root), 0);
    CHECK_EQ_INT(op(&c, "unparse_node", "p", c.res.v[3].p), 0);
    CHECK(strcmp(c.res.v[0].s, "print \"q\\\"\" + str(f(2, 3))") == 0);
    CHECK_EQ_INT(op(&c, "get_node_children", "p", root), 0);
    CHECK_EQ_INT(op(&c, "get_node_children", "p", c.res.v[3].p), 0); /* print */
    CHECK_EQ_INT(op(&c, "get_node_children", "p", c.res.v[1].p), 0); /* + */
    CHECK_EQ_INT(op(&c, "get_node_attrs", "p", c.res.v[1].p), 0);     /* "q\"" */
    CHECK(c.res.n == 4 && strcmp(c.res.v[2].s, "text") == 0 &&
          strcmp(c.res.v[3].s, "q\"") == 0);
    calc_free();
}

/* Environments and values: the global scope, closures. */
static void test_env(void)
{
    char out[64], err[64];
    const void *global, *v, *fn;
    struct call c;

    CHECK_EQ_INT(op(&c, "get_global_env", ""), 0);
    CHECK(c.res.v[0].p == NULL); /* before any run */
    CHECK_EQ_INT(run("let k = 10;\nfn add(x) = x + k;\nlet two = fn (a, b) a;",
                     out, sizeof out, err, sizeof err), 0);
    global = op_ptr("get_global_env", "", NULL);
    CHECK(global == env_global());
    CHECK_EQ_INT(op(&c, "get_scope_info", "p", global), 0);
    CHECK_EQ_INT(c.res.n, 7);
    CHECK(c.res.v[0].p != NULL); /* the built-ins */
    CHECK(strcmp(scope_name(&c, 0), "k") == 0);
    CHECK(strcmp(describe(c.res.v[2].p), "int 10") == 0);
    CHECK(strcmp(scope_name(&c, 1), "add") == 0);
    CHECK(strcmp(describe(c.res.v[4].p), "fn <fn add/1>") == 0);
    CHECK(strcmp(scope_name(&c, 2), "two") == 0);
    CHECK(strcmp(describe(c.res.v[6].p), "fn <fn/2>") == 0);

    CHECK_EQ_INT(op(&c, "get_scope_info", "p", c.res.v[0].p), 0);
    CHECK_EQ_INT(c.res.n, 5);
    CHECK(c.res.v[0].p == NULL);
    CHECK(strcmp(scope_name(&c, 0), "str") == 0);
    CHECK(strcmp(scope_name(&c, 1), "len") == 0);

    CHECK_EQ_INT(op(&c, "lookup_name", "ps", global, "add"), 0);
    v = c.res.v[0].p;
    CHECK_EQ_INT(op(&c, "get_value", "p", v), 0);
    CHECK_EQ_INT(c.res.n, 4);
    CHECK(strcmp(c.res.v[0].s, "fn") == 0 && strcmp(c.res.v[1].s, "<fn add/1>") == 0);
    fn = c.res.v[2].p;
    CHECK(c.res.v[3].p == global);
    CHECK_EQ_INT(op(&c, "unparse_node", "p", fn), 0);
    CHECK(strcmp(c.res.v[0].s, "fn add(x) = x + k") == 0);
    CHECK_EQ_INT(op(&c, "lookup_name", "ps", global, "len"), 0);
    CHECK_EQ_INT(op(&c, "get_value", "p", c.res.v[0].p), 0);
    CHECK_EQ_INT(c.res.n, 2);
    CHECK_EQ_INT(op(&c, "lookup_name", "ps", global, "nope"), 0);
    CHECK(c.res.v[0].p == NULL);
    calc_free();
}

/* Addresses that are not what an operation expects are refused. */
static void test_refusals(void)
{
    char out[64], err[64];
    const void *root, *global, *v;
    int local = 0;
    struct call c;

    CHECK_EQ_INT(run("let s = \"x\";", out, sizeof out, err, sizeof err), 0);
    root = tree_root();
    global = env_global();
    v = env_resolve(env_global(), strtab_find("s", 1));
    CHECK(v != NULL);

    CHECK_EQ_INT(op(&c, "get_node_info", "p", &local), 1);
    CHECK(strcmp(c.message, "not a syntax tree node") == 0);
    CHECK_EQ_INT(c.res.n, 0);
    CHECK_EQ_INT(op(&c, "get_node_info", "p", (const char *)root + 1), 1);
    CHECK_EQ_INT(op(&c, "get_node_children", "p", NULL), 1);
    CHECK_EQ_INT(op(&c, "get_node_attrs", "p", global), 1);
    CHECK_EQ_INT(op(&c, "unparse_node", "p", v), 1);
    CHECK_EQ_INT(op(&c, "get_scope_info", "p", root), 1);
    CHECK(strcmp(c.message, "not an environment") == 0);
    CHECK_EQ_INT(op(&c, "get_scope_info", "p", NULL), 1);
    CHECK_EQ_INT(op(&c, "lookup_name", "ps", v, "s"), 1);
    CHECK_EQ_INT(op(&c, "get_value", "p", global), 1);
    CHECK(strcmp(c.message, "not a value") == 0);
    CHECK_EQ_INT(op(&c, "get_value", "p", (const char *)v + 8), 1);
    CHECK_EQ_INT(op(&c, "get_value", "p", v), 0);
    CHECK(strcmp(c.res.v[0].s, "str") == 0 && strcmp(c.res.v[1].s, "x") == 0);
    calc_free();
    /* After the run's objects are released, nothing is accepted. */
    CHECK_EQ_INT(op(&c, "get_value", "p", v), 1);
    CHECK_EQ_INT(op(&c, "get_node_info", "p", root), 1);
    CHECK_EQ_INT(op(&c, "get_scope_info", "p", global), 1);
}

/* Long token texts are cut; long values are cut by get_value. */
static void test_limits(void)
{
    char program[2048], out[2048], err[256];
    const struct event *ev;
    struct call c;

    snprintf(program, sizeof program, "let %s = 1;\nlet s = \"%0600d\";",
             "a_very_long_identifier_that_goes_on_and_on_and_on_and_on", 0);
    CHECK_EQ_INT(run(program, out, sizeof out, err, sizeof err), 0);
    ev = nth_event("token", 1);
    CHECK(strlen(ev->vals.v[2].s) == TOKEN_TEXT_MAX - 1);
    CHECK(strcmp(ev->vals.v[2].s + TOKEN_TEXT_MAX - 4, "...") == 0);
    CHECK_EQ_INT(op(&c, "lookup_name", "ps", env_global(), "s"), 0);
    CHECK_EQ_INT(op(&c, "get_value", "p", c.res.v[0].p), 0);
    CHECK_EQ_INT(strlen(c.res.v[1].s), 400);
    calc_free();
}

/* Read all of PATH into a NUL-terminated buffer the caller frees. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    char *text;
    long n;

    if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0) {
        perror(path);
        abort();
    }
    rewind(f);
    text = malloc((size_t)n + 1);
    if (text == NULL || fread(text, 1, (size_t)n, f) != (size_t)n)
        abort();
    text[n] = '\0';
    fclose(f);
    return text;
}

/* Unparsing (what unparse_node shows): the whole tree of each example
 * program, unparsed, is a program that prints the same and unparses to
 * itself; unparse_node gives the same text, cut to 400 bytes. */
static void test_unparse(void)
{
    static const char *const names[] = { "demo", "closures", "strings", "error" };
    static char out1[4096], out2[4096], err[4096];
    const char *srcdir = getenv("abs_top_srcdir");
    struct buf b1 = BUF_INIT, b2 = BUF_INIT;
    char path[4096], *text;
    struct call c;
    size_t i;
    int status;

    if (srcdir == NULL)
        srcdir = ".";
    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(path, sizeof path, "%s/examples/calc/%s.calc", srcdir, names[i]);
        text = slurp(path);
        status = run(text, out1, sizeof out1, err, sizeof err);
        CHECK_EQ_INT(status, strcmp(names[i], "error") == 0);
        tree_unparse(tree_root(), &b1);
        CHECK_EQ_INT(op(&c, "unparse_node", "p", tree_root()), 0);
        CHECK_EQ_INT(c.res.n, 1);
        CHECK(strncmp(c.res.v[0].s, buf_str(&b1), b1.len > 400 ? 397 : b1.len) == 0);
        CHECK_EQ_INT(strlen(c.res.v[0].s), b1.len > 400 ? 400 : b1.len);
        calc_free();
        CHECK_EQ_INT(run(buf_str(&b1), out2, sizeof out2, err, sizeof err), status);
        CHECK(strcmp(out1, out2) == 0);
        tree_unparse(tree_root(), &b2);
        CHECK(strcmp(buf_str(&b1), buf_str(&b2)) == 0);
        if (strcmp(buf_str(&b1), buf_str(&b2)) != 0)
            fprintf(stderr, "%s unparses to\n%s\nthen to\n%s\n", names[i],
                    buf_str(&b1), buf_str(&b2));
        calc_free();
        buf_free(&b1);
        buf_free(&b2);
        free(text);
    }
}

/* The interfaces as the program registers them: names, visibility, the
 * types of parameters. */
static void test_descriptions(void)
{
    const struct dapto_event *e;

    CHECK(strcmp(strtab_dapto_aspect_string.name, "string") == 0);
    CHECK(strcmp(lexer_dapto_aspect_lexical.name, "lexical") == 0);
    CHECK(strcmp(tree_dapto_aspect_tree.name, "tree") == 0);
    CHECK(strcmp(env_dapto_aspect_environment.name, "environment") == 0);
    CHECK(strcmp(value_dapto_aspect_value.name, "value") == 0);
    CHECK(strcmp(eval_dapto_aspect_evaluator.name, "evaluator") == 0);
    e = &eval_dapto_aspect_evaluator.events[0];
    CHECK(strcmp(e->name, "value_computed") == 0 && !e->visible);
    CHECK(strcmp(e->params[0].type, "Node") == 0 && e->params[0].kind == DAPTO_K_USER);
    CHECK(strcmp(e->params[1].type, "Value") == 0);
    e = &env_dapto_aspect_environment.events[1];
    CHECK(strcmp(e->name, "binding_made") == 0 && e->visible);
    CHECK(strcmp(e->params[0].type, "Environment") == 0);
}

int main(void)
{
    test_descriptions();
    test_events();
    test_calls();
    test_syntax_errors();
    test_stop();
    test_names();
    test_tree();
    test_env();
    test_refusals();
    test_limits();
    test_unparse();
    free(trace);
    return unit_done("interface-test");
}
