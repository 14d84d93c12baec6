/* SPDX-License-Identifier: MIT */
/*
 * env.h - scoped environments, after Eli's envmod: an environment is a
 * list of bindings from idns to values with a parent; lookup goes outward
 * through the parents.  Environments and bindings live until env_free(),
 * so a monitor can browse any environment an event reported.
 */
#ifndef CALC_ENV_H
#define CALC_ENV_H

typedef struct env *Environment;
typedef struct value *Value;
typedef struct node *Node;

struct binding {
    int idn;
    Value value;
    Node where;            /* the construct that made the binding, or NULL */
    struct binding *next;  /* the next binding made in this environment */
};

struct env {
    Environment parent;    /* NULL for the outermost */
    struct binding *first; /* in the order they were made */
    struct binding *last;
};

Environment env_new(Environment parent);
struct binding *env_bind(Environment env, int idn, Value v, Node where);
struct binding *env_find_here(Environment env, int idn);
Value env_resolve(Environment env, int idn);
Value env_lookup(Environment env, int idn);
int env_is_env(const void *p);
void env_set_global(Environment env);
Environment env_global(void);
void env_free(void);

#ifdef MONITOR
#define DAPTO_RESULTEnvironment(e) DAPTO_RESULT_PTR(e)
#define DAPTO_ARGEnvironment(e) DAPTO_ARG_PTR(e, Environment)
#endif

#endif /* CALC_ENV_H */
