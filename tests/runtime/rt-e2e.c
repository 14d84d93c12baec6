/* SPDX-License-Identifier: MIT */
/*
 * rt-e2e.c - end-to-end tests of libdapto without ptrace: the test
 * monitor (tmon.c) creates the region, starts rt-target with it, and
 * checks what arrives: hello and version fields, a version mismatch both
 * ways, aspect descriptions, every value type, stops with operations that
 * succeed, fail and crash, order before a stop, several threads,
 * interning, the trail, fork, overwrite mode, a program without monitor,
 * malformed channels, and filters evaluated in the program.
 *
 *   rt-e2e [TEST...]     run the named tests (all by default)
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "dapto.h"
#include "fbuild.h"
#include "filter.h"
#include "mailbox.h"
#include "tmon.h"
#include "ttrail.h"
#include "unit.h"

#define TIMEOUT 10000

static char target_path[4096], target_v99_path[4096], target_static_path[4096];
static unsigned char buf[DAPTO_RECORD_MAX];
static char out[1 << 16];

static struct dapto_record head_of(const unsigned char *b)
{
    struct dapto_record h;

    memcpy(&h, b, sizeof h);
    return h;
}

static uint64_t mono_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The program exited 0 and said nothing failed. */
static void check_output(struct tmon *tm, const char *name)
{
    int st = tmon_finish(tm, out, sizeof out, TIMEOUT);

    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || strstr(out, "FAIL") != NULL ||
        strstr(out, "done:") == NULL) {
        fprintf(stderr, "%s: program status %#x, output:\n%s\n", name, st, out);
        CHECK(!"the program ended well");
    }
}

static int expect_in(const char *what)
{
    if (strstr(out, what) != NULL)
        return 1;
    fprintf(stderr, "expected \"%s\" in the output:\n%s\n", what, out);
    return 0;
}

/* hello, version block, descriptions, ordinary events, exit and finit;
 * with the shared runtime or the runtime linked in (where the program's
 * constructors register before the runtime's own constructor runs). */
static void test_basic(int tsc, char *target)
{
    struct tmon tm;
    struct region_geom g;
    struct dapto_region_id id;
    struct tval v[8];
    struct tm_aspect *a;
    char *argv[] = {target, "basic", "--fds", "@FDS@", NULL};
    struct dapto_record h;
    uint64_t last = 0, start = mono_ns();
    int n, next_tick = 1, nrec = 0, seen_none = 0, seen_init = 0,
           seen_exit = 0, seen_finit = 0, ok_tid = 1, ok_time = 1, t_code;
    long len;

    region_geom_default(&g);
    g.flags = tsc ? DAPTO_RF_TSC : 0;
    CHECK(tmon_create(&tm, &g) == 0);
    tm.default_state = DAPTO_STATE_RECORD;
    CHECK(tmon_spawn(&tm, argv, NULL) == 0);

    /* hello first */
    len = tmon_next(&tm, buf, TIMEOUT);
    CHECK(len == 48);
    h = head_of(buf);
    CHECK_EQ_INT(h.code, DAPTO_REC_HELLO);
    CHECK_EQ_INT(h.tid, tm.pid);
    n = tmon_values(&tm, buf, (size_t)len, v, 8);
    CHECK(n == 2 && v[0].kind == DAPTO_K_INT && v[0].i == tm.pid &&
          v[1].kind == DAPTO_K_INT && v[1].i == 0);
    CHECK(region_runtime_id(&tm.reg, &id) == 1);
    CHECK_EQ_INT(id.rt_major, DAPTO_PROTO_MAJOR);
    CHECK_EQ_INT(id.rt_median, DAPTO_PROTO_MEDIAN);
    CHECK_EQ_INT(id.rt_minor, DAPTO_PROTO_MINOR);
    CHECK_EQ_INT(id.rt_pid, tm.pid);
    CHECK(tm.reg.hdr->rt_ns0 >= start && tm.reg.hdr->rt_ns0 <= mono_ns());
    if (tsc)
        CHECK(tm.reg.hdr->rt_tsc0 != 0);

    /* the built-in aspect's description comes next */
    len = tmon_next(&tm, buf, TIMEOUT);
    CHECK(len > 0 && head_of(buf).code == DAPTO_REC_ASPECT);
    a = tmon_aspect(&tm, "dapto");
    CHECK(a != NULL && tm.naspects == 1);
    if (a != NULL) {
        static const char *names[] = {"init", "finit", "exit",
                                      "stopped", "enter", "leave"};
        int e, ok = 1;

        CHECK(a->event_base == 0 && a->nevents == 6 && a->nops == 0);
        CHECK(a->abi == DAPTO_ABI_VERSION);
        for (e = 0; e < 6; e++)
            ok &= strcmp(a->ev[e].name, names[e]) == 0 && a->ev[e].state != 0;
        CHECK(ok);
        CHECK(a->ev[0].nparams == 1 && a->ev[0].kinds[0] == DAPTO_K_INT);
        CHECK(a->ev[3].nparams == 2 && a->ev[3].kinds[0] == DAPTO_K_STR &&
              a->ev[3].kinds[1] == DAPTO_K_INT);
        CHECK(a->ev[4].nparams == 1 && a->ev[4].kinds[0] == DAPTO_K_STR &&
              strcmp(a->ev[4].pnames[0], "name") == 0);
        CHECK(a->ev[0].visible == 1 && a->ev[4].visible == 0);
    }

    t_code = -1;
    for (;;) {
        len = tmon_next(&tm, buf, TIMEOUT);
        if (len <= 0)
            break;
        nrec++;
        h = head_of(buf);
        if (h.tid != (uint32_t)tm.pid)
            ok_tid = 0;
        if (h.time < last || (!tsc && (h.time < tm.reg.hdr->rt_ns0 ||
                                       h.time > mono_ns())) ||
            (tsc && h.time < tm.reg.hdr->rt_tsc0))
            ok_time = 0;
        last = h.time;
        if (h.code == DAPTO_REC_ASPECT) {
            a = tmon_aspect(&tm, "t");
            CHECK(a != NULL);
            if (a != NULL) {
                CHECK(a->event_base == 6 && a->nevents == 5);
                CHECK(a->op_base == 0 && a->nops == 8);
                CHECK(strcmp(a->op[0].name, "add") == 0 &&
                      a->op[0].nparams == 2 &&
                      strcmp(a->op[0].result, "int") == 0 &&
                      a->op[0].result_kind == DAPTO_K_INT);
                CHECK(strcmp(a->op[2].name, "crash") == 0 &&
                      a->op[2].result[0] == '\0' && a->op[2].result_kind == 0);
                CHECK(strcmp(a->ev[2].name, "all") == 0 &&
                      a->ev[2].kinds[5] == DAPTO_K_USER);
                CHECK(strstr(a->file, "rt.dapto") != NULL);
            }
            t_code = tmon_event_code(&tm, "t", "tick");
            CHECK(!seen_init || 1);
            continue;
        }
        n = tmon_values(&tm, buf, (size_t)len, v, 8);
        CHECK(n >= 0);
        if (h.code == DAPTO_EV_INIT) {
            seen_init++;
            CHECK(t_code < 0); /* before the program's aspect */
            CHECK(n == 1 && v[0].i == tm.pid);
        } else if (h.code == DAPTO_EV_EXIT) {
            seen_exit++;
            CHECK(n == 0 && !seen_finit);
        } else if (h.code == DAPTO_EV_FINIT) {
            seen_finit++;
            CHECK(n == 0 && seen_exit);
        } else if ((int)h.code == t_code) {
            CHECK(n == 1 && v[0].kind == DAPTO_K_INT);
            if (v[0].i != next_tick)
                CHECK_EQ_INT(v[0].i, next_tick);
            next_tick++;
        } else if ((int)h.code == tmon_event_code(&tm, "t", "none")) {
            seen_none++;
            CHECK(n == 0 && h.len == 0 && len == 32);
        } else {
            fprintf(stderr, "unexpected record code %u\n", h.code);
            CHECK(0);
        }
    }
    CHECK(len == 0);
    CHECK(ok_tid);
    CHECK(ok_time);
    CHECK_EQ_INT(next_tick, 102);
    CHECK(seen_none == 1 && seen_init == 1 && seen_exit == 1 && seen_finit == 1);
    CHECK_EQ_INT(tm.reg.hdr->lost, 0);
    check_output(&tm, "basic");
    CHECK(expect_in("ok: DAPTO_CHANNEL removed"));
    CHECK(expect_in("ok: region fd close-on-exec"));
    CHECK(expect_in("ok: eventfd close-on-exec"));
    CHECK(expect_in("ok: errno kept across an event"));
    tmon_close(&tm);
}

