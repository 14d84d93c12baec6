/* SPDX-License-Identifier: MIT */
/*
 * dap-start.c - the program's life for the client (see dap.h)
 * <design#dap>: initialize and the capabilities, launch (a program or a
 * recording) and attach, configurationDone (the run starts), restart,
 * terminate and disconnect, and letting the program go at the end.
 *
 * A launch or an attach makes the root and the Tcl layer with the
 * options it names (browsers, start-up files), learns the program's
 * interface, reads the lines that emit events, loads the handler files
 * and runs the start-up commands, and only then is answered, followed by
 * initialized: the client's breakpoints come once the events are known.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dap.h"
#include "interp.h"
#include "noosa.h"
#include "screen.h"
#include "transcript.h"
#include "xmalloc.h"

/* Run SCRIPT, noosa commands as typed, for a part of the start (the
 * user's start-up commands): what it says goes to the client's console,
 * an error's as important. */
static int startup_command(struct dap *d, const char *script)
{
    char *out = NULL;
    int rc = dap_script(d, script, &out);

    dap_output(d, rc == TCL_OK ? "console" : "important", out, strlen(out));
    free(out);
    return rc;
}

/* A member that may be a string or an array of strings: a new
 * NULL-ended array of its strings (pointing into ARGS), or NULL with
 * *bad set when it is neither. */
static const char **strings(json_t *args, const char *key, int *bad)
{
    json_t *v = json_object_get(args, key), *e;
    const char **out;
    size_t i;

    if (v == NULL || json_is_null(v))
        return NULL;
    if (json_is_string(v)) {
        out = xcalloc(2, sizeof *out);
        out[0] = json_string_value(v);
        return out;
    }
    if (!json_is_array(v)) {
        *bad = 1;
        return NULL;
    }
    out = xcalloc(json_array_size(v) + 1, sizeof *out);
    json_array_foreach(v, i, e) {
        if (!json_is_string(e)) {
            free(out);
            *bad = 1;
            return NULL;
        }
        out[i] = json_string_value(e);
    }
    return out;
}

/* Forget the program and the Tcl layer (a launch that failed). */
static void drop_program(struct dap *d)
{
    if (d->in != NULL)
        interp_free(d->in);
    noosa_free(d->noosa);
    d->in = NULL;
    d->noosa = NULL;
    d->kind = DAP_NONE;
}

/* The parts of launch and attach before the program: the options noosa
 * is made with (browsers, start-up files), the root and the Tcl layer.
 * -1 with *cause. */
static int make_noosa(struct dap *d, json_t *args, char **cause)
{
    int bad = 0;
    const char **dirs = strings(args, "browsers", &bad);
    size_t n = 0, k;

    if (bad) {
        xcause(cause, "\"browsers\" must be a folder or a list of folders");
        return -1;
    }
    for (k = 0; d->main_browsers != NULL && d->main_browsers[k]; k++)
        n++;
    for (k = 0; dirs != NULL && dirs[k] != NULL; k++)
        n++;
    free(d->browser_dirs);
    d->browser_dirs = xcalloc(n + 1, sizeof *d->browser_dirs);
    n = 0;
    for (k = 0; d->main_browsers != NULL && d->main_browsers[k]; k++)
        d->browser_dirs[n++] = d->main_browsers[k];
    for (k = 0; dirs != NULL && dirs[k] != NULL; k++)
        d->browser_dirs[n++] = (char *)dirs[k];
    free(dirs);
    d->opts.browser_dirs = d->browser_dirs;
    d->opts.no_init = dap_arg_bool(args, "noInit", d->opts.no_init);
    d->opts.batch = 0;
    d->noosa = noosa_create(d->loop, &d->opts);
    d->in = interp_create(d->noosa, &d->opts, screen_cmd_register, cause);
    if (d->in == NULL) {
        noosa_free(d->noosa);
        d->noosa = NULL;
        return -1;
    }
    d->tr_line = transcript_first(d->in->transcript);
    d->tr_col = 0;
    return 0;
}

/* PROGRAM as a path to read: itself when it has a slash, else the
 * first executable of that name on PATH; the caller frees it. */
