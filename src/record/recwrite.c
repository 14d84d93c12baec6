/* SPDX-License-Identifier: MIT */
/*
 * recwrite.c - the writer of recordings (recwrite.h, <design#recordings>).
 * Events go into a packet buffer per thread (noosa's own records into
 * stream 0) and a buffer is written whole, with one write(), when it
 * reaches RECFILE_PACKET_TARGET; stream 0 is always written before any
 * other stream, so that what a thread's packet refers to (an aspect, a
 * name) is on disk before it.  Names of enter and leave and the addresses
 * of -finstrument-functions records are interned: the first use writes
 * the text once to stream 0, every event carries a 4-byte id.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "dapto.h"
#include "protocol.h"
#include "recfile.h"
#include "recguard.h"
#include "recwrite.h"
#include "registry.h"
#include "xmalloc.h"

/* A packet kept in memory by the flight recorder. */
struct wkept {
    unsigned char *buf;
    size_t len;
    unsigned int nevents;
};

struct wstream {
    pid_t tid;
    int fd;
    int slot;       /* its recguard slot */
    uint64_t size;  /* of its file: whole packets */
    /* the flight recorder: the last packets, oldest first */
    struct wkept *kept;
    size_t nkept, kept_cap, kept_bytes;
    uint64_t dropped;     /* events of the packets let go */
    unsigned char *buf;
    size_t len, cap;
    uint64_t ts_begin, ts_last;
    uint64_t seq;
    unsigned int nevents; /* in the buffer */
};

/* How an event code is written. */
enum wclass {
    WC_UNKNOWN = 0, /* no aspect declares it (yet) */
    WC_TYPED,       /* fields by the declared kinds */
    WC_RAW,         /* always RECFILE_RAW (a parameter of a user type) */
    WC_NAMED        /* built-in enter/leave: u32 name id */
};

struct wname {
    char *text;
    uint32_t len;
    uint32_t hash;
    uint32_t id;
};

struct wfunc {
    uint64_t addr;
    uint32_t id;
    int used;
};

#define NAME_CACHE 1024

struct recwrite {
    char *dir;
    int meta_fd;
    struct recguard *guard; /* cuts the files if noosa dies; may be NULL */
    int meta_slot;
    uint64_t meta_size;
    struct recwrite_opts opts;
    char *error;          /* the first failed write: nothing more is written */

    struct wstream *noosa; /* stream 0 */
    struct wstream **streams; /* open addressing by tid */
    size_t nstreams, streams_cap;
    struct wstream *last; /* the last thread's */

    unsigned char *classes; /* enum wclass by code */
    const struct registry_event **events; /* by code */

    struct wname *names;  /* open addressing by hash */
    size_t nnames, names_cap;
    struct {
        const char *ptr;
        uint32_t id;
    } cache[NAME_CACHE];  /* stable (interned) name pointers */

    struct wfunc *funcs;  /* open addressing by address */
    size_t nfuncs, funcs_cap;
    struct {
        uint64_t addr;
        uint32_t id;
        int used;
    } fcache[NAME_CACHE]; /* the last functions, direct-mapped */

    size_t packet_target; /* a packet is written at this size */
    uint64_t lost;
    uint64_t ts_max;      /* the latest event's time */
    uint64_t nevents;     /* recorded */
    uint64_t bytes;
    unsigned char *scratch;
    size_t scratch_cap;
};

/* Writing. */

static void wfail(struct recwrite *w, const char *what, int err)
{
    if (w->error == NULL)
        w->error = xasprintf("%s/%s: %s", w->dir, what, strerror(err));
}

static void wwrite(struct recwrite *w, int fd, const char *what,
                   const void *buf, size_t len)
{
    const char *p = buf;

    if (w->error != NULL)
        return;
    while (len > 0) {
        ssize_t n = write(fd, p, len);

        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            wfail(w, what, n < 0 ? errno : ENOSPC);
            return;
        }
        p += n;
        len -= (size_t)n;
        w->bytes += (uint64_t)n;
    }
}

