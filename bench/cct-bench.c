/* SPDX-License-Identifier: MIT */
/*
 * cct-bench.c - the runtime alone keeping the time profile of a
 * -finstrument-functions build in its call tree <protocol#cct>, without
 * noosa: the monitor (tests/runtime/tmon.c) turns on DAPTO_STATE_PROFILE
 * for the built-in enter and leave, defines the tree as noosa's `profile
 * time in program` does (lib/channel/qarea.c), runs PROGRAM (bench/
 * profile-calls, which times its own recursion), then checks that the
 * tree's calls are the calls the program made and prints the program's
 * line.  So the cost of a call in the program can be measured and counted
 * (callgrind) apart from noosa's start-up:
 *
 *     cct-bench PROGRAM ARGS...
 *
 * prints the program's output and "cct: N calls in M call paths, as the
 * program made them" (or says what differs).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "dapto.h"
#include "qarea.h"
#include "tmon.h"

static unsigned char policy(void *p, const char *aspect, const char *event)
{
    (void)p;
    if (strcmp(aspect, "dapto") == 0 &&
        (strcmp(event, "enter") == 0 || strcmp(event, "leave") == 0))
        return DAPTO_STATE_PROFILE;
    return DAPTO_STATE_OFF;
}

int main(int argc, char **argv)
{
    static unsigned char buf[DAPTO_RECORD_MAX];
    static char out[1 << 16];
    static struct qarea qa;
    unsigned char ent[4096];
    struct tmon tm;
    struct region_geom g;
    struct dapto_question d;
    const char *cause = "", *p;
    uint64_t calls = 0, paths = 0;
    uint32_t slot, e;
    long len;
    int st, torn;

    if (argc < 2) {
        fprintf(stderr, "usage: cct-bench PROGRAM ARGS...\n");
        return 2;
    }
    region_geom_default(&g);
    g.flags = DAPTO_RF_TSC;
    if (tmon_create(&tm, &g) != 0) {
        fprintf(stderr, "cct-bench: %s\n", tm.err);
        return 1;
    }
    /* the tree as profile-program.c defines it (ticks taken as ns: only
     * the calls are checked) */
    memset(&d, 0, sizeof d);
    d.value = DAPTO_QV_CCT;
    d.mult = 1ull << 32;
    if (qarea_init(&qa, &tm.reg, &cause) != 0 || qarea_shape(&d, 8192) != 0 ||
        qarea_define(&qa, DAPTO_Q_CCT, &d, &cause) != 0) {
        fprintf(stderr, "cct-bench: the tree: %s\n", cause);
        return 1;
    }
    tm.policy = policy;
    if (tmon_spawn(&tm, argv + 1, NULL) != 0) {
        fprintf(stderr, "cct-bench: %s\n", tm.err);
        return 1;
    }
    for (;;) {
        len = tmon_next(&tm, buf, 100);
        if (len < 0) {
            fprintf(stderr, "cct-bench: %s\n", tm.err);
            break;
        }
        if (len == 0 && tmon_idle(&tm))
            break;
    }
    st = tmon_finish(&tm, out, sizeof out, 600000);
    fputs(out, stdout);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        fprintf(stderr, "cct-bench: the program failed (status %#x)\n", st);
        tmon_close(&tm);
        return 1;
    }
    for (slot = 0; slot < qarea_threads(&qa); slot++)
        for (e = 0; e < qa.def[DAPTO_Q_CCT].nent; e++)
            if (qarea_entry(&qa, DAPTO_Q_CCT, slot, e, ent, &torn) &&
                ((struct dapto_qentry *)(void *)ent)->hash != 0) {
                calls += ((struct dapto_qentry *)(void *)ent)->count;
                paths++;
            }
    p = strstr(out, "calls=");
    /* main is instrumented too: one call more than fib's */
    printf("cct: %llu calls in %llu call paths, %s\n", (unsigned long long)calls,
           (unsigned long long)paths,
           p != NULL && (uint64_t)atoll(p + 6) + 1 == calls ? "as the program made them"
                                                          : "NOT what the program made");
    tmon_close(&tm);
    return 0;
}
