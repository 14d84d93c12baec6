/* SPDX-License-Identifier: MIT */
/*
 * cond-tcl.c - Tcl conditions read into conditions the program can
 * evaluate.  See cond-tcl.h.
 *
 * The expression is parsed by Tcl itself (Tcl_ParseExpr) and its tokens
 * are walked; nothing is evaluated.  A shape is taken only where the
 * compiled condition means exactly what expr means, with the parameters
 * set as a handler sees them (interp_value): ints and longs as integers,
 * doubles as doubles, pointers and user types as unsigned decimals,
 * strings as strings.  The traps of expr kept out:
 *
 * - == and != compare as numbers when both sides look like numbers, else
 *   as strings: a string parameter is compared with == only against a
 *   string constant that cannot look like a number (nothing that starts,
 *   after spaces, with a digit, a sign, a point, "inf" or "nan"), never
 *   with another string parameter; eq and ne always compare strings.
 * - Integers are bignums in Tcl: a constant outside 64 bits is refused
 *   (from 2^63 to 2^64 - 1 it is kept for pointers).
 * - Literals are read with Tcl's own rules (Tcl_GetWideIntFromObj,
 *   Tcl_GetDoubleFromObj), so 0x10, 0b101, 010 and " 5 " mean what they
 *   mean to this Tcl.
 * - eq and ne take a number's text as written, which Tcl keeps for
 *   literals; a negated literal is refused there, since Tcl folds it.
 */
#include "config.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <string.h>

#include "cond-tcl.h"
#include "dapto.h"
#include "xmalloc.h"

enum ctx {
    CTX_TRUTH, /* an operand of &&, ||, !, or the whole condition */
    CTX_NUM,   /* an operand of == != < <= > >= */
    CTX_STR    /* an operand of eq, ne */
};

/* How deep an expression is read: a condition nested deeper would not
 * fit in the program's filter <protocol#filter> anyway, and reading it
 * recursively would overflow noosa's stack (a 60000-term || is 60000
 * levels deep); noosa evaluates it with Tcl's own expr, which does not
 * recurse. */
#define RD_DEPTH 256

struct rd {
    Tcl_Interp *interp;
    const struct registry_event *ev;
    char **cause;
    int failed;
    unsigned int depth; /* of rd_expr calls now */
};

