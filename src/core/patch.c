/* SPDX-License-Identifier: MIT */
#include "config.h"

/*
 * patch.c - replacing a probe's nop by a jump to a trampoline
 * <design#probes>: the object's code and data read once for every
 * address they name (capstone for the code), a site's instructions
 * decoded to be moved, the trampoline's machine code.  Addresses here
 * are the object's own (link-time) until a plan or a trampoline, which
 * are the process's.
 */
#include <capstone/capstone.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "patch.h"
#include "xmalloc.h"

struct range {
    uint64_t lo, hi;
};

struct patch_obj {
    uint64_t bias;
    uint64_t *named; /* sorted: every code address the object names */
    size_t nnamed, anamed;
    struct range *exec; /* its executable sections */
    size_t nexec;
    int except; /* it has C++ exception tables */
};

static void named_add(struct patch_obj *o, uint64_t a)
{
    if (o->nnamed == o->anamed) {
        o->anamed = o->anamed == 0 ? 4096 : 2 * o->anamed;
        o->named = xreallocarray(o->named, o->anamed, sizeof *o->named);
    }
    o->named[o->nnamed++] = a;
}

static int in_exec(const struct patch_obj *o, uint64_t a)
{
    for (size_t i = 0; i < o->nexec; i++)
        if (a >= o->exec[i].lo && a < o->exec[i].hi)
            return 1;
    return 0;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return x < y ? -1 : x > y;
}

/* A base of a table of offsets (%rip-relative, into data): its
 * section's data. */
struct tbase {
    uint64_t at;
};

/* The addresses an instruction's operand text names: numbers, and
 * %rip-relative ones from the instruction's end; those in data are
 * table bases. */
static void scan_ops(struct patch_obj *o, const cs_insn *in,
                     struct tbase **tb, size_t *ntb)
{
    const char *p = in->op_str;

    while ((p = strstr(p, "0x")) != NULL) {
        uint64_t v = strtoull(p, NULL, 16), a = v;

        if (p >= in->op_str + 6 && strncmp(p - 6, "rip + ", 6) == 0)
            a = in->address + in->size + v;
        else if (p >= in->op_str + 6 && strncmp(p - 6, "rip - ", 6) == 0)
            a = in->address + in->size - v;
        if (in_exec(o, a))
            named_add(o, a);
        else if (a != v) {
            *tb = xreallocarray(*tb, *ntb + 1, sizeof **tb);
            (*tb)[(*ntb)++].at = a;
        }
        p += 2;
    }
}

/* The int32 offsets from BASE in DATA (the section at ADDR, LEN bytes)
 * that land in code: a jump table's cases. */
static void scan_table(struct patch_obj *o, uint64_t base,
                       const unsigned char *data, uint64_t addr, size_t len)
{
    if (base < addr || base >= addr + len)
        return;
    for (uint64_t at = base; at + 4 <= addr + len && at < base + 16384;
         at += 4) {
        int32_t e;

        memcpy(&e, data + (at - addr), 4);
        if (!in_exec(o, base + (uint64_t)(int64_t)e))
            break;
        named_add(o, base + (uint64_t)(int64_t)e);
    }
}

struct patch_obj *patch_obj_open(const char *path, uint64_t bias, char **why)
{
    struct patch_obj *o;
    struct tbase *tb = NULL;
    size_t ntb = 0, shstrndx;
    Elf_Scn *scn = NULL;
    Elf *elf;
    csh cs;
    int fd;

