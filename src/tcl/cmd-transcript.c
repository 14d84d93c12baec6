/* SPDX-License-Identifier: MIT */
/*
 * cmd-transcript.c - writing to the transcript and browsing its values:
 * n_say (Noosa's API), values (list the browsable values) and open N
 * (browse one, through its type's n_TYPE_open).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cbrowse.h"
#include "interp.h"
#include "command.h"
#include "xmalloc.h"

/* n_say TEXT ?TEXT ...? */
static int cmd_n_say(ClientData cd, Tcl_Interp *tcl, int objc,
                     Tcl_Obj *const objv[])
{
    struct interp *in = cd;
    int i, len;

    if (objc < 2) {
        Tcl_WrongNumArgs(tcl, 1, objv, "TEXT ?TEXT ...?");
        return TCL_ERROR;
    }
    for (i = 1; i < objc; i++) {
        const char *s = Tcl_GetStringFromObj(objv[i], &len);

        transcript_append(in->transcript, s, (size_t)len);
    }
    return TCL_OK;
}

/* The one-line description of TYPE: n(TYPE,desc), or "". */
static const char *describe(struct interp *in, const char *type)
{
    char key[160];
    const char *d;

    snprintf(key, sizeof key, "%s,desc", type);
    d = Tcl_GetVar2(in->tcl, "n", key, TCL_GLOBAL_ONLY);
    return d != NULL ? d : "";
}

/* values ?FIRST? : list the browsable values (from FIRST on). */
static int cmd_values(ClientData cd, Tcl_Interp *tcl, int objc,
                      Tcl_Obj *const objv[])
{
    struct interp *in = cd;
    struct transcript *t = in->transcript;
    const struct tr_value *v;
    Tcl_WideInt from = 1;
    uint64_t id, last = transcript_value_count(t);
    int any = 0;

    if (objc > 2 ||
        (objc == 2 && Tcl_GetWideIntFromObj(NULL, objv[1], &from) != TCL_OK)) {
        Tcl_WrongNumArgs(tcl, 1, objv, "?FIRST?");
        return TCL_ERROR;
    }
    /* the listing starts on a line of its own */
    if (transcript_partial(t))
        interp_say(in, "\n");
    for (id = from < 1 ? 1 : (uint64_t)from; id <= last; id++) {
        char *line;
        const char *d;

        if ((v = transcript_value(t, id)) == NULL)
            continue;
        d = describe(in, v->type);
        line = xasprintf("[%llu] %s:%s%s%s\n", (unsigned long long)v->id,
                         v->type, v->value, *d != '\0' ? " - " : "", d);
        /* plain text: the listing must not make values of its own */
        transcript_append_plain(t, line, strlen(line));
        free(line);
        any = 1;
    }
    if (!any)
        interp_say(in, "No values.\n");
    return TCL_OK;
}

/* open N : browse value N. */
static int cmd_open(ClientData cd, Tcl_Interp *tcl, int objc,
                    Tcl_Obj *const objv[])
{
    struct interp *in = cd;
    const struct tr_value *v;
    Tcl_WideInt id;
    Tcl_Obj *cmd[3];
    char *text, *proc;
    size_t len;
    const char *line;
    int rc, k;

    if (objc != 2 || Tcl_GetWideIntFromObj(NULL, objv[1], &id) != TCL_OK) {
        /* the name the user knows, not ::noosa::cmd::open */
        Tcl_WrongNumArgs(tcl, 0, objv, "open VALUE-NUMBER");
        return TCL_ERROR;
    }
    v = id > 0 ? transcript_value(in->transcript, (uint64_t)id) : NULL;
    if (v == NULL) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
            "open: no value %lld (see \"values\")", (long long)id));
        return TCL_ERROR;
    }
    if (cbrowse_owns(in->cbrowse, v->id)) {
        /* a C value: its contents, with no Tcl written */
        char *cause = NULL;

        if (transcript_partial(in->transcript))
            interp_say(in, "\n");
        if (cbrowse_open(in->cbrowse, v->id, &cause) != 0) {
            Tcl_SetObjResult(tcl, Tcl_ObjPrintf("open: %s", cause));
            free(cause);
            return TCL_ERROR;
        }
        return TCL_OK;
    }
    line = transcript_line(in->transcript, v->line, &len);
    text = xstrndup(line + v->col, v->len);
    proc = xasprintf("n_%s_open", v->type);
    cmd[0] = Tcl_NewStringObj(proc, -1);
    cmd[1] = Tcl_NewStringObj(text, -1);
    cmd[2] = Tcl_NewStringObj(v->value, -1);
    free(text);
    free(proc);
    for (k = 0; k < 3; k++)
        Tcl_IncrRefCount(cmd[k]);
    if (transcript_partial(in->transcript))
        interp_say(in, "\n");
    rc = Tcl_EvalObjv(tcl, 3, cmd, TCL_EVAL_GLOBAL);
    for (k = 0; k < 3; k++)
        Tcl_DecrRefCount(cmd[k]);
    if (transcript_partial(in->transcript))
        interp_say(in, "\n");
    return rc;
}

static const struct command commands[] = {
    {.name = "values",
     .max_args = -1,
     .usage = "values ?FIRST?",
     .summary = "list the browsable values",
     .help = "List the browsable values in the transcript, numbered.",
     .proc = cmd_values},
    {.name = "open",
     .max_args = -1,
     .usage = "open N",
     .summary = "browse a value",
     .help = "Browse value N (see values) with its type's n_TYPE_open, or, for a C\n"
            "value (printed, or an event's parameter with a C type), show what is in\n"
            "it: a struct's members, what a pointer points to, an array a page at a\n"
            "time, each part a value to open in turn.",
     .proc = cmd_open},
    {.name = "n_say",
     .min_args = 1,
     .max_args = -1,
     .usage = "n_say TEXT ?TEXT ...?",
     .summary = "add text to the transcript",
     .help = "Add TEXT ... to the transcript, as it is (say the newline).",
     .complete = COMMAND_COMPLETE_NONE,
     .flags = COMMAND_API,
     .proc = cmd_n_say},
    {0}};

void cmd_transcript_init(struct interp *in)
{
    command_register(in, commands, in);
}
