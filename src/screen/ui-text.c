/* SPDX-License-Identifier: MIT */
/*
 * ui-text.c - UTF-8 characters, their widths and row breaking.  See
 * ui-text.h.  Printable ASCII takes a fast path: transcripts are mostly
 * ASCII and a million-line transcript is measured a screenful at a time.
 */
#include "config.h"

#include <wchar.h>

#include "ui-text.h"

size_t ui_text_decode(const char *s, size_t n, uint32_t *wc)
{
    const unsigned char *u = (const unsigned char *)s;
    uint32_t c;
    size_t len, i;

    if (u[0] < 0x80) {
        *wc = u[0];
        return 1;
    }
    if (u[0] >= 0xc2 && u[0] <= 0xdf) {
        len = 2;
        c = u[0] & 0x1f;
    } else if (u[0] >= 0xe0 && u[0] <= 0xef) {
        len = 3;
        c = u[0] & 0x0f;
    } else if (u[0] >= 0xf0 && u[0] <= 0xf4) {
        len = 4;
        c = u[0] & 0x07;
    } else {
        goto invalid;
    }
    if (len > n)
        goto invalid;
    for (i = 1; i < len; i++) {
        if ((u[i] & 0xc0) != 0x80)
            goto invalid;
        c = (c << 6) | (u[i] & 0x3f);
    }
    /* overlong forms, surrogates and values past U+10FFFF */
    if ((len == 3 && c < 0x800) || (len == 4 && c < 0x10000) ||
        (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff)
        goto invalid;
    *wc = c;
    return len;
invalid:
    *wc = 0xfffd;
    return 1;
}

int ui_text_printable(uint32_t wc)
{
    if (wc < 0x80)
        return wc >= 0x20 && wc != 0x7f;
    if (wc == 0xfffd)
        return 0;
    return wcwidth((wchar_t)wc) >= 0;
}

int ui_text_width(uint32_t wc, int col)
{
    int w;

    if (wc == '\t')
        return UI_TEXT_TAB - col % UI_TEXT_TAB;
    if (wc >= 0x20 && wc < 0x7f)
        return 1;
    if (!ui_text_printable(wc))
        return 1;
    w = wcwidth((wchar_t)wc);
    return w < 0 ? 1 : w;
}

int ui_text_cell_width(uint32_t wc, int col, int cols)
{
    int w = ui_text_width(wc, col);

    if (wc == '\t' && col + w > cols)
        w = cols > col ? cols - col : 0; /* a tab ends its row */
    return w;
}

int ui_text_columns(const char *s, size_t n)
{
    size_t i = 0;
    int col = 0;

    while (i < n) {
        uint32_t wc;

        if ((unsigned char)s[i] >= 0x20 && (unsigned char)s[i] < 0x7f) {
            col++;
            i++;
            continue;
        }
        i += ui_text_decode(s + i, n - i, &wc);
        col += ui_text_width(wc, col);
    }
    return col;
}

size_t ui_text_row_end(const char *s, size_t n, size_t off, int cols)
{
    size_t i = off;
    int col = 0;

    if (cols < 1)
        cols = 1;
    while (i < n) {
        uint32_t wc;
        size_t len;
        int w;

        if ((unsigned char)s[i] >= 0x20 && (unsigned char)s[i] < 0x7f) {
            if (col + 1 > cols)
                break;
            col++;
            i++;
            continue;
        }
        len = ui_text_decode(s + i, n - i, &wc);
        w = ui_text_cell_width(wc, col, cols);
        if (col + w > cols && i > off)
            break;
        col += w;
        i += len;
    }
    return i;
}

unsigned int ui_text_rows(const char *s, size_t n, int cols)
{
    size_t off = 0;
    unsigned int rows = 0;

    if (n <= (size_t)(cols > 0 ? cols : 1)) {
        /* short lines are the rule: one row unless wide characters or
         * tabs make them longer */
        if (ui_text_row_end(s, n, 0, cols) == n)
            return 1;
    }
    do {
        off = ui_text_row_end(s, n, off, cols);
        rows++;
    } while (off < n);
    return rows;
}

unsigned int ui_text_row_of(const char *s, size_t n, size_t off, int cols)
{
    size_t at = 0;
    unsigned int row = 0;

    for (;;) {
        size_t end = ui_text_row_end(s, n, at, cols);

        if (off < end || end >= n)
            return row;
        at = end;
        row++;
    }
}

size_t ui_text_row_start(const char *s, size_t n, unsigned int row, int cols)
{
    size_t at = 0;

    while (row > 0 && at < n) {
        at = ui_text_row_end(s, n, at, cols);
        row--;
    }
    return row > 0 ? n : at;
}

size_t ui_text_offset_at(const char *s, size_t start, size_t end, int col)
{
    size_t i = start;
    int c = 0;

    while (i < end) {
        uint32_t wc;
        size_t len = ui_text_decode(s + i, end - i, &wc);
        int w = ui_text_width(wc, c);

        if (col < c + w)
            return i;
        c += w;
        i += len;
    }
    return end;
}
