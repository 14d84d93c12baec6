/* SPDX-License-Identifier: MIT */
/*
 * cbrowse.c - C values as regions of the transcript and their opening.
 * Each region keeps a copy of its value's type and place (not its
 * contents: memory is read when the region is opened, a page of an array
 * in one read), how an expression reaches it, and the region it was
 * opened from, so that a pointer back to an object open on the way is
 * seen as the cycle it is.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cbrowse.h"
#include "cprint.h"
#include "ctypes.h"
#include "cvalue.h"
#include "debug.h"
#include "interp.h"
#include "noosa.h"
#include "xmalloc.h"

/* Elements of an array shown at a time. */
#define CBROWSE_PAGE 100
/* Characters of a string shown when it is opened. */
#define CBROWSE_STRING 4096
/* Regions kept at most (the oldest go first; the transcript's scrollback
 * drops them anyway). */
#define CBROWSE_MAX 100000

struct centry {
    uint64_t id;        /* the transcript's region */
    struct cvalue *v;   /* type and place */
    char *expr;         /* how an expression reaches it */
    uint64_t parent;    /* the region it was opened from, 0 for none */
    uint64_t page;      /* a page of an array: its first element */
    int is_page;
};

struct cbrowse {
    struct interp *in;
    struct centry *e;
    size_t n, cap;
};

struct cbrowse *cbrowse_create(struct interp *in)
{
    struct cbrowse *b = xcalloc(1, sizeof *b);

    b->in = in;
    return b;
}

static void drop(struct centry *e)
{
    cvalue_free(e->v);
    free(e->expr);
}

void cbrowse_free(struct cbrowse *b)
{
    if (b == NULL)
        return;
    for (size_t i = 0; i < b->n; i++)
        drop(&b->e[i]);
    free(b->e);
    free(b);
}

static struct centry *find(struct cbrowse *b, uint64_t id)
{
    size_t lo = 0, hi = b->n;

