/* SPDX-License-Identifier: MIT */
/*
 * noosa-int.h - what the files of the composition root share: noosa.c
 * (the session's parts, wired, and its hooks) and noosa-replay.c (a
 * recording as the session's source, and the moves in it).  Not for
 * anyone else; see noosa.h.
 */
#ifndef NOOSA_NOOSA_INT_H
#define NOOSA_NOOSA_INT_H

#include <stdint.h>

#include "noosa.h"

/* noosa.c */
/* The program's interface grew: tell the client. */
void noosa_interface_changed(struct noosa *n);

/* noosa-replay.c */
/* Open the recording of opts.replay as the session's source: -1 with
 * *cause when it cannot be read. */
int noosa_replay_open(struct noosa *n, char **cause);
/* The session's quiet hook (session.h). */
uint64_t noosa_replay_quiet(void *arg, int on);

#endif /* NOOSA_NOOSA_INT_H */