/* A string in TSDL's double quotes. */
static void tsdl_quote(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s != '\0'; s++) {
        unsigned char c = (unsigned char)*s;

        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20 || c == 0x7f)
            fprintf(f, "\\x%02x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static void wmeta(struct recwrite *w, char *text, size_t len)
{
    wwrite(w, w->meta_fd, RECFILE_METADATA, text, len);
    if (w->error == NULL) {
        /* a whole block: the metadata is whole up to here */
        w->meta_size += len;
        recguard_commit(w->guard, w->meta_slot, w->meta_size);
    }
    free(text);
}

/* Write packet B (LEN bytes) at the end of S's file, which is whole up
 * to its end once the write is. */
static void wpacket(struct recwrite *w, struct wstream *s,
                    const unsigned char *b, size_t len)
{
    wwrite(w, s->fd, s->tid == 0 ? RECFILE_NOOSA_STREAM : "thread stream", b,
           len);
    if (w->error == NULL) {
        s->size += len;
        recguard_commit(w->guard, s->slot, s->size);
    }
}

static const char *const wpreamble =
    "/* CTF 1.8 */\n"
    "\n"
    "/* A recording of noosa: its own additions are the env block and the\n"
    " * event classes named noosa_*. */\n"
    "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
    "typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
    "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
    "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
    "typealias integer { size = 32; align = 8; signed = true; } := int32_t;\n"
    "typealias integer { size = 64; align = 8; signed = true; } := int64_t;\n"
    "typealias integer { size = 64; align = 8; signed = false; base = 16; } "
    ":= xptr_t;\n"
    "typealias floating_point { exp_dig = 11; mant_dig = 53; align = 8; } "
    ":= double_t;\n"
    "\n"
    "trace {\n"
    "    major = 1;\n"
    "    minor = 8;\n"
    "    byte_order = le;\n"
    "    packet.header := struct {\n"
    "        uint32_t magic;\n"
    "        uint32_t stream_id;\n"
    "        uint64_t stream_instance_id;\n"
    "    };\n"
    "};\n"
    "\n";

static const char *const wstream_class =
    "typealias integer { size = 64; align = 8; signed = false; "
    "map = clock.noosa_clock.value; } := uint64_clock_t;\n"
    "\n"
    "stream {\n"
    "    id = 0;\n"
    "    event.header := struct {\n"
    "        uint16_t id;\n"
    "        uint64_clock_t timestamp;\n"
    "    };\n"
    "    packet.context := struct {\n"
    "        uint64_clock_t timestamp_begin;\n"
    "        uint64_clock_t timestamp_end;\n"
    "        uint64_t content_size;\n"
    "        uint64_t packet_size;\n"
    "        uint64_t packet_seq_num;\n"
    "        uint64_t events_discarded;\n"
    "        uint32_t tid;\n"
    "        uint32_t noosa_check;\n"
    "    };\n"
    "};\n"
    "\n";

/* noosa's event classes (recfile.h). */
static const struct {
    unsigned int id;
    const char *name;
    const char *fields;
} wnoosa_classes[] = {
    {RECFILE_HELLO, "noosa_hello", "int32_t _pid; int32_t _ring_mode;"},
    {RECFILE_ASPECT, "noosa_aspect",
     "string _name; string _interface; string _description;"},
    {RECFILE_INTERN, "noosa_intern", "uint32_t _id; string _text;"},
    {RECFILE_FUNCTION, "noosa_function",
     "uint32_t _id; xptr_t _address; string _name;"},
    {RECFILE_LOST, "noosa_lost", "uint64_t _count;"},
    {RECFILE_FNENTER, "noosa_function_enter", "uint32_t _function;"},
    {RECFILE_FNLEAVE, "noosa_function_leave", "uint32_t _function;"},
    {RECFILE_RAW, "noosa_raw",
     "uint16_t _code; uint16_t _flags; uint32_t _len; uint8_t _values[_len];"},
    {RECFILE_END, "noosa_end", "int32_t _status; int32_t _signal;"},
};

static int wmeta_start(struct recwrite *w)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    struct timespec rt, mono;
    char host[256];
    char *args;
    size_t alen = 0;

    if (f == NULL)
        return -1;
    clock_gettime(CLOCK_REALTIME, &rt);
    clock_gettime(CLOCK_MONOTONIC, &mono);
    fputs(wpreamble, f);
    fprintf(f, "env {\n    domain = \"noosa\";\n"
            "    tracer_name = \"noosa\";\n"
            "    tracer_major = 0;\n    tracer_minor = 1;\n"
            "    noosa_version = \"%s\";\n"
            "    noosa_format_major = %d;\n"
            "    noosa_format_median = %d;\n"
            "    noosa_format_minor = %d;\n"
            "    noosa_ring = \"%s\";\n",
            PACKAGE_VERSION, RECFILE_MAJOR, RECFILE_MEDIAN, RECFILE_MINOR,
            w->opts.overwrite ? "overwrite" : "lossless");
    if (gethostname(host, sizeof host) == 0) {
        host[sizeof host - 1] = '\0';
        fputs("    hostname = ", f);
        tsdl_quote(f, host);
        fputs(";\n", f);
    }
    if (w->opts.argv != NULL && w->opts.argv[0] != NULL) {
        FILE *a;

        fputs("    program = ", f);
        tsdl_quote(f, w->opts.argv[0]);
        fputs(";\n", f);
        args = NULL;
        a = open_memstream(&args, &alen);
        for (int i = 1; a != NULL && w->opts.argv[i] != NULL; i++)
            fprintf(a, "%s%s", i > 1 ? " " : "", w->opts.argv[i]);
        if (a != NULL) {
            fclose(a);
            fputs("    args = ", f);
            tsdl_quote(f, args);
            fputs(";\n", f);
            free(args);
        }
    }
    fprintf(f, "};\n\n");
    /* timestamps count from the start of the run, in nanoseconds */
    fprintf(f, "clock {\n    name = noosa_clock;\n"
            "    description = \"nanoseconds since the start of the run\";\n"
            "    freq = 1000000000;\n    precision = 1;\n"
            "    offset_s = %lld;\n    offset = %ld;\n"
            "    absolute = FALSE;\n};\n\n",
            (long long)rt.tv_sec, (long)rt.tv_nsec);
    fputs(wstream_class, f);
    for (size_t i = 0; i < sizeof wnoosa_classes / sizeof wnoosa_classes[0];
         i++)
        fprintf(f, "event {\n    name = \"%s\";\n    id = %u;\n"
                "    stream_id = 0;\n    fields := struct { %s };\n};\n\n",
                wnoosa_classes[i].name, wnoosa_classes[i].id,
                wnoosa_classes[i].fields);
    if (fclose(f) != 0) {
        free(text);
        return -1;
    }
    wmeta(w, text, len);
    return 0;
}

