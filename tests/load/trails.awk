# SPDX-License-Identifier: MIT
# trails.awk - checks the last events of `lt trails T N LIVE` as a fault
# report shows them (tests/load/trails.sh, stress.sh): every thread's
# tocks in its own order without a gap, the threads of the last wave
# (th >= FIRST) ending at their last tock (N - 1), and, with WHOLE, each
# of them from its first; nothing unreadable.  Prints one line:
#   trails threads T last-wave W gaps G bad B
/^  tock th=/ {
    split($2, a, "="); split($3, b, "=")
    th = a[2] + 0; i = b[2] + 0
    if (th in last) {
        if (i != last[th] + 1) gaps++
    } else {
        first[th] = i
    }
    last[th] = i
    next
}
/^  tick i=[0-9]+ label="alarm" \(thread [0-9]+\)$/ { next }
/^  init pid=/ { next }
/^  / && inlast { bad++ }
/^Last [0-9]+ events? before the error/ { inlast = 1; next }
/^[^ ]/ { inlast = 0 }
END {
    for (th in last) {
        nt++
        if (th + 0 < FIRST) continue
        w++
        if (last[th] != N - 1 || (WHOLE && first[th] != 0)) bad++
    }
    printf "trails threads %d last-wave %d gaps %d bad %d\n", nt, w, gaps, bad
}
