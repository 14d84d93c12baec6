/* SPDX-License-Identifier: MIT */
/*
 * cexpr.c - C expressions: a lexer, a recursive-descent parser into a
 * tree (so that && || ?: evaluate only what they must: p && p->x with p
 * null reads nothing), and an evaluator over cvalue.h with C's integer
 * promotions and usual arithmetic conversions.  Errors are gdb's words.
 */
#include "config.h"

#include <dwarf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cexpr.h"
#include "ctypes.h"
#include "cvalue.h"
#include "dinfo.h"
#include "dscope.h"
#include "frames.h"
#include "xmalloc.h"

/* --- lexer ------------------------------------------------------------- */

enum tok_kind {
    T_END,
    T_ID,
    T_INT,
    T_FLOAT,
    T_CHAR,
    T_STR,
    T_DOLLAR, /* $name, $N, $, $$, $$N */
    T_OP
};

struct token {
    enum tok_kind kind;
    size_t pos;        /* offset in the text */
    size_t len;
    char op[4];        /* T_OP */
    uint64_t ival;     /* T_INT, T_CHAR */
    int is_unsigned;   /* T_INT: a u suffix or a value that needs it */
    int longs;         /* T_INT: l suffixes; T_FLOAT: 1 for l */
    int is_float;      /* T_FLOAT: an f suffix */
    long double fval;
    char *str;         /* T_STR (decoded), T_ID, T_DOLLAR */
    size_t slen;
};

struct lexer {
    const char *text;
    struct token *t;
    size_t n, cap;
};

static const char *const ops[] = {
    "<<=", ">>=", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=",
    "&&", "||", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "(", ")",
    "[", "]", "{", "}", ".", "&", "*", "+", "-", "~", "!", "/", "%", "<",
    ">", "^", "|", "?", ":", ",", "=", "@", NULL};

static int syntax_error(const char *text, size_t pos, char **cause)
{
    xcause(cause, "A syntax error in expression, near `%s'.", text + pos);
    return -1;
}

/* One escape sequence at *P (after the backslash): its value. */
static int escape(const char **p)
{
    const char *s = *p;
    int v;

    switch (*s) {
    case 'n': *p = s + 1; return '\n';
    case 't': *p = s + 1; return '\t';
    case 'r': *p = s + 1; return '\r';
    case 'a': *p = s + 1; return '\a';
    case 'b': *p = s + 1; return '\b';
    case 'f': *p = s + 1; return '\f';
    case 'v': *p = s + 1; return '\v';
    case 'e': *p = s + 1; return 033;
    case 'x':
        s++;
        v = 0;
        while ((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f') ||
               (*s >= 'A' && *s <= 'F')) {
            /* (the char keeps the low byte of as many digits as given) */
            v = (v * 16 + (*s <= '9' ? *s - '0' : (*s | 0x20) - 'a' + 10)) &
                0xff;
            s++;
        }
        *p = s;
        return v & 0xff;
    default:
        if (*s >= '0' && *s <= '7') {
            v = 0;
            for (int k = 0; k < 3 && *s >= '0' && *s <= '7'; k++)
                v = v * 8 + (*s++ - '0');
            *p = s;
            return v & 0xff;
        }
        /* (a backslash that ends the text stays there: its string or
         * character constant is unterminated) */
        *p = *s != '\0' ? s + 1 : s;
        return (unsigned char)*s;
    }
}

static int lex(struct lexer *lx, char **cause)
{
    const char *text = lx->text, *p = text;

    for (;;) {
        struct token *t;

        while (*p == ' ' || *p == '\t' || *p == '\n')
            p++;
        lx->t = xgrow(lx->t, lx->n, &lx->cap, sizeof *lx->t);
        t = &lx->t[lx->n++];
        memset(t, 0, sizeof *t);
        t->pos = (size_t)(p - text);
        if (*p == '\0') {
            t->kind = T_END;
            return 0;
        }
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
            *p == '_') {
            const char *s = p;

            while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                   (*p >= '0' && *p <= '9') || *p == '_')
                p++;
            t->kind = T_ID;
            t->str = xstrndup(s, (size_t)(p - s));
        } else if (*p == '$') {
            const char *s = p++;

            if (*p == '$')
                p++;
            while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                   (*p >= '0' && *p <= '9') || *p == '_')
                p++;
            t->kind = T_DOLLAR;
            t->str = xstrndup(s, (size_t)(p - s));
        } else if ((*p >= '0' && *p <= '9') || (*p == '.' && p[1] >= '0' &&
                                                p[1] <= '9')) {
            const char *s = p;
            char *end;
            int isfloat = 0;

            if (*p == '0' && (p[1] == 'x' || p[1] == 'X')) {
                errno = 0;
                t->ival = strtoull(p, &end, 16);
            } else if (*p == '0' && (p[1] == 'b' || p[1] == 'B')) {
                t->ival = strtoull(p + 2, &end, 2);
            } else {
                const char *q = p;

                while (*q >= '0' && *q <= '9')
                    q++;
                if (*q == '.' || *q == 'e' || *q == 'E') {
                    isfloat = 1;
                    t->fval = strtold(p, &end);
                } else {
                    errno = 0;
                    t->ival = strtoull(p, &end, *p == '0' ? 8 : 10);
                }
            }
            if (errno == ERANGE) {
                xcause(cause, "Numeric constant too large.");
                return -1;
            }
            p = end;
            t->kind = isfloat ? T_FLOAT : T_INT;
            for (;;) {
                if (*p == 'u' || *p == 'U') {
                    t->is_unsigned = 1;
                } else if (*p == 'l' || *p == 'L') {
                    t->longs++;
                } else if ((*p == 'f' || *p == 'F') && isfloat) {
                    t->is_float = 1;
                } else {
                    break;
                }
                p++;
            }
            if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                (*p >= '0' && *p <= '9') || *p == '_' || *p == '.') {
                xcause(cause, "Invalid number \"%.*s\".",
                       (int)strcspn(s, " \t)]+-*/,"), s);
                return -1;
            }
            /* a decimal constant's type: int, long, unsigned long */
            (void)s;
        } else if (*p == '\'') {
            p++;
            if (*p == '\\') {
                p++;
                t->ival = (uint64_t)(int64_t)(signed char)escape(&p);
            } else if (*p != '\0' && *p != '\'') {
                t->ival = (uint64_t)(int64_t)(signed char)*p++;
            } else {
                xcause(cause, "Empty character constant.");
                return -1;
            }
            if (*p != '\'') {
                xcause(cause, "Unmatched single quote.");
                return -1;
            }
            p++;
            t->kind = T_CHAR;
        } else if (*p == '"') {
            size_t cap = 0;

            p++;
            t->kind = T_STR;
            while (*p != '"') {
                char c;

                if (*p == '\0') {
                    xcause(cause, "Unterminated string in expression.");
                    return -1;
                }
                if (*p == '\\') {
                    p++;
                    c = (char)escape(&p);
                } else {
                    c = *p++;
                }
                t->str = xgrow(t->str, t->slen, &cap, 1);
                t->str[t->slen++] = c;
            }
            p++;
            t->str = xgrow(t->str, t->slen, &cap, 1);
            t->str[t->slen] = '\0';
        } else {
            int k;

            for (k = 0; ops[k] != NULL; k++)
                if (strncmp(p, ops[k], strlen(ops[k])) == 0)
                    break;
            if (ops[k] == NULL)
                return syntax_error(text, t->pos, cause);
            t->kind = T_OP;
            strcpy(t->op, ops[k]);
            p += strlen(ops[k]);
        }
        t->len = (size_t)(p - text) - t->pos;
    }
}

