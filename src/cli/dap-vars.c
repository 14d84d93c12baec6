/* SPDX-License-Identifier: MIT */
/*
 * dap-vars.c - what the client looks at while the program is stopped
 * (see dap.h) <design#dap-vars>: its threads, a thread's stack, a frame's
 * scopes, the variables in them, and evaluate.
 *
 * Frames and variables are numbered for the client at each stop and
 * forgotten when the program goes on (the protocol's references live
 * that long).  Frames and C values are the debug layer's (src/debug): the
 * stopped thread's frames with the functions inlined in them, its
 * variables, expressions evaluated at a frame, values as trees.  A
 * variable's children are made when the client asks for them, never
 * before: a C value's members, elements or what it points to, a page at
 * a time; an event's parameter of the program's own type with a Tcl
 * browser is said through it (n_TYPE_say) and its children are what the
 * browser's n_TYPE_open says, a line a child, each value on the line
 * browsable in turn.
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <tcl.h>
#include <unistd.h>

#include <dwarf.h>

#include "cprint.h"
#include "ctypes.h"
#include "cvalue.h"
#include "dap.h"
#include "debug.h"
#include "dscope.h"
#include "frames.h"
#include "interp.h"
#include "noosa.h"
#include "registry.h"
#include "session.h"
#include "target.h"
#include "transcript.h"
#include "value.h"
#include "xmalloc.h"

/* A thread's frames at this stop: the stopped thread's are the debug
 * layer's, another thread's are unwound here (it is stopped for that
 * when it runs); shown from FIRST (after the runtime's) to N - 1. */
struct tframes {
    pid_t tid;
    const struct frames *fr;
    struct frames *own;  /* another thread's */
    unsigned int first, n;
    char *why;           /* why there are none */
    char *replay;        /* a recording's one frame: the event's place */
};

enum ref_kind {
    REF_EVENT,    /* the event's parameters */
    REF_TCL,      /* a value of the program's type: its browser's lines */
    REF_TCL_LINE, /* a line of a browser with several values */
    REF_LOCALS,   /* a frame's arguments and variables */
    REF_GLOBALS,  /* the globals and statics of a frame's unit */
    REF_CVALUE    /* a C value's members, elements or target */
};

struct ref {
    enum ref_kind kind;
    char *type, *value, *text; /* REF_TCL */
    json_t *children;          /* REF_TCL_LINE: made already */
    pid_t tid;                 /* REF_LOCALS, REF_GLOBALS: the frame */
    unsigned int f;
    struct cvalue *cv;         /* REF_CVALUE (owned) */
};

struct dap_vars {
    struct dap *d;
    struct tframes *threads;
    size_t nthreads, threads_cap;
    struct { pid_t tid; unsigned int f; } *fids; /* frame ids - 1 */
    size_t nfids, fids_cap;
    struct ref *refs;                            /* references - 1 */
    size_t nrefs, refs_cap;
};

struct dap_vars *dap_vars_create(struct dap *d)
{
    struct dap_vars *v = xcalloc(1, sizeof *v);

    v->d = d;
    return v;
}

void dap_vars_forget(struct dap_vars *v)
{
    size_t i;

    for (i = 0; i < v->nthreads; i++) {
        frames_free(v->threads[i].own);
        free(v->threads[i].why);
        free(v->threads[i].replay);
    }
    v->nthreads = 0;
    v->nfids = 0;
    for (i = 0; i < v->nrefs; i++) {
        free(v->refs[i].type);
        free(v->refs[i].value);
        free(v->refs[i].text);
        json_decref(v->refs[i].children);
        cvalue_free(v->refs[i].cv);
    }
    v->nrefs = 0;
}

void dap_vars_free(struct dap_vars *v)
{
    if (v == NULL)
        return;
    dap_vars_forget(v);
    free(v->threads);
    free(v->fids);
    free(v->refs);
    free(v);
}

/* A new reference; its number. */
static int new_ref(struct dap_vars *v, enum ref_kind kind, struct ref **out)
{
    v->refs = xgrow(v->refs, v->nrefs, &v->refs_cap, sizeof *v->refs);
    *out = &v->refs[v->nrefs];
    memset(*out, 0, sizeof **out);
    (*out)->kind = kind;
    return (int)++v->nrefs;
}

/* --- frames -------------------------------------------------------------------- */

/* Unwind thread T->tid, not the one stopped, of the live program into
 * T: at an event it runs (the others run while one waits), so it is
 * stopped for the unwind and let go on after. */
