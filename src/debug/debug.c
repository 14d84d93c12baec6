/* SPDX-License-Identifier: MIT */
/*
 * debug.c - the program's data at a stop: the stop, its frames (unwound
 * once a stop, with the thread held under ptrace only while that takes),
 * expressions evaluated at the selected frame with the event's
 * parameters as names, the value history, frame lines and variables as
 * gdb prints them.
 */
#include "config.h"

#include <dwarf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cexpr.h"
#include "ctypes.h"
#include "dapto.h"
#include "debug.h"
#include "dinfo.h"
#include "dloc.h"
#include "dscope.h"
#include "dstr.h"
#include "frames.h"
#include "reader.h"
#include "registry.h"
#include "target.h"
#include "xmalloc.h"

/* How long an event's thread may take to stop for its registers. */
#define DEBUG_HOLD_MS 2000

/* A parameter of the event stopped at, copied (the item does not live
 * as long as the stop); its strings are offsets into the debug's text
 * buffer, which is reused from stop to stop. */
struct param {
    size_t name;
    size_t type;          /* as the interface says: "ptr<struct node>" */
    unsigned char kind;   /* enum dapto_kind of the value */
    unsigned char declared; /* of the parameter */
    int64_t i;
    double d;
    uint64_t p;
    size_t s;             /* DAPTO_K_STR */
    size_t len;
};

/* What a debug information's memory reader reads: the process it was
 * opened for, while it is the one stopped. */
struct reader_arg {
    struct debug *g;
    pid_t pid;
};

struct retired {
    struct dinfo *d;
    struct reader_arg *ra;
};

struct debug {
    struct target *t;
    pid_t pid, tid;
    enum debug_why why;
    int stopped;
    unsigned long serial;  /* counts the stops */
    const char *passing;   /* an event delivered whose thread goes on */
    int replay;

    struct dinfo *d;           /* of PID, opened when first needed */
    struct reader_arg *ra;
    char *open_error;          /* why it could not be opened */
    struct retired *old;       /* earlier runs' (the history's types) */
    size_t nold;
    struct ctypes *plain;      /* types without a program (a recording) */

    struct frames *fr;         /* of this stop, unwound when first needed */
    char *frames_error;
    unsigned int selected, first;
    int scope_frame;           /* the frame an expression is evaluated at
                                  (-1: the selected one) */

    struct param *params;      /* of the event stopped at */
    unsigned int nparams;
    size_t params_cap;
    char *text;                /* the parameters' strings */
    size_t text_len, text_cap;

    struct cvalue **history;
    size_t nhistory, history_cap;
};

static size_t read_mem(void *arg, uint64_t addr, void *buf, size_t len)
{
    struct reader_arg *ra = arg;
    struct debug *g = ra->g;

    if (g->t == NULL || g->pid != ra->pid || g->replay)
        return 0;
    return target_read_some(g->t, addr, buf, len);
}

struct debug *debug_create(void)
{
    struct debug *g = xcalloc(1, sizeof *g);

    g->plain = ctypes_create(NULL, NULL);
    return g;
}

static void clear_params(struct debug *g)
{
    g->nparams = 0;
    g->text_len = 0;
}

static void clear_frames(struct debug *g)
{
    frames_free(g->fr);
    g->fr = NULL;
    free(g->frames_error);
    g->frames_error = NULL;
    g->selected = g->first = 0;
}

void debug_free(struct debug *g)
{
    if (g == NULL)
        return;
    debug_forget(g);
    for (size_t i = 0; i < g->nhistory; i++)
        cvalue_free(g->history[i]);
    free(g->history);
    free(g->params);
    free(g->text);
    for (size_t i = 0; i < g->nold; i++) {
        dinfo_free(g->old[i].d);
        free(g->old[i].ra);
    }
    free(g->old);
    ctypes_free(g->plain);
    free(g);
}