    elf_version(EV_CURRENT);
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        xcause(why, "%s: %s", path, strerror(errno));
        return NULL;
    }
    elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
    if (elf == NULL || elf_getshdrstrndx(elf, &shstrndx) != 0 ||
        cs_open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK) {
        xcause(why, "%s: cannot read its code", path);
        if (elf != NULL)
            elf_end(elf);
        close(fd);
        return NULL;
    }
    cs_option(cs, CS_OPT_SKIPDATA, CS_OPT_ON);
    o = xcalloc(1, sizeof *o);
    o->bias = bias;
    /* the executable sections first: what lands in code is known then */
    while ((scn = elf_nextscn(elf, scn)) != NULL) {
        GElf_Shdr sh;
        const char *name;

        if (gelf_getshdr(scn, &sh) == NULL)
            continue;
        name = elf_strptr(elf, shstrndx, sh.sh_name);
        if (name != NULL && strcmp(name, ".gcc_except_table") == 0)
            o->except = 1;
        if ((sh.sh_flags & SHF_ALLOC) && (sh.sh_flags & SHF_EXECINSTR)) {
            o->exec = xreallocarray(o->exec, o->nexec + 1, sizeof *o->exec);
            o->exec[o->nexec].lo = sh.sh_addr;
            o->exec[o->nexec++].hi = sh.sh_addr + sh.sh_size;
        }
    }
    while ((scn = elf_nextscn(elf, scn)) != NULL) {
        GElf_Shdr sh;
        Elf_Data *d;

        if (gelf_getshdr(scn, &sh) == NULL || !(sh.sh_flags & SHF_ALLOC) ||
            sh.sh_type == SHT_NOBITS || (d = elf_getdata(scn, NULL)) == NULL ||
            d->d_buf == NULL)
            continue;
        if (sh.sh_flags & SHF_EXECINSTR) {
            const uint8_t *code = d->d_buf;
            size_t size = d->d_size;
            uint64_t addr = sh.sh_addr;
            cs_insn *in = cs_malloc(cs);

            while (cs_disasm_iter(cs, &code, &size, &addr, in))
                scan_ops(o, in, &tb, &ntb);
            cs_free(in, 1);
        } else if (sh.sh_type == SHT_RELA) {
            GElf_Rela r;

            for (int i = 0; gelf_getrela(d, i, &r) != NULL; i++)
                if (in_exec(o, (uint64_t)r.r_addend))
                    named_add(o, (uint64_t)r.r_addend);
        } else {
            /* pointers into code, at any 4-byte boundary */
            const unsigned char *b = d->d_buf;

            for (size_t i = 0; i + 8 <= d->d_size; i += 4) {
                uint64_t v;

                memcpy(&v, b + i, 8);
                if (in_exec(o, v))
                    named_add(o, v);
            }
        }
    }
    /* the tables of offsets from a base the code names */
    for (size_t k = 0; k < ntb; k++) {
        scn = NULL;
        while ((scn = elf_nextscn(elf, scn)) != NULL) {
            GElf_Shdr sh;
            Elf_Data *d;

            if (gelf_getshdr(scn, &sh) == NULL ||
                !(sh.sh_flags & SHF_ALLOC) || sh.sh_type == SHT_NOBITS ||
                (sh.sh_flags & SHF_EXECINSTR) || tb[k].at < sh.sh_addr ||
                tb[k].at >= sh.sh_addr + sh.sh_size ||
                (d = elf_getdata(scn, NULL)) == NULL || d->d_buf == NULL)
                continue;
            scan_table(o, tb[k].at, d->d_buf, sh.sh_addr, d->d_size);
        }
    }
    free(tb);
    cs_close(&cs);
    elf_end(elf);
    close(fd);
    if (o->nnamed > 1)
        qsort(o->named, o->nnamed, sizeof *o->named, cmp_u64);
    return o;
}

void patch_obj_free(struct patch_obj *o)
{
    if (o == NULL)
        return;
    free(o->named);
    free(o->exec);
    free(o);
}

/* Whether the object names an address in (LO, HI): something may jump
 * there. */
static int named_inside(const struct patch_obj *o, uint64_t lo, uint64_t hi)
{
    size_t a = 0, b = o->nnamed;

    while (a < b) {
        size_t m = (a + b) / 2;

        if (o->named[m] <= lo)
            a = m + 1;
        else
            b = m;
    }
    return a < o->nnamed && o->named[a] < hi;
}

