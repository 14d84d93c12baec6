/* SPDX-License-Identifier: MIT */
/*
 * tree.c - construction, description and unparsing of syntax tree nodes,
 * component "tree".  Nodes come from a pool and are released together by
 * tree_free().
 */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "lexer.h"
#include "pool.h"
#include "strtab.h"
#include "tree.h"
#include "xmalloc.h"

#ifdef MONITOR
#include "tree_dapto.h"
#endif

/* All nodes; the pool is set up on first use and emptied by tree_free(). */
static struct pool tree_pool;
static int tree_pool_ready;
/* The program's root, once the parser has finished. */
static Node tree_top;

static const char *const tree_kind_names[N_NKINDS] = {
    [N_PROGRAM] = "program", [N_DEFINE] = "define", [N_INT] = "int",
    [N_STR] = "string",      [N_NAME] = "name",     [N_UNARY] = "unary",
    [N_BINARY] = "binary",   [N_IF] = "if",         [N_LET] = "let",
    [N_LETFN] = "letfn",     [N_FN] = "fn",         [N_PARAM] = "param",
    [N_CALL] = "call",       [N_PRINT] = "print",   [N_SEQ] = "sequence",
};

/* A new node with a copy of the NKIDS children at KIDS.  The node is
 * complete when node_created is emitted, so a monitor stopped there can
 * browse its children. */
Node tree_make(int kind, int line, int col, long attr, const Node *kids,
               int nkids)
{
    Node n;
    int i;

#ifdef MONITOR
    _dapto_enter("tree");
#endif
    if (!tree_pool_ready) {
        pool_init(&tree_pool, sizeof(struct node));
        tree_pool_ready = 1;
    }
    n = pool_alloc(&tree_pool);
    n->kind = kind;
    n->line = line;
    n->col = col;
    n->attr = attr;
    n->nkids = nkids;
    n->height = 1;
    for (i = 0; i < nkids; i++) {
        if (kids[i]->height >= n->height)
            n->height = kids[i]->height + 1;
    }
    if (nkids > 0) {
        n->kids = xmalloc((size_t)nkids * sizeof *n->kids);
        memcpy(n->kids, kids, (size_t)nkids * sizeof *n->kids);
    }
#ifdef MONITOR
    _dapto_node_created(n, kind, line, col);
    _dapto_leave("tree");
#endif
    return n;
}

const char *tree_kind_name(int kind)
{
    if (kind < 0 || kind >= N_NKINDS)
        return "unknown";
    return tree_kind_names[kind];
}

/* The role of child I of N, as listed in tree.h. */
const char *tree_role(Node n, int i)
{
    int last = i == n->nkids - 1;

    switch (n->kind) {
    case N_PROGRAM: return "item";
    case N_DEFINE: return "value";
    case N_UNARY: return "operand";
    case N_BINARY: return i == 0 ? "left" : "right";
    case N_IF: return i == 0 ? "condition" : i == 1 ? "then" : "else";
    case N_LET: return i == 0 ? "value" : "body";
    case N_LETFN: return i == 0 ? "function" : "body";
    case N_FN: return last ? "body" : "param";
    case N_CALL: return i == 0 ? "function" : "argument";
    case N_PRINT: return "argument";
    case N_SEQ: return "expression";
    default: return "child";
    }
}

/* Whether P is the address of a node. */
int tree_is_node(const void *p)
{
    return tree_pool_ready && pool_owns(&tree_pool, p);
}

void tree_set_root(Node root)
{
    tree_top = root;
}

/* The program's root, or NULL before the parser has finished. */
Node tree_root(void)
{
    return tree_top;
}

/* Precedence levels for unparsing; the forms that extend as far as
 * possible (let, fn, if, print) have the lowest. */
enum {
    PREC_OPEN,
    PREC_OR,
    PREC_AND,
    PREC_NOT,
    PREC_CMP,
    PREC_SUM,
    PREC_TERM,
    PREC_NEG,
    PREC_CALL,
    PREC_ATOM
};

static int tree_prec(Node n)
{
    switch (n->kind) {
    case N_BINARY:
        switch (n->attr) {
        case T_OR: return PREC_OR;
        case T_AND: return PREC_AND;
        case T_PLUS: case T_MINUS: return PREC_SUM;
        case T_STAR: case T_SLASH: case T_PERCENT: return PREC_TERM;
        default: return PREC_CMP;
        }
    case N_UNARY: return n->attr == T_NOT ? PREC_NOT : PREC_NEG;
    case N_CALL: return PREC_CALL;
    case N_LET: case N_LETFN: case N_FN: case N_IF: case N_PRINT:
    case N_DEFINE:
        return PREC_OPEN;
    default: return PREC_ATOM;
    }
}

/* The source text of operator OP (a token kind). */
const char *tree_operator(long op)
{
    switch (op) {
    case T_OR: return "or";
    case T_AND: return "and";
    case T_PLUS: return "+";
    case T_MINUS: return "-";
    case T_STAR: return "*";
    case T_SLASH: return "/";
    case T_PERCENT: return "%";
    case T_EQ: return "==";
    case T_NE: return "!=";
    case T_LT: return "<";
    case T_LE: return "<=";
    case T_GT: return ">";
    case T_GE: return ">=";
    case T_NOT: return "not";
    default: return "?";
    }
}

static void tree_unparse_at(Node n, struct buf *b, int ctx);

static void tree_unparse_name(long idn, struct buf *b)
{
    const char *s = strtab_get((int)idn);

    buf_adds(b, s != NULL ? s : "?");
}

