/* SPDX-License-Identifier: MIT */
/*
 * tmon.c - the test monitor (see tmon.h): region, program start, records,
 * descriptions, states, stops.  Used by the end-to-end tests and the
 * benchmarks of the runtime; noosa's own reader lives in src/.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "dapto.h"
#include "mailbox.h"
#include "tmon.h"

static void fail(struct tmon *tm, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(tm->err, sizeof tm->err, fmt, ap);
    va_end(ap);
}

static uint64_t now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

int tmon_create(struct tmon *tm, const struct region_geom *g)
{
    struct region_geom geom;
    const char *cause = "";

    memset(tm, 0, sizeof *tm);
    tm->out_fd = -1;
    if (g == NULL)
        region_geom_default(&geom);
    else
        geom = *g;
    if (region_create(&tm->reg, &geom, &cause) != 0) {
        fail(tm, "region_create: %s: %s", cause, strerror(errno));
        return -1;
    }
    ring_init(&tm->ring, &tm->reg);
    trail_init(&tm->trail, &tm->reg);
    tbuf_area_init(&tm->tb, &tm->reg);
    if (tm->tb.count > TMON_TBUFS) {
        fail(tm, "more than %d thread buffers", TMON_TBUFS);
        region_close(&tm->reg);
        return -1;
    }
    for (uint32_t i = 0; i < tm->tb.count; i++)
        tbuf_cons_init(&tm->tb, i, &tm->tbc[i]);
    return 0;
}

int tmon_spawn(struct tmon *tm, char *const argv[], const char *env_channel)
{
    char env[64], fds[32];
    char *args[16];
    int pfd[2], i;

    region_env(&tm->reg, env, sizeof env);
    snprintf(fds, sizeof fds, "%d:%d", tm->reg.memfd, tm->reg.eventfd);
    for (i = 0; i < 15 && argv[i] != NULL; i++)
        args[i] = strcmp(argv[i], "@FDS@") == 0 ? fds : argv[i];
    args[i] = NULL;
    if (pipe(pfd) != 0) {
        fail(tm, "pipe: %s", strerror(errno));
        return -1;
    }
    fflush(NULL);
    tm->pid = fork();
    if (tm->pid < 0) {
        fail(tm, "fork: %s", strerror(errno));
        return -1;
    }
    if (tm->pid == 0) {
        dup2(pfd[1], 1);
        dup2(pfd[1], 2);
        close(pfd[0]);
        close(pfd[1]);
        region_inherit(&tm->reg);
        if (env_channel == NULL)
            putenv(env);
        else if (env_channel[0] == '\0')
            unsetenv(DAPTO_CHANNEL_ENV);
        else
            setenv(DAPTO_CHANNEL_ENV, env_channel, 1);
        execv(args[0], args);
        fprintf(stderr, "exec %s: %s\n", args[0], strerror(errno));
        _exit(127);
    }
    close(pfd[1]);
    tm->out_fd = pfd[0];
    fcntl(tm->out_fd, F_SETFL, O_NONBLOCK);
    return 0;
}

int tmon_start(struct tmon *tm, const struct region_geom *g, char *const argv[],
               const char *env_channel)
{
    if (tmon_create(tm, g) != 0)
        return -1;
    return tmon_spawn(tm, argv, env_channel);
}

/* Keep the program's output flowing: read what it wrote so far. */
static char outbuf[1 << 16];
static size_t outlen;

static void drain_output(struct tmon *tm)
{
    ssize_t n;

    if (tm->out_fd < 0)
        return;
    while (outlen < sizeof outbuf - 1 &&
           (n = read(tm->out_fd, outbuf + outlen, sizeof outbuf - 1 - outlen)) > 0)
        outlen += (size_t)n;
}

int tmon_values(struct tmon *tm, const unsigned char *rec, size_t n,
                struct tval *v, int max)
{
    struct dapto_record h;
    const unsigned char *p, *end;
    int count = 0;
    uint32_t len;
    int32_t i32;
    int64_t i64;

