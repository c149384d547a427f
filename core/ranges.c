// SPDX-License-Identifier: MIT
/* The one table of ranges (naval/ranges.h): every bound once, with its unit
 * and why. The consumers named in each row check against it; the reasons
 * are physical where the quantity is (the strongest winds, the deepest sea,
 * the largest ships) and otherwise say what breaks outside. */
#include "naval/ranges.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "naval/ocean.h"
#include "naval/scenario.h"

#define INF INFINITY
#define LO_OPEN NV_RANGE_LO_OPEN
#define HI_OPEN NV_RANGE_HI_OPEN
#define INT NV_RANGE_INTEGER
#define POW2 (NV_RANGE_INTEGER | NV_RANGE_POW2)
#define OR_ZERO NV_RANGE_OR_ZERO
#define OCEAN NV_RANGE_BY_OCEAN
#define SCN NV_RANGE_BY_SCENARIO
#define VT NV_RANGE_BY_VESSEL_TYPE
#define TOOL NV_RANGE_BY_TOOL
#define SRV NV_RANGE_BY_SERVER
#define CORE NV_RANGE_BY_CORE

/* {name, lo, hi, open ends, integer / power of two, unit, consumers, reason} */
static const nv_range range_table[NV_RANGE_COUNT] = {
    /* ------------------------------------------------------------ ocean */
    [NV_RANGE_OCEAN_WIND] = {"ocean.wind", 0.0, 60.0, 0, 0, "m/s", OCEAN | SCN | TOOL | SRV,
                             "U10 (10-minute mean at 10 m): above the strongest tropical cyclones measured (about 55 "
                             "m/s); Beaufort 12 starts at 32.7. Also the length of a scenario's flat-water wind"},
    [NV_RANGE_OCEAN_WIND_DIR] = {"ocean.wind_dir", -360.0, 360.0, 0, 0, "degrees", OCEAN | SCN | TOOL,
                                 "one turn either way; more is a slip of units, not a direction"},
    [NV_RANGE_OCEAN_FETCH] = {"ocean.fetch", 1.0, 1e7, 0, 0, "m", OCEAN | SCN | TOOL,
                              "1 m to 10,000 km, wider than any wind blows steadily over (ocean basins are 5,000 to "
                              "15,000 km); the fetch laws are fitted well inside it"},
    [NV_RANGE_OCEAN_DEPTH] = {"ocean.depth", 0.0, 11000.0, 0, 0, "m", OCEAN | SCN | TOOL,
                              "0 means deep water; the deepest sea floor (Challenger Deep) is 10,935 m down"},
    [NV_RANGE_OCEAN_HS] = {"ocean.hs", 0.0, 30.0, 0, 0, "m", OCEAN | SCN | TOOL | SRV,
                           "0 means off; the highest significant wave height measured is about 19 m (single waves "
                           "near 30 m)"},
    [NV_RANGE_OCEAN_TP] = {"ocean.tp", 1.0, 30.0, 0, OR_ZERO, "s", OCEAN | SCN | TOOL | SRV,
                           "the peak period; 0 means from the wind (and no steeper than Hs / Lp = 1/20). 1 s is a "
                           "1.6 m ripple; the longest ocean swells measured run 25 to 30 s"},
    [NV_RANGE_OCEAN_GAMMA] = {"ocean.gamma", 1.0, 10.0, 0, 0, "", OCEAN | SCN | TOOL,
                              "1 is Pierson-Moskowitz; fitted JONSWAP seas span about 1 to 7 (mean 3.3, "
                              "Hasselmann 1973), DNV-RP-C205 uses at most 5"},
    [NV_RANGE_OCEAN_SWELL] = {"ocean.swell", 0.0, 1.0, 0, 0, "", OCEAN | SCN | TOOL,
                              "a fraction: 0 wind sea, 1 the narrowest swell spreading"},
    [NV_RANGE_OCEAN_CHOPPINESS] = {"ocean.choppiness", 0.0, 10.0, 0, 0, "", OCEAN | SCN | TOOL,
                                   "lambda: 1 is the linear (Gerstner) displacement; far beyond, every crest folds"},
    [NV_RANGE_OCEAN_SIZE] = {"ocean.size", 1.0, 1e5, 0, OR_ZERO, "m", OCEAN | SCN | TOOL,
                             "cascade 0's tile (0: from the peak wavelength): 1 m (a tank) to 100 km, 70 "
                             "wavelengths of a 30 s swell"},
    [NV_RANGE_OCEAN_GRID_SPACING] = {"ocean.grid_spacing", 0.01, INF, 0, 0, "m", OCEAN | SCN | TOOL,
                                     "the finest cascade's tile over its resolution: below 1 cm capillary waves rule "
                                     "(the gravity-capillary crossover is 1.7 cm) and memory buys nothing"},
    [NV_RANGE_OCEAN_RESOLUTION] = {"ocean.resolution", 4.0, OCEAN_MAX_RESOLUTION, 0, POW2, "", OCEAN | SCN | TOOL,
                                   "FFT grid per side: one cascade of 2048^2 takes about 300 MB, four of them 1.2 GB"},
    [NV_RANGE_OCEAN_CASCADES] = {"ocean.cascades", 1.0, OCEAN_MAX_CASCADES, 0, INT, "", OCEAN | SCN | TOOL,
                                 "tiles of different sizes (OCEAN_MAX_CASCADES)"},
    [NV_RANGE_OCEAN_CASCADE_RATIO] = {"ocean.cascade_ratio", 1.0, 128.0, LO_OPEN, 0, "", OCEAN | TOOL,
                                      "each tile smaller than the last; 128 is the most the finest grid (2048) "
                                      "resolves at the cut (2 x 8 x ratio <= N)"},
    [NV_RANGE_OCEAN_BEAUFORT] = {"ocean.beaufort", 0.0, 12.0, 0, INT, "", OCEAN | SCN | TOOL | SRV,
                                 "the Beaufort scale"},
    [NV_RANGE_OCEAN_MIN_WAVELENGTH] = {"ocean.min_wavelength", 0.0, 1000.0, 0, 0, "m", OCEAN,
                                       "0 keeps every wave; past 1 km it would drop the whole sea of a 30 m/s wind"},
    [NV_RANGE_OCEAN_REPEAT_PERIOD] = {"ocean.repeat_period", 1.0, 1e5, 0, 0, "s", OCEAN,
                                      "frequencies are quantised to 2 pi / T: under 1 s every wave moves alike, "
                                      "over a day nothing gains"},
    [NV_RANGE_OCEAN_QUERY_ITERATIONS] = {"ocean.query_iterations", 1.0, 64.0, 0, INT, "", OCEAN,
                                         "Newton steps per query point; converged long before 64"},
    [NV_RANGE_OCEAN_QUERY_TOLERANCE] = {"ocean.query_tolerance", 1e-6, 1.0, 0, 0, "m", OCEAN,
                                        "float heights hold about 1e-6 relative; past 1 m a query misses the crest"},
    /* ------------------------------------------------------------ world */
    [NV_RANGE_WORLD_TICK_HZ] = {"world.tick_hz", 1.0, 1000.0, 0, 0, "Hz", SCN | SRV | TOOL | CORE,
                                "a step longer than 1 s outlasts a small hull's heave period; past 1 kHz nothing "
                                "a client sees changes"},
    [NV_RANGE_WORLD_WATER_DENSITY] = {"world.water_density", 400.0, 2000.0, 0, 0, "kg/m^3", SCN | TOOL | CORE,
                                      "fresh water 1000, sea water 1025, the Dead Sea 1240, Titan's methane seas "
                                      "about 450; outside, no liquid the drag laws were fitted to"},
    [NV_RANGE_WORLD_GRAVITY] = {"world.gravity", 1.0, 30.0, 0, 0, "m/s^2", SCN | OCEAN | CORE,
                                "Earth 9.81; from Titan (1.35) to beyond Jupiter (24.8)"},
    [NV_RANGE_WORLD_LINEAR_DAMPING] = {"world.linear_damping", 0.0, 100.0, 0, 0, "1/s", SCN | CORE,
                                       "plain damping per second: 100 stops any motion within a step"},
    [NV_RANGE_WORLD_ANGULAR_DAMPING] = {"world.angular_damping", 0.0, 100.0, 0, 0, "1/s", SCN | CORE,
                                        "as the linear damping, for rotation"},
    [NV_RANGE_WORLD_SUNK_REMOVAL_DEPTH] = {"world.sunk_removal_depth", 0.0, 11000.0, 0, 0, "m", SCN | SRV | CORE,
                                           "0 never removes; no sea is deeper than 10,935 m"},
    [NV_RANGE_WORLD_POSITION] = {"world.position", -1e6, 1e6, 0, 0, "m", SCN | CORE,
                                 "each coordinate: 1,000 km either way, past any world (tens of km); there a float "
                                 "offset is still good to 6 cm. The server's Spawn requests too"},
    [NV_RANGE_WORLD_HEADING] = {"world.heading", -360.0, 360.0, 0, 0, "degrees", SCN,
                                "one turn either way; more is a slip of units"},
    [NV_RANGE_WORLD_SEED] = {"world.seed", 0.0, 9007199254740991.0, 0, INT, "", SCN | SRV | TOOL,
                             "whole numbers a JSON number (a double) holds exactly, 2^53 - 1"},
    /* ------------------------------------------------------------ vessels */
    [NV_RANGE_VESSEL_SPEED] = {"vessel.speed", 0.0, 150.0, 0, 0, "m/s", SCN,
                               "the length of a velocity, a fleet's speed: past the water speed record (142 m/s)"},
    [NV_RANGE_VESSEL_TURN_RATE] = {"vessel.turn_rate", 0.0, 20.0, 0, 0, "rad/s", SCN,
                                   "the length of an angular velocity: a turn in 0.3 s, faster than any hull rolls"},
    [NV_RANGE_VESSEL_CONTROL] = {"vessel.control", -1.0, 1.0, 0, 0, "", SCN,
                                 "throttle and rudder commands: full astern / port to full ahead / starboard"},
    [NV_RANGE_VESSEL_ID] = {"vessel.id", 0.0, 4294967294.0, 0, INT, "", SCN,
                            "a vessel's index (ids are 32-bit; the last is reserved)"},
    [NV_RANGE_FLEET_COUNT] = {"fleet.count", 1.0, SCENARIO_MAX_VESSELS, 0, INT, "", SCN,
                              "SCENARIO_MAX_VESSELS, the most vessels a scenario holds"},
    [NV_RANGE_FLEET_SPACING] = {"fleet.spacing", 0.5, 1e4, 0, 0, "m", SCN | TOOL,
                                "between neighbours: a dinghy's beam to 10 km"},
    /* ------------------------------------------------------------ the static world */
    [NV_RANGE_TERRAIN_CELL_SIZE] = {"terrain.cell_size", 0.01, 1e4, 0, 0, "m", SCN | CORE,
                                    "between heightmap pixels: 1 cm to 10 km"},
    [NV_RANGE_TERRAIN_ELEVATION] = {"terrain.elevation", -11000.0, 9000.0, 0, 0, "m", SCN | CORE,
                                    "the deepest sea floor (-10,935 m) to above Everest (8,849 m)"},
    [NV_RANGE_STRUCTURE_BOX] = {"structure.box", 0.01, 1e4, 0, 0, "m", SCN,
                                "each side of a box structure: a 1 cm post to a 10 km breakwater"},
    [NV_RANGE_CONTACT_FRICTION] = {"contact.friction", 0.0, 2.0, 0, 0, "", SCN | CORE,
                                   "Coulomb's coefficient: wet steel 0.3, rubber on concrete about 1; past 2, no "
                                   "real pair"},
    [NV_RANGE_CONTACT_RESTITUTION] = {"contact.restitution", 0.0, 1.0, 0, 0, "", SCN | CORE,
                                      "a fraction of the closing speed"},
    [NV_RANGE_CONTACT_HERTZ] = {"contact.hertz", 0.0, 1000.0, 0, 0, "Hz", SCN | CORE,
                                "the overlap spring (0: from the tick rate); 1000, the fastest tick"},
    [NV_RANGE_CONTACT_DAMPING_RATIO] = {"contact.damping_ratio", 0.0, 1000.0, 0, 0, "", SCN | CORE,
                                        "of the overlap spring: 1 is critical, 10 no bounce"},
    [NV_RANGE_CONTACT_PUSH_SPEED] = {"contact.push_speed", 0.0, 100.0, 0, 0, "m/s", SCN | CORE,
                                     "the fastest an overlap is pushed out"},
    [NV_RANGE_EVENT_TIME] = {"event.time", 0.0, 1e7, 0, 0, "s", SCN, "about 116 days of simulated time"},
    /* ------------------------------------------------------------ vessel types */
    [NV_RANGE_TYPE_MASS] = {"type.mass", 0.0, 1e9, LO_OPEN, 0, "kg", SCN | VT | TOOL,
                            "up to 1,000,000 t (the largest ship built displaced 657,000 t); the least mass "
                            "depends on the hull: the statics refuse one that floats on a film under 1e-4 of "
                            "the hull's extent, naming the least that does"},
    [NV_RANGE_TYPE_DENSITY] = {"type.density", 10.0, 25000.0, 0, 0, "kg/m^3", SCN | VT,
                               "of the solid hull: expanded foam (10 to 30) to past osmium (22,590)"},
    [NV_RANGE_TYPE_COORDINATE] = {"type.coordinate", -1e4, 1e4, 0, 0, "m", SCN | VT | TOOL | CORE,
                                  "in mesh coordinates (cg, actuators, bulkheads, damage points): 10 km, far past "
                                  "any hull (the longest ship was 458 m)"},
    [NV_RANGE_TYPE_GYRATION] = {"type.gyration", 0.01, 1000.0, 0, 0, "m", SCN | VT | TOOL,
                                "radii of gyration: 1 cm to 1 km (a 458 m ship's is about 115 m)"},
    [NV_RANGE_TYPE_VISCOSITY] = {"type.viscosity", 1e-9, 1.0, 0, 0, "m^2/s", VT | CORE,
                                 "kinematic: water's is 1.19e-6 at 15 C; glycerine's 1e-3"},
    [NV_RANGE_TYPE_REYNOLDS_MIN] = {"type.reynolds_min", 1e3, 1e12, 0, 0, "", VT | CORE,
                                    "the ITTC line has its pole at Rn = 100; full-size ships reach 1e9 to 1e10"},
    [NV_RANGE_TYPE_REFERENCE_LENGTH] = {"type.reference_length", 0.0, 1e4, 0, 0, "m", VT | CORE,
                                        "0 means the hull's length; else a length within any hull"},
    [NV_RANGE_TYPE_RESIDUAL] = {"type.residual", 0.0, 0.1, 0, 0, "", VT | CORE,
                                "a residual resistance coefficient: ships' are 1e-4 to 1e-2"},
    [NV_RANGE_TYPE_PRESSURE_LINEAR] = {"type.pressure_linear", 0.0, 1e7, 0, 0, "", VT | CORE,
                                       "Kerner's C_PD1 (N/m^2 at the reference speed): the default is 300"},
    [NV_RANGE_TYPE_PRESSURE_QUADRATIC] = {"type.pressure_quadratic", 0.0, 1e7, 0, 0, "", VT | CORE,
                                          "Kerner's C_PD2 (N/m^2 at the reference speed): the default is 30"},
    [NV_RANGE_TYPE_PRESSURE_FALLOFF] = {"type.pressure_falloff", 0.01, 1.0, 0, 0, "", VT | CORE,
                                        "Kerner's f_P: an exponent of the cosine, in (0, 1]"},
    [NV_RANGE_TYPE_SUCTION_LINEAR] = {"type.suction_linear", 0.0, 1e7, 0, 0, "", VT | CORE,
                                      "as pressure_linear, for the lee side"},
    [NV_RANGE_TYPE_SUCTION_QUADRATIC] = {"type.suction_quadratic", 0.0, 1e7, 0, 0, "", VT | CORE,
                                         "as pressure_quadratic, for the lee side"},
    [NV_RANGE_TYPE_SUCTION_FALLOFF] = {"type.suction_falloff", 0.01, 1.0, 0, 0, "", VT | CORE,
                                       "as pressure_falloff, for the lee side"},
    [NV_RANGE_TYPE_REFERENCE_SPEED] = {"type.reference_speed", 1e-3, 1e3, 0, 0, "m/s", VT | CORE,
                                       "the speed the pressure drag is scaled by (its inverse is taken)"},
    [NV_RANGE_TYPE_SLAM_POWER] = {"type.slam_power", 1.0, 10.0, 0, 0, "", VT | CORE,
                                  "Kerner's slamming exponent p: 2 typical"},
    [NV_RANGE_TYPE_SLAM_GAMMA_MAX] = {"type.slam_gamma_max", 1e-3, 1e9, 0, 0, "m/s^2", VT | CORE,
                                      "the rate of change of swept volume per area at full slam (its inverse is "
                                      "taken); the default is 400"},
    [NV_RANGE_TYPE_AIR_DENSITY] = {"type.air_density", 0.0, 100.0, 0, 0, "kg/m^3", VT | CORE,
                                   "air is 1.2; 0 turns the air drag off"},
    [NV_RANGE_TYPE_AIR_DRAG] = {"type.air_drag", 0.0, 10.0, 0, 0, "", VT | CORE,
                                "a drag coefficient: bluff superstructures about 1"},
    [NV_RANGE_TYPE_AREA_DAMPING] = {"type.area_damping", 0.0, 1e3, 0, 0, "", VT | CORE,
                                    "Bourg's area damping c1 (1/s) and c2 (1/m) of damping_linear and "
                                    "damping_angular: the defaults are 0.05 to 0.5"},
    [NV_RANGE_TYPE_ADDED_MASS] = {"type.added_mass", 0.0, 10.0, 0, 0, "", VT | CORE,
                                  "a fraction of the mass or inertia per axis: 0.05 to 1 for ships"},
    [NV_RANGE_TYPE_BILGE_KEEL] = {"type.bilge_keel", 0.0, 1e3, LO_OPEN, 0, "m", VT | CORE,
                                  "bilge keels run 20-40 % of the length and are 1-6 % of the beam deep"},
    [NV_RANGE_TYPE_ROLL_DAMPING] = {"type.roll_damping", 0.0, 1e12, 0, 0, "", VT | CORE,
                                    "N m s (linear) and N m s^2 (quadratic) of roll moment; absent: Ikeda's "
                                    "estimate from the hull"},
    [NV_RANGE_TYPE_RATED_BEAUFORT] = {"type.rated_beaufort", 0.0, 12.0, 0, INT, "", VT,
                                      "the highest Beaufort force the type is rated for: skiff 4, patrol 7, "
                                      "freighter 10"},
    [NV_RANGE_TYPE_PLANING_LENGTH] = {"type.planing_length", 0.0, 1e3, LO_OPEN, 0, "m", VT | CORE,
                                      "the planing bottom's chine beam and prismatic length: planing craft run 3 "
                                      "to 50 m"},
    [NV_RANGE_TYPE_PLANING_DEADRISE] = {"type.planing_deadrise", 0.0, 30.0, 0, 0, "degrees", VT | CORE,
                                        "Savitsky's planing data span deadrise 0 to 30 degrees"},
    [NV_RANGE_TYPE_PROPELLER_DIRECTION] = {"type.propeller_direction", -1.0, 1.0, 0, 0, "", VT | CORE,
                                           "each component of a direction (normalised when loaded)"},
    [NV_RANGE_TYPE_MAX_THRUST] = {"type.max_thrust", 0.0, 1e8, LO_OPEN, 0, "N", VT | CORE,
                                  "the largest marine plants (80 MW) give about 10 MN"},
    [NV_RANGE_TYPE_REVERSE] = {"type.reverse", 0.0, 1.0, 0, 0, "", VT | CORE, "astern thrust as a fraction of ahead"},
    [NV_RANGE_TYPE_IMMERSION] = {"type.immersion", 0.0, 30.0, 0, 0, "m", VT | CORE,
                                 "the depth over which thrust ramps in: no hull draws more than about 30 m"},
    [NV_RANGE_TYPE_STEERING] = {"type.steering", 0.0, 90.0, 0, 0, "degrees", VT | CORE,
                                "an outboard or azimuth drive's swivel at full helm"},
    [NV_RANGE_TYPE_PROPELLER_DIAMETER] = {"type.propeller_diameter", 0.0, 15.0, 0, 0, "m", VT | CORE,
                                          "0 leaves its race out; the largest ships' propellers are about 11 m"},
    [NV_RANGE_TYPE_RUDDER_AREA] = {"type.rudder_area", 0.0, 1000.0, LO_OPEN, 0, "m^2", VT | CORE,
                                   "one side: the largest ships' rudders are about 100 m^2"},
    [NV_RANGE_TYPE_RUDDER_ANGLE] = {"type.rudder_angle", 0.0, 90.0, LO_OPEN, 0, "degrees", VT | CORE,
                                    "max_angle and stall_angle: 35 hard over, stall at 15 to 35"},
    [NV_RANGE_TYPE_LIFT_SLOPE] = {"type.lift_slope", 0.0, 20.0, LO_OPEN, 0, "1/rad", VT | CORE,
                                  "thin-airfoil theory gives 2 pi; low-aspect rudders less"},
    [NV_RANGE_TYPE_RUDDER_DRAG] = {"type.rudder_drag", 0.0, 10.0, 0, 0, "", VT | CORE,
                                   "a drag coefficient: about 0.02 for a foil"},
    [NV_RANGE_TYPE_CONTROL_RATE] = {"type.control_rate", 0.0, 1000.0, LO_OPEN, 0, "1/s", VT | CORE,
                                    "throttle_rate and rudder_rate: 1000 is full travel within one step of the "
                                    "fastest tick"},
    [NV_RANGE_TYPE_PUMPS] = {"type.pumps", 0.0, 1000.0, 0, 0, "m^3/s", VT,
                             "per compartment: a big ship's pumps give 0.1; 1,000 means a typo"},
    [NV_RANGE_TYPE_BREACH_SPEED] = {"type.breach_speed", 0.0, 100.0, 0, 0, "m/s", VT,
                                    "the closing speed that holes the hull (0: never)"},
    [NV_RANGE_TYPE_HOLE_AREA] = {"type.hole_area", 0.0, 1000.0, LO_OPEN, 0, "m^2", SCN | VT | CORE,
                                 "a hole: 1,000 m^2 is a ship's whole side"},
    [NV_RANGE_TYPE_PLATING] = {"type.plating", 0.0, 0.2, LO_OPEN, 0, "m", VT,
                               "steel-equivalent shell plating: a small craft's 2 mm to a tanker's 25 mm; 0.2 m is a typo"},
    [NV_RANGE_TYPE_BREACH_ENERGY] = {"type.breach_energy", 0.0, 1e10, 0, 0, "J", VT,
                                     "what a contact's share must pass to hole the hull: 1e10 J is a ship of "
                                     "500,000 t at 200 m/s"},
};

