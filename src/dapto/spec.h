/* SPDX-License-Identifier: MIT */
/*
 * spec.h - a parsed Dapto specification: aspects, and in each aspect its
 * events, operations and header lines in the order written.  The parser
 * builds it, the checker reads it, the generators turn it into text.
 */
#ifndef NOOSA_DAPTO_SPEC_H
#define NOOSA_DAPTO_SPEC_H

#include <stddef.h>

#include "diag.h"

/* Value types.  Any name other than the built-in ones is a user type. */
enum type_kind { TYPE_INT, TYPE_LONG, TYPE_DOUBLE, TYPE_STR, TYPE_PTR, TYPE_USER };

/* How generated code handles a built-in type. */
struct type_info {
    const char *name;   /* as written in a specification */
    const char *ctype;  /* the C type of parameters */
    const char *kind;   /* the enum dapto_kind constant */
    const char *result; /* the DAPTO_RESULT_* macro */
    const char *arg;    /* the DAPTO_ARG_* macro */
};

struct param {
    char *type;
    enum type_kind kind;
    struct pos type_pos;
    char *name;
    struct pos pos;
    char *doc;
};

enum sig_kind { SIG_EVENT, SIG_OPERATION, SIG_HEADER };

/* One element of an aspect; which fields are used depends on the kind. */
struct sig {
    enum sig_kind kind;
    char *name;            /* event, operation, or the header's file name */
    struct pos pos;        /* of the name (of the string for a header) */
    char *doc;             /* events and operations */
    int visible;           /* events: marked with '*' */
    int angled;            /* headers: <name> rather than "name" */
    struct param *params;  /* events and operations */
    size_t nparams;
    char *result_type;     /* operations: NULL when there is none */
    enum type_kind result_kind;
    struct pos result_pos;
    char *body;            /* operations: the C text, braces included */
    char *body_indent;     /* blanks that put the '{' back in its column */
    struct pos body_pos;   /* operations: of the '{' */
};

struct aspect {
    char *name;
    struct pos pos;
    int closed;          /* its 'end;' was seen */
    struct pos end_pos;  /* of the 'end' */
    struct sig *sigs;
    size_t nsigs;
    size_t cap;
};

struct spec {
    struct aspect *aspects;
    size_t naspects;
    size_t cap;
    char **files; /* file names that positions point to */
    size_t nfiles;
    size_t fcap;
};

const struct type_info *type_info(enum type_kind kind);
enum type_kind type_lookup(const char *name);

struct spec *spec_new(void);
/* The spec's copy of the file name NAME (N bytes), made on first use. */
const char *spec_file(struct spec *s, const char *name, size_t n);
/* Append an empty aspect and return it; it stays valid until the next. */
struct aspect *spec_add_aspect(struct spec *s);
/* Append SIG to aspect A; A takes the contents of SIG. */
void spec_add_sig(struct aspect *a, struct sig *sig);
void spec_free_sig(struct sig *sig);
/* Events in the whole specification. */
size_t spec_nevents(const struct spec *s);
void spec_free(struct spec *s);

#endif /* NOOSA_DAPTO_SPEC_H */
