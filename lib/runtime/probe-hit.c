/* SPDX-License-Identifier: MIT */
/*
 * probe-hit.c - a USDT probe's hit handled in the program
 * <protocol#probes>: what a trampoline calls, dapto_probe_hit_gp, which
 * reads the probe's arguments where its note says and sends the event
 * where its state says, as if the program had emitted it.
 *
 * The trampoline saves the general registers and the flags, nothing else
 * <design#probes>: the program may hold anything in its vector and x87
 * registers across the probe.  So the code here touches no other
 * register: compiled for the general registers alone (the pragma below,
 * before any header, so that the inline paths of the ring and the thread
 * buffers are compiled so too), it calls no function outside this file
 * but one, rt_probe_vsave_out, which saves the vector state (xsavec,
 * where there is none xsave or fxsave), calls rt_probe_out (probe.c,
 * ordinary code: the rare paths, which wait, wake, stop or read the
 * clock) and restores it.  tests/probes/hit-regs.sh checks that on this
 * file's object; tests/probes/vecregs.sh checks the registers of a
 * program across hits.  Async-signal-safe, allocates nothing, keeps
 * errno (its system calls are its own).
 */
#if defined(__x86_64__)
#pragma GCC target("general-regs-only")
#endif

#include "config.h"

#include <stdint.h>
#include <sys/syscall.h>
#include <sys/uio.h>

/* The out-of-line parts of the inline record paths (ring.h, tbuf.h,
 * rtbuf.h), each through the vector state's save; defined below. */
struct ring;
struct tbuf_area;
struct tbuf_prod;
struct dapto_record;
static int vs_ring_room(struct ring *r, uint64_t p, uint64_t size);
static void vs_ring_put_wrapped(struct ring *r, uint64_t p,
                                const struct dapto_record *rec);
static void vs_ring_lost(struct ring *r);
static void vs_ring_wake_sleeper(struct ring *r);
static int vs_tbuf_put_slow(const struct tbuf_area *a, struct tbuf_prod *p,
                            const struct dapto_record *rec);
static void vs_tbuf_wake_sleeper(const struct tbuf_area *a);
static int vs_rt_record_slow(struct dapto_record *rec);
#define CHANNEL_OUT_OF_LINE(f) vs_##f

/* Not under AddressSanitizer (its build): it would move locals whose
 * address is taken to a heap frame of its own, by a call to its runtime,
 * which may use any register; and the hit reads the program's memory
 * where the note says, which is not ASan's to judge. */
#define HIT_NOASAN __attribute__((no_sanitize_address))
#define CHANNEL_INLINE_ATTR HIT_NOASAN

#include "dapto.h"
#include "protocol.h"
#include "rtbuf.h"
#include "runtime.h"

#if defined(__x86_64__)

/* The vector state's save area: its size (0 until the first hit looks)
 * and the instruction (RT_VSAVE_*); set once by the first hit, the same
 * by any thread. */
RT_HIDDEN unsigned int rt_probe_vsave_size;
RT_HIDDEN unsigned int rt_probe_vsave_how;

/*
 * long rt_probe_vsave_out(int what, uint64_t a, uint64_t b, uint64_t c):
 * rt_probe_out(what, a, b, c) with the vector and x87 state saved before
 * and restored after, on the stack (the area 64-aligned, its header
 * zeroed as xrstor requires).  The call's result is kept in %rbx across
 * the restore, whose mask is %edx:%eax.
 */
