/* SPDX-License-Identifier: MIT */
/*
 * mailbox.h - the monitor's side of the stop mailboxes <protocol#stop>:
 * post an operation request, resume a stopped thread, read a mailbox's
 * state.  The program's side (claim, wait, run operations) is in the
 * runtime.  Part of the channel library (see region.h).
 *
 * A thread stopped at an event waits in mailbox `aux` of its record, in
 * state DAPTO_MB_STOPPED.  The monitor may post requests one at a time;
 * each is answered with DAPTO_MB_DONE and an eventfd wake-up, with the
 * outcome in status/message/signo/fault_addr and result values in
 * data[0..res_len).  Finally the monitor resumes the thread.  Everything
 * the monitor reads back must be validated: res_len against
 * DAPTO_MBOX_DATA, values by tag, message up to its NUL.
 */
#ifndef NOOSA_MAILBOX_H
#define NOOSA_MAILBOX_H

#include <stddef.h>
#include <stdint.h>

#include "protocol.h"

/* The state of MB (enum dapto_mbox_state), read with acquire ordering:
 * after seeing DAPTO_MB_DONE the results are complete. */
uint32_t mailbox_state(const struct dapto_mailbox *mb);

/* Ask the thread stopped in MB to run operation OP with the argument
 * values ARGS (LEN bytes, encoded as record values).  Only when MB is
 * STOPPED or DONE.  Returns 0, or -1 with errno EBUSY (wrong state) or
 * E2BIG (LEN > DAPTO_MBOX_DATA). */
int mailbox_request(struct dapto_mailbox *mb, uint32_t op, const void *args,
                    size_t len);

/* Let the thread stopped in MB go on.  Only when MB is STOPPED or DONE.
 * Returns 0, or -1 with errno EBUSY. */
int mailbox_resume(struct dapto_mailbox *mb);

#endif /* NOOSA_MAILBOX_H */
