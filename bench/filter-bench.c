/* SPDX-License-Identifier: MIT */
/*
 * filter-bench.c - the monitor side of `make bench-filter`: it starts
 * bench/filter-loop with the channel (tests/runtime/tmon.c), leaves `off`
 * at state 0, records `rec`, puts a filter `$i < 0` (never true) on `fno`
 * and `$i >= 0` (always true) on `fyes` (tests/runtime/fbuild.c writes
 * them, lib/channel/filter.c puts them), with the counters noosa keeps
 * (events checked and passed, per filter and per clause), defines a
 * question <protocol#question> counting and summing `fq`'s i (as
 * `question add q fq i` does, lib/channel/qarea.c), drains the ring on
 * another CPU when there is one, checks the counts and the question's
 * answer, and prints the cost of each kind of event against state 0.
 *
 *   filter-bench LOOP [ITERATIONS ROUNDS]
 */
#include "config.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dapto.h"
#include "fbuild.h"
#include "filter.h"
#include "qarea.h"
#include "tmon.h"

struct ctx {
    struct tmon *tm;
    struct filter_space fs;
    struct filter_entry entries[64];
    int put;
};

static unsigned char policy(void *p, const char *aspect, const char *event)
{
    struct ctx *c = p;
    unsigned char f[DAPTO_FILTER_MAX];
    static const unsigned char kinds[] = {DAPTO_K_INT};
    struct fprog prog;
    struct fclause cl;
    const char *cause = "";
    char msg[200];
    int code = tmon_event_code(c->tm, aspect, event), yes;
    size_t len;

    if (strcmp(event, "rec") == 0)
        return DAPTO_STATE_RECORD;
    if (strcmp(event, "fq") == 0) {
        /* question 0's clause */
        cl = fc_question(&prog, 10, 11);
        len = fbuild(f, 0, 8, 9, &cl, 1);
    } else if (strcmp(event, "fno") != 0 && strcmp(event, "fyes") != 0) {
        return DAPTO_STATE_OFF;
    } else {
        yes = strcmp(event, "fyes") == 0;
        fp_init(&prog);
        fp_cmp_arg(&prog, 0, yes ? DAPTO_FCMP_GE : DAPTO_FCMP_LT, 0);
        cl = fc(DAPTO_STATE_RECORD, &prog);
        cl.checked = (uint16_t)(4 * yes + 2);
        cl.passed = (uint16_t)(4 * yes + 3);
        len = fbuild(f, 0, (uint16_t)(4 * yes), (uint16_t)(4 * yes + 1), &cl, 1);
    }
    msg[0] = '\0';
    if (code < 0 || filter_check(f, len, kinds, 1, msg, sizeof msg) != 0 ||
        filter_put(&c->fs, (uint32_t)code, f, len, &cause) != 0) {
        fprintf(stderr, "filter-bench: filter of %s refused: %s%s\n", event, msg,
                cause);
        return DAPTO_STATE_OFF;
    }
    c->put++;
    return DAPTO_STATE_FILTER;
}

static double result(const char *out, const char *name)
{
    char key[64];
    const char *p;

    snprintf(key, sizeof key, "result %s ", name);
    p = strstr(out, key);
    return p != NULL ? atof(p + strlen(key)) : -1;
}

