/* SPDX-License-Identifier: MIT */
/*
 * recfile.h - what the writer and the reader of recordings agree on
 * <design#recordings>: the format's version, the files of a recording,
 * the byte layout of a packet's header and context, the event classes of
 * noosa's own, and the packet check.  The TSDL text that tells other CTF
 * readers the same is written by recwrite.c from these; nothing here
 * parses TSDL.
 *
 * Every number is little-endian and byte-aligned (the metadata says
 * byte_order = le and align = 8 for each field), and both sides copy
 * them as the host has them: a little-endian host, as the assertion
 * below insists.
 */
#ifndef NOOSA_RECFILE_H
#define NOOSA_RECFILE_H

#include <stdint.h>
#include <string.h>

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
               "recordings are written little-endian as the host has them");

/* <design#recordings>: major, the file's structure; median, an event's
 * form or meaning; minor, events added.  A reader reads every older
 * version and refuses a newer major or median. */
#define RECFILE_MAJOR 1
#define RECFILE_MEDIAN 0
#define RECFILE_MINOR 0

#define RECFILE_METADATA "metadata"
#define RECFILE_NOOSA_STREAM "noosa_stream" /* noosa's own: stream 0 */
#define RECFILE_THREAD_PREFIX "thread_"     /* thread_TID */

#define RECFILE_MAGIC 0xc1fc1fc1u /* CTF's packet magic */

/* Packet header then context, 72 bytes:
 *     u32 magic, u32 stream_id (always 0), u64 stream_instance_id (the tid,
 *     0 for noosa's stream);
 *     u64 timestamp_begin, u64 timestamp_end, u64 content_size (bits),
 *     u64 packet_size (bits, the same: no padding), u64 packet_seq_num,
 *     u64 events_discarded (losses so far, noosa's stream), u32 tid,
 *     u32 noosa_check (recfile_check() of the packet with this field 0). */
#define RECFILE_OFF_MAGIC 0
#define RECFILE_OFF_INSTANCE 8
#define RECFILE_OFF_TS_BEGIN 16
#define RECFILE_OFF_TS_END 24
#define RECFILE_OFF_CONTENT 32
#define RECFILE_OFF_PACKET 40
#define RECFILE_OFF_SEQ 48
#define RECFILE_OFF_DISCARDED 56
#define RECFILE_OFF_TID 64
#define RECFILE_OFF_CHECK 68
#define RECFILE_PACKET_HEADER 72

/* A packet is written when its events reach this size; an event larger
 * than the rest makes its packet larger. */
#define RECFILE_PACKET_TARGET 65536
/* No packet is larger (a record is at most 64 KiB, see protocol.h). */
#define RECFILE_PACKET_MAX (1u << 20)

/* An event: u16 id, u64 timestamp (ns since the clock's offset), then its
 * fields.  Ids up to DAPTO_EVENT_CODE_MAX are the program's events, by
 * code; noosa's classes follow. */
#define RECFILE_EVENT_HEADER 10
enum recfile_class {
    RECFILE_HELLO = 0xf000,    /* i32 pid, i32 ring_mode */
    RECFILE_ASPECT = 0xf001,   /* string name, string interface (the
                                  aspect in Dapto's words, for people),
                                  string description: the description
                                  the program posted <protocol#iface>,
                                  in hexadecimal (for readers) */
    RECFILE_INTERN = 0xf002,   /* u32 id, string text: a name of enter or
                                  leave (the recording's ids) */
    RECFILE_FUNCTION = 0xf003, /* u32 id, u64 address, string name */
    RECFILE_LOST = 0xf004,     /* u64 count: records lost just before */
    RECFILE_FNENTER = 0xf005,  /* u32 function id */
    RECFILE_FNLEAVE = 0xf006,  /* u32 function id */
    RECFILE_RAW = 0xf007,      /* u16 code, u16 flags, u32 len, u8 values
                                  [len]: an event whose values do not have
                                  the form its class says (cut, unknown,
                                  a user type), as the channel encodes them
                                  <protocol#record> */
    RECFILE_END = 0xf008,      /* i32 status, i32 signal (0: exited) */
    RECFILE_CLASS_LAST = RECFILE_END
};

static inline void recfile_put16(unsigned char *p, uint16_t v)
{
    memcpy(p, &v, 2);
}

