// SPDX-License-Identifier: MIT
/* naval-seakeeping's trials: each one a world of its own holding one
 * vessel, stepped on one thread, so that the trials run side by side on
 * the job system and every figure is the same at any thread count.
 *
 *   seakeeping_trials.c  the simulations (roll decay, regular waves, the
 *                        approach, the manoeuvres and head seas under way)
 *                        and their analysis
 *   seakeeping_drift.c   the virtual oblique tow (the hull's lateral force
 *                        and its centre in a steady drift)
 *   seakeeping_rules.c   the standards' formulas and tables (IS Code 2008
 *                        weather criterion, IMO MSC.137(76) limits) and the
 *                        fits (least squares, the 1-DOF roll response)
 *   naval_seakeeping.c   options, the plan of trials, the checks
 *   seakeeping_report.c  the tables and the JSON (seakeeping_tool.h) */
#ifndef NAVAL_TOOLS_SEAKEEPING_H
#define NAVAL_TOOLS_SEAKEEPING_H

#include <stdint.h>

#include "naval/checkpoint.h"
#include "naval/heave_pitch.h"
#include "naval/particulars.h"
#include "naval/roll_damping.h"
#include "naval/manoeuvring.h"
#include "naval/vessel_type.h"
#include "naval/world.h"

/* One vessel type as the trials see it: its definition, its hull, and the
 * particulars and damper its dynamics computed (read off a probe world). */
typedef struct sk_type {
    char spec[VESSEL_TYPE_PATH_MAX]; /* as given: "patrol", "builtin:patrol" or a file */
    nv_vessel_type vt;
    nv_mesh mesh;
    nv_particulars p;
    nv_roll_damper damper;
    nv_heave_pitch_damper heave_pitch; /* zero when the type has none */
    double hull_length;    /* the mesh's extent along x (overall length), m */
    /* the IS Code's moulded breadth (the hull's greatest across its midship
     * section, at any height) and length (the Load Line Convention's), m;
     * sk_code_dimensions in seakeeping_sim.c; 0 where the hull gives none */
    double moulded_breadth, code_length;
    nv_vec3 deck_edge;     /* the deck's edge amidships to starboard, body frame (the midship section's top at the moulded breadth) */
    int has_deck_edge;     /* 0: the midship plane missed the hull */
    double mid_ahead;      /* the waterline's mid-length ahead of the CG, m (nv_manoeuvring_mid_ahead) */
    double bk_length, bk_breadth; /* bilge keels, m (0: none) */
    nv_manoeuvring manoeuvring; /* the hull's manoeuvring model, whether the type applies it or not */
    int manoeuvring_on;         /* the type's forces include "manoeuvring" */
    double rho, g, nu;     /* the world's water and gravity, the type's viscosity */
    double tick_hz;
} sk_type;

/* Loads the type ("NAME" of a built-in, "builtin:NAME" or a type file) and
 * reads its particulars; fails naming why (a type without roll damping or
 * upright stability has nothing to run the trials against). */
int sk_type_load(sk_type* t, const char* spec, nv_error* err);
void sk_type_free(sk_type* t);

/* ---- roll decay -------------------------------------------------------- */

#define SK_MAX_CYCLES 48
typedef struct sk_cycle {
    double amp_mean; /* mean of the cycle's two peaks (same sign, one period apart), degrees */
    double zeta;     /* d / sqrt(4 pi^2 + d^2), d = ln(peak_n / peak_n+1) */
    double period;   /* time between the two peaks, s */
} sk_cycle;

typedef struct sk_decay {
    double release_deg;
    int count;
    sk_cycle cycle[SK_MAX_CYCLES];
    int capsized;
    double heave_max; /* largest heave excursion during the decay, m (the coupling) */
    uint64_t steps;
} sk_decay;

/* Released from rest heeled `release_deg` to starboard, floating at the
 * heeled balance height on flat water; peaks of the heel, parabola-refined. */
void sk_run_decay(const sk_type* t, double release_deg, sk_decay* out);

/* ---- regular waves ----------------------------------------------------- */

