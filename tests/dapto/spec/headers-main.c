/* SPDX-License-Identifier: MIT */
/*
 * headers-main.c - runs the code generated from headers.dapto: three
 * aspects registered in order, one made only of a header line, and an
 * operation that needs its headers included in the order written.
 */
#include <string.h>

#include "headers_dapto.h"
#include "opcall.h"
#include "unit.h"

int main(void)
{
    struct opcall c;

    _dapto_first_event(1);
    _dapto_second_event(1, 2, 3);
    headers_dapto_emit_first_event(1);
    headers_dapto_emit_second_event(1, 2, 3);

    CHECK(strcmp(headers_dapto_aspect_first.name, "first") == 0);
    CHECK(strcmp(headers_dapto_aspect_only_headers.name, "only_headers") == 0);
    CHECK_EQ_INT(headers_dapto_aspect_only_headers.nevents, 0);
    CHECK_EQ_INT(headers_dapto_aspect_only_headers.nops, 0);
    CHECK(headers_dapto_aspect_second.events[0].state == &headers_dapto_state[1]);
    CHECK(strcmp(headers_dapto_aspect_second.events[0].params[0].name, "event") == 0);
    /* registered in order: each aspect's events follow the previous ones */
    CHECK(headers_dapto_aspect_first.event_base >= DAPTO_EV_BUILTINS);
    CHECK_EQ_INT(headers_dapto_aspect_second.event_base,
                 headers_dapto_aspect_first.event_base + 1);

    opcall_begin(&c);
    CHECK_EQ_INT(opcall_run(&c, &headers_dapto_aspect_second, "headers_order"), 0);
    CHECK_EQ_INT(dapto_get_int(&c.results), 42);
    return unit_done("headers");
}
