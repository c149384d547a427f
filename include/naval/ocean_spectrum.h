// SPDX-License-Identifier: MIT
/* Wave spectra for the FFT ocean: frequency spectra (Phillips, Pierson-
 * Moskowitz, JONSWAP, TMA), directional spreading (Tessendorf cos^2,
 * Mitsuyasu cos-2s with optional swell, Donelan-Banner), deep and finite-depth
 * dispersion, the spectrum's m0, the Beaufort table and the hash-seeded
 * Gaussian that gives every wave its random amplitude.
 *
 * Conventions: omega in rad/s, k in rad/m, theta in radians measured from the
 * wind direction; S(omega) in m^2 s, S(k) in m^3, the 2D wavenumber density
 * S(kx, kz) in m^4 (so that sum S dkx dkz = m0, the height variance).
 * Every function here is pure (no global state) and safe on any thread. */
#ifndef NAVAL_OCEAN_SPECTRUM_H
#define NAVAL_OCEAN_SPECTRUM_H

#include <stdint.h>
#include "naval/nv_api.h"

NV_API_BEGIN

typedef enum nv_spectrum_type {
    SPECTRUM_PHILLIPS = 0,          /* Tessendorf's; alpha/2 k^-3 exp(-1/(k L)^2) in k */
    SPECTRUM_PIERSON_MOSKOWITZ = 1, /* fully developed sea; U10 given, U19.5 = 1.075 U10 inside */
    SPECTRUM_JONSWAP = 2,           /* fetch-limited (fetch, gamma), capped at the fully developed sea */
    SPECTRUM_TMA = 3                /* JONSWAP times Kitaigorodskii's depth factor */
} nv_spectrum_type;

typedef enum nv_spreading_type {
    SPREADING_AUTO = 0,          /* COS2 for Phillips, MITSUYASU otherwise */
    SPREADING_COS2 = 1,          /* Tessendorf's |k^ . w^|^2, normalised: cos^2(theta) / pi */
    SPREADING_MITSUYASU = 2,     /* cos-2s with Hasselmann's s(omega), plus swell */
    SPREADING_DONELAN_BANNER = 3 /* beta / (2 tanh(beta pi)) sech^2(beta theta) */
} nv_spreading_type;

/* Fill the inputs, then call nv_spectrum_model_prepare to derive the rest. */
typedef struct nv_spectrum_model {
    /* inputs */
    nv_spectrum_type type;
    nv_spreading_type spreading;
    double gravity;    /* m/s^2, > 0 */
    double wind_speed; /* m/s at 10 m (U10) for every spectrum, >= 0; 0 gives a flat sea */
    double fetch;      /* m, > 0 (JONSWAP, TMA) */
    double depth;      /* m; 0 = deep water, else > 0 (dispersion everywhere, TMA factor) */
    double gamma;      /* JONSWAP peak enhancement, >= 1 (3.3) */
    double swell;      /* 0..1: extra directional narrowing of the cos-2s spreading */
    double scale;      /* multiplies the spectrum (1); set to reach a target Hs */
    double peak_period; /* s; > 0 puts the peak at 2 pi / peak_period (PM, JONSWAP, TMA; the
                           height then comes from a target Hs); 0: from the wind and fetch */
    /* derived by nv_spectrum_model_prepare */
    double alpha;      /* Phillips / PM / JONSWAP energy scale */
    double omega_p;    /* peak of the deep-water formula (rad/s); 0 when flat */
    double phillips_l; /* Phillips' largest wave, U^2 / g */
} nv_spectrum_model;

/* Pierson and Moskowitz's wind was measured at 19.5 m; the project's wind
 * is U10 everywhere. The log profile's ratio (Holthuijsen 2007, "Waves in
 * Oceanic and Coastal Waters"): U19.5 = 1.075 U10. */
#define SPECTRUM_U195_PER_U10 1.075
/* The steepest sea a default peak period makes when only Hs is given:
 * DNV-RP-C205's JONSWAP range 3.6 <= Tp / sqrt(Hs) <= 5 (s, m), i.e.
 * Hs / Lp = 2 pi Hs / (g Tp^2) <= 2 pi / (9.81 * 3.6^2) = 1 / 20.2. */
