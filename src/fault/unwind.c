/* SPDX-License-Identifier: MIT */
/*
 * unwind.c - backtraces of a stopped thread with libunwind-ptrace.  A
 * fresh address space per backtrace: the program's mappings may have
 * changed since the last one, and backtraces are rare (an error, a bt
 * command), so caching would buy nothing but stale answers.
 */
#include "config.h"

#include <libunwind-ptrace.h>
#include <stdlib.h>
#include <string.h>

#include "symbols.h"
#include "unwind.h"
#include "xmalloc.h"

int unwind_thread(pid_t tid, struct unwind_trace *tr, char **cause)
{
    unw_addr_space_t as;
    unw_cursor_t cur;
    void *upt;
    int rc;

    size_t cap = 0;

    memset(tr, 0, sizeof *tr);
    tr->tid = tid;
    as = unw_create_addr_space(&_UPT_accessors, 0);
    if (as == NULL) {
        xcause(cause, "libunwind: cannot create an address space");
        return -1;
    }
    upt = _UPT_create(tid);
    if (upt == NULL) {
        xcause(cause, "libunwind: cannot access thread %d", (int)tid);
        goto fail_upt;
    }
    rc = unw_init_remote(&cur, as, upt);
    if (rc < 0) {
        xcause(cause, "cannot unwind thread %d: %s", (int)tid,
               unw_strerror(rc));
        goto fail_init;
    }
    do {
        unw_word_t ip = 0;
        struct unwind_frame *f;

        if (tr->n == UNWIND_MAX) {
            tr->truncated = 1;
            break;
        }
        if (unw_get_reg(&cur, UNW_REG_IP, &ip) < 0 ||
            (ip == 0 && tr->n > 0))
            break;
        tr->frames = xgrow(tr->frames, tr->n, &cap, sizeof *tr->frames);
        f = &tr->frames[tr->n++];
        memset(f, 0, sizeof *f);
        f->pc = ip;
        f->signal_frame = unw_is_signal_frame(&cur) > 0;
    } while (unw_step(&cur) > 0);
    _UPT_destroy(upt);
    unw_destroy_addr_space(as);
    if (tr->n == 0) {
        xcause(cause, "cannot unwind thread %d: no frame", (int)tid);
        return -1;
    }
    return 0;

fail_init:
    _UPT_destroy(upt);
fail_upt:
    unw_destroy_addr_space(as);
    return -1;
}

void unwind_free(struct unwind_trace *tr)
{
    free(tr->frames);
    tr->frames = NULL;
    tr->n = 0;
}

void unwind_name(struct unwind_trace *tr, struct symbols *sym)
{
    struct symbols_info info;
    unsigned int i;

    for (i = 0; i < tr->n; i++) {
        struct unwind_frame *f = &tr->frames[i];
        /* A return address is after the call: look up the call itself,
         * unless the frame below was interrupted by a signal (its pc is
         * the instruction that was about to run). */
        int call = i > 0 && !tr->frames[i - 1].signal_frame &&
                   !f->signal_frame;
        uint64_t at = call && f->pc > 0 ? f->pc - 1 : f->pc;

        f->function = NULL;
        f->file = NULL;
        f->module = NULL;
        f->line = 0;
        f->offset = 0;
        if (sym == NULL || symbols_lookup(sym, at, &info) != 0)
            continue;
        f->function = info.function;
        f->offset = info.function != NULL ? f->pc - (at - info.offset) : 0;
        f->file = info.file;
        f->line = info.line;
        f->module = info.module;
    }
}

char *unwind_frame_text(const struct unwind_frame *f, unsigned int index)
{
    const char *fn = f->function != NULL ? f->function : "??";
    /* "f@@VERSION": the version of a symbol says nothing here */
    int fnlen = (int)strcspn(fn, "@");

    if (f->signal_frame)
        return xasprintf("#%-2u 0x%016llx <signal handler called>", index,
                         (unsigned long long)f->pc);
    if (f->file != NULL)
        return xasprintf("#%-2u 0x%016llx in %.*s () at %s:%d", index,
                         (unsigned long long)f->pc, fnlen, fn, f->file,
                         f->line);
    if (f->module != NULL)
        return xasprintf("#%-2u 0x%016llx in %.*s () from %s", index,
                         (unsigned long long)f->pc, fnlen, fn, f->module);
    return xasprintf("#%-2u 0x%016llx in %.*s ()", index,
                     (unsigned long long)f->pc, fnlen, fn);
}

int unwind_same(const struct unwind_frame *a, const struct unwind_frame *b)
{
    if (a->signal_frame || b->signal_frame || a->function == NULL ||
        b->function == NULL || strcmp(a->function, b->function) != 0)
        return 0;
    if (a->file == NULL || b->file == NULL)
        return a->file == b->file && a->pc == b->pc;
    return a->line == b->line && strcmp(a->file, b->file) == 0;
}
