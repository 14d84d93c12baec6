/* SPDX-License-Identifier: MIT */
/*
 * handlers.c - handlers on events: storage, the commands that change and
 * save them, and the consumer that runs them.  See handlers.h.
 *
 * A handler runs as an apply lambda whose parameters are the event's
 * parameters (plus n_ename, n_time, n_thread), built once per handler and
 * event signature so that its bytecode is kept.  Handlers being run hold a
 * reference, so removing one from inside a handler takes effect after the
 * event.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dapto.h"
#include "command.h"
#include "handlers.h"
#include "interp.h"
#include "xmalloc.h"

enum handler_mode {
    HANDLER_AUTO,   /* stop when the code needs it */
    HANDLER_STOP,   /* always stop */
    HANDLER_RECORD  /* never stop */
};

struct handler {
    int refs;
    int dead; /* removed */
    char *name;
    int enabled;
    enum handler_mode mode;
    int needs_stop; /* AUTO: as last computed */
    Tcl_Obj *body;
    Tcl_Obj *lambda;  /* cached; NULL until built */
    Tcl_Obj *params;  /* the parameters the lambda was built for */
};

struct hevent {
    char *event; /* NAME or ASPECT.NAME, as given */
    struct handler **list;
    unsigned int n;
};

struct handlers {
    struct interp *in;
    struct consumer *consumer;
    struct hevent *events;
    unsigned int nevents;
};

static void handler_unref(struct handler *h)
{
    if (--h->refs > 0)
        return;
    free(h->name);
    Tcl_DecrRefCount(h->body);
    if (h->lambda != NULL)
        Tcl_DecrRefCount(h->lambda);
    if (h->params != NULL)
        Tcl_DecrRefCount(h->params);
    free(h);
}

/* The handlers of EVENT (exactly as named), or NULL. */
static struct hevent *find_event(struct handlers *hs, const char *event)
{
    unsigned int i;

    for (i = 0; i < hs->nevents; i++) {
        if (strcmp(hs->events[i].event, event) == 0)
            return &hs->events[i];
    }
    return NULL;
}

static struct handler *find_handler(struct hevent *he, const char *name,
                                    unsigned int *at)
{
    unsigned int i;

    for (i = 0; he != NULL && i < he->n; i++) {
        if (strcmp(he->list[i]->name, name) == 0) {
            if (at != NULL)
                *at = i;
            return he->list[i];
        }
    }
    return NULL;
}

static unsigned char want(void *arg, const struct registry_event *ev)
{
    struct handlers *hs = arg;
    unsigned char state = 0;
    unsigned int i, j;

    for (i = 0; i < hs->nevents; i++) {
        struct hevent *he = &hs->events[i];

        if (!registry_event_named(ev, he->event))
            continue;
        for (j = 0; j < he->n; j++) {
            struct handler *h = he->list[j];

            if (!h->enabled)
                continue;
            state |= DAPTO_STATE_RECORD;
            if (h->mode == HANDLER_STOP ||
                (h->mode == HANDLER_AUTO &&
                 (h->needs_stop = interp_needs_stop(hs->in, h->body))))
                state |= DAPTO_STATE_STOP;
        }
    }
    return state;
}

/* The lambda of H for event E, built when E's parameters differ from the
 * ones it was built for. */
static Tcl_Obj *lambda(struct handler *h, const struct registry_event *e)
{
    Tcl_Obj *params = interp_params(e), *l[3];
    const char *a, *b;

    if (h->lambda != NULL) {
        a = Tcl_GetString(params);
        b = Tcl_GetString(h->params);
        if (strcmp(a, b) == 0) {
            Tcl_IncrRefCount(params);
            Tcl_DecrRefCount(params); /* frees it */
            return h->lambda;
        }
        Tcl_DecrRefCount(h->lambda);
        Tcl_DecrRefCount(h->params);
    }
    l[0] = params;
    l[1] = h->body;
    l[2] = Tcl_NewStringObj("::", -1);
    h->lambda = Tcl_NewListObj(3, l);
    Tcl_IncrRefCount(h->lambda);
    h->params = params;
    Tcl_IncrRefCount(params);
    return h->lambda;
}

