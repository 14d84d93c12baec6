/* SPDX-License-Identifier: MIT */
/*
 * mailbox.c - the monitor's side of the stop mailboxes <protocol#stop>.
 * The monitor writes only `op`, `req_len`, `data` and `state`, and only
 * while the thread waits (STOPPED or DONE); the thread writes the rest.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "futex.h"
#include "mailbox.h"

uint32_t mailbox_state(const struct dapto_mailbox *mb)
{
    return __atomic_load_n(&mb->state, __ATOMIC_ACQUIRE);
}

static int waiting(const struct dapto_mailbox *mb)
{
    uint32_t s = mailbox_state(mb);

    return s == DAPTO_MB_STOPPED || s == DAPTO_MB_DONE;
}

int mailbox_request(struct dapto_mailbox *mb, uint32_t op, const void *args,
                    size_t len)
{
    if (len > DAPTO_MBOX_DATA) {
        errno = E2BIG;
        return -1;
    }
    if (!waiting(mb)) {
        errno = EBUSY;
        return -1;
    }
    mb->op = op;
    mb->req_len = (uint32_t)len;
    if (len != 0)
        memcpy(mb->data, args, len);
    __atomic_store_n(&mb->state, DAPTO_MB_REQUEST, __ATOMIC_RELEASE);
    futex_wake(&mb->state, 1);
    return 0;
}

int mailbox_resume(struct dapto_mailbox *mb)
{
    if (!waiting(mb)) {
        errno = EBUSY;
        return -1;
    }
    __atomic_store_n(&mb->state, DAPTO_MB_RESUME, __ATOMIC_RELEASE);
    futex_wake(&mb->state, 1);
    return 0;
}
