#!/bin/sh
# SPDX-License-Identifier: MIT
# The C# console sample (clients/csharp/Sample.cs) under mono, through
# libnaval_client.so, against a real naval-server on free loopback ports:
# bad arguments exit 2 naming the flag, nothing listening exits 1; then it
# spawns a skiff, steers it to starboard and to port in two runs, each boat
# moving off and turning the way its rudder says (starboard: heading
# decreasing, the protocol's headings turn from +x toward -z), and despawns
# it. From outside, naval-watch sees the first boat while the sample holds
# it (type, where the sample says it ended, its heading) and no longer
# sees it once the sample is done.
# Usage: csharp_sample.sh MONO naval-sample.exe LIBDIR NAVAL_SERVER NAVAL_WATCH
set -u
mono=$1
sample=$2
libdir=$3
server=$4
watch=$5
tmp=$(mktemp -d)
pid=
spid=
cleanup() {
    [ -n "$spid" ] && kill "$spid" 2>/dev/null
    [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; [ -f "$tmp/server.log" ] && tail -5 "$tmp/server.log" >&2; exit 1; }
export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

# Runs the sample expecting exit code $1 and $2 in its stderr.
expect() {
    code=$1; text=$2; shift 2
    "$mono" "$sample" "$@" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    [ "$rc" = "$code" ] || fail "naval-sample $* exited $rc, expected $code: $(cat "$tmp/err")"
    grep -qF -- "$text" "$tmp/err" || fail "naval-sample $*: stderr lacks '$text': $(cat "$tmp/err")"
}

set -- $(/usr/bin/env python3 -c '
import socket
ss = [socket.socket() for _ in range(6)]
for s in ss: s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in ss))')
snap=$1 compact=$2 cmd=$3 http=$4 view=$5 nothing=$6

"$mono" "$sample" --help > "$tmp/help" 2>&1 || fail "naval-sample --help exited $?: $(cat "$tmp/help")"
for flag in --snapshots --commands --type --seconds --throttle --rudder --hold; do
    grep -q -- "^  $flag " "$tmp/help" || fail "naval-sample --help does not list $flag: $(cat "$tmp/help")"
done
expect 2 "--rudder: expected a number in [-1, 1] (got '3')" --rudder 3
expect 2 "unknown option '--rudr'" --rudr 0.5
expect 2 "--seconds: expected a value" --seconds
expect 1 "cannot connect to tcp://127.0.0.1:$nothing" --snapshots "tcp://127.0.0.1:$nothing" \
    --commands "tcp://127.0.0.1:$nothing"

# Flat water, no ground, one patrol boat far off: the turns are the rudder's.
"$server" --scenario "$(dirname "$0")/calm_sea.json" --threads 1 --log-level warn --snapshot-url "tcp://127.0.0.1:$snap" \
    --compact-url "tcp://127.0.0.1:$compact" --command-url "tcp://127.0.0.1:$cmd" --http "127.0.0.1:$http" \
    --view-url "tcp://127.0.0.1:$view" 2>> "$tmp/server.log" &
pid=$!
urls="--snapshots tcp://127.0.0.1:$snap --commands tcp://127.0.0.1:$cmd"
# Wait for the server (naval-watch --once waits up to --timeout).
"$watch" "tcp://127.0.0.1:$snap" --once --json --timeout 10 > /dev/null 2> "$tmp/err" \
    || fail "the server did not come up: $(cat "$tmp/err")"

# 1: to starboard, held 4 s stopped before the despawn for naval-watch.
"$mono" "$sample" $urls --type skiff --seconds 6 --throttle 1 --rudder 0.3 --hold 4 > "$tmp/starboard" \
    2> "$tmp/starboard.err" &
spid=$!
i=0
until grep -qs '^holding ' "$tmp/starboard"; do
    kill -0 "$spid" 2>/dev/null || fail "the sample ended before holding: $(cat "$tmp/starboard" "$tmp/starboard.err")"
    i=$((i + 1))
    [ $i -lt 300 ] || fail "the sample never held its boat: $(cat "$tmp/starboard" "$tmp/starboard.err")"
    sleep 0.1
done
id=$(sed -n 's/^spawned id \([0-9]*\) .*/\1/p' "$tmp/starboard")
[ -n "$id" ] || fail "no spawned line: $(cat "$tmp/starboard")"
"$watch" "tcp://127.0.0.1:$snap" --commands "tcp://127.0.0.1:$cmd" --once --json --follow "$id" > "$tmp/held.json" \
    2> "$tmp/err" || fail "naval-watch --follow $id while the sample holds it: $(cat "$tmp/err")"
