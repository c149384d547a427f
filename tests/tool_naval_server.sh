#!/bin/sh
# SPDX-License-Identifier: MIT
# naval-server's settings from the outside: --help, --check-config on good
# and bad config files (the bad key named), bad flags and environment
# variables exit 2 with the reason, a scenario that does not load is named.
set -u
server=$1
data=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# Runs the server expecting exit code $1 and a message containing $2 on stderr.
expect() {
    code=$1; text=$2; shift 2
    "$server" "$@" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    [ "$rc" = "$code" ] || fail "$* exited $rc, expected $code: $(cat "$tmp/err")"
    grep -qF -- "$text" "$tmp/err" || fail "$*: stderr lacks '$text': $(cat "$tmp/err")"
}

"$server" --help > "$tmp/help" || fail "--help"
for flag in --boats --tick-hz --threads --seed --scenario --config --check-config --snapshot-url --command-url \
            --compact-url --view-url --max-view-radius --http --log-level --terrain NAVAL_ADMIN_TOKEN NAVAL_BOATS; do
    grep -qF -- "$flag" "$tmp/help" || fail "--help does not mention $flag"
done

cat > "$tmp/good.json" <<'JSON'
{"server_name": "test", "boats": 5, "tick_hz": 30, "http": "127.0.0.1:18081",
 "limits": {"vessels_per_client": 4, "requests_per_second": 10}}
JSON
expect 0 "configuration ok" --config "$tmp/good.json" --check-config
/usr/bin/env python3 - "$tmp/out" <<'PY' || fail "--check-config prints the settings as JSON"
import json, sys
c = json.load(open(sys.argv[1]))
assert c["server_name"] == "test" and c["boats"] == 5 and c["tick_hz"] == 30, c
assert c["limits"]["vessels_per_client"] == 4 and c["limits"]["requests_per_second"] == 10, c
assert c["http"] == "127.0.0.1:18081" and c["snapshot_url"] == "tcp://0.0.0.0:7700", c
PY
# --restore-if-present: a first start (no checkpoint yet) builds the world
# and checkpoints where it will restore from; a file that is there (even a
# corrupt one) is left to the restore; alone it is refused.
"$server" --restore "$tmp/none.ckpt" --restore-if-present --check-config > "$tmp/rip.json" 2> "$tmp/err" ||
    fail "--restore-if-present without a checkpoint: $(cat "$tmp/err")"
/usr/bin/env python3 - "$tmp/rip.json" "$tmp/none.ckpt" <<'PY' || fail "--restore-if-present: settings"
import json, sys
c = json.load(open(sys.argv[1]))
assert c["restore"] == "" and c["checkpoint"] == sys.argv[2] and c["boats"] == 200, c
PY
echo "not a checkpoint" > "$tmp/bad.ckpt"
expect 2 "no usable checkpoint" --restore "$tmp/bad.ckpt" --restore-if-present --check-config
expect 2 "restore_if_present needs restore" --restore-if-present --check-config
# A temporary file a killed writer left (the newest checkpoint may be in
# it) is no first start either: the restore looks at it, here refusing it.
echo "not a checkpoint either" > "$tmp/gone.ckpt.tmp.AbC123"
expect 2 "no usable checkpoint" --restore "$tmp/gone.ckpt" --restore-if-present --check-config

expect 2 "or at least 0.1 s" --checkpoint "$tmp/w.ckpt" --checkpoint-interval 0.01 --check-config
expect 2 "is not a URL" --snapshot-url "tcp://127.0.0.1:7700@" --check-config
# Flags win over the environment, which wins over the file.
NAVAL_BOATS=7 "$server" --config "$tmp/good.json" --check-config > "$tmp/env.json" 2>/dev/null || fail "env override"
grep -q '"boats": 7' "$tmp/env.json" || fail "NAVAL_BOATS did not override the file: $(cat "$tmp/env.json")"
NAVAL_BOATS=7 "$server" --config "$tmp/good.json" --boats 9 --check-config > "$tmp/flag.json" 2>/dev/null || fail "flag"
grep -q '"boats": 9' "$tmp/flag.json" || fail "--boats did not override NAVAL_BOATS"
NAVAL_CONFIG="$tmp/good.json" "$server" --check-config > "$tmp/cfgenv.json" 2>/dev/null || fail "NAVAL_CONFIG"
grep -q '"server_name": "test"' "$tmp/cfgenv.json" || fail "NAVAL_CONFIG was not read"
# The admin token is never printed.
NAVAL_ADMIN_TOKEN=abcdefghijklmnopqrstuvwxyz "$server" --check-config > "$tmp/tok.json" 2>/dev/null || fail "token"
grep -q abcdefghijklmnop "$tmp/tok.json" && fail "--check-config printed the admin token"

