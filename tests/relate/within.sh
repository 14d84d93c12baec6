#!/bin/sh
# SPDX-License-Identifier: MIT
# within.sh - -within and -outside on breakpoints, handlers, the trace and
# questions <design#relations>: each gives the events of a thread inside
# (outside) a component, the same in the program and in noosa
# (`conditions noosa`, its own stacks) and in a recording played back,
# against the reference's lists from the recording; with a condition
# besides; listings say the component and where it is tested; the
# measurement window (question window on|off|-from|-to); and bad words
# refused with their reasons.  REL_SEED=N repeats a run.
. "$srcdir/tests/relate/lib.sh"

seed=${REL_SEED:-$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')}
echo "seed $seed (REL_SEED=$seed repeats this run)"

# One thread: its events in order.  Handlers within and outside, the
# program deciding; a breakpoint's first stops; the trace; a question.
batch prog -e 'errors convert' -e "record start $WORK/prog.rec" \
    -e 'handler add tick w {puts "ans hw $i"} -within lookup' \
    -e 'handler add miss o {puts "ans ho $key"} -outside parse' \
    -e 'handler add tick c {puts "ans hc $i"} -within parse -if {$v > 0}' \
    -e 'trace on ^miss$ -within cache' \
    -e 'question add qw tick -within lookup' \
    -e 'handler list' -e 'trace' -e run \
    -e 'puts "ans qw [dict get [lindex [question get qw] 0] count]"' \
    -e 'question show qw' \
    "$REL" walk 40 "$seed" 1 try
status prog 0
sed -n 's/^miss key=\([0-9]*\) .*/ans tr \1/p' "$WORK/prog.out" >>"$WORK/prog.out"
reference prog list:hw:tick:i:within:lookup list:ho:miss:key:outside:parse \
    list:tr:miss:key:within:cache count:qw:tick:within:lookup \
    'list:hc:tick:i:within:parse:v > 0'
same prog
has prog '^tick [0-9] "w" enabled, does not stop'
has prog '^    -within lookup$'
has prog '^    -outside parse$'
has prog 'condition runs in the program'
has prog 'trace is on: events matching \^miss\$ -within cache'
has prog '^question qw: count of tick within lookup$'
has prog '^  checked [0-9]+, recorded [0-9]+$'
# checked: every tick; recorded: those within lookup
ticks=$(grep -c ' tick i=' "$WORK/prog.dump")
qw=$(sed -n 's/^ans qw //p' "$WORK/prog.out")
has prog "^  checked $ticks, recorded $qw\$"

# The same in noosa, from its own stacks: the same lists.
batch noosa -e 'errors convert' -e 'conditions noosa' \
    -e 'handler add tick w {puts "ans hw $i"} -within lookup' \
    -e 'handler add miss o {puts "ans ho $key"} -outside parse' \
    -e 'trace on ^miss$ -within cache' \
    -e 'handler list' -e run "$REL" walk 40 "$seed" 1 try
status noosa 0
sed -n 's/^miss key=\([0-9]*\) .*/ans tr \1/p' "$WORK/noosa.out" >>"$WORK/noosa.out"
grep -E '^ref (hw|ho|tr) ' "$WORK/prog.ref" >"$WORK/noosa.ref"
same noosa
has noosa 'condition runs in noosa'

# A recording played back: noosa's stacks again, from the recording.
batch replay -e 'handler add tick w {puts "ans hw $i"} -within lookup' \
    -e 'handler add miss o {puts "ans ho $key"} -outside parse' \
    -e run "$WORK/prog.rec"
status replay 0
grep -E '^ref (hw|ho) ' "$WORK/prog.ref" >"$WORK/replay.ref"
same replay

# A breakpoint within a component: its stops are the reference's first
# ticks within lookup, in order.
batch brk -e 'errors convert' -e 'break tick -within lookup' -e 'info breakpoints' -e run \
    -e 'for {set k_ 0} {$k_ < 4} {incr k_} {puts "ans hw $ev(i)"; ::noosa::cmd::continue}' \
    "$REL" walk 40 "$seed" 1 try
status brk 0
grep -E '^ref hw ' "$WORK/prog.ref" | head -4 >"$WORK/brk.ref"
same brk
has brk '^1 +y +0 +tick -within lookup$'

# Threads: the question within and outside, each thread's own stack.
batch threads -e 'errors convert' -e "record start $WORK/threads.rec" \
    -e 'question add qw tick -within parse -by thread' \
    -e 'question add qo miss -outside cache' -e 'question print off' -e run \
    -e "$(answers qo)" \
    -e 'set t_ 0; foreach d_ [question get qw] {incr t_ [dict get $d_ count]}; puts "ans qw $t_"' \
    "$REL" walk 30 "$seed" 4 try
status threads 0
reference threads count:qw:tick:within:parse count:qo:miss:outside:cache
same threads

# The measurement window: opened by each miss, closed by each done, on
# one thread, for every question; off counts nothing; on again counts.
batch window -e 'errors convert' -e "record start $WORK/window.rec" \
    -e 'question window -from miss -to done' -e 'question add w tick' \
    -e 'question add all tick -within request' -e 'puts "window: [question window]"' \
    -e 'question print off' -e run \
    -e 'puts "ans w [dict get [lindex [question get w] 0] count]"' \
    -e 'puts "ans all [dict get [lindex [question get all] 0] count]"' \
    "$REL" walk 40 "$seed" 1
status window 0
reference window window:w:tick:miss:done window:all:tick:miss:done
same window
has window '^window: opened by miss, closed by done$'
batch off -e 'question window off' -e 'question add w tick' -e 'question print off' \
    -e 'puts "window: [question window]"' -e 'break done if {$id == 20}' -e run \
    -e 'puts "before [llength [question get w]] [question window]"' \
    -e 'question window on' -e 'delete 1' -e continue \
    -e 'puts "after [dict get [lindex [question get w] 0] count]"' \
    "$REL" walk 40 "$seed" 1
status off 0
has off '^window: closed: questions count nothing$'
has off '^before 0 closed'
has off '^after [1-9][0-9]*$'

# Bad words, each with its reason.
batch bad -e 'catch {::noosa::cmd::break tick -within} m; puts $m' \
    -e 'catch {::noosa::cmd::break tick -within ""} m; puts $m' \
    -e 'catch {::noosa::cmd::break tick -within a -outside b} m; puts $m' \
    -e 'catch {handler add tick h {} -within} m; puts $m' \
    -e 'catch {handler add tick h {} -within a -outside b} m; puts $m' \
    -e 'catch {question add q tick -within} m; puts $m' \
    -e 'catch {question add q tick -within a -within b} m; puts $m' \
    -e 'catch {::noosa::cmd::trace on -within} m; puts $m' \
    -e 'catch {question window -from nosuch -to done} m; puts $m' \
    -e 'catch {question window -from miss} m; puts $m' \
    -e 'catch {question window sideways} m; puts $m' \
    -e 'catch {n_install_handler {tick 0 h 1 {} {} {-inside x}}} m; puts $m' \
    -e "catch {question add q tick -within [string repeat x 130]} m; puts \$m" \
    -e 'catch {handler add tick h {} -outside ""} m; puts $m' \
    -e 'catch {::noosa::cmd::trace on -within ""} m; puts $m' \
    -e run "$REL" walk 2 1 1
status bad 0
has bad 'wrong # args: should be "break EVENT \?if CONDITION\? .*-within\|-outside COMPONENT'
has bad 'break: -within needs a component'
has bad 'break: one -within or -outside at most'
has bad 'handler add: -within needs a component'
has bad 'handler add: one -within or -outside at most'
has bad 'question: -within needs a value'
has bad 'question: one -within or -outside at most'
has bad 'trace on: -within needs a value'
has bad 'no event "nosuch"'
has bad 'should be "question window \?on\|off\|-from EVENT -to EVENT\?"'
has bad 'n_install_handler: expected \{-within COMPONENT\} or \{-outside COMPONENT\}'
has bad 'question: -within "x+\.\.\.": a component.s name is 1 to 119 bytes'
has bad 'handler add: -outside needs a component'
has bad 'trace on: -within needs a component'
finish
