/* SPDX-License-Identifier: MIT */
/*
 * model-test.c - unit tests of the screen's model without a terminal:
 * text measurement, the transcript view (wrapping, scrolling, follow
 * mode, value regions and selection, search), the program's output,
 * lists, the pane layout at several sizes, key names and the inline
 * editor.
 */
#include "config.h"

#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transcript.h"
#include "ui-edit.h"
#include "ui-keys.h"
#include "ui-layout.h"
#include "ui-list.h"
#include "ui-term.h"
#include "ui-text.h"
#include "ui-tview.h"
#include "unit.h"

static int browsable(const char *type, void *arg)
{
    (void)arg;
    return strcmp(type, "Env") == 0 || strcmp(type, "Node") == 0;
}

static void say(struct transcript *t, const char *s)
{
    transcript_append(t, s, strlen(s));
}

static void sayf(struct transcript *t, const char *fmt, int n)
{
    char buf[256];

    snprintf(buf, sizeof buf, fmt, n);
    say(t, buf);
}

/* The text of row I on screen, in BUF. */
static const char *row_text(const struct ui_tview *v, size_t i, char *buf)
{
    struct ui_tview_row r[64];
    size_t n = ui_tview_rows(v, r, 64);

    if (i >= n)
        return "(none)";
    memcpy(buf, r[i].text + r[i].start, r[i].end - r[i].start);
    buf[r[i].end - r[i].start] = '\0';
    return buf;
}

static void test_text(void)
{
    uint32_t wc;
    const char *s = "ab\xc3\xa9\xe4\xb8\xad"; /* a b e-acute CJK */

    CHECK_EQ_INT(ui_text_decode("\xc3\xa9", 2, &wc), 2);
    CHECK_EQ_INT(wc, 0xe9);
    CHECK_EQ_INT(ui_text_decode("\xc3", 1, &wc), 1);
    CHECK_EQ_INT(wc, 0xfffd);
    CHECK_EQ_INT(ui_text_decode("\xc0\x80", 2, &wc), 1); /* overlong */
    CHECK_EQ_INT(ui_text_decode("\xed\xa0\x80", 3, &wc), 1); /* surrogate */
    CHECK_EQ_INT(ui_text_columns(s, strlen(s)), 5); /* CJK takes 2 */
    CHECK_EQ_INT(ui_text_columns("\tx", 2), 9);
    CHECK_EQ_INT(ui_text_columns("ab\tx", 4), 9);
    CHECK_EQ_INT(ui_text_columns("\x01", 1), 1); /* drawn as '?' */
    CHECK(!ui_text_printable(1));
    CHECK(ui_text_printable(0xe9));

    /* rows: 10 columns */
    CHECK_EQ_INT(ui_text_rows("", 0, 10), 1);
    CHECK_EQ_INT(ui_text_rows("0123456789", 10, 10), 1);
    CHECK_EQ_INT(ui_text_rows("0123456789a", 11, 10), 2);
    CHECK_EQ_INT(ui_text_rows("0123456789012345678901", 22, 10), 3);
    CHECK_EQ_INT(ui_text_row_end("0123456789a", 11, 0, 10), 10);
    CHECK_EQ_INT(ui_text_row_end("0123456789a", 11, 10, 10), 11);
    /* a wide character never straddles rows */
    CHECK_EQ_INT(ui_text_row_end("012345678\xe4\xb8\xad", 12, 0, 10), 9);
    CHECK_EQ_INT(ui_text_rows("012345678\xe4\xb8\xad", 12, 10), 2);
    /* a tab ends its row */
    CHECK_EQ_INT(ui_text_rows("012345678\tx", 11, 10), 2);
    CHECK_EQ_INT(ui_text_row_of("0123456789abc", 13, 3, 10), 0);
    CHECK_EQ_INT(ui_text_row_of("0123456789abc", 13, 11, 10), 1);
    CHECK_EQ_INT(ui_text_row_of("0123456789abc", 13, 13, 10), 1);
    CHECK_EQ_INT(ui_text_row_start("0123456789abc", 13, 1, 10), 10);
    CHECK_EQ_INT(ui_text_row_start("0123456789abc", 13, 2, 10), 13);
    CHECK_EQ_INT(ui_text_offset_at("ab\xe4\xb8\xad" "cd", 0, 7, 3), 2);
    CHECK_EQ_INT(ui_text_offset_at("ab\xe4\xb8\xad" "cd", 0, 7, 4), 5);
    CHECK_EQ_INT(ui_text_offset_at("ab", 0, 2, 9), 2);
    /* a zero-width column count of 1 still advances */
    CHECK_EQ_INT(ui_text_row_end("\xe4\xb8\xad", 3, 0, 1), 3);
}

static struct transcript *numbered(int n)
{
    struct transcript *t = transcript_create(100000);
    int i;

    transcript_set_browsable(t, browsable, NULL);
    for (i = 0; i < n; i++)
        sayf(t, "line %d\n", i);
    return t;
}

