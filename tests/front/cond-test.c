/* SPDX-License-Identifier: MIT */
/*
 * cond-test.c - unit tests of conditions compiled into filter bytecode
 * (cond.c) from Tcl conditions (cond-tcl.c), and of filters built from
 * clauses.
 *
 * Which conditions compile and why the others do not; the exact bytes of a
 * few; and, above all, that a compiled condition means what Tcl's expr
 * means: a small evaluator of the bytecode, here in the test, runs each
 * program on random arguments, and the condition is evaluated by Tcl as a
 * breakpoint's is (an apply lambda over the parameters, set as handlers
 * see them).  The evaluator is strict: a program that pops a value of the
 * wrong type or leaves the stack wrong fails the test.  The seed is
 * printed; set NOOSA_TEST_SEED to run with it again.
 */
#include "config.h"

#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tcl.h>
#include <time.h>

#include "cond-tcl.h"
#include "cond.h"
#include "dapto.h"
#include "protocol.h"
#include "unit.h"
#include "xmalloc.h"

/* The event of the tests: tick(int i, long l, double d, str s, ptr p,
 * Widget u, str t, double e). */
static struct registry_param params[] = {
    { "i", "int", DAPTO_K_INT, "" },
    { "l", "long", DAPTO_K_LONG, "" },
    { "d", "double", DAPTO_K_DOUBLE, "" },
    { "s", "str", DAPTO_K_STR, "" },
    { "p", "ptr", DAPTO_K_PTR, "" },
    { "u", "Widget", DAPTO_K_USER, "" },
    { "t", "str", DAPTO_K_STR, "" },
    { "e", "double", DAPTO_K_DOUBLE, "" },
};
#define NPARAMS (sizeof params / sizeof params[0])

static struct registry_event tick = {
    .code = 6, .name = "tick", .doc = "", .visible = 1,
    .nparams = NPARAMS, .params = params
};

/* Arguments of one event. */
struct args {
    int i;
    long l;
    double d;
    const char *s;
    uint64_t p, u;
    const char *t;
    double e;
    int tid;
};

/* --- the evaluator ---------------------------------------------------- */

enum { V_INT, V_DOUBLE, V_STR };

struct val {
    int type;
    int64_t i;
    double d;
    char s[256];
};

static int eval_failed;

#define EVAL_FAIL(what)                                                    \
    do {                                                                   \
        fprintf(stderr, "evaluator: %s at byte %zu\n", what, pc);          \
        eval_failed = 1;                                                   \
        return -1;                                                         \
    } while (0)

static int cmp_result(int cmp, int lt, int eq)
{
    switch (cmp) {
    case DAPTO_FCMP_EQ: return eq;
    case DAPTO_FCMP_NE: return !eq;
    case DAPTO_FCMP_LT: return lt;
    case DAPTO_FCMP_LE: return lt || eq;
    case DAPTO_FCMP_GT: return !lt && !eq;
    case DAPTO_FCMP_GE: return !lt;
    }
    return -1;
}

