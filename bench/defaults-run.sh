#!/bin/sh
# SPDX-License-Identifier: MIT
# defaults-run.sh - what noosa's defaults cost a program (make
# bench-defaults): every way with noosa's defaults (the post-mortem trail
# of the last events on, nothing else unless the way says so), in two
# placements: everything on CPU 0 ("one CPU"), and noosa on CPU 0 with the
# program on CPU 1 ("two CPUs").
#
# (a) bench/defaults-loop, N_EVENTS turns (default 20000000) emitting
#     tick(int i, str label), timing its own loop: unmonitored; noosa asked
#     nothing; a breakpoint whose condition is never true; profile time
#     on; profile freq on; a question counting tick; a question of i by
#     label with a histogram; a handler in noosa counting tick (what the
#     questions replace: they must cost less).  Median of ROUNDS (default 3) interleaved
#     rounds, in ns a turn and over the unmonitored loop: the loop's wall
#     time, and its thread's CPU time, which other processes of a busy
#     machine do not swell (the goals are judged on it; the wall time
#     shows what noosa takes from a program sharing its CPU).  Before a
#     time counts: noosa's answer is checked (the question's count, the
#     profile's events).
# (b) programs built with -finstrument-functions, linked with libdapto:
#     zlib's minigzip compressing ZLIB_MB MiB (default 16;
#     ../shared/thirdparty/zlib.tar.gz, skipped with a message when
#     absent) and Lua 5.4 computing fib(LUA_FIB) (default 32; its sources
#     from Debian with `apt-get source lua5.4`, into the work directory,
#     skipped with a message when not reachable; its hash seed fixed, so
#     that every run makes the same calls): the plain build; the
#     instrumented build unmonitored; under noosa asked nothing; profile
#     time on; profile freq on; uftrace record of the same binary.  Best
#     of ROUNDS, each less what the way takes on a trivial input (the
#     start), in ms and as ratios, of the wall time and of the CPU time
#     of every process of the run (the program's, noosa's, uftrace's: on
#     a busy machine the wall time is what others leave); the calls noosa's time profile counts
#     are checked equal to uftrace's, function by function.  These
#     programs have no events of their own: a condition or a question has
#     nothing to run on (the loop's rows are those).
#
# Everything is built in a work directory under TMPDIR, never in the tree.
set -e
B=${top_builddir:-.}
NOOSA=$(cd "$B/src" && pwd)/noosa
LOOP=$(cd "$B/bench" && pwd)/defaults-loop
LIBDIR=$(cd "$B/lib/.libs" && pwd)
INCDIR=$(cd "${top_srcdir:-.}/lib" && pwd)
N=${N_EVENTS:-20000000}
ROUNDS=${ROUNDS:-3}
TARBALL=${ZLIB_TARBALL:-$(cd "${top_srcdir:-.}" && pwd)/../shared/thirdparty/zlib.tar.gz}
MB=${ZLIB_MB:-16}
FIB=${LUA_FIB:-32}
UFTRACE=${UFTRACE:-uftrace}
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-defaults.XXXXXX")
trap 'rm -rf "$work"' EXIT

die() { { echo "bench-defaults: $1"; [ -z "${2:-}" ] || tail -20 "$2"; } >&2; exit 1; }
best() { eval "_b=\$$1"; if [ -z "$_b" ] || [ "$2" -lt "$_b" ]; then eval "$1=$2"; fi; }
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
now() { date +%s%N; }

# place P: the taskset of noosa (or the peer) and LOOP_CPU of the loop
place_noosa() { [ "$1" = one ] && echo 0 || echo 0; }
place_prog() { [ "$1" = one ] && echo 0 || echo 1; }

# ---- (a) the loop ----

