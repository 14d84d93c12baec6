#!/bin/sh
# SPDX-License-Identifier: MIT
# stress.sh - `make check-stress`: the races of tests/load many times over,
# with noosa and the program on one CPU and on two: one stop per event
# over many laps of the ring (ring.sh's shape), threads that come and go
# under a handler and a rare breakpoint (threads.sh's), and filters
# rewritten in the program while its threads read them (tests/cond's
# swap.sh), attaching to a program whose threads emit flat out and
# detaching, many times in a row (attach.sh's shape, ATTACH_CYCLES 10 a
# run, STRESS_ATTACH_CYCLES to change; in the first STRESS_ATTACH_RUNS
# runs only, all by default), questions counted by threads that come and go while noosa reads
# their tables at each thread's stop, a forked child followed from its
# fork on while its siblings are created, four forked workers all
# monitored at once (follow-fork both) each stopping once while the
# others run on, threads faulting in recovery points while breakpoints
# stop others (each fault converted as a stop of its own), and in a
# child while its parent waits at its event (the parent's stop told
# first), a signal handler's events of the key a thread counts in the
# program, every one in the question's table, a handler
# reading each of 8 threads' events from the emitting thread's frame
# (unwound under ptrace while the others run), 16 threads recorded by
# noosa record through a small ring
# (each thread's events whole and in its order in the recording), the
# same through the threads' own buffers with threads ending and others
# taking their buffers, and in overwrite mode (recorded and lost add up),
# and one thread keeping its buffer full of int events while noosa takes
# them one by one; eight threads hitting a USDT probe, under ptrace and
# handled in the program, every hit told; threads hitting a probe under
# ptrace in waves, with a signal and a fork each wave, told to a handler
# that lets each thread go on once its hit is read, and with a breakpoint
# a wave stopping the program while the other hits wait, every hit told
# once and every stop seen; 200 threads keeping their last
# events in their own trails while a signal handler keeps more inside
# them, then a fault; a debug adapter's session continued from stop to
# stop while pauses race the stops (tests/dap/stress.py) and the stops it
# goes on from by itself (tests/dap/pause.py); then recordings whose
# writer is killed at random moments, STRESS_KILL_RUNS (20) of each kind
# (tests/record/killed.sh).  RUNS (default 100) runs of each shape on
# each placement; the first failure's output is shown.  Not part of
# `make check`; .ci/run runs it with fewer RUNS.
. "$srcdir/tests/load/lib.sh"

RUNS=${RUNS:-100}
PT=$abs_top_builddir/tests/profile/pt
LOOP=$abs_top_builddir/bench/monitor-loop
REL=$abs_top_builddir/tests/relate/rel
ET=$abs_top_builddir/tests/errors/et-errors
ncpu=$(nproc)
placements="one"
[ "$ncpu" -ge 2 ] && placements="one two"

counts='set bad 0; for {set k 0} {$k < $T} {incr k} {
    if {![info exists c($k)] || $c($k) != $N} {incr bad}
}; puts "threads [array size c] wrong $bad"'

# place P COMMAND...: run COMMAND with noosa on CPU 0 and the program on
# CPU 0 (one) or CPU 1 (two).
place() {
    p=$1
    shift
    if [ "$p" = one ]; then
        LT_CPU=0 BENCH_CPU=0 PP_CPU=0 taskset -c 0 "$@"
    else
        LT_CPU=1 BENCH_CPU=1 PP_CPU=1 taskset -c 0 "$@"
    fi
}