/* Run PROG (LEN bytes) on A: 1, 0, or -1 when the program is wrong. */
static int run(const unsigned char *prog, size_t len, const struct args *a)
{
    struct val st[DAPTO_FILTER_STACK];
    size_t pc = 0, n = 0;
    unsigned char op, k;
    uint16_t off, sl;
    int64_t i;
    double d;

    while (pc < len) {
        op = prog[pc++];
        switch (op) {
        case DAPTO_FOP_END:
            if (n != 1 || st[0].type != V_INT || pc != len)
                EVAL_FAIL("END with a wrong stack or not last");
            return st[0].i != 0;
        case DAPTO_FOP_ARG:
        case DAPTO_FOP_ARGD:
        case DAPTO_FOP_ARGS:
            if (pc >= len || n == DAPTO_FILTER_STACK)
                EVAL_FAIL("ARG");
            k = prog[pc++];
            memset(&st[n], 0, sizeof st[n]);
            if (op == DAPTO_FOP_ARG) {
                st[n].type = V_INT;
                if (k == 0) st[n].i = a->i;
                else if (k == 1) st[n].i = a->l;
                else if (k == 4) st[n].i = (int64_t)a->p;
                else if (k == 5) st[n].i = (int64_t)a->u;
                else EVAL_FAIL("ARG of a parameter not an integer");
            } else if (op == DAPTO_FOP_ARGD) {
                st[n].type = V_DOUBLE;
                if (k == 0) st[n].d = a->i;
                else if (k == 1) st[n].d = (double)a->l;
                else if (k == 2) st[n].d = a->d;
                else if (k == 7) st[n].d = a->e;
                else EVAL_FAIL("ARGD of a parameter not a number");
            } else {
                st[n].type = V_STR;
                if (k == 3) snprintf(st[n].s, sizeof st[n].s, "%s", a->s);
                else if (k == 6) snprintf(st[n].s, sizeof st[n].s, "%s", a->t);
                else EVAL_FAIL("ARGS of a parameter not a string");
            }
            n++;
            break;
        case DAPTO_FOP_TID:
            if (n == DAPTO_FILTER_STACK)
                EVAL_FAIL("TID");
            st[n].type = V_INT;
            st[n++].i = a->tid;
            break;
        case DAPTO_FOP_CONST:
            if (len - pc < 8 || n == DAPTO_FILTER_STACK)
                EVAL_FAIL("CONST");
            memcpy(&i, prog + pc, 8);
            pc += 8;
            st[n].type = V_INT;
            st[n++].i = i;
            break;
        case DAPTO_FOP_CONSTD:
            if (len - pc < 8 || n == DAPTO_FILTER_STACK)
                EVAL_FAIL("CONSTD");
            memcpy(&d, prog + pc, 8);
            pc += 8;
            st[n].type = V_DOUBLE;
            st[n++].d = d;
            break;
        case DAPTO_FOP_CONSTS:
            if (len - pc < 2 || n == DAPTO_FILTER_STACK)
                EVAL_FAIL("CONSTS");
            memcpy(&sl, prog + pc, 2);
            pc += 2;
            if (len - pc < sl || sl >= sizeof st[n].s)
                EVAL_FAIL("CONSTS length");
            st[n].type = V_STR;
            memcpy(st[n].s, prog + pc, sl);
            st[n].s[sl] = '\0';
            pc += sl;
            n++;
            break;
        case DAPTO_FOP_SEQ:
        case DAPTO_FOP_SNE:
        case DAPTO_FOP_GLOB:
            if (n < 2 || st[n - 1].type != V_STR || st[n - 2].type != V_STR)
                EVAL_FAIL("string operation on non-strings");
            if (op == DAPTO_FOP_GLOB)
                i = Tcl_StringMatch(st[n - 2].s, st[n - 1].s) != 0;
            else
                i = (strcmp(st[n - 2].s, st[n - 1].s) == 0) ==
                    (op == DAPTO_FOP_SEQ);
            n--;
            st[n - 1].type = V_INT;
            st[n - 1].i = i;
            break;
        case DAPTO_FOP_NOT:
            if (n < 1 || st[n - 1].type != V_INT)
                EVAL_FAIL("NOT");
            st[n - 1].i = !st[n - 1].i;
            break;
        case DAPTO_FOP_JF:
        case DAPTO_FOP_JT:
            if (len - pc < 2 || n < 1 || st[n - 1].type != V_INT)
                EVAL_FAIL("jump");
            memcpy(&off, prog + pc, 2);
            pc += 2;
            if ((st[n - 1].i != 0) == (op == DAPTO_FOP_JT)) {
                if (len - pc < off)
                    EVAL_FAIL("jump out of the program");
                pc += off;
            } else {
                n--;
            }
            break;
        default:
            if (op >= DAPTO_FOP_CMPI && op < DAPTO_FOP_CMPD + 6) {
                int base = op >= DAPTO_FOP_CMPD ? DAPTO_FOP_CMPD :
                           op >= DAPTO_FOP_CMPU ? DAPTO_FOP_CMPU :
                           DAPTO_FOP_CMPI;
                int cmp = op - base, lt, eq;
                struct val *x = &st[n - 2], *y = &st[n - 1];

                if (cmp > DAPTO_FCMP_GE || n < 2)
                    EVAL_FAIL("bad comparison");
                if (base == DAPTO_FOP_CMPD) {
                    if (x->type != V_DOUBLE || y->type != V_DOUBLE)
                        EVAL_FAIL("CMPD on non-doubles");
                    lt = x->d < y->d;
                    eq = x->d == y->d;
                } else if (x->type != V_INT || y->type != V_INT) {
                    EVAL_FAIL("integer comparison on non-integers");
                } else if (base == DAPTO_FOP_CMPU) {
                    lt = (uint64_t)x->i < (uint64_t)y->i;
                    eq = x->i == y->i;
                } else {
                    lt = x->i < y->i;
                    eq = x->i == y->i;
                }
                n--;
                st[n - 1].type = V_INT;
                st[n - 1].i = cmp_result(cmp, lt, eq);
                break;
            }
            EVAL_FAIL("unknown opcode");
        }
    }
    EVAL_FAIL("no END");
}

