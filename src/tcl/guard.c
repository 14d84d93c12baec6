/* SPDX-License-Identifier: MIT */
/*
 * guard.c - conditions of the Tcl layer's consumers, in the program or in
 * noosa.  See guard.h.
 *
 * In noosa, a condition is evaluated like a handler's code: an apply
 * lambda whose parameters are the event's, so the values are variables,
 * never code.  For the program, it is compiled again for each event it
 * applies to whenever the dispatcher rebuilds its table (codes belong to
 * one run), which happens at human speed, never per event.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cond-tcl.h"
#include "cond.h"
#include "guard.h"
#include "interp.h"
#include "protocol.h"
#include "relate.h"
#include "symnames.h"
#include "xmalloc.h"

/* Bytes of one compiled condition; a filter holds several. */
#define GUARD_PROG 1024

/* G compiled for one event code of the current run. */
struct gprog {
    unsigned int code;
    int len;           /* of prog; -1: not compilable (why) */
    int index;         /* its place in the consumer's clauses, -1: none */
    char *why;
    unsigned char prog[GUARD_PROG];
};

struct guard {
    Tcl_Obj *cond;
    Tcl_Obj *lambda; /* over the parameters PARAMS */
    Tcl_Obj *params;
    uint32_t every, after, count;
    uint64_t hits; /* times it held in noosa, for hit counting there */
    char counting[96];
    /* -within or -outside <design#relations>: the component, NULL:
     * none; the relations that test it; the words for listings */
    char *within;
    int outside;
    int noosa;
    struct relations *rel;
    char *within_words;
    struct gprog *progs;
    unsigned int nprogs;
};

/* The program of a guard without a condition but with hit counting. */
static const unsigned char always_prog[] = {
    DAPTO_FOP_CONST, 1, 0, 0, 0, 0, 0, 0, 0, DAPTO_FOP_END};

int guard_check(Tcl_Interp *tcl, Tcl_Obj *cond)
{
    Tcl_Parse parse;
    int len;
    const char *text;

    text = Tcl_GetStringFromObj(cond, &len);
    if (Tcl_ParseExpr(tcl, text, len, &parse) != TCL_OK) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf("bad condition \"%s\": %s", text,
                                            Tcl_GetStringResult(tcl)));
        return TCL_ERROR;
    }
    Tcl_FreeParse(&parse);
    return TCL_OK;
}

struct guard *guard_create(Tcl_Obj *cond, uint32_t every, uint32_t after,
                           uint32_t count)
{
    struct guard *g = xcalloc(1, sizeof *g);
    size_t n = 0;

    g->cond = cond;
    if (cond != NULL)
        Tcl_IncrRefCount(cond);
    g->every = every;
    g->after = after;
    g->count = count;
    if (every > 1)
        n += (size_t)snprintf(g->counting + n, sizeof g->counting - n,
                              " every %u", every);
    if (after > 0)
        n += (size_t)snprintf(g->counting + n, sizeof g->counting - n,
                              " after %u", after);
    if (count > 0)
        snprintf(g->counting + n, sizeof g->counting - n, " count %u", count);
    return g;
}

void guard_free(struct guard *g)
{
    unsigned int i;

    if (g == NULL)
        return;
    if (g->cond != NULL)
        Tcl_DecrRefCount(g->cond);
    if (g->lambda != NULL) {
        Tcl_DecrRefCount(g->lambda);
        Tcl_DecrRefCount(g->params);
    }
    for (i = 0; i < g->nprogs; i++)
        free(g->progs[i].why);
    free(g->progs);
    if (g->within != NULL && g->rel != NULL)
        relations_use(g->rel, 0, g->noosa);
    free(g->within);
    free(g->within_words);
    free(g);
}

int guard_within_check(Tcl_Interp *tcl, const char *what, const char *opt, const char *name)
{
    const char *why = NULL;

    if (name[0] == '\0') {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf("%s: %s needs a component", what, opt));
        return TCL_ERROR;
    }
    if (relations_name_ok(name, &why) != 0) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf("%s: %s \"%.40s...\": %s", what, opt, name, why));
        return TCL_ERROR;
    }
    return TCL_OK;
}

