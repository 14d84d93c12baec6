/* SPDX-License-Identifier: MIT */
/*
 * protocol.h - the channel between libdapto (in the program) and noosa.
 *
 * This is the layout of the shared region and of the records in it, and
 * nothing else.  Both sides include it; it is never installed, and programs
 * never see it.  Everything here is native-endian: both ends run on the same
 * machine.  See doc/protocol.md for the rules the code relies on; tags below
 * such as <protocol#commit> name those rules.
 *
 * Versioning follows the MPS telemetry rule: major changes when the layout
 * of the region changes, median when an existing record changes its form or
 * meaning, minor when a new record kind is added.  A reader refuses another
 * major or median and skips record kinds it does not know.
 */
#ifndef NOOSA_PROTOCOL_H
#define NOOSA_PROTOCOL_H

#include <stdint.h>

#define DAPTO_PROTO_MAJOR 1
#define DAPTO_PROTO_MEDIAN 0
#define DAPTO_PROTO_MINOR 6

/* The minor from which a runtime can be attached to while it runs
 * <protocol#attach>. */
#define DAPTO_ATTACH_MINOR 3

/* The minor from which a thread may write its records into a buffer of its
 * own <protocol#tbuf>. */
#define DAPTO_TBUF_MINOR 4

/* The minor from which the program keeps its threads' component stacks
 * and derived events for the monitor <protocol#relate>, and questions
 * have a measurement window <protocol#question>. */
#define DAPTO_RELATE_MINOR 5

/* The minor from which a thread keeps the post-mortem trail of its own
 * events in a trail of its own <protocol#ttrail>. */
#define DAPTO_TTRAIL_MINOR 6

/* The minor from which named components and events are counted in the
 * calling-context tree (DAPTO_CCT_NAMED, DAPTO_CCT_EVENT) <protocol#cct>. */
#define DAPTO_PATH_MINOR 6

/* Environment variable that lets a monitor attach to the program under
 * Yama's ptrace_scope 1: "any", or the pid of the one process allowed
 * <protocol#attach>. */
#define DAPTO_PTRACER_ENV "DAPTO_PTRACER"

/* Environment variable naming the channel: "MEMFD:EVENTFD", two decimal
 * file descriptors inherited by the program.  The runtime removes it and
 * marks both descriptors close-on-exec once it has attached. */
#define DAPTO_CHANNEL_ENV "DAPTO_CHANNEL"

#define DAPTO_REGION_MAGIC 0x534f4f4eu  /* "NOOS", written by the monitor */
#define DAPTO_RUNTIME_MAGIC 0x54504144u /* "DAPT", written by the runtime */

/*
 * The first 32 bytes of the region.  Their layout never changes, so that
 * two ends of different versions can still tell each other so.
 */
struct dapto_region_id {
    uint32_t magic;  /* DAPTO_REGION_MAGIC */
    uint16_t major;  /* the monitor's protocol version */
    uint16_t median;
    uint16_t minor;
    uint16_t pad0;
    uint32_t rt_magic; /* DAPTO_RUNTIME_MAGIC once the runtime has looked */
    uint16_t rt_major; /* the runtime's protocol version */
    uint16_t rt_median;
    uint16_t rt_minor;
    uint16_t pad1;
    int32_t rt_pid; /* the program's pid */
    uint32_t pad2;
};

/* Region flags, set by the monitor. */
#define DAPTO_RF_TSC 0x1       /* timestamps are TSC ticks, else CLOCK_MONOTONIC ns */
#define DAPTO_RF_OVERWRITE 0x2 /* a full ring overwrites instead of waiting */

/*
 * The whole region header.  Geometry is written by the monitor before the
 * program starts and is read-only to the runtime, which checks it against
 * the region's size before trusting it.  Counters are each on their own
 * cache line.
 */
struct dapto_region {
    struct dapto_region_id id;

    /* Geometry: set once by the monitor, read-only after. */
    uint32_t size;      /* bytes in the whole region */
    uint32_t flags;     /* DAPTO_RF_* */
    uint32_t ring_off;  /* event ring */
    uint32_t ring_size; /* a power of two, at least 4096 */
    uint32_t iface_off; /* interface descriptions, append-only */
    uint32_t iface_size;
    uint32_t trail_off; /* post-mortem trail */
    uint32_t trail_slots; /* of DAPTO_TRAIL_SLOT bytes each; a power of two */
    uint32_t mbox_off;  /* stop mailboxes */
    uint32_t mbox_count; /* of sizeof(struct dapto_mailbox) each */
    /* Filters <protocol#filter> and their counters <protocol#counters>
     * (minor 2; 0 without them). */
    uint32_t filt_off;  /* filter area (struct dapto_filter_area) */
    uint32_t filt_size;
    uint32_t cnt_off;   /* counter slots */
    uint32_t cnt_slots; /* of DAPTO_CNT_PER_SLOT uint64_t each */
    /* Questions <protocol#question> (minor 3; 0 without them). */
    uint32_t q_off;     /* question area (struct dapto_question_area) */
    uint32_t q_size;

    /* Written by the runtime at attach, read-only after. */
    uint64_t rt_tsc0; /* a TSC reading and the CLOCK_MONOTONIC ns taken */
    uint64_t rt_ns0;  /* right after it, for converting timestamps */
    /* Address of the recovery table in the program's memory (struct
     * dapto_recover_table), 0 until the program first uses recovery
     * points or dapto_error(); written once <protocol#recover>. */
    uint64_t rt_recover;
    /* Address of the runtime's function that ends the operation a thread
     * runs, `void interrupt(void)` <protocol#stop> (minor 1). */
    uint64_t rt_interrupt;
    /* Where the program mapped the region (minor 5; 0 from an older
     * runtime): the address of the derived events' state bytes in the
     * program <protocol#relate>. */
    uint64_t rt_region;
    uint64_t rt_reserved[3];