/* The TSDL type of a parameter of kind KIND in a typed class. */
static const char *wtype(unsigned char kind)
{
    switch (kind) {
    case DAPTO_K_INT:
        return "int32_t";
    case DAPTO_K_LONG:
        return "int64_t";
    case DAPTO_K_DOUBLE:
        return "double_t";
    case DAPTO_K_PTR:
        return "xptr_t";
    case DAPTO_K_STR:
        return "string";
    }
    return NULL;
}

static int builtin_named(const struct registry_event *e)
{
    return (e->code == DAPTO_EV_ENTER || e->code == DAPTO_EV_LEAVE) &&
           strcmp(e->aspect->name, "dapto") == 0 && e->nparams == 1 &&
           e->params[0].kind == DAPTO_K_STR;
}

/* The event classes of aspect A, appended to the metadata. */
static void wmeta_aspect(struct recwrite *w, const struct registry_aspect *a)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);

    if (f == NULL)
        return;
    fprintf(f, "/* aspect %s */\n", a->name);
    for (unsigned int i = 0; i < a->nevents; i++) {
        const struct registry_event *e = &a->events[i];
        enum wclass c = WC_TYPED;

        if (e->code > DAPTO_EVENT_CODE_MAX)
            continue;
        if (builtin_named(e))
            c = WC_NAMED;
        for (unsigned int j = 0; j < e->nparams && c == WC_TYPED; j++)
            if (wtype(e->params[j].kind) == NULL)
                c = WC_RAW;
        w->classes[e->code] = (unsigned char)c;
        w->events[e->code] = e;
        if (c == WC_RAW)
            continue; /* its events are noosa_raw */
        fprintf(f, "event {\n    name = ");
        tsdl_quote(f, e->name);
        fprintf(f, ";\n    id = %u;\n    stream_id = 0;\n", e->code);
        if (e->nparams > 0) {
            fprintf(f, "    fields := struct {");
            for (unsigned int j = 0; j < e->nparams; j++)
                fprintf(f, " %s _%s%s;",
                        c == WC_NAMED ? "uint32_t" : wtype(e->params[j].kind),
                        e->params[j].name, c == WC_NAMED ? "_id" : "");
            fprintf(f, " };\n");
        }
        fprintf(f, "};\n\n");
    }
    if (fclose(f) == 0)
        wmeta(w, text, len);
    else
        free(text);
}

/* Streams. */

static struct wstream *wstream_new(struct recwrite *w, pid_t tid)
{
    struct wstream *s = xcalloc(1, sizeof *s);
    char name[64];
    char *path;

    s->tid = tid;
    if (tid == 0)
        snprintf(name, sizeof name, "%s", RECFILE_NOOSA_STREAM);
    else
        snprintf(name, sizeof name, "%s%d", RECFILE_THREAD_PREFIX, (int)tid);
    path = xasprintf("%s/%s", w->dir, name);
    s->fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (s->fd < 0)
        wfail(w, name, errno);
    s->slot = recguard_file(w->guard, name);
    free(path);
    s->cap = w->packet_target + 4096;
    s->buf = xmalloc(s->cap);
    s->len = RECFILE_PACKET_HEADER;
    return s;
}

static void wstream_flush(struct recwrite *w, struct wstream *s);
static size_t wpacket_target(size_t flight);

/* The flight recorder: keep the packet in S's buffer, letting the oldest
 * go while the stream keeps more than its share. */
static void wkeep(struct recwrite *w, struct wstream *s)
{
    struct wkept *k;

    (void)w;
    s->kept = xgrow(s->kept, s->nkept, &s->kept_cap, sizeof *s->kept);
    k = &s->kept[s->nkept++];
    k->buf = xmalloc(s->len);
    memcpy(k->buf, s->buf, s->len);
    k->len = s->len;
    k->nevents = s->nevents;
    s->kept_bytes += s->len;
    while (s->nkept > 1 && s->kept_bytes > w->opts.flight) {
        s->kept_bytes -= s->kept[0].len;
        s->dropped += s->kept[0].nevents;
        free(s->kept[0].buf);
        memmove(s->kept, s->kept + 1, --s->nkept * sizeof *s->kept);
    }
}

/* Write S's kept packets in place of what its file held, each saying how
 * many events went before it (events_discarded). */
static void wdump_stream(struct recwrite *w, struct wstream *s)
{
    if (s->fd < 0)
        return;
    wstream_flush(w, s);
    recguard_commit(w->guard, s->slot, 0);
    s->size = 0;
    if (w->error == NULL && ftruncate(s->fd, 0) != 0)
        wfail(w, "thread stream", errno);
    for (size_t i = 0; i < s->nkept; i++) {
        unsigned char *b = s->kept[i].buf;

        recfile_put64(b + RECFILE_OFF_DISCARDED, s->dropped);
        recfile_put32(b + RECFILE_OFF_CHECK, 0);
        recfile_put32(b + RECFILE_OFF_CHECK, recfile_check(b, s->kept[i].len));
        wpacket(w, s, b, s->kept[i].len);
    }
}

