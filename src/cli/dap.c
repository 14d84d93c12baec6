/* SPDX-License-Identifier: MIT */
/*
 * dap.c - the Debug Adapter Protocol front end (see dap.h): the loop, the
 * requests by table, run control, and what the client is told of the
 * program <design#dap>; the program's life (launch, attach, the end) is
 * dap-start.c's.
 *
 * One poll() loop (loop.h) over the client's descriptor, the program's
 * output pipes, the program's terminal's socket and everything the
 * session watches.  The client's bytes are only gathered in the loop's
 * callback; whole requests are handled between turns of the loop, never
 * inside one, so a request that blocks (launch reads the program's
 * interface, attach waits for the program) cannot be re-entered.  After
 * each turn and each request the program's state is compared with what
 * the client was told, and the difference becomes events: stopped (with
 * what the stop was for), continued, exited, terminated.
 *
 * Commands run as the prompt runs them (no batch waiting): run control
 * returns at once and the stop comes later, as in the screen.  What a
 * command the adapter runs for its own ends says is kept out of the
 * client's console; everything else the transcript says goes there.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dap.h"
#include "dapto.h"
#include "dispatch.h"
#include "interp.h"
#include "loop.h"
#include "noosa.h"
#include "registry.h"
#include "transcript.h"
#include "value.h"
#include "xmalloc.h"

/* --- the transcript and the program's output ------------------------------ */

void dap_output(struct dap *d, const char *category, const char *text,
                size_t len)
{
    json_t *body;

    if (len == 0)
        return;
    body = json_object();
    json_object_set_new(body, "category", json_string(category));
    json_object_set_new(body, "output", dap_jstrn(text, len));
    dap_event(d, "output", body);
}

/* The transcript's text from line LINE, byte COL, to its end; the caller
 * frees it. */
static char *tr_text(struct transcript *t, uint64_t line, size_t col,
                     int partial)
{
    uint64_t end = transcript_end(t);
    char *out = NULL;
    size_t n = 0, cap = 0;

    if (line < transcript_first(t)) {
        line = transcript_first(t);
        col = 0;
    }
    for (; line < end; line++, col = 0) {
        size_t len;
        const char *s = transcript_line(t, line, &len);
        int last = line + 1 == end && transcript_partial(t);

        if (last && !partial)
            break;
        if (col > len)
            col = len;
        while (cap < n + (len - col) + 2) {
            cap = cap != 0 ? cap * 2 : 256;
            out = xrealloc(out, cap);
        }
        memcpy(out + n, s + col, len - col);
        n += len - col;
        if (!last)
            out[n++] = '\n';
    }
    if (out == NULL)
        return xstrdup("");
    out[n] = '\0';
    return out;
}

/* The end of the transcript as a position: its last line's end when that
 * line is unfinished. */
static void tr_end(struct transcript *t, uint64_t *line, size_t *col)
{
    uint64_t end = transcript_end(t);

    *col = 0;
    *line = end;
    if (end > transcript_first(t) && transcript_partial(t)) {
        *line = end - 1;
        transcript_line(t, end - 1, col);
    }
}

void dap_flush_transcript(struct dap *d, int partial)
{
    struct transcript *t;
    uint64_t end;
    char *text;

    if (d->in == NULL || d->capturing)
        return;
    t = d->in->transcript;
    end = transcript_end(t);
    if (d->tr_line < transcript_first(t)) {
        d->tr_line = transcript_first(t);
        d->tr_col = 0;
    }
    text = tr_text(t, d->tr_line, d->tr_col, partial);
    if (partial || !transcript_partial(t)) {
        tr_end(t, &d->tr_line, &d->tr_col);
    } else if (d->tr_line + 1 < end) {
        /* the unfinished line is said when it ends */
        d->tr_line = end - 1;
        d->tr_col = 0;
    }
    dap_output(d, "console", text, strlen(text));
    free(text);
}

/* Take what the program wrote on FD (a pipe) and say it as CATEGORY. */
static void drain_pipe(struct dap *d, int fd, const char *category)
{
    char buf[65536];
    ssize_t n;

    while ((n = read(fd, buf, sizeof buf)) > 0 ||
           (n < 0 && errno == EINTR))
        if (n > 0)
            dap_output(d, category, buf, (size_t)n);
}

