#!/bin/sh
# SPDX-License-Identifier: MIT
# index.sh - the index of a recording (<design#recordings>): made at the
# first opening and kept beside the recording, used by later openings;
# every move by number and by time gives what reading from the start
# gives (rec-moves), over several threads and many sync points; an index
# that is stale, corrupt, cut short, of a newer noosa, whose sync point
# is wrong under a right check, or that cannot be kept, is said and made
# again (or kept in memory), never trusted; a packet that changed under
# its index is said (in a move's quiet part too), skipped, and the index
# made again; a far move does not read the packets between; noosa dump
# makes none and uses one; babeltrace2 ignores it.

. "${srcdir:-.}/tests/record/lib.sh"
MOVES=$abs_top_builddir/tests/record/rec-moves

# 4 threads of 25000 x (enter, tick, leave): about 300000 events, 19 sync
# points, times of equal value between threads
record thr "$PT" threads 4 25000
[ "$(cat thr.rec-rc)" = 0 ] || fail "record: status $(cat thr.rec-rc)"
[ ! -e thr/.noosa_index ] || fail "noosa record made an index"

# moves: every 7th event, and those around each sync point
timeout 120 "$MOVES" thr 7 >moves.out 2>moves.err || fail "moves: $(cat moves.err)"
grep -qE '^[0-9]+ events, [0-9]+ moves, indexed$' moves.out ||
    fail "moves: $(cat moves.out)"
[ -f thr/.noosa_index ] || fail "the index is not kept beside the recording"
[ ! -s moves.err ] || fail "first opening said: $(cat moves.err)"
cp thr/.noosa_index good.idx

# a second opening reads it (and says nothing)
timeout 120 "$MOVES" thr 101 >moves2.out 2>moves2.err || fail "moves2: $(cat moves2.err)"
[ ! -s moves2.err ] || fail "second opening said: $(cat moves2.err)"
cmp -s thr/.noosa_index good.idx || fail "the index was made again"

# the same moves through noosa: goto by number and by time (the first
# event at or after the time of event 123456: it, or one of the same
# time before it)
timeout 120 "$NOOSA" dump thr >thr.dump
t=$(awk '$1 == 123456 { print $2 }' thr.dump)
at=$(awk -v t="$t" '$1 ~ /^[0-9]+$/ && $2 + 0 >= t + 0 { print $1; exit }' thr.dump)
timeout 120 "$NOOSA" --batch -n -e 'goto 123456' -e "goto @${t}ns" -e 'goto 3' thr \
    >goto.out 2>&1
has goto.out "(event 123456)"
has goto.out "(event $at)"

# stale: a stream written again (same size, new time)
touch thr/thread_*
timeout 120 "$MOVES" thr 997 >stale.out 2>stale.err || fail "stale: $(cat stale.err)"
has stale.err "its index (.noosa_index) is older than the recording (thread_"
has stale.err "changed): made again"
timeout 120 "$MOVES" thr 997 >/dev/null 2>stale2.err
[ ! -s stale2.err ] || fail "stale, made again: $(cat stale2.err)"

# corrupt: a byte changed; cut short; not an index at all
cp thr/.noosa_index good.idx
python3 - thr/.noosa_index <<'PY'
import sys
p = sys.argv[1]
b = bytearray(open(p, 'rb').read())
b[200] ^= 0x40
open(p, 'wb').write(b)
PY
timeout 120 "$MOVES" thr 997 >/dev/null 2>corrupt.err || fail "corrupt: $(cat corrupt.err)"
has corrupt.err "its index (.noosa_index) is corrupt (its check fails): made again"
head -c 100 good.idx >thr/.noosa_index
timeout 120 "$MOVES" thr 997 >/dev/null 2>cut.err || fail "cut: $(cat cut.err)"
has cut.err "its index (.noosa_index) is corrupt (its check fails): made again"
echo "not an index" >thr/.noosa_index
timeout 120 "$MOVES" thr 997 >/dev/null 2>notidx.err || fail "notidx: $(cat notidx.err)"
has notidx.err "its index (.noosa_index) is not an index: made again"
cmp -s thr/.noosa_index good.idx || fail "the index made again differs"

