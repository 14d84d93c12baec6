#!/bin/sh
# SPDX-License-Identifier: MIT
# layers.sh - the tree's folders by role keep to the include directions
# their READMEs draw: every folder of lib/ and src/ has a README whose
# "May include:" line names the folders its files may include from, each
# quoted #include is resolved to the folder that holds the header, and a
# header taken from a folder not on the list is an error.  The lists
# themselves must make a graph without a cycle.
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
[ $status = 0 ] && echo "layers: $checked includes in $(echo $folders | wc -w) folders keep to their READMEs"
exit $status
