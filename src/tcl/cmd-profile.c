/* SPDX-License-Identifier: MIT */
/*
 * profile-cmd.c - the `profile` command:
 *
 *     profile                                 what is on, what is counted
 *     profile freq|time on|off|reset
 *     profile freq|time show ?OPTION ...?     (also: profile show freq|time)
 *     profile freq|time get ?OPTION ...?      rows as a Tcl list of dicts
 *     profile export folded FILE ?-time|-calls|-events? ?-thread TID?
 *     profile export chrome FILE
 *     profile timeline ?N?                    marks kept for export chrome
 *     profile print ?on|off?                  print the profiles at the end
 *     profile threads                         the threads of the time profile
 *
 * View options: -tree, -flat, -sort count|calls|self|total|name,
 * -thread TID|all, -event EVENT, -calls, -limit N.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "interp.h"
#include "command.h"
#include "profile.h"
#include "xmalloc.h"

static int bad(Tcl_Interp *tcl, const char *fmt, const char *arg)
{
    Tcl_SetObjResult(tcl, Tcl_ObjPrintf(fmt, arg));
    return TCL_ERROR;
}

static int get_kind(Tcl_Interp *tcl, Tcl_Obj *o, enum profile_kind *kind)
{
    const char *s = Tcl_GetString(o);

    if (strcmp(s, "freq") == 0 || strcmp(s, "frequency") == 0)
        *kind = PROFILE_FREQ;
    else if (strcmp(s, "time") == 0)
        *kind = PROFILE_TIME;
    else
        return bad(tcl, "profile: unknown profile \"%s\": should be freq or "
                        "time", s);
    return TCL_OK;
}

static int get_thread(Tcl_Interp *tcl, Tcl_Obj *o, pid_t *tid)
{
    int v;

    if (strcmp(Tcl_GetString(o), "all") == 0) {
        *tid = 0;
        return TCL_OK;
    }
    if (Tcl_GetIntFromObj(NULL, o, &v) != TCL_OK || v <= 0)
        return bad(tcl, "profile: bad thread \"%s\": should be a thread id "
                        "or all", Tcl_GetString(o));
    *tid = (pid_t)v;
    return TCL_OK;
}

/* Parse view options OBJV[0..OBJC-1] into *Q. */
static int get_query(Tcl_Interp *tcl, int objc, Tcl_Obj *const objv[],
                     struct profile_query *q)
{
    static const char *const sorts[] = {"count", "calls", "self", "total",
                                        "name", NULL};
    static const enum profile_sort sort_of[] = {
        PROFILE_SORT_COUNT, PROFILE_SORT_COUNT, PROFILE_SORT_SELF,
        PROFILE_SORT_TOTAL, PROFILE_SORT_NAME};
    int i, idx, n;

