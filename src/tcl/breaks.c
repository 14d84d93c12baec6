/* SPDX-License-Identifier: MIT */
/*
 * breaks.c - breakpoints on events and stepping.  See breaks.h.
 *
 * A condition is a Tcl expression evaluated, like a handler, as an apply
 * lambda whose parameters are the event's parameters, so it sees them as
 * variables.  An error in a condition stops the program and says why, as
 * gdb does: a breakpoint that cannot be evaluated should not be skipped
 * silently.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "breaks.h"
#include "checkpoint.h"
#include "command.h"
#include "dapto.h"
#include "guard.h"
#include "interp.h"
#include "noosa.h"
#include "xmalloc.h"

struct bp {
    int id;
    char *event;
    struct guard *guard; /* its condition and hit counting */
    int enabled;
    unsigned long hits;
    unsigned long ignore; /* continue N: stops not made before the next */
    pid_t pid;           /* -pid: only in this process; 0: in all */
};


struct breaks {
    struct interp *in;
    struct consumer *bp_consumer;
    struct consumer *step_consumer;
    struct bp **list;
    unsigned int n;
    int next_id;
    unsigned long stepping; /* steps to go (step N) */
};

/* Whether breakpoint BP applies to the session's current process (the
 * one whose table the dispatcher makes, or whose event it delivers). */
static int bp_here(const struct breaks *b, const struct bp *bp)
{
    return bp->pid == 0 || bp->pid == session_pid(b->in->session);
}

static void bp_free(struct bp *bp)
{
    free(bp->event);
    guard_free(bp->guard);
    free(bp);
}

static unsigned char bp_want(void *arg, const struct registry_event *ev)
{
    struct breaks *b = arg;
    unsigned int i;

    for (i = 0; i < b->n; i++) {
        if (b->list[i]->enabled && bp_here(b, b->list[i]) &&
            registry_event_named(ev, b->list[i]->event))
            return DAPTO_STATE_RECORD | DAPTO_STATE_STOP;
    }
    return 0;
}

/* The breakpoints' conditions on EV, for the program <protocol#filter>:
 * those it can evaluate as clauses (tagged with the breakpoint's number),
 * the others (and breakpoints without a condition) unconditional. */
static unsigned int bp_clauses(void *arg, const struct registry_event *ev,
                               unsigned char *uncond,
                               struct dispatch_clause *cl, unsigned int max)
{
    struct breaks *b = arg;
    unsigned int i, k = 0;

    *uncond = 0;
    for (i = 0; i < b->n; i++) {
        struct bp *bp = b->list[i];

        if (!bp->enabled || !bp_here(b, bp) ||
            !registry_event_named(ev, bp->event))
            continue;
        if (k == max)
            guard_unlisted(bp->guard, ev); /* noosa evaluates it */
        if (guard_always(bp->guard) || k == max ||
            !guard_clause(bp->guard, b->in, ev,
                          DAPTO_STATE_RECORD | DAPTO_STATE_STOP,
                          (unsigned int)bp->id, k, &cl[k])) {
            *uncond |= DAPTO_STATE_RECORD | DAPTO_STATE_STOP;
            continue;
        }
        k++;
    }
    return k;
}

static void bp_deliver(void *arg, struct dispatch_event *de)
{
    struct breaks *b = arg;
    struct interp *in = b->in;
    unsigned int i;

    for (i = 0; i < b->n; i++) {
        struct bp *bp = b->list[i];
        int yes;

        if (!bp->enabled || !bp_here(b, bp) ||
            !registry_event_named(de->event, bp->event))
            continue;
        yes = guard_holds(bp->guard, in, de);
        if (yes < 0) {
            /* as gdb does: a condition that cannot be evaluated stops */
            interp_error(in, "in the condition of breakpoint %d: %s",
                         bp->id, Tcl_GetStringResult(in->tcl));
            Tcl_ResetResult(in->tcl);
            yes = 1;
        }
        if (!yes)
            continue;
        bp->hits++;
        if (bp->ignore > 0) {
            bp->ignore--;
            continue;
        }
        if (!de->stop)
            dispatch_stop(de, xasprintf("breakpoint %d for event \"%s\"",
                                        bp->id, de->event->name));
    }
}

