/* SPDX-License-Identifier: MIT */
/*
 * futex.h - futex wait and wake on words of the shared region, and the
 * spinning before them.  The region is shared between processes, so
 * these are the shared (not _PRIVATE) operations.  The futex calls
 * preserve errno: the runtime calls them from the program's event path,
 * where errno belongs to the program.
 */
#ifndef NOOSA_FUTEX_H
#define NOOSA_FUTEX_H

#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <linux/futex.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Sleep while *WORD == VAL, at most TIMEOUT_MS milliseconds (< 0: no
 * limit).  Returns when woken, on timeout, on a signal, or at once if the
 * word already differs; the caller re-checks its condition. */
static inline void futex_wait(uint32_t *word, uint32_t val, int timeout_ms)
{
    struct timespec ts, *tsp = NULL;
    int saved = errno;

    if (timeout_ms >= 0) {
        ts.tv_sec = timeout_ms / 1000;
        ts.tv_nsec = (long)(timeout_ms % 1000) * 1000000L;
        tsp = &ts;
    }
    syscall(SYS_futex, word, FUTEX_WAIT, val, tsp, NULL, 0);
    errno = saved;
}

/* Wake up to N waiters on WORD (INT_MAX for all). */
static inline void futex_wake(uint32_t *word, int n)
{
    int saved = errno;

    syscall(SYS_futex, word, FUTEX_WAKE, n, NULL, NULL, 0);
    errno = saved;
}

/* A pause while spinning on a word another CPU writes. */
static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ volatile("yield" ::: "memory");
#else
    __asm__ volatile("" ::: "memory");
#endif
}

/* CLOCK_MONOTONIC in microseconds, for bounding a spin. */
static inline uint64_t now_us(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/*
 * Yielding while spinning <protocol#spin>: a spinner yields its CPU now
 * and then to the side it waits for, which may share that CPU.  When that
 * side runs elsewhere the yield only hands a time slice to whatever else
 * runs here (another program's loop takes 3 to 4 ms of it a yield), so
 * each side says in the region on which CPU it last waited (CPU + 1; 0
 * where a side does not say), and a spinner yields only to a side on its
 * own CPU, or one it knows nothing of.
 */
static inline uint32_t cpu_here(void)
{
    int c = sched_getcpu();

    return c < 0 ? 0 : (uint32_t)c + 1;
}

/* Say in WORD that this side waits on this CPU (a store only when it
 * moved: the word's line is seldom written). */
static inline void cpu_say(uint32_t *word)
{
    uint32_t c = cpu_here();

    if (c != 0 && __atomic_load_n(word, __ATOMIC_RELAXED) != c)
        __atomic_store_n(word, c, __ATOMIC_RELAXED);
}

/* Whether a yield may give the CPU to the side whose CPU WORD says. */
static inline int cpu_yield_pays(const uint32_t *word)
{
    uint32_t p = __atomic_load_n(word, __ATOMIC_RELAXED), c;

    if (p == 0)
        return 1;
    c = cpu_here();
    return c == 0 || c == p;
}

/* A lock for short sections that may be taken from a signal handler or by
 * another process of the region: no futex, a yield while it is held. */
static inline void spin_lock(uint32_t *l)
{
    uint32_t zero;

    for (;;) {
        zero = 0;
        if (__atomic_compare_exchange_n(l, &zero, 1, 0, __ATOMIC_ACQUIRE,
                                        __ATOMIC_RELAXED))
            return;
        sched_yield();
    }
}

static inline void spin_unlock(uint32_t *l)
{
    __atomic_store_n(l, 0, __ATOMIC_RELEASE);
}

#endif /* NOOSA_FUTEX_H */
