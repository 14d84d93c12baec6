/* SPDX-License-Identifier: MIT */
#include "config.h"

/*
 * usdt.c - the notes of <sys/sdt.h> probes, parsed from a note section's
 * bytes, and their arguments' operand text (the format: <design#probes>).
 * Every length is checked against the end of the section before it is
 * used.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "usdt.h"
#include "xmalloc.h"

/* The note's owner and type (NT_STAPSDT). */
#define USDT_OWNER "stapsdt"
#define USDT_TYPE 3

static const struct {
    const char *name;
    unsigned char reg, width, shift;
} usdt_regs[] = {
    {"rax", USDT_RAX, 8, 0},  {"eax", USDT_RAX, 4, 0},  {"ax", USDT_RAX, 2, 0},
    {"al", USDT_RAX, 1, 0},   {"ah", USDT_RAX, 1, 8},   {"rbx", USDT_RBX, 8, 0},
    {"ebx", USDT_RBX, 4, 0},  {"bx", USDT_RBX, 2, 0},   {"bl", USDT_RBX, 1, 0},
    {"bh", USDT_RBX, 1, 8},   {"rcx", USDT_RCX, 8, 0},  {"ecx", USDT_RCX, 4, 0},
    {"cx", USDT_RCX, 2, 0},   {"cl", USDT_RCX, 1, 0},   {"ch", USDT_RCX, 1, 8},
    {"rdx", USDT_RDX, 8, 0},  {"edx", USDT_RDX, 4, 0},  {"dx", USDT_RDX, 2, 0},
    {"dl", USDT_RDX, 1, 0},   {"dh", USDT_RDX, 1, 8},   {"rsi", USDT_RSI, 8, 0},
    {"esi", USDT_RSI, 4, 0},  {"si", USDT_RSI, 2, 0},   {"sil", USDT_RSI, 1, 0},
    {"rdi", USDT_RDI, 8, 0},  {"edi", USDT_RDI, 4, 0},  {"di", USDT_RDI, 2, 0},
    {"dil", USDT_RDI, 1, 0},  {"rbp", USDT_RBP, 8, 0},  {"ebp", USDT_RBP, 4, 0},
    {"bp", USDT_RBP, 2, 0},   {"bpl", USDT_RBP, 1, 0},  {"rsp", USDT_RSP, 8, 0},
    {"esp", USDT_RSP, 4, 0},  {"sp", USDT_RSP, 2, 0},   {"spl", USDT_RSP, 1, 0},
    {"rip", USDT_RIP, 8, 0},
};

const char *usdt_reg_name(unsigned int r)
{
    static const char *const names[USDT_NREGS] = {
        "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp", "r8",
        "r9",  "r10", "r11", "r12", "r13", "r14", "r15", "rip"};

    return r < USDT_NREGS ? names[r] : "?";
}

/* The register named at *P (after its '%'), its width and shift; the
 * name's length, or 0 when it is none. */
static size_t usdt_reg(const char *p, unsigned char *reg, unsigned char *width,
                       unsigned char *shift)
{
    size_t n = 0;

    while (isalnum((unsigned char)p[n]))
        n++;
    if (n >= 2 && p[0] == 'r' && isdigit((unsigned char)p[1])) {
        /* r8 .. r15, with b/l (byte), w, d or nothing (quad) */
        char *end;
        long v = strtol(p + 1, &end, 10);
        size_t left = n - (size_t)(end - p);

        if (v < 8 || v > 15 || left > 1)
            return 0;
        *reg = (unsigned char)(USDT_R8 + (v - 8));
        *shift = 0;
        *width = left == 0        ? 8
                 : *end == 'd'    ? 4
                 : *end == 'w'    ? 2
                 : *end == 'b' || *end == 'l' ? 1
                                  : 0;
        return *width != 0 ? n : 0;
    }
    for (size_t i = 0; i < sizeof usdt_regs / sizeof usdt_regs[0]; i++) {
        if (strlen(usdt_regs[i].name) == n &&
            strncmp(usdt_regs[i].name, p, n) == 0) {
            *reg = usdt_regs[i].reg;
            *width = usdt_regs[i].width;
            *shift = usdt_regs[i].shift;
            return n;
        }
    }
    return 0;
}

/* A signed number (decimal, 0x hexadecimal or 0 octal) at *P; its
 * length, or 0. */
