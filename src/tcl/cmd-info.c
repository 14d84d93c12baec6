/* SPDX-License-Identifier: MIT */
/*
 * cmd-info.c - `info events|aspects|operations|breakpoints|handlers|
 * program|processes`: what the monitor knows, printed in the transcript.
 * Each subcommand is an entry "info SUB" (command.h); other files add
 * theirs the same way.  At the top level info is noosa's; the Tcl library
 * adds the subcommands Tcl's own info lacks to Tcl's ensemble, for
 * scripts.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "breaks.h"
#include "command.h"
#include "display.h"
#include "interp.h"
#include "noosa.h"
#include "protocol.h"
#include "xmalloc.h"

static void say_params(struct interp *in, const struct registry_param *p,
                       unsigned int n)
{
    unsigned int i;

    interp_say(in, "(");
    for (i = 0; i < n; i++)
        interp_sayf(in, "%s%s %s", i > 0 ? ", " : "", p[i].type, p[i].name);
    interp_say(in, ")");
}

static struct registry *interface(struct interp *in)
{
    struct registry *reg = session_registry(in->session);

    if (reg == NULL || registry_naspects(reg) == 0) {
        interp_say(in, "The program's monitoring interface is not known "
                       "(it has none, or it has not run yet).\n");
        return NULL;
    }
    return reg;
}

static void info_events(struct interp *in, int verbose)
{
    struct registry *reg = interface(in);
    unsigned int i, j, k;
    uint64_t checked, passed;

    for (i = 0; reg != NULL && i < registry_naspects(reg); i++) {
        struct registry_aspect *a = registry_aspect_at(reg, i);

        interp_sayf(in, "aspect %s:\n", a->name);
        for (j = 0; j < a->nevents; j++) {
            const struct registry_event *e = &a->events[j];

            interp_sayf(in, "  %s %s", e->visible ? "*" : " ", e->name);
            say_params(in, e->params, e->nparams);
            interp_sayf(in, " - %s\n", e->doc);
            for (k = 0; verbose && k < e->nparams; k++)
                interp_sayf(in, "        %s: %s\n", e->params[k].name,
                            e->params[k].doc);
            /* <protocol#counters>: what the program's filter did */
            if (verbose &&
                dispatch_event_counts(in->dispatch, e, &checked, &passed) ==
                    0)
                interp_sayf(in, "        conditions in the program: %llu "
                            "checked, %llu went on (recorded, stopped at or "
                            "kept for errors)\n",
                            (unsigned long long)checked,
                            (unsigned long long)passed);
        }
    }
}

static void info_operations(struct interp *in)
{
    struct registry *reg = interface(in);
    unsigned int i, j, k, n = 0;

    for (i = 0; reg != NULL && i < registry_naspects(reg); i++) {
        struct registry_aspect *a = registry_aspect_at(reg, i);

        for (j = 0; j < a->nops; j++) {
            const struct registry_op *o = &a->ops[j];

            interp_sayf(in, "%s", o->name);
            say_params(in, o->params, o->nparams);
            if (o->result_type[0] != '\0')
                interp_sayf(in, " : %s", o->result_type);
            interp_sayf(in, " - %s (aspect %s)\n", o->doc, a->name);
            for (k = 0; k < o->nparams; k++)
                interp_sayf(in, "        %s: %s\n", o->params[k].name,
                            o->params[k].doc);
            n++;
        }
    }
    if (reg != NULL && n == 0)
        interp_say(in, "The program has no operations.\n");
}

static void info_aspects(struct interp *in)
{
    struct registry *reg = interface(in);
    unsigned int i;

    for (i = 0; reg != NULL && i < registry_naspects(reg); i++) {
        struct registry_aspect *a = registry_aspect_at(reg, i);

        interp_sayf(in, "%s (%s): %u events, %u operations\n", a->name,
                    a->file, a->nevents, a->nops);
    }
}