static void on_program_output(int fd, short revents, void *arg)
{
    struct dap *d = arg;

    (void)revents;
    drain_pipe(d, fd, fd == d->out_pipe[0] ? "stdout" : "stderr");
}

/* --- commands --------------------------------------------------------------- */

void dap_capture_begin(struct dap *d, uint64_t *line, size_t *col)
{
    /* on a line of its own: what it says does not run into the line
     * before (a value there would not be found as one) */
    struct transcript *t = d->in->transcript;

    if (transcript_partial(t)) {
        uint64_t last = transcript_end(t) - 1;
        size_t len;

        transcript_line(t, last, &len);
        transcript_append(t, "\n", 1);
        /* the end of a line the client was not told of (captured) */
        if (d->tr_line == last && d->tr_col == len) {
            d->tr_line = last + 1;
            d->tr_col = 0;
        }
    }
    dap_flush_transcript(d, 1);
    tr_end(d->in->transcript, line, col);
    d->capturing++;
}

char *dap_capture_end(struct dap *d, uint64_t line, size_t col,
                         int want)
{
    struct transcript *t = d->in->transcript;
    char *text = want ? tr_text(t, line, col, 1) : NULL;

    d->capturing--;
    tr_end(t, &d->tr_line, &d->tr_col);
    return text;
}

int dap_command(struct dap *d, char **out, int argc,
                const char *const *words)
{
    Tcl_Interp *tcl = d->in->tcl;
    Tcl_Obj **objv = xcalloc((size_t)argc, sizeof *objv);
    Tcl_CmdInfo info;
    uint64_t line;
    size_t col;
    char *name, *text;
    const char *result;
    int rc, i;

    name = xasprintf("::noosa::cmd::%s", words[0]);
    objv[0] = Tcl_NewStringObj(Tcl_GetCommandInfo(tcl, name, &info)
                                   ? name
                                   : words[0],
                               -1);
    free(name);
    for (i = 1; i < argc; i++)
        objv[i] = Tcl_NewStringObj(words[i], -1);
    for (i = 0; i < argc; i++)
        Tcl_IncrRefCount(objv[i]);
    dap_log(d, "-- command %s%s", words[0], argc > 1 ? " ..." : "");
    dap_capture_begin(d, &line, &col);
    rc = Tcl_EvalObjv(tcl, argc, objv, TCL_EVAL_GLOBAL);
    dispatch_flush(d->in->dispatch);
    text = dap_capture_end(d, line, col, out != NULL);
    result = Tcl_GetStringResult(tcl);
    if (out != NULL) {
        if (*result != '\0') {
            char *both = xasprintf("%s%s%s%s", text,
                                   *text != '\0' &&
                                           text[strlen(text) - 1] != '\n'
                                       ? "\n"
                                       : "",
                                   result, rc == TCL_OK ? "\n" : "");
            free(text);
            text = both;
        }
        *out = text;
    }
    if (rc != TCL_OK)
        dap_log(d, "-- %s failed: %s", words[0], result);
    Tcl_ResetResult(tcl);
    for (i = 0; i < argc; i++)
        Tcl_DecrRefCount(objv[i]);
    free(objv);
    return rc == TCL_OK ? TCL_OK : TCL_ERROR;
}

int dap_script(struct dap *d, const char *script, char **out)
{
    uint64_t line;
    size_t col;
    int errors;

    dap_capture_begin(d, &line, &col);
    errors = interp_script(d->in, script, NULL, 1);
    *out = dap_capture_end(d, line, col, 1);
    return errors == 0 ? TCL_OK : TCL_ERROR;
}

/* --- the program's state, told to the client -------------------------------- */

int dap_stopped(struct dap *d, const char **why)
{
    if (d->in == NULL) {
        *why = "no program: launch or attach first";
        return -1;
    }
    switch (session_state(d->in->session)) {
    case SESSION_STOPPED:
        *why = NULL;
        return 1;
    case SESSION_RUNNING:
        *why = "the program is running: pause it first";
        return 0;
    default:
        *why = "the program is not running";
        return -1;
    }
}

