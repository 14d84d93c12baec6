/* SPDX-License-Identifier: MIT */
/*
 * cct.h - the calling-context tree: every component stack seen so far,
 * as a node per distinct path (driver/parser/lexical is a child of
 * driver/parser), and the component names, interned.  Component stacks
 * (stacks.h) keep a node per frame, so a profile keys its counters by a
 * node number instead of a string, and the profiles of every thread
 * share the same numbering.
 *
 * Nodes and names are only ever added; their numbers stay valid until
 * cct_free().  A child's number is always larger than its parent's.
 * Nothing here prints or knows about events.
 */
#ifndef NOOSA_CCT_H
#define NOOSA_CCT_H

#include <stddef.h>
#include <stdint.h>

/* The root: the empty stack (top level).  Its name is name 0, "". */
#define CCT_ROOT 0u

struct cct;

struct cct *cct_create(void);
void cct_free(struct cct *c);

/* The number of the name S (LEN bytes; need not be NUL-terminated),
 * added when new. */
uint32_t cct_intern(struct cct *c, const char *s, size_t len);
/* The text of name NAME (NUL-terminated, owned by the tree). */
const char *cct_text(const struct cct *c, uint32_t name);
uint32_t cct_nnames(const struct cct *c);

/* The node for PARENT's path followed by NAME, added when new. */
uint32_t cct_child(struct cct *c, uint32_t parent, uint32_t name);
/* The child if it exists, else UINT32_MAX. */
uint32_t cct_find(const struct cct *c, uint32_t parent, uint32_t name);
uint32_t cct_parent(const struct cct *c, uint32_t node); /* root: root */
uint32_t cct_name(const struct cct *c, uint32_t node);
unsigned int cct_depth(const struct cct *c, uint32_t node); /* root: 0 */
uint32_t cct_nnodes(const struct cct *c);

/* The path of NODE, outermost first, names joined by SEP ("" for the
 * root).  The caller frees it. */
char *cct_path(const struct cct *c, uint32_t node, const char *sep);

#endif /* NOOSA_CCT_H */