static char *program_path(const char *program)
{
    const char *path = getenv("PATH"), *p, *e;

    if (strchr(program, '/') != NULL || path == NULL)
        return xstrdup(program);
    for (p = path; *p != '\0'; p = *e != '\0' ? e + 1 : e) {
        char *full;

        e = strchr(p, ':');
        if (e == NULL)
            e = p + strlen(p);
        full = xasprintf("%.*s/%s", (int)(e - p), e == p ? "." : p, program);
        if (access(full, X_OK) == 0)
            return full;
        free(full);
    }
    return xstrdup(program);
}

/* The parts of launch and attach after the program is there: its lines
 * that emit events, the handler files and the start-up commands.  -1
 * with *cause when a handler file cannot be loaded. */
static int after_load(struct dap *d, json_t *args, const char *exe,
                      char **cause)
{
    int bad = 0;
    const char **files = strings(args, "handlers", &bad), **cmds;
    char *why = NULL;
    size_t i;

    if (bad) {
        xcause(cause, "\"handlers\" must be a file or a list of files");
        return -1;
    }
    dap_lines_free(d->lines);
    d->lines = exe != NULL ? dap_lines_read(exe, &why) : NULL;
    if (d->lines == NULL && why != NULL) {
        char *text = xasprintf("note: breakpoints on lines are not "
                               "possible: %s\n", why);

        dap_output(d, "console", text, strlen(text));
        free(text);
        free(why);
    }
    for (i = 0; files != NULL && files[i] != NULL; i++) {
        const char *words[] = {"handler", "load", files[i]};
        char *out = NULL;

        if (dap_command(d, &out, 3, words) != TCL_OK) {
            xcause(cause, "handlers %s: %s", files[i], out);
            free(out);
            free(files);
            return -1;
        }
        dap_output(d, "console", out, strlen(out));
        free(out);
    }
    free(files);
    cmds = strings(args, "commands", &bad);
    if (bad) {
        xcause(cause, "\"commands\" must be a list of noosa commands");
        return -1;
    }
    for (i = 0; cmds != NULL && cmds[i] != NULL; i++)
        startup_command(d, cmds[i]);
    free(cmds);
    dap_breaks_reset(d->breaks);
    return 0;
}

/* The launch or attach is done: answer it and say that the client may
 * set breakpoints now. */
static void answer_start(struct dap *d, json_t *req)
{
    dap_respond(d, req, NULL);
    d->answered = 1;
    dap_event(d, "initialized", NULL);
    if (d->kind == DAP_REPLAY)
        /* a recording goes back: step back and reverse continue */
        dap_event(d, "capabilities",
                  json_pack("{s:{s:b}}", "capabilities", "supportsStepBack",
                            1));
}

static void terminal_ready(struct dap *d, const char *tty, const char *why)
{
    char *cause = NULL;

    if (tty != NULL &&
        session_set_tty(d->in->session, tty, &cause) != 0) {
        why = cause;
    }
    if (tty == NULL || cause != NULL) {
        char *text = xasprintf("note: the program's output comes here: "
                               "its terminal in the editor could not be "
                               "had (%s)\n", why);

        dap_output(d, "console", text, strlen(text));
        free(text);
    }
    free(cause);
    if (d->pending != NULL) {
        answer_start(d, d->pending);
        json_decref(d->pending);
        d->pending = NULL;
    }
}

/* Keep the arguments of a launch or attach (its strings are used while
 * the program is there). */
static void keep_args(struct dap *d, json_t *args)
{
    json_incref(args);
    json_decref(d->launch);
    d->launch = args;
}

static void free_argv(char **argv)
{
    for (size_t k = 0; argv != NULL && argv[k] != NULL; k++)
        free(argv[k]);
    free(argv);
}

/* Set the program's environment from ENV (a JSON object: a string sets
 * a variable, null removes it).  The adapter is the program's only
 * parent, so its own environment is the program's. */
