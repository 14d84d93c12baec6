/* SPDX-License-Identifier: MIT */
/*
 * screen-rl.c - the command line: GNU readline through its callback
 * interface.  Readline never touches the terminal: its input is the
 * bytes of the keys the screen hands it (rl_getc_function), its output
 * goes to /dev/null, its redisplay only tells the screen to draw the
 * line, its terminal preparation and signal handling are off, and the
 * completions it lists go to the transcript.  So curses owns the
 * terminal alone, and ~/.inputrc (application name "noosa") still
 * applies, with Emacs or vi editing.
 *
 * The same readline reads the prompts of the screen (a search pattern, a
 * handler's name, a file): the command line being typed is put aside and
 * given back after.  A line is acted on after readline returns, never
 * from inside its callback.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "breaks.h"
#include "command.h"
#include "interp.h"
#include "screen.h"
#include "xmalloc.h"

#define PROMPT "(noosa) "
#define PROMPT_MORE "> "
#define HISTORY_LINES 1000

/* Readline's callbacks take no argument: the screen they serve, and the
 * bytes waiting for rl_getc_function.  Set by screen_rl_init(); one
 * screen a process. */
static struct screen *rl_screen;
static char rl_bytes[32];
static size_t rl_nbytes, rl_at;
static FILE *rl_null;
/* A line readline finished, waiting to be acted on. */
static int rl_done_line;
static char *rl_got;
static enum screen_prompt rl_got_what;
/* The prompt shown on the command line (readline keeps a pointer). */
static char *rl_prompt_text;

/* Completion candidates. */
static char **rl_cands;
static size_t rl_ncands, rl_cand_cap;

static int rl_getc_bytes(FILE *f)
{
    (void)f;
    if (rl_at < rl_nbytes)
        return (unsigned char)rl_bytes[rl_at++];
    return EOF;
}

static int rl_available(void)
{
    return rl_at < rl_nbytes;
}

static void rl_redisplay_hook(void)
{
    if (rl_screen != NULL)
        rl_screen->dirty = 1;
}

static void rl_prep(int meta)
{
    (void)meta; /* curses owns the terminal's modes */
}

static void rl_deprep(void)
{
}

static void rl_line(char *line)
{
    rl_done_line = 1;
    rl_got = line;
    rl_got_what = rl_screen->prompt;
}

static void install(const char *prompt)
{
    free(rl_prompt_text);
    rl_prompt_text = xstrdup(prompt);
    rl_callback_handler_install(rl_prompt_text, rl_line);
}

/* Back from a prompt to the command line as it was. */
static void back_to_command(struct screen *s)
{
    rl_callback_handler_remove();
    s->prompt = SCREEN_PROMPT_COMMAND;
    install(Tcl_DStringLength(&s->pending) > 0 ? PROMPT_MORE : PROMPT);
    rl_replace_line(s->saved_line != NULL ? s->saved_line : "", 0);
    rl_point = s->saved_point <= rl_end ? s->saved_point : rl_end;
    free(s->saved_line);
    s->saved_line = NULL;
    s->dirty = 1;
}

void screen_rl_prompt(struct screen *s, enum screen_prompt what,
                      const char *prompt, const char *initial)
{
    if (s->prompt != SCREEN_PROMPT_COMMAND)
        back_to_command(s);
    free(s->saved_line);
    s->saved_line = xstrdup(rl_line_buffer != NULL ? rl_line_buffer : "");
    s->saved_point = rl_point;
    rl_callback_handler_remove();
    s->prompt = what;
    install(prompt);
    rl_replace_line(initial, 0);
    rl_point = rl_end;
    s->dirty = 1;
}

void screen_rl_cancel(struct screen *s)
{
    if (s->prompt != SCREEN_PROMPT_COMMAND)
        back_to_command(s);
}

void screen_rl_clear(struct screen *s)
{
    Tcl_DStringSetLength(&s->pending, 0);
    rl_replace_line("", 0);
    rl_point = 0;
    screen_rl_continue(s, 0);
    s->dirty = 1;
}

void screen_rl_continue(struct screen *s, int on)
{
    free(rl_prompt_text);
    rl_prompt_text = xstrdup(on ? PROMPT_MORE : PROMPT);
    rl_set_prompt(rl_prompt_text);
    s->dirty = 1;
}

