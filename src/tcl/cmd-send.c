/* SPDX-License-Identifier: MIT */
/*
 * cmd-send.c - operations in the stopped program: n_send (Noosa's API,
 * results as a Tcl list) and send (the same, printed).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "dapto.h"
#include "command.h"
#include "interp.h"
#include "noosa.h"
#include "protocol.h"
#include "value.h"
#include "xmalloc.h"

/* Run the operation named in OBJV[1] with the rest as arguments.  On
 * success the results are in *res. */
static int send(struct interp *in, Tcl_Interp *tcl, int objc,
                Tcl_Obj *const objv[], struct channel_result *res)
{
    const char **args, *name = Tcl_GetString(objv[0]);
    const char *colon = strrchr(name, ':');
    char *cause = NULL;
    char sig[32];
    int i, rc;

    /* the name the user knows: send, not ::noosa::cmd::send */
    if (colon != NULL)
        name = colon + 1;
    if (objc < 2) {
        Tcl_WrongNumArgs(tcl, 1, objv, "OPERATION ?ARG ...?");
        return TCL_ERROR;
    }
    if (session_replaying(in->session)) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
            "%s: not available in a recording: the program is not live",
            name));
        return TCL_ERROR;
    }
    if (!session_can_send(in->session)) {
        if (in->noosa->item != NULL && in->running_handler != NULL)
            Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
                "%s: the program is not stopped at this event: handler "
                "\"%s\" runs on a recorded event (add it with -stop to "
                "stop the program there)",
                name, in->running_handler));
        else
            Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
                "%s: the program is not stopped at an event", name));
        return TCL_ERROR;
    }
    if (registry_op_by_name(session_registry(in->session),
                            Tcl_GetString(objv[1])) == NULL) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
            "%s: no operation \"%s\" in the program's interface (see \"info "
            "operations\")", name, Tcl_GetString(objv[1])));
        return TCL_ERROR;
    }
    args = xcalloc((size_t)objc, sizeof *args);
    for (i = 2; i < objc; i++)
        args[i - 2] = Tcl_GetString(objv[i]);
    memset(res, 0, sizeof *res);
    rc = session_send(in->session, Tcl_GetString(objv[1]), objc - 2, args, res,
                      &cause);
    free(args);
    if (rc == 0)
        return TCL_OK;
    if (res->status == DAPTO_OP_CRASHED)
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
            "%s %s: the operation crashed with %s (fault address 0x%llx); "
            "the program is still stopped at its event",
            name, Tcl_GetString(objv[1]),
            target_signal_name(res->signo, sig, sizeof sig),
            (unsigned long long)res->fault_addr));
    else if (res->status == DAPTO_OP_ARGS && res->message[0] != '\0') {
        /* the program's own words, without the operation's name, which
         * the runtime puts first and the channel again before that */
        const char *op = Tcl_GetString(objv[1]), *m = res->message;
        size_t len = strlen(op);

        if (strncmp(m, op, len) == 0 && strncmp(m + len, ": ", 2) == 0)
            m += len + 2;
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf("%s %s: %s", name, op, m));
    } else
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf("%s %s: %s", name,
                                            Tcl_GetString(objv[1]),
                                            cause != NULL ? cause : "failed"));
    free(cause);
    return TCL_ERROR;
}

static int cmd_n_send(ClientData cd, Tcl_Interp *tcl, int objc,
                      Tcl_Obj *const objv[])
{
    struct channel_result res;
    Tcl_Obj *list;
    unsigned int i;

    if (send(cd, tcl, objc, objv, &res) != TCL_OK)
        return TCL_ERROR;
    list = Tcl_NewListObj(0, NULL);
    for (i = 0; i < res.nvalues; i++)
        Tcl_ListObjAppendElement(NULL, list, interp_value(&res.values[i]));
    Tcl_SetObjResult(tcl, list);
    return TCL_OK;
}

static int cmd_send(ClientData cd, Tcl_Interp *tcl, int objc,
                    Tcl_Obj *const objv[])
{
    struct interp *in = cd;
    struct channel_result res;
    struct registry *reg;
    const struct registry_op *op;
    unsigned int i;
    int k;

    if (send(in, tcl, objc, objv, &res) != TCL_OK)
        return TCL_ERROR;
    for (k = 1; k < objc; k++)
        interp_sayf(in, "%s%s", k > 1 ? " " : "", Tcl_GetString(objv[k]));
    interp_say(in, " =>");
    if (res.nvalues == 0)
        interp_say(in, " (nothing)");
    reg = session_registry(in->session);
    op = reg != NULL ? registry_op_by_name(reg, Tcl_GetString(objv[1]))
                     : NULL;
    for (i = 0; i < res.nvalues; i++) {
        char *text;

        interp_say(in, " ");
        /* as values are shown everywhere: the result of the program's
         * own type browsable, as in a stop line */
        if (i == 0 && op != NULL && op->result_kind == DAPTO_K_USER &&
            res.values[i].kind == DAPTO_K_PTR &&
            interp_say_val(in, op->result_type, &res.values[i]))
            continue;
        text = value_text(&res.values[i]);
        interp_say(in, text);
        free(text);
    }
    interp_say(in, "\n");
    return TCL_OK;
}

/* n_break: stop after this event's handlers have run. */
static int cmd_n_break(ClientData cd, Tcl_Interp *tcl, int objc,
                       Tcl_Obj *const objv[])
{
    struct interp *in = cd;

    if (objc != 1) {
        Tcl_WrongNumArgs(tcl, 1, objv, NULL);
        return TCL_ERROR;
    }
    if (in->noosa->item == NULL) {
        Tcl_SetObjResult(tcl, Tcl_NewStringObj(
            "n_break: only a handler can ask to stop at its event", -1));
        return TCL_ERROR;
    }
    if (!session_can_send(in->session) && !session_replaying(in->session)) {
        /* the event was recorded: its thread did not wait, nothing can
         * stop there any more */
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
            "n_break: the program is not stopped at this event: handler "
            "\"%s\" runs on a recorded event (add it with -stop to stop the "
            "program there)",
            in->running_handler != NULL ? in->running_handler : "?"));
        return TCL_ERROR;
    }
    in->break_called = 1;
    return TCL_OK;
}

static const struct command commands[] = {
    {.name = "send",
     .max_args = -1,
     .usage = "send OPERATION ?ARG ...?",
     .summary = "run an operation in the stopped program",
     .help = "Run an operation in the program stopped at an event and print its results\n"
            "(n_send returns them as a list).",
     .complete = COMMAND_COMPLETE_OPERATION,
     .proc = cmd_send},
    {.name = "n_send",
     .max_args = -1,
     .usage = "n_send OPERATION ?ARG ...?",
     .summary = "run an operation, its results as a list",
     .help = "Run OPERATION in the program stopped at an event and return its results\n"
            "as a list (send prints them).",
     .complete = COMMAND_COMPLETE_OPERATION,
     .flags = COMMAND_API,
     .proc = cmd_n_send},
    {.name = "n_break",
     .max_args = 0,
     .usage = "n_break",
     .summary = "stop at this event (in a handler)",
     .help = "In a handler: stop the program at its event once the event's handlers\n"
            "have run.",
     .complete = COMMAND_COMPLETE_NONE,
     .flags = COMMAND_API,
     .proc = cmd_n_break},
    {0}};

void cmd_send_init(struct interp *in)
{
    command_register(in, commands, in);
}
