/* SPDX-License-Identifier: MIT */
/*
 * handlers.c - handlers on events: storage, the commands that change and
 * save them, and the consumer that runs them.  See handlers.h.
 *
 * A handler runs as an apply lambda whose parameters are the event's
 * parameters (plus n_ename, n_time, n_thread, n_pid), built once per
 * handler and event signature so that its bytecode is kept.  Handlers being run hold a
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
#include "checkpoint.h"
#include "command.h"
#include "guard.h"
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
    struct guard *guard; /* its condition (-if), or NULL: always */
    unsigned int tag;    /* its clauses' name in the dispatcher */
    Tcl_Obj *body;
    Tcl_Obj *lambda;  /* cached; NULL until built */
    Tcl_Obj *params;  /* the parameters the lambda was built for */
    pid_t pid;        /* -pid: only in this process; 0: in all */
};

struct hevent {
    char *event; /* NAME or ASPECT.NAME, as given */
    struct handler **list;
    unsigned int n;
};

struct handlers {
    struct interp *in;
    struct consumer *consumer;
    unsigned int next_tag; /* of the next handler installed */
    struct hevent *events;
    unsigned int nevents;
};

static void handler_unref(struct handler *h)
{
    if (--h->refs > 0)
        return;
    free(h->name);
    guard_free(h->guard);
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

/* Whether handler H is on and applies to the session's current process
 * (the one whose table the dispatcher makes, or whose event it
 * delivers). */
static int handler_here(struct handlers *hs, const struct handler *h)
{
    return h->enabled &&
           (h->pid == 0 || h->pid == session_pid(hs->in->session));
}

/* The state bits handler H wants at its events. */
static unsigned char handler_bits(struct handlers *hs, struct handler *h)
{
    if (h->mode == HANDLER_STOP ||
        (h->mode == HANDLER_AUTO &&
         (h->needs_stop = interp_needs_stop(hs->in, h->body))))
        return DAPTO_STATE_RECORD | DAPTO_STATE_STOP;
    return DAPTO_STATE_RECORD;
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
            if (handler_here(hs, he->list[j]))
                state |= handler_bits(hs, he->list[j]);
        }
    }
    return state;
}

/* The conditions of the handlers of EV, for the program <protocol#filter>:
 * one clause per handler with a condition the program can evaluate
 * (tagged with the handler's tag), the others unconditional. */
static unsigned int clauses(void *arg, const struct registry_event *ev,
                            unsigned char *uncond, struct dispatch_clause *cl,
                            unsigned int max)
{
    struct handlers *hs = arg;
    unsigned int i, j, k = 0;

    *uncond = 0;
    for (i = 0; i < hs->nevents; i++) {
        struct hevent *he = &hs->events[i];

        if (!registry_event_named(ev, he->event))
            continue;
        for (j = 0; j < he->n; j++) {
            struct handler *h = he->list[j];
            unsigned char bits;

            if (!handler_here(hs, h))
                continue;
            bits = handler_bits(hs, h);
            if (h->guard == NULL) {
                *uncond |= bits;
            } else if (k == max) {
                guard_unlisted(h->guard, ev);
                *uncond |= bits;
            } else if (guard_clause(h->guard, hs->in, ev, bits, h->tag, k,
                                    &cl[k])) {
                k++;
            } else {
                *uncond |= bits;
            }
        }
    }
    return k;
}

/* The lambda of H for event E, built when E's parameters differ from the
 * ones it was built for. */
