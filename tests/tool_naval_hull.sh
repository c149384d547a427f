#!/bin/sh
# SPDX-License-Identifier: MIT
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
grep -q "capsized        no" "$tmp/ship.txt" || fail "ship text output lacks 'capsized no'"
# The barge with its CG 1 m above the deck (KG 3 m): upright GM_T =
# KB + BM_T - KG = 0.488 + 1.367 - 3 = -1.15 m; keel-up KG' = -1 m, GM_T' =
# 2.86 m, GM_L' = 10.0 m: it floats keel-up, heel 180, at the same draft.
"$tool" builtin:barge --mass 40000 --cg 0,3,0 --json > "$tmp/keelup.json" || fail "keel-up barge"
"$tool" builtin:barge --mass 40000 --cg 0,3,0 > "$tmp/keelup.txt" || fail "keel-up barge text output"
grep -q "heel            180.0000 deg" "$tmp/keelup.txt" || fail "keel-up barge: $(grep heel "$tmp/keelup.txt")"
grep -q "capsized        yes" "$tmp/keelup.txt" || fail "keel-up barge text output lacks 'capsized yes'"
grep -qF "bounds (mesh)   x [-5, 5]  y [0, 2]  z [-2, 2] m (size 10 x 2 x 4)" "$tmp/keelup.txt" ||
    fail "barge mesh bounds: $(grep bounds "$tmp/keelup.txt")"
grep -qF "bounds (CG)     x [-5, 5]  y [-3, -1]  z [-2, 2] m" "$tmp/keelup.txt" ||
    fail "barge body-frame bounds about CG (0, 3, 0): $(grep bounds "$tmp/keelup.txt")"
# A 1 m cube of 1 kg and of 0.1 kg floats flat at m / (rho A): 0.976 and
# 0.0976 mm; at 0.01 kg (9.8 um, under 1e-4 of its extent) it is refused.
"$tool" builtin:cube --mass 1 --json > "$tmp/cube1.json" || fail "1 kg cube"
"$tool" builtin:cube --mass 0.1 --json > "$tmp/cube01.json" || fail "0.1 kg cube"

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
assert eq["capsized"] is False and eq["settled"] is True, eq
near(eq["displacement"], 40000 / 1025, 1e-3)
near(eq["center_of_buoyancy"][1], draft / 2, 1e-3)
up = json.load(open(os.path.join(d, "keelup.json")))["equilibrium"]
assert -180 < up["heel_deg"] <= 180 and 180 - abs(up["heel_deg"]) < 0.5, up
assert up["capsized"] is True and up["settled"] is True and abs(up["trim_deg"]) < 0.5, up
assert abs(up["draft"] - draft) <= 0.005 * draft, up
near(up["center_of_buoyancy"][1], 2 - draft / 2, 1e-3)
# The bounding box (hullgen's barge: a 10 x 4 x 2 m box, x in [-5, 5], keel
# at y = 0, z in [-2, 2]), in mesh coordinates and in the body frame about
# the CG: the volume centroid (0, 1, 0), or the given CG (0, 3, 0).
keel = json.load(open(os.path.join(d, "keelup.json")))
for doc, cg in ((barge, (0, 1, 0)), (keel, (0, 3, 0))):
    b = doc["bounds"]
    for got, want in zip(b["min"] + b["max"] + b["size"], (-5, 0, -2, 5, 2, 2, 10, 2, 4)): near(got, want, 1e-9)
    for got, want in zip(b["cg"], cg): near(got, want, 1e-9)
    for k in range(3):
        near(b["body_min"][k], b["min"][k] - cg[k], 1e-9)
        near(b["body_max"][k], b["max"][k] - cg[k], 1e-9)
for name, m in (("cube1.json", 1.0), ("cube01.json", 0.1)):
    c = json.load(open(os.path.join(d, name)))["equilibrium"]
    film = m / (1025 * 1.0)
    assert c["settled"] and not c["capsized"], (m, c)
    assert abs(c["draft"] - film) <= 1e-3 * film and abs(c["displacement"] - film) <= 1e-3 * film, (m, c)
    assert abs(c["heel_deg"]) < 0.05 and abs(c["trim_deg"]) < 0.05, (m, c)
print("naval-hull JSON ok: barge draft %.5f m (analytic %.5f); keel-up heel %.6f, draft %.5f; 1 kg cube %.6g mm" %
      (eq["draft"], draft, up["heel_deg"], up["draft"], 1e3 * json.load(open(os.path.join(d, "cube1.json")))["equilibrium"]["draft"]))
PY

# Zephyr columns: built at 20 x 5 and written out, read back; the barge's
# columns are exact; over the gap between two cubes they are empty.
"$tool" builtin:patrol --mass 80000 --columns 20,5 --export-columns "$tmp/patrol_columns.txt" --json \
    > "$tmp/patrol_columns.json" || fail "patrol --columns"
