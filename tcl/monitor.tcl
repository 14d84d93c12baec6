# SPDX-License-Identifier: MIT
#
# monitor.tcl - the global names and help of the monitor coordinator's
# commands: monitor, speed, n_monitor, n_post (implemented in C,
# src/monitor*.c).

interp alias {} ::monitor {} ::noosa::cmd::monitor
interp alias {} ::speed {} ::noosa::cmd::speed
interp alias {} ::functions {} ::noosa::cmd::functions

::noosa::defhelp monitor {monitor list|names|load|enable|disable|remove|post ...} {monitors and their events} {Monitors watch the program side by side, each getting only the events it
asked for; the program emits only what some enabled monitor wants.
  monitor list ?-all?            the monitors, on or off, and their events
                                 (-all: every consumer of the coordinator)
  monitor names                  their names, as a list
  monitor load FILE              load a monitor file (its monitors on)
  monitor enable|disable NAME    turn a monitor on or off; it is told
  monitor remove NAME            forget a Tcl monitor
  monitor post NAME ?ARG ...?    post an artificial event to the monitors
The built-in monitors are frequency-profile, time-profile and trace.
Monitor files in noosa's monitors/ directory, ~/.noosa/monitors and
$XDG_CONFIG_HOME/noosa/monitors are loaded at start-up, off.  A monitor
file defines monitors with n_monitor (see help n_monitor).}

::noosa::defhelp n_monitor {n_monitor NAME ?OPTION ...?} {define a monitor (in a monitor file)} {Define (or redefine) monitor NAME:
  -description TEXT   one line for monitor list
  -on EVENT BODY      run BODY on each EVENT of the program (NAME,
                      ASPECT.NAME or a glob pattern); its parameters are
                      variables, with n_ename, n_time, n_thread
  -post NAME BODY     run BODY on each artificial event NAME (or glob)
                      posted by another monitor; variables n_ename, n_args
                      (a list) and n_from (the monitor, "" for the user)
  -notice BODY        run BODY when the monitor is disabled or enabled;
                      n_notice is "disable" or "enable"
  -enabled BOOL       on or off to begin with (default: on, but off for
                      the files loaded at start-up)
  -stop               stop the program at its events (needed by bodies
                      that call n_send through procedures noosa cannot see)
Bodies run in the namespace ::noosa::monitor::NAME: `variable` keeps state
between events.  The program stops at an event only for bodies that need
it (n_send, n_break).}

::noosa::defhelp n_post {n_post NAME ?ARG ...?} {post an artificial event to other monitors} {Post artificial event NAME with arguments ARG ... through the coordinator
to every enabled monitor that declared -post NAME (not to the one posting
it).  Returns how many monitors received it.}

::noosa::defhelp speed {speed ?N?} {slow motion} {Deliver at most N visible events a second (a decimal number; 0, the
default, is full speed): the program waits at each visible event until
its turn, so it runs in slow motion while the trace and the monitors
show what it does.  Without N, the current rate.}

::noosa::defhelp functions {functions ?exclude|include PATTERN ...?} {functions of auto-instrumented programs} {A program compiled with -finstrument-functions and linked with libdapto
reports the entry and exit of each function as the events enter and leave
(name = the function), so the profiles, the trace, handlers and monitors
see them with no change to its source.
  functions                      functions seen in this run, exclusions
  functions exclude PATTERN ...  ignore the functions whose names match
                                 (glob patterns, as string match)
  functions include PATTERN ...  stop ignoring them
Excluded functions still cost the program a record each; exclude them at
compile time to make them free: -finstrument-functions-exclude-file-list=
FILE,..., -finstrument-functions-exclude-function-list=NAME,..., or
__attribute__((no_instrument_function)).}