/* Every value type, NULL strings, a string cut to fit. */
static void test_types(void)
{
    struct tmon tm;
    struct tval v[8];
    char *argv[] = {target_path, "types", NULL};
    struct dapto_record h;
    int n, k = 0, code = -1;
    long len;

    CHECK(tmon_create(&tm, NULL) == 0);
    tm.default_state = DAPTO_STATE_RECORD;
    CHECK(tmon_spawn(&tm, argv, NULL) == 0);
    while ((len = tmon_next(&tm, buf, TIMEOUT)) > 0) {
        h = head_of(buf);
        if (code < 0)
            code = tmon_event_code(&tm, "t", "all");
        if ((int)h.code != code)
            continue;
        n = tmon_values(&tm, buf, (size_t)len, v, 8);
        switch (k++) {
        case 0:
            CHECK(n == 6);
            CHECK(v[0].kind == DAPTO_K_INT && v[0].i == INT_MIN);
            CHECK(v[1].kind == DAPTO_K_LONG && v[1].i == LONG_MAX);
            CHECK(v[2].kind == DAPTO_K_DOUBLE && v[2].d == -0.5);
            CHECK(v[3].kind == DAPTO_K_STR && strcmp(v[3].s, "hello") == 0 &&
                  v[3].slen == 5 && !v[3].trunc);
            CHECK(v[4].kind == DAPTO_K_PTR && v[4].p == 0x1234);
            CHECK(v[5].kind == DAPTO_K_UNKNOWN);
            CHECK(h.flags == 0 && len == (long)((32 + h.len + 7) & ~7u));
            break;
        case 1:
            CHECK(n == 6 && v[0].i == INT_MAX && v[1].i == LONG_MIN &&
                  v[2].d == 1e300 && v[3].slen == 0 && v[3].s[0] == '\0' &&
                  v[4].p == 0);
            break;
        case 2:
            CHECK(n == 6 && v[0].i == 0 && v[1].i == 0 && v[2].d == 0.0 &&
                  strcmp(v[3].s, "(null)") == 0 && v[4].p != 0);
            break;
        case 3:
            /* the string was cut to fit DAPTO_EVENT_MAX; what followed it
             * did not fit */
            CHECK(n == 4 && v[0].i == -1 && v[1].i == -1 && isinf(v[2].d));
            CHECK(v[3].kind == DAPTO_K_STR && v[3].trunc && v[3].slen > 900 &&
                  v[3].slen < 2999 && v[3].s[v[3].slen - 1] == 'x');
            CHECK((h.flags & DAPTO_RECF_TRUNC) != 0);
            CHECK(32 + h.len <= DAPTO_EVENT_MAX);
            break;
        }
    }
    CHECK_EQ_INT(k, 4);
    check_output(&tm, "types");
    tmon_close(&tm);
}

static unsigned char stop_policy(void *ctx, const char *a, const char *e)
{
    (void)ctx;
    (void)a;
    if (strcmp(e, "halt") == 0)
        return DAPTO_STATE_RECORD | DAPTO_STATE_STOP;
    return DAPTO_STATE_RECORD;
}

/* Encode arguments for a request. */
struct args {
    _Alignas(8) unsigned char b[256];
    struct dapto_out o;
};

static void args_init(struct args *a)
{
    memset(&a->o, 0, sizeof a->o);
    a->o.base = a->o.p = a->b;
    a->o.end = a->b + sizeof a->b;
}

static size_t args_len(const struct args *a)
{
    return (size_t)(a->o.p - a->b);
}

/* The results of a DONE mailbox, decoded. */
static int results(struct tmon *tm, struct dapto_mailbox *mb, struct tval *v,
                   int max)
{
    static unsigned char rec[DAPTO_RECORD_HEADER + DAPTO_MBOX_DATA];
    struct dapto_record h;

    if (mb->res_len > DAPTO_MBOX_DATA)
        return -1;
    memset(&h, 0, sizeof h);
    h.len = mb->res_len;
    memcpy(rec, &h, sizeof h);
    memcpy(rec + DAPTO_RECORD_HEADER, mb->data, mb->res_len);
    return tmon_values(tm, rec, DAPTO_RECORD_HEADER + mb->res_len, v, max);
}

static void expect_message(struct dapto_mailbox *mb, const char *what)
{
    if (mb == NULL)
        return;
    if (memchr(mb->message, '\0', sizeof mb->message) == NULL ||
        strstr(mb->message, what) == NULL) {
        fprintf(stderr, "expected \"%s\" in the message \"%.192s\"\n", what,
                mb->message);
        CHECK(!"message");
    }
}