__asm__(".text\n"
        ".p2align 4\n"
        ".globl rt_probe_vsave_out\n"
        ".hidden rt_probe_vsave_out\n"
        ".type rt_probe_vsave_out, @function\n"
        "rt_probe_vsave_out:\n"
        ".cfi_startproc\n"
        "pushq %rbp\n"
        ".cfi_def_cfa_offset 16\n"
        ".cfi_offset %rbp, -16\n"
        "movq %rsp, %rbp\n"
        ".cfi_def_cfa_register %rbp\n"
        "pushq %rbx\n"
        ".cfi_offset %rbx, -24\n"
        "pushq %r12\n"
        ".cfi_offset %r12, -32\n"
        "pushq %r13\n"
        ".cfi_offset %r13, -40\n"
        "pushq %r14\n"
        ".cfi_offset %r14, -48\n"
        "movl %edi, %r12d\n"
        "movq %rsi, %r13\n"
        "movq %rdx, %r14\n"
        "movq %rcx, %rbx\n"
        "movl rt_probe_vsave_size(%rip), %eax\n"
        "subq %rax, %rsp\n"
        "andq $-64, %rsp\n"
        "xorl %eax, %eax\n"
        "movq %rax, 512(%rsp)\n"
        "movq %rax, 520(%rsp)\n"
        "movq %rax, 528(%rsp)\n"
        "movq %rax, 536(%rsp)\n"
        "movq %rax, 544(%rsp)\n"
        "movq %rax, 552(%rsp)\n"
        "movq %rax, 560(%rsp)\n"
        "movq %rax, 568(%rsp)\n"
        "movl $-1, %eax\n"
        "movl $-1, %edx\n"
        "movl rt_probe_vsave_how(%rip), %ecx\n"
        "cmpl $2, %ecx\n"
        "je 1f\n"
        "cmpl $1, %ecx\n"
        "je 2f\n"
        "fxsave64 (%rsp)\n"
        "jmp 3f\n"
        "1: xsavec64 (%rsp)\n"
        "jmp 3f\n"
        "2: xsave64 (%rsp)\n"
        "3: movl %r12d, %edi\n"
        "movq %r13, %rsi\n"
        "movq %r14, %rdx\n"
        "movq %rbx, %rcx\n"
        "call rt_probe_out\n"
        "movq %rax, %rbx\n"
        "movl $-1, %eax\n"
        "movl $-1, %edx\n"
        "cmpl $0, rt_probe_vsave_how(%rip)\n"
        "jne 4f\n"
        "fxrstor64 (%rsp)\n"
        "jmp 5f\n"
        "4: xrstor64 (%rsp)\n"
        "5: movq %rbx, %rax\n"
        "leaq -32(%rbp), %rsp\n"
        "popq %r14\n"
        "popq %r13\n"
        "popq %r12\n"
        "popq %rbx\n"
        "popq %rbp\n"
        ".cfi_def_cfa %rsp, 8\n"
        "ret\n"
        ".cfi_endproc\n"
        ".size rt_probe_vsave_out, .-rt_probe_vsave_out\n");

long rt_probe_vsave_out(int what, uint64_t a, uint64_t b, uint64_t c);

/* CPUID leaf LEAF, subleaf SUB (general registers only). */
static void cpuid(unsigned int leaf, unsigned int sub, unsigned int r[4])
{
    __asm__ volatile("cpuid"
                     : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3])
                     : "a"(leaf), "c"(sub));
}

/* The save area's size and instruction for this machine, once: the
 * size of every component XCR0 enables (CPUID 0xd.0 ebx: the standard
 * form's, which the compacted one never exceeds). */
HIT_NOASAN static void vsave_init(void)
{
    unsigned int r[4], how = RT_VSAVE_FXSAVE, size = 576;

    cpuid(0, 0, r);
    if (r[0] >= 0xd) {
        cpuid(1, 0, r);
        if (r[2] & (1u << 27)) { /* osxsave */
            cpuid(0xd, 0, r);
            if (r[1] >= 576) {
                size = r[1];
                how = RT_VSAVE_XSAVE;
                cpuid(0xd, 1, r);
                if (r[0] & 2) /* xsavec */
                    how = RT_VSAVE_XSAVEC;
            }
        }
    }
    __atomic_store_n(&rt_probe_vsave_how, how, __ATOMIC_RELAXED);
    __atomic_store_n(&rt_probe_vsave_size, size, __ATOMIC_RELEASE);
}