static void unwind_other(struct dap_vars *v, struct tframes *t)
{
    struct dap *d = v->d;
    struct target *tg = session_target(d->in->session);
    struct dinfo *di = debug_info(d->noosa->debug, &t->why);
    int held = 0, rc;

    if (di == NULL)
        return;
    if (tg == NULL) {
        t->why = xstrdup("the program is not running");
        return;
    }
    if (!target_thread_stopped(tg, t->tid)) {
        if (target_stop_thread(tg, t->tid, 2000, &t->why) != 0)
            return;
        held = 1;
    }
    rc = frames_unwind(di, t->tid, &t->own, &t->why);
    if (held)
        target_resume_thread(tg, t->tid, NULL);
    if (rc != 0)
        return;
    t->fr = t->own;
    t->first = frames_first_program(t->own);
    t->n = t->own->n;
}

/* The frames of thread TID at this stop (made at the first question). */
static struct tframes *frames_of(struct dap_vars *v, pid_t tid)
{
    struct dap *d = v->d;
    struct debug *g = d->noosa->debug;
    struct tframes *t;
    size_t i;

    for (i = 0; i < v->nthreads; i++)
        if (v->threads[i].tid == tid)
            return &v->threads[i];
    v->threads = xgrow(v->threads, v->nthreads, &v->threads_cap,
                       sizeof *v->threads);
    t = &v->threads[v->nthreads++];
    memset(t, 0, sizeof *t);
    t->tid = tid;
    if (session_replaying(d->in->session)) {
        /* a recording has its events, not its stacks */
        const struct registry_event *e = dap_stop_event(d);

        t->replay = xasprintf(
            "%s (event %llu of the recording)", e != NULL ? e->name : "?",
            (unsigned long long)noosa_event_at(d->in->noosa));
        t->n = 1;
    } else if (tid != d->stop_thread) {
        unwind_other(v, t);
    } else if (debug_frames(g, &t->fr, &t->why) == 0) {
        /* up to main, as gdb's backtrace shows them */
        t->first = debug_first(g);
        t->n = t->first + debug_count(g);
    }
    return t;
}

/* Frame F of T: its function (or its place in a recording), file (NULL
 * without a line) and line. */
static const char *frame_name(const struct tframes *t, unsigned int f)
{
    if (t->replay != NULL)
        return t->replay;
    return t->fr->f[f].name != NULL ? t->fr->f[f].name : "??";
}

static const char *frame_file(const struct tframes *t, unsigned int f,
                              int *line)
{
    if (t->replay != NULL || t->fr->f[f].file == NULL)
        return NULL;
    *line = t->fr->f[f].line;
    return t->fr->f[f].file;
}

int dap_vars_site(struct dap_vars *v, const char **file, int *line)
{
    struct tframes *t;

    if (session_replaying(v->d->in->session))
        return -1;
    t = frames_of(v, v->d->stop_thread);
    if (t->n == 0 || (*file = frame_file(t, t->first, line)) == NULL)
        return -1;
    return 0;
}

/* The frame the client's id ID names: 0 with *T and *F, else -1. */
static int frame_id(struct dap_vars *v, long long id, struct tframes **t,
                    unsigned int *f)
{
    if (id < 1 || (size_t)id > v->nfids)
        return -1;
    *t = frames_of(v, v->fids[id - 1].tid);
    *f = v->fids[id - 1].f;
    return *f < (*t)->n ? 0 : -1;
}

static long long new_frame_id(struct dap_vars *v, pid_t tid, unsigned int f)
{
    for (size_t i = 0; i < v->nfids; i++)
        if (v->fids[i].tid == tid && v->fids[i].f == f)
            return (long long)i + 1;
    v->fids = xgrow(v->fids, v->nfids, &v->fids_cap, sizeof *v->fids);
    v->fids[v->nfids].tid = tid;
    v->fids[v->nfids].f = f;
    return (long long)++v->nfids;
}

/* --- values -------------------------------------------------------------------- */

/* What a Tcl command said (captured, not told to the client), as lines
 * with the values marked in them. */
struct said {
    char **lines;
    size_t n;
    const struct tr_value **values; /* in order */
    unsigned int *vline, *vcol;     /* each value's line and column */
    size_t nvalues;
    int ok;
    char *error;
};

static void said_free(struct said *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->lines[i]);
    free(s->lines);
    free(s->values);
    free(s->vline);
    free(s->vcol);
    free(s->error);
}

/* Evaluate the command OBJV and take what it says into *S. */
static void say_into(struct dap *d, int objc, Tcl_Obj *const objv[],
                     struct said *s)
{
    struct transcript *t = d->in->transcript;
    const struct tr_value *vals[256];
    uint64_t line, end, l;
    size_t col, nv, i;

