#!/bin/sh
# SPDX-License-Identifier: MIT
# frames.sh - the frames of a stop as gdb shows them: bt (each frame's
# arguments, entry values at -O2), bt full (and the locals), frame, up
# and down at dv's visit event, compared with gdb at the same place from
# the program's frame out; bt N and bt -N; selecting past either end;
# info frame; a fault inside an event's generated encoder (a bad string);
# the program's own frame selected at an attach stop (dv
# sleeping in the C library), also when the program has no debug
# information or no symbols at all.
. "${srcdir:-.}/tests/debug/lib.sh"

if ! have_gdb; then
    echo "SKIP: gdb does not run here: noosa's frames are compared with gdb's"
    exit 77
fi

printf 'break visit\nrun\ncontinue\n' >"$WORK/n-before"
printf 'kill\n' >"$WORK/n-after"
printf '%s\n' 'break main' run 'set var dv_dapto_state[0] = 1' \
    'break dv_dapto_emit_visit' continue continue 'frame 2' >"$WORK/g-before"
printf '%s\n' 'p 12345' bt 'bt full' up 'info locals' down 'frame 1' \
    'frame 0' >"$WORK/n-cmds"
# gdb's frames are two more (the emitter and its stub, the runtime's)
printf '%s\n' 'p 12345' bt 'bt full' up 'info locals' down 'frame 3' \
    'frame 2' >"$WORK/g-cmds"

# gdb's lines as noosa numbers its frames: from the program's frame,
# whose number there is 2
renumber() {
    awk '
    /^#[0-9]+ / {
        n = substr($1, 2) - 2
        if (n < 0) { skip = 1; next }
        skip = 0
        sub(/^#[0-9]+ +/, sprintf("#%-2d ", n))
        print
        next
    }
    /^        / && skip { next }
    /^No locals\.$/ && skip { next }
    { skip = 0; print }'
}

for bin in dv dv-O2; do
    noosa_with "$bin" "$abs_top_builddir/tests/debug/$bin" "$WORK/n-before" \
        "$WORK/n-cmds" "$WORK/n-after"
    gdb_with "$bin" "$abs_top_builddir/tests/debug/$bin" "$WORK/g-before" \
        "$WORK/g-cmds"
    sed -n '/^\$1 = 12345$/,$p' "$WORK/$bin.out" | grep -v \
        -e '^Program killed' -e '^Backtrace of thread' | sed 's/^  //' |
        normalise_values >"$WORK/$bin.noosa"
    sed -n '/^\$1 = 12345$/,$p' "$WORK/$bin.gdb" |
        grep -v -e '^\[Inferior' -e '^$' | renumber |
        normalise_values >"$WORK/$bin.want"
    if ! grep -q '^#1 .* main (' "$WORK/$bin.want"; then
        fail "$bin: gdb showed no frames:"
        cat "$WORK/$bin.gdb"
    elif diff -u "$WORK/$bin.want" "$WORK/$bin.noosa" >"$WORK/$bin.diff"; then
        echo "ok: $bin: bt, bt full, frame, up, down as gdb shows them"
    else
        fail "$bin: noosa and gdb differ (gdb -, noosa +):"
        cat "$WORK/$bin.diff"
    fi
done
# at -O2 the arguments' entry values are known from the call site
has dv-O2 '^  #0  walk \(n=0x[0-9a-f]+ <nodes\+104>, n@entry=0x[0-9a-f]+ <nodes>, limit=limit@entry=4\)'

# bt N, bt -N, the ends, info frame, a frame that is not there
printf '%s\n' 'bt 1' 'bt -1' 'up 5' 'up' 'down 7' 'down' 'frame 9' \
    'info frame' >"$WORK/cmds"
