# SPDX-License-Identifier: MIT
#
# errors.tcl - the Tcl half of run-time error handling: the global names
# of errors, convert and bt (implemented in C in ::noosa::cmd), and their
# help.

foreach {name target} {
    errors ::noosa::cmd::errors  convert ::noosa::cmd::convert  bt ::noosa::cmd::bt
} {
    interp alias {} ::$name {} $target
}
unset name target

::noosa::defhelp errors {errors ?ask|terminate|convert ?N?|last ?N?|stacks ?on|off??} \
    {what to do at a run-time error} \
{When the program hits SIGSEGV, SIGBUS, SIGFPE, SIGILL or SIGABRT, or reports
an error with dapto_error(), it stops before the error takes effect, and
noosa shows the error, the backtrace of the faulting thread, its component
stack, the last events before it and the other threads.  What happens next
is the policy:
  errors ask          stop and let you choose (the screen's default):
                        convert   resume in the failure branch of the
                                  thread's innermost recovery point
                                  (DAPTO_TRY), or make dapto_error()
                                  return DAPTO_CONVERTED
                        continue  pass the signal to the program (its own
                                  handler runs, if it has one)
                        kill      terminate the program
  errors terminate    kill the program
  errors convert ?N?  convert the next N errors (all without N) when they
                      can be converted, then ask
  errors last ?N?     show the last N events before an error (10; 0 keeps
                      none, and costs nothing); without N, say how many
  errors stacks ?on|off?
                      keep the component stacks (from enter and leave) to
                      show them; off by default, since it has every enter
                      and leave recorded; on anyway while a profile runs
Without an argument, errors returns the policy: ask, terminate, convert,
convert N, or none.  In batch mode there is no policy until one is set:
an error then terminates the program, the transcript says so, and noosa
exits with status 1.}

::noosa::defhelp convert {convert} {convert the error the program is stopped at} \
{Convert the run-time error the program is stopped at to failure: the
faulting thread resumes in the failure branch of its innermost recovery
point (a DAPTO_TRY block, see libdapto(3)), or dapto_error() returns
DAPTO_CONVERTED to its caller.  Refused, with the reason, when the thread
is in no recovery point.  In batch mode the command returns when the
program stops again or ends.}

::noosa::defhelp bt {bt ?THREAD|all?} {backtrace of the stopped thread} \
{Print the backtrace of the stopped thread: the faulting thread at an
error, the thread that emitted the event at an event stop, the main
thread after an interrupt; or of thread THREAD, or of every thread.
Frames show the function and, with debug information, file:line; frames
inside the dapto runtime are left out at event stops and reported errors.}
