#include "world.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "body.h"
#include "dynamics.h"
#include "hydro.h"

/* A run of one vessel's vertices or triangles: the unit of parallel work. */
typedef struct world_block {
    uint32_t slot;
    uint32_t first;
    uint32_t count;
} world_block;

typedef struct world_type {
    hull hull;
    body body_template; /* mass, inverse mass, inertia and its inverse */
    char name[WORLD_NAME_MAX];
    vessel_dynamics dynamics;   /* as given (hydrostatics only until set) */
    dynamics_model* model;      /* NULL: hydrostatics only, no actuators */
} world_type;

/* Vessel state as structure of arrays, indexed by slot. Every array has
 * `capacity` entries; they are grown together outside the tick. */
typedef struct world_vessels {
    uint32_t *id, *type, *flags;
    double *px, *py, *pz;
    double *qw, *qx, *qy, *qz;
    double *vx, *vy, *vz;
    double *lx, *ly, *lz; /* angular momentum: the integrated state */
    double *wx, *wy, *wz; /* angular velocity, derived */
    double *fx, *fy, *fz, *tx, *ty, *tz;
    float *area;
    float *throttle_cmd, *rudder_cmd; /* commanded */
    float *throttle, *rudder;         /* actual, rate limited */
    float *water_vy;                  /* the surface's vertical velocity at the CG, this step */
    float** slam;                     /* per triangle (types with slamming), else NULL */
    uint32_t* vertex_offset;   /* first entry of the vessel's heights */
    uint32_t* tri_block_first; /* first triangle block of the vessel */
    uint32_t* tri_block_count;
} world_vessels;

struct world {
    world_config cfg;
    double dt;
    jobs* pool;
    uint32_t threads;
    world_water water;
    vec3 wind;          /* m/s, world: the air drag's reference */
    water_flat flat;

    world_type* types;
    uint32_t type_count;

    world_vessels v;
    uint32_t count, capacity;

    uint32_t* id_to_slot; /* UINT32_MAX for despawned ids */
    uint32_t id_capacity, next_id;

    /* Totals for the vessels present; the tables below are reserved at spawn
     * time so that the rebuild between steps never allocates or fails. */
    uint64_t need_heights, need_vertex_blocks, need_tri_blocks;
    float* heights; /* every vessel's vertex heights, back to back */
    uint32_t height_capacity;
    world_block* vertex_blocks;
    uint32_t vertex_block_count, vertex_block_capacity;
    world_block* tri_blocks;
    hydro_sums* tri_sums;
    uint32_t tri_block_count, tri_block_capacity;
    int blocks_dirty;

    hydro_scratch* scratch; /* one per worker */

    uint64_t tick;
    double time;
    world_timing timing;
};

world_config world_config_default(void) {
    world_config c = {
        .tick_hz = 60.0,
        .water_density = 1025.0,
        .gravity = 9.81,
        .linear_damping = 0.0,
        .angular_damping = 0.0,
        .vertex_block = 1024,
        .triangle_block = 2048,
    };
    return c;
}

static double world_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

/* ---- storage ---------------------------------------------------------- */

#define WORLD_DOUBLE_FIELDS(X)                                                                                   \
    X(px) X(py) X(pz) X(qw) X(qx) X(qy) X(qz) X(vx) X(vy) X(vz) X(lx) X(ly) X(lz) X(wx) X(wy) X(wz) X(fx) X(fy) \
        X(fz) X(tx) X(ty) X(tz)
#define WORLD_U32_FIELDS(X) X(id) X(type) X(flags) X(vertex_offset) X(tri_block_first) X(tri_block_count)
#define WORLD_FLOAT_FIELDS(X) X(area) X(throttle_cmd) X(rudder_cmd) X(throttle) X(rudder) X(water_vy)

static int world_grow(void** p, size_t elem, size_t n) {
    void* q = realloc(*p, elem * (n ? n : 1));
    if (!q) return -1;
    *p = q;
    return 0;
}