typedef struct sk_wave_case {
    double heading_deg; /* where the waves come from, off the bow: 180 head, 90 beam (from starboard), 45 quartering */
    double period;      /* s */
    double amplitude;   /* m */
    double cycles;      /* wave periods to run (the first 3 ramp the amplitude up) */
    double window;      /* wave periods at the end that are measured */
    double yaw_period;  /* the soft yaw restraint's natural period, s (0: the vessel yaws freely) */
} sk_wave_case;

typedef struct sk_wave {
    sk_wave_case c;
    double wavelength, k;      /* m, rad/m */
    double roll, heave, pitch; /* first-harmonic amplitudes over the window: deg, m, deg */
    double roll_half_range;    /* the steady amplitude: mean half swing between successive extremes of the roll over the window, deg */
    double roll_max;           /* largest |heel| of the run, deg */
    double yaw_drift;          /* heading change over the run, deg */
    double yaw_max;            /* largest |heading change| during the run, deg */
    double yaw_window;         /* largest |heading change| within the measured window, deg */
    double drift;              /* horizontal displacement of the CG over the run, m */
    double excitation;         /* the roll moment's amplitude on the hull held upright at rest in
                                  these waves, over rho g V GM k a: the effective wave slope
                                  coefficient (1: the whole slope acts; NaN: not measured) */
    int capsized;
    uint64_t steps;
} sk_wave;

/* At zero speed nothing holds a free hull at its heading to the waves (the
 * freighter turned 180 degrees in the weather criterion's wave), so, as a
 * model basin does with a soft mooring, a yaw spring and damper act on the
 * hull: each step, before the world steps, the yaw rate r (about the
 * vertical) gains dt (-omega_y^2 psi - 2 omega_y r), psi the heading change
 * since the start, omega_y = 2 pi / yaw_period, critically damped. It is an
 * acceleration, mass-normalised, so its natural period is yaw_period
 * whatever the hull's yaw inertia; the roll, pitch, heave, sway and surge
 * rates are left as they are (sway drift is free). */
void sk_run_wave(const sk_type* t, const sk_wave_case* c, sk_wave* out);
/* The restraint's natural period in natural roll periods (docs/seakeeping.md). */
#define SK_YAW_RESTRAINT_PERIODS 2.0

/* ---- a breaking crest's strike ----------------------------------------- */

/* The breaker: a regular wave at Stokes' limiting steepness (H / lambda
 * 0.142), ramped up over SK_BREAKER_RAMP periods and kept SK_BREAKER_STEADY
 * more, then one crest breaks as it passes (nv_water_sine_set_breaking for
 * one period); the hull is watched SK_BREAKER_AFTER periods from then. It
 * counts as rolled over past SK_BREAKER_ROLLED_DEG of tilt (the model
 * tests' figure, docs/seakeeping.md). */
#define SK_BREAKER_STEEPNESS WATER_BREAKING_STEEPNESS
#define SK_BREAKER_RAMP 3.0
#define SK_BREAKER_STEADY 2.0
#define SK_BREAKER_AFTER 4.0
#define SK_BREAKER_ROLLED_DEG 130.0

typedef struct sk_breaker {
    double height_ratio;  /* the breaker's height over the hull's length */
    double heading_deg;   /* where it comes from, off the bow: 90 beam (from starboard), 180 head, 0 astern */
    int breaking;         /* 0: the same wave, its crest not breaking (the control) */
    double height, wavelength, speed; /* m, m, m/s (the crest's phase speed) */
    double tilt_before;   /* largest tilt (heel or trim) in the steady wave before the strike, deg */
    double tilt_max;      /* largest tilt from the strike on, deg */
    int rolled;           /* tilt_max past SK_BREAKER_ROLLED_DEG */
    int done;
} sk_breaker;

void sk_run_breaker(const sk_type* t, double height_ratio, double heading_deg, int breaking, sk_breaker* out);

/* ---- manoeuvres (IMO MSC.137(76)) -------------------------------------- */

/* Full ahead on flat water until the speed settles; its state is where
 * every manoeuvre starts. */
