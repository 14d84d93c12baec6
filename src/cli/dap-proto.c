/* SPDX-License-Identifier: MIT */
/*
 * dap-proto.c - the Debug Adapter Protocol's framing and messages (see
 * dap.h): a message is a header of `Name: value' lines, one of them
 * Content-Length (the body's length in bytes of UTF-8), an empty line,
 * then a JSON body.  jansson reads and writes the bodies; nothing here
 * parses JSON by hand.
 *
 * Input is never trusted: a header without Content-Length, a length that
 * is not a number or is too big, a header that never ends, a body that is
 * not JSON or not an object: each is answered with a failure naming what
 * was wrong, the bad bytes are dropped and reading goes on from the next
 * header.  Nothing waits for bytes that a bad header promised beyond
 * DAP_MAX_BODY.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "dap.h"
#include "loop.h"
#include "xmalloc.h"

static uint64_t now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void dap_log(struct dap *d, const char *fmt, ...)
{
    va_list ap;
    uint64_t t;

    if (d->log == NULL)
        return;
    t = now_ns() - d->log_start_ns;
    fprintf(d->log, "%llu.%06llu ", (unsigned long long)(t / 1000000000u),
            (unsigned long long)(t % 1000000000u / 1000u));
    va_start(ap, fmt);
    vfprintf(d->log, fmt, ap);
    va_end(ap);
    fputc('\n', d->log);
    fflush(d->log);
}

/* --- reading ------------------------------------------------------------ */

void dap_proto_read(int fd, short revents, void *arg)
{
    struct dap *d = arg;
    ssize_t n;

    (void)revents;
    if (d->in_eof)
        return;
    if (d->in_cap - d->in_len < 65536) {
        d->in_cap = d->in_len + 65536;
        d->inbuf = xrealloc(d->inbuf, d->in_cap);
    }
    n = read(fd, d->inbuf + d->in_len, d->in_cap - d->in_len);
    if (n > 0) {
        d->in_len += (size_t)n;
        return;
    }
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    dap_log(d, "-- the client's input ended (%s)",
            n == 0 ? "end of file" : strerror(errno));
    d->in_eof = 1;
    /* a descriptor at its end is always ready: not watched any more */
    loop_remove(d->loop, fd);
}

/* Drop the first N bytes of the input. */
static void drop(struct dap *d, size_t n)
{
    memmove(d->inbuf, d->inbuf + n, d->in_len - n);
    d->in_len -= n;
}

/* Where the next header begins after a bad one: the next
 * "Content-Length" at or after FROM (in any case), else the end but for
 * a tail that may be the start of one. */
static size_t resync(const struct dap *d, size_t from)
{
    static const char key[] = "content-length";
    size_t k = sizeof key - 1, i, tail;

    for (i = from; i + k <= d->in_len; i++)
        if (strncasecmp(d->inbuf + i, key, k) == 0)
            return i;
    for (tail = k - 1; tail > 0; tail--)
        if (d->in_len >= from + tail &&
            strncasecmp(d->inbuf + d->in_len - tail, key, tail) == 0)
            return d->in_len - tail;
    return d->in_len > from ? d->in_len : from;
}

/* The end of the header at the start of the input: the offset of the
 * body, 0 when the empty line has not come yet.  Lines end with CRLF, or
 * LF alone from lenient clients. */
static size_t header_end(const struct dap *d)
{
    for (size_t i = 0; i < d->in_len; i++) {
        if (d->inbuf[i] != '\n')
            continue;
        if (i + 1 < d->in_len && d->inbuf[i + 1] == '\n')
            return i + 2;
        if (i + 2 < d->in_len && d->inbuf[i + 1] == '\r' && d->inbuf[i + 2] == '\n')
            return i + 3;
    }
    return 0;
}

/* The value of Content-Length in the header of HLEN bytes: 0 with *LEN,
 * or -1 with *err. */
