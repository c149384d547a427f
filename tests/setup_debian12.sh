#!/bin/bash
# SPDX-License-Identifier: MIT
# The set-up on a plain Debian 12 (issue 32, item 1): a bookworm minbase
# root made with debootstrap from Debian's archive alone (no NodeSource, no
# Docker), the project's tracked files copied in, and inside it (chroot in a
# private mount namespace, so nothing is mounted on the host):
#   plain    the root is plain Debian: no node, no npm, no NodeSource source
#   setup    scripts/setup.sh installs everything (Debian's nodejs has no
#            npm, so it must add Debian's npm); a second run does nothing
#   node     nodejs is Debian's (not NodeSource's), node and npm run
#   build    `make build`: the web client and the TypeScript package are
#            built (configure does not say node or npm is missing)
#   webtests the web and TypeScript tests that need only node (web_unit,
#            web_ocean, web_hud_unit, ts_package, ts_client) and the page in
#            headless chromium (web_browser) pass, none skipped
#   run      `make run` in a private network namespace serves the 3D page at
#            http://127.0.0.1:8080/ (not the built-in top-down fallback)
#   nonpm    npm hidden from PATH (dpkg still lists it, so setup.sh does not
#            put it back): setup.sh installs nothing, configure says npm is
#            missing, `make test`'s web and TypeScript tests fail naming npm,
#            and NAVAL_SKIP=web skips them instead
# Prints each phase's result and time; exits 1 naming the phase that failed
# (its log's tail is printed; logs in ROOTDIR/logs/).
#
# Usage (root: debootstrap, chroot and unshare need it):
#   tests/setup_debian12.sh [ROOTDIR]        default build/debian12-root
# ROOTDIR caches what is slow to fetch, so a second run is fast:
#   base/        the pristine debootstrap root (remade when older than
#                NAVAL_DEB12_MAX_AGE_DAYS, default 30, or incomplete)
#   cache/apt    the .debs setup.sh downloads (bind-mounted as apt's archives)
#   cache/npm    npm's cache (bind-mounted as /root/.npm)
#   work/        this run's root: a fresh copy of base/ every run, so
#                setup.sh always starts from plain Debian; removed after a
#                pass (NAVAL_DEB12_KEEP=1 keeps it), kept after a failure
#   logs/        one log per phase
# Environment:
#   NAVAL_DEB12_MIRROR    Debian mirror (default: the one apt uses here for
#                         bookworm, else http://deb.debian.org/debian)
#   NAVAL_DEB12_SECURITY  security mirror (default: apt's, else
#                         http://deb.debian.org/debian-security)
#   NAVAL_DEB12_BROWSER=0 leave out web_browser (headless chromium, ~1 min)
#   NAVAL_DEB12_HEAD=1    copy `git archive HEAD` instead of the working tree
#   NAVAL_DEB12_HOST_DEBS=0  do not link this host's kept .debs into cache/apt
#   NAVAL_DEB12_REBUILD=1 remake base/ even when it is cached
# The scripts run in the root are single-quoted on purpose: they expand there.
# shellcheck disable=SC2016
set -Eeuo pipefail
# A command that fails outside fail() (set -e) still names where.
trap 'echo "setup_debian12: stopped at line $LINENO (phase ${phase_name:-before any})" >&2' ERR

repo=$(cd "$(dirname "$0")/.." && pwd)
die() { echo "setup_debian12: $*" >&2; exit 2; }

# What this needs on the host, named when missing (debootstrap is not in
# every Debian install: apt-get install debootstrap).
[ "$(id -u)" -eq 0 ] || die "must run as root (debootstrap, chroot, unshare and mount need it)"
for tool in debootstrap:debootstrap unshare:util-linux chroot:coreutils flock:util-linux ip:iproute2 git:git; do
    command -v "${tool%%:*}" > /dev/null 2>&1 ||
        die "'${tool%%:*}' is missing: install the Debian package ${tool#*:} (apt-get install ${tool#*:})"
done