static int world_reserve_vessels(world* w, uint32_t need, nv_error* err) {
    if (need <= w->capacity) return 0;
    if (need > WORLD_MAX_VESSELS) return nv_error_set(err, "world: at most %u vessels", WORLD_MAX_VESSELS);
    uint32_t cap = w->capacity ? w->capacity : 64;
    while (cap < need) cap *= 2;
    int bad = 0;
#define X(f) bad |= world_grow((void**)&w->v.f, sizeof(double), cap);
    WORLD_DOUBLE_FIELDS(X)
#undef X
#define X(f) bad |= world_grow((void**)&w->v.f, sizeof(uint32_t), cap);
    WORLD_U32_FIELDS(X)
#undef X
#define X(f) bad |= world_grow((void**)&w->v.f, sizeof(float), cap);
    WORLD_FLOAT_FIELDS(X)
#undef X
    bad |= world_grow((void**)&w->v.slam, sizeof(float*), cap);
    if (bad) return nv_error_set(err, "world: out of memory for %u vessels", cap);
    w->capacity = cap;
    return 0;
}

static void world_move_slot(world* w, uint32_t to, uint32_t from) {
#define X(f) w->v.f[to] = w->v.f[from];
    WORLD_DOUBLE_FIELDS(X)
    WORLD_U32_FIELDS(X)
    WORLD_FLOAT_FIELDS(X)
#undef X
    w->v.slam[to] = w->v.slam[from];
}

int world_create(world** out, const world_config* cfg, jobs* pool, nv_error* err) {
    *out = NULL;
    if (!(cfg->tick_hz > 0.0 && cfg->tick_hz <= 10000.0))
        return nv_error_set(err, "world: tick_hz must be in (0, 10000] (got %g)", cfg->tick_hz);
    if (!(cfg->water_density > 0.0) || !(cfg->gravity > 0.0) || !(cfg->linear_damping >= 0.0) ||
        !(cfg->angular_damping >= 0.0))
        return nv_error_set(err, "world: water density and gravity must be positive, damping non-negative");
    if (cfg->vertex_block < 16 || cfg->triangle_block < 16)
        return nv_error_set(err, "world: vertex_block and triangle_block must be at least 16");
    world* w = calloc(1, sizeof *w);
    if (!w) return nv_error_set(err, "world: out of memory");
    w->cfg = *cfg;
    w->dt = 1.0 / cfg->tick_hz;
    w->pool = pool;
    w->threads = pool ? jobs_thread_count(pool) : 1;
    water_flat_init(&w->flat, 0.0);
    w->water.surface = &w->flat.base;
    w->types = calloc(WORLD_MAX_HULL_TYPES, sizeof *w->types);
    w->scratch = calloc(w->threads, sizeof *w->scratch);
    if (!w->types || !w->scratch) {
        world_destroy(w);
        return nv_error_set(err, "world: out of memory");
    }
    for (uint32_t i = 0; i < w->threads; i++)
        if (hydro_scratch_alloc(&w->scratch[i], cfg->vertex_block, err)) {
            world_destroy(w);
            return -1;
        }
    *out = w;
    return 0;
}

void world_destroy(world* w) {
    if (!w) return;
    if (w->types)
        for (uint32_t i = 0; i < w->type_count; i++) {
            hull_destroy(&w->types[i].hull);
            free(w->types[i].model);
        }
    if (w->v.slam)
        for (uint32_t s = 0; s < w->count; s++) free(w->v.slam[s]);
    free(w->types);
    if (w->scratch)
        for (uint32_t i = 0; i < w->threads; i++) hydro_scratch_free(&w->scratch[i]);
    free(w->scratch);
#define X(f) free(w->v.f);
    WORLD_DOUBLE_FIELDS(X)
    WORLD_U32_FIELDS(X)
    WORLD_FLOAT_FIELDS(X)
#undef X
    free(w->v.slam);
    free(w->id_to_slot);
    free(w->heights);
    free(w->vertex_blocks);
    free(w->tri_blocks);
    free(w->tri_sums);
    free(w);
}

void world_set_water(world* w, const world_water* water) {
    if (water && water->surface) w->water = *water;
    else {
        w->water.surface = &w->flat.base;
        w->water.update = NULL;
        w->water.ctx = NULL;
    }
}

/* ---- hull types ------------------------------------------------------- */

