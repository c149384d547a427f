#!/bin/sh
# SPDX-License-Identifier: MIT
# naval-bench end to end: the JSON has the documented figures, the state hash
# is the same at 1 and 3 threads, a scenario file runs, bad flags exit 2.
set -u
tool=$1
data=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$tool" --boats 24 --hull-tris 200 --steps 20 --ocean-resolution 64 --threads 1 --json > "$tmp/t1.json" || fail "1 thread"
"$tool" --boats 24 --hull-tris 200 --steps 20 --ocean-resolution 64 --threads 3 --json > "$tmp/t3.json" || fail "3 threads"
# without the water entry: another motion, the same at any thread count
for t in 1 3; do
    "$tool" --boats 24 --hull-tris 200 --steps 20 --ocean-resolution 64 --threads $t --water-entry off --json \
        > "$tmp/we$t.json" || fail "--water-entry off, $t threads"
done
# with the hulls' manoeuvring forces: another motion, the same at any thread count
for t in 1 3; do
    "$tool" --boats 24 --hull-tris 200 --steps 20 --ocean-resolution 64 --threads $t --manoeuvring on --json \
        > "$tmp/mn$t.json" || fail "--manoeuvring on, $t threads"
done
# with breaking crests: the same at any thread count (this short run meets
# none breaking; the strikes' determinism: tool_naval_sim_record, breakers)
for t in 1 3; do
    "$tool" --boats 24 --hull-tris 200 --steps 20 --ocean-resolution 64 --threads $t --breaking-crests on --json \
        > "$tmp/br$t.json" || fail "--breaking-crests on, $t threads"
done
"$tool" --scenario "$data/scenario_small.json" --steps 10 --json > "$tmp/scn.json" || fail "scenario"
for m in columns floater; do
    "$tool" --boats 9 --hull builtin:patrol --steps 20 --ocean-resolution 64 --model $m --json > "$tmp/$m.json" || fail "--model $m"
done
"$tool" --boats 400 --hull-tris 200 --steps 5 --ocean-resolution 64 --lod 1 --json > "$tmp/lod.json" || fail "--lod 1"
"$tool" --boats 9 --hull-tris 200 --steps 20 --ocean-resolution 64 --threads 1 --forces compare --json > "$tmp/cmp.json" || fail "--forces compare"
# --lod-error: every boat a player keeps every boat on the mesh, so the run
# with levels is the reference to the bit; with one player the far ones differ.
"$tool" --boats 36 --hull-tris 200 --steps 30 --ocean-resolution 64 --lod 36 --lod-error --json > "$tmp/lode0.json" \
    || fail "--lod 36 --lod-error"
"$tool" --boats 400 --hull-tris 200 --steps 30 --ocean-resolution 64 --lod 1 --lod-error --json > "$tmp/lode1.json" \
    || fail "--lod 1 --lod-error"
/usr/bin/env python3 - "$tmp" <<'PY' || fail "JSON checks"
import json, sys, os
d = sys.argv[1]
t1, t3, scn, col, flo, cmp, lod = (json.load(open(os.path.join(d, f)))
                                   for f in ("t1.json", "t3.json", "scn.json", "columns.json", "floater.json", "cmp.json",
                                             "lod.json"))
m = lod["models"]
assert lod["lod_players"] == 1 and m["mesh"] >= 1 and m["columns"] > 0 and m["floater"] > 0 and sum(m.values()) == 400, lod
assert lod["pass_ms"]["lod"] > 0, lod
for r, m in ((col, "columns"), (flo, "floater")):
    assert r["model"] == m and r["frozen"] == 0 and r["pass_ms"]["triangle"] < 0.01, r
    assert 0 < r["us_per_boat_vessels"] < r["us_per_boat"], r
assert cmp["triangle_ns_hydrostatics"] > 0 and cmp["triangle_ns_full"] > cmp["triangle_ns_hydrostatics"], cmp
for k in ("step_ms_p50", "step_ms_p99", "pass_ms", "tris_per_s", "us_per_boat", "bytes_per_boat", "threads", "state_hash"):
    assert k in t1, k
for k in ("lod", "ocean", "vertex", "triangle", "integrate"):
    assert k in t1["pass_ms"], k
assert t1["boats"] == 24 and t1["threads"] == 1 and t3["threads"] == 3
assert t1["state_hash"] == t3["state_hash"], (t1["state_hash"], t3["state_hash"])
assert t1["frozen"] == 0 and t1["step_ms_p99"] >= t1["step_ms_p50"] > 0
# the machine's own noise, timed between the steps: a fixed piece of work
assert 0 < t1["machine_noise_ms_p50"] <= t1["machine_noise_ms_p99"], t1
assert scn["boats"] == 7 and scn["cascades"] == 0 and scn["hz"] == 30
e0 = json.load(open(os.path.join(d, "lode0.json")))["lod_error"]
assert e0["mesh"]["vessels"] == 36 and e0["columns"]["vessels"] == e0["floater"]["vessels"] == 0, e0
for k in ("horizontal_m", "vertical_m", "tilt_deg", "heading_deg"):
    assert e0["mesh"][k] == [0, 0, 0], (k, e0)
    assert e0["floater"][k] == [None, None, None], (k, e0)
