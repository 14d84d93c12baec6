#!/bin/sh
# SPDX-License-Identifier: MIT
# screen-run.sh - the screen's benchmarks (make bench-screen):
#
#  1. a long transcript: bench/screen-bench (the real screen drawing into
#     /dev/null) with a million lines against a thousand.
#  2. flat out: noosa's screen in a real terminal (tmux, 160x50) running
#     bench/monitor-loop, which emits N_FLAT events as fast as it can,
#     with a handler printing a line for each.  Every event must give its
#     line (the transcript's lines against the events), the screen must
#     be drawn at a bounded rate (draws a second), and the time against
#     the same run in batch mode (the baseline) says what the screen
#     costs.  Then the same again with the program writing a coloured
#     line to its terminal every N_EVERY events (the output pane, a
#     terminal emulator, keeping up with it).
#  3. responsiveness: while the loop runs flat out (N_BUSY events), a key
#     typed on the command line shows within KEY ms, against the same
#     key typed while nothing runs (tmux polled every few ms).
set -e
B=${top_builddir:-.}/bench
NOOSA=$(cd "${top_builddir:-.}" && pwd)/src/noosa
LOOP=$(cd "$B" && pwd)/monitor-loop
N_LINES=${N_LINES:-1000000}
N_FLAT=${N_FLAT:-500000}
N_BUSY=${N_BUSY:-3000000}
N_EVERY=${N_EVERY:-10}
TCLSH=${TCLSH:-tclsh}

echo "== a long transcript"
"$B/screen-bench" "$N_LINES"

tmux_bin=${TMUX:-tmux}
unset TMUX
if [ "$tmux_bin" = no ] || ! command -v "$tmux_bin" >/dev/null 2>&1; then
    echo "tmux not found: the terminal benchmarks are skipped"
    exit 0
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/noosa-bench-screen.XXXXXX")
sock=noosa-bench-$$
T() { "$tmux_bin" -L "$sock" -f /dev/null "$@"; }
trap 'T kill-server >/dev/null 2>&1; rm -rf "$work" "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$sock"' EXIT
mkdir -p "$work/home"
now() { date +%s%N; }

# Run noosa ARGS... in a 160x50 terminal.
start() {
    T kill-session -t b >/dev/null 2>&1 || true
    {
        echo "#!/bin/sh"
        echo "cd '$work'; export HOME='$work/home' TERM=screen"
        printf "'%s'" "$NOOSA"
        for a in "$@"; do printf " '%s'" "$a"; done
        echo
        echo "exec sleep 3600"
    } > "$work/run.sh"
    # the server outlives its sessions (as in tests/screen/lib.sh)
    T new-session -d -s b -x 160 -y 50 "sh '$work/run.sh'" \; \
        set-option -g exit-empty off
}
wait_for() { # wait_for TEXT
    i=0
    until T capture-pane -p -t b | grep -qF -- "$1"; do
        i=$((i + 1))
        [ $i -lt 6000 ] || { echo "timed out waiting for $1"; exit 1; }
        sleep 0.05
    done
}
field() { # field KEY DICT
    echo "$2" | tr ' ' '\n' | awk -v k="$1" 'p { print; exit } $0 == k { p = 1 }'
}

