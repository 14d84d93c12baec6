/* SPDX-License-Identifier: MIT */
/*
 * envmod-main.c - runs the code generated from envmod.dapto: user types
 * with DAPTO_RESULT/DAPTO_ARG macros travel as pointers, and
 * get_scope_info walks an environment's bindings.
 */
#include <string.h>

#include "envmod_dapto.h"
#include "opcall.h"
#include "unit.h"

struct DefTableKeyImpl {
    int unused;
};

int main(void)
{
    const struct dapto_aspect *a = &envmod_dapto_aspect_envmod;
    struct DefTableKeyImpl k1, k2;
    struct ScopeImpl s2 = { 7, &k2, NoScope };
    struct ScopeImpl s1 = { 5, &k1, &s2 };
    struct EnvImpl outer = { NULL, NoScope };
    struct EnvImpl inner = { &outer, &s1 };
    struct opcall c;

    _dapto_env_created(&inner, &outer);
    _dapto_binding_made(&inner, 5, &k1);
    envmod_dapto_emit_env_created(&inner, &outer);
    envmod_dapto_emit_binding_made(&inner, 7, &k2);

    CHECK(strcmp(a->name, "envmod") == 0);
    CHECK(a->event_base >= DAPTO_EV_BUILTINS);
    CHECK_EQ_INT(a->nevents, 2);
    CHECK(strcmp(a->events[1].name, "binding_made") == 0);
    CHECK(a->events[1].state == &envmod_dapto_state[1]);
    CHECK(strcmp(a->events[1].params[2].type, "DefTableKey") == 0);
    CHECK_EQ_INT(a->events[1].params[2].kind, DAPTO_K_USER);
    CHECK_EQ_INT(a->events[1].params[1].kind, DAPTO_K_INT);
    CHECK(strcmp(a->ops[0].params[0].type, "Environment") == 0);

    opcall_begin(&c);
    dapto_put_ptr(&c.args, &inner);
    CHECK_EQ_INT(opcall_run(&c, a, "get_scope_info"), 0);
    CHECK_EQ_INT(c.res.count, 5);
    CHECK(dapto_get_ptr(&c.results) == (void *)&outer);
    CHECK_EQ_INT(dapto_get_int(&c.results), 5);
    CHECK(dapto_get_ptr(&c.results) == (void *)&k1);
    CHECK_EQ_INT(dapto_get_int(&c.results), 7);
    CHECK(dapto_get_ptr(&c.results) == (void *)&k2);
    CHECK(!c.results.failed);

    opcall_begin(&c);
    dapto_put_ptr(&c.args, &outer);
    CHECK_EQ_INT(opcall_run(&c, a, "get_scope_info"), 0);
    CHECK_EQ_INT(c.res.count, 1);
    CHECK(dapto_get_ptr(&c.results) == NULL);
    return unit_done("envmod");
}
