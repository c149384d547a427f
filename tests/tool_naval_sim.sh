#!/bin/sh
# SPDX-License-Identifier: MIT
# naval-sim end to end: a patrol boat at full throttle and rudder on flat
# water turns full circles; the JSON summary agrees with the CSV track (its
# own circle fit redone here), the results do not depend on the thread
# count, a sea scenario runs, and mistakes exit 2 with the reason.
set -u
tool=$1
data=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

turning="$data/scenarios/turning.json"
"$tool" "$turning" --steps 7200 --threads 1 --csv "$tmp/turn.csv" --every 10 --json > "$tmp/t1.json" || fail "turning, 1 thread"
"$tool" "$turning" --steps 7200 --threads 2 --json > "$tmp/t2.json" || fail "turning, 2 threads"
"$tool" "$data/scenarios/harbour.json" --steps 20 --json > "$tmp/harbour.json" || fail "harbour"
"$tool" "$data/scenarios/harbour.json" --steps 5 > "$tmp/harbour.txt" || fail "harbour, text"
grep -q "turning circle" "$tmp/harbour.txt" || fail "the text summary lacks its table"
/usr/bin/env python3 - "$tmp" <<'PY' || fail "JSON and CSV checks"
import csv, json, math, os, sys
d = sys.argv[1]
t1, t2, sea = (json.load(open(os.path.join(d, f))) for f in ("t1.json", "t2.json", "harbour.json"))
for k in ("vessels", "steps", "tick_hz", "sim_time", "wall_time", "threads", "frozen", "state_hash", "per_vessel"):
    assert k in t1, k
assert t1["vessels"] == 1 and t1["steps"] == 7200 and t1["frozen"] == 0
assert abs(t1["sim_time"] - 120.0) < 1e-6, t1["sim_time"]
assert t1["state_hash"] == t2["state_hash"], (t1["state_hash"], t2["state_hash"])
v = t1["per_vessel"][0]
assert v == t2["per_vessel"][0], (v, t2["per_vessel"][0])
for k in ("id", "type", "length", "final_speed", "max_speed", "max_heel_deg", "max_pitch_deg", "heading_change_deg",
          "distance", "turning_diameter", "turning_diameter_lengths", "turning_fit_rms", "frozen"):
    assert k in v, k
assert v["type"] == "patrol" and abs(v["length"] - 24.0) < 0.01
assert abs(v["heading_change_deg"]) >= 360.0, v["heading_change_deg"]
assert v["turning_diameter"] is not None and v["turning_diameter"] > 0
assert abs(v["turning_diameter_lengths"] * v["length"] - v["turning_diameter"]) < 1e-3 * v["turning_diameter"]

rows = list(csv.DictReader(open(os.path.join(d, "turn.csv"))))
assert len(rows) == 7200 // 10 + 1, len(rows)
assert list(rows[0].keys()) == ["time", "id", "type", "x", "y", "z", "heading_deg", "heel_deg", "trim_deg", "speed",
                                "throttle", "rudder"], list(rows[0].keys())
times = [float(r["time"]) for r in rows]
assert times[0] == 0.0 and all(b > a for a, b in zip(times, times[1:])) and abs(times[-1] - 120.0) < 1e-6
assert all(r["type"] == "patrol" and r["id"] == "0" for r in rows)
assert float(rows[0]["throttle"]) == 0.0 and float(rows[-1]["throttle"]) == 1.0 and float(rows[-1]["rudder"]) == 1.0
assert all(0.0 <= float(r["heading_deg"]) < 360.0 for r in rows)
assert abs(float(rows[-1]["speed"]) - v["final_speed"]) < 1e-3
speeds = [float(r["speed"]) for r in rows]
assert max(speeds) <= v["max_speed"] + 1e-3

# The last full turn of the CSV track, and Kasa's fit of it: the tool's
# diameter (fitted to its own samples of the same track) must agree.
heading, unwrapped = None, []
for r in rows:
    h = float(r["heading_deg"])
    heading = h if heading is None else heading + ((h - heading % 360.0 + 180.0) % 360.0 - 180.0)
    unwrapped.append(heading)
end = len(rows) - 1
start = end
while start > 0 and abs(unwrapped[end] - unwrapped[start]) < 360.0:
    start -= 1
