/* SPDX-License-Identifier: MIT */
/*
 * transcript-test.c - unit tests of the transcript model: lines, value
 * regions, scrollback, search and change notification.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transcript.h"
#include "unit.h"

static int browsable(const char *type, void *arg)
{
    (void)arg;
    return strcmp(type, "Env") == 0 || strcmp(type, "Key") == 0 ||
           strcmp(type, "coord") == 0;
}

static int line_is(struct transcript *t, uint64_t n, const char *want)
{
    size_t len;
    const char *s = transcript_line(t, n, &len);

    return s != NULL && len == strlen(want) && memcmp(s, want, len) == 0;
}

static void say(struct transcript *t, const char *s)
{
    transcript_append(t, s, strlen(s));
}

static void test_lines(void)
{
    struct transcript *t = transcript_create(100);
    size_t len;

    CHECK_EQ_INT(transcript_end(t), 0);
    say(t, "hello");
    CHECK(transcript_partial(t));
    CHECK_EQ_INT(transcript_end(t), 1);
    CHECK(line_is(t, 0, "hello"));
    say(t, ", world\nsecond\nthird");
    CHECK(line_is(t, 0, "hello, world"));
    CHECK(line_is(t, 1, "second"));
    CHECK(line_is(t, 2, "third"));
    CHECK_EQ_INT(transcript_end(t), 3);
    say(t, "\n");
    CHECK(!transcript_partial(t));
    CHECK_EQ_INT(transcript_end(t), 3);
    say(t, "\n\n");
    CHECK(line_is(t, 3, ""));
    CHECK(line_is(t, 4, ""));
    CHECK(transcript_line(t, 5, &len) == NULL);
    transcript_free(t);
}

static void test_values(void)
{
    struct transcript *t = transcript_create(100);
    const struct tr_value *v;

    transcript_set_browsable(t, browsable, NULL);
    say(t, "env Env:0x1f and Key:42, Key:-3 not Other:0x10\n");
    CHECK_EQ_INT(transcript_value_count(t), 3);
    v = transcript_value(t, 1);
    CHECK(v != NULL && strcmp(v->type, "Env") == 0 &&
          strcmp(v->value, "0x1f") == 0 && v->line == 0 && v->col == 4 &&
          v->len == 8);
    v = transcript_value(t, 2);
    CHECK(v != NULL && strcmp(v->value, "42") == 0 && v->col == 17);
    v = transcript_value(t, 3);
    CHECK(v != NULL && strcmp(v->value, "-3") == 0);
    CHECK(transcript_value(t, 4) == NULL);
    CHECK(transcript_value(t, 0) == NULL);

    /* not inside identifiers, not with trailing letters, not bare 0x */
    say(t, "xEnv:1 Env:12ab Env:0x Env:0xzz _Env:4 Env:5\n");
    CHECK_EQ_INT(transcript_value_count(t), 4);
    v = transcript_value(t, 4);
    CHECK(v != NULL && v->line == 1 && strcmp(v->value, "5") == 0);

    /* coordinates */
    say(t, "at 12,3 and 9,1-12,80 but not 1,2,3 or a1,2\n");
    CHECK_EQ_INT(transcript_value_count(t), 6);
    v = transcript_value(t, 5);
    CHECK(v != NULL && strcmp(v->type, "coord") == 0 &&
          strcmp(v->value, "12,3") == 0);
    v = transcript_value(t, 6);
    CHECK(v != NULL && strcmp(v->value, "9,1-12,80") == 0 && v->len == 9);

    /* each append is scanned on its own: a value split over two is not */
    say(t, "Env:");
    say(t, "0x2a\n");
    CHECK_EQ_INT(transcript_value_count(t), 6);

    /* explicit regions */
    transcript_append_value(t, "Tree", "77", "<node 77>");
    say(t, "\n");
    v = transcript_value(t, 7);
    CHECK(v != NULL && strcmp(v->type, "Tree") == 0 &&
          strcmp(v->value, "77") == 0 && v->len == 9 && v->line == 4);

    /* navigation */
    v = transcript_value_after(t, 0, 5);
    CHECK(v != NULL && v->id == 2);
    v = transcript_value_before(t, 0, 17);
    CHECK(v != NULL && v->id == 1);
    CHECK(transcript_value_before(t, 0, 4) == NULL);
    v = transcript_value_after(t, 2, 100);
    CHECK(v != NULL && v->id == 7);
    {
        const struct tr_value *out[10];

        CHECK_EQ_INT(transcript_values_in(t, 1, 2, out, 10), 3);
        CHECK_EQ_INT(transcript_values_in(t, 0, 4, out, 2), 2);
    }
    transcript_free(t);
}

static void test_no_browser(void)
{
    struct transcript *t = transcript_create(10);

    say(t, "Env:0x10 12,3\n");
    CHECK_EQ_INT(transcript_value_count(t), 0);
    transcript_free(t);
}

