/* SPDX-License-Identifier: MIT */
/*
 * dap-break.c - breakpoints for the client (see dap.h) <design#dap-break>:
 * on events (setFunctionBreakpoints: the name is an event), on the lines
 * that emit them (setBreakpoints), on run-time errors
 * (setExceptionBreakpoints), and what a stop was for.
 *
 * Each is noosa's own: `break EVENT if CONDITION every N after N count N`,
 * so its condition runs in the program where its shape allows, and its
 * hit counting with it.  A line breakpoint on an event that the program
 * emits at other lines too stops only when the event's emitting frame is
 * at that line: noosa's breakpoint takes the condition, and the adapter
 * looks at the frame at each stop, counts the hits at that line itself
 * and lets the program go on quietly from the others.  A log point is a
 * handler that says its message without stopping the program, or (at one
 * line of several, or with hit counting) such a breakpoint whose stops
 * only say it.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tcl.h>

#include "breaks.h"
#include "dap.h"
#include "guard.h"
#include "interp.h"
#include "registry.h"
#include "xmalloc.h"

enum bp_kind { BP_FUNCTION, BP_LINE };

struct dap_bp {
    int id;              /* the client's */
    enum bp_kind kind;
    char *path;          /* BP_LINE: the source, and its line (noosa's
                            count, from 1) */
    int line;
    char *name;          /* BP_FUNCTION: the event */
    char *cond;          /* noosa's condition syntax, or NULL */
    char *log;           /* a log point's message, or NULL */
    uint32_t every, after, count;
    int verified;
    char *message;
    int *noosa;          /* noosa's breakpoints made for it */
    unsigned int nnoosa;
    char **handlers;     /* log points as handlers: EVENT, NAME pairs */
    unsigned int nhandlers;
    int at_line;         /* stop only at this line: counted here */
    uint64_t hits;       /* hits at this line (at_line) */
};

struct hits {
    int id;
    unsigned long hits;
};

struct dap_breaks {
    struct dap *d;
    struct dap_bp **bps;
    size_t n, cap;
    int next_id;
    int errors, convert; /* the exception filters */
    struct hits *before; /* noosa's breakpoints' hits at the resume */
    size_t nbefore, before_cap;
};

struct dap_breaks *dap_breaks_create(struct dap *d)
{
    struct dap_breaks *b = xcalloc(1, sizeof *b);

    b->d = d;
    b->next_id = 1;
    b->errors = 1;
    return b;
}

/* Forget BP, and its breakpoints and handlers in noosa. */
static void bp_free(struct dap_breaks *b, struct dap_bp *bp)
{
    struct dap *d = b->d;
    unsigned int i;

    for (i = 0; i < bp->nnoosa && d->in != NULL; i++) {
        char id[16];
        const char *words[] = {"delete", id};

        snprintf(id, sizeof id, "%d", bp->noosa[i]);
        dap_command(d, NULL, 2, words);
    }
    for (i = 0; i < bp->nhandlers; i += 2) {
        const char *words[] = {"handler", "remove", bp->handlers[i],
                               bp->handlers[i + 1]};

        if (d->in != NULL)
            dap_command(d, NULL, 4, words);
        free(bp->handlers[i]);
        free(bp->handlers[i + 1]);
    }
    free(bp->handlers);
    free(bp->noosa);
    free(bp->path);
    free(bp->name);
    free(bp->cond);
    free(bp->log);
    free(bp->message);
    free(bp);
}

void dap_breaks_free(struct dap_breaks *b)
{
    if (b == NULL)
        return;
    for (size_t i = 0; i < b->n; i++)
        bp_free(b, b->bps[i]);
    free(b->bps);
    free(b->before);
    free(b);
}

int dap_breaks_errors(const struct dap_breaks *b)
{
    return b->errors;
}