static void deliver(void *arg, struct dispatch_event *de)
{
    struct handlers *hs = arg;
    struct interp *in = hs->in;
    struct handler **run = NULL, *h;
    unsigned int n = 0, i, j;

    /* take the handlers that apply now; changes take effect afterwards */
    for (i = 0; i < hs->nevents; i++) {
        struct hevent *he = &hs->events[i];

        if (!registry_event_named(de->event, he->event))
            continue;
        for (j = 0; j < he->n; j++) {
            if (!he->list[j]->enabled)
                continue;
            run = xreallocarray(run, n + 1, sizeof *run);
            run[n++] = he->list[j];
            he->list[j]->refs++;
        }
    }
    for (i = 0; i < n; i++) {
        h = run[i];
        if (interp_run_for(in, "handler", h->name, lambda(h, de->event), de) !=
            TCL_OK)
            break; /* the event's other handlers are skipped */
    }
    for (i = 0; i < n; i++)
        handler_unref(run[i]);
    free(run);
}

static const struct consumer_ops handler_ops = {
    "handlers", want, deliver, NULL
};

struct handlers *handlers_create(struct interp *in)
{
    struct handlers *hs = xcalloc(1, sizeof *hs);

    hs->in = in;
    hs->consumer = dispatch_add(in->dispatch, &handler_ops, hs);
    return hs;
}

void handlers_free(struct handlers *hs)
{
    unsigned int i, j;

    if (hs == NULL)
        return;
    for (i = 0; i < hs->nevents; i++) {
        for (j = 0; j < hs->events[i].n; j++)
            handler_unref(hs->events[i].list[j]);
        free(hs->events[i].list);
        free(hs->events[i].event);
    }
    free(hs->events);
    free(hs);
}

/* Check that EVENT names an event of the program, when its interface is
 * known. */
static int check_event(struct handlers *hs, const char *event)
{
    if (session_registry(hs->in->session) == NULL)
        return TCL_OK;
    return interp_event(hs->in, event) != NULL ? TCL_OK : TCL_ERROR;
}

/* Install a handler at position INDEX (clamped) of EVENT's list,
 * replacing one of the same name. */
static void install(struct handlers *hs, const char *event, int index,
                    const char *name, int enabled, enum handler_mode mode,
                    Tcl_Obj *body)
{
    struct hevent *he = find_event(hs, event);
    struct handler *h;
    unsigned int at;

    if (he == NULL) {
        hs->events = xreallocarray(hs->events, hs->nevents + 1,
                                   sizeof *hs->events);
        he = &hs->events[hs->nevents++];
        memset(he, 0, sizeof *he);
        he->event = xstrdup(event);
    }
    if ((h = find_handler(he, name, &at)) != NULL) {
        memmove(&he->list[at], &he->list[at + 1],
                (he->n - at - 1) * sizeof *he->list);
        he->n--;
        h->dead = 1;
        handler_unref(h);
    }
    h = xcalloc(1, sizeof *h);
    h->refs = 1;
    h->name = xstrdup(name);
    h->enabled = enabled;
    h->mode = mode;
    h->body = body;
    Tcl_IncrRefCount(body);
    if (index < 0 || (unsigned int)index > he->n)
        index = (int)he->n;
    he->list = xreallocarray(he->list, he->n + 1, sizeof *he->list);
    memmove(&he->list[index + 1], &he->list[index],
            (he->n - (unsigned int)index) * sizeof *he->list);
    he->list[index] = h;
    he->n++;
    dispatch_changed(hs->in->dispatch);
}

/* n_install_handler {EVENT INDEX NAME ENABLED {BODY}} */
static int cmd_install(ClientData cd, Tcl_Interp *tcl, int objc,
                       Tcl_Obj *const objv[])
{
    struct handlers *hs = cd;
    Tcl_Obj **f;
    int nf, index, enabled;

    if (objc != 2) {
        Tcl_WrongNumArgs(tcl, 1, objv, "{EVENT INDEX NAME ENABLED BODY}");
        return TCL_ERROR;
    }
    if (Tcl_ListObjGetElements(tcl, objv[1], &nf, &f) != TCL_OK)
        return TCL_ERROR;
    if (nf != 5) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
            "n_install_handler: expected a list {EVENT INDEX NAME ENABLED "
            "BODY} of 5 elements, got %d", nf));
        return TCL_ERROR;
    }
    if (Tcl_GetIntFromObj(NULL, f[1], &index) != TCL_OK) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
            "n_install_handler: INDEX must be an integer, got \"%s\"",
            Tcl_GetString(f[1])));
        return TCL_ERROR;
    }
    if (Tcl_GetBooleanFromObj(NULL, f[3], &enabled) != TCL_OK) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
            "n_install_handler: ENABLED must be 0 or 1, got \"%s\"",
            Tcl_GetString(f[3])));
        return TCL_ERROR;
    }
    if (check_event(hs, Tcl_GetString(f[0])) != TCL_OK)
        return TCL_ERROR;
    install(hs, Tcl_GetString(f[0]), index, Tcl_GetString(f[2]), enabled,
            HANDLER_AUTO, f[4]);
    return TCL_OK;
}