void debug_forget(struct debug *g)
{
    debug_go(g);
    clear_params(g);
    if (g->d != NULL) {
        /* kept while the history may hold values of its types */
        g->old = xreallocarray(g->old, g->nold + 1, sizeof *g->old);
        g->old[g->nold].d = g->d;
        g->old[g->nold].ra = g->ra;
        g->nold++;
        g->d = NULL;
        g->ra = NULL;
    }
    free(g->open_error);
    g->open_error = NULL;
    g->t = NULL;
    g->pid = 0;
    g->replay = 0;
}

/* TEXT (LEN bytes) into the text buffer: its offset. */
static size_t keep_text(struct debug *g, const char *text, size_t len)
{
    size_t at = g->text_len;

    if (g->text_len + len + 1 > g->text_cap) {
        g->text_cap = (g->text_len + len + 1) * 2;
        g->text = xrealloc(g->text, g->text_cap);
    }
    memcpy(g->text + at, text, len);
    g->text[at + len] = '\0';
    g->text_len += len + 1;
    return at;
}

/* The parameters of event ITEM, copied (no allocation once the buffers
 * have grown: a recording played has a stop at every event). */
static void copy_params(struct debug *g, const struct reader_item *item)
{
    clear_params(g);
    if (item == NULL || item->event == NULL)
        return;
    if (item->event->nparams > g->params_cap) {
        g->params_cap = item->event->nparams;
        g->params = xreallocarray(g->params, g->params_cap,
                                  sizeof *g->params);
    }
    for (unsigned int i = 0; i < item->event->nparams && i < item->nvalues;
         i++) {
        const struct registry_param *rp = &item->event->params[i];
        const struct decode_value *v = &item->values[i];
        struct param *p = &g->params[g->nparams];

        switch (v->kind) {
        case DAPTO_K_INT:
            p->i = v->u.i;
            break;
        case DAPTO_K_LONG:
            p->i = v->u.l;
            break;
        case DAPTO_K_DOUBLE:
            p->d = v->u.d;
            break;
        case DAPTO_K_PTR:
            p->p = v->u.p;
            break;
        case DAPTO_K_STR:
            p->s = keep_text(g, v->s != NULL ? v->s : "", v->len);
            p->len = v->len;
            break;
        default:
            continue;
        }
        p->kind = v->kind;
        p->declared = rp->kind;
        p->name = keep_text(g, rp->name, strlen(rp->name));
        p->type = keep_text(g, rp->type, strlen(rp->type));
        g->nparams++;
    }
}

void debug_stop(struct debug *g, struct target *t, pid_t pid, pid_t tid,
                enum debug_why why, const struct reader_item *item)
{
    if (pid != g->pid || g->replay)
        debug_forget(g);
    clear_frames(g);
    clear_params(g);
    g->t = t;
    g->pid = pid;
    g->tid = tid;
    g->why = why;
    g->stopped = 1;
    g->serial++;
    copy_params(g, item);
}

void debug_stop_replay(struct debug *g, const struct reader_item *item)
{
    if (!g->replay)
        debug_forget(g);
    clear_frames(g);
    clear_params(g);
    g->replay = 1;
    g->stopped = 1;
    g->serial++;
    g->why = DEBUG_EVENT;
    copy_params(g, item);
}

void debug_go(struct debug *g)
{
    clear_frames(g);
    clear_params(g);
    g->stopped = 0;
    g->passing = NULL;
}

void debug_pass(struct debug *g, const char *event)
{
    debug_go(g);
    g->passing = event;
}

unsigned long debug_serial(const struct debug *g)
{
    return g->serial;
}

int debug_stopped(const struct debug *g)
{
    return g->stopped;
}

const char *debug_why_not(const struct debug *g)
{
    if (g->stopped)
        return NULL;
    if (g->passing != NULL)
        return "the program does not wait at this event (a handler that "
               "reads the program's data must let it wait: no -nostop)";
    return "the program is not stopped (a stop at an event, an error or an "
           "interrupt is where its data can be read)";
}

struct dinfo *debug_info(struct debug *g, char **cause)
{
    char *why = NULL;

