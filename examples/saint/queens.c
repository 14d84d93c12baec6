/* SPDX-License-Identifier: MIT */
/*
 * queens.c - the eight queens, counted by backtracking: a small program
 * with no monitoring code in it, to be compiled with -finstrument-functions
 * and linked with libdapto (see README).  Every function becomes a
 * component on noosa's stacks, but for safe(), which is marked
 * no_instrument_function: it is called most often, and its calls are not
 * worth a record each.
 */
#include <stdio.h>
#include <stdlib.h>

#define MAXN 16

static int column[MAXN]; /* column[r]: the column of the queen on row r */

/* Whether a queen at (row, col) is attacked by those of rows 0..row-1. */
__attribute__((no_instrument_function)) static int safe(int row, int col)
{
    int r;

    for (r = 0; r < row; r++) {
        if (column[r] == col || abs(column[r] - col) == row - r)
            return 0;
    }
    return 1;
}

static long place(int row, int n)
{
    long found = 0;
    int col;

    if (row == n)
        return 1;
    for (col = 0; col < n; col++) {
        if (safe(row, col)) {
            column[row] = col;
            found += place(row + 1, n);
        }
    }
    return found;
}

static void report(int n, long found)
{
    printf("%d queens: %ld solutions\n", n, found);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 8;

    if (n < 1 || n > MAXN) {
        fprintf(stderr, "usage: queens [N]  (1 <= N <= %d)\n", MAXN);
        return 2;
    }
    report(n, place(0, n));
    return 0;
}
