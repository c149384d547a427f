// SPDX-License-Identifier: MIT
/* naval-seakeeping: the standard trials of a vessel type, each held
 * against the standard or the prediction it answers to:
 *   - roll decay from 5, 10 and 20 degrees (ITTC 7.5-02-07-04.5): period and
 *     equivalent damping ratio per cycle, the ratio fitted against amplitude
 *     and read at 10 degrees, against Ikeda's estimate and the period
 *     2 pi sqrt((I_xx + A_44) / (rho g V GM_T));
 *   - regular beam, head and quartering waves over a range of periods at
 *     zero speed: roll, heave and pitch amplitudes against a one-degree-of-
 *     freedom roll prediction with the same inertia, restoring and damping;
 *   - the IS Code 2008 weather criterion's roll phi_1 against 0.7 phi_1r,
 *     phi_1r the peak steady roll in regular beam waves around the natural
 *     period (MSC.1/Circ.1200 4.1.1 and 4.5), the heading held;
 *   - IMO MSC.137(76): turning circle, 10/10 and 20/20 zig-zags, crash stop.
 * Every trial is a world of its own; they run side by side on the job
 * system, so the figures do not depend on the thread count.
 * docs/seakeeping.md gives the formulas and their sources. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "naval/jobs.h"
#include "seakeeping.h"

#define SK_DEG (180.0 / NV_PI)
#define SK_RAD (NV_PI / 180.0)
#define SK_MAX_TYPES 16
#define SK_MAX_PERIODS 16
#define SK_HEADINGS 3

static const char sk_about[] =
    "Runs the standard seakeeping and manoeuvring trials on each vessel type (built-in\n"
    "names, builtin:NAME or type files; default: every built-in) and checks each against\n"
    "its criterion: roll decay from 5, 10 and 20 degrees (damping ratio at 10 degrees\n"
    "within 25 % of Ikeda's estimate, period within 5 % of 2 pi sqrt((I + A44) / (rho g V\n"
    "GM))); roll, heave and pitch in regular beam, head and quartering waves at zero\n"
    "speed (beam-sea roll at the natural period within 30 % of the one-degree-of-freedom\n"
    "prediction with the decay's damping); the IS Code 2008 weather criterion's phi_1\n"
    "against 0.7 x the peak roll in regular beam waves around the natural period\n"
    "(MSC.1/Circ.1200, 30 %); the IMO MSC.137(76) turning circle, zig-zags and crash stop.\n"
    "In the wave trials a soft yaw spring holds the heading to the waves; the drift is free.";
static const char sk_epilogue[] =
    "Each check prints PASS, FAIL or EXEMPT (outside the standard's scope: the IS Code's\n"
    "weather criterion below 24 m, MSC.137(76) below 100 m; a type out of scope that meets\n"
    "a limit still shows PASS). Exit status: 0 every check that is not exempt passes,\n"
    "1 one fails (or a trial could not run), 2 bad arguments or a type that cannot load.";

typedef struct sk_args {
    const char* specs[SK_MAX_TYPES];
    int type_count;
    uint64_t threads, periods;
    double steepness;
    const char* trials;
    int json;
} sk_args;

static int sk_positional(const char* arg, void* args, char* why, size_t n) {
    sk_args* a = args;
    if (a->type_count == SK_MAX_TYPES) {
        snprintf(why, n, "at most %d vessel types (got '%s')", SK_MAX_TYPES, arg);
        return -1;
    }
    a->specs[a->type_count++] = arg;
    return 0;
}

static const cli_opt sk_opts[] = {
    {"--json", .type = CLI_SWITCH, CLI_FIELD(sk_args, json), .help = "one JSON object on stdout instead of the tables"},
    {"--threads", .type = CLI_UINT, CLI_FIELD(sk_args, threads), .min = 1, .max = 64, .value_name = "K",
     .bad = "--threads must be 1..64", .help = "threads, the caller included (default: all cores; results do not depend on it)"},
    {"--periods", .type = CLI_UINT, CLI_FIELD(sk_args, periods), .min = 2, .max = SK_MAX_PERIODS, .value_name = "N",
     .bad = "--periods must be 2..16", .show_default = 1,
     .help = "wave periods per heading, evenly from 0.6 to 2.0 natural roll periods\n(the natural period itself always among them)"},
    {"--steepness", .type = CLI_DOUBLE, CLI_FIELD(sk_args, steepness), .min = 0.001, .max = 0.1, .value_name = "H/L",
     .show_default = 1, .help = "wave height over wavelength of the response trials"},
    {"--trials", .type = CLI_STRING, CLI_FIELD(sk_args, trials), .value_name = "LIST",
     .help = "which trials, comma-separated: decay, waves, weather, manoeuvres (default: all)"},
    {0}};

static const cli_spec sk_spec = {.prog = "naval-seakeeping", .synopsis = "naval-seakeeping [TYPE ...] [options]",
                                 .about = sk_about, .opts = sk_opts, .positional = sk_positional,
                                 .epilogue = sk_epilogue};

enum { SK_TRIAL_DECAY = 1, SK_TRIAL_WAVES = 2, SK_TRIAL_WEATHER = 4, SK_TRIAL_MANOEUVRES = 8, SK_TRIAL_ALL = 15 };

static int sk_parse_trials(const char* list, unsigned* out) {
    static const char* const names[] = {"decay", "waves", "weather", "manoeuvres"};
    *out = 0;
    const char* p = list;
    while (*p) {
        size_t len = strcspn(p, ",");
        int found = 0;
        for (int i = 0; i < 4; i++)
            if (len == strlen(names[i]) && strncmp(p, names[i], len) == 0) *out |= 1u << i, found = 1;
        if (!found) return -1;
        p += len;
        if (*p == ',') p++;
    }
    return *out ? 0 : -1;
}

/* ---- the plan: one job per trial ---------------------------------------- */

