/* SPDX-License-Identifier: MIT */
/* et-errors.h - what the operations of et.dapto see of et-errors.c. */
#ifndef ET_ERRORS_H
#define ET_ERRORS_H

extern int *volatile et_null;
extern volatile int et_steps;

#endif