typedef struct sk_approach {
    nv_world_vessel_record rec;
    uint16_t* slam; /* rec.slam's copy (owned) */
    double speed;   /* m/s, settled */
    double time;    /* s it took */
    int settled;
    uint64_t steps;
} sk_approach;

void sk_run_approach(const sk_type* t, sk_approach* out);
void sk_approach_free(sk_approach* a);

typedef struct sk_turn {
    double rudder_deg;
    double advance, transfer, tactical; /* m: at 90 degrees of heading change (advance, transfer), at 180 (tactical) */
    double diameter;                    /* steady turning diameter (fit over the second full turn), m */
    double speed_in_turn;               /* m/s, steady */
    double time_90, time_180;           /* s after the rudder order */
    double max_heel;                    /* deg */
    int done;                           /* reached 180 degrees */
    uint64_t steps;
} sk_turn;

typedef struct sk_zigzag {
    double angle;        /* rudder and heading check angle, deg */
    double overshoot1, overshoot2; /* deg */
    double reach_initial;          /* track distance at the first check (heading changed `angle`), m */
    double time_initial;           /* s */
    int done;                      /* both overshoots found */
    uint64_t steps;
} sk_zigzag;

typedef struct sk_stop {
    double track_reach; /* distance along the track until dead in the water, m */
    double head_reach;  /* along the approach heading, m */
    double lateral;     /* across it, m */
    double time;        /* s */
    int done;
    uint64_t steps;
} sk_stop;

/* ---- head seas under way ------------------------------------------------ */

/* Regular head waves met at the approach's speed (full ahead): heave and
 * pitch against JMO's closed forms (naval/heave_pitch.h). */
#define SK_HEAD_RUNS 10
extern const double sk_head_lambda_ratio[SK_HEAD_RUNS]; /* wavelength over L_wl */

typedef struct sk_head {
    double lambda_ratio, wavelength, period, amplitude; /* m, s, m */
    double speed;          /* mean speed over the window, m/s */
    double encounter;      /* encounter period at that speed, s */
    double heave, pitch;   /* first harmonics at the encounter frequency: per wave amplitude, per wave slope */
    double jmo_heave, jmo_pitch; /* JMO's at the same speed */
    double pitch_max_deg;  /* largest |trim| in the window */
    int capsized;
    uint64_t steps;
} sk_head;

/* From the approach's state, the throttle kept, waves of steepness H/lambda
 * from ahead, ramped over 3 wave periods; 20 s and 3 periods for the
 * transient, then 12 encounter periods measured; the heading held by the
 * soft yaw restraint of the zero-speed trials. */
void sk_run_head(const sk_type* t, const sk_approach* a, double lambda_ratio, double steepness, sk_head* out);

/* ---- the virtual oblique tow (seakeeping_drift.c) ---------------------- */

/* The hull alone (its rudders taken off, the throttle at 0) on calm water,
 * its velocity held each step at `speed` (m/s) and `drift_deg` off its
 * heading (+ to starboard), its yaw rate at `turn` U / L (+ to starboard;
 * 0 for the oblique tow, else a rotating arm), heave, roll and pitch free:
 * the water's force over the last half of 30 s, along and across the
 * heading in the horizontal plane, and its moment about the vertical. */
#define SK_DRIFT_SPEEDS 3
#define SK_DRIFT_ANGLES 8
#define SK_TURN_RATES 4
extern const double sk_drift_speed_ratio[SK_DRIFT_SPEEDS]; /* of the approach speed */
extern const double sk_drift_angle[SK_DRIFT_ANGLES];      /* degrees; the first is -10, the mirror of 10 */
extern const double sk_turn_rate[SK_TURN_RATES];          /* r L / U; the first is -0.2, the mirror of 0.2 */

typedef struct sk_drift {
    double speed, drift_deg, turn;
    double x, y, n;        /* surge and sway force (N, + ahead and to starboard), yaw moment (N m, + bow to port) */
    double y_coef;         /* -y / (1/2 rho L T U^2): + against a drift to starboard */
    double n_coef;         /* n / (1/2 rho L^2 T U^2): + against a turn to starboard */
    double centre;         /* where the sway force acts, ahead of the hull's mid-length, over L */
    double heel_deg;       /* mean heel over the window, + to starboard */
    /* the manoeuvring model's at the same motion (naval/manoeuvring.h) */
    double model_y_coef, model_n_coef, model_centre;
    int ok;
    uint64_t steps;
} sk_drift;