const nv_range* nv_range_get(nv_range_id id) {
    return (int)id >= 0 && id < NV_RANGE_COUNT ? &range_table[id] : NULL;
}

const nv_range* nv_range_find(const char* name) {
    for (int i = 0; i < NV_RANGE_COUNT; i++)
        if (range_table[i].name && strcmp(range_table[i].name, name) == 0) return &range_table[i];
    return NULL;
}

int nv_range_contains(const nv_range* r, double v) {
    if (!r || !isfinite(v)) return 0;
    if ((r->kind & NV_RANGE_OR_ZERO) && v == 0.0) return 1;
    if ((r->open & NV_RANGE_LO_OPEN) ? !(v > r->lo) : !(v >= r->lo)) return 0;
    if ((r->open & NV_RANGE_HI_OPEN) ? !(v < r->hi) : !(v <= r->hi)) return 0;
    if ((r->kind & NV_RANGE_INTEGER) && v != floor(v)) return 0;
    if (r->kind & NV_RANGE_POW2) {
        if (!(v >= 1.0)) return 0;
        int e;
        if (frexp(v, &e) != 0.5) return 0;
    }
    return 1;
}

/* A number as short as it reads back exactly ("60", "1e+08", "60.000001",
 * "9007199254740991"). */
static void range_number_text(double v, char* out, size_t n) {
    snprintf(out, n, "%g", v);
    if (isfinite(v) && strtod(out, NULL) != v) {
        snprintf(out, n, "%.15g", v);
        if (strtod(out, NULL) != v) snprintf(out, n, "%.17g", v);
    }
}

