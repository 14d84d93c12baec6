# SPDX-License-Identifier: MIT
#
# profile.tcl - the profile command's global name and help.  The profiles
# themselves are C monitors (src/profile*.c).

interp alias {} ::profile {} ::noosa::cmd::profile

::noosa::defhelp profile {profile ?freq|time on|off|show|get|reset? ...} {frequency and time profiles} {Profiles built from the component stacks (enter/leave events, and the
functions of programs compiled with -finstrument-functions):
  profile                                what is on, what has been counted
  profile freq on|off|reset              count each visible event under each
                                         component stack, and the calls
  profile time on|off|reset              self and total time, calls, per
                                         component stack and thread
  profile show freq|time ?OPTION ...?    print (also: profile freq show ...)
  profile get freq|time ?OPTION ...?     the rows as a list of dicts
  profile export folded FILE ?-time|-calls|-events? ?-thread TID?
                                         folded stacks (flamegraph.pl,
                                         speedscope)
  profile export chrome FILE             the timeline as Chrome trace-event
                                         JSON (Perfetto, chrome://tracing)
  profile timeline ?N?                   enters/leaves kept for export chrome
                                         (default 1000000; 0: none)
  profile print ?on|off?                 print the profiles that are on when
                                         the program ends (default on)
  profile threads                        the thread ids of the time profile
View options:
  -tree | -flat        by component stack (freq default) or by component
                       (time default)
  -sort count|calls|self|total|name
  -thread TID|all      one thread of the time profile (default: all merged)
  -event EVENT         one event of the frequency profile
  -calls               only the calls of the frequency profile
  -limit N             at most N rows (per event for the frequency profile)
Times are in seconds; self time is spent in the component itself, total
time includes the components it called (counted once under recursion in
the flat view).}

::noosa::defhelp trace {trace ?on ?REGEX?|off?} {show every event as it happens} {Show every event (or those whose name, NAME or ASPECT.NAME, matches the
Tcl regular expression REGEX) in the transcript with its parameters:
  EVENT param="value" ...
Events that do not match are not emitted by the program for the trace.
Typed at the prompt (or as a command of a script) `trace` is noosa's; Tcl's
own trace command keeps its meaning inside procedures (noosa's is
::noosa::cmd::trace there).}
