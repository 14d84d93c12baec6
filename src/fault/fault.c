/* SPDX-License-Identifier: MIT */
/*
 * fault.c - run-time errors of the monitored program.  See fault.h.
 *
 * An error stops every thread of the program first (all-stop, as a
 * debugger does), so that the report is consistent: the trail cannot move
 * under the reader, and the other threads can be unwound and listed.  The
 * policy is applied from the session's state hook, so a conversion or a
 * kill happens before the command that let the program run returns: in
 * batch mode, "run" waits through converted errors as through events.
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "channel.h"
#include "codenames.h"
#include "clock.h"
#include "fault-recover.h"
#include "fault-trail.h"
#include "fault.h"
#include "dispatch.h"
#include "session.h"
#include "sink.h"
#include "protocol.h"
#include "region.h"
#include "stacks.h"
#include "symbols.h"
#include "target.h"
#include "unwind.h"
#include "xmalloc.h"

/* How long the other threads may take to stop. */
#define FAULT_STOP_MS 5000
/* Leading frames searched for the runtime's entry points. */
#define FAULT_TRIM_DEPTH 24

struct faults {
    struct session *session;
    struct stacks *stacks_of; /* the component stacks, or NULL */
    struct sink *say;
    char **where;             /* what the program is stopped at (the root's) */
    struct fault_trail *trail;
    enum fault_policy policy;
    unsigned long count; /* FAULT_CONVERT: conversions left, 0: all */
    int stacks;          /* we use the component stacks (errors stacks) */
};

struct faults *fault_create(struct session *s, struct dispatch *d,
                            struct stacks *st, struct sink *say, int batch,
                            char **where)
{
    struct faults *f = xcalloc(1, sizeof *f);

    f->session = s;
    f->stacks_of = st;
    f->say = say;
    f->where = where;
    f->policy = batch ? FAULT_NONE : FAULT_ASK;
    f->trail = fault_trail_create(s, d, say, FAULT_LAST_DEFAULT);
    return f;
}

void fault_free(struct faults *f)
{
    if (f == NULL)
        return;
    fault_set_stacks(f, 0);
    fault_trail_free(f->trail);
    free(f);
}

struct fault_trail *fault_trail(struct faults *f)
{
    return f->trail;
}

void fault_set_policy(struct faults *f, enum fault_policy p,
                      unsigned long count)
{
    f->policy = p;
    f->count = p == FAULT_CONVERT ? count : 0;
}

void fault_set_stacks(struct faults *f, int on)
{
    on = on != 0;
    if (f->stacks_of == NULL || f->stacks == on)
        return;
    f->stacks = on;
    stacks_use(f->stacks_of, on);
}

int fault_stacks(const struct faults *f)
{
    return f->stacks;
}

enum fault_policy fault_policy(const struct faults *f, unsigned long *count)
{
    if (count != NULL)
        *count = f->count;
    return f->policy;
}


/* Stop every thread of the program and wait until they are.  Returns 1
 * when some had to be stopped (the caller may let them go on again), 0
 * when all were stopped already, -1 with *cause. */
static int stop_all(struct faults *f, char **cause)
{
    struct target *t = session_target(f->session);
    struct target_event ev, *kept = NULL;
    unsigned int nkept = 0;
    uint64_t deadline;
    int rc = -1;

    if (t == NULL || !target_alive(t)) {
        xcause(cause, "the program is not running");
        return -1;
    }
    if (target_stopped(t))
        return 0;
    if (target_interrupt(t, cause) != 0)
        return -1;
    deadline = clock_monotonic_ns() + (uint64_t)FAULT_STOP_MS * 1000000u;
    for (;;) {
        uint64_t now = clock_monotonic_ns();

        if (now >= deadline ||
            !target_wait(t, &ev, (int)((deadline - now) / 1000000u) + 1)) {
            xcause(cause, "the other threads did not stop within %d ms",
                   FAULT_STOP_MS);
            break;
        }
        if (ev.kind == TARGET_EV_INTERRUPTED) {
            rc = 1;
            break;
        }
        /* (every one: a fault left out would never be told, its thread
         * waiting at it for ever) */
        kept = xreallocarray(kept, nkept + 1, sizeof *kept);
        kept[nkept++] = ev;
        if (ev.kind == TARGET_EV_EXITED || ev.kind == TARGET_EV_KILLED) {
            xcause(cause, "the program ended");
            break;
        }
    }
    /* what was not ours goes back, in order, for the session */
    while (nkept > 0)
        target_unread(t, &kept[--nkept]);
    free(kept);
    return rc;
}

