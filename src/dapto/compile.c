/* SPDX-License-Identifier: MIT */
/*
 * compile.c - parse, check and generate, all in memory.  Output is made
 * only when the specification has no error at all, so a caller never has
 * half a result to write.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "compile.h"
#include "gen.h"
#include "parse.h"
#include "xmalloc.h"

char *compile_prefix(const char *base)
{
    size_t n = strlen(base), i;
    int digit = base[0] >= '0' && base[0] <= '9';
    char *p = xmalloc(n + 6), *q = p;

    /* "2fast" cannot start an identifier: "spec_2fast" can */
    if (n == 0 || digit) {
        memcpy(q, "spec_", 5);
        q += 5;
    }
    for (i = 0; i < n; i++) {
        char c = base[i];

        *q++ = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
               (c >= '0' && c <= '9') || c == '_' ? c : '_';
    }
    *q = '\0';
    if (n == 0)
        q[-1] = '\0'; /* "spec" */
    return p;
}

/* PREFIX_DAPTO_H in capitals. */
static char *compile_guard(const char *prefix)
{
    char *g = xasprintf("%s_DAPTO_H", prefix), *p;

    for (p = g; *p != '\0'; p++) {
        if (*p >= 'a' && *p <= 'z')
            *p = (char)(*p - 'a' + 'A');
    }
    return g;
}

int compile_buffer(const char *data, size_t len,
                   const struct compile_options *opts,
                   struct compile_output *out, struct diags *diags)
{
    struct diags syntax, semantic;
    struct spec *spec;
    struct gen g;
    char *prefix, *guard, *header;
    int r = -1;

    buf_init(&out->h);
    buf_init(&out->c);
    buf_init(&out->db);
    diag_init(&syntax);
    diag_init(&semantic);
    prefix = compile_prefix(opts->base);
    spec = parse_spec(data, len, opts->file, &syntax);
    /* What parsed before a syntax error is checked too: those problems
     * come first, since they lie earlier in the file. */
    check_spec(spec, prefix, &semantic);
    diag_move(diags, &semantic);
    diag_move(diags, &syntax);
    if (diags->nerrors > 0)
        goto done;

    guard = compile_guard(prefix);
    header = xasprintf("%s_dapto.h", opts->base);
    g.spec = spec;
    g.file = opts->file;
    g.prefix = prefix;
    g.guard = guard;
    g.header = header;
    g.source = opts->source;
    gen_header(&g, &out->h);
    gen_source(&g, &out->c);
    gen_db(&g, &out->db);
    free(header);
    free(guard);
    r = 0;

done:
    spec_free(spec);
    free(prefix);
    return r;
}

void compile_output_free(struct compile_output *out)
{
    buf_free(&out->h);
    buf_free(&out->c);
    buf_free(&out->db);
}
