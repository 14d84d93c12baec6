/* SPDX-License-Identifier: MIT */
/*
 * codenames.h - which functions of a program are monitoring's, by name:
 * the runtime's (libdapto's entry points, its function hooks) and the
 * encoders dapto generates for each event, X_dapto_HALF_EVENT, whose
 * halves are listed in src/dapto/gen-source.c.  A stack shown to the
 * user (a stop's, a fault's, where a thread is) starts below them, in
 * the program's own code.
 */
#ifndef NOOSA_CODENAMES_H
#define NOOSA_CODENAMES_H

#include <string.h>

/* When FN is a generated encoder's half, the event's name in it (after
 * the half), else NULL. */
static inline const char *codenames_event(const char *fn)
{
    /* (gen-source.c's halves: emit, then keep, hold, ask, route, put,
     * each "_dapto_HALF_" in its function's name) */
    static const char *const halves[] = {
        "_dapto_emit_", "_dapto_keep_", "_dapto_hold_",
        "_dapto_ask_",  "_dapto_route_", "_dapto_put_",
    };
    const char *e;
    size_t i;

    if (fn == NULL)
        return NULL;
    for (i = 0; i < sizeof halves / sizeof halves[0]; i++)
        if ((e = strstr(fn, halves[i])) != NULL)
            return e + strlen(halves[i]);
    return NULL;
}

/* Whether FN is the runtime's (dapto_*, _dapto_*, the function hooks
 * __cyg_profile_func_*) or a generated encoder's half. */
static inline int codenames_runtime(const char *fn)
{
    return fn != NULL &&
           (strncmp(fn, "dapto_", 6) == 0 || strncmp(fn, "_dapto_", 7) == 0 ||
            strncmp(fn, "__cyg_profile_func_", 19) == 0 || codenames_event(fn) != NULL);
}

#endif /* NOOSA_CODENAMES_H */