/* A stop: everything before it first, then operations, then resume. */
static void test_stop(void)
{
    struct tmon tm;
    struct tval v[80];
    struct args a;
    struct dapto_mailbox *mb;
    struct dapto_record h;
    char *argv[] = {target_path, "stop", NULL};
    int n, pairs = 0, ticks = 0, code_tick = -1, code_pair = -1, code_halt = -1,
           stopped = 0, after = 0, inner_tick = 0, inner_halt = 0, ok = 1;
    uint32_t box = 0, worker = 0;
    long len;

    CHECK(tmon_create(&tm, NULL) == 0);
    tm.policy = stop_policy;
    CHECK(tmon_spawn(&tm, argv, NULL) == 0);
    while (!stopped && (len = tmon_next(&tm, buf, TIMEOUT)) > 0) {
        h = head_of(buf);
        if (h.code == DAPTO_REC_ASPECT && tmon_aspect(&tm, "t") != NULL) {
            code_tick = tmon_event_code(&tm, "t", "tick");
            code_pair = tmon_event_code(&tm, "t", "pair");
            code_halt = tmon_event_code(&tm, "t", "halt");
        }
        n = tmon_values(&tm, buf, (size_t)len, v, 8);
        if ((int)h.code == code_pair) {
            if (worker == 0)
                worker = h.tid;
            ok &= n == 2 && v[0].i == 1 && v[1].i == pairs && h.tid == worker;
            pairs++;
        } else if ((int)h.code == code_tick) {
            ok &= n == 1 && v[0].i == ticks + 1 && h.tid == (uint32_t)tm.pid;
            ticks++;
        } else if ((int)h.code == code_halt) {
            stopped = 1;
            CHECK((h.flags & DAPTO_RECF_STOP) != 0);
            CHECK(h.aux < tm.reg.geom.mbox_count);
            CHECK(n == 1 && v[0].i == 7 && h.tid == (uint32_t)tm.pid);
            box = h.aux;
        }
    }
    CHECK(ok);
    CHECK(stopped);
    /* everything emitted before the stop, by any thread, came before it */
    CHECK_EQ_INT(pairs, 1000);
    CHECK_EQ_INT(ticks, 100);
    CHECK(worker != 0 && worker != (uint32_t)tm.pid);
    if (!stopped) {
        tmon_close(&tm);
        return;
    }
    mb = region_mailbox(&tm.reg, box);
    CHECK(mailbox_state(mb) == DAPTO_MB_STOPPED && mb->tid == (uint32_t)tm.pid);

    /* ok */
    args_init(&a);
    dapto_put_int(&a.o, 2);
    dapto_put_int(&a.o, 3);
    mb = tmon_call(&tm, box, (uint32_t)tmon_op_code(&tm, "t", "add"), a.b,
                   args_len(&a), TIMEOUT);
    CHECK(mb != NULL && mb->status == DAPTO_OP_OK);
    CHECK(mb != NULL && results(&tm, mb, v, 8) == 1 && v[0].kind == DAPTO_K_INT &&
          v[0].i == 5);

    /* a string where an int belongs */
    args_init(&a);
    dapto_put_str(&a.o, "x");
    dapto_put_int(&a.o, 3);
    mb = tmon_call(&tm, box, (uint32_t)tmon_op_code(&tm, "t", "add"), a.b,
                   args_len(&a), TIMEOUT);
    CHECK(mb != NULL && mb->status == DAPTO_OP_ARGS && mb->res_len == 0);
    expect_message(mb, "argument 1 (a) of add: expected an int");

    /* too few, too many, malformed */
    args_init(&a);
    dapto_put_int(&a.o, 3);
    mb = tmon_call(&tm, box, (uint32_t)tmon_op_code(&tm, "t", "add"), a.b,
                   args_len(&a), TIMEOUT);
    CHECK(mb != NULL && mb->status == DAPTO_OP_ARGS);
    expect_message(mb, "add takes 2 arguments, 1 given");
    dapto_put_int(&a.o, 3);
    dapto_put_int(&a.o, 3);
    mb = tmon_call(&tm, box, (uint32_t)tmon_op_code(&tm, "t", "add"), a.b,
                   args_len(&a), TIMEOUT);
    CHECK(mb != NULL && mb->status == DAPTO_OP_ARGS);
    expect_message(mb, "add takes 2 arguments, more given");
    args_init(&a);
    dapto_put_str(&a.o, "abc");
    a.b[5 + 3] = 'd'; /* no NUL */
    mb = tmon_call(&tm, box, (uint32_t)tmon_op_code(&tm, "t", "echo"), a.b,
                   args_len(&a), TIMEOUT);
    CHECK(mb != NULL && mb->status == DAPTO_OP_ARGS);
    expect_message(mb, "argument 1 of echo is malformed");
    args_init(&a);
    dapto_put_int(&a.o, 3);
    a.b[0] = 0x33; /* no such tag */
    mb = tmon_call(&tm, box, (uint32_t)tmon_op_code(&tm, "t", "blob"), a.b,
                   args_len(&a), TIMEOUT);
    CHECK(mb != NULL && mb->status == DAPTO_OP_ARGS);
    expect_message(mb, "argument 1 of blob is malformed");

    /* a user type without DAPTO_ARG macro */
    args_init(&a);
    dapto_put_int(&a.o, 3);
    mb = tmon_call(&tm, box, (uint32_t)tmon_op_code(&tm, "t", "blob"), a.b,
                   args_len(&a), TIMEOUT);
    CHECK(mb != NULL && mb->status == DAPTO_OP_ARGS);
    expect_message(mb, "type Blob has no DAPTO_ARG macro");

    /* unknown operation */
    mb = tmon_call(&tm, box, 999, NULL, 0, TIMEOUT);
    CHECK(mb != NULL && mb->status == DAPTO_OP_UNKNOWN);
    expect_message(mb, "no operation with code 999");

    /* arguments longer than the mailbox, forged */
    mb = region_mailbox(&tm.reg, box);
    mb->op = (uint32_t)tmon_op_code(&tm, "t", "echo");
    mb->req_len = DAPTO_MBOX_DATA + 1;
    __atomic_store_n(&mb->state, DAPTO_MB_REQUEST, __ATOMIC_RELEASE);
    {
        struct timespec ts = {0, 1000000};
        int k;

        for (k = 0; k < 5000 && mailbox_state(mb) != DAPTO_MB_DONE; k++)
            nanosleep(&ts, NULL);
    }
    CHECK(mailbox_state(mb) == DAPTO_MB_DONE && mb->status == DAPTO_OP_ARGS);
    expect_message(mb, "more than the mailbox holds");

    /* a crash: reported, and the thread stays stopped */
    mb = tmon_call(&tm, box, (uint32_t)tmon_op_code(&tm, "t", "crash"), NULL, 0,
                   TIMEOUT);
    CHECK(mb != NULL && mb->status == DAPTO_OP_CRASHED);
    CHECK(mb != NULL && mb->signo == SIGSEGV && mb->fault_addr == 0x10);
    expect_message(mb, "operation crash crashed with SIGSEGV (signal 11) at 0x10");
    CHECK(mb != NULL && mb->res_len == 0);
    args_init(&a);
    dapto_put_int(&a.o, 20);
    dapto_put_int(&a.o, 22);
    mb = tmon_call(&tm, box, (uint32_t)tmon_op_code(&tm, "t", "add"), a.b,
                   args_len(&a), TIMEOUT);
    CHECK(mb != NULL && mb->status == DAPTO_OP_OK &&
          results(&tm, mb, v, 8) == 1 && v[0].i == 42);
    mb = tmon_call(&tm, box, (uint32_t)tmon_op_code(&tm, "t", "fail"), NULL, 0,
                   TIMEOUT);
    CHECK(mb != NULL && mb->status == DAPTO_OP_CRASHED && mb->signo == SIGABRT);
    expect_message(mb, "SIGABRT");

    /* every kind of result */
    args_init(&a);
    dapto_put_long(&a.o, 5);
    dapto_put_double(&a.o, 2.5);
    dapto_put_ptr(&a.o, (void *)77);
    mb = tmon_call(&tm, box, (uint32_t)tmon_op_code(&tm, "t", "every"), a.b,
                   args_len(&a), TIMEOUT);
    CHECK(mb != NULL && mb->status == DAPTO_OP_OK);
    n = mb != NULL ? results(&tm, mb, v, 8) : -1;
    CHECK(n == 6 && v[0].kind == DAPTO_K_LONG && v[0].i == 5 &&
          v[1].kind == DAPTO_K_DOUBLE && v[1].d == 2.5 &&
          v[2].kind == DAPTO_K_PTR && v[2].p == 77 &&
          v[3].kind == DAPTO_K_STR && strcmp(v[3].s, "(null)") == 0 &&
          v[4].kind == DAPTO_K_UNKNOWN && v[5].kind == DAPTO_K_INT && v[5].i == 42);
    args_init(&a);
    dapto_put_str(&a.o, "hello, world");
    mb = tmon_call(&tm, box, (uint32_t)tmon_op_code(&tm, "t", "echo"), a.b,
                   args_len(&a), TIMEOUT);
    CHECK(mb != NULL && mb->status == DAPTO_OP_OK && results(&tm, mb, v, 8) == 1 &&
          strcmp(v[0].s, "hello, world") == 0);

    /* results that do not fit */
    mb = tmon_call(&tm, box, (uint32_t)tmon_op_code(&tm, "t", "flood"), NULL, 0,
                   TIMEOUT);
    CHECK(mb != NULL && mb->status == DAPTO_OP_OVERFLOW &&
          mb->res_len <= DAPTO_MBOX_DATA && mb->res_len > 60000);
    expect_message(mb, "do not fit");

    /* events inside an operation are recorded, never stop */
    args_init(&a);
    dapto_put_int(&a.o, 555);
    mb = tmon_call(&tm, box, (uint32_t)tmon_op_code(&tm, "t", "emit"), a.b,
                   args_len(&a), TIMEOUT);
    CHECK(mb != NULL && mb->status == DAPTO_OP_OK);

    CHECK(tmon_resume(&tm, box) == 0);
    while ((len = tmon_next(&tm, buf, TIMEOUT)) > 0) {
        h = head_of(buf);
        n = tmon_values(&tm, buf, (size_t)len, v, 8);
        if ((int)h.code == code_tick && n == 1 && v[0].i == 555)
            inner_tick++;
        else if ((int)h.code == code_halt) {
            inner_halt++;
            CHECK(n == 1 && v[0].i == 555 && (h.flags & DAPTO_RECF_STOP) == 0);
        } else if ((int)h.code == code_tick && n == 1 && v[0].i == 1000)
            after++;
    }
    CHECK(inner_tick == 1 && inner_halt == 1 && after == 1);
    check_output(&tm, "stop");
    CHECK(expect_in("ok: errno kept across a stop"));
    CHECK(expect_in("ok: own SIGSEGV handler back after the stop"));
    CHECK(expect_in("ok: SIGABRT back to default after the stop"));
    CHECK(mailbox_state(region_mailbox(&tm.reg, box)) == DAPTO_MB_FREE);
    tmon_close(&tm);
}

