/* SPDX-License-Identifier: MIT */
/*
 * cct.c - the calling-context tree.  See cct.h.
 *
 * Names and nodes live in plain arrays indexed by their numbers; two
 * open-addressing hash tables (of numbers, linear probing, at most half
 * full) find a name by its text and a node by (parent, name).  Lookups
 * happen for every enter and leave the monitor sees, so they must be a
 * hash and a probe or two.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cct.h"
#include "xmalloc.h"

#define CCT_EMPTY UINT32_MAX

struct cct_name {
    char *text;
    size_t len;
    uint64_t hash;
};

struct cct_node {
    uint32_t parent;
    uint32_t name;
    uint32_t depth;
    /* the child last found or made, by name: a recursion, a loop calling
     * the same function, finds it without hashing */
    uint32_t memo_name;
    uint32_t memo_child;
};

struct cct {
    struct cct_name *names;
    size_t nnames, names_cap;
    uint32_t *name_slots; /* name numbers by text hash */
    size_t name_mask;

    struct cct_node *nodes;
    size_t nnodes, nodes_cap;
    uint32_t *node_slots; /* node numbers by (parent, name) */
    size_t node_mask;
};

static uint64_t hash_text(const char *s, size_t len)
{
    uint64_t h = 0xcbf29ce484222325u; /* FNV-1a */
    size_t i;

    for (i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 0x100000001b3u;
    }
    return h;
}

static uint64_t hash_pair(uint32_t parent, uint32_t name)
{
    uint64_t h = ((uint64_t)parent << 32) | name;

    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdu;
    h ^= h >> 33;
    return h;
}

static uint32_t *slots_new(size_t n)
{
    uint32_t *s = xreallocarray(NULL, n, sizeof *s);

    memset(s, 0xff, n * sizeof *s);
    return s;
}

struct cct *cct_create(void)
{
    struct cct *c = xcalloc(1, sizeof *c);

    c->name_mask = 63;
    c->name_slots = slots_new(c->name_mask + 1);
    c->node_mask = 255;
    c->node_slots = slots_new(c->node_mask + 1);
    cct_intern(c, "", 0);
    c->nodes = xgrow(c->nodes, 0, &c->nodes_cap, sizeof *c->nodes);
    c->nodes[0].parent = CCT_ROOT;
    c->nodes[0].name = 0;
    c->nodes[0].depth = 0;
    c->nodes[0].memo_name = CCT_EMPTY;
    c->nnodes = 1;
    return c;
}

void cct_free(struct cct *c)
{
    size_t i;

    if (c == NULL)
        return;
    for (i = 0; i < c->nnames; i++)
        free(c->names[i].text);
    free(c->names);
    free(c->name_slots);
    free(c->nodes);
    free(c->node_slots);
    free(c);
}

static void names_rehash(struct cct *c)
{
    size_t mask = c->name_mask * 2 + 1, i, j;

    free(c->name_slots);
    c->name_slots = slots_new(mask + 1);
    c->name_mask = mask;
    for (i = 0; i < c->nnames; i++) {
        for (j = c->names[i].hash & mask; c->name_slots[j] != CCT_EMPTY;
             j = (j + 1) & mask)
            ;
        c->name_slots[j] = (uint32_t)i;
    }
}

uint32_t cct_intern(struct cct *c, const char *s, size_t len)
{
    uint64_t h = hash_text(s, len);
    size_t j;
    uint32_t id;

    for (j = h & c->name_mask; (id = c->name_slots[j]) != CCT_EMPTY;
         j = (j + 1) & c->name_mask) {
        const struct cct_name *n = &c->names[id];

        if (n->hash == h && n->len == len && memcmp(n->text, s, len) == 0)
            return id;
    }
    c->names = xgrow(c->names, c->nnames, &c->names_cap, sizeof *c->names);
    id = (uint32_t)c->nnames++;
    c->names[id].text = xstrndup(s, len);
    c->names[id].len = len;
    c->names[id].hash = h;
    c->name_slots[j] = id;
    if (c->nnames * 2 > c->name_mask)
        names_rehash(c);
    return id;
}

