/* SPDX-License-Identifier: MIT */
/*
 * saint-lib.c - a shared library compiled with -finstrument-functions,
 * for saint.sh: its functions are named from the library's own symbols,
 * wherever the dynamic linker put it.
 */
#include "saint-lib.h"

static int sl_step(int n)
{
    return n % 3 == 0 ? n / 3 : n - 1;
}

int sl_work(int n)
{
    if (n <= 0)
        return 0;
    return 1 + sl_work(sl_step(n));
}