# loop_run P WAY: one run; prints ns a turn (checked), wall and CPU
loop_run() {
    p=$1 way=$2 f=$work/loop-$2 log=$work/loop-$2.log
    cpu=$(place_prog "$p")
    set --
    case $way in
    unmonitored)
        LOOP_CPU=$cpu taskset -c 0 "$LOOP" "$N" "$f" >"$log" 2>&1 ||
            die "the loop failed" "$log"
        sed -n 's/^ns=\([0-9.]*\) cpu=\([0-9.]*\) .*/\1 \2/p' "$f"
        return ;;
    nothing) ;;
    condition) set -- -e 'break tick if {$i < 0}' ;;
    time) set -- -e 'profile print off' -e 'profile time on' ;;
    freq) set -- -e 'profile print off' -e 'profile freq on' \
              -e 'run' -e 'puts "counted [dict get [lindex [profile get freq -event tick] 0] count]"' ;;
    question) set -- -e 'question print off' -e 'question add q tick' \
                  -e run -e 'puts "counted [dict get [lindex [question get q] 0] count]"' ;;
    keyed) set -- -e 'question print off' -e 'question add q tick i -by label -hist' \
               -e run -e 'set c 0; foreach d [question get q] {incr c [dict get $d count]}; puts "counted $c"' ;;
    handler) set -- -e 'set ::c 0' -e 'handler add tick h {incr ::c}' \
                 -e run -e 'puts "counted $::c"' ;;
    esac
    case $way in freq|question|keyed|handler) ;; *) set -- "$@" -e run ;; esac
    LOOP_CPU=$cpu taskset -c "$(place_noosa "$p")" "$NOOSA" -b -n "$@" \
        "$LOOP" "$N" "$f" </dev/null >"$log" 2>&1 || die "noosa ($way) failed" "$log"
    grep -q '^Program exited with status 0\.$' "$log" || die "$way: the loop did not end well" "$log"
    case $way in
    freq|question|keyed|handler)
        grep -q "^counted $N\$" "$log" || die "$way: noosa did not count $N ticks" "$log" ;;
    esac
    sed -n 's/^ns=\([0-9.]*\) cpu=\([0-9.]*\) .*/\1 \2/p' "$f"
}

loop_ways="unmonitored nothing condition time freq question keyed handler"

loop_bench() {
    p=$1
    echo "== (a) tick(int i, str label) x $N, $p CPU$( [ "$p" = two ] && echo s): ns a turn, median of $ROUNDS"
    echo "                                   wall time                      the loop's CPU time"
    for w in $loop_ways; do eval "t_$w= c_$w="; done
    r=0
    while [ $r -lt "$ROUNDS" ]; do
        r=$((r + 1))
        for w in $loop_ways; do
            v=$(loop_run "$p" "$w")
            eval "t_$w=\"\$t_$w ${v% *}\"; c_$w=\"\$c_$w ${v#* }\""
        done
    done
    for w in $loop_ways; do eval "m_$w=\$(median \$t_$w); n_$w=\$(median \$c_$w)"; done
    for w in $loop_ways; do
        eval "m=\$m_$w; all=\$t_$w; cm=\$n_$w"
        awk -v w="$w" -v m="$m" -v a="$m_unmonitored" -v all="$all" \
            -v cm="$cm" -v ca="$n_unmonitored" 'BEGIN {
            label["unmonitored"] = "unmonitored"
            label["nothing"] = "noosa, asked nothing"
            label["condition"] = "break tick if {$i < 0}"
            label["time"] = "profile time on"
            label["freq"] = "profile freq on"
            label["question"] = "question add q tick"
            label["keyed"] = "question ... i -by label -hist"
            label["handler"] = "handler add tick h {incr ::c}"
            if (w == "unmonitored")
                printf "  %-32s %8.2f ns                   %8.2f ns          (wall:%s)\n", label[w], m, cm, all
            else
                printf "  %-32s %8.2f ns %+8.2f ns %6.1fx %8.2f ns %+8.2f ns (wall:%s)\n",
                    label[w], m, m - a, m / a, cm, cm - ca, all
        }'
    done
    awk -v a="$n_unmonitored" -v d="$n_nothing" -v c="$n_condition" -v q="$n_question" \
        -v k="$n_keyed" -v h="$n_handler" -v wq="$m_question" -v wk="$m_keyed" \
        -v wh="$m_handler" 'BEGIN {
        printf "  goals, on the loop'\''s CPU time: asked nothing <= 3 ns over the loop: %s (%+.2f); a never-true condition <= 5 ns: %s (%+.2f);\n",
            (d - a <= 3) ? "met" : "not met", d - a, (c - a <= 5) ? "met" : "not met", c - a
        x = (q - a > 0) ? (k - a) / (q - a) : 0
        printf "         a count <= 10 ns: %s (%+.2f); by a key with a histogram <= 2x a count: %s (%.2fx)\n",
            (q - a <= 10) ? "met" : "not met", q - a, (k - a <= 2 * (q - a)) ? "met" : "not met", x
        printf "         questions cheaper than a handler in noosa, in CPU and wall time: %s (CPU: count %+.2f, by a key %+.2f, handler %+.2f; wall: %.2f, %.2f, %.2f)\n",
            (q < h && k < h && wq < wh && wk < wh) ? "met" : "not met", q - a, k - a, h - a, wq, wk, wh
    }'
}