void screen_rl_key(struct screen *s, const struct ui_key *k)
{
    rl_nbytes = ui_keys_bytes(k, rl_bytes, sizeof rl_bytes);
    rl_at = 0;
    while (rl_at < rl_nbytes) {
        rl_callback_read_char();
        if (rl_done_line) {
            enum screen_prompt what = rl_got_what;
            char *line = rl_got;

            rl_done_line = 0;
            rl_got = NULL;
            if (what != SCREEN_PROMPT_COMMAND)
                back_to_command(s);
            screen_line(s, what, line);
            free(line);
        }
    }
    rl_nbytes = rl_at = 0;
    s->dirty = 1;
}

const char *screen_rl_prompt_text(void)
{
    return rl_display_prompt != NULL ? rl_display_prompt : "";
}

const char *screen_rl_line(int *point)
{
    *point = rl_point;
    return rl_line_buffer != NULL ? rl_line_buffer : "";
}

int screen_rl_vi_command(void)
{
    return rl_editing_mode == 0 && rl_get_keymap() == vi_movement_keymap;
}

int screen_rl_set_mode(const char *mode)
{
    if (strcmp(mode, "emacs") != 0 && strcmp(mode, "vi") != 0)
        return 0;
    rl_variable_bind("editing-mode", mode);
    return 1;
}

const char *screen_rl_mode(void)
{
    return rl_editing_mode == 0 ? "vi" : "emacs";
}

/* History. */

/* The history file: $XDG_STATE_HOME/noosa/history when XDG_STATE_HOME is
 * set, else ~/.noosa_history; NULL without either. */
static char *history_path(void)
{
    const char *xdg = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
    char *dir, *path;

    if (xdg != NULL && *xdg != '\0') {
        /* the base directory may not exist yet either */
        if (mkdir(xdg, 0700) != 0 && errno != EEXIST)
            return NULL;
        dir = xasprintf("%s/noosa", xdg);
        if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
            free(dir);
            return NULL;
        }
        path = xasprintf("%s/history", dir);
        free(dir);
        return path;
    }
    if (home != NULL && *home != '\0')
        return xasprintf("%s/.noosa_history", home);
    return NULL;
}

void screen_rl_history_add(struct screen *s, const char *line)
{
    HIST_ENTRY *last = history_length > 0 ? history_get(history_base +
                                                        history_length - 1)
                                          : NULL;

    if (last != NULL && strcmp(last->line, line) == 0)
        return;
    add_history(line);
    if (s->history == NULL)
        return;
    if (append_history(1, s->history) != 0)
        write_history(s->history); /* the file did not exist yet */
}

/* Completion. */

static void cand_clear(void)
{
    size_t i;

    for (i = 0; i < rl_ncands; i++)
        free(rl_cands[i]);
    rl_ncands = 0;
}

static void cand_add(const char *c)
{
    rl_cands = xgrow(rl_cands, rl_ncands, &rl_cand_cap, sizeof *rl_cands);
    rl_cands[rl_ncands++] = xstrdup(c);
}

/* The elements of the Tcl list SCRIPT evaluates to (element INDEX of
 * each when INDEX >= 0). */
static void cand_tcl(const char *script, int index)
{
    Tcl_Interp *tcl = rl_screen->in->tcl;
    Tcl_Obj **v, *e;
    int n, i;

    if (Tcl_EvalEx(tcl, script, -1, TCL_EVAL_GLOBAL) == TCL_OK &&
        Tcl_ListObjGetElements(NULL, Tcl_GetObjResult(tcl), &n, &v) ==
            TCL_OK) {
        Tcl_IncrRefCount(Tcl_GetObjResult(tcl));
        for (i = 0; i < n; i++) {
            if (index < 0)
                cand_add(Tcl_GetString(v[i]));
            else if (Tcl_ListObjIndex(NULL, v[i], index, &e) == TCL_OK &&
                     e != NULL)
                cand_add(Tcl_GetString(e));
        }
        Tcl_DecrRefCount(Tcl_GetObjResult(tcl));
    }
    Tcl_ResetResult(tcl);
}

/* The elements of the Tcl list L (a new object, freed here). */
static void cand_list(Tcl_Obj *l)
{
    Tcl_Obj **v;
    int n, i;

    Tcl_IncrRefCount(l);
    if (Tcl_ListObjGetElements(NULL, l, &n, &v) == TCL_OK) {
        for (i = 0; i < n; i++)
            cand_add(Tcl_GetString(v[i]));
    }
    Tcl_DecrRefCount(l);
}

