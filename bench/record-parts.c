/* SPDX-License-Identifier: MIT */
/*
 * record-parts.c - where a recorded event's time goes, part by part (the
 * first section of `make bench-record`): a timestamp (rdtsc and
 * CLOCK_MONOTONIC), an atomic add on a line no one else touches, the
 * event ring's ring_put() alone in one thread, and then the same 40-byte
 * records streamed from one thread to a consumer thread two ways:
 *
 *   ring   lib/channel's ring: an atomic add on the head, a commit word
 *          per record, the consumer zeroing what it gives back
 *   tbuf   lib/channel's thread buffer <protocol#tbuf>: one writer, plain
 *          stores, the head published with a release store at every
 *          record, the tail looked at only when the buffer looks full;
 *          the consumer takes up to the head it looked at, then comes
 *          back (after a pause when it found nothing)
 *
 * with the consumer on CPU 0 and the producer on CPU 1 ("two"), and both
 * on CPU 0 ("one"; each yields the CPU when it must wait).  Figures are
 * nanoseconds per record of the producer's loop, best of ROUNDS.
 *
 *     record-parts [N [ROUNDS]]
 */
#define _GNU_SOURCE
#include "config.h"

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#include "dapto.h"
#include "region.h"
#include "ring.h"
#include "tbuf.h"

#define REC 40

static uint64_t now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline uint64_t stamp(void)
{
#if defined(__x86_64__) || defined(__i386__)
    return __rdtsc();
#else
    return now_ns();
#endif
}

static void pin(int cpu)
{
    cpu_set_t set;

    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    sched_setaffinity(0, sizeof set, &set);
}

static inline void relax(int yield)
{
    if (yield)
        sched_yield();
#if defined(__x86_64__) || defined(__i386__)
    else
        __builtin_ia32_pause();
#endif
}

static volatile uint64_t sink;

/* A record of REC bytes as the runtime makes it: header and one int. */
static _Alignas(8) unsigned char proto[REC];

static void make_proto(void)
{
    struct dapto_record h;

    memset(&h, 0, sizeof h);
    h.code = 6;
    h.len = 5;
    memcpy(proto, &h, sizeof h);
    proto[DAPTO_RECORD_HEADER] = DAPTO_K_INT;
}

struct run {
    int way;      /* 0 ring, 1 tbuf */
    int yield;    /* one CPU: wait by yielding */
    int cpu_prod, cpu_cons;
    long n;
    struct ring prod, cons;
    struct tbuf_area tb;
    struct tbuf_prod tp;
    struct tbuf_cons tc;
    uint64_t ns;  /* the producer's loop */
    long took;
    uint64_t check;
};

static void *consume(void *arg)
{
    struct run *r = arg;
    _Alignas(8) unsigned char buf[DAPTO_RECORD_MAX];
    long took = 0;
    uint64_t check = 0;

    pin(r->cpu_cons);
    if (r->way == 0) {
        while (took < r->n) {
            long k = ring_take(&r->cons, buf, sizeof buf);

            if (k > 0) {
                uint32_t v;

                memcpy(&v, buf + DAPTO_RECORD_HEADER + 1, 4);
                check += v;
                took++;
            } else if (k == 0) {
                relax(r->yield);
            } else {
                break;
            }
        }
    } else {
        const unsigned char *rec;
        const char *why;
        uint32_t size;
        uint64_t pos;

        while (took < r->n) {
            if (tbuf_look(&r->tb, 0, &r->tc) != NULL)
                break;
            pos = r->tc.ctail;
            for (;;) {
                rec = tbuf_peek(&r->tb, 0, &r->tc, pos, &size, &why);
                if (rec == NULL) {
                    if (why != NULL || size == 0)
                        break;
                    pos += size; /* padding */
                    continue;
                }
                {
                    uint32_t v;

                    memcpy(&v, rec + DAPTO_RECORD_HEADER + 1, 4);
                    check += v;
                    took++;
                }
                pos += size;
            }
            if (why != NULL)
                break;
            tbuf_skip(&r->tb, 0, &r->tc, pos - r->tc.ctail);
            if (took < r->n)
                tbuf_release(&r->tb, 0, &r->tc);
            /* as noosa's channel does: a batch up to the head, then a
             * look a microsecond later, not at the line being written */
            if (r->yield) {
                sched_yield();
            } else {
                uint64_t until = now_ns() + 1000;

                while (now_ns() < until)
                    relax(0);
            }
        }
        tbuf_release(&r->tb, 0, &r->tc);
    }
    if (r->way == 0)
        ring_release(&r->cons);
    r->took = took;
    r->check = check;
    return NULL;
}

static void produce(struct run *r)
{
    _Alignas(8) unsigned char rec[REC];
    uint64_t t0;
    uint32_t i;

    memcpy(rec, proto, REC);
    pin(r->cpu_prod);
    t0 = now_ns();
    if (r->way == 0) {
        for (i = 0; i < (uint32_t)r->n; i++) {
            memcpy(rec + DAPTO_RECORD_HEADER + 1, &i, 4);
            ((struct dapto_record *)(void *)rec)->time = stamp();
            ring_put_inline(&r->prod, (struct dapto_record *)(void *)rec);
        }
    } else {
        for (i = 0; i < (uint32_t)r->n; i++) {
            memcpy(rec + DAPTO_RECORD_HEADER + 1, &i, 4);
            ((struct dapto_record *)(void *)rec)->time = stamp();
            tbuf_put(&r->tb, &r->tp, (struct dapto_record *)(void *)rec);
        }
    }
    r->ns = now_ns() - t0;
}

