/* SPDX-License-Identifier: MIT */
/*
 * unit.c - the compiler's modules on buffers: positions (columns, tabs,
 * line markers, end of file), the order of diagnostics, which names may
 * be alike (aspects have a namespace of their own), name sanitising,
 * keyword lookup, quoting helpers, and a large specification (names are
 * checked in linear time).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "check.h"
#include "compile.h"
#include "diag.h"
#include "quote.h"
#include "unit.h"

/* Compile TEXT; return the diagnostics as one string, "" when it
 * compiled.  The caller frees it.  *OUT gets the output when OUT is set. */
static char *run(const char *text, struct compile_output *out)
{
    struct compile_options o;
    struct compile_output tmp;
    struct diags d;
    char *s = NULL;
    size_t len = 0, i;
    FILE *f;

    o.file = "u.dapto";
    o.base = "u";
    o.source = "u_dapto.c";
    diag_init(&d);
    if (compile_buffer(text, strlen(text), &o, out != NULL ? out : &tmp, &d) == 0) {
        CHECK(d.nerrors == 0);
        if (out == NULL)
            compile_output_free(&tmp);
    } else {
        CHECK(d.nerrors > 0);
        CHECK((out != NULL ? out : &tmp)->c.len == 0);
    }
    for (i = 0; i < d.n; i++)
        CHECK(d.v[i].line >= 1 && d.v[i].col >= 1);
    f = open_memstream(&s, &len);
    diag_print(&d, f);
    fclose(f);
    diag_free(&d);
    return s;
}

/* Check that TEXT gives exactly EXPECTED. */
#define EXPECT(text, expected)                                              \
    do {                                                                    \
        char *got_ = run((text), NULL);                                     \
        if (strcmp(got_, (expected)) != 0)                                  \
            fprintf(stderr, "%s:%d: got:\n%s", __FILE__, __LINE__, got_);   \
        CHECK(strcmp(got_, (expected)) == 0);                               \
        free(got_);                                                         \
    } while (0)

static void test_positions(void)
{
    /* columns count bytes from 1; a tab is one column */
    EXPECT("aspect a;\n\tevent e \"d\" () @",
           "u.dapto:2:17: error: unexpected character '@'\n");
    /* end of file: just after the last thing, not on lines below it */
    EXPECT("aspect a;\nevent e \"d\" ();\n\n\n   \n",
           "u.dapto:2:16: error: expected 'end;' to close aspect 'a', found end of file\n"
           "u.dapto:1:8: note: aspect 'a' begins here\n");
    /* a comment after the last token does not move it */
    EXPECT("aspect a; end /* c */\n",
           "u.dapto:1:22: error: expected ';' after 'end', found end of file\n");
    /* markers in a body move the positions after it */
    EXPECT("aspect a;\noperation o \"d\" () {\n# 70 \"x.dapto\"\n}\n@",
           "x.dapto:71:1: error: unexpected character '@'\n");
    EXPECT("aspect a;\noperation o \"d\" () {\n#line 9\n}\n@",
           "u.dapto:10:1: error: unexpected character '@'\n");
    /* a marker without a file keeps the file; markers may have flags */
    EXPECT("# 5 \"y.dapto\" 1 3\n#  7\n@", "y.dapto:7:1: error: unexpected character '@'\n");
    /* a byte order mark is skipped and takes no column */
    EXPECT("\xef\xbb\xbf@", "u.dapto:1:1: error: unexpected character '@'\n");
    EXPECT("@\xef\xbb\xbf", "u.dapto:1:1: error: unexpected character '@'\n");
    EXPECT("aspect \xef\xbb\xbf",
           "u.dapto:1:8: error: unexpected byte 0xef (non-ASCII text may appear only in strings, comments and operation bodies)\n");
    /* CRLF line ends */
    EXPECT("aspect a;\r\nevent e \"d\" ();\r\n@",
           "u.dapto:3:1: error: unexpected character '@'\n");
    /* a file name with escapes, as cpp writes them */
    EXPECT("# 3 \"dir\\\\a\\\"b.dapto\"\n@",
           "dir\\a\"b.dapto:3:1: error: unexpected character '@'\n");
}

