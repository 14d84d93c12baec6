/* SPDX-License-Identifier: MIT */
/*
 * eval.c - the evaluator, component "evaluator".
 *
 * Integers are C longs; arithmetic that overflows is an error, as is
 * division by zero.  + also joins strings; comparisons order two ints or
 * two strs; == and != compare any values.  and, or, not and if take ints
 * (0 is false) and give 0 or 1.  A let makes a new environment inside the
 * current one; a call makes one inside the function's own (closures).
 * Every error is reported at the node where it happened, followed by notes
 * for the active calls, and evaluation stops.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "buf.h"
#include "builtin.h"
#include "diag.h"
#include "eval.h"
#include "lexer.h"
#include "strtab.h"
#include "xmalloc.h"

#ifdef MONITOR
#include "eval_dapto.h"
#endif

/* Where print writes; set by eval_program(). */
static FILE *eval_out;
/* The environment of the node being evaluated (NULL when idle). */
static Environment eval_env;
/* The active calls, outermost first. */
static struct eval_frame eval_frames[EVAL_MAX_DEPTH];
static int eval_ndepth;

/* The C stack: where evaluation started, and how much of it evaluation
 * may use (half the stack limit); set by eval_program(). */
static uintptr_t eval_stack_base;
static size_t eval_stack_budget;

/* Frames shown in the notes after an error. */
#define EVAL_NOTES 4

static Value eval(Node n, Environment env);
static void eval_callee_name(Node call, Value f, char *out, size_t size);

/* How values are named in messages: "int", "str" or "function". */
static const char *eval_type(Value v)
{
    return v->kind == V_INT ? "int" : v->kind == V_STR ? "str" : "function";
}

/* The same with an article: "an int", "a str", "a function". */
static const char *eval_a_type(Value v)
{
    return v->kind == V_INT ? "an int" : v->kind == V_STR ? "a str"
                                                          : "a function";
}

/* Report an error at node AT, with notes for the active calls, and
 * return NULL. */
