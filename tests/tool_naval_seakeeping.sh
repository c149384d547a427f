#!/bin/sh
# SPDX-License-Identifier: MIT
# naval-seakeeping end to end on the built-in types: the checks of issue 29
# read from its JSON and asserted here, independently of the tool's own
# verdicts (recomputed from the figures it reports):
#   - roll decay: the damping ratio fitted at 10 degrees within 25 % of
#     Ikeda's estimate, the period within 5 % of 2 pi sqrt((I + A44) / (rho g V GM));
#   - the IS Code weather criterion's phi_1 against 0.7 phi_1r, phi_1r the largest
#     steady roll of MSC.1/Circ.1200's regular beam-wave sweep (its steepness
#     table at the natural period, the heading held within 15 degrees);
#   - the beam-sea roll at the natural period against the 1-DOF prediction with
#     the decay's own damping at the simulated amplitude and the excitation
#     measured on the hull held upright in the same waves, every wave run's
#     heading held by the yaw restraint;
#   - head seas at full speed: the peaks of heave per wave amplitude and pitch
#     per wave slope over wavelengths of 0.8-4 L within 30 % of the closed-form
#     strip theory of Jensen, Mansour and Olsen (2004), recomputed here from
#     its own formulas, or the type above Froude number 0.5 and EXEMPT;
#   - MSC.137(76): turning advance <= 4.5 L, tactical diameter <= 5 L, the
#     zig-zag overshoots and the crash stop within their limits, or the type
#     outside the standard's scope (below 100 m) and marked EXEMPT;
#   - the oblique tow and the rotating arm (reported, no standard): the
#     displacement hulls' sway force grows with the drift at every speed,
#     every hull's yaw moment resists a turn and grows with its rate, port
#     mirrors starboard in both, the
#     coefficients are the forces' over 1/2 rho L T U^2 and Clarke's linear
#     part is his formula; where the type applies its manoeuvring model
#     (patrol, freighter), the hull meets the model's sway force within 8 %,
#     where it acts within 0.05 L (from 5 degrees of drift), and its yaw
#     moment within 8 %, at every drift, turn and speed; broadside the model is its cross-flow drag;
#   - intact stability (IS Code 2008 Part A 2.2 and 2.3) from the righting lever
#     curve the tool reports: its areas, largest lever and the wind's levers, heels
#     and areas a and b redone here, the verdicts from them;
#   - the pull-out (MSC/Circ.1053): the sides mirror, the rate halves, and
#     the displacement hulls come back to a straight course (the residual
#     under 1 % of the turn's rate);
#   - every status is the one its figures give, the exit status says whether
#     a check failed, the figures do not depend on the thread count, and
#     mistakes exit 2.
# What the simulation does not meet yet is listed in KNOWN_FAILING below
# (docs/seakeeping.md has the figures): printed, not asserted, and reported
# when it starts to pass. NAVAL_SEAKEEPING_LIGHT=1 (the sanitizer builds)
# skips the wave sweep.
set -u
tool=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

trials=""
if [ "${NAVAL_SEAKEEPING_LIGHT:-0}" = 1 ]; then trials="--trials decay,weather,manoeuvres,underway,drift,breaker,stability"; fi
start=$(date +%s)
# shellcheck disable=SC2086
"$tool" --json --threads 2 $trials > "$tmp/all.json"
rc=$?
[ "$rc" -le 1 ] || fail "the run exited $rc"
echo "naval-seakeeping on the built-ins: $(( $(date +%s) - start )) s (exit $rc)"
start=$(date +%s)
"$tool" patrol --json --threads 1 --trials decay,weather,manoeuvres,underway,drift,breaker,stability > "$tmp/one.json"
rc1=$?
[ "$rc1" -le 1 ] || fail "the one-thread run exited $rc1"
echo "patrol again at 1 thread: $(( $(date +%s) - start )) s"

/usr/bin/env python3 - "$tmp" "$rc" <<'PY' || fail "JSON checks"
import json, math, os, sys
d, rc = sys.argv[1], int(sys.argv[2])
doc = json.load(open(os.path.join(d, "all.json")))
one = json.load(open(os.path.join(d, "one.json")))
# What the simulation does not meet (type, check): docs/seakeeping.md, "What fails".
KNOWN_FAILING = {("patrol", "weather_phi1"), ("freighter", "weather_phi1")}
types = {t["name"]: t for t in doc["types"]}
assert set(types) == {"skiff", "patrol", "freighter"}, sorted(types)
failures, failing_now, evaluated = [], [], set()

def check(t, name):
    for c in t["checks"]:
        if c["name"] == name:
            return c
    raise AssertionError("%s: no check %s" % (t["name"], name))