static const double sk_headings[SK_HEADINGS] = {90.0, 180.0, 45.0};
static const char* const sk_heading_names[SK_HEADINGS] = {"beam", "head", "quartering"};
static const double sk_releases[3] = {5.0, 10.0, 20.0};

typedef enum sk_kind {
    SK_JOB_DECAY,
    SK_JOB_WAVE,
    SK_JOB_WEATHER,
    SK_JOB_APPROACH,
    SK_JOB_TURN,
    SK_JOB_ZIGZAG10,
    SK_JOB_ZIGZAG20,
    SK_JOB_STOP,
} sk_kind;

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
    sk_stop stop;
} sk_results;

typedef struct sk_job {
    sk_kind kind;
    int type, index, heading;
    double cost; /* estimated steps x triangles, for the order */
} sk_job;

typedef struct sk_run {
    const sk_args* args;
    sk_type* types;
    sk_results* res;
    sk_job* jobs;
    int* order;
} sk_run;

/* The soft yaw restraint of the zero-speed wave trials: its natural period
 * in natural roll periods (seakeeping.h, docs/seakeeping.md). */
static const double sk_yaw_restraint_periods = 2.0;

static sk_wave_case sk_wave_plan(const sk_type* t, double heading, double period, double amplitude, double window) {
    /* 3 periods of ramp, 20 natural periods for the transient to die, then the window */
    sk_wave_case c = {heading, period, amplitude, 3.0 + ceil(20.0 * t->p.roll_period / period) + window, window,
                      sk_yaw_restraint_periods * t->p.roll_period};
    return c;
}

static double sk_wave_amplitude(const sk_type* t, double period, double steepness) {
    double lambda = t->g * period * period / (2.0 * NV_PI);
    return 0.5 * steepness * lambda;
}

static void sk_job_fn(void* ctx, uint32_t begin, uint32_t end, uint32_t worker) {
    (void)worker;
    sk_run* r = ctx;
    for (uint32_t k = begin; k < end; k++) {
        const sk_job* j = &r->jobs[r->order[k]];
        const sk_type* t = &r->types[j->type];
        sk_results* o = &r->res[j->type];
        switch (j->kind) {
        case SK_JOB_DECAY: sk_run_decay(t, sk_releases[j->index], &o->decay[j->index]); break;
        case SK_JOB_WAVE: {
            double period = o->period_ratio[j->index] * t->p.roll_period;
            sk_wave_case c = sk_wave_plan(t, sk_headings[j->heading], period,
                                          sk_wave_amplitude(t, period, r->args->steepness), 8.0);
            sk_run_wave(t, &c, &o->wave[j->heading][j->index]);
            break;
        }
        case SK_JOB_WEATHER: {
            double period = o->weather.t_phi / sk_weather_omega_ratio[j->index];
            sk_wave_case c = sk_wave_plan(t, 90.0, period, sk_wave_amplitude(t, period, o->weather.s_wave), 10.0);
            sk_run_wave(t, &c, &o->weather_wave[j->index]);
            break;
        }
        case SK_JOB_APPROACH: sk_run_approach(t, &o->approach); break;
        case SK_JOB_TURN: sk_run_turn(t, &o->approach, &o->turn); break;
        case SK_JOB_ZIGZAG10: sk_run_zigzag(t, &o->approach, 10.0, &o->zz10); break;
        case SK_JOB_ZIGZAG20: sk_run_zigzag(t, &o->approach, 20.0, &o->zz20); break;
        case SK_JOB_STOP: sk_run_stop(t, &o->approach, &o->stop); break;
        }
    }
}

/* Runs jobs [first, first + n) in the order of their estimated cost, the
 * dearest first (each job writes only its own results). */
static void sk_run_jobs(sk_run* r, nv_jobs* pool, int first, int n) {
    for (int i = 0; i < n; i++) r->order[i] = first + i;
    for (int i = 1; i < n; i++) /* insertion sort: stable, deterministic */
        for (int k = i; k > 0 && r->jobs[r->order[k]].cost > r->jobs[r->order[k - 1]].cost; k--) {
            int tmp = r->order[k];
            r->order[k] = r->order[k - 1];
            r->order[k - 1] = tmp;
        }
    if (n > 0) nv_jobs_parallel_for(pool, (uint32_t)n, 1, sk_job_fn, r);
}

/* ---- checks ------------------------------------------------------------- */

typedef enum { SK_PASS, SK_FAIL, SK_EXEMPT } sk_status;
static const char* const sk_status_names[] = {"PASS", "FAIL", "EXEMPT"};

#define SK_MAX_CHECKS 16
typedef struct sk_check {
    const char* name;
    sk_status status;
    double value, limit; /* NAN: none */
    char text[200];      /* what was compared, in words */
} sk_check;

typedef struct sk_summary {
    /* roll decay */
    int decay_cycles;
    double fit_a, fit_b, zeta10, ikeda10, period, period_pred;
    nv_roll_damping_estimate ikeda;
    /* waves: the 1-DOF prediction for each run, and its damping ratio */
    double pred[SK_HEADINGS][SK_MAX_PERIODS], zeta_used[SK_HEADINGS][SK_MAX_PERIODS];
    double pred_ikeda[SK_HEADINGS][SK_MAX_PERIODS], zeta_ikeda[SK_HEADINGS][SK_MAX_PERIODS];
    int damping_measured; /* 1: the 1-DOF's damping is the decay's fit; 0: Ikeda's (no decay run) */
    int resonance; /* index of the natural period among the periods */
    /* manoeuvres */
    double L, lv;
    int msc_scope;
    sk_check checks[SK_MAX_CHECKS];
    int check_count;
} sk_summary;

static sk_check* sk_add_check(sk_summary* s, const char* name, int pass, double value, double limit, int exempt_if_miss) {
    sk_check* c = &s->checks[s->check_count++];
    memset(c, 0, sizeof *c);
    c->name = name;
    c->value = value;
    c->limit = limit;
    c->status = pass ? SK_PASS : exempt_if_miss ? SK_EXEMPT : SK_FAIL;
    return c;
}

