/* SPDX-License-Identifier: MIT */
/*
 * attach.c - attaching to a program that runs already <protocol#attach>:
 * the entry points a monitor makes one of its stopped threads call (the
 * region and wake-up descriptor created in the program, the handshake and
 * the interface as at a start, and the release at detach), and how the
 * runtime notices that such a monitor died without detaching.
 *
 * Nothing here runs unless a monitor calls it: a program nobody attaches
 * to has no thread, no descriptor and no mapping of ours, and its events
 * cost what they cost without this file.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "dapto.h"
#include "iface.h"
#include "intern.h"
#include "protocol.h"
#include "region.h"
#include "runtime.h"

/* CLOCK_MONOTONIC ms of the last look at the tracer; 0 never.  Only a
 * hint to look at most every few hundred ms: races are harmless. */
static uint64_t last_look;

static uint64_t mono_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* The pid of the process tracing this one (0 for none), from
 * /proc/self/status; -1 when it cannot be read.  No allocation. */
static int tracer_pid(void)
{
    static const char key[] = "TracerPid:";
    char buf[4096];
    ssize_t n;
    size_t got = 0;
    const char *p;
    int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC), v = 0;

    if (fd < 0)
        return -1;
    while (got < sizeof buf - 1 &&
           (n = read(fd, buf + got, sizeof buf - 1 - got)) > 0)
        got += (size_t)n;
    close(fd);
    buf[got] = '\0';
    p = strstr(buf, key);
    if (p == NULL)
        return -1;
    p += sizeof key - 1;
    while (*p == ' ' || *p == '\t')
        p++;
    while (*p >= '0' && *p <= '9')
        v = v * 10 + (*p++ - '0');
    return v;
}

static void let_go_stale(void);

int rt_monitor_gone(void)
{
    int saved = errno, monitor = runtime.monitor, t;
    uint64_t now;

    if (monitor == 0 || !rt_is_attached())
        return 0;
    now = mono_ms();
    if (last_look != 0 && now - last_look < 200)
        return 0;
    last_look = now;
    t = tracer_pid();
    errno = saved;
    if (t < 0 || t == monitor)
        return 0;
    /* gone (killed): nobody will read or resume us again */
    let_go_stale();
    return 1;
}

/* The monitor of the channel is gone <protocol#attach>: every event off
 * and the channel let go, as the monitor does at a detach, so that every
 * thread waiting in the runtime gets out of it (a stopped one is resumed).
 * The region stays mapped: another thread may be inside the runtime,
 * using it, and only a monitor that stops them all can tell when none is
 * (it then calls dapto_attach_end). */
static void let_go_stale(void)
{
    rt_states_off();
    region_let_go(&runtime.region);
}

/* <protocol#attach> step 1: a sealable memfd for the region (empty: the
 * monitor sizes and fills it) and an eventfd, both close-on-exec.
 * Returns memfd | eventfd << 32, or -errno: -EBUSY when attached to a
 * monitor that still traces the program, -ESTALE when attached to one
 * that no longer does (the caller traces it now, and ptrace has one
 * tracer): that channel is let go here, and the caller releases it with
 * dapto_attach_end once no thread is inside the runtime, then asks
 * again. */
int64_t dapto_attach_open(void)
{
    int memfd, efd, e, t;

    rt_init();
    if (rt_is_attached()) {
        t = tracer_pid();
        if (runtime.monitor == 0 || t <= 0 || t == runtime.monitor)
            return -EBUSY;
        let_go_stale();
        return -ESTALE;
    }
    memfd = memfd_create("dapto-channel", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (memfd < 0)
        return -errno;
    efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (efd < 0) {
        e = errno;
        close(memfd);
        return -e;
    }
    return (int64_t)memfd | (int64_t)efd << 32;
}

/* <protocol#attach> step 2: the region is filled in; attach to it as at
 * a start, describe every aspect registered so far, then init.  Returns
 * 1 when attached; 0 when not (another version: the monitor reads ours
 * in the region), with both descriptors closed. */
int dapto_attach_start(int memfd, int eventfd, int monitor)
{
    struct dapto_aspect *a;

    if (rt_is_attached())
        return -EBUSY;
    /* ids and slots of an earlier attach mean nothing to this monitor */
    memset(intern_keys, 0, sizeof intern_keys);
    memset(intern_ready, 0, sizeof intern_ready);
    __atomic_fetch_add(&runtime.epoch, 1, __ATOMIC_RELEASE);
    runtime.monitor = monitor;
    last_look = 0;
    /* its breakpoints must not end the program if it is killed */
    rt_trap_install();
    if (!rt_attach_fds(memfd, eventfd, 0)) {
        runtime.monitor = 0;
        close(memfd);
        close(eventfd);
        return 0;
    }
    for (a = rt_aspects(); a != NULL;
         a = __atomic_load_n(&a->next, __ATOMIC_ACQUIRE))
        iface_post(a);
    rt_emit_init();
    return 1;
}

/* <protocol#attach> detach: the monitor has turned every event off and
 * let the program go; leave nothing of it behind. */
int dapto_attach_end(void)
{
    if (!rt_is_attached())
        return 0;
    rt_release();
    return 1;
}

/* (not inlined, and with a body the compiler keeps: a monitor puts a
 * breakpoint on its first instruction) */
__attribute__((noinline)) void dapto_fork_point(void)
{
    __asm__ volatile("" ::: "memory");
}
