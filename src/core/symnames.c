/* SPDX-License-Identifier: MIT */
/*
 * symnames.c - function names by address for a run.  See symnames.h.
 *
 * The program's mappings are read when a run starts (at its hello, when
 * the program is sure to be alive: it waits for the monitor to
 * acknowledge its interface), so that records read after the program has
 * ended can still be named; the symbol tables themselves are read from
 * the files when first needed.  The mappings are read again when an
 * address falls outside every module (a library loaded since), which
 * works only while the program lives.  Each address is
 * looked up once; its name is kept with a flag that says whether the
 * exclusion patterns, as they were last changed, exclude it.
 */
#include "config.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "symbols.h"
#include "symnames.h"
#include "xmalloc.h"

struct entry {
    uint64_t addr;
    char *name; /* NULL: empty slot */
    size_t len;
    unsigned int gen; /* generation of the patterns EXCLUDED is for */
    int excluded;
};

struct symnames {
    pid_t pid;
    struct symbols *syms;
    int open_failed;

    struct entry *slots;
    size_t mask, n;

    char **patterns;
    unsigned int npatterns;
    unsigned int gen; /* bumped when the patterns change */
    uint64_t stamp;   /* bumped at resets and when the patterns change */
};

static size_t hash_addr(uint64_t x)
{
    x ^= x >> 31;
    x *= 0x9e3779b97f4a7c15u;
    x ^= x >> 29;
    return (size_t)x;
}

static void entries_clear(struct symnames *sn)
{
    size_t i;

    for (i = 0; sn->slots != NULL && i <= sn->mask; i++)
        free(sn->slots[i].name);
    free(sn->slots);
    sn->mask = 255;
    sn->slots = xcalloc(sn->mask + 1, sizeof *sn->slots);
    sn->n = 0;
}

struct symnames *symnames_create(void)
{
    struct symnames *sn = xcalloc(1, sizeof *sn);

    entries_clear(sn);
    sn->gen = 1;
    return sn;
}

void symnames_free(struct symnames *sn)
{
    unsigned int i;

    if (sn == NULL)
        return;
    symbols_free(sn->syms);
    for (i = 0; i <= sn->mask; i++)
        free(sn->slots[i].name);
    free(sn->slots);
    for (i = 0; i < sn->npatterns; i++)
        free(sn->patterns[i]);
    free(sn->patterns);
    free(sn);
}

void symnames_reset(struct symnames *sn, pid_t pid)
{
    symbols_free(sn->syms);
    sn->syms = NULL;
    sn->open_failed = 0;
    sn->pid = pid;
    sn->stamp++;
    entries_clear(sn);
    if (pid > 0) {
        sn->syms = symbols_open(pid, NULL);
        sn->open_failed = sn->syms == NULL;
    }
}

/* Look ADDR up in the program's symbols: a new string. */
static char *resolve(struct symnames *sn, uint64_t addr)
{
    struct symbols_info info;

    if (sn->syms == NULL && !sn->open_failed && sn->pid > 0) {
        sn->syms = symbols_open(sn->pid, NULL);
        sn->open_failed = sn->syms == NULL;
    }
    if (sn->syms != NULL) {
        if (symbols_lookup(sn->syms, addr, &info) != 0 && sn->pid > 0) {
            /* maybe a library loaded since: read the mappings again, into
             * a new object (refreshing in place would lose every module
             * if the program has ended meanwhile) */
            struct symbols *fresh = symbols_open(sn->pid, NULL);

            if (fresh != NULL) {
                symbols_free(sn->syms);
                sn->syms = fresh;
            }
            if (symbols_lookup(sn->syms, addr, &info) != 0)
                info.function = NULL;
        }
        if (info.function != NULL) {
            if (info.offset == 0)
                return xstrdup(info.function);
            return xasprintf("%s+0x%llx", info.function,
                             (unsigned long long)info.offset);
        }
    }
    return xasprintf("0x%llx", (unsigned long long)addr);
}

static int excluded(const struct symnames *sn, const char *name)
{
    unsigned int i;

    for (i = 0; i < sn->npatterns; i++) {
        if (fnmatch(sn->patterns[i], name, 0) == 0)
            return 1;
    }
    return 0;
}

static void grow(struct symnames *sn)
{
    struct entry *old = sn->slots;
    size_t oldn = sn->mask + 1, i, j;

    sn->mask = sn->mask * 2 + 1;
    sn->slots = xcalloc(sn->mask + 1, sizeof *sn->slots);
    for (i = 0; i < oldn; i++) {
        if (old[i].name == NULL)
            continue;
        for (j = hash_addr(old[i].addr) & sn->mask; sn->slots[j].name != NULL;
             j = (j + 1) & sn->mask)
            ;
        sn->slots[j] = old[i];
    }
    free(old);
}

const char *symnames_name(struct symnames *sn, uint64_t addr, size_t *len)
{
    struct entry *e;
    size_t j;

    for (j = hash_addr(addr) & sn->mask; sn->slots[j].name != NULL;
         j = (j + 1) & sn->mask) {
        if (sn->slots[j].addr == addr)
            break;
    }
    e = &sn->slots[j];
    if (e->name == NULL) {
        if ((sn->n + 1) * 2 > sn->mask) {
            grow(sn);
            return symnames_name(sn, addr, len);
        }
        e->addr = addr;
        e->name = resolve(sn, addr);
        e->len = strlen(e->name);
        e->gen = 0;
        sn->n++;
    }
    if (e->gen != sn->gen) {
        e->excluded = excluded(sn, e->name);
        e->gen = sn->gen;
    }
    if (e->excluded)
        return NULL;
    *len = e->len;
    return e->name;
}

int symnames_exclude(struct symnames *sn, const char *pattern, int add)
{
    unsigned int i;

    for (i = 0; i < sn->npatterns; i++) {
        if (strcmp(sn->patterns[i], pattern) == 0)
            break;
    }
    if (add) {
        if (i == sn->npatterns) {
            sn->patterns = xreallocarray(sn->patterns, sn->npatterns + 1,
                                         sizeof *sn->patterns);
            sn->patterns[sn->npatterns++] = xstrdup(pattern);
        }
    } else {
        if (i == sn->npatterns)
            return -1;
        free(sn->patterns[i]);
        memmove(&sn->patterns[i], &sn->patterns[i + 1],
                (sn->npatterns - i - 1) * sizeof *sn->patterns);
        sn->npatterns--;
    }
    sn->gen++;
    sn->stamp++;
    return 0;
}

uint64_t symnames_stamp(const struct symnames *sn)
{
    return sn->stamp;
}

unsigned int symnames_npatterns(const struct symnames *sn)
{
    return sn->npatterns;
}

const char *symnames_pattern(const struct symnames *sn, unsigned int i)
{
    return i < sn->npatterns ? sn->patterns[i] : NULL;
}

size_t symnames_count(const struct symnames *sn, size_t *nexcluded)
{
    size_t i, x = 0;

    for (i = 0; i <= sn->mask; i++) {
        if (sn->slots[i].name != NULL && sn->slots[i].gen == sn->gen &&
            sn->slots[i].excluded)
            x++;
    }
    if (nexcluded != NULL)
        *nexcluded = x;
    return sn->n;
}
