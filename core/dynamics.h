// SPDX-License-Identifier: MIT
/* The forces on one vessel that are not per triangle: its actuators under
 * the controls' rate limits, Kerner's area-ratio damping, the cap that keeps
 * slamming from throwing a body back, the viscous roll damping, gravity,
 * and added mass, assembled
 * into the world-frame force and torque the integrator applies.
 * The per-triangle forces come in as the triangle pass's sums. */
#ifndef NAVAL_DYNAMICS_H
#define NAVAL_DYNAMICS_H

#include "body.h"
#include "hydro.h"
#include "naval/actuator.h"
#include "naval/hull.h"
#include "naval/heave_pitch.h"
#include "naval/hydrodyn.h"
#include "naval/manoeuvring.h"
#include "naval/particulars.h"
#include "naval/roll_damping.h"
#include "naval/vessel_type.h"
#include "naval/water.h"

/* The rates the damping fits are taken at (rad/s, rad/s, m/s). */
#define DYNAMICS_DAMPING_ROLL_RATE 0.2
#define DYNAMICS_DAMPING_PITCH_RATE 0.1
#define DYNAMICS_DAMPING_HEAVE_RATE 0.2
#define DYNAMICS_RUNNING_SPEEDS 25 /* Cv 1 to 7 */
#define DYNAMICS_RUNNING_STEP 0.25

/* The mesh's own horizontal resistance, for the models that have no
 * triangles (the columns): the triangle pass run once per type on the
 * upright hull at rest on still water, moving in surge, in sway and in yaw
 * at a reference rate and half of it, each fitted as k1 x + k2 |x| x.
 * Applied in proportion to the volume immersed: the resistance ahead
 * past the rest volume too, the rest up to it (dynamics_hull_drag_apply). */
typedef struct dynamics_hull_drag {
    int valid;
    double surge[2], sway[2], yaw[2]; /* N per m/s and per (m/s)^2; N m per rad/s and per (rad/s)^2 */
    double sway_yaw, yaw_sway;        /* the couplings: yaw moment per m/s of sway (N s), sway force per rad/s of yaw (N s) */
    /* What the triangles' pressure drag adds to the damping of roll, pitch
     * and heave as the hull moves ahead (Kerner's pressure grows with the
     * whole flow's speed: at 10 m/s the skiff's roll damping is 18 times
     * its damping at rest), fitted as k1 u + k2 u^2 at surge u: the
     * columns, whose own damping is the hull's at rest, take it on. */
    double speed_damping[3][2];       /* roll (N m s), pitch (N m s), heave (N s); per m/s and (m/s)^2 */
    double rest_damping[3];           /* the same at rest */
    double volume;                    /* m^3 displaced at rest: what "immersed" is a fraction of */
    double cg_height;                 /* the CG above the waterline at rest, m */
    /* A type with a planing bottom runs on the mesh at Savitsky's trim and
     * rise, not at rest: its resistance there, its sway and yaw derivatives
     * there (the wetted hull is the aft part: what keeps it running
     * straight once its rudder is clear of the water), and how much deeper
     * (+) or shallower its propellers and rudders are than at rest, at
     * speed coefficients Cv = u / running_unit of 1 + k
     * DYNAMICS_RUNNING_STEP (k < running_count; stops at the first speed
     * without a planing equilibrium). The far models take them in over Cv
     * 1..2 as the mesh takes its planing lift (dynamics_hull_drag_apply,
     * dynamics_floater_manoeuvre, dynamics_running_depths). */
    double running_unit;              /* sqrt(g b), m/s; 0: none */
    double mass;                      /* kg: a planing hull banks into its turn (dynamics_lateral_at) */
    uint32_t running_count;
    double running_resistance[DYNAMICS_RUNNING_SPEEDS]; /* N */
    /* sway force -(Y_v v + Y_r r) (N), yaw moment -(N_v v + N_r r) (N m):
     * {Y_v, Y_r, N_v, N_r} per m/s and per rad/s */
    double running_lateral[DYNAMICS_RUNNING_SPEEDS][4];
    /* roll, pitch and heave damping at the running attitude, the planing
     * lift's included (as speed_damping, not less the rest's) */
    double running_damping[DYNAMICS_RUNNING_SPEEDS][3];
    double running_depth[DYNAMICS_RUNNING_SPEEDS][ACTUATOR_MAX_PROPELLERS + ACTUATOR_MAX_RUDDERS]; /* m */
    /* the wetted area at the running attitude over the upright one: the
     * share of the added mass the planing mesh carries */
    double running_wetted[DYNAMICS_RUNNING_SPEEDS];
    /* the type's manoeuvring model gives the sway force and yaw moment
     * (dynamics_manoeuvre below): the fitted sway and yaw laws above are
     * left out */
    int lateral_from_model;
} dynamics_hull_drag;

/* Savitsky's planing lift on a type that declares a planing bottom
 * (naval/planing.h; docs/hydrodynamics.md, "The planing lift"): the
 * dynamic lift at its centre, following the flow at the transom, with
 * slender-body theory's pitch damping, in place of what the triangles' own
 * pressure drag gives the prismatic bottom (tabulated once per type, so
 * that the pressure is not counted twice). */