    if (g->replay) {
        xcause(cause, "the program's memory is not in a recording: a "
                      "recording holds its events and their values, and "
                      "nothing else of the program");
        return NULL;
    }
    if (!g->stopped || g->t == NULL) {
        xcause(cause, "%s", debug_why_not(g) != NULL
                                ? debug_why_not(g)
                                : "the program is not running");
        return NULL;
    }
    if (g->d != NULL)
        return g->d;
    if (g->open_error != NULL) {
        xcause(cause, "%s", g->open_error);
        return NULL;
    }
    g->ra = xcalloc(1, sizeof *g->ra);
    g->ra->g = g;
    g->ra->pid = g->pid;
    g->d = dinfo_open(g->pid, read_mem, g->ra, &why);
    if (g->d == NULL) {
        g->open_error = why;
        free(g->ra);
        g->ra = NULL;
        xcause(cause, "%s", g->open_error);
        return NULL;
    }
    return g->d;
}

static const char *exe_of(pid_t pid, char *buf, size_t size);

int debug_frames(struct debug *g, const struct frames **fr, char **cause)
{
    struct dinfo *d;
    char exe[4096];
    int held = 0, rc;
    char *why = NULL;

    if (g->fr != NULL) {
        *fr = g->fr;
        return 0;
    }
    if (g->frames_error != NULL) {
        xcause(cause, "%s", g->frames_error);
        return -1;
    }
    if ((d = debug_info(g, cause)) == NULL)
        return -1;
    if (!target_thread_stopped(g->t, g->tid)) {
        /* a thread waiting at an event runs (on a futex): stopped just
         * for its registers; the frames of the program's functions above
         * the runtime's do not change while it waits */
        if (target_stop_thread(g->t, g->tid, DEBUG_HOLD_MS, &why) != 0) {
            xcause(cause, "cannot read the registers of thread %d: %s",
                   (int)g->tid, why);
            free(why);
            return -1;
        }
        held = 1;
    }
    rc = frames_unwind(d, g->tid, &g->fr, &why);
    if (held)
        target_resume_thread(g->t, g->tid, NULL);
    if (rc != 0) {
        g->frames_error = why;
        xcause(cause, "%s", why);
        return -1;
    }
    g->first = g->why == DEBUG_EVENT ? frames_first_program(g->fr) : 0;
    g->selected = g->why == DEBUG_EVENT
                      ? g->first
                      : frames_default(g->fr, exe_of(g->pid, exe, sizeof exe));
    if (g->selected < g->first)
        g->selected = g->first;
    *fr = g->fr;
    return 0;
}

unsigned int debug_selected(struct debug *g)
{
    return g->selected - g->first;
}

unsigned int debug_first(struct debug *g)
{
    return g->first;
}

unsigned int debug_count(struct debug *g)
{
    const struct frames *fr;
    unsigned int i;

    if (debug_frames(g, &fr, NULL) != 0)
        return 0;
    for (i = g->first; i < fr->n; i++)
        if (fr->f[i].name != NULL && strcmp(fr->f[i].name, "main") == 0)
            return i - g->first + 1;
    return fr->n - g->first;
}

int debug_select(struct debug *g, unsigned int f, char **cause)
{
    const struct frames *fr;

    if (debug_frames(g, &fr, cause) != 0)
        return -1;
    if (f >= debug_count(g)) {
        xcause(cause, "No frame at level %u.", f);
        return -1;
    }
    g->selected = g->first + f;
    return 0;
}

/* The event's parameter NAME as a C value. */
static struct cvalue *param_value(struct debug *g, const struct param *p)
{
    const char *type = g->text + p->type;
    struct dinfo *d = g->replay ? NULL : g->d;
    struct ctypes *ts = d != NULL ? dinfo_types(d) : g->plain;
    struct ctype *t = NULL;
    struct dsym sym;
    Dwarf_Die die;