/* The channel of the run when the program's runtime talks to us, else
 * NULL. */
static struct channel *active_channel(struct faults *f)
{
    struct channel *ch = session_channel(f->session);

    return ch != NULL && channel_status(ch) == CHANNEL_ACTIVE ? ch : NULL;
}

/* The address of the program's recovery table, 0 when it has none. */
static uint64_t table_address(struct faults *f)
{
    struct channel *ch = active_channel(f);

    if (ch == NULL)
        return 0;
    return __atomic_load_n(&channel_region(ch)->hdr->rt_recover,
                           __ATOMIC_ACQUIRE);
}

/* What the recovery table says about thread TID; what was wrong with it
 * goes into R->problem. */
static void recover_info(struct faults *f, pid_t tid, struct fault_recover *r)
{
    struct target *t = session_target(f->session);
    char *cause = NULL;

    if (t == NULL) {
        memset(r, 0, sizeof *r);
        return;
    }
    if (fault_recover_read(t, table_address(f), tid, r, &cause) != 0)
        r->problem = cause;
}

/* Whether the error EV with recovery facts R was reported with
 * dapto_error (the runtime's SIGABRT) rather than a signal of its own. */
static int reported(const struct target_event *ev,
                    const struct fault_recover *r)
{
    return ev->signo == SIGABRT && ev->code <= 0 && r->reported;
}

static const char *signal_cause(int signo, int code)
{
    switch (signo) {
    case SIGSEGV:
        return code == SEGV_MAPERR   ? "address not mapped to an object"
               : code == SEGV_ACCERR ? "invalid permissions for the address"
                                     : NULL;
    case SIGFPE:
        switch (code) {
        case FPE_INTDIV:
            return "integer divide by zero";
        case FPE_INTOVF:
            return "integer overflow";
        case FPE_FLTDIV:
            return "floating-point divide by zero";
        case FPE_FLTOVF:
            return "floating-point overflow";
        case FPE_FLTUND:
            return "floating-point underflow";
        case FPE_FLTRES:
            return "floating-point inexact result";
        case FPE_FLTINV:
            return "invalid floating-point operation";
        case FPE_FLTSUB:
            return "subscript out of range";
        }
        return NULL;
    case SIGBUS:
        return code == BUS_ADRALN   ? "invalid address alignment"
               : code == BUS_ADRERR ? "nonexistent physical address"
               : code == BUS_OBJERR ? "object-specific hardware error"
                                    : NULL;
    case SIGILL:
        switch (code) {
        case ILL_ILLOPC:
            return "illegal opcode";
        case ILL_ILLOPN:
            return "illegal operand";
        case ILL_ILLADR:
            return "illegal addressing mode";
        case ILL_ILLTRP:
            return "illegal trap";
        case ILL_PRVOPC:
            return "privileged opcode";
        case ILL_PRVREG:
            return "privileged register";
        case ILL_COPROC:
            return "coprocessor error";
        case ILL_BADSTK:
            return "internal stack error";
        }
        return NULL;
    }
    return NULL;
}

/* Whether the program catches signal SIGNO (a handler is installed), from
 * /proc/PID/status. */
static int catches(pid_t pid, int signo)
{
    char path[64], line[256];
    unsigned long long mask = 0;
    FILE *fp;
    int found = 0;

    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    fp = fopen(path, "re");
    if (fp == NULL)
        return 0;
    while (fgets(line, sizeof line, fp) != NULL) {
        if (sscanf(line, "SigCgt: %llx", &mask) == 1) {
            found = 1;
            break;
        }
    }
    fclose(fp);
    return found && signo >= 1 && signo <= 64 &&
           (mask >> (signo - 1) & 1) != 0;
}

static int cmp_tid(const void *a, const void *b)
{
    pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

    return (x > y) - (x < y);
}

