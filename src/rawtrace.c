/* SPDX-License-Identifier: MIT */
/*
 * rawtrace.c - the raw-trace driver: run a program under the monitor with
 * every event recorded and print each decoded item on one line, reading
 * the channel and the target directly (it is how their tests see them,
 * below the session).  Also `noosa --describe`: the session's describe
 * pass (run to main, learn the interface the constructors registered,
 * kill), the one the Tcl layer runs, with the interface printed in full;
 * and the test hooks (stop at an event and run operations there,
 * interrupt after a delay).  This is a front end: it
 * prints; the modules under it do not.
 *
 * Line formats (pids, thread ids, addresses and times vary from run to
 * run; tests normalise them):
 *     EVENT thread=TID time=NS NAME=VALUE ... [stopped]
 *     # COMMENT  (aspects, losses, errors, faults, the end of the program)
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "channel.h"
#include "clock.h"
#include "dapto.h"
#include "loop.h"
#include "noosa.h"
#include "session.h"
#include "rawtrace.h"
#include "symbols.h"
#include "target.h"
#include "value.h"
#include "xmalloc.h"

struct rawtrace {
    const struct noosa_opts *o;
    FILE *out;
    struct channel *ch;
    struct target *t;
    int stop_set;  /* the --stop-at event is known and set */
    int done;      /* the program has ended */
    int status;    /* noosa's exit status */
    int interrupted;
    struct symbols *syms; /* opened at the first function record */
};

/* "NAME+0xOFF" for a code address, or the address alone. */
static char *rawtrace_symbol(struct rawtrace *rt, uint64_t addr)
{
    struct symbols_info info;

    if (rt->syms == NULL)
        rt->syms = symbols_open(target_pid(rt->t), NULL);
    if (rt->syms == NULL)
        return xasprintf("0x%llx", (unsigned long long)addr);
    if (symbols_lookup(rt->syms, addr, &info) != 0 || info.function == NULL) {
        /* maybe a library loaded since */
        symbols_refresh(rt->syms, NULL);
        if (symbols_lookup(rt->syms, addr, &info) != 0 ||
            info.function == NULL)
            return xasprintf("0x%llx", (unsigned long long)addr);
    }
    if (info.offset == 0)
        return xstrdup(info.function);
    return xasprintf("%s+0x%llx", info.function,
                     (unsigned long long)info.offset);
}

static void rawtrace_event(struct rawtrace *rt, const struct reader_item *it)
{
    const struct registry_event *e = it->event;

    fprintf(rt->out, "%s thread=%d time=%lld", e->name, (int)it->tid,
            (long long)it->ns);
    for (unsigned int i = 0; i < e->nparams; i++) {
        if (i < it->nvalues) {
            char *s = value_text(&it->values[i]);
            fprintf(rt->out, " %s=%s", e->params[i].name, s);
            free(s);
        } else {
            fprintf(rt->out, " %s=<missing>", e->params[i].name);
        }
    }
    if (it->truncated)
        fprintf(rt->out, " [truncated]");
    if (it->stop >= 0)
        fprintf(rt->out, " [stopped]");
    fputc('\n', rt->out);
}

static void rawtrace_params(FILE *out, const struct registry_param *p,
                            unsigned int n)
{
    for (unsigned int i = 0; i < n; i++)
        fprintf(out, "%s%s %s", i == 0 ? "" : ", ", p[i].type, p[i].name);
}

