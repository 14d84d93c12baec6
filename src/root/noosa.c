/* SPDX-License-Identifier: MIT */
/*
 * noosa.c - the composition root (noosa.h): creation and wiring of a
 * session's parts, and the session's hooks, where the program's items
 * become deliveries to consumers and lines of the transcript.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "checkpoint.h"
#include "clock.h"
#include "codenames.h"
#include "noosa-int.h"
#include "dapto.h"
#include "debug.h"
#include "decode.h"
#include "dispatch.h"
#include "fault.h"
#include "noosa.h"
#include "profile.h"
#include "question.h"
#include "relate.h"
#include "recread.h"
#include "reader.h"
#include "registry.h"
#include "stacks.h"
#include "symbols.h"
#include "target.h"
#include "transcript.h"
#include "unwind.h"
#include "value.h"
#include "xmalloc.h"

void noosa_set_where(struct noosa *n, char *where)
{
    free(n->where);
    n->where = where;
}

/* Say " PARAM=VALUE" for each parameter of the event ITEM at a stop:
 * numbers as they are, pointers in hexadecimal, strings quoted (as the
 * trace does), values of the program's own types and typed pointers
 * through the client (its browser, or the C value the debug information
 * makes of it, browsable), "?" for one that could not be read. */
static void say_params(struct noosa *n, const struct reader_item *item)
{
    const struct registry_event *e = item->event;
    unsigned int i;

    for (i = 0; i < item->nvalues && i < e->nparams; i++) {
        const struct registry_param *p = &e->params[i];
        const struct decode_value *v = &item->values[i];

        sink_sayf(&n->sink, " %s=", p->name);
        if ((p->kind == DAPTO_K_USER ||
             (p->kind == DAPTO_K_PTR && strncmp(p->type, "ptr<", 4) == 0)) &&
            v->kind != DAPTO_K_UNKNOWN && n->client.say_value != NULL) {
            if (!n->client.say_value(n->client.arg, p, v))
                sink_say(&n->sink, "?");
        } else {
            char *text = value_text(v);

            /* (a string that reads like a value is not one) */
            transcript_append_plain(n->transcript, text, strlen(text));
            free(text);
        }
    }
}

void noosa_interface_changed(struct noosa *n)
{
    if (n->client.interface != NULL)
        n->client.interface(n->client.arg);
}

static void stopped_at(struct noosa *n, const struct reader_item *item)
{
    if (n->client.stopped_at != NULL)
        n->client.stopped_at(n->client.arg, item);
}

/* Tell the debug layer of the event ITEM being delivered: a stop when
 * its thread waits (consumers may read the program then), else none. */
static void event_stop(struct noosa *n, const struct reader_item *item)
{
    if (n->replay != NULL)
        debug_stop_replay(n->debug, item);
    else if (item->stop >= 0)
        debug_stop(n->debug, session_target(n->session),
                   session_pid(n->session), item->tid, DEBUG_EVENT, item);
    else
        debug_pass(n->debug, item->event->name);
}

/* The session's hooks: doc/design.md#event-path. */