    for (i = 0; i < objc; i++) {
        const char *opt = Tcl_GetString(objv[i]);

        if (strcmp(opt, "-tree") == 0) {
            q->view = PROFILE_TREE;
        } else if (strcmp(opt, "-flat") == 0) {
            q->view = PROFILE_FLAT;
        } else if (strcmp(opt, "-calls") == 0) {
            q->event = "";
        } else if (i + 1 == objc &&
                   (strcmp(opt, "-sort") == 0 || strcmp(opt, "-thread") == 0 ||
                    strcmp(opt, "-pid") == 0 || strcmp(opt, "-event") == 0 ||
                    strcmp(opt, "-limit") == 0)) {
            return bad(tcl, "profile: %s needs a value", opt);
        } else if (strcmp(opt, "-sort") == 0) {
            if (Tcl_GetIndexFromObj(tcl, objv[++i], sorts, "sort key", 0,
                                    &idx) != TCL_OK)
                return TCL_ERROR;
            q->sort = sort_of[idx];
            if (q->kind == PROFILE_FREQ && (q->sort == PROFILE_SORT_SELF ||
                                            q->sort == PROFILE_SORT_TOTAL))
                return bad(tcl, "profile: the frequency profile has no "
                                "times: sort it by count or name%s", "");
        } else if (strcmp(opt, "-thread") == 0) {
            if (get_thread(tcl, objv[++i], &q->thread) != TCL_OK)
                return TCL_ERROR;
        } else if (strcmp(opt, "-pid") == 0) {
            /* <design#processes>: the threads of one process */
            if (Tcl_GetIntFromObj(NULL, objv[++i], &n) != TCL_OK || n <= 0)
                return bad(tcl, "profile: bad process \"%s\": should be a "
                                "process id", Tcl_GetString(objv[i]));
            q->pid = (pid_t)n;
        } else if (strcmp(opt, "-event") == 0) {
            q->event = Tcl_GetString(objv[++i]);
            if (q->event[0] == '\0')
                return bad(tcl, "profile: -event needs an event name%s", "");
        } else if (strcmp(opt, "-limit") == 0) {
            if (Tcl_GetIntFromObj(NULL, objv[++i], &n) != TCL_OK || n < 0)
                return bad(tcl, "profile: bad limit \"%s\": should be a "
                                "number of rows",
                           Tcl_GetString(objv[i]));
            q->limit = (size_t)n;
        } else {
            return bad(tcl, "profile: unknown option \"%s\": should be -tree, "
                            "-flat, -sort, -thread, -pid, -event, -calls or "
                            "-limit",
                       opt);
        }
    }
    if (q->kind == PROFILE_TIME && q->event != NULL)
        return bad(tcl, "profile: the time profile is not by event: -event "
                        "and -calls are for the frequency profile%s", "");
    return TCL_OK;
}

static void query_init(struct profile_query *q, enum profile_kind kind)
{
    memset(q, 0, sizeof *q);
    q->kind = kind;
    q->view = kind == PROFILE_FREQ ? PROFILE_TREE : PROFILE_FLAT;
}

static int show(struct profile *p, Tcl_Interp *tcl, enum profile_kind kind,
                int objc, Tcl_Obj *const objv[])
{
    struct profile_query q;
    char *cause = NULL;

    query_init(&q, kind);
    if (get_query(tcl, objc, objv, &q) != TCL_OK)
        return TCL_ERROR;
    if (profile_print(p, &q, &cause) != 0) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf("profile: %s", cause));
        free(cause);
        return TCL_ERROR;
    }
    return TCL_OK;
}

static Tcl_Obj *dict2(const char *k1, Tcl_Obj *v1)
{
    Tcl_Obj *d = Tcl_NewDictObj();

    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj(k1, -1), v1);
    return d;
}

static int get(struct profile *p, Tcl_Interp *tcl, enum profile_kind kind,
               int objc, Tcl_Obj *const objv[])
{
    struct profile_query q;
    struct profile_rows r;
    char *cause = NULL;
    Tcl_Obj *list;
    size_t i;

    query_init(&q, kind);
    if (get_query(tcl, objc, objv, &q) != TCL_OK)
        return TCL_ERROR;
    if (profile_rows(p, &q, &r, &cause) != 0) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf("profile: %s", cause));
        free(cause);
        return TCL_ERROR;
    }
    list = Tcl_NewListObj(0, NULL);
    for (i = 0; i < r.n; i++) {
        const struct profile_row *row = &r.rows[i];
        Tcl_Obj *d;

        if (row->total_row)
            continue;
        if (kind == PROFILE_FREQ) {
            d = dict2("event", Tcl_NewStringObj(row->event[0] != '\0'
                                                    ? row->event
                                                    : "(calls)",
                                                -1));
            Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("stack", -1),
                           Tcl_NewStringObj(row->label, -1));
            Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("count", -1),
                           Tcl_NewWideIntObj((Tcl_WideInt)row->count));
        } else {
            d = dict2("name", Tcl_NewStringObj(row->label, -1));
            Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("depth", -1),
                           Tcl_NewIntObj((int)row->depth));
            Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("calls", -1),
                           Tcl_NewWideIntObj((Tcl_WideInt)row->count));
            Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("self", -1),
                           Tcl_NewWideIntObj((Tcl_WideInt)row->self_ns));
            Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("total", -1),
                           Tcl_NewWideIntObj((Tcl_WideInt)row->total_ns));
        }
        Tcl_ListObjAppendElement(NULL, list, d);
    }
    profile_rows_free(&r);
    Tcl_SetObjResult(tcl, list);
    return TCL_OK;
}

