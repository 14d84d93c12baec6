#!/bin/sh
# SPDX-License-Identifier: MIT
# bootstrap.sh - ./bootstrap's package step with fake apt-get, dpkg-query
# and id on PATH: it names what is missing, waits while another package
# manager holds the lock (saying so once) instead of failing at once,
# gives up with apt-get's own message on any other error, and names the
# packages to install when not run as root.
set -u
: "${srcdir:=.}"
: "${top_builddir:=.}"
WORK=$top_builddir/tests/build/work
rm -rf "$WORK"
mkdir -p "$WORK/bin"
failures=0
fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

# dpkg-query: only tmux is missing.  id: root unless FAKE_UID says.
cat >"$WORK/bin/dpkg-query" <<'SH'
#!/bin/sh
for a; do pkg=$a; done
[ "$pkg" = tmux ] && exit 1
echo "install ok installed"
SH
cat >"$WORK/bin/id" <<'SH'
#!/bin/sh
echo "${FAKE_UID:-0}"
SH
# apt-get: the lock is held for its first LOCKED calls, then it works (or
# fails for another reason when FAKE_APT_FAIL is set); each call is logged.
cat >"$WORK/bin/apt-get" <<'SH'
#!/bin/sh
n=$(cat "$WORK/calls" 2>/dev/null || echo 0)
n=$((n + 1))
echo $n >"$WORK/calls"
echo "apt-get $*" >>"$WORK/log"
if [ "$n" -le "${LOCKED:-0}" ]; then
    echo "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 4242 (apt-get)" >&2
    exit 100
fi
if [ -n "${FAKE_APT_FAIL:-}" ]; then
    echo "E: Unable to locate package tmux" >&2
    exit 100
fi
exit 0
SH
chmod +x "$WORK/bin/"*
export WORK

run() {
    rm -f "$WORK/calls" "$WORK/log"
    PATH=$WORK/bin:$PATH NOOSA_PACKAGES_ONLY=1 NOOSA_LOCK_POLL=0 \
        sh "$srcdir/bootstrap" >"$WORK/out" 2>&1
    echo $? >"$WORK/rc"
}

LOCKED=3 run
if [ "$(cat "$WORK/rc")" = 0 ] &&
    grep -q '^bootstrap: installing tmux$' "$WORK/out" &&
    [ "$(grep -c 'waiting for it' "$WORK/out")" = 1 ] &&
    grep -q 'apt-get .*install -y tmux' "$WORK/log" &&
    [ "$(cat "$WORK/calls")" = 5 ]; then
    echo "ok: waits for the package lock, says so once, then installs"
else
    fail "lock"
    cat "$WORK/out" "$WORK/log"
fi

LOCKED=0 FAKE_APT_FAIL=1 run
if [ "$(cat "$WORK/rc")" != 0 ] &&
    grep -q 'Unable to locate package tmux' "$WORK/out" &&
    ! grep -q 'waiting' "$WORK/out"; then
    echo "ok: another apt-get error ends bootstrap with apt-get's message"
else
    fail "apt error"
    cat "$WORK/out"
fi

FAKE_UID=1000 run
if [ "$(cat "$WORK/rc")" != 0 ] &&
    grep -q 'missing Debian packages: tmux' "$WORK/out" &&
    [ ! -f "$WORK/log" ]; then
    echo "ok: without root, names the packages to install"
else
    fail "not root"
    cat "$WORK/out"
fi

[ "$failures" -eq 0 ] || exit 1
exit 0