r1 = json.load(open(os.path.join(d, "lode1.json")))
e1 = r1["lod_error"]
assert sum(e1[m]["vessels"] for m in ("mesh", "columns", "floater")) == 400, e1
assert r1["models"] == {m: e1[m]["vessels"] for m in ("mesh", "columns", "floater")}, (r1["models"], e1)
assert abs(e1["seconds"] - (30 + 10) / 60) < 1e-3 and r1["step_ms_p50_mesh"] > 0, r1
for m in ("columns", "floater"):
    b = e1[m]
    assert b["vessels"] > 0 and 0 <= b["horizontal_m"][0] <= b["horizontal_m"][1] <= b["horizontal_m"][2], b
    assert b["horizontal_m"][2] > 0 and b["tilt_deg"][2] > 0, b  # another model: another motion
we1, we3 = (json.load(open(os.path.join(d, f))) for f in ("we1.json", "we3.json"))
assert we1["state_hash"] == we3["state_hash"] != t1["state_hash"], (we1["state_hash"], we3["state_hash"])
mn1, mn3 = (json.load(open(os.path.join(d, f))) for f in ("mn1.json", "mn3.json"))
assert mn1["state_hash"] == mn3["state_hash"] != t1["state_hash"], (mn1["state_hash"], mn3["state_hash"])
br1, br3 = (json.load(open(os.path.join(d, f))) for f in ("br1.json", "br3.json"))
assert br1["state_hash"] == br3["state_hash"], (br1["state_hash"], br3["state_hash"])
print("naval-bench ok: hash %s at 1 and 3 threads (%s without the water entry, %s with the manoeuvring forces)"
      % (t1["state_hash"], we1["state_hash"], mn1["state_hash"]))
PY
expect_error() {
    want=$1; shift
    "$tool" "$@" > /dev/null 2> "$tmp/err"
    rc=$?
    [ $rc -eq 2 ] || fail "'$*' exited $rc, expected 2"
    grep -q -- "$want" "$tmp/err" || fail "'$*' said '$(cat "$tmp/err")', expected '$want'"
}
expect_error "--boats must be" --boats 0
expect_error "power of two" --ocean-resolution 100
expect_error "unknown option" --frobnicate 1
expect_error "cannot open" --scenario "$tmp/none.json"
# One convention across the tools (base/cli.h): the suggestion, exit 2 for a
# missing scenario with its path and errno, and --tick-hz (the server's name;
# --hz stays as a deprecated alias).
expect_error "naval-bench: unknown option '--bots' (did you mean --boats?)" --bots 3
expect_error "naval-bench: unknown option '--tick-hzz' (did you mean --tick-hz?)" --tick-hzz 30
expect_error "$tmp/none.json: cannot open: No such file or directory" --scenario "$tmp/none.json"
expect_error "--tick-hz: must be in \[1, 1000\] Hz (got 5000)" --tick-hz 5000
expect_error "--hz: must be in \[1, 1000\] Hz (got 5000)" --hz 5000
for flag in --tick-hz --hz; do
    "$tool" --boats 4 --hull-tris 200 --steps 2 --ocean-resolution 64 --threads 1 $flag 30 --json > "$tmp/hz.json" \
        || fail "$flag 30 exited $?"
    grep -q '"hz": 30,' "$tmp/hz.json" || fail "$flag 30: $(cat "$tmp/hz.json")"
done
"$tool" --help | grep -q -- "--tick-hz H .*--hz is a deprecated alias" || fail "--help lacks --tick-hz"
expect_error "unknown built-in hull" --hull builtin:dinghy --steps 1
expect_error "--model must be" --model voxels
expect_error "--forces must be" --forces some
expect_error "--lod must be" --lod 0
expect_error "--lod-error needs --lod" --lod-error
expect_error "--water-entry must be" --water-entry maybe
expect_error "--water-entry is for the generated fleet" --water-entry off --forces hydrostatics
expect_error "--manoeuvring must be" --manoeuvring maybe
expect_error "--manoeuvring is for the generated fleet" --manoeuvring on --forces hydrostatics
expect_error "--breaking-crests must be on or off" --breaking-crests maybe
expect_error "--breaking-crests is for the generated fleet" --breaking-crests on --forces hydrostatics
expect_error "--breaking-crests is for the generated fleet" --breaking-crests on --scenario "$data/scenario_small.json"
echo "naval-bench rejections ok"