    /* Thread buffers <protocol#tbuf> (minor 4; 0 without them: these
     * bytes were padding before).  Geometry: set once by the monitor,
     * read-only after. */
    uint32_t tb_off;   /* the area: tb_count headers, then the buffers */
    uint32_t tb_count; /* buffers */
    uint32_t tb_size;  /* bytes of one buffer, a power of two */
    /* The CPU each side last waited on, plus 1; 0 from a side that does
     * not say (these bytes were padding before) <protocol#spin>. */
    uint32_t monitor_cpu; /* the monitor, when it spins for records */
    uint32_t program_cpu; /* a thread of the program, when it spins for
                           * the monitor's answer or for room */
    /* The relations area <protocol#relate> (minor 5; 0 without it: these
     * bytes were padding before).  Geometry: set once by the monitor,
     * read-only after. */
    uint32_t rel_off;
    uint32_t rel_size;
    uint32_t tb_pad;

    /* Producers: next free byte position in the ring (monotonic). */
    _Alignas(64) uint64_t head;

    /* Consumer: next byte position to read (monotonic). */
    _Alignas(64) uint64_t tail;
    uint32_t tail_wake;  /* futex word: bumped by the consumer when producers wait */
    uint32_t space_waiters; /* producers waiting for room */
    /* Set by the monitor when it lets the program go <protocol#letgo>:
     * from then on the runtime never waits for it.  (Minor 1.) */
    uint32_t let_go;

    /* Consumer sleep flag: 1 while the monitor waits on the eventfd. */
    _Alignas(64) uint32_t consumer_sleeping;

    /* Records the runtime could not deliver (overwrite mode, oversize). */
    _Alignas(64) uint64_t lost;

    /* Interface area: bytes used, and a spin lock for appending. */
    _Alignas(64) uint32_t iface_used;
    uint32_t iface_lock;
    uint32_t aspects_posted; /* runtime: aspects described so far */
    uint32_t aspects_acked;  /* monitor: aspects whose states are written; futex word */

    /* Trail: index of the next slot to write (monotonic). */
    _Alignas(64) uint64_t trail_next;

    /* Counter slots handed out to threads so far (monotonic; minor 2)
     * <protocol#counters>: a thread takes n = cnt_next++ + 1 and counts in
     * slot n when n < cnt_slots, else in the shared slot 0. */
    _Alignas(64) uint32_t cnt_next;

    /* Threads' own trails <protocol#ttrail> (minor 6; 0 without them:
     * beyond the header of an older monitor, and so 0).  tt_clock, the
     * coarse clock of the trails: written by the monitor now and then,
     * and moved on by one when a thread takes a trail; tt_taken: trails
     * taken so far (monotonic), added to atomically by the runtime.  The
     * geometry: set once by the monitor, read-only after. */
    _Alignas(64) uint32_t tt_clock;
    uint32_t tt_taken;
    uint32_t tt_off;   /* the area: tt_count trails */
    uint32_t tt_count; /* trails */
    uint32_t tt_slots; /* slots of one trail, a power of two */
};

/* The header keeps its layout from one minor to the next. */
_Static_assert(__builtin_offsetof(struct dapto_region, head) == 192,
               "the region header's layout");

/*
 * A thread buffer <protocol#tbuf> (minor 4): the buffer of one thread of
 * the program at a time, which writes its event records there, one after
 * the other, with plain stores, and publishes how far it wrote in head.
 * The monitor takes them from tail up to head.  The owner's line is
 * written only by the thread that owns the buffer (and, once that thread
 * is gone, by the monitor that frees it); the monitor's line only by the
 * monitor.
 */
struct dapto_tbuf {
    /* Bytes written (monotonic); a release store after each record. */
    uint64_t head;
    /* Records the owner could not write (its buffer full in overwrite
     * mode), monotonic. */
    uint64_t lost;
    /* The thread that owns the buffer, 0 when it is free: a thread takes
     * a free one by compare-and-swap from 0; the monitor stores 0 once the
     * owner is gone and everything it wrote is taken. */
    uint32_t owner;
    /* 1 while the owner waits for room (lossless mode). */
    uint32_t waiting;
    uint32_t pad0[10];

    /* Bytes the monitor has taken (monotonic); a release store. */
    _Alignas(64) uint64_t tail;
    /* Futex word: bumped by the monitor when it moves tail while the
     * owner waits. */
    uint32_t tail_wake;
    uint32_t pad1[13];
};

/* A thread buffer's first (size) word of a record holding this bit is no
 * record: the rest of the buffer up to its end is unused (the next
 * record did not fit before the end and starts at the beginning); the
 * bits below say how many bytes those are. */
#define DAPTO_TB_PAD 0x80000000u

/*
 * A record in the ring <protocol#record>.  Records are 8-byte aligned and
 * their size is a multiple of 8, so the first 8 bytes (size and seq), the
 * commit word, never straddle the end of the ring; the rest of a record may
 * wrap around.  A producer writes everything else first, then stores the
 * commit word with release ordering.  The consumer trusts a record only when
 * seq equals its position divided by 8 (truncated to 32 bits) and size is
 * sane <protocol#commit>.
 */
struct dapto_record {
    uint32_t size;  /* whole record, header included, multiple of 8 */
    uint32_t seq;   /* (ring position >> 3) truncated to 32 bits */
    uint16_t code;  /* event code, or DAPTO_REC_* */
    uint16_t flags; /* DAPTO_RECF_* */
    uint32_t tid;   /* thread that wrote it */
    uint64_t time;  /* timestamp, see DAPTO_RF_TSC */
    uint32_t aux;   /* mailbox index with DAPTO_RECF_STOP */
    uint32_t len;   /* bytes of values after the header */
    /* values follow: a tag byte (enum dapto_kind) and the value each */
};