static void cand_events(void)
{
    struct registry *reg = session_registry(rl_screen->in->session);
    unsigned int i, j;

    for (i = 0; reg != NULL && i < registry_naspects(reg); i++) {
        struct registry_aspect *a = registry_aspect_at(reg, i);

        for (j = 0; j < a->nevents; j++)
            cand_add(a->events[j].name);
    }
}

static void cand_ops(void)
{
    struct registry *reg = session_registry(rl_screen->in->session);
    unsigned int i, j;

    for (i = 0; reg != NULL && i < registry_naspects(reg); i++) {
        struct registry_aspect *a = registry_aspect_at(reg, i);

        for (j = 0; j < a->nops; j++)
            cand_add(a->ops[j].name);
    }
}

static void cand_words(const char *const *words)
{
    for (; *words != NULL; words++)
        cand_add(*words);
}

static void cand_handlers(const char *event)
{
    Tcl_Obj *cmd = Tcl_NewListObj(0, NULL);
    Tcl_Obj *w[3];

    w[0] = Tcl_NewStringObj("::noosa::cmd::handler", -1);
    w[1] = Tcl_NewStringObj("get", -1);
    w[2] = Tcl_NewStringObj(event, -1);
    Tcl_ListObjReplace(NULL, cmd, 0, 0, 3, w);
    Tcl_IncrRefCount(cmd);
    cand_tcl(Tcl_GetString(cmd), 1);
    Tcl_DecrRefCount(cmd);
}

static void cand_breakpoints(void)
{
    struct breaks_info info;
    unsigned int i;
    char id[16];

    for (i = 0; breaks_get(rl_screen->in->breaks, i, &info); i++) {
        snprintf(id, sizeof id, "%d", info.id);
        cand_add(id);
    }
}

static char *cand_next(const char *text, int state)
{
    static size_t i, len;

    if (state == 0) {
        i = 0;
        len = strlen(text);
    }
    while (i < rl_ncands) {
        const char *c = rl_cands[i++];

        if (strncmp(c, text, len) == 0)
            return strdup(c);
    }
    return NULL;
}

static const char *const handler_subs[] = {
    "add", "remove", "list", "save", "load", "enable", "disable", "rename",
    "body", "get", NULL};

/* The names and aliases of the registered commands (command.h) that are
 * not hidden. */
static void cand_commands(void)
{
    size_t i, j, n;
    const struct command *const *all = command_all(rl_screen->in, &n);

    for (i = 0; i < n; i++) {
        if (command_unlisted(all[i]) || command_is_sub(all[i]))
            continue;
        cand_add(all[i]->name);
        for (j = 0; all[i]->aliases != NULL && all[i]->aliases[j] != NULL;
             j++)
            cand_add(all[i]->aliases[j]);
    }
}

/* Words of handler's arguments: its subcommands, then events, then the
 * event's handlers; files to load and save to. */
static int cand_handler(const char *const *w, int word)
{
    const char *sub = w[1];

    if (word == 1) {
        cand_words(handler_subs);
        return 1;
    }
    if (strcmp(sub, "load") == 0 || (strcmp(sub, "save") == 0 && word == 2))
        return 0; /* files */
    if (word == 2 || (strcmp(sub, "save") == 0 && word == 3)) {
        cand_events();
        return 1;
    }
    if (word == 3 && strcmp(sub, "add") != 0 && strcmp(sub, "list") != 0 &&
        strcmp(sub, "get") != 0)
        cand_handlers(w[2]);
    return 1;
}

static int cand_entry(const struct command *c, const char *const *w,
                      int word);

/* The argument WORD (2: the first after it) of subcommand SUB of C, as
 * C's .subcommands says ("SUB ARG ..."): words, or @files (0: file
 * names), @events, @monitors; nothing past the first argument. */