static Tcl_Obj *lambda(struct handler *h, const struct registry_event *e)
{
    Tcl_Obj *params, *l[3];

    if (h->lambda != NULL) {
        if (interp_params_match(h->params, e))
            return h->lambda;
        Tcl_DecrRefCount(h->lambda);
        Tcl_DecrRefCount(h->params);
    }
    params = interp_params(e);
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
            if (!handler_here(hs, he->list[j]))
                continue;
            run = xreallocarray(run, n + 1, sizeof *run);
            run[n++] = he->list[j];
            he->list[j]->refs++;
        }
    }
    for (i = 0; i < n; i++) {
        int yes;

        h = run[i];
        if (h->guard != NULL &&
            (yes = guard_holds(h->guard, in, de)) <= 0) {
            if (yes < 0) {
                /* the handler does not run; the others do */
                interp_error(in, "in the condition of handler \"%s\" for "
                             "event \"%s\": %s", h->name, de->event->name,
                             Tcl_GetStringResult(in->tcl));
                Tcl_ResetResult(in->tcl);
            }
            continue;
        }
        if (interp_run_for(in, "handler", h->name, lambda(h, de->event), de) !=
            TCL_OK)
            break; /* the event's other handlers are skipped */
    }
    for (i = 0; i < n; i++)
        handler_unref(run[i]);
    free(run);
}

/* <design#checkpoints> What the handlers keep from the events: their
 * guards' hits (by the handler's tag); their variables are the Tcl
 * layer's (vars.c). */
struct saved_hits {
    unsigned int n;
    struct {
        unsigned int tag;
        uint64_t hits;
    } h[];
};

static void *state_save(void *arg, size_t *bytes)
{
    struct handlers *hs = arg;
    struct saved_hits *s;
    unsigned int n = 0, k = 0;

    for (unsigned int i = 0; i < hs->nevents; i++)
        n += hs->events[i].n;
    *bytes = sizeof *s + n * sizeof s->h[0];
    s = xmalloc(*bytes);
    for (unsigned int i = 0; i < hs->nevents; i++) {
        for (unsigned int j = 0; j < hs->events[i].n; j++) {
            const struct handler *h = hs->events[i].list[j];

            s->h[k].tag = h->tag;
            s->h[k].hits = guard_hits(h->guard);
            k++;
        }
    }
    s->n = k;
    return s;
}

static void state_restore(void *arg, const void *saved)
{
    struct handlers *hs = arg;
    const struct saved_hits *s = saved;

    for (unsigned int i = 0; i < hs->nevents; i++) {
        for (unsigned int j = 0; j < hs->events[i].n; j++) {
            struct handler *h = hs->events[i].list[j];
            uint64_t hits = 0;

            for (unsigned int k = 0; s != NULL && k < s->n; k++)
                if (s->h[k].tag == h->tag)
                    hits = s->h[k].hits;
            guard_set_hits(h->guard, hits);
        }
    }
}

static void state_release(void *arg, void *saved)
{
    (void)arg;
    free(saved);
}

static const struct ckpt_ops handler_state = {
    .save = state_save,
    .restore = state_restore,
    .release = state_release,
};

static const struct consumer_ops handler_ops = {.name = "handlers",
                                                .want = want,
                                                .deliver = deliver,
                                                .clauses = clauses,
                                                .state = &handler_state};

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

/* Whether EV is the event named ARG (NAME or ASPECT.NAME). */
static int named(void *arg, const struct registry_event *ev)
{
    return registry_event_named(ev, arg);
}

/* Check that EVENT names an event of the program, when its interface is
 * known. */
static int check_event(struct handlers *hs, const char *event)
{
    if (interp_interface(hs->in) == NULL)
        return TCL_OK;
    return interp_event(hs->in, event) != NULL ? TCL_OK : TCL_ERROR;
}

/* Install a handler at position INDEX (clamped) of EVENT's list,
 * replacing one of the same name; it runs only where COND holds (NULL:
 * always; the caller has checked it with guard_check()), and only inside
 * component WITHIN (OUTSIDE: outside it; NULL: anywhere). */
static struct handler *install(struct handlers *hs, const char *event,
                               int index, const char *name, int enabled,
                               enum handler_mode mode, Tcl_Obj *body,
                               Tcl_Obj *cond, const char *within, int outside)
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
    h->tag = hs->next_tag++;
    if (cond != NULL || within != NULL)
        h->guard = guard_create(cond, 0, 0, 0);
    if (within != NULL)
        guard_within(h->guard, hs->in, within, outside,
                     session_registry(hs->in->session) != NULL
                         ? registry_event_by_name(session_registry(hs->in->session), event)
                         : NULL);
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
    return h;
}

