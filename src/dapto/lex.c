/* SPDX-License-Identifier: MIT */
/*
 * lex.c - the Dapto lexer.  It works on a buffer and never reads files.
 *
 * Positions follow line markers: "# N \"file\" flags" (what cpp writes)
 * and "#line N \"file\"" say that the next line is line N of "file".  Any
 * other directive outside an operation body is refused, with a hint to run
 * the file through cpp.  Inside a body, C directives are kept as they are,
 * and line markers become #line directives so the C compiler's messages
 * point to the same place as ours.
 *
 * The braces of an operation body nest; braces in C strings, character
 * constants and comments do not count.  Unterminated strings, header names,
 * comments and bodies are reported where they start.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "lex.h"
#include "quote.h"
#include "xmalloc.h"

/* Largest line number a marker may set (C's limit for #line). */
#define LEX_LINE_MAX 2147483647UL

static struct pos lex_pos(const struct lexer *lx);

void lex_init(struct lexer *lx, const char *data, size_t len,
              const char *file, struct spec *spec, struct diags *diags)
{
    lx->p = (const unsigned char *)data;
    lx->end = lx->p + len;
    /* a UTF-8 byte order mark, as some editors write, is not text */
    if (len >= 3 && memcmp(data, "\xef\xbb\xbf", 3) == 0)
        lx->p += 3;
    lx->line_start = lx->p;
    lx->spec = spec;
    lx->diags = diags;
    lx->file = spec_file(spec, file, strlen(file));
    lx->line = 1;
    lx->col = 1;
    lx->bol = 1;
    lx->last = lex_pos(lx);
}

void token_clear(struct token *tok)
{
    free(tok->val);
    free(tok->indent);
    memset(tok, 0, sizeof *tok);
}