static void rawtrace_aspect(struct rawtrace *rt,
                            const struct registry_aspect *a, int full)
{
    fprintf(rt->out, "# aspect %s (%s): %u event%s, %u operation%s\n",
            a->name, a->file, a->nevents, a->nevents == 1 ? "" : "s",
            a->nops, a->nops == 1 ? "" : "s");
    if (!full)
        return;
    for (unsigned int i = 0; i < a->nevents; i++) {
        const struct registry_event *e = &a->events[i];
        fprintf(rt->out, "#   event %s%s(", e->name, e->visible ? "*" : "");
        rawtrace_params(rt->out, e->params, e->nparams);
        fprintf(rt->out, ")");
        if (e->doc[0] != '\0') {
            char *q = value_quote(e->doc, strlen(e->doc));
            fprintf(rt->out, " %s", q);
            free(q);
        }
        fputc('\n', rt->out);
    }
    for (unsigned int i = 0; i < a->nops; i++) {
        const struct registry_op *o = &a->ops[i];
        fprintf(rt->out, "#   operation %s(", o->name);
        rawtrace_params(rt->out, o->params, o->nparams);
        fprintf(rt->out, ")%s%s", o->result_type[0] != '\0' ? ": " : "",
                o->result_type);
        if (o->doc[0] != '\0') {
            char *q = value_quote(o->doc, strlen(o->doc));
            fprintf(rt->out, " %s", q);
            free(q);
        }
        fputc('\n', rt->out);
    }
}

/* Set the --stop-at event's state once it is known. */
static void rawtrace_stop_at(struct rawtrace *rt)
{
    struct registry_event *e;
    char *cause = NULL;

    if (rt->o->stop_at == NULL || rt->stop_set)
        return;
    e = registry_event_by_name(channel_registry(rt->ch), rt->o->stop_at);
    if (e == NULL)
        return;
    if (channel_set_state(rt->ch, e->code,
                          DAPTO_STATE_RECORD | DAPTO_STATE_STOP,
                          &cause) != 0) {
        fprintf(rt->out, "# %s\n", cause);
        free(cause);
    }
    rt->stop_set = 1;
}

/* Split a --send argument "OP ARG ..." at blanks (no quoting). */
static int rawtrace_split(char *s, char **words, int max)
{
    int n = 0;

    for (char *w = strtok(s, " \t"); w != NULL && n < max;
         w = strtok(NULL, " \t"))
        words[n++] = w;
    return n;
}

/* At a stop: run the --send operations, then resume. */
static void rawtrace_at_stop(struct rawtrace *rt, int stop)
{
    char *cause = NULL;

    for (int i = 0; i < rt->o->nsends; i++) {
        char *copy = xstrdup(rt->o->sends[i]);
        char *words[64];
        int n = rawtrace_split(copy, words, 64);
        struct channel_result res;

        if (n == 0) {
            free(copy);
            continue;
        }
        fprintf(rt->out, "# send %s", rt->o->sends[i]);
        if (channel_send(rt->ch, stop, words[0], n - 1,
                         (const char *const *)words + 1, &res,
                         rt->o->session.op_timeout_ms, &cause) != 0) {
            fprintf(rt->out, ": %s\n", cause);
        } else {
            fprintf(rt->out, " ->");
            for (unsigned int j = 0; j < res.nvalues; j++) {
                char *s = value_text(&res.values[j]);
                fprintf(rt->out, " %s", s);
                free(s);
            }
            fputc('\n', rt->out);
        }
        free(copy);
    }
    if (channel_resume(rt->ch, stop, &cause) != 0)
        fprintf(rt->out, "# cannot resume: %s\n", cause);
    free(cause);
}

static void rawtrace_item(struct rawtrace *rt, const struct reader_item *it)
{
    switch (it->kind) {
    case READER_EVENT:
        rawtrace_event(rt, it);
        if (it->stop >= 0)
            rawtrace_at_stop(rt, it->stop);
        break;
    case READER_HELLO:
        fprintf(rt->out, "# hello pid=%d protocol %s\n", (int)it->pid,
                channel_runtime_version(rt->ch));
        break;
    case READER_ASPECT:
        rawtrace_aspect(rt, it->aspect, 0);
        rawtrace_stop_at(rt);
        break;
    case READER_LOST:
        fprintf(rt->out, "# lost %llu records\n",
                (unsigned long long)it->lost);
        break;
    case READER_FUNCTION: {
        char *fn = rawtrace_symbol(rt, it->function);
        char *site = rawtrace_symbol(rt, it->call_site);
        fprintf(rt->out, "%s thread=%d time=%lld function=%s site=%s\n",
                it->enter ? "function-enter" : "function-leave", (int)it->tid,
                (long long)it->ns, fn, site);
        free(fn);
        free(site);
        break;
    }
    case READER_ERROR:
        fprintf(rt->out, "# %s\n", it->message);
        break;
    case READER_NONE:
        break;
    }
}

