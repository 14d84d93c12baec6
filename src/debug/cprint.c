/* SPDX-License-Identifier: MIT */
/*
 * cprint.c - gdb's way of printing C values, rule by rule: the top-level
 * pointer's type in parentheses (not for plain char pointers), strings
 * with runs of more than ten equal characters split out, octal escapes
 * for what is not printable in the C locale, arrays limited to 200
 * elements with runs folded, %g with enough digits to read the float
 * back (9 for float, 17 for double, 21 for long double), flag enums
 * decomposed.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cprint.h"
#include "dinfo.h"
#include "dstr.h"
#include "xmalloc.h"

void cprint_defaults(struct cprint_opts *o)
{
    o->format = 0;
    o->print_max = 200;
    o->repeats = 10;
}

int cprint_format_ok(char fmt)
{
    return fmt != 0 && strchr("xduotcazs", fmt) != NULL;
}

static void print_value(struct dstr *b, struct cvalue *v,
                        const struct cprint_opts *o);

/* Whether T is printed as text: a one-byte integer or char type (gdb's
 * c_textual_element_type), unless a format other than s is asked. */
static int textual(struct ctype *t, char format)
{
    struct ctype *s = ctype_strip(t);

    if (format != 0 && format != 's')
        return 0;
    return s != NULL && (s->kind == CT_CHAR || (s->kind == CT_INT && s->size == 1));
}

/* One character of a string or char literal (quoted by QUOTE), as gdb's
 * print_wchar writes it; *ESCAPED says the last one was an octal escape
 * (a hexadecimal digit after one is escaped too). */
static void put_char(struct dstr *b, unsigned char c, char quote,
                     int *escaped)
{
    int was = *escaped;

    *escaped = 0;
    switch (c) {
    case '\a': dstr_puts(b, "\\a"); return;
    case '\b': dstr_puts(b, "\\b"); return;
    case '\f': dstr_puts(b, "\\f"); return;
    case '\n': dstr_puts(b, "\\n"); return;
    case '\r': dstr_puts(b, "\\r"); return;
    case '\t': dstr_puts(b, "\\t"); return;
    case '\v': dstr_puts(b, "\\v"); return;
    default:
        break;
    }
    if (c >= 0x20 && c < 0x7f &&
        !(was && ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
                  (c >= 'A' && c <= 'F')))) {
        if (c == (unsigned char)quote || c == '\\')
            dstr_putc(b, '\\');
        dstr_putc(b, (char)c);
        return;
    }
    dstr_printf(b, "\\%03o", c);
    *escaped = 1;
}

char *cprint_char(int c)
{
    struct dstr b = {0};
    int esc = 0;

    dstr_putc(&b, '\'');
    put_char(&b, (unsigned char)c, '\'', &esc);
    dstr_putc(&b, '\'');
    return dstr_take(&b);
}

/* LEN bytes of S as gdb's generic_printstr prints a C string: a trailing
 * NUL dropped (unless ELLIPSES is forced), runs of more than O->repeats
 * equal characters as 'c' <repeats N times>, at most O->print_max
 * characters, then "..." when not all was printed or ELLIPSES. */
static void put_string(struct dstr *b, const unsigned char *s, size_t len,
                       int ellipses, const struct cprint_opts *o)
{
    size_t i = 0, printed = 0;
    enum { START, SINGLE, REPEAT } last = START;
    int esc = 0;

    if (!ellipses && len > 0 && s[len - 1] == 0)
        len--;
    if (len == 0) {
        dstr_puts(b, "\"\"");
        if (ellipses)
            dstr_puts(b, "...");
        return;
    }
    while (i < len && printed < o->print_max) {
        size_t run = 1;

        while (i + run < len && s[i + run] == s[i])
            run++;
        if (run > o->repeats) {
            if (last == SINGLE)
                dstr_putc(b, '"');
            if (last != START)
                dstr_puts(b, ", ");
            dstr_putc(b, '\'');
            esc = 0;
            put_char(b, s[i], '"', &esc);
            dstr_printf(b, "' <repeats %zu times>", run);
            last = REPEAT;
        } else {
            if (last != SINGLE) {
                if (last != START)
                    dstr_puts(b, ", ");
                dstr_putc(b, '"');
                esc = 0;
            }
            for (size_t k = 0; k < run; k++)
                put_char(b, s[i], '"', &esc);
            last = SINGLE;
        }
        i += run;
        printed += run;
    }
    if (last == SINGLE)
        dstr_putc(b, '"');
    if (ellipses || i < len)
        dstr_puts(b, "...");
}