void sk_run_drift(const sk_type* t, double speed, double drift_deg, double turn, sk_drift* out);

/* Clarke, Gedling and Hine (1983): the linear sway force of a drift beta
 * (radians) over 1/2 rho L T U^2, pi (T / L)(1 + 0.40 C_b B / T) beta, and
 * where it acts ahead of the mid-length over L, (0.50 + 2.4 T / L) /
 * (1 + 0.40 C_b B / T). */
double sk_clarke_sway(const nv_particulars* p, double beta);
double sk_clarke_centre(const nv_particulars* p);

/* The pull-out (IMO MSC/Circ.1053, the explanatory notes to MSC.137(76)):
 * from a steady turn at `rudder_deg` (+ starboard) the rudder is put
 * amidships. A hull stable on its course sees its rate of turn die away;
 * an unstable one's settles at a residual rate, the same whichever side it
 * turned: its spiral loop at rudder amidships spans that rate to either
 * side. */
typedef struct sk_pullout {
    double rudder_deg;
    double rate_turn;     /* deg/s in the steady turn, + towards the rudder's side */
    double rate_residual; /* deg/s, the mean over the last tenth of the watch, the same sign */
    double time_half;     /* s from the rudder order until the rate was half the turn's; NAN if never */
    double watch;         /* s watched after the order: 40 L_wl / V, at least 60 */
    int steady;           /* the turn settled (else no result) */
    int done;             /* and the watch ended afloat */
    uint64_t steps;
} sk_pullout;

#define SK_PULLOUT_RUDDER 20.0

void sk_run_turn(const sk_type* t, const sk_approach* a, sk_turn* out);
void sk_run_pullout(const sk_type* t, const sk_approach* a, double rudder_deg, sk_pullout* out);
void sk_run_zigzag(const sk_type* t, const sk_approach* a, double angle_deg, sk_zigzag* out);
void sk_run_stop(const sk_type* t, const sk_approach* a, sk_stop* out);

/* ---- the standards and the fits (seakeeping_rules.c) ------------------- */

/* IS Code 2008, Part A 2.3.4: phi_1 = 109 k X1 X2 sqrt(r s), and its inputs. */
typedef struct sk_weather {
    double L, B, d, cb, kg, gm; /* B the moulded breadth, as the Code's symbols define it */
    double og_code;      /* KG - d, + above the waterline (the Code's sign) */
    double r, C, T;      /* T = 2 C B / sqrt(GM) */
    double s, x1, x2, k;
    double ak_ratio;     /* A_k 100 / (L B), A_k both keels */
    double phi1;         /* degrees */
    /* The Code does not say over which breadth its C_b is taken: phi1 takes
     * the hydrostatics' (over the waterline's), phi1_moulded_cb takes it
     * over B (cb_moulded, x2_moulded); the check must pass under both.
     * phi1_wl: every B the waterline's (what this tool took before). */
    double cb_moulded, x2_moulded, phi1_moulded_cb;
    double b_wl, phi1_wl;
    double code_length;  /* the Code's length (the Load Line Convention's; the overall length where the hull gives none) */
    int applies;         /* the Code's criterion applies: that length >= 24 m */
    /* The simulated test, MSC.1/Circ.1200 4.5: regular beam waves around the
     * natural roll period T_phi, steepness from its table 4.5.1 at T_phi */
    double t_phi, s_wave;
} sk_weather;

void sk_weather_compute(const sk_type* t, sk_weather* out);
/* The Code's steepness table (Table 2.3.4-4), linear between rows, by its rolling period T (s). */
double sk_weather_steepness(double period);
/* MSC.1/Circ.1200 Table 4.5.1: the steepness of the regular waves of the
 * roll test by the full-scale natural roll period (s); the Code's rows up
 * to 18 s, then 20 s 0.032 ... 30 s 0.020. */
double sk_circ1200_steepness(double natural_period);

