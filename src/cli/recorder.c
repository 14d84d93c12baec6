/* SPDX-License-Identifier: MIT */
/*
 * recorder.c - `noosa record`: run a program with its events recorded to
 * a recording directory (src/record/, <design#recordings>), without a
 * screen, a transcript or Tcl.  It reads the channel and the target
 * directly, as the raw trace does, and hands every item to the writer;
 * function records (and enter/leave with interned names) take the
 * channel's direct path, in batches.  Each thread of the program writes
 * its records into a buffer of its own (<protocol#tbuf>: a recording
 * needs no order between threads, its reader merges them by time), unless
 * --shared-ring asks for the one ring.  This is a front end: it prints.
 */
#include "config.h"

#include <getopt.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "channel.h"
#include "dapto.h"
#include "recorder.h"
#include "recwrite.h"
#include "registry.h"
#include "symnames.h"
#include "target.h"
#include "xmalloc.h"

struct recorder {
    struct channel *ch;
    struct target *t;
    struct recwrite *w;
    struct symnames *names;
    char **events;       /* --events, NULL-ended; NULL: every event */
    int functions;       /* --functions */
    int done;
    int status;          /* of the program, as batch mode says it */
    const char *dir;
    int flight;          /* --flight: dumped at a run-time error */
};

/* A size: bytes, or with a suffix k, M, G. */
static int recorder_size(const char *arg, size_t *out)
{
    char *end;
    unsigned long long v = strtoull(arg, &end, 10);

    if (end == arg)
        return -1;
    switch (*end) {
    case 'k': case 'K':
        v <<= 10;
        end++;
        break;
    case 'm': case 'M':
        v <<= 20;
        end++;
        break;
    case 'g': case 'G':
        v <<= 30;
        end++;
        break;
    }
    if (*end != '\0' || v == 0)
        return -1;
    *out = (size_t)v;
    return 0;
}

static const char *recorder_fname(void *arg, uint64_t addr)
{
    struct recorder *r = arg;
    size_t len;

    return symnames_name(r->names, addr, &len);
}

static unsigned int recorder_direct(void *arg, const struct reader_fn *fns,
                                    unsigned int n)
{
    return recwrite_functions(arg, fns, n);
}

static void recorder_scalars(void *arg, const struct reader_scalar *evs,
                             unsigned int n)
{
    recwrite_scalars(arg, evs, n);
}

/* Whether event E is one to record. */
static int recorder_wants(const struct recorder *r,
                          const struct registry_event *e)
{
    if (r->events == NULL)
        return 1;
    if (r->functions && strcmp(e->aspect->name, "dapto") == 0 &&
        (e->code == DAPTO_EV_ENTER || e->code == DAPTO_EV_LEAVE))
        return 1;
    for (char **p = r->events; *p != NULL; p++)
        if (registry_event_named(e, *p))
            return 1;
    return 0;
}

static void recorder_aspect(struct recorder *r,
                            const struct registry_aspect *a)
{
    char *cause = NULL;

    for (unsigned int i = 0; i < a->nevents; i++) {
        const struct registry_event *e = &a->events[i];

        if (channel_set_state(r->ch, e->code,
                              recorder_wants(r, e) ? DAPTO_STATE_RECORD : 0,
                              &cause) != 0) {
            fprintf(stderr, "noosa: %s\n", cause);
            free(cause);
            cause = NULL;
        }
    }
    /* the built-in aspect: its enter and leave can take the direct path */
    if (strcmp(a->name, "dapto") == 0 && a->event_base == 0)
        channel_direct(r->ch, recorder_direct, r->w);
}

static void recorder_drain(struct recorder *r)
{
    struct reader_item it;

    while (channel_next(r->ch, &it)) {
        if (it.kind == READER_ERROR) {
            fprintf(stderr, "noosa: %s\n", it.message);
            continue;
        }
        if (it.kind == READER_HELLO)
            symnames_reset(r->names, it.pid);
        recwrite_item(r->w, &it);
        if (it.kind == READER_ASPECT)
            recorder_aspect(r, it.aspect);
    }
    if (channel_status(r->ch) == CHANNEL_BROKEN)
        channel_let_go(r->ch);
}

