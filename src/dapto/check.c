/* SPDX-License-Identifier: MIT */
/*
 * check.c - semantic checks on a parsed specification.  Every check is
 * independent of the others, so all problems are reported, in the order
 * they appear in the file.  Names are looked up in small hash tables, so a
 * large specification costs linear time.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "xmalloc.h"

/* Limits of the tables the generated code fills (unsigned short counts). */
#define CHECK_MAX_COUNT 65535

/* Keywords of C (up to C23, with GNU's asm and typeof) and C++ (up to
 * C++20).  A name that is one of these cannot name a parameter. */
static const char *const keywords[] = {
    "_Alignas", "_Alignof", "_Atomic", "_BitInt", "_Bool", "_Complex",
    "_Decimal128", "_Decimal32", "_Decimal64", "_Generic", "_Imaginary",
    "_Noreturn", "_Static_assert", "_Thread_local", "alignas", "alignof",
    "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break",
    "case", "catch", "char", "char16_t", "char32_t", "char8_t", "class",
    "co_await", "co_return", "co_yield", "compl", "concept", "const",
    "const_cast", "consteval", "constexpr", "constinit", "continue",
    "decltype", "default", "delete", "do", "double", "dynamic_cast", "else",
    "enum", "explicit", "export", "extern", "false", "float", "for",
    "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace",
    "new", "noexcept", "not", "not_eq", "nullptr", "operator", "or",
    "or_eq", "private", "protected", "public", "register",
    "reinterpret_cast", "requires", "restrict", "return", "short", "signed",
    "sizeof", "static", "static_assert", "static_cast", "struct", "switch",
    "template", "this", "thread_local", "throw", "true", "try", "typedef",
    "typeid", "typename", "typeof", "typeof_unqual", "union", "unsigned",
    "using", "virtual", "void", "volatile", "wchar_t", "while", "xor",
    "xor_eq",
};

/* Keywords that name a type on their own, so they may be user types. */
static const char *const type_keywords[] = {
    "_Bool", "bool", "char", "char16_t", "char32_t", "char8_t", "float",
    "short", "signed", "unsigned", "wchar_t",
};

/* The events of the runtime's built-in aspect "dapto" (see dapto.h). */
static const char *const builtin_events[] = {
    "init", "finit", "exit", "stopped", "enter", "leave",
};

struct name_entry {
    const char *name; /* NULL when free */
    const char *what; /* "aspect", "event", "operation", "parameter" */
    struct pos pos;
};

struct names {
    struct name_entry *v;
    size_t mask;
};

