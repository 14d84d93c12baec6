/* SPDX-License-Identifier: MIT */
/*
 * dapto-parse.c - libFuzzer harness for the dapto compiler: any bytes go
 * through the lexer, parser, checker and generators, in memory.  Beyond
 * what the sanitizers catch (crashes, leaks, undefined behaviour), it
 * checks the compiler's own promises: a result exactly when there is no
 * error, positions that start at 1, generated text without NUL bytes, and
 * the same output every time.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_text(const struct buf *b)
{
    if (b->data == NULL || strlen(b->data) != b->len)
        abort();
}

static int same(const struct buf *a, const struct buf *b)
{
    return a->len == b->len && memcmp(a->data, b->data, a->len) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct compile_options opts;
    struct compile_output out, again;
    struct diags diags, diags2;
    size_t i;
    int r;

    opts.file = "fuzz.dapto";
    opts.base = "fuzz";
    opts.source = "fuzz_dapto.c";
    diag_init(&diags);
    r = compile_buffer((const char *)data, size, &opts, &out, &diags);
    if ((r == 0) != (diags.nerrors == 0))
        abort();
    for (i = 0; i < diags.n; i++) {
        if (diags.v[i].line == 0 || diags.v[i].col == 0 ||
            diags.v[i].msg[0] == '\0')
            abort();
    }
    if (diags.n > 0 && diags.v[0].level != DIAG_ERROR)
        abort();
    if (r == 0) {
        check_text(&out.h);
        check_text(&out.c);
        check_text(&out.db);
        diag_init(&diags2);
        if (compile_buffer((const char *)data, size, &opts, &again, &diags2) != 0 ||
            !same(&out.h, &again.h) || !same(&out.c, &again.c) ||
            !same(&out.db, &again.db))
            abort();
        compile_output_free(&again);
        diag_free(&diags2);
        compile_output_free(&out);
    }
    diag_free(&diags);
    return 0;
}
