/* SPDX-License-Identifier: MIT */
/*
 * reclive.c - recording a live session (reclive.h).  The consumer wants
 * RECORD for the chosen events; aspects are not items a consumer hears
 * of, so before each event it writes the aspects the registry has gained
 * since the last (a new aspect comes before any event of it).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "dapto.h"
#include "dispatch.h"
#include "reclive.h"
#include "recwrite.h"
#include "session.h"
#include "sink.h"
#include "symnames.h"
#include "xmalloc.h"

struct reclive {
    enum reclive_kind kind;
    char *path;
    char **events;        /* NULL: every event */
    struct dispatch *d;
    struct session *s;
    struct sink *sink;
    struct consumer *c;
    struct consumer_hooks more; /* kept by the dispatcher */
    struct recwrite *w;   /* RECLIVE_RECORDING */
    struct export *e;     /* the exports */
    unsigned int naspects; /* written so far */
    char **anames;        /* their names (the recording's interface) */
    int runs;             /* hellos seen */
    int ended;            /* a second run: nothing more is recorded */
    uint64_t count;
};

/* Whether the current process has the recording's interface: a process
 * of the run that executed another program has its own codes, which the
 * recording cannot tell from the first one's <design#processes>. */
static int rl_same(struct reclive *rl)
{
    struct registry *reg = session_registry(rl->s);

    if (rl->w == NULL || reg == NULL || !session_multi(rl->s))
        return 1;
    for (unsigned int i = 0; i < rl->naspects; i++)
        if (i >= registry_naspects(reg) ||
            strcmp(registry_aspect_at(reg, i)->name, rl->anames[i]) != 0)
            return 0;
    return 1;
}

static unsigned char rl_want(void *arg, const struct registry_event *ev)
{
    struct reclive *rl = arg;

    if (rl->ended || !rl_same(rl))
        return 0;
    if (rl->events == NULL)
        return DAPTO_STATE_RECORD;
    for (char **p = rl->events; *p != NULL; p++)
        if (registry_event_named(ev, *p))
            return DAPTO_STATE_RECORD;
    return 0;
}

/* Write the aspects the registry gained (recordings only). */
static void rl_aspects(struct reclive *rl, int64_t ns)
{
    struct registry *reg = session_registry(rl->s);

    if (rl->w == NULL || reg == NULL)
        return;
    while (rl->naspects < registry_naspects(reg)) {
        struct registry_aspect *a = registry_aspect_at(reg, rl->naspects);

        rl->anames = xreallocarray(rl->anames, rl->naspects + 1,
                                   sizeof *rl->anames);
        rl->anames[rl->naspects++] = xstrdup(a->name);
        recwrite_aspect(rl->w, a, ns);
    }
}

static void rl_deliver(void *arg, struct dispatch_event *de)
{
    struct reclive *rl = arg;

    if (rl->ended)
        return;
    rl->count++;
    if (rl->w != NULL) {
        rl_aspects(rl, de->item->ns);
        recwrite_item(rl->w, de->item);
    } else {
        /* (its process's track <design#processes>) */
        if (session_multi(rl->s))
            export_set_pid(rl->e, session_pid(rl->s));
        export_item(rl->e, de->item);
    }
}

static void rl_started(void *arg, const struct reader_item *item)
{
    struct reclive *rl = arg;

    if (rl->ended)
        return;
    if (rl->runs++ > 0) {
        rl->ended = 1;
        dispatch_changed(rl->d);
        sink_fresh_line(rl->sink);
        sink_sayf(rl->sink, "Recording to %s ended with the last run "
                  "(\"record stop\" closes it).\n", rl->path);
        return;
    }
    if (rl->w != NULL)
        recwrite_item(rl->w, item);
    else
        export_set_pid(rl->e, item->pid);
}

static void rl_functions(void *arg, const struct reader_fn *fns,
                         unsigned int n)
{
    struct reclive *rl = arg;

    if (rl->ended || rl->w == NULL)
        return;
    rl_aspects(rl, n > 0 ? fns[0].ns : 0);
    rl->count += n;
    recwrite_functions(rl->w, fns, n);
}

