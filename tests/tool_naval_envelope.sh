#!/bin/sh
# SPDX-License-Identifier: MIT
# naval-envelope end to end (issue 29, item 4): a short sweep of the built-in
# types at the skiff's, the patrol boat's and the freighter's rated Beaufort
# numbers and the ones above (one seed, 1 min of sea time), with a
# top-heavy skiff (CG raised 1.5 m, rated 12) beside them that must capsize.
# From the JSON: every case present once with its seeds, the figures
# consistent with each other, no built-in capsized (or froze) at or below
# its rated Beaufort number (but for the known failures below, listed), the
# top-heavy type's rating failing; --check's exit status agrees; the same
# output at 1 and 2 threads; the text table; mistakes exit 2.
# NAVAL_TEST_LIGHT=1 (the sanitizers' builds): the skiff's and the patrol
# boat's rated numbers only, 0.25 min (the freighter's Beaufort 10 adds no
# code path, only sea time).
set -u
tool=$1
data=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

minutes=1
# Built-in types whose rating the physics does not hold yet (names, space-
# separated; docs/hydrodynamics.md, "Capsize envelope"): their capsizes at or
# below the rating are printed, not failed. None now: before the Smith effect
# and the skiff's roll gyration of 0.32 B, the skiff capsized here at full
# throttle in head seas at Beaufort 4.
known="${NAVAL_ENVELOPE_KNOWN-}"
beaufort=4,5,7,8,10
if [ "${NAVAL_TEST_LIGHT:-0}" = 1 ]; then
    minutes=0.25
    beaufort=4,5
fi

/usr/bin/env python3 - "$data/vessels/skiff.json" "$tmp/tippy.json" <<'PY' || fail "writing the top-heavy type"
import json, sys
t = json.load(open(sys.argv[1]))
t["name"] = "tippy"
t["cg"][1] += 1.5
t["rated_beaufort"] = 12
json.dump(t, open(sys.argv[2], "w"))
PY

types="builtin:skiff,patrol,builtin:freighter,$tmp/tippy.json"
"$tool" --types "$types" --beaufort "$beaufort" --seeds 1 --minutes "$minutes" --threads 2 --json --check --quiet \
    > "$tmp/sweep.json"
rc=$?
[ $rc = 1 ] || fail "--check: exit $rc, expected 1 (the top-heavy type's rating fails)"

/usr/bin/env python3 - "$tmp/sweep.json" "$beaufort" "$minutes" "$known" <<'PY' || fail "JSON checks"
import json, sys
d = json.load(open(sys.argv[1]))
beaufort = [int(b) for b in sys.argv[2].split(",")]
minutes = float(sys.argv[3])
known = sys.argv[4].split()
for k in ("tool", "minutes", "tick_hz", "steps", "seeds", "beaufort", "speeds", "headings", "ocean", "sea_states",
          "types"):
    assert k in d, k
assert d["tool"] == "naval-envelope"
assert d["beaufort"] == beaufort, d["beaufort"]
assert d["seeds"] == [1], d["seeds"]
assert abs(d["minutes"] - minutes) < 1e-9 and d["steps"] == round(minutes * 60 * d["tick_hz"])
speeds = [(s["name"], s["throttle"]) for s in d["speeds"]]
headings = [(h["name"], h["off_waves_deg"]) for h in d["headings"]]
assert speeds == [("stop", 0), ("half", 0.5), ("full", 1)], speeds
assert headings == [("head", 180), ("bow", 135), ("beam", 90), ("quartering", 45), ("following", 0)], headings
assert [s["beaufort"] for s in d["sea_states"]] == beaufort
for s in d["sea_states"]:
    assert s["hs_m"] > 0 and s["tp_s"] > 0 and s["wind_mps"] > 0, s
