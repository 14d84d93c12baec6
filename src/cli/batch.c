/* SPDX-License-Identifier: MIT */
/*
 * batch.c - the batch front end.  See batch.h.
 *
 * The transcript is printed as it grows, a line at a time, and flushed at
 * once so that it interleaves correctly with the program's own output on
 * the same descriptor.  An unfinished line is printed when noosa is about
 * to wait for input or to exit.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "interp.h"
#include "loop.h"
#include "screen.h"
#include "xmalloc.h"

struct batch {
    struct interp *in;
    uint64_t line; /* the line being printed */
    size_t col;    /* bytes of it already printed */
};

/* Print what the transcript has beyond what was printed; the unfinished
 * last line too when PARTIAL. */
static void print(struct batch *b, int partial)
{
    struct transcript *t = b->in->transcript;
    uint64_t end = transcript_end(t);
    const char *s;
    size_t len;

    if (b->line < transcript_first(t)) {
        b->line = transcript_first(t);
        b->col = 0;
    }
    for (; b->line < end; b->line++, b->col = 0) {
        int last = b->line + 1 == end && transcript_partial(t);

        s = transcript_line(t, b->line, &len);
        if (last && !partial)
            break;
        if (len > b->col)
            fwrite(s + b->col, 1, len - b->col, stdout);
        if (last) {
            b->col = len;
            break;
        }
        fputc('\n', stdout);
    }
    fflush(stdout);
}

static void changed(uint64_t first, uint64_t last, void *arg)
{
    (void)first;
    (void)last;
    print(arg, 0);
}

/* Read commands from standard input, a complete command at a time. */
static void read_stdin(struct batch *b)
{
    Tcl_DString buf;
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int lineno = 0, start = 1;

    Tcl_DStringInit(&buf);
    while (!b->in->noosa->quit) {
        print(b, 1);
        n = getline(&line, &cap, stdin);
        if (n < 0)
            break;
        lineno++;
        if (Tcl_DStringLength(&buf) == 0)
            start = lineno;
        Tcl_DStringAppend(&buf, line, (int)n);
        if (!Tcl_CommandComplete(Tcl_DStringValue(&buf)))
            continue;
        interp_script(b->in, Tcl_DStringValue(&buf), "<stdin>", start);
        Tcl_DStringSetLength(&buf, 0);
    }
    if (Tcl_DStringLength(&buf) != 0 && !b->in->noosa->quit)
        interp_script(b->in, Tcl_DStringValue(&buf), "<stdin>", start);
    Tcl_DStringFree(&buf);
    free(line);
}

int batch_main(const struct noosa_opts *o)
{
    struct batch b;
    struct loop *loop = loop_create();
    struct noosa_opts nopts = *o;
    struct noosa *n;
    char *cause = NULL;
    int i, status = 0, signo = 0, rc;

    memset(&b, 0, sizeof b);
    nopts.batch = 1;
    n = noosa_create(loop, &nopts);
    b.in = interp_create(n, &nopts, screen_cmd_register, &cause);
    if (b.in == NULL) {
        fprintf(stderr, "noosa: %s\n", cause);
        free(cause);
        noosa_free(n);
        loop_free(loop);
        return 1;
    }
    transcript_set_changed(b.in->transcript, changed, &b);
    print(&b, 0);
    if (o->attach_pid != 0 ? interp_attach(b.in, o->attach_pid, &cause) != 0
        : o->argv != NULL && o->argv[0] != NULL &&
              interp_load(b.in, o->argv, &cause) != 0) {
        print(&b, 1);
        fprintf(stderr, "noosa: %s\n", cause);
        free(cause);
        interp_free(b.in);
        noosa_free(n);
        loop_free(loop);
        return 1;
    }
    for (i = 0; i < o->nscripts && !b.in->noosa->quit; i++) {
        if (o->scripts[i].is_file)
            interp_script_file(b.in, o->scripts[i].text);
        else
            interp_script(b.in, o->scripts[i].text, NULL, 1);
    }
    if (o->nscripts == 0)
        read_stdin(&b);

    if (b.in->noosa->quit)
        rc = b.in->noosa->quit_status;
    else if (b.in->noosa->sink.failed != 0)
        rc = 1;
    else if (session_state(b.in->session) == SESSION_IDLE &&
             session_ended(b.in->session, &status, &signo) == 1)
        rc = signo != 0 ? 128 + signo : status;
    else
        rc = 0;
    if (session_state(b.in->session) != SESSION_IDLE) {
        if (transcript_partial(b.in->transcript))
            interp_say(b.in, "\n");
        if (session_replaying(b.in->session)) {
            /* (the play ends where it is, and says so) */
            session_kill(b.in->session, NULL);
        } else if (session_attached(b.in->session)) {
            interp_say(b.in, "The program is still live at the end: "
                       "detaching from it.\n");
            session_detach(b.in->session, NULL);
        } else {
            interp_say(b.in, "The program is still live at the end: "
                       "killing it.\n");
            session_kill(b.in->session, NULL);
        }
    }
    print(&b, 1);
    if (transcript_partial(b.in->transcript))
        fputc('\n', stdout);
    fflush(stdout);
    interp_free(b.in);
    noosa_free(n);
    loop_free(loop);
    return rc;
}