static int check_in(const char *name, const char *const *list, size_t n)
{
    size_t lo = 0, hi = n, mid;
    int c;

    while (lo < hi) {
        mid = (lo + hi) / 2;
        c = strcmp(name, list[mid]);
        if (c == 0)
            return 1;
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return 0;
}

int check_is_keyword(const char *name)
{
    return check_in(name, keywords, sizeof keywords / sizeof keywords[0]);
}

static void names_init(struct names *t, size_t n)
{
    size_t size = 16;

    while (size < 2 * n + 1)
        size *= 2;
    t->v = xcalloc(size, sizeof *t->v);
    t->mask = size - 1;
}

static void names_free(struct names *t)
{
    free(t->v);
    t->v = NULL;
}

/* The slot of NAME in T: its entry, or the free slot where it belongs. */
static struct name_entry *names_slot(const struct names *t, const char *name)
{
    uint32_t h = 2166136261u;
    const unsigned char *p;
    size_t i;

    for (p = (const unsigned char *)name; *p != '\0'; p++)
        h = (h ^ *p) * 16777619u;
    for (i = h & t->mask; t->v[i].name != NULL; i = (i + 1) & t->mask) {
        if (strcmp(t->v[i].name, name) == 0)
            break;
    }
    return &t->v[i];
}

/* Enter NAME; if it is there already, return the earlier entry instead.
 * T never fills up: names_init() sized it for every name. */
static const struct name_entry *names_add(struct names *t, const char *name,
                                          const char *what,
                                          const struct pos *pos)
{
    struct name_entry *e = names_slot(t, name);

    if (e->name != NULL)
        return e;
    e->name = name;
    e->what = what;
    e->pos = *pos;
    return NULL;
}

/* Names that belong to the runtime or to the generated code. */
static void check_reserved(const char *name, const struct pos *pos,
                           const char *what, struct diags *d)
{
    if (strncmp(name, "_dapto", 6) == 0 || strncmp(name, "dapto_", 6) == 0 ||
        strncmp(name, "DAPTO_", 6) == 0)
        diag_error(d, pos, "%s name '%s' is reserved: names starting with "
                   "'_dapto', 'dapto_' or 'DAPTO_' belong to the runtime "
                   "and the generated code", what, name);
}

/* A name unique in its namespace T.  Aspects have one of their own: an
 * aspect names a group, and its generated C names (PREFIX_dapto_aspect_A,
 * _events_A, _ops_A) never meet those of an event or operation (_emit_E,
 * _params_E, _op_E, the stub _dapto_E), so an aspect and an event may be
 * called alike.  Events and operations share the other: both are called
 * by name, and both have a PREFIX_dapto_params_NAME table. */
static void check_unique(struct names *t, const char *name,
                         const struct pos *pos, const char *what,
                         struct diags *d)
{
    const struct name_entry *e;

    check_reserved(name, pos, what, d);
    e = names_add(t, name, what, pos);
    if (e == NULL)
        return;
    if (strcmp(e->what, what) == 0) {
        diag_error(d, pos, "redefinition of %s '%s'", what, name);
        diag_note(d, &e->pos, "previous definition of %s '%s' is here",
                  what, name);
    } else {
        diag_error(d, pos, "redefinition of '%s' as an %s: events and "
                   "operations share one namespace", name, what);
        diag_note(d, &e->pos, "previous definition of '%s', as an %s, is "
                  "here", name, e->what);
    }
}

/* The stub of event NAME, _dapto_NAME, must not be one of the generated
 * names PREFIX_dapto_...: it is when PREFIX is "_dapto_P" (a file or -n
 * name "_dapto_P") and NAME begins with "P_dapto_".  Other generated names
 * all begin with PREFIX_dapto_ and differ in the word after it. */
static void check_stub(const char *name, const struct pos *pos,
                       const char *prefix, struct diags *d)
{
    size_t plen;

    if (strncmp(prefix, "_dapto_", 7) != 0)
        return;
    plen = strlen(prefix + 7);
    if (plen == 0)
        return; /* NAME would begin with "_dapto", which is reserved */
    if (strncmp(name, prefix + 7, plen) == 0 &&
        strncmp(name + plen, "_dapto_", 7) == 0)
        diag_error(d, pos, "event name '%s' clashes with the generated "
                   "names '%s_dapto_...': its stub would be '_dapto_%s'",
                   name, prefix, name);
}

/* The parameters of an event or operation; OWNER names it in messages. */
static void check_params(const struct sig *sig, const char *owner,
                         const char *prefix, struct diags *d)
{
    struct names t, types;
    const struct param *p;
    const struct name_entry *e;
    size_t i, plen = strlen(prefix);

    if (sig->nparams > CHECK_MAX_COUNT)
        diag_error(d, &sig->pos, "%s has %zu parameters; at most %d are "
                   "allowed", owner, sig->nparams, CHECK_MAX_COUNT);
    names_init(&t, sig->nparams);
    names_init(&types, sig->nparams);
    for (i = 0; i < sig->nparams; i++) {
        if (sig->params[i].kind == TYPE_USER)
            names_add(&types, sig->params[i].type, "type",
                      &sig->params[i].type_pos);
    }
    for (i = 0; i < sig->nparams; i++) {
        p = &sig->params[i];
        if (p->kind == TYPE_USER && check_is_keyword(p->type) &&
            !check_in(p->type, type_keywords,
                      sizeof type_keywords / sizeof type_keywords[0]))
            diag_error(d, &p->type_pos, "'%s' is a C or C++ keyword and "
                       "cannot be the type of parameter '%s'", p->type,
                       p->name);
        check_reserved(p->name, &p->pos, "parameter", d);
        if (check_is_keyword(p->name))
            diag_error(d, &p->pos, "parameter name '%s' is a C or C++ "
                       "keyword", p->name);
        else if (strncmp(p->name, prefix, plen) == 0 &&
                 strncmp(p->name + plen, "_dapto_", 7) == 0)
            diag_error(d, &p->pos, "parameter name '%s' clashes with the "
                       "generated names '%s_dapto_...'", p->name, prefix);
        if (names_slot(&types, p->name)->name != NULL)
            diag_error(d, &p->pos, "parameter name '%s' is also a type "
                       "in the parameter list of %s; the generated code "
                       "could not use that type", p->name, owner);
        e = names_add(&t, p->name, "parameter", &p->pos);
        if (e != NULL) {
            diag_error(d, &p->pos, "duplicate parameter '%s' in %s",
                       p->name, owner);
            diag_note(d, &e->pos, "previous parameter '%s' is here",
                      p->name);
        }
    }
    names_free(&t);
    names_free(&types);
}

static void check_header(const struct sig *sig, struct diags *d)
{
    const unsigned char *p;

    if (sig->name[0] == '\0') {
        diag_error(d, &sig->pos, "empty header name");
        return;
    }
    for (p = (const unsigned char *)sig->name; *p != '\0'; p++) {
        if (*p < 0x20 || *p == 0x7f) {
            diag_error(d, &sig->pos, "header name contains control "
                       "character 0x%02x", *p);
            return;
        }
        if (*p == '"') {
            diag_error(d, &sig->pos, "header name contains '\"', which "
                       "cannot appear in an #include");
            return;
        }
    }
}

void check_spec(const struct spec *s, const char *prefix, struct diags *d)
{
    struct names aspects, calls;
    const struct aspect *a;
    const struct sig *sig;
    size_t i, j, k, n = 0, nevents, nops;
    char owner[128];

    for (i = 0; i < s->naspects; i++)
        n += s->aspects[i].nsigs;
    names_init(&aspects, s->naspects);
    names_init(&calls, n);
    for (i = 0; i < s->naspects; i++) {
        a = &s->aspects[i];
        check_unique(&aspects, a->name, &a->pos, "aspect", d);
        if (strcmp(a->name, "dapto") == 0)
            diag_error(d, &a->pos, "aspect name 'dapto' is reserved for the "
                       "runtime's built-in aspect");
        nevents = nops = 0;
        for (j = 0; j < a->nsigs; j++) {
            sig = &a->sigs[j];
            switch (sig->kind) {
            case SIG_HEADER:
                check_header(sig, d);
                break;
            case SIG_EVENT:
                nevents++;
                check_unique(&calls, sig->name, &sig->pos, "event", d);
                check_stub(sig->name, &sig->pos, prefix, d);
                for (k = 0; k < sizeof builtin_events / sizeof builtin_events[0]; k++) {
                    if (strcmp(sig->name, builtin_events[k]) == 0)
                        diag_error(d, &sig->pos, "event name '%s' is "
                                   "reserved: the runtime's built-in aspect "
                                   "'dapto' has an event '%s'", sig->name,
                                   sig->name);
                }
                snprintf(owner, sizeof owner, "event '%s'", sig->name);
                check_params(sig, owner, prefix, d);
                break;
            case SIG_OPERATION:
                nops++;
                check_unique(&calls, sig->name, &sig->pos, "operation", d);
                snprintf(owner, sizeof owner, "operation '%s'", sig->name);
                check_params(sig, owner, prefix, d);
                break;
            }
        }
        if (a->closed && a->nsigs == 0)
            diag_error(d, &a->end_pos, "aspect '%s' is empty: it needs at "
                       "least one event, operation or header line", a->name);
        if (nevents > CHECK_MAX_COUNT || nops > CHECK_MAX_COUNT)
            diag_error(d, &a->pos, "aspect '%s' has %zu events and %zu "
                       "operations; at most %d of each are allowed", a->name,
                       nevents, nops, CHECK_MAX_COUNT);
    }
    names_free(&calls);
    names_free(&aspects);
}
