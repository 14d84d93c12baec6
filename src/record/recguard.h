/* SPDX-License-Identifier: MIT */
/*
 * recguard.h - a recording's files kept readable whatever kills noosa
 * (<design#recordings>, Robustness).  A file of a recording grows by
 * whole packets (whole metadata blocks), each written with one write(),
 * but a write that SIGKILL interrupts leaves part of a packet at the end,
 * which a CTF reader (babeltrace2) refuses outright.  So the writer says
 * here how long each file is once a write is whole (its committed
 * length), in memory shared with a small process started with the
 * recording: when noosa dies, that process finds the pipe from noosa
 * closed and cuts every file to its committed length; when the recording
 * is closed, noosa cuts them itself (a write that failed half-way leaves
 * nothing either) and lets the process go.
 *
 * Not a writer of anything else: the files' contents are recwrite.c's.
 */
#ifndef NOOSA_RECGUARD_H
#define NOOSA_RECGUARD_H

#include <stdint.h>

struct recguard;

/* Start guarding the files of directory DIR: 0, or -1 with *CAUSE (the
 * recording then goes on unguarded). */
int recguard_start(struct recguard **out, const char *dir, char **cause);

/* Guard file NAME of the directory (a name, not a path), whose committed
 * length is 0 for now: its slot, or -1 when G is NULL. */
int recguard_file(struct recguard *g, const char *name);

/* File SLOT is not the recording's after all (it could not be made):
 * left alone. */
void recguard_forget(struct recguard *g, int slot);

/* File SLOT is whole up to LEN bytes (G NULL or SLOT -1: nothing). */
void recguard_commit(struct recguard *g, int slot, uint64_t len);

/* The recording is closed: cut each file to its committed length and let
 * the guarding process go.  G may be NULL. */
void recguard_stop(struct recguard *g);

/* What the guarding process does when noosa dies, given the directory
 * and the shared table's descriptors (apart for tests). */
void recguard_cut(int dirfd, int table_fd);

#endif /* NOOSA_RECGUARD_H */
