/* SPDX-License-Identifier: MIT */
/*
 * channel.h - the monitor's end of the channel to a monitored program:
 * the shared region and its wake-up descriptor, the version check, the
 * interface registry, decoded records, event states, stops, operations.
 *
 * Use:
 *     channel_create(&ch, &opts, &cause);
 *     channel_env(ch, ...) into the program's environment and
 *     channel_fds(ch, ...) into its inherited descriptors;
 *     target_start(...); channel_attach(ch, target);
 *     poll loop over channel_fd(ch) (after channel_sleep_prepare() says
 *     the caller may sleep) and target_fd(): channel_next() until it
 *     returns 0, target_poll() until it returns 0.
 *
 * Items come out in ring order.  An event with item.stop >= 0 means its
 * thread waits in that mailbox until channel_resume(); meanwhile
 * channel_send() may run operations there.  Nothing in this module
 * prints; problems are items (READER_ERROR) or *cause messages.
 */
#ifndef NOOSA_CHANNEL_H
#define NOOSA_CHANNEL_H

#include <stddef.h>
#include <stdint.h>

#include "decode.h"
#include "reader.h"
#include "registry.h"

struct target;
struct channel;
struct qarea;
struct region;
struct ttrail_area;

struct channel_opts {
    uint32_t ring_size;   /* bytes, a power of two; 0 for the default */
    int overwrite;        /* flight-recorder ring: never make the program
                             wait, count losses instead */
    int no_tsc;           /* CLOCK_MONOTONIC timestamps even with a TSC */
    unsigned char default_state; /* written for each new event as its
                                    aspect arrives (DAPTO_STATE_*) */
    int thread_buffers;   /* offer each thread a buffer of its own
                             <protocol#tbuf>, of the ring's size: for a
                             caller that needs no order between the
                             events of two threads (a recording), and
                             sets no state but RECORD */
    unsigned int trail_events; /* the last events each thread's own trail
                                  holds <protocol#ttrail>; 0: the
                                  default (15) */
};

/* Where the channel stands. */
enum channel_status {
    CHANNEL_WAITING,     /* the program's runtime has not shown up (yet) */
    CHANNEL_ACTIVE,      /* the runtime attached and speaks our version */
    CHANNEL_UNMONITORED, /* the runtime speaks another version */
    CHANNEL_BROKEN,      /* the region was corrupted; reading stopped (the
                            caller lets the program go: channel_let_go) */
    CHANNEL_GONE         /* the program was let go (channel_let_go) */
};

/* The outcome of an operation, from channel_send().  values point into
 * the channel and stay valid until the next channel_send(). */
struct channel_result {
    int status;          /* enum dapto_op_status */
    int signo;           /* DAPTO_OP_CRASHED: the signal ... */
    uint64_t fault_addr; /* ... and the fault address */
    const char *message; /* the program's message, "" when none */
    unsigned int nvalues;
    const struct decode_value *values;
};

int channel_create(struct channel **out, const struct channel_opts *opts,
                   char **cause);
/* The same on descriptors the program made (attaching to a running
 * program, <protocol#attach>): MEMFD is sized and filled in here.  The
 * channel owns both descriptors on success, the caller on failure. */
int channel_adopt(struct channel **out, const struct channel_opts *opts,
                  int memfd, int eventfd, char **cause);
void channel_free(struct channel *ch);

/* "DAPTO_CHANNEL=MEMFD:EVENTFD" for the program's environment; the
 * string belongs to the channel. */
const char *channel_env(const struct channel *ch);
/* The two descriptors the program must inherit. */
void channel_fds(const struct channel *ch, int fds[2]);

/* The program has started: state bytes are written into T, and the
 * channel watches T while it waits for operations.  T must outlive the
 * channel's use of it; attach NULL before freeing T. */
void channel_attach(struct channel *ch, struct target *t);

/* The descriptor to poll for reading (the eventfd). */
int channel_fd(const struct channel *ch);

/* Before sleeping in poll(): returns 1 when the caller may sleep, 0 when
 * an item is ready.  Call channel_sleep_finish() after poll() returns
 * (it does nothing unless the caller was told it may sleep). */
int channel_sleep_prepare(struct channel *ch);
void channel_sleep_finish(struct channel *ch);

/* Look at the ring for up to 50 us, yielding the CPU now and then (a
 * program that shares it gets to run), before the caller sleeps: 1 as
 * soon as something is ready, 0 when nothing came.  Only while the
 * channel is active and with spare CPUs (else 0 at once). */
int channel_spin(struct channel *ch);

/* Wait up to TIMEOUT_MS for an item to be ready (or the eventfd to be
 * written), spinning briefly first when there are spare CPUs.  For
 * callers that have nothing else to poll; blocks, by definition.
 * Returns 1 when something may be ready, 0 on timeout. */
int channel_wait(struct channel *ch, int timeout_ms);