/* Component words {-within C} or {-outside C} in OBJ: 0 with *WITHIN and
 * *OUTSIDE, or -1 with a message in TCL. */
static int within_words(Tcl_Interp *tcl, Tcl_Obj *obj, const char **within, int *outside)
{
    Tcl_Obj **w;
    int n;

    if (Tcl_ListObjGetElements(NULL, obj, &n, &w) != TCL_OK || n != 2 ||
        (strcmp(Tcl_GetString(w[0]), "-within") != 0 &&
         strcmp(Tcl_GetString(w[0]), "-outside") != 0) ||
        Tcl_GetString(w[1])[0] == '\0') {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
            "n_install_handler: expected {-within COMPONENT} or {-outside COMPONENT}, "
            "got \"%s\"", Tcl_GetString(obj)));
        return -1;
    }
    *within = Tcl_GetString(w[1]);
    *outside = Tcl_GetString(w[0])[1] == 'o';
    return 0;
}

/* n_install_handler {EVENT INDEX NAME ENABLED {BODY} ?{CONDITION}?
 * ?{-within COMPONENT}?} (a condition "" with the last: none) */
static int cmd_install(ClientData cd, Tcl_Interp *tcl, int objc,
                       Tcl_Obj *const objv[])
{
    struct handlers *hs = cd;
    Tcl_Obj **f, *cond;
    int nf, index, enabled, outside = 0;
    const char *within = NULL;

    if (objc != 2) {
        Tcl_WrongNumArgs(tcl, 1, objv,
                         "{EVENT INDEX NAME ENABLED BODY ?CONDITION?}");
        return TCL_ERROR;
    }
    if (Tcl_ListObjGetElements(tcl, objv[1], &nf, &f) != TCL_OK)
        return TCL_ERROR;
    if (nf < 5 || nf > 7) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
            "n_install_handler: expected a list {EVENT INDEX NAME ENABLED "
            "BODY ?CONDITION? ?{-within COMPONENT}?} of 5 to 7 elements, got %d", nf));
        return TCL_ERROR;
    }
    if (nf == 7 && within_words(tcl, f[6], &within, &outside) != 0)
        return TCL_ERROR;
    cond = nf >= 6 && !(nf == 7 && Tcl_GetString(f[5])[0] == '\0') ? f[5] : NULL;
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
    if (cond != NULL && guard_check(tcl, cond) != TCL_OK)
        return TCL_ERROR;
    install(hs, Tcl_GetString(f[0]), index, Tcl_GetString(f[2]), enabled,
            HANDLER_AUTO, f[4], cond, within, outside);
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

/* Write the handlers of HE to F as n_install_handler lines (with a sixth
 * element, the condition, for those that have one); how many. */
static unsigned int save_event(FILE *f, struct hevent *he)
{
    unsigned int i;

    for (i = 0; i < he->n; i++) {
        struct handler *h = he->list[i];
        Tcl_Obj *l[7], *line, *outer;
        int outside = 0, n = 5;
        const char *within = h->guard != NULL ? guard_within_name(h->guard, &outside) : NULL;

        l[0] = Tcl_NewStringObj(he->event, -1);
        l[1] = Tcl_NewIntObj((int)i);
        l[2] = Tcl_NewStringObj(h->name, -1);
        l[3] = Tcl_NewIntObj(h->enabled);
        l[4] = h->body;
        if (h->guard != NULL && guard_cond(h->guard) != NULL)
            l[n++] = guard_cond(h->guard);
        if (within != NULL) {
            Tcl_Obj *w[2];

            if (n == 5)
                l[n++] = Tcl_NewObj();
            w[0] = Tcl_NewStringObj(outside ? "-outside" : "-within", -1);
            w[1] = Tcl_NewStringObj(within, -1);
            l[n++] = Tcl_NewListObj(2, w);
        }
        line = Tcl_NewListObj(n, l);
        outer = Tcl_NewListObj(1, &line);
        Tcl_IncrRefCount(outer);
        fprintf(f, "n_install_handler %s\n", Tcl_GetString(outer));
        Tcl_DecrRefCount(outer);
    }
    return he->n;
}

