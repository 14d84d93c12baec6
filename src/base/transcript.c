/* SPDX-License-Identifier: MIT */
/*
 * transcript.c - the transcript model: lines of text plus browsable value
 * regions, with a scrollback limit, search, and change notification.
 *
 * Text lives in large blocks; a line is a block number, an offset and a
 * length (16 bytes of bookkeeping a line), so a million lines cost little
 * more than their text.  Lines and values are appended at the end and
 * dropped from the front, so both are arrays with a moving start, and a
 * value's id is its position in its array plus a constant.
 *
 * It is not a view: it knows nothing of scrolling or selection.
 */
#include "config.h"

#include <ctype.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "transcript.h"
#include "xmalloc.h"

#define TR_BLOCK_SIZE (256 * 1024)

struct tr_block {
    char *data;
    size_t used;
    size_t size;
};

struct tr_line {
    uint64_t block; /* absolute block number */
    uint32_t off;
    uint32_t len;
};

struct transcript {
    size_t max_lines;

    /* Finished lines: lines[i] is absolute line line_base + i - line_skip. */
    struct tr_line *lines;
    size_t nlines; /* entries used in lines[], skipped ones included */
    size_t line_skip; /* dropped entries at the front of lines[] */
    size_t line_cap;
    uint64_t line_base; /* absolute number of lines[line_skip] */

    /* Blocks: blocks[i] is absolute block block_base + i - block_skip. */
    struct tr_block *blocks;
    size_t nblocks;
    size_t block_skip;
    size_t block_cap;
    uint64_t block_base;

    /* The unfinished last line. */
    char *cur;
    size_t cur_len;
    size_t cur_cap;

    /* Values, in id order. */
    struct tr_value *values;
    size_t nvalues;
    size_t value_skip;
    size_t value_cap;
    uint64_t next_id;

    tr_browsable_fn browsable;
    void *browsable_arg;
    tr_changed_fn changed;
    void *changed_arg;
};

struct transcript *transcript_create(size_t max_lines)
{
    struct transcript *t = xcalloc(1, sizeof *t);

    t->max_lines = max_lines == 0 ? 1 : max_lines;
    t->next_id = 1;
    return t;
}

void transcript_free(struct transcript *t)
{
    size_t i;

    if (t == NULL)
        return;
    for (i = t->block_skip; i < t->nblocks; i++)
        free(t->blocks[i].data);
    for (i = t->value_skip; i < t->nvalues; i++) {
        free(t->values[i].type);
        free(t->values[i].value);
    }
    free(t->blocks);
    free(t->lines);
    free(t->values);
    free(t->cur);
    free(t);
}

void transcript_set_browsable(struct transcript *t, tr_browsable_fn fn,
                              void *arg)
{
    t->browsable = fn;
    t->browsable_arg = arg;
}

void transcript_set_changed(struct transcript *t, tr_changed_fn fn, void *arg)
{
    t->changed = fn;
    t->changed_arg = arg;
}

uint64_t transcript_first(const struct transcript *t)
{
    return t->line_base;
}

/* Absolute number of the unfinished line (one past the finished ones). */
static uint64_t cur_line(const struct transcript *t)
{
    return t->line_base + (t->nlines - t->line_skip);
}

uint64_t transcript_end(const struct transcript *t)
{
    return cur_line(t) + (t->cur_len != 0 ? 1 : 0);
}

int transcript_partial(const struct transcript *t)
{
    return t->cur_len != 0;
}

const char *transcript_line(const struct transcript *t, uint64_t n,
                            size_t *len)
{
    const struct tr_line *l;
    const struct tr_block *b;

    if (n < t->line_base || n >= transcript_end(t))
        return NULL;
    if (n == cur_line(t)) {
        *len = t->cur_len;
        return t->cur;
    }
    l = &t->lines[t->line_skip + (n - t->line_base)];
    b = &t->blocks[t->block_skip + (l->block - t->block_base)];
    *len = l->len;
    return b->data + l->off;
}