hs = [s["hs_m"] for s in d["sea_states"]]
assert hs == sorted(hs), hs
names = [t["name"] for t in d["types"]]
assert names == ["skiff", "patrol", "freighter", "tippy"], names
rated = {"skiff": 4, "patrol": 7, "freighter": 10, "tippy": 12}
horizon = d["steps"] / d["tick_hz"] + 1e-9
for t in d["types"]:
    assert t["rated_beaufort"] == rated[t["name"]], t["name"]
    assert [s["beaufort"] for s in t["sea_states"]] == beaufort, t["name"]
    first = None
    for s in t["sea_states"]:
        cases = s["cases"]
        # Every (speed, heading) exactly once, each with its one seed.
        assert sorted((c["speed"], c["heading"]) for c in cases) == sorted(
            (sn, hn) for sn, _ in speeds for hn, _ in headings), (t["name"], s["beaufort"])
        total = 0
        for c in cases:
            where = (t["name"], s["beaufort"], c["speed"], c["heading"])
            assert c["runs"] == 1 and len(c["per_seed"]) == 1 and c["per_seed"][0]["seed"] == 1, where
            run = c["per_seed"][0]
            assert c["capsized"] == int(run["capsized"]), where
            assert c["frozen"] == 0, where
            assert abs(c["max_heel_deg"] - run["max_heel_deg"]) < 1e-3, where
            assert 0 <= c["max_heel_deg"] <= 180, where
            if run["capsized"]:
                assert c["max_heel_deg"] > 90 and 0 <= run["capsize_s"] <= horizon, where
                assert c["first_capsize_s"] == run["capsize_s"], where
            else:
                assert run["capsize_s"] is None and c["first_capsize_s"] is None, where
            total += c["capsized"]
        assert s["capsized_runs"] == total, (t["name"], s["beaufort"])
        assert abs(s["max_heel_deg"] - max(c["max_heel_deg"] for c in cases)) < 1e-3
        if total and first is None:
            first = s["beaufort"]
        if s["beaufort"] <= t["rated_beaufort"] and t["name"] != "tippy" and total:
            what = "%s capsized at Beaufort %d, rated %d: %s" % (
                t["name"], s["beaufort"], t["rated_beaufort"],
                [(c["speed"], c["heading"], c["first_capsize_s"]) for c in cases if c["capsized"]])
            assert t["name"] in known, what
            print("known failure:", what)
    assert t["first_capsize_beaufort"] == first, (t["name"], first)
    holds = all(s["capsized_runs"] == 0 for s in t["sea_states"] if s["beaufort"] <= t["rated_beaufort"])
    assert t["rating_holds"] == holds, t["name"]
for t in d["types"]:
    if t["name"] in known and t["rating_holds"]:
        print("note: %s's rating holds in this sweep now: take it off known in tests/tool_naval_envelope.sh" % t["name"])
tippy = d["types"][3]
assert tippy["rating_holds"] is False and tippy["first_capsize_beaufort"] == beaufort[0], tippy
# Under way the helmsman holds the heading (in the first sea state: the
# median of the cases under way; a freighter at half speed yaws in beam and
# quartering seas), and full throttle is faster than half.
for t in d["types"][:3]:
    cases = t["sea_states"][0]["cases"]
    rms = sorted(c["heading_rms_deg"] for c in cases if c["speed"] != "stop" and not c["capsized"])
    assert rms and rms[len(rms) // 2] < 10, (t["name"], rms)
    mean = {sp: sum(c["mean_speed_mps"] for c in cases if c["speed"] == sp) / 5 for sp in ("stop", "half", "full")}
    assert mean["stop"] < mean["half"] < mean["full"], (t["name"], mean)
print("rated Beaufort numbers hold:", {t["name"]: t["rating_holds"] for t in d["types"]})
PY

# Deterministic: the same arguments give the same output at 1 and 2 threads.
small="--types skiff,patrol --beaufort 3,6 --seeds 2 --minutes 0.1 --speeds half,full --headings beam,head"
"$tool" $small --json --threads 1 --quiet > "$tmp/t1.json" || fail "small sweep, 1 thread"
"$tool" $small --json --threads 2 --quiet > "$tmp/t2.json" || fail "small sweep, 2 threads"
cmp -s "$tmp/t1.json" "$tmp/t2.json" || fail "the output depends on the thread count"
"$tool" $small --threads 2 > "$tmp/t.txt" 2> "$tmp/t.err" || fail "small sweep, text"
grep -q "^skiff (builtin:skiff), rated Beaufort 4" "$tmp/t.txt" || fail "the text table lacks the skiff's heading"
grep -q "^patrol " "$tmp/t.txt" || fail "the text table lacks the verdicts"
grep -q "Beaufort 6 seed 2" "$tmp/t.err" || fail "no progress line on stderr"

# Mistakes exit 2 with the reason.
expect2() {
    out=$("$tool" "$@" 2>&1)
    [ $? = 2 ] || fail "$* did not exit 2"
    echo "$out" | grep -q "naval-envelope: " || fail "$*: no reason given ($out)"
}
expect2 --beaufort 8..3
expect2 --beaufort 13
expect2 --speeds half,half
expect2 --headings 181
expect2 --types builtin:nope
expect2 --types skiff,skiff
expect2 --seeds 0
expect2 --minutes 0
expect2 --bogus
exit 0
