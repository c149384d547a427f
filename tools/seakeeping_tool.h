// SPDX-License-Identifier: MIT
/* naval-seakeeping's own results and verdicts, shared by the tool
 * (naval_seakeeping.c: options, the plan of trials, the checks) and its
 * report (seakeeping_report.c: the tables and the JSON). */
#ifndef NAVAL_TOOLS_SEAKEEPING_TOOL_H
#define NAVAL_TOOLS_SEAKEEPING_TOOL_H

#include "seakeeping.h"

#define SK_MAX_PERIODS 16
#define SK_HEADINGS 3

enum {
    SK_TRIAL_DECAY = 1,
    SK_TRIAL_WAVES = 2,
    SK_TRIAL_WEATHER = 4,
    SK_TRIAL_MANOEUVRES = 8,
    SK_TRIAL_UNDERWAY = 16,
    SK_TRIAL_DRIFT = 32,
    SK_TRIAL_BREAKER = 64,
    SK_TRIAL_STABILITY = 128,
    SK_TRIAL_ALL = 255
};

/* The breaker strikes: the model tests' figure (docs/seakeeping.md) is a
 * beam-on breaker of 35 % of the length rolling a hull past 130 degrees,
 * the same over the bow or stern not; 30 % beam-on brackets it. */
#define SK_BREAKER_RUNS 4
extern const double sk_breaker_ratio[SK_BREAKER_RUNS];
extern const double sk_breaker_heading[SK_BREAKER_RUNS];
/* Whether the figure applies: a displacement hull (no planing bottom) of
 * at most 50 m, the small craft the tests struck. */
int sk_breaker_applies(const sk_type* t);

/* The zero-speed wave trials' headings: where the waves come from, off the bow. */
extern const double sk_headings[SK_HEADINGS];
extern const char* const sk_heading_names[SK_HEADINGS];

typedef struct sk_results {
    sk_decay decay[3];
    int periods;
    double period_ratio[SK_MAX_PERIODS];
    sk_wave wave[SK_HEADINGS][SK_MAX_PERIODS];
    sk_weather weather;
    sk_wave weather_wave[SK_WEATHER_RUNS]; /* Circ.1200's roll test, by sk_weather_omega_ratio */
    int weather_peak;                      /* the run of the largest steady roll (phi_1r) */
    sk_approach approach;
    sk_turn turn;
    sk_zigzag zz10, zz20;
    sk_pullout pullout[2]; /* from turns to starboard and to port */
    sk_stop stop;
    sk_head head[SK_HEAD_RUNS]; /* head seas under way, by sk_head_lambda_ratio */
    sk_drift drift[SK_DRIFT_SPEEDS][SK_DRIFT_ANGLES]; /* the oblique tow, by speed and angle */
    sk_drift turn_arm[SK_DRIFT_SPEEDS][SK_TURN_RATES]; /* the rotating arm, by speed and yaw rate */
    sk_breaker breaker[SK_BREAKER_RUNS]; /* struck by one breaking crest, by sk_breaker_ratio and _heading */
    sk_stability stability; /* the righting lever curve and the IS Code's intact criteria */
    int stability_rc;       /* -1: a heel could not be balanced (stability.error says why) */
} sk_results;

typedef enum { SK_PASS, SK_FAIL, SK_EXEMPT } sk_status;
extern const char* const sk_status_names[];

#define SK_MAX_CHECKS 24
typedef struct sk_check {
    const char* name;
    sk_status status;
    double value, limit; /* NAN: none */
    char text[320];      /* what was compared, in words */
} sk_check;

typedef struct sk_summary {
    /* roll decay */
    int decay_cycles;
    double fit_a, fit_b, zeta10, ikeda10, period, period_pred;
    nv_roll_damping_estimate ikeda;
    /* waves: the 1-DOF prediction for each run, and its damping ratio */
    double pred[SK_HEADINGS][SK_MAX_PERIODS], zeta_used[SK_HEADINGS][SK_MAX_PERIODS];
    double pred_ikeda[SK_HEADINGS][SK_MAX_PERIODS], zeta_ikeda[SK_HEADINGS][SK_MAX_PERIODS];
    double pred_whole[SK_HEADINGS][SK_MAX_PERIODS]; /* the 1-DOF with the whole wave slope across the hull */
    int damping_measured; /* 1: the 1-DOF's damping is the decay's fit; 0: Ikeda's (no decay run) */
    int resonance; /* index of the natural period among the periods */
    /* head seas under way: the peaks over the sweep, simulated and JMO's */
    double head_froude, head_heave, head_pitch, jmo_heave, jmo_pitch;
    /* manoeuvres */
    double L, lv;
    int msc_scope;
    /* the weather criterion's balance with the measured phi_1 (0.7 phi_1r; NAN: not run) */
    double stab_phi1_sim, stab_area_a_sim, stab_area_b_sim;
    sk_check checks[SK_MAX_CHECKS];
    int check_count;
} sk_summary;

/* One type's report: a table on stdout, or its JSON object. */
void sk_text_type(const sk_type* t, const sk_results* o, const sk_summary* s, unsigned trials);
void sk_json_type(const sk_type* t, const sk_results* o, const sk_summary* s, unsigned trials);

#endif