static void sk_summarise(const sk_type* t, const sk_results* o, unsigned trials, sk_summary* s) {
    memset(s, 0, sizeof *s);
    const nv_particulars* p = &t->p;
    if (trials & SK_TRIAL_DECAY) {
        double x[3 * SK_MAX_CYCLES], y[3 * SK_MAX_CYCLES], psum = 0.0;
        int n = 0;
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < o->decay[r].count; c++) {
                const sk_cycle* cy = &o->decay[r].cycle[c];
                if (cy->amp_mean < 3.0 || cy->amp_mean > 25.0) continue;
                x[n] = cy->amp_mean, y[n] = cy->zeta, psum += cy->period;
                n++;
            }
        s->decay_cycles = n;
        s->zeta10 = s->period = NAN;
        if (sk_fit_line(x, y, n, &s->fit_a, &s->fit_b) == 0) s->zeta10 = s->fit_a + 10.0 * s->fit_b;
        if (n > 0) s->period = psum / n;
        nv_roll_damping_case c = {.amplitude = 10.0 * SK_RAD, .omega = p->roll_omega, .speed = 0.0,
                                  .bilge_keel_length = t->bk_length, .bilge_keel_breadth = t->bk_breadth,
                                  .water_density = t->rho, .gravity = t->g, .viscosity = t->nu};
        nv_roll_damping_ikeda(p, &c, &s->ikeda);
        s->ikeda10 = s->ikeda.zeta;
        s->period_pred = p->roll_period;
        double ratio = s->zeta10 / s->ikeda10;
        sk_check* k = sk_add_check(s, "decay_zeta_10deg", fabs(ratio - 1.0) <= 0.25, s->zeta10, s->ikeda10, 0);
        snprintf(k->text, sizeof k->text, "zeta at 10 deg %.4f vs Ikeda %.4f (%+.0f %%, limit 25 %%; %d cycles fitted)",
                 s->zeta10, s->ikeda10, 100.0 * (ratio - 1.0), n);
        double err = s->period / s->period_pred - 1.0;
        k = sk_add_check(s, "decay_period", fabs(err) <= 0.05, s->period, s->period_pred, 0);
        snprintf(k->text, sizeof k->text, "roll period %.3f s vs 2 pi sqrt((I + A44) / (rho g V GM)) %.3f s (%+.1f %%, limit 5 %%)",
                 s->period, s->period_pred, 100.0 * err);
    }
    if (trials & SK_TRIAL_WAVES) {
        double inertia = p->roll_inertia * (1.0 + p->added_roll);
        s->resonance = 0;
        for (int i = 0; i < o->periods; i++)
            if (fabs(o->period_ratio[i] - 1.0) < fabs(o->period_ratio[s->resonance] - 1.0)) s->resonance = i;
        for (int h = 0; h < SK_HEADINGS; h++)
            for (int i = 0; i < o->periods; i++) {
                const sk_wave* w = &o->wave[h][i];
                double omega = 2.0 * NV_PI / w->c.period;
                double amp = fmax(w->roll, 1.0) * SK_RAD; /* Ikeda's regressions need an amplitude */
                double zi = sk_ikeda_b44(t, amp, omega) / (2.0 * p->roll_omega * inertia);
                /* The damping the simulation has: its own decay's fit zeta = a + b phi at the
                 * simulated amplitude (held within the fitted 3..25 degrees, not extrapolated);
                 * Ikeda's estimate when the decay did not run. */
                double zeta = zi;
                if (isfinite(s->zeta10)) zeta = s->fit_a + s->fit_b * fmin(fmax(w->roll, 3.0), 25.0);
                /* the slope across the hull: sin of the angle off the bow */
                double slope = fabs(sin(sk_headings[h] * SK_RAD));
                s->zeta_used[h][i] = zeta, s->zeta_ikeda[h][i] = zi;
                s->pred[h][i] = slope * sk_roll_rao(t, omega, zeta);
                s->pred_ikeda[h][i] = slope * sk_roll_rao(t, omega, zi);
            }
        s->damping_measured = isfinite(s->zeta10);
        const sk_wave* w = &o->wave[0][s->resonance];
        double measured = w->capsized ? NAN : w->roll * SK_RAD / (w->k * w->c.amplitude), pred = s->pred[0][s->resonance];
        double err = measured / pred - 1.0;
        sk_check* k = sk_add_check(s, "beam_roll_resonance", fabs(err) <= 0.30, measured, pred, 0);
        snprintf(k->text, sizeof k->text,
                 "beam seas at the natural period: roll %.2f x the wave slope vs 1-DOF %.2f (zeta %.4f, %s; %+.0f %%, limit "
                 "30 %%; with Ikeda's zeta %.4f: %.2f)",
                 measured, pred, s->zeta_used[0][s->resonance], s->damping_measured ? "the decay's at that amplitude" : "Ikeda's",
                 100.0 * err, s->zeta_ikeda[0][s->resonance], s->pred_ikeda[0][s->resonance]);
    }
    if (trials & SK_TRIAL_WEATHER) {
        const sk_weather* wc = &o->weather;
        /* phi_1r: the largest steady roll of the sweep; a capsize anywhere in it fails */
        const sk_wave* peak = &o->weather_wave[o->weather_peak];
        int capsized = 0;
        for (int i = 0; i < SK_WEATHER_RUNS; i++) capsized |= o->weather_wave[i].capsized;
        double sim = capsized ? NAN : SK_WEATHER_IRREGULAR * peak->roll_half_range;
        double err = sim / wc->phi1 - 1.0;
        sk_check* k = sk_add_check(s, "weather_phi1", fabs(err) <= 0.30, sim, wc->phi1, !wc->applies);
        if (capsized)
            snprintf(k->text, sizeof k->text,
                     "capsized in Circ.1200's regular beam waves (s %.3f, T_phi %.2f s) vs phi_1 %.1f deg%s", wc->s_wave,
                     wc->t_phi, wc->phi1, wc->applies ? "" : "; the criterion applies from 24 m");
        else
            snprintf(k->text, sizeof k->text,
                     "0.7 phi_1r = 0.7 x %.1f deg (at %.2f s) = %.1f deg vs phi_1 %.1f deg (%+.0f %%, limit 30 %%; yaw within "
                     "%.1f deg)%s",
                     peak->roll_half_range, peak->c.period, sim, wc->phi1, 100.0 * err, peak->yaw_window,
                     wc->applies ? "" : "; the criterion applies from 24 m");
    }
    if (trials & SK_TRIAL_MANOEUVRES) {
        s->L = p->length;
        double v = o->approach.speed;
        s->lv = v > 0.0 ? s->L / v : NAN;
        s->msc_scope = t->hull_length >= 100.0;
        int ex = !s->msc_scope;
        const char* why = ex ? "; MSC.137 applies from 100 m" : "";
        const sk_turn* tu = &o->turn;
        double adv = tu->done ? tu->advance / s->L : NAN, tac = tu->done ? tu->tactical / s->L : NAN;
        sk_check* k = sk_add_check(s, "turning_advance", adv <= 4.5, adv, 4.5, ex);
        snprintf(k->text, sizeof k->text, "advance %.2f L (%.0f m) at 35 deg rudder, limit 4.5 L%s", adv, tu->advance, why);
        k = sk_add_check(s, "turning_tactical_diameter", tac <= 5.0, tac, 5.0, ex);
        snprintf(k->text, sizeof k->text, "tactical diameter %.2f L (%.0f m), limit 5 L%s", tac, tu->tactical, why);
        double init = o->zz10.reach_initial > 0.0 ? o->zz10.reach_initial / s->L : NAN;
        k = sk_add_check(s, "initial_turning", init <= 2.5, init, 2.5, ex);
        snprintf(k->text, sizeof k->text, "10 deg of heading with 10 deg rudder within %.2f L of track, limit 2.5 L%s", init,
                 why);
        double l1 = sk_msc_overshoot1_limit(s->lv), l2 = sk_msc_overshoot2_limit(s->lv);
        double o1 = o->zz10.done ? o->zz10.overshoot1 : NAN, o2 = o->zz10.done ? o->zz10.overshoot2 : NAN;
        k = sk_add_check(s, "zigzag_10_overshoot1", o1 <= l1, o1, l1, ex);
        snprintf(k->text, sizeof k->text, "10/10 first overshoot %.1f deg, limit %.1f deg (L/V %.1f s)%s", o1, l1, s->lv, why);
        k = sk_add_check(s, "zigzag_10_overshoot2", o2 <= l2, o2, l2, ex);
        snprintf(k->text, sizeof k->text, "10/10 second overshoot %.1f deg, limit %.1f deg%s", o2, l2, why);
        double o3 = o->zz20.done ? o->zz20.overshoot1 : NAN;
        k = sk_add_check(s, "zigzag_20_overshoot1", o3 <= 25.0, o3, 25.0, ex);
        snprintf(k->text, sizeof k->text, "20/20 first overshoot %.1f deg, limit 25 deg%s", o3, why);
        double reach = o->stop.done ? o->stop.track_reach / s->L : NAN;
        k = sk_add_check(s, "crash_stop_track_reach", reach <= 15.0, reach, 15.0, ex);
        snprintf(k->text, sizeof k->text, "full astern from %.2f m/s: track reach %.2f L (%.0f m), limit 15 L%s", v, reach,
                 o->stop.track_reach, why);
    }
}