static void recorder_target(struct recorder *r, const struct target_event *ev)
{
    char sig[32];

    switch (ev->kind) {
    case TARGET_EV_EXITED:
    case TARGET_EV_KILLED:
        /* the program is gone: everything it wrote is in the ring */
        do
            recorder_drain(r);
        while (channel_more(r->ch));
        if (channel_status(r->ch) == CHANNEL_WAITING)
            fprintf(stderr, "noosa: the program has no monitoring interface "
                    "(it does not use the dapto runtime)\n");
        recwrite_end(r->w, ev->kind == TARGET_EV_EXITED ? ev->status : 0,
                     ev->kind == TARGET_EV_KILLED ? ev->signo : 0);
        if (ev->kind == TARGET_EV_EXITED) {
            r->status = ev->status;
        } else {
            fprintf(stderr, "noosa: program killed by %s\n",
                    target_signal_name(ev->signo, sig, sizeof sig));
            r->status = 128 + ev->signo;
        }
        r->done = 1;
        break;
    case TARGET_EV_FAULT: {
        /* what the program wrote up to the fault; the other threads may
         * go on writing, so a bound */
        int rounds = 0;

        do
            recorder_drain(r);
        while (++rounds < 64 && channel_more(r->ch));
        if (r->flight) {
            char *cause = NULL;

            if (recwrite_dump(r->w, &cause) != 0) {
                fprintf(stderr, "noosa: %s\n", cause);
                free(cause);
            } else {
                fprintf(stderr, "noosa: %s in thread %d: the flight "
                        "recording is in %s\n",
                        target_signal_name(ev->signo, sig, sizeof sig),
                        (int)ev->tid, r->dir);
            }
        }
        target_fault_pass(r->t, ev->tid, NULL);
        break;
    }
    case TARGET_EV_INTERRUPTED:
        target_kill(r->t);
        break;
    case TARGET_EV_EXEC:
        recorder_drain(r);
        channel_forget(r->ch);
        fprintf(stderr, "noosa: the program executed another program: "
                "recording ended\n");
        break;
    default:
        break;
    }
}

static void recorder_usage(FILE *f)
{
    fprintf(f,
"Usage: noosa record [-o DIR] [--events=LIST] [--functions] [--flight=SIZE]\n"
"                    [--overwrite] [--shared-ring]\n"
"                    [--ring-size=BYTES] [--no-tsc] PROGRAM [ARG...]\n"
"Run PROGRAM with its events recorded to DIR (default noosa.rec), a CTF\n"
"trace directory; read it with `noosa dump DIR' or `noosa --replay DIR'.\n"
"\n"
"  -o, --output=DIR     the recording's directory (made; must be empty)\n"
"  --events=LIST        record only these events (names or ASPECT.NAME,\n"
"                       separated by commas); default: every event\n"
"  --functions          with --events: enter and leave too (and so the\n"
"                       functions of -finstrument-functions builds)\n"
"  --flight=SIZE        keep only about the last SIZE bytes (k, M, G) of\n"
"                       each thread's events, written when the program\n"
"                       hits a run-time error or ends\n"
"  --overwrite          never make the program wait: a full buffer (or\n"
"                       ring) loses events, counted in the recording\n"
"  --ring-size=BYTES    size of the event ring, and of each thread's own\n"
"                       buffer (a power of two; buffers of 4 KiB to 16 MiB)\n"
"  --shared-ring        every thread's records through the one ring (the\n"
"                       way of runtimes older than protocol 1.0.4)\n"
"  --no-tsc             CLOCK_MONOTONIC timestamps even with a usable TSC\n"
"Exit status: the program's (128+N when killed by signal N); 1 when it\n"
"could not be recorded.\n");
}