# ---- (b) programs built with -finstrument-functions ----

have_uftrace=0
if [ "$UFTRACE" != no ] && command -v "$UFTRACE" >/dev/null 2>&1; then
    have_uftrace=1
else
    echo "bench-defaults: uftrace not found: its rows are skipped"
fi

have_zlib=0
if [ -f "$TARBALL" ]; then
    tar xzf "$TARBALL" -C "$work"
    zfiles="adler32.c compress.c crc32.c deflate.c gzclose.c gzlib.c gzread.c gzwrite.c
      infback.c inffast.c inflate.c inftrees.c trees.c uncompr.c zutil.c test/minigzip.c"
    (cd "$work/zlib" && gcc -O2 -g -w -include unistd.h -I. $zfiles -o "$work/zlib-plain" &&
        gcc -O2 -g -w -include unistd.h -finstrument-functions -I. $zfiles \
            -o "$work/zlib-inst" -L"$LIBDIR" -ldapto -Wl,-rpath,"$LIBDIR")
    : >"$work/zinput"
    while [ "$(wc -c <"$work/zinput")" -lt $((MB * 1048576)) ]; do
        cat "${top_srcdir:-.}"/src/*/*.c "${top_srcdir:-.}"/lib/*/*.c >>"$work/zinput"
    done
    head -c $((MB * 1048576)) "$work/zinput" >"$work/zinput.1" && mv "$work/zinput.1" "$work/zinput"
    "$work/zlib-plain" -c "$work/zinput" >"$work/zwant"
    printf x >"$work/ztiny"
    have_zlib=1
else
    echo "bench-defaults: $TARBALL not found: zlib is skipped"
fi

have_lua=0
mkdir -p "$work/apt/lists/partial" "$work/lua"
echo "deb-src http://deb.debian.org/debian bookworm main" >"$work/apt/sources.list"
aptopts="-o Dir::Etc::SourceList=$work/apt/sources.list -o Dir::Etc::SourceParts=/dev/null
  -o Dir::State::Lists=$work/apt/lists -o Debug::NoLocking=1 -o APT::Sandbox::User=root"
if command -v apt-get >/dev/null 2>&1 &&
    timeout 120 apt-get $aptopts update >"$work/apt/update.log" 2>&1 &&
    (cd "$work/lua" && timeout 120 apt-get $aptopts source --download-only lua5.4 \
        >"$work/apt/source.log" 2>&1) &&
    tar xzf "$work"/lua/lua5.4_*.orig.tar.gz -C "$work/lua" 2>/dev/null; then
    lsrc=$(ls -d "$work"/lua/lua-5.4*/src)
    lfiles=$(cd "$lsrc" && ls *.c | grep -v '^luac\.c$')
    # (its strings' hashes without a random seed, so that every run makes
    # the same calls: noosa's and uftrace's are compared)
    (cd "$lsrc" && gcc -O2 -g -w -DLUA_USE_LINUX '-Dluai_makeseed(L)=0u' $lfiles \
        -o "$work/lua-plain" -lm -ldl &&
        gcc -O2 -g -w -DLUA_USE_LINUX '-Dluai_makeseed(L)=0u' -finstrument-functions \
            $lfiles -o "$work/lua-inst" -L"$LIBDIR" -ldapto -Wl,-rpath,"$LIBDIR" -lm -ldl)
    cat >"$work/fib.lua" <<'LUA'
local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
print(fib(tonumber(arg[1])))
LUA
    have_lua=1
else
    echo "bench-defaults: Lua 5.4's sources are not reachable (apt-get source lua5.4): Lua is skipped"
fi

# prog_cmd PROGRAM BUILD TINY: the command line of PROGRAM (zlib, lua)
prog_args() {
    case $1 in
    zlib) [ "$2" = tiny ] && echo "-c $work/ztiny" || echo "-c $work/zinput" ;;
    lua) [ "$2" = tiny ] && echo "$work/fib.lua 1" || echo "$work/fib.lua $FIB" ;;
    esac
}

# cpu_of COMMAND...: runs COMMAND, its CPU time and that of every process
# it waited for (user and system, in ns, as the kernel counts it, not in
# clock ticks) into $work/cpu
cpu_of() {
    python3 -c 'import resource, subprocess, sys
r = subprocess.run(sys.argv[2:]).returncode
u = resource.getrusage(resource.RUSAGE_CHILDREN)
open(sys.argv[1], "w").write("%d\n" % int((u.ru_utime + u.ru_stime) * 1e9))
sys.exit(r)' "$work/cpu" "$@"
}

