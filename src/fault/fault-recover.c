/* SPDX-License-Identifier: MIT */
/*
 * fault-recover.c - the program's recovery table, read and acted on by
 * the monitor <protocol#recover>.  The table is the program's memory:
 * every field is checked before it is used (slot count, the thread's own
 * slot, string ends), and a table that does not hold together is
 * reported, never followed.  Making a thread call the resume function
 * needs its registers: this is the one place in the front end that sets
 * them (x86-64 only for now; elsewhere conversion of signals is refused
 * with a message).
 */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "dapto.h"
#include "fault-recover.h"
#include "protocol.h"
#include "target.h"
#include "xmalloc.h"

/* Longest file or function name read from the program. */
#define RECOVER_NAME_MAX 1024

/* Read a NUL-terminated string of at most MAX bytes at ADDR; NULL when it
 * cannot be read or has no end. */
static char *read_string(struct target *t, uint64_t addr, size_t max)
{
    char *buf, *nul;
    size_t have = 0;

    if (addr == 0)
        return NULL;
    buf = xmalloc(max);
    while (have < max) {
        /* within one page at a time: the next may not be mapped */
        size_t n = 4096 - (size_t)((addr + have) % 4096);

        if (n > max - have)
            n = max - have;
        if (target_read(t, addr + have, buf + have, n, NULL) != 0)
            break;
        nul = memchr(buf + have, '\0', n);
        if (nul != NULL)
            return buf;
        have += n;
    }
    free(buf);
    return NULL;
}

void fault_recover_clear(struct fault_recover *r)
{
    free(r->file);
    free(r->func);
    free(r->message);
    free(r->problem);
    memset(r, 0, sizeof *r);
}

int fault_recover_read(struct target *t, uint64_t table_addr, pid_t tid,
                       struct fault_recover *r, char **cause)
{
    struct dapto_recover_table *tab;
    struct dapto_recover_slot *s = NULL;
    unsigned int i;
    int rc = -1;

    memset(r, 0, sizeof *r);
    if (table_addr == 0)
        return 0;
    tab = xmalloc(sizeof *tab);
    if (target_read(t, table_addr, tab, sizeof *tab, NULL) != 0) {
        xcause(cause, "the program's recovery table at 0x%llx cannot be "
               "read", (unsigned long long)table_addr);
        goto out;
    }
    if (tab->magic != DAPTO_RECOVER_MAGIC ||
        tab->nslots != DAPTO_RECOVER_SLOTS) {
        xcause(cause, "the program's recovery table at 0x%llx is not sound "
               "(magic 0x%x, %u slots)", (unsigned long long)table_addr,
               tab->magic, tab->nslots);
        goto out;
    }
    r->table = 1;
    r->table_addr = table_addr;
    r->resume = tab->resume;
    r->stack = tab->stack;
    r->stack_size = tab->stack_size;
    for (i = 0; i < DAPTO_RECOVER_SLOTS; i++) {
        if (tab->slots[i].tid == (uint32_t)tid) {
            s = &tab->slots[i];
            break;
        }
    }
    rc = 0;
    if (s == NULL)
        goto out;
    r->held = 1;
    r->slot = i;
    r->depth = s->depth;
    r->point = s->depth != 0 ? s->point : 0;
    if (r->point != 0) {
        struct dapto_recovery rp;

        if (target_read(t, r->point, &rp, offsetof(struct dapto_recovery,
                                                   signo), NULL) == 0) {
            r->file = read_string(t, (uint64_t)(uintptr_t)rp.file,
                                  RECOVER_NAME_MAX);
            r->func = read_string(t, (uint64_t)(uintptr_t)rp.func,
                                  RECOVER_NAME_MAX);
            r->line = rp.line;
        }
    }
    if (s->error == DAPTO_RE_REPORTED) {
        r->reported = 1;
        r->message = read_string(t, s->message, DAPTO_ERROR_MESSAGE);
        if (r->message == NULL)
            r->message = xstrdup("(the message cannot be read)");
    }
out:
    free(tab);
    r->unsound = rc != 0;
    return rc;
}

int fault_recover_verdict(struct target *t, const struct fault_recover *r,
                          char **cause)
{
    uint32_t v = DAPTO_VERDICT_CONVERT;
    uint64_t at = r->table_addr + offsetof(struct dapto_recover_table, slots) +
                  (uint64_t)r->slot * sizeof(struct dapto_recover_slot) +
                  offsetof(struct dapto_recover_slot, verdict);

    if (!r->reported) {
        xcause(cause, "the thread reports no error");
        return -1;
    }
    return target_write(t, at, &v, sizeof v, cause);
}

int fault_recover_jump(struct target *t, const struct fault_recover *r,
                       pid_t tid, int signo, uint64_t addr, char **cause)
{
    uint64_t busy_at;
    uint32_t busy = 1;
    int rc;

    if (r->point == 0 || r->resume == 0) {
        xcause(cause, "thread %d is in no recovery point", (int)tid);
        return -1;
    }
    rc = target_call(t, tid, r->resume, (uint64_t)(unsigned int)signo, addr,
                     0, cause);
    if (rc != -2)
        return rc;
    /* The stack is full (an overflow): use the runtime's, once. */
    if (cause != NULL) {
        free(*cause);
        *cause = NULL;
    }
    busy_at = r->table_addr + offsetof(struct dapto_recover_table, stack_busy);
    if (r->stack == 0 || r->stack_size < 4096 ||
        target_read(t, busy_at, &busy, sizeof busy, NULL) != 0 || busy != 0) {
        xcause(cause, "the stack of thread %d is full and the runtime's own "
               "is in use", (int)tid);
        return -1;
    }
    busy = 1;
    if (target_write(t, busy_at, &busy, sizeof busy, cause) != 0)
        return -1;
    return target_call(t, tid, r->resume, (uint64_t)(unsigned int)signo, addr,
                       r->stack + r->stack_size, cause) == 0
               ? 0
               : -1;
}
