/* SPDX-License-Identifier: MIT */
/*
 * runtime-bench.c - the monitor side of `make bench-runtime`: it starts
 * bench/runtime-loop with the channel (tests/runtime/tmon.c), records
 * tick and enter/leave, leaves quiet off, stops at every halt and resumes
 * at once, drains the ring concurrently, and prints the loop's figures
 * with ratios against its no-event baseline, and the consumer's rate.
 * With "threads" in the second argument (tsc+threads), the program's
 * threads write their records into buffers of their own <protocol#tbuf>
 * instead of the ring (stops still go through the ring).
 *
 *   runtime-bench LOOP [tsc|ns][+threads] [ITERATIONS ROUNDS STOPS]
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "dapto.h"
#include "tmon.h"

static uint64_t now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static unsigned char policy(void *ctx, const char *aspect, const char *event)
{
    (void)ctx;
    (void)aspect;
    if (strcmp(event, "quiet") == 0)
        return DAPTO_STATE_OFF;
    if (strcmp(event, "halt") == 0)
        return DAPTO_STATE_RECORD | DAPTO_STATE_STOP;
    return DAPTO_STATE_RECORD;
}

static double result(const char *out, const char *name)
{
    char key[64];
    const char *p;

    snprintf(key, sizeof key, "result %s ", name);
    p = strstr(out, key);
    return p != NULL ? atof(p + strlen(key)) : -1;
}

/* The ring alone, in this process and one thread: write ROUNDS batches
 * of BATCH records of one int (40 bytes), then take them; nanoseconds per
 * record for each side, best round. */
static void ring_alone(double *put_ns, double *take_ns)
{
    static unsigned char out[DAPTO_RECORD_MAX];
    _Alignas(8) unsigned char rec[48];
    struct region reg;
    struct region_geom g;
    struct ring r;
    struct dapto_record h;
    const char *cause;
    const int batch = 20000, rounds = 50;
    uint64_t t0, t1, t2;
    double p, t;
    int k, i, v = 0;

    *put_ns = *take_ns = -1;
    region_geom_default(&g);
    if (region_create(&reg, &g, &cause) != 0)
        return;
    ring_init(&r, &reg);
    memset(&h, 0, sizeof h);
    memset(rec, 0, sizeof rec);
    h.code = 6;
    h.len = 5;
    memcpy(rec, &h, sizeof h);
    rec[DAPTO_RECORD_HEADER] = DAPTO_K_INT;
    for (k = 0; k < rounds; k++) {
        t0 = now_ns();
        for (i = 0; i < batch; i++) {
            memcpy(rec + DAPTO_RECORD_HEADER + 1, &i, 4);
            ring_put(&r, (struct dapto_record *)(void *)rec);
        }
        t1 = now_ns();
        for (i = 0; i < batch; i++)
            v += (int)ring_take(&r, out, sizeof out);
        t2 = now_ns();
        p = (double)(t1 - t0) / batch;
        t = (double)(t2 - t1) / batch;
        if (*put_ns < 0 || p < *put_ns)
            *put_ns = p;
        if (*take_ns < 0 || t < *take_ns)
            *take_ns = t;
    }
    if (v != 40 * batch * rounds)
        *take_ns = -1;
    region_close(&reg);
}

