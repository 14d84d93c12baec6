/* SPDX-License-Identifier: MIT */
/*
 * saint-main.c - a program compiled with -finstrument-functions that calls
 * into an instrumented shared library (saint-lib.c), for saint.sh.
 */
#include <stdio.h>
#include <stdlib.h>

#include "saint-lib.h"

static int twice(int n)
{
    return sl_work(n) + sl_work(n / 2);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100;

    printf("%d\n", twice(n));
    return 0;
}