static size_t usdt_number(const char *p, int64_t *v)
{
    char *end;
    int neg = *p == '-';
    unsigned long long u;

    if (!isdigit((unsigned char)p[neg]))
        return 0;
    errno = 0;
    u = strtoull(p + neg, &end, 0);
    if (errno != 0 || u > (unsigned long long)INT64_MAX + neg)
        return 0;
    *v = neg ? (int64_t)(0 - u) : (int64_t)u;
    return (size_t)(end - p);
}

/* One operand (after SIZE@) into *A; 0, or -1 with *why (static). */
static int usdt_operand(const char *p, const char *end, struct usdt_arg *a,
                        const char **why)
{
    unsigned char width, shift;
    size_t n;
    int64_t v;

    a->reg = a->index = USDT_NOREG;
    a->scale = 1;
    if (*p == '$') {
        n = usdt_number(p + 1, &v);
        if (n == 0 || p + 1 + n != end) {
            *why = "a constant that is not a number";
            return -1;
        }
        a->kind = USDT_ARG_CONST;
        a->value = v;
        return 0;
    }
    if (*p == '%') {
        n = usdt_reg(p + 1, &a->reg, &width, &shift);
        if (n == 0 || p + 1 + n != end) {
            *why = "an unknown register";
            return -1;
        }
        if (a->reg == USDT_RIP) {
            *why = "the instruction pointer as a value";
            return -1;
        }
        a->kind = USDT_ARG_REG;
        a->shift = shift;
        if (width < a->size)
            a->size = width; /* (a wider read would take other bits) */
        return 0;
    }
    /* memory: [DISP | SYM[+-DISP]] ( [%BASE] [,%INDEX[,SCALE]] ) */
    a->kind = USDT_ARG_MEM;
    a->value = 0;
    if (*p == '-' || isdigit((unsigned char)*p)) {
        n = usdt_number(p, &v);
        if (n == 0) {
            *why = "a displacement that is not a number";
            return -1;
        }
        a->value = v;
        p += n;
        if (*p == '+' && p[1] != '(' && p + 1 < end)
            p++; /* NUM+SYM(%rip), as GCC writes it */
        else if (p == end) {
            *why = "an absolute address (no register)";
            return -1;
        }
    }
    if (*p != '(') {
        const char *s = p;

        while (p < end && *p != '(' && *p != '+' && *p != '-')
            p++;
        if (p == s || p == end) {
            *why = "an operand that is neither a register, a constant "
                   "nor memory";
            return -1;
        }
        for (const char *q = s; q < p; q++) {
            if (!isalnum((unsigned char)*q) && *q != '_' && *q != '.' &&
                *q != '$' && *q != '@') {
                *why = "a symbol with a character symbols do not have";
                return -1;
            }
        }
        a->sym = xstrndup(s, (size_t)(p - s));
        if (*p == '+' || *p == '-') {
            n = usdt_number(*p == '+' ? p + 1 : p, &v);
            if (n == 0) {
                *why = "an offset that is not a number";
                return -1;
            }
            a->value += v;
            p += n + (*p == '+');
        }
    }
    if (p == end) {
        *why = "an absolute address (no register)";
        return -1;
    }
    if (*p != '(' || end[-1] != ')') {
        *why = "memory without its parenthesised registers";
        return -1;
    }
    p++;
    end--;
    if (*p == '%') {
        n = usdt_reg(p + 1, &a->reg, &width, &shift);
        if (n == 0 || width != 8) {
            *why = "a base that is not a 64-bit register";
            return -1;
        }
        p += 1 + n;
    }
    if (p < end && *p == ',') {
        p++;
        if (*p != '%' || (n = usdt_reg(p + 1, &a->index, &width, &shift)) ==
                             0 ||
            width != 8 || a->index == USDT_RIP || a->index == USDT_RSP) {
            *why = "an index that is not a 64-bit register";
            return -1;
        }
        p += 1 + n;
        if (p < end && *p == ',') {
            p++;
            if (p + 1 != end || (*p != '1' && *p != '2' && *p != '4' &&
                                 *p != '8')) {
                *why = "a scale other than 1, 2, 4 or 8";
                return -1;
            }
            a->scale = (unsigned char)(*p - '0');
            p++;
        }
    }
    if (p != end) {
        *why = "memory with something after its registers";
        return -1;
    }
    if (a->reg == USDT_NOREG && a->index == USDT_NOREG) {
        *why = "memory without a register";
        return -1;
    }
    if (a->sym != NULL && a->reg != USDT_RIP) {
        *why = "a symbol not relative to %rip";
        return -1;
    }
    return 0;
}