/* Write out packet P of stream S (noosa's stream first). */
static void wstream_flush(struct recwrite *w, struct wstream *s)
{
    unsigned char *b = s->buf;
    uint64_t bits;

    if (s->nevents == 0)
        return;
    if (s != w->noosa && w->noosa->nevents > 0)
        wstream_flush(w, w->noosa);
    bits = (uint64_t)s->len * 8;
    recfile_put32(b + RECFILE_OFF_MAGIC, RECFILE_MAGIC);
    recfile_put32(b + 4, 0);
    recfile_put64(b + RECFILE_OFF_INSTANCE, (uint64_t)s->tid);
    recfile_put64(b + RECFILE_OFF_TS_BEGIN, s->ts_begin);
    recfile_put64(b + RECFILE_OFF_TS_END, s->ts_last);
    recfile_put64(b + RECFILE_OFF_CONTENT, bits);
    recfile_put64(b + RECFILE_OFF_PACKET, bits);
    recfile_put64(b + RECFILE_OFF_SEQ, s->seq);
    recfile_put64(b + RECFILE_OFF_DISCARDED, s == w->noosa ? w->lost : 0);
    recfile_put32(b + RECFILE_OFF_TID, (uint32_t)s->tid);
    recfile_put32(b + RECFILE_OFF_CHECK, 0);
    recfile_put32(b + RECFILE_OFF_CHECK, recfile_check(b, s->len));
    if (w->opts.flight > 0 && s != w->noosa)
        wkeep(w, s);
    else if (s->fd >= 0)
        wpacket(w, s, b, s->len);
    s->seq++;
    s->len = RECFILE_PACKET_HEADER;
    s->nevents = 0;
}

static struct wstream *wstream_of(struct recwrite *w, pid_t tid)
{
    size_t mask, i;

    if (w->last != NULL && w->last->tid == tid)
        return w->last;
    if (tid == 0)
        return w->noosa;
    if (2 * (w->nstreams + 1) > w->streams_cap) {
        size_t cap = w->streams_cap == 0 ? 16 : 2 * w->streams_cap;
        struct wstream **t = xcalloc(cap, sizeof *t);

        for (i = 0; i < w->streams_cap; i++) {
            struct wstream *s = w->streams[i];
            size_t j;

            if (s == NULL)
                continue;
            for (j = (size_t)s->tid & (cap - 1); t[j] != NULL;
                 j = (j + 1) & (cap - 1))
                ;
            t[j] = s;
        }
        free(w->streams);
        w->streams = t;
        w->streams_cap = cap;
    }
    mask = w->streams_cap - 1;
    for (i = (size_t)tid & mask; w->streams[i] != NULL; i = (i + 1) & mask)
        if (w->streams[i]->tid == tid)
            return w->last = w->streams[i];
    w->streams[i] = wstream_new(w, tid);
    w->nstreams++;
    return w->last = w->streams[i];
}

/* Room for an event of SIZE bytes at time NS in S: the place to write
 * its fields (after the header, written here). */
static unsigned char *wevent(struct recwrite *w, struct wstream *s,
                             unsigned int id, int64_t ns, size_t size)
{
    size_t need = RECFILE_EVENT_HEADER + size;
    uint64_t ts = ns < 0 ? 0 : (uint64_t)ns;
    unsigned char *p;

    if (s->len + need > w->packet_target && s->nevents > 0)
        wstream_flush(w, s);
    if (s->len + need > s->cap) {
        s->cap = s->len + need;
        s->buf = xrealloc(s->buf, s->cap);
    }
    /* a stream's times never go back (CTF readers insist) */
    if (s->nevents > 0 || s->seq > 0) {
        if (ts < s->ts_last)
            ts = s->ts_last;
    }
    if (s->nevents == 0)
        s->ts_begin = ts;
    s->ts_last = ts;
    if (ts > w->ts_max)
        w->ts_max = ts;
    p = s->buf + s->len;
    recfile_put16(p, (uint16_t)id);
    recfile_put64(p + 2, ts);
    s->len += need;
    s->nevents++;
    w->nevents++;
    return p + RECFILE_EVENT_HEADER;
}

/* Interned names. */