int world_add_hull_type(world* w, const char* name, const mesh* m, const mass_spec* spec, uint32_t* type_out,
                        nv_error* err) {
    if (w->type_count >= WORLD_MAX_HULL_TYPES) return nv_error_set(err, "world: at most %u hull types", WORLD_MAX_HULL_TYPES);
    if (!name || !name[0] || strlen(name) >= WORLD_NAME_MAX)
        return nv_error_set(err, "world: a hull type needs a name of 1..%d characters", WORLD_NAME_MAX - 1);
    if (world_find_hull_type(w, name) >= 0) return nv_error_set(err, "world: hull type '%s' exists already", name);
    world_type* t = &w->types[w->type_count];
    if (hull_create(&t->hull, m, spec, err)) return nv_error_prefix(err, "hull type '%s'", name);
    if (body_init(&t->body_template, t->hull.body.mass, &t->hull.body.inertia, err)) {
        hull_destroy(&t->hull);
        return nv_error_prefix(err, "hull type '%s'", name);
    }
    strcpy(t->name, name);
    t->dynamics.coeffs = hydrodyn_coeffs_none();
    t->dynamics.coeffs.water_density = w->cfg.water_density;
    actuator_set_init(&t->dynamics.actuators);
    t->model = NULL;
    *type_out = w->type_count++;
    return 0;
}

uint32_t world_hull_type_count(const world* w) { return w->type_count; }
const hull* world_hull_type(const world* w, uint32_t type) { return type < w->type_count ? &w->types[type].hull : NULL; }
const char* world_hull_type_name(const world* w, uint32_t type) {
    return type < w->type_count ? w->types[type].name : NULL;
}

int world_find_hull_type(const world* w, const char* name) {
    for (uint32_t i = 0; i < w->type_count; i++)
        if (strcmp(w->types[i].name, name) == 0) return (int)i;
    return -1;
}

/* ---- vessels ---------------------------------------------------------- */

static uint32_t world_slot_of(const world* w, uint32_t id) {
    return id < w->next_id ? w->id_to_slot[id] : UINT32_MAX;
}

static uint32_t world_blocks_of(uint32_t n, uint32_t block) { return n == 0 ? 0 : (n + block - 1) / block; }

/* Grows a table to hold `need` entries (doubling), keeping its contents. */
static int world_reserve_table(void** p, uint32_t* capacity, size_t elem, uint64_t need) {
    if (need <= *capacity) return 0;
    uint64_t cap = *capacity ? *capacity : 256;
    while (cap < need) cap *= 2;
    if (cap > UINT32_MAX) cap = UINT32_MAX;
    if (world_grow(p, elem, (size_t)cap)) return -1;
    *capacity = (uint32_t)cap;
    return 0;
}

/* Room in the per-vertex and per-block tables for one more vessel of `h`. */
static int world_reserve_for(world* w, const hull* h, nv_error* err) {
    uint64_t heights = w->need_heights + h->vertex_count;
    uint64_t vblocks = w->need_vertex_blocks + world_blocks_of(h->vertex_count, w->cfg.vertex_block);
    uint64_t tblocks = w->need_tri_blocks + world_blocks_of(h->triangle_count, w->cfg.triangle_block);
    if (heights > UINT32_MAX || vblocks > UINT32_MAX || tblocks > UINT32_MAX)
        return nv_error_set(err, "spawn: the world would hold more than 2^32 vertices or blocks");
    uint32_t tri_cap = w->tri_block_capacity;
    if (world_reserve_table((void**)&w->heights, &w->height_capacity, sizeof(float), heights) ||
        world_reserve_table((void**)&w->vertex_blocks, &w->vertex_block_capacity, sizeof(world_block), vblocks) ||
        world_reserve_table((void**)&w->tri_sums, &tri_cap, sizeof(hydro_sums), tblocks) ||
        world_reserve_table((void**)&w->tri_blocks, &w->tri_block_capacity, sizeof(world_block), tblocks))
        return nv_error_set(err, "spawn: out of memory for the block tables");
    return 0;
}

static void world_count_vessel(world* w, const hull* h, int sign) {
    w->need_heights += (uint64_t)((int64_t)sign * h->vertex_count);
    w->need_vertex_blocks += (uint64_t)((int64_t)sign * world_blocks_of(h->vertex_count, w->cfg.vertex_block));
    w->need_tri_blocks += (uint64_t)((int64_t)sign * world_blocks_of(h->triangle_count, w->cfg.triangle_block));
}

