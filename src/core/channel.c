/* SPDX-License-Identifier: MIT */
/*
 * channel.c - the monitor's end of the channel <protocol#activate>.
 *
 * The region, ring consumer and mailbox primitives are the channel library
 * (lib/channel/region.h, lib/channel/ring.h, lib/channel/mailbox.h); records are validated and
 * decoded by the reader.  This module adds what needs the program's
 * process: the version check <protocol#version>, state bytes written with
 * process-memory writes <protocol#states>, acknowledgement of aspects
 * <protocol#ack>, and operations at stops <protocol#stop>, during which
 * ptrace stops are still handled.  The region is never trusted after the
 * program starts: the geometry used is the private copy made at creation.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "channel.h"
#include "clock.h"
#include "cond.h"
#include "filter.h"
#include "futex.h"
#include "qarea.h"
#include "relarea.h"
#include "dapto.h"
#include "mailbox.h"
#include "protocol.h"
#include "reader.h"
#include "region.h"
#include "ring.h"
#include "target.h"
#include "tbuf.h"
#include "ttrail.h"
#include "trail.h"
#include "xmalloc.h"

/* Function records handed to the direct path at a time, and in one call
 * of channel_next() at most. */
#define CHANNEL_DIRECT_BATCH 256
#define CHANNEL_DIRECT_MAX 65536
/* How long interrupting an operation that did not answer may take. */
#define CHANNEL_INTERRUPT_MS 2000
/* Thread buffers offered (<protocol#tbuf>), their largest size, and how
 * often their owners are looked for at most (ns). */
#define CHANNEL_TBUFS 64
#define CHANNEL_TBUF_MAX (16u << 20)
#define CHANNEL_TBUF_SCAN 10000000u
/* The ring's items given in a row before the thread buffers get a turn. */
#define CHANNEL_RING_STREAK 64

struct channel {
    struct region region;
    struct ring ring;
    struct clock clock;
    struct registry *reg;
    struct reader *reader;
    struct target *target;
    unsigned char default_state;
    char env[64];
    long ncpu; /* online CPUs: spinning only pays with more than one */

    enum channel_status status;
    char version[48];
    int broken_told; /* the BROKEN or UNMONITORED item was given */
    int let_go;      /* channel_let_go() was done */
    char *message;

    unsigned char *rec; /* DAPTO_RECORD_MAX bytes */
    channel_sink sink;  /* the direct path, when on */
    void *sink_arg;
    channel_esink esink; /* its events of scalars, when on */
    void *esink_arg;
    uint64_t direct_count; /* records the sink took */
    int may_sleep; /* channel_sleep_prepare() said the caller may sleep */
    int flood; /* the direct path caught up with a program writing
                  function records (or enter/leave) flat out */
    uint32_t aspects_seen; /* ASPECT records, good or bad */
    uint32_t aspects_acked;
    char *pending_error; /* an error to give as the next item */
    uint64_t lost;
    /* channel_more(): the ring's position and losses reported at its
     * last "yes" */
    uint64_t more_ctail, more_lost;

    /* the last events taken, kept for the post-mortem (channel_keep) */
    unsigned char *kept;    /* keep_n slots of DAPTO_TRAIL_SLOT bytes */
    unsigned int keep_n;
    uint64_t kept_next;     /* events kept so far */

    /* stops: for each mailbox, the order in which it stopped (0: none),
     * and whether its thread still runs an operation that did not
     * answer and could not be interrupted */
    uint64_t *stopped;
    unsigned char *busy;
    uint64_t stop_clock;

    /* filters <protocol#filter>: the area as noosa fills it, or why there
     * is none */
    struct filter_space fspace;
    struct filter_entry *fentries;
    const char *no_filters;

    /* questions <protocol#question>: the area as noosa fills it, or why
     * there is none */
    struct qarea qarea;
    const char *no_questions;

    /* relations <protocol#relate>: the area as noosa fills it, or why
     * there is none */
    struct relarea relarea;
    const char *no_relations;

    /* thread buffers <protocol#tbuf>: the area (count 0: none), noosa's
     * end of each buffer, where the next look starts, what was taken from
     * them, and when their owners were last looked for */
    struct tbuf_area tb;
    struct tbuf_cons *tbc;
    uint32_t tb_next;
    uint64_t tb_records;
    uint64_t tb_progress; /* records and losses taken, for channel_more */
    uint64_t more_tb;
    uint64_t tb_scan;
    unsigned int ring_streak; /* the ring's items given in a row */
    /* threads' own trails <protocol#ttrail> (count 0: none), and how
     * many had owners at the last look */
    struct ttrail_area tt;
    unsigned int tb_streak;   /* the thread buffers' items in a row */

    /* operation results */
    unsigned char *res_data;
    struct decode_value *res_values;
    unsigned int res_avalues;
    char res_message[sizeof(((struct dapto_mailbox *)0)->message) + 1];
};

int channel_create(struct channel **out, const struct channel_opts *opts,
                   char **cause)
{
    return channel_adopt(out, opts, -1, -1, cause);
}

int channel_adopt(struct channel **out, const struct channel_opts *opts,
                  int memfd, int eventfd, char **cause)
{
    struct channel *ch = xcalloc(1, sizeof *ch);
    struct region_geom g;
    const char *why = NULL;
    int tsc;

    region_geom_default(&g);
    if (opts->ring_size != 0)
        g.ring_size = opts->ring_size;
    if (opts->thread_buffers) {
        /* <protocol#tbuf>: each buffer of the ring's size, within bounds */
        g.tb_count = CHANNEL_TBUFS;
        g.tb_size = g.ring_size < REGION_TBUF_MIN   ? REGION_TBUF_MIN
                    : g.ring_size > CHANNEL_TBUF_MAX ? CHANNEL_TBUF_MAX
                                                     : g.ring_size;
    }
    /* <protocol#ttrail>: slots for the events asked for, and the one
     * being written */
    while (g.tt_slots < REGION_TTRAIL_SLOTS_MAX &&
           g.tt_slots < (uint64_t)opts->trail_events + 1)
        g.tt_slots *= 2;
    tsc = !opts->no_tsc && clock_tsc_usable();
    g.flags = (tsc ? DAPTO_RF_TSC : 0) |
              (opts->overwrite ? DAPTO_RF_OVERWRITE : 0);
    if ((memfd < 0 ? region_create(&ch->region, &g, &why)
                   : region_adopt(&ch->region, &g, memfd, eventfd, &why)) != 0) {
        xcause(cause, "cannot create the channel: %s: %s", why,
               strerror(errno));
        free(ch);
        return -1;
    }
    ring_init(&ch->ring, &ch->region);
    tbuf_area_init(&ch->tb, &ch->region);
    ttrail_area_init(&ch->tt, &ch->region);
    ch->tbc = xcalloc(ch->tb.count + 1, sizeof *ch->tbc);
    for (uint32_t i = 0; i < ch->tb.count; i++)
        tbuf_cons_init(&ch->tb, i, &ch->tbc[i]);
    clock_init(&ch->clock, tsc);
    ch->reg = registry_create();
    ch->reader = reader_create(ch->reg, &ch->clock,
                               ch->region.geom.mbox_count);
    ch->default_state = opts->default_state;
    ch->ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    ch->more_ctail = UINT64_MAX;
    ch->status = CHANNEL_WAITING;
    ch->rec = xmalloc(DAPTO_RECORD_MAX);
    ch->res_data = xmalloc(DAPTO_MBOX_DATA);
    ch->stopped = xcalloc(ch->region.geom.mbox_count, sizeof *ch->stopped);
    ch->busy = xcalloc(ch->region.geom.mbox_count, 1);
    region_env(&ch->region, ch->env, sizeof ch->env);
    /* the directory covers the codes of the first aspects; events beyond
     * it have their conditions evaluated in noosa */
    ch->fentries = xcalloc(CHANNEL_FILTER_CODES, sizeof *ch->fentries);
    if (filter_space_init(&ch->fspace, &ch->region, CHANNEL_FILTER_CODES,
                          ch->fentries, &why) != 0)
        ch->no_filters = "the channel has no room for conditions";
    if (qarea_init(&ch->qarea, &ch->region, &why) != 0)
        ch->no_questions = why;
    if (relarea_init(&ch->relarea, &ch->region, &why) != 0)
        ch->no_relations = why;
    *out = ch;
    return 0;
}

void channel_free(struct channel *ch)
{
    if (ch == NULL)
        return;
    region_close(&ch->region);
    reader_free(ch->reader);
    registry_free(ch->reg);
    free(ch->rec);
    free(ch->res_data);
    free(ch->res_values);
    free(ch->stopped);
    free(ch->busy);
    free(ch->message);
    free(ch->pending_error);
    free(ch->kept);
    free(ch->fentries);
    free(ch->tbc);
    free(ch);
}