/* The value of ev(NAME), the event stopped at, or NULL. */
static const char *ev_value(struct dap *d, const char *name)
{
    return Tcl_GetVar2(d->in->tcl, "ev", name, TCL_GLOBAL_ONLY);
}

const struct registry_event *dap_stop_event(struct dap *d)
{
    const char *name = ev_value(d, "n_ename");
    struct registry *reg = session_registry(d->in->session);

    if (name == NULL || reg == NULL ||
        session_state(d->in->session) != SESSION_STOPPED ||
        session_why(d->in->session) != SESSION_AT_EVENT)
        return NULL;
    return registry_event_by_name(reg, name);
}

/* "tick n=2 text=\"step 2\"": the event stopped at with its parameters,
 * as the transcript says them. */
static char *event_text(struct dap *d)
{
    const struct registry_event *e = dap_stop_event(d);
    char *text;

    if (e == NULL)
        return NULL;
    text = xstrdup(e->name);
    for (unsigned int i = 0; i < e->nparams; i++) {
        const struct registry_param *p = &e->params[i];
        const char *v = ev_value(d, p->name);
        char *shown, *more;

        if (v == NULL)
            shown = xstrdup("?");
        else if (p->kind == DAPTO_K_STR)
            shown = value_quote(v, strlen(v));
        else if (p->kind == DAPTO_K_PTR || p->kind == DAPTO_K_USER)
            shown = xasprintf("%s%s0x%llx",
                              p->kind == DAPTO_K_USER ? p->type : "",
                              p->kind == DAPTO_K_USER ? ":" : "",
                              strtoull(v, NULL, 10));
        else
            shown = xstrdup(v);
        more = xasprintf("%s %s=%s", text, p->name, shown);
        free(shown);
        free(text);
        text = more;
    }
    return text;
}

/* Whether the event stopped at is visible (a step stops there). */
static int event_visible(struct dap *d)
{
    const struct registry_event *e = dap_stop_event(d);

    return e != NULL && e->visible;
}

/* Go on from a stop the client is not to see, as the adapter last
 * resumed (step stays a step); the transcript's line that said the stop
 * is not said to the client either. */
static int go_on_quietly(struct dap *d, int argc, const char *const *words)
{
    struct transcript *t = d->in->transcript;
    uint64_t l = transcript_end(t);
    size_t len;

    if (d->tr_line < transcript_first(t)) {
        d->tr_line = transcript_first(t);
        d->tr_col = 0;
    }
    while (l > d->tr_line) {
        const char *s = transcript_line(t, --l, &len);

        if (len > 11 && strncmp(s, "Stopped at ", 11) == 0 &&
            (l + 1 < transcript_end(t) || !transcript_partial(t))) {
            char *before = tr_text(t, d->tr_line, d->tr_col, 0);
            char *after = tr_text(t, l + 1, 0, 0);
            size_t n = strlen(before) - strlen(after) - len - 1;

            dap_output(d, "console", before, n);
            free(before);
            free(after);
            d->tr_line = l + 1;
            d->tr_col = 0;
            break;
        }
    }
    /* the frames looked at for this stop go with it */
    dap_vars_forget(d->vars);
    dap_breaks_resume(d->breaks);
    if (dap_command(d, NULL, argc, words) != TCL_OK)
        return -1;
    d->told_state = SESSION_RUNNING;
    return 0;
}

void dap_go_on_quietly(struct dap *d, const char *word)
{
    const char *const words[] = {word};

    go_on_quietly(d, 1, words);
}

/* Going back to a breakpoint a step at a time (reverseContinue where
 * noosa has no reverse-continue): 1 when the adapter steps back again
 * from this stop, the client not told of it; 0 when the stop is the
 * client's, a breakpoint's (IDS) or the recording's first event (then
 * *REASON and *WHERE say so). */
static int reverse_on(struct dap *d, json_t *ids, const char **reason,
                      const char **where)
{
    static const char *const back[] = {"step", "back"};
    uint64_t at = session_position(d->in->session);

    if (ids == NULL && at > 0 && at < d->reverse_at) {
        d->reverse_at = at;
        /* a step back that cannot go: the stop is told as it is */
        if (go_on_quietly(d, 2, back) == 0)
            return 1;
    }
    if (ids == NULL) {
        *reason = "entry";
        *where = "the first event of the recording";
    }
    return 0;
}