    if (n < DAPTO_RECORD_HEADER) {
        fail(tm, "record of %zu bytes", n);
        return -1;
    }
    memcpy(&h, rec, sizeof h);
    if ((size_t)h.len > n - DAPTO_RECORD_HEADER) {
        fail(tm, "record len %u beyond its %zu bytes", h.len, n);
        return -1;
    }
    p = rec + DAPTO_RECORD_HEADER;
    end = p + h.len;
    while (p < end) {
        struct tval x;

        if (count == max) {
            fail(tm, "more than %d values", max);
            return -1;
        }
        memset(&x, 0, sizeof x);
        x.kind = *p & ~DAPTO_K_TRUNC;
        x.trunc = (*p & DAPTO_K_TRUNC) != 0;
        p++;
        switch (x.kind) {
        case DAPTO_K_INT:
        case DAPTO_K_ISTR:
            if (end - p < 4)
                goto short_value;
            memcpy(&i32, p, 4);
            x.i = i32;
            p += 4;
            break;
        case DAPTO_K_LONG:
            if (end - p < 8)
                goto short_value;
            memcpy(&i64, p, 8);
            x.i = i64;
            p += 8;
            break;
        case DAPTO_K_DOUBLE:
            if (end - p < 8)
                goto short_value;
            memcpy(&x.d, p, 8);
            p += 8;
            break;
        case DAPTO_K_PTR:
            if (end - p < 8)
                goto short_value;
            memcpy(&x.p, p, 8);
            p += 8;
            break;
        case DAPTO_K_UNKNOWN:
            break;
        case DAPTO_K_STR:
            if (end - p < 4)
                goto short_value;
            memcpy(&len, p, 4);
            p += 4;
            if ((size_t)(end - p) < (size_t)len + 1 || p[len] != '\0') {
                fail(tm, "value %d: malformed string", count);
                return -1;
            }
            x.s = (const char *)p;
            x.slen = len;
            p += len + 1;
            break;
        default:
            fail(tm, "value %d: bad tag %u", count, x.kind);
            return -1;
        }
        v[count++] = x;
    }
    return count;

short_value:
    fail(tm, "value %d: cut short", count);
    return -1;
}

/* Copy string value V into DST (SIZE bytes). */
static void copy_str(char *dst, size_t size, const struct tval *v)
{
    size_t n = v->slen < size - 1 ? v->slen : size - 1;

    memcpy(dst, v->s, n);
    dst[n] = '\0';
}

/* Values of a description, consumed in order. */
struct cursor {
    struct tval v[4096];
    int n, i;
};

static const struct tval *next_val(struct cursor *c, unsigned char kind)
{
    if (c->i >= c->n || c->v[c->i].kind != kind)
        return NULL;
    return &c->v[c->i++];
}

static int decode_aspect(struct tmon *tm, const unsigned char *d, uint32_t len,
                         struct tm_aspect *a)
{
    static struct cursor c;
    unsigned char *rec;
    const struct tval *x;
    struct dapto_record h;
    unsigned int e, k, np;

