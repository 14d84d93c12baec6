/* SPDX-License-Identifier: MIT */
/*
 * rec-inject.c - make a recording look like one of a newer minor version
 * for tests/record/bad.sh: append to DIR/metadata an event class noosa
 * does not know (noosa_future, id 0xf100: a u32, a string, a sequence of
 * bytes with its u16 length), and to the stream FILE of DIR a packet
 * holding an event of it between two exit events (code 2 of the built-in
 * aspect), with its check right.
 *
 *     rec-inject DIR FILE TID
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recfile.h"

static size_t event(unsigned char *p, unsigned int id, uint64_t ts)
{
    recfile_put16(p, (uint16_t)id);
    recfile_put64(p + 2, ts);
    return RECFILE_EVENT_HEADER;
}

int main(int argc, char **argv)
{
    unsigned char pkt[512];
    size_t n = RECFILE_PACKET_HEADER;
    uint64_t ts = 1ull << 40;
    char path[1024];
    FILE *f;

    if (argc != 4) {
        fprintf(stderr, "usage: rec-inject DIR FILE TID\n");
        return 2;
    }
    snprintf(path, sizeof path, "%s/metadata", argv[1]);
    f = fopen(path, "a");
    if (f == NULL)
        return 1;
    fputs("event {\n    name = \"noosa_future\";\n    id = 61696;\n"
          "    stream_id = 0;\n    fields := struct { uint32_t _a; "
          "string _s; uint16_t _n; uint8_t _b[_n]; };\n};\n\n", f);
    fclose(f);

    memset(pkt, 0, sizeof pkt);
    n += event(pkt + n, 2, ts);
    n += event(pkt + n, 0xf100, ts + 1);
    recfile_put32(pkt + n, 7);
    memcpy(pkt + n + 4, "future", 7);
    recfile_put16(pkt + n + 11, 3);
    memcpy(pkt + n + 13, "xyz", 3);
    n += 16;
    n += event(pkt + n, 2, ts + 2);
    recfile_put32(pkt + RECFILE_OFF_MAGIC, RECFILE_MAGIC);
    recfile_put64(pkt + RECFILE_OFF_INSTANCE, strtoull(argv[3], NULL, 10));
    recfile_put64(pkt + RECFILE_OFF_TS_BEGIN, ts);
    recfile_put64(pkt + RECFILE_OFF_TS_END, ts + 2);
    recfile_put64(pkt + RECFILE_OFF_CONTENT, n * 8);
    recfile_put64(pkt + RECFILE_OFF_PACKET, n * 8);
    recfile_put64(pkt + RECFILE_OFF_SEQ, 999);
    recfile_put32(pkt + RECFILE_OFF_TID, (uint32_t)strtoul(argv[3], NULL, 10));
    recfile_put32(pkt + RECFILE_OFF_CHECK, recfile_check(pkt, n));
    snprintf(path, sizeof path, "%s/%s", argv[1], argv[2]);
    f = fopen(path, "ab");
    if (f == NULL)
        return 1;
    fwrite(pkt, 1, n, f);
    fclose(f);
    return 0;
}