static void info_program(struct interp *in)
{
    char *const *argv = session_argv(in->session);
    struct channel *ch = session_channel(in->session);
    int status, signo, i;
    char sig[32];

    interp_say(in, "Program:");
    for (i = 0; argv[i] != NULL; i++)
        interp_sayf(in, " %s", argv[i]);
    interp_say(in, "\n");
    switch (session_state(in->session)) {
    case SESSION_IDLE:
        if (session_replaying(in->session) &&
            session_ended(in->session, &status, &signo) == 2) {
            interp_sayf(in, "State: the play of the recording ended at "
                        "event %llu\n",
                        (unsigned long long)noosa_event_at(in->noosa));
        } else if (session_replaying(in->session) &&
                   session_ended(in->session, &status, &signo)) {
            if (signo != 0)
                interp_sayf(in, "State: the recording played to its end "
                            "(the program was killed by %s)\n",
                            target_signal_name(signo, sig, sizeof sig));
            else
                interp_sayf(in, "State: the recording played to its end "
                            "(the program exited with status %d)\n", status);
        } else if (session_ended(in->session, &status, &signo)) {
            if (signo != 0)
                interp_sayf(in, "State: killed by %s\n",
                            target_signal_name(signo, sig, sizeof sig));
            else
                interp_sayf(in, "State: exited with status %d\n", status);
        } else {
            char state[96];

            interp_idle_state(in, state, sizeof state);
            interp_sayf(in, "State: %s\n", state);
        }
        break;
    case SESSION_RUNNING:
        interp_sayf(in, "State: running, pid %d\n",
                    (int)session_pid(in->session));
        break;
    case SESSION_STOPPED:
        interp_sayf(in, "State: stopped at %s, pid %d\n",
                    in->noosa->where != NULL ? in->noosa->where : "?",
                    (int)session_pid(in->session));
        break;
    }
    if (ch != NULL && channel_runtime_version(ch) != NULL)
        interp_sayf(in, "Runtime: channel protocol %s (noosa speaks "
                    "%d.%d.%d)\n", channel_runtime_version(ch),
                    DAPTO_PROTO_MAJOR, DAPTO_PROTO_MEDIAN, DAPTO_PROTO_MINOR);
    if (ch != NULL && channel_lost(ch) != 0)
        interp_sayf(in, "Events lost: %llu\n",
                    (unsigned long long)channel_lost(ch));
    if (ch != NULL && channel_runtime_version(ch) != NULL &&
        channel_status(ch) != CHANNEL_UNMONITORED) {
        struct channel_kept_counts k;

        /* what the program says it did: the last events kept in its
         * threads' own trails cost no record <protocol#ttrail> */
        channel_kept_counts(ch, &k);
        interp_sayf(in, "Kept by the program for the last events: %llu in %u "
                    "thread%s own trail%s%s, %llu in the shared trail\n",
                    (unsigned long long)k.own, k.threads,
                    k.threads == 1 ? "'s" : "s'", k.threads == 1 ? "" : "s",
                    k.lost != 0 ? " (some lost: a signal handler's inside another)" : "",
                    (unsigned long long)k.shared);
        interp_sayf(in, "Records written for noosa: %llu bytes\n",
                    (unsigned long long)k.sent);
    }
}

/* The probes of the current process <design#probes>, as gdb's `info
 * probes' lists them, with their arguments and whether they are on. */
static void info_probes(struct interp *in)
{
    char *text = session_probes_text(in->session);

    if (text == NULL) {
        interp_say(in, session_state(in->session) == SESSION_IDLE &&
                               session_registry(in->session) == NULL
                           ? "No probes: the program has not run yet.\n"
                           : "The program has no USDT probes.\n");
        return;
    }
    interp_say(in, text);
    free(text);
}

/* The processes of the run, the current one (whose events the program's
 * commands speak of) marked with a star. */
