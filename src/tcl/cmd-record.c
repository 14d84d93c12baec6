/* SPDX-License-Identifier: MIT */
/*
 * cmd-record.c - the record command: the session's events recorded to a
 * recording directory, or exported as Chrome JSON or Perfetto protobuf,
 * from the prompt or a script, alongside everything else
 * (src/record/reclive.h).  The recording in progress is the
 * interpreter's (Tcl's associated data), closed when it goes.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "interp.h"
#include "noosa.h"
#include "reclive.h"
#include "xmalloc.h"

#define RECORD_KEY "noosa::record"

struct record_state {
    struct reclive *rl;
};

static void record_delete(ClientData cd, Tcl_Interp *tcl)
{
    struct record_state *st = cd;

    (void)tcl;
    if (st->rl != NULL)
        reclive_stop(st->rl, NULL);
    free(st);
}

static struct record_state *record_state(struct interp *in)
{
    struct record_state *st = Tcl_GetAssocData(in->tcl, RECORD_KEY, NULL);

    if (st == NULL) {
        st = xcalloc(1, sizeof *st);
        Tcl_SetAssocData(in->tcl, RECORD_KEY, record_delete, st);
    }
    return st;
}

static const char *kind_name(enum reclive_kind k)
{
    switch (k) {
    case RECLIVE_CHROME:
        return "Chrome JSON";
    case RECLIVE_PERFETTO:
        return "Perfetto protobuf";
    default:
        return "recording";
    }
}

/* record start ?-chrome|-perfetto? PATH ?EVENTS? */
static int record_start(struct interp *in, Tcl_Interp *tcl, int objc,
                        Tcl_Obj *const objv[])
{
    struct record_state *st = record_state(in);
    enum reclive_kind kind = RECLIVE_RECORDING;
    Tcl_Obj **evs = NULL;
    char **events = NULL;
    char *cause = NULL;
    int i = 2, nev = 0, rc;
    Tcl_WideInt flight = 0;

    if (st->rl != NULL) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
            "record start: already recording to %s (record stop first)",
            reclive_path(st->rl)));
        return TCL_ERROR;
    }
    if (i < objc && strcmp(Tcl_GetString(objv[i]), "-chrome") == 0) {
        kind = RECLIVE_CHROME;
        i++;
    } else if (i < objc &&
               strcmp(Tcl_GetString(objv[i]), "-perfetto") == 0) {
        kind = RECLIVE_PERFETTO;
        i++;
    } else if (i + 1 < objc &&
               strcmp(Tcl_GetString(objv[i]), "-flight") == 0) {
        if (Tcl_GetWideIntFromObj(NULL, objv[i + 1], &flight) != TCL_OK ||
            flight <= 0) {
            Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
                "record start: -flight wants a number of bytes, got \"%s\"",
                Tcl_GetString(objv[i + 1])));
            return TCL_ERROR;
        }
        i += 2;
    }
    if (i >= objc || objc - i > 2) {
        Tcl_SetObjResult(tcl, Tcl_NewStringObj(
            "usage: record start ?-chrome|-perfetto|-flight BYTES? PATH "
            "?EVENTS?", -1));
        return TCL_ERROR;
    }
    if (i + 1 < objc) {
        if (Tcl_ListObjGetElements(tcl, objv[i + 1], &nev, &evs) != TCL_OK)
            return TCL_ERROR;
        events = xcalloc((size_t)nev + 1, sizeof *events);
        for (int j = 0; j < nev; j++)
            events[j] = Tcl_GetString(evs[j]);
    }
    rc = reclive_start(&st->rl, kind, Tcl_GetString(objv[i]), events,
                       in->dispatch, in->session, &in->noosa->sink, &cause);
    free(events);
    if (rc != 0) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf("record start: %s", cause));
        free(cause);
        return TCL_ERROR;
    }
    if (flight > 0)
        reclive_flight(st->rl, (size_t)flight);
    dispatch_flush(in->dispatch);
    interp_sayf(in, "Recording %s%s to %s (%s).\n",
                nev > 0 ? "the events " : "every event",
                nev > 0 ? Tcl_GetString(objv[i + 1]) : "",
                Tcl_GetString(objv[i]), kind_name(kind));
    return TCL_OK;
}

