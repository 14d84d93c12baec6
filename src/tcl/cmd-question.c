/* SPDX-License-Identifier: MIT */
/*
 * cmd-question.c - the `question` command: questions answered in the
 * program (src/profile/question.h).
 *
 *     question add NAME EVENT ?VALUE? ?-by KEYS? ?-if COND? ?-from EVENT?
 *                  ?-hist? ?-keys N? ?-within|-outside COMPONENT?
 *     question list
 *     question show ?NAME ...? ?-sort count|key|sum|max|avg? ?-limit N?
 *     question get NAME            the groups as a list of dicts
 *     question export NAME FILE    CSV
 *     question reset ?NAME ...?
 *     question delete NAME ...|-all
 *     question print ?on|off?      print the answers when the program ends
 *     question window ?on|off|-from EVENT -to EVENT?
 *                                  the measurement window
 *
 * VALUE is count (the default), a parameter of EVENT, or duration (from
 * -from EVENT to EVENT on the same thread, or from enter to leave of the
 * same component when EVENT is leave).  The condition must run in the
 * program: one that cannot is refused with the reason.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "cond-tcl.h"
#include "guard.h"
#include "interp.h"
#include "protocol.h"
#include "question.h"
#include "xmalloc.h"

static int fail(Tcl_Interp *tcl, Tcl_Obj *msg)
{
    Tcl_SetObjResult(tcl, msg);
    return TCL_ERROR;
}

static int add(struct interp *in, int objc, Tcl_Obj *const objv[])
{
    Tcl_Interp *tcl = in->tcl;
    struct question_spec spec;
    const struct registry_event *ev;
    unsigned char prog[DAPTO_FILTER_MAX];
    Tcl_Obj **keys;
    char *cause = NULL;
    const char *value = NULL;
    int i, nkeys = 0, len, n, rc;

    if (objc < 4)
        return fail(tcl, Tcl_NewStringObj(
            "wrong # args: should be \"question add NAME EVENT ?VALUE? ?-by KEYS? "
            "?-if COND? ?-from EVENT? ?-hist? ?-keys N? ?-within|-outside COMPONENT?\"",
            -1));
    /* <design#questions>: the program counts them; a recording has no
     * program, so no answer, and no state for its checkpoints */
    if (session_replaying(in->session))
        return fail(tcl, Tcl_NewStringObj(
            "question add: not available in a recording: questions are "
            "counted by the live program (a handler counts the same from "
            "the recording's events)", -1));
    memset(&spec, 0, sizeof spec);
    spec.name = Tcl_GetString(objv[2]);
    spec.on = Tcl_GetString(objv[3]);
    if (spec.name[0] == '\0' || spec.name[0] == '-')
        return fail(tcl, Tcl_ObjPrintf("question: bad name \"%s\"", spec.name));
    if (questions_has(in->questions, spec.name))
        return fail(tcl, Tcl_ObjPrintf("question %s exists already", spec.name));
    if ((ev = interp_event(in, spec.on)) == NULL)
        return TCL_ERROR;
    i = 4;
    if (i < objc && Tcl_GetString(objv[i])[0] != '-')
        value = Tcl_GetString(objv[i++]);
    for (; i < objc; i++) {
        const char *opt = Tcl_GetString(objv[i]);

        if (strcmp(opt, "-hist") == 0) {
            spec.hist = 1;
            continue;
        }
        if (strcmp(opt, "-by") != 0 && strcmp(opt, "-if") != 0 &&
            strcmp(opt, "-from") != 0 && strcmp(opt, "-keys") != 0 &&
            strcmp(opt, "-within") != 0 && strcmp(opt, "-outside") != 0)
            return fail(tcl, Tcl_ObjPrintf(
                "question: unknown option \"%s\": should be -by, -if, -from, "
                "-hist, -keys, -within or -outside", opt));
        if (i + 1 == objc)
            return fail(tcl, Tcl_ObjPrintf("question: %s needs a value", opt));
        if (strcmp(opt, "-within") == 0 || strcmp(opt, "-outside") == 0) {
            if (spec.within != NULL)
                return fail(tcl, Tcl_NewStringObj(
                    "question: one -within or -outside at most", -1));
            spec.within = Tcl_GetString(objv[++i]);
            spec.outside = opt[1] == 'o';
            if (guard_within_check(tcl, "question", opt, spec.within) != TCL_OK)
                return TCL_ERROR;
            continue;
        }
        if (strcmp(opt, "-by") == 0) {
            if (Tcl_ListObjGetElements(tcl, objv[++i], &nkeys, &keys) != TCL_OK)
                return TCL_ERROR;
            if (nkeys > 2)
                return fail(tcl, Tcl_NewStringObj(
                    "question: -by takes at most two keys", -1));
        } else if (strcmp(opt, "-if") == 0) {
            spec.cond = Tcl_GetString(objv[++i]);
        } else if (strcmp(opt, "-from") == 0) {
            spec.from = Tcl_GetString(objv[++i]);
            if (interp_event(in, spec.from) == NULL)
                return TCL_ERROR;
        } else if (strcmp(opt, "-keys") == 0) {
            if (Tcl_GetIntFromObj(NULL, objv[++i], &n) != TCL_OK || n < 1 ||
                n > (1 << 20) || (n & (n - 1)) != 0)
                return fail(tcl, Tcl_ObjPrintf(
                    "question: bad -keys \"%s\": should be a power of two from 1 "
                    "to 1048576", Tcl_GetString(objv[i])));
            spec.entries = (uint32_t)n;
        }
    }
    spec.nkeys = (unsigned int)nkeys;
    for (n = 0; n < nkeys; n++) {
        const char *k = Tcl_GetString(keys[n]);

        if (strcmp(k, "thread") == 0 || strcmp(k, "n_thread") == 0) {
            spec.key[n].kind = QUESTION_KEY_THREAD;
        } else {
            spec.key[n].kind = QUESTION_KEY_PARAM;
            /* the component of enter and leave is their name */
            spec.key[n].param = strcmp(k, "component") == 0 ? "name" : k;
        }
    }
    if (value == NULL || strcmp(value, "count") == 0) {
        spec.value = QUESTION_COUNT;
    } else if (strcmp(value, "duration") == 0) {
        spec.value = QUESTION_DURATION;
    } else {
        spec.value = QUESTION_PARAM;
        spec.param = value;
    }
    if (spec.from != NULL && spec.value != QUESTION_DURATION)
        return fail(tcl, Tcl_NewStringObj(
            "question: -from is for a duration (VALUE duration)", -1));
    if (spec.hist && spec.value == QUESTION_COUNT)
        return fail(tcl, Tcl_NewStringObj(
            "question: -hist needs a value: a parameter or duration", -1));
    if (spec.cond != NULL) {
        len = cond_tcl_compile(tcl, spec.cond, ev, prog, sizeof prog, &cause);
        if (len < 0) {
            Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
                "question %s: the condition cannot run in the program: %s",
                spec.name, cause));
            free(cause);
            return TCL_ERROR;
        }
        spec.prog = prog;
        spec.prog_len = (size_t)len;
    }
    rc = questions_add(in->questions, &spec, session_registry(in->session), &cause);
    if (rc != 0) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf("question %s: %s", spec.name, cause));
        free(cause);
        return TCL_ERROR;
    }
    return TCL_OK;
}