static struct cond *refuse(struct rd *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static struct cond *refuse(struct rd *r, const char *fmt, ...)
{
    va_list ap;

    if (!r->failed && r->cause != NULL) {
        free(*r->cause);
        va_start(ap, fmt);
        *r->cause = xvasprintf(fmt, ap);
        va_end(ap);
    }
    r->failed = 1;
    return NULL;
}

static struct cond *rd_expr(struct rd *r, Tcl_Token *sub, enum ctx ctx);
static struct cond *rd_sub(struct rd *r, Tcl_Token *sub, enum ctx ctx);

/* The text of tokens [T, END), which must be text and backslashes only
 * (a literal word or string), appended to DS.  0, or -1 when there is a
 * substitution. */
static int literal(Tcl_Token *t, Tcl_Token *end, Tcl_DString *ds)
{
    char buf[TCL_UTF_MAX + 1];
    int n;

    for (; t < end; t++) {
        switch (t->type) {
        case TCL_TOKEN_WORD:
        case TCL_TOKEN_SIMPLE_WORD:
            break; /* its components follow */
        case TCL_TOKEN_TEXT:
            Tcl_DStringAppend(ds, t->start, t->size);
            break;
        case TCL_TOKEN_BS:
            n = Tcl_UtfBackslash(t->start, NULL, buf);
            Tcl_DStringAppend(ds, buf, n);
            break;
        default:
            return -1;
        }
    }
    return 0;
}

/* A variable by NAME (LEN bytes): as apply binds the lambda's arguments,
 * n_ename, n_time, n_thread and n_pid come after the parameters and the
 * last of equal names wins. */
static struct cond *rd_var(struct rd *r, const char *name, int len)
{
    unsigned int i;

    if (len == 8 && memcmp(name, "n_thread", 8) == 0)
        return cond_thread();
    if ((len == 7 && memcmp(name, "n_ename", 7) == 0) ||
        (len == 6 && memcmp(name, "n_time", 6) == 0) ||
        (len == 5 && memcmp(name, "n_pid", 5) == 0))
        return refuse(r, "$%.*s is not known in the program", len, name);
    for (i = r->ev->nparams; i-- > 0;) {
        if (strlen(r->ev->params[i].name) == (size_t)len &&
            memcmp(r->ev->params[i].name, name, (size_t)len) == 0)
            return cond_param(i);
    }
    return refuse(r, "$%.*s is not a parameter of %s", len, name,
                  r->ev->name);
}

/* A VARIABLE token. */
static struct cond *rd_var_token(struct rd *r, Tcl_Token *t)
{
    if (t->numComponents != 1)
        return refuse(r, "%.*s: array elements are not compilable", t->size,
                      t->start);
    return rd_var(r, t[1].start, t[1].size);
}

/* S as a Tcl number: *OUT set to a constant and 1, or 0 when it is not a
 * number, or -1 when it is one the program cannot hold. */
static int tcl_number(struct rd *r, const char *s, int len, struct cond **out)
{
    Tcl_Obj *o = Tcl_NewStringObj(s, len), *o2 = Tcl_NewStringObj(s, len);
    Tcl_WideInt w;
    double d;
    int rc = 0;

    Tcl_IncrRefCount(o);
    Tcl_IncrRefCount(o2);
    if (Tcl_GetWideIntFromObj(NULL, o, &w) == TCL_OK) {
        /* this Tcl wraps integers up to 2^64 - 1 into 64 bits: the
         * double of the same text tells a wrapped one */
        if (Tcl_GetDoubleFromObj(NULL, o2, &d) != TCL_OK) {
            rc = -1;
        } else if ((double)w == d) {
            *out = cond_int(w);
            rc = 1;
        } else if (w < 0 && d > 0 && (double)(uint64_t)w == d) {
            *out = cond_uint((uint64_t)w);
            rc = 1;
        } else {
            rc = -1;
        }
    } else if (Tcl_GetDoubleFromObj(NULL, o, &d) == TCL_OK) {
        Tcl_Obj *cmd[3];
        int entier = 1;

        /* an integer too large even for 64 bits is a double here; the
         * ensemble's own command, in case `string` was redefined, and
         * taken as an integer when in doubt */
        cmd[0] = Tcl_NewStringObj("::tcl::string::is", -1);
        cmd[1] = Tcl_NewStringObj("entier", -1);
        cmd[2] = o2;
        Tcl_IncrRefCount(cmd[0]);
        Tcl_IncrRefCount(cmd[1]);
        if (Tcl_EvalObjv(r->interp, 3, cmd, TCL_EVAL_GLOBAL) != TCL_OK ||
            Tcl_GetBooleanFromObj(NULL, Tcl_GetObjResult(r->interp),
                                  &entier) != TCL_OK)
            entier = 1;
        Tcl_DecrRefCount(cmd[0]);
        Tcl_DecrRefCount(cmd[1]);
        if (entier) {
            rc = -1;
        } else {
            *out = cond_double(d);
            rc = 1;
        }
    }
    Tcl_DecrRefCount(o);
    Tcl_DecrRefCount(o2);
    if (rc < 0)
        refuse(r, "%.*s is out of the range of 64-bit integers", len, s);
    return rc;
}

/* Whether S could look like a number to expr's == (on the safe side). */
static int looks_numeric(const char *s, size_t len)
{
    while (len > 0 && strchr(" \t\n\v\f\r", *s) != NULL && *s != '\0') {
        s++;
        len--;
    }
    if (len == 0)
        return 0;
    if (strchr("0123456789+-.", *s) != NULL)
        return 1;
    return len >= 3 && (strncasecmp(s, "inf", 3) == 0 ||
                        strncasecmp(s, "nan", 3) == 0);
}

/* A literal operand: TEXT of LEN bytes, QUOTED when it was in quotes or
 * braces. */
static struct cond *rd_literal(struct rd *r, const char *text, int len,
                               int quoted, enum ctx ctx)
{
    struct cond *c = NULL;
    int rc;

    if (ctx == CTX_STR)
        return cond_str(text, (size_t)len);
    if ((rc = tcl_number(r, text, len, &c)) != 0)
        return rc > 0 ? c : NULL;
    if (!quoted)
        return refuse(r, "the bare word %.*s is not compilable", len, text);
    if (ctx == CTX_TRUTH)
        return refuse(r, "the string \"%.*s\" as a truth value is not "
                      "compilable", len, text);
    return cond_str(text, (size_t)len);
}

/* TCL_TOKEN_COMMAND T: only [string match PATTERN $s]. */
static struct cond *rd_command(struct rd *r, Tcl_Token *t)
{
    const char *text = t->start + 1, *end = t->start + t->size - 1;
    Tcl_Token *w[5], *p;
    Tcl_DString ds[3];
    Tcl_Parse parse;
    struct cond *c = NULL, *s;
    int i, n;

    if (Tcl_ParseCommand(r->interp, text, (int)(end - text), 0, &parse) !=
        TCL_OK)
        return refuse(r, "[%.*s] is not a command", (int)(end - text), text);
    for (i = 0; i < 3; i++)
        Tcl_DStringInit(&ds[i]);
    if (parse.commandStart + parse.commandSize < end) {
        c = refuse(r, "more than one command in [%.*s]", (int)(end - text),
                   text);
        goto out;
    }
    n = parse.numWords;
    p = parse.tokenPtr;
    for (i = 0; i < n && i < 5; i++) {
        w[i] = p;
        p += 1 + p->numComponents;
    }
    for (i = 0; i < n && i < 3; i++) {
        if (literal(w[i], w[i] + 1 + w[i]->numComponents, &ds[i]) != 0)
            break;
    }
    if (n < 2 || i < 2 || strcmp(Tcl_DStringValue(&ds[0]), "string") != 0 ||
        strcmp(Tcl_DStringValue(&ds[1]), "match") != 0) {
        c = refuse(r, "the command [%.*s] is not compilable (only [string "
                   "match PATTERN $s])", (int)(end - text), text);
        goto out;
    }
    if (n == 5 || (n >= 3 && i < 3)) {
        c = refuse(r, "string match with %s is not compilable",
                   n == 5 ? "an option" : "a substituted pattern");
        goto out;
    }
    if (n != 4) {
        c = refuse(r, "[%.*s]: string match takes a pattern and a string",
                   (int)(end - text), text);
        goto out;
    }
    if (w[3]->type != TCL_TOKEN_WORD || w[3]->numComponents < 1 ||
        w[3][1].type != TCL_TOKEN_VARIABLE ||
        1 + w[3][1].numComponents != w[3]->numComponents) {
        c = refuse(r, "string match on %.*s is not compilable (only on a "
                   "parameter)", w[3]->size, w[3]->start);
        goto out;
    }
    if ((s = rd_var_token(r, &w[3][1])) == NULL)
        goto out;
    if (s->kind != COND_PARAM ||
        r->ev->params[s->index].kind != DAPTO_K_STR) {
        cond_free(s);
        c = refuse(r, "string match on %.*s, which is not a string",
                   w[3]->size, w[3]->start);
        goto out;
    }
    c = cond_glob(s, cond_str(Tcl_DStringValue(&ds[2]),
                              (size_t)Tcl_DStringLength(&ds[2])));
out:
    for (i = 0; i < 3; i++)
        Tcl_DStringFree(&ds[i]);
    Tcl_FreeParse(&parse);
    return c;
}

/* A SUB_EXPR without an operator: a variable, a literal or a command. */
static struct cond *rd_operand(struct rd *r, Tcl_Token *sub, enum ctx ctx)
{
    Tcl_Token *t = sub + 1, *end = sub + 1 + sub->numComponents;
    Tcl_DString ds;
    struct cond *c;
    int quoted = sub->start[0] == '"' || sub->start[0] == '{';

    if (sub->numComponents == 0)
        return refuse(r, "%.*s is not compilable", sub->size, sub->start);
    if (t->type == TCL_TOKEN_VARIABLE && 1 + t->numComponents == end - t)
        return rd_var_token(r, t);
    if (t->type == TCL_TOKEN_COMMAND && sub->numComponents == 1)
        return rd_command(r, t);
    Tcl_DStringInit(&ds);
    if (literal(t, end, &ds) != 0) {
        Tcl_DStringFree(&ds);
        return refuse(r, "%.*s: substitutions inside a string are not "
                      "compilable", sub->size, sub->start);
    }
    c = rd_literal(r, Tcl_DStringValue(&ds), Tcl_DStringLength(&ds), quoted,
                   ctx);
    Tcl_DStringFree(&ds);
    return c;
}

/* Unary - or + on OPERAND: only on a number. */
static struct cond *rd_sign(struct rd *r, int minus, Tcl_Token *operand,
                            enum ctx ctx)
{
    struct cond *c;

    if (ctx == CTX_STR)
        return refuse(r, "a signed number compared with eq or ne is not "
                      "compilable (write it as a string)");
    if ((c = rd_expr(r, operand, CTX_NUM)) == NULL)
        return NULL;
    if (c->kind != COND_INT && c->kind != COND_UINT && c->kind != COND_DOUBLE) {
        cond_free(c);
        return refuse(r, "arithmetic (unary %c) is not compilable",
                      minus ? '-' : '+');
    }
    if (!minus)
        return c;
    if (c->kind == COND_DOUBLE) {
        c->d = -c->d;
    } else if (c->kind == COND_INT && c->i == INT64_MIN) {
        c->kind = COND_UINT;
        c->u = (uint64_t)1 << 63;
    } else if (c->kind == COND_INT) {
        c->i = -c->i;
    } else if (c->u == (uint64_t)1 << 63) {
        c->kind = COND_INT;
        c->i = INT64_MIN;
    } else {
        cond_free(c);
        return refuse(r, "-%.*s is out of the range of 64-bit integers",
                      operand->size, operand->start);
    }
    return c;
}

static int is_str(struct rd *r, const struct cond *c)
{
    return c->kind == COND_STR ||
           (c->kind == COND_PARAM && c->index < r->ev->nparams &&
            r->ev->params[c->index].kind == DAPTO_K_STR);
}

/* == and friends, where Tcl compares strings as numbers when it can. */
static struct cond *rd_compare(struct rd *r, enum cond_cmp cmp,
                               const char *name, Tcl_Token *a, Tcl_Token *b)
{
    struct cond *l, *rt = NULL, *c;

    if ((l = rd_expr(r, a, CTX_NUM)) == NULL ||
        (rt = rd_expr(r, b, CTX_NUM)) == NULL)
        goto refused;
    if (is_str(r, l) || is_str(r, rt)) {
        if (cmp != COND_EQ && cmp != COND_NE) {
            refuse(r, "strings compared with %s are not compilable", name);
            goto refused;
        }
        if (l->kind == COND_PARAM && rt->kind == COND_PARAM) {
            refuse(r, "two strings compared with %s are compared as numbers "
                   "when both look like numbers: use %s", name,
                   cmp == COND_EQ ? "eq" : "ne");
            goto refused;
        }
        c = l->kind == COND_STR ? l : rt;
        if (c->kind == COND_STR && looks_numeric(c->s, c->len)) {
            refuse(r, "\"%s\" may look like a number, and %s compares "
                   "numbers as numbers: use %s", c->s, name,
                   cmp == COND_EQ ? "eq" : "ne");
            goto refused;
        }
        if (!is_str(r, l) || !is_str(r, rt)) {
            refuse(r, "a string compared with a number by %s is not "
                   "compilable (it compares as numbers when the string "
                   "looks like one): use %s", name,
                   cmp == COND_EQ ? "eq" : "ne");
            goto refused;
        }
    }
    return cond_cmp(cmp, l, rt);
refused:
    cond_free(l);
    cond_free(rt);
    return NULL;
}

static struct cond *rd_streq(struct rd *r, int ne, Tcl_Token *a,
                             Tcl_Token *b)
{
    struct cond *l, *rt = NULL;

    if ((l = rd_expr(r, a, CTX_STR)) == NULL ||
        (rt = rd_expr(r, b, CTX_STR)) == NULL)
        goto refused;
    if (!is_str(r, l) || !is_str(r, rt)) {
        refuse(r, "%s compares strings: only string parameters and "
               "constants are compilable there", ne ? "ne" : "eq");
        goto refused;
    }
    return cond_cmp(ne ? COND_NE : COND_EQ, l, rt);
refused:
    cond_free(l);
    cond_free(rt);
    return NULL;
}

static const struct {
    const char *name;
    enum cond_cmp cmp;
} cmps[] = {
    { "==", COND_EQ }, { "!=", COND_NE }, { "<", COND_LT },
    { "<=", COND_LE }, { ">", COND_GT }, { ">=", COND_GE }
};

/* A SUB_EXPR token, at most RD_DEPTH deep. */
static struct cond *rd_expr(struct rd *r, Tcl_Token *sub, enum ctx ctx)
{
    struct cond *c;

    if (r->depth >= RD_DEPTH)
        return refuse(r, "an expression nested more than %d deep is not "
                      "compilable", RD_DEPTH);
    r->depth++;
    c = rd_sub(r, sub, ctx);
    r->depth--;
    return c;
}

/* A SUB_EXPR token (rd_expr's). */
static struct cond *rd_sub(struct rd *r, Tcl_Token *sub, enum ctx ctx)
{
    Tcl_Token *t = sub + 1, *end = sub + 1 + sub->numComponents, *o[3], *p;
    struct cond *a, *b;
    char name[16];
    size_t i;
    int n = 0;

    if (sub->numComponents == 0 || t->type != TCL_TOKEN_OPERATOR)
        return rd_operand(r, sub, ctx);
    for (p = t + 1; p < end && n < 3; p += 1 + p->numComponents)
        o[n++] = p;
    snprintf(name, sizeof name, "%.*s", t->size, t->start);
    if (n == 1 && strcmp(name, "!") == 0) {
        if (ctx == CTX_STR)
            return refuse(r, "a test compared with eq or ne is not "
                          "compilable");
        return (a = rd_expr(r, o[0], CTX_TRUTH)) != NULL ? cond_not(a) : NULL;
    }
    if (n == 1 && (strcmp(name, "-") == 0 || strcmp(name, "+") == 0))
        return rd_sign(r, name[0] == '-', o[0], ctx);
    if (n == 2 && (strcmp(name, "&&") == 0 || strcmp(name, "||") == 0)) {
        if (ctx == CTX_STR)
            return refuse(r, "a test compared with eq or ne is not "
                          "compilable");
        if ((a = rd_expr(r, o[0], CTX_TRUTH)) == NULL)
            return NULL;
        if ((b = rd_expr(r, o[1], CTX_TRUTH)) == NULL) {
            cond_free(a);
            return NULL;
        }
        return name[0] == '&' ? cond_and(a, b) : cond_or(a, b);
    }
    if (n == 2 && ctx != CTX_STR) {
        for (i = 0; i < sizeof cmps / sizeof cmps[0]; i++) {
            if (strcmp(name, cmps[i].name) == 0)
                return rd_compare(r, cmps[i].cmp, name, o[0], o[1]);
        }
    }
    if (n == 2 && ctx != CTX_STR &&
        (strcmp(name, "eq") == 0 || strcmp(name, "ne") == 0))
        return rd_streq(r, name[0] == 'n', o[0], o[1]);
    if (ctx == CTX_STR)
        return refuse(r, "a computed value compared with eq or ne is not "
                      "compilable");
    if (n == 3 || strcmp(name, "?") == 0)
        return refuse(r, "the ternary operator ?: is not compilable");
    if (strcmp(name, "in") == 0 || strcmp(name, "ni") == 0)
        return refuse(r, "the operator %s is not compilable", name);
    if (isalpha((unsigned char)name[0]))
        return refuse(r, "the function %s() is not compilable", name);
    return refuse(r, "the operator %s (arithmetic) is not compilable", name);
}

struct cond *cond_tcl_parse(Tcl_Interp *interp, const char *text,
                            const struct registry_event *ev, char **cause)
{
    Tcl_InterpState state = Tcl_SaveInterpState(interp, TCL_OK);
    struct rd r;
    Tcl_Parse parse;
    struct cond *c;

    r.interp = interp;
    r.ev = ev;
    r.cause = cause;
    r.failed = 0;
    r.depth = 0;
    if (Tcl_ParseExpr(interp, text, -1, &parse) != TCL_OK) {
        refuse(&r, "not an expression: %s", Tcl_GetStringResult(interp));
        Tcl_RestoreInterpState(interp, state);
        return NULL;
    }
    c = rd_expr(&r, parse.tokenPtr, CTX_TRUTH);
    Tcl_FreeParse(&parse);
    Tcl_RestoreInterpState(interp, state);
    return c;
}

int cond_tcl_compile(Tcl_Interp *interp, const char *text,
                     const struct registry_event *ev, unsigned char *out,
                     size_t size, char **cause)
{
    struct cond *c = cond_tcl_parse(interp, text, ev, cause);
    int n;

    if (c == NULL)
        return -1;
    n = cond_compile(c, ev, out, size, cause);
    cond_free(c);
    return n;
}
