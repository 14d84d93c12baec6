/* SPDX-License-Identifier: MIT */
/*
 * screen-bench.c - the screen with a long transcript: the real screen
 * (screen_create: interpreter, models, curses) drawing into /dev/null as
 * a 160x50 xterm, its transcript filled with a million lines like those
 * of a busy session (a value or two each).  Each figure is reported
 * against a baseline measured in the same run: the same operation on a
 * transcript of a thousand lines.
 *
 *     screen-bench [LINES]
 *
 * Prints: the time to append a line (at the start and at LINES), to jump
 * to the end and draw, to page up or down and draw, to draw a frame
 * while following new lines, to search the whole transcript; and the
 * memory per line (the transcript's own count and the heap's growth)
 * against the text's size, with two values a line and with none; and the
 * cost of the program's output in its pane (the terminal emulator): a
 * flood of coloured lines fed as the pty gives them, and a frame drawn
 * with the pane full of colours.
 */
#include "config.h"

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "interp.h"
#include "screen.h"
#include "xmalloc.h"

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Bytes allocated and in use (malloc's heap and its mmapped blocks). */
static double heap(void)
{
    struct mallinfo2 mi = mallinfo2();

    return (double)mi.uordblks + (double)mi.hblkhd;
}

static char line_buf[256];
/* Lines with values (else the same length of plain text). */
static int with_values = 1;

/* Line I of the transcript: a stop or handler line with two values. */
static const char *line(unsigned long i)
{
    snprintf(line_buf, sizeof line_buf,
             with_values ? "binding_made %lu: env=Environment:0x55d1%08lx "
                           "idn=%lu v=Value:0x55d2%08lx\n"
                         : "binding_made %lu: env=Environment 0x55d1%08lx "
                           "idn=%lu v=Value 0x55d2%08lx\n",
             i, i * 64, i % 997, i * 32);
    return line_buf;
}

/* Append lines FROM .. TO - 1; returns seconds. */
static double append(struct screen *s, unsigned long from, unsigned long to)
{
    double t0 = now();
    unsigned long i;

    for (i = from; i < to; i++)
        interp_say(s->in, line(i));
    return now() - t0;
}

struct figures {
    double append_first; /* s per line, the first 1000 lines */
    double append_last;  /* s per line, the last 1000 lines */
    double end_draw;     /* s per jump to the end, drawn */
    double page_draw;    /* s per page up, drawn */
    double follow_draw;  /* s per line appended and drawn, following */
    double search;       /* s to search the whole transcript, no match */
    double bytes;        /* transcript bytes per line */
    double heap;         /* heap growth per line */
    double text;         /* bytes of text per line */
};

static void measure(struct screen *s, unsigned long n, struct figures *f)
{
    struct transcript *t = s->in->transcript;
    double t0, h0 = heap(), total = 0;
    unsigned long i;
    const int reps = 200;
    char *cause = NULL;

    f->append_first = append(s, 0, 1000) / 1000;
    if (n > 2000) {
        append(s, 1000, n - 1000);
        f->append_last = append(s, n - 1000, n) / 1000;
    } else {
        f->append_last = f->append_first;
    }
    for (i = transcript_first(t); i < transcript_end(t); i++) {
        size_t len;

        transcript_line(t, i, &len);
        total += (double)len + 1;
    }
    f->text = total / (double)n;
    f->bytes = (double)transcript_memory(t) / (double)n;
    f->heap = (heap() - h0) / (double)n;
    if (!with_values)
        return; /* memory only */

    screen_draw(s);
    /* from the start to the end: the view measures only a screenful */
    t0 = now();
    for (i = 0; i < (unsigned long)reps; i++) {
        ui_tview_home(&s->tv);
        ui_tview_end(&s->tv);
        screen_draw(s);
    }
    f->end_draw = (now() - t0) / reps;
    /* ten pages up, ten down, ...: within a thousand lines */
    t0 = now();
    for (i = 0; i < (unsigned long)reps; i++) {
        ui_tview_page(&s->tv, i / 10 % 2 == 0 ? -1 : 1);
        screen_draw(s);
    }
    f->page_draw = (now() - t0) / reps;
    ui_tview_end(&s->tv);
    t0 = now();
    for (i = 0; i < (unsigned long)reps; i++) {
        interp_say(s->in, line(n + i));
        screen_draw(s);
    }
    f->follow_draw = (now() - t0) / reps;
    t0 = now();
    if (ui_tview_search(&s->tv, "no such text", 0, &cause) != 0) {
        fprintf(stderr, "screen-bench: the search found something: %s\n",
                cause != NULL ? cause : "");
        exit(1);
    }
    f->search = now() - t0;
}

/* A screen over a transcript of at most MAX lines, drawing into
 * /dev/null. */
static struct screen *open_screen(unsigned long max, struct noosa_opts *o,
                                  FILE **out, FILE **in)
{
    struct screen *s;
    char *cause = NULL;
    int no_terminal;

    memset(o, 0, sizeof *o);
    o->max_lines = max;
    o->no_init = 1;
    o->session.op_timeout_ms = 1000;
    o->session.fd_in = o->session.fd_out =
        o->session.fd_err = -1;
    *out = fopen("/dev/null", "w");
    *in = fopen("/dev/null", "r");
    s = screen_create(o, *out, *in, &no_terminal, &cause);
    if (s == NULL) {
        fprintf(stderr, "screen-bench: %s\n", cause);
        exit(1);
    }
    return s;
}

static void run(unsigned long n, struct figures *f)
{
    struct noosa_opts o;
    FILE *out, *in;
    struct screen *s = open_screen(n + 1000, &o, &out, &in);

    measure(s, n, f);
    screen_free(s);
    fclose(out);
    fclose(in);
}

/* The program's terminal: LINES coloured lines fed in reads of 8 KiB as
 * screen_pty_read() takes them, then frames drawn with the pane full. */
static void pane(unsigned long lines)
{
    struct noosa_opts o;
    FILE *out, *in;
    struct screen *s = open_screen(1000, &o, &out, &in);
    char *buf = xmalloc(lines * 64 + 1);
    size_t len = 0, off, k;
    double t0, feed, draw;
    unsigned long i;
    const int reps = 200;

    for (i = 0; i < lines; i++)
        len += (size_t)sprintf(buf + len,
                               "\033[32mline %lu\033[0m of the loop, "
                               "\033[1m%lu%%\033[0m\r\n",
                               i * 10, i * 100 / lines);
    t0 = now();
    for (off = 0; off < len; off += k) {
        k = len - off < 8192 ? len - off : 8192;
        ui_term_feed(s->out, buf + off, k);
    }
    feed = now() - t0;
    screen_draw(s);
    t0 = now();
    for (i = 0; i < (unsigned long)reps; i++) {
        ui_term_feed(s->out, "\033[31mred\033[0m and plain\r\n", 27);
        screen_draw(s);
    }
    draw = (now() - t0) / reps;
    printf("the program's terminal, %dx%d: %lu coloured lines (%zu bytes) "
           "fed in %.1f ms, %.1f ns a byte; a line fed and drawn %.1f us\n",
           ui_term_rows(s->out), ui_term_cols(s->out), lines, len,
           feed * 1e3, feed * 1e9 / (double)len, draw * 1e6);
    free(buf);
    screen_free(s);
    fclose(out);
    fclose(in);
}

int main(int argc, char **argv)
{
    unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000000;
    struct figures base, big, plain;

    /* a big xterm, whatever runs the benchmark */
    setenv("TERM", "xterm-256color", 1);
    setenv("LINES", "50", 1);
    setenv("COLUMNS", "160", 1);
    unsetenv("NO_COLOR");

    run(1000, &base); /* once to warm up */
    run(1000, &base);
    run(n, &big);
    with_values = 0;
    run(n, &plain);

#define ROW(what, unit, scale, field)                                       \
    printf("%-34s %10.2f %10.2f %s %7.2f\n", what, base.field * (scale),    \
           big.field * (scale), unit, big.field / base.field)
    printf("screen, 160x50, drawing into /dev/null; transcript of 1000 "
           "lines (baseline) and of %lu lines\n", n);
    printf("%-34s %10s %10s %s %7s\n", "", "1000", "big", "  ", "ratio");
    ROW("append a line (first 1000)", "us", 1e6, append_first);
    ROW("append a line (last 1000)", "us", 1e6, append_last);
    ROW("jump to the end and draw", "us", 1e6, end_draw);
    ROW("page up or down and draw", "us", 1e6, page_draw);
    ROW("append a line and draw (follow)", "us", 1e6, follow_draw);
    ROW("search it all, no match", "ms", 1e3, search);
#undef ROW
    printf("memory per line at %lu lines (ratio: to the text)\n", n);
    printf("  two values a line: %.1f B of text, transcript %.1f B (%.2f), "
           "heap %.1f B (%.2f)\n", big.text, big.bytes,
           big.bytes / big.text, big.heap, big.heap / big.text);
    printf("  no values:         %.1f B of text, transcript %.1f B (%.2f), "
           "heap %.1f B (%.2f)\n", plain.text, plain.bytes,
           plain.bytes / plain.text, plain.heap, plain.heap / plain.text);
    pane(50000);
    return 0;
}
