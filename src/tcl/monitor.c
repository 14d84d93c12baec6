/* SPDX-License-Identifier: MIT */
/*
 * monitor.c - monitors written in Tcl (n_monitor), artificial events
 * (n_post), the list of built-in monitors, and the `monitor` command:
 *
 *     monitor list ?-all?          the monitors (-all: every consumer of
 *                                  the coordinator, noosa's own included)
 *     monitor names                their names, as a list
 *     monitor load FILE            load a monitor file (monitors enabled)
 *     monitor enable|disable NAME  turn a monitor on or off
 *     monitor remove NAME          forget a Tcl monitor
 *     monitor post NAME ?ARG ...?  post an artificial event (as n_post)
 *
 * A Tcl monitor's bodies run as apply lambdas in the namespace
 * ::noosa::monitor::NAME (so `variable` keeps state between events), with
 * the event's parameters as variables (and n_ename, n_time, n_thread,
 * n_pid); for an artificial event (-post) n_ename, n_args and n_from (the
 * monitor that posted it, or "" for the user); for a notice n_notice.
 * See monitor.h.
 *
 * A subscription -on EVENT BODY followed by -if CONDITION holds only where
 * CONDITION does: a guard (guard.h), listed as a clause for the program to
 * evaluate where its shape allows, tagged with the subscription's own tag
 * <monitors#conditions>.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dapto.h"
#include "checkpoint.h"
#include "command.h"
#include "guard.h"
#include "interp.h"
#include "monitor.h"
#include "xmalloc.h"

struct mon_on {
    int post;      /* an artificial event (-post), else a program event */
    char *pattern; /* an event or artificial event name, or a glob */
    Tcl_Obj *body;
    Tcl_Obj *lambda; /* for program events: built for PARAMS */
    Tcl_Obj *params;
    Tcl_Obj *post_lambda; /* for artificial events */
    struct guard *guard;  /* its condition (-if), or NULL: always */
    unsigned int tag;     /* its clauses' name in the dispatcher */
};

struct tclmon {
    int refs;
    int dead;
    struct monitors *m;
    char *name;
    char *file;
    char *desc;
    struct consumer_ops ops;
    struct consumer *c;
    struct mon_on *on;
    unsigned int non;
    Tcl_Obj *notice; /* lambda, or NULL */
    int force_stop;
};

struct builtin {
    struct consumer *c;
    char *summary;
};

struct monitors {
    struct interp *in;
    struct tclmon **list;
    unsigned int n;
    struct builtin *b;
    unsigned int nb;
    int library;            /* loading the library: monitors start off */
    struct tclmon *running; /* whose body runs now (n_post's sender) */
    unsigned int next_tag;  /* of the next subscription defined */
};

/* --- monitors ------------------------------------------------------------- */

static void on_clear(struct mon_on *o)
{
    free(o->pattern);
    Tcl_DecrRefCount(o->body);
    if (o->lambda != NULL)
        Tcl_DecrRefCount(o->lambda);
    if (o->params != NULL)
        Tcl_DecrRefCount(o->params);
    if (o->post_lambda != NULL)
        Tcl_DecrRefCount(o->post_lambda);
    guard_free(o->guard);
}

static void mon_definition_free(struct tclmon *t)
{
    unsigned int i;

    for (i = 0; i < t->non; i++)
        on_clear(&t->on[i]);
    free(t->on);
    t->on = NULL;
    t->non = 0;
    if (t->notice != NULL)
        Tcl_DecrRefCount(t->notice);
    t->notice = NULL;
    free(t->desc);
    t->desc = NULL;
    free(t->file);
    t->file = NULL;
}

static void mon_unref(struct tclmon *t)
{
    if (--t->refs > 0)
        return;
    mon_definition_free(t);
    free(t->name);
    free(t);
}

static struct tclmon *find_tcl(struct monitors *m, const char *name)
{
    unsigned int i;

    for (i = 0; i < m->n; i++) {
        if (strcmp(m->list[i]->name, name) == 0)
            return m->list[i];
    }
    return NULL;
}

static struct consumer *find_builtin(struct monitors *m, const char *name,
                                     const char **summary)
{
    unsigned int i;

    for (i = 0; i < m->nb; i++) {
        if (strcmp(dispatch_name(m->b[i].c), name) == 0) {
            if (summary != NULL)
                *summary = m->b[i].summary;
            return m->b[i].c;
        }
    }
    return NULL;
}

