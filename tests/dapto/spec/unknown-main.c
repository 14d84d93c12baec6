/* SPDX-License-Identifier: MIT */
/*
 * unknown-main.c - runs the code generated from unknown.dapto: a user
 * type without macros can still be an event parameter (sent as unknown),
 * but an operation taking it refuses to run and says why.
 */
#include <string.h>

#include "unknown_dapto.h"
#include "opcall.h"
#include "unit.h"

int main(void)
{
    const struct dapto_aspect *a = &unknown_dapto_aspect_unknown;
    Opaque o = { 1, "one" };
    struct opcall c;

    _dapto_opaque_seen(o, 2);
    unknown_dapto_emit_opaque_seen(o, 2);
    CHECK_EQ_INT(a->events[0].params[0].kind, DAPTO_K_USER);
    CHECK(strcmp(a->events[0].params[0].type, "Opaque") == 0);

    opcall_begin(&c);
    dapto_put_ptr(&c.args, &o);
    CHECK_EQ_INT(opcall_run(&c, a, "opaque_id"), 1);
    CHECK(strstr(c.req.message, "Opaque") != NULL);
    CHECK_EQ_INT(c.res.count, 0);

    opcall_begin(&c);
    CHECK_EQ_INT(opcall_run(&c, a, "opaque_make"), 0);
    CHECK_EQ_INT(c.res.count, 1);
    CHECK_EQ_INT(c.resbuf[0], DAPTO_K_UNKNOWN);
    return unit_done("unknown");
}
