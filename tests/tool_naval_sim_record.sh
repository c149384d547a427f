#!/bin/sh
# SPDX-License-Identifier: MIT
# naval-sim --record, end to end: a run with controls, damage events and
# contacts is recorded (LOG and its base LOG.ckpt) and naval-replay runs it
# again to the same final state hash; recording changes nothing (the same
# hash without --record); a log whose recorded change is altered does not
# replay (exit 1); a LOG that cannot be written exits 2.
set -u
sim=$1
replay=$2
data=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
field() { python3 -c "import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$1" "$2"; }

# flooding: breaches at 2 s and 4 s; aground: throttle and rudder set, contacts with the ground;
# catamaran: a hull of three collision pieces passing one pile and striking another;
# breakers: the built-ins in a Beaufort 8 sea, struck by breaking crests within the 7 s
# (checked below against the same types without them).
for s in flooding aground catamaran breakers; do
    "$sim" "$data/scenarios/$s.json" --steps 420 --threads 2 --record "$tmp/$s.log" --json > "$tmp/$s.json" \
        || fail "$s: naval-sim --record"
    [ -f "$tmp/$s.log.ckpt" ] || fail "$s: no base checkpoint"
    head -1 "$tmp/$s.log" | grep -q '^naval-record ' || fail "$s: not a record log"
    tail -1 "$tmp/$s.log" | grep -q '^end 420$' || fail "$s: no end line"
    "$sim" "$data/scenarios/$s.json" --steps 420 --threads 1 --json > "$tmp/$s.plain.json" || fail "$s: naval-sim"
    "$replay" "$tmp/$s.log.ckpt" "$tmp/$s.log" --threads 1 --json > "$tmp/$s.replay.json" || fail "$s: naval-replay"
    h=$(field "$tmp/$s.json" state_hash)
    [ "$h" = "$(field "$tmp/$s.plain.json" state_hash)" ] || fail "$s: --record changed the run's hash"
    [ "$h" = "$(field "$tmp/$s.replay.json" state_hash)" ] || fail "$s: the replay ends at another state"
    [ "$(field "$tmp/$s.replay.json" ok)" = "True" ] || fail "$s: the replay is not ok"
done
# the breakers struck within the 7 s: the same scenario with the built-ins'
# type files less "breaking_crests" ends at another state
for v in skiff patrol freighter; do
    sed 's/, "breaking_crests"//' "$data/vessels/$v.json" > "$tmp/$v.json"
    grep -q breaking_crests "$tmp/$v.json" && fail "$v.json: breaking_crests not removed"
done
sed "s|\"builtin:skiff\", \"builtin:patrol\", \"builtin:freighter\"|\"$tmp/skiff.json\", \"$tmp/patrol.json\", \"$tmp/freighter.json\"|" \
    "$data/scenarios/breakers.json" > "$tmp/calm.json"
grep -q "$tmp/patrol.json" "$tmp/calm.json" || fail "breakers: the types not replaced"
"$sim" "$tmp/calm.json" --steps 420 --threads 1 --json > "$tmp/calm.out.json" || fail "breakers without crests: naval-sim"
[ "$(field "$tmp/calm.out.json" state_hash)" != "$(field "$tmp/breakers.json" state_hash)" ] \
    || fail "breakers: no crest struck in 7 s (the same state without breaking crests)"
grep -q ' breach 1 ' "$tmp/flooding.log" || fail "flooding: the breaches are not in the log"
[ "$(field "$tmp/flooding.replay.json" breaches)" = 4 ] || fail "flooding: 4 breaches expected"
[ "$(field "$tmp/aground.replay.json" contacts_matched)" -gt 0 ] || fail "aground: no contacts replayed"

# An altered change: the first breach's area.
sed 's/\( breach 0 .*\) [0-9.e-]*$/\1 0.125/' "$tmp/flooding.log" > "$tmp/bad.log"
cmp -s "$tmp/flooding.log" "$tmp/bad.log" && fail "the log was not altered"
"$replay" "$tmp/flooding.log.ckpt" "$tmp/bad.log" --threads 1 > /dev/null 2>&1
[ $? -eq 1 ] || fail "an altered log replayed"

"$sim" "$data/scenarios/flooding.json" --steps 5 --record "$tmp/no/such/dir/x.log" > /dev/null 2> "$tmp/err.txt"
[ $? -eq 2 ] || fail "an unwritable --record LOG must exit 2"
grep -q -- "--record" "$tmp/err.txt" || fail "the error does not name --record"
echo "ok"