/* Whether PATTERN names or matches program event EV. */
static int on_event(const char *pattern, const struct registry_event *ev)
{
    char qualified[256];

    if (registry_event_named(ev, pattern))
        return 1;
    if (strpbrk(pattern, "*?[") == NULL)
        return 0;
    if (Tcl_StringMatch(ev->name, pattern))
        return 1;
    if (ev->aspect == NULL)
        return 0;
    snprintf(qualified, sizeof qualified, "%s.%s", ev->aspect->name,
             ev->name);
    return Tcl_StringMatch(qualified, pattern);
}

static int on_post(const char *pattern, const char *name)
{
    return strcmp(pattern, name) == 0 || Tcl_StringMatch(name, pattern);
}

static Tcl_Obj *namespace_of(const struct tclmon *t)
{
    return Tcl_ObjPrintf("::noosa::monitor::%s", t->name);
}

static Tcl_Obj *make_lambda(const struct tclmon *t, Tcl_Obj *params,
                            Tcl_Obj *body)
{
    Tcl_Obj *l[3], *lambda;

    l[0] = params;
    l[1] = body;
    l[2] = namespace_of(t);
    lambda = Tcl_NewListObj(3, l);
    Tcl_IncrRefCount(lambda);
    return lambda;
}

/* The lambda of O for event E (rebuilt when E's parameters differ). */
static Tcl_Obj *event_lambda(struct tclmon *t, struct mon_on *o,
                             const struct registry_event *e)
{
    Tcl_Obj *params;

    if (o->lambda != NULL && interp_params_match(o->params, e))
        return o->lambda;
    params = interp_params(e);
    Tcl_IncrRefCount(params);
    if (o->lambda != NULL) {
        Tcl_DecrRefCount(o->lambda);
        Tcl_DecrRefCount(o->params);
    }
    o->params = params;
    o->lambda = make_lambda(t, params, o->body);
    return o->lambda;
}

/* The state bits monitor T wants for subscription O. */
static unsigned char on_bits(struct tclmon *t, const struct mon_on *o)
{
    if (t->force_stop || interp_needs_stop(t->m->in, o->body))
        return DAPTO_STATE_RECORD | DAPTO_STATE_STOP;
    return DAPTO_STATE_RECORD;
}

/* A Tcl monitor keeps nothing of its own for the checkpoints (its
 * variables are the Tcl layer's). */
static void *mon_save(void *arg, size_t *bytes)
{
    (void)arg;
    *bytes = 0;
    return NULL;
}

static void mon_restore(void *arg, const void *saved)
{
    (void)arg;
    (void)saved;
}

static void mon_release(void *arg, void *saved)
{
    (void)arg;
    (void)saved;
}

static const struct ckpt_ops mon_state = {
    .save = mon_save,
    .restore = mon_restore,
    .release = mon_release,
};

static unsigned char mon_want(void *arg, const struct registry_event *ev)
{
    struct tclmon *t = arg;
    unsigned char state = 0;
    unsigned int i;

    for (i = 0; i < t->non; i++) {
        if (t->on[i].post || !on_event(t->on[i].pattern, ev))
            continue;
        state |= on_bits(t, &t->on[i]);
    }
    return state;
}

/* The conditions of T's subscriptions to EV, for the program
 * <protocol#filter>: one clause per subscription with a condition it can
 * evaluate, the others unconditional. */
static unsigned int mon_clauses(void *arg, const struct registry_event *ev,
                                unsigned char *uncond,
                                struct dispatch_clause *cl, unsigned int max)
{
    struct tclmon *t = arg;
    unsigned int i, k = 0;

    *uncond = 0;
    for (i = 0; i < t->non; i++) {
        struct mon_on *o = &t->on[i];
        unsigned char bits;

        if (o->post || !on_event(o->pattern, ev))
            continue;
        bits = on_bits(t, o);
        if (o->guard == NULL) {
            *uncond |= bits;
        } else if (k == max) {
            guard_unlisted(o->guard, ev);
            *uncond |= bits;
        } else if (guard_clause(o->guard, t->m->in, ev, bits, o->tag, k,
                                &cl[k])) {
            k++;
        } else {
            *uncond |= bits;
        }
    }
    return k;
}

