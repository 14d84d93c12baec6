/* SPDX-License-Identifier: MIT */
/*
 * parser.c - recursive-descent parser for calc, component "parser".  It
 * stops at the first error, which it reports with its coordinates.
 *
 *   program := { item ( ';' | end ) }
 *   item    := 'let' NAME '=' expr [ 'in' expr ]          (no 'in': define)
 *            | 'fn' NAME '(' params ')' '=' expr [ 'in' expr ]
 *            | expr
 *   expr    := or
 *   or      := and { 'or' and }         and := not { 'and' not }
 *   not     := 'not' not | cmp          cmp := sum [ cmpop sum ]
 *   sum     := term { ('+'|'-') term }  term := unary { ('*'|'/'|'%') unary }
 *   unary   := '-' unary | postfix      postfix := primary { '(' args ')' }
 *   primary := INT | STRING | NAME | '(' expr { ';' expr } ')'
 *            | 'let' NAME '=' expr 'in' expr
 *            | 'fn' NAME '(' params ')' '=' expr 'in' expr
 *            | 'fn' '(' params ')' expr
 *            | 'if' expr 'then' expr 'else' expr
 *            | 'print' expr { ',' expr }
 *
 * let, fn, if and print extend as far to the right as possible.
 */
#include <stdlib.h>

#include "diag.h"
#include "parser.h"
#include "strtab.h"
#include "xmalloc.h"

#ifdef MONITOR
#include <dapto.h>
#endif

struct parser {
    struct lexer *lx;
    struct token tok; /* the current token */
    int depth;        /* nesting of parse_expr and parse_unary */
};

/* A growing list of nodes. */
struct nodes {
    Node *v;
    int n, cap;
};

static void nodes_push(struct nodes *l, Node n)
{
    if (l->n == l->cap) {
        l->cap = l->cap == 0 ? 8 : l->cap * 2;
        l->v = xrealloc(l->v, (size_t)l->cap * sizeof *l->v);
    }
    l->v[l->n++] = n;
}

static Node parse_expr(struct parser *p);

static void parse_next(struct parser *p)
{
    lexer_next(p->lx, &p->tok);
}

/* Report that WHAT was expected where the current token is, unless the
 * lexer has already reported that token.  Returns NULL for the callers. */
static Node parse_expected(struct parser *p, const char *what)
{
    if (p->tok.kind == T_ERROR)
        return NULL;
    if (p->tok.kind == T_EOF)
        diag_error(p->tok.line, p->tok.col, "expected %s but found end of "
                   "input", what);
    else
        diag_error(p->tok.line, p->tok.col, "expected %s but found '%s'",
                   what, p->tok.text);
    return NULL;
}

/* Skip a token of KIND, or report it missing and return 0. */
static int parse_expect(struct parser *p, int kind)
{
    if (p->tok.kind != kind) {
        parse_expected(p, lexer_kind_name(kind));
        return 0;
    }
    parse_next(p);
    return 1;
}

/* '(' params ')' into PARAMS, as N_PARAM nodes. */
static int parse_params(struct parser *p, struct nodes *params)
{
    int i;

    if (!parse_expect(p, T_LPAREN))
        return 0;
    if (p->tok.kind == T_RPAREN) {
        parse_next(p);
        return 1;
    }
    for (;;) {
        if (p->tok.kind != T_IDENT) {
            parse_expected(p, "a parameter name");
            return 0;
        }
        for (i = 0; i < params->n; i++) {
            if (params->v[i]->attr == p->tok.idn) {
                diag_error(p->tok.line, p->tok.col, "parameter '%s' is "
                           "declared twice", p->tok.text);
                return 0;
            }
        }
        if (params->n == PARSE_MAX_ARGS) {
            diag_error(p->tok.line, p->tok.col, "too many parameters (at "
                       "most %d)", PARSE_MAX_ARGS);
            return 0;
        }
        nodes_push(params, tree_make(N_PARAM, p->tok.line, p->tok.col,
                                     p->tok.idn, NULL, 0));
        parse_next(p);
        if (p->tok.kind == T_RPAREN) {
            parse_next(p);
            return 1;
        }
        if (p->tok.kind != T_COMMA) {
            parse_expected(p, "',' or ')'");
            return 0;
        }
        parse_next(p);
    }
}

