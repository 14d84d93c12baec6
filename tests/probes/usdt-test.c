/* SPDX-License-Identifier: MIT */
/*
 * usdt-test.c - the note parser (src/core/usdt.c) on notes made here:
 * every operand form of the assembler's text, sizes and signs, the
 * prelink adjustment, notes of other owners stepped over, and malformed
 * notes and arguments, each left out with the message that says why
 * (the others still read).
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "usdt.h"
#include "xmalloc.h"

/* A note section being written. */
struct sec {
    unsigned char b[4096];
    size_t n;
};

static void put32(struct sec *s, uint32_t v)
{
    memcpy(s->b + s->n, &v, 4);
    s->n += 4;
}

static void pad4(struct sec *s)
{
    while (s->n % 4)
        s->b[s->n++] = 0;
}

/* A note of OWNER and TYPE whose descriptor is DESC (LEN bytes). */
static void note(struct sec *s, const char *owner, uint32_t type,
                 const void *desc, size_t len)
{
    put32(s, (uint32_t)strlen(owner) + 1);
    put32(s, (uint32_t)len);
    put32(s, type);
    memcpy(s->b + s->n, owner, strlen(owner) + 1);
    s->n += strlen(owner) + 1;
    pad4(s);
    memcpy(s->b + s->n, desc, len);
    s->n += len;
    pad4(s);
}

/* A stapsdt note for a 64-bit file. */
static void probe(struct sec *s, uint64_t loc, uint64_t base, uint64_t sema,
                  const char *prov, const char *name, const char *args)
{
    unsigned char d[512];
    size_t n = 0;

    memcpy(d, &loc, 8);
    memcpy(d + 8, &base, 8);
    memcpy(d + 16, &sema, 8);
    n = 24;
    memcpy(d + n, prov, strlen(prov) + 1);
    n += strlen(prov) + 1;
    memcpy(d + n, name, strlen(name) + 1);
    n += strlen(name) + 1;
    memcpy(d + n, args, strlen(args) + 1);
    n += strlen(args) + 1;
    note(s, "stapsdt", 3, d, n);
}

static struct usdt_note got[16];
static unsigned int ngot;
static char *warned[16];
static unsigned int nwarned;

static void take(void *arg, struct usdt_note *n)
{
    (void)arg;
    if (ngot < 16)
        got[ngot++] = *n;
    memset(n, 0, sizeof *n);
}

static void warn(void *arg, const char *provider, const char *text)
{
    (void)arg;
    (void)provider;
    if (nwarned < 16)
        warned[nwarned++] = xstrdup(text);
}

static void reset(void)
{
    for (unsigned int i = 0; i < ngot; i++)
        usdt_note_clear(&got[i]);
    for (unsigned int i = 0; i < nwarned; i++)
        free(warned[i]);
    ngot = nwarned = 0;
}

static int warned_of(const char *part)
{
    for (unsigned int i = 0; i < nwarned; i++)
        if (strstr(warned[i], part) != NULL)
            return 1;
    for (unsigned int i = 0; i < nwarned; i++)
        fprintf(stderr, "  warned: %s\n", warned[i]);
    return 0;
}

