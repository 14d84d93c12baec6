/* SPDX-License-Identifier: MIT */
/*
 * runtime.c - the life of libdapto in a program: initialisation (once,
 * whatever the order of constructors), attaching to the monitor's region
 * <protocol#activate> with the version handshake <protocol#version>,
 * registration of aspects, and detaching in forked children
 * <protocol#fork>.  Without DAPTO_CHANNEL nothing here touches anything
 * but the aspects' bookkeeping, and every state byte stays zero.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "dapto.h"
#include "iface.h"
#include "protocol.h"
#include "rtbuf.h"
#include "rtfilter.h"
#include "rtlog.h"
#include "rtrail.h"
#include "runtime.h"
#include "stop.h"

struct runtime runtime = {.region = {.memfd = -1, .eventfd = -1},
                          .tb_epoch = RT_TB_NONE};
/* Attaches that offered thread buffers so far (runtime.tb_epoch's values,
 * from 1); changed only at attach. */
static uint32_t tb_attaches;
/* Attaches that had threads' trails so far (dapto_trail_epoch's values,
 * from 1); changed only at attach. */
static uint32_t tt_attaches;

RT_TLS __thread uint32_t rt_tid;
RT_TLS __thread int rt_busy;
RT_TLS __thread int rt_in_op;

/* State bytes of the built-in events: written by the monitor only (and
 * zeroed in a forked child). */
dapto_state_t dapto_builtin_state[DAPTO_EV_BUILTINS];

static const struct dapto_param p_pid[] = {
    {"pid", "int", DAPTO_K_INT, "process id of the program"}};
static const struct dapto_param p_stopped[] = {
    {"locale", "str", DAPTO_K_STR, "where the program stopped"},
    {"error", "int", DAPTO_K_INT, "error code, 0 for none"}};
static const struct dapto_param p_name[] = {
    {"name", "str", DAPTO_K_STR, "name of the component"}};

static const struct dapto_event builtin_events[DAPTO_EV_BUILTINS] = {
    {"init", "the program attached to the monitor", 1, 1, p_pid,
     &dapto_builtin_state[DAPTO_EV_INIT]},
    {"finit", "the runtime is finishing", 1, 0, NULL,
     &dapto_builtin_state[DAPTO_EV_FINIT]},
    {"exit", "the program called exit", 0, 0, NULL,
     &dapto_builtin_state[DAPTO_EV_EXIT]},
    {"stopped", "the program reports a stop or an error", 0, 2, p_stopped,
     &dapto_builtin_state[DAPTO_EV_STOPPED]},
    {"enter", "entry to a component", 0, 1, p_name,
     &dapto_builtin_state[DAPTO_EV_ENTER]},
    {"leave", "exit from a component", 0, 1, p_name,
     &dapto_builtin_state[DAPTO_EV_LEAVE]},
};

struct dapto_aspect rt_builtin = {
    .abi = DAPTO_ABI_VERSION,
    .name = "dapto",
    .file = "libdapto",
    .nevents = DAPTO_EV_BUILTINS,
    .events = builtin_events,
};

/* Registered aspects in order, the built-in first.  Appended under
 * reg_lock; read without it (fork handler, operations) through acquire
 * loads of the links. */
static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static struct dapto_aspect *aspects_head;
static struct dapto_aspect **aspects_tail = &aspects_head;
static unsigned int next_event; /* under reg_lock */
static unsigned int next_op;    /* under reg_lock */

static pthread_once_t init_once = PTHREAD_ONCE_INIT;

uint32_t rt_gettid(void)
{
    int saved = errno;

    rt_tid = (uint32_t)syscall(SYS_gettid);
    errno = saved;
    return rt_tid;
}

struct dapto_aspect *rt_aspects(void)
{
    return __atomic_load_n(&aspects_head, __ATOMIC_ACQUIRE);
}

/* Whether A is already registered; under reg_lock. */
static int registered(const struct dapto_aspect *a)
{
    const struct dapto_aspect *x;

    for (x = aspects_head; x != NULL; x = x->next)
        if (x == a)
            return 1;
    return 0;
}

/* Give A its codes and put it on the list.  Returns 0, or -1 when it is
 * refused (already there, or its codes would not fit). */