static inline void recfile_put32(unsigned char *p, uint32_t v)
{
    memcpy(p, &v, 4);
}

static inline void recfile_put64(unsigned char *p, uint64_t v)
{
    memcpy(p, &v, 8);
}

static inline uint16_t recfile_get16(const unsigned char *p)
{
    uint16_t v;

    memcpy(&v, p, 2);
    return v;
}

static inline uint32_t recfile_get32(const unsigned char *p)
{
    uint32_t v;

    memcpy(&v, p, 4);
    return v;
}

static inline uint64_t recfile_get64(const unsigned char *p)
{
    uint64_t v;

    memcpy(&v, p, 8);
    return v;
}

/* The check of a packet's LEN bytes at P, its check field counted as 0:
 * a multiply-xor hash over 8-byte words, fast enough to run at the
 * recording's speed; it finds corruption, it is not a cryptographic
 * check. */
static inline uint32_t recfile_check(const unsigned char *p, size_t len)
{
    uint64_t h = 0x9e3779b97f4a7c15u ^ len;
    size_t i = 0;

    for (; i + 8 <= len; i += 8) {
        uint64_t w;

        memcpy(&w, p + i, 8);
        if (i == RECFILE_OFF_CHECK - 4) /* bytes 64..71: tid, check */
            w &= 0xffffffffu;
        h = (h ^ w) * 0xff51afd7ed558ccdu;
        h ^= h >> 29;
    }
    for (; i < len; i++) {
        h = (h ^ p[i]) * 0xc4ceb9fe1a85ec53u;
        h ^= h >> 31;
    }
    return (uint32_t)(h ^ (h >> 32));
}

/*
 * The index of a recording <design#recordings>: a file of the reader's,
 * made at the first opening and kept in the recording's directory
 * (hidden: CTF readers read every other file there as a stream).  It is
 * versioned as the format is: the major changes with its layout or with
 * how events are numbered (a reader uses an index of its own major only,
 * and makes a new one for any other), the minor with what it adds.
 * Every number little-endian:
 *
 *   header, 80 bytes: "NOOSAIDX", u16 major, u16 minor; u16 the
 *     recording's format major, median, minor, u16 0; u32 events between
 *     sync points, u32 streams, u32 notes; u64 events, u64 sync points,
 *     u64 packets, u64 the metadata's size, u64 its modification time
 *     (ns), u64 the bytes of the notes
 *   a stream, 72 bytes: its file's name (32, NUL-padded), u64 size, u64
 *     modification time (ns), u64 packets, u64 events a flight recorder
 *     let go before them, u64 recfile_hash() of its first and last 4 KiB
 *     (a file written again within the clock's tick is seen too)
 *   a packet (in the order of the streams), 32 bytes: u64 offset, u32
 *     size, u32 events given, u64 the first's time, u64 the last's
 *   a sync point, 40 bytes: u64 the number of an event, u64 its time,
 *     u64 its offset in its stream, u32 the stream, u32 the packet, u64
 *     the codes of the events up to the next sync point
 *     (reader_code_bit())
 *   the notes: what cutting the streams said, each ending with a NUL
 *   u64 recfile_hash() of everything before
 */
#define RECFILE_INDEX ".noosa_index"
#define RECFILE_INDEX_MAGIC "NOOSAIDX"
#define RECFILE_INDEX_MAJOR 1
#define RECFILE_INDEX_MINOR 0
#define RECFILE_INDEX_HEADER 80
#define RECFILE_INDEX_STREAM 72
#define RECFILE_INDEX_PRINT 4096
#define RECFILE_INDEX_NAME 32
#define RECFILE_INDEX_PACKET 32
#define RECFILE_INDEX_SYNC 40

/* A 64-bit hash of LEN bytes at P (the index's check), of the same kind
 * as recfile_check(). */
static inline uint64_t recfile_hash(const unsigned char *p, size_t len)
{
    uint64_t h = 0x9e3779b97f4a7c15u ^ len;
    size_t i = 0;

    for (; i + 8 <= len; i += 8) {
        uint64_t w;

        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdu;
        h ^= h >> 29;
    }
    for (; i < len; i++) {
        h = (h ^ p[i]) * 0xc4ceb9fe1a85ec53u;
        h ^= h >> 31;
    }
    return h;
}

#endif /* NOOSA_RECFILE_H */