/* Set noosa's policy at run-time errors from the filters. */
static void set_policy(struct dap_breaks *b)
{
    const char *words[] = {"errors", b->convert ? "convert" : "ask"};

    dap_command(b->d, NULL, 2, words);
}

void dap_breaks_reset(struct dap_breaks *b)
{
    set_policy(b);
}

void dap_breaks_resume(struct dap_breaks *b)
{
    struct breaks_info info;
    unsigned int i, n;

    if (b->d->in == NULL)
        return;
    n = breaks_count(b->d->in->breaks);
    b->nbefore = 0;
    for (i = 0; i < n && breaks_get(b->d->in->breaks, i, &info); i++) {
        b->before = xgrow(b->before, b->nbefore, &b->before_cap,
                          sizeof *b->before);
        b->before[b->nbefore].id = info.id;
        b->before[b->nbefore++].hits = info.hits;
    }
}

/* --- a breakpoint's words ---------------------------------------------------- */

/* Read a number from 0 (1 with ONE) to 2^32 - 1 at *P (spaces first):
 * 0, or -1. */
static int number(const char **p, int one, uint32_t *v)
{
    unsigned long long n = 0;
    const char *q = *p;

    while (*q == ' ' || *q == '\t')
        q++;
    if (!isdigit((unsigned char)*q))
        return -1;
    while (isdigit((unsigned char)*q) && n <= 0xffffffffULL)
        n = n * 10 + (unsigned)(*q++ - '0');
    if (n > 0xffffffffULL || (one && n == 0))
        return -1;
    *v = (uint32_t)n;
    *p = q;
    return 0;
}

/* A hit condition: noosa's words (every N, after N, count N, in any
 * order), or what editors offer: N and >= N (from the Nth hit on), > N,
 * == N (the Nth alone), % N (every Nth).  -1 with *why. */
static int hit_condition(const char *text, struct dap_bp *bp, char **why)
{
    const char *p = text;
    uint32_t v;

    bp->every = bp->after = bp->count = 0;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p == '\0')
        return 0;
    if (isdigit((unsigned char)*p) || *p == '>' || *p == '=' || *p == '%') {
        int op;

        if (*p == '%')
            op = '%', p++;
        else if (p[0] == '>' && p[1] == '=')
            op = 'g', p += 2;
        else if (*p == '>')
            op = '>', p++;
        else if (p[0] == '=' && p[1] == '=')
            op = '=', p += 2;
        else if (*p == '=')
            op = '=', p++;
        else
            op = 'g';
        if (number(&p, op != '>', &v) != 0)
            goto bad;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p != '\0')
            goto bad;
        if (op == '%')
            bp->every = v;
        else if (op == '>')
            bp->after = v;
        else
            bp->after = v - 1;
        if (op == '=')
            bp->count = 1;
        return 0;
    }
    while (*p != '\0') {
        uint32_t *slot = NULL;

        if (strncmp(p, "every", 5) == 0)
            slot = &bp->every, p += 5;
        else if (strncmp(p, "after", 5) == 0)
            slot = &bp->after, p += 5;
        else if (strncmp(p, "count", 5) == 0)
            slot = &bp->count, p += 5;
        if (slot == NULL || number(&p, slot == &bp->every, slot) != 0)
            goto bad;
        while (*p == ' ' || *p == '\t')
            p++;
    }
    return 0;

bad:
    xcause(why, "hit condition \"%s\": expected noosa's every N, after N "
           "and count N, or N (from the Nth hit on), > N, == N, %% N",
           text);
    return -1;
}

/* Tcl's quoting of TEXT as one word; the caller frees it. */
static char *tcl_word(const char *text)
{
    Tcl_Obj *w = Tcl_NewStringObj(text, -1), *l;
    char *out;

    l = Tcl_NewListObj(1, &w);
    Tcl_IncrRefCount(l);
    out = xstrdup(Tcl_GetString(l));
    Tcl_DecrRefCount(l);
    return out;
}