static void test_scroll(void)
{
    struct transcript *t = numbered(100);
    struct ui_tview_src src;
    struct ui_tview v;
    char buf[256];

    ui_tview_src_transcript(&src, t);
    ui_tview_init(&v, &src, t);
    ui_tview_resize(&v, 10, 40);
    /* follow mode shows the end */
    CHECK(v.follow);
    CHECK_EQ_INT(v.top.line, 90);
    CHECK(strcmp(row_text(&v, 9, buf), "line 99") == 0);
    CHECK(ui_tview_at_end(&v));
    say(t, "line 100\n");
    ui_tview_update(&v);
    CHECK_EQ_INT(v.top.line, 91);

    /* scrolling back stops following; new lines do not move the view */
    ui_tview_scroll(&v, -5);
    CHECK(!v.follow);
    CHECK_EQ_INT(v.top.line, 86);
    say(t, "line 101\nline 102\n");
    ui_tview_update(&v);
    CHECK_EQ_INT(v.top.line, 86);
    CHECK(!ui_tview_at_end(&v));
    /* scrolling down to the end follows again */
    ui_tview_scroll(&v, 1000);
    CHECK(v.follow);
    CHECK_EQ_INT(v.top.line, 93);
    CHECK(strcmp(row_text(&v, 9, buf), "line 102") == 0);

    /* pages are a screen less one row */
    ui_tview_page(&v, -1);
    CHECK_EQ_INT(v.top.line, 84);
    ui_tview_page(&v, -100);
    CHECK_EQ_INT(v.top.line, 0);
    CHECK(!v.follow);
    ui_tview_page(&v, 1);
    CHECK_EQ_INT(v.top.line, 9);
    ui_tview_end(&v);
    CHECK(v.follow);
    CHECK_EQ_INT(v.top.line, 93);
    ui_tview_home(&v);
    CHECK_EQ_INT(v.top.line, 0);
    CHECK(!v.follow);

    /* a taller pane than the transcript: everything shows, following */
    ui_tview_resize(&v, 200, 40);
    CHECK(v.follow);
    CHECK_EQ_INT(v.top.line, 0);
    ui_tview_free(&v);
    transcript_free(t);

    /* an empty transcript */
    t = transcript_create(10);
    ui_tview_src_transcript(&src, t);
    ui_tview_init(&v, &src, t);
    ui_tview_resize(&v, 5, 20);
    CHECK_EQ_INT(ui_tview_rows(&v, NULL, 0), 0);
    ui_tview_scroll(&v, -3);
    ui_tview_scroll(&v, 3);
    CHECK(v.follow);
    CHECK_EQ_INT(ui_tview_select(&v, 1), 0);
    ui_tview_free(&v);
    transcript_free(t);
}

static void test_wrap(void)
{
    struct transcript *t = transcript_create(1000);
    struct ui_tview_src src;
    struct ui_tview v;
    struct ui_tview_row r[16];
    char buf[256];
    size_t n;

    say(t, "short\n");
    say(t, "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ\n"); /* 36: 4 rows of 10 */
    say(t, "end");
    ui_tview_src_transcript(&src, t);
    ui_tview_init(&v, &src, t);
    ui_tview_resize(&v, 3, 10);
    n = ui_tview_rows(&v, r, 16);
    CHECK_EQ_INT(n, 3);
    /* the last 3 rows: GHIJKLMNOP's tail rows and "end" */
    CHECK(strcmp(row_text(&v, 0, buf), "KLMNOPQRST") == 0);
    CHECK(strcmp(row_text(&v, 1, buf), "UVWXYZ") == 0);
    CHECK(strcmp(row_text(&v, 2, buf), "end") == 0);
    CHECK_EQ_INT(v.top.line, 1);
    CHECK_EQ_INT(v.top.row, 2);
    ui_tview_scroll(&v, -2);
    CHECK_EQ_INT(v.top.row, 0);
    CHECK(strcmp(row_text(&v, 0, buf), "0123456789") == 0);
    ui_tview_scroll(&v, -1);
    CHECK(strcmp(row_text(&v, 0, buf), "short") == 0);
    CHECK(!v.follow);
    /* a narrower pane keeps the top line, clamping its row */
    ui_tview_scroll(&v, 4); /* stops where the last row is at the bottom */
    CHECK_EQ_INT(v.top.line, 1);
    CHECK_EQ_INT(v.top.row, 2);
    CHECK(v.follow);
    ui_tview_scroll(&v, -1);
    ui_tview_resize(&v, 3, 20);
    CHECK_EQ_INT(v.top.line, 1);
    CHECK(v.top.row <= 1);
    /* the partial last line grows on the same row */
    ui_tview_end(&v);
    say(t, "ing");
    ui_tview_update(&v);
    n = ui_tview_rows(&v, r, 16);
    CHECK(strcmp(row_text(&v, n - 1, buf), "ending") == 0);
    ui_tview_free(&v);
    transcript_free(t);
}

static void test_trim(void)
{
    struct transcript *t = transcript_create(50);
    struct ui_tview_src src;
    struct ui_tview v;
    int i;

    transcript_set_browsable(t, browsable, NULL);
    for (i = 0; i < 40; i++)
        sayf(t, "line %d\n", i);
    ui_tview_src_transcript(&src, t);
    ui_tview_init(&v, &src, t);
    ui_tview_resize(&v, 10, 40);
    ui_tview_home(&v);
    CHECK_EQ_INT(v.top.line, 0);
    for (i = 40; i < 100; i++)
        sayf(t, "line %d\n", i);
    /* the top was dropped: the view moves to the oldest line kept */
    ui_tview_update(&v);
    CHECK_EQ_INT(transcript_first(t), 50);
    CHECK_EQ_INT(v.top.line, 50);
    CHECK(!v.follow);
    ui_tview_free(&v);
    transcript_free(t);
}

