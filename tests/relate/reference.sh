#!/bin/sh
# SPDX-License-Identifier: MIT
# reference.sh - every relation's answers against a reference computed
# apart (reference.py) from a recording of the same run (noosa dump): the
# program rel walks nested components at random on three threads, with
# recursion (parse inside parse), components left by a longjmp, and
# faults inside components that noosa converts to the failure of their
# recovery point; derived events of every relation, with parts that are
# events and components, and questions within and outside components and
# on derived events, all answered in the program.  The same with relf,
# whose components are its functions (-finstrument-functions): the same
# answers.  REL_SEED=N repeats a run.
. "$srcdir/tests/relate/lib.sh"

seed=${REL_SEED:-$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')}
echo "seed $seed (REL_SEED=$seed repeats this run)"
LIMIT=240

SPECS="derive:pc:contains:c:parse:e:miss:key>3
derive:pcall:calls:c:parse:e:tick
derive:mb:before:e:miss:e:tick:request
derive:rc:contains:c:request:c:lookup
derive:pb:before:c:parse:e:miss
derive:cc:calls:c:request:c:cache
derive:rr:contains:c:parse:c:parse
derive:ll:before:c:lookup:c:lookup:request
count:qw:tick:within:parse
count:qo:tick:outside:parse
sum:qs:tick:v:within:parse:v>0
by:qk:miss:key:within:cache
by:qr:req:id:outside:parse
derivedby:qpc:pc:key
derivedby:qrr:rr:b_count"

walk() {
    name=$1
    prog=$2
    batch "$name" -e 'errors convert' -e "record start $WORK/$name.rec" \
        -e 'derive pc parse -contains miss -if {$key > 3}' \
        -e 'derive pcall parse -calls tick' \
        -e 'derive mb miss -before tick -within request' \
        -e 'derive rc request -contains lookup' \
        -e 'derive pb parse -before miss' \
        -e 'derive cc request -calls cache' \
        -e 'derive rr parse -contains parse' \
        -e 'derive ll lookup -before lookup -within request' \
        -e 'question add qw tick -within parse' \
        -e 'question add qo tick -outside parse' \
        -e 'question add qs tick v -within parse -if {$v > 0}' \
        -e 'question add qk miss -by key -within cache' \
        -e 'question add qr req -by id -outside parse' \
        -e 'question add qpc pc -by key' \
        -e 'question add qrr rr -by b_count' \
        -e 'question print off' -e run \
        -e 'puts "ans qw [dict get [lindex [question get qw] 0] count]"' \
        -e 'puts "ans qo [dict get [lindex [question get qo] 0] count]"' \
        -e 'puts "ans qs [dict get [lindex [question get qs] 0] sum]"' \
        -e "$(answers qk qr qpc qrr)" -e 'derive list' -e 'question show qw qpc' \
        "$prog" walk 60 "$seed" 3 try
    status "$name" 0
    # what the run went through: errors converted, longjmps (a leave that
    # pops several frames shows in the recording as frames left)
    has "$name" 'Converted \(errors convert\)'
    has "$name" '^rel: 3 threads of 60 requests'
    reference "$name" $SPECS
    same "$name"
    # what the program checked and recorded, as it says
    has "$name" 'pc +an execution of parse during which miss happened, if \{\$key > 3\}'
    has "$name" 'in the program: [0-9]+ checked, [0-9]+ recorded'
    has "$name" '^  checked [0-9]+, recorded [0-9]+$'
    has "$name" '^  derived event: checked [0-9]+, recorded [0-9]+$'
}

walk named "$REL"
walk functions "$RELF"
# named components and functions of the same names: the same answers
if cmp -s "$WORK/named.ans" "$WORK/functions.ans"; then
    echo "ok: named components and functions give the same answers"
else
    fail "named components and functions differ"
    diff "$WORK/named.ans" "$WORK/functions.ans" | head
fi
# the recordings saw the leaves the program made at the conversions
n=$(grep -c 'leave name="risky"' "$WORK/named.dump")
m=$(grep -c 'function-leave function=risky' "$WORK/functions.dump")
if [ "$n" -gt 0 ] && [ "$n" -eq "$m" ]; then
    echo "ok: $n executions of risky left at a conversion, named and functions"
else
    fail "risky left $n times (named), $m (functions)"
fi
finish
