// SPDX-License-Identifier: MIT
#include "naval/scenario.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "json_ranged.h"
#include "naval/hullgen.h"
#include "naval/ocean_spectrum.h"
#include "ocean_jobs.h"

typedef json_ctx scn_ctx;

/* Optional number within its row of the range table (naval/ranges.h);
 * *out keeps its default when the key is absent. */
static int scn_number(const scn_ctx* c, const cJSON* obj, const char* path, const char* key, nv_range_id id,
                      double* out) {
    return json_get_ranged(c, obj, path, key, id, out) < 0 ? -1 : 0;
}

static int scn_int(const scn_ctx* c, const cJSON* obj, const char* path, const char* key, nv_range_id id,
                   int64_t* out) {
    return json_get_ranged_int(c, obj, path, key, id, out) < 0 ? -1 : 0;
}

/* A vector [x, y, z] whose length is within row id. */
static int scn_vector(const scn_ctx* c, const cJSON* obj, const char* path, const char* key, nv_range_id id,
                      nv_vec3* out) {
    double w[3];
    int n = json_get_ranged_vector(c, obj, path, key, 3, id, w);
    if (n > 0) *out = v3(w[0], w[1], w[2]);
    return n;
}

static int scn_parse_ocean(const scn_ctx* c, const cJSON* o, nv_ocean_params* p) {
    static const char* const keys[] = {"spectrum", "wind",     "wind_dir", "fetch", "depth",      "size", "resolution",
                                       "cascades", "choppiness", "seed",   "beaufort", "hs", "tp", "gamma", "swell",
                                       "query", NULL};
    if (json_check_keys(c, o, "ocean", keys)) return -1;
    *p = nv_ocean_params_default();
    int failed;
    const char* spectrum = json_get_string(c, o, "ocean", "spectrum", false, &failed);
    if (failed) return -1;
    if (spectrum) {
        static const char* const names[] = {"phillips", "pm", "jonswap", "tma"};
        static const nv_spectrum_type types[] = {SPECTRUM_PHILLIPS, SPECTRUM_PIERSON_MOSKOWITZ, SPECTRUM_JONSWAP,
                                              SPECTRUM_TMA};
        int found = -1;
        for (int i = 0; i < 4; i++)
            if (strcmp(spectrum, names[i]) == 0) found = i;
        if (found < 0) return json_fail(c, "ocean.spectrum", "'%s' is not one of phillips, pm, jonswap, tma", spectrum);
        p->spectrum = types[found];
    }
    if (cJSON_GetObjectItemCaseSensitive(o, "beaufort") &&
        (cJSON_GetObjectItemCaseSensitive(o, "wind") || cJSON_GetObjectItemCaseSensitive(o, "hs")))
        return json_fail(c, "ocean", "beaufort sets the wind and the wave height: give it alone, or wind / hs");
    int64_t resolution = p->resolution, cascades = p->cascades, beaufort = p->beaufort, seed = (int64_t)p->seed;
    if (scn_number(c, o, "ocean", "wind", NV_RANGE_OCEAN_WIND, &p->wind_speed) ||
        scn_number(c, o, "ocean", "wind_dir", NV_RANGE_OCEAN_WIND_DIR, &p->wind_direction) ||
        scn_number(c, o, "ocean", "fetch", NV_RANGE_OCEAN_FETCH, &p->fetch) ||
        scn_number(c, o, "ocean", "depth", NV_RANGE_OCEAN_DEPTH, &p->depth) ||
        scn_number(c, o, "ocean", "size", NV_RANGE_OCEAN_SIZE, &p->size) ||
        scn_number(c, o, "ocean", "choppiness", NV_RANGE_OCEAN_CHOPPINESS, &p->choppiness) ||
        scn_number(c, o, "ocean", "hs", NV_RANGE_OCEAN_HS, &p->hs_target) ||
        scn_number(c, o, "ocean", "tp", NV_RANGE_OCEAN_TP, &p->tp) ||
        scn_number(c, o, "ocean", "gamma", NV_RANGE_OCEAN_GAMMA, &p->gamma) ||
        scn_number(c, o, "ocean", "swell", NV_RANGE_OCEAN_SWELL, &p->swell) ||
        scn_int(c, o, "ocean", "resolution", NV_RANGE_OCEAN_RESOLUTION, &resolution) ||
        scn_int(c, o, "ocean", "cascades", NV_RANGE_OCEAN_CASCADES, &cascades) ||
        scn_int(c, o, "ocean", "beaufort", NV_RANGE_OCEAN_BEAUFORT, &beaufort) ||
        scn_int(c, o, "ocean", "seed", NV_RANGE_WORLD_SEED, &seed))
        return -1;
    p->resolution = (int)resolution;
    p->cascades = (int)cascades;
    p->beaufort = cJSON_GetObjectItemCaseSensitive(o, "beaufort") ? (int)beaufort : p->beaufort;
    p->seed = (uint64_t)seed;
    const char* query = json_get_string(c, o, "ocean", "query", false, &failed);
    if (failed) return -1;
    /* The grid is the fast path wherever it applies. */
    p->surface_grid = p->cascades == 1;
    if (query && strcmp(query, "exact") == 0) p->surface_grid = 0;
    else if (query && strcmp(query, "grid") == 0) p->surface_grid = 1;
    else if (query) return json_fail(c, "ocean.query", "'%s' is not one of exact, grid", query);
    nv_error inner;
    if (nv_ocean_params_validate(p, &inner)) return json_fail(c, "ocean", "%s", inner.message);
    return 0;
}