/* --- Tcl's answer ------------------------------------------------------ */

/* COND as a breakpoint's condition is evaluated (breaks.c): 1, 0, or -1
 * with the error in the result. */
static int tcl_eval(Tcl_Interp *in, const char *cond, const struct args *a)
{
    Tcl_Obj *argv[2 + NPARAMS + 3], *lambda, *l[3], *body[2], *names;
    char buf[32];
    unsigned int k;
    int rc, yes = -1, argc = 0;

    names = Tcl_NewListObj(0, NULL);
    for (k = 0; k < NPARAMS; k++)
        Tcl_ListObjAppendElement(NULL, names,
                                 Tcl_NewStringObj(params[k].name, -1));
    Tcl_ListObjAppendElement(NULL, names, Tcl_NewStringObj("n_ename", -1));
    Tcl_ListObjAppendElement(NULL, names, Tcl_NewStringObj("n_time", -1));
    Tcl_ListObjAppendElement(NULL, names, Tcl_NewStringObj("n_thread", -1));
    body[0] = Tcl_NewStringObj("expr", -1);
    body[1] = Tcl_NewStringObj(cond, -1);
    l[0] = names;
    l[1] = Tcl_NewListObj(2, body);
    l[2] = Tcl_NewStringObj("::", -1);
    lambda = Tcl_NewListObj(3, l);
    argv[argc++] = Tcl_NewStringObj("apply", -1);
    argv[argc++] = lambda;
    /* as interp_value() makes them */
    argv[argc++] = Tcl_NewIntObj(a->i);
    argv[argc++] = Tcl_NewWideIntObj((Tcl_WideInt)a->l);
    argv[argc++] = Tcl_NewDoubleObj(a->d);
    argv[argc++] = Tcl_NewStringObj(a->s, -1);
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)a->p);
    argv[argc++] = Tcl_NewStringObj(buf, -1);
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)a->u);
    argv[argc++] = Tcl_NewStringObj(buf, -1);
    argv[argc++] = Tcl_NewStringObj(a->t, -1);
    argv[argc++] = Tcl_NewDoubleObj(a->e);
    argv[argc++] = Tcl_NewStringObj("tick", -1);
    argv[argc++] = Tcl_NewWideIntObj(12345);
    argv[argc++] = Tcl_NewIntObj(a->tid);
    for (k = 0; k < (unsigned int)argc; k++)
        Tcl_IncrRefCount(argv[k]);
    rc = Tcl_EvalObjv(in, argc, argv, TCL_EVAL_GLOBAL);
    if (rc == TCL_OK &&
        Tcl_GetBooleanFromObj(in, Tcl_GetObjResult(in), &yes) != TCL_OK)
        yes = -1;
    for (k = 0; k < (unsigned int)argc; k++)
        Tcl_DecrRefCount(argv[k]);
    return rc == TCL_OK ? yes : -1;
}

/* --- random arguments --------------------------------------------------- */

static uint64_t rng;

static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

#define PICK(a) (a[rnd() % (sizeof a / sizeof a[0])])

