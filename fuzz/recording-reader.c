/* SPDX-License-Identifier: MIT */
/*
 * recording-reader.c - libFuzzer harness for the reader of recordings
 * (src/record/recread.c): packets, their checks, noosa's own event
 * classes (aspect descriptions, names, functions) and the program's
 * events, on arbitrary bytes, read in full and then exported.
 *
 * Input: a 32-bit little-endian length L, L bytes of noosa's stream, then
 * the stream of thread 1.  The metadata is a fixed one of the current
 * version; the files go into a directory of the harness's own.  When bit
 * 31 of L is set, the harness makes the check of every packet it can
 * find right before it writes a stream, so that mutations reach the
 * events and not only the packets' checks.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export.h"
#include "recfile.h"
#include "recread.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *dir;

static void put(const char *name, const void *buf, size_t len)
{
    char path[512];
    FILE *f;

    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "wb");
    if (f == NULL)
        abort();
    if (len > 0)
        fwrite(buf, 1, len, f);
    fclose(f);
}

/* Make the check of each packet in BUF right. */
static void fix_checks(uint8_t *buf, size_t len)
{
    size_t off = 0;

    while (off + RECFILE_PACKET_HEADER <= len) {
        uint64_t bits = recfile_get64(buf + off + RECFILE_OFF_PACKET);
        size_t plen = (size_t)(bits / 8);

        if (recfile_get32(buf + off) != RECFILE_MAGIC ||
            plen < RECFILE_PACKET_HEADER || plen > len - off)
            return;
        recfile_put32(buf + off + RECFILE_OFF_CHECK, 0);
        recfile_put32(buf + off + RECFILE_OFF_CHECK,
                      recfile_check(buf + off, plen));
        off += plen;
    }
}

static void cleanup(void)
{
    static const char *const names[] = {
        "metadata", RECFILE_NOOSA_STREAM, RECFILE_THREAD_PREFIX "1",
        "export.json", "export.pb"};
    char path[512];

    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
    rmdir(dir);
}

static void note(void *arg, const char *text)
{
    (void)arg;
    (void)text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char meta[] =
        "/* CTF 1.8 */\nenv {\n    noosa_format_major = 1;\n"
        "    noosa_format_median = 0;\n    noosa_format_minor = 0;\n"
        "    program = \"fuzz\";\n};\n";
    struct recread_opts o = {note, NULL};
    struct recread *r;
    struct reader_item it;
    uint64_t seq;
    uint32_t l = 0;
    int fix;
    uint8_t *copy;
    char *cause = NULL;
    char out[600];

    if (dir == NULL) {
        char tmpl[] = "/tmp/noosa-fuzz-rec.XXXXXX";

        if (mkdtemp(tmpl) == NULL)
            abort();
        dir = strdup(tmpl);
        atexit(cleanup);
        put("metadata", meta, sizeof meta - 1);
    }
    if (size >= 4)
        memcpy(&l, data, 4);
    data += size >= 4 ? 4 : size;
    size -= size >= 4 ? 4 : size;
    fix = (l & 0x80000000u) != 0;
    l &= 0x7fffffffu;
    if (l > size)
        l = (uint32_t)size;
    copy = malloc(size + 1);
    memcpy(copy, data, size);
    if (fix) {
        fix_checks(copy, l);
        fix_checks(copy + l, size - l);
    }
    put(RECFILE_NOOSA_STREAM, copy, l);
    put(RECFILE_THREAD_PREFIX "1", copy + l, size - l);
    free(copy);
    if (recread_open(&r, dir, &o, &cause) != 0) {
        free(cause);
        return 0;
    }
    while (recread_next(r, &it, &seq))
        if (it.kind == READER_EVENT && it.nvalues > 0 &&
            it.values[0].kind == DAPTO_K_STR)
            (void)strlen(it.values[0].s);
    snprintf(out, sizeof out, "%s/export.json", dir);
    if (export_recording(r, EXPORT_CHROME, out, &cause) != 0)
        free(cause);
    snprintf(out, sizeof out, "%s/export.pb", dir);
    if (export_recording(r, EXPORT_PERFETTO, out, &cause) != 0)
        free(cause);
    recread_free(r);
    return 0;
}
