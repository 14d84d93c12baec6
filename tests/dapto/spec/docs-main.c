/* SPDX-License-Identifier: MIT */
/*
 * docs-main.c - the documentation strings of docs.dapto reach the C
 * descriptions byte for byte (db.tcl checks the Tcl side).
 */
#include <string.h>

#include "docs_dapto.h"
#include "opcall.h"
#include "unit.h"

int main(void)
{
    const struct dapto_aspect *a = &docs_dapto_aspect_docs;
    const struct dapto_event *e = a->events;
    struct opcall c;

    _dapto_list("x", 1);
    _dapto_escapes(1, 2, 3, 4);
    docs_dapto_emit_list("x", 1);
    docs_dapto_emit_escapes(1, 2, 3, 4);

    CHECK(strcmp(e[0].doc, "Dollar $x and [set pwned 1] brackets") == 0);
    CHECK(strcmp(e[0].params[0].doc, "Braces { unbalanced } } and {") == 0);
    CHECK(strcmp(e[0].params[1].doc,
                 "Backslash \\ quote \" and a trailing backslash \\") == 0);
    CHECK(strcmp(e[1].doc, "Newline\nand\ttab and bell\a and CR\r and octal "
                 "AB and hex C") == 0);
    CHECK(strcmp(e[1].params[0].doc, "Trigraphs ?" "?= ?" "?/ ?" "?' and ?" "??") == 0);
    CHECK(strcmp(e[1].params[1].doc, "Comment */ close and /* open") == 0);
    CHECK(strcmp(e[1].params[2].doc,
                 "UTF-8: caf\xc3\xa9 \xe2\x98\x95 and Gr\xc3\xbc\xc3\x9f" "e") == 0);
    CHECK(strcmp(e[1].params[3].doc, "") == 0);
    CHECK(strcmp(a->ops[0].doc, "A doc that ends in a backslash\\") == 0);
    CHECK(strcmp(a->ops[0].params[0].doc, "{[$]}") == 0);

    opcall_begin(&c);
    dapto_put_str(&c.args, "{[$]}");
    CHECK_EQ_INT(opcall_run(&c, a, "brace_result"), 0);
    CHECK(strcmp(dapto_get_str(&c.results), "{[$]}") == 0);
    return unit_done("docs");
}
