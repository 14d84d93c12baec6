/* SPDX-License-Identifier: MIT */
/*
 * cmd-frame.c - the frames of the stopped thread, as gdb shows them: bt
 * (with each frame's arguments, bt full with its locals too), frame,
 * up, down, and info frame, info locals, info args.  A stop at an event
 * selects the program's frame that emitted it; the runtime's frames
 * above it are not shown (<design#debug-frames>).  Other threads' and
 * every thread's backtraces are the error facility's (fault.h).
 */
#include "config.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "cprint.h"
#include "debug.h"
#include "dscope.h"
#include "fault.h"
#include "frames.h"
#include "interp.h"
#include "noosa.h"
#include "target.h"
#include "xmalloc.h"

static int fail(Tcl_Interp *tcl, const char *what, char *cause)
{
    Tcl_SetObjResult(tcl, Tcl_ObjPrintf("%s: %s", what, cause));
    free(cause);
    return TCL_ERROR;
}

/* The frames of the stop, or TCL_ERROR with why there are none. */
static int frames_of(struct interp *in, const char *what,
                     const struct frames **fr)
{
    struct debug *g = in->noosa->debug;
    char *cause = NULL;

    if (!debug_stopped(g)) {
        Tcl_SetObjResult(in->tcl, Tcl_ObjPrintf("%s: No stack (%s).", what,
                                                debug_why_not(g)));
        return TCL_ERROR;
    }
    if (debug_frames(g, fr, &cause) != 0)
        return fail(in->tcl, what, cause);
    return TCL_OK;
}

/* Whether N is a thread of the stopped program. */
static int is_thread(struct interp *in, long n)
{
    struct target *t = session_target(in->session);
    pid_t tids[4096];
    unsigned int k, count;

    if (t == NULL || n <= 0)
        return 0;
    count = target_threads(t, tids, sizeof tids / sizeof tids[0]);
    for (k = 0; k < count; k++)
        if (tids[k] == (pid_t)n)
            return 1;
    return 0;
}

static void say_frames(struct interp *in, const struct frames *fr, long limit,
                       int full)
{
    struct debug *g = in->noosa->debug;
    unsigned int n = debug_count(g), i, from = 0, to = n;
    struct cprint_opts o;

    cprint_defaults(&o);
    if (limit > 0 && (unsigned long)limit < n)
        to = (unsigned int)limit;
    else if (limit < 0 && (unsigned long)-limit < n)
        from = n - (unsigned int)-limit;
    for (i = from; i < to; i++) {
        char *line = debug_frame_line(g, i);

        interp_sayf(in, "  %s\n", line);
        free(line);
        if (full) {
            char *vars = debug_vars(g, i, DSCOPE_LOCALS, 10, &o);

            interp_say(in, vars);
            free(vars);
        }
    }
    if (to < n)
        interp_say(in, "  (More stack frames follow...)\n");
    if (fr->truncated)
        interp_sayf(in, "  (more than %u frames: the outermost are not "
                        "shown)\n",
                    FRAMES_MAX);
}

