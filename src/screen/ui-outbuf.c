/* SPDX-License-Identifier: MIT */
/*
 * ui-outbuf.c - the program's terminal output as lines.  See ui-outbuf.h.
 *
 * Lines are kept in a ring of MAX slots; the cursor is a byte offset in
 * the last line, always at a character boundary, so that overwriting
 * replaces whole characters.  A small state machine skips escape
 * sequences and collects UTF-8 sequences split between reads.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ui-outbuf.h"
#include "ui-text.h"
#include "ui-tview.h"
#include "xmalloc.h"

struct ob_line {
    char *s;
    size_t len;
    size_t cap;
};

enum ob_state {
    OB_TEXT,
    OB_ESC,     /* after ESC */
    OB_CSI,     /* ESC [ ... up to the final byte */
    OB_STRING,  /* ESC ] (or P, ^, _) ... up to BEL or ESC \ */
    OB_STRING_ESC
};

struct ui_outbuf {
    struct ob_line *lines; /* ring of cap slots */
    size_t cap;
    size_t head;           /* slot of the first line */
    size_t n;              /* lines held, the one being written included */
    uint64_t first;        /* absolute number of the first line */
    size_t cx;             /* cursor: byte offset in the last line */
    uint64_t bytes;

    enum ob_state state;
    unsigned int param;    /* first numeric parameter of a CSI */
    int have_param;
    int past_first;        /* a ';' was seen */
    char utf8[4];          /* a character being collected */
    size_t utf8_have;
    size_t utf8_need;
};

struct ui_outbuf *ui_outbuf_create(size_t max_lines)
{
    struct ui_outbuf *o = xcalloc(1, sizeof *o);

    o->cap = max_lines < 2 ? 2 : max_lines;
    o->lines = xcalloc(o->cap, sizeof *o->lines);
    o->n = 1; /* the line being written */
    return o;
}

void ui_outbuf_free(struct ui_outbuf *o)
{
    size_t i;

    if (o == NULL)
        return;
    for (i = 0; i < o->cap; i++)
        free(o->lines[i].s);
    free(o->lines);
    free(o);
}

static struct ob_line *slot(const struct ui_outbuf *o, size_t i)
{
    return &o->lines[(o->head + i) % o->cap];
}

static struct ob_line *cur(const struct ui_outbuf *o)
{
    return slot(o, o->n - 1);
}

static void reserve(struct ob_line *l, size_t need)
{
    if (need <= l->cap)
        return;
    l->cap = need < 64 ? 64 : need * 2;
    l->s = xrealloc(l->s, l->cap);
}

static void newline(struct ui_outbuf *o)
{
    struct ob_line *l;

    if (o->n == o->cap) {
        /* drop the oldest line; its slot becomes the new last one */
        l = slot(o, 0);
        l->len = 0;
        o->head = (o->head + 1) % o->cap;
        o->first++;
    } else {
        o->n++;
        cur(o)->len = 0;
    }
    o->cx = 0;
}

/* Write the character C (K bytes) at the cursor. */
static void put(struct ui_outbuf *o, const char *c, size_t k)
{
    struct ob_line *l = cur(o);
    size_t m = 0;
    uint32_t wc;

    if (o->cx >= UI_OUTBUF_MAX_LINE) {
        newline(o);
        l = cur(o);
    }
    if (o->cx < l->len)
        m = ui_text_decode(l->s + o->cx, l->len - o->cx, &wc);
    reserve(l, l->len - m + k);
    if (m != k)
        memmove(l->s + o->cx + k, l->s + o->cx + m, l->len - o->cx - m);
    memcpy(l->s + o->cx, c, k);
    l->len = l->len - m + k;
    o->cx += k;
}

static void backspace(struct ui_outbuf *o)
{
    struct ob_line *l = cur(o);

    while (o->cx > 0) {
        o->cx--;
        if (((unsigned char)l->s[o->cx] & 0xc0) != 0x80)
            break;
    }
}

/* Characters before the cursor (for tab stops). */
static size_t column(const struct ui_outbuf *o)
{
    const struct ob_line *l = cur(o);

    return (size_t)ui_text_columns(l->s, o->cx);
}

/* Move the cursor one character right, adding a space at the end. */
static void forward(struct ui_outbuf *o)
{
    struct ob_line *l = cur(o);
    uint32_t wc;

    if (o->cx < l->len)
        o->cx += ui_text_decode(l->s + o->cx, l->len - o->cx, &wc);
    else
        put(o, " ", 1);
}

/* The final byte F of a CSI sequence with its first parameter. */
static void csi(struct ui_outbuf *o, char f)
{
    struct ob_line *l = cur(o);
    unsigned int n = o->have_param && o->param > 0 ? o->param : 1;
    size_t i;

    switch (f) {
    case 'K': /* erase in line */
        if (!o->have_param || o->param == 0) {
            l->len = o->cx;
        } else {
            for (i = 0; i < o->cx && i < l->len; i++)
                l->s[i] = ' ';
            if (o->param == 2)
                l->len = o->cx < l->len ? o->cx : l->len;
        }
        break;
    case 'D': /* cursor back */
        while (n-- > 0 && o->cx > 0)
            backspace(o);
        break;
    case 'C': /* cursor forward */
        while (n-- > 0)
            forward(o);
        break;
    case 'G': /* cursor to column */
        o->cx = 0;
        for (n--; n > 0; n--)
            forward(o);
        break;
    default:
        break; /* colours, modes, movements between lines: dropped */
    }
}

