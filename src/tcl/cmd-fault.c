/* SPDX-License-Identifier: MIT */
/*
 * fault-cmd.c - the commands of the error facility: errors (the policy
 * and what an error report shows), convert (the error the program is
 * stopped at), bt (backtraces at any stop).
 */
#include "config.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "fault-trail.h"
#include "fault.h"
#include "interp.h"
#include "xmalloc.h"

/* Set the Tcl result to CAUSE (which is freed) and fail. */
static int fail(Tcl_Interp *tcl, char *cause)
{
    Tcl_SetObjResult(tcl, Tcl_NewStringObj(cause, -1));
    free(cause);
    return TCL_ERROR;
}

/* An integer from OBJ, from MIN to MAX; else an error "WHAT: expected
 * EXPECTED, got ...". */
static int get_count(Tcl_Interp *tcl, Tcl_Obj *obj, long min, long max,
                     const char *what, const char *expected, long *out)
{
    Tcl_WideInt v;

    if (Tcl_GetWideIntFromObj(NULL, obj, &v) != TCL_OK || v < min ||
        v > max) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf("%s: expected %s, got \"%s\"",
                                            what, expected,
                                            Tcl_GetString(obj)));
        return TCL_ERROR;
    }
    *out = (long)v;
    return TCL_OK;
}

/* The policy as the words that set it. */
static Tcl_Obj *policy_words(struct faults *f)
{
    unsigned long count;

    switch (fault_policy(f, &count)) {
    case FAULT_NONE:
        return Tcl_NewStringObj("none", -1);
    case FAULT_ASK:
        return Tcl_NewStringObj("ask", -1);
    case FAULT_TERMINATE:
        return Tcl_NewStringObj("terminate", -1);
    case FAULT_CONVERT:
        if (count == 0)
            return Tcl_NewStringObj("convert", -1);
        return Tcl_ObjPrintf("convert %lu", count);
    }
    return Tcl_NewStringObj("?", -1);
}

/* errors ?ask|terminate|convert ?N?|last ?N?|stacks ?on|off?? */
static int cmd_errors(ClientData cd, Tcl_Interp *tcl, int objc,
                      Tcl_Obj *const objv[])
{
    struct faults *f = cd;
    const char *sub;
    long n;

    if (objc == 1) {
        Tcl_SetObjResult(tcl, policy_words(f));
        return TCL_OK;
    }
    sub = Tcl_GetString(objv[1]);
    if (strcmp(sub, "ask") == 0 || strcmp(sub, "terminate") == 0) {
        if (objc != 2) {
            Tcl_WrongNumArgs(tcl, 2, objv, NULL);
            return TCL_ERROR;
        }
        fault_set_policy(f, sub[0] == 'a' ? FAULT_ASK : FAULT_TERMINATE, 0);
        return TCL_OK;
    }
    if (strcmp(sub, "convert") == 0) {
        if (objc > 3) {
            Tcl_WrongNumArgs(tcl, 2, objv, "?N?");
            return TCL_ERROR;
        }
        n = 0;
        if (objc == 3 &&
            get_count(tcl, objv[2], 1, LONG_MAX, "errors convert",
                      "a number of errors (1 or more)", &n) != TCL_OK)
            return TCL_ERROR;
        fault_set_policy(f, FAULT_CONVERT, (unsigned long)n);
        return TCL_OK;
    }
    if (strcmp(sub, "last") == 0) {
        if (objc > 3) {
            Tcl_WrongNumArgs(tcl, 2, objv, "?N?");
            return TCL_ERROR;
        }
        if (objc == 2) {
            Tcl_SetObjResult(tcl,
                             Tcl_NewIntObj((int)fault_trail_get(fault_trail(f))));
            return TCL_OK;
        }
        if (get_count(tcl, objv[2], 0, FAULT_TRAIL_MAX, "errors last",
                      "a number of events from 0 to 1000", &n) != TCL_OK)
            return TCL_ERROR;
        fault_trail_set(fault_trail(f), (unsigned int)n);
        return TCL_OK;
    }
    if (strcmp(sub, "stacks") == 0) {
        int on;

        if (objc > 3) {
            Tcl_WrongNumArgs(tcl, 2, objv, "?on|off?");
            return TCL_ERROR;
        }
        if (objc == 2) {
            Tcl_SetObjResult(tcl, Tcl_NewStringObj(
                fault_stacks(f) ? "on" : "off", -1));
            return TCL_OK;
        }
        if (Tcl_GetBooleanFromObj(NULL, objv[2], &on) != TCL_OK) {
            Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
                "errors stacks: expected on or off, got \"%s\"",
                Tcl_GetString(objv[2])));
            return TCL_ERROR;
        }
        fault_set_stacks(f, on);
        return TCL_OK;
    }
    Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
        "errors: expected ask, terminate, convert ?N?, last ?N? or stacks "
        "?on|off?, got \"%s\"", sub));
    return TCL_ERROR;
}

/* convert */
static int cmd_convert(ClientData cd, Tcl_Interp *tcl, int objc,
                       Tcl_Obj *const objv[])
{
    struct interp *in = cd;
    struct faults *f = in->faults;
    char *cause = NULL;

    if (objc != 1) {
        Tcl_WrongNumArgs(tcl, 1, objv, NULL);
        return TCL_ERROR;
    }
    if (fault_convert(f, &cause) != 0) {
        char *msg = xasprintf("convert: %s", cause);

        free(cause);
        return fail(tcl, msg);
    }
    if (in->batch)
        session_wait(in->session);
    return TCL_OK;
}

/* bt ?THREAD|all? */
static int cmd_bt(ClientData cd, Tcl_Interp *tcl, int objc,
                  Tcl_Obj *const objv[])
{
    struct interp *in = cd;
    struct faults *f = in->faults;
    char *cause = NULL;
    long tid = 0;
    pid_t event_tid = 0;
    const char *v;

    if (objc > 2) {
        Tcl_WrongNumArgs(tcl, 1, objv, "?THREAD|all?");
        return TCL_ERROR;
    }
    if (objc == 2) {
        if (strcmp(Tcl_GetString(objv[1]), "all") == 0)
            tid = -1;
        else if (get_count(tcl, objv[1], 1, INT_MAX, "bt",
                           "a thread id or \"all\"", &tid) != TCL_OK)
            return TCL_ERROR;
    }
    /* the thread of the event the program is stopped at, if any */
    v = Tcl_GetVar2(tcl, "ev", "n_thread", TCL_GLOBAL_ONLY);
    if (v != NULL)
        event_tid = (pid_t)atoi(v);
    if (fault_backtrace(f, (pid_t)tid, event_tid, &cause) != 0) {
        char *msg = xasprintf("bt: %s", cause);

        free(cause);
        return fail(tcl, msg);
    }
    return TCL_OK;
}

void cmd_fault_init(struct interp *in)
{
    Tcl_CreateObjCommand(in->tcl, "::noosa::cmd::errors", cmd_errors,
                         in->faults, NULL);
    Tcl_CreateObjCommand(in->tcl, "::noosa::cmd::convert", cmd_convert, in,
                         NULL);
    Tcl_CreateObjCommand(in->tcl, "::noosa::cmd::bt", cmd_bt, in, NULL);
}