static void lex_free(struct lexer *lx)
{
    for (size_t i = 0; i < lx->n; i++)
        free(lx->t[i].str);
    free(lx->t);
}

/* --- the tree ------------------------------------------------------------ */

enum node_kind {
    N_INT,
    N_FLOAT,
    N_CHAR,
    N_STR,
    N_ID,
    N_DOLLAR,
    N_UNARY,   /* op: - + ! ~ */
    N_DEREF,
    N_ADDR,
    N_BINARY,  /* op */
    N_AND,
    N_OR,
    N_COND,
    N_CAST,
    N_BRACE,   /* {TYPE} ADDR */
    N_SIZEOF_T,
    N_SIZEOF_E,
    N_MEMBER,  /* a.name, a->name (op "->") */
    N_INDEX,
    N_AT,
    N_COMMA
};

struct node {
    enum node_kind kind;
    char op[4];
    struct node *a, *b, *c;
    char *name;          /* N_ID, N_DOLLAR, N_MEMBER */
    struct ctype *type;  /* casts, sizeof, literals */
    uint64_t ival;
    long double fval;
    char *str;           /* N_STR */
    size_t slen;
    size_t pos;          /* where it starts, for messages */
};

static void node_free(struct node *n)
{
    if (n == NULL)
        return;
    node_free(n->a);
    node_free(n->b);
    node_free(n->c);
    free(n->name);
    free(n->str);
    free(n);
}

struct parser {
    struct cscope *s;
    struct lexer lx;
    size_t i;
    char **cause;
    int failed;
};

static struct token *peek(struct parser *p)
{
    return &p->lx.t[p->i];
}

static int is_op(struct parser *p, const char *op)
{
    struct token *t = peek(p);

    return t->kind == T_OP && strcmp(t->op, op) == 0;
}

static int accept(struct parser *p, const char *op)
{
    if (is_op(p, op)) {
        p->i++;
        return 1;
    }
    return 0;
}

/* The frames, asked for when first needed. */
static void need_frames(struct cscope *s)
{
    if (s->fr == NULL && s->frames != NULL && !s->frames_asked) {
        s->frames_asked = 1;
        s->fr = s->frames(s->arg, &s->f);
    }
}

static struct node *perror_at(struct parser *p)
{
    if (!p->failed)
        syntax_error(p->lx.text, peek(p)->pos, p->cause);
    p->failed = 1;
    return NULL;
}

static struct node *new_node(enum node_kind kind, size_t pos)
{
    struct node *n = xcalloc(1, sizeof *n);

    n->kind = kind;
    n->pos = pos;
    return n;
}

static struct node *expression(struct parser *p);
static struct node *assignment(struct parser *p);
static struct node *cast_expr(struct parser *p);

/* Whether identifier NAME names a value where the expression is
 * evaluated (a variable shadows a typedef of the same name). */
static int names_value(struct parser *p, const char *name)
{
    struct cscope *s = p->s;
    struct cvalue *v;
    char *cause = NULL;

    if (s->lookup != NULL && (v = s->lookup(s->arg, name)) != NULL) {
        cvalue_free(v);
        return 1;
    }
    if (s->d == NULL)
        return 0;
    need_frames(s);
    if (dscope_lookup(s->d, s->fr, s->f, name, &v, &cause) == 0) {
        cvalue_free(v);
        return 1;
    }
    free(cause);
    return 0;
}

static const char *const base_words[] = {
    "void",  "char",     "short",  "int",   "long", "float",
    "double", "signed", "unsigned", "_Bool", NULL};

static int is_base_word(const char *w)
{
    for (int i = 0; base_words[i] != NULL; i++)
        if (strcmp(w, base_words[i]) == 0)
            return 1;
    return 0;
}

/* Whether a type name starts at the current token. */
static int starts_type(struct parser *p)
{
    struct token *t = peek(p);
    Dwarf_Die die;

    if (t->kind != T_ID)
        return 0;
    if (is_base_word(t->str) || strcmp(t->str, "struct") == 0 ||
        strcmp(t->str, "union") == 0 || strcmp(t->str, "enum") == 0 ||
        strcmp(t->str, "const") == 0 || strcmp(t->str, "volatile") == 0)
        return 1;
    if (p->s->d == NULL)
        return 0;
    need_frames(p->s);
    if (dscope_type(p->s->d, p->s->fr, p->s->f, DW_TAG_typedef, t->str,
                    &die) != 0 &&
        dscope_type(p->s->d, p->s->fr, p->s->f, DW_TAG_base_type, t->str,
                    &die) != 0)
        return 0;
    return !names_value(p, t->str);
}

/* A type name: specifiers, then an abstract declarator (pointers,
 * arrays, a pointer to a function). */
static struct ctype *type_name(struct parser *p)
{
    struct cscope *s = p->s;
    struct ctype *t = NULL;
    unsigned int qual = 0;
    /* how many times each word of a base type was written */
    enum { W_SIGNED, W_UNSIGNED, W_SHORT, W_LONG, W_CHAR, W_INT, W_FLOAT,
           W_DOUBLE, W_VOID, W_BOOL, W_COUNT };
    static const char *const words[W_COUNT] = {
        "signed", "unsigned", "short", "long", "char", "int", "float",
        "double", "void", "_Bool"};
    int n[W_COUNT] = {0}, any = 0, w;
    Dwarf_Die die;