static void rawtrace_drain(struct rawtrace *rt)
{
    struct reader_item it;

    while (channel_next(rt->ch, &it))
        rawtrace_item(rt, &it);
    /* (the item said what was wrong) */
    if (channel_status(rt->ch) == CHANNEL_BROKEN)
        channel_let_go(rt->ch);
}

static void rawtrace_target(struct rawtrace *rt, const struct target_event *ev)
{
    char sig[32];
    char *cause = NULL;

    switch (ev->kind) {
    case TARGET_EV_EXITED:
        rawtrace_drain(rt);
        if (channel_status(rt->ch) == CHANNEL_WAITING)
            fprintf(rt->out, "# the program has no monitoring interface "
                    "(it does not use the dapto runtime)\n");
        fprintf(rt->out, "# exited with status %d\n", ev->status);
        rt->done = 1;
        break;
    case TARGET_EV_KILLED:
        rawtrace_drain(rt);
        if (channel_status(rt->ch) == CHANNEL_WAITING && !rt->interrupted)
            fprintf(rt->out, "# the program has no monitoring interface "
                    "(it does not use the dapto runtime)\n");
        fprintf(rt->out, "# killed by signal %s%s\n",
                target_signal_name(ev->signo, sig, sizeof sig),
                ev->core ? " (core dumped)" : "");
        rt->done = 1;
        break;
    case TARGET_EV_FAULT:
        rawtrace_drain(rt);
        fprintf(rt->out, "# fault: %s in thread %d",
                target_signal_name(ev->signo, sig, sizeof sig), (int)ev->tid);
        if (ev->code > 0)
            fprintf(rt->out, " at 0x%llx", (unsigned long long)ev->addr);
        else
            fprintf(rt->out, " (sent, not raised by a fault)");
        fprintf(rt->out, "; passed to the program\n");
        target_fault_pass(rt->t, ev->tid, NULL);
        break;
    case TARGET_EV_INTERRUPTED:
        rawtrace_drain(rt);
        fprintf(rt->out, "# interrupted: every thread is stopped\n");
        target_kill(rt->t);
        break;
    case TARGET_EV_BREAK:
        /* (the raw trace sets no breakpoint) */
        break;
    case TARGET_EV_FORK:
        fprintf(rt->out, "# created process pid=%d (not followed)\n",
                ev->status);
        break;
    case TARGET_EV_EXEC:
        rawtrace_drain(rt);
        channel_forget(rt->ch);
        fprintf(rt->out, "# executed another program: monitoring ended\n");
        break;
    }
    free(cause);
}

/* The describe pass's hooks: aspects as they come, messages as
 * comments. */
static int describe_item(void *arg, const struct reader_item *it)
{
    struct rawtrace *rt = arg;

    if (it->kind == READER_ASPECT)
        rawtrace_aspect(rt, it->aspect, 0);
    return 0;
}

static void describe_message(void *arg, const char *text)
{
    struct rawtrace *rt = arg;

    fprintf(rt->out, "# %s\n", text);
}

/* noosa --describe: the session's describe pass, the one the Tcl layer
 * runs at start-up, with the interface printed in full. */