def expect(t, name, ok, in_scope, what):
    """The status the figures give; a miss is a test failure unless known."""
    c = check(t, name)
    want = "PASS" if ok else ("FAIL" if in_scope else "EXEMPT")
    assert c["status"] == want, (t["name"], name, c["status"], want, what)
    print("  %-9s %-26s %-6s %s" % (t["name"], name, c["status"], what))
    evaluated.add((t["name"], name))
    if want == "FAIL":
        failing_now.append((t["name"], name))
        if (t["name"], name) not in KNOWN_FAILING:
            failures.append("%s %s: %s" % (t["name"], name, what))

for name, t in types.items():
    p = t["particulars"]
    # roll decay: the fit redone from the per-cycle figures
    dec = t["roll_decay"]
    xs, ys, ps = [], [], []
    for r in dec["releases"]:
        assert not r["capsized"], (name, r["release_deg"])
        assert len(r["cycles"]) >= 3, (name, r["release_deg"], len(r["cycles"]))
        for c in r["cycles"]:
            if 3.0 <= c["amp_mean_deg"] <= 25.0:
                xs.append(c["amp_mean_deg"]); ys.append(c["zeta"]); ps.append(c["period"])
    assert len(xs) >= 4, (name, len(xs))
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    zeta10 = my + b * (10.0 - mx)
    assert abs(zeta10 - dec["zeta_10deg"]) < 1e-4, (name, zeta10, dec["zeta_10deg"])
    ikeda = dec["ikeda_zeta_10deg"]
    period = sum(ps) / len(ps)
    expect(t, "decay_zeta_10deg", abs(zeta10 / ikeda - 1) <= 0.25, True,
           "zeta(10 deg) %.4f, Ikeda %.4f (%+.0f %%)" % (zeta10, ikeda, 100 * (zeta10 / ikeda - 1)))
    expect(t, "decay_period", abs(period / p["roll_period"] - 1) <= 0.05, True,
           "period %.3f s, predicted %.3f s" % (period, p["roll_period"]))
    # the IS Code weather criterion (it applies from 24 m)
    w = t["weather"]
    # it applies from 24 m of the Load Line Convention's length: 96 % of the length on the
    # waterline at 85 % of the depth, or stem to rudder stock there if greater. The built-in
    # hulls' stems and transoms stand upright (that waterline is the overall length: skiff 5,
    # patrol 24, freighter 120 m) and their rudders lie abaft the transom (at -2.75, -12.6 and
    # -62 m, the stems at 2.5, 12 and 60 m), so the stock's figure is the greater
    want_length = {"skiff": 2.5 + 2.75, "patrol": 12.0 + 12.6, "freighter": 60.0 + 62.0}[name]
    assert abs(w["code_length"] - want_length) < 1e-3 and abs(p["code_length"] - want_length) < 1e-3, (name, w)
    assert w["code_length"] > 0.96 * p["hull_length"], name
    assert w["applies"] == (w["code_length"] >= 24.0), (name, w["applies"])
    phi1 = 109 * w["k"] * w["x1"] * w["x2"] * math.sqrt(w["r"] * w["s"])
    assert abs(phi1 - w["phi1_deg"]) < 1e-4 * phi1, (name, phi1, w["phi1_deg"])
    assert abs(w["r"] - (0.73 + 0.6 * (p["kg"] - p["draft"]) / p["draft"])) < 1e-4, name
    # the Code's B is the moulded breadth, the hull's greatest amidships: the built-in
    # generator's breadth (wider than the waterline's, its sections flare), and the
    # factors that hang on it redone here from the Code's tables
    assert abs(w["B"] - {"skiff": 1.9, "patrol": 5.6, "freighter": 19.0}[name]) < 1e-3, (name, w["B"])
    assert abs(w["B"] - p["moulded_breadth"]) < 1e-9 and abs(w["B_wl"] - p["beam"]) < 1e-9, name
    def table(rows, x):
        if x <= rows[0][0]: return rows[0][1]
        for (x0, y0), (x1, y1) in zip(rows, rows[1:]):
            if x <= x1: return y0 + (y1 - y0) * (x - x0) / (x1 - x0)
        return rows[-1][1]
    x1_rows = [(2.4, 1.0), (2.5, .98), (2.6, .96), (2.7, .95), (2.8, .93), (2.9, .91), (3.0, .90), (3.1, .88),
               (3.2, .86), (3.3, .84), (3.4, .82), (3.5, .80)]
    k_rows = [(0, 1.0), (1.0, .98), (1.5, .95), (2.0, .88), (2.5, .79), (3.0, .74), (3.5, .72), (4.0, .70)]
    s_rows = [(6, .100), (7, .098), (8, .093), (12, .065), (14, .053), (16, .044), (18, .038), (20, .035)]
    x2_rows = [(.45, .75), (.50, .82), (.55, .89), (.60, .95), (.65, .97), (.70, 1.0)]
    def code_phi1(B, cb=p["block"]):
        C = 0.373 + 0.023 * B / p["draft"] - 0.043 * p["length"] / 100
        T = 2 * C * B / math.sqrt(p["gm_t"])
        ak = 2 * p["bilge_keel_length"] * p["bilge_keel_breadth"]
        k = table(k_rows, ak * 100 / (p["length"] * B)) if ak > 0 else 1.0
        return 109 * k * table(x1_rows, B / p["draft"]) * table(x2_rows, cb) * math.sqrt(w["r"] * table(s_rows, T))
    assert abs(code_phi1(w["B"]) / phi1 - 1) < 1e-3, (name, code_phi1(w["B"]), phi1)
    assert abs(code_phi1(w["B_wl"]) / w["phi1_waterline_breadth_deg"] - 1) < 1e-3, (name, w)
    # the Code does not say over which breadth its C_b is: the check holds under both
    cb_moulded = p["volume"] / (p["length"] * w["B"] * p["draft"])
    phi1_cb = code_phi1(w["B"], cb_moulded)
    assert abs(phi1_cb / w["phi1_moulded_cb_deg"] - 1) < 1e-3, (name, phi1_cb, w)
    # the simulated test is MSC.1/Circ.1200's: regular beam waves at omega / omega_0 =
    # 0.8 .. 1.2 of steepness from its table 4.5.1 at the natural period, the heading held
    # within 15 degrees; phi_1r the largest steady roll, phi_1 = 0.7 phi_1r
    circ = [(6, .100), (7, .098), (8, .093), (12, .065), (14, .053), (16, .044), (18, .038), (20, .032),
            (22, .028), (24, .025), (26, .023), (28, .021), (30, .020)]
    tp = w["t_phi"]
    assert abs(tp - p["roll_period"]) < 1e-4, (name, tp)
    s_wave = circ[0][1] if tp <= 6 else circ[-1][1] if tp >= 30 else next(
        y0 + (y1 - y0) * (tp - x0) / (x1 - x0) for (x0, y0), (x1, y1) in zip(circ, circ[1:]) if x0 <= tp <= x1)
    assert abs(w["s_wave"] - s_wave) < 1e-5, (name, w["s_wave"], s_wave)
    runs = w["runs"]
    assert [r["omega_ratio"] for r in runs] == [0.8, 0.9, 0.95, 0.975, 1.0, 1.05, 1.2], name
    for r in runs:
        assert abs(r["period"] * r["omega_ratio"] / tp - 1) < 1e-4, (name, r)
        assert abs(r["wave_height"] / r["wavelength"] / s_wave - 1) < 1e-4, (name, r)
        assert r["capsized"] or r["yaw_window_deg"] <= 15.0, (name, "heading not held", r)
    capsized = any(r["capsized"] for r in runs)
    assert w["capsized"] == capsized, name
    sim = None if capsized else 0.7 * max(r["roll_deg"] for r in runs)
    assert (sim is None) == (w["roll_deg"] is None), name
    assert sim is None or abs(sim - w["roll_deg"]) < 1e-3 * sim, (name, sim, w["roll_deg"])
    # the Code's phi_1 with the peak wave's captive excitation in place of r
    # (docs/seakeeping.md): reported, not a verdict
    if not capsized:
        peak = max(runs, key=lambda r: r["roll_deg"])
        assert 0.3 < peak["excitation"] < 1.3, (name, peak)
        want = phi1 * math.sqrt(peak["excitation"] / w["r"])
        assert abs(w["phi1_captive_excitation_deg"] / want - 1) < 1e-4, (name, want, w)
    ok = sim is not None and abs(sim / phi1 - 1) <= 0.30 and abs(sim / phi1_cb - 1) <= 0.30
    expect(t, "weather_phi1", ok, w["applies"],
           "phi_1 %.1f deg (%.1f with C_b over the moulded breadth), simulated 0.7 phi_1r %s"
           % (phi1, phi1_cb, "capsized" if capsized else "%.1f deg" % sim))
    # MSC.137(76)
    m = t["manoeuvres"]
    L, scope = m["L"], m["in_scope"]
    assert scope == (p["hull_length"] >= 100.0), name
    assert m["approach_settled"], name
    lv = L / m["approach_speed"]
    lim1 = 10.0 if lv < 10 else 20.0 if lv >= 30 else 5 + 0.5 * lv
    lim2 = 25.0 if lv < 10 else 40.0 if lv >= 30 else 17.5 + 0.75 * lv
    tu, z10, z20, st = m["turning"], m["zigzag_10"], m["zigzag_20"], m["crash_stop"]
    for v in (tu["advance"], tu["tactical_diameter"], z10["overshoot1_deg"], z10["overshoot2_deg"],
              z20["overshoot1_deg"], st["track_reach"], z10["initial_reach"]):
        assert v is not None, (name, m)
    expect(t, "turning_advance", tu["advance"] <= 4.5 * L, scope, "advance %.2f L" % (tu["advance"] / L))
    expect(t, "turning_tactical_diameter", tu["tactical_diameter"] <= 5 * L, scope,
           "tactical diameter %.2f L" % (tu["tactical_diameter"] / L))
    expect(t, "initial_turning", z10["initial_reach"] <= 2.5 * L, scope,
           "10 deg of heading in %.2f L" % (z10["initial_reach"] / L))
    expect(t, "zigzag_10_overshoot1", z10["overshoot1_deg"] <= lim1, scope,
           "%.1f deg, limit %.1f" % (z10["overshoot1_deg"], lim1))
    expect(t, "zigzag_10_overshoot2", z10["overshoot2_deg"] <= lim2, scope,
           "%.1f deg, limit %.1f" % (z10["overshoot2_deg"], lim2))
    expect(t, "zigzag_20_overshoot1", z20["overshoot1_deg"] <= 25, scope, "%.1f deg, limit 25" % z20["overshoot1_deg"])
    expect(t, "crash_stop_track_reach", st["track_reach"] <= 15 * L, scope,
           "track reach %.2f L" % (st["track_reach"] / L))
    # the pull-out (reported): from 20 degrees to each side; the built-ins
    # are symmetric, so the two sides mirror; the rate falls at least to
    # half once the rudder is amidships, and the watch is 40 L / V
    po = m["pull_out"]
    assert [q["rudder_deg"] for q in po] == [20.0, -20.0], (name, po)
    for q in po:
        assert q["rate_turn_deg_s"] is not None and q["rate_turn_deg_s"] > 0, (name, q)
        assert q["time_half"] is not None and q["time_half"] > 0, (name, q)
        assert abs(q["rate_residual_deg_s"]) < 0.5 * q["rate_turn_deg_s"], (name, q)
        assert abs(q["watch"] - max(60.0, 40.0 * lv)) < 1.0, (name, q)
    assert abs(po[0]["rate_turn_deg_s"] / po[1]["rate_turn_deg_s"] - 1) < 0.01, (name, po)
    assert abs(po[0]["rate_residual_deg_s"] - po[1]["rate_residual_deg_s"]) < 0.05 * po[0]["rate_turn_deg_s"], (name, po)
    # the displacement hulls are stable on a straight course: the turn dies
    # out (with the triangles' lateral forces taken off through a table
    # fitted upright at rest, the patrol boat kept 0.39 deg/s, the
    # freighter 0.047: a spiral loop)
    if name != "skiff":
        for q in po:
            assert abs(q["rate_residual_deg_s"]) < 0.01 * q["rate_turn_deg_s"], (name, q)
    # head seas under way: JMO (2004) from its own formulas, F and G as the paper writes them
    hs = t["head_seas"]
    g = 9.81
    froude = m["approach_speed"] / math.sqrt(g * p["length"])
    assert abs(hs["froude"] - froude) < 1e-4, (name, hs["froude"], froude)
    assert [r["lambda_over_L"] for r in hs["runs"]] == [0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0, 2.5, 3.0, 4.0], name
    for r in hs["runs"]:
        assert not r["capsized"], (name, r)
        Lw, Bw, T, cb, U = p["length"], p["beam"], p["draft"], p["block"], r["speed"]
        k = 2 * math.pi / r["wavelength"]
        fn = U / math.sqrt(g * Lw)
        alpha = 1 + fn * math.sqrt(k * Lw)  # head seas: cos(beta) = -1
        Be = cb * Bw
        A = 2 * math.sin(0.5 * k * Be * alpha ** 2) * math.exp(-k * T * alpha ** 2)
        f = math.sqrt((1 - k * T) ** 2 + (A * A / (k * Be * alpha ** 3)) ** 2)
        eta = 1 / math.sqrt((1 - 2 * k * T * alpha ** 2) ** 2 + (A * A / (k * Be * alpha ** 2)) ** 2)
        kap, x = math.exp(-k * T), k * Lw
        F = kap * f * 2 / x * math.sin(x / 2)
        G = kap * f * 24 / (x * x * Lw) * (math.sin(x / 2) - x / 2 * math.cos(x / 2))
        assert abs(abs(eta * F) - r["jmo_heave_per_amplitude"]) < 1e-4 * max(abs(eta * F), 1e-3), (name, r, eta * F)
        assert abs(abs(eta * G) / k - r["jmo_pitch_per_slope"]) < 1e-4 * max(abs(eta * G) / k, 1e-3), (name, r)
        # (the JSON has six significant digits)
        assert abs(r["period"] / (2 * math.pi / math.sqrt(g * k)) - 1) < 2e-5, (name, r)
        assert abs(r["encounter_period"] / (2 * math.pi / (math.sqrt(g * k) + k * U)) - 1) < 2e-5, (name, r)
    hp = max(r["heave_per_amplitude"] for r in hs["runs"])
    pp = max(r["pitch_per_slope"] for r in hs["runs"])
    jh = max(r["jmo_heave_per_amplitude"] for r in hs["runs"])
    jp = max(r["jmo_pitch_per_slope"] for r in hs["runs"])
    # long waves: the hull follows the surface
    assert abs(hs["runs"][-1]["heave_per_amplitude"] - 1) < 0.1 or froude > 0.5, (name, hs["runs"][-1])
    expect(t, "head_seas_heave_peak", abs(hp / jh - 1) <= 0.30, froude <= 0.5,
           "peak heave %.2f x A, JMO %.2f (%+.0f %%; Fn %.2f)" % (hp, jh, 100 * (hp / jh - 1), froude))
    expect(t, "head_seas_pitch_peak", abs(pp / jp - 1) <= 0.30, froude <= 0.5,
           "peak pitch %.2f x kA, JMO %.2f (%+.0f %%)" % (pp, jp, 100 * (pp / jp - 1)))
    # regular waves (absent in the light run): the beam-sea roll against the 1-DOF prediction
    if "waves" in t:
        runs = t["waves"]["runs"]
        assert len(runs) == 3 * 8, len(runs)
        res = [r for r in runs if r["heading"] == "beam" and r["period_ratio"] == 1.0]
        assert len(res) == 1, res
        r = res[0]
        # the heading held by the yaw restraint in every run
        for x in runs:
            assert x["yaw_max_deg"] <= 15.0, (name, x)
        # the 1-DOF with the damping of the decay's fit at the simulated amplitude (3..25 deg)
        assert t["waves"]["damping"] == "decay", name
        fit = dec["fit"]
        zeta = fit["a"] + fit["b_per_deg"] * min(max(r["roll_deg"], 3.0), 25.0)
        assert abs(r["zeta_used"] - zeta) < 1e-4, (name, r["zeta_used"], zeta)
        q = p["roll_period"] / r["period"]
        rao = 1.0 / math.sqrt((1 - q * q) ** 2 + (2 * zeta * q) ** 2)
        assert abs(rao / r["predicted_roll_per_slope_whole_slope"] - 1) < 2e-3, (name, rao, r)
        # its excitation measured captive (the hull held upright in the same
        # waves): under the whole slope's, nearing it in long waves, none
        # from ahead
        pred = r["excitation"] * rao
        assert abs(pred / r["predicted_roll_per_slope"] - 1) < 2e-3, (name, pred, r["predicted_roll_per_slope"])
        beam = sorted((x for x in runs if x["heading"] == "beam"), key=lambda x: x["period_ratio"])
        assert 0.3 < r["excitation"] < 1.0, (name, r["excitation"])
        assert all(a["excitation"] < b["excitation"] for a, b in zip(beam[1:], beam[2:])), (name, beam)
        assert 0.9 < beam[-1]["excitation"] < 1.05, (name, beam[-1])
        assert all(abs(x["excitation"]) < 0.01 for x in runs if x["heading"] == "head"), name
        ratio = r["roll_per_slope"] / r["predicted_roll_per_slope"]
        expect(t, "beam_roll_resonance", abs(ratio - 1) <= 0.30, True,
               "roll %.2f x kA, 1-DOF %.2f (%+.0f %%; Ikeda's damping %.2f)" % (
                   r["roll_per_slope"], r["predicted_roll_per_slope"], 100 * (ratio - 1),
                   r["predicted_roll_per_slope_ikeda"]))
        # long waves: the roll follows the wave slope, the hull the surface
        longest = [x for x in runs if x["heading"] == "beam" and x["period_ratio"] == 2.0][0]
        assert abs(longest["roll_per_slope"] / longest["predicted_roll_per_slope"] - 1) < 0.1, longest
        assert abs(longest["heave_per_amplitude"] - 1) < 0.15, longest
        head = [x for x in runs if x["heading"] == "head" and x["period_ratio"] == 2.0][0]
        assert abs(head["pitch_per_slope"] - 1) < 0.15, head
        assert head["roll_deg"] < 0.05 * max(r["roll_deg"], 1e-9) + 0.1, head