void nv_scenario_hull_from_type(const nv_vessel_type* t, bool has_dynamics, nv_scenario_hull* h) {
    _Static_assert(sizeof h->name == sizeof t->name && sizeof h->source == sizeof t->hull, "name and path sizes");
    memset(h, 0, sizeof *h);
    memcpy(h->name, t->name, sizeof h->name);
    memcpy(h->source, t->hull, sizeof h->source);
    h->mesh = t->mesh;
    h->mass = t->mass;
    h->has_dynamics = has_dynamics;
    h->dynamics = t->dynamics;
    h->compartments = t->compartments;
    h->has_rating = t->rated_beaufort >= 0;
    h->rated_beaufort = h->has_rating ? t->rated_beaufort : 0;
}

static int scn_parse_hull(const scn_ctx* c, const cJSON* o, const char* path, nv_scenario_hull* h) {
    nv_vessel_type t;
    if (nv_vessel_type_parse_object(c, o, path, VESSEL_TYPE_HULL_ENTRY, &t)) return -1;
    nv_scenario_hull_from_type(&t, cJSON_GetObjectItemCaseSensitive(o, "coefficients") != NULL, h);
    return 0;
}

static int scn_parse_vessel_type(const scn_ctx* c, const cJSON* o, const char* path, nv_scenario_hull* h) {
    nv_vessel_type t;
    if (cJSON_IsString(o) && o->valuestring[0]) {
        char spec[SCENARIO_PATH_MAX];
        nv_error inner;
        if (json_resolve_path(c, path, o->valuestring, spec, sizeof spec)) return -1;
        if (nv_vessel_type_from_spec(spec, &t, &inner)) return json_fail(c, path, "%s", inner.message);
    } else if (cJSON_IsObject(o)) {
        if (nv_vessel_type_parse_object(c, o, path, 0, &t)) return -1;
    } else {
        return json_fail(c, path, "expected \"builtin:NAME\", a vessel-type file or a vessel-type object (got %s)",
                         cJSON_IsString(o) ? "an empty string" : json_type_name(o));
    }
    nv_scenario_hull_from_type(&t, true, h);
    return 0;
}

static const cJSON* scn_get_array(const scn_ctx* c, const cJSON* obj, const char* key, int* count, int* failed) {
    const cJSON* v = cJSON_GetObjectItemCaseSensitive(obj, key);
    *count = 0;
    *failed = 0;
    if (!v) return NULL;
    if (!cJSON_IsArray(v)) {
        *failed = json_fail(c, key, "expected an array (got %s)", json_type_name(v));
        return NULL;
    }
    *count = cJSON_GetArraySize(v);
    return v;
}

/* hull_types, then vessel_types, in one table: the world's type indices. */
static int scn_parse_types(const scn_ctx* c, const cJSON* root, nv_scenario* s) {
    int nh, nt, failed;
    const cJSON* hulls = scn_get_array(c, root, "hull_types", &nh, &failed);
    if (failed) return -1;
    const cJSON* types = scn_get_array(c, root, "vessel_types", &nt, &failed);
    if (failed) return -1;
    if (nh + nt == 0)
        return json_fail(c, "hull_types", "expected a non-empty array of hull types, or vessel_types");
    if (nh + nt > (int)WORLD_MAX_HULL_TYPES)
        return json_fail(c, "", "at most %u types in hull_types and vessel_types together", WORLD_MAX_HULL_TYPES);
    s->hulls = calloc((size_t)(nh + nt), sizeof *s->hulls);
    if (!s->hulls) return json_fail(c, "", "out of memory");
    for (int list = 0; list < 2; list++) {
        const cJSON* items = list ? types : hulls;
        int i = 0;
        for (const cJSON* it = items ? items->child : NULL; it; it = it->next, i++) {
            char path[JSON_PATH_MAX];
            json_path_index(path, sizeof path, list ? "vessel_types" : "hull_types", i);
            nv_scenario_hull* h = &s->hulls[s->hull_count];
            if (list ? scn_parse_vessel_type(c, it, path, h) : scn_parse_hull(c, it, path, h)) return -1;
            for (uint32_t j = 0; j < s->hull_count; j++)
                if (strcmp(s->hulls[j].name, h->name) == 0)
                    return json_fail(c, path, "name '%s' is used twice", h->name);
            s->hull_count++;
        }
    }
    return 0;
}

static int scn_find_hull(const scn_ctx* c, const nv_scenario* s, const cJSON* o, const char* path, uint32_t* out) {
    int failed;
    const char* type = json_get_string(c, o, path, "type", true, &failed);
    if (failed) return -1;
    for (uint32_t i = 0; i < s->hull_count; i++)
        if (strcmp(s->hulls[i].name, type) == 0) {
            *out = i;
            return 0;
        }
    char full[JSON_PATH_MAX];
    json_path_key(full, sizeof full, path, "type");
    return json_fail(c, full, "'%s' is not among hull_types or vessel_types", type);
}