int world_spawn(world* w, uint32_t type, vec3 position, quat orientation, uint32_t* id_out, nv_error* err) {
    if (type >= w->type_count) return nv_error_set(err, "spawn: no hull type %u (the world has %u)", type, w->type_count);
    if (!v3_is_finite(position)) return nv_error_set(err, "spawn: the position is not finite");
    double qn = sqrt(orientation.w * orientation.w + orientation.x * orientation.x + orientation.y * orientation.y +
                     orientation.z * orientation.z);
    if (!(qn > 1e-9) || !isfinite(qn)) return nv_error_set(err, "spawn: the orientation is not a usable quaternion");
    if (w->next_id == UINT32_MAX) return nv_error_set(err, "spawn: vessel ids are exhausted");
    if (world_reserve_vessels(w, w->count + 1, err)) return -1;
    if (world_reserve_for(w, &w->types[type].hull, err)) return -1;
    float* slam = NULL;
    if (w->types[type].model && w->types[type].model->slamming) {
        slam = calloc(w->types[type].hull.triangle_count ? w->types[type].hull.triangle_count : 1, sizeof(float));
        if (!slam) return nv_error_set(err, "spawn: out of memory for the slamming state");
    }
    if (w->next_id >= w->id_capacity) {
        uint64_t cap = w->id_capacity ? 2ull * w->id_capacity : 256;
        if (cap > UINT32_MAX) cap = UINT32_MAX;
        if (world_grow((void**)&w->id_to_slot, sizeof(uint32_t), (size_t)cap)) {
            free(slam);
            return nv_error_set(err, "spawn: out of memory for the id map");
        }
        w->id_capacity = (uint32_t)cap;
    }
    quat q = quat_normalize(orientation);
    uint32_t s = w->count++;
    uint32_t id = w->next_id++;
    w->id_to_slot[id] = s;
    world_vessels* v = &w->v;
    v->id[s] = id;
    v->type[s] = type;
    v->flags[s] = 0;
    v->px[s] = position.x, v->py[s] = position.y, v->pz[s] = position.z;
    v->qw[s] = q.w, v->qx[s] = q.x, v->qy[s] = q.y, v->qz[s] = q.z;
    v->vx[s] = v->vy[s] = v->vz[s] = 0.0;
    v->lx[s] = v->ly[s] = v->lz[s] = 0.0;
    v->wx[s] = v->wy[s] = v->wz[s] = 0.0;
    v->fx[s] = v->fy[s] = v->fz[s] = 0.0;
    v->tx[s] = v->ty[s] = v->tz[s] = 0.0;
    v->area[s] = 0.0f;
    v->throttle_cmd[s] = v->rudder_cmd[s] = v->throttle[s] = v->rudder[s] = 0.0f;
    v->water_vy[s] = 0.0f;
    v->slam[s] = slam;
    world_count_vessel(w, &w->types[type].hull, +1);
    w->blocks_dirty = 1;
    *id_out = id;
    return 0;
}

int world_despawn(world* w, uint32_t id, nv_error* err) {
    uint32_t s = world_slot_of(w, id);
    if (s == UINT32_MAX) return nv_error_set(err, "despawn: no vessel with id %u", id);
    world_count_vessel(w, &w->types[w->v.type[s]].hull, -1);
    free(w->v.slam[s]);
    w->v.slam[s] = NULL;
    uint32_t last = --w->count;
    if (s != last) {
        world_move_slot(w, s, last);
        w->id_to_slot[w->v.id[s]] = s;
    }
    w->id_to_slot[id] = UINT32_MAX;
    w->blocks_dirty = 1;
    return 0;
}

static body world_load_body(const world* w, uint32_t s) {
    const world_vessels* v = &w->v;
    body b = w->types[v->type[s]].body_template;
    b.position = v3(v->px[s], v->py[s], v->pz[s]);
    b.orientation.w = v->qw[s], b.orientation.x = v->qx[s], b.orientation.y = v->qy[s], b.orientation.z = v->qz[s];
    b.velocity = v3(v->vx[s], v->vy[s], v->vz[s]);
    b.angular_momentum = v3(v->lx[s], v->ly[s], v->lz[s]);
    b.angular_velocity = v3(v->wx[s], v->wy[s], v->wz[s]);
    return b;
}

