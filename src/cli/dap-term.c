/* SPDX-License-Identifier: MIT */
/*
 * dap-term.c - the program's terminal in the editor (see dap.h)
 * <design#dap-term>.  When the client offers runInTerminal, the adapter
 * asks it to run `noosa --dap-terminal SOCKET` in one of its terminals:
 * that small process connects to the adapter's socket, says the name of
 * its terminal, and waits, holding the terminal open, until the adapter
 * closes the socket (the debug session's end).  The program's runs get
 * that terminal as their standard input, output and error (`tty PATH`),
 * so the program reads what is typed there; a Ctrl-C typed there reaches
 * the helper, which passes it on and the adapter sends the program
 * SIGINT, as the terminal would have.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "dap.h"
#include "interp.h"
#include "loop.h"
#include "session.h"
#include "xmalloc.h"

struct dap_term {
    char *dir, *path;      /* the socket's directory and path */
    int listen_fd, conn_fd;
    long seq;              /* our runInTerminal request */
    uint64_t deadline_ns;
    char buf[512];         /* the terminal's name, as it comes */
    size_t len;
    int finished;
    void (*done)(struct dap *d, const char *tty, const char *why);
};

static uint64_t now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void finish(struct dap *d, const char *tty, const char *why)
{
    struct dap_term *t = d->term;

    if (t->finished)
        return;
    t->finished = 1;
    dap_log(d, "-- the program's terminal: %s", tty != NULL ? tty : why);
    t->done(d, tty, why);
}

/* What the helper says: its terminal's name, then a Ctrl-C now and
 * then; its end when the terminal closes. */
static void on_conn(int fd, short revents, void *arg)
{
    struct dap *d = arg;
    struct dap_term *t = d->term;
    char buf[256];
    ssize_t n = read(fd, buf, sizeof buf);

    (void)revents;
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    if (n <= 0) {
        loop_remove(d->loop, fd);
        close(fd);
        t->conn_fd = -1;
        finish(d, NULL, "the terminal closed before it said its name");
        return;
    }
    for (ssize_t i = 0; i < n; i++) {
        if (!t->finished) {
            if (buf[i] != '\n') {
                if (t->len + 1 < sizeof t->buf)
                    t->buf[t->len++] = buf[i];
                continue;
            }
            t->buf[t->len] = '\0';
            finish(d, t->buf[0] == '/' ? t->buf : NULL,
                   "the helper's standard input is not a terminal");
        } else if (buf[i] == 0x03 && d->in != NULL &&
                   session_state(d->in->session) == SESSION_RUNNING) {
            dap_log(d, "-- Ctrl-C in the program's terminal");
            kill(session_pid(d->in->session), SIGINT);
        }
    }
}

static void on_accept(int fd, short revents, void *arg)
{
    struct dap *d = arg;
    struct dap_term *t = d->term;
    int c = accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);

    (void)revents;
    if (c < 0)
        return;
    loop_remove(d->loop, fd);
    close(fd);
    t->listen_fd = -1;
    t->conn_fd = c;
    loop_add(d->loop, c, POLLIN, on_conn, d);
}

int dap_term_ask(struct dap *d, const char *kind, const char *title,
                 const char *cwd, void (*done)(struct dap *d, const char *tty,
                              const char *why),
                 char **cause)
{
    struct dap_term *t = xcalloc(1, sizeof *t);
    struct sockaddr_un sa;
    char self[4096], tmpl[] = "/tmp/noosa-dap-XXXXXX", *name;
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    json_t *args;
    int ms = d->opts.session.op_timeout_ms > 0
                 ? d->opts.session.op_timeout_ms
                 : 10000;

    t->listen_fd = t->conn_fd = -1;
    t->done = done;
    if (len <= 0 || mkdtemp(tmpl) == NULL) {
        xcause(cause, "no room for the terminal's socket: %s",
               strerror(errno));
        free(t);
        return -1;
    }
    self[len] = '\0';
    t->dir = xstrdup(tmpl);
    t->path = xasprintf("%s/tty", tmpl);
    d->term = t;
    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s", t->path);
    t->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
                          0);
    if (t->listen_fd < 0 ||
        bind(t->listen_fd, (struct sockaddr *)&sa, sizeof sa) != 0 ||
        listen(t->listen_fd, 1) != 0) {
        xcause(cause, "the terminal's socket %s: %s", t->path,
               strerror(errno));
        dap_term_free(d);
        return -1;
    }
    loop_add(d->loop, t->listen_fd, POLLIN, on_accept, d);
    name = xasprintf("noosa: %s", title);
    args = json_pack("{s:s,s:o,s:[s,s,s]}", "kind", kind, "title",
                     dap_jstr(name), "args", self, "--dap-terminal", t->path);
    free(name);
    if (cwd != NULL)
        json_object_set_new(args, "cwd", dap_jstr(cwd));
    t->deadline_ns = now_ns() + (uint64_t)ms * 1000000u;
    t->seq = dap_request(d, "runInTerminal", args);
    return 0;
}