static void mon_deliver(void *arg, struct dispatch_event *de)
{
    struct tclmon *t = arg;
    struct monitors *m = t->m;
    struct interp *in = m->in;
    struct tclmon *outer = m->running;
    unsigned int i;

    t->refs++;
    m->running = t;
    for (i = 0; i < t->non && !t->dead; i++) {
        struct mon_on *o = &t->on[i];

        if (o->post || !on_event(o->pattern, de->event))
            continue;
        if (o->guard != NULL) {
            int yes = guard_holds(o->guard, in, de);

            if (yes < 0) {
                /* this subscription does not run; the others do */
                interp_error(in, "in the condition of monitor \"%s\" for "
                             "event \"%s\": %s", t->name, de->event->name,
                             Tcl_GetStringResult(in->tcl));
                Tcl_ResetResult(in->tcl);
            }
            if (yes <= 0)
                continue;
        }
        if (interp_run_for(in, "monitor", t->name,
                           event_lambda(t, o, de->event), de) != TCL_OK)
            break;
    }
    m->running = outer;
    mon_unref(t);
}

static void mon_notice(void *arg, int on)
{
    struct tclmon *t = arg;
    struct interp *in = t->m->in;
    struct tclmon *outer = t->m->running;
    Tcl_Obj *cmd[3];
    int k;

    if (t->notice == NULL || t->dead)
        return;
    t->refs++;
    t->m->running = t;
    cmd[0] = in->apply;
    cmd[1] = t->notice;
    cmd[2] = Tcl_NewStringObj(on ? "enable" : "disable", -1);
    for (k = 0; k < 3; k++)
        Tcl_IncrRefCount(cmd[k]);
    if (Tcl_EvalObjv(in->tcl, 3, cmd, TCL_EVAL_GLOBAL) == TCL_ERROR)
        interp_error(in, "in monitor \"%s\" told it is %s: %s", t->name,
                     on ? "enabled" : "disabled",
                     Tcl_GetStringResult(in->tcl));
    Tcl_ResetResult(in->tcl);
    for (k = 0; k < 3; k++)
        Tcl_DecrRefCount(cmd[k]);
    t->m->running = outer;
    mon_unref(t);
}

static int mon_wants_post(void *arg, const char *name)
{
    struct tclmon *t = arg;
    unsigned int i;

    for (i = 0; i < t->non; i++) {
        if (t->on[i].post && on_post(t->on[i].pattern, name))
            return 1;
    }
    return 0;
}

static void mon_post(void *arg, const struct dispatch_post *p)
{
    struct tclmon *t = arg;
    struct interp *in = t->m->in;
    struct tclmon *outer = t->m->running;
    const char *from = p->from != NULL ? dispatch_name(p->from) : "";
    unsigned int i;
    int k;

    t->refs++;
    t->m->running = t;
    for (i = 0; i < t->non && !t->dead; i++) {
        struct mon_on *o = &t->on[i];
        Tcl_Obj *cmd[5];
        int rc;

        if (!o->post || !on_post(o->pattern, p->name))
            continue;
        if (o->post_lambda == NULL) {
            Tcl_Obj *params = Tcl_NewStringObj("n_ename n_args n_from", -1);

            o->post_lambda = make_lambda(t, params, o->body);
        }
        cmd[0] = in->apply;
        cmd[1] = o->post_lambda;
        cmd[2] = Tcl_NewStringObj(p->name, -1);
        cmd[3] = Tcl_NewListObj(0, NULL);
        for (k = 0; k < p->argc; k++)
            Tcl_ListObjAppendElement(NULL, cmd[3],
                                     Tcl_NewStringObj(p->argv[k], -1));
        cmd[4] = Tcl_NewStringObj(from, -1);
        for (k = 0; k < 5; k++)
            Tcl_IncrRefCount(cmd[k]);
        rc = Tcl_EvalObjv(in->tcl, 5, cmd, TCL_EVAL_GLOBAL);
        if (rc == TCL_ERROR)
            interp_error(in, "in monitor \"%s\" for artificial event "
                         "\"%s\": %s", t->name, p->name,
                         Tcl_GetStringResult(in->tcl));
        Tcl_ResetResult(in->tcl);
        for (k = 0; k < 5; k++)
            Tcl_DecrRefCount(cmd[k]);
        if (rc == TCL_ERROR)
            break;
    }
    t->m->running = outer;
    mon_unref(t);
}

static const struct consumer_hooks mon_more = {
    .wants_post = mon_wants_post,
    .post = mon_post,
};

static void mon_remove(struct monitors *m, struct tclmon *t)
{
    unsigned int i;

    for (i = 0; i < m->n; i++) {
        if (m->list[i] == t) {
            memmove(&m->list[i], &m->list[i + 1],
                    (m->n - i - 1) * sizeof *m->list);
            m->n--;
            break;
        }
    }
    t->dead = 1;
    dispatch_remove(m->in->dispatch, t->c);
    mon_unref(t);
}

/* --- n_monitor ------------------------------------------------------------ */