assert abs(unwrapped[end] - unwrapped[start]) >= 360.0
pts = [(float(r["x"]), float(r["z"])) for r in rows[start:end + 1]]
mx = sum(p[0] for p in pts) / len(pts)
mz = sum(p[1] for p in pts) / len(pts)
A = [[0.0] * 4 for _ in range(3)]
for x, z in pts:
    x, z = x - mx, z - mz
    row = (x, z, 1.0)
    for i in range(3):
        for j in range(3):
            A[i][j] += row[i] * row[j]
        A[i][3] -= row[i] * (x * x + z * z)
for c in range(3):
    p = max(range(c, 3), key=lambda r: abs(A[r][c]))
    A[c], A[p] = A[p], A[c]
    for r in range(3):
        if r != c:
            f = A[r][c] / A[c][c]
            A[r] = [a - f * b for a, b in zip(A[r], A[c])]
D, E, F = (A[i][3] / A[i][i] for i in range(3))
diameter = 2.0 * math.sqrt(D * D / 4 + E * E / 4 - F)
assert abs(diameter - v["turning_diameter"]) < 0.02 * diameter, (diameter, v["turning_diameter"])

assert sea["vessels"] == 11 and sea["frozen"] == 0 and sea["steps"] == 20
types = sorted(set(p["type"] for p in sea["per_vessel"]))
assert types == ["freighter", "patrol", "skiff"], types
assert all(p["turning_diameter"] is None for p in sea["per_vessel"])  # nothing turns a circle in 20 steps
print("naval-sim ok: patrol turning circle %.1f m = %.2f lengths at %.2f m/s (CSV fit %.1f m)"
      % (v["turning_diameter"], v["turning_diameter_lengths"], v["final_speed"], diameter))
PY
expect_error() {
    want=$1; shift
    "$tool" "$@" > /dev/null 2> "$tmp/err"
    rc=$?
    [ $rc -eq 2 ] || fail "'$*' exited $rc, expected 2"
    grep -q -- "$want" "$tmp/err" || fail "'$*' said '$(cat "$tmp/err")', expected '$want'"
}
printf '{"vessel_types": ["builtin:skiff"], "vessels": [{"type": "skiff", "position": [0, 0], "controls": {"throttle": 3}}]}' > "$tmp/bad.json"
expect_error "a scenario file is required" --steps 10
expect_error "unknown option" "$turning" --frobnicate 1
# One convention across the tools (base/cli.h): the unknown option quoted,
# the nearest known one suggested, exit 2; file errors name the path and errno.
expect_error "naval-sim: unknown option '--stps' (did you mean --steps?)" "$turning" --stps 10
expect_error "naval-sim: unknown option '--frobnicate'$" "$turning" --frobnicate 1
expect_error "$tmp/none.json: cannot open: No such file or directory" "$tmp/none.json"
expect_error "naval-sim: --csv: cannot write '$tmp/no/such/dir/track.csv': No such file or directory" \
    "$turning" --steps 1 --csv "$tmp/no/such/dir/track.csv"
expect_error "--steps must be" "$turning" --steps 0
expect_error "--every must be" "$turning" --every x
expect_error "--threads must be" "$turning" --threads 0
expect_error "missing value" "$turning" --csv
expect_error "one scenario file only" "$turning" "$turning"
expect_error "cannot open" "$tmp/none.json"
expect_error "vessels\[0\].controls.throttle: must be in \[-1, 1\] (got 3)" "$tmp/bad.json"
expect_error "csv" "$turning" --steps 1 --csv "$tmp/no/such/dir/track.csv"
printf '{"vessel_types": ["builtin:skiff"], "terrain": {"heightmap": "gone.png", "cell_size": 2, "min_elevation": -9, "max_elevation": 9}}' > "$tmp/ground.json"
expect_error "terrain.heightmap: $tmp/gone.png" "$tmp/ground.json"
printf '{"vessel_types": ["builtin:skiff"], "terrain": {"heightmap": "gone.png", "cell_size": 2, "min_elevation": 9, "max_elevation": -9}}' > "$tmp/reversed.json"
expect_error "terrain: terrain: max_elevation (-9) must be above min_elevation (9)" "$tmp/reversed.json"
echo "naval-sim rejections ok"