static void test_order(void)
{
    /* problems in what parsed come first, then the syntax error */
    EXPECT("aspect a; event e \"\" (); event e \"\" (); event f \"\" (int);",
           "u.dapto:1:32: error: redefinition of event 'e'\n"
           "u.dapto:1:17: note: previous definition of event 'e' is here\n"
           "u.dapto:1:56: error: expected a parameter name after the type 'int', found ')'\n");
    /* the checker reports independent problems in source order */
    EXPECT("aspect a; event b \"\" (int int \"\"); operation b \"\" () {} end;",
           "u.dapto:1:27: error: parameter name 'int' is a C or C++ keyword\n"
           "u.dapto:1:46: error: redefinition of 'b' as an operation: events and operations share one namespace\n"
           "u.dapto:1:17: note: previous definition of 'b', as an event, is here\n");
    /* an unterminated body is not parsed further */
    EXPECT("aspect a; operation o \"\" () { \"}\" '}' /* } */ // }\n",
           "u.dapto:1:29: error: unterminated operation body: no '}' matches this '{'\n");
}

static void test_names(void)
{
    /* an aspect and an event or operation may be called alike, in the
     * same aspect or in another */
    EXPECT("aspect t; event t \"\" (int t \"\"); end;", "");
    EXPECT("aspect t; operation t \"\" () {} end;", "");
    EXPECT("aspect a; event b \"\" (); end; aspect b; operation a \"\" () {} end;",
           "");
    /* two aspects may not */
    EXPECT("aspect a; event e \"\" (); end; aspect a; event f \"\" (); end;",
           "u.dapto:1:38: error: redefinition of aspect 'a'\n"
           "u.dapto:1:8: note: previous definition of aspect 'a' is here\n");
    /* events and operations share one namespace, across aspects too */
    EXPECT("aspect a; event e \"\" (); end; aspect b; operation e \"\" () {} end;",
           "u.dapto:1:51: error: redefinition of 'e' as an operation: events and operations share one namespace\n"
           "u.dapto:1:17: note: previous definition of 'e', as an event, is here\n");
    EXPECT("aspect a; operation e \"\" () {} event e \"\" (); end;",
           "u.dapto:1:38: error: redefinition of 'e' as an event: events and operations share one namespace\n"
           "u.dapto:1:21: note: previous definition of 'e', as an operation, is here\n");
    /* the reserved names still hold for an aspect named like an event */
    EXPECT("aspect dapto; event dapto \"\" (); end;",
           "u.dapto:1:8: error: aspect name 'dapto' is reserved for the runtime's built-in aspect\n");
}

static void test_prefix(void)
{
    static const char *const cases[][2] = {
        { "csm", "csm" }, { "my-spec", "my_spec" }, { "a.b c", "a_b_c" },
        { "9lives", "spec_9lives" }, { "", "spec" }, { "caf\xc3\xa9", "caf__" },
    };
    size_t i;
    char *p;

    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        p = compile_prefix(cases[i][0]);
        CHECK(strcmp(p, cases[i][1]) == 0);
        free(p);
    }
}

static void test_keywords(void)
{
    static const char *const yes[] = {
        "_Alignas", "_Thread_local", "alignas", "and_eq", "asm", "auto",
        "char8_t", "class", "co_yield", "const_cast", "consteval", "delete",
        "for", "int", "namespace", "new", "nullptr", "reinterpret_cast",
        "restrict", "template", "this", "typeof_unqual", "union", "while",
        "xor_eq",
    };
    static const char *const no[] = {
        "", "_", "Int", "index", "string", "str", "ptr", "end", "event",
        "aspect", "operation", "final", "override", "main", "zzz", "_Z",
    };
    size_t i;

    for (i = 0; i < sizeof yes / sizeof yes[0]; i++) {
        if (!check_is_keyword(yes[i]))
            fprintf(stderr, "not a keyword: %s\n", yes[i]);
        CHECK(check_is_keyword(yes[i]));
    }
    for (i = 0; i < sizeof no / sizeof no[0]; i++)
        CHECK(!check_is_keyword(no[i]));
}

