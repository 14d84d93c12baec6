/* SPDX-License-Identifier: MIT */
/* cv.h - what cv.dapto's operations see of cv. */
#ifndef CV_H
#define CV_H

typedef struct thing *Thing;
extern int cv_total;

#endif