    memset(s, 0, sizeof *s);
    dap_capture_begin(d, &line, &col);
    for (int k = 0; k < objc; k++)
        Tcl_IncrRefCount(objv[k]);
    s->ok = Tcl_EvalObjv(d->in->tcl, objc, objv, TCL_EVAL_GLOBAL) == TCL_OK;
    if (!s->ok)
        s->error = xstrdup(Tcl_GetStringResult(d->in->tcl));
    Tcl_ResetResult(d->in->tcl);
    for (int k = 0; k < objc; k++)
        Tcl_DecrRefCount(objv[k]);
    end = transcript_end(t);
    if (line < transcript_first(t)) {
        line = transcript_first(t);
        col = 0;
    }
    s->lines = xcalloc((size_t)(end - line) + 1, sizeof *s->lines);
    for (l = line; l < end; l++) {
        size_t len, start = l == line ? col : 0;
        const char *text = transcript_line(t, l, &len);

        s->lines[s->n++] = xstrndup(text + (start < len ? start : len),
                                    start < len ? len - start : 0);
    }
    nv = end > line ? transcript_values_in(t, line, end - 1, vals, 256) : 0;
    s->values = xcalloc(nv + 1, sizeof *s->values);
    s->vline = xcalloc(nv + 1, sizeof *s->vline);
    s->vcol = xcalloc(nv + 1, sizeof *s->vcol);
    for (i = 0; i < nv; i++) {
        size_t start = vals[i]->line == line ? col : 0;

        if (vals[i]->line < line || vals[i]->col < start)
            continue;
        s->values[s->nvalues] = vals[i];
        s->vline[s->nvalues] = (unsigned int)(vals[i]->line - line);
        s->vcol[s->nvalues++] = (unsigned int)(vals[i]->col - start);
    }
    free(dap_capture_end(d, line, col, 0));
}

/* A reference to browse value VAL (TYPE:VALUE, written TEXT) when its
 * type has n_TYPE_open; 0 otherwise. */
static int browse_ref(struct dap_vars *v, const struct tr_value *val,
                      const char *text)
{
    struct ref *r;
    int id;

    if (val == NULL)
        return 0;
    id = new_ref(v, REF_TCL, &r);
    r->type = xstrdup(val->type);
    r->value = xstrdup(val->value);
    r->text = xstrdup(text);
    return id;
}

/* A variable of the client: NAME = VALUE, of TYPE (may be NULL), its
 * children behind REF (0: none). */
static json_t *variable(const char *name, const char *value,
                        const char *type, int ref)
{
    json_t *j = json_object();

    json_object_set_new(j, "name", dap_jstr(name));
    json_object_set_new(j, "value", dap_jstr(value));
    if (type != NULL)
        json_object_set_new(j, "type", dap_jstr(type));
    json_object_set_new(j, "variablesReference", json_integer(ref));
    return j;
}

/* Children of a C value given at most in one answer without paging. */
#define DAP_CHILDREN_MAX 10000

/* A variable for C value CV (taken): its text as print shows it inside
 * an aggregate (after PREFIX), its type (TYPE, else its C type), and
 * its children behind a reference when it has some. */
static json_t *cvar(struct dap_vars *v, const char *name, struct cvalue *cv,
                    const char *prefix, const char *type)
{
    struct cprint_opts o;
    char *text, *shown, *tname;
    uint64_t n = debug_nchildren(cv);
    int ref = 0, array = ctype_strip(cv->type)->kind == CT_ARRAY;
    json_t *j;

    cprint_defaults(&o);
    text = cprint_value(cv, &o);
    shown = xasprintf("%s%s", prefix != NULL ? prefix : "", text);
    tname = type != NULL ? xstrdup(type) : ctype_name(cv->type);
    if (n > 0) {
        struct ref *r;

        ref = new_ref(v, REF_CVALUE, &r);
        r->cv = cv;
        cv = NULL;
    }
    j = variable(name, shown, tname, ref);
    if (n > 0)
        json_object_set_new(j, array ? "indexedVariables" : "namedVariables",
                            json_integer((json_int_t)n));
    cvalue_free(cv);
    free(text);
    free(shown);
    free(tname);
    return j;
}

/* Whether TYPE has a browser of its own in Tcl (n_TYPE_say or
 * n_TYPE_open), which comes before the C value <design#dap-vars>. */
static int tcl_browser(struct dap *d, const char *type)
{
    Tcl_CmdInfo info;
    char *say = xasprintf("n_%s_say", type);
    char *open = xasprintf("n_%s_open", type);
    int yes = Tcl_GetCommandInfo(d->in->tcl, say, &info) ||
              Tcl_GetCommandInfo(d->in->tcl, open, &info);

    free(say);
    free(open);
    return yes;
}

/* The text of the value of parameter P (Tcl's VALUE) as the transcript
 * says it: pointers in hex, strings quoted; of the program's own types
 * through its browser (n_say_val), with *REF to browse it. */