static int cand_subwords(const struct command *c, const char *sub, int word)
{
    size_t i, len = strlen(sub);
    int files = 0;

    for (i = 0; c->subcommands != NULL && c->subcommands[i] != NULL; i++) {
        const char *e = c->subcommands[i], *p;

        if (strncmp(e, sub, len) != 0 || (e[len] != ' ' && e[len] != '\0'))
            continue;
        if (word != 2)
            return 1;
        for (p = e + len; *p != '\0';) {
            size_t n;
            char *one;

            p += strspn(p, " ");
            n = strcspn(p, " ");
            if (n == 0)
                break;
            one = xstrndup(p, n);
            if (strcmp(one, "@files") == 0)
                files = 1;
            else if (strcmp(one, "@events") == 0)
                cand_events();
            else if (strcmp(one, "@monitors") == 0)
                cand_tcl("::noosa::cmd::monitor names", -1);
            else
                cand_add(one);
            free(one);
            p += n;
        }
        return !files;
    }
    return 1;
}

/* A variable of a condition ("$..."), in a command that takes one
 * (COMMAND_CONDITION) whose words W (N of them) are before it: the
 * parameters of the event the words name (of every event when none
 * does, for the trace), and what every event gives, each with its $.
 * 0 when the command takes no condition. */
static int cand_condition(const char *const *w, int n)
{
    static const char *const always[] = {"$n_ename", "$n_time", "$n_thread",
                                         "$n_pid", NULL};
    struct registry *reg = session_registry(rl_screen->in->session);
    const struct command *c = command_find(rl_screen->in, w[0]);
    const struct registry_event *ev = NULL;
    unsigned int i, j, k;
    int k2;

    if (c == NULL || !(c->flags & COMMAND_CONDITION))
        return 0;
    for (k2 = 1; reg != NULL && ev == NULL && k2 < n; k2++)
        ev = registry_event_by_name(reg, w[k2]);
    for (i = 0; reg != NULL && i < registry_naspects(reg); i++) {
        struct registry_aspect *a = registry_aspect_at(reg, i);

        for (j = 0; j < a->nevents; j++) {
            const struct registry_event *e = &a->events[j];

            if (ev != NULL && e != ev)
                continue;
            for (k = 0; k < e->nparams; k++) {
                char *v = xasprintf("$%s", e->params[k].name);
                size_t m;

                for (m = 0; m < rl_ncands && strcmp(rl_cands[m], v) != 0; m++)
                    ;
                if (m == rl_ncands)
                    cand_add(v);
                free(v);
            }
        }
    }
    cand_words(always);
    return 1;
}

/* Candidates for word WORD (0 for the command) after the words W: the
 * commands, or what the command's entry says its arguments are; 0 for
 * file names. */
static int candidates(const char *const *w, int word)
{
    const struct command *c;

    if (word == 0) {
        cand_tcl("info commands", -1);
        cand_commands();
        return 1;
    }
    c = command_find(rl_screen->in, w[0]);
    if (c == NULL)
        return 0;
    return cand_entry(c, w, word);
}

/* Candidates for word WORD of the command of entry C, whose words are W
 * (W[0] its own). */
static int cand_entry(const struct command *c, const char *const *w,
                      int word)
{
    if (c->complete == COMMAND_COMPLETE_SUBCOMMAND && word >= 2) {
        /* the subcommand's own arguments */
        char *name = xasprintf("%s %s", c->name, w[1]);
        const struct command *sub = command_find(rl_screen->in, name);

        free(name);
        if (sub == NULL)
            return cand_subwords(c, w[1], word);
        return !command_unlisted(sub) ? cand_entry(sub, w + 1, word - 1) : 1;
    }
    if (c->max_args == 0)
        return 1;
    switch (c->complete) {
    case COMMAND_COMPLETE_FILE:
        return 0;
    case COMMAND_COMPLETE_NONE:
        return 1;
    case COMMAND_COMPLETE_EVENT:
        if (word == 1)
            cand_events();
        return 1;
    case COMMAND_COMPLETE_OPERATION:
        if (word == 1)
            cand_ops();
        return 1;
    case COMMAND_COMPLETE_BREAKPOINT:
        cand_breakpoints();
        return 1;
    case COMMAND_COMPLETE_COMMAND:
        if (word == 1)
            cand_commands();
        return 1;
    case COMMAND_COMPLETE_HANDLER:
        return cand_handler(w, word);
    case COMMAND_COMPLETE_SUBCOMMAND:
        if (word == 1)
            cand_list(command_subwords(rl_screen->in, c->name));
        return 1;
    case COMMAND_COMPLETE_SCREEN:
        if (word == 1)
            cand_words(screen_cmd_subs);
        return 1;
    }
    return 0;
}

