// SPDX-License-Identifier: MIT
/* Savitsky's planing equilibrium; the formulas are in naval/planing.h and
 * docs/hydrodynamics.md ("Planing craft"). */
#include "naval/planing.h"

#include <math.h>
#include <string.h>

#include "naval/hydrodyn.h"

#define PLANING_PI 3.14159265358979323846
#define PLANING_DEG (PLANING_PI / 180.0)

void nv_planing_hull_init(nv_planing_hull* h) {
    memset(h, 0, sizeof *h);
    h->water_density = 1025.0;
    h->gravity = 9.81;
    h->viscosity = 1.19e-6;
}

double nv_planing_lift_coefficient(double tau_deg, double lambda, double cv, double deadrise_deg) {
    double cl0 = pow(tau_deg, 1.1) * (0.0120 * sqrt(lambda) + 0.0055 * pow(lambda, 2.5) / (cv * cv));
    return cl0 - 0.0065 * deadrise_deg * pow(cl0, 0.6);
}

double nv_planing_pressure_centre(double lambda, double cv) {
    return lambda * (0.75 - 1.0 / (5.21 * cv * cv / (lambda * lambda) + 2.39));
}

/* lambda carrying lift coefficient `cl` at trim tau; 0 when none in range
 * does (C_Lbeta grows with lambda wherever C_L0 > (0.0039 beta)^2.5). */
static double planing_lambda(double tau_deg, double cv, double beta, double cl) {
    double lo = 1e-3, hi = 50.0;
    if (nv_planing_lift_coefficient(tau_deg, hi, cv, beta) < cl) return 0.0;
    if (nv_planing_lift_coefficient(tau_deg, lo, cv, beta) > cl) return 0.0;
    for (int i = 0; i < 200 && hi - lo > 1e-13 * hi; i++) {
        double mid = 0.5 * (lo + hi);
        if (nv_planing_lift_coefficient(tau_deg, mid, cv, beta) < cl)
            lo = mid;
        else hi = mid;
    }
    return 0.5 * (lo + hi);
}

/* Everything at trim tau; returns the moment about the CG (N m, + bow
 * down), or NAN when no lambda carries the weight. */
static double planing_at(const nv_planing_hull* h, double tau_deg, nv_planing_result* r) {
    double b = h->beam, beta = h->deadrise_deg, v = h->speed, rho = h->water_density;
    double weight = h->mass * h->gravity;
    double q = 0.5 * rho * v * v;
    double cv = v / sqrt(h->gravity * b);
    double cl = weight / (q * b * b);
    double lambda = planing_lambda(tau_deg, cv, beta, cl);
    if (!(lambda > 0.0)) return NAN;
    double tau = tau_deg * PLANING_DEG;
    memset(r, 0, sizeof *r);
    r->tau_deg = tau_deg;
    r->lambda = lambda;
    r->cv = cv;
    r->cl_0 = pow(tau_deg, 1.1) * (0.0120 * sqrt(lambda) + 0.0055 * pow(lambda, 2.5) / (cv * cv));
    r->cl_beta = cl;
    r->pressure_x = b * nv_planing_pressure_centre(lambda, cv);
    double spread = b * tan(beta * PLANING_DEG) / (PLANING_PI * tan(tau));
    r->keel_length = lambda * b + 0.5 * spread;
    r->chine_length = lambda * b - 0.5 * spread;
    r->transom_draft = r->keel_length * sin(tau);
    r->cg_height = h->vcg * cos(tau) - (r->keel_length - h->lcg) * sin(tau);
    r->rise = r->cg_height - h->static_height;
    r->normal_force = weight * cos(tau);
    if (h->friction) {
        /* Savitsky's mean bottom velocity: the dynamic pressure slows the
         * flow along the bottom. */
        double c0 = 0.0120 * sqrt(lambda) * pow(tau_deg, 1.1);
        double reduce = (c0 - 0.0065 * beta * pow(c0, 0.6)) / (lambda * cos(tau));
        double v1 = v * sqrt(reduce < 1.0 ? 1.0 - reduce : 0.0);
        double rn = v1 * lambda * b / h->viscosity;
        double cf = nv_hydrodyn_ittc_cf(rn, 1e5);
        r->friction_drag = 0.5 * rho * v1 * v1 * lambda * b * b * cf / cos(beta * PLANING_DEG);
    }
    r->thrust = weight * sin(tau) + r->friction_drag;
    r->in_range = cv >= 0.6 && cv <= 25.0 && tau_deg >= 2.0 && tau_deg <= 15.0 && lambda <= 4.0 && beta <= 30.0 &&
                  r->chine_length > 0.0;
    double a = h->friction ? h->vcg - 0.25 * b * tan(beta * PLANING_DEG) : 0.0;
    return r->normal_force * (h->lcg - r->pressure_x) + a * r->friction_drag - h->thrust_below * r->thrust;
}

