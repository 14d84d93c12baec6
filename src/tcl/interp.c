/* SPDX-License-Identifier: MIT */
/*
 * interp.c - the Tcl layer's core: the interpreter, the library and
 * browsers it loads, start-up files, the n(...) state array, and the
 * session hooks that turn what the program does into transcript lines
 * and deliveries to consumers.
 *
 * Values from the program are data, never code: they reach Tcl only as
 * variable values and list elements, never through a script that is
 * evaluated.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "breaks.h"
#include "cbrowse.h"
#include "command.h"
#include "cprint.h"
#include "dapto.h"
#include "debug.h"
#include "display.h"
#include "fault.h"
#include "noosa.h"
#include "handlers.h"
#include "interp.h"
#include "loop.h"
#include "monitor.h"
#include "profile.h"
#include "stacks.h"
#include "vars.h"
#include "trace.h"
#include "value.h"
#include "xmalloc.h"

#ifndef NOOSA_PKGDATADIR
#define NOOSA_PKGDATADIR "/usr/local/share/noosa"
#endif

void interp_say(struct interp *in, const char *text)
{
    sink_say(&in->noosa->sink, text);
}

void interp_sayf(struct interp *in, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    sink_vsayf(&in->noosa->sink, fmt, ap);
    va_end(ap);
}

void interp_error(struct interp *in, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    sink_verror(&in->noosa->sink, fmt, ap);
    va_end(ap);
}

/* The directory of noosa's Tcl files: $NOOSA_LIBRARY, else the source tree
 * when this noosa runs from its build tree, else the installed one. */
static char *find_datadir(void)
{
    const char *env = getenv("NOOSA_LIBRARY");
    char exe[PATH_MAX];
    ssize_t n;

    if (env != NULL && *env != '\0')
        return xstrdup(env);
#if defined(NOOSA_SRCDIR) && defined(NOOSA_BUILDDIR)
    n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        size_t len = strlen(NOOSA_BUILDDIR);

        exe[n] = '\0';
        if (strncmp(exe, NOOSA_BUILDDIR, len) == 0 && exe[len] == '/')
            return xstrdup(NOOSA_SRCDIR);
    }
#else
    (void)exe;
    (void)n;
#endif
    return xstrdup(NOOSA_PKGDATADIR);
}

/* Report a failed evaluation of FILE in the transcript, with the line. */
static void report_file_error(struct interp *in, const char *file)
{
    Tcl_Obj *opts = Tcl_GetReturnOptions(in->tcl, TCL_ERROR);
    Tcl_Obj *key = Tcl_NewStringObj("-errorline", -1), *line = NULL;
    const char *msg = Tcl_GetStringResult(in->tcl);

    Tcl_IncrRefCount(opts);
    Tcl_IncrRefCount(key);
    Tcl_DictObjGet(NULL, opts, key, &line);
    if (line != NULL)
        interp_error(in, "%s:%s: %s", file, Tcl_GetString(line), msg);
    else
        interp_error(in, "%s: %s", file, msg);
    Tcl_DecrRefCount(key);
    Tcl_DecrRefCount(opts);
}

int interp_source(struct interp *in, const char *path)
{
    int rc = Tcl_EvalFile(in->tcl, path);

    if (rc == TCL_ERROR)
        report_file_error(in, path);
    dispatch_flush(in->dispatch);
    return rc;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Source every *.tcl file of DIR, in name order; a missing directory is
 * not an error. */
static void source_dir(struct interp *in, const char *dir)
{
    DIR *d = opendir(dir);
    int library = strcmp(dir, in->libdir != NULL ? in->libdir : "") == 0;
    struct dirent *e;
    char **names = NULL;
    size_t n = 0, i;

    if (d == NULL)
        return;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);

        if (len > 4 && strcmp(e->d_name + len - 4, ".tcl") == 0 &&
            !(library && strcmp(e->d_name, "noosa.tcl") == 0)) {
            names = xreallocarray(names, n + 1, sizeof *names);
            names[n++] = xasprintf("%s/%s", dir, e->d_name);
        }
    }
    closedir(d);
    if (n > 1)
        qsort(names, n, sizeof *names, cmp_names);
    for (i = 0; i < n; i++) {
        interp_source(in, names[i]);
        free(names[i]);
    }
    free(names);
}

void interp_source_dir(struct interp *in, const char *dir)
{
    source_dir(in, dir);
}

/* Source FILE if it exists. */
static void source_if(struct interp *in, const char *file)
{
    struct stat st;

    if (stat(file, &st) == 0 && S_ISREG(st.st_mode))
        interp_script_file(in, file);
}

/* The start-up files: $XDG_CONFIG_HOME/noosa/init.tcl, ~/.noosarc, then
 * ./.noosarc (unless it is the same file).  Their errors are reported but
 * do not count as failed commands: the exit status of batch mode is about
 * the script and the program. */
static void startup_files(struct interp *in)
{
    const char *home = getenv("HOME");
    struct stat st_home, st_here;
    char *path;
    int same = 0, failed = in->noosa->sink.failed;

    path = interp_config_path("init.tcl");
    if (path != NULL)
        source_if(in, path);
    free(path);
    if (home != NULL) {
        path = xasprintf("%s/.noosarc", home);
        source_if(in, path);
        if (stat(path, &st_home) == 0 && stat(".noosarc", &st_here) == 0)
            same = st_home.st_dev == st_here.st_dev &&
                   st_home.st_ino == st_here.st_ino;
        free(path);
    }
    if (!same)
        source_if(in, ".noosarc");
    in->noosa->sink.failed = failed;
}