static int on_item(void *arg, const struct reader_item *item)
{
    struct noosa *n = arg;
    char *where = NULL;
    struct reader_item fn;
    int keep;

    n->item_seq++;
    if (item->kind == READER_FUNCTION && item->stop >= 0) {
        /* a function entry or exit the program waits at, for a
         * breakpoint: told and stopped at as the event it is */
        const struct reader_item *ev =
            dispatch_function_item(n->dispatch, item, &fn);

        if (ev != NULL)
            item = ev;
    }
    if (session_arrived(n->session)) {
        /* <design#replay>: a move stops here whatever the consumers say */
        n->item = item;
        event_stop(n, item);
        keep = dispatch_item(n->dispatch, item, &where);
        n->item = NULL;
        /* (worded as a step's stop) */
        if (!keep)
            where = xasprintf("event \"%s\"", item->event->name);
        noosa_set_where(n, where);
        n->stop_ns = item->ns;
        stopped_at(n, item);
        sink_fresh_line(&n->sink);
        sink_sayf(&n->sink, "Stopped at %s (event %llu)%s", where,
                  (unsigned long long)noosa_event_at(n),
                  item->event->nparams > 0 ? ":" : ".");
        say_params(n, item);
        sink_say(&n->sink, "\n");
        return 1;
    }
    switch (item->kind) {
    case READER_ASPECT:
        /* derived events whose parts are now known join the interface
         * before its states are written <design#relations> */
        relations_interface(n->relations);
        noosa_interface_changed(n);
        dispatch_item(n->dispatch, item, &where);
        return 0;
    case READER_EVENT:
        n->item = item;
        if (session_quiet(n->session)) {
            /* <design#checkpoints>: a move's events, told to what keeps a
             * state; they stop nothing (the session notes where they
             * would) and nobody looks at the program meanwhile */
            keep = dispatch_item(n->dispatch, item, &where);
            n->item = NULL;
            free(where);
            return keep;
        }
        event_stop(n, item);
        keep = dispatch_item(n->dispatch, item, &where);
        n->item = NULL;
        if (keep && !session_may_stop(n->session)) {
            /* its thread does not wait (or its process is gone): no stop
             * to speak of */
            free(where);
            where = NULL;
            keep = 0;
        }
        if (!keep)
            debug_go(n->debug);
        if (keep) {
            noosa_set_where(n, where);
            n->stop_ns = item->ns;
            stopped_at(n, item);
            sink_fresh_line(&n->sink);
            if (n->replay != NULL)
                sink_sayf(&n->sink, "Stopped at %s (event %llu)%s", where,
                          (unsigned long long)noosa_event_at(n),
                          item->event->nparams > 0 ? ":" : ".");
            else if (session_multi(n->session))
                /* <design#processes>: which one */
                sink_sayf(&n->sink, "Stopped at %s in process %d%s", where,
                          (int)session_pid(n->session),
                          item->event->nparams > 0 ? ":" : ".");
            else
                sink_sayf(&n->sink, "Stopped at %s%s", where,
                          item->event->nparams > 0 ? ":" : ".");
            say_params(n, item);
            sink_say(&n->sink, "\n");
        }
        return keep;
    case READER_ERROR:
        /* (the message says "protocol error" itself); it fails a batch
         * run as a failed command does */
        sink_error(&n->sink, "%s", item->message);
        n->sink.failed++;
        if (channel_status(session_channel(n->session)) == CHANNEL_BROKEN)
            fault_channel_broken(n->faults);
        return 0;
    case READER_LOST:
        sink_fresh_line(&n->sink);
        sink_sayf(&n->sink, "(%llu events lost)\n",
                  (unsigned long long)item->lost);
        return 0;
    default:
        dispatch_item(n->dispatch, item, &where);
        return 0;
    }
}

/* Function entries and exits on the direct path (see dispatch.h). */
static unsigned int on_functions(void *arg, const struct reader_fn *fns,
                                 unsigned int count)
{
    struct noosa *n = arg;

    count = dispatch_functions(n->dispatch, fns, count);
    n->item_seq += count;
    return count;
}

/* A recording's events that their consumers only count (dispatch.h). */
static unsigned int on_counts(void *arg, const struct reader_ev *evs,
                              unsigned int count)
{
    struct noosa *n = arg;

    count = dispatch_counts(n->dispatch, evs, count);
    n->item_seq += count;
    return count;
}