/* Four threads stopping at the same time in two mailboxes: each stop is
 * seen once, in its thread's order, in a mailbox of its own. */
static void test_mstop(void)
{
    struct tmon tm;
    struct region_geom g;
    struct tval v[8];
    struct args a;
    struct dapto_record h;
    struct dapto_mailbox *mb;
    char *argv[] = {target_path, "mstop", NULL};
    int next[5] = {0, 0, 0, 0, 0}, n, who, seq, ok = 1, calls = 0, stops = 0,
        code = -1;
    long len;

    region_geom_default(&g);
    g.mbox_count = 2;
    CHECK(tmon_create(&tm, &g) == 0);
    tm.policy = stop_policy;
    CHECK(tmon_spawn(&tm, argv, NULL) == 0);
    while ((len = tmon_next(&tm, buf, TIMEOUT)) > 0) {
        h = head_of(buf);
        if (code < 0)
            code = tmon_event_code(&tm, "t", "halt");
        if ((int)h.code != code)
            continue;
        n = tmon_values(&tm, buf, (size_t)len, v, 8);
        who = n == 1 ? (int)v[0].i / 1000 : 0;
        seq = n == 1 ? (int)v[0].i % 1000 : 0;
        mb = region_mailbox(&tm.reg, h.aux);
        if (who < 1 || who > 4 || seq != next[who] || mb == NULL ||
            !(h.flags & DAPTO_RECF_STOP) || mailbox_state(mb) != DAPTO_MB_STOPPED ||
            mb->tid != h.tid) {
            ok = 0;
            break;
        }
        next[who]++;
        stops++;
        if (seq % 10 == 0) {
            /* an operation in this thread's mailbox while others wait */
            args_init(&a);
            dapto_put_int(&a.o, who);
            dapto_put_int(&a.o, seq);
            mb = tmon_call(&tm, h.aux, (uint32_t)tmon_op_code(&tm, "t", "add"),
                           a.b, args_len(&a), TIMEOUT);
            calls += mb != NULL && mb->status == DAPTO_OP_OK &&
                     results(&tm, mb, v, 8) == 1 && v[0].i == who + seq;
        }
        CHECK(tmon_resume(&tm, h.aux) == 0);
    }
    CHECK(ok);
    CHECK_EQ_INT(stops, 200);
    CHECK_EQ_INT(calls, 20);
    check_output(&tm, "mstop");
    tmon_close(&tm);
}

/* Several threads on a small ring: nothing lost, each thread in order. */
/* Five threads' records, each thread's whole and in order: through the
 * ring (BUFFERS 0); through buffers of their own <protocol#tbuf>, 4 KiB
 * each (1); and with buffers in the geometry of a monitor that speaks
 * minor 3, whose bytes there the runtime must take for padding: the ring
 * again (2). */
static void threads_ways(int buffers)
{
    struct tmon tm;
    struct region_geom g;
    struct tval v[4];
    struct dapto_record h;
    char *argv[] = {target_path, "threads", "4", "20000", NULL};
    int next[5] = {0}, code = -1, n, ok = 1, total = 0, k, j;
    uint32_t tid[5] = {0};
    long len;

    region_geom_default(&g);
    g.ring_size = 8192;
    if (buffers) {
        g.tb_count = 8;
        g.tb_size = 4096;
    }
    CHECK(tmon_create(&tm, &g) == 0);
    if (buffers == 2)
        tm.reg.hdr->id.minor = DAPTO_TBUF_MINOR - 1;
    tm.default_state = DAPTO_STATE_RECORD;
    CHECK(tmon_spawn(&tm, argv, NULL) == 0);
    while ((len = tmon_next(&tm, buf, TIMEOUT)) > 0) {
        h = head_of(buf);
        if (code < 0)
            code = tmon_event_code(&tm, "t", "pair");
        if ((int)h.code != code)
            continue;
        n = tmon_values(&tm, buf, (size_t)len, v, 4);
        if (n != 2 || v[0].i < 0 || v[0].i > 4 || v[1].i != next[v[0].i]) {
            ok = 0;
            continue;
        }
        k = (int)v[0].i;
        if (tid[k] == 0)
            tid[k] = h.tid;
        ok &= tid[k] == h.tid;
        next[k]++;
        total++;
        if (total % 4096 == 0) {
            /* a slow consumer now and then: producers wait for room */
            struct timespec ts = {0, 200000};
            nanosleep(&ts, NULL);
        }
    }
    CHECK(ok);
    CHECK_EQ_INT(total, 5 * 20000);
    CHECK(tid[0] == (uint32_t)tm.pid);
    for (k = 0; k < 5; k++)
        for (j = 0; j < k; j++)
            CHECK(tid[k] != tid[j]);
    CHECK_EQ_INT(tm.reg.hdr->lost, 0);
    CHECK_EQ_INT(tm.reg.hdr->head, tm.reg.hdr->tail);
    if (buffers == 1) {
        /* every pair through a buffer, none lost, each its thread's */
        CHECK(tm.tb_records >= 5 * 20000);
        for (uint32_t i = 0; i < tm.tb.count; i++) {
            struct dapto_tbuf *b = tbuf_at(&tm.tb, i);

            CHECK_EQ_INT(b->lost, 0);
            CHECK_EQ_INT(b->head, tm.tbc[i].ctail);
            for (k = 0; k < 5; k++)
                if (b->owner == tid[k])
                    break;
            CHECK(b->owner == 0 || k < 5);
        }
    } else {
        CHECK_EQ_INT(tm.tb_records, 0);
        for (uint32_t i = 0; i < tm.tb.count; i++)
            CHECK_EQ_INT(tbuf_at(&tm.tb, i)->owner, 0);
    }
    check_output(&tm, "threads");
    tmon_close(&tm);
}

