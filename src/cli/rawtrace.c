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
static char *rawtrace_symbol(struct rawtrace *raw, uint64_t addr)
{
    struct symbols_info info;

    if (raw->syms == NULL)
        raw->syms = symbols_open(target_pid(raw->t), NULL);
    if (raw->syms == NULL)
        return xasprintf("0x%llx", (unsigned long long)addr);
    if (symbols_lookup(raw->syms, addr, &info) != 0 || info.function == NULL) {
        /* maybe a library loaded since */
        symbols_refresh(raw->syms, NULL);
        if (symbols_lookup(raw->syms, addr, &info) != 0 ||
            info.function == NULL)
            return xasprintf("0x%llx", (unsigned long long)addr);
    }
    if (info.offset == 0)
        return xstrdup(info.function);
    return xasprintf("%s+0x%llx", info.function,
                     (unsigned long long)info.offset);
}

static void rawtrace_event(struct rawtrace *raw, const struct reader_item *it)
{
    const struct registry_event *e = it->event;

    fprintf(raw->out, "%s thread=%d time=%lld", e->name, (int)it->tid,
            (long long)it->ns);
    for (unsigned int i = 0; i < e->nparams; i++) {
        if (i < it->nvalues) {
            char *s = value_text(&it->values[i]);
            fprintf(raw->out, " %s=%s", e->params[i].name, s);
            free(s);
        } else {
            fprintf(raw->out, " %s=<missing>", e->params[i].name);
        }
    }
    if (it->truncated)
        fprintf(raw->out, " [truncated]");
    if (it->stop >= 0)
        fprintf(raw->out, " [stopped]");
    fputc('\n', raw->out);
}

static void rawtrace_params(FILE *out, const struct registry_param *p,
                            unsigned int n)
{
    for (unsigned int i = 0; i < n; i++)
        fprintf(out, "%s%s %s", i == 0 ? "" : ", ", p[i].type, p[i].name);
}

static void rawtrace_aspect(struct rawtrace *raw,
                            const struct registry_aspect *a, int full)
{
    fprintf(raw->out, "# aspect %s (%s): %u event%s, %u operation%s\n",
            a->name, a->file, a->nevents, a->nevents == 1 ? "" : "s",
            a->nops, a->nops == 1 ? "" : "s");
    if (!full)
        return;
    for (unsigned int i = 0; i < a->nevents; i++) {
        const struct registry_event *e = &a->events[i];
        fprintf(raw->out, "#   event %s%s(", e->name, e->visible ? "*" : "");
        rawtrace_params(raw->out, e->params, e->nparams);
        fprintf(raw->out, ")");
        if (e->doc[0] != '\0') {
            char *q = value_quote(e->doc, strlen(e->doc));
            fprintf(raw->out, " %s", q);
            free(q);
        }
        fputc('\n', raw->out);
    }
    for (unsigned int i = 0; i < a->nops; i++) {
        const struct registry_op *o = &a->ops[i];
        fprintf(raw->out, "#   operation %s(", o->name);
        rawtrace_params(raw->out, o->params, o->nparams);
        fprintf(raw->out, ")%s%s", o->result_type[0] != '\0' ? ": " : "",
                o->result_type);
        if (o->doc[0] != '\0') {
            char *q = value_quote(o->doc, strlen(o->doc));
            fprintf(raw->out, " %s", q);
            free(q);
        }
        fputc('\n', raw->out);
    }
}