static void random_args(struct args *a)
{
    static const int ints[] = { 0, 1, -1, 2, 3, -3, 5, 16, 8, 10, 2147483647,
                                -2147483647 - 1, 100 };
    static const long longs[] = {
        0, 1, -1, 2, 3, -3, 5, 16, 8, 100, 9007199254740992L,
        9007199254740993L, -9007199254740993L, 9223372036854775807L,
        -9223372036854775807L - 1, 2147483648L };
    static const double doubles[] = {
        0.0, -0.0, 1.0, -1.0, 2.5, -2.5, 3.0, 0.5, 1e300, -1e300,
        9007199254740992.0, 16.0, 100.0, 2147483647.0, 1.0 / 0.0 };
    static const char *const strs[] = {
        "", "abc", "abd", "ABC", "x", "a*b", "[x]", "a?c", "a", "5", " 5",
        "0x10", "12", "\\", "a\\b", "xyz", "tick", "ax" };
    static const uint64_t ptrs[] = {
        0, 1, 16, 0x7fff0000, (uint64_t)1 << 63, UINT64_MAX,
        0x7fffffffffffffff };

    a->i = rnd() % 4 ? PICK(ints) : (int)(int32_t)rnd();
    a->l = rnd() % 4 ? PICK(longs) : (long)rnd();
    a->d = rnd() % 4 ? PICK(doubles) :
                       (double)(int64_t)(rnd() % 2001) / 8 - 125;
    a->e = rnd() % 4 ? PICK(doubles) : (double)(rnd() % 7) - 3;
    a->s = PICK(strs);
    a->t = PICK(strs);
    a->p = rnd() % 4 ? PICK(ptrs) : rnd();
    a->u = rnd() % 4 ? PICK(ptrs) : rnd();
    a->tid = rnd() % 2 ? (int)(rnd() % 8) : (int)(rnd() % 4000000);
}

/* --- the tables ----------------------------------------------------------- */

/* Conditions that compile; each is checked against Tcl. */
static const char *const compilable[] = {
    "$i < 0", "$i == 0", "$i != -3", "$i <= 2147483647", "$i > -5",
    "$i >= 16", "${i} == 3", "$i == 0x10", "$i == 010", "$i == 0b11",
    "$i == \"3\"", "$i == \" 3 \"", "$i == {5}",
    "$l > -9223372036854775808", "$l == 9223372036854775807",
    "$l == -9223372036854775808", "$l == 9007199254740993",
    "$l < 9007199254740992.0", "$l == 9007199254740992.0",
    "$l > 2.5", "$l >= 2.5", "$l == 2.5", "$l != 2.5", "$l <= -2.5",
    "$l < -2.5", "2.5 < $l", "$i < 1e300", "$i > -1e300", "$l != 1e19",
    "$i >= 3.0", "$i < 3.5", "$l >= 9.3e18", "$l < -9.3e18",
    "$d < 2.5", "$d == 0", "$d != -0.0", "$d >= -1", "$d == $e",
    "$d < $e", "$d < $i", "$i < $d", "$i == $d", "$d == 9007199254740992",
    "3 > $d", "$d <= 16",
    "$s eq \"abc\"", "$s ne {}", "$s eq $t", "$s ne $t", "$s == \"abc\"",
    "$s != {a*b}", "\"abc\" == $s", "$s eq 0x10", "$s eq 12",
    "$s eq \"\"", "$s == \"\"", "$s eq \"a\\\\b\"", "$s eq {[x]}",
    "[string match {a*} $s]", "[string match {\\[x\\]} $s]",
    "[string match \"a?c\" $s]", "![string match * $t]",
    "[string match {a\\*b} $s]", "[string match {[a-c]*} $t]",
    "[string match {} $s]",
    "$p == 0", "$p != 0", "$p == $p",
    "$p == 18446744073709551615", "$p == 0x10", "$p == 9223372036854775808",
    "$p == 2147483647",
    "$i < 0 && $s eq \"x\"", "$i < 0 || $l > 0 && $d < 1",
    "($i < 0 || $l > 0) && $d < 1", "!($i < 0)", "$i", "!$i", "$d", "!$d",
    "$p", "$p && $i", "$l || $d", "!!$l", "$n_thread == 5",
    "$n_thread > 100 || $i == 1", "$n_thread", "($i < 1) == ($l < 1)",
    "($i && $l) == 1", "($i || $l) == 1", "($i || $l) != 0",
    "(!$i) == 0", "1", "0", "2.5", "$i < -5 && !($s eq \"x\")",
    "$i == -(-3)", "$i == +3", "$l == -0x10",
    "[string match a* $s] && $i > 0 || $s eq $t && $d != $e",
};

