/* SPDX-License-Identifier: MIT */
/*
 * csm.h - the string table that csm.dapto monitors, reduced to what its
 * operations use; csm-main.c defines it.
 */
#ifndef CSM_H
#define CSM_H

extern int numstr;
extern char *string[];

#endif /* CSM_H */