/* Whether step stops at EV: a visible event of the program's own
 * interface, not the runtime's (init, finit), so that step with nothing
 * run stops at the program's first event. */
static int steps_to(const struct registry_event *ev)
{
    return ev->visible &&
           !(ev->aspect != NULL && ev->aspect->event_base == 0 &&
             strcmp(ev->aspect->name, "dapto") == 0);
}

/* <design#checkpoints> What the breakpoints keep from the events they
 * were told of: each one's hits, stops still to skip, and its guard's
 * hits, by number. */
struct saved_bp {
    int id;
    unsigned long hits, ignore;
    uint64_t ghits;
};

struct saved_bps {
    unsigned int n;
    struct saved_bp bp[];
};

static void *bp_save(void *arg, size_t *bytes)
{
    struct breaks *b = arg;
    struct saved_bps *s;

    *bytes = sizeof *s + b->n * sizeof s->bp[0];
    s = xmalloc(*bytes);
    s->n = b->n;
    for (unsigned int i = 0; i < b->n; i++) {
        s->bp[i].id = b->list[i]->id;
        s->bp[i].hits = b->list[i]->hits;
        s->bp[i].ignore = b->list[i]->ignore;
        s->bp[i].ghits = guard_hits(b->list[i]->guard);
    }
    return s;
}

static void bp_restore(void *arg, const void *saved)
{
    struct breaks *b = arg;
    const struct saved_bps *s = saved;

    for (unsigned int i = 0; i < b->n; i++) {
        struct bp *bp = b->list[i];
        const struct saved_bp *v = NULL;

        for (unsigned int j = 0; s != NULL && j < s->n; j++)
            if (s->bp[j].id == bp->id)
                v = &s->bp[j];
        /* (a breakpoint made since: as it was made) */
        bp->hits = v != NULL ? v->hits : 0;
        bp->ignore = v != NULL ? v->ignore : 0;
        guard_set_hits(bp->guard, v != NULL ? v->ghits : 0);
    }
}

static void bp_release(void *arg, void *saved)
{
    (void)arg;
    free(saved);
}

static const struct ckpt_ops bp_state = {
    .save = bp_save,
    .restore = bp_restore,
    .release = bp_release,
};

static unsigned char step_want(void *arg, const struct registry_event *ev)
{
    struct breaks *b = arg;

    return b->stepping && steps_to(ev) ? DAPTO_STATE_RECORD | DAPTO_STATE_STOP
                                       : 0;
}

static void step_deliver(void *arg, struct dispatch_event *de)
{
    struct breaks *b = arg;

    if (!b->stepping || !steps_to(de->event))
        return;
    /* step N: on to the Nth, unless something stops here first */
    if (--b->stepping > 0 && !de->stop)
        return;
    breaks_cancel_step(b);
    if (!de->stop)
        dispatch_stop(de, xasprintf("event \"%s\"", de->event->name));
}

static const struct consumer_ops bp_ops = {.name = "breakpoints",
                                           .want = bp_want,
                                           .deliver = bp_deliver,
                                           .clauses = bp_clauses,
                                           .state = &bp_state};
static const struct consumer_ops step_ops = {.name = "step",
                                             .want = step_want,
                                             .deliver = step_deliver};

struct breaks *breaks_create(struct interp *in)
{
    struct breaks *b = xcalloc(1, sizeof *b);

    b->in = in;
    b->next_id = 1;
    b->bp_consumer = dispatch_add(in->dispatch, &bp_ops, b);
    b->step_consumer = dispatch_add(in->dispatch, &step_ops, b);
    return b;
}