void guard_within(struct guard *g, struct interp *in, const char *name, int outside,
                  const struct registry_event *ev)
{
    unsigned char prog[GUARD_PROG];
    char *cause = NULL;

    if (g->within != NULL || name == NULL)
        return;
    g->within = xstrdup(name);
    g->outside = outside != 0;
    g->noosa = in->conditions_in_noosa ||
               (g->cond != NULL && ev != NULL &&
                cond_tcl_compile(in->tcl, Tcl_GetString(g->cond), ev, prog, sizeof prog - 8,
                                 &cause) < 0);
    free(cause);
    g->rel = in->relations;
    g->within_words = xasprintf(" %s %s", outside ? "-outside" : "-within", name);
    if (g->rel != NULL)
        relations_use(g->rel, 1, g->noosa);
}

const char *guard_within_name(const struct guard *g, int *outside)
{
    *outside = g->outside;
    return g->within;
}

const char *guard_within_words(const struct guard *g)
{
    return g->within_words != NULL ? g->within_words : "";
}

Tcl_Obj *guard_cond(const struct guard *g)
{
    return g->cond;
}

const char *guard_counting(const struct guard *g)
{
    return g->counting[0] == ' ' ? g->counting + 1 : g->counting;
}

int guard_always(const struct guard *g)
{
    return g->cond == NULL && g->every == 0 && g->after == 0 &&
           g->count == 0 && g->within == NULL;
}

/* Whether EV gives a variable NAME (LEN bytes). */
static int event_gives(const struct registry_event *ev, const char *name,
                       int len)
{
    static const char *const builtin[] = {"n_ename", "n_time", "n_thread",
                                          "n_pid"};
    unsigned int i;

    for (i = 0; i < ev->nparams; i++) {
        if ((int)strlen(ev->params[i].name) == len &&
            memcmp(ev->params[i].name, name, (size_t)len) == 0)
            return 1;
    }
    for (i = 0; i < sizeof builtin / sizeof builtin[0]; i++) {
        if ((int)strlen(builtin[i]) == len &&
            memcmp(builtin[i], name, (size_t)len) == 0)
            return 1;
    }
    return 0;
}

/* The first variable COND reads directly (not inside a command
 * substitution, and not a name with "::") that EV does not give: 1 with
 * its name in NAME (initialised here, freed by the caller), or 0. */
static int missing_var(Tcl_Obj *cond, const struct registry_event *ev,
                       Tcl_DString *name)
{
    Tcl_Parse parse;
    int len, i, missing = 0;
    const char *text;

    Tcl_DStringInit(name);
    text = Tcl_GetStringFromObj(cond, &len);
    if (Tcl_ParseExpr(NULL, text, len, &parse) != TCL_OK)
        return 0; /* guard_check() keeps this from happening */
    for (i = 0; !missing && i + 1 < parse.numTokens; i++) {
        const Tcl_Token *v = &parse.tokenPtr[i], *n = v + 1;

        if (v->type != TCL_TOKEN_VARIABLE || n->type != TCL_TOKEN_TEXT)
            continue;
        if (n->size >= 2 && memchr(n->start, ':', (size_t)n->size) != NULL)
            continue;
        if (!event_gives(ev, n->start, n->size)) {
            Tcl_DStringAppend(name, n->start, n->size);
            missing = 1;
        }
    }
    Tcl_FreeParse(&parse);
    return missing;
}

int guard_reads_event(const struct guard *g,
                      const struct registry_event *ev)
{
    Tcl_DString name;
    int missing;

    if (g->cond == NULL)
        return 1;
    missing = missing_var(g->cond, ev, &name);
    Tcl_DStringFree(&name);
    return !missing;
}