/*
 * The next item, without blocking: 1 with *item filled, 0 when there is
 * nothing now.  Handles the version check, aspect acknowledgement
 * <protocol#ack> (the states of a new aspect's events are written before
 * its item is returned; the acknowledgement goes out at the next call, so
 * that the caller may change states first) and the clock.  The item is
 * valid until the next call.
 */
int channel_next(struct channel *ch, struct reader_item *item);

/*
 * Whether records are still waiting although channel_next() said 0: it
 * returns 0 now and then with records ready (after a bounded number of
 * them, so that the caller's other work gets a turn).  A caller that
 * must take everything the program wrote (it has exited or was killed,
 * and nothing more comes) calls channel_next() again while this says 1.
 * It says 0 when no record was taken since it last said 1 (a loop over
 * it ends).
 */
int channel_more(struct channel *ch);

/*
 * The direct path: while SINK is set, function entries and exits, and the
 * events DAPTO_EV_ENTER and DAPTO_EV_LEAVE with an interned name (the
 * caller makes sure those codes are the built-in aspect's), go to it in
 * batches of reader_fn, in ring order (between the items before and
 * after them), and never as items.  It returns how many of the N it took:
 * all of them, unless it can no longer take any; the rest then come as
 * items, and the direct path stays off until the next channel_direct().
 * NULL turns it off.
 */
typedef unsigned int (*channel_sink)(void *arg, const struct reader_fn *fns,
                                     unsigned int n);
void channel_direct(struct channel *ch, channel_sink sink, void *arg);
/* The direct path of events: while SINK is set, the events whose values
 * are all scalars, in their one valid form (reader_scalar_event()), go to
 * it in batches, in ring order, and never as items; it takes them all.
 * The other events (strings, stops, cut, filtered, malformed) come as
 * items.  NULL turns it off. */
typedef void (*channel_esink)(void *arg, const struct reader_scalar *evs,
                              unsigned int n);
void channel_direct_events(struct channel *ch, channel_esink sink, void *arg);
/* Records the sink has taken so far. */
uint64_t channel_direct_count(const struct channel *ch);
/* Records taken from the threads' own buffers so far <protocol#tbuf>
 * (channel_opts.thread_buffers). */
uint64_t channel_buffered(const struct channel *ch);

enum channel_status channel_status(const struct channel *ch);
/* The runtime's version as "MAJOR.MEDIAN.MINOR", or NULL before it
 * attached. */
const char *channel_runtime_version(const struct channel *ch);
struct registry *channel_registry(const struct channel *ch);
/* Records the program reported lost, in total. */
uint64_t channel_lost(const struct channel *ch);

/* For post-mortem readers of the trail and the recovery table: the
 * region (use its checked geometry, never trust its header) and the
 * reader that decodes this run's records. */
/* Keep the last N events taken (0: none) for the post-mortem: the
 * program's trail holds only the events it did not also put in the ring
 * <protocol#trail>.  Not in overwrite mode (the trail has them all). */
void channel_keep(struct channel *ch, unsigned int n);

/* Call FN with each event kept, oldest first, then with each event record
 * the program committed that is not taken yet (while it is stopped, the
 * rest of what it emitted).  Each record is cut as the trail cuts it
 * (at most TRAIL_RECORD_MAX bytes, DAPTO_RECF_TRUNC then); SIZE is its
 * size, not rounded to 8. */
void channel_kept(const struct channel *ch,
                  void (*fn)(void *arg, const unsigned char *rec,
                             uint32_t size),
                  void *arg);

const struct region *channel_region(const struct channel *ch);
struct reader *channel_reader(struct channel *ch);

/* Take the event record REC of SIZE bytes that noosa made itself for
 * the program (a probe hit it saw under ptrace, <design#probes>) as if
 * it came from the ring: timestamped now, kept for the post-mortem
 * (channel_keep) and decoded into *ITEM (valid until the next call). */
void channel_inject(struct channel *ch, void *rec, size_t size,
                    struct reader_item *item);

/* Set the state of event CODE (DAPTO_STATE_* bits); written into the
 * program only when it changes. */
int channel_set_state(struct channel *ch, unsigned int code,
                      unsigned char state, char **cause);
/* The state last written for CODE. */
unsigned char channel_state(const struct channel *ch, unsigned int code);

/* Conditions in the program <protocol#filter>.  Event codes below this
 * may have filters. */
#define CHANNEL_FILTER_CODES 2048
struct cond_clause;

/* Whether filters can be written now (the program's runtime has them and
 * has attached); when not, *why (static) says why. */
int channel_filters(const struct channel *ch, const char **why);
/* Make the filter of EV: the UNCOND state bits and the N clauses CL,
 * with event counters CHECKED and PASSED.  Built (cond_filter), checked
 * as the program will check it, and written; -1 with *cause when it
 * cannot be.  Write the filter before the state that makes it read. */
int channel_set_filter(struct channel *ch, const struct registry_event *ev,
                       unsigned char uncond, const struct cond_clause *cl,
                       unsigned int n, uint16_t checked, uint16_t passed,
                       char **cause);