static char *param_text(struct dap_vars *v, const struct registry_param *p,
                        const char *value, int *ref)
{
    struct said s;
    Tcl_Obj *cmd[3];
    char *text;

    *ref = 0;
    if (value == NULL)
        return xstrdup("?");
    switch (p->kind) {
    case DAPTO_K_PTR:
        return xasprintf("0x%llx", strtoull(value, NULL, 10));
    case DAPTO_K_STR:
        return value_quote(value, strlen(value));
    case DAPTO_K_USER:
        break;
    default:
        return xstrdup(value);
    }
    cmd[0] = Tcl_NewStringObj("n_say_val", -1);
    cmd[1] = Tcl_NewStringObj(p->type, -1);
    cmd[2] = Tcl_NewStringObj(value, -1);
    say_into(v->d, 3, cmd, &s);
    if (!s.ok) {
        text = xasprintf("%s:%s (%s)", p->type, value, s.error);
    } else {
        text = xstrdup(s.n > 0 ? s.lines[0] : "");
        if (s.nvalues > 0)
            *ref = browse_ref(v, s.values[0], text);
    }
    said_free(&s);
    return text;
}

/* The value of the event's variable NAME at the stop as a variable, or
 * NULL when the event has no such variable. */
static json_t *event_var(struct dap_vars *v, const char *name)
{
    struct dap *d = v->d;
    const struct registry_event *e = dap_stop_event(d);
    const char *value;
    char *text;
    int ref;

    if (e == NULL)
        return NULL;
    value = Tcl_GetVar2(d->in->tcl, "ev", name, TCL_GLOBAL_ONLY);
    for (unsigned int i = 0; i < e->nparams; i++) {
        const struct registry_param *p = &e->params[i];
        struct cvalue *cv;
        json_t *j;

        if (strcmp(p->name, name) != 0)
            continue;
        /* a Tcl browser first, else the C value the debug information
         * makes of it (a ptr<T>, a user type naming a typedef) */
        if ((p->kind == DAPTO_K_USER || p->kind == DAPTO_K_PTR) &&
            !(p->kind == DAPTO_K_USER && tcl_browser(d, p->type)) &&
            (cv = debug_param(d->noosa->debug, name)) != NULL) {
            char *prefix = p->kind == DAPTO_K_USER
                               ? xasprintf("%s:", p->type)
                               : NULL;

            j = cvar(v, name, cv, prefix, p->type);
            free(prefix);
            return j;
        }
        text = param_text(v, p, value, &ref);
        j = variable(name, text, p->type, ref);
        free(text);
        return j;
    }
    if (value != NULL && strncmp(name, "n_", 2) == 0)
        return variable(name, value, NULL, 0);
    return NULL;
}

/* The children of value R: the lines its browser's n_TYPE_open says
 * (after the text it was opened on), NAME: VALUE or NAME = VALUE as a
 * named child, other lines numbered; a line's value browsable in turn,
 * a line of several values a child of them. */
static json_t *browse(struct dap_vars *v, struct ref *r)
{
    struct said s;
    Tcl_Obj *cmd[3];
    json_t *out = json_array();
    char *proc = xasprintf("n_%s_open", r->type);
    size_t i, k, unnamed = 0;

    cmd[0] = Tcl_NewStringObj(proc, -1);
    cmd[1] = Tcl_NewStringObj(r->text, -1);
    cmd[2] = Tcl_NewStringObj(r->value, -1);
    free(proc);
    say_into(v->d, 3, cmd, &s);
    if (!s.ok)
        json_array_append_new(out, variable("error", s.error, NULL, 0));
    for (i = 0; i < s.n; i++) {
        char *line = s.lines[i], *name, *value, *sep;
        size_t skip = 0, first = SIZE_MAX, nvals = 0;
        int ref = 0;

        /* the browser says the text it was opened on first */
        if (i == 0 && strncmp(line, r->text, strlen(r->text)) == 0)
            skip = strlen(r->text);
        line += skip;
        while (*line == ' ' || *line == '\t')
            line++;
        if (*line == '\0')
            continue;
        for (k = 0; k < s.nvalues; k++) {
            if (s.vline[k] != i || s.vcol[k] < skip)
                continue;
            if (first == SIZE_MAX)
                first = k;
            nvals++;
        }
        /* NAME: VALUE, when the name has no value of its own */
        sep = strstr(line, ": ");
        if (sep == NULL)
            sep = strstr(line, " = ");
        if (sep != NULL && sep > line && sep - line <= 40 &&
            (first == SIZE_MAX ||
             s.vcol[first] >= (size_t)(sep - s.lines[i]))) {
            name = xstrndup(line, (size_t)(sep - line));
            value = xstrdup(sep + (sep[0] == ':' ? 2 : 3));
        } else {
            name = xasprintf("[%zu]", unnamed++);
            value = xstrdup(line);
        }
        if (nvals == 1) {
            const struct tr_value *val = s.values[first];
            const char *at = s.lines[i] + s.vcol[first];
            char *text = xstrndup(at, val->len);

            ref = browse_ref(v, val, text);
            free(text);
        } else if (nvals > 1) {
            struct ref *lr;
            json_t *kids = json_array();

            for (k = first; k < s.nvalues; k++) {
                char *text, *kname;

                if (s.vline[k] != i)
                    continue;
                text = xstrndup(s.lines[i] + s.vcol[k], s.values[k]->len);
                kname = xasprintf("[%zu]", json_array_size(kids));
                json_array_append_new(
                    kids, variable(kname, text, s.values[k]->type,
                                   browse_ref(v, s.values[k], text)));
                free(kname);
                free(text);
            }
            ref = new_ref(v, REF_TCL_LINE, &lr);
            lr->children = kids;
        }
        json_array_append_new(out, variable(name, value, NULL, ref));
        free(name);
        free(value);
    }
    said_free(&s);
    return out;
}