/* The threads of process PID, in increasing order; the caller frees. */
static pid_t *threads(pid_t pid, unsigned int *n)
{
    char path[64];
    struct dirent *e;
    pid_t *list = NULL;
    size_t cap = 0;
    DIR *d;

    *n = 0;
    snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
    d = opendir(path);
    if (d == NULL)
        return NULL;
    while ((e = readdir(d)) != NULL) {
        if (!isdigit((unsigned char)e->d_name[0]))
            continue;
        list = xgrow(list, *n, &cap, sizeof *list);
        list[(*n)++] = (pid_t)atoi(e->d_name);
    }
    closedir(d);
    if (*n > 1)
        qsort(list, *n, sizeof *list, cmp_tid);
    return list;
}

/* Whether frame F is the runtime's or the generated code's (an event
 * stub, an operation), not the program's. */
static int runtime_frame(const struct unwind_frame *fr)
{
    return codenames_runtime(fr->function);
}

/* The first frame to show of TR: after the runtime's frames on top when
 * TRIM says the thread is inside the runtime. */
static unsigned int first_frame(const struct unwind_trace *tr, int trim)
{
    unsigned int i, first = 0;

    if (!trim)
        return 0;
    for (i = 0; i < tr->n && i < FAULT_TRIM_DEPTH; i++)
        if (runtime_frame(&tr->frames[i]))
            first = i + 1;
    return first < tr->n ? first : 0;
}

/* Say the backtrace of thread TID, named through SYM (may be NULL).  A
 * run of frames at the same place (a recursion) is said once. */
static void say_backtrace(struct sink *say, struct symbols *sym, pid_t tid,
                          int trim)
{
    struct unwind_trace tr;
    char *cause = NULL;
    unsigned int i, j, first;

    sink_sayf(say, "Backtrace of thread %d:\n", (int)tid);
    if (unwind_thread(tid, &tr, &cause) != 0) {
        sink_sayf(say, "  (%s)\n", cause);
        free(cause);
        unwind_free(&tr);
        return;
    }
    unwind_name(&tr, sym);
    first = first_frame(&tr, trim);
    for (i = first; i < tr.n; i = j) {
        char *text = unwind_frame_text(&tr.frames[i], i - first);

        sink_sayf(say, "  %s\n", text);
        free(text);
        for (j = i + 1; j < tr.n && unwind_same(&tr.frames[i], &tr.frames[j]);
             j++)
            ;
        if (j - i > 3) {
            sink_sayf(say, "  (%u more frames like #%u)\n", j - i - 1,
                        i - first);
        } else {
            j = i + 1;
        }
    }
    if (tr.truncated)
        sink_sayf(say, "  (more than %u frames: the outermost are not "
                    "shown)\n", UNWIND_MAX);
    unwind_free(&tr);
}

/* Say the component stack of thread TID (from enter/leave). */
static void say_components(struct faults *f, pid_t tid)
{
    struct sink *say = f->say;
    const struct stacks *st = f->stacks_of;
    unsigned int i, n;

    if (st == NULL || active_channel(f) == NULL)
        return;
    if (!stacks_used(st)) {
        sink_say(say, "Component stack: not kept (\"errors stacks on\" "
                   "keeps it).\n");
        return;
    }
    n = stacks_depth(st, tid);
    if (n == 0) {
        sink_sayf(say, "Component stack of thread %d: empty.\n", (int)tid);
        return;
    }
    sink_sayf(say, "Component stack of thread %d (outermost first):",
                (int)tid);
    for (i = 0; i < n; i++) {
        const char *name = stacks_frame(st, tid, i, NULL);

        sink_sayf(say, "%s%s", i == 0 ? " " : " > ",
                    name != NULL ? name : "?");
    }
    sink_say(say, "\n");
}

/* One line for thread TID: its innermost frame in the executable (EXE,
 * may be NULL), else with a source line, else its innermost frame. */
