/* SPDX-License-Identifier: MIT */
/*
 * usdt-notes.c - libFuzzer harness for the USDT note parser
 * (src/core/usdt.c): any bytes as a note section, of a 64-bit file and of
 * a 32-bit one, with and without a moved .stapsdt.base.  Beyond what the
 * sanitizers catch, it checks the parser's promises: every note handed
 * over has a provider and a name of letters, digits and underscores, at
 * most USDT_MAX_ARGS arguments each of 1, 2, 4 or 8 bytes, whose operand
 * text parses again to the same count; every note left out is said.
 */
#include <ctype.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "usdt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_name(const char *s)
{
    if (s == NULL || *s == '\0')
        abort();
    for (; *s != '\0'; s++)
        if (!isalnum((unsigned char)*s) && *s != '_')
            abort();
}

static void check(void *arg, struct usdt_note *n)
{
    struct usdt_arg again[USDT_MAX_ARGS];
    char *cause = NULL;
    int k;

    (void)arg;
    check_name(n->provider);
    check_name(n->name);
    if (n->args == NULL || n->nargs > USDT_MAX_ARGS)
        abort();
    for (unsigned int i = 0; i < n->nargs; i++) {
        unsigned int sz = n->arg[i].size;

        if (sz != 1 && sz != 2 && sz != 4 && sz != 8)
            abort();
        if (n->arg[i].kind < USDT_ARG_CONST || n->arg[i].kind > USDT_ARG_MEM)
            abort();
    }
    k = usdt_parse_args(n->args, again, &cause);
    if (k != (int)n->nargs)
        abort();
    for (int i = 0; i < k; i++)
        free(again[i].sym);
}

static void said(void *arg, const char *provider, const char *text)
{
    (void)provider;
    if (text == NULL || *text == '\0')
        abort();
    (*(unsigned int *)arg)++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    unsigned int warned = 0;
    char *args, *cause = NULL;
    struct usdt_arg a[USDT_MAX_ARGS];
    int k;

    usdt_parse_notes(data, size, 1, 0, check, said, &warned);
    usdt_parse_notes(data, size, 1, 0x1000, check, said, &warned);
    usdt_parse_notes(data, size, 0, 0, check, said, &warned);
    /* the bytes as an argument text too */
    args = malloc(size + 1);
    if (args == NULL)
        return 0;
    memcpy(args, data, size);
    args[size] = '\0';
    k = usdt_parse_args(args, a, &cause);
    if (k < 0 && cause == NULL)
        abort();
    for (int i = 0; i < k; i++)
        free(a[i].sym);
    free(cause);
    free(args);
    return 0;
}