#define DAPTO_RECORD_HEADER 32
#define DAPTO_RECORD_MAX 65536 /* no record is larger */

/* Record flags. */
#define DAPTO_RECF_STOP 0x1  /* the writer waits in mailbox `aux` */
#define DAPTO_RECF_TRUNC 0x2 /* a value was cut to fit */
/* The event passed its filter <protocol#filter>: bits 4..15 say which of
 * its clauses held (bit 4 + i for clause i).  Minor 2. */
#define DAPTO_RECF_FILTERED 0x8
#define DAPTO_RECF_CLAUSE_SHIFT 4
/*
 * Record codes.  Event codes count from 0: the built-in aspect "dapto"
 * takes 0..5 and each aspect registered after it takes the next block
 * (its event_base).  Codes from DAPTO_REC_FIRST up are the runtime's own.
 */
#define DAPTO_EVENT_CODE_MAX 0xefff
/* Codes from here to DAPTO_EVENT_CODE_MAX are the monitor's, for the
 * program's USDT probes <protocol#probes>: the runtime gives none. */
#define DAPTO_PROBE_CODE_BASE 0xe000

/*
 * Probes handled in the program <protocol#probes>: the monitor writes,
 * in an area the runtime mapped for it (dapto_probe_area), a site's
 * description next to its trampoline, which calls
 * dapto_probe_hit_gp(site, regs) with the registers it saved (the
 * general ones and the flags: the runtime touches no other).  An argument
 * is where the probe's note says (enum usdt_arg_kind's CONST 1, REG 2,
 * MEM 3; registers as numbered below), read as VKIND (enum dapto_kind:
 * INT, LONG, PTR, DOUBLE, or STR for a pointer to a string).
 */
#define DAPTO_PROBE_MAGIC 0x50524f42u /* "PROB" */
#define DAPTO_PROBE_ARGS 12
/* Registers: the order of the probe's note (rax, rbx, rcx, rdx, rsi, rdi,
 * rbp, rsp, r8 .. r15, rip), 0xff none. */
#define DAPTO_PROBE_NOREG 0xff
/* The words the trampoline saved, from the address handed over: r15,
 * r14, r13, r12, r11, r10, r9, r8, rbp, rdi, rsi, rdx, rcx, rbx, rax,
 * rflags; the thread's stack pointer was 128 bytes above them (its red
 * zone kept). */
#define DAPTO_PROBE_SAVED 16
#define DAPTO_PROBE_RED_ZONE 128

struct dapto_probe_arg {
    uint8_t kind;   /* 1 constant, 2 register, 3 memory */
    uint8_t size;   /* 1, 2, 4, 8 bytes */
    uint8_t flags;  /* DAPTO_PROBE_SIGNED, _FLOAT */
    uint8_t vkind;  /* enum dapto_kind of the value in the record */
    uint8_t reg;    /* register; memory: its base */
    uint8_t index;  /* memory: the index register */
    uint8_t scale;  /* memory: 1, 2, 4, 8 */
    uint8_t shift;  /* register: bits to shift right (%ah: 8) */
    int64_t value;  /* constant; memory: the displacement */
};

#define DAPTO_PROBE_SIGNED 0x1
#define DAPTO_PROBE_FLOAT 0x2

struct dapto_probe_site {
    uint32_t magic;  /* DAPTO_PROBE_MAGIC */
    uint16_t code;   /* the event's */
    uint8_t nargs;
    uint8_t pad;
    uint64_t state;  /* the address of the event's state byte */
    uint64_t rip;    /* what %rip means at the site (past its nop) */
    struct dapto_probe_arg arg[DAPTO_PROBE_ARGS];
};

/*
 * The monitor's breakpoints <protocol#probes>: before it writes a
 * breakpoint instruction in a program whose runtime has the table
 * dapto_probe_traps, the monitor writes there the breakpoint's address
 * (low 56 bits) and what the instruction it replaced was (high 8 bits:
 * a nop of that many bytes, or DAPTO_PROBE_TRAP_RET for a ret), once an
 * address, in the first free entry (0), and never clears it.  A program
 * whose monitor was killed while attached goes on past such a breakpoint
 * as if the instruction were there (the runtime's SIGTRAP handler).
 */
#define DAPTO_PROBE_TRAPS 256
#define DAPTO_PROBE_TRAP_SHIFT 56
#define DAPTO_PROBE_TRAP_RET 0xff

#define DAPTO_REC_FIRST 0xff00
#define DAPTO_REC_HELLO 0xff00   /* INT pid, INT ring mode; first record */
#define DAPTO_REC_ASPECT 0xff01  /* INT offset, INT length into the interface area */
#define DAPTO_REC_INTERN 0xff02  /* INT id, STR text: id stands for text from now on */
#define DAPTO_REC_LOST 0xff03    /* LONG count of records lost just before this one */
#define DAPTO_REC_FNENTER 0xff04 /* PTR function, PTR call site (-finstrument-functions) */
#define DAPTO_REC_FNLEAVE 0xff05 /* PTR function, PTR call site */

/*
 * An aspect's description in the interface area <protocol#iface>, as values
 * (tag and value each, as in records):
 *
 *   STR name, STR file, INT abi, INT event_base, INT nevents,
 *   INT op_base, INT nops,
 *   nevents x { STR name, STR doc, INT visible, PTR state-byte address,
 *               INT nparams, nparams x PARAM }
 *   nops x    { STR name, STR doc, STR result type ("" for none),
 *               INT result kind, INT nparams, nparams x PARAM }
 *
 *   PARAM = STR name, STR type, INT kind, STR doc
 *
 * The runtime appends a description under iface_lock, then posts a
 * DAPTO_REC_ASPECT record naming it, bumps aspects_posted, and waits (on
 * the futex aspects_acked) until the monitor has written the states of the
 * new events, so that no event of the aspect can be missed <protocol#ack>.
 */