static void test_values(void)
{
    struct transcript *t = transcript_create(1000);
    struct ui_tview_src src;
    struct ui_tview v;
    const struct tr_value *sel;
    int i;

    transcript_set_browsable(t, browsable, NULL);
    for (i = 0; i < 30; i++)
        sayf(t, "filler %d\n", i);
    say(t, "bind x = Env:0x10 in Node:0x20\n"); /* line 30 */
    say(t, "plain\n");
    say(t, "then Node:0x30\n");                 /* line 32 */
    for (i = 0; i < 30; i++)
        sayf(t, "more %d\n", i);
    say(t, "last Env:0x40 here\n");              /* line 63 */
    ui_tview_src_transcript(&src, t);
    ui_tview_init(&v, &src, t);
    ui_tview_resize(&v, 5, 40);

    /* the hit test: cell to value */
    CHECK_EQ_INT(v.top.line, 59);
    CHECK_EQ_INT(ui_tview_value_at(&v, 4, 5), 4);   /* 'E' of Env:0x40 */
    CHECK_EQ_INT(ui_tview_value_at(&v, 4, 12), 4);  /* its last char */
    CHECK_EQ_INT(ui_tview_value_at(&v, 4, 13), 0);  /* the space after */
    CHECK_EQ_INT(ui_tview_value_at(&v, 4, 4), 0);
    CHECK_EQ_INT(ui_tview_value_at(&v, 0, 0), 0);
    CHECK_EQ_INT(ui_tview_value_at(&v, 9, 0), 0);   /* off the pane */

    /* Tab: the first value on screen; no more after it */
    CHECK_EQ_INT(ui_tview_select(&v, 1), 4);
    CHECK_EQ_INT(ui_tview_select(&v, 1), 0);
    CHECK_EQ_INT(v.selected, 4);
    /* Shift-Tab goes back, scrolling to the value */
    CHECK_EQ_INT(ui_tview_select(&v, -1), 3);
    CHECK(!v.follow);
    CHECK(v.top.line <= 32 && v.top.line + 5 > 32);
    sel = ui_tview_selection(&v);
    CHECK(sel != NULL && strcmp(sel->type, "Node") == 0 &&
          strcmp(sel->value, "0x30") == 0);
    CHECK_EQ_INT(ui_tview_select(&v, -1), 2);
    CHECK_EQ_INT(ui_tview_select(&v, -1), 1);
    CHECK_EQ_INT(ui_tview_select(&v, -1), 0);
    CHECK_EQ_INT(v.selected, 1);

    /* with the selection off screen, Tab starts from the screen */
    ui_tview_home(&v);
    CHECK_EQ_INT(ui_tview_select(&v, 1), 1); /* nearest below */
    ui_tview_end(&v);
    CHECK_EQ_INT(ui_tview_select(&v, -1), 4); /* last on screen */
    ui_tview_home(&v);
    CHECK_EQ_INT(ui_tview_select(&v, -1), 0); /* none above the top */
    CHECK(ui_tview_select_id(&v, 2));
    CHECK(!ui_tview_select_id(&v, 99));
    CHECK_EQ_INT(v.selected, 2);
    ui_tview_unselect(&v);
    CHECK(ui_tview_selection(&v) == NULL);
    ui_tview_free(&v);
    transcript_free(t);

    /* a value on a wrapped row */
    t = transcript_create(100);
    transcript_set_browsable(t, browsable, NULL);
    say(t, "0123456789 Env:0x5\n");
    ui_tview_src_transcript(&src, t);
    ui_tview_init(&v, &src, t);
    ui_tview_resize(&v, 4, 10);
    CHECK_EQ_INT(v.top.row, 0);
    CHECK_EQ_INT(ui_tview_value_at(&v, 1, 1), 1);
    CHECK_EQ_INT(ui_tview_value_at(&v, 1, 0), 0);
    ui_tview_free(&v);
    transcript_free(t);
}

