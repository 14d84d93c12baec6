/* SPDX-License-Identifier: MIT */
/* et-errors.h - what the operations of et.dapto and et-meanwhile.c see of
 * et-errors.c, and what they give it. */
#ifndef ET_ERRORS_H
#define ET_ERRORS_H

#include <sys/types.h>

extern int *volatile et_null;
extern volatile int et_steps;

/* et-errors.c: numbered steps, a read through P, what thread TID does
 * (its state in /proc). */
void steps(int from, int to);
int deref(int *p);
char thread_state(pid_t tid);
/* et-meanwhile.c: N threads that fault while the main thread waits at
 * step 1 (MODE 'm'), once the operation release lets them ('s'), or in
 * a child process ('f'); in recovery points when TRY. */
void et_meanwhile(int n, int mode, int try);
/* Let the faulters of mode send fault; how many then wait at their
 * fault. */
int et_release(void);

#endif
