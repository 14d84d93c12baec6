/* SPDX-License-Identifier: MIT */
/*
 * ring-test.c - unit tests of the event ring and the region around it:
 * geometry, one producer, several producer threads, records straddling the
 * end of the ring, a full ring in both modes, commit-word validation
 * against stale data, the sleep protocol, the trail and the mailbox
 * helpers' state checks.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dapto.h"
#include "futex.h"
#include "mailbox.h"
#include "protocol.h"
#include "region.h"
#include "ring.h"
#include "trail.h"
#include "trec.h"
#include "unit.h"

#define BUF DAPTO_RECORD_MAX

static int lost_count(const unsigned char *buf, long n, int64_t *count)
{
    struct dapto_record h;

    memcpy(&h, buf, sizeof h);
    if (n != 48 || h.code != DAPTO_REC_LOST || h.len != 9 ||
        buf[DAPTO_RECORD_HEADER] != DAPTO_K_LONG)
        return 0;
    memcpy(count, buf + DAPTO_RECORD_HEADER + 1, sizeof *count);
    return 1;
}

static void make_region(struct region *reg, uint32_t ring_size, uint32_t flags)
{
    struct region_geom g;

    region_geom_default(&g);
    g.ring_size = ring_size;
    g.trail_slots = 16;
    g.mbox_count = 2;
    g.flags = flags;
    trec_region(reg, &g);
}

static void test_geometry(void)
{
    struct region_geom g, bad;
    struct region reg, map;
    const char *cause = NULL;
    char env[64];
    struct dapto_region_id id;

    region_geom_default(&g);
    CHECK(region_geom_layout(&g, &cause) == 0);
    CHECK(region_geom_check(&g, g.size) == NULL);
    CHECK(g.ring_off >= sizeof(struct dapto_region));
    CHECK(region_geom_check(&g, g.size - 1) != NULL);

    bad = g;
    bad.ring_size = 5000;
    CHECK(region_geom_check(&bad, g.size) != NULL);
    bad = g;
    bad.iface_off = g.ring_off + 8; /* overlaps the ring */
    CHECK(strcmp(region_geom_check(&bad, g.size), "two areas overlap") == 0);
    bad = g;
    bad.mbox_off = g.size - 8;
    CHECK(region_geom_check(&bad, g.size) != NULL);
    bad = g;
    bad.trail_off = 16; /* inside the header */
    CHECK(region_geom_check(&bad, g.size) != NULL);
    bad = g;
    bad.trail_off += 4;
    CHECK(region_geom_check(&bad, g.size) != NULL);
    bad = g;
    bad.mbox_count = 0;
    CHECK(region_geom_layout(&bad, &cause) == -1 && errno == EINVAL);
    CHECK(strstr(cause, "mailbox") != NULL);

    /* The filter and counter areas <protocol#filter>: inside, aligned,
     * disjoint; absent (an older monitor's geometry) is sound. */
    CHECK(g.filt_size == REGION_DEFAULT_FILTER && g.cnt_slots == REGION_DEFAULT_CNT);
    CHECK(g.filt_off >= g.mbox_off && g.cnt_off >= g.filt_off + g.filt_size &&
          g.cnt_off % 64 == 0 &&
          g.cnt_off + (uint64_t)g.cnt_slots * DAPTO_CNT_PER_SLOT * 8 <= g.size);
    bad = g;
    bad.filt_off = g.mbox_off; /* over the mailboxes */
    CHECK(strcmp(region_geom_check(&bad, g.size), "two areas overlap") == 0);
    bad = g;
    bad.cnt_off = g.filt_off + 64; /* over the filter area */
    CHECK(strcmp(region_geom_check(&bad, g.size), "two areas overlap") == 0);
    bad = g;
    bad.cnt_off = g.size - 4096; /* past the end */
    CHECK(strcmp(region_geom_check(&bad, g.size), "an area lies outside the region") == 0);
    bad = g;
    bad.filt_off += 4;
    CHECK(strcmp(region_geom_check(&bad, g.size), "an area is not 8-byte aligned") == 0);
    bad = g;
    bad.filt_size = 100;
    CHECK(region_geom_check(&bad, g.size) != NULL);
    bad = g;
    bad.cnt_slots = REGION_CNT_MAX + 1;
    CHECK(region_geom_layout(&bad, &cause) == -1 && strstr(cause, "counter") != NULL);
    bad = g;
    bad.filt_off = bad.filt_size = bad.cnt_off = bad.cnt_slots = 0;
    CHECK(region_geom_check(&bad, g.size) == NULL);
    bad.filt_off = 16; /* an empty area's offset does not matter ... */
    bad.cnt_off = 16;
    CHECK(region_geom_check(&bad, g.size) == NULL);
    bad.cnt_off = 3; /* ... but must still be aligned */
    CHECK(region_geom_check(&bad, g.size) != NULL);
    bad = g;
    bad.filt_size = 0;
    bad.cnt_slots = 0;
    CHECK(region_geom_layout(&bad, &cause) == 0 && bad.filt_off == 0 &&
          bad.cnt_off == 0 && bad.size < g.size);

    CHECK(region_create(&reg, &g, &cause) == 0);
    CHECK(reg.hdr->id.magic == DAPTO_REGION_MAGIC);
    CHECK(reg.hdr->id.major == DAPTO_PROTO_MAJOR);
    CHECK(reg.hdr->ring_size == g.ring_size && reg.hdr->size == g.size);
    CHECK(reg.hdr->filt_off == g.filt_off && reg.hdr->filt_size == g.filt_size &&
          reg.hdr->cnt_off == g.cnt_off && reg.hdr->cnt_slots == g.cnt_slots);
    CHECK(region_env(&reg, env, sizeof env) == 0);
    {
        char want[64];
        snprintf(want, sizeof want, "DAPTO_CHANNEL=%d:%d", reg.memfd, reg.eventfd);
        CHECK(strcmp(env, want) == 0);
    }
    CHECK(region_env(&reg, env, 16) == -1);
    CHECK(region_runtime_id(&reg, &id) == 0);

    /* Mapping it again, as the runtime does. */
    CHECK(region_map(&map, reg.memfd, reg.eventfd, &cause) == 0);
    region_geom_read(&map.geom, map.hdr);
    CHECK(region_geom_check(&map.geom, map.mapped) == NULL);
    CHECK(memcmp(&map.geom, &reg.geom, sizeof g) == 0);
    map.hdr->id.rt_major = 7;
    __atomic_store_n(&map.hdr->id.rt_magic, DAPTO_RUNTIME_MAGIC, __ATOMIC_RELEASE);
    CHECK(region_runtime_id(&reg, &id) == 1 && id.rt_major == 7);
    CHECK(region_mailbox(&reg, g.mbox_count - 1) != NULL);
    CHECK(region_mailbox(&reg, g.mbox_count) == NULL);
    CHECK(region_iface(&reg, 0, g.iface_size) != NULL);
    CHECK(region_iface(&reg, 8, g.iface_size) == NULL);
    CHECK(region_iface(&reg, UINT32_MAX, 2) == NULL);
    region_unmap(&map);

    /* Not a region: wrong magic, too small, not a file. */
    reg.hdr->id.magic = 1;
    CHECK(region_map(&map, reg.memfd, reg.eventfd, &cause) == -1);
    CHECK(strstr(cause, "magic") != NULL);
    CHECK(region_map(&map, reg.eventfd, reg.eventfd, &cause) == -1);
    CHECK(region_map(&map, 999, reg.eventfd, &cause) == -1 && errno == EBADF);
    region_close(&reg);
}