static int scn_parse_controls(const scn_ctx* c, const cJSON* o, const char* path, nv_scenario_vessel* v) {
    static const char* const keys[] = {"throttle", "rudder", NULL};
    const cJSON* controls = cJSON_GetObjectItemCaseSensitive(o, "controls");
    if (!controls) return 0;
    char full[JSON_PATH_MAX];
    json_path_key(full, sizeof full, path, "controls");
    if (json_check_keys(c, controls, full, keys) ||
        json_get_ranged(c, controls, full, "throttle", NV_RANGE_VESSEL_CONTROL, &v->throttle) < 0 ||
        json_get_ranged(c, controls, full, "rudder", NV_RANGE_VESSEL_CONTROL, &v->rudder) < 0)
        return -1;
    v->has_controls = true;
    return 0;
}

static int scn_add_vessel(const scn_ctx* c, nv_scenario* s, const nv_scenario_vessel* v) {
    if (s->vessel_count >= SCENARIO_MAX_VESSELS) return json_fail(c, "", "more than %u vessels", SCENARIO_MAX_VESSELS);
    if (GROW(&s->vessels, &s->vessel_capacity, s->vessel_count + 1, 64)) return json_fail(c, "", "out of memory");
    s->vessels[s->vessel_count++] = *v;
    return 0;
}

static int scn_parse_vessel(const scn_ctx* c, nv_scenario* s, const cJSON* o, const char* path, nv_scenario_vessel* v) {
    static const char* const keys[] = {"type", "position", "heading_deg", "velocity", "angular_velocity", "controls",
                                       NULL};
    if (json_check_keys(c, o, path, keys)) return -1;
    memset(v, 0, sizeof *v);
    if (scn_find_hull(c, s, o, path, &v->hull)) return -1;
    double p[3];
    if (json_require(c, o, path, "position", "[x, z] afloat, or [x, y, z]")) return -1;
    int n = json_get_ranged_numbers(c, o, path, "position", 2, 3, NV_RANGE_WORLD_POSITION, p);
    if (n < 0) return -1;
    v->afloat = n == 2;
    v->x = p[0];
    v->y = n == 3 ? p[1] : 0.0;
    v->z = n == 3 ? p[2] : p[1];
    if (scn_number(c, o, path, "heading_deg", NV_RANGE_WORLD_HEADING, &v->heading_deg) ||
        scn_vector(c, o, path, "velocity", NV_RANGE_VESSEL_SPEED, &v->velocity) < 0 ||
        scn_vector(c, o, path, "angular_velocity", NV_RANGE_VESSEL_TURN_RATE, &v->angular_velocity) < 0)
        return -1;
    return scn_parse_controls(c, o, path, v);
}

/* splitmix64: fleet headings depend on the fleet's seed alone. */
static double scn_random(uint64_t* state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (double)((z ^ (z >> 31)) >> 11) * (1.0 / 9007199254740992.0);
}

/* The fleet's square (side ceil(sqrt(count)) vessels) must lie in the world. */
static int scn_fleet_fits(const scn_ctx* c, const char* path, uint32_t count, double spacing, const double origin[2]) {
    double half = 0.5 * (ceil(sqrt((double)count)) - 1.0) * spacing;
    char why[256];
    for (int i = 0; i < 2; i++)
        for (int sign = -1; sign <= 1; sign += 2)
            if (nv_range_why(NV_RANGE_WORLD_POSITION, origin[i] + sign * half, why, sizeof why))
                return json_fail(c, path, "%u vessels %g m apart reach %c = %g m: each coordinate %s", count, spacing,
                                 i ? 'z' : 'x', origin[i] + sign * half, why);
    return 0;
}

/* `like` gives the type and controls of every vessel of the fleet. */
static int scn_fleet(const scn_ctx* c, nv_scenario* s, const nv_scenario_vessel* like, uint32_t count, double spacing,
                     const double origin[2], double speed, uint64_t seed) {
    nv_scenario_vessel v = *like;
    v.afloat = true;
    uint32_t side = (uint32_t)ceil(sqrt((double)count));
    uint64_t rng = seed * 0x2545F4914F6CDD1Dull + 1;
    for (uint32_t i = 0; i < count; i++) {
        v.x = origin[0] + ((double)(i % side) - 0.5 * (side - 1)) * spacing;
        v.z = origin[1] + ((double)(i / side) - 0.5 * (side - 1)) * spacing;
        v.heading_deg = 360.0 * scn_random(&rng);
        double a = v.heading_deg * NV_PI / 180.0;
        v.velocity = v3(speed * cos(a), 0.0, -speed * sin(a));
        if (scn_add_vessel(c, s, &v)) return -1;
    }
    return 0;
}