# Lua interns a string or two more or fewer from one run to the next with
# the addresses laid out at random (249 or 250 calls of internshrstr, under
# noosa and uftrace alike): every run of (b) has them laid out the same,
# so that the calls noosa counts can be compared with uftrace's run
NORAND=
if setarch "$(uname -m)" -R true 2>/dev/null; then
    NORAND="setarch $(uname -m) -R"
fi

# prog_run PROGRAM P WAY [tiny]: one run; prints its nanoseconds, wall and
# CPU (the program's, noosa's or uftrace's, all their processes')
prog_run() {
    prog=$1 p=$2 way=$3 size=${4:-full}
    out=$work/$prog-$way.out log=$work/$prog-$way.log
    args=$(prog_args "$prog" "$size")
    cpus=0
    [ "$p" = two ] && cpus=0,1
    bin=$work/$prog-inst
    t0=$(now)
    case $way in
    plain) cpu_of $NORAND taskset -c "$cpus" "$work/$prog-plain" $args >"$out" 2>"$log" ;;
    hooks) cpu_of $NORAND taskset -c "$cpus" "$bin" $args >"$out" 2>"$log" ;;
    nothing) cpu_of $NORAND taskset -c "$cpus" "$NOOSA" -b -n -e "run $args > $out" "$bin" \
                 </dev/null >"$log" 2>&1 || die "noosa ($prog, $way) failed" "$log" ;;
    time)
        cpu_of $NORAND taskset -c "$cpus" "$NOOSA" -b -n -e 'profile print off' -e 'profile time on' \
            -e "run $args > $out" \
            -e 'foreach r [profile get time -flat] {puts "F [dict get $r name] [dict get $r calls]"}' \
            -e 'profile' "$bin" </dev/null >"$log" 2>&1 || die "noosa ($prog, $way) failed" "$log" ;;
    freq)
        cpu_of $NORAND taskset -c "$cpus" "$NOOSA" -b -n -e 'profile print off' -e 'profile freq on' \
            -e "run $args > $out" -e 'profile' "$bin" </dev/null >"$log" 2>&1 ||
            die "noosa ($prog, $way) failed" "$log" ;;
    uftrace) rm -rf "$work/uft.data"
        cpu_of $NORAND taskset -c "$cpus" "$UFTRACE" record --no-libcall --no-sched -d "$work/uft.data" \
            "$bin" $args >"$out" 2>"$log" || die "uftrace ($prog) failed" "$log" ;;
    esac
    t1=$(now)
    if [ "$size" = full ]; then
        case $prog in
        zlib) cmp -s "$out" "$work/zwant" || die "$prog, $way: output differs from the plain build's" ;;
        lua) [ "$(tail -1 "$out")" = "$(lua_want)" ] || die "$prog, $way: fib differs" "$log" ;;
        esac
    fi
    echo "$((t1 - t0)) $(cat "$work/cpu")"
}

lua_want() { awk -v n="$FIB" 'BEGIN { a = 0; b = 1; for (i = 0; i < n; i++) { t = a + b; a = b; b = t } print a }'; }

prog_ways="plain hooks nothing time freq"
[ "$have_uftrace" = 0 ] || prog_ways="$prog_ways uftrace"

