/* SPDX-License-Identifier: MIT */
/*
 * lt.c - the program of the tests of monitoring under load (lt.dapto):
 *
 *   lt loop N LABEL [PAUSE_NS]   N ticks, busy PAUSE_NS between them; says
 *                                how many its quick clauses decided
 *   lt threads T N LIVE          T threads, at most LIVE at a time (the
 *                                others start as they end), N tocks each,
 *                                a rare event every thousandth
 *   lt scribble N                N ticks, a commit word of impossible size
 *                                written at the ring's head, N ticks more
 *   lt scribble-filters N        N ticks, its filter and counter areas
 *                                overwritten with random bytes, N more
 *   lt scribble-buffer N         N ticks, a record of impossible size
 *                                written into its own thread buffer, N
 *                                ticks more
 *   lt stopped                   one tick, to stop at and send operations
 *   lt stopped-old               the same, its runtime hiding the way to
 *                                interrupt operations (as before 1.0.1)
 *   lt daemon SECS FILE          a child that double-forks into a daemon,
 *                                which writes "alive" to FILE after SECS
 *                                seconds
 *   lt workers N K               N processes (fork), each K ticks
 *                                labelled "worker I"; the parent then
 *                                says "workers: N ended"
 *   lt vfork                     a tick, a child made by vfork that
 *                                executes /bin/true, a tick
 *   lt exec PROG ARG...          a tick, then exec PROG
 *   lt fork-exec PROG ARG...     a child that ticks and executes PROG; the
 *                                parent waits for it, ticks and says
 *                                "fork-exec: status S"
 *                                LT_FORK_WAIT=FILE: the parent announces
 *                                the fork only once FILE exists (PROG
 *                                creates it, so it runs by then; 20 s at
 *                                most)
 *   lt fork-loop N [PAUSE_NS]    a child that executes lt loop N child;
 *                                the parent meanwhile ticks N times
 *                                labelled "parent" (i from 0), busy
 *                                PAUSE_NS between them, waits for it and
 *                                says "fork-loop: status S"
 *   lt forker N K MS             N times: wait MS ms, then a child that
 *                                ticks K times, waits MS ms and exits,
 *                                waited for; then "forker: N ended" (to
 *                                be attached to while it runs)
 *   lt flood                     ticks for ever
 *   lt busy T FILE               T threads emitting tocks flat out until
 *                                FILE exists (for attaching to it while
 *                                they run); then "busy: T threads"
 *                                LT_IDLE=K: its first K threads run
 *                                under SCHED_IDLE.
 *                                LT_TOCK_ON=ON: once ON exists, the
 *                                program itself turns tock on (writes
 *                                its state byte), then creates ON.done
 *   lt churn LIVE FILE           threads that come and go (LIVE at a
 *                                time, 100000 tocks each) until FILE
 *                                exists; then "churn: N threads"
 *   lt vec FILE                  (x86-64) the main thread keeps a pattern
 *                                in its sixteen vector registers and
 *                                looks at them after each busy loop,
 *                                until FILE exists; then "vec: kept", or
 *                                at once "vec: xmmK changed" (status 3)
 *   lt trails T N LIVE           T threads, at most LIVE at a time, N
 *                                tocks each (more threads than the
 *                                region has trails: later ones take
 *                                those of ended ones), a tick "alarm"
 *                                from a SIGALRM handler every 100 us in
 *                                whichever thread it interrupts; the
 *                                last LIVE threads wait after their
 *                                tocks, and the main thread then
 *                                dereferences a null pointer
 *   lt labels N                  N ticks labelled in turn "", "x",
 *                                "alpha", a word of 40 bytes, one of
 *                                1500 (cut in a record), a null pointer
 *   lt null                      a tick whose label is a null pointer
 *   lt signals N [LABEL]         N ticks labelled "main" (i from 0) while
 *                                a SIGALRM handler ticks LABEL ("alarm")
 *                                every 100 us in their midst (LABEL
 *                                "many": h0 to h31 in turn); then
 *                                "signals: N main, K alarm"
 *   lt big MB                    a tick whose label is MB megabytes long
 *
 * The runtime is compiled in (tests/load/local.mk): scribble reaches into
 * its region the way a program with a wild pointer would.  LT_CPU=N in
 * the environment keeps the program on CPU N; LT_PIDFILE=FILE has it
 * write its pid to FILE first.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <stdint.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lt.h"
#include "lt_dapto.h"
#include "rtbuf.h"   /* the thread's buffer, for scribble-buffer */
#include "runtime.h" /* the runtime's region, for scribble */

