/* SPDX-License-Identifier: MIT */
/*
 * reclive.h - recording a live session alongside everything else (the
 * `record' command): a consumer of the dispatcher that wants the chosen
 * events recorded and writes them to a recording (recwrite.h) or an
 * export (export.h) as they are delivered; function records take the
 * direct path when the other consumers of enter and leave allow it.
 */
#ifndef NOOSA_RECLIVE_H
#define NOOSA_RECLIVE_H

#include <stdint.h>

#include "export.h"

struct dispatch;
struct session;
struct sink;
struct reclive;

enum reclive_kind {
    RECLIVE_RECORDING, /* a recording directory */
    RECLIVE_CHROME,    /* Chrome JSON */
    RECLIVE_PERFETTO   /* Perfetto protobuf */
};

/* Record the events of session S (all, or those EVENTS names: a
 * NULL-ended list of names or ASPECT.NAME, copied) to PATH, as a consumer
 * of D; what it has to say goes to SINK.  The current run is recorded
 * from now on, or the next one; a second run ends the recording.  -1 with
 * *cause. */
int reclive_start(struct reclive **out, enum reclive_kind kind,
                  const char *path, char *const *events, struct dispatch *d,
                  struct session *s, struct sink *sink, char **cause);

/* A recording as a flight recorder: keep about the last FLIGHT bytes of
 * each thread's events (recwrite.h), written by reclive_dump() and at the
 * stop; before any event is recorded. */
void reclive_flight(struct reclive *rl, size_t flight);
/* Write what a recording holds now (a flight recorder's window). */
int reclive_dump(struct reclive *rl, char **cause);

/* Stop, write what is left and close; -1 with *cause when something
 * could not be written.  Frees RL. */
int reclive_stop(struct reclive *rl, char **cause);

/* Where it records, what, and how many events so far. */
const char *reclive_path(const struct reclive *rl);
enum reclive_kind reclive_kind(const struct reclive *rl);
uint64_t reclive_events(const struct reclive *rl);

#endif /* NOOSA_RECLIVE_H */