int recorder_main(int argc, char **argv)
{
    enum { OPT_EVENTS = 256, OPT_FUNCTIONS, OPT_OVERWRITE, OPT_RING,
           OPT_NO_TSC, OPT_FLIGHT, OPT_SHARED };
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},
        {"events", required_argument, NULL, OPT_EVENTS},
        {"functions", no_argument, NULL, OPT_FUNCTIONS},
        {"flight", required_argument, NULL, OPT_FLIGHT},
        {"overwrite", no_argument, NULL, OPT_OVERWRITE},
        {"ring-size", required_argument, NULL, OPT_RING},
        {"no-tsc", no_argument, NULL, OPT_NO_TSC},
        {"shared-ring", no_argument, NULL, OPT_SHARED},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    struct recorder r;
    struct channel_opts copts;
    struct target_opts topts;
    struct recwrite_opts wopts;
    const char *dir = "noosa.rec";
    char *list = NULL, *cause = NULL;
    char *env[2];
    int fds[2], c, rc = 1;
    size_t nev = 0, flight = 0;

    memset(&r, 0, sizeof r);
    memset(&copts, 0, sizeof copts);
    copts.thread_buffers = 1;
    optind = 1;
    while ((c = getopt_long(argc, argv, "+o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'o':
            dir = optarg;
            break;
        case OPT_EVENTS:
            list = optarg;
            break;
        case OPT_FUNCTIONS:
            r.functions = 1;
            break;
        case OPT_OVERWRITE:
            copts.overwrite = 1;
            break;
        case OPT_FLIGHT:
            if (recorder_size(optarg, &flight) != 0) {
                fprintf(stderr, "noosa: --flight wants a size (bytes, or "
                        "with k, M, G), got \"%s\"\n", optarg);
                return 2;
            }
            break;
        case OPT_RING: {
            char *end;
            unsigned long v = strtoul(optarg, &end, 10);

            if (*optarg == '\0' || *end != '\0' || v > 0x7fffffff) {
                fprintf(stderr, "noosa: --ring-size wants a number, got "
                        "\"%s\"\n", optarg);
                return 2;
            }
            copts.ring_size = (uint32_t)v;
            break;
        }
        case OPT_NO_TSC:
            copts.no_tsc = 1;
            break;
        case OPT_SHARED:
            copts.thread_buffers = 0;
            break;
        case 'h':
            recorder_usage(stdout);
            return 0;
        default:
            recorder_usage(stderr);
            return 2;
        }
    }
    if (optind >= argc) {
        fprintf(stderr, "noosa record: no program given\n");
        recorder_usage(stderr);
        return 2;
    }
    if (list != NULL) {
        for (char *w = strtok(list, ", "); w != NULL; w = strtok(NULL, ", ")) {
            r.events = xreallocarray(r.events, nev + 2, sizeof *r.events);
            r.events[nev++] = w;
            r.events[nev] = NULL;
        }
        if (r.events == NULL)
            r.events = xcalloc(1, sizeof *r.events);
    }

    memset(&wopts, 0, sizeof wopts);
    wopts.argv = argv + optind;
    wopts.overwrite = copts.overwrite;
    wopts.flight = flight;
    r.flight = flight > 0;
    r.dir = dir;
    wopts.function_name = recorder_fname;
    wopts.arg = &r;
    r.names = symnames_create();
    if (recwrite_open(&r.w, dir, &wopts, &cause) != 0)
        goto fail_open;

    copts.default_state = r.events == NULL ? DAPTO_STATE_RECORD : 0;
    if (channel_create(&r.ch, &copts, &cause) != 0)
        goto fail_channel;
    /* events of scalars straight from the ring and the buffers to the
     * writer, in batches */
    channel_direct_events(r.ch, recorder_scalars, r.w);
    env[0] = (char *)channel_env(r.ch);
    env[1] = NULL;
    channel_fds(r.ch, fds);
    memset(&topts, 0, sizeof topts);
    topts.argv = argv + optind;
    topts.env = env;
    topts.fd_in = topts.fd_out = topts.fd_err = -1;
    topts.keep_fds = fds;
    topts.nkeep = 2;
    if (target_start(&r.t, &topts, &cause) != 0)
        goto fail_target;
    channel_attach(r.ch, r.t);
    if (target_continue(r.t, &cause) != 0)
        goto fail_run;

    while (!r.done) {
        struct target_event ev;
        struct pollfd pfd[2];

        recorder_drain(&r);
        while (!r.done && target_poll(r.t, &ev))
            recorder_target(&r, &ev);
        if (r.done)
            break;
        if (channel_spin(r.ch))
            continue;
        if (!channel_sleep_prepare(r.ch))
            continue;
        pfd[0].fd = channel_fd(r.ch);
        pfd[0].events = POLLIN;
        pfd[1].fd = target_fd(r.t);
        pfd[1].events = POLLIN;
        poll(pfd, 2, 50);
        channel_sleep_finish(r.ch);
    }
    rc = r.status;
    fprintf(stderr, "noosa: recorded %llu events in %s",
            (unsigned long long)recwrite_events(r.w), dir);
    if (channel_buffered(r.ch) > 0)
        fprintf(stderr, " (%llu through the threads' own buffers)",
                (unsigned long long)channel_buffered(r.ch));
    if (channel_lost(r.ch) > 0)
        fprintf(stderr, "; %llu lost", (unsigned long long)channel_lost(r.ch));
    fprintf(stderr, "\n");
    channel_attach(r.ch, NULL);
    target_free(r.t);
    channel_free(r.ch);
    if (recwrite_close(r.w, &cause) != 0) {
        fprintf(stderr, "noosa: %s\n", cause);
        free(cause);
        rc = 1;
    }
    symnames_free(r.names);
    free(r.events);
    return rc;

fail_run:
    channel_attach(r.ch, NULL);
    target_free(r.t);
fail_target:
    channel_free(r.ch);
fail_channel:
    recwrite_close(r.w, NULL);
fail_open:
    fprintf(stderr, "noosa: %s\n", cause);
    free(cause);
    symnames_free(r.names);
    free(r.events);
    return 1;
}
