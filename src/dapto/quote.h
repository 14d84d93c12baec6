/* SPDX-License-Identifier: MIT */
/*
 * quote.h - writing user text (names, documentation, file names) into the
 * generated files so that each reader gets back exactly the original bytes:
 * C string literals, Tcl words, Tcl list elements, C comments, and short
 * previews for messages.
 */
#ifndef NOOSA_DAPTO_QUOTE_H
#define NOOSA_DAPTO_QUOTE_H

#include <stddef.h>

#include "buf.h"

/* S as a C string literal, quotes included.  Non-ASCII and control bytes
 * become octal escapes; "??" is broken up so no trigraph can form. */
void quote_c(struct buf *b, const char *s);
/* S as a double-quoted Tcl word: no substitution happens when it is read. */
void quote_tcl_word(struct buf *b, const char *s);
/* S as a double-quoted element of a Tcl list written inside braces. */
void quote_tcl_elem(struct buf *b, const char *s);
/* S made safe to appear inside a C comment, on one line. */
void quote_comment(struct buf *b, const char *s);
/* At most MAX bytes of S, escaped for a message, into OUT of SIZE bytes;
 * "..." is added when S was cut. */
void quote_preview(char *out, size_t size, const char *s, size_t max);
/* Length of the well-formed UTF-8 sequence at S (N bytes available), or 0. */
size_t quote_utf8_len(const unsigned char *s, size_t n);

#endif /* NOOSA_DAPTO_QUOTE_H */