static void test_single(void)
{
    struct region reg;
    struct ring prod, cons;
    struct trec r;
    unsigned char buf[BUF];
    unsigned int i, k, who, seq, next = 0, sent = 0;
    long n;
    int ok = 1, wrapped = 0;

    make_region(&reg, 4096, 0);
    ring_init(&prod, &reg);
    ring_init(&cons, &reg);
    CHECK(ring_take(&cons, buf, sizeof buf) == 0);
    CHECK(!ring_ready(&cons));
    for (i = 0; i < 2000; i++) {
        /* a few records, then drain: sizes cycle through 0..200 bytes */
        for (k = 0; k < 1 + i % 5; k++) {
            uint64_t head = reg.hdr->head;
            unsigned int len = (sent * 37u) % 201u;

            make(&r, 0, sent, len);
            if ((head & 4095) + ((32 + len + 7) & ~7u) > 4096)
                wrapped++;
            CHECK(ring_put(&prod, &r.h) == 0);
            sent++;
        }
        CHECK(ring_ready(&cons));
        while ((n = ring_take(&cons, buf, sizeof buf)) > 0) {
            if (!intact(buf, n, &who, &seq) || seq != next)
                ok = 0;
            next++;
        }
        CHECK(n == 0);
    }
    CHECK(ok);
    CHECK_EQ_INT(next, sent);
    CHECK(wrapped > 10); /* records did straddle the end */
    CHECK_EQ_INT(reg.hdr->lost, 0);
    CHECK_EQ_INT(reg.hdr->tail, reg.hdr->head);
    region_close(&reg);
}

