/* SPDX-License-Identifier: MIT */
/*
 * dv.c - a program with C data of every kind, for print, the frames and
 * browsing (tests/debug): it builds a list of nodes whose last points
 * back to the first, walks it emitting visit for each node, then done.
 * Built at -O0 and -O2 (and without debug information, and stripped)
 * from this one file.  Argument: how many nodes to walk (4); or
 * "crash" (walk, then write through a null pointer in crash()), or
 * "wait" (walk, then sleep in wait_here() until killed, to be attached
 * to); or "loop N" (N visits round the list, for bench/debug-run.sh);
 * or "badname" (a visit whose name is at an address nothing maps: the
 * event's generated encoder faults reading it).
 */
/* The optimisation the build asks for, whatever CFLAGS say: the tests
 * compare -O0 and -O2 each with gdb. */
#if defined(DV_OPT0)
#pragma GCC optimize("O0")
#elif defined(DV_OPT2)
#pragma GCC optimize("O2")
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dv.h"
#include "dv_dapto.h"

struct node nodes[4];
node_t *head;
static int counter = 42;
int big[1000];
char greeting[] = "hello, world";
const char *message = "tab\there\nand \"quotes\" \\ done";
char zeros[32];
char runs[] = "aaaaaaaaaaaaaaaaaaaaaaab";
int matrix[3][4] = {{1, 2, 3, 4}, {5, 6, 7, 8}};
enum flags fl = F_A | F_C;
enum flags fl_odd = (enum flags)(F_A | 8);
color_t col = BLUE;
_Bool ok = 1;
float fval = 4.2f;
double dval = 0.1;
long double ldval = 1.5L;
unsigned char uc = 200;
signed char sc = -5;
short sh = -300;
unsigned long long ull = 18446744073709551615ULL;
int *nullp;
int *badp = (int *)8;
char *badstr = (char *)8;
void *vp = &counter;
struct {
    int a;
    struct {
        int b, c;
    } inner;
} anon_global = {1, {2, 3}};
typedef struct {
    int x, y;
} point_t;
point_t origin = {1, 2};
Entry last_entry;

__attribute__((noinline)) int square(int x)
{
    return x * x;
}

__attribute__((noinline)) static void fill(struct node *n, int i)
{
    snprintf(n->name, sizeof n->name, "node%d", i);
    n->count = 10 * i;
    n->weight = 1.5 * i;
    n->c = (enum color)(i % 3 == 0 ? RED : i % 3 == 1 ? GREEN : BLUE);
    for (int k = 0; k < 4; k++)
        n->vals[k] = i * (k + 1);
    n->u.i = i;
    n->flag_a = (unsigned int)(i & 1);
    n->flag_b = (unsigned int)(i % 8);
    n->small = -i;
    n->pos.x = (short)i;
    n->pos.y = (short)-i;
    n->l = 0x0102030405060708L * i;
    n->fn = i % 2 ? square : NULL;
    n->label = i % 2 ? "odd" : NULL;
    n->self = n;
}

/* Walks the list from N, emitting visit; returns the sum of the counts. */
__attribute__((noinline)) int walk(node_t *n, int limit)
{
    int sum = 0, depth;
    double avg = 0;
    char tag[8] = "walk";
    point_t at = {3, 4};

    for (depth = 0; depth < limit && n != NULL; depth++) {
        sum += n->count;
        avg = (double)sum / (depth + 1);
        _dapto_visit(depth, n, n->name);
        /* changed after the event: a value opened later reads it so */
        n->weight += 100;
        at.x += depth;
        n = n->next;
    }
    last_entry = n;
    if (avg < 0 || tag[0] == 0 || at.y == 0)
        puts("never");
    return sum;
}

/* Writes through N's label (null for an even node): SIGSEGV. */
__attribute__((noinline)) void crash(struct node *n, int why)
{
    int local = why * 7;

    *(volatile char *)n->label = (char)local;
    printf("not reached %d\n", local);
}

/* Sleeps until killed; the file says it is there. */
__attribute__((noinline)) void wait_here(struct node *n, const char *file)
{
    int rounds = 0;
    FILE *f = fopen(file, "w");

    if (f != NULL) {
        fprintf(f, "%d\n", (int)getpid());
        fclose(f);
    }
    for (;;) {
        rounds++;
        n->count = rounds;
        usleep(10000);
    }
}

int main(int argc, char **argv)
{
    int crashing = argc > 1 && strcmp(argv[1], "crash") == 0;
    int waiting = argc > 2 && strcmp(argv[1], "wait") == 0;
    int looping = argc > 2 && strcmp(argv[1], "loop") == 0;
    int limit = argc > 1 && !crashing && !waiting && !looping ? atoi(argv[1])
                                                              : 4;
    int total, i;

    for (i = 0; i < 4; i++)
        fill(&nodes[i], i);
    for (i = 0; i < 3; i++)
        nodes[i].next = &nodes[i + 1];
    nodes[3].next = &nodes[0];
    head = &nodes[0];
    for (i = 0; i < 1000; i++)
        big[i] = i % 7 == 0 ? 0 : i;
    if (argc > 1 && strcmp(argv[1], "badname") == 0) {
        _dapto_visit(0, &nodes[0], (const char *)(size_t)8);
        return 0;
    }
    if (looping) {
        long k, rounds = atol(argv[2]);

        for (k = 0; k < rounds; k++)
            _dapto_visit((int)k, &nodes[k % 4], nodes[k % 4].name);
        return 0;
    }
    total = walk(head, limit);
    _dapto_done(total, last_entry, &counter);
    if (crashing)
        crash(&nodes[2], 3);
    if (waiting)
        wait_here(&nodes[1], argv[2]);
    printf("total %d\n", total + counter);
    return 0;
}
