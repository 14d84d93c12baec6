/* SPDX-License-Identifier: MIT */
/*
 * export.c - exports of events for other tools (export.h): Chrome's trace
 * JSON written as the events come, and Perfetto's protobuf trace through
 * a small encoder of our own (varints and length-delimited fields are all
 * it takes).  The Perfetto trace is one packet sequence: the first packet
 * clears the incremental state, names are interned on it (an EventName
 * the first time a name is used), and each thread has a track, described
 * before its first event.  Field numbers: doc/design.md#recordings.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dapto.h"
#include "export.h"
#include "recread.h"
#include "registry.h"
#include "xmalloc.h"

/* Perfetto's field numbers (protos/perfetto/trace/...). */
enum {
    PF_TRACE_PACKET = 1,          /* Trace.packet */
    PF_TIMESTAMP = 8,             /* TracePacket */
    PF_SEQUENCE_ID = 10,
    PF_TRACK_EVENT = 11,
    PF_INTERNED_DATA = 12,
    PF_SEQUENCE_FLAGS = 13,
    PF_TRACK_DESCRIPTOR = 60,
    PF_TE_TYPE = 9,               /* TrackEvent */
    PF_TE_NAME_IID = 10,
    PF_TE_TRACK_UUID = 11,
    PF_ID_EVENT_NAMES = 2,        /* InternedData */
    PF_EN_IID = 1,                /* EventName */
    PF_EN_NAME = 2,
    PF_TD_UUID = 1,               /* TrackDescriptor */
    PF_TD_NAME = 2,
    PF_TD_PROCESS = 3,
    PF_TD_THREAD = 4,
    PF_PD_PID = 1,                /* ProcessDescriptor */
    PF_PD_NAME = 6,
    PF_THD_PID = 1,               /* ThreadDescriptor */
    PF_THD_TID = 2,
    PF_THD_NAME = 5
};
#define PF_SLICE_BEGIN 1
#define PF_SLICE_END 2
#define PF_INSTANT 3
#define PF_SEQ_CLEARED 1
#define PF_SEQ_NEEDS 2
#define PF_SEQUENCE 1           /* our one sequence */
#define PF_PROCESS_UUID(pid) ((uint64_t)(pid) | (1ull << 40))

/* A buffer the encoder writes into. */
struct pbuf {
    unsigned char *b;
    size_t len, cap;
};

static void pb_reserve(struct pbuf *p, size_t n)
{
    if (p->len + n > p->cap) {
        p->cap = 2 * (p->len + n);
        p->b = xrealloc(p->b, p->cap);
    }
}

static void pb_varint(struct pbuf *p, uint64_t v)
{
    pb_reserve(p, 10);
    do {
        unsigned char c = v & 0x7f;

        v >>= 7;
        p->b[p->len++] = (unsigned char)(c | (v != 0 ? 0x80 : 0));
    } while (v != 0);
}

static void pb_key(struct pbuf *p, unsigned int field, unsigned int wire)
{
    pb_varint(p, ((uint64_t)field << 3) | wire);
}

static void pb_uint(struct pbuf *p, unsigned int field, uint64_t v)
{
    pb_key(p, field, 0);
    pb_varint(p, v);
}

static void pb_bytes(struct pbuf *p, unsigned int field, const void *s,
                     size_t len)
{
    pb_key(p, field, 2);
    pb_varint(p, len);
    pb_reserve(p, len);
    memcpy(p->b + p->len, s, len);
    p->len += len;
}

/* A nested message: written into its own buffer, then here. */
static void pb_message(struct pbuf *p, unsigned int field,
                       const struct pbuf *m)
{
    pb_bytes(p, field, m->b, m->len);
}

struct ename {
    char *text;
    uint64_t iid;
};

struct export {
    enum export_kind kind;
    FILE *f;
    char *path;
    pid_t pid;
    const char *(*fname)(void *arg, uint64_t addr);
    void *arg;
    uint64_t count;
    int first;          /* no event written yet */

    /* Perfetto */
    struct pbuf pkt, msg, sub, sub2;
    struct ename *names; /* open addressing by hash of the text */
    size_t nnames, names_cap;
    pid_t *tracks;       /* threads described */
    size_t ntracks, tracks_cap;
    pid_t *procs;        /* processes described */
    size_t nprocs, procs_cap;
};

