/* SPDX-License-Identifier: MIT */
/*
 * monitor-bench.c - drives monitor-loop through the monitor's modules
 * (channel, target), as noosa does, and measures:
 *
 *   monitor-bench stop N LOOP    every hit stops; the monitor takes the
 *                                stop record and resumes at once.  Prints
 *                                the median time between consecutive hits
 *                                (the program's own timestamps) and the
 *                                wall time per hit.
 *   monitor-bench flood N LOOP   every hit is recorded; prints events per
 *                                second decoded, and checks that none was
 *                                lost or out of order.
 *   monitor-bench plain N LOOP   the loop alone, not monitored (baseline).
 *   monitor-bench decode N LOOP  the reader alone: N hit records decoded
 *                                from memory (the monitor's own cost).
 *
 * With BENCH_PIN=1 in the environment (and two CPUs or more), the monitor
 * runs on CPU 0 and the program on CPU 1, so that the two never share a
 * CPU; with BENCH_PIN=same both run on CPU 0; otherwise the scheduler
 * places them.
 *
 * Output is one line of "key=value" words for bench/monitor-run.sh.
 */
#include "config.h"

#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "channel.h"
#include "clock.h"
#include "dapto.h"
#include "protocol.h"
#include "reader.h"
#include "registry.h"
#include "target.h"

static int cmp64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

static void die(const char *what, const char *cause)
{
    fprintf(stderr, "monitor-bench: %s: %s\n", what, cause);
    exit(1);
}

/* The reader alone on N copies of a hit record. */
static int decode(int n)
{
    struct {
        unsigned char b[64];
    } rec;
    struct registry *reg = registry_create();
    struct clock clk;
    struct reader *rd;
    struct reader_item it;
    struct dapto_record h;
    unsigned char *p;
    uint64_t t0, t;
    int32_t v;
    int64_t sum = 0;
    static const char name[] = "hit";
    size_t dl;

    memset(&clk, 0, sizeof clk);
    rd = reader_create(reg, &clk, 8);
    /* aspect "loop": event hit(int n) at code 6 */
#define PUT_INT(x) (*p++ = DAPTO_K_INT, v = (x), memcpy(p, &v, 4), p += 4)
#define PUT_STR(s) (*p++ = DAPTO_K_STR, v = (int32_t)strlen(s), memcpy(p, &v, 4), \
                    p += 4, memcpy(p, s, strlen(s) + 1), p += strlen(s) + 1)
    {
        static unsigned char big[512];
        uint64_t addr = 0x1000;
        p = big;
        PUT_STR("loop");
        PUT_STR("");
        PUT_INT(DAPTO_ABI_VERSION);
        PUT_INT(6);
        PUT_INT(1);
        PUT_INT(0);
        PUT_INT(0);
        PUT_STR(name);
        PUT_STR("");
        PUT_INT(1);
        *p++ = DAPTO_K_PTR;
        memcpy(p, &addr, 8);
        p += 8;
        PUT_INT(1);
        PUT_STR("n");
        PUT_STR("int");
        PUT_INT(DAPTO_K_INT);
        PUT_STR("");
        dl = (size_t)(p - big);
        if (registry_add(reg, big, dl, NULL) == NULL)
            die("decode", "bad description");
    }
    memset(&h, 0, sizeof h);
    h.size = 40;
    h.code = 6;
    h.tid = 1;
    h.len = 5;
    memcpy(rec.b, &h, sizeof h);
    t0 = clock_monotonic_ns();
    for (int i = 0; i < n; i++) {
        v = i;
        rec.b[32] = DAPTO_K_INT;
        memcpy(rec.b + 33, &v, 4);
        reader_record(rd, rec.b, 40, NULL, 0, &it);
        if (it.kind == READER_EVENT)
            sum += it.values[0].u.i;
    }
    t = clock_monotonic_ns() - t0;
    printf("events=%d wall_ns=%llu sum=%lld\n", n, (unsigned long long)t,
           (long long)sum);
    reader_free(rd);
    registry_free(reg);
    return 0;
}

static int plain(char **argv)
{
    uint64_t t0 = clock_monotonic_ns();
    int status;
    pid_t pid = fork();

    if (pid == 0) {
        execv(argv[0], argv);
        _exit(127);
    }
    waitpid(pid, &status, 0);
    printf("wall_ns=%llu\n", (unsigned long long)(clock_monotonic_ns() - t0));
    return 0;
}

