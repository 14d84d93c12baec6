/* SPDX-License-Identifier: MIT */
/*
 * parse.h - the Dapto parser.  It reads a whole specification from a
 * buffer and stops at the first syntax error: what it returns then holds
 * every aspect, event and operation completed before the error, so the
 * checker can still report problems in them.
 */
#ifndef NOOSA_DAPTO_PARSE_H
#define NOOSA_DAPTO_PARSE_H

#include <stddef.h>

#include "diag.h"
#include "spec.h"

/* Parse LEN bytes at DATA, named FILE in messages.  Errors go to DIAGS.
 * Returns a specification (never NULL) that the caller frees with
 * spec_free(). */
struct spec *parse_spec(const char *data, size_t len, const char *file,
                        struct diags *diags);

#endif /* NOOSA_DAPTO_PARSE_H */