static int valid_name(const char *s)
{
    if (*s == '\0')
        return 0;
    for (; *s != '\0'; s++) {
        if (!(*s >= 'a' && *s <= 'z') && !(*s >= 'A' && *s <= 'Z') &&
            !(*s >= '0' && *s <= '9') && *s != '-' && *s != '_' && *s != '.')
            return 0;
    }
    return 1;
}

static int cmd_n_monitor(ClientData cd, Tcl_Interp *tcl, int objc,
                         Tcl_Obj *const objv[])
{
    struct monitors *m = cd;
    struct tclmon *t, fresh;
    const char *name;
    int i, enabled = -1, created = 0;
    int on_end = -1; /* the last word of the last -on EVENT BODY */
    Tcl_Obj *script;

    if (objc < 2) {
        Tcl_SetObjResult(tcl, Tcl_NewStringObj(
            "wrong # args: should be \"n_monitor NAME ?-description TEXT? "
            "?-on EVENT BODY ?-if CONDITION? ...? ?-post NAME BODY ...? "
            "?-notice BODY? "
            "?-enabled BOOL? ?-stop?\"",
            -1));
        return TCL_ERROR;
    }
    name = Tcl_GetString(objv[1]);
    if (!valid_name(name)) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
            "n_monitor: bad name \"%s\": use letters, digits, '-', '_' and "
            "'.'", name));
        return TCL_ERROR;
    }
    if (find_builtin(m, name, NULL) != NULL) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
            "n_monitor: \"%s\" is a built-in monitor", name));
        return TCL_ERROR;
    }
    /* parse into a fresh definition, so that an error changes nothing */
    memset(&fresh, 0, sizeof fresh);
    for (i = 2; i < objc; i++) {
        const char *opt = Tcl_GetString(objv[i]);

        if (strcmp(opt, "-stop") == 0) {
            fresh.force_stop = 1;
            continue;
        }
        if (strcmp(opt, "-on") == 0 || strcmp(opt, "-post") == 0) {
            struct mon_on *o;

            if (i + 2 >= objc) {
                Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
                    "n_monitor: %s needs an event name and a body", opt));
                goto fail;
            }
            if (Tcl_GetString(objv[i + 1])[0] == '\0') {
                Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
                    "n_monitor: %s needs an event name", opt));
                goto fail;
            }
            fresh.on = xreallocarray(fresh.on, fresh.non + 1,
                                     sizeof *fresh.on);
            o = &fresh.on[fresh.non++];
            memset(o, 0, sizeof *o);
            o->post = opt[1] == 'p';
            o->pattern = xstrdup(Tcl_GetString(objv[i + 1]));
            o->body = objv[i + 2];
            Tcl_IncrRefCount(o->body);
            o->tag = m->next_tag++;
            i += 2;
            on_end = o->post ? -1 : i;
            continue;
        }
        if (strcmp(opt, "-if") == 0) {
            struct mon_on *o = fresh.non > 0 ? &fresh.on[fresh.non - 1]
                                             : NULL;

            if (o == NULL || on_end != i - 1) {
                Tcl_SetObjResult(tcl, Tcl_NewStringObj(
                    "n_monitor: -if CONDITION follows -on EVENT BODY", -1));
                goto fail;
            }
            if (i + 1 >= objc) {
                Tcl_SetObjResult(tcl, Tcl_NewStringObj(
                    "n_monitor: -if needs a condition", -1));
                goto fail;
            }
            if (guard_check(tcl, objv[i + 1]) != TCL_OK) {
                Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
                    "n_monitor: %s", Tcl_GetStringResult(tcl)));
                goto fail;
            }
            o->guard = guard_create(objv[++i], 0, 0, 0);
            continue;
        }
        if (i + 1 >= objc) {
            Tcl_SetObjResult(tcl, Tcl_ObjPrintf("n_monitor: %s needs a value",
                                                opt));
            goto fail;
        }
        if (strcmp(opt, "-description") == 0) {
            free(fresh.desc);
            fresh.desc = xstrdup(Tcl_GetString(objv[++i]));
        } else if (strcmp(opt, "-notice") == 0) {
            Tcl_Obj *params = Tcl_NewStringObj("n_notice", -1);

            if (fresh.notice != NULL)
                Tcl_DecrRefCount(fresh.notice);
            fresh.name = (char *)name;
            fresh.notice = make_lambda(&fresh, params, objv[++i]);
        } else if (strcmp(opt, "-enabled") == 0) {
            if (Tcl_GetBooleanFromObj(NULL, objv[++i], &enabled) != TCL_OK) {
                Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
                    "n_monitor: -enabled needs a boolean, not \"%s\"",
                    Tcl_GetString(objv[i])));
                goto fail;
            }
        } else {
            Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
                "n_monitor: unknown option \"%s\": should be -description, "
                "-on, -if, -post, -notice, -enabled or -stop", opt));
            goto fail;
        }
    }

    /* the namespace its bodies run in */
    script = Tcl_ObjPrintf("namespace eval ::noosa::monitor::%s {}", name);
    Tcl_IncrRefCount(script);
    Tcl_EvalObjEx(tcl, script, TCL_EVAL_GLOBAL);
    Tcl_DecrRefCount(script);
    Tcl_ResetResult(tcl);

    t = find_tcl(m, name);
    if (t != NULL && t->refs > 1) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
            "n_monitor: monitor \"%s\" cannot be redefined while it runs",
            name));
        goto fail;
    }
    if (t == NULL) {
        t = xcalloc(1, sizeof *t);
        t->refs = 1;
        t->m = m;
        t->name = xstrdup(name);
        t->ops.name = t->name;
        t->ops.want = mon_want;
        t->ops.deliver = mon_deliver;
        t->ops.notice = mon_notice;
        t->ops.clauses = mon_clauses;
        /* <design#checkpoints>: its state is its namespace's variables,
         * which the Tcl layer's checkpoints keep (vars.c); it is told of
         * the events a replay's move hands over */
        t->ops.state = &mon_state;
        m->list = xreallocarray(m->list, m->n + 1, sizeof *m->list);
        m->list[m->n++] = t;
        created = 1;
    } else {
        mon_definition_free(t);
    }
    t->on = fresh.on;
    t->non = fresh.non;
    t->notice = fresh.notice;
    t->desc = fresh.desc;
    t->force_stop = fresh.force_stop;
    if (Tcl_EvalEx(tcl, "info script", -1, TCL_EVAL_GLOBAL) == TCL_OK &&
        *Tcl_GetStringResult(tcl) != '\0')
        t->file = xstrdup(Tcl_GetStringResult(tcl));
    Tcl_ResetResult(tcl);
    if (created) {
        t->c = dispatch_add(m->in->dispatch, &t->ops, t);
        dispatch_set_hooks(m->in->dispatch, t->c, &mon_more);
        if (enabled == 0 || (enabled < 0 && m->library)) {
            /* quietly: it was never on */
            Tcl_Obj *notice = t->notice;

            t->notice = NULL;
            dispatch_enable(m->in->dispatch, t->c, 0);
            t->notice = notice;
        }
    } else {
        if (enabled >= 0)
            dispatch_enable(m->in->dispatch, t->c, enabled);
        dispatch_changed(m->in->dispatch);
    }
    return TCL_OK;

