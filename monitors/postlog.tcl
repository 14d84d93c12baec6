# SPDX-License-Identifier: MIT
#
# postlog.tcl - a monitor of the other monitors: it shows, in the
# transcript, every artificial event they post to each other (Eve's
# monitors talking through the coordinator).  It wants no event of the
# program at all.
#
#     monitor enable postlog

n_monitor postlog -description "shows the artificial events monitors post" \
    -post * {
        if {$n_from eq ""} {
            set n_from user
        }
        n_say "posted $n_ename by $n_from: $n_args\n"
    }
