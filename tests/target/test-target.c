/* SPDX-License-Identifier: MIT */
/*
 * test-target.c - target control on real programs (tt-prog): exit status,
 * death by a signal, faults reported before delivery (and passed on or
 * caught by the program), interrupting busy threads, group-stops,
 * signals passed through, the caller's descriptors, memory access,
 * breakpoints at main and symbols, and start-up failures.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbols.h"
#include "target.h"
#include "unit.h"

static char prog[4096];

/* Start tt-prog with ARGS (NULL-terminated after the mode). */
static struct target *start(const char *mode, const char *a1, const char *a2,
                            int in, int out)
{
    char *argv[] = {prog, (char *)mode, (char *)a1, (char *)a2, NULL};
    struct target_opts o = {.argv = argv, .fd_in = in, .fd_out = out,
                            .fd_err = -1};
    struct target *t = NULL;
    char *cause = NULL;

    if (target_start(&t, &o, &cause) != 0) {
        fprintf(stderr, "start %s: %s\n", mode, cause);
        free(cause);
        return NULL;
    }
    return t;
}

/* Run until the next event (10 s at most). */
static int next(struct target *t, struct target_event *ev)
{
    memset(ev, 0, sizeof *ev);
    return target_wait(t, ev, 10000);
}

static void test_exit(void)
{
    struct target_event ev;
    struct target *t = start("exit", "7", NULL, -1, -1);

    CHECK(t != NULL);
    if (t == NULL)
        return;
    CHECK(target_stopped(t));
    CHECK(target_continue(t, NULL) == 0);
    CHECK(next(t, &ev) == 1 && ev.kind == TARGET_EV_EXITED && ev.status == 7);
    CHECK(!target_alive(t));
    target_free(t);
}

static void test_killed(void)
{
    struct target_event ev;
    struct target *t = start("kill", "15", NULL, -1, -1);

    if (t == NULL) {
        CHECK(0);
        return;
    }
    target_continue(t, NULL);
    CHECK(next(t, &ev) == 1 && ev.kind == TARGET_EV_KILLED &&
          ev.signo == SIGTERM);
    target_free(t);
}

static void test_fault(const char *mode, int signo, int caught, int tid_other)
{
    struct target_event ev;
    struct target *t = start(mode, NULL, NULL, -1, -1);

    if (t == NULL) {
        CHECK(0);
        return;
    }
    target_continue(t, NULL);
    CHECK(next(t, &ev) == 1 && ev.kind == TARGET_EV_FAULT);
    CHECK_EQ_INT(ev.signo, signo);
    if (signo == SIGSEGV)
        CHECK_EQ_INT(ev.addr, 16);
    if (tid_other)
        CHECK(ev.tid != target_pid(t));
    else
        CHECK(ev.tid == target_pid(t));
    CHECK(target_alive(t));
    CHECK(target_fault_pass(t, ev.tid, NULL) == 0);
    CHECK(target_fault_pass(t, ev.tid, NULL) != 0);
    CHECK(next(t, &ev) == 1);
    if (caught)
        CHECK(ev.kind == TARGET_EV_EXITED && ev.status == 6);
    else
        CHECK(ev.kind == TARGET_EV_KILLED && ev.signo == signo);
    target_free(t);
}

static void test_interrupt(void)
{
    struct target_event ev;
    struct target *t = start("busy", "3", NULL, -1, -1);

    if (t == NULL) {
        CHECK(0);
        return;
    }
    target_continue(t, NULL);
    usleep(100000);
    CHECK(!target_stopped(t));
    CHECK(target_interrupt(t, NULL) == 0);
    CHECK(next(t, &ev) == 1 && ev.kind == TARGET_EV_INTERRUPTED);
    CHECK(target_stopped(t));
    CHECK(target_continue(t, NULL) == 0);
    usleep(50000);
    CHECK(!target_stopped(t));
    CHECK(target_interrupt(t, NULL) == 0);
    CHECK(next(t, &ev) == 1 && ev.kind == TARGET_EV_INTERRUPTED);
    CHECK(target_kill(t) == 0);
    CHECK(next(t, &ev) == 1 && ev.kind == TARGET_EV_KILLED &&
          ev.signo == SIGKILL);
    target_free(t);
}

/* The state letter of the main thread of T in /proc ('R', 'S', 't'...). */
static char proc_state(struct target *t)
{
    char path[64], line[512], *p;
    FILE *f;

    snprintf(path, sizeof path, "/proc/%d/stat", (int)target_pid(t));
    if ((f = fopen(path, "re")) == NULL)
        return '?';
    p = fgets(line, sizeof line, f) != NULL ? strrchr(line, ')') : NULL;
    fclose(f);
    return p != NULL && p[1] == ' ' ? p[2] : '?';
}

