/* SPDX-License-Identifier: MIT */
/*
 * rtfilter.h - the runtime's side of filters <protocol#filter>: evaluating
 * an event's filter on its encoded record, and counting in the thread's
 * counter slot <protocol#counters>.  The monitor's side (writing filters,
 * checking them, reading counters) is lib/channel/filter.h.
 *
 * rtfilter_eval() is the evaluator alone: it reads only the filter area
 * and the values it is given, trusts neither, allocates nothing, makes no
 * system call and touches no global, so tests run it on any bytes.
 * rtfilter_event() is the event path's entry, on the attached runtime;
 * dapto_event_filter() (dapto.h) its entry before an event is encoded.
 * Both are async-signal-safe.
 */
#ifndef NOOSA_RTFILTER_H
#define NOOSA_RTFILTER_H

#include <stddef.h>
#include <stdint.h>

#include "dapto.h"
#include "protocol.h"
#include "rtquestion.h"

/* A filter of the commonest shape, one clause `ARG k, CONST v, CMPI/CMPU
 * c, END` (a parameter against a constant), as a thread checked it once
 * <protocol#filter-gen>: the comparison decoded into a range, the
 * counters the thread counts in, and the copy of the header and clause
 * read, used for as long as the directory entry and the area's generation
 * stay what they were.  Written and read by one thread only. */
struct rtfilter_cached {
    /* The event whose arguments the entry is evaluated on before encoding
     * (the thread has looked at them: no string, no user type), or NULL;
     * that event's code is KEY - 1. */
    const struct dapto_event *hot;
    uint32_t key;   /* event code + 1; 0: empty */
    uint32_t off;   /* the directory entry it was read at */
    uint32_t gen;   /* the area's generation then (even, not 0) */
    uint8_t uncond; /* the header's, masked */
    uint8_t arg;    /* the parameter compared */
    uint8_t neg;    /* 1: the clause holds when the value is outside */
    uint8_t atomic; /* 1: the slot counted in is slot 0, shared */
    uint8_t always; /* the clause has no condition (a question's) */
    uint8_t question; /* the clause counts into a question <protocol#question> */
    uint8_t part;     /* the clause hands the event to a derived event
                         <protocol#relate> */
    /* On HOT's arguments: 0 compare argument ARG, 1 the clause holds
     * always, 2 never (the parameter compared is not an integer). */
    uint8_t amode;
    /* HOT has a string parameter: the clause never reads it, but a
     * question counting the event from its arguments may, which the
     * record would have cut (then the record decides). */
    uint8_t strs;
    /* -within / -outside <protocol#relate>: the clause holds only when
     * (the thread's components & wbit) != 0, xor wneg; wbit 0: always */
    uint8_t wneg;
    /* The entry may be the thread's quick clause for HOT <protocol#quick>:
     * a comparison of an integer argument, no question, part or -within,
     * the thread's own slot, and nothing but the trail when it does not
     * hold; 2 once published. */
    uint8_t quick;
    uint64_t wbit;
    /* the clause holds when (uint64_t)value - lo <= span, xor neg */
    uint64_t lo, span;
    /* the filter's and the clause's "checked" in the slot, or SINK */
    uint64_t *checked[2];
    /* the filter's "passed" and the clause's in the slot, or SINK */
    uint64_t *fpassed, *cpassed;
    uint64_t sink;
    uint16_t passed; /* the filter's "passed" counter */
    /* A question's clause: its counting from the arguments of HOT, once
     * planned (qh.epoch_at not NULL) <protocol#question>. */
    struct rtq_hot qh;
    union {
        uint64_t w[3];
        struct dapto_clause c;
    } cl;
} __attribute__((aligned(256)));

#define RTFILTER_CACHED 4 /* entries, by event code modulo */

struct rtfilter_cache {
    const unsigned char *area; /* the area its entries are from */
    struct rtfilter_cached e[RTFILTER_CACHED];
};