int patch_plan(struct patch_obj *o, uint64_t site, unsigned int nop,
               const unsigned char *code, size_t n, struct patch_plan *pl,
               const char **why)
{
    unsigned int len = nop;
    csh cs;
    cs_insn *in;

    memset(pl, 0, sizeof *pl);
    pl->site = site;
    if (o->except) {
        *why = "its object has C++ exception tables";
        return -1;
    }
    if (cs_open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK) {
        *why = "the disassembler cannot start";
        return -1;
    }
    cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON);
    in = cs_malloc(cs);
    while (len < 5) {
        const uint8_t *p = code + len;
        size_t left = n - len;
        uint64_t at = site + len;
        cs_x86 *x;
        int kind = 0;

        if (pl->ninsn == 8 || !cs_disasm_iter(cs, &p, &left, &at, in)) {
            *why = "the instructions after it cannot be decoded";
            goto bad;
        }
        x = &in->detail->x86;
        for (int i = 0; i < x->op_count; i++)
            if (x->operands[i].type == X86_OP_MEM &&
                x->operands[i].mem.base == X86_REG_RIP) {
                *why = "an instruction after it is %rip-relative";
                goto bad;
            }
        if (in->id == X86_INS_JMP && x->op_count == 1 &&
            x->operands[0].type == X86_OP_IMM) {
            kind = 1;
        } else if (in->id == X86_INS_RET && in->size == 1) {
            kind = 3;
        } else if (cs_insn_group(cs, in, CS_GRP_JUMP) &&
                   x->op_count == 1 && x->operands[0].type == X86_OP_IMM &&
                   ((in->size == 2 && (in->bytes[0] & 0xf0) == 0x70) ||
                    (in->size == 6 && in->bytes[0] == 0x0f &&
                     (in->bytes[1] & 0xf0) == 0x80))) {
            kind = 2;
            pl->insn[pl->ninsn].cc = in->size == 2 ? in->bytes[0] & 0xf
                                                   : in->bytes[1] & 0xf;
        } else if (cs_insn_group(cs, in, CS_GRP_JUMP) ||
                   cs_insn_group(cs, in, CS_GRP_CALL) ||
                   cs_insn_group(cs, in, CS_GRP_RET) ||
                   cs_insn_group(cs, in, CS_GRP_INT) ||
                   cs_insn_group(cs, in, CS_GRP_IRET) ||
                   cs_insn_group(cs, in, CS_GRP_BRANCH_RELATIVE)) {
            *why = "an instruction after it is a call or a branch that "
                   "cannot be moved";
            goto bad;
        }
        pl->insn[pl->ninsn].off = len;
        pl->insn[pl->ninsn].size = in->size;
        pl->insn[pl->ninsn].kind = kind;
        if (kind == 1 || kind == 2)
            pl->insn[pl->ninsn].target = (uint64_t)x->operands[0].imm;
        pl->ninsn++;
        len += in->size;
        if (kind == 1 || kind == 3) {
            pl->ends = 1;
            break;
        }
    }
    if (len < 5) {
        *why = "the code after it leaves before five bytes";
        goto bad;
    }
    if (len > PATCH_MAX) {
        *why = "the instructions after it are too long";
        goto bad;
    }
    if (named_inside(o, site - o->bias, site - o->bias + len)) {
        *why = "something may jump into the instructions after it";
        goto bad;
    }
    pl->len = len;
    memcpy(pl->orig, code, len);
    cs_free(in, 1);
    cs_close(&cs);
    return 0;
bad:
    cs_free(in, 1);
    cs_close(&cs);
    return -1;
}

static void put(unsigned char *buf, size_t *n, const void *b, size_t len)
{
    memcpy(buf + *n, b, len);
    *n += len;
}

static void put32(unsigned char *buf, size_t *n, uint32_t v)
{
    put(buf, n, &v, 4);
}