static Value eval_error(Node at, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static Value eval_error(Node at, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    int i, shown = 0;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fflush(eval_out);
    diag_error(at->line, at->col, "%s", msg);
#ifdef MONITOR
    _dapto_runtime_error(at, msg);
#endif
    i = eval_ndepth - 1;
    /* A built-in's error is reported at its call already. */
    if (i >= 0 && eval_frames[i].fn->kind == V_BUILTIN && eval_frames[i].call == at)
        i--;
    for (; i >= 0 && shown < EVAL_NOTES; i--, shown++) {
        Node call = eval_frames[i].call;
        char name[80];

        eval_callee_name(call, eval_frames[i].fn, name, sizeof name);
        diag_note(call->line, call->col, "in call to %s", name);
    }
    if (i >= 0)
        diag_note(eval_frames[0].call->line, eval_frames[0].call->col,
                  "and %d more calls, the outermost here", i + 1);
    return NULL;
}

/* How the function F called by CALL is named in messages: "'f'" (its own
 * name, or the name it was called by) or "an anonymous function". */
static void eval_callee_name(Node call, Value f, char *out, size_t size)
{
    const char *name = value_fn_name(f);

    if (name == NULL && call->kids[0]->kind == N_NAME)
        name = strtab_get((int)call->kids[0]->attr);
    if (name != NULL)
        snprintf(out, size, "'%s'", name);
    else
        snprintf(out, size, "an anonymous function");
}

static Value eval_call(Node n, Environment env)
{
    int nargs = n->nkids - 1, arity, i;
    Value f, result = NULL, *args = NULL;
    struct eval_frame *frame;
    Environment e = NULL;
    char name[80];

    f = eval(n->kids[0], env);
    if (f == NULL)
        return NULL;
    if (nargs > 0)
        args = xmalloc((size_t)nargs * sizeof *args);
    for (i = 0; i < nargs; i++) {
        args[i] = eval(n->kids[i + 1], env);
        if (args[i] == NULL)
            goto fail_args;
    }
    if (f->kind != V_FN && f->kind != V_BUILTIN) {
        if (n->kids[0]->kind == N_NAME)
            eval_error(n, "'%s' is %s, not a function",
                       strtab_get((int)n->kids[0]->attr), eval_a_type(f));
        else
            eval_error(n, "called value is %s, not a function",
                       eval_a_type(f));
        goto fail_args;
    }
    arity = value_arity(f);
    if (nargs != arity) {
        eval_callee_name(n, f, name, sizeof name);
        eval_error(n, "%s expects %d argument%s but was given %d", name,
                   arity, arity == 1 ? "" : "s", nargs);
        goto fail_args;
    }
    if (eval_ndepth == EVAL_MAX_DEPTH) {
        eval_error(n, "recursion too deep (more than %d nested calls)",
                   EVAL_MAX_DEPTH);
        goto fail_args;
    }
    /* The parameters are bound before call_entered, so that a monitor
     * stopped there sees the arguments in the call's environment. */
    if (f->kind == V_FN) {
        Node fn = f->u.fn.fn;

        e = env_new(f->u.fn.env);
        for (i = 0; i < nargs; i++)
            env_bind(e, (int)fn->kids[i]->attr, args[i], fn->kids[i]);
    }
    frame = &eval_frames[eval_ndepth++];
    frame->call = n;
    frame->fn = f;
    frame->env = e;
#ifdef MONITOR
    _dapto_call_entered(n, f, eval_ndepth);
#endif
    if (f->kind == V_BUILTIN) {
        const char *why = "error";

        result = builtin_call(f->u.builtin, args, &why);
        if (result == NULL)
            eval_error(n, "%s", why);
    } else {
        result = eval(f->u.fn.fn->kids[nargs], e);
    }
#ifdef MONITOR
    if (result != NULL)
        _dapto_call_returned(n, result, eval_ndepth);
#endif
    eval_ndepth--;
fail_args:
    free(args);
    return result;
}

/* An int operand of OP, or NULL after reporting that V is not one. */
static int eval_need_int(Node at, const char *op, Value v)
{
    if (v->kind == V_INT)
        return 1;
    eval_error(at, "operator '%s' needs an int, not %s", op, eval_a_type(v));
    return 0;
}

static Value eval_unary(Node n, Environment env)
{
    Value v = eval(n->kids[0], env);

    if (v == NULL || !eval_need_int(n, tree_operator(n->attr), v))
        return NULL;
    if (n->attr == T_NOT)
        return value_int(v->u.i == 0);
    if (v->u.i == LONG_MIN)
        return eval_error(n, "integer overflow in '-'");
    return value_int(-v->u.i);
}

/* and, or: the right operand only when the left does not decide. */
static Value eval_logic(Node n, Environment env)
{
    const char *op = tree_operator(n->attr);
    Value l = eval(n->kids[0], env), r;

    if (l == NULL || !eval_need_int(n, op, l))
        return NULL;
    if ((n->attr == T_AND) == (l->u.i == 0))
        return value_int(l->u.i != 0);
    r = eval(n->kids[1], env);
    if (r == NULL || !eval_need_int(n, op, r))
        return NULL;
    return value_int(r->u.i != 0);
}

static Value eval_compare(Node n, Value l, Value r)
{
    long c;

    if (n->attr == T_EQ || n->attr == T_NE)
        return value_int(value_equal(l, r) == (n->attr == T_EQ));
    if (l->kind == V_INT && r->kind == V_INT) {
        c = (l->u.i > r->u.i) - (l->u.i < r->u.i);
    } else if (l->kind == V_STR && r->kind == V_STR) {
        size_t m = l->u.str.len < r->u.str.len ? l->u.str.len : r->u.str.len;
        int d = memcmp(l->u.str.s, r->u.str.s, m);

        c = d != 0 ? (d > 0) - (d < 0)
                   : (l->u.str.len > r->u.str.len) - (l->u.str.len < r->u.str.len);
    } else {
        return eval_error(n, "operator '%s' cannot compare %s and %s",
                          tree_operator(n->attr), eval_type(l), eval_type(r));
    }
    switch (n->attr) {
    case T_LT: return value_int(c < 0);
    case T_LE: return value_int(c <= 0);
    case T_GT: return value_int(c > 0);
    default: return value_int(c >= 0);
    }
}

static Value eval_concat(Value l, Value r)
{
    size_t len = l->u.str.len + r->u.str.len;
    char *s = xmalloc(len + 1);

    memcpy(s, l->u.str.s, l->u.str.len);
    memcpy(s + l->u.str.len, r->u.str.s, r->u.str.len);
    s[len] = '\0';
    return value_str_owned(s, len);
}

static Value eval_arith(Node n, Value l, Value r)
{
    const char *op = tree_operator(n->attr);
    long a, b, v = 0;
    int overflow = 0;

    if (n->attr == T_PLUS && l->kind == V_STR && r->kind == V_STR)
        return eval_concat(l, r);
    if (l->kind != V_INT || r->kind != V_INT)
        return eval_error(n, "operator '%s' cannot be applied to %s and %s",
                          op, eval_type(l), eval_type(r));
    a = l->u.i;
    b = r->u.i;
    switch (n->attr) {
    case T_PLUS:
        overflow = __builtin_add_overflow(a, b, &v);
        break;
    case T_MINUS:
        overflow = __builtin_sub_overflow(a, b, &v);
        break;
    case T_STAR:
        overflow = __builtin_mul_overflow(a, b, &v);
        break;
    case T_SLASH:
    case T_PERCENT:
        if (b == 0)
            return eval_error(n, "division by zero");
        if (a == LONG_MIN && b == -1)
            overflow = 1;
        else
            v = n->attr == T_SLASH ? a / b : a % b;
        break;
    }
    if (overflow)
        return eval_error(n, "integer overflow in '%s'", op);
    return value_int(v);
}

static Value eval_binary(Node n, Environment env)
{
    Value l, r;

    if (n->attr == T_AND || n->attr == T_OR)
        return eval_logic(n, env);
    l = eval(n->kids[0], env);
    if (l == NULL)
        return NULL;
    r = eval(n->kids[1], env);
    if (r == NULL)
        return NULL;
    switch (n->attr) {
    case T_EQ: case T_NE: case T_LT: case T_LE: case T_GT: case T_GE:
        return eval_compare(n, l, r);
    default:
        return eval_arith(n, l, r);
    }
}

static Value eval_if(Node n, Environment env)
{
    Value c = eval(n->kids[0], env);

    if (c == NULL)
        return NULL;
    if (c->kind != V_INT)
        return eval_error(n->kids[0], "condition of 'if' must be an int, "
                          "not %s", eval_a_type(c));
    return eval(n->kids[c->u.i != 0 ? 1 : 2], env);
}

static Value eval_let(Node n, Environment env)
{
    Value v;
    Environment e;

    if (n->kind == N_LETFN) {
        Node fn = n->kids[0];

        /* The function's own name is visible in its body. */
        e = env_new(env);
        v = value_fn(fn, e);
        env_bind(e, (int)fn->attr, v, fn);
    } else {
        v = eval(n->kids[0], env);
        if (v == NULL)
            return NULL;
        e = env_new(env);
        env_bind(e, (int)n->attr, v, n);
    }
    return eval(n->kids[1], e);
}

/* A top-level definition: bind in ENV, the global environment, unless
 * the name is already defined there. */
static Value eval_define(Node n, Environment env)
{
    struct binding *b = env_find_here(env, (int)n->attr);
    Value v;

    if (b != NULL) {
        if (b->where != NULL)
            return eval_error(n, "'%s' is already defined at %d:%d",
                              strtab_get((int)n->attr), b->where->line,
                              b->where->col);
        return eval_error(n, "'%s' is already defined",
                          strtab_get((int)n->attr));
    }
    v = eval(n->kids[0], env);
    if (v == NULL)
        return NULL;
    env_bind(env, (int)n->attr, v, n);
    return v;
}

static Value eval_print(Node n, Environment env)
{
    struct buf b = BUF_INIT;
    Value v = NULL;
    int i;

    for (i = 0; i < n->nkids; i++) {
        v = eval(n->kids[i], env);
        if (v == NULL)
            goto fail_arg;
        if (i > 0)
            buf_addc(&b, ' ');
        value_format(v, &b);
    }
    fputs(buf_str(&b), eval_out);
    fputc('\n', eval_out);
#ifdef MONITOR
    _dapto_printed(buf_str(&b));
#endif
fail_arg:
    buf_free(&b);
    return v;
}

static Value eval_node(Node n, Environment env)
{
    Value v = NULL;
    int i;

    switch (n->kind) {
    case N_INT:
        return value_int(n->attr);
    case N_STR:
        return value_str(strtab_get((int)n->attr), strtab_length((int)n->attr));
    case N_NAME:
        v = env_lookup(env, (int)n->attr);
        if (v == NULL)
            return eval_error(n, "'%s' is not defined",
                              strtab_get((int)n->attr));
        return v;
    case N_UNARY:
        return eval_unary(n, env);
    case N_BINARY:
        return eval_binary(n, env);
    case N_IF:
        return eval_if(n, env);
    case N_LET:
    case N_LETFN:
        return eval_let(n, env);
    case N_FN:
        return value_fn(n, env);
    case N_CALL:
        return eval_call(n, env);
    case N_PRINT:
        return eval_print(n, env);
    case N_DEFINE:
        return eval_define(n, env);
    case N_SEQ:
        for (i = 0; i < n->nkids; i++) {
            v = eval(n->kids[i], env);
            if (v == NULL)
                return NULL;
        }
        return v;
    default:
        return eval_error(n, "cannot evaluate a %s node",
                          tree_kind_name(n->kind));
    }
}

/* The value of N in ENV, or NULL after an error was reported. */
static Value eval(Node n, Environment env)
{
    Environment outer = eval_env;
    uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
    Value v;

    /* Deep expressions in deep recursion can exhaust the C stack before
     * EVAL_MAX_DEPTH calls: stop cleanly instead. */
    if (eval_stack_base - sp > eval_stack_budget)
        return eval_error(n, "evaluation too deep for the stack (%d nested "
                          "calls)", eval_ndepth);
    eval_env = env;
    v = eval_node(n, env);
#ifdef MONITOR
    if (v != NULL)
        _dapto_value_computed(n, v);
#endif
    eval_env = outer;
    return v;
}

/* The size of the C stack: its limit, or 8 MiB when it has none. */
static size_t eval_stack_size(void)
{
    struct rlimit rl;

    if (getrlimit(RLIMIT_STACK, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
        return (size_t)8 << 20;
    return (size_t)rl.rlim_cur;
}

/* Run the program ROOT, printing to OUT.  Returns 0, or -1 when an error
 * stopped it (already reported). */
int eval_program(Node root, FILE *out)
{
    Environment builtins, global;
    int i, status = 0;

#ifdef MONITOR
    _dapto_enter("evaluator");
#endif
    eval_out = out;
    eval_ndepth = 0;
    eval_stack_base = (uintptr_t)__builtin_frame_address(0);
    eval_stack_budget = eval_stack_size() / 2;
    builtins = env_new(NULL);
    for (i = 0; i < builtin_count(); i++)
        env_bind(builtins, strtab_add(builtin_name(i), strlen(builtin_name(i))),
                 value_builtin(i), NULL);
    global = env_new(builtins);
    env_set_global(global);
    for (i = 0; i < root->nkids; i++) {
        if (eval(root->kids[i], global) == NULL) {
            status = -1;
            break;
        }
    }
    fflush(out);
#ifdef MONITOR
    _dapto_leave("evaluator");
#endif
    return status;
}

/* Number of active calls. */
int eval_depth(void)
{
    return eval_ndepth;
}

/* Active call I, 0 being the innermost, or NULL. */
const struct eval_frame *eval_frame(int i)
{
    if (i < 0 || i >= eval_ndepth)
        return NULL;
    return &eval_frames[eval_ndepth - 1 - i];
}

/* The environment of the node being evaluated, or NULL. */
Environment eval_current_env(void)
{
    return eval_env;
}
