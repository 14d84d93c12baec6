# SPDX-License-Identifier: MIT
# threads.awk - checks `noosa dump` of `pt threads N K`: every worker
# thread's events, in its own order, exactly worker{K x step{tick i}}
# with i counting from 0.  Prints "threads DONE bad BAD" (DONE: the
# threads whose sequence is whole and right; BAD: events out of place).
# Threads whose first event is not the worker's enter (main) are left
# out.  Variable K: the ticks a worker makes.
/^[0-9]/ {
    t = $3
    sub(/^[0-9]+ [0-9]+ thread=[0-9]+ /, "")
    e = $0
    if (!(t in st)) {
        st[t] = e == "enter name=\"worker\"" ? 0 : -1
        n[t] = 0
        next
    }
    if (st[t] == -1 || st[t] == -2)
        next
    if (st[t] == 0 && e == "enter name=\"step\"")
        st[t] = 1
    else if (st[t] == 0 && e == "leave name=\"worker\"" && n[t] == K) {
        st[t] = 9
        done++
    } else if (st[t] == 1 && e == "tick n=" n[t])
        st[t] = 2
    else if (st[t] == 2 && e == "leave name=\"step\"") {
        st[t] = 0
        n[t]++
    } else {
        bad++
        if (st[t] == 9)
            done--
        st[t] = -2
    }
}
END { printf "threads %d bad %d\n", done, bad }