    for (;;) {
        struct token *tk = peek(p);

        if (tk->kind != T_ID)
            break;
        for (w = 0; w < W_COUNT && strcmp(tk->str, words[w]) != 0; w++)
            ;
        if (strcmp(tk->str, "const") == 0) {
            qual |= CQ_CONST;
        } else if (strcmp(tk->str, "volatile") == 0) {
            qual |= CQ_VOLATILE;
        } else if (w < W_COUNT && t == NULL) {
            n[w]++;
            any = 1;
        } else if (t == NULL && !any &&
                   (strcmp(tk->str, "struct") == 0 ||
                    strcmp(tk->str, "union") == 0 ||
                    strcmp(tk->str, "enum") == 0)) {
            int tag = tk->str[0] == 's'   ? DW_TAG_structure_type
                      : tk->str[0] == 'u' ? DW_TAG_union_type
                                          : DW_TAG_enumeration_type;
            const char *word = tk->str;

            p->i++;
            tk = peek(p);
            if (tk->kind != T_ID) {
                perror_at(p);
                return NULL;
            }
            need_frames(s);
            if (s->d == NULL ||
                dscope_type(s->d, s->fr, s->f, tag, tk->str, &die) != 0) {
                xcause(p->cause, "No %s type named %s.", word, tk->str);
                p->failed = 1;
                return NULL;
            }
            t = ctype_of_die(s->types, &die);
        } else if (t == NULL && !any && s->d != NULL &&
                   (need_frames(s), 1) &&
                   (dscope_type(s->d, s->fr, s->f, DW_TAG_typedef, tk->str,
                                &die) == 0 ||
                    dscope_type(s->d, s->fr, s->f, DW_TAG_base_type, tk->str,
                                &die) == 0)) {
            t = ctype_of_die(s->types, &die);
        } else {
            break;
        }
        p->i++;
    }
    if (t == NULL) {
        if (!any) {
            perror_at(p);
            return NULL;
        }
        if (n[W_VOID])
            t = ctype_builtin(s->types, CB_VOID);
        else if (n[W_BOOL])
            t = ctype_builtin(s->types, CB_BOOL);
        else if (n[W_FLOAT])
            t = ctype_builtin(s->types, CB_FLOAT);
        else if (n[W_DOUBLE])
            t = ctype_builtin(s->types, n[W_LONG] ? CB_LDOUBLE : CB_DOUBLE);
        else if (n[W_CHAR])
            t = ctype_builtin(s->types, n[W_UNSIGNED] ? CB_UCHAR
                                        : n[W_SIGNED] ? CB_SCHAR
                                                      : CB_CHAR);
        else if (n[W_SHORT])
            t = ctype_builtin(s->types, n[W_UNSIGNED] ? CB_USHORT : CB_SHORT);
        else if (n[W_LONG] >= 2)
            t = ctype_builtin(s->types, n[W_UNSIGNED] ? CB_ULLONG : CB_LLONG);
        else if (n[W_LONG] == 1)
            t = ctype_builtin(s->types, n[W_UNSIGNED] ? CB_ULONG : CB_LONG);
        else
            t = ctype_builtin(s->types, n[W_UNSIGNED] ? CB_UINT : CB_INT);
    }
    t = ctype_qualified(s->types, t, qual);
    /* the abstract declarator */
    for (;;) {
        if (accept(p, "*")) {
            unsigned int q = 0;

            t = ctype_pointer(s->types, t);
            while (peek(p)->kind == T_ID &&
                   (strcmp(peek(p)->str, "const") == 0 ||
                    strcmp(peek(p)->str, "volatile") == 0)) {
                q |= peek(p)->str[0] == 'c' ? CQ_CONST : CQ_VOLATILE;
                p->i++;
            }
            t = ctype_qualified(s->types, t, q);
        } else if (is_op(p, "(") && p->lx.t[p->i + 1].kind == T_OP &&
                   strcmp(p->lx.t[p->i + 1].op, "*") == 0) {
            /* (*)(params): a pointer to a function returning T */
            p->i += 2;
            if (!accept(p, ")") || !accept(p, "(")) {
                perror_at(p);
                return NULL;
            }
            while (!is_op(p, ")") && peek(p)->kind != T_END)
                p->i++;
            if (!accept(p, ")")) {
                perror_at(p);
                return NULL;
            }
            t = ctype_pointer(s->types, ctype_func_returning(s->types, t));
        } else if (accept(p, "[")) {
            struct token *dim = peek(p);

            if (dim->kind != T_INT) {
                perror_at(p);
                return NULL;
            }
            p->i++;
            if (!accept(p, "]")) {
                perror_at(p);
                return NULL;
            }
            t = ctype_array(s->types, t, dim->ival);
        } else {
            break;
        }
    }
    return t;
}

static struct node *primary(struct parser *p)
{
    struct token *t = peek(p);
    struct node *n;

    switch (t->kind) {
    case T_INT:
        n = new_node(N_INT, t->pos);
        n->ival = t->ival;
        /* C's rules for an integer constant's type (gdb's too) */
        if (t->longs >= 2)
            n->type = ctype_builtin(p->s->types,
                                    t->is_unsigned ? CB_ULLONG : CB_LLONG);
        else if (t->longs == 1 || t->ival > 0xffffffffu ||
                 (t->ival > 0x7fffffff && !t->is_unsigned &&
                  p->lx.text[t->pos] != '0'))
            n->type = ctype_builtin(p->s->types,
                                    t->is_unsigned || t->ival > INT64_MAX
                                        ? CB_ULONG
                                        : CB_LONG);
        else
            n->type = ctype_builtin(p->s->types, t->is_unsigned ||
                                                         t->ival > 0x7fffffff
                                                     ? CB_UINT
                                                     : CB_INT);
        p->i++;
        return n;
    case T_FLOAT:
        n = new_node(N_FLOAT, t->pos);
        n->fval = t->fval;
        n->type = ctype_builtin(p->s->types, t->is_float ? CB_FLOAT
                                             : t->longs  ? CB_LDOUBLE
                                                         : CB_DOUBLE);
        p->i++;
        return n;
    case T_CHAR:
        n = new_node(N_CHAR, t->pos);
        n->ival = t->ival;
        n->type = ctype_builtin(p->s->types, CB_CHAR);
        p->i++;
        return n;
    case T_STR:
        n = new_node(N_STR, t->pos);
        n->str = xstrndup(t->str, t->slen);
        n->slen = t->slen;
        p->i++;
        /* adjacent strings join */
        while (peek(p)->kind == T_STR) {
            t = peek(p);
            n->str = xrealloc(n->str, n->slen + t->slen + 1);
            memcpy(n->str + n->slen, t->str, t->slen);
            n->slen += t->slen;
            n->str[n->slen] = '\0';
            p->i++;
        }
        return n;
    case T_ID:
        if (strcmp(t->str, "sizeof") == 0)
            return perror_at(p);
        n = new_node(N_ID, t->pos);
        n->name = xstrdup(t->str);
        p->i++;
        return n;
    case T_DOLLAR:
        n = new_node(N_DOLLAR, t->pos);
        n->name = xstrdup(t->str);
        p->i++;
        return n;
    case T_OP:
        if (accept(p, "(")) {
            n = expression(p);
            if (n == NULL)
                return NULL;
            if (!accept(p, ")")) {
                node_free(n);
                return perror_at(p);
            }
            return n;
        }
        return perror_at(p);
    default:
        return perror_at(p);
    }
}

static struct node *postfix(struct parser *p)
{
    struct node *n = primary(p), *m;

    while (n != NULL) {
        struct token *t = peek(p);

        if (accept(p, "[")) {
            m = new_node(N_INDEX, t->pos);
            m->a = n;
            m->b = expression(p);
            n = m;
            if (m->b == NULL || !accept(p, "]")) {
                node_free(n);
                return perror_at(p);
            }
        } else if (is_op(p, ".") || is_op(p, "->")) {
            p->i++;
            m = new_node(N_MEMBER, t->pos);
            strcpy(m->op, t->op);
            m->a = n;
            n = m;
            if (peek(p)->kind != T_ID) {
                node_free(n);
                return perror_at(p);
            }
            m->name = xstrdup(peek(p)->str);
            p->i++;
        } else if (is_op(p, "(")) {
            xcause(p->cause, "print does not call the program's functions "
                             "(it reads the program and never runs it)");
            p->failed = 1;
            node_free(n);
            return NULL;
        } else if (is_op(p, "++") || is_op(p, "--")) {
            xcause(p->cause, "print does not change the program (%s)",
                   t->op);
            p->failed = 1;
            node_free(n);
            return NULL;
        } else {
            break;
        }
    }
    return n;
}

static struct node *unary(struct parser *p)
{
    struct token *t = peek(p);
    struct node *n;