static void test_quote(void)
{
    struct buf b;
    char out[32];

    buf_init(&b);
    quote_c(&b, "a\"b\\c\n\t\x01\xc3\xa9?" "?=?");
    CHECK(strcmp(b.data, "\"a\\\"b\\\\c\\n\\t\\001\\303\\251?\\?=?\"") == 0);
    buf_free(&b);
    quote_tcl_word(&b, "$x [y] {z} \"q\" \\");
    CHECK(strcmp(b.data, "\"\\$x \\[y\\] {z} \\\"q\\\" \\\\\"") == 0);
    buf_free(&b);
    quote_tcl_elem(&b, "$x [y] {z} \"q\" \\");
    CHECK(strcmp(b.data, "\"$x [y] \\{z\\} \\\"q\\\" \\\\\"") == 0);
    buf_free(&b);
    quote_tcl_elem(&b, "\xe2\x98\x95\x7f\xff");
    CHECK(strcmp(b.data, "\"\\u2615\\u007f\\u00ff\"") == 0);
    buf_free(&b);
    quote_comment(&b, "a */ b /* c\nd ?" "?/ \xff");
    CHECK(strcmp(b.data, "a * / b / * c d ? ?/ ?") == 0);
    buf_free(&b);
    CHECK(b.lines == 0);
    buf_puts(&b, "one\ntwo\n");
    buf_printf(&b, "%d\n", 3);
    CHECK(b.lines == 3);
    buf_free(&b);

    quote_preview(out, sizeof out, "short", 10);
    CHECK(strcmp(out, "short") == 0);
    quote_preview(out, sizeof out, "a much longer string than that", 10);
    CHECK(strcmp(out, "a much lon...") == 0);
    quote_preview(out, sizeof out, "q\"\n", 10);
    CHECK(strcmp(out, "q\\\"\\n") == 0);

    CHECK(quote_utf8_len((const unsigned char *)"a", 1) == 1);
    CHECK(quote_utf8_len((const unsigned char *)"\xc3\xa9", 2) == 2);
    CHECK(quote_utf8_len((const unsigned char *)"\xc3", 1) == 0);
    CHECK(quote_utf8_len((const unsigned char *)"\xc0\x80", 2) == 0);     /* overlong */
    CHECK(quote_utf8_len((const unsigned char *)"\xed\xa0\x80", 3) == 0); /* surrogate */
    CHECK(quote_utf8_len((const unsigned char *)"\xf0\x9d\x84\x9e", 4) == 4);
    CHECK(quote_utf8_len((const unsigned char *)"\xf4\x90\x80\x80", 4) == 0);
}

static void test_output(void)
{
    struct compile_output out;
    char *d;

    d = run("aspect a;\n    operation o \"d\" (int x \"x\") : int\n    {\n"
            "        DAPTO_RESULT_INT(x);\n    }\nend;\n", &out);
    CHECK(strcmp(d, "") == 0);
    free(d);
    /* the body keeps its column and its line */
    CHECK(strstr(out.c.data, "#line 3 \"u.dapto\"\n    {\n        DAPTO_RESULT_INT(x);\n    }\n") != NULL);
    /* and the #line after it names the line that follows */
    {
        const char *p = strstr(out.c.data, "#line "), *q;
        unsigned long line = 1, want;

        p = strstr(p + 1, "#line ");
        CHECK(p != NULL);
        for (q = out.c.data; q < p; q++)
            line += *q == '\n';
        CHECK(sscanf(p, "#line %lu \"u_dapto.c\"", &want) == 1);
        CHECK(want == line + 1);
    }
    compile_output_free(&out);
}

/* Many events: compiles, and a duplicate at the end is still found. */
static void test_large(void)
{
    struct buf b;
    char *d;
    int i;

    buf_init(&b);
    buf_puts(&b, "aspect big;\n");
    for (i = 0; i < 20000; i++)
        buf_printf(&b, "event e%d \"Event %d\" (int x \"x\", str y \"y\");\n", i, i);
    buf_puts(&b, "end;\n");
    d = run(b.data, NULL);
    CHECK(strcmp(d, "") == 0);
    free(d);
    buf_puts(&b, "aspect more; operation e19999 \"\" () {} end;\n");
    d = run(b.data, NULL);
    CHECK(strstr(d, "u.dapto:20003:24: error: redefinition of 'e19999' as an operation") == d);
    free(d);
    buf_free(&b);
}

int main(void)
{
    test_positions();
    test_order();
    test_names();
    test_prefix();
    test_keywords();
    test_quote();
    test_output();
    test_large();
    return unit_done("dapto unit");
}