int dap_term_answer(struct dap *d, long seq, json_t *resp)
{
    struct dap_term *t = d->term;

    if (t == NULL || seq != t->seq)
        return 0;
    if (!json_is_true(json_object_get(resp, "success"))) {
        const char *m = json_string_value(json_object_get(resp, "message"));
        char *why = xasprintf("the editor could not run it: %s",
                              m != NULL ? m : "no reason given");

        finish(d, NULL, why);
        free(why);
    }
    return 1;
}

int dap_term_timeout(struct dap *d)
{
    struct dap_term *t = d->term;
    uint64_t now;

    if (t == NULL || t->finished)
        return -1;
    now = now_ns();
    if (now >= t->deadline_ns) {
        finish(d, NULL, "it did not start in time");
        return -1;
    }
    return (int)((t->deadline_ns - now) / 1000000u) + 1;
}

void dap_term_free(struct dap *d)
{
    struct dap_term *t = d->term;

    if (t == NULL)
        return;
    if (t->listen_fd >= 0) {
        loop_remove(d->loop, t->listen_fd);
        close(t->listen_fd);
    }
    if (t->conn_fd >= 0) {
        loop_remove(d->loop, t->conn_fd);
        close(t->conn_fd);
    }
    if (t->path != NULL)
        unlink(t->path);
    if (t->dir != NULL)
        rmdir(t->dir);
    free(t->path);
    free(t->dir);
    free(t);
    d->term = NULL;
}

/* --- the helper, in the editor's terminal ---------------------------------------- */

static int helper_fd = -1; /* set once at start, read by the handler */

static void on_interrupt(int sig)
{
    int e = errno;
    char c = 0x03;

    (void)sig;
    if (write(helper_fd, &c, 1) < 0) {
        /* the adapter is gone: nothing to tell */
    }
    errno = e;
}

int dap_term_main(const char *socket_path)
{
    struct sockaddr_un sa;
    struct sigaction act;
    const char *tty = ttyname(STDIN_FILENO);
    char *line, buf[64];

    helper_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s", socket_path);
    if (helper_fd < 0 ||
        connect(helper_fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
        fprintf(stderr, "noosa: --dap-terminal %s: %s\n", socket_path,
                strerror(errno));
        return 1;
    }
    line = xasprintf("%s\n", tty != NULL ? tty : "");
    if (write(helper_fd, line, strlen(line)) < 0) {
        free(line);
        return 1;
    }
    free(line);
    if (tty == NULL) {
        fprintf(stderr, "noosa: --dap-terminal: standard input is not a "
                "terminal\n");
        return 1;
    }
    printf("noosa: this terminal (%s) is the program's; it closes with "
           "the debug session.\n", tty);
    fflush(stdout);
    memset(&act, 0, sizeof act);
    act.sa_handler = on_interrupt;
    act.sa_flags = SA_RESTART;
    sigaction(SIGINT, &act, NULL);
    signal(SIGQUIT, SIG_IGN);
    signal(SIGTSTP, SIG_IGN);
    /* until the adapter closes its end */
    for (;;) {
        ssize_t n = read(helper_fd, buf, sizeof buf);

        if (n == 0 || (n < 0 && errno != EINTR))
            break;
    }
    return 0;
}