/* --- requests -------------------------------------------------------------------- */

/* The program's threads now: its tasks, named as the kernel names them. */
static void req_threads(struct dap *d, json_t *req, json_t *args)
{
    json_t *out = json_array();
    struct session *s = d->in->session;
    char path[64], name[64];
    struct dirent *e;
    DIR *dir = NULL;

    (void)args;
    if (session_replaying(s)) {
        if (d->stop_thread != 0)
            json_array_append_new(
                out, json_pack("{s:i,s:o}", "id", (int)d->stop_thread, "name",
                               dap_jstr("thread (recorded)")));
    } else if (session_state(s) != SESSION_IDLE) {
        snprintf(path, sizeof path, "/proc/%d/task", (int)session_pid(s));
        dir = opendir(path);
    }
    while (dir != NULL && (e = readdir(dir)) != NULL) {
        FILE *f;
        char *label;
        int tid;

        if (!isdigit((unsigned char)e->d_name[0]))
            continue;
        tid = atoi(e->d_name);
        snprintf(path, sizeof path, "/proc/%d/task/%d/comm",
                 (int)session_pid(s), tid);
        name[0] = '\0';
        f = fopen(path, "re");
        if (f != NULL) {
            if (fgets(name, sizeof name, f) == NULL)
                name[0] = '\0';
            name[strcspn(name, "\n")] = '\0';
            fclose(f);
        }
        label = xasprintf("%d %s", tid, name);
        json_array_append_new(out, json_pack("{s:i,s:o}", "id", tid, "name",
                                             dap_jstr(label)));
        free(label);
    }
    if (dir != NULL)
        closedir(dir);
    dap_respond(d, req, json_pack("{s:o}", "threads", out));
}

static void req_stack_trace(struct dap *d, json_t *req, json_t *args)
{
    struct dap_vars *v = d->vars;
    int bad = 0;
    long long tid = dap_arg_int(args, "threadId", d->stop_thread, &bad);
    long long start = dap_arg_int(args, "startFrame", 0, &bad);
    long long levels = dap_arg_int(args, "levels", 0, &bad);
    struct tframes *t;
    json_t *out;
    unsigned int i, shown;

    if (bad || tid <= 0 || start < 0 || levels < 0) {
        dap_fail(d, req, "stackTrace needs \"threadId\", and numbers for "
                 "\"startFrame\" and \"levels\"");
        return;
    }
    t = frames_of(v, (pid_t)tid);
    if (t->n == 0) {
        dap_fail(d, req, "thread %lld: %s", tid,
                 t->why != NULL ? t->why : "no frames");
        return;
    }
    out = json_array();
    shown = t->n - t->first;
    for (i = t->first + (unsigned int)(start < shown ? start : shown);
         i < t->n && (levels == 0 || i - t->first - start < levels); i++) {
        const char *name = frame_name(t, i), *file;
        json_t *j = json_object();
        char *path = NULL;
        int line = 0;

        file = frame_file(t, i, &line);
        json_object_set_new(j, "id", json_integer(new_frame_id(v, t->tid, i)));
        json_object_set_new(j, "name", dap_jstr(name));
        path = dap_lines_path(d->lines, file);
        if (path != NULL) {
            const char *base = strrchr(path, '/');

            json_object_set_new(
                j, "source",
                json_pack("{s:o,s:o}", "name", dap_jstr(base + 1), "path",
                          dap_jstr(path)));
            json_object_set_new(j, "line", json_integer(line - !d->lines_at1));
            json_object_set_new(j, "column", json_integer(d->columns_at1));
            free(path);
        } else {
            /* no source to show: where it is in its name */
            if (file != NULL) {
                char *where = xasprintf("%s (%s:%d)", name, file, line);

                json_object_set_new(j, "name", dap_jstr(where));
                free(where);
            }
            json_object_set_new(j, "line", json_integer(0));
            json_object_set_new(j, "column", json_integer(0));
            json_object_set_new(j, "presentationHint", json_string("subtle"));
        }
        if (t->replay == NULL) {
            char pc[32];

            snprintf(pc, sizeof pc, "0x%llx",
                     (unsigned long long)t->fr->f[i].pc);
            json_object_set_new(j, "instructionPointerReference",
                                json_string(pc));
        }
        json_array_append_new(out, j);
    }
    dap_respond(d, req,
                json_pack("{s:o,s:i}", "stackFrames", out, "totalFrames",
                          (int)shown));
}