void nv_range_describe(const nv_range* r, char* out, size_t n) {
    const char* what = (r->kind & NV_RANGE_POW2)      ? "a power of two "
                       : (r->kind & NV_RANGE_INTEGER) ? "an integer "
                       : (r->kind & NV_RANGE_OR_ZERO) ? "0 or "
                                                      : "";
    const char* sp = r->unit && r->unit[0] ? " " : "";
    const char* unit = r->unit ? r->unit : "";
    char lo[40], hi[40];
    if (r->kind & NV_RANGE_INTEGER) {
        /* "1000000", not "1e+06" */
        snprintf(lo, sizeof lo, "%.0f", r->lo);
        snprintf(hi, sizeof hi, "%.0f", r->hi);
    } else {
        range_number_text(r->lo, lo, sizeof lo);
        range_number_text(r->hi, hi, sizeof hi);
    }
    int has_lo = isfinite(r->lo), has_hi = isfinite(r->hi);
    if (has_lo && has_hi)
        snprintf(out, n, "%sin %c%s, %s%c%s%s", what, (r->open & NV_RANGE_LO_OPEN) ? '(' : '[', lo, hi,
                 (r->open & NV_RANGE_HI_OPEN) ? ')' : ']', sp, unit);
    else if (has_lo)
        snprintf(out, n, "%s%s %s%s%s", what, (r->open & NV_RANGE_LO_OPEN) ? ">" : ">=", lo, sp, unit);
    else if (has_hi)
        snprintf(out, n, "%s%s %s%s%s", what, (r->open & NV_RANGE_HI_OPEN) ? "<" : "<=", hi, sp, unit);
    else
        snprintf(out, n, "%sfinite", what);
}

int nv_range_why(nv_range_id id, double v, char* out, size_t n) {
    const nv_range* r = nv_range_get(id);
    if (!r) {
        snprintf(out, n, "has no range (%d)", (int)id);
        return -1;
    }
    if (nv_range_contains(r, v)) return 0;
    char range[128], got[40];
    nv_range_describe(r, range, sizeof range);
    range_number_text(v, got, sizeof got);
    snprintf(out, n, "must be %s (got %s)", range, got);
    return -1;
}

int nv_range_check(nv_range_id id, double v, const char* key, nv_error* err) {
    char why[256];
    if (nv_range_why(id, v, why, sizeof why) == 0) return 0;
    const nv_range* r = nv_range_get(id);
    return nv_error_set(err, "%s: %s", key ? key : r ? r->name : "?", why);
}