static void say_thread_line(struct sink *say, struct symbols *sym,
                            const char *exe, pid_t tid)
{
    struct unwind_trace tr;
    char *cause = NULL, *text;
    unsigned int i, pick, first;

    if (unwind_thread(tid, &tr, &cause) != 0) {
        sink_sayf(say, "  thread %d: (%s)\n", (int)tid, cause);
        free(cause);
        unwind_free(&tr);
        return;
    }
    unwind_name(&tr, sym);
    pick = first = first_frame(&tr, 1);
    for (i = first; i < tr.n; i++) {
        if (tr.frames[i].file != NULL) {
            pick = i;
            break;
        }
    }
    for (i = first; exe != NULL && i < tr.n; i++) {
        if (tr.frames[i].module != NULL &&
            strcmp(tr.frames[i].module, exe) == 0) {
            pick = i;
            break;
        }
    }
    text = unwind_frame_text(&tr.frames[pick], pick);
    sink_sayf(say, "  thread %d: %s\n", (int)tid, text);
    free(text);
    unwind_free(&tr);
}

/* Say the other threads of the program than TID. */
static void say_others(struct sink *say, struct symbols *sym, pid_t pid,
                       pid_t tid)
{
    unsigned int n, i, others = 0;
    pid_t *list = threads(pid, &n);
    char path[64], exe[4096];
    ssize_t len;

    snprintf(path, sizeof path, "/proc/%d/exe", (int)pid);
    len = readlink(path, exe, sizeof exe - 1);
    exe[len > 0 ? len : 0] = '\0';
    for (i = 0; i < n; i++)
        others += list[i] != tid;
    if (others != 0) {
        sink_sayf(say, "Other threads (%u, stopped):\n", others);
        for (i = 0; i < n; i++)
            if (list[i] != tid)
                say_thread_line(say, sym, len > 0 ? exe : NULL, list[i]);
    }
    free(list);
}

/* Why thread TID's error cannot be converted (R says what the table
 * says); NULL when it can be.  The caller frees. */
static char *why_not(struct faults *f, const struct target_event *ev,
                     const struct fault_recover *r)
{
    if (reported(ev, r))
        return NULL;
    if (r->unsound)
        return xasprintf("%s", r->problem != NULL ? r->problem
                                                 : "the program's recovery "
                                                   "table cannot be read");
    if (active_channel(f) == NULL)
        return xstrdup("the program does not use the dapto runtime, so it "
                       "has no recovery points");
    if (r->depth == 0 || r->point == 0)
        return xasprintf("thread %d is in no recovery point (a DAPTO_TRY "
                         "block; see libdapto(3))", (int)ev->tid);
    if (r->resume == 0)
        return xstrdup("the program's recovery table names no resume "
                       "function");
#if !defined(__x86_64__)
    return xstrdup("converting a signal is not supported on this "
                   "architecture");
#else
    return NULL;
#endif
}

/* Where R's innermost recovery point is, for messages. */
static char *point_text(const struct fault_recover *r)
{
    if (r->file != NULL && r->func != NULL)
        return xasprintf("%s:%d (in %s)", r->file, r->line, r->func);
    return xasprintf("0x%llx", (unsigned long long)r->point);
}

/* Convert the error EV with facts R; says what happened (PREFIX first). */
static int convert(struct faults *f, const struct target_event *ev,
                   const struct fault_recover *r, const char *prefix,
                   char **cause)
{
    struct sink *say = f->say;
    struct target *t = session_target(f->session);
    char *why = why_not(f, ev, r), *where;

    if (why != NULL) {
        xcause(cause, "%s", why);
        free(why);
        return -1;
    }
    if (reported(ev, r)) {
        if (fault_recover_verdict(t, r, cause) != 0)
            return -1;
        if (session_convert(f->session, cause) != 0)
            return -1;
        sink_fresh_line(say);
        sink_sayf(say, "%s: dapto_error() returns DAPTO_CONVERTED to its "
                    "caller in thread %d.\n", prefix, (int)ev->tid);
        return 0;
    }
    if (fault_recover_jump(t, r, ev->tid, ev->signo, ev->addr, cause) != 0)
        return -1;
    if (session_convert(f->session, cause) != 0)
        return -1;
    where = point_text(r);
    sink_fresh_line(say);
    sink_sayf(say, "%s: thread %d resumes in the failure branch of the "
                "recovery point at %s.\n", prefix, (int)ev->tid, where);
    free(where);
    return 0;
}

