#!/bin/sh
# SPDX-License-Identifier: MIT
# bad.sh - what noosa dump says of what is not a readable recording: a
# missing directory, a file, a directory that is not a recording, a
# metadata that is not noosa's, a newer major or median (refused, both
# versions named), a newer minor (read, the events of its new classes
# skipped exactly); a recording cut short (read up
# to its last whole packet, the loss said); a corrupt packet (skipped,
# said, the packets after it read); garbage between packets.

. "${srcdir:-.}/tests/record/lib.sh"

# dump_err NAME DIR: noosa dump DIR into NAME.out, NAME.err, NAME.rc
dump_err() {
    "$NOOSA" dump "$2" >"$1.out" 2>"$1.err"
    echo $? >"$1.rc"
}

dump_err missing nowhere
[ "$(cat missing.rc)" = 1 ] || fail "missing: status 1"
has missing.err "noosa: nowhere: No such file or directory"

echo hello >afile
dump_err file afile
has file.err "noosa: afile is not a recording (not a directory)"

mkdir empty
dump_err empty empty
has empty.err "noosa: empty is not a recording (it has no metadata)"

mkdir other
echo "/* CTF 1.8 */ trace { major = 1; minor = 8; };" >other/metadata
dump_err other other
has other.err "noosa: other is not a noosa recording (its metadata is not noosa's CTF)"

# a recording of pt nest 3000: 36002 events, several packets a stream
record rec "$PT" nest 3000
dump_err good rec
[ "$(cat good.rc)" = 0 ] || fail "good: status 0"
[ -s good.err ] && fail "good: $(cat good.err)"
all=$(count good.out '^[0-9]')
tstream=$(ls rec/thread_* | head -1)
size=$(wc -c <"$tstream")
[ "$size" -gt 200000 ] || fail "the thread's stream is only $size bytes"

# versions
for v in "2 0 0" "1 1 0" "1 0 7"; do
    set -- $v
    rm -rf ver && cp -r rec ver
    sed -i -e "s/noosa_format_major = 1;/noosa_format_major = $1;/" \
        -e "s/noosa_format_median = 0;/noosa_format_median = $2;/" \
        -e "s/noosa_format_minor = 0;/noosa_format_minor = $3;/" ver/metadata
    dump_err "ver$1$2$3" ver
done
[ "$(cat ver200.rc)" = 1 ] || fail "major 2: status 1"
has ver200.err "noosa: ver is a recording of format 2.0.0, newer than this noosa reads (1.0.0)"
has ver110.err "noosa: ver is a recording of format 1.1.0, newer than this noosa reads (1.0.0)"
[ "$(cat ver107.rc)" = 0 ] || fail "minor 7: read"
[ "$(count ver107.out '^[0-9]')" = "$all" ] || fail "minor 7: every event"
has ver107.out "format 1.0.7"

# a newer minor's event class: its events skipped exactly, those after
# them in the same packet read
rm -rf fut && cp -r rec fut
sed -i "s/noosa_format_minor = 0;/noosa_format_minor = 1;/" fut/metadata
tid=${tstream##*thread_}
"$abs_top_builddir/tests/record/rec-inject" fut "thread_$tid" "$tid" ||
    fail "rec-inject"
dump_err fut fut
[ "$(cat fut.rc)" = 0 ] || fail "future: status 0"
has fut.err "noosa: fut: thread_$tid: events of class noosa_future (61696), newer than this noosa, skipped"
grep -q "rest of its packet" fut.err && fail "future: a packet cut: $(cat fut.err)"
[ "$(count fut.out '^[0-9]')" = $((all + 2)) ] ||
    fail "future: $(count fut.out '^[0-9]') events, not $((all + 2))"
[ "$(grep -E '^[0-9]' fut.out | tail -2 | grep -c ' exit$')" = 2 ] ||
    fail "future: the two exits around it"
if command -v babeltrace2 >/dev/null 2>&1; then
    babeltrace2 fut 2>/dev/null | grep -q 'noosa_future: .*s = "future"' ||
        fail "future: babeltrace2 reads the new class"
fi

# cut short: the last 1000 bytes of the thread's stream gone
rm -rf cut && cp -r rec cut
cstream=cut/$(basename "$tstream")
head -c $((size - 1000)) "$tstream" >"$cstream"
dump_err cut cut
[ "$(cat cut.rc)" = 0 ] || fail "cut: status 0"
grep -q "noosa: cut: $(basename "$tstream"): cut short: the last packet (at byte [0-9]*) has [0-9]* of its [0-9]* bytes; its events are lost" cut.err ||
    fail "cut: the message ($(cat cut.err))"
n=$(count cut.out '^[0-9]')
[ "$n" -lt "$all" ] && [ "$n" -gt $((all / 2)) ] ||
    fail "cut: $n events of $all"

# a corrupt byte in the second packet: that packet skipped, the rest read
rm -rf bad && cp -r rec bad
bstream=bad/$(basename "$tstream")
printf '\377\377\377\377' | dd of="$bstream" bs=1 seek=70000 conv=notrunc 2>/dev/null
dump_err corrupt bad
[ "$(cat corrupt.rc)" = 0 ] || fail "corrupt: status 0"
grep -q "noosa: bad: $(basename "$tstream"): packet 1 (at byte [0-9]*, [0-9]* bytes) is corrupt: skipped" corrupt.err ||
    fail "corrupt: the message ($(cat corrupt.err))"
n=$(count corrupt.out '^[0-9]')
[ "$n" -lt "$all" ] && [ "$n" -gt $((all - 6000)) ] ||
    fail "corrupt: $n events of $all"
grep -q 'leave name="main"' corrupt.out || fail "corrupt: the events after it"

# garbage before the first packet: skipped to the next packet
rm -rf junk && cp -r rec junk
jstream=junk/$(basename "$tstream")
{ printf 'garbage!'; cat "$tstream"; } >"$jstream"
dump_err junk junk
has junk.err "corrupt at byte 0: 8 bytes skipped to the next packet"
[ "$(count junk.out '^[0-9]')" = "$all" ] || fail "junk: every event"

finish
