/* SPDX-License-Identifier: MIT */
/*
 * cexpr-seeds.c - the fuzz harness of print's expressions
 * (fuzz/cexpr.c) run without libFuzzer: over each of its seeds, then over
 * mutations of them (bytes changed, cut, doubled, a run of an operator
 * or a parenthesis inserted) drawn from a seed that is printed and taken
 * back from NOOSA_SEED, so that the lexer, the parser, the evaluator and
 * the printer meet hostile text in every `make check` and under the
 * sanitizers.
 */
#include "config.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MUTATIONS 20000

static uint64_t state;

static uint64_t next(void)
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
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
    static const char *const inserts[] = {
        "(", ")", "[", "]", "*", "&", "->", ".", "@", "{int}", "(char *)",
        "sizeof ", "'", "\"", "$", "$$", "0x", "1e", "?", ":", "<<", "~",
        "(struct x *)", ",", "-", "!", "%", "/0", "9999999999999999999999"};
    const char *env = getenv("NOOSA_SEED");
    char dir[4096], path[8192];
    unsigned char **seeds = NULL;
    size_t *lens = NULL, n = 0, i;
    struct dirent *e;
    DIR *d;

    snprintf(dir, sizeof dir, "%s/fuzz/seeds/cexpr", NOOSA_SRCDIR);
    d = opendir(dir);
    if (d == NULL) {
        fprintf(stderr, "cexpr-seeds: no %s\n", dir);
        return 1;
    }
    while ((e = readdir(d)) != NULL) {
        size_t len;
        unsigned char *buf;

        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        buf = slurp(path, &len);
        if (buf == NULL)
            continue;
        seeds = realloc(seeds, (n + 1) * sizeof *seeds);
        lens = realloc(lens, (n + 1) * sizeof *lens);
        seeds[n] = buf;
        lens[n++] = len;
        LLVMFuzzerTestOneInput(buf, len);
    }
    closedir(d);
    if (n < 100) {
        fprintf(stderr, "cexpr-seeds: only %zu seeds in %s\n", n, dir);
        return 1;
    }
    state = env != NULL ? strtoull(env, NULL, 0) : (uint64_t)time(NULL);
    if (state == 0)
        state = 1;
    printf("cexpr-seeds: %zu seeds, %d mutations, NOOSA_SEED=%llu\n", n,
           MUTATIONS, (unsigned long long)state);
    fflush(stdout);
    for (i = 0; i < MUTATIONS; i++) {
        size_t k = next() % n, len = lens[k], at;
        unsigned char *m = malloc(len * 2 + 64);
        const char *ins;

        memcpy(m, seeds[k], len);
        switch (next() % 4) {
        case 0: /* a byte changed */
            if (len > 0)
                m[next() % len] = (unsigned char)next();
            break;
        case 1: /* cut */
            if (len > 0)
                len = next() % len;
            break;
        case 2: /* doubled */
            memcpy(m + len, m, len);
            len *= 2;
            break;
        default: /* an operator or a bracket inserted */
            ins = inserts[next() % (sizeof inserts / sizeof inserts[0])];
            at = len > 0 ? next() % (len + 1) : 0;
            memmove(m + at + strlen(ins), m + at, len - at);
            memcpy(m + at, ins, strlen(ins));
            len += strlen(ins);
            break;
        }
        LLVMFuzzerTestOneInput(m, len);
        free(m);
    }
    for (i = 0; i < n; i++)
        free(seeds[i]);
    free(seeds);
    free(lens);
    printf("cexpr-seeds: ok\n");
    return 0;
}
