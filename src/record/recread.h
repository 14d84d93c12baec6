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

/* What to do with the recording's index (<design#recordings>). */
enum recread_index {
    RECREAD_INDEX_BUILD = 0, /* use the one beside the recording when it
                                holds, else make one (a pass over the
                                whole recording) and keep it there */
    RECREAD_INDEX_USE,       /* use it when it holds, make none (one pass
                                over the events: noosa dump) */
    RECREAD_INDEX_NONE       /* read the recording alone */
};

struct recread_opts {
    /* What could not be read, one message a problem; may be NULL. */
    void (*note)(void *arg, const char *text);
    void *arg;
    enum recread_index index;
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

/* The next item in time order: 1 with *item (valid until the next call;
 * events of the program, functions, hello, aspects, losses), 0 at the
 * end.  *seq numbers the items from 0 (the index's and the moves'
 * numbers; what the user sees is recread_event_number()'s). */
int recread_next(struct recread *r, struct reader_item *item, uint64_t *seq);

/* Event numbers <design#event-numbers>: the events of a recording, and
 * they alone (the program's events and function entries and exits, not
 * the hello, aspects or losses), are numbered 1, 2, 3 ... in the order
 * recread_next() gives them; noosa dump, goto N, the stop lines and the
 * status of a replay say these.  Whether IT is such an event; the
 * number of the event of item SEQ (of the last event before it, 0 for
 * none, when it is not one); the item of event NUMBER (UINT64_MAX: no
 * such event); how many events there are.  The first of these calls
 * finds the items that are not events with a reader of its own (R is
 * left as it was): with an index, in the few stretches that may hold
 * them; without one, in a reading of the whole recording. */
int recread_is_event(const struct reader_item *it);
uint64_t recread_event_number(struct recread *r, uint64_t seq);
uint64_t recread_event_seq(struct recread *r, uint64_t number);
uint64_t recread_events(struct recread *r);

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

/*
 * Moving (<design#recordings>).  With an index, a move reads the start
 * of a packet of each stream and at most RECINDEX_EVERY events; without
 * one, it reads from the first event.  A packet that the index calls
 * whole but is not (the recording changed since it was indexed) is said,
 * skipped, and the index made again at the next move, after which
 * numbers may have moved: recread_generation() changes.
 */
/* Make the next event given the one numbered SEQ (past the last: the
 * end). */
void recread_seek(struct recread *r, uint64_t seq);
/* Make the next event given the first at or after time NS (ns since the
 * run's start); returns its number (recread_count() at the end). */
uint64_t recread_seek_time(struct recread *r, uint64_t ns);
/* The number of the next event given. */
uint64_t recread_position(const struct recread *r);
/* The events of the recording (UINT64_MAX without an index), and the
 * time of its last (0 without an index). */
uint64_t recread_count(const struct recread *r);
uint64_t recread_last_time(const struct recread *r);
/* Whether the index holds, and its generation (see above). */
int recread_indexed(const struct recread *r);
unsigned int recread_generation(const struct recread *r);
/* The index's stretches of events by their codes (reader_code_bit();
 * READER_ITEMS_BIT for the items that are not events of the program):
 * the first event at or after FROM and before TO of a stretch that may
 * hold one of MASK, with *UNTIL the end of the stretches that may
 * (bounded by TO); TO when there is none.  Without an index every event
 * may. */
uint64_t recread_find(const struct recread *r, uint64_t from, uint64_t to,
                      uint64_t mask, uint64_t *until);
/* The same backwards: the last stretches at or after FROM and before TO
 * that may hold one of MASK, as [*START, *END); 0 when none. */
int recread_find_back(const struct recread *r, uint64_t from, uint64_t to,
                      uint64_t mask, uint64_t *start, uint64_t *end);

/* The threads (streams) of the recording: their number, and each tid. */
size_t recread_nthreads(const struct recread *r);
pid_t recread_thread(const struct recread *r, size_t i);

#endif /* NOOSA_RECREAD_H */