int fault_convert(struct faults *f, char **cause)
{
    const struct target_event *ev = session_fault(f->session);
    struct target_event copy;
    struct fault_recover r;
    int rc;

    if (ev == NULL) {
        xcause(cause, "the program is not stopped at an error");
        return -1;
    }
    copy = *ev;
    recover_info(f, copy.tid, &r);
    rc = convert(f, &copy, &r, "Converted", cause);
    fault_recover_clear(&r);
    return rc;
}

/* Tell the choices at an error the user decides on. */
static void say_choices(struct faults *f, const struct target_event *ev,
                        const struct fault_recover *r)
{
    struct sink *say = f->say;
    char sig[32], *why = why_not(f, ev, r), *where;

    target_signal_name(ev->signo, sig, sizeof sig);
    sink_say(say, "What now?\n");
    if (reported(ev, r)) {
        sink_say(say, "  convert   dapto_error() returns DAPTO_CONVERTED "
                   "to its caller, which fails\n");
        sink_say(say, "  continue  let the program abort, as it would "
                   "without noosa\n");
    } else {
        if (why != NULL) {
            sink_sayf(say, "  convert   not possible: %s\n", why);
        } else {
            where = point_text(r);
            sink_sayf(say, "  convert   resume in the failure branch of "
                        "the recovery point at %s\n", where);
            free(where);
        }
        if (catches(session_pid(f->session), ev->signo))
            sink_sayf(say, "  continue  pass %s to the program: its "
                        "handler runs\n", sig);
        else
            sink_sayf(say, "  continue  pass %s to the program: it has no "
                        "handler for it and dies\n", sig);
    }
    sink_say(say, "  kill      terminate the program\n");
    free(why);
}

/* Kill the program at an error.  In batch mode that counts as a failed
 * command: noosa's exit status says that the run did not end well. */
static void terminate(struct faults *f, const char *why)
{
    struct sink *say = f->say;

    sink_sayf(say, "Terminating the program%s.\n", why);
    say->failed++;
    session_kill(f->session, NULL);
}

/* Apply the policy to the error EV. */
static void decide(struct faults *f, const struct target_event *ev,
                   const struct fault_recover *r)
{
    char *cause = NULL, prefix[96];

    switch (f->policy) {
    case FAULT_CONVERT:
        if (f->count == 1)
            snprintf(prefix, sizeof prefix, "Converted (errors convert: "
                     "the last one; errors ask from now on)");
        else if (f->count > 1)
            snprintf(prefix, sizeof prefix, "Converted (errors convert: "
                     "%lu more after this one)", f->count - 1);
        else
            snprintf(prefix, sizeof prefix, "Converted (errors convert)");
        if (convert(f, ev, r, prefix, &cause) == 0) {
            if (f->count == 1)
                fault_set_policy(f, FAULT_ASK, 0);
            else if (f->count > 1)
                f->count--;
            return;
        }
        sink_sayf(f->say, "Not converted (errors convert): %s.\n", cause);
        free(cause);
        say_choices(f, ev, r);
        return;
    case FAULT_ASK:
        say_choices(f, ev, r);
        return;
    case FAULT_TERMINATE:
        terminate(f, " (errors terminate)");
        return;
    case FAULT_NONE:
        terminate(f, ": batch mode has no error policy (choose one before "
                     "run: \"errors ask\" stops at errors for the next "
                     "commands, \"errors convert ?N?\" converts them, "
                     "\"errors terminate\" does this silently)");
        return;
    }
}

void fault_channel_broken(struct faults *f)
{
    struct sink *say = f->say;
    char *cause = NULL;

    if (session_state(f->session) == SESSION_IDLE)
        return;
    switch (f->policy) {
    case FAULT_TERMINATE:
        terminate(f, " (errors terminate)");
        return;
    case FAULT_ASK:
        if (session_state(f->session) == SESSION_RUNNING &&
            session_interrupt(f->session, &cause) != 0) {
            sink_sayf(say, "The program goes on unmonitored (it could not "
                        "be stopped: %s).\n", cause);
            free(cause);
            return;
        }
        sink_say(say, "Stopping the program (errors ask): \"continue\" lets "
                   "it go on unmonitored, \"kill\" ends it.\n");
        return;
    case FAULT_NONE:
    case FAULT_CONVERT:
        sink_say(say, "The program goes on unmonitored.\n");
        return;
    }
}

