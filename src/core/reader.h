/* SPDX-License-Identifier: MIT */
/*
 * reader.h - one record from the program's ring, validated and decoded
 * into an item for the caller <protocol#record>.  No I/O and no shared
 * memory here: the channel copies a record out of the ring and hands it
 * over, with the interface area for ASPECT records.  Everything in the
 * record is checked (codes, lengths, tags, string ends, intern ids,
 * mailbox indexes); a bad record becomes a READER_ERROR item that says
 * what and where, and the reader goes on with the next one.
 */
#ifndef NOOSA_READER_H
#define NOOSA_READER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "clock.h"
#include "dapto.h"
#include "decode.h"
#include "protocol.h"
#include "registry.h"

enum reader_kind {
    READER_NONE = 0, /* nothing for the caller (an intern, a skipped kind) */
    READER_EVENT,    /* an event of the program's interface */
    READER_HELLO,    /* the runtime has attached */
    READER_ASPECT,   /* a new aspect is in the registry */
    READER_LOST,     /* records lost before this point */
    READER_FUNCTION, /* function entry or exit (-finstrument-functions) */
    READER_ERROR     /* a protocol error */
};

/* A decoded item.  Pointers in it belong to the reader (or registry) and
 * stay valid until the next reader_record() call.  (reader_record() sets
 * every field of a function record's item one by one: a new field needs
 * setting there too.) */
struct reader_item {
    enum reader_kind kind;
    unsigned int code;  /* record code */
    pid_t tid;
    int64_t ns;         /* nanoseconds since the start of the run */
    int stop;           /* mailbox index of a stopped thread, else -1 */

    /* READER_EVENT */
    const struct registry_event *event;
    unsigned int nvalues; /* may be fewer than the event's parameters */
    struct decode_value *values;
    int truncated;        /* DAPTO_RECF_TRUNC: values were cut or dropped */
    int filtered;         /* DAPTO_RECF_FILTERED: the program evaluated the
                             event's filter <protocol#filter> */
    uint32_t clauses;     /* with filtered: bit i, clause i fired */

    /* READER_HELLO */
    pid_t pid;
    int ring_mode;

    /* READER_ASPECT */
    struct registry_aspect *aspect;

    /* READER_LOST */
    uint64_t lost;

    /* READER_FUNCTION */
    uint64_t function;
    uint64_t call_site;
    int enter;

    /* READER_ERROR */
    const char *message;
};

struct reader;

/*
 * The direct path (channel.h): a function entry or exit, or an enter or
 * leave event with an interned name, taken from the ring for consumers
 * that want nothing of it but the function (or name), the thread and the
 * time, without an item.  Such a record has one valid form each, of
 * READER_FN_SIZE and READER_NAMED_SIZE bytes; reader_function() and
 * reader_named() read them, and anything else is for reader_record(),
 * which says what is wrong with it.
 */
#define READER_FN_LEN (2 * (1 + 8)) /* two tagged pointers */
#define READER_FN_SIZE ((DAPTO_RECORD_HEADER + READER_FN_LEN + 7) & ~7u)
#define READER_NAMED_LEN (1 + 4) /* ISTR id */
#define READER_NAMED_SIZE ((DAPTO_RECORD_HEADER + READER_NAMED_LEN + 7) & ~7u)

struct reader_fn {
    uint64_t function; /* the function's address (0 with a name) */
    const char *name;  /* enter/leave events: the name, interned (at the
                          same address for every record that has it, as
                          long as the reader lives); NULL for functions */
    int64_t ns;        /* as item.ns */
    pid_t tid;
    uint32_t len;      /* of the name */
    int enter;         /* 1: entry, 0: exit */
};

/* An event of the program for consumers that only count it (a
 * recording's, given in batches without items <design#dispatch>): which,
 * whose, when; no values. */
struct reader_ev {
    const struct registry_event *event;
    int64_t ns;
    pid_t tid;
};

/* An event whose values are all scalars (int, long, double, ptr), as
 * its record holds them, for a sink that takes records in batches (a
 * recording's writer, channel_direct_events()): its values are LEN bytes
 * of tagged values at VALUES, each the kind its parameter declares, in
 * order, checked once (reader_scalar_event()). */
struct reader_scalar {
    const struct registry_event *event;
    const unsigned char *values; /* in the record: valid while it is */
    uint32_t len;
    int64_t ns;
    pid_t tid;
};

/* A set of event codes in 64 bits, as a recording's index keeps them
 * for each stretch of events (<design#recordings>) and a replay asks for
 * them (<design#checkpoints>): codes share bits 0 to 62 by their
 * remainder, so a set may hold a code it was not given but never misses
 * one given; READER_ITEMS_BIT stands for the items that are not events of
 * the program (hello, aspects, losses). */
#define READER_ITEMS_BIT (UINT64_C(1) << 63)
#define READER_ALL_CODES UINT64_MAX

static inline uint64_t reader_code_bit(unsigned int code)
{
    return UINT64_C(1) << (code % 63);
}

/* The clock's conversion of timestamps, copied for a batch of records:
 * the same nanoseconds as clock_ns(), without a call. */
