/* SPDX-License-Identifier: MIT */
/* saint-lib.h - the shared library of saint.sh. */
#ifndef SAINT_LIB_H
#define SAINT_LIB_H
int sl_work(int n);
#endif
