/* SPDX-License-Identifier: MIT */
/*
 * lexer.c - calc's lexical analyser, component "lexical".
 *
 * Tokens: decimal integers; strings in double quotes with the escapes \n,
 * \t, \" and \\; identifiers [A-Za-z_][A-Za-z0-9_]* other than the
 * keywords; the operators + - * / % == != < <= > >= = ( ) , ;.  Blanks
 * and comments (from # to the end of the line) separate tokens.  A
 * lexical error is reported where it occurs and returned as T_ERROR.
 */
#include <limits.h>
#include <string.h>

#include "buf.h"
#include "diag.h"
#include "lexer.h"
#include "strtab.h"

#ifdef MONITOR
#include "lexer_dapto.h"
#endif

static const char *const lexer_names[T_NKINDS] = {
    [T_EOF] = "end of input",
    [T_ERROR] = "invalid token",
    [T_INT] = "integer",
    [T_STR] = "string",
    [T_IDENT] = "name",
    [T_LET] = "'let'",
    [T_IN] = "'in'",
    [T_FN] = "'fn'",
    [T_IF] = "'if'",
    [T_THEN] = "'then'",
    [T_ELSE] = "'else'",
    [T_PRINT] = "'print'",
    [T_AND] = "'and'",
    [T_OR] = "'or'",
    [T_NOT] = "'not'",
    [T_PLUS] = "'+'",
    [T_MINUS] = "'-'",
    [T_STAR] = "'*'",
    [T_SLASH] = "'/'",
    [T_PERCENT] = "'%'",
    [T_EQ] = "'=='",
    [T_NE] = "'!='",
    [T_LT] = "'<'",
    [T_LE] = "'<='",
    [T_GT] = "'>'",
    [T_GE] = "'>='",
    [T_ASSIGN] = "'='",
    [T_LPAREN] = "'('",
    [T_RPAREN] = "')'",
    [T_COMMA] = "','",
    [T_SEMI] = "';'",
};

static const struct {
    const char *word;
    int kind;
} lexer_keywords[] = {
    { "let", T_LET },     { "in", T_IN },     { "fn", T_FN },
    { "if", T_IF },       { "then", T_THEN }, { "else", T_ELSE },
    { "print", T_PRINT }, { "and", T_AND },   { "or", T_OR },
    { "not", T_NOT },
};

/* How a kind is named in messages: "'let'", "name", "end of input". */
const char *lexer_kind_name(int kind)
{
    if (kind < 0 || kind >= T_NKINDS)
        return "unknown token";
    return lexer_names[kind];
}

void lexer_init(struct lexer *lx, const char *text, size_t len)
{
    lx->text = text;
    lx->len = len;
    lx->pos = 0;
    lx->line = 1;
    lx->col = 1;
}

static int lexer_peek(const struct lexer *lx, size_t ahead)
{
    if (lx->pos + ahead >= lx->len)
        return -1;
    return (unsigned char)lx->text[lx->pos + ahead];
}

static void lexer_advance(struct lexer *lx)
{
    if (lx->text[lx->pos] == '\n') {
        lx->line++;
        lx->col = 1;
    } else {
        lx->col++;
    }
    lx->pos++;
}

static void lexer_skip_blanks(struct lexer *lx)
{
    int c;

    while ((c = lexer_peek(lx, 0)) != -1) {
        if (c == '#') {
            while ((c = lexer_peek(lx, 0)) != -1 && c != '\n')
                lexer_advance(lx);
        } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
                   c == '\f' || c == '\v') {
            lexer_advance(lx);
        } else {
            break;
        }
    }
}

/* Keep the source text from START to the current position in T, cut to
 * fit. */
static void lexer_keep_text(const struct lexer *lx, size_t start,
                            struct token *t)
{
    size_t n = lx->pos - start;

    if (n < sizeof t->text) {
        memcpy(t->text, lx->text + start, n);
        t->text[n] = '\0';
    } else {
        n = sizeof t->text - 4;
        memcpy(t->text, lx->text + start, n);
        memcpy(t->text + n, "...", 4);
    }
}