static void test_search(void)
{
    struct transcript *t = numbered(100);
    struct ui_tview_src src;
    struct ui_tview v;
    char *cause = NULL;

    say(t, "Found it\n"); /* line 100 */
    ui_tview_src_transcript(&src, t);
    ui_tview_init(&v, &src, t);
    ui_tview_resize(&v, 10, 40);

    /* forward from the top of the screen, wrapping round the end */
    CHECK_EQ_INT(ui_tview_search(&v, "line 5", 0, &cause), 1);
    CHECK_EQ_INT(v.match_line, 5);
    CHECK(v.wrapped);
    CHECK(!v.follow);
    CHECK(v.top.line <= 5 && v.top.line + 10 > 5);
    CHECK_EQ_INT(ui_tview_search_next(&v, 0, &cause), 1);
    CHECK_EQ_INT(v.match_line, 50);
    CHECK(!v.wrapped);
    CHECK_EQ_INT(ui_tview_search_next(&v, 1, &cause), 1); /* N: back */
    CHECK_EQ_INT(v.match_line, 5);
    CHECK_EQ_INT(v.match_col, 0);
    CHECK_EQ_INT(v.match_len, 6);
    /* backward from the bottom */
    ui_tview_end(&v);
    CHECK_EQ_INT(ui_tview_search(&v, "line 9", TR_BACKWARD, &cause), 1);
    CHECK_EQ_INT(v.match_line, 99);
    CHECK(!v.wrapped);
    CHECK_EQ_INT(ui_tview_search_next(&v, 0, &cause), 1);
    CHECK_EQ_INT(v.match_line, 98);
    /* smart case */
    CHECK_EQ_INT(ui_tview_smartcase("found"), TR_NOCASE);
    CHECK_EQ_INT(ui_tview_smartcase("Found"), 0);
    CHECK_EQ_INT(ui_tview_search(&v, "found", ui_tview_smartcase("found"),
                                 &cause), 1);
    CHECK_EQ_INT(v.match_line, 100);
    CHECK_EQ_INT(ui_tview_search(&v, "FOUND", 0, &cause), 0);
    /* a regex, and a bad one */
    CHECK_EQ_INT(ui_tview_search(&v, "^line 4[0-9]$", TR_REGEX, &cause), 1);
    CHECK_EQ_INT(v.match_line, 40);
    CHECK_EQ_INT(ui_tview_search(&v, "(", TR_REGEX, &cause), -1);
    CHECK(cause != NULL && strstr(cause, "regular expression") != NULL);
    free(cause);
    cause = NULL;
    ui_tview_free(&v);
    transcript_free(t);

    /* nothing to search yet */
    t = transcript_create(10);
    ui_tview_src_transcript(&src, t);
    ui_tview_init(&v, &src, t);
    ui_tview_resize(&v, 10, 40);
    CHECK_EQ_INT(ui_tview_search_next(&v, 0, &cause), -1);
    free(cause);
    cause = NULL;
    CHECK_EQ_INT(ui_tview_search(&v, "x", 0, &cause), 0);
    ui_tview_free(&v);
    transcript_free(t);
}

static void test_show_output(void)
{
    struct transcript *t = numbered(100);
    struct ui_tview_src src;
    struct ui_tview v;
    uint64_t from;
    int i;

    ui_tview_src_transcript(&src, t);
    ui_tview_init(&v, &src, t);
    ui_tview_resize(&v, 10, 40);
    ui_tview_home(&v);
    /* a short output fits: the end shows, following */
    from = transcript_end(t);
    say(t, "(noosa) help\nshort\n");
    ui_tview_show_output(&v, from);
    CHECK(v.follow);
    CHECK(ui_tview_at_end(&v));
    /* a long output shows its start */
    from = transcript_end(t);
    for (i = 0; i < 30; i++)
        sayf(t, "out %d\n", i);
    ui_tview_show_output(&v, from);
    CHECK(!v.follow);
    CHECK_EQ_INT(v.top.line, from);
    ui_tview_free(&v);
    transcript_free(t);
}

