/* SPDX-License-Identifier: MIT */
/*
 * cmd-run.c - the commands that move the program: run, continue, step,
 * stop, kill, quit; and tty, the terminal its runs get.  In batch mode
 * they wait until the program stops or ends; in the screen they return at
 * once and the loop goes on.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "breaks.h"
#include "checkpoint.h"
#include "clock.h"
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

/* Go on from a stop: continue and step (STEPS > 0: step that many). */
static int go_on(struct interp *in, Tcl_Interp *tcl, unsigned long steps)
{
    char *cause = NULL;

    if (steps > 0)
        breaks_step(in->breaks, steps);
    else
        breaks_cancel_step(in->breaks);
    dispatch_flush(in->dispatch);
    /* step from the start: run to the first visible event */
    if (steps > 0 && session_state(in->session) == SESSION_IDLE
            ? session_run(in->session, -1, -1, -1, &cause) != 0
            : session_continue(in->session, &cause) != 0) {
        breaks_cancel_step(in->breaks);
        return fail(tcl, cause);
    }
    wait_batch(in);
    return TCL_OK;
}

/* A count of N, the command's optional argument (1 without one): 0 with
 * *N, or TCL_ERROR with the message. */
static int count_arg(Tcl_Interp *tcl, const char *cmd, int objc,
                     Tcl_Obj *const objv[], unsigned long *n)
{
    Tcl_WideInt w;

    *n = 1;
    if (objc < 2)
        return TCL_OK;
    if (Tcl_GetWideIntFromObj(NULL, objv[1], &w) != TCL_OK || w < 1) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
            "%s: expected a count of at least 1, got \"%s\"", cmd,
            Tcl_GetString(objv[1])));
        return TCL_ERROR;
    }
    *n = (unsigned long)w;
    return TCL_OK;
}

/* continue ?N?: N - 1 more hits of the breakpoint stopped at go by, as
 * gdb's continue N */
static int cmd_continue(ClientData cd, Tcl_Interp *tcl, int objc,
                        Tcl_Obj *const objv[])
{
    struct interp *in = cd;
    unsigned long n;
    int id;

    if (count_arg(tcl, "continue", objc, objv, &n) != TCL_OK)
        return TCL_ERROR;
    if (objc > 1 && session_state(in->session) == SESSION_STOPPED) {
        id = breaks_ignore(in->breaks, n - 1);
        if (id == 0)
            interp_say(in, "Not stopped at a breakpoint: the count is "
                           "ignored.\n");
        else if (n > 1)
            interp_sayf(in, "Will not stop at the next %lu hit%s of "
                            "breakpoint %d.\n", n - 1, n == 2 ? "" : "s",
                        id);
    }
    return go_on(in, tcl, 0);
}

/* A move in a recording (noosa.h): what MOVE says, then the play runs
 * to where it stops. */
static int move(struct interp *in, Tcl_Interp *tcl,
                int (*how)(struct noosa *, char **))
{
    char *cause = NULL;

    breaks_cancel_step(in->breaks);
    dispatch_flush(in->dispatch);
    if (how(in->noosa, &cause) != 0)
        return fail(tcl, cause);
    wait_batch(in);
    return TCL_OK;
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

/* step ?N|back? */
static int cmd_step(ClientData cd, Tcl_Interp *tcl, int objc,
                    Tcl_Obj *const objv[])
{
    struct interp *in = cd;
    unsigned long n;

    if (objc == 2 && strcmp(Tcl_GetString(objv[1]), "back") == 0) {
        if (!session_replaying(in->session))
            return fail(tcl, xstrdup("step back: only a recording goes "
                                     "back (noosa --replay)"));
        return move(in, tcl, noosa_step_back);
    }
    if (objc == 2 && Tcl_GetWideIntFromObj(NULL, objv[1], &(Tcl_WideInt){0}) !=
                         TCL_OK) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
            "step: expected a count or \"back\", got \"%s\"",
            Tcl_GetString(objv[1])));
        return TCL_ERROR;
    }
    if (count_arg(tcl, "step", objc, objv, &n) != TCL_OK)
        return TCL_ERROR;
    return go_on(in, tcl, n);
}