char *cprint_symbolic(struct dinfo *d, uint64_t addr)
{
    uint64_t off = 0;
    const char *name = addr != 0 ? dinfo_symbol_at(d, addr, &off) : NULL;
    int n;

    if (name == NULL)
        return xstrdup("");
    n = (int)strcspn(name, "@");
    if (off != 0)
        return xasprintf(" <%.*s+%llu>", n, name, (unsigned long long)off);
    return xasprintf(" <%.*s>", n, name);
}

/* The string at ADDR (chars of type ELEM), as gdb's val_print_string:
 * up to print_max characters or the NUL, the error after what could be
 * read. */
static void put_string_at(struct dstr *b, struct dinfo *d, uint64_t addr,
                          const struct cprint_opts *o)
{
    unsigned char buf[4096];
    size_t want = o->print_max < sizeof buf ? o->print_max : sizeof buf;
    size_t got = 0, n;
    int nul = 0, more = 0;

    /* page by page: process_vm_readv stops at the first page it cannot
     * read, and a string ends before most page ends */
    while (got < want && !nul) {
        uint64_t a = addr + got;
        size_t chunk = 4096 - (size_t)(a & 4095);

        if (chunk > want - got)
            chunk = want - got;
        n = dinfo_read_some(d, a, buf + got, chunk);
        if (memchr(buf + got, 0, n) != NULL) {
            size_t k = (size_t)((unsigned char *)memchr(buf + got, 0, n) -
                                (buf + got));

            got += k + 1;
            nul = 1;
            break;
        }
        got += n;
        if (n < chunk)
            break;
    }
    if (!nul && got == want) {
        unsigned char peek;

        /* the string goes on past what is shown? */
        if (dinfo_read_some(d, addr + got, &peek, 1) == 1 && peek != 0)
            more = 1;
    }
    if (got > 0 || nul)
        put_string(b, buf, got, more, o);
    if (!nul && got < want) {
        if (got > 0)
            dstr_putc(b, ' ');
        dstr_printf(b, "<error: Cannot access memory at address 0x%llx>",
                    (unsigned long long)(addr + got));
    }
}

/* Digits of the LEN little-endian bytes at P in BASE (2, 8, 16), without
 * leading zeros. */
static void put_digits(struct dstr *b, const unsigned char *p, size_t len,
                       unsigned int base, int zero_pad)
{
    char digits[160];
    size_t nd = 0;
    unsigned char tmp[16];
    size_t i, n = len < sizeof tmp ? len : sizeof tmp;
    unsigned int bits = base == 2 ? 1 : base == 8 ? 3 : 4;
    size_t total = n * 8, pos;

    memcpy(tmp, p, n);
    for (pos = 0; pos < total; pos += bits) {
        unsigned int d = 0;

        for (unsigned int k = 0; k < bits && pos + k < total; k++)
            d |= ((tmp[(pos + k) / 8] >> ((pos + k) % 8)) & 1u) << k;
        digits[nd++] = "0123456789abcdef"[d];
    }
    while (!zero_pad && nd > 1 && digits[nd - 1] == '0')
        nd--;
    for (i = nd; i > 0; i--)
        dstr_putc(b, digits[i - 1]);
}