/* Whether NAME is a variable the code of event E sees. */
static int event_var(const struct registry_event *e, const char *name)
{
    static const char *const extra[] = {"n_ename", "n_time", "n_thread",
                                        "n_pid", NULL};

    for (unsigned int i = 0; e != NULL && i < e->nparams; i++)
        if (strcmp(e->params[i].name, name) == 0)
            return 1;
    for (unsigned int i = 0; extra[i] != NULL; i++)
        if (strcmp(extra[i], name) == 0)
            return 1;
    return 0;
}

/* A log point's message as Tcl code over the event's variables: literal
 * text as it is, {NAME} a parameter's value, {EXPR} a Tcl expression's.
 * The caller frees it. */
static char *log_code(const char *msg, const struct registry_event *e)
{
    char *code = xstrdup("n_say [string cat"), *more, *part, *word;
    const char *p = msg;

    while (*p != '\0') {
        const char *open = strchr(p, '{'), *close;

        close = open != NULL ? strchr(open, '}') : NULL;
        if (open == NULL || close == NULL)
            open = p + strlen(p);
        if (open > p) {
            part = xstrndup(p, (size_t)(open - p));
            word = tcl_word(part);
            more = xasprintf("%s %s", code, word);
            free(word);
            free(part);
            free(code);
            code = more;
        }
        if (*open == '\0')
            break;
        part = xstrndup(open + 1, (size_t)(close - open - 1));
        word = tcl_word(part);
        more = event_var(e, part) ? xasprintf("%s ${%s}", code, part)
                                  : xasprintf("%s [expr %s]", code, word);
        free(word);
        free(part);
        free(code);
        code = more;
        p = close + 1;
    }
    more = xasprintf("%s \\n]", code);
    free(code);
    return more;
}

/* --- setting them in noosa ------------------------------------------------------- */

static void set_message(struct dap_bp *bp, int verified, char *message)
{
    bp->verified = verified;
    free(bp->message);
    bp->message = message;
}

/* TEXT (a command's error) without its last newlines, in a new
 * string. */
static char *trimmed(const char *text)
{
    size_t n = strlen(text);

    while (n > 0 && text[n - 1] == '\n')
        n--;
    return xstrndup(text, n);
}

/* Add noosa's breakpoint on EVENT for BP (with its condition, and its
 * hit counting unless it is counted here).  0, or -1 with *why. */
static int add_break(struct dap_breaks *b, struct dap_bp *bp,
                     const char *event, char **why)
{
    struct dap *d = b->d;
    const char *words[12];
    char every[16], after[16], count[16], *out = NULL;
    struct breaks_info info;
    int n = 0;

    words[n++] = "break";
    words[n++] = event;
    if (bp->cond != NULL) {
        words[n++] = "if";
        words[n++] = bp->cond;
    }
    if (!bp->at_line) {
        if (bp->every > 1) {
            snprintf(every, sizeof every, "%u", bp->every);
            words[n++] = "every";
            words[n++] = every;
        }
        if (bp->after > 0) {
            snprintf(after, sizeof after, "%u", bp->after);
            words[n++] = "after";
            words[n++] = after;
        }
        if (bp->count > 0) {
            snprintf(count, sizeof count, "%u", bp->count);
            words[n++] = "count";
            words[n++] = count;
        }
    }
    if (dap_command(d, &out, n, words) != TCL_OK) {
        *why = trimmed(out);
        free(out);
        return -1;
    }
    free(out);
    if (!breaks_get(d->in->breaks, breaks_count(d->in->breaks) - 1, &info))
        return 0;
    bp->noosa = xreallocarray(bp->noosa, bp->nnoosa + 1, sizeof *bp->noosa);
    bp->noosa[bp->nnoosa++] = info.id;
    return 0;
}

/* A log point on EVENT as a handler: it says the message where the
 * event is emitted, without a stop. */