/* Conditions that do not compile, and a part of why. */
static const struct {
    const char *cond;
    const char *why;
} refused[] = {
    {"$u == 16", "the program's own type Widget"},
    {"$u != $p", "the program's own type Widget"},
    { "$x < 0", "$x is not a parameter of tick" },
    { "$n_ename eq \"tick\"", "not known in the program" },
    { "$n_time > 0", "$n_time is not known" },
    { "$i + 1 > 0", "the operator + (arithmetic)" },
    { "$i * 2 > 0", "arithmetic" },
    { "$s < \"abc\"", "strings compared with <" },
    { "$s == \"5\"", "use eq" },
    { "$s == { 7}", "use eq" },
    { "$s == \"inf\"", "use eq" },
    { "$s == \"-x\"", "use eq" },
    { "$s == $t", "use eq" },
    { "$s == 5", "a string compared with a number" },
    { "$i == \"abc\"", "compared with" },
    { "$i eq \"5\"", "eq compares strings" },
    { "$d ne $e", "ne compares strings" },
    { "$p < 16", "(a pointer) compared with <" },
    { "$p == -1", "a negative number" },
    { "$p == $i", "only with pointers and integer constants" },
    { "$l == 18446744073709551616", "out of the range" },
    { "$l == 9223372036854775808", "out of the range" },
    { "$i < -9223372036854775809", "out of the range" },
    { "$d < $l", "cannot be compared exactly" },
    { "$d == $n_thread", "cannot be compared exactly" },
    { "$d == 9007199254740993", "not exact as a double" },
    { "[string match -nocase a* $s]", "an option" },
    { "[string match $t abc]", "a substituted pattern" },
    { "[string match a* abc]", "only on a parameter" },
    { "[string match a* $i]", "not a string" },
    { "[llength $s] == 1", "only [string match PATTERN $s]" },
    { "[string match a* $s; set x 1]", "more than one command" },
    { "abs($i) < 2", "the function abs()" },
    { "$i ? 1 : 0", "ternary" },
    { "$s in {a b}", "the operator in" },
    { "$s", "$s used as a truth value" },
    { "\"abc\"", "as a truth value" },
    { "\"a$s\" eq \"ax\"", "substitutions inside a string" },
    { "$a(b) == 1", "array elements" },
    { "-$i < 0", "arithmetic (unary -)" },
    { "$i == true", "the bare word true" },
    { "-5 eq \"-5\"", "a signed number compared with eq" },
    { "($i < 1) eq \"1\"", "compared with eq or ne" },
    { "$i <", "not an expression" },
    { "$s eq [string match a* $s]", "eq compares strings" },
};

/* The exact bytes of a few. */
#define I64(v) (v) & 0xff, 0, 0, 0, 0, 0, 0, 0
static const struct {
    const char *cond;
    unsigned char bytes[40];
    int len;
} golden[] = {
    { "$i < 0", { 0x01, 0, 0x05, I64(0), 0x12, 0x00 }, 13 },
    { "$s eq \"ab\"", { 0x03, 3, 0x07, 2, 0, 'a', 'b', 0x28, 0x00 }, 9 },
    { "$i < 0 && $l > 0",
      { 0x01, 0, 0x05, I64(0), 0x12, 0x31, 12, 0, 0x01, 1, 0x05, I64(0),
        0x14, 0x00 }, 28 },
    { "[string match a* $s]",
      { 0x03, 3, 0x07, 2, 0, 'a', '*', 0x2a, 0x00 }, 9 },
    { "$l > 2.5", { 0x01, 1, 0x05, I64(2), 0x14, 0x00 }, 13 },
    { "$l == 2.5", { 0x05, I64(0), 0x00 }, 10 },
    { "$d", { 0x02, 2, 0x06, 0, 0, 0, 0, 0, 0, 0, 0, 0x21, 0x00 }, 13 },
    { "$p != 0", { 0x01, 4, 0x05, I64(0), 0x19, 0x00 }, 13 },
    { "!$n_thread || $i", { 0x04, 0x30, 0x32, 2, 0, 0x01, 0, 0x00 }, 8 },
    { "($i || $l) == 1",
      { 0x01, 0, 0x32, 2, 0, 0x01, 1, 0x30, 0x30, 0x05, I64(1), 0x10,
        0x00 }, 20 },
};

