/* SPDX-License-Identifier: MIT */
/*
 * strtab.c - the string table: an array of stored strings indexed by idn,
 * and an open-addressing hash table from contents to idn.  Component
 * "string" for the profiles.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "strtab.h"
#include "xmalloc.h"

#ifdef MONITOR
#include "strtab_dapto.h"
#endif

struct strtab_entry {
    char *text; /* NUL-terminated copy; owned */
    size_t len;
};

/* The table; grows with strtab_add(), emptied by strtab_free(). */
static struct strtab_entry *strtab_entries;
static int strtab_used, strtab_cap;
static int *strtab_slots; /* hash slots: idn + 1, or 0 when empty */
static size_t strtab_nslots;

static uint32_t strtab_hash(const char *s, size_t len)
{
    uint32_t h = 2166136261u;
    size_t i;

    for (i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 16777619u;
    }
    return h;
}

/* The slot where S is, or the empty slot where it would go. */
static size_t strtab_slot(const char *s, size_t len)
{
    size_t i = strtab_hash(s, len) & (strtab_nslots - 1);

    for (;;) {
        int k = strtab_slots[i];

        if (k == 0)
            return i;
        if (strtab_entries[k - 1].len == len &&
            memcmp(strtab_entries[k - 1].text, s, len) == 0)
            return i;
        i = (i + 1) & (strtab_nslots - 1);
    }
}

static void strtab_rehash(void)
{
    size_t n = strtab_nslots == 0 ? 256 : strtab_nslots * 2;
    int i;

    free(strtab_slots);
    strtab_slots = xcalloc(n, sizeof *strtab_slots);
    strtab_nslots = n;
    for (i = 0; i < strtab_used; i++) {
        struct strtab_entry *e = &strtab_entries[i];

        strtab_slots[strtab_slot(e->text, e->len)] = i + 1;
    }
}

/* The idn of the LEN bytes at S, storing a copy if they are new. */
int strtab_add(const char *s, size_t len)
{
    size_t slot;
    int idn;

#ifdef MONITOR
    _dapto_enter("string");
#endif
    if ((size_t)strtab_used * 2 >= strtab_nslots)
        strtab_rehash();
    slot = strtab_slot(s, len);
    if (strtab_slots[slot] != 0) {
        idn = strtab_slots[slot] - 1;
    } else {
        if (strtab_used == strtab_cap) {
            strtab_cap = strtab_cap == 0 ? 64 : strtab_cap * 2;
            strtab_entries = xrealloc(strtab_entries,
                                      (size_t)strtab_cap * sizeof *strtab_entries);
        }
        idn = strtab_used++;
        strtab_entries[idn].text = xstrndup(s, len);
        strtab_entries[idn].len = len;
        strtab_slots[slot] = idn + 1;
#ifdef MONITOR
        _dapto_string_stored(idn, strtab_entries[idn].text);
#endif
    }
#ifdef MONITOR
    _dapto_leave("string");
#endif
    return idn;
}

/* The idn of the LEN bytes at S, or -1 when they were never stored. */
int strtab_find(const char *s, size_t len)
{
    int k;

    if (strtab_nslots == 0)
        return -1;
    k = strtab_slots[strtab_slot(s, len)];
    return k - 1;
}

/* The string stored at IDN, or NULL when there is none. */
const char *strtab_get(int idn)
{
    if (idn < 0 || idn >= strtab_used)
        return NULL;
    return strtab_entries[idn].text;
}

/* The length of the string at IDN (0 when there is none). */
size_t strtab_length(int idn)
{
    if (idn < 0 || idn >= strtab_used)
        return 0;
    return strtab_entries[idn].len;
}

int strtab_count(void)
{
    return strtab_used;
}

/* Forget every string; the table can be used again afterwards. */
void strtab_free(void)
{
    int i;

    for (i = 0; i < strtab_used; i++)
        free(strtab_entries[i].text);
    free(strtab_entries);
    free(strtab_slots);
    strtab_entries = NULL;
    strtab_slots = NULL;
    strtab_used = strtab_cap = 0;
    strtab_nslots = 0;
}
