#!/bin/sh
# SPDX-License-Identifier: MIT
#
# man.sh - noosa(1) and noosa-tcl(7) render without warnings; noosa(1)
# documents every option that `noosa --help` lists and the commands of the
# front end; noosa-tcl(7) documents every command and variable of the
# Noosa Tcl API.
set -u
page1=$abs_top_srcdir/man/noosa.1
page7=$abs_top_srcdir/man/noosa-tcl.7
noosa=$abs_top_builddir/src/noosa
fail=0

if command -v groff >/dev/null 2>&1; then
    for page in "$page1" "$page7"; do
        warnings=$(groff -t -man -ww -z -Tutf8 "$page" 2>&1)
        if [ -n "$warnings" ]; then
            echo "FAIL: groff warns about $(basename "$page"):"
            echo "$warnings"
            fail=1
        fi
    done
else
    echo "note: groff not found; rendering not checked"
fi

# has PAGE TEXT WHAT: PAGE's source has TEXT (where a dash is written \-).
has() {
    if ! grep -q -F -e "$(printf '%s' "$2" | sed 's/-/\\-/g')" "$1"; then
        echo "FAIL: $(basename "$1") does not document $3 $2"
        fail=1
    fi
}

opts=$("$noosa" --help | grep -o -e '--[a-z-]*' -e ' -[a-zA-Z],' | tr -d ' ,' | sort -u)
if [ -z "$opts" ]; then
    echo "FAIL: noosa --help lists no options"
    fail=1
fi
for opt in $opts; do
    has "$page1" "$opt" option
done
for cmd in run continue step stop kill break delete enable disable \
    'handler add' 'handler remove' 'handler list' 'handler save' \
    'handler load' send 'info events' 'info aspects' 'info operations' \
    'info breakpoints' 'info handlers' 'info program' 'info processes' \
    attach detach follow-fork help quit values open \
    NOOSA_LIBRARY .noosarc init.tcl 'EXIT STATUS'; do
    has "$page1" "$cmd" command
done
for name in n_say n_say_val n_send n_break n_hextodec n_dectohex \
    n_provided n_install_handler 'n(status)' 'n(pid)' 'n(where)' \
    'n(events)' 'n(aspects)' 'n(operations)' n_ename n_time n_thread \
    '.B ev' '_say' '_open' ',desc)'; do
    has "$page7" "$name" "the API's"
done
[ $fail -eq 0 ] && echo "ok: noosa.1 and noosa-tcl.7"
exit $fail
