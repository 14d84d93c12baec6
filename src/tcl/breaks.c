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

#include <stdlib.h>
#include <string.h>

#include "breaks.h"
#include "command.h"
#include "dapto.h"
#include "interp.h"
#include "xmalloc.h"

struct bp {
    int id;
    char *event;
    Tcl_Obj *cond; /* NULL: always */
    Tcl_Obj *lambda;
    Tcl_Obj *params;
    int enabled;
    unsigned long hits;
};

struct breaks {
    struct interp *in;
    struct consumer *bp_consumer;
    struct consumer *step_consumer;
    struct bp **list;
    unsigned int n;
    int next_id;
    int stepping;
};

static void bp_free(struct bp *bp)
{
    free(bp->event);
    if (bp->cond != NULL)
        Tcl_DecrRefCount(bp->cond);
    if (bp->lambda != NULL) {
        Tcl_DecrRefCount(bp->lambda);
        Tcl_DecrRefCount(bp->params);
    }
    free(bp);
}

static unsigned char bp_want(void *arg, const struct registry_event *ev)
{
    struct breaks *b = arg;
    unsigned int i;

    for (i = 0; i < b->n; i++) {
        if (b->list[i]->enabled && registry_event_named(ev, b->list[i]->event))
            return DAPTO_STATE_RECORD | DAPTO_STATE_STOP;
    }
    return 0;
}

/* The condition of BP as a lambda over E's parameters. */
static Tcl_Obj *cond_lambda(struct bp *bp, const struct registry_event *e)
{
    Tcl_Obj *params = interp_params(e), *l[3], *body[2];

    Tcl_IncrRefCount(params);
    if (bp->lambda != NULL) {
        if (strcmp(Tcl_GetString(params), Tcl_GetString(bp->params)) == 0) {
            Tcl_DecrRefCount(params);
            return bp->lambda;
        }
        Tcl_DecrRefCount(bp->lambda);
        Tcl_DecrRefCount(bp->params);
    }
    body[0] = Tcl_NewStringObj("expr", -1);
    body[1] = bp->cond;
    l[0] = params;
    l[1] = Tcl_NewListObj(2, body);
    l[2] = Tcl_NewStringObj("::", -1);
    bp->lambda = Tcl_NewListObj(3, l);
    Tcl_IncrRefCount(bp->lambda);
    bp->params = params; /* keeps the reference taken above */
    return bp->lambda;
}

static void bp_deliver(void *arg, struct dispatch_event *de)
{
    struct breaks *b = arg;
    struct interp *in = b->in;
    unsigned int i;

    for (i = 0; i < b->n; i++) {
        struct bp *bp = b->list[i];
        int yes = 1;

        if (!bp->enabled || !registry_event_named(de->event, bp->event))
            continue;
        if (bp->cond != NULL) {
            if (interp_apply(in, cond_lambda(bp, de->event), de->item) !=
                    TCL_OK ||
                Tcl_GetBooleanFromObj(in->tcl, Tcl_GetObjResult(in->tcl),
                                      &yes) != TCL_OK) {
                interp_error(in, "in the condition of breakpoint %d: %s",
                             bp->id, Tcl_GetStringResult(in->tcl));
                yes = 1;
            }
            Tcl_ResetResult(in->tcl);
        }
        if (!yes)
            continue;
        bp->hits++;
        if (!de->stop)
            dispatch_stop(de, xasprintf("breakpoint %d for event \"%s\"",
                                        bp->id, de->event->name));
    }
}

static unsigned char step_want(void *arg, const struct registry_event *ev)
{
    struct breaks *b = arg;

    return b->stepping && ev->visible ? DAPTO_STATE_RECORD | DAPTO_STATE_STOP
                                      : 0;
}

static void step_deliver(void *arg, struct dispatch_event *de)
{
    struct breaks *b = arg;

    if (!b->stepping || !de->event->visible)
        return;
    breaks_cancel_step(b);
    if (!de->stop)
        dispatch_stop(de, xasprintf("event \"%s\"", de->event->name));
}