/* Length of the UTF-8 sequence a lead byte B starts, or 0. */
static size_t utf8_len(unsigned char b)
{
    if (b >= 0xc2 && b <= 0xdf)
        return 2;
    if (b >= 0xe0 && b <= 0xef)
        return 3;
    if (b >= 0xf0 && b <= 0xf4)
        return 4;
    return 0;
}

static void text_byte(struct ui_outbuf *o, unsigned char b)
{
    size_t i, n;

    if (o->utf8_need > 0) {
        if ((b & 0xc0) == 0x80) {
            o->utf8[o->utf8_have++] = (char)b;
            if (o->utf8_have == o->utf8_need) {
                uint32_t wc;

                if (ui_text_decode(o->utf8, o->utf8_have, &wc) ==
                    o->utf8_have)
                    put(o, o->utf8, o->utf8_have);
                else
                    put(o, "?", 1);
                o->utf8_need = 0;
            }
            return;
        }
        put(o, "?", 1); /* a truncated sequence */
        o->utf8_need = 0;
    }
    switch (b) {
    case '\n':
        newline(o);
        return;
    case '\r':
        o->cx = 0;
        return;
    case '\b':
        backspace(o);
        return;
    case '\t':
        /* moves the cursor, as on a terminal: spaces only past the end */
        n = UI_TEXT_TAB - column(o) % UI_TEXT_TAB;
        for (i = 0; i < n; i++)
            forward(o);
        return;
    case 0x1b:
        o->state = OB_ESC;
        return;
    default:
        break;
    }
    if (b < 0x20 || b == 0x7f)
        return; /* other control characters: bell, shifts, ... */
    if (b < 0x80) {
        char c = (char)b;

        put(o, &c, 1);
        return;
    }
    n = utf8_len(b);
    if (n == 0) {
        put(o, "?", 1);
        return;
    }
    o->utf8[0] = (char)b;
    o->utf8_have = 1;
    o->utf8_need = n;
}

void ui_outbuf_feed(struct ui_outbuf *o, const char *data, size_t len)
{
    size_t i;

    o->bytes += len;
    for (i = 0; i < len; i++) {
        unsigned char b = (unsigned char)data[i];

        switch (o->state) {
        case OB_TEXT:
            text_byte(o, b);
            break;
        case OB_ESC:
            if (b == '[') {
                o->state = OB_CSI;
                o->param = 0;
                o->have_param = 0;
                o->past_first = 0;
            } else if (b == ']' || b == 'P' || b == '^' || b == '_') {
                o->state = OB_STRING;
            } else {
                o->state = OB_TEXT; /* a two-byte sequence */
            }
            break;
        case OB_CSI:
            if (b >= '0' && b <= '9') {
                /* the first parameter only; later ones are ignored */
                if (!o->past_first && o->param < 100000) {
                    o->param = o->param * 10 + (b - '0');
                    o->have_param = 1;
                }
            } else if (b == ';') {
                o->past_first = 1;
            } else if (b >= 0x40 && b <= 0x7e) {
                o->state = OB_TEXT;
                csi(o, (char)b);
            } else if (b < 0x20 || b > 0x7e) {
                o->state = OB_TEXT; /* broken sequence */
                text_byte(o, b);
            }
            break;
        case OB_STRING:
            if (b == 0x07)
                o->state = OB_TEXT;
            else if (b == 0x1b)
                o->state = OB_STRING_ESC;
            break;
        case OB_STRING_ESC:
            o->state = b == '\\' ? OB_TEXT : OB_STRING;
            break;
        }
    }
}

uint64_t ui_outbuf_first(const struct ui_outbuf *o)
{
    return o->first;
}

uint64_t ui_outbuf_end(const struct ui_outbuf *o)
{
    return o->first + o->n;
}

const char *ui_outbuf_line(const struct ui_outbuf *o, uint64_t n, size_t *len)
{
    const struct ob_line *l;

    if (n < o->first || n >= o->first + o->n)
        return NULL;
    l = slot(o, (size_t)(n - o->first));
    *len = l->len;
    return l->s != NULL ? l->s : "";
}

void ui_outbuf_cursor(const struct ui_outbuf *o, uint64_t *line, size_t *off)
{
    *line = o->first + o->n - 1;
    *off = o->cx;
}

uint64_t ui_outbuf_bytes(const struct ui_outbuf *o)
{
    return o->bytes;
}

static uint64_t src_first(const void *arg)
{
    return ui_outbuf_first(arg);
}

static uint64_t src_end(const void *arg)
{
    return ui_outbuf_end(arg);
}

static const char *src_line(const void *arg, uint64_t n, size_t *len)
{
    return ui_outbuf_line(arg, n, len);
}

void ui_outbuf_src(const struct ui_outbuf *o, struct ui_tview_src *src)
{
    src->first = src_first;
    src->end = src_end;
    src->line = src_line;
    src->arg = o;
}