static void tell_stop(struct dap *d)
{
    struct session *s = d->in->session;
    struct noosa *n = d->noosa;
    const char *where = n->where != NULL ? n->where : "";
    const char *reason = NULL, *thread;
    json_t *ids = NULL, *body;
    char *text = NULL, *step_where = NULL;
    int stops;

    d->told_seq = n->item_seq;
    dap_vars_forget(d->vars);
    switch (session_why(s)) {
    case SESSION_FAULT:
        d->stop_thread = session_fault(s)->tid;
        if (!dap_breaks_errors(d->breaks)) {
            /* no stop at run-time errors: the signal goes to the program,
             * as it would without noosa */
            dap_flush_transcript(d, 1);
            dap_go_on_quietly(d, "continue");
            return;
        }
        reason = "exception";
        break;
    case SESSION_INTERRUPTED:
        d->stop_thread = session_pid(s);
        reason = d->resumed_for != NULL &&
                         strcmp(d->resumed_for, "entry") == 0
                     ? "entry"
                     : "pause";
        break;
    case SESSION_AT_EVENT:
        thread = ev_value(d, "n_thread");
        d->stop_thread = thread != NULL ? (pid_t)atoi(thread) : 0;
        stops = dap_breaks_stopped(d->breaks, where, &reason, &ids);
        if (d->reverse_at != 0 && reverse_on(d, ids, &reason, &where))
            return;
        if (d->reverse_rc && ids == NULL) {
            /* no stop before: noosa went to the first event */
            reason = "entry";
            where = "the first event of the recording";
        }
        if (!stops && !d->forced) {
            /* only breakpoints the client would not stop at: a line
             * breakpoint's event at another line, log points; unless a
             * step was to stop here anyway, or a pause (whose interrupt
             * this stop took: going on would lose it) */
            int stepping = d->resumed_for != NULL &&
                           (strcmp(d->resumed_for, "step") == 0 ||
                            strcmp(d->resumed_for, "entry") == 0);
            int pausing = d->resumed_for != NULL &&
                          strcmp(d->resumed_for, "pause") == 0;

            if (!pausing && (!stepping || !event_visible(d))) {
                dap_go_on_quietly(d, stepping ? "step" : "continue");
                return;
            }
            reason = d->resumed_for;
            step_where =
                xasprintf("event \"%s\"", dap_stop_event(d)->name);
            where = step_where;
        }
        if (reason == NULL)
            reason = d->resumed_for != NULL ? d->resumed_for : "breakpoint";
        text = event_text(d);
        break;
    }
    d->told_state = SESSION_STOPPED;
    d->resumed_for = NULL;
    d->forced = 0;
    d->reverse_at = 0;
    d->reverse_rc = 0;
    body = json_object();
    json_object_set_new(body, "reason", json_string(reason));
    json_object_set_new(body, "description", dap_jstr(where));
    json_object_set_new(body, "threadId", json_integer(d->stop_thread));
    json_object_set_new(body, "allThreadsStopped", json_true());
    if (text != NULL)
        json_object_set_new(body, "text", dap_jstr(text));
    if (ids != NULL)
        json_object_set_new(body, "hitBreakpointIds", ids);
    free(text);
    free(step_where);
    dap_flush_transcript(d, 1);
    dap_event(d, "stopped", body);
}

/* The program ended (or was let go): what it printed, then exited and
 * terminated. */
static void tell_end(struct dap *d)
{
    int status, signo, how;

    drain_pipe(d, d->out_pipe[0], "stdout");
    drain_pipe(d, d->err_pipe[0], "stderr");
    dap_flush_transcript(d, 1);
    dap_vars_forget(d->vars);
    d->told_state = SESSION_IDLE;
    if (d->ended_told)
        return;
    d->ended_told = 1;
    how = session_ended(d->in->session, &status, &signo);
    if (how != 0)
        dap_event(d, "exited",
                  json_pack("{s:i}", "exitCode",
                            signo != 0 ? 128 + signo : status));
    dap_event(d, "terminated", NULL);
}