/* A record placed exactly across the end of the ring, checked byte by
 * byte, with its commit word at the last 8 bytes. */
static void test_straddle(void)
{
    static const unsigned char zero[328];
    unsigned char ring_end[8], ring_start[328];
    struct region reg;
    struct ring prod, cons;
    struct trec r;
    unsigned char buf[BUF];
    unsigned int who, seq;
    long n;

    make_region(&reg, 4096, 0);
    ring_init(&prod, &reg);
    ring_init(&cons, &reg);
    /* Fill up to 8 bytes before the end: 4088 = 7 * 584. */
    for (seq = 0; seq < 7; seq++) {
        make(&r, 1, seq, 584 - 32);
        CHECK(ring_put(&prod, &r.h) == 0);
        CHECK(ring_take(&cons, buf, sizeof buf) == 584);
    }
    CHECK_EQ_INT(reg.hdr->head, 4088);
    make(&r, 1, 7, 300);
    CHECK(ring_put(&prod, &r.h) == 0);
    memcpy(ring_end, cons.data + 4088, 8);
    memcpy(ring_start, cons.data, 328);
    n = ring_take(&cons, buf, sizeof buf);
    CHECK_EQ_INT(n, 336);
    CHECK(intact(buf, n, &who, &seq) && seq == 7 && who == 1);
    /* The commit word is the last 8 bytes of the ring; the rest wrapped. */
    CHECK(memcmp(ring_end, buf, 8) == 0);
    CHECK(memcmp(ring_start, buf + 8, 328) == 0);
    /* Taken and given back, both parts are zero <protocol#commit>. */
    CHECK(ring_take(&cons, buf, sizeof buf) == 0);
    CHECK(memcmp(cons.data + 4088, zero, 8) == 0);
    CHECK(memcmp(cons.data, zero, 328) == 0);
    /* Oversized records are refused and reported as lost. */
    make(&r, 1, 8, 1024);
    CHECK(ring_put(&prod, &r.h) == -1);
    n = ring_take(&cons, buf, sizeof buf);
    {
        int64_t c = 0;
        CHECK(lost_count(buf, n, &c) && c == 1);
    }
    CHECK(ring_take(&cons, buf, sizeof buf) == 0);
    region_close(&reg);
}

/* Stale commit words never pass: words of earlier laps, body bytes, an
 * impossible size with the right seq. */
