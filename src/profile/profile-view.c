/* SPDX-License-Identifier: MIT */
/*
 * profile-view.c - views of the profiles: rows, flat (by component name)
 * or as a tree (by component stack), sorted, and their printed form.
 *
 * Time totals are sums over subtrees of the calling-context tree (a
 * child's number is larger than its parent's, so one pass from the last
 * node up makes them).  In the flat view a component's total counts a
 * subtree only where the component is not already on the stack above it,
 * so that recursion is not counted twice.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "dispatch.h"
#include "session.h"
#include "sink.h"
#include "profile-int.h"
#include "stacks.h"
#include "xmalloc.h"

#define TOP_LEVEL "(top level)"

/* --- rows ----------------------------------------------------------------- */

static struct profile_row *row_add(struct profile_rows *r)
{
    struct profile_row *row;

    r->rows = xgrow(r->rows, r->n, &r->cap, sizeof *r->rows);
    row = &r->rows[r->n++];
    memset(row, 0, sizeof *row);
    return row;
}

void profile_rows_free(struct profile_rows *r)
{
    size_t i;

    for (i = 0; i < r->n; i++)
        free(r->rows[i].label);
    free(r->rows);
    memset(r, 0, sizeof *r);
}

static enum profile_sort sort_key; /* for the qsort comparators */

static int cmp_i64(int64_t a, int64_t b)
{
    return a > b ? -1 : a < b ? 1 : 0;
}

static int cmp_rows(const void *pa, const void *pb)
{
    const struct profile_row *a = pa, *b = pb;
    int c = 0;

    switch (sort_key) {
    case PROFILE_SORT_COUNT:
        c = cmp_i64((int64_t)a->count, (int64_t)b->count);
        break;
    case PROFILE_SORT_SELF:
        c = cmp_i64(a->self_ns, b->self_ns);
        break;
    case PROFILE_SORT_TOTAL:
        c = cmp_i64(a->total_ns, b->total_ns);
        break;
    default:
        break;
    }
    if (c == 0)
        c = strcmp(a->label, b->label);
    return c;
}

static void sort_rows(struct profile_row *rows, size_t n,
                      enum profile_sort key)
{
    sort_key = key;
    if (n > 1)
        qsort(rows, n, sizeof *rows, cmp_rows);
}

/* --- the time profile ----------------------------------------------------- */

struct tsum {
    size_t n;
    int64_t *self, *total;
    uint64_t *calls;
};

static void tsum_free(struct tsum *s)
{
    free(s->self);
    free(s->total);
    free(s->calls);
}

static int time_sums(struct profile *p, pid_t thread, pid_t pid,
                     struct tsum *s, char **cause)
{
    struct cct *cct = stacks_cct(p->st);
    size_t i, k;
    int found = 0;

    s->n = cct_nnodes(cct);
    s->self = xcalloc(s->n, sizeof *s->self);
    s->total = xcalloc(s->n, sizeof *s->total);
    s->calls = xcalloc(s->n, sizeof *s->calls);
    for (i = 0; i < p->time.nthreads; i++) {
        const struct tthread *th = &p->time.threads[i];

        if ((thread != 0 && th->tid != thread) ||
            (pid != 0 && th->pid != pid))
            continue;
        found = 1;
        for (k = 0; k < th->n && k < s->n; k++) {
            s->self[k] += th->self[k];
            s->calls[k] += th->calls[k];
        }
    }
    if ((thread != 0 || pid != 0) && !found) {
        if (thread != 0)
            xcause(cause, "no thread %d in the time profile", (int)thread);
        else
            xcause(cause, "no thread of process %d in the time profile",
                   (int)pid);
        tsum_free(s);
        return -1;
    }
    memcpy(s->total, s->self, s->n * sizeof *s->total);
    for (k = s->n; k-- > 1;)
        s->total[cct_parent(cct, (uint32_t)k)] += s->total[k];
    return 0;
}