/* Compare the program's state with what the client was told. */
static void watch(struct dap *d)
{
    enum session_state state;

    if (d->in == NULL)
        return;
    if (d->noosa->quit && !d->quit_done) {
        /* quit typed in the console: the program is let go, the client
         * told it ended, and the adapter waits for its disconnect */
        d->quit_done = 1;
        dap_let_go(d, d->kind != DAP_ATTACH);
    }
    state = session_state(d->in->session);
    if (d->configured && state == SESSION_STOPPED &&
        (d->told_state != SESSION_STOPPED ||
         d->told_seq != d->noosa->item_seq)) {
        /* a new stop: the transcript's line of it only once it is the
         * client's to see */
        tell_stop(d);
        return;
    }
    dap_flush_transcript(d, 0);
    if (!d->configured)
        return;
    switch (state) {
    case SESSION_STOPPED:
        break;
    case SESSION_RUNNING:
        if (d->told_state != SESSION_RUNNING) {
            /* resumed by a command the client did not send (repl) */
            d->told_state = SESSION_RUNNING;
            dap_vars_forget(d->vars);
            dap_breaks_resume(d->breaks);
            dap_event(d, "continued",
                      json_pack("{s:i,s:b}", "threadId",
                                (int)d->stop_thread,
                                "allThreadsContinued", 1));
        }
        break;
    case SESSION_IDLE:
        if (d->told_state != SESSION_IDLE)
            tell_end(d);
        break;
    }
}

int dap_resume(struct dap *d, json_t *req, const char *reason, int forced,
               int argc, const char *const *words)
{
    char *out = NULL;

    d->reverse_at = 0;
    d->reverse_rc = 0;
    dap_breaks_resume(d->breaks);
    if (dap_command(d, &out, argc, words) != TCL_OK) {
        /* the last line is the error */
        size_t n = strlen(out);

        while (n > 0 && out[n - 1] == '\n')
            out[--n] = '\0';
        dap_fail(d, req, "%s", out);
        free(out);
        return -1;
    }
    free(out);
    d->resumed_for = reason;
    d->forced = forced;
    if (session_state(d->in->session) != SESSION_IDLE)
        d->told_state = SESSION_RUNNING;
    d->ended_told = 0;
    dap_vars_forget(d->vars);
    dap_respond(d, req,
                strcmp(words[0], "continue") == 0
                    ? json_pack("{s:b}", "allThreadsContinued", 1)
                    : NULL);
    return 0;
}

/* --- run control ------------------------------------------------------------- */

static void req_continue(struct dap *d, json_t *req, json_t *args)
{
    static const char *const w[] = {"continue"};

    (void)args;
    dap_resume(d, req, NULL, 0, 1, w);
}

/* next, stepIn, stepOut: noosa steps from event to event. */
static void req_step(struct dap *d, json_t *req, json_t *args)
{
    static const char *const w[] = {"step"};

    (void)args;
    dap_resume(d, req, "step", 0, 1, w);
}

/* Whether noosa has command NAME. */
static int has_command(struct dap *d, const char *name)
{
    Tcl_CmdInfo info;
    char *full = xasprintf("::noosa::cmd::%s", name);
    int yes = Tcl_GetCommandInfo(d->in->tcl, full, &info);

    free(full);
    return yes;
}

/* stepBack: to the visible event before, as next goes to the one after
 * (reverse-step), or where noosa has no reverse-step, to the event
 * before (step back).  A stop there is told whatever it is. */
static void req_step_back(struct dap *d, json_t *req, json_t *args)
{
    static const char *const rs[] = {"reverse-step"};
    static const char *const sb[] = {"step", "back"};

    (void)args;
    if (d->kind != DAP_REPLAY) {
        dap_fail(d, req, "stepBack: only a recording goes back (launch "
                 "with \"replay\": a directory of noosa record)");
        return;
    }
    if (has_command(d, "reverse-step"))
        dap_resume(d, req, "step", 1, 1, rs);
    else
        dap_resume(d, req, "step", 1, 2, sb);
}

/* reverseContinue: back to the last breakpoint before, with noosa's
 * reverse-continue where it has it, else a step back at a time. */
