/* SPDX-License-Identifier: MIT */
/*
 * channel-stop.c - stops and operations through the mailboxes
 * <protocol#stop> <design#channel>: the thread stopped last, resuming it,
 * an operation's arguments converted, sent, waited for (the program's
 * ptrace stops still handled meanwhile), interrupted when it does not
 * answer, its results decoded.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "channel-int.h"
#include "futex.h"
#include "mailbox.h"
#include "target.h"
#include "xmalloc.h"

/* What a mailbox in state ST is doing, in words (messages never show the
 * numbers). */
static const char *channel_mailbox_says(uint32_t st)
{
    switch (st) {
    case DAPTO_MB_FREE:
        return "free (no thread waits there)";
    case DAPTO_MB_CLAIMED:
        return "taken by a thread that is about to stop";
    case DAPTO_MB_STOPPED:
        return "a stopped thread";
    case DAPTO_MB_REQUEST:
        return "asked to run an operation";
    case DAPTO_MB_RUNNING:
        return "running an operation";
    case DAPTO_MB_DONE:
        return "done with an operation";
    case DAPTO_MB_RESUME:
        return "resumed";
    default:
        return "in a state that does not exist";
    }
}

static unsigned int mb_index(const struct channel *ch,
                             const struct dapto_mailbox *mb)
{
    return (unsigned int)(((const unsigned char *)mb -
                           ((const unsigned char *)ch->region.hdr +
                            ch->region.geom.mbox_off)) /
                          sizeof *mb);
}

int channel_stopped(const struct channel *ch)
{
    int best = -1;

    for (uint32_t i = 0; i < ch->region.geom.mbox_count; i++) {
        if (ch->stopped[i] != 0 &&
            (best < 0 || ch->stopped[i] > ch->stopped[best]))
            best = (int)i;
    }
    return best;
}

/* The mailbox for STOP, or NULL with *cause. */
static struct dapto_mailbox *channel_stop_mailbox(struct channel *ch,
                                                  int *stop, char **cause)
{
    struct dapto_mailbox *mb;

    if (*stop < 0)
        *stop = channel_stopped(ch);
    if (*stop < 0 || (uint32_t)*stop >= ch->region.geom.mbox_count ||
        ch->stopped[*stop] == 0) {
        xcause(cause, "the program is not stopped at an event");
        return NULL;
    }
    if (ch->target != NULL && !target_alive(ch->target)) {
        xcause(cause, "the program is not running");
        return NULL;
    }
    mb = region_mailbox(&ch->region, (uint32_t)*stop);
    if (mb == NULL) {
        xcause(cause, "the program is not stopped at an event");
        return NULL;
    }
    if (ch->busy[*stop]) {
        uint32_t st = mailbox_state(mb);

        if (st == DAPTO_MB_REQUEST || st == DAPTO_MB_RUNNING) {
            xcause(cause, "the thread stopped at the event still runs an "
                   "operation that did not answer (\"kill\" ends the "
                   "program)");
            return NULL;
        }
        ch->busy[*stop] = 0; /* it answered at last */
    }
    return mb;
}

void channel_wake_all(struct channel *ch)
{
    if (ch->region.hdr != NULL)
        region_wake_all(&ch->region);
}

char *channel_mailboxes_busy(struct channel *ch)
{
    char *out = NULL;

    if (ch->region.hdr == NULL)
        return NULL;
    for (uint32_t i = 0; i < ch->region.geom.mbox_count; i++) {
        struct dapto_mailbox *mb = region_mailbox(&ch->region, i);
        uint32_t st = __atomic_load_n(&mb->state, __ATOMIC_ACQUIRE);
        char *w;

        if (st == DAPTO_MB_FREE)
            continue;
        w = xasprintf("%s%smailbox %u of thread %u: %s", out != NULL ? out : "",
                      out != NULL ? "; " : "", (unsigned)i,
                      (unsigned)mb->tid, channel_mailbox_says(st));
        free(out);
        out = w;
    }
    return out;
}

int channel_resume(struct channel *ch, int stop, char **cause)
{
    struct dapto_mailbox *mb = channel_stop_mailbox(ch, &stop, cause);

    if (mb == NULL)
        return -1;
    ch->stopped[stop] = 0;
    if (mailbox_resume(mb) != 0) {
        xcause(cause, "cannot resume the stopped thread: its mailbox is %s",
               channel_mailbox_says(mailbox_state(mb)));
        return -1;
    }
    return 0;
}