int guard_check_reads(Tcl_Interp *tcl, const char *what, Tcl_Obj *cond,
                      struct registry *reg,
                      int (*takes)(void *arg, const struct registry_event *ev),
                      void *arg, int every)
{
    const struct registry_event *lacks = NULL;
    Tcl_DString name, missing;
    unsigned int i, j, k, taken = 0, fine = 0;
    Tcl_Obj *msg;

    if (cond == NULL || reg == NULL)
        return TCL_OK;
    Tcl_DStringInit(&missing);
    for (i = 0; i < registry_naspects(reg); i++) {
        struct registry_aspect *a = registry_aspect_at(reg, i);

        for (j = 0; j < a->nevents; j++) {
            const struct registry_event *ev = &a->events[j];

            if (!takes(arg, ev))
                continue;
            taken++;
            if (!missing_var(cond, ev, &name)) {
                fine++;
            } else if (lacks == NULL) {
                lacks = ev;
                Tcl_DStringAppend(&missing, Tcl_DStringValue(&name), -1);
            }
            Tcl_DStringFree(&name);
        }
    }
    if (lacks == NULL || (!every && fine > 0)) {
        Tcl_DStringFree(&missing);
        return TCL_OK;
    }
    if (every || taken == 1) {
        msg = Tcl_ObjPrintf("%s: the condition reads $%s, which event %s "
                            "does not have: its parameters are ", what,
                            Tcl_DStringValue(&missing), lacks->name);
        for (k = 0; k < lacks->nparams; k++)
            Tcl_AppendPrintfToObj(msg, "%s$%s", k > 0 ? ", " : "",
                                  lacks->params[k].name);
        Tcl_AppendPrintfToObj(msg, "%s$n_ename, $n_time, $n_thread and "
                              "$n_pid", lacks->nparams > 0 ? "; and " : "");
    } else {
        msg = Tcl_ObjPrintf("%s: the condition reads $%s, which none of the "
                            "%u events it would apply to has", what,
                            Tcl_DStringValue(&missing), taken);
    }
    Tcl_DStringFree(&missing);
    Tcl_SetObjResult(tcl, msg);
    return TCL_ERROR;
}

uint64_t guard_hits(const struct guard *g)
{
    return g != NULL ? g->hits : 0;
}

void guard_set_hits(struct guard *g, uint64_t hits)
{
    if (g != NULL)
        g->hits = hits;
}

int guard_fires(uint32_t every, uint32_t after, uint32_t count, uint64_t h)
{
    uint64_t e = every != 0 ? every : 1;

    if (h <= after || (h - after) % e != 0)
        return 0;
    return count == 0 || (h - after) / e <= count;
}

static struct gprog *gprog_for(struct guard *g, unsigned int code, int make)
{
    unsigned int i;

    for (i = 0; i < g->nprogs; i++) {
        if (g->progs[i].code == code)
            return &g->progs[i];
    }
    if (!make)
        return NULL;
    g->progs = xreallocarray(g->progs, g->nprogs + 1, sizeof *g->progs);
    memset(&g->progs[g->nprogs], 0, sizeof *g->progs);
    g->progs[g->nprogs].code = code;
    g->progs[g->nprogs].index = -1;
    return &g->progs[g->nprogs++];
}

/* Put G's component test before the condition compiled in P
 * <protocol#relate>, or say why the program cannot test it. */
static void within_prog(struct guard *g, struct interp *in, struct gprog *p)
{
    unsigned char out[GUARD_PROG];
    const char *why = NULL;
    int comp, len;

    comp = in->relations != NULL ? relations_comp(in->relations, g->within, &why) : -1;
    if (comp < 0) {
        p->len = -1;
        p->why = xasprintf("the program cannot test component %s: %s", g->within,
                           why != NULL ? why : "components are not known");
        return;
    }
    len = cond_within((unsigned int)comp, g->outside,
                      g->cond != NULL ? p->prog : NULL, g->cond != NULL ? (size_t)p->len : 0,
                      out, sizeof out);
    if (len < 0) {
        p->len = -1;
        p->why = xstrdup("the condition is too long");
        return;
    }
    memcpy(p->prog, out, (size_t)len);
    p->len = len;
}

/* Compile G for EV into its entry (again: codes belong to one run). */
static struct gprog *compile(struct guard *g, struct interp *in,
                             const struct registry_event *ev)
{
    struct gprog *p = gprog_for(g, ev->code, 1);
    char *cause = NULL;

    free(p->why);
    p->why = NULL;
    p->index = -1;
    if (in->conditions_in_noosa) {
        p->len = -1;
        p->why = xstrdup("conditions are evaluated in noosa "
                         "(\"conditions program\" moves them)");
        return p;
    }
    if (g->cond == NULL) {
        memcpy(p->prog, always_prog, sizeof always_prog);
        p->len = (int)sizeof always_prog;
    } else {
        /* (room left for the component's test) */
        p->len = cond_tcl_compile(in->tcl, Tcl_GetString(g->cond), ev, p->prog,
                                  sizeof p->prog - 8, &cause);
        if (p->len < 0) {
            p->why = cause;
            return p;
        }
    }
    if (g->within != NULL)
        within_prog(g, in, p);
    return p;
}

int guard_clause(struct guard *g, struct interp *in,
                 const struct registry_event *ev, unsigned char bits,
                 unsigned int tag, unsigned int index,
                 struct dispatch_clause *cl)
{
    struct gprog *p = compile(g, in, ev);

