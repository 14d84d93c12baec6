/* SPDX-License-Identifier: MIT */
/*
 * cmd-data.c - the program's C data at a stop: print (p) with gdb's
 * formats, whatis, ptype, display and undisplay (expressions shown again
 * at every stop, in the screen's display window or the transcript),
 * and for scripts n_cvalue (a value as a Tcl dict or list) and n_ctype.
 * Values printed are browsable in the transcript (cbrowse.h).  The
 * evaluation itself is the debug layer's (src/debug/debug.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cbrowse.h"
#include "command.h"
#include "cprint.h"
#include "ctypes.h"
#include "debug.h"
#include "display.h"
#include "interp.h"
#include "noosa.h"
#include "xmalloc.h"

/* "/FMT" at OBJV[*I]: the format letter (0 when there is none), or -1
 * with the message in the interpreter. */
static int format_of(Tcl_Interp *tcl, int objc, Tcl_Obj *const objv[], int *i)
{
    const char *a;

    if (*i >= objc)
        return 0;
    a = Tcl_GetString(objv[*i]);
    if (a[0] != '/')
        return 0;
    (*i)++;
    if (strlen(a) != 2 || !cprint_format_ok(a[1])) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
            "Undefined output format \"%s\" (print takes /x /d /u /o /t /c "
            "/a /z or /s)",
            a + 1));
        return -1;
    }
    return a[1];
}

/* The words OBJV[I..] joined by spaces (an expression as typed). */
static char *joined(int objc, Tcl_Obj *const objv[], int i)
{
    Tcl_Obj *j = Tcl_NewObj();
    char *s;

    Tcl_IncrRefCount(j);
    for (int k = i; k < objc; k++) {
        if (k > i)
            Tcl_AppendToObj(j, " ", 1);
        Tcl_AppendObjToObj(j, objv[k]);
    }
    s = xstrdup(Tcl_GetString(j));
    Tcl_DecrRefCount(j);
    return s;
}

static int fail(Tcl_Interp *tcl, char *cause)
{
    Tcl_SetObjResult(tcl, Tcl_NewStringObj(cause, -1));
    free(cause);
    return TCL_ERROR;
}

/* print ?/FMT? ?EXPR? */
static int cmd_print(ClientData cd, Tcl_Interp *tcl, int objc,
                     Tcl_Obj *const objv[])
{
    struct interp *in = cd;
    struct debug *g = in->noosa->debug;
    struct cprint_opts o;
    struct cvalue *v;
    char *expr, *cause = NULL, *text, *name;
    int i = 1, fmt;
    long n;

    cprint_defaults(&o);
    if ((fmt = format_of(tcl, objc, objv, &i)) < 0)
        return TCL_ERROR;
    o.format = (char)fmt;
    expr = i < objc ? joined(objc, objv, i) : xstrdup("$");
    if (debug_eval(g, expr, &v, &cause) != 0) {
        free(expr);
        return fail(tcl, cause);
    }
    free(expr);
    text = cprint_top(v, &o, &cause);
    if (text == NULL) {
        cvalue_free(v);
        return fail(tcl, cause);
    }
    n = debug_record(g, v);
    sink_fresh_line(&in->noosa->sink);
    interp_sayf(in, "$%ld = ", n);
    name = xasprintf("$%ld", n);
    cbrowse_say(in->cbrowse, v, name, text);
    interp_say(in, "\n");
    free(name);
    free(text);
    cvalue_free(v);
    return TCL_OK;
}

/* whatis EXPR|TYPE, ptype EXPR|TYPE */
static int type_command(struct interp *in, int objc, Tcl_Obj *const objv[],
                        int full)
{
    struct debug *g = in->noosa->debug;
    struct ctype *t;
    char *text, *cause = NULL, *expr;

    if (objc < 2) {
        Tcl_SetObjResult(in->tcl, Tcl_ObjPrintf(
            "wrong # args: should be \"%s EXPRESSION\"",
            full ? "ptype" : "whatis"));
        return TCL_ERROR;
    }
    expr = joined(objc, objv, 1);
    if (debug_type(g, expr, &t, &cause) != 0) {
        free(expr);
        return fail(in->tcl, cause);
    }
    free(expr);
    if (full) {
        text = ctype_ptype(t);
    } else {
        /* whatis of a typedef's name unrolls that one typedef */
        text = ctype_name(t);
    }
    sink_fresh_line(&in->noosa->sink);
    interp_sayf(in, "type = %s\n", text);
    free(text);
    return TCL_OK;
}