static int add_handler(struct dap_breaks *b, struct dap_bp *bp,
                       const char *event, char **why)
{
    struct dap *d = b->d;
    struct registry *reg = session_registry(d->in->session);
    const struct registry_event *e =
        reg != NULL ? registry_event_by_name(reg, event) : NULL;
    char *name = xasprintf("dap-log-%d", bp->id);
    char *code = log_code(bp->log, e), *out = NULL;
    const char *words[] = {"handler", "add", event, name, code, "-nostop",
                           "-if", bp->cond};
    int rc = dap_command(d, &out, bp->cond != NULL ? 8 : 6, words);

    free(code);
    if (rc != TCL_OK) {
        *why = trimmed(out);
        free(out);
        free(name);
        return -1;
    }
    free(out);
    bp->handlers = xreallocarray(bp->handlers, bp->nhandlers + 2,
                                 sizeof *bp->handlers);
    bp->handlers[bp->nhandlers++] = xstrdup(event);
    bp->handlers[bp->nhandlers++] = name;
    return 0;
}

/* Set BP for EVENT: a handler for a log point that stops nowhere, else
 * a breakpoint. */
static int set_on(struct dap_breaks *b, struct dap_bp *bp, const char *event,
                  char **why)
{
    if (bp->log != NULL && !bp->at_line && bp->every == 0 &&
        bp->after == 0 && bp->count == 0)
        return add_handler(b, bp, event, why);
    return add_break(b, bp, event, why);
}

static struct dap_bp *bp_new(struct dap_breaks *b, enum bp_kind kind,
                             json_t *spec, char **why)
{
    struct dap_bp *bp = xcalloc(1, sizeof *bp);
    const char *cond = dap_arg_str(spec, "condition");
    const char *hit = dap_arg_str(spec, "hitCondition");
    const char *log = dap_arg_str(spec, "logMessage");

    bp->id = b->next_id++;
    bp->kind = kind;
    if (cond != NULL && *cond != '\0')
        bp->cond = xstrdup(cond);
    if (log != NULL && *log != '\0')
        bp->log = xstrdup(log);
    if (hit != NULL && hit_condition(hit, bp, why) != 0) {
        set_message(bp, 0, *why);
        *why = NULL;
    }
    return bp;
}

static json_t *bp_json(struct dap *d, const struct dap_bp *bp)
{
    json_t *j = json_object();

    json_object_set_new(j, "id", json_integer(bp->id));
    json_object_set_new(j, "verified", json_boolean(bp->verified));
    if (bp->message != NULL)
        json_object_set_new(j, "message", dap_jstr(bp->message));
    if (bp->kind == BP_LINE) {
        json_object_set_new(j, "line",
                            json_integer(bp->line - !d->lines_at1));
        json_object_set_new(j, "source",
                            json_pack("{s:o}", "path", dap_jstr(bp->path)));
    }
    return j;
}

static void add_bp(struct dap_breaks *b, struct dap_bp *bp)
{
    b->bps = xgrow(b->bps, b->n, &b->cap, sizeof *b->bps);
    b->bps[b->n++] = bp;
}

/* Forget the breakpoints for which DROP says so. */
static void drop_bps(struct dap_breaks *b,
                     int (*drop)(const struct dap_bp *bp, const char *path),
                     const char *path)
{
    size_t i, j;

    for (i = j = 0; i < b->n; i++) {
        if (drop(b->bps[i], path))
            bp_free(b, b->bps[i]);
        else
            b->bps[j++] = b->bps[i];
    }
    b->n = j;
}

static int is_function(const struct dap_bp *bp, const char *path)
{
    (void)path;
    return bp->kind == BP_FUNCTION;
}

static int is_in(const struct dap_bp *bp, const char *path)
{
    return bp->kind == BP_LINE && strcmp(bp->path, path) == 0;
}

/* --- requests ------------------------------------------------------------------ */

