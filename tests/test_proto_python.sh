#!/bin/sh
# SPDX-License-Identifier: MIT
# The Python binding that flatc generates from proto/naval.fbs reads a full
# snapshot that the C codec wrote, value for value.
# Usage: test_proto_python.sh BENCH_PROTO PYTHON_BINDING_DIR
# Fails naming it (skips, 77, with NAVAL_SKIP=python) when no python3 can import the flatbuffers runtime
# (Debian: python3-flatbuffers, in scripts/packages.txt).
set -eu
bench=$1
pydir=$2
. "$(dirname "$0")/python_flatbuffers.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bench" --boats 25 --write-snapshot "$tmp/snap.bin"
PYTHONPATH="$pydir" "$py" - "$tmp/snap.bin" <<'PY'
import json
import struct
import sys

from flatbuffers.util import BufferHasIdentifier
from naval.proto.Quatf import Quatf
from naval.proto.Snapshot import Snapshot
from naval.proto.Vec3d import Vec3d
from naval.proto.Vec3f import Vec3f

path = sys.argv[1]
buf = bytearray(open(path, "rb").read())
want = json.load(open(path + ".json"))


def f32(x):
    """The float the C side sent, from its printed value."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def check(name, got, expected):
    if got != expected:
        sys.exit(f"FAIL: {name}: got {got!r}, expected {expected!r}")


check("identifier", BufferHasIdentifier(buf, 0, b"NVSS"), True)
check("not a request", BufferHasIdentifier(buf, 0, b"NVRQ"), False)
s = Snapshot.GetRootAs(buf, 0)
check("tick", s.Tick(), want["tick"])
check("sim_time", s.SimTime(), want["sim_time"])
check("send_time_ns", s.SendTimeNs(), want["send_time_ns"])
check("step_ms", s.Stats().StepMs(), f32(want["step_ms"]))
check("overruns", s.Stats().Overruns(), want["overruns"])
check("vessel count", s.VesselsLength(), len(want["vessels"]))
for i, w in enumerate(want["vessels"]):
    v = s.Vessels(i)
    check(f"vessel {i} id", v.Id(), w["id"])
    check(f"vessel {i} type", v.Type(), w["type"])
    check(f"vessel {i} flags", v.Flags(), w["flags"])
    p = v.Position(Vec3d())
    check(f"vessel {i} position", [p.X(), p.Y(), p.Z()], w["position"])
    q = v.Orientation(Quatf())
    check(f"vessel {i} orientation", [q.X(), q.Y(), q.Z(), q.W()], [f32(x) for x in w["orientation"]])
    u = v.Velocity(Vec3f())
    check(f"vessel {i} velocity", [u.X(), u.Y(), u.Z()], [f32(x) for x in w["velocity"]])
    a = v.AngularVelocity(Vec3f())
    check(f"vessel {i} angular velocity", [a.X(), a.Y(), a.Z()], [f32(x) for x in w["angular_velocity"]])
print(f"python binding read {s.VesselsLength()} vessels of tick {s.Tick()} as the C codec wrote them")
PY