static void test_threads(void)
{
    threads_ways(0);
}

static void test_buffers(void)
{
    threads_ways(1);
}

static void test_buffers_old(void)
{
    threads_ways(2);
}

/* Names of enter/leave travel as intern ids once defined. */
static void test_intern(void)
{
    struct tmon tm;
    struct tval v[4];
    struct dapto_record h;
    char *argv[] = {target_path, "intern", NULL};
    static const char *cycle[] = {"alpha", "beta", "beta", "alpha"};
    int n, k = 0, ok = 1, istr = 0, str = 0, defs = 0, stopped = 0;
    long len;
    const char *name;
    char want[16];

    CHECK(tmon_create(&tm, NULL) == 0);
    tm.default_state = DAPTO_STATE_RECORD;
    CHECK(tmon_spawn(&tm, argv, NULL) == 0);
    while ((len = tmon_next(&tm, buf, TIMEOUT)) > 0) {
        h = head_of(buf);
        if (h.code == DAPTO_REC_INTERN) {
            defs++;
            continue;
        }
        if (h.code == DAPTO_EV_STOPPED) {
            n = tmon_values(&tm, buf, (size_t)len, v, 4);
            stopped = n == 2 && strcmp(v[0].s, "here") == 0 && v[1].i == 3;
            continue;
        }
        if (h.code != DAPTO_EV_ENTER && h.code != DAPTO_EV_LEAVE)
            continue;
        n = tmon_values(&tm, buf, (size_t)len, v, 4);
        if (n != 1) {
            ok = 0;
            continue;
        }
        if (v[0].kind == DAPTO_K_ISTR) {
            name = v[0].i > 0 && v[0].i < TMON_INTERN ? tm.intern[v[0].i] : NULL;
            if (name == NULL) {
                ok = 0; /* used before its definition */
                continue;
            }
            if (k >= 4000 && k < 9000)
                istr++;
        } else {
            name = v[0].s;
            if (k >= 4000 && k < 9000)
                str++;
        }
        if (k < 4000) {
            ok &= strcmp(name, cycle[k % 4]) == 0 &&
                  h.code == (k % 4 < 2 ? DAPTO_EV_ENTER : DAPTO_EV_LEAVE) &&
                  v[0].kind == DAPTO_K_ISTR;
        } else if (k < 9000) {
            snprintf(want, sizeof want, "n%d", k - 4000);
            ok &= strcmp(name, want) == 0 && h.code == DAPTO_EV_ENTER;
        } else {
            ok &= strcmp(name, "(null)") == 0;
        }
        k++;
    }
    CHECK(ok);
    CHECK_EQ_INT(k, 9001);
    CHECK(stopped);
    /* the table is fixed: some names were interned, the rest went whole */
    printf("intern: %d names interned, %d sent whole\n", istr, str);
    CHECK(istr > 3000 && istr <= 4094 && str > 0 && istr + str == 5000);
    CHECK_EQ_INT(defs, istr + 2);
    check_output(&tm, "intern");
    tmon_close(&tm);
}

static unsigned char trail_policy(void *ctx, const char *a, const char *e)
{
    (void)ctx;
    (void)a;
    if (strcmp(e, "tick") == 0)
        return DAPTO_STATE_TRAIL;
    if (strcmp(e, "all") == 0)
        return DAPTO_STATE_TRAIL;
    if (strcmp(e, "pair") == 0)
        return DAPTO_STATE_TRAIL | DAPTO_STATE_RECORD;
    return 0;
}

/* Without threads' own trails (a monitor older than them), the shared
 * trail keeps the last events the monitor is not sent; those it is sent
 * it keeps itself <protocol#trail>. */
static void test_trail(void)
{
    struct tmon tm;
    struct region_geom g;
    struct tval v[8];
    struct dapto_record h;
    char *argv[] = {target_path, "trail", NULL};
    unsigned char slot[TRAIL_RECORD_MAX];
    int n, ticks = 0, alls = 0, pairs = 0, code_tick = -1, code_all = -1,
        code_pair = -1, ok = 1;
    uint64_t next, i;
    long len;

    region_geom_default(&g);
    g.trail_slots = 16;
    g.tt_count = 0;
    CHECK(tmon_create(&tm, &g) == 0);
    tm.policy = trail_policy;
    CHECK(tmon_spawn(&tm, argv, NULL) == 0);
    while ((len = tmon_next(&tm, buf, TIMEOUT)) > 0) {
        h = head_of(buf);
        if (code_tick < 0) {
            code_tick = tmon_event_code(&tm, "t", "tick");
            code_all = tmon_event_code(&tm, "t", "all");
            code_pair = tmon_event_code(&tm, "t", "pair");
        }
        if ((int)h.code == code_tick)
            ticks++;
        if ((int)h.code == code_all)
            alls++;
        if ((int)h.code == code_pair) {
            pairs++;
            n = tmon_values(&tm, buf, (size_t)len, v, 8);
            CHECK(n == 2 && v[0].i == 7 && v[1].i == 8);
        }
    }
    /* trail only: nothing in the ring; recorded: in the ring only */
    CHECK_EQ_INT(ticks, 0);
    CHECK_EQ_INT(alls, 0);
    CHECK_EQ_INT(pairs, 1);
    check_output(&tm, "trail");
    next = trail_next(&tm.trail);
    CHECK_EQ_INT(next, 101);
    CHECK(trail_read(&tm.trail, next - 17, slot, sizeof slot) == -1);
    for (i = next - 16; i < next - 1; i++) {
        len = trail_read(&tm.trail, i, slot, sizeof slot);
        h = head_of(slot);
        n = len > 0 ? tmon_values(&tm, slot, (size_t)len, v, 8) : -1;
        ok &= len == 37 && (int)h.code == code_tick && n == 1 &&
              v[0].i == (int64_t)i && h.tid == (uint32_t)tm.pid;
    }
    CHECK(ok);
    len = trail_read(&tm.trail, next - 1, slot, sizeof slot);
    h = head_of(slot);
    CHECK(len == TRAIL_RECORD_MAX && (int)h.code == code_all &&
          (h.flags & DAPTO_RECF_TRUNC) != 0);
    tmon_close(&tm);
}

/* What ttrail_read() hands on, as records (TRAIL_RECORD_MAX bytes each). */
struct own {
    struct tmon *tm;
    uint32_t owner;
    unsigned int n;
    uint64_t index[32];
    unsigned char rec[32][TRAIL_RECORD_MAX];
};

static void own_event(void *arg, const struct ttrail_event *e)
{
    struct own *o = arg;
    struct dapto_record h;

    if (o->n == 32)
        return;
    memset(&h, 0, sizeof h);
    h.code = e->code;
    h.len = e->len;
    h.tid = o->owner;
    o->index[o->n] = e->index;
    memcpy(o->rec[o->n], &h, sizeof h);
    memcpy(o->rec[o->n] + DAPTO_RECORD_HEADER, e->values, e->len);
    o->n++;
}

/* With threads' own trails <protocol#ttrail>, the thread keeps every
 * event the trail wants in its own, the recorded one too, and nothing in
 * the shared trail; the last slots - 1 of them are there, in order, with
 * their values, a string cut to fit marked so and nothing after it. */
