/* SPDX-License-Identifier: MIT */
/*
 * trace.c - the event trace and the `trace` command:
 *
 *     trace                   whether it is on, and its filter
 *     trace on ?REGEX? ?-if CONDITION? ?-within|-outside COMPONENT?
 *                             show every event (whose name, NAME or
 *                             ASPECT.NAME, matches REGEX, a Tcl regular
 *                             expression; where CONDITION holds; inside
 *                             COMPONENT, or outside it)
 *     trace off
 *
 * `monitor disable trace` and `monitor enable trace` do the same as off
 * and on (keeping the filter).  Values from the program are shown as
 * data: strings quoted and escaped, never scanned for browsable values;
 * values of user types through n_say_val, so that they can be browsed.
 *
 * The condition is a guard (guard.h) on every event the trace shows,
 * compiled for each in turn: where the program can evaluate it, it does.
 * An event that lacks a variable the condition reads (a parameter of
 * other events) is not traced at all, so the program does not even emit
 * it; one the condition reads through a command substitution makes the
 * condition fail in noosa, and the event is not traced either (quietly:
 * the first other error of the condition is reported).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "dapto.h"
#include "command.h"
#include "guard.h"
#include "interp.h"
#include "monitor.h"
#include "trace.h"
#include "value.h"
#include "xmalloc.h"

struct trace {
    struct interp *in;
    struct consumer *c;
    Tcl_Obj *filter; /* NULL: every event */
    struct guard *guard; /* the condition (-if), or NULL */
    int reported;        /* errors of the condition since trace on */
};

/* The tag of the trace's clause: it has one per event. */
#define TRACE_TAG 0

/* Whether the regular expression FILTER (NULL: any) matches EV. */
static int filter_matches(void *filter, const struct registry_event *ev)
{
    Tcl_Obj *name;
    int rc;

    if (filter == NULL)
        return 1;
    name = Tcl_NewStringObj(ev->name, -1);
    Tcl_IncrRefCount(name);
    rc = Tcl_RegExpMatchObj(NULL, name, filter);
    Tcl_DecrRefCount(name);
    if (rc == 0 && ev->aspect != NULL) {
        name = Tcl_ObjPrintf("%s.%s", ev->aspect->name, ev->name);
        Tcl_IncrRefCount(name);
        rc = Tcl_RegExpMatchObj(NULL, name, filter);
        Tcl_DecrRefCount(name);
    }
    return rc == 1;
}

/* Whether the trace's filter matches EV. */
static int matches(struct trace *t, const struct registry_event *ev)
{
    return filter_matches(t->filter, ev);
}

/* Whether the trace shows EV (when its condition holds). */
static int traced(struct trace *t, const struct registry_event *ev)
{
    return matches(t, ev) &&
           (t->guard == NULL || guard_reads_event(t->guard, ev));
}

static unsigned char want(void *arg, const struct registry_event *ev)
{
    return traced(arg, ev) ? DAPTO_STATE_RECORD : 0;
}

/* The condition on EV as a clause, when the program can evaluate it. */
static unsigned int clauses(void *arg, const struct registry_event *ev,
                            unsigned char *uncond, struct dispatch_clause *cl,
                            unsigned int max)
{
    struct trace *t = arg;

    *uncond = 0;
    if (t->guard != NULL && max > 0 &&
        guard_clause(t->guard, t->in, ev, DAPTO_STATE_RECORD, TRACE_TAG, 0,
                     cl))
        return 1;
    *uncond = DAPTO_STATE_RECORD;
    return 0;
}

static void say_plain(struct interp *in, const char *s)
{
    transcript_append_plain(in->transcript, s, strlen(s));
}

/* Whether the error in TCL is reading a variable that does not exist. */
static int lookup_error(Tcl_Interp *tcl)
{
    Tcl_Obj *opts = Tcl_GetReturnOptions(tcl, TCL_ERROR);
    Tcl_Obj *key = Tcl_NewStringObj("-errorcode", -1), *code = NULL;
    int yes;

    Tcl_IncrRefCount(opts);
    Tcl_IncrRefCount(key);
    Tcl_DictObjGet(NULL, opts, key, &code);
    /* Tcl 8.6 says TCL READ VARNAME, later ones TCL LOOKUP VARNAME */
    yes = code != NULL &&
          (strncmp(Tcl_GetString(code), "TCL READ VARNAME", 16) == 0 ||
           strncmp(Tcl_GetString(code), "TCL LOOKUP VARNAME", 18) == 0);
    Tcl_DecrRefCount(key);
    Tcl_DecrRefCount(opts);
    return yes;
}

