/* SPDX-License-Identifier: MIT */
/*
 * channel-reader.c - libFuzzer harness for the monitor's record decoder:
 * the reader, the registry's aspect descriptions and the value decoder,
 * on arbitrary bytes.
 *
 * Input: a 16-bit little-endian length L, L bytes of interface area, then
 * records, each a 16-bit length N and N bytes (the record as copied out
 * of the ring).  ASPECT records refer to the interface area.  The last
 * chunk is also decoded as operation results.
 *
 * A record that reader_scalar_event() takes (the direct path of a
 * recording's events) must be the event reader_record() makes of it,
 * with the same values: the harness aborts otherwise.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "reader.h"
#include "registry.h"
#include "value.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t take16(const uint8_t **p, size_t *left)
{
    size_t n;

    if (*left < 2)
        return 0;
    n = (size_t)(*p)[0] | (size_t)(*p)[1] << 8;
    *p += 2;
    *left -= 2;
    return n < *left ? n : *left;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct registry *reg = registry_create();
    struct clock clk;
    struct reader *rd;
    const uint8_t *p = data;
    size_t left = size, ilen;
    unsigned char *iface, *rec;

    memset(&clk, 0, sizeof clk);
    rd = reader_create(reg, &clk, 8);
    ilen = take16(&p, &left);
    iface = malloc(ilen + 1);
    memcpy(iface, p, ilen);
    p += ilen;
    left -= ilen;
    while (left > 0) {
        size_t n = take16(&p, &left);
        struct reader_item item;
        struct decode_cursor c;
        struct decode_value v;
        struct reader_time t;
        struct reader_scalar sev;
        int scalar;

        if (n == 0 && left < 2)
            break;
        /* a private copy, so that ASan sees reads past the record */
        rec = malloc(n + 1);
        memcpy(rec, p, n);
        reader_time_init(&t, &clk);
        scalar = reader_scalar_event(rd, rec, (uint32_t)n, &t, &sev);
        reader_record(rd, rec, n, iface, ilen, &item);
        if (scalar) {
            const unsigned char *vp = sev.values;

            if (item.kind != READER_EVENT || item.event != sev.event ||
                item.nvalues != sev.event->nparams || item.truncated ||
                item.filtered || item.stop != -1 || item.ns != sev.ns ||
                item.tid != sev.tid)
                abort();
            for (unsigned int i = 0; i < item.nvalues; i++) {
                size_t k = item.values[i].kind == DAPTO_K_INT ? 4 : 8;

                if (*vp != item.values[i].kind || memcmp(vp + 1, &item.values[i].u, k) != 0)
                    abort();
                vp += 1 + k;
            }
            if (vp != sev.values + sev.len)
                abort();
        }
        if (item.kind == READER_EVENT) {
            for (unsigned int i = 0; i < item.nvalues; i++)
                free(value_text(&item.values[i]));
        }
        decode_init(&c, rec, n);
        while (!decode_at_end(&c) && decode_value(&c, &v, NULL) == 0)
            free(value_text(&v));
        free(rec);
        p += n;
        left -= n;
    }
    free(iface);
    reader_free(rd);
    registry_free(reg);
    return 0;
}