static int rawtrace_describe_run(struct rawtrace *rt)
{
    struct loop *loop = loop_create();
    struct session_hooks hooks;
    struct session *s;
    struct registry *reg;
    char *cause = NULL;
    int rc;

    memset(&hooks, 0, sizeof hooks);
    hooks.item = describe_item;
    hooks.message = describe_message;
    hooks.arg = rt;
    s = session_create(loop, &hooks, &rt->o->session);
    session_set_program(s, rt->o->argv);
    rc = session_describe(s, &cause);
    if (rc < 0) {
        fprintf(stderr, "noosa: %s\n", cause);
        free(cause);
        session_free(s);
        loop_free(loop);
        return 1;
    }
    if (rc > 0) {
        fprintf(rt->out, "# not described: %s\n", cause);
        free(cause);
    } else {
        fprintf(rt->out, "# stopped at main\n");
        reg = session_registry(s);
        for (unsigned int i = 0; reg != NULL && i < registry_naspects(reg);
             i++)
            rawtrace_aspect(rt, registry_aspect_at(reg, i), 1);
    }
    session_free(s);
    loop_free(loop);
    return 0;
}

int rawtrace_run(const struct noosa_opts *o)
{
    struct rawtrace rt;
    struct channel_opts copts;
    struct target_opts topts;
    char *env[2];
    int fds[2];
    char *cause = NULL;
    uint64_t interrupt_at = 0;

    memset(&rt, 0, sizeof rt);
    rt.o = o;
    rt.out = stdout;
    if (o->output != NULL) {
        rt.out = fopen(o->output, "w");
        if (rt.out == NULL) {
            fprintf(stderr, "noosa: %s: %s\n", o->output, strerror(errno));
            return 1;
        }
    }
    setvbuf(rt.out, NULL, _IOLBF, 0);
    if (o->describe) {
        int rc = rawtrace_describe_run(&rt);

        if (rt.out != stdout)
            fclose(rt.out);
        return rc;
    }

    memset(&copts, 0, sizeof copts);
    copts.ring_size = o->session.ring_size;
    copts.overwrite = o->session.overwrite;
    copts.no_tsc = o->session.no_tsc;
    copts.default_state = DAPTO_STATE_RECORD;
    if (channel_create(&rt.ch, &copts, &cause) != 0)
        goto fail_channel;

    env[0] = (char *)channel_env(rt.ch);
    env[1] = NULL;
    channel_fds(rt.ch, fds);
    memset(&topts, 0, sizeof topts);
    topts.argv = o->argv;
    topts.env = env;
    topts.fd_in = topts.fd_out = topts.fd_err = -1;
    topts.keep_fds = fds;
    topts.nkeep = 2;
    if (target_start(&rt.t, &topts, &cause) != 0)
        goto fail_target;
    channel_attach(rt.ch, rt.t);

    if (target_continue(rt.t, &cause) != 0) {
        goto fail_run;
    }
    if (o->interrupt_after_ms > 0)
        interrupt_at = clock_monotonic_ns() +
                       (uint64_t)o->interrupt_after_ms * 1000000u;

    while (!rt.done) {
        struct target_event ev;
        struct pollfd pfd[2];

        rawtrace_drain(&rt);
        while (!rt.done && target_poll(rt.t, &ev))
            rawtrace_target(&rt, &ev);
        if (rt.done)
            break;
        if (interrupt_at != 0 && clock_monotonic_ns() >= interrupt_at) {
            interrupt_at = 0;
            rt.interrupted = 1;
            if (target_interrupt(rt.t, &cause) != 0)
                fprintf(rt.out, "# cannot interrupt: %s\n", cause);
        }
        if (!channel_sleep_prepare(rt.ch))
            continue;
        pfd[0].fd = channel_fd(rt.ch);
        pfd[0].events = POLLIN;
        pfd[1].fd = target_fd(rt.t);
        pfd[1].events = POLLIN;
        poll(pfd, 2, 50);
        channel_sleep_finish(rt.ch);
    }
    if (o->stop_at != NULL && !rt.stop_set)
        fprintf(rt.out, "# no event %s in the program's interface\n",
                o->stop_at);
    symbols_free(rt.syms);
    target_free(rt.t);
    channel_free(rt.ch);
    if (rt.out != stdout)
        fclose(rt.out);
    return 0;

fail_run:
    target_free(rt.t);
fail_target:
    channel_free(rt.ch);
fail_channel:
    fprintf(stderr, "noosa: %s\n", cause);
    free(cause);
    if (rt.out != stdout)
        fclose(rt.out);
    return 1;
}
