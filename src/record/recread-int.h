/* SPDX-License-Identifier: MIT */
/*
 * recread-int.h - what the files of the reader of recordings share
 * (recread.h, <design#recordings>): the reader's state and the functions
 * each file gives the others.  Not for anyone else.
 *
 *   recread.c    the reader: opening, the merge of the streams by time,
 *                the items and the runs it gives, moving in it
 *   recmeta.c    the metadata: the format's version, the env block, the
 *                classes of a newer minor (to skip their events)
 *   recstream.c  one stream: mapped, cut into packets, its events decoded
 *                (and noosa's stream read for the definitions)
 */
#ifndef NOOSA_RECREAD_INT_H
#define NOOSA_RECREAD_INT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "clock.h"
#include "reader.h"
#include "recread.h"
#include "registry.h"

struct rpacket {
    size_t off, len;
};

struct rstream {
    char *name;
    pid_t tid;
    unsigned char *map;
    size_t size;
    struct rpacket *packets;
    size_t npackets;
    uint64_t discarded; /* events before the packets kept (flight) */

    /* the cursor */
    size_t pi;          /* packet being read */
    size_t pos, end;    /* in the map */
    int have;           /* item holds the stream's next event */
    uint32_t func;      /* with a function's item: its id */
    uint64_t ts;
    struct reader_item item;
    struct decode_value *values;
    unsigned int avalues;
};

struct rname {
    char *text;
    uint32_t len;
};

struct rfunc {
    uint64_t addr;
    char *name;
    uint32_t len;
};

/* A field of an event class this reader does not know, from the
 * metadata, for skipping its events (a newer minor's). */
struct rfield {
    int size;      /* bytes; -1 a string (to its NUL) */
    int lenref;    /* >= 0: a sequence of elements of SIZE, as many as
                      the value of that earlier field */
    unsigned int count; /* an array's elements (1 for a scalar) */
};

#define RCLASS_FIELDS 32

struct rclass {
    unsigned int id;
    char *name;
    unsigned int nfields;
    struct rfield fields[RCLASS_FIELDS];
    int told;      /* its events' skipping said */
};

struct recread {
    char *dir;
    struct recread_opts opts;
    char *version;
    char *metadata;
    char *env_value; /* the last recread_env() */
    int major, median, minor;
    struct clock clock; /* the identity: timestamps are ns already */
    struct registry *reg;
    struct reader *reader; /* for noosa_raw events */
    unsigned char *raw;    /* a record made for it */
    size_t raw_cap;

    struct rstream *streams; /* streams[0] is noosa's, when present */
    size_t nstreams;
    int have_noosa;

    struct rname *names;
    size_t nnames;
    struct rfunc *funcs;
    size_t nfuncs;
    struct registry_aspect **aspects; /* by order of their ASPECT events */
    size_t naspects, aspect_next;

    pid_t pid;
    int ended, status, signo;
    uint64_t lost;
    uint64_t dropped; /* not kept by a flight recorder */

    struct rclass *classes; /* described by the metadata, not known */
    size_t nclasses;

    /* the built-in aspect, when its enter and leave carry name ids */
    const struct registry_aspect *builtin;
    /* function entries and exits are given as its enter and leave
     * (recread_functions()) */
    int named;

    /* The merge: CUR, the stream of the last event given (its cursor
     * is moved on at the next call); else BEST holds the next event, and
     * its events come before every other stream's next up to the time
     * LAST (equal times: the first stream's first). */
    struct rstream *cur;
    struct rstream *best;
    uint64_t last;
    uint64_t seq;
};

/* recread.c */
void rnote(struct recread *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* recmeta.c */
int recmeta_read(struct recread *r, const char *path, char **cause);
void recmeta_classes(struct recread *r);
long recmeta_skip_unknown(struct recread *r, const char *stream,
                          unsigned int id, const unsigned char *b,
                          size_t left);

/* recstream.c */
int recstream_map(struct recread *r, struct rstream *s, const char *path);
void recstream_packets(struct recread *r, struct rstream *s);
void recstream_definitions(struct recread *r, struct rstream *s);
void recstream_advance(struct recread *r, struct rstream *s);
unsigned int recstream_fn_run(struct recread *r, struct rstream *s,
                              uint64_t last, struct reader_fn *fns,
                              unsigned int max);
unsigned int recstream_count_run(struct recread *r, struct rstream *s,
                                 const unsigned char *counted,
                                 unsigned int limit, struct reader_ev *evs,
                                 unsigned int max);

#endif /* NOOSA_RECREAD_INT_H */
