/* SPDX-License-Identifier: MIT */
/*
 * batch.h - the batch front end (`noosa --batch`): no screen; the
 * transcript goes to standard output as it grows; commands come from -x
 * files and -e strings in order, else from standard input.
 */
#ifndef NOOSA_BATCH_H
#define NOOSA_BATCH_H

#include "noosa.h"

/* Run; returns noosa's exit status: 1 when a command failed, else the
 * status of the program's last run when it ended by itself (128 + N when
 * killed by signal N), else 0; quit STATUS gives STATUS. */
int batch_main(const struct noosa_opts *o);

#endif /* NOOSA_BATCH_H */
