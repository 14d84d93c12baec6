/* SPDX-License-Identifier: MIT */
/*
 * frames.c - a stopped thread's frames: libunwind over ptrace for the
 * machine's frames and the registers each sees, libdw for the scopes at
 * each frame's address, split into one frame per function inlined there
 * as gdb shows them.  A fresh unwind each time the caller asks (once a
 * stop): the program's mappings may have changed since the last.
 */
#include "config.h"

#include <dwarf.h>
#include <libunwind-ptrace.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/user.h>

#include "codenames.h"
#include "dinfo.h"
#include "frames.h"
#include "xmalloc.h"

/* Registers a call preserves (System V x86-64): rbx, rsp, rbp, r12-r15,
 * and rip (the return address) as the unwinder computes it. */
#define CALLEE_SAVED                                                        \
    ((1u << 3) | (1u << 6) | (1u << 7) | (1u << 12) | (1u << 13) |        \
     (1u << 14) | (1u << 15) | (1u << 16))

int frames_runtime_name(const char *fn)
{
    return codenames_runtime(fn);
}

/* The machine frames of TID into FR. */
static int unwind(struct frames *fr, char **cause)
{
    unw_addr_space_t as;
    unw_cursor_t cur;
    void *upt;
    size_t cap = 0;
    int rc;

    as = unw_create_addr_space(&_UPT_accessors, 0);
    if (as == NULL) {
        xcause(cause, "libunwind: cannot create an address space");
        return -1;
    }
    upt = _UPT_create(fr->tid);
    if (upt == NULL) {
        xcause(cause, "libunwind: cannot access thread %d", (int)fr->tid);
        unw_destroy_addr_space(as);
        return -1;
    }
    rc = unw_init_remote(&cur, as, upt);
    if (rc < 0) {
        xcause(cause, "cannot unwind thread %d: %s", (int)fr->tid,
               unw_strerror(rc));
        goto done;
    }
    do {
        struct pframe *p;
        unw_word_t v;
        unsigned int r;

        if (fr->nphys == FRAMES_MAX) {
            fr->truncated = 1;
            break;
        }
        if (unw_get_reg(&cur, UNW_REG_IP, &v) < 0 || (v == 0 && fr->nphys > 0))
            break;
        fr->phys = xgrow(fr->phys, fr->nphys, &cap, sizeof *fr->phys);
        p = &fr->phys[fr->nphys];
        memset(p, 0, sizeof *p);
        p->pc = v;
        p->signal_frame = unw_is_signal_frame(&cur) > 0;
        p->interrupted =
            fr->nphys == 0 || fr->phys[fr->nphys - 1].signal_frame;
        for (r = 0; r < FRAME_NGPR; r++) {
            if (!p->interrupted && !(CALLEE_SAVED & (1u << r)))
                continue;
            if (unw_get_reg(&cur, (int)r, &v) == 0) {
                p->regs[r] = v;
                p->valid |= 1u << r;
            }
        }
        for (r = 0; r < FRAME_NGPR; r++) {
            unw_save_loc_t loc;

            if (unw_get_save_loc(&cur, (int)r, &loc) == 0 &&
                loc.type == UNW_SLT_MEMORY)
                p->loc[r] = loc.u.addr;
        }
        if (fr->nphys > 0) {
            /* what the callee saved: the registers kept elsewhere for
             * this frame than for the callee (info frame's "saved
             * registers"); its CFA is this frame's stack pointer */
            struct pframe *callee = &fr->phys[fr->nphys - 1];

            for (r = 0; r < FRAME_NGPR; r++)
                if (p->loc[r] != 0 && p->loc[r] != callee->loc[r])
                    callee->saved[r] = p->loc[r];
            callee->cfa = p->regs[7];
        }
        fr->nphys++;
    } while (unw_step(&cur) > 0);
    rc = fr->nphys > 0 ? 0 : -1;
    if (rc != 0)
        xcause(cause, "cannot unwind thread %d: no frame", (int)fr->tid);
done:
    _UPT_destroy(upt);
    unw_destroy_addr_space(as);
    return rc;
}

/* The canonical frame address of the outermost frame, from the CFI:
 * what the stack pointer was before the call into it. */
static void last_cfa(struct dinfo *d, struct pframe *p, uint64_t lookup)
{
    Dwfl_Module *mod = dwfl_addrmodule(dinfo_dwfl(d), lookup);
    Dwarf_CFI *cfi;
    Dwarf_Frame *frame;
    Dwarf_Addr bias;
    Dwarf_Op *ops;
    size_t nops;

    p->cfa = p->regs[7];
    if (mod == NULL)
        return;
    cfi = dwfl_module_eh_cfi(mod, &bias);
    if (cfi == NULL)
        cfi = dwfl_module_dwarf_cfi(mod, &bias);
    if (cfi == NULL || dwarf_cfi_addrframe(cfi, lookup - bias, &frame) != 0)
        return;
    if (dwarf_frame_cfa(frame, &ops, &nops) == 0 && nops == 1 &&
        ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg16) {
        unsigned int r = ops[0].atom - DW_OP_breg0;

        if (p->valid & (1u << r))
            p->cfa = p->regs[r] + (uint64_t)(int64_t)ops[0].number;
    }
    free(frame);
}

