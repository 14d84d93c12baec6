/* SPDX-License-Identifier: MIT */
/*
 * probe.c - USDT probes handled in the program <protocol#probes>: the
 * area the monitor writes its trampolines into, and the hit a trampoline
 * calls, which reads the probe's arguments where its note says they are
 * and sends the event where its state says (event_deliver), as if the
 * program had emitted it.  Registers and memory named by a note are the
 * compiler's at the site, valid there; a pointer read as a string is
 * not trusted and is read with process_vm_readv (a bad one reads as
 * "<unreadable>").  Async-signal-safe, allocates nothing, keeps errno.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "dapto.h"
#include "protocol.h"
#include "runtime.h"

/* A hole within 2 GiB of NEAR, for SIZE bytes: tried at hints going
 * away from it, below first (the code is near the top of its mapping). */
DAPTO_API int64_t dapto_probe_area(uint64_t near, uint64_t size)
{
    static const int64_t step = 64 << 20;

    size = (size + 4095) & ~(uint64_t)4095;
    for (int i = 1; i < 30; i++) {
        int64_t off = (i & 1 ? -1 : 1) * (int64_t)((i + 1) / 2) * step;
        uint64_t hint = (near + (uint64_t)off) & ~(uint64_t)0xffff;
        void *p = mmap((void *)(uintptr_t)hint, size, PROT_READ | PROT_EXEC,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1,
                       0);
        int64_t d;

        if (p == MAP_FAILED)
            continue;
        d = (int64_t)((uint64_t)(uintptr_t)p - near);
        if (d > -((int64_t)1 << 31) + (int64_t)size &&
            d < ((int64_t)1 << 31) - (int64_t)size)
            return (int64_t)(uintptr_t)p;
        munmap(p, size);
    }
    return -ENOMEM;
}

/* Register R's value at the site (see DAPTO_PROBE_SAVED). */
static uint64_t reg(const struct dapto_probe_site *s, const uint64_t *regs,
                    unsigned int r)
{
    static const unsigned char slot[16] = {14, 13, 12, 11, 10, 9, 8, 0xff,
                                           7,  6,  5,  4,  3,  2, 1, 0};

    if (r == 7) /* rsp */
        return (uint64_t)(uintptr_t)(regs + DAPTO_PROBE_SAVED) +
               DAPTO_PROBE_RED_ZONE;
    if (r == 16)
        return s->rip;
    return r < 16 ? regs[slot[r]] : 0;
}

static uint64_t value(const struct dapto_probe_site *s, const uint64_t *regs,
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

/* The string at ADDR, read without trusting it, into O. */
static void put_string(struct dapto_out *o, uint64_t addr)
{
    char buf[512];
    size_t n = 0;

    if (addr == 0) {
        dapto_put_str(o, NULL);
        return;
    }
    while (n < sizeof buf - 1) {
        size_t want = 64 - ((addr + n) & 63);
        struct iovec local, remote;

        if (want > sizeof buf - 1 - n)
            want = sizeof buf - 1 - n;
        local.iov_base = buf + n;
        local.iov_len = want;
        remote.iov_base = (void *)(uintptr_t)(addr + n);
        remote.iov_len = want;
        if (syscall(SYS_process_vm_readv, (long)getpid(), &local, 1L, &remote,
                    1L, 0L) != (long)want) {
            if (n == 0) {
                dapto_put_str(o, "<unreadable>");
                return;
            }
            break;
        }
        if (memchr(buf + n, '\0', want) != NULL) {
            n += want;
            break;
        }
        n += want;
    }
    buf[n] = '\0';
    dapto_put_str(o, buf);
}

DAPTO_API void dapto_probe_hit(const struct dapto_probe_site *s,
                               const uint64_t *regs)
{
    union {
        struct dapto_record rec;
        unsigned char b[DAPTO_EVENT_MAX];
    } u;
    struct dapto_out o;
    unsigned int st;
    int saved = errno;

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
        case DAPTO_K_INT:
            dapto_put_int(&o, (int)(int64_t)v);
            break;
        case DAPTO_K_PTR:
            dapto_put_ptr(&o, (const void *)(uintptr_t)v);
            break;
        case DAPTO_K_STR:
            put_string(&o, v);
            break;
        case DAPTO_K_DOUBLE: {
            double d;

            if (a->size == 4) {
                float f;
                uint32_t w = (uint32_t)v;

                memcpy(&f, &w, 4);
                d = f;
            } else {
                memcpy(&d, &v, 8);
            }
            dapto_put_double(&o, d);
            break;
        }
        default:
            dapto_put_long(&o, (long)v);
            break;
        }
    }
    u.rec.code = s->code;
    u.rec.flags = o.truncated ? DAPTO_RECF_TRUNC : 0;
    u.rec.tid = rt_thread();
    u.rec.aux = 0;
    u.rec.len = (uint32_t)(o.p - u.b - DAPTO_RECORD_HEADER);
    u.rec.time = rt_now();
    event_deliver(&u.rec, st);
    errno = saved;
}
