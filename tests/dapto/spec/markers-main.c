/* SPDX-License-Identifier: MIT */
/*
 * markers-main.c - runs the code generated from markers.dapto, which is
 * cpp output: the aspects carry the files the markers named, and __LINE__
 * inside the bodies is what the markers said.
 */
#include <string.h>

#include "markers_dapto.h"
#include "opcall.h"
#include "unit.h"

int main(void)
{
    struct opcall c;

    _dapto_from_header(1);
    markers_dapto_emit_from_header(1);
    CHECK(strcmp(markers_dapto_aspect_marked.file, "markers.src") == 0);
    CHECK(strcmp(markers_dapto_aspect_elsewhere.file, "other.dapto") == 0);

    opcall_begin(&c);
    CHECK_EQ_INT(opcall_run(&c, &markers_dapto_aspect_marked, "where"), 0);
    CHECK_EQ_INT(dapto_get_int(&c.results), 40);
    CHECK_EQ_INT(dapto_get_int(&c.results), 50);

    opcall_begin(&c);
    CHECK_EQ_INT(opcall_run(&c, &markers_dapto_aspect_elsewhere, "where_else"), 0);
    CHECK_EQ_INT(dapto_get_int(&c.results), 103);
    return unit_done("markers");
}