#define DYNAMICS_PLANING_TRIMS 41  /* 0 to 20 degrees */
#define DYNAMICS_PLANING_DEPTHS 33 /* 0 to the hull's depth */
#define DYNAMICS_PLANING_TRIM_MAX_DEG 20.0
typedef struct dynamics_planing {
    double beam, deadrise_deg, length; /* the type's planing bottom */
    double transom_x, keel_y;          /* body frame: the keel at the transom (the hull's aftmost x, lowest y) */
    double span;                       /* m forward of the transom along the keel: the water's slope sampled there */
    double depth_max;                  /* m: the table's deepest transom (the hull's depth) */
    /* [trim][depth]: Kerner's pressure drag on the prismatic bottom's faces
     * (centroid within `length` of the transom, normal with no x part,
     * facing down) wetted with the upright hull at that trim and its keel
     * that deep at the transom on still water, per pascal of (C_PD1 r +
     * C_PD2 r^2) and per sin^f_P of the incidence: force along body x and
     * y (N), moment about body z (N m). */
    double table[DYNAMICS_PLANING_TRIMS][DYNAMICS_PLANING_DEPTHS][3];
} dynamics_planing;

/* A type with "manoeuvring" (naval/manoeuvring.h; docs/hydrodynamics.md,
 * "Manoeuvring forces"): the model's sway force and yaw moment in place of
 * the triangles' own, which the triangle pass sums apart each step
 * (hydro_sums.drag_force, drag_torque). */
typedef struct dynamics_manoeuvre {
    nv_manoeuvring target;
} dynamics_manoeuvre;

/* A hull type's dynamics made ready to run (one per type, shared). */
typedef struct dynamics_model {
    nv_hydrodyn_model hydro;
    nv_actuator_model actuators;
    int slamming;         /* per-triangle slamming state needed */
    int per_triangle;     /* any force computed in the triangle pass */
    double total_area;    /* m^2, the hull's */
    int roll_damping;     /* the roll damper below is applied */
    nv_roll_damper roll;  /* viscous roll damping (Ikeda's, or the type's own) */
    int heave_pitch_damping;         /* the heave and pitch damper below is applied */
    nv_heave_pitch_damper heave_pitch; /* wave radiation damping of heave and pitch */
    nv_particulars particulars; /* upright, level, still water; zero when the hull cannot float */
    dynamics_hull_drag drag;    /* for the columns */
    dynamics_planing* planing;  /* NULL: none (owned; dynamics_model_release frees it) */
    dynamics_manoeuvre* manoeuvre; /* NULL: the triangles' own lateral forces (owned, as planing) */
} dynamics_model;

/* The hull drag's force and moment (body frame, about the CG) at body
 * velocity v (relative to the water) and angular velocity w, for a hull
 * with `immersed` m^3 under water and the body's rotation `rot`: the
 * resistance in surge, sway and yaw, and what its speed ahead adds to the
 * damping of roll, pitch and heave. */
void dynamics_hull_drag_apply(const dynamics_hull_drag* d, const nv_mat3* rot, nv_vec3 v, nv_vec3 w, double immersed,
                              nv_vec3* force, nv_vec3* torque);
/* The surge resistance over the surge speed u (N per m/s): R = rate u. */
double dynamics_hull_drag_surge(const dynamics_hull_drag* d, double u);
/* How far a far model running at surge speed u has taken on its planing
 * attitude (0..1; 0 for a type that does not plane). */
double dynamics_running_share(const dynamics_hull_drag* d, double u);
/* The share of its added mass and inertia a far model running level at
 * surge speed u carries afloat (dynamics_added_share): the running
 * attitude's wetted area over the upright one, blended in as the running
 * table is; 1 for a type that does not plane. */
double dynamics_running_added_share(const dynamics_hull_drag* d, double u);
/* Adds to each actuator point's depth what running at surge speed u
 * changes it by (nothing for a type that does not plane): Savitsky's
 * attitude in place of the rest one, and in place of the model's own
 * heel and trim, `rot` (NULL: level). */
void dynamics_running_depths(const dynamics_hull_drag* d, const nv_actuator_model* a, const nv_mat3* rot, double u,
                             double* depth);

void dynamics_model_init(dynamics_model* m, const nv_vessel_dynamics* d, const nv_hull* h, double gravity);
/* The share of the type's added mass and inertia a hull with `wetted` m^2
 * under water carries: the wetted area over the upright one, at most 1
 * (1 for a hull that cannot float). */
double dynamics_added_share(const dynamics_model* m, double wetted);

/* Within the module (dynamics.c, dynamics_far.c). The triangle pass's
 * force and moment (body frame) on the hull floating upright on still
 * water (heights per vertex), moving at body velocity v and angular
 * velocity w about its CG, less those at rest. */
void dynamics_triangle_motion(const dynamics_model* m, const nv_hull* h, const float* height, nv_vec3 v, nv_vec3 w,
                              double gravity, nv_vec3* force, nv_vec3* torque);
