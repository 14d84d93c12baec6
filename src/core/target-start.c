/* SPDX-License-Identifier: MIT */
#include "config.h"

/*
 * target-start.c - a program started under ptrace <design#target>: found
 * the way execvp finds it, forked with its environment, descriptors and
 * terminal, seized before it execs, and held at its exec stop.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "target-int.h"
#include "xmalloc.h"

extern char **environ;

/* Find PROG the way execvp would; returns a new string or NULL. */
static char *target_find(const char *prog, char **cause)
{
    struct stat st;
    const char *path, *p;
    char *cand;
    int err = ENOENT;

    if (*prog == '\0') {
        xcause(cause, "no program given");
        return NULL;
    }
    if (strchr(prog, '/') != NULL) {
        if (stat(prog, &st) != 0) {
            xcause(cause, "%s: %s", prog, strerror(errno));
            return NULL;
        }
        if (S_ISDIR(st.st_mode)) {
            xcause(cause, "%s: is a directory", prog);
            return NULL;
        }
        if (access(prog, X_OK) != 0) {
            xcause(cause, "%s: not executable (%s)", prog, strerror(errno));
            return NULL;
        }
        return xstrdup(prog);
    }
    path = getenv("PATH");
    if (path == NULL)
        path = "/usr/local/bin:/usr/bin:/bin";
    for (p = path;; p++) {
        const char *colon = strchr(p, ':');
        size_t n = colon == NULL ? strlen(p) : (size_t)(colon - p);

        cand = n == 0 ? xasprintf("./%s", prog)
                      : xasprintf("%.*s/%s", (int)n, p, prog);
        if (stat(cand, &st) == 0 && !S_ISDIR(st.st_mode)) {
            if (access(cand, X_OK) == 0)
                return cand;
            err = EACCES;
        }
        free(cand);
        if (colon == NULL)
            break;
        p = colon;
    }
    if (err == EACCES)
        xcause(cause, "%s: found in PATH but not executable", prog);
    else
        xcause(cause, "%s: command not found", prog);
    return NULL;
}

/* The environment for the program: ours plus EXTRA (which wins). */
static char **target_env(char *const *extra)
{
    size_t n = 0, m = 0, k = 0;
    char **env;

    while (environ[n] != NULL)
        n++;
    while (extra != NULL && extra[m] != NULL)
        m++;
    env = xcalloc(n + m + 1, sizeof *env);
    for (size_t i = 0; i < n; i++) {
        const char *eq = strchr(environ[i], '=');
        size_t len = eq == NULL ? strlen(environ[i])
                                : (size_t)(eq - environ[i]) + 1;
        int dup = 0;
        for (size_t j = 0; j < m; j++) {
            if (strncmp(extra[j], environ[i], len) == 0)
                dup = 1;
        }
        if (!dup)
            env[k++] = environ[i];
    }
    for (size_t j = 0; j < m; j++)
        env[k++] = extra[j];
    env[k] = NULL;
    return env;
}

/* In the child: move FD to TARGET without disturbing the others. */
static void target_child_fd(int fd, int target_fd_)
{
    if (fd < 0 || fd == target_fd_) {
        if (fd == target_fd_)
            fcntl(fd, F_SETFD, 0);
        return;
    }
    dup2(fd, target_fd_);
}