fail:
    for (i = 0; i < (int)fresh.non; i++)
        on_clear(&fresh.on[i]);
    free(fresh.on);
    free(fresh.desc);
    if (fresh.notice != NULL)
        Tcl_DecrRefCount(fresh.notice);
    return TCL_ERROR;
}

/* --- n_post ---------------------------------------------------------------- */

static int post(struct monitors *m, Tcl_Interp *tcl, const char *what,
                int objc, Tcl_Obj *const objv[])
{
    struct dispatch_post p;
    const char **argv;
    char *cause = NULL;
    int i, n;

    if (objc < 1) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf("wrong # args: should be \"%s "
                                            "NAME ?ARG ...?\"",
                                            what));
        return TCL_ERROR;
    }
    if (Tcl_GetString(objv[0])[0] == '\0') {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf("%s: an artificial event needs "
                                            "a name",
                                            what));
        return TCL_ERROR;
    }
    argv = xcalloc((size_t)objc, sizeof *argv);
    for (i = 1; i < objc; i++)
        argv[i - 1] = Tcl_GetString(objv[i]);
    p.name = Tcl_GetString(objv[0]);
    p.from = m->running != NULL ? m->running->c : NULL;
    p.argc = objc - 1;
    p.argv = argv;
    n = dispatch_post(m->in->dispatch, &p, &cause);
    free(argv);
    if (n < 0) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf("%s: %s", what, cause));
        free(cause);
        return TCL_ERROR;
    }
    Tcl_SetObjResult(tcl, Tcl_NewIntObj(n));
    return TCL_OK;
}

static int cmd_n_post(ClientData cd, Tcl_Interp *tcl, int objc,
                      Tcl_Obj *const objv[])
{
    return post(cd, tcl, "n_post", objc - 1, objv + 1);
}

/* --- monitor ---------------------------------------------------------------- */

