/* SPDX-License-Identifier: MIT */
/*
 * rtlog.h - the runtime's messages: a small async-signal-safe formatter
 * and an error printer that writes one line to stderr with write(2),
 * prefixed "libdapto: ", preserving errno.  No stdio, no allocation.
 */
#ifndef NOOSA_RTLOG_H
#define NOOSA_RTLOG_H

#include <stdarg.h>
#include <stddef.h>

/* Format into BUF (SIZE bytes, always NUL-terminated when SIZE > 0).
 * Conversions: %s (NULL prints "(null)"), %d, %u, %ld, %lu, %x, %lx, %p,
 * %c and %%.  Returns the length written. */
size_t rtlog_format(char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
size_t rtlog_vformat(char *buf, size_t size, const char *fmt, va_list ap);

/* Print "libdapto: MESSAGE\n" on stderr; the message is cut at 400 bytes. */
void rtlog_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* NOOSA_RTLOG_H */
