/* SPDX-License-Identifier: MIT */
/*
 * my-spec-main.c - a specification file named my-spec.dapto: the files
 * are my-spec_dapto.*, the C names start with my_spec_dapto_.
 */
#include <string.h>

#include "my-spec_dapto.h"
#include "unit.h"

int main(void)
{
    _dapto_renamed("nothing");
    my_spec_dapto_emit_renamed("something");
    CHECK(my_spec_dapto_state[0] == 0);
    CHECK(strcmp(my_spec_dapto_aspect_named.events[0].name, "renamed") == 0);
    CHECK(my_spec_dapto_aspect_named.event_base >= DAPTO_EV_BUILTINS);
    return unit_done("my-spec");
}
