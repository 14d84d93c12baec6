/* SPDX-License-Identifier: MIT */
/*
 * cmd-info.c - `info events|aspects|operations|breakpoints|handlers|
 * program`: what the monitor knows, printed in the transcript.  (The Tcl
 * library adds these to Tcl's own `info` ensemble.)
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
        if (session_ended(in->session, &status, &signo)) {
            if (signo != 0)
                interp_sayf(in, "State: killed by %s\n",
                            target_signal_name(signo, sig, sizeof sig));
            else
                interp_sayf(in, "State: exited with status %d\n", status);
        } else {
            interp_say(in, "State: not running\n");
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

static int cmd_info(ClientData cd, Tcl_Interp *tcl, int objc,
                    Tcl_Obj *const objv[])
{
    static const char *const subs[] = {"events",      "aspects",
                                       "operations",  "breakpoints",
                                       "handlers",    "program",
                                       "processes",   "frame",
                                       "locals",      "args",
                                       "display",     "probes",
                                       NULL};
    enum { EVENTS, ASPECTS, OPERATIONS, BREAKPOINTS, HANDLERS, PROGRAM,
           PROCESSES, FRAME, LOCALS, ARGS, DISPLAY, PROBES };
    struct interp *in = cd;
    int sub;

    if (objc < 2 || objc > 3) {
        Tcl_WrongNumArgs(tcl, 1, objv, "events|aspects|operations|"
                                       "breakpoints|handlers|program|"
                                       "processes|frame|locals|args|"
                                       "display|probes");
        return TCL_ERROR;
    }
    if (Tcl_GetIndexFromObj(tcl, objv[1], subs, "subcommand", 0, &sub) !=
        TCL_OK)
        return TCL_ERROR;
    switch (sub) {
    case EVENTS:
        info_events(in, objc == 3 &&
                            strcmp(Tcl_GetString(objv[2]), "-v") == 0);
        break;
    case ASPECTS:
        info_aspects(in);
        break;
    case OPERATIONS:
        info_operations(in);
        break;
    case BREAKPOINTS:
        breaks_list(in->breaks);
        break;
    case HANDLERS:
        return Tcl_EvalEx(tcl, "::noosa::cmd::handler list", -1, TCL_EVAL_GLOBAL);
    case PROGRAM:
        info_program(in);
        break;
    case PROCESSES:
        info_processes(in);
        break;
    case FRAME:
        return cmd_frame_info(in, "frame");
    case LOCALS:
        return cmd_frame_info(in, "locals");
    case ARGS:
        return cmd_frame_info(in, "args");
    case DISPLAY:
        display_info(in);
        break;
    case PROBES:
        info_probes(in);
        break;
    }
    return TCL_OK;
}

static const struct command commands[] = {
    {.name = "info",
     .max_args = -1,
     .usage = "info events|aspects|operations|breakpoints|handlers|program|"
              "processes|frame|locals|args|display|probes",
     .summary = "what noosa knows about the program",
     .help = "What noosa knows about the program (info events -v: with parameter docs,\n"
            "and what the program's conditions on each event checked and passed).\n"
            "info frame, info locals and info args describe the selected frame as gdb\n"
            "does (typed at the command line: in Tcl code, info frame, info locals and\n"
            "info args are Tcl's own); info display lists the displays; info probes\n"
            "the program's USDT probes, where, their semaphores and arguments.",
     .complete = COMMAND_COMPLETE_INFO,
     .flags = COMMAND_MERGED,
     .proc = cmd_info},
    {0}};

void cmd_info_init(struct interp *in)
{
    command_register(in, commands, in);
}