/* bt ?full? ?N? ?THREAD|all? */
static int cmd_bt(ClientData cd, Tcl_Interp *tcl, int objc,
                  Tcl_Obj *const objv[])
{
    struct interp *in = cd;
    struct debug *g = in->noosa->debug;
    const struct frames *fr;
    long limit = 0, tid = 0;
    int full = 0, i, numbers = 0;
    char *cause = NULL;
    const char *v;
    pid_t event_tid = 0;

    for (i = 1; i < objc; i++) {
        const char *a = Tcl_GetString(objv[i]);
        Tcl_WideInt n;

        if (strcmp(a, "full") == 0 || strcmp(a, "-full") == 0) {
            full = 1;
        } else if (strcmp(a, "all") == 0) {
            tid = -1;
        } else if (Tcl_GetWideIntFromObj(NULL, objv[i], &n) == TCL_OK &&
                   n != 0 && n > INT_MIN && n < INT_MAX && numbers++ == 0) {
            if (is_thread(in, (long)n))
                tid = (long)n;
            else
                limit = (long)n;
        } else {
            Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
                "bt: expected full, a count of frames, a thread id or \"all\" "
                "(bt ?full? ?N? ?THREAD|all?), got \"%s\"",
                a));
            return TCL_ERROR;
        }
    }
    if (session_replaying(in->session)) {
        Tcl_SetObjResult(tcl, Tcl_NewStringObj(
            "bt: a recording has no stack: the program's memory and registers "
            "are not in it, only its events and their values", -1));
        return TCL_ERROR;
    }
    v = Tcl_GetVar2(tcl, "ev", "n_thread", TCL_GLOBAL_ONLY);
    if (v != NULL)
        event_tid = (pid_t)atoi(v);
    /* the stopped thread: its frames with their arguments */
    if (tid == 0 && debug_stopped(g) && !session_replaying(in->session)) {
        const struct target_event *f = session_fault(in->session);
        pid_t stid = f != NULL ? f->tid
                     : session_why(in->session) == SESSION_AT_EVENT &&
                             event_tid != 0
                         ? event_tid
                         : session_pid(in->session);

        if (frames_of(in, "bt", &fr) != TCL_OK)
            return TCL_ERROR;
        sink_fresh_line(&in->noosa->sink);
        interp_sayf(in, "Backtrace of thread %d:\n", (int)stid);
        say_frames(in, fr, limit, full);
        return TCL_OK;
    }
    if ((full || limit != 0) && debug_stopped(g)) {
        Tcl_SetObjResult(tcl, Tcl_NewStringObj(
            "bt: full and a count of frames are for the stopped thread", -1));
        return TCL_ERROR;
    }
    if (fault_backtrace(in->faults, (pid_t)tid, event_tid, &cause) != 0)
        return fail(tcl, "bt", cause);
    return TCL_OK;
}

/* Say frame F (as shown) and its source line, as frame, up and down do. */
static void say_frame(struct interp *in, unsigned int f)
{
    struct debug *g = in->noosa->debug;
    char *line = debug_frame_line(g, f), *src = debug_source_line(g, f);

    sink_fresh_line(&in->noosa->sink);
    interp_sayf(in, "%s\n", line);
    if (src != NULL)
        interp_sayf(in, "%s\n", src);
    free(line);
    free(src);
}

/* frame ?N?, up ?N?, down ?N? */
static int move(struct interp *in, Tcl_Obj *const objv[], int objc,
                const char *what, int dir)
{
    struct debug *g = in->noosa->debug;
    const struct frames *fr;
    Tcl_WideInt n = dir == 0 ? -1 : 1;
    long target;
    char *cause = NULL;
    unsigned int shown;

    if (objc > 2 || (objc == 2 && (Tcl_GetWideIntFromObj(NULL, objv[1], &n) !=
                                       TCL_OK ||
                                   n < 0))) {
        Tcl_SetObjResult(in->tcl, Tcl_ObjPrintf(
            "wrong # args: should be \"%s ?N?\" (N a number of frames)",
            what));
        return TCL_ERROR;
    }
    if (frames_of(in, what, &fr) != TCL_OK)
        return TCL_ERROR;
    shown = debug_count(g);
    if (dir == 0 && n < 0) {
        say_frame(in, debug_selected(g));
        return TCL_OK;
    }
    target = dir == 0 ? (long)n : (long)debug_selected(g) + dir * (long)n;
    if (dir == 0 && (unsigned long)target >= shown) {
        Tcl_SetObjResult(in->tcl,
                         Tcl_ObjPrintf("No frame at level %ld.", target));
        return TCL_ERROR;
    }
    if (dir > 0 && debug_selected(g) + 1 >= shown) {
        Tcl_SetObjResult(in->tcl, Tcl_NewStringObj(
            "Initial frame selected; you cannot go up.", -1));
        return TCL_ERROR;
    }
    if (dir < 0 && debug_selected(g) == 0) {
        Tcl_SetObjResult(in->tcl, Tcl_NewStringObj(
            "Bottom (innermost) frame selected; you cannot go down.", -1));
        return TCL_ERROR;
    }
    if (target < 0)
        target = 0;
    if ((unsigned long)target >= shown)
        target = (long)shown - 1;
    if (debug_select(g, (unsigned int)target, &cause) != 0)
        return fail(in->tcl, what, cause);
    say_frame(in, (unsigned int)target);
    return TCL_OK;
}