/* reverse-step, reverse-continue */
static int cmd_reverse_step(ClientData cd, Tcl_Interp *tcl, int objc,
                            Tcl_Obj *const objv[])
{
    (void)objc;
    (void)objv;
    return move(cd, tcl, noosa_reverse_step);
}

static int cmd_reverse_continue(ClientData cd, Tcl_Interp *tcl, int objc,
                                Tcl_Obj *const objv[])
{
    (void)objc;
    (void)objv;
    return move(cd, tcl, noosa_reverse_continue);
}

/* goto N | goto @TIME */
static int cmd_goto(ClientData cd, Tcl_Interp *tcl, int objc,
                    Tcl_Obj *const objv[])
{
    struct interp *in = cd;
    const char *arg = Tcl_GetString(objv[1]);
    Tcl_WideInt n;
    int64_t ns;
    char *cause = NULL;

    (void)objc;
    if (arg[0] == '@') {
        if (clock_parse(arg + 1, &ns) != 0) {
            Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
                "goto: expected a time with its unit (ns, us, ms, s) after "
                "@, got \"%s\"", arg + 1));
            return TCL_ERROR;
        }
        breaks_cancel_step(in->breaks);
        dispatch_flush(in->dispatch);
        if (noosa_goto_time(in->noosa, ns, &cause) != 0)
            return fail(tcl, cause);
        wait_batch(in);
        return TCL_OK;
    }
    if (Tcl_GetWideIntFromObj(NULL, objv[1], &n) != TCL_OK || n < 0) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
            "goto: expected an event number or @TIME, got \"%s\"", arg));
        return TCL_ERROR;
    }
    return go_to(cd, tcl, (uint64_t)n);
}

/* A size in bytes as people write it (12345, 64k, 256M, 1G): 0 with *N,
 * or -1. */
static int parse_size(const char *s, size_t *n)
{
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    unsigned int shift = 0;

    if (end == s || *s == '-')
        return -1;
    if (*end == 'k' || *end == 'K')
        shift = 10;
    else if (*end == 'M')
        shift = 20;
    else if (*end == 'G')
        shift = 30;
    if (shift != 0)
        end++;
    if (*end != '\0' || v > (SIZE_MAX >> shift))
        return -1;
    *n = (size_t)(v << shift);
    return 0;
}