static uint32_t whash(const char *s, size_t len)
{
    uint32_t h = 2166136261u;

    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

/* The recording's id of the name S (LEN bytes) at time NS; written to
 * stream 0 the first time. */
static uint32_t wname_id(struct recwrite *w, const char *s, size_t len,
                         int64_t ns)
{
    uint32_t h = whash(s, len);
    size_t mask, i;
    unsigned char *p;

    if (2 * (w->nnames + 1) > w->names_cap) {
        size_t cap = w->names_cap == 0 ? 256 : 2 * w->names_cap;
        struct wname *t = xcalloc(cap, sizeof *t);

        for (i = 0; i < w->names_cap; i++) {
            size_t j;

            if (w->names[i].text == NULL)
                continue;
            for (j = w->names[i].hash & (cap - 1); t[j].text != NULL;
                 j = (j + 1) & (cap - 1))
                ;
            t[j] = w->names[i];
        }
        free(w->names);
        w->names = t;
        w->names_cap = cap;
    }
    mask = w->names_cap - 1;
    for (i = h & mask; w->names[i].text != NULL; i = (i + 1) & mask)
        if (w->names[i].hash == h && w->names[i].len == len &&
            memcmp(w->names[i].text, s, len) == 0)
            return w->names[i].id;
    w->names[i].text = xstrndup(s, len);
    w->names[i].len = (uint32_t)len;
    w->names[i].hash = h;
    w->names[i].id = (uint32_t)w->nnames++;
    p = wevent(w, w->noosa, RECFILE_INTERN, ns, 4 + len + 1);
    recfile_put32(p, w->names[i].id);
    memcpy(p + 4, s, len);
    p[4 + len] = '\0';
    return w->names[i].id;
}

/* The same for a name at a stable address (the reader's interned text). */
static inline uint32_t wname_stable(struct recwrite *w, const char *s,
                                    size_t len, int64_t ns)
{
    size_t slot = ((uintptr_t)s >> 3) & (NAME_CACHE - 1);

    if (w->cache[slot].ptr == s)
        return w->cache[slot].id;
    w->cache[slot].ptr = s;
    w->cache[slot].id = wname_id(w, s, len, ns);
    return w->cache[slot].id;
}

static uint32_t wfunc_lookup(struct recwrite *w, uint64_t addr, int64_t ns);

/* The recording's id of the function at ADDR. */
static inline uint32_t wfunc_id(struct recwrite *w, uint64_t addr, int64_t ns)
{
    size_t slot = (addr >> 4) & (NAME_CACHE - 1);

    if (w->fcache[slot].used && w->fcache[slot].addr == addr)
        return w->fcache[slot].id;
    w->fcache[slot].addr = addr;
    w->fcache[slot].used = 1;
    w->fcache[slot].id = wfunc_lookup(w, addr, ns);
    return w->fcache[slot].id;
}

/* wfunc_id() past its cache: the table, or a new id. */
static uint32_t wfunc_lookup(struct recwrite *w, uint64_t addr, int64_t ns)
{
    size_t mask, i;
    const char *name = NULL;
    size_t nlen;
    unsigned char *p;
    char buf[32];

    if (2 * (w->nfuncs + 1) > w->funcs_cap) {
        size_t cap = w->funcs_cap == 0 ? 256 : 2 * w->funcs_cap;
        struct wfunc *t = xcalloc(cap, sizeof *t);

        for (i = 0; i < w->funcs_cap; i++) {
            size_t j;

            if (!w->funcs[i].used)
                continue;
            for (j = (w->funcs[i].addr >> 4) & (cap - 1); t[j].used;
                 j = (j + 1) & (cap - 1))
                ;
            t[j] = w->funcs[i];
        }
        free(w->funcs);
        w->funcs = t;
        w->funcs_cap = cap;
    }
    mask = w->funcs_cap - 1;
    for (i = (addr >> 4) & mask; w->funcs[i].used; i = (i + 1) & mask)
        if (w->funcs[i].addr == addr)
            return w->funcs[i].id;
    w->funcs[i].used = 1;
    w->funcs[i].addr = addr;
    w->funcs[i].id = (uint32_t)w->nfuncs++;
    if (w->opts.function_name != NULL)
        name = w->opts.function_name(w->opts.arg, addr);
    if (name == NULL) {
        snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)addr);
        name = buf;
    }
    nlen = strlen(name);
    p = wevent(w, w->noosa, RECFILE_FUNCTION, ns, 4 + 8 + nlen + 1);
    recfile_put32(p, w->funcs[i].id);
    recfile_put64(p + 4, addr);
    memcpy(p + 12, name, nlen + 1);
    return w->funcs[i].id;
}

/* Events. */

/* Encode the values of IT as the channel does, into w->scratch. */
static size_t wraw_values(struct recwrite *w, const struct reader_item *it)
{
    size_t need = 0, n = 0;

    for (unsigned int i = 0; i < it->nvalues; i++)
        need += 1 + 8 + (it->values[i].kind == DAPTO_K_STR
                             ? 4 + it->values[i].len + 1 : 0);
    if (need > w->scratch_cap) {
        w->scratch_cap = need;
        w->scratch = xrealloc(w->scratch, need);
    }
    for (unsigned int i = 0; i < it->nvalues; i++) {
        const struct decode_value *v = &it->values[i];
        unsigned char *p = w->scratch + n;

        p[0] = (unsigned char)(v->kind | (v->truncated ? DAPTO_K_TRUNC : 0));
        n++;
        switch (v->kind) {
        case DAPTO_K_INT:
            memcpy(p + 1, &v->u.i, 4);
            n += 4;
            break;
        case DAPTO_K_LONG:
        case DAPTO_K_DOUBLE:
        case DAPTO_K_PTR:
            memcpy(p + 1, &v->u, 8);
            n += 8;
            break;
        case DAPTO_K_STR:
            recfile_put32(p + 1, v->len);
            memcpy(p + 5, v->s, v->len);
            p[5 + v->len] = '\0';
            n += 4 + v->len + 1;
            break;
        case DAPTO_K_ISTR:
            memcpy(p + 1, &v->u.id, 4);
            n += 4;
            break;
        default:
            break;
        }
    }
    return n;
}