"$tool" builtin:patrol --import-columns "$tmp/patrol_columns.txt" --json > "$tmp/patrol_import.json" \
    || fail "patrol --import-columns"
"$tool" builtin:barge --mass 40000 --columns 20,5 --json > "$tmp/barge_columns.json" || fail "barge --columns"
"$tool" "$data/two_cubes.obj" --columns 4,1 --json > "$tmp/cubes_columns.json" || fail "two cubes --columns"
"$tool" builtin:ship --mass 600000 --columns 20,5 > "$tmp/ship_columns.txt" || fail "ship --columns text output"
grep -q "draft upright" "$tmp/ship_columns.txt" || fail "ship --columns text output lacks the draft"
head -n 1 "$tmp/patrol_columns.txt" | grep -qx "# NB_LINE_PER_DATA" || fail "columns file header"

/usr/bin/env python3 - "$tmp" <<'PY' || fail "columns JSON checks"
import json, sys, os
d = sys.argv[1]
load = lambda n: json.load(open(os.path.join(d, n)))["columns"]
built, back, barge, cubes = load("patrol_columns.json"), load("patrol_import.json"), load("barge_columns.json"), load("cubes_columns.json")
assert built["source"] == "built" and built["nx"] == 20 and built["nz"] == 5 and built["count"] == 100, built
assert 0 < built["with_volume"] <= 100 and built["skipped_rays"] == 0
assert abs(built["volume_error_pct"]) < 2.0, built
assert abs(built["draft_error_pct"]) < 3.0, built
assert abs(built["volume"] / built["mesh_volume"] - 1 - built["volume_error_pct"] / 100) < 1e-9
# read back: the mass from the file's densities, the same columns to its 10 digits
assert back["source"] == "imported" and back["count"] == 100
assert abs(back["mass"] / 80000 - 1) < 1e-9, back["mass"]
assert abs(back["volume"] - built["volume"]) < 1e-8 * built["volume"]
assert abs(back["draft"] - built["draft"]) < 1e-7, (back["draft"], built["draft"])
# the barge: a box, exact
draft = 40000 / (1025 * 10 * 4)
assert abs(barge["volume"] - 80) < 1e-9 and barge["with_volume"] == 100
assert abs(barge["draft"] - draft) < 1e-6 and abs(barge["mesh_draft"] - draft) < 1e-6, barge
# two cubes at x in [0, 1] and [3, 4]: the two middle columns are the gap
assert cubes["count"] == 4 and cubes["with_volume"] == 2 and abs(cubes["volume"] - 2) < 1e-9, cubes
assert "draft" not in cubes
print("naval-hull columns ok: patrol volume %+.3f %%, draft %+.3f %%" % (built["volume_error_pct"], built["draft_error_pct"]))
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
expect_error "mass 0.01 kg is too light for this hull: it would float on 0.00976 mm" builtin:cube --mass 0.01
expect_error "at least 0.05" builtin:cube --mass 0.01
expect_error "--mass must be" builtin:barge --mass -3
expect_error "--up must be y or z" builtin:barge --up x
expect_error "--cg must be X,Y,Z" builtin:barge --mass 1000 --cg 1,2
expect_error "unknown option" builtin:barge --frobnicate
expect_error "naval-hull: unknown option '--mas' (did you mean --mass?)" builtin:barge --mas 3
expect_error "naval-hull: unknown option '--gyraton' (did you mean --gyration?)" builtin:barge --gyraton 1,1,1
expect_error "$tmp/missing.stl.*No such file or directory" "$tmp/missing.stl"
expect_error "no hull given"
expect_error "--columns must be N,M" builtin:barge --columns 0,5
expect_error "--columns must be N,M" builtin:barge --columns 20
expect_error "--columns must be N,M" builtin:barge --columns 20,x
expect_error "give one" builtin:barge --columns 20,5 --import-columns "$tmp/patrol_columns.txt"
expect_error "--export-columns needs --columns" builtin:barge --export-columns "$tmp/x.txt"
expect_error "missing.txt" builtin:barge --import-columns "$tmp/missing.txt"
printf '# NB_LINE_PER_DATA\n1\n\n# COORDINATE, VOLUME, DENSITY\n1,0,2,1,-3,1\n' > "$tmp/bad_columns.txt"
expect_error "bad_columns.txt:5: field Volume: -3 is negative" builtin:barge --import-columns "$tmp/bad_columns.txt"
expect_error "cannot write" builtin:barge --columns 2,2 --export-columns "$tmp/no/such/dir.txt"
echo "naval-hull rejections ok"