/* Read the start-up files if they are still to be read. */
static void read_startup(struct interp *in)
{
    if (!in->startup_pending)
        return;
    in->startup_pending = 0;
    startup_files(in);
}

char *interp_config_path(const char *leaf)
{
    const char *home = getenv("HOME"), *xdg = getenv("XDG_CONFIG_HOME");

    if (xdg != NULL && *xdg != '\0')
        return xasprintf("%s/noosa/%s", xdg, leaf);
    if (home != NULL)
        return xasprintf("%s/.config/noosa/%s", home, leaf);
    return NULL;
}

void interp_source_user_dirs(struct interp *in, const char *leaf)
{
    const char *home = getenv("HOME");
    char *path;

    if (home != NULL) {
        path = xasprintf("%s/.noosa/%s", home, leaf);
        interp_source_dir(in, path);
        free(path);
    }
    path = interp_config_path(leaf);
    if (path != NULL)
        interp_source_dir(in, path);
    free(path);
}

int interp_needs_stop(struct interp *in, Tcl_Obj *body)
{
    Tcl_Obj *cmd[2];
    int rc, yes = 1;

    cmd[0] = Tcl_NewStringObj("::noosa::needs_stop", -1);
    cmd[1] = body;
    Tcl_IncrRefCount(cmd[0]);
    Tcl_IncrRefCount(body);
    rc = Tcl_EvalObjv(in->tcl, 2, cmd, TCL_EVAL_GLOBAL);
    if (rc == TCL_OK)
        Tcl_GetBooleanFromObj(NULL, Tcl_GetObjResult(in->tcl), &yes);
    Tcl_DecrRefCount(cmd[0]);
    Tcl_DecrRefCount(body);
    Tcl_ResetResult(in->tcl);
    return yes;
}

Tcl_Obj *interp_value(const struct decode_value *v)
{
    char buf[32];

    switch (v->kind) {
    case DAPTO_K_INT:
        return Tcl_NewIntObj(v->u.i);
    case DAPTO_K_LONG:
        return Tcl_NewWideIntObj((Tcl_WideInt)v->u.l);
    case DAPTO_K_DOUBLE:
        return Tcl_NewDoubleObj(v->u.d);
    case DAPTO_K_PTR:
        /* unsigned decimal: Tcl integers hold it (as a bignum if need be) */
        snprintf(buf, sizeof buf, "%llu", (unsigned long long)v->u.p);
        return Tcl_NewStringObj(buf, -1);
    case DAPTO_K_STR:
        return Tcl_NewStringObj(v->s != NULL ? v->s : "", (int)v->len);
    default:
        return Tcl_NewStringObj("unknown", -1);
    }
}

/* The variables a lambda of an event has after its parameters. */
static const char *const builtin_params[] = {"n_ename", "n_time", "n_thread",
                                             "n_pid"};

int interp_params_match(Tcl_Obj *params, const struct registry_event *e)
{
    Tcl_Obj **v;
    int n;
    unsigned int i, nb = sizeof builtin_params / sizeof builtin_params[0];

    /* (no allocation: this runs at every event a lambda is applied to) */
    if (params == NULL ||
        Tcl_ListObjGetElements(NULL, params, &n, &v) != TCL_OK ||
        (unsigned int)n != e->nparams + nb)
        return 0;
    for (i = 0; i < e->nparams; i++)
        if (strcmp(Tcl_GetString(v[i]), e->params[i].name) != 0)
            return 0;
    for (i = 0; i < nb; i++)
        if (strcmp(Tcl_GetString(v[e->nparams + i]), builtin_params[i]) != 0)
            return 0;
    return 1;
}

Tcl_Obj *interp_params(const struct registry_event *e)
{
    Tcl_Obj *l = Tcl_NewListObj(0, NULL);
    unsigned int i;

    for (i = 0; i < e->nparams; i++)
        Tcl_ListObjAppendElement(NULL, l,
                                 Tcl_NewStringObj(e->params[i].name, -1));
    for (i = 0; i < sizeof builtin_params / sizeof builtin_params[0]; i++)
        Tcl_ListObjAppendElement(NULL, l,
                                 Tcl_NewStringObj(builtin_params[i], -1));
    return l;
}

/* The arguments for the event being delivered, made once an event. */
static Tcl_Obj *event_args(struct interp *in, const struct reader_item *item)
{
    const struct registry_event *e = item->event;
    Tcl_Obj *l;
    unsigned int i;
    pid_t pid;

    if (in->args != NULL && in->args_seq == in->noosa->item_seq)
        return in->args;
    l = Tcl_NewListObj(0, NULL);
    for (i = 0; i < e->nparams; i++) {
        if (i < item->nvalues)
            Tcl_ListObjAppendElement(NULL, l, interp_value(&item->values[i]));
        else
            Tcl_ListObjAppendElement(NULL, l, Tcl_NewObj());
    }
    Tcl_ListObjAppendElement(NULL, l, Tcl_NewStringObj(e->name, -1));
    Tcl_ListObjAppendElement(NULL, l, Tcl_NewWideIntObj(item->ns));
    Tcl_ListObjAppendElement(NULL, l, Tcl_NewIntObj((int)item->tid));
    /* (the session's current process is the item's <design#processes>;
     * one object a process, shared by its events) */
    pid = session_pid(in->session);
    if (in->pid_obj == NULL || pid != in->pid_of_obj) {
        if (in->pid_obj != NULL)
            Tcl_DecrRefCount(in->pid_obj);
        in->pid_obj = Tcl_NewIntObj((int)pid);
        Tcl_IncrRefCount(in->pid_obj);
        in->pid_of_obj = pid;
    }
    Tcl_ListObjAppendElement(NULL, l, in->pid_obj);
    if (in->args != NULL)
        Tcl_DecrRefCount(in->args);
    in->args = l;
    Tcl_IncrRefCount(l);
    in->args_seq = in->noosa->item_seq;
    return l;
}