static int content_length(const char *h, size_t hlen, size_t *len,
                          char **err)
{
    const char *p = h, *end = h + hlen;
    int found = 0;

    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        const char *colon, *v, *ve;
        size_t llen;

        if (eol == NULL)
            eol = end;
        llen = (size_t)(eol - p);
        if (llen > 0 && p[llen - 1] == '\r')
            llen--;
        if (llen == 0) {
            p = eol + 1;
            continue;
        }
        colon = memchr(p, ':', llen);
        if (colon == NULL) {
            xcause(err, "bad header line \"%.*s\": expected Name: value",
                   (int)(llen > 60 ? 60 : llen), p);
            return -1;
        }
        if ((size_t)(colon - p) == 14 &&
            strncasecmp(p, "Content-Length", 14) == 0) {
            unsigned long long n = 0;

            v = colon + 1;
            ve = p + llen;
            while (v < ve && (*v == ' ' || *v == '\t'))
                v++;
            while (ve > v && (ve[-1] == ' ' || ve[-1] == '\t'))
                ve--;
            if (v == ve) {
                xcause(err, "Content-Length has no value");
                return -1;
            }
            for (const char *q = v; q < ve; q++) {
                if (!isdigit((unsigned char)*q) || n > DAP_MAX_BODY) {
                    xcause(err, "Content-Length \"%.*s\" is not a length "
                           "up to %u bytes", (int)(ve - v > 40 ? 40 : ve - v),
                           v, DAP_MAX_BODY);
                    return -1;
                }
                n = n * 10 + (unsigned)(*q - '0');
            }
            if (n > DAP_MAX_BODY) {
                xcause(err, "Content-Length %llu is more than the %u bytes "
                       "a message may have", n, DAP_MAX_BODY);
                return -1;
            }
            *len = (size_t)n;
            found = 1;
        }
        p = eol + 1;
    }
    if (!found) {
        xcause(err, "a header without Content-Length");
        return -1;
    }
    return 0;
}

int dap_proto_next(struct dap *d, json_t **msg, char **err)
{
    size_t hend, len;
    json_error_t jerr;
    json_t *j;

    /* blank lines between messages are harmless */
    while (d->in_len > 0 && (d->inbuf[0] == '\r' || d->inbuf[0] == '\n'))
        drop(d, 1);
    if (d->in_len == 0)
        return 0;
    hend = header_end(d);
    if (hend == 0) {
        if (d->in_len < DAP_MAX_HEADER && !d->in_eof)
            return 0;
        xcause(err, d->in_eof ? "the input ended inside a header"
                              : "a header of more than %u bytes without its "
                                "empty line", DAP_MAX_HEADER);
        drop(d, d->in_eof ? d->in_len : resync(d, 1));
        return -1;
    }
    if (content_length(d->inbuf, hend, &len, err) != 0) {
        drop(d, resync(d, 1));
        return -1;
    }
    if (d->in_len - hend < len) {
        if (!d->in_eof)
            return 0;
        xcause(err, "the input ended inside a body (%zu of %zu bytes)",
               d->in_len - hend, len);
        drop(d, d->in_len);
        return -1;
    }
    dap_log(d, "<- %.*s", (int)len, d->inbuf + hend);
    j = json_loadb(d->inbuf + hend, len, JSON_REJECT_DUPLICATES, &jerr);
    drop(d, hend + len);
    if (j == NULL) {
        xcause(err, "bad JSON at line %d, column %d: %s", jerr.line,
               jerr.column, jerr.text);
        return -1;
    }
    if (!json_is_object(j)) {
        xcause(err, "a message must be a JSON object");
        json_decref(j);
        return -1;
    }
    *msg = j;
    return 1;
}

/* --- writing ------------------------------------------------------------ */

/* Write all of BUF, waiting while the client's pipe is full. */
static int write_all(struct dap *d, const char *buf, size_t len)
{
    while (len > 0) {
        ssize_t n = write(d->out_fd, buf, len);

        if (n > 0) {
            buf += n;
            len -= (size_t)n;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN) {
            struct pollfd p = {.fd = d->out_fd, .events = POLLOUT};

            poll(&p, 1, -1);
            continue;
        }
        return -1;
    }
    return 0;
}

void dap_send(struct dap *d, json_t *msg)
{
    char *body, head[64];
    int hlen;

    if (d->out_dead) {
        json_decref(msg);
        return;
    }
    json_object_set_new(msg, "seq", json_integer(++d->seq));
    body = json_dumps(msg, JSON_COMPACT);
    json_decref(msg);
    if (body == NULL) {
        dap_log(d, "!! a message could not be made into JSON");
        return;
    }
    hlen = snprintf(head, sizeof head, "Content-Length: %zu\r\n\r\n",
                    strlen(body));
    dap_log(d, "-> %s", body);
    if (write_all(d, head, (size_t)hlen) != 0 ||
        write_all(d, body, strlen(body)) != 0) {
        dap_log(d, "!! writing to the client failed: %s", strerror(errno));
        d->out_dead = 1;
        d->quit = 1;
    }
    free(body);
}

/* A response to request number SEQ of COMMAND. */
static json_t *response(long seq, const char *command, int success)
{
    json_t *r = json_object();

    json_object_set_new(r, "type", json_string("response"));
    json_object_set_new(r, "request_seq", json_integer(seq));
    json_object_set_new(r, "success", json_boolean(success));
    json_object_set_new(r, "command", dap_jstr(command));
    return r;
}