int usdt_parse_args(const char *args, struct usdt_arg *arg, char **cause)
{
    const char *p = args;
    int n = 0;

    for (;;) {
        const char *s, *e, *at, *whole, *why = NULL;
        struct usdt_arg *a;
        int64_t size = 8;

        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '\0')
            return n;
        if (n == USDT_MAX_ARGS) {
            xcause(cause, "more than %d arguments", USDT_MAX_ARGS);
            goto bad;
        }
        s = whole = p;
        while (*p != '\0' && *p != ' ' && *p != '\t')
            p++;
        e = p;
        a = &arg[n];
        memset(a, 0, sizeof *a);
        at = memchr(s, '@', (size_t)(e - s));
        if (at != NULL) {
            size_t k = usdt_number(s, &size);

            if (k > 0 && s + k + 1 == at && s[k] == 'f' &&
                (size == 4 || size == 8 || size == -4 || size == -8)) {
                a->is_float = 1;
                k++;
            }
            if (k == 0 || s + k != at ||
                (size != 1 && size != 2 && size != 4 && size != 8 &&
                 size != -1 && size != -2 && size != -4 && size != -8)) {
                xcause(cause, "argument %d (%.*s): a size other than 1, 2, "
                       "4 or 8 bytes (4f or 8f: floating-point)", n + 1,
                       (int)(e - s), s);
                goto bad;
            }
            s = at + 1;
        }
        a->is_signed = size < 0;
        a->size = (unsigned char)(size < 0 ? -size : size);
        if (s == e || usdt_operand(s, e, a, &why) != 0) {
            xcause(cause, "argument %d (%.*s): %s", n + 1, (int)(e - whole),
                   whole, why != NULL ? why : "an empty operand");
            free(a->sym);
            a->sym = NULL;
            goto bad;
        }
        n++;
    }
bad:
    for (int i = 0; i < n; i++) {
        free(arg[i].sym);
        arg[i].sym = NULL;
    }
    return -1;
}

void usdt_note_clear(struct usdt_note *n)
{
    free(n->provider);
    free(n->name);
    free(n->args);
    for (unsigned int i = 0; i < n->nargs; i++)
        free(n->arg[i].sym);
    memset(n, 0, sizeof *n);
}

/* Whether S (LEN bytes) is a name a probe may have: letters, digits and
 * underscores. */
static int usdt_name_ok(const char *s, size_t len)
{
    if (len == 0)
        return 0;
    for (size_t i = 0; i < len; i++)
        if (!isalnum((unsigned char)s[i]) && s[i] != '_')
            return 0;
    return 1;
}

typedef void (*usdt_warn_fn)(void *, const char *, const char *);