/* Nanoseconds per record streamed WAY, on one CPU or two; -1 when the
 * consumer did not get every record. */
static double stream(struct region *reg, int way, int two, long n)
{
    struct run r;
    pthread_t th;
    uint64_t want = 0;

    memset(&r, 0, sizeof r);
    r.way = way;
    r.yield = !two;
    r.cpu_cons = 0;
    r.cpu_prod = two ? 1 : 0;
    r.n = n;
    if (way == 0) {
        ring_init(&r.prod, reg);
        ring_init(&r.cons, reg);
        r.prod.spin = r.cons.spin = two ? r.prod.spin : 0;
    } else {
        tbuf_area_init(&r.tb, reg);
        if (two == 0)
            r.tb.spin = 0;
        if (tbuf_claim(&r.tb, &r.tp, 1) != 0)
            return -1;
        r.tb.count = 1;
        tbuf_cons_init(&r.tb, 0, &r.tc);
    }
    if (pthread_create(&th, NULL, consume, &r) != 0)
        return -1;
    produce(&r);
    pthread_join(th, NULL);
    if (way == 1)
        /* free the buffer for the next round */
        __atomic_store_n(&tbuf_at(&r.tb, 0)->owner, 0, __ATOMIC_RELEASE);
    for (long i = 0; i < n; i++)
        want += (uint32_t)i;
    if (r.took != n || r.check != want)
        return -1;
    return (double)r.ns / (double)n;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 10000000;
    int rounds = argc > 2 ? atoi(argv[2]) : 5;
    double best[4][2];
    struct region_geom g;
    struct region reg;
    const char *cause;
    uint64_t s = 0, w = 0, t0;
    double rdtsc = 1e9, mono = 1e9, add = 1e9, put = 1e9, v;
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    _Alignas(8) unsigned char rec[REC];

    make_proto();
    memcpy(rec, proto, REC);
    region_geom_default(&g);
    g.tb_count = 1;
    g.tb_size = g.ring_size;
    if (region_create(&reg, &g, &cause) != 0) {
        fprintf(stderr, "record-parts: %s\n", cause);
        return 1;
    }
    for (int k = 0; k < rounds; k++) {
        t0 = now_ns();
        for (long i = 0; i < n; i++)
            s += stamp();
        v = (double)(now_ns() - t0) / n;
        rdtsc = v < rdtsc ? v : rdtsc;
        t0 = now_ns();
        for (long i = 0; i < n / 4; i++)
            s += now_ns();
        v = (double)(now_ns() - t0) / (n / 4);
        mono = v < mono ? v : mono;
        t0 = now_ns();
        for (long i = 0; i < n; i++)
            s += __atomic_fetch_add(&w, 40, __ATOMIC_RELAXED);
        v = (double)(now_ns() - t0) / n;
        add = v < add ? v : add;
        {
            /* the ring alone: a batch that fits, then taken back */
            struct ring r;
            _Alignas(8) unsigned char out[DAPTO_RECORD_MAX];
            int batch = (int)(g.ring_size / 2 / REC);

            ring_init(&r, &reg);
            t0 = now_ns();
            for (int i = 0; i < batch; i++)
                ring_put_inline(&r, (struct dapto_record *)(void *)rec);
            v = (double)(now_ns() - t0) / batch;
            put = v < put ? v : put;
            for (int i = 0; i < batch; i++)
                s += (uint64_t)ring_take(&r, out, sizeof out);
            ring_release(&r);
        }
    }
    sink = s;
    for (int way = 0; way < 2; way++)
        for (int two = 0; two < 2; two++) {
            best[way][two] = -1;
            if (two && ncpu < 2)
                continue;
            for (int k = 0; k < rounds; k++) {
                v = stream(&reg, way, two, n);
                if (v < 0) {
                    fprintf(stderr, "record-parts: records lost\n");
                    return 1;
                }
                if (best[way][two] < 0 || v < best[way][two])
                    best[way][two] = v;
            }
        }
    region_close(&reg);
    printf("  timestamp: rdtsc %.1f ns, CLOCK_MONOTONIC %.1f ns\n", rdtsc, mono);
    printf("  atomic add on a line of its own %.1f ns; ring_put alone (one thread, 40 bytes) %.1f ns\n",
           add, put);
    printf("  40-byte records with an rdtsc each, to a consumer thread (ns a record, best of %d x %ld):\n",
           rounds, n);
    printf("    %-44s one CPU %6.1f   two CPUs %6.1f\n",
           "event ring (atomic head, commit words)", best[0][0], best[0][1]);
    printf("    %-44s one CPU %6.1f   two CPUs %6.1f\n",
           "thread buffer (plain stores, head a record)", best[1][0], best[1][1]);
    return 0;
}
