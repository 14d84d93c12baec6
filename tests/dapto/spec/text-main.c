/* SPDX-License-Identifier: MIT */
/*
 * text-main.c - runs the operations of text.dapto, whose bodies hide
 * braces in strings, characters and comments: each must have been copied
 * whole, or it would not compile or would give other results.
 */
#include <string.h>

#include "text_dapto.h"
#include "opcall.h"
#include "unit.h"

int main(void)
{
    const struct dapto_aspect *a = &text_dapto_aspect_text;
    struct opcall c;

    CHECK_EQ_INT(a->nevents, 0);
    CHECK(a->events == NULL);

    opcall_begin(&c);
    CHECK_EQ_INT(opcall_run(&c, a, "braces"), 0);
    CHECK(strcmp(dapto_get_str(&c.results), "}{ \"}\" '{") == 0);
    CHECK_EQ_INT(dapto_get_int(&c.results), '}');
    CHECK_EQ_INT(dapto_get_int(&c.results), '{');
    CHECK_EQ_INT(dapto_get_int(&c.results), '\'');
    CHECK_EQ_INT(dapto_get_int(&c.results), '"');
    CHECK_EQ_INT(dapto_get_int(&c.results), 3);

    opcall_begin(&c);
    CHECK_EQ_INT(opcall_run(&c, a, "directives"), 0);
    CHECK_EQ_INT(dapto_get_int(&c.results), 42);

    opcall_begin(&c);
    CHECK_EQ_INT(opcall_run(&c, a, "escapes"), 0);
    CHECK_EQ_INT(dapto_get_int(&c.results), 1 + 3 + 19 + '\\');

    opcall_begin(&c);
    CHECK_EQ_INT(opcall_run(&c, a, "inline_body"), 0);
    CHECK_EQ_INT(dapto_get_int(&c.results), 7);

    opcall_begin(&c);
    dapto_put_int(&c.args, 5);
    CHECK_EQ_INT(opcall_run(&c, a, "nested"), 0);
    CHECK_EQ_INT(dapto_get_int(&c.results), 5);
    return unit_done("text");
}