static void on_state(void *arg)
{
    struct noosa *n = arg;
    enum session_state state = session_state(n->session);
    int status, signo, ended;
    char sig[32];

    if (state == SESSION_IDLE) {
        stopped_at(n, NULL);
        symbols_free(n->inside_sym);
        n->inside_sym = NULL;
        debug_forget(n->debug);
    }
    if (state == SESSION_IDLE &&
        (ended = session_ended(n->session, &status, &signo)) != 0 &&
        !session_following(n->session)) {
        noosa_set_where(n, NULL);
        sink_fresh_line(&n->sink);
        if (n->replay != NULL && ended == 2)
            /* a recording: its program lived and ended long ago */
            sink_sayf(&n->sink, "The play of the recording ended at event "
                      "%llu.\n",
                      (unsigned long long)noosa_event_at(n));
        else if (n->replay != NULL && signo != 0)
            sink_sayf(&n->sink, "End of the recording: the program was "
                      "killed by %s.\n",
                      target_signal_name(signo, sig, sizeof sig));
        else if (n->replay != NULL)
            sink_sayf(&n->sink, "End of the recording: the program exited "
                      "with status %d.\n", status);
        else if (signo != 0)
            sink_sayf(&n->sink, "Program killed by %s.\n",
                      target_signal_name(signo, sig, sizeof sig));
        else
            sink_sayf(&n->sink, "Program exited with status %d.\n", status);
        profile_ended(n->profile);
        questions_ended(n->questions);
    } else if (state == SESSION_STOPPED) {
        const struct target_event *f = session_fault(n->session);

        if (f != NULL)
            debug_stop(n->debug, session_target(n->session),
                       session_pid(n->session), f->tid, DEBUG_FAULT, NULL);
        else if (session_why(n->session) == SESSION_INTERRUPTED)
            debug_stop(n->debug, session_target(n->session),
                       session_pid(n->session), session_pid(n->session),
                       n->attaching ? DEBUG_ATTACH : DEBUG_INTERRUPT, NULL);
        if (f != NULL) {
            /* the report, and the error policy (which may convert the
             * error or end the program before this returns) */
            fault_stopped(n->faults, f);
        } else if (session_why(n->session) == SESSION_INTERRUPTED &&
                   n->replay != NULL) {
            /* stop while a recording plays */
            noosa_set_where(n, xasprintf(
                "a pause after event %llu",
                (unsigned long long)noosa_event_at(n)));
            sink_fresh_line(&n->sink);
            sink_sayf(&n->sink, "The play is paused after event %llu.\n",
                      (unsigned long long)noosa_event_at(n));
        } else if (session_why(n->session) == SESSION_INTERRUPTED &&
                   !n->attaching && !session_following(n->session)) {
            noosa_set_where(n, xstrdup("interrupt"));
            sink_fresh_line(&n->sink);
            sink_say(&n->sink, "Program interrupted.\n");
        }
    } else if (state == SESSION_RUNNING) {
        noosa_set_where(n, NULL);
        stopped_at(n, NULL);
        debug_go(n->debug);
    }
    if (n->client.status != NULL)
        n->client.status(n->client.arg);
}

/* Whether a frame's function is an entry point of the runtime, through
 * which a thread may be using the region. */
static int runtime_frame(const char *fn)
{
    return codenames_runtime(fn);
}

/* Whether a frame's function is where a thread's stack begins. */
static int root_frame(const char *fn)
{
    static const char *const roots[] = {
        "start_thread", "__clone3", "__clone", "clone3", "clone", "_start",
        "__libc_start_main", "__libc_start_call_main", NULL};

    for (unsigned int i = 0; fn != NULL && roots[i] != NULL; i++) {
        size_t k = strlen(roots[i]);

        if (strncmp(fn, roots[i], k) == 0 && (fn[k] == '\0' || fn[k] == '@'))
            return 1;
    }
    return 0;
}

static int on_inside(void *arg, pid_t tid, char **where)
{
    struct noosa *n = arg;
    pid_t pid = session_pid(n->session);
    struct unwind_trace tr;
    char *cause = NULL;
    unsigned int i;
    int inside = 0;

    if (n->inside_sym == NULL || n->inside_pid != pid) {
        symbols_free(n->inside_sym);
        n->inside_sym = symbols_open(pid, &cause);
        n->inside_pid = pid;
        if (n->inside_sym == NULL) {
            *where = xasprintf("cannot tell: %s", cause);
            free(cause);
            return 1; /* cannot tell: as if it were */
        }
    }
    memset(&tr, 0, sizeof tr);
    if (unwind_thread(tid, &tr, &cause) != 0) {
        *where = xasprintf("cannot tell: %s", cause);
        free(cause);
        unwind_free(&tr);
        return 1;
    }
    unwind_name(&tr, n->inside_sym);
    for (i = 0; i < tr.n && !inside; i++)
        inside = runtime_frame(tr.frames[i].function);
    if (!inside && (tr.n == 0 || !root_frame(tr.frames[tr.n - 1].function))) {
        /* a stack read only part of the way may hide a runtime frame
         * further out (a thread asleep in a system call the runtime
         * made): not out of it for sure */
        inside = 1;
        *where = xstrdup("cannot tell: its stack could be read only down to");
    } else if (inside) {
        *where = xstrdup("in");
    }
    if (inside) {
        /* where exactly, innermost first */
        for (i = 0; i < tr.n && i < 8; i++) {
            const char *f = tr.frames[i].function;
            char *w = xasprintf("%s%s %s", *where, i > 0 ? " <" : "",
                                f != NULL ? f : "?");
            free(*where);
            *where = w;
        }
    }
    unwind_free(&tr);
    return inside;
}