static void world_store_body(world* w, uint32_t s, const body* b) {
    world_vessels* v = &w->v;
    v->px[s] = b->position.x, v->py[s] = b->position.y, v->pz[s] = b->position.z;
    v->qw[s] = b->orientation.w, v->qx[s] = b->orientation.x, v->qy[s] = b->orientation.y, v->qz[s] = b->orientation.z;
    v->vx[s] = b->velocity.x, v->vy[s] = b->velocity.y, v->vz[s] = b->velocity.z;
    v->lx[s] = b->angular_momentum.x, v->ly[s] = b->angular_momentum.y, v->lz[s] = b->angular_momentum.z;
    v->wx[s] = b->angular_velocity.x, v->wy[s] = b->angular_velocity.y, v->wz[s] = b->angular_velocity.z;
}

int world_set_velocity(world* w, uint32_t id, vec3 velocity, vec3 angular_velocity, nv_error* err) {
    uint32_t s = world_slot_of(w, id);
    if (s == UINT32_MAX) return nv_error_set(err, "no vessel with id %u", id);
    if (!v3_is_finite(velocity) || !v3_is_finite(angular_velocity))
        return nv_error_set(err, "vessel %u: velocities must be finite", id);
    body b = world_load_body(w, s);
    b.velocity = velocity;
    body_set_angular_velocity(&b, angular_velocity);
    world_store_body(w, s, &b);
    return 0;
}

int world_vessel_get(const world* w, uint32_t id, world_vessel_state* out) {
    uint32_t s = world_slot_of(w, id);
    if (s == UINT32_MAX) return -1;
    const world_vessels* v = &w->v;
    out->id = id;
    out->type = v->type[s];
    out->flags = v->flags[s];
    out->position = v3(v->px[s], v->py[s], v->pz[s]);
    out->orientation.w = v->qw[s], out->orientation.x = v->qx[s], out->orientation.y = v->qy[s],
    out->orientation.z = v->qz[s];
    out->velocity = v3(v->vx[s], v->vy[s], v->vz[s]);
    out->angular_velocity = v3(v->wx[s], v->wy[s], v->wz[s]);
    out->force = v3(v->fx[s], v->fy[s], v->fz[s]);
    out->torque = v3(v->tx[s], v->ty[s], v->tz[s]);
    out->submerged_area = v->area[s];
    out->throttle = v->throttle_cmd[s];
    out->rudder = v->rudder_cmd[s];
    out->throttle_actual = v->throttle[s];
    out->rudder_actual = v->rudder[s];
    return 0;
}

static double world_clamp_unit(double x) { return x < -1.0 ? -1.0 : (x > 1.0 ? 1.0 : x); }

int world_set_controls(world* w, uint32_t id, double throttle, double rudder, nv_error* err) {
    uint32_t s = world_slot_of(w, id);
    if (s == UINT32_MAX) return nv_error_set(err, "no vessel with id %u", id);
    if (!isfinite(throttle) || !isfinite(rudder))
        return nv_error_set(err, "vessel %u: throttle and rudder must be finite (got %g, %g)", id, throttle, rudder);
    w->v.throttle_cmd[s] = (float)world_clamp_unit(throttle);
    w->v.rudder_cmd[s] = (float)world_clamp_unit(rudder);
    return 0;
}

void world_set_wind(world* w, vec3 wind) {
    if (v3_is_finite(wind)) w->wind = wind;
}

const vessel_dynamics* world_type_dynamics(const world* w, uint32_t type) {
    return type < w->type_count ? &w->types[type].dynamics : NULL;
}

