/* SPDX-License-Identifier: MIT */
/*
 * registry.h - the monitoring interfaces a program has described: its
 * aspects, their events (by code and by name) and operations.  Built from
 * the aspect descriptions the program posts <protocol#iface>, which are
 * validated here like any other input from the program.  The registry owns
 * every string in it; pointers to aspects, events and operations stay
 * valid until registry_free().
 */
#ifndef NOOSA_REGISTRY_H
#define NOOSA_REGISTRY_H

#include <stddef.h>
#include <stdint.h>

struct registry_aspect;

struct registry_param {
    char *name;
    char *type;         /* as written in the specification */
    unsigned char kind; /* enum dapto_kind; DAPTO_K_USER for user types */
    char *doc;
};

struct registry_event {
    unsigned int code;
    char *name;
    char *doc;
    int visible;
    uint64_t state_addr; /* the state byte in the program */
    unsigned char state; /* last state written there (owned by channel) */
    unsigned int nparams;
    struct registry_param *params;
    struct registry_aspect *aspect;
    int scalar;          /* every parameter int, long, double or ptr */
    uint32_t scalar_len; /* then the bytes of its tagged values */
    /* A probe's event <design#probes> that enters or leaves a component
     * (REGISTRY_ROLE_*), named by FORMAT with %{ARG} for its arguments'
     * values: the profiles take it as enter or leave.  0 and NULL for
     * the others. */
    unsigned char role;
    char *role_format;
};

#define REGISTRY_ROLE_ENTER 1
#define REGISTRY_ROLE_LEAVE 2

struct registry_op {
    unsigned int code;
    char *name;
    char *doc;
    char *result_type;         /* "" when the operation returns nothing */
    unsigned char result_kind; /* 0 when none */
    unsigned int nparams;
    struct registry_param *params;
    struct registry_aspect *aspect;
};

struct registry_aspect {
    unsigned int index; /* 1 for the first aspect registered, ... */
    char *name;
    char *file;
    unsigned int abi;
    unsigned int event_base;
    unsigned int nevents;
    unsigned int op_base;
    unsigned int nops;
    struct registry_event *events;
    struct registry_op *ops;
    unsigned char *desc;  /* the description as posted (for recordings) */
    size_t desc_len;
};

struct registry;

struct registry *registry_create(void);
void registry_free(struct registry *reg);

/* Parse the description in BUF (LEN bytes, untrusted) and add the aspect.
 * Returns the aspect, or NULL with *cause when the description is bad or
 * clashes with an aspect already there (the registry is unchanged then). */
struct registry_aspect *registry_add(struct registry *reg, const void *buf,
                                     size_t len, char **cause);

unsigned int registry_naspects(const struct registry *reg);
struct registry_aspect *registry_aspect_at(const struct registry *reg,
                                           unsigned int i);
struct registry_aspect *registry_aspect_by_name(const struct registry *reg,
                                                const char *name);

/* Events by code (NULL when no aspect declares it) and by name: NAME or
 * ASPECT.NAME; the first aspect registered wins a plain name. */
struct registry_event *registry_event(const struct registry *reg,
                                      unsigned int code);
struct registry_event *registry_event_by_name(const struct registry *reg,
                                              const char *name);
unsigned int registry_event_limit(const struct registry *reg);
/* Whether NAME (NAME or ASPECT.NAME) names event EV. */
int registry_event_named(const struct registry_event *ev, const char *name);

/* Rename parameter P (a probe's, as hints say) and give it the type
 * name TYPE and KIND. */
void registry_param_set(struct registry_param *p, const char *name,
                        const char *type, unsigned char kind);
/* Work out again what EV's parameters' kinds make of it (scalar). */
void registry_event_kinds(struct registry_event *ev);
/* Give event EV a role (REGISTRY_ROLE_*, 0 none) and its FORMAT. */
void registry_event_role(struct registry_event *ev, int role,
                         const char *format);

struct registry_op *registry_op(const struct registry *reg, unsigned int code);
struct registry_op *registry_op_by_name(const struct registry *reg,
                                        const char *name);

#endif /* NOOSA_REGISTRY_H */