/* The planing lift (body frame, about the CG) with the keel at trim tau
 * over the water line, the transom d deep below it, at `speed` over the
 * water along the heading and `heel`; vb and wb the body's velocities
 * relative to the water, body frame. Returns how far the lift has taken
 * over (0..1); 0 with zero force and moment where it has not. */
double dynamics_planing_lift(const dynamics_model* m, double tau, double d, double speed, double heel, nv_vec3 vb,
                             nv_vec3 wb, double gravity, nv_vec3* force, nv_vec3* torque);
/* k1, k2 >= 0 of r(x) = k1 x + k2 x^2 through r(x) = r1 and r(x / 2) = r2
 * (linear through r1 when the fit would be negative). */
void dynamics_fit_resistance(double x, double r1, double r2, double k[2]);
/* Fills m->drag (the model's particulars and planing bottom ready). */
void dynamics_hull_drag_fit(dynamics_model* m, const nv_hull* h, double gravity);
/* The model of a type with "manoeuvring" (m's particulars ready); NULL
 * when the hull has no waterline to take Clarke's derivatives from. */
dynamics_manoeuvre* dynamics_manoeuvre_build(const dynamics_model* m, const nv_hull* h);
/* Adds to a body-frame force and torque (about the CG) the model's sway
 * force and yaw moment at body velocity vb (relative to the water) and
 * angular velocity wb, times `share` (the hull's immersion), less the
 * triangles' own moving-water sway force and yaw moment in `triangles`
 * (the pass's drag_force and drag_torque, body frame; NULL for the
 * columns, which left their fitted lateral laws out). */
void dynamics_manoeuvre_apply(const dynamics_model* m, nv_vec3 vb, nv_vec3 wb, const hydro_sums* triangles,
                              double share, nv_vec3* force, nv_vec3* torque);
/* Frees what the model owns (not the model itself). */
void dynamics_model_release(dynamics_model* m);

/* A floater's manoeuvring (it has no forces of its own: its surface
 * follower sets height, heel and trim): surge, sway and yaw rate under its
 * actuators at the rest draft and the hull drag above, one step of dt,
 * the drag implicit. Moves *throttle and *rudder toward their commands
 * through the type's rate limits and updates b's horizontal velocity and
 * yaw rate (world). Returns 0 and changes nothing without a fitted drag. */
int dynamics_floater_manoeuvre(const dynamics_model* m, body* b, double throttle_cmd, double rudder_cmd,
                               double* throttle, double* rudder, double dt);

/* One vessel's step, beyond the triangle pass. */
typedef struct dynamics_vessel {
    const dynamics_model* model; /* NULL: hydrostatics only */
    const body* body;
    hydro_sums sums;             /* the triangle pass's, summed over blocks, BODY frame */
    int triangles;               /* the sums are the triangle pass's (the planing lift corrects them) */
    double water_vertical;       /* the surface's vertical velocity at the CG, m/s */
    double throttle_cmd, rudder_cmd;
    double throttle, rudder;     /* actual: updated here through the rate limits */
    /* the actuator points' depths under the surface, placed by
     * dynamics_actuator_points at the body's pose: the caller samples them,
     * a batch of vessels to one query (world_actuator_depths); read when the
     * model has actuators */
    const double* actuator_depth;
} dynamics_vessel;

/* The most actuator points of a vessel: propellers then rudders. */
#define DYNAMICS_ACTUATOR_POINTS (ACTUATOR_MAX_PROPELLERS + ACTUATOR_MAX_RUDDERS)

/* The world positions of the model's actuator points for a body at
 * `position` turned by `rot` (x, y, z each DYNAMICS_ACTUATOR_POINTS long):
 * their depth is the surface's height there less y. Returns how many. */
uint32_t dynamics_actuator_points(const dynamics_model* m, nv_vec3 position, const nv_mat3* rot, double* x, double* y,
                                  double* z);

typedef struct dynamics_env {
    const nv_water_surface* water;  /* for the planing lift's water line */
    double gravity;
    double linear_damping;       /* the world's plain damping, 1/s */
    double angular_damping;
    double dt;
} dynamics_env;

/* The share k in [0, 1] of an impulsive force f with torque t (world
 * frame, about the CG) that the body may take over dt: at most what stops
 * the point where f acts (r = f x t / |f|^2) along f, against the body's
 * mass as felt at that point, 1 / (1/m + (r x n) . I^-1 (r x n)), n = f /
 * |f|; v is the CG's velocity relative to the water. So an impact off the
 * CG may stop that side of the hull, never spin the hull past it. */
double dynamics_impulse_share(const body* b, nv_vec3 v, nv_vec3 f, nv_vec3 t, double dt);

/* Fills the world-frame force and torque to integrate (gravity included)
 * and the water-and-air part alone (world frame, for the vessel's state). */
void dynamics_assemble(dynamics_vessel* v, const dynamics_env* env, nv_vec3* force, nv_vec3* torque, nv_vec3* water_force,
                       nv_vec3* water_torque);

#endif
