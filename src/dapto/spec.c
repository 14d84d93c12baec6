/* SPDX-License-Identifier: MIT */
/*
 * spec.c - the in-memory form of a specification and the table of
 * built-in types.  It owns every string it holds; spec_free() releases it
 * all.
 */
#include <stdlib.h>
#include <string.h>

#include "spec.h"
#include "xmalloc.h"

static const struct type_info types[] = {
    { "int", "int", "DAPTO_K_INT", "DAPTO_RESULT_INT", "DAPTO_ARG_INT" },
    { "long", "long", "DAPTO_K_LONG", "DAPTO_RESULT_LONG", "DAPTO_ARG_LONG" },
    { "double", "double", "DAPTO_K_DOUBLE", "DAPTO_RESULT_DOUBLE",
      "DAPTO_ARG_DOUBLE" },
    { "str", "const char *", "DAPTO_K_STR", "DAPTO_RESULT_STR",
      "DAPTO_ARG_STR" },
    { "ptr", "const void *", "DAPTO_K_PTR", "DAPTO_RESULT_PTR",
      "DAPTO_ARG_PTR" },
    { NULL, NULL, "DAPTO_K_USER", NULL, NULL },
};

const struct type_info *type_info(enum type_kind kind)
{
    return &types[kind];
}

enum type_kind type_lookup(const char *name)
{
    int i;

    for (i = TYPE_INT; i < TYPE_USER; i++) {
        if (strcmp(types[i].name, name) == 0)
            return (enum type_kind)i;
    }
    return TYPE_USER;
}

struct spec *spec_new(void)
{
    return xcalloc(1, sizeof(struct spec));
}

const char *spec_file(struct spec *s, const char *name, size_t n)
{
    size_t i;

    for (i = s->nfiles; i-- > 0;) {
        if (strlen(s->files[i]) == n && memcmp(s->files[i], name, n) == 0)
            return s->files[i];
    }
    s->files = xgrow(s->files, s->nfiles, &s->fcap, sizeof *s->files);
    s->files[s->nfiles] = xstrndup(name, n);
    return s->files[s->nfiles++];
}

struct aspect *spec_add_aspect(struct spec *s)
{
    struct aspect *a;

    s->aspects = xgrow(s->aspects, s->naspects, &s->cap, sizeof *s->aspects);
    a = &s->aspects[s->naspects++];
    memset(a, 0, sizeof *a);
    return a;
}

void spec_add_sig(struct aspect *a, struct sig *sig)
{
    a->sigs = xgrow(a->sigs, a->nsigs, &a->cap, sizeof *a->sigs);
    a->sigs[a->nsigs++] = *sig;
    memset(sig, 0, sizeof *sig);
}

void spec_free_sig(struct sig *sig)
{
    size_t i;

    for (i = 0; i < sig->nparams; i++) {
        free(sig->params[i].type);
        free(sig->params[i].name);
        free(sig->params[i].doc);
    }
    free(sig->params);
    free(sig->name);
    free(sig->doc);
    free(sig->result_type);
    free(sig->body);
    free(sig->body_indent);
    memset(sig, 0, sizeof *sig);
}

size_t spec_nevents(const struct spec *s)
{
    size_t i, j, n = 0;

    for (i = 0; i < s->naspects; i++) {
        for (j = 0; j < s->aspects[i].nsigs; j++) {
            if (s->aspects[i].sigs[j].kind == SIG_EVENT)
                n++;
        }
    }
    return n;
}

void spec_free(struct spec *s)
{
    size_t i, j;

    if (s == NULL)
        return;
    for (i = 0; i < s->naspects; i++) {
        for (j = 0; j < s->aspects[i].nsigs; j++)
            spec_free_sig(&s->aspects[i].sigs[j]);
        free(s->aspects[i].sigs);
        free(s->aspects[i].name);
    }
    free(s->aspects);
    for (i = 0; i < s->nfiles; i++)
        free(s->files[i]);
    free(s->files);
    free(s);
}