/* Convert text ARG to parameter P and append it to OUT. */
static int channel_convert(struct dapto_out *out, const struct registry_op *op,
                           unsigned int i, const char *arg, char **cause)
{
    const struct registry_param *p = &op->params[i];
    char *end = NULL;
    const char *expected = NULL;
    int string = 0; /* the argument went as a string */

    errno = 0;
    switch (p->kind) {
    case DAPTO_K_INT: {
        long v = strtol(arg, &end, 0);
        if (*arg == '\0' || *end != '\0' || errno != 0 || v < INT_MIN ||
            v > INT_MAX) {
            expected = "an int";
            break;
        }
        dapto_put_int(out, (int)v);
        break;
    }
    case DAPTO_K_LONG: {
        long v = strtol(arg, &end, 0);
        if (*arg == '\0' || *end != '\0' || errno != 0) {
            expected = "a long";
            break;
        }
        dapto_put_long(out, v);
        break;
    }
    case DAPTO_K_DOUBLE: {
        double v = strtod(arg, &end);
        if (*arg == '\0' || *end != '\0' || errno == ERANGE) {
            expected = "a double";
            break;
        }
        dapto_put_double(out, v);
        break;
    }
    case DAPTO_K_PTR: {
        unsigned long long v;
        if (*arg == '-') {
            expected = "a pointer (a decimal or 0x hexadecimal address)";
            break;
        }
        v = strtoull(arg, &end, 0);
        if (*arg == '\0' || *end != '\0' || errno != 0) {
            expected = "a pointer (a decimal or 0x hexadecimal address)";
            break;
        }
        dapto_put_ptr(out, (const void *)(uintptr_t)v);
        break;
    }
    case DAPTO_K_STR:
        dapto_put_str(out, arg);
        string = 1;
        break;
    case DAPTO_K_USER: {
        /* How the program reads a user type is up to its DAPTO_ARG<Type>
         * macro; numbers travel as numbers (the runtime's getters convert
         * between numeric kinds), anything else as a string. */
        long long sv;
        unsigned long long uv;
        double dv;

        if (*arg != '\0' && ((sv = strtoll(arg, &end, 0)), *end == '\0') &&
            errno == 0) {
            dapto_put_ptr(out, (const void *)(uintptr_t)sv);
            break;
        }
        errno = 0;
        if (*arg != '\0' && *arg != '-' &&
            ((uv = strtoull(arg, &end, 0)), *end == '\0') && errno == 0) {
            dapto_put_ptr(out, (const void *)(uintptr_t)uv);
            break;
        }
        errno = 0;
        if (*arg != '\0' && ((dv = strtod(arg, &end)), *end == '\0') &&
            errno == 0) {
            dapto_put_double(out, dv);
            break;
        }
        dapto_put_str(out, arg);
        string = 1;
        break;
    }
    default:
        xcause(cause, "argument %u (%s) of %s: values of type %s cannot be "
               "sent", i + 1, p->name, op->name, p->type);
        return -1;
    }
    if (expected != NULL) {
        xcause(cause, "argument %u (%s) of %s: expected %s, got \"%s\"", i + 1,
               p->name, op->name, expected, arg);
        return -1;
    }
    if (out->truncated && string) {
        xcause(cause, "argument %u (%s) of %s: the string is too long", i + 1,
               p->name, op->name);
        return -1;
    }
    if (out->truncated) {
        xcause(cause, "the arguments of %s are too long", op->name);
        return -1;
    }
    return 0;
}

/* Decode the results the program wrote (untrusted) into *res. */
static int channel_results(struct channel *ch, const struct dapto_mailbox *mb,
                           const struct registry_op *op,
                           struct channel_result *res, char **cause)
{
    uint32_t len = __atomic_load_n(&mb->res_len, __ATOMIC_RELAXED);
    struct decode_cursor c;
    char *why = NULL;

    res->status = (int)__atomic_load_n(&mb->status, __ATOMIC_RELAXED);
    res->signo = mb->signo;
    res->fault_addr = mb->fault_addr;
    memcpy(ch->res_message, mb->message, sizeof mb->message);
    ch->res_message[sizeof mb->message] = '\0';
    res->message = ch->res_message;
    if (res->status != DAPTO_OP_OK)
        return 0;
    if (len > DAPTO_MBOX_DATA) {
        xcause(cause, "protocol error: operation %s answered with %u bytes "
               "of results (at most %u)", op->name, len, DAPTO_MBOX_DATA);
        return -1;
    }
    memcpy(ch->res_data, mb->data, len);
    decode_init(&c, ch->res_data, len);
    while (!decode_at_end(&c)) {
        struct decode_value *v;
        if (res->nvalues == ch->res_avalues) {
            ch->res_avalues = ch->res_avalues == 0 ? 8 : ch->res_avalues * 2;
            ch->res_values = xreallocarray(ch->res_values, ch->res_avalues,
                                           sizeof *ch->res_values);
        }
        v = &ch->res_values[res->nvalues];
        if (decode_value(&c, v, &why) != 0 || v->kind == DAPTO_K_ISTR) {
            xcause(cause, "protocol error: results of operation %s: %s",
                   op->name, why != NULL ? why : "an interned string");
            free(why);
            return -1;
        }
        res->nvalues++;
        res->values = ch->res_values;
    }
    return 0;
}