static void target_child(const char *path, char *const *argv, char **env,
                         const struct target_opts *o, const int *go,
                         const int *err_pipe)
{
    int err = err_pipe[1];
    char c;
    int e;
    int in = o->fd_in, out = o->fd_out, er = o->fd_err;

    /* Lift the descriptors out of 0..2 first so dup2 does not clobber. */
    if (in >= 0 && in <= 2 && in != 0)
        in = fcntl(in, F_DUPFD_CLOEXEC, 3);
    if (out >= 0 && out <= 2 && out != 1)
        out = fcntl(out, F_DUPFD_CLOEXEC, 3);
    if (er >= 0 && er <= 2 && er != 2)
        er = fcntl(er, F_DUPFD_CLOEXEC, 3);
    target_child_fd(in, 0);
    target_child_fd(out, 1);
    target_child_fd(er, 2);
    /* A terminal of its own (the screen's pty): make it the program's
     * controlling terminal in a session of its own, so that /dev/tty is
     * that terminal, not the monitor's, and the keys typed into it
     * (Ctrl-C, Ctrl-Z) signal the program. */
    if (o->fd_in >= 0 && isatty(0)) {
        if (setsid() >= 0)
            ioctl(0, TIOCSCTTY, 0);
        /* and the keys' signals act as on a job its shell started there,
         * whatever noosa inherited: a program started in the background
         * of a script ignores SIGINT and SIGQUIT, and an editor may start
         * its debug adapter so (handlers are reset by execve; what is
         * ignored stays ignored) */
        signal(SIGINT, SIG_DFL);
        signal(SIGQUIT, SIG_DFL);
        signal(SIGTSTP, SIG_DFL);
    }
    for (int i = 0; i < o->nkeep; i++)
        fcntl(o->keep_fds[i], F_SETFD, 0);
    signal(SIGCHLD, SIG_DFL);
    /* Wait until the parent has seized us (it closes its end). */
    close(go[1]);
    close(err_pipe[0]);
    while (read(go[0], &c, 1) < 0 && errno == EINTR)
        ;
    execve(path, argv, env);
    e = errno;
    if (write(err, &e, sizeof e) < 0)
        _exit(127);
    _exit(127);
}

int target_start(struct target **out, const struct target_opts *opts,
                 char **cause)
{
    struct target *t;
    char *path;
    char **env;
    int go[2], err[2], status, e, n;
    pid_t pid;

    if (opts->argv == NULL || opts->argv[0] == NULL) {
        xcause(cause, "no program given");
        return -1;
    }
    if (target_setup_pipe(cause) != 0)
        return -1;
    path = target_find(opts->argv[0], cause);
    if (path == NULL)
        return -1;
    if (pipe2(go, O_CLOEXEC) != 0)
        goto fail_go;
    if (pipe2(err, O_CLOEXEC) != 0)
        goto fail_err;
    env = target_env(opts->env);

    pid = fork();
    if (pid < 0)
        goto fail_fork;
    if (pid == 0)
        target_child(path, opts->argv, env, opts, go, err);
    free(env);
    close(go[0]);
    close(err[1]);
    if (ptrace(PTRACE_SEIZE, pid, 0,
               PTRACE_O_EXITKILL | PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC |
                   PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK) != 0) {
        e = errno;
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        close(go[1]);
        close(err[0]);
        xcause(cause, "cannot trace %s: %s", path, strerror(e));
        free(path);
        return -1;
    }
    close(go[1]); /* lets the child exec */

    /* Wait for the exec stop, passing any signal the child gets first. */
    for (;;) {
        if (waitpid(pid, &status, __WALL) < 0) {
            if (errno == EINTR)
                continue;
            e = errno;
            close(err[0]);
            xcause(cause, "waitpid: %s", strerror(e));
            free(path);
            return -1;
        }
        if (WIFEXITED(status) || WIFSIGNALED(status)) {
            n = (int)read(err[0], &e, sizeof e);
            close(err[0]);
            if (n == (int)sizeof e)
                xcause(cause, "cannot execute %s: %s", path, strerror(e));
            else if (WIFEXITED(status))
                xcause(cause, "%s exited with status %d before it started",
                       path, WEXITSTATUS(status));
            else
                xcause(cause, "%s died of signal %d before it started", path,
                       WTERMSIG(status));
            free(path);
            return -1;
        }
        if (WIFSTOPPED(status) &&
            status >> 8 == (SIGTRAP | (PTRACE_EVENT_EXEC << 8)))
            break;
        if (WIFSTOPPED(status) && (status >> 16) == 0)
            ptrace(PTRACE_CONT, pid, 0, WSTOPSIG(status));
        else
            ptrace(PTRACE_CONT, pid, 0, 0);
    }
    close(err[0]);
    free(path);

    t = xcalloc(1, sizeof *t);
    t->memfd = -1;
    t->reap_more = 1;
    t->pid = pid;
    t->alive = 1;
    target_add_thread(t, pid, TH_STOPPED);
    target_register(t);
    *out = t;
    return 0;

fail_fork:
    e = errno;
    free(env);
    close(err[0]);
    close(err[1]);
    close(go[0]);
    close(go[1]);
    errno = e;
    goto fail;
fail_err:
    e = errno;
    close(go[0]);
    close(go[1]);
    errno = e;
fail_go:
fail:
    xcause(cause, "cannot start %s: %s", path, strerror(errno));
    free(path);
    return -1;
}
