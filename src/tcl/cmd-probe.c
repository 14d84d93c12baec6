/* SPDX-License-Identifier: MIT */
/*
 * cmd-probe.c - the `probe` command: hints for USDT probes <design#probes>
 * (the names and kinds of a probe's arguments, and the component its
 * entry or exit stands for), which noosa's probes/ files and the user's
 * ~/.noosa/probes/ give with it too.
 *
 *     probe hint PROVIDER:NAME ARG ...    ARG: NAME, NAME:KIND, -, -:KIND
 *     probe string PROVIDER:NAME ARG      read argument ARG as a string
 *     probe component PROVIDER:NAME enter|leave FORMAT | none
 *     probe hints                         the hints, a line each
 *
 * KIND is int, long, ptr or str (a pointer read as a string); %{ARG} in
 * FORMAT stands for argument ARG's value.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "dapto.h"
#include "interp.h"
#include "probes.h"
#include "xmalloc.h"

static int fail(Tcl_Interp *tcl, Tcl_Obj *msg)
{
    Tcl_SetObjResult(tcl, msg);
    return TCL_ERROR;
}

/* Split "PROVIDER:NAME" (a copy, in *PROVIDER and *NAME). */
static int probe_name(Tcl_Interp *tcl, Tcl_Obj *obj, char **provider,
                      char **name)
{
    const char *s = Tcl_GetString(obj), *colon = strchr(s, ':');

    if (colon == NULL || colon == s || colon[1] == '\0' ||
        strchr(colon + 1, ':') != NULL)
        return fail(tcl, Tcl_ObjPrintf("probe: \"%s\" is not "
                                       "PROVIDER:NAME (python:gc__start)",
                                       s));
    *provider = xstrndup(s, (size_t)(colon - s));
    *name = xstrdup(colon + 1);
    return TCL_OK;
}

static unsigned char kind_of(const char *k)
{
    return strcmp(k, "int") == 0    ? DAPTO_K_INT
           : strcmp(k, "long") == 0 ? DAPTO_K_LONG
           : strcmp(k, "ptr") == 0  ? DAPTO_K_PTR
           : strcmp(k, "str") == 0  ? DAPTO_K_STR
                                    : 0;
}

/* The registry whose probe events a hint changes now (the current
 * process's), or NULL. */
static struct registry *registry_now(struct interp *in)
{
    return session_registry(in->session);
}

static int hint(struct interp *in, int objc, Tcl_Obj *const objv[])
{
    Tcl_Interp *tcl = in->tcl;
    const char *names[16];
    unsigned char kinds[16];
    char *provider, *name, *cause = NULL, *copies[16];
    int n = objc - 3, rc;

    if (n > 12)
        return fail(tcl, Tcl_NewStringObj("probe hint: a probe has at most "
                                          "12 arguments", -1));
    if (probe_name(tcl, objv[2], &provider, &name) != TCL_OK)
        return TCL_ERROR;
    for (int i = 0; i < n; i++) {
        const char *a = Tcl_GetString(objv[3 + i]), *colon = strchr(a, ':');

        copies[i] = xstrndup(a, colon != NULL ? (size_t)(colon - a)
                                              : strlen(a));
        names[i] = strcmp(copies[i], "-") == 0 ? NULL : copies[i];
        kinds[i] = colon != NULL ? kind_of(colon + 1) : 0;
        if (colon != NULL && kinds[i] == 0) {
            Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
                "probe hint: argument \"%s\": the kind is int, long, ptr "
                "or str", a));
            for (int k = 0; k <= i; k++)
                free(copies[k]);
            free(provider);
            free(name);
            return TCL_ERROR;
        }
    }
    rc = probe_hints_params(session_probe_hints(in->session), registry_now(in),
                            provider, name, (unsigned int)n, names, kinds,
                            &cause);
    for (int i = 0; i < n; i++)
        free(copies[i]);
    free(provider);
    free(name);
    if (rc != 0) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf("probe hint: %s", cause));
        free(cause);
        return TCL_ERROR;
    }
    dispatch_changed(in->dispatch);
    return TCL_OK;
}

/* `probe string PROVIDER:NAME ARG': ARG's kind becomes str, the other
 * arguments keep what the hint (or the event) says. */
