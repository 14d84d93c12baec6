/* SPDX-License-Identifier: MIT */
/* pp-dl.c - a library with a probe that pp-main loads with dlopen. */
#include <sys/sdt.h>

#include "pp.h"

int pp_dl_run(int n)
{
    DTRACE_PROBE2(dl, loaded, n, n * n);
    return n * n;
}