static void req_reverse_continue(struct dap *d, json_t *req, json_t *args)
{
    static const char *const rc[] = {"reverse-continue"};
    static const char *const sb[] = {"step", "back"};
    uint64_t at;

    (void)args;
    if (d->kind != DAP_REPLAY) {
        dap_fail(d, req, "reverseContinue: only a recording goes back "
                 "(launch with \"replay\": a directory of noosa record)");
        return;
    }
    if (has_command(d, "reverse-continue")) {
        if (dap_resume(d, req, NULL, 1, 1, rc) == 0)
            d->reverse_rc = 1;
        return;
    }
    /* without it, step back until a breakpoint or the first event */
    at = session_position(d->in->session);
    if (dap_resume(d, req, NULL, 1, 2, sb) == 0)
        d->reverse_at = at;
}

static void req_pause(struct dap *d, json_t *req, json_t *args)
{
    static const char *const w[] = {"stop"};
    const char *why;
    char *out = NULL;

    (void)args;
    switch (dap_stopped(d, &why)) {
    case 1:
        /* a pause that crossed a stop: nothing to do */
        dap_respond(d, req, NULL);
        return;
    case -1:
        dap_fail(d, req, "%s", why);
        return;
    }
    if (dap_command(d, &out, 1, w) != TCL_OK) {
        dap_fail(d, req, "%s", out);
        free(out);
        return;
    }
    free(out);
    d->resumed_for = "pause";
    dap_respond(d, req, NULL);
}

/* --- requests ------------------------------------------------------------------- */

static const struct dap_request requests[] = {
    {"continue", req_continue, DAP_NEEDS_STOPPED},
    {"next", req_step, DAP_NEEDS_STOPPED},
    {"stepIn", req_step, DAP_NEEDS_STOPPED},
    {"stepOut", req_step, DAP_NEEDS_STOPPED},
    {"stepBack", req_step_back, DAP_NEEDS_STOPPED},
    {"reverseContinue", req_reverse_continue, DAP_NEEDS_STOPPED},
    {"pause", req_pause, DAP_NEEDS_PROGRAM},
    {NULL, NULL, 0}};

static const struct dap_request *find_request(const char *command)
{
    const struct dap_request *const tables[] = {
        dap_start_requests, requests, dap_break_requests, dap_vars_requests};

    for (size_t t = 0; t < sizeof tables / sizeof *tables; t++)
        for (const struct dap_request *r = tables[t]; r->command != NULL; r++)
            if (strcmp(r->command, command) == 0)
                return r;
    return NULL;
}

static void handle(struct dap *d, json_t *msg)
{
    const char *type = json_string_value(json_object_get(msg, "type"));
    json_t *seq = json_object_get(msg, "seq");
    json_t *cmd = json_object_get(msg, "command");
    json_t *args = json_object_get(msg, "arguments");
    long n = json_is_integer(seq) ? (long)json_integer_value(seq) : 0;
    const char *command = json_string_value(cmd);
    const struct dap_request *r;
    const char *why = NULL;
    json_t *empty = NULL;

    if (type != NULL && strcmp(type, "response") == 0) {
        long to = (long)dap_arg_int(msg, "request_seq", 0, NULL);

        if (!dap_term_answer(d, to, msg))
            dap_log(d, "-- a response to no request of ours (%ld)", to);
        return;
    }
    if (type == NULL || strcmp(type, "request") != 0) {
        dap_fail_seq(d, n, command != NULL ? command : "",
                     "a message of type \"%s\": the adapter takes requests",
                     type != NULL ? type : "(none)");
        return;
    }
    if (!json_is_integer(seq) || command == NULL) {
        dap_fail_seq(d, n, command != NULL ? command : "",
                     "a request needs \"seq\" (an integer) and \"command\" "
                     "(a string)");
        return;
    }
    if (args != NULL && !json_is_object(args) && !json_is_null(args)) {
        dap_fail(d, msg, "%s: \"arguments\" must be an object", command);
        return;
    }
    if (args == NULL || json_is_null(args))
        args = empty = json_object();
    r = find_request(command);
    if (r == NULL) {
        dap_fail(d, msg, "unknown request \"%s\"", command);
    } else if (r->needs >= DAP_NEEDS_INIT && !d->initialized) {
        dap_fail(d, msg, "%s: the first request must be initialize",
                 command);
    } else if (r->needs >= DAP_NEEDS_PROGRAM && !d->answered) {
        dap_fail(d, msg, "%s: no program yet: launch or attach first",
                 command);
    } else if (r->needs == DAP_NEEDS_STOPPED && dap_stopped(d, &why) != 1) {
        dap_fail(d, msg, "%s: %s", command, why);
    } else {
        r->fn(d, msg, args);
    }
    json_decref(empty);
}