static void req_scopes(struct dap *d, json_t *req, json_t *args)
{
    struct dap_vars *v = d->vars;
    int bad = 0;
    long long id = dap_arg_int(args, "frameId", -1, &bad);
    const struct registry_event *e = dap_stop_event(d);
    struct tframes *t;
    unsigned int f;
    json_t *out;

    if (bad || frame_id(v, id, &t, &f) != 0) {
        dap_fail(d, req, "scopes: no frame %lld at this stop", id);
        return;
    }
    out = json_array();
    if (e != NULL && t->tid == d->stop_thread && f == t->first) {
        struct ref *r;
        char *name = xasprintf("Event %s", e->name);

        json_array_append_new(
            out, json_pack("{s:o,s:i,s:i,s:b}", "name", dap_jstr(name),
                           "variablesReference", new_ref(v, REF_EVENT, &r),
                           "namedVariables", (int)e->nparams, "expensive",
                           0));
        free(name);
    }
    if (t->replay == NULL) {
        struct ref *r;
        int id_locals = new_ref(v, REF_LOCALS, &r);

        r->tid = t->tid;
        r->f = f;
        json_array_append_new(
            out, json_pack("{s:s,s:s,s:i,s:b}", "name", "Locals",
                           "presentationHint", "locals",
                           "variablesReference", id_locals, "expensive", 0));
        if (t->fr->f[f].has_cu) {
            int id_globals = new_ref(v, REF_GLOBALS, &r);

            r->tid = t->tid;
            r->f = f;
            json_array_append_new(
                out, json_pack("{s:s,s:i,s:b}", "name", "Globals",
                               "variablesReference", id_globals,
                               "expensive", 1));
        }
    }
    dap_respond(d, req, json_pack("{s:o}", "scopes", out));
}

/* What the variables of a frame are gathered with. */
struct gather {
    struct dap_vars *v;
    const struct frames *fr;
    unsigned int f;
    struct dinfo *di;
    json_t *out;
};

static int gather_var(void *arg, const char *name, Dwarf_Die *die,
                      int depth)
{
    struct gather *g = arg;

    (void)depth;
    json_array_append_new(
        g->out, cvar(g->v, name,
                     dscope_value(g->di, g->fr, g->f, die,
                                  g->fr->f[g->f].bias),
                     NULL, NULL));
    return 0;
}

/* The arguments, then the variables (innermost block first) of frame F
 * of thread TID; or (GLOBALS) the variables of the frame's unit. */
static json_t *frame_vars(struct dap_vars *v, pid_t tid, unsigned int f,
                          int globals)
{
    struct tframes *t = frames_of(v, tid);
    struct gather g;
    char *cause = NULL;

    memset(&g, 0, sizeof g);
    g.v = v;
    g.fr = t->fr;
    g.f = f;
    g.out = json_array();
    g.di = debug_info(v->d->noosa->debug, &cause);
    if (g.di == NULL || t->fr == NULL || f >= t->n) {
        json_array_append_new(
            g.out, variable("error", cause != NULL ? cause : "no frame",
                            NULL, 0));
        free(cause);
        return g.out;
    }
    if (!globals) {
        dscope_each(t->fr, f, DSCOPE_ARGS, gather_var, &g);
        dscope_each(t->fr, f, DSCOPE_LOCALS, gather_var, &g);
    } else if (t->fr->f[f].has_cu) {
        Dwarf_Die cu = t->fr->f[f].cu, die;
        Dwarf_Attribute attr;
        bool flag;

        if (dwarf_child(&cu, &die) == 0) {
            do {
                const char *name = dwarf_diename(&die);

                if (dwarf_tag(&die) != DW_TAG_variable || name == NULL ||
                    (dwarf_attr(&die, DW_AT_declaration, &attr) != NULL &&
                     dwarf_formflag(&attr, &flag) == 0 && flag) ||
                    (dwarf_attr(&die, DW_AT_artificial, &attr) != NULL &&
                     dwarf_formflag(&attr, &flag) == 0 && flag))
                    continue;
                json_array_append_new(
                    g.out,
                    cvar(v, name,
                         dscope_value(g.di, NULL, 0, &die,
                                      t->fr->f[f].bias),
                         NULL, NULL));
            } while (dwarf_siblingof(&die, &die) == 0);
        }
    }
    return g.out;
}