static int list(struct interp *in)
{
    unsigned int i;

    if (questions_count(in->questions) == 0) {
        interp_say(in, "No questions.\n");
        return TCL_OK;
    }
    for (i = 0; i < questions_count(in->questions); i++) {
        const char *name = questions_name(in->questions, i);
        char *desc = questions_describe(in->questions, name);
        char *where = questions_where(in->questions, name);

        interp_sayf(in, "%-12s %s\n             %s\n", name, desc, where);
        free(desc);
        free(where);
    }
    return TCL_OK;
}

static int no_question(Tcl_Interp *tcl, const char *name)
{
    return fail(tcl, Tcl_ObjPrintf("no question \"%s\" (see \"question list\")", name));
}

static int show(struct interp *in, int objc, Tcl_Obj *const objv[])
{
    static const char *const sorts[] = {"count", "key", "sum", "max", "avg", NULL};
    static const enum question_sort sort_of[] = {
        QUESTION_SORT_COUNT, QUESTION_SORT_KEY, QUESTION_SORT_SUM,
        QUESTION_SORT_MAX, QUESTION_SORT_AVG};
    Tcl_Interp *tcl = in->tcl;
    enum question_sort sort = QUESTION_SORT_COUNT;
    const char *names[QUESTION_MAX];
    unsigned int nn = 0, i;
    int j, idx, limit = 0;

    for (j = 2; j < objc; j++) {
        const char *a = Tcl_GetString(objv[j]);

        if (strcmp(a, "-sort") == 0 && j + 1 < objc) {
            if (Tcl_GetIndexFromObj(tcl, objv[++j], sorts, "sort", 0, &idx) != TCL_OK)
                return TCL_ERROR;
            sort = sort_of[idx];
        } else if (strcmp(a, "-limit") == 0 && j + 1 < objc) {
            if (Tcl_GetIntFromObj(NULL, objv[++j], &limit) != TCL_OK || limit < 0)
                return fail(tcl, Tcl_ObjPrintf("question: bad -limit \"%s\"",
                                               Tcl_GetString(objv[j])));
        } else if (a[0] == '-') {
            return fail(tcl, Tcl_ObjPrintf("question show: unknown option \"%s\": "
                                           "should be -sort or -limit", a));
        } else {
            if (!questions_has(in->questions, a))
                return no_question(tcl, a);
            if (nn < QUESTION_MAX)
                names[nn++] = a;
        }
    }
    if (nn == 0) {
        for (i = 0; i < questions_count(in->questions) && i < QUESTION_MAX; i++)
            names[nn++] = questions_name(in->questions, i);
        if (nn == 0) {
            interp_say(in, "No questions.\n");
            return TCL_OK;
        }
    }
    for (i = 0; i < nn; i++) {
        struct question_answer a;
        char *cause = NULL, *desc, *text;

        if (questions_answer(in->questions, names[i], &a, &cause) != 0) {
            interp_sayf(in, "%s\n", cause);
            free(cause);
            continue;
        }
        question_sort(&a, sort);
        desc = questions_describe(in->questions, names[i]);
        text = question_format(&a, names[i], desc, (size_t)limit);
        interp_say(in, text);
        free(text);
        free(desc);
        question_answer_free(&a);
    }
    return TCL_OK;
}