/* --- the front end ------------------------------------------------------------ */

/* The client's descriptors become the adapter's own: descriptor 0 reads
 * nothing and 1 writes to standard error, so that nothing else, noosa's
 * or a library's or a child's, can write into the protocol. */
static int take_stdio(struct dap *d)
{
    d->in_fd = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3);
    d->out_fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
    d->null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (d->in_fd < 0 || d->out_fd < 0 || d->null_fd < 0 ||
        dup2(d->null_fd, STDIN_FILENO) < 0 ||
        dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
        return -1;
    if (pipe2(d->out_pipe, O_CLOEXEC) != 0 ||
        pipe2(d->err_pipe, O_CLOEXEC) != 0)
        return -1;
    fcntl(d->out_pipe[0], F_SETFL, O_NONBLOCK);
    fcntl(d->err_pipe[0], F_SETFL, O_NONBLOCK);
    d->opts.session.fd_in = d->null_fd;
    d->opts.session.fd_out = d->out_pipe[1];
    d->opts.session.fd_err = d->err_pipe[1];
    return 0;
}

int dap_main(const struct noosa_opts *o, const char *log_path)
{
    struct dap *d = xcalloc(1, sizeof *d);
    struct timespec ts;
    json_t *msg;
    char *err;
    int r;

    d->opts = *o;
    d->main_browsers = o->browser_dirs;
    d->out_pipe[0] = d->out_pipe[1] = d->err_pipe[0] = d->err_pipe[1] = -1;
    if (log_path != NULL) {
        d->log = fopen(log_path, "ae");
        if (d->log == NULL) {
            fprintf(stderr, "noosa: --dap-log %s: %s\n", log_path,
                    strerror(errno));
            free(d);
            return 2;
        }
        clock_gettime(CLOCK_MONOTONIC, &ts);
        d->log_start_ns = (uint64_t)ts.tv_sec * 1000000000u +
                          (uint64_t)ts.tv_nsec;
        dap_log(d, "-- noosa %s, a debug adapter", PACKAGE_VERSION);
    }
    if (take_stdio(d) != 0) {
        fprintf(stderr, "noosa: --dap: %s\n", strerror(errno));
        return 2;
    }
    d->loop = loop_create();
    d->told_state = SESSION_IDLE;
    d->breaks = dap_breaks_create(d);
    d->vars = dap_vars_create(d);
    loop_add(d->loop, d->in_fd, POLLIN, dap_proto_read, d);
    loop_add(d->loop, d->out_pipe[0], POLLIN, on_program_output, d);
    loop_add(d->loop, d->err_pipe[0], POLLIN, on_program_output, d);

    while (!d->quit) {
        /* what the last turn did is told before any request is read */
        watch(d);
        while (!d->quit && (err = NULL, r = dap_proto_next(d, &msg, &err))) {
            if (r < 0) {
                dap_fail_seq(d, 0, "", "%s", err);
                free(err);
                continue;
            }
            handle(d, msg);
            json_decref(msg);
            watch(d);
        }
        if (d->quit)
            break;
        if (d->in_eof) {
            dap_log(d, "-- the client is gone: letting the program go");
            break;
        }
        loop_once(d->loop, dap_term_timeout(d));
    }

    dap_start_end(d);
    dap_term_free(d);
    dap_vars_free(d->vars);
    dap_breaks_free(d->breaks);
    dap_lines_free(d->lines);
    if (d->in != NULL)
        interp_free(d->in);
    noosa_free(d->noosa);
    loop_free(d->loop);
    free(d->client_name);
    free(d->inbuf);
    close(d->in_fd);
    close(d->out_fd);
    close(d->null_fd);
    for (int k = 0; k < 2; k++) {
        close(d->out_pipe[k]);
        close(d->err_pipe[k]);
    }
    dap_log(d, "-- the end");
    if (d->log != NULL)
        fclose(d->log);
    free(d);
    return 0;
}