# the oblique tow: 3 speeds (a quarter, half and all of the approach's) x
# 8 drifts (-10, then 2 to 90 degrees)
for name, t in types.items():
    p, dr = t["particulars"], t["drift"]
    runs = dr["runs"]
    assert len(runs) == 24, (name, len(runs))
    rho = p["mass"] / p["volume"]
    lin = math.pi * (p["draft"] / p["length"]) * (1 + 0.40 * p["block"] * p["beam"] / p["draft"])
    assert abs(dr["clarke_centre_L"] - (0.5 + 2.4 * p["draft"] / p["length"]) /
               (1 + 0.40 * p["block"] * p["beam"] / p["draft"])) < 1e-6, name
    approach = t["manoeuvres"]["approach_speed"] if "manoeuvres" in t else None
    for v in range(3):
        row = runs[8 * v: 8 * v + 8]
        assert all(r["speed"] == row[0]["speed"] for r in row), (name, row)
        if approach:
            assert abs(row[0]["speed"] / ((0.25, 0.5, 1.0)[v] * approach) - 1) < 1e-4, (name, row[0]["speed"], approach)
        assert [r["drift_deg"] for r in row] == [-10, 2, 5, 10, 20, 30, 60, 90], (name, row)
        for r in row:
            q = 0.5 * rho * p["length"] * p["draft"] * r["speed"] ** 2
            assert abs(r["sway_coefficient"] + r["sway_force"] / q) < 1e-4 * abs(r["sway_coefficient"]) + 1e-9, (name, r)
            assert abs(r["clarke_sway_coefficient"] / (lin * math.radians(r["drift_deg"])) - 1) < 1e-4, (name, r)
        # port mirrors starboard (the hulls are symmetric)
        assert abs(row[0]["sway_coefficient"] + row[3]["sway_coefficient"]) < 1e-3 * row[3]["sway_coefficient"], (name, row)
        assert abs(row[0]["centre_L"] - row[3]["centre_L"]) < 1e-3, (name, row)
        # against the drift, and for the displacement hulls more of it the
        # more the drift (the skiff planing sideways at 16 m/s heels and
        # rises with it: reported, not asserted)
        assert row[1]["sway_coefficient"] > 0, (name, row[1])
        if name != "skiff":
            assert all(a["sway_coefficient"] < b["sway_coefficient"] for a, b in zip(row[1:], row[2:])), (name, row)
        assert abs(row[7]["model_sway_coefficient"] - dr["cross_flow_drag"]) < 1e-9, (name, row[7])
        if dr["manoeuvring"]:
            for r in row:
                # the triangles' own sway force is taken off exactly: what
                # is left is the running sinkage and trim (the immersion
                # the model is scaled by) and the hydrostatics, at 2
                # degrees as at 90 (a table of them missed up to a fifth)
                d = abs(r["sway_coefficient"] - r["model_sway_coefficient"])
                assert d < 0.08 * abs(r["model_sway_coefficient"]), (name, r)
                # at 2 degrees the force is too small to place within 0.05 L
                assert abs(r["drift_deg"]) < 5 or abs(r["centre_L"] - r["model_centre_L"]) < 0.05, (name, r)
    # the rotating arm: 3 speeds x 4 yaw rates (r L / U -0.2, then 0.1, 0.2, 0.4)
    turns = dr["turns"]
    assert len(turns) == 12, (name, len(turns))
    for v in range(3):
        row = turns[4 * v: 4 * v + 4]
        assert [r["turn"] for r in row] == [-0.2, 0.1, 0.2, 0.4], (name, row)
        assert all(r["speed"] == runs[8 * v]["speed"] for r in row), (name, row)
        for r in row:
            q = 0.5 * rho * p["length"] * p["draft"] * r["speed"] ** 2
            assert abs(r["yaw_coefficient"] - r["yaw_moment"] / (q * p["length"])) < 1e-4 * abs(r["yaw_coefficient"]) + 1e-9, (name, r)
        # the water resists the turn, the more the faster it turns; port mirrors starboard
        assert abs(row[0]["yaw_coefficient"] + row[2]["yaw_coefficient"]) < 1e-3 * row[2]["yaw_coefficient"], (name, row)
        assert 0 < row[1]["yaw_coefficient"] < row[2]["yaw_coefficient"] < row[3]["yaw_coefficient"], (name, row)
        if dr["manoeuvring"]:
            for r in row:
                assert abs(r["yaw_coefficient"] / r["model_yaw_coefficient"] - 1) < 0.08, (name, r)
    assert dr["manoeuvring"] == (name != "skiff"), name

    # struck at rest by one breaking crest (docs/seakeeping.md, "Breaking crests"):
    # beam-on at 30 and 35 % of the length, over the bow and the stern at 35 %
    bk = t["breaker"]
    assert bk["applies"] == (name == "patrol"), (name, bk["applies"])  # a small displacement hull
    runs = bk["runs"]
    assert [(r["height_ratio"], r["from_deg"]) for r in runs] == [(0.3, 90), (0.35, 90), (0.35, 180), (0.35, 0)], name
    for r in runs:
        assert abs(r["height"] - r["height_ratio"] * p["hull_length"]) < 1e-5 * r["height"], (name, r)
        assert abs(r["wavelength"] - r["height"] / bk["steepness"]) < 1e-5 * r["wavelength"], (name, r)
        assert abs(r["phase_speed"] - math.sqrt(9.81 * r["wavelength"] / (2 * math.pi))) < 1e-3, (name, r)
        assert r["rolled"] == (r["tilt_max_deg"] >= bk["rolled_deg"]), (name, r)
        # before the strike the same wave never rolls it over
        assert r["tilt_before_deg"] < 90, (name, r)
    b30, b35, head, astern = runs
    expect(t, "breaker_beam_35", b35["rolled"], bk["applies"], "beam-on, 35 %% L: %.0f deg" % b35["tilt_max_deg"])
    expect(t, "breaker_beam_30", not b30["rolled"], bk["applies"], "beam-on, 30 %% L: %.0f deg" % b30["tilt_max_deg"])
    expect(t, "breaker_ends_35", not head["rolled"] and not astern["rolled"], bk["applies"],
           "35 %% L over the bow %.0f deg, the stern %.0f deg" % (head["tilt_max_deg"], astern["tilt_max_deg"]))