static int save(struct handlers *hs, Tcl_Interp *tcl, const char *path,
                const char *event)
{
    char *tmp = xasprintf("%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    unsigned int i, n = 0;

    if (f == NULL) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf("cannot write %s: %s", path,
                                            strerror(errno)));
        free(tmp);
        return TCL_ERROR;
    }
    for (i = 0; i < hs->nevents; i++) {
        if (event == NULL || strcmp(hs->events[i].event, event) == 0)
            n += save_event(f, &hs->events[i]);
    }
    if (fclose(f) != 0 || rename(tmp, path) != 0) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf("cannot write %s: %s", path,
                                            strerror(errno)));
        unlink(tmp);
        free(tmp);
        return TCL_ERROR;
    }
    free(tmp);
    interp_sayf(hs->in, "Saved %u handler%s to %s.\n", n, n == 1 ? "" : "s",
                path);
    return TCL_OK;
}

/* Where the condition of handler H of HE runs (caller frees). */
static char *handler_where(struct handlers *hs, struct hevent *he,
                           struct handler *h)
{
    struct registry *reg = session_registry(hs->in->session);
    const struct registry_event *ev;

    if (reg == NULL || (ev = registry_event_by_name(reg, he->event)) == NULL)
        return xstrdup("where it runs is known once the program's "
                       "interface is");
    return guard_where(h->guard, hs->in, hs->consumer, h->tag, ev);
}

char *handlers_where(struct handlers *hs, const char *event,
                     const char *name)
{
    struct hevent *he = find_event(hs, event);
    struct handler *h = find_handler(he, name, NULL);

    if (h == NULL || h->guard == NULL)
        return NULL;
    return handler_where(hs, he, h);
}

