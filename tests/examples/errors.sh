#!/bin/sh
# SPDX-License-Identifier: MIT
#
# errors.sh - every error calc reports: lexical, syntax and run-time
# errors each give exactly their message (FILE:LINE:COL: error: ...) and
# notes, exit status 1, and only the output printed before the error; the
# monitored build and the monitoring-free build alike.

set -u

work="$abs_top_builddir/tests/examples/work/errors"
rm -rf "$work"
mkdir -p "$work" || exit 99

status=0
n=0

# check PROGRAM STDERR [STDOUT]: run PROGRAM (with -e) in both builds.
check() {
    n=$((n + 1))
    printf '%s\n' "$2" >"$work/$n.err.want"
    if [ $# -ge 3 ]; then
        printf '%s\n' "$3" >"$work/$n.out.want"
    else
        : >"$work/$n.out.want"
    fi
    short=$(printf '%s' "$1" | head -c 60)
    for prog in calc calc-plain; do
        "$abs_top_builddir/examples/calc/$prog" -e "$1" >"$work/$n.$prog.out" 2>"$work/$n.$prog.err"
        rc=$?
        if [ $rc -ne 1 ]; then
            echo "FAIL: $prog -e '$short': exit status $rc, expected 1"
            status=1
        fi
        for s in out err; do
            if ! cmp -s "$work/$n.$prog.$s" "$work/$n.$s.want"; then
                echo "FAIL: $prog -e '$short': standard $s differs:"
                diff -u "$work/$n.$s.want" "$work/$n.$prog.$s"
                status=1
            fi
        done
    done
}

# --- lexical errors ---
check 'print 1 @ 2;' "-e:1:9: error: unexpected character '@'"
check 'print !1;' "-e:1:7: error: unexpected character '!'"
check "print $(printf '\001');" "-e:1:7: error: unexpected character '\\x01'"
check 'print "abc
;' "-e:1:7: error: unterminated string literal"
check 'print "abc' "-e:1:7: error: unterminated string literal"
check 'print "a\' "-e:1:7: error: unterminated string literal"
check 'print "a\qb";' "-e:1:9: error: unknown escape sequence '\\q' in string literal"
check 'print 99999999999999999999;' \
    "-e:1:7: error: integer literal 99999999999999999999 is too large (the largest is 9223372036854775807)"

# --- syntax errors ---
check 'print 1 +;' "-e:1:10: error: expected an expression but found ';'"
check 'print (1 + 2' "-e:1:13: error: expected ')' but found end of input"
check 'print ();' "-e:1:8: error: expected an expression but found ')'"
check 'let x = 1 print x' "-e:1:11: error: expected 'in' or ';' but found 'print'"
check 'print let x = 1;' "-e:1:16: error: expected 'in' but found ';'"
check 'let 5 = 1;' "-e:1:5: error: expected a name but found '5'"
check 'let x 1;' "-e:1:7: error: expected '=' but found '1'"
check 'print if 1 1 else 2;' "-e:1:12: error: expected 'then' but found '1'"
check 'print if 1 then 1;' "-e:1:18: error: expected 'else' but found ';'"
check 'fn f(a b) = 1;' "-e:1:8: error: expected ',' or ')' but found 'b'"
check 'fn f(1) = 1;' "-e:1:6: error: expected a parameter name but found '1'"
check 'fn f(a, a) = 1;' "-e:1:9: error: parameter 'a' is declared twice"
check 'fn f(a) a;' "-e:1:9: error: expected '=' but found 'a'"
check 'fn (a) = a;' "-e:1:8: error: expected an expression but found '='"
check 'print 1 < 2 < 3;' "-e:1:13: error: comparisons cannot be chained; use 'and'"
check 'print 1 2;' "-e:1:9: error: expected ';' but found '2'"
check 'print 1;
print 2 +
' "-e:3:1: error: expected an expression but found end of input"
deep=$(printf '(%.0s' $(seq 300))
check "print ${deep}1;" "-e:1:206: error: expression nested too deeply (more than 200 levels)"
params=$(seq -s, -f 'p%.0f' 33)
check "fn f($params) = 1;" "-e:1:125: error: too many parameters (at most 32)"
args=$(seq -s, 33)
check "print f($args);" "-e:1:96: error: too many arguments (at most 32)"

long=$(printf ' + 1%.0s' $(seq 1000))
check "print 1$long;" "-e:1:4005: error: expression too long (its tree would be more than 1000 levels deep)"
calls=$(printf '(1)%.0s' $(seq 1001))
check "print f$calls;" "-e:1:3005: error: expression too long (its tree would be more than 1000 levels deep)"

# --- run-time errors ---
check 'print y;' "-e:1:7: error: 'y' is not defined"
check 'let x = 1 in print x + y;' "-e:1:24: error: 'y' is not defined"
check 'print 1; print 2 / 0; print 3;' "-e:1:18: error: division by zero" "1"
check 'print 7 % 0;' "-e:1:9: error: division by zero"
check 'print 9223372036854775807 + 1;' "-e:1:27: error: integer overflow in '+'"
check 'print -9223372036854775807 - 2;' "-e:1:28: error: integer overflow in '-'"
check 'print 4294967296 * 4294967296;' "-e:1:18: error: integer overflow in '*'"
check 'let m = -9223372036854775807 - 1 in print m / -1;' "-e:1:45: error: integer overflow in '/'"
check 'let m = -9223372036854775807 - 1 in print -m;' "-e:1:43: error: integer overflow in '-'"
check 'fn f(x) = x; print f(1, 2);' "-e:1:20: error: 'f' expects 1 argument but was given 2"
check 'let g = fn (a, b) a in g(1);' "-e:1:24: error: 'g' expects 2 arguments but was given 1"
check '(fn (x) x)(1, 2);' "-e:1:2: error: an anonymous function expects 1 argument but was given 2"
check 'print len("a", "b");' "-e:1:7: error: 'len' expects 1 argument but was given 2"
check 'let x = 3 in x(1);' "-e:1:14: error: 'x' is an int, not a function"
check 'print ("s")(1);' "-e:1:8: error: called value is a str, not a function"
check 'print 1 + "a";' "-e:1:9: error: operator '+' cannot be applied to int and str"
check 'print "a" * 2;' "-e:1:11: error: operator '*' cannot be applied to str and int"
check 'print len - 1;' "-e:1:11: error: operator '-' cannot be applied to function and int"
check 'print -"a";' "-e:1:7: error: operator '-' needs an int, not a str"
check 'print not len;' "-e:1:7: error: operator 'not' needs an int, not a function"
check 'print "x" and 1;' "-e:1:11: error: operator 'and' needs an int, not a str"
check 'print 0 or "x";' "-e:1:9: error: operator 'or' needs an int, not a str"
check 'print "a" < 1;' "-e:1:11: error: operator '<' cannot compare str and int"
check 'print len >= len;' "-e:1:11: error: operator '>=' cannot compare function and function"
check 'print if "x" then 1 else 2;' "-e:1:10: error: condition of 'if' must be an int, not a str"
check 'print len(3);' "-e:1:7: error: len expects a str, not an int"
check 'let x = 1; let x = 2;' "-e:1:16: error: 'x' is already defined at 1:5"
check 'fn f(x) = x;
fn f(y) = y;' "-e:2:4: error: 'f' is already defined at 1:4"

# Errors inside calls are followed by a note for each active call,
# innermost first, at most four, then the outermost.
check 'fn inner(x) = x / 0;
fn outer(y) = inner(y + 1);
print outer(1);' "-e:1:17: error: division by zero
-e:2:15: note: in call to 'inner'
-e:3:7: note: in call to 'outer'"
check 'fn f(x) = len(x); print f(1);' "-e:1:11: error: len expects a str, not an int
-e:1:25: note: in call to 'f'"
check 'let f = fn (x) x / 0 in f(1);' "-e:1:18: error: division by zero
-e:1:25: note: in call to 'f'"
check 'fn down(n) = if n == 0 then missing else down(n - 1);
down(10);' "-e:1:29: error: 'missing' is not defined
-e:1:42: note: in call to 'down'
-e:1:42: note: in call to 'down'
-e:1:42: note: in call to 'down'
-e:1:42: note: in call to 'down'
-e:2:1: note: and 7 more calls, the outermost here"
check 'fn f(n) = f(n + 1);
f(0);' "-e:1:11: error: recursion too deep (more than 1000 nested calls)
-e:1:11: note: in call to 'f'
-e:1:11: note: in call to 'f'
-e:1:11: note: in call to 'f'
-e:1:11: note: in call to 'f'
-e:2:1: note: and 996 more calls, the outermost here"

# Deep expressions in deep recursion run out of C stack before 1000 calls
# (how soon depends on the build): an error, not a crash.
deep=$(printf '1 + (%.0s' $(seq 150))
close=$(printf ')%.0s' $(seq 150))
for prog in calc calc-plain; do
    n=$((n + 1))
    "$abs_top_builddir/examples/calc/$prog" -e "fn f(n) = $deep f(n + 1) $close; f(0);" \
        >"$work/$n.$prog.out" 2>"$work/$n.$prog.err"
    rc=$?
    if [ $rc -ne 1 ] ||
       ! head -1 "$work/$n.$prog.err" | grep -q '^-e:1:[0-9]*: error: evaluation too deep for the stack ([0-9]* nested calls)$' ||
       ! grep -q "^-e:1:762: note: in call to 'f'$" "$work/$n.$prog.err"; then
        echo "FAIL: $prog: deep recursion: exit status $rc,"
        head -3 "$work/$n.$prog.err"
        status=1
    fi
done

echo "$n error cases checked"
exit $status
