/* SPDX-License-Identifier: MIT */
/*
 * vars.c - the Tcl variables of handlers and monitors as a participant of
 * a replay's checkpoints (<design#checkpoints>): what they hold is saved
 * with the other consumers' states and restored with them, through the
 * library's ::noosa::vars procedures (tcl/noosa.tcl), which say which
 * variables are kept.  Nothing else of Tcl's state can be saved: procs
 * defined, files and channels written, `after` scripts, what `puts`
 * printed happen again as the events are handed over again.
 *
 * What the user wrote at the prompt while the replay stood stopped is
 * the user's and no move touches it: the variables are looked at when
 * the play stops (or ends) and again when it goes on.
 */
#include "config.h"

#include <stdlib.h>

#include "checkpoint.h"
#include "interp.h"
#include "noosa.h"
#include "vars.h"
#include "xmalloc.h"

struct vars {
    struct interp *in;
    struct ckpt_part *part;
    int stood; /* the play stood still when last told */
};

/* Call PROC of ::noosa::vars with ARG (may be NULL): its result (a
 * reference taken), or NULL when it failed (said). */
static Tcl_Obj *vcall(struct vars *v, const char *proc, Tcl_Obj *arg)
{
    Tcl_Interp *tcl = v->in->tcl;
    Tcl_Obj *w[2], *r = NULL;
    int n = arg != NULL ? 2 : 1;

    w[0] = Tcl_ObjPrintf("::noosa::vars::%s", proc);
    w[1] = arg;
    for (int i = 0; i < n; i++)
        Tcl_IncrRefCount(w[i]);
    if (Tcl_EvalObjv(tcl, n, w, TCL_EVAL_GLOBAL) == TCL_OK) {
        r = Tcl_GetObjResult(tcl);
        Tcl_IncrRefCount(r);
    } else {
        interp_error(v->in, "the variables of handlers: %s",
                     Tcl_GetStringResult(tcl));
    }
    Tcl_ResetResult(tcl);
    for (int i = 0; i < n; i++)
        Tcl_DecrRefCount(w[i]);
    return r;
}

static void *vars_save(void *arg, size_t *bytes)
{
    struct vars *v = arg;
    Tcl_Obj *r = vcall(v, "save", NULL);
    int n = 0;

    if (r != NULL)
        Tcl_ListObjLength(NULL, r, &n);
    /* (the values are shared with the variables until they change) */
    *bytes = (size_t)n * 16;
    return r;
}

static void vars_restore(void *arg, const void *saved)
{
    struct vars *v = arg;
    Tcl_Obj *r;

    /* (nothing saved: the start of the play is not known, they stay) */
    if (saved == NULL)
        return;
    r = vcall(v, "restore", (Tcl_Obj *)saved);
    if (r != NULL)
        Tcl_DecrRefCount(r);
}

static void vars_release(void *arg, void *saved)
{
    (void)arg;
    if (saved != NULL)
        Tcl_DecrRefCount((Tcl_Obj *)saved);
}

static const struct ckpt_ops vars_ops = {
    .save = vars_save,
    .restore = vars_restore,
    .release = vars_release,
};

struct vars *vars_create(struct interp *in)
{
    struct vars *v = xcalloc(1, sizeof *v);

    v->in = in;
    if (in->noosa->ckpts != NULL)
        v->part = ckpts_join(in->noosa->ckpts, &vars_ops, v);
    return v;
}

void vars_free(struct vars *v)
{
    if (v == NULL)
        return;
    if (v->in->noosa->ckpts != NULL)
        ckpts_leave(v->in->noosa->ckpts, v->part);
    free(v);
}

void vars_status(struct vars *v)
{
    struct session *s = v->in->session;
    int status, signo, still;
    Tcl_Obj *r;

    if (!session_replaying(s))
        return;
    still = session_state(s) == SESSION_STOPPED ||
            (session_state(s) == SESSION_IDLE &&
             session_ended(s, &status, &signo));
    if (still == v->stood)
        return;
    v->stood = still;
    r = vcall(v, still ? "stopped" : "going", NULL);
    if (r != NULL)
        Tcl_DecrRefCount(r);
}
