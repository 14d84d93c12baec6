/* SPDX-License-Identifier: MIT */
/*
 * usdt.h - the static probes that <sys/sdt.h> leaves in an ELF file
 * (USDT: the `.note.stapsdt` notes that gdb, perf and bpftrace read,
 * <design#probes>): each note says where a probe site is, the probe's
 * provider and name, its semaphore, and where each argument is at the
 * site, as the assembler's operand text ("-4@%eax", "8@16(%rsp)").
 *
 * Reading trusts nothing: the notes of a file are parsed from its bytes,
 * each checked against the end of its section, and a note or an argument
 * that does not parse is left out with a message saying which and why
 * (the others are kept).  Nothing here touches a process.
 */
#ifndef NOOSA_USDT_H
#define NOOSA_USDT_H

#include <stddef.h>
#include <stdint.h>

/* Registers an argument may be in (x86-64), as numbered here. */
enum usdt_reg {
    USDT_RAX, USDT_RBX, USDT_RCX, USDT_RDX, USDT_RSI, USDT_RDI, USDT_RBP,
    USDT_RSP, USDT_R8, USDT_R9, USDT_R10, USDT_R11, USDT_R12, USDT_R13,
    USDT_R14, USDT_R15, USDT_RIP, USDT_NREGS,
    USDT_NOREG = 0xff
};

enum usdt_arg_kind {
    USDT_ARG_CONST = 1, /* $VALUE */
    USDT_ARG_REG,       /* %REG: (reg >> shift) of width bytes */
    USDT_ARG_MEM        /* DISP(%BASE,%INDEX,SCALE), SYM(%rip) ... */
};

/* Where one argument is at the probe site, and what it is. */
struct usdt_arg {
    unsigned char kind;   /* enum usdt_arg_kind */
    unsigned char size;   /* bytes: 1, 2, 4 or 8 */
    unsigned char is_signed;
    unsigned char is_float; /* SIZEf@: a float (4) or a double (8) */
    unsigned char reg;    /* REG: the register; MEM: the base or NOREG */
    unsigned char shift;  /* REG: 8 for %ah .. %dh, else 0 */
    unsigned char index;  /* MEM: the index register or NOREG */
    unsigned char scale;  /* MEM: 1, 2, 4 or 8 */
    int64_t value;        /* CONST: the value; MEM: the displacement */
    char *sym;            /* MEM: a symbol the displacement adds to (to
                             resolve with the file's symbols), or NULL */
};

#define USDT_MAX_ARGS 12

/* One note: a probe site. */
struct usdt_note {
    uint64_t location;  /* link-time address of the site (adjusted for a
                           moved .stapsdt.base) */
    uint64_t semaphore; /* link-time address of its counter, 0 none */
    char *provider;
    char *name;
    char *args;         /* the operand text as written */
    unsigned int nargs;
    struct usdt_arg arg[USDT_MAX_ARGS];
};

/* Parse the argument text ARGS (the third string of a note: each
 * argument [-]SIZE[f]@OPERAND, f for a floating-point value) into ARG
 * (USDT_MAX_ARGS of them): returns how many, or -1 with *cause naming the
 * argument that does not parse. */
int usdt_parse_args(const char *args, struct usdt_arg *arg, char **cause);

/*
 * Parse the contents of a note section (LEN bytes at DATA, of a file of
 * class 64 when IS64, else 32, in this machine's byte order).  BASE_ADDR
 * is the address of the file's .stapsdt.base section (0: none).  Each
 * stapsdt note that parses is handed to FN (which may keep its strings by
 * taking them: it sets the pointers to NULL); one that does not is said
 * through WARN, once each, with its position.  Returns the number of
 * notes handed over.
 */
unsigned int usdt_parse_notes(const void *data, size_t len, int is64,
                              uint64_t base_addr,
                              void (*fn)(void *arg, struct usdt_note *n),
                              void (*warn)(void *arg, const char *provider,
                                           const char *text),
                              void *arg);

/* Free what a note still holds. */
void usdt_note_clear(struct usdt_note *n);

/* The name of register R as written in an operand ("rax"), for messages. */
const char *usdt_reg_name(unsigned int r);

/* The operand text of ARG, into BUF (for `info probes'). */
const char *usdt_arg_text(const struct usdt_arg *a, char *buf, size_t size);

#endif /* NOOSA_USDT_H */