/* V's bytes as an integer of V's size (up to 8), signed or not. */
static void put_decimal(struct dstr *b, const unsigned char *p, size_t len,
                        int is_signed)
{
    uint64_t w = 0;

    memcpy(&w, p, len < 8 ? len : 8);
    if (len > 0 && len < 8 && is_signed && ((w >> (8 * len - 1)) & 1))
        w |= ~((UINT64_C(1) << (8 * len)) - 1);
    if (len < 8 && !is_signed)
        w &= (UINT64_C(1) << (8 * len)) - 1;
    if (is_signed)
        dstr_printf(b, "%lld", (long long)w);
    else
        dstr_printf(b, "%llu", (unsigned long long)w);
}

/* A float of SIZE bytes at P with gdb's digits. */
static void put_float(struct dstr *b, const unsigned char *p, size_t size)
{
    long double x;
    int digits;
    uint64_t bits = 0, mant;
    int neg;

    if (size == 4) {
        float f;

        memcpy(&f, p, 4);
        x = f;
        digits = 9;
        memcpy(&bits, p, 4);
        neg = (bits >> 31) & 1;
        mant = bits & 0x7fffff;
    } else if (size == 8) {
        double d;

        memcpy(&d, p, 8);
        x = d;
        digits = 17;
        memcpy(&bits, p, 8);
        neg = (bits >> 63) & 1;
        mant = bits & 0xfffffffffffffull;
    } else {
        memcpy(&x, p, sizeof x < size ? sizeof x : size);
        digits = 21;
        memcpy(&mant, p, 8);
        neg = (p[9] >> 7) & 1;
        mant &= 0x3fffffffffffffffull;
    }
    if (isnan(x)) {
        dstr_printf(b, "%snan(0x%llx)", neg ? "-" : "",
                    (unsigned long long)mant);
        return;
    }
    if (isinf(x)) {
        dstr_puts(b, x < 0 ? "-inf" : "inf");
        return;
    }
    dstr_printf(b, "%.*Lg", digits, x);
}

/* A scalar V (contents read and available) with format O->format
 * (gdb's print_scalar_formatted). */
static void put_formatted(struct dstr *b, struct cvalue *v,
                          const struct cprint_opts *o)
{
    struct ctype *t = ctype_strip(v->type);
    const unsigned char *p = v->bytes;
    size_t len = v->size;
    uint64_t w = 0;
    char *s;

    if (len > 16)
        len = 16;
    memcpy(&w, p, len < 8 ? len : 8);
    switch (o->format) {
    case 'x':
        dstr_puts(b, "0x");
        put_digits(b, p, len, 16, 0);
        break;
    case 'z':
        dstr_puts(b, "0x");
        put_digits(b, p, len, 16, 1);
        break;
    case 'o':
        if (w == 0 && len <= 8) {
            dstr_putc(b, '0');
            break;
        }
        dstr_putc(b, '0');
        put_digits(b, p, len, 8, 0);
        break;
    case 't':
        put_digits(b, p, len, 2, 0);
        break;
    case 'd':
        /* (a float's bits, as gdb 8 and later take them) */
        put_decimal(b, p, len, 1);
        break;
    case 'u':
        put_decimal(b, p, len, 0);
        break;
    case 'c': {
        /* the value as a char: signed unless its type is unsigned */
        int c = t->is_signed || t->kind == CT_PTR ? (int)(int8_t)w
                                                   : (int)(uint8_t)w;

        s = cprint_char(c);
        dstr_printf(b, "%d %s", c, s);
        free(s);
        break;
    }
    case 'a':
        dstr_printf(b, "0x%llx", (unsigned long long)w);
        s = cprint_symbolic(v->d, w);
        dstr_puts(b, s);
        free(s);
        break;
    default:
        print_value(b, v, o);
        break;
    }
}