static int cmd_frame(ClientData cd, Tcl_Interp *tcl, int objc,
                     Tcl_Obj *const objv[])
{
    (void)tcl;
    return move(cd, objv, objc, "frame", 0);
}

static int cmd_up(ClientData cd, Tcl_Interp *tcl, int objc,
                  Tcl_Obj *const objv[])
{
    (void)tcl;
    return move(cd, objv, objc, "up", 1);
}

static int cmd_down(ClientData cd, Tcl_Interp *tcl, int objc,
                    Tcl_Obj *const objv[])
{
    (void)tcl;
    return move(cd, objv, objc, "down", -1);
}

int cmd_frame_info(struct interp *in, const char *sub)
{
    struct debug *g = in->noosa->debug;
    const struct frames *fr;
    struct cprint_opts o;
    char *text;
    char what[32];

    snprintf(what, sizeof what, "info %s", sub);
    if (frames_of(in, what, &fr) != TCL_OK)
        return TCL_ERROR;
    cprint_defaults(&o);
    sink_fresh_line(&in->noosa->sink);
    if (strcmp(sub, "frame") == 0)
        text = debug_frame_info(g, debug_selected(g));
    else
        text = debug_vars(g, debug_selected(g),
                          strcmp(sub, "args") == 0 ? DSCOPE_ARGS
                                                   : DSCOPE_LOCALS,
                          0, &o);
    interp_say(in, text);
    free(text);
    return TCL_OK;
}

static const struct command commands[] = {
    {.name = "bt",
     .aliases = (const char *const[]){"backtrace", "where", NULL},
     .max_args = -1,
     .usage = "bt ?full? ?N? ?THREAD|all?",
     .summary = "backtrace of the stopped thread",
     .help = "Print the backtrace of the stopped thread as gdb does, each frame with its\n"
            "arguments: the faulting thread at an error, the thread that emitted the\n"
            "event at an event stop (the runtime's frames above the program's are left\n"
            "out), the main thread after an interrupt or an attach.  bt full adds each\n"
            "frame's local variables; bt N shows the innermost N frames, bt -N the\n"
            "outermost N.  bt THREAD (a thread id of the program) and bt all show\n"
            "other threads' frames, by function and file:line.",
     .complete = COMMAND_COMPLETE_NONE,
     .proc = cmd_bt},
    {.name = "frame",
     .aliases = (const char *const[]){"f", NULL},
     .max_args = -1,
     .usage = "frame ?N?",
     .summary = "select a frame, or show the selected one",
     .help = "Select frame N of the stopped thread (0 is the innermost shown) and show\n"
            "it with its source line; without N, show the selected frame.  print,\n"
            "info locals and info args look at the selected frame.  A stop at an\n"
            "event selects the program's frame that emitted it; an error or an\n"
            "interrupt selects the program's own innermost frame.",
     .complete = COMMAND_COMPLETE_NONE,
     .flags = COMMAND_GDB_ERRORS,
     .proc = cmd_frame},
    {.name = "up",
     .max_args = -1,
     .usage = "up ?N?",
     .summary = "select the frame N calls out (the caller)",
     .help = "Select the frame that called the selected one (N frames out).",
     .complete = COMMAND_COMPLETE_NONE,
     .flags = COMMAND_GDB_ERRORS,
     .proc = cmd_up},
    {.name = "down",
     .max_args = -1,
     .usage = "down ?N?",
     .summary = "select the frame N calls in (the callee)",
     .help = "Select the frame that the selected one called (N frames in).",
     .complete = COMMAND_COMPLETE_NONE,
     .flags = COMMAND_GDB_ERRORS,
     .proc = cmd_down},
    {0}};

void cmd_frame_init(struct interp *in)
{
    command_register(in, commands, in);
}
