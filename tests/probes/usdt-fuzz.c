/* SPDX-License-Identifier: MIT */
/*
 * usdt-fuzz.c - the fuzz harness of the note parser (fuzz/usdt-notes.c)
 * run without libFuzzer, in every `make check` and under the sanitizers:
 * over each of its seeds, then over 20000 mutations of them (bytes
 * overwritten, cut, a note's sizes changed) drawn from a seed that is
 * printed and taken back from NOOSA_SEED.
 */
#include "config.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t state;

static uint64_t next(void)
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

int main(void)
{
    const char *dir = NOOSA_SRCDIR "/fuzz/seeds/usdt-notes";
    const char *env = getenv("NOOSA_SEED");
    unsigned char *seeds[16], buf[8192];
    size_t sizes[16];
    unsigned int nseeds = 0;
    struct dirent *de;
    DIR *d = opendir(dir);

    if (d == NULL) {
        perror(dir);
        return 1;
    }
    while ((de = readdir(d)) != NULL && nseeds < 16) {
        char path[4096];
        FILE *f;

        if (de->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        f = fopen(path, "rb");
        if (f == NULL)
            continue;
        sizes[nseeds] = fread(buf, 1, sizeof buf, f);
        fclose(f);
        seeds[nseeds] = malloc(sizes[nseeds] + 1);
        memcpy(seeds[nseeds], buf, sizes[nseeds]);
        LLVMFuzzerTestOneInput(seeds[nseeds], sizes[nseeds]);
        nseeds++;
    }
    closedir(d);
    if (nseeds == 0) {
        fprintf(stderr, "usdt-fuzz: no seed in %s\n", dir);
        return 1;
    }
    state = env != NULL ? strtoull(env, NULL, 0) : (uint64_t)time(NULL);
    if (state == 0)
        state = 1;
    printf("usdt-fuzz: NOOSA_SEED=%llu\n", (unsigned long long)state);
    for (int i = 0; i < 20000; i++) {
        unsigned int s = (unsigned int)(next() % nseeds);
        size_t n = sizes[s];
        unsigned char *m = malloc(n + 1);
        int k = (int)(next() % 6);

        memcpy(m, seeds[s], n);
        for (int j = 0; j <= k && n > 0; j++) {
            size_t at = (size_t)(next() % n);

            switch (next() % 4) {
            case 0: /* a byte */
                m[at] = (unsigned char)next();
                break;
            case 1: /* cut */
                n = at;
                break;
            case 2: /* a word at a 4-byte boundary (the notes' sizes) */
                at &= ~(size_t)3;
                if (at + 4 <= n) {
                    uint32_t v = (uint32_t)(next() % 64);
                    memcpy(m + at, &v, 4);
                }
                break;
            default: /* a NUL or a space */
                m[at] = next() & 1 ? 0 : ' ';
                break;
            }
        }
        LLVMFuzzerTestOneInput(m, n);
        free(m);
    }
    for (unsigned int i = 0; i < nseeds; i++)
        free(seeds[i]);
    printf("usdt-fuzz: %u seeds, 20000 mutations\n", nseeds);
    return 0;
}
