/* SPDX-License-Identifier: MIT */
/*
 * rtlog.c - messages of the runtime, safe in signal handlers and on the
 * event path: formatting into a caller's buffer, and printing through a
 * stack buffer and one write(2).
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "rtlog.h"

struct sink {
    char *p;
    char *end; /* last byte, kept for the NUL */
};

static void put_c(struct sink *s, char c)
{
    if (s->p < s->end)
        *s->p++ = c;
}

static void put_s(struct sink *s, const char *str)
{
    if (str == NULL)
        str = "(null)";
    while (*str != '\0')
        put_c(s, *str++);
}

static void put_u(struct sink *s, unsigned long long v, unsigned int base)
{
    char tmp[24];
    int n = 0;

    do {
        tmp[n++] = "0123456789abcdef"[v % base];
        v /= base;
    } while (v != 0);
    while (n > 0)
        put_c(s, tmp[--n]);
}

static void put_d(struct sink *s, long long v)
{
    if (v < 0) {
        put_c(s, '-');
        put_u(s, 0ull - (unsigned long long)v, 10);
    } else {
        put_u(s, (unsigned long long)v, 10);
    }
}

size_t rtlog_vformat(char *buf, size_t size, const char *fmt, va_list ap)
{
    struct sink s;
    int lng;

    if (size == 0)
        return 0;
    s.p = buf;
    s.end = buf + size - 1;
    for (; *fmt != '\0'; fmt++) {
        if (*fmt != '%') {
            put_c(&s, *fmt);
            continue;
        }
        fmt++;
        lng = 0;
        if (*fmt == 'l') {
            lng = 1;
            fmt++;
        }
        switch (*fmt) {
        case 's':
            put_s(&s, va_arg(ap, const char *));
            break;
        case 'd':
            put_d(&s, lng ? va_arg(ap, long) : va_arg(ap, int));
            break;
        case 'u':
            put_u(&s, lng ? va_arg(ap, unsigned long) : va_arg(ap, unsigned int),
                  10);
            break;
        case 'x':
            put_u(&s, lng ? va_arg(ap, unsigned long) : va_arg(ap, unsigned int),
                  16);
            break;
        case 'p':
            put_s(&s, "0x");
            put_u(&s, (uintptr_t)va_arg(ap, void *), 16);
            break;
        case 'c':
            put_c(&s, (char)va_arg(ap, int));
            break;
        case '%':
            put_c(&s, '%');
            break;
        case '\0':
            fmt--;
            break;
        default:
            put_c(&s, '%');
            put_c(&s, *fmt);
            break;
        }
    }
    *s.p = '\0';
    return (size_t)(s.p - buf);
}

size_t rtlog_format(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    size_t n;

    va_start(ap, fmt);
    n = rtlog_vformat(buf, size, fmt, ap);
    va_end(ap);
    return n;
}

void rtlog_error(const char *fmt, ...)
{
    static const char prefix[] = "libdapto: ";
    char buf[sizeof prefix + 400 + 1];
    int saved = errno;
    size_t n = sizeof prefix - 1;
    ssize_t w;
    va_list ap;

    memcpy(buf, prefix, n);
    va_start(ap, fmt);
    n += rtlog_vformat(buf + n, 401, fmt, ap);
    va_end(ap);
    buf[n++] = '\n';
    w = write(STDERR_FILENO, buf, n);
    (void)w;
    errno = saved;
}