void breaks_free(struct breaks *b)
{
    unsigned int i;

    if (b == NULL)
        return;
    for (i = 0; i < b->n; i++)
        bp_free(b->list[i]);
    free(b->list);
    free(b);
}

void breaks_step(struct breaks *b, unsigned long n)
{
    b->stepping = n > 0 ? n : 1;
    dispatch_changed(b->in->dispatch);
}

int breaks_ignore(struct breaks *b, unsigned long n)
{
    const char *where = b->in->noosa->where;
    int id;

    if (where == NULL || sscanf(where, "breakpoint %d for event", &id) != 1)
        return 0;
    for (unsigned int i = 0; i < b->n; i++) {
        if (b->list[i]->id == id) {
            b->list[i]->ignore = n;
            return id;
        }
    }
    return 0;
}

void breaks_cancel_step(struct breaks *b)
{
    if (!b->stepping)
        return;
    b->stepping = 0;
    dispatch_changed(b->in->dispatch);
}

unsigned int breaks_count(const struct breaks *b)
{
    return b->n;
}

int breaks_get(const struct breaks *b, unsigned int i,
               struct breaks_info *info)
{
    const struct bp *bp;

    if (i >= b->n)
        return 0;
    bp = b->list[i];
    info->id = bp->id;
    info->event = bp->event;
    info->cond = guard_cond(bp->guard) != NULL
                     ? Tcl_GetString(guard_cond(bp->guard))
                     : NULL;
    info->counting = guard_counting(bp->guard);
    info->enabled = bp->enabled;
    info->hits = bp->hits;
    info->pid = bp->pid;
    return 1;
}

char *breaks_where(struct breaks *b, unsigned int i)
{
    struct registry *reg = session_registry(b->in->session);
    const struct registry_event *ev;
    struct bp *bp;

    if (i >= b->n)
        return NULL;
    bp = b->list[i];
    if (guard_always(bp->guard))
        return NULL;
    if (reg == NULL || (ev = registry_event_by_name(reg, bp->event)) == NULL)
        return xstrdup("where it runs is known once the program's "
                       "interface is");
    return guard_where(bp->guard, b->in, b->bp_consumer,
                       (unsigned int)bp->id, ev);
}

void breaks_list(struct breaks *b)
{
    struct interp *in = b->in;
    unsigned int i;

    if (b->n == 0) {
        interp_say(in, "No breakpoints.\n");
        return;
    }
    interp_say(in, "Num  Enb  Hits  Event and condition\n");
    for (i = 0; i < b->n; i++) {
        struct bp *bp = b->list[i];
        Tcl_Obj *cond = guard_cond(bp->guard);
        const char *counting = guard_counting(bp->guard);
        char *where = breaks_where(b, i);

        interp_sayf(in, "%-4d %-4s %5lu  %s%s%s%s%s%s", bp->id,
                    bp->enabled ? "y" : "n", bp->hits, bp->event,
                    cond != NULL ? " if " : "",
                    cond != NULL ? Tcl_GetString(cond) : "",
                    *counting != '\0' ? " " : "", counting,
                    guard_within_words(bp->guard));
        if (bp->pid != 0)
            interp_sayf(in, " -pid %d", (int)bp->pid);
        interp_say(in, "\n");
        if (where != NULL)
            interp_sayf(in, "                condition runs %s\n", where);
        free(where);
    }
}

/* Hit counting, the process and the component at the end of the words
 * of break: EVERY N, AFTER N, COUNT N, -pid PID, -within C or -outside C,
 * in any order; *N is the number of words left before them.  -1 with a
 * message in TCL on a bad count or process, or two components. */