    if (p->len < 0)
        return 0;
    p->index = (int)index;
    memset(cl, 0, sizeof *cl);
    cl->prog = p->prog;
    cl->len = (size_t)p->len;
    cl->bits = bits;
    cl->tag = tag;
    if (g->every != 0 || g->after != 0 || g->count != 0) {
        cl->every = g->every != 0 ? g->every : 1;
        cl->after = g->after;
        cl->count = g->count;
    }
    return 1;
}

void guard_unlisted(struct guard *g, const struct registry_event *ev)
{
    struct gprog *p = gprog_for(g, ev->code, 0);

    if (p != NULL)
        p->index = -1;
}

/* The condition of G as a lambda over E's parameters. */
static Tcl_Obj *cond_lambda(struct guard *g, const struct registry_event *e)
{
    Tcl_Obj *params, *l[3], *body[2];

    if (g->lambda != NULL) {
        if (interp_params_match(g->params, e))
            return g->lambda;
        Tcl_DecrRefCount(g->lambda);
        Tcl_DecrRefCount(g->params);
    }
    params = interp_params(e);
    Tcl_IncrRefCount(params);
    body[0] = Tcl_NewStringObj("expr", -1);
    body[1] = g->cond;
    l[0] = params;
    l[1] = Tcl_NewListObj(2, body);
    l[2] = Tcl_NewStringObj("::", -1);
    g->lambda = Tcl_NewListObj(3, l);
    Tcl_IncrRefCount(g->lambda);
    g->params = params; /* keeps the reference taken above */
    return g->lambda;
}

int guard_holds(struct guard *g, struct interp *in,
                const struct dispatch_event *de)
{
    struct gprog *p = gprog_for(g, de->event->code, 0);
    int yes = 1;

    if (p != NULL && p->len >= 0 && p->index >= 0 &&
        (de->placed & (1u << p->index)))
        return (de->held >> p->index) & 1;
    /* <design#relations>: noosa's stacks where the program did not test */
    if (g->within != NULL &&
        relations_within_noosa(in->relations, de->item->tid, g->within) == g->outside)
        return 0;
    if (g->cond != NULL) {
        if (interp_apply(in, cond_lambda(g, de->event), de->item) != TCL_OK ||
            Tcl_GetBooleanFromObj(in->tcl, Tcl_GetObjResult(in->tcl),
                                  &yes) != TCL_OK)
            return -1;
        Tcl_ResetResult(in->tcl);
        if (!yes)
            return 0;
    }
    if (g->every == 0 && g->after == 0 && g->count == 0)
        return 1;
    return guard_fires(g->every, g->after, g->count, ++g->hits);
}

/* Whether EV is the built-in enter or leave and the run has had function
 * records, whose names only noosa knows <protocol#filter>. */
static int function_event(struct interp *in, const struct registry_event *ev)
{
    size_t excluded;

    return (ev->code == DAPTO_EV_ENTER || ev->code == DAPTO_EV_LEAVE) &&
           ev->aspect != NULL && ev->aspect->event_base == 0 &&
           strcmp(ev->aspect->name, "dapto") == 0 &&
           symnames_count(dispatch_symnames(in->dispatch), &excluded) > 0;
}

char *guard_where(struct guard *g, struct interp *in,
                  const struct consumer *c, unsigned int tag,
                  const struct registry_event *ev)
{
    struct gprog *p = gprog_for(g, ev->code, 0);
    uint64_t checked, passed;
    const char *why = NULL;

    if (p == NULL || p->index < 0) {
        /* not listed in the last rebuild: see whether it would compile */
        p = compile(g, in, ev);
    }
    if (p->len < 0)
        return xasprintf("in noosa: %s", p->why);
    if (dispatch_clause_counts(in->dispatch, c, ev, tag, &checked,
                               &passed) == 0)
        return xasprintf("in the program: %llu checked, %llu passed%s",
                         (unsigned long long)checked,
                         (unsigned long long)passed,
                         function_event(in, ev)
                             ? "; in noosa for function entries and exits "
                               "(-finstrument-functions), which carry an "
                               "address, not a name"
                             : "");
    if (!dispatch_filters(in->dispatch, &why)) {
        if (session_state(in->session) == SESSION_IDLE)
            return xstrdup("in the program, once it runs");
        return xasprintf("in noosa: %s", why);
    }
    return xstrdup("in noosa: the event has no room for more conditions "
                   "in the program");
}
