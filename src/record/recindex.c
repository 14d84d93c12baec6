/* SPDX-License-Identifier: MIT */
/*
 * recindex.c - the index of a recording (recread-int.h,
 * <design#recordings>): where every RECINDEX_EVERY-th event of the merge
 * is (its stream, packet and place, and its time), the codes of the
 * events from each such sync point to the next, and each packet's events
 * and times, so that a move reads the start of one packet a stream and a
 * stretch of events, whatever the recording's length.
 *
 * It is made by one pass of the reader itself over the whole recording,
 * so that its numbers are the reader's by construction, and kept beside
 * the recording (RECFILE_INDEX, laid out in recfile.h).  Nothing in it is
 * trusted: it is used only when its check holds, its structure is sound,
 * and the files it describes are those there (names, sizes, modification
 * times); else it is made again, with a note that says why.  The packets
 * it names are checked as they are first read (recstream_enter()).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dapto.h"
#include "recfile.h"
#include "recread-int.h"
#include "xmalloc.h"

/* The pass. */

void recindex_build(struct recread *r)
{
    uint64_t seq = 0, bytes = 0, *last;
    size_t cap = 0, back_at = 0;
    const struct rstream *back = NULL;
    struct rstream *s;

    for (size_t i = 0; i < r->nstreams; i++) {
        struct rstream *t = &r->streams[i];

        bytes += t->size;
        for (size_t k = 0; k < t->npackets; k++) {
            t->packets[k].nevents = 0;
            t->packets[k].first_ts = t->packets[k].last_ts = 0;
        }
    }
    if (bytes >= RECINDEX_SAY)
        rnote(r, "indexing the recording (%.1f GB): once, the index is kept "
              "in %s/%s", (double)bytes / 1e9, r->dir, RECFILE_INDEX);
    free(r->syncs);
    r->syncs = NULL;
    r->nsyncs = 0;
    r->indexed = 0;
    r->every = RECINDEX_EVERY;
    r->nothers = 0; /* (numbered again with the items) */
    last = xcalloc(r->nstreams, sizeof *last);
    r->mute++;
    recread_seek(r, 0);
    while ((s = recread_pick(r)) != NULL) {
        struct rpacket *pk = &s->packets[s->pi - 1];
        size_t i = (size_t)(s - r->streams);
        uint64_t ts = s->ts;
        unsigned int room, n = 0;
        struct rsync *y;

        if (seq % r->every == 0) {
            r->syncs = xgrow(r->syncs, r->nsyncs, &cap, sizeof *r->syncs);
            y = &r->syncs[r->nsyncs++];
            y->seq = seq;
            y->ts = ts;
            y->at = s->at;
            y->stream = (uint32_t)i;
            y->packet = (uint32_t)(s->pi - 1);
            y->codes = 0;
        }
        y = &r->syncs[r->nsyncs - 1];
        y->codes |= recread_item_bit(&s->item);
        if (!recread_is_event(&s->item))
            recread_other(r, seq);
        if (ts < last[i] && back == NULL) {
            back = s;
            back_at = s->at;
        }
        if (pk->nevents == 0)
            pk->first_ts = ts;
        r->cur = s; /* what S holds is given */
        seq++;
        room = (unsigned int)((r->every - seq % r->every) % r->every);
        if (room > 0 && s->pos < s->end)
            n = recstream_skip_run(r, s, r->last, room, &y->codes, &ts);
        pk->nevents += 1 + n;
        pk->last_ts = ts;
        last[i] = ts;
        seq += n;
        r->seq = seq;
    }
    r->mute--;
    free(last);
    r->nevents = seq;
    r->items = seq;
    r->others_known = 1;
    /* a packet that gives nothing takes the times of the one before, so
     * that the times of a stream's packets never go back */
    for (size_t i = 0; i < r->nstreams; i++) {
        struct rstream *t = &r->streams[i];
        uint64_t prev = 0;

        for (size_t k = 0; k < t->npackets; k++) {
            if (t->packets[k].nevents == 0)
                t->packets[k].first_ts = t->packets[k].last_ts = prev;
            prev = t->packets[k].last_ts;
        }
    }
    /* what the pass skipped is said when it is played */
    for (size_t i = 0; i < r->nclasses; i++)
        r->classes[i].told = 0;
    if (back != NULL)
        rnote(r, "%s: the times of its events go back at byte %zu: moves in "
              "this recording read it from its start", back->name, back_at);
    else
        r->indexed = 1;
}

