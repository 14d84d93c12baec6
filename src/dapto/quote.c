/* SPDX-License-Identifier: MIT */
/*
 * quote.c - escaping user text for C, Tcl, comments and messages.  The rule
 * everywhere: the reader of the generated file must get back the original
 * bytes, whatever they are, and nothing in them may be taken as code.
 */
#include <stdio.h>
#include <string.h>

#include "quote.h"

size_t quote_utf8_len(const unsigned char *s, size_t n)
{
    unsigned long c;
    size_t len, i;

    if (n == 0)
        return 0;
    if (s[0] < 0x80)
        return 1;
    if (s[0] >= 0xc2 && s[0] <= 0xdf) {
        len = 2;
        c = s[0] & 0x1f;
    } else if (s[0] >= 0xe0 && s[0] <= 0xef) {
        len = 3;
        c = s[0] & 0x0f;
    } else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
        len = 4;
        c = s[0] & 0x07;
    } else {
        return 0;
    }
    if (n < len)
        return 0;
    for (i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        c = c << 6 | (s[i] & 0x3f);
    }
    /* overlong forms, surrogates and values past U+10FFFF */
    if ((len == 3 && c < 0x800) || (len == 4 && c < 0x10000) ||
        (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff)
        return 0;
    return len;
}

void quote_c(struct buf *b, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    char esc[8];

    buf_putc(b, '"');
    for (; *p != '\0'; p++) {
        switch (*p) {
        case '\\':
            buf_puts(b, "\\\\");
            break;
        case '"':
            buf_puts(b, "\\\"");
            break;
        case '\n':
            buf_puts(b, "\\n");
            break;
        case '\t':
            buf_puts(b, "\\t");
            break;
        case '?':
            buf_puts(b, p > (const unsigned char *)s && p[-1] == '?' ? "\\?" : "?");
            break;
        default:
            if (*p < 0x20 || *p >= 0x7f) {
                snprintf(esc, sizeof esc, "\\%03o", *p);
                buf_puts(b, esc);
            } else {
                buf_putc(b, *p);
            }
        }
    }
    buf_putc(b, '"');
}

/* Write the byte or UTF-8 sequence at P as Tcl source and return how many
 * bytes it took.  Non-ASCII characters become \uXXXX so the file reads the
 * same in every system encoding. */
static size_t quote_tcl_char(struct buf *b, const unsigned char *p, size_t n)
{
    char esc[24];
    size_t len = quote_utf8_len(p, n);
    unsigned long c;

    switch (*p) {
    case '\n':
        buf_puts(b, "\\n");
        return 1;
    case '\t':
        buf_puts(b, "\\t");
        return 1;
    case '\r':
        buf_puts(b, "\\r");
        return 1;
    default:
        break;
    }
    if (*p >= 0x20 && *p < 0x7f) {
        buf_putc(b, *p);
        return 1;
    }
    if (len <= 1) {
        /* a control byte, or a byte that is not UTF-8: keep its value */
        snprintf(esc, sizeof esc, "\\u%04x", *p);
        buf_puts(b, esc);
        return 1;
    }
    c = p[0] & (len == 2 ? 0x1f : len == 3 ? 0x0f : 0x07);
    for (size_t i = 1; i < len; i++)
        c = c << 6 | (p[i] & 0x3f);
    if (c > 0xffff)
        snprintf(esc, sizeof esc, "\\U%08lx", c);
    else
        snprintf(esc, sizeof esc, "\\u%04lx", c);
    buf_puts(b, esc);
    return len;
}

void quote_tcl_word(struct buf *b, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    const unsigned char *end = p + strlen(s);

    buf_putc(b, '"');
    while (*p != '\0') {
        if (strchr("\\\"$[]", *p) != NULL) {
            buf_putc(b, '\\');
            buf_putc(b, *p++);
        } else {
            p += quote_tcl_char(b, p, (size_t)(end - p));
        }
    }
    buf_putc(b, '"');
}

void quote_tcl_elem(struct buf *b, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    const unsigned char *end = p + strlen(s);

    /* Inside braces nothing is substituted, and the list parser reads
     * backslash sequences; escaped braces do not count when Tcl looks for
     * the closing brace. */
    buf_putc(b, '"');
    while (*p != '\0') {
        if (strchr("\\\"{}", *p) != NULL) {
            buf_putc(b, '\\');
            buf_putc(b, *p++);
        } else {
            p += quote_tcl_char(b, p, (size_t)(end - p));
        }
    }
    buf_putc(b, '"');
}

void quote_comment(struct buf *b, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s), len;

    while (*p != '\0') {
        if (*p < 0x20 || *p == 0x7f) {
            buf_putc(b, ' ');
            p++;
        } else if (*p == '*' && p[1] == '/') {
            buf_puts(b, "* ");
            p++;
        } else if (*p == '/' && p[1] == '*') {
            buf_puts(b, "/ ");
            p++;
        } else if (*p == '?' && p[1] == '?') {
            buf_puts(b, "? ");
            p++;
        } else if (*p >= 0x80) {
            len = quote_utf8_len(p, n - (size_t)(p - (const unsigned char *)s));
            if (len == 0) {
                buf_putc(b, '?');
                p++;
            } else {
                buf_add(b, p, len);
                p += len;
            }
        } else {
            buf_putc(b, *p++);
        }
    }
}

void quote_preview(char *out, size_t size, const char *s, size_t max)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t n = 0, i;
    char esc[8];

    if (size == 0)
        return;
    for (i = 0; p[i] != '\0' && i < max; i++) {
        if (p[i] == '"' || p[i] == '\\') {
            snprintf(esc, sizeof esc, "\\%c", p[i]);
        } else if (p[i] == '\n') {
            snprintf(esc, sizeof esc, "\\n");
        } else if (p[i] == '\t') {
            snprintf(esc, sizeof esc, "\\t");
        } else if (p[i] < 0x20 || p[i] == 0x7f) {
            snprintf(esc, sizeof esc, "\\x%02x", p[i]);
        } else {
            esc[0] = (char)p[i];
            esc[1] = '\0';
        }
        if (n + strlen(esc) + 4 >= size)
            break;
        memcpy(out + n, esc, strlen(esc));
        n += strlen(esc);
    }
    if (p[i] != '\0' && n + 4 <= size) {
        memcpy(out + n, "...", 3);
        n += 3;
    }
    out[n] = '\0';
}