/*
 * Filters <protocol#filter> (minor 2).  The monitor writes them; the
 * runtime only reads them, and never trusts them: every offset, length,
 * argument index and stack depth is checked as it evaluates.
 *
 * The filter area starts with a directory: for event code c < ncodes,
 * dir[c] is the offset, from the area's start, of the event's filter
 * (8-aligned), or 0 for none.  An event whose state has DAPTO_STATE_FILTER
 * (dapto.h) is evaluated against its filter before anything else is done
 * with it.
 */
#define DAPTO_FILTER_MAX 4096       /* bytes in one event's filter */
#define DAPTO_FILTER_CLAUSES 12     /* clauses in one filter */
#define DAPTO_FILTER_STACK 16       /* values on the evaluation stack */
#define DAPTO_FILTER_ARGS 16        /* parameters a program may read */
#define DAPTO_CNT_NONE 0xffff       /* no counter */
#define DAPTO_CNT_PER_SLOT 512      /* counters in one slot */

/* Add 1 to counter C of the calling thread's own slot <protocol#counters>:
 * in one instruction where there is one (x86-64: an add to memory, not
 * locked), so that a signal handler's count of the same counter cannot
 * fall between a load and a store and be lost. */
static inline __attribute__((always_inline)) void dapto_own_add1(uint64_t *c)
{
#if defined(__GNUC__) && defined(__x86_64__)
    __asm__("addq $1, %0" : "+m"(*c));
#else
    __atomic_store_n(c, __atomic_load_n(c, __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);
#endif
}

struct dapto_filter_area {
    uint32_t ncodes;    /* entries in dir */
    /* <protocol#filter-gen>: odd while the monitor writes filters, bumped
     * again (even, never 0) after; 0 from a monitor that does not keep it */
    uint32_t gen;
    uint32_t dir[];     /* ncodes offsets; then the filters */
};

/* One event's filter.  The event is recorded (or stopped at, or kept in
 * the trail) with the state bits UNCOND | the bits of every clause that
 * holds; with none of those bits it goes nowhere. */
struct dapto_filter {
    uint16_t size;       /* bytes of the whole filter, <= DAPTO_FILTER_MAX */
    uint8_t uncond;      /* DAPTO_STATE_{TRAIL,RECORD,STOP} always wanted */
    uint8_t nclauses;    /* <= DAPTO_FILTER_CLAUSES */
    uint16_t checked;    /* counter: events evaluated */
    uint16_t passed;     /* counter: events that went anywhere */
    /* nclauses x struct dapto_clause, then the clauses' programs */
};

/* Hit counting of a clause: it fires on hit h (1, 2, ...: the times its
 * program held) when h > after, (h - after) % every == 0, and, with
 * count, (h - after) / every <= count. */
#define DAPTO_CL_HITS 0x1    /* every, after and count apply; hits counts */
/* A clause of a question <protocol#question> (minor 3): when it fires it
 * adds no state bit (bits is 0) but counts the event into the question
 * `every` - 1 of the question area (QUESTION), or marks the start of one
 * of its durations (QSTART).  Never with DAPTO_CL_HITS. */
#define DAPTO_CL_QUESTION 0x2
#define DAPTO_CL_QSTART 0x4
/* A clause of a part of a derived event <protocol#relate> (minor 5): when
 * it fires it adds no state bit (bits is 0) but hands the event to
 * derived event `every` - 1 as its part `count` (DAPTO_REL_PART_A or
 * _B).  Never with DAPTO_CL_HITS. */
#define DAPTO_CL_PART 0x8
/* A clause of the questions' measurement window <protocol#question>
 * (minor 5): when it fires it opens the window (`count` 1) or closes it
 * (`count` 0), and adds no state bit. */
#define DAPTO_CL_WINDOW 0x10

struct dapto_clause {
    uint8_t bits;        /* DAPTO_STATE_{TRAIL,RECORD,STOP} when it fires */
    uint8_t flags;       /* DAPTO_CL_* */
    uint16_t prog_off;   /* its program, from the filter's start */
    uint16_t prog_len;
    uint16_t checked;    /* counter: evaluations */
    uint16_t passed;     /* counter: times it fired */
    uint16_t hits;       /* shared counter (slot 0): times it held */
    uint32_t every;      /* >= 1 */
    uint32_t after;
    uint32_t count;      /* 0: no limit */
};

/*
 * A clause's program: bytecode for a small stack machine, one opcode byte
 * then its operands (little-endian as the machine is, unaligned).  Jumps go
 * forward only, so every program ends; the result is the one value left at
 * DAPTO_OP_END (non-zero: the clause holds).  Values are 64-bit integers,
 * doubles or strings (a pointer into the record and a length); the monitor
 * checks the types when it compiles, the runtime checks them again and
 * takes a clause whose program is wrong as not holding.
 */
enum dapto_filter_op {
    DAPTO_FOP_END = 0x00,
    DAPTO_FOP_ARG = 0x01,    /* u8 k: push parameter k (INT, LONG, PTR) as integer */
    DAPTO_FOP_ARGD = 0x02,   /* u8 k: push parameter k (DOUBLE, INT, LONG) as double */
    DAPTO_FOP_ARGS = 0x03,   /* u8 k: push parameter k (STR) as string */
    DAPTO_FOP_TID = 0x04,    /* push the thread's id */
    DAPTO_FOP_CONST = 0x05,  /* i64: push an integer */
    DAPTO_FOP_CONSTD = 0x06, /* f64: push a double */
    DAPTO_FOP_CONSTS = 0x07, /* u16 n, n bytes: push a string */
    DAPTO_FOP_WITHIN = 0x08, /* u8 c: push 1 when component c of the
                                relations area has a frame on the thread's
                                component stack, else 0 <protocol#relate>
                                (minor 5) */
    DAPTO_FOP_CMPI = 0x10,   /* + DAPTO_FCMP_*: signed integers */
    DAPTO_FOP_CMPU = 0x18,   /* + DAPTO_FCMP_*: unsigned integers (pointers) */
    DAPTO_FOP_CMPD = 0x20,   /* + DAPTO_FCMP_*: doubles */
    DAPTO_FOP_SEQ = 0x28,    /* strings equal */
    DAPTO_FOP_SNE = 0x29,    /* strings differ */
    DAPTO_FOP_GLOB = 0x2a,   /* [s pattern]: s matches the glob pattern
                                (*, ?, [chars], \c as Tcl's string match) */
    DAPTO_FOP_NOT = 0x30,    /* integer: !v */
    DAPTO_FOP_JF = 0x31,     /* u16 off: top false: jump forward off bytes
                                (from after the operand), keep it; else pop */
    DAPTO_FOP_JT = 0x32      /* u16 off: top true: jump, keep it; else pop */
};

enum dapto_filter_cmp {
    DAPTO_FCMP_EQ = 0, DAPTO_FCMP_NE = 1, DAPTO_FCMP_LT = 2,
    DAPTO_FCMP_LE = 3, DAPTO_FCMP_GT = 4, DAPTO_FCMP_GE = 5
};

/*
 * Questions <protocol#question> (minor 3): aggregations the program keeps
 * itself.  The monitor writes the definitions; each thread keeps its own
 * table of each question in a slot of its own, which only it writes, and
 * the monitor reads and merges them.  The runtime trusts no definition:
 * every offset and size is checked against its slot before use.
 *
 * The area: a header, DAPTO_Q_MAX definitions at defs_off, and nthreads
 * slots of slot_size bytes at tabs_off.  A thread takes slot n = next++
 * at its first question event; when n >= nthreads it keeps no table and
 * counts its question events in no_slot.
 */
#define DAPTO_Q_MAX 32       /* definitions */
#define DAPTO_Q_STACK 32     /* enter/leave nesting a table keeps */
#define DAPTO_Q_HIST 129     /* histogram buckets, see below */
#define DAPTO_Q_TEXT 32      /* bytes of a string key kept in an entry */

struct dapto_question_area {
    uint32_t nquestions; /* definitions at defs_off, <= DAPTO_Q_MAX */
    uint32_t nthreads;   /* slots at tabs_off */
    uint32_t slot_size;  /* bytes, a multiple of 64 */
    uint32_t defs_off;   /* from the area's start */
    uint32_t tabs_off;
    /* The measurement window (minor 5): non-zero while it is closed, when
     * question clauses count nothing.  Written by the monitor, and by a
     * thread whose event fires a DAPTO_CL_WINDOW clause. */
    uint32_t closed;
    uint32_t pad[10];
    _Alignas(64) uint32_t next; /* slots handed out (monotonic) */
    uint32_t pad1;
    uint64_t no_slot;    /* question events of threads without a slot */
};

/* What a question aggregates (`value`). */
enum dapto_q_value {
    DAPTO_QV_NONE = 0,   /* nothing: counts only */
    DAPTO_QV_INT = 1,    /* parameter value_arg: INT, LONG or PTR */
    DAPTO_QV_DOUBLE = 2, /* parameter value_arg: DOUBLE (or INT, LONG) */
    DAPTO_QV_SINCE = 3,  /* ns since the thread's last QSTART mark */
    DAPTO_QV_NEST = 4,   /* ns since the matching QSTART of key 0's
                            parameter (enter to leave) */
    DAPTO_QV_CCT = 5     /* the calling-context tree of functions
                            <protocol#cct>: question DAPTO_Q_CCT only */
};

/* The question the time profile's calling-context tree is kept in
 * <protocol#cct>. */
#define DAPTO_Q_CCT (DAPTO_Q_MAX - 1)
/* In a call path of the tree, key[1] with this bit is no function but a
 * named component (enter/leave, minor 6): its intern id <protocol#intern>,
 * or with DAPTO_CCT_ADDR too, the address of its name, a NUL-terminated
 * string in the program's memory (a name that could not be interned). */
#define DAPTO_CCT_NAMED (1ull << 63)
#define DAPTO_CCT_ADDR (1ull << 62)
/* key[1] with this bit alone above the low 32 is no function but the
 * event of that code (minor 6): its entry counts the event under the path
 * key[0], and is never entered. */
#define DAPTO_CCT_EVENT (1ull << 61)

/* What a question groups by (`key`). */
enum dapto_q_key {
    DAPTO_QK_NONE = 0,
    DAPTO_QK_INT = 1,  /* parameter key_arg: INT, LONG or PTR */
    DAPTO_QK_STR = 2,  /* parameter key_arg: STR or ISTR */
    DAPTO_QK_TID = 3   /* the thread */
};

#define DAPTO_QF_HIST 0x1 /* entries keep a histogram of the value */

/* One definition, 64 bytes.  The monitor stores epoch 0, writes the rest,
 * then stores a new epoch (never reused) with release ordering; 0: no
 * question.  Reset and redefinition take a new epoch. */
struct dapto_question {
    uint32_t epoch;
    uint8_t value;      /* enum dapto_q_value */
    uint8_t value_arg;
    uint8_t flags;      /* DAPTO_QF_* */
    uint8_t nkeys;      /* 0..2 */
    uint8_t key[2];     /* enum dapto_q_key */
    uint8_t key_arg[2];
    uint32_t tab_off;   /* the question's table in each slot */
    uint32_t tab_size;
    uint32_t nent;      /* entries, a power of two */
    uint32_t ent_size;  /* bytes of an entry, a multiple of 8, >= 64 */
    uint32_t hist_off;  /* in an entry, with DAPTO_QF_HIST */
    uint32_t text_off;  /* in an entry: DAPTO_Q_TEXT bytes per string key */
    uint64_t mult;      /* durations: ns = ticks * mult >> 32 (the
                         * calling-context tree: 0 keeps no time) */
    uint64_t pad[2];
};

/* A thread's table of one question: this header, then nent entries.  A
 * thread finding `check` different from DAPTO_Q_CHECK(epoch, tab_off) of
 * the definition it read clears the table first; the monitor reads a
 * table only when its check is the definition's. */
#define DAPTO_Q_CHECK(epoch, off) \
    ((uint64_t)(epoch) * 0x9e3779b97f4a7c15ull ^ (uint64_t)(off) ^ 0x5155455354ull)

struct dapto_qtable {
    uint64_t check;
    uint32_t tid;       /* the thread */
    uint32_t depth;     /* enter/leave nesting (may pass DAPTO_Q_STACK) */
    uint64_t overflow;  /* events whose key found no free entry */
    uint64_t unmatched; /* durations with no start, or deeper than the stack */
    uint64_t since;     /* the last QSTART mark's time; 0: none */
    /* signal handlers' events not counted: they came while the thread
     * counted, more of them than it keeps <protocol#question> */
    uint64_t lost;
    uint64_t pad[2];
    struct {
        uint64_t key;   /* hash of the QSTART event's key */
        uint64_t time;
    } stack[DAPTO_Q_STACK];
};

/* An entry, 64 bytes and then its texts and histogram.  The thread makes
 * seq odd, updates, makes it even again (release); a reader copies an
 * entry between two equal even readings of seq, and takes one read odd
 * many times over as torn (the thread died or stopped while updating).
 * hash 0: free.  A string key is its hash (in hash) and length (in key[i])
 * and its first DAPTO_Q_TEXT bytes at text_off + i * DAPTO_Q_TEXT.
 * Histogram bucket b: 64 for 0; 64 + k for values in [2^(k-1), 2^k);
 * 64 - k for values in (-2^k, -2^(k-1)]; doubles by their integer part. */
struct dapto_qentry {
    uint32_t seq;
    uint32_t pad;
    uint64_t hash;      /* of the keys, | 1 */
    uint64_t key[2];
    uint64_t count;
    uint64_t sum;       /* int64_t, or a double's bits (QV_DOUBLE) */
    uint64_t min, max;  /* likewise */
};

/*
 * Relations <protocol#relate> (minor 5): the components whose frames on a
 * thread's component stack filters test (DAPTO_FOP_WITHIN), the
 * definitions and state bytes of derived events, and a slot per thread
 * where the thread keeps its component stack and what its pending
 * executions hold.  The monitor lays the area out, then writes
 * components, function addresses and definitions under `gen`; a thread
 * writes only its own slot and the header's `next` and `no_slot`.  The
 * runtime trusts nothing of it: every index is checked or masked before
 * use.
 */
#define DAPTO_REL_COMPS 64       /* components */
#define DAPTO_REL_NAME 120       /* bytes of a component's name, its NUL
                                    included */
#define DAPTO_REL_FNS 1024       /* function addresses, a power of two */
#define DAPTO_REL_PROBES 16      /* probes of a lookup among them */
#define DAPTO_REL_DERIVED 32     /* derived events */
/* Derived event i has code DAPTO_DERIVED_BASE + i: a runtime of minor 5
 * never gives an aspect's event one of these codes, which lie below the
 * monitor's filter directory <protocol#filter>. */
#define DAPTO_DERIVED_BASE 2016
#define DAPTO_REL_DEPTH 1024     /* frames a thread's stack keeps */
#define DAPTO_REL_PENDING 120    /* executions a thread keeps data for */
#define DAPTO_REL_DATA 256       /* bytes of a part's values kept */
#define DAPTO_REL_NONE 0xff      /* no component */
#define DAPTO_REL_PART_A 1       /* the count of a part's clause */
#define DAPTO_REL_PART_B 2

/* A component: a name, matched by named components (enter and leave)
 * with that text and by the functions whose addresses the monitor lists
 * for it. */
struct dapto_rel_comp {
    uint32_t len; /* bytes of name without its NUL; 0: no component */
    uint32_t pad;
    char name[DAPTO_REL_NAME];
};

/* A function's address and its component: an open-addressing table of
 * DAPTO_REL_FNS entries, from slot (addr * 0x9e3779b97f4a7c15) >> 54,
 * at most DAPTO_REL_PROBES probes; addr 0: free. */
struct dapto_rel_fn {
    uint64_t addr;
    uint32_t comp;
    uint32_t pad;
};

enum dapto_rel_kind {
    DAPTO_REL_NOKIND = 0,
    DAPTO_REL_CONTAINS = 1, /* an execution of component a during which
                               b happened */
    DAPTO_REL_CALLS = 2,    /* ... during which b happened directly in it */
    DAPTO_REL_BEFORE = 3    /* a b preceded by an a (in the same c) */
};

/* A derived event's definition, 32 bytes.  A part that is not a
 * component (DAPTO_REL_NONE) is an event, handed over by its clauses
 * (DAPTO_CL_PART). */
struct dapto_rel_def {
    uint8_t kind; /* enum dapto_rel_kind; 0: none */
    uint8_t a, b, c;
    uint16_t checked;  /* counters <protocol#counters>: completions looked */
    uint16_t recorded; /* at, and derived events emitted */
    uint64_t mult;     /* ns = ticks * mult >> 32 */
    uint64_t pad[2];
};

struct dapto_rel_area {
    uint32_t nthreads;  /* slots at tabs_off */
    uint32_t slot_size; /* bytes, a multiple of 64 */
    uint32_t tabs_off;
    uint32_t comps_off; /* DAPTO_REL_COMPS components */
    uint32_t fns_off;   /* DAPTO_REL_FNS function addresses */
    uint32_t defs_off;  /* DAPTO_REL_DERIVED definitions */
    /* Odd while the monitor writes components, addresses or definitions,
     * even (never 0) after: a thread whose copies are of another gen
     * takes them again. */
    uint32_t gen;
    /* Bumped by the monitor whenever it asks for the stacks again
     * (DAPTO_STATE_STACK) after a time without: a slot of another epoch
     * holds a stack that missed enters and leaves, and starts empty. */
    uint32_t epoch;
    uint32_t pad[8];
    uint8_t state[DAPTO_REL_DERIVED]; /* the derived events' state bytes */
    _Alignas(64) uint32_t next; /* slots handed out (monotonic) */
    uint32_t pad1;
    uint64_t no_slot;   /* enters and leaves of threads without a slot */
};

/* A frame of a thread's component stack. */
struct dapto_rel_frame {
    uint64_t key;  /* the name's address, or the function's */
    uint8_t fn;    /* 1: a function */
    uint8_t comp;  /* its component, DAPTO_REL_NONE */
    uint16_t pad0;
    uint32_t pad1;
};

/* What a thread keeps for a pending execution of a derived event's part:
 * an A of `contains` or `calls` (its start, the B's seen before it, its
 * first B's values), a C of `before` (its last A's time and values), or
 * the last A of a `before` without C. */
struct dapto_rel_pend {
    uint8_t def;
    uint8_t has;       /* data held */
    uint16_t len;      /* bytes of it */
    uint32_t frame;    /* the frame whose execution it is */
    uint64_t t0;       /* A's start, or the A's time */
    uint64_t n0;       /* contains: B's of the thread at A's start;
                          calls: B's directly in it so far */
    uint64_t pad;
    unsigned char data[DAPTO_REL_DATA]; /* values as in a record */
};

/* A thread's slot; written by that thread alone. */
struct dapto_rel_thread {
    uint32_t tid;
    uint32_t epoch;  /* the area's epoch the stack is of */
    uint32_t gen;    /* the area's gen the copies below are of; 0: none */
    uint32_t depth;  /* frames on the stack (may pass DAPTO_REL_DEPTH) */
    uint64_t mask;   /* components with a frame on the stack */
    uint32_t npend;  /* pending executions kept */
    uint32_t busy;   /* inside an update (a signal handler's events wait) */
    uint64_t deep;   /* frames pushed beyond DAPTO_REL_DEPTH, not kept */
    uint64_t lost;   /* executions without room for what they keep */
    uint64_t nb[DAPTO_REL_DERIVED]; /* contains: B's so far */
    uint16_t count[DAPTO_REL_COMPS]; /* frames of each component */
    /* the copies of the definitions, and what each component is a part
     * of (a bit a definition) */
    struct dapto_rel_def defs[DAPTO_REL_DERIVED];
    uint32_t a_of[DAPTO_REL_COMPS], b_of[DAPTO_REL_COMPS], c_of[DAPTO_REL_COMPS];
    /* named components' components, by the name's address (of gen) */
    struct {
        uint64_t key;
        uint32_t gen;
        uint32_t comp;
    } names[64];
    struct dapto_rel_pend last[DAPTO_REL_DERIVED]; /* before without C */
    struct dapto_rel_frame frame[DAPTO_REL_DEPTH];
    struct dapto_rel_pend pend[DAPTO_REL_PENDING];
};

/* Mailbox states <protocol#stop>. */
enum dapto_mbox_state {
    DAPTO_MB_FREE = 0,    /* unused */
    DAPTO_MB_CLAIMED = 1, /* a thread took it and is writing its stop record */
    DAPTO_MB_STOPPED = 2, /* the thread waits for the monitor */
    DAPTO_MB_REQUEST = 3, /* monitor: run operation `op` with the arguments in data */
    DAPTO_MB_RUNNING = 4, /* the thread is running the operation */
    DAPTO_MB_DONE = 5,    /* results (or failure) in data; the thread waits again */
    DAPTO_MB_RESUME = 6   /* monitor: go on; the thread frees the mailbox */
};

/* Outcome of an operation. */
enum dapto_op_status {
    DAPTO_OP_OK = 0,
    DAPTO_OP_UNKNOWN = 1,  /* no operation with that code */
    DAPTO_OP_ARGS = 2,     /* the arguments could not be read; see message */
    DAPTO_OP_CRASHED = 3,  /* a signal interrupted it; see signo, fault_addr */
    DAPTO_OP_OVERFLOW = 4, /* results did not fit in data */
    DAPTO_OP_INTERRUPTED = 5 /* the monitor interrupted it <protocol#stop>
                                (minor 1) */
};

#define DAPTO_MBOX_DATA 65536

/*
 * A stop mailbox.  A thread that emits an event in the stop state claims a
 * free mailbox, sets it STOPPED, commits its event record (flag
 * DAPTO_RECF_STOP, aux = mailbox index), wakes the monitor, and waits on
 * `state` with FUTEX_WAIT.  The monitor may post operation requests, each
 * answered with DONE (and an eventfd wake-up), and finally RESUME.
 */
struct dapto_mailbox {
    uint32_t state; /* enum dapto_mbox_state; futex word */
    uint32_t tid;   /* thread stopped here */
    uint32_t op;    /* operation code: op_base of its aspect + index */
    uint32_t status; /* enum dapto_op_status */
    uint32_t req_len; /* bytes of argument values in data */
    uint32_t res_len; /* bytes of result values in data */
    int32_t signo;  /* with DAPTO_OP_CRASHED */
    /* 1 while the operation's own code runs, inside its recovery point:
     * the monitor may then interrupt it (minor 1) <protocol#stop>. */
    uint32_t op_active;
    uint64_t fault_addr;
    char message[192]; /* NUL-terminated, when status is not OK */
    unsigned char data[DAPTO_MBOX_DATA];
};

/*
 * The post-mortem trail <protocol#trail>: the last events, kept even when
 * no one receives them, overwritten in turn.  A writer takes index n from
 * trail_next, stores seq = 2n+1, copies the record (cut to fit, flag
 * DAPTO_RECF_TRUNC), then stores seq = 2n+2.  A reader trusts a slot only
 * when seq is even and unchanged across its copy.
 */
#define DAPTO_TRAIL_SLOT 256

struct dapto_trail_slot {
    uint64_t seq;
    unsigned char rec[DAPTO_TRAIL_SLOT - 8];
};

/*
 * A thread's own trail <protocol#ttrail> (minor 6): the last events of one
 * thread at a time, kept with plain stores, no atomic operation and no
 * clock read.  A trail is this header, then tt_slots slots of
 * DAPTO_TT_SLOT bytes; slot i % tt_slots holds event i of the trail.  The
 * owner writes slot `next` (its values, then its first word), then stores
 * next + 1 with release ordering; a reader trusts event i only when
 * max(base, next - tt_slots + 1) <= i < next, next read before and after
 * its copy.
 */
#define DAPTO_TT_SLOT 128
#define DAPTO_TT_SLOT_VALUES (DAPTO_TT_SLOT - 8)

struct dapto_ttrail {
    /* Events kept (monotonic); a release store after each. */
    uint64_t next;
    /* `next` when the owner took the trail: events below it were an
     * earlier owner's. */
    uint64_t base;
    /* The thread that owns the trail, 0 when free: a thread takes a free
     * one, or one whose owner is gone, by compare-and-swap. */
    uint32_t owner;
    /* Events the owner could not keep (raised by a signal handler while it
     * was keeping another), monotonic. */
    uint32_t lost;
    uint32_t pad[10];
};

/* A slot's first word: the event's code (bits 0..15), the bytes of values
 * after the word (16..31, at most DAPTO_TT_SLOT_VALUES) and the run's
 * coarse clock tt_clock as the owner read it (32..63).  The values are
 * tagged as in a record <protocol#record>; a value cut to fit has
 * DAPTO_K_TRUNC on its tag, and nothing follows it. */
#define DAPTO_TT_WORD(code, len, tick)                                      \
    ((uint64_t)(uint16_t)(code) | (uint64_t)(uint16_t)(len) << 16 |        \
     (uint64_t)(uint32_t)(tick) << 32)

/*
 * Recovery points and reported errors <protocol#recover>.  This table is
 * not in the region: it lives in the program's own memory, and the
 * runtime stores its address in rt_recover.  The monitor reads it (and
 * writes `verdict`) with process-memory access, only while the thread
 * concerned is stopped under ptrace, and validates what it reads.
 *
 * A thread holds a slot while it is inside at least one recovery point or
 * reports an error: it claims a free slot (tid 0) by compare-and-swap of
 * tid, and frees it by storing tid 0 when it leaves both.
 */
#define DAPTO_RECOVER_MAGIC 0x56434552u /* "RECV" */
#define DAPTO_RECOVER_SLOTS 256

/* What a thread holding a slot is doing besides recovery points. */
enum dapto_recover_error {
    DAPTO_RE_NONE = 0,
    DAPTO_RE_REPORTED = 1 /* in dapto_error(): it raises SIGABRT and, when
                             that returns, reads verdict */
};

/* The monitor's verdict on a reported error (written before it resumes
 * the thread without delivering the signal). */
#define DAPTO_VERDICT_CONVERT 1

struct dapto_recover_slot {
    uint32_t tid;     /* the thread holding the slot, 0 when free */
    uint32_t depth;   /* recovery points it is inside */
    uint64_t point;   /* address of its innermost struct dapto_recovery,
                         0 when depth is 0 */
    uint32_t error;   /* enum dapto_recover_error */
    uint32_t verdict; /* written by the monitor; 0 otherwise */
    uint64_t message; /* with DAPTO_RE_REPORTED: address of the error's
                         message, NUL-terminated, at most
                         DAPTO_ERROR_MESSAGE bytes with the NUL */
};

#define DAPTO_ERROR_MESSAGE 512

struct dapto_recover_table {
    uint32_t magic;   /* DAPTO_RECOVER_MAGIC */
    uint32_t nslots;  /* DAPTO_RECOVER_SLOTS */
    /* The function a thread is made to call to resume at its innermost
     * recovery point: void resume(int signo, uint64_t fault_addr), called
     * with the platform's C calling convention and an aligned stack. */
    uint64_t resume;
    /* A stack the monitor may run it on when the thread's own stack
     * cannot take a frame (a stack overflow); stack_busy is set by the
     * monitor when it uses it and cleared by the runtime. */
    uint64_t stack;
    uint32_t stack_size;
    uint32_t stack_busy;
    struct dapto_recover_slot slots[DAPTO_RECOVER_SLOTS];
};

#endif /* NOOSA_PROTOCOL_H */