/* Move live entries of an array with a dropped front back to its start
 * once the dropped part is at least half of it. */
#define COMPACT(arr, n, skip)                                               \
    do {                                                                    \
        if ((skip) != 0 && (skip) >= (n) / 2) {                             \
            memmove((arr), (arr) + (skip), ((n) - (skip)) * sizeof *(arr)); \
            (n) -= (skip);                                                  \
            (skip) = 0;                                                     \
        }                                                                   \
    } while (0)

#define GROW(arr, n, cap)                                                   \
    do {                                                                    \
        if ((n) == (cap)) {                                                 \
            (cap) = (cap) == 0 ? 64 : (cap) * 2;                            \
            (arr) = xreallocarray((arr), (cap), sizeof *(arr));             \
        }                                                                   \
    } while (0)

/* Store the unfinished line as a finished one. */
static void finish_line(struct transcript *t)
{
    struct tr_block *b = NULL;
    struct tr_line *l;

    if (t->nblocks > t->block_skip)
        b = &t->blocks[t->nblocks - 1];
    if (b == NULL || b->size - b->used < t->cur_len) {
        COMPACT(t->blocks, t->nblocks, t->block_skip);
        GROW(t->blocks, t->nblocks, t->block_cap);
        b = &t->blocks[t->nblocks++];
        b->size = t->cur_len > TR_BLOCK_SIZE ? t->cur_len : TR_BLOCK_SIZE;
        b->data = xmalloc(b->size);
        b->used = 0;
    }
    COMPACT(t->lines, t->nlines, t->line_skip);
    GROW(t->lines, t->nlines, t->line_cap);
    l = &t->lines[t->nlines++];
    l->block = t->block_base + (uint64_t)(t->nblocks - 1 - t->block_skip);
    l->off = (uint32_t)b->used;
    l->len = (uint32_t)t->cur_len;
    if (t->cur_len != 0)
        memcpy(b->data + b->used, t->cur, t->cur_len);
    b->used += t->cur_len;
    t->cur_len = 0;
}

/* Drop the oldest lines, their blocks and their values, down to the
 * limit. */
static void trim(struct transcript *t)
{
    uint64_t keep_block;

    while (t->nlines - t->line_skip > t->max_lines) {
        t->line_skip++;
        t->line_base++;
    }
    keep_block = t->nlines > t->line_skip ? t->lines[t->line_skip].block
                                          : t->block_base +
                                                (t->nblocks - t->block_skip);
    while (t->block_skip < t->nblocks && t->block_base < keep_block &&
           t->block_skip + 1 < t->nblocks) {
        free(t->blocks[t->block_skip].data);
        t->blocks[t->block_skip].data = NULL;
        t->block_skip++;
        t->block_base++;
    }
    while (t->value_skip < t->nvalues &&
           t->values[t->value_skip].line < t->line_base) {
        free(t->values[t->value_skip].type);
        free(t->values[t->value_skip].value);
        t->value_skip++;
    }
}

void transcript_set_max_lines(struct transcript *t, size_t max_lines)
{
    t->max_lines = max_lines == 0 ? 1 : max_lines;
    trim(t);
}

static void add_value(struct transcript *t, uint64_t line, size_t col,
                      size_t len, const char *type, size_t type_len,
                      const char *value, size_t value_len)
{
    struct tr_value *v;

    COMPACT(t->values, t->nvalues, t->value_skip);
    GROW(t->values, t->nvalues, t->value_cap);
    v = &t->values[t->nvalues++];
    v->id = t->next_id++;
    v->line = line;
    v->col = (unsigned int)col;
    v->len = (unsigned int)len;
    v->type = xstrndup(type, type_len);
    v->value = xstrndup(value, value_len);
}

static int is_ident_start(int c)
{
    return isalpha((unsigned char)c) || c == '_';
}

static int is_ident(int c)
{
    return isalnum((unsigned char)c) || c == '_';
}

