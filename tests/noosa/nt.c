/* SPDX-License-Identifier: MIT */
/*
 * nt.c - the program of the end-to-end tests of noosa's front end
 * (tests/noosa), with the interface nt.dapto.  The first argument picks
 * what it does:
 *
 *   ticks N     N steps: tick, mark (with the state of tick as the
 *               program sees it), quiet; prints "step I" for each
 *   say S...    the event said for each string S
 *   list N      a list of N cells (cell_made for each), then one tick
 *   exit N      one tick, then exit with status N
 *   signal      one tick, then die of SIGTERM
 *   lines       "ready", then for each line read from standard input
 *               (blocking in read(2) meanwhile) a cell (cell_made) and
 *               a tick, and "got LINE"; "done" at the end of the input
 *               (for attaching to it while it runs); with
 *               NT_UNDUMPABLE in the environment, it makes itself
 *               undumpable first (no one but root may trace it)
 *
 * Everything it prints goes to standard output, so that tests can send
 * it elsewhere (`run > FILE`) and keep the transcript deterministic.
 */
#include <signal.h>
#include <sys/prctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nt_dapto.h"

struct cell *nt_list;
int nt_ticks;
int *volatile nt_bad = (int *)16;

/* What the state byte of tick (the first of the aspect's) asks for: the
 * program waits at it (stop), records it (record), or neither (off). */
static const char *tick_state(void)
{
    dapto_state_t s = nt_dapto_state[0];

    return (s & DAPTO_STATE_STOP) ? "stop"
           : (s & DAPTO_STATE_RECORD) ? "record"
                                      : "off";
}

static void tick(int n, const char *text)
{
    nt_ticks++;
    _dapto_tick(n, text);
    _dapto_mark(n, tick_state());
    _dapto_quiet(n);
}

static void make_list(int n)
{
    struct cell **link = &nt_list;

    for (int i = 1; i <= n; i++) {
        struct cell *c = calloc(1, sizeof *c);

        if (c == NULL)
            exit(3);
        c->value = i * 10;
        snprintf(c->text, sizeof c->text, "cell %d", i);
        *link = c;
        link = &c->next;
        _dapto_cell_made(c);
    }
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "ticks";
    int n = argc > 2 ? atoi(argv[2]) : 3;
    char text[32];

    if (strcmp(mode, "ticks") == 0) {
        for (int i = 1; i <= n; i++) {
            snprintf(text, sizeof text, "step %d", i);
            tick(i, text);
            printf("%s\n", text);
        }
        return 0;
    }
    if (strcmp(mode, "say") == 0) {
        for (int i = 2; i < argc; i++)
            _dapto_said(argv[i]);
        return 0;
    }
    if (strcmp(mode, "list") == 0) {
        make_list(n);
        tick(1, "built");
        return 0;
    }
    if (strcmp(mode, "exit") == 0) {
        tick(1, "exiting");
        return n;
    }
    if (strcmp(mode, "lines") == 0) {
        char line[256];
        struct cell **link = &nt_list;
        int i = 0;

        if (getenv("NT_UNDUMPABLE") != NULL)
            prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
        printf("ready\n");
        fflush(stdout);
        while (fgets(line, sizeof line, stdin) != NULL) {
            struct cell *c = calloc(1, sizeof *c);

            if (c == NULL)
                exit(3);
            line[strcspn(line, "\n")] = '\0';
            c->value = ++i * 10;
            snprintf(c->text, sizeof c->text, "%s", line);
            *link = c;
            link = &c->next;
            _dapto_cell_made(c);
            tick(i, line);
            printf("got %s\n", line);
            fflush(stdout);
        }
        printf("done\n");
        return 0;
    }
    if (strcmp(mode, "signal") == 0) {
        tick(1, "dying");
        fflush(stdout);
        raise(SIGTERM);
        return 0;
    }
    fprintf(stderr, "nt: unknown mode \"%s\"\n", mode);
    return 2;
}