/* After 'fn': NAME '(' params ')' '=' expr when NAMED, else
 * '(' params ')' expr.  The fn node is at LINE:COL (the name's, or the
 * keyword's). */
static Node parse_fn_rest(struct parser *p, int named, int line, int col)
{
    struct nodes kids = { NULL, 0, 0 };
    Node body, n = NULL;
    int idn = -1;

    if (named) {
        idn = p->tok.idn;
        line = p->tok.line;
        col = p->tok.col;
        parse_next(p);
    }
    if (!parse_params(p, &kids))
        goto fail_params;
    if (named && !parse_expect(p, T_ASSIGN))
        goto fail_params;
    body = parse_expr(p);
    if (body == NULL)
        goto fail_params;
    nodes_push(&kids, body);
    n = tree_make(N_FN, line, col, idn, kids.v, kids.n);
fail_params:
    free(kids.v);
    return n;
}

/* 'let' or 'fn' NAME: a definition when TOP and no 'in' follows, else a
 * let or letfn expression.  The current token is the keyword. */
static Node parse_binding(struct parser *p, int top)
{
    int is_fn = p->tok.kind == T_FN, line = p->tok.line, col = p->tok.col;
    int idn = -1, kind;
    Node value, body, kids[2];

    parse_next(p);
    if (is_fn && p->tok.kind != T_IDENT) {
        /* fn (params) body: an anonymous function. */
        return parse_fn_rest(p, 0, line, col);
    }
    if (p->tok.kind != T_IDENT)
        return parse_expected(p, "a name");
    line = p->tok.line;
    col = p->tok.col;
    if (is_fn) {
        value = parse_fn_rest(p, 1, line, col);
        if (value == NULL)
            return NULL;
        idn = (int)value->attr;
    } else {
        idn = p->tok.idn;
        parse_next(p);
        if (!parse_expect(p, T_ASSIGN))
            return NULL;
        value = parse_expr(p);
        if (value == NULL)
            return NULL;
    }
    if (p->tok.kind != T_IN) {
        if (top && (p->tok.kind == T_SEMI || p->tok.kind == T_EOF))
            return tree_make(N_DEFINE, line, col, idn, &value, 1);
        return parse_expected(p, top ? "'in' or ';'" : "'in'");
    }
    parse_next(p);
    body = parse_expr(p);
    if (body == NULL)
        return NULL;
    kids[0] = value;
    kids[1] = body;
    kind = is_fn ? N_LETFN : N_LET;
    return tree_make(kind, line, col, kind == N_LET ? idn : -1, kids, 2);
}

/* Expressions separated by SEP appended to L, until the current token is
 * not SEP.  When LIMIT is not 0, at most LIMIT of them. */
static int parse_list(struct parser *p, int sep, struct nodes *l, int limit)
{
    int base = l->n;
    Node e;

    for (;;) {
        if (limit != 0 && l->n - base == limit) {
            diag_error(p->tok.line, p->tok.col, "too many arguments (at "
                       "most %d)", limit);
            return 0;
        }
        e = parse_expr(p);
        if (e == NULL)
            return 0;
        nodes_push(l, e);
        if (p->tok.kind != sep)
            return 1;
        parse_next(p);
    }
}

static Node parse_if(struct parser *p)
{
    int line = p->tok.line, col = p->tok.col;
    Node kids[3];

    parse_next(p);
    if ((kids[0] = parse_expr(p)) == NULL || !parse_expect(p, T_THEN) ||
        (kids[1] = parse_expr(p)) == NULL || !parse_expect(p, T_ELSE) ||
        (kids[2] = parse_expr(p)) == NULL)
        return NULL;
    return tree_make(N_IF, line, col, 0, kids, 3);
}

