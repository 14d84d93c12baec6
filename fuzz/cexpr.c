/* SPDX-License-Identifier: MIT */
/*
 * cexpr.c - libFuzzer harness of the C expressions print takes
 * (src/debug/cexpr.c): the input is an expression, lexed, parsed and
 * evaluated with no program behind it (names and memory then fail, as in
 * a recording; literals, casts to base types, arithmetic, conditionals,
 * sizeof and the value history work), and a value printed with a format
 * the input's first byte picks.  Nothing may crash, leak or go out of
 * bounds, whatever the text.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cexpr.h"
#include "cprint.h"
#include "ctypes.h"
#include "cvalue.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct cvalue *no_history(void *arg, long n, int rel, char **cause)
{
    struct ctypes *ts = arg;

    (void)rel;
    if (n != 1) {
        free(*cause);
        *cause = strdup("History has not yet reached that.");
        return NULL;
    }
    return cvalue_int(NULL, ctype_builtin(ts, CB_INT), 42);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char formats[] = "\0xduotcazs";
    struct ctypes *ts = ctypes_create(NULL, NULL);
    struct cscope s;
    struct cprint_opts o;
    struct cvalue *v = NULL;
    char *text = malloc(size + 1), *cause = NULL, *out;

    memcpy(text, data, size);
    text[size] = '\0';
    memset(&s, 0, sizeof s);
    s.types = ts;
    s.history = no_history;
    s.arg = ts;
    s.no_program = "a fuzz input has no program";
    cprint_defaults(&o);
    o.format = size > 0 ? formats[data[0] % (sizeof formats - 1)] : 0;
    if (cexpr_eval(&s, text, &v, &cause) == 0) {
        out = cprint_top(v, &o, &cause);
        free(out);
        cvalue_free(v);
    }
    free(cause);
    cause = NULL;
    {
        struct ctype *t = NULL;

        if (cexpr_type(&s, text, &t, &cause) == 1) {
            out = ctype_ptype(t);
            free(out);
        }
    }
    free(cause);
    free(text);
    ctypes_free(ts);
    return 0;
}
