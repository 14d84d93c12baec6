/* SPDX-License-Identifier: MIT */
/*
 * command.c - the registry of noosa's commands: it makes Tcl commands from
 * the areas' tables (command.h), checks their argument counts, and answers
 * help, completion and the top-level meaning of names Tcl already has from
 * the entries.  It is not where commands are defined: each area's file
 * holds its own table.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "interp.h"
#include "xmalloc.h"

/* A registered entry: the procedure's client data, and whether the name
 * was Tcl's before noosa took it (then it is noosa's at the top level
 * only).  An entry of ::noosa::defhelp is the slot's own (owned), with
 * its strings. */
struct command_slot {
    const struct command *c;
    ClientData cd;
    int toplevel;
    struct command *owned;
};

/* Set by command_register(), freed by command_free(). */
struct commands {
    struct command_slot **slots; /* in name order */
    size_t n;
    const struct command **all; /* the entries of slots, for command_all */
};

static struct commands *registry(struct interp *in)
{
    if (in->commands == NULL)
        in->commands = xcalloc(1, sizeof *in->commands);
    return in->commands;
}

/* Check the argument count, then run the entry's procedure. */
static int dispatch(ClientData cd, Tcl_Interp *tcl, int objc,
                    Tcl_Obj *const objv[])
{
    struct command_slot *slot = cd;
    const struct command *c = slot->c;

    if (objc - 1 < c->min_args ||
        (c->max_args >= 0 && objc - 1 > c->max_args)) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf("wrong # args: should be \"%s\"",
                                            c->usage));
        return TCL_ERROR;
    }
    return c->proc(slot->cd, tcl, objc, objv);
}

static int cmp_slots(const void *a, const void *b)
{
    const struct command_slot *x = *(struct command_slot *const *)a;
    const struct command_slot *y = *(struct command_slot *const *)b;

    return strcmp(x->c->name, y->c->name);
}

/* Put the slots in name order, and their entries in all. */
static void order(struct commands *r)
{
    size_t i;

    qsort(r->slots, r->n, sizeof *r->slots, cmp_slots);
    r->all = xreallocarray(r->all, r->n, sizeof *r->all);
    for (i = 0; i < r->n; i++)
        r->all[i] = r->slots[i]->c;
}

static void add_slot(struct commands *r, struct command_slot *slot)
{
    r->slots = xreallocarray(r->slots, r->n + 1, sizeof *r->slots);
    r->slots[r->n++] = slot;
    order(r);
}

static void free_owned(struct command *c)
{
    if (c == NULL)
        return;
    free((char *)c->name);
    free((char *)c->usage);
    free((char *)c->summary);
    free((char *)c->help);
    free(c);
}

/* Give the global name NAME to TARGET, unless Tcl has NAME already:
 * returns whether it had. */
static int global_name(Tcl_Interp *tcl, const char *name, const char *target)
{
    Tcl_CmdInfo info;
    char *global = xasprintf("::%s", name);
    int had = Tcl_GetCommandInfo(tcl, global, &info);

    if (!had)
        Tcl_CreateAlias(tcl, global, tcl, target, 0, NULL);
    free(global);
    return had;
}

void command_register(struct interp *in, const struct command *table,
                      ClientData cd)
{
    struct commands *r = registry(in);
    const struct command *c;
    size_t i;

    for (c = table; c->name != NULL; c++) {
        struct command_slot *slot = xcalloc(1, sizeof *slot);
        char *full;

        slot->c = c;
        slot->cd = cd;
        if (c->flags & COMMAND_API) {
            Tcl_CreateObjCommand(in->tcl, c->name, dispatch, slot, NULL);
        } else {
            full = xasprintf("::noosa::cmd::%s", c->name);
            Tcl_CreateObjCommand(in->tcl, full, dispatch, slot, NULL);
            if (!(c->flags & COMMAND_MERGED))
                slot->toplevel = global_name(in->tcl, c->name, full);
            for (i = 0; c->aliases != NULL && c->aliases[i] != NULL; i++)
                global_name(in->tcl, c->aliases[i], full);
            free(full);
        }
        add_slot(r, slot);
    }
}

static struct command_slot *find_slot(struct interp *in, const char *name)
{
    struct commands *r = registry(in);
    size_t i, j;

    if (strncmp(name, "::noosa::cmd::", 14) == 0)
        name += 14;