/* The events consumer C asks for in the current interface, as text. */
static char *wanted(struct monitors *m, struct consumer *c)
{
    struct registry *reg = session_registry(m->in->session);
    unsigned int code, n = 0, shown = 0;
    size_t len = 0, cap = 0;
    char *s = NULL;

    if (reg == NULL)
        return xstrdup("-");
    for (code = 0; code < registry_event_limit(reg); code++) {
        const struct registry_event *ev = registry_event(reg, code);
        size_t l;

        if (ev == NULL || dispatch_wants(c, ev) == 0)
            continue;
        n++;
        if (shown == 6)
            continue;
        shown++;
        l = strlen(ev->name) + 1;
        while (len + l + 1 > cap) {
            cap = cap == 0 ? 64 : cap * 2;
            s = xrealloc(s, cap);
        }
        if (len > 0)
            s[len++] = ' ';
        memcpy(s + len, ev->name, l - 1);
        len += l - 1;
        s[len] = '\0';
    }
    if (n == 0) {
        free(s);
        return xstrdup("(none)");
    }
    if (n > shown) {
        char *t = xasprintf("%s +%u more", s, n - shown);

        free(s);
        return t;
    }
    return s;
}

/* The condition of T's subscription O, and where it runs at each event
 * it applies to. */
static void list_condition(struct monitors *m, struct tclmon *t,
                           struct mon_on *o)
{
    struct registry *reg = session_registry(m->in->session);
    unsigned int code;

    interp_sayf(m->in, "    %s if %s\n", o->pattern,
                Tcl_GetString(guard_cond(o->guard)));
    if (reg == NULL) {
        interp_say(m->in, "      where it runs is known once the program's "
                          "interface is\n");
        return;
    }
    for (code = 0; code < registry_event_limit(reg); code++) {
        const struct registry_event *ev = registry_event(reg, code);
        char *where;

        if (ev == NULL || !on_event(o->pattern, ev))
            continue;
        where = guard_where(o->guard, m->in, t->c, o->tag, ev);
        interp_sayf(m->in, "      at %s: condition runs %s\n", ev->name,
                    where);
        free(where);
    }
}

static void list(struct monitors *m, int all)
{
    struct interp *in = m->in;
    unsigned int i, j;

    interp_sayf(in, "%-20s %-8s %-9s %s\n", "monitor", "state", "kind",
                "events");
    for (i = 0; i < m->nb; i++) {
        char *ev = wanted(m, m->b[i].c);

        interp_sayf(in, "%-20s %-8s %-9s %s\n", dispatch_name(m->b[i].c),
                    dispatch_enabled(m->b[i].c) ? "on" : "off", "built-in",
                    ev);
        interp_sayf(in, "    %s\n", m->b[i].summary);
        free(ev);
    }
    for (i = 0; i < m->n; i++) {
        struct tclmon *t = m->list[i];
        char *ev = wanted(m, t->c);

        interp_sayf(in, "%-20s %-8s %-9s %s\n", t->name,
                    dispatch_enabled(t->c) ? "on" : "off", "Tcl", ev);
        free(ev);
        if (t->desc != NULL)
            interp_sayf(in, "    %s\n", t->desc);
        interp_say(in, "    on:");
        for (j = 0; j < t->non; j++)
            interp_sayf(in, " %s%s", t->on[j].post ? "post " : "",
                        t->on[j].pattern);
        interp_say(in, t->non == 0 ? " nothing\n" : "\n");
        for (j = 0; j < t->non; j++) {
            if (t->on[j].guard != NULL)
                list_condition(m, t, &t->on[j]);
        }
        if (t->file != NULL)
            interp_sayf(in, "    from %s\n", t->file);
    }
    if (!all)
        return;
    interp_say(in, "every consumer of the coordinator, in order:\n");
    for (i = 0; i < dispatch_count(in->dispatch); i++) {
        struct consumer *c = dispatch_at(in->dispatch, i);
        char *ev = wanted(m, c);

        interp_sayf(in, "  %-20s %-8s %s\n", dispatch_name(c),
                    dispatch_enabled(c) ? "on" : "off", ev);
        free(ev);
    }
}