static void test_operands(void)
{
    struct usdt_arg a[USDT_MAX_ARGS];
    char *cause = NULL, buf[64];
    int n;

    n = usdt_parse_args("-4@%eax 8@%r12 -8@-24(%rsp) 8@16(%rax,%rdx,8) "
                        "-4@$42 1@%ah 2@%r9w 8@16+counters(%rip) "
                        "-8@name-8(%rip) 8@(%rbx) -2@-0x10(,%rcx,4) 8@%rdi",
                        a, &cause);
    CHECK_EQ_INT(n, 12);
    CHECK(a[0].kind == USDT_ARG_REG && a[0].reg == USDT_RAX &&
          a[0].size == 4 && a[0].is_signed);
    CHECK(a[1].kind == USDT_ARG_REG && a[1].reg == USDT_R12 &&
          a[1].size == 8 && !a[1].is_signed);
    CHECK(a[2].kind == USDT_ARG_MEM && a[2].reg == USDT_RSP &&
          a[2].value == -24 && a[2].index == USDT_NOREG);
    CHECK(a[3].kind == USDT_ARG_MEM && a[3].reg == USDT_RAX &&
          a[3].index == USDT_RDX && a[3].scale == 8 && a[3].value == 16);
    CHECK(a[4].kind == USDT_ARG_CONST && a[4].value == 42);
    CHECK(a[5].kind == USDT_ARG_REG && a[5].shift == 8 && a[5].size == 1);
    CHECK(a[6].kind == USDT_ARG_REG && a[6].reg == USDT_R9 && a[6].size == 2);
    CHECK(a[7].kind == USDT_ARG_MEM && a[7].reg == USDT_RIP &&
          a[7].sym != NULL && strcmp(a[7].sym, "counters") == 0 &&
          a[7].value == 16);
    CHECK(a[8].sym != NULL && strcmp(a[8].sym, "name") == 0 &&
          a[8].value == -8);
    CHECK(a[9].kind == USDT_ARG_MEM && a[9].reg == USDT_RBX &&
          a[9].value == 0);
    CHECK(a[10].reg == USDT_NOREG && a[10].index == USDT_RCX &&
          a[10].scale == 4 && a[10].value == -16 && a[10].size == 2);
    CHECK(strcmp(usdt_arg_text(&a[3], buf, sizeof buf),
                 "8@16(%rax,%rdx,8)") == 0);
    CHECK(strcmp(usdt_arg_text(&a[0], buf, sizeof buf), "-4@%rax") == 0);
    for (int i = 0; i < n; i++)
        free(a[i].sym);
    /* floating-point values, as <sys/sdt.h> marks them */
    n = usdt_parse_args("8f@%rax -4f@-8(%rbp)", a, &cause);
    CHECK_EQ_INT(n, 2);
    CHECK(a[0].is_float && a[0].size == 8 && a[0].kind == USDT_ARG_REG);
    CHECK(a[1].is_float && a[1].size == 4 && a[1].is_signed);
    CHECK(strcmp(usdt_arg_text(&a[0], buf, sizeof buf), "8f@%rax") == 0);
    CHECK_EQ_INT(usdt_parse_args("2f@%ax", a, &cause), -1);
    free(cause);
    cause = NULL;
    CHECK_EQ_INT(usdt_parse_args("", a, &cause), 0);
    CHECK_EQ_INT(usdt_parse_args("%rbx", a, &cause), 1); /* no size: 8 */
    CHECK(a[0].size == 8);

    /* what does not parse, and why */
    static const struct {
        const char *args, *why;
    } bad[] = {
        {"3@%eax", "argument 1 (3@%eax): a size other than 1, 2, 4 or 8"},
        {"8@%rax 8@%foo", "argument 2 (8@%foo): an unknown register"},
        /* (no vector or x87 register: the hit handled in the program
         * reads the general registers alone <design#probes>) */
        {"8f@%xmm0", "argument 1 (8f@%xmm0): an unknown register"},
        {"4f@%st", "an unknown register"},
        {"8@16(%xmm1)", "a base that is not a 64-bit register"},
        {"8@$x", "a constant that is not a number"},
        {"8@16(%rax", "memory without its parenthesised registers"},
        {"8@16(%rax,%rdx,3)", "a scale other than 1, 2, 4 or 8"},
        {"8@16(%eax)", "a base that is not a 64-bit register"},
        {"8@sym(%rax)", "a symbol not relative to %rip"},
        {"8@1234", "an absolute address (no register)"},
        {"8@%rip", "the instruction pointer as a value"},
        {"8@()", "memory without a register"},
        {"8@16(%rax)x", "memory without its parenthesised registers"},
        {"8@16(%rax,%rbx,4,)", "a scale other than 1, 2, 4 or 8"},
        {"8@", "an empty operand"},
        {"8@%rax 8@%rax 8@%rax 8@%rax 8@%rax 8@%rax 8@%rax 8@%rax 8@%rax "
         "8@%rax 8@%rax 8@%rax 8@%rax",
         "more than 12 arguments"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cause = NULL;
        n = usdt_parse_args(bad[i].args, a, &cause);
        CHECK_EQ_INT(n, -1);
        CHECK(cause != NULL && strstr(cause, bad[i].why) != NULL);
        if (cause == NULL || strstr(cause, bad[i].why) == NULL)
            fprintf(stderr, "  %s: %s\n", bad[i].args,
                    cause != NULL ? cause : "(no message)");
        free(cause);
    }
}

static void test_notes(void)
{
    struct sec s;
    unsigned int n;

    memset(&s, 0, sizeof s);
    probe(&s, 0x1000, 0x2000, 0x3000, "app", "tick", "-4@%edi 8@%rax");
    note(&s, "GNU", 3, "abcd", 4); /* another owner: stepped over */
    probe(&s, 0x1010, 0x2000, 0, "app", "bad", "8@%nope");
    probe(&s, 0x1020, 0x2000, 0, "ap-p", "x", "");
    probe(&s, 0x1030, 0x2000, 0, "lib", "plain", "");
    n = usdt_parse_notes(s.b, s.n, 1, 0, take, warn, NULL);
    CHECK_EQ_INT(n, 2);
    CHECK_EQ_INT(ngot, 2);
    CHECK(ngot > 0 && got[0].location == 0x1000 && got[0].semaphore == 0x3000 &&
          strcmp(got[0].provider, "app") == 0 &&
          strcmp(got[0].name, "tick") == 0 && got[0].nargs == 2);
    CHECK(ngot > 1 && strcmp(got[1].name, "plain") == 0 && got[1].nargs == 0);
    CHECK(warned_of("probe app:bad at 0x1010: argument 1 (8@%nope): an "
                    "unknown register; the probe is left out"));
    CHECK(warned_of("must be letters, digits and underscores"));
    reset();

    /* moved after the note was written (prelink): .stapsdt.base says */
    n = usdt_parse_notes(s.b, s.n, 1, 0x2100, take, warn, NULL);
    CHECK(ngot >= 1 && got[0].location == 0x1100 &&
          got[0].semaphore == 0x3100);
    reset();

    /* cut short: each length is checked against the section */
    memset(&s, 0, sizeof s);
    probe(&s, 0x1000, 0, 0, "app", "tick", "-4@%edi");
    n = usdt_parse_notes(s.b, s.n - 8, 1, 0, take, warn, NULL);
    CHECK_EQ_INT(n, 0);
    CHECK(warned_of("passes the end of the section"));
    reset();
    n = usdt_parse_notes(s.b, 7, 1, 0, take, warn, NULL);
    CHECK_EQ_INT(n, 0);
    CHECK(warned_of("less than a note's header"));
    reset();

    /* strings without their NUL inside the descriptor */
    memset(&s, 0, sizeof s);
    {
        unsigned char d[40];

        memset(d, 'a', sizeof d);
        memset(d, 0, 24);
        note(&s, "stapsdt", 3, d, sizeof d);
    }
    n = usdt_parse_notes(s.b, s.n, 1, 0, take, warn, NULL);
    CHECK_EQ_INT(n, 0);
    CHECK(warned_of("its provider is not ended by a NUL inside the note"));
    reset();

    /* a descriptor too short for its addresses */
    memset(&s, 0, sizeof s);
    note(&s, "stapsdt", 3, "abc", 4);
    n = usdt_parse_notes(s.b, s.n, 1, 0, take, warn, NULL);
    CHECK_EQ_INT(n, 0);
    CHECK(warned_of("cannot hold three addresses"));
    reset();

    /* a 32-bit file's note: addresses of 4 bytes */
    memset(&s, 0, sizeof s);
    {
        unsigned char d[64];
        uint32_t w[3] = {0x8048000, 0, 0x8049000};
        size_t k = 12;

        memcpy(d, w, 12);
        memcpy(d + k, "p\0n\0-4@%eax", 12);
        k += 12;
        note(&s, "stapsdt", 3, d, k);
    }
    n = usdt_parse_notes(s.b, s.n, 0, 0, take, warn, NULL);
    CHECK_EQ_INT(n, 1);
    CHECK(ngot == 1 && got[0].location == 0x8048000 &&
          got[0].semaphore == 0x8049000 && got[0].nargs == 1);
    reset();
}

int main(void)
{
    test_operands();
    test_notes();
    return unit_done("usdt-test");
}