static long vsave_out(int what, uint64_t a, uint64_t b, uint64_t c)
{
    if (__builtin_expect(__atomic_load_n(&rt_probe_vsave_size,
                                         __ATOMIC_ACQUIRE) == 0, 0))
        vsave_init();
    return rt_probe_vsave_out(what, a, b, c);
}

#define U(p) ((uint64_t)(uintptr_t)(p))

static int vs_ring_room(struct ring *r, uint64_t p, uint64_t size)
{
    return (int)vsave_out(RT_OUT_RING_ROOM, U(r), p, size);
}

static void vs_ring_put_wrapped(struct ring *r, uint64_t p,
                                const struct dapto_record *rec)
{
    vsave_out(RT_OUT_RING_WRAPPED, U(r), p, U(rec));
}

static void vs_ring_lost(struct ring *r)
{
    vsave_out(RT_OUT_RING_LOST, U(r), 0, 0);
}

static void vs_ring_wake_sleeper(struct ring *r)
{
    vsave_out(RT_OUT_RING_WAKE, U(r), 0, 0);
}

static int vs_tbuf_put_slow(const struct tbuf_area *a, struct tbuf_prod *p,
                            const struct dapto_record *rec)
{
    return (int)vsave_out(RT_OUT_TBUF_PUT, U(a), U(p), U(rec));
}

static void vs_tbuf_wake_sleeper(const struct tbuf_area *a)
{
    vsave_out(RT_OUT_TBUF_WAKE, U(a), 0, 0);
}

static int vs_rt_record_slow(struct dapto_record *rec)
{
    return (int)vsave_out(RT_OUT_RECORD, U(rec), 0, 0);
}

/* System call N with three arguments, errno untouched. */
static long sys3(long n, long a, long b, long c)
{
    long r;

    __asm__ volatile("syscall"
                     : "=a"(r)
                     : "a"(n), "D"(a), "S"(b), "d"(c)
                     : "rcx", "r11", "memory");
    return r;
}

/* ... with six. */
static long sys6(long n, long a, long b, long c, long d, long e, long f)
{
    register long r10 __asm__("r10") = d;
    register long r8 __asm__("r8") = e;
    register long r9 __asm__("r9") = f;
    long r;

    __asm__ volatile("syscall"
                     : "=a"(r)
                     : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8),
                       "r"(r9)
                     : "rcx", "r11", "memory");
    return r;
}

/* Register R's value at the site (see DAPTO_PROBE_SAVED). */
static uint64_t reg(const struct dapto_probe_site *s, const uint64_t *regs,
                    unsigned int r)
{
    static const unsigned char slot[16] = {14, 13, 12, 11, 10, 9, 8, 0xff,
                                           7,  6,  5,  4,  3,  2, 1, 0};

    if (r == 7) /* rsp */
        return U(regs + DAPTO_PROBE_SAVED) + DAPTO_PROBE_RED_ZONE;
    if (r == 16)
        return s->rip;
    return r < 16 ? regs[slot[r]] : 0;
}

/* Argument A's bits, sign-extended to 64 when it is signed and smaller. */
HIT_NOASAN static uint64_t value(const struct dapto_probe_site *s,
                                 const uint64_t *regs,
                                 const struct dapto_probe_arg *a)
{
    uint64_t v = 0;

    switch (a->kind) {
    case 1:
        v = (uint64_t)a->value;
        break;
    case 2:
        v = reg(s, regs, a->reg) >> (a->shift & 63);
        break;
    default: {
        uint64_t addr = (uint64_t)a->value;

        if (a->reg != DAPTO_PROBE_NOREG)
            addr += reg(s, regs, a->reg);
        if (a->index != DAPTO_PROBE_NOREG)
            addr += reg(s, regs, a->index) * a->scale;
        /* (the compiler made the operand valid at the site) */
        switch (a->size) {
        case 1:
            v = *(const volatile uint8_t *)(uintptr_t)addr;
            break;
        case 2:
            v = *(const volatile uint16_t *)(uintptr_t)addr;
            break;
        case 4:
            v = *(const volatile uint32_t *)(uintptr_t)addr;
            break;
        default:
            v = *(const volatile uint64_t *)(uintptr_t)addr;
            break;
        }
        break;
    }
    }
    if (a->size < 8) {
        uint64_t mask = ((uint64_t)1 << (8 * a->size)) - 1;

        v &= mask;
        if ((a->flags & (DAPTO_PROBE_SIGNED | DAPTO_PROBE_FLOAT)) ==
                DAPTO_PROBE_SIGNED &&
            (v >> (8 * a->size - 1)) != 0)
            v |= ~mask;
    }
    return v;
}