static Tcl_Obj *number(const struct question_answer *a, int64_t i, double d)
{
    return a->is_double ? Tcl_NewDoubleObj(d) : Tcl_NewWideIntObj((Tcl_WideInt)i);
}

static int get(struct interp *in, const char *name)
{
    Tcl_Interp *tcl = in->tcl;
    struct question_answer a;
    Tcl_Obj *rows = Tcl_NewListObj(0, NULL);
    char *cause = NULL;
    size_t i;
    unsigned int k, b;

    if (questions_answer(in->questions, name, &a, &cause) != 0) {
        Tcl_SetObjResult(tcl, Tcl_NewStringObj(cause, -1));
        free(cause);
        Tcl_DecrRefCount(rows);
        return TCL_ERROR;
    }
    question_sort(&a, QUESTION_SORT_KEY);
    for (i = 0; i < a.nrows; i++) {
        const struct question_row *r = &a.rows[i];
        Tcl_Obj *d = Tcl_NewDictObj();

        for (k = 0; k < a.nkeys; k++)
            Tcl_DictObjPut(NULL, d, Tcl_NewStringObj(a.keyname[k], -1),
                           Tcl_NewStringObj(r->key[k] != NULL ? r->key[k] : "", -1));
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("count", -1),
                       Tcl_NewWideIntObj((Tcl_WideInt)r->count));
        if (a.value != QUESTION_COUNT) {
            Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("sum", -1), number(&a, r->sum, r->dsum));
            Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("min", -1), number(&a, r->min, r->dmin));
            Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("max", -1), number(&a, r->max, r->dmax));
        }
        if (a.hist) {
            Tcl_Obj *h = Tcl_NewListObj(0, NULL);

            for (b = 0; b < DAPTO_Q_HIST; b++) {
                if (r->hist[b] == 0)
                    continue;
                Tcl_ListObjAppendElement(NULL, h, Tcl_NewWideIntObj(
                                                      (Tcl_WideInt)question_bucket_low(b)));
                Tcl_ListObjAppendElement(NULL, h,
                                         Tcl_NewWideIntObj((Tcl_WideInt)r->hist[b]));
            }
            Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("hist", -1), h);
        }
        Tcl_ListObjAppendElement(NULL, rows, d);
    }
    question_answer_free(&a);
    Tcl_SetObjResult(tcl, rows);
    return TCL_OK;
}

