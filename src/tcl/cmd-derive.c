/* SPDX-License-Identifier: MIT */
/*
 * cmd-derive.c - the `derive` command: derived events
 * (src/profile/relate.h, <design#relations>).
 *
 *     derive NAME A -contains B ?-if COND?
 *     derive NAME A -calls B
 *     derive NAME A -before B ?-within C?
 *     derive ?list?
 *     derive delete NAME ...|-all
 *
 * The condition on B must run in the program: one that cannot is
 * refused with the reason, as a question's is.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "cond-tcl.h"
#include "interp.h"
#include "protocol.h"
#include "relate.h"

static int fail(Tcl_Interp *tcl, Tcl_Obj *msg)
{
    Tcl_SetObjResult(tcl, msg);
    return TCL_ERROR;
}

static int list(struct interp *in)
{
    unsigned int i;

    if (relations_nderived(in->relations) == 0) {
        interp_say(in, "No derived events.\n");
        return TCL_OK;
    }
    for (i = 0; i < relations_nderived(in->relations); i++) {
        const char *name = relations_derived_name(in->relations, i);
        char *desc = relations_describe(in->relations, name);
        char *where = relations_where(in->relations, name);

        interp_sayf(in, "%-12s %s\n             %s\n", name, desc, where);
        free(desc);
        free(where);
    }
    return TCL_OK;
}

static int delete(struct interp *in, int objc, Tcl_Obj *const objv[])
{
    Tcl_Interp *tcl = in->tcl;
    char *cause = NULL;
    int j;

    if (objc < 3)
        return fail(tcl, Tcl_NewStringObj(
            "wrong # args: should be \"derive delete NAME ...|-all\"", -1));
    if (objc == 3 && strcmp(Tcl_GetString(objv[2]), "-all") == 0) {
        /* the last first: an earlier one may be a part of a later one */
        while (relations_nderived(in->relations) > 0) {
            const char *name = relations_derived_name(
                in->relations, relations_nderived(in->relations) - 1);

            if (relations_underive(in->relations, name, &cause) != 0)
                break;
        }
    } else {
        for (j = 2; j < objc && cause == NULL; j++)
            (void)relations_underive(in->relations, Tcl_GetString(objv[j]), &cause);
    }
    if (cause != NULL) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf("derive delete: %s", cause));
        free(cause);
        return TCL_ERROR;
    }
    return TCL_OK;
}

static int define(struct interp *in, int objc, Tcl_Obj *const objv[])
{
    static const char *const rels[] = {"-contains", "-calls", "-before", NULL};
    static const enum derive_kind kinds[] = {DERIVE_CONTAINS, DERIVE_CALLS, DERIVE_BEFORE};
    Tcl_Interp *tcl = in->tcl;
    struct derive_spec spec;
    unsigned char prog[DAPTO_FILTER_MAX];
    struct registry *reg = session_registry(in->session);
    const struct registry_event *b;
    char *cause = NULL;
    int rel, j, len;

    memset(&spec, 0, sizeof spec);
    spec.name = Tcl_GetString(objv[1]);
    spec.a = Tcl_GetString(objv[2]);
    spec.b = Tcl_GetString(objv[4]);
    if (spec.name[0] == '\0' || spec.name[0] == '-' || strchr(spec.name, '.') != NULL ||
        strpbrk(spec.name, " \t\n:") != NULL)
        return fail(tcl, Tcl_ObjPrintf("derive: bad name \"%s\": a word without "
                                       "blanks, dots or colons, not beginning with -",
                                       spec.name));
    if (Tcl_GetIndexFromObj(NULL, objv[3], rels, "relation", 0, &rel) != TCL_OK)
        return fail(tcl, Tcl_ObjPrintf("derive: unknown relation \"%s\": should be "
                                       "-contains, -calls or -before",
                                       Tcl_GetString(objv[3])));
    spec.kind = kinds[rel];
    if (spec.a[0] == '\0' || spec.b[0] == '\0')
        return fail(tcl, Tcl_NewStringObj("derive: a part is empty", -1));
    for (j = 5; j < objc; j += 2) {
        const char *opt = Tcl_GetString(objv[j]);

        if (j + 1 == objc)
            return fail(tcl, Tcl_ObjPrintf("derive: %s needs a value", opt));
        if (strcmp(opt, "-if") == 0 && spec.kind == DERIVE_CONTAINS && spec.cond == NULL) {
            spec.cond = Tcl_GetString(objv[j + 1]);
        } else if (strcmp(opt, "-within") == 0 && spec.kind == DERIVE_BEFORE &&
                   spec.c == NULL) {
            spec.c = Tcl_GetString(objv[j + 1]);
            if (spec.c[0] == '\0')
                return fail(tcl, Tcl_NewStringObj("derive: -within needs a component", -1));
        } else {
            return fail(tcl, Tcl_ObjPrintf(
                "derive: unexpected \"%s\": -contains takes -if COND, -before takes "
                "-within COMPONENT, -calls nothing more", opt));
        }
    }
    if (spec.cond != NULL) {
        b = reg != NULL ? registry_event_by_name(reg, spec.b) : NULL;
        if (b == NULL)
            return fail(tcl, Tcl_ObjPrintf(
                "derive %s: -if is a condition on B's parameters, and %s is no event "
                "of the program", spec.name, spec.b));
        len = cond_tcl_compile(tcl, spec.cond, b, prog, sizeof prog, &cause);
        if (len < 0) {
            Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
                "derive %s: the condition cannot run in the program: %s", spec.name,
                cause));
            free(cause);
            return TCL_ERROR;
        }
        spec.prog = prog;
        spec.prog_len = (size_t)len;
    }
    if (relations_derive(in->relations, &spec, reg, &cause) != 0) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf("derive %s: %s", spec.name, cause));
        free(cause);
        return TCL_ERROR;
    }
    /* (the n(...) array names it once the interface has it) */
    interp_interface_changed(in);
    return TCL_OK;
}