int channel_filters(const struct channel *ch, const char **why)
{
    struct dapto_region_id id;
    const char *no = ch->no_filters;

    if (no == NULL && (ch->let_go || ch->status == CHANNEL_BROKEN))
        no = "the program is no longer monitored";
    if (no == NULL && !region_runtime_id(&ch->region, &id))
        no = "the program has not attached yet";
    if (no == NULL && (id.rt_major != DAPTO_PROTO_MAJOR ||
                       id.rt_median != DAPTO_PROTO_MEDIAN || id.rt_minor < 2))
        no = "the program's runtime is older than conditions in the "
             "program (protocol 1.0.2)";
    if (why != NULL)
        *why = no;
    return no == NULL;
}

int channel_set_filter(struct channel *ch, const struct registry_event *ev,
                       unsigned char uncond, const struct cond_clause *cl,
                       unsigned int n, uint16_t checked, uint16_t passed,
                       char **cause)
{
    unsigned char blob[DAPTO_FILTER_MAX], kinds[DAPTO_FILTER_ARGS];
    unsigned int i, np = ev->nparams < DAPTO_FILTER_ARGS ? ev->nparams
                                                          : DAPTO_FILTER_ARGS;
    const char *no = NULL;
    char msg[160];
    int len;

    if (!channel_filters(ch, &no)) {
        xcause(cause, "%s", no);
        return -1;
    }
    if (ev->code >= CHANNEL_FILTER_CODES) {
        xcause(cause, "event %s comes too late in the interface for "
               "conditions in the program", ev->name);
        return -1;
    }
    len = cond_filter(uncond, checked, passed, cl, n, blob, sizeof blob,
                      cause);
    if (len < 0)
        return -1;
    for (i = 0; i < np; i++)
        kinds[i] = ev->params[i].kind;
    /* noosa's own filters are checked as the program will check them */
    if (filter_check(blob, (size_t)len, kinds, np, msg, sizeof msg) != 0) {
        xcause(cause, "a condition of event %s was compiled wrong: %s",
               ev->name, msg);
        return -1;
    }
    if (filter_put(&ch->fspace, ev->code, blob, (size_t)len, &no) != 0) {
        xcause(cause, "%s", no);
        return -1;
    }
    return 0;
}

void channel_clear_filter(struct channel *ch, unsigned int code)
{
    if (ch->no_filters == NULL && code < CHANNEL_FILTER_CODES &&
        ch->fentries[code].off != 0)
        filter_remove(&ch->fspace, code);
}

struct qarea *channel_questions(struct channel *ch, const char **why)
{
    struct dapto_region_id id;
    const char *no = ch->no_questions;

    if (no == NULL)
        channel_filters(ch, &no);
    if (no == NULL && region_runtime_id(&ch->region, &id) && id.rt_minor < 3)
        no = "the program's runtime is older than questions in the program "
             "(protocol 1.0.3)";
    if (why != NULL)
        *why = no;
    return no == NULL ? &ch->qarea : NULL;
}

struct relarea *channel_relations(struct channel *ch, const char **why)
{
    struct dapto_region_id id;
    const char *no = ch->no_relations;

    if (no == NULL)
        channel_filters(ch, &no);
    if (no == NULL && region_runtime_id(&ch->region, &id) &&
        (id.rt_minor < DAPTO_RELATE_MINOR ||
         __atomic_load_n(&ch->region.hdr->rt_region, __ATOMIC_ACQUIRE) == 0))
        no = "the program's runtime is older than components and derived "
             "events in the program (protocol 1.0.5)";
    if (why != NULL)
        *why = no;
    return no == NULL ? &ch->relarea : NULL;
}

uint64_t channel_relation_state(const struct channel *ch, unsigned int index)
{
    uint64_t base = __atomic_load_n(&ch->region.hdr->rt_region, __ATOMIC_ACQUIRE);

    if (base == 0 || index >= DAPTO_REL_DERIVED)
        return 0;
    return base + ch->region.geom.rel_off + relarea_state_off(index);
}

uint64_t channel_start(const struct channel *ch)
{
    return ch->clock.start_ns;
}

void channel_set_start(struct channel *ch, uint64_t start_ns)
{
    ch->clock.start_ns = start_ns;
}

double channel_ns_per_tick(const struct channel *ch)
{
    return ch->clock.ns_per_tick;
}

int64_t channel_ns(const struct channel *ch, uint64_t raw)
{
    return clock_ns(&ch->clock, raw);
}

const struct ttrail_area *channel_ttrails(const struct channel *ch)
{
    struct dapto_region_id id;

    if (ch->tt.count == 0 || ch->status != CHANNEL_ACTIVE ||
        !region_runtime_id(&ch->region, &id) || id.rt_minor < DAPTO_TTRAIL_MINOR)
        return NULL;
    return &ch->tt;
}

int channel_paths(const struct channel *ch)
{
    struct dapto_region_id id;

    return ch != NULL && region_runtime_id(&ch->region, &id) &&
           id.rt_minor >= DAPTO_PATH_MINOR;
}

void channel_kept_counts(const struct channel *ch, struct channel_kept_counts *k)
{
    memset(k, 0, sizeof *k);
    if (ch->status == CHANNEL_WAITING || ch->region.hdr == NULL)
        return;
    for (uint32_t i = 0; i < ch->tt.count; i++) {
        const struct dapto_ttrail *t = ttrail_at(&ch->tt, i);

        if (__atomic_load_n(&t->owner, __ATOMIC_RELAXED) == 0)
            continue;
        k->threads++;
        k->own += __atomic_load_n(&t->next, __ATOMIC_RELAXED);
        k->lost += __atomic_load_n(&t->lost, __ATOMIC_RELAXED);
    }
    k->shared = __atomic_load_n(&ch->region.hdr->trail_next, __ATOMIC_RELAXED);
    k->sent = __atomic_load_n(&ch->region.hdr->head, __ATOMIC_RELAXED);
    for (uint32_t i = 0; i < ch->tb.count; i++)
        k->sent += __atomic_load_n(&tbuf_at(&ch->tb, i)->head, __ATOMIC_RELAXED);
}

uint32_t channel_trails_taken(const struct channel *ch)
{
    if (ch->tt.count == 0 || ch->status != CHANNEL_ACTIVE)
        return 0;
    return __atomic_load_n(ch->tt.taken, __ATOMIC_RELAXED);
}