static Tcl_Interp *in;

static void test_refused(void)
{
    unsigned char prog[DAPTO_FILTER_MAX];
    unsigned int k;

    for (k = 0; k < sizeof refused / sizeof refused[0]; k++) {
        char *cause = NULL;
        int n = cond_tcl_compile(in, refused[k].cond, &tick, prog,
                                 sizeof prog, &cause);

        CHECK(n == -1);
        CHECK(cause != NULL && strstr(cause, refused[k].why) != NULL);
        if (n != -1 || cause == NULL || strstr(cause, refused[k].why) == NULL)
            fprintf(stderr, "refused: %s: %d, \"%s\" (wanted \"%s\")\n",
                    refused[k].cond, n, cause ? cause : "(none)",
                    refused[k].why);
        free(cause);
    }
}

/* Reading leaves the interpreter's result alone, even where it asks Tcl
 * about a number or the text is not an expression. */
static void test_result_kept(void)
{
    static const char *const conds[] = {
        "$l < 1e999999999999999999999", "$l < 99999999999999999999.5",
        "$i <", "$i == 1" };
    unsigned char prog[64];
    unsigned int k;

    for (k = 0; k < sizeof conds / sizeof conds[0]; k++) {
        char *cause = NULL;

        Tcl_SetObjResult(in, Tcl_NewStringObj("kept", -1));
        cond_tcl_compile(in, conds[k], &tick, prog, sizeof prog, &cause);
        CHECK(strcmp(Tcl_GetStringResult(in), "kept") == 0);
        free(cause);
    }
}

static void test_golden(void)
{
    unsigned char prog[DAPTO_FILTER_MAX];
    unsigned int k;

    for (k = 0; k < sizeof golden / sizeof golden[0]; k++) {
        char *cause = NULL;
        int n = cond_tcl_compile(in, golden[k].cond, &tick, prog, sizeof prog,
                                 &cause);

        CHECK_EQ_INT(n, golden[k].len);
        if (n == golden[k].len)
            CHECK(memcmp(prog, golden[k].bytes, (size_t)n) == 0);
        if (n != golden[k].len ||
            memcmp(prog, golden[k].bytes, (size_t)n) != 0) {
            int j;

            fprintf(stderr, "golden: %s: %s\n  got", golden[k].cond,
                    cause ? cause : "");
            for (j = 0; j < n; j++)
                fprintf(stderr, " %02x", prog[j]);
            fprintf(stderr, "\n");
        }
        free(cause);
    }
}

static void test_equivalence(unsigned int rounds)
{
    unsigned char prog[DAPTO_FILTER_MAX];
    unsigned int k, j, reported;
    struct args a;

    for (k = 0; k < sizeof compilable / sizeof compilable[0]; k++) {
        char *cause = NULL;
        int n = cond_tcl_compile(in, compilable[k], &tick, prog, sizeof prog,
                                 &cause);

        CHECK(n > 0);
        if (n <= 0) {
            fprintf(stderr, "not compiled: %s: %s\n", compilable[k],
                    cause ? cause : "");
            free(cause);
            continue;
        }
        reported = 0;
        for (j = 0; j < rounds; j++) {
            int want, got;

            random_args(&a);
            want = tcl_eval(in, compilable[k], &a);
            eval_failed = 0;
            got = run(prog, (size_t)n, &a);
            CHECK(want >= 0);
            CHECK(!eval_failed);
            CHECK_EQ_INT(got, want);
            if ((got != want || want < 0) && reported++ < 3)
                fprintf(stderr, "differs: %s: program %d, Tcl %d (%s) with "
                        "i=%d l=%ld d=%.17g s=\"%s\" p=%" PRIu64 " u=%" PRIu64
                        " t=\"%s\" e=%.17g tid=%d\n", compilable[k], got,
                        want, want < 0 ? Tcl_GetStringResult(in) : "", a.i,
                        a.l, a.d, a.s, a.p, a.u, a.t, a.e, a.tid);
        }
    }
}

