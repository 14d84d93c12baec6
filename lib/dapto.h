/* SPDX-License-Identifier: MIT */
/*
 * dapto.h - public interface of libdapto, the monitoring runtime.
 *
 * A program includes this header (usually through the X_dapto.h files that
 * the dapto compiler writes) and links with libdapto.  It defines:
 *
 *  - the descriptions of monitoring interfaces that generated code hands to
 *    the runtime (struct dapto_aspect and friends);
 *  - the value encoder used by event stubs and operation bodies
 *    (DAPTO_RESULT_*), and the argument decoder used by operations
 *    (DAPTO_ARG_*);
 *  - the built-in aspect "dapto" (enter/leave and friends);
 *  - recovery points and run-time errors (DAPTO_TRY, dapto_error).
 *
 * It is not the protocol between the runtime and noosa: that layout lives
 * in protocol.h, which programs never see.
 *
 * The stub contract <design#stub>: every event has a state byte.  A stub
 * reads that byte and, only when it is non-zero, calls the out-of-line
 * encoder.  With no monitor attached every state byte stays zero, so an
 * event costs one load and one predictable branch.
 */
#ifndef DAPTO_H
#define DAPTO_H

#include <setjmp.h>
#include <stddef.h>
#include <string.h>

/*
 * USDT probes <design#probes>: every event of generated code is also a
 * static probe of <sys/sdt.h> (provider: its aspect; its arguments), so
 * that gdb, perf and bpftrace see the events as they see any program's
 * probes.  A probe site is one nop.  Without <sys/sdt.h>
 * (systemtap-sdt-dev), or with DAPTO_NO_PROBES defined, there are none.
 */
#if !defined(DAPTO_NO_PROBES) && defined(__has_include)
#if __has_include(<sys/sdt.h>)
#include <sys/sdt.h>
#define DAPTO_PROBES 1
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Version of the descriptions below; generated code records the value it
 * was compiled with and the runtime refuses what it does not understand. */
#define DAPTO_ABI_VERSION 1

/* Largest encoded event record, header included.  String parameters that
 * would make an event larger are truncated (and marked as truncated). */
#define DAPTO_EVENT_MAX 1024

/* Bytes an event's encoder reserves in front of the parameters for the
 * record header, which the runtime fills in. */
#define DAPTO_EVENT_HEADER 32

/* Everything the runtime exports is marked DAPTO_API; the rest of the
 * library is built with hidden visibility. */
#if defined(__GNUC__) || defined(__clang__)
#define DAPTO_API __attribute__((visibility("default")))
#define DAPTO_LIKELY(x) __builtin_expect(!!(x), 1)
#define DAPTO_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define DAPTO_NOINLINE __attribute__((noinline))
/* Monitoring's own code is never in a -finstrument-functions profile of
 * the program: the header's functions, the generated stubs and encoders,
 * and the runtime's entry points carry it. */
#define DAPTO_NOINSTR __attribute__((no_instrument_function))
/* What reads whole aligned words of a string, as strlen() does. */
#define DAPTO_NOASAN __attribute__((no_sanitize_address))
#else
#define DAPTO_API
#define DAPTO_LIKELY(x) (x)
#define DAPTO_UNLIKELY(x) (x)
#define DAPTO_NOINLINE
#define DAPTO_NOINSTR
#define DAPTO_NOASAN
#endif

/*
 * Event state bits, written into the program by the monitor.  Zero means
 * off; any other value makes the stub call the encoder.
 */
#define DAPTO_STATE_OFF 0x00
#define DAPTO_STATE_TRAIL 0x01  /* keep in the post-mortem trail */
#define DAPTO_STATE_RECORD 0x02 /* deliver asynchronously */
#define DAPTO_STATE_STOP 0x04   /* deliver and wait for the monitor */
#define DAPTO_STATE_FILTER 0x08 /* first ask the event's filter (monitor's) */
#define DAPTO_STATE_PROFILE 0x10 /* enter/leave of functions: count them in
                                    the program's own call tree (monitor's) */