int nv_scenario_add_fleet(nv_scenario* s, uint32_t type, uint32_t count, double spacing, const double origin[2],
                          double speed, uint64_t seed, nv_error* err) {
    scn_ctx c = {"fleet", NULL, err};
    if (type >= s->hull_count) return json_fail(&c, "", "no hull type %u", type);
    char why[256];
    if (nv_range_why(NV_RANGE_FLEET_SPACING, spacing, why, sizeof why)) return json_fail(&c, "spacing", "%s", why);
    if (nv_range_why(NV_RANGE_VESSEL_SPEED, speed, why, sizeof why)) return json_fail(&c, "speed", "%s", why);
    if (nv_range_why(NV_RANGE_WORLD_POSITION, origin[0], why, sizeof why) ||
        nv_range_why(NV_RANGE_WORLD_POSITION, origin[1], why, sizeof why))
        return json_fail(&c, "origin", "%s", why);
    if (scn_fleet_fits(&c, "", count, spacing, origin)) return -1;
    nv_scenario_vessel like;
    memset(&like, 0, sizeof like);
    like.hull = type;
    return scn_fleet(&c, s, &like, count, spacing, origin, speed, seed);
}

static int scn_parse_fleet(const scn_ctx* c, nv_scenario* s, const cJSON* o, const char* path) {
    static const char* const keys[] = {"type", "count", "spacing", "origin", "speed", "seed", "controls", NULL};
    if (json_check_keys(c, o, path, keys)) return -1;
    nv_scenario_vessel like;
    memset(&like, 0, sizeof like);
    if (scn_find_hull(c, s, o, path, &like.hull) || scn_parse_controls(c, o, path, &like)) return -1;
    int64_t count = 0, seed = 1;
    double spacing = 50.0, speed = 0.0, origin[2] = {0, 0};
    if (scn_int(c, o, path, "count", NV_RANGE_FLEET_COUNT, &count) ||
        scn_number(c, o, path, "spacing", NV_RANGE_FLEET_SPACING, &spacing) ||
        scn_number(c, o, path, "speed", NV_RANGE_VESSEL_SPEED, &speed) ||
        scn_int(c, o, path, "seed", NV_RANGE_WORLD_SEED, &seed) ||
        json_get_ranged_numbers(c, o, path, "origin", 2, 2, NV_RANGE_WORLD_POSITION, origin) < 0)
        return -1;
    if (count == 0) return json_fail(c, path, "count is required (1..%u)", SCENARIO_MAX_VESSELS);
    if ((uint64_t)s->vessel_count + (uint64_t)count > SCENARIO_MAX_VESSELS)
        return json_fail(c, path, "%lld more vessels would pass the limit of %u", (long long)count, SCENARIO_MAX_VESSELS);
    if (scn_fleet_fits(c, path, (uint32_t)count, spacing, origin)) return -1;
    return scn_fleet(c, s, &like, (uint32_t)count, spacing, origin, speed, (uint64_t)seed);
}

int nv_scenario_load_terrain(const nv_scenario_terrain* t, nv_terrain** out, nv_error* err) {
    *out = NULL;
    if (!t->source[0]) return 0;
    static const char builtin[] = "builtin:";
    if (strncmp(t->source, builtin, sizeof builtin - 1) == 0) {
        if (nv_terrain_builtin(t->source + sizeof builtin - 1, out, err)) return nv_error_prefix(err, "terrain");
        return 0;
    }
    if (nv_terrain_load_png(out, t->source, &t->spec, err)) return nv_error_prefix(err, "terrain.heightmap");
    return 0;
}

static int scn_parse_terrain(const scn_ctx* c, const cJSON* o, nv_scenario_terrain* t) {
    if (cJSON_IsString(o)) {
        if (strncmp(o->valuestring, "builtin:", 8) != 0)
            return json_fail(c, "terrain", "expected \"builtin:NAME\" or a heightmap object (got \"%s\")",
                             o->valuestring);
        snprintf(t->source, sizeof t->source, "%s", o->valuestring);
    } else {
        static const char* const keys[] = {"heightmap", "origin", "cell_size", "min_elevation", "max_elevation", NULL};
        if (!cJSON_IsObject(o))
            return json_fail(c, "terrain", "expected \"builtin:NAME\" or a heightmap object (got %s)",
                             json_type_name(o));
        if (json_check_keys(c, o, "terrain", keys)) return -1;
        int failed;
        const char* file = json_get_string(c, o, "terrain", "heightmap", true, &failed);
        if (!file || json_resolve_path(c, "terrain.heightmap", file, t->source, sizeof t->source)) return -1;
        double origin[2] = {0.0, 0.0};
        if (json_get_ranged_numbers(c, o, "terrain", "origin", 2, 2, NV_RANGE_WORLD_POSITION, origin) < 0 ||
            json_require(c, o, "terrain", "cell_size", "metres between pixels") ||
            json_get_ranged(c, o, "terrain", "cell_size", NV_RANGE_TERRAIN_CELL_SIZE, &t->spec.cell_size) < 0 ||
            json_require(c, o, "terrain", "min_elevation", "metres at pixel value 0") ||
            json_get_ranged(c, o, "terrain", "min_elevation", NV_RANGE_TERRAIN_ELEVATION, &t->spec.min_elevation) < 0 ||
            json_require(c, o, "terrain", "max_elevation", "metres at pixel value 65535") ||
            json_get_ranged(c, o, "terrain", "max_elevation", NV_RANGE_TERRAIN_ELEVATION, &t->spec.max_elevation) < 0)
            return -1;
        t->spec.origin_x = origin[0];
        t->spec.origin_z = origin[1];
        nv_error inner;
        if (nv_terrain_spec_validate(&t->spec, &inner)) return json_fail(c, "terrain", "%s", inner.message);
    }
    /* read now: a bad heightmap is a bad scenario */
    nv_terrain* probe;
    nv_error inner;
    if (nv_scenario_load_terrain(t, &probe, &inner)) return json_fail(c, "", "%s", inner.message);
    nv_terrain_destroy(probe);
    return 0;
}