start=$(date +%s)
for p in $placements; do
    ok=0
    skipped=0
    i=0
    while [ $i -lt "$RUNS" ]; do
        i=$((i + 1))
        name=ring-$p-$i
        place "$p" timeout -k 5 60 "$NOOSA" --batch -n \
            -e 'conditions noosa' -e 'break tick if {$i < 0}' -e run "$LT" loop 60000 hello 1000 \
            </dev/null >"$WORK/$name.out" 2>"$WORK/$name.err"
        echo $? >"$WORK/$name.rc"
        if [ "$(cat "$WORK/$name.rc")" = 0 ] &&
            grep -q '^loop: 60000 ticks$' "$WORK/$name.out" &&
            ! grep -q 'protocol error' "$WORK/$name.out"; then
            ok=$((ok + 1))
            rm -f "$WORK/$name".*
        else
            fail "$name"
            show "$name"
        fi

        name=threads-$p-$i
        place "$p" timeout -k 5 60 "$NOOSA" --batch -n \
            -e 'set T 16; set N 4000; set stops 0' \
            -e 'handler add tock count {global c; incr c($th)}' \
            -e 'break rare if {$i == 3999}' -e run \
            -e 'while {$n(status) eq "stopped"} {incr stops; cont}' \
            -e 'puts "stops $stops"' -e "$counts" "$LT" threads 16 4000 5 \
            </dev/null >"$WORK/$name.out" 2>"$WORK/$name.err"
        echo $? >"$WORK/$name.rc"
        if [ "$(cat "$WORK/$name.rc")" = 0 ] &&
            grep -q '^stops 16$' "$WORK/$name.out" &&
            grep -q '^threads 16 wrong 0$' "$WORK/$name.out"; then
            ok=$((ok + 1))
            rm -f "$WORK/$name".*
        else
            fail "$name"
            show "$name"
        fi

        # each event of 8 threads read from its emitting thread's frame
        # (its registers: the thread held under ptrace for the unwind
        # while the others run and emit): every event, every value right
        name=frames-$p-$i
        place "$p" timeout -k 5 60 "$NOOSA" --batch -n \
            -e 'set T 8; set N 300; set bad 0' \
            -e 'handler add tock look {global c; incr c($th); if {[n_cvalue {$pc}] == 0 || [n_cvalue -frame 0 {th}] != $th} {incr ::bad}}' \
            -e run -e 'puts "bad $bad"' -e "$counts" "$LT" threads 8 300 4 \
            </dev/null >"$WORK/$name.out" 2>"$WORK/$name.err"
        echo $? >"$WORK/$name.rc"
        if [ "$(cat "$WORK/$name.rc")" = 0 ] &&
            grep -q '^bad 0$' "$WORK/$name.out" &&
            grep -q '^threads 8 wrong 0$' "$WORK/$name.out"; then
            ok=$((ok + 1))
            rm -f "$WORK/$name".*
        else
            fail "$name"
            show "$name"
        fi

        # a question counted by 16 threads, read while the others count:
        # never going back, exact at the end
        name=question-$p-$i
        place "$p" timeout -k 5 60 "$NOOSA" --batch -n \
            -e 'set N 4000; set last 0; set back 0; set stops 0' \
            -e 'question print off' -e 'question add q tock i -by th' \
            -e 'break rare if {$i == 1999}' -e run \
            -e 'while {$n(status) eq "stopped"} {incr stops; set t 0; foreach d [question get q] {incr t [dict get $d count]}; if {$t < $last} {incr back}; set last $t; cont}' \
            -e 'set w 0; foreach d [question get q] {if {[dict get $d count] != $N || [dict get $d sum] != $N * ($N - 1) / 2} {incr w}}' \
            -e 'puts "stops $stops groups [llength [question get q]] wrong $w back $back"' \
            -e 'question show q' "$LT" threads 16 4000 5 \
            </dev/null >"$WORK/$name.out" 2>"$WORK/$name.err"
        echo $? >"$WORK/$name.rc"
        if [ "$(cat "$WORK/$name.rc")" = 0 ] &&
            grep -q '^stops 16 groups 16 wrong 0 back 0$' "$WORK/$name.out" &&
            ! grep -q 'middle of an update\|not counted' "$WORK/$name.out"; then
            ok=$((ok + 1))
            rm -f "$WORK/$name".*
        else
            fail "$name"
            show "$name"
        fi

        # attach and detach while threads emit (tests/load/attach.sh)
        name=attach-$p-$i
        if [ "${STRESS_ATTACH_CYCLES:-10}" = 0 ] ||
            [ "$i" -gt "${STRESS_ATTACH_RUNS:-$RUNS}" ]; then
            skipped=$((skipped + 1))
        elif place "$p" env ATTACH_CYCLES=${STRESS_ATTACH_CYCLES:-10} \
            srcdir="$abs_top_srcdir" top_builddir="$abs_top_builddir" \
            abs_top_srcdir="$abs_top_srcdir" abs_top_builddir="$abs_top_builddir" \
            timeout -k 5 300 sh "$abs_top_srcdir/tests/load/attach.sh" \
            >"$WORK/$name.out" 2>&1; then
            ok=$((ok + 1))
            rm -f "$WORK/$name".*
        else
            fail "$name"
            tail -40 "$WORK/$name.out"
        fi

        # follow-fork child: four workers forked at once, the first
        # followed from its fork on, each of its ticks seen
        name=follow-$p-$i
        place "$p" timeout -k 5 60 "$NOOSA" --batch -n \
            -e 'follow-fork child' -e 'set c 0' \
            -e 'handler add tick h {global c; incr c}' -e run \
            -e 'puts "ticks $c"' "$LT" workers 4 20000 \
            </dev/null >"$WORK/$name.out" 2>"$WORK/$name.err"
        echo $? >"$WORK/$name.rc"
        # (the parent, unmonitored, may say its line after noosa ended)
        k=0
        while ! grep -q '^workers: 4 ended$' "$WORK/$name.out" &&
            [ $k -lt 100 ]; do
            sleep 0.05
            k=$((k + 1))
        done
        if [ "$(cat "$WORK/$name.rc")" = 0 ] &&
            grep -q '^ticks 20000$' "$WORK/$name.out" &&
            grep -q '^workers: 4 ended$' "$WORK/$name.out" &&
            grep -q 'following it' "$WORK/$name.out"; then
            ok=$((ok + 1))
            rm -f "$WORK/$name".*
        else
            fail "$name"
            show "$name"
        fi

        # follow-fork both: four workers forked at once, each monitored
        # from its fork on, each stopping once (one at a time, the others
        # running on until their rings fill); every tick of every worker
        # counted, by worker
        name=both-$p-$i
        place "$p" timeout -k 5 120 "$NOOSA" --batch -n \
            -e 'array set c {}' \
            -e 'handler add tick h {global c; incr c($label)}' \
            -e 'break tick if {$i == 10000}' -e run \
            -e cont -e cont -e cont -e cont \
            -e 'set bad 0; foreach k {0 1 2 3} {
                    set w "worker $k"
                    if {![info exists c($w)] || $c($w) != 20000} {incr bad}
                }; puts "workers [array size c] wrong $bad"' \
            "$LT" workers 4 20000 \
            </dev/null >"$WORK/$name.out" 2>"$WORK/$name.err"
        echo $? >"$WORK/$name.rc"
        if [ "$(cat "$WORK/$name.rc")" = 0 ] &&
            grep -q '^workers 4 wrong 0$' "$WORK/$name.out" &&
            grep -q '^workers: 4 ended$' "$WORK/$name.out" &&
            [ "$(grep -c '^Stopped at breakpoint 1 .* in process [0-9]*: i=10000 ' \
                "$WORK/$name.out")" = 4 ] &&
            [ "$(sed -n 's/^Stopped at .* in process \([0-9]*\): .*/\1/p' \
                "$WORK/$name.out" | sort -u | wc -l)" = 4 ]; then
            ok=$((ok + 1))
            rm -f "$WORK/$name".*
        else
            fail "$name"
            show "$name"
        fi

        # 3 threads converting their faults (4 each) while breakpoints
        # stop them (5 each): each stop told alone, the stop at the
        # breakpoint never taken over by a fault (tests/errors/meanwhile.sh)
        name=faults-$p-$i
        place "$p" timeout -k 5 60 "$NOOSA" --batch -n -e 'errors convert' \
            -e 'set stops 0' -e 'break done if {$id % 6 == 0}' -e run \
            -e 'while {$n(status) eq "stopped"} {incr stops; puts "== go on"; cont}' \
            -e 'puts "stops $stops"' "$REL" walk 30 "$i" 3 try \
            </dev/null >"$WORK/$name.out" 2>"$WORK/$name.err"
        echo $? >"$WORK/$name.rc"
        if [ "$(cat "$WORK/$name.rc")" = 0 ] &&
            grep -q '^stops 15$' "$WORK/$name.out" &&
            [ "$(grep -c '^Program received SIGSEGV' "$WORK/$name.out")" = 12 ] &&
            [ "$(grep -c '^Converted (errors convert)' "$WORK/$name.out")" = 12 ] &&
            ! awk '/^Stopped at breakpoint/ { s = 1; next } /^== / { s = 0 }
                s && /^Program received/ { bad = 1 } END { exit !bad }' \
                "$WORK/$name.out"; then
            ok=$((ok + 1))
            rm -f "$WORK/$name".*
        else
            fail "$name"
            show "$name"
        fi

        # a child's 3 threads faulting once their parent waits at its
        # event: the parent's stop told first, then each fault converted
        # (tests/errors/meanwhile.sh)
        name=faults-forked-$p-$i
        place "$p" timeout -k 5 60 "$NOOSA" --batch -n -e 'errors convert' \
            -e 'break step if {$n == 1}' -e run -e continue "$ET" forked 3 try \
            </dev/null >"$WORK/$name.out" 2>"$WORK/$name.err"
        echo $? >"$WORK/$name.rc"
        if [ "$(cat "$WORK/$name.rc")" = 0 ] &&
            grep -m1 -E '^(Program received|Stopped at breakpoint)' \
                "$WORK/$name.out" | grep -q '^Stopped at breakpoint 1 ' &&
            [ "$(grep -c '^Converted (errors convert)' "$WORK/$name.out")" = 3 ] &&
            grep -q '^forked: the child exited with status 0$' "$WORK/$name.out"; then
            ok=$((ok + 1))
            rm -f "$WORK/$name".*
        else
            fail "$name"
            show "$name"
        fi

        # a signal handler's ticks of the loop's own key every 100 us,
        # amid a keyed question counted in the program, whose table's
        # first clearing takes milliseconds: every one in the table
        # (tests/load/signals.sh)
        name=signals-$p-$i
        place "$p" timeout -k 5 60 "$NOOSA" --batch -n -e 'question print off' \
            -e 'question add k tick i -by label -hist -keys 1024' -e run -e 'question show k' \
            "$LT" signals 500000 main </dev/null >"$WORK/$name.out" 2>"$WORK/$name.err"
        echo $? >"$WORK/$name.rc"
        alarm=$(sed -n 's/^signals: 500000 main, \([0-9]*\) alarm$/\1/p' "$WORK/$name.out")
        if [ "$(cat "$WORK/$name.rc")" = 0 ] && [ -n "$alarm" ] &&
            [ "$(awk '$1 == "main" { print $2 }' "$WORK/$name.out")" = $((500000 + alarm)) ]; then
            ok=$((ok + 1))
            rm -f "$WORK/$name".*
        else
            fail "$name"
            show "$name"
        fi

        # 16 threads recorded through a small lossless ring: every
        # worker's events whole and in its own order in the recording
        name=record-$p-$i
        rm -rf "$WORK/$name.rec"
        place "$p" timeout -k 5 60 "$NOOSA" record --ring-size=16384 \
            --shared-ring -o "$WORK/$name.rec" "$PT" threads 16 2000 \
            </dev/null >"$WORK/$name.out" 2>"$WORK/$name.err"
        echo $? >"$WORK/$name.rc"
        if [ "$(cat "$WORK/$name.rc")" = 0 ] &&
            "$NOOSA" dump "$WORK/$name.rec" >"$WORK/$name.dump" 2>>"$WORK/$name.err" &&
            [ "$(awk -v K=2000 -f "$abs_top_srcdir/tests/record/threads.awk" \
                "$WORK/$name.dump")" = "threads 16 bad 0" ]; then
            ok=$((ok + 1))
            rm -rf "$WORK/$name".*
        else
            fail "$name"
            show "$name"
        fi

        # the same through the threads' own buffers of 4 KiB, 80 threads
        # in two waves over 64 buffers (threads end, their buffers are
        # freed and taken again while others write)
        name=buffers-$p-$i
        rm -rf "$WORK/$name.rec"
        place "$p" timeout -k 5 60 "$NOOSA" record --ring-size=4096 \
            -o "$WORK/$name.rec" "$PT" waves 2 40 500 \
            </dev/null >"$WORK/$name.out" 2>"$WORK/$name.err"
        echo $? >"$WORK/$name.rc"
        if [ "$(cat "$WORK/$name.rc")" = 0 ] &&
            ! grep -q lost "$WORK/$name.err" &&
            "$NOOSA" dump "$WORK/$name.rec" >"$WORK/$name.dump" 2>>"$WORK/$name.err" &&
            [ "$(awk -v K=500 -f "$abs_top_srcdir/tests/record/threads.awk" \
                "$WORK/$name.dump")" = "threads 80 bad 0" ]; then
            ok=$((ok + 1))
            rm -rf "$WORK/$name".*
        else
            fail "$name"
            show "$name"
        fi

        # and in overwrite mode: what is recorded and what is said lost
        # add up to what the program emitted
        name=buffers-ow-$p-$i
        rm -rf "$WORK/$name.rec"
        place "$p" timeout -k 5 60 "$NOOSA" record --ring-size=4096 \
            --overwrite -o "$WORK/$name.rec" "$PT" threads 8 20000 \
            </dev/null >"$WORK/$name.out" 2>"$WORK/$name.err"
        echo $? >"$WORK/$name.rc"
        "$NOOSA" dump "$WORK/$name.rec" >"$WORK/$name.dump" 2>>"$WORK/$name.err"
        got=$(grep -c '^[0-9]' "$WORK/$name.dump")
        lost=$(sed -n 's/^# \([0-9]*\) events lost in all$/\1/p' "$WORK/$name.dump")
        if [ "$(cat "$WORK/$name.rc")" = 0 ] &&
            [ $((got + ${lost:-0})) = $((8 * (2 + 3 * 20000) + 3)) ]; then
            ok=$((ok + 1))
            rm -rf "$WORK/$name".*
        else
            fail "$name: $got recorded, ${lost:-0} lost"
            show "$name"
        fi

        # one thread writing an int event flat out into a buffer of 4 KiB
        # it keeps full: noosa takes each record as an item, stays off
        # the line being written, and must look again while the thread
        # waits for room (tests/record/buffers.sh 'hits')
        name=hits-$p-$i
        rm -rf "$WORK/$name.rec"
        place "$p" timeout -k 5 60 "$NOOSA" record --ring-size=4096 \
            --events=hit -o "$WORK/$name.rec" "$LOOP" 200000 \
            </dev/null >"$WORK/$name.out" 2>"$WORK/$name.err"
        echo $? >"$WORK/$name.rc"
        if [ "$(cat "$WORK/$name.rc")" = 0 ] &&
            grep -q "^noosa: recorded 200004 events in .* (200000 through the threads' own buffers)\$" \
                "$WORK/$name.err"; then
            ok=$((ok + 1))
            rm -rf "$WORK/$name".*
        else
            fail "$name"
            show "$name"
        fi

        # threads keeping their last events in their own trails, waves
        # of them taking the trails of ended ones, a signal handler
        # keeping more inside them, then a fault (tests/load/trails.sh)
        name=trails-$p-$i
        place "$p" timeout -k 5 60 "$NOOSA" --batch -n -e 'errors last 1000' \
            -e run "$LT" trails 200 2000 16 \
            </dev/null >"$WORK/$name.out" 2>"$WORK/$name.err"
        echo $? >"$WORK/$name.rc"
        awk -v FIRST=184 -v N=2000 -v WHOLE=0 \
            -f "$abs_top_srcdir/tests/load/trails.awk" "$WORK/$name.out" \
            >>"$WORK/$name.out"
        if [ "$(cat "$WORK/$name.rc")" = 1 ] &&
            grep -q '^trails: 200 threads' "$WORK/$name.out" &&
            grep -Eq '^trails threads [0-9]+ last-wave [1-9][0-9]* gaps 0 bad 0$' \
                "$WORK/$name.out"; then
            ok=$((ok + 1))
            rm -f "$WORK/$name".*
        else
            fail "$name"
            show "$name"
        fi

        # filters rewritten under threads reading them (tests/cond/swap.sh)
        name=swap-$p-$i
        if place "$p" env COND_SEED=$i SWAP_N=1500 \
            srcdir="$abs_top_srcdir" top_builddir="$abs_top_builddir" \
            abs_top_srcdir="$abs_top_srcdir" abs_top_builddir="$abs_top_builddir" \
            timeout -k 5 120 sh "$abs_top_srcdir/tests/cond/swap.sh" \
            >"$WORK/$name.out" 2>&1; then
            ok=$((ok + 1))
            rm -f "$WORK/$name".*
        else
            fail "$name"
            tail -40 "$WORK/$name.out"
        fi

        # USDT probes <design#probes>: eight threads hit a probe 1000
        # times each, under ptrace (breakpoints, a thread at a time) and
        # handled in the program (trampolines, the ring); every hit told
        for prog in pp-main pp-rt; do
            name=probes-$prog-$p-$i
            place "$p" timeout -k 5 120 "$NOOSA" --batch -n \
                -e 'set T 8; set N 1000' \
                -e 'handler add thread h {incr ::c($arg1)}' -e run \
                -e "$counts" "$abs_top_builddir/tests/probes/$prog" threads 8 \
                </dev/null >"$WORK/$name.out" 2>"$WORK/$name.err"
            echo $? >"$WORK/$name.rc"
            if [ "$(cat "$WORK/$name.rc")" = 0 ] &&
                grep -q '^threads 8 wrong 0$' "$WORK/$name.out"; then
                ok=$((ok + 1))
                rm -f "$WORK/$name".*
            else
                fail "$name"
                show "$name"
            fi
        done

        # USDT probes under ptrace in waves of 8 threads (20 waves, 100
        # hits a thread), a signal and a fork each wave: to a handler
        # that does not stop, and with a breakpoint on a hit a wave
        for brk in "" 'break thread if {$arg2 == 50 && $arg1 % 8 == 5}'; do
            name=probes-waves-$p-$i${brk:+-break}
            place "$p" timeout -k 5 120 "$NOOSA" --batch -n \
                -e 'set T 160; set N 100; set stops 0' \
                -e 'handler add thread h {incr ::c($arg1)}' \
                -e "${brk:-set brk none}" -e run \
                -e 'while {$n(status) eq "stopped"} {incr stops; cont}' \
                -e 'puts "stops $stops"' \
                -e "$counts" "$abs_top_builddir/tests/probes/pp-main" waves 20 \
                </dev/null >"$WORK/$name.out" 2>"$WORK/$name.err"
            echo $? >"$WORK/$name.rc"
            stops=0
            [ -n "$brk" ] && stops=20
            if [ "$(cat "$WORK/$name.rc")" = 0 ] &&
                grep -q '^waves 20 signals 20$' "$WORK/$name.out" &&
                grep -q "^stops $stops\$" "$WORK/$name.out" &&
                grep -q '^threads 160 wrong 0$' "$WORK/$name.out"; then
                ok=$((ok + 1))
                rm -f "$WORK/$name".*
            else
                fail "$name"
                show "$name"
            fi
        done

        # the debug adapter's stops and continues, pauses racing them
        # (tests/dap/stress.py), and pauses racing the stops it goes on
        # from by itself (tests/dap/pause.py): the whole session on CPU
        # 0, or on two
        name=dap-$p-$i
        cpus=0
        [ "$p" = two ] && cpus=0,1
        if DAP_SEED=$i WORK="$WORK" abs_top_builddir="$abs_top_builddir" \
            taskset -c $cpus timeout -k 5 120 "${PYTHON3:-python3}" \
            "$abs_top_srcdir/tests/dap/stress.py" >"$WORK/$name.out" 2>&1 &&
            DAP_SEED=$i abs_top_srcdir="$abs_top_srcdir" \
            abs_top_builddir="$abs_top_builddir" \
            taskset -c $cpus timeout -k 5 120 "${PYTHON3:-python3}" \
            "$abs_top_srcdir/tests/dap/pause.py" >>"$WORK/$name.out" 2>&1; then
            ok=$((ok + 1))
            rm -f "$WORK/$name".* "$WORK"/stress-*.log
        else
            fail "$name"
            tail -40 "$WORK/$name.out"
        fi
    done
    note=
    [ "$skipped" -gt 0 ] &&
        note=" ($skipped attach runs skipped: STRESS_ATTACH_CYCLES or STRESS_ATTACH_RUNS)"
    echo "$p CPU: $ok of $((21 * RUNS - skipped)) runs passed$note"
done
# recordings whose writer is killed at random moments
# (tests/record/killed.sh, STRESS_KILL_RUNS kills of each kind)
if env KILL_RUNS=${STRESS_KILL_RUNS:-20} srcdir="$abs_top_srcdir" \
    top_builddir="$abs_top_builddir" abs_top_srcdir="$abs_top_srcdir" \
    abs_top_builddir="$abs_top_builddir" \
    sh "$abs_top_srcdir/tests/record/killed.sh" >"$WORK/killed.out" 2>&1; then
    echo "killed recordings: $(grep "recordings readable" "$WORK/killed.out")"
else
    fail "killed recordings"
    tail -40 "$WORK/killed.out"
fi
echo "stress: $(($(date +%s) - start)) s"
finish