static void test_trail_own(void)
{
    struct tmon tm;
    struct region_geom g;
    struct ttrail_area a;
    struct tval v[8];
    char *argv[] = {target_path, "trail", NULL};
    struct own o;
    unsigned int i, bad = 0, owners = 0, ok = 1;
    int code_tick = -1, code_all = -1, code_pair = -1, n, pairs = 0;
    long len;

    region_geom_default(&g);
    g.tt_slots = 16;
    CHECK(tmon_create(&tm, &g) == 0);
    tm.policy = trail_policy;
    CHECK(tmon_spawn(&tm, argv, NULL) == 0);
    while ((len = tmon_next(&tm, buf, TIMEOUT)) > 0) {
        if (code_tick < 0) {
            code_tick = tmon_event_code(&tm, "t", "tick");
            code_all = tmon_event_code(&tm, "t", "all");
            code_pair = tmon_event_code(&tm, "t", "pair");
        }
        if ((int)head_of(buf).code == code_pair)
            pairs++;
    }
    CHECK_EQ_INT(pairs, 1);
    check_output(&tm, "trail-own");
    CHECK_EQ_INT(trail_next(&tm.trail), 0);
    ttrail_area_init(&a, &tm.reg);
    CHECK_EQ_INT(a.count, REGION_DEFAULT_TTRAILS);
    memset(&o, 0, sizeof o);
    o.tm = &tm;
    for (i = 0; i < a.count; i++) {
        uint32_t owner;

        o.owner = __atomic_load_n(&ttrail_at(&a, i)->owner, __ATOMIC_RELAXED);
        ttrail_read(&a, i, 100, &owner, &bad, own_event, &o);
        if (owner != 0) {
            owners++;
            CHECK_EQ_INT(owner, tm.pid);
        }
    }
    CHECK_EQ_INT(owners, 1);
    CHECK_EQ_INT(bad, 0);
    /* 100 ticks, all, pair: 102 events; the last 15 kept */
    CHECK_EQ_INT(o.n, 15);
    for (i = 0; i < 13 && i < o.n; i++) {
        n = tmon_values(&tm, o.rec[i], TRAIL_RECORD_MAX, v, 8);
        ok &= o.index[i] == 87 + i && head_of(o.rec[i]).code == code_tick &&
              n == 1 && v[0].kind == DAPTO_K_INT && v[0].i == 87 + (int)i;
    }
    CHECK(ok);
    if (o.n == 15) {
        /* all: an int, a long, a double, the string cut, nothing after */
        n = tmon_values(&tm, o.rec[13], TRAIL_RECORD_MAX, v, 8);
        CHECK(head_of(o.rec[13]).code == code_all && n == 4);
        CHECK(n == 4 && v[0].i == 1 && v[1].i == 2 && v[2].d == 3.0 &&
              v[3].kind == DAPTO_K_STR && v[3].trunc &&
              head_of(o.rec[13]).len == DAPTO_TT_SLOT_VALUES);
        n = tmon_values(&tm, o.rec[14], TRAIL_RECORD_MAX, v, 8);
        CHECK(head_of(o.rec[14]).code == code_pair && n == 2 && v[0].i == 7 &&
              v[1].i == 8 && o.index[14] == 101);
    }
    tmon_close(&tm);
}

/* A forked child never writes to the channel; the parent goes on. */
static void test_fork(void)
{
    struct tmon tm;
    struct tval v[4];
    struct dapto_record h;
    char *argv[] = {target_path, "fork", NULL};
    int n, child = 0, code = -1, from_child = 0, parent_ticks = 0, bad_tick = 0,
           exits = 0, finits = 0, enters = 0;
    uint32_t tids[64];
    int ntids = 0, k;
    long len;
    const char *p;

    CHECK(tmon_create(&tm, NULL) == 0);
    tm.default_state = DAPTO_STATE_RECORD;
    CHECK(tmon_spawn(&tm, argv, NULL) == 0);
    while ((len = tmon_next(&tm, buf, TIMEOUT)) > 0) {
        h = head_of(buf);
        for (k = 0; k < ntids && tids[k] != h.tid; k++)
            ;
        if (k == ntids && ntids < 64)
            tids[ntids++] = h.tid;
        if (code < 0)
            code = tmon_event_code(&tm, "t", "tick");
        n = tmon_values(&tm, buf, (size_t)len, v, 4);
        if ((int)h.code == code) {
            if (n == 1 && v[0].i >= 1000)
                bad_tick++;
            else
                parent_ticks++;
        }
        exits += h.code == DAPTO_EV_EXIT;
        finits += h.code == DAPTO_EV_FINIT;
        enters += h.code == DAPTO_EV_ENTER;
    }
    check_output(&tm, "fork");
    p = strstr(out, "child: ");
    CHECK(p != NULL && sscanf(p, "child: %d", &child) == 1 && child > 0);
    for (k = 0; k < ntids; k++)
        from_child += tids[k] == (uint32_t)child;
    CHECK_EQ_INT(from_child, 0);
    CHECK_EQ_INT(ntids, 1);
    CHECK_EQ_INT(bad_tick, 0);
    CHECK_EQ_INT(parent_ticks, 12);
    CHECK(exits == 1 && finits == 1 && enters == 0);
    CHECK(expect_in("ok: child not monitored"));
    CHECK(expect_in("ok: child's states all zero"));
    CHECK(expect_in("ok: parent still monitored"));
    tmon_close(&tm);
}

/* Overwrite mode: the oldest records go, the consumer hears how many. */
static void test_overwrite(void)
{
    struct tmon tm;
    struct region_geom g;
    struct tval v[4];
    struct dapto_record h;
    char *argv[] = {target_path, "flood", NULL};
    int n, code = -1, got = 0, last = -1, ok = 1, hello = 0;
    int64_t lost = 0;
    long len;
    struct timespec ts = {0, 5000000};

    region_geom_default(&g);
    g.ring_size = 4096;
    g.flags = DAPTO_RF_OVERWRITE;
    CHECK(tmon_create(&tm, &g) == 0);
    tm.default_state = DAPTO_STATE_RECORD;
    CHECK(tmon_spawn(&tm, argv, NULL) == 0);
    /* Read until both aspects are acknowledged, then let the ring overflow. */
    while (tm.naspects < 2 && (len = tmon_next(&tm, buf, TIMEOUT)) > 0) {
        h = head_of(buf);
        if (h.code == DAPTO_REC_HELLO) {
            n = tmon_values(&tm, buf, (size_t)len, v, 4);
            hello = n == 2 && v[1].i == 1;
        }
    }
    CHECK(hello);
    code = tmon_event_code(&tm, "t", "tick");
    while (waitpid(tm.pid, &tm.status, WNOHANG) != tm.pid)
        nanosleep(&ts, NULL);
    tm.exited = 1;
    while ((len = tmon_next(&tm, buf, TIMEOUT)) > 0) {
        h = head_of(buf);
        n = tmon_values(&tm, buf, (size_t)len, v, 4);
        if (h.code == DAPTO_REC_LOST) {
            CHECK(got == 0 && n == 1 && v[0].kind == DAPTO_K_LONG);
            lost += v[0].i;
        } else if ((int)h.code == code) {
            ok &= n == 1 && (last < 0 || v[0].i == last + 1);
            last = (int)v[0].i;
            got++;
        }
    }
    CHECK(ok);
    CHECK_EQ_INT(last, 9999);
    CHECK(got > 50 && lost >= 10000 - got);
    CHECK_EQ_INT(lost, (int64_t)tm.reg.hdr->lost);
    check_output(&tm, "flood");
    tmon_close(&tm);
}

