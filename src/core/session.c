/* SPDX-License-Identifier: MIT */
/*
 * session.c - a monitored program through its runs, driven by the front
 * end's loop: the session itself (created and freed, the program and the
 * terminal it runs with), what it says, and how items reach its hooks.
 *
 * While the program runs, the session watches the target's descriptor and
 * the channel's; after every wake-up of the loop it takes what the channel
 * has (a bounded amount, so the front end stays responsive) and hands each
 * item to its hook.  An event whose thread waits is resumed unless the hook
 * keeps it; then the session stops reading the channel until the program
 * goes on, so that the order of events is kept and nothing is lost (other
 * threads wait for room in the ring, by design).  When the program ends,
 * every record it wrote is delivered before the end is reported.
 *
 * The rest of the session is in files by role, listed in session-int.h.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dapto.h"
#include "probes.h"
#include "protocol.h"
#include "session-int.h"
#include "xmalloc.h"

static void free_argv(char **argv)
{
    size_t i;

    if (argv == NULL)
        return;
    for (i = 0; argv[i] != NULL; i++)
        free(argv[i]);
    free(argv);
}

static char **copy_argv(char *const *argv)
{
    size_t n = 0, i;
    char **copy;

    while (argv != NULL && argv[n] != NULL)
        n++;
    copy = xcalloc(n + 1, sizeof *copy);
    for (i = 0; i < n; i++)
        copy[i] = xstrdup(argv[i]);
    return copy;
}

struct session *session_create(struct loop *loop,
                               const struct session_hooks *hooks,
                               const struct session_opts *opts)
{
    struct session *s = xcalloc(1, sizeof *s);

    s->loop = loop;
    s->hooks = *hooks;
    s->opts = *opts;
    s->stop = -1;
    s->dispatching = -1;
    s->argv = xcalloc(1, sizeof *s->argv);
    s->tty_fd = -1;
    s->follow = SESSION_FOLLOW_BOTH;
    replay_init(s);
    return s;
}

void session_free(struct session *s)
{
    if (s == NULL)
        return;
    /* a program attached to goes on without us, as after detach */
    if (session_attached(s))
        session_detach(s, NULL);
    unwatch_all(s);
    s->hooks.process = NULL;
    procs_free(s);
    free_argv(s->argv);
    if (s->tty_fd >= 0)
        close(s->tty_fd);
    free(s->tty_path);
    free(s->procs);
    probe_hints_free(s->hints);
    free(s);
}

void session_set_trail_events(struct session *s, unsigned int n)
{
    s->opts.trail_events = n;
}

int session_set_tty(struct session *s, const char *path, char **cause)
{
    int fd = -1;

    if (path != NULL) {
        fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC);
        if (fd < 0) {
            xcause(cause, "cannot open %s: %s", path, strerror(errno));
            return -1;
        }
        if (!isatty(fd)) {
            xcause(cause, "%s is not a terminal", path);
            close(fd);
            return -1;
        }
    }
    if (s->tty_fd >= 0)
        close(s->tty_fd);
    free(s->tty_path);
    s->tty_fd = fd;
    s->tty_path = path != NULL ? xstrdup(path) : NULL;
    return 0;
}

const char *session_tty(const struct session *s)
{
    return s->tty_path;
}

void session_set_program(struct session *s, char *const *argv)
{
    free_argv(s->argv);
    s->argv = copy_argv(argv);
}

char *const *session_argv(const struct session *s)
{
    return s->argv;
}

void session_set_args(struct session *s, char *const *args)
{
    size_t n = 0, i;
    char **argv;

    while (args[n] != NULL)
        n++;
    argv = xcalloc(n + 2, sizeof *argv);
    argv[0] = xstrdup(s->argv[0] != NULL ? s->argv[0] : "");
    for (i = 0; i < n; i++)
        argv[i + 1] = xstrdup(args[i]);
    free_argv(s->argv);
    s->argv = argv;
}

void message(struct session *s, const char *fmt, ...)
{
    va_list ap;
    char *text;

    va_start(ap, fmt);
    text = xvasprintf(fmt, ap);
    va_end(ap);
    if (s->hooks.message != NULL)
        s->hooks.message(s->hooks.arg, text);
    free(text);
}

void changed(struct session *s)
{
    if (s->hooks.state != NULL && !s->hush)
        s->hooks.state(s->hooks.arg);
}