int interp_apply(struct interp *in, Tcl_Obj *lambda,
                 const struct reader_item *item)
{
    Tcl_Obj *args = event_args(in, item), **argv, *objv[64], **v = objv;
    int argc, rc, i;

    Tcl_ListObjGetElements(NULL, args, &argc, &argv);
    if (argc + 2 > (int)(sizeof objv / sizeof objv[0]))
        v = xreallocarray(NULL, (size_t)argc + 2, sizeof *v);
    v[0] = in->apply;
    v[1] = lambda;
    for (i = 0; i < argc; i++)
        v[i + 2] = argv[i];
    /* argv belongs to the list, which stays alive: no reference games */
    Tcl_IncrRefCount(lambda);
    rc = Tcl_EvalObjv(in->tcl, argc + 2, v, TCL_EVAL_GLOBAL);
    Tcl_DecrRefCount(lambda);
    if (v != objv)
        free(v);
    return rc;
}

int interp_run_for(struct interp *in, const char *what, const char *name,
                   Tcl_Obj *lambda, struct dispatch_event *de)
{
    int rc;

    in->break_called = 0;
    in->running_handler = name;
    rc = interp_apply(in, lambda, de->item);
    in->running_handler = NULL;
    if (rc == TCL_ERROR) {
        interp_error(in, "in %s \"%s\" for event \"%s\": %s", what, name,
                     de->event->name, Tcl_GetStringResult(in->tcl));
    } else if (rc != TCL_OK && rc != TCL_BREAK && rc != TCL_CONTINUE) {
        /* return -code 99 means nothing here: say so, as for an error */
        interp_error(in, "in %s \"%s\" for event \"%s\": it returned code "
                     "%d; a %s returns normally, with an error, or with "
                     "-code break to skip the event's other %ss", what, name,
                     de->event->name, rc, what, what);
        rc = TCL_ERROR;
    }
    if (rc != TCL_ERROR && in->break_called && !de->stop)
        dispatch_stop(de, xasprintf("%s \"%s\" for event \"%s\"", what,
                                    name, de->event->name));
    in->break_called = 0;
    Tcl_ResetResult(in->tcl);
    /* as a script bound to an event in Tk: break skips the rest of the
     * event's code, continue ends this code only */
    return rc == TCL_CONTINUE ? TCL_OK : rc;
}

/* {NAME DOC NAME DOC ...} for N parameters, as in the .db files. */
static Tcl_Obj *param_docs(const struct registry_param *p, unsigned int n)
{
    Tcl_Obj *l = Tcl_NewListObj(0, NULL);
    unsigned int i;

    for (i = 0; i < n; i++) {
        Tcl_ListObjAppendElement(NULL, l, Tcl_NewStringObj(p[i].name, -1));
        Tcl_ListObjAppendElement(NULL, l, Tcl_NewStringObj(p[i].doc, -1));
    }
    return l;
}

/* Rebuild n(aspects), n(events) and n(operations) from the registry, in
 * the .db files' format. */
static void update_interface(struct interp *in)
{
    struct registry *reg = session_registry(in->session);
    Tcl_Obj *aspects = Tcl_NewListObj(0, NULL);
    Tcl_Obj *events = Tcl_NewListObj(0, NULL);
    Tcl_Obj *ops = Tcl_NewListObj(0, NULL);
    unsigned int i, j;

    for (i = 0; reg != NULL && i < registry_naspects(reg); i++) {
        struct registry_aspect *a = registry_aspect_at(reg, i);

        Tcl_ListObjAppendElement(NULL, aspects, Tcl_NewStringObj(a->name, -1));
        for (j = 0; j < a->nevents; j++) {
            const struct registry_event *e = &a->events[j];
            Tcl_Obj *params = param_docs(e->params, e->nparams), *ev[4];

            ev[0] = Tcl_NewStringObj(e->name, -1);
            ev[1] = Tcl_NewStringObj(e->doc, -1);
            ev[2] = params;
            ev[3] = Tcl_NewIntObj(e->visible);
            Tcl_ListObjAppendElement(NULL, events, Tcl_NewListObj(4, ev));
        }
        for (j = 0; j < a->nops; j++) {
            const struct registry_op *o = &a->ops[j];
            Tcl_Obj *params = param_docs(o->params, o->nparams), *op[4];

            op[0] = Tcl_NewStringObj(o->name, -1);
            op[1] = Tcl_NewStringObj(o->doc, -1);
            op[2] = params;
            op[3] = Tcl_NewStringObj(o->result_type, -1);
            Tcl_ListObjAppendElement(NULL, ops, Tcl_NewListObj(4, op));
        }
    }
    Tcl_SetVar2Ex(in->tcl, "n", "aspects", aspects, TCL_GLOBAL_ONLY);
    Tcl_SetVar2Ex(in->tcl, "n", "events", events, TCL_GLOBAL_ONLY);
    Tcl_SetVar2Ex(in->tcl, "n", "operations", ops, TCL_GLOBAL_ONLY);
}

