/* SPDX-License-Identifier: MIT */
/*
 * tt-fake.c - a hostile program: it speaks to the monitor through the
 * channel library directly, as a runtime would, and then misbehaves.  The
 * monitor must report each problem clearly and never crash or hang.
 *
 *   version   claims protocol 2.0.0
 *   records   bad records of every sort, each one a protocol error
 *   stop      stops in a mailbox and never answers an operation
 *   header    scribbles over the region's header, then goes on
 *   ring      fills the ring with garbage
 *   corrupt   a commit word at the right position with an impossible size
 *   ack       checks that its event states are written before the ack
 *   functions function entry and exit records, for names from symbols
 *   states    overwrites its own state byte after the ack, then waits
 *   serve     stops and answers operations: a result, a crash, then
 *             results of an impossible length
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "region.h"
#include "ring.h"
#include "wire.h"

static struct region reg;
static struct ring ring;
static unsigned char buf[8192];

static void attach(int major)
{
    const char *env = getenv(DAPTO_CHANNEL_ENV);
    const char *why = NULL;
    int memfd, eventfd;
    struct dapto_region_id *id;

    if (env == NULL || sscanf(env, "%d:%d", &memfd, &eventfd) != 2) {
        fprintf(stderr, "tt-fake: not monitored\n");
        exit(50);
    }
    if (region_map(&reg, memfd, eventfd, &why) != 0) {
        fprintf(stderr, "tt-fake: %s\n", why);
        exit(51);
    }
    region_geom_read(&reg.geom, reg.hdr);
    ring_init(&ring, &reg);
    id = &reg.hdr->id;
    id->rt_major = (uint16_t)major;
    id->rt_median = 0;
    id->rt_minor = 0;
    id->rt_pid = getpid();
    __atomic_store_n(&id->rt_magic, DAPTO_RUNTIME_MAGIC, __ATOMIC_RELEASE);
    ring_wake(&ring);
}

/* Put a record with CODE and values V into the ring. */
static void put(unsigned int code, unsigned int flags, unsigned int aux,
                const struct wire *v)
{
    wire_record(buf, code, flags, aux, (uint32_t)getpid(), 0, v);
    ((struct dapto_record *)buf)->time = 0;
    ring_put(&ring, (const struct dapto_record *)buf);
}

static void hello(void)
{
    struct wire v = {.len = 0};

    wire_int(&v, getpid());
    wire_int(&v, 0);
    put(DAPTO_REC_HELLO, 0, 0, &v);
}

/* Describe the test aspect "t" (events 6, 7) and post it. */
static volatile unsigned char states[2];

static void aspect(void)
{
    static struct wire d;
    struct wire v = {.len = 0};
    unsigned char *iface = (unsigned char *)reg.hdr + reg.geom.iface_off;

    d.len = 0;
    wire_test_aspect(&d, "t", 6, 0);
    /* point the state bytes at our own memory */
    {
        uint64_t a0 = (uint64_t)(uintptr_t)&states[0];
        uint64_t a1 = (uint64_t)(uintptr_t)&states[1];
        uint64_t old0 = 0x601000, old1 = 0x601001;
        for (size_t i = 0; i + 8 <= d.len; i++) {
            if (memcmp(d.buf + i, &old0, 8) == 0)
                memcpy(d.buf + i, &a0, 8);
            else if (memcmp(d.buf + i, &old1, 8) == 0)
                memcpy(d.buf + i, &a1, 8);
        }
    }
    memcpy(iface, d.buf, d.len);
    reg.hdr->iface_used = (uint32_t)d.len;
    wire_int(&v, 0);
    wire_int(&v, (int32_t)d.len);
    put(DAPTO_REC_ASPECT, 0, 0, &v);
    reg.hdr->aspects_posted = 1;
    ring_wake(&ring);
}

static void ping(void)
{
    struct wire v = {.len = 0};
    put(7, 0, 0, &v);
}

static void bad_records(void)
{
    struct wire v = {.len = 0};

    wire_tag(&v, 0x33);
    put(6, 0, 0, &v); /* a bad tag */
    v.len = 0;
    put(4000, 0, 0, &v); /* an unknown event */
    wire_int(&v, 1);
    wire_long(&v, 2);
    wire_double(&v, 3);
    wire_str(&v, "no nul");
    v.buf[v.len - 1] = '!';
    put(6, 0, 0, &v); /* a string without its NUL */
    v.len = 0;
    wire_int(&v, 1);
    wire_long(&v, 2);
    wire_double(&v, 3);
    wire_istr(&v, 99);
    put(6, DAPTO_RECF_TRUNC, 0, &v); /* an intern id never defined */
    v.len = 0;
    put(7, DAPTO_RECF_STOP, 1000, &v); /* a mailbox that does not exist */
    wire_int(&v, 5000000);
    wire_int(&v, 10);
    put(DAPTO_REC_ASPECT, 0, 0, &v); /* a description outside the area */
    v.len = 0;
    wire_int(&v, 1);
    put(6, 0, 0, &v); /* too few values */
}

__attribute__((noinline)) void fake_fn(void);

