/* SPDX-License-Identifier: MIT */
/*
 * test-channel.c - the channel's state and stop API on a live program
 * (tt-fake states): states are written into the program only when they
 * change, operations and resumes are refused when the program is not
 * stopped at an event, unknown codes are refused; the rate of the
 * clock's ticks does not change while the program runs.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "channel.h"
#include "dapto.h"
#include "target.h"
#include "unit.h"

int main(void)
{
    const char *top = getenv("top_builddir");
    char prog[4096], *argv[3], *env[2], *cause = NULL;
    struct channel_opts co;
    struct target_opts to;
    struct channel *ch;
    struct target *t;
    struct reader_item it;
    struct channel_result res;
    struct registry_event *e;
    const char *args[1] = {"1"};
    unsigned char b = 0;
    int fds[2], aspect = 0;
    double rate;

    snprintf(prog, sizeof prog, "%s/tests/target/tt-fake",
             top != NULL ? top : ".");
    argv[0] = prog;
    argv[1] = "states";
    argv[2] = NULL;
    memset(&co, 0, sizeof co);
    co.default_state = DAPTO_STATE_RECORD;
    CHECK(channel_create(&ch, &co, &cause) == 0);
    CHECK_EQ_INT(channel_status(ch), CHANNEL_WAITING);
    CHECK(strncmp(channel_env(ch), "DAPTO_CHANNEL=", 14) == 0);
    env[0] = (char *)channel_env(ch);
    env[1] = NULL;
    channel_fds(ch, fds);
    memset(&to, 0, sizeof to);
    to.argv = argv;
    to.env = env;
    to.fd_in = to.fd_out = to.fd_err = -1;
    to.keep_fds = fds;
    to.nkeep = 2;
    CHECK(target_start(&t, &to, &cause) == 0);
    channel_attach(ch, t);
    target_continue(t, NULL);

    for (int i = 0; i < 500 && !aspect; i++) {
        while (channel_next(ch, &it)) {
            if (it.kind == READER_ASPECT)
                aspect = 1;
        }
        channel_wait(ch, 10);
    }
    CHECK(aspect);
    CHECK_EQ_INT(channel_status(ch), CHANNEL_ACTIVE);
    CHECK(channel_runtime_version(ch) != NULL &&
          strcmp(channel_runtime_version(ch), "1.0.0") == 0);
    channel_next(ch, &it); /* sends the acknowledgement */

    /* <design#clock>: the rate of the ticks is fixed while the program
     * runs, however often the channel is read with nothing in it: the
     * times of its records and the durations it computes itself with
     * that rate (derived events, questions) stay one time base */
    rate = channel_ns_per_tick(ch);
    CHECK(rate > 0);
    for (int i = 0; i < 200; i++) {
        while (channel_next(ch, &it))
            ;
        usleep(1000);
    }
    CHECK(channel_ns_per_tick(ch) == rate);
    e = registry_event_by_name(channel_registry(ch), "ev_all");
    CHECK(e != NULL && e->code == 6);
    CHECK_EQ_INT(channel_state(ch, 6), DAPTO_STATE_RECORD);

    /* not stopped: operations and resumes are refused */
    CHECK(channel_stopped(ch) == -1);
    CHECK(channel_send(ch, -1, "get", 1, args, &res, 1000, &cause) != 0);
    CHECK(cause && strcmp(cause, "the program is not stopped at an "
                                 "event") == 0);
    CHECK(channel_resume(ch, 2, &cause) != 0);
    CHECK(cause && strstr(cause, "not stopped at an event") != NULL);
    CHECK(channel_send(ch, -1, "nosuch", 0, NULL, &res, 1000, &cause) != 0);
    CHECK(cause && strcmp(cause, "unknown operation nosuch") == 0);

    /* the program overwrites its state byte; an unchanged state is not
     * written again, a changed one is */
    if (e != NULL) {
        for (int i = 0; i < 500 && b != 0x55; i++) {
            target_read(t, e->state_addr, &b, 1, NULL);
            usleep(10000);
        }
        CHECK_EQ_INT(b, 0x55);
        CHECK(channel_set_state(ch, 6, DAPTO_STATE_RECORD, &cause) == 0);
        target_read(t, e->state_addr, &b, 1, NULL);
        CHECK_EQ_INT(b, 0x55);
        CHECK(channel_set_state(ch, 6, DAPTO_STATE_STOP | DAPTO_STATE_TRAIL,
                                &cause) == 0);
        target_read(t, e->state_addr, &b, 1, NULL);
        CHECK_EQ_INT(b, DAPTO_STATE_STOP | DAPTO_STATE_TRAIL);
        CHECK_EQ_INT(channel_state(ch, 6),
                     DAPTO_STATE_STOP | DAPTO_STATE_TRAIL);
    }
    CHECK(channel_set_state(ch, 99, DAPTO_STATE_RECORD, &cause) != 0);
    CHECK(cause && strcmp(cause, "no event with code 99") == 0);

    target_kill(t);
    target_free(t);
    channel_attach(ch, NULL);
    CHECK(channel_set_state(ch, 6, 0, &cause) != 0);
    CHECK(cause && strstr(cause, "not running") != NULL);
    channel_free(ch);
    free(cause);
    return unit_done("test-channel");
}
