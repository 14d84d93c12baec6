/* SPDX-License-Identifier: MIT */
/*
 * intern.c - the intern table <protocol#intern>: open addressing on the
 * name's address, slots claimed by compare-and-swap and published once
 * their INTERN record is in the ring.  A claimed slot whose record could
 * not be written stays unpublished, and that name travels as a string.
 */
#include "config.h"

#include <string.h>

#include "dapto.h"
#include "intern.h"
#include "runtime.h"

/* Keys: name addresses, written once (NULL -> address) by CAS. */
const char *intern_keys[INTERN_SLOTS];
/* 1 once the slot's INTERN record is committed; written once. */
unsigned char intern_ready[INTERN_SLOTS];

/* Write the INTERN record for slot I. */
static int define(uint32_t i, const char *name)
{
    _Alignas(8) unsigned char buf[DAPTO_EVENT_MAX];
    struct dapto_record rec;
    struct dapto_out o;

    dapto_event_begin(&o, buf, sizeof buf, NULL, 0);
    dapto_put_int(&o, (int)(i + 1));
    dapto_put_str(&o, name);
    memset(&rec, 0, sizeof rec);
    rec.code = DAPTO_REC_INTERN;
    rec.flags = o.truncated ? DAPTO_RECF_TRUNC : 0;
    rec.tid = rt_thread();
    rec.time = rt_now();
    rec.len = (uint32_t)(o.p - o.base - DAPTO_RECORD_HEADER);
    memcpy(o.base, &rec, sizeof rec);
    return event_post((struct dapto_record *)(void *)o.base);
}

uint32_t intern_id(const char *name)
{
    uint32_t h = intern_hash(name), i, k;
    const char *key;

    if (name == NULL || runtime.overwrite || !rt_is_attached())
        return 0;
    for (k = 0; k < INTERN_PROBES; k++) {
        i = (h + k) & (INTERN_SLOTS - 1);
        key = __atomic_load_n(&intern_keys[i], __ATOMIC_ACQUIRE);
        if (key == name)
            return __atomic_load_n(&intern_ready[i], __ATOMIC_ACQUIRE) ? i + 1 : 0;
        if (key != NULL)
            continue;
        if (!__atomic_compare_exchange_n(&intern_keys[i], &key, name, 0,
                                         __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
            if (key == name)
                return 0; /* another thread is defining it right now */
            continue;
        }
        if (define(i, name) != 0)
            return 0;
        __atomic_store_n(&intern_ready[i], 1, __ATOMIC_RELEASE);
        return i + 1;
    }
    return 0;
}