int main(int argc, char **argv)
{
    static unsigned char buf[DAPTO_RECORD_MAX];
    static char out[1 << 16];
    struct tmon tm;
    struct region_geom g;
    struct dapto_record h;
    const char *clock = argc > 2 ? argv[2] : "tsc";
    char *args[] = {argv[1], argc > 3 ? argv[3] : "10000000",
                    argc > 4 ? argv[4] : "5", argc > 5 ? argv[5] : "20000", NULL};
    uint64_t data = 0, stops = 0, k, lost;
    double base, off, tick, enter;
    long len = 0;
    int st;

    if (argc < 2) {
        fprintf(stderr, "usage: runtime-bench LOOP [tsc|ns] [ITERATIONS ROUNDS STOPS]\n");
        return 2;
    }
    region_geom_default(&g);
    g.flags = strstr(clock, "tsc") != NULL ? DAPTO_RF_TSC : 0;
    if (strstr(clock, "overwrite") != NULL || strstr(clock, "nodrain") != NULL)
        g.flags |= DAPTO_RF_OVERWRITE;
    if (strstr(clock, "huge") != NULL)
        g.ring_size = 1u << 29;
    if (strstr(clock, "threads") != NULL) {
        g.tb_count = 8;
        g.tb_size = g.ring_size;
    }
    if (tmon_create(&tm, &g) != 0) {
        fprintf(stderr, "runtime-bench: %s\n", tm.err);
        return 1;
    }
    tm.policy = policy;
    if (strstr(clock, "huge") != NULL) /* fault the ring in */
        memset(tm.ring.data, 0, tm.ring.size);
    if (tmon_spawn(&tm, args, NULL) != 0) {
        fprintf(stderr, "runtime-bench: %s\n", tm.err);
        return 1;
    }
    if (strstr(clock, "nodrain") != NULL) {
        /* Only the producer's cost: acknowledge the aspects, then let the
         * ring overflow (overwrite mode) until the program ends. */
        while (tm.naspects < 2 && tmon_next(&tm, buf, 10000) > 0)
            ;
        while (waitpid(tm.pid, &tm.status, WNOHANG) != tm.pid) {
            struct dapto_mailbox *mb;
            uint32_t i;

            for (i = 0; i < tm.reg.geom.mbox_count; i++) {
                mb = region_mailbox(&tm.reg, i);
                if (__atomic_load_n(&mb->state, __ATOMIC_ACQUIRE) == DAPTO_MB_STOPPED)
                    tmon_resume(&tm, i);
            }
        }
        tm.exited = 1;
    }
    for (;;) {
        for (k = 0; k < 65536 && (len = tmon_next(&tm, buf, 0)) > 0; k++) {
            memcpy(&h, buf, sizeof h);
            if (h.code >= DAPTO_REC_FIRST)
                continue;
            if (h.flags & DAPTO_RECF_STOP) {
                stops++;
                if (!tm.exited && tmon_resume(&tm, h.aux) != 0)
                    fprintf(stderr, "runtime-bench: %s\n", tm.err);
                continue;
            }
            data++;
        }
        if (len < 0) {
            fprintf(stderr, "runtime-bench: %s\n", tm.err);
            break;
        }
        if (len == 0 && k == 0 && tmon_idle(&tm))
            break;
    }
    st = tmon_finish(&tm, out, sizeof out, 60000);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || strstr(out, "monitored 1") == NULL) {
        fprintf(stderr, "runtime-bench: the loop failed (status %#x):\n%s\n", st, out);
        tmon_close(&tm);
        return 1;
    }
    lost = tm.reg.hdr->lost;
    base = result(out, "base");
    off = result(out, "off");
    tick = result(out, "tick");
    enter = result(out, "enter");
    printf("runtime: %s iterations x %s rounds, medians; timestamps %s; "
           "%s %u KiB, lossless\n", args[1], args[2],
           g.flags ? "TSC" : "CLOCK_MONOTONIC",
           g.tb_count != 0 ? "each thread's own buffer" : "shared ring",
           g.ring_size >> 10);
    printf("                              ns/iteration   difference   ratio\n");
    printf("  no event                    %10.2f\n", base);
    printf("  event off                   %10.2f   %+10.2f   %5.2f\n", off,
           off - base, off / base);
    printf("  recorded event, one int     %10.2f   %+10.2f   %5.2f\n", tick,
           tick - base, tick / base);
    printf("  enter or leave, interned    %10.2f   %+10.2f   %5.2f  (per event)\n",
           enter, enter - base / 2, enter / (base / 2));
    for (uint32_t i = 0; i < tm.tb.count; i++)
        lost += tbuf_at(&tm.tb, i)->lost;
    printf("consumer: took %llu records (%llu from thread buffers), %llu lost; "
           "during the recorded loops records flowed at %.1f M/s\n",
           (unsigned long long)data, (unsigned long long)tm.tb_records,
           (unsigned long long)lost, 3e3 / (tick + 2 * enter));
    {
        double put, take;

        ring_alone(&put, &take);
        printf("ring alone (one thread, 40-byte records): ring_put %.1f ns, "
               "ring_take %.1f ns (%.0f M records/s)\n", put, take,
               take > 0 ? 1e3 / take : 0.0);
    }
    printf("stop round trip (stop, monitor resumes, return): median %.2f us, "
           "p90 %.2f us over %llu stops\n", result(out, "stop_median"),
           result(out, "stop_p90"), (unsigned long long)stops);
    if ((double)data != result(out, "events") + 3 || lost != 0)
        printf("runtime-bench: expected %.0f records and no loss\n",
               result(out, "events") + 3);
    tmon_close(&tm);
    return 0;
}
