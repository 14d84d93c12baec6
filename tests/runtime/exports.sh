#!/bin/sh
# SPDX-License-Identifier: MIT
#
# exports.sh - libdapto exports dapto_* symbols only (and the
# -finstrument-functions hooks when they exist); everything else, the
# channel library included, stays hidden.
set -u
lib="${top_builddir:-.}/lib/.libs/libdapto.so"
[ -r "$lib" ] || { echo "exports.sh: $lib not built (a shared build is needed)"; exit 1; }
command -v nm >/dev/null || { echo "exports.sh: nm not found (Debian package binutils)"; exit 77; }

syms=$(nm -D --defined-only "$lib" | awk '{ print $3 }' | sed 's/@.*//')
fail=0
bad=$(printf '%s\n' "$syms" |
    grep -v -E '^(dapto_|DAPTO_|__cyg_profile_func_(enter|exit)$)' |
    grep -v -E '^(_init|_fini|_edata|_end|__bss_start)$' || true)
if [ -n "$bad" ]; then
    echo "exports.sh: symbols exported that should be hidden:"
    printf '  %s\n' $bad
    fail=1
fi
for s in dapto_register dapto_monitored dapto_event_begin dapto_event_end \
    dapto_put_str dapto_get_int dapto_get_long dapto_get_double dapto_get_str \
    dapto_get_ptr dapto_get_unknown dapto_builtin_state dapto_emit_enter \
    dapto_emit_leave dapto_emit_stopped dapto_event_filter dapto_event_end_as \
    dapto_event_count; do
    printf '%s\n' "$syms" | grep -qx "$s" || { echo "exports.sh: $s not exported"; fail=1; }
done
for s in region_create ring_put ring_take trail_put mailbox_request rt rt_init \
    rtlog_error intern_id stop_event; do
    printf '%s\n' "$syms" | grep -qx "$s" && { echo "exports.sh: $s exported"; fail=1; }
done
[ $fail = 0 ] && echo "exports.sh: $(printf '%s\n' "$syms" | wc -l) symbols, all dapto_*"
exit $fail
