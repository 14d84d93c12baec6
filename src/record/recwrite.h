/* SPDX-License-Identifier: MIT */
/*
 * recwrite.h - writing a recording <design#recordings>: a CTF 1.8 trace
 * directory made from the items and function records of a live channel.
 * The metadata is written at once and grows by one block of event classes
 * per aspect as aspects arrive; events go into per-thread packet buffers
 * that are written whole, so that a recording cut short at any moment
 * is readable up to its last packet.  No printing: problems are *cause
 * messages.
 */
#ifndef NOOSA_RECWRITE_H
#define NOOSA_RECWRITE_H

#include <stddef.h>
#include <stdint.h>

#include "reader.h"

struct recwrite;

struct recwrite_opts {
    char *const *argv;  /* the program and its arguments (for the env) */
    int overwrite;      /* the ring may lose records (said in the env) */
    size_t flight;      /* > 0: the flight recorder: keep only about the
                           last FLIGHT bytes of each thread's events in
                           memory, written by recwrite_dump() (and at the
                           close); noosa's own stream is written as usual */
    /* The name of the function at ADDR for -finstrument-functions
     * records, or NULL; asked once per address.  May be NULL. */
    const char *(*function_name)(void *arg, uint64_t addr);
    void *arg;
};

/* Create the recording in DIR (made when missing; refused when it holds
 * anything).  -1 with *cause. */
int recwrite_open(struct recwrite **out, const char *dir,
                  const struct recwrite_opts *opts, char **cause);

/* Record ITEM (events, functions, hello, aspects, losses; the rest is
 * ignored). */
void recwrite_item(struct recwrite *w, const struct reader_item *item);

/* Record aspect A (its events' classes and its description), at time NS;
 * recwrite_item() does it for an ASPECT item. */
struct registry_aspect;
void recwrite_aspect(struct recwrite *w, const struct registry_aspect *a,
                     int64_t ns);

/* Record N function records of the direct path (channel_direct); returns
 * N (the recorder always takes them). */
/* Events of scalar values taken from the channel in a batch
 * (channel_direct_events()): written as recwrite_item() writes them. */
void recwrite_scalars(struct recwrite *w, const struct reader_scalar *evs,
                      unsigned int n);
unsigned int recwrite_functions(struct recwrite *w,
                                const struct reader_fn *fns, unsigned int n);

/* The program ended: exited with STATUS, or killed by SIGNO when > 0
 * (at the time of the last event). */
void recwrite_end(struct recwrite *w, int status, int signo);

/* Write every packet still in memory.  -1 with *cause on the first
 * failed write (which stops the recording). */
int recwrite_flush(struct recwrite *w, char **cause);

/* The flight recorder: write what each thread's window holds now, in
 * place of what an earlier dump wrote (without it: recwrite_flush()).
 * -1 with *cause. */
int recwrite_dump(struct recwrite *w, char **cause);

/* Turn the flight recorder on (FLIGHT bytes) before any event. */
void recwrite_set_flight(struct recwrite *w, size_t flight);

/* Flush (or dump), close and free.  -1 with *cause when something could not be
 * written (the recording holds what was written before). */
int recwrite_close(struct recwrite *w, char **cause);

/* Events recorded so far, and bytes written. */
uint64_t recwrite_events(const struct recwrite *w);
uint64_t recwrite_bytes(const struct recwrite *w);

#endif /* NOOSA_RECWRITE_H */