static int counting_words(struct breaks *b, Tcl_Interp *tcl, int *n,
                          Tcl_Obj *const words[], uint32_t *every,
                          uint32_t *after, uint32_t *count, pid_t *pid,
                          const char **within, int *outside)
{
    while (*n >= 2) {
        const char *key = Tcl_GetString(words[*n - 2]);
        uint32_t *slot = strcmp(key, "every") == 0   ? every
                         : strcmp(key, "after") == 0 ? after
                         : strcmp(key, "count") == 0 ? count
                                                     : NULL;
        Tcl_WideInt v;

        if (strcmp(key, "-within") == 0 || strcmp(key, "-outside") == 0) {
            if (*within != NULL) {
                Tcl_SetObjResult(tcl, Tcl_NewStringObj(
                    "break: one -within or -outside at most", -1));
                return -1;
            }
            *within = Tcl_GetString(words[*n - 1]);
            *outside = key[1] == 'o';
            if (guard_within_check(tcl, "break", key, *within) != TCL_OK)
                return -1;
            *n -= 2;
            continue;
        }
        if (strcmp(key, "-pid") == 0) {
            if (interp_pid(b->in, "break", words[*n - 1], pid) != TCL_OK)
                return -1;
            *n -= 2;
            continue;
        }
        if (slot == NULL)
            break;
        if (Tcl_GetWideIntFromObj(NULL, words[*n - 1], &v) != TCL_OK ||
            v < (strcmp(key, "every") == 0 ? 1 : 0) || v > 0xffffffffLL) {
            Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
                "break: %s wants a number from %d to 4294967295, got \"%s\"",
                key, strcmp(key, "every") == 0 ? 1 : 0,
                Tcl_GetString(words[*n - 1])));
            return -1;
        }
        *slot = (uint32_t)v;
        *n -= 2;
    }
    return 0;
}

/* Whether EV is the event named ARG (NAME or ASPECT.NAME). */
static int named(void *arg, const struct registry_event *ev)
{
    return registry_event_named(ev, arg);
}

/* break EVENT ?if COND...? ?every N? ?after N? ?count N? */
static int cmd_break(ClientData cd, Tcl_Interp *tcl, int objc,
                     Tcl_Obj *const objv[])
{
    struct breaks *b = cd;
    const char *event;
    struct bp *bp;
    Tcl_Obj *cond = NULL;
    uint32_t every = 0, after = 0, count = 0;
    const char *counting;
    Tcl_Obj *words[objc > 0 ? objc : 1];
    pid_t pid = 0;
    int n = objc, outside = 0;
    const char *within = NULL;

    /* -pid PID right after the event too */
    memcpy(words, objv, (size_t)objc * sizeof *objv);
    if (objc >= 4 && strcmp(Tcl_GetString(objv[2]), "-pid") == 0) {
        if (interp_pid(b->in, "break", objv[3], &pid) != TCL_OK)
            return TCL_ERROR;
        memmove(&words[2], &words[4], (size_t)(objc - 4) * sizeof *words);
        n -= 2;
    }
    objv = words;
    objc = n;
    if (objc >= 2 && counting_words(b, tcl, &n, objv, &every, &after,
                                    &count, &pid, &within, &outside) != 0)
        return TCL_ERROR;
    if (n < 2 || n == 3 ||
        (n > 3 && strcmp(Tcl_GetString(objv[2]), "if") != 0)) {
        /* the name the user knows, not ::noosa::cmd::break */
        Tcl_WrongNumArgs(tcl, 0, objv,
                         "break EVENT ?if CONDITION? ?every N? ?after N? "
                         "?count N? ?-pid PID? ?-within|-outside COMPONENT?");
        return TCL_ERROR;
    }
    event = Tcl_GetString(objv[1]);
    if (interp_interface(b->in) != NULL && interp_event(b->in, event) == NULL)
        return TCL_ERROR;
    if (n == 4) {
        cond = objv[3];
    } else if (n > 4) {
        cond = Tcl_ConcatObj(n - 3, objv + 3);
    }
    if (cond != NULL) {
        /* reject a condition that is not an expression, or that reads a
         * variable the event does not give, now, not at the first hit */
        Tcl_IncrRefCount(cond);
        if (guard_check(tcl, cond) != TCL_OK ||
            guard_check_reads(tcl, "break", cond, interp_interface(b->in),
                              named,
                              (void *)event, 1) != TCL_OK) {
            Tcl_DecrRefCount(cond);
            return TCL_ERROR;
        }
    }
    bp = xcalloc(1, sizeof *bp);
    bp->id = b->next_id++;
    bp->event = xstrdup(event);
    bp->enabled = 1;
    bp->pid = pid;
    bp->guard = guard_create(cond, every, after, count);
    if (within != NULL)
        guard_within(bp->guard, b->in, within, outside,
                     session_registry(b->in->session) != NULL
                         ? interp_event(b->in, event) : NULL);
    if (cond != NULL)
        Tcl_DecrRefCount(cond); /* the guard has its own reference */
    b->list = xreallocarray(b->list, b->n + 1, sizeof *b->list);
    b->list[b->n++] = bp;
    dispatch_changed(b->in->dispatch);
    counting = guard_counting(bp->guard);
    interp_sayf(b->in, "Breakpoint %d on event %s%s%s%s%s%s", bp->id, event,
                cond != NULL ? " if " : "",
                cond != NULL ? Tcl_GetString(cond) : "",
                *counting != '\0' ? " " : "", counting,
                guard_within_words(bp->guard));
    if (pid != 0)
        interp_sayf(b->in, " in process %d", (int)pid);
    if (interp_interface(b->in) == NULL)
        interp_say(b->in, " (pending: the program's interface is not known "
                          "yet)");
    interp_say(b->in, "\n");
    return TCL_OK;
}