static long req_seq(json_t *req)
{
    json_t *s = json_object_get(req, "seq");

    return json_is_integer(s) ? (long)json_integer_value(s) : 0;
}

static const char *req_command(json_t *req)
{
    const char *c = json_string_value(json_object_get(req, "command"));

    return c != NULL ? c : "";
}

void dap_respond(struct dap *d, json_t *req, json_t *body)
{
    json_t *r = response(req_seq(req), req_command(req), 1);

    if (body != NULL)
        json_object_set_new(r, "body", body);
    dap_send(d, r);
}

static void vfail(struct dap *d, long seq, const char *command,
                  const char *fmt, va_list ap)
{
    char *text = xvasprintf(fmt, ap);
    json_t *r = response(seq, command, 0), *err = json_object();

    json_object_set_new(r, "message", dap_jstr(text));
    /* clients show body.error.format to the user */
    json_object_set_new(err, "id", json_integer(1));
    json_object_set_new(err, "format", dap_jstr(text));
    json_object_set_new(err, "showUser", json_false());
    json_object_set_new(r, "body", json_pack("{s:o}", "error", err));
    dap_log(d, "!! %s: %s", *command != '\0' ? command : "(no request)",
            text);
    free(text);
    dap_send(d, r);
}

void dap_fail(struct dap *d, json_t *req, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vfail(d, req_seq(req), req_command(req), fmt, ap);
    va_end(ap);
}

void dap_fail_seq(struct dap *d, long request_seq, const char *command,
                  const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vfail(d, request_seq, command, fmt, ap);
    va_end(ap);
}

void dap_event(struct dap *d, const char *event, json_t *body)
{
    json_t *e = json_object();

    json_object_set_new(e, "type", json_string("event"));
    json_object_set_new(e, "event", json_string(event));
    if (body != NULL)
        json_object_set_new(e, "body", body);
    dap_send(d, e);
}

long dap_request(struct dap *d, const char *command, json_t *args)
{
    json_t *r = json_object();

    json_object_set_new(r, "type", json_string("request"));
    json_object_set_new(r, "command", json_string(command));
    json_object_set_new(r, "arguments", args);
    dap_send(d, r);
    return d->seq;
}

/* --- strings and arguments ------------------------------------------------ */

/* The length of the UTF-8 sequence at S (N bytes left), 0 when it is not
 * one (overlong, a surrogate, beyond U+10FFFF, cut). */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    unsigned int c = s[0], need, min, v;

    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf)
        need = 1, min = 0x80, v = c & 0x1f;
    else if (c >= 0xe0 && c <= 0xef)
        need = 2, min = 0x800, v = c & 0x0f;
    else if (c >= 0xf0 && c <= 0xf4)
        need = 3, min = 0x10000, v = c & 0x07;
    else
        return 0;
    if (n < need + 1)
        return 0;
    for (unsigned int i = 1; i <= need; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        v = v << 6 | (s[i] & 0x3f);
    }
    if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
        return 0;
    return need + 1;
}

json_t *dap_jstrn(const char *s, size_t len)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0, k;
    char *fixed;
    size_t flen = 0;
    json_t *j;

    if (s == NULL)
        return json_string("");
    while (i < len && (k = utf8_len(u + i, len - i)) > 0)
        i += k;
    if (i == len)
        return json_stringn_nocheck(s, len);
    fixed = xmalloc(len * 3 + 1);
    for (i = 0; i < len;) {
        k = utf8_len(u + i, len - i);
        if (k == 0) {
            memcpy(fixed + flen, "\xef\xbf\xbd", 3);
            flen += 3;
            i++;
            continue;
        }
        memcpy(fixed + flen, s + i, k);
        flen += k;
        i += k;
    }
    j = json_stringn_nocheck(fixed, flen);
    free(fixed);
    return j;
}

json_t *dap_jstr(const char *s)
{
    return dap_jstrn(s, s != NULL ? strlen(s) : 0);
}

const char *dap_arg_str(json_t *args, const char *key)
{
    return json_string_value(json_object_get(args, key));
}

long long dap_arg_int(json_t *args, const char *key, long long def, int *bad)
{
    json_t *v = json_object_get(args, key);

    if (v == NULL || json_is_null(v))
        return def;
    if (json_is_integer(v))
        return json_integer_value(v);
    if (bad != NULL)
        *bad = 1;
    return 0;
}

int dap_arg_bool(json_t *args, const char *key, int def)
{
    json_t *v = json_object_get(args, key);

    return json_is_boolean(v) ? json_is_true(v) : def;
}