volatile int lt_ticks;
volatile uintptr_t lt_zero; /* a null pointer the compiler cannot see */

int lt_spin(void)
{
    for (;;)
        lt_ticks += 0;
}

int lt_nap(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};

    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
    return ms;
}

static uint64_t now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void tick(const char *label)
{
    _dapto_tick(lt_ticks, label);
    lt_ticks++;
}

static int loop(long n, const char *label, long pause_ns)
{
    for (long i = 0; i < n; i++) {
        tick(label);
        if (pause_ns > 0) {
            uint64_t until = now_ns() + (uint64_t)pause_ns;
            while (now_ns() < until)
                ;
        }
    }
    printf("loop: %ld ticks\n", n);
    /* <protocol#quick>: how many its encoder decided without the runtime */
    printf("loop: %llu decided by quick clauses\n", dapto_quick_self.decided);
    return 0;
}

/* threads: a pool of LIVE slots; each thread takes a number, emits, and
 * gives its slot to the next. */
static long per_thread;
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pool_cond = PTHREAD_COND_INITIALIZER;
static int live;

static void *worker(void *arg)
{
    int th = (int)(long)arg;

    for (long i = 0; i < per_thread; i++) {
        _dapto_tock(th, i);
        if (i % 1000 == 999)
            _dapto_rare(th, i);
    }
    pthread_mutex_lock(&pool_lock);
    live--;
    pthread_cond_signal(&pool_cond);
    pthread_mutex_unlock(&pool_lock);
    return NULL;
}

static int threads(int total, long n, int most)
{
    pthread_t *ids = calloc((size_t)total, sizeof *ids);
    pthread_attr_t attr;
    int i;

    if (ids == NULL || most < 1)
        return 2;
    per_thread = n;
    pthread_attr_init(&attr);
    for (i = 0; i < total; i++) {
        pthread_mutex_lock(&pool_lock);
        while (live >= most)
            pthread_cond_wait(&pool_cond, &pool_lock);
        live++;
        pthread_mutex_unlock(&pool_lock);
        if (pthread_create(&ids[i], &attr, worker, (void *)(long)i) != 0) {
            perror("pthread_create");
            return 1;
        }
    }
    for (i = 0; i < total; i++)
        pthread_join(ids[i], NULL);
    printf("threads: %d x %ld tocks\n", total, n);
    free(ids);
    return 0;
}

/* busy: threads that emit until the main thread sees FILE. */
static int busy_stop;

static void *busy_worker(void *arg)
{
    int th = (int)(long)arg;
    long i = 0;
    const char *idle = getenv("LT_IDLE");

    if (idle != NULL && th < atoi(idle)) {
        /* (a thread the scheduler runs only when nothing else wants
         * its CPU) */
        struct sched_param sp = {0};

        if (pthread_setschedparam(pthread_self(), SCHED_IDLE, &sp) != 0) {
            fprintf(stderr, "lt: SCHED_IDLE refused\n");
            exit(1);
        }
    }
    while (!__atomic_load_n(&busy_stop, __ATOMIC_RELAXED)) {
        _dapto_tock(th, i);
        if (++i % 1000 == 0)
            _dapto_rare(th, i);
    }
    return NULL;
}

static int busy(int total, const char *file)
{
    int tock_on = 0;
    pthread_t ids[64];
    int i;

    if (total < 1 || total > 64)
        return 2;
    for (i = 0; i < total; i++) {
        if (pthread_create(&ids[i], NULL, busy_worker, (void *)(long)i) != 0) {
            perror("pthread_create");
            return 1;
        }
    }
    printf("busy: started\n");
    fflush(stdout);
    while (access(file, F_OK) != 0) {
        struct timespec ts = {0, 10000000};
        const char *on = getenv("LT_TOCK_ON");

        if (on != NULL && !tock_on && access(on, F_OK) == 0) {
            char done[4096];
            FILE *f;

            /* a wild write into the program's own state byte */
            __atomic_store_n(&lt_dapto_state[1], DAPTO_STATE_RECORD,
                             __ATOMIC_RELAXED);
            tock_on = 1;
            snprintf(done, sizeof done, "%s.done", on);
            if ((f = fopen(done, "w")) != NULL)
                fclose(f);
        }
        nanosleep(&ts, NULL);
    }
    __atomic_store_n(&busy_stop, 1, __ATOMIC_RELAXED);
    for (i = 0; i < total; i++)
        pthread_join(ids[i], NULL);
    printf("busy: %d threads\n", total);
    return 0;
}