/* A value of 8 bytes after TAG into O (dapto_put_fixed's rule). */
static void put8(struct dapto_out *o, unsigned char tag, uint64_t v)
{
    if (o->end - o->p < 9) {
        o->truncated = 1;
        return;
    }
    *o->p++ = tag;
    for (int i = 0; i < 8; i++)
        *o->p++ = (unsigned char)(v >> (8 * i));
    o->count++;
}

/* The longest string read, as under ptrace (PROBES_STR_MAX). */
#define PROBE_STR_MAX 512

/* "<unreadable 0xADDR>" into BUF (32 bytes): BUF. */
static const char *unreadable(char *buf, uint64_t addr)
{
    static const char pre[] = "<unreadable 0x", hex[] = "0123456789abcdef";
    size_t n = sizeof pre - 1;
    int shift = 60;

    for (size_t i = 0; i < n; i++)
        buf[i] = pre[i];
    while (shift > 0 && ((addr >> shift) & 15) == 0)
        shift -= 4;
    for (; shift >= 0; shift -= 4)
        buf[n++] = hex[(addr >> shift) & 15];
    buf[n++] = '>';
    buf[n] = '\0';
    return buf;
}

/* The string at ADDR into O as dapto_put_str puts it, read without
 * trusting it (process_vm_readv on this process, into O's bytes): at
 * most PROBE_STR_MAX bytes, "(null)" for NULL, "<unreadable 0xADDR>"
 * when its first bytes cannot be read (as noosa reads it under ptrace,
 * src/core/probes.c), cut with DAPTO_K_TRUNC where O has no more room. */
HIT_NOASAN static void put_string(struct dapto_out *o, uint64_t addr)
{
    static const char null[] = "(null)";
    char bad[32];
    const char *lit = addr == 0 ? null : NULL;
    unsigned char tag = DAPTO_K_STR, *d;
    size_t room, cap, n = 0;
    int ended = 0;

    /* tag, length, and at least the NUL must fit */
    if (o->end - o->p < 6) {
        o->truncated = 1;
        return;
    }
    room = (size_t)(o->end - o->p) - 6;
    /* (one byte more than fits: whether the string is cut) */
    cap = room + 1 < PROBE_STR_MAX ? room + 1 : PROBE_STR_MAX;
    d = o->p + 5;
    while (lit == NULL && n < cap && !ended) {
        size_t want = 64 - ((addr + n) & 63);
        struct iovec local, remote;

        if (want > cap - n)
            want = cap - n;
        local.iov_base = d + n;
        local.iov_len = want;
        remote.iov_base = (void *)(uintptr_t)(addr + n);
        remote.iov_len = want;
        if (sys6(SYS_process_vm_readv, (long)runtime.pid, (long)&local, 1,
                 (long)&remote, 1, 0) != (long)want) {
            if (n == 0)
                lit = unreadable(bad, addr);
            break;
        }
        for (size_t k = 0; k < want; k++)
            if (d[n + k] == '\0') {
                want = k;
                ended = 1;
                break;
            }
        n += want;
    }
    if (lit != NULL)
        for (n = 0; lit[n] != '\0' && n < cap; n++)
            d[n] = (unsigned char)lit[n];
    if (n > room) {
        n = room;
        tag |= DAPTO_K_TRUNC;
        o->truncated = 1;
    }
    o->p[0] = tag;
    for (int i = 0; i < 4; i++)
        o->p[1 + i] = (unsigned char)((uint32_t)n >> (8 * i));
    d[n] = '\0';
    o->p = d + n + 1;
    o->count++;
}