static int set_env(json_t *env, char **cause)
{
    const char *key;
    json_t *v;

    if (env == NULL || json_is_null(env))
        return 0;
    if (!json_is_object(env)) {
        xcause(cause, "\"env\" must be an object of variables");
        return -1;
    }
    json_object_foreach(env, key, v) {
        if (*key == '\0' || strchr(key, '=') != NULL) {
            xcause(cause, "\"env\": \"%s\" is not a variable's name", key);
            return -1;
        }
        if (json_is_null(v))
            unsetenv(key);
        else if (json_is_string(v))
            setenv(key, json_string_value(v), 1);
        else {
            xcause(cause, "\"env\": %s must be a string or null", key);
            return -1;
        }
    }
    return 0;
}

/* The program and arguments of a launch: a new NULL-ended array. */
static char **launch_argv(json_t *args, const char *program, char **cause)
{
    json_t *a = json_object_get(args, "args"), *e;
    char **argv;
    size_t i;

    if (a != NULL && !json_is_null(a) && !json_is_array(a)) {
        xcause(cause, "\"args\" must be a list of strings");
        return NULL;
    }
    argv = xcalloc((a != NULL ? json_array_size(a) : 0) + 2, sizeof *argv);
    argv[0] = xstrdup(program);
    json_array_foreach(a, i, e) {
        if (!json_is_string(e)) {
            xcause(cause, "\"args\": argument %zu is not a string", i + 1);
            free_argv(argv);
            return NULL;
        }
        argv[i + 1] = xstrdup(json_string_value(e));
    }
    return argv;
}

static void req_launch(struct dap *d, json_t *req, json_t *args)
{
    const char *program = dap_arg_str(args, "program");
    const char *replay = dap_arg_str(args, "replay");
    const char *cwd = dap_arg_str(args, "cwd");
    const char *console = dap_arg_str(args, "console");
    char *cause = NULL, *exe = NULL;

    if (d->kind != DAP_NONE) {
        dap_fail(d, req, "a program is already there: one a session");
        return;
    }
    if (program == NULL && replay == NULL) {
        dap_fail(d, req, "launch needs \"program\" (or \"replay\": a "
                 "recording's directory)");
        return;
    }
    if (cwd != NULL && chdir(cwd) != 0) {
        dap_fail(d, req, "cwd %s: %s", cwd, strerror(errno));
        return;
    }
    if (set_env(json_object_get(args, "env"), &cause) != 0)
        goto fail;
    d->stop_on_entry = dap_arg_bool(args, "stopOnEntry", 0);
    if (replay != NULL) {
        d->opts.replay = replay;
        d->kind = DAP_REPLAY;
    } else {
        free_argv(d->argv);
        d->argv = launch_argv(args, program, &cause);
        if (d->argv == NULL)
            goto fail;
        d->kind = DAP_LAUNCH;
    }
    keep_args(d, args);
    if (make_noosa(d, args, &cause) != 0)
        goto fail_kind;
    if (interp_load(d->in, d->argv, &cause) != 0)
        goto fail_noosa;
    exe = program_path(session_argv(d->in->session)[0]);
    if (after_load(d, args, exe, &cause) != 0)
        goto fail_noosa;
    free(exe);
    dap_flush_transcript(d, 1);
    if (d->kind == DAP_LAUNCH && d->client_terminal &&
        (console == NULL || strcmp(console, "internalConsole") != 0)) {
        const char *kind = console != NULL &&
                                   strcmp(console, "externalTerminal") == 0
                               ? "external"
                               : "integrated";

        if (dap_term_ask(d, kind, program, cwd, terminal_ready, &cause) ==
            0) {
            json_incref(req);
            d->pending = req;
            return;
        }
        terminal_ready(d, NULL, cause);
        free(cause);
        cause = NULL;
    }
    answer_start(d, req);
    return;

fail_noosa:
    free(exe);
    dap_flush_transcript(d, 1);
    drop_program(d);
fail_kind:
    d->kind = DAP_NONE;
    d->opts.replay = NULL;
fail:
    dap_fail(d, req, "%s", cause);
    free(cause);
}

