// SPDX-License-Identifier: MIT
/* naval-envelope's arguments, runs and results, shared by the sweep
 * (naval_envelope.c) and its tables (envelope_report.c). */
#ifndef NAVAL_ENVELOPE_H
#define NAVAL_ENVELOPE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "naval/scenario.h"
#include "naval/vessel_type.h"

#define ENV_MAX_TYPES 16
#define ENV_MAX_BEAUFORT 13
#define ENV_MAX_SPEEDS 8
#define ENV_MAX_HEADINGS 12
#define ENV_MAX_SEEDS 1000

/* The sea (as the server's default world: JONSWAP, 100 km fetch, one
 * 600 m cascade at 256^2 on the surface-grid fast path), the wind (and so
 * the waves' direction of travel) toward -30 degrees as headings. */
#define ENV_FETCH 100000.0
#define ENV_TILE 600.0
#define ENV_RESOLUTION 256
#define ENV_WIND_DIR -30.0

/* The named speeds (throttle) and headings to the waves (degrees). */
extern const char* const env_speed_names[3];
extern const double env_speed_values[3];
extern const char* const env_heading_names[5];
extern const double env_heading_values[5];

typedef struct env_type {
    char spec[VESSEL_TYPE_PATH_MAX];
    char name[VESSEL_TYPE_NAME_MAX];
    int rated; /* rated_beaufort, -1 none */
} env_type;

typedef struct env_args {
    env_type types[ENV_MAX_TYPES];
    uint32_t type_count;
    int beaufort[ENV_MAX_BEAUFORT];
    uint32_t beaufort_count;
    double speeds[ENV_MAX_SPEEDS];
    uint32_t speed_count;
    double headings[ENV_MAX_HEADINGS];
    uint32_t heading_count;
    uint64_t seeds, seed_base, threads;
    double minutes, spacing;
    int json, check, quiet;
} env_args;

/* One boat's run. */
typedef struct env_run {
    int capsized, frozen;
    double capsize_time; /* s */
    double max_heel;     /* |heel|, degrees (past 90 when capsized) */
    double heading_sq;   /* sum of squared heading errors (deg^2), second half of the run */
    double speed_sum;    /* sum of horizontal speeds (m/s), second half */
    uint64_t samples;    /* the second half's steps observed */
} env_run;

/* One (Beaufort, seed): the sea it got. */
typedef struct env_sea {
    double wind, hs, tp;
} env_sea;

typedef struct env_ctx {
    const env_args* a;
    const nv_scenario* base;
    uint64_t steps;
    double tick_hz;
    uint32_t worlds, boats;
    env_run* runs; /* [world * boats + boat] */
    env_sea* seas; /* [world] */
    atomic_uint next;
    atomic_int failed;
    pthread_mutex_t lock; /* FFTW planning (ocean create and destroy), stderr */
    char error[512];
    double t0;
} env_ctx;

typedef struct env_verdict {
    int first_capsize; /* the lowest Beaufort with a capsize, -1 none */
    int clear_to;      /* the highest swept Beaufort with none at or below it, -1 none */
    int holds;         /* 1 / 0; -1 unrated or nothing swept at or below the rating */
} env_verdict;

/* A type's verdict over the swept Beaufort numbers. */
env_verdict env_verdict_of(const env_ctx* c, uint32_t ti);
/* The results as a table, or as one JSON object, on stdout. */
void env_print_text(const env_ctx* c);
void env_print_json(const env_ctx* c);

#endif