/* ---- output ------------------------------------------------------------- */

static void sk_jnum(const char* key, double v, const char* after) {
    if (isfinite(v))
        printf("\"%s\": %.6g%s", key, v, after);
    else
        printf("\"%s\": null%s", key, after);
}

static void sk_jstr(const char* s) {
    putchar('"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            printf("\\%c", c);
        else if (c < 0x20)
            printf("\\u%04x", c);
        else
            putchar(c);
    }
    putchar('"');
}

static void sk_json_type(const sk_type* t, const sk_results* o, const sk_summary* s, unsigned trials) {
    const nv_particulars* p = &t->p;
    printf("{\"name\": ");
    sk_jstr(t->vt.name);
    printf(", \"spec\": ");
    sk_jstr(t->spec);
    printf(", \"particulars\": {");
    sk_jnum("hull_length", t->hull_length, ", ");
    sk_jnum("length", p->length, ", ");
    sk_jnum("beam", p->beam, ", ");
    sk_jnum("draft", p->draft, ", ");
    sk_jnum("volume", p->volume, ", ");
    sk_jnum("block", p->block, ", ");
    sk_jnum("midship", p->midship, ", ");
    sk_jnum("kg", p->kg, ", ");
    sk_jnum("gm_t", p->gm_t, ", ");
    sk_jnum("og", p->og, ", ");
    sk_jnum("mass", p->mass, ", ");
    sk_jnum("roll_inertia", p->roll_inertia, ", ");
    sk_jnum("added_roll", p->added_roll, ", ");
    sk_jnum("roll_period", p->roll_period, ", ");
    sk_jnum("bilge_keel_length", t->bk_length, ", ");
    sk_jnum("bilge_keel_breadth", t->bk_breadth, "}");
    if (trials & SK_TRIAL_DECAY) {
        printf(", \"roll_decay\": {\"releases\": [");
        for (int r = 0; r < 3; r++) {
            const sk_decay* d = &o->decay[r];
            printf("%s{", r ? ", " : "");
            sk_jnum("release_deg", d->release_deg, ", ");
            printf("\"capsized\": %s, ", d->capsized ? "true" : "false");
            sk_jnum("heave_max", d->heave_max, ", ");
            printf("\"cycles\": [");
            for (int c = 0; c < d->count; c++) {
                printf("%s{", c ? ", " : "");
                sk_jnum("amp_mean_deg", d->cycle[c].amp_mean, ", ");
                sk_jnum("zeta", d->cycle[c].zeta, ", ");
                sk_jnum("period", d->cycle[c].period, "}");
            }
            printf("]}");
        }
        printf("], \"fit\": {");
        sk_jnum("a", s->fit_a, ", ");
        sk_jnum("b_per_deg", s->fit_b, ", ");
        printf("\"cycles\": %d}, ", s->decay_cycles);
        sk_jnum("zeta_10deg", s->zeta10, ", ");
        sk_jnum("ikeda_zeta_10deg", s->ikeda10, ", ");
        printf("\"ikeda_b44\": {");
        sk_jnum("friction", s->ikeda.friction, ", ");
        sk_jnum("wave", s->ikeda.wave, ", ");
        sk_jnum("eddy", s->ikeda.eddy, ", ");
        sk_jnum("lift", s->ikeda.lift, ", ");
        sk_jnum("bilge_keels", s->ikeda.bilge_keels, ", ");
        sk_jnum("total", s->ikeda.total, ", ");
        printf("\"in_range\": %s}, ", s->ikeda.in_range ? "true" : "false");
        sk_jnum("triangles_b44", t->damper.triangles, ", ");
        sk_jnum("period", s->period, ", ");
        sk_jnum("predicted_period", s->period_pred, "}");
    }
    if (trials & SK_TRIAL_WAVES) {
        printf(", \"waves\": {");
        sk_jnum("steepness", o->wave[0][0].c.amplitude * 2.0 / o->wave[0][0].wavelength, ", ");
        printf("\"damping\": \"%s\", ", s->damping_measured ? "decay" : "ikeda");
        sk_jnum("yaw_restraint_period", o->wave[0][0].c.yaw_period, ", ");
        printf("\"runs\": [");
        int first = 1;
        for (int h = 0; h < SK_HEADINGS; h++)
            for (int i = 0; i < o->periods; i++) {
                const sk_wave* w = &o->wave[h][i];
                double slope = w->k * w->c.amplitude;
                printf("%s{\"heading\": \"%s\", ", first ? "" : ", ", sk_heading_names[h]);
                first = 0;
                sk_jnum("heading_deg", w->c.heading_deg, ", ");
                sk_jnum("period", w->c.period, ", ");
                sk_jnum("period_ratio", o->period_ratio[i], ", ");
                sk_jnum("wavelength", w->wavelength, ", ");
                sk_jnum("amplitude", w->c.amplitude, ", ");
                sk_jnum("roll_deg", w->roll, ", ");
                sk_jnum("heave", w->heave, ", ");
                sk_jnum("pitch_deg", w->pitch, ", ");
                sk_jnum("roll_per_slope", w->roll * SK_RAD / slope, ", ");
                sk_jnum("heave_per_amplitude", w->heave / w->c.amplitude, ", ");
                sk_jnum("pitch_per_slope", w->pitch * SK_RAD / slope, ", ");
                sk_jnum("predicted_roll_per_slope", s->pred[h][i], ", ");
                sk_jnum("zeta_used", s->zeta_used[h][i], ", ");
                sk_jnum("predicted_roll_per_slope_ikeda", s->pred_ikeda[h][i], ", ");
                sk_jnum("zeta_ikeda", s->zeta_ikeda[h][i], ", ");
                sk_jnum("roll_max_deg", w->roll_max, ", ");
                sk_jnum("yaw_drift_deg", w->yaw_drift, ", ");
                sk_jnum("yaw_max_deg", w->yaw_max, ", ");
                sk_jnum("drift", w->drift, ", ");
                printf("\"capsized\": %s}", w->capsized ? "true" : "false");
            }
        printf("]}");
    }
    if (trials & SK_TRIAL_WEATHER) {
        const sk_weather* wc = &o->weather;
        const sk_wave* w = &o->weather_wave[o->weather_peak];
        printf(", \"weather\": {");
        sk_jnum("L", wc->L, ", ");
        sk_jnum("B", wc->B, ", ");
        sk_jnum("d", wc->d, ", ");
        sk_jnum("cb", wc->cb, ", ");
        sk_jnum("kg", wc->kg, ", ");
        sk_jnum("gm", wc->gm, ", ");
        sk_jnum("og", wc->og_code, ", ");
        sk_jnum("r", wc->r, ", ");
        sk_jnum("C", wc->C, ", ");
        sk_jnum("T", wc->T, ", ");
        sk_jnum("s", wc->s, ", ");
        sk_jnum("x1", wc->x1, ", ");
        sk_jnum("x2", wc->x2, ", ");
        sk_jnum("ak_ratio", wc->ak_ratio, ", ");
        sk_jnum("k", wc->k, ", ");
        sk_jnum("phi1_deg", wc->phi1, ", ");
        printf("\"applies\": %s, ", wc->applies ? "true" : "false");
        sk_jnum("t_phi", wc->t_phi, ", ");
        sk_jnum("s_wave", wc->s_wave, ", ");
        int capsized = 0;
        printf("\"runs\": [");
        for (int i = 0; i < SK_WEATHER_RUNS; i++) {
            const sk_wave* r = &o->weather_wave[i];
            capsized |= r->capsized;
            printf("%s{", i ? ", " : "");
            sk_jnum("omega_ratio", sk_weather_omega_ratio[i], ", ");
            sk_jnum("period", r->c.period, ", ");
            sk_jnum("wavelength", r->wavelength, ", ");
            sk_jnum("wave_height", 2.0 * r->c.amplitude, ", ");
            sk_jnum("roll_deg", r->capsized ? NAN : r->roll_half_range, ", ");
            sk_jnum("roll_first_harmonic_deg", r->roll, ", ");
            sk_jnum("roll_max_deg", r->roll_max, ", ");
            sk_jnum("yaw_max_deg", r->yaw_max, ", ");
            sk_jnum("yaw_window_deg", r->yaw_window, ", ");
            sk_jnum("drift", r->drift, ", ");
            sk_jnum("drift_speed", r->drift / (r->steps / t->tick_hz), ", ");
            printf("\"capsized\": %s}", r->capsized ? "true" : "false");
        }
        printf("], ");
        sk_jnum("phi1r_deg", capsized ? NAN : w->roll_half_range, ", ");
        sk_jnum("phi1r_period", w->c.period, ", ");
        sk_jnum("roll_deg", capsized ? NAN : SK_WEATHER_IRREGULAR * w->roll_half_range, ", ");
        sk_jnum("yaw_restraint_period", w->c.yaw_period, ", ");
        printf("\"capsized\": %s}", capsized ? "true" : "false");
    }
    if (trials & SK_TRIAL_MANOEUVRES) {
        const sk_approach* a = &o->approach;
        printf(", \"manoeuvres\": {");
        sk_jnum("L", s->L, ", ");
        sk_jnum("approach_speed", a->speed, ", ");
        sk_jnum("approach_time", a->time, ", ");
        printf("\"approach_settled\": %s, ", a->settled ? "true" : "false");
        sk_jnum("L_over_V", s->lv, ", ");
        printf("\"in_scope\": %s, \"turning\": {", s->msc_scope ? "true" : "false");
        const sk_turn* tu = &o->turn;
        sk_jnum("rudder_deg", tu->rudder_deg, ", ");
        sk_jnum("advance", tu->done ? tu->advance : NAN, ", ");
        sk_jnum("transfer", tu->done ? tu->transfer : NAN, ", ");
        sk_jnum("tactical_diameter", tu->done ? tu->tactical : NAN, ", ");
        sk_jnum("advance_L", tu->done ? tu->advance / s->L : NAN, ", ");
        sk_jnum("tactical_diameter_L", tu->done ? tu->tactical / s->L : NAN, ", ");
        sk_jnum("steady_diameter", tu->diameter > 0.0 ? tu->diameter : NAN, ", ");
        sk_jnum("speed_in_turn", tu->speed_in_turn, ", ");
        sk_jnum("time_90", tu->time_90, ", ");
        sk_jnum("time_180", tu->time_180, ", ");
        sk_jnum("max_heel_deg", tu->max_heel, "}, ");
        const sk_zigzag* zz[2] = {&o->zz10, &o->zz20};
        for (int i = 0; i < 2; i++) {
            printf("\"zigzag_%d\": {", i ? 20 : 10);
            sk_jnum("overshoot1_deg", zz[i]->done ? zz[i]->overshoot1 : NAN, ", ");
            sk_jnum("overshoot2_deg", zz[i]->done ? zz[i]->overshoot2 : NAN, ", ");
            sk_jnum("initial_reach", zz[i]->reach_initial > 0.0 ? zz[i]->reach_initial : NAN, ", ");
            sk_jnum("initial_time", zz[i]->time_initial, "}, ");
        }
        printf("\"crash_stop\": {");
        sk_jnum("track_reach", o->stop.done ? o->stop.track_reach : NAN, ", ");
        sk_jnum("track_reach_L", o->stop.done ? o->stop.track_reach / s->L : NAN, ", ");
        sk_jnum("head_reach", o->stop.done ? o->stop.head_reach : NAN, ", ");
        sk_jnum("lateral", o->stop.done ? o->stop.lateral : NAN, ", ");
        sk_jnum("time", o->stop.done ? o->stop.time : NAN, "}}");
    }
    printf(", \"checks\": [");
    for (int i = 0; i < s->check_count; i++) {
        const sk_check* c = &s->checks[i];
        printf("%s{\"name\": \"%s\", \"status\": \"%s\", ", i ? ", " : "", c->name, sk_status_names[c->status]);
        sk_jnum("value", c->value, ", ");
        sk_jnum("limit", c->limit, ", ");
        printf("\"text\": ");
        sk_jstr(c->text);
        printf("}");
    }
    printf("]}");
}