/* Interrupt the operation that thread TID runs in mailbox MB: stop the
 * thread alone and, once it is inside the operation's own code, make it
 * call the runtime's interrupt function <protocol#stop>, which ends the
 * operation (DAPTO_OP_INTERRUPTED) and waits at the stop again.  Returns
 * 0 once that is done (or the operation answered meanwhile), -1 with
 * *cause. */
static int channel_interrupt(struct channel *ch, struct dapto_mailbox *mb,
                             pid_t tid, char **cause)
{
    uint64_t fn = __atomic_load_n(&ch->region.hdr->rt_interrupt,
                                  __ATOMIC_RELAXED);
    uint64_t deadline = clock_monotonic_ns() +
                        (uint64_t)CHANNEL_INTERRUPT_MS * 1000000u;
    int rc;

    if (ch->target == NULL) {
        xcause(cause, "the program is not running");
        return -1;
    }
    if (fn == 0) {
        xcause(cause, "the program's runtime does not offer to interrupt "
               "operations");
        return -1;
    }
    for (;;) {
        uint32_t st = mailbox_state(mb);

        if (st != DAPTO_MB_REQUEST && st != DAPTO_MB_RUNNING)
            return 0;
        if (target_stop_thread(ch->target, tid, CHANNEL_INTERRUPT_MS,
                               cause) != 0)
            return -1;
        /* the thread is stopped: the mailbox holds still */
        if (mailbox_state(mb) == DAPTO_MB_RUNNING &&
            __atomic_load_n(&mb->op_active, __ATOMIC_ACQUIRE) == 1) {
            rc = target_call(ch->target, tid, fn, 0, 0, 0, cause);
            target_resume_thread(ch->target, tid, NULL);
            return rc == 0 ? 0 : -1;
        }
        /* between the request and the operation's code: a little later */
        target_resume_thread(ch->target, tid, NULL);
        if (clock_monotonic_ns() >= deadline) {
            xcause(cause, "thread %d did not enter the operation's code",
                   (int)tid);
            return -1;
        }
        poll(NULL, 0, 5);
    }
}

/* Wait for mailbox MB to answer, handling the program's ptrace stops.
 * Events not about this operation are given back to the target.  After
 * TIMEOUT_MS (< 0: never) the operation is interrupted. */
static int channel_wait_done(struct channel *ch, struct dapto_mailbox *mb,
                             pid_t tid, const char *name, int timeout_ms,
                             char **cause)
{
    struct target_event *kept = NULL;
    unsigned int nkept = 0;
    uint64_t deadline = timeout_ms < 0
                            ? 0
                            : clock_monotonic_ns() +
                                  (uint64_t)timeout_ms * 1000000u;
    int rc = -1, interrupted = 0;
    char *why = NULL;

    /* The answer usually comes within microseconds: with spare CPUs,
     * look at the mailbox alone for up to 50 us (yielding now and then,
     * for a program that shares our CPU) before the full loop. */
    uint64_t spin_until = 0;
    if (ch->ncpu > 1)
        cpu_say(&ch->region.hdr->monitor_cpu);
    for (unsigned int k = 0; ch->ncpu > 1; k++) {
        uint32_t st = mailbox_state(mb);
        if (st != DAPTO_MB_REQUEST && st != DAPTO_MB_RUNNING)
            break;
        if (k % 64 == 63) {
            uint64_t now = clock_monotonic_ns();
            if (spin_until == 0)
                spin_until = now + 50000;
            else if (now > spin_until)
                break;
            if (cpu_yield_pays(&ch->region.hdr->program_cpu))
                sched_yield();
        }
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    }
    for (;;) {
        struct pollfd pfd[2];
        struct target_event ev;
        uint32_t st = mailbox_state(mb);
        int slice = 50;

        if (st == DAPTO_MB_DONE) {
            rc = 0;
            break;
        }
        if (st != DAPTO_MB_REQUEST && st != DAPTO_MB_RUNNING) {
            xcause(cause, "protocol error: operation %s: the stopped thread's "
                   "mailbox became %s", name, channel_mailbox_says(st));
            break;
        }
        while (ch->target != NULL && target_poll(ch->target, &ev)) {
            if (ev.kind == TARGET_EV_FAULT && ev.tid == tid) {
                /* the runtime's recovery point takes it from here */
                target_fault_pass(ch->target, ev.tid, NULL);
                continue;
            }
            /* (every other one, for the session: the operation's own
             * fault may come after any number of them) */
            kept = xreallocarray(kept, nkept + 1, sizeof *kept);
            kept[nkept++] = ev;
        }
        if (ch->target != NULL && !target_alive(ch->target)) {
            xcause(cause, "the program died during operation %s", name);
            break;
        }
        if (deadline != 0) {
            uint64_t now = clock_monotonic_ns();
            if (now >= deadline && !interrupted) {
                /* (what it says when it answers: DAPTO_OP_INTERRUPTED) */
                interrupted = 1;
                if (channel_interrupt(ch, mb, tid, &why) == 0) {
                    deadline = clock_monotonic_ns() +
                               (uint64_t)CHANNEL_INTERRUPT_MS * 1000000u;
                    continue;
                }
            }
            if (now >= deadline) {
                ch->busy[mb_index(ch, mb)] = 1;
                xcause(cause, "operation %s did not answer within %d ms and "
                       "could not be interrupted%s%s%s: thread %d is still "
                       "running it (\"kill\" ends the program)", name,
                       timeout_ms, why != NULL ? " (" : "",
                       why != NULL ? why : "", why != NULL ? ")" : "",
                       (int)tid);
                break;
            }
            if ((deadline - now) / 1000000u < (uint64_t)slice)
                slice = (int)((deadline - now) / 1000000u) + 1;
        }
        pfd[0].fd = ch->region.eventfd;
        pfd[0].events = POLLIN;
        pfd[1].fd = ch->target != NULL ? target_fd(ch->target) : -1;
        pfd[1].events = POLLIN;
        if (poll(pfd, 2, slice) > 0 && (pfd[0].revents & POLLIN)) {
            uint64_t v;
            if (read(ch->region.eventfd, &v, sizeof v) < 0) {
                /* nothing to drain */
            }
        }
    }
    free(why);
    while (nkept > 0)
        target_unread(ch->target, &kept[--nkept]);
    free(kept);
    return rc;
}

