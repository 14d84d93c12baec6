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
    struct commands *reg;
};

/* Set by command_register(), freed by command_free(). */
struct commands {
    struct command_slot **slots; /* in name order */
    size_t n;
    const struct command **all; /* the entries of slots, for command_all */
    unsigned int running; /* commands running now, one inside another */
};

static struct commands *registry(struct interp *in)
{
    if (in->commands == NULL)
        in->commands = xcalloc(1, sizeof *in->commands);
    return in->commands;
}

/* An error of command NAME says which command it is: its message in
 * TCL's result gets "NAME: " in front unless it names it already (or is
 * Tcl's own "wrong # args"). */
static void name_error(Tcl_Interp *tcl, const char *name)
{
    const char *msg = Tcl_GetStringResult(tcl);
    size_t len = strlen(name), first = strcspn(name, " ");

    if ((strncmp(msg, name, len) == 0 && msg[len] == ':') ||
        (strncmp(msg, name, first) == 0 &&
         (msg[first] == ':' || msg[first] == ' ')) ||
        strncmp(msg, "wrong # args", 12) == 0)
        return;
    Tcl_SetObjResult(tcl, Tcl_ObjPrintf("%s: %s", name, msg));
}

/* Check the argument count, then run the entry's procedure (or say
 * what to use instead). */
static int run_slot(struct command_slot *slot, Tcl_Interp *tcl, int objc,
                    Tcl_Obj *const objv[])
{
    const struct command *c = slot->c;
    int rc;

    if (c->proc == NULL) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf("%s: %s", c->name,
                                            c->instead != NULL ? c->instead
                                                               : "no such "
                                                                 "command"));
        return TCL_ERROR;
    }
    if (objc - 1 < c->min_args ||
        (c->max_args >= 0 && objc - 1 > c->max_args)) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf("wrong # args: should be \"%s\"",
                                            c->usage));
        return TCL_ERROR;
    }
    slot->reg->running++;
    rc = c->proc(slot->cd, tcl, objc, objv);
    slot->reg->running--;
    /* (the command typed names it; one it ran inside does not) */
    if (rc == TCL_ERROR && !(c->flags & (COMMAND_API | COMMAND_GDB_ERRORS)) &&
        slot->reg->running == 0)
        name_error(tcl, c->name);
    return rc;
}

static int dispatch(ClientData cd, Tcl_Interp *tcl, int objc,
                    Tcl_Obj *const objv[])
{
    return run_slot(cd, tcl, objc, objv);
}

int command_is_sub(const struct command *c)
{
    return strchr(c->name, ' ') != NULL;
}