/* Event CODE has no filter (after its state has dropped the filter bit). */
void channel_clear_filter(struct channel *ch, unsigned int code);
/* The question area of the program <protocol#question>, or NULL with
 * *why (static) when the program cannot answer questions (no area, not
 * attached, an older runtime, no longer monitored). */
struct qarea *channel_questions(struct channel *ch, const char **why);
/* The relations area of the program <protocol#relate>, or NULL with *why
 * (static) when the program cannot keep component stacks and derived
 * events (no area, not attached, an older runtime, no longer
 * monitored). */
struct relarea *channel_relations(struct channel *ch, const char **why);
/* Where derived event INDEX's state byte is in the program (0: the
 * runtime has not said where the region is). */
uint64_t channel_relation_state(const struct channel *ch, unsigned int index);

/* The start of the run (CLOCK_MONOTONIC ns) that items' times count
 * from: the channel's making, or START_NS set before the first item, so
 * that the channels of a run's processes share one origin. */
uint64_t channel_start(const struct channel *ch);
void channel_set_start(struct channel *ch, uint64_t start_ns);

/* Nanoseconds in one unit of the program's timestamps (1 without TSC). */
double channel_ns_per_tick(const struct channel *ch);

/* Nanoseconds since the start of the run of the program's timestamp RAW
 * (negative when before it). */
int64_t channel_ns(const struct channel *ch, uint64_t raw);

/* The threads' own trails of the program <protocol#ttrail>, or NULL when
 * it has none (a runtime older than them, or not attached). */
const struct ttrail_area *channel_ttrails(const struct channel *ch);

/* Whether the program's runtime keeps named components in its call trees
 * and says where a thread was on the events counted there
 * <protocol#cct>: with it, the profiles are kept there by default. */
int channel_paths(const struct channel *ch);
/* What the program says it did with its events (its region's counts,
 * untrusted: the program may have written them). */
struct channel_kept_counts {
    uint64_t own;      /* kept in threads' own trails <protocol#ttrail> */
    uint32_t threads;  /* threads with one */
    uint64_t lost;     /* not kept there (a signal handler's, inside) */
    uint64_t shared;   /* kept in the shared trail <protocol#trail> */
    uint64_t sent;     /* bytes of records written for noosa: the ring's
                          and the threads' buffers' */
};
void channel_kept_counts(const struct channel *ch, struct channel_kept_counts *k);

/* Write the run's coarse clock (milliseconds since its start) for the
 * threads' trails. */
void channel_tick(struct channel *ch);
/* How many threads took a trail of their own (the program says; when two
 * have, the clock orders them); 0 without trails. */
uint32_t channel_trails_taken(const struct channel *ch);

/* A counter's value <protocol#counters>. */
uint64_t channel_counter(const struct channel *ch, uint16_t id);

/* Stop monitoring the program and let it run at full speed
 * <protocol#letgo>: every event off, threads stopped at events resumed,
 * and the runtime told never to wait for the monitor again (a thread
 * waiting for room in the ring gives up its record, counted lost).
 * Nothing more is read from the channel.  Once the channel is BROKEN, the
 * caller must do this soon (it may stop the program first). */
void channel_let_go(struct channel *ch);

/* Turn off every event's state byte in the program, reading each one
 * rather than trusting what noosa last wrote there.  Returns how many
 * held something else than noosa had written (the program wrote them,
 * or a byte could not be read), and in *ON, when ON is given, their
 * names (to free); 0 when the channel has no program to write into. */
int channel_states_off(struct channel *ch, char **on);

/* The program executed another program: its runtime, its state bytes
 * and its stops are gone with the old image.  Nothing more is read or
 * written (status CHANNEL_GONE). */
void channel_forget(struct channel *ch);

/* Wake every thread of the program waiting on the channel, changing
 * nothing (detach does, while the program's threads leave the runtime). */
void channel_wake_all(struct channel *ch);

/* The mailboxes in use, in words ("mailbox 3 of thread 1234: a stopped
 * thread; ..."), to free; NULL when none is. */
char *channel_mailboxes_busy(struct channel *ch);

/* The mailbox of the latest stop not yet resumed, or -1. */
int channel_stopped(const struct channel *ch);

/*
 * Run operation OP with ARGC arguments ARGV (text, converted to the
 * declared parameter types) in the thread stopped in mailbox STOP (-1:
 * the latest stop).  Waits for the answer while still handling ptrace
 * stops: a fatal signal in the thread running the operation is passed to
 * the program, whose recovery point ends the operation with
 * DAPTO_OP_CRASHED.  TIMEOUT_MS < 0 waits as long as the program lives.
 * Returns 0 when the operation ran and succeeded, else -1 with *cause;
 * *res is filled whenever the program answered.
 */
int channel_send(struct channel *ch, int stop, const char *op, int argc,
                 const char *const *argv, struct channel_result *res,
                 int timeout_ms, char **cause);

/* Let the thread stopped in mailbox STOP (-1: the latest stop) go on. */
int channel_resume(struct channel *ch, int stop, char **cause);

#endif /* NOOSA_CHANNEL_H */
