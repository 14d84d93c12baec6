/* SPDX-License-Identifier: MIT */
/*
 * recread.c - the reader of recordings (recread.h, <design#recordings>).
 * Each stream file is mapped and cut into packets first (checked, with a
 * note for each that cannot be used); noosa's stream is then read whole
 * for the definitions (aspects, names, functions, how the run ended);
 * events come out of a merge of the streams by time, noosa's first at
 * equal times.  Events whose values are not in the form of their class
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
#include "recread.h"
#include "xmalloc.h"

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
    uint64_t seq; /* events given so far: the last one's number */
};

static void rnote(struct recread *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void rnote(struct recread *r, const char *fmt, ...)
{
    va_list ap;
    char *text;

    va_start(ap, fmt);
    text = xvasprintf(fmt, ap);
    va_end(ap);
    if (r->opts.note != NULL)
        r->opts.note(r->opts.arg, text);
    free(text);
}

/* Metadata. */

/* The integer of "KEY = N;" in the env block, or -1. */
static long rmeta_int(const char *meta, const char *key)
{
    const char *p = meta;
    size_t klen = strlen(key);

    while ((p = strstr(p, key)) != NULL) {
        const char *q = p + klen;
        char *end;
        long v;

        if (p > meta && (p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z'))) {
            p = q;
            continue;
        }
        while (*q == ' ')
            q++;
        if (*q++ != '=') {
            p = q;
            continue;
        }
        v = strtol(q, &end, 10);
        if (end != q && v >= 0)
            return v;
        p = q;
    }
    return -1;
}

const char *recread_env(struct recread *r, const char *key)
{
    const char *env = strstr(r->metadata, "\nenv {");
    const char *end, *p;
    size_t klen = strlen(key);
    char *out;
    size_t n = 0;

    if (env == NULL)
        return NULL;
    end = strstr(env, "\n};");
    for (p = env; (p = strstr(p, key)) != NULL && (end == NULL || p < end);
         p++) {
        const char *q = p + klen;

        if (p[-1] != ' ' || strncmp(q, " = \"", 4) != 0)
            continue;
        q += 4;
        out = xmalloc(strlen(q) + 1);
        while (*q != '\0' && *q != '"') {
            if (*q == '\\' && q[1] == 'x' && q[2] != '\0' && q[3] != '\0') {
                char hex[3] = {q[2], q[3], 0};
                out[n++] = (char)strtol(hex, NULL, 16);
                q += 4;
            } else if (*q == '\\' && q[1] != '\0') {
                out[n++] = q[1];
                q += 2;
            } else {
                out[n++] = *q++;
            }
        }
        out[n] = '\0';
        free(r->env_value);
        r->env_value = out;
        return out;
    }
    return NULL;
}

/* The size of a TSDL type this format uses, -1 for a string, 0 when it
 * is not one of them. */
static int rtype_size(const char *t, size_t n)
{
    static const struct {
        const char *name;
        int size;
    } types[] = {{"uint8_t", 1},  {"uint16_t", 2}, {"uint32_t", 4},
                 {"uint64_t", 8}, {"int32_t", 4},  {"int64_t", 8},
                 {"xptr_t", 8},   {"double_t", 8}, {"uint64_clock_t", 8},
                 {"string", -1}};

    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (strlen(types[i].name) == n && memcmp(types[i].name, t, n) == 0)
            return types[i].size;
    return 0;
}

/* Read the classes of the metadata whose ids are noosa's (above the
 * program's codes) and not this reader's own, with fields of the types
 * the format uses, so that their events can be skipped exactly: the
 * classes a newer minor version adds <design#recordings>. */
static void rclasses(struct recread *r)
{
    const char *p = r->metadata;

    while ((p = strstr(p, "\nevent {")) != NULL) {
        const char *end = strstr(p + 1, "\n};");
        const char *idp = strstr(p, "\n    id = ");
        const char *np = strstr(p, "name = \"");
        const char *fp = strstr(p, "fields := struct {");
        struct rclass c;
        const char *q, *fend;
        unsigned long id;

        p++;
        if (end == NULL || idp == NULL || idp > end)
            break;
        id = strtoul(idp + 10, NULL, 10);
        if (id <= DAPTO_EVENT_CODE_MAX || id <= RECFILE_CLASS_LAST ||
            id > 0xffff)
            continue;
        memset(&c, 0, sizeof c);
        c.id = (unsigned int)id;
        if (np != NULL && np < end) {
            const char *nq = strchr(np + 8, '"');

            if (nq != NULL)
                c.name = xstrndup(np + 8, (size_t)(nq - np - 8));
        }
        if (fp != NULL && fp < end) {
            fend = strstr(fp, "};");
            q = fp + 18;
            while (fend != NULL && q < fend && c.nfields < RCLASS_FIELDS) {
                const char *semi = memchr(q, ';', (size_t)(fend - q));
                const char *t, *te, *nm, *ne, *br;
                struct rfield *f = &c.fields[c.nfields];
                int size;

                if (semi == NULL)
                    break;
                for (t = q; t < semi && (*t == ' ' || *t == '\n'); t++)
                    ;
                for (te = t; te < semi && *te != ' '; te++)
                    ;
                for (nm = te; nm < semi && *nm == ' '; nm++)
                    ;
                for (ne = nm; ne < semi && *ne != '[' && *ne != ' '; ne++)
                    ;
                size = rtype_size(t, (size_t)(te - t));
                if (size == 0 || nm == ne)
                    goto bad;
                f->size = size;
                f->lenref = -1;
                f->count = 1;
                br = memchr(nm, '[', (size_t)(semi - nm));
                if (br != NULL) {
                    const char *rb = memchr(br, ']', (size_t)(semi - br));

                    if (rb == NULL || size < 0)
                        goto bad;
                    if (br[1] >= '0' && br[1] <= '9') {
                        f->count = (unsigned int)strtoul(br + 1, NULL, 10);
                    } else {
                        /* the length is an earlier field, by name */
                        size_t ln = (size_t)(rb - br - 1);

                        f->lenref = -2;
                        /* find the declaration "TYPE NAME;" before it */
                        {
                            const char *d = fp + 18;
                            unsigned int k = 0;

                            while (k < c.nfields) {
                                const char *ds = memchr(d, ';', (size_t)(fend - d));
                                const char *dn;

                                if (ds == NULL)
                                    break;
                                dn = ds;
                                while (dn > d && dn[-1] != ' ')
                                    dn--;
                                if ((size_t)(ds - dn) == ln &&
                                    memcmp(dn, br + 1, ln) == 0)
                                    f->lenref = (int)k;
                                d = ds + 1;
                                k++;
                            }
                        }
                        if (f->lenref < 0)
                            goto bad;
                    }
                }
                c.nfields++;
                q = semi + 1;
            }
        }
        r->classes = xreallocarray(r->classes, r->nclasses + 1,
                                   sizeof *r->classes);
        r->classes[r->nclasses++] = c;
        continue;
    bad:
        free(c.name);
    }
}

/* The size of the event of class C whose fields start at B (LEFT bytes),
 * or -1 when it does not fit. */
static long rclass_skip(const struct rclass *c, const unsigned char *b,
                        size_t left)
{
    size_t n = 0;
    uint64_t vals[RCLASS_FIELDS];

    for (unsigned int i = 0; i < c->nfields; i++) {
        const struct rfield *f = &c->fields[i];
        uint64_t count = f->count;

        vals[i] = 0;
        if (f->size < 0) {
            const unsigned char *z = memchr(b + n, '\0', left - n);

            if (z == NULL)
                return -1;
            n = (size_t)(z - b) + 1;
            continue;
        }
        if (f->lenref >= 0)
            count = vals[f->lenref];
        if (count > (left - n) / (uint64_t)f->size)
            return -1;
        if (count == 1 && f->lenref < 0 && f->size <= 8) {
            uint64_t v = 0;

            memcpy(&v, b + n, (size_t)f->size);
            vals[i] = v;
        }
        n += (size_t)(count * (uint64_t)f->size);
    }
    return (long)n;
}

static struct rclass *rclass_of(struct recread *r, unsigned int id)
{
    for (size_t i = 0; i < r->nclasses; i++)
        if (r->classes[i].id == id)
            return &r->classes[i];
    return NULL;
}

/* Skip an event of a class this reader does not know, when the metadata
 * describes it: its size (the caller steps over it), or -1. */
static long rskip_unknown(struct recread *r, const char *stream,
                          unsigned int id, const unsigned char *b,
                          size_t left)
{
    struct rclass *c = rclass_of(r, id);
    long n;

    if (c == NULL)
        return -1;
    n = rclass_skip(c, b, left);
    if (n >= 0 && !c->told) {
        c->told = 1;
        rnote(r, "%s: events of class %s (%u), newer than this noosa, "
              "skipped", stream, c->name != NULL ? c->name : "?", id);
    }
    return n;
}

/* Streams. */

static int rstream_map(struct recread *r, struct rstream *s, const char *path)
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
static void rstream_packets(struct recread *r, struct rstream *s)
{
    size_t off = 0, cap = 0;
    uint64_t seq = 0;

    while (off < s->size) {
        const unsigned char *p = s->map + off;
        size_t left = s->size - off;
        uint64_t bits, cbits, len;

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
        s->packets[s->npackets].off = off;
        s->packets[s->npackets].len = (size_t)len;
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

static void rdefine_name(struct recread *r, uint32_t id, const char *s,
                         size_t len)
{
    if (id >= (1u << 24))
        return;
    if (id >= r->nnames) {
        r->names = xreallocarray(r->names, id + 1, sizeof *r->names);
        memset(r->names + r->nnames, 0,
               (id + 1 - r->nnames) * sizeof *r->names);
        r->nnames = id + 1;
    }
    free(r->names[id].text);
    r->names[id].text = xstrndup(s, len);
    r->names[id].len = (uint32_t)len;
}

static void rdefine_func(struct recread *r, uint32_t id, uint64_t addr,
                         const char *s, size_t len)
{
    if (id >= (1u << 24))
        return;
    if (id >= r->nfuncs) {
        r->funcs = xreallocarray(r->funcs, id + 1, sizeof *r->funcs);
        memset(r->funcs + r->nfuncs, 0,
               (id + 1 - r->nfuncs) * sizeof *r->funcs);
        r->nfuncs = id + 1;
    }
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
static void rdefinitions(struct recread *r, struct rstream *s)
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
                long skip = rskip_unknown(r, s->name, id, b, body);

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
        if (r->aspect_next < r->naspects &&
            r->aspects[r->aspect_next] != NULL) {
            it->kind = READER_ASPECT;
            it->aspect = r->aspects[r->aspect_next];
        }
        r->aspect_next++;
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
        long skip = rskip_unknown(r, s->name, id, b, body);

        if (skip >= 0)
            return -(long)(RECFILE_EVENT_HEADER + (size_t)skip);
    }
    xcause(why, "an event of unknown class %u", id);
    return -1;

short_body:
    xcause(why, "an event of class %u is cut", id);
    return -1;
}

/* Move S's cursor to its next event to give (s->have), or to its end. */
static void radvance(struct recread *r, struct rstream *s)
{
    s->have = 0;
    for (;;) {
        char *why = NULL;
        long n;

        if (s->pos >= s->end) {
            if (s->pi >= s->npackets)
                return;
            s->pos = s->packets[s->pi].off + RECFILE_PACKET_HEADER;
            s->end = s->packets[s->pi].off + s->packets[s->pi].len;
            s->pi++;
            continue;
        }
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

/* Find the stream whose event comes next (r->best: the earliest; of
 * equal times, the first stream's), and up to when it stays so
 * (r->last). */
static void rbest(struct recread *r)
{
    struct rstream *best = NULL;

    for (size_t i = 0; i < r->nstreams; i++) {
        struct rstream *s = &r->streams[i];

        if (s->have && (best == NULL || s->ts < best->ts))
            best = s;
    }
    r->best = best;
    r->last = UINT64_MAX;
    for (size_t i = 0; best != NULL && i < r->nstreams; i++) {
        struct rstream *o = &r->streams[i];
        /* (an earlier stream's next is after best's: o->ts > 0) */
        uint64_t t = o < best ? o->ts - 1 : o->ts;

        if (o != best && o->have && t < r->last)
            r->last = t;
    }
}

/* The stream that holds the next event, or NULL at the end. */
static struct rstream *rpick(struct recread *r)
{
    struct rstream *s = r->cur;

    if (s != NULL) {
        r->cur = NULL;
        radvance(r, s);
        if (!s->have || s->ts > r->last)
            rbest(r);
    }
    return r->best;
}

void recread_rewind(struct recread *r)
{
    r->aspect_next = 0;
    r->seq = 0;
    r->cur = NULL;
    for (size_t i = 0; i < r->nstreams; i++) {
        struct rstream *s = &r->streams[i];

        s->pi = 0;
        s->pos = s->end = 0;
        radvance(r, s);
    }
    rbest(r);
}

int recread_next(struct recread *r, struct reader_item *item, uint64_t *seq)
{
    struct rstream *best = rpick(r);

    r->cur = best;
    if (best == NULL)
        return 0;
    *item = best->item;
    /* <design#event-numbers>: events alone are numbered, from 1 */
    if (item->kind == READER_EVENT || item->kind == READER_FUNCTION)
        r->seq++;
    if (seq != NULL)
        *seq = r->seq;
    return 1;
}

uint64_t recread_skip(struct recread *r, uint64_t n)
{
    struct reader_item item;
    struct reader_fn fns[256];

    recread_rewind(r);
    while (r->seq < n) {
        uint64_t left = n - r->seq;

        /* function records in runs, when they come next (no item each) */
        if (recread_functions(r, fns, left < 256 ? (unsigned int)left : 256,
                              NULL) == 0 &&
            !recread_next(r, &item, NULL))
            break;
    }
    return r->seq;
}

/* Whether the event S holds is a function's entry or exit that
 * recread_functions() gives. */
static inline int rfn_is(const struct recread *r, const struct rstream *s)
{
    const struct reader_item *it = &s->item;

    return it->kind == READER_FUNCTION ||
           (it->kind == READER_EVENT &&
            (it->code == DAPTO_EV_ENTER || it->code == DAPTO_EV_LEAVE) &&
            it->event->aspect == r->builtin);
}

/* The entry or exit S holds (rfn_is()) as *FN. */
static void rfn_item(const struct recread *r, const struct rstream *s,
                     struct reader_fn *fn)
{
    const struct reader_item *it = &s->item;

    if (it->kind == READER_FUNCTION) {
        fn->name = r->funcs[s->func].name;
        fn->len = r->funcs[s->func].len;
        fn->enter = it->enter;
    } else {
        fn->name = it->values[0].s;
        fn->len = it->values[0].len;
        fn->enter = it->code == DAPTO_EV_ENTER;
    }
    fn->function = 0;
    fn->ns = it->ns;
    fn->tid = s->tid;
}

/* Take from S's packet, at its cursor, the entries and exits of 14 bytes
 * at times up to LAST, while they are whole and their ids defined, into
 * FNS (up to MAX): how many.  What it does not take is left for
 * rdecode(), which says what is wrong with it. */
static unsigned int rfn_run(struct recread *r, struct rstream *s,
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

/* recread_functions() from S, which holds an entry or exit, and what
 * follows it in its packet (out of line: the caller's test is on every
 * item's way).  The run ends where the packet does or at an event it
 * does not take: the next call reads that the general way (rpick()), so
 * that what is said of it is said after the events before it are given,
 * as one by one. */
static __attribute__((noinline)) unsigned int rfn_take(struct recread *r,
                                                       struct rstream *s,
                                                       struct reader_fn *fns,
                                                       unsigned int max,
                                                       uint64_t *seq)
{
    unsigned int n;

    rfn_item(r, s, &fns[0]);
    if (seq != NULL)
        *seq = r->seq + 1;
    r->cur = s; /* what S holds is given */
    n = 1 + rfn_run(r, s, r->last, fns + 1, max - 1);
    r->seq += n;
    return n;
}

unsigned int recread_functions(struct recread *r, struct reader_fn *fns,
                               unsigned int max, uint64_t *seq)
{
    struct rstream *s;

    if (!r->named || max == 0)
        return 0;
    s = rpick(r);
    if (s == NULL || !rfn_is(r, s))
        return 0;
    return rfn_take(r, s, fns, max, seq);
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
static unsigned int rcount_run(struct recread *r, struct rstream *s,
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

unsigned int recread_counts(struct recread *r, const unsigned char *counted,
                            unsigned int limit, struct reader_ev *evs,
                            unsigned int max, uint64_t *seq)
{
    struct rstream *s = rpick(r);
    unsigned int n;

    if (s == NULL || max == 0 || s->item.kind != READER_EVENT ||
        s->item.code >= limit || !counted[s->item.code] || rfn_is(r, s))
        return 0;
    evs[0].event = s->item.event;
    evs[0].ns = s->item.ns;
    evs[0].tid = s->tid;
    if (seq != NULL)
        *seq = r->seq + 1;
    r->cur = s; /* what S holds is given */
    /* (the run ends with its packet, as rfn_take()'s) */
    n = 1 + rcount_run(r, s, counted, limit, evs + 1, max - 1);
    r->seq += n;
    return n;
}

/* Opening. */

int recread_is_recording(const char *dir)
{
    char *path = xasprintf("%s/%s", dir, RECFILE_METADATA);
    struct stat st;
    int rc = stat(dir, &st) == 0 && S_ISDIR(st.st_mode) &&
             access(path, R_OK) == 0;

    free(path);
    return rc;
}

static int rstream_cmp(const void *a, const void *b)
{
    const struct rstream *x = a, *y = b;

    if (x->tid != y->tid)
        return x->tid < y->tid ? -1 : 1;
    return strcmp(x->name, y->name);
}

static char *rslurp(const char *path, char **cause)
{
    FILE *f = fopen(path, "r");
    char *text = NULL;
    size_t len = 0, cap = 0, n;

    if (f == NULL) {
        xcause(cause, "%s: %s", path, strerror(errno));
        return NULL;
    }
    do {
        if (len + 4096 + 1 > cap) {
            cap = 2 * (len + 4096 + 1);
            text = xrealloc(text, cap);
        }
        n = fread(text + len, 1, 4096, f);
        len += n;
    } while (n > 0 && len < (64u << 20));
    fclose(f);
    text[len] = '\0';
    return text;
}

int recread_open(struct recread **out, const char *dir,
                 const struct recread_opts *opts, char **cause)
{
    struct recread *r;
    struct stat st;
    char *path;
    DIR *d;
    struct dirent *de;
    size_t cap = 0;

    if (stat(dir, &st) != 0) {
        xcause(cause, "%s: %s", dir, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        xcause(cause, "%s is not a recording (not a directory)", dir);
        return -1;
    }
    path = xasprintf("%s/%s", dir, RECFILE_METADATA);
    if (access(path, F_OK) != 0) {
        xcause(cause, "%s is not a recording (it has no %s)", dir,
               RECFILE_METADATA);
        free(path);
        return -1;
    }
    r = xcalloc(1, sizeof *r);
    if (opts != NULL)
        r->opts = *opts;
    r->dir = xstrdup(dir);
    r->metadata = rslurp(path, cause);
    free(path);
    if (r->metadata == NULL)
        goto fail;
    if (strncmp(r->metadata, "/* CTF 1.8", 10) != 0 ||
        strstr(r->metadata, "noosa_format_major") == NULL) {
        xcause(cause, "%s is not a noosa recording (its metadata is not "
               "noosa's CTF)", dir);
        goto fail;
    }
    r->major = (int)rmeta_int(r->metadata, "noosa_format_major");
    r->median = (int)rmeta_int(r->metadata, "noosa_format_median");
    r->minor = (int)rmeta_int(r->metadata, "noosa_format_minor");
    if (r->major < 0 || r->median < 0 || r->minor < 0) {
        xcause(cause, "%s: the metadata does not say the format's version",
               dir);
        goto fail;
    }
    r->version = xasprintf("%d.%d.%d", r->major, r->median, r->minor);
    if (r->major > RECFILE_MAJOR ||
        (r->major == RECFILE_MAJOR && r->median > RECFILE_MEDIAN)) {
        xcause(cause, "%s is a recording of format %s, newer than this noosa "
               "reads (%d.%d.%d)", dir, r->version, RECFILE_MAJOR,
               RECFILE_MEDIAN, RECFILE_MINOR);
        goto fail;
    }

    d = opendir(dir);
    if (d == NULL) {
        xcause(cause, "%s: %s", dir, strerror(errno));
        goto fail;
    }
    while ((de = readdir(d)) != NULL) {
        struct rstream s;
        size_t plen = strlen(RECFILE_THREAD_PREFIX);

        memset(&s, 0, sizeof s);
        if (strcmp(de->d_name, RECFILE_NOOSA_STREAM) == 0) {
            s.tid = 0;
        } else if (strncmp(de->d_name, RECFILE_THREAD_PREFIX, plen) == 0) {
            char *end;
            long tid = strtol(de->d_name + plen, &end, 10);

            if (*end != '\0' || tid <= 0)
                continue;
            s.tid = (pid_t)tid;
        } else {
            continue;
        }
        s.name = xstrdup(de->d_name);
        path = xasprintf("%s/%s", dir, de->d_name);
        if (rstream_map(r, &s, path) != 0) {
            free(path);
            free(s.name);
            continue;
        }
        free(path);
        r->streams = xgrow(r->streams, r->nstreams, &cap, sizeof *r->streams);
        r->streams[r->nstreams++] = s;
    }
    closedir(d);
    qsort(r->streams, r->nstreams, sizeof *r->streams, rstream_cmp);
    r->have_noosa = r->nstreams > 0 && r->streams[0].tid == 0;
    if (!r->have_noosa) {
        xcause(cause, "%s is not a recording (it has no %s)", dir,
               RECFILE_NOOSA_STREAM);
        goto fail;
    }

    r->reg = registry_create();
    clock_init(&r->clock, 0);
    r->clock.start_ns = 0;
    r->reader = reader_create(r->reg, &r->clock, 0);
    for (size_t i = 0; i < r->nstreams; i++) {
        rstream_packets(r, &r->streams[i]);
        if (r->streams[i].discarded > 0) {
            rnote(r, "%s: its %llu earlier events were not kept (a flight "
                  "recording)", r->streams[i].name,
                  (unsigned long long)r->streams[i].discarded);
            r->dropped += r->streams[i].discarded;
        }
    }
    rclasses(r);
    rdefinitions(r, &r->streams[0]);
    {
        const struct registry_event *e =
            registry_event(r->reg, DAPTO_EV_ENTER);

        if (e != NULL && strcmp(e->aspect->name, "dapto") == 0 &&
            e->nparams == 1 && e->params[0].kind == DAPTO_K_STR) {
            const struct registry_event *l =
                registry_event(r->reg, DAPTO_EV_LEAVE);

            if (l != NULL && l->aspect == e->aspect && l->nparams == 1 &&
                l->params[0].kind == DAPTO_K_STR)
                r->builtin = e->aspect;
        }
        r->named = r->builtin != NULL && r->builtin->event_base == 0;
    }
    if (r->lost > 0)
        rnote(r, "the recording says %llu events were lost",
              (unsigned long long)r->lost);
    recread_rewind(r);
    *out = r;
    return 0;

fail:
    recread_free(r);
    return -1;
}

void recread_free(struct recread *r)
{
    if (r == NULL)
        return;
    for (size_t i = 0; i < r->nstreams; i++) {
        struct rstream *s = &r->streams[i];

        if (s->map != NULL)
            munmap(s->map, s->size);
        free(s->packets);
        free(s->values);
        free(s->name);
    }
    free(r->streams);
    for (size_t i = 0; i < r->nnames; i++)
        free(r->names[i].text);
    free(r->names);
    for (size_t i = 0; i < r->nfuncs; i++)
        free(r->funcs[i].name);
    free(r->funcs);
    free(r->aspects);
    for (size_t i = 0; i < r->nclasses; i++)
        free(r->classes[i].name);
    free(r->classes);
    reader_free(r->reader);
    registry_free(r->reg);
    free(r->raw);
    free(r->metadata);
    free(r->env_value);
    free(r->version);
    free(r->dir);
    free(r);
}

struct registry *recread_registry(const struct recread *r)
{
    return r->reg;
}

const char *recread_version(const struct recread *r)
{
    return r->version;
}

pid_t recread_pid(const struct recread *r)
{
    return r->pid;
}

int recread_ended(const struct recread *r, int *status, int *signo)
{
    *status = r->status;
    *signo = r->signo;
    return r->ended;
}

uint64_t recread_lost(const struct recread *r)
{
    return r->lost;
}

uint64_t recread_dropped(const struct recread *r)
{
    return r->dropped;
}

const char *recread_item_function(const struct recread *r, uint32_t *len)
{
    const struct rfunc *f;

    if (r->cur == NULL || r->cur->item.kind != READER_FUNCTION ||
        r->cur->func >= r->nfuncs)
        return NULL;
    f = &r->funcs[r->cur->func];
    *len = f->len;
    return f->name;
}

const char *recread_function(const struct recread *r, uint64_t addr)
{
    for (size_t i = 0; i < r->nfuncs; i++)
        if (r->funcs[i].name != NULL && r->funcs[i].addr == addr)
            return r->funcs[i].name;
    return NULL;
}

size_t recread_nthreads(const struct recread *r)
{
    return r->have_noosa ? r->nstreams - 1 : r->nstreams;
}

pid_t recread_thread(const struct recread *r, size_t i)
{
    return r->streams[i + (r->have_noosa ? 1 : 0)].tid;
}