int world_set_type_dynamics(world* w, uint32_t type, const vessel_dynamics* d, nv_error* err) {
    if (type >= w->type_count) return nv_error_set(err, "no hull type %u (the world has %u)", type, w->type_count);
    world_type* t = &w->types[type];
    vessel_dynamics given = *d;
    given.coeffs.water_density = w->cfg.water_density;
    if (hydrodyn_coeffs_validate(&given.coeffs, err) || actuator_set_validate(&given.actuators, err))
        return nv_error_prefix(err, "hull type '%s'", t->name);
    dynamics_model* m = malloc(sizeof *m);
    if (!m) return nv_error_set(err, "hull type '%s': out of memory", t->name);
    dynamics_model_init(m, &given, &t->hull);
    /* Every vessel of the type gets (or drops) its slamming memory now, so
     * that failing leaves the world as it was. */
    float** fresh = NULL;
    if (m->slamming) {
        fresh = calloc(w->count ? w->count : 1, sizeof *fresh);
        if (!fresh) {
            free(m);
            return nv_error_set(err, "hull type '%s': out of memory", t->name);
        }
        for (uint32_t s = 0; s < w->count; s++)
            if (w->v.type[s] == type && !w->v.slam[s]) {
                fresh[s] = calloc(t->hull.triangle_count ? t->hull.triangle_count : 1, sizeof(float));
                if (!fresh[s]) {
                    for (uint32_t k = 0; k < s; k++) free(fresh[k]);
                    free(fresh);
                    free(m);
                    return nv_error_set(err, "hull type '%s': out of memory for slamming state", t->name);
                }
            }
    }
    for (uint32_t s = 0; s < w->count; s++) {
        if (w->v.type[s] != type) continue;
        if (m->slamming) {
            if (fresh[s]) w->v.slam[s] = fresh[s];
        } else {
            free(w->v.slam[s]);
            w->v.slam[s] = NULL;
        }
    }
    free(fresh);
    free(t->model);
    t->model = m;
    t->dynamics = given;
    return 0;
}

uint32_t world_vessel_count(const world* w) { return w->count; }
uint32_t world_vessel_id_at(const world* w, uint32_t slot) { return slot < w->count ? w->v.id[slot] : UINT32_MAX; }
uint64_t world_tick(const world* w) { return w->tick; }
double world_time(const world* w) { return w->time; }
const world_timing* world_last_timing(const world* w) { return &w->timing; }

/* ---- blocks ----------------------------------------------------------- */

/* Lays out heights and splits every vessel into vertex and triangle blocks,
 * between steps after spawns or despawns, in the room world_spawn reserved. */
static void world_rebuild_blocks(world* w) {
    uint32_t hoff = 0, vb = 0, tb = 0;
    for (uint32_t s = 0; s < w->count; s++) {
        const hull* h = &w->types[w->v.type[s]].hull;
        w->v.vertex_offset[s] = hoff;
        hoff += h->vertex_count;
        for (uint32_t first = 0; first < h->vertex_count; first += w->cfg.vertex_block) {
            uint32_t n = h->vertex_count - first;
            world_block b = {s, first, n < w->cfg.vertex_block ? n : w->cfg.vertex_block};
            w->vertex_blocks[vb++] = b;
        }
        w->v.tri_block_first[s] = tb;
        for (uint32_t first = 0; first < h->triangle_count; first += w->cfg.triangle_block) {
            uint32_t n = h->triangle_count - first;
            world_block b = {s, first, n < w->cfg.triangle_block ? n : w->cfg.triangle_block};
            w->tri_blocks[tb++] = b;
        }
        w->v.tri_block_count[s] = tb - w->v.tri_block_first[s];
    }
    w->vertex_block_count = vb;
    w->tri_block_count = tb;
    w->blocks_dirty = 0;
}

/* ---- the passes ------------------------------------------------------- */

static mat3 world_rotation(const world* w, uint32_t s) {
    quat q = {w->v.qw[s], w->v.qx[s], w->v.qy[s], w->v.qz[s]};
    return quat_to_mat3(q);
}

static void world_vertex_job(void* ctx, uint32_t begin, uint32_t end, uint32_t worker) {
    world* w = ctx;
    hydro_scratch* scratch = &w->scratch[worker];
    for (uint32_t i = begin; i < end; i++) {
        const world_block* b = &w->vertex_blocks[i];
        uint32_t s = b->slot;
        if (w->v.flags[s] & WORLD_VESSEL_FROZEN) continue;
        const hull* h = &w->types[w->v.type[s]].hull;
        mat3 r = world_rotation(w, s);
        vec3 pos = v3(w->v.px[s], w->v.py[s], w->v.pz[s]);
        hydro_vertex_pass(h, b->first, b->count, pos, &r, w->water.surface, scratch,
                          w->heights + w->v.vertex_offset[s]);
        if (b->first == 0 && w->types[w->v.type[s]].model) {
            /* The water's heave at the CG: the moving-water forces are
             * relative to it (one point per vessel, not per vertex: memory) */
            float surface, vertical;
            water_query q = {.count = 1, .x = &pos.x, .z = &pos.z, .height = &surface, .vertical_velocity = &vertical};
            water_sample(w->water.surface, &q);
            w->v.water_vy[s] = isfinite(vertical) ? vertical : 0.0f;
        }
    }
}

