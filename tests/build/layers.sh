#!/bin/sh
# SPDX-License-Identifier: MIT
# layers.sh - the tree's folders by role keep to the include directions
# their READMEs draw: every folder of lib/ and src/ has a README whose
# "May include:" line names the folders its files may include from, each
# quoted #include is resolved to the folder that holds the header, and a
# header taken from a folder not on the list is an error; so is a call
# (or a use of a variable) from a folder's code to a function defined in
# a folder not on its list, read from the built objects' symbols, which a
# declaration in the wrong header would hide from the first check.  The
# lists themselves must make a graph without a cycle.
set -u
top=${abs_top_srcdir:-${top_srcdir:-.}}
cd "$top" || exit 1
status=0

folders=$(find lib src -type f -name README | sed 's|/README$||' | sort)

# allowed FOLDER: its "May include:" list (words that are folders).
allowed() {
    sed -n 's/^May include: *//p' "$1/README" | tr ' ' '\n' | grep '^[a-z]' |
        grep -v '^(nothing'
}

for d in $folders; do
    if ! grep -q '^May include:' "$d/README"; then
        echo "layers: $d/README has no \"May include:\" line"
        status=1
    fi
done

# Every header of the tree, by name: its folder.  A name in two folders
# would make the check ambiguous.
headers=$(for d in $folders; do
    for h in "$d"/*.h; do
        [ -e "$h" ] && echo "$(basename "$h") $d"
    done
done)
dups=$(echo "$headers" | awk '{print $1}' | sort | uniq -d)
if [ -n "$dups" ]; then
    echo "layers: header names in more than one folder: $dups"
    status=1
fi

# Each quoted include of each file, checked against its folder's list.
checked=0
for d in $folders; do
    ok=" $d $(allowed "$d" | tr '\n' ' ') "
    for f in "$d"/*.c "$d"/*.h; do
        [ -e "$f" ] || continue
        for inc in $(sed -n 's/^#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p' "$f"); do
            name=$(basename "$inc")
            from=$(echo "$headers" | awk -v n="$name" '$1 == n {print $2}')
            [ -n "$from" ] || continue  # config.h and generated headers
            checked=$((checked + 1))
            case $ok in
            *" $from "*) ;;
            *)
                echo "layers: $f includes $inc from $from, which $d/README does not allow"
                status=1
                ;;
            esac
        done
    done
done

# Each call (and each use of a variable) across folders, checked against
# the caller's list the same way: an include can be avoided with a
# declaration in the wrong header, a call cannot.  The built objects say
# what each source uses (nm's undefined symbols) and defines (its global
# ones); an object counts for the folder of its source, found by the
# object's name (TARGET-NAME.o or NAME.o, in the folder or its .libs), so
# that objects of sources moved away are not read.
build=${abs_top_builddir:-$top}
objects=$(for d in $folders; do
    [ -d "$build/$d" ] || continue
    find "$build/$d" -maxdepth 2 -name '*.o' | while read -r o; do
        n=$(basename "$o" .o)
        if [ -f "$d/$n.c" ]; then
            echo "$d $d/$n.c $o"
        elif [ -f "$d/${n#*-}.c" ]; then
            echo "$d $d/${n#*-}.c $o"
        fi
    done
done)
nobjects=$(echo "$objects" | grep -c .)
if [ "$nobjects" -lt 100 ]; then
    echo "layers: only $nobjects objects found under $build: is the tree built?"
    status=1
fi
# FOLDER SOURCE OBJECT lines, then nm's OBJECT: SYMBOL TYPE ... lines:
# for each undefined symbol of a source, the sources that define it, and
# an error unless one is in the same folder or one its README allows.
calls=0
for d in $folders; do
    echo "$d $(allowed "$d" | tr '\n' ' ')"
done > "${TMPDIR:-/tmp}/layers.$$.allowed"
echo "$objects" | awk '{print $3}' | xargs nm -A -P 2>/dev/null |
    awk -v objects="$objects" -v allowfile="${TMPDIR:-/tmp}/layers.$$.allowed" '
    BEGIN {
        n = split(objects, lines, "\n")
        for (i = 1; i <= n; i++) {
            split(lines[i], f, " ")
            folder[f[3] ":"] = f[1]
            source[f[3] ":"] = f[2]
        }
        while ((getline line < allowfile) > 0) {
            k = split(line, w, " ")
            for (j = 2; j <= k; j++)
                ok[w[1] " " w[j]] = 1
        }
    }
    !($1 in folder) { next }
    $3 == "U" {
        use[++nuse] = folder[$1] " " source[$1] " " $2
        next
    }
    $3 ~ /^[BCDGRSTVW]$/ {
        if (!(($2 SUBSEP folder[$1]) in seen)) {
            seen[$2, folder[$1]] = 1
            def[$2] = def[$2] " " folder[$1] "=" source[$1]
        }
    }
    END {
        for (i = 1; i <= nuse; i++) {
            split(use[i], u, " ")
            if (!(u[3] in def))
                continue # the C library, Tcl, curses ...
            calls++
            k = split(def[u[3]], ds, " ")
            good = 0
            for (j = 1; j <= k; j++) {
                split(ds[j], p, "=")
                if (p[1] == u[1] || ((u[1] " " p[1]) in ok))
                    good = 1
            }
            if (!good && !((u[2] " " u[3]) in said)) {
                said[u[2] " " u[3]] = 1
                split(ds[1], p, "=")
                printf "layers: %s calls %s, defined in %s, which %s/README does not allow\n", u[2], u[3], p[2], u[1]
            }
        }
        print "calls " calls
    }' > "${TMPDIR:-/tmp}/layers.$$.calls"
calls=$(sed -n 's/^calls //p' "${TMPDIR:-/tmp}/layers.$$.calls")
if grep -q '^layers:' "${TMPDIR:-/tmp}/layers.$$.calls"; then
    grep '^layers:' "${TMPDIR:-/tmp}/layers.$$.calls"
    status=1
fi
rm -f "${TMPDIR:-/tmp}/layers.$$.allowed" "${TMPDIR:-/tmp}/layers.$$.calls"
if [ "${calls:-0}" -lt 100 ]; then
    echo "layers: only ${calls:-0} calls across sources checked: the objects were not read"
    status=1
fi

# The lists form no cycle: repeatedly remove folders all of whose allowed
# folders are already removed.
left=$folders
while [ -n "$left" ]; do
    next=
    removed=0
    for d in $left; do
        blocked=0
        for a in $(allowed "$d"); do
            [ "$a" = "$d" ] && continue
            case " $(echo $left) " in *" $a "*) blocked=1 ;; esac
        done
        if [ $blocked = 0 ]; then
            removed=1
        else
            next="$next $d"
        fi
    done
    if [ $removed = 0 ]; then
        echo "layers: the READMEs' lists make a cycle among:$next"
        status=1
        break
    fi
    left=$(echo $next)
done

if [ "$checked" -lt 100 ]; then
    echo "layers: only $checked includes checked: the tree was not found"
    status=1
fi
[ $status = 0 ] && echo "layers: $checked includes and $calls calls in $(echo $folders | wc -w) folders keep to their READMEs"
exit $status
