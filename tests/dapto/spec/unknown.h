/* SPDX-License-Identifier: MIT */
/*
 * unknown.h - a user type for unknown.dapto that has no DAPTO_RESULT or
 * DAPTO_ARG macro: a structure passed by value.
 */
#ifndef UNKNOWN_H
#define UNKNOWN_H

typedef struct {
    int id;
    const char *label;
} Opaque;

#endif /* UNKNOWN_H */