void channel_tick(struct channel *ch)
{
    uint64_t now = clock_monotonic_ns(), start = ch->clock.start_ns;
    uint32_t ms = (uint32_t)(now > start ? (now - start) / 1000000u : 0), old;

    if (ch->tt.count == 0 || ch->status != CHANNEL_ACTIVE)
        return;
    /* <protocol#ttrail>: never back (a thread taking a trail moves it on
     * by one) */
    old = __atomic_load_n(ch->tt.clock, __ATOMIC_RELAXED);
    while ((int32_t)(ms - old) > 0 &&
           !__atomic_compare_exchange_n(ch->tt.clock, &old, ms, 0,
                                        __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
}

uint64_t channel_counter(const struct channel *ch, uint16_t id)
{
    return id == DAPTO_CNT_NONE ? 0 : filter_counter(&ch->region, id);
}

const char *channel_env(const struct channel *ch)
{
    return ch->env;
}

void channel_fds(const struct channel *ch, int fds[2])
{
    fds[0] = ch->region.memfd;
    fds[1] = ch->region.eventfd;
}

void channel_attach(struct channel *ch, struct target *t)
{
    ch->target = t;
}

int channel_fd(const struct channel *ch)
{
    return ch->region.eventfd;
}

enum channel_status channel_status(const struct channel *ch)
{
    return ch->status;
}

const char *channel_runtime_version(const struct channel *ch)
{
    return ch->version[0] != '\0' ? ch->version : NULL;
}

struct registry *channel_registry(const struct channel *ch)
{
    return ch->reg;
}

uint64_t channel_lost(const struct channel *ch)
{
    return ch->lost;
}

const struct region *channel_region(const struct channel *ch)
{
    return &ch->region;
}

struct reader *channel_reader(struct channel *ch)
{
    return ch->reader;
}

void channel_direct(struct channel *ch, channel_sink sink, void *arg)
{
    ch->sink = sink;
    ch->sink_arg = arg;
}

void channel_direct_events(struct channel *ch, channel_esink sink, void *arg)
{
    ch->esink = sink;
    ch->esink_arg = arg;
}

uint64_t channel_direct_count(const struct channel *ch)
{
    return ch->direct_count;
}

/* Whether some thread buffer holds something not taken yet. */
static int channel_tbufs_ready(const struct channel *ch)
{
    for (uint32_t i = 0; i < ch->tb.count; i++)
        if (tbuf_ready(&ch->tb, i, &ch->tbc[i]))
            return 1;
    return 0;
}

/* Whether anything waits in the ring or a thread buffer. */
static int channel_ready(struct channel *ch)
{
    return ring_ready(&ch->ring) ||
           (ch->tb.count != 0 && channel_tbufs_ready(ch));
}

int channel_sleep_prepare(struct channel *ch)
{
    ch->may_sleep = 0;
    if (ch->pending_error != NULL || ch->aspects_acked != ch->aspects_seen)
        return 0;
    if (ch->status == CHANNEL_WAITING) {
        struct dapto_region_id id;
        if (region_runtime_id(&ch->region, &id))
            return 0;
    }
    if (ch->status == CHANNEL_ACTIVE && !ring_sleep_prepare(&ch->ring))
        return 0;
    if (ch->status == CHANNEL_ACTIVE && ch->tb.count != 0 &&
        channel_tbufs_ready(ch)) {
        /* (the flag is set and fenced: what the owners wrote after this
         * look wakes us once a quarter of a buffer, or the caller's
         * timeout does <protocol#tbuf>) */
        __atomic_store_n(&ch->region.hdr->consumer_sleeping, 0,
                         __ATOMIC_RELAXED);
        return 0;
    }
    ch->may_sleep = 1;
    return 1;
}

void channel_sleep_finish(struct channel *ch)
{
    /* Only after a sleep: otherwise the sleeping flag is clear already,
     * and a store to it, or a read of the eventfd, would cost a program
     * emitting flat out a cache line, us a system call.  (An eventfd
     * left written only wakes the next poll() at once.) */
    if (!ch->may_sleep)
        return;
    ch->may_sleep = 0;
    ring_sleep_finish(&ch->ring);
}

/* Wait a microsecond; then whether a record is committed at the ring's
 * tail (TBUFS 0) or a thread buffer holds something (TBUFS 1). */
static int channel_pause(struct channel *ch, int tbufs)
{
    uint64_t until = clock_monotonic_ns() + 1000;

    do {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    } while (clock_monotonic_ns() < until);
    return tbufs ? channel_tbufs_ready(ch) : ring_ready(&ch->ring);
}

/* channel_spin() while function records flood in: look once a
 * microsecond.  A reader that watches the very line the program is
 * writing slows both sides down (the line goes back and forth between
 * their CPUs at every record); one that comes back a little later takes
 * a batch of whole lines. */
static int channel_spin_flood(struct channel *ch)
{
    uint64_t start = clock_monotonic_ns(), look = start, now;

    cpu_say(&ch->region.hdr->monitor_cpu);
    for (unsigned int k = 0;; k++) {
        do {
#if defined(__x86_64__) || defined(__i386__)
            __builtin_ia32_pause();
#endif
            now = clock_monotonic_ns();
        } while (now - look < 1000);
        look = now;
        if (channel_ready(ch))
            return 1;
        if (now - start > 50000) {
            ch->flood = 0;
            return 0;
        }
        if (k % 16 == 15 && cpu_yield_pays(&ch->region.hdr->program_cpu))
            sched_yield();
    }
}

int channel_spin(struct channel *ch)
{
    uint64_t until = 0;

    if (ch->ncpu < 2 || ch->status != CHANNEL_ACTIVE ||
        ch->pending_error != NULL)
        return 0;
    /* (thread buffers: never at every pause, which would take their lines
     * from the threads writing them) */
    if (ch->flood || ch->tb.count != 0)
        return channel_spin_flood(ch);
    cpu_say(&ch->region.hdr->monitor_cpu);
    for (unsigned int k = 0;; k++) {
        if (ring_ready(&ch->ring))
            return 1;
        if (k % 64 == 63) {
            uint64_t now = clock_monotonic_ns();
            if (until == 0)
                until = now + 50000;
            else if (now > until)
                return 0;
            if (cpu_yield_pays(&ch->region.hdr->program_cpu))
                sched_yield();
        }
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    }
}

int channel_wait(struct channel *ch, int timeout_ms)
{
    struct pollfd pfd = {.fd = ch->region.eventfd, .events = POLLIN};
    int n;

    if (channel_spin(ch))
        return 1;
    if (!channel_sleep_prepare(ch))
        return 1;
    n = poll(&pfd, 1, timeout_ms);
    channel_sleep_finish(ch);
    return n > 0;
}

int channel_set_state(struct channel *ch, unsigned int code,
                      unsigned char state, char **cause)
{
    struct registry_event *e = registry_event(ch->reg, code);
    char *why = NULL;

    if (e == NULL) {
        xcause(cause, "no event with code %u", code);
        return -1;
    }
    if (e->state == state || ch->let_go)
        return 0; /* (let go: nothing reads the states any more) */
    if (ch->target == NULL) {
        xcause(cause, "the program is not running");
        return -1;
    }
    if (target_write(ch->target, e->state_addr, &state, 1, &why) != 0) {
        xcause(cause, "cannot set the state of event %s: %s", e->name, why);
        free(why);
        return -1;
    }
    e->state = state;
    return 0;
}

unsigned char channel_state(const struct channel *ch, unsigned int code)
{
    struct registry_event *e = registry_event(ch->reg, code);

    return e != NULL ? e->state : 0;
}

/* Compare the runtime's version with ours <protocol#version>. */
static int channel_check_version(struct channel *ch, struct reader_item *item)
{
    struct dapto_region_id id;

    if (!region_runtime_id(&ch->region, &id))
        return 0;
    snprintf(ch->version, sizeof ch->version, "%u.%u.%u", id.rt_major,
             id.rt_median, id.rt_minor);
    if (id.rt_major == DAPTO_PROTO_MAJOR &&
        id.rt_median == DAPTO_PROTO_MEDIAN) {
        /* <design#clock>: the run's rate, before any of its records is
         * converted or the rate handed to the program */
        clock_fix(&ch->clock);
        ch->status = CHANNEL_ACTIVE;
        return 0;
    }
    ch->status = CHANNEL_UNMONITORED;
    free(ch->message);
    ch->message = xasprintf("program's runtime speaks protocol %s; this "
                            "noosa speaks %u.%u.%u: the program runs "
                            "unmonitored",
                            ch->version, DAPTO_PROTO_MAJOR,
                            DAPTO_PROTO_MEDIAN, DAPTO_PROTO_MINOR);
    item->kind = READER_ERROR;
    item->message = ch->message;
    return 1;
}

/* A new aspect: write the default state of each of its events. */
static void channel_new_aspect(struct channel *ch, struct registry_aspect *a)
{
    char *why = NULL;

    if (ch->default_state == 0)
        return;
    for (unsigned int i = 0; i < a->nevents; i++) {
        if (channel_set_state(ch, a->events[i].code, ch->default_state,
                              &why) != 0 &&
            ch->pending_error == NULL) {
            ch->pending_error = xasprintf("protocol error: aspect %s: %s",
                                          a->name, why);
        }
    }
    free(why);
}

/* The last acknowledgement goes out once the caller has seen the
 * aspect's item (and maybe set states). */
static void channel_ack(struct channel *ch)
{
    if (ch->aspects_acked != ch->aspects_seen) {
        ch->aspects_acked = ch->aspects_seen;
        region_ack(&ch->region, ch->aspects_acked);
    }
}

/* Whether the record REC (at least a header) is an event's: the events of
 * aspects, and the function records. */
static int is_event_record(const unsigned char *rec)
{
    const struct dapto_record *h = (const struct dapto_record *)(const void *)rec;
    uint16_t code = h->code;

    return code < DAPTO_REC_FIRST || code == DAPTO_REC_FNENTER ||
           code == DAPTO_REC_FNLEAVE;
}

/* Copy the record REC of SIZE bytes into SLOT (DAPTO_TRAIL_SLOT bytes: the
 * kept record's size in the first 8, then the record, cut as the trail
 * cuts it <protocol#trail>). */
static void copy_slot(unsigned char *slot, const unsigned char *rec,
                      uint32_t size)
{
    struct dapto_record h;
    uint64_t bytes;

    memcpy(&h, rec, sizeof h);
    if (h.len > size - DAPTO_RECORD_HEADER)
        h.len = size - DAPTO_RECORD_HEADER; /* (the reader says what is
                                               wrong with it) */
    bytes = trail_cut(&h);
    h.size = (uint32_t)bytes;
    memcpy(slot, &bytes, 8);
    memcpy(slot + 8, &h, sizeof h);
    memcpy(slot + 8 + DAPTO_RECORD_HEADER, rec + DAPTO_RECORD_HEADER,
           (size_t)bytes - DAPTO_RECORD_HEADER);
}

/* Keep the event record REC of SIZE bytes, just taken, among the last. */
static inline void keep(struct channel *ch, const unsigned char *rec,
                        uint32_t size)
{
    if (ch->keep_n == 0)
        return;
    copy_slot(ch->kept + (ch->kept_next % ch->keep_n) * DAPTO_TRAIL_SLOT,
              rec, size);
    ch->kept_next++;
}

void channel_inject(struct channel *ch, void *rec, size_t size,
                    struct reader_item *item)
{
    struct dapto_record *h = rec;

    h->time = clock_raw(&ch->clock);
    keep(ch, rec, (uint32_t)size);
    reader_record(ch->reader, rec, size, NULL, 0, item);
}

void channel_keep(struct channel *ch, unsigned int n)
{
    if (ch->ring.overwrite)
        n = 0; /* the program keeps them all in its trail */
    if (n == ch->keep_n)
        return;
    free(ch->kept);
    ch->kept = n != 0 ? xcalloc(n, DAPTO_TRAIL_SLOT) : NULL;
    ch->keep_n = n;
    ch->kept_next = 0;
}

void channel_kept(const struct channel *ch,
                  void (*fn)(void *arg, const unsigned char *rec,
                             uint32_t size),
                  void *arg)
{
    uint64_t i, first;
    uint32_t size;
    const unsigned char *rec;
    int committed;

    first = ch->kept_next > ch->keep_n ? ch->kept_next - ch->keep_n : 0;
    for (i = first; i < ch->kept_next; i++) {
        const unsigned char *slot =
            ch->kept + (i % ch->keep_n) * DAPTO_TRAIL_SLOT;
        uint64_t bytes;

        memcpy(&bytes, slot, 8);
        fn(arg, slot + 8, (uint32_t)bytes);
    }
    /* and those the program wrote that are not taken yet */
    if (ch->status != CHANNEL_ACTIVE || ch->keep_n == 0)
        return;
    for (i = ch->ring.ctail;
         (rec = ring_peek(&ch->ring, i, &size, &committed)) != NULL;
         i += size) {
        if (is_event_record(rec)) {
            _Alignas(8) unsigned char slot[DAPTO_TRAIL_SLOT];
            uint64_t bytes;

            copy_slot(slot, rec, size);
            memcpy(&bytes, slot, 8);
            fn(arg, slot + 8, (uint32_t)bytes);
        }
    }
}

/* Whether REC (SIZE bytes) is a function record for the direct path
 * (enter or leave, its name an address or interned); if so, FN says it. */
static inline int channel_fn(const struct channel *ch,
                             const unsigned char *rec,
                             uint32_t size, const struct reader_time *t,
                             struct reader_fn *fn)
{
    return size == READER_FN_SIZE
               ? reader_function(rec, t, fn)
               : size == READER_NAMED_SIZE && reader_maybe_named(rec) &&
                     reader_named(ch->reader, rec, t, fn);
}

/* What the direct path makes of REC (SIZE bytes): CHANNEL_D_FN, a
 * function record for the sink (in *FN); CHANNEL_D_EV, an event of
 * scalars for the event sink (in *EV); 0, a record for the general way. */
enum { CHANNEL_D_FN = 1, CHANNEL_D_EV = 2 };

static inline int channel_direct_kind(const struct channel *ch,
                                      const unsigned char *rec, uint32_t size,
                                      const struct reader_time *t,
                                      struct reader_fn *fn,
                                      struct reader_scalar *ev)
{
    if (ch->sink != NULL && channel_fn(ch, rec, size, t, fn))
        return CHANNEL_D_FN;
    if (ch->esink != NULL && reader_scalar_event(ch->reader, rec, size, t, ev))
        return CHANNEL_D_EV;
    return 0;
}

/* Hand a run of N events of scalars (records RECS of SIZES bytes) to the
 * event sink, which takes them all. */
static void channel_give_events(struct channel *ch, const struct reader_scalar *evs,
                                const unsigned char *const *recs,
                                const uint32_t *sizes, unsigned int n)
{
    ch->esink(ch->esink_arg, evs, n);
    for (unsigned int j = n > ch->keep_n ? n - ch->keep_n : 0; j < n; j++)
        keep(ch, recs[j], sizes[j]);
    ch->direct_count += n;
}

/*
 * The direct path: hand the function records (and enter/leave events with
 * interned names) at the tail to the sink, in batches, reading them where
 * they are in the ring (lossless mode, records that do not wrap).
 * Returns 1 when the record at the tail, if any, is for the general way
 * (another kind, a wrapped or malformed one, losses to report, or the
 * sink took no more), 0 when there is nothing now or enough was taken for
 * one call (*TAKEN counts them; the ring stays ready then, and the
 * caller's other work gets a turn).
 */
static int channel_take_direct(struct channel *ch, unsigned int *taken)
{
    struct reader_fn fns[CHANNEL_DIRECT_BATCH];
    struct reader_scalar evs[CHANNEL_DIRECT_BATCH];
    const unsigned char *recs[CHANNEL_DIRECT_BATCH];
    uint32_t sizes[CHANNEL_DIRECT_BATCH];
    struct reader_time t;
    const unsigned char *rec;
    unsigned int k, took, i;
    uint64_t pos, bytes;
    uint32_t size;
    int committed, kind, d;

    reader_time_init(&t, &ch->clock);
    for (;;) {
        if (ring_lost_pending(&ch->ring))
            return 1;
        pos = ch->ring.ctail;
        committed = 1;
        /* a run of records of one kind */
        for (k = 0, kind = 0, d = 0; k < CHANNEL_DIRECT_BATCH; k++) {
            rec = ring_peek(&ch->ring, pos, &size, &committed);
            if (rec == NULL ||
                (d = channel_direct_kind(ch, rec, size, &t, &fns[k], &evs[k])) == 0 ||
                (kind != 0 && d != kind))
                break;
            kind = d;
            recs[k] = rec;
            sizes[k] = size;
            pos += size;
        }
        if (k > 0 && kind == CHANNEL_D_EV) {
            channel_give_events(ch, evs, recs, sizes, k);
            ring_skip(&ch->ring, pos - ch->ring.ctail);
            *taken += k;
        } else if (k > 0) {
            took = ch->sink(ch->sink_arg, fns, k);
            /* only the last of a batch can be among the last kept */
            for (i = took > ch->keep_n ? took - ch->keep_n : 0; i < took;
                 i++)
                keep(ch, recs[i], fns[i].name != NULL ? READER_NAMED_SIZE
                                                      : READER_FN_SIZE);
            if (took == k) {
                bytes = pos - ch->ring.ctail;
            } else {
                for (i = 0, bytes = 0; i < took; i++)
                    bytes += fns[i].name != NULL ? READER_NAMED_SIZE
                                                 : READER_FN_SIZE;
            }
            ring_skip(&ch->ring, bytes);
            *taken += took;
            ch->direct_count += took;
            if (took < k) {
                ch->sink = NULL;
                return 1;
            }
        }
        if (k == CHANNEL_DIRECT_BATCH || (rec != NULL && d != 0)) {
            /* (a full batch, or a run of the other kind next) */
            if (*taken >= CHANNEL_DIRECT_MAX)
                return 0;
            continue;
        }
        if (committed || ring_lost_pending(&ch->ring))
            return 1; /* for the general way */
        /* Caught up.  Look again a little later, not at the line the
         * program is writing; channel_spin() waits longer if need be. */
        ring_release(&ch->ring);
        if (k == 0 && !ch->flood)
            return 1; /* (not flooding: nothing to wait for) */
        ch->flood = 1;
        if (ch->ncpu < 2 || *taken >= CHANNEL_DIRECT_MAX ||
            !channel_pause(ch, 0))
            return 0;
    }
}

/* The record of SIZE bytes just taken into ch->rec to the direct path,
 * if it is for it and the sink takes it: 1, else 0. */
static int channel_give_direct(struct channel *ch, long size)
{
    struct reader_fn fn;
    struct reader_time t;

    reader_time_init(&t, &ch->clock);
    if (!(size == READER_FN_SIZE
              ? reader_function(ch->rec, &t, &fn)
              : size == READER_NAMED_SIZE && reader_maybe_named(ch->rec) &&
                    reader_named(ch->reader, ch->rec, &t, &fn)))
        return 0;
    if (ch->sink(ch->sink_arg, &fn, 1) == 1) {
        ch->direct_count++;
        keep(ch, ch->rec, (uint32_t)size);
        return 1;
    }
    ch->sink = NULL;
    return 0;
}

/* Thread buffers <protocol#tbuf>. */

static int channel_decode(struct channel *ch, size_t size,
                          struct reader_item *item);

/* Whether the ring may yet show a record it does not show now: one
 * reserved and not committed (its producer is writing it). */
static int channel_ring_busy(const struct channel *ch)
{
    return !ch->ring.overwrite &&
           __atomic_load_n(&ch->region.hdr->head, __ATOMIC_ACQUIRE) !=
               ch->ring.ctail;
}

/* Whether the record REC of SIZE bytes is an enter or leave whose name
 * is an intern id the reader does not know yet: its INTERN record is in
 * the ring, committed before the thread wrote REC but maybe behind a
 * record another thread has not committed yet. */
static int channel_unknown_id(const struct channel *ch,
                              const unsigned char *rec, uint32_t size)
{
    uint32_t id;

    if (size != READER_NAMED_SIZE || !reader_maybe_named(rec) ||
        rec[DAPTO_RECORD_HEADER] != DAPTO_K_ISTR)
        return 0;
    memcpy(&id, rec + DAPTO_RECORD_HEADER + 1, 4);
    return reader_intern(ch->reader, id) == NULL;
}

/* How channel_tbuf_take() left buffer I. */
enum channel_tb {
    CHANNEL_TB_DONE,  /* nothing more there now (or it waits for the ring) */
    CHANNEL_TB_ITEM,  /* *item is for the caller */
    CHANNEL_TB_ENOUGH /* enough taken for one call; more is there */
};

/* A corrupt thread buffer (WHY; SIZE the record's size when that is
 * what is wrong, else 0): the item that says so; reading stops. */
static enum channel_tb channel_tbuf_corrupt(struct channel *ch, uint32_t i,
                                            uint64_t pos, const char *why,
                                            uint32_t size,
                                            struct reader_item *item)
{
    char sizes[128] = "";

    if (size != 0)
        snprintf(sizes, sizeof sizes, " (%u bytes; records are %u to %u "
                 "bytes, a multiple of 8, within the buffer)", size,
                 DAPTO_RECORD_HEADER, ch->tb.max);
    memset(item, 0, sizeof *item);
    item->stop = -1;
    free(ch->message);
    ch->message = xasprintf(
        "protocol error: thread buffer %u (thread %u) is corrupt at "
        "position %llu: %s%s; monitoring stops here", (unsigned)i,
        (unsigned)__atomic_load_n(&tbuf_at(&ch->tb, i)->owner,
                                  __ATOMIC_RELAXED),
        (unsigned long long)pos, why, sizes);
    ch->status = CHANNEL_BROKEN;
    item->kind = READER_ERROR;
    item->message = ch->message;
    return CHANNEL_TB_ITEM;
}

/* Take from thread buffer I what its owner had written when this call
 * looked (not chasing a thread that writes on: the caller comes back a
 * little later for a batch of whole lines): function records (and
 * enter/leave with a known name) to the direct path in batches, the rest
 * as items; a thread's records come out in the order it wrote them. */
static enum channel_tb channel_tbuf_take(struct channel *ch, uint32_t i,
                                         struct reader_item *item,
                                         unsigned int *direct)
{
    struct tbuf_cons *c = &ch->tbc[i];
    struct reader_fn fns[CHANNEL_DIRECT_BATCH];
    struct reader_scalar evs[CHANNEL_DIRECT_BATCH];
    const unsigned char *recs[CHANNEL_DIRECT_BATCH];
    uint32_t sizes[CHANNEL_DIRECT_BATCH];
    uint64_t starts[CHANNEL_DIRECT_BATCH];
    struct reader_time t;
    const unsigned char *rec;
    const char *why;
    uint64_t pos, lost, last;
    uint32_t size;
    unsigned int k, took, j;
    int kind, d;

    /* One look at the owner's line (lost and head) when what the last
     * look saw is taken: each look takes the line from the thread
     * writing it. */
    if (c->ctail < c->upto)
        goto take;
    last = c->head;
    lost = tbuf_lost_new(&ch->tb, i, c);
    if (lost != 0) {
        /* <protocol#tbuf>: losses are said before the records after them */
        memset(item, 0, sizeof *item);
        item->stop = -1;
        item->kind = READER_LOST;
        item->code = DAPTO_REC_LOST;
        item->lost = lost;
        ch->lost += lost;
        ch->tb_progress++;
        return CHANNEL_TB_ITEM;
    }
    if ((why = tbuf_look(&ch->tb, i, c)) != NULL)
        return channel_tbuf_corrupt(ch, i, c->ctail, why, 0, item);
    if (c->head == c->ctail) {
        tbuf_release(&ch->tb, i, c);
        return CHANNEL_TB_DONE;
    }
    if (c->head != last) {
        /* The owner is writing: not the cache line it writes now (taking
         * it would cost the owner the line back at its next store); the
         * rest at the next look, or once it stops.  A head that moved is
         * progress for channel_more(). */
        ch->tb_progress++;
        if ((c->head & ~(uint64_t)63) > c->ctail)
            c->upto = c->head & ~(uint64_t)63;
    }
take:
    reader_time_init(&t, &ch->clock);
    pos = c->ctail;
    for (;;) {
        /* a batch for the direct path: a run of records of one kind */
        for (k = 0, kind = 0, d = 0;;) {
            rec = tbuf_peek(&ch->tb, i, c, pos, &size, &why);
            if (rec == NULL && why == NULL && size != 0) {
                pos += size; /* padding */
                continue;
            }
            if (rec == NULL || k == CHANNEL_DIRECT_BATCH ||
                (d = channel_direct_kind(ch, rec, size, &t, &fns[k], &evs[k])) == 0 ||
                (kind != 0 && d != kind))
                break;
            kind = d;
            recs[k] = rec;
            sizes[k] = size;
            starts[k] = pos;
            pos += size;
            k++;
        }
        if (k > 0 && kind == CHANNEL_D_EV) {
            channel_give_events(ch, evs, recs, sizes, k);
            ch->tb_records += k;
            ch->tb_progress += k;
            *direct += k;
        } else if (k > 0) {
            took = ch->sink(ch->sink_arg, fns, k);
            for (j = took > ch->keep_n ? took - ch->keep_n : 0; j < took; j++)
                keep(ch, recs[j], fns[j].name != NULL ? READER_NAMED_SIZE
                                                      : READER_FN_SIZE);
            ch->direct_count += took;
            ch->tb_records += took;
            ch->tb_progress += took;
            *direct += took;
            if (took < k) {
                tbuf_skip(&ch->tb, i, c, starts[took] - c->ctail);
                ch->sink = NULL;
                return CHANNEL_TB_ENOUGH; /* the rest as items */
            }
        }
        tbuf_skip(&ch->tb, i, c, pos - c->ctail);
        if (why != NULL)
            return channel_tbuf_corrupt(ch, i, pos, why, size, item);
        if (rec == NULL) {
            /* all that the last look allows: the next call looks again */
            c->upto = c->ctail;
            tbuf_release(&ch->tb, i, c);
            return CHANNEL_TB_DONE;
        }
        if (*direct >= CHANNEL_DIRECT_MAX)
            return CHANNEL_TB_ENOUGH;
        if (k == CHANNEL_DIRECT_BATCH || d != 0)
            continue; /* (a full batch, or a run of the other kind next) */
        /* one record for the general way */
        if (channel_unknown_id(ch, rec, size) &&
            (ring_ready(&ch->ring) || channel_ring_busy(ch)))
            return CHANNEL_TB_DONE; /* after the ring's INTERN */
        memcpy(ch->rec, rec, size);
        if (((const struct dapto_record *)(const void *)ch->rec)->flags &
            DAPTO_RECF_STOP)
            return channel_tbuf_corrupt(ch, i, pos,
                                        "a record there says it stops", 0,
                                        item);
        tbuf_skip(&ch->tb, i, c, size);
        pos += size;
        ch->tb_records++;
        ch->tb_progress++;
        if (channel_decode(ch, size, item))
            return CHANNEL_TB_ITEM;
    }
}

/* Free the buffers whose owners are gone once everything they wrote is
 * taken, looking at most every CHANNEL_TBUF_SCAN. */
static void channel_tbufs_reclaim(struct channel *ch)
{
    uint64_t now = clock_monotonic_ns();
    pid_t pid;

    if (ch->target == NULL || now - ch->tb_scan < CHANNEL_TBUF_SCAN)
        return;
    ch->tb_scan = now;
    pid = target_pid(ch->target);
    for (uint32_t i = 0; i < ch->tb.count; i++) {
        uint32_t owner = __atomic_load_n(&tbuf_at(&ch->tb, i)->owner,
                                         __ATOMIC_ACQUIRE);

        if (owner != 0 &&
            syscall(SYS_tgkill, pid, (pid_t)owner, 0) != 0 && errno == ESRCH)
            tbuf_free(&ch->tb, i, &ch->tbc[i]);
    }
}

/* The next item from the thread buffers, once the ring had none: 1 with
 * *ITEM, 0 when they have nothing now or enough was taken for one call
 * (*DIRECT counts the direct path's records).  While the direct path
 * takes batches from threads that write flat out, it looks again a
 * microsecond after it caught up, rather than returning to the caller's
 * loop for so few records each time (as the ring's direct path does). */
static int channel_tbufs_next(struct channel *ch, struct reader_item *item,
                              unsigned int *direct)
{
    uint32_t n = ch->tb.count;

    for (;;) {
        unsigned int before = *direct;

        for (uint32_t k = 0; k < n; k++) {
            uint32_t i = (ch->tb_next + k) % n;

            switch (channel_tbuf_take(ch, i, item, direct)) {
            case CHANNEL_TB_DONE:
                continue;
            case CHANNEL_TB_ITEM:
                ch->tb_next = i;
                return 1;
            case CHANNEL_TB_ENOUGH:
                /* the next call starts with the next buffer: each gets
                 * a turn */
                ch->tb_next = (i + 1) % n;
                return 0;
            }
        }
        channel_tbufs_reclaim(ch);
        if (*direct == before || ch->ncpu < 2 ||
            *direct >= CHANNEL_DIRECT_MAX || ring_ready(&ch->ring) ||
            !channel_pause(ch, 1))
            return 0;
    }
}

uint64_t channel_buffered(const struct channel *ch)
{
    return ch->tb_records;
}

/* Decode the record of SIZE bytes in ch->rec into *ITEM and do what its
 * kind asks of the channel: 1 when the item is for the caller, 0 when
 * there is nothing to say (READER_NONE). */
static int channel_decode(struct channel *ch, size_t size,
                          struct reader_item *item)
{
    reader_record(ch->reader, ch->rec, size,
                  ch->region.hdr != NULL
                      ? (const unsigned char *)ch->region.hdr +
                            ch->region.geom.iface_off
                      : NULL,
                  ch->region.geom.iface_size, item);
    if (item->code == DAPTO_REC_ASPECT)
        ch->aspects_seen++;
    switch (item->kind) {
    case READER_NONE:
        return 0;
    case READER_HELLO:
        clock_anchor(&ch->clock,
                     __atomic_load_n(&ch->region.hdr->rt_tsc0,
                                     __ATOMIC_RELAXED),
                     __atomic_load_n(&ch->region.hdr->rt_ns0,
                                     __ATOMIC_RELAXED));
        item->ns = clock_ns(&ch->clock,
                            ((struct dapto_record *)ch->rec)->time);
        break;
    case READER_ASPECT:
        channel_new_aspect(ch, item->aspect);
        break;
    case READER_LOST:
        ch->lost += item->lost;
        break;
    case READER_EVENT:
    case READER_FUNCTION:
        keep(ch, ch->rec, (uint32_t)size);
        break;
    case READER_ERROR:
        if (item->stop >= 0) {
            /* a bad stop record: do not leave its thread waiting */
            struct dapto_mailbox *mb =
                region_mailbox(&ch->region, (uint32_t)item->stop);
            if (mb != NULL)
                mailbox_resume(mb);
            item->stop = -1;
        }
        return 1;
    default:
        break;
    }
    if (item->stop >= 0)
        ch->stopped[item->stop] = ++ch->stop_clock;
    return 1;
}

/* The ring gave what it had for this call (or enough): the thread
 * buffers' turn, with a bound of their own. */
static int channel_ring_done(struct channel *ch, struct reader_item *item)
{
    unsigned int direct = 0;

    ch->ring_streak = 0;
    if (ch->tb.count == 0 || !channel_tbufs_next(ch, item, &direct))
        return 0;
    ch->tb_streak = 1;
    return 1;
}

static int channel_next_item(struct channel *ch, struct reader_item *item)
{
    long n;
    unsigned int quiet = 0; /* records with nothing to say, this call */
    unsigned int direct = 0; /* records taken by the direct path */

    /* (reader_record() fills the whole item; the other ways here clear
     * it first) */
    channel_ack(ch);
    if (ch->pending_error != NULL) {
        memset(item, 0, sizeof *item);
        item->stop = -1;
        free(ch->message);
        ch->message = ch->pending_error;
        ch->pending_error = NULL;
        item->kind = READER_ERROR;
        item->message = ch->message;
        return 1;
    }
    if (ch->status == CHANNEL_WAITING) {
        memset(item, 0, sizeof *item);
        item->stop = -1;
        if (channel_check_version(ch, item))
            return 1;
    }
    if (ch->status != CHANNEL_ACTIVE)
        return 0;

    /* <protocol#tbuf>: the thread buffers get their turn whenever the
     * ring has given what it had for this call, and after a run of the
     * ring's items; a run of their items goes on from them, up to the
     * same bound, so that neither starves the other */
    if (ch->tb.count != 0 &&
        (ch->ring_streak >= CHANNEL_RING_STREAK ||
         (ch->tb_streak > 0 && ch->tb_streak < CHANNEL_RING_STREAK))) {
        ch->ring_streak = 0;
        if (channel_tbufs_next(ch, item, &direct)) {
            ch->tb_streak++;
            return 1;
        }
        direct = 0;
    }
    ch->tb_streak = 0;
    for (;;) {
        if ((ch->sink != NULL || ch->esink != NULL) &&
            !channel_take_direct(ch, &direct))
            return channel_ring_done(ch, item);
        n = ring_take(&ch->ring, ch->rec, DAPTO_RECORD_MAX);
        if (n < 0) {
            memset(item, 0, sizeof *item);
            item->stop = -1;
            free(ch->message);
            ch->message = xasprintf(
                "protocol error: the event ring is corrupt at position "
                "%llu: a record of %u bytes (records are %u to %u bytes, a "
                "multiple of 8); monitoring stops here",
                (unsigned long long)ch->ring.ctail, ch->ring.bad_size,
                DAPTO_RECORD_HEADER, ch->ring.max);
            ch->status = CHANNEL_BROKEN;
            item->kind = READER_ERROR;
            item->message = ch->message;
            return 1;
        }
        if (n == 0)
            return channel_ring_done(ch, item);
        if (ch->sink != NULL && channel_give_direct(ch, n)) {
            /* (a record that wraps, or one of an overwriting ring, which
             * ring_peek() leaves to ring_take()) */
            if (++direct >= CHANNEL_DIRECT_MAX)
                return channel_ring_done(ch, item);
            continue;
        }
        switch (channel_decode(ch, (size_t)n, item)) {
        case 0:
            /* a bound, so that a stream of interns cannot starve the
             * caller's other work; the ring stays ready */
            if (++quiet == 4096)
                return channel_ring_done(ch, item);
            continue;
        default:
            ch->ring_streak++;
            return 1;
        }
    }
}

int channel_more(struct channel *ch)
{
    if (ch->status != CHANNEL_ACTIVE || ch->pending_error != NULL)
        return ch->status == CHANNEL_ACTIVE;
    if (!channel_ready(ch))
        return 0;
    /* Each 0 of channel_next() with records ready follows records taken:
     * without any since the last "yes", something is wrong (or a thread
     * buffer waits for a record the ring will never show); say no rather
     * than have the caller loop forever. */
    if (ch->ring.ctail == ch->more_ctail &&
        ch->ring.lost_seen == ch->more_lost && ch->tb_progress == ch->more_tb)
        return 0;
    ch->more_ctail = ch->ring.ctail;
    ch->more_lost = ch->ring.lost_seen;
    ch->more_tb = ch->tb_progress;
    return 1;
}

int channel_next(struct channel *ch, struct reader_item *item)
{
    if (!channel_next_item(ch, item))
        return 0;
    /* events besides function records: a stop may come, be quick */
    ch->flood = 0;
    return 1;
}

int channel_states_off(struct channel *ch, char **on)
{
    unsigned int code, limit = registry_event_limit(ch->reg);
    size_t len = 0;
    int n = 0;

    if (on != NULL)
        *on = NULL;
    if (ch->target == NULL || (ch->status != CHANNEL_ACTIVE &&
                               ch->status != CHANNEL_BROKEN &&
                               ch->status != CHANNEL_GONE))
        return 0;
    /* Every byte, whatever noosa believes it holds: what the program has
     * there is what counts. */
    for (code = 0; code < limit; code++) {
        struct registry_event *e = registry_event(ch->reg, code);
        unsigned char b = 0, off = DAPTO_STATE_OFF;

        if (e == NULL || e->state_addr == 0)
            continue;
        if (target_read(ch->target, e->state_addr, &b, 1, NULL) != 0)
            b = e->state == DAPTO_STATE_OFF ? 0xff : e->state;
        if (b != DAPTO_STATE_OFF &&
            target_write(ch->target, e->state_addr, &off, 1, NULL) != 0)
            continue;
        if (b != e->state) {
            n++;
            if (on != NULL) {
                size_t k = strlen(e->name);
                *on = xrealloc(*on, len + k + 3);
                if (len > 0) {
                    memcpy(*on + len, ", ", 2);
                    len += 2;
                }
                memcpy(*on + len, e->name, k + 1);
                len += k;
            }
        }
        e->state = DAPTO_STATE_OFF;
    }
    return n;
}

void channel_let_go(struct channel *ch)
{
    if (ch->let_go || (ch->status != CHANNEL_ACTIVE &&
                       ch->status != CHANNEL_BROKEN))
        return;
    /* (the program ignores the states from now on in every wait anyway) */
    channel_states_off(ch, NULL);
    ch->let_go = 1;
    region_let_go(&ch->region);
    memset(ch->stopped, 0, ch->region.geom.mbox_count * sizeof *ch->stopped);
    if (ch->status == CHANNEL_ACTIVE)
        ch->status = CHANNEL_GONE;
}

/* What a mailbox in state ST is doing, in words (messages never show the
 * numbers). */
static const char *channel_mailbox_says(uint32_t st)
{
    switch (st) {
    case DAPTO_MB_FREE:
        return "free (no thread waits there)";
    case DAPTO_MB_CLAIMED:
        return "taken by a thread that is about to stop";
    case DAPTO_MB_STOPPED:
        return "a stopped thread";
    case DAPTO_MB_REQUEST:
        return "asked to run an operation";
    case DAPTO_MB_RUNNING:
        return "running an operation";
    case DAPTO_MB_DONE:
        return "done with an operation";
    case DAPTO_MB_RESUME:
        return "resumed";
    default:
        return "in a state that does not exist";
    }
}

static unsigned int mb_index(const struct channel *ch,
                             const struct dapto_mailbox *mb)
{
    return (unsigned int)(((const unsigned char *)mb -
                           ((const unsigned char *)ch->region.hdr +
                            ch->region.geom.mbox_off)) /
                          sizeof *mb);
}

void channel_forget(struct channel *ch)
{
    ch->let_go = 1;
    ch->status = CHANNEL_GONE;
    ch->target = NULL;
    memset(ch->stopped, 0, ch->region.geom.mbox_count * sizeof *ch->stopped);
}

int channel_stopped(const struct channel *ch)
{
    int best = -1;

    for (uint32_t i = 0; i < ch->region.geom.mbox_count; i++) {
        if (ch->stopped[i] != 0 &&
            (best < 0 || ch->stopped[i] > ch->stopped[best]))
            best = (int)i;
    }
    return best;
}

/* The mailbox for STOP, or NULL with *cause. */
static struct dapto_mailbox *channel_stop_mailbox(struct channel *ch,
                                                  int *stop, char **cause)
{
    struct dapto_mailbox *mb;

    if (*stop < 0)
        *stop = channel_stopped(ch);
    if (*stop < 0 || (uint32_t)*stop >= ch->region.geom.mbox_count ||
        ch->stopped[*stop] == 0) {
        xcause(cause, "the program is not stopped at an event");
        return NULL;
    }
    if (ch->target != NULL && !target_alive(ch->target)) {
        xcause(cause, "the program is not running");
        return NULL;
    }
    mb = region_mailbox(&ch->region, (uint32_t)*stop);
    if (mb == NULL) {
        xcause(cause, "the program is not stopped at an event");
        return NULL;
    }
    if (ch->busy[*stop]) {
        uint32_t st = mailbox_state(mb);

        if (st == DAPTO_MB_REQUEST || st == DAPTO_MB_RUNNING) {
            xcause(cause, "the thread stopped at the event still runs an "
                   "operation that did not answer (\"kill\" ends the "
                   "program)");
            return NULL;
        }
        ch->busy[*stop] = 0; /* it answered at last */
    }
    return mb;
}

void channel_wake_all(struct channel *ch)
{
    if (ch->region.hdr != NULL)
        region_wake_all(&ch->region);
}

char *channel_mailboxes_busy(struct channel *ch)
{
    char *out = NULL;

    if (ch->region.hdr == NULL)
        return NULL;
    for (uint32_t i = 0; i < ch->region.geom.mbox_count; i++) {
        struct dapto_mailbox *mb = region_mailbox(&ch->region, i);
        uint32_t st = __atomic_load_n(&mb->state, __ATOMIC_ACQUIRE);
        char *w;

        if (st == DAPTO_MB_FREE)
            continue;
        w = xasprintf("%s%smailbox %u of thread %u: %s", out != NULL ? out : "",
                      out != NULL ? "; " : "", (unsigned)i,
                      (unsigned)mb->tid, channel_mailbox_says(st));
        free(out);
        out = w;
    }
    return out;
}

int channel_resume(struct channel *ch, int stop, char **cause)
{
    struct dapto_mailbox *mb = channel_stop_mailbox(ch, &stop, cause);

    if (mb == NULL)
        return -1;
    ch->stopped[stop] = 0;
    if (mailbox_resume(mb) != 0) {
        xcause(cause, "cannot resume the stopped thread: its mailbox is %s",
               channel_mailbox_says(mailbox_state(mb)));
        return -1;
    }
    return 0;
}

/* Convert text ARG to parameter P and append it to OUT. */
static int channel_convert(struct dapto_out *out, const struct registry_op *op,
                           unsigned int i, const char *arg, char **cause)
{
    const struct registry_param *p = &op->params[i];
    char *end = NULL;
    const char *expected = NULL;
    int string = 0; /* the argument went as a string */

    errno = 0;
    switch (p->kind) {
    case DAPTO_K_INT: {
        long v = strtol(arg, &end, 0);
        if (*arg == '\0' || *end != '\0' || errno != 0 || v < INT_MIN ||
            v > INT_MAX) {
            expected = "an int";
            break;
        }
        dapto_put_int(out, (int)v);
        break;
    }
    case DAPTO_K_LONG: {
        long v = strtol(arg, &end, 0);
        if (*arg == '\0' || *end != '\0' || errno != 0) {
            expected = "a long";
            break;
        }
        dapto_put_long(out, v);
        break;
    }
    case DAPTO_K_DOUBLE: {
        double v = strtod(arg, &end);
        if (*arg == '\0' || *end != '\0' || errno == ERANGE) {
            expected = "a double";
            break;
        }
        dapto_put_double(out, v);
        break;
    }
    case DAPTO_K_PTR: {
        unsigned long long v;
        if (*arg == '-') {
            expected = "a pointer (a decimal or 0x hexadecimal address)";
            break;
        }
        v = strtoull(arg, &end, 0);
        if (*arg == '\0' || *end != '\0' || errno != 0) {
            expected = "a pointer (a decimal or 0x hexadecimal address)";
            break;
        }
        dapto_put_ptr(out, (const void *)(uintptr_t)v);
        break;
    }
    case DAPTO_K_STR:
        dapto_put_str(out, arg);
        string = 1;
        break;
    case DAPTO_K_USER: {
        /* How the program reads a user type is up to its DAPTO_ARG<Type>
         * macro; numbers travel as numbers (the runtime's getters convert
         * between numeric kinds), anything else as a string. */
        long long sv;
        unsigned long long uv;
        double dv;

        if (*arg != '\0' && ((sv = strtoll(arg, &end, 0)), *end == '\0') &&
            errno == 0) {
            dapto_put_ptr(out, (const void *)(uintptr_t)sv);
            break;
        }
        errno = 0;
        if (*arg != '\0' && *arg != '-' &&
            ((uv = strtoull(arg, &end, 0)), *end == '\0') && errno == 0) {
            dapto_put_ptr(out, (const void *)(uintptr_t)uv);
            break;
        }
        errno = 0;
        if (*arg != '\0' && ((dv = strtod(arg, &end)), *end == '\0') &&
            errno == 0) {
            dapto_put_double(out, dv);
            break;
        }
        dapto_put_str(out, arg);
        string = 1;
        break;
    }
    default:
        xcause(cause, "argument %u (%s) of %s: values of type %s cannot be "
               "sent", i + 1, p->name, op->name, p->type);
        return -1;
    }
    if (expected != NULL) {
        xcause(cause, "argument %u (%s) of %s: expected %s, got \"%s\"", i + 1,
               p->name, op->name, expected, arg);
        return -1;
    }
    if (out->truncated && string) {
        xcause(cause, "argument %u (%s) of %s: the string is too long", i + 1,
               p->name, op->name);
        return -1;
    }
    if (out->truncated) {
        xcause(cause, "the arguments of %s are too long", op->name);
        return -1;
    }
    return 0;
}

/* Decode the results the program wrote (untrusted) into *res. */
static int channel_results(struct channel *ch, const struct dapto_mailbox *mb,
                           const struct registry_op *op,
                           struct channel_result *res, char **cause)
{
    uint32_t len = __atomic_load_n(&mb->res_len, __ATOMIC_RELAXED);
    struct decode_cursor c;
    char *why = NULL;

    res->status = (int)__atomic_load_n(&mb->status, __ATOMIC_RELAXED);
    res->signo = mb->signo;
    res->fault_addr = mb->fault_addr;
    memcpy(ch->res_message, mb->message, sizeof mb->message);
    ch->res_message[sizeof mb->message] = '\0';
    res->message = ch->res_message;
    if (res->status != DAPTO_OP_OK)
        return 0;
    if (len > DAPTO_MBOX_DATA) {
        xcause(cause, "protocol error: operation %s answered with %u bytes "
               "of results (at most %u)", op->name, len, DAPTO_MBOX_DATA);
        return -1;
    }
    memcpy(ch->res_data, mb->data, len);
    decode_init(&c, ch->res_data, len);
    while (!decode_at_end(&c)) {
        struct decode_value *v;
        if (res->nvalues == ch->res_avalues) {
            ch->res_avalues = ch->res_avalues == 0 ? 8 : ch->res_avalues * 2;
            ch->res_values = xreallocarray(ch->res_values, ch->res_avalues,
                                           sizeof *ch->res_values);
        }
        v = &ch->res_values[res->nvalues];
        if (decode_value(&c, v, &why) != 0 || v->kind == DAPTO_K_ISTR) {
            xcause(cause, "protocol error: results of operation %s: %s",
                   op->name, why != NULL ? why : "an interned string");
            free(why);
            return -1;
        }
        res->nvalues++;
        res->values = ch->res_values;
    }
    return 0;
}

/* Interrupt the operation that thread TID runs in mailbox MB: stop the
 * thread alone and, once it is inside the operation's own code, make it
 * call the runtime's interrupt function <protocol#stop>, which ends the
 * operation (DAPTO_OP_INTERRUPTED) and waits at the stop again.  Returns
 * 0 once that is done (or the operation answered meanwhile), -1 with
 * *cause. */
static int channel_interrupt(struct channel *ch, struct dapto_mailbox *mb,
                             pid_t tid, char **cause)
{
    uint64_t fn = __atomic_load_n(&ch->region.hdr->rt_interrupt,
                                  __ATOMIC_RELAXED);
    uint64_t deadline = clock_monotonic_ns() +
                        (uint64_t)CHANNEL_INTERRUPT_MS * 1000000u;
    int rc;

    if (ch->target == NULL) {
        xcause(cause, "the program is not running");
        return -1;
    }
    if (fn == 0) {
        xcause(cause, "the program's runtime does not offer to interrupt "
               "operations");
        return -1;
    }
    for (;;) {
        uint32_t st = mailbox_state(mb);

        if (st != DAPTO_MB_REQUEST && st != DAPTO_MB_RUNNING)
            return 0;
        if (target_stop_thread(ch->target, tid, CHANNEL_INTERRUPT_MS,
                               cause) != 0)
            return -1;
        /* the thread is stopped: the mailbox holds still */
        if (mailbox_state(mb) == DAPTO_MB_RUNNING &&
            __atomic_load_n(&mb->op_active, __ATOMIC_ACQUIRE) == 1) {
            rc = target_call(ch->target, tid, fn, 0, 0, 0, cause);
            target_resume_thread(ch->target, tid, NULL);
            return rc == 0 ? 0 : -1;
        }
        /* between the request and the operation's code: a little later */
        target_resume_thread(ch->target, tid, NULL);
        if (clock_monotonic_ns() >= deadline) {
            xcause(cause, "thread %d did not enter the operation's code",
                   (int)tid);
            return -1;
        }
        poll(NULL, 0, 5);
    }
}

/* Wait for mailbox MB to answer, handling the program's ptrace stops.
 * Events not about this operation are given back to the target.  After
 * TIMEOUT_MS (< 0: never) the operation is interrupted. */
static int channel_wait_done(struct channel *ch, struct dapto_mailbox *mb,
                             pid_t tid, const char *name, int timeout_ms,
                             char **cause)
{
    struct target_event *kept = NULL;
    unsigned int nkept = 0;
    uint64_t deadline = timeout_ms < 0
                            ? 0
                            : clock_monotonic_ns() +
                                  (uint64_t)timeout_ms * 1000000u;
    int rc = -1, interrupted = 0;
    char *why = NULL;

    /* The answer usually comes within microseconds: with spare CPUs,
     * look at the mailbox alone for up to 50 us (yielding now and then,
     * for a program that shares our CPU) before the full loop. */
    uint64_t spin_until = 0;
    if (ch->ncpu > 1)
        cpu_say(&ch->region.hdr->monitor_cpu);
    for (unsigned int k = 0; ch->ncpu > 1; k++) {
        uint32_t st = mailbox_state(mb);
        if (st != DAPTO_MB_REQUEST && st != DAPTO_MB_RUNNING)
            break;
        if (k % 64 == 63) {
            uint64_t now = clock_monotonic_ns();
            if (spin_until == 0)
                spin_until = now + 50000;
            else if (now > spin_until)
                break;
            if (cpu_yield_pays(&ch->region.hdr->program_cpu))
                sched_yield();
        }
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    }
    for (;;) {
        struct pollfd pfd[2];
        struct target_event ev;
        uint32_t st = mailbox_state(mb);
        int slice = 50;

        if (st == DAPTO_MB_DONE) {
            rc = 0;
            break;
        }
        if (st != DAPTO_MB_REQUEST && st != DAPTO_MB_RUNNING) {
            xcause(cause, "protocol error: operation %s: the stopped thread's "
                   "mailbox became %s", name, channel_mailbox_says(st));
            break;
        }
        while (ch->target != NULL && target_poll(ch->target, &ev)) {
            if (ev.kind == TARGET_EV_FAULT && ev.tid == tid) {
                /* the runtime's recovery point takes it from here */
                target_fault_pass(ch->target, ev.tid, NULL);
                continue;
            }
            /* (every other one, for the session: the operation's own
             * fault may come after any number of them) */
            kept = xreallocarray(kept, nkept + 1, sizeof *kept);
            kept[nkept++] = ev;
        }
        if (ch->target != NULL && !target_alive(ch->target)) {
            xcause(cause, "the program died during operation %s", name);
            break;
        }
        if (deadline != 0) {
            uint64_t now = clock_monotonic_ns();
            if (now >= deadline && !interrupted) {
                /* (what it says when it answers: DAPTO_OP_INTERRUPTED) */
                interrupted = 1;
                if (channel_interrupt(ch, mb, tid, &why) == 0) {
                    deadline = clock_monotonic_ns() +
                               (uint64_t)CHANNEL_INTERRUPT_MS * 1000000u;
                    continue;
                }
            }
            if (now >= deadline) {
                ch->busy[mb_index(ch, mb)] = 1;
                xcause(cause, "operation %s did not answer within %d ms and "
                       "could not be interrupted%s%s%s: thread %d is still "
                       "running it (\"kill\" ends the program)", name,
                       timeout_ms, why != NULL ? " (" : "",
                       why != NULL ? why : "", why != NULL ? ")" : "",
                       (int)tid);
                break;
            }
            if ((deadline - now) / 1000000u < (uint64_t)slice)
                slice = (int)((deadline - now) / 1000000u) + 1;
        }
        pfd[0].fd = ch->region.eventfd;
        pfd[0].events = POLLIN;
        pfd[1].fd = ch->target != NULL ? target_fd(ch->target) : -1;
        pfd[1].events = POLLIN;
        if (poll(pfd, 2, slice) > 0 && (pfd[0].revents & POLLIN)) {
            uint64_t v;
            if (read(ch->region.eventfd, &v, sizeof v) < 0) {
                /* nothing to drain */
            }
        }
    }
    free(why);
    while (nkept > 0)
        target_unread(ch->target, &kept[--nkept]);
    free(kept);
    return rc;
}

int channel_send(struct channel *ch, int stop, const char *opname, int argc,
                 const char *const *argv, struct channel_result *res,
                 int timeout_ms, char **cause)
{
    struct registry_op *op = registry_op_by_name(ch->reg, opname);
    struct dapto_mailbox *mb;
    struct dapto_out out;
    unsigned char *buf;
    char sig[32];
    pid_t tid;

    memset(res, 0, sizeof *res);
    res->message = "";
    if (op == NULL) {
        xcause(cause, "unknown operation %s", opname);
        return -1;
    }
    if (argc < 0 || (unsigned int)argc != op->nparams) {
        xcause(cause, "operation %s takes %u argument%s, %d given", op->name,
               op->nparams, op->nparams == 1 ? "" : "s", argc);
        return -1;
    }
    mb = channel_stop_mailbox(ch, &stop, cause);
    if (mb == NULL)
        return -1;
    buf = xmalloc(DAPTO_MBOX_DATA);
    memset(&out, 0, sizeof out);
    out.base = out.p = buf;
    out.end = buf + DAPTO_MBOX_DATA;
    for (int i = 0; i < argc; i++) {
        if (channel_convert(&out, op, (unsigned int)i, argv[i], cause) != 0) {
            free(buf);
            return -1;
        }
    }
    tid = (pid_t)__atomic_load_n(&mb->tid, __ATOMIC_RELAXED);
    if (mailbox_request(mb, op->code, buf, (size_t)(out.p - buf)) != 0) {
        xcause(cause, "cannot run %s: the stopped thread's mailbox is %s",
               op->name, channel_mailbox_says(mailbox_state(mb)));
        free(buf);
        return -1;
    }
    free(buf);
    if (channel_wait_done(ch, mb, tid, op->name, timeout_ms, cause) != 0)
        return -1;
    if (channel_results(ch, mb, op, res, cause) != 0)
        return -1;
    switch (res->status) {
    case DAPTO_OP_OK:
        return 0;
    case DAPTO_OP_CRASHED:
        xcause(cause, "operation %s crashed: %s at 0x%llx", op->name,
               target_signal_name(res->signo, sig, sizeof sig),
               (unsigned long long)res->fault_addr);
        return -1;
    case DAPTO_OP_UNKNOWN:
        xcause(cause, "the program does not know operation %s", op->name);
        return -1;
    case DAPTO_OP_ARGS:
        xcause(cause, "operation %s: %s", op->name,
               res->message[0] != '\0' ? res->message : "bad arguments");
        return -1;
    case DAPTO_OP_OVERFLOW:
        xcause(cause, "operation %s: the results did not fit", op->name);
        return -1;
    case DAPTO_OP_INTERRUPTED:
        xcause(cause, "operation %s did not answer within %d ms: noosa "
               "interrupted it, and its thread is back at the event",
               op->name, timeout_ms);
        return -1;
    }
    xcause(cause, "protocol error: operation %s ended with status %d",
           op->name, res->status);
    return -1;
}