static uint64_t ehash(const char *s)
{
    uint64_t h = 1469598103934665603u;

    for (; *s != '\0'; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return h;
}

/* The iid of NAME; *fresh when it is new (to be interned). */
static uint64_t ename_iid(struct export *e, const char *name, int *fresh)
{
    size_t mask, i;

    if (2 * (e->nnames + 1) > e->names_cap) {
        size_t cap = e->names_cap == 0 ? 64 : 2 * e->names_cap;
        struct ename *t = xcalloc(cap, sizeof *t);

        for (i = 0; i < e->names_cap; i++) {
            size_t j;

            if (e->names[i].text == NULL)
                continue;
            for (j = ehash(e->names[i].text) & (cap - 1); t[j].text != NULL;
                 j = (j + 1) & (cap - 1))
                ;
            t[j] = e->names[i];
        }
        free(e->names);
        e->names = t;
        e->names_cap = cap;
    }
    mask = e->names_cap - 1;
    for (i = ehash(name) & mask; e->names[i].text != NULL; i = (i + 1) & mask)
        if (strcmp(e->names[i].text, name) == 0) {
            *fresh = 0;
            return e->names[i].iid;
        }
    e->names[i].text = xstrdup(name);
    e->names[i].iid = ++e->nnames;
    *fresh = 1;
    return e->names[i].iid;
}

/* Write e->pkt as one TracePacket of the Trace. */
static void pf_packet(struct export *e)
{
    struct pbuf head = {0};

    pb_key(&head, PF_TRACE_PACKET, 2);
    pb_varint(&head, e->pkt.len);
    fwrite(head.b, 1, head.len, e->f);
    fwrite(e->pkt.b, 1, e->pkt.len, e->f);
    free(head.b);
    e->pkt.len = 0;
}

static void pf_track(struct export *e, pid_t tid)
{
    char name[48];

    size_t i;

    for (i = 0; i < e->ntracks; i++)
        if (e->tracks[i] == tid)
            return;
    for (i = 0; i < e->nprocs && e->procs[i] != e->pid; i++)
        ;
    if (i == e->nprocs) {
        /* the track of the thread's process, first (one a process) */
        e->procs = xgrow(e->procs, e->nprocs, &e->procs_cap,
                         sizeof *e->procs);
        e->procs[e->nprocs++] = e->pid;
        snprintf(name, sizeof name, "process %d", (int)e->pid);
        e->msg.len = e->sub.len = 0;
        pb_uint(&e->sub, PF_PD_PID, (uint64_t)e->pid);
        pb_bytes(&e->sub, PF_PD_NAME, name, strlen(name));
        pb_uint(&e->msg, PF_TD_UUID, PF_PROCESS_UUID(e->pid));
        pb_message(&e->msg, PF_TD_PROCESS, &e->sub);
        pb_message(&e->pkt, PF_TRACK_DESCRIPTOR, &e->msg);
        pf_packet(e);
    }
    e->tracks = xgrow(e->tracks, e->ntracks, &e->tracks_cap,
                      sizeof *e->tracks);
    e->tracks[e->ntracks++] = tid;
    e->msg.len = e->sub.len = 0;
    pb_uint(&e->sub, PF_THD_PID, (uint64_t)e->pid);
    pb_uint(&e->sub, PF_THD_TID, (uint64_t)tid);
    snprintf(name, sizeof name, "thread %d", (int)tid);
    pb_bytes(&e->sub, PF_THD_NAME, name, strlen(name));
    pb_uint(&e->msg, PF_TD_UUID, (uint64_t)tid);
    pb_message(&e->msg, PF_TD_THREAD, &e->sub);
    pb_message(&e->pkt, PF_TRACK_DESCRIPTOR, &e->msg);
    pf_packet(e);
}

static void pf_event(struct export *e, const struct reader_item *it,
                     const char *name, int type)
{
    uint64_t iid = 0;
    int fresh = 0;

    pf_track(e, it->tid);
    if (type != PF_SLICE_END)
        iid = ename_iid(e, name, &fresh);
    pb_uint(&e->pkt, PF_TIMESTAMP, it->ns < 0 ? 0 : (uint64_t)it->ns);
    pb_uint(&e->pkt, PF_SEQUENCE_ID, PF_SEQUENCE);
    if (fresh) {
        e->msg.len = e->sub.len = 0;
        pb_uint(&e->sub, PF_EN_IID, iid);
        pb_bytes(&e->sub, PF_EN_NAME, name, strlen(name));
        pb_message(&e->msg, PF_ID_EVENT_NAMES, &e->sub);
        pb_message(&e->pkt, PF_INTERNED_DATA, &e->msg);
    }
    pb_uint(&e->pkt, PF_SEQUENCE_FLAGS,
            e->first ? PF_SEQ_CLEARED : PF_SEQ_NEEDS);
    e->first = 0;
    e->msg.len = 0;
    pb_uint(&e->msg, PF_TE_TYPE, (uint64_t)type);
    if (type != PF_SLICE_END)
        pb_uint(&e->msg, PF_TE_NAME_IID, iid);
    pb_uint(&e->msg, PF_TE_TRACK_UUID, (uint64_t)it->tid);
    pb_message(&e->pkt, PF_TRACK_EVENT, &e->msg);
    pf_packet(e);
}

/* Chrome JSON. */

static void js_string(FILE *f, const char *s, size_t len)
{
    fputc('"', f);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];

        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20 || c >= 0x7f)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static void js_value(FILE *f, const struct decode_value *v)
{
    switch (v->kind) {
    case DAPTO_K_INT:
        fprintf(f, "%d", (int)v->u.i);
        break;
    case DAPTO_K_LONG:
        fprintf(f, "%lld", (long long)v->u.l);
        break;
    case DAPTO_K_DOUBLE:
        if (isfinite(v->u.d))
            fprintf(f, "%.17g", v->u.d);
        else
            fprintf(f, "\"%g\"", v->u.d);
        break;
    case DAPTO_K_PTR:
        fprintf(f, "\"0x%llx\"", (unsigned long long)v->u.p);
        break;
    case DAPTO_K_STR:
        js_string(f, v->s, v->len);
        break;
    default:
        fputs("null", f);
    }
}