# intact stability (IS Code 2008 Part A 2.2 and 2.3), redone from the righting lever curve
for name, t in types.items():
    p, st, w = t["particulars"], t["stability"], t["weather"]
    gz, h0, dh = st["gz"], st["heel_from_deg"], st["heel_step_deg"]
    heels = [h0 + dh * i for i in range(len(gz))]
    assert heels[0] == -60 and heels[-1] == 180 and dh == 1, (name, heels[0], heels[-1])
    at = lambda x: gz[round((x - h0) / dh)]
    # upright, symmetric, and GM's slope at small heels
    assert abs(at(0)) < 1e-4 and all(abs(at(x) + at(-x)) < 2e-4 * max(1, abs(at(x))) for x in range(1, 61)), name
    assert abs(at(2) / math.sin(math.radians(2)) / p["gm_t"] - 1) < 0.02, (name, at(2), p["gm_t"])
    assert abs(st["gm0"] - p["gm_t"]) < 1e-5 * p["gm_t"], name
    def area(a, b, n=2000):  # the trapezoid on the curve, finely resampled linearly
        xs = [a + (b - a) * i / n for i in range(n + 1)]
        def f(x):
            i = min(int((x - h0) // dh), len(gz) - 2)
            return gz[i] + (gz[i + 1] - gz[i]) * (x - heels[i]) / dh
        return sum(0.5 * (f(x0) + f(x1)) * (x1 - x0) for x0, x1 in zip(xs, xs[1:])) * math.pi / 180
    for key, a, b in (("area_0_30", 0, 30), ("area_0_40", 0, 40), ("area_30_40", 30, 40)):
        assert abs(st[key] - area(a, b)) < 2e-3 * max(st[key], 0.01), (name, key, st[key], area(a, b))
    gz30 = max(g for x, g in zip(heels, gz) if x >= 30)
    gmax = max(g for x, g in zip(heels, gz) if x > 0)
    assert abs(st["gz_30_or_more"] - gz30) < 1e-5 * gz30 and abs(st["gz_max"] - gmax) < 1e-5 * gmax, name
    assert abs(at(st["heel_gz_max_deg"]) - gmax) < 1e-5 * gmax, name
    general = (st["area_0_30"] >= 0.055 and st["area_0_40"] >= 0.09 and st["area_30_40"] >= 0.03 and gz30 >= 0.2
               and st["heel_gz_max_deg"] >= 25 and st["gm0"] >= 0.15)
    expect(t, "is_code_general", general, w["applies"],
           "GM0 %.3f m; areas %.3f, %.3f, %.3f m rad; GZ %.3f m at 30+ deg, largest at %.0f deg"
           % (st["gm0"], st["area_0_30"], st["area_0_40"], st["area_30_40"], gz30, st["heel_gz_max_deg"]))
    # the wind's levers: 504 Pa on the side above the water, the arm to the underwater side's centre
    lw1 = 504 * st["windage"] * st["lever_z"] / (1025 * 9.81 * p["volume"])
    assert abs(st["lw1"] - lw1) < 2e-3 * lw1 and abs(st["lw2"] - 1.5 * st["lw1"]) < 1e-5 * st["lw2"], (name, st["lw1"], lw1)
    # the side above the water against the freeboard amidships (the deck edge's height, sliced
    # apart from the areas): about the waterline's length by it (the sheer and the ends' rake
    # within 15 %), its centre half the freeboard up and the underwater side's half the draught
    # down, so Z about (freeboard + d) / 2 (the areas themselves: test_stability, a box)
    fb = st["freeboard"]
    assert abs(st["windage"] / (p["length"] * fb) - 1) < 0.15, (name, st["windage"], p["length"] * fb)
    assert abs(st["lever_z"] / ((fb + p["draft"]) / 2) - 1) < 0.10, (name, st["lever_z"], (fb + p["draft"]) / 2)
    def crossing(lever, frm, sign):
        for (x0, g0), (x1, g1) in zip(zip(heels, gz), zip(heels[1:], gz[1:])):
            if x1 <= frm: continue
            if x0 < frm: g0, x0 = g0 + (g1 - g0) * (frm - x0) / dh, frm
            f0, f1 = sign * (g0 - lever), sign * (g1 - lever)
            if f0 > 0 and f1 <= 0: return x0 + (x1 - x0) * f0 / (f0 - f1)
    phi0, phix = crossing(lw1, 0, -1), crossing(1.5 * lw1, 0, -1)
    assert abs(st["phi0_deg"] - phi0) < 1e-4 and abs(st["phi_x_deg"] - phix) < 1e-4, (name, st["phi0_deg"], phi0)
    phic = crossing(1.5 * lw1, phix + 1e-9, 1)
    assert abs(st["phi2_deg"] - min(50, phic if phic is not None else 50)) < 1e-4, name
    assert abs(st["phi1_deg"] - w["phi1_deg"]) < 1e-4 * w["phi1_deg"], name
    lw2, phi2 = st["lw2"], st["phi2_deg"]
    a = lw2 * math.radians(phix - (phi0 - st["phi1_deg"])) - area(phi0 - st["phi1_deg"], phix)
    b = area(phix, phi2) - lw2 * math.radians(phi2 - phix)
    assert abs(st["area_a"] - a) < 2e-3 * a and abs(st["area_b"] - b) < 2e-3 * b, (name, st["area_a"], a, st["area_b"], b)
    limit = min(16, 0.8 * st["deck_edge_deg"])
    assert abs(st["phi0_limit_deg"] - limit) < 1e-4 and 25 < st["deck_edge_deg"] < 40, (name, st["deck_edge_deg"])
    expect(t, "is_code_weather", phi0 <= limit and b >= a, w["applies"],
           "lw1 %.4f m, phi0 %.1f deg; phi_1 %.1f deg: a %.4f, b %.4f m rad; with the measured %.1f deg: a %.4f, b %.4f"
           % (lw1, phi0, st["phi1_deg"], a, b, st["phi1_measured_deg"] or float("nan"),
              st["area_a_measured"] or float("nan"), st["area_b_measured"] or float("nan")))
    # a closed hull: stable keel-up too (the range of stability ends past 90 degrees)
    assert 90 < st["vanishing_deg"] < 180 and abs(at(180)) < 1e-3, (name, st["vanishing_deg"], at(180))

# the exit status: 1 exactly when a check that is not exempt failed
statuses = [c["status"] for t in doc["types"] for c in t["checks"]]
assert doc["failed"] == statuses.count("FAIL"), (doc["failed"], statuses.count("FAIL"))
assert rc == (1 if "FAIL" in statuses else 0), (rc, statuses)
# the same figures at 1 and 2 threads
p1 = one["types"][0]
for k in ("roll_decay", "weather", "manoeuvres", "head_seas", "drift", "breaker", "stability"):
    assert p1[k] == types["patrol"][k], k
assert p1["checks"] == [c for c in types["patrol"]["checks"] if c["name"] != "beam_roll_resonance"]
for k in sorted((KNOWN_FAILING & evaluated) - set(failing_now)):
    print("note: %s %s now passes: take it off KNOWN_FAILING" % k)
if failures:
    print("unexpected failures:\n  " + "\n  ".join(failures))
    sys.exit(1)
print("known failures (docs/seakeeping.md): " + ", ".join("%s %s" % k for k in sorted(set(failing_now))))
PY

# mistakes exit 2 with the reason
"$tool" --periods 1 > /dev/null 2> "$tmp/err"; [ $? -eq 2 ] || fail "--periods 1 should exit 2"
grep -q -- "--periods" "$tmp/err" || fail "the message should name --periods"
"$tool" --trials swim > /dev/null 2> "$tmp/err"; [ $? -eq 2 ] || fail "--trials swim should exit 2"
"$tool" no-such-type > /dev/null 2> "$tmp/err"; [ $? -eq 2 ] || fail "an unknown type should exit 2"
grep -q "no-such-type" "$tmp/err" || fail "the message should name the type"
"$tool" --help | grep -q "MSC.137" || fail "--help"
echo "tool_naval_seakeeping: ok"