static int aspect_add(struct dapto_aspect *a)
{
    int rc = -1;

    pthread_mutex_lock(&reg_lock);
    if (registered(a))
        goto done;
    /* <protocol#relate>: the derived events' codes are never an
     * aspect's */
    if (next_event < DAPTO_DERIVED_BASE + DAPTO_REL_DERIVED &&
        next_event + a->nevents > DAPTO_DERIVED_BASE)
        next_event = DAPTO_DERIVED_BASE + DAPTO_REL_DERIVED;
    /* (codes from DAPTO_PROBE_CODE_BASE up are the monitor's, for
     * probes <protocol#probes>) */
    if (next_event + a->nevents > DAPTO_PROBE_CODE_BASE ||
        next_op + a->nops > UINT32_MAX / 2) {
        rtlog_error("aspect %s: too many events; not registered", a->name);
        goto done;
    }
    a->event_base = next_event;
    a->op_base = next_op;
    next_event += a->nevents;
    next_op += a->nops;
    a->next = NULL;
    __atomic_store_n(aspects_tail, a, __ATOMIC_RELEASE);
    aspects_tail = &a->next;
    rc = 0;
done:
    pthread_mutex_unlock(&reg_lock);
    return rc;
}

/* Zero the state byte of every event of every aspect. */
static void states_off(void)
{
    struct dapto_aspect *a;
    unsigned int i;

    for (a = rt_aspects(); a != NULL;
         a = __atomic_load_n(&a->next, __ATOMIC_ACQUIRE))
        for (i = 0; i < a->nevents; i++)
            if (a->events[i].state != NULL)
                *a->events[i].state = DAPTO_STATE_OFF;
}

/* Parse "MEMFD:EVENTFD": two decimal numbers, nothing else. */
static int parse_channel(const char *s, int *memfd, int *eventfd)
{
    long v[2];
    int i;

    for (i = 0; i < 2; i++) {
        v[i] = 0;
        if (*s < '0' || *s > '9')
            return -1;
        while (*s >= '0' && *s <= '9') {
            v[i] = v[i] * 10 + (*s++ - '0');
            if (v[i] > INT_MAX)
                return -1;
        }
        if (i == 0 && *s++ != ':')
            return -1;
    }
    if (*s != '\0')
        return -1;
    *memfd = (int)v[0];
    *eventfd = (int)v[1];
    return 0;
}

static void set_cloexec(int fd)
{
    int fl = fcntl(fd, F_GETFD);

    if (fl >= 0)
        fcntl(fd, F_SETFD, fl | FD_CLOEXEC);
}

/* The channel is ours now: children must not inherit it <protocol#activate>. */
static void channel_hide(int memfd, int eventfd)
{
    unsetenv(DAPTO_CHANNEL_ENV);
    set_cloexec(memfd);
    set_cloexec(eventfd);
}

static uint64_t mono_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* rt_now() for questions' durations. */
static uint64_t rt_now_fn(void)
{
    return rt_now();
}

/* Attach to the region behind MEMFD (wake-ups on EVENTFD): the version
 * handshake, the geometry, HELLO.  With FROM_ENV, the descriptors were
 * inherited: hide them from the programs this one starts once they turn
 * out to be a region.  Returns 1 when attached, else 0 with the region
 * unmapped (the descriptors stay open). */