prog_bench() {
    prog=$1 p=$2
    case $prog in
    zlib) what="zlib's minigzip -c of $MB MiB" ;;
    lua) what="Lua 5.4, fib($FIB)" ;;
    esac
    echo "== (b) $what, $p CPU$( [ "$p" = two ] && echo s): best of $ROUNDS, less the start"
    for w in $prog_ways; do eval "b_$w= s_$w= k_$w= z_$w="; done
    r=0
    while [ $r -lt "$ROUNDS" ]; do
        r=$((r + 1))
        for w in $prog_ways; do
            t=$(prog_run "$prog" "$p" "$w")
            best "b_$w" "${t% *}"
            best "k_$w" "${t#* }"
            t=$(prog_run "$prog" "$p" "$w" tiny)
            best "s_$w" "${t% *}"
            best "z_$w" "${t#* }"
        done
    done
    for w in $prog_ways; do eval "b_$w=\$((b_$w - s_$w + s_plain)); k_$w=\$((k_$w - z_$w + z_plain))"; done
    # the calls: noosa's time profile against uftrace's, function by function
    prog_run "$prog" "$p" time >/dev/null
    grep '^F ' "$work/$prog-time.log" | cut -c3- | sort >"$work/$prog.calls"
    calls=$(awk '{ s += $2 } END { print s + 0 }' "$work/$prog.calls")
    kept=$(grep -m1 'self time sampled\|measured at each call\|from the records' "$work/$prog-time.log" | sed 's/^ *//')
    if [ "$have_uftrace" = 1 ]; then
        prog_run "$prog" "$p" uftrace >/dev/null
        "$UFTRACE" report -d "$work/uft.data" -f call --no-pager 2>/dev/null |
            awk 'NR > 2 && $2 !~ /^linux:/ { print $2, $1 }' | sort >"$work/$prog.ucalls"
        # the functions whose counts differ, "name noosa's uftrace's"
        LC_ALL=C sort -k1,1 "$work/$prog.calls" >"$work/$prog.jcalls"
        LC_ALL=C sort -k1,1 "$work/$prog.ucalls" >"$work/$prog.jucalls"
        odd=$(LC_ALL=C join -a1 -a2 -e 0 -o 0,1.2,2.2 "$work/$prog.jcalls" "$work/$prog.jucalls" |
            awk '$2 != $3')
        if [ -z "$odd" ]; then
            same="the same per function as uftrace's"
        elif [ "$prog" = lua ] && [ "$(echo "$odd" |
            awk '$1 !~ /^(luaS_newlstr|internshrstr|luaS_hash)$/')" = "" ]; then
            # Lua's luaS_new looks a C string up in a cache by its
            # address, and each tool's environment moves the strings of
            # the process's stack: a miss more or fewer is one more or
            # fewer luaS_newlstr, internshrstr and luaS_hash
            same="the same per function as uftrace's but Lua's string interning ($(echo "$odd" |
                awk '{ printf "%s%s noosa %s, uftrace %s", (NR > 1 ? "; " : ""), $1, $2, $3 }')): luaS_new's cache is keyed by addresses, which each tool's environment moves"
        else
            same="NOT the same as uftrace's: $(echo "$odd" | head -3 | awk '{ printf "%s noosa %s uftrace %s; ", $1, $2, $3 }')"
        fi
    else
        same="(no uftrace to compare)"
    fi
    echo "  calls: $calls, $same"
    echo "  time profile: $kept"
    for clock in wall cpu; do
        if [ $clock = wall ]; then
            echo "  wall time:"
            set -- "$b_plain" "$b_hooks" "$b_nothing" "$b_time" "$b_freq" "${b_uftrace:-}"
        else
            echo "  CPU time (every process of the run's, noosa's and uftrace's included):"
            set -- "$k_plain" "$k_hooks" "$k_nothing" "$k_time" "$k_freq" "${k_uftrace:-}"
        fi
        awk -v p="$1" -v h="$2" -v n="$3" -v t="$4" -v f="$5" -v u="$6" -v c="$calls" 'BEGIN {
        printf "  %-28s %9.1f ms\n", "plain build", p / 1e6
        printf "  %-28s %9.1f ms %6.3fx plain\n", "instrumented, unmonitored", h / 1e6, h / p
        printf "  %-28s %9.1f ms %6.3fx unmonitored\n", "noosa, asked nothing", n / 1e6, n / h
        printf "  %-28s %9.1f ms %6.3fx unmonitored %+6.1f ns a call\n", "profile time on", t / 1e6, t / h, (t - h) / c
        printf "  %-28s %9.1f ms %6.3fx unmonitored %+6.1f ns a call\n", "profile freq on", f / 1e6, f / h, (f - h) / c
        if (u != "") {
            printf "  %-28s %9.1f ms %6.3fx unmonitored %+6.1f ns a call\n", "uftrace record", u / 1e6, u / h, (u - h) / c
            if (t - h > 0 && u - h > 0)
                printf "  uftrace'\''s overhead / profile time on'\''s: %.2f (goal: at least 5)\n", (u - h) / (t - h)
            else
                printf "  uftrace'\''s overhead / profile time on'\''s: within the noise (%+.1f ms, %+.1f ms)\n", (u - h) / 1e6, (t - h) / 1e6
        }
        printf "  goal: asked nothing within 1.05x of unmonitored: %s (%.3f)\n", (n / h <= 1.05) ? "met" : "not met", n / h
        }'
    done
}

for p in one two; do
    loop_bench "$p"
    [ "$have_zlib" = 0 ] || prog_bench zlib "$p"
    [ "$have_lua" = 0 ] || prog_bench lua "$p"
done
