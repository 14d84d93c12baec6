/* SPDX-License-Identifier: MIT */
/*
 * stacks-test.c - the calling-context tree and the component stacks on
 * their own (no program): interning, paths, pushes and pops per thread,
 * what listeners hear, and how leaves that do not match are tolerated.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cct.h"
#include "stacks.h"
#include "unit.h"

static char heard[4096];

static void listen(void *arg, int what, pid_t tid, const char *name,
                   int64_t ns)
{
    static const char *const whats[] = {"push", "pop", "mismatch"};
    size_t len = strlen(heard);

    (void)arg;
    snprintf(heard + len, sizeof heard - len, "%s%s:%d:%s:%lld",
             len > 0 ? " " : "", whats[what], (int)tid, name, (long long)ns);
}

static void test_cct(void)
{
    struct cct *c = cct_create();
    uint32_t a = cct_intern(c, "driver", 6), b = cct_intern(c, "parser!", 6);
    uint32_t n1, n2, n3, i, prev;
    char *p;

    CHECK_EQ_INT(cct_intern(c, "driver", 6), a);
    CHECK_EQ_INT(cct_intern(c, "parser", 6), b);
    CHECK(strcmp(cct_text(c, b), "parser") == 0);
    CHECK(strcmp(cct_text(c, 0), "") == 0);
    n1 = cct_child(c, CCT_ROOT, a);
    n2 = cct_child(c, n1, b);
    n3 = cct_child(c, CCT_ROOT, b);
    CHECK(n1 != n2 && n2 != n3 && n1 != n3);
    CHECK_EQ_INT(cct_child(c, n1, b), n2);
    CHECK_EQ_INT(cct_find(c, n1, b), n2);
    CHECK_EQ_INT(cct_find(c, n2, a), UINT32_MAX);
    CHECK_EQ_INT(cct_parent(c, n2), n1);
    CHECK_EQ_INT(cct_parent(c, CCT_ROOT), CCT_ROOT);
    CHECK_EQ_INT(cct_depth(c, n2), 2);
    CHECK(n2 > n1);
    p = cct_path(c, n2, "/");
    CHECK(strcmp(p, "driver/parser") == 0);
    free(p);
    p = cct_path(c, n2, " ; ");
    CHECK(strcmp(p, "driver ; parser") == 0);
    free(p);
    p = cct_path(c, CCT_ROOT, "/");
    CHECK(strcmp(p, "") == 0);
    free(p);

    /* a deep path and many names: the tables grow and stay right */
    prev = CCT_ROOT;
    for (i = 0; i < 5000; i++) {
        char name[32];
        uint32_t id;

        snprintf(name, sizeof name, "f%u", i % 700);
        id = cct_intern(c, name, strlen(name));
        prev = cct_child(c, prev, id);
    }
    CHECK_EQ_INT(cct_depth(c, prev), 5000);
    CHECK_EQ_INT(cct_nnames(c), 3 + 700);
    CHECK_EQ_INT(cct_nnodes(c), 4 + 5000);
    for (i = 0, prev = CCT_ROOT; i < 5000; i++) {
        char name[32];

        snprintf(name, sizeof name, "f%u", i % 700);
        prev = cct_find(c, prev, cct_intern(c, name, strlen(name)));
        if (prev == UINT32_MAX)
            break;
    }
    CHECK_EQ_INT(cct_depth(c, prev), 5000);
    cct_free(c);
}

static void test_stacks(void)
{
    struct stacks *st = stacks_create(NULL, NULL, NULL);
    int64_t ns = 0;
    uint32_t ctx;

    stacks_listen(st, listen, NULL);
    stacks_enter(st, 7, "driver", 6, 10);
    stacks_enter(st, 7, "parser", 6, 20);
    stacks_enter(st, 8, "driver", 6, 25);
    CHECK_EQ_INT(stacks_depth(st, 7), 2);
    CHECK_EQ_INT(stacks_depth(st, 8), 1);
    CHECK_EQ_INT(stacks_depth(st, 9), 0);
    CHECK(strcmp(stacks_frame(st, 7, 0, &ns), "driver") == 0);
    CHECK_EQ_INT(ns, 10);
    CHECK(strcmp(stacks_frame(st, 7, 1, NULL), "parser") == 0);
    CHECK(stacks_frame(st, 7, 2, NULL) == NULL);
    CHECK(stacks_frame(st, 9, 0, NULL) == NULL);
    /* the same path in another thread is the same context */
    ctx = stacks_context(st, 8);
    CHECK(ctx == cct_parent(stacks_cct(st), stacks_context(st, 7)));
    CHECK_EQ_INT(stacks_nthreads(st), 2);
    CHECK_EQ_INT(stacks_thread(st, 0), 7);
    CHECK_EQ_INT(stacks_thread(st, 1), 8);

    stacks_leave(st, 7, "parser", 6, 30);
    stacks_leave(st, 8, "driver", 6, 35);
    CHECK_EQ_INT(stacks_context(st, 8), CCT_ROOT);
    CHECK(strcmp(heard, "push:7:driver:10 push:7:parser:20 push:8:driver:25 "
                        "pop:7:parser:30 pop:8:driver:35") == 0);

    /* a leave of a frame under the innermost pops down to it */
    heard[0] = '\0';
    stacks_enter(st, 7, "lexical", 7, 40);
    stacks_enter(st, 7, "string", 6, 50);
    stacks_leave(st, 7, "lexical", 7, 60);
    CHECK_EQ_INT(stacks_depth(st, 7), 1);
    CHECK(strcmp(heard, "push:7:lexical:40 push:7:string:50 "
                        "mismatch:7:lexical:60 pop:7:string:60 "
                        "pop:7:lexical:60") == 0);
    /* a leave of nothing on the stack is ignored */
    heard[0] = '\0';
    stacks_leave(st, 7, "tree", 4, 70);
    stacks_leave(st, 9, "tree", 4, 70);
    CHECK(heard[0] == '\0');
    CHECK_EQ_INT(stacks_depth(st, 7), 1);
    CHECK_EQ_INT(stacks_depth(st, 9), 0);

    /* many threads */
    for (pid_t t = 100; t < 400; t++)
        stacks_enter(st, t, "worker", 6, t);
    for (pid_t t = 100; t < 400; t++)
        CHECK_EQ_INT(stacks_depth(st, t), 1);
    stacks_unlisten(st, listen, NULL);
    heard[0] = '\0';
    stacks_leave(st, 100, "worker", 6, 500);
    CHECK(heard[0] == '\0');
    CHECK_EQ_INT(stacks_depth(st, 100), 0);

    stacks_clear(st);
    CHECK_EQ_INT(stacks_nthreads(st), 0);
    CHECK_EQ_INT(stacks_depth(st, 7), 0);
    stacks_free(st);
}

int main(void)
{
    test_cct();
    test_stacks();
    return unit_done("stacks-test");
}
