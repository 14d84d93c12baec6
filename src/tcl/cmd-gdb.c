/* SPDX-License-Identifier: MIT */
/*
 * cmd-gdb.c - the words users of gdb type that noosa has no command for,
 * each an entry that answers with one line saying what to use instead
 * (command.h): `next: noosa goes from event to event ...`.  None does
 * anything, silently or not, and none lets Tcl answer for it (`list` and
 * `info locals` are Tcl's inside scripts only).  A word that comes to
 * work is its own entry with a procedure, in the file of its area, which
 * replaces the one here whichever is registered first; the one here
 * should then go.
 *
 * Not the place for noosa's own commands, nor for aliases of them.
 */
#include "config.h"

#include "command.h"
#include "interp.h"

#define WORDS(...) ((const char *const[]){__VA_ARGS__, NULL})

static const struct command words[] = {
    /* moving on */
    {.name = "next",
     .aliases = WORDS("n"),
     .instead = "noosa goes from event to event, not from line to line: "
                "step stops at the next event, continue at the next "
                "breakpoint"},
    {.name = "stepi",
     .aliases = WORDS("si", "nexti", "ni"),
     .instead = "noosa does not step instructions: step stops at the next "
                "event"},
    {.name = "finish",
     .aliases = WORDS("fin"),
     .instead = "noosa stops at events, not at returns: in a program built "
                "with -finstrument-functions, break leave if {$name eq "
                "\"FUNCTION\"} stops where FUNCTION returns"},
    {.name = "until",
     .aliases = WORDS("u", "advance"),
     .instead = "break EVENT if {CONDITION}, then continue, stops where "
                "CONDITION holds (in a recording, goto N goes to event N)"},
    {.name = "start",
     .aliases = WORDS("starti"),
     .instead = "step starts the program and stops at its first event"},
    {.name = "jump",
     .instead = "noosa does not move the program's pc: the program's "
                "operations (send OPERATION) are how noosa acts in it"},
    {.name = "signal",
     .instead = "noosa does not send signals: kill ends the program, "
                "errors says what happens at a fatal one"},
    /* breakpoints */
    {.name = "tbreak",
     .instead = "break EVENT ?if {CONDITION}? count 1 stops once"},
    {.name = "rbreak",
     .instead = "break takes one event, NAME or ASPECT.NAME (info events "
                "lists them)"},
    {.name = "condition",
     .instead = "a condition is given with the breakpoint: break EVENT if "
                "{CONDITION} (delete N removes the old one)"},
    {.name = "ignore",
     .instead = "break EVENT ?if {CONDITION}? after N does not stop the "
                "first N times"},
    {.name = "commands",
     .instead = "handler add EVENT NAME {CODE} runs Tcl code at every EVENT "
                "(with -stop, while the program waits)"},
    {.name = "watch",
     .aliases = WORDS("rwatch", "awatch"),
     .instead = "noosa has no watchpoints: break on the event that changes "
                "the value (break EVENT if {CONDITION})"},
    /* looking at the program */
    {.name = "list",
     .aliases = WORDS("l"),
     .instead = "noosa shows events, not source lines: info events lists "
                "the program's events, bt the file and line of each frame"},
    {.name = "output",
     .instead = "print EXPRESSION shows a value (and keeps it as $N)"},
    {.name = "call",
     .instead = "noosa never calls the program's functions: send OPERATION "
                "?ARG ...? runs one of its operations (info operations "
                "lists them)"},
    {.name = "x",
     .instead = "print/x *ADDRESS@N or print {TYPE} ADDRESS shows the "
                "program's memory"},
    {.name = "thread",
     .instead = "bt THREAD shows a thread's backtrace, bt all every "
                "thread's; an event's thread is its n_thread"},
    {.name = "disassemble",
     .instead = "noosa shows events, not instructions"},
    /* info's */
    {.name = "info registers",
     .aliases = WORDS("info all-registers"),
     .instead = "noosa shows events, not registers"},
    {.name = "info threads",
     .instead = "bt all shows every thread of the stopped program"},
    {.name = "info stack",
     .instead = "noosa's backtrace is bt (bt full: with the locals)"},
    {.name = "info source",
     .aliases = WORDS("info line", "info symbol", "info sharedlibrary"),
     .instead = "noosa shows events, not source: bt gives the file and "
                "line of each frame"},
    {.name = "info signals",
     .instead = "errors says what noosa does at a fatal signal (ask, "
                "terminate or convert)"},
    {.name = "info watchpoints",
     .instead = "noosa has no watchpoints (info breakpoints lists the "
                "breakpoints on events)"},
    {.name = "info functions",
     .instead = "functions says what noosa knows of the functions of a "
                "-finstrument-functions build"},
    {.name = "info variables",
     .aliases = WORDS("info types"),
     .instead = "print NAME and whatis NAME (ptype TYPE) show a variable "
                "and a type; info events and info operations the "
                "parameters"},
    {0}};

void cmd_gdb_init(struct interp *in)
{
    command_register(in, words, in);
}