/* The breakpoints named by OBJV (all when none) for command WHAT; -1 on a
 * bad number. */
static int select_bps(struct breaks *b, Tcl_Interp *tcl, const char *what,
                      int objc, Tcl_Obj *const objv[], int *chosen)
{
    int i;
    unsigned int j;

    for (j = 0; j < b->n; j++)
        chosen[j] = objc == 1;
    for (i = 1; i < objc; i++) {
        int id, found = 0;

        if (Tcl_GetIntFromObj(NULL, objv[i], &id) != TCL_OK) {
            Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
                "%s: expected a breakpoint number, got \"%s\"", what,
                Tcl_GetString(objv[i])));
            return -1;
        }
        for (j = 0; j < b->n; j++) {
            if (b->list[j]->id == id) {
                chosen[j] = 1;
                found = 1;
            }
        }
        if (!found) {
            Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
                "%s: no breakpoint %d (see \"info breakpoints\")", what,
                id));
            return -1;
        }
    }
    return 0;
}

/* delete|enable|disable ?N ...? */
static int cmd_bp_change(ClientData cd, Tcl_Interp *tcl, int objc,
                         Tcl_Obj *const objv[])
{
    struct breaks *b = cd;
    const char *what = Tcl_GetString(objv[0]), *colon = strrchr(what, ':');
    int *chosen = xcalloc(b->n + 1, sizeof *chosen);
    unsigned int i, j = 0;

    if (colon != NULL)
        what = colon + 1;
    if (objc == 1 && b->n > 0 && strcmp(what, "delete") == 0) {
        /* every breakpoint: typed at the screen's prompt, asked first,
         * as gdb does */
        char *q = b->n == 1 ? xstrdup("Delete the breakpoint?")
                            : xasprintf("Delete all %u breakpoints?", b->n);
        int asked = interp_confirm(b->in, q, "::noosa::cmd::delete");

        free(q);
        if (asked) {
            free(chosen);
            return TCL_OK;
        }
    }
    if (select_bps(b, tcl, what, objc, objv, chosen) != 0) {
        free(chosen);
        return TCL_ERROR;
    }
    for (i = 0; i < b->n; i++) {
        if (!chosen[i]) {
            b->list[j++] = b->list[i];
            continue;
        }
        if (strcmp(what, "delete") == 0) {
            bp_free(b->list[i]);
            continue;
        }
        b->list[i]->enabled = strcmp(what, "enable") == 0;
        b->list[j++] = b->list[i];
    }
    b->n = j;
    free(chosen);
    dispatch_changed(b->in->dispatch);
    return TCL_OK;
}