/* The lookup shared by the subcommands that name EVENT and NAME. */
static struct handler *lookup(struct handlers *hs, Tcl_Interp *tcl,
                              const char *event, const char *name,
                              struct hevent **hep, unsigned int *at)
{
    struct hevent *he = find_event(hs, event);
    struct handler *h = find_handler(he, name, at);

    if (h == NULL) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
            "no handler \"%s\" for event \"%s\" (see \"handler list\")", name,
            event));
        return NULL;
    }
    if (hep != NULL)
        *hep = he;
    return h;
}

/* Write the handlers of HE to F as n_install_handler lines. */
static void save_event(FILE *f, struct hevent *he)
{
    unsigned int i;

    for (i = 0; i < he->n; i++) {
        struct handler *h = he->list[i];
        Tcl_Obj *l[5], *line, *outer;

        l[0] = Tcl_NewStringObj(he->event, -1);
        l[1] = Tcl_NewIntObj((int)i);
        l[2] = Tcl_NewStringObj(h->name, -1);
        l[3] = Tcl_NewIntObj(h->enabled);
        l[4] = h->body;
        line = Tcl_NewListObj(5, l);
        outer = Tcl_NewListObj(1, &line);
        Tcl_IncrRefCount(outer);
        fprintf(f, "n_install_handler %s\n", Tcl_GetString(outer));
        Tcl_DecrRefCount(outer);
    }
}

static int save(struct handlers *hs, Tcl_Interp *tcl, const char *path,
                const char *event)
{
    char *tmp = xasprintf("%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    unsigned int i;

    if (f == NULL) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf("cannot write %s: %s", path,
                                            strerror(errno)));
        free(tmp);
        return TCL_ERROR;
    }
    for (i = 0; i < hs->nevents; i++) {
        if (event == NULL || strcmp(hs->events[i].event, event) == 0)
            save_event(f, &hs->events[i]);
    }
    if (fclose(f) != 0 || rename(tmp, path) != 0) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf("cannot write %s: %s", path,
                                            strerror(errno)));
        unlink(tmp);
        free(tmp);
        return TCL_ERROR;
    }
    free(tmp);
    return TCL_OK;
}

static void list_event(struct interp *in, struct hevent *he)
{
    unsigned int i;

    for (i = 0; i < he->n; i++) {
        struct handler *h = he->list[i];
        const char *mode = h->mode == HANDLER_STOP     ? "stops"
                           : h->mode == HANDLER_RECORD ? "does not stop"
                           : interp_needs_stop(in, h->body)
                               ? "stops"
                               : "does not stop";

        interp_sayf(in, "%s %d \"%s\" %s, %s: %s\n", he->event, i, h->name,
                    h->enabled ? "enabled" : "disabled", mode,
                    Tcl_GetString(h->body));
    }
}