static void wevent_raw(struct recwrite *w, struct wstream *s,
                       const struct reader_item *it)
{
    size_t n = wraw_values(w, it);
    unsigned char *p = wevent(w, s, RECFILE_RAW, it->ns, 8 + n);
    uint16_t flags = it->truncated ? DAPTO_RECF_TRUNC : 0;

    recfile_put16(p, (uint16_t)it->code);
    recfile_put16(p + 2, flags);
    recfile_put32(p + 4, (uint32_t)n);
    memcpy(p + 8, w->scratch, n);
}

/* Whether the values of IT have exactly the form of its typed class. */
static int wtyped_ok(const struct reader_item *it, enum wclass c)
{
    const struct registry_event *e = it->event;

    if (it->truncated || it->nvalues != e->nparams)
        return 0;
    for (unsigned int i = 0; i < it->nvalues; i++) {
        const struct decode_value *v = &it->values[i];

        if (v->kind != e->params[i].kind || v->truncated)
            return 0;
        if (v->kind == DAPTO_K_STR &&
            (c == WC_NAMED ? 0 : memchr(v->s, '\0', v->len) != NULL))
            return 0;
    }
    return 1;
}

static void wevent_item(struct recwrite *w, const struct reader_item *it)
{
    struct wstream *s = wstream_of(w, it->tid);
    enum wclass c = it->code <= DAPTO_EVENT_CODE_MAX
                        ? (enum wclass)w->classes[it->code] : WC_UNKNOWN;
    size_t size = 0;
    unsigned char *p;

    if (c != WC_UNKNOWN && w->events[it->code] != it->event)
        c = WC_UNKNOWN;
    if (c == WC_UNKNOWN || c == WC_RAW || !wtyped_ok(it, c)) {
        wevent_raw(w, s, it);
        return;
    }
    if (c == WC_NAMED) {
        const struct decode_value *v = &it->values[0];
        uint32_t id = v->interned ? wname_stable(w, v->s, v->len, it->ns)
                                  : wname_id(w, v->s, v->len, it->ns);

        p = wevent(w, s, it->code, it->ns, 4);
        recfile_put32(p, id);
        return;
    }
    for (unsigned int i = 0; i < it->nvalues; i++) {
        const struct decode_value *v = &it->values[i];

        switch (v->kind) {
        case DAPTO_K_INT:
            size += 4;
            break;
        case DAPTO_K_STR:
            size += v->len + 1;
            break;
        default:
            size += 8;
        }
    }
    p = wevent(w, s, it->code, it->ns, size);
    for (unsigned int i = 0; i < it->nvalues; i++) {
        const struct decode_value *v = &it->values[i];

        switch (v->kind) {
        case DAPTO_K_INT:
            memcpy(p, &v->u.i, 4);
            p += 4;
            break;
        case DAPTO_K_STR:
            memcpy(p, v->s, v->len);
            p[v->len] = '\0';
            p += v->len + 1;
            break;
        default:
            memcpy(p, &v->u, 8);
            p += 8;
        }
    }
}

/* The interface of aspect A as text, in the Dapto language's words. */
static char *winterface(const struct registry_aspect *a, size_t *len)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, len);

    if (f == NULL)
        return NULL;
    fprintf(f, "aspect %s; /* %s */\n", a->name, a->file);
    for (unsigned int i = 0; i < a->nevents; i++) {
        const struct registry_event *e = &a->events[i];

        fprintf(f, "event %s%s(", e->name, e->visible ? "*" : "");
        for (unsigned int j = 0; j < e->nparams; j++)
            fprintf(f, "%s%s %s", j > 0 ? ", " : "", e->params[j].type,
                    e->params[j].name);
        if (e->doc[0] != '\0')
            fprintf(f, "); /* %s */\n", e->doc);
        else
            fprintf(f, ");\n");
    }
    for (unsigned int i = 0; i < a->nops; i++) {
        const struct registry_op *o = &a->ops[i];

        fprintf(f, "operation %s(", o->name);
        for (unsigned int j = 0; j < o->nparams; j++)
            fprintf(f, "%s%s %s", j > 0 ? ", " : "", o->params[j].type,
                    o->params[j].name);
        fprintf(f, ")%s%s;\n", o->result_type[0] != '\0' ? ": " : "",
                o->result_type);
    }
    fputs("end;\n", f);
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    /* a string of the trace: no NUL inside */
    for (size_t i = 0; i < *len; i++)
        if (text[i] == '\0')
            text[i] = ' ';
    return text;
}

void recwrite_aspect(struct recwrite *w, const struct registry_aspect *a,
                     int64_t ns)
{
    static const char hex[] = "0123456789abcdef";
    size_t nlen = strlen(a->name), ilen = 0;
    const unsigned char *d = a->desc;
    char *iface;
    unsigned char *p;

    if (d == NULL)
        return;
    wmeta_aspect(w, a);
    iface = winterface(a, &ilen);
    p = wevent(w, w->noosa, RECFILE_ASPECT, ns,
               nlen + 1 + ilen + 1 + 2 * a->desc_len + 1);
    memcpy(p, a->name, nlen + 1);
    p += nlen + 1;
    if (ilen > 0)
        memcpy(p, iface, ilen);
    p[ilen] = '\0';
    p += ilen + 1;
    free(iface);
    for (size_t i = 0; i < a->desc_len; i++) {
        *p++ = (unsigned char)hex[d[i] >> 4];
        *p++ = (unsigned char)hex[d[i] & 15];
    }
    *p = '\0';
    /* the aspect on disk before any event of it */
    wstream_flush(w, w->noosa);
}

