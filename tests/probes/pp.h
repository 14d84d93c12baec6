/* SPDX-License-Identifier: MIT */
/* pp.h - what the probe test program's parts share (tests/probes). */
#ifndef PP_H
#define PP_H
int pp_lib_work(int x);
int pp_dl_run(int n);
#endif
