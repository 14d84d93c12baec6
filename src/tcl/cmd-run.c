/* SPDX-License-Identifier: MIT */
/*
 * cmd-run.c - the commands that move the program: run, continue, step,
 * stop, kill, quit; and tty, the terminal its runs get.  In batch mode
 * they wait until the program stops or ends; in the screen they return at
 * once and the loop goes on.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "breaks.h"
#include "command.h"
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

/* Whether an event is being told to Tcl code (a handler, a monitor, a
 * condition): commands it runs must not wait for the program, whose
 * event is being delivered (a loop inside that delivery would deliver
 * the next events inside it), nor start or attach to another one under
 * it. */
static int delivering(const struct interp *in)
{
    return in->noosa->item != NULL || in->running_handler != NULL;
}

/* TCL_ERROR: command WHAT may not run while an event is delivered; INSTEAD
 * says what to do. */
static int not_delivering(struct interp *in, Tcl_Interp *tcl,
                          const char *what, const char *instead)
{
    if (!delivering(in))
        return TCL_OK;
    Tcl_SetObjResult(tcl, Tcl_ObjPrintf("%s: not while an event is being "
                                        "delivered (in a handler or a "
                                        "monitor): %s", what, instead));
    return TCL_ERROR;
}

static void wait_batch(struct interp *in)
{
    if (in->batch && !delivering(in))
        session_wait(in->session);
}

/* run ?ARG ...? (with < > >> 2> 2>&1 redirections) */
static int cmd_run(ClientData cd, Tcl_Interp *tcl, int objc,
                   Tcl_Obj *const objv[])
{
    struct interp *in = cd;
    char **args;
    char *cause = NULL;
    int fds[3], i, rc;

    if (not_delivering(in, tcl, "run", "kill ends the program; run it "
                       "again at the prompt") != TCL_OK)
        return TCL_ERROR;
    args = xcalloc((size_t)objc, sizeof *args);
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
    (void)objc;
    (void)objv;
    return go_on(cd, tcl, 0);
}

/* Go to event SEQ of the recording being played and stop there. */
static int go_to(struct interp *in, Tcl_Interp *tcl, uint64_t seq)
{
    char *cause = NULL;

    breaks_cancel_step(in->breaks);
    dispatch_flush(in->dispatch);
    if (noosa_goto(in->noosa, seq, &cause) != 0)
        return fail(tcl, cause);
    wait_batch(in);
    return TCL_OK;
}

/* step ?back? */
static int cmd_step(ClientData cd, Tcl_Interp *tcl, int objc,
                    Tcl_Obj *const objv[])
{
    struct interp *in = cd;
    uint64_t at;

    if (objc == 1)
        return go_on(cd, tcl, 1);
    if (strcmp(Tcl_GetString(objv[1]), "back") != 0) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
            "step: expected \"back\" or nothing, got \"%s\"",
            Tcl_GetString(objv[1])));
        return TCL_ERROR;
    }
    at = session_position(in->session);
    if (!session_replaying(in->session) ||
        session_state(in->session) != SESSION_STOPPED || at <= 1)
        return fail(tcl, xstrdup(
            !session_replaying(in->session)
                ? "step back: only a recording goes back (noosa --replay)"
                : "step back: not stopped after the first event"));
    return go_to(in, tcl, at - 1);
}

/* goto N */
static int cmd_goto(ClientData cd, Tcl_Interp *tcl, int objc,
                    Tcl_Obj *const objv[])
{
    Tcl_WideInt n;

    (void)objc;
    if (Tcl_GetWideIntFromObj(NULL, objv[1], &n) != TCL_OK || n < 0) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
            "goto: expected an event number, got \"%s\"",
            Tcl_GetString(objv[1])));
        return TCL_ERROR;
    }
    return go_to(cd, tcl, (uint64_t)n);
}