void interp_update_status(struct interp *in)
{
    const char *status = "dead";
    const char *where = "";

    switch (session_state(in->session)) {
    case SESSION_IDLE:
        break;
    case SESSION_RUNNING:
        status = "running";
        break;
    case SESSION_STOPPED:
        status = "stopped";
        where = in->noosa->where != NULL ? in->noosa->where : "";
        break;
    }
    Tcl_SetVar2(in->tcl, "n", "status", status, TCL_GLOBAL_ONLY);
    Tcl_SetVar2Ex(in->tcl, "n", "pid", Tcl_NewIntObj(session_pid(in->session)),
                  TCL_GLOBAL_ONLY);
    Tcl_SetVar2(in->tcl, "n", "where", where, TCL_GLOBAL_ONLY);
    /* <design#replay>: the number of the event a replay stands at */
    if (session_replaying(in->session) &&
        session_state(in->session) == SESSION_STOPPED)
        Tcl_SetVar2Ex(in->tcl, "n", "event",
                      Tcl_NewWideIntObj(
                          (Tcl_WideInt)noosa_event_at(in->noosa)),
                      TCL_GLOBAL_ONLY);
    else
        Tcl_SetVar2(in->tcl, "n", "event", "", TCL_GLOBAL_ONLY);
}

/* n(processes), made when it is read: the pids of the run's processes,
 * oldest first <design#processes>. */
static char *processes_read(ClientData cd, Tcl_Interp *tcl,
                            const char *name1, const char *name2, int flags)
{
    struct interp *in = cd;
    const struct session_process *p;
    Tcl_Obj *l = Tcl_NewListObj(0, NULL);

    (void)name1;
    (void)name2;
    (void)flags;
    for (unsigned int i = 0;
         (p = session_process(in->session, i)) != NULL; i++)
        Tcl_ListObjAppendElement(NULL, l, Tcl_NewIntObj((int)p->pid));
    Tcl_SetVar2Ex(tcl, "n", "processes", l, TCL_GLOBAL_ONLY);
    return NULL;
}

/* Set the global array ev to the parameters of the event ITEM the program
 * stopped at (and n_ename, n_time, n_thread, n_pid), or clear it (ITEM
 * NULL). */
static void set_ev(struct interp *in, const struct reader_item *item)
{
    Tcl_Obj *args, **v, *names, **n;
    int nv, nn, i;

    Tcl_UnsetVar(in->tcl, "ev", TCL_GLOBAL_ONLY);
    if (item == NULL)
        return;
    args = event_args(in, item);
    names = interp_params(item->event);
    Tcl_IncrRefCount(names);
    Tcl_ListObjGetElements(NULL, args, &nv, &v);
    Tcl_ListObjGetElements(NULL, names, &nn, &n);
    for (i = 0; i < nv && i < nn; i++)
        Tcl_SetVar2Ex(in->tcl, "ev", Tcl_GetString(n[i]), v[i],
                      TCL_GLOBAL_ONLY);
    Tcl_DecrRefCount(names);
}

/* The root's client hooks (noosa.h). */

void interp_interface_changed(struct interp *in)
{
    update_interface(in);
}

static void on_interface(void *arg)
{
    update_interface(arg);
}

static void on_stopped_at(void *arg, const struct reader_item *item)
{
    set_ev(arg, item);
}

/* Whether TYPE has a browser of its own in Tcl (n_TYPE_say or
 * n_TYPE_open): Eli's convention, which comes first. */
static int tcl_browser(struct interp *in, const char *type)
{
    Tcl_CmdInfo info;
    char *say = xasprintf("n_%s_say", type), *open = xasprintf("n_%s_open",
                                                                  type);
    int yes = Tcl_GetCommandInfo(in->tcl, say, &info) ||
              Tcl_GetCommandInfo(in->tcl, open, &info);

    free(say);
    free(open);
    return yes;
}

/* A value of the program's own type, through its browser's n_TYPE_say
 * (n_say_val), so that it is browsable; without one, as the C value the
 * debug information makes of it (a ptr<T> parameter, or a user type that
 * names a typedef), browsable with no Tcl written <design#debug-browse>. */
static int on_say_value(void *arg, const struct registry_param *p,
                        const struct decode_value *v)
{
    struct interp *in = arg;

    if (!(p->kind == DAPTO_K_USER && tcl_browser(in, p->type))) {
        struct cvalue *cv = debug_param(in->noosa->debug, p->name);

        if (cv != NULL) {
            struct cprint_opts o;
            char *text, *shown;

            cprint_defaults(&o);
            text = cprint_value(cv, &o);
            shown = p->kind == DAPTO_K_USER
                        ? xasprintf("%s:%s", p->type, text)
                        : xstrdup(text);
            cbrowse_say(in->cbrowse, cv, p->name, shown);
            free(shown);
            free(text);
            cvalue_free(cv);
            return 1;
        }
        if (p->kind != DAPTO_K_USER) {
            char *text = value_text(v);

            interp_say(in, text);
            free(text);
            return 1;
        }
    }
    return interp_say_val(in, p->type, v);
}

int interp_say_val(struct interp *in, const char *type,
                   const struct decode_value *v)
{
    Tcl_Obj *cmd[3];
    int ok;

    cmd[0] = Tcl_NewStringObj("n_say_val", -1);
    cmd[1] = Tcl_NewStringObj(type, -1);
    cmd[2] = interp_value(v);
    for (int k = 0; k < 3; k++)
        Tcl_IncrRefCount(cmd[k]);
    ok = Tcl_EvalObjv(in->tcl, 3, cmd, TCL_EVAL_GLOBAL) == TCL_OK;
    for (int k = 0; k < 3; k++)
        Tcl_DecrRefCount(cmd[k]);
    Tcl_ResetResult(in->tcl);
    return ok;
}