static int scn_parse_terrain_text(const char* text, size_t length, const char* name, const char* base_dir, void* out,
                                  nv_error* err) {
    scn_ctx c = {name, base_dir, err};
    cJSON* root = json_parse_text(&c, text, length);
    if (!root) return -1;
    nv_scenario_terrain* t = out;
    memset(t, 0, sizeof *t);
    int rc = scn_parse_terrain(&c, root, t);
    cJSON_Delete(root);
    return rc;
}

int nv_scenario_terrain_from_spec(const char* spec, nv_scenario_terrain* out, nv_error* err) {
    memset(out, 0, sizeof *out);
    if (strcmp(spec, "none") == 0) return 0;
    if (strncmp(spec, "builtin:", 8) == 0) {
        snprintf(out->source, sizeof out->source, "%s", spec);
        nv_terrain* probe;
        if (nv_scenario_load_terrain(out, &probe, err)) return -1;
        nv_terrain_destroy(probe);
        return 0;
    }
    return json_load_file(spec, scn_parse_terrain_text, out, err);
}

int nv_scenario_load_structure(const nv_scenario_structure* st, nv_mesh* out, nv_error* err) {
    if (!st->source[0]) return nv_hullgen_box(out, st->box[0], st->box[2], st->box[1], 1, 1, 1, err);
    nv_mesh_options opts = nv_mesh_options_default();
    nv_mesh_report report;
    if (nv_mesh_load_file(st->source, MESH_FORMAT_AUTO, &opts, out, &report, err)) return -1;
    return 0;
}

static int scn_parse_structures(const scn_ctx* c, const cJSON* list, nv_scenario* s) {
    if (!cJSON_IsArray(list)) return json_fail(c, "structures", "expected an array (got %s)", json_type_name(list));
    int count = cJSON_GetArraySize(list);
    if (count > (int)SCENARIO_MAX_STRUCTURES)
        return json_fail(c, "structures", "at most %u structures (got %d)", SCENARIO_MAX_STRUCTURES, count);
    if (count == 0) return 0;
    s->structures = calloc((size_t)count, sizeof *s->structures);
    if (!s->structures) return json_fail(c, "structures", "out of memory");
    int i = 0;
    for (const cJSON* o = list->child; o; o = o->next, i++) {
        static const char* const keys[] = {"mesh", "box", "position", "heading_deg", NULL};
        char path[JSON_PATH_MAX];
        json_path_index(path, sizeof path, "structures", i);
        nv_scenario_structure* st = &s->structures[s->structure_count];
        if (json_check_keys(c, o, path, keys)) return -1;
        int failed = 0;
        const char* file = json_get_string(c, o, path, "mesh", false, &failed);
        if (failed) return -1;
        int nbox = json_get_ranged_numbers(c, o, path, "box", 3, 3, NV_RANGE_STRUCTURE_BOX, st->box);
        if (nbox < 0) return -1;
        if ((file != NULL) == (nbox > 0)) return json_fail(c, path, "give \"mesh\" or \"box\" (one of them)");
        char key[JSON_PATH_MAX];
        json_path_key(key, sizeof key, path, "mesh");
        if (file && json_resolve_path(c, key, file, st->source, sizeof st->source)) return -1;
        double pos[3];
        if (json_require(c, o, path, "position", "[x, y, z] of its origin")) return -1;
        if (json_get_ranged_numbers(c, o, path, "position", 3, 3, NV_RANGE_WORLD_POSITION, pos) < 0) return -1;
        st->x = pos[0], st->y = pos[1], st->z = pos[2];
        if (scn_number(c, o, path, "heading_deg", NV_RANGE_WORLD_HEADING, &st->heading_deg)) return -1;
        /* read now: a bad mesh is a bad scenario */
        nv_mesh m;
        nv_error inner;
        if (nv_scenario_load_structure(st, &m, &inner)) return json_fail(c, file ? key : path, "%s", inner.message);
        int closed = nv_mesh_validate_closed(&m, &inner);
        nv_mesh_free(&m);
        if (closed) return json_fail(c, file ? key : path, "%s: %s", st->source, inner.message);
        s->structure_count++;
    }
    return 0;
}