static void list_event(struct handlers *hs, struct hevent *he)
{
    struct interp *in = hs->in;
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
        if (h->pid != 0)
            interp_sayf(in, "    only in process %d\n", (int)h->pid);
        if (h->guard != NULL) {
            char *where = handler_where(hs, he, h);

            if (guard_cond(h->guard) != NULL)
                interp_sayf(in, "    if %s\n", Tcl_GetString(guard_cond(h->guard)));
            if (*guard_within_words(h->guard) != '\0')
                interp_sayf(in, "   %s\n", guard_within_words(h->guard));
            interp_sayf(in, "    condition runs %s\n", where);
            free(where);
        }
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
        Tcl_Obj *cond = NULL;
        pid_t pid = 0;
        int k, outside = 0;
        const char *within = NULL;

        if (objc < 5) {
            Tcl_WrongNumArgs(tcl, 2, objv,
                             "EVENT NAME BODY ?-stop|-nostop? ?-if CONDITION? "
                             "?-pid PID? ?-within|-outside COMPONENT?");
            return TCL_ERROR;
        }
        for (k = 5; k < objc; k++) {
            const char *m = Tcl_GetString(objv[k]);

            if (strcmp(m, "-stop") == 0) {
                mode = HANDLER_STOP;
            } else if (strcmp(m, "-nostop") == 0) {
                mode = HANDLER_RECORD;
            } else if (strcmp(m, "-if") == 0 && k + 1 < objc) {
                cond = objv[++k];
            } else if (strcmp(m, "-pid") == 0 && k + 1 < objc) {
                if (interp_pid(in, "handler add", objv[++k], &pid) != TCL_OK)
                    return TCL_ERROR;
            } else if ((strcmp(m, "-within") == 0 || strcmp(m, "-outside") == 0) &&
                       k + 1 < objc && Tcl_GetString(objv[k + 1])[0] != '\0') {
                if (within != NULL) {
                    Tcl_SetObjResult(tcl, Tcl_NewStringObj(
                        "handler add: one -within or -outside at most", -1));
                    return TCL_ERROR;
                }
                outside = m[1] == 'o';
                within = Tcl_GetString(objv[++k]);
                if (guard_within_check(tcl, "handler add", m, within) != TCL_OK)
                    return TCL_ERROR;
            } else if (strcmp(m, "-if") == 0 || strcmp(m, "-pid") == 0 ||
                       strcmp(m, "-within") == 0 || strcmp(m, "-outside") == 0) {
                Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
                    "handler add: %s needs %s", m,
                    m[1] == 'i' ? "a condition" : m[1] == 'p' ? "a process id"
                                                              : "a component"));
                return TCL_ERROR;
            } else {
                Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
                    "handler add: expected -stop, -nostop, -if, -pid, -within or "
                    "-outside, got \"%s\"", m));
                return TCL_ERROR;
            }
        }
        if (check_event(hs, Tcl_GetString(objv[2])) != TCL_OK)
            return TCL_ERROR;
        if (cond != NULL &&
            (guard_check(tcl, cond) != TCL_OK ||
             guard_check_reads(tcl, "handler add", cond,
                               interp_interface(in), named,
                               Tcl_GetString(objv[2]), 1) != TCL_OK))
            return TCL_ERROR;
        install(hs, Tcl_GetString(objv[2]), 0, Tcl_GetString(objv[3]), 1,
                mode, objv[4], cond, within, outside)->pid = pid;
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
                struct handler *g = he->list[at];
                Tcl_Obj *l[5];

                l[0] = Tcl_NewStringObj(he->event, -1);
                l[1] = Tcl_NewStringObj(g->name, -1);
                l[2] = Tcl_NewIntObj(g->enabled);
                l[3] = g->body;
                l[4] = g->guard != NULL ? guard_cond(g->guard) : NULL;
                Tcl_ListObjAppendElement(NULL, result, Tcl_NewListObj(
                                                           l[4] != NULL ? 5
                                                                        : 4,
                                                           l));
                any = 1;
            }
            if (sub == LIST)
                list_event(hs, he);
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
            "n_ename, n_time, n_thread, n_pid) as variables.\n"
            "  handler add EVENT NAME BODY ?-stop|-nostop? ?-if CONDITION? ?-pid PID?\n"
            "              ?-within|-outside COMPONENT?      add (run first); with -if,\n"
            "                                                only where CONDITION holds;\n"
            "                                                with -pid, only in process\n"
            "                                                PID (not saved); with\n"
            "                                                -within, only inside\n"
            "                                                COMPONENT (-outside: not)\n"
            "  handler remove EVENT NAME\n"
            "  handler enable|disable EVENT NAME\n"
            "  handler rename EVENT NAME NEWNAME\n"
            "  handler body EVENT NAME ?BODY?                show or change the code\n"
            "  handler list ?EVENT?                          print them\n"
            "  handler get ?EVENT?                           as a list {EVENT NAME ENABLED BODY\n"
            "                                                ?CONDITION?}\n"
            "  handler save FILE ?EVENT?                     as n_install_handler lines\n"
            "  handler load FILE\n"
            "A handler stops the program at its event only when it needs to (it calls\n"
            "n_send or n_break, or was added with -stop); others run while the program\n"
            "goes on.  CONDITION is a Tcl expression over the same variables, as for\n"
            "break: evaluated in the program itself where its shape allows (see\n"
            "conditions), otherwise in noosa; handler list says where.  A handler\n"
            "that returns -code break skips the event's other handlers; an error\n"
            "or any other code is reported and skips them too.",
     .complete = COMMAND_COMPLETE_HANDLER,
     .flags = COMMAND_CONDITION,
     .proc = cmd_handler},
    {.name = "n_install_handler",
     .min_args = 1,
     .max_args = 1,
     .usage = "n_install_handler {EVENT INDEX NAME ENABLED BODY ?CONDITION? "
              "?{-within COMPONENT}?}",
     .summary = "add a handler (in saved handler files)",
     .help = "Add handler NAME of EVENT, at place INDEX of its handlers, enabled or\n"
            "not, running BODY (only where CONDITION holds, when given, and only\n"
            "inside COMPONENT with {-within COMPONENT}, outside with -outside; a\n"
            "CONDITION \"\" is none then): the lines handler save writes.",
     .complete = COMMAND_COMPLETE_NONE,
     .flags = COMMAND_API,
     .proc = cmd_install},
    {0}};

void handlers_init_commands(struct handlers *hs)
{
    command_register(hs->in, commands, hs);
}