double nv_planing_mean_wetted_length(double beam, double deadrise_deg, double tau_deg, double keel_length,
                                     double length) {
    if (!(beam > 0.0 && keel_length > 0.0 && length > 0.0 && tau_deg > 0.0 && tau_deg < 90.0 &&
          deadrise_deg >= 0.0 && deadrise_deg < 90.0) ||
        !isfinite(beam + keel_length + length))
        return 0.0;
    double chine = keel_length - beam * tan(deadrise_deg * PLANING_DEG) / (PLANING_PI * tan(tau_deg * PLANING_DEG));
    return 0.5 * (fmin(keel_length, length) + fmin(fmax(chine, 0.0), length)) / beam;
}

double nv_planing_dynamic_lift_coefficient(double tau_deg, double lambda, double deadrise_deg) {
    if (!(tau_deg > 0.0 && lambda > 0.0) || !isfinite(tau_deg + lambda + deadrise_deg)) return 0.0;
    double c = 0.0120 * sqrt(lambda) * pow(tau_deg, 1.1);
    double cl = c - 0.0065 * deadrise_deg * pow(c, 0.6);
    return cl > 0.0 ? cl : 0.0;
}

double nv_planing_dynamic_lift_slope(double tau_deg, double lambda, double deadrise_deg) {
    if (!(nv_planing_dynamic_lift_coefficient(tau_deg, lambda, deadrise_deg) > 0.0)) return 0.0;
    double c = 0.0120 * sqrt(lambda) * pow(tau_deg, 1.1);
    double slope = 1.1 * c / tau_deg * (1.0 - 0.0039 * deadrise_deg * pow(c, -0.4)) / PLANING_DEG;
    return slope > 0.0 && isfinite(slope) ? slope : 0.0;
}

/* 0 below a, 1 above b, C1-smooth between. */
static double planing_smoothstep(double x, double a, double b) {
    double t = (x - a) / (b - a);
    if (!(t > 0.0)) return 0.0;
    if (t >= 1.0) return 1.0;
    return t * t * (3.0 - 2.0 * t);
}

double nv_planing_weight(double cv, double tau_deg, double heel_deg) {
    if (!isfinite(cv + tau_deg + heel_deg)) return 0.0;
    double w = planing_smoothstep(cv, 1.0, 2.0);
    w *= 1.0 - planing_smoothstep(tau_deg, 15.0, 20.0);
    w *= 1.0 - planing_smoothstep(fabs(heel_deg), 10.0, 30.0);
    return w;
}

int nv_planing_solve(const nv_planing_hull* h, nv_planing_result* out, nv_error* err) {
    const double in[] = {h->beam, h->lcg, h->mass, h->speed, h->water_density, h->gravity, h->viscosity};
    for (size_t i = 0; i < sizeof in / sizeof in[0]; i++)
        if (!(in[i] > 0.0) || !isfinite(in[i]))
            return nv_error_set(err, "planing: beam, lcg, mass, speed, density, gravity and viscosity must be positive "
                                     "and finite");
    if (!(h->deadrise_deg >= 0.0 && h->deadrise_deg < 60.0) || !isfinite(h->vcg + h->thrust_below + h->static_height))
        return nv_error_set(err, "planing: deadrise must be in [0, 60) degrees, vcg, thrust_below and static_height "
                                 "finite (got %g)",
                            h->deadrise_deg);
    /* The moment grows with trim (lambda shrinks, l_p moves aft): scan for
     * the sign change, then bisect. */
    nv_planing_result r;
    double lo = 0.0, m_lo = NAN;
    for (double t = 0.2; t <= 30.0 + 1e-9; t += 0.1) {
        double m = planing_at(h, t, &r);
        if (isfinite(m) && isfinite(m_lo) && m_lo < 0.0 && m >= 0.0) {
            double hi = t;
            for (int i = 0; i < 100 && hi - lo > 1e-12; i++) {
                double mid = 0.5 * (lo + hi), mm = planing_at(h, mid, &r);
                if (isfinite(mm) && mm < 0.0)
                    lo = mid;
                else hi = mid;
            }
            planing_at(h, 0.5 * (lo + hi), out);
            return 0;
        }
        if (isfinite(m)) lo = t, m_lo = m;
    }
    return nv_error_set(err, "planing: no trim in 0.2..30 degrees balances the weight and moments at %g m/s "
                             "(Cv %.2f): the hull does not plane there",
                        h->speed, h->speed / sqrt(h->gravity * h->beam));
}