# idx.py FILE major N | sync J DELTA: the index FILE with its major set
# to N, or sync point J's offset moved by DELTA, its check made right
cat >idx.py <<'PY'
import struct, sys
M = (1 << 64) - 1
def h(b):
    x = 0x9e3779b97f4a7c15 ^ len(b)
    i = 0
    while i + 8 <= len(b):
        w, = struct.unpack_from('<Q', b, i)
        x = ((x ^ w) * 0xff51afd7ed558ccd) & M
        x ^= x >> 29
        i += 8
    for c in b[i:]:
        x = ((x ^ c) * 0xc4ceb9fe1a85ec53) & M
        x ^= x >> 31
    return x
p, what = sys.argv[1], sys.argv[2]
b = bytearray(open(p, 'rb').read())
if what == 'major':
    struct.pack_into('<H', b, 8, int(sys.argv[3]))
else:
    nstreams, = struct.unpack_from('<I', b, 24)
    npackets, = struct.unpack_from('<Q', b, 48)
    at = 80 + nstreams * 72 + npackets * 32 + int(sys.argv[3]) * 40 + 16
    off, = struct.unpack_from('<Q', b, at)
    struct.pack_into('<Q', b, at, off + int(sys.argv[4]))
struct.pack_into('<Q', b, len(b) - 8, h(bytes(b[:-8])))
open(p, 'wb').write(b)
PY

# a sync point moved, the check right (not as this noosa makes them):
# said when a move uses it, the index made again, every move right
cp good.idx thr/.noosa_index
python3 idx.py thr/.noosa_index sync 5 1
timeout 120 "$MOVES" thr 997 >sync.out 2>sync.err || fail "sync: $(cat sync.err)"
has sync.err "its index (.noosa_index) does not hold (sync point 5 is not where it says): made again"
[ "$(wc -l <sync.err)" = 1 ] || fail "sync: more said: $(cat sync.err)"
cmp -s thr/.noosa_index good.idx || fail "the index made again after a sync point differs"

# a newer noosa's index (major 9, its check right): used by none, left
# alone, this noosa's kept in memory
python3 idx.py thr/.noosa_index major 9
cp thr/.noosa_index newer.idx
timeout 120 "$MOVES" thr 997 >newer.out 2>newer.err || fail "newer: $(cat newer.err)"
has newer.err "its index (.noosa_index) is of a newer noosa (index 9.0, this one makes 1.0): this one makes its own, kept in memory"
has newer.out ", indexed"
cmp -s thr/.noosa_index newer.idx || fail "a newer noosa's index was replaced"

# an index that cannot be kept (its place is a directory): said, made in
# memory, the moves right
rm -f thr/.noosa_index
mkdir thr/.noosa_index
timeout 120 "$MOVES" thr 997 >nokeep.out 2>nokeep.err || fail "nokeep: $(cat nokeep.err)"
has nokeep.err "the index cannot be kept beside the recording ("
has nokeep.err "): it is made again at each opening"
has nokeep.out ", indexed"
rmdir thr/.noosa_index

# a packet that changed under its index (size, time and first and last
# bytes as they were): said when read, skipped, the index made again at
# the next move; the events numbered again agree with a reading from the
# start
timeout 120 "$MOVES" thr 997 >/dev/null 2>&1
f=$(ls -S thr/thread_* | head -1)
cp -p "$f" orig.stream
printf 'XXXXXXXX' | dd of="$f" bs=1 seek=100000 conv=notrunc 2>/dev/null
touch -r orig.stream "$f"
# (a move reads only what it needs: a packet in the middle changed, going
# near the end with nothing wanting the events between does not read it,
# so says nothing of it; the index holds)
# (of its events 23400 to 28000, in no stretch a far move reads)
cp -p thr/.noosa_index good.idx
cp -p orig.stream "$f"
printf 'XXXXXXXX' | dd of="$f" bs=1 seek=330000 conv=notrunc 2>/dev/null
touch -r orig.stream "$f"
timeout 120 "$NOOSA" --batch -n -e 'goto 290000' -e 'goto 290002' thr >far.out 2>&1
has far.out "(event 290000)"
has far.out "(event 290002)"
grep -q "is not what the recording's index says\|corrupt" far.out &&
    fail "a move read the packets before it: $(cat far.out)"
