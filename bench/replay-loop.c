/* SPDX-License-Identifier: MIT */
/*
 * replay-loop.c - the loop recorded by the moves benchmark
 * (bench/replay-moves.sh): N iterations, each emitting tick, and mark at
 * the iterations given (a breakpoint's event, rare in a long recording).
 *
 *     replay-loop N [MARK ...]
 */
#include <stdlib.h>

#include "rloop_dapto.h"

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000;
    int k = 2;

    for (long i = 0; i < n; i++) {
        _dapto_tick((int)i);
        if (k < argc && i == atol(argv[k])) {
            _dapto_mark((int)i);
            k++;
        }
    }
    return 0;
}