    /* Wrap the description as a record to reuse the decoder. */
    rec = calloc(1, DAPTO_RECORD_HEADER + len);
    memset(&h, 0, sizeof h);
    h.len = len;
    memcpy(rec, &h, sizeof h);
    memcpy(rec + DAPTO_RECORD_HEADER, d, len);
    c.n = tmon_values(tm, rec, DAPTO_RECORD_HEADER + len, c.v, 4096);
    c.i = 0;
    if (c.n < 0)
        goto bad;
    memset(a, 0, sizeof *a);
#define TAKE(kind)                                                          \
    do {                                                                    \
        if ((x = next_val(&c, (kind))) == NULL)                             \
            goto bad;                                                       \
    } while (0)
    TAKE(DAPTO_K_STR);
    copy_str(a->name, sizeof a->name, x);
    TAKE(DAPTO_K_STR);
    copy_str(a->file, sizeof a->file, x);
    TAKE(DAPTO_K_INT);
    a->abi = (int)x->i;
    TAKE(DAPTO_K_INT);
    a->event_base = (unsigned int)x->i;
    TAKE(DAPTO_K_INT);
    a->nevents = (unsigned int)x->i;
    TAKE(DAPTO_K_INT);
    a->op_base = (unsigned int)x->i;
    TAKE(DAPTO_K_INT);
    a->nops = (unsigned int)x->i;
    if (a->nevents > TMON_MAX_EVENTS || a->nops > TMON_MAX_OPS)
        goto bad;
    for (e = 0; e < a->nevents; e++) {
        struct tm_event *ev = &a->ev[e];

        TAKE(DAPTO_K_STR);
        copy_str(ev->name, sizeof ev->name, x);
        TAKE(DAPTO_K_STR); /* doc */
        TAKE(DAPTO_K_INT);
        ev->visible = (int)x->i;
        TAKE(DAPTO_K_PTR);
        ev->state = x->p;
        TAKE(DAPTO_K_INT);
        np = (unsigned int)x->i;
        if (np > TMON_MAX_PARAMS)
            goto bad;
        ev->nparams = (int)np;
        for (k = 0; k < np; k++) {
            TAKE(DAPTO_K_STR);
            copy_str(ev->pnames[k], sizeof ev->pnames[k], x);
            TAKE(DAPTO_K_STR); /* type */
            TAKE(DAPTO_K_INT);
            ev->kinds[k] = (unsigned char)x->i;
            TAKE(DAPTO_K_STR); /* doc */
        }
    }
    for (e = 0; e < a->nops; e++) {
        struct tm_op *op = &a->op[e];

        TAKE(DAPTO_K_STR);
        copy_str(op->name, sizeof op->name, x);
        TAKE(DAPTO_K_STR); /* doc */
        TAKE(DAPTO_K_STR);
        copy_str(op->result, sizeof op->result, x);
        TAKE(DAPTO_K_INT);
        op->result_kind = (int)x->i;
        TAKE(DAPTO_K_INT);
        np = (unsigned int)x->i;
        op->nparams = (int)np;
        for (k = 0; k < np; k++) {
            TAKE(DAPTO_K_STR);
            TAKE(DAPTO_K_STR);
            TAKE(DAPTO_K_INT);
            TAKE(DAPTO_K_STR);
        }
    }
#undef TAKE
    if (c.i != c.n)
        goto bad;
    free(rec);
    return 0;

bad:
    free(rec);
    fail(tm, "malformed description at value %d", c.i);
    return -1;
}

static int poke(struct tmon *tm, uint64_t addr, unsigned char st)
{
    struct iovec l = {&st, 1}, r = {(void *)(uintptr_t)addr, 1};

    if (addr == 0 || process_vm_writev(tm->pid, &l, 1, &r, 1, 0) != 1) {
        fail(tm, "process_vm_writev at %#llx: %s", (unsigned long long)addr,
             strerror(errno));
        return -1;
    }
    return 0;
}

static struct tm_event *event_of(struct tmon *tm, int code)
{
    int k;

    for (k = 0; k < tm->naspects; k++) {
        struct tm_aspect *a = &tm->asp[k];

        if (code >= (int)a->event_base && code < (int)(a->event_base + a->nevents))
            return &a->ev[code - (int)a->event_base];
    }
    return NULL;
}

int tmon_set_state(struct tmon *tm, int code, unsigned char st)
{
    struct tm_event *ev = event_of(tm, code);

    if (ev == NULL) {
        fail(tm, "no event %d", code);
        return -1;
    }
    return poke(tm, ev->state, st);
}

int tmon_get_state(struct tmon *tm, int code)
{
    struct tm_event *ev = event_of(tm, code);
    unsigned char st;
    struct iovec l = {&st, 1}, r;

    if (ev == NULL)
        return -1;
    r.iov_base = (void *)(uintptr_t)ev->state;
    r.iov_len = 1;
    if (process_vm_readv(tm->pid, &l, 1, &r, 1, 0) != 1)
        return -1;
    return st;
}