/* No DAPTO_CHANNEL: nothing happens at all. */
static void test_nomon(void)
{
    struct tmon tm;
    char *argv[] = {target_path, "nomon", NULL};
    struct dapto_region_id id;

    CHECK(tmon_create(&tm, NULL) == 0);
    CHECK(tmon_spawn(&tm, argv, "") == 0);
    check_output(&tm, "nomon");
    CHECK(expect_in("ok: not monitored"));
    CHECK(expect_in("ok: states all zero"));
    CHECK(strstr(out, "libdapto") == NULL);
    CHECK(region_runtime_id(&tm.reg, &id) == 0);
    CHECK_EQ_INT(tm.reg.hdr->head, 0);
    tmon_close(&tm);
}

/* A broken channel is reported and ignored. */
static void bad_channel(const char *env, int corrupt, const char *message,
                        int looked)
{
    struct tmon tm;
    char *argv[] = {target_path, "nomon", NULL};
    struct dapto_region_id id;
    char value[64];

    CHECK(tmon_create(&tm, NULL) == 0);
    if (corrupt == 1)
        tm.reg.hdr->id.magic = 0x12345678;
    if (corrupt == 2)
        tm.reg.hdr->ring_size = 1000;
    if (corrupt == 3)
        tm.reg.hdr->mbox_off = tm.reg.hdr->size - 16;
    if (env != NULL && strcmp(env, "SWAP") == 0) {
        snprintf(value, sizeof value, "%d:%d", tm.reg.eventfd, tm.reg.memfd);
        env = value;
    }
    CHECK(tmon_spawn(&tm, argv, env) == 0);
    check_output(&tm, "bad channel");
    if (!expect_in(message) || !expect_in("running unmonitored") ||
        !expect_in("ok: not monitored") || !expect_in("ok: states all zero"))
        CHECK(!"bad channel reported and ignored");
    CHECK_EQ_INT(tm.reg.hdr->head, 0);
    CHECK(region_runtime_id(&tm.reg, &id) == looked);
    tmon_close(&tm);
}

static void test_malformed(void)
{
    bad_channel("abc", 0, "libdapto: DAPTO_CHANNEL=\"abc\" is not MEMFD:EVENTFD", 0);
    bad_channel("3", 0, "is not MEMFD:EVENTFD", 0);
    bad_channel("3:", 0, "is not MEMFD:EVENTFD", 0);
    bad_channel("-1:2", 0, "is not MEMFD:EVENTFD", 0);
    bad_channel("1:2:3", 0, "is not MEMFD:EVENTFD", 0);
    bad_channel("99999999999:1", 0, "is not MEMFD:EVENTFD", 0);
    bad_channel("900:901", 0, "libdapto: DAPTO_CHANNEL: descriptor 901 is not open", 0);
    bad_channel("SWAP", 0, "the region descriptor is not a region", 0);
    bad_channel(NULL, 1, "libdapto: DAPTO_CHANNEL: the region has a wrong magic number", 0);
    bad_channel(NULL, 2, "libdapto: DAPTO_CHANNEL: bad region: ring size", 1);
    bad_channel(NULL, 3, "bad region: an area lies outside the region", 1);
}

/* Versions that differ: the runtime says who it is and detaches. */
static void test_version(void)
{
    struct tmon tm;
    struct dapto_region_id id;
    char *argv[] = {target_v99_path, "version", NULL};
    char *argv2[] = {target_path, "version", NULL};

    CHECK(tmon_create(&tm, NULL) == 0);
    tm.default_state = DAPTO_STATE_RECORD;
    CHECK(tmon_spawn(&tm, argv, NULL) == 0);
    check_output(&tm, "version");
    CHECK(expect_in("ok: not monitored"));
    CHECK(region_runtime_id(&tm.reg, &id) == 1);
    CHECK_EQ_INT(id.rt_major, 99);
    CHECK_EQ_INT(id.rt_median, DAPTO_PROTO_MEDIAN);
    CHECK_EQ_INT(id.rt_pid, tm.pid);
    CHECK_EQ_INT(tm.reg.hdr->head, 0);
    CHECK_EQ_INT(tm.reg.hdr->aspects_posted, 0);
    tmon_close(&tm);

    /* the monitor is the newer one */
    CHECK(tmon_create(&tm, NULL) == 0);
    tm.reg.hdr->id.major = DAPTO_PROTO_MAJOR + 1;
    CHECK(tmon_spawn(&tm, argv2, NULL) == 0);
    check_output(&tm, "version");
    CHECK(expect_in("ok: not monitored"));
    CHECK(region_runtime_id(&tm.reg, &id) == 1);
    CHECK_EQ_INT(id.rt_major, DAPTO_PROTO_MAJOR);
    CHECK_EQ_INT(id.rt_pid, tm.pid);
    CHECK_EQ_INT(tm.reg.hdr->head, 0);
    tmon_close(&tm);

    /* a different median is another version too */
    CHECK(tmon_create(&tm, NULL) == 0);
    tm.reg.hdr->id.median = DAPTO_PROTO_MEDIAN + 1;
    CHECK(tmon_spawn(&tm, argv2, NULL) == 0);
    check_output(&tm, "version");
    CHECK(expect_in("ok: not monitored"));
    CHECK_EQ_INT(tm.reg.hdr->head, 0);
    tmon_close(&tm);
}

/* Filters <protocol#filter>: the monitor puts a filter for an event and
 * sets its state to FILTER; only the events where a clause holds reach
 * the ring, flagged with the clauses that fired, and the counters say how
 * many were checked and passed. */
struct fctx {
    struct tmon *tm;
    struct filter_space fs;
    struct filter_entry entries[64];
    const char *event; /* the event to filter */
    int put;           /* filters put */
};

/* tick: $n == 7 || $n > 98 records (clause 0); $n < 3 goes to the trail
 * (clause 1).  enter: $name eq "beta" records. */
static unsigned char filter_policy(void *ctx, const char *a, const char *e)
{
    struct fctx *fc_ = ctx;
    struct tm_event *ev;
    unsigned char f[DAPTO_FILTER_MAX];
    struct fprog p[2];
    struct fclause c[2];
    const char *cause = NULL;
    char msg[200];
    size_t len;
    uint32_t j;
    int code = tmon_event_code(fc_->tm, a, e);

    if (strcmp(e, fc_->event) != 0 || code < 0)
        return DAPTO_STATE_RECORD;
    ev = &tmon_aspect(fc_->tm, a)->ev[code - (int)tmon_aspect(fc_->tm, a)->event_base];
    fp_init(&p[0]);
    if (strcmp(e, "tick") == 0) {
        fp_arg(&p[0], DAPTO_FOP_ARG, 0);
        fp_const(&p[0], 7);
        fp_op(&p[0], DAPTO_FOP_CMPI + DAPTO_FCMP_EQ);
        j = fp_jump(&p[0], DAPTO_FOP_JT);
        fp_arg(&p[0], DAPTO_FOP_ARG, 0);
        fp_const(&p[0], 98);
        fp_op(&p[0], DAPTO_FOP_CMPI + DAPTO_FCMP_GT);
        fp_land(&p[0], j);
        fp_op(&p[0], DAPTO_FOP_END);
        fp_init(&p[1]);
        fp_cmp_arg(&p[1], 0, DAPTO_FCMP_LT, 3);
        c[0] = fc(DAPTO_STATE_RECORD, &p[0]);
        c[0].checked = 3;
        c[0].passed = 4;
        c[1] = fc(DAPTO_STATE_TRAIL, &p[1]);
        c[1].passed = 5;
        len = fbuild(f, 0, 1, 2, c, 2);
    } else {
        fp_arg(&p[0], DAPTO_FOP_ARGS, 0);
        fp_consts(&p[0], "beta");
        fp_op(&p[0], DAPTO_FOP_SEQ);
        fp_op(&p[0], DAPTO_FOP_END);
        c[0] = fc(DAPTO_STATE_RECORD, &p[0]);
        len = fbuild(f, 0, 1, 2, c, 1);
    }
    if (filter_check(f, len, ev->kinds, (unsigned int)ev->nparams, msg, sizeof msg) != 0 ||
        filter_put(&fc_->fs, (uint32_t)code, f, len, &cause) != 0) {
        fprintf(stderr, "filter for %s refused: %s\n", e, msg[0] ? msg : cause);
        return DAPTO_STATE_RECORD;
    }
    fc_->put++;
    return DAPTO_STATE_FILTER;
}

