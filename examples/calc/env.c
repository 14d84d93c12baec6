/* SPDX-License-Identifier: MIT */
/*
 * env.c - scoped environments, component "environment".  Environments and
 * bindings come from pools and are released together by env_free().
 */
#include "env.h"
#include "pool.h"

#ifdef MONITOR
#include "env_dapto.h"
#endif

/* Environments and bindings; set up on first use, emptied by env_free(). */
static struct pool env_pool, env_binding_pool;
static int env_pools_ready;
/* The environment of the program's top-level definitions. */
static Environment env_top;

/* A new, empty environment inside PARENT (NULL for an outermost one). */
Environment env_new(Environment parent)
{
    Environment e;

#ifdef MONITOR
    _dapto_enter("environment");
#endif
    if (!env_pools_ready) {
        pool_init(&env_pool, sizeof(struct env));
        pool_init(&env_binding_pool, sizeof(struct binding));
        env_pools_ready = 1;
    }
    e = pool_alloc(&env_pool);
    e->parent = parent;
#ifdef MONITOR
    _dapto_env_created(e, parent);
    _dapto_leave("environment");
#endif
    return e;
}

/* Bind IDN to V in ENV, made by the construct WHERE.  A new binding of an
 * idn already bound in ENV hides the old one. */
struct binding *env_bind(Environment env, int idn, Value v, Node where)
{
    struct binding *b;

#ifdef MONITOR
    _dapto_enter("environment");
#endif
    b = pool_alloc(&env_binding_pool);
    b->idn = idn;
    b->value = v;
    b->where = where;
    if (env->last != NULL)
        env->last->next = b;
    else
        env->first = b;
    env->last = b;
#ifdef MONITOR
    _dapto_binding_made(env, idn, v);
    _dapto_leave("environment");
#endif
    return b;
}

/* The newest binding of IDN in ENV itself (not its parents), or NULL. */
struct binding *env_find_here(Environment env, int idn)
{
    struct binding *b, *found = NULL;

    for (b = env->first; b != NULL; b = b->next) {
        if (b->idn == idn)
            found = b;
    }
    return found;
}

/* The value of IDN in ENV or the nearest parent that binds it, or NULL.
 * Emits no event, so operations may use it. */
Value env_resolve(Environment env, int idn)
{
    struct binding *b;

    for (; env != NULL; env = env->parent) {
        b = env_find_here(env, idn);
        if (b != NULL)
            return b->value;
    }
    return NULL;
}

/* As env_resolve(), as part of component "environment". */
Value env_lookup(Environment env, int idn)
{
    Value v;

#ifdef MONITOR
    _dapto_enter("environment");
#endif
    v = env_resolve(env, idn);
#ifdef MONITOR
    _dapto_leave("environment");
#endif
    return v;
}

/* Whether P is the address of an environment. */
int env_is_env(const void *p)
{
    return env_pools_ready && pool_owns(&env_pool, p);
}

void env_set_global(Environment env)
{
    env_top = env;
}

/* The environment of top-level definitions, or NULL before evaluation. */
Environment env_global(void)
{
    return env_top;
}

/* Release every environment and binding. */
void env_free(void)
{
    if (env_pools_ready) {
        pool_free(&env_pool);
        pool_free(&env_binding_pool);
    }
    env_top = NULL;
}