/* An interrupt asked of a thread that is already in a stop nobody has
 * collected yet (here a signal-delivery-stop) must not stay pending in
 * the kernel: the thread would stop again at once each time it is
 * continued, and never run until the next look at it. */
static void test_interrupt_in_stop(void)
{
    struct target_event ev;
    struct target *t = start("trap-busy", NULL, NULL, -1, -1);

    if (t == NULL) {
        CHECK(0);
        return;
    }
    target_continue(t, NULL);
    /* (no look meanwhile: its SIGWINCH stop waits uncollected) */
    usleep(300000);
    CHECK(proc_state(t) == 't');
    CHECK(target_interrupt(t, NULL) == 0);
    CHECK(next(t, &ev) == 1 && ev.kind == TARGET_EV_INTERRUPTED);
    CHECK(target_stopped(t));
    CHECK(target_continue(t, NULL) == 0);
    usleep(200000);
    CHECK_EQ_INT(proc_state(t), 'R');
    CHECK(target_interrupt(t, NULL) == 0);
    CHECK(next(t, &ev) == 1 && ev.kind == TARGET_EV_INTERRUPTED);
    CHECK(target_kill(t) == 0);
    CHECK(next(t, &ev) == 1 && ev.kind == TARGET_EV_KILLED);
    target_free(t);
}

static void test_group_stop(void)
{
    struct target_event ev;
    struct target *t = start("stop", NULL, NULL, -1, -1);

    if (t == NULL) {
        CHECK(0);
        return;
    }
    target_continue(t, NULL);
    /* stopped by its own SIGSTOP: nothing happens until SIGCONT */
    CHECK(target_wait(t, &ev, 300) == 0);
    kill(target_pid(t), SIGCONT);
    CHECK(next(t, &ev) == 1 && ev.kind == TARGET_EV_EXITED && ev.status == 3);
    target_free(t);
}

static void test_passthrough(void)
{
    struct target_event ev;
    struct target *t = start("usr1", NULL, NULL, -1, -1);

    if (t == NULL) {
        CHECK(0);
        return;
    }
    target_continue(t, NULL);
    CHECK(next(t, &ev) == 1 && ev.kind == TARGET_EV_EXITED && ev.status == 5);
    target_free(t);
}

static void test_fds_and_memory(void)
{
    struct target_event ev;
    int in[2], out[2];
    char buf[128] = "";
    unsigned long long addr = 0;
    int v = 42, r = 0;
    ssize_t n;
    struct target *t;

    CHECK(pipe(in) == 0 && pipe(out) == 0);
    t = start("echo", NULL, NULL, in[0], out[1]);
    if (t == NULL) {
        CHECK(0);
        return;
    }
    close(in[0]);
    close(out[1]);
    target_continue(t, NULL);
    CHECK(write(in[1], "hello\n", 6) == 6);
    close(in[1]);
    CHECK(next(t, &ev) == 1 && ev.kind == TARGET_EV_EXITED && ev.status == 0);
    n = read(out[0], buf, sizeof buf - 1);
    CHECK(n == 6 && memcmp(buf, "hello\n", 6) == 0);
    close(out[0]);
    target_free(t);

    CHECK(pipe(out) == 0);
    t = start("mem", NULL, NULL, -1, out[1]);
    if (t == NULL) {
        CHECK(0);
        return;
    }
    close(out[1]);
    target_continue(t, NULL);
    n = read(out[0], buf, sizeof buf - 1);
    CHECK(n > 0);
    buf[n > 0 ? n : 0] = '\0';
    addr = strtoull(buf, NULL, 16);
    CHECK(addr != 0);
    CHECK(target_read(t, addr, &r, sizeof r, NULL) == 0 && r == 0);
    CHECK(target_write(t, addr, &v, sizeof v, NULL) == 0);
    CHECK(next(t, &ev) == 1 && ev.kind == TARGET_EV_EXITED && ev.status == 42);
    close(out[0]);
    {
        char *cause = NULL;
        CHECK(target_write(t, addr, &v, sizeof v, &cause) != 0);
        CHECK(cause != NULL && strstr(cause, "not running") != NULL);
        free(cause);
    }
    target_free(t);
}