/* churn: short-lived threads, LIVE at a time, until FILE exists. */
static void *churn_worker(void *arg)
{
    int th = (int)(long)arg;

    for (long i = 0; i < 100000; i++)
        _dapto_tock(th, i);
    pthread_mutex_lock(&pool_lock);
    live--;
    pthread_cond_signal(&pool_cond);
    pthread_mutex_unlock(&pool_lock);
    return NULL;
}

static int churn(int most, const char *file)
{
    pthread_attr_t attr;
    pthread_t id;
    long n = 0;

    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    printf("churn: started\n");
    fflush(stdout);
    while (access(file, F_OK) != 0) {
        pthread_mutex_lock(&pool_lock);
        while (live >= most)
            pthread_cond_wait(&pool_cond, &pool_lock);
        live++;
        pthread_mutex_unlock(&pool_lock);
        if (pthread_create(&id, &attr, churn_worker, (void *)n) != 0) {
            perror("pthread_create");
            return 1;
        }
        n++;
    }
    pthread_mutex_lock(&pool_lock);
    while (live > 0)
        pthread_cond_wait(&pool_cond, &pool_lock);
    pthread_mutex_unlock(&pool_lock);
    printf("churn: %ld threads\n", n);
    return 0;
}

#if defined(__x86_64__)
/* vec: what a call noosa makes in a thread it stopped (attach, detach)
 * must leave in its vector registers: the thread may be in the middle of
 * code that keeps values there.  Nothing else changes them (the kernel
 * keeps them across switches and signals). */
static int vec(const char *file)
{
    _Alignas(16) uint64_t out[32];
    const uint64_t pat = 0x5a17c0de0ddba11ull;
    long rounds = 0;

    printf("vec: started\n");
    fflush(stdout);
    while (access(file, F_OK) != 0) {
        /* the pattern in every register, a loop of some milliseconds
         * (where an attach finds the thread), then all of them stored */
        __asm__ volatile("movq %[p], %%xmm0\n\t"
                         "punpcklqdq %%xmm0, %%xmm0\n\t"
                         "movdqa %%xmm0, %%xmm1\n\t"
                         "movdqa %%xmm0, %%xmm2\n\t"
                         "movdqa %%xmm0, %%xmm3\n\t"
                         "movdqa %%xmm0, %%xmm4\n\t"
                         "movdqa %%xmm0, %%xmm5\n\t"
                         "movdqa %%xmm0, %%xmm6\n\t"
                         "movdqa %%xmm0, %%xmm7\n\t"
                         "movdqa %%xmm0, %%xmm8\n\t"
                         "movdqa %%xmm0, %%xmm9\n\t"
                         "movdqa %%xmm0, %%xmm10\n\t"
                         "movdqa %%xmm0, %%xmm11\n\t"
                         "movdqa %%xmm0, %%xmm12\n\t"
                         "movdqa %%xmm0, %%xmm13\n\t"
                         "movdqa %%xmm0, %%xmm14\n\t"
                         "movdqa %%xmm0, %%xmm15\n\t"
                         "mov $20000000, %%ecx\n"
                         "1:\n\t"
                         "dec %%ecx\n\t"
                         "jnz 1b\n\t"
                         "movdqa %%xmm0, 0(%[o])\n\t"
                         "movdqa %%xmm1, 16(%[o])\n\t"
                         "movdqa %%xmm2, 32(%[o])\n\t"
                         "movdqa %%xmm3, 48(%[o])\n\t"
                         "movdqa %%xmm4, 64(%[o])\n\t"
                         "movdqa %%xmm5, 80(%[o])\n\t"
                         "movdqa %%xmm6, 96(%[o])\n\t"
                         "movdqa %%xmm7, 112(%[o])\n\t"
                         "movdqa %%xmm8, 128(%[o])\n\t"
                         "movdqa %%xmm9, 144(%[o])\n\t"
                         "movdqa %%xmm10, 160(%[o])\n\t"
                         "movdqa %%xmm11, 176(%[o])\n\t"
                         "movdqa %%xmm12, 192(%[o])\n\t"
                         "movdqa %%xmm13, 208(%[o])\n\t"
                         "movdqa %%xmm14, 224(%[o])\n\t"
                         "movdqa %%xmm15, 240(%[o])\n\t"
                         :
                         : [p] "r"(pat), [o] "r"(out)
                         : "rcx", "cc", "memory", "xmm0", "xmm1", "xmm2",
                           "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8",
                           "xmm9", "xmm10", "xmm11", "xmm12", "xmm13",
                           "xmm14", "xmm15");
        for (int i = 0; i < 32; i++) {
            if (out[i] != pat) {
                printf("vec: xmm%d changed (0x%llx) after %ld rounds\n",
                       i / 2, (unsigned long long)out[i], rounds);
                return 3;
            }
        }
        rounds++;
    }
    printf("vec: kept\n");
    return 0;
}
#endif

