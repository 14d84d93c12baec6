/* SPDX-License-Identifier: MIT */
/*
 * fnrec-test.c - function entry and exit records through the reader: the
 * fast way for their one valid form gives a whole item (every field, as
 * the general decoder would), and anything else about them still gets the
 * general decoder's messages.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "dapto.h"
#include "protocol.h"
#include "reader.h"
#include "registry.h"
#include "unit.h"

static unsigned char rec[128];

/* A function record of CODE: header, then the values in V (LEN bytes);
 * returns its size. */
static size_t make(unsigned int code, unsigned int flags, const void *v,
                   size_t len)
{
    struct dapto_record h;
    size_t size = (DAPTO_RECORD_HEADER + len + 7) & ~(size_t)7;

    memset(rec, 0, sizeof rec);
    memset(&h, 0, sizeof h);
    h.size = (uint32_t)size;
    h.code = (uint16_t)code;
    h.flags = (uint16_t)flags;
    h.tid = 4242;
    h.time = 1000;
    h.len = (uint32_t)len;
    memcpy(rec, &h, sizeof h);
    memcpy(rec + DAPTO_RECORD_HEADER, v, len);
    return size;
}

/* Two tagged pointers F and S (and a third when THREE). */
static size_t ptrs(unsigned char *b, uint64_t f, uint64_t s, int three)
{
    size_t n = 0;

    b[n++] = DAPTO_K_PTR;
    memcpy(b + n, &f, 8);
    n += 8;
    b[n++] = DAPTO_K_PTR;
    memcpy(b + n, &s, 8);
    n += 8;
    if (three) {
        b[n++] = DAPTO_K_PTR;
        memcpy(b + n, &s, 8);
        n += 8;
    }
    return n;
}

static int has(const struct reader_item *it, const char *text)
{
    return it->kind == READER_ERROR && it->message != NULL &&
           strstr(it->message, text) != NULL;
}

int main(void)
{
    struct registry *reg = registry_create();
    struct clock clk;
    struct reader *rd;
    struct reader_item it;
    unsigned char v[64];
    size_t n, size;

    clock_init(&clk, 0);
    rd = reader_create(reg, &clk, 4);

    /* the fast way: every field, whatever the item held before */
    n = ptrs(v, 0x401000, 0x402000, 0);
    size = make(DAPTO_REC_FNENTER, 0, v, n);
    CHECK_EQ_INT(size, 56);
    memset(&it, 0xa5, sizeof it);
    reader_record(rd, rec, size, NULL, 0, &it);
    CHECK_EQ_INT(it.kind, READER_FUNCTION);
    CHECK_EQ_INT(it.code, DAPTO_REC_FNENTER);
    CHECK_EQ_INT(it.tid, 4242);
    CHECK_EQ_INT(it.ns, clock_ns(&clk, 1000));
    CHECK_EQ_INT(it.stop, -1);
    CHECK(it.event == NULL && it.values == NULL && it.aspect == NULL &&
          it.message == NULL);
    CHECK_EQ_INT(it.nvalues, 0);
    CHECK_EQ_INT(it.truncated, 0);
    CHECK_EQ_INT(it.pid, 0);
    CHECK_EQ_INT(it.ring_mode, 0);
    CHECK_EQ_INT(it.lost, 0);
    CHECK(it.function == 0x401000 && it.call_site == 0x402000);
    CHECK_EQ_INT(it.enter, 1);
    size = make(DAPTO_REC_FNLEAVE, 0, v, n);
    reader_record(rd, rec, size, NULL, 0, &it);
    CHECK_EQ_INT(it.kind, READER_FUNCTION);
    CHECK_EQ_INT(it.enter, 0);

    /* anything else: the general decoder and its messages */
    v[0] = DAPTO_K_INT;
    size = make(DAPTO_REC_FNENTER, 0, v, n);
    reader_record(rd, rec, size, NULL, 0, &it);
    CHECK(has(&it, "expected ptr"));
    n = ptrs(v, 0x401000, 0x402000, 0);
    /* a function entry the thread waits at (a breakpoint on enter):
     * the general way, its mailbox (aux 0) kept */
    size = make(DAPTO_REC_FNENTER, DAPTO_RECF_STOP, v, n);
    reader_record(rd, rec, size, NULL, 0, &it);
    CHECK_EQ_INT(it.kind, READER_FUNCTION);
    CHECK_EQ_INT(it.stop, 0);
    CHECK(it.function == 0x401000 && it.enter == 1);
    size = make(DAPTO_REC_FNENTER, 0, v, n - 1);
    CHECK_EQ_INT(size, 56);
    reader_record(rd, rec, size, NULL, 0, &it);
    CHECK(it.kind == READER_ERROR);
    n = ptrs(v, 0x401000, 0x402000, 1);
    size = make(DAPTO_REC_FNLEAVE, 0, v, n);
    reader_record(rd, rec, size, NULL, 0, &it);
    CHECK(has(&it, "after the last value"));
    /* a 56-byte record of another kind is not taken for one */
    n = ptrs(v, 1, 2, 0);
    size = make(DAPTO_REC_LOST, 0, v, n);
    reader_record(rd, rec, size, NULL, 0, &it);
    CHECK(it.kind == READER_ERROR);

    reader_free(rd);
    registry_free(reg);
    return unit_done("fnrec-test");
}