static void req_attach(struct dap *d, json_t *req, json_t *args)
{
    json_t *p = json_object_get(args, "pid");
    char *cause = NULL, *exe;
    long long pid = 0;

    if (d->kind != DAP_NONE) {
        dap_fail(d, req, "a program is already there: one a session");
        return;
    }
    if (json_is_integer(p)) {
        pid = json_integer_value(p);
    } else if (json_is_string(p)) {
        const char *text = json_string_value(p);
        char *end;

        pid = strtoll(text, &end, 10);
        if (*text == '\0' || *end != '\0')
            pid = 0;
    }
    if (pid <= 0 || pid > INT_MAX) {
        dap_fail(d, req, "attach needs \"pid\", the process id of a program "
                 "linked with libdapto that runs already");
        return;
    }
    d->stop_on_entry = dap_arg_bool(args, "stopOnEntry", 0);
    d->kind = DAP_ATTACH;
    keep_args(d, args);
    if (make_noosa(d, args, &cause) != 0)
        goto fail;
    if (interp_attach(d->in, (pid_t)pid, &cause) != 0) {
        dap_flush_transcript(d, 1);
        drop_program(d);
        goto fail;
    }
    exe = xasprintf("/proc/%lld/exe", pid);
    if (after_load(d, args, exe, &cause) != 0) {
        free(exe);
        dap_command(d, NULL, 1, (const char *const[]){"detach"});
        dap_flush_transcript(d, 1);
        drop_program(d);
        goto fail;
    }
    free(exe);
    dap_flush_transcript(d, 1);
    answer_start(d, req);
    return;

fail:
    d->kind = DAP_NONE;
    dap_fail(d, req, "%s", cause);
    free(cause);
}

/* Start the program (or play the recording) for the client: stopped at
 * its first visible event when asked to stop on entry. */
static void start_run(struct dap *d, json_t *req)
{
    static const char *const run[] = {"run"}, *const step[] = {"step"};

    if (d->stop_on_entry)
        dap_resume(d, req, "entry", 0, 1, step);
    else
        dap_resume(d, req, NULL, 0, 1, run);
}

static void req_configuration_done(struct dap *d, json_t *req, json_t *args)
{
    (void)args;
    if (d->configured) {
        dap_fail(d, req, "configurationDone came twice");
        return;
    }
    d->configured = 1;
    if (d->kind == DAP_ATTACH) {
        dap_respond(d, req, NULL);
        if (d->stop_on_entry) {
            /* stopped by the attach: told at the next watch */
            d->resumed_for = "entry";
            d->told_state = SESSION_RUNNING;
        } else {
            dap_go_on_quietly(d, "continue");
        }
        return;
    }
    start_run(d, req);
}

static void req_restart(struct dap *d, json_t *req, json_t *args)
{
    json_t *conf = json_object_get(args, "arguments");
    char *cause = NULL;

    if (d->kind == DAP_ATTACH) {
        dap_fail(d, req, "a program attached to cannot be restarted: "
                 "detach (disconnect) and attach again");
        return;
    }
    if (json_is_object(conf)) {
        char **argv;

        if (d->kind == DAP_LAUNCH) {
            argv = launch_argv(conf, session_argv(d->in->session)[0],
                               &cause);
            if (argv == NULL ||
                set_env(json_object_get(conf, "env"), &cause) != 0) {
                dap_fail(d, req, "%s", cause);
                free(cause);
                return;
            }
            session_set_args(d->in->session, argv + 1);
            free_argv(argv);
        }
        d->stop_on_entry = dap_arg_bool(conf, "stopOnEntry",
                                        d->stop_on_entry);
    }
    d->configured = 1;
    start_run(d, req);
}

/* Let go of the program: detach from one attached to (unless told to
 * end it), kill one started. */
void dap_let_go(struct dap *d, int terminate)
{
    static const char *const end[] = {"kill"}, *const detach[] = {"detach"};
    char *out = NULL;

    if (d->in == NULL || session_state(d->in->session) == SESSION_IDLE)
        return;
    if (d->kind == DAP_ATTACH && !terminate) {
        if (dap_command(d, &out, 1, detach) != TCL_OK) {
            dap_output(d, "important", out, strlen(out));
            dap_command(d, NULL, 1, end);
        }
    } else {
        dap_command(d, &out, 1, end);
    }
    free(out);
}

