/* SPDX-License-Identifier: MIT */
/*
 * command.h - noosa's commands as table entries.  Each area of the Tcl
 * layer (and the screen) keeps a table of its commands, one entry a
 * command with its name, aliases, argument counts, synopsis, help and
 * what its arguments complete to; command_register() makes the Tcl
 * commands from it.  Help, completion and the top-level meaning of names
 * Tcl already has all come from the registered entries
 * (<design#commands>).
 */
#ifndef NOOSA_COMMAND_H
#define NOOSA_COMMAND_H

#include <tcl.h>

struct interp;

/* What the arguments of a command complete to on the screen's command
 * line. */
enum command_complete {
    COMMAND_COMPLETE_FILE,       /* file names (the default) */
    COMMAND_COMPLETE_NONE,       /* nothing */
    COMMAND_COMPLETE_EVENT,      /* an event, as first argument */
    COMMAND_COMPLETE_OPERATION,  /* an operation, as first argument */
    COMMAND_COMPLETE_BREAKPOINT, /* breakpoint numbers */
    COMMAND_COMPLETE_COMMAND,    /* a command name, as first argument */
    COMMAND_COMPLETE_HANDLER,    /* handler subcommands, events, handlers */
    COMMAND_COMPLETE_SUBCOMMAND, /* its subcommands (entries "NAME SUB"
                                  * and the words of .subcommands), as
                                  * first argument */
    COMMAND_COMPLETE_SCREEN      /* the subcommands of screen */
};

/* Flags of an entry. */
#define COMMAND_API 0x1    /* a procedure of the API (n_...): its own name,
                            * not ::noosa::cmd::NAME, and not in noosa(1) */
#define COMMAND_HIDDEN 0x4 /* left out of help's list and completion */
#define COMMAND_SCRIPT 0x8 /* help only, for a command Tcl code defines
                            * (::noosa::defhelp): no procedure */
#define COMMAND_RAW 0x10   /* at the top level, what follows the name is
                            * an expression in C, taken as typed (no Tcl
                            * substitution of its [ ] and $), and NAME/FMT
                            * gives the format (print/x a[i]) */
#define COMMAND_CONDITION 0x20 /* takes a condition after "if" or "-if":
                                * at the prompt, one left unbraced is
                                * refused where Tcl would substitute it
                                * wrongly (interp_script) */
#define COMMAND_GDB_ERRORS 0x40 /* its errors are gdb's messages, worded
                                 * as gdb words them (No symbol "x" in
                                 * current context.): the command's name
                                 * is not put in front of them */

/* An entry named "PARENT SUB" (two words) is a subcommand of PARENT: no
 * Tcl command of its own; PARENT's procedure hands it its words through
 * command_subcommand(), with objv[0] the subcommand's word.  An entry
 * with INSTEAD and no procedure is a word users of other debuggers type
 * that noosa has no command for (a gdb word): it answers with one line,
 * "NAME: INSTEAD", as an error, and is left out of help's list and of
 * completion.  An entry with a procedure registered under the name of
 * such an entry, before or after it, replaces it, so a command that comes
 * to work is its entry alone (<design#commands>). */
struct command {
    const char *name;
    const char *const *aliases; /* NULL-terminated, or NULL */
    int min_args, max_args;     /* argument counts; max -1: any */
    const char *usage;          /* synopsis, "break EVENT ?if CONDITION?" */
    const char *summary;        /* a few words for the list of commands */
    const char *help;           /* the text of help NAME */
    enum command_complete complete;
    int flags;                  /* COMMAND_API, COMMAND_HIDDEN, ... */
    Tcl_ObjCmdProc *proc;
    const char *instead;        /* without proc: what to use instead */
    /* NULL-terminated, or NULL: "SUB ARG ..." for each subcommand SUB
     * handled by the procedure itself, what its first argument completes
     * to: words, @files, @events or @monitors (for the screen). */
    const char *const *subcommands;
};

/* Register the commands of TABLE (ending with an entry whose name is
 * NULL), whose procedures get CD: ::noosa::cmd::NAME (or NAME for the
 * API), the global NAME and its aliases.  A name Tcl already has keeps
 * Tcl's meaning inside scripts and is noosa's at the top level
 * (interp_script).  The table is not copied: it must
 * outlive the interpreter. */
void command_register(struct interp *in, const struct command *table,
                      ClientData cd);

/* Give the procedure of the registered command NAME the client data CD
 * from now on (the screen's, made after its command): returns -1 if NAME
 * is not registered. */
int command_set_data(struct interp *in, const char *name, ClientData cd);

/* The entry of NAME or of an alias of NAME, or NULL.  A name in
 * ::noosa::cmd is found by its last part. */
const struct command *command_find(struct interp *in, const char *name);

/* Whether WORD, first word of a top-level command, means noosa's command
 * rather than Tcl's of the same name. */
int command_toplevel(struct interp *in, const char *word);

/* For the procedure of PARENT: run its subcommand OBJV[1] (a registered
 * entry "PARENT SUB", or a unique prefix of a subcommand that is not
 * hidden) with OBJC - 1 words from OBJV + 1, after checking their count
 * against the entry.  An unknown or ambiguous word is an error listing
 * PARENT's subcommands, followed by HINT when not NULL. */
int command_subcommand(struct interp *in, const char *parent,
                       Tcl_Interp *tcl, int objc, Tcl_Obj *const objv[],
                       const char *hint);

/* Whether C is a subcommand entry ("PARENT SUB"). */
int command_is_sub(const struct command *c);

/* Whether C is left out of help's list and of completion: hidden, or a
 * word that only says what to use instead. */
int command_unlisted(const struct command *c);

/* The words of the subcommands of PARENT that are not hidden, in name
 * order, as a Tcl list (with the words of PARENT's .subcommands). */
Tcl_Obj *command_subwords(struct interp *in, const char *parent);

/* Whether WORD (or WORD/FMT), first word of a line typed at the top
 * level, is a command that takes the rest of the line as typed
 * (COMMAND_RAW): the entry, or NULL. */
const struct command *command_raw(struct interp *in, const char *word,
                                  size_t len);

/* The registered entries, in name order, and how many: valid until the
 * next command_register(). */
const struct command *const *command_all(struct interp *in, size_t *n);

/* The commands of the Tcl layer itself (help, ::noosa::commands,
 * ::noosa::defhelp). */
void command_init(struct interp *in);

/* Free the registry of IN's commands. */
void command_free(struct interp *in);

#endif /* NOOSA_COMMAND_H */
