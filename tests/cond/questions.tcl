# SPDX-License-Identifier: MIT
# questions.tcl - the reference for tests/cond/questions.sh: the same
# aggregations as a question, computed in noosa by a handler on every
# event (the records path), and both printed in one canonical form.

# ref(NAME): a dict of question NAME's groups, each a list of values.
array set ::ref {}

# ref_add NAME KEY VALUE: one event of question NAME's group KEY.
proc ref_add {name key value} {
    dict lappend ::ref($name) $key $value
}

# The lowest value of VALUE's power-of-two bucket (<protocol#question>).
proc bucket {v} {
    set v [expr {entier($v)}]
    if {$v == 0} { return 0 }
    set m [expr {abs($v)}]
    set k 0
    while {(1 << $k) <= $m} { incr k }
    if {$v > 0} { return [expr {1 << ($k - 1)}] }
    return [expr {-((1 << $k) - 1)}]
}

proc wrap {v} {
    expr {(($v + 2**63) % 2**64) - 2**63}
}

proc num {v double} {
    if {$double} { return [format %.3f $v] }
    return $v
}

# ref_lines NAME VALUE? DOUBLE HIST: question NAME's groups, one a line.
proc ref_lines {name hasvalue double hist} {
    set out {}
    if {![info exists ::ref($name)]} { return $out }
    dict for {key values} $::ref($name) {
        set line [list $key [llength $values]]
        if {$hasvalue} {
            set sum [tcl::mathop::+ {*}$values]
            if {!$double} { set sum [wrap $sum] }
            lappend line [num $sum $double] \
                [num [tcl::mathfunc::min {*}$values] $double] \
                [num [tcl::mathfunc::max {*}$values] $double]
        }
        if {$hist} {
            set h [dict create]
            foreach v $values { dict incr h [bucket $v] }
            set hl {}
            foreach b [lsort -integer [dict keys $h]] { lappend hl $b [dict get $h $b] }
            lappend line $hl
        }
        lappend out $line
    }
    lsort $out
}

# q_lines NAME KEYNAMES HASVALUE DOUBLE HIST: the same from question get.
proc q_lines {name keynames hasvalue double hist} {
    set out {}
    foreach d [question get $name] {
        set key {}
        foreach k $keynames { lappend key [dict get $d $k] }
        if {[llength $keynames] == 1} { set key [lindex $key 0] }
        set line [list $key [dict get $d count]]
        if {$hasvalue} {
            foreach f {sum min max} { lappend line [num [dict get $d $f] $double] }
        }
        if {$hist} { lappend line [dict get $d hist] }
        lappend out $line
    }
    lsort $out
}

# same NAME ...: print whether the question and the reference agree.
proc same {name keynames hasvalue double hist} {
    set a [q_lines $name $keynames $hasvalue $double $hist]
    set b [ref_lines $name $hasvalue $double $hist]
    if {$a eq $b} {
        puts "same $name: [llength $a] groups"
    } else {
        puts "differ $name:\n  question: [lrange $a 0 5]\n  handler:  [lrange $b 0 5]"
    }
}