static void test_stale(void)
{
    struct region reg;
    struct ring prod, cons;
    struct trec r;
    unsigned char buf[BUF];
    uint32_t w[2];
    unsigned int seq = 0, who, s;
    long n;

    make_region(&reg, 4096, 0);
    ring_init(&prod, &reg);
    ring_init(&cons, &reg);
    /* One full lap of 64-byte records: every word at offset 0 mod 64 is a
     * commit word of lap 0. */
    for (seq = 0; seq < 64; seq++) {
        make(&r, 2, seq, 32);
        CHECK(ring_put(&prod, &r.h) == 0);
        CHECK(ring_take(&cons, buf, sizeof buf) == 64);
    }
    CHECK_EQ_INT(cons.ctail, 4096);
    /* At position 4096 (offset 0) lies record 0's commit word: seq 0. */
    CHECK(ring_take(&cons, buf, sizeof buf) == 0);
    CHECK(!ring_ready(&cons));
    /* A forged word of a later lap at the same offset does not pass. */
    w[0] = 64;
    w[1] = (4096 + 3 * 4096) >> 3;
    memcpy(cons.data, w, 8);
    CHECK(ring_take(&cons, buf, sizeof buf) == 0);
    /* The right seq with an impossible size is corruption. */
    w[1] = 4096 >> 3;
    for (s = 0; s < 3; s++) {
        static const uint32_t sizes[] = {24, 68, 2048};
        w[0] = sizes[s];
        memcpy(cons.data, w, 8);
        errno = 0;
        CHECK(ring_take(&cons, buf, sizeof buf) == -1 && errno == EPROTO);
    }
    /* Size 0 is a fresh (zero) word: not a record yet. */
    w[0] = 0;
    memcpy(cons.data, w, 8);
    CHECK(ring_take(&cons, buf, sizeof buf) == 0);
    /* A buffer too small for a sane record. */
    w[0] = 256;
    memcpy(cons.data, w, 8);
    CHECK(ring_take(&cons, buf, 128) == -1 && errno == ENOBUFS);
    memset(cons.data, 0, 8);
    /* Records written over body bytes of the previous lap. */
    for (seq = 64; seq < 200; seq++) {
        make(&r, 2, seq, 100 + seq % 50);
        CHECK(ring_put(&prod, &r.h) == 0);
        n = ring_take(&cons, buf, sizeof buf);
        CHECK(n > 0 && intact(buf, n, &who, &s) && s == seq);
        CHECK(ring_take(&cons, buf, sizeof buf) == 0);
    }
    region_close(&reg);
}

/* Body bytes of one lap that look like commit words of the next never
 * pass for records: records of two laps do not start at the same
 * offsets, so a record of the next lap may start where a body word of
 * this one lies, and the consumer looks there before its producer has
 * written it (it waits at the tail).  The released lap is zero. */
static void test_stale_bodies(void)
{
    static const uint32_t sizes[] = {12345, 64};
    struct region reg;
    struct ring prod, cons;
    struct trec r;
    unsigned char buf[BUF];
    unsigned int k, i, seq, who, s;
    uint64_t pos;
    long n;

    for (k = 0; k < 2; k++) {
        make_region(&reg, 4096, 0);
        ring_init(&prod, &reg);
        ring_init(&cons, &reg);
        /* Lap 0: four records of 1024 bytes whose every body word is
         * (size, seq) for its position in lap 1: an impossible size, then
         * a sane one. */
        for (pos = 0, seq = 0; seq < 4; seq++, pos += 1024) {
            memset(&r.h, 0, sizeof r.h);
            r.h.code = 3;
            r.h.len = 1024 - DAPTO_RECORD_HEADER;
            for (i = 0; i < r.h.len; i += 8) {
                uint32_t w[2] = {sizes[k],
                                 (uint32_t)((pos + DAPTO_RECORD_HEADER + i +
                                             4096) >> 3)};
                memcpy(r.v + i, w, 8);
            }
            CHECK(ring_put(&prod, &r.h) == 0);
            CHECK(ring_take(&cons, buf, sizeof buf) == 1024);
        }
        CHECK(ring_take(&cons, buf, sizeof buf) == 0);
        /* Lap 1: records of 40 to 96 bytes, each taken at once; after
         * each, the tail lies where lap 0 left a forged word. */
        for (seq = 0; seq < 60; seq++) {
            make(&r, 2, seq, 8 + seq % 57);
            CHECK(ring_put(&prod, &r.h) == 0);
            n = ring_take(&cons, buf, sizeof buf);
            CHECK(n > 0 && intact(buf, n, &who, &s) && s == seq);
            errno = 0;
            n = ring_take(&cons, buf, sizeof buf);
            CHECK_EQ_INT(n, 0);
            CHECK(!ring_ready(&cons));
        }
        region_close(&reg);
    }
}

struct prod_arg {
    struct ring *ring;
    unsigned int who;
    unsigned int count;
    unsigned int maxlen;
    unsigned int *finished; /* incremented when done */
};

static void *producer(void *p)
{
    struct prod_arg *a = p;
    struct trec r;
    unsigned int seq;

    for (seq = 0; seq < a->count; seq++) {
        make(&r, a->who, seq, (seq * 53u + a->who * 11u) % (a->maxlen + 1));
        ring_put(a->ring, &r.h);
    }
    __atomic_fetch_add(a->finished, 1, __ATOMIC_RELEASE);
    return NULL;
}

/* Several producer threads, one consumer, lossless: every record arrives,
 * intact and in each producer's order. */