static void deliver(void *arg, struct dispatch_event *de)
{
    struct trace *t = arg;
    struct interp *in = t->in;
    const struct reader_item *item = de->item;
    const struct registry_event *e = de->event;
    int yes;

    if (t->guard != NULL && (yes = guard_holds(t->guard, in, de)) <= 0) {
        if (yes < 0 && !lookup_error(in->tcl) && !t->reported++)
            interp_error(in, "in the condition of the trace at event "
                         "\"%s\": %s (not traced; further errors of the "
                         "condition are not reported)", e->name,
                         Tcl_GetStringResult(in->tcl));
        Tcl_ResetResult(in->tcl);
        return;
    }
    if (transcript_partial(in->transcript))
        interp_say(in, "\n");
    if (session_multi(in->session))
        /* <design#processes>: whose */
        interp_sayf(in, "[%d] ", (int)session_pid(in->session));
    say_plain(in, e->name);
    /* values as a stop line says them (numbers unquoted), but of the
     * event's record alone: no debug information of a stop */
    for (unsigned int i = 0; i < item->nvalues && i < e->nparams; i++) {
        const struct registry_param *p = &e->params[i];
        const struct decode_value *v = &item->values[i];
        char *text;

        interp_sayf(in, " %s=", p->name);
        if (p->kind == DAPTO_K_USER && v->kind != DAPTO_K_UNKNOWN) {
            if (!interp_say_val(in, p->type, v))
                say_plain(in, "?");
            continue;
        }
        text = value_text(v);
        say_plain(in, text);
        free(text);
    }
    if (item->truncated)
        say_plain(in, " (truncated)");
    interp_say(in, "\n");
}

static const struct consumer_ops trace_ops = {
    .name = "trace",
    .want = want,
    .deliver = deliver,
    .clauses = clauses,
};

/* "trace is on: ..." with where the condition runs at each event. */
static Tcl_Obj *status(struct trace *t)
{
    struct registry *reg = session_registry(t->in->session);
    Tcl_Obj *s;
    unsigned int code;

    if (!dispatch_enabled(t->c))
        return Tcl_NewStringObj("trace is off", -1);
    if (t->filter == NULL)
        s = Tcl_NewStringObj("trace is on: every event", -1);
    else
        s = Tcl_ObjPrintf("trace is on: events matching %s",
                          Tcl_GetString(t->filter));
    if (t->guard == NULL)
        return s;
    if (guard_cond(t->guard) != NULL)
        Tcl_AppendPrintfToObj(s, " if %s", Tcl_GetString(guard_cond(t->guard)));
    Tcl_AppendToObj(s, guard_within_words(t->guard), -1);
    if (reg == NULL) {
        Tcl_AppendToObj(s, "\n  where it runs is known once the program's "
                           "interface is", -1);
        return s;
    }
    for (code = 0; code < registry_event_limit(reg); code++) {
        const struct registry_event *ev = registry_event(reg, code);
        char *where;

        if (ev == NULL || !matches(t, ev))
            continue;
        if (!traced(t, ev)) {
            Tcl_AppendPrintfToObj(s, "\n  %s: not traced (no variable the "
                                  "condition reads)", ev->name);
            continue;
        }
        where = guard_where(t->guard, t->in, t->c, TRACE_TAG, ev);
        Tcl_AppendPrintfToObj(s, "\n  %s: condition runs %s", ev->name,
                              where);
        free(where);
    }
    return s;
}