wait "$spid"
rc=$?
spid=
[ $rc = 0 ] || fail "the sample (starboard) exited $rc: $(cat "$tmp/starboard" "$tmp/starboard.err")"
"$watch" "tcp://127.0.0.1:$snap" --once --follow "$id" > /dev/null 2> "$tmp/gone.err"
[ $? = 1 ] && grep -q "boat $id is not in the snapshot" "$tmp/gone.err" \
    || fail "boat $id is still there after the sample despawned it: $(cat "$tmp/gone.err")"

# 2: to port, no hold.
"$mono" "$sample" $urls --type skiff --seconds 6 --throttle 1 --rudder -0.3 > "$tmp/port" 2> "$tmp/port.err" \
    || fail "the sample (port) failed: $(cat "$tmp/port" "$tmp/port.err")"

/usr/bin/env python3 - "$tmp/starboard" "$tmp/port" "$tmp/held.json" <<'PY' || fail "the sample's runs: $(cat "$tmp/starboard" "$tmp/port")"
import json, math, sys

def lines(path):
    out = {}
    for line in open(path):
        words = line.split()
        if not words:
            continue
        key = words[0]
        if key == "types":
            out[key] = words[1:]
        else:  # "key a 1 b 2 ...": pairs after the first word
            out[key] = {words[i]: words[i + 1] for i in range(1, len(words) - 1, 2)}
    return out

def num(d, k):
    return float(d[k])

runs = {"starboard": lines(sys.argv[1]), "port": lines(sys.argv[2])}
for side, r in runs.items():
    assert "skiff" in r["types"], r["types"]
    assert r["spawned"]["type"] == "skiff", r["spawned"]
    assert r["control"]["rudder"] == ("0.3" if side == "starboard" else "-0.3"), r["control"]
    # Made way: full ahead for 6 s moves a skiff tens of metres.
    start, end = r["start"], r["end"]
    dist = math.hypot(num(end, "x") - num(start, "x"), num(end, "z") - num(start, "z"))
    assert dist > 10 and num(end, "speed") > 1, (side, start, end)
    assert abs(num(r["result"], "moved_m") - dist) < 0.01, (r["result"], dist)
    assert int(end["tick"]) > int(start["tick"]), (start, end)
    # Turned the way the rudder says: starboard turns the heading (from +x
    # toward -z) down, port up; by more than a few degrees.
    turned = num(r["result"], "turned_deg")
    assert (turned < -20) if side == "starboard" else (turned > 20), (side, turned)
    # The end heading agrees with the start heading plus the turn.
    diff = (num(end, "heading_deg") - (num(start, "heading_deg") + turned) + 180) % 360 - 180
    assert abs(diff) < 1, (side, start, end, turned)
    # Unity's axes: z mirrored, the model's forward (+z) along the bow.
    u = r["unity"]
    assert abs(num(u, "x") - num(end, "x")) < 0.01 and abs(num(u, "z") + num(end, "z")) < 0.01, (u, end)
    qx, qy, qz, qw = (num(u, k) for k in ("qx", "qy", "qz", "qw"))
    fx, fz = 2 * (qx * qz + qw * qy), 1 - 2 * (qx * qx + qy * qy)  # rotation of (0, 0, 1), x and z
    h = math.radians(num(end, "heading_deg"))
    assert math.hypot(fx - math.cos(h), fz - math.sin(h)) < 0.2, (u, end)  # bow (cos h, -sin h) mirrored
    assert r["despawned"]["id"] == r["spawned"]["id"], r["despawned"]

# Seen from outside while held: the same boat, stopped near where the sample
# said it ended, pointing the same way.
w = json.load(open(sys.argv[3]))["followed"]
s = runs["starboard"]
assert w and w["id"] == int(s["spawned"]["id"]) and w["type"] == "skiff", w
end = s["end"]
off = math.hypot(w["position"][0] - num(end, "x"), w["position"][2] - num(end, "z"))
assert off < 4 * num(end, "speed") + 2, (w, end)  # 4 s of coasting at most
dh = (w["heading_deg"] - num(end, "heading_deg") + 180) % 360 - 180
assert abs(dh) < 45, (w, end)
print("starboard: moved %s m, turned %s deg; port: moved %s m, turned %s deg" % (
    s["result"]["moved_m"], s["result"]["turned_deg"],
    runs["port"]["result"]["moved_m"], runs["port"]["result"]["turned_deg"]))
PY

kill -TERM "$pid"; wait "$pid"; pid=
echo "csharp_sample: ok"
