/* SPDX-License-Identifier: MIT */
/*
 * cmd-run.c - the commands that move the program: run, continue, step,
 * stop, kill, quit.  In batch mode they wait until the program stops or
 * ends; in the screen they return at once and the loop goes on.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "breaks.h"
#include "interp.h"
#include "noosa.h"
#include "loop.h"
#include "xmalloc.h"

/* Set the Tcl result to CAUSE (which is freed) and fail. */
static int fail(Tcl_Interp *tcl, char *cause)
{
    Tcl_SetObjResult(tcl, Tcl_NewStringObj(cause, -1));
    free(cause);
    return TCL_ERROR;
}

/* Commands that take no arguments; NAME is the one the user knows (not
 * ::noosa::cmd::continue, which a top-level continue runs). */
static int no_args(Tcl_Interp *tcl, int objc, Tcl_Obj *const objv[],
                   const char *name)
{
    if (objc == 1)
        return TCL_OK;
    Tcl_WrongNumArgs(tcl, 0, objv, name);
    return TCL_ERROR;
}

static void wait_batch(struct interp *in)
{
    if (in->batch)
        session_wait(in->session);
}

/* run ?ARG ...? (with < > >> 2> 2>&1 redirections) */
static int cmd_run(ClientData cd, Tcl_Interp *tcl, int objc,
                   Tcl_Obj *const objv[])
{
    struct interp *in = cd;
    char **args = xcalloc((size_t)objc, sizeof *args);
    char *cause = NULL;
    int fds[3], i, rc;

    for (i = 1; i < objc; i++)
        args[i - 1] = Tcl_GetString(objv[i]);
    args[objc - 1] = NULL;
    if (session_redirect(args, fds, &cause) != 0) {
        free(args);
        return fail(tcl, cause);
    }
    /* new arguments replace the old; redirections alone keep them */
    if (args[0] != NULL)
        session_set_args(in->session, args);
    free(args);
    breaks_cancel_step(in->breaks);
    dispatch_flush(in->dispatch);
    rc = session_run(in->session, fds[0], fds[1], fds[2], &cause);
    session_redirect_close(fds);
    if (rc != 0)
        return fail(tcl, cause);
    wait_batch(in);
    return TCL_OK;
}

/* Go on from a stop: continue and step. */
static int go_on(struct interp *in, Tcl_Interp *tcl, int step)
{
    char *cause = NULL;

    if (step)
        breaks_step(in->breaks);
    else
        breaks_cancel_step(in->breaks);
    dispatch_flush(in->dispatch);
    /* step from the start: run to the first visible event */
    if (step && session_state(in->session) == SESSION_IDLE
            ? session_run(in->session, -1, -1, -1, &cause) != 0
            : session_continue(in->session, &cause) != 0) {
        breaks_cancel_step(in->breaks);
        return fail(tcl, cause);
    }
    wait_batch(in);
    return TCL_OK;
}

static int cmd_continue(ClientData cd, Tcl_Interp *tcl, int objc,
                        Tcl_Obj *const objv[])
{
    if (no_args(tcl, objc, objv, "continue") != TCL_OK)
        return TCL_ERROR;
    return go_on(cd, tcl, 0);
}

static int cmd_step(ClientData cd, Tcl_Interp *tcl, int objc,
                    Tcl_Obj *const objv[])
{
    if (no_args(tcl, objc, objv, "step") != TCL_OK)
        return TCL_ERROR;
    return go_on(cd, tcl, 1);
}

static int cmd_stop(ClientData cd, Tcl_Interp *tcl, int objc,
                    Tcl_Obj *const objv[])
{
    struct interp *in = cd;
    char *cause = NULL;

    if (no_args(tcl, objc, objv, "stop") != TCL_OK)
        return TCL_ERROR;
    if (session_interrupt(in->session, &cause) != 0)
        return fail(tcl, cause);
    if (in->batch) {
        while (session_state(in->session) == SESSION_RUNNING)
            loop_once(in->loop, -1);
    }
    return TCL_OK;
}

static int cmd_kill(ClientData cd, Tcl_Interp *tcl, int objc,
                    Tcl_Obj *const objv[])
{
    struct interp *in = cd;
    char *cause = NULL;

    if (no_args(tcl, objc, objv, "kill") != TCL_OK)
        return TCL_ERROR;
    breaks_cancel_step(in->breaks);
    if (session_kill(in->session, &cause) != 0)
        return fail(tcl, cause);
    return TCL_OK;
}

/* quit ?STATUS? */
static int cmd_quit(ClientData cd, Tcl_Interp *tcl, int objc,
                    Tcl_Obj *const objv[])
{
    struct interp *in = cd;
    int status = 0;

    if (objc > 2) {
        Tcl_WrongNumArgs(tcl, 1, objv, "?STATUS?");
        return TCL_ERROR;
    }
    if (objc == 2 && Tcl_GetIntFromObj(NULL, objv[1], &status) != TCL_OK) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
            "quit: expected an exit status, got \"%s\"",
            Tcl_GetString(objv[1])));
        return TCL_ERROR;
    }
    in->noosa->quit = 1;
    in->noosa->quit_status = status;
    return TCL_OK;
}

void cmd_run_init(struct interp *in)
{
    Tcl_CreateObjCommand(in->tcl, "::noosa::cmd::run", cmd_run, in, NULL);
    Tcl_CreateObjCommand(in->tcl, "::noosa::cmd::continue", cmd_continue, in, NULL);
    Tcl_CreateObjCommand(in->tcl, "::noosa::cmd::step", cmd_step, in, NULL);
    Tcl_CreateObjCommand(in->tcl, "::noosa::cmd::stop", cmd_stop, in, NULL);
    Tcl_CreateObjCommand(in->tcl, "::noosa::cmd::kill", cmd_kill, in, NULL);
    Tcl_CreateObjCommand(in->tcl, "::noosa::cmd::quit", cmd_quit, in, NULL);
}