/* replay ?checkpoints ?SIZE?? */
static int cmd_replay(ClientData cd, Tcl_Interp *tcl, int objc,
                      Tcl_Obj *const objv[])
{
    struct interp *in = cd;
    struct noosa_position pos;
    struct ckpts *ck = in->noosa->ckpts;
    char at[32], last[32];
    size_t size;

    if (!noosa_position(in->noosa, &pos)) {
        Tcl_SetObjResult(tcl, Tcl_NewStringObj(
            "replay: not a recording (noosa --replay DIR plays one)", -1));
        return TCL_ERROR;
    }
    if (objc >= 2 && strcmp(Tcl_GetString(objv[1]), "checkpoints") != 0) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
            "replay: expected \"checkpoints\" or nothing, got \"%s\"",
            Tcl_GetString(objv[1])));
        return TCL_ERROR;
    }
    if (objc >= 3) {
        Tcl_WideInt every = 0;

        if (parse_size(Tcl_GetString(objv[2]), &size) != 0) {
            Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
                "replay checkpoints: expected a size (bytes, or with k, M, "
                "G), got \"%s\"", Tcl_GetString(objv[2])));
            return TCL_ERROR;
        }
        if (objc == 4 &&
            (Tcl_GetWideIntFromObj(NULL, objv[3], &every) != TCL_OK ||
             every < 0)) {
            Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
                "replay checkpoints: expected a number of events, got \"%s\"",
                Tcl_GetString(objv[3])));
            return TCL_ERROR;
        }
        ckpts_set_budget(ck, size);
        ckpts_set_every(ck, (uint64_t)every);
        return TCL_OK;
    }
    if (objc == 1) {
        clock_format(pos.ns, at, sizeof at);
        clock_format(pos.last_ns, last, sizeof last);
        interp_sayf(in, "Event %llu of %llu, at %s of %s%s.\n",
                    (unsigned long long)pos.event,
                    (unsigned long long)pos.count, at, last,
                    pos.stopped ? "" : " (not stopped there)");
        interp_sayf(in, "Index: %s.\n",
                    pos.indexed ? "yes (moves read only what they need)"
                                : "none (moves read from the start)");
    }
    if (ckpts_every(ck) > 0)
        interp_sayf(in, "Checkpoints: %zu, %zu bytes (at most %zu kept), "
                    "taken every %llu events.\n", pos.checkpoints,
                    pos.checkpoint_bytes, ckpts_budget(ck),
                    (unsigned long long)ckpts_every(ck));
    else
        interp_sayf(in, "Checkpoints: %zu, %zu bytes (at most %zu kept), "
                    "taken every 10 ms of play.\n", pos.checkpoints,
                    pos.checkpoint_bytes, ckpts_budget(ck));
    return TCL_OK;
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
     .max_args = 1,
     .usage = "continue ?N?",
     .summary = "let a stopped program go on",
     .help = "Let a stopped program go on (alias: c, cont). At a fault, "
             "the signal is\n"
             "delivered to the program. With N, at a breakpoint, do not "
             "stop there again\n"
             "until its Nth hit from here (as gdb's continue N).",
     .complete = COMMAND_COMPLETE_NONE,
     .proc = cmd_continue},
    {.name = "step",
     .aliases = (const char *const[]){"s", NULL},
     .max_args = 1,
     .usage = "step ?N|back?",
     .summary = "go on to the next visible event",
     .help = "Go on to the next visible event of the program's interface "
             "(marked *;\n"
             "not the runtime's init and finit) and stop there (alias: s); "
             "with N, to the\n"
             "Nth (a breakpoint before it stops there). Without a running "
             "program, start\n"
             "it and stop at its first such event. In a\n"
             "recording, step back goes to the event before.",
     .complete = COMMAND_COMPLETE_NONE,
     .proc = cmd_step},
    {.name = "reverse-step",
     .aliases = (const char *const[]){"rs", NULL},
     .usage = "reverse-step",
     .summary = "go back to the visible event before (a recording)",
     .help = "In a recording, go back to the last visible event before the "
             "one stopped at\n"
             "(the one step would have stopped at; alias: rs), with "
             "everything as playing\n"
             "from the start makes it there: stacks, profiles, hit counts, "
             "handlers'\n"
             "variables.",
     .complete = COMMAND_COMPLETE_NONE,
     .proc = cmd_reverse_step},
    {.name = "reverse-continue",
     .aliases = (const char *const[]){"rc", NULL},
     .usage = "reverse-continue",
     .summary = "go back to the last stop before (a recording)",
     .help = "In a recording, go back to the last event before the one "
             "stopped at where a\n"
             "breakpoint (or a handler or monitor that stops) would have "
             "stopped a play\n"
             "from the start, as gdb's reverse-continue (alias: rc); to the "
             "first event\n"
             "when there is none. Everything is there as playing from the "
             "start makes it.",
     .complete = COMMAND_COMPLETE_NONE,
     .proc = cmd_reverse_continue},
    {.name = "goto",
     .min_args = 1,
     .max_args = 1,
     .usage = "goto N|@TIME",
     .summary = "go to event N of a recording, or to a time",
     .help = "In a recording (noosa --replay), go to event number N (as "
             "noosa dump numbers\n"
             "them, from 1), or to the first event at or after TIME since the "
             "run's start (a number\n"
             "and its unit: @1.5ms, @200us, @2s), forwards or backwards, "
             "and stop there.\n"
             "Stacks, profiles, hit counts and handlers' variables are there "
             "as playing\n"
             "from the start makes them (from the nearest checkpoint); "
             "nothing is said of\n"
             "the events in between.",
     .complete = COMMAND_COMPLETE_NONE,
     .proc = cmd_goto},
    {.name = "replay",
     .max_args = 3,
     .usage = "replay ?checkpoints ?SIZE ?EVERY???",
     .summary = "where the play of a recording stands; its checkpoints",
     .help = "Where the play of a recording stands (event N of M, its time), "
             "whether its\n"
             "index holds, and the checkpoints kept. replay checkpoints SIZE "
             "keeps them\n"
             "within SIZE bytes (64M, 1G; 0: only the start, so that a move "
             "back plays\n"
             "from there): every other one is let go when they grow past it. "
             "With EVERY,\n"
             "one is taken every EVERY events instead of every 10 ms of "
             "play (0).",
     .proc = cmd_replay},
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