static void world_triangle_job(void* ctx, uint32_t begin, uint32_t end, uint32_t worker) {
    (void)worker;
    world* w = ctx;
    double rho_g = w->cfg.water_density * w->cfg.gravity;
    for (uint32_t i = begin; i < end; i++) {
        const world_block* b = &w->tri_blocks[i];
        uint32_t s = b->slot;
        hydro_sums* sum = &w->tri_sums[i];
        hydro_sums_clear(sum);
        if (w->v.flags[s] & WORLD_VESSEL_FROZEN) continue;
        const world_type* type = &w->types[w->v.type[s]];
        hydrodyn_frame frame;
        const hydrodyn_frame* dyn = NULL;
        if (type->model && type->model->per_triangle) {
            mat3 r = world_rotation(w, s);
            vec3 v = v3(w->v.vx[s], w->v.vy[s], w->v.vz[s]), om = v3(w->v.wx[s], w->v.wy[s], w->v.wz[s]);
            hydrodyn_frame_init(&frame, &type->model->hydro, &r, v, om, w->v.water_vy[s], w->wind,
                                type->body_template.mass, type->model->total_area, w->dt);
            dyn = &frame;
        }
        hydro_triangle_pass(&type->hull, w->heights + w->v.vertex_offset[s], b->first, b->count, rho_g, dyn,
                            w->v.slam[s], sum, NULL);
    }
}

static int world_body_is_finite(const body* b) {
    return v3_is_finite(b->position) && v3_is_finite(b->velocity) && v3_is_finite(b->angular_momentum) &&
           v3_is_finite(b->angular_velocity) && isfinite(b->orientation.w) && isfinite(b->orientation.x) &&
           isfinite(b->orientation.y) && isfinite(b->orientation.z);
}

static void world_integrate_job(void* ctx, uint32_t begin, uint32_t end, uint32_t worker) {
    (void)worker;
    world* w = ctx;
    world_vessels* v = &w->v;
    dynamics_env env = {.water = w->water.surface,
                        .gravity = w->cfg.gravity,
                        .linear_damping = w->cfg.linear_damping,
                        .angular_damping = w->cfg.angular_damping,
                        .dt = w->dt};
    for (uint32_t s = begin; s < end; s++) {
        if (v->flags[s] & WORLD_VESSEL_FROZEN) continue;
        /* Block sums added in block order: the same total whatever thread
         * computed each block. */
        hydro_sums total;
        hydro_sums_clear(&total);
        uint32_t first = v->tri_block_first[s], n = v->tri_block_count[s];
        for (uint32_t k = first; k < first + n; k++) {
            const hydro_sums* part = &w->tri_sums[k];
            total.force = v3_add(total.force, part->force);
            total.torque = v3_add(total.torque, part->torque);
            total.slam_force = v3_add(total.slam_force, part->slam_force);
            total.slam_torque = v3_add(total.slam_torque, part->slam_torque);
            total.submerged_area += part->submerged_area;
        }
        body b = world_load_body(w, s);
        dynamics_vessel dv = {.model = w->types[v->type[s]].model,
                              .body = &b,
                              .sums = total,
                              .water_vertical = v->water_vy[s],
                              .throttle_cmd = v->throttle_cmd[s],
                              .rudder_cmd = v->rudder_cmd[s],
                              .throttle = v->throttle[s],
                              .rudder = v->rudder[s]};
        vec3 force, torque, water_force, water_torque;
        dynamics_assemble(&dv, &env, &force, &torque, &water_force, &water_torque);
        v->throttle[s] = (float)dv.throttle;
        v->rudder[s] = (float)dv.rudder;
        v->fx[s] = water_force.x, v->fy[s] = water_force.y, v->fz[s] = water_force.z;
        v->tx[s] = water_torque.x, v->ty[s] = water_torque.y, v->tz[s] = water_torque.z;
        v->area[s] = (float)total.submerged_area;
        body next = b;
        body_integrate(&next, force, torque, w->dt);
        if (!v3_is_finite(force) || !v3_is_finite(torque) || !world_body_is_finite(&next)) {
            /* Contain it: keep the last finite state, at rest, and stop
             * simulating it; nothing it holds reaches another vessel. */
            b.velocity = v3(0, 0, 0);
            b.angular_momentum = v3(0, 0, 0);
            b.angular_velocity = v3(0, 0, 0);
            world_store_body(w, s, &b);
            v->flags[s] |= WORLD_VESSEL_FROZEN;
            continue;
        }
        world_store_body(w, s, &next);
    }
}