static void put64(unsigned char *buf, size_t *n, uint64_t v)
{
    put(buf, n, &v, 8);
}

size_t patch_trampoline(unsigned char *buf, uint64_t at, uint64_t site,
                        uint64_t hit, const struct patch_plan *pl)
{
    static const unsigned char save[] = {
        0x48, 0x8d, 0x64, 0x24, 0x80, /* lea -0x80(%rsp),%rsp */
        0x9c,                         /* pushfq */
        0xfc,                         /* cld (as a call expects) */
        0x50, 0x53, 0x51, 0x52, 0x56, 0x57, 0x55, /* rax rbx rcx rdx rsi rdi rbp */
        0x41, 0x50, 0x41, 0x51, 0x41, 0x52, 0x41, 0x53, /* r8 .. r11 */
        0x41, 0x54, 0x41, 0x55, 0x41, 0x56, 0x41, 0x57, /* r12 .. r15 */
        0x48, 0x89, 0xe3,             /* mov %rsp,%rbx */
    };
    static const unsigned char restore[] = {
        0x48, 0x89, 0xdc,             /* mov %rbx,%rsp */
        0x41, 0x5f, 0x41, 0x5e, 0x41, 0x5d, 0x41, 0x5c, /* r15 .. r12 */
        0x41, 0x5b, 0x41, 0x5a, 0x41, 0x59, 0x41, 0x58, /* r11 .. r8 */
        0x5d, 0x5f, 0x5e, 0x5a, 0x59, 0x5b, 0x58, /* rbp rdi rsi rdx rcx rbx rax */
        0x9d,                         /* popfq */
        0x48, 0x8d, 0xa4, 0x24, 0x80, 0x00, 0x00, 0x00, /* lea 0x80(%rsp),%rsp */
    };
    size_t n = 0;

    put(buf, &n, save, sizeof save);
    /* the general registers and the flags are all the hit touches: no
     * vector state to save <design#probes> */
    put(buf, &n, "\x48\x83\xe4\xf0", 4); /* and $-16,%rsp */
    put(buf, &n, "\x48\xbf", 2); /* movabs $site,%rdi */
    put64(buf, &n, site);
    put(buf, &n, "\x48\x89\xde", 3); /* mov %rbx,%rsi */
    put(buf, &n, "\x48\xb8", 2);     /* movabs $hit,%rax */
    put64(buf, &n, hit);
    put(buf, &n, "\xff\xd0", 2);     /* call *%rax */
    put(buf, &n, restore, sizeof restore);
    /* the instructions replaced after the nop, moved here */
    for (unsigned int i = 0; i < pl->ninsn; i++) {
        uint64_t next;

        switch (pl->insn[i].kind) {
        case 1: /* jmp rel32 to its target */
            put(buf, &n, "\xe9", 1);
            next = at + n + 4;
            put32(buf, &n, (uint32_t)(pl->insn[i].target - next));
            break;
        case 2: /* jcc rel32 to its target */
            buf[n++] = 0x0f;
            buf[n++] = (unsigned char)(0x80 | pl->insn[i].cc);
            next = at + n + 4;
            put32(buf, &n, (uint32_t)(pl->insn[i].target - next));
            break;
        default:
            put(buf, &n, pl->orig + pl->insn[i].off, pl->insn[i].size);
            break;
        }
    }
    if (!pl->ends) {
        put(buf, &n, "\xe9", 1);
        put32(buf, &n, (uint32_t)(pl->site + pl->len - (at + n + 4)));
    }
    return n;
}

void patch_jump(unsigned char *buf, const struct patch_plan *pl,
                uint64_t tramp)
{
    buf[0] = 0xe9;
    uint32_t rel = (uint32_t)(tramp - (pl->site + 5));

    memcpy(buf + 1, &rel, 4);
    for (unsigned int i = 5; i < pl->len; i++)
        buf[i] = 0xcc;
}