static int browsable(struct transcript *t, const char *type, size_t len)
{
    char name[128];

    if (t->browsable == NULL || len == 0 || len >= sizeof name)
        return 0;
    memcpy(name, type, len);
    name[len] = '\0';
    return t->browsable(name, t->browsable_arg);
}

/* Length of DIGITS at S (at most N bytes). */
static size_t digits(const char *s, size_t n)
{
    size_t i = 0;

    while (i < n && isdigit((unsigned char)s[i]))
        i++;
    return i;
}

/* A value TYPE:0xHEX or TYPE:DEC starting at S[I] where a type name
 * starts; returns its length or 0. */
static size_t scan_typed(struct transcript *t, const char *s, size_t n,
                         size_t i, size_t *type_len)
{
    size_t j = i, k, m;

    while (j < n && is_ident(s[j]))
        j++;
    if (j >= n || s[j] != ':')
        return 0;
    k = j + 1;
    if (k + 1 < n && s[k] == '0' &&
        (s[k + 1] == 'x' || s[k + 1] == 'X')) {
        m = k + 2;
        while (m < n && isxdigit((unsigned char)s[m]))
            m++;
        if (m == k + 2)
            return 0;
    } else {
        m = k;
        if (m < n && s[m] == '-')
            m++;
        if (digits(s + m, n - m) == 0)
            return 0;
        m += digits(s + m, n - m);
    }
    if (m < n && is_ident(s[m]))
        return 0;
    if (!browsable(t, s + i, j - i))
        return 0;
    *type_len = j - i;
    return m - i;
}

/* A coordinate LINE,COL or LINE,COL-LINE,COL at S[I]; returns its length
 * or 0. */
static size_t scan_coord(const char *s, size_t n, size_t i)
{
    size_t j = i, d;

    if ((d = digits(s + j, n - j)) == 0)
        return 0;
    j += d;
    if (j >= n || s[j] != ',')
        return 0;
    j++;
    if ((d = digits(s + j, n - j)) == 0)
        return 0;
    j += d;
    if (j + 1 < n && s[j] == '-' && isdigit((unsigned char)s[j + 1])) {
        size_t k = j + 1;

        k += digits(s + k, n - k);
        if (k < n && s[k] == ',' && digits(s + k + 1, n - k - 1) != 0) {
            k++;
            k += digits(s + k, n - k);
            j = k;
        }
    }
    if (j < n && (is_ident(s[j]) || s[j] == ','))
        return 0;
    return j - i;
}

/* Find value regions in the unfinished line from byte FROM on. */
static void scan_values(struct transcript *t, size_t from)
{
    const char *s = t->cur;
    size_t n = t->cur_len, i = from, len, type_len;
    uint64_t line = cur_line(t);
    int coords = t->browsable != NULL && browsable(t, "coord", 5);

    while (i < n) {
        if (i > 0 && (is_ident(s[i - 1]) || s[i - 1] == ':' ||
                      s[i - 1] == ',')) {
            i++;
            continue;
        }
        if (is_ident_start(s[i]) &&
            (len = scan_typed(t, s, n, i, &type_len)) != 0) {
            add_value(t, line, i, len, s + i, type_len, s + i + type_len + 1,
                      len - type_len - 1);
            i += len;
            continue;
        }
        if (coords && isdigit((unsigned char)s[i]) &&
            (len = scan_coord(s, n, i)) != 0) {
            add_value(t, line, i, len, "coord", 5, s + i, len);
            i += len;
            continue;
        }
        i++;
    }
}

static void cur_append(struct transcript *t, const char *text, size_t len)
{
    if (t->cur_len + len + 1 > t->cur_cap) {
        t->cur_cap = (t->cur_len + len + 1) * 2;
        t->cur = xreallocarray(t->cur, t->cur_cap, 1);
    }
    memcpy(t->cur + t->cur_len, text, len);
    t->cur_len += len;
}

/* Append TEXT to the transcript; scan it for values (SCAN) unless a
 * region is given by the caller (TYPE non-NULL). */