uint64_t rt_probe_float_bits(uint32_t w)
{
    uint64_t sign = (uint64_t)(w >> 31) << 63, man = w & 0x7fffff;
    unsigned int exp = (w >> 23) & 0xff;
    int e;

    if (exp == 0xff) /* infinity, NaN (its payload kept) */
        return sign | (uint64_t)0x7ff << 52 | man << 29;
    if (exp == 0) {
        if (man == 0)
            return sign;
        /* subnormal: normal as a double */
        for (e = -126; !(man & 0x800000); e--)
            man <<= 1;
        return sign | (uint64_t)(e + 1023) << 52 | (man & 0x7fffff) << 29;
    }
    return sign | (uint64_t)(exp - 127 + 1023) << 52 | man << 29;
}

HIT_NOASAN DAPTO_API void dapto_probe_hit_gp(const struct dapto_probe_site *s,
                                             const uint64_t *regs)
{
    union {
        struct dapto_record rec;
        unsigned char b[DAPTO_EVENT_MAX];
    } u;
    struct dapto_out o;
    unsigned int st;
    uint32_t tid;

    if (s->magic != DAPTO_PROBE_MAGIC || s->nargs > DAPTO_PROBE_ARGS ||
        !rt_is_attached())
        return;
    /* (a probe has no filter: the monitor evaluates its conditions) */
    st = *(const volatile uint8_t *)(uintptr_t)s->state &
         (DAPTO_STATE_TRAIL | DAPTO_STATE_RECORD | DAPTO_STATE_STOP);
    if (st == 0)
        return;
    o.base = u.b;
    o.p = u.b + DAPTO_RECORD_HEADER;
    o.end = u.b + sizeof u.b;
    o.count = 0;
    o.truncated = 0;
    o.aspect = NULL;
    o.index = 0;
    for (unsigned int i = 0; i < s->nargs; i++) {
        const struct dapto_probe_arg *a = &s->arg[i];
        uint64_t v = value(s, regs, a);

        switch (a->vkind) {
        case DAPTO_K_INT: {
            uint32_t w = (uint32_t)v;

            if (o.end - o.p < 5) {
                o.truncated = 1;
                break;
            }
            *o.p++ = DAPTO_K_INT;
            for (int k = 0; k < 4; k++)
                *o.p++ = (unsigned char)(w >> (8 * k));
            o.count++;
            break;
        }
        case DAPTO_K_PTR:
            put8(&o, DAPTO_K_PTR, v);
            break;
        case DAPTO_K_STR:
            put_string(&o, v);
            break;
        case DAPTO_K_DOUBLE:
            put8(&o, DAPTO_K_DOUBLE,
                 a->size == 4 ? rt_probe_float_bits((uint32_t)v) : v);
            break;
        default:
            put8(&o, DAPTO_K_LONG, v);
            break;
        }
    }
    tid = rt_tid;
    if (tid == 0)
        rt_tid = tid = (uint32_t)sys3(SYS_gettid, 0, 0, 0);
    u.rec.code = s->code;
    u.rec.flags = o.truncated ? DAPTO_RECF_TRUNC : 0;
    u.rec.tid = tid;
    u.rec.aux = 0;
    u.rec.len = (uint32_t)(o.p - u.b - DAPTO_RECORD_HEADER);
    u.rec.time = runtime.tsc ? __rdtsc()
                             : (uint64_t)vsave_out(RT_OUT_CLOCK, 0, 0, 0);
    if (DAPTO_LIKELY(RT_RING_ONLY(st) && !(st & DAPTO_STATE_TRAIL))) {
        rt_busy = 1;
        rt_record(&u.rec);
        rt_busy = 0;
        return;
    }
    /* a stop, the trail (the thread's own <protocol#ttrail>, out of
     * line): the whole event path, with the vector state saved (a stop
     * may run the program's operations) */
    vsave_out(RT_OUT_DELIVER, U(&u.rec), st, 0);
}

#endif