/* trails: waves of threads keeping events in their own trails while a
 * signal handler keeps more, then a fault <protocol#ttrail>. */
static long trails_n;
static int trails_last; /* the first thread of the last wave */
static int trails_ready;
static volatile int alarm_ticks;

static void alarm_tick(int signo)
{
    (void)signo;
    _dapto_tick(alarm_ticks, "alarm");
    alarm_ticks++;
}

static void *trails_worker(void *arg)
{
    int th = (int)(long)arg;

    for (long i = 0; i < trails_n; i++)
        _dapto_tock(th, i);
    pthread_mutex_lock(&pool_lock);
    if (th >= trails_last) {
        /* the last wave waits for the fault */
        trails_ready++;
        pthread_cond_broadcast(&pool_cond);
        for (;;)
            pthread_cond_wait(&pool_cond, &pool_lock);
    }
    live--;
    pthread_cond_broadcast(&pool_cond);
    pthread_mutex_unlock(&pool_lock);
    return NULL;
}

static int trails(int total, long n, int most)
{
    struct itimerval every = {{0, 100}, {0, 100}}, off = {{0, 0}, {0, 0}};
    pthread_attr_t attr;
    pthread_t id;
    int i;

    if (most < 1 || total < most)
        return 2;
    trails_n = n;
    trails_last = total - most;
    signal(SIGALRM, alarm_tick);
    setitimer(ITIMER_REAL, &every, NULL);
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    for (i = 0; i < total; i++) {
        pthread_mutex_lock(&pool_lock);
        while (live >= most)
            pthread_cond_wait(&pool_cond, &pool_lock);
        live++;
        pthread_mutex_unlock(&pool_lock);
        if (pthread_create(&id, &attr, trails_worker, (void *)(long)i) != 0) {
            perror("pthread_create");
            return 1;
        }
    }
    pthread_mutex_lock(&pool_lock);
    while (trails_ready < most)
        pthread_cond_wait(&pool_cond, &pool_lock);
    pthread_mutex_unlock(&pool_lock);
    setitimer(ITIMER_REAL, &off, NULL);
    printf("trails: %d threads, %d alarms\n", total, alarm_ticks);
    fflush(stdout);
    *(volatile int *)(uintptr_t)lt_zero = 1;
    return 0;
}

/* Ticks of the main thread with a signal handler's ticks of the same
 * event among them, landing anywhere in their encoding and filtering. */
static const char *signals_label = "alarm";
static char signals_many[32][4]; /* "many": h0 .. h31 */

static void signals_tick(int signo)
{
    (void)signo;
    _dapto_tick(alarm_ticks, signals_label != NULL ? signals_label
                                                   : signals_many[alarm_ticks % 32]);
    alarm_ticks++;
}