static void info_processes(struct interp *in)
{
    const struct session_process *p;
    int cur = session_state(in->session) != SESSION_IDLE
                  ? session_current(in->session)
                  : -1;
    unsigned int i;

    if (session_process(in->session, 0) == NULL) {
        interp_sayf(in, "No process yet.\n");
        return;
    }
    interp_sayf(in, "  %-8s %-8s %s\n", "Process", "Parent", "");
    for (i = 0; (p = session_process(in->session, i)) != NULL; i++) {
        char parent[16] = "-";

        if (p->parent > 0)
            snprintf(parent, sizeof parent, "%d", (int)p->parent);
        interp_sayf(in, "%c %-8d %-8s %s\n", (int)i == cur ? '*' : ' ',
                    (int)p->pid, parent, p->fate);
    }
}

/* info events ?-v? */
static int info_events_cmd(ClientData cd, Tcl_Interp *tcl, int objc,
                           Tcl_Obj *const objv[])
{
    if (objc == 2 && strcmp(Tcl_GetString(objv[1]), "-v") != 0) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf("info events: expected -v, got "
                                            "\"%s\"",
                                            Tcl_GetString(objv[1])));
        return TCL_ERROR;
    }
    info_events(cd, objc == 2);
    return TCL_OK;
}

/* info aspects, operations, breakpoints, program, processes: no
 * arguments. */
#define INFO_PLAIN(NAME, CALL)                                              \
    static int NAME(ClientData cd, Tcl_Interp *tcl, int objc,               \
                    Tcl_Obj *const objv[])                                  \
    {                                                                       \
        struct interp *in = cd;                                             \
                                                                            \
        (void)tcl;                                                          \
        (void)objc;                                                         \
        (void)objv;                                                         \
        CALL;                                                               \
        return TCL_OK;                                                      \
    }
INFO_PLAIN(info_aspects_cmd, info_aspects(in))
INFO_PLAIN(info_operations_cmd, info_operations(in))
INFO_PLAIN(info_breakpoints_cmd, breaks_list(in->breaks))
INFO_PLAIN(info_program_cmd, info_program(in))
INFO_PLAIN(info_processes_cmd, info_processes(in))

/* info handlers ?EVENT? */
static int info_handlers(ClientData cd, Tcl_Interp *tcl, int objc,
                         Tcl_Obj *const objv[])
{
    Tcl_Obj *cmd = Tcl_NewStringObj("::noosa::cmd::handler list", -1);
    int rc;

    (void)cd;
    Tcl_IncrRefCount(cmd);
    if (objc == 2)
        Tcl_ListObjAppendElement(NULL, cmd, objv[1]);
    rc = Tcl_EvalObjEx(tcl, cmd, TCL_EVAL_GLOBAL);
    Tcl_DecrRefCount(cmd);
    return rc;
}

/* info frame, locals, args: the selected frame, as gdb says them. */
#define INFO_FRAME(NAME, SUB)                                               \
    static int NAME(ClientData cd, Tcl_Interp *tcl, int objc,               \
                    Tcl_Obj *const objv[])                                  \
    {                                                                       \
        (void)tcl;                                                          \
        (void)objc;                                                         \
        (void)objv;                                                         \
        return cmd_frame_info(cd, SUB);                                     \
    }
INFO_FRAME(info_frame_cmd, "frame")
INFO_FRAME(info_locals_cmd, "locals")
INFO_FRAME(info_args_cmd, "args")

INFO_PLAIN(info_display_cmd, display_info(in))
INFO_PLAIN(info_probes_cmd, info_probes(in))

/* info ?SUBCOMMAND ?ARG ...??: noosa's subcommands, at the top level; Tcl's
 * own info is ::info there (and info inside scripts). */
static int cmd_info(ClientData cd, Tcl_Interp *tcl, int objc,
                    Tcl_Obj *const objv[])
{
    struct interp *in = cd;

    if (objc == 1)
        return Tcl_EvalEx(tcl, "::noosa::cmd::help info", -1, TCL_EVAL_GLOBAL);
    return command_subcommand(in, "info", tcl, objc, objv,
                              "; Tcl's own info is ::info");
}