#define SPECTRUM_MAX_STEEPNESS (2.0 * 3.14159265358979323846 / (9.81 * 3.6 * 3.6))

/* Computes the derived fields; spreading AUTO is resolved here.
 * JONSWAP and TMA (without peak_period) follow Hasselmann's fetch laws,
 * alpha = 0.076 X^-0.22 and w_p = 22 X^-1/3 g / U10 (X = g F / U10^2), up
 * to the fully developed sea: the peak never goes below Pierson-Moskowitz's
 * (0.877 g / U19.5, i.e. the fetch is capped at nv_spectrum_fully_developed_fetch)
 * and the energy m0 never above PM's (alpha is lowered to PM's m0 when the
 * peak enhancement would overshoot it). */
void nv_spectrum_model_prepare(nv_spectrum_model* m);

/* The fetch (m) past which the JONSWAP peak stops moving: where Hasselmann's
 * w_p reaches Pierson-Moskowitz's (g F / U10^2 = 19,600). 0 without wind. */
double nv_spectrum_fully_developed_fetch(double wind_speed, double gravity);
/* The shortest peak period a sea of significant height hs gets by default,
 * sqrt(2 pi hs / (g SPECTRUM_MAX_STEEPNESS)) = 3.6 sqrt(hs) s at g = 9.81. */
double nv_spectrum_min_peak_period(double hs, double gravity);

/* Dispersion: omega^2 = g k tanh(k depth); depth <= 0 means deep water. */
double nv_spectrum_dispersion(double k, double depth, double gravity);
/* d omega / d k for the same relation (the group speed). */
double nv_spectrum_dispersion_derivative(double k, double depth, double gravity);

/* Omnidirectional frequency spectrum S(omega) (m^2 s), including scale. */
double nv_spectrum_omega_density(const nv_spectrum_model* m, double omega);
/* Omnidirectional wavenumber spectrum S(k) = S(omega(k)) d omega / d k (m^3). */
double nv_spectrum_k_density(const nv_spectrum_model* m, double k);
/* Directional spreading D(omega, theta), theta from the wind direction;
 * integrates to 1 over theta in [-pi, pi]. */
double nv_spectrum_spreading(const nv_spectrum_model* m, double omega, double theta);
/* 2D density S(kx, kz) = S(k) D(omega(k), theta) / k (m^4); theta is the
 * angle of k measured from the wind direction wind_dir (radians). */
double nv_spectrum_density_2d(const nv_spectrum_model* m, double kx, double kz, double wind_dir);

/* m0 = integral of S(k) dk (the height variance, m^2); Hs = 4 sqrt(m0). */
double nv_spectrum_m0(const nv_spectrum_model* m);
/* m0 restricted to k_lo <= k < k_hi. */
double nv_spectrum_m0_band(const nv_spectrum_model* m, double k_lo, double k_hi);
/* Peak of S(omega) (rad/s), found numerically (TMA moves it); 0 when flat. */
double nv_spectrum_peak_omega(const nv_spectrum_model* m);

/* Mitsuyasu's normalisation Q(s) = Gamma(s+1) / (2 sqrt(pi) Gamma(s+1/2)),
 * so that Q(s) |cos(theta/2)|^(2s) integrates to 1 over [-pi, pi]. */
double nv_spectrum_cos2s_norm(double s);

/* Beaufort scale 0..12: mean wind speed at 10 m (m/s) and the WMO probable
 * significant wave height in the open sea (m). Negative outside 0..12. */
double nv_spectrum_beaufort_wind(int beaufort);
double nv_spectrum_beaufort_hs(int beaufort);
/* Wind speed (U10) of a fully developed (Pierson-Moskowitz) sea with this Hs:
 * Hs = 0.2092 U19.5^2 / g = 0.2418 U10^2 / g. */
double nv_spectrum_wind_for_hs(double hs, double gravity);

/* splitmix64 finaliser. */
uint64_t nv_spectrum_hash64(uint64_t x);
/* Two independent standard normal numbers from a hash of (seed, cascade, n, m):
 * the same wave always gets the same numbers, whatever the loop order, the
 * thread count or the grid size. */
void nv_spectrum_gaussian_pair(uint64_t seed, int cascade, int n, int m, double out[2]);

NV_API_END

#endif
