/* SPDX-License-Identifier: MIT */
/*
 * dump.c - `noosa dump DIR`: a recording's events as text, one a line, in
 * time order (the cheap dumper the telemetry design asks for), chosen by
 * number or time (--from, --to), by name (--events) and by thread
 * (--thread).  Also the exports of a recording (--chrome, --perfetto).
 * What could not be read is said on standard error as it is met.
 *
 * Line format (numbers count the events alone, from 1, as goto takes
 * them <design#event-numbers>; times are ns since the start of the run):
 *     N TIME thread=TID NAME PARAM=VALUE ... [truncated]
 *     N TIME thread=TID function-enter|function-leave function=NAME
 *     # COMMENT  (the recording, the program, aspects, losses, its end)
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "dump.h"
#include "export.h"
#include "recread.h"
#include "value.h"
#include "xmalloc.h"

struct dump {
    const char *dir;
    int64_t from_ns, to_ns;  /* INT64_MIN / MAX: none */
    uint64_t from_n, to_n;
    char **events;           /* NULL: every event */
    long thread;             /* 0: every thread */
};

static void dump_note(void *arg, const char *text)
{
    fprintf(stderr, "noosa: %s: %s\n", (const char *)arg, text);
}

/* A bound: a number of events, or a time with a unit (ns, us, ms, s). */
static int dump_bound(const char *arg, uint64_t *n, int64_t *ns)
{
    char *end;

    if (*arg >= '0' && *arg <= '9' &&
        (strtoull(arg, &end, 10), *end == '\0')) {
        *n = strtoull(arg, NULL, 10);
        return 0;
    }
    return clock_parse(arg, ns);
}

static int dump_wants(const struct dump *d, const struct reader_item *it,
                      uint64_t seq)
{
    if (seq < d->from_n || seq > d->to_n || it->ns < d->from_ns ||
        it->ns > d->to_ns)
        return 0;
    if (d->thread != 0 && it->tid != d->thread)
        return 0;
    if (d->events != NULL) {
        const char *name = NULL;

        if (it->kind == READER_EVENT)
            name = it->event->name;
        else if (it->kind == READER_FUNCTION)
            name = it->enter ? "function-enter" : "function-leave";
        if (name == NULL)
            return 0;
        for (char **p = d->events; *p != NULL; p++)
            if ((it->kind == READER_EVENT &&
                 registry_event_named(it->event, *p)) ||
                strcmp(*p, name) == 0)
                return 1;
        return 0;
    }
    return 1;
}

/* A line of the dump, made before it is written at once (printf for
 * each of its parts took most of a dump's time). */
struct dline {
    char *buf;
    size_t len, cap;
};

/* Room for N more bytes. */
static inline char *dl_room(struct dline *l, size_t n)
{
    if (l->len + n > l->cap) {
        l->cap = 2 * (l->len + n) + 64;
        l->buf = xrealloc(l->buf, l->cap);
    }
    return l->buf + l->len;
}

static inline void dl_put(struct dline *l, const char *s, size_t n)
{
    memcpy(dl_room(l, n), s, n);
    l->len += n;
}

static void dl_str(struct dline *l, const char *s)
{
    dl_put(l, s, strlen(s));
}

/* V in decimal, as printf's %llu and %lld write it. */
static void dl_u64(struct dline *l, uint64_t v)
{
    static const char pairs[] = "00010203040506070809101112131415161718192021"
                                "22232425262728293031323334353637383940414243"
                                "44454647484950515253545556575859606162636465"
                                "66676869707172737475767778798081828384858687"
                                "888990919293949596979899";
    char t[20], *p = t + sizeof t;
    size_t n;

    while (v >= 100) {
        p -= 2;
        memcpy(p, pairs + 2 * (v % 100), 2);
        v /= 100;
    }
    if (v >= 10) {
        p -= 2;
        memcpy(p, pairs + 2 * v, 2);
    } else {
        *--p = (char)('0' + v);
    }
    n = (size_t)(t + sizeof t - p);
    memcpy(dl_room(l, n), p, n);
    l->len += n;
}

static void dl_i64(struct dline *l, int64_t v)
{
    if (v < 0)
        dl_put(l, "-", 1);
    dl_u64(l, v < 0 ? -(uint64_t)v : (uint64_t)v);
}

/* "SEQ TIME thread=TID NAME" */
static void dl_head(struct dline *l, const struct reader_item *it,
                    uint64_t seq, const char *name)
{
    l->len = 0;
    dl_u64(l, seq);
    dl_put(l, " ", 1);
    dl_i64(l, it->ns);
    dl_put(l, " thread=", 8);
    dl_i64(l, it->tid);
    dl_put(l, " ", 1);
    dl_str(l, name);
}