static int export(struct profile *p, Tcl_Interp *tcl, int objc,
                  Tcl_Obj *const objv[])
{
    enum profile_metric metric = PROFILE_M_AUTO;
    const char *format, *path;
    pid_t thread = 0;
    char *cause = NULL;
    FILE *f;
    long size;
    int i, rc, chrome;

    if (objc < 2)
        return bad(tcl, "wrong # args: should be \"profile export "
                        "folded|chrome FILE ?OPTION ...?\"%s", "");
    format = Tcl_GetString(objv[0]);
    path = Tcl_GetString(objv[1]);
    if (strcmp(format, "folded") == 0)
        chrome = 0;
    else if (strcmp(format, "chrome") == 0)
        chrome = 1;
    else
        return bad(tcl, "profile export: unknown format \"%s\": should be "
                        "folded or chrome", format);
    for (i = 2; i < objc; i++) {
        const char *opt = Tcl_GetString(objv[i]);

        if (!chrome && strcmp(opt, "-time") == 0)
            metric = PROFILE_M_TIME;
        else if (!chrome && strcmp(opt, "-calls") == 0)
            metric = PROFILE_M_CALLS;
        else if (!chrome && strcmp(opt, "-events") == 0)
            metric = PROFILE_M_EVENTS;
        else if (!chrome && strcmp(opt, "-thread") == 0 && i + 1 < objc) {
            if (get_thread(tcl, objv[++i], &thread) != TCL_OK)
                return TCL_ERROR;
        } else
            return bad(tcl, chrome ? "profile export chrome: unknown option "
                                     "\"%s\""
                                   : "profile export folded: unknown option "
                                     "\"%s\": should be -time, -calls, "
                                     "-events or -thread TID",
                       opt);
    }
    f = fopen(path, "w");
    if (f == NULL) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf("profile export: cannot write "
                                            "%s: %s",
                                            path, strerror(errno)));
        return TCL_ERROR;
    }
    if (chrome)
        rc = profile_export_chrome(p, f, &cause);
    else
        rc = profile_export_folded(p, f, metric, thread, &cause);
    size = ftell(f);
    if (fclose(f) != 0 && rc == 0) {
        xcause(&cause, "cannot write %s: %s", path, strerror(errno));
        rc = -1;
    }
    if (rc != 0) {
        remove(path);
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf("profile export: %s", cause));
        free(cause);
        return TCL_ERROR;
    }
    /* (printed at the prompt) */
    Tcl_SetObjResult(tcl, Tcl_ObjPrintf("Wrote %s (%s, %ld bytes).", path,
                                        chrome ? "the timeline as Chrome "
                                                 "trace JSON"
                                               : "folded stacks",
                                        size));
    return TCL_OK;
}