static int on_aspect(struct tmon *tm, const unsigned char *buf, long n)
{
    struct tval v[4];
    const unsigned char *d;
    struct tm_aspect *a;
    unsigned int e;

    if (tmon_values(tm, buf, (size_t)n, v, 4) != 2 || v[0].kind != DAPTO_K_INT ||
        v[1].kind != DAPTO_K_INT) {
        fail(tm, "malformed ASPECT record");
        return -1;
    }
    d = region_iface(&tm->reg, (uint32_t)v[0].i, (uint32_t)v[1].i);
    if (d == NULL || tm->naspects == TMON_MAX_ASPECTS) {
        fail(tm, "ASPECT record names bytes outside the interface area");
        return -1;
    }
    a = &tm->asp[tm->naspects];
    if (decode_aspect(tm, d, (uint32_t)v[1].i, a) != 0)
        return -1;
    tm->naspects++;
    for (e = 0; e < a->nevents; e++) {
        unsigned char st = tm->policy != NULL
                               ? tm->policy(tm->ctx, a->name, a->ev[e].name)
                               : tm->default_state;

        if (st != 0 && poke(tm, a->ev[e].state, st) != 0)
            return -1;
    }
    region_ack(&tm->reg, (uint32_t)tm->naspects);
    return 0;
}

static int on_intern(struct tmon *tm, const unsigned char *buf, long n)
{
    struct tval v[4];

    if (tmon_values(tm, buf, (size_t)n, v, 4) != 2 || v[0].kind != DAPTO_K_INT ||
        v[1].kind != DAPTO_K_STR || v[0].i < 1 || v[0].i >= TMON_INTERN) {
        fail(tm, "malformed INTERN record");
        return -1;
    }
    if (tm->intern[v[0].i] != NULL) {
        fail(tm, "intern id %lld defined twice", (long long)v[0].i);
        return -1;
    }
    tm->intern[v[0].i] = strdup(v[1].s);
    return 0;
}

/* The next record of a thread buffer into BUF: its size, 0 when they
 * have none, -1 when one is corrupt. */
static long tbuf_next(struct tmon *tm, unsigned char *buf)
{
    /* (from the buffer last read: a thread writing flat out is taken in
     * a run, not after a look at every other buffer) */
    for (uint32_t j = 0; j < tm->tb.count; j++) {
        uint32_t k = (tm->tb_last + j) % tm->tb.count;
        struct tbuf_cons *c = &tm->tbc[k];
        const unsigned char *rec = NULL;
        const char *why;
        uint32_t size;

        for (;;) {
            if (c->ctail >= c->head &&
                (why = tbuf_look(&tm->tb, k, c)) != NULL)
                break;
            rec = tbuf_peek(&tm->tb, k, c, c->ctail, &size, &why);
            if (rec == NULL && why == NULL && size != 0) {
                tbuf_skip(&tm->tb, k, c, size);
                continue;
            }
            break;
        }
        if (why != NULL) {
            fail(tm, "thread buffer %u: %s", (unsigned)k, why);
            return -1;
        }
        if (rec == NULL) {
            tbuf_release(&tm->tb, k, c);
            continue;
        }
        memcpy(buf, rec, size);
        tbuf_skip(&tm->tb, k, c, size);
        tm->tb_records++;
        tm->tb_last = k;
        return size;
    }
    return 0;
}

long tmon_next(struct tmon *tm, unsigned char *buf, int timeout_ms)
{
    uint64_t until = 0;
    struct dapto_record h;
    long n;

    for (;;) {
        n = ring_take(&tm->ring, buf, DAPTO_RECORD_MAX);
        if (n < 0) {
            fail(tm, "ring_take: %s", strerror(errno));
            return -1;
        }
        if (n == 0 && tm->tb.count != 0)
            n = tbuf_next(tm, buf);
        if (n < 0)
            return -1;
        if (n > 0)
            break;
        /* empty: only now look at the clock */
        if (until == 0)
            until = now_ms() + (uint64_t)timeout_ms;
        drain_output(tm);
        if (tm->exited || now_ms() >= until)
            return 0;
        if (!ring_wait(&tm->ring, 20) && !tm->exited &&
            waitpid(tm->pid, &tm->status, WNOHANG) == tm->pid)
            tm->exited = 1; /* one more pass drains the ring */
    }
    tm->records++;
    memcpy(&h, buf, sizeof h);
    if (h.code == DAPTO_REC_ASPECT && on_aspect(tm, buf, n) != 0)
        return -1;
    if (h.code == DAPTO_REC_INTERN && on_intern(tm, buf, n) != 0)
        return -1;
    return n;
}