static void test_threads(uint32_t ring_size, unsigned int nthreads,
                         unsigned int count, int slow)
{
    struct region reg;
    struct ring prod, cons;
    pthread_t th[8];
    struct prod_arg args[8];
    unsigned int next[8] = {0}, i, who, seq, total = 0, finished = 0;
    unsigned char buf[BUF];
    long n;
    int ok = 1, full = 0;

    make_region(&reg, ring_size, 0);
    ring_init(&prod, &reg);
    ring_init(&cons, &reg);
    for (i = 0; i < nthreads; i++) {
        args[i] = (struct prod_arg){&prod, i, count, 200, &finished};
        pthread_create(&th[i], NULL, producer, &args[i]);
    }
    if (slow) {
        /* Let the producers fill the ring and wait. */
        struct timespec ts = {0, 50 * 1000000L};
        nanosleep(&ts, NULL);
        full = reg.hdr->head - reg.hdr->tail > ring_size - 256;
        CHECK(reg.hdr->head - reg.hdr->tail <= (uint64_t)ring_size + 240 * nthreads);
    }
    while (total < nthreads * count) {
        n = ring_take(&cons, buf, sizeof buf);
        if (n == 0) {
            ring_wait(&cons, 100);
            continue;
        }
        if (n < 0 || !intact(buf, n, &who, &seq) || who >= nthreads ||
            seq != next[who]) {
            ok = 0;
            break;
        }
        next[who]++;
        total++;
        if (slow && total % 1000 == 0)
            usleep(100); /* a slow consumer keeps the ring full */
    }
    for (i = 0; i < nthreads; i++)
        pthread_join(th[i], NULL);
    CHECK(ok);
    CHECK_EQ_INT(total, nthreads * count);
    CHECK_EQ_INT(reg.hdr->lost, 0);
    CHECK(ring_take(&cons, buf, sizeof buf) == 0);
    CHECK_EQ_INT(reg.hdr->space_waiters, 0);
    if (slow)
        CHECK(full); /* the producers did have to wait */
    region_close(&reg);
}

/* Overwrite mode: with no consumer the oldest records go; the consumer
 * first hears how many, then gets the newest, intact. */
static void test_overwrite(void)
{
    struct region reg;
    struct ring prod, cons;
    struct trec r;
    unsigned char buf[BUF];
    unsigned int seq, who, s, got = 0, last = 0;
    int64_t lost = 0;
    long n;
    int ok = 1;

    make_region(&reg, 4096, DAPTO_RF_OVERWRITE);
    ring_init(&prod, &reg);
    ring_init(&cons, &reg);
    for (seq = 0; seq < 1000; seq++) {
        make(&r, 3, seq, seq % 90);
        CHECK(ring_put(&prod, &r.h) == 0);
    }
    CHECK(reg.hdr->head - reg.hdr->tail <= 4096);
    n = ring_take(&cons, buf, sizeof buf);
    CHECK(lost_count(buf, n, &lost));
    CHECK(lost > 900 && lost < 1000);
    while ((n = ring_take(&cons, buf, sizeof buf)) > 0) {
        if (!intact(buf, n, &who, &s) || (got > 0 && s != last + 1))
            ok = 0;
        last = s;
        got++;
    }
    CHECK(ok);
    CHECK_EQ_INT(last, 999);
    CHECK_EQ_INT(got + lost, 1000);
    CHECK_EQ_INT(reg.hdr->lost, lost);
    region_close(&reg);
}

/* Overwrite mode with producers racing a slow consumer: the consumer
 * resynchronises, never accepts a torn record, and records received plus
 * records lost add up. */
