/* SPDX-License-Identifier: MIT */
/*
 * fuzz-seeds.c - the fuzz harness of the reader of recordings
 * (fuzz/recording-reader.c) run without libFuzzer: over each of its seeds,
 * then over mutations of them (bytes overwritten, cut, duplicated, a
 * packet's end cut with its sizes made to say so, so that an event is cut
 * at the end of a packet whose check is right) drawn
 * from a seed that is printed and taken back from NOOSA_SEED, so that the
 * reader's checks run in every `make check` and under the sanitizers;
 * each seed, and every other mutation, also as the streams of two
 * threads.
 */
#include "config.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "recfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t state;

static uint64_t next(void)
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

/* Cut the last 1 to 12 bytes of a packet of the thread's stream of input
 * M (*MLEN bytes), its sizes made to say so. */
static void cut_packet(unsigned char *m, size_t *mlen)
{
    uint32_t l;
    size_t off, at[64], n = 0, cut = 1 + next() % 12, k;
    uint64_t len;

    memcpy(&l, m, 4);
    l &= 0x3fffffffu;
    off = 4 + (l < *mlen - 4 ? l : *mlen - 4);
    while (n < 64 && off + RECFILE_PACKET_HEADER <= *mlen &&
           recfile_get32(m + off) == RECFILE_MAGIC) {
        len = recfile_get64(m + off + RECFILE_OFF_PACKET) / 8;
        if (len < RECFILE_PACKET_HEADER + cut || len > *mlen - off)
            break;
        at[n++] = off;
        off += len;
    }
    if (n == 0)
        return;
    k = next() % n;
    len = recfile_get64(m + at[k] + RECFILE_OFF_PACKET) / 8 - cut;
    recfile_put64(m + at[k] + RECFILE_OFF_PACKET, len * 8);
    recfile_put64(m + at[k] + RECFILE_OFF_CONTENT, len * 8);
    off = at[k] + len;
    memmove(m + off, m + off + cut, *mlen - off - cut);
    *mlen -= cut;
}

static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf;
    long n;

    if (f == NULL)
        return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    rewind(f);
    buf = malloc((size_t)n + 1);
    *len = fread(buf, 1, (size_t)n, f);
    fclose(f);
    return buf;
}

int main(void)
{
    const char *dirname = NOOSA_SRCDIR "/fuzz/seeds/recording-reader";
    const char *env = getenv("NOOSA_SEED");
    DIR *d = opendir(dirname);
    struct dirent *de;
    unsigned int nseeds = 0, nruns = 0;

    if (d == NULL) {
        perror(dirname);
        return 99;
    }
    state = env != NULL ? strtoull(env, NULL, 0) : (uint64_t)time(NULL);
    if (state == 0)
        state = 1;
    printf("NOOSA_SEED=%llu\n", (unsigned long long)state);
    while ((de = readdir(d)) != NULL) {
        char path[1024];
        unsigned char *buf, *m;
        size_t len;

        if (de->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", dirname, de->d_name);
        buf = slurp(path, &len);
        if (buf == NULL)
            continue;
        nseeds++;
        LLVMFuzzerTestOneInput(buf, len);
        m = malloc(2 * len + 16);
        if (len >= 4) {
            memcpy(m, buf, len);
            m[3] |= 0x40;
            LLVMFuzzerTestOneInput(m, len);
        }
        for (int i = 0; i < 300; i++) {
            size_t mlen = len, k = 1 + next() % 8;

            memcpy(m, buf, len);
            for (size_t j = 0; j < k && mlen > 4; j++) {
                size_t at = 4 + next() % (mlen - 4);

                switch (next() % 5) {
                case 0: /* a byte */
                    m[at] = (unsigned char)next();
                    break;
                case 1: /* cut */
                    mlen = at;
                    break;
                case 2: /* a run duplicated */
                    if (mlen + 64 <= 2 * len + 16 && at + 64 <= mlen) {
                        memmove(m + at + 64, m + at, mlen - at);
                        mlen += 64;
                    }
                    break;
                case 4: /* a packet's end */
                    cut_packet(m, &mlen);
                    break;
                default: /* an aligned 32-bit word */
                    at &= ~(size_t)3;
                    if (at + 4 <= mlen) {
                        uint32_t w = (uint32_t)next();
                        memcpy(m + at, &w, 4);
                    }
                }
            }
            LLVMFuzzerTestOneInput(m, mlen);
            nruns++;
            if (i % 2 == 0 && mlen >= 4) {
                /* the same as the streams of two threads */
                m[3] |= 0x40;
                LLVMFuzzerTestOneInput(m, mlen);
                nruns++;
            }
        }
        free(m);
        free(buf);
    }
    closedir(d);
    printf("%u seeds, %u mutations\n", nseeds, nruns);
    return nseeds > 0 ? 0 : 1;
}