static void sk_text_type(const sk_type* t, const sk_results* o, const sk_summary* s, unsigned trials) {
    const nv_particulars* p = &t->p;
    printf("== %s (%s): L_wl %.2f m, B %.2f m, d %.2f m, V %.1f m^3, Cb %.3f, Cm %.3f, KG %.2f m, GM %.3f m, "
           "T_roll %.2f s, bilge keels %.1f x %.2f m\n",
           t->vt.name, t->spec, p->length, p->beam, p->draft, p->volume, p->block, p->midship, p->kg, p->gm_t,
           p->roll_period, t->bk_length, t->bk_breadth);
    if (trials & SK_TRIAL_DECAY) {
        printf("roll decay (flat water, zero speed): per cycle, mean amplitude deg / zeta / period s\n");
        for (int r = 0; r < 3; r++) {
            const sk_decay* d = &o->decay[r];
            printf("  from %4.1f deg%s:", d->release_deg, d->capsized ? " CAPSIZED" : "");
            for (int c = 0; c < d->count; c++) {
                if (c && c % 4 == 0) printf("\n                ");
                printf("  %5.2f/%.4f/%.3f", d->cycle[c].amp_mean, d->cycle[c].zeta, d->cycle[c].period);
            }
            printf("\n");
        }
        printf("  fit over %d cycles (3..25 deg): zeta = %.4f %+.5f phi; at 10 deg %.4f; Ikeda %.4f "
               "(F %.3g, W %.3g, E %.3g, BK %.3g N m s%s); period %.3f s, predicted %.3f s\n",
               s->decay_cycles, s->fit_a, s->fit_b, s->zeta10, s->ikeda10, s->ikeda.friction, s->ikeda.wave,
               s->ikeda.eddy, s->ikeda.bilge_keels, s->ikeda.in_range ? "" : ", regressions clamped", s->period,
               s->period_pred);
    }
    if (trials & SK_TRIAL_WAVES) {
        printf("regular waves, zero speed, steepness 1/%.0f, heading held (yaw restraint period %.1f s): roll/kA, heave/A, "
               "pitch/kA; 1-DOF roll/kA with %s damping (and Ikeda's)\n",
               o->wave[0][0].wavelength / (2.0 * o->wave[0][0].c.amplitude), o->wave[0][0].c.yaw_period,
               s->damping_measured ? "the decay's" : "Ikeda's");
        printf("  %-10s %6s %6s %7s %7s %7s %7s %7s %7s %7s %7s %8s %s\n", "heading", "T_w", "T_w/T", "roll", "1-DOF", "Ikeda",
               "heave", "pitch", "roll", "zeta", "zeta", "yaw max", "");
        printf("  %-10s %6s %6s %7s %7s %7s %7s %7s %7s %7s %7s %8s\n", "", "s", "", "/kA", "/kA", "/kA", "/A", "/kA", "deg",
               "", "Ikeda", "deg");
        for (int h = 0; h < SK_HEADINGS; h++)
            for (int i = 0; i < o->periods; i++) {
                const sk_wave* w = &o->wave[h][i];
                double slope = w->k * w->c.amplitude;
                printf("  %-10s %6.2f %6.2f %7.3f %7.3f %7.3f %7.3f %7.3f %7.2f %7.4f %7.4f %8.1f %s\n", sk_heading_names[h],
                       w->c.period, o->period_ratio[i], w->roll * SK_RAD / slope, s->pred[h][i], s->pred_ikeda[h][i],
                       w->heave / w->c.amplitude, w->pitch * SK_RAD / slope, w->roll, s->zeta_used[h][i],
                       s->zeta_ikeda[h][i], w->yaw_max,
                       w->capsized ? "CAPSIZED" : "");
            }
    }
    if (trials & SK_TRIAL_WEATHER) {
        const sk_weather* wc = &o->weather;
        printf("IS Code weather criterion: r %.3f (OG %.2f m), T %.2f s, s %.4f, X1 %.3f, X2 %.3f, k %.3f "
               "(A_k 100 / L B %.2f): phi_1 %.1f deg\n",
               wc->r, wc->og_code, wc->T, wc->s, wc->x1, wc->x2, wc->k, wc->ak_ratio, wc->phi1);
        printf("  Circ.1200 roll test: regular beam waves, steepness %.4f (T_phi %.2f s), heading held (yaw restraint "
               "period %.1f s), drift free\n",
               wc->s_wave, wc->t_phi, o->weather_wave[0].c.yaw_period);
        printf("  %8s %7s %7s %7s %9s %8s %8s %8s %9s\n", "w/w0", "T_w s", "H m", "roll", "1st harm", "largest",
               "yaw max", "yaw win", "drift m/s");
        for (int i = 0; i < SK_WEATHER_RUNS; i++) {
            const sk_wave* w = &o->weather_wave[i];
            printf("  %8.3f %7.2f %7.2f %7.1f %9.1f %8.1f %8.1f %8.1f %9.2f%s%s\n", sk_weather_omega_ratio[i], w->c.period,
                   2.0 * w->c.amplitude, w->roll_half_range, w->roll, w->roll_max, w->yaw_max, w->yaw_window,
                   w->steps ? w->drift / ((double)w->steps / t->tick_hz) : 0.0, w->capsized ? " CAPSIZED" : "",
                   i == o->weather_peak ? " <- phi_1r" : "");
        }
    }
    if (trials & SK_TRIAL_MANOEUVRES) {
        const sk_approach* a = &o->approach;
        printf("manoeuvres (MSC.137(76)%s): approach %.2f m/s after %.0f s%s, L/V %.1f s\n",
               s->msc_scope ? "" : ", outside its scope below 100 m", a->speed, a->time, a->settled ? "" : " (not settled)",
               s->lv);
        printf("  turning 35 deg: advance %.0f m, transfer %.0f m, tactical diameter %.0f m, steady diameter %.0f m at "
               "%.2f m/s, heel up to %.1f deg\n",
               o->turn.advance, o->turn.transfer, o->turn.tactical, o->turn.diameter, o->turn.speed_in_turn,
               o->turn.max_heel);
        printf("  zig-zag 10/10: overshoots %.1f, %.1f deg; 20/20: %.1f deg; crash stop: track reach %.0f m, head "
               "reach %.0f m, %.0f s\n",
               o->zz10.overshoot1, o->zz10.overshoot2, o->zz20.overshoot1, o->stop.track_reach, o->stop.head_reach,
               o->stop.time);
    }
    for (int i = 0; i < s->check_count; i++)
        printf("  %-6s %-26s %s\n", sk_status_names[s->checks[i].status], s->checks[i].name, s->checks[i].text);
}

