/* SPDX-License-Identifier: MIT */
/*
 * fault-cmd.c - the commands of the error facility: errors (the policy
 * and what an error report shows), convert (the error the program is
 * stopped at).  bt is in cmd-frame.c.
 */
#include "config.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "fault-trail.h"
#include "command.h"
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
    if (strcmp(sub, "stacks") == 0 || strcmp(sub, "functions") == 0) {
        int stacks = sub[0] == 's', on;

        if (objc > 3) {
            Tcl_WrongNumArgs(tcl, 2, objv, "?on|off?");
            return TCL_ERROR;
        }
        if (objc == 2) {
            on = stacks ? fault_stacks(f) : fault_trail_functions(fault_trail(f));
            Tcl_SetObjResult(tcl, Tcl_NewStringObj(on ? "on" : "off", -1));
            return TCL_OK;
        }
        if (Tcl_GetBooleanFromObj(NULL, objv[2], &on) != TCL_OK) {
            Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
                "errors %s: expected on or off, got \"%s\"", sub,
                Tcl_GetString(objv[2])));
            return TCL_ERROR;
        }
        if (stacks)
            fault_set_stacks(f, on);
        else
            fault_trail_set_functions(fault_trail(f), on);
        return TCL_OK;
    }
    Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
        "errors: expected ask, terminate, convert ?N?, last ?N?, stacks "
        "?on|off? or functions ?on|off?, got \"%s\"", sub));
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

/* errors gets the run-time errors, the others the interpreter */
static const struct command errors_commands[] = {
    {.name = "errors",
     .max_args = -1,
     .usage = "errors ?ask|terminate|convert ?N?|last ?N?|stacks ?on|off?|functions ?on|off??",
     .summary = "what to do at a run-time error",
     .help = "When the program hits SIGSEGV, SIGBUS, SIGFPE, SIGILL or SIGABRT, or reports\n"
            "an error with dapto_error(), it stops before the error takes effect, and\n"
            "noosa shows the error, the backtrace of the faulting thread, its component\n"
            "stack, the last events before it and the other threads.  What happens next\n"
            "is the policy:\n"
            "  errors ask          stop and let you choose (the screen's default):\n"
            "                        convert   resume in the failure branch of the\n"
            "                                  thread's innermost recovery point\n"
            "                                  (DAPTO_TRY), or make dapto_error()\n"
            "                                  return DAPTO_CONVERTED\n"
            "                        continue  pass the signal to the program (its own\n"
            "                                  handler runs, if it has one)\n"
            "                        kill      terminate the program\n"
            "  errors terminate    kill the program\n"
            "  errors convert ?N?  convert the next N errors (all without N) when they\n"
            "                      can be converted, then ask\n"
            "  errors last ?N?     show the last N events before an error (10; 0 keeps\n"
            "                      none); without N, say how many.  Each thread keeps\n"
            "                      its own last events in the program, a few stores an\n"
            "                      event and no clock read; between threads they are\n"
            "                      ordered to the millisecond\n"
            "  errors functions ?on|off?\n"
            "                      keep the entries and exits of functions of a\n"
            "                      -finstrument-functions build among the last events\n"
            "                      too; off by default (it costs every call)\n"
            "  errors stacks ?on|off?\n"
            "                      keep the component stacks (from enter and leave) to\n"
            "                      show them; off by default, since it has every enter\n"
            "                      and leave recorded; on anyway while a profile runs\n"
            "Without an argument, errors returns the policy: ask, terminate, convert,\n"
            "convert N, or none.  In batch mode there is no policy until one is set:\n"
            "an error then terminates the program, the transcript says so, and noosa\n"
            "exits with status 1.",
     .complete = COMMAND_COMPLETE_SUBCOMMAND,
     .subcommands = (const char *const[]){
         "ask", "terminate", "convert", "last", "stacks on off", NULL},
     .proc = cmd_errors},
    {0}};

static const struct command commands[] = {
    {.name = "convert",
     .max_args = -1,
     .usage = "convert",
     .summary = "convert the error the program is stopped at",
     .help = "Convert the run-time error the program is stopped at to failure: the\n"
            "faulting thread resumes in the failure branch of its innermost recovery\n"
            "point (a DAPTO_TRY block, see libdapto(3)), or dapto_error() returns\n"
            "DAPTO_CONVERTED to its caller.  Refused, with the reason, when the thread\n"
            "is in no recovery point.  In batch mode the command returns when the\n"
            "program stops again or ends.",
     .complete = COMMAND_COMPLETE_NONE,
     .proc = cmd_convert},
    {0}};

void cmd_fault_init(struct interp *in)
{
    command_register(in, errors_commands, in->faults);
    command_register(in, commands, in);
}