static const struct consumer_ops bp_ops = {"breakpoints", bp_want,
                                           bp_deliver, NULL};
static const struct consumer_ops step_ops = {"step", step_want, step_deliver,
                                             NULL};

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

void breaks_step(struct breaks *b)
{
    b->stepping = 1;
    dispatch_changed(b->in->dispatch);
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
    info->cond = bp->cond != NULL ? Tcl_GetString(bp->cond) : NULL;
    info->enabled = bp->enabled;
    info->hits = bp->hits;
    return 1;
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

        interp_sayf(in, "%-4d %-4s %5lu  %s%s%s\n", bp->id,
                    bp->enabled ? "y" : "n", bp->hits, bp->event,
                    bp->cond != NULL ? " if " : "",
                    bp->cond != NULL ? Tcl_GetString(bp->cond) : "");
    }
}

/* break EVENT ?if COND...? */
static int cmd_break(ClientData cd, Tcl_Interp *tcl, int objc,
                     Tcl_Obj *const objv[])
{
    struct breaks *b = cd;
    const char *event;
    struct bp *bp;
    Tcl_Obj *cond = NULL;

    if (objc < 2 || objc == 3 ||
        (objc > 3 && strcmp(Tcl_GetString(objv[2]), "if") != 0)) {
        /* the name the user knows, not ::noosa::cmd::break */
        Tcl_WrongNumArgs(tcl, 0, objv, "break EVENT ?if CONDITION?");
        return TCL_ERROR;
    }
    event = Tcl_GetString(objv[1]);
    if (session_registry(b->in->session) != NULL &&
        interp_event(b->in, event) == NULL)
        return TCL_ERROR;
    if (objc == 4) {
        cond = objv[3];
    } else if (objc > 4) {
        cond = Tcl_ConcatObj(objc - 3, objv + 3);
    }
    if (cond != NULL) {
        /* reject a condition that is not an expression now, not at the
         * first hit: parse it (compiling would not do: Tcl compiles a bad
         * expression into code that fails when run) */
        Tcl_Parse parse;
        int len;
        const char *text = Tcl_GetStringFromObj(cond, &len);

        Tcl_IncrRefCount(cond); /* the breakpoint's reference */
        if (Tcl_ParseExpr(tcl, text, len, &parse) != TCL_OK) {
            Tcl_SetObjResult(tcl, Tcl_ObjPrintf("bad condition \"%s\": %s",
                                                text,
                                                Tcl_GetStringResult(tcl)));
            Tcl_DecrRefCount(cond);
            return TCL_ERROR;
        }
        Tcl_FreeParse(&parse);
    }
    bp = xcalloc(1, sizeof *bp);
    bp->id = b->next_id++;
    bp->event = xstrdup(event);
    bp->enabled = 1;
    bp->cond = cond;
    b->list = xreallocarray(b->list, b->n + 1, sizeof *b->list);
    b->list[b->n++] = bp;
    dispatch_changed(b->in->dispatch);
    interp_sayf(b->in, "Breakpoint %d on event %s%s%s\n", bp->id, event,
                cond != NULL ? " if " : "",
                cond != NULL ? Tcl_GetString(cond) : "");
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

static const struct command commands[] = {
    {.name = "break",
     .aliases = (const char *const[]){"b", NULL},
     .max_args = -1,
     .usage = "break EVENT ?if CONDITION?",
     .summary = "stop at an event",
     .help = "Stop at every EVENT (NAME or ASPECT.NAME) for which CONDITION, a Tcl\n"
            "expression over the event's parameters (and n_ename, n_time, n_thread),\n"
            "is true (alias: b).",
     .complete = COMMAND_COMPLETE_EVENT,
     .proc = cmd_break},
    {.name = "delete",
     .max_args = -1,
     .usage = "delete ?N ...?",
     .summary = "delete breakpoints",
     .help = "Delete breakpoints N ... (all of them without arguments).",
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