/* Children START .. START + COUNT - 1 (all, up to DAP_CHILDREN_MAX,
 * when COUNT is 0) of C value CV. */
static json_t *cvalue_children(struct dap_vars *v, struct cvalue *cv,
                               uint64_t start, uint64_t count)
{
    uint64_t n = debug_nchildren(cv), i;
    json_t *out = json_array();

    if (count == 0 || count > DAP_CHILDREN_MAX)
        count = DAP_CHILDREN_MAX;
    for (i = start; i < n && i < start + count; i++) {
        char *name = NULL;
        struct cvalue *child = debug_child(v->d->noosa->debug, cv, i, &name);

        if (child == NULL) {
            free(name);
            continue;
        }
        json_array_append_new(out, cvar(v, name, child, NULL, NULL));
        free(name);
    }
    return out;
}

static void req_variables(struct dap *d, json_t *req, json_t *args)
{
    struct dap_vars *v = d->vars;
    int bad = 0;
    long long id = dap_arg_int(args, "variablesReference", -1, &bad);
    long long start = dap_arg_int(args, "start", 0, &bad);
    long long count = dap_arg_int(args, "count", 0, &bad);
    json_t *out, *page;
    struct ref *r;
    size_t i;

    if (bad || id < 1 || (size_t)id > v->nrefs || start < 0 || count < 0) {
        dap_fail(d, req, "variables: no reference %lld at this stop", id);
        return;
    }
    r = &v->refs[id - 1];
    switch (r->kind) {
    case REF_EVENT: {
        const struct registry_event *e = dap_stop_event(d);

        out = json_array();
        for (i = 0; e != NULL && i < e->nparams; i++) {
            json_t *j = event_var(v, e->params[i].name);

            if (j != NULL)
                json_array_append_new(out, j);
        }
        break;
    }
    case REF_TCL:
        out = browse(v, r);
        /* browse made references: R may have moved */
        r = &v->refs[id - 1];
        break;
    case REF_LOCALS:
    case REF_GLOBALS:
        out = frame_vars(v, r->tid, r->f, r->kind == REF_GLOBALS);
        break;
    case REF_CVALUE:
        /* a page of them, made now */
        dap_respond(d, req, json_pack("{s:o}", "variables",
                                      cvalue_children(v, r->cv,
                                                      (uint64_t)start,
                                                      (uint64_t)count)));
        return;
    case REF_TCL_LINE:
    default:
        out = json_incref(r->children);
        break;
    }
    page = json_array();
    for (i = (size_t)start; i < json_array_size(out) &&
                            (count == 0 || i < (size_t)(start + count));
         i++)
        json_array_append(page, json_array_get(out, i));
    json_decref(out);
    dap_respond(d, req, json_pack("{s:o}", "variables", page));
}

/* EXPR as a C expression at the frame ARGS name (the selected one
 * without): the variable the client shows, or NULL once REQ is answered
 * with why it cannot be evaluated. */
static json_t *c_expression(struct dap *d, json_t *req, json_t *args,
                            const char *expr)
{
    struct dap_vars *v = d->vars;
    struct debug *g = d->noosa->debug;
    struct cprint_opts o;
    struct tframes *t;
    struct cvalue *cv;
    char *cause = NULL, *top;
    unsigned int f;
    int bad = 0, rc;
    long long id = dap_arg_int(args, "frameId", 0, &bad);
    json_t *j;

    if (bad || (id != 0 && frame_id(v, id, &t, &f) != 0)) {
        dap_fail(d, req, "evaluate: no frame %lld at this stop", id);
        return NULL;
    }
    if (id != 0 && t->replay == NULL && t->tid != d->stop_thread) {
        dap_fail(d, req, "%s: C expressions are evaluated in the frames of "
                 "the thread stopped (%d), not of thread %d", expr,
                 (int)d->stop_thread, (int)t->tid);
        return NULL;
    }
    rc = id != 0 && t->replay == NULL
             ? debug_eval_at(g, f - t->first, expr, &cv, &cause)
             : debug_eval(g, expr, &cv, &cause);
    if (rc != 0) {
        dap_fail(d, req, "%s", cause);
        free(cause);
        return NULL;
    }
    cprint_defaults(&o);
    top = cprint_top(cv, &o, &cause);
    if (top == NULL) {
        dap_fail(d, req, "%s", cause);
        free(cause);
        cvalue_free(cv);
        return NULL;
    }
    j = cvar(v, expr, cv, NULL, NULL);
    json_object_set_new(j, "value", dap_jstr(top));
    free(top);
    return j;
}

