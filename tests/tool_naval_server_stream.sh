#!/bin/sh
# SPDX-License-Identifier: MIT
# naval-server's stream read by independent tools: nngcat (nng-utils)
# subscribes over tcp, flatc decodes the snapshot with proto/naval.fbs into
# JSON, and the boats are all there; then SIGTERM exits 0.
set -u
server=$1
flatc=$2
schema=$3
tmp=$(mktemp -d)
pid=
cleanup() { [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; [ -f "$tmp/server.log" ] && cat "$tmp/server.log" >&2; exit 1; }

ports=$(/usr/bin/env python3 -c '
import socket
ss = [socket.socket() for _ in range(4)]
for s in ss: s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in ss))')
set -- $ports
"$server" --boats 20 --threads 1 --log-level info --snapshot-url "tcp://127.0.0.1:$1" \
    --compact-url "tcp://127.0.0.1:$2" --command-url "tcp://127.0.0.1:$3" --http "127.0.0.1:$4" --view-url "" \
    2> "$tmp/server.log" &
pid=$!
snap_port=$1

# Up to 10 s for the server to listen and publish.
i=0
while :; do
    nngcat --sub0 --dial "tcp://127.0.0.1:$snap_port" --subscribe "" --raw --count 1 --recv-timeout 2 \
        > "$tmp/snap.bin" 2>/dev/null && [ -s "$tmp/snap.bin" ] && break
    i=$((i + 1))
    [ $i -lt 10 ] || fail "nngcat received no snapshot"
    sleep 1
done
"$flatc" --json --strict-json --raw-binary --root-type naval.proto.Snapshot -o "$tmp" "$schema" -- "$tmp/snap.bin" \
    || fail "flatc could not decode the snapshot"
/usr/bin/env python3 - "$tmp/snap.json" <<'PY' || fail "decoded snapshot"
import json, math, sys
s = json.load(open(sys.argv[1]))
assert s["tick"] > 0 and s["sim_time"] > 0 and s["send_time_ns"] > 0, s
v = s["vessels"]
assert len(v) == 20, len(v)
assert len({b["id"] for b in v}) == 20
for b in v:
    p, q = b["position"], b["orientation"]
    assert all(math.isfinite(p[k]) for k in "xyz"), b
    assert abs(sum(q[k] ** 2 for k in "xyzw") - 1) < 1e-3, b
assert s["stats"]["vessel_count"] == 20, s["stats"]
PY
# The identifier flatc would have refused otherwise: bytes 4..8 are NVSS.
[ "$(dd if="$tmp/snap.bin" bs=1 skip=4 count=4 2>/dev/null)" = "NVSS" ] || fail "file identifier"
kill -TERM "$pid"
wait "$pid"
rc=$?
pid=
[ "$rc" = 0 ] || fail "SIGTERM: exit code $rc"
grep -q "stopped cleanly" "$tmp/server.log" || fail "no clean-stop line in the log"
echo "tool_naval_server_stream: ok"