static void test_main_and_symbols(void)
{
    struct target_event ev;
    struct symbols_info info;
    struct symbols *s;
    uint64_t main_addr = 0;
    char *cause = NULL;
    struct target *t = start("exit", "4", NULL, -1, -1);

    if (t == NULL) {
        CHECK(0);
        return;
    }
    s = symbols_open(target_pid(t), &cause);
    CHECK(s != NULL);
    if (s == NULL) {
        fprintf(stderr, "symbols: %s\n", cause);
        target_free(t);
        return;
    }
    CHECK(symbols_address(s, "main", &main_addr, &cause) == 0);
    CHECK(symbols_address(s, "no_such_function_here", &main_addr + 0, &cause) != 0 ||
          0);
    CHECK(cause != NULL && strstr(cause, "no function no_such_function_here"));
    CHECK(target_run_to(t, main_addr, NULL) == 0);
    CHECK(next(t, &ev) == 1 && ev.kind == TARGET_EV_BREAK &&
          ev.addr == main_addr && ev.tid == target_pid(t));
    CHECK(target_stopped(t));
    {
        /* code is read-only to process_vm_writev: the ptrace fallback
         * writes it while the program is stopped */
        unsigned char code[4], again[4];
        CHECK(target_read(t, main_addr, code, 4, NULL) == 0);
        CHECK(target_write(t, main_addr, code, 4, NULL) == 0);
        CHECK(target_read(t, main_addr, again, 4, NULL) == 0 &&
              memcmp(code, again, 4) == 0);
    }
    symbols_refresh(s, NULL);
    CHECK(symbols_lookup(s, main_addr + 1, &info) == 0);
    CHECK(info.function != NULL && strcmp(info.function, "main") == 0);
    CHECK_EQ_INT(info.offset, 1);
    CHECK(info.file != NULL && strstr(info.file, "tt-prog.c") != NULL);
    CHECK(info.line > 0);
    /* a libc function, found after the libraries are loaded */
    CHECK(symbols_address(s, "malloc", &main_addr, NULL) == 0);
    CHECK(symbols_lookup(s, main_addr, &info) == 0 && info.module != NULL &&
          strstr(info.module, "libc") != NULL);
    CHECK(target_continue(t, NULL) == 0);
    CHECK(next(t, &ev) == 1 && ev.kind == TARGET_EV_EXITED && ev.status == 4);
    symbols_free(s);
    target_free(t);

    /* a running program: no fallback for read-only memory */
    t = start("busy", NULL, NULL, -1, -1);
    if (t == NULL) {
        CHECK(0);
        return;
    }
    s = symbols_open(target_pid(t), NULL);
    CHECK(s != NULL && symbols_address(s, "main", &main_addr, NULL) == 0);
    symbols_free(s);
    target_continue(t, NULL);
    {
        unsigned char code[4] = {0};
        CHECK(target_read(t, main_addr, code, 4, NULL) == 0);
        CHECK(target_write(t, main_addr, code, 4, &cause) != 0);
        CHECK(cause != NULL && strstr(cause, "the program is running") != NULL);
    }
    free(cause);
    target_free(t);
}

static void test_start_errors(void)
{
    char *argv[] = {NULL, NULL};
    struct target_opts o = {.argv = argv, .fd_in = -1, .fd_out = -1,
                            .fd_err = -1};
    struct target *t = NULL;
    char *cause = NULL;
    char path[] = "tt-notexec-XXXXXX";
    int fd;

    argv[0] = "./no/such/program";
    CHECK(target_start(&t, &o, &cause) != 0);
    CHECK(cause && strcmp(cause, "./no/such/program: No such file or "
                                 "directory") == 0);
    argv[0] = "no-such-program-in-path-at-all";
    CHECK(target_start(&t, &o, &cause) != 0);
    CHECK(cause && strstr(cause, "command not found") != NULL);
    argv[0] = "/";
    CHECK(target_start(&t, &o, &cause) != 0);
    CHECK(cause && strcmp(cause, "/: is a directory") == 0);

    fd = mkstemp(path);
    CHECK(fd >= 0);
    CHECK(write(fd, "\x7f" "ELF garbage", 12) == 12);
    close(fd);
    argv[0] = path;
    {
        char *rel = malloc(strlen(path) + 3);
        sprintf(rel, "./%s", path);
        argv[0] = rel;
        CHECK(target_start(&t, &o, &cause) != 0);
        CHECK(cause && strstr(cause, "not executable") != NULL);
        chmod(path, 0755);
        CHECK(target_start(&t, &o, &cause) != 0);
        CHECK(cause && strstr(cause, "cannot execute") != NULL &&
              strstr(cause, "Exec format error") != NULL);
        free(rel);
    }
    unlink(path);
    free(cause);
}

int main(void)
{
    const char *top = getenv("top_builddir");

    snprintf(prog, sizeof prog, "%s/tests/target/tt-prog",
             top != NULL ? top : ".");
    test_exit();
    test_killed();
    test_fault("segv", SIGSEGV, 0, 0);
    test_fault("abort", SIGABRT, 0, 0);
    test_fault("fpe", SIGFPE, 0, 0);
    test_fault("segv-catch", SIGSEGV, 1, 0);
    test_fault("thread-segv", SIGSEGV, 0, 1);
    test_interrupt();
    test_interrupt_in_stop();
    test_group_stop();
    test_passthrough();
    test_fds_and_memory();
    test_main_and_symbols();
    test_start_errors();
    return unit_done("test-target");
}
