/* SPDX-License-Identifier: MIT */
/*
 * trec.h - test records for the channel's unit tests (ring-test,
 * tbuf-test): code = the writer, aux = its sequence number, LEN value
 * bytes of a pattern derived from both, so that a reader can tell a
 * record that is whole from one torn, shifted or mixed with another; and
 * the regions they go through.
 */
#ifndef NOOSA_TREC_H
#define NOOSA_TREC_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dapto.h"
#include "region.h"

struct trec {
    struct dapto_record h;
    unsigned char v[2048];
};

static inline unsigned char pat(unsigned int who, unsigned int seq,
                                unsigned int i)
{
    return (unsigned char)(who * 131u + seq * 7u + i * 13u + 1u);
}

static inline void make(struct trec *r, unsigned int who, unsigned int seq,
                        unsigned int len)
{
    memset(&r->h, 0, sizeof r->h);
    r->h.code = (uint16_t)who;
    r->h.tid = 1000 + who;
    r->h.time = seq;
    r->h.aux = seq;
    r->h.len = len;
    for (unsigned int i = 0; i < len; i++)
        r->v[i] = pat(who, seq, i);
}

/* Whether REC (N bytes, as read) is an intact test record: its size, its
 * pattern and zero padding; its writer and sequence number in *WHO and
 * *SEQ. */
static inline int intact(const unsigned char *rec, long n, unsigned int *who,
                         unsigned int *seq)
{
    struct dapto_record h;
    unsigned int i;

    if (n < DAPTO_RECORD_HEADER)
        return 0;
    memcpy(&h, rec, sizeof h);
    if (h.size != (uint32_t)n ||
        (DAPTO_RECORD_HEADER + h.len + 7) / 8 * 8 != h.size ||
        h.tid != 1000u + h.code || h.time != h.aux)
        return 0;
    for (i = 0; i < h.len; i++)
        if (rec[DAPTO_RECORD_HEADER + i] != pat(h.code, h.aux, i))
            return 0;
    for (i = DAPTO_RECORD_HEADER + h.len; i < h.size; i++)
        if (rec[i] != 0)
            return 0;
    *who = h.code;
    *seq = h.aux;
    return 1;
}

/* Create REG with geometry G, or end the test saying why. */
static inline void trec_region(struct region *reg, const struct region_geom *g)
{
    const char *cause = NULL;

    if (region_create(reg, g, &cause) != 0) {
        fprintf(stderr, "region_create: %s: %s\n", cause, strerror(errno));
        exit(1);
    }
}

#endif /* NOOSA_TREC_H */
