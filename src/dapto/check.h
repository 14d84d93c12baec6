/* SPDX-License-Identifier: MIT */
/*
 * check.h - the Dapto checker: what the grammar cannot say.  Names must be
 * unique (aspects among aspects; events and operations share one
 * namespace; parameters are unique within their list), and no name may
 * break the generated code or clash with the runtime's built-in aspect.
 */
#ifndef NOOSA_DAPTO_CHECK_H
#define NOOSA_DAPTO_CHECK_H

#include "diag.h"
#include "spec.h"

/* Check S, reporting every problem to DIAGS in source order.  PREFIX is
 * the C prefix of the generated names (PREFIX_dapto_...). */
void check_spec(const struct spec *s, const char *prefix, struct diags *diags);

/* Whether NAME is a keyword of C or C++. */
int check_is_keyword(const char *name);

#endif /* NOOSA_DAPTO_CHECK_H */
