/* SPDX-License-Identifier: MIT */
/*
 * decode.h - reading tagged values out of untrusted bytes
 * <protocol#record>.  Every read checks the tag, the length against the
 * end of the buffer and the NUL after a string; nothing here allocates or
 * resolves anything (interned ids are returned as ids).
 */
#ifndef NOOSA_DECODE_H
#define NOOSA_DECODE_H

#include <stddef.h>
#include <stdint.h>

/* One decoded value.  For strings, s points into the decoded buffer (or,
 * once the reader has resolved an intern id, into its table) and is
 * NUL-terminated at s[len]. */
struct decode_value {
    unsigned char kind;      /* enum dapto_kind; ISTR until resolved */
    unsigned char truncated; /* the tag carried DAPTO_K_TRUNC */
    unsigned char interned;  /* the value came as an intern id */
    uint32_t len;            /* DAPTO_K_STR: bytes before the NUL */
    union {
        int32_t i;
        int64_t l;
        double d;
        uint64_t p;
        uint32_t id; /* DAPTO_K_ISTR */
    } u;
    const char *s; /* DAPTO_K_STR */
};

/* A position in a buffer of values; off counts from base for messages. */
struct decode_cursor {
    const unsigned char *base;
    size_t off;
    size_t end;
};

void decode_init(struct decode_cursor *c, const void *buf, size_t len);
int decode_at_end(const struct decode_cursor *c);

/* Read the next value.  Returns 0, or -1 with *cause saying what was
 * wrong and at which byte. */
int decode_value(struct decode_cursor *c, struct decode_value *v,
                 char **cause);

/* Read the next value and insist on KIND (DAPTO_K_STR also accepts no
 * ISTR here: descriptions never intern).  WHAT names the field for the
 * message. */
int decode_expect(struct decode_cursor *c, unsigned char kind,
                  struct decode_value *v, const char *what, char **cause);

/* The name of a kind ("int", "str", ...), for messages. */
const char *decode_kind_name(unsigned int kind);

#endif /* NOOSA_DECODE_H */
