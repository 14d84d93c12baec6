/* SPDX-License-Identifier: MIT */
/*
 * export.h - events written for other tools as they come, from a
 * recording or a live run: Chrome's trace JSON (streamed, any size) and
 * Perfetto's protobuf trace (TracePacket/TrackEvent, interned names, a
 * track per process and per thread) by an encoder of our own (export-perfetto.c).  Enter
 * and leave (and functions) become slices, other events instants with
 * their values.
 */
#ifndef NOOSA_EXPORT_H
#define NOOSA_EXPORT_H

#include <stdint.h>
#include <sys/types.h>

#include "reader.h"

struct recread;
struct export;

enum export_kind {
    EXPORT_CHROME,
    EXPORT_PERFETTO
};

/* Start an export of KIND to PATH for the process PID; FNAME names the
 * functions of -finstrument-functions items (NULL: addresses).  -1 with
 * *cause. */
int export_open(struct export **out, enum export_kind kind, const char *path,
                pid_t pid,
                const char *(*fname)(void *arg, uint64_t addr), void *arg,
                char **cause);
/* Write ITEM (events and functions; the rest is ignored). */
void export_item(struct export *e, const struct reader_item *item);
/* The process's pid, when it was not known at the start (before the
 * first event); or the process of the items written from now on, in a
 * run of several (each has a process track, its threads under it). */
void export_set_pid(struct export *e, pid_t pid);
/* Events written so far. */
uint64_t export_count(const struct export *e);
/* Finish and close; -1 with *cause when something could not be written. */
int export_close(struct export *e, char **cause);

/* The whole recording R, from its first event, exported to PATH; the
 * events written in *COUNT (when not NULL). */
int export_recording(struct recread *r, enum export_kind kind,
                     const char *path, uint64_t *count, char **cause);

#endif /* NOOSA_EXPORT_H */