static void test_term(void)
{
    struct ui_term *t = ui_term_create(3, 10, 4);
    struct ui_term_cell cells[10];
    char text[128], out[64];
    int row, col, vis;
    size_t n;

#define FEED(str) ui_term_feed(t, str, sizeof(str) - 1)
#define ROW_IS(r, want)                                                     \
    do {                                                                    \
        ui_term_row_text(t, r, text, sizeof text);                          \
        if (strcmp(text, want) != 0)                                        \
            fprintf(stderr, "row %d: \"%s\", not \"%s\"\n", r, text, want); \
        CHECK(strcmp(text, want) == 0);                                     \
    } while (0)

    /* text, a carriage return overwriting (a progress line), erase */
    FEED("hello\r\nworld");
    ROW_IS(0, "hello");
    ROW_IS(1, "world");
    ui_term_cursor(t, &row, &col, &vis);
    CHECK_EQ_INT(row, 1);
    CHECK_EQ_INT(col, 5);
    CHECK_EQ_INT(vis, 1);
    FEED("\r10%\r20%");
    ROW_IS(1, "20%ld");
    FEED("\r\033[K50%");
    ROW_IS(1, "50%");
    /* colours and attributes: red bold, then a 256-colour background,
     * then a direct colour brought to the palette */
    FEED("\r\n\033[1;31mR\033[0m\033[48;5;200mB\033[0m\033[38;2;0;0;255mD"
         "\033[0mn");
    CHECK_EQ_INT(ui_term_row(t, 2, cells, 10), 0);
    CHECK_EQ_INT(cells[0].chars[0], 'R');
    CHECK_EQ_INT(cells[0].fg, 1);
    CHECK_EQ_INT(cells[0].attrs & UI_TERM_BOLD, UI_TERM_BOLD);
    CHECK_EQ_INT(cells[1].bg, 200);
    CHECK_EQ_INT(cells[1].fg, -1);
    CHECK_EQ_INT(cells[2].fg, 21); /* the cube's pure blue */
    CHECK_EQ_INT(cells[3].fg, -1);
    CHECK_EQ_INT(cells[3].attrs, 0);
    /* cursor movement: up two rows, column 3 */
    FEED("\033[2A\033[3GX");
    ROW_IS(0, "heXlo");
    /* scrolling: the top row goes to the scrollback */
    FEED("\033[3;1H\r\nline4");
    CHECK_EQ_INT(ui_term_scrollback(t), 1);
    ROW_IS(-1, "heXlo");
    ROW_IS(2, "line4");
    CHECK_EQ_INT(ui_term_row(t, -2, cells, 10), -1);
    CHECK_EQ_INT(ui_term_row(t, 3, cells, 10), -1);
    /* only 4 lines are kept there */
    FEED("\r\na\r\nb\r\nc\r\nd\r\ne");
    CHECK_EQ_INT(ui_term_scrollback(t), 4);
    CHECK_EQ_INT(ui_term_scrolled(t), 6);
    ROW_IS(-4, "RBDn");
    ROW_IS(-3, "line4");
    ROW_IS(2, "e");
    /* the view scrolls within the scrollback */
    ui_term_scroll(t, -2);
    CHECK_EQ_INT(ui_term_offset(t), 2);
    ui_term_scroll(t, -100);
    CHECK_EQ_INT(ui_term_offset(t), 4);
    ui_term_scroll(t, 1);
    CHECK_EQ_INT(ui_term_offset(t), 3);
    ui_term_scroll_end(t);
    CHECK_EQ_INT(ui_term_offset(t), 0);
    /* the alternate screen: its own, no scrollback; back to the main */
    FEED("\033[?1049h\033[2J\033[Hfull");
    CHECK_EQ_INT(ui_term_altscreen(t), 1);
    ROW_IS(0, "full");
    ROW_IS(2, "");
    FEED("\r\n\r\n\r\n\r\n");
    CHECK_EQ_INT(ui_term_scrollback(t), 4);
    CHECK_EQ_INT(ui_term_scrolled(t), 6);
    FEED("\033[?1049l");
    CHECK_EQ_INT(ui_term_altscreen(t), 0);
    ROW_IS(2, "e");
    /* UTF-8 split across feeds, a wide character taking two cells */
    FEED("\033[2J\033[H\xc3");
    FEED("\xa9\xe4\xb8");
    FEED("\xad|");
    ROW_IS(0, "\xc3\xa9\xe4\xb8\xad|");
    CHECK_EQ_INT(ui_term_row(t, 0, cells, 10), 0);
    CHECK_EQ_INT(cells[1].width, 2);
    CHECK_EQ_INT(cells[3].chars[0], '|');
    ui_term_cursor(t, &row, &col, &vis);
    CHECK_EQ_INT(col, 4);
    /* a hidden cursor */
    FEED("\033[?25l");
    ui_term_cursor(t, &row, &col, &vis);
    CHECK_EQ_INT(vis, 0);
    /* questions answered: the cursor's position */
    FEED("\033[6n");
    n = ui_term_output(t, out, sizeof out);
    CHECK(n == 6 && memcmp(out, "\033[1;5R", 6) == 0);
    /* keys as the program's modes want them: arrows change with DECCKM */
    ui_term_key(t, VTERM_KEY_UP, 0);
    ui_term_char(t, 'x', VTERM_MOD_ALT);
    ui_term_char(t, 3, 0);
    n = ui_term_output(t, out, sizeof out);
    CHECK_EQ_INT(n, 6);
    CHECK(memcmp(out, "\033[A\033x\003", 6) == 0);
    FEED("\033[?1h");
    ui_term_key(t, VTERM_KEY_UP, 0);
    n = ui_term_output(t, out, sizeof out);
    CHECK(n == 3 && memcmp(out, "\033OA", 3) == 0);
    /* paste: bracketed only when the program asks */
    ui_term_paste(t, "ab", 2);
    n = ui_term_output(t, out, sizeof out);
    CHECK(n == 2 && memcmp(out, "ab", 2) == 0);
    FEED("\033[?2004h");
    ui_term_paste(t, "ab", 2);
    n = ui_term_output(t, out, sizeof out);
    CHECK(n == 14 && memcmp(out, "\033[200~ab\033[201~", 14) == 0);
    /* a resize: a smaller screen sends its top rows to the scrollback,
     * a bigger one takes them back */
    FEED("\033[2J\033[H1\r\n2\r\n3");
    n = (size_t)ui_term_scrolled(t);
    ui_term_resize(t, 2, 8);
    CHECK_EQ_INT(ui_term_rows(t), 2);
    CHECK_EQ_INT(ui_term_cols(t), 8);
    CHECK_EQ_INT(ui_term_scrolled(t), n + 1);
    ROW_IS(-1, "1");
    ROW_IS(0, "2");
    ui_term_resize(t, 3, 8);
    CHECK_EQ_INT(ui_term_scrollback(t), 3);
    ROW_IS(0, "1");
    CHECK(ui_term_bytes(t) > 0);
    ui_term_free(t);

    /* a scrolling region: its rows scroll, the others stay, nothing goes
     * to the scrollback; characters deleted and lines inserted */
    t = ui_term_create(4, 10, 4);
    FEED("a\r\nb\r\nc\r\nd\033[2;3r\033[3;1H\n");
    ROW_IS(0, "a");
    ROW_IS(1, "c");
    ROW_IS(2, "");
    ROW_IS(3, "d");
    CHECK_EQ_INT(ui_term_scrollback(t), 0);
    FEED("\033[r\033[1;1Habcdef\033[1;3H\033[2P");
    ROW_IS(0, "abef");
    FEED("\033[2@");
    ROW_IS(0, "ab  ef");
    FEED("\033[2;1H\033[L");
    ROW_IS(1, "");
    ROW_IS(2, "c");
    ROW_IS(3, "");
    FEED("\033[M");
    ROW_IS(1, "c");
    /* erasing takes the pen's background */
    FEED("\033[4;1H\033[44m\033[K\033[0m");
    CHECK_EQ_INT(ui_term_row(t, 3, cells, 10), 0);
    CHECK_EQ_INT(cells[9].bg, 4);
    ui_term_free(t);
#undef FEED
#undef ROW_IS
}