/* record ?start ...|stop|status? */
static int cmd_record(ClientData cd, Tcl_Interp *tcl, int objc,
                      Tcl_Obj *const objv[])
{
    struct interp *in = cd;
    struct record_state *st = record_state(in);
    const char *sub = objc > 1 ? Tcl_GetString(objv[1]) : "status";
    char *cause = NULL;

    if (strcmp(sub, "start") == 0)
        return record_start(in, tcl, objc, objv);
    if (objc > 2) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
            "record %s: no arguments expected", sub));
        return TCL_ERROR;
    }
    if (strcmp(sub, "stop") == 0) {
        uint64_t n;
        char *path;
        const char *what;

        if (st->rl == NULL) {
            Tcl_SetObjResult(tcl, Tcl_NewStringObj(
                "record stop: nothing is being recorded", -1));
            return TCL_ERROR;
        }
        n = reclive_events(st->rl);
        path = xstrdup(reclive_path(st->rl));
        what = kind_name(reclive_kind(st->rl));
        if (reclive_stop(st->rl, &cause) != 0) {
            st->rl = NULL;
            free(path);
            Tcl_SetObjResult(tcl, Tcl_ObjPrintf("record stop: %s", cause));
            free(cause);
            return TCL_ERROR;
        }
        st->rl = NULL;
        dispatch_flush(in->dispatch);
        interp_sayf(in, "Recorded %llu events to %s (%s).\n",
                   (unsigned long long)n, path, what);
        free(path);
        return TCL_OK;
    }
    if (strcmp(sub, "dump") == 0) {
        if (st->rl == NULL) {
            Tcl_SetObjResult(tcl, Tcl_NewStringObj(
                "record dump: nothing is being recorded", -1));
            return TCL_ERROR;
        }
        if (reclive_dump(st->rl, &cause) != 0) {
            Tcl_SetObjResult(tcl, Tcl_ObjPrintf("record dump: %s", cause));
            free(cause);
            return TCL_ERROR;
        }
        interp_sayf(in, "Wrote what the recording holds to %s.\n",
                    reclive_path(st->rl));
        return TCL_OK;
    }
    if (strcmp(sub, "status") == 0) {
        if (st->rl == NULL)
            interp_say(in, "Not recording.\n");
        else
            interp_sayf(in, "Recording to %s (%s): %llu events so far.\n",
                       reclive_path(st->rl), kind_name(reclive_kind(st->rl)),
                       (unsigned long long)reclive_events(st->rl));
        return TCL_OK;
    }
    Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
        "record: unknown subcommand \"%s\": should be start, stop, dump or "
        "status",
        sub));
    return TCL_ERROR;
}

static const struct command commands[] = {
    {.name = "record",
     .max_args = -1,
     .usage = "record ?start ?-chrome|-perfetto|-flight BYTES? PATH ?EVENTS?"
              "|stop|dump|status?",
     .summary = "record events to a file",
     .help = "record start DIR ?EVENTS? records the events of the run (all, "
             "or those of the\n"
             "list EVENTS) to the recording DIR (read it with noosa dump or "
             "noosa --replay);\n"
             "with -chrome or -perfetto, to a Chrome JSON or Perfetto "
             "protobuf file instead;\n"
             "with -flight BYTES, keep only about the last BYTES of each "
             "thread's events,\n"
             "written by record dump and record stop.  record stop closes "
             "it; record status\n"
             "says how far it is.",
     .complete = COMMAND_COMPLETE_SUBCOMMAND,
     .subcommands = (const char *const[]){
         "start @files -chrome -perfetto -flight", "stop", "dump", "status",
         NULL},
     .proc = cmd_record},
    {0}};

void cmd_record_end(struct interp *in)
{
    struct record_state *st = Tcl_GetAssocData(in->tcl, RECORD_KEY, NULL);

    if (st != NULL && st->rl != NULL) {
        (void)reclive_stop(st->rl, NULL);
        st->rl = NULL;
    }
}

void cmd_record_init(struct interp *in)
{
    command_register(in, commands, in);
}
