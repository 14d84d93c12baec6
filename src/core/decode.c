/* SPDX-License-Identifier: MIT */
#include "config.h"

/*
 * decode.c - tagged values from untrusted bytes <protocol#record>.  The
 * buffer may hold anything: each tag, each length and each string end is
 * checked before it is used.
 */
#include <stdlib.h>
#include <string.h>

#include "dapto.h"
#include "decode.h"
#include "xmalloc.h"

void decode_init(struct decode_cursor *c, const void *buf, size_t len)
{
    c->base = buf;
    c->off = 0;
    c->end = len;
}

int decode_at_end(const struct decode_cursor *c)
{
    return c->off >= c->end;
}

const char *decode_kind_name(unsigned int kind)
{
    switch (kind) {
    case DAPTO_K_INT:
        return "int";
    case DAPTO_K_LONG:
        return "long";
    case DAPTO_K_DOUBLE:
        return "double";
    case DAPTO_K_STR:
        return "str";
    case DAPTO_K_PTR:
        return "ptr";
    case DAPTO_K_UNKNOWN:
        return "unknown";
    case DAPTO_K_ISTR:
        return "interned str";
    case DAPTO_K_USER:
        return "user type";
    }
    return "bad kind";
}

/* Copy N bytes of the value at the cursor (after the tag) into DST. */
static int decode_fixed(struct decode_cursor *c, void *dst, size_t n,
                        size_t tag_off, const char *name, char **cause)
{
    if (c->end - c->off < n) {
        xcause(cause, "%s value at byte %zu runs past the end (%zu of %zu "
               "bytes there)", name, tag_off, c->end - c->off, n);
        return -1;
    }
    memcpy(dst, c->base + c->off, n);
    c->off += n;
    return 0;
}

int decode_value(struct decode_cursor *c, struct decode_value *v,
                 char **cause)
{
    size_t tag_off = c->off;
    unsigned char tag, kind;
    uint32_t len;

    memset(v, 0, sizeof *v);
    if (c->off >= c->end) {
        xcause(cause, "value expected at byte %zu, but the values end there",
               tag_off);
        return -1;
    }
    tag = c->base[c->off++];
    kind = tag & (unsigned char)~DAPTO_K_TRUNC;
    v->kind = kind;
    v->truncated = (tag & DAPTO_K_TRUNC) != 0;
    if (v->truncated && kind != DAPTO_K_STR) {
        xcause(cause, "bad tag 0x%02x at byte %zu (only strings are "
               "truncated)", tag, tag_off);
        return -1;
    }
    switch (kind) {
    case DAPTO_K_INT:
        return decode_fixed(c, &v->u.i, 4, tag_off, "int", cause);
    case DAPTO_K_LONG:
        return decode_fixed(c, &v->u.l, 8, tag_off, "long", cause);
    case DAPTO_K_DOUBLE:
        return decode_fixed(c, &v->u.d, 8, tag_off, "double", cause);
    case DAPTO_K_PTR:
        return decode_fixed(c, &v->u.p, 8, tag_off, "ptr", cause);
    case DAPTO_K_UNKNOWN:
        return 0;
    case DAPTO_K_ISTR:
        return decode_fixed(c, &v->u.id, 4, tag_off, "interned str", cause);
    case DAPTO_K_STR:
        if (decode_fixed(c, &len, 4, tag_off, "str", cause) != 0)
            return -1;
        if (c->end - c->off < (size_t)len + 1) {
            xcause(cause, "str at byte %zu: length %u runs past the end "
                   "(%zu bytes left)", tag_off, len, c->end - c->off);
            return -1;
        }
        if (c->base[c->off + len] != '\0') {
            xcause(cause, "str at byte %zu: no NUL after its %u bytes",
                   tag_off, len);
            return -1;
        }
        v->len = len;
        v->s = (const char *)c->base + c->off;
        c->off += (size_t)len + 1;
        return 0;
    }
    xcause(cause, "bad tag 0x%02x at byte %zu", tag, tag_off);
    return -1;
}

int decode_expect(struct decode_cursor *c, unsigned char kind,
                  struct decode_value *v, const char *what, char **cause)
{
    size_t off = c->off;
    char *why = NULL;

    if (decode_value(c, v, &why) != 0) {
        xcause(cause, "%s: %s", what, why);
        free(why);
        return -1;
    }
    if (v->kind != kind) {
        xcause(cause, "%s: expected %s at byte %zu, found %s", what,
               decode_kind_name(kind), off, decode_kind_name(v->kind));
        return -1;
    }
    return 0;
}
