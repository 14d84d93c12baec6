/* SPDX-License-Identifier: MIT */
/*
 * runtime.h - the state libdapto shares between its modules: whether the
 * process is attached to a monitor, the mapped region, and the per-thread
 * facts every record carries.  Internal; never installed.
 */
#ifndef NOOSA_RUNTIME_H
#define NOOSA_RUNTIME_H

#include <stdint.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#include "dapto.h"
#include "protocol.h"
#include "region.h"
#include "ring.h"
#include "rtquestion.h"
#include "rtrelate.h"
#include "tbuf.h"
#include "trail.h"
#include "ttrail.h"

/* The protocol version this runtime speaks; a test builds a copy with
 * another major to check the handshake <protocol#version>. */
#ifndef RUNTIME_PROTO_MAJOR
#define RUNTIME_PROTO_MAJOR DAPTO_PROTO_MAJOR
#endif
#define RUNTIME_PROTO_MEDIAN DAPTO_PROTO_MEDIAN
/* (a test builds a copy that speaks an older minor: one without thread
 * buffers <protocol#tbuf>) */
#ifndef RUNTIME_PROTO_MINOR
#define RUNTIME_PROTO_MINOR DAPTO_PROTO_MINOR
#endif

#define RT_TLS __attribute__((tls_model("initial-exec")))
/* (for what assembler code names) */
#define RT_HIDDEN __attribute__((visibility("hidden")))

/* Per mailbox, the runtime keeps a copy of the request's arguments and an
 * alternate signal stack for the recovery point, in one anonymous
 * mapping made at attach. */
#define RT_ALTSTACK (64u << 10)
#define RT_SCRATCH (DAPTO_MBOX_DATA + RT_ALTSTACK)

struct runtime {
    /* 1 while the process is attached to a monitor.  Set once at attach;
     * cleared only in a forked child (before fork() returns there). */
    int attached;
    /* Set at attach, read-only after. */
    int tsc;       /* timestamps are TSC ticks <protocol#hello> */
    int overwrite; /* the ring overwrites: no interning */
    int named_cct; /* the monitor reads components in the call tree */
    pid_t pid;
    struct region region;
    struct ring ring;
    struct trail trail;
    unsigned char *scratch; /* mbox_count * RT_SCRATCH bytes */
    /* The filter area and the counter slots <protocol#filter>
     * <protocol#counters>, NULL when the monitor has none (or speaks a
     * minor below 2).  Set at attach, read-only after. */
    const unsigned char *filt;
    uint32_t filt_size;
    uint64_t *cnt;
    uint32_t cnt_slots;
    /* The question area <protocol#question>; area NULL without one
     * (minor below 3).  Set at attach, read-only after. */
    struct rtq_env q;
    /* The relations area <protocol#relate>; area NULL without one (minor
     * below 5).  Set at attach, read-only after. */
    struct rtrel_env rel;
    /* The monitor that attached to the running program <protocol#attach>
     * (its pid), 0 for one that started it.  Set at attach, cleared at
     * release. */
    int monitor;
    /* Attaches so far: a thread's counter slot and filter cache belong to
     * the attach they were taken in.  Bumped while every other thread is
     * stopped by the monitor. */
    uint32_t epoch;
    /* Thread buffers <protocol#tbuf>: the area (count 0: none), and the
     * attach they belong to (a thread's buffer is of this attach when its
     * rt_tb.epoch is this), RT_TB_NONE without them.  Set at attach
     * before `attached`, read-only after; tb_epoch is RT_TB_NONE again
     * once released. */
    struct tbuf_area tb;
    uint32_t tb_epoch;
    /* Threads' own trails <protocol#ttrail>: the area (count 0: none).
     * The attach they belong to is dapto_trail_epoch (rtrail.h).  Set at
     * attach before `attached`, read-only after. */
    struct ttrail_area tt;
};

/* runtime.tb_epoch without thread buffers: never a thread's rt_tb.epoch. */
#define RT_TB_NONE UINT32_MAX


/* The one runtime; see the comment of each field for when it changes. */
extern struct runtime runtime;

/* This thread's id, cached; 0 until first needed, and reset in a forked
 * child. */
extern RT_TLS __thread uint32_t rt_tid;
/* Non-zero while this thread writes to the ring or trail: an event raised
 * meanwhile (from a signal handler) is counted lost, not nested. */
extern RT_TLS __thread int rt_busy;

/* Whether an event in state ST goes straight into the ring (and, with
 * DAPTO_STATE_TRAIL, the thread's own trail <protocol#ttrail>, or else the
 * monitor keeps it for the post-mortem <protocol#trail>) and nowhere else:
 * recorded, not stopped, on a ring that does not overwrite, and this
 * thread not inside the ring already. */
#define RT_RING_ONLY(st)                                                  \
    (((st) & ~(unsigned int)DAPTO_STATE_TRAIL) == DAPTO_STATE_RECORD &&   \
     !rt_busy && !runtime.overwrite)

/* This thread's counter slot, NULL until it first counts; reset in a
 * forked child (rtfilter.c). */
extern RT_TLS __thread uint64_t *rt_cnt;

/* Non-zero while this thread runs an operation for the monitor: its
 * events are recorded but never stop. */
extern RT_TLS __thread int rt_in_op;

/* The built-in aspect "dapto"; registered first, event_base 0. */
extern struct dapto_aspect rt_builtin;

/* Initialise once, whatever calls first (constructor or dapto_register). */
void rt_init(void);