    if (t->kind == T_OP) {
        if (strcmp(t->op, "-") == 0 || strcmp(t->op, "+") == 0 ||
            strcmp(t->op, "!") == 0 || strcmp(t->op, "~") == 0) {
            p->i++;
            n = new_node(N_UNARY, t->pos);
            strcpy(n->op, t->op);
            n->a = cast_expr(p);
            if (n->a == NULL) {
                node_free(n);
                return NULL;
            }
            return n;
        }
        if (strcmp(t->op, "*") == 0 || strcmp(t->op, "&") == 0) {
            p->i++;
            n = new_node(t->op[0] == '*' ? N_DEREF : N_ADDR, t->pos);
            n->a = cast_expr(p);
            if (n->a == NULL) {
                node_free(n);
                return NULL;
            }
            return n;
        }
        if (strcmp(t->op, "++") == 0 || strcmp(t->op, "--") == 0) {
            xcause(p->cause, "print does not change the program (%s)",
                   t->op);
            p->failed = 1;
            return NULL;
        }
        if (strcmp(t->op, "{") == 0) {
            /* gdb's {TYPE} ADDR: a value of TYPE at ADDR */
            struct ctype *type;

            p->i++;
            type = type_name(p);
            if (type == NULL || !accept(p, "}"))
                return p->failed ? NULL : perror_at(p);
            n = new_node(N_BRACE, t->pos);
            n->type = type;
            n->a = cast_expr(p);
            if (n->a == NULL) {
                node_free(n);
                return NULL;
            }
            return n;
        }
    }
    if (t->kind == T_ID && strcmp(t->str, "sizeof") == 0) {
        p->i++;
        if (is_op(p, "(")) {
            size_t save = p->i;

            p->i++;
            if (starts_type(p)) {
                struct ctype *type = type_name(p);

                if (type == NULL || !accept(p, ")"))
                    return p->failed ? NULL : perror_at(p);
                n = new_node(N_SIZEOF_T, t->pos);
                n->type = type;
                return n;
            }
            p->i = save;
        }
        n = new_node(N_SIZEOF_E, t->pos);
        n->a = unary(p);
        if (n->a == NULL) {
            node_free(n);
            return NULL;
        }
        return n;
    }
    return postfix(p);
}

static struct node *cast_expr(struct parser *p)
{
    struct token *t = peek(p);

    if (is_op(p, "(")) {
        size_t save = p->i;

        p->i++;
        if (starts_type(p)) {
            struct ctype *type = type_name(p);
            struct node *n;

            if (type == NULL || !accept(p, ")"))
                return p->failed ? NULL : perror_at(p);
            n = new_node(N_CAST, t->pos);
            n->type = type;
            n->a = cast_expr(p);
            if (n->a == NULL) {
                node_free(n);
                return NULL;
            }
            return n;
        }
        if (p->failed)
            return NULL;
        p->i = save;
    }
    return unary(p);
}

/* Binary operators by precedence, loosest first (gdb puts @ just above
 * the comma). */
static const char *const levels[][6] = {
    {"@", NULL},
    {"||", NULL},
    {"&&", NULL},
    {"|", NULL},
    {"^", NULL},
    {"&", NULL},
    {"==", "!=", NULL},
    {"<", ">", "<=", ">=", NULL},
    {"<<", ">>", NULL},
    {"+", "-", NULL},
    {"*", "/", "%", NULL},
};
#define NLEVELS (int)(sizeof levels / sizeof levels[0])

static struct node *binary(struct parser *p, int level)
{
    struct node *n;

    if (level == NLEVELS)
        return cast_expr(p);
    n = binary(p, level + 1);
    while (n != NULL) {
        struct token *t = peek(p);
        const char *op = NULL;
        struct node *m;

        if (t->kind != T_OP)
            break;
        for (int k = 0; levels[level][k] != NULL; k++)
            if (strcmp(t->op, levels[level][k]) == 0)
                op = levels[level][k];
        if (op == NULL)
            break;
        p->i++;
        m = new_node(strcmp(op, "&&") == 0   ? N_AND
                     : strcmp(op, "||") == 0 ? N_OR
                     : strcmp(op, "@") == 0  ? N_AT
                                             : N_BINARY,
                     t->pos);
        strcpy(m->op, op);
        m->a = n;
        m->b = binary(p, level + 1);
        n = m;
        if (m->b == NULL) {
            node_free(n);
            return NULL;
        }
    }
    return n;
}

static struct node *conditional(struct parser *p)
{
    struct node *n = binary(p, 0), *m;
    struct token *t = peek(p);

    if (n == NULL || !accept(p, "?"))
        return n;
    m = new_node(N_COND, t->pos);
    m->a = n;
    m->b = expression(p);
    if (m->b == NULL || !accept(p, ":")) {
        node_free(m);
        return p->failed ? NULL : perror_at(p);
    }
    m->c = conditional(p);
    if (m->c == NULL) {
        node_free(m);
        return NULL;
    }
    return m;
}

static struct node *assignment(struct parser *p)
{
    struct node *n = conditional(p);
    struct token *t = peek(p);

    if (n != NULL && t->kind == T_OP &&
        (strcmp(t->op, "=") == 0 || (strlen(t->op) >= 2 &&
                                     t->op[strlen(t->op) - 1] == '=' &&
                                     strcmp(t->op, "==") != 0 &&
                                     strcmp(t->op, "!=") != 0 &&
                                     strcmp(t->op, "<=") != 0 &&
                                     strcmp(t->op, ">=") != 0))) {
        xcause(p->cause, "print does not change the program (%s): noosa "
                         "reads the program's data, it does not write it",
               t->op);
        p->failed = 1;
        node_free(n);
        return NULL;
    }
    return n;
}

static struct node *expression(struct parser *p)
{
    struct node *n = assignment(p), *m;
    struct token *t;

    while (n != NULL && is_op(p, ",")) {
        t = peek(p);
        p->i++;
        m = new_node(N_COMMA, t->pos);
        m->a = n;
        m->b = assignment(p);
        n = m;
        if (m->b == NULL) {
            node_free(n);
            return NULL;
        }
    }
    return n;
}

/* --- evaluation ----------------------------------------------------------- */

struct eval {
    struct cscope *s;
    char **cause;
};

static struct cvalue *eval(struct eval *e, struct node *n);