/* What one evaluation reads and counts in. */
struct rtfilter_env {
    const unsigned char *area; /* the filter area; NULL: no filters */
    uint32_t size;             /* its bytes */
    uint64_t *shared;          /* counter slot 0; NULL: no counting */
    uint64_t *mine;            /* the thread's slot (may be slot 0) */
    uint32_t tid;              /* for DAPTO_FOP_TID */
    /* The text of intern id ID and its length, or NULL when unknown; NULL
     * when interned names cannot be resolved (a clause reading one then
     * does not hold). */
    const char *(*istr)(uint32_t id, uint32_t *len);
    /* The caller's cache, or NULL: none.  It belongs to one thread and
     * to the slot MINE; never used by two evaluations at once (a signal
     * handler's evaluation passes NULL). */
    struct rtfilter_cache *cache;
    /* Questions <protocol#question>: where a question's clause counts;
     * NULL: its clauses do nothing. */
    const struct rtq_env *q;
    /* Relations <protocol#relate>: the components on the thread's stack
     * (what DAPTO_FOP_WITHIN reads; NULL: none), and where a part's
     * clause hands its event (NULL: nowhere). */
    uint64_t (*within)(void);
    void (*part)(unsigned int def, unsigned int role, rtq_arg_fn arg, const void *ctx);
};

/* Evaluate the filter of event CODE on the record values VALS (LEN bytes,
 * as after the record header) for an event in state ST (which has
 * DAPTO_STATE_FILTER).  Returns the state the event goes on with: the
 * filter's unconditional bits and those of every clause that fired, or,
 * when there is no filter for CODE that can be read, ST's bits without
 * DAPTO_STATE_FILTER.  When a filter was read and the result is not 0,
 * ORs DAPTO_RECF_FILTERED and the fired clauses' bits into *FLAGS.  Counts
 * in ENV's slots.  With ENV's cache, keeps a filter it can there and uses
 * one it kept while it is still the one in effect <protocol#filter-gen>. */
unsigned int rtfilter_eval(const struct rtfilter_env *env, uint32_t code,
                           const unsigned char *vals, uint32_t len,
                           unsigned int st, uint16_t *flags);

/* A verdict of a filter on an event's arguments (dapto_event_filter):
 * the state bits the event goes on with, and in bits 16..31 the flags
 * its record carries (DAPTO_RECF_FILTERED and the clauses that fired).
 * A verdict with DAPTO_STATE_FILTER leaves the decision to the record. */
#define RTF_VERDICT_STATE 0xffu
#define RTF_VERDICT(st, flags) ((unsigned int)(st) | (unsigned int)(flags) << 16)

/* rtfilter_eval() for an event EV of code CODE whose arguments are ARGS
 * (one per parameter of EV, as dapto.h says), before it is encoded: the
 * state it goes on with, the flags in *FLAGS, exactly as rtfilter_eval()
 * would say on its record <protocol#record>.  When the record would not
 * hold every argument whole (or EV has a parameter of a user type), it
 * reads nothing, counts nothing and returns ST: the record decides. */
unsigned int rtfilter_eval_args(const struct rtfilter_env *env, uint32_t code,
                                const struct dapto_event *ev,
                                const union dapto_arg *args, unsigned int st,
                                uint16_t *flags);

/* Whether string S (N bytes) matches glob pattern P (M bytes) as Tcl's
 * `string match` says: * any run, ? any character, [chars] one of the
 * characters or ranges a-z (either order), \c the character c. */
int rtfilter_glob(const unsigned char *s, size_t n, const unsigned char *p,
                  size_t m);

/* A counter slot of the region's NSLOTS slots at CNT for a new thread:
 * the next from cnt_next in header H, or slot 0 when they are used up. */
uint64_t *rtfilter_take_slot(struct dapto_region *h, uint64_t *cnt,
                             uint32_t nslots);

/* Every bit the filter of event CODE may give an event: its unconditional
 * bits and those of all its clauses (none of a question's), read from
 * the attached runtime's area with the checks of an evaluation; 0 when
 * there is no filter that can be read.  For a record the filter cannot
 * be evaluated on (a function record, which has no name): it goes where
 * any clause might send it, and the monitor decides <protocol#filter>. */
unsigned int rtfilter_bits(uint32_t code);

/* The event path's entry: evaluate the filter of event CODE for record
 * REC (header filled in) in state ST, on the attached runtime's filter
 * area, counting in the calling thread's slot (taken at its first
 * count).  Returns the state to deliver REC with; sets REC's flags. */
unsigned int rtfilter_event(struct dapto_record *rec, uint32_t code,
                            unsigned int st);

/* Add 1 to counter ID in the calling thread's counter slot (taken at its
 * first count) <protocol#counters>. */
void rtfilter_count(unsigned int id);

/* Forget the calling thread's cached filters: in a forked child. */
void rtfilter_fork_child(void);

/* <protocol#quick>: the threads' quick clauses hold from now on, for a
 * new attach (rtfilter_quick_attach), or never again until the next
 * (rtfilter_quick_release, before the area goes). */
void rtfilter_quick_attach(void);
void rtfilter_quick_release(void);

#endif /* NOOSA_RTFILTER_H */