int rt_attach_fds(int memfd, int eventfd, int from_env)
{
    const char *cause;
    struct dapto_region *h;
    struct dapto_record hello;
    _Alignas(8) unsigned char buf[DAPTO_RECORD_HEADER + 16];
    struct dapto_out o;
    uint64_t one = 1;
    void *scratch;

    if (region_map(&runtime.region, memfd, eventfd, &cause) != 0) {
        rtlog_error("DAPTO_CHANNEL: %s; running unmonitored", cause);
        return 0;
    }
    if (from_env)
        channel_hide(memfd, eventfd);

    /* <protocol#version>: our identity, rt_magic last, then a wake-up. */
    h = runtime.region.hdr;
    h->id.rt_major = RUNTIME_PROTO_MAJOR;
    h->id.rt_median = RUNTIME_PROTO_MEDIAN;
    h->id.rt_minor = RUNTIME_PROTO_MINOR;
    h->id.rt_pid = (int32_t)getpid();
    __atomic_store_n(&h->id.rt_magic, DAPTO_RUNTIME_MAGIC, __ATOMIC_RELEASE);
    if (write(eventfd, &one, sizeof one) < 0)
        rtlog_error("DAPTO_CHANNEL: cannot write the wake-up descriptor");
    if (__atomic_load_n(&h->id.major, __ATOMIC_ACQUIRE) != RUNTIME_PROTO_MAJOR ||
        __atomic_load_n(&h->id.median, __ATOMIC_ACQUIRE) != RUNTIME_PROTO_MEDIAN)
        goto fail_version;

    region_geom_read(&runtime.region.geom, h);
    cause = region_geom_check(&runtime.region.geom, runtime.region.mapped);
    if (cause != NULL) {
        rtlog_error("DAPTO_CHANNEL: bad region: %s; running unmonitored",
                    cause);
        goto fail_geometry;
    }
    scratch = mmap(NULL, (size_t)runtime.region.geom.mbox_count * RT_SCRATCH,
                   PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (scratch == MAP_FAILED) {
        rtlog_error("cannot map %u bytes for operations; running unmonitored",
                    runtime.region.geom.mbox_count * RT_SCRATCH);
        goto fail_geometry;
    }
    runtime.scratch = scratch;
    /* <protocol#filter>: filters only with a monitor that writes them */
    if (__atomic_load_n(&h->id.minor, __ATOMIC_ACQUIRE) >= 2) {
        const struct region_geom *g = &runtime.region.geom;

        if (g->filt_size != 0) {
            runtime.filt = (const unsigned char *)h + g->filt_off;
            runtime.filt_size = g->filt_size;
        }
        if (g->cnt_slots != 0) {
            runtime.cnt = (uint64_t *)(void *)((unsigned char *)h + g->cnt_off);
            runtime.cnt_slots = g->cnt_slots;
        }
        /* <protocol#question>: with a monitor of minor 3 */
        if (g->q_size != 0 &&
            __atomic_load_n(&h->id.minor, __ATOMIC_RELAXED) >= 3) {
            runtime.q.area = (unsigned char *)h + g->q_off;
            runtime.q.size = g->q_size;
            runtime.q.slot = NULL; /* each thread's own */
            runtime.q.now = rt_now_fn;
            runtime.q.epoch = &runtime.epoch;
        }
        /* <protocol#relate>: with a monitor of minor 5 */
        runtime.rel.area = NULL;
        if (g->rel_size != 0 &&
            __atomic_load_n(&h->id.minor, __ATOMIC_RELAXED) >= DAPTO_RELATE_MINOR) {
            runtime.rel.now = rt_now_fn;
            runtime.rel.emit = rt_rel_emit;
            runtime.rel.count = rtfilter_count;
            runtime.rel.unwound = rt_rel_unwound;
            if (rtrel_env_init(&runtime.rel, (unsigned char *)h + g->rel_off,
                               g->rel_size) != 0)
                rtlog_error("DAPTO_CHANNEL: bad relations area; components "
                            "and derived events are not kept");
        }
    }
    ring_init(&runtime.ring, &runtime.region);
    if (runtime.monitor != 0)
        runtime.ring.gone = rt_monitor_gone;
    /* <protocol#tbuf>: a buffer a thread, with a monitor that offers them */
    tbuf_area_init(&runtime.tb, &runtime.region);
    runtime.tb.gone = runtime.ring.gone;
    if (RUNTIME_PROTO_MINOR >= DAPTO_TBUF_MINOR && runtime.tb.count != 0 &&
        __atomic_load_n(&h->id.minor, __ATOMIC_ACQUIRE) >= DAPTO_TBUF_MINOR) {
        if (++tb_attaches == RT_TB_NONE)
            tb_attaches = 1;
        runtime.tb_epoch = tb_attaches;
    }
    trail_init(&runtime.trail, &runtime.region);
    /* <protocol#ttrail>: a trail a thread, with a monitor that has them */
    ttrail_area_init(&runtime.tt, &runtime.region);
    if (RUNTIME_PROTO_MINOR >= DAPTO_TTRAIL_MINOR && runtime.tt.count != 0 &&
        __atomic_load_n(&h->id.minor, __ATOMIC_ACQUIRE) >= DAPTO_TTRAIL_MINOR) {
        if (++tt_attaches >= DAPTO_KEEP_BUSY)
            tt_attaches = 1;
        __atomic_store_n(&dapto_trail_epoch, tt_attaches, __ATOMIC_RELAXED);
    }
#if defined(__x86_64__) || defined(__i386__)
    runtime.tsc = (runtime.region.geom.flags & DAPTO_RF_TSC) != 0;
    runtime.q.tsc = runtime.tsc;
#endif
    runtime.overwrite = (runtime.region.geom.flags & DAPTO_RF_OVERWRITE) != 0;
    /* <protocol#cct>: a monitor before it would read a component's key as
     * a function's address */
    runtime.named_cct = RUNTIME_PROTO_MINOR >= DAPTO_PATH_MINOR &&
                        __atomic_load_n(&h->id.minor, __ATOMIC_ACQUIRE) >= DAPTO_PATH_MINOR;
    runtime.pid = getpid();

    /* <protocol#hello>: clock samples, then the first record. */
#if defined(__x86_64__) || defined(__i386__)
    h->rt_tsc0 = __rdtsc();
#endif
    h->rt_ns0 = mono_ns();
    h->rt_interrupt = (uint64_t)(uintptr_t)stop_interrupt;
    /* <protocol#relate>: where the derived events' states are */
    h->rt_region = (uint64_t)(uintptr_t)h;
    rtfilter_quick_attach();
    __atomic_store_n(&runtime.attached, 1, __ATOMIC_RELEASE);
    memset(&hello, 0, sizeof hello);
    dapto_event_begin(&o, buf, sizeof buf, NULL, 0);
    dapto_put_int(&o, (int)runtime.pid);
    dapto_put_int(&o, runtime.overwrite);
    hello.code = DAPTO_REC_HELLO;
    hello.tid = rt_thread();
    hello.time = rt_now();
    hello.len = (uint32_t)(o.p - o.base - DAPTO_RECORD_HEADER);
    memcpy(o.base, &hello, sizeof hello);
    event_post((struct dapto_record *)(void *)o.base);
    return 1;

fail_geometry:
fail_version:
    region_unmap(&runtime.region);
    return 0;
}

/* Attach to the region named by DAPTO_CHANNEL, if any and sound
 * <protocol#activate>.  Returns 1 when attached (HELLO written), else 0. */
static int attach(void)
{
    const char *env = getenv(DAPTO_CHANNEL_ENV);
    int memfd, eventfd;

    if (env == NULL)
        return 0;
    if (parse_channel(env, &memfd, &eventfd) != 0) {
        rtlog_error("DAPTO_CHANNEL=\"%s\" is not MEMFD:EVENTFD; "
                    "running unmonitored", env);
        return 0;
    }
    if (fcntl(eventfd, F_GETFD) < 0) {
        rtlog_error("DAPTO_CHANNEL: descriptor %d is not open; "
                    "running unmonitored", eventfd);
        return 0;
    }
    return rt_attach_fds(memfd, eventfd, 1);
}

void rt_release(void)
{
    if (!rt_is_attached())
        return;
    __atomic_store_n(&runtime.attached, 0, __ATOMIC_RELEASE);
    runtime.tb_epoch = RT_TB_NONE;
    __atomic_store_n(&dapto_trail_epoch, RT_TT_NONE, __ATOMIC_RELAXED);
    rtfilter_quick_release();
    states_off();
    runtime.filt = NULL;
    runtime.cnt = NULL;
    runtime.q.area = NULL;
    runtime.rel.area = NULL;
    runtime.monitor = 0;
    region_unmap(&runtime.region);
    close(runtime.region.memfd);
    close(runtime.region.eventfd);
    runtime.region.memfd = runtime.region.eventfd = -1;
    munmap(runtime.scratch, (size_t)runtime.region.geom.mbox_count * RT_SCRATCH);
    runtime.scratch = NULL;
}

/* In a forked child, before fork() returns: never touch the parent's
 * channel again <protocol#fork>. */
static void fork_child(void)
{
    rt_tid = 0;
    rt_cnt = NULL;
    memset(&rt_tb, 0, sizeof rt_tb);
    memset(&dapto_trail_self, 0, sizeof dapto_trail_self);
    rt_tt_tried = 0;
    rtfilter_fork_child();
    rt_rel_fork_child();
    if (rt_is_attached()) {
        rt_release();
        pthread_mutex_init(&reg_lock, NULL);
    }
    /* a monitor that follows the child attaches to it here */
    dapto_fork_point();
}

void rt_states_off(void)
{
    states_off();
}

static void emit_builtin(unsigned int ev, int with_pid)
{
    if (dapto_builtin_state[ev] == 0)
        return;
    {
        DAPTO_EVENT_BEGIN(&rt_builtin, ev);
        if (with_pid)
            DAPTO_RESULT_INT(runtime.pid);
        DAPTO_EVENT_END();
    }
}

/* 1 once the exit event was emitted (or the process detached). */
static int exit_done;

/* atexit handler: the program is exiting.  A shared libdapto registers
 * it from its constructor, before the dynamic linker registers the
 * destructors of libraries, so it would run after runtime_dtor: the
 * destructor calls it first, and it acts once. */
static void at_exit(void)
{
    if (__atomic_exchange_n(&exit_done, 1, __ATOMIC_ACQ_REL))
        return;
    emit_builtin(DAPTO_EV_EXIT, 0);
}

/* The built-in aspect, and the hooks of a process that may be attached
 * to later <protocol#attach>: registered once whether or not a monitor
 * is there now; they do nothing while none is. */
/* DAPTO_PTRACER=any (or a pid): under Yama's ptrace_scope 1, let any
 * process of the user (or that one) attach to this program later
 * <protocol#attach>; the kernel otherwise lets only its ancestors. */
static void allow_tracer(void)
{
    const char *v = getenv(DAPTO_PTRACER_ENV);
    unsigned long who;

    if (v == NULL || *v == '\0')
        return;
    if (strcmp(v, "any") == 0) {
        who = (unsigned long)PR_SET_PTRACER_ANY;
    } else {
        char *end;

        who = strtoul(v, &end, 10);
        if (*end != '\0' || who == 0 || who > INT_MAX) {
            rtlog_error("%s=\"%s\" is neither \"any\" nor a process id; "
                        "ignored", DAPTO_PTRACER_ENV, v);
            return;
        }
    }
    /* (EINVAL: no Yama, and anybody of the user may attach already) */
    if (prctl(PR_SET_PTRACER, who, 0, 0, 0) != 0 && errno != EINVAL)
        rtlog_error("%s: cannot name the tracer: %s", DAPTO_PTRACER_ENV,
                    strerror(errno));
}

static void setup(void)
{
    aspect_add(&rt_builtin);
    pthread_atfork(NULL, NULL, fork_child);
    atexit(at_exit);
    allow_tracer();
    if (!attach())
        return;
    iface_post(&rt_builtin);
    emit_builtin(DAPTO_EV_INIT, 1);
}

void rt_emit_init(void)
{
    emit_builtin(DAPTO_EV_INIT, 1);
}

void rt_init(void)
{
    pthread_once(&init_once, setup);
}

__attribute__((constructor)) static void runtime_ctor(void)
{
    rt_init();
}

/* The runtime is going: finit, and a last wake-up so that the monitor
 * reads everything before the process ends. */
__attribute__((destructor)) static void runtime_dtor(void)
{
    if (!rt_is_attached())
        return;
    at_exit();
    emit_builtin(DAPTO_EV_FINIT, 0);
    ring_wake(&runtime.ring);
}

void dapto_register(struct dapto_aspect *a)
{
    rt_init();
    if (a == NULL)
        return;
    if (a->abi != DAPTO_ABI_VERSION) {
        rtlog_error("aspect %s: description version %u, the runtime reads %u; "
                    "not registered", a->name, a->abi, DAPTO_ABI_VERSION);
        return;
    }
    if (aspect_add(a) != 0)
        return;
    if (rt_is_attached())
        iface_post(a);
}

int dapto_monitored(void)
{
    rt_init();
    return rt_is_attached();
}