static void req_function_breakpoints(struct dap *d, json_t *req,
                                     json_t *args)
{
    struct dap_breaks *b = d->breaks;
    json_t *list = json_object_get(args, "breakpoints"), *spec, *out;
    size_t i;

    if (!json_is_array(list)) {
        dap_fail(d, req, "setFunctionBreakpoints needs \"breakpoints\", a "
                 "list");
        return;
    }
    drop_bps(b, is_function, NULL);
    out = json_array();
    json_array_foreach(list, i, spec) {
        const char *name = dap_arg_str(spec, "name");
        char *why = NULL;
        struct dap_bp *bp;

        bp = bp_new(b, BP_FUNCTION, spec, &why);
        if (name == NULL || *name == '\0') {
            set_message(bp, 0, xstrdup("a function breakpoint names an "
                                       "event (NAME or ASPECT.NAME)"));
        } else if (bp->message == NULL) {
            bp->name = xstrdup(name);
            if (set_on(b, bp, name, &why) == 0)
                set_message(bp, 1, NULL);
            else
                set_message(bp, 0, why);
        }
        add_bp(b, bp);
        json_array_append_new(out, bp_json(d, bp));
    }
    dap_respond(d, req, json_pack("{s:o}", "breakpoints", out));
}

/* The message of a line that emits no event: the events the file emits,
 * where. */
static char *no_event_here(const char *path, int line,
                           const struct dap_site *sites, size_t n)
{
    const char *base = strrchr(path, '/');
    char *text, *more;
    size_t i;

    base = base != NULL ? base + 1 : path;
    if (n == 0)
        return xasprintf("%s emits no event: noosa stops at events and "
                         "run-time errors, and at a line that emits an "
                         "event", base);
    text = xasprintf("no event is emitted at line %d of %s; it emits",
                     line, base);
    for (i = 0; i < n && i < 12; i++) {
        more = xasprintf("%s%s %s (line %d)", text, i > 0 ? "," : "",
                         sites[i].event, sites[i].line);
        free(text);
        text = more;
    }
    if (n > 12) {
        more = xasprintf("%s, and %zu more", text, n - 12);
        free(text);
        text = more;
    }
    return text;
}

/* Set line breakpoint BP: on each event its line emits. */
static void set_line(struct dap_breaks *b, struct dap_bp *bp)
{
    struct dap *d = b->d;
    const struct dap_site *sites, *all[64];
    size_t n, i, k, events = 0;
    char *why = NULL, *note = NULL;

    if (d->lines == NULL) {
        set_message(bp, 0, xstrdup("breakpoints on lines need the "
                                   "program's debug information (build "
                                   "it with -g)"));
        return;
    }
    n = dap_lines_in(d->lines, bp->path, &sites);
    for (i = 0; i < n; i++) {
        if (sites[i].line != bp->line)
            continue;
        events++;
        k = dap_lines_of(d->lines, sites[i].event, all, 64);
        bp->at_line = k > 1;
        if (bp->at_line && d->kind == DAP_REPLAY) {
            /* a recording has no stacks to tell the lines apart */
            bp->at_line = 0;
            free(note);
            note = xasprintf("a recording has no stacks: this stops "
                             "wherever %s is emitted (%zu lines)",
                             sites[i].event, k);
        }
        if (set_on(b, bp, sites[i].event, &why) != 0) {
            set_message(bp, 0, why);
            free(note);
            return;
        }
    }
    if (events == 0) {
        set_message(bp, 0, no_event_here(bp->path, bp->line, sites, n));
        return;
    }
    set_message(bp, 1, note);
}