struct reader_time {
    int tsc;
    uint64_t ref;  /* TSC: the reference reading; else the start in ns */
    int64_t base;  /* TSC: ns from the start to the reference */
    double ns_per_tick;
};

static inline void reader_time_init(struct reader_time *t,
                                    const struct clock *c)
{
    t->tsc = c->tsc;
    t->ref = c->tsc ? c->ref_tsc : c->start_ns;
    t->base = (int64_t)(c->ref_ns - c->start_ns);
    t->ns_per_tick = c->ns_per_tick;
}

static inline int64_t reader_time_ns(const struct reader_time *t, uint64_t raw)
{
    if (!t->tsc)
        return (int64_t)(raw - t->ref);
    return t->base + (int64_t)((double)(int64_t)(raw - t->ref) * t->ns_per_tick);
}

/* Read the committed record of READER_FN_SIZE bytes at REC as a
 * function entry or exit into *FN; 0 when it is not one in its valid
 * form.  Each field is read once (the program may be writing them), and
 * none is trusted for more than a key or a number. */
static inline int reader_function(const unsigned char *rec,
                                  const struct reader_time *t,
                                  struct reader_fn *fn)
{
    const struct dapto_record *h = (const struct dapto_record *)(const void *)rec;
    uint16_t code, flags;
    uint32_t len, tid;
    uint64_t time;

    /* FNENTER and FNLEAVE differ in their last bit */
    _Static_assert((DAPTO_REC_FNENTER | 1) == DAPTO_REC_FNLEAVE,
                   "function record codes");
    __builtin_memcpy(&code, &h->code, 2);
    __builtin_memcpy(&flags, &h->flags, 2);
    __builtin_memcpy(&len, &h->len, 4);
    if ((code | 1) != DAPTO_REC_FNLEAVE || flags != 0 ||
        len != READER_FN_LEN || rec[DAPTO_RECORD_HEADER] != DAPTO_K_PTR ||
        rec[DAPTO_RECORD_HEADER + 9] != DAPTO_K_PTR)
        return 0;
    __builtin_memcpy(&tid, &h->tid, 4);
    __builtin_memcpy(&time, &h->time, 8);
    __builtin_memcpy(&fn->function, rec + DAPTO_RECORD_HEADER + 1, 8);
    fn->name = NULL;
    fn->len = 0;
    fn->ns = reader_time_ns(t, time);
    fn->tid = (pid_t)tid;
    fn->enter = code == DAPTO_REC_FNENTER;
    return 1;
}

/* Read the committed record of READER_NAMED_SIZE bytes at REC as the
 * built-in event enter or leave (codes DAPTO_EV_ENTER and DAPTO_EV_LEAVE,
 * which the caller has made sure are the built-in aspect's) with a name
 * interned before, into *FN; 0 when it is not one in its valid form, or
 * its intern id is unknown.  Read once, as reader_function(). */
int reader_named(const struct reader *r, const unsigned char *rec,
                 const struct reader_time *t, struct reader_fn *fn);

/* Read the committed record of SIZE bytes at REC as an event of scalar
 * values in its one valid form (a known event whose parameters are all
 * int, long, double or ptr, each value tagged as declared, every value
 * there, no flag: not stopping, cut or filtered) into *EV: 1, else 0
 * (reader_record() then says what it is).  What reader_record() would
 * make of it is the same event with the same values. */
int reader_scalar_event(const struct reader *r, const unsigned char *rec,
                        uint32_t size, const struct reader_time *t,
                        struct reader_scalar *ev);

/* Whether the record at REC may be one for reader_named() (a hint that
 * spares a call for the other events of its size). */
static inline int reader_maybe_named(const unsigned char *rec)
{
    uint16_t code;

    __builtin_memcpy(&code, rec + __builtin_offsetof(struct dapto_record, code),
                     2);
    return code == DAPTO_EV_ENTER || code == DAPTO_EV_LEAVE;
}

/* A reader adding to REG (which it does not own), converting times with
 * CLOCK, for a region of MBOX_COUNT mailboxes. */
struct reader *reader_create(struct registry *reg, const struct clock *clock,
                             unsigned int mbox_count);
void reader_free(struct reader *r);

/*
 * Decode the record REC of SIZE bytes (its whole commit-checked size).
 * IFACE and IFACE_USED are the interface area as far as the program says
 * it has written it (for ASPECT records).  Fills *item (kind READER_NONE
 * when there is nothing to say).
 */
void reader_record(struct reader *r, const void *rec, size_t size,
                   const void *iface, size_t iface_used,
                   struct reader_item *item);

/* The text of intern id ID, or NULL.  An interned text stays where it
 * is until reader_free(), also when the program interns its id again
 * (consumers know names by their address). */
const char *reader_intern(const struct reader *r, uint32_t id);

/* Check VALUES against the result of operation OP (for channel_send):
 * resolves nothing, fails on ISTR. */
int reader_check_kind(unsigned char declared, const struct decode_value *v);

#endif /* NOOSA_READER_H */