static int signals(long n)
{
    struct itimerval every = {{0, 100}, {0, 100}}, off = {{0, 0}, {0, 0}};

    signal(SIGALRM, signals_tick);
    setitimer(ITIMER_REAL, &every, NULL);
    for (long i = 0; i < n; i++)
        _dapto_tick((int)i, "main");
    setitimer(ITIMER_REAL, &off, NULL);
    printf("signals: %ld main, %d alarm\n", n, alarm_ticks);
    return 0;
}

/* A commit word at the position the next record would take, naming that
 * position, with a size no record can have <protocol#commit>. */
static int scribble(long n)
{
    struct dapto_region *h = runtime.region.hdr;
    uint64_t p, w;
    uint32_t c[2];

    loop(n, "before", 0);
    if (h != NULL) {
        p = __atomic_fetch_add(&h->head, 64, __ATOMIC_RELAXED);
        c[0] = 12345;
        c[1] = (uint32_t)(p >> 3);
        memcpy(&w, c, sizeof w);
        __atomic_store_n((uint64_t *)(void *)(runtime.ring.data + (p & runtime.ring.mask)),
                         w, __ATOMIC_RELEASE);
        ring_wake(&runtime.ring);
    }
    loop(n, "after", 0);
    printf("scribble: done\n");
    return 0;
}

/* A wild pointer into the thread's own buffer <protocol#tbuf>: a record
 * of a size no record can have where the next would go, published. */
static int scribble_buffer(long n)
{
    struct tbuf_prod *p = &rt_tb.p;

    loop(n, "before", 0);
    if (p->b != NULL && (p->head & runtime.tb.mask) + 64 <= runtime.tb.size &&
        p->head + 64 <= p->limit) {
        uint32_t c[2] = {12345, (uint32_t)(p->head >> 3)};

        memcpy(p->data + (p->head & runtime.tb.mask), c, sizeof c);
        p->head += 64;
        __atomic_store_n(&p->b->head, p->head, __ATOMIC_RELEASE);
    }
    loop(n, "after", 0);
    printf("scribble-buffer: done\n");
    return 0;
}

/* A wild pointer over the filters noosa wrote and their counters
 * <protocol#filter>: random bytes over both areas, between ticks. */
static int scribble_filters(long n)
{
    struct dapto_region *h = runtime.region.hdr;
    uint64_t x = 88172645463325252ull;

    loop(n, "before", 0);
    if (h != NULL) {
        unsigned char *base = (unsigned char *)h;
        uint32_t i;

        for (i = 0; i < h->filt_size; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            base[h->filt_off + i] = (unsigned char)x;
        }
        for (i = 0; i < h->cnt_slots * DAPTO_CNT_PER_SLOT * 8u; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            base[h->cnt_off + i] = (unsigned char)x;
        }
    }
    loop(n, "after", 0);
    printf("scribble-filters: done\n");
    return 0;
}

/* The body of child I of workers and forker: K ticks labelled "WHAT I",
 * a nap of MS ms, the end. */
static void child_ticks(const char *what, int i, long k, int ms)
{
    char label[32];

    snprintf(label, sizeof label, "%s %d", what, i);
    for (long j = 0; j < k; j++)
        _dapto_tick((int)j, label);
    if (ms > 0)
        lt_nap(ms);
    _exit(0);
}

