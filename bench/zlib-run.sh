#!/bin/sh
# SPDX-License-Identifier: MIT
# zlib-run.sh - the time profile on a real program we did not write (make
# bench-zlib): zlib's minigzip, built in this bench's work directory from
# ../shared/thirdparty/zlib.tar.gz (skipped with a message where it is
# absent), compresses a large file (ZLIB_MB, default 32 MiB of this tree's
# sources over and over).  Ways, interleaved round by round (ROUNDS,
# default 3), the best time of each kept:
#
#   plain     minigzip built without -finstrument-functions
#   hooks     built with it and linked with libdapto, not monitored
#   noosa     under noosa with the time profile on, lean (errors last 0,
#             profile timeline 0), from the records (profile time in noosa)
#   program   the same kept by the program (profile time in program)
#   sampled   the same, the self times sampled (profile time in sampled)
#   tsc       the instrumented build with hooks that only read the time
#             stamp counter at every entry and exit (bench/tsc-hooks.c,
#             preloaded): the floor of any profile with exact times
#   uftrace   uftrace record --no-libcall --no-sched of the same binary
#             (uftrace's hooks take the place of libdapto's)
#
# Before a time counts: every way's output is the plain build's, byte for
# byte, and noosa's calls per function (both ways) equal uftrace's.  Per-call
# overhead = (time - plain) / calls, each way's time less what it takes
# on a one-byte input (noosa's start: the describe pass, Tcl; uftrace's)
# more the plain build's on it.  Both placements: everything pinned
# to CPU 0, and everything allowed CPUs 0 and 1.
set -e
B=${top_builddir:-.}
NOOSA=$B/src/noosa
LIBDIR=$(cd "$B/lib/.libs" && pwd)
TSC_HOOKS=$(cd "$B/bench/.libs" && pwd)/libtschooks.so
TARBALL=${ZLIB_TARBALL:-$(cd "${top_srcdir:-.}" && pwd)/../shared/thirdparty/zlib.tar.gz}
MB=${ZLIB_MB:-32}
ROUNDS=${ROUNDS:-3}
UFTRACE=${UFTRACE:-uftrace}

if [ ! -f "$TARBALL" ]; then
    echo "bench-zlib: $TARBALL not found: skipped"
    exit 0
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-zlib.XXXXXX")
trap 'rm -rf "$work"' EXIT
tar xzf "$TARBALL" -C "$work"
src=$work/zlib
files="adler32.c compress.c crc32.c deflate.c gzclose.c gzlib.c gzread.c gzwrite.c
  infback.c inffast.c inflate.c inftrees.c trees.c uncompr.c zutil.c test/minigzip.c"
(cd "$src" && gcc -O2 -g -w -include unistd.h -I. $files -o "$work/plain" &&
    gcc -O2 -g -w -include unistd.h -finstrument-functions -I. $files \
        -o "$work/inst" -L"$LIBDIR" -ldapto -Wl,-rpath,"$LIBDIR")