#define DAPTO_STATE_STACK 0x20  /* enter/leave: keep the thread's component
                                   stack in the program (monitor's) */
#define DAPTO_STATE_FTRAIL 0x40  /* enter/leave: keep functions' entries and
                                    exits in the trail too (without it the
                                    -finstrument-functions hooks ignore
                                    DAPTO_STATE_TRAIL) */

typedef volatile unsigned char dapto_state_t;

/* Value kinds.  The same numbers tag values on the wire. */
enum dapto_kind {
    DAPTO_K_INT = 1,     /* C int */
    DAPTO_K_LONG = 2,    /* C long */
    DAPTO_K_DOUBLE = 3,  /* C double */
    DAPTO_K_STR = 4,     /* NUL-terminated string */
    DAPTO_K_PTR = 5,     /* data pointer */
    DAPTO_K_UNKNOWN = 6, /* a user type with no DAPTO_RESULT<Type> macro */
    DAPTO_K_ISTR = 7,    /* interned string (wire only) */
    DAPTO_K_USER = 8     /* a user type (descriptions only) */
};

/* Set on a wire tag when the value was truncated to fit. */
#define DAPTO_K_TRUNC 0x80

/* A parameter of an event or operation. */
struct dapto_param {
    const char *name;
    const char *type; /* as written: "int", "str", ..., or a user type */
    unsigned char kind; /* enum dapto_kind */
    const char *doc;
};

/* An event type. */
struct dapto_event {
    const char *name;
    const char *doc;
    unsigned char visible; /* marked with '*' in the specification */
    unsigned short nparams;
    const struct dapto_param *params;
    dapto_state_t *state; /* this event's state byte */
};

struct dapto_in;
struct dapto_out;

/* Body of an operation: reads its arguments from IN, appends results to
 * OUT.  Runs in the program's thread that is stopped at an event. */
typedef void (*dapto_op_fn)(struct dapto_in *, struct dapto_out *);

/* An operation the monitor may call. */
struct dapto_operation {
    const char *name;
    const char *doc;
    unsigned short nparams;
    const struct dapto_param *params;
    const char *result_type; /* NULL when the operation has none */
    unsigned char result_kind; /* enum dapto_kind, 0 when none */
    dapto_op_fn fn;
};

/*
 * An aspect, as generated code describes it.  Generated code defines one
 * (zero-initialised in the runtime-private part) and passes it to
 * dapto_register() from a constructor.
 */
struct dapto_aspect {
    unsigned int abi; /* DAPTO_ABI_VERSION */
    const char *name;
    const char *file; /* the specification it came from */
    unsigned short nevents;
    const struct dapto_event *events;
    unsigned short nops;
    const struct dapto_operation *ops;
    /* Runtime-private: set by dapto_register(), zero before. */
    struct dapto_aspect *next;
    unsigned int event_base;
    unsigned int op_base;
};

/* Make an aspect known to the runtime.  Safe to call from a constructor,
 * before or after the runtime's own initialisation, from any thread.  The
 * aspect must stay valid for the life of the process. */
DAPTO_API void dapto_register(struct dapto_aspect *aspect);

/* Whether this process is being monitored. */
DAPTO_API int dapto_monitored(void);

/*
 * The value encoder.  DAPTO_RESULT_* macros append to `_dapto_out`, which
 * is in scope in event encoders and operation bodies.
 */
struct dapto_out {
    unsigned char *p;   /* next byte to write */
    unsigned char *end; /* end of the buffer */
    unsigned char *base; /* start of the buffer */
    unsigned int count; /* values written */
    unsigned int truncated; /* non-zero when a value did not fit whole */
    const struct dapto_aspect *aspect; /* event encoders only */
    unsigned int index;
};

static inline DAPTO_NOINSTR void dapto_put_fixed(struct dapto_out *o, unsigned char tag,
                                   const void *v, size_t n)
{
    if ((size_t)(o->end - o->p) < n + 1) {
        o->truncated = 1;
        return;
    }
    *o->p++ = tag;
    if (n != 0)
        memcpy(o->p, v, n);
    o->p += n;
    o->count++;
}

static inline DAPTO_NOINSTR void dapto_put_int(struct dapto_out *o, int v)
{
    dapto_put_fixed(o, DAPTO_K_INT, &v, sizeof v);
}

static inline DAPTO_NOINSTR void dapto_put_long(struct dapto_out *o, long v)
{
    dapto_put_fixed(o, DAPTO_K_LONG, &v, sizeof v);
}

static inline DAPTO_NOINSTR void dapto_put_double(struct dapto_out *o, double v)
{
    dapto_put_fixed(o, DAPTO_K_DOUBLE, &v, sizeof v);
}

static inline DAPTO_NOINSTR void dapto_put_ptr(struct dapto_out *o, const void *v)
{
    unsigned long long u = (unsigned long long)(size_t)v;
    dapto_put_fixed(o, DAPTO_K_PTR, &u, sizeof u);
}

static inline DAPTO_NOINSTR void dapto_put_unknown(struct dapto_out *o)
{
    dapto_put_fixed(o, DAPTO_K_UNKNOWN, NULL, 0);
}

/* Strings travel as tag, 32-bit length, bytes and a NUL.  A string that
 * does not fit is cut and its tag marked DAPTO_K_TRUNC.  NULL travels as
 * "(null)". */
DAPTO_API void dapto_put_str(struct dapto_out *o, const char *s);

#define DAPTO_RESULT_INT(v) dapto_put_int(_dapto_out, (int)(v))
#define DAPTO_RESULT_INTVAL(v) dapto_put_int(_dapto_out, (int)(v))
#define DAPTO_RESULT_LONG(v) dapto_put_long(_dapto_out, (long)(v))
#define DAPTO_RESULT_LONGVAL(v) dapto_put_long(_dapto_out, (long)(v))
#define DAPTO_RESULT_DOUBLE(v) dapto_put_double(_dapto_out, (double)(v))
#define DAPTO_RESULT_STR(v) dapto_put_str(_dapto_out, (v))
#define DAPTO_RESULT_PTR(v) dapto_put_ptr(_dapto_out, (const void *)(v))
#define DAPTO_RESULT_UNKNOWN() dapto_put_unknown(_dapto_out)

/* Leave an operation body early; results appended so far are kept. */
#define DAPTO_RETURN return

/*
 * The argument decoder.  DAPTO_ARG_*(v, Type) reads the next argument from
 * `_dapto_in` (in scope in operation bodies) into the variable v, cast to
 * Type.  The monitor has already converted each argument to the declared
 * type; a mismatch marks the request as failed.
 */
struct dapto_in {
    const unsigned char *p;
    const unsigned char *end;
    unsigned int index; /* arguments read so far */
    int failed;         /* non-zero once an argument could not be read */
    char message[160];  /* why, when failed */
};

DAPTO_API int dapto_get_int(struct dapto_in *in);
DAPTO_API long dapto_get_long(struct dapto_in *in);
DAPTO_API double dapto_get_double(struct dapto_in *in);
DAPTO_API const char *dapto_get_str(struct dapto_in *in); /* valid during the call */
DAPTO_API void *dapto_get_ptr(struct dapto_in *in);
/* Mark the request failed: an argument of a user type that has no
 * DAPTO_ARG<Type> macro cannot be received. */
DAPTO_API void dapto_get_unknown(struct dapto_in *in, const char *type);

#define DAPTO_ARG_INT(v, T) ((v) = (T)dapto_get_int(_dapto_in))
#define DAPTO_ARG_LONG(v, T) ((v) = (T)dapto_get_long(_dapto_in))
#define DAPTO_ARG_DOUBLE(v, T) ((v) = (T)dapto_get_double(_dapto_in))
#define DAPTO_ARG_STR(v, T) ((v) = (T)dapto_get_str(_dapto_in))
#define DAPTO_ARG_PTR(v, T) ((v) = (T)dapto_get_ptr(_dapto_in))

/*
 * Event encoders, as generated code writes them:
 *
 *     void foo_dapto_emit_bar(int x, const char *s)
 *     {
 *         DAPTO_EVENT_BEGIN(&foo_dapto_aspect_a, 0);
 *         DAPTO_RESULT_INT(x);
 *         DAPTO_RESULT_STR(s);
 *         DAPTO_EVENT_END();
 *     }
 *
 * The record is built on the stack and handed to the runtime, which
 * timestamps it and sends it where the event's state says.
 */
DAPTO_API struct dapto_out *dapto_event_begin(struct dapto_out *o, unsigned char *buf,
                                    size_t size,
                                    const struct dapto_aspect *aspect,
                                    unsigned int index);
DAPTO_API void dapto_event_end(struct dapto_out *o);

/* The buffer is 8-aligned, so that a record always has DAPTO_EVENT_MAX
 * bytes (values cut to fit are cut at the same place in every build). */
#define DAPTO_EVENT_BEGIN(aspect, index)                                    \
    union {                                                                 \
        unsigned char b[DAPTO_EVENT_MAX];                                   \
        long long align;                                                    \
    } _dapto_buf;                                                           \
    struct dapto_out _dapto_out_s;                                          \
    struct dapto_out *const _dapto_out = dapto_event_begin(                 \
        &_dapto_out_s, _dapto_buf.b, sizeof _dapto_buf.b, (aspect), (index))
#define DAPTO_EVENT_END() dapto_event_end(_dapto_out)

/*
 * An event whose state asks for its filter first (DAPTO_STATE_FILTER) is
 * decided before it is encoded, from its arguments, when its parameters
 * are of the built-in types.  Generated encoders then read:
 *
 *     static DAPTO_NOINLINE void foo_dapto_put_bar(unsigned int _dapto_v,
 *                                                  int x, const char *s)
 *     {
 *         DAPTO_EVENT_BEGIN(&foo_dapto_aspect_a, 0);
 *         DAPTO_RESULT_INT(x);
 *         DAPTO_RESULT_STR(s);
 *         DAPTO_EVENT_END_AS(_dapto_v);
 *     }
 *
 *     static DAPTO_NOINLINE void foo_dapto_ask_bar(unsigned int _dapto_v,
 *                                                  int x, const char *s)
 *     {
 *         union dapto_arg _dapto_a[2];
 *
 *         _dapto_a[0].i = (int)(x);
 *         _dapto_a[1].s = (s);
 *         _dapto_v = dapto_event_filter(&foo_dapto_aspect_a, 0, _dapto_a, _dapto_v);
 *         if (_dapto_v != 0)
 *             foo_dapto_put_bar(_dapto_v, x, s);
 *     }
 *
 *     void foo_dapto_emit_bar(int x, const char *s)
 *     {
 *         unsigned int _dapto_v = foo_dapto_state[0];
 *
 *         if (_dapto_v & DAPTO_STATE_FILTER)
 *             foo_dapto_ask_bar(_dapto_v, x, s);
 *         else
 *             foo_dapto_put_bar(_dapto_v, x, s);
 *     }
 *
 * (each apart, so that an event its filter drops carries no record buffer
 * and one without a filter no frame of the asking).
 * An argument is in the member of its parameter's type: i for int and
 * long (the value) and for ptr (the address), d for double, s for str.
 */
union dapto_arg {
    long long i;
    double d;
    const char *s;
};

/* Ask the filter of event INDEX of ASPECT, in state ST (as read from its
 * state byte, with DAPTO_STATE_FILTER), about the event's arguments ARGS
 * (one per parameter, none of a user type).  Returns 0 when the event
 * goes nowhere, else a verdict for DAPTO_EVENT_END_AS (opaque: the state
 * it goes on with and what the record says of the filter, or "decide on
 * the record" when the arguments cannot tell). */
DAPTO_API unsigned int dapto_event_filter(const struct dapto_aspect *aspect,
                                          unsigned int index,
                                          const union dapto_arg *args,
                                          unsigned int st);

/*
 * Quick clauses <protocol#quick>: the runtime publishes, per thread, the
 * filters it has kept whose whole answer on an event, when their one
 * comparison of an integer parameter with a constant does not hold, is
 * "the trail alone" (or "nowhere").  A generated encoder in state
 * DAPTO_STATE_FILTER asks its thread's first, with plain loads and
 * without a call, and dapto_event_filter() only when it cannot tell:
 *
 *     unsigned long long _dapto_t;
 *     struct dapto_quick *_dapto_q = dapto_quick_entry(&foo_dapto_aspect_a, 0,
 *                                                      _dapto_v, &_dapto_t);
 *     int _dapto_w = _dapto_q == NULL ? -1
 *                    : dapto_quick_decide(_dapto_q, _dapto_t, (long long)(int)(x));
 *
 *     if (_dapto_w == DAPTO_STATE_TRAIL)
 *         foo_dapto_keep_bar(x, s);
 *     else if (_dapto_w != 0)
 *         foo_dapto_ask_bar(_dapto_v, x, s);
 *
 * (the value the entry's ARG names: with several integer parameters,
 * `_dapto_q->arg == 0 ? ... : ...`).  An entry is written by its thread's
 * runtime only (TAG 0 while it is written, then a new one); it holds
 * while the thread's EPOCH is dapto_quick_epoch (the attach it was
 * written in; 0 when detached) and the filter area's directory entry of
 * the event and its generation are what they were <protocol#filter-gen>.
 * The counts are the filter's own <protocol#counters>, in the thread's
 * slot.
 */
#define DAPTO_QUICK_ENTRIES 4 /* by event code modulo */

struct dapto_quick {
    /* the event's code + 1 (low half) and the entry's writes (high);
     * 0 while it is empty or written */
    unsigned long long tag;
    const unsigned int *dir; /* the event's directory entry in the area */
    const unsigned int *gen; /* the area's generation */
    unsigned int dir_was, gen_was;
    /* the clause holds when (unsigned long long)value - lo <= span, xor
     * neg, where value is the argument of parameter ARG (int, long or
     * ptr) as dapto_event_filter() takes it */
    unsigned long long lo, span;
    unsigned int arg, neg;
    /* where the event goes when the clause does not hold: 0 or
     * DAPTO_STATE_TRAIL */
    unsigned int out;
    /* DAPTO_QUICK_COMPARE, or DAPTO_QUICK_COUNT: the clause has no
     * condition and counts the event in a question of no key and no
     * value; then SPAN and NEG are not used, LO is the question's table's
     * check (at QCHECK_AT) and ARG its definition's epoch (at QEPOCH_AT),
     * and the event is counted in its entry QENTRY (struct dapto_qentry:
     * its sequence word at 0, its count at byte 32) while they are what
     * they were and the window is open (QCLOSED 0) <protocol#question> */
    unsigned int mode;
    /* the counters to add 1 to when it does not hold (the thread's); a
     * count: the clause's "passed" too, [3] */
    unsigned long long *count[4];
    unsigned int *qentry;
    const unsigned int *qepoch_at;
    const unsigned long long *qcheck_at;
    const unsigned int *qclosed; /* (an entry is 128 bytes) */
};

#define DAPTO_QUICK_COMPARE 0
#define DAPTO_QUICK_COUNT 1

struct dapto_quick_thread {
    unsigned int epoch; /* the attach the entries are of */
    unsigned int pad;
    /* events the entries decided (the thread's) */
    unsigned long long decided;
    unsigned long long sink; /* a counter no one reads */
    struct dapto_quick e[DAPTO_QUICK_ENTRIES];
};

DAPTO_API extern __thread struct dapto_quick_thread dapto_quick_self;
/* The attach whose quick clauses hold; 0 while there is none. */
DAPTO_API extern unsigned int dapto_quick_epoch;

/* Add 1 to counter C of the thread's own, in one instruction (a signal
 * handler's count cannot fall between a load and a store). */
static inline DAPTO_NOINSTR void dapto_quick_add(unsigned long long *c)
{
#if defined(__GNUC__) && defined(__x86_64__)
    __asm__("addq $1, %0" : "+m"(*c));
#else
    __atomic_store_n(c, __atomic_load_n(c, __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);
#endif
}

/* The calling thread's quick clause for event INDEX of ASPECT in state V
 * (with DAPTO_STATE_FILTER), its tag in *TAG; NULL when there is none
 * that holds. */
static inline DAPTO_NOINSTR struct dapto_quick *
dapto_quick_entry(const struct dapto_aspect *aspect, unsigned int index, unsigned int v,
                  unsigned long long *tag)
{
    struct dapto_quick_thread *t = &dapto_quick_self;
    unsigned int code = aspect->event_base + index;
    struct dapto_quick *q = &t->e[code % DAPTO_QUICK_ENTRIES];

    *tag = q->tag;
    /* (the frequency profile counts in dapto_event_filter()) */
    if (DAPTO_UNLIKELY((v & (DAPTO_STATE_PROFILE | DAPTO_STATE_STACK)) != 0 ||
                       (unsigned int)*tag != code + 1 ||
                       t->epoch != __atomic_load_n(&dapto_quick_epoch, __ATOMIC_RELAXED)))
        return (struct dapto_quick *)0;
    /* <protocol#filter-gen>: the entry, then the generation */
    if (DAPTO_UNLIKELY(__atomic_load_n(q->dir, __ATOMIC_ACQUIRE) != q->dir_was ||
                       __atomic_load_n(q->gen, __ATOMIC_RELAXED) != q->gen_was))
        return (struct dapto_quick *)0;
    return q;
}

/* dapto_quick_decide() for quick clause Q (of tag TAG) of mode
 * DAPTO_QUICK_COUNT: the event counted in the question's entry, between
 * two stores of its sequence word, and in the counters; -1 when the
 * question is not what it was, its window is closed or its entry is
 * being written (by the runtime this event interrupted: ask it). */
static inline DAPTO_NOINSTR int dapto_quick_count(struct dapto_quick *q,
                                                  unsigned long long tag)
{
    unsigned long long *c0 = q->count[0], *c1 = q->count[1], *c2 = q->count[2],
                       *c3 = q->count[3];
    unsigned int *seq = q->qentry, out = q->out, s;
    unsigned long long *n = (unsigned long long *)(void *)((char *)seq + 32);

    if (DAPTO_UNLIKELY(__atomic_load_n(q->qepoch_at, __ATOMIC_ACQUIRE) != q->arg ||
                       __atomic_load_n(q->qcheck_at, __ATOMIC_RELAXED) != q->lo ||
                       __atomic_load_n(q->qclosed, __ATOMIC_RELAXED) != 0))
        return -1;
    s = __atomic_load_n(seq, __ATOMIC_RELAXED);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    if (DAPTO_UNLIKELY((s & 1) != 0 || q->tag != tag))
        return -1;
    __atomic_store_n(seq, s + 1, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_RELEASE);
    /* (one instruction: a signal handler's event counted meanwhile is
     * not lost, and the entry, a count alone, is whole at any time) */
    dapto_quick_add(n);
    __atomic_store_n(seq, s + 2, __ATOMIC_RELEASE);
    dapto_quick_add(c0);
    dapto_quick_add(c1);
    dapto_quick_add(c3);
    dapto_quick_add(c2);
    dapto_quick_add(&dapto_quick_self.decided);
    return (int)out;
}

/* What quick clause Q (of tag TAG) says of an event whose argument it
 * compares is X: where the event goes (0 or DAPTO_STATE_TRAIL), counted;
 * -1 when it cannot tell (ask dapto_event_filter()). */
static inline DAPTO_NOINSTR int dapto_quick_decide(struct dapto_quick *q,
                                                   unsigned long long tag, long long x)
{
    unsigned long long *c0 = q->count[0], *c1 = q->count[1], *c2 = q->count[2];
    unsigned int out = q->out;
    int held;

    if (DAPTO_UNLIKELY(q->mode != DAPTO_QUICK_COMPARE))
        return dapto_quick_count(q, tag);
    held = ((unsigned long long)x - q->lo <= q->span) ^ (int)q->neg;
    /* the same entry all along (a signal handler's event may have
     * written it meanwhile) */
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    if (DAPTO_UNLIKELY(held || q->tag != tag))
        return -1;
    dapto_quick_add(c0);
    dapto_quick_add(c1);
    dapto_quick_add(c2);
    dapto_quick_add(&dapto_quick_self.decided);
    return (int)out;
}

/* Count event INDEX of ASPECT, whose state has DAPTO_STATE_PROFILE, in the
 * calling thread's call tree, under its current path (the frequency
 * profile kept by the program) <protocol#cct>.  The runtime does so for an
 * event it encodes or filters; a generated encoder calls it itself when
 * the trail and the tree are all that want the event (its state is
 * DAPTO_STATE_TRAIL | DAPTO_STATE_PROFILE), and keeps the event as with
 * the trail alone. */
DAPTO_API void dapto_event_count(const struct dapto_aspect *aspect, unsigned int index);
/*
 * The post-mortem trail of the calling thread <protocol#ttrail>: while
 * nothing but the trail wants an event (its state is DAPTO_STATE_TRAIL
 * alone, which is every event's under a monitor that was asked nothing),
 * generated encoders keep its arguments in the thread's own trail
 * themselves, without a call, a record, a clock read or anything shared
 * with another thread:
 *
 *     static DAPTO_NOINLINE void foo_dapto_keep_bar(int x, const char *s)
 *     {
 *         struct dapto_keep _dapto_k;
 *
 *         if (DAPTO_LIKELY(dapto_keep_begin(&_dapto_k))) {
 *             dapto_keep_int(&_dapto_k, x);
 *             dapto_keep_str(&_dapto_k, s);
 *             dapto_keep_end(&_dapto_k, &foo_dapto_aspect_a, 0);
 *         } else {
 *             union dapto_arg _dapto_a[2];
 *
 *             _dapto_a[0].i = (int)(x);
 *             _dapto_a[1].s = (s);
 *             dapto_event_keep(&foo_dapto_aspect_a, 0, _dapto_a);
 *         }
 *     }
 *
 * dapto_keep_begin() fails while the thread has no trail of this attach
 * (dapto_event_keep() takes one, or keeps the event another way) or is
 * keeping another event (a signal handler's event inside it).  A slot is
 * DAPTO_KEEP_SLOT bytes: a word (the event's code in bits 0..15, the
 * bytes of values after the word in 16..31, the run's coarse clock in
 * 32..63), then the values tagged as in a record; a string cut to fit has
 * DAPTO_K_TRUNC on its tag, and nothing follows a value cut or left out.
 */
#define DAPTO_KEEP_SLOT 128

/* The calling thread's trail: the runtime's; the program only reads it,
 * and writes slots through the functions below. */
struct dapto_trail_thread {
    unsigned char *slots;              /* the trail's slots */
    unsigned long long *head;          /* the trail's count of events */
    const volatile unsigned int *clock; /* the run's coarse clock */
    unsigned long long mask;           /* slots - 1 */
    unsigned long long next;           /* *head's value */
    /* The attach the trail is of (dapto_trail_epoch then), with
     * DAPTO_KEEP_BUSY while the thread keeps an event. */
    unsigned int key;
};
#define DAPTO_KEEP_BUSY 0x80000000u
DAPTO_API extern __thread struct dapto_trail_thread dapto_trail_self;
/* The attach whose trails are in use (a thread's trail is good while its
 * key is this); never a thread's key while there are none. */
DAPTO_API extern unsigned int dapto_trail_epoch;

/* A slot being written: offsets from its start (so that a compiler knows
 * them as constants up to the first string).  The event's number and the
 * thread's key are read again at the end, from the thread's trail (no
 * one else changes them meanwhile), rather than held: a string's copy
 * then needs no register the encoder must save. */
struct dapto_keep {
    unsigned char *slot;
    size_t at;  /* where the next value goes */
    size_t end; /* of the room; at once a value did not fit */
    struct dapto_trail_thread *t;
};

static inline DAPTO_NOINSTR int dapto_keep_begin(struct dapto_keep *k)
{
    struct dapto_trail_thread *t = &dapto_trail_self;
    unsigned int key = dapto_trail_epoch;

    if (DAPTO_UNLIKELY(t->key != key))
        return 0;
    t->key = key | DAPTO_KEEP_BUSY;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    k->t = t;
    k->slot = t->slots + (size_t)(t->next & t->mask) * DAPTO_KEEP_SLOT;
    k->at = 8;
    k->end = DAPTO_KEEP_SLOT;
    return 1;
}

static inline DAPTO_NOINSTR void dapto_keep_fixed(struct dapto_keep *k,
                                                  unsigned char tag,
                                                  const void *v, size_t n)
{
    if (DAPTO_UNLIKELY(k->end - k->at < n + 1)) {
        k->end = k->at; /* nothing after a value left out */
        return;
    }
    k->slot[k->at] = tag;
    memcpy(k->slot + k->at + 1, v, n);
    k->at += n + 1;
}

static inline DAPTO_NOINSTR void dapto_keep_int(struct dapto_keep *k, int v)
{
    dapto_keep_fixed(k, DAPTO_K_INT, &v, sizeof v);
}

static inline DAPTO_NOINSTR void dapto_keep_long(struct dapto_keep *k, long v)
{
    dapto_keep_fixed(k, DAPTO_K_LONG, &v, sizeof v);
}

static inline DAPTO_NOINSTR void dapto_keep_double(struct dapto_keep *k, double v)
{
    dapto_keep_fixed(k, DAPTO_K_DOUBLE, &v, sizeof v);
}

static inline DAPTO_NOINSTR void dapto_keep_ptr(struct dapto_keep *k, const void *v)
{
    unsigned long long u = (unsigned long long)(size_t)v;

    dapto_keep_fixed(k, DAPTO_K_PTR, &u, sizeof u);
}

/* As much of S as fits, as dapto_put_str() encodes it.  S is read eight
 * bytes at a time while they lie on its page, as the C library's strlen()
 * reads: the bytes after its NUL are read, never used (hence no address
 * sanitizer here). */
static inline DAPTO_NOINSTR DAPTO_NOASAN void dapto_keep_str(struct dapto_keep *k,
                                                             const char *s)
{
    unsigned char *v, *d;
    size_t room;
    unsigned int n;

    if (DAPTO_UNLIKELY(k->end - k->at < 6)) {
        k->end = k->at;
        return;
    }
    v = k->slot + k->at;
    d = v + 5;
    room = k->end - k->at - 6; /* bytes of S that fit, before its NUL */
    if (s == NULL)
        s = "(null)";
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    {
        size_t base = 0;
        unsigned long long w, z;

        /* the first word apart, its string ending there the path that
         * falls through: a short string costs no branch taken */
        if (DAPTO_UNLIKELY(((size_t)s & 4095) > 4096 - 8 || room < 8))
            goto bytes;
        memcpy(&w, s, 8);
        z = (w - 0x0101010101010101ull) & ~w & 0x8080808080808080ull;
        memcpy(d, &w, 8);
        while (DAPTO_UNLIKELY(z == 0)) {
            base += 8;
            if (((size_t)(s + base) & 4095) > 4096 - 8 || base + 8 > room)
                goto bytes;
            memcpy(&w, s + base, 8);
            z = (w - 0x0101010101010101ull) & ~w & 0x8080808080808080ull;
            memcpy(d + base, &w, 8);
        }
        /* the NUL is byte z of W, which holds S from BASE on (and was
         * copied with it: d[n] is already 0) */
        n = (unsigned int)(base + (size_t)__builtin_ctzll(z) / 8);
        memcpy(v + 1, &n, sizeof n);
        *v = DAPTO_K_STR;
        k->at += n + 6;
        return;
    }
bytes:
#endif
    for (n = 0; n < room && s[n] != '\0'; n++)
        d[n] = (unsigned char)s[n];
    d[n] = '\0';
    memcpy(v + 1, &n, sizeof n);
    if (DAPTO_UNLIKELY(s[n] != '\0')) {
        *v = DAPTO_K_STR | DAPTO_K_TRUNC;
        k->at = k->end = k->at + n + 6;
        return;
    }
    *v = DAPTO_K_STR;
    k->at += n + 6;
}

/* The slot holds an event of code CODE: its word, then the trail's
 * count. */
static inline DAPTO_NOINSTR void dapto_keep_end_code(struct dapto_keep *k,
                                                     unsigned int code)
{
    struct dapto_trail_thread *t = k->t;
    unsigned long long w = (unsigned long long)(unsigned short)code |
                           (unsigned long long)(k->at - 8) << 16 |
                           (unsigned long long)*t->clock << 32;
    unsigned long long n;

    memcpy(k->slot, &w, sizeof w);
    n = t->next + 1;
    t->next = n;
    __atomic_store_n(t->head, n, __ATOMIC_RELEASE);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    t->key &= ~DAPTO_KEEP_BUSY;
}

/* The slot holds event INDEX of ASPECT. */
static inline DAPTO_NOINSTR void dapto_keep_end(struct dapto_keep *k,
                                                const struct dapto_aspect *aspect,
                                                unsigned int index)
{
    dapto_keep_end_code(k, aspect->event_base + index);
}

/* Keep event INDEX of ASPECT, whose state is DAPTO_STATE_TRAIL alone, with
 * its arguments ARGS (one per parameter, none of a user type): in the
 * thread's trail (taken now when it has none), or where the runtime
 * keeps the events of a thread without one. */
DAPTO_API void dapto_event_keep(const struct dapto_aspect *aspect,
                                unsigned int index,
                                const union dapto_arg *args);
/* The state bits of verdict V (the rest is the record's): a verdict of
 * DAPTO_STATE_TRAIL alone is kept as an event of that state is
 * (dapto_keep_begin()). */
#define DAPTO_VERDICT_STATE(v) ((v) & 0xffu)
/* dapto_event_end() for an event in state or verdict V: the state byte
 * as read before encoding, or what dapto_event_filter() returned. */
DAPTO_API void dapto_event_end_as(struct dapto_out *o, unsigned int v);

#define DAPTO_EVENT_END_AS(v) dapto_event_end_as(_dapto_out, (v))

/*
 * The built-in aspect "dapto".  init, finit and exit are emitted by the
 * runtime itself; programs call the others.
 */
enum dapto_builtin {
    DAPTO_EV_INIT = 0,    /* init*(int pid) */
    DAPTO_EV_FINIT = 1,   /* finit*() */
    DAPTO_EV_EXIT = 2,    /* exit() */
    DAPTO_EV_STOPPED = 3, /* stopped(str locale, int error) */
    DAPTO_EV_ENTER = 4,   /* enter(str name) */
    DAPTO_EV_LEAVE = 5,   /* leave(str name) */
    DAPTO_EV_BUILTINS = 6
};

/* State bytes of the built-in events; written by the monitor only. */
DAPTO_API extern dapto_state_t dapto_builtin_state[DAPTO_EV_BUILTINS];

DAPTO_API void dapto_emit_stopped(const char *locale, int error);
DAPTO_API void dapto_emit_enter(const char *name);
DAPTO_API void dapto_emit_leave(const char *name);

/* Enter a program component.  NAME should be a string that lives as long
 * as the program (a literal): the runtime interns it by address. */
static inline DAPTO_NOINSTR void _dapto_enter(const char *name)
{
    if (DAPTO_UNLIKELY(dapto_builtin_state[DAPTO_EV_ENTER]))
        dapto_emit_enter(name);
}

/* Leave a program component; NAME as for _dapto_enter(). */
static inline DAPTO_NOINSTR void _dapto_leave(const char *name)
{
    if (DAPTO_UNLIKELY(dapto_builtin_state[DAPTO_EV_LEAVE]))
        dapto_emit_leave(name);
}

static inline DAPTO_NOINSTR void _dapto_stopped(const char *locale, int error)
{
    if (DAPTO_UNLIKELY(dapto_builtin_state[DAPTO_EV_STOPPED]))
        dapto_emit_stopped(locale, error);
}

/*
 * Recovery points <protocol#recover>.  A block with a failure branch:
 *
 *     DAPTO_TRY(rp) {
 *         ... code that may fault ...
 *     } DAPTO_FAIL(rp) {
 *         ... runs instead when the monitor converted an error to failure;
 *         ... rp.signo and rp.addr say which
 *     } DAPTO_END(rp);
 *
 * When the program hits a fatal signal inside the block and the user (or
 * the error policy) of a monitor converts the error, the thread resumes
 * in the failure branch of its innermost active recovery point, as if
 * the block had failed.  Without a monitor, or when the error is not
 * converted, a fault does what it always does.  Recovery points nest and
 * are per thread.  DAPTO_FAIL is optional: without it a converted error
 * leaves the block.  Leave the body early (return, break, goto) only
 * after DAPTO_LEAVE(rp).  As with setjmp, local variables changed in the
 * body and read in the failure branch must be volatile.
 */
struct dapto_recovery {
    /* Where the recovery point is; set by DAPTO_TRY. */
    const char *file;
    const char *func;
    int line;
    /* Why the failure branch runs: the signal and the fault address (0
     * and NULL until then). */
    int signo;
    void *addr;
    /* Private to the runtime. */
    int state;
    unsigned int depth; /* the thread's depth with this point */
    struct dapto_recovery *prev;
    unsigned long mask[16]; /* the thread's signal mask at DAPTO_TRY */
    jmp_buf env;
};

/* Make RP the thread's innermost recovery point (DAPTO_TRY calls it). */
DAPTO_API void dapto_recover_push(struct dapto_recovery *rp, const char *file,
                                  const char *func, int line);
/* Leave RP (and any recovery point left inside it without
 * DAPTO_LEAVE).  Returns 1 when RP's block failed (an error was
 * converted), else 0.  Calling it again returns 0. */
DAPTO_API int dapto_recover_pop(struct dapto_recovery *rp);
/* How many recovery points the calling thread is inside. */
DAPTO_API int dapto_recover_depth(void);

#define DAPTO_TRY(rp)                                                       \
    {                                                                       \
        struct dapto_recovery rp;                                           \
        if (setjmp(rp.env) == 0) {                                          \
            dapto_recover_push(&rp, __FILE__, __func__, __LINE__);
#define DAPTO_FAIL(rp)                                                      \
        }                                                                   \
        if (dapto_recover_pop(&rp)) {
#define DAPTO_END(rp)                                                       \
        }                                                                   \
        (void)dapto_recover_pop(&rp);                                       \
    }
#define DAPTO_LEAVE(rp) ((void)dapto_recover_pop(&rp))

/*
 * Report a run-time error: MESSAGE (printf format) is printed on standard
 * error, prefixed with the program's name, and the program aborts
 * (SIGABRT), unless a monitor converts the error to failure: then
 * dapto_error returns DAPTO_CONVERTED and the caller takes its failure
 * path.  Under noosa the program stops first, with the message shown.
 * Not async-signal-safe.
 */
#define DAPTO_CONVERTED 1
DAPTO_API int dapto_error(const char *format, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

#ifdef __cplusplus
}
#endif

#endif /* DAPTO_H */