struct tm_aspect *tmon_aspect(struct tmon *tm, const char *name)
{
    int k;

    for (k = 0; k < tm->naspects; k++)
        if (strcmp(tm->asp[k].name, name) == 0)
            return &tm->asp[k];
    return NULL;
}

int tmon_event_code(struct tmon *tm, const char *aspect, const char *name)
{
    struct tm_aspect *a = tmon_aspect(tm, aspect);
    unsigned int e;

    for (e = 0; a != NULL && e < a->nevents; e++)
        if (strcmp(a->ev[e].name, name) == 0)
            return (int)(a->event_base + e);
    return -1;
}

int tmon_op_code(struct tmon *tm, const char *aspect, const char *name)
{
    struct tm_aspect *a = tmon_aspect(tm, aspect);
    unsigned int e;

    for (e = 0; a != NULL && e < a->nops; e++)
        if (strcmp(a->op[e].name, name) == 0)
            return (int)(a->op_base + e);
    return -1;
}

struct dapto_mailbox *tmon_call(struct tmon *tm, uint32_t mbox, uint32_t op,
                                const void *args, size_t len, int timeout_ms)
{
    struct dapto_mailbox *mb = region_mailbox(&tm->reg, mbox);
    uint64_t until = now_ms() + (uint64_t)timeout_ms;

    if (mb == NULL || mailbox_request(mb, op, args, len) != 0) {
        fail(tm, "cannot post a request to mailbox %u", mbox);
        return NULL;
    }
    while (mailbox_state(mb) != DAPTO_MB_DONE) {
        if (now_ms() > until) {
            fail(tm, "no answer from mailbox %u (state %u)", mbox,
                 mailbox_state(mb));
            return NULL;
        }
        ring_wait(&tm->ring, 20);
    }
    return mb;
}

int tmon_resume(struct tmon *tm, uint32_t mbox)
{
    struct dapto_mailbox *mb = region_mailbox(&tm->reg, mbox);

    if (mb == NULL || mailbox_resume(mb) != 0) {
        fail(tm, "cannot resume mailbox %u", mbox);
        return -1;
    }
    return 0;
}

int tmon_finish(struct tmon *tm, char *out, size_t size, int timeout_ms)
{
    uint64_t until = now_ms() + (uint64_t)timeout_ms;
    struct timespec ts = {0, 2000000};

    while (!tm->exited) {
        drain_output(tm);
        if (waitpid(tm->pid, &tm->status, WNOHANG) == tm->pid) {
            tm->exited = 1;
            break;
        }
        if (now_ms() > until) {
            kill(tm->pid, SIGKILL);
            waitpid(tm->pid, &tm->status, 0);
            tm->exited = 1;
            fail(tm, "the program did not end in %d ms: killed", timeout_ms);
            break;
        }
        nanosleep(&ts, NULL);
    }
    fcntl(tm->out_fd, F_SETFL, 0);
    drain_output(tm);
    if (size > 0) {
        size_t n = outlen < size - 1 ? outlen : size - 1;

        memcpy(out, outbuf, n);
        out[n] = '\0';
    }
    outlen = 0;
    return tm->status;
}

void tmon_close(struct tmon *tm)
{
    int k;

    if (tm->pid > 0 && !tm->exited) {
        kill(tm->pid, SIGKILL);
        waitpid(tm->pid, &tm->status, 0);
        tm->exited = 1;
    }
    if (tm->out_fd >= 0)
        close(tm->out_fd);
    tm->out_fd = -1;
    outlen = 0;
    for (k = 0; k < TMON_INTERN; k++) {
        free(tm->intern[k]);
        tm->intern[k] = NULL;
    }
    region_close(&tm->reg);
}

int tmon_idle(struct tmon *tm)
{
    if (tm->exited)
        return 1;
    if (!ring_wait(&tm->ring, 50) &&
        waitpid(tm->pid, &tm->status, WNOHANG) == tm->pid)
        tm->exited = 1;
    return 0;
}