static void dump_item(struct recread *r, const struct reader_item *it,
                      uint64_t seq, struct dline *l)
{
    switch (it->kind) {
    case READER_EVENT: {
        const struct registry_event *e = it->event;

        dl_head(l, it, seq, e->name);
        for (unsigned int i = 0; i < e->nparams; i++) {
            const struct decode_value *v = &it->values[i];

            dl_put(l, " ", 1);
            dl_str(l, e->params[i].name);
            dl_put(l, "=", 1);
            if (i >= it->nvalues) {
                dl_str(l, "<missing>");
            } else if (v->kind == DAPTO_K_INT) {
                dl_i64(l, (int)v->u.i);
            } else if (v->kind == DAPTO_K_LONG) {
                dl_i64(l, (long long)v->u.l);
            } else {
                char *t = value_text(v);

                dl_str(l, t);
                free(t);
            }
        }
        if (it->truncated)
            dl_str(l, " [truncated]");
        dl_put(l, "\n", 1);
        fwrite(l->buf, 1, l->len, stdout);
        break;
    }
    case READER_FUNCTION: {
        uint32_t len;
        const char *name = recread_item_function(r, &len);

        dl_head(l, it, seq, it->enter ? "function-enter" : "function-leave");
        dl_put(l, " function=", 10);
        if (name != NULL) {
            dl_put(l, name, len);
            dl_put(l, "\n", 1);
            fwrite(l->buf, 1, l->len, stdout);
        } else {
            fwrite(l->buf, 1, l->len, stdout);
            printf("0x%llx\n", (unsigned long long)it->function);
        }
        break;
    }
    case READER_HELLO:
        printf("# hello pid=%d\n", (int)it->pid);
        break;
    case READER_ASPECT:
        printf("# aspect %s: %u event%s\n", it->aspect->name,
               it->aspect->nevents, it->aspect->nevents == 1 ? "" : "s");
        break;
    case READER_LOST:
        printf("# lost %llu events\n", (unsigned long long)it->lost);
        break;
    default:
        break;
    }
}

static void dump_usage(FILE *f)
{
    fprintf(f,
"Usage: noosa dump [--from=WHEN] [--to=WHEN] [--events=LIST] [--thread=TID]\n"
"                  [--chrome=FILE] [--perfetto=FILE] DIR\n"
"Print the events of the recording DIR, one a line, in time order.\n"
"\n"
"  --from=WHEN, --to=WHEN  the first and last event to print: its number\n"
"                       (events are numbered from 1, as goto takes them)\n"
"                       or a time since the start with its unit (ns, us,\n"
"                       ms, s)\n"
"  --events=LIST        only these events (names, comma-separated;\n"
"                       function-enter, function-leave for functions)\n"
"  --thread=TID         only this thread's events\n"
"  --chrome=FILE        write the events as Chrome trace JSON instead\n"
"  --perfetto=FILE      write them as a Perfetto protobuf trace instead\n");
}