    switch (p->kind) {
    case DAPTO_K_INT:
        return cvalue_int(d, ctype_builtin(ts, CB_INT), p->i);
    case DAPTO_K_LONG:
        return cvalue_int(d, ctype_builtin(ts, CB_LONG), p->i);
    case DAPTO_K_DOUBLE:
        return cvalue_double(d, ctype_builtin(ts, CB_DOUBLE), p->d);
    case DAPTO_K_STR:
        return cvalue_bytes(d, ctype_array(ts, ctype_builtin(ts, CB_CHAR),
                                           p->len + 1),
                            g->text + p->s, p->len + 1);
    default:
        break;
    }
    /* a pointer: of the C type the interface gives it (ptr<T>), or of
     * the typedef its user type names, else void * */
    if (d != NULL && strncmp(type, "ptr<", 4) == 0) {
        size_t n = strlen(type);
        char *inner = xstrndup(type + 4, n > 5 ? n - 5 : 0);
        struct cscope s;
        char *cause = NULL;

        memset(&s, 0, sizeof s);
        s.types = ts;
        s.d = d;
        if (cexpr_type(&s, inner, &t, &cause) == 1)
            t = ctype_pointer(ts, t);
        else
            t = NULL;
        free(cause);
        free(inner);
    } else if (d != NULL && p->declared == DAPTO_K_USER &&
               dinfo_type_named(d, DW_TAG_typedef, type, NULL, &sym) ==
                   0) {
        die = sym.die;
        t = ctype_of_die(ts, &die);
        switch (ctype_strip(t)->kind) {
        case CT_STRUCT:
        case CT_UNION:
        case CT_ARRAY:
        case CT_FUNC:
            /* passed as a pointer to it: the only way it can be */
            t = ctype_pointer(ts, t);
            break;
        default:
            break;
        }
    }
    if (t == NULL)
        t = ctype_pointer(ts, ctype_builtin(ts, CB_VOID));
    if (ctype_strip(t)->kind == CT_FLOAT)
        return cvalue_double(d, t, (double)p->p);
    return cvalue_uint(d, t, p->p);
}

static struct cvalue *lookup_param(void *arg, const char *name)
{
    struct debug *g = arg;

    for (unsigned int i = 0; i < g->nparams; i++)
        if (strcmp(g->text + g->params[i].name, name) == 0)
            return param_value(g, &g->params[i]);
    return NULL;
}

struct cvalue *debug_param(struct debug *g, const char *name)
{
    struct cvalue *v;
    struct ctype *t, *target;
    char *cause = NULL;

    if (!g->replay && g->stopped && debug_info(g, &cause) == NULL) {
        free(cause);
        return NULL;
    }
    v = lookup_param(g, name);
    if (v == NULL)
        return NULL;
    t = ctype_strip(v->type);
    target = t->kind == CT_PTR ? ctype_strip(t->target) : NULL;
    if (target != NULL && target->kind == CT_VOID && v->type->kind == CT_PTR) {
        /* void *: the debug information said nothing of it */
        cvalue_free(v);
        return NULL;
    }
    return v;
}

static struct cvalue *history(void *arg, long n, int rel, char **cause)
{
    struct debug *g = arg;
    long k = rel ? (long)g->nhistory - n : n;

    if (g->nhistory == 0) {
        if (rel && n == 0) {
            xcause(cause, "History is empty.");
            return NULL;
        }
        xcause(cause, "History has not yet reached $%ld.", n);
        return NULL;
    }
    if (k < 1 || k > (long)g->nhistory) {
        if (rel)
            xcause(cause, "History has not yet reached $$%ld.", n);
        else
            xcause(cause, "History has not yet reached $%ld.", n);
        return NULL;
    }
    return cvalue_copy(g->history[k - 1]);
}

/* The frames of the scope an expression is evaluated in (cexpr.h asks
 * when a name is not the event's): frame SCOPE_FRAME, or the selected. */
static const struct frames *scope_frames(void *arg, unsigned int *f)
{
    struct debug *g = arg;
    const struct frames *fr;

    if (debug_frames(g, &fr, NULL) != 0)
        return NULL;
    *f = g->scope_frame >= 0 ? (unsigned int)g->scope_frame : g->selected;
    return fr;
}