/* ---- main --------------------------------------------------------------- */

static double sk_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char** argv) {
    sk_args a;
    memset(&a, 0, sizeof a);
    a.threads = nv_jobs_hardware_threads();
    a.periods = 8;
    a.steepness = 1.0 / 250.0; /* the resonant roll small enough to be linear (docs/seakeeping.md) */
    int rc = cli_parse(&sk_spec, argc, argv, &a);
    if (rc != CLI_RUN) return rc;
    unsigned trials = SK_TRIAL_ALL;
    if (a.trials && sk_parse_trials(a.trials, &trials))
        return cli_usage_error("naval-seakeeping", "--trials: a comma-separated list of decay, waves, weather, "
                                                   "manoeuvres (got '%s')",
                               a.trials);
    if (a.type_count == 0)
        for (int i = 0; i < nv_vessel_type_builtin_count() && i < SK_MAX_TYPES; i++)
            a.specs[a.type_count++] = nv_vessel_type_builtin_name(i);

    int n = a.type_count;
    sk_type* types = calloc((size_t)n, sizeof *types);
    sk_results* res = calloc((size_t)n, sizeof *res);
    sk_summary* sum = calloc((size_t)n, sizeof *sum);
    /* per type: 3 decays, the waves, the weather sweep, the approach, 4 manoeuvres */
    int per_type = 3 + SK_HEADINGS * SK_MAX_PERIODS + SK_WEATHER_RUNS + 1 + 4;
    sk_job* jobs = calloc((size_t)(n * per_type), sizeof *jobs);
    int* order = calloc((size_t)(n * per_type), sizeof *order);
    int early = 0; /* an exit status before any trial runs */
    int loaded = 0;
    if (!types || !res || !sum || !jobs || !order) {
        fprintf(stderr, "naval-seakeeping: out of memory\n");
        early = 1;
    }
    for (; !early && loaded < n; loaded++) {
        nv_error err;
        if (sk_type_load(&types[loaded], a.specs[loaded], &err)) {
            fprintf(stderr, "naval-seakeeping: %s: %s\n", a.specs[loaded], err.message);
            early = 2;
            break;
        }
    }
    if (early) {
        for (int i = 0; i < loaded; i++) sk_type_free(&types[i]);
        free(types);
        free(res);
        free(sum);
        free(jobs);
        free(order);
        return early;
    }
    nv_jobs* pool = NULL;
    {
        nv_error err;
        if (nv_jobs_create(&pool, (uint32_t)a.threads, &err)) {
            fprintf(stderr, "naval-seakeeping: %s\n", err.message);
            return 1;
        }
    }
    double start = sk_now();
    /* phase 1: everything but the manoeuvres, which start from the approach */
    int count = 0;
    for (int i = 0; i < n; i++) {
        sk_type* t = &types[i];
        sk_results* o = &res[i];
        double tri = (double)t->mesh.triangle_count, T = t->p.roll_period;
        o->periods = (int)a.periods;
        int nearest = 0;
        for (int k = 0; k < o->periods; k++) {
            o->period_ratio[k] = 0.6 + 1.4 * k / (o->periods - 1);
            if (fabs(o->period_ratio[k] - 1.0) < fabs(o->period_ratio[nearest] - 1.0)) nearest = k;
        }
        o->period_ratio[nearest] = 1.0;
        sk_weather_compute(t, &o->weather);
        if (trials & SK_TRIAL_DECAY)
            for (int r = 0; r < 3; r++) jobs[count++] = (sk_job){SK_JOB_DECAY, i, r, 0, 16.0 * T * tri};
        if (trials & SK_TRIAL_WAVES)
            for (int h = 0; h < SK_HEADINGS; h++)
                for (int k = 0; k < o->periods; k++)
                    jobs[count++] = (sk_job){SK_JOB_WAVE, i, k, h, (11.0 * o->period_ratio[k] + 20.0) * T * tri};
        if (trials & SK_TRIAL_WEATHER)
            for (int k = 0; k < SK_WEATHER_RUNS; k++)
                jobs[count++] = (sk_job){SK_JOB_WEATHER, i, k, 0, (13.0 / sk_weather_omega_ratio[k] + 20.0) * T * tri};
        if (trials & SK_TRIAL_MANOEUVRES) jobs[count++] = (sk_job){SK_JOB_APPROACH, i, 0, 0, 1e9 * tri};
    }
    sk_run run = {&a, types, res, jobs, order};
    sk_run_jobs(&run, pool, 0, count);
    int phase2 = count;
    if (trials & SK_TRIAL_MANOEUVRES)
        for (int i = 0; i < n; i++) {
            double tri = (double)types[i].mesh.triangle_count;
            jobs[count++] = (sk_job){SK_JOB_TURN, i, 0, 0, 2.0 * tri};
            jobs[count++] = (sk_job){SK_JOB_ZIGZAG10, i, 0, 0, 1.0 * tri};
            jobs[count++] = (sk_job){SK_JOB_ZIGZAG20, i, 0, 0, 1.0 * tri};
            jobs[count++] = (sk_job){SK_JOB_STOP, i, 0, 0, 1.0 * tri};
        }
    sk_run_jobs(&run, pool, phase2, count - phase2);
    double wall = sk_now() - start;
    nv_jobs_destroy(pool);

    int failed = 0;
    for (int i = 0; i < n; i++) {
        sk_results* o = &res[i];
        o->weather_peak = 0;
        for (int k = 1; k < SK_WEATHER_RUNS; k++)
            if (o->weather_wave[k].roll_half_range > o->weather_wave[o->weather_peak].roll_half_range) o->weather_peak = k;
        sk_summarise(&types[i], &res[i], trials, &sum[i]);
        for (int c = 0; c < sum[i].check_count; c++) failed += sum[i].checks[c].status == SK_FAIL;
    }
    if (a.json) {
        printf("{\"tool\": \"naval-seakeeping\", \"tick_hz\": %g, \"threads\": %u, \"wall_time\": %.3f, \"types\": [",
               types[0].tick_hz, (unsigned)a.threads, wall);
        for (int i = 0; i < n; i++) {
            if (i) printf(", ");
            sk_json_type(&types[i], &res[i], &sum[i], trials);
        }
        printf("], \"failed\": %d}\n", failed);
    } else {
        for (int i = 0; i < n; i++) sk_text_type(&types[i], &res[i], &sum[i], trials);
        printf("naval-seakeeping: %d type%s, %d trials, %u thread%s, %.1f s wall; %d check%s failed\n", n, n == 1 ? "" : "s",
               count, (unsigned)a.threads, a.threads == 1 ? "" : "s", wall, failed, failed == 1 ? "" : "s");
    }
    for (int i = 0; i < n; i++) {
        sk_approach_free(&res[i].approach);
        sk_type_free(&types[i]);
    }
    free(types);
    free(res);
    free(sum);
    free(jobs);
    free(order);
    return failed ? 1 : 0;
}