static int lexer_is_alpha(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int lexer_is_digit(int c)
{
    return c >= '0' && c <= '9';
}

static int lexer_number(struct lexer *lx, struct token *t, size_t start)
{
    int c, overflow = 0;
    long v = 0;

    while ((c = lexer_peek(lx, 0)) != -1 && lexer_is_digit(c)) {
        if (v > (LONG_MAX - (c - '0')) / 10)
            overflow = 1;
        else
            v = v * 10 + (c - '0');
        lexer_advance(lx);
    }
    lexer_keep_text(lx, start, t);
    if (overflow) {
        diag_error(t->line, t->col, "integer literal %s is too large (the "
                   "largest is %ld)", t->text, LONG_MAX);
        return T_ERROR;
    }
    t->ival = v;
    return T_INT;
}

static int lexer_word(struct lexer *lx, struct token *t, size_t start)
{
    int c;
    size_t i, n;

    while ((c = lexer_peek(lx, 0)) != -1 && (lexer_is_alpha(c) || lexer_is_digit(c)))
        lexer_advance(lx);
    lexer_keep_text(lx, start, t);
    n = lx->pos - start;
    for (i = 0; i < sizeof lexer_keywords / sizeof lexer_keywords[0]; i++) {
        if (strlen(lexer_keywords[i].word) == n &&
            memcmp(lexer_keywords[i].word, lx->text + start, n) == 0)
            return lexer_keywords[i].kind;
    }
    t->idn = strtab_add(lx->text + start, n);
    return T_IDENT;
}

static int lexer_string(struct lexer *lx, struct token *t, size_t start)
{
    struct buf b = BUF_INIT;
    int c, kind = T_STR;

    lexer_advance(lx); /* the opening quote */
    for (;;) {
        c = lexer_peek(lx, 0);
        if (c == -1 || c == '\n') {
            lexer_keep_text(lx, start, t);
            diag_error(t->line, t->col, "unterminated string literal");
            kind = T_ERROR;
            break;
        }
        if (c == '"') {
            lexer_advance(lx);
            break;
        }
        if (c == '\\') {
            int line = lx->line, col = lx->col, e = lexer_peek(lx, 1);

            if (e == 'n' || e == 't' || e == '"' || e == '\\') {
                buf_addc(&b, e == 'n' ? '\n' : e == 't' ? '\t' : (char)e);
                lexer_advance(lx);
                lexer_advance(lx);
                continue;
            }
            if (e == -1 || e == '\n') {
                lexer_keep_text(lx, start, t);
                diag_error(t->line, t->col, "unterminated string literal");
            } else if (e >= 0x20 && e < 0x7f) {
                diag_error(line, col, "unknown escape sequence '\\%c' in "
                           "string literal", e);
            } else {
                diag_error(line, col, "unknown escape sequence: '\\' followed "
                           "by byte 0x%02x in string literal", (unsigned)e);
            }
            kind = T_ERROR;
            break;
        }
        buf_addc(&b, (char)c);
        lexer_advance(lx);
    }
    if (kind == T_STR) {
        lexer_keep_text(lx, start, t);
        t->idn = strtab_add(buf_str(&b), b.len);
    }
    buf_free(&b);
    return kind;
}

/* Report the character C at the current position, skip it, and return
 * T_ERROR. */
static int lexer_unexpected(struct lexer *lx, struct token *t, size_t start,
                            int c)
{
    if (c >= 0x20 && c < 0x7f)
        diag_error(t->line, t->col, "unexpected character '%c'", c);
    else
        diag_error(t->line, t->col, "unexpected character '\\x%02x'",
                   (unsigned)c);
    lexer_advance(lx);
    lexer_keep_text(lx, start, t);
    return T_ERROR;
}

static int lexer_operator(struct lexer *lx, struct token *t, size_t start)
{
    int c = lexer_peek(lx, 0), d = lexer_peek(lx, 1), kind;

    switch (c) {
    case '+': kind = T_PLUS; break;
    case '-': kind = T_MINUS; break;
    case '*': kind = T_STAR; break;
    case '/': kind = T_SLASH; break;
    case '%': kind = T_PERCENT; break;
    case '(': kind = T_LPAREN; break;
    case ')': kind = T_RPAREN; break;
    case ',': kind = T_COMMA; break;
    case ';': kind = T_SEMI; break;
    case '=': kind = d == '=' ? T_EQ : T_ASSIGN; break;
    case '<': kind = d == '=' ? T_LE : T_LT; break;
    case '>': kind = d == '=' ? T_GE : T_GT; break;
    case '!':
        if (d != '=')
            return lexer_unexpected(lx, t, start, c);
        kind = T_NE;
        break;
    default:
        return lexer_unexpected(lx, t, start, c);
    }
    lexer_advance(lx);
    if (kind == T_EQ || kind == T_NE || kind == T_LE || kind == T_GE)
        lexer_advance(lx);
    lexer_keep_text(lx, start, t);
    return kind;
}

static int lexer_scan(struct lexer *lx, struct token *t)
{
    size_t start;
    int c;

    lexer_skip_blanks(lx);
    t->line = lx->line;
    t->col = lx->col;
    t->ival = 0;
    t->idn = -1;
    t->text[0] = '\0';
    start = lx->pos;
    c = lexer_peek(lx, 0);
    if (c == -1)
        return T_EOF;
    if (lexer_is_digit(c))
        return lexer_number(lx, t, start);
    if (lexer_is_alpha(c))
        return lexer_word(lx, t, start);
    if (c == '"')
        return lexer_string(lx, t, start);
    return lexer_operator(lx, t, start);
}

/* Read the next token into T and return its kind.  At the end of the
 * text, and after it, the kind is T_EOF. */
int lexer_next(struct lexer *lx, struct token *t)
{
#ifdef MONITOR
    _dapto_enter("lexical");
#endif
    t->kind = lexer_scan(lx, t);
#ifdef MONITOR
    _dapto_token(t->kind, lexer_kind_name(t->kind), t->text, t->line, t->col);
    _dapto_leave("lexical");
#endif
    return t->kind;
}