/* The scope of frame F (absolute index; -1 the selected one). */
static void make_scope(struct debug *g, struct cscope *s, int f)
{
    char *cause = NULL;

    memset(s, 0, sizeof *s);
    s->lookup = lookup_param;
    s->history = history;
    s->arg = g;
    if (g->replay) {
        s->types = g->plain;
        s->no_program = "the program's memory is not in a recording: a "
                        "recording holds its events and their values";
        return;
    }
    s->d = debug_info(g, &cause);
    if (s->d == NULL) {
        s->types = g->plain;
        s->no_program = g->stopped ? "no debug information"
                                   : "the program is not stopped";
        free(cause);
        return;
    }
    s->types = dinfo_types(s->d);
    g->scope_frame = f;
    s->frames = scope_frames;
}

int debug_eval_at(struct debug *g, unsigned int f, const char *expr,
                  struct cvalue **out, char **cause)
{
    struct cscope s;
    const struct frames *fr;

    if (!g->stopped && !g->replay) {
        xcause(cause, "%s", debug_why_not(g));
        return -1;
    }
    if (!g->replay && debug_frames(g, &fr, NULL) == 0 &&
        g->first + f >= fr->n) {
        xcause(cause, "No frame at level %u.", f);
        return -1;
    }
    make_scope(g, &s, (int)(g->first + f));
    return cexpr_eval(&s, expr, out, cause);
}

int debug_eval(struct debug *g, const char *expr, struct cvalue **out,
               char **cause)
{
    struct cscope s;

    if (!g->stopped && !g->replay) {
        xcause(cause, "%s", debug_why_not(g));
        return -1;
    }
    make_scope(g, &s, -1);
    return cexpr_eval(&s, expr, out, cause);
}

int debug_type(struct debug *g, const char *text, struct ctype **out,
               char **cause)
{
    struct cscope s;
    struct cvalue *v;
    int rc;

    if (!g->stopped && !g->replay) {
        xcause(cause, "%s", debug_why_not(g));
        return -1;
    }
    make_scope(g, &s, -1);
    rc = cexpr_type(&s, text, out, cause);
    if (rc != 0)
        return rc > 0 ? 0 : -1;
    if (cexpr_eval(&s, text, &v, cause) != 0)
        return -1;
    *out = v->type;
    cvalue_free(v);
    return 0;
}

long debug_record(struct debug *g, struct cvalue *v)
{
    g->history = xgrow(g->history, g->nhistory, &g->history_cap,
                       sizeof *g->history);
    g->history[g->nhistory++] = cvalue_copy(v);
    return (long)g->nhistory;
}

/* Frame lines. */

/* Whether frame F (absolute) calls a function inlined into it. */
static int has_inlined_callee(const struct frames *fr, unsigned int f)
{
    return f > 0 && fr->f[f - 1].phys == fr->f[f].phys;
}

/* Whether PC starts a row of the line table (frame 0 at a breakpoint). */
static int at_line_start(const struct frame *fp)
{
    Dwfl_Line *ln;
    Dwarf_Addr addr = 0;

    Dwarf_Line *dl;
    Dwarf_Addr bias;
    bool stmt = 1;

    if (fp->mod == NULL || (ln = dwfl_module_getsrc(fp->mod, fp->pc)) ==
                               NULL ||
        dwfl_lineinfo(ln, &addr, NULL, NULL, NULL, NULL) == NULL)
        return 0;
    /* a row that is not a statement's start does not start a line for
     * gdb either */
    if ((dl = dwfl_dwarf_line(ln, &bias)) != NULL)
        dwarf_linebeginstatement(dl, &stmt);
    return addr == fp->pc && stmt;
}

struct args_ctx {
    struct debug *g;
    struct dstr *b;
    unsigned int f;
    int n;
};