void fault_stopped(struct faults *f, const struct target_event *ev_in)
{
    struct sink *say = f->say;
    struct target_event ev = *ev_in;
    struct fault_recover r;
    struct symbols *sym;
    char sig[32], *cause = NULL;
    const char *why;
    pid_t pid = session_pid(f->session);
    int stopped = stop_all(f, &cause);

    recover_info(f, ev.tid, &r);
    target_signal_name(ev.signo, sig, sizeof sig);
    free(*f->where);
    if (reported(&ev, &r))
        *f->where = xasprintf("error in thread %d", (int)ev.tid);
    else
        *f->where = xasprintf("signal %s in thread %d", sig, (int)ev.tid);

    sink_fresh_line(say);
    if (reported(&ev, &r))
        sink_sayf(say, "Program reported an error in thread %d: %s\n",
                    (int)ev.tid, r.message);
    else if (ev.code > 0)
        sink_sayf(say, "Program received %s (fault address 0x%llx) in "
                    "thread %d.\n", sig, (unsigned long long)ev.addr,
                    (int)ev.tid);
    else
        sink_sayf(say, "Program received %s in thread %d.\n", sig,
                    (int)ev.tid);
    why = ev.code > 0          ? signal_cause(ev.signo, ev.code)
          : reported(&ev, &r)  ? NULL
          : ev.code == SI_TKILL ? "raised by the program (abort or raise)"
          : ev.code == SI_USER  ? "sent with kill(2)"
          : ev.code == SI_QUEUE ? "sent with sigqueue(3)"
                                : NULL;
    if (why != NULL)
        sink_sayf(say, "Cause: %s.\n", why);
    if (stopped < 0) {
        sink_sayf(say, "(%s)\n", cause);
        free(cause);
    }

    sym = symbols_open(pid, &cause);
    if (sym == NULL) {
        sink_sayf(say, "(no function names: %s)\n", cause);
        free(cause);
    }
    say_backtrace(say, sym, ev.tid, reported(&ev, &r));
    say_components(f, ev.tid);
    fault_trail_say(f->trail, ev.tid);
    if (stopped >= 0)
        say_others(say, sym, pid, ev.tid);
    symbols_free(sym);

    decide(f, &ev, &r);
    fault_recover_clear(&r);
}

int fault_backtrace(struct faults *f, pid_t tid, pid_t event_tid,
                    char **cause)
{
    struct sink *say = f->say;
    struct session *s = f->session;
    struct target *t = session_target(s);
    const struct target_event *ev = session_fault(s);
    struct symbols *sym;
    pid_t pid = session_pid(s), *list = NULL;
    unsigned int n = 0, i;
    int interrupted, trim_error = 0;

    if (session_state(s) != SESSION_STOPPED || t == NULL) {
        xcause(cause, session_state(s) == SESSION_RUNNING
                          ? "the program is running (stop it first)"
                          : "the program is not running");
        return -1;
    }
    if (session_why(s) != SESSION_AT_EVENT)
        event_tid = 0;
    if (ev != NULL) {
        struct fault_recover r;

        recover_info(f, ev->tid, &r);
        trim_error = reported(ev, &r);
        fault_recover_clear(&r);
    }
    if (tid == 0)
        tid = ev != NULL ? ev->tid : event_tid != 0 ? event_tid : pid;
    list = threads(pid, &n);
    if (tid > 0) {
        for (i = 0; i < n && list[i] != tid; i++)
            ;
        if (i == n) {
            xcause(cause, "the program has no thread %d", (int)tid);
            free(list);
            return -1;
        }
    }
    interrupted = stop_all(f, cause);
    if (interrupted < 0) {
        free(list);
        return -1;
    }
    sym = symbols_open(pid, NULL);
    sink_fresh_line(say);
    for (i = 0; i < n; i++) {
        if (tid > 0 && list[i] != tid)
            continue;
        say_backtrace(say, sym, list[i],
                      list[i] == event_tid ||
                          (ev != NULL && list[i] == ev->tid && trim_error));
    }
    symbols_free(sym);
    free(list);
    /* at an event, the other threads were running: they go on */
    if (interrupted > 0 && target_continue(t, cause) != 0)
        return -1;
    return 0;
}