/* Set the --stop-at event's state once it is known. */
static void rawtrace_stop_at(struct rawtrace *raw)
{
    struct registry_event *e;
    char *cause = NULL;

    if (raw->o->stop_at == NULL || raw->stop_set)
        return;
    e = registry_event_by_name(channel_registry(raw->ch), raw->o->stop_at);
    if (e == NULL)
        return;
    if (channel_set_state(raw->ch, e->code,
                          DAPTO_STATE_RECORD | DAPTO_STATE_STOP,
                          &cause) != 0) {
        fprintf(raw->out, "# %s\n", cause);
        free(cause);
    }
    raw->stop_set = 1;
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
static void rawtrace_at_stop(struct rawtrace *raw, int stop)
{
    char *cause = NULL;

    for (int i = 0; i < raw->o->nsends; i++) {
        char *copy = xstrdup(raw->o->sends[i]);
        char *words[64];
        int n = rawtrace_split(copy, words, 64);
        struct channel_result res;

        if (n == 0) {
            free(copy);
            continue;
        }
        fprintf(raw->out, "# send %s", raw->o->sends[i]);
        if (channel_send(raw->ch, stop, words[0], n - 1,
                         (const char *const *)words + 1, &res,
                         raw->o->session.op_timeout_ms, &cause) != 0) {
            fprintf(raw->out, ": %s\n", cause);
        } else {
            fprintf(raw->out, " ->");
            for (unsigned int j = 0; j < res.nvalues; j++) {
                char *s = value_text(&res.values[j]);
                fprintf(raw->out, " %s", s);
                free(s);
            }
            fputc('\n', raw->out);
        }
        free(copy);
    }
    if (channel_resume(raw->ch, stop, &cause) != 0)
        fprintf(raw->out, "# cannot resume: %s\n", cause);
    free(cause);
}

static void rawtrace_item(struct rawtrace *raw, const struct reader_item *it)
{
    switch (it->kind) {
    case READER_EVENT:
        rawtrace_event(raw, it);
        if (it->stop >= 0)
            rawtrace_at_stop(raw, it->stop);
        break;
    case READER_HELLO:
        fprintf(raw->out, "# hello pid=%d protocol %s\n", (int)it->pid,
                channel_runtime_version(raw->ch));
        break;
    case READER_ASPECT:
        rawtrace_aspect(raw, it->aspect, 0);
        rawtrace_stop_at(raw);
        break;
    case READER_LOST:
        fprintf(raw->out, "# lost %llu records\n",
                (unsigned long long)it->lost);
        break;
    case READER_FUNCTION: {
        char *fn = rawtrace_symbol(raw, it->function);
        char *site = rawtrace_symbol(raw, it->call_site);
        fprintf(raw->out, "%s thread=%d time=%lld function=%s site=%s\n",
                it->enter ? "function-enter" : "function-leave", (int)it->tid,
                (long long)it->ns, fn, site);
        free(fn);
        free(site);
        break;
    }
    case READER_ERROR:
        fprintf(raw->out, "# %s\n", it->message);
        break;
    case READER_NONE:
        break;
    }
}

static void rawtrace_drain(struct rawtrace *raw)
{
    struct reader_item it;

    while (channel_next(raw->ch, &it))
        rawtrace_item(raw, &it);
    /* (the item said what was wrong) */
    if (channel_status(raw->ch) == CHANNEL_BROKEN)
        channel_let_go(raw->ch);
}

static void rawtrace_target(struct rawtrace *raw, const struct target_event *ev)
{
    char sig[32];
    char *cause = NULL;

    switch (ev->kind) {
    case TARGET_EV_EXITED:
        rawtrace_drain(raw);
        if (channel_status(raw->ch) == CHANNEL_WAITING)
            fprintf(raw->out, "# the program has no monitoring interface "
                    "(it does not use the dapto runtime)\n");
        fprintf(raw->out, "# exited with status %d\n", ev->status);
        raw->done = 1;
        break;
    case TARGET_EV_KILLED:
        rawtrace_drain(raw);
        if (channel_status(raw->ch) == CHANNEL_WAITING && !raw->interrupted)
            fprintf(raw->out, "# the program has no monitoring interface "
                    "(it does not use the dapto runtime)\n");
        fprintf(raw->out, "# killed by signal %s%s\n",
                target_signal_name(ev->signo, sig, sizeof sig),
                ev->core ? " (core dumped)" : "");
        raw->done = 1;
        break;
    case TARGET_EV_FAULT:
        rawtrace_drain(raw);
        fprintf(raw->out, "# fault: %s in thread %d",
                target_signal_name(ev->signo, sig, sizeof sig), (int)ev->tid);
        if (ev->code > 0)
            fprintf(raw->out, " at 0x%llx", (unsigned long long)ev->addr);
        else
            fprintf(raw->out, " (sent, not raised by a fault)");
        fprintf(raw->out, "; passed to the program\n");
        target_fault_pass(raw->t, ev->tid, NULL);
        break;
    case TARGET_EV_INTERRUPTED:
        rawtrace_drain(raw);
        fprintf(raw->out, "# interrupted: every thread is stopped\n");
        target_kill(raw->t);
        break;
    case TARGET_EV_BREAK:
    case TARGET_EV_BREAKPOINT:
        /* (the raw trace sets no breakpoint) */
        break;
    case TARGET_EV_FORK:
        fprintf(raw->out, "# created process pid=%d (not followed)\n",
                ev->status);
        break;
    case TARGET_EV_EXEC:
        rawtrace_drain(raw);
        channel_forget(raw->ch);
        fprintf(raw->out, "# executed another program: monitoring ended\n");
        break;
    }
    free(cause);
}

/* The describe pass's hooks: aspects as they come, messages as
 * comments. */
/* (the aspects are printed in full at the end, once each) */
static int describe_item(void *arg, const struct reader_item *it)
{
    (void)arg;
    (void)it;
    return 0;
}

static void describe_message(void *arg, const char *text)
{
    struct rawtrace *raw = arg;

    fprintf(raw->out, "# %s\n", text);
}

/* noosa --describe: the session's describe pass, the one the Tcl layer
 * runs at start-up, with the interface printed in full. */
static int rawtrace_describe_run(struct rawtrace *raw)
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
    hooks.arg = raw;
    s = session_create(loop, &hooks, &raw->o->session);
    session_set_program(s, raw->o->argv);
    rc = session_describe(s, &cause);
    if (rc < 0) {
        fprintf(stderr, "noosa: %s\n", cause);
        free(cause);
        session_free(s);
        loop_free(loop);
        return 1;
    }
    if (rc > 0) {
        fprintf(raw->out, "# not described: %s\n", cause);
        free(cause);
    } else {
        fprintf(raw->out, "# stopped at main\n");
    }
    /* what it told of its interface (before it was cut short, if so) */
    reg = session_registry(s);
    for (unsigned int i = 0; reg != NULL && i < registry_naspects(reg); i++)
        rawtrace_aspect(raw, registry_aspect_at(reg, i), 1);
    session_free(s);
    loop_free(loop);
    return 0;
}