/* Report, once a run, that the program's runtime will not talk to us. */
void tell_status(struct session *s)
{
    if (s->told_status || s->channel == NULL)
        return;
    switch (channel_status(s->channel)) {
    case CHANNEL_UNMONITORED:
        message(s, "the program's runtime speaks channel protocol %s; this "
                "noosa speaks %d.%d.%d: the program runs unmonitored",
                channel_runtime_version(s->channel), DAPTO_PROTO_MAJOR,
                DAPTO_PROTO_MEDIAN, DAPTO_PROTO_MINOR);
        s->told_status = 1;
        break;
    default:
        break;
    }
}

void no_interface(struct session *s)
{
    /* (its probes are the interface it has, <design#probes>) */
    if (s->cur != NULL && probes_count(s->cur->probes) > 0)
        return;
    if (!s->told_status && !s->told_none && s->channel != NULL &&
        channel_status(s->channel) == CHANNEL_WAITING) {
        message(s, "the program has no monitoring interface (it does not "
                "use the dapto runtime)");
        s->told_status = 1;
        s->told_none = 1;
    }
}

/* Let the thread stopped in mailbox STOP (or at a probe: TID) go on. */
int resume_stop(struct session *s, int stop, pid_t tid, char **cause)
{
    if (stop == STOP_PROBE) {
        s->probe_spin = 1;
        return target_break_go(s->target, tid, cause);
    }
    return channel_resume(s->channel, stop, cause);
}

/* Hand one item to the hook; resume a waiting thread unless kept.
 * Returns 1 when the program stays stopped at the item. */
int deliver(struct session *s, const struct reader_item *item)
{
    int keep = 0;
    char *cause = NULL;

    if (item->kind == READER_HELLO && s->cur != NULL)
        s->cur->hello = 1;
    s->dispatching = item->stop;
    if (s->hooks.item != NULL)
        keep = s->hooks.item(s->hooks.arg, item);
    s->dispatching = -1;
    /* <design#probes>: its runtime can handle its probes from now on */
    if (item->kind == READER_HELLO && s->cur != NULL &&
        s->cur->probes != NULL && s->target != NULL && s->channel != NULL &&
        channel_status(s->channel) == CHANNEL_ACTIVE &&
        target_alive(s->target) && !s->described)
        probes_runtime(s->cur->probes);
    /* a corrupt channel: the hook has said so (and may have stopped or
     * killed the program); nothing waits for us from now on */
    if (s->channel != NULL && channel_status(s->channel) == CHANNEL_BROKEN)
        channel_let_go(s->channel);
    if (item->stop < 0)
        return 0;
    if (keep && s->quiet) {
        /* <design#checkpoints>: a move's events stop nothing; a reverse
         * search notes where they would */
        s->found = s->seq + 1;
        return 0;
    }
    if (keep && !s->attaching &&
        (s->source.next != NULL ||
         (s->target != NULL && target_alive(s->target)))) {
        s->state = SESSION_STOPPED;
        s->why = SESSION_AT_EVENT;
        s->stop = item->stop;
        s->stop_tid = item->tid;
        s->stop_proc = s->cur;
        s->reading = 0;
        watch_channels(s, 0);
        changed(s);
        return 1;
    }
    if (s->target == NULL || !target_alive(s->target))
        return 0; /* (the records of a program that has ended) */
    if (resume_stop(s, item->stop, item->tid, &cause) != 0) {
        message(s, "cannot resume the program: %s", cause);
        free(cause);
    }
    return 0;
}

/* Take up to MAX items from the channel (0: no limit).  Returns 1 when
 * more may be waiting. */
int drain(struct session *s, unsigned int max)
{
    struct reader_item item;
    unsigned int n = 0;
    uint64_t direct;

    if (s->channel == NULL)
        return 0;
    direct = channel_direct_count(s->channel);
    while (s->reading && s->channel != NULL && (max == 0 || n < max) &&
           (max == 0 || channel_direct_count(s->channel) - direct <
                            SESSION_DIRECT_BATCH) &&
           channel_next(s->channel, &item)) {
        n++;
        tell_status(s);
        /* the channel's error item for a version mismatch says what
         * tell_status() just said */
        if (item.kind == READER_ERROR &&
            channel_status(s->channel) == CHANNEL_UNMONITORED)
            continue;
        if (deliver(s, &item))
            return 0;
    }
    tell_status(s);
    return s->reading && s->channel != NULL && max != 0 &&
           (n == max ||
            channel_direct_count(s->channel) - direct >= SESSION_DIRECT_BATCH);
}