static int cmd_handler(ClientData cd, Tcl_Interp *tcl, int objc,
                       Tcl_Obj *const objv[])
{
    static const char *const subs[] = {"add",  "remove", "list",  "save",
                                       "load", "enable", "disable",
                                       "rename", "body", "get", NULL};
    enum { ADD, REMOVE, LIST, SAVE, LOAD, ENABLE, DISABLE, RENAME, BODY,
           GET };
    struct handlers *hs = cd;
    struct interp *in = hs->in;
    struct handler *h;
    struct hevent *he;
    unsigned int at, i;
    int sub;

    if (objc < 2) {
        Tcl_WrongNumArgs(tcl, 1, objv, "add|remove|list|save|load|enable|"
                                       "disable|rename|body|get ?arg ...?");
        return TCL_ERROR;
    }
    if (Tcl_GetIndexFromObj(tcl, objv[1], subs, "subcommand", 0, &sub) !=
        TCL_OK)
        return TCL_ERROR;
    switch (sub) {
    case ADD: {
        enum handler_mode mode = HANDLER_AUTO;

        if (objc == 6) {
            const char *m = Tcl_GetString(objv[5]);

            if (strcmp(m, "-stop") == 0)
                mode = HANDLER_STOP;
            else if (strcmp(m, "-nostop") == 0)
                mode = HANDLER_RECORD;
            else {
                Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
                    "handler add: expected -stop or -nostop, got \"%s\"", m));
                return TCL_ERROR;
            }
        } else if (objc != 5) {
            Tcl_WrongNumArgs(tcl, 2, objv, "EVENT NAME BODY ?-stop|-nostop?");
            return TCL_ERROR;
        }
        if (check_event(hs, Tcl_GetString(objv[2])) != TCL_OK)
            return TCL_ERROR;
        install(hs, Tcl_GetString(objv[2]), 0, Tcl_GetString(objv[3]), 1,
                mode, objv[4]);
        return TCL_OK;
    }
    case REMOVE:
        if (objc != 4) {
            Tcl_WrongNumArgs(tcl, 2, objv, "EVENT NAME");
            return TCL_ERROR;
        }
        h = lookup(hs, tcl, Tcl_GetString(objv[2]), Tcl_GetString(objv[3]),
                   &he, &at);
        if (h == NULL)
            return TCL_ERROR;
        memmove(&he->list[at], &he->list[at + 1],
                (he->n - at - 1) * sizeof *he->list);
        he->n--;
        h->dead = 1;
        handler_unref(h);
        dispatch_changed(in->dispatch);
        return TCL_OK;
    case ENABLE:
    case DISABLE:
        if (objc != 4) {
            Tcl_WrongNumArgs(tcl, 2, objv, "EVENT NAME");
            return TCL_ERROR;
        }
        h = lookup(hs, tcl, Tcl_GetString(objv[2]), Tcl_GetString(objv[3]),
                   NULL, NULL);
        if (h == NULL)
            return TCL_ERROR;
        h->enabled = sub == ENABLE;
        dispatch_changed(in->dispatch);
        return TCL_OK;
    case RENAME:
        if (objc != 5) {
            Tcl_WrongNumArgs(tcl, 2, objv, "EVENT NAME NEWNAME");
            return TCL_ERROR;
        }
        h = lookup(hs, tcl, Tcl_GetString(objv[2]), Tcl_GetString(objv[3]),
                   &he, NULL);
        if (h == NULL)
            return TCL_ERROR;
        if (find_handler(he, Tcl_GetString(objv[4]), NULL) != NULL) {
            Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
                "event \"%s\" already has a handler \"%s\"",
                Tcl_GetString(objv[2]), Tcl_GetString(objv[4])));
            return TCL_ERROR;
        }
        free(h->name);
        h->name = xstrdup(Tcl_GetString(objv[4]));
        return TCL_OK;
    case BODY:
        if (objc != 4 && objc != 5) {
            Tcl_WrongNumArgs(tcl, 2, objv, "EVENT NAME ?BODY?");
            return TCL_ERROR;
        }
        h = lookup(hs, tcl, Tcl_GetString(objv[2]), Tcl_GetString(objv[3]),
                   NULL, NULL);
        if (h == NULL)
            return TCL_ERROR;
        if (objc == 5) {
            Tcl_DecrRefCount(h->body);
            h->body = objv[4];
            Tcl_IncrRefCount(h->body);
            if (h->lambda != NULL) {
                Tcl_DecrRefCount(h->lambda);
                Tcl_DecrRefCount(h->params);
                h->lambda = h->params = NULL;
            }
            dispatch_changed(in->dispatch);
        }
        Tcl_SetObjResult(tcl, h->body);
        return TCL_OK;
    case LIST:
    case GET: {
        Tcl_Obj *result = Tcl_NewListObj(0, NULL);
        int any = 0;

        if (objc > 3) {
            Tcl_WrongNumArgs(tcl, 2, objv, "?EVENT?");
            return TCL_ERROR;
        }
        for (i = 0; i < hs->nevents; i++) {
            he = &hs->events[i];
            if (objc == 3 && strcmp(he->event, Tcl_GetString(objv[2])) != 0)
                continue;
            for (at = 0; at < he->n; at++) {
                Tcl_Obj *l[4];

                l[0] = Tcl_NewStringObj(he->event, -1);
                l[1] = Tcl_NewStringObj(he->list[at]->name, -1);
                l[2] = Tcl_NewIntObj(he->list[at]->enabled);
                l[3] = he->list[at]->body;
                Tcl_ListObjAppendElement(NULL, result, Tcl_NewListObj(4, l));
                any = 1;
            }
            if (sub == LIST)
                list_event(in, he);
        }
        if (sub == GET)
            Tcl_SetObjResult(tcl, result);
        else if (!any)
            interp_say(in, "No handlers.\n");
        if (sub == LIST)
            Tcl_DecrRefCount(result);
        return TCL_OK;
    }
    case SAVE:
        if (objc != 3 && objc != 4) {
            Tcl_WrongNumArgs(tcl, 2, objv, "FILE ?EVENT?");
            return TCL_ERROR;
        }
        return save(hs, tcl, Tcl_GetString(objv[2]),
                    objc == 4 ? Tcl_GetString(objv[3]) : NULL);
    case LOAD: {
        Tcl_Obj *opts, *key, *line = NULL;
        const char *path;

        if (objc != 3) {
            Tcl_WrongNumArgs(tcl, 2, objv, "FILE");
            return TCL_ERROR;
        }
        path = Tcl_GetString(objv[2]);
        /* Tcl's access, which knows ~ as Tcl_EvalFile does */
        if (Tcl_FSAccess(objv[2], R_OK) != 0) {
            Tcl_SetObjResult(tcl, Tcl_ObjPrintf("cannot read %s: %s", path,
                                                strerror(errno)));
            return TCL_ERROR;
        }
        if (Tcl_EvalFile(tcl, path) == TCL_OK)
            return TCL_OK;
        /* say which line of the file failed */
        opts = Tcl_GetReturnOptions(tcl, TCL_ERROR);
        key = Tcl_NewStringObj("-errorline", -1);
        Tcl_IncrRefCount(opts);
        Tcl_IncrRefCount(key);
        Tcl_DictObjGet(NULL, opts, key, &line);
        if (line != NULL)
            Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
                "%s:%s: %s", path, Tcl_GetString(line),
                Tcl_GetStringResult(tcl)));
        Tcl_DecrRefCount(key);
        Tcl_DecrRefCount(opts);
        return TCL_ERROR;
    }
    }
    return TCL_ERROR;
}