int rawtrace_run(const struct noosa_opts *o)
{
    struct rawtrace raw;
    struct channel_opts copts;
    struct target_opts topts;
    char *env[2];
    int fds[2];
    char *cause = NULL;
    uint64_t interrupt_at = 0;

    memset(&raw, 0, sizeof raw);
    raw.o = o;
    raw.out = stdout;
    if (o->output != NULL) {
        raw.out = fopen(o->output, "w");
        if (raw.out == NULL) {
            fprintf(stderr, "noosa: %s: %s\n", o->output, strerror(errno));
            return 1;
        }
    }
    setvbuf(raw.out, NULL, _IOLBF, 0);
    if (o->describe) {
        int rc = rawtrace_describe_run(&raw);

        if (raw.out != stdout)
            fclose(raw.out);
        return rc;
    }

    memset(&copts, 0, sizeof copts);
    copts.ring_size = o->session.ring_size;
    copts.overwrite = o->session.overwrite;
    copts.no_tsc = o->session.no_tsc;
    copts.default_state = DAPTO_STATE_RECORD;
    if (channel_create(&raw.ch, &copts, &cause) != 0)
        goto fail_channel;

    env[0] = (char *)channel_env(raw.ch);
    env[1] = NULL;
    channel_fds(raw.ch, fds);
    memset(&topts, 0, sizeof topts);
    topts.argv = o->argv;
    topts.env = env;
    topts.fd_in = topts.fd_out = topts.fd_err = -1;
    topts.keep_fds = fds;
    topts.nkeep = 2;
    if (target_start(&raw.t, &topts, &cause) != 0)
        goto fail_target;
    channel_attach(raw.ch, raw.t);

    if (target_continue(raw.t, &cause) != 0) {
        goto fail_run;
    }
    if (o->interrupt_after_ms > 0)
        interrupt_at = clock_monotonic_ns() +
                       (uint64_t)o->interrupt_after_ms * 1000000u;

    while (!raw.done) {
        struct target_event ev;
        struct pollfd pfd[2];

        rawtrace_drain(&raw);
        while (!raw.done && target_poll(raw.t, &ev))
            rawtrace_target(&raw, &ev);
        if (raw.done)
            break;
        if (interrupt_at != 0 && clock_monotonic_ns() >= interrupt_at) {
            interrupt_at = 0;
            raw.interrupted = 1;
            if (target_interrupt(raw.t, &cause) != 0)
                fprintf(raw.out, "# cannot interrupt: %s\n", cause);
        }
        if (!channel_sleep_prepare(raw.ch))
            continue;
        pfd[0].fd = channel_fd(raw.ch);
        pfd[0].events = POLLIN;
        pfd[1].fd = target_fd(raw.t);
        pfd[1].events = POLLIN;
        poll(pfd, 2, 50);
        channel_sleep_finish(raw.ch);
    }
    if (o->stop_at != NULL && !raw.stop_set)
        fprintf(raw.out, "# no event %s in the program's interface\n",
                o->stop_at);
    symbols_free(raw.syms);
    target_free(raw.t);
    channel_free(raw.ch);
    if (raw.out != stdout)
        fclose(raw.out);
    return 0;

fail_run:
    target_free(raw.t);
fail_target:
    channel_free(raw.ch);
fail_channel:
    fprintf(stderr, "noosa: %s\n", cause);
    free(cause);
    if (raw.out != stdout)
        fclose(raw.out);
    return 1;
}
