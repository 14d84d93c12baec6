/* SPDX-License-Identifier: MIT */
/*
 * transcript.h - the transcript model: lines of text plus the browsable
 * value regions in them.  Front ends (batch, the screen) only read it and
 * are told when lines change; the Tcl layer appends to it.  No drawing here.
 */
#ifndef NOOSA_TRANSCRIPT_H
#define NOOSA_TRANSCRIPT_H

#include <stddef.h>
#include <stdint.h>

struct transcript;

/* A browsable value: TYPE:VALUE text for which a browser exists. */
struct tr_value {
    uint64_t id;     /* 1, 2, ... in order of appearance; never reused */
    uint64_t line;   /* absolute line number (first line ever is 0) */
    unsigned int col; /* byte offset of the text in the line */
    unsigned int len; /* bytes of text */
    char *type;
    char *value;     /* as written: "0x1f", "42", "12,3-12,9" */
};

/* Whether TYPE has a browser; set by the Tcl layer. */
typedef int (*tr_browsable_fn)(const char *type, void *arg);

/* Told after text was appended: lines FIRST..LAST (absolute) changed;
 * LAST may be the unfinished line. */
typedef void (*tr_changed_fn)(uint64_t first, uint64_t last, void *arg);

struct transcript *transcript_create(size_t max_lines);
void transcript_free(struct transcript *t);

void transcript_set_browsable(struct transcript *t, tr_browsable_fn fn,
                              void *arg);
void transcript_set_changed(struct transcript *t, tr_changed_fn fn,
                            void *arg);
void transcript_set_max_lines(struct transcript *t, size_t max_lines);

/* Append LEN bytes of TEXT; newlines end lines.  Values written in the
 * text as TYPE:0xHEX, TYPE:DECIMAL (a browser for TYPE must exist) and
 * coordinates LINE,COL or LINE,COL-LINE,COL (a browser for "coord" must
 * exist) become value regions. */
void transcript_append(struct transcript *t, const char *text, size_t len);

/* Append LEN bytes of TEXT without looking for values in it. */
void transcript_append_plain(struct transcript *t, const char *text,
                             size_t len);

/* Append TEXT as one value region of TYPE and VALUE, whatever it says. */
void transcript_append_value(struct transcript *t, const char *type,
                             const char *value, const char *text);

/* Lines: absolute numbers from transcript_first() to transcript_end() - 1;
 * the last may be unfinished (transcript_partial()). */
uint64_t transcript_first(const struct transcript *t);
uint64_t transcript_end(const struct transcript *t);
int transcript_partial(const struct transcript *t);
/* The text of line N (not NUL-terminated) and its length; NULL when N is
 * out of range.  Valid until the next append. */
const char *transcript_line(const struct transcript *t, uint64_t n,
                            size_t *len);

/* Values.  By id (NULL when unknown or scrolled away); the first value at
 * or after (LINE, COL) or before it; those overlapping lines FIRST..LAST. */
const struct tr_value *transcript_value(const struct transcript *t,
                                        uint64_t id);
const struct tr_value *transcript_value_after(const struct transcript *t,
                                              uint64_t line,
                                              unsigned int col);
const struct tr_value *transcript_value_before(const struct transcript *t,
                                               uint64_t line,
                                               unsigned int col);
size_t transcript_values_in(const struct transcript *t, uint64_t first,
                            uint64_t last, const struct tr_value **out,
                            size_t max);
uint64_t transcript_value_count(const struct transcript *t);

/* Search for PATTERN from (LINE, COL) exclusive of that position when
 * moving, forward or backward, wrapping around at the ends.  Flags:
 * TR_REGEX (POSIX extended), TR_NOCASE, TR_BACKWARD.  Returns 1 and the
 * match's position, 0 when none, -1 with *cause for a bad regex. */
#define TR_REGEX 0x1
#define TR_NOCASE 0x2
#define TR_BACKWARD 0x4
int transcript_search(const struct transcript *t, const char *pattern,
                      int flags, uint64_t line, unsigned int col,
                      uint64_t *mline, unsigned int *mcol,
                      unsigned int *mlen, char **cause);

/* Bytes held, for the benchmarks. */
size_t transcript_memory(const struct transcript *t);

#endif /* NOOSA_TRANSCRIPT_H */