static const struct command commands[] = {
    {.name = "handler",
     .max_args = -1,
     .usage = "handler add|remove|list|save|load|enable|disable|rename|body|get ...",
     .summary = "Tcl code run on events",
     .help = "Handlers: Tcl code run on each event, with the event's parameters (and\n"
            "n_ename, n_time, n_thread) as variables.\n"
            "  handler add EVENT NAME BODY ?-stop|-nostop?   add (run first)\n"
            "  handler remove EVENT NAME\n"
            "  handler enable|disable EVENT NAME\n"
            "  handler rename EVENT NAME NEWNAME\n"
            "  handler body EVENT NAME ?BODY?                show or change the code\n"
            "  handler list ?EVENT?                          print them\n"
            "  handler get ?EVENT?                           as a list {EVENT NAME ENABLED BODY}\n"
            "  handler save FILE ?EVENT?                     as n_install_handler lines\n"
            "  handler load FILE\n"
            "A handler stops the program at its event only when it needs to (it calls\n"
            "n_send or n_break, or was added with -stop); others run while the program\n"
            "goes on.",
     .complete = COMMAND_COMPLETE_HANDLER,
     .proc = cmd_handler},
    {.name = "n_install_handler",
     .min_args = 1,
     .max_args = 1,
     .usage = "n_install_handler {EVENT INDEX NAME ENABLED BODY}",
     .summary = "add a handler (in saved handler files)",
     .help = "Add handler NAME of EVENT, at place INDEX of its handlers, enabled or\n"
            "not, running BODY: the lines handler save writes.",
     .complete = COMMAND_COMPLETE_NONE,
     .flags = COMMAND_API,
     .proc = cmd_install},
    {0}};

void handlers_init_commands(struct handlers *hs)
{
    command_register(hs->in, commands, hs);
}
