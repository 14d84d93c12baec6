/* SPDX-License-Identifier: MIT */
/*
 * recstream.c - one stream of a recording (recread-int.h): its file
 * mapped and cut into packets (each checked, a note for each that cannot
 * be used), noosa's stream read for the definitions (aspects, names,
 * functions, how the run ended), and the events of a stream decoded one
 * at a time at its cursor, or taken in runs for the direct and counting
 * paths.  Events whose values are not in the form of their class
 * (noosa_raw) are decoded by the channel's own reader (reader.c), so a
 * recording's values are validated exactly as a live run's.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "dapto.h"
#include "protocol.h"
#include "recfile.h"
#include "recread-int.h"
#include "xmalloc.h"

/* Streams. */

int recstream_map(struct recread *r, struct rstream *s, const char *path)
{
    struct stat st;
    int fd = open(path, O_RDONLY | O_CLOEXEC);

    if (fd < 0 || fstat(fd, &st) != 0) {
        rnote(r, "%s: %s: skipped", s->name, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    s->size = (size_t)st.st_size;
    s->mtime = (uint64_t)st.st_mtim.tv_sec * 1000000000u +
               (uint64_t)st.st_mtim.tv_nsec;
    if (s->size > 0) {
        s->map = mmap(NULL, s->size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (s->map == MAP_FAILED) {
            rnote(r, "%s: %s: skipped", s->name, strerror(errno));
            s->map = NULL;
            s->size = 0;
        }
    }
    close(fd);
    return 0;
}

/* The next position at or after FROM where a packet's magic is. */
static size_t rresync(const struct rstream *s, size_t from)
{
    for (size_t i = from; i + 4 <= s->size; i++)
        if (recfile_get32(s->map + i) == RECFILE_MAGIC)
            return i;
    return s->size;
}

/* Cut the stream into packets, with a note for each that is not whole. */
void recstream_packets(struct recread *r, struct rstream *s)
{
    size_t off = 0, cap = 0, let_go = 0;
    uint64_t seq = 0;
    long page = sysconf(_SC_PAGESIZE);

    free(s->packets);
    s->packets = NULL;
    s->npackets = 0;
    s->discarded = 0;
    while (off < s->size) {
        const unsigned char *p = s->map + off;
        size_t left = s->size - off;
        uint64_t bits, cbits, len;

        if (off - let_go > RECREAD_RESIDENT) {
            /* what was checked is not kept (a recording of any length is
             * cut in bounded memory) */
            size_t to = off & ~((size_t)page - 1);

            madvise(s->map + let_go, to - let_go, MADV_DONTNEED);
            let_go = to;
        }
        if (left < RECFILE_PACKET_HEADER ||
            recfile_get32(p) != RECFILE_MAGIC) {
            size_t next;

            if (left < RECFILE_PACKET_HEADER &&
                recfile_get32(p) == RECFILE_MAGIC) {
                rnote(r, "%s: cut short: the last packet has %zu bytes, "
                      "fewer than its header; its events are lost",
                      s->name, left);
                break;
            }
            next = rresync(s, off + 1);
            rnote(r, "%s: corrupt at byte %zu: %zu bytes skipped to the "
                  "next packet", s->name, off, next - off);
            off = next;
            continue;
        }
        bits = recfile_get64(p + RECFILE_OFF_PACKET);
        cbits = recfile_get64(p + RECFILE_OFF_CONTENT);
        len = bits / 8;
        if (bits % 8 != 0 || cbits != bits || len < RECFILE_PACKET_HEADER ||
            len > RECFILE_PACKET_MAX) {
            size_t next = rresync(s, off + 1);

            rnote(r, "%s: corrupt packet at byte %zu (its size is %llu "
                  "bits): %zu bytes skipped to the next packet", s->name, off,
                  (unsigned long long)bits, next - off);
            off = next;
            continue;
        }
        if (len > left) {
            rnote(r, "%s: cut short: the last packet (at byte %zu) has %zu "
                  "of its %llu bytes; its events are lost", s->name, off,
                  left, (unsigned long long)len);
            break;
        }
        if (recfile_check(p, (size_t)len) !=
            recfile_get32(p + RECFILE_OFF_CHECK)) {
            rnote(r, "%s: packet %llu (at byte %zu, %llu bytes) is corrupt: "
                  "skipped", s->name, (unsigned long long)seq, off,
                  (unsigned long long)len);
            off += (size_t)len;
            seq++;
            continue;
        }
        if (s->tid != 0 &&
            recfile_get64(p + RECFILE_OFF_DISCARDED) > s->discarded)
            s->discarded = recfile_get64(p + RECFILE_OFF_DISCARDED);
        s->packets = xgrow(s->packets, s->npackets, &cap, sizeof *s->packets);
        memset(&s->packets[s->npackets], 0, sizeof *s->packets);
        s->packets[s->npackets].off = off;
        s->packets[s->npackets].len = (uint32_t)len;
        s->packets[s->npackets].checked = RPACKET_GOOD;
        s->npackets++;
        off += (size_t)len;
        seq++;
    }
}

/* Definitions from noosa's stream. */

static int rcheck_string(const unsigned char *p, size_t left, size_t *len)
{
    const unsigned char *z = memchr(p, '\0', left);

    if (z == NULL)
        return -1;
    *len = (size_t)(z - p);
    return 0;
}

/* grow_to: the table TAB of *N entries of SIZE bytes made to hold entry
 * ID, the new entries zeroed; returns the table. */
static void *grow_to(void *tab, size_t *n, size_t id, size_t size)
{
    if (id < *n)
        return tab;
    tab = xreallocarray(tab, id + 1, size);
    memset((char *)tab + *n * size, 0, (id + 1 - *n) * size);
    *n = id + 1;
    return tab;
}

static void rdefine_name(struct recread *r, uint32_t id, const char *s,
                         size_t len)
{
    if (id >= (1u << 24))
        return;
    r->names = grow_to(r->names, &r->nnames, id, sizeof *r->names);
    free(r->names[id].text);
    r->names[id].text = xstrndup(s, len);
    r->names[id].len = (uint32_t)len;
}

static void rdefine_func(struct recread *r, uint32_t id, uint64_t addr,
                         const char *s, size_t len)
{
    if (id >= (1u << 24))
        return;
    r->funcs = grow_to(r->funcs, &r->nfuncs, id, sizeof *r->funcs);
    free(r->funcs[id].name);
    r->funcs[id].addr = addr;
    r->funcs[id].name = xstrndup(s, len);
    r->funcs[id].len = (uint32_t)len;
}

/* The fields of a noosa_aspect event at B (BODY bytes): *OFF is where
 * its description starts (after the name and the interface text), *LEN
 * the description's digits.  -1 when it does not fit. */
static int raspect_fields(const unsigned char *b, size_t body, size_t *off,
                          size_t *len)
{
    size_t nlen, ilen;

    if (rcheck_string(b, body, &nlen) != 0 ||
        rcheck_string(b + nlen + 1, body - nlen - 1, &ilen) != 0 ||
        rcheck_string(b + nlen + 1 + ilen + 1, body - nlen - 1 - ilen - 1,
                      len) != 0)
        return -1;
    *off = nlen + 1 + ilen + 1;
    return 0;
}

/* The bytes of the hexadecimal text S (LEN digits), or NULL. */
static unsigned char *rhex(const unsigned char *s, size_t len)
{
    unsigned char *out;

    if (len % 2 != 0 || len == 0)
        return NULL;
    out = xmalloc(len / 2);
    for (size_t i = 0; i < len; i++) {
        int c = s[i], v;

        if (c >= '0' && c <= '9')
            v = c - '0';
        else if (c >= 'a' && c <= 'f')
            v = c - 'a' + 10;
        else {
            free(out);
            return NULL;
        }
        if (i % 2 == 0)
            out[i / 2] = (unsigned char)(v << 4);
        else
            out[i / 2] |= (unsigned char)v;
    }
    return out;
}

/* Read noosa's stream for the definitions. */
void recstream_definitions(struct recread *r, struct rstream *s)
{
    for (size_t k = 0; k < s->npackets; k++) {
        size_t pos = s->packets[k].off + RECFILE_PACKET_HEADER;
        size_t end = s->packets[k].off + s->packets[k].len;

        while (pos < end) {
            const unsigned char *p = s->map + pos;
            size_t left = end - pos, n, body = left - RECFILE_EVENT_HEADER;
            unsigned int id;
            const unsigned char *b = p + RECFILE_EVENT_HEADER;
            char *why = NULL;

            if (left < RECFILE_EVENT_HEADER)
                goto bad;
            id = recfile_get16(p);
            switch (id) {
            case RECFILE_HELLO:
            case RECFILE_END:
                if (body < 8)
                    goto bad;
                if (id == RECFILE_HELLO) {
                    r->pid = (pid_t)recfile_get32(b);
                } else {
                    r->ended = 1;
                    r->status = (int)recfile_get32(b);
                    r->signo = (int)recfile_get32(b + 4);
                }
                n = 8;
                break;
            case RECFILE_LOST:
                if (body < 8)
                    goto bad;
                r->lost += recfile_get64(b);
                n = 8;
                break;
            case RECFILE_ASPECT: {
                struct registry_aspect *a;
                size_t nlen, len;
                unsigned char *desc;

                /* name, interface text (skipped), description */
                if (raspect_fields(b, body, &nlen, &len) != 0)
                    goto bad;
                desc = rhex(b + nlen, len);
                if (desc == NULL)
                    goto bad;
                a = registry_add(r->reg, desc, len / 2, &why);
                free(desc);
                if (a == NULL) {
                    rnote(r, "%s: an aspect that cannot be read: %s",
                          s->name, why);
                    free(why);
                }
                r->aspects = xreallocarray(r->aspects, r->naspects + 1,
                                           sizeof *r->aspects);
                r->aspect_at = xreallocarray(r->aspect_at, r->naspects + 1,
                                             sizeof *r->aspect_at);
                r->aspect_at[r->naspects] = pos;
                r->aspects[r->naspects++] = a;
                n = nlen + len + 1;
                break;
            }
            case RECFILE_INTERN: {
                size_t len;

                if (body < 5 || rcheck_string(b + 4, body - 4, &len) != 0)
                    goto bad;
                rdefine_name(r, recfile_get32(b), (const char *)b + 4, len);
                n = 4 + len + 1;
                break;
            }
            case RECFILE_FUNCTION: {
                size_t len;

                if (body < 13 || rcheck_string(b + 12, body - 12, &len) != 0)
                    goto bad;
                rdefine_func(r, recfile_get32(b), recfile_get64(b + 4),
                             (const char *)b + 12, len);
                n = 12 + len + 1;
                break;
            }
            default: {
                long skip = recmeta_skip_unknown(r, s->name, id, b, body);

                if (skip >= 0) {
                    n = (size_t)skip;
                    break;
                }
                rnote(r, "%s: an event of unknown class %u at byte %zu: the "
                      "rest of its packet skipped", s->name, id, pos);
                pos = end;
                continue;
            }
            }
            pos += RECFILE_EVENT_HEADER + n;
            continue;
        bad:
            rnote(r, "%s: a malformed event at byte %zu: the rest of its "
                  "packet skipped", s->name, pos);
            break;
        }
    }
}

/* Events. */

static struct decode_value *rvalues(struct rstream *s, unsigned int n)
{
    if (n > s->avalues) {
        s->avalues = n < 8 ? 8 : n;
        s->values = xreallocarray(s->values, s->avalues, sizeof *s->values);
    }
    return s->values;
}

static const char *rname(const struct recread *r, uint32_t id, uint32_t *len)
{
    if (id >= r->nnames || r->names[id].text == NULL)
        return NULL;
    *len = r->names[id].len;
    return r->names[id].text;
}

/* The aspect the definitions found at byte AT of noosa's stream (where
 * the event being decoded is: by its place, so that a reader moved
 * anywhere finds it), or NULL. */
static struct registry_aspect *raspect_at(const struct recread *r, size_t at)
{
    size_t lo = 0, hi = r->naspects;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (r->aspect_at[mid] < at)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < r->naspects && r->aspect_at[lo] == at ? r->aspects[lo]
                                                       : NULL;
}

/* Decode the event at the cursor of S into s->item: its size, 0 when
 * the event is not one to give (a definition), -1 when it is malformed
 * (*why set). */
static long rdecode(struct recread *r, struct rstream *s, char **why)
{
    const unsigned char *p = s->map + s->pos;
    size_t left = s->end - s->pos, body, n = 0;
    const unsigned char *b = p + RECFILE_EVENT_HEADER;
    struct reader_item *it = &s->item;
    unsigned int id;
    uint64_t ts;

    if (left < RECFILE_EVENT_HEADER) {
        xcause(why, "%zu bytes left, fewer than an event's header", left);
        return -1;
    }
    body = left - RECFILE_EVENT_HEADER;
    id = recfile_get16(p);
    ts = recfile_get64(p + 2);
    memset(it, 0, sizeof *it);
    it->stop = -1;
    it->tid = s->tid;
    it->code = id;
    it->ns = (int64_t)ts;
    s->ts = ts;
    if (id <= DAPTO_EVENT_CODE_MAX) {
        const struct registry_event *e = registry_event(r->reg, id);
        struct decode_value *v;

        if (e == NULL) {
            xcause(why, "event code %u is in no aspect of the recording", id);
            return -1;
        }
        v = rvalues(s, e->nparams);
        it->kind = READER_EVENT;
        it->event = e;
        it->nvalues = e->nparams;
        it->values = v;
        if ((e->code == DAPTO_EV_ENTER || e->code == DAPTO_EV_LEAVE) &&
            e->aspect == r->builtin) {
            uint32_t len;

            if (body < 4) {
                xcause(why, "the name of %s is cut", e->name);
                return -1;
            }
            memset(v, 0, sizeof *v);
            v->kind = DAPTO_K_STR;
            v->interned = 1;
            v->s = rname(r, recfile_get32(b), &len);
            if (v->s == NULL) {
                xcause(why, "name id %u of %s is not defined",
                       recfile_get32(b), e->name);
                return -1;
            }
            v->len = len;
            return RECFILE_EVENT_HEADER + 4;
        }
        for (unsigned int i = 0; i < e->nparams; i++) {
            memset(&v[i], 0, sizeof v[i]);
            v[i].kind = e->params[i].kind;
            switch (v[i].kind) {
            case DAPTO_K_INT:
                if (body - n < 4)
                    goto cut;
                memcpy(&v[i].u.i, b + n, 4);
                n += 4;
                break;
            case DAPTO_K_LONG:
            case DAPTO_K_DOUBLE:
            case DAPTO_K_PTR:
                if (body - n < 8)
                    goto cut;
                memcpy(&v[i].u, b + n, 8);
                n += 8;
                break;
            case DAPTO_K_STR: {
                size_t len;

                if (rcheck_string(b + n, body - n, &len) != 0)
                    goto cut;
                v[i].s = (const char *)b + n;
                v[i].len = (uint32_t)len;
                n += len + 1;
                break;
            }
            default:
                xcause(why, "event %s has no fields of its own in a "
                       "recording", e->name);
                return -1;
            }
        }
        return (long)(RECFILE_EVENT_HEADER + n);
    cut:
        xcause(why, "the values of %s are cut", e->name);
        return -1;
    }
    switch (id) {
    case RECFILE_HELLO:
        if (body < 8)
            goto short_body;
        it->kind = READER_HELLO;
        it->code = DAPTO_REC_HELLO;
        it->pid = (pid_t)recfile_get32(b);
        it->ring_mode = (int)recfile_get32(b + 4);
        return RECFILE_EVENT_HEADER + 8;
    case RECFILE_END:
        if (body < 8)
            goto short_body;
        return -(long)(RECFILE_EVENT_HEADER + 8); /* read at the open */
    case RECFILE_LOST:
        if (body < 8)
            goto short_body;
        it->kind = READER_LOST;
        it->code = DAPTO_REC_LOST;
        it->lost = recfile_get64(b);
        return RECFILE_EVENT_HEADER + 8;
    case RECFILE_ASPECT: {
        size_t nlen, len;

        if (raspect_fields(b, body, &nlen, &len) != 0)
            goto short_body;
        it->code = DAPTO_REC_ASPECT;
        it->aspect = raspect_at(r, s->pos);
        if (it->aspect != NULL)
            it->kind = READER_ASPECT;
        return (long)(RECFILE_EVENT_HEADER + nlen + len + 1);
    }
    case RECFILE_INTERN:
    case RECFILE_FUNCTION: {
        size_t skip = id == RECFILE_INTERN ? 4 : 12, len;

        if (body < skip + 1 || rcheck_string(b + skip, body - skip, &len) != 0)
            goto short_body;
        return -(long)(RECFILE_EVENT_HEADER + skip + len + 1);
    }
    case RECFILE_FNENTER:
    case RECFILE_FNLEAVE: {
        uint32_t f;

        if (body < 4)
            goto short_body;
        f = recfile_get32(b);
        if (f >= r->nfuncs || r->funcs[f].name == NULL) {
            xcause(why, "function id %u is not defined", f);
            return -1;
        }
        s->func = f;
        it->kind = READER_FUNCTION;
        it->enter = id == RECFILE_FNENTER;
        it->code = it->enter ? DAPTO_REC_FNENTER : DAPTO_REC_FNLEAVE;
        it->function = r->funcs[f].addr;
        return RECFILE_EVENT_HEADER + 4;
    }
    case RECFILE_RAW: {
        uint16_t code, flags;
        uint32_t len;
        size_t size;
        struct dapto_record h;
        struct reader_item item;

        if (body < 8)
            goto short_body;
        code = recfile_get16(b);
        flags = recfile_get16(b + 2);
        len = recfile_get32(b + 4);
        if (len > body - 8 || len > DAPTO_RECORD_MAX ||
            code > DAPTO_EVENT_CODE_MAX)
            goto short_body;
        size = (DAPTO_RECORD_HEADER + (size_t)len + 7) & ~(size_t)7;
        if (size > r->raw_cap) {
            r->raw_cap = size;
            r->raw = xrealloc(r->raw, size);
        }
        memset(&h, 0, sizeof h);
        h.size = (uint32_t)size;
        h.code = code;
        h.flags = flags & DAPTO_RECF_TRUNC;
        h.len = len;
        h.tid = (uint32_t)s->tid;
        h.time = ts;
        memcpy(r->raw, &h, sizeof h);
        memcpy(r->raw + DAPTO_RECORD_HEADER, b + 8, len);
        memset(r->raw + DAPTO_RECORD_HEADER + len, 0,
               size - DAPTO_RECORD_HEADER - len);
        reader_record(r->reader, r->raw, size, NULL, 0, &item);
        if (item.kind != READER_EVENT) {
            xcause(why, "%s",
                   item.kind == READER_ERROR ? item.message : "not an event");
            return -1;
        }
        /* the values are the reader's until its next record: copy them */
        {
            struct decode_value *v = rvalues(s, item.nvalues);

            memcpy(v, item.values, item.nvalues * sizeof *v);
            for (unsigned int i = 0; i < item.nvalues; i++)
                if (v[i].kind == DAPTO_K_STR && !v[i].interned)
                    /* the string is in the map, at the same offset */
                    v[i].s = (const char *)b + 8 +
                             ((const unsigned char *)v[i].s -
                              (r->raw + DAPTO_RECORD_HEADER));
            *it = item;
            it->values = v;
            it->tid = s->tid;
            it->ns = (int64_t)ts;
            it->stop = -1;
        }
        return (long)(RECFILE_EVENT_HEADER + 8 + len);
    }
    }
    {
        long skip = recmeta_skip_unknown(r, s->name, id, b, body);

        if (skip >= 0)
            return -(long)(RECFILE_EVENT_HEADER + (size_t)skip);
    }
    xcause(why, "an event of unknown class %u", id);
    return -1;

short_body:
    xcause(why, "an event of class %u is cut", id);
    return -1;
}

/* Whether packet K of S is one: as the index said (read again now,
 * since the index may be older than the file). */
static int rpacket_whole(const struct rstream *s, const struct rpacket *pk)
{
    const unsigned char *p;

    if (pk->off > s->size || s->size - pk->off < pk->len ||
        pk->len < RECFILE_PACKET_HEADER)
        return 0;
    p = s->map + pk->off;
    return recfile_get32(p) == RECFILE_MAGIC &&
           recfile_get64(p + RECFILE_OFF_PACKET) == (uint64_t)pk->len * 8 &&
           recfile_get64(p + RECFILE_OFF_CONTENT) == (uint64_t)pk->len * 8 &&
           recfile_check(p, pk->len) == recfile_get32(p + RECFILE_OFF_CHECK);
}

/* Packet K of S is to be read: a packet the index gave is checked the
 * first time (one that is not whole is said and skipped, and the index
 * made again at the next move), and what is read counts towards letting
 * the pages read go (recstream_trim()).  -1 when it is not to be read. */
int recstream_enter(struct recread *r, struct rstream *s, size_t k)
{
    struct rpacket *pk = &s->packets[k];

    if (pk->checked == RPACKET_UNCHECKED) {
        pk->checked = rpacket_whole(s, pk) ? RPACKET_GOOD : RPACKET_BAD;
        if (pk->checked == RPACKET_BAD) {
            rnote(r, "%s: the packet at byte %zu is not what the recording's "
                  "index says (the recording changed since it was indexed): "
                  "skipped, and the index made again", s->name, pk->off);
            r->index_stale = 1;
        }
    }
    if (pk->checked == RPACKET_BAD)
        return -1;
    if (s->touch_hi == 0 || pk->off < s->touch_lo)
        s->touch_lo = pk->off;
    if (pk->off + pk->len > s->touch_hi)
        s->touch_hi = pk->off + pk->len;
    r->entered += pk->len;
    if (r->entered > RECREAD_RESIDENT)
        recstream_trim(r);
    return 0;
}

/* Let go of the pages of the streams read since the last time (the
 * mapping stays: a page read again is read from the file again), so
 * that playing a recording of any size holds a bounded part of it in
 * memory <design#recordings>. */
void recstream_trim(struct recread *r)
{
    long page = sysconf(_SC_PAGESIZE);

    for (size_t i = 0; i < r->nstreams; i++) {
        struct rstream *s = &r->streams[i];
        size_t lo = s->touch_lo & ~((size_t)page - 1), hi = s->touch_hi;

        if (s->map != NULL && hi > lo)
            madvise(s->map + lo, hi - lo, MADV_DONTNEED);
        s->touch_lo = s->touch_hi = 0;
    }
    r->entered = 0;
}

/* Move S's cursor to its next event to give (s->have), or to its end. */
void recstream_advance(struct recread *r, struct rstream *s)
{
    s->have = 0;
    for (;;) {
        char *why = NULL;
        long n;

        if (s->pos >= s->end) {
            size_t k = s->pi;

            if (k >= s->npackets)
                return;
            s->pi++;
            if (recstream_enter(r, s, k) != 0)
                continue;
            s->pos = s->packets[k].off + RECFILE_PACKET_HEADER;
            s->end = s->packets[k].off + s->packets[k].len;
            continue;
        }
        s->at = s->pos;
        n = rdecode(r, s, &why);
        if (n == -1) {
            rnote(r, "%s: a malformed event at byte %zu (%s): the rest of "
                  "its packet skipped", s->name, s->pos, why);
            free(why);
            s->pos = s->end;
            continue;
        }
        if (n < 0) { /* a definition: not given */
            s->pos += (size_t)-n;
            continue;
        }
        s->pos += (size_t)n;
        if (s->item.kind != READER_NONE) {
            s->have = 1;
            return;
        }
    }
}

/* Take from S's packet, at its cursor, the entries and exits of 14 bytes
 * at times up to LAST, while they are whole and their ids defined, into
 * FNS (up to MAX): how many.  What it does not take is left for
 * rdecode(), which says what is wrong with it. */
unsigned int recstream_fn_run(struct recread *r, struct rstream *s,
                            uint64_t last, struct reader_fn *fns,
                            unsigned int max)
{
    const unsigned char *p = s->map + s->pos, *end = s->map + s->end;
    unsigned int n = 0;

    while (n < max && (size_t)(end - p) >= RECFILE_EVENT_HEADER + 4) {
        unsigned int id = recfile_get16(p);
        uint64_t ts = recfile_get64(p + 2);
        uint32_t k = recfile_get32(p + RECFILE_EVENT_HEADER);
        struct reader_fn *f = &fns[n];

        if (ts > last)
            break;
        if (id == RECFILE_FNENTER || id == RECFILE_FNLEAVE) {
            if (k >= r->nfuncs || r->funcs[k].name == NULL)
                break;
            f->name = r->funcs[k].name;
            f->len = r->funcs[k].len;
            f->enter = id == RECFILE_FNENTER;
        } else if (id == DAPTO_EV_ENTER || id == DAPTO_EV_LEAVE) {
            if (k >= r->nnames || r->names[k].text == NULL)
                break;
            f->name = r->names[k].text;
            f->len = r->names[k].len;
            f->enter = id == DAPTO_EV_ENTER;
        } else {
            break;
        }
        f->function = 0;
        f->ns = (int64_t)ts;
        f->tid = s->tid;
        p += RECFILE_EVENT_HEADER + 4;
        n++;
    }
    s->pos = (size_t)(p - s->map);
    return n;
}

/* The size of the fields of event E of the program at B (LEFT bytes), as
 * rdecode() reads them, or -1 when they do not fit (or it would not read
 * them). */
static long rcount_body(const struct registry_event *e, const unsigned char *b,
                        size_t left)
{
    size_t n = 0, len;

    for (unsigned int i = 0; i < e->nparams; i++) {
        switch (e->params[i].kind) {
        case DAPTO_K_INT:
            n += 4;
            break;
        case DAPTO_K_LONG:
        case DAPTO_K_DOUBLE:
        case DAPTO_K_PTR:
            n += 8;
            break;
        case DAPTO_K_STR:
            if (n >= left || rcheck_string(b + n, left - n, &len) != 0)
                return -1;
            n += len + 1;
            break;
        default:
            return -1;
        }
        if (n > left)
            return -1;
    }
    return (long)n;
}

/* Take from S's packet, at its cursor, the events of the program that
 * COUNTED names (by code, LIMIT codes) at times up to LAST, while they
 * are whole, into EVS (up to MAX): how many.  What it does not take is
 * left for rdecode(). */
unsigned int recstream_count_run(struct recread *r, struct rstream *s,
                               const unsigned char *counted,
                               unsigned int limit, struct reader_ev *evs,
                               unsigned int max)
{
    const unsigned char *p = s->map + s->pos, *end = s->map + s->end;
    unsigned int n = 0, last_id = UINT_MAX;
    const struct registry_event *e = NULL;
    long fixed = -1; /* e's fields' size when it has no string */

    while (n < max && (size_t)(end - p) >= RECFILE_EVENT_HEADER) {
        unsigned int id = recfile_get16(p);
        uint64_t ts = recfile_get64(p + 2);
        size_t left = (size_t)(end - p) - RECFILE_EVENT_HEADER;
        long size;

        if (ts > r->last)
            break;
        if (id != last_id) {
            if (id >= limit || !counted[id] || id > DAPTO_EVENT_CODE_MAX)
                break;
            e = registry_event(r->reg, id);
            /* (the built-in enter and leave have a name id: rdecode()) */
            if (e == NULL ||
                ((id == DAPTO_EV_ENTER || id == DAPTO_EV_LEAVE) &&
                 e->aspect == r->builtin))
                break;
            last_id = id;
            fixed = 0;
            for (unsigned int i = 0; i < e->nparams && fixed >= 0; i++)
                fixed = e->params[i].kind == DAPTO_K_INT ? fixed + 4
                        : e->params[i].kind == DAPTO_K_LONG ||
                                e->params[i].kind == DAPTO_K_DOUBLE ||
                                e->params[i].kind == DAPTO_K_PTR
                            ? fixed + 8
                            : -1;
        }
        if (fixed >= 0)
            size = (size_t)fixed <= left ? fixed : -1;
        else
            size = rcount_body(e, p + RECFILE_EVENT_HEADER, left);
        if (size < 0)
            break;
        evs[n].event = e;
        evs[n].ns = (int64_t)ts;
        evs[n].tid = s->tid;
        p += RECFILE_EVENT_HEADER + (size_t)size;
        n++;
    }
    s->pos = (size_t)(p - s->map);
    return n;
}


/* Step over the events of S's packet at its cursor that rdecode() would
 * give as they are (the program's events, whole, of the recording's
 * classes; function entries and exits of defined functions), at times up
 * to LAST that do not go back, at most MAX: how many, their codes' bits
 * added to *CODES (reader_code_bit(); functions as the built-in enter and
 * leave they are given as) and the last one's time in *LAST_TS.  What it
 * does not take is left for rdecode().  The index's pass and moves use
 * it: what the general path would decode and drop, it reads only. */
unsigned int recstream_skip_run(struct recread *r, struct rstream *s,
                                uint64_t last, unsigned int max,
                                uint64_t *codes, uint64_t *last_ts)
{
    enum { SK_PROGRAM, SK_NAMED, SK_FUNCTION } kind = SK_PROGRAM;
    const unsigned char *p = s->map + s->pos, *end = s->map + s->end;
    const struct registry_event *e = NULL;
    unsigned int n = 0, last_id = UINT_MAX;
    uint64_t bit = 0, bits = 0, prev = s->ts;
    long fixed = -1;

    while (n < max && (size_t)(end - p) >= RECFILE_EVENT_HEADER) {
        unsigned int id = recfile_get16(p);
        uint64_t ts = recfile_get64(p + 2);
        size_t left = (size_t)(end - p) - RECFILE_EVENT_HEADER;
        const unsigned char *b = p + RECFILE_EVENT_HEADER;
        long size;

        if (ts > last || ts < prev)
            break;
        if (id != last_id) {
            if (id <= DAPTO_EVENT_CODE_MAX) {
                e = registry_event(r->reg, id);
                if (e == NULL)
                    break;
                kind = (id == DAPTO_EV_ENTER || id == DAPTO_EV_LEAVE) &&
                               e->aspect == r->builtin
                           ? SK_NAMED
                           : SK_PROGRAM;
                fixed = 0;
                for (unsigned int i = 0; i < e->nparams && fixed >= 0; i++)
                    fixed = e->params[i].kind == DAPTO_K_INT ? fixed + 4
                            : e->params[i].kind == DAPTO_K_LONG ||
                                    e->params[i].kind == DAPTO_K_DOUBLE ||
                                    e->params[i].kind == DAPTO_K_PTR
                                ? fixed + 8
                                : -1;
                bit = reader_code_bit(id);
            } else if (id == RECFILE_FNENTER || id == RECFILE_FNLEAVE) {
                kind = SK_FUNCTION;
                bit = reader_code_bit(id == RECFILE_FNENTER ? DAPTO_EV_ENTER
                                                            : DAPTO_EV_LEAVE);
            } else {
                break;
            }
            last_id = id;
        }
        if (kind == SK_NAMED || kind == SK_FUNCTION) {
            uint32_t k;

            if (left < 4)
                break;
            k = recfile_get32(b);
            if (kind == SK_NAMED ? k >= r->nnames || r->names[k].text == NULL
                                 : k >= r->nfuncs || r->funcs[k].name == NULL)
                break;
            size = 4;
        } else if (fixed >= 0) {
            if ((size_t)fixed > left)
                break;
            size = fixed;
        } else if ((size = rcount_body(e, b, left)) < 0) {
            break;
        }
        bits |= bit;
        prev = ts;
        p = b + size;
        n++;
    }
    s->pos = (size_t)(p - s->map);
    *codes |= bits;
    if (n > 0)
        *last_ts = prev;
    return n;
}