static int lex_is_blank(int c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static int lex_is_digit(int c)
{
    return c >= '0' && c <= '9';
}

static int lex_is_ident_start(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int lex_is_ident(int c)
{
    return lex_is_ident_start(c) || lex_is_digit(c);
}

/* The byte at P, or -1 past the end. */
static int lex_at(const struct lexer *lx, const unsigned char *p)
{
    return p < lx->end ? *p : -1;
}

static struct pos lex_pos(const struct lexer *lx)
{
    struct pos pos;

    pos.file = lx->file;
    pos.line = lx->line;
    pos.col = lx->col;
    return pos;
}

/* The position of P, which is on the current line at or after lx->p. */
static struct pos lex_pos_at(const struct lexer *lx, const unsigned char *p)
{
    struct pos pos = lex_pos(lx);

    pos.col += (unsigned long)(p - lx->p);
    return pos;
}

/* Step over one byte, keeping the position. */
static void lex_adv(struct lexer *lx)
{
    if (*lx->p == '\n') {
        lx->line++;
        lx->col = 1;
        lx->bol = 1;
        lx->line_start = lx->p + 1;
    } else {
        lx->col++;
        if (!lex_is_blank(*lx->p)) {
            lx->bol = 0;
            lx->last = lex_pos(lx);
        }
    }
    lx->p++;
}

/* Step forward to P, which is on the current line. */
static void lex_adv_to(struct lexer *lx, const unsigned char *p)
{
    while (lx->p < p)
        lex_adv(lx);
}

/* Step over one byte, copying it to OUT. */
static void lex_copy(struct lexer *lx, struct buf *out)
{
    buf_putc(out, *lx->p);
    lex_adv(lx);
}

/*
 * Decode the string whose opening quote is at Q, on the current line, into
 * OUT.  WHAT names it in messages ("string", "file name").  Returns the
 * byte after the closing quote, or NULL after reporting an error.
 */
static const unsigned char *lex_string(struct lexer *lx, const unsigned char *q,
                                       struct buf *out, const char *what)
{
    const unsigned char *open = q, *esc;
    struct pos pos;
    unsigned int v;
    int c, n;

    for (q++;; q++) {
        c = lex_at(lx, q);
        if (c == -1 || c == '\n') {
            pos = lex_pos_at(lx, open);
            diag_error(lx->diags, &pos,
                       "unterminated %s: no closing '\"' on this line", what);
            return NULL;
        }
        if (c == '"')
            return q + 1;
        if (c == '\0') {
            pos = lex_pos_at(lx, q);
            diag_error(lx->diags, &pos, "NUL byte in a %s", what);
            return NULL;
        }
        if (c != '\\') {
            buf_putc(out, c);
            continue;
        }
        esc = q++;
        c = lex_at(lx, q);
        switch (c) {
        case '\\': case '"': case '\'': case '?':
            break;
        case 'a': c = '\a'; break;
        case 'b': c = '\b'; break;
        case 'f': c = '\f'; break;
        case 'n': c = '\n'; break;
        case 'r': c = '\r'; break;
        case 't': c = '\t'; break;
        case 'v': c = '\v'; break;
        case '0': case '1': case '2': case '3':
        case '4': case '5': case '6': case '7':
            v = 0;
            for (n = 0; n < 3 && lex_at(lx, q) >= '0' && lex_at(lx, q) <= '7'; n++)
                v = v * 8 + (unsigned int)(*q++ - '0');
            q--;
            c = (int)v;
            if (v > 0xff) {
                pos = lex_pos_at(lx, esc);
                diag_error(lx->diags, &pos,
                           "octal escape sequence out of range in a %s", what);
                return NULL;
            }
            break;
        case 'x':
            v = 0;
            for (n = 0;; n++) {
                c = lex_at(lx, q + 1);
                if (lex_is_digit(c))
                    c -= '0';
                else if (c >= 'a' && c <= 'f')
                    c -= 'a' - 10;
                else if (c >= 'A' && c <= 'F')
                    c -= 'A' - 10;
                else
                    break;
                q++;
                if (v > 0xff)
                    continue;
                v = v * 16 + (unsigned int)c;
            }
            if (n == 0 || v > 0xff) {
                pos = lex_pos_at(lx, esc);
                diag_error(lx->diags, &pos, n == 0 ?
                           "'\\x' with no hexadecimal digits in a %s" :
                           "hexadecimal escape sequence out of range in a %s",
                           what);
                return NULL;
            }
            c = (int)v;
            break;
        case -1:
        case '\n':
            pos = lex_pos_at(lx, esc);
            diag_error(lx->diags, &pos,
                       "a %s cannot continue on the next line", what);
            return NULL;
        default:
            pos = lex_pos_at(lx, esc);
            if (c >= 0x20 && c < 0x7f)
                diag_error(lx->diags, &pos,
                           "unknown escape sequence '\\%c' in a %s", c, what);
            else
                diag_error(lx->diags, &pos,
                           "unknown escape sequence '\\' followed by byte "
                           "0x%02x in a %s", (unsigned int)c, what);
            return NULL;
        }
        if (c == 0) {
            pos = lex_pos_at(lx, esc);
            diag_error(lx->diags, &pos, "a %s cannot contain a NUL byte",
                       what);
            return NULL;
        }
        buf_putc(out, c);
    }
}

/*
 * At a '#' that starts a line: if it is a line marker, read it, set the
 * file and line for what follows and return 1, leaving the newline unread.
 * For any other directive return 0 and read nothing.  A malformed marker
 * is reported and gives -1.  When OUT is set (in an operation body), the
 * marker is written there as a #line directive.
 */
static int lex_marker(struct lexer *lx, struct buf *out)
{
    const unsigned char *q = lx->p + 1, *num;
    unsigned long n = 0;
    int c, is_line = 0;
    struct buf name;
    const char *file = lx->file;
    struct pos pos, last;

    while (lex_at(lx, q) == ' ' || lex_at(lx, q) == '\t')
        q++;
    if (lx->end - q >= 4 && memcmp(q, "line", 4) == 0 &&
        !lex_is_ident(lex_at(lx, q + 4))) {
        is_line = 1;
        q += 4;
        while (lex_at(lx, q) == ' ' || lex_at(lx, q) == '\t')
            q++;
        if (!lex_is_digit(lex_at(lx, q))) {
            pos = lex_pos_at(lx, q);
            diag_error(lx->diags, &pos,
                       "expected a line number after '#line'");
            return -1;
        }
    } else if (!lex_is_digit(lex_at(lx, q))) {
        return 0;
    }
    num = q;
    while (lex_is_digit(c = lex_at(lx, q))) {
        if (n <= LEX_LINE_MAX)
            n = n * 10 + (unsigned long)(c - '0');
        q++;
    }
    if (lex_is_ident(c)) {
        pos = lex_pos_at(lx, num);
        diag_error(lx->diags, &pos, "malformed line number in a line marker");
        return -1;
    }
    if (n == 0 || n > LEX_LINE_MAX) {
        pos = lex_pos_at(lx, num);
        diag_error(lx->diags, &pos,
                   "line number in a line marker out of range (1 to %lu)",
                   LEX_LINE_MAX);
        return -1;
    }
    while (lex_is_blank(lex_at(lx, q)))
        q++;
    if (lex_at(lx, q) == '"') {
        buf_init(&name);
        q = lex_string(lx, q, &name, "file name");
        if (q == NULL) {
            buf_free(&name);
            return -1;
        }
        file = spec_file(lx->spec, name.data != NULL ? name.data : "",
                         name.len);
        buf_free(&name);
        /* cpp adds flags after the file name: 1 2 3 4 */
        while (lex_is_blank(lex_at(lx, q)) || (!is_line && lex_is_digit(lex_at(lx, q))))
            q++;
    }
    c = lex_at(lx, q);
    if (c != -1 && c != '\n') {
        pos = lex_pos_at(lx, q);
        diag_error(lx->diags, &pos, "expected a file name in quotes or the "
                   "end of the line in a line marker");
        return -1;
    }
    if (out != NULL) {
        buf_printf(out, "#line %lu ", n);
        quote_c(out, file);
    }
    last = lx->last;
    lex_adv_to(lx, q);
    lx->last = last; /* a marker is not content */
    lx->file = file;
    lx->line = n - 1; /* the newline makes it n */
    return 1;
}

/* Report the directive at lx->p, which is not a line marker. */
static void lex_bad_directive(struct lexer *lx)
{
    const unsigned char *q = lx->p + 1, *name;
    struct pos pos = lex_pos(lx);

    while (lex_at(lx, q) == ' ' || lex_at(lx, q) == '\t')
        q++;
    name = q;
    while (lex_is_ident(lex_at(lx, q)) && q - name < 32)
        q++;
    if (q == name)
        diag_error(lx->diags, &pos, "stray '#' in the specification (only "
                   "line markers such as '# 12 \"file\"' may appear here)");
    else
        diag_error(lx->diags, &pos, "preprocessor directive '#%.*s' in the "
                   "specification; run the file through cpp first",
                   (int)(q - name), (const char *)name);
}

/* Skip blanks, newlines, comments and line markers. */
static int lex_skip(struct lexer *lx)
{
    struct pos start;
    int c, r;

    for (;;) {
        c = lex_at(lx, lx->p);
        if (c == -1)
            return 0;
        if (c == '\n' || lex_is_blank(c)) {
            lex_adv(lx);
        } else if (c == '/' && lex_at(lx, lx->p + 1) == '*') {
            start = lex_pos(lx);
            lex_adv(lx);
            lex_adv(lx);
            for (;;) {
                if (lx->p >= lx->end) {
                    diag_error(lx->diags, &start,
                               "unterminated comment: no '*/' closes it");
                    return -1;
                }
                if (*lx->p == '*' && lex_at(lx, lx->p + 1) == '/') {
                    lex_adv(lx);
                    lex_adv(lx);
                    break;
                }
                lex_adv(lx);
            }
        } else if (c == '/' && lex_at(lx, lx->p + 1) == '/') {
            while ((c = lex_at(lx, lx->p)) != -1 && c != '\n') {
                if (c == '\\' && lex_at(lx, lx->p + 1) == '\n')
                    lex_adv(lx);
                lex_adv(lx);
            }
        } else if (c == '#' && lx->bol) {
            r = lex_marker(lx, NULL);
            if (r < 0)
                return -1;
            if (r == 0) {
                lex_bad_directive(lx);
                return -1;
            }
        } else {
            return 0;
        }
    }
}

/* In a body: copy a C string or character constant opened at lx->p. */
static int lex_text_quoted(struct lexer *lx, struct buf *out)
{
    int quote = *lx->p, c;
    struct pos start = lex_pos(lx);

    lex_copy(lx, out);
    for (;;) {
        c = lex_at(lx, lx->p);
        if (c == -1 || c == '\n') {
            diag_error(lx->diags, &start, quote == '"' ?
                       "unterminated string literal in an operation body" :
                       "unterminated character constant in an operation body");
            return -1;
        }
        if (c == '\0') {
            start = lex_pos(lx);
            diag_error(lx->diags, &start, "NUL byte in an operation body");
            return -1;
        }
        lex_copy(lx, out);
        if (c == quote)
            return 0;
        if (c == '\\' && lx->p < lx->end) {
            if (*lx->p == '\0')
                continue; /* reported above on the next turn */
            lex_copy(lx, out);
        }
    }
}

/* In a body: copy a comment opened at lx->p. */
static int lex_text_comment(struct lexer *lx, struct buf *out)
{
    struct pos start = lex_pos(lx);
    int c;

    if (lex_at(lx, lx->p + 1) == '/') {
        while ((c = lex_at(lx, lx->p)) != -1 && c != '\n') {
            if (c == '\0')
                goto nul;
            if (c == '\\' && lex_at(lx, lx->p + 1) == '\n')
                lex_copy(lx, out);
            lex_copy(lx, out);
        }
        return 0;
    }
    lex_copy(lx, out);
    lex_copy(lx, out);
    for (;;) {
        c = lex_at(lx, lx->p);
        if (c == -1) {
            diag_error(lx->diags, &start, "unterminated comment in an "
                       "operation body: no '*/' closes it");
            return -1;
        }
        if (c == '\0')
            goto nul;
        if (c == '*' && lex_at(lx, lx->p + 1) == '/') {
            lex_copy(lx, out);
            lex_copy(lx, out);
            return 0;
        }
        lex_copy(lx, out);
    }
nul:
    start = lex_pos(lx);
    diag_error(lx->diags, &start, "NUL byte in an operation body");
    return -1;
}

/*
 * In a body: copy a C preprocessor line opened at lx->p, up to its end.
 * Braces and quotes on it do not count (a directive may hold anything, even
 * "#error don't"); comments do, since one may run past the line.
 */
static int lex_text_directive(struct lexer *lx, struct buf *out)
{
    int c;

    for (;;) {
        c = lex_at(lx, lx->p);
        if (c == -1 || c == '\n')
            return 0;
        if (c == '\0') {
            struct pos pos = lex_pos(lx);

            diag_error(lx->diags, &pos, "NUL byte in an operation body");
            return -1;
        }
        if (c == '\\' && lex_at(lx, lx->p + 1) == '\n') {
            lex_copy(lx, out);
            lex_copy(lx, out);
        } else if (c == '/' && (lex_at(lx, lx->p + 1) == '*' ||
                                lex_at(lx, lx->p + 1) == '/')) {
            if (lex_text_comment(lx, out) < 0)
                return -1;
        } else {
            lex_copy(lx, out);
        }
    }
}

/* An operation body: C text from the '{' at lx->p to its matching '}'. */
static int lex_text(struct lexer *lx, struct token *tok)
{
    struct buf out, indent;
    struct pos start = lex_pos(lx), pos;
    const unsigned char *q;
    unsigned long depth = 0;
    int c, r;

    buf_init(&out);
    buf_init(&indent);
    /* When the '{' starts its line, the generated file keeps it in its
     * column, so column numbers in the C compiler's messages are right. */
    for (q = lx->line_start; q < lx->p && lex_is_blank(*q); q++)
        ;
    if (q == lx->p)
        buf_add(&indent, lx->line_start, (size_t)(lx->p - lx->line_start));
    for (;;) {
        c = lex_at(lx, lx->p);
        if (c == -1) {
            diag_error(lx->diags, &start, "unterminated operation body: "
                       "no '}' matches this '{'");
            goto fail;
        }
        if (c == '\0') {
            pos = lex_pos(lx);
            diag_error(lx->diags, &pos, "NUL byte in an operation body");
            goto fail;
        }
        if (c == '#' && lx->bol) {
            r = lex_marker(lx, &out);
            if (r < 0 || (r == 0 && lex_text_directive(lx, &out) < 0))
                goto fail;
        } else if (c == '"' || c == '\'') {
            if (lex_text_quoted(lx, &out) < 0)
                goto fail;
        } else if (c == '/' && (lex_at(lx, lx->p + 1) == '*' ||
                                lex_at(lx, lx->p + 1) == '/')) {
            if (lex_text_comment(lx, &out) < 0)
                goto fail;
        } else {
            lex_copy(lx, &out);
            if (c == '{')
                depth++;
            else if (c == '}' && --depth == 0)
                break;
        }
    }
    tok->kind = TOK_TEXT;
    tok->pos = start;
    tok->val = out.data;
    tok->indent = indent.data != NULL ? indent.data : xstrdup("");
    return 0;

fail:
    buf_free(&out);
    buf_free(&indent);
    return -1;
}

/* A token that ends at Q on the current line, with VAL taken from it. */
static void lex_word(struct lexer *lx, struct token *tok, enum tok_kind kind,
                     const unsigned char *q)
{
    tok->kind = kind;
    tok->pos = lex_pos(lx);
    tok->val = xstrndup((const char *)lx->p, (size_t)(q - lx->p));
    lex_adv_to(lx, q);
}

void lex_next(struct lexer *lx, struct token *tok)
{
    const unsigned char *q;
    struct buf val;
    struct pos pos;
    int c;

    if (lex_skip(lx) < 0)
        goto fail;
    tok->pos = lex_pos(lx);
    c = lex_at(lx, lx->p);
    if (c == -1) {
        /* just after the last thing in the file, not lines below it */
        tok->kind = TOK_EOF;
        tok->pos = lx->last;
        return;
    }
    if (lex_is_ident_start(c)) {
        for (q = lx->p; lex_is_ident(lex_at(lx, q)); q++)
            ;
        lex_word(lx, tok, TOK_IDENT, q);
        return;
    }
    if (lex_is_digit(c)) {
        for (q = lx->p; lex_is_ident(lex_at(lx, q)) || lex_at(lx, q) == '.'; q++)
            ;
        lex_word(lx, tok, TOK_NUMBER, q);
        return;
    }
    switch (c) {
    case ';': tok->kind = TOK_SEMI; break;
    case '*': tok->kind = TOK_STAR; break;
    case '(': tok->kind = TOK_LPAREN; break;
    case ')': tok->kind = TOK_RPAREN; break;
    case ',': tok->kind = TOK_COMMA; break;
    case ':': tok->kind = TOK_COLON; break;
    case '"':
        buf_init(&val);
        q = lex_string(lx, lx->p, &val, "string");
        if (q == NULL) {
            buf_free(&val);
            goto fail;
        }
        tok->kind = TOK_STR;
        tok->val = val.data != NULL ? val.data : xstrdup("");
        lex_adv_to(lx, q);
        return;
    case '<':
        for (q = lx->p + 1; (c = lex_at(lx, q)) != '>'; q++) {
            if (c == -1 || c == '\n') {
                diag_error(lx->diags, &tok->pos, "unterminated header name: "
                           "no closing '>' on this line");
                goto fail;
            }
            if (c == '\0') {
                pos = lex_pos_at(lx, q);
                diag_error(lx->diags, &pos, "NUL byte in a header name");
                goto fail;
            }
        }
        tok->kind = TOK_BSTR;
        tok->val = xstrndup((const char *)lx->p + 1, (size_t)(q - lx->p - 1));
        lex_adv_to(lx, q + 1);
        return;
    case '{':
        if (lex_text(lx, tok) < 0)
            goto fail;
        return;
    case '}':
        diag_error(lx->diags, &tok->pos,
                   "unexpected '}': no operation body is open");
        goto fail;
    default:
        if (c >= 0x21 && c < 0x7f)
            diag_error(lx->diags, &tok->pos, "unexpected character '%c'", c);
        else if (c >= 0x80)
            diag_error(lx->diags, &tok->pos, "unexpected byte 0x%02x (non-ASCII "
                       "text may appear only in strings, comments and "
                       "operation bodies)", (unsigned int)c);
        else
            diag_error(lx->diags, &tok->pos,
                       "unexpected control character 0x%02x", (unsigned int)c);
        goto fail;
    }
    lex_adv(lx);
    return;

fail:
    tok->kind = TOK_ERROR;
}

const char *token_describe(const struct token *tok, char *buf, size_t size)
{
    char preview[64];

    switch (tok->kind) {
    case TOK_EOF:
        snprintf(buf, size, "end of file");
        break;
    case TOK_IDENT:
        quote_preview(preview, sizeof preview, tok->val, 40);
        snprintf(buf, size, "'%s'", preview);
        break;
    case TOK_NUMBER:
        quote_preview(preview, sizeof preview, tok->val, 40);
        snprintf(buf, size, "number '%s'", preview);
        break;
    case TOK_STR:
        quote_preview(preview, sizeof preview, tok->val, 30);
        snprintf(buf, size, "string \"%s\"", preview);
        break;
    case TOK_BSTR:
        quote_preview(preview, sizeof preview, tok->val, 30);
        snprintf(buf, size, "header name <%s>", preview);
        break;
    case TOK_TEXT:
        snprintf(buf, size, "'{'");
        break;
    case TOK_SEMI:
        snprintf(buf, size, "';'");
        break;
    case TOK_STAR:
        snprintf(buf, size, "'*'");
        break;
    case TOK_LPAREN:
        snprintf(buf, size, "'('");
        break;
    case TOK_RPAREN:
        snprintf(buf, size, "')'");
        break;
    case TOK_COMMA:
        snprintf(buf, size, "','");
        break;
    case TOK_COLON:
        snprintf(buf, size, "':'");
        break;
    case TOK_ERROR:
    default:
        snprintf(buf, size, "an invalid token");
        break;
    }
    return buf;
}
