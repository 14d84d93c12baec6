/* SPDX-License-Identifier: MIT */
/*
 * monitor.h - monitors (Eve's execution monitors, under noosa's
 * coordinator, dispatch.h): the built-in ones written in C (the profiles,
 * the trace) and monitors written in Tcl, each declaring the events it
 * wants and its handlers:
 *
 *     n_monitor NAME ?-description TEXT? ?-on EVENT BODY ?-if COND? ...?
 *                    ?-post NAME BODY ...? ?-notice BODY? ?-enabled BOOL?
 *                    ?-stop?
 *
 * Each monitor is a consumer of the coordinator, so the program emits only
 * the union of what the enabled monitors want, and each event goes only to
 * the monitors that asked for it (and, for a subscription with -if, only
 * where its condition holds, evaluated in the program where it can be).  A disabled monitor gets no events and
 * is told (its -notice body runs with n_notice "disable", then "enable"
 * when it is enabled again).  Monitors post artificial events to each
 * other by name (n_post NAME ?ARG ...?); -post NAME receives them.
 *
 * Monitor files are Tcl files: the monitors/ directory of noosa's library,
 * ~/.noosa/monitors and $XDG_CONFIG_HOME/noosa/monitors are loaded at
 * start-up (their monitors disabled until `monitor enable NAME`), and
 * `monitor load FILE` loads one more (its monitors enabled).
 */
#ifndef NOOSA_MONITOR_H
#define NOOSA_MONITOR_H

struct interp;
struct consumer;
struct monitors;

struct monitors *monitors_create(struct interp *in);
void monitors_free(struct monitors *m);
void monitors_init_commands(struct monitors *m);

/* Load the monitor directories: the library's, then (unless NO_USER) the
 * user's.  Their monitors start disabled. */
void monitors_load_library(struct monitors *m, int no_user);

/* List consumer C, written in C, as a built-in monitor that `monitor
 * enable|disable` may turn on and off; SUMMARY says what it does. */
void monitors_builtin(struct monitors *m, struct consumer *c,
                      const char *summary);

/* The `functions` command (monitor-functions.c). */
void monitor_functions_init(struct interp *in);

/* Slow motion (monitor-speed.c): deliver at most RATE visible events a
 * second, the program waiting at each (0: full speed). */
struct speed;
struct speed *speed_create(struct interp *in);
void speed_free(struct speed *s);
void speed_init_commands(struct speed *s);

#endif /* NOOSA_MONITOR_H */
