/* SPDX-License-Identifier: MIT */
/*
 * iface.h - describing aspects to the monitor <protocol#iface>: the
 * description goes into the region's interface area, a DAPTO_REC_ASPECT
 * record names it, and registration waits for the monitor's
 * acknowledgement <protocol#ack>.
 */
#ifndef NOOSA_IFACE_H
#define NOOSA_IFACE_H

#include "dapto.h"

/* How long registration waits for the monitor to acknowledge, at most. */
#define IFACE_ACK_MS 10000

/* Describe aspect A (registered: event_base and op_base set) to the
 * monitor and wait until it has written the states of A's events.
 * Returns 0, or -1 when A could not be described (interface area full;
 * reported on stderr) or the monitor did not answer in time. */
int iface_post(const struct dapto_aspect *a);

/* Encode the description of A into O (used by iface_post; exposed for
 * tests).  O->truncated is set when it did not fit. */
void iface_describe(struct dapto_out *o, const struct dapto_aspect *a);

#endif /* NOOSA_IFACE_H */