int command_unlisted(const struct command *c)
{
    return (c->flags & COMMAND_HIDDEN) ||
           (c->proc == NULL && !(c->flags & COMMAND_SCRIPT));
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
    slot->reg = r;
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

static struct command_slot *find_slot(struct interp *in, const char *name);

/* The slot of the entry named NAME itself (not an alias), or NULL. */
static struct command_slot *named_slot(struct commands *r, const char *name)
{
    size_t i;

    for (i = 0; i < r->n; i++) {
        if (strcmp(r->slots[i]->c->name, name) == 0)
            return r->slots[i];
    }
    return NULL;
}

/* The Tcl names of entry C of SLOT: its command, its global name and its
 * aliases (none for a subcommand, whose parent runs it). */
static void tcl_names(struct interp *in, struct command_slot *slot,
                      const struct command *c)
{
    char *full;
    size_t i;

    if (command_is_sub(c))
        return;
    if (c->flags & COMMAND_API) {
        Tcl_CreateObjCommand(in->tcl, c->name, dispatch, slot, NULL);
        return;
    }
    full = xasprintf("::noosa::cmd::%s", c->name);
    Tcl_CreateObjCommand(in->tcl, full, dispatch, slot, NULL);
    slot->toplevel = global_name(in->tcl, c->name, full);
    for (i = 0; c->aliases != NULL && c->aliases[i] != NULL; i++)
        global_name(in->tcl, c->aliases[i], full);
    free(full);
}

void command_register(struct interp *in, const struct command *table,
                      ClientData cd)
{
    struct commands *r = registry(in);
    const struct command *c;

    for (c = table; c->name != NULL; c++) {
        struct command_slot *slot = named_slot(r, c->name);

        if (slot != NULL) {
            /* an entry that works replaces one that says what to use
             * instead, whichever comes first */
            if (c->proc == NULL)
                continue;
            slot->c = c;
            slot->cd = cd;
            tcl_names(in, slot, c);
            order(r);
            continue;
        }
        slot = xcalloc(1, sizeof *slot);
        slot->c = c;
        slot->cd = cd;
        tcl_names(in, slot, c);
        add_slot(r, slot);
    }
}

/* The subcommand of PARENT that WORD names: the entry "PARENT WORD" (or
 * an alias), else the one listed subcommand WORD begins, else the one
 * unlisted one.  NULL with *AMBIGUOUS set when several match. */
static struct command_slot *find_sub(struct interp *in, const char *parent,
                                     const char *word, int *ambiguous)
{
    struct commands *r = registry(in);
    struct command_slot *found[2] = {NULL, NULL};
    int nfound[2] = {0, 0};
    size_t plen = strlen(parent), wlen = strlen(word), i;
    char *full = xasprintf("%s %s", parent, word);
    struct command_slot *slot = find_slot(in, full);

    free(full);
    *ambiguous = 0;
    if (slot != NULL)
        return slot;
    for (i = 0; i < r->n; i++) {
        const struct command *c = r->slots[i]->c;
        int k = command_unlisted(c);

        if (strncmp(c->name, parent, plen) != 0 || c->name[plen] != ' ' ||
            strncmp(c->name + plen + 1, word, wlen) != 0)
            continue;
        found[k] = r->slots[i];
        nfound[k]++;
    }
    for (i = 0; i < 2; i++) {
        if (nfound[i] == 1)
            return found[i];
        if (nfound[i] > 1) {
            *ambiguous = 1;
            return NULL;
        }
    }
    return NULL;
}

Tcl_Obj *command_subwords(struct interp *in, const char *parent)
{
    struct commands *r = registry(in);
    struct command_slot *p = find_slot(in, parent);
    Tcl_Obj *out = Tcl_NewListObj(0, NULL);
    size_t plen = strlen(parent), i;

    for (i = 0; i < r->n; i++) {
        const struct command *c = r->slots[i]->c;

        if (strncmp(c->name, parent, plen) == 0 && c->name[plen] == ' ' &&
            !command_unlisted(c))
            Tcl_ListObjAppendElement(NULL, out,
                                     Tcl_NewStringObj(c->name + plen + 1, -1));
    }
    for (i = 0; p != NULL && p->c->subcommands != NULL &&
                p->c->subcommands[i] != NULL;
         i++)
        Tcl_ListObjAppendElement(NULL, out,
                                 Tcl_NewStringObj(p->c->subcommands[i],
                                                  (int)strcspn(
                                                      p->c->subcommands[i],
                                                      " ")));
    return out;
}

int command_subcommand(struct interp *in, const char *parent,
                       Tcl_Interp *tcl, int objc, Tcl_Obj *const objv[],
                       const char *hint)
{
    const char *word = Tcl_GetString(objv[1]);
    struct command_slot *slot;
    Tcl_Obj *words, **v, *msg;
    const char *sep = " ";
    int ambiguous = 0, n, i;

    slot = word[0] != '\0' ? find_sub(in, parent, word, &ambiguous) : NULL;
    if (slot != NULL)
        return run_slot(slot, tcl, objc - 1, objv + 1);
    words = command_subwords(in, parent);
    Tcl_IncrRefCount(words);
    Tcl_ListObjGetElements(NULL, words, &n, &v);
    msg = Tcl_ObjPrintf("%s: %s subcommand \"%s\": %s", parent,
                        ambiguous ? "ambiguous" : "unknown", word,
                        ambiguous ? "it begins" : "noosa's are");
    for (i = 0; i < n; i++) {
        if (ambiguous &&
            strncmp(Tcl_GetString(v[i]), word, strlen(word)) != 0)
            continue;
        Tcl_AppendStringsToObj(msg, sep, Tcl_GetString(v[i]), NULL);
        sep = ", ";
    }
    if (hint != NULL && !ambiguous)
        Tcl_AppendStringsToObj(msg, hint, NULL);
    Tcl_DecrRefCount(words);
    Tcl_SetObjResult(tcl, msg);
    return TCL_ERROR;
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

/* The subcommands of PARENT that have entries of their own, with their
 * synopses and summaries, for help PARENT. */
static void say_subs(struct interp *in, const char *parent)
{
    struct commands *r = registry(in);
    size_t plen = strlen(parent), i;
    int first = 1;

    for (i = 0; i < r->n; i++) {
        const struct command *c = r->slots[i]->c;

        if (strncmp(c->name, parent, plen) != 0 || c->name[plen] != ' ' ||
            command_unlisted(c))
            continue;
        if (first)
            interp_sayf(in, "Subcommands (help %s SUBCOMMAND for more):\n",
                        parent);
        first = 0;
        interp_sayf(in, "  %-34s %s\n", c->usage, c->summary);
    }
}

/* help ?COMMAND ?SUBCOMMAND?? */
static int cmd_help(ClientData cd, Tcl_Interp *tcl, int objc,
                    Tcl_Obj *const objv[])
{
    struct interp *in = cd;
    const struct command *c;
    size_t i;

    if (objc >= 2) {
        Tcl_Obj *name = objc == 2 ? objv[1] : Tcl_ConcatObj(objc - 1, objv + 1);

        Tcl_IncrRefCount(name);
        c = command_find(in, Tcl_GetString(name));
        if (c == NULL) {
            Tcl_SetObjResult(tcl, Tcl_ObjPrintf("help: no command \"%s\" "
                                                "(help lists them)",
                                                Tcl_GetString(name)));
            Tcl_DecrRefCount(name);
            return TCL_ERROR;
        }
        Tcl_DecrRefCount(name);
        if (c->proc == NULL && c->instead != NULL) {
            interp_sayf(in, "%s: %s\n", c->name, c->instead);
            return TCL_OK;
        }
        interp_sayf(in, "%s\n%s\n", c->usage, c->help);
        say_subs(in, c->name);
        return TCL_OK;
    }
    interp_say(in, "Commands (help COMMAND for more; any Tcl can be typed "
                   "too):\n");
    for (i = 0; i < in->commands->n; i++) {
        char *shown;

        c = in->commands->slots[i]->c;
        if (command_unlisted(c) || command_is_sub(c))
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
    "handler", "subcommand", "screen"};

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
        PUT("kind", Tcl_NewStringObj(c->proc == NULL && c->instead != NULL
                                         ? "instead"
                                     : command_is_sub(c)         ? "subcommand"
                                     : c->flags & COMMAND_API    ? "api"
                                     : c->flags & COMMAND_SCRIPT ? "script"
                                                                 : "command",
                                     -1));
        PUT("hidden", Tcl_NewBooleanObj(command_unlisted(c)));
        if (c->instead != NULL)
            PUT("instead", Tcl_NewStringObj(c->instead, -1));
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
     .max_args = 2,
     .usage = "help ?COMMAND ?SUBCOMMAND??",
     .summary = "list the commands, or describe one",
     .help = "List the commands, or describe one (and its subcommands).",
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