    while (lo < hi) {
        size_t mid = (lo + hi) / 2;

        if (b->e[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < b->n && b->e[lo].id == id ? &b->e[lo] : NULL;
}

int cbrowse_owns(struct cbrowse *b, uint64_t id)
{
    return find(b, id) != NULL;
}

/* Whether the command n_NAME_open exists. */
static int has_browser(struct cbrowse *b, const char *name)
{
    Tcl_CmdInfo info;
    char *cmd = xasprintf("n_%s_open", name);
    int yes = Tcl_GetCommandInfo(b->in->tcl, cmd, &info);

    free(cmd);
    return yes;
}

const char *cbrowse_tcl_type(struct cbrowse *b, struct cvalue *v)
{
    struct ctype *t = v->type;
    int pointers = 0;

    while (t != NULL) {
        if (t->kind == CT_TYPEDEF && t->name != NULL &&
            has_browser(b, t->name))
            return t->name;
        if (t->kind == CT_TYPEDEF || t->kind == CT_QUAL) {
            t = t->target;
        } else if (t->kind == CT_PTR && pointers++ == 0) {
            t = t->target;
        } else {
            break;
        }
    }
    return NULL;
}

/* Whether opening V shows anything more than its text. */
static int worth_opening(struct cvalue *v)
{
    struct ctype *t = ctype_strip(v->type), *target;

    switch (t->kind) {
    case CT_STRUCT:
    case CT_UNION:
        return 1;
    case CT_ARRAY:
        /* a char array is all there in its text */
        target = ctype_strip(t->target);
        return t->count_known && t->count > 0 &&
               !(target->kind == CT_CHAR || (target->kind == CT_INT &&
                                             target->size == 1));
    case CT_PTR:
        target = ctype_strip(t->target);
        if (target->kind == CT_VOID || target->kind == CT_FUNC)
            return 0;
        return cvalue_fetch(v) == 0 && cvalue_available(v, 0, v->size) &&
               cvalue_as_uint(v) != 0;
    default:
        return 0;
    }
}

static void add_entry(struct cbrowse *b, uint64_t id, struct cvalue *v,
                      const char *expr, uint64_t parent, uint64_t page,
                      int is_page)
{
    struct centry *e;
    uint64_t oldest = 0;
    const struct tr_value *first;

    /* forget the regions the transcript no longer holds */
    first = transcript_value_after(b->in->transcript,
                                   transcript_first(b->in->transcript), 0);
    if (first != NULL)
        oldest = first->id;
    if (b->n > 0 && (b->e[0].id < oldest || b->n >= CBROWSE_MAX)) {
        size_t k = 0;

        while (k < b->n && (b->e[k].id < oldest || b->n - k >= CBROWSE_MAX))
            drop(&b->e[k++]);
        memmove(b->e, b->e + k, (b->n - k) * sizeof *b->e);
        b->n -= k;
    }
    b->e = xgrow(b->e, b->n, &b->cap, sizeof *b->e);
    e = &b->e[b->n++];
    e->id = id;
    e->v = cvalue_dup(v);
    e->expr = xstrdup(expr);
    e->parent = parent;
    e->page = page;
    e->is_page = is_page;
}

static void say_plain(struct cbrowse *b, const char *text)
{
    transcript_append_plain(b->in->transcript, text, strlen(text));
}

/* Say V as TEXT, a region when it is worth opening (or has a Tcl
 * browser); opened from PARENT. */
static void say_value(struct cbrowse *b, struct cvalue *v, const char *expr,
                      const char *text, uint64_t parent)
{
    struct transcript *t = b->in->transcript;
    const char *tcl = cbrowse_tcl_type(b, v);
    char value[32];

    if (tcl != NULL && cvalue_fetch(v) == 0) {
        /* Eli's convention: the browser gets the text and the value */
        snprintf(value, sizeof value, "0x%llx",
                 (unsigned long long)cvalue_as_uint(v));
        transcript_append_value(t, tcl, value, text);
        return;
    }
    if (!worth_opening(v)) {
        transcript_append_plain(t, text, strlen(text));
        return;
    }
    {
        char *type = ctype_name(v->type);
        struct ctype *s = ctype_strip(v->type);

        snprintf(value, sizeof value, "0x%llx",
                 (unsigned long long)(s->kind == CT_PTR ? cvalue_as_uint(v)
                                                        : v->addr));
        transcript_append_value(t, type, value, text);
        free(type);
    }
    add_entry(b, transcript_value_count(t), v, expr, parent, 0, 0);
}

void cbrowse_say(struct cbrowse *b, struct cvalue *v, const char *expr,
                 const char *text)
{
    say_value(b, v, expr, text, 0);
}

/* The address of the object entry E shows when opened, or 0. */
static uint64_t shown_object(struct centry *e, struct ctype **type)
{
    struct ctype *t = ctype_strip(e->v->type);

    if (t->kind == CT_PTR) {
        if (cvalue_fetch(e->v) != 0)
            return 0;
        *type = ctype_strip(t->target);
        return cvalue_as_uint(e->v);
    }
    if (e->v->lval == CV_MEMORY) {
        *type = t;
        return e->v->addr;
    }
    return 0;
}

/* The region on the way to PARENT that already shows the object at ADDR
 * of type TYPE, or NULL. */
static struct centry *cycle(struct cbrowse *b, uint64_t parent, uint64_t addr,
                            struct ctype *type)
{
    int guard = 0;

    while (parent != 0 && guard++ < 10000) {
        struct centry *a = find(b, parent);
        struct ctype *at = NULL;

        if (a == NULL)
            return NULL;
        if (shown_object(a, &at) == addr && at == type)
            return a;
        parent = a->parent;
    }
    return NULL;
}

/* The expression for member NAME of the object EXPR reaches. */
static char *member_expr(const char *expr, const char *name)
{
    if (name == NULL || *name == '\0')
        return xstrdup(expr);
    if (expr[0] == '*')
        return xasprintf("%s->%s", expr + 1, name);
    return xasprintf("%s.%s", expr, name);
}

static void show_page(struct cbrowse *b, struct cvalue *arr, const char *expr,
                      uint64_t start, uint64_t parent);

/* Say the object O (reached by EXPR), opened from region PARENT. */
static int show_object(struct cbrowse *b, struct cvalue *o, const char *expr,
                       uint64_t parent, char **cause)
{
    struct ctype *t = ctype_strip(o->type);
    struct cprint_opts opts;
    char *text;

    cprint_defaults(&opts);
    if (t->kind == CT_ARRAY) {
        show_page(b, o, expr, 0, parent);
        return 0;
    }
    if (cvalue_fetch(o) != 0 && !cvalue_all_optout(o)) {
        xcause(cause, "%s", o->error);
        return -1;
    }
    if ((t->kind == CT_STRUCT || t->kind == CT_UNION) &&
        !cvalue_all_optout(o)) {
        char *name = ctype_name(o->type);

        if (ctype_complete(t) != 0) {
            xcause(cause, "%s is an incomplete type: the program's debug "
                          "information has no definition of it",
                   name);
            free(name);
            return -1;
        }
        text = xasprintf("%s = (%s) {\n", expr, name);
        say_plain(b, text);
        free(text);
        free(name);
        for (unsigned int i = 0; i < t->nmembers; i++) {
            const struct cmember *m = &t->members[i];
            struct cvalue *mv = cvalue_member(o, m, m->offset);
            char *mexpr = member_expr(expr, m->name);
            char *mtext = cprint_value(mv, &opts);

            if (m->name != NULL) {
                text = xasprintf("  %s = ", m->name);
                say_plain(b, text);
                free(text);
            } else {
                say_plain(b, "  ");
            }
            say_value(b, mv, mexpr, mtext, parent);
            say_plain(b, "\n");
            free(mtext);
            free(mexpr);
            cvalue_free(mv);
        }
        say_plain(b, "}\n");
        return 0;
    }
    text = cprint_value(o, &opts);
    {
        char *line = xasprintf("%s = ", expr);

        say_plain(b, line);
        free(line);
    }
    say_value(b, o, expr, text, parent);
    say_plain(b, "\n");
    free(text);
    return 0;
}

static void show_page(struct cbrowse *b, struct cvalue *arr, const char *expr,
                      uint64_t start, uint64_t parent)
{
    struct ctype *t = ctype_strip(arr->type);
    uint64_t n = t->count, end = start + CBROWSE_PAGE, i;
    struct cvalue *page;
    struct cprint_opts opts;
    char *text;

    cprint_defaults(&opts);
    if (end > n)
        end = n;
    /* the page in one read */
    if (arr->lval == CV_MEMORY && !arr->fetched)
        page = cvalue_at(arr->d, ctype_array(t->owner, t->target, end - start),
                         arr->addr + start * ctype_size(t->target));
    else
        page = NULL;
    text = xasprintf("%s: elements %llu to %llu of %llu\n", expr,
                     (unsigned long long)start, (unsigned long long)(end - 1),
                     (unsigned long long)n);
    say_plain(b, text);
    free(text);
    if (page != NULL && cvalue_fetch(page) != 0 && !cvalue_all_optout(page)) {
        text = xasprintf("  <error: %s>\n", page->error);
        say_plain(b, text);
        free(text);
        cvalue_free(page);
        return;
    }
    for (i = start; i < end;) {
        struct cvalue *ev = page != NULL ? cvalue_element(page, (int64_t)(i - start))
                                         : cvalue_element(arr, (int64_t)i);
        uint64_t j = i + 1;
        char *etext, *eexpr;

        if (ev == NULL)
            break;
        etext = cprint_value(ev, &opts);
        /* a run of equal elements, as print folds them */
        while (j < end) {
            struct cvalue *nx = page != NULL
                                    ? cvalue_element(page, (int64_t)(j - start))
                                    : cvalue_element(arr, (int64_t)j);
            char *ntext = nx != NULL ? cprint_value(nx, &opts) : NULL;
            int same = ntext != NULL && strcmp(ntext, etext) == 0;

            free(ntext);
            cvalue_free(nx);
            if (!same)
                break;
            j++;
        }
        eexpr = xasprintf("%s[%llu]", expr, (unsigned long long)i);
        if (j - i > 1) {
            text = xasprintf("  [%llu..%llu] = ", (unsigned long long)i,
                             (unsigned long long)(j - 1));
            say_plain(b, text);
            free(text);
            say_value(b, ev, eexpr, etext, parent);
            text = xasprintf(" <repeats %llu times>\n",
                             (unsigned long long)(j - i));
            say_plain(b, text);
            free(text);
        } else {
            text = xasprintf("  [%llu] = ", (unsigned long long)i);
            say_plain(b, text);
            free(text);
            say_value(b, ev, eexpr, etext, parent);
            say_plain(b, "\n");
        }
        free(eexpr);
        free(etext);
        cvalue_free(ev);
        i = j;
    }
    cvalue_free(page);
    if (end < n) {
        uint64_t next_end = end + CBROWSE_PAGE < n ? end + CBROWSE_PAGE : n;
        char *label = xasprintf("[%llu..%llu]", (unsigned long long)end,
                                (unsigned long long)(next_end - 1));
        char *type = ctype_name(arr->type);
        char value[32];

        say_plain(b, "  more: ");
        snprintf(value, sizeof value, "%llu", (unsigned long long)end);
        transcript_append_value(b->in->transcript, type, value, label);
        add_entry(b, transcript_value_count(b->in->transcript), arr, expr,
                  parent, end, 1);
        say_plain(b, "\n");
        free(label);
        free(type);
    }
}

int cbrowse_open(struct cbrowse *b, uint64_t id, char **cause)
{
    struct centry *e = find(b, id), *c;
    struct debug *g = b->in->noosa->debug;
    struct cvalue *v, *o;
    struct ctype *t, *ot;
    char *expr;
    int rc;

    if (e == NULL) {
        xcause(cause, "no C value %llu", (unsigned long long)id);
        return -1;
    }
    v = cvalue_dup(e->v);
    if (!debug_stopped(g) && (v->lval == CV_MEMORY ||
                              ctype_strip(v->type)->kind == CT_PTR)) {
        cvalue_free(v);
        xcause(cause, "%s", debug_why_not(g));
        return -1;
    }
    if (e->is_page) {
        char *ex = xstrdup(e->expr);
        uint64_t page = e->page;

        /* (the entry may move as regions are added) */
        show_page(b, v, ex, page, id);
        free(ex);
        cvalue_free(v);
        return 0;
    }
    t = ctype_strip(v->type);
    if (t->kind != CT_PTR) {
        expr = xstrdup(e->expr);
        rc = show_object(b, v, expr, id, cause);
        free(expr);
        cvalue_free(v);
        return rc;
    }
    if (cvalue_fetch(v) != 0) {
        xcause(cause, "%s", v->error != NULL ? v->error
                                              : "value has been optimized out");
        cvalue_free(v);
        return -1;
    }
    ot = ctype_strip(t->target);
    if (ot->kind == CT_CHAR || (ot->kind == CT_INT && ot->size == 1)) {
        /* a string: all of it (up to a bound) */
        struct cprint_opts opts;
        char *text;

        cprint_defaults(&opts);
        opts.print_max = CBROWSE_STRING;
        text = cprint_value(v, &opts);
        expr = xasprintf("%s = %s\n", e->expr, text);
        say_plain(b, expr);
        free(expr);
        free(text);
        cvalue_free(v);
        return 0;
    }
    if (cvalue_as_uint(v) == 0) {
        expr = xasprintf("%s is a null pointer.\n", e->expr);
        say_plain(b, expr);
        free(expr);
        cvalue_free(v);
        return 0;
    }
    if ((c = cycle(b, e->parent, cvalue_as_uint(v), ot)) != NULL) {
        char *name = ctype_name(t->target);

        expr = xasprintf("*%s: the same %s as value %llu (%s%s): a cycle\n",
                         e->expr, name, (unsigned long long)c->id,
                         ctype_strip(c->v->type)->kind == CT_PTR ? "*" : "",
                         c->expr);
        say_plain(b, expr);
        free(expr);
        free(name);
        cvalue_free(v);
        return 0;
    }
    o = cvalue_deref(v, cause);
    if (o == NULL) {
        cvalue_free(v);
        return -1;
    }
    expr = xasprintf("*%s", e->expr);
    rc = show_object(b, o, expr, id, cause);
    free(expr);
    cvalue_free(o);
    cvalue_free(v);
    return rc;
}