static int export(struct interp *in, const char *name, const char *path)
{
    Tcl_Interp *tcl = in->tcl;
    struct question_answer a;
    char *cause = NULL;
    FILE *f;
    int rc, e;

    if (questions_answer(in->questions, name, &a, &cause) != 0) {
        Tcl_SetObjResult(tcl, Tcl_NewStringObj(cause, -1));
        free(cause);
        return TCL_ERROR;
    }
    question_sort(&a, QUESTION_SORT_KEY);
    f = fopen(path, "w");
    if (f == NULL) {
        e = errno;
        question_answer_free(&a);
        return fail(tcl, Tcl_ObjPrintf("question export: cannot write %s: %s", path,
                                       strerror(e)));
    }
    rc = question_csv(&a, f);
    e = errno;
    if (fclose(f) != 0 && rc == 0) {
        rc = -1;
        e = errno;
    }
    if (rc != 0) {
        question_answer_free(&a);
        return fail(tcl, Tcl_ObjPrintf("question export: cannot write %s: %s", path,
                                       strerror(e)));
    }
    /* (printed at the prompt) */
    Tcl_SetObjResult(tcl, Tcl_ObjPrintf("Wrote question %s to %s (CSV, %lu "
                                        "row%s).", name, path,
                                        (unsigned long)a.nrows,
                                        a.nrows == 1 ? "" : "s"));
    question_answer_free(&a);
    return TCL_OK;
}

/* question window ?on|off|-from EVENT -to EVENT? */
static int window(struct interp *in, int objc, Tcl_Obj *const objv[])
{
    Tcl_Interp *tcl = in->tcl;
    char *cause = NULL, *text;
    const char *from = NULL, *to = NULL;
    enum question_window w;
    int on, j;

    if (objc == 2) {
        text = questions_window_text(in->questions);
        Tcl_SetObjResult(tcl, Tcl_NewStringObj(text, -1));
        free(text);
        return TCL_OK;
    }
    if (objc == 3 && Tcl_GetBooleanFromObj(NULL, objv[2], &on) == TCL_OK) {
        w = on ? QUESTION_WINDOW_OPEN : QUESTION_WINDOW_CLOSED;
    } else {
        for (j = 2; j + 1 < objc; j += 2) {
            const char *opt = Tcl_GetString(objv[j]);

            if (strcmp(opt, "-from") == 0 && from == NULL)
                from = Tcl_GetString(objv[j + 1]);
            else if (strcmp(opt, "-to") == 0 && to == NULL)
                to = Tcl_GetString(objv[j + 1]);
            else
                break;
        }
        if (j != objc || from == NULL || to == NULL)
            return fail(tcl, Tcl_NewStringObj(
                "wrong # args: should be \"question window ?on|off|-from EVENT -to "
                "EVENT?\"", -1));
        if (interp_event(in, from) == NULL || interp_event(in, to) == NULL)
            return TCL_ERROR;
        w = QUESTION_WINDOW_EVENTS;
    }
    if (questions_window(in->questions, w, from, to, &cause) != 0) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf("question window: %s", cause));
        free(cause);
        return TCL_ERROR;
    }
    return TCL_OK;
}

