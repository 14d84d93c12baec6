/* SPDX-License-Identifier: MIT */
/*
 * noevents-main.c - a specification without events: no state array, and
 * the operation still runs.
 */
#include "noevents_dapto.h"
#include "opcall.h"
#include "unit.h"

int main(void)
{
    struct opcall c;

    CHECK_EQ_INT(noevents_dapto_aspect_quiet.nevents, 0);
    opcall_begin(&c);
    CHECK_EQ_INT(opcall_run(&c, &noevents_dapto_aspect_quiet, "answer"), 0);
    CHECK_EQ_INT(dapto_get_int(&c.results), 42);
    return unit_done("noevents");
}
