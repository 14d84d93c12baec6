/* SPDX-License-Identifier: MIT */
/*
 * monitor-speed.c - slow motion (Eve's speed slider):
 *
 *     speed ?N?     deliver at most N visible events a second; 0 (the
 *                   default) is full speed; without N, the current rate
 *
 * While the rate is not zero the coordinator makes every visible event
 * stop the program (so that the program, not only the monitor, slows
 * down), and this consumer holds the program at each visible event until
 * the event's slot comes, 1/N s after the previous one's.  It is told
 * after noosa's built-in consumers, so a trace shows the event while the
 * program waits.  The wait blocks noosa (its loop is not re-entered from
 * a delivery) for at most 1/N s an event: below one event a second the
 * screen answers slowly.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dapto.h"
#include "command.h"
#include "interp.h"
#include "monitor.h"
#include "xmalloc.h"

/* Slow motion is for eyes: beyond this many events a second, a rate
 * means nothing. */
#define SPEED_MAX 1000000

struct speed {
    struct interp *in;
    struct consumer *c;
    double rate;     /* visible events a second; 0: full speed */
    int64_t next_ns; /* CLOCK_MONOTONIC time of the next event's slot */
};

static int64_t now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static unsigned char want(void *arg, const struct registry_event *ev)
{
    struct speed *s = arg;

    return s->rate > 0 && ev->visible
               ? DAPTO_STATE_RECORD | DAPTO_STATE_STOP
               : 0;
}

static void deliver(void *arg, struct dispatch_event *de)
{
    struct speed *s = arg;
    int64_t now = now_ns(), gap;
    struct timespec ts;

    if (s->rate <= 0 || !de->event->visible)
        return;
    gap = (int64_t)(1e9 / s->rate);
    if (s->next_ns > now) {
        int64_t wait = s->next_ns - now;

        ts.tv_sec = (time_t)(wait / 1000000000);
        ts.tv_nsec = (long)(wait % 1000000000);
        while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
            ;
        now = s->next_ns;
    }
    s->next_ns = now + gap;
}

static const struct consumer_ops speed_ops = {
    .name = "speed",
    .want = want,
    .deliver = deliver,
};

static int cmd_speed(ClientData cd, Tcl_Interp *tcl, int objc,
                     Tcl_Obj *const objv[])
{
    struct speed *s = cd;
    double rate;

    if (objc > 2) {
        Tcl_SetObjResult(tcl, Tcl_NewStringObj(
            "wrong # args: should be \"speed ?EVENTS-PER-SECOND?\"", -1));
        return TCL_ERROR;
    }
    if (objc == 1) {
        Tcl_SetObjResult(tcl, Tcl_NewDoubleObj(s->rate));
        return TCL_OK;
    }
    if (Tcl_GetDoubleFromObj(NULL, objv[1], &rate) != TCL_OK || rate < 0 ||
        rate != rate || rate > SPEED_MAX) {
        Tcl_SetObjResult(tcl, Tcl_ObjPrintf(
            "speed: bad rate \"%s\": should be visible events a second, "
            "from 0 (full speed) to %d", Tcl_GetString(objv[1]), SPEED_MAX));
        return TCL_ERROR;
    }
    s->rate = rate;
    s->next_ns = 0;
    dispatch_enable(s->in->dispatch, s->c, rate > 0);
    dispatch_changed(s->in->dispatch);
    return TCL_OK;
}

struct speed *speed_create(struct interp *in)
{
    struct speed *s = xcalloc(1, sizeof *s);

    s->in = in;
    s->c = dispatch_add(in->dispatch, &speed_ops, s);
    dispatch_enable(in->dispatch, s->c, 0);
    return s;
}

void speed_free(struct speed *s)
{
    free(s);
}

static const struct command commands[] = {
    {.name = "speed",
     .max_args = -1,
     .usage = "speed ?N?",
     .summary = "slow motion",
     .help = "Deliver at most N visible events a second (a decimal number; 0, the\n"
            "default, is full speed): the program waits at each visible event until\n"
            "its turn, so it runs in slow motion while the trace and the monitors\n"
            "show what it does.  Without N, the current rate.",
     .complete = COMMAND_COMPLETE_NONE,
     .proc = cmd_speed},
    {0}};

void speed_init_commands(struct speed *s)
{
    command_register(s->in, commands, s);
}