    for (i = 0; i < r->n; i++) {
        const struct command *c = r->slots[i]->c;

        if (strcmp(c->name, name) == 0)
            return r->slots[i];
        for (j = 0; c->aliases != NULL && c->aliases[j] != NULL; j++) {
            if (strcmp(c->aliases[j], name) == 0)
                return r->slots[i];
        }
    }
    return NULL;
}

int command_set_data(struct interp *in, const char *name, ClientData cd)
{
    struct command_slot *slot = find_slot(in, name);

    if (slot == NULL)
        return -1;
    slot->cd = cd;
    return 0;
}

const struct command *command_find(struct interp *in, const char *name)
{
    struct command_slot *slot = find_slot(in, name);

    return slot != NULL ? slot->c : NULL;
}

const struct command *command_raw(struct interp *in, const char *word,
                                  size_t len)
{
    char name[64];
    struct command_slot *slot;

    if (len == 0 || len >= sizeof name)
        return NULL;
    memcpy(name, word, len);
    name[len] = '\0';
    slot = find_slot(in, name);
    return slot != NULL && (slot->c->flags & COMMAND_RAW) ? slot->c : NULL;
}

int command_toplevel(struct interp *in, const char *word)
{
    struct command_slot *slot = find_slot(in, word);

    return slot != NULL && slot->toplevel && strcmp(slot->c->name, word) == 0;
}

const struct command *const *command_all(struct interp *in, size_t *n)
{
    struct commands *r = registry(in);

    *n = r->n;
    return r->all;
}

void command_free(struct interp *in)
{
    struct commands *r = in->commands;
    size_t i;

    if (r == NULL)
        return;
    for (i = 0; i < r->n; i++) {
        free_owned(r->slots[i]->owned);
        free(r->slots[i]);
    }
    free(r->slots);
    free(r->all);
    free(r);
    in->commands = NULL;
}

/* help ?COMMAND? */
static int cmd_help(ClientData cd, Tcl_Interp *tcl, int objc,
                    Tcl_Obj *const objv[])
{
    struct interp *in = cd;
    const struct command *c;
    size_t i;

    if (objc == 2) {
        c = command_find(in, Tcl_GetString(objv[1]));
        if (c == NULL) {
            Tcl_SetObjResult(tcl, Tcl_ObjPrintf("help: no command \"%s\" "
                                                "(help lists them)",
                                                Tcl_GetString(objv[1])));
            return TCL_ERROR;
        }
        interp_sayf(in, "%s\n%s\n", c->usage, c->help);
        return TCL_OK;
    }
    interp_say(in, "Commands (help COMMAND for more; any Tcl can be typed "
                   "too):\n");
    for (i = 0; i < in->commands->n; i++) {
        char *shown;

        c = in->commands->slots[i]->c;
        if (c->flags & COMMAND_HIDDEN)
            continue;
        shown = strlen(c->usage) > 34 ? xasprintf("%s ...", c->name)
                                      : xstrdup(c->usage);
        interp_sayf(in, "  %-34s %s\n", shown, c->summary);
        free(shown);
    }
    interp_say(in, "Noosa API: n_say, n_say_val, n_send, n_break, n_hextodec, "
                   "n_dectohex,\n"
                   "n_provided, n_install_handler; state in n(status), "
                   "n(pid), n(where),\n"
                   "n(events), n(aspects), n(operations).\n");
    return TCL_OK;
}

static const char *const complete_names[] = {
    "file", "none", "event", "operation", "breakpoint", "command",
    "handler", "info", "screen"};

/* ::noosa::commands: the entries as a list of dicts (name, aliases, usage,
 * summary, help, complete, kind: command, api or script, hidden), in name
 * order. */
