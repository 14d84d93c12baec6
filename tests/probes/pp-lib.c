/* SPDX-License-Identifier: MIT */
/*
 * pp-lib.c - a shared library with USDT probes (tests/probes): one
 * guarded by a semaphore, which fires only while a tool counts it up, and
 * one without.
 */
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>

#include "pp.h"

unsigned short lib_work_semaphore __attribute__((section(".probes")));
unsigned short lib_plain_semaphore __attribute__((section(".probes")));

int pp_lib_work(int x)
{
    if (__builtin_expect(lib_work_semaphore, 0))
        DTRACE_PROBE2(lib, work, x, "from the library");
    DTRACE_PROBE1(lib, plain, (long)x * 3);
    return x + 1;
}