static const struct command commands[] = {
    {.name = "info",
     .aliases = (const char *const[]){"i", NULL},
     .max_args = -1,
     .usage = "info SUBCOMMAND ?ARG ...?",
     .summary = "what noosa knows about the program",
     .help = "What noosa knows about the program and the run: info SUBCOMMAND\n"
            "(alias: i; a unique prefix of a subcommand will do).  Typed at the\n"
            "prompt, info is noosa's; Tcl's own is ::info (and info inside\n"
            "procedures and handlers).",
     .complete = COMMAND_COMPLETE_SUBCOMMAND,
     .proc = cmd_info},
    {.name = "info events",
     .max_args = 1,
     .usage = "info events ?-v?",
     .summary = "the program's events",
     .help = "The events of the program's interface by aspect, * before those\n"
            "visible to step; -v: with the parameters' docs, and what the\n"
            "program's conditions on each event checked and passed.",
     .proc = info_events_cmd},
    {.name = "info aspects",
     .usage = "info aspects",
     .summary = "the program's aspects",
     .help = "The aspects of the program's interface: file, events, operations.",
     .proc = info_aspects_cmd},
    {.name = "info operations",
     .usage = "info operations",
     .summary = "the program's operations",
     .help = "The operations of the program's interface, with their parameters.",
     .proc = info_operations_cmd},
    {.name = "info breakpoints",
     .usage = "info breakpoints",
     .summary = "the breakpoints",
     .help = "The breakpoints, their hits, and where each condition runs.",
     .proc = info_breakpoints_cmd},
    {.name = "info handlers",
     .max_args = 1,
     .usage = "info handlers ?EVENT?",
     .summary = "the handlers",
     .help = "The handlers (of EVENT), as handler list prints them.",
     .complete = COMMAND_COMPLETE_EVENT,
     .proc = info_handlers},
    {.name = "info program",
     .usage = "info program",
     .summary = "the program and its state",
     .help = "The program's command line, its state, its runtime's protocol and\n"
            "the events lost.",
     .proc = info_program_cmd},
    {.name = "info processes",
     .aliases = (const char *const[]){"info inferiors", NULL},
     .usage = "info processes",
     .summary = "the processes of the run",
     .help = "The processes of the run and what became of each; * marks the\n"
            "current one (alias: info inferiors).",
     .proc = info_processes_cmd},
    {.name = "info frame",
     .usage = "info frame",
     .summary = "the selected frame",
     .help = "The selected frame, as gdb describes it (typed at the command\n"
            "line: in Tcl code, info frame is Tcl's own).",
     .proc = info_frame_cmd},
    {.name = "info locals",
     .usage = "info locals",
     .summary = "the selected frame's local variables",
     .help = "The local variables of the selected frame, as gdb prints them\n"
            "(typed at the command line: in Tcl code, info locals is Tcl's own).",
     .proc = info_locals_cmd},
    {.name = "info args",
     .usage = "info args",
     .summary = "the selected frame's arguments",
     .help = "The arguments of the selected frame, as gdb prints them (typed at\n"
            "the command line: in Tcl code, info args is Tcl's own).",
     .proc = info_args_cmd},
    {.name = "info display",
     .usage = "info display",
     .summary = "the displays",
     .help = "The displays (display EXPR), with their numbers.",
     .proc = info_display_cmd},
    {.name = "info probes",
     .usage = "info probes",
     .summary = "the program's USDT probes",
     .help = "The program's USDT probes, as gdb lists them: where they are, their\n"
            "semaphores and arguments, and whether noosa has them on.",
     .proc = info_probes_cmd},
    {0}};

void cmd_info_init(struct interp *in)
{
    command_register(in, commands, in);
}