static void test_list(void)
{
    struct ui_list l;

    memset(&l, 0, sizeof l);
    ui_list_set(&l, 0, 5);
    ui_list_move(&l, 1);
    CHECK_EQ_INT(l.sel, 0);
    ui_list_set(&l, 20, 5);
    ui_list_move(&l, 7);
    CHECK_EQ_INT(l.sel, 7);
    CHECK_EQ_INT(l.top, 3);
    ui_list_move(&l, -100);
    CHECK_EQ_INT(l.sel, 0);
    CHECK_EQ_INT(l.top, 0);
    ui_list_page(&l, 1);
    CHECK_EQ_INT(l.sel, 4);
    ui_list_move(&l, 100);
    CHECK_EQ_INT(l.sel, 19);
    CHECK_EQ_INT(l.top, 15);
    /* the list shrinks under the selection */
    ui_list_set(&l, 3, 5);
    CHECK_EQ_INT(l.sel, 2);
    CHECK_EQ_INT(l.top, 0);
    ui_list_set(&l, 20, 5);
    ui_list_scroll(&l, 10);
    CHECK_EQ_INT(l.top, 10);
    CHECK_EQ_INT(l.sel, 10);
    ui_list_select(&l, 1);
    CHECK_EQ_INT(l.top, 1);

    /* not on screen yet (no rows): choosing does not scroll */
    memset(&l, 0, sizeof l);
    ui_list_set(&l, 20, 0);
    ui_list_select(&l, 9);
    CHECK_EQ_INT(l.top, 0);
    ui_list_set(&l, 20, 14);
    CHECK_EQ_INT(l.top, 0);
    CHECK_EQ_INT(l.sel, 9);
}

static void check_layout(int rows, int cols, enum ui_layout_window window)
{
    struct ui_layout l;
    int y, covered[200];

    ui_layout_compute(&l, rows, cols, window, 0);
    CHECK(l.ok);
    memset(covered, 0, sizeof covered);
    /* every row belongs to exactly one pane */
#define COVER(r)                                                            \
    for (y = (r).y; y < (r).y + (r).h; y++)                                 \
        covered[y]++;                                                       \
    CHECK((r).h == 0 || (r).w == cols)
    COVER(l.status);
    COVER(l.window_title);
    COVER(l.window);
    COVER(l.transcript);
    COVER(l.output_title);
    COVER(l.output);
    COVER(l.command);
    COVER(l.bottom);
#undef COVER
    for (y = 0; y < rows; y++)
        CHECK_EQ_INT(covered[y], 1);
    CHECK_EQ_INT(l.status.y, 0);
    CHECK_EQ_INT(l.bottom.y, rows - 1);
    CHECK_EQ_INT(l.command.y, rows - 2);
    CHECK(l.output.h >= 2);
    CHECK_EQ_INT(l.output.y + l.output.h, l.command.y);
    CHECK_EQ_INT(l.output_title.y + 1, l.output.y);
    if (window)
        CHECK(l.window.h >= 3);
    else
        CHECK(l.transcript.h >= 3 && l.window.h == 0);
}