void recwrite_item(struct recwrite *w, const struct reader_item *it)
{
    unsigned char *p;

    switch (it->kind) {
    case READER_EVENT:
        wevent_item(w, it);
        break;
    case READER_FUNCTION: {
        struct wstream *s = wstream_of(w, it->tid);
        uint32_t id = wfunc_id(w, it->function, it->ns);

        p = wevent(w, s, it->enter ? RECFILE_FNENTER : RECFILE_FNLEAVE,
                   it->ns, 4);
        recfile_put32(p, id);
        break;
    }
    case READER_HELLO:
        p = wevent(w, w->noosa, RECFILE_HELLO, it->ns, 8);
        recfile_put32(p, (uint32_t)it->pid);
        recfile_put32(p + 4, (uint32_t)it->ring_mode);
        break;
    case READER_ASPECT:
        recwrite_aspect(w, it->aspect, it->ns);
        break;
    case READER_LOST:
        w->lost += it->lost;
        p = wevent(w, w->noosa, RECFILE_LOST, it->ns, 8);
        recfile_put64(p, it->lost);
        break;
    default:
        break;
    }
}

unsigned int recwrite_functions(struct recwrite *w,
                                const struct reader_fn *fns, unsigned int n)
{
    const size_t need = RECFILE_EVENT_HEADER + 4;
    unsigned int i = 0;

    /* A run of one thread's records at a time: its stream is looked up
     * once, and each event goes straight into the packet (what wevent()
     * does, for the one size these events have). */
    while (i < n) {
        pid_t tid = fns[i].tid;
        struct wstream *s = wstream_of(w, tid);

        for (; i < n && fns[i].tid == tid; i++) {
            const struct reader_fn *f = &fns[i];
            uint64_t ts = f->ns < 0 ? 0 : (uint64_t)f->ns;
            unsigned char *p;
            uint32_t id;
            unsigned int code;

            /* (the id first: a new one writes to stream 0, which may
             * write out a packet of its own) */
            if (f->name != NULL) {
                id = wname_stable(w, f->name, f->len, f->ns);
                code = f->enter ? DAPTO_EV_ENTER : DAPTO_EV_LEAVE;
            } else {
                id = wfunc_id(w, f->function, f->ns);
                code = f->enter ? RECFILE_FNENTER : RECFILE_FNLEAVE;
            }
            if (__builtin_expect(s->len + need > w->packet_target ||
                                     s->nevents == 0 ||
                                     s->len + need > s->cap,
                                 0)) {
                p = wevent(w, s, code, f->ns, 4);
                recfile_put32(p, id);
                continue;
            }
            /* a stream's times never go back (as in wevent()) */
            if (ts < s->ts_last)
                ts = s->ts_last;
            s->ts_last = ts;
            if (ts > w->ts_max)
                w->ts_max = ts;
            p = s->buf + s->len;
            recfile_put16(p, (uint16_t)code);
            recfile_put64(p + 2, ts);
            recfile_put32(p + RECFILE_EVENT_HEADER, id);
            s->len += need;
            s->nevents++;
            w->nevents++;
        }
    }
    return n;
}

void recwrite_scalars(struct recwrite *w, const struct reader_scalar *evs,
                      unsigned int n)
{
    struct wstream *s = NULL;
    pid_t tid = 0;

    for (unsigned int i = 0; i < n; i++) {
        const struct reader_scalar *ev = &evs[i];
        const struct registry_event *e = ev->event;
        unsigned int code = e->code;
        const unsigned char *v = ev->values;
        unsigned char *p;
        size_t size = 0;

        if (s == NULL || ev->tid != tid) {
            tid = ev->tid;
            s = wstream_of(w, tid);
        }
        if (code > DAPTO_EVENT_CODE_MAX || w->classes[code] != WC_TYPED ||
            w->events[code] != e) {
            /* as wevent_raw() writes it: the tagged values as they are
             * (no value of a scalar event is cut) */
            p = wevent(w, s, RECFILE_RAW, ev->ns, 8 + (size_t)ev->len);
            recfile_put16(p, (uint16_t)code);
            recfile_put16(p + 2, 0);
            recfile_put32(p + 4, ev->len);
            memcpy(p + 8, v, ev->len);
            continue;
        }
        /* the fields: the values without their tags (the layout is the
         * declaration's, checked against the record's tags when it was
         * read) */
        size = ev->len - e->nparams;
        if (__builtin_expect(s->len + RECFILE_EVENT_HEADER + size > w->packet_target ||
                                 s->nevents == 0 ||
                                 s->len + RECFILE_EVENT_HEADER + size > s->cap,
                             0)) {
            p = wevent(w, s, code, ev->ns, size);
        } else {
            /* what wevent() does, for a packet that has room */
            uint64_t ts = ev->ns < 0 ? 0 : (uint64_t)ev->ns;

            if (ts < s->ts_last)
                ts = s->ts_last;
            s->ts_last = ts;
            if (ts > w->ts_max)
                w->ts_max = ts;
            p = s->buf + s->len;
            recfile_put16(p, (uint16_t)code);
            recfile_put64(p + 2, ts);
            p += RECFILE_EVENT_HEADER;
            s->len += RECFILE_EVENT_HEADER + size;
            s->nevents++;
            w->nevents++;
        }
        for (unsigned int j = 0; j < e->nparams; j++) {
            /* (copies of a constant size: no call to memcpy) */
            if (e->params[j].kind == DAPTO_K_INT) {
                memcpy(p, v + 1, 4);
                p += 4;
                v += 5;
            } else {
                memcpy(p, v + 1, 8);
                p += 8;
                v += 9;
            }
        }
    }
}

