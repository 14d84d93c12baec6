/* SPDX-License-Identifier: MIT */
/*
 * wire.h - building records and aspect descriptions by hand, for the
 * decoder's tests and the fuzzer's seeds <protocol#record>.
 */
#ifndef NOOSA_WIRE_H
#define NOOSA_WIRE_H

#include <stdint.h>
#include <string.h>

#include "dapto.h"
#include "protocol.h"

struct wire {
    unsigned char buf[8192];
    size_t len;
};

static inline void wire_bytes(struct wire *w, const void *p, size_t n)
{
    memcpy(w->buf + w->len, p, n);
    w->len += n;
}

static inline void wire_tag(struct wire *w, unsigned char tag)
{
    w->buf[w->len++] = tag;
}

static inline void wire_int(struct wire *w, int32_t v)
{
    wire_tag(w, DAPTO_K_INT);
    wire_bytes(w, &v, 4);
}

static inline void wire_long(struct wire *w, int64_t v)
{
    wire_tag(w, DAPTO_K_LONG);
    wire_bytes(w, &v, 8);
}

static inline void wire_double(struct wire *w, double v)
{
    wire_tag(w, DAPTO_K_DOUBLE);
    wire_bytes(w, &v, 8);
}

static inline void wire_ptr(struct wire *w, uint64_t v)
{
    wire_tag(w, DAPTO_K_PTR);
    wire_bytes(w, &v, 8);
}

static inline void wire_istr(struct wire *w, uint32_t id)
{
    wire_tag(w, DAPTO_K_ISTR);
    wire_bytes(w, &id, 4);
}

static inline void wire_str(struct wire *w, const char *s)
{
    uint32_t n = (uint32_t)strlen(s);

    wire_tag(w, DAPTO_K_STR);
    wire_bytes(w, &n, 4);
    wire_bytes(w, s, n + 1);
}

static inline void wire_param(struct wire *w, const char *name,
                              const char *type, int kind, const char *doc)
{
    wire_str(w, name);
    wire_str(w, type);
    wire_int(w, kind);
    wire_str(w, doc);
}

/* A record with CODE around the values in V; returns its size. */
static inline size_t wire_record(unsigned char *out, unsigned int code,
                                 unsigned int flags, unsigned int aux,
                                 uint32_t tid, uint64_t time,
                                 const struct wire *v)
{
    struct dapto_record h;
    size_t size = (DAPTO_RECORD_HEADER + v->len + 7) & ~(size_t)7;

    memset(&h, 0, sizeof h);
    h.size = (uint32_t)size;
    h.code = (uint16_t)code;
    h.flags = (uint16_t)flags;
    h.tid = tid;
    h.time = time;
    h.aux = aux;
    h.len = (uint32_t)v->len;
    memset(out, 0, size);
    memcpy(out, &h, sizeof h);
    memcpy(out + DAPTO_RECORD_HEADER, v->buf, v->len);
    return size;
}

/* The description of a test aspect "t" at BASE: events "ev_all(int i,
 * long l, double d, str s, ptr p, Thing u)" and "ping()", operation
 * "get(int i): str". */
static inline void wire_test_aspect(struct wire *w, const char *name,
                                    int base, int op_base)
{
    wire_str(w, name);
    wire_str(w, "t.dapto");
    wire_int(w, DAPTO_ABI_VERSION);
    wire_int(w, base);
    wire_int(w, 2);
    wire_int(w, op_base);
    wire_int(w, 1);

    wire_str(w, "ev_all");
    wire_str(w, "every type");
    wire_int(w, 1);
    wire_ptr(w, 0x601000);
    wire_int(w, 6);
    wire_param(w, "i", "int", DAPTO_K_INT, "an int");
    wire_param(w, "l", "long", DAPTO_K_LONG, "a long");
    wire_param(w, "d", "double", DAPTO_K_DOUBLE, "a double");
    wire_param(w, "s", "str", DAPTO_K_STR, "a string");
    wire_param(w, "p", "ptr", DAPTO_K_PTR, "a pointer");
    wire_param(w, "u", "Thing", DAPTO_K_USER, "a user type");

    wire_str(w, "ping");
    wire_str(w, "");
    wire_int(w, 0);
    wire_ptr(w, 0x601001);
    wire_int(w, 0);

    wire_str(w, "get");
    wire_str(w, "look up");
    wire_str(w, "str");
    wire_int(w, DAPTO_K_STR);
    wire_int(w, 1);
    wire_param(w, "i", "int", DAPTO_K_INT, "index");
}

#endif /* NOOSA_WIRE_H */