int channel_send(struct channel *ch, int stop, const char *opname, int argc,
                 const char *const *argv, struct channel_result *res,
                 int timeout_ms, char **cause)
{
    struct registry_op *op = registry_op_by_name(ch->reg, opname);
    struct dapto_mailbox *mb;
    struct dapto_out out;
    unsigned char *buf;
    char sig[32];
    pid_t tid;

    memset(res, 0, sizeof *res);
    res->message = "";
    if (op == NULL) {
        xcause(cause, "unknown operation %s", opname);
        return -1;
    }
    if (argc < 0 || (unsigned int)argc != op->nparams) {
        xcause(cause, "operation %s takes %u argument%s, %d given", op->name,
               op->nparams, op->nparams == 1 ? "" : "s", argc);
        return -1;
    }
    mb = channel_stop_mailbox(ch, &stop, cause);
    if (mb == NULL)
        return -1;
    buf = xmalloc(DAPTO_MBOX_DATA);
    memset(&out, 0, sizeof out);
    out.base = out.p = buf;
    out.end = buf + DAPTO_MBOX_DATA;
    for (int i = 0; i < argc; i++) {
        if (channel_convert(&out, op, (unsigned int)i, argv[i], cause) != 0) {
            free(buf);
            return -1;
        }
    }
    tid = (pid_t)__atomic_load_n(&mb->tid, __ATOMIC_RELAXED);
    if (mailbox_request(mb, op->code, buf, (size_t)(out.p - buf)) != 0) {
        xcause(cause, "cannot run %s: the stopped thread's mailbox is %s",
               op->name, channel_mailbox_says(mailbox_state(mb)));
        free(buf);
        return -1;
    }
    free(buf);
    if (channel_wait_done(ch, mb, tid, op->name, timeout_ms, cause) != 0)
        return -1;
    if (channel_results(ch, mb, op, res, cause) != 0)
        return -1;
    switch (res->status) {
    case DAPTO_OP_OK:
        return 0;
    case DAPTO_OP_CRASHED:
        xcause(cause, "operation %s crashed: %s at 0x%llx", op->name,
               target_signal_name(res->signo, sig, sizeof sig),
               (unsigned long long)res->fault_addr);
        return -1;
    case DAPTO_OP_UNKNOWN:
        xcause(cause, "the program does not know operation %s", op->name);
        return -1;
    case DAPTO_OP_ARGS:
        xcause(cause, "operation %s: %s", op->name,
               res->message[0] != '\0' ? res->message : "bad arguments");
        return -1;
    case DAPTO_OP_OVERFLOW:
        xcause(cause, "operation %s: the results did not fit", op->name);
        return -1;
    case DAPTO_OP_INTERRUPTED:
        xcause(cause, "operation %s did not answer within %d ms: noosa "
               "interrupted it, and its thread is back at the event",
               op->name, timeout_ms);
        return -1;
    }
    xcause(cause, "protocol error: operation %s ended with status %d",
           op->name, res->status);
    return -1;
}