static void test_layout(void)
{
    struct ui_layout l;

    check_layout(24, 80, UI_LAYOUT_NO_WINDOW);
    check_layout(24, 80, UI_LAYOUT_WINDOW);
    check_layout(10, 40, UI_LAYOUT_NO_WINDOW);
    check_layout(10, 40, UI_LAYOUT_WINDOW);
    check_layout(50, 120, UI_LAYOUT_NO_WINDOW);
    check_layout(50, 120, UI_LAYOUT_WINDOW);
    check_layout(199, 300, UI_LAYOUT_WINDOW);
    check_layout(30, 100, UI_LAYOUT_WINDOW_FULL);

    /* 80x24: a transcript of 15 rows over 5 of output */
    ui_layout_compute(&l, 24, 80, UI_LAYOUT_NO_WINDOW, 0);
    CHECK_EQ_INT(l.transcript.y, 1);
    CHECK_EQ_INT(l.transcript.h, 15);
    CHECK_EQ_INT(l.output.h, 5);
    /* F6 goes to the program's pane first, then the transcript */
    CHECK_EQ_INT(ui_layout_next_focus(&l, UI_PANE_COMMAND, 1),
                 UI_PANE_OUTPUT);
    CHECK_EQ_INT(ui_layout_next_focus(&l, UI_PANE_OUTPUT, 1),
                 UI_PANE_TRANSCRIPT);
    CHECK_EQ_INT(ui_layout_next_focus(&l, UI_PANE_TRANSCRIPT, 1),
                 UI_PANE_COMMAND);
    CHECK_EQ_INT(ui_layout_next_focus(&l, UI_PANE_COMMAND, -1),
                 UI_PANE_TRANSCRIPT);
    /* a window takes the transcript's place on a small terminal ... */
    ui_layout_compute(&l, 24, 80, UI_LAYOUT_WINDOW, 0);
    CHECK_EQ_INT(l.transcript.h, 0);
    CHECK(!ui_layout_has(&l, UI_PANE_TRANSCRIPT));
    CHECK_EQ_INT(ui_layout_next_focus(&l, UI_PANE_COMMAND, 1),
                 UI_PANE_OUTPUT);
    CHECK_EQ_INT(ui_layout_next_focus(&l, UI_PANE_OUTPUT, 1),
                 UI_PANE_WINDOW);
    CHECK_EQ_INT(ui_layout_next_focus(&l, UI_PANE_WINDOW, 1),
                 UI_PANE_COMMAND);
    CHECK_EQ_INT(ui_layout_next_focus(&l, UI_PANE_COMMAND, -1),
                 UI_PANE_WINDOW);
    /* ... and shares it on a big one, unless asked to take it all */
    ui_layout_compute(&l, 50, 120, UI_LAYOUT_WINDOW_FULL, 0);
    CHECK_EQ_INT(l.transcript.h, 0);
    CHECK_EQ_INT(l.window.y + l.window.h, l.output_title.y);
    ui_layout_compute(&l, 50, 120, UI_LAYOUT_WINDOW, 0);
    CHECK(l.transcript.h >= 10 && l.window.h >= 10);
    CHECK_EQ_INT(ui_layout_pane_at(&l, l.window.y, 3), UI_PANE_WINDOW);
    CHECK_EQ_INT(ui_layout_pane_at(&l, l.transcript.y, 3),
                 UI_PANE_TRANSCRIPT);
    CHECK_EQ_INT(ui_layout_pane_at(&l, l.output_title.y, 3), UI_PANE_OUTPUT);
    CHECK_EQ_INT(ui_layout_pane_at(&l, 0, 3), UI_PANE_NONE);
    CHECK_EQ_INT(ui_layout_pane_at(&l, 49, 3), UI_PANE_NONE);
    CHECK_EQ_INT(ui_layout_pane_at(&l, 48, 3), UI_PANE_COMMAND);
    /* the output pane's height can be asked for, within limits */
    ui_layout_compute(&l, 24, 80, UI_LAYOUT_NO_WINDOW, 10);
    CHECK_EQ_INT(l.output.h, 10);
    ui_layout_compute(&l, 24, 80, UI_LAYOUT_NO_WINDOW, 100);
    CHECK_EQ_INT(l.transcript.h, 3);
    /* too small */
    ui_layout_compute(&l, 9, 80, UI_LAYOUT_NO_WINDOW, 0);
    CHECK(!l.ok);
    ui_layout_compute(&l, 24, 39, UI_LAYOUT_NO_WINDOW, 0);
    CHECK(!l.ok);
    CHECK(ui_layout_has(&l, UI_PANE_COMMAND));
    CHECK_EQ_INT(ui_layout_next_focus(&l, UI_PANE_COMMAND, 1),
                 UI_PANE_COMMAND);
}

/* NAME parses, and names itself back as CANON. */
static int key_round_trip(const char *name, const char *canon)
{
    struct ui_key k;
    char buf[64];

    if (!ui_keys_parse(name, &k))
        return 0;
    ui_keys_name(&k, buf, sizeof buf);
    if (strcmp(buf, canon) != 0) {
        fprintf(stderr, "key %s: named %s, not %s\n", name, buf, canon);
        return 0;
    }
    return 1;
}