const char *cct_text(const struct cct *c, uint32_t name)
{
    return name < c->nnames ? c->names[name].text : "";
}

uint32_t cct_nnames(const struct cct *c)
{
    return (uint32_t)c->nnames;
}

static void nodes_rehash(struct cct *c)
{
    size_t mask = c->node_mask * 2 + 1, i, j;

    free(c->node_slots);
    c->node_slots = slots_new(mask + 1);
    c->node_mask = mask;
    for (i = 1; i < c->nnodes; i++) {
        for (j = hash_pair(c->nodes[i].parent, c->nodes[i].name) & mask;
             c->node_slots[j] != CCT_EMPTY; j = (j + 1) & mask)
            ;
        c->node_slots[j] = (uint32_t)i;
    }
}

/* The slot where (PARENT, NAME) is or would go. */
static size_t node_slot(const struct cct *c, uint32_t parent, uint32_t name)
{
    size_t j;
    uint32_t id;

    for (j = hash_pair(parent, name) & c->node_mask;
         (id = c->node_slots[j]) != CCT_EMPTY; j = (j + 1) & c->node_mask) {
        if (c->nodes[id].parent == parent && c->nodes[id].name == name)
            break;
    }
    return j;
}

uint32_t cct_find(const struct cct *c, uint32_t parent, uint32_t name)
{
    return c->node_slots[node_slot(c, parent, name)];
}

uint32_t cct_child(struct cct *c, uint32_t parent, uint32_t name)
{
    size_t j;
    uint32_t id;

    if (c->nodes[parent].memo_name == name)
        return c->nodes[parent].memo_child;
    j = node_slot(c, parent, name);
    id = c->node_slots[j];
    if (id == CCT_EMPTY) {
        c->nodes = xgrow(c->nodes, c->nnodes, &c->nodes_cap,
                         sizeof *c->nodes);
        id = (uint32_t)c->nnodes++;
        c->nodes[id].parent = parent;
        c->nodes[id].name = name;
        c->nodes[id].depth = c->nodes[parent].depth + 1;
        c->nodes[id].memo_name = CCT_EMPTY;
        c->node_slots[j] = id;
        if (c->nnodes * 2 > c->node_mask)
            nodes_rehash(c);
    }
    c->nodes[parent].memo_name = name;
    c->nodes[parent].memo_child = id;
    return id;
}

uint32_t cct_parent(const struct cct *c, uint32_t node)
{
    return node < c->nnodes ? c->nodes[node].parent : CCT_ROOT;
}

uint32_t cct_name(const struct cct *c, uint32_t node)
{
    return node < c->nnodes ? c->nodes[node].name : 0;
}

unsigned int cct_depth(const struct cct *c, uint32_t node)
{
    return node < c->nnodes ? c->nodes[node].depth : 0;
}

uint32_t cct_nnodes(const struct cct *c)
{
    return (uint32_t)c->nnodes;
}

char *cct_path(const struct cct *c, uint32_t node, const char *sep)
{
    size_t len = 0, seplen = strlen(sep), pos;
    uint32_t n;
    char *s;

    if (node >= c->nnodes)
        node = CCT_ROOT;
    for (n = node; n != CCT_ROOT; n = c->nodes[n].parent)
        len += c->names[c->nodes[n].name].len + seplen;
    s = xmalloc(len + 1);
    pos = len >= seplen ? len - seplen : 0;
    s[pos] = '\0';
    for (n = node; n != CCT_ROOT; n = c->nodes[n].parent) {
        const struct cct_name *nm = &c->names[c->nodes[n].name];

        pos -= nm->len;
        memcpy(s + pos, nm->text, nm->len);
        if (pos >= seplen) {
            pos -= seplen;
            memcpy(s + pos, sep, seplen);
        }
    }
    return s;
}