static int cmd_derive(ClientData cd, Tcl_Interp *tcl, int objc, Tcl_Obj *const objv[])
{
    struct interp *in = cd;
    const char *sub = objc > 1 ? Tcl_GetString(objv[1]) : "list";

    if (objc <= 2 && strcmp(sub, "list") == 0)
        return list(in);
    if (strcmp(sub, "delete") == 0 && objc < 5)
        return delete(in, objc, objv);
    if (objc < 5)
        return fail(tcl, Tcl_NewStringObj(
            "wrong # args: should be \"derive NAME A -contains|-calls|-before B "
            "?OPTION VALUE?\", \"derive list\" or \"derive delete NAME ...|-all\"", -1));
    return define(in, objc, objv);
}

static const struct command commands[] = {
    {.name = "derive",
     .max_args = -1,
     .usage = "derive ?NAME A -contains|-calls|-before B ?OPTION VALUE?|list|delete NAME ...?",
     .summary = "events derived from relations between events",
     .help = "A derived event is detected by the program as it runs and is an event\n"
            "of its own: break, handler add, trace, question add and recordings take\n"
            "it like any other (info events lists it).\n"
            "  derive NAME A -contains B ?-if COND?\n"
            "      at the end of each execution of component A during which B happened\n"
            "      on the same thread (B an event, where COND holds, or an execution of\n"
            "      a component); its parameters: a_ns (A's duration), b_count (B's\n"
            "      in it), then the first B's\n"
            "  derive NAME A -calls B\n"
            "      the same for a B directly inside A (A the innermost component)\n"
            "  derive NAME A -before B ?-within C?\n"
            "      at each B preceded on the same thread by an A (an event, or the\n"
            "      end of an execution of a component), with -within in an execution\n"
            "      of component C holding both; its parameters: gap_ns (ns from the\n"
            "      last A), then the A's, then the B's\n"
            "  derive ?list?              the derived events and what the program\n"
            "                             checked and recorded of each\n"
            "  derive delete NAME ...|-all\n"
            "A part named like an event of the program is that event; any other name\n"
            "is a component (a named component, or a function of a\n"
            "-finstrument-functions build).  A parameter whose name is taken by\n"
            "another part's gets its event's name before it: tick_i.",
     .complete = COMMAND_COMPLETE_EVENT,
     .proc = cmd_derive},
    {0}};

void cmd_derive_init(struct interp *in)
{
    command_register(in, commands, in);
}