static void world_run(world* w, uint32_t count, uint32_t grain, jobs_range_fn* fn) {
    if (count == 0) return;
    if (w->pool) jobs_parallel_for(w->pool, count, grain, fn, w);
    else fn(w, 0, count, 0);
}

void world_step(world* w) {
    if (w->blocks_dirty) world_rebuild_blocks(w);
    double t0 = world_now_ms();
    if (w->water.update) w->water.update(w->water.ctx, w->time, w->pool);
    double t1 = world_now_ms();
    world_run(w, w->vertex_block_count, 1, world_vertex_job);
    double t2 = world_now_ms();
    world_run(w, w->tri_block_count, 1, world_triangle_job);
    double t3 = world_now_ms();
    world_run(w, w->count, 64, world_integrate_job);
    double t4 = world_now_ms();
    w->timing.water_ms = t1 - t0;
    w->timing.vertex_ms = t2 - t1;
    w->timing.triangle_ms = t3 - t2;
    w->timing.integrate_ms = t4 - t3;
    w->timing.step_ms = t4 - t0;
    w->tick++;
    /* From the tick count, not by adding dt: no drift over days. */
    w->time = (double)w->tick * w->dt;
}

/* ---- inspection ------------------------------------------------------- */

static uint64_t world_fnv(uint64_t h, const void* data, size_t n) {
    const unsigned char* p = data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

uint64_t world_state_hash(const world* w) {
    uint64_t h = 0xcbf29ce484222325ull;
    h = world_fnv(h, &w->tick, sizeof w->tick);
    for (uint32_t s = 0; s < w->count; s++) {
        const world_vessels* v = &w->v;
        h = world_fnv(h, &v->id[s], sizeof(uint32_t));
        h = world_fnv(h, &v->flags[s], sizeof(uint32_t));
#define X(f) h = world_fnv(h, &v->f[s], sizeof(double));
        WORLD_DOUBLE_FIELDS(X)
#undef X
        h = world_fnv(h, &v->throttle[s], sizeof(float));
        h = world_fnv(h, &v->rudder[s], sizeof(float));
        if (v->slam[s]) h = world_fnv(h, v->slam[s], w->types[v->type[s]].hull.triangle_count * sizeof(float));
    }
    return h;
}

void world_memory(const world* w, size_t* per_vessel_total, size_t* shared_total) {
    size_t per = (size_t)w->capacity * (22 * sizeof(double) + 6 * sizeof(uint32_t) + 6 * sizeof(float) + sizeof(float*)) +
                 (size_t)w->id_capacity * sizeof(uint32_t) + (size_t)w->height_capacity * sizeof(float) +
                 (size_t)w->vertex_block_capacity * sizeof(world_block) +
                 (size_t)w->tri_block_capacity * (sizeof(world_block) + sizeof(hydro_sums));
    size_t shared = sizeof *w + WORLD_MAX_HULL_TYPES * sizeof(world_type) +
                    (size_t)w->threads * (sizeof(hydro_scratch) + w->cfg.vertex_block * (3 * sizeof(double) + sizeof(float)));
    for (uint32_t i = 0; i < w->type_count; i++) {
        const hull* h = &w->types[i].hull;
        shared += (size_t)h->vertex_count * 3 * sizeof(float) + (size_t)h->triangle_count * (3 * sizeof(uint32_t) + 13 * sizeof(float));
    }
    for (uint32_t s = 0; s < w->count; s++)
        if (w->v.slam[s]) per += (size_t)w->types[w->v.type[s]].hull.triangle_count * sizeof(float);
    for (uint32_t i = 0; i < w->type_count; i++)
        if (w->types[i].model) shared += sizeof(dynamics_model);
    if (per_vessel_total) *per_vessel_total = per;
    if (shared_total) *shared_total = shared;
}