static char **complete(const char *text, int start, int end)
{
    struct screen *s = rl_screen;
    char *before = xstrndup(rl_line_buffer, (size_t)start), *p, *tok;
    const char *words[64];
    int n = 0, files = 0;

    (void)end;
    rl_attempted_completion_over = 1;
    cand_clear();
    for (tok = strtok_r(before, " \t", &p); tok != NULL && n < 63;
         tok = strtok_r(NULL, " \t", &p))
        words[n++] = tok;
    words[n] = NULL;
    switch (s->prompt) {
    case SCREEN_PROMPT_COMMAND:
        if (text[0] == '$' && n > 0 && cand_condition(words, n))
            break;
        files = !candidates(words, n);
        break;
    case SCREEN_PROMPT_SAVE:
    case SCREEN_PROMPT_LOAD:
        files = 1;
        break;
    case SCREEN_PROMPT_BREAK:
        if (n == 0)
            cand_events();
        break;
    default:
        break;
    }
    free(before);
    if (files)
        return rl_completion_matches(text, rl_filename_completion_function);
    return rl_completion_matches(text, cand_next);
}

/* Readline's list of completions goes to the transcript, in columns. */
static void show_matches(char **matches, int n, int longest)
{
    struct screen *s = rl_screen;
    int width = s->tv.cols > 0 ? s->tv.cols : 80, per, i;
    Tcl_DString out;

    per = width / (longest + 2);
    if (per < 1)
        per = 1;
    Tcl_DStringInit(&out);
    if (transcript_partial(s->in->transcript))
        Tcl_DStringAppend(&out, "\n", 1);
    for (i = 1; i <= n; i++) {
        const char *m = matches[i];
        int pad = longest + 2 - (int)strlen(m);

        Tcl_DStringAppend(&out, m, -1);
        if (i % per == 0 || i == n)
            Tcl_DStringAppend(&out, "\n", 1);
        else
            while (pad-- > 0)
                Tcl_DStringAppend(&out, " ", 1);
    }
    transcript_append_plain(s->in->transcript, Tcl_DStringValue(&out),
                            (size_t)Tcl_DStringLength(&out));
    Tcl_DStringFree(&out);
    ui_tview_end(&s->tv);
    s->dirty = 1;
}

void screen_rl_init(struct screen *s)
{
    rl_screen = s;
    rl_readline_name = "noosa";
    rl_catch_signals = 0;
    rl_catch_sigwinch = 0;
    rl_change_environment = 0;
    rl_null = fopen("/dev/null", "w");
    rl_outstream = rl_null;
    rl_instream = stdin;
    rl_getc_function = rl_getc_bytes;
    rl_input_available_hook = rl_available;
    rl_redisplay_function = rl_redisplay_hook;
    rl_prep_term_function = rl_prep;
    rl_deprep_term_function = rl_deprep;
    rl_attempted_completion_function = complete;
    rl_completion_display_matches_hook = show_matches;
    rl_basic_word_break_characters = " \t\n\"{}[];";
    rl_completer_word_break_characters = " \t\n\"{}[];";

    using_history();
    stifle_history(HISTORY_LINES);
    s->history = history_path();
    if (s->history != NULL)
        read_history(s->history);
    s->prompt = SCREEN_PROMPT_COMMAND;
    install(PROMPT);
    /* after ~/.inputrc: readline must not ring or paste on its own */
    rl_variable_bind("bell-style", "none");
    rl_variable_bind("enable-bracketed-paste", "off");
}

void screen_rl_finish(struct screen *s)
{
    if (rl_screen == NULL)
        return;
    rl_callback_handler_remove();
    if (s->history != NULL)
        history_truncate_file(s->history, HISTORY_LINES);
    free(s->history);
    s->history = NULL;
    free(s->saved_line);
    s->saved_line = NULL;
    cand_clear();
    free(rl_cands);
    rl_cands = NULL;
    rl_cand_cap = 0;
    free(rl_prompt_text);
    rl_prompt_text = NULL;
    clear_history();
    if (rl_null != NULL)
        fclose(rl_null);
    rl_null = NULL;
    rl_outstream = NULL;
    rl_screen = NULL;
}
