/* SPDX-License-Identifier: MIT */
/*
 * trace.c - the event trace and the `trace` command:
 *
 *     trace                   whether it is on, and its filter
 *     trace on ?REGEX?        show every event (whose name, NAME or
 *                             ASPECT.NAME, matches REGEX, a Tcl regular
 *                             expression)
 *     trace off
 *
 * `monitor disable trace` and `monitor enable trace` do the same as off
 * and on (keeping the filter).  Values from the program are shown as
 * data: strings quoted and escaped, never scanned for browsable values;
 * values of user types through n_say_val, so that they can be browsed.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "dapto.h"
#include "command.h"
#include "interp.h"
#include "monitor.h"
#include "trace.h"
#include "value.h"
#include "xmalloc.h"

struct trace {
    struct interp *in;
    struct consumer *c;
    Tcl_Obj *filter; /* NULL: every event */
};

/* Whether the filter matches EV. */
static int matches(struct trace *t, const struct registry_event *ev)
{
    Tcl_Obj *name;
    int rc;

    if (t->filter == NULL)
        return 1;
    name = Tcl_NewStringObj(ev->name, -1);
    Tcl_IncrRefCount(name);
    rc = Tcl_RegExpMatchObj(NULL, name, t->filter);
    Tcl_DecrRefCount(name);
    if (rc == 0 && ev->aspect != NULL) {
        name = Tcl_ObjPrintf("%s.%s", ev->aspect->name, ev->name);
        Tcl_IncrRefCount(name);
        rc = Tcl_RegExpMatchObj(NULL, name, t->filter);
        Tcl_DecrRefCount(name);
    }
    return rc == 1;
}

static unsigned char want(void *arg, const struct registry_event *ev)
{
    return matches(arg, ev) ? DAPTO_STATE_RECORD : 0;
}

static void say_plain(struct interp *in, const char *s)
{
    transcript_append_plain(in->transcript, s, strlen(s));
}

static void deliver(void *arg, struct dispatch_event *de)
{
    struct trace *t = arg;
    struct interp *in = t->in;
    const struct reader_item *item = de->item;
    const struct registry_event *e = de->event;
    unsigned int i;

    if (transcript_partial(in->transcript))
        interp_say(in, "\n");
    say_plain(in, e->name);
    for (i = 0; i < item->nvalues && i < e->nparams; i++) {
        const struct registry_param *p = &e->params[i];
        const struct decode_value *v = &item->values[i];
        char *text;

        interp_sayf(in, " %s=", p->name);
        if (p->kind == DAPTO_K_USER && v->kind != DAPTO_K_UNKNOWN) {
            Tcl_Obj *cmd[3];
            int k;

            cmd[0] = Tcl_NewStringObj("n_say_val", -1);
            cmd[1] = Tcl_NewStringObj(p->type, -1);
            cmd[2] = interp_value(v);
            for (k = 0; k < 3; k++)
                Tcl_IncrRefCount(cmd[k]);
            interp_say(in, "\"");
            if (Tcl_EvalObjv(in->tcl, 3, cmd, TCL_EVAL_GLOBAL) != TCL_OK)
                interp_say(in, "?");
            interp_say(in, "\"");
            for (k = 0; k < 3; k++)
                Tcl_DecrRefCount(cmd[k]);
            Tcl_ResetResult(in->tcl);
            continue;
        }
        text = value_text(v);
        if (v->kind == DAPTO_K_STR) {
            say_plain(in, text);
        } else {
            say_plain(in, "\"");
            say_plain(in, text);
            say_plain(in, "\"");
        }
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
};

static int cmd_trace(ClientData cd, Tcl_Interp *tcl, int objc,
                     Tcl_Obj *const objv[])
{
    struct trace *t = cd;
    const char *sub;
    int on;

    if (objc == 1) {
        if (!dispatch_enabled(t->c))
            Tcl_SetObjResult(tcl, Tcl_NewStringObj("trace is off", -1));
        else if (t->filter == NULL)
            Tcl_SetObjResult(tcl, Tcl_NewStringObj("trace is on: every event",
                                                   -1));
        else
            Tcl_SetObjResult(tcl, Tcl_ObjPrintf("trace is on: events "
                                                "matching %s",
                                                Tcl_GetString(t->filter)));
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
        return TCL_OK;
    }
    if (objc > 3) {
        Tcl_SetObjResult(tcl, Tcl_NewStringObj(
            "wrong # args: should be \"trace on ?REGEX?\"", -1));
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
        if (t->filter != NULL)
            Tcl_DecrRefCount(t->filter);
        t->filter = Tcl_DuplicateObj(objv[2]);
        Tcl_IncrRefCount(t->filter);
    } else if (t->filter != NULL) {
        Tcl_DecrRefCount(t->filter);
        t->filter = NULL;
    }
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
    free(t);
}

static const struct command commands[] = {
    {.name = "trace",
     .max_args = -1,
     .usage = "trace ?on ?REGEX?|off?",
     .summary = "show every event as it happens",
     .help = "Show every event (or those whose name, NAME or ASPECT.NAME, matches the\n"
            "Tcl regular expression REGEX) in the transcript with its parameters:\n"
            "  EVENT param=\"value\" ...\n"
            "Events that do not match are not emitted by the program for the trace.\n"
            "Typed at the prompt (or as a command of a script) `trace` is noosa's; Tcl's\n"
            "own trace command keeps its meaning inside procedures (noosa's is\n"
            "::noosa::cmd::trace there).",
     .complete = COMMAND_COMPLETE_NONE,
     .proc = cmd_trace},
    {0}};

void trace_init_commands(struct trace *t)
{
    command_register(t->in, commands, t);
}
