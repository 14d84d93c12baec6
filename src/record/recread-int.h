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
 *   recindex.c   the index: where each stretch of events begins, by
 *                number and time, kept beside the recording
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

/* A packet of a stream: where, and what the index knows of it (its
 * events given, the first and last of their times: those of the packet
 * before when it gives none, so that the times of a stream's packets
 * never go back). */
struct rpacket {
    size_t off;
    uint32_t len;
    uint32_t nevents;
    uint64_t first_ts, last_ts;
    unsigned char checked; /* RPACKET_* */
};

enum {
    RPACKET_UNCHECKED = 0, /* from the index: checked when first read */
    RPACKET_GOOD,
    RPACKET_BAD            /* found corrupt when read: skipped */
};

struct rstream {
    char *name;
    pid_t tid;
    unsigned char *map;
    size_t size;
    uint64_t mtime; /* of its file, ns (the index's check) */
    struct rpacket *packets;
    size_t npackets;
    uint64_t discarded; /* events before the packets kept (flight) */

    /* the cursor */
    size_t pi;          /* the packet after the one being read */
    size_t pos, end;    /* in the map */
    size_t at;          /* where the event ITEM holds begins */
    int have;           /* item holds the stream's next event */
    uint32_t func;      /* with a function's item: its id */
    uint64_t ts;
    struct reader_item item;
    struct decode_value *values;
    unsigned int avalues;
    /* what of the map was read since it was last let go (recread_trim) */
    size_t touch_lo, touch_hi;
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
    uint64_t meta_size, meta_mtime; /* the index's check */
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
    size_t *aspect_at;                /* each one's place in noosa's stream */
    size_t naspects;

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

    /* <design#recordings> the index (recindex.c): a sync point every
     * RECINDEX_EVERY events (the event numbered seq is at AT in packet
     * PACKET of stream STREAM, at time TS), with the codes of the events
     * up to the next (recread_code_bit()); NULL without an index */
    struct rsync *syncs;
    size_t nsyncs;
    uint64_t nevents;  /* with the index: the events given */
    uint64_t every;    /* events from one sync point to the next */
    int keep_index;    /* 0: an index made is not saved (a newer noosa's
                          is there) */
    int indexed;       /* the index holds (else every move reads from the
                          start) */
    int index_stale;   /* a packet the index called whole was not: made
                          again at the next move */
    unsigned int generation; /* numbers may have moved (a new index) */
    char **pnotes;     /* what cutting the packets said, for the index */
    size_t npnotes;
    int collect;       /* keep what is said in pnotes */
    int mute;          /* say nothing (the index's pass) */

    /* bytes of packets read since the maps were last let go */
    size_t entered;

    /* <design#event-numbers> the numbers of the items that are not
     * events (hello, aspects, losses...), in order, once known (by the
     * index's pass or recread_others()), and how many items there are */
    uint64_t *others;
    size_t nothers, aothers;
    uint64_t items;
    int others_known;
};

/* A sync point of the index. */
struct rsync {
    uint64_t seq;
    uint64_t ts;
    size_t at;
    uint32_t stream;
    uint32_t packet;
    uint64_t codes; /* of the events from it to the next */
};

/* Events between sync points of the index: a move reads at most this
 * many besides its packets' starts. */
#define RECINDEX_EVERY 16384
/* Recordings of at least this many bytes are said to be indexed. */
#define RECINDEX_SAY (256u << 20)
/* Bytes of the streams read before the pages read are let go. */
#define RECREAD_RESIDENT (256u << 20)

/* recread.c */
void rnote(struct recread *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* recmeta.c */
int recmeta_read(struct recread *r, const char *path, char **cause);
void recmeta_classes(struct recread *r);
long recmeta_skip_unknown(struct recread *r, const char *stream,
                          unsigned int id, const unsigned char *b,
                          size_t left);

/* recread.c */
uint64_t recread_skip(struct recread *r, uint64_t n, uint64_t before);
void recread_best(struct recread *r);
struct rstream *recread_pick(struct recread *r);
uint64_t recread_item_bit(const struct reader_item *it);
void recread_other(struct recread *r, uint64_t seq);

/* recstream.c */
int recstream_map(struct recread *r, struct rstream *s, const char *path);
void recstream_packets(struct recread *r, struct rstream *s);
void recstream_definitions(struct recread *r, struct rstream *s);
void recstream_advance(struct recread *r, struct rstream *s);
int recstream_enter(struct recread *r, struct rstream *s, size_t k);
void recstream_trim(struct recread *r);
unsigned int recstream_skip_run(struct recread *r, struct rstream *s,
                                uint64_t last, unsigned int max,
                                uint64_t *codes, uint64_t *last_ts);
unsigned int recstream_fn_run(struct recread *r, struct rstream *s,
                              uint64_t last, struct reader_fn *fns,
                              unsigned int max);
unsigned int recstream_count_run(struct recread *r, struct rstream *s,
                                 const unsigned char *counted,
                                 unsigned int limit, struct reader_ev *evs,
                                 unsigned int max);

/* recindex.c */
int recindex_load(struct recread *r);
void recindex_build(struct recread *r);
void recindex_save(struct recread *r);
void recindex_seek(struct recread *r, uint64_t seq);

#endif /* NOOSA_RECREAD_INT_H */