static void usdt_warn(usdt_warn_fn warn, void *arg, const char *provider,
                      const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void usdt_warn(usdt_warn_fn warn, void *arg, const char *provider,
                      const char *fmt, ...)
{
    va_list ap;
    char *text;

    if (warn == NULL)
        return;
    va_start(ap, fmt);
    text = xvasprintf(fmt, ap);
    va_end(ap);
    warn(arg, provider, text);
    free(text);
}

static uint64_t usdt_word(const unsigned char *p, int is64)
{
    if (is64) {
        uint64_t v;
        memcpy(&v, p, 8);
        return v;
    } else {
        uint32_t v;
        memcpy(&v, p, 4);
        return v;
    }
}

unsigned int usdt_parse_notes(const void *data, size_t len, int is64,
                              uint64_t base_addr,
                              void (*fn)(void *arg, struct usdt_note *n),
                              void (*warn)(void *arg, const char *provider,
                                           const char *text),
                              void *arg)
{
    const unsigned char *p = data;
    size_t off = 0, word = is64 ? 8 : 4;
    unsigned int count = 0;

    while (off < len) {
        uint32_t namesz, descsz, type;
        size_t name_off, desc_off, next;
        const char *strs[3];
        const unsigned char *desc;
        size_t left, slen[3];
        struct usdt_note n;
        char *cause = NULL;
        int k;

        if (len - off < 12) {
            usdt_warn(warn, arg, NULL, "note at byte %zu: %zu bytes left, less "
                      "than a note's header", off, len - off);
            break;
        }
        memcpy(&namesz, p + off, 4);
        memcpy(&descsz, p + off + 4, 4);
        memcpy(&type, p + off + 8, 4);
        name_off = off + 12;
        if (namesz > len - name_off) {
            usdt_warn(warn, arg, NULL, "note at byte %zu: its name (%u bytes) "
                      "passes the end of the section", off, namesz);
            break;
        }
        desc_off = name_off + (((size_t)namesz + 3) & ~(size_t)3);
        if (desc_off > len || descsz > len - desc_off) {
            usdt_warn(warn, arg, NULL, "note at byte %zu: its descriptor (%u "
                      "bytes) passes the end of the section", off, descsz);
            break;
        }
        next = desc_off + (((size_t)descsz + 3) & ~(size_t)3);
        if (next > len)
            next = len;
        if (type != USDT_TYPE || namesz != sizeof USDT_OWNER ||
            memcmp(p + name_off, USDT_OWNER, sizeof USDT_OWNER) != 0) {
            off = next; /* another kind of note */
            continue;
        }
        desc = p + desc_off;
        if (descsz < 3 * word + 3) {
            usdt_warn(warn, arg, NULL, "probe note at byte %zu: a descriptor of "
                      "%u bytes cannot hold three addresses and three "
                      "strings", off, descsz);
            off = next;
            continue;
        }
        memset(&n, 0, sizeof n);
        n.location = usdt_word(desc, is64);
        n.semaphore = usdt_word(desc + 2 * word, is64);
        if (base_addr != 0) {
            /* the file was moved after the note was written (prelink):
             * the note's addresses move with .stapsdt.base */
            uint64_t delta = base_addr - usdt_word(desc + word, is64);

            n.location += delta;
            if (n.semaphore != 0)
                n.semaphore += delta;
        }
        left = descsz - 3 * word;
        strs[0] = (const char *)desc + 3 * word;
        for (k = 0; k < 3; k++) {
            const char *nul = memchr(strs[k], '\0', left);

            if (nul == NULL)
                break;
            slen[k] = (size_t)(nul - strs[k]);
            left -= slen[k] + 1;
            if (k < 2)
                strs[k + 1] = nul + 1;
        }
        if (k < 3) {
            usdt_warn(warn, arg, NULL, "probe note at byte %zu: its %s is not "
                      "ended by a NUL inside the note", off,
                      k == 0 ? "provider" : k == 1 ? "name" : "arguments");
            off = next;
            continue;
        }
        if (!usdt_name_ok(strs[0], slen[0]) ||
            !usdt_name_ok(strs[1], slen[1])) {
            usdt_warn(warn, arg, NULL, "probe note at byte %zu: provider \"%.*s\" "
                      "and name \"%.*s\" must be letters, digits and "
                      "underscores", off, (int)(slen[0] > 64 ? 64 : slen[0]),
                      strs[0], (int)(slen[1] > 64 ? 64 : slen[1]), strs[1]);
            off = next;
            continue;
        }
        k = usdt_parse_args(strs[2], n.arg, &cause);
        if (k < 0) {
            char *prov = xstrndup(strs[0], slen[0]);

            usdt_warn(warn, arg, prov, "probe %.*s:%.*s at 0x%" PRIx64 ": %s; "
                      "the probe is left out", (int)slen[0], strs[0],
                      (int)slen[1], strs[1], n.location, cause);
            free(prov);
            free(cause);
            off = next;
            continue;
        }
        n.nargs = (unsigned int)k;
        n.provider = xstrndup(strs[0], slen[0]);
        n.name = xstrndup(strs[1], slen[1]);
        n.args = xstrndup(strs[2], slen[2]);
        fn(arg, &n);
        usdt_note_clear(&n);
        count++;
        off = next;
    }
    return count;
}

const char *usdt_arg_text(const struct usdt_arg *a, char *buf, size_t size)
{
    char sz[8], regs[48];

    snprintf(sz, sizeof sz, "%s%u%s@", a->is_signed ? "-" : "", a->size,
             a->is_float ? "f" : "");
    switch (a->kind) {
    case USDT_ARG_CONST:
        snprintf(buf, size, "%s$%" PRId64, sz, a->value);
        break;
    case USDT_ARG_REG:
        snprintf(buf, size, "%s%%%s%s", sz, usdt_reg_name(a->reg),
                 a->shift ? ">>8" : "");
        break;
    default:
        if (a->index != USDT_NOREG)
            snprintf(regs, sizeof regs, "%s%s,%%%s,%u",
                     a->reg != USDT_NOREG ? "%" : "",
                     a->reg != USDT_NOREG ? usdt_reg_name(a->reg) : "",
                     usdt_reg_name(a->index), (unsigned int)a->scale);
        else
            snprintf(regs, sizeof regs, "%%%s", usdt_reg_name(a->reg));
        if (a->sym != NULL)
            snprintf(buf, size, "%s%s%+" PRId64 "(%s)", sz, a->sym, a->value,
                     regs);
        else
            snprintf(buf, size, "%s%" PRId64 "(%s)", sz, a->value, regs);
        break;
    }
    return buf;
}
