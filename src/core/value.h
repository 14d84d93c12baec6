/* SPDX-License-Identifier: MIT */
/*
 * value.h - decoded values as text, one way for every front end: ints
 * and longs in decimal, doubles with full precision, pointers in hex,
 * strings in double quotes with C escapes (a truncated string is followed
 * by "..."), values of unknown user types as "?".
 */
#ifndef NOOSA_VALUE_H
#define NOOSA_VALUE_H

#include "decode.h"

/* The text of V; the caller frees it. */
char *value_text(const struct decode_value *v);

/* The string S (LEN bytes) quoted and escaped; the caller frees it. */
char *value_quote(const char *s, size_t len);

#endif /* NOOSA_VALUE_H */
