/* SPDX-License-Identifier: MIT */
/*
 * frames.h - the frames of a stopped thread of the program, as a
 * debugger shows them: the machine's frames (unwound with libunwind over
 * ptrace, with the registers each frame sees) and, within each, the
 * functions inlined there (from DWARF), innermost first.  A frame knows
 * its function, its place (file and line), its scopes (the DWARF blocks
 * that hold its variables) and its canonical frame address; its
 * variables are read through dloc.h.
 *
 * Registers that a call does not preserve (rax, rcx, rdx, rsi, rdi,
 * r8-r11, the vector registers) are known in the innermost machine frame
 * only: in a caller, the callee has used them (<design#debug-frames>).
 * Nothing here prints.
 */
#ifndef NOOSA_FRAMES_H
#define NOOSA_FRAMES_H

#include <elfutils/libdwfl.h>
#include <stdint.h>
#include <sys/types.h>

struct dinfo;

/* DWARF's numbering of the x86-64 registers: rax, rdx, rcx, rbx, rsi,
 * rdi, rbp, rsp, r8-r15, rip, then xmm0-15 (17-32). */
#define FRAME_NGPR 17
#define FRAME_XMM0 17
#define FRAME_NXMM 16

/* Frames of one thread at most. */
#define FRAMES_MAX 4096

struct pframe {
    uint64_t pc;
    uint64_t cfa;
    uint64_t regs[FRAME_NGPR];
    uint32_t valid;                 /* a bit a register of REGS */
    uint64_t saved[FRAME_NGPR];     /* where this frame saved its caller's
                                       register (0: it did not) */
    uint64_t loc[FRAME_NGPR];       /* where this frame's register is kept
                                       in memory (0: in the register) */
    int signal_frame;               /* made by the kernel for a handler */
    int interrupted;                /* the frame below is a signal frame,
                                       or this is the innermost */
};

struct frame {
    unsigned int phys;     /* its machine frame */
    int inlined;           /* a function inlined into the machine frame's */
    int runtime;           /* a function of the dapto runtime */
    uint64_t pc;           /* the machine frame's */
    uint64_t lookup;       /* where its scopes and locations are looked
                              up: PC, or PC - 1 in a caller (the call) */
    Dwfl_Module *mod;
    Dwarf_Addr bias;
    int has_cu;
    Dwarf_Die cu;
    int has_fn;
    Dwarf_Die fn;          /* DW_TAG_subprogram or inlined_subroutine */
    Dwarf_Die subprogram;  /* the machine frame's function (frame base) */
    Dwarf_Die *scopes;     /* innermost block out to FN (a slice of the
                              machine frame's chain) */
    int nscopes;
    const char *name;      /* the function, or NULL */
    const char *file;      /* where: NULL without a line table */
    int line;
    const char *module;
};

struct frames {
    pid_t tid;
    unsigned int nphys;
    struct pframe *phys;
    unsigned int n;
    struct frame *f;
    int truncated;          /* more than FRAMES_MAX */
    unsigned char xmm[FRAME_NXMM][16]; /* the thread's, innermost frame */
    int has_xmm;
    Dwarf_Die **chains;     /* the scope chain of each machine frame */
};

/* Unwind thread TID, stopped under ptrace by this process: 0 with *OUT,
 * or -1 with *cause. */
int frames_unwind(struct dinfo *d, pid_t tid, struct frames **out,
                  char **cause);
void frames_free(struct frames *fr);

/* Whether a function of that name belongs to the dapto runtime or the
 * stubs it generates (hidden from the program's frames at an event). */
int frames_runtime_name(const char *fn);

/* The first frame after the runtime's (0 when it has none on top). */
unsigned int frames_first_program(const struct frames *fr);
/* The program's own innermost frame: after the runtime's, the first in
 * its executable EXE (not the C library's), else the first after the
 * runtime's. */
unsigned int frames_default(const struct frames *fr, const char *exe);

/* Register REG (DWARF number) as frame F sees it: 0, or -1 when it is not
 * known there. */
int frames_reg(const struct frames *fr, unsigned int f, unsigned int reg,
               uint64_t *val);
/* The 16 bytes of xmm register N as frame F sees it: NULL when not
 * known there. */
const unsigned char *frames_xmm(const struct frames *fr, unsigned int f,
                                unsigned int n);

/* The name of register REG as gdb spells it ("rbx"), or NULL; the DWARF
 * number of gdb's name NAME ("rip", "pc", "sp", "fp"), or -1. */
const char *frames_reg_name(unsigned int reg);
int frames_reg_number(const char *name);

#endif /* NOOSA_FRAMES_H */