static void on_status(void *arg)
{
    struct interp *in = arg;

    /* a new run: the program detached before is not this one */
    if (session_state(in->session) != SESSION_IDLE)
        in->detached = 0;
    interp_update_status(in);
    vars_status(in->vars);
    /* the displays, once a stop <design#debug-display> */
    if (session_state(in->session) == SESSION_STOPPED &&
        debug_stopped(in->noosa->debug) &&
        debug_serial(in->noosa->debug) != in->display_serial) {
        in->display_serial = debug_serial(in->noosa->debug);
        display_stopped(in);
    }
}

int interp_confirm(struct interp *in, const char *question,
                   const char *script)
{
    if (!in->typed || in->confirm == NULL)
        return 0;
    in->confirm(in->confirm_arg, question, script);
    return 1;
}

void interp_idle_state(struct interp *in, char *buf, size_t size)
{
    if (in->detached <= 0)
        snprintf(buf, size, "not running");
    else if (kill(in->detached, 0) == 0 || errno == EPERM)
        snprintf(buf, size, "detached: process %d goes on unmonitored",
                 (int)in->detached);
    else
        snprintf(buf, size, "detached: process %d has ended since",
                 (int)in->detached);
}

static int browsable(const char *type, void *arg)
{
    struct interp *in = arg;
    Tcl_CmdInfo info;
    char name[160];

    snprintf(name, sizeof name, "n_%s_open", type);
    return Tcl_GetCommandInfo(in->tcl, name, &info);
}

struct registry *interp_interface(struct interp *in)
{
    struct registry *reg = session_registry(in->session);

    return reg != NULL && registry_naspects(reg) > 0 ? reg : NULL;
}

const struct registry_event *interp_event(struct interp *in, const char *name)
{
    struct registry *reg = session_registry(in->session);
    const struct registry_event *e;

    if (reg == NULL) {
        Tcl_SetObjResult(in->tcl,
                         Tcl_ObjPrintf("no event \"%s\": the program's "
                                       "interface is not known",
                                       name));
        return NULL;
    }
    e = registry_event_by_name(reg, name);
    if (e == NULL)
        Tcl_SetObjResult(in->tcl,
                         Tcl_ObjPrintf("no event \"%s\" in the program's "
                                       "interface (see \"info events\")",
                                       name));
    return e;
}

int interp_pid(struct interp *in, const char *what, Tcl_Obj *obj,
               pid_t *pid)
{
    int v;

    if (Tcl_GetIntFromObj(NULL, obj, &v) != TCL_OK || v <= 0) {
        Tcl_SetObjResult(in->tcl, Tcl_ObjPrintf(
            "%s: -pid wants a process id, got \"%s\"", what,
            Tcl_GetString(obj)));
        return TCL_ERROR;
    }
    if (!session_monitored(in->session, (pid_t)v)) {
        Tcl_SetObjResult(in->tcl, Tcl_ObjPrintf(
            "%s: process %d is not monitored now (\"info processes\" "
            "lists the processes of the run)", what, v));
        return TCL_ERROR;
    }
    *pid = (pid_t)v;
    return TCL_OK;
}

