/* SPDX-License-Identifier: MIT */
/*
 * gen.h - the generators: from a checked specification, the C header with
 * the event stubs (gen-header.c), the C file with encoders, operations and
 * descriptions (gen-source.c), and the Tcl database (gen-db.c).  They write
 * into buffers and never touch files; gen.c has what they share.
 */
#ifndef NOOSA_DAPTO_GEN_H
#define NOOSA_DAPTO_GEN_H

#include "buf.h"
#include "spec.h"

struct gen {
    const struct spec *spec; /* checked: generators trust it */
    const char *file;        /* the specification, as named in messages */
    const char *prefix;      /* C prefix of generated names: PREFIX_dapto_ */
    const char *guard;       /* the header's include guard */
    const char *header;      /* the header's file name, as the C file includes it */
    const char *source;      /* the C file's path, for #line directives */
};

/* gen.c */
/* The C declaration of parameter P: "int x", "const char *s". */
void gen_decl(struct buf *b, const struct param *p);
/* The parameter list of SIG as C declarations, or "void". */
void gen_params(struct buf *b, const struct sig *sig);
/* The parameter names of SIG separated by commas. */
void gen_args(struct buf *b, const struct sig *sig);
/* The first line of a generated file, between OPEN and CLOSE. */
void gen_banner(struct buf *b, const struct gen *g, const char *open,
                const char *close);

/* gen-header.c */
void gen_header(const struct gen *g, struct buf *b);
/* gen-source.c */
void gen_source(const struct gen *g, struct buf *b);
/* gen-db.c */
void gen_db(const struct gen *g, struct buf *b);

#endif /* NOOSA_DAPTO_GEN_H */