static void req_evaluate(struct dap *d, json_t *req, json_t *args)
{
    const char *expr = dap_arg_str(args, "expression");
    const char *context = dap_arg_str(args, "context");
    const char *why;
    char *out = NULL, *name;
    json_t *j;
    size_t n;

    if (expr == NULL) {
        dap_fail(d, req, "evaluate needs \"expression\"");
        return;
    }
    if (context == NULL || strcmp(context, "repl") == 0) {
        /* a noosa command, as typed at the prompt */
        int rc = dap_script(d, expr, &out);

        n = strlen(out);
        while (n > 0 && out[n - 1] == '\n')
            out[--n] = '\0';
        if (rc != TCL_OK)
            dap_fail(d, req, "%s", out);
        else
            dap_respond(d, req,
                        json_pack("{s:o,s:i}", "result", dap_jstr(out),
                                  "variablesReference", 0));
        free(out);
        return;
    }
    if (dap_stopped(d, &why) != 1) {
        dap_fail(d, req, "%s", why);
        return;
    }
    /* a variable of the event: NAME or $NAME */
    while (isspace((unsigned char)*expr))
        expr++;
    name = xstrdup(expr + (*expr == '$'));
    for (n = strlen(name); n > 0 && isspace((unsigned char)name[n - 1]); n--)
        name[n - 1] = '\0';
    j = event_var(d->vars, name);
    if (j == NULL)
        j = c_expression(d, req, args, name);
    if (j == NULL) {
        free(name);
        return;
    }
    free(name);
    dap_respond(d, req,
                json_pack("{s:O,s:O,s:O}", "result",
                          json_object_get(j, "value"), "type",
                          json_object_get(j, "type") != NULL
                              ? json_object_get(j, "type")
                              : json_null(),
                          "variablesReference",
                          json_object_get(j, "variablesReference")));
    json_decref(j);
}

/* What the transcript says of the error stopped at: from its first line
 * ("Program received ...", "Program reported ...") on.  The caller
 * frees it. */
static char *error_report(struct dap *d)
{
    struct transcript *t = d->in->transcript;
    uint64_t l = transcript_end(t);
    char *text = NULL;

    while (l > transcript_first(t) && l + 400 > transcript_end(t)) {
        size_t len;
        const char *s = transcript_line(t, --l, &len);

        if ((len > 16 && strncmp(s, "Program received", 16) == 0) ||
            (len > 16 && strncmp(s, "Program reported", 16) == 0)) {
            text = xstrdup("");
            for (uint64_t k = l; k < transcript_end(t); k++) {
                char *more;

                s = transcript_line(t, k, &len);
                more = xasprintf("%s%.*s\n", text, (int)len, s);
                free(text);
                text = more;
            }
            break;
        }
    }
    return text;
}

static void req_exception_info(struct dap *d, json_t *req, json_t *args)
{
    const struct target_event *f = session_fault(d->in->session);
    char sig[32], *report, *first;
    json_t *body;

    (void)args;
    if (f == NULL) {
        dap_fail(d, req, "exceptionInfo: the program is not stopped at a "
                 "run-time error");
        return;
    }
    target_signal_name(f->signo, sig, sizeof sig);
    report = error_report(d);
    first = report != NULL ? xstrndup(report, strcspn(report, "\n"))
                           : xstrdup(d->noosa->where != NULL
                                         ? d->noosa->where
                                         : sig);
    body = json_object();
    json_object_set_new(body, "exceptionId", json_string(sig));
    json_object_set_new(body, "description", dap_jstr(first));
    json_object_set_new(body, "breakMode", json_string("always"));
    json_object_set_new(
        body, "details",
        json_pack("{s:o,s:s,s:o}", "message", dap_jstr(first), "typeName",
                  sig, "stackTrace", dap_jstr(report != NULL ? report : "")));
    free(first);
    free(report);
    dap_respond(d, req, body);
}

const struct dap_request dap_vars_requests[] = {
    {"threads", req_threads, DAP_NEEDS_PROGRAM},
    {"stackTrace", req_stack_trace, DAP_NEEDS_STOPPED},
    {"scopes", req_scopes, DAP_NEEDS_STOPPED},
    {"variables", req_variables, DAP_NEEDS_STOPPED},
    {"evaluate", req_evaluate, DAP_NEEDS_PROGRAM},
    {"exceptionInfo", req_exception_info, DAP_NEEDS_STOPPED},
    {NULL, NULL, 0}};
