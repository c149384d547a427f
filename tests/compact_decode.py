#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A second decoder of compact snapshots, written from docs/protocol.md
("Compact snapshots") alone, without reading the C code: the header through
the Python binding flatc generates, the bit stream by hand.

    compact_decode.py FILE.json     (bench-proto --write-compact FILE)

decodes FILE.0, FILE.1, ... in order and checks every vessel, bit for bit,
against what the C decoder read from the same bytes (FILE.json). Exit 0 when
all agree."""
import json
import math
import struct
import sys

from flatbuffers.util import BufferHasIdentifier
from naval.proto.CompactSnapshot import CompactSnapshot

POS_ABS = (12, 17, 22, 27)
POS_DELTA = (6, 10, 14, 18)
ORI_DELTA = (3, 5, 8, 12)
VEL = (5, 9, 13, 17)
ID_BITS = (0, 8, 16, 32)
S = 1.4142135623730951 / 2047.0
H = 0.70710678118654752440


class Malformed(Exception):
    pass


SEEN = set()  # which parts of the format the messages used


class Bits:
    """Least significant bit first, byte by byte."""

    def __init__(self, data):
        self.data = data
        self.pos = 0

    def get(self, n):
        v = 0
        for i in range(n):
            byte = self.pos >> 3
            if byte >= len(self.data):
                raise Malformed("the records run past the end of the data")
            v |= ((self.data[byte] >> (self.pos & 7)) & 1) << i
            self.pos += 1
        return v

    def check_end(self):
        if (self.pos + 7) // 8 != len(self.data):
            raise Malformed("whole bytes left after the records")


def unzigzag(u):
    return (u >> 1) ^ -(u & 1)


def group(b, widths):
    if not b.get(1):
        return [0, 0, 0]
    w = widths[b.get(2)]
    return [unzigzag(b.get(w)) for _ in range(3)]


def flags(b):
    if b.get(1):
        SEEN.add("flags")
        return b.get(16)
    return 0


def orientation(b):
    return {"index": b.get(2), "c": [b.get(11) for _ in range(3)]}


def quantised(b):
    return {"raw": False, "pos": group(b, POS_ABS), "ori": orientation(b), "vel": group(b, VEL),
            "angvel": group(b, VEL)}


def raw(b):
    def f64():
        lo = b.get(32)
        return lo | (b.get(32) << 32)
    pos = [f64() for _ in range(3)]
    return {"raw": True, "pos": pos, "floats": [b.get(32) for _ in range(10)]}


def whole(b, prev):
    """A whole record; prev = [previous id, previous type]."""
    cls = b.get(2)
    SEEN.add(f"id class {cls}")
    vid = (prev[0] + 1 + unzigzag(b.get(ID_BITS[cls]))) % (1 << 32)
    same = b.get(1)
    SEEN.add("same type" if same else "new type")
    vtype = prev[1] if same else b.get(16)
    prev[0], prev[1] = vid, vtype
    rec = {"id": vid, "type": vtype, "flags": flags(b)}
    rec.update(raw(b) if b.get(1) else quantised(b))
    return rec


def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def f64_bits(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def values(rec, origin):
    """The vessel as the document says: positions, then ten floats, as bits."""
    if rec["raw"]:
        return rec["pos"], rec["floats"]
    pos = [f64_bits(origin[k] + rec["pos"][k] * (1.0 / 512.0)) for k in range(3)]
    i, c = rec["ori"]["index"], rec["ori"]["c"]
    q, s, j = [0.0] * 4, 0.0, 0
    for k in range(4):
        if k == i:
            continue
        q[k] = c[j] * S - H
        s += q[k] * q[k]
        j += 1
    q[i] = math.sqrt(1.0 - s) if s < 1.0 else 0.0
    inv = 1.0 / math.sqrt(s + q[i] * q[i])
    floats = [f32_bits(q[k] * inv) for k in range(4)]
    floats += [f32_bits(u * (1.0 / 128.0)) for u in rec["vel"]]
    floats += [f32_bits(r * (1.0 / 512.0)) for r in rec["angvel"]]
    return pos, floats


class Decoder:
    def __init__(self):
        self.key = None  # (tick, origin, entries)

    def decode(self, buf):
        if not BufferHasIdentifier(buf, 0, b"NVCS"):
            raise Malformed("not a compact snapshot")
        h = CompactSnapshot.GetRootAs(buf, 0)
        o = h.Origin()
        if o is None:
            raise Malformed("no origin")
        origin = [o.X(), o.Y(), o.Z()]
        b = Bits(bytes(h.Data(j) for j in range(h.DataLength())))
        if h.Keyframe():
            prev = [(1 << 32) - 1, 0]
            entries = [whole(b, prev) for _ in range(h.VesselCount())]
            b.check_end()
            self.key = (h.Tick(), origin, entries)
            return [(e, origin) for e in entries]
        if self.key is None or self.key[0] != h.KeyframeTick() or len(self.key[2]) != h.KeyframeCount():
            return None  # wait for a keyframe
        out = []
        for k in self.key[2]:
            if not b.get(1):
                SEEN.add("0 unchanged")
                out.append(dict(k))
                continue
            if not b.get(1):  # 10: small change
                SEEN.add("10 small change")
                rec = dict(k)
                rec["flags"] = flags(b)
                if k["raw"]:
                    raise Malformed("a small change against a raw keyframe entry")
                rec["pos"] = [a + d for a, d in zip(k["pos"], group(b, POS_DELTA))]
                if b.get(1):
                    SEEN.add("orientation difference")
                    c = [a + d for a, d in zip(k["ori"]["c"], group(b, ORI_DELTA))]
                    if min(c) < 0 or max(c) > 2047:
                        raise Malformed("an orientation out of range")
                    rec["ori"] = {"index": k["ori"]["index"], "c": c}
                else:
                    SEEN.add("orientation whole")
                    rec["ori"] = orientation(b)
                rec["vel"] = [a + d for a, d in zip(k["vel"], group(b, VEL))]
                rec["angvel"] = [a + d for a, d in zip(k["angvel"], group(b, VEL))]
                out.append(rec)
            elif not b.get(1):  # 110
                SEEN.add("110 whole state")
                rec = {"id": k["id"], "type": k["type"], "flags": flags(b)}
                rec.update(quantised(b))
                out.append(rec)
            elif not b.get(1):  # 1110
                SEEN.add("1110 raw state")
                rec = {"id": k["id"], "type": k["type"], "flags": flags(b)}
                rec.update(raw(b))
                out.append(rec)
            else:
                SEEN.add("1111 gone")
        prev = [(1 << 32) - 1, 0]
        out += [whole(b, prev) for _ in range(h.VesselCount() - h.KeyframeCount())]
        b.check_end()
        return [(e, self.key[1]) for e in out]


def main():
    expected = json.load(open(sys.argv[1]))
    d = Decoder()
    kinds = set()
    for m in expected:
        got = d.decode(bytearray(open(m["file"], "rb").read()))
        want = m["vessels"]
        if got is None or len(got) != len(want):
            sys.exit(f"FAIL: tick {m['tick']}: {None if got is None else len(got)} vessels, expected {len(want)}")
        for (rec, origin), w in zip(got, want):
            pos, floats = values(rec, origin)
            kinds.add("raw" if rec["raw"] else "quantised")
            mine = {"id": rec["id"], "type": rec["type"], "flags": rec["flags"], "position": pos, "floats": floats}
            if mine != w:
                sys.exit(f"FAIL: tick {m['tick']} vessel {w['id']}: decoded {mine}, the C decoder {w}")
    needed = {f"id class {c}" for c in range(4)} | {"same type", "new type", "flags", "0 unchanged",
              "10 small change", "orientation difference", "orientation whole", "110 whole state",
              "1110 raw state", "1111 gone"}
    if needed - SEEN:
        sys.exit(f"FAIL: the messages never used: {', '.join(sorted(needed - SEEN))}")
    print(f"compact_decode.py: {len(expected)} messages decoded from the document, "
          f"bit for bit as the C decoder ({', '.join(sorted(kinds))} vessels; every record kind)")


if __name__ == "__main__":
    main()