static int scn_parse_contacts(const scn_ctx* c, const cJSON* o, nv_world_contact_params* p) {
    static const char* const keys[] = {"enabled",   "ground_friction", "vessel_friction", "restitution",
                                       "hertz",     "damping_ratio",   "push_speed",      NULL};
    if (json_check_keys(c, o, "contacts", keys)) return -1;
    bool enabled = p->enabled != 0;
    if (json_get_bool(c, o, "contacts", "enabled", &enabled) < 0 ||
        scn_number(c, o, "contacts", "ground_friction", NV_RANGE_CONTACT_FRICTION, &p->ground_friction) ||
        scn_number(c, o, "contacts", "vessel_friction", NV_RANGE_CONTACT_FRICTION, &p->vessel_friction) ||
        scn_number(c, o, "contacts", "restitution", NV_RANGE_CONTACT_RESTITUTION, &p->restitution) ||
        scn_number(c, o, "contacts", "hertz", NV_RANGE_CONTACT_HERTZ, &p->hertz) ||
        scn_number(c, o, "contacts", "damping_ratio", NV_RANGE_CONTACT_DAMPING_RATIO, &p->damping_ratio) ||
        scn_number(c, o, "contacts", "push_speed", NV_RANGE_CONTACT_PUSH_SPEED, &p->push_speed))
        return -1;
    p->enabled = enabled;
    return 0;
}

/* "events": damage to the vessels at given times, in time order. */
static int scn_parse_events(const scn_ctx* c, const cJSON* root, nv_scenario* s) {
    int count, failed;
    const cJSON* list = scn_get_array(c, root, "events", &count, &failed);
    if (failed) return -1;
    if (!count) return 0;
    s->events = calloc((size_t)count, sizeof *s->events);
    if (!s->events) return json_fail(c, "events", "out of memory");
    int i = 0;
    for (const cJSON* it = list->child; it; it = it->next, i++) {
        char path[JSON_PATH_MAX], dpath[JSON_PATH_MAX];
        json_path_index(path, sizeof path, "events", i);
        static const char* const keys[] = {"time", "damage", NULL};
        static const char* const dkeys[] = {"vessel", "point", "area", NULL};
        if (!cJSON_IsObject(it)) return json_fail(c, path, "expected an object (got %s)", json_type_name(it));
        nv_scenario_event* e = &s->events[i];
        int64_t vessel = 0;
        double p[3];
        if (json_check_keys(c, it, path, keys) || json_require(c, it, path, "time", "seconds") ||
            json_get_ranged(c, it, path, "time", NV_RANGE_EVENT_TIME, &e->time) < 0 ||
            json_require(c, it, path, "damage", "{\"vessel\": ID, \"point\": [x, y, z], \"area\": A}"))
            return -1;
        const cJSON* d = cJSON_GetObjectItemCaseSensitive(it, "damage");
        json_path_key(dpath, sizeof dpath, path, "damage");
        if (!cJSON_IsObject(d)) return json_fail(c, dpath, "expected an object (got %s)", json_type_name(d));
        if (json_check_keys(c, d, dpath, dkeys) || json_require(c, d, dpath, "vessel", "the vessel's id") ||
            json_require(c, d, dpath, "point", "[x, y, z], body frame about the CG, m") ||
            json_require(c, d, dpath, "area", "the hole's area, m^2") ||
            json_get_ranged_int(c, d, dpath, "vessel", NV_RANGE_VESSEL_ID, &vessel) < 0 ||
            json_get_ranged_numbers(c, d, dpath, "point", 3, 3, NV_RANGE_TYPE_COORDINATE, p) < 0 ||
            json_get_ranged(c, d, dpath, "area", NV_RANGE_TYPE_HOLE_AREA, &e->area) < 0)
            return -1;
        if ((uint64_t)vessel >= s->vessel_count) {
            char vpath[JSON_PATH_MAX];
            json_path_key(vpath, sizeof vpath, dpath, "vessel");
            return json_fail(c, vpath, "no vessel %lld (the scenario has %u)", (long long)vessel, s->vessel_count);
        }
        if (i && e->time < s->events[i - 1].time) return json_fail(c, path, "events must be in time order");
        e->vessel = (uint32_t)vessel;
        e->point = v3(p[0], p[1], p[2]);
        s->event_count = (uint32_t)(i + 1);
    }
    return 0;
}