/* The session's current process changed: so does the dispatcher's. */
static void on_process(void *arg)
{
    struct noosa *n = arg;

    dispatch_process(n->dispatch);
}

static void on_message(void *arg, const char *text)
{
    struct noosa *n = arg;

    sink_fresh_line(&n->sink);
    sink_sayf(&n->sink, "%s\n", text);
}

struct noosa *noosa_create(struct loop *loop, const struct noosa_opts *opts)
{
    struct noosa *n = xcalloc(1, sizeof *n);
    struct session_hooks hooks;
    char *cause = NULL;

    n->loop = loop;
    n->batch = opts->batch;
    n->transcript = transcript_create(opts->max_lines);
    n->sink.transcript = n->transcript;

    memset(&hooks, 0, sizeof hooks);
    hooks.item = on_item;
    hooks.functions = on_functions;
    hooks.counts = on_counts;
    hooks.state = on_state;
    hooks.message = on_message;
    hooks.inside = on_inside;
    hooks.process = on_process;
    hooks.quiet = noosa_replay_quiet;
    hooks.arg = n;
    n->session = session_create(loop, &hooks, &opts->session);
    /* <design#checkpoints>: before the dispatcher, whose consumers join
     * them; freed last, since they leave them as they go */
    n->ckpts = ckpts_create(CKPTS_BUDGET);
    session_set_checkpoints(n->session, n->ckpts);
    if (opts->tty != NULL &&
        session_set_tty(n->session, opts->tty, &cause) != 0) {
        /* main() opened it a moment ago: say so; the default stays */
        sink_error(&n->sink, "%s", cause);
        free(cause);
    }
    n->dispatch = dispatch_create(n->session);
    n->stacks = stacks_create(n->session, n->dispatch, &n->sink);
    n->profile = profile_create(n->stacks, n->session, n->dispatch,
                                &n->sink);
    n->faults = fault_create(n->session, n->dispatch, n->stacks, &n->sink,
                             n->batch, &n->where);
    n->questions = questions_create(n->session, n->dispatch, &n->sink);
    n->debug = debug_create();
    n->relations = relations_create(n->session, n->dispatch, n->stacks, &n->sink);
    questions_set_relations(n->questions, n->relations);
    if (opts->replay != NULL)
        n->replay_dir = xstrdup(opts->replay);
    return n;
}

void noosa_end(struct noosa *n)
{
    /* (the Tcl layer's guards let go of their components after this) */
    relations_end(n->relations);
    /* the program dies with its session */
    session_free(n->session);
    n->session = NULL;
}

void noosa_free(struct noosa *n)
{
    if (n == NULL)
        return;
    noosa_end(n);
    recread_free(n->replay);
    free(n->replay_dir);
    free(n->replay_name);
    symbols_free(n->inside_sym);
    debug_free(n->debug);
    fault_free(n->faults);
    questions_free(n->questions);
    relations_free(n->relations);
    profile_free(n->profile);
    stacks_free(n->stacks);
    dispatch_free(n->dispatch);
    ckpts_free(n->ckpts);
    free(n->sink.muted_first);
    transcript_free(n->transcript);
    free(n->where);
    free(n);
}

void noosa_set_client(struct noosa *n, const struct noosa_client *client)
{
    n->client = *client;
}