static void test_overwrite_threads(void)
{
    struct region reg;
    struct ring prod, cons;
    pthread_t th[3];
    struct prod_arg args[3];
    unsigned char buf[BUF];
    unsigned int i, who, seq, got = 0, finished = 0;
    int next[3] = {-1, -1, -1};
    int64_t lost = 0, c;
    long n;
    int ok = 1, last_pass = 0;

    make_region(&reg, 4096, DAPTO_RF_OVERWRITE);
    ring_init(&prod, &reg);
    ring_init(&cons, &reg);
    for (i = 0; i < 3; i++) {
        args[i] = (struct prod_arg){&prod, i, 50000, 300, &finished};
        pthread_create(&th[i], NULL, producer, &args[i]);
    }
    for (;;) {
        n = ring_take(&cons, buf, sizeof buf);
        if (n == 0) {
            /* once the producers are finished, one more pass drains it */
            if (last_pass)
                break;
            if (__atomic_load_n(&finished, __ATOMIC_ACQUIRE) == 3)
                last_pass = 1;
            else
                ring_wait(&cons, 10);
            continue;
        }
        if (n < 0) {
            ok = 0;
            break;
        }
        if (lost_count(buf, n, &c)) {
            lost += c;
            continue;
        }
        if (!intact(buf, n, &who, &seq) || who >= 3 || (int)seq <= next[who]) {
            ok = 0;
            break;
        }
        next[who] = (int)seq;
        got++;
        if (got % 64 == 0)
            sched_yield();
    }
    for (i = 0; i < 3; i++)
        pthread_join(th[i], NULL);
    CHECK(ok);
    CHECK_EQ_INT(got + lost, 150000);
    CHECK(lost > 0);
    printf("overwrite race: %u received, %lld lost, %llu torn copies discarded\n",
           got, (long long)lost, (unsigned long long)cons.discarded);
    region_close(&reg);
}

/* <protocol#wake>: producers write the eventfd only when the consumer
 * sleeps, and then once. */
static void test_wake(void)
{
    struct region reg;
    struct ring prod, cons;
    struct trec r;
    unsigned char buf[BUF];
    uint64_t v;

    make_region(&reg, 4096, 0);
    ring_init(&prod, &reg);
    ring_init(&cons, &reg);
    make(&r, 4, 0, 10);
    CHECK(ring_put(&prod, &r.h) == 0);
    CHECK(read(reg.eventfd, &v, sizeof v) == -1 && errno == EAGAIN);
    /* A record is ready: the consumer must not sleep. */
    CHECK(ring_sleep_prepare(&cons) == 0);
    CHECK(reg.hdr->consumer_sleeping == 0);
    CHECK(ring_take(&cons, buf, sizeof buf) > 0);
    CHECK(ring_sleep_prepare(&cons) == 1);
    CHECK(reg.hdr->consumer_sleeping == 1);
    make(&r, 4, 1, 10);
    CHECK(ring_put(&prod, &r.h) == 0);
    CHECK(reg.hdr->consumer_sleeping == 0);
    make(&r, 4, 2, 10);
    CHECK(ring_put(&prod, &r.h) == 0);
    CHECK(read(reg.eventfd, &v, sizeof v) == 8 && v == 1);
    ring_sleep_finish(&cons);
    CHECK(ring_wait(&cons, 0) == 1);
    CHECK(ring_take(&cons, buf, sizeof buf) > 0);
    CHECK(ring_take(&cons, buf, sizeof buf) > 0);
    CHECK(ring_wait(&cons, 0) == 0);
    ring_wake(&prod);
    CHECK(ring_wait(&cons, 1000) == 1);
    region_close(&reg);
}

/* The CPU each side waits on <protocol#spin>: a spinner yields only to a
 * side on its own CPU or one that does not say. */
static void test_spin_cpus(void)
{
    struct region reg;
    struct ring cons;
    cpu_set_t all, zero;

    CHECK(sched_getaffinity(0, sizeof all, &all) == 0);
    CPU_ZERO(&zero);
    CPU_SET(0, &zero);
    if (sched_setaffinity(0, sizeof zero, &zero) != 0) {
        printf("skip: test_spin_cpus: not allowed on CPU 0\n");
        return;
    }
    make_region(&reg, 4096, 0);
    ring_init(&cons, &reg);
    CHECK(reg.hdr->monitor_cpu == 0 && reg.hdr->program_cpu == 0);
    CHECK(cpu_here() == 1);
    CHECK(cpu_yield_pays(&reg.hdr->monitor_cpu)); /* not said */
    cpu_say(&reg.hdr->program_cpu);
    CHECK(reg.hdr->program_cpu == 1);
    reg.hdr->monitor_cpu = 1;
    CHECK(cpu_yield_pays(&reg.hdr->monitor_cpu)); /* on this CPU */
    reg.hdr->monitor_cpu = 2;
    CHECK(!cpu_yield_pays(&reg.hdr->monitor_cpu)); /* elsewhere */
    /* a consumer that spins says where */
    reg.hdr->monitor_cpu = 0;
    if (cons.spin != 0) {
        CHECK(ring_wait(&cons, 0) == 0);
        CHECK(reg.hdr->monitor_cpu == 1);
    }
    region_close(&reg);
    CHECK(sched_setaffinity(0, sizeof all, &all) == 0);
}

