/* SPDX-License-Identifier: MIT */
/*
 * probe.c - USDT probes handled in the program <protocol#probes>: the
 * area the monitor writes its trampolines into, and what a hit
 * (probe-hit.c, which touches the general registers alone) does in
 * ordinary code, with the vector state saved around it: waiting for
 * room, waking the monitor, a stop, the trail, the clock.
 * Async-signal-safe, allocates nothing, keeps errno.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <sys/mman.h>

#include "dapto.h"
#include "protocol.h"
#include "rtbuf.h"
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

long rt_probe_out(int what, uint64_t a, uint64_t b, uint64_t c)
{
    int saved = errno;
    long r = 0;

    switch (what) {
    case RT_OUT_RING_ROOM:
        r = ring_room((struct ring *)(uintptr_t)a, b, c);
        break;
    case RT_OUT_RING_WRAPPED:
        ring_put_wrapped((struct ring *)(uintptr_t)a, b,
                         (const struct dapto_record *)(uintptr_t)c);
        break;
    case RT_OUT_RING_LOST:
        ring_lost((struct ring *)(uintptr_t)a);
        break;
    case RT_OUT_RING_WAKE:
        ring_wake_sleeper((struct ring *)(uintptr_t)a);
        break;
    case RT_OUT_TBUF_PUT:
        r = tbuf_put_slow((const struct tbuf_area *)(uintptr_t)a,
                          (struct tbuf_prod *)(uintptr_t)b,
                          (const struct dapto_record *)(uintptr_t)c);
        break;
    case RT_OUT_TBUF_WAKE:
        tbuf_wake_sleeper((const struct tbuf_area *)(uintptr_t)a);
        break;
    case RT_OUT_RECORD:
        r = rt_record_slow((struct dapto_record *)(uintptr_t)a);
        break;
    case RT_OUT_DELIVER:
        event_deliver((struct dapto_record *)(uintptr_t)a, (unsigned int)b);
        break;
    case RT_OUT_CLOCK:
        r = (long)rt_now();
        break;
    default:
        break;
    }
    errno = saved;
    return r;
}