static int load(struct monitors *m, Tcl_Interp *tcl, const char *path)
{
    unsigned int before = m->n;
    int rc;

    if (access(path, R_OK) != 0) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf("monitor load: cannot read %s: "
                                            "%s",
                                            path, strerror(errno)));
        return TCL_ERROR;
    }
    rc = Tcl_EvalFile(tcl, path);
    if (rc == TCL_ERROR) {
        Tcl_Obj *opts = Tcl_GetReturnOptions(tcl, TCL_ERROR);
        Tcl_Obj *key = Tcl_NewStringObj("-errorline", -1), *line = NULL;
        Tcl_Obj *msg = Tcl_ObjPrintf("monitor load: %s", path);

        Tcl_IncrRefCount(opts);
        Tcl_IncrRefCount(key);
        Tcl_DictObjGet(NULL, opts, key, &line);
        if (line != NULL)
            Tcl_AppendPrintfToObj(msg, ":%s", Tcl_GetString(line));
        Tcl_AppendPrintfToObj(msg, ": %s", Tcl_GetStringResult(tcl));
        Tcl_DecrRefCount(key);
        Tcl_DecrRefCount(opts);
        Tcl_SetObjResult(tcl, msg);
        /* what it defined before the error stays */
        Tcl_IncrRefCount(msg);
        dispatch_flush(m->in->dispatch);
        Tcl_SetObjResult(tcl, msg);
        Tcl_DecrRefCount(msg);
        return TCL_ERROR;
    }
    Tcl_ResetResult(tcl);
    dispatch_flush(m->in->dispatch);
    if (m->n == before)
        interp_sayf(m->in, "%s defines no new monitor\n", path);
    return TCL_OK;
}

static int cmd_monitor(ClientData cd, Tcl_Interp *tcl, int objc,
                       Tcl_Obj *const objv[])
{
    static const char *const subs[] = {"list", "names", "load", "enable",
                                       "disable", "remove", "post", NULL};
    enum { LIST, NAMES, LOAD, ENABLE, DISABLE, REMOVE, POST };
    struct monitors *m = cd;
    struct consumer *c;
    struct tclmon *t;
    const char *name;
    int idx;
    unsigned int i;

    if (objc < 2) {
        Tcl_SetObjResult(tcl, Tcl_NewStringObj(
            "wrong # args: should be \"monitor list|names|load|enable|"
            "disable|remove|post ...\"", -1));
        return TCL_ERROR;
    }
    if (Tcl_GetIndexFromObj(tcl, objv[1], subs, "subcommand", 0, &idx) !=
        TCL_OK) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
            "monitor: unknown subcommand \"%s\": should be list, names, "
            "load, enable, disable, remove or post", Tcl_GetString(objv[1])));
        return TCL_ERROR;
    }
    switch (idx) {
    case LIST:
        if (objc > 3 || (objc == 3 && strcmp(Tcl_GetString(objv[2]),
                                             "-all") != 0)) {
            Tcl_SetObjResult(tcl, Tcl_NewStringObj(
                "wrong # args: should be \"monitor list ?-all?\"", -1));
            return TCL_ERROR;
        }
        list(m, objc == 3);
        return TCL_OK;
    case NAMES: {
        Tcl_Obj *l = Tcl_NewListObj(0, NULL);

        for (i = 0; i < m->nb; i++)
            Tcl_ListObjAppendElement(NULL, l, Tcl_NewStringObj(
                                                  dispatch_name(m->b[i].c),
                                                  -1));
        for (i = 0; i < m->n; i++)
            Tcl_ListObjAppendElement(NULL, l,
                                     Tcl_NewStringObj(m->list[i]->name, -1));
        Tcl_SetObjResult(tcl, l);
        return TCL_OK;
    }
    case POST:
        return post(m, tcl, "monitor post", objc - 2, objv + 2);
    default:
        break;
    }
    if (objc != 3) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
            "wrong # args: should be \"monitor %s %s\"", subs[idx],
            idx == LOAD ? "FILE" : "NAME"));
        return TCL_ERROR;
    }
    name = Tcl_GetString(objv[2]);
    if (idx == LOAD)
        return load(m, tcl, name);
    t = find_tcl(m, name);
    c = t != NULL ? t->c : find_builtin(m, name, NULL);
    if (c == NULL) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
            "monitor: no monitor \"%s\" (monitor list shows them)", name));
        return TCL_ERROR;
    }
    if (idx == REMOVE) {
        if (t == NULL) {
            Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
                "monitor remove: \"%s\" is built in: disable it instead",
                name));
            return TCL_ERROR;
        }
        mon_remove(m, t);
        return TCL_OK;
    }
    dispatch_enable(m->in->dispatch, c, idx == ENABLE);
    return TCL_OK;
}

/* --- the module ----------------------------------------------------------- */

struct monitors *monitors_create(struct interp *in)
{
    struct monitors *m = xcalloc(1, sizeof *m);

    m->in = in;
    return m;
}

