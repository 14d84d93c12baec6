/* SPDX-License-Identifier: MIT */
/*
 * sink.c - lines and errors said by noosa's parts, into the transcript.
 */
#include "config.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "sink.h"
#include "transcript.h"
#include "xmalloc.h"

void sink_say(struct sink *s, const char *text)
{
    if (s->muted)
        return;
    transcript_append(s->transcript, text, strlen(text));
}

void sink_vsayf(struct sink *s, const char *fmt, va_list ap)
{
    char *text;

    if (s->muted)
        return;
    text = xvasprintf(fmt, ap);

    sink_say(s, text);
    free(text);
}

void sink_sayf(struct sink *s, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    sink_vsayf(s, fmt, ap);
    va_end(ap);
}

void sink_fresh_line(struct sink *s)
{
    if (transcript_partial(s->transcript))
        sink_say(s, "\n");
}

void sink_verror(struct sink *s, const char *fmt, va_list ap)
{
    char *text = xvasprintf(fmt, ap);

    if (s->muted) {
        if (s->muted_errors++ == 0)
            s->muted_first = text;
        else
            free(text);
        return;
    }
    sink_fresh_line(s);
    sink_sayf(s, "error: %s\n", text);
    free(text);
}

void sink_error(struct sink *s, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    sink_verror(s, fmt, ap);
    va_end(ap);
}
