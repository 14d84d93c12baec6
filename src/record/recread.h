/* SPDX-License-Identifier: MIT */
/*
 * recread.h - reading a recording <design#recordings>: the version check,
 * the program's interface rebuilt from the aspect descriptions it holds,
 * and its events in time order as the items of a live run (reader.h), so
 * that whatever consumes a live channel's items consumes a recording's.
 *
 * Nothing a recording holds is trusted: every packet is checked (magic,
 * sizes, its check sum) and every event decoded against the bounds of its
 * packet; what cannot be read is said through the note hook, once per
 * problem, and skipped: a packet cut short at the end of a stream (a
 * recording whose writer died), a corrupt packet, an event of a class
 * this noosa does not know (the rest of its packet).
 */
#ifndef NOOSA_RECREAD_H
#define NOOSA_RECREAD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "reader.h"
#include "registry.h"

struct recread;

struct recread_opts {
    /* What could not be read, one message a problem; may be NULL. */
    void (*note)(void *arg, const char *text);
    void *arg;
};

/* Open the recording in DIR: -1 with *cause when DIR is missing, is not a
 * recording, or is of a newer major or median version (both named). */
int recread_open(struct recread **out, const char *dir,
                 const struct recread_opts *opts, char **cause);
void recread_free(struct recread *r);

/* Whether DIR looks like a recording (it holds the metadata). */
int recread_is_recording(const char *dir);

/* The program's interface, as the recording has it. */
struct registry *recread_registry(const struct recread *r);

/* The format's version of the file ("MAJOR.MEDIAN.MINOR"), a value of
 * its env block (a string, unquoted; NULL when absent), the program's
 * pid, how it ended (1 with *status, or *signo > 0; 0 when the recording
 * does not say), and the losses it counts. */
const char *recread_version(const struct recread *r);
const char *recread_env(struct recread *r, const char *key);
pid_t recread_pid(const struct recread *r);
int recread_ended(const struct recread *r, int *status, int *signo);
uint64_t recread_lost(const struct recread *r);
/* Events a flight recorder let go before the ones it kept. */
uint64_t recread_dropped(const struct recread *r);

/* The name of the function at ADDR of an -finstrument-functions record,
 * as the recorder found it, or NULL. */
const char *recread_function(const struct recread *r, uint64_t addr);

/* The name of the function of the item recread_next() gave last, when
 * it is a function's entry or exit (cheaper than by its address). */
const char *recread_item_function(const struct recread *r, uint32_t *len);

/* Event numbers <design#event-numbers>: the events of a recording, and
 * they alone (the program's events and function entries and exits, not
 * the hello, aspects, names or losses), are numbered 1, 2, 3 ... in the
 * order recread_next() gives them (time order across threads).  noosa
 * dump prints these numbers, goto N and the stop lines of a replay use
 * them; this reader is the one place that counts them. */

/* The next item in time order: 1 with *item (valid until the next call;
 * events of the program, functions, hello, aspects, losses), 0 at the
 * end.  *seq: an event's number; for another item, the number of the
 * event before it (0: none). */
int recread_next(struct recread *r, struct reader_item *item, uint64_t *seq);

/* Back to the start, then past the first N events (so that the next one
 * given is event N + 1): how many were there (< N: the recording has no
 * more). */
uint64_t recread_skip(struct recread *r, uint64_t n);

/* The entries and exits of functions that come next, without items:
 * -finstrument-functions records and the built-in enter and leave, each
 * as the built-in enter or leave with its name (stable while R lives),
 * in the order recread_next() gives them, up to MAX into FNS.  Returns
 * how many (0 when the next event is not one, or the recording has no
 * built-in enter and leave: recread_next() takes it), with *seq (may be
 * NULL) the number of the first. */
unsigned int recread_functions(struct recread *r, struct reader_fn *fns,
                               unsigned int max, uint64_t *seq);

/* The events of the program that come next and that COUNTED names (a
 * table by code of LIMIT codes, as dispatch_counted() gives it), without
 * items: which, whose, when, in the order recread_next() gives them, up
 * to MAX into EVS.  Returns how many (0 when the next event is not one),
 * with *seq (may be NULL) the number of the first. */
unsigned int recread_counts(struct recread *r, const unsigned char *counted,
                            unsigned int limit, struct reader_ev *evs,
                            unsigned int max, uint64_t *seq);

/* Back to the first event. */
void recread_rewind(struct recread *r);

/* The threads (streams) of the recording: their number, and each tid. */
size_t recread_nthreads(const struct recread *r);
pid_t recread_thread(const struct recread *r, size_t i);

#endif /* NOOSA_RECREAD_H */