void recwrite_end(struct recwrite *w, int status, int signo)
{
    unsigned char *p = wevent(w, w->noosa, RECFILE_END, (int64_t)w->ts_max, 8);

    recfile_put32(p, (uint32_t)status);
    recfile_put32(p + 4, (uint32_t)signo);
}

static size_t wpacket_target(size_t flight)
{
    if (flight == 0)
        return RECFILE_PACKET_TARGET;
    return flight / 4 < 1024 ? 1024
           : flight / 4 > RECFILE_PACKET_TARGET ? RECFILE_PACKET_TARGET
                                                : flight / 4;
}

void recwrite_set_flight(struct recwrite *w, size_t flight)
{
    w->opts.flight = flight;
    w->packet_target = wpacket_target(flight);
}

int recwrite_dump(struct recwrite *w, char **cause)
{
    if (w->opts.flight == 0)
        return recwrite_flush(w, cause);
    wstream_flush(w, w->noosa);
    for (size_t i = 0; i < w->streams_cap; i++)
        if (w->streams[i] != NULL)
            wdump_stream(w, w->streams[i]);
    if (w->error != NULL) {
        xcause(cause, "%s", w->error);
        return -1;
    }
    return 0;
}

int recwrite_flush(struct recwrite *w, char **cause)
{
    wstream_flush(w, w->noosa);
    for (size_t i = 0; i < w->streams_cap; i++)
        if (w->streams[i] != NULL)
            wstream_flush(w, w->streams[i]);
    if (w->error != NULL) {
        xcause(cause, "%s", w->error);
        return -1;
    }
    return 0;
}

uint64_t recwrite_events(const struct recwrite *w)
{
    return w->nevents;
}

uint64_t recwrite_bytes(const struct recwrite *w)
{
    return w->bytes;
}

static void wstream_free(struct wstream *s)
{
    if (s == NULL)
        return;
    if (s->fd >= 0)
        close(s->fd);
    for (size_t i = 0; i < s->nkept; i++)
        free(s->kept[i].buf);
    free(s->kept);
    free(s->buf);
    free(s);
}

int recwrite_close(struct recwrite *w, char **cause)
{
    int rc = w->opts.flight > 0 ? recwrite_dump(w, cause)
                                : recwrite_flush(w, cause);

    /* (a write that failed half-way leaves nothing of its packet) */
    recguard_stop(w->guard);
    w->guard = NULL;

    for (size_t i = 0; i < w->streams_cap; i++)
        wstream_free(w->streams[i]);
    free(w->streams);
    wstream_free(w->noosa);
    for (size_t i = 0; i < w->names_cap; i++)
        free(w->names[i].text);
    free(w->names);
    free(w->funcs);
    free(w->classes);
    free(w->events);
    free(w->scratch);
    if (w->meta_fd >= 0)
        close(w->meta_fd);
    free(w->error);
    free(w->dir);
    free(w);
    return rc;
}

int recwrite_open(struct recwrite **out, const char *dir,
                  const struct recwrite_opts *opts, char **cause)
{
    struct recwrite *w;
    struct recguard *guard;
    char *path;
    int fd, slot;

    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        xcause(cause, "%s: %s", dir, strerror(errno));
        return -1;
    }
    /* files a CTF reader takes whatever kills noosa, from the first:
     * the metadata is guarded before it exists (a killed noosa leaves no
     * empty one); without the guard (it could not start) the recording
     * goes on as it would */
    if (recguard_start(&guard, dir, NULL) != 0)
        guard = NULL;
    slot = recguard_file(guard, RECFILE_METADATA);
    path = xasprintf("%s/%s", dir, RECFILE_METADATA);
    fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
        xcause(cause, "%s: %s", errno == EEXIST ? dir : path,
               errno == EEXIST ? "holds a recording already"
                               : strerror(errno));
        free(path);
        /* (not ours: left as it is) */
        recguard_forget(guard, slot);
        recguard_stop(guard);
        return -1;
    }
    free(path);
    w = xcalloc(1, sizeof *w);
    w->dir = xstrdup(dir);
    w->meta_fd = fd;
    w->guard = guard;
    w->meta_slot = slot;
    w->opts = *opts;
    /* the flight recorder keeps a few packets a thread at least */
    w->packet_target = wpacket_target(opts->flight);
    w->classes = xcalloc(DAPTO_EVENT_CODE_MAX + 1, 1);
    w->events = xcalloc(DAPTO_EVENT_CODE_MAX + 1, sizeof *w->events);
    if (wmeta_start(w) != 0 && w->error == NULL)
        w->error = xasprintf("%s: cannot make the metadata", dir);
    w->noosa = wstream_new(w, 0);
    if (w->error != NULL) {
        xcause(cause, "%s", w->error);
        recwrite_close(w, NULL);
        return -1;
    }
    *out = w;
    return 0;
}
