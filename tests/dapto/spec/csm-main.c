/* SPDX-License-Identifier: MIT */
/*
 * csm-main.c - runs the code generated from csm.dapto: calls the stub with
 * its event off, calls the encoder, checks the description the runtime
 * received, and runs both operations on a small string table.
 */
#include <stdlib.h>
#include <string.h>

#include "csm_dapto.h"
#include "opcall.h"
#include "unit.h"

int numstr = 3;
char *string[3];

static char *copy(const char *s)
{
    char *p = (char *)malloc(strlen(s) + 1);

    if (p != NULL)
        strcpy(p, s);
    return p;
}

int main(void)
{
    const struct dapto_aspect *a = &csm_dapto_aspect_string;
    const struct dapto_event *ev = &a->events[0];
    struct opcall c;
    int i;

    string[0] = copy("alpha");
    string[1] = copy("beta");
    string[2] = NULL;

    /* With no monitor the event is off: the stub does nothing. */
    CHECK(csm_dapto_state[0] == DAPTO_STATE_OFF);
    _dapto_string_stored(0, string[0]);
    csm_dapto_emit_string_stored(1, string[1]);

    /* The description, registered by the constructor. */
    CHECK(a->abi == DAPTO_ABI_VERSION);
    CHECK(strcmp(a->name, "string") == 0);
    CHECK(strcmp(a->file, "csm.dapto") == 0);
    CHECK(a->event_base >= DAPTO_EV_BUILTINS);
    CHECK_EQ_INT(a->nevents, 1);
    CHECK_EQ_INT(a->nops, 2);
    CHECK(strcmp(ev->name, "string_stored") == 0);
    CHECK(strcmp(ev->doc, "Storage of a new string in the string table") == 0);
    CHECK_EQ_INT(ev->visible, 1);
    CHECK_EQ_INT(ev->nparams, 2);
    CHECK(ev->state == &csm_dapto_state[0]);
    CHECK(strcmp(ev->params[0].name, "index") == 0);
    CHECK(strcmp(ev->params[0].type, "int") == 0);
    CHECK_EQ_INT(ev->params[0].kind, DAPTO_K_INT);
    CHECK(strcmp(ev->params[0].doc, "Index of new string") == 0);
    CHECK(strcmp(ev->params[1].name, "string") == 0);
    CHECK_EQ_INT(ev->params[1].kind, DAPTO_K_STR);
    CHECK(strcmp(a->ops[0].name, "get_string") == 0);
    CHECK(strcmp(a->ops[0].result_type, "str") == 0);
    CHECK_EQ_INT(a->ops[0].result_kind, DAPTO_K_STR);
    CHECK(strcmp(a->ops[1].name, "set_string") == 0);
    CHECK(a->ops[1].result_type == NULL);
    CHECK_EQ_INT(a->ops[1].result_kind, 0);
    CHECK_EQ_INT(a->ops[1].nparams, 2);
    CHECK_EQ_INT(a->ops[1].params[1].kind, DAPTO_K_STR);

    /* get_string */
    for (i = 0; i < 2; i++) {
        opcall_begin(&c);
        dapto_put_int(&c.args, i);
        CHECK_EQ_INT(opcall_run(&c, a, "get_string"), 0);
        CHECK_EQ_INT(c.res.count, 1);
        CHECK(strcmp(dapto_get_str(&c.results), string[i]) == 0);
    }
    opcall_begin(&c);
    dapto_put_int(&c.args, 2);
    CHECK_EQ_INT(opcall_run(&c, a, "get_string"), 0);
    CHECK(strcmp(dapto_get_str(&c.results), "*** No string at this index ***") == 0);
    opcall_begin(&c);
    dapto_put_int(&c.args, 99);
    CHECK_EQ_INT(opcall_run(&c, a, "get_string"), 0);
    CHECK(strcmp(dapto_get_str(&c.results), "*** Illegal string table index ***") == 0);

    /* set_string, then get_string sees the new value */
    opcall_begin(&c);
    dapto_put_int(&c.args, 1);
    dapto_put_str(&c.args, "gamma");
    CHECK_EQ_INT(opcall_run(&c, a, "set_string"), 0);
    CHECK_EQ_INT(c.res.count, 0);
    CHECK(strcmp(string[1], "gamma") == 0);
    opcall_begin(&c);
    dapto_put_int(&c.args, -1);
    dapto_put_str(&c.args, "delta");
    CHECK_EQ_INT(opcall_run(&c, a, "set_string"), 0);
    CHECK(strcmp(dapto_get_str(&c.results), "*** Illegal string table index ***") == 0);

    /* An argument of the wrong type is refused before the body runs. */
    opcall_begin(&c);
    dapto_put_str(&c.args, "one");
    CHECK_EQ_INT(opcall_run(&c, a, "get_string"), 1);
    CHECK(c.req.message[0] != '\0');
    CHECK_EQ_INT(c.res.count, 0);
    /* A missing argument too. */
    opcall_begin(&c);
    dapto_put_int(&c.args, 0);
    CHECK_EQ_INT(opcall_run(&c, a, "set_string"), 1);
    CHECK(strcmp(string[0], "alpha") == 0);

    for (i = 0; i < numstr; i++)
        free(string[i]);
    return unit_done("csm");
}