static void test_scrollback(void)
{
    struct transcript *t = transcript_create(3);
    char buf[32];
    int i;

    transcript_set_browsable(t, browsable, NULL);
    for (i = 0; i < 10; i++) {
        snprintf(buf, sizeof buf, "line %d Key:%d\n", i, i);
        say(t, buf);
    }
    CHECK_EQ_INT(transcript_first(t), 7);
    CHECK_EQ_INT(transcript_end(t), 10);
    CHECK(line_is(t, 7, "line 7 Key:7"));
    CHECK(line_is(t, 9, "line 9 Key:9"));
    CHECK(transcript_value(t, 7) == NULL);
    CHECK(transcript_value(t, 8) != NULL);
    CHECK(strcmp(transcript_value(t, 10)->value, "9") == 0);
    CHECK_EQ_INT(transcript_value_count(t), 10);
    transcript_set_max_lines(t, 1);
    CHECK_EQ_INT(transcript_first(t), 9);
    CHECK(transcript_value(t, 9) == NULL);
    transcript_free(t);
}

static void test_big(void)
{
    /* many lines across many blocks, with trimming: text stays right and
     * bookkeeping stays small */
    struct transcript *t = transcript_create(100000);
    char buf[64];
    int i;
    size_t mem;

    for (i = 0; i < 300000; i++) {
        snprintf(buf, sizeof buf, "event %d payload=%08x\n", i, i * 7);
        say(t, buf);
    }
    CHECK_EQ_INT(transcript_first(t), 200000);
    snprintf(buf, sizeof buf, "event %d payload=%08x", 250000, 250000 * 7);
    CHECK(line_is(t, 250000, buf));
    snprintf(buf, sizeof buf, "event %d payload=%08x", 299999, 299999 * 7);
    CHECK(line_is(t, 299999, buf));
    mem = transcript_memory(t);
    /* 100,000 lines of about 28 bytes: well under 100 bytes a line */
    CHECK(mem < 100000 * 100);
    transcript_free(t);
}

static uint64_t changed_first, changed_last;
static int changed_calls;

static void changed(uint64_t first, uint64_t last, void *arg)
{
    (void)arg;
    changed_first = first;
    changed_last = last;
    changed_calls++;
}

static void test_changed(void)
{
    struct transcript *t = transcript_create(100);

    transcript_set_changed(t, changed, NULL);
    say(t, "a");
    CHECK_EQ_INT(changed_calls, 1);
    CHECK_EQ_INT(changed_first, 0);
    CHECK_EQ_INT(changed_last, 0);
    say(t, "b\nc\nd");
    CHECK_EQ_INT(changed_first, 0);
    CHECK_EQ_INT(changed_last, 2);
    say(t, "\n");
    CHECK_EQ_INT(changed_first, 2);
    CHECK_EQ_INT(changed_last, 2);
    transcript_free(t);
}

static void test_search(void)
{
    struct transcript *t = transcript_create(100);
    uint64_t line;
    unsigned int col, len;
    char *cause = NULL;

    say(t, "alpha beta\ngamma Beta delta\nepsilon\nbeta end\n");
    /* forward from the start */
    CHECK(transcript_search(t, "beta", 0, 0, 0, &line, &col, &len, NULL) == 1);
    CHECK(line == 0 && col == 6 && len == 4);
    /* next: case-sensitive skips Beta */
    CHECK(transcript_search(t, "beta", 0, line, col, &line, &col, &len,
                            NULL) == 1);
    CHECK(line == 3 && col == 0);
    /* wraps around */
    CHECK(transcript_search(t, "beta", 0, line, col, &line, &col, &len,
                            NULL) == 1);
    CHECK(line == 0 && col == 6);
    /* case-insensitive finds Beta */
    CHECK(transcript_search(t, "beta", TR_NOCASE, 0, 6, &line, &col, &len,
                            NULL) == 1);
    CHECK(line == 1 && col == 6);
    /* backward */
    CHECK(transcript_search(t, "beta", TR_BACKWARD, 3, 0, &line, &col, &len,
                            NULL) == 1);
    CHECK(line == 0 && col == 6);
    CHECK(transcript_search(t, "beta", TR_BACKWARD, 0, 6, &line, &col, &len,
                            NULL) == 1);
    CHECK(line == 3 && col == 0);
    /* regex */
    CHECK(transcript_search(t, "d[a-z]+a", TR_REGEX, 0, 0, &line, &col, &len,
                            NULL) == 1);
    CHECK(line == 1 && col == 11 && len == 5);
    CHECK(transcript_search(t, "^e", TR_REGEX, 0, 0, &line, &col, &len,
                            NULL) == 1);
    CHECK(line == 2 && col == 0);
    /* a regex anchored at the start does not match mid-line */
    CHECK(transcript_search(t, "^nd", TR_REGEX, 0, 0, &line, &col, &len,
                            NULL) == 0);
    /* not found; bad regex */
    CHECK(transcript_search(t, "zeta", 0, 0, 0, &line, &col, &len, NULL) == 0);
    CHECK(transcript_search(t, "a(", TR_REGEX, 0, 0, &line, &col, &len,
                            &cause) == -1);
    CHECK(cause != NULL && strstr(cause, "bad regular expression") != NULL);
    free(cause);
    transcript_free(t);

    /* one line, one match: found again after wrapping */
    t = transcript_create(10);
    say(t, "only x here");
    CHECK(transcript_search(t, "x", 0, 0, 5, &line, &col, &len, NULL) == 1);
    CHECK(line == 0 && col == 5);
    CHECK(transcript_search(t, "x", TR_BACKWARD, 0, 5, &line, &col, &len,
                            NULL) == 1);
    CHECK(line == 0 && col == 5);
    transcript_free(t);
}

int main(void)
{
    test_lines();
    test_values();
    test_no_browser();
    test_scrollback();
    test_big();
    test_changed();
    test_search();
    return unit_done("transcript-test");
}