static int die_has_pc(Dwarf_Die *die, Dwarf_Addr pc)
{
    return dwarf_haspc(die, pc) == 1;
}

/* The chain of scopes around PC (relative to the module) in CU,
 * innermost first, without the unit: *OUT (freed by the caller). */
static int scope_chain(Dwarf_Die *cu, Dwarf_Addr pc, Dwarf_Die **out)
{
    Dwarf_Die cur = *cu, child, *chain = NULL;
    size_t n = 0, cap = 0, i;

    for (;;) {
        int found = 0;

        if (dwarf_child(&cur, &child) != 0)
            break;
        do {
            int tag = dwarf_tag(&child);

            if ((tag == DW_TAG_subprogram || tag == DW_TAG_lexical_block ||
                 tag == DW_TAG_inlined_subroutine) &&
                die_has_pc(&child, pc)) {
                chain = xgrow(chain, n, &cap, sizeof *chain);
                chain[n++] = child;
                cur = child;
                found = 1;
                break;
            }
        } while (dwarf_siblingof(&child, &child) == 0);
        if (!found)
            break;
    }
    for (i = 0; i < n / 2; i++) {
        Dwarf_Die t = chain[i];

        chain[i] = chain[n - 1 - i];
        chain[n - 1 - i] = t;
    }
    *out = chain;
    return (int)n;
}

static const char *die_name(Dwarf_Die *die)
{
    Dwarf_Attribute a;

    if (dwarf_attr_integrate(die, DW_AT_name, &a) == NULL)
        return NULL;
    return dwarf_formstring(&a);
}

/* The file of the inlined subroutine's call (DW_AT_call_file) and its
 * line. */
static void call_place(Dwarf_Die *cu, Dwarf_Die *inl, const char **file,
                       int *line)
{
    Dwarf_Attribute a;
    Dwarf_Word idx, ln;
    Dwarf_Files *files;
    size_t nfiles;

    *file = NULL;
    *line = 0;
    if (dwarf_attr(inl, DW_AT_call_line, &a) != NULL &&
        dwarf_formudata(&a, &ln) == 0)
        *line = (int)ln;
    if (dwarf_attr(inl, DW_AT_call_file, &a) != NULL &&
        dwarf_formudata(&a, &idx) == 0 &&
        dwarf_getsrcfiles(cu, &files, &nfiles) == 0 && idx < nfiles)
        *file = dwarf_filesrc(files, idx, NULL, NULL);
}

static void add_frame(struct frames *fr, size_t *cap, const struct frame *f)
{
    fr->f = xgrow(fr->f, fr->n, cap, sizeof *fr->f);
    fr->f[fr->n++] = *f;
}

/* The frames of machine frame I: one per function inlined at its
 * address, then its own. */
static void split(struct dinfo *d, struct frames *fr, unsigned int i,
                  size_t *cap)
{
    struct pframe *p = &fr->phys[i];
    struct frame base;
    Dwarf_Die *chain = NULL;
    Dwfl_Line *ln;
    const char *file = NULL;
    int line = 0, n, k, start;

    memset(&base, 0, sizeof base);
    base.phys = i;
    base.pc = p->pc;
    base.lookup = p->interrupted || p->signal_frame ? p->pc : p->pc - 1;
    base.mod = dwfl_addrmodule(dinfo_dwfl(d), base.lookup);
    if (base.mod != NULL) {
        GElf_Off off;
        GElf_Sym sym;

        base.module = dwfl_module_info(base.mod, NULL, NULL, NULL, NULL,
                                       NULL, NULL, NULL);
        base.name = dwfl_module_addrinfo(base.mod, base.lookup, &off, &sym,
                                         NULL, NULL, NULL);
        ln = dwfl_module_getsrc(base.mod, base.lookup);
        if (ln != NULL)
            file = dwfl_lineinfo(ln, NULL, &line, NULL, NULL, NULL);
    }
    if (p->signal_frame || base.mod == NULL ||
        dinfo_cu(d, base.lookup, &base.cu, &base.bias, NULL) != 0) {
        base.file = file;
        base.line = line;
        base.runtime = frames_runtime_name(base.name);
        fr->chains[i] = NULL;
        add_frame(fr, cap, &base);
        return;
    }
    base.has_cu = 1;
    n = scope_chain(&base.cu, base.lookup - base.bias, &chain);
    fr->chains[i] = chain;
    /* the machine frame's function: the outermost subprogram */
    for (k = n - 1; k >= 0; k--) {
        if (dwarf_tag(&chain[k]) == DW_TAG_subprogram) {
            base.subprogram = chain[k];
            break;
        }
    }
    start = 0;
    for (k = 0; k < n; k++) {
        int tag = dwarf_tag(&chain[k]);
        struct frame f;
        const char *name;

        if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_subprogram)
            continue;
        f = base;
        f.has_fn = 1;
        f.fn = chain[k];
        f.inlined = tag == DW_TAG_inlined_subroutine;
        f.scopes = &chain[start];
        f.nscopes = k - start + 1;
        name = die_name(&chain[k]);
        if (name != NULL)
            f.name = name;
        f.file = file;
        f.line = line;
        f.runtime = frames_runtime_name(f.name);
        add_frame(fr, cap, &f);
        /* the next frame out is where this one was inlined */
        if (f.inlined)
            call_place(&base.cu, &chain[k], &file, &line);
        start = k + 1;
        if (tag == DW_TAG_subprogram)
            break;
    }
    if (start == 0) {
        /* no function covers the address (a unit without functions'
         * ranges): one frame, named from the symbol table */
        base.file = file;
        base.line = line;
        base.runtime = frames_runtime_name(base.name);
        add_frame(fr, cap, &base);
    }
}

