/* SPDX-License-Identifier: MIT */
/*
 * tmon.h - a small monitor for tests and benchmarks of the runtime,
 * without ptrace: it creates the region with the channel library, starts
 * a program with the channel inherited, takes records, decodes values and
 * aspect descriptions, writes state bytes with process_vm_writev,
 * acknowledges aspects, and answers stops.  It trusts the program more
 * than noosa does, but checks what it decodes.
 */
#ifndef NOOSA_TMON_H
#define NOOSA_TMON_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "protocol.h"
#include "region.h"
#include "ring.h"
#include "tbuf.h"
#include "trail.h"

#define TMON_MAX_EVENTS 64
#define TMON_MAX_OPS 32
#define TMON_MAX_ASPECTS 8
#define TMON_MAX_PARAMS 8
#define TMON_INTERN 4097
#define TMON_TBUFS 64

/* A decoded value. */
struct tval {
    unsigned char kind;  /* enum dapto_kind, without DAPTO_K_TRUNC */
    unsigned char trunc; /* DAPTO_K_TRUNC was set */
    int64_t i;           /* INT, LONG, ISTR id */
    double d;
    uint64_t p;
    const char *s; /* STR: points into the record */
    uint32_t slen;
};

struct tm_event {
    char name[64];
    int visible;
    uint64_t state; /* address of the state byte in the program */
    int nparams;
    unsigned char kinds[TMON_MAX_PARAMS];
    char pnames[TMON_MAX_PARAMS][32];
};

struct tm_op {
    char name[64];
    char result[32];
    int result_kind;
    int nparams;
};

struct tm_aspect {
    char name[64];
    char file[256];
    int abi;
    unsigned int event_base, nevents, op_base, nops;
    struct tm_event ev[TMON_MAX_EVENTS];
    struct tm_op op[TMON_MAX_OPS];
};

struct tmon {
    struct region reg;
    struct ring ring;
    struct trail trail;
    struct tbuf_area tb; /* the thread buffers, when the geometry has them */
    struct tbuf_cons tbc[TMON_TBUFS];
    uint64_t tb_records; /* taken from them */
    uint32_t tb_last;    /* the buffer last taken from */
    pid_t pid;
    int out_fd; /* the program's stdout and stderr, merged */
    int exited;
    int status; /* from waitpid, once exited */
    struct tm_aspect asp[TMON_MAX_ASPECTS];
    int naspects;
    char *intern[TMON_INTERN];
    /* Called for each event of a new aspect: the state to write. */
    unsigned char (*policy)(void *ctx, const char *aspect, const char *event);
    void *ctx;
    unsigned char default_state; /* when policy is NULL */
    uint64_t records;            /* taken so far */
    char err[256];               /* last error, for messages */
};

/* Create the region (geometry G, or the defaults when NULL).  Returns 0,
 * or -1 with tm->err. */
int tmon_create(struct tmon *tm, const struct region_geom *g);

/* Start ARGV[0] with the region inherited, its stdout and stderr going to
 * a pipe; an argument "@FDS@" becomes "MEMFD:EVENTFD".  ENV_CHANNEL
 * overrides the DAPTO_CHANNEL value (NULL: the real one; "": unset).
 * Returns 0, or -1 with tm->err. */
int tmon_spawn(struct tmon *tm, char *const argv[], const char *env_channel);

/* tmon_create, then tmon_spawn. */
int tmon_start(struct tmon *tm, const struct region_geom *g, char *const argv[],
               const char *env_channel);

/* The next record in BUF (DAPTO_RECORD_MAX bytes), from the ring or, when
 * it has none, a thread buffer (<protocol#tbuf>: no order between the
 * two): its size, 0 when none came within TIMEOUT_MS or the program
 * exited and the ring and the buffers are empty,
 * -1 on a protocol error (tm->err).  ASPECT records are decoded, their
 * states written and acknowledged before they are returned; INTERN
 * records are remembered. */
long tmon_next(struct tmon *tm, unsigned char *buf, int timeout_ms);
/* Nothing came: wait up to 50 ms for more, and say (1) when the program
 * has ended and nothing more will come. */
int tmon_idle(struct tmon *tm);

/* Decode the values of record REC (N bytes) into V (at most MAX).  Returns
 * the count, or -1 (tm->err) when a value is malformed. */
int tmon_values(struct tmon *tm, const unsigned char *rec, size_t n,
                struct tval *v, int max);

/* The aspect named NAME, or NULL. */
struct tm_aspect *tmon_aspect(struct tmon *tm, const char *name);

/* Event code / operation code of ASPECT.NAME, or -1. */
int tmon_event_code(struct tmon *tm, const char *aspect, const char *name);
int tmon_op_code(struct tmon *tm, const char *aspect, const char *name);

/* Write state ST for event CODE into the program.  Returns 0 or -1. */
int tmon_set_state(struct tmon *tm, int code, unsigned char st);

/* Read the state byte of event CODE from the program; -1 on error. */
int tmon_get_state(struct tmon *tm, int code);

/* Run operation OP in the thread stopped in mailbox MBOX with arguments
 * ARGS (LEN bytes), waiting at most TIMEOUT_MS for the answer.  Returns
 * the mailbox (status, message, data, res_len), or NULL on timeout or a
 * refused request (tm->err). */
struct dapto_mailbox *tmon_call(struct tmon *tm, uint32_t mbox, uint32_t op,
                                const void *args, size_t len, int timeout_ms);

/* Resume the thread stopped in mailbox MBOX.  Returns 0 or -1. */
int tmon_resume(struct tmon *tm, uint32_t mbox);

/* Wait for the program to end (killing it after TIMEOUT_MS), read its
 * output into OUT (SIZE bytes, NUL-terminated).  Returns the waitpid
 * status. */
int tmon_finish(struct tmon *tm, char *out, size_t size, int timeout_ms);

/* Free everything; kills the program if it still runs. */
void tmon_close(struct tmon *tm);

#endif /* NOOSA_TMON_H */