int noosa_load(struct noosa *n, char *const *argv, char **cause)
{
    char *why = NULL;
    int rc;

    if (n->replay_dir != NULL)
        return noosa_replay_open(n, cause);

    session_set_program(n->session, argv);
    rc = session_describe(n->session, &why);
    if (rc < 0) {
        xcause(cause, "%s", why);
        free(why);
        return -1;
    }
    if (rc > 0) {
        /* a program that cannot be described still runs */
        sink_sayf(&n->sink, "note: %s; the program's interface will be "
                  "known when it runs\n", why);
        free(why);
    }
    noosa_interface_changed(n);
    dispatch_flush(n->dispatch);
    return 0;
}

/* The base name of PATH. */
static const char *base_name(const char *path)
{
    const char *slash = path != NULL ? strrchr(path, '/') : NULL;

    return slash != NULL ? slash + 1 : path != NULL ? path : "?";
}

/* One frame as "FUNCTION (FILE:LINE)" or "FUNCTION (MODULE)"; freed by
 * the caller. */
static char *frame_place(const struct unwind_frame *f)
{
    const char *fn = f->function != NULL ? f->function : "??";

    if (f->file != NULL)
        return xasprintf("%s (%s:%d)", fn, base_name(f->file), f->line);
    return xasprintf("%s (%s)", fn, base_name(f->module));
}

/* Where thread TID of the program attached to is: its innermost
 * function, the program's own function that called it when that is
 * elsewhere (a system call in the C library), and the event it is at
 * when it is inside an event's encoder.  Freed by the caller. */
static char *attach_place(pid_t pid, pid_t tid, const char *exe)
{
    struct unwind_trace tr;
    struct symbols *sym;
    char *cause = NULL, *text = NULL, *inner, *own;
    const char *ev = NULL;
    unsigned int i, mine = 0;

    sym = symbols_open(pid, &cause);
    if (sym == NULL) {
        free(cause);
        return xstrdup("(where cannot be read)");
    }
    memset(&tr, 0, sizeof tr);
    if (unwind_thread(tid, &tr, &cause) != 0) {
        free(cause);
        unwind_free(&tr);
        symbols_free(sym);
        return xstrdup("(where cannot be read)");
    }
    unwind_name(&tr, sym);
    for (i = 0; i < tr.n; i++) {
        const char *fn = tr.frames[i].function;

        if (ev == NULL)
            ev = codenames_event(fn);
        if (mine == 0 && exe != NULL && tr.frames[i].module != NULL &&
            strcmp(tr.frames[i].module, exe) == 0)
            mine = i + 1;
    }
    inner = frame_place(&tr.frames[0]);
    if (mine > 1) {
        own = frame_place(&tr.frames[mine - 1]);
        text = xasprintf("in %s, called from %s", inner, own);
        free(own);
        free(inner);
    } else {
        text = xasprintf("in %s", inner);
        free(inner);
    }
    if (ev != NULL) {
        inner = text;
        text = xasprintf("%s, at event %s", inner, ev);
        free(inner);
    }
    unwind_free(&tr);
    symbols_free(sym);
    return text;
}

int noosa_attach(struct noosa *n, pid_t pid, char **cause)
{
    char link[64], exe[4096], *place;
    char *argv[2];
    ssize_t len;

    snprintf(link, sizeof link, "/proc/%d/exe", (int)pid);
    len = readlink(link, exe, sizeof exe - 1);
    exe[len > 0 ? len : 0] = '\0';
    n->attaching = 1;
    if (session_attach(n->session, pid, cause) != 0) {
        n->attaching = 0;
        return -1;
    }
    n->attaching = 0;
    if (len > 0) {
        /* `run` starts the same program afresh */
        argv[0] = exe;
        argv[1] = NULL;
        session_set_program(n->session, argv);
    }
    place = attach_place(pid, pid, len > 0 ? exe : NULL);
    noosa_set_where(n, xstrdup("attach"));
    debug_stop(n->debug, session_target(n->session), pid, pid, DEBUG_ATTACH,
               NULL);
    noosa_interface_changed(n);
    dispatch_flush(n->dispatch);
    sink_fresh_line(&n->sink);
    sink_sayf(&n->sink, "Attached to process %d (%s), stopped %s.\n",
              (int)pid, len > 0 ? base_name(exe) : "?", place);
    free(place);
    if (n->client.status != NULL)
        n->client.status(n->client.arg);
    return 0;
}