static void req_breakpoints(struct dap *d, json_t *req, json_t *args)
{
    struct dap_breaks *b = d->breaks;
    json_t *source = json_object_get(args, "source");
    json_t *list = json_object_get(args, "breakpoints");
    json_t *lines = json_object_get(args, "lines"), *spec, *out;
    const char *path = dap_arg_str(source, "path");
    size_t i;

    if (path == NULL) {
        dap_fail(d, req, "setBreakpoints needs \"source\" with a \"path\"");
        return;
    }
    if (list != NULL && !json_is_array(list)) {
        dap_fail(d, req, "setBreakpoints: \"breakpoints\" must be a list");
        return;
    }
    drop_bps(b, is_in, path);
    out = json_array();
    if (list == NULL)
        list = lines; /* the old form: lines alone */
    json_array_foreach(list, i, spec) {
        json_t *one = json_is_integer(spec) ? json_pack("{s:O}", "line", spec)
                                            : json_incref(spec);
        char *why = NULL;
        int bad = 0;
        long long line = dap_arg_int(one, "line", -1, &bad);
        struct dap_bp *bp = bp_new(b, BP_LINE, one, &why);

        bp->path = xstrdup(path);
        bp->line = (int)line + !d->lines_at1;
        if (bad || line < 0 || line > 100000000)
            set_message(bp, 0, xstrdup("a breakpoint needs a line"));
        else if (bp->message == NULL)
            set_line(b, bp);
        add_bp(b, bp);
        json_array_append_new(out, bp_json(d, bp));
        json_decref(one);
    }
    dap_respond(d, req, json_pack("{s:o}", "breakpoints", out));
}

static void req_exception_breakpoints(struct dap *d, json_t *req,
                                      json_t *args)
{
    struct dap_breaks *b = d->breaks;
    json_t *filters = json_object_get(args, "filters");
    json_t *options = json_object_get(args, "filterOptions"), *f, *out;
    size_t i;

    if (filters != NULL && !json_is_array(filters)) {
        dap_fail(d, req, "setExceptionBreakpoints: \"filters\" must be a "
                 "list");
        return;
    }
    b->errors = b->convert = 0;
    out = json_array();
    for (int pass = 0; pass < 2; pass++) {
        json_array_foreach(pass == 0 ? filters : options, i, f) {
            const char *name = pass == 0 ? json_string_value(f)
                                         : dap_arg_str(f, "filterId");
            int known = name != NULL && (strcmp(name, "errors") == 0 ||
                                         strcmp(name, "convert") == 0);

            if (known && strcmp(name, "errors") == 0)
                b->errors = 1;
            else if (known)
                b->convert = 1;
            json_array_append_new(
                out, known ? json_pack("{s:b}", "verified", 1)
                           : json_pack("{s:b,s:s}", "verified", 0, "message",
                                       "unknown filter: noosa has errors "
                                       "and convert"));
        }
    }
    set_policy(b);
    dap_respond(d, req, json_pack("{s:o}", "breakpoints", out));
}

static void req_breakpoint_locations(struct dap *d, json_t *req,
                                     json_t *args)
{
    const char *path = dap_arg_str(json_object_get(args, "source"), "path");
    const struct dap_site *sites;
    int bad = 0;
    long long from = dap_arg_int(args, "line", -1, &bad);
    long long to = dap_arg_int(args, "endLine", from, &bad);
    json_t *out = json_array();
    size_t n, i;
    int last = -1;

    if (path == NULL || bad || from < 0) {
        json_decref(out);
        dap_fail(d, req, "breakpointLocations needs \"source\" with a "
                 "\"path\", and \"line\"");
        return;
    }
    from += !d->lines_at1;
    to += !d->lines_at1;
    n = dap_lines_in(d->lines, path, &sites);
    for (i = 0; i < n; i++) {
        if (sites[i].line < from || sites[i].line > to ||
            sites[i].line == last)
            continue;
        last = sites[i].line;
        json_array_append_new(out, json_pack("{s:i}", "line",
                                             last - !d->lines_at1));
    }
    dap_respond(d, req, json_pack("{s:o}", "breakpoints", out));
}