/* The core's own checks, below the Tcl reader. */
static void test_core(void)
{
    unsigned char prog[DAPTO_FILTER_MAX];
    struct registry_param many[20];
    struct registry_event big = tick;
    struct cond *c;
    char *cause = NULL;
    unsigned int k;
    int n;

    /* parameters past the ones the program reads */
    for (k = 0; k < 20; k++)
        many[k] = params[0];
    many[17].name = "q";
    big.nparams = 20;
    big.params = many;
    c = cond_cmp(COND_EQ, cond_param(17), cond_int(1));
    CHECK(cond_compile(c, &big, prog, sizeof prog, &cause) == -1);
    CHECK(cause != NULL && strstr(cause, "$q is parameter 18") != NULL);
    cond_free(c);
    c = cond_cmp(COND_EQ, cond_param(15), cond_int(1));
    CHECK(cond_compile(c, &big, prog, sizeof prog, &cause) == 13);
    cond_free(c);
    c = cond_cmp(COND_EQ, cond_param(8), cond_int(1));
    CHECK(cond_compile(c, &tick, prog, sizeof prog, &cause) == -1);
    CHECK(cause != NULL && strstr(cause, "no parameter 9") != NULL);
    cond_free(c);

    /* a program larger than the room for it */
    c = cond_cmp(COND_LT, cond_param(0), cond_int(0));
    CHECK(cond_compile(c, &tick, prog, 12, &cause) == -1);
    CHECK(cause != NULL && strstr(cause, "too long") != NULL);
    CHECK(cond_compile(c, &tick, prog, 13, &cause) == 13);
    cond_free(c);

    /* the stack's depth: a right-leaning chain of == on tests needs one
     * more value a level */
    for (k = 14; k <= 16; k++) {
        unsigned int m;

        c = cond_cmp(COND_LT, cond_param(0), cond_int(0));
        for (m = 0; m < k; m++)
            c = cond_cmp(COND_EQ, cond_param(1), c);
        n = cond_compile(c, &tick, prog, sizeof prog, &cause);
        /* k levels above the innermost comparison: depth k + 2 */
        if (k + 2 <= DAPTO_FILTER_STACK) {
            CHECK(n > 0);
        } else {
            CHECK(n == -1);
            CHECK(cause != NULL && strstr(cause, "too deep") != NULL);
        }
        cond_free(c);
    }
    /* && chains do not deepen the stack */
    c = cond_cmp(COND_LT, cond_param(0), cond_int(0));
    for (k = 0; k < 40; k++)
        c = cond_and(c, cond_cmp(COND_LT, cond_param(0), cond_int(k)));
    CHECK(cond_compile(c, &tick, prog, sizeof prog, &cause) > 0);
    cond_free(c);
    free(cause);
}