static int cmd_trace(ClientData cd, Tcl_Interp *tcl, int objc,
                     Tcl_Obj *const objv[])
{
    struct trace *t = cd;
    const char *sub;
    Tcl_Obj *cond = NULL;
    const char *within = NULL;
    int on, outside = 0;

    if (objc == 1) {
        Tcl_SetObjResult(tcl, status(t));
        return TCL_OK;
    }
    sub = Tcl_GetString(objv[1]);
    if (Tcl_GetBooleanFromObj(NULL, objv[1], &on) != TCL_OK) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf("trace: unknown subcommand "
                                            "\"%s\": should be on or off",
                                            sub));
        return TCL_ERROR;
    }
    if (!on) {
        if (objc != 2) {
            Tcl_SetObjResult(tcl, Tcl_NewStringObj(
                "wrong # args: should be \"trace off\"", -1));
            return TCL_ERROR;
        }
        dispatch_enable(t->in->dispatch, t->c, 0);
        /* (its component is no longer tested) */
        guard_free(t->guard);
        t->guard = NULL;
        return TCL_OK;
    }
    /* trace on ?REGEX? ?-if CONDITION? ?-within|-outside COMPONENT? */
    while (objc >= 4) {
        const char *opt = Tcl_GetString(objv[objc - 2]);

        if (strcmp(opt, "-if") == 0 && cond == NULL) {
            cond = objv[objc - 1];
            if (guard_check(tcl, cond) != TCL_OK)
                return TCL_ERROR;
        } else if ((strcmp(opt, "-within") == 0 || strcmp(opt, "-outside") == 0) &&
                   within == NULL) {
            within = Tcl_GetString(objv[objc - 1]);
            outside = opt[1] == 'o';
            if (guard_within_check(tcl, "trace on", opt, within) != TCL_OK)
                return TCL_ERROR;
        } else {
            break;
        }
        objc -= 2;
    }
    /* an option without its value: not a regular expression */
    if (objc == 3 && (strcmp(Tcl_GetString(objv[2]), "-if") == 0 ||
                      strcmp(Tcl_GetString(objv[2]), "-within") == 0 ||
                      strcmp(Tcl_GetString(objv[2]), "-outside") == 0)) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf("trace on: %s needs a value",
                                            Tcl_GetString(objv[2])));
        return TCL_ERROR;
    }
    if (objc > 3) {
        Tcl_SetObjResult(tcl, Tcl_NewStringObj(
            "wrong # args: should be \"trace on ?REGEX? ?-if CONDITION? "
            "?-within|-outside COMPONENT?\"", -1));
        return TCL_ERROR;
    }
    if (objc == 3) {
        Tcl_Obj *empty = Tcl_NewObj();
        int rc;

        /* compile it now, so that a bad expression is reported here */
        Tcl_IncrRefCount(empty);
        rc = Tcl_RegExpMatchObj(tcl, empty, objv[2]);
        Tcl_DecrRefCount(empty);
        if (rc < 0) {
            Tcl_SetObjResult(tcl, Tcl_ObjPrintf("trace: bad regular "
                                                "expression \"%s\": %s",
                                                Tcl_GetString(objv[2]),
                                                Tcl_GetStringResult(tcl)));
            return TCL_ERROR;
        }
    }
    /* a condition no traced event gives the variables of would hide
     * them all */
    if (guard_check_reads(tcl, "trace", cond, interp_interface(t->in),
                          filter_matches, objc == 3 ? objv[2] : NULL, 0) !=
        TCL_OK)
        return TCL_ERROR;
    if (objc == 3) {
        if (t->filter != NULL)
            Tcl_DecrRefCount(t->filter);
        t->filter = Tcl_DuplicateObj(objv[2]);
        Tcl_IncrRefCount(t->filter);
    } else if (t->filter != NULL) {
        Tcl_DecrRefCount(t->filter);
        t->filter = NULL;
    }
    guard_free(t->guard);
    t->guard = cond != NULL || within != NULL ? guard_create(cond, 0, 0, 0) : NULL;
    if (within != NULL)
        guard_within(t->guard, t->in, within, outside, NULL);
    t->reported = 0;
    dispatch_enable(t->in->dispatch, t->c, 1);
    dispatch_changed(t->in->dispatch);
    return TCL_OK;
}

struct trace *trace_create(struct interp *in)
{
    struct trace *t = xcalloc(1, sizeof *t);

    t->in = in;
    t->c = dispatch_add(in->dispatch, &trace_ops, t);
    dispatch_enable(in->dispatch, t->c, 0);
    monitors_builtin(in->monitors, t->c,
                     "shows the events that match its filter (trace)");
    return t;
}

void trace_free(struct trace *t)
{
    if (t == NULL)
        return;
    if (t->filter != NULL)
        Tcl_DecrRefCount(t->filter);
    guard_free(t->guard);
    free(t);
}

static const struct command commands[] = {
    {.name = "trace",
     .max_args = -1,
     .usage = "trace ?on ?REGEX? ?-if CONDITION? ?-within|-outside COMPONENT?|off?",
     .summary = "show every event as it happens",
     .help = "Show every event (or those whose name, NAME or ASPECT.NAME, matches the\n"
            "Tcl regular expression REGEX) in the transcript with its parameters:\n"
            "  EVENT param=VALUE ... (values as in a stop line)\n"
            "Events that do not match are not emitted by the program for the trace.\n"
            "With -if, only the events where CONDITION, a Tcl expression over the\n"
            "event's parameters (and n_ename, n_time, n_thread, n_pid) as for break,\n"
            "holds: evaluated in the program where its shape allows, else in noosa;\n"
            "an event without a parameter the condition reads is not traced.  With\n"
            "-within COMPONENT, only the events of a thread inside COMPONENT (on its\n"
            "component stack); -outside, only those of a thread not inside it.  `trace`\n"
            "says where the condition runs for each event.  In a run of several\n"
            "processes, each line begins with its process: [PID] EVENT ...\n"
            "Typed at the prompt (or as a command of a script) `trace` is noosa's; Tcl's\n"
            "own trace command keeps its meaning inside procedures (noosa's is\n"
            "::noosa::cmd::trace there).",
     .complete = COMMAND_COMPLETE_SUBCOMMAND,
     .subcommands = (const char *const[]){"on @events -if", "off", NULL},
     .flags = COMMAND_CONDITION,
     .proc = cmd_trace},
    {0}};

void trace_init_commands(struct trace *t)
{
    command_register(t->in, commands, t);
}
