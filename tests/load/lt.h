/* SPDX-License-Identifier: MIT */
/*
 * lt.h - what the operations of lt.dapto see of the test program lt.
 */
#ifndef NOOSA_TESTS_LT_H
#define NOOSA_TESTS_LT_H

extern volatile int lt_ticks; /* turns of the loop so far */

/* Never return (the operation that does not answer). */
int lt_spin(void);
/* Sleep MS milliseconds in nanosleep; returns MS. */
int lt_nap(int ms);

#endif /* NOOSA_TESTS_LT_H */