static int string(struct interp *in, Tcl_Obj *const objv[])
{
    Tcl_Interp *tcl = in->tcl;
    const char *arg = Tcl_GetString(objv[3]);
    char *provider, *name, *cause = NULL;
    int rc;

    if (probe_name(tcl, objv[2], &provider, &name) != TCL_OK)
        return TCL_ERROR;
    rc = probe_hints_kind(session_probe_hints(in->session), registry_now(in),
                          provider, name, arg, DAPTO_K_STR, &cause);
    free(provider);
    free(name);
    if (rc != 0) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf("probe string: %s", cause));
        free(cause);
        return TCL_ERROR;
    }
    dispatch_changed(in->dispatch);
    return TCL_OK;
}

static int component(struct interp *in, int objc, Tcl_Obj *const objv[])
{
    Tcl_Interp *tcl = in->tcl;
    const char *what = Tcl_GetString(objv[3]);
    char *provider, *name, *cause = NULL;
    int role, rc;

    role = strcmp(what, "enter") == 0   ? REGISTRY_ROLE_ENTER
           : strcmp(what, "leave") == 0 ? REGISTRY_ROLE_LEAVE
           : strcmp(what, "none") == 0  ? 0
                                        : -1;
    if (role < 0 || (role != 0) != (objc == 5))
        return fail(tcl, Tcl_NewStringObj(
            "wrong # args: should be \"probe component PROVIDER:NAME "
            "enter|leave FORMAT\" or \"probe component PROVIDER:NAME none\"",
            -1));
    if (probe_name(tcl, objv[2], &provider, &name) != TCL_OK)
        return TCL_ERROR;
    rc = probe_hints_component(session_probe_hints(in->session),
                               registry_now(in), provider, name, role,
                               role != 0 ? Tcl_GetString(objv[4]) : NULL,
                               &cause);
    free(provider);
    free(name);
    if (rc != 0) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf("probe component: %s", cause));
        free(cause);
        return TCL_ERROR;
    }
    dispatch_changed(in->dispatch);
    return TCL_OK;
}

static int cmd_probe(ClientData cd, Tcl_Interp *tcl, int objc,
                     Tcl_Obj *const objv[])
{
    static const char *const subs[] = {"hint", "string", "component",
                                       "hints", NULL};
    enum { HINT, STRING, COMPONENT, HINTS };
    struct interp *in = cd;
    int sub;

    if (objc < 2) {
        Tcl_WrongNumArgs(tcl, 1, objv, "hint|string|component|hints ...");
        return TCL_ERROR;
    }
    if (Tcl_GetIndexFromObj(tcl, objv[1], subs, "subcommand", 0, &sub) !=
        TCL_OK)
        return TCL_ERROR;
    switch (sub) {
    case HINT:
        if (objc < 3)
            break;
        return hint(in, objc, objv);
    case STRING:
        if (objc != 4)
            break;
        return string(in, objv);
    case COMPONENT:
        if (objc != 4 && objc != 5)
            break;
        return component(in, objc, objv);
    case HINTS: {
        char *text;

        if (objc != 2)
            break;
        text = probe_hints_text(session_probe_hints(in->session));
        interp_say(in, text);
        free(text);
        return TCL_OK;
    }
    }
    return fail(tcl, Tcl_ObjPrintf(
        "wrong # args: should be \"probe %s\"",
        sub == HINT        ? "hint PROVIDER:NAME ARG ..."
        : sub == STRING    ? "string PROVIDER:NAME ARG"
        : sub == COMPONENT ? "component PROVIDER:NAME enter|leave FORMAT"
                           : "hints"));
}

static const struct command commands[] = {
    {.name = "probe",
     .min_args = 1,
     .max_args = -1,
     .usage = "probe hint|string|component|hints ...",
     .summary = "names and kinds of USDT probes' arguments",
     .help = "Hints for the program's USDT probes (info probes lists them):\n"
             "  probe hint PROVIDER:NAME ARG ...  name the arguments: NAME,\n"
             "      NAME:KIND (int, long, ptr, str: a pointer read as a\n"
             "      string), - (argN as it is) or -:KIND\n"
             "  probe string PROVIDER:NAME ARG     read argument ARG (argN,\n"
             "      N or its name) as a string\n"
             "  probe component PROVIDER:NAME enter|leave FORMAT\n"
             "      the probe enters or leaves the component FORMAT names,\n"
             "      %{ARG} standing for an argument's value (profiles)\n"
             "  probe component PROVIDER:NAME none\n"
             "  probe hints                        the hints given\n"
             "noosa's probes/ files and ~/.noosa/probes/*.tcl give them too.",
     .complete = COMMAND_COMPLETE_NONE,
     .proc = cmd_probe},
    {0}};

void cmd_probe_init(struct interp *in)
{
    command_register(in, commands, in);
}