static void test_keys(void)
{
    struct ui_key k = {0, 0, 0};
    char buf[64];
    size_t n;

    k.code = KEY_F(5);
    k.fn = 1;
    CHECK(strcmp(ui_keys_name(&k, buf, sizeof buf), "F5") == 0);
    k.code = KEY_F(17);
    CHECK(strcmp(ui_keys_name(&k, buf, sizeof buf), "S-F5") == 0);
    k.code = KEY_PPAGE;
    CHECK(strcmp(ui_keys_name(&k, buf, sizeof buf), "PageUp") == 0);
    k.code = KEY_BTAB;
    CHECK(strcmp(ui_keys_name(&k, buf, sizeof buf), "S-Tab") == 0);
    k.fn = 0;
    k.code = 3;
    CHECK(strcmp(ui_keys_name(&k, buf, sizeof buf), "C-c") == 0);
    k.meta = 1;
    CHECK(strcmp(ui_keys_name(&k, buf, sizeof buf), "C-M-c") == 0);
    k.code = 'x';
    CHECK(strcmp(ui_keys_name(&k, buf, sizeof buf), "M-x") == 0);
    k.meta = 0;
    k.code = 0xe9;
    CHECK(strcmp(ui_keys_name(&k, buf, sizeof buf), "\xc3\xa9") == 0);
    CHECK(ui_keys_printable(&k));
    k.code = 9;
    CHECK(!ui_keys_printable(&k));

    CHECK(key_round_trip("F5", "F5"));
    CHECK(key_round_trip("f12", "F12"));
    CHECK(key_round_trip("S-F5", "S-F5"));
    CHECK(key_round_trip("Shift-F5", "S-F5"));
    CHECK(key_round_trip("C-S-F1", "C-S-F1"));
    CHECK(key_round_trip("Ctrl-C", "C-c"));
    CHECK(key_round_trip("^C", "C-c"));
    CHECK(key_round_trip("C-c", "C-c"));
    CHECK(key_round_trip("M-C-x", "C-M-x"));
    CHECK(key_round_trip("Alt-x", "M-x"));
    CHECK(key_round_trip("pgup", "PageUp"));
    CHECK(key_round_trip("BTab", "S-Tab"));
    CHECK(key_round_trip("Return", "Enter"));
    CHECK(key_round_trip("C-i", "Tab"));
    CHECK(key_round_trip("/", "/"));
    CHECK(key_round_trip("C", "C"));
    CHECK(key_round_trip("Space", "Space"));
    CHECK(key_round_trip("M-Space", "M-Space"));
    CHECK(key_round_trip("Esc", "Esc"));
    CHECK(key_round_trip("Key-600", "Key-600"));
    CHECK(!ui_keys_parse("F13", &k));
    CHECK(!ui_keys_parse("C-F", &k) || k.code == 6);
    CHECK(!ui_keys_parse("C-1", &k));
    CHECK(!ui_keys_parse("S-Up", &k));
    CHECK(!ui_keys_parse("Bogus", &k));
    CHECK(!ui_keys_parse("", &k));
    CHECK(!ui_keys_parse("S-a", &k));

    /* the bytes readline and the program get */
    ui_keys_parse("Up", &k);
    n = ui_keys_bytes(&k, buf, sizeof buf);
    CHECK(n == 3 && memcmp(buf, "\033[A", 3) == 0);
    ui_keys_parse("M-b", &k);
    n = ui_keys_bytes(&k, buf, sizeof buf);
    CHECK(n == 2 && memcmp(buf, "\033b", 2) == 0);
    ui_keys_parse("C-d", &k);
    n = ui_keys_bytes(&k, buf, sizeof buf);
    CHECK(n == 1 && buf[0] == 4);
    ui_keys_parse("Enter", &k);
    n = ui_keys_bytes(&k, buf, sizeof buf);
    CHECK(n == 1 && buf[0] == '\r');
    ui_keys_parse("F5", &k);
    n = ui_keys_bytes(&k, buf, sizeof buf);
    CHECK(n == 5 && memcmp(buf, "\033[15~", 5) == 0);
    ui_keys_parse("\xc3\xa9", &k);
    n = ui_keys_bytes(&k, buf, sizeof buf);
    CHECK(n == 2 && memcmp(buf, "\xc3\xa9", 2) == 0);
    k.fn = 1;
    k.code = KEY_RESIZE;
    CHECK_EQ_INT(ui_keys_bytes(&k, buf, sizeof buf), 0);
}

static void test_edit(void)
{
    struct ui_edit *e = ui_edit_create("set x 1\nputs $x");
    char *s;

    CHECK_EQ_INT(e->n, 2);
    ui_edit_end(e);
    ui_edit_insert(e, "0", 1);
    s = ui_edit_text(e);
    CHECK(strcmp(s, "set x 10\nputs $x") == 0);
    free(s);
    CHECK(e->modified);
    ui_edit_down(e, 1);
    CHECK_EQ_INT(e->cy, 1);
    CHECK_EQ_INT(e->cx, 7); /* "puts $x" is 7: the end */
    ui_edit_home(e);
    ui_edit_backspace(e); /* joins the lines */
    s = ui_edit_text(e);
    CHECK(strcmp(s, "set x 10puts $x") == 0);
    free(s);
    ui_edit_newline(e);
    ui_edit_insert(e, "a\nb", 3);
    s = ui_edit_text(e);
    CHECK(strcmp(s, "set x 10\na\nbputs $x") == 0);
    free(s);
    ui_edit_kill_line(e);
    ui_edit_kill_line(e); /* at the end: joins the next line (none) */
    s = ui_edit_text(e);
    CHECK(strcmp(s, "set x 10\na\nb") == 0);
    free(s);
    ui_edit_up(e, 5);
    CHECK_EQ_INT(e->cy, 0);
    CHECK_EQ_INT(e->cx, 1);
    ui_edit_left(e);
    ui_edit_left(e);
    CHECK_EQ_INT(e->cx, 0);
    ui_edit_right(e);
    ui_edit_delete(e);
    s = ui_edit_text(e);
    CHECK(strcmp(s, "st x 10\na\nb") == 0);
    free(s);
    ui_edit_end(e);
    ui_edit_delete(e); /* joins "a" */
    ui_edit_insert(e, "\xc3\xa9", 2);
    ui_edit_left(e); /* over the two bytes at once */
    CHECK_EQ_INT(e->cx, 7);
    ui_edit_backspace(e);
    s = ui_edit_text(e);
    CHECK(strcmp(s, "st x 1\xc3\xa9" "a\nb") == 0);
    free(s);
    e->top = 0;
    ui_edit_down(e, 1);
    ui_edit_scroll(e, 1);
    CHECK_EQ_INT(e->top, 1);
    ui_edit_free(e);

    e = ui_edit_create("");
    CHECK_EQ_INT(e->n, 1);
    ui_edit_backspace(e);
    ui_edit_delete(e);
    CHECK(!e->modified);
    ui_edit_free(e);
}

int main(void)
{
    if (setlocale(LC_ALL, "C.UTF-8") == NULL)
        setlocale(LC_ALL, "C.utf8");
    test_text();
    test_scroll();
    test_wrap();
    test_trim();
    test_values();
    test_search();
    test_show_output();
    test_term();
    test_list();
    test_layout();
    test_keys();
    test_edit();
    return unit_done("model-test");
}
