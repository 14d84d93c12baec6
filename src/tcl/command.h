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
    COMMAND_COMPLETE_INFO,       /* the subcommands of info */
    COMMAND_COMPLETE_SCREEN      /* the subcommands of screen */
};

/* Flags of an entry. */
#define COMMAND_API 0x1    /* a procedure of the API (n_...): its own name,
                            * not ::noosa::cmd::NAME, and not in noosa(1) */
#define COMMAND_MERGED 0x2 /* added to Tcl's command of the same name (as
                            * info's subcommands): Tcl's name keeps Tcl's
                            * meaning everywhere */
#define COMMAND_HIDDEN 0x4 /* left out of help's list and completion */
#define COMMAND_SCRIPT 0x8 /* help only, for a command Tcl code defines
                            * (::noosa::defhelp): no procedure */
#define COMMAND_RAW 0x10   /* at the top level, what follows the name is
                            * an expression in C, taken as typed (no Tcl
                            * substitution of its [ ] and $), and NAME/FMT
                            * gives the format (print/x a[i]) */

struct command {
    const char *name;
    const char *const *aliases; /* NULL-terminated, or NULL */
    int min_args, max_args;     /* argument counts; max -1: any */
    const char *usage;          /* synopsis, "break EVENT ?if CONDITION?" */
    const char *summary;        /* a few words for the list of commands */
    const char *help;           /* the text of help NAME */
    enum command_complete complete;
    int flags;                  /* COMMAND_API, COMMAND_MERGED, ... */
    Tcl_ObjCmdProc *proc;
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
