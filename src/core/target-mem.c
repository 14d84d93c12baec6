/* SPDX-License-Identifier: MIT */
#include "config.h"

/*
 * target-mem.c - the program's memory read and written <design#target>:
 * process_vm first, word by word through ptrace in a stopped thread when
 * that fails.
 */
#include <errno.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/uio.h>

#include "target-int.h"
#include "xmalloc.h"

/* Word-by-word access through ptrace, for when process_vm fails; *DONE
 * (when not NULL) says how many bytes were, up to a failure. */
static int target_ptrace_rw(struct target *t, uint64_t addr, void *rbuf,
                            const void *wbuf, size_t len, size_t *donep,
                            char **cause)
{
    pid_t tid = target_stopped_tid(t);
    size_t done = 0;

    if (donep != NULL)
        *donep = 0;

    if (tid == 0) {
        xcause(cause, "cannot access 0x%llx: the program is running and "
               "process_vm access failed", (unsigned long long)addr);
        return -1;
    }
    while (done < len) {
        uint64_t a = (addr + done) & ~(uint64_t)7;
        size_t skip = (size_t)(addr + done - a);
        size_t n = sizeof(long) - skip;
        long word;

        if (n > len - done)
            n = len - done;
        errno = 0;
        word = ptrace(PTRACE_PEEKDATA, tid, (void *)(uintptr_t)a, 0);
        if (errno != 0) {
            xcause(cause, "cannot read 0x%llx: %s",
                   (unsigned long long)(addr + done), strerror(errno));
            return -1;
        }
        if (rbuf != NULL) {
            memcpy((char *)rbuf + done, (char *)&word + skip, n);
        } else {
            memcpy((char *)&word + skip, (const char *)wbuf + done, n);
            if (ptrace(PTRACE_POKEDATA, tid, (void *)(uintptr_t)a,
                       (void *)word) != 0) {
                xcause(cause, "cannot write 0x%llx: %s",
                       (unsigned long long)(addr + done), strerror(errno));
                return -1;
            }
        }
        done += n;
        if (donep != NULL)
            *donep = done;
    }
    return 0;
}

int target_read(struct target *t, uint64_t addr, void *buf, size_t len,
                char **cause)
{
    struct iovec local = {.iov_base = buf, .iov_len = len};
    struct iovec remote = {.iov_base = (void *)(uintptr_t)addr,
                           .iov_len = len};

    if (!t->alive) {
        xcause(cause, "the program is not running");
        return -1;
    }
    if (process_vm_readv(t->pid, &local, 1, &remote, 1, 0) == (ssize_t)len)
        return 0;
    return target_ptrace_rw(t, addr, buf, NULL, len, NULL, cause);
}

size_t target_read_some(struct target *t, uint64_t addr, void *buf,
                        size_t len)
{
    struct iovec local = {.iov_base = buf, .iov_len = len};
    struct iovec remote = {.iov_base = (void *)(uintptr_t)addr,
                           .iov_len = len};
    ssize_t n;
    size_t done = 0;

    if (!t->alive || len == 0)
        return 0;
    n = process_vm_readv(t->pid, &local, 1, &remote, 1, 0);
    if (n >= 0)
        return (size_t)n;
    /* no process_vm_readv here: word by word while a thread is stopped */
    target_ptrace_rw(t, addr, buf, NULL, len, &done, NULL);
    return done;
}

int target_write(struct target *t, uint64_t addr, const void *buf,
                 size_t len, char **cause)
{
    struct iovec local = {.iov_base = (void *)(uintptr_t)buf,
                          .iov_len = len};
    struct iovec remote = {.iov_base = (void *)(uintptr_t)addr,
                           .iov_len = len};

    if (!t->alive) {
        xcause(cause, "the program is not running");
        return -1;
    }
    if (process_vm_writev(t->pid, &local, 1, &remote, 1, 0) == (ssize_t)len)
        return 0;
    return target_ptrace_rw(t, addr, NULL, buf, len, NULL, cause);
}