static int cmd_whatis(ClientData cd, Tcl_Interp *tcl, int objc,
                      Tcl_Obj *const objv[])
{
    (void)tcl;
    return type_command(cd, objc, objv, 0);
}

static int cmd_ptype(ClientData cd, Tcl_Interp *tcl, int objc,
                     Tcl_Obj *const objv[])
{
    (void)tcl;
    return type_command(cd, objc, objv, 1);
}

/* N in unsigned decimal (Tcl_ObjPrintf has no %llu). */
static Tcl_Obj *unsigned_obj(uint64_t n)
{
    char buf[32];

    snprintf(buf, sizeof buf, "%llu", (unsigned long long)n);
    return Tcl_NewStringObj(buf, -1);
}

/* V as a Tcl value: a dict for a struct or union (an anonymous member's
 * members are its own), a list for an array (a string for an array of
 * chars, up to its NUL), an integer or a double, an enum by name, a
 * pointer as its address in unsigned decimal; "<optimized out>" where
 * nothing was kept.  NULL with *cause when V cannot be read. */
static Tcl_Obj *to_tcl(struct cvalue *v, char **cause)
{
    struct ctype *t = ctype_strip(v->type);
    Tcl_Obj *o;
    int64_t x;

    if (cvalue_fetch(v) != 0 && !cvalue_all_optout(v)) {
        xcause(cause, "%s", v->error);
        return NULL;
    }
    if (cvalue_all_optout(v))
        return Tcl_NewStringObj("<optimized out>", -1);
    switch (t->kind) {
    case CT_STRUCT:
    case CT_UNION:
        o = Tcl_NewDictObj();
        if (ctype_complete(t) != 0)
            return o;
        for (unsigned int i = 0; i < t->nmembers; i++) {
            const struct cmember *m = &t->members[i];
            struct cvalue *mv = cvalue_member(v, m, m->offset);
            Tcl_Obj *mo = to_tcl(mv, cause);

            cvalue_free(mv);
            if (mo == NULL) {
                Tcl_IncrRefCount(o);
                Tcl_DecrRefCount(o);
                return NULL;
            }
            if (m->name != NULL) {
                Tcl_DictObjPut(NULL, o, Tcl_NewStringObj(m->name, -1), mo);
            } else {
                Tcl_DictSearch s;
                Tcl_Obj *k, *val;
                int done;

                Tcl_IncrRefCount(mo);
                Tcl_DictObjFirst(NULL, mo, &s, &k, &val, &done);
                for (; !done; Tcl_DictObjNext(&s, &k, &val, &done))
                    Tcl_DictObjPut(NULL, o, k, val);
                Tcl_DictObjDone(&s);
                Tcl_DecrRefCount(mo);
            }
        }
        return o;
    case CT_ARRAY: {
        struct ctype *e = ctype_strip(t->target);

        if (!t->count_known)
            return unsigned_obj(v->addr);
        if ((e->kind == CT_CHAR || (e->kind == CT_INT && e->size == 1)) &&
            cvalue_available(v, 0, v->size)) {
            size_t len = strnlen((const char *)v->bytes, (size_t)t->count);

            return Tcl_NewStringObj((const char *)v->bytes, (int)len);
        }
        o = Tcl_NewListObj(0, NULL);
        for (uint64_t i = 0; i < t->count; i++) {
            struct cvalue *ev = cvalue_element(v, (int64_t)i);
            Tcl_Obj *eo = ev != NULL ? to_tcl(ev, cause) : NULL;

            cvalue_free(ev);
            if (eo == NULL) {
                Tcl_IncrRefCount(o);
                Tcl_DecrRefCount(o);
                return NULL;
            }
            Tcl_ListObjAppendElement(NULL, o, eo);
        }
        return o;
    }
    case CT_FLOAT:
        if (!cvalue_available(v, 0, v->size))
            return Tcl_NewStringObj("<optimized out>", -1);
        return Tcl_NewDoubleObj(cvalue_as_double(v));
    case CT_PTR:
    case CT_FUNC:
        if (!cvalue_available(v, 0, v->size))
            return Tcl_NewStringObj("<optimized out>", -1);
        return unsigned_obj(t->kind == CT_FUNC ? v->addr
                                               : cvalue_as_uint(v));
    case CT_VOID:
        return Tcl_NewObj();
    default:
        if (!cvalue_available(v, 0, v->size))
            return Tcl_NewStringObj("<optimized out>", -1);
        cvalue_as_int(v, &x);
        if (t->kind == CT_ENUM) {
            const char *name = ctype_enum_name(t, x);

            if (name != NULL)
                return Tcl_NewStringObj(name, -1);
        }
        if (!t->is_signed && x < 0)
            return unsigned_obj((uint64_t)x);
        return Tcl_NewWideIntObj((Tcl_WideInt)x);
    }
}