static int cmd_profile(ClientData cd, Tcl_Interp *tcl, int objc,
                       Tcl_Obj *const objv[])
{
    struct profile *p = cd;
    enum profile_kind kind;
    const char *sub;
    int on;

    if (objc == 1) {
        profile_status(p);
        return TCL_OK;
    }
    sub = Tcl_GetString(objv[1]);
    if (strcmp(sub, "export") == 0)
        return export(p, tcl, objc - 2, objv + 2);
    if (strcmp(sub, "timeline") == 0) {
        int n;

        if (objc > 3)
            return bad(tcl, "wrong # args: should be \"profile timeline "
                            "?N?\"%s", "");
        if (objc == 3) {
            if (Tcl_GetIntFromObj(NULL, objv[2], &n) != TCL_OK || n < 0)
                return bad(tcl, "profile timeline: bad number \"%s\"",
                           Tcl_GetString(objv[2]));
            profile_set_marks_limit(p, (size_t)n);
        } else {
            Tcl_SetObjResult(tcl, Tcl_NewWideIntObj(
                                      (Tcl_WideInt)profile_marks_limit(p)));
        }
        return TCL_OK;
    }
    if (strcmp(sub, "threads") == 0) {
        Tcl_Obj *l = Tcl_NewListObj(0, NULL);
        size_t i;

        if (objc != 2)
            return bad(tcl, "wrong # args: should be \"profile threads\"%s",
                       "");
        for (i = 0; i < profile_nthreads(p); i++)
            Tcl_ListObjAppendElement(NULL, l,
                                     Tcl_NewIntObj(profile_thread_id(p, i)));
        Tcl_SetObjResult(tcl, l);
        return TCL_OK;
    }
    if (strcmp(sub, "print") == 0) {
        if (objc > 3)
            return bad(tcl, "wrong # args: should be \"profile print "
                            "?on|off?\"%s", "");
        if (objc == 3) {
            if (Tcl_GetBooleanFromObj(tcl, objv[2], &on) != TCL_OK)
                return TCL_ERROR;
            profile_set_print_at_end(p, on);
            return TCL_OK;
        }
        Tcl_SetObjResult(tcl, Tcl_NewBooleanObj(profile_print_at_end(p)));
        return TCL_OK;
    }
    if (strcmp(sub, "show") == 0 || strcmp(sub, "get") == 0) {
        if (objc < 3)
            return bad(tcl, "wrong # args: should be \"profile %s freq|time "
                            "?OPTION ...?\"", sub);
        if (get_kind(tcl, objv[2], &kind) != TCL_OK)
            return TCL_ERROR;
        if (sub[0] == 's')
            return show(p, tcl, kind, objc - 3, objv + 3);
        return get(p, tcl, kind, objc - 3, objv + 3);
    }
    if (strcmp(sub, "freq") != 0 && strcmp(sub, "frequency") != 0 &&
        strcmp(sub, "time") != 0)
        return bad(tcl, "profile: unknown subcommand \"%s\": should be freq, "
                        "time, show, get, export, timeline, threads or print",
                   sub);
    get_kind(tcl, objv[1], &kind);
    if (objc < 3)
        return bad(tcl, "wrong # args: should be \"profile %s "
                        "on|off|show|get|reset ?OPTION ...?\"", sub);
    sub = Tcl_GetString(objv[2]);
    if (strcmp(sub, "show") == 0)
        return show(p, tcl, kind, objc - 3, objv + 3);
    if (strcmp(sub, "get") == 0)
        return get(p, tcl, kind, objc - 3, objv + 3);
    if (strcmp(sub, "in") == 0) {
        /* <protocol#cct>: where the profiles of functions are kept (the
         * time profile also sampled: calls counted in the program, self
         * times sampled by noosa) */
        static const char *const places[] = {"noosa", "program", "sampled"};
        const char *where = objc == 4 ? Tcl_GetString(objv[3]) : "";
        int n = kind == PROFILE_TIME ? 3 : 2, i = 0;

        while (objc == 4 && i < n && strcmp(where, places[i]) != 0)
            i++;
        if (objc > 4 || i == n)
            return bad(tcl, "wrong # args: should be \"profile %s\"",
                       kind == PROFILE_TIME ? "time in ?program|sampled|noosa?"
                                            : "freq in ?program|noosa?");
        if (objc == 4) {
            profile_set_in_program(p, kind, i);
            return TCL_OK;
        }
        Tcl_SetObjResult(tcl, Tcl_NewStringObj(places[profile_in_program(p, kind)], -1));
        return TCL_OK;
    }
    if (objc != 3)
        return bad(tcl, "wrong # args: should be \"profile %s on|off|reset\"",
                   Tcl_GetString(objv[1]));
    if (strcmp(sub, "reset") == 0 || strcmp(sub, "zero") == 0) {
        profile_reset(p, kind);
        return TCL_OK;
    }
    if (Tcl_GetBooleanFromObj(NULL, objv[2], &on) != TCL_OK)
        return bad(tcl, "profile: unknown action \"%s\": should be on, off, "
                        "show, get or reset", sub);
    profile_enable(p, kind, on);
    return TCL_OK;
}