static int put_arg(void *arg, const char *name, Dwarf_Die *die, int depth)
{
    struct args_ctx *a = arg;
    struct debug *g = a->g;
    const struct frames *fr = g->fr;
    struct cprint_opts o;
    struct cvalue *v, *entry = NULL;
    struct dloc loc;
    char *text, *etext = NULL;
    struct ctype *t;
    int scalar;

    (void)depth;
    cprint_defaults(&o);
    v = dscope_value(g->d, fr, a->f, die, fr->f[a->f].bias);
    t = ctype_strip(v->type);
    /* print frame-arguments scalars: aggregates as "..." */
    scalar = t->kind != CT_STRUCT && t->kind != CT_UNION &&
             t->kind != CT_ARRAY;
    if (dloc_entry_value(g->d, fr, a->f, die, &loc, NULL) == 0) {
        entry = cvalue_at_loc(g->d, v->type, &loc, fr, a->f);
        if (cvalue_fetch(entry) != 0 || cvalue_all_optout(entry)) {
            cvalue_free(entry);
            entry = NULL;
        }
    }
    if (a->n++ > 0)
        dstr_puts(a->b, ", ");
    dstr_puts(a->b, name);
    dstr_putc(a->b, '=');
    if (v->error != NULL && !v->fetched) {
        text = xasprintf("<error: %s>", v->error);
    } else if (!scalar && cvalue_fetch(v) == 0 && !cvalue_all_optout(v)) {
        text = xstrdup("...");
    } else {
        text = cprint_value(v, &o);
    }
    if (entry != NULL) {
        int same = cvalue_fetch(v) == 0 && v->size == entry->size &&
                   cvalue_available(v, 0, v->size) &&
                   memcmp(v->bytes, entry->bytes, v->size) == 0;

        etext = scalar ? cprint_value(entry, &o) : xstrdup("...");
        if (same) {
            dstr_printf(a->b, "%s@entry=%s", name, etext);
        } else {
            dstr_printf(a->b, "%s, %s@entry=%s", text, name, etext);
        }
    } else {
        dstr_puts(a->b, text);
    }
    free(text);
    free(etext);
    cvalue_free(v);
    cvalue_free(entry);
    return 0;
}

static const char *exe_of(pid_t pid, char *buf, size_t size)
{
    char link[64];
    ssize_t n;

    snprintf(link, sizeof link, "/proc/%d/exe", (int)pid);
    n = readlink(link, buf, size - 1);
    buf[n > 0 ? n : 0] = '\0';
    return buf;
}

char *debug_frame_line(struct debug *g, unsigned int shown)
{
    const struct frames *fr;
    const struct frame *fp;
    unsigned int f = g->first + shown;
    struct dstr b = {0};
    char exe[4096];
    int show_addr;

    if (debug_frames(g, &fr, NULL) != 0 || f >= fr->n)
        return xstrdup("");
    fp = &fr->f[f];
    dstr_printf(&b, "#%-2u ", shown);
    if (fr->phys[fp->phys].signal_frame) {
        dstr_puts(&b, "<signal handler called>");
        return dstr_take(&b);
    }
    show_addr = fp->file == NULL ||
                (!has_inlined_callee(fr, f) &&
                 (!fr->phys[fp->phys].interrupted || !at_line_start(fp)));
    if (show_addr)
        dstr_printf(&b, "0x%016llx in ", (unsigned long long)fp->pc);
    if (fp->name != NULL)
        dstr_printf(&b, "%.*s", (int)strcspn(fp->name, "@"), fp->name);
    else
        dstr_puts(&b, "??");
    dstr_puts(&b, " (");
    if (fp->has_fn && g->d != NULL) {
        struct args_ctx a = {.g = g, .b = &b, .f = f};

        dscope_each(fr, f, DSCOPE_ARGS, put_arg, &a);
    }
    dstr_putc(&b, ')');
    if (fp->file != NULL)
        dstr_printf(&b, " at %s:%d", fp->file, fp->line);
    else if (fp->module != NULL &&
             strcmp(fp->module, exe_of(g->pid, exe, sizeof exe)) != 0)
        dstr_printf(&b, " from %s", fp->module);
    return dstr_take(&b);
}

