#!/bin/sh
# SPDX-License-Identifier: MIT
#
# man-commands.sh - noosa(1) documents exactly the commands noosa has: the
# tags of the COMMANDS section (and of THE SCREEN, where bind and screen
# are) against the command tables, as ::noosa::commands lists them (the
# screen's commands are registered in batch mode too).  A tag names its
# command first, in bold; "enable ..., disable ..." names two.  And every
# word of gdb that only says what to use instead is named in bold in the
# section "gdb's words", and only those (a word that came to work is a
# command, documented as one).
set -u
page=${MAN_PAGE:-$abs_top_srcdir/man/noosa.1}
noosa=$abs_top_builddir/src/noosa
tmp=${TMPDIR:-/tmp}/noosa-man-commands.$$
trap 'rm -f "$tmp".*' EXIT

# The first argument of a .B/.BR/.BI tag, and the bold word after a roman
# ", " outside parentheses (.BR alternates bold and roman arguments).
awk '
/^\.SH/ { on = ($0 ~ /^\.SH (COMMANDS|THE SCREEN)$/); next }
!on { next }
/^\.TP/ { tag = 1; next }
tag {
    tag = 0
    if ($0 !~ /^\.B[RI]? /) next
    macro = $1
    line = substr($0, length(macro) + 2)
    n = 0
    while (length(line) > 0) {
        sub(/^ +/, "", line)
        if (line == "") break
        if (substr(line, 1, 1) == "\"") {
            end = index(substr(line, 2), "\"")
            arg[n++] = substr(line, 2, end - 1)
            line = substr(line, end + 2)
        } else {
            sp = index(line, " ")
            if (sp == 0) { arg[n++] = line; line = "" }
            else { arg[n++] = substr(line, 1, sp - 1); line = substr(line, sp) }
        }
    }
    split(arg[0], w, " ")
    gsub(/\\-/, "-", w[1])
    print w[1]
    if (macro == ".BR") {
        depth = 0
        for (i = 1; i < n; i += 2) {
            depth += gsub(/\(/, "(", arg[i]) - gsub(/\)/, ")", arg[i])
            if (depth == 0 && arg[i] ~ /, $/ && i + 1 < n)
                print arg[i + 1]
        }
    }
}' "$page" | sort -u > "$tmp.man"

"$noosa" -b -n -e 'foreach c [::noosa::commands] {
    if {[dict get $c kind] eq "command" && ![dict get $c hidden]} {
        puts [dict get $c name]
    }
}' | sort -u > "$tmp.noosa"

if [ ! -s "$tmp.noosa" ] || [ ! -s "$tmp.man" ]; then
    echo "FAIL: no commands found (noosa: $(wc -l < "$tmp.noosa"),"\
        "noosa.1: $(wc -l < "$tmp.man"))"
    exit 1
fi
fail=0
for c in $(comm -23 "$tmp.noosa" "$tmp.man"); do
    echo "FAIL: command $c is missing from noosa.1's COMMANDS"
    fail=1
done
for c in $(comm -13 "$tmp.noosa" "$tmp.man"); do
    echo "FAIL: noosa.1's COMMANDS names $c, which is no command"
    fail=1
done
[ $fail -eq 0 ] && echo "ok: noosa.1 documents the $(wc -l < "$tmp.noosa") commands"

# The words that only say what to use instead (gdb's words), names and
# aliases, against the bold words of the section "gdb's words".
awk '
/^\.S[SH]/ { on = ($0 ~ /^\.SS gdb.s words$/); next }
!on || !/^\.B/ { next }
{
    sub(/^\.BR? /, "")
    n = split($0, f, "\"")
    for (i = 1; i <= n; i++) {
        gsub(/[(),.]/, "", f[i])
        gsub(/^ +| +$/, "", f[i])
        if (f[i] != "") print f[i]
    }
}' "$page" | sort -u > "$tmp.gdbman"
"$noosa" -b -n -e 'foreach c [::noosa::commands] {
    if {[dict get $c kind] eq "instead"} {
        puts [dict get $c name]
        foreach a [dict get $c aliases] { puts $a }
    }
}' | sort -u > "$tmp.gdb"
if [ ! -s "$tmp.gdb" ]; then
    echo "FAIL: no words that say what to use instead"
    fail=1
fi
for w in $(comm -23 "$tmp.gdb" "$tmp.gdbman" | tr ' ' '_'); do
    echo "FAIL: gdb's word \"$(echo "$w" | tr _ ' ')\" is missing from noosa.1's gdb's words"
    fail=1
done
for w in $(comm -13 "$tmp.gdb" "$tmp.gdbman" | grep -v -x -e 'BI help' -e word |
           tr ' ' '_'); do
    echo "FAIL: noosa.1's gdb's words names \"$(echo "$w" | tr _ ' ')\", which is no word that only says what to use instead (a command is documented as one)"
    fail=1
done
[ $fail -eq 0 ] && echo "ok: noosa.1 names the $(wc -l < "$tmp.gdb") gdb words"
exit $fail
