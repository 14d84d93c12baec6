#!/bin/sh
# SPDX-License-Identifier: MIT
# readme.sh - the README's function profile, as a newcomer types it: the
# README says to build with -finstrument-functions and gives the two
# commands (cc, then noosa with the time profile on); run as written on
# a small program of functions, they print a time profile whose rows are
# the program's functions with their calls (the times are sampled: a
# program this short may have none).  The README used to leave
# -finstrument-functions unsaid, and a profile of functions then counted
# nothing.  pkg-config answers for the tree instead of an installation:
# libdapto's sources built without sanitizers, as for saint.sh's
# programs (a sanitized program's leak check fails under ptrace).

. "${srcdir:-.}/tests/profile/lib.sh"
. "$abs_top_srcdir/tests/lib/batch-run.sh"
README=$abs_top_srcdir/README

# The README's block: from the cc line, continued lines joined, to the
# noosa line.
awk '/^ *cc .*-finstrument-functions/ { on = 1 }
    on { line = line $0; if (sub(/\\$/, "", line)) next; print line; line = "" }
    on && /^ *noosa / { exit }' "$README" | sed 's/^ *//' >commands.txt
cc_line=$(grep '^cc ' commands.txt)
noosa_line=$(grep '^noosa ' commands.txt)
[ -n "$cc_line" ] || fail "README: no cc command with -finstrument-functions"
[ -n "$noosa_line" ] || fail "README: no noosa command after the cc one"
case $noosa_line in
*"profile time on"*) echo "ok: README turns the time profile on" ;;
*) fail "README's noosa command turns no profile on: $noosa_line" ;;
esac
[ "$failures" -eq 0 ] || finish

mkdir bin
cat >bin/pkg-config <<EOF
#!/bin/sh
# pkg-config --cflags --libs dapto, for the tree
[ "\$*" = "--cflags --libs dapto" ] || { echo "pkg-config: \$*: not for this test" >&2; exit 1; }
echo "-I$abs_top_srcdir/lib -L$abs_top_builddir/tests/profile/.libs" \
    "-ldapto-plain -pthread"
EOF
chmod +x bin/pkg-config
cat >prog.c <<'EOF'
#include <stdio.h>

static long grow(long n)
{
    return n < 2 ? n : grow(n - 1) + 1;
}

static long sum(int times)
{
    long s = 0;

    for (int i = 0; i < times; i++)
        s += grow(50);
    return s;
}

int main(void)
{
    printf("sum %ld\n", sum(100));
    return 0;
}
EOF

PATH=$WORK/bin:$PATH
if ! (eval "$cc_line") >cc.out 2>&1; then
    fail "README's cc command failed: $cc_line"
    cat cc.out
    finish
fi
# (noosa as built, and no terminal: batch mode's commands only)
noosa_line=$(printf '%s\n' "$noosa_line" | sed "s|^noosa |\"\$NOOSA\" -n |")
(eval "timeout -k 5 $LIMIT $noosa_line") </dev/null >run.out 2>run.err
echo $? >run.rc
status run 0
has run '^sum 5000$'
has run '^Program exited with status 0\.$'
has run '^Time profile \(1 thread\), by component: [0-9.]+ s$'
has run '^ +[0-9.]+ +[0-9.]+% +[0-9.]+ +[0-9.]+% +5000  grow$'
has run '^ +[0-9.]+ +[0-9.]+% +[0-9.]+ +[0-9.]+% +1  sum$'
has run '^ +[0-9.]+ +[0-9.]+% +[0-9.]+ +[0-9.]+% +1  main$'
finish