static int scn_parse_root(const scn_ctx* c, const cJSON* root, nv_scenario* s) {
    static const char* const keys[] = {"tick_hz",    "water",        "damping", "ocean",  "wind",
                                       "hull_types", "vessel_types", "vessels", "fleets", "terrain",
                                       "structures", "contacts",     "events",  "sunk_removal_depth", NULL};
    if (json_check_keys(c, root, "", keys)) return -1;
    if (scn_number(c, root, "", "tick_hz", NV_RANGE_WORLD_TICK_HZ, &s->world.tick_hz)) return -1;
    if (scn_number(c, root, "", "sunk_removal_depth", NV_RANGE_WORLD_SUNK_REMOVAL_DEPTH, &s->world.sunk_removal_depth))
        return -1;
    const cJSON* water = cJSON_GetObjectItemCaseSensitive(root, "water");
    if (water) {
        static const char* const wkeys[] = {"density", "gravity", NULL};
        if (json_check_keys(c, water, "water", wkeys) ||
            scn_number(c, water, "water", "density", NV_RANGE_WORLD_WATER_DENSITY, &s->world.water_density) ||
            scn_number(c, water, "water", "gravity", NV_RANGE_WORLD_GRAVITY, &s->world.gravity))
            return -1;
    }
    const cJSON* damping = cJSON_GetObjectItemCaseSensitive(root, "damping");
    if (damping) {
        static const char* const dkeys[] = {"linear", "angular", NULL};
        if (json_check_keys(c, damping, "damping", dkeys) ||
            scn_number(c, damping, "damping", "linear", NV_RANGE_WORLD_LINEAR_DAMPING, &s->world.linear_damping) ||
            scn_number(c, damping, "damping", "angular", NV_RANGE_WORLD_ANGULAR_DAMPING, &s->world.angular_damping))
            return -1;
    }
    const cJSON* sea = cJSON_GetObjectItemCaseSensitive(root, "ocean");
    if (sea && !cJSON_IsNull(sea)) {
        if (scn_parse_ocean(c, sea, &s->ocean)) return -1;
        s->has_ocean = true;
    }
    nv_vec3 wind;
    int n = scn_vector(c, root, "", "wind", NV_RANGE_OCEAN_WIND, &wind);
    if (n < 0) return -1;
    if (n && s->has_ocean)
        return json_fail(c, "wind", "the ocean sets the wind (ocean.wind, ocean.wind_dir); give this on flat water only");
    if (n) s->wind = wind;
    const cJSON* ground = cJSON_GetObjectItemCaseSensitive(root, "terrain");
    if (ground && !cJSON_IsNull(ground) && scn_parse_terrain(c, ground, &s->terrain)) return -1;
    const cJSON* structures = cJSON_GetObjectItemCaseSensitive(root, "structures");
    if (structures && scn_parse_structures(c, structures, s)) return -1;
    const cJSON* contacts = cJSON_GetObjectItemCaseSensitive(root, "contacts");
    if (contacts && scn_parse_contacts(c, contacts, &s->contacts)) return -1;
    if (scn_parse_types(c, root, s)) return -1;
    int count, failed;
    const cJSON* vessels = scn_get_array(c, root, "vessels", &count, &failed);
    if (failed) return -1;
    int i = 0;
    for (const cJSON* it = vessels ? vessels->child : NULL; it; it = it->next, i++) {
        char path[JSON_PATH_MAX];
        json_path_index(path, sizeof path, "vessels", i);
        nv_scenario_vessel v;
        if (scn_parse_vessel(c, s, it, path, &v) || scn_add_vessel(c, s, &v)) return -1;
    }
    const cJSON* fleets = scn_get_array(c, root, "fleets", &count, &failed);
    if (failed) return -1;
    i = 0;
    for (const cJSON* it = fleets ? fleets->child : NULL; it; it = it->next, i++) {
        char path[JSON_PATH_MAX];
        json_path_index(path, sizeof path, "fleets", i);
        if (scn_parse_fleet(c, s, it, path)) return -1;
    }
    return scn_parse_events(c, root, s);
}

int nv_scenario_parse(const char* text, size_t length, const char* name, const char* base_dir, nv_scenario* out,
                      nv_error* err) {
    memset(out, 0, sizeof *out);
    out->world = nv_world_config_default();
    out->contacts = nv_world_contacts_default();
    scn_ctx c = {name ? name : "scenario", base_dir, err};
    cJSON* root = json_parse_text(&c, text, length);
    if (!root) return -1;
    int rc = scn_parse_root(&c, root, out);
    cJSON_Delete(root);
    if (rc) nv_scenario_free(out);
    return rc;
}

static int scn_parse_text(const char* text, size_t length, const char* name, const char* base_dir, void* out,
                          nv_error* err) {
    return nv_scenario_parse(text, length, name, base_dir, out, err);
}

int nv_scenario_load_file(const char* path, nv_scenario* out, nv_error* err) {
    memset(out, 0, sizeof *out);
    return json_load_file(path, scn_parse_text, out, err);
}

void nv_scenario_free(nv_scenario* s) {
    free(s->hulls);
    free(s->vessels);
    free(s->structures);
    free(s->events);
    s->events = NULL;
    s->event_count = 0;
    s->hulls = NULL;
    s->vessels = NULL;
    s->structures = NULL;
    s->structure_count = 0;
    s->hull_count = s->vessel_count = s->vessel_capacity = 0;
}

nv_vec3 nv_scenario_wind(const nv_scenario* s) {
    if (!s->has_ocean) return s->wind;
    /* The ocean resolves a Beaufort number into its wind when it is made. */
    double speed = s->ocean.beaufort >= 0 ? nv_spectrum_beaufort_wind(s->ocean.beaufort) : s->ocean.wind_speed;
    double a = s->ocean.wind_direction * NV_PI / 180.0;
    return v3(speed * cos(a), 0.0, -speed * sin(a)); /* toward -z as headings */
}