int frames_unwind(struct dinfo *d, pid_t tid, struct frames **out,
                  char **cause)
{
    struct frames *fr = xcalloc(1, sizeof *fr);
    struct user_fpregs_struct fp;
    size_t cap = 0;
    unsigned int i;

    fr->tid = tid;
    if (unwind(fr, cause) != 0) {
        frames_free(fr);
        return -1;
    }
    if (ptrace(PTRACE_GETFPREGS, tid, 0, &fp) == 0) {
        memcpy(fr->xmm, fp.xmm_space, sizeof fr->xmm);
        fr->has_xmm = 1;
    }
    fr->chains = xcalloc(fr->nphys, sizeof *fr->chains);
    for (i = 0; i < fr->nphys; i++) {
        struct pframe *p = &fr->phys[i];

        if (i == fr->nphys - 1)
            last_cfa(d, p, p->interrupted ? p->pc : p->pc - 1);
        split(d, fr, i, &cap);
    }
    *out = fr;
    return 0;
}

void frames_free(struct frames *fr)
{
    if (fr == NULL)
        return;
    for (unsigned int i = 0; fr->chains != NULL && i < fr->nphys; i++)
        free(fr->chains[i]);
    free(fr->chains);
    free(fr->phys);
    free(fr->f);
    free(fr);
}

unsigned int frames_first_program(const struct frames *fr)
{
    unsigned int i, first = 0;

    /* after the outermost runtime frame near the top (its internal
     * functions have names of their own) */
    for (i = 0; i < fr->n && i < 32; i++)
        if (fr->f[i].runtime)
            first = i + 1;
    return first < fr->n ? first : 0;
}

unsigned int frames_default(const struct frames *fr, const char *exe)
{
    unsigned int i, first = frames_first_program(fr);

    for (i = first; i < fr->n && exe != NULL; i++)
        if (fr->f[i].module != NULL && strcmp(fr->f[i].module, exe) == 0 &&
            !fr->f[i].runtime)
            return i;
    return first;
}

int frames_reg(const struct frames *fr, unsigned int f, unsigned int reg,
               uint64_t *val)
{
    const struct pframe *p;

    if (f >= fr->n || reg >= FRAME_NGPR)
        return -1;
    p = &fr->phys[fr->f[f].phys];
    if (!(p->valid & (1u << reg)))
        return -1;
    *val = p->regs[reg];
    return 0;
}

const unsigned char *frames_xmm(const struct frames *fr, unsigned int f,
                                unsigned int n)
{
    if (f >= fr->n || n >= FRAME_NXMM || !fr->has_xmm ||
        !fr->phys[fr->f[f].phys].interrupted || fr->f[f].phys != 0)
        return NULL;
    return fr->xmm[n];
}

static const char *const reg_names[FRAME_NGPR] = {
    "rax", "rdx", "rcx", "rbx", "rsi", "rdi", "rbp", "rsp", "r8",
    "r9",  "r10", "r11", "r12", "r13", "r14", "r15", "rip"};

const char *frames_reg_name(unsigned int reg)
{
    return reg < FRAME_NGPR ? reg_names[reg] : NULL;
}

int frames_reg_number(const char *name)
{
    if (strcmp(name, "pc") == 0)
        return 16;
    if (strcmp(name, "sp") == 0)
        return 7;
    if (strcmp(name, "fp") == 0)
        return 6;
    for (int i = 0; i < FRAME_NGPR; i++)
        if (strcmp(name, reg_names[i]) == 0)
            return i;
    return -1;
}
