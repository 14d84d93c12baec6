/* SPDX-License-Identifier: MIT */
/*
 * types.h - a user type for types.dapto, Point, sent and received as a
 * pointer, and the program state its operations use.
 */
#ifndef TYPES_H
#define TYPES_H

struct point {
    int x;
    int y;
};

typedef struct point *Point;

#define DAPTO_RESULTPoint(p) DAPTO_RESULT_PTR(p)
#define DAPTO_ARGPoint(p) DAPTO_ARG_PTR(p, Point)

extern struct point types_origin;
extern int types_counter;

#endif /* TYPES_H */