/* workers: N processes emitting K ticks each. */
static int workers(int n, long k)
{
    int i, ended = 0, status;

    for (i = 0; i < n; i++) {
        pid_t c = fork();

        if (c < 0)
            return 1;
        if (c == 0)
            child_ticks("worker", i, k, 0);
        _dapto_forked((int)c);
    }
    while (ended < n) {
        if (wait(&status) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
            ended++;
    }
    printf("workers: %d ended\n", ended);
    return ended == n ? 0 : 1;
}

static int vforked(void)
{
    pid_t c;
    int status;

    tick("before vfork");
    c = vfork();
    if (c == 0) {
        execl("/bin/true", "true", (char *)NULL);
        _exit(127);
    }
    if (c < 0)
        return 1;
    while (waitpid(c, &status, 0) < 0 && errno == EINTR)
        ;
    tick("after vfork");
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}

static int daemonize(int secs, const char *file)
{
    pid_t child, w;
    int status;

    tick("before the fork");
    child = fork();
    if (child < 0)
        return 1;
    if (child == 0) {
        tick("in the child");
        if (setsid() < 0 || fork() != 0)
            _exit(0);
        /* the daemon */
        for (int i = 0; i < secs * 10; i++) {
            tick("in the daemon");
            lt_nap(100);
        }
        FILE *f = fopen(file, "w");
        if (f != NULL) {
            fprintf(f, "alive\n");
            fclose(f);
        }
        _exit(0);
    }
    _dapto_forked((int)child);
    while ((w = waitpid(child, &status, 0)) < 0 && errno == EINTR)
        ;
    tick("after the fork");
    printf("daemon: started\n");
    return 0;
}

/* fork-exec: a child that executes ARGV[0] after a tick. */
static int fork_exec(char **argv)
{
    const char *wait_for = getenv("LT_FORK_WAIT");
    int status, i;
    pid_t c = fork(), w;

    if (c < 0)
        return 1;
    if (c == 0) {
        tick("in the child");
        execv(argv[0], argv);
        perror(argv[0]);
        _exit(127);
    }
    for (i = 0; wait_for != NULL && access(wait_for, F_OK) != 0 && i < 2000;
         i++)
        usleep(10000);
    _dapto_forked((int)c);
    while ((w = waitpid(c, &status, 0)) < 0 && errno == EINTR)
        ;
    tick("after the child");
    printf("fork-exec: status %d\n",
           w == c && WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    return 0;
}

/* fork-loop: a child that executes SELF loop N child while the parent
 * ticks N times on its own. */
static int fork_loop(const char *self, long n, long pause_ns)
{
    char count[32];
    char *argv[5];
    int status;
    pid_t c, w;

    snprintf(count, sizeof count, "%ld", n);
    c = fork();
    if (c < 0)
        return 1;
    if (c == 0) {
        argv[0] = (char *)self;
        argv[1] = "loop";
        argv[2] = count;
        argv[3] = "child";
        argv[4] = NULL;
        execv(self, argv);
        perror(self);
        _exit(127);
    }
    for (long i = 0; i < n; i++) {
        _dapto_tick((int)i, "parent");
        if (pause_ns > 0) {
            uint64_t until = now_ns() + (uint64_t)pause_ns;
            while (now_ns() < until)
                ;
        }
    }
    while ((w = waitpid(c, &status, 0)) < 0 && errno == EINTR)
        ;
    printf("fork-loop: status %d\n",
           w == c && WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    return 0;
}

/* forker: N children, one every MS milliseconds, K ticks each. */
static int forker(int n, long k, int ms)
{
    int i, ended = 0, status;

    for (i = 0; i < n; i++) {
        pid_t c, w;

        lt_nap(ms);
        c = fork();
        if (c < 0)
            return 1;
        if (c == 0)
            child_ticks("child", i, k, ms);
        _dapto_forked((int)c);
        while ((w = waitpid(c, &status, 0)) < 0 && errno == EINTR)
            ;
        ended += w == c && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    }
    printf("forker: %d ended\n", ended);
    return ended == n ? 0 : 1;
}

static void usage(void)
{
    fprintf(stderr, "usage: lt loop N LABEL [PAUSE_NS] | threads T N LIVE | "
                    "scribble N | scribble-filters N | scribble-buffer N | "
                    "stopped | stopped-old | daemon SECS FILE | "
                    "exec PROG ARG... | fork-exec PROG ARG... | "
                    "fork-loop N [PAUSE_NS] | "
                    "forker N K MS | flood | null | big MB\n");
    exit(2);
}

int main(int argc, char **argv)
{
    const char *cpu = getenv("LT_CPU");

    setvbuf(stdout, NULL, _IOLBF, 0);
    /* LT_CPU=N: run on CPU N only (the stress tests place noosa and the
     * program on one CPU or on two) */
    if (getenv("LT_PIDFILE") != NULL) {
        FILE *f = fopen(getenv("LT_PIDFILE"), "w");

        if (f != NULL) {
            fprintf(f, "%d\n", (int)getpid());
            fclose(f);
        }
    }
    if (cpu != NULL && *cpu != '\0') {
        cpu_set_t set;

        CPU_ZERO(&set);
        CPU_SET(atoi(cpu), &set);
        if (sched_setaffinity(0, sizeof set, &set) != 0)
            perror("sched_setaffinity");
    }
    if (argc >= 4 && strcmp(argv[1], "loop") == 0)
        return loop(atol(argv[2]), argv[3], argc > 4 ? atol(argv[4]) : 0);
    if (argc == 5 && strcmp(argv[1], "threads") == 0)
        return threads(atoi(argv[2]), atol(argv[3]), atoi(argv[4]));
    if (argc == 3 && strcmp(argv[1], "scribble") == 0)
        return scribble(atol(argv[2]));
    if (argc == 3 && strcmp(argv[1], "scribble-filters") == 0)
        return scribble_filters(atol(argv[2]));
    if (argc == 3 && strcmp(argv[1], "scribble-buffer") == 0)
        return scribble_buffer(atol(argv[2]));
    if (argc == 2 && strcmp(argv[1], "stopped-old") == 0) {
        if (runtime.region.hdr != NULL)
            runtime.region.hdr->rt_interrupt = 0;
        argv[1] = "stopped";
    }
    if (argc == 2 && strcmp(argv[1], "stopped") == 0) {
        tick("stop here");
        printf("stopped: went on\n");
        return 0;
    }
    if (argc == 2 && strcmp(argv[1], "vfork") == 0)
        return vforked();
    if (argc == 4 && strcmp(argv[1], "workers") == 0)
        return workers(atoi(argv[2]), atol(argv[3]));
    if (argc == 4 && strcmp(argv[1], "daemon") == 0)
        return daemonize(atoi(argv[2]), argv[3]);
    if (argc == 4 && strcmp(argv[1], "churn") == 0)
        return churn(atoi(argv[2]), argv[3]);
    if (argc == 4 && strcmp(argv[1], "busy") == 0)
        return busy(atoi(argv[2]), argv[3]);
#if defined(__x86_64__)
    if (argc == 3 && strcmp(argv[1], "vec") == 0)
        return vec(argv[2]);
#endif
    if (argc == 2 && strcmp(argv[1], "flood") == 0)
        for (;;)
            tick("flood");
    if (argc == 3 && strcmp(argv[1], "labels") == 0) {
        static char w40[41], w1500[1501];
        const char *words[6] = {"", "x", "alpha", w40, w1500, NULL};
        long n = atol(argv[2]);

        memset(w40, 'w', 40);
        memset(w1500, 'l', 1500);
        for (long i = 0; i < n; i++)
            _dapto_tick((int)i, words[i % 6]);
        printf("labels: %ld ticks\n", n);
        return 0;
    }
    if (argc == 5 && strcmp(argv[1], "trails") == 0)
        return trails(atoi(argv[2]), atol(argv[3]), atoi(argv[4]));
    if ((argc == 3 || argc == 4) && strcmp(argv[1], "signals") == 0) {
        if (argc == 4)
            signals_label = argv[3];
        if (strcmp(signals_label, "many") == 0) {
            for (int k = 0; k < 32; k++)
                snprintf(signals_many[k], sizeof signals_many[k], "h%d", k);
            signals_label = NULL;
        }
        return signals(atol(argv[2]));
    }
    if (argc == 2 && strcmp(argv[1], "null") == 0) {
        _dapto_tick(-1, NULL);
        printf("null: done\n");
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "big") == 0) {
        size_t n = (size_t)atol(argv[2]) << 20;
        char *s = malloc(n + 1);

        if (s == NULL)
            return 1;
        memset(s, 'b', n);
        s[n] = '\0';
        _dapto_tick(-2, s);
        free(s);
        printf("big: done\n");
        return 0;
    }
    if (argc >= 3 && strcmp(argv[1], "fork-exec") == 0)
        return fork_exec(argv + 2);
    if ((argc == 3 || argc == 4) && strcmp(argv[1], "fork-loop") == 0)
        return fork_loop(argv[0], atol(argv[2]), argc == 4 ? atol(argv[3]) : 0);
    if (argc == 5 && strcmp(argv[1], "forker") == 0)
        return forker(atoi(argv[2]), atol(argv[3]), atoi(argv[4]));
    if (argc >= 3 && strcmp(argv[1], "exec") == 0) {
        tick("before the exec");
        execv(argv[2], argv + 2);
        perror(argv[2]);
        return 127;
    }
    usage();
    return 2;
}
