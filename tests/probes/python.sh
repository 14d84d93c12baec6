#!/bin/sh
# SPDX-License-Identifier: MIT
# python.sh - noosa sees the probe hits of Debian's python3 that gdb's
# `break -probe-stap' sees on the same script, with the same values
# (strings as text, from the shipped hints): gc__start with its
# generation, import__find__load__start with the module's name,
# function__entry with its file, function and line.  And `profile time
# on' gives the components that function__entry and function__return
# enter and leave, where they fire (CPython 3.11 fires the entry only for
# frames it enters from C).  Skipped with a message when there is no
# /usr/bin/python3 with probes, or no gdb.

. "${srcdir:-.}/tests/probes/lib.sh"

PY=/usr/bin/python3
if [ ! -x "$PY" ] || ! readelf -n "$(readlink -f "$PY")" 2>/dev/null |
    grep -q 'Provider: python'; then
    echo "SKIP: $PY has no USDT probes (Debian's python3 has them)"
    exit 77
fi
if ! command -v gdb >/dev/null 2>&1; then
    echo "SKIP: gdb is not installed (Debian package gdb)"
    exit 77
fi

cat >script.py <<'PY'
import gc
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
print(fib(10))
gc.collect()
import json
PY

cat >gdb.cmd <<'GDB'
set pagination off
set confirm off
break -probe-stap python:gc__start
commands
silent
printf "gc__start generation=%d\n", $_probe_arg0
continue
end
break -probe-stap python:import__find__load__start
commands
silent
printf "import__find__load__start modulename=%s\n", (char *)$_probe_arg0
continue
end
break -probe-stap python:function__entry
commands
silent
printf "function__entry filename=%s funcname=%s lineno=%d\n", (char *)$_probe_arg0, (char *)$_probe_arg1, $_probe_arg2
continue
end
run
GDB
timeout 300 gdb -batch -nx -x gdb.cmd --args "$PY" -S script.py >gdb.out 2>&1
grep -E '^(gc__start|import__find__load__start|function__entry) ' gdb.out \
    >gdb.values

batch py -e 'trace on {^(gc__start|import__find__load__start|function__entry)$}' \
    -e run "$PY" -S script.py
status py 0
sed -E 's/="([^"]*)"/=\1/g' py.out |
    grep -E '^(gc__start|import__find__load__start|function__entry) ' \
        >noosa.values

[ -s gdb.values ] || fail "gdb saw no hit: $(tail -20 gdb.out)"
grep -q '^gc__start generation=2' gdb.values ||
    fail "gdb saw no gc__start of generation 2: $(cat gdb.values)"
grep -q '^import__find__load__start modulename=json' gdb.values ||
    fail "gdb saw no import of json: $(cat gdb.values)"
diff gdb.values noosa.values >/dev/null ||
    fail "noosa's hits are not gdb's: $(diff gdb.values noosa.values | head -20)"
has py 55
echo "python.sh: $(wc -l <noosa.values) hits, as gdb's"

# the profile of the components where the probes fire
cat >prof.tcl <<'TCL'
profile time on
profile print off
run
foreach row [profile get time] {
    puts "row [dict get $row name] [dict get $row calls]"
}
TCL
batch prof -x prof.tcl "$PY" -S script.py
status prof 0
for name in $(sed -n 's/^function__entry filename=\(.*\) funcname=\([^ ]*\) .*/\1:\2/p' \
    gdb.values | sort -u | grep -v ' '); do
    calls=$(grep -c "^function__entry filename=${name%%:*} funcname=${name#*:} " gdb.values)
    has prof "row $name $calls"
done
[ "$failures" = 0 ] || exit 1
