/* SPDX-License-Identifier: MIT */
/*
 * tsc-hooks.c - the least a time profile with exact self times does per
 * call, preloaded (LD_PRELOAD) into a -finstrument-functions build in
 * place of libdapto's hooks, as uftrace's are: each entry and exit reads
 * the time stamp counter and adds the time since the last entry or exit
 * to the thread's total, and nothing else (no call path, no counts).
 * bench/profile-run.sh and bench/zlib-run.sh time it beside the profile
 * kept by the program: what a call costs over the instrumented build
 * here is the floor of any profile that reads the clock at every entry
 * and exit on this machine.
 */
#include <stdint.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#else
#include <time.h>
#endif

#define NOINSTR __attribute__((no_instrument_function))

/* The thread's last time and the total charged (kept so that the reads
 * are used). */
static __thread uint64_t tsc_last, tsc_total;

static inline NOINSTR uint64_t tsc_now(void)
{
#if defined(__x86_64__) || defined(__i386__)
    return __rdtsc();
#else
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

static inline NOINSTR void tsc_mark(void)
{
    uint64_t now = tsc_now();

    tsc_total += now - tsc_last;
    tsc_last = now;
}

NOINSTR void __cyg_profile_func_enter(void *fn, void *site);
NOINSTR void __cyg_profile_func_exit(void *fn, void *site);

NOINSTR void __cyg_profile_func_enter(void *fn, void *site)
{
    (void)fn;
    (void)site;
    tsc_mark();
}

NOINSTR void __cyg_profile_func_exit(void *fn, void *site)
{
    (void)fn;
    (void)site;
    tsc_mark();
}
