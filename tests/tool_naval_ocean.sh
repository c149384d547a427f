#!/bin/sh
# SPDX-License-Identifier: MIT
# naval-ocean end to end: the JSON report has every statistic with sane
# values, the picture is a PNG, and bad parameters exit 2 with a message.
set -u
tool="$1"
tmp="${TMPDIR:-/tmp}/naval_ocean_test.$$"
mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# field value of a flat JSON object (numbers and strings)
json_get() {
    sed -n "s/.*\"$2\": *\"\{0,1\}\([^,\"}]*\)\"\{0,1\}[,}].*/\1/p" "$1" | head -n 1
}
# awk-checked numeric condition on named values: check FILE 'expr' key...
check() {
    file="$1"; cond="$2"; shift 2
    vars=""
    for k in "$@"; do
        v=$(json_get "$file" "$k")
        [ -n "$v" ] || fail "$k missing from $(cat "$file")"
        vars="$vars -v $k=$v"
    done
    # shellcheck disable=SC2086
    awk $vars "BEGIN { exit !($cond) }" || fail "not ($cond): $(cat "$file")"
}

"$tool" --spectrum pm --wind 10 --size 900 --resolution 128 --cascades 1 --seed 3 --time 12 \
    --steps 3 --json > "$tmp/pm.json" || fail "pm run exited $?"
# --wind is U10; PM's formulas take U19.5 = 1.075 U10
check "$tmp/pm.json" 'hs_spectrum > 2.43 && hs_spectrum < 2.50' hs_spectrum       # 0.209 U19.5^2 / g = 2.465
check "$tmp/pm.json" 'hs_measured > 0.8 * hs_spectrum && hs_measured < 1.2 * hs_spectrum' hs_measured hs_spectrum
check "$tmp/pm.json" 'peak_period > 7.75 && peak_period < 7.95' peak_period       # 2 pi U19.5 / (0.877 g) = 7.85
check "$tmp/pm.json" 'max_height > 0 && min_height < 0 && max_height < 3 * hs_measured' max_height min_height hs_measured
check "$tmp/pm.json" 'fold_fraction >= 0 && fold_fraction < 0.05' fold_fraction
check "$tmp/pm.json" 'update_ms > 0 && query_ns_per_point > 0 && query_failed >= 0' update_ms query_ns_per_point query_failed
[ "$(json_get "$tmp/pm.json" spectrum)" = pm ] || fail "spectrum not echoed"
# the breaking crests' squeeze is taken a quarter of the peak's half
# wavelength either side: pi / (4 k_p), deep water's k_p = (2 pi / Tp)^2 / g
check "$tmp/pm.json" 'breaking_stencil > 0.999 * 3.14159265 / 4 * 9.81 / (2 * 3.14159265 / peak_period)^2 && breaking_stencil < 1.001 * 3.14159265 / 4 * 9.81 / (2 * 3.14159265 / peak_period)^2' breaking_stencil peak_period
check "$tmp/pm.json" 'breaking_fraction >= 0 && breaking_fraction < 0.05 && breaking_strength_mean >= 0 && breaking_strength_mean <= 1' breaking_fraction breaking_strength_mean
# a gale's crests break (docs/hydrodynamics.md, "Breaking crests"), each over a part of its height
"$tool" --beaufort 8 --size 600 --resolution 256 --cascades 1 --seed 5 --time 61 --steps 1 --json > "$tmp/gale.json" ||
    fail "gale run exited $?"
check "$tmp/gale.json" 'breaking_fraction > 0.002 && breaking_fraction < 0.05' breaking_fraction
check "$tmp/gale.json" 'breaking_strength_mean > 0.02 && breaking_strength_mean < 0.5' breaking_strength_mean

# JONSWAP with three cascades, a target Hs, and a picture
"$tool" --spectrum jonswap --hs 2.5 --resolution 64 --cascades 3 --ratio 3.3 --json --steps 2 \
    --image "$tmp/sea.png" --image-size 64 > "$tmp/js.json" || fail "jonswap run exited $?"
check "$tmp/js.json" 'hs_measured > 2.2 && hs_measured < 2.8' hs_measured
check "$tmp/js.json" 'cascades == 3' cascades
[ "$(head -c 8 "$tmp/sea.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "sea.png is not a PNG"

# a light wind over the default 100 km is a fully developed sea: PM's Hs
# 0.209 (1.075 U10)^2 / g = 0.2218 m at 3 m/s, not the fetch law's 0.74 m;
# the grid (size from the peak) holds it within 1 %
"$tool" --wind 3 --steps 1 --json > "$tmp/fd.json" || fail "fully developed run exited $?"
check "$tmp/fd.json" 'hs_spectrum > 0.2174 && hs_spectrum < 0.2262' hs_spectrum
check "$tmp/fd.json" 'hs_grid > 0.99 * hs_spectrum && hs_grid < 1.01 * hs_spectrum' hs_grid hs_spectrum
check "$tmp/fd.json" 'size > 130 && size < 145' size                               # 16 peak wavelengths
check "$tmp/fd.json" 'breaking_fraction == 0 && breaking_strength_mean == 0' breaking_fraction breaking_strength_mean  # no crest breaks

# --hs alone: a peak period no steeper than 3.6 sqrt(Hs) (11.38 s); --tp sets it
"$tool" --hs 10 --resolution 64 --cascades 1 --steps 1 --json > "$tmp/hs.json" || fail "--hs run exited $?"
check "$tmp/hs.json" 'peak_period > 11.3 && peak_period < 11.5' peak_period
"$tool" --hs 4 --tp 12.5 --resolution 64 --cascades 1 --steps 1 --json > "$tmp/tp.json" || fail "--tp run exited $?"
check "$tmp/tp.json" 'peak_period > 12.45 && peak_period < 12.55 && tp == 12.5' peak_period tp

# text output names the statistics too
"$tool" --resolution 32 --cascades 1 --steps 1 > "$tmp/text.txt" || fail "text run exited $?"
for k in hs_measured hs_spectrum hs_grid peak_period max_height min_height fold_fraction breaking update query; do
    grep -q "^$k" "$tmp/text.txt" || fail "text output lacks $k"
done

# bad parameters: exit 2 and say which
expect2() {
    word="$1"; shift
    "$tool" "$@" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    [ $rc -eq 2 ] || fail "$* exited $rc, expected 2"
    grep -qi "$word" "$tmp/err" || fail "$* said '$(cat "$tmp/err")', expected it to name $word"
}
expect2 wind --wind -3
expect2 resolution --resolution 100
expect2 resolution --resolution abc
expect2 spectrum --spectrum waves
expect2 depth --spectrum tma
expect2 cascades --cascades 9
expect2 beaufort --beaufort 13
expect2 choppiness --choppiness -1
expect2 unknown --frobnicate 1
# One convention across the tools (base/cli.h): the suggestion, exit 2; a
# picture that cannot be created names its path and errno, exit 2.
expect2 "naval-ocean: unknown option '--wnd' (did you mean --wind?)" --wnd 3
expect2 "naval-ocean: unknown option '--imag' (did you mean --image?)" --imag
expect2 "naval-ocean: --image: cannot create '$tmp/no/such/dir/sea.png': No such file or directory" \
    --resolution 32 --cascades 1 --steps 1 --image "$tmp/no/such/dir/sea.png"
expect2 wind --wind
expect2 tp --tp 9
expect2 tp --hs 3 --tp 9 --spectrum phillips
"$tool" --help > /dev/null || fail "--help exited $?"
echo "tool_naval_ocean: ok"