static int cmd_stop(ClientData cd, Tcl_Interp *tcl, int objc,
                    Tcl_Obj *const objv[])
{
    struct interp *in = cd;
    char *cause = NULL;

    (void)objc;
    (void)objv;
    if (session_interrupt(in->session, &cause) != 0)
        return fail(tcl, cause);
    if (in->batch && !delivering(in)) {
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

    (void)objc;
    (void)objv;
    breaks_cancel_step(in->breaks);
    if (session_kill(in->session, &cause) != 0)
        return fail(tcl, cause);
    return TCL_OK;
}

/* attach PID */
static int cmd_attach(ClientData cd, Tcl_Interp *tcl, int objc,
                      Tcl_Obj *const objv[])
{
    struct interp *in = cd;
    char *cause = NULL;
    int pid;

    (void)objc;
    if (Tcl_GetIntFromObj(NULL, objv[1], &pid) != TCL_OK || pid <= 0) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
            "attach: expected a process id, got \"%s\"",
            Tcl_GetString(objv[1])));
        return TCL_ERROR;
    }
    if (not_delivering(in, tcl, "attach", "attach at the prompt") != TCL_OK)
        return TCL_ERROR;
    breaks_cancel_step(in->breaks);
    dispatch_flush(in->dispatch);
    if (noosa_attach(in->noosa, (pid_t)pid, &cause) != 0)
        return fail(tcl, cause);
    return TCL_OK;
}

static int cmd_detach(ClientData cd, Tcl_Interp *tcl, int objc,
                      Tcl_Obj *const objv[])
{
    struct interp *in = cd;
    char *cause = NULL;
    pid_t pid = session_process(in->session, 0) != NULL
                    ? session_process(in->session, 0)->pid
                    : session_pid(in->session);

    (void)objc;
    (void)objv;
    if (not_delivering(in, tcl, "detach", "n_break stops the program at "
                       "the event, and detach then lets it go") != TCL_OK)
        return TCL_ERROR;
    breaks_cancel_step(in->breaks);
    if (session_detach(in->session, &cause) != 0)
        return fail(tcl, cause);
    /* it goes on: the state says so until the next run */
    in->detached = pid;
    interp_update_status(in);
    return TCL_OK;
}

/* follow-fork ?parent|child|both? */
static int cmd_follow_fork(ClientData cd, Tcl_Interp *tcl, int objc,
                           Tcl_Obj *const objv[])
{
    static const char *const modes[] = {"parent", "child", "both", NULL};
    static const enum session_follow follow[] = {
        SESSION_FOLLOW_PARENT, SESSION_FOLLOW_CHILD, SESSION_FOLLOW_BOTH};
    struct interp *in = cd;
    int mode;

    if (objc == 1) {
        for (mode = 0; session_follow(in->session) != follow[mode]; mode++)
            ;
        Tcl_SetObjResult(tcl, Tcl_NewStringObj(modes[mode], -1));
        return TCL_OK;
    }
    if (Tcl_GetIndexFromObj(tcl, objv[1], modes, "follow-fork mode", 0,
                            &mode) != TCL_OK)
        return TCL_ERROR;
    session_set_follow(in->session, follow[mode]);
    return TCL_OK;
}