static struct cvalue *efail(struct eval *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static struct cvalue *efail(struct eval *e, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    if (e->cause != NULL) {
        free(*e->cause);
        *e->cause = xvasprintf(fmt, ap);
    }
    va_end(ap);
    return NULL;
}

static struct ctype *builtin(struct eval *e, enum ctype_builtin b)
{
    return ctype_builtin(e->s->types, b);
}

/* Read V; on failure, the error (or "value has been optimized out"). */
static int need(struct eval *e, struct cvalue *v)
{
    if (cvalue_fetch(v) == 0 && cvalue_available(v, 0, v->size))
        return 0;
    if (v->error != NULL)
        efail(e, "%s", v->error);
    else
        efail(e, "value has been optimized out");
    return -1;
}

/* V as used in an expression: an array becomes a pointer to its first
 * element, a function a pointer to it. */
static struct cvalue *decay(struct eval *e, struct cvalue *v)
{
    struct ctype *t = ctype_strip(v->type);
    struct cvalue *r;

    if (t->kind == CT_ARRAY) {
        if (v->lval != CV_MEMORY) {
            cvalue_free(v);
            return efail(e, "Attempt to take address of value not located "
                            "in memory.");
        }
        r = cvalue_uint(e->s->d, ctype_pointer(e->s->types, t->target),
                        v->addr);
        cvalue_free(v);
        return r;
    }
    if (t->kind == CT_FUNC) {
        r = cvalue_uint(e->s->d, ctype_pointer(e->s->types, v->type),
                        v->addr);
        cvalue_free(v);
        return r;
    }
    return v;
}

/* C's integer promotion of integral type T. */
static struct ctype *promote(struct eval *e, struct ctype *t)
{
    struct ctype *s = ctype_strip(t);

    if (s->kind == CT_FLOAT || s->kind == CT_PTR)
        return t;
    if (s->size < 4 || s->kind == CT_BOOL)
        return builtin(e, CB_INT);
    if (s->kind == CT_ENUM)
        return builtin(e, s->size > 4 ? (s->is_signed ? CB_LONG : CB_ULONG)
                                      : (s->is_signed ? CB_INT : CB_UINT));
    return t;
}

/* The type of A op B under the usual arithmetic conversions. */
static struct ctype *common(struct eval *e, struct ctype *a, struct ctype *b)
{
    struct ctype *sa, *sb;

    a = promote(e, a);
    b = promote(e, b);
    sa = ctype_strip(a);
    sb = ctype_strip(b);
    if (sa->kind == CT_FLOAT || sb->kind == CT_FLOAT) {
        if (sa->kind != CT_FLOAT)
            return b;
        if (sb->kind != CT_FLOAT)
            return a;
        return sa->size >= sb->size ? a : b;
    }
    if (sa->size != sb->size)
        return sa->size > sb->size ? a : b;
    if (!sa->is_signed)
        return a;
    if (!sb->is_signed)
        return b;
    return a;
}

/* A value of arithmetic TYPE from the integer X or float F. */
static struct cvalue *make_num(struct eval *e, struct ctype *type, int64_t x,
                               long double f, int is_float)
{
    struct ctype *s = ctype_strip(type);

    if (s->kind == CT_FLOAT) {
        long double v = is_float ? f : (long double)x;

        if (s->size == 4) {
            float fl = (float)v;

            return cvalue_bytes(e->s->d, type, &fl, 4);
        }
        if (s->size == 8) {
            double d = (double)v;

            return cvalue_bytes(e->s->d, type, &d, 8);
        }
        return cvalue_bytes(e->s->d, type, &v, sizeof v);
    }
    if (is_float) {
        if (s->kind == CT_BOOL)
            x = f != 0;
        else
            x = cvalue_float_to_int(f);
    } else if (s->kind == CT_BOOL) {
        x = x != 0;
    }
    return cvalue_int(e->s->d, type, x);
}

static int is_float_type(struct ctype *t)
{
    return ctype_strip(t)->kind == CT_FLOAT;
}

/* Convert V (read) to TYPE, C's way: a new value. */
static struct cvalue *convert(struct eval *e, struct cvalue *v,
                              struct ctype *type)
{
    struct ctype *from = ctype_strip(v->type), *to = ctype_strip(type);
    int64_t x = 0;

    if (to->kind == CT_VOID)
        return cvalue_bytes(e->s->d, type, "", 0);
    if (!ctype_is_scalar(v->type) || !ctype_is_scalar(type))
        return efail(e, "Invalid cast.");
    if (need(e, v) != 0)
        return NULL;
    if (from->kind == CT_FLOAT)
        return make_num(e, type, 0, cvalue_as_ldouble(v), 1);
    cvalue_as_int(v, &x);
    if (to->kind == CT_PTR)
        return cvalue_int(e->s->d, type, x);
    return make_num(e, type, x, 0, 0);
}

static struct cvalue *eval_id(struct eval *e, struct node *n)
{
    struct cscope *s = e->s;
    struct cvalue *v;
    char *cause = NULL;

    if (s->lookup != NULL && (v = s->lookup(s->arg, n->name)) != NULL)
        return v;
    if (s->d == NULL)
        return efail(e, "No symbol \"%s\" in current context (%s).", n->name,
                     s->no_program != NULL ? s->no_program
                                           : "there is no program");
    need_frames(s);
    if (dscope_lookup(s->d, s->fr, s->f, n->name, &v, &cause) != 0) {
        if (e->cause != NULL) {
            free(*e->cause);
            *e->cause = cause;
        } else {
            free(cause);
        }
        return NULL;
    }
    return v;
}

static struct cvalue *eval_dollar(struct eval *e, struct node *n)
{
    struct cscope *s = e->s;
    const char *name = n->name + 1;
    char *end;
    long k;
    int reg;

    if (*name == '$' || *name == '\0' || (*name >= '0' && *name <= '9')) {
        int rel = *name == '$' || *name == '\0';
        const char *num = *name == '$' ? name + 1 : name;

        k = *num == '\0' ? (*name == '$' ? 1 : 0) : strtol(num, &end, 10);
        if (*num != '\0' && *end != '\0')
            return efail(e, "Invalid history reference \"%s\".", n->name);
        if (s->history == NULL)
            return efail(e, "History is empty.");
        return s->history(s->arg, k, rel, e->cause);
    }
    reg = frames_reg_number(name);
    if (reg >= 0) {
        uint64_t val;
        struct ctype *t;

        need_frames(s);
        if (s->fr == NULL)
            return efail(e, "No registers (%s).",
                         s->no_program != NULL ? s->no_program
                                               : "no frame selected");
        if (frames_reg(s->fr, s->f, (unsigned int)reg, &val) != 0)
            return cvalue_optout(s->d, builtin(e, CB_LONG));
        if (reg == 16) {
            /* $pc, $rip: void (*)() */
            t = ctype_pointer(s->types, ctype_func_returning(
                                            s->types, builtin(e, CB_VOID)));
        } else if (reg == 7 || reg == 6) {
            t = ctype_pointer(s->types, builtin(e, CB_VOID));
        } else {
            t = builtin(e, CB_LONG);
        }
        return cvalue_uint(s->d, t, val);
    }
    /* a convenience variable noosa does not keep: void, as in gdb */
    return cvalue_bytes(s->d, builtin(e, CB_VOID), "", 0);
}

/* Reading what V points to needs a program: say so when there is none
 * (a recording). */
static int no_memory(struct eval *e, struct cvalue **v)
{
    if (e->s->d != NULL)
        return 0;
    cvalue_free(*v);
    *v = NULL;
    efail(e, "Cannot read what a pointer points to: %s.",
          e->s->no_program != NULL ? e->s->no_program
                                   : "there is no program");
    return 1;
}

static struct cvalue *eval_member(struct eval *e, struct node *n)
{
    struct cvalue *v = eval(e, n->a), *r;
    struct ctype *t;
    const struct cmember *m;
    uint64_t off;

    if (v == NULL)
        return NULL;
    t = ctype_strip(v->type);
    if (t->kind == CT_PTR && no_memory(e, &v))
        return NULL;
    if (t->kind == CT_PTR) {
        struct cvalue *d = cvalue_deref(v, e->cause);

        cvalue_free(v);
        if (d == NULL)
            return NULL;
        v = d;
        t = ctype_strip(v->type);
    }
    if (t->kind != CT_STRUCT && t->kind != CT_UNION) {
        cvalue_free(v);
        if (strcmp(n->op, "->") == 0)
            return efail(e, "The -> operator must be applied to a pointer "
                            "to a struct or union.");
        return efail(e, "Attempt to extract a component of a value that is "
                        "not a structure.");
    }
    if (ctype_complete(t) != 0) {
        char *name = ctype_name(v->type);

        cvalue_free(v);
        efail(e, "The type %s is incomplete: the program's debug "
                 "information has no definition of it.",
              name);
        free(name);
        return NULL;
    }
    if (ctype_member(t, n->name, &off, &m) != 0) {
        cvalue_free(v);
        return efail(e, "There is no member named %s.", n->name);
    }
    r = cvalue_member(v, m, off);
    cvalue_free(v);
    return r;
}

/* P + I (P a pointer, I an integer, scaled by what P points to). */
static struct cvalue *ptr_add(struct eval *e, struct cvalue *p, int64_t i)
{
    struct ctype *t = ctype_strip(p->type);
    uint64_t size = ctype_size(t->target);

    if (size == 0)
        size = 1; /* void *, as gdb */
    return cvalue_uint(e->s->d, p->type,
                       cvalue_as_uint(p) + (uint64_t)i * size);
}

static struct cvalue *eval_index(struct eval *e, struct node *n)
{
    struct cvalue *a = eval(e, n->a), *i, *r;
    struct ctype *ta, *ti;
    int64_t k;

    if (a == NULL)
        return NULL;
    i = eval(e, n->b);
    if (i == NULL) {
        cvalue_free(a);
        return NULL;
    }
    ta = ctype_strip(a->type);
    ti = ctype_strip(i->type);
    if (ta->kind != CT_ARRAY && ta->kind != CT_PTR &&
        (ti->kind == CT_ARRAY || ti->kind == CT_PTR)) {
        struct cvalue *t = a; /* i[a] */

        a = i;
        i = t;
        ta = ctype_strip(a->type);
        ti = ctype_strip(i->type);
    }
    if ((ta->kind != CT_ARRAY && ta->kind != CT_PTR) ||
        !ctype_is_integral(i->type)) {
        char *name = ctype_name(a->type);

        cvalue_free(a);
        cvalue_free(i);
        efail(e, "cannot subscript something of type `%s'", name);
        free(name);
        return NULL;
    }
    if (need(e, i) != 0) {
        cvalue_free(a);
        cvalue_free(i);
        return NULL;
    }
    cvalue_as_int(i, &k);
    cvalue_free(i);
    if (ta->kind == CT_PTR) {
        if (ctype_strip(ta->target)->kind == CT_VOID) {
            cvalue_free(a);
            return efail(e, "Attempt to take contents of a non-pointer "
                            "value.");
        }
        if (need(e, a) != 0) {
            cvalue_free(a);
            return NULL;
        }
    }
    r = cvalue_element(a, k);
    if (r == NULL && ta->kind == CT_ARRAY)
        r = efail(e, "no such vector element");
    else if (r == NULL)
        need(e, a);
    cvalue_free(a);
    return r;
}

static struct cvalue *eval_deref(struct eval *e, struct node *n)
{
    struct cvalue *v = eval(e, n->a), *r;
    struct ctype *t;

    if (v == NULL || no_memory(e, &v))
        return NULL;
    t = ctype_strip(v->type);
    if (t->kind == CT_FUNC)
        return v;
    if (t->kind == CT_ARRAY) {
        r = cvalue_element(v, 0);
        cvalue_free(v);
        return r != NULL ? r : efail(e, "Attempt to take contents of a "
                                        "non-pointer value.");
    }
    if (ctype_is_integral(v->type) && t->kind != CT_BOOL) {
        /* gdb reads an int at the address an integer gives */
        if (need(e, v) != 0) {
            cvalue_free(v);
            return NULL;
        }
        r = cvalue_at(e->s->d, builtin(e, CB_INT), cvalue_as_uint(v));
        cvalue_free(v);
        return r;
    }
    if (t->kind != CT_PTR || ctype_strip(t->target)->kind == CT_VOID) {
        cvalue_free(v);
        return efail(e, "Attempt to take contents of a non-pointer value.");
    }
    if (need(e, v) != 0) {
        cvalue_free(v);
        return NULL;
    }
    r = cvalue_deref(v, e->cause);
    cvalue_free(v);
    return r;
}

static struct cvalue *eval_addr(struct eval *e, struct node *n)
{
    struct cvalue *v = eval(e, n->a), *r;

    if (v == NULL)
        return NULL;
    if (v->lval == CV_REGISTER) {
        const char *rn = frames_reg_name(v->reg);

        cvalue_free(v);
        if (n->a->kind == N_ID)
            return efail(e, "Address requested for identifier \"%s\" which "
                            "is in register $%s",
                         n->a->name, rn != NULL ? rn : "?");
        return efail(e, "Attempt to take address of value not located in "
                        "memory.");
    }
    if (v->lval != CV_MEMORY || v->bitsize != 0) {
        int optout = v->optout;

        cvalue_free(v);
        if (optout)
            return efail(e, "Can't take address of \"%s\" which isn't an "
                            "lvalue.",
                         n->a->kind == N_ID ? n->a->name : "?");
        return efail(e, "Attempt to take address of value not located in "
                        "memory.");
    }
    r = cvalue_uint(e->s->d, ctype_pointer(e->s->types, v->type), v->addr);
    cvalue_free(v);
    return r;
}

static int truth(struct eval *e, struct cvalue *v, int *out)
{
    v = decay(e, v);
    if (v == NULL)
        return -1;
    if (!ctype_is_scalar(v->type)) {
        cvalue_free(v);
        efail(e, "Attempt to take value of a non-scalar");
        return -1;
    }
    if (need(e, v) != 0) {
        cvalue_free(v);
        return -1;
    }
    if (is_float_type(v->type))
        *out = cvalue_as_ldouble(v) != 0;
    else
        *out = cvalue_as_uint(v) != 0;
    cvalue_free(v);
    return 0;
}

static struct cvalue *eval_unary(struct eval *e, struct node *n)
{
    struct cvalue *v = eval(e, n->a), *r;
    struct ctype *t;
    int64_t x;

    if (v == NULL)
        return NULL;
    if (n->op[0] == '!') {
        int b;

        if (truth(e, v, &b) != 0)
            return NULL;
        return cvalue_int(e->s->d, builtin(e, CB_INT), !b);
    }
    v = decay(e, v);
    if (v == NULL)
        return NULL;
    if (!ctype_is_arith(v->type) || (n->op[0] == '~' &&
                                     !ctype_is_integral(v->type))) {
        cvalue_free(v);
        return efail(e, "Argument to arithmetic operation not a number or "
                        "boolean.");
    }
    if (need(e, v) != 0) {
        cvalue_free(v);
        return NULL;
    }
    t = promote(e, v->type);
    if (is_float_type(t)) {
        long double f = cvalue_as_ldouble(v);

        r = make_num(e, t, 0, n->op[0] == '-' ? -f : f, 1);
    } else {
        cvalue_as_int(v, &x);
        if (n->op[0] == '-')
            x = (int64_t)(0 - (uint64_t)x);
        else if (n->op[0] == '~')
            x = ~x;
        r = make_num(e, t, x, 0, 0);
    }
    cvalue_free(v);
    return r;
}

/* A op B on integers of type T. */
static struct cvalue *int_op(struct eval *e, const char *op, struct ctype *t,
                             int64_t a, int64_t b)
{
    struct ctype *s = ctype_strip(t);
    int sgn = s->is_signed;
    uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
    int64_t r = 0;
    int cmp = 0;

    if (s->size < 8) {
        /* the operands as T holds them */
        if (sgn) {
            a = (int32_t)a;
            b = (int32_t)b;
        } else {
            ua &= 0xffffffffu;
            ub &= 0xffffffffu;
        }
    }
    if (strcmp(op, "+") == 0) r = (int64_t)(ua + ub);
    else if (strcmp(op, "-") == 0) r = (int64_t)(ua - ub);
    else if (strcmp(op, "*") == 0) r = (int64_t)(ua * ub);
    else if (strcmp(op, "/") == 0 || strcmp(op, "%") == 0) {
        if (b == 0 || ub == 0)
            return efail(e, "Division by zero");
        if (sgn) {
            if (a == INT64_MIN && b == -1)
                r = op[0] == '/' ? a : 0;
            else
                r = op[0] == '/' ? a / b : a % b;
        } else {
            r = (int64_t)(op[0] == '/' ? ua / ub : ua % ub);
        }
    } else if (strcmp(op, "&") == 0) r = (int64_t)(ua & ub);
    else if (strcmp(op, "|") == 0) r = (int64_t)(ua | ub);
    else if (strcmp(op, "^") == 0) r = (int64_t)(ua ^ ub);
    else if (strcmp(op, "<<") == 0) r = ub >= 64 ? 0 : (int64_t)(ua << ub);
    else if (strcmp(op, ">>") == 0)
        r = ub >= 64 ? (sgn && a < 0 ? -1 : 0)
                     : sgn ? a >> ub : (int64_t)(ua >> ub);
    else {
        cmp = 1;
        if (strcmp(op, "==") == 0) r = sgn ? a == b : ua == ub;
        else if (strcmp(op, "!=") == 0) r = sgn ? a != b : ua != ub;
        else if (strcmp(op, "<") == 0) r = sgn ? a < b : ua < ub;
        else if (strcmp(op, ">") == 0) r = sgn ? a > b : ua > ub;
        else if (strcmp(op, "<=") == 0) r = sgn ? a <= b : ua <= ub;
        else r = sgn ? a >= b : ua >= ub;
    }
    if (cmp)
        return cvalue_int(e->s->d, builtin(e, CB_INT), r);
    return make_num(e, t, r, 0, 0);
}

static struct cvalue *float_op(struct eval *e, const char *op,
                               struct ctype *t, long double a, long double b)
{
    long double r;
    int64_t c;

    if (strcmp(op, "+") == 0) r = a + b;
    else if (strcmp(op, "-") == 0) r = a - b;
    else if (strcmp(op, "*") == 0) r = a * b;
    else if (strcmp(op, "/") == 0) r = a / b;
    else {
        if (strcmp(op, "==") == 0) c = a == b;
        else if (strcmp(op, "!=") == 0) c = a != b;
        else if (strcmp(op, "<") == 0) c = a < b;
        else if (strcmp(op, ">") == 0) c = a > b;
        else if (strcmp(op, "<=") == 0) c = a <= b;
        else if (strcmp(op, ">=") == 0) c = a >= b;
        else
            return efail(e, "Integer only operation %s.", op);
        return cvalue_int(e->s->d, builtin(e, CB_INT), c);
    }
    return make_num(e, t, 0, r, 1);
}

static int is_cmp(const char *op)
{
    return strcmp(op, "==") == 0 || strcmp(op, "!=") == 0 ||
           strcmp(op, "<") == 0 || strcmp(op, ">") == 0 ||
           strcmp(op, "<=") == 0 || strcmp(op, ">=") == 0;
}

static struct cvalue *eval_binary(struct eval *e, struct node *n)
{
    struct cvalue *a = eval(e, n->a), *b = NULL, *r = NULL;
    struct ctype *ta, *tb, *t;
    const char *op = n->op;
    int64_t x, y;

    if (a == NULL || (a = decay(e, a)) == NULL)
        return NULL;
    b = eval(e, n->b);
    if (b == NULL || (b = decay(e, b)) == NULL) {
        cvalue_free(a);
        return NULL;
    }
    ta = ctype_strip(a->type);
    tb = ctype_strip(b->type);
    if (!ctype_is_scalar(a->type) || !ctype_is_scalar(b->type)) {
        r = efail(e, "Argument to arithmetic operation not a number or "
                     "boolean.");
        goto done;
    }
    if (need(e, a) != 0 || need(e, b) != 0)
        goto done;
    if (ta->kind == CT_PTR || tb->kind == CT_PTR) {
        if (strcmp(op, "+") == 0 && ta->kind == CT_PTR &&
            ctype_is_integral(b->type)) {
            cvalue_as_int(b, &y);
            r = ptr_add(e, a, y);
        } else if (strcmp(op, "+") == 0 && tb->kind == CT_PTR &&
                   ctype_is_integral(a->type)) {
            cvalue_as_int(a, &x);
            r = ptr_add(e, b, x);
        } else if (strcmp(op, "-") == 0 && ta->kind == CT_PTR &&
                   ctype_is_integral(b->type)) {
            cvalue_as_int(b, &y);
            r = ptr_add(e, a, -y);
        } else if (strcmp(op, "-") == 0 && ta->kind == CT_PTR &&
                   tb->kind == CT_PTR) {
            uint64_t sa = ctype_size(ta->target), sb = ctype_size(tb->target);

            if (sa != sb) {
                r = efail(e, "First argument of `-' is a pointer and second "
                             "argument is neither\nan integer nor a pointer "
                             "of the same type.");
                goto done;
            }
            if (sa == 0)
                sa = 1;
            r = cvalue_int(e->s->d, builtin(e, CB_LONG),
                           (int64_t)(cvalue_as_uint(a) - cvalue_as_uint(b)) /
                               (int64_t)sa);
        } else if (is_cmp(op) && !is_float_type(a->type) &&
                   !is_float_type(b->type)) {
            r = int_op(e, op, builtin(e, CB_ULONG),
                       (int64_t)cvalue_as_uint(a), (int64_t)cvalue_as_uint(b));
        } else {
            r = efail(e, "Argument to arithmetic operation not a number or "
                         "boolean.");
        }
        goto done;
    }
    if ((strcmp(op, "%") == 0 || strcmp(op, "&") == 0 ||
         strcmp(op, "|") == 0 || strcmp(op, "^") == 0 ||
         strcmp(op, "<<") == 0 || strcmp(op, ">>") == 0) &&
        (is_float_type(a->type) || is_float_type(b->type))) {
        r = efail(e, "Integer only operation %s.", op);
        goto done;
    }
    if (strcmp(op, "<<") == 0 || strcmp(op, ">>") == 0)
        t = promote(e, a->type);
    else
        t = common(e, a->type, b->type);
    if (is_float_type(t)) {
        r = float_op(e, op, t, cvalue_as_ldouble(a), cvalue_as_ldouble(b));
    } else {
        cvalue_as_int(a, &x);
        cvalue_as_int(b, &y);
        r = int_op(e, op, t, x, y);
    }
done:
    cvalue_free(a);
    cvalue_free(b);
    return r;
}

static struct cvalue *eval_cast(struct eval *e, struct node *n)
{
    struct ctype *to = ctype_strip(n->type);
    struct cvalue *v, *r;

    if (n->a->kind == N_ID && e->s->d != NULL) {
        /* (TYPE) NAME of a symbol without debug information: NAME read
         * as TYPE, as gdb does */
        struct cvalue *probe = NULL;
        char *cause = NULL;
        uint64_t addr;
        int is_func;

        if ((e->s->lookup == NULL ||
             (probe = e->s->lookup(e->s->arg, n->a->name)) == NULL) &&
            (need_frames(e->s), 1) &&
            dscope_lookup(e->s->d, e->s->fr, e->s->f, n->a->name, &probe,
                          &cause) != 0 &&
            dinfo_symbol_named(e->s->d, n->a->name, &addr, &is_func) == 0 &&
            !is_func) {
            free(cause);
            return cvalue_at(e->s->d, n->type, addr);
        }
        free(cause);
        cvalue_free(probe);
    }
    v = eval(e, n->a);
    if (v == NULL)
        return NULL;
    if (to->kind == CT_STRUCT || to->kind == CT_UNION ||
        to->kind == CT_ARRAY) {
        /* the same bytes seen as another aggregate */
        if (v->lval != CV_MEMORY) {
            cvalue_free(v);
            return efail(e, "Invalid cast.");
        }
        r = cvalue_at(e->s->d, n->type, v->addr);
        cvalue_free(v);
        return r;
    }
    v = decay(e, v);
    if (v == NULL)
        return NULL;
    r = convert(e, v, n->type);
    cvalue_free(v);
    return r;
}

static struct cvalue *eval_at(struct eval *e, struct node *n)
{
    struct cvalue *a = eval(e, n->a), *b, *r;
    int64_t k;

    if (a == NULL)
        return NULL;
    b = eval(e, n->b);
    if (b == NULL) {
        cvalue_free(a);
        return NULL;
    }
    if (!ctype_is_integral(b->type) || need(e, b) != 0) {
        cvalue_free(a);
        cvalue_free(b);
        return efail(e, "Argument to arithmetic operation not a number or "
                        "boolean.");
    }
    cvalue_as_int(b, &k);
    cvalue_free(b);
    if (k <= 0) {
        cvalue_free(a);
        return efail(e, "Only values in memory can be extended with '@'."
                        "%s",
                     "" /* gdb says the count is bad below */);
    }
    if (a->lval != CV_MEMORY) {
        cvalue_free(a);
        return efail(e, "Only values in memory can be extended with '@'.");
    }
    r = cvalue_at(e->s->d, ctype_array(e->s->types, a->type, (uint64_t)k),
                  a->addr);
    cvalue_free(a);
    return r;
}

static struct cvalue *eval(struct eval *e, struct node *n)
{
    struct cvalue *v;
    int b;

    switch (n->kind) {
    case N_INT:
    case N_CHAR:
        return cvalue_int(e->s->d, n->type, (int64_t)n->ival);
    case N_FLOAT:
        return make_num(e, n->type, 0, n->fval, 1);
    case N_STR:
        return cvalue_bytes(e->s->d,
                            ctype_array(e->s->types, builtin(e, CB_CHAR),
                                        n->slen + 1),
                            n->str, n->slen + 1);
    case N_ID:
        return eval_id(e, n);
    case N_DOLLAR:
        return eval_dollar(e, n);
    case N_UNARY:
        return eval_unary(e, n);
    case N_DEREF:
        return eval_deref(e, n);
    case N_ADDR:
        return eval_addr(e, n);
    case N_BINARY:
        return eval_binary(e, n);
    case N_AND:
    case N_OR:
        v = eval(e, n->a);
        if (v == NULL || truth(e, v, &b) != 0)
            return NULL;
        if ((n->kind == N_AND && !b) || (n->kind == N_OR && b))
            return cvalue_int(e->s->d, builtin(e, CB_INT), b);
        v = eval(e, n->b);
        if (v == NULL || truth(e, v, &b) != 0)
            return NULL;
        return cvalue_int(e->s->d, builtin(e, CB_INT), b);
    case N_COND:
        v = eval(e, n->a);
        if (v == NULL || truth(e, v, &b) != 0)
            return NULL;
        return eval(e, b ? n->b : n->c);
    case N_CAST:
        return eval_cast(e, n);
    case N_BRACE:
        v = eval(e, n->a);
        if (v == NULL || (v = decay(e, v)) == NULL)
            return NULL;
        if (!ctype_is_scalar(v->type) || need(e, v) != 0) {
            cvalue_free(v);
            return NULL;
        }
        {
            struct cvalue *r = cvalue_at(e->s->d, n->type, cvalue_as_uint(v));

            cvalue_free(v);
            return r;
        }
    case N_SIZEOF_T:
        return cvalue_int(e->s->d, builtin(e, CB_INT),
                          (int64_t)ctype_size(n->type));
    case N_SIZEOF_E:
        v = eval(e, n->a);
        if (v == NULL)
            return NULL;
        {
            int64_t size = (int64_t)ctype_size(v->type);

            cvalue_free(v);
            return cvalue_int(e->s->d, builtin(e, CB_INT), size);
        }
    case N_MEMBER:
        return eval_member(e, n);
    case N_INDEX:
        return eval_index(e, n);
    case N_AT:
        return eval_at(e, n);
    case N_COMMA:
        v = eval(e, n->a);
        if (v == NULL)
            return NULL;
        cvalue_free(v);
        return eval(e, n->b);
    }
    return efail(e, "bad expression");
}

static struct node *parse(struct parser *p, struct cscope *s,
                          const char *text, char **cause)
{
    struct node *n;

    memset(p, 0, sizeof *p);
    p->s = s;
    p->cause = cause;
    p->lx.text = text;
    if (lex(&p->lx, cause) != 0)
        return NULL;
    if (peek(p)->kind == T_END) {
        xcause(cause, "An expression is needed (print EXPRESSION).");
        return NULL;
    }
    n = expression(p);
    if (n != NULL && peek(p)->kind != T_END) {
        node_free(n);
        return perror_at(p);
    }
    return n;
}

int cexpr_eval(const struct cscope *scope, const char *text,
               struct cvalue **out, char **cause)
{
    struct cscope sc = *scope, *s = &sc;
    struct parser p;
    struct eval e = {.s = s, .cause = cause};
    struct node *n = parse(&p, s, text, cause);

    *out = NULL;
    if (n != NULL)
        *out = eval(&e, n);
    node_free(n);
    lex_free(&p.lx);
    if (*out == NULL && cause != NULL && *cause == NULL)
        xcause(cause, "cannot evaluate \"%s\"", text);
    return *out != NULL ? 0 : -1;
}

int cexpr_type(const struct cscope *scope, const char *text,
               struct ctype **out, char **cause)
{
    struct cscope sc = *scope;
    struct parser p;
    int rc = 0;

    memset(&p, 0, sizeof p);
    p.s = &sc;
    p.cause = cause;
    p.lx.text = text;
    if (lex(&p.lx, cause) != 0) {
        lex_free(&p.lx);
        return -1;
    }
    if (starts_type(&p)) {
        *out = type_name(&p);
        if (*out != NULL && peek(&p)->kind == T_END)
            rc = 1;
        else if (*out != NULL)
            rc = syntax_error(text, peek(&p)->pos, cause);
        else
            rc = -1;
    }
    lex_free(&p.lx);
    return rc;
}