echo '{"boats": 5, "tick_rate": 30}' > "$tmp/unknown.json"
expect 2 "tick_rate: unknown key" --config "$tmp/unknown.json" --check-config
echo '{"limits": {"vessels_per_clinet": 4}}' > "$tmp/nested.json"
expect 2 "limits.vessels_per_clinet: unknown key" --config "$tmp/nested.json" --check-config
echo '{"boats": -1}' > "$tmp/range.json"
expect 2 "boats: must be an integer in [0, 100000] (got -1)" --config "$tmp/range.json" --check-config
echo '{"boats": 5' > "$tmp/broken.json"
expect 2 "broken.json" --config "$tmp/broken.json" --check-config
expect 2 "missing.json" --config "$tmp/missing.json" --check-config

expect 2 "--boats: must be an integer" --boats many
expect 2 "--tick-hz: must be a number in [1, 1000] Hz (got '0')" --tick-hz 0
expect 2 "--threads: must be an integer in [1, 64]" --threads 0
expect 2 "naval-server: unknown option '--frobnicate'" --frobnicate
expect 2 "naval-server: unknown option '--boat' (did you mean --boats?)" --boat 3
expect 2 "unknown option '--tick-hzz' (did you mean --tick-hz?)" --tick-hzz=30
expect 2 "--seed: missing value" --seed
expect 2 "--http: must be HOST:PORT" --http 8080
expect 2 "--snapshot-url: is not a URL of the form tcp://" --snapshot-url http://localhost:1
expect 2 "--log-level: must be debug" --log-level chatty
expect 2 "must differ" --snapshot-url tcp://127.0.0.1:9 --compact-url tcp://127.0.0.1:9
NAVAL_TICK_HZ=fast "$server" --check-config > /dev/null 2> "$tmp/err" && fail "NAVAL_TICK_HZ=fast accepted"
grep -qF "NAVAL_TICK_HZ: must be a number" "$tmp/err" || fail "NAVAL_TICK_HZ message: $(cat "$tmp/err")"
NAVAL_ADMIN_TOKEN=short "$server" --check-config > /dev/null 2> "$tmp/err" && fail "short admin token accepted"
grep -qF "NAVAL_ADMIN_TOKEN: must be at least 16" "$tmp/err" || fail "admin token message: $(cat "$tmp/err")"

# Scenarios are loaded by --check-config: a bad one is named; one without a
# boat that has a propeller cannot carry the demo fleet.
expect 0 "configuration ok" --scenario "$data/scenarios/harbour.json" --boats 3 --check-config
expect 2 "nowhere.json" --scenario "$tmp/nowhere.json" --check-config
# Without --check-config too: a scenario that does not load is an input
# error (exit 2, the path and the system's reason), found before any port opens.
timeout 30 "$server" --scenario "$tmp/nowhere.json" > /dev/null 2> "$tmp/err"
rc=$?
[ "$rc" = 2 ] || fail "a missing --scenario exited $rc, expected 2: $(cat "$tmp/err")"
grep -qF "$tmp/nowhere.json: cannot open: No such file or directory" "$tmp/err" ||
    fail "a missing --scenario: $(cat "$tmp/err")"
echo '{"hull_types": [{"name": "box", "hull": "builtin:barge", "mass": 40000}], "vessels": []}' > "$tmp/plain.json"
expect 2 "no vessel type with a propeller" --scenario "$tmp/plain.json" --boats 2 --check-config
expect 0 "configuration ok" --scenario "$tmp/plain.json" --check-config

# The ground: builtin:harbour by default, none, or a terrain file; a bad one
# is named with the file, and so is a bad heightmap inside it.
expect 0 "configuration ok" --terrain none --check-config
expect 0 "configuration ok" --terrain builtin:harbour --scenario "$tmp/plain.json" --check-config
expect 2 "no built-in terrain 'atoll'" --terrain builtin:atoll --check-config
expect 2 "nowhere-terrain.json" --terrain "$tmp/nowhere-terrain.json" --check-config
echo '{"heightmap": "missing.png", "cell_size": 4, "min_elevation": -20, "max_elevation": 10}' > "$tmp/ground.json"
expect 2 "terrain.heightmap: $tmp/missing.png" --terrain "$tmp/ground.json" --check-config
echo '{"heightmap": "missing.png", "cell_size": 4, "min_elevation": 10, "max_elevation": -20}' > "$tmp/reversed.json"
expect 2 "max_elevation (-20) must be above min_elevation (10)" --terrain "$tmp/reversed.json" --check-config
echo "tool_naval_server: ok"