/* Circ.1200 4.5.2.1: the wave frequencies of the roll test, omega / omega_0,
 * and 4.1.1: phi_1 = 0.7 phi_1r, phi_1r the peak steady roll amplitude over
 * them (the factor stands for the irregular sea). */
#define SK_WEATHER_RUNS 7
extern const double sk_weather_omega_ratio[SK_WEATHER_RUNS];
#define SK_WEATHER_IRREGULAR 0.7

/* ---- intact stability (IS Code 2008 Part A 2.2 and 2.3) ----------------- */

/* The righting lever curve from SK_STAB_HEEL0 by SK_STAB_STEP degrees, the
 * trim free (nv_stability_lever); the windward side reaches far enough for
 * any roll to windward of the weather criterion. */
#define SK_STAB_HEEL0 (-60.0)
#define SK_STAB_STEP 1.0
#define SK_STAB_POINTS 241 /* to 180: keel-up */
#define SK_STAB_CRITERIA_END 60.0 /* the criteria read the curve up to here; past it a heel that cannot balance ends the curve */
#define SK_WIND_PRESSURE 504.0 /* Pa, the Code's 2.3.2 */

typedef struct sk_stability {
    char error[600];       /* why the trial failed, or where the curve ended short */
    int n;                 /* samples made (SK_STAB_POINTS unless the curve ended short) */
    double heel0, step;
    double gz[SK_STAB_POINTS], trim[SK_STAB_POINTS]; /* m, degrees */
    /* 2.2: the general criteria */
    double gm0, area30, area40, area30_40; /* m, m rad */
    double gz30;                           /* the largest GZ at 30 degrees or more, m */
    double gz_max, heel_gz_max, vanish;    /* m, degrees; vanish: where GZ falls back to 0, the range of stability (NAN: none by 180) */
    double deck_edge;                      /* the heel that immerses the deck edge amidships, degrees (0: none) */
    double freeboard;                      /* the deck edge's height over the water upright, m (0: no deck edge) */
    int general_pass;
    /* 2.3: the wind's levers and the balance of areas, phi_2 = min(50, phi_c) (no openings are modelled) */
    double windage, lever_z;    /* the lateral area above the water (m^2), its centre over the underwater one's (m) */
    double lw1, lw2;            /* m */
    double phi0, phi0_limit;    /* the steady wind's heel, and the Code's limit: 16 or 80 % of the deck edge's */
    double phi_x, phi_c, phi2;  /* where lw2 meets GZ first and again; the end of area b */
    double phi1, area_a, area_b; /* with the Code's phi_1; m rad */
    int weather_pass;
} sk_stability;

/* The curve and every figure above for the type, with the Code's phi_1 of
 * `wc`; -1 with s->error when a heel could not be balanced. */
int sk_run_stability(const sk_type* t, const sk_weather* wc, sk_stability* s);
/* Areas a and b of 2.3 for a roll to windward of phi1 degrees. */
void sk_stability_balance(const sk_stability* s, double phi1, double* area_a, double* area_b);

/* MSC.137(76) 5.3.1: the 10/10 zig-zag limits by L/V (s). */
double sk_msc_overshoot1_limit(double l_over_v);
double sk_msc_overshoot2_limit(double l_over_v);

/* Least squares y = a + b x over n points; 0, or -1 with fewer than 2
 * distinct x. */
int sk_fit_line(const double* x, const double* y, int n, double* a, double* b);

/* Ikeda's equivalent linear roll damping (N m s) at amplitude `amp` (rad)
 * and frequency omega, zero speed, the type's keels. */
double sk_ikeda_b44(const sk_type* t, double amp, double omega);
/* Its damping ratio referred to the natural frequency: B / (2 omega_n (I + A44)). */
double sk_ikeda_zeta(const sk_type* t, double amp, double omega);
/* The 1-DOF roll amplitude per wave slope at frequency omega, damping
 * ratio zeta: 1 / sqrt((1 - r^2)^2 + (2 zeta r)^2), r = omega / omega_n. */
double sk_roll_rao(const sk_type* t, double omega, double zeta);

#endif