static int cmd_commands(ClientData cd, Tcl_Interp *tcl, int objc,
                        Tcl_Obj *const objv[])
{
    struct interp *in = cd;
    Tcl_Obj *out = Tcl_NewListObj(0, NULL);
    size_t i, j;

    (void)objc;
    (void)objv;
    for (i = 0; i < in->commands->n; i++) {
        const struct command *c = in->commands->slots[i]->c;
        Tcl_Obj *d = Tcl_NewDictObj(), *aliases = Tcl_NewListObj(0, NULL);

        for (j = 0; c->aliases != NULL && c->aliases[j] != NULL; j++)
            Tcl_ListObjAppendElement(NULL, aliases,
                                     Tcl_NewStringObj(c->aliases[j], -1));
#define PUT(k, v) Tcl_DictObjPut(NULL, d, Tcl_NewStringObj(k, -1), v)
        PUT("name", Tcl_NewStringObj(c->name, -1));
        PUT("aliases", aliases);
        PUT("usage", Tcl_NewStringObj(c->usage, -1));
        PUT("summary", Tcl_NewStringObj(c->summary, -1));
        PUT("help", Tcl_NewStringObj(c->help, -1));
        PUT("complete", Tcl_NewStringObj(complete_names[c->complete], -1));
        PUT("kind", Tcl_NewStringObj(c->flags & COMMAND_API      ? "api"
                                     : c->flags & COMMAND_SCRIPT ? "script"
                                                                 : "command",
                                     -1));
        PUT("hidden", Tcl_NewBooleanObj(c->flags & COMMAND_HIDDEN));
#undef PUT
        Tcl_ListObjAppendElement(NULL, out, d);
    }
    Tcl_SetObjResult(tcl, out);
    return TCL_OK;
}

/* ::noosa::defhelp NAME SYNOPSIS SUMMARY TEXT: the help of a command Tcl
 * code defines (a monitor's, a user's), in the registry with noosa's own;
 * again for NAME replaces it.  noosa's commands keep their help. */
static int cmd_defhelp(ClientData cd, Tcl_Interp *tcl, int objc,
                       Tcl_Obj *const objv[])
{
    struct interp *in = cd;
    const char *name = Tcl_GetString(objv[1]);
    struct command_slot *slot = find_slot(in, name);
    struct command *c;

    (void)objc;
    if (slot != NULL && slot->owned == NULL) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf("defhelp: \"%s\" is noosa's "
                                            "command, with help of its own",
                                            name));
        return TCL_ERROR;
    }
    if (name[0] == '\0') {
        Tcl_SetObjResult(tcl, Tcl_NewStringObj("defhelp: a command has a "
                                               "name", -1));
        return TCL_ERROR;
    }
    c = xcalloc(1, sizeof *c);
    c->name = xstrdup(name);
    c->usage = xstrdup(Tcl_GetString(objv[2]));
    c->summary = xstrdup(Tcl_GetString(objv[3]));
    c->help = xstrdup(Tcl_GetString(objv[4]));
    c->max_args = -1;
    c->complete = COMMAND_COMPLETE_FILE;
    c->flags = COMMAND_SCRIPT;
    if (slot != NULL) {
        free_owned(slot->owned);
        slot->owned = c;
        slot->c = c;
        order(in->commands);
        return TCL_OK;
    }
    slot = xcalloc(1, sizeof *slot);
    slot->c = c;
    slot->owned = c;
    add_slot(registry(in), slot);
    return TCL_OK;
}

static const struct command commands[] = {
    {.name = "help",
     .max_args = 1,
     .usage = "help ?COMMAND?",
     .summary = "list the commands, or describe one",
     .help = "List the commands, or describe one.",
     .complete = COMMAND_COMPLETE_COMMAND,
     .proc = cmd_help},
    {.name = "::noosa::commands",
     .max_args = 0,
     .usage = "::noosa::commands",
     .summary = "the commands, as a list of dicts",
     .help = "The commands as a list of dicts with the keys name, aliases,\n"
             "usage, summary, help, complete and kind (command or api).",
     .complete = COMMAND_COMPLETE_NONE,
     .flags = COMMAND_API | COMMAND_HIDDEN,
     .proc = cmd_commands},
    {.name = "::noosa::defhelp",
     .min_args = 4,
     .max_args = 4,
     .usage = "::noosa::defhelp NAME SYNOPSIS SUMMARY TEXT",
     .summary = "the help of a command Tcl code defines",
     .help = "Add NAME, a command defined in Tcl, to help's list with SUMMARY,\n"
             "and make help NAME show SYNOPSIS and TEXT.  Again for NAME\n"
             "replaces them; noosa's own commands keep their help.",
     .complete = COMMAND_COMPLETE_NONE,
     .flags = COMMAND_API | COMMAND_HIDDEN,
     .proc = cmd_defhelp},
    {0}};

void command_init(struct interp *in)
{
    command_register(in, commands, in);
}