static double pct(int64_t part, int64_t whole)
{
    return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

/* Children lists of the tree, in node order. */
struct kids {
    uint32_t *first, *next;
};

static void kids_make(const struct cct *cct, size_t n, struct kids *k)
{
    size_t i;

    k->first = xreallocarray(NULL, n, sizeof *k->first);
    k->next = xreallocarray(NULL, n, sizeof *k->next);
    memset(k->first, 0xff, n * sizeof *k->first);
    memset(k->next, 0xff, n * sizeof *k->next);
    for (i = n; i-- > 1;) {
        uint32_t parent = cct_parent(cct, (uint32_t)i);

        k->next[i] = k->first[parent];
        k->first[parent] = (uint32_t)i;
    }
}

static void kids_free(struct kids *k)
{
    free(k->first);
    free(k->next);
}

static void time_flat(struct profile *p, const struct profile_query *q,
                      struct tsum *s, struct profile_rows *out)
{
    struct cct *cct = stacks_cct(p->st);
    size_t nn = cct_nnames(cct), i;
    int64_t *self = xcalloc(nn, sizeof *self);
    int64_t *total = xcalloc(nn, sizeof *total);
    uint64_t *calls = xcalloc(nn, sizeof *calls);
    unsigned int *active = xcalloc(nn, sizeof *active);
    uint32_t *stack = xreallocarray(NULL, s->n + 1, sizeof *stack);
    unsigned char *seen = xcalloc(s->n, 1);
    struct kids k;
    size_t depth = 0;

    kids_make(cct, s->n, &k);
    /* depth-first, counting each name's subtree where it is outermost */
    stack[depth++] = CCT_ROOT;
    while (depth > 0) {
        uint32_t node = stack[depth - 1], name = cct_name(cct, node);

        if (!seen[node]) {
            seen[node] = 1;
            if (node != CCT_ROOT) {
                self[name] += s->self[node];
                calls[name] += s->calls[node];
                if (active[name]++ == 0)
                    total[name] += s->total[node];
            }
            for (uint32_t c = k.first[node]; c != UINT32_MAX; c = k.next[c])
                stack[depth++] = c;
            continue;
        }
        if (node != CCT_ROOT)
            active[name]--;
        depth--;
    }
    for (i = 1; i < nn; i++) {
        struct profile_row *row;

        if (calls[i] == 0 && self[i] == 0 && total[i] == 0)
            continue;
        row = row_add(out);
        row->label = xstrdup(cct_text(cct, (uint32_t)i));
        row->node = (uint32_t)i;
        row->count = calls[i];
        row->self_ns = self[i];
        row->total_ns = total[i];
    }
    if (s->self[CCT_ROOT] > 0) {
        struct profile_row *row = row_add(out);

        row->label = xstrdup(TOP_LEVEL);
        row->self_ns = row->total_ns = s->self[CCT_ROOT];
    }
    sort_rows(out->rows, out->n,
              q->sort == PROFILE_SORT_DEFAULT ? PROFILE_SORT_SELF : q->sort);
    for (i = 0; i < out->n; i++) {
        out->rows[i].self_pct = pct(out->rows[i].self_ns, out->whole_ns);
        out->rows[i].total_pct = pct(out->rows[i].total_ns, out->whole_ns);
    }
    if (q->limit > 0 && out->n > q->limit) {
        for (i = q->limit; i < out->n; i++)
            free(out->rows[i].label);
        out->n = q->limit;
    }
    kids_free(&k);
    free(seen);
    free(stack);
    free(active);
    free(calls);
    free(total);
    free(self);
}

static void time_tree_at(struct profile *p, const struct profile_query *q,
                         struct tsum *s, struct kids *k, uint32_t node,
                         unsigned int depth, struct profile_rows *out)
{
    struct cct *cct = stacks_cct(p->st);
    struct profile_row *kids = NULL;
    size_t n = 0, cap = 0, i;

    for (uint32_t c = k->first[node]; c != UINT32_MAX; c = k->next[c]) {
        struct profile_row *row;

        if (s->calls[c] == 0 && s->total[c] == 0)
            continue;
        kids = xgrow(kids, n, &cap, sizeof *kids);
        row = &kids[n++];
        memset(row, 0, sizeof *row);
        row->label = (char *)cct_text(cct, cct_name(cct, c));
        row->node = c;
        row->depth = depth;
        row->count = s->calls[c];
        row->self_ns = s->self[c];
        row->total_ns = s->total[c];
    }
    sort_rows(kids, n,
              q->sort == PROFILE_SORT_DEFAULT ? PROFILE_SORT_TOTAL : q->sort);
    for (i = 0; i < n; i++) {
        struct profile_row *row;

        if (q->limit > 0 && out->n >= q->limit)
            break;
        row = row_add(out);
        *row = kids[i];
        row->label = xstrdup(kids[i].label);
        row->self_pct = pct(row->self_ns, out->whole_ns);
        row->total_pct = pct(row->total_ns, out->whole_ns);
        time_tree_at(p, q, s, k, kids[i].node, depth + 1, out);
    }
    free(kids);
}

static int time_rows(struct profile *p, const struct profile_query *q,
                     struct profile_rows *out, char **cause)
{
    struct tsum s;

    if (time_sums(p, q->thread, q->pid, &s, cause) != 0)
        return -1;
    out->whole_ns = s.total[CCT_ROOT];
    if (q->view == PROFILE_FLAT) {
        time_flat(p, q, &s, out);
    } else {
        struct kids k;

        kids_make(stacks_cct(p->st), s.n, &k);
        time_tree_at(p, q, &s, &k, CCT_ROOT, 0, out);
        if (s.self[CCT_ROOT] > 0 &&
            (q->limit == 0 || out->n < q->limit)) {
            struct profile_row *row = row_add(out);

            row->label = xstrdup(TOP_LEVEL);
            row->self_ns = row->total_ns = s.self[CCT_ROOT];
            row->self_pct = row->total_pct = pct(row->self_ns, out->whole_ns);
        }
        kids_free(&k);
    }
    tsum_free(&s);
    return 0;
}

/* --- the frequency profile ------------------------------------------------ */

struct fentry {
    uint32_t ev;  /* name number; UINT32_MAX for the calls */
    uint32_t key; /* node (tree) or name (flat) */
    uint64_t n;
};

static int cmp_fentry(const void *pa, const void *pb)
{
    const struct fentry *a = pa, *b = pb;

    if (a->ev != b->ev)
        return a->ev < b->ev ? -1 : 1;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return 0;
}

struct fgroup {
    uint32_t ev;
    size_t first, n; /* rows */
    uint64_t total;
    const char *name;
};

static const struct cct *group_cct;
static enum profile_sort group_sort;

static int cmp_group(const void *pa, const void *pb)
{
    const struct fgroup *a = pa, *b = pb;

    /* the calls last */
    if ((a->ev == UINT32_MAX) != (b->ev == UINT32_MAX))
        return a->ev == UINT32_MAX ? 1 : -1;
    if (group_sort != PROFILE_SORT_NAME && a->total != b->total)
        return a->total > b->total ? -1 : 1;
    return strcmp(a->name, b->name);
}

static int freq_rows(struct profile *p, const struct profile_query *q,
                     struct profile_rows *out, char **cause)
{
    const struct pfreq *f = &p->freq;
    struct cct *cct = stacks_cct(p->st);
    struct fentry *e = NULL;
    struct fgroup *g = NULL;
    size_t ne = 0, cap = 0, ng = 0, gcap = 0, i, j;
    uint32_t only = UINT32_MAX;
    int calls_only = 0, events = 1, calls = 1;
    struct profile_rows tmp;

    if (q->thread != 0 || q->pid != 0) {
        xcause(cause, "the frequency profile counts all threads together");
        return -1;
    }
    if (q->event != NULL && q->event[0] == '\0') {
        calls_only = 1;
        events = 0;
    } else if (q->event != NULL) {
        only = cct_intern(cct, q->event, strlen(q->event));
        calls = 0;
    }
    for (i = 0; events && i <= f->mask; i++) {
        const struct fcount *c = &f->slots[i];

        if (c->n == 0 || (only != UINT32_MAX && c->ev != only))
            continue;
        e = xgrow(e, ne, &cap, sizeof *e);
        e[ne].ev = c->ev;
        e[ne].key = q->view == PROFILE_FLAT ? cct_name(cct, c->node) : c->node;
        e[ne].n = c->n;
        ne++;
    }
    if (only != UINT32_MAX && ne == 0) {
        xcause(cause, "no counts of event \"%s\" in the frequency profile",
               q->event);
        return -1;
    }
    for (i = 0; calls && i < f->ncalls; i++) {
        if (f->calls[i] == 0)
            continue;
        e = xgrow(e, ne, &cap, sizeof *e);
        e[ne].ev = UINT32_MAX;
        e[ne].key = q->view == PROFILE_FLAT ? cct_name(cct, (uint32_t)i)
                                            : (uint32_t)i;
        e[ne].n = f->calls[i];
        ne++;
    }
    (void)calls_only;
    if (ne > 1)
        qsort(e, ne, sizeof *e, cmp_fentry);
    /* merge equal keys (flat), make the rows and the groups */
    memset(&tmp, 0, sizeof tmp);
    for (i = 0; i < ne; i = j) {
        struct fgroup *gr;

        g = xgrow(g, ng, &gcap, sizeof *g);
        gr = &g[ng++];
        gr->ev = e[i].ev;
        gr->first = tmp.n;
        gr->total = 0;
        gr->name = e[i].ev == UINT32_MAX ? "" : cct_text(cct, e[i].ev);
        for (j = i; j < ne && e[j].ev == e[i].ev;) {
            struct profile_row *row = row_add(&tmp);
            uint32_t key = e[j].key;

            row->event = gr->name;
            row->node = key;
            if (q->view == PROFILE_FLAT)
                row->label = xstrdup(key == 0 ? TOP_LEVEL : cct_text(cct, key));
            else
                row->label = key == CCT_ROOT ? xstrdup(TOP_LEVEL)
                                             : cct_path(cct, key, "/");
            for (; j < ne && e[j].ev == e[i].ev && e[j].key == key; j++)
                row->count += e[j].n;
            gr->total += row->count;
        }
        gr->n = tmp.n - gr->first;
        sort_rows(tmp.rows + gr->first, gr->n,
                  q->sort == PROFILE_SORT_NAME ? PROFILE_SORT_NAME
                                               : PROFILE_SORT_COUNT);
    }
    group_cct = cct;
    group_sort = q->sort;
    if (ng > 1)
        qsort(g, ng, sizeof *g, cmp_group);
    for (i = 0; i < ng; i++) {
        struct profile_row *row;

        for (j = 0; j < g[i].n; j++) {
            struct profile_row *src = &tmp.rows[g[i].first + j];

            if (q->limit > 0 && j >= q->limit) {
                free(src->label);
                continue;
            }
            row = row_add(out);
            *row = *src;
        }
        row = row_add(out);
        row->event = g[i].name;
        row->label = xstrdup("total");
        row->total_row = 1;
        row->count = g[i].total;
        if (g[i].ev != UINT32_MAX)
            out->whole_count += g[i].total;
    }
    free(tmp.rows);
    free(g);
    free(e);
    return 0;
}

int profile_rows(struct profile *p, const struct profile_query *q,
                 struct profile_rows *out, char **cause)
{
    memset(out, 0, sizeof *out);
    if (q->kind == PROFILE_TIME) {
        if (p->time.in_program)
            ptime_program_read(p);
        return time_rows(p, q, out, cause);
    }
    if (p->freq.in_program)
        ptime_program_read(p);
    return freq_rows(p, q, out, cause);
}

/* --- printing ------------------------------------------------------------- */

static void print_freq(struct sink *say, const struct profile_query *q,
                       const struct profile_rows *r)
{
    const char *group = NULL;
    size_t i, lines = 0;

    sink_say(say, q->view == PROFILE_FLAT
                       ? "Event frequency profile (by innermost component):\n"
                       : "Event frequency profile:\n");
    if (r->n == 0) {
        sink_say(say, "  no events counted\n");
        return;
    }
    for (i = 0; i < r->n; i++) {
        const struct profile_row *row = &r->rows[i];

        if (group == NULL || strcmp(group, row->event) != 0) {
            group = row->event;
            lines = 0;
            sink_sayf(say, "%s\n", group[0] != '\0' ? group : "(calls)");
        }
        if (row->total_row) {
            /* a total when there is more than one line */
            if (lines > 1)
                sink_sayf(say, "%8llu total\n",
                            (unsigned long long)row->count);
            continue;
        }
        lines++;
        sink_sayf(say, "%8llu %s\n", (unsigned long long)row->count,
                    row->label);
    }
    if (q->event == NULL || q->event[0] != '\0')
        sink_sayf(say, "%8llu events in all\n",
                    (unsigned long long)r->whole_count);
}

static void print_time(struct sink *say, struct profile *p,
                       const struct profile_query *q,
                       const struct profile_rows *r)
{
    size_t i;

    if (q->thread != 0)
        sink_sayf(say, "Time profile of thread %d", (int)q->thread);
    else if (q->pid != 0)
        sink_sayf(say, "Time profile of process %d", (int)q->pid);
    else
        sink_sayf(say, "Time profile (%zu thread%s)", p->time.nthreads,
                    p->time.nthreads == 1 ? "" : "s");
    sink_sayf(say, "%s: %.6f s\n",
                q->view == PROFILE_TREE ? ", by stack" : ", by component",
                (double)r->whole_ns / 1e9);
    if (r->n == 0) {
        sink_say(say, "  no time measured\n");
        return;
    }
    sink_say(say, "        self      %       total      %      calls  "
                   "component\n");
    for (i = 0; i < r->n; i++) {
        const struct profile_row *row = &r->rows[i];

        sink_sayf(say, "%12.6f %5.1f%% %11.6f %5.1f%% %10llu  %*s%s\n",
                    (double)row->self_ns / 1e9, row->self_pct,
                    (double)row->total_ns / 1e9, row->total_pct,
                    (unsigned long long)row->count, (int)(2 * row->depth), "",
                    row->label);
    }
}

int profile_print(struct profile *p, const struct profile_query *q,
                  char **cause)
{
    struct profile_rows r;

    if (profile_rows(p, q, &r, cause) != 0)
        return -1;
    sink_fresh_line(p->say);
    if (r.n == 0 && !profile_enabled(p, q->kind)) {
        /* nothing counted because nothing was asked: say that */
        const char *which = q->kind == PROFILE_FREQ ? "freq" : "time";

        sink_sayf(p->say, "The %s profile is off (profile %s on turns it "
                  "on).\n",
                  q->kind == PROFILE_FREQ ? "frequency" : "time", which);
        profile_rows_free(&r);
        return 0;
    }
    if (q->kind == PROFILE_FREQ)
        print_freq(p->say, q, &r);
    else
        print_time(p->say, p, q, &r);
    profile_rows_free(&r);
    return 0;
}
