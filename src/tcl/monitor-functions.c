/* SPDX-License-Identifier: MIT */
/*
 * monitor-functions.c - the `functions` command: the monitor's side of
 * automatic instrumentation (programs compiled with -finstrument-functions
 * and linked with libdapto, lib/runtime/instrument.c).
 *
 *     functions                      functions seen in this run, excluded
 *                                    ones, and the exclusion patterns
 *     functions exclude PATTERN ...  deliver no entry or exit of the
 *                                    functions whose names match PATTERN
 *                                    (glob) to any monitor, handler or
 *                                    profile
 *     functions include PATTERN ...  drop those patterns again
 *
 * Excluding here costs the program the same as before (it still sends the
 * records); excluding at compile time (-finstrument-functions-exclude-
 * file-list, -finstrument-functions-exclude-function-list, the
 * no_instrument_function attribute) makes those functions free.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "interp.h"
#include "command.h"
#include "monitor.h"
#include "symnames.h"

static int cmd_functions(ClientData cd, Tcl_Interp *tcl, int objc,
                         Tcl_Obj *const objv[])
{
    struct interp *in = cd;
    struct symnames *sn = dispatch_symnames(in->dispatch);
    const char *sub;
    unsigned int i;
    size_t seen, excluded;
    int add;

    if (objc == 1) {
        seen = symnames_count(sn, &excluded);
        interp_sayf(in, "%zu function%s seen in this run, %zu excluded\n",
                    seen, seen == 1 ? "" : "s", excluded);
        if (symnames_npatterns(sn) == 0)
            interp_say(in, "no exclusion patterns\n");
        for (i = 0; i < symnames_npatterns(sn); i++)
            interp_sayf(in, "exclude %s\n", symnames_pattern(sn, i));
        return TCL_OK;
    }
    sub = Tcl_GetString(objv[1]);
    if (strcmp(sub, "exclude") == 0)
        add = 1;
    else if (strcmp(sub, "include") == 0)
        add = 0;
    else {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
            "functions: unknown subcommand \"%s\": should be exclude or "
            "include", sub));
        return TCL_ERROR;
    }
    if (objc < 3) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
            "wrong # args: should be \"functions %s PATTERN ?PATTERN ...?\"",
            sub));
        return TCL_ERROR;
    }
    for (i = 2; i < (unsigned int)objc; i++) {
        const char *pattern = Tcl_GetString(objv[i]);

        if (*pattern == '\0') {
            Tcl_SetObjResult(tcl, Tcl_NewStringObj(
                "functions: an empty pattern", -1));
            return TCL_ERROR;
        }
        if (symnames_exclude(sn, pattern, add) != 0) {
            Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
                "functions include: \"%s\" is not excluded", pattern));
            return TCL_ERROR;
        }
    }
    return TCL_OK;
}

static const struct command commands[] = {
    {.name = "functions",
     .max_args = -1,
     .usage = "functions ?exclude|include PATTERN ...?",
     .summary = "functions of auto-instrumented programs",
     .help = "A program compiled with -finstrument-functions and linked with libdapto\n"
            "reports the entry and exit of each function as the events enter and leave\n"
            "(name = the function), so the profiles, the trace, handlers and monitors\n"
            "see them with no change to its source.\n"
            "  functions                      functions seen in this run, exclusions\n"
            "  functions exclude PATTERN ...  ignore the functions whose names match\n"
            "                                 (glob patterns, as string match)\n"
            "  functions include PATTERN ...  stop ignoring them\n"
            "Excluded functions still cost the program a record each; exclude them at\n"
            "compile time to make them free: -finstrument-functions-exclude-file-list=\n"
            "FILE,..., -finstrument-functions-exclude-function-list=NAME,..., or\n"
            "__attribute__((no_instrument_function)).",
     .complete = COMMAND_COMPLETE_SUBCOMMAND,
     .subcommands = (const char *const[]){"exclude", "include", NULL},
     .proc = cmd_functions},
    {0}};

void monitor_functions_init(struct interp *in)
{
    command_register(in, commands, in);
}