char *debug_source_line(struct debug *g, unsigned int shown)
{
    const struct frames *fr;
    const struct frame *fp;
    unsigned int f = g->first + shown;
    char *path, *text = NULL, line[4096];
    FILE *src;
    int n = 0;

    if (debug_frames(g, &fr, NULL) != 0 || f >= fr->n)
        return NULL;
    fp = &fr->f[f];
    if (fp->file == NULL || fp->line <= 0)
        return NULL;
    if (fp->file[0] != '/' && fp->has_cu) {
        Dwarf_Attribute a;
        const char *dir = NULL;

        if (dwarf_attr(&((struct frame *)fp)->cu, DW_AT_comp_dir, &a) != NULL)
            dir = dwarf_formstring(&a);
        path = dir != NULL ? xasprintf("%s/%s", dir, fp->file)
                           : xstrdup(fp->file);
    } else {
        path = xstrdup(fp->file);
    }
    src = fopen(path, "re");
    if (src == NULL) {
        text = xasprintf("%d\t%s: No such file or directory.", fp->line,
                         fp->file);
        free(path);
        return text;
    }
    while (fgets(line, sizeof line, src) != NULL) {
        if (++n == fp->line) {
            line[strcspn(line, "\n")] = '\0';
            text = xasprintf("%d\t%s", fp->line, line);
            break;
        }
    }
    fclose(src);
    if (text == NULL)
        text = xasprintf("Line number %d out of range; \"%s\" has %d "
                         "lines.",
                         fp->line, path, n);
    free(path);
    return text;
}

struct vars_ctx {
    struct debug *g;
    struct dstr *b;
    unsigned int f;
    int indent;
    const struct cprint_opts *o;
};

static int put_var(void *arg, const char *name, Dwarf_Die *die, int depth)
{
    struct vars_ctx *c = arg;
    const struct frames *fr = c->g->fr;
    struct cvalue *v = dscope_value(c->g->d, fr, c->f, die,
                                    fr->f[c->f].bias);
    char *text;

    (void)depth;
    if (v->error != NULL && !cvalue_all_optout(v))
        text = xasprintf("<error: %s>", v->error);
    else
        text = cprint_value(v, c->o);
    dstr_printf(c->b, "%*s%s = %s\n", c->indent, "", name, text);
    free(text);
    cvalue_free(v);
    return 0;
}

char *debug_vars(struct debug *g, unsigned int shown, int what, int indent,
                 const struct cprint_opts *o)
{
    const struct frames *fr;
    unsigned int f = g->first + shown;
    struct dstr b = {0};
    struct vars_ctx c = {.g = g, .b = &b, .f = f, .indent = indent, .o = o};
    char *cause = NULL;

    if (debug_frames(g, &fr, &cause) != 0) {
        dstr_printf(&b, "%*s%s\n", indent, "", cause);
        free(cause);
        return dstr_take(&b);
    }
    if (f >= fr->n || !fr->f[f].has_fn ||
        dscope_each(fr, f, what, put_var, &c) == 0) {
        if (f < fr->n && !fr->f[f].has_cu)
            dstr_printf(&b, "%*sNo symbol table info available.\n", indent,
                        "");
        else
            dstr_printf(&b, "%*s%s\n", indent, "",
                        what == DSCOPE_ARGS ? "No arguments." : "No locals.");
    }
    return dstr_take(&b);
}