static void req_disconnect(struct dap *d, json_t *req, json_t *args)
{
    int terminate = dap_arg_bool(args, "terminateDebuggee",
                                 d->kind != DAP_ATTACH);

    if (d->kind == DAP_LAUNCH && !terminate && d->in != NULL &&
        session_state(d->in->session) != SESSION_IDLE) {
        static const char note[] =
            "note: a program noosa started cannot go on without it: "
            "killing it\n";

        dap_output(d, "console", note, sizeof note - 1);
    }
    d->ended_told = 1; /* the client asked: no terminated */
    dap_let_go(d, terminate);
    dap_flush_transcript(d, 1);
    dap_respond(d, req, NULL);
    d->quit = 1;
}

static void req_terminate(struct dap *d, json_t *req, json_t *args)
{
    (void)args;
    dap_let_go(d, 1);
    dap_respond(d, req, NULL);
    if (session_state(d->in->session) == SESSION_IDLE &&
        d->told_state == SESSION_IDLE && !d->ended_told) {
        d->ended_told = 1;
        dap_event(d, "terminated", NULL);
    }
}

/* What works: <design#dap>. */
static const struct {
    const char *name;
    int on;
} capabilities[] = {
    {"supportsConfigurationDoneRequest", 1},
    {"supportsFunctionBreakpoints", 1},
    {"supportsConditionalBreakpoints", 1},
    {"supportsHitConditionalBreakpoints", 1},
    {"supportsEvaluateForHovers", 1},
    /* true once a recording is launched (a capabilities event) */
    {"supportsStepBack", 0},
    {"supportsSetVariable", 0},
    {"supportsRestartRequest", 1},
    {"supportsExceptionInfoRequest", 1},
    {"supportTerminateDebuggee", 1},
    {"supportsDelayedStackTraceLoading", 1},
    {"supportsLogPoints", 1},
    {"supportsTerminateRequest", 1},
    {"supportsBreakpointLocationsRequest", 1},
};

static void req_initialize(struct dap *d, json_t *req, json_t *args)
{
    json_t *caps, *filters;
    const char *client = dap_arg_str(args, "clientID");

    if (d->initialized) {
        dap_fail(d, req, "initialize came twice");
        return;
    }
    d->initialized = 1;
    d->lines_at1 = dap_arg_bool(args, "linesStartAt1", 1);
    d->columns_at1 = dap_arg_bool(args, "columnsStartAt1", 1);
    d->client_terminal = dap_arg_bool(args, "supportsRunInTerminalRequest",
                                      0);
    free(d->client_name);
    d->client_name = xstrdup(client != NULL ? client : "");
    filters = json_pack(
        "[{s:s,s:s,s:s,s:b},{s:s,s:s,s:s,s:b}]", "filter", "errors", "label",
        "Run-time errors",
        "description",
        "Stop at a fatal signal or dapto_error() before it takes effect; "
        "evaluate convert, continue or kill there",
        "default", 1, "filter", "convert", "label",
        "Convert run-time errors",
        "description",
        "Convert each run-time error to failure in its recovery point "
        "(DAPTO_TRY) without stopping, where it has one",
        "default", 0);
    caps = json_object();
    for (size_t i = 0; i < sizeof capabilities / sizeof *capabilities; i++)
        json_object_set_new(caps, capabilities[i].name,
                            json_boolean(capabilities[i].on));
    json_object_set_new(caps, "exceptionBreakpointFilters", filters);
    dap_respond(d, req, caps);
}

void dap_start_end(struct dap *d)
{
    dap_let_go(d, d->kind != DAP_ATTACH);
    json_decref(d->pending);
    d->pending = NULL;
    json_decref(d->launch);
    d->launch = NULL;
    free_argv(d->argv);
    d->argv = NULL;
    free(d->browser_dirs);
    d->browser_dirs = NULL;
}

const struct dap_request dap_start_requests[] = {
    {"initialize", req_initialize, DAP_NEEDS_NOTHING},
    {"launch", req_launch, DAP_NEEDS_INIT},
    {"attach", req_attach, DAP_NEEDS_INIT},
    {"configurationDone", req_configuration_done, DAP_NEEDS_PROGRAM},
    {"restart", req_restart, DAP_NEEDS_PROGRAM},
    {"disconnect", req_disconnect, DAP_NEEDS_NOTHING},
    {"terminate", req_terminate, DAP_NEEDS_PROGRAM},
    {NULL, NULL, 0}};
