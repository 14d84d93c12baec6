/* SPDX-License-Identifier: MIT */
/*
 * iface.c - aspect descriptions in the interface area <protocol#iface>
 * and the synchronous acknowledgement <protocol#ack>.  Registration is
 * rare, so appending is serialised by the area's spin lock, which is held
 * until the ASPECT record is in the ring: aspects are numbered in ring
 * order, as the monitor counts them.
 */
#include "config.h"

#include <sched.h>
#include <string.h>
#include <time.h>

#include "futex.h"
#include "iface.h"
#include "protocol.h"
#include "rtlog.h"
#include "runtime.h"

static void put_s(struct dapto_out *o, const char *s)
{
    dapto_put_str(o, s != NULL ? s : "");
}

static void put_params(struct dapto_out *o, unsigned int n,
                       const struct dapto_param *p)
{
    unsigned int i;

    dapto_put_int(o, (int)n);
    for (i = 0; i < n; i++) {
        put_s(o, p[i].name);
        put_s(o, p[i].type);
        dapto_put_int(o, p[i].kind);
        put_s(o, p[i].doc);
    }
}

void iface_describe(struct dapto_out *o, const struct dapto_aspect *a)
{
    unsigned int i;

    put_s(o, a->name);
    put_s(o, a->file);
    dapto_put_int(o, (int)a->abi);
    dapto_put_int(o, (int)a->event_base);
    dapto_put_int(o, a->nevents);
    dapto_put_int(o, (int)a->op_base);
    dapto_put_int(o, a->nops);
    for (i = 0; i < a->nevents; i++) {
        const struct dapto_event *e = &a->events[i];

        put_s(o, e->name);
        put_s(o, e->doc);
        dapto_put_int(o, e->visible);
        dapto_put_ptr(o, (const void *)e->state);
        put_params(o, e->nparams, e->params);
    }
    for (i = 0; i < a->nops; i++) {
        const struct dapto_operation *op = &a->ops[i];

        put_s(o, op->name);
        put_s(o, op->doc);
        put_s(o, op->result_type);
        dapto_put_int(o, op->result_type != NULL ? op->result_kind : 0);
        put_params(o, op->nparams, op->params);
    }
}

static uint64_t now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* Wait until the monitor has acknowledged aspect number N. */
static int wait_ack(uint32_t n)
{
    struct dapto_region *h = runtime.region.hdr;
    uint64_t until = now_ms() + IFACE_ACK_MS;
    uint32_t acked;

    for (;;) {
        acked = __atomic_load_n(&h->aspects_acked, __ATOMIC_ACQUIRE);
        if ((int32_t)(acked - n) >= 0)
            return 0;
        if (now_ms() > until || ring_let_go(&runtime.ring) ||
            rt_monitor_gone())
            return -1;
        futex_wait(&h->aspects_acked, acked, 100);
    }
}

int iface_post(const struct dapto_aspect *a)
{
    struct dapto_region *h = runtime.region.hdr;
    unsigned char *area = (unsigned char *)h + runtime.region.geom.iface_off;
    uint32_t size = runtime.region.geom.iface_size;
    _Alignas(8) unsigned char buf[DAPTO_RECORD_HEADER + 16];
    struct dapto_record rec;
    struct dapto_out o, r;
    uint32_t used, n;

    spin_lock(&h->iface_lock);
    used = __atomic_load_n(&h->iface_used, __ATOMIC_RELAXED);
    if (used > size)
        used = size;
    memset(&o, 0, sizeof o);
    o.base = o.p = area + used;
    o.end = area + size;
    iface_describe(&o, a);
    if (o.truncated) {
        spin_unlock(&h->iface_lock);
        rtlog_error("aspect %s: the interface area is full (%u bytes); "
                    "its events stay off", a->name, size);
        return -1;
    }
    __atomic_store_n(&h->iface_used, (uint32_t)(o.p - area), __ATOMIC_RELEASE);

    dapto_event_begin(&r, buf, sizeof buf, NULL, 0);
    dapto_put_int(&r, (int)used);
    dapto_put_int(&r, (int)(o.p - o.base));
    memset(&rec, 0, sizeof rec);
    rec.code = DAPTO_REC_ASPECT;
    rec.tid = rt_thread();
    rec.time = rt_now();
    rec.len = (uint32_t)(r.p - r.base - DAPTO_RECORD_HEADER);
    memcpy(r.base, &rec, sizeof rec);
    if (event_post((struct dapto_record *)(void *)r.base) != 0) {
        spin_unlock(&h->iface_lock);
        rtlog_error("aspect %s: cannot post its description", a->name);
        return -1;
    }
    n = __atomic_add_fetch(&h->aspects_posted, 1, __ATOMIC_ACQ_REL);
    spin_unlock(&h->iface_lock);
    ring_wake(&runtime.ring);

    if (wait_ack(n) != 0) {
        rtlog_error("aspect %s: the monitor did not acknowledge it in %d s; "
                    "going on", a->name, IFACE_ACK_MS / 1000);
        return -1;
    }
    return 0;
}