int main(int argc, char **argv)
{
    struct channel_opts co;
    struct target_opts to;
    struct channel *ch;
    struct target *t;
    char *cause = NULL, *env[2], *pargv[3];
    int fds[2], stop, n, done = 0, status = -1;
    int64_t *times, events = 0, expect = 0, bad = 0;
    uint64_t t0;

    if (argc != 4) {
        fprintf(stderr, "usage: monitor-bench stop|flood|plain|decode N LOOP\n");
        return 2;
    }
    stop = strcmp(argv[1], "stop") == 0;
    n = atoi(argv[2]);
    pargv[0] = argv[3];
    pargv[1] = argv[2];
    pargv[2] = NULL;
    if (strcmp(argv[1], "plain") == 0)
        return plain(pargv);
    if (strcmp(argv[1], "decode") == 0)
        return decode(n);
    times = calloc((size_t)n + 1, sizeof *times);

    memset(&co, 0, sizeof co);
    co.default_state = stop ? DAPTO_STATE_RECORD | DAPTO_STATE_STOP
                            : DAPTO_STATE_RECORD;
    if (channel_create(&ch, &co, &cause) != 0)
        die("channel", cause);
    env[0] = (char *)channel_env(ch);
    env[1] = NULL;
    channel_fds(ch, fds);
    memset(&to, 0, sizeof to);
    to.argv = pargv;
    to.env = env;
    to.fd_in = to.fd_out = to.fd_err = -1;
    to.keep_fds = fds;
    to.nkeep = 2;
    t0 = clock_monotonic_ns();
    if (target_start(&t, &to, &cause) != 0)
        die("start", cause);
    channel_attach(ch, t);
    if (getenv("BENCH_PIN") != NULL && sysconf(_SC_NPROCESSORS_ONLN) > 1) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(strcmp(getenv("BENCH_PIN"), "same") == 0 ? 0 : 1, &set);
        sched_setaffinity(target_pid(t), sizeof set, &set);
        CPU_ZERO(&set);
        CPU_SET(0, &set);
        sched_setaffinity(0, sizeof set, &set);
    }
    target_continue(t, NULL);

    while (!done) {
        struct reader_item it;
        struct target_event ev;

        while (channel_next(ch, &it)) {
            if (it.kind == READER_ERROR)
                die("channel", it.message);
            if (it.kind != READER_EVENT)
                continue;
            if (strcmp(it.event->name, "hit") != 0) {
                if (it.stop >= 0 && channel_resume(ch, it.stop, &cause) != 0)
                    die("resume", cause);
                continue;
            }
            if (it.nvalues != 1 || it.values[0].u.i != expect)
                bad++;
            expect = it.values[0].u.i + 1;
            if (events < n)
                times[events] = it.ns;
            events++;
            if (it.stop >= 0 && channel_resume(ch, it.stop, &cause) != 0)
                die("resume", cause);
        }
        while (target_poll(t, &ev)) {
            if (ev.kind == TARGET_EV_EXITED || ev.kind == TARGET_EV_KILLED) {
                status = ev.kind == TARGET_EV_EXITED ? ev.status : 128 + ev.signo;
                done = 1;
            } else if (ev.kind == TARGET_EV_FAULT) {
                target_fault_pass(t, ev.tid, NULL);
            }
        }
        if (done) {
            /* what was committed before the exit */
            while (channel_next(ch, &it)) {
                if (it.kind == READER_EVENT)
                    events++;
            }
            break;
        }
        channel_wait(ch, 5);
    }
    uint64_t lost = channel_lost(ch);
    {
        uint64_t wall = clock_monotonic_ns() - t0;
        printf("events=%lld lost=%llu bad=%lld status=%d wall_ns=%llu",
               (long long)events, (unsigned long long)lost,
               (long long)bad, status, (unsigned long long)wall);
        if (stop && events > 2) {
            int64_t m = events < n ? events : n;
            printf(" mean_ns=%lld", (long long)((times[m - 1] - times[0]) / (m - 1)));
            for (int64_t i = 0; i + 1 < m; i++)
                times[i] = times[i + 1] - times[i];
            qsort(times, (size_t)(m - 1), sizeof *times, cmp64);
            printf(" median_ns=%lld p90_ns=%lld", (long long)times[(m - 1) / 2],
                   (long long)times[(m - 1) * 9 / 10]);
        }
        printf("\n");
    }
    target_free(t);
    channel_free(ch);
    free(times);
    return events == n && bad == 0 && lost == 0 ? 0 : 1;
}