/* Filters built from clauses: the layout of protocol.h. */
static void test_filter(void)
{
    unsigned char out[DAPTO_FILTER_MAX + 64];
    unsigned char p1[] = { 0x04, 0x00 }, p2[] = { 0x05, I64(1), 0x00 };
    struct cond_clause cl[DAPTO_FILTER_CLAUSES + 1];
    struct dapto_filter f;
    struct dapto_clause c0, c1;
    unsigned char *big;
    char *cause = NULL;
    unsigned int k;
    int n;

    memset(cl, 0, sizeof cl);
    for (k = 0; k <= DAPTO_FILTER_CLAUSES; k++) {
        cl[k].bits = DAPTO_STATE_RECORD;
        cl[k].checked = cl[k].passed = cl[k].hits = DAPTO_CNT_NONE;
        cl[k].prog = p1;
        cl[k].prog_len = sizeof p1;
    }
    cl[0].bits = DAPTO_STATE_STOP | DAPTO_STATE_RECORD;
    cl[1].prog = p2;
    cl[1].prog_len = sizeof p2;
    cl[1].flags = DAPTO_CL_HITS;
    cl[1].every = 3;
    cl[1].after = 2;
    cl[1].count = 5;
    cl[1].hits = 7;
    n = cond_filter(DAPTO_STATE_TRAIL, 1, 2, cl, 2, out, sizeof out, &cause);
    CHECK_EQ_INT(n, 8 + 2 * 24 + 2 + 10 + 4);
    CHECK(n % 8 == 0);
    memcpy(&f, out, sizeof f);
    CHECK_EQ_INT(f.size, n);
    CHECK_EQ_INT(f.uncond, DAPTO_STATE_TRAIL);
    CHECK_EQ_INT(f.nclauses, 2);
    CHECK_EQ_INT(f.checked, 1);
    CHECK_EQ_INT(f.passed, 2);
    memcpy(&c0, out + 8, sizeof c0);
    memcpy(&c1, out + 8 + sizeof c0, sizeof c1);
    CHECK_EQ_INT(c0.bits, DAPTO_STATE_STOP | DAPTO_STATE_RECORD);
    CHECK_EQ_INT(c0.prog_off, 56);
    CHECK_EQ_INT(c0.prog_len, 2);
    CHECK_EQ_INT(c0.every, 1);
    CHECK(memcmp(out + c0.prog_off, p1, sizeof p1) == 0);
    CHECK_EQ_INT(c1.flags, DAPTO_CL_HITS);
    CHECK_EQ_INT(c1.prog_off, 58);
    CHECK_EQ_INT(c1.prog_len, 10);
    CHECK_EQ_INT(c1.every, 3);
    CHECK_EQ_INT(c1.after, 2);
    CHECK_EQ_INT(c1.count, 5);
    CHECK_EQ_INT(c1.hits, 7);
    CHECK_EQ_INT(c1.checked, DAPTO_CNT_NONE);
    CHECK(memcmp(out + c1.prog_off, p2, sizeof p2) == 0);

    /* no clauses: only the unconditional bits */
    CHECK_EQ_INT(cond_filter(DAPTO_STATE_RECORD, DAPTO_CNT_NONE,
                             DAPTO_CNT_NONE, NULL, 0, out, sizeof out, &cause),
                 8);
    /* limits */
    CHECK(cond_filter(0, 0, 0, cl, DAPTO_FILTER_CLAUSES, out, sizeof out,
                      &cause) > 0);
    CHECK(cond_filter(0, 0, 0, cl, DAPTO_FILTER_CLAUSES + 1, out, sizeof out,
                      &cause) == -1);
    CHECK(cause != NULL && strstr(cause, "at most 12") != NULL);
    CHECK(cond_filter(0, 0, 0, cl, 2, out, 64, &cause) == -1);
    cl[1].every = 0;
    CHECK(cond_filter(0, 0, 0, cl, 2, out, sizeof out, &cause) == -1);
    cl[1].every = 3;
    cl[0].bits = DAPTO_STATE_FILTER;
    CHECK(cond_filter(0, 0, 0, cl, 2, out, sizeof out, &cause) == -1);
    cl[0].bits = DAPTO_STATE_RECORD;
    p1[1] = 0x30; /* not ending in END */
    CHECK(cond_filter(0, 0, 0, cl, 1, out, sizeof out, &cause) == -1);
    p1[1] = 0x00;
    big = xcalloc(DAPTO_FILTER_MAX, 1);
    cl[0].prog = big;
    cl[0].prog_len = DAPTO_FILTER_MAX - 8 - 24;
    CHECK_EQ_INT(cond_filter(0, 0, 0, cl, 1, out, sizeof out, &cause),
                 DAPTO_FILTER_MAX);
    cl[0].prog_len++;
    CHECK(cond_filter(0, 0, 0, cl, 1, out, sizeof out, &cause) == -1);
    free(big);
    free(cause);
}

int main(void)
{
    const char *env = getenv("NOOSA_TEST_SEED");
    unsigned long long seed;

    seed = env != NULL ? strtoull(env, NULL, 0) :
                         (unsigned long long)time(NULL) ^
                         ((unsigned long long)clock() << 20);
    if (seed == 0)
        seed = 1;
    printf("cond-test: seed %llu (NOOSA_TEST_SEED)\n", seed);
    rng = seed;
    in = Tcl_CreateInterp();
    test_core();
    test_filter();
    test_refused();
    test_result_kept();
    test_golden();
    test_equivalence(400);
    Tcl_DeleteInterp(in);
    return unit_done("cond-test");
}