input=$work/input
: >"$input"
while [ "$(wc -c <"$input")" -lt $((MB * 1048576)) ]; do
    cat "$B"/src/*/*.c "$B"/lib/*/*.c >>"$input" 2>/dev/null ||
        cat "${top_srcdir:-.}"/src/*/*.c >>"$input"
done
head -c $((MB * 1048576)) "$input" >"$input.1" && mv "$input.1" "$input"
"$work/plain" -c "$input" >"$work/want.gz"
printf x >"$work/tiny"

have_uftrace=0
if [ "$UFTRACE" != no ] && command -v "$UFTRACE" >/dev/null 2>&1; then
    have_uftrace=1
else
    echo "bench-zlib: uftrace not found: its way is skipped"
fi

now() { date +%s%N; }
die() { echo "bench-zlib: $1"; [ -z "${2:-}" ] || tail -20 "$2"; exit 1; }

# run CPUS WAY [INPUT]: one run; prints its nanoseconds
run() {
    cpus=$1 way=$2 out=$work/$2.gz log=$work/$2.log
    input=${3:-$work/input}
    t0=$(now)
    case $way in
    plain) taskset -c "$cpus" "$work/plain" -c "$input" >"$out" ;;
    hooks) taskset -c "$cpus" "$work/inst" -c "$input" >"$out" ;;
    tsc) LD_PRELOAD=$TSC_HOOKS taskset -c "$cpus" "$work/inst" -c "$input" >"$out" ;;
    noosa) taskset -c "$cpus" "$NOOSA" --batch -n -e 'errors last 0' \
               -e 'profile timeline 0' -e 'profile time on' -e 'profile time in noosa' \
               -e 'profile print off' \
               -e "run -c $input > $out" \
               -e 'foreach r [profile get time -flat] {puts "F [dict get $r name] [dict get $r calls]"}' \
               "$work/inst" >"$log" 2>&1 || die "noosa failed" "$log" ;;
    program|sampled)
        where=program
        [ "$way" = sampled ] && where=sampled
        taskset -c "$cpus" "$NOOSA" --batch -n -e 'errors last 0' \
               -e "profile time in $where" -e 'profile time on' -e 'profile print off' \
               -e "run -c $input > $out" \
               -e 'foreach r [profile get time -flat] {puts "F [dict get $r name] [dict get $r calls]"}' \
               "$work/inst" >"$log" 2>&1 || die "noosa ($way) failed" "$log" ;;
    uftrace) rm -rf "$work/uft.data"
        taskset -c "$cpus" "$UFTRACE" record --no-libcall --no-sched \
            -d "$work/uft.data" "$work/inst" -c "$input" >"$out" 2>"$log" ||
            die "uftrace failed" "$log" ;;
    esac
    t1=$(now)
    [ -n "${3:-}" ] || cmp -s "$out" "$work/want.gz" ||
        die "$way: output differs from the plain build's"
    echo $((t1 - t0))
}

ways="plain hooks tsc noosa program sampled"
[ "$have_uftrace" = 0 ] || ways="$ways uftrace"

bench() {
    cpus=$1
    echo "== CPUs $cpus: minigzip -c of $MB MiB, best of $ROUNDS"
    for w in $ways; do eval "best_$w="; done
    r=0
    while [ $r -lt "$ROUNDS" ]; do
        r=$((r + 1))
        for w in $ways; do
            t=$(run "$cpus" "$w")
            eval "b=\$best_$w"
            if [ -z "$b" ] || [ "$t" -lt "$b" ]; then eval "best_$w=$t"; fi
        done
    done
    # what starting and ending costs, on a one-byte input: taken off
    # noosa's and uftrace's times, which are then per call
    for w in $ways; do eval "start_$w="; done
    r=0
    while [ $r -lt "$ROUNDS" ]; do
        r=$((r + 1))
        for w in $ways; do
            t=$(run "$cpus" "$w" "$work/tiny")
            eval "b=\$start_$w"
            if [ -z "$b" ] || [ "$t" -lt "$b" ]; then eval "start_$w=$t"; fi
        done
    done
    for w in $ways; do
        eval "best_$w=\$((best_$w - start_$w + start_plain))"
    done
    for w in $ways; do eval "run \"$cpus\" $w >/dev/null"; done
    grep '^F ' "$work/noosa.log" | cut -c3- | sort >"$work/noosa.calls"
    calls=$(awk '{ s += $2 } END { print s }' "$work/noosa.calls")
    grep '^F ' "$work/program.log" | cut -c3- | sort >"$work/program.calls"
    cmp -s "$work/noosa.calls" "$work/program.calls" ||
        die "the program's tree and the records differ: $(diff "$work/noosa.calls" "$work/program.calls" | head -5)"
    grep '^F ' "$work/sampled.log" | cut -c3- | sort >"$work/sampled.calls"
    cmp -s "$work/noosa.calls" "$work/sampled.calls" ||
        die "the sampled tree and the records differ: $(diff "$work/noosa.calls" "$work/sampled.calls" | head -5)"
    if [ "$have_uftrace" = 1 ]; then
        "$UFTRACE" report -d "$work/uft.data" -f call --no-pager 2>/dev/null |
            awk 'NR > 2 && $2 !~ /^linux:/ { print $2, $1 }' | sort >"$work/uft.calls"
        cmp -s "$work/noosa.calls" "$work/uft.calls" ||
            die "noosa's and uftrace's calls per function differ: $(diff "$work/noosa.calls" "$work/uft.calls" | head -5)"
        echo "  calls: $calls, the same per function for noosa and uftrace"
    else
        echo "  calls: $calls (noosa's)"
    fi
    awk -v c="$calls" -v p="$best_plain" -v h="$best_hooks" -v n="$best_noosa" \
        -v g="$best_program" -v sm="$best_sampled" -v u="${best_uftrace:-}" -v t="$best_tsc" 'BEGIN {
        printf "  %-9s %8.3f s\n", "plain", p / 1e9
        printf "  %-9s %8.3f s  %+7.1f ns a call\n", "hooks", h / 1e9, (h - p) / c
        printf "  %-9s %8.3f s  %+7.1f ns a call (two TSC reads a call, nothing else)\n", "tsc", t / 1e9, (t - p) / c
        printf "  %-9s %8.3f s  %+7.1f ns a call\n", "noosa", n / 1e9, (n - p) / c
        printf "  %-9s %8.3f s  %+7.1f ns a call (in the program)\n", "program", g / 1e9, (g - p) / c
        printf "  %-9s %8.3f s  %+7.1f ns a call (in the program, self time sampled)\n", "sampled", sm / 1e9, (sm - p) / c
        if (u != "") {
            printf "  %-9s %8.3f s  %+7.1f ns a call\n", "uftrace", u / 1e9, (u - p) / c
            if (n - p > 0 && g - p > 0)
                printf "  uftrace / noosa overhead per call: records %.2f, in the program %.2f (goal: at least 5)\n",
                    (u - p) / (n - p), (u - p) / (g - p)
            if (sm - p > 0)
                printf "  uftrace / noosa sampled: %.2f (goal: at least 5)\n", (u - p) / (sm - p)
        }
        if (h < p || g < p || t < p || g < h || sm < h) {
            printf "  a way ran faster than one that does less: the machine'\''s load swamps\n"
            printf "  the differences, no goal judged (run again when it is quieter)\n"
            exit
        }
        printf "  goal: in the program at most 10 ns a call over hooks: %s (%.1f); sampled: %s (%.1f)\n",
            (g - h) / c <= 10 ? "met" : "not met", (g - h) / c,
            (sm - h) / c <= 10 ? "met" : "not met", (sm - h) / c
        printf "  the floor, two TSC reads a call: %.1f ns over hooks", (t - h) / c
        if (u != "" && t - p > 0)
            printf "; uftrace / floor %.2f", (u - p) / (t - p)
        printf "\n"
    }'
}

bench 0
bench 0,1