/* conditions ?program|noosa? */
static int cmd_conditions(ClientData cd, Tcl_Interp *tcl, int objc,
                          Tcl_Obj *const objv[])
{
    struct breaks *b = cd;
    static const char *const where[] = {"program", "noosa", NULL};
    int i;

    if (objc == 2) {
        if (Tcl_GetIndexFromObj(tcl, objv[1], where, "place", 0, &i) !=
            TCL_OK)
            return TCL_ERROR;
        if (b->in->conditions_in_noosa != i) {
            b->in->conditions_in_noosa = i;
            dispatch_changed(b->in->dispatch);
        }
    }
    Tcl_SetObjResult(tcl, Tcl_NewStringObj(
                              where[b->in->conditions_in_noosa], -1));
    return TCL_OK;
}

static const struct command commands[] = {
    {.name = "break",
     .aliases = (const char *const[]){"b", NULL},
     .max_args = -1,
     .usage = "break EVENT ?if CONDITION? ?every N? ?after N? ?count N? "
              "?-pid PID? ?-within|-outside COMPONENT?",
     .summary = "stop at an event",
     .help = "Stop at every EVENT (NAME or ASPECT.NAME) for which CONDITION, a Tcl\n"
            "expression over the event's parameters (and n_ename, n_time,\n"
            "n_thread, n_pid), is true (alias: b).  every N: stop at every Nth\n"
            "time it holds; after N: not the first N times; count N: at most N\n"
            "times; -pid PID: only in process PID (else in every process);\n"
            "-within C: only while the thread is inside component C (a named\n"
            "component or a function of a -finstrument-functions build: C on\n"
            "its component stack); -outside C: only while it is not.\n"
            "Comparisons of parameters with constants or each other, && || !,\n"
            "eq, ne and string match on strings, and n_thread are evaluated in\n"
            "the program itself, without a stop; anything else in noosa.\n"
            "\"info breakpoints\" says where each condition runs.",
     .complete = COMMAND_COMPLETE_EVENT,
     .flags = COMMAND_CONDITION,
     .proc = cmd_break},
    {.name = "conditions",
     .min_args = 0,
     .max_args = 1,
     .usage = "conditions ?program|noosa?",
     .summary = "where conditions are evaluated",
     .help = "Where the conditions of breakpoints, handlers, the trace and monitors\n"
            "are evaluated: in the program itself where their shape allows\n"
            "(program, the default), or always in noosa (noosa), as a Tcl\n"
            "expression at a stop of the program.  Both mean the same; the\n"
            "program is much faster.",
     .proc = cmd_conditions},
    {.name = "delete",
     .max_args = -1,
     .usage = "delete ?N ...?",
     .summary = "delete breakpoints",
     .help = "Delete breakpoints N ... (all of them without arguments; typed in the\n"
            "screen, that asks first).",
     .complete = COMMAND_COMPLETE_BREAKPOINT,
     .proc = cmd_bp_change},
    {.name = "enable",
     .max_args = -1,
     .usage = "enable ?N ...?",
     .summary = "enable breakpoints",
     .help = "Enable breakpoints N ... (all without arguments).",
     .complete = COMMAND_COMPLETE_BREAKPOINT,
     .proc = cmd_bp_change},
    {.name = "disable",
     .max_args = -1,
     .usage = "disable ?N ...?",
     .summary = "disable breakpoints",
     .help = "Disable breakpoints N ... (all without arguments).",
     .complete = COMMAND_COMPLETE_BREAKPOINT,
     .proc = cmd_bp_change},
    {0}};

void breaks_init_commands(struct breaks *b)
{
    command_register(b->in, commands, b);
}