noosa_with ends "$DV" "$WORK/n-before" "$WORK/cmds" "$WORK/n-after"
count ends 1 '^  #0 .* walk \(n=0x[0-9a-f]+ <nodes\+104>, limit=4\) at .*dv\.c:[0-9]+$'
count ends 1 '^  #1 .* main \(argc=1, argv=0x[0-9a-f]+\) at .*dv\.c:[0-9]+$'
count ends 1 '^  \(More stack frames follow\.\.\.\)$'
count ends 1 '^#1  0x[0-9a-f]+ in main \(argc=1, argv=0x[0-9a-f]+\) at .*dv\.c:[0-9]+$'
count ends 1 '^error: Initial frame selected; you cannot go up\.$'
count ends 1 '^error: Bottom \(innermost\) frame selected; you cannot go down\.$'
count ends 1 '^error: No frame at level 9\.$'
has ends '^Stack level 0, frame at 0x[0-9a-f]+:$'
has ends '^ rip = 0x[0-9a-f]+ in walk \(.*dv\.c:[0-9]+\); saved rip = 0x[0-9a-f]+$'
has ends '^ Arglist at 0x[0-9a-f]+, args: n=0x[0-9a-f]+ <nodes\+104>, limit=4$'
has ends '^ Saved registers:$'
has ends '^  rbp at 0x[0-9a-f]+, rip at 0x[0-9a-f]+$'

# An attach stop: the thread sleeps in the C library; the program's own
# frame is selected, and bt starts where the thread is.
attach_at() {
    name=$1
    prog=$2
    rm -f "$WORK/$name.pid"
    "$prog" wait "$WORK/$name.pid" >/dev/null &
    pid=$!
    n=0
    while [ ! -s "$WORK/$name.pid" ] && [ $n -lt 500 ]; do
        sleep 0.01
        n=$((n + 1))
    done
    timeout -k 5 "$LIMIT" "$NOOSA" --batch -n -p "$pid" -e 'frame' -e 'bt' \
        -e 'p n->name' -e 'p rounds > 0' -e 'p file' -e 'info locals' \
        -e 'detach' </dev/null >"$WORK/$name.out" 2>"$WORK/$name.err"
    echo $? >"$WORK/$name.rc"
    kill "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
}

attach_at attach "$DV"
has attach '^#[0-9]+ +0x[0-9a-f]+ in wait_here \(n=0x[0-9a-f]+ <nodes\+104>, file=0x[0-9a-f]+ "[^"]*attach\.pid"\) at .*dv\.c:[0-9]+$'
has attach '^  #0  0x[0-9a-f]+ in .*(nanosleep|usleep).* \('
has attach '^\$1 = "node1(\\000)+"$'
has attach '^\$2 = 1$'
has attach '^rounds = [0-9]+$'
status attach 0

# an event given a name at an address nothing maps, at -O2: the fault is
# in its generated encoder, which reads the string into the thread's trail
# (kept by default), the program's frame that emitted it next
printf '%s\n' 'errors ask' 'run badname' bt kill >"$WORK/cmds"
noosa_with badname "$DV2" "$WORK/cmds"
has badname '^Program received SIGSEGV \(fault address 0x8\) in thread [0-9]+\.$'
has badname '^  #0  0x[0-9a-f]+ in dv_dapto_keep_visit \(\) at '
has badname '^  #1  0x[0-9a-f]+ in main \(\) at '
has badname '^  #3  main \(argc=2, '
count badname 1 '^Program killed by SIGKILL\.$'

# without debug information: functions by their symbols, no variables
nodebug
attach_at attach-nodebug "$WORK/dv-nodebug"
has attach-nodebug '^#[0-9]+ +0x[0-9a-f]+ in wait_here \(\)$'
has attach-nodebug '^error: No symbol "n" in current context \(the program has no debug information: build it with -g\)\.$'
has attach-nodebug "^error: 'rounds' has|^error: No symbol \"rounds\""
has attach-nodebug '^No symbol table info available\.$'

# stripped of every symbol: noosa cannot attach to it (it finds the
# runtime by its symbols), but it runs it; at its fault, frames are
# addresses, names are not there, and the session goes on
stripped
printf '%s\n' 'errors ask' 'run crash' bt 'p local' 'info locals' 'frame 1' \
    'p 6 * 7' kill >"$WORK/cmds"
noosa_with stripped "$WORK/dv-stripped" "$WORK/cmds"
has stripped '^  #0  0x[0-9a-f]+ in \?\? \(\)$'
has stripped '^error: No symbol "local" in current context \(the program has no debug information: build it with -g\)\.$'
has stripped '^No symbol table info available\.$'
has stripped '^#1  0x[0-9a-f]+ in '
has stripped '^\$1 = 42$'
count stripped 1 '^Program killed by SIGKILL\.$'

finish