# flat_out LABEL EVERY: the loop flat out, in batch mode and in the
# screen; with EVERY > 0 the program also writes a line to its terminal
# every EVERY events (coloured, as a program's progress lines are).
flat_out() {
label=$1
every=$2
echo "== flat out ($N_FLAT events, a handler printing a line for each$label)"
handler='handler add hit show {n_say "hit $n\n"}'
# noosa's own CPU time (user and system, ms), robust to a loaded machine
cpu='proc cpu {} {set f [open /proc/self/stat]; set s [read $f]; close $f; set s [string range $s [expr {[string last ")" $s] + 2}] end]; expr {([lindex $s 11] + [lindex $s 12]) * 1000 / 100}}'
# from just before run to the end event (finit), in both modes; nothing
# else is printed meanwhile
"$NOOSA" -b -n --lines=$((N_FLAT + 1000)) -e "$cpu" -e "$handler" \
    -e 'handler add finit done {set ::t1 [clock microseconds]; set ::c1 [cpu]}' \
    -e 'apply {{} {set ::t0 [clock microseconds]; set ::c0 [cpu]; return}}; run' \
    -e 'puts stderr "[expr {$::c1 - $::c0}] [expr {($::t1 - $::t0) / 1000}]"' \
    "$LOOP" "$N_FLAT" "$every" > "$work/batch.out" 2> "$work/batch.err"
batch_ms=$(tail -1 "$work/batch.err" | cut -d' ' -f2)
batch_cpu=$(tail -1 "$work/batch.err" | cut -d' ' -f1)
batch_lines=$(grep -c '^hit ' "$work/batch.out" || true)

rm -f "$work/result"
start -n --lines=$((N_FLAT + 1000)) -e "$cpu" -e "$handler" \
    -e 'handler add finit done {set ::t1 [clock microseconds]; set ::c1 [cpu]; set ::s1 [screen stats]}' \
    -e 'apply {{} {set ::s0 [screen stats]; set ::c0 [cpu]; set ::t0 [clock microseconds]; return}}; run' \
    "$LOOP" "$N_FLAT" "$every"
wait_for "exited with status 0"
T send-keys -t b -l "set f [open $work/result w]; puts \$f [list \$::t0 \$::t1 \$::s0 \$::s1 [expr {\$::c1 - \$::c0}]]; close \$f"
T send-keys -t b Enter
i=0
until [ -s "$work/result" ]; do
    i=$((i + 1)); [ $i -lt 200 ] || { echo "no result"; exit 1; }; sleep 0.05
done
r=$(cat "$work/result")
set -- $(echo "puts [apply {{r} {
    lassign \$r t0 t1 s0 s1 cpu
    set ms [expr {(\$t1 - \$t0) / 1000.0}]
    set draws [expr {[dict get \$s1 draws] - [dict get \$s0 draws]}]
    set lines [expr {[dict get \$s1 lines] - [dict get \$s0 lines]}]
    set events [expr {[dict get \$s1 events] - [dict get \$s0 events]}]
    return [list \$ms \$draws \$lines \$events [dict get \$s1 fps] \$cpu]
}} {$r}]" | "$TCLSH")
screen_ms=$1 draws=$2 lines=$3 events=$4 fps=$5 screen_cpu=$6
awk -v sm="$screen_ms" -v bm="$batch_ms" -v d="$draws" -v l="$lines" \
    -v e="$events" -v n="$N_FLAT" -v bl="$batch_lines" -v fps="$fps" \
    -v sc="$screen_cpu" -v bc="$batch_cpu" 'BEGIN {
    printf "batch mode (baseline): %d ms, %d lines of %d events\n", bm, bl, n
    printf "screen:                %d ms, %d lines of %d events (%d items delivered)\n", sm, l, n, e
    printf "ratio screen / batch:  %.2f\n", sm / bm
    printf "events per second:     %.0f in the screen, %.0f in batch mode\n", n / (sm / 1000), n / (bm / 1000)
    printf "draws:                 %d in %.1f s: %.1f a second (limit %d)\n", d, sm / 1000, d / (sm / 1000), fps
    printf "lines lost:            %d\n", n - l
    printf "noosa CPU time:        %d ms in the screen (%.2f us an event), %d ms in batch mode\n", sc, sc * 1000 / n, bc
}'
}

flat_out "" 0
flat_out "; the program writing a line every $N_EVERY" "$N_EVERY"

echo "== a key on the command line, idle and while $N_BUSY events go by"
latency() { # the ms until the command line shows the key X typed now
    t0=$(now)
    T send-keys -t b -l x
    until T capture-pane -p -t b | tail -2 | head -1 | grep -q 'x$'; do :; done
    t1=$(now)
    T send-keys -t b BSpace
    until ! T capture-pane -p -t b | tail -2 | head -1 | grep -q 'x$'; do :; done
    echo $(( (t1 - t0) / 1000 ))
}
start -n -e "$handler" "$LOOP" "$N_BUSY"
wait_for "(noosa)"
idle=""
for k in 1 2 3 4 5; do idle="$idle $(latency)"; done
T send-keys -t b F5
wait_for " running"
sleep 0.5
busy=""
for k in 1 2 3 4 5; do busy="$busy $(latency)"; done
if T capture-pane -p -t b | head -1 | grep -q " running"; then
    state="still running after the samples"
else
    state="the program had ended before the last sample: raise N_BUSY"
fi
med() { printf '%s\n' "$@" | sort -n | sed -n '3p'; }
max() { printf '%s\n' "$@" | sort -n | tail -1; }
# shellcheck disable=SC2086
awk -v im="$(med $idle)" -v ix="$(max $idle)" -v bm="$(med $busy)" \
    -v bx="$(max $busy)" -v st="$state" 'BEGIN {
    printf "idle: median %.1f ms (max %.1f)\n", im / 1000, ix / 1000
    printf "busy: median %.1f ms (max %.1f); %s\n", bm / 1000, bx / 1000, st
    printf "ratio busy / idle (medians): %.2f\n", bm / im
}'
T send-keys -t b F9
T send-keys -t b F10