struct interp *interp_create(struct noosa *n, const struct noosa_opts *opts,
                             void (*commands)(struct interp *in),
                             char **cause)
{
    struct interp *in = xcalloc(1, sizeof *in);
    struct noosa_client client;
    char *path;
    size_t i;

    in->noosa = n;
    in->loop = n->loop;
    in->session = n->session;
    in->dispatch = n->dispatch;
    in->transcript = n->transcript;
    in->stacks = n->stacks;
    in->profile = n->profile;
    in->questions = n->questions;
    in->relations = n->relations;
    in->faults = n->faults;
    in->batch = n->batch;
    in->tcl = Tcl_CreateInterp();
    if (Tcl_Init(in->tcl) != TCL_OK) {
        xcause(cause, "cannot initialise Tcl: %s",
               Tcl_GetStringResult(in->tcl));
        goto fail;
    }
    in->apply = Tcl_NewStringObj("apply", -1);
    Tcl_IncrRefCount(in->apply);
    transcript_set_browsable(in->transcript, browsable, in);

    in->handlers = handlers_create(in);
    in->breaks = breaks_create(in);
    in->monitors = monitors_create(in);
    monitors_builtin(in->monitors, profile_consumer(in->profile, PROFILE_FREQ),
                     "counts each visible event under each component stack, "
                     "and the calls (profile freq)");
    monitors_builtin(in->monitors, profile_consumer(in->profile, PROFILE_TIME),
                     "self and total time and calls per component stack and "
                     "thread (profile time)");
    in->trace = trace_create(in);
    in->speed = speed_create(in);
    in->vars = vars_create(in);

    memset(&client, 0, sizeof client);
    client.interface = on_interface;
    client.stopped_at = on_stopped_at;
    client.say_value = on_say_value;
    client.status = on_status;
    client.arg = in;
    noosa_set_client(n, &client);

    Tcl_SetVar2(in->tcl, "n", "processes", "", TCL_GLOBAL_ONLY);
    Tcl_TraceVar2(in->tcl, "n", "processes", TCL_GLOBAL_ONLY | TCL_TRACE_READS,
                  processes_read, in);
    Tcl_SetVar2(in->tcl, "n", "aspects", "", TCL_GLOBAL_ONLY);
    Tcl_SetVar2(in->tcl, "n", "events", "", TCL_GLOBAL_ONLY);
    Tcl_SetVar2(in->tcl, "n", "operations", "", TCL_GLOBAL_ONLY);
    Tcl_SetVar2(in->tcl, "n", "batch", in->batch ? "1" : "0",
                TCL_GLOBAL_ONLY);
    interp_update_status(in);

    command_init(in);
    cmd_run_init(in);
    cmd_send_init(in);
    cmd_info_init(in);
    cmd_transcript_init(in);
    handlers_init_commands(in->handlers);
    breaks_init_commands(in->breaks);
    cmd_profile_init(in);
    cmd_question_init(in);
    cmd_derive_init(in);
    cmd_probe_init(in);
    cmd_fault_init(in);
    cmd_record_init(in);
    cmd_data_init(in);
    cmd_frame_init(in);
    if (commands != NULL)
        commands(in);
    trace_init_commands(in->trace);
    monitors_init_commands(in->monitors);
    speed_init_commands(in->speed);
    cmd_gdb_init(in);

    in->datadir = find_datadir();
    in->libdir = xasprintf("%s/tcl", in->datadir);
    Tcl_SetVar2(in->tcl, "n", "library", in->datadir, TCL_GLOBAL_ONLY);
    /* noosa.tcl first; the other files of the library (one per part of
     * the command set) after it */
    path = xasprintf("%s/noosa.tcl", in->libdir);
    if (Tcl_EvalFile(in->tcl, path) != TCL_OK) {
        xcause(cause, "cannot load %s: %s", path,
               Tcl_GetStringResult(in->tcl));
        free(path);
        goto fail;
    }
    free(path);
    source_dir(in, in->libdir);

    path = xasprintf("%s/browsers", in->datadir);
    source_dir(in, path);
    free(path);
    if (!opts->no_init)
        interp_source_user_dirs(in, "browsers");
    /* hints for known providers' probes <design#probes>, then the user's */
    path = xasprintf("%s/probes", in->datadir);
    source_dir(in, path);
    free(path);
    if (!opts->no_init)
        interp_source_user_dirs(in, "probes");
    for (i = 0; opts->browser_dirs != NULL && opts->browser_dirs[i] != NULL;
         i++)
        source_dir(in, opts->browser_dirs[i]);
    monitors_load_library(in->monitors, opts->no_init);
    /* read when the program's interface is known (or before the first
     * command without a program), so that n_provided and event names work
     * in them as in Noosa */
    in->startup_pending = !opts->no_init;
    return in;

fail:
    interp_free(in);
    return NULL;
}

void interp_free(struct interp *in)
{
    struct noosa_client none;

    if (in == NULL)
        return;
    /* a recording left going is closed while its session can still say
     * how the program ended (and the session is not freed under it) */
    cmd_record_end(in);
    /* the program dies with its session, while the consumers the Tcl
     * layer added can still hear of it */
    noosa_end(in->noosa);
    memset(&none, 0, sizeof none);
    noosa_set_client(in->noosa, &none);
    transcript_set_browsable(in->transcript, NULL, NULL);
    handlers_free(in->handlers);
    breaks_free(in->breaks);
    trace_free(in->trace);
    speed_free(in->speed);
    monitors_free(in->monitors);
    vars_free(in->vars);
    cmd_data_free(in);
    if (in->args != NULL)
        Tcl_DecrRefCount(in->args);
    if (in->pid_obj != NULL)
        Tcl_DecrRefCount(in->pid_obj);
    if (in->apply != NULL)
        Tcl_DecrRefCount(in->apply);
    if (in->tcl != NULL)
        Tcl_DeleteInterp(in->tcl);
    command_free(in);
    free(in->libdir);
    free(in->datadir);
    free(in);
}

/* Line number of byte OFF of SCRIPT, counting from FIRST. */
static int line_at(const char *script, size_t off, int first)
{
    size_t i;

    for (i = 0; i < off; i++) {
        if (script[i] == '\n')
            first++;
    }
    return first;
}

/* Whether some event of the program's interface has a parameter NAME
 * (LEN bytes). */
static int some_param(struct interp *in, const char *name, int len)
{
    struct registry *reg = session_registry(in->session);
    unsigned int i, j, k;

    for (i = 0; reg != NULL && i < registry_naspects(reg); i++) {
        struct registry_aspect *a = registry_aspect_at(reg, i);

        for (j = 0; j < a->nevents; j++) {
            for (k = 0; k < a->events[j].nparams; k++) {
                if ((int)strlen(a->events[j].params[k].name) == len &&
                    memcmp(a->events[j].params[k].name, name,
                           (size_t)len) == 0)
                    return 1;
            }
        }
    }
    return 0;
}

/* Whether the global variable NAME exists (an array too). */
static int var_exists(struct interp *in, const char *name)
{
    Tcl_Obj *cmd[3];
    int yes = 0, i;

    cmd[0] = Tcl_NewStringObj("::info", -1);
    cmd[1] = Tcl_NewStringObj("exists", -1);
    cmd[2] = Tcl_ObjPrintf("::%s", name);
    for (i = 0; i < 3; i++)
        Tcl_IncrRefCount(cmd[i]);
    if (Tcl_EvalObjv(in->tcl, 3, cmd, TCL_EVAL_GLOBAL) != TCL_OK ||
        Tcl_GetBooleanFromObj(NULL, Tcl_GetObjResult(in->tcl), &yes) !=
            TCL_OK)
        yes = 0;
    for (i = 0; i < 3; i++)
        Tcl_DecrRefCount(cmd[i]);
    Tcl_ResetResult(in->tcl);
    return yes;
}