static int cmd_question(ClientData cd, Tcl_Interp *tcl, int objc,
                        Tcl_Obj *const objv[])
{
    struct interp *in = cd;
    const char *sub;
    int j, on;

    if (objc < 2)
        return list(in);
    sub = Tcl_GetString(objv[1]);
    if (strcmp(sub, "add") == 0)
        return add(in, objc, objv);
    if (strcmp(sub, "list") == 0)
        return list(in);
    if (strcmp(sub, "show") == 0)
        return show(in, objc, objv);
    if (strcmp(sub, "get") == 0 || strcmp(sub, "export") == 0) {
        if (objc != (sub[0] == 'g' ? 3 : 4))
            return fail(tcl, Tcl_ObjPrintf("wrong # args: should be \"question %s\"",
                                           sub[0] == 'g' ? "get NAME" : "export NAME FILE"));
        if (!questions_has(in->questions, Tcl_GetString(objv[2])))
            return no_question(tcl, Tcl_GetString(objv[2]));
        return sub[0] == 'g' ? get(in, Tcl_GetString(objv[2]))
                             : export(in, Tcl_GetString(objv[2]), Tcl_GetString(objv[3]));
    }
    if (strcmp(sub, "reset") == 0) {
        if (objc == 2) {
            unsigned int i;

            for (i = 0; i < questions_count(in->questions); i++)
                questions_reset(in->questions, questions_name(in->questions, i));
            return TCL_OK;
        }
        for (j = 2; j < objc; j++)
            if (questions_reset(in->questions, Tcl_GetString(objv[j])) != 0)
                return no_question(tcl, Tcl_GetString(objv[j]));
        return TCL_OK;
    }
    if (strcmp(sub, "delete") == 0) {
        if (objc == 3 && strcmp(Tcl_GetString(objv[2]), "-all") == 0) {
            while (questions_count(in->questions) > 0)
                questions_delete(in->questions, questions_name(in->questions, 0));
            return TCL_OK;
        }
        if (objc < 3)
            return fail(tcl, Tcl_NewStringObj(
                "wrong # args: should be \"question delete NAME ...|-all\"", -1));
        for (j = 2; j < objc; j++)
            if (questions_delete(in->questions, Tcl_GetString(objv[j])) != 0)
                return no_question(tcl, Tcl_GetString(objv[j]));
        return TCL_OK;
    }
    if (strcmp(sub, "window") == 0)
        return window(in, objc, objv);
    if (strcmp(sub, "print") == 0) {
        if (objc == 2) {
            Tcl_SetObjResult(tcl, Tcl_NewBooleanObj(questions_print_at_end(in->questions)));
            return TCL_OK;
        }
        if (objc != 3 || Tcl_GetBooleanFromObj(NULL, objv[2], &on) != TCL_OK)
            return fail(tcl, Tcl_NewStringObj(
                "wrong # args: should be \"question print ?on|off?\"", -1));
        questions_set_print_at_end(in->questions, on);
        return TCL_OK;
    }
    return fail(tcl, Tcl_ObjPrintf("question: unknown subcommand \"%s\": should be add, "
                                   "list, show, get, export, reset, delete, print or "
                                   "window",
                                   sub));
}

static const struct command commands[] = {
    {.name = "question",
     .max_args = -1,
     .usage = "question ?add|list|show|get|export|reset|delete|print|window? ...",
     .summary = "aggregations answered inside the program",
     .help = "Questions the program answers itself: it counts each event into its\n"
            "own per-thread tables, and nothing crosses to noosa until asked.\n"
            "  question add NAME EVENT ?VALUE? ?OPTION ...?\n"
            "      VALUE: count (the default); a parameter of EVENT (int, long,\n"
            "      pointer or double: count, sum, min, max, avg); or duration,\n"
            "      from -from START to EVENT on the same thread, or from enter to\n"
            "      leave of the same component when EVENT is leave (in ns)\n"
            "      -by KEYS      group by up to two keys: parameters of EVENT\n"
            "                    (integers, pointers, strings), thread, component\n"
            "      -if COND      count only where COND holds; it must run in the\n"
            "                    program (parameters, n_thread, constants, ==, <,\n"
            "                    &&, ||, !, eq, string match)\n"
            "      -from START   the start event of a duration\n"
            "      -hist         a power-of-two histogram of the value\n"
            "      -keys N       groups a thread's table holds (default 256)\n"
            "      -within C     count only the events of a thread inside component C\n"
            "                    (a named component or a function: C on its stack)\n"
            "      -outside C    count only those of a thread not inside C\n"
            "  question list                  the questions and where they stand\n"
            "  question show ?NAME ...? ?-sort count|key|sum|max|avg? ?-limit N?\n"
            "  question get NAME              the groups as a list of dicts\n"
            "  question export NAME FILE      the groups as CSV\n"
            "  question reset ?NAME ...?      start counting again from nothing\n"
            "  question delete NAME ...|-all\n"
            "  question print ?on|off?        print the answers when the program ends\n"
            "                                 (default on)\n"
            "  question window ?on|off|-from EVENT -to EVENT?\n"
            "                                 the measurement window: questions count\n"
            "                                 only while it is open (on, the default);\n"
            "                                 -from/-to: each EVENT of -from opens it,\n"
            "                                 each of -to closes it (closed until the\n"
            "                                 first)\n"
            "Events whose key finds no room, durations whose start was not seen and\n"
            "groups read while their thread was updating them are counted and shown;\n"
            "question show says how many events the program checked for each question\n"
            "and how many it recorded (counted).",
     .complete = COMMAND_COMPLETE_SUBCOMMAND,
     .subcommands = (const char *const[]){
         "add", "list", "show", "get", "export", "reset", "delete",
         "print on off", "window on off -from", NULL},
     .flags = COMMAND_CONDITION,
     .proc = cmd_question},
    {0}};

void cmd_question_init(struct interp *in)
{
    command_register(in, commands, in);
}
