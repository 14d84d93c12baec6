/* SPDX-License-Identifier: MIT */
/*
 * output.h - writing the generated files all or nothing.
 */
#ifndef NOOSA_DAPTO_OUTPUT_H
#define NOOSA_DAPTO_OUTPUT_H

#include <stddef.h>

struct output_file {
    const char *path;
    const char *data;
    size_t len;
};

/* Write the N files: each first to a temporary file next to it, then,
 * once all are complete, renamed into place.  On failure nothing new is
 * left behind and *CAUSE (freed by the caller) says why. */
int output_write(const struct output_file *files, size_t n, char **cause);

#endif /* NOOSA_DAPTO_OUTPUT_H */