/* For a command whose entry takes a condition after "if" or "-if"
 * (COMMAND_CONDITION), typed at the top level as PARSE: refuse a
 * condition left unbraced whose variables Tcl would substitute as the
 * command is read (break e if $count > 3) where that cannot be meant:
 * the variable does not exist, or an event has a parameter of that name.
 * (One that exists and names no parameter holds the condition, as in
 * break e if $cond.)  TCL_ERROR with the braced command to type. */
static int check_braced(struct interp *in, const Tcl_Parse *parse)
{
    static const char *const ends[] = {"every", "after", "count", "-pid",
                                       "-stop", "-nostop", "-within",
                                       "-outside", NULL};
    const Tcl_Token *t = parse->tokenPtr, *w, *first = NULL, *last = NULL;
    const char *bad = NULL, *end;
    int i, j, in_cond = 0, badlen = 0, quoted;
    Tcl_Obj *msg;

    for (i = 0; i < parse->numWords; i++, t += 1 + t->numComponents) {
        w = t + 1;
        if (t->type == TCL_TOKEN_SIMPLE_WORD) {
            const char *const *e;

            if ((w->size == 2 && memcmp(w->start, "if", 2) == 0) ||
                (w->size == 3 && memcmp(w->start, "-if", 3) == 0)) {
                in_cond = 1;
                continue;
            }
            for (e = ends; in_cond && *e != NULL; e++) {
                if ((int)strlen(*e) == w->size &&
                    memcmp(*e, w->start, (size_t)w->size) == 0)
                    in_cond = 0;
            }
        }
        if (!in_cond)
            continue;
        if (first == NULL)
            first = t;
        last = t;
        for (j = 0; bad == NULL && j < t->numComponents; j++) {
            const Tcl_Token *v = &w[j], *n = v + 1;
            Tcl_DString name;

            if (v->type != TCL_TOKEN_VARIABLE || n->type != TCL_TOKEN_TEXT ||
                memchr(n->start, ':', (size_t)n->size) != NULL)
                continue;
            Tcl_DStringInit(&name);
            Tcl_DStringAppend(&name, n->start, n->size);
            if (!var_exists(in, Tcl_DStringValue(&name)) ||
                some_param(in, n->start, n->size)) {
                bad = n->start;
                badlen = n->size;
            }
            Tcl_DStringFree(&name);
        }
    }
    if (bad == NULL)
        return TCL_OK;
    end = parse->commandStart + parse->commandSize;
    while (end > last->start + last->size &&
           strchr(" \t\n\r;", end[-1]) != NULL)
        end--;
    /* "$n > 1" in quotes: its text braced */
    quoted = first == last && first->start[0] == '"' && first->size >= 2;
    msg = Tcl_ObjPrintf("%.*s: brace the condition, as in: %.*s{%.*s}%.*s "
                        "(without braces Tcl substitutes $%.*s as the "
                        "command is read, not at each event)",
                        parse->tokenPtr[1].size, parse->tokenPtr[1].start,
                        (int)(first->start - parse->commandStart),
                        parse->commandStart,
                        (int)(last->start + last->size - first->start) -
                            2 * quoted,
                        first->start + quoted,
                        (int)(end - (last->start + last->size)),
                        last->start + last->size, badlen, bad);
    Tcl_SetObjResult(in->tcl, msg);
    return TCL_ERROR;
}

/* Evaluate one command (TEXT, LEN bytes) whose first word is WORD (or
 * NULL when it is not a plain word). */
static int eval_command(struct interp *in, const char *text, int len,
                        const char *word)
{
    int rc;

    /* debugger commands whose names Tcl already has are noosa's at the
     * top level of what the user types (or of a script of commands) */
    if (word != NULL && command_toplevel(in, word)) {
        Tcl_Obj *cmd = Tcl_ObjPrintf("::noosa::cmd::%.*s", len, text);

        Tcl_IncrRefCount(cmd);
        rc = Tcl_EvalObjEx(in->tcl, cmd, TCL_EVAL_GLOBAL);
        Tcl_DecrRefCount(cmd);
        return rc;
    }
    return Tcl_EvalEx(in->tcl, text, len, TCL_EVAL_GLOBAL);
}

/* A command at P that takes the rest of its line as typed (COMMAND_RAW:
 * print a[i], print/x *p): evaluated, with *NEXT after its line; 0 when
 * the line is not one (Tcl reads it). */