static void js_event(struct export *e, const struct reader_item *it,
                     const char *name, const char *ph)
{
    FILE *f = e->f;

    fprintf(f, "%s{\"name\":", e->first ? "\n" : ",\n");
    e->first = 0;
    js_string(f, name, strlen(name));
    fprintf(f, ",\"ph\":\"%s\",\"ts\":%lld.%03lld,\"pid\":%d,\"tid\":%d", ph,
            (long long)(it->ns / 1000), (long long)(it->ns % 1000),
            (int)e->pid, (int)it->tid);
    if (ph[0] == 'i') {
        const struct registry_event *ev = it->event;

        fputs(",\"s\":\"t\",\"args\":{", f);
        for (unsigned int i = 0; i < it->nvalues && i < ev->nparams; i++) {
            fprintf(f, "%s", i > 0 ? "," : "");
            js_string(f, ev->params[i].name, strlen(ev->params[i].name));
            fputc(':', f);
            js_value(f, &it->values[i]);
        }
        fputc('}', f);
    }
    fputc('}', f);
}

/* Common. */

static int builtin_named(const struct registry_event *ev)
{
    return (ev->code == DAPTO_EV_ENTER || ev->code == DAPTO_EV_LEAVE) &&
           strcmp(ev->aspect->name, "dapto") == 0 && ev->nparams >= 1;
}

void export_item(struct export *e, const struct reader_item *it)
{
    const char *name;
    char buf[40];
    int begin;

    if (it->kind == READER_FUNCTION) {
        name = e->fname != NULL ? e->fname(e->arg, it->function) : NULL;
        if (name == NULL) {
            snprintf(buf, sizeof buf, "0x%llx",
                     (unsigned long long)it->function);
            name = buf;
        }
        begin = it->enter;
    } else if (it->kind == READER_EVENT) {
        if (builtin_named(it->event) && it->nvalues >= 1 &&
            it->values[0].kind == DAPTO_K_STR) {
            name = it->values[0].s;
            begin = it->event->code == DAPTO_EV_ENTER;
        } else {
            name = it->event->name;
            begin = -1;
        }
    } else {
        return;
    }
    e->count++;
    if (e->kind == EXPORT_CHROME)
        js_event(e, it, name, begin < 0 ? "i" : begin ? "B" : "E");
    else
        pf_event(e, it, name,
                 begin < 0 ? PF_INSTANT
                           : begin ? PF_SLICE_BEGIN : PF_SLICE_END);
}

int export_open(struct export **out, enum export_kind kind, const char *path,
                pid_t pid,
                const char *(*fname)(void *arg, uint64_t addr), void *arg,
                char **cause)
{
    struct export *e;
    FILE *f = fopen(path, kind == EXPORT_CHROME ? "w" : "wb");

    if (f == NULL) {
        xcause(cause, "%s: %s", path, strerror(errno));
        return -1;
    }
    e = xcalloc(1, sizeof *e);
    e->kind = kind;
    e->f = f;
    e->path = xstrdup(path);
    e->pid = pid;
    e->fname = fname;
    e->arg = arg;
    e->first = 1;
    if (kind == EXPORT_CHROME)
        fputs("{\"traceEvents\":[", f);
    *out = e;
    return 0;
}

void export_set_pid(struct export *e, pid_t pid)
{
    e->pid = pid;
}

uint64_t export_count(const struct export *e)
{
    return e->count;
}

int export_close(struct export *e, char **cause)
{
    int rc = 0;

    if (e->kind == EXPORT_CHROME)
        fputs("\n],\"displayTimeUnit\":\"ns\"}\n", e->f);
    if (ferror(e->f) | (fclose(e->f) != 0)) {
        xcause(cause, "%s: cannot write: %s", e->path, strerror(errno));
        rc = -1;
    }
    for (size_t i = 0; i < e->names_cap; i++)
        free(e->names[i].text);
    free(e->names);
    free(e->tracks);
    free(e->procs);
    free(e->pkt.b);
    free(e->msg.b);
    free(e->sub.b);
    free(e->sub2.b);
    free(e->path);
    free(e);
    return rc;
}

static const char *export_fname(void *arg, uint64_t addr)
{
    return recread_function(arg, addr);
}

int export_recording(struct recread *r, enum export_kind kind,
                     const char *path, uint64_t *count, char **cause)
{
    struct export *e;
    struct reader_item it;

    if (export_open(&e, kind, path, recread_pid(r), export_fname, r,
                    cause) != 0)
        return -1;
    recread_rewind(r);
    while (recread_next(r, &it, NULL))
        export_item(e, &it);
    if (count != NULL)
        *count = export_count(e);
    return export_close(e, cause);
}