char *debug_frame_info(struct debug *g, unsigned int shown)
{
    const struct frames *fr;
    const struct frame *fp;
    const struct pframe *p;
    unsigned int f = g->first + shown, k;
    struct dstr b = {0};
    char *args, *cause = NULL;
    int any = 0;

    if (debug_frames(g, &fr, &cause) != 0 || f >= fr->n) {
        dstr_puts(&b, cause != NULL ? cause : "No stack.");
        free(cause);
        return dstr_take(&b);
    }
    fp = &fr->f[f];
    p = &fr->phys[fp->phys];
    dstr_printf(&b, "Stack level %u, frame at 0x%llx:\n", shown,
                (unsigned long long)p->cfa);
    dstr_printf(&b, " rip = 0x%llx", (unsigned long long)fp->pc);
    if (fp->name != NULL)
        dstr_printf(&b, " in %.*s", (int)strcspn(fp->name, "@"), fp->name);
    if (fp->file != NULL)
        dstr_printf(&b, " (%s:%d)", fp->file, fp->line);
    if (fp->phys + 1 < fr->nphys)
        dstr_printf(&b, "; saved rip = 0x%llx",
                    (unsigned long long)fr->phys[fp->phys + 1].pc);
    dstr_putc(&b, '\n');
    if (fp->inlined)
        dstr_printf(&b, " inlined into frame %u\n", shown + 1);
    if (f + 1 < fr->n)
        dstr_printf(&b, " called by frame at 0x%llx",
                    (unsigned long long)fr->phys[fr->f[f + 1].phys].cfa);
    if (f > g->first) {
        dstr_printf(&b, "%s caller of frame at 0x%llx",
                    f + 1 < fr->n ? "," : "",
                    (unsigned long long)fr->phys[fr->f[f - 1].phys].cfa);
    }
    if (f + 1 < fr->n || f > g->first)
        dstr_putc(&b, '\n');
    if (fp->has_cu)
        dstr_puts(&b, " source language c.\n");
    args = debug_frame_line(g, shown);
    {
        /* the arguments as the frame line has them */
        char *open = strchr(args, '(');
        char *close = strrchr(args, ')');

        dstr_printf(&b, " Arglist at 0x%llx, args: ",
                    (unsigned long long)(p->cfa - 16));
        if (open != NULL && close != NULL && close > open)
            dstr_add(&b, open + 1, (size_t)(close - open - 1));
        dstr_putc(&b, '\n');
    }
    free(args);
    dstr_printf(&b, " Locals at 0x%llx, Previous frame's sp is 0x%llx\n",
                (unsigned long long)(p->cfa - 16),
                (unsigned long long)p->cfa);
    for (k = 0; k < FRAME_NGPR; k++) {
        if (p->saved[k] == 0)
            continue;
        dstr_printf(&b, "%s%s at 0x%llx", any ? ", " : " Saved registers:\n  ",
                    frames_reg_name(k), (unsigned long long)p->saved[k]);
        any = 1;
    }
    if (any)
        dstr_putc(&b, '\n');
    return dstr_take(&b);
}

/* Values as trees. */

uint64_t debug_nchildren(struct cvalue *v)
{
    struct ctype *t = ctype_strip(v->type);

    switch (t->kind) {
    case CT_STRUCT:
    case CT_UNION:
        return ctype_complete(t) == 0 ? t->nmembers : 0;
    case CT_ARRAY:
        return t->count_known ? t->count : 0;
    case CT_PTR: {
        struct ctype *target = ctype_strip(t->target);

        if (target->kind == CT_VOID || target->kind == CT_FUNC ||
            cvalue_fetch(v) != 0 || cvalue_as_uint(v) == 0)
            return 0;
        return 1;
    }
    default:
        return 0;
    }
}

struct cvalue *debug_child(struct debug *g, struct cvalue *v, uint64_t i,
                           char **name)
{
    struct ctype *t = ctype_strip(v->type);

    (void)g;
    switch (t->kind) {
    case CT_STRUCT:
    case CT_UNION:
        if (ctype_complete(t) != 0 || i >= t->nmembers)
            return NULL;
        *name = xstrdup(t->members[i].name != NULL ? t->members[i].name
                                                   : "");
        return cvalue_member(v, &t->members[i], t->members[i].offset);
    case CT_ARRAY:
        *name = xasprintf("[%llu]", (unsigned long long)i);
        return cvalue_element(v, (int64_t)i);
    case CT_PTR:
        if (i != 0)
            return NULL;
        *name = xstrdup("*");
        return cvalue_deref(v, NULL);
    default:
        return NULL;
    }
}