/* Attach to the region behind MEMFD, EVENTFD (runtime.c); see there. */
int rt_attach_fds(int memfd, int eventfd, int from_env);
/* Detach: every state off, the region unmapped, both descriptors closed. */
void rt_release(void);
/* Every state byte of every aspect to 0. */
void rt_states_off(void);
/* The built-in event init, when its state asks for it. */
void rt_emit_init(void);
/* Whether the monitor that attached to the running program is gone (it
 * died without detaching); then the runtime lets itself go
 * <protocol#attach>.  Only ever 1 with runtime.monitor set.  In
 * attach.c. */
int rt_monitor_gone(void);

/* The entry points the monitor makes a stopped thread call to attach to
 * the running program and to detach from it <protocol#attach>; nothing
 * in the program calls them.  In attach.c. */
DAPTO_API int64_t dapto_attach_open(void);
DAPTO_API int dapto_attach_start(int memfd, int eventfd, int monitor);
DAPTO_API int dapto_attach_end(void);
/* Where a forked child passes once its runtime has let go of its
 * parent's channel and the C library is usable again (the end of the
 * runtime's atfork handler): a monitor that follows the child stops it
 * here and attaches to it <protocol#fork>.  Does nothing.  In attach.c. */
DAPTO_API void dapto_fork_point(void);
/* Probes handled in the program <protocol#probes>: the monitor makes a
 * stopped thread call dapto_probe_area() for room (read and execute)
 * within 2 GiB of NEAR, returning its address or a negative errno (in
 * probe.c); its trampolines call dapto_probe_hit_gp(), which touches no
 * register but the general ones and the flags (in probe-hit.c). */
struct dapto_probe_site;
DAPTO_API int64_t dapto_probe_area(uint64_t near, uint64_t size);
DAPTO_API void dapto_probe_hit_gp(const struct dapto_probe_site *s,
                                  const uint64_t *regs);
/* What a hit does out of probe-hit.c, with the vector state saved
 * around it (rt_probe_vsave_out): rt_probe_out(WHAT, A, B, C) calls
 * the function WHAT names with A, B, C as its arguments (the ring's,
 * the thread buffer's, the record's out-of-line parts; event_deliver(A,
 * B); rt_now()) and returns its result; errno kept.  In probe.c. */
enum {
    RT_OUT_RING_ROOM,
    RT_OUT_RING_WRAPPED,
    RT_OUT_RING_LOST,
    RT_OUT_RING_WAKE,
    RT_OUT_TBUF_PUT,
    RT_OUT_TBUF_WAKE,
    RT_OUT_RECORD,
    RT_OUT_DELIVER,
    RT_OUT_CLOCK,
};
RT_HIDDEN long rt_probe_out(int what, uint64_t a, uint64_t b, uint64_t c);
/* How rt_probe_vsave_out saves the vector state. */
enum { RT_VSAVE_FXSAVE, RT_VSAVE_XSAVE, RT_VSAVE_XSAVEC };
/* A float's bits W as a double's (probe-hit.c: no floating-point
 * register there). */
uint64_t rt_probe_float_bits(uint32_t w);

/* The monitor's breakpoints, which it lists before it writes them, and
 * the SIGTRAP handler that carries out at one of them the instruction it
 * replaced once the monitor is gone (installed when a monitor attaches;
 * once).  In probe-trap.c <protocol#probes>. */
DAPTO_API extern volatile uint64_t dapto_probe_traps[DAPTO_PROBE_TRAPS];
void rt_trap_install(void);

/* This thread's id (gettid, cached). */
uint32_t rt_gettid(void);

/* First registered aspect; the list only grows (next links, acquire). */
struct dapto_aspect *rt_aspects(void);

static inline int rt_is_attached(void)
{
    return __atomic_load_n(&runtime.attached, __ATOMIC_ACQUIRE);
}

static inline uint32_t rt_thread(void)
{
    return rt_tid != 0 ? rt_tid : rt_gettid();
}

/* A timestamp: TSC ticks when the monitor asked for them, else
 * CLOCK_MONOTONIC nanoseconds. */
static inline uint64_t rt_now(void)
{
    struct timespec ts;

#if defined(__x86_64__) || defined(__i386__)
    if (runtime.tsc)
        return __rdtsc();
#endif
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Deliver record REC (header filled in but for size/seq) as state ST
 * says: trail, ring, stop.  In event.c. */
void event_deliver(struct dapto_record *rec, unsigned int st);

/* Keep record REC (header filled in: code, flags, len) in the calling
 * thread's own trail <protocol#ttrail>, its time left unread: 0, or -1
 * when it cannot be (no trail, or a signal handler's event inside
 * another's writing): then deliver it.  In event.c. */
int rt_keep(struct dapto_record *rec);

/* Write a runtime record (HELLO, ASPECT, INTERN) to the ring, whatever
 * any state says.  Returns 0, or -1 when it could not be written. */
int event_post(struct dapto_record *rec);

/* Relations <protocol#relate>, in event.c: deliver derived event DEF's
 * record REC as its state (in the relations area) says; the leave of
 * frame F, which the runtime popped at a recovery point, as the program
 * would have made it (a function's in instrument.c). */
void rt_rel_emit(const struct rtrel_env *e, struct dapto_record *rec, unsigned int def);
void rt_rel_unwound(const struct dapto_rel_frame *f);
void rt_fn_unwound(void *fn);

#endif /* NOOSA_RUNTIME_H */
