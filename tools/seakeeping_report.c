// SPDX-License-Identifier: MIT
/* naval-seakeeping's report: per type, the tables or the JSON object
 * (seakeeping_tool.h). */
#include <math.h>
#include <stdio.h>

#include "seakeeping_tool.h"

#define SK_RAD (NV_PI / 180.0)

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

void sk_json_type(const sk_type* t, const sk_results* o, const sk_summary* s, unsigned trials) {
    const nv_particulars* p = &t->p;
    printf("{\"name\": ");
    sk_jstr(t->vt.name);
    printf(", \"spec\": ");
    sk_jstr(t->spec);
    printf(", \"particulars\": {");
    sk_jnum("hull_length", t->hull_length, ", ");
    sk_jnum("moulded_breadth", t->moulded_breadth, ", ");
    sk_jnum("code_length", t->code_length, ", ");
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
                sk_jnum("excitation", w->excitation, ", ");
                sk_jnum("predicted_roll_per_slope_whole_slope", s->pred_whole[h][i], ", ");
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
        sk_jnum("B_wl", wc->b_wl, ", ");
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
        sk_jnum("cb_moulded", wc->cb_moulded, ", ");
        sk_jnum("x2_moulded", wc->x2_moulded, ", ");
        sk_jnum("phi1_moulded_cb_deg", wc->phi1_moulded_cb, ", ");
        sk_jnum("phi1_waterline_breadth_deg", wc->phi1_wl, ", ");
        /* the Code's phi_1 with the excitation the hull meets held still in
         * the peak's wave in place of r: phi_1 goes as sqrt(r s) */
        sk_jnum("phi1_captive_excitation_deg", wc->r > 0.0 ? wc->phi1 * sqrt(w->excitation / wc->r) : NAN, ", ");
        sk_jnum("code_length", wc->code_length, ", ");
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
            sk_jnum("excitation", r->excitation, ", ");
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
        sk_jnum("time", o->stop.done ? o->stop.time : NAN, "}, ");
        printf("\"pull_out\": [");
        for (int i = 0; i < 2; i++) {
            const sk_pullout* po = &o->pullout[i];
            printf("{");
            sk_jnum("rudder_deg", po->rudder_deg, ", ");
            sk_jnum("rate_turn_deg_s", po->done ? po->rate_turn : NAN, ", ");
            sk_jnum("rate_residual_deg_s", po->done ? po->rate_residual : NAN, ", ");
            sk_jnum("time_half", po->done ? po->time_half : NAN, ", ");
            sk_jnum("watch", po->done ? po->watch : NAN, i ? "}" : "}, ");
        }
        printf("]}");
    }
    if (trials & SK_TRIAL_UNDERWAY) {
        printf(", \"head_seas\": {");
        sk_jnum("speed", o->approach.speed, ", ");
        sk_jnum("froude", s->head_froude, ", ");
        sk_jnum("steepness", o->head[0].wavelength > 0.0 ? 2.0 * o->head[0].amplitude / o->head[0].wavelength : NAN, ", ");
        printf("\"damper\": {");
        sk_jnum("heave_omega", t->heave_pitch.heave_omega, ", ");
        sk_jnum("pitch_omega", t->heave_pitch.pitch_omega, ", ");
        sk_jnum("heave_zeta", t->heave_pitch.heave_zeta, ", ");
        sk_jnum("pitch_zeta", t->heave_pitch.pitch_zeta, ", ");
        sk_jnum("heave_triangles", t->heave_pitch.heave_triangles, ", ");
        sk_jnum("pitch_triangles", t->heave_pitch.pitch_triangles, ", ");
        sk_jnum("heave_target", t->heave_pitch.heave_target, ", ");
        sk_jnum("pitch_target", t->heave_pitch.pitch_target, "}, \"runs\": [");
        for (int i = 0; i < SK_HEAD_RUNS; i++) {
            const sk_head* h = &o->head[i];
            printf("%s{", i ? ", " : "");
            sk_jnum("lambda_over_L", h->lambda_ratio, ", ");
            sk_jnum("wavelength", h->wavelength, ", ");
            sk_jnum("period", h->period, ", ");
            sk_jnum("encounter_period", h->encounter, ", ");
            sk_jnum("amplitude", h->amplitude, ", ");
            sk_jnum("speed", h->speed, ", ");
            sk_jnum("heave_per_amplitude", h->heave, ", ");
            sk_jnum("pitch_per_slope", h->pitch, ", ");
            sk_jnum("jmo_heave_per_amplitude", h->jmo_heave, ", ");
            sk_jnum("jmo_pitch_per_slope", h->jmo_pitch, ", ");
            sk_jnum("pitch_max_deg", h->pitch_max_deg, ", ");
            printf("\"capsized\": %s}", h->capsized ? "true" : "false");
        }
        printf("], ");
        sk_jnum("heave_peak", s->head_heave, ", ");
        sk_jnum("pitch_peak", s->head_pitch, ", ");
        sk_jnum("jmo_heave_peak", s->jmo_heave, ", ");
        sk_jnum("jmo_pitch_peak", s->jmo_pitch, "}");
    }
    if (trials & SK_TRIAL_DRIFT) {
        printf(", \"drift\": {");
        sk_jnum("clarke_centre_L", sk_clarke_centre(&t->p), ", ");
        printf("\"manoeuvring\": %s, ", t->manoeuvring_on ? "true" : "false");
        sk_jnum("cross_flow_drag", t->manoeuvring.cross_flow_drag, ", ");
        printf("\"runs\": [");
        for (int v = 0; v < SK_DRIFT_SPEEDS; v++)
            for (int k = 0; k < SK_DRIFT_ANGLES; k++) {
                const sk_drift* d = &o->drift[v][k];
                printf("%s{", v || k ? ", " : "");
                sk_jnum("speed", d->speed, ", ");
                sk_jnum("drift_deg", d->drift_deg, ", ");
                sk_jnum("surge_force", d->ok ? d->x : NAN, ", ");
                sk_jnum("sway_force", d->ok ? d->y : NAN, ", ");
                sk_jnum("yaw_moment", d->ok ? d->n : NAN, ", ");
                sk_jnum("sway_coefficient", d->ok ? d->y_coef : NAN, ", ");
                sk_jnum("clarke_sway_coefficient", sk_clarke_sway(&t->p, d->drift_deg * NV_PI / 180.0), ", ");
                sk_jnum("centre_L", d->ok ? d->centre : NAN, ", ");
                sk_jnum("model_sway_coefficient", d->ok ? d->model_y_coef : NAN, ", ");
                sk_jnum("model_centre_L", d->ok ? d->model_centre : NAN, ", ");
                sk_jnum("heel_deg", d->ok ? d->heel_deg : NAN, "}");
            }
        printf("], \"turns\": [");
        for (int v = 0; v < SK_DRIFT_SPEEDS; v++)
            for (int k = 0; k < SK_TURN_RATES; k++) {
                const sk_drift* d = &o->turn_arm[v][k];
                printf("%s{", v || k ? ", " : "");
                sk_jnum("speed", d->speed, ", ");
                sk_jnum("turn", d->turn, ", ");
                sk_jnum("sway_force", d->ok ? d->y : NAN, ", ");
                sk_jnum("yaw_moment", d->ok ? d->n : NAN, ", ");
                sk_jnum("sway_coefficient", d->ok ? d->y_coef : NAN, ", ");
                sk_jnum("yaw_coefficient", d->ok ? d->n_coef : NAN, ", ");
                sk_jnum("model_yaw_coefficient", d->ok ? d->model_n_coef : NAN, ", ");
                sk_jnum("heel_deg", d->ok ? d->heel_deg : NAN, "}");
            }
        printf("]}");
    }
    if (trials & SK_TRIAL_BREAKER) {
        printf(", \"breaker\": {\"applies\": %s, ", sk_breaker_applies(t) ? "true" : "false");
        sk_jnum("crest_speed_ratio", WATER_BREAKING_JET, ", ");
        sk_jnum("rolled_deg", SK_BREAKER_ROLLED_DEG, ", ");
        sk_jnum("steepness", SK_BREAKER_STEEPNESS, ", ");
        printf("\"runs\": [");
        for (int i = 0; i < SK_BREAKER_RUNS; i++) {
            const sk_breaker* b = &o->breaker[i];
            printf("%s{", i ? ", " : "");
            sk_jnum("height_ratio", b->height_ratio, ", ");
            sk_jnum("from_deg", b->heading_deg, ", ");
            sk_jnum("height", b->height, ", ");
            sk_jnum("wavelength", b->wavelength, ", ");
            sk_jnum("phase_speed", b->speed, ", ");
            sk_jnum("tilt_before_deg", b->done ? b->tilt_before : NAN, ", ");
            sk_jnum("tilt_max_deg", b->done ? b->tilt_max : NAN, ", ");
            printf("\"rolled\": %s}", b->rolled ? "true" : "false");
        }
        printf("]}");
    }
    if ((trials & SK_TRIAL_STABILITY) && o->stability_rc == 0) {
        const sk_stability* st = &o->stability;
        printf(", \"stability\": {");
        sk_jnum("gm0", st->gm0, ", ");
        sk_jnum("area_0_30", st->area30, ", ");
        sk_jnum("area_0_40", st->area40, ", ");
        sk_jnum("area_30_40", st->area30_40, ", ");
        sk_jnum("gz_30_or_more", st->gz30, ", ");
        sk_jnum("gz_max", st->gz_max, ", ");
        sk_jnum("heel_gz_max_deg", st->heel_gz_max, ", ");
        sk_jnum("vanishing_deg", st->vanish, ", ");
        sk_jnum("deck_edge_deg", st->deck_edge > 0.0 ? st->deck_edge : NAN, ", ");
        sk_jnum("freeboard", st->freeboard, ", ");
        sk_jnum("windage", st->windage, ", ");
        sk_jnum("lever_z", st->lever_z, ", ");
        sk_jnum("lw1", st->lw1, ", ");
        sk_jnum("lw2", st->lw2, ", ");
        sk_jnum("phi0_deg", st->phi0, ", ");
        sk_jnum("phi0_limit_deg", st->phi0_limit, ", ");
        sk_jnum("phi_x_deg", st->phi_x, ", ");
        sk_jnum("phi_c_deg", st->phi_c, ", ");
        sk_jnum("phi2_deg", st->phi2, ", ");
        sk_jnum("phi1_deg", st->phi1, ", ");
        sk_jnum("area_a", st->area_a, ", ");
        sk_jnum("area_b", st->area_b, ", ");
        sk_jnum("phi1_measured_deg", s->stab_phi1_sim, ", ");
        sk_jnum("area_a_measured", s->stab_area_a_sim, ", ");
        sk_jnum("area_b_measured", s->stab_area_b_sim, ", ");
        sk_jnum("heel_from_deg", st->heel0, ", ");
        sk_jnum("heel_step_deg", st->step, ", ");
        if (st->error[0]) {
            printf("\"curve_note\": ");
            sk_jstr(st->error);
            printf(", ");
        }
        printf("\"gz\": [");
        for (int i = 0; i < st->n; i++) printf("%s%.6g", i ? ", " : "", st->gz[i]);
        printf("], \"trim_deg\": [");
        for (int i = 0; i < st->n; i++) printf("%s%.6g", i ? ", " : "", st->trim[i]);
        printf("]}");
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

void sk_text_type(const sk_type* t, const sk_results* o, const sk_summary* s, unsigned trials) {
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
        printf("IS Code weather criterion: L %.2f m (Load Line), B %.2f m (moulded), r %.3f (OG %.2f m), T %.2f s, s %.4f, X1 %.3f, X2 %.3f "
               "(C_b %.3f), k %.3f (A_k 100 / L B %.2f): phi_1 %.1f deg; %.1f with C_b over B (%.3f, X2 %.3f); %.1f with "
               "the waterline's %.2f m for B\n",
               wc->code_length, wc->B, wc->r, wc->og_code, wc->T, wc->s, wc->x1, wc->x2, wc->cb, wc->k, wc->ak_ratio, wc->phi1,
               wc->phi1_moulded_cb, wc->cb_moulded, wc->x2_moulded, wc->phi1_wl, wc->b_wl);
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
        printf("  pull-out from %.0f deg (MSC/Circ.1053; reported):", SK_PULLOUT_RUDDER);
        for (int i = 0; i < 2; i++) {
            const sk_pullout* po = &o->pullout[i];
            if (!po->done) {
                printf("%s %s: %s", i ? ";" : "", i ? "port" : "starboard",
                       po->steady ? "capsized or frozen in the watch" : "no steady turn");
                continue;
            }
            const double residual = fabs(po->rate_residual) < 0.0005 ? 0.0 : po->rate_residual; /* no "-0.000" */
            printf("%s %s %.2f deg/s, after %.0f s %.3f deg/s", i ? ";" : "", i ? "port" : "starboard", po->rate_turn,
                   po->watch, residual);
            if (isnan(po->time_half))
                printf(" (never halved)");
            else
                printf(" (halved in %.0f s)", po->time_half);
        }
        printf("\n");
    }
    if (trials & SK_TRIAL_UNDERWAY) {
        const nv_heave_pitch_damper* d = &t->heave_pitch;
        printf("head seas at full speed (%.2f m/s, Fn %.2f), steepness 1/%.0f, heading held: heave/A, pitch/kA against "
               "JMO's closed forms; heave and pitch damping %.3f and %.3f of critical at %.2f and %.2f s (the triangles' "
               "own %.3f, %.3f)\n",
               o->approach.speed, s->head_froude, o->head[0].wavelength / (2.0 * o->head[0].amplitude), d->heave_zeta,
               d->pitch_zeta, d->heave_omega > 0.0 ? 2.0 * NV_PI / d->heave_omega : 0.0,
               d->pitch_omega > 0.0 ? 2.0 * NV_PI / d->pitch_omega : 0.0,
               d->heave_target > 0.0 ? d->heave_zeta * d->heave_triangles / d->heave_target : 0.0,
               d->pitch_target > 0.0 ? d->pitch_zeta * d->pitch_triangles / d->pitch_target : 0.0);
        printf("  %6s %7s %7s %7s %7s %7s %7s %7s %8s\n", "lam/L", "T_w s", "T_e s", "U m/s", "heave", "JMO", "pitch",
               "JMO", "pitch max");
        for (int i = 0; i < SK_HEAD_RUNS; i++) {
            const sk_head* h = &o->head[i];
            printf("  %6.2f %7.2f %7.2f %7.2f %7.3f %7.3f %7.3f %7.3f %8.2f%s\n", h->lambda_ratio, h->period, h->encounter,
                   h->speed, h->heave, h->jmo_heave, h->pitch, h->jmo_pitch, h->pitch_max_deg,
                   h->capsized ? " CAPSIZED" : "");
        }
    }
    if (trials & SK_TRIAL_DRIFT) {
        printf("oblique tow (the hull without its rudders, calm water, yaw held): sway force over 1/2 rho L T U^2 and "
               "its centre ahead of the mid-length over L; Clarke's linear part (its centre %.3f L)\n",
               sk_clarke_centre(&t->p));
        printf("  %7s", "U m/s");
        for (int k = 0; k < SK_DRIFT_ANGLES; k++) printf(" %7.0f", sk_drift_angle[k]);
        printf("  (drift, deg)\n");
        for (int v = 0; v < SK_DRIFT_SPEEDS; v++) {
            printf("  %7.2f", o->drift[v][0].speed);
            for (int k = 0; k < SK_DRIFT_ANGLES; k++)
                if (o->drift[v][k].ok)
                    printf(" %7.4f", o->drift[v][k].y_coef);
                else printf(" %7s", "-");
            printf("  sway\n  %7s", "");
            for (int k = 0; k < SK_DRIFT_ANGLES; k++)
                if (o->drift[v][k].ok)
                    printf(" %7.3f", o->drift[v][k].centre);
                else printf(" %7s", "-");
            printf("  centre\n");
        }
        printf("  %7s", "Clarke");
        for (int k = 0; k < SK_DRIFT_ANGLES; k++) printf(" %7.4f", sk_clarke_sway(&t->p, sk_drift_angle[k] * NV_PI / 180.0));
        printf("  sway\n");
        /* the model at full speed (it is the same at every speed but for the
         * lift's cos beta on |u|) */
        const sk_drift* full = o->drift[SK_DRIFT_SPEEDS - 1];
        printf("  %7s", "model");
        for (int k = 0; k < SK_DRIFT_ANGLES; k++) printf(" %7.4f", full[k].model_y_coef);
        printf("  sway (Clarke's lift and a cross-flow drag C_D %.3f%s)\n  %7s", t->manoeuvring.cross_flow_drag,
               t->manoeuvring_on ? "" : "; the type does not apply it", "");
        for (int k = 0; k < SK_DRIFT_ANGLES; k++) printf(" %7.3f", full[k].model_centre);
        printf("  centre\n");
        printf("rotating arm (the same hull, no drift, turning at r L / U): yaw moment against the turn over "
               "1/2 rho L^2 T U^2\n");
        printf("  %7s", "U m/s");
        for (int k = 0; k < SK_TURN_RATES; k++) printf(" %7.2f", sk_turn_rate[k]);
        printf("  (r L / U)\n");
        for (int v = 0; v < SK_DRIFT_SPEEDS; v++) {
            printf("  %7.2f", o->turn_arm[v][0].speed);
            for (int k = 0; k < SK_TURN_RATES; k++)
                if (o->turn_arm[v][k].ok)
                    printf(" %7.4f", o->turn_arm[v][k].n_coef);
                else printf(" %7s", "-");
            printf("  yaw\n");
        }
        printf("  %7s", "model");
        for (int k = 0; k < SK_TURN_RATES; k++) printf(" %7.4f", o->turn_arm[SK_DRIFT_SPEEDS - 1][k].model_n_coef);
        printf("  yaw\n");
    }
    if (trials & SK_TRIAL_BREAKER) {
        printf("struck at rest by one breaking crest (a regular wave at H / lambda %.3f, its crest's water at %.1f x the "
               "phase speed for one period): largest tilt, deg\n",
               SK_BREAKER_STEEPNESS, WATER_BREAKING_JET);
        printf("  %7s %7s %8s %8s %8s %8s\n", "H / L", "from", "H m", "c m/s", "before", "after");
        for (int i = 0; i < SK_BREAKER_RUNS; i++) {
            const sk_breaker* b = &o->breaker[i];
            printf("  %7.2f %7.0f %8.2f %8.2f %8.1f %8.1f%s\n", b->height_ratio, b->heading_deg, b->height, b->speed,
                   b->tilt_before, b->tilt_max, b->rolled ? " ROLLED" : "");
        }
    }
    if ((trials & SK_TRIAL_STABILITY) && o->stability_rc == 0) {
        const sk_stability* st = &o->stability;
        printf("righting levers on flat water, the trim free (GZ m by heel deg; 180 keel-up):\n  ");
        for (int i = 0; i < st->n; i++) {
            double heel = st->heel0 + st->step * i;
            if (heel >= 0.0 && fmod(heel, 10.0) == 0.0) printf(" %5.0f", heel);
        }
        printf("\n  ");
        for (int i = 0; i < st->n; i++) {
            double heel = st->heel0 + st->step * i;
            if (heel >= 0.0 && fmod(heel, 10.0) == 0.0) printf(" %5.3f", fabs(st->gz[i]) < 5e-4 ? 0.0 : st->gz[i]);
        }
        printf("\n  ");
        if (st->deck_edge > 0.0) printf("deck edge immersed at %.1f deg; ", st->deck_edge);
        printf("GZ largest %.3f m at %.0f deg; ", st->gz_max, st->heel_gz_max);
        if (isfinite(st->vanish)) printf("vanishes at %.1f deg\n", st->vanish);
        else printf("does not vanish by %.0f deg\n", st->heel0 + st->step * (st->n - 1));
        if (st->error[0]) printf("  %s\n", st->error);
    }
    for (int i = 0; i < s->check_count; i++)
        printf("  %-6s %-26s %s\n", sk_status_names[s->checks[i].status], s->checks[i].name, s->checks[i].text);
}