/* 'print' or '(': a list of expressions. */
static Node parse_print_or_seq(struct parser *p)
{
    int line = p->tok.line, col = p->tok.col, print = p->tok.kind == T_PRINT;
    struct nodes kids = { NULL, 0, 0 };
    Node n = NULL;

    parse_next(p);
    if (!parse_list(p, print ? T_COMMA : T_SEMI, &kids, 0))
        goto fail_list;
    if (print) {
        n = tree_make(N_PRINT, line, col, 0, kids.v, kids.n);
    } else if (parse_expect(p, T_RPAREN)) {
        /* A single expression in parentheses is just that expression. */
        n = kids.n == 1 ? kids.v[0]
                        : tree_make(N_SEQ, line, col, 0, kids.v, kids.n);
    }
fail_list:
    free(kids.v);
    return n;
}

static Node parse_primary(struct parser *p)
{
    struct token *t = &p->tok;
    Node n;

    switch (t->kind) {
    case T_INT:
        n = tree_make(N_INT, t->line, t->col, t->ival, NULL, 0);
        parse_next(p);
        return n;
    case T_STR:
        n = tree_make(N_STR, t->line, t->col, t->idn, NULL, 0);
        parse_next(p);
        return n;
    case T_IDENT:
        n = tree_make(N_NAME, t->line, t->col, t->idn, NULL, 0);
        parse_next(p);
        return n;
    case T_LPAREN:
    case T_PRINT:
        return parse_print_or_seq(p);
    case T_LET:
    case T_FN:
        return parse_binding(p, 0);
    case T_IF:
        return parse_if(p);
    default:
        return parse_expected(p, "an expression");
    }
}

static Node parse_postfix(struct parser *p)
{
    Node n = parse_primary(p), call;
    struct nodes kids;

    while (n != NULL && p->tok.kind == T_LPAREN) {
        if (n->height >= PARSE_MAX_HEIGHT) {
            diag_error(p->tok.line, p->tok.col, "expression too long (its "
                       "tree would be more than %d levels deep)",
                       PARSE_MAX_HEIGHT);
            return NULL;
        }
        kids.v = NULL;
        kids.n = kids.cap = 0;
        nodes_push(&kids, n);
        parse_next(p);
        n = NULL;
        if (p->tok.kind == T_RPAREN ||
            parse_list(p, T_COMMA, &kids, PARSE_MAX_ARGS)) {
            if (parse_expect(p, T_RPAREN)) {
                call = tree_make(N_CALL, kids.v[0]->line, kids.v[0]->col, 0,
                                 kids.v, kids.n);
                n = call;
            }
        }
        free(kids.v);
    }
    return n;
}

/* Count one more level of nesting, or report that there are too many. */
static int parse_deeper(struct parser *p)
{
    if (p->depth == PARSE_MAX_DEPTH) {
        diag_error(p->tok.line, p->tok.col, "expression nested too deeply "
                   "(more than %d levels)", PARSE_MAX_DEPTH);
        return 0;
    }
    p->depth++;
    return 1;
}

static Node parse_unary(struct parser *p)
{
    int line = p->tok.line, col = p->tok.col;
    Node n;

    if (p->tok.kind != T_MINUS)
        return parse_postfix(p);
    if (!parse_deeper(p))
        return NULL;
    parse_next(p);
    n = parse_unary(p);
    p->depth--;
    if (n == NULL)
        return NULL;
    return tree_make(N_UNARY, line, col, T_MINUS, &n, 1);
}

/* A binary node for the operator token OP at LINE:COL, or NULL when the
 * tree would grow too tall. */
static Node parse_make_binary(int op, int line, int col, Node l, Node r)
{
    Node kids[2] = { l, r };

    if (l->height >= PARSE_MAX_HEIGHT || r->height >= PARSE_MAX_HEIGHT) {
        diag_error(line, col, "expression too long (its tree would be more "
                   "than %d levels deep)", PARSE_MAX_HEIGHT);
        return NULL;
    }
    return tree_make(N_BINARY, line, col, op, kids, 2);
}

