/* SPDX-License-Identifier: MIT */
/*
 * value.c - decoded values as text.  Strings from the program are data:
 * every byte that is not printable ASCII is escaped, so the text is one
 * line and safe to show or parse.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dapto.h"
#include "value.h"
#include "xmalloc.h"

char *value_quote(const char *s, size_t len)
{
    char *out = xmalloc(len * 4 + 3), *p = out;

    *p++ = '"';
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case '"':
        case '\\':
            *p++ = '\\';
            *p++ = (char)c;
            break;
        case '\n':
            *p++ = '\\';
            *p++ = 'n';
            break;
        case '\t':
            *p++ = '\\';
            *p++ = 't';
            break;
        case '\r':
            *p++ = '\\';
            *p++ = 'r';
            break;
        default:
            if (c < 0x20 || c >= 0x7f) {
                sprintf(p, "\\x%02x", c);
                p += 4;
            } else {
                *p++ = (char)c;
            }
        }
    }
    *p++ = '"';
    *p = '\0';
    return out;
}

char *value_text(const struct decode_value *v)
{
    switch (v->kind) {
    case DAPTO_K_INT:
        return xasprintf("%d", (int)v->u.i);
    case DAPTO_K_LONG:
        return xasprintf("%lld", (long long)v->u.l);
    case DAPTO_K_DOUBLE:
        return xasprintf("%.17g", v->u.d);
    case DAPTO_K_PTR:
        return xasprintf("0x%llx", (unsigned long long)v->u.p);
    case DAPTO_K_STR: {
        char *q = value_quote(v->s, v->len), *t;
        if (!v->truncated)
            return q;
        t = xasprintf("%s...", q);
        free(q);
        return t;
    }
    case DAPTO_K_ISTR:
        return xasprintf("#%u", v->u.id);
    }
    return xstrdup("?");
}
