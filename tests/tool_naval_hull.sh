#!/bin/sh
# naval-hull end to end: the JSON it prints is parsed back and checked, and
# bad input exits 2 with a message naming what is wrong.
set -u
tool=$1
data=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# Bourg's cube as a z-up file: volume 8, centroid (0, 0, 1) in the file's
# axes, which is (0, 1, 0) once converted to +y up.
"$tool" "$data/bourg_cube.off" --json > "$tmp/cube.json" || fail "bourg cube"
"$tool" "$data/bourg_cube.off" --up z --json > "$tmp/cube_up.json" || fail "bourg cube --up z"
# The 10 x 4 x 2 m barge at 40 t: draft m / (rho L B) = 0.9756 m.
"$tool" builtin:barge --mass 40000 --json > "$tmp/barge.json" || fail "barge"
"$tool" builtin:ship --mass 600000 > "$tmp/ship.txt" || fail "ship text output"
grep -q "settled after" "$tmp/ship.txt" || fail "ship text output lacks the equilibrium"

/usr/bin/env python3 - "$tmp" <<'PY' || fail "JSON checks"
import json, sys, os
d = sys.argv[1]
cube = json.load(open(os.path.join(d, "cube.json")))
up = json.load(open(os.path.join(d, "cube_up.json")))
barge = json.load(open(os.path.join(d, "barge.json")))
def near(a, b, tol): assert abs(a - b) <= tol, (a, b, tol)
for k in ("vertices", "triangles", "components", "volume", "centroid", "surface_area", "inertia"):
    assert k in cube, k
assert "equilibrium" not in cube
assert cube["vertices"] == 8 and cube["triangles"] == 12 and cube["components"] == 1
near(cube["volume"], 8.0, 1e-9)
for got, want in zip(cube["centroid"], (0, 0, 1)): near(got, want, 1e-9)
for got, want in zip(up["centroid"], (0, 1, 0)): near(got, want, 1e-9)
near(cube["surface_area"], 24.0, 1e-9)
near(cube["inertia"][0][0], 8 * 4 / 6, 1e-9)
eq = barge["equilibrium"]
for k in ("draft", "heel_deg", "trim_deg", "displacement", "center_of_buoyancy"):
    assert k in eq, k
draft = 40000 / (1025 * 10 * 4)
assert abs(eq["draft"] - draft) <= 0.005 * draft, eq["draft"]
assert abs(eq["heel_deg"]) < 0.05 and abs(eq["trim_deg"]) < 0.05
near(eq["displacement"], 40000 / 1025, 1e-3)
near(eq["center_of_buoyancy"][1], draft / 2, 1e-3)
print("naval-hull JSON ok: barge draft %.5f m (analytic %.5f)" % (eq["draft"], draft))
PY

# Each bad input: exit status 2 and a message that names the problem.
expect_error() {
    want=$1; shift
    "$tool" "$@" > /dev/null 2> "$tmp/err"
    rc=$?
    [ $rc -eq 2 ] || fail "'$*' exited $rc, expected 2"
    grep -q -- "$want" "$tmp/err" || fail "'$*' said '$(cat "$tmp/err")', expected '$want'"
}
expect_error "No such file" "$tmp/missing.stl"
: > "$tmp/empty.stl"
expect_error "empty.stl" "$tmp/empty.stl"
expect_error "unknown built-in hull" builtin:dinghy
expect_error "sinks" builtin:barge --mass 90000
expect_error "--mass must be" builtin:barge --mass -3
expect_error "--up must be y or z" builtin:barge --up x
expect_error "--cg must be X,Y,Z" builtin:barge --mass 1000 --cg 1,2
expect_error "unknown option" builtin:barge --frobnicate
expect_error "no hull given"
echo "naval-hull rejections ok"