__attribute__((noinline)) void fake_fn(void)
{
    __asm__ volatile("" ::: "memory");
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "records";

    if (strcmp(mode, "version") == 0) {
        attach(2);
        return 0;
    }
    attach(DAPTO_PROTO_MAJOR);
    hello();
    aspect();
    usleep(100000);
    ping();

    if (strcmp(mode, "ack") == 0) {
        for (int i = 0; i < 5000; i++) {
            if (__atomic_load_n(&reg.hdr->aspects_acked, __ATOMIC_ACQUIRE) ==
                1)
                return states[0] == DAPTO_STATE_RECORD &&
                               states[1] == DAPTO_STATE_RECORD
                           ? 0
                           : 11;
            usleep(1000);
        }
        return 10;
    }
    if (strcmp(mode, "functions") == 0) {
        struct wire v = {.len = 0};
        uint64_t fn = (uint64_t)(uintptr_t)&fake_fn;
        uint64_t site = (uint64_t)(uintptr_t)&main + 16;
        wire_ptr(&v, fn);
        wire_ptr(&v, site);
        put(DAPTO_REC_FNENTER, 0, 0, &v);
        fake_fn();
        put(DAPTO_REC_FNLEAVE, 0, 0, &v);
        v.len = 0;
        wire_ptr(&v, 8);
        wire_ptr(&v, 16);
        put(DAPTO_REC_FNENTER, 0, 0, &v); /* nowhere */
        ring_wake(&ring);
        usleep(100000);
        return 0;
    }
    if (strcmp(mode, "states") == 0) {
        while (__atomic_load_n(&reg.hdr->aspects_acked, __ATOMIC_ACQUIRE) != 1)
            usleep(1000);
        states[0] = 0x55;
        sleep(10);
        return 0;
    }
    if (strcmp(mode, "serve") == 0) {
        struct dapto_mailbox *mb = region_mailbox(&reg, 3);
        struct wire v = {.len = 0};
        int served = 0;
        mb->tid = (uint32_t)getpid();
        __atomic_store_n(&mb->state, DAPTO_MB_STOPPED, __ATOMIC_RELEASE);
        put(7, DAPTO_RECF_STOP, 3, &v);
        ring_wake(&ring);
        for (int i = 0; i < 20000; i++) {
            uint32_t st = __atomic_load_n(&mb->state, __ATOMIC_ACQUIRE);
            if (st == DAPTO_MB_RESUME)
                return served;
            if (st != DAPTO_MB_REQUEST) {
                usleep(500);
                continue;
            }
            served++;
            v.len = 0;
            mb->status = DAPTO_OP_OK;
            if (served == 1) {
                int32_t arg;
                memcpy(&arg, mb->data + 1, 4);
                wire_str(&v, arg == 5 ? "five" : "other");
                wire_int(&v, arg * 2);
                wire_double(&v, 0.5);
            } else if (served == 2) {
                mb->status = DAPTO_OP_CRASHED;
                mb->signo = SIGSEGV;
                mb->fault_addr = 16;
                strcpy(mb->message, "crashed");
            }
            memcpy(mb->data, v.buf, v.len);
            mb->res_len = served == 3 ? 70000 : (uint32_t)v.len;
            __atomic_store_n(&mb->state, DAPTO_MB_DONE, __ATOMIC_RELEASE);
            ring_wake(&ring);
        }
        return 20;
    }
    if (strcmp(mode, "records") == 0) {
        bad_records();
        ping();
        return 3;
    }
    if (strcmp(mode, "stop") == 0) {
        struct dapto_mailbox *mb = region_mailbox(&reg, 0);
        struct wire v = {.len = 0};
        mb->tid = (uint32_t)getpid();
        __atomic_store_n(&mb->state, DAPTO_MB_STOPPED, __ATOMIC_RELEASE);
        put(7, DAPTO_RECF_STOP, 0, &v);
        ring_wake(&ring);
        sleep(2); /* never answers */
        return 4;
    }
    if (strcmp(mode, "header") == 0) {
        /* everything in the header that the monitor might believe */
        reg.hdr->id.magic = 0xdeadbeef;
        reg.hdr->size = 12;
        reg.hdr->ring_off = 0xfffffff0u;
        reg.hdr->ring_size = 3;
        reg.hdr->iface_off = 0xfffffff0u;
        reg.hdr->iface_size = 0xffffffffu;
        reg.hdr->mbox_off = 0xfffffff0u;
        reg.hdr->mbox_count = 0xffffffffu;
        reg.hdr->tail = 0x123456789abcdefULL;
        reg.hdr->space_waiters = 0xffffffffu;
        reg.hdr->iface_used = 0xffffffffu;
        reg.hdr->aspects_posted = 0xffffffffu;
        reg.hdr->rt_tsc0 = ~0ULL;
        reg.hdr->rt_ns0 = ~0ULL;
        ping(); /* still readable: the monitor kept its own geometry */
        ring_wake(&ring);
        usleep(100000);
        reg.hdr->head = 0xffffffffffff0000ULL;
        return 5;
    }
    if (strcmp(mode, "ring") == 0) {
        unsigned char *data = (unsigned char *)reg.hdr + reg.geom.ring_off;
        srand(12345);
        usleep(100000);
        for (uint32_t i = 0; i < reg.geom.ring_size; i++)
            data[i] = (unsigned char)rand();
        reg.hdr->head += 4096;
        ring_wake(&ring);
        usleep(100000);
        return 6;
    }
    if (strcmp(mode, "corrupt") == 0) {
        uint64_t pos = __atomic_load_n(&reg.hdr->head, __ATOMIC_RELAXED);
        uint32_t w[2] = {12, (uint32_t)(pos >> 3)};
        unsigned char *data = (unsigned char *)reg.hdr + reg.geom.ring_off;
        memcpy(data + (pos & (reg.geom.ring_size - 1)), w, 8);
        reg.hdr->head = pos + 16;
        ring_wake(&ring);
        usleep(100000);
        return 7;
    }
    return 100;
}