static int scn_add_types(const nv_scenario* s, nv_world* w, nv_error* err) {
    for (uint32_t i = 0; i < s->hull_count; i++) {
        const nv_scenario_hull* h = &s->hulls[i];
        nv_mesh m;
        uint32_t type;
        if (nv_vessel_type_load_hull(h->source, &h->mesh, &m, err))
            return nv_error_prefix(err, "hull type '%s'", h->name);
        int rc = nv_world_add_hull_type(w, h->name, &m, &h->mass, &type, err);
        if (!rc && (h->compartments.bulkhead_count || h->compartments.longitudinal_count)) {
            /* Cut in mesh coordinates, kept about the type's CG. */
            nv_vessel_type t;
            nv_vessel_type_init(&t);
            memcpy(t.name, h->name, sizeof t.name);
            t.compartments = h->compartments;
            nv_compartment_set cs;
            rc = nv_vessel_type_compartments(&t, &m, nv_world_hull_type(w, type)->body.cg, &cs, err) ||
                 nv_world_set_type_compartments(w, type, &cs, err);
            nv_compartment_set_free(&cs);
        }
        nv_mesh_free(&m);
        if (rc || (h->has_dynamics && nv_world_set_type_dynamics(w, type, &h->dynamics, err)))
            return nv_error_prefix(err, "hull type '%s'", h->name);
        if (h->columns_nx && h->columns_nz && nv_world_build_type_columns(w, type, h->columns_nx, h->columns_nz, err))
            return -1;
    }
    return 0;
}

int nv_scenario_instantiate(const nv_scenario* s, nv_jobs* pool, nv_scenario_instance* out, nv_error* err) {
    memset(out, 0, sizeof *out);
    if (s->has_ocean && !(out->ocean = nv_ocean_create(&s->ocean, err))) goto fail;
    if (nv_world_create(&out->world, &s->world, pool, err)) goto fail;
    if (out->ocean) {
        nv_world_water water = ocean_jobs_water(out->ocean);
        nv_world_set_water(out->world, &water);
    }
    nv_world_set_wind(out->world, nv_scenario_wind(s));
    if (nv_scenario_load_terrain(&s->terrain, &out->terrain, err) ||
        nv_world_set_contacts(out->world, &s->contacts, err))
        goto fail;
    nv_world_set_terrain(out->world, out->terrain);
    for (uint32_t i = 0; i < s->structure_count; i++) {
        const nv_scenario_structure* st = &s->structures[i];
        nv_mesh m;
        uint32_t index;
        if (nv_scenario_load_structure(st, &m, err)) {
            nv_error_prefix(err, "structure %u", i);
            goto fail;
        }
        int rc = nv_world_add_structure(out->world, &m, v3(st->x, st->y, st->z), st->heading_deg * NV_PI / 180.0,
                                        &index, err);
        nv_mesh_free(&m);
        if (rc) {
            nv_error_prefix(err, "structure %u", i);
            goto fail;
        }
    }
    if (scn_add_types(s, out->world, err)) goto fail;
    for (uint32_t i = 0; i < s->vessel_count; i++) {
        const nv_scenario_vessel* v = &s->vessels[i];
        double y = v->y;
        if (v->afloat && nv_world_type_float_height(out->world, v->hull, &y, err)) goto fail;
        nv_quat q = quat_from_axis_angle(v3(0, 1, 0), v->heading_deg * NV_PI / 180.0);
        uint32_t id;
        if (nv_world_spawn(out->world, v->hull, v3(v->x, y, v->z), q, &id, err) ||
            nv_world_set_velocity(out->world, id, v->velocity, v->angular_velocity, err) ||
            (v->has_controls && nv_world_set_controls(out->world, id, v->throttle, v->rudder, err))) {
            nv_error_prefix(err, "vessel %u", i);
            goto fail;
        }
    }
    return 0;
fail:
    nv_scenario_instance_destroy(out);
    return -1;
}

void nv_scenario_instance_destroy(nv_scenario_instance* inst) {
    nv_world_destroy(inst->world);
    nv_ocean_destroy(inst->ocean);
    nv_terrain_destroy(inst->terrain);
    inst->world = NULL;
    inst->ocean = NULL;
    inst->terrain = NULL;
}

uint32_t nv_scenario_check_overlaps(const nv_scenario* s, const nv_scenario_instance* inst,
                                    void (*warn)(void* ctx, const char* message), void* ctx) {
    enum { SHOWN = 64 };
    nv_world_overlap pairs[SHOWN];
    uint32_t n;
    if (!inst->world || nv_world_find_overlaps(inst->world, pairs, SHOWN, &n, NULL)) return 0;
    for (uint32_t k = 0; warn && k < n && k < SHOWN; k++) {
        const nv_world_overlap* o = &pairs[k];
        if (o->a >= s->vessel_count || o->b >= s->vessel_count) continue;
        char line[320];
        snprintf(line, sizeof line, "vessels[%u] (%s) and vessels[%u] (%s) overlap at the start: centres %.3g m apart",
                 o->a, s->hulls[s->vessels[o->a].hull].name, o->b, s->hulls[s->vessels[o->b].hull].name,
                 o->distance);
        warn(ctx, line);
    }
    if (warn && n > SHOWN) {
        char line[96];
        snprintf(line, sizeof line, "%u more pairs of vessels overlap at the start", n - SHOWN);
        warn(ctx, line);
    }
    return n;
}