cmp -s thr/.noosa_index good.idx || fail "a far move made the index again"
cp -p orig.stream "$f"
printf 'XXXXXXXX' | dd of="$f" bs=1 seek=100000 conv=notrunc 2>/dev/null
touch -r orig.stream "$f"
# (what the reader says is said during a move's quiet part too: the
# profile wants every event, so the move reads that packet to hand its
# events on)
timeout 120 "$NOOSA" --batch -n -e 'profile freq on' -e 'profile print off' \
    -e 'goto 290000' thr >far2.out 2>&1
has far2.out "the packet at byte 65536 is not what the recording's index says"
has far2.out "(event 290000)"
cp -p good.idx thr/.noosa_index
timeout 120 "$NOOSA" --batch -n -e run -e 'goto 10' -e 'goto 1000' thr >changed.out 2>&1
has changed.out "the packet at byte 65536 is not what the recording's index says (the recording changed since it was indexed): skipped, and the index made again"
has changed.out "is corrupt: skipped"
has changed.out "(event 10)"
timeout 120 "$MOVES" thr 997 >changed2.out 2>changed2.err ||
    fail "changed, made again: $(cat changed2.err)"
has changed2.err "is corrupt: skipped"
cp -p orig.stream "$f"

# a stream cut short under its index (a copy written over, a disk
# full): the index said older and made again, the cut said, the moves
# right (every command under a timeout: none may hang)
rm -f thr/.noosa_index
timeout 120 "$MOVES" thr 997 >/dev/null 2>&1
cp -p "$f" orig.stream
truncate -s 500000 "$f"
timeout 120 "$MOVES" thr 997 >cutrec.out 2>cutrec.err ||
    fail "a stream cut short: $(cat cutrec.err)"
has cutrec.err "its index (.noosa_index) is older than the recording ("
has cutrec.err "cut short: the last packet (at byte 458752) has 41248 of its 65536 bytes; its events are lost"
timeout 120 "$NOOSA" --batch -n -e 'goto 1000000' -e 'goto 100' thr >cutrec2.out 2>&1
has cutrec2.out "(event 100)"
has cutrec2.out "cut short: the last packet (at byte 458752)"
cp -p orig.stream "$f"

# noosa dump makes no index, and reads what --from asks with one; one
# that does not hold it says it does not use
touch thr/thread_*
timeout 120 "$NOOSA" dump --from 5 --to 6 thr >dumpstale.out 2>&1
has dumpstale.out "its index (.noosa_index) is older than the recording (thread_"
has dumpstale.out "changed): not used"
rm -f thr/.noosa_index
timeout 120 "$NOOSA" dump --from 200000 --to 200010 thr >dump1.out 2>&1
[ ! -e thr/.noosa_index ] || fail "noosa dump made an index"
timeout 120 "$MOVES" thr 997 >/dev/null 2>&1
timeout 120 "$NOOSA" dump --from 200000 --to 200010 thr >dump2.out 2>&1
cmp -s dump1.out dump2.out || fail "dump --from with the index differs"
[ "$(grep -c '^2000[01][0-9] ' dump2.out)" = 11 ] || fail "dump --from: $(cat dump2.out)"

# babeltrace2 reads the recording with its index beside it
if command -v babeltrace2 >/dev/null 2>&1; then
    babeltrace2 thr >bt.out 2>bt.err || fail "babeltrace2: $(head -5 bt.err)"
    [ "$(grep -c ' tick: ' bt.out)" -ge 99000 ] || fail "babeltrace2: ticks"
else
    echo "babeltrace2 not installed: its part skipped"
fi

finish