static void test_filter(void)
{
    static struct fctx ctx;
    struct tmon tm;
    struct tval v[4];
    struct dapto_record h;
    char *argv[] = {target_path, "basic", NULL};
    const char *cause = NULL;
    int n, t_code = -1, k = 0, ok = 1, none = 0;
    static const int want[4] = {7, 99, 100, 101};
    long len;

    CHECK(tmon_create(&tm, NULL) == 0);
    memset(&ctx, 0, sizeof ctx);
    ctx.tm = &tm;
    ctx.event = "tick";
    CHECK(filter_space_init(&ctx.fs, &tm.reg, 64, ctx.entries, &cause) == 0);
    tm.policy = filter_policy;
    tm.ctx = &ctx;
    CHECK(tmon_spawn(&tm, argv, NULL) == 0);
    while ((len = tmon_next(&tm, buf, TIMEOUT)) > 0) {
        h = head_of(buf);
        if (t_code < 0)
            t_code = tmon_event_code(&tm, "t", "tick");
        if ((int)h.code == tmon_event_code(&tm, "t", "none")) {
            none++;
            ok &= h.flags == 0;
        }
        if ((int)h.code != t_code)
            continue;
        n = tmon_values(&tm, buf, (size_t)len, v, 4);
        if (n != 1 || k >= 4 || v[0].i != want[k] ||
            h.flags != (DAPTO_RECF_FILTERED | 1 << DAPTO_RECF_CLAUSE_SHIFT)) {
            fprintf(stderr, "filter: tick %lld flags %#x\n", (long long)v[0].i, h.flags);
            ok = 0;
            continue;
        }
        k++;
    }
    CHECK(ok);
    CHECK(ctx.put == 1 && none == 1);
    CHECK_EQ_INT(k, 4);
    check_output(&tm, "filter");
    CHECK_EQ_INT(filter_counter(&tm.reg, 1), 101); /* checked */
    CHECK_EQ_INT(filter_counter(&tm.reg, 2), 6);   /* went somewhere */
    CHECK_EQ_INT(filter_counter(&tm.reg, 3), 101);
    CHECK_EQ_INT(filter_counter(&tm.reg, 4), 4);   /* recorded */
    CHECK_EQ_INT(filter_counter(&tm.reg, 5), 2);   /* to the trail */
    CHECK_EQ_INT(tm.reg.hdr->lost, 0);
    tmon_close(&tm);
}

/* A filter on the name of enter, sent as an intern id. */
static void test_filter_intern(void)
{
    static struct fctx ctx;
    struct tmon tm;
    struct tval v[4];
    struct dapto_record h;
    char *argv[] = {target_path, "intern", NULL};
    const char *cause = NULL, *name;
    int n, enters = 0, istr = 0, ok = 1;
    long len;

    CHECK(tmon_create(&tm, NULL) == 0);
    memset(&ctx, 0, sizeof ctx);
    ctx.tm = &tm;
    ctx.event = "enter";
    CHECK(filter_space_init(&ctx.fs, &tm.reg, 64, ctx.entries, &cause) == 0);
    tm.policy = filter_policy;
    tm.ctx = &ctx;
    CHECK(tmon_spawn(&tm, argv, NULL) == 0);
    while ((len = tmon_next(&tm, buf, TIMEOUT)) > 0) {
        h = head_of(buf);
        if (h.code != DAPTO_EV_ENTER)
            continue;
        n = tmon_values(&tm, buf, (size_t)len, v, 4);
        if (n != 1) {
            ok = 0;
            continue;
        }
        if (v[0].kind == DAPTO_K_ISTR) {
            istr++;
            name = v[0].i > 0 && v[0].i < TMON_INTERN ? tm.intern[v[0].i] : NULL;
        } else {
            name = v[0].s;
        }
        ok &= name != NULL && strcmp(name, "beta") == 0 &&
              h.flags == (DAPTO_RECF_FILTERED | 1 << DAPTO_RECF_CLAUSE_SHIFT);
        enters++;
    }
    CHECK(ok);
    CHECK(ctx.put == 1);
    CHECK_EQ_INT(enters, 1000);
    CHECK(istr == 1000); /* every one of them went as an intern id */
    check_output(&tm, "filter-intern");
    CHECK_EQ_INT(filter_counter(&tm.reg, 1), 1000 + 1000 + 5000 + 1);
    CHECK_EQ_INT(filter_counter(&tm.reg, 2), 1000);
    tmon_close(&tm);
}

static const struct {
    const char *name;
    void (*fn)(void);
} tests[] = {
    {"basic", NULL},  {"tsc", NULL},           {"early", NULL},
    {"types", test_types}, {"stop", test_stop},  {"mstop", test_mstop},
    {"threads", test_threads}, {"intern", test_intern},
    {"trail", test_trail}, {"trail-own", test_trail_own}, {"fork", test_fork},   {"overwrite", test_overwrite},
    {"nomon", test_nomon}, {"malformed", test_malformed},
    {"version", test_version}, {"filter", test_filter},
    {"filter-intern", test_filter_intern}, {"buffers", test_buffers},
    {"buffers-old-monitor", test_buffers_old},
};

static void run(const char *name)
{
    unsigned int i;

    printf("rt-e2e: %s\n", name);
    fflush(stdout);
    if (strcmp(name, "basic") == 0) {
        test_basic(0, target_path);
        return;
    }
    if (strcmp(name, "tsc") == 0) {
        test_basic(1, target_path);
        return;
    }
    if (strcmp(name, "early") == 0) {
        test_basic(0, target_static_path);
        return;
    }
    for (i = 0; i < sizeof tests / sizeof tests[0]; i++)
        if (strcmp(tests[i].name, name) == 0 && tests[i].fn != NULL) {
            tests[i].fn();
            return;
        }
    fprintf(stderr, "rt-e2e: no test %s\n", name);
    unit_failures++;
}

int main(int argc, char **argv)
{
    const char *dir = getenv("abs_top_builddir");
    unsigned int i;
    int k;

    signal(SIGPIPE, SIG_IGN);
    snprintf(target_path, sizeof target_path, "%s/tests/runtime/rt-target",
             dir != NULL ? dir : ".");
    snprintf(target_v99_path, sizeof target_v99_path,
             "%s/tests/runtime/rt-target-v99", dir != NULL ? dir : ".");
    snprintf(target_static_path, sizeof target_static_path,
             "%s/tests/runtime/rt-target-static", dir != NULL ? dir : ".");
    if (argc > 1)
        for (k = 1; k < argc; k++)
            run(argv[k]);
    else
        for (i = 0; i < sizeof tests / sizeof tests[0]; i++)
            run(tests[i].name);
    return unit_done("rt-e2e");
}
