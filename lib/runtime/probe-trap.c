/* SPDX-License-Identifier: MIT */
/*
 * probe-trap.c - the monitor's breakpoints outliving it <protocol#probes>:
 * a monitor attached to a running program (noosa -p) that is killed with
 * SIGKILL cannot take back the breakpoint instructions it wrote at the
 * program's probes, and the kernel lets the program go with them.  The
 * monitor lists each one in dapto_probe_traps before it writes it; the
 * SIGTRAP handler the runtime installs when a monitor attaches carries
 * out, at one of them, the instruction it replaced (a nop: nothing; a
 * ret), as the monitor would have, so that the program goes on.  Any
 * other SIGTRAP goes to the handler the program had, or ends it as it
 * would have.  While a monitor or a debugger traces the program, it sees
 * the SIGTRAP first and the handler never runs.  Async-signal-safe.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <ucontext.h>

#include "dapto.h"
#include "protocol.h"
#include "runtime.h"

DAPTO_API volatile uint64_t dapto_probe_traps[DAPTO_PROBE_TRAPS];

/* The handler the program had; set once, by the first attach. */
static struct sigaction trap_prev;
static int trap_installed;

#if defined(__x86_64__)
/* Whether the SIGTRAP of UC was at one of the monitor's breakpoints: then
 * the thread goes on as if the instruction it replaced were there (at the
 * address itself when the breakpoint is gone meanwhile). */
static int trap_ours(ucontext_t *uc)
{
    greg_t *g = uc->uc_mcontext.gregs;
    uint64_t at = (uint64_t)g[REG_RIP] - 1;
    const uint64_t mask = ((uint64_t)1 << DAPTO_PROBE_TRAP_SHIFT) - 1;

    for (unsigned int i = 0; i < DAPTO_PROBE_TRAPS; i++) {
        uint64_t e = dapto_probe_traps[i];
        unsigned int emul;

        if (e == 0)
            break;
        if ((e & mask) != at)
            continue;
        emul = (unsigned int)(e >> DAPTO_PROBE_TRAP_SHIFT);
        if (*(const volatile unsigned char *)(uintptr_t)at != 0xcc) {
            g[REG_RIP] = (greg_t)at; /* taken back: what is there now */
        } else if (emul == DAPTO_PROBE_TRAP_RET) {
            g[REG_RIP] = (greg_t) * (const uint64_t *)(uintptr_t)g[REG_RSP];
            g[REG_RSP] += 8;
        } else {
            g[REG_RIP] = (greg_t)(at + emul);
        }
        return 1;
    }
    return 0;
}
#else
static int trap_ours(ucontext_t *uc)
{
    (void)uc;
    return 0;
}
#endif

static void trap_handler(int sig, siginfo_t *si, void *ctx)
{
    int saved = errno;

    if (si->si_code == SI_KERNEL && trap_ours((ucontext_t *)ctx)) {
        errno = saved;
        return;
    }
    if ((trap_prev.sa_flags & SA_SIGINFO) && trap_prev.sa_sigaction != NULL) {
        trap_prev.sa_sigaction(sig, si, ctx);
    } else if (trap_prev.sa_handler != SIG_DFL &&
               trap_prev.sa_handler != SIG_IGN) {
        trap_prev.sa_handler(sig);
    } else {
        /* as without the runtime: the program ends of it (a breakpoint
         * instruction's SIGTRAP is not ignored) when the handler returns
         * and unblocks it */
        struct sigaction dfl;

        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        sigaction(SIGTRAP, &dfl, NULL);
        raise(SIGTRAP);
    }
    errno = saved;
}

void rt_trap_install(void)
{
    struct sigaction sa;

    if (trap_installed)
        return;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = trap_handler;
    sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGTRAP, &sa, &trap_prev) == 0)
        trap_installed = 1;
}