rootdir=${1:-$repo/build/debian12-root}
mkdir -p "$rootdir"
rootdir=$(cd "$rootdir" && pwd)
base=$rootdir/base
work=$rootdir/work
logs=$rootdir/logs
apt_cache=$rootdir/cache/apt
npm_cache=$rootdir/cache/npm
max_age=${NAVAL_DEB12_MAX_AGE_DAYS:-30}
browser=${NAVAL_DEB12_BROWSER:-1}

# One run at a time per ROOTDIR: two would copy over each other's work/.
exec 9> "$rootdir/.lock"
flock -n 9 || die "another run holds $rootdir/.lock"

# The mirrors apt uses here, so the root comes from the same place (and
# works where only that mirror is reachable).
apt_site() {
    apt-get indextargets --format '$(RELEASE) $(REPO_URI)' 'Created-By: Packages' 2> /dev/null |
        awk -v r="$1" '$1 == r { sub(/\/$/, "", $2); print $2; exit }'
}
mirror=${NAVAL_DEB12_MIRROR:-$(apt_site bookworm)}
mirror=${mirror:-http://deb.debian.org/debian}
security=${NAVAL_DEB12_SECURITY:-$(apt_site bookworm-security)}
security=${security:-http://deb.debian.org/debian-security}

mkdir -p "$logs" "$apt_cache" "$npm_cache"
rm -f "$logs"/*.log
summary=()
phase_name="" phase_start=0

begin() { phase_name=$1; phase_start=$SECONDS; echo "== $1: $2"; }
pass() {
    local line
    line=$(printf '%-9s ok    %4ds  %s' "$phase_name" $((SECONDS - phase_start)) "$1")
    summary+=("$line"); echo "   $line"
}
report() {
    echo
    echo "setup_debian12: Debian 12 (bookworm, $mirror) in $rootdir"
    for line in "${summary[@]}"; do echo "  $line"; done
    echo "  total             $((SECONDS))s"
}
fail() {
    summary+=("$(printf '%-9s FAIL  %4ds  %s' "$phase_name" $((SECONDS - phase_start)) "$1")")
    if [ -s "$logs/$phase_name.log" ]; then
        echo "---- last lines of $logs/$phase_name.log"
        tail -n 40 "$logs/$phase_name.log"
        echo "----"
    fi
    report
    echo "setup_debian12: FAILED in phase '$phase_name': $1" >&2
    exit 1
}

# Runs a bash script inside work/ as root with a clean environment. A
# private mount namespace (unshare -m, private propagation) holds /proc,
# /dev, /dev/pts, a fresh /dev/shm and the caches: they go away with it and
# never show on the host. --nonet adds a private network namespace (only
# loopback): `make run`'s ports then clash with nothing on the host.
in_root() {
    local net=""
    if [ "$1" = --nonet ]; then net=-n; shift; fi
    unshare -m --propagation private $net /bin/sh -ec '
        r=$1 apt=$2 npm=$3 net=$4 script=$5
        [ -z "$net" ] || ip link set lo up
        mount -t proc proc "$r/proc"
        mount --bind /dev "$r/dev"
        mount --bind /dev/pts "$r/dev/pts"
        mount -t tmpfs -o mode=1777,nosuid,nodev shm "$r/dev/shm"
        mkdir -p "$r/var/cache/apt/archives" "$r/root/.npm"
        mount --bind "$apt" "$r/var/cache/apt/archives"
        mount --bind "$npm" "$r/root/.npm"
        ca=""
        [ ! -f "$r/etc/ssl/host-extra-ca.crt" ] || ca=NODE_EXTRA_CA_CERTS=/etc/ssl/host-extra-ca.crt
        # a proxy set in the environment reaches apt and npm in the root
        proxies=""
        for v in http_proxy https_proxy no_proxy HTTP_PROXY HTTPS_PROXY NO_PROXY; do
            eval "val=\${$v:-}"
            [ -z "$val" ] || proxies="$proxies $v=$val"
        done
        exec chroot "$r" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb $ca $proxies \
            PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
            /bin/bash -euo pipefail -c "cd /src/naval; $script"
    ' in_root "$work" "$apt_cache" "$npm_cache" "$net" "$1"
}

# ---- root: the pristine bookworm minbase, made once and cached
begin root "Debian 12 minbase from $mirror"
if [ -f "$rootdir/base.ok" ] && [ -d "$base" ] && [ "${NAVAL_DEB12_REBUILD:-0}" != 1 ] &&
    [ -z "$(find "$rootdir/base.ok" -mtime +"$max_age")" ]; then
    pass "cached ($(cat "$rootdir/base.ok"))"
else
    rm -rf "$base" "$rootdir/base.tmp" "$rootdir/base.ok"
    if ! debootstrap --variant=minbase bookworm "$rootdir/base.tmp" "$mirror" > "$logs/root.log" 2>&1; then
        fail "debootstrap bookworm from $mirror failed"
    fi
    # The sources a Debian 12 image has (deb822, as debian:12 ships them):
    # the release, its updates and security; nothing else.
    rm -f "$rootdir/base.tmp/etc/apt/sources.list"
    cat > "$rootdir/base.tmp/etc/apt/sources.list.d/debian.sources" << EOF
Types: deb
URIs: $mirror
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: $security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    # Packages' maintainer scripts must not start daemons in a chroot (they
    # would run in the host's network namespace): the usual policy-rc.d.
    printf '#!/bin/sh\nexit 101\n' > "$rootdir/base.tmp/usr/sbin/policy-rc.d"
    chmod 755 "$rootdir/base.tmp/usr/sbin/policy-rc.d"
    mv "$rootdir/base.tmp" "$base"
    echo "bookworm minbase from $mirror, made $(date -u +%Y-%m-%dT%H:%MZ)" > "$rootdir/base.ok"
    pass "debootstrap done ($(du -sh "$base" | cut -f1))"
fi

# ---- copy: a fresh root from base/, the project's tracked files in /src/naval
begin copy "fresh root and the project's tracked files"
rm -rf "$work"
cp -a "$base" "$work"
mkdir -p "$work/src/naval"
# resolv.conf: the host's resolver (the root shares its network).
cat /etc/resolv.conf > "$work/etc/resolv.conf"
# A host behind a TLS-intercepting proxy trusts the proxy's CA for node
# through NODE_EXTRA_CA_CERTS; npm ci in the root needs the same (apt uses
# plain http and signed indexes). Only node reads it: the root's own CA
# store stays Debian's.
if [ -r "${NODE_EXTRA_CA_CERTS:-}" ]; then
    mkdir -p "$work/etc/ssl"
    cat "$NODE_EXTRA_CA_CERTS" > "$work/etc/ssl/host-extra-ca.crt"
fi
# The .debs this host's own apt has kept (Debian 12 too: the same files),
# hard-linked into the cache (nothing where the cache is on another file
# system); apt checks each against the archive's index and fetches what is
# missing or differs. On a fresh clone (CI) it saves the download, about
# 35 of the setup phase's 210 s here. NAVAL_DEB12_HOST_DEBS=0 fetches
# everything.
if [ "${NAVAL_DEB12_HOST_DEBS:-1}" = 1 ] && grep -q '^12\.' /etc/debian_version 2> /dev/null; then
    find /var/cache/apt/archives -maxdepth 1 -name '*.deb' -exec cp -ln -t "$apt_cache" {} + 2> /dev/null || true
fi
if [ "${NAVAL_DEB12_HEAD:-0}" = 1 ]; then
    git -C "$repo" archive HEAD | tar -x -C "$work/src/naval"
    what="git archive HEAD ($(git -C "$repo" rev-parse --short HEAD))"
else
    # The working tree's tracked files, as they are now (a tracked file
    # deleted but not yet committed is left out).
    (cd "$repo" && git ls-files -z | while IFS= read -r -d '' f; do
        if [ -e "$f" ] || [ -L "$f" ]; then printf '%s\0' "$f"; fi
    done | tar --null -T - -cf -) | tar -x -C "$work/src/naval"
    what="working tree ($(git -C "$repo" ls-files | wc -l) tracked files)"
fi
pass "$what"

# ---- plain: nothing of node in the fresh root, no NodeSource anywhere
begin plain "the root is plain Debian 12"
if ! in_root '
    grep -q "^12\." /etc/debian_version || { echo "not Debian 12: $(cat /etc/debian_version)"; exit 1; }
    if command -v node || command -v npm; then echo "node or npm already here"; exit 1; fi
    if grep -rqi nodesource /etc/apt; then echo "a NodeSource source is configured"; exit 1; fi
    echo "Debian $(cat /etc/debian_version), no node, no npm, no NodeSource source"
' > "$logs/plain.log" 2>&1; then
    fail "the fresh root is not plain Debian 12"
fi
pass "$(tail -n 1 "$logs/plain.log")"

# ---- setup: the project's own scripts/setup.sh, twice
begin setup "scripts/setup.sh (packages.txt, packages-runtime.txt, npm)"
if ! in_root '
    ./scripts/setup.sh 2>&1 | tee /tmp/setup1.log
    grep -q "setup: installing.* npm" /tmp/setup1.log || { echo "setup.sh did not install npm"; exit 1; }
    echo "== second run (must install nothing)"
    ./scripts/setup.sh 2>&1 | tee /tmp/setup2.log
    if grep -q "setup: installing" /tmp/setup2.log; then echo "second run installed again"; exit 1; fi
' > "$logs/setup.log" 2>&1; then
    fail "scripts/setup.sh failed on plain Debian 12 (see $logs/setup.log)"
fi
pass "installed $(grep -m1 'setup: installing' "$logs/setup.log" | wc -w | awk '{print $1 - 2}') listed packages (npm among them) and their dependencies; a second run installs nothing"

# ---- node: Debian's nodejs and npm
begin node "nodejs is Debian's and npm runs"
if ! in_root '
    v=$(dpkg-query -W -f="\${Version}" nodejs)
    case "$v" in *nodesource*) echo "nodejs $v is NodeSource'"'"'s"; exit 1 ;; esac
    dpkg-query -W -f="\${Status}" npm | grep -q "install ok installed" || { echo "Debian'"'"'s npm package is not installed"; exit 1; }
    echo "nodejs $v (node $(node --version)), npm $(npm --version) (Debian $(dpkg-query -W -f="\${Version}" npm))"
' > "$logs/node.log" 2>&1; then
    fail "$(tail -n 1 "$logs/node.log")"
fi
pass "$(tail -n 1 "$logs/node.log")"

# ---- build: make build (setup, configure, everything in ALL)
begin build "make build (web client and TypeScript package included)"
if ! in_root '
    make build
    for f in build/clients/web/dist/index.html build/clients/web/dist/app.js build/clients/ts/dist/index.js; do
        [ -s "$f" ] || { echo "$f was not built"; exit 1; }
    done
' > "$logs/build.log" 2>&1; then
    fail "make build failed (see $logs/build.log)"
fi
if grep -q 'node or npm not found' "$logs/build.log"; then
    fail "configure did not find node or npm"
fi
pass "web client and TypeScript package built"

# ---- webtests: the node-only web and TS tests, and the page in chromium
tests="web_unit web_ocean web_hud_unit ts_package ts_client"
[ "$browser" = 0 ] || tests="$tests web_browser"
ntests=$(echo "$tests" | wc -w)
begin webtests "ctest: $tests"
if ! in_root "ctest --test-dir build --output-on-failure -R '^($(echo "$tests" | tr ' ' '|'))\$'" \
    > "$logs/webtests.log" 2>&1; then
    fail "$(grep -E '\(Failed|\(Timeout|\*\*\*' "$logs/webtests.log" | tr -s ' ' | head -n 3 | tr '\n' ';')"
fi
if grep -Eq 'Skipped|Not Run|did not run' "$logs/webtests.log"; then
    fail "tests were skipped: $(grep -E 'Skipped|Not Run' "$logs/webtests.log" | tr -s ' ' | tr '\n' ';')"
fi
grep -q "tests passed, 0 tests failed out of $ntests\$" "$logs/webtests.log" ||
    fail "expected $ntests tests to run and pass"
pass "$ntests passed, none skipped"

# ---- run: make run serves the 3D page (the built bundle, not the fallback)
begin run "make run serves the 3D page on :8080"
if ! in_root --nonet '
    set -m   # make run in its own process group: Ctrl-C (SIGINT) reaches all of it
    make run RUN_ARGS="--boats 20" > /tmp/run.log 2>&1 &
    pid=$!
    ok=0
    for i in $(seq 120); do
        if curl -fsS -o /tmp/index.html http://127.0.0.1:8080/ 2> /dev/null; then ok=1; break; fi
        kill -0 "$pid" 2> /dev/null || break
        sleep 1
    done
    curl -fsS -o /tmp/app.js http://127.0.0.1:8080/app.js || true
    kill -INT -"$pid" 2> /dev/null || true
    for i in $(seq 15); do kill -0 -"$pid" 2> /dev/null || break; sleep 1; done
    kill -KILL -"$pid" 2> /dev/null || true
    cat /tmp/run.log
    [ "$ok" = 1 ] || { echo "nothing answered on http://127.0.0.1:8080/"; exit 1; }
    if grep -q "<title>naval-server</title>" /tmp/index.html; then
        echo "/ is the built-in top-down page, not the web client"; exit 1
    fi
    grep -q "<title>naval: live view</title>" /tmp/index.html && grep -q "id=\"view\"" /tmp/index.html ||
        { echo "/ is not the 3D page:"; head -c 400 /tmp/index.html; exit 1; }
    [ -s /tmp/app.js ] || { echo "/app.js (the bundle) was not served"; exit 1; }
    echo "/ is the 3D page (naval: live view), /app.js $(wc -c < /tmp/app.js) bytes"
' > "$logs/run.log" 2>&1; then
    fail "$(tail -n 1 "$logs/run.log")"
fi
pass "$(tail -n 1 "$logs/run.log")"

# ---- nonpm: npm gone from PATH, make test's first stage must name it
begin nonpm "npm absent: configure and the web/TS tests name npm"
if ! in_root '
    npm=$(command -v npm)
    mv "$npm" "$npm.hidden"
    trap "mv \"$npm.hidden\" \"$npm\"" EXIT
    if command -v npm; then echo "npm still on PATH"; exit 1; fi
    echo "== setup.sh (dpkg still lists npm: must install nothing)"
    ./scripts/setup.sh 2>&1 | tee /tmp/setup.log
    if grep -q "setup: installing" /tmp/setup.log; then echo "setup.sh reinstalled"; exit 1; fi
    echo "== configure (make check'"'"'s first step, in build-nonpm)"
    cmake -S . -B build-nonpm -DCMAKE_BUILD_TYPE=Release 2>&1 | tee /tmp/configure.log
    grep -i "npm" /tmp/configure.log | grep -qi "not found" ||
        { echo "configure did not say npm is missing"; exit 1; }
    echo "== the web and TS tests as make check runs them"
    if ctest --test-dir build-nonpm --output-on-failure -R "^(web_unit|ts_package)\$" 2>&1 | tee /tmp/ctest.log; then
        echo "the web and TS tests passed without npm"; exit 1
    fi
    grep -q "FAIL: .*npm" /tmp/ctest.log || { echo "the failing tests do not name npm"; exit 1; }
    echo "== NAVAL_SKIP=web skips them instead"
    NAVAL_SKIP=web ctest --test-dir build-nonpm -R "^(web_unit|ts_package)\$" 2>&1 | tee /tmp/skip.log
    grep -q "Skipped" /tmp/skip.log || { echo "NAVAL_SKIP=web did not skip them"; exit 1; }
    echo "$(grep -m1 "FAIL: " /tmp/ctest.log | cut -c1-100)"
' > "$logs/nonpm.log" 2>&1; then
    fail "$(tail -n 1 "$logs/nonpm.log")"
fi
pass "fails naming npm: $(tail -n 1 "$logs/nonpm.log")"

# work/ (2.2 GB once built) is kept only when something failed, to look
# into, or when asked: the cache then stays about 0.6 GB.
begin clean "remove work/"
if [ "${NAVAL_DEB12_KEEP:-0}" = 1 ]; then
    pass "kept (NAVAL_DEB12_KEEP=1): $work"
else
    rm -rf "$work"
    pass "removed; the cache is $(du -sh "$rootdir" | cut -f1)"
fi
report
echo "setup_debian12: passed"