const struct dap_request dap_break_requests[] = {
    {"setFunctionBreakpoints", req_function_breakpoints, DAP_NEEDS_PROGRAM},
    {"setBreakpoints", req_breakpoints, DAP_NEEDS_PROGRAM},
    {"setExceptionBreakpoints", req_exception_breakpoints,
     DAP_NEEDS_PROGRAM},
    {"breakpointLocations", req_breakpoint_locations, DAP_NEEDS_PROGRAM},
    {NULL, NULL, 0}};

/* --- a stop -------------------------------------------------------------------- */

/* The client's breakpoint that noosa's breakpoint ID was made for. */
static struct dap_bp *owner(struct dap_breaks *b, int id)
{
    for (size_t i = 0; i < b->n; i++)
        for (unsigned int k = 0; k < b->bps[i]->nnoosa; k++)
            if (b->bps[i]->noosa[k] == id)
                return b->bps[i];
    return NULL;
}

static unsigned long hits_before(const struct dap_breaks *b, int id)
{
    for (size_t i = 0; i < b->nbefore; i++)
        if (b->before[i].id == id)
            return b->before[i].hits;
    return 0;
}

/* Say BP's log message at the stop: its code over the event's values. */
static void say_log(struct dap_breaks *b, struct dap_bp *bp)
{
    struct dap *d = b->d;
    char *code = log_code(bp->log, dap_stop_event(d));
    char *script = xasprintf(
        "apply {{} {foreach n_dap_k [array names ::ev] "
        "{set $n_dap_k $::ev($n_dap_k)}; %s}}", code);

    if (Tcl_EvalEx(d->in->tcl, script, -1, TCL_EVAL_GLOBAL) != TCL_OK)
        interp_error(d->in, "log point %d: %s", bp->id,
                     Tcl_GetStringResult(d->in->tcl));
    Tcl_ResetResult(d->in->tcl);
    free(script);
    free(code);
}

int dap_breaks_stopped(struct dap_breaks *b, const char *where,
                       const char **reason, json_t **ids)
{
    struct dap *d = b->d;
    struct breaks_info info;
    unsigned int i, n = breaks_count(d->in->breaks);
    int others = 0, functions = 0, lines = 0, site_known = -1, line = 0;
    int counted = 0, named;
    const char *file = NULL;
    json_t *hit = json_array();

    *reason = NULL;
    *ids = NULL;
    for (i = 0; i < n && breaks_get(d->in->breaks, i, &info); i++) {
        struct dap_bp *bp;

        if (info.hits <= hits_before(b, info.id))
            continue;
        counted = 1;
        bp = owner(b, info.id);
        if (bp == NULL) {
            others = 1; /* one of the user's own (the repl's) */
            continue;
        }
        if (bp->at_line) {
            if (site_known < 0)
                site_known = dap_vars_site(d->vars, &file, &line) == 0;
            if (site_known &&
                (line != bp->line || !dap_lines_same_file(file, bp->path)))
                continue;
            if (!guard_fires(bp->every, bp->after, bp->count, ++bp->hits))
                continue;
        }
        if (bp->log != NULL) {
            say_log(b, bp);
            continue;
        }
        json_array_append_new(hit, json_integer(bp->id));
        if (bp->kind == BP_FUNCTION)
            functions++;
        else
            lines++;
    }
    /* a move in a recording takes the hit counts back: the breakpoint
     * noosa names is the one */
    if (!counted && sscanf(where, "breakpoint %d", &named) == 1) {
        struct dap_bp *bp = owner(b, named);

        if (bp != NULL && bp->log == NULL) {
            json_array_append_new(hit, json_integer(bp->id));
            functions += bp->kind == BP_FUNCTION;
            lines += bp->kind == BP_LINE;
        }
    }
    if (json_array_size(hit) > 0) {
        *ids = hit;
        *reason = lines == 0 && functions > 0 ? "function breakpoint"
                                               : "breakpoint";
        return 1;
    }
    json_decref(hit);
    return others || strncmp(where, "breakpoint ", 11) != 0;
}