# Contacts: on builtin:harbour a patrol boat runs onto the beach and stays,
# two meet head-on and glance off; every vessel's contacts and the run's
# events and deepest overlap are in the summary.
"$tool" "$data/scenarios/aground.json" --json > "$tmp/aground.json" || fail "aground"
/usr/bin/env python3 - "$tmp/aground.json" <<'PY' || fail "aground: contacts"
import json, sys
d = json.load(open(sys.argv[1]))
c, v = d["contacts"], d["per_vessel"]
assert c["events"] >= 2 and 0 <= c["max_penetration_m"] < 0.1, c  # the ground, and the glancing pair once
# each step's deepest overlap after the first second, as percentiles
p = c["penetration_m"]
assert p["from_s"] == 1 and p["steps"] == d["steps"] - round(d["tick_hz"]), (p, d["steps"])
assert 0 < p["p50"] <= p["p99"] <= p["max"] <= c["max_penetration_m"], p
assert v[0]["grounded"] and v[0]["contacts"] >= 1 and v[0]["final_speed"] < 0.1, v[0]
for b in v[1:]:
    assert not b["grounded"] and b["contacts"] >= 1, b
assert sum(b["contacts"] for b in v) <= 2 * c["events"], (v, c)
PY
echo "naval-sim contacts ok"

# Damage: a patrol boat holed in its engine room floods and trims by the
# stern but floats; a barge holed in three of its four compartments sinks
# (lost buoyancy: 0.98 m x 10 / 2.5 = 3.9 m of draft, and 2 m of hull).
"$tool" "$data/scenarios/flooding.json" --steps 3600 --json > "$tmp/flooding.json" || fail "flooding"
/usr/bin/env python3 - "$tmp/flooding.json" <<'PY' || fail "flooding: the summary"
import json, sys
v = json.load(open(sys.argv[1]))["per_vessel"]
patrol, barge = v
assert patrol["flooded_volume_m3"] > 20 and not patrol["sunk"] and not patrol["capsized"], patrol
assert patrol["final_trim_deg"] > 0.5 and patrol["final_draft_m"] > 1.3, patrol
assert barge["sunk"] and not barge["capsized"] and barge["flooded_volume_m3"] > 40, barge
PY
printf '{"vessel_types": ["builtin:patrol"], "vessels": [{"type": "patrol", "position": [0, 0]}], "events": [{"time": 1, "damage": {"vessel": 3, "point": [0, -1, 0], "area": 1}}]}' > "$tmp/novessel.json"
expect_error "events\[0\].damage.vessel: no vessel 3 (the scenario has 1)" "$tmp/novessel.json"
printf '{"vessel_types": ["builtin:patrol"], "vessels": [{"type": "patrol", "position": [0, 0]}], "events": [{"time": 0, "damage": {"vessel": 0, "point": [0, -9, 0], "area": 1}}]}' > "$tmp/offhull.json"
expect_error "events\[0\]: breach: the point (0, -9, 0) m is not on or in the hull" "$tmp/offhull.json"
echo "naval-sim damage ok"

# Capsize: the 10 x 4 x 2 m barge of 40 t with its CG 1 m above the deck
# (upright GM_T = 0.488 + 1.367 - 3 = -1.15 m; keel-up 2.86 m), given a
# roll either way, turns over and floats keel-up: capsized, final heel
# 180 (in (-180, 180]), the draft m / (rho L B) = 0.9756 m.
printf '{"vessel_types": [{"name": "topheavy", "hull": "builtin:barge", "mass": 40000, "cg": [0, 3, 0]}], "vessels": [{"type": "topheavy", "position": [0, 0], "angular_velocity": [0.2, 0, 0]}, {"type": "topheavy", "position": [40, 0], "angular_velocity": [-0.2, 0, 0]}]}' > "$tmp/topheavy.json"
"$tool" "$tmp/topheavy.json" --steps 7200 --json > "$tmp/topheavy_out.json" || fail "topheavy"
"$tool" "$tmp/topheavy.json" --steps 7200 > "$tmp/topheavy.txt" || fail "topheavy text"
[ "$(grep -c CAPSIZED "$tmp/topheavy.txt")" -eq 2 ] || fail "topheavy: CAPSIZED missing from the table"
/usr/bin/env python3 - "$tmp/topheavy_out.json" <<'PY' || fail "topheavy: capsized and heel 180"
import json, sys
for v in json.load(open(sys.argv[1]))["per_vessel"]:
    assert v["capsized"] and not v["sunk"], v
    assert -180 < v["final_heel_deg"] <= 180 and 180 - abs(v["final_heel_deg"]) < 0.5, v
    assert abs(v["final_trim_deg"]) < 0.5 and abs(v["final_draft_m"] - 40000 / (1025 * 40)) < 0.01, v
PY
echo "naval-sim capsize ok"