static Node parse_term(struct parser *p)
{
    Node l = parse_unary(p), r;
    int op, line, col;

    while (l != NULL && (p->tok.kind == T_STAR || p->tok.kind == T_SLASH ||
                         p->tok.kind == T_PERCENT)) {
        op = p->tok.kind;
        line = p->tok.line;
        col = p->tok.col;
        parse_next(p);
        r = parse_unary(p);
        l = r == NULL ? NULL : parse_make_binary(op, line, col, l, r);
    }
    return l;
}

static Node parse_sum(struct parser *p)
{
    Node l = parse_term(p), r;
    int op, line, col;

    while (l != NULL && (p->tok.kind == T_PLUS || p->tok.kind == T_MINUS)) {
        op = p->tok.kind;
        line = p->tok.line;
        col = p->tok.col;
        parse_next(p);
        r = parse_term(p);
        l = r == NULL ? NULL : parse_make_binary(op, line, col, l, r);
    }
    return l;
}

static int parse_is_comparison(int kind)
{
    return kind == T_EQ || kind == T_NE || kind == T_LT || kind == T_LE ||
           kind == T_GT || kind == T_GE;
}

static Node parse_cmp(struct parser *p)
{
    Node l = parse_sum(p), r;
    int op, line, col;

    if (l == NULL || !parse_is_comparison(p->tok.kind))
        return l;
    op = p->tok.kind;
    line = p->tok.line;
    col = p->tok.col;
    parse_next(p);
    r = parse_sum(p);
    if (r == NULL)
        return NULL;
    if (parse_is_comparison(p->tok.kind)) {
        diag_error(p->tok.line, p->tok.col, "comparisons cannot be chained; "
                   "use 'and'");
        return NULL;
    }
    return parse_make_binary(op, line, col, l, r);
}

static Node parse_not(struct parser *p)
{
    int line = p->tok.line, col = p->tok.col;
    Node n;

    if (p->tok.kind != T_NOT)
        return parse_cmp(p);
    if (!parse_deeper(p))
        return NULL;
    parse_next(p);
    n = parse_not(p);
    p->depth--;
    if (n == NULL)
        return NULL;
    return tree_make(N_UNARY, line, col, T_NOT, &n, 1);
}

/* A left-associative chain of OP (and, or) over SUB. */
static Node parse_logic(struct parser *p, int op, Node (*sub)(struct parser *))
{
    Node l = sub(p), r;
    int line, col;

    while (l != NULL && p->tok.kind == op) {
        line = p->tok.line;
        col = p->tok.col;
        parse_next(p);
        r = sub(p);
        l = r == NULL ? NULL : parse_make_binary(op, line, col, l, r);
    }
    return l;
}

static Node parse_and(struct parser *p)
{
    return parse_logic(p, T_AND, parse_not);
}

static Node parse_expr(struct parser *p)
{
    Node n;

    if (!parse_deeper(p))
        return NULL;
    n = parse_logic(p, T_OR, parse_and);
    p->depth--;
    return n;
}

static Node parse_item(struct parser *p)
{
    if (p->tok.kind == T_LET || p->tok.kind == T_FN)
        return parse_binding(p, 1);
    return parse_expr(p);
}

/* The tree of the program that LX reads, or NULL after reporting the
 * first error.  The root is also recorded with tree_set_root(). */
Node parse_program(struct lexer *lx)
{
    struct parser p = { lx, { 0 }, 0 };
    struct nodes items = { NULL, 0, 0 };
    Node item, root = NULL;

#ifdef MONITOR
    _dapto_enter("parser");
#endif
    parse_next(&p);
    for (;;) {
        while (p.tok.kind == T_SEMI)
            parse_next(&p);
        if (p.tok.kind == T_EOF)
            break;
        item = parse_item(&p);
        if (item == NULL)
            goto fail_item;
        nodes_push(&items, item);
        if (p.tok.kind != T_SEMI && p.tok.kind != T_EOF) {
            parse_expected(&p, "';'");
            goto fail_item;
        }
    }
    root = tree_make(N_PROGRAM, 1, 1, 0, items.v, items.n);
    tree_set_root(root);
fail_item:
    free(items.v);
#ifdef MONITOR
    _dapto_leave("parser");
#endif
    return root;
}
