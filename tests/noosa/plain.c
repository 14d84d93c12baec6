/* SPDX-License-Identifier: MIT */
/*
 * plain.c - a program without the monitoring runtime, for the tests of
 * what noosa says about it (tests/noosa/cli.sh).
 */
#include <stdio.h>

int main(void)
{
    puts("plain");
    return 0;
}
