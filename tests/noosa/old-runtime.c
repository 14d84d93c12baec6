/* SPDX-License-Identifier: MIT */
/*
 * old-runtime.c - a program that looks like one linked with a runtime
 * from before attaching existed: it has dapto_register but none of the
 * attach entry points.  It prints "ready", then waits for the end of its
 * standard input (tests/noosa/attach.sh).
 */
#include <stdio.h>

__attribute__((visibility("default"), noinline)) void dapto_register(void *a);

void dapto_register(void *a)
{
    (void)a;
}

int main(void)
{
    char line[64];

    dapto_register(NULL);
    printf("ready\n");
    fflush(stdout);
    while (fgets(line, sizeof line, stdin) != NULL)
        ;
    return 0;
}