/* Saving. */

/* What the index keeps of S's bytes: a hash of its first and last
 * RECFILE_INDEX_PRINT bytes. */
static uint64_t iprint(const struct rstream *s)
{
    size_t n = s->size < RECFILE_INDEX_PRINT ? s->size : RECFILE_INDEX_PRINT;

    if (s->map == NULL)
        return 0;
    return recfile_hash(s->map, n) ^
           (recfile_hash(s->map + s->size - n, n) * 0x9e3779b97f4a7c15u);
}

struct ibuf {
    unsigned char *p;
    size_t n, cap;
};

static unsigned char *iput(struct ibuf *b, size_t n)
{
    unsigned char *at;

    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2;
        b->p = xrealloc(b->p, b->cap);
    }
    at = b->p + b->n;
    memset(at, 0, n);
    b->n += n;
    return at;
}

static void iput16(struct ibuf *b, uint16_t v)
{
    recfile_put16(iput(b, 2), v);
}

static void iput32(struct ibuf *b, uint32_t v)
{
    recfile_put32(iput(b, 4), v);
}

static void iput64(struct ibuf *b, uint64_t v)
{
    recfile_put64(iput(b, 8), v);
}

void recindex_save(struct recread *r)
{
    struct ibuf b = {NULL, 0, 0};
    uint64_t npackets = 0, nbytes = 0;
    char *path, *tmp;
    int fd, err = 0;

    if (!r->keep_index || !r->indexed)
        return;
    for (size_t i = 0; i < r->nstreams; i++) {
        npackets += r->streams[i].npackets;
        if (strlen(r->streams[i].name) >= RECFILE_INDEX_NAME)
            return; /* (not one of the writer's names: kept in memory) */
    }
    for (size_t i = 0; i < r->npnotes; i++)
        nbytes += strlen(r->pnotes[i]) + 1;
    memcpy(iput(&b, 8), RECFILE_INDEX_MAGIC, 8);
    iput16(&b, RECFILE_INDEX_MAJOR);
    iput16(&b, RECFILE_INDEX_MINOR);
    iput16(&b, (uint16_t)r->major);
    iput16(&b, (uint16_t)r->median);
    iput16(&b, (uint16_t)r->minor);
    iput16(&b, 0);
    iput32(&b, (uint32_t)r->every);
    iput32(&b, (uint32_t)r->nstreams);
    iput32(&b, (uint32_t)r->npnotes);
    iput64(&b, r->nevents);
    iput64(&b, r->nsyncs);
    iput64(&b, npackets);
    iput64(&b, r->meta_size);
    iput64(&b, r->meta_mtime);
    iput64(&b, nbytes);
    for (size_t i = 0; i < r->nstreams; i++) {
        const struct rstream *s = &r->streams[i];

        memcpy(iput(&b, RECFILE_INDEX_NAME), s->name, strlen(s->name));
        iput64(&b, s->size);
        iput64(&b, s->mtime);
        iput64(&b, s->npackets);
        iput64(&b, s->discarded);
        iput64(&b, iprint(s));
    }
    for (size_t i = 0; i < r->nstreams; i++) {
        const struct rstream *s = &r->streams[i];

        for (size_t k = 0; k < s->npackets; k++) {
            iput64(&b, s->packets[k].off);
            iput32(&b, s->packets[k].len);
            iput32(&b, s->packets[k].nevents);
            iput64(&b, s->packets[k].first_ts);
            iput64(&b, s->packets[k].last_ts);
        }
    }
    for (size_t j = 0; j < r->nsyncs; j++) {
        const struct rsync *y = &r->syncs[j];

        iput64(&b, y->seq);
        iput64(&b, y->ts);
        iput64(&b, y->at);
        iput32(&b, y->stream);
        iput32(&b, y->packet);
        iput64(&b, y->codes);
    }
    for (size_t i = 0; i < r->npnotes; i++) {
        size_t n = strlen(r->pnotes[i]) + 1;

        memcpy(iput(&b, n), r->pnotes[i], n);
    }
    iput64(&b, recfile_hash(b.p, b.n));

    path = xasprintf("%s/%s", r->dir, RECFILE_INDEX);
    tmp = xasprintf("%s/%s.%ld", r->dir, RECFILE_INDEX, (long)getpid());
    fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        err = errno;
    } else {
        size_t done = 0;

        while (done < b.n) {
            ssize_t w = write(fd, b.p + done, b.n - done);

            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0) {
                err = w < 0 ? errno : EIO;
                break;
            }
            done += (size_t)w;
        }
        if (close(fd) != 0 && err == 0)
            err = errno;
        if (err == 0 && rename(tmp, path) != 0)
            err = errno;
        if (err != 0)
            unlink(tmp);
    }
    if (err != 0)
        rnote(r, "%s: the index cannot be kept beside the recording (%s): "
              "it is made again at each opening", r->dir, strerror(err));
    free(tmp);
    free(path);
    free(b.p);
}

