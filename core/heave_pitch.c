// SPDX-License-Identifier: MIT
/* Heave and pitch wave damping, and JMO's closed forms (naval/heave_pitch.h). */
#include "naval/heave_pitch.h"

#include <math.h>
#include <string.h>

#define HEAVE_PITCH_PI 3.14159265358979323846

/* JMO's radiated wave amplitude ratio of a rectangle b x d at wave number
 * k, with their forward-speed factor alpha^2 on the wave number (1 at rest). */
static double heave_pitch_amplitude(double k, double breadth, double draft, double alpha2) {
    return 2.0 * sin(0.5 * k * breadth * alpha2) * exp(-k * draft * alpha2);
}

double nv_heave_pitch_section_damping(double omega, double breadth, double draft, double water_density, double gravity) {
    if (!(omega > 0.0) || !(gravity > 0.0)) return 0.0;
    double a = heave_pitch_amplitude(omega * omega / gravity, breadth, draft, 1.0);
    double b = water_density * gravity * gravity * a * a / (omega * omega * omega);
    return isfinite(b) ? b : 0.0;
}

void nv_heave_pitch_frequencies(const nv_particulars* p, double mass, double added_heave, double pitch_inertia,
                                double added_pitch, double water_density, double gravity, double* heave_omega,
                                double* pitch_omega) {
    double rho_g = water_density * gravity;
    double w3 = sqrt(rho_g * p->waterplane_area / (mass * (1.0 + added_heave)));
    double w5 = sqrt(rho_g * p->volume * p->gm_l / (pitch_inertia * (1.0 + added_pitch)));
    *heave_omega = isfinite(w3) && w3 > 0.0 ? w3 : 0.0;
    *pitch_omega = isfinite(w5) && w5 > 0.0 ? w5 : 0.0;
}

void nv_heave_pitch_damper_init(nv_heave_pitch_damper* d, const nv_particulars* p, double mass, double added_heave,
                                double pitch_inertia, double added_pitch, double triangles_heave,
                                double triangles_pitch, double water_density, double gravity) {
    memset(d, 0, sizeof *d);
    double w3, w5;
    nv_heave_pitch_frequencies(p, mass, added_heave, pitch_inertia, added_pitch, water_density, gravity, &w3, &w5);
    if (!(w3 > 0.0) || !(w5 > 0.0) || !(p->length > 0.0)) return;
    /* JMO's box: the breadth that holds the displacement at the hull's L and d */
    const double breadth = p->block * p->beam, length = p->length;
    d->heave_omega = w3, d->pitch_omega = w5;
    d->heave_target = length * nv_heave_pitch_section_damping(w3, breadth, p->draft, water_density, gravity);
    d->pitch_target = length * length * length / 12.0 * nv_heave_pitch_section_damping(w5, breadth, p->draft, water_density, gravity);
    d->heave_triangles = isfinite(triangles_heave) && triangles_heave > 0.0 ? triangles_heave : 0.0;
    d->pitch_triangles = isfinite(triangles_pitch) && triangles_pitch > 0.0 ? triangles_pitch : 0.0;
    d->heave = fmax(0.0, d->heave_target - d->heave_triangles);
    d->pitch = fmax(0.0, d->pitch_target - d->pitch_triangles);
    d->heave_zeta = d->heave_target / (2.0 * w3 * mass * (1.0 + added_heave));
    d->pitch_zeta = d->pitch_target / (2.0 * w5 * pitch_inertia * (1.0 + added_pitch));
    d->wetted_area = p->wetted_area;
}

void nv_heave_pitch_damper_apply(const nv_heave_pitch_damper* d, double v, double q, double wetted, double* force,
                                 double* moment) {
    double immersion = d->wetted_area > 0.0 ? wetted / d->wetted_area : 0.0;
    if (!(immersion > 0.0)) {
        *force = *moment = 0.0;
        return;
    }
    if (immersion > 1.0) immersion = 1.0;
    *force = -immersion * d->heave * v;
    *moment = -immersion * d->pitch * q;
}

void nv_heave_pitch_closed_form(double omega, double beta, double speed, double length, double breadth, double draft,
                                double block, double gravity, double* heave, double* pitch) {
    *heave = *pitch = 0.0;
    if (!(omega > 0.0) || !(length > 0.0) || !(gravity > 0.0)) return;
    const double k = omega * omega / gravity, b = block * breadth, c = cos(beta);
    const double froude = speed / sqrt(gravity * length);
    const double ke = fabs(k * c), smith = exp(-k * draft);
    const double alpha = 1.0 - froude * sqrt(k * length) * c, a2 = alpha * alpha;
    const double amp = heave_pitch_amplitude(k, b, draft, a2);
    /* the damping's share of the excitation, and the dynamic amplification */
    const double f = sqrt(pow(1.0 - k * draft, 2) + pow(amp * amp / (k * b * a2 * alpha), 2));
    const double eta = 1.0 / sqrt(pow(1.0 - 2.0 * k * draft * a2, 2) + pow(amp * amp / (k * b * a2), 2));
    const double half = 0.5 * ke * length;
    /* the excitation over the length: sin(x)/x for heave; its first moment for pitch */
    double fh, fp;
    if (half < 1e-6) {
        fh = 1.0, fp = 1.0;
    } else {
        fh = sin(half) / half;
        fp = 3.0 * (sin(half) - half * cos(half)) / (half * half * half);
    }
    /* heave per amplitude; pitch (JMO's G, rad per amplitude) per slope:
     * G = smith f 24 / ((ke L)^2 L) (sin - x cos) = k smith f fp, so per
     * wave slope k A it is smith f fp (ke = k in head seas) */
    double h = fabs(eta * smith * f * fh), p = fabs(eta * smith * f * fp * (ke > 0.0 ? ke / k : 0.0));
    *heave = isfinite(h) ? h : 0.0;
    *pitch = isfinite(p) ? p : 0.0;
}
