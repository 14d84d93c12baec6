/* SPDX-License-Identifier: MIT */
/*
 * types-main.c - runs the code generated from types.dapto: every value
 * type through stubs, encoders and operations, results of every kind,
 * an operation without a result type, and DAPTO_RETURN.
 */
#include <string.h>

#include "types_dapto.h"
#include "opcall.h"
#include "unit.h"

struct point types_origin = { 0, 0 };
int types_counter;

int main(void)
{
    const struct dapto_aspect *a = &types_dapto_aspect_types;
    const struct dapto_event *ev = &a->events[0];
    struct point pt = { 3, 4 };
    int target = 42, i;
    struct opcall c;

    _dapto_all_types(1, 2L, 3.5, "four", &target, &pt);
    _dapto_nothing();
    _dapto_hidden(9);
    types_dapto_emit_all_types(1, 2L, 3.5, "four", &target, &pt);
    types_dapto_emit_nothing();
    types_dapto_emit_hidden(9);

    CHECK_EQ_INT(a->nevents, 4);
    CHECK_EQ_INT(a->nops, 9);
    CHECK_EQ_INT(ev->nparams, 6);
    CHECK_EQ_INT(ev->params[0].kind, DAPTO_K_INT);
    CHECK_EQ_INT(ev->params[1].kind, DAPTO_K_LONG);
    CHECK_EQ_INT(ev->params[2].kind, DAPTO_K_DOUBLE);
    CHECK_EQ_INT(ev->params[3].kind, DAPTO_K_STR);
    CHECK_EQ_INT(ev->params[4].kind, DAPTO_K_PTR);
    CHECK_EQ_INT(ev->params[5].kind, DAPTO_K_USER);
    CHECK(strcmp(ev->params[5].type, "Point") == 0);
    CHECK(strcmp(ev->params[2].type, "double") == 0);
    CHECK_EQ_INT(ev->visible, 1);
    CHECK_EQ_INT(a->events[1].nparams, 0);
    CHECK(a->events[1].params == NULL);
    CHECK_EQ_INT(a->events[2].visible, 0);
    CHECK(a->events[2].state == &types_dapto_state[2]);
    /* ptr<T>: a ptr to the program, its C type for noosa */
    CHECK_EQ_INT(a->events[3].params[0].kind, DAPTO_K_PTR);
    CHECK(strcmp(a->events[3].params[0].type, "ptr<struct point>") == 0);
    CHECK(strcmp(a->events[3].params[1].type, "ptr<const char *>") == 0);
    _dapto_typed(&pt, NULL);

    opcall_begin(&c);
    dapto_put_int(&c.args, 40);
    dapto_put_int(&c.args, 2);
    CHECK_EQ_INT(opcall_run(&c, a, "add_int"), 0);
    CHECK_EQ_INT(dapto_get_int(&c.results), 42);

    opcall_begin(&c);
    dapto_put_long(&c.args, 4000000000L);
    dapto_put_long(&c.args, 1L);
    CHECK_EQ_INT(opcall_run(&c, a, "add_long"), 0);
    CHECK_EQ_INT(dapto_get_long(&c.results), 4000000001L);
    CHECK_EQ_INT(opcall_find(a, "add_long")->result_kind, DAPTO_K_LONG);

    opcall_begin(&c);
    dapto_put_double(&c.args, 5.0);
    CHECK_EQ_INT(opcall_run(&c, a, "half"), 0);
    CHECK(dapto_get_double(&c.results) == 2.5);
    CHECK_EQ_INT(opcall_find(a, "half")->result_kind, DAPTO_K_DOUBLE);

    opcall_begin(&c);
    dapto_put_str(&c.args, "hello {}");
    CHECK_EQ_INT(opcall_run(&c, a, "echo"), 0);
    CHECK(strcmp(dapto_get_str(&c.results), "hello {}") == 0);

    opcall_begin(&c);
    dapto_put_ptr(&c.args, &target);
    CHECK_EQ_INT(opcall_run(&c, a, "deref"), 0);
    CHECK_EQ_INT(dapto_get_int(&c.results), 42);
    CHECK_EQ_INT(opcall_find(a, "deref")->params[0].kind, DAPTO_K_PTR);

    opcall_begin(&c);
    dapto_put_ptr(&c.args, &pt);
    CHECK_EQ_INT(opcall_run(&c, a, "point_sum"), 0);
    CHECK_EQ_INT(dapto_get_int(&c.results), 7);

    opcall_begin(&c);
    CHECK_EQ_INT(opcall_run(&c, a, "origin"), 0);
    CHECK(dapto_get_ptr(&c.results) == (void *)&types_origin);
    CHECK(strcmp(opcall_find(a, "origin")->result_type, "Point") == 0);
    CHECK_EQ_INT(opcall_find(a, "origin")->result_kind, DAPTO_K_USER);

    opcall_begin(&c);
    CHECK_EQ_INT(opcall_run(&c, a, "bump"), 0);
    CHECK_EQ_INT(opcall_run(&c, a, "bump"), 0);
    CHECK_EQ_INT(types_counter, 2);
    CHECK_EQ_INT(c.res.count, 0);
    CHECK(opcall_find(a, "bump")->result_type == NULL);

    /* count_to stops at 3 with DAPTO_RETURN; results so far are kept */
    opcall_begin(&c);
    dapto_put_int(&c.args, 10);
    CHECK_EQ_INT(opcall_run(&c, a, "count_to"), 0);
    CHECK_EQ_INT(c.res.count, 6);
    for (i = 1; i <= 3; i++) {
        CHECK_EQ_INT(dapto_get_int(&c.results), i);
        CHECK_EQ_INT(dapto_get_long(&c.results), i);
    }
    CHECK(!c.results.failed);

    /* a string where an int is declared is refused (numbers of other
     * kinds convert: the monitor checks declared kinds before sending) */
    opcall_begin(&c);
    dapto_put_str(&c.args, "1");
    dapto_put_int(&c.args, 2);
    CHECK_EQ_INT(opcall_run(&c, a, "add_int"), 1);
    return unit_done("types");
}
