# SPDX-License-Identifier: MIT
# tree.awk - awk functions, read into the normalisers of the test scripts:
# the paths of this tree become SRC (the source tree) and BUILD (the build
# tree), whether the two are apart or one directory.  Uses the awk
# variables src and build (absolute paths).

# LINE with each FROM replaced by TO (FROM is text, not a pattern).
function replace(line, from, to,   i, out) {
    out = ""
    while (from != "" && (i = index(line, from)) > 0) {
        out = out substr(line, 1, i - 1) to
        line = substr(line, i + length(from))
    }
    return out line
}

# Whether the path REL inside a tree built in place was made by the build:
# the tests' work directories and the programs the build links.
function built(rel,   f) {
    if (rel ~ /^\/tests\/[a-z]+\/work(\/|$)/)
        return 1
    f = src rel
    gsub(/'/, "'\\''", f)
    return system("test -f '" f "' && test -x '" f "'") == 0
}

function tree(line,   i, out, rest, rel) {
    if (src != build) {
        # the longer first: one may hold the other (a build directory
        # inside the source tree, or make distcheck's srcdir BUILD/../..)
        if (length(src) > length(build)) {
            line = replace(line, src, "SRC")
            return replace(line, build, "BUILD")
        }
        line = replace(line, build, "BUILD")
        return replace(line, src, "SRC")
    }
    out = ""
    while (src != "" && (i = index(line, src)) > 0) {
        rest = substr(line, i + length(src))
        match(rest, /^[^ \t:"'()]*/)
        rel = substr(rest, 1, RLENGTH)
        out = out substr(line, 1, i - 1) (built(rel) ? "BUILD" : "SRC")
        line = rest
    }
    return out line
}