/* Loading. */

/* Read the file at PATH whole: its bytes (*LEN of them), NULL when it
 * cannot be read (*ERR the errno). */
static unsigned char *islurp(const char *path, size_t *len, int *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    unsigned char *p;
    size_t done = 0;

    *err = 0;
    if (fd < 0 || fstat(fd, &st) != 0) {
        *err = errno;
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    p = xmalloc((size_t)st.st_size + 1);
    while (done < (size_t)st.st_size) {
        ssize_t n = read(fd, p + done, (size_t)st.st_size - done);

        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break; /* (shorter than it was: its check will say) */
        done += (size_t)n;
    }
    close(fd);
    *len = done;
    return p;
}

/* What is wrong with the packets of S at P (N of them, at most LIMIT
 * events in all): NULL when they hold. */
static const char *ipackets_bad(const struct rstream *s,
                                const unsigned char *p, uint64_t n,
                                uint64_t *events)
{
    uint64_t prev_end = 0, prev_ts = 0;

    for (uint64_t k = 0; k < n; k++, p += RECFILE_INDEX_PACKET) {
        uint64_t off = recfile_get64(p);
        uint32_t len = recfile_get32(p + 8), nev = recfile_get32(p + 12);
        uint64_t first = recfile_get64(p + 16), last = recfile_get64(p + 24);

        if (off < prev_end || len < RECFILE_PACKET_HEADER ||
            len > RECFILE_PACKET_MAX || off > s->size || s->size - off < len)
            return "a packet outside its stream";
        if (first > last || first < prev_ts)
            return "a packet's times";
        if (nev > (len - RECFILE_PACKET_HEADER) / RECFILE_EVENT_HEADER)
            return "a packet's events";
        prev_end = off + len;
        prev_ts = last;
        *events += nev;
    }
    return NULL;
}

/* What becomes of an index that does not hold. */
static const char *iwhat(const struct recread *r)
{
    return r->opts.index == RECREAD_INDEX_BUILD ? "made again" : "not used";
}

int recindex_load(struct recread *r)
{
    char *path = xasprintf("%s/%s", r->dir, RECFILE_INDEX);
    const char *why = NULL, *stale = NULL;
    const unsigned char *h, *sp, *pp, *yp, *np;
    unsigned char *p;
    size_t len = 0, need;
    uint64_t nevents, nsyncs, npackets, nbytes, every, events = 0, at = 0;
    uint32_t nstreams, nnotes;
    int err;

    r->keep_index = 1;
    p = islurp(path, &len, &err);
    free(path);
    if (p == NULL) {
        if (err != ENOENT)
            rnote(r, "%s: its index (%s) cannot be read (%s): %s", r->dir,
                  RECFILE_INDEX, strerror(err), iwhat(r));
        return 0;
    }
    h = p;
    if (len < RECFILE_INDEX_HEADER + 8 ||
        memcmp(h, RECFILE_INDEX_MAGIC, 8) != 0) {
        why = "is not an index";
        goto bad;
    }
    if (recfile_get16(h + 8) != RECFILE_INDEX_MAJOR) {
        if (recfile_get16(h + 8) > RECFILE_INDEX_MAJOR) {
            rnote(r, "%s: its index (%s) is of a newer noosa (index %u.%u, "
                  "this one makes %u.%u): this one makes its own, kept in "
                  "memory", r->dir, RECFILE_INDEX, recfile_get16(h + 8),
                  recfile_get16(h + 10), RECFILE_INDEX_MAJOR,
                  RECFILE_INDEX_MINOR);
            r->keep_index = 0;
            free(p);
            return 0;
        }
        why = "is of an older noosa";
        goto bad;
    }
    if (recfile_hash(p, len - 8) != recfile_get64(p + len - 8)) {
        why = "is corrupt (its check fails)";
        goto bad;
    }
    every = recfile_get32(h + 20);
    nstreams = recfile_get32(h + 24);
    nnotes = recfile_get32(h + 28);
    nevents = recfile_get64(h + 32);
    nsyncs = recfile_get64(h + 40);
    npackets = recfile_get64(h + 48);
    nbytes = recfile_get64(h + 72);
    if (recfile_get16(h + 12) != r->major ||
        recfile_get16(h + 14) != r->median ||
        recfile_get16(h + 16) != r->minor ||
        recfile_get64(h + 56) != r->meta_size ||
        recfile_get64(h + 64) != r->meta_mtime || nstreams != r->nstreams) {
        stale = "the metadata or the streams";
        goto bad;
    }
    if (every == 0 || npackets > len / RECFILE_INDEX_PACKET ||
        nsyncs > len / RECFILE_INDEX_SYNC || nbytes > len ||
        nsyncs != (nevents + every - 1) / every) {
        why = "is corrupt (its counts)";
        goto bad;
    }
    need = RECFILE_INDEX_HEADER + (size_t)nstreams * RECFILE_INDEX_STREAM +
           (size_t)npackets * RECFILE_INDEX_PACKET +
           (size_t)nsyncs * RECFILE_INDEX_SYNC + (size_t)nbytes + 8;
    if (need != len) {
        why = "is corrupt (its size)";
        goto bad;
    }
    sp = h + RECFILE_INDEX_HEADER;
    pp = sp + (size_t)nstreams * RECFILE_INDEX_STREAM;
    yp = pp + (size_t)npackets * RECFILE_INDEX_PACKET;
    np = yp + (size_t)nsyncs * RECFILE_INDEX_SYNC;
    /* the streams: those of the directory, as they are */
    {
        uint64_t total = 0;

        for (uint32_t i = 0; i < nstreams; i++) {
            const unsigned char *q = sp + (size_t)i * RECFILE_INDEX_STREAM;
            const struct rstream *s = &r->streams[i];
            uint64_t n = recfile_get64(q + 48);

            if (strnlen((const char *)q, RECFILE_INDEX_NAME) ==
                    RECFILE_INDEX_NAME ||
                strcmp((const char *)q, s->name) != 0 ||
                recfile_get64(q + 32) != s->size ||
                recfile_get64(q + 40) != s->mtime ||
                recfile_get64(q + 64) != iprint(s)) {
                stale = s->name;
                goto bad;
            }
            if (n > npackets - total) {
                why = "is corrupt (its packets)";
                goto bad;
            }
            if ((why = ipackets_bad(s, pp + total * RECFILE_INDEX_PACKET, n,
                                    &events)) != NULL)
                goto bad;
            if (i == 0 &&
                (n != s->npackets ||
                 (n > 0 && (recfile_get64(pp) != s->packets[0].off ||
                            recfile_get64(pp + (n - 1) * RECFILE_INDEX_PACKET) !=
                                s->packets[n - 1].off)))) {
                stale = s->name;
                goto bad;
            }
            total += n;
        }
        if (total != npackets || events != nevents) {
            why = "is corrupt (its packets)";
            goto bad;
        }
    }
    /* the sync points: each where the packets say */
    for (uint64_t j = 0; j < nsyncs; j++) {
        const unsigned char *q = yp + j * RECFILE_INDEX_SYNC;
        uint32_t si = recfile_get32(q + 24), pk = recfile_get32(q + 28);
        uint64_t off = recfile_get64(q + 16), ts = recfile_get64(q + 8);
        const unsigned char *pq = pp;

        if (recfile_get64(q) != j * every || si >= nstreams) {
            why = "is corrupt (a sync point)";
            goto bad;
        }
        for (uint32_t i = 0; i < si; i++)
            pq += recfile_get64(sp + (size_t)i * RECFILE_INDEX_STREAM + 48) *
                  RECFILE_INDEX_PACKET;
        if (pk >= recfile_get64(sp + (size_t)si * RECFILE_INDEX_STREAM + 48)) {
            why = "is corrupt (a sync point)";
            goto bad;
        }
        pq += (size_t)pk * RECFILE_INDEX_PACKET;
        if (off < recfile_get64(pq) + RECFILE_PACKET_HEADER ||
            off >= recfile_get64(pq) + recfile_get32(pq + 8) ||
            ts < recfile_get64(pq + 16) || ts > recfile_get64(pq + 24) ||
            (j > 0 && ts < at)) {
            why = "is corrupt (a sync point)";
            goto bad;
        }
        at = ts;
    }
    /* the notes */
    {
        const unsigned char *q = np, *end = np + nbytes;

        for (uint32_t i = 0; i < nnotes; i++) {
            const unsigned char *z = memchr(q, '\0', (size_t)(end - q));

            if (z == NULL) {
                why = "is corrupt (its notes)";
                goto bad;
            }
            q = z + 1;
        }
        if (q != end) {
            why = "is corrupt (its notes)";
            goto bad;
        }
    }

    /* it holds: the streams' packets are its, checked as they are read */
    {
        const unsigned char *q = pp;

        for (uint32_t i = 0; i < nstreams; i++) {
            struct rstream *s = &r->streams[i];
            uint64_t n = recfile_get64(sp + (size_t)i * RECFILE_INDEX_STREAM +
                                       48);

            if (i > 0) {
                free(s->packets);
                s->packets = n > 0 ? xcalloc(n, sizeof *s->packets) : NULL;
                s->npackets = n;
                s->discarded = recfile_get64(
                    sp + (size_t)i * RECFILE_INDEX_STREAM + 56);
            }
            for (uint64_t k = 0; k < n; k++, q += RECFILE_INDEX_PACKET) {
                struct rpacket *pk = &s->packets[k];

                if (i > 0) {
                    pk->off = recfile_get64(q);
                    pk->len = recfile_get32(q + 8);
                    pk->checked = RPACKET_UNCHECKED;
                }
                pk->nevents = recfile_get32(q + 12);
                pk->first_ts = recfile_get64(q + 16);
                pk->last_ts = recfile_get64(q + 24);
            }
        }
    }
    r->syncs = nsyncs > 0 ? xreallocarray(NULL, nsyncs, sizeof *r->syncs)
                          : NULL;
    r->nsyncs = nsyncs;
    for (uint64_t j = 0; j < nsyncs; j++) {
        const unsigned char *q = yp + j * RECFILE_INDEX_SYNC;
        struct rsync *y = &r->syncs[j];

        y->seq = recfile_get64(q);
        y->ts = recfile_get64(q + 8);
        y->at = recfile_get64(q + 16);
        y->stream = recfile_get32(q + 24);
        y->packet = recfile_get32(q + 28);
        y->codes = recfile_get64(q + 32);
    }
    r->nevents = nevents;
    r->every = every;
    r->indexed = 1;
    for (const unsigned char *q = np; q < np + nbytes;) {
        size_t n = strlen((const char *)q);

        r->collect = 1;
        rnote(r, "%s", (const char *)q);
        r->collect = 0;
        q += n + 1;
    }
    free(p);
    return 1;

bad:
    if (stale != NULL)
        rnote(r, "%s: its index (%s) is older than the recording (%s "
              "changed): %s", r->dir, RECFILE_INDEX, stale, iwhat(r));
    else
        rnote(r, "%s: its index (%s) %s: %s", r->dir, RECFILE_INDEX, why,
              iwhat(r));
    free(p);
    return 0;
}

/* Moving. */

/* Put S (the I-th stream) at its first event at or after sync point Y in
 * the order of the merge (time, then stream).  -1 when Y's own stream
 * has no event of Y's time where Y says (an index whose check holds but
 * whose sync point does not: not one this noosa made as it is). */
static int iposition(struct recread *r, struct rstream *s, size_t i,
                     const struct rsync *y)
{
    s->have = 0;
    s->pos = s->end = 0;
    if (i == y->stream) {
        const struct rpacket *pk = &s->packets[y->packet];

        s->pi = y->packet + 1;
        if (recstream_enter(r, s, y->packet) != 0)
            return 0; /* (said, and the index made again) */
        s->pos = y->at;
        s->end = pk->off + pk->len;
        /* (what a wrong place would make it say of the packet is the
         * index's fault, said as such) */
        r->mute++;
        recstream_advance(r, s);
        r->mute--;
        return s->have && s->at == y->at && s->ts == y->ts &&
                       s->pi == y->packet + 1
                   ? 0
                   : -1;
    }
    {
        /* an earlier stream's events of the same time come before Y's,
         * a later one's after */
        int strict = i < y->stream;
        size_t lo = 0, hi = s->npackets;

        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            uint64_t t = s->packets[mid].last_ts;

            if (strict ? t > y->ts : t >= y->ts)
                hi = mid;
            else
                lo = mid + 1;
        }
        s->pi = lo;
        do
            recstream_advance(r, s);
        while (s->have && (strict ? s->ts <= y->ts : s->ts < y->ts));
    }
    return 0;
}

void recindex_seek(struct recread *r, uint64_t seq)
{
    const struct rsync *y;

    r->cur = NULL;
    if (seq >= r->nevents || r->nsyncs == 0) {
        for (size_t i = 0; i < r->nstreams; i++) {
            struct rstream *s = &r->streams[i];

            s->pi = s->npackets;
            s->pos = s->end = 0;
            s->have = 0;
        }
        r->best = NULL;
        r->seq = r->nevents;
        return;
    }
    y = &r->syncs[seq / r->every];
    for (size_t i = 0; i < r->nstreams; i++)
        if (iposition(r, &r->streams[i], i, y) != 0) {
            rnote(r, "%s: its index (%s) does not hold (sync point %zu is "
                  "not where it says): made again", r->dir, RECFILE_INDEX,
                  (size_t)(seq / r->every));
            r->index_stale = 1;
            return;
        }
    r->seq = y->seq;
    recread_best(r);
    recread_skip(r, seq - y->seq, UINT64_MAX);
}