/* Enum value X of T, as gdb's generic_val_print_enum_1. */
static void put_enum(struct dstr *b, struct ctype *t, int64_t x)
{
    const char *name = ctype_enum_name(t, x);
    uint64_t left = (uint64_t)x;
    int first = 1;

    if (name != NULL) {
        dstr_puts(b, name);
        return;
    }
    if (!t->flag_enum) {
        dstr_printf(b, t->is_signed ? "%lld" : "%llu", (long long)x);
        return;
    }
    for (unsigned int i = 0; i < t->nenums; i++) {
        uint64_t e = (uint64_t)t->enums[i].value;

        if ((left & e) != 0) {
            dstr_puts(b, first ? "(" : " | ");
            first = 0;
            left &= ~e;
            dstr_puts(b, t->enums[i].name);
        }
    }
    if (left != 0) {
        dstr_puts(b, first ? "(unknown: " : " | unknown: ");
        dstr_printf(b, "0x%llx)", (unsigned long long)left);
    } else if (first) {
        dstr_putc(b, '0');
    } else {
        dstr_putc(b, ')');
    }
}

/* The elements of array V (gdb's value_print_array_elements). */
static void put_elements(struct dstr *b, struct cvalue *v, struct ctype *t,
                         const struct cprint_opts *o)
{
    uint64_t n = t->count, i, things = 0;
    size_t esize = (size_t)ctype_size(t->target);

    for (i = 0; i < n && things < o->print_max; i++) {
        uint64_t rep = i + 1, reps = 1;
        struct cvalue *e;

        if (i != 0)
            dstr_puts(b, ", ");
        while (rep < n && esize > 0 &&
               memcmp(v->bytes + i * esize, v->bytes + rep * esize, esize) ==
                   0 &&
               (v->avail == NULL ||
                memcmp(v->avail + i * esize, v->avail + rep * esize, esize) ==
                    0)) {
            reps++;
            rep++;
        }
        e = cvalue_element(v, (int64_t)i);
        if (e != NULL)
            print_value(b, e, o);
        cvalue_free(e);
        if (reps > o->repeats) {
            dstr_printf(b, " <repeats %llu times>", (unsigned long long)reps);
            i = rep - 1;
            things += o->repeats;
        } else {
            things++;
        }
    }
    if (i < n)
        dstr_puts(b, "...");
}

static void put_pointer(struct dstr *b, struct cvalue *v, struct ctype *t,
                        const struct cprint_opts *o)
{
    uint64_t addr = cvalue_as_uint(v);
    struct ctype *target = ctype_strip(t->target);
    char *sym;

    dstr_printf(b, "0x%llx", (unsigned long long)addr);
    sym = cprint_symbolic(v->d, addr);
    dstr_puts(b, sym);
    free(sym);
    if (target != NULL && target->kind != CT_FUNC &&
        textual(t->target, o->format) && addr != 0) {
        dstr_putc(b, ' ');
        put_string_at(b, v->d, addr, o);
    }
}

static void put_struct(struct dstr *b, struct cvalue *v, struct ctype *t,
                       const struct cprint_opts *o)
{
    unsigned int i;

    if (ctype_complete(t) != 0) {
        dstr_puts(b, "<incomplete type>");
        return;
    }
    dstr_putc(b, '{');
    if (t->nmembers == 0)
        dstr_puts(b, "<No data fields>");
    for (i = 0; i < t->nmembers; i++) {
        const struct cmember *m = &t->members[i];
        struct cvalue *mv = cvalue_member(v, m, m->offset);

        if (i > 0)
            dstr_puts(b, ", ");
        if (m->name != NULL) {
            dstr_puts(b, m->name);
            dstr_puts(b, " = ");
        }
        print_value(b, mv, o);
        cvalue_free(mv);
    }
    dstr_putc(b, '}');
}