static void tree_unparse_string(long idn, struct buf *b)
{
    const char *s = strtab_get((int)idn);
    size_t i, len = strtab_length((int)idn);

    buf_addc(b, '"');
    for (i = 0; s != NULL && i < len; i++) {
        switch (s[i]) {
        case '\n': buf_adds(b, "\\n"); break;
        case '\t': buf_adds(b, "\\t"); break;
        case '"': buf_adds(b, "\\\""); break;
        case '\\': buf_adds(b, "\\\\"); break;
        default: buf_addc(b, s[i]); break;
        }
    }
    buf_addc(b, '"');
}

/* "(a, b)" for the parameters of fn node N. */
static void tree_unparse_params(Node n, struct buf *b)
{
    int i;

    buf_addc(b, '(');
    for (i = 0; i < n->nkids - 1; i++) {
        if (i > 0)
            buf_adds(b, ", ");
        tree_unparse_name(n->kids[i]->attr, b);
    }
    buf_addc(b, ')');
}

/* "fn f(a, b) = body" for a named fn node N. */
static void tree_unparse_named_fn(Node n, struct buf *b)
{
    buf_adds(b, "fn ");
    tree_unparse_name(n->attr, b);
    tree_unparse_params(n, b);
    buf_adds(b, " = ");
    tree_unparse_at(n->kids[n->nkids - 1], b, PREC_OPEN);
}

/* Children FROM.. of N separated by SEP; in a list separated by commas,
 * a print is parenthesised so that its commas stay its own. */
static void tree_unparse_list(Node n, int from, const char *sep,
                              struct buf *b)
{
    int i;

    for (i = from; i < n->nkids; i++) {
        if (i > from)
            buf_adds(b, sep);
        tree_unparse_at(n->kids[i], b, n->kids[i]->kind == N_PRINT &&
                        sep[0] == ',' ? PREC_OR : PREC_OPEN);
    }
}

static void tree_unparse_at(Node n, struct buf *b, int ctx)
{
    int prec = tree_prec(n), paren = prec < ctx;

    if (paren)
        buf_addc(b, '(');
    switch (n->kind) {
    case N_PROGRAM:
        tree_unparse_list(n, 0, "; ", b);
        break;
    case N_DEFINE:
        if (n->kids[0]->kind == N_FN && n->kids[0]->attr >= 0) {
            tree_unparse_named_fn(n->kids[0], b);
        } else {
            buf_adds(b, "let ");
            tree_unparse_name(n->attr, b);
            buf_adds(b, " = ");
            tree_unparse_at(n->kids[0], b, PREC_OPEN);
        }
        break;
    case N_INT:
        buf_addf(b, "%ld", n->attr);
        break;
    case N_STR:
        tree_unparse_string(n->attr, b);
        break;
    case N_NAME:
    case N_PARAM:
        tree_unparse_name(n->attr, b);
        break;
    case N_UNARY:
        buf_adds(b, n->attr == T_NOT ? "not " : "-");
        tree_unparse_at(n->kids[0], b, prec);
        break;
    case N_BINARY:
        tree_unparse_at(n->kids[0], b, prec == PREC_CMP ? prec + 1 : prec);
        buf_addf(b, " %s ", tree_operator(n->attr));
        tree_unparse_at(n->kids[1], b, prec + 1);
        break;
    case N_IF:
        buf_adds(b, "if ");
        tree_unparse_at(n->kids[0], b, PREC_OPEN);
        buf_adds(b, " then ");
        tree_unparse_at(n->kids[1], b, PREC_OPEN);
        buf_adds(b, " else ");
        tree_unparse_at(n->kids[2], b, PREC_OPEN);
        break;
    case N_LET:
        buf_adds(b, "let ");
        tree_unparse_name(n->attr, b);
        buf_adds(b, " = ");
        tree_unparse_at(n->kids[0], b, PREC_OPEN);
        buf_adds(b, " in ");
        tree_unparse_at(n->kids[1], b, PREC_OPEN);
        break;
    case N_LETFN:
        tree_unparse_named_fn(n->kids[0], b);
        buf_adds(b, " in ");
        tree_unparse_at(n->kids[1], b, PREC_OPEN);
        break;
    case N_FN:
        if (n->attr >= 0) {
            tree_unparse_named_fn(n, b);
        } else {
            buf_adds(b, "fn ");
            tree_unparse_params(n, b);
            buf_addc(b, ' ');
            tree_unparse_at(n->kids[n->nkids - 1], b, PREC_OPEN);
        }
        break;
    case N_CALL:
        tree_unparse_at(n->kids[0], b, PREC_CALL);
        buf_addc(b, '(');
        tree_unparse_list(n, 1, ", ", b);
        buf_addc(b, ')');
        break;
    case N_PRINT:
        buf_adds(b, "print ");
        tree_unparse_list(n, 0, ", ", b);
        break;
    case N_SEQ:
        buf_addc(b, '(');
        tree_unparse_list(n, 0, "; ", b);
        buf_addc(b, ')');
        break;
    }
    if (paren)
        buf_addc(b, ')');
}

/* Append the source form of N to B (normalised spacing and parentheses). */
void tree_unparse(Node n, struct buf *b)
{
    tree_unparse_at(n, b, PREC_OPEN);
}

static void tree_free_node(void *obj)
{
    Node n = obj;

    free(n->kids);
}

/* Release every node. */
void tree_free(void)
{
    if (tree_pool_ready) {
        pool_each(&tree_pool, tree_free_node);
        pool_free(&tree_pool);
    }
    tree_top = NULL;
}