void monitors_free(struct monitors *m)
{
    unsigned int i;

    if (m == NULL)
        return;
    for (i = 0; i < m->n; i++) {
        m->list[i]->dead = 1;
        mon_unref(m->list[i]);
    }
    free(m->list);
    for (i = 0; i < m->nb; i++)
        free(m->b[i].summary);
    free(m->b);
    free(m);
}

void monitors_builtin(struct monitors *m, struct consumer *c,
                      const char *summary)
{
    m->b = xreallocarray(m->b, m->nb + 1, sizeof *m->b);
    m->b[m->nb].c = c;
    m->b[m->nb].summary = xstrdup(summary);
    m->nb++;
}

static const struct command commands[] = {
    {.name = "monitor",
     .max_args = -1,
     .usage = "monitor list|names|load|enable|disable|remove|post ...",
     .summary = "monitors and their events",
     .help = "Monitors watch the program side by side, each getting only the events it\n"
            "asked for; the program emits only what some enabled monitor wants.\n"
            "  monitor list ?-all?            the monitors, on or off, and their events\n"
            "                                 (-all: every consumer of the coordinator)\n"
            "  monitor names                  their names, as a list\n"
            "  monitor load FILE              load a monitor file (its monitors on)\n"
            "  monitor enable|disable NAME    turn a monitor on or off; it is told\n"
            "  monitor remove NAME            forget a Tcl monitor\n"
            "  monitor post NAME ?ARG ...?    post an artificial event to the monitors\n"
            "The built-in monitors are frequency-profile, time-profile and trace.\n"
            "Monitor files in noosa's monitors/ directory, ~/.noosa/monitors and\n"
            "$XDG_CONFIG_HOME/noosa/monitors are loaded at start-up, off.  A monitor\n"
            "file defines monitors with n_monitor (see help n_monitor).",
     .complete = COMMAND_COMPLETE_SUBCOMMAND,
     .subcommands = (const char *const[]){
         "list -all", "names", "load @files", "enable @monitors",
         "disable @monitors", "remove @monitors", "post", NULL},
     .proc = cmd_monitor},
    {.name = "n_monitor",
     .max_args = -1,
     .usage = "n_monitor NAME ?OPTION ...?",
     .summary = "define a monitor (in a monitor file)",
     .help = "Define (or redefine) monitor NAME:\n"
            "  -description TEXT   one line for monitor list\n"
            "  -on EVENT BODY      run BODY on each EVENT of the program (NAME,\n"
            "                      ASPECT.NAME or a glob pattern); its parameters are\n"
            "                      variables, with n_ename, n_time, n_thread, n_pid\n"
            "  -if CONDITION       after -on EVENT BODY: only where CONDITION, a Tcl\n"
            "                      expression over the same variables, holds (in the\n"
            "                      program where its shape allows; monitor list says)\n"
            "  -post NAME BODY     run BODY on each artificial event NAME (or glob)\n"
            "                      posted by another monitor; variables n_ename, n_args\n"
            "                      (a list) and n_from (the monitor, \"\" for the user)\n"
            "  -notice BODY        run BODY when the monitor is disabled or enabled;\n"
            "                      n_notice is \"disable\" or \"enable\"\n"
            "  -enabled BOOL       on or off to begin with (default: on, but off for\n"
            "                      the files loaded at start-up)\n"
            "  -stop               stop the program at its events (needed by bodies\n"
            "                      that call n_send through procedures noosa cannot see)\n"
            "Bodies run in the namespace ::noosa::monitor::NAME: `variable` keeps state\n"
            "between events.  The program stops at an event only for bodies that need\n"
            "it (n_send, n_break).",
     .flags = COMMAND_API,
     .proc = cmd_n_monitor},
    {.name = "n_post",
     .max_args = -1,
     .usage = "n_post NAME ?ARG ...?",
     .summary = "post an artificial event to other monitors",
     .help = "Post artificial event NAME with arguments ARG ... through the coordinator\n"
            "to every enabled monitor that declared -post NAME (not to the one posting\n"
            "it).  Returns how many monitors received it.",
     .flags = COMMAND_API,
     .proc = cmd_n_post},
    {0}};

void monitors_init_commands(struct monitors *m)
{
    command_register(m->in, commands, m);
    monitor_functions_init(m->in);
}

void monitors_load_library(struct monitors *m, int no_user)
{
    char *path;

    m->library = 1;
    path = xasprintf("%s/monitors", m->in->datadir);
    interp_source_dir(m->in, path);
    free(path);
    if (!no_user)
        interp_source_user_dirs(m->in, "monitors");
    m->library = 0;
}