static void print_value(struct dstr *b, struct cvalue *v,
                        const struct cprint_opts *o)
{
    struct ctype *t = ctype_strip(v->type);
    int64_t x;

    if (cvalue_fetch(v) != 0) {
        if (v->optout || cvalue_all_optout(v))
            dstr_puts(b, "<optimized out>");
        else
            dstr_printf(b, "<error: %s>", v->error);
        return;
    }
    if (cvalue_all_optout(v)) {
        dstr_puts(b, "<optimized out>");
        return;
    }
    switch (t->kind) {
    case CT_STRUCT:
    case CT_UNION:
        put_struct(b, v, t, o);
        return;
    case CT_ARRAY:
        if (!t->count_known || ctype_size(t->target) == 0) {
            /* an array of unknown length: its address, as a pointer */
            dstr_printf(b, "0x%llx", (unsigned long long)v->addr);
            return;
        }
        if (textual(t->target, o->format) && cvalue_available(v, 0, v->size)) {
            put_string(b, v->bytes, (size_t)t->count, 0, o);
            return;
        }
        dstr_putc(b, '{');
        put_elements(b, v, t, o);
        dstr_putc(b, '}');
        return;
    case CT_FUNC: {
        char *name = ctype_name(v->type), *sym;

        dstr_printf(b, "{%s} 0x%llx", name, (unsigned long long)v->addr);
        sym = cprint_symbolic(v->d, v->addr);
        dstr_puts(b, sym);
        free(sym);
        free(name);
        return;
    }
    case CT_VOID:
        dstr_puts(b, "void");
        return;
    default:
        break;
    }
    /* scalars: every byte must be there */
    if (!cvalue_available(v, 0, v->size)) {
        dstr_puts(b, "<optimized out>");
        return;
    }
    if (o->format != 0 && o->format != 's') {
        struct cprint_opts plain = *o;

        plain.format = 0;
        if (o->format == 'a' || o->format == 'c' || o->format == 'x' ||
            o->format == 'z' || o->format == 'o' || o->format == 't' ||
            o->format == 'd' || o->format == 'u') {
            put_formatted(b, v, o);
            return;
        }
        print_value(b, v, &plain);
        return;
    }
    switch (t->kind) {
    case CT_PTR:
        put_pointer(b, v, t, o);
        return;
    case CT_BOOL:
        cvalue_as_int(v, &x);
        if (x == 0)
            dstr_puts(b, "false");
        else if (x == 1)
            dstr_puts(b, "true");
        else
            dstr_printf(b, "%lld", (long long)x);
        return;
    case CT_FLOAT:
        put_float(b, v->bytes, v->size);
        return;
    case CT_ENUM:
        cvalue_as_int(v, &x);
        put_enum(b, t, x);
        return;
    default:
        cvalue_as_int(v, &x);
        if (t->is_signed)
            dstr_printf(b, "%lld", (long long)x);
        else
            dstr_printf(b, "%llu", (unsigned long long)x);
        if (textual(v->type, o->format)) {
            char *c = cprint_char((int)x);

            dstr_putc(b, ' ');
            dstr_puts(b, c);
            free(c);
        }
        return;
    }
}

char *cprint_value(struct cvalue *v, const struct cprint_opts *o)
{
    struct dstr b = {0};

    print_value(&b, v, o);
    return dstr_take(&b);
}

char *cprint_top(struct cvalue *v, const struct cprint_opts *o,
                 char **cause)
{
    struct dstr b = {0};
    struct ctype *t = ctype_strip(v->type);

    if (cvalue_fetch(v) != 0 && !v->optout && !cvalue_all_optout(v)) {
        xcause(cause, "%s", v->error);
        return NULL;
    }
    if (t->kind == CT_FUNC && o->format != 0 && o->format != 's') {
        xcause(cause, "Value can't be converted to integer.");
        return NULL;
    }
    if (t->kind == CT_PTR && (o->format == 0 || o->format == 's') &&
        !cvalue_all_optout(v)) {
        struct ctype *u = ctype_unqual(v->type);
        struct ctype *target = u->kind == CT_PTR ? ctype_unqual(u->target)
                                                 : NULL;
        /* "(char *)" says nothing a quoted string does not */
        int plain_char = u->kind == CT_PTR && target != NULL &&
                         target->kind == CT_CHAR && target->name != NULL &&
                         strcmp(target->name, "char") == 0;

        if (!plain_char) {
            char *name = ctype_name(v->type);

            dstr_printf(&b, "(%s) ", name);
            free(name);
        }
    }
    print_value(&b, v, o);
    return dstr_take(&b);
}
