/* SPDX-License-Identifier: MIT */
/*
 * compile.h - the whole compiler on a buffer: parse, check, generate.  It
 * touches no file, so tests and the fuzzer run it directly; dapto.c adds
 * reading the input and writing the outputs.
 */
#ifndef NOOSA_DAPTO_COMPILE_H
#define NOOSA_DAPTO_COMPILE_H

#include <stddef.h>

#include "buf.h"
#include "diag.h"

struct compile_options {
    const char *file;   /* the input as messages name it: "csm.dapto", "<stdin>" */
    const char *base;   /* the outputs' base name: "csm" for csm_dapto.* */
    const char *source; /* the generated C file's path, for #line */
};

struct compile_output {
    struct buf h;  /* X_dapto.h */
    struct buf c;  /* X_dapto.c */
    struct buf db; /* X_dapto.db */
};

/* Compile LEN bytes at DATA.  Diagnostics go to DIAGS in the order they
 * should be shown.  Returns 0 and fills OUT, which the caller frees with
 * compile_output_free(), or -1 when there were errors (OUT is then
 * empty). */
int compile_buffer(const char *data, size_t len,
                   const struct compile_options *opts,
                   struct compile_output *out, struct diags *diags);
void compile_output_free(struct compile_output *out);
/* BASE made into a C identifier (the prefix of generated names); the
 * caller frees it. */
char *compile_prefix(const char *base);

#endif /* NOOSA_DAPTO_COMPILE_H */