static const char *rl_fname(void *arg, uint64_t addr)
{
    struct reclive *rl = arg;
    size_t len;

    return symnames_name(dispatch_symnames(rl->d), addr, &len);
}

static const struct consumer_ops rl_ops = {
    .name = "record",
    .want = rl_want,
    .deliver = rl_deliver,
};

int reclive_start(struct reclive **out, enum reclive_kind kind,
                  const char *path, char *const *events, struct dispatch *d,
                  struct session *s, struct sink *sink, char **cause)
{
    struct reclive *rl = xcalloc(1, sizeof *rl);
    size_t n = 0;

    rl->kind = kind;
    rl->path = xstrdup(path);
    rl->d = d;
    rl->s = s;
    rl->sink = sink;
    if (events != NULL) {
        while (events[n] != NULL)
            n++;
        rl->events = xcalloc(n + 1, sizeof *rl->events);
        for (size_t i = 0; i < n; i++)
            rl->events[i] = xstrdup(events[i]);
    }
    if (kind == RECLIVE_RECORDING) {
        struct recwrite_opts wo;

        memset(&wo, 0, sizeof wo);
        wo.argv = session_argv(s);
        wo.function_name = rl_fname;
        wo.arg = rl;
        if (recwrite_open(&rl->w, path, &wo, cause) != 0)
            goto fail;
    } else if (export_open(&rl->e,
                           kind == RECLIVE_CHROME ? EXPORT_CHROME
                                                  : EXPORT_PERFETTO,
                           path, session_pid(s), rl_fname, rl, cause) != 0) {
        goto fail;
    }
    /* a run under way: its hello has gone by */
    if (session_state(s) != SESSION_IDLE)
        rl->runs = 1;
    rl->c = dispatch_add(d, &rl_ops, rl);
    rl->more.started = rl_started;
    if (kind == RECLIVE_RECORDING)
        rl->more.functions = rl_functions;
    dispatch_set_hooks(d, rl->c, &rl->more);
    dispatch_changed(d);
    *out = rl;
    return 0;

fail:
    for (size_t i = 0; rl->events != NULL && rl->events[i] != NULL; i++)
        free(rl->events[i]);
    free(rl->events);
    for (unsigned int i = 0; i < rl->naspects; i++)
        free(rl->anames[i]);
    free(rl->anames);
    free(rl->path);
    free(rl);
    return -1;
}

int reclive_stop(struct reclive *rl, char **cause)
{
    int rc;

    dispatch_remove(rl->d, rl->c);
    dispatch_changed(rl->d);
    if (rl->w != NULL) {
        if (session_state(rl->s) == SESSION_IDLE &&
            session_ended(rl->s, &(int){0}, &(int){0}) && rl->runs > 0) {
            int status, signo;

            session_ended(rl->s, &status, &signo);
            recwrite_end(rl->w, status, signo);
        }
        rc = recwrite_close(rl->w, cause);
    } else {
        rc = export_close(rl->e, cause);
    }
    for (size_t i = 0; rl->events != NULL && rl->events[i] != NULL; i++)
        free(rl->events[i]);
    free(rl->events);
    for (unsigned int i = 0; i < rl->naspects; i++)
        free(rl->anames[i]);
    free(rl->anames);
    free(rl->path);
    free(rl);
    return rc;
}

void reclive_flight(struct reclive *rl, size_t flight)
{
    if (rl->w != NULL)
        recwrite_set_flight(rl->w, flight);
}

int reclive_dump(struct reclive *rl, char **cause)
{
    if (rl->w == NULL) {
        xcause(cause, "%s is an export, written as it goes", rl->path);
        return -1;
    }
    return recwrite_dump(rl->w, cause);
}

const char *reclive_path(const struct reclive *rl)
{
    return rl->path;
}

enum reclive_kind reclive_kind(const struct reclive *rl)
{
    return rl->kind;
}

uint64_t reclive_events(const struct reclive *rl)
{
    return rl->count;
}