static int eval_raw(struct interp *in, const char *p, const char *end,
                    const char **next, int *rc)
{
    const struct command *c;
    const char *w = p, *q, *line_end, *fmt = NULL;
    size_t wlen, flen = 0;
    Tcl_Obj *objv[3];
    int objc = 0, k;

    while (w < end && (*w == ' ' || *w == '\t'))
        w++;
    q = w;
    while (q < end && ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') ||
                       (*q >= '0' && *q <= '9') || *q == '_'))
        q++;
    wlen = (size_t)(q - w);
    if (wlen == 0 || (c = command_raw(in, w, wlen)) == NULL)
        return 0;
    if (q < end && *q == '/') {
        fmt = q;
        while (q < end && *q != ' ' && *q != '\t' && *q != '\n')
            q++;
        flen = (size_t)(q - fmt);
    }
    if (q < end && *q != ' ' && *q != '\t' && *q != '\n')
        return 0;
    line_end = memchr(q, '\n', (size_t)(end - q));
    if (line_end == NULL)
        line_end = end;
    *next = line_end < end ? line_end + 1 : end;
    while (q < line_end && (*q == ' ' || *q == '\t'))
        q++;
    {
        const char *e = line_end;

        while (e > q && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' ||
                         e[-1] == ';'))
            e--;
        objv[objc++] = Tcl_ObjPrintf("::noosa::cmd::%s", c->name);
        if (fmt != NULL)
            objv[objc++] = Tcl_NewStringObj(fmt, (int)flen);
        if (e > q)
            objv[objc++] = Tcl_NewStringObj(q, (int)(e - q));
    }
    for (k = 0; k < objc; k++)
        Tcl_IncrRefCount(objv[k]);
    *rc = Tcl_EvalObjv(in->tcl, objc, objv, TCL_EVAL_GLOBAL);
    for (k = 0; k < objc; k++)
        Tcl_DecrRefCount(objv[k]);
    return 1;
}

/* The outcome RC of the command at START: an error said (with FILE:LINE),
 * a result shown; returns 1 for an error. */
static int command_done(struct interp *in, int rc, const char *script,
                        const char *start, const char *file, int first_line)
{
    int failed = 0;

    if (rc == TCL_ERROR) {
        int line = line_at(script, (size_t)(start - script), first_line);

        if (file != NULL)
            interp_error(in, "%s:%d: %s", file, line,
                         Tcl_GetStringResult(in->tcl));
        else
            interp_error(in, "%s", Tcl_GetStringResult(in->tcl));
        failed = 1;
    } else if (rc == TCL_OK && *Tcl_GetStringResult(in->tcl) != '\0') {
        sink_fresh_line(&in->noosa->sink);
        interp_sayf(in, "%s\n", Tcl_GetStringResult(in->tcl));
    }
    Tcl_ResetResult(in->tcl);
    dispatch_flush(in->dispatch);
    return failed;
}

int interp_script(struct interp *in, const char *script, const char *file,
                  int first_line)
{
    const char *p = script, *end = script + strlen(script);
    int errors = 0;

    read_startup(in);

    while (p < end && !in->noosa->quit) {
        Tcl_Parse parse;
        char word[32];
        const char *w = NULL, *next;
        int rc;

        while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' ||
                           *p == ';'))
            p++;
        if (p < end && eval_raw(in, p, end, &next, &rc)) {
            errors += command_done(in, rc, script, p, file, first_line);
            p = next;
            continue;
        }
        if (Tcl_ParseCommand(in->tcl, p, (int)(end - p), 0, &parse) !=
            TCL_OK) {
            int line = line_at(script, (size_t)(parse.commandStart != NULL
                                                     ? parse.commandStart -
                                                           script
                                                     : p - script),
                               first_line);

            if (file != NULL)
                interp_error(in, "%s:%d: %s", file, line,
                             Tcl_GetStringResult(in->tcl));
            else
                interp_error(in, "%s", Tcl_GetStringResult(in->tcl));
            Tcl_ResetResult(in->tcl);
            errors++;
            break; /* no way to tell where the next command starts */
        }
        if (parse.numWords > 0 &&
            parse.tokenPtr[0].type == TCL_TOKEN_SIMPLE_WORD &&
            parse.tokenPtr[1].size < (int)sizeof word) {
            memcpy(word, parse.tokenPtr[1].start,
                   (size_t)parse.tokenPtr[1].size);
            word[parse.tokenPtr[1].size] = '\0';
            w = word;
        }
        if (parse.numWords > 0) {
            const struct command *c = w != NULL ? command_find(in, w) : NULL;

            if (c != NULL && (c->flags & COMMAND_CONDITION))
                rc = check_braced(in, &parse);
            else
                rc = TCL_OK;
            if (rc == TCL_OK)
                rc = eval_command(in, parse.commandStart, parse.commandSize,
                                  w);
            errors += command_done(in, rc, script, parse.commandStart, file,
                                   first_line);
        }
        p = parse.commandStart + parse.commandSize;
        Tcl_FreeParse(&parse);
    }
    in->noosa->sink.failed += errors;
    return errors;
}

int interp_script_file(struct interp *in, const char *path)
{
    Tcl_Channel ch = Tcl_OpenFileChannel(in->tcl, path, "r", 0);
    Tcl_Obj *text;
    int errors;

    if (ch == NULL) {
        interp_error(in, "%s: %s", path, Tcl_PosixError(in->tcl));
        Tcl_ResetResult(in->tcl);
        in->noosa->sink.failed++;
        return 1;
    }
    text = Tcl_NewObj();
    Tcl_IncrRefCount(text);
    Tcl_ReadChars(ch, text, -1, 0);
    Tcl_Close(in->tcl, ch);
    errors = interp_script(in, Tcl_GetString(text), path, 1);
    Tcl_DecrRefCount(text);
    return errors;
}

int interp_attach(struct interp *in, pid_t pid, char **cause)
{
    if (noosa_attach(in->noosa, pid, cause) != 0)
        return -1;
    read_startup(in);
    return 0;
}

int interp_load(struct interp *in, char *const *argv, char **cause)
{
    if (noosa_load(in->noosa, argv, cause) != 0)
        return -1;
    read_startup(in);
    return 0;
}