int session_may_stop(const struct session *s)
{
    return s->dispatching >= 0 && !s->attaching &&
           (s->source.next != NULL ||
            (s->target != NULL && target_alive(s->target)));
}

int session_can_send(const struct session *s)
{
    if (s->source.next != NULL ||
        (s->dispatching >= 0 ? s->dispatching : s->stop) == STOP_PROBE)
        return 0;
    return s->dispatching >= 0 ||
           (s->state == SESSION_STOPPED && s->why == SESSION_AT_EVENT);
}

int session_send(struct session *s, const char *op, int argc,
                 const char *const *argv, struct channel_result *res,
                 char **cause)
{
    int stop = s->dispatching >= 0 ? s->dispatching : s->stop;

    if (s->source.next != NULL) {
        xcause(cause, "operations are not available in a recording (%s): "
               "the program is not live", s->source.name);
        return -1;
    }
    if (stop == STOP_PROBE) {
        xcause(cause, "operations run at the program's own events; a "
               "probe's thread waits under ptrace, where none can run");
        return -1;
    }
    if (!session_can_send(s)) {
        xcause(cause, "the program is not stopped at an event%s",
               s->state == SESSION_STOPPED ? " (it was interrupted)" : "");
        return -1;
    }
    return channel_send(s->channel, stop, op, argc, argv, res,
                        s->opts.op_timeout_ms, cause);
}

enum session_state session_state(const struct session *s)
{
    return s->state;
}

struct loop *session_loop(const struct session *s)
{
    return s->loop;
}

enum session_why session_why(const struct session *s)
{
    return s->why;
}

pid_t session_pid(const struct session *s)
{
    if (s->source.next != NULL)
        return s->source.pid;
    return s->target != NULL ? target_pid(s->target) : 0;
}

const struct target_event *session_fault(const struct session *s)
{
    return s->state == SESSION_STOPPED && s->why == SESSION_FAULT ? &s->fault
                                                                  : NULL;
}

int session_ended(const struct session *s, int *status, int *signo)
{
    if (!s->ended)
        return 0;
    *status = s->end_status;
    *signo = s->end_signo;
    return s->killed ? 2 : 1;
}

struct registry *session_registry(const struct session *s)
{
    if (s->source.next != NULL)
        return s->source.registry(s->source.arg);
    return s->channel != NULL ? channel_registry(s->channel) : NULL;
}

struct channel *session_channel(const struct session *s)
{
    return s->channel;
}

struct target *session_target(const struct session *s)
{
    return s->target;
}

void session_direct(struct session *s, int on)
{
    s->direct = on;
    /* (a new run's channel starts without) */
    if (s->channel != NULL)
        channel_direct(s->channel, on ? s->hooks.functions : NULL,
                       s->hooks.arg);
}

void session_counting(struct session *s, int on)
{
    s->counting = on;
}

int session_set_state(struct session *s, unsigned int code,
                      unsigned char state, char **cause)
{
    if (s->channel == NULL || s->target == NULL)
        return 0;
    if (probes_owned(s, code)) {
        struct registry_event *e =
            registry_event(channel_registry(s->channel), code);

        if (e != NULL)
            e->state = state;
        return probes_set_state(s->cur->probes, code, state, cause);
    }
    return channel_set_state(s->channel, code, state, cause);
}

int session_filters(const struct session *s, const char **why)
{
    if (s->channel == NULL || s->target == NULL) {
        if (why != NULL)
            *why = "the program is not running";
        return 0;
    }
    return channel_filters(s->channel, why);
}

int session_set_filter(struct session *s, const struct registry_event *ev,
                       unsigned char uncond, const struct cond_clause *cl,
                       unsigned int n, uint16_t checked, uint16_t passed,
                       char **cause)
{
    if (s->channel == NULL || s->target == NULL) {
        xcause(cause, "the program is not running");
        return -1;
    }
    if (probes_owned(s, ev->code)) {
        xcause(cause, "conditions on probes are evaluated in noosa");
        return -1;
    }
    return channel_set_filter(s->channel, ev, uncond, cl, n, checked, passed,
                              cause);
}

void session_clear_filter(struct session *s, const struct registry_event *ev)
{
    if (s->channel != NULL)
        channel_clear_filter(s->channel, ev->code);
}

uint64_t session_counter(const struct session *s, uint16_t id)
{
    return s->channel != NULL ? channel_counter(s->channel, id) : 0;
}
