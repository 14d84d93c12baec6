#!/bin/sh
# SPDX-License-Identifier: MIT
# tags.sh - every design rule that code or documents cite by tag
# (<design#stub>, <protocol#commit>, <monitors#coordinator>) exists: the
# document doc/DOC.md has a section headed "## TAG" (or one whose heading
# carries the tag itself).  A comment that cites a rule nobody can find is
# worse than none.
set -u
top=${abs_top_srcdir:-${top_srcdir:-.}}
cd "$top" || exit 1
status=0
n=0
for tag in $(grep -rhoE '<(design|protocol|monitors)#[a-z-]+>' \
        src lib bench tests doc man README 2>/dev/null | sort -u); do
    doc=$(echo "$tag" | sed 's/^<\([a-z]*\)#.*/\1/')
    name=$(echo "$tag" | sed 's/^<[a-z]*#\([a-z-]*\)>$/\1/')
    n=$((n + 1))
    if [ ! -f "doc/$doc.md" ]; then
        echo "tags: $tag: there is no doc/$doc.md"
        status=1
    elif ! grep -qE "^## ($name\$|.*<$doc#$name>)" "doc/$doc.md"; then
        echo "tags: $tag: doc/$doc.md has no section \"## $name\""
        status=1
    fi
done
if [ "$n" -lt 10 ]; then
    echo "tags: only $n tags found: the tree was not found"
    status=1
fi
[ $status = 0 ] && echo "tags: the $n tags cited are all in doc/"
exit $status
