/* SPDX-License-Identifier: MIT */
/*
 * ring-stress.c - a randomised stress test of the ring: rounds of random
 * geometry, mode, producer threads, record sizes and consumer pauses.  In
 * lossless mode every record must arrive, intact and in each producer's
 * order; in overwrite mode every record that arrives must be intact and
 * in order, and records received plus records lost must add up.
 *
 *   ring-stress [SEED [ROUNDS]]    (or RING_STRESS_SEED in the environment)
 *
 * It prints its seed first; give it back to replay a failure.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "protocol.h"
#include "region.h"
#include "ring.h"
#include "unit.h"

/* xorshift64*: small, and the same everywhere. */
static uint64_t rnd(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545f4914f6cdd1dull;
}

static unsigned char pat(unsigned int who, unsigned int seq, unsigned int i)
{
    return (unsigned char)((who + 1) * 97u + seq * 31u + i * 7u);
}

struct producer {
    pthread_t th;
    struct ring *ring;
    unsigned int who, count, maxlen;
    uint64_t seed;
    unsigned int *finished;
};

static void *produce(void *p)
{
    struct producer *a = p;
    _Alignas(8) unsigned char buf[DAPTO_RECORD_HEADER + 4096];
    struct dapto_record h;
    unsigned int seq, i, len;
    uint64_t s = a->seed;

    for (seq = 0; seq < a->count; seq++) {
        len = a->maxlen == 0 ? 0 : (unsigned int)(rnd(&s) % (a->maxlen + 1));
        memset(&h, 0, sizeof h);
        h.code = (uint16_t)a->who;
        h.tid = a->who;
        h.aux = seq;
        h.time = (uint64_t)seq * 3 + a->who;
        h.len = len;
        memcpy(buf, &h, sizeof h);
        for (i = 0; i < len; i++)
            buf[DAPTO_RECORD_HEADER + i] = pat(a->who, seq, i);
        ring_put(a->ring, (struct dapto_record *)(void *)buf);
        if (rnd(&s) % 512 == 0)
            sched_yield();
    }
    __atomic_fetch_add(a->finished, 1, __ATOMIC_RELEASE);
    return NULL;
}

static int intact(const unsigned char *b, long n, unsigned int nthreads)
{
    struct dapto_record h;
    unsigned int i;

    memcpy(&h, b, sizeof h);
    if (h.size != (uint32_t)n || h.code >= nthreads || h.tid != h.code ||
        h.time != (uint64_t)h.aux * 3 + h.code ||
        ((DAPTO_RECORD_HEADER + h.len + 7) & ~7u) != h.size)
        return 0;
    for (i = 0; i < h.len; i++)
        if (b[DAPTO_RECORD_HEADER + i] != pat(h.code, h.aux, i))
            return 0;
    return 1;
}

static void round_once(uint64_t *s, int r)
{
    struct region reg;
    struct region_geom g;
    struct ring prod, cons;
    struct producer p[4];
    static unsigned char buf[DAPTO_RECORD_MAX];
    const char *cause;
    unsigned int nthreads, i, finished = 0, total = 0;
    int64_t next[4] = {0, 0, 0, 0}, lost = 0, count;
    int overwrite, last_pass = 0, ok = 1, pause;
    struct dapto_record h;
    long n;

    region_geom_default(&g);
    g.ring_size = 4096u << (rnd(s) % 6);
    g.trail_slots = 1;
    g.mbox_count = 1;
    overwrite = rnd(s) % 3 == 0;
    g.flags = overwrite ? DAPTO_RF_OVERWRITE : 0;
    if (region_create(&reg, &g, &cause) != 0) {
        fprintf(stderr, "region_create: %s\n", cause);
        unit_failures++;
        return;
    }
    ring_init(&prod, &reg);
    ring_init(&cons, &reg);
    nthreads = 1 + (unsigned int)(rnd(s) % 4);
    pause = (int)(rnd(s) % 4);
    for (i = 0; i < nthreads; i++) {
        p[i].ring = &prod;
        p[i].who = i;
        p[i].count = 1000 + (unsigned int)(rnd(s) % 20000);
        p[i].maxlen = (unsigned int)(rnd(s) % (prod.max - DAPTO_RECORD_HEADER + 1));
        if (p[i].maxlen > 4096)
            p[i].maxlen = 4096;
        p[i].seed = rnd(s) | 1;
        p[i].finished = &finished;
    }
    printf("round %d: ring %u, %s, %u threads, pause %d, counts", r, g.ring_size,
           overwrite ? "overwrite" : "lossless", nthreads, pause);
    for (i = 0; i < nthreads; i++)
        printf(" %u(max %u)", p[i].count, p[i].maxlen);
    printf("\n");
    fflush(stdout);
    for (i = 0; i < nthreads; i++)
        pthread_create(&p[i].th, NULL, produce, &p[i]);
    for (;;) {
        n = ring_take(&cons, buf, sizeof buf);
        if (n < 0) {
            fprintf(stderr, "ring_take: %s\n", strerror(errno));
            ok = 0;
            break;
        }
        if (n == 0) {
            if (last_pass)
                break;
            if (__atomic_load_n(&finished, __ATOMIC_ACQUIRE) == nthreads)
                last_pass = 1;
            else
                ring_wait(&cons, 10);
            continue;
        }
        memcpy(&h, buf, sizeof h);
        if (h.code == DAPTO_REC_LOST) {
            memcpy(&count, buf + DAPTO_RECORD_HEADER + 1, sizeof count);
            lost += count;
            continue;
        }
        if (!intact(buf, n, nthreads)) {
            fprintf(stderr, "round %d: torn or foreign record accepted\n", r);
            ok = 0;
            break;
        }
        if (overwrite ? (int64_t)h.aux < next[h.code] : (int64_t)h.aux != next[h.code]) {
            fprintf(stderr, "round %d: producer %u: record %u after %lld\n", r,
                    h.code, h.aux, (long long)next[h.code]);
            ok = 0;
            break;
        }
        next[h.code] = (int64_t)h.aux + 1;
        total++;
        if (pause != 0 && total % (1000u * (unsigned int)pause) == 0) {
            struct timespec ts = {0, 100000L * pause};
            nanosleep(&ts, NULL);
        }
    }
    for (i = 0; i < nthreads; i++)
        pthread_join(p[i].th, NULL);
    {
        unsigned int produced = 0;

        for (i = 0; i < nthreads; i++)
            produced += p[i].count;
        if (ok && (overwrite ? total + lost != produced
                             : total != produced || lost != 0)) {
            fprintf(stderr, "round %d: %u produced, %u received, %lld lost\n",
                    r, produced, total, (long long)lost);
            ok = 0;
        }
        printf("round %d: %u received, %lld lost\n", r, total, (long long)lost);
    }
    CHECK(ok);
    region_close(&reg);
}

int main(int argc, char **argv)
{
    const char *env = getenv("RING_STRESS_SEED");
    uint64_t seed, s;
    int rounds = argc > 2 ? atoi(argv[2]) : 8, r;

    if (argc > 1)
        seed = strtoull(argv[1], NULL, 0);
    else if (env != NULL)
        seed = strtoull(env, NULL, 0);
    else
        seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 20);
    printf("ring-stress: seed %llu (replay: ring-stress %llu %d)\n",
           (unsigned long long)seed, (unsigned long long)seed, rounds);
    s = seed | 1;
    for (r = 0; r < rounds; r++)
        round_once(&s, r);
    return unit_done("ring-stress");
}