static void test_trail(void)
{
    struct region reg;
    struct trail tw, tr;
    struct trec r;
    unsigned char buf[TRAIL_RECORD_MAX];
    struct dapto_record h;
    unsigned int seq;
    uint64_t next;
    long n;

    make_region(&reg, 4096, 0);
    trail_init(&tw, &reg);
    trail_init(&tr, &reg);
    CHECK(trail_next(&tr) == 0);
    CHECK(trail_read(&tr, 0, buf, sizeof buf) == -1);
    for (seq = 0; seq < 40; seq++) {
        make(&r, 5, seq, seq == 39 ? 400 : seq);
        trail_put(&tw, &r.h);
    }
    next = trail_next(&tr);
    CHECK_EQ_INT(next, 40);
    /* 16 slots: events 24..39 are there, earlier ones are gone */
    CHECK(trail_read(&tr, 23, buf, sizeof buf) == -1);
    CHECK(trail_read(&tr, 40, buf, sizeof buf) == -1);
    for (seq = 24; seq < 39; seq++) {
        unsigned int i, same = 1;

        n = trail_read(&tr, seq, buf, sizeof buf);
        memcpy(&h, buf, sizeof h);
        CHECK(n == 32 + seq && h.size == n && h.aux == seq && h.len == seq &&
              h.flags == 0 && h.code == 5 && h.tid == 1005);
        for (i = 0; i < seq; i++)
            same &= buf[32 + i] == pat(5, seq, i);
        CHECK(same);
    }
    /* the long one is cut and marked */
    n = trail_read(&tr, 39, buf, sizeof buf);
    memcpy(&h, buf, sizeof h);
    CHECK(n == TRAIL_RECORD_MAX && (h.flags & DAPTO_RECF_TRUNC) &&
          h.len == TRAIL_RECORD_MAX - 32 && buf[100] == pat(5, 39, 100 - 32));
    CHECK(trail_read(&tr, 39, buf, 16) == -1);
    region_close(&reg);
}

static void test_mailbox(void)
{
    struct region reg;
    struct dapto_mailbox *mb;
    static unsigned char big[DAPTO_MBOX_DATA + 1];

    make_region(&reg, 4096, 0);
    mb = region_mailbox(&reg, 1);
    CHECK(mailbox_state(mb) == DAPTO_MB_FREE);
    CHECK(mailbox_request(mb, 1, "x", 1) == -1 && errno == EBUSY);
    CHECK(mailbox_resume(mb) == -1 && errno == EBUSY);
    mb->state = DAPTO_MB_STOPPED;
    CHECK(mailbox_request(mb, 1, big, sizeof big) == -1 && errno == E2BIG);
    CHECK(mailbox_request(mb, 7, "\x01\x02\x00\x00\x00", 5) == 0);
    CHECK(mailbox_state(mb) == DAPTO_MB_REQUEST && mb->op == 7 &&
          mb->req_len == 5 && mb->data[1] == 2);
    CHECK(mailbox_resume(mb) == -1);
    mb->state = DAPTO_MB_DONE;
    CHECK(mailbox_resume(mb) == 0 && mailbox_state(mb) == DAPTO_MB_RESUME);
    region_ack(&reg, 3);
    CHECK(reg.hdr->aspects_acked == 3);
    region_close(&reg);
}

int main(void)
{
    /* a ring that goes wrong may leave a producer waiting for room */
    alarm(120);
    test_geometry();
    test_single();
    test_straddle();
    test_stale();
    test_stale_bodies();
    test_threads(1 << 16, 1, 20000, 0);
    test_threads(1 << 16, 4, 20000, 0);
    test_threads(4096, 4, 5000, 1);
    test_overwrite();
    test_overwrite_threads();
    test_wake();
    test_spin_cpus();
    test_trail();
    test_mailbox();
    return unit_done("ring-test");
}