int dump_main(int argc, char **argv)
{
    enum { OPT_FROM = 256, OPT_TO, OPT_EVENTS, OPT_THREAD, OPT_CHROME,
           OPT_PERFETTO };
    static const struct option longopts[] = {
        {"from", required_argument, NULL, OPT_FROM},
        {"to", required_argument, NULL, OPT_TO},
        {"events", required_argument, NULL, OPT_EVENTS},
        {"thread", required_argument, NULL, OPT_THREAD},
        {"chrome", required_argument, NULL, OPT_CHROME},
        {"perfetto", required_argument, NULL, OPT_PERFETTO},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    struct dump d;
    struct recread *r;
    struct recread_opts ro;
    struct reader_item it;
    struct dline line = {NULL, 0, 0};
    uint64_t seq, num, from = 0;
    char *cause = NULL, *list = NULL;
    const char *chrome = NULL, *perfetto = NULL;
    size_t nev = 0;
    int c, status, signo;

    memset(&d, 0, sizeof d);
    d.from_ns = INT64_MIN;
    d.to_ns = INT64_MAX;
    d.to_n = UINT64_MAX;
    optind = 1;
    while ((c = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_FROM:
        case OPT_TO:
            if (dump_bound(optarg, c == OPT_FROM ? &d.from_n : &d.to_n,
                           c == OPT_FROM ? &d.from_ns : &d.to_ns) != 0) {
                fprintf(stderr, "noosa dump: --%s wants a number of events "
                        "or a time with its unit (ns, us, ms, s), got "
                        "\"%s\"\n", c == OPT_FROM ? "from" : "to", optarg);
                return 2;
            }
            break;
        case OPT_EVENTS:
            list = optarg;
            break;
        case OPT_THREAD: {
            char *end;

            d.thread = strtol(optarg, &end, 10);
            if (*optarg == '\0' || *end != '\0' || d.thread <= 0) {
                fprintf(stderr, "noosa dump: --thread wants a thread id, "
                        "got \"%s\"\n", optarg);
                return 2;
            }
            break;
        }
        case OPT_CHROME:
            chrome = optarg;
            break;
        case OPT_PERFETTO:
            perfetto = optarg;
            break;
        case 'h':
            dump_usage(stdout);
            return 0;
        default:
            dump_usage(stderr);
            return 2;
        }
    }
    if (optind + 1 != argc) {
        fprintf(stderr, "noosa dump: %s\n",
                optind >= argc ? "no recording given" : "one recording only");
        dump_usage(stderr);
        return 2;
    }
    d.dir = argv[optind];
    if (list != NULL) {
        for (char *w = strtok(list, ", "); w != NULL; w = strtok(NULL, ", ")) {
            d.events = xreallocarray(d.events, nev + 2, sizeof *d.events);
            d.events[nev++] = w;
            d.events[nev] = NULL;
        }
    }
    memset(&ro, 0, sizeof ro);
    ro.note = dump_note;
    ro.arg = (void *)d.dir;
    /* one pass: an index kept is used, none is made */
    ro.index = RECREAD_INDEX_USE;
    if (recread_open(&r, d.dir, &ro, &cause) != 0) {
        fprintf(stderr, "noosa: %s\n", cause);
        free(cause);
        free(d.events);
        return 1;
    }
    if (chrome != NULL || perfetto != NULL) {
        uint64_t n = 0;
        int rc = 0;

        if (chrome != NULL) {
            if (export_recording(r, EXPORT_CHROME, chrome, &n, &cause) != 0)
                rc = 1;
            else
                printf("Wrote %llu events to %s (Chrome trace JSON).\n",
                       (unsigned long long)n, chrome);
        }
        if (rc == 0 && perfetto != NULL) {
            if (export_recording(r, EXPORT_PERFETTO, perfetto, &n, &cause) !=
                0)
                rc = 1;
            else
                printf("Wrote %llu events to %s (Perfetto trace).\n",
                       (unsigned long long)n, perfetto);
        }
        if (rc != 0) {
            fprintf(stderr, "noosa: %s\n", cause);
            free(cause);
        }
        recread_free(r);
        free(d.events);
        return rc;
    }
    {
        const char *prog = recread_env(r, "program");
        char *p = xstrdup(prog != NULL ? prog : "?");
        const char *args = recread_env(r, "args");

        printf("# recording of %s%s%s, format %s\n", p,
               args != NULL && *args != '\0' ? " " : "",
               args != NULL ? args : "", recread_version(r));
        free(p);
    }
    /* <design#recordings>: with an index, from where --from says (its
     * event's item; past the last, the end) */
    if (d.from_n > 1) {
        from = recread_event_seq(r, d.from_n);
        if (from == UINT64_MAX)
            from = UINT64_MAX - 1;
        recread_seek(r, from);
    }
    if (d.from_ns > 0 && recread_indexed(r) &&
        recread_seek_time(r, (uint64_t)d.from_ns) < from)
        recread_seek(r, from);
    /* <design#event-numbers>: the events before where the reading
     * starts (asked only when it starts past the first item, so that a
     * whole dump reads the recording once) */
    num = recread_position(r) > 0
              ? recread_event_number(r, recread_position(r) - 1)
              : 0;
    while (recread_next(r, &it, &seq)) {
        /* an item that is not an event goes with the event after it */
        uint64_t at = recread_is_event(&it) ? ++num : num + 1;

        /* (the times of an indexed recording never go back) */
        if (at > d.to_n || (it.ns > d.to_ns && recread_indexed(r)))
            break;
        if (dump_wants(&d, &it, at))
            dump_item(r, &it, at, &line);
    }
    free(line.buf);
    if (recread_ended(r, &status, &signo)) {
        if (signo > 0)
            printf("# the program was killed by signal %d\n", signo);
        else
            printf("# the program exited with status %d\n", status);
    } else {
        printf("# the recording does not say how the program ended\n");
    }
    if (recread_lost(r) > 0)
        printf("# %llu events lost in all\n",
               (unsigned long long)recread_lost(r));
    if (recread_dropped(r) > 0)
        printf("# a flight recording: %llu earlier events not kept\n",
               (unsigned long long)recread_dropped(r));
    fflush(stdout);
    recread_free(r);
    free(d.events);
    return 0;
}