static const struct command commands[] = {
    {.name = "profile",
     .max_args = -1,
     .usage = "profile ?freq|time on|off|show|get|reset? ...",
     .summary = "frequency and time profiles",
     .help = "Profiles built from the component stacks (enter/leave events, and the\n"
            "functions of programs compiled with -finstrument-functions):\n"
            "  profile                                what is on, what has been counted\n"
            "  profile freq on|off|reset              count each visible event under each\n"
            "                                         component stack, and the calls\n"
            "  profile time on|off|reset              self and total time, calls, per\n"
            "                                         component stack and thread\n"
            "  profile time in ?program|sampled|noosa?\n"
            "                                         where the calls of functions\n"
            "                                         (-finstrument-functions) and named\n"
            "                                         components are counted: by the\n"
            "                                         program in its own call trees, no\n"
            "                                         record crossing, self times measured\n"
            "                                         at each call (program) or sampled by\n"
            "                                         noosa every millisecond (sampled, the\n"
            "                                         default), or by noosa from the\n"
            "                                         records of every enter and leave\n"
            "  profile freq in ?program|noosa?        likewise for the frequency profile\n"
            "                                         (program, the default: each event's\n"
            "                                         record says where its thread is)\n"
            "  profile show freq|time ?OPTION ...?    print (also: profile freq show ...)\n"
            "  profile get freq|time ?OPTION ...?     the rows as a list of dicts\n"
            "  profile export folded FILE ?-time|-calls|-events? ?-thread TID?\n"
            "                                         folded stacks (flamegraph.pl,\n"
            "                                         speedscope)\n"
            "  profile export chrome FILE             the timeline as Chrome trace-event\n"
            "                                         JSON (Perfetto, chrome://tracing)\n"
            "  profile timeline ?N?                   the last N enters and leaves kept for\n"
            "                                         export chrome (from their records: the\n"
            "                                         time profile is then kept in noosa;\n"
            "                                         0: none)\n"
            "  profile print ?on|off?                 print the profiles that are on when\n"
            "                                         the program ends (default on)\n"
            "  profile threads                        the thread ids of the time profile\n"
            "View options:\n"
            "  -tree | -flat        by component stack (freq default) or by component\n"
            "                       (time default)\n"
            "  -sort count|calls|self|total|name\n"
            "  -thread TID|all      one thread of the time profile (default: all merged)\n"
            "  -pid PID             the threads of one process of the time profile\n"
            "  -event EVENT         one event of the frequency profile\n"
            "  -calls               only the calls of the frequency profile\n"
            "  -limit N             at most N rows (per event for the frequency profile)\n"
            "Times are in seconds; self time is spent in the component itself, total\n"
            "time includes the components it called (counted once under recursion in\n"
            "the flat view).",
     .complete = COMMAND_COMPLETE_SUBCOMMAND,
     .subcommands = (const char *const[]){
         "freq on off reset show get in", "time on off reset show get in",
         "show freq time", "get freq time", "export folded chrome",
         "timeline", "threads", "print on off", NULL},
     .proc = cmd_profile},
    {0}};

void cmd_profile_init(struct interp *in)
{
    command_register(in, commands, in->profile);
}