static void append(struct transcript *t, const char *text, size_t len,
                   const char *type, const char *value, int scan)
{
    uint64_t first = cur_line(t);
    size_t start, n;
    const char *nl;

    while (len > 0) {
        nl = memchr(text, '\n', len);
        n = nl != NULL ? (size_t)(nl - text) : len;
        start = t->cur_len;
        cur_append(t, text, n);
        if (type != NULL)
            add_value(t, cur_line(t), start, n, type, strlen(type), value,
                      strlen(value));
        else if (scan)
            scan_values(t, start);
        type = NULL; /* a region never spans lines */
        text += n;
        len -= n;
        if (nl != NULL) {
            finish_line(t);
            text++;
            len--;
        }
    }
    trim(t);
    if (t->changed != NULL) {
        uint64_t last = transcript_end(t);

        if (last > 0)
            last--;
        if (first < t->line_base)
            first = t->line_base;
        t->changed(first, last, t->changed_arg);
    }
}

void transcript_append(struct transcript *t, const char *text, size_t len)
{
    append(t, text, len, NULL, NULL, 1);
}

void transcript_append_plain(struct transcript *t, const char *text,
                             size_t len)
{
    append(t, text, len, NULL, NULL, 0);
}

void transcript_append_value(struct transcript *t, const char *type,
                             const char *value, const char *text)
{
    append(t, text, strlen(text), type, value, 0);
}

const struct tr_value *transcript_value(const struct transcript *t,
                                        uint64_t id)
{
    uint64_t first;

    if (t->nvalues == t->value_skip)
        return NULL;
    first = t->values[t->value_skip].id;
    if (id < first || id - first >= t->nvalues - t->value_skip)
        return NULL;
    return &t->values[t->value_skip + (id - first)];
}

uint64_t transcript_value_count(const struct transcript *t)
{
    return t->next_id - 1;
}