/* quit ?STATUS? */
static int cmd_quit(ClientData cd, Tcl_Interp *tcl, int objc,
                    Tcl_Obj *const objv[])
{
    struct interp *in = cd;
    int status = 0;

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

/* tty ?PATH? */
static int cmd_tty(ClientData cd, Tcl_Interp *tcl, int objc,
                   Tcl_Obj *const objv[])
{
    struct interp *in = cd;
    const char *path;
    char *cause = NULL;

    if (objc == 1) {
        path = session_tty(in->session);
        Tcl_SetObjResult(tcl, Tcl_NewStringObj(path != NULL ? path : "", -1));
        return TCL_OK;
    }
    path = Tcl_GetString(objv[1]);
    if (session_set_tty(in->session, *path != '\0' ? path : NULL, &cause) !=
        0)
        return fail(tcl, cause);
    return TCL_OK;
}

static const struct command commands[] = {
    {.name = "run",
     .aliases = (const char *const[]){"r", NULL},
     .max_args = -1,
     .usage = "run ?ARG ...?",
     .summary = "start the program",
     .help = "Start the program (killing a live one first), with new "
             "arguments if any\n"
             "are given. Redirections: < FILE, > FILE, >> FILE, 2> FILE, "
             "2>&1.\n"
             "In batch mode the command returns when the program stops or "
             "ends.",
     .proc = cmd_run},
    {.name = "continue",
     .aliases = (const char *const[]){"c", "cont", NULL},
     .usage = "continue",
     .summary = "let a stopped program go on",
     .help = "Let a stopped program go on (alias: c, cont). At a fault, "
             "the signal is\n"
             "delivered to the program.",
     .complete = COMMAND_COMPLETE_NONE,
     .proc = cmd_continue},
    {.name = "step",
     .aliases = (const char *const[]){"s", NULL},
     .max_args = 1,
     .usage = "step ?back?",
     .summary = "go on to the next visible event",
     .help = "Go on to the next visible event of the program's interface "
             "(marked *;\n"
             "not the runtime's init and finit) and stop there (alias: s). "
             "Without a\n"
             "running program, start it and stop at its first such event. "
             "In a\n"
             "recording, step back goes to the event before.",
     .complete = COMMAND_COMPLETE_NONE,
     .proc = cmd_step},
    {.name = "goto",
     .min_args = 1,
     .max_args = 1,
     .usage = "goto N",
     .summary = "go to event N of a recording",
     .help = "In a recording (noosa --replay), go to event number N (as "
             "noosa dump numbers\n"
             "them), forwards or backwards, and stop there; the events in "
             "between are not\n"
             "handed to anything.",
     .complete = COMMAND_COMPLETE_NONE,
     .proc = cmd_goto},
    {.name = "stop",
     .usage = "stop",
     .summary = "interrupt the running program",
     .help = "Interrupt the running program: every thread stops.",
     .complete = COMMAND_COMPLETE_NONE,
     .proc = cmd_stop},
    {.name = "kill",
     .aliases = (const char *const[]){"k", NULL},
     .usage = "kill",
     .summary = "kill the program",
     .help = "Kill the program (alias: k).",
     .complete = COMMAND_COMPLETE_NONE,
     .proc = cmd_kill},
    {.name = "attach",
     .min_args = 1,
     .max_args = 1,
     .usage = "attach PID",
     .summary = "attach to a running program",
     .help = "Attach to process PID, a program linked with libdapto that "
             "runs already\n"
             "(started without noosa): it stops, the transcript says where, "
             "and\n"
             "everything works as with a program noosa started. Only its own "
             "user or\n"
             "root may attach. `detach' lets it go again.",
     .complete = COMMAND_COMPLETE_NONE,
     .proc = cmd_attach},
    {.name = "detach",
     .usage = "detach",
     .summary = "let a program attached to go on unmonitored",
     .help = "Turn every event off and let the program attached to go on at "
             "full speed,\n"
             "with nothing of noosa left in it; it can be attached to again. "
             "A program\n"
             "noosa started cannot be detached from (kill it instead).",
     .complete = COMMAND_COMPLETE_NONE,
     .proc = cmd_detach},
    {.name = "follow-fork",
     .max_args = 1,
     .usage = "follow-fork ?parent|child|both?",
     .summary = "which processes to monitor after a fork",
     .help = "Which processes to monitor when the program creates one with "
             "fork(): both\n"
             "(the default: each with its own channel, breakpoints and "
             "handlers apply to\n"
             "all unless given -pid), the parent (the child runs "
             "unmonitored) or the child\n"
             "(the parent goes on unmonitored, as after detach). A child "
             "followed is\n"
             "monitored from the moment fork() returns in it, none of its "
             "events lost; one\n"
             "created by vfork() is never followed. Without an argument, the "
             "mode.\n"
             "`info processes' lists the processes met.",
     .proc = cmd_follow_fork},
    {.name = "quit",
     .aliases = (const char *const[]){"q", NULL},
     .max_args = 1,
     .usage = "quit ?STATUS?",
     .summary = "leave noosa",
     .help = "Leave noosa (alias: q); a live program is killed, one "
             "attached to is\n"
             "detached from.",
     .complete = COMMAND_COMPLETE_NONE,
     .proc = cmd_quit},
    {.name = "tty",
     .max_args = 1,
     .usage = "tty ?PATH?",
     .summary = "give the program another terminal",
     .help = "Give the program's next runs the terminal PATH (its standard "
             "input, output\n"
             "and error), e.g. another window's (`tty' typed there says "
             "its path); an\n"
             "empty PATH gives back the usual one (the screen's output "
             "pane, or noosa's\n"
             "terminal in batch mode). Without PATH, the terminal set, or "
             "\"\".",
     .proc = cmd_tty},
    {0}};

void cmd_run_init(struct interp *in)
{
    command_register(in, commands, in);
}
