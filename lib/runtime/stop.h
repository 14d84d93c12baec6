/* SPDX-License-Identifier: MIT */
/*
 * stop.h - synchronous stops and the operation server <protocol#stop>.
 */
#ifndef NOOSA_STOP_H
#define NOOSA_STOP_H

#include <stddef.h>

#include "dapto.h"
#include "protocol.h"

/* Deliver REC synchronously: take a mailbox, commit REC with
 * DAPTO_RECF_STOP and aux = the mailbox, wake the monitor, and serve its
 * requests until it resumes this thread.  Preserves errno. */
void stop_event(struct dapto_record *rec);

/* Check the argument values P (LEN bytes) against the parameters of OP:
 * count, tags, lengths, string ends.  Returns 0 when they fit, else the
 * length of the message written into MSG. */
size_t stop_check_args(const struct dapto_operation *op,
                       const unsigned char *p, size_t len, char *msg,
                       size_t msgsize);

/* Called by the monitor's doing, in a thread that runs an operation
 * (op_active is 1 in its mailbox): end the operation as interrupted; the
 * thread answers DAPTO_OP_INTERRUPTED and waits at its stop again
 * <protocol#stop>.  Never returns. */
void stop_interrupt(void) __attribute__((noreturn));

#endif /* NOOSA_STOP_H */