int main(int argc, char **argv)
{
    static unsigned char buf[DAPTO_RECORD_MAX];
    static char out[1 << 16];
    static struct ctx ctx;
    struct tmon tm;
    struct region_geom g;
    char *args[] = {argv[1], argc > 2 ? argv[2] : "10000000",
                    argc > 3 ? argv[3] : "7", NULL};
    const char *cause = "";
    uint64_t data = 0;
    double base, off, rec, fno, fyes, fq;
    static struct qarea qa;
    struct dapto_question d;
    unsigned char ent[4096];
    uint64_t qcount = 0, qsum = 0, want_sum;
    uint32_t slot, e;
    long iters = atol(args[1]), rounds = atol(args[2]);
    int torn;
    long len = 0, k;
    cpu_set_t cpus;
    int st, ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);

    if (argc < 2) {
        fprintf(stderr, "usage: filter-bench LOOP [ITERATIONS ROUNDS]\n");
        return 2;
    }
    region_geom_default(&g);
    g.flags = DAPTO_RF_TSC;
    if (tmon_create(&tm, &g) != 0) {
        fprintf(stderr, "filter-bench: %s\n", tm.err);
        return 1;
    }
    ctx.tm = &tm;
    if (filter_space_init(&ctx.fs, &tm.reg, 64, ctx.entries, &cause) != 0) {
        fprintf(stderr, "filter-bench: %s\n", cause);
        return 1;
    }
    /* question 0: count and sum of fq's i, no key, as noosa shapes it */
    memset(&d, 0, sizeof d);
    d.value = DAPTO_QV_INT;
    d.value_arg = 0;
    if (qarea_init(&qa, &tm.reg, &cause) != 0 || qarea_shape(&d, 256) != 0 ||
        qarea_define(&qa, 0, &d, &cause) != 0) {
        fprintf(stderr, "filter-bench: question: %s\n", cause);
        return 1;
    }
    tm.policy = policy;
    tm.ctx = &ctx;
    if (tmon_spawn(&tm, args, NULL) != 0) {
        fprintf(stderr, "filter-bench: %s\n", tm.err);
        return 1;
    }
    /* the program pins itself to CPU 0; the consumer goes to CPU 1 */
    if (ncpu > 1) {
        CPU_ZERO(&cpus);
        CPU_SET(1, &cpus);
        sched_setaffinity(0, sizeof cpus, &cpus);
    }
    for (;;) {
        for (k = 0; k < 65536 && (len = tmon_next(&tm, buf, 0)) > 0; k++)
            if (((struct dapto_record *)(void *)buf)->code < DAPTO_REC_FIRST)
                data++;
        if (len < 0) {
            fprintf(stderr, "filter-bench: %s\n", tm.err);
            break;
        }
        if (len == 0 && k == 0 && tmon_idle(&tm))
            break;
    }
    st = tmon_finish(&tm, out, sizeof out, 60000);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || strstr(out, "monitored 1") == NULL ||
        ctx.put != 3) {
        fprintf(stderr, "filter-bench: the loop failed (status %#x):\n%s\n", st, out);
        tmon_close(&tm);
        return 1;
    }
    base = result(out, "base");
    off = result(out, "off");
    rec = result(out, "rec");
    fno = result(out, "fno");
    fyes = result(out, "fyes");
    fq = result(out, "fq");
    /* the question's answer: every thread's entries */
    for (slot = 0; slot < qarea_threads(&qa); slot++)
        for (e = 0; e < qa.def[0].nent; e++)
            if (qarea_entry(&qa, 0, slot, e, ent, &torn)) {
                qcount += ((struct dapto_qentry *)(void *)ent)->count;
                qsum += ((struct dapto_qentry *)(void *)ent)->sum;
            }
    want_sum = (uint64_t)rounds * (uint64_t)(iters * (iters - 1) / 2);
    printf("filter: %s iterations x %s rounds, medians; program %s to CPU 0, "
           "consumer %s; timestamps TSC\n", args[1], args[2],
           strstr(out, "pinned 1") ? "pinned" : "NOT pinned",
           ncpu > 1 ? "on CPU 1" : "on the same CPU");
    printf("                                   ns/iteration  ns/event over (a)  ratio to (a)\n");
    printf("  no event                         %8.2f\n", base);
    printf("  (a) state 0                      %8.2f\n", off);
    printf("  (b) RECORD, no filter            %8.2f    %+8.2f         %6.2f\n", rec,
           rec - off, rec / off);
    printf("  (c) FILTER, false ($i < 0)       %8.2f    %+8.2f         %6.2f\n", fno,
           fno - off, fno / off);
    printf("  (d) FILTER, true ($i >= 0)       %8.2f    %+8.2f         %6.2f\n", fyes,
           fyes - off, fyes / off);
    printf("  (e) question, count and sum of i %8.2f    %+8.2f         %6.2f\n", fq,
           fq - off, fq / off);
    printf("consumer: took %llu records, %llu lost; counters: fno checked %llu "
           "passed %llu, fyes checked %llu passed %llu\n",
           (unsigned long long)data, (unsigned long long)tm.reg.hdr->lost,
           (unsigned long long)filter_counter(&tm.reg, 0),
           (unsigned long long)filter_counter(&tm.reg, 1),
           (unsigned long long)filter_counter(&tm.reg, 4),
           (unsigned long long)filter_counter(&tm.reg, 5));
    if ((double)data != result(out, "events") || tm.reg.hdr->lost != 0 ||
        filter_counter(&tm.reg, 1) != 0 ||
        filter_counter(&tm.reg, 5) != filter_counter(&tm.reg, 4))
        printf("filter-bench: expected %.0f records, none lost, fno never passed, "
               "fyes always\n", result(out, "events"));
    printf("question: count %llu sum %llu%s\n", (unsigned long long)qcount,
           (unsigned long long)qsum,
           qcount == (uint64_t)(rounds * iters) && qsum == want_sum &&
                   filter_counter(&tm.reg, 11) == qcount
               ? ", as the loop made them"
               : ", NOT what the loop made");
    tmon_close(&tm);
    return 0;
}