/* n_cvalue ?-frame N? EXPR */
static int cmd_n_cvalue(ClientData cd, Tcl_Interp *tcl, int objc,
                        Tcl_Obj *const objv[])
{
    struct interp *in = cd;
    struct debug *g = in->noosa->debug;
    struct cvalue *v;
    Tcl_Obj *o;
    char *expr, *cause = NULL;
    int i = 1, rc;
    int frame = -1;

    if (objc >= 3 && strcmp(Tcl_GetString(objv[1]), "-frame") == 0) {
        if (Tcl_GetIntFromObj(NULL, objv[2], &frame) != TCL_OK || frame < 0) {
            Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
                "n_cvalue: -frame wants a frame number, got \"%s\"",
                Tcl_GetString(objv[2])));
            return TCL_ERROR;
        }
        i = 3;
    }
    if (i >= objc) {
        Tcl_WrongNumArgs(tcl, 1, objv, "?-frame N? EXPRESSION");
        return TCL_ERROR;
    }
    expr = joined(objc, objv, i);
    rc = frame >= 0 ? debug_eval_at(g, (unsigned int)frame, expr, &v, &cause)
                    : debug_eval(g, expr, &v, &cause);
    free(expr);
    if (rc != 0) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf("n_cvalue: %s", cause));
        free(cause);
        return TCL_ERROR;
    }
    o = to_tcl(v, &cause);
    cvalue_free(v);
    if (o == NULL) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf("n_cvalue: %s", cause));
        free(cause);
        return TCL_ERROR;
    }
    Tcl_SetObjResult(tcl, o);
    return TCL_OK;
}

/* n_ctype EXPR */
static int cmd_n_ctype(ClientData cd, Tcl_Interp *tcl, int objc,
                       Tcl_Obj *const objv[])
{
    struct interp *in = cd;
    struct ctype *t;
    char *expr, *cause = NULL, *name;

    if (objc < 2) {
        Tcl_WrongNumArgs(tcl, 1, objv, "EXPRESSION");
        return TCL_ERROR;
    }
    expr = joined(objc, objv, 1);
    if (debug_type(in->noosa->debug, expr, &t, &cause) != 0) {
        free(expr);
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf("n_ctype: %s", cause));
        free(cause);
        return TCL_ERROR;
    }
    free(expr);
    name = ctype_name(t);
    Tcl_SetObjResult(tcl, Tcl_NewStringObj(name, -1));
    free(name);
    return TCL_OK;
}

/* display ?/FMT? ?EXPR? */
static int cmd_display(ClientData cd, Tcl_Interp *tcl, int objc,
                       Tcl_Obj *const objv[])
{
    struct interp *in = cd;
    int i = 1, fmt;
    char *expr;

    if ((fmt = format_of(tcl, objc, objv, &i)) < 0)
        return TCL_ERROR;
    if (i >= objc) {
        display_show(in, 1);
        return TCL_OK;
    }
    expr = joined(objc, objv, i);
    display_add(in, expr, (char)fmt);
    free(expr);
    return TCL_OK;
}

/* undisplay ?N ...? */
static int cmd_undisplay(ClientData cd, Tcl_Interp *tcl, int objc,
                         Tcl_Obj *const objv[])
{
    struct interp *in = cd;

    if (objc == 1) {
        /* every display: typed at the screen's prompt, asked first, as
         * gdb does (and as delete does) */
        if (in->ndisplays == 0 ||
            !interp_confirm(in, "Delete all auto-display expressions?",
                            "::noosa::cmd::undisplay"))
            display_clear(in);
        return TCL_OK;
    }
    for (int i = 1; i < objc; i++) {
        int n;

        if (Tcl_GetIntFromObj(NULL, objv[i], &n) != TCL_OK || n <= 0) {
            Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
                "undisplay: expected a display number, got \"%s\"",
                Tcl_GetString(objv[i])));
            return TCL_ERROR;
        }
        if (display_delete(in, (unsigned int)n) != 0) {
            Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
                "undisplay: no display number %d (see \"info display\")", n));
            return TCL_ERROR;
        }
    }
    return TCL_OK;
}