/* Index of the first value at or after (LINE, COL). */
static size_t value_lower(const struct transcript *t, uint64_t line,
                          unsigned int col)
{
    size_t lo = t->value_skip, hi = t->nvalues, mid;

    while (lo < hi) {
        const struct tr_value *v;

        mid = lo + (hi - lo) / 2;
        v = &t->values[mid];
        if (v->line < line || (v->line == line && v->col < col))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

const struct tr_value *transcript_value_after(const struct transcript *t,
                                              uint64_t line, unsigned int col)
{
    size_t i = value_lower(t, line, col);

    return i < t->nvalues ? &t->values[i] : NULL;
}

const struct tr_value *transcript_value_before(const struct transcript *t,
                                               uint64_t line, unsigned int col)
{
    size_t i = value_lower(t, line, col);

    return i > t->value_skip ? &t->values[i - 1] : NULL;
}

size_t transcript_values_in(const struct transcript *t, uint64_t first,
                            uint64_t last, const struct tr_value **out,
                            size_t max)
{
    size_t i = value_lower(t, first, 0), n = 0;

    for (; i < t->nvalues && t->values[i].line <= last && n < max; i++)
        out[n++] = &t->values[i];
    return n;
}

/* Matches of a pattern in one line. */
struct matcher {
    int regex;
    int nocase;
    const char *pattern;
    size_t plen;
    regex_t re;
    char *buf; /* NUL-terminated copy of the line, for regexec */
    size_t cap;
};

/* First match in S[0..N) starting at or after FROM; 1 if found. */
static int match_from(struct matcher *m, const char *s, size_t n, size_t from,
                      size_t *at, size_t *len)
{
    size_t i;

    if (m->regex) {
        regmatch_t rm;

        if (n + 1 > m->cap) {
            m->cap = (n + 1) * 2;
            m->buf = xreallocarray(m->buf, m->cap, 1);
        }
        memcpy(m->buf, s, n);
        m->buf[n] = '\0';
        if (from > n || regexec(&m->re, m->buf + from, 1, &rm,
                                from > 0 ? REG_NOTBOL : 0) != 0)
            return 0;
        *at = from + (size_t)rm.rm_so;
        *len = (size_t)(rm.rm_eo - rm.rm_so);
        return 1;
    }
    if (m->plen == 0 || m->plen > n)
        return 0;
    for (i = from; i + m->plen <= n; i++) {
        if (m->nocase ? strncasecmp(s + i, m->pattern, m->plen) == 0
                      : memcmp(s + i, m->pattern, m->plen) == 0) {
            *at = i;
            *len = m->plen;
            return 1;
        }
    }
    return 0;
}

/* Last match in S[0..N) starting before LIMIT; 1 if found. */
static int match_before(struct matcher *m, const char *s, size_t n,
                        size_t limit, size_t *at, size_t *len)
{
    size_t from = 0, a, l;
    int found = 0;

    while (from < limit && match_from(m, s, n, from, &a, &l) && a < limit) {
        *at = a;
        *len = l;
        found = 1;
        from = a + 1;
    }
    return found;
}

int transcript_search(const struct transcript *t, const char *pattern,
                      int flags, uint64_t line, unsigned int col,
                      uint64_t *mline, unsigned int *mcol, unsigned int *mlen,
                      char **cause)
{
    struct matcher m;
    uint64_t first = transcript_first(t), end = transcript_end(t), n, k;
    uint64_t count = end - first;
    const char *s;
    size_t len, at = 0, mlength = 0;
    int found = 0;

    memset(&m, 0, sizeof m);
    m.regex = (flags & TR_REGEX) != 0;
    m.nocase = (flags & TR_NOCASE) != 0;
    m.pattern = pattern;
    m.plen = strlen(pattern);
    if (m.regex) {
        int err = regcomp(&m.re, pattern,
                          REG_EXTENDED | (m.nocase ? REG_ICASE : 0));

        if (err != 0) {
            char msg[160];

            regerror(err, &m.re, msg, sizeof msg);
            xcause(cause, "bad regular expression \"%s\": %s", pattern, msg);
            return -1;
        }
    }
    if (count == 0)
        goto done;
    if (line < first)
        line = first;
    if (line >= end)
        line = end - 1;

    /* count + 1 steps: the start line is looked at twice, once on each
     * side of the start column. */
    for (k = 0; k <= count && !found; k++) {
        if ((flags & TR_BACKWARD) == 0) {
            n = first + (line - first + k) % count;
            s = transcript_line(t, n, &len);
            if (k == 0)
                found = match_from(&m, s, len, (size_t)col + 1, &at,
                                   &mlength);
            else if (k == count)
                found = match_from(&m, s, len, 0, &at, &mlength) &&
                        at <= col;
            else
                found = match_from(&m, s, len, 0, &at, &mlength);
        } else {
            n = first + (line - first + count - k % count) % count;
            s = transcript_line(t, n, &len);
            if (k == 0)
                found = match_before(&m, s, len, col, &at, &mlength);
            else if (k == count)
                found = match_before(&m, s, len, len + 1, &at, &mlength) &&
                        at >= col;
            else
                found = match_before(&m, s, len, len + 1, &at, &mlength);
        }
        if (found) {
            *mline = n;
            *mcol = (unsigned int)at;
            *mlen = (unsigned int)mlength;
        }
    }
done:
    if (m.regex)
        regfree(&m.re);
    free(m.buf);
    return found;
}

size_t transcript_memory(const struct transcript *t)
{
    size_t n = sizeof *t, i;

    n += t->line_cap * sizeof *t->lines;
    n += t->block_cap * sizeof *t->blocks;
    n += t->value_cap * sizeof *t->values;
    n += t->cur_cap;
    for (i = t->block_skip; i < t->nblocks; i++)
        n += t->blocks[i].size;
    for (i = t->value_skip; i < t->nvalues; i++)
        n += strlen(t->values[i].type) + strlen(t->values[i].value) + 2;
    return n;
}