static const struct command commands[] = {
    {.name = "print",
     .aliases = (const char *const[]){"p", "inspect", NULL},
     .max_args = -1,
     .usage = "print ?/FMT? EXPRESSION",
     .summary = "show a C expression's value, as gdb prints it",
     .help = "Evaluate a C expression in the program stopped (its memory and registers,\n"
            "from its debug information) and show its value as gdb does, as $N: the\n"
            "parameters of the event stopped at, the locals and arguments of the\n"
            "selected frame (see frame, up, down), globals and statics; . -> * & []\n"
            "casts, arithmetic, comparisons, sizeof, gdb's ARRAY@COUNT and {TYPE}\n"
            "ADDRESS, $pc $sp and registers, and the value history $ $N $$ $$N.\n"
            "FMT: x hex, d decimal, u unsigned, o octal, t binary, c char, a address,\n"
            "z zero-padded hex, s string.  At the command line the expression is\n"
            "taken as typed (print/x a[i]); in Tcl code, give it as one word\n"
            "(print /x {a[i]}).  The value is browsable: open it to see a struct's\n"
            "members or follow a pointer.  print never changes the program and never\n"
            "calls its functions.",
     .complete = COMMAND_COMPLETE_NONE,
     .flags = COMMAND_RAW | COMMAND_GDB_ERRORS,
     .proc = cmd_print},
    {.name = "whatis",
     .max_args = -1,
     .usage = "whatis EXPRESSION|TYPE",
     .summary = "the type of an expression",
     .help = "Show the type of a C expression (not evaluating more than it must), or\n"
            "the type a type name stands for, as gdb does.",
     .complete = COMMAND_COMPLETE_NONE,
     .flags = COMMAND_RAW | COMMAND_GDB_ERRORS,
     .proc = cmd_whatis},
    {.name = "ptype",
     .max_args = -1,
     .usage = "ptype EXPRESSION|TYPE",
     .summary = "a type spelt out, its members and all",
     .help = "Show the type of an expression, or a type, with a struct's, union's or\n"
            "enum's definition spelt out, as gdb does.",
     .complete = COMMAND_COMPLETE_NONE,
     .flags = COMMAND_RAW | COMMAND_GDB_ERRORS,
     .proc = cmd_ptype},
    {.name = "display",
     .max_args = -1,
     .usage = "display ?/FMT? ?EXPRESSION?",
     .summary = "show an expression at every stop",
     .help = "Show EXPRESSION (as print does, with FMT) now and again at every stop:\n"
            "on the screen in the display window, in batch mode in the transcript as\n"
            "gdb does (\"1: x = 5\").  Without EXPRESSION, show them all now.  See\n"
            "undisplay and info display.",
     .complete = COMMAND_COMPLETE_NONE,
     .flags = COMMAND_RAW | COMMAND_GDB_ERRORS,
     .proc = cmd_display},
    {.name = "undisplay",
     .max_args = -1,
     .usage = "undisplay ?N ...?",
     .summary = "stop showing expressions at every stop",
     .help = "Forget display N ... (see info display), or all of them (typed at\n"
            "the screen's prompt, after asking).",
     .complete = COMMAND_COMPLETE_NONE,
     .proc = cmd_undisplay},
    {.name = "n_cvalue",
     .min_args = 1,
     .max_args = -1,
     .usage = "n_cvalue ?-frame N? EXPRESSION",
     .summary = "a C expression's value as a Tcl value",
     .help = "The value of a C expression in the program stopped, as Tcl data: a dict\n"
            "for a struct or union, a list for an array, a string for a char array,\n"
            "an enum by name, a pointer as its address (unsigned decimal), numbers as\n"
            "numbers, \"<optimized out>\" where nothing was kept.  Pointers are not\n"
            "followed: ask for *p or p->field.  In a handler it makes the program wait\n"
            "at the event (as n_send does).",
     .complete = COMMAND_COMPLETE_NONE,
     .flags = COMMAND_API,
     .proc = cmd_n_cvalue},
    {.name = "n_ctype",
     .min_args = 1,
     .max_args = -1,
     .usage = "n_ctype EXPRESSION",
     .summary = "a C expression's type name",
     .help = "The name of the type of a C expression, as whatis shows it.",
     .complete = COMMAND_COMPLETE_NONE,
     .flags = COMMAND_API,
     .proc = cmd_n_ctype},
    {0}};

void cmd_data_init(struct interp *in)
{
    in->cbrowse = cbrowse_create(in);
    command_register(in, commands, in);
}

void cmd_data_free(struct interp *in)
{
    cbrowse_free(in->cbrowse);
    in->cbrowse = NULL;
    display_clear(in);
}
