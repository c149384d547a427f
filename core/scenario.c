#include "scenario.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hullgen.h"
#include "ocean_jobs.h"
#include "statics.h"

#define SCENARIO_MAX_FILE (64u << 20)

typedef struct scn_ctx {
    const char* name;
    const char* base_dir;
    nv_error* err;
} scn_ctx;

/* Every message reads "NAME: PATH: what is wrong". */
static int scn_fail(const scn_ctx* c, const char* path, const char* fmt, ...) NV_PRINTF_LIKE(3, 4);
static int scn_fail(const scn_ctx* c, const char* path, const char* fmt, ...) {
    char what[NV_ERROR_MAX];
    va_list args;
    va_start(args, fmt);
    vsnprintf(what, sizeof what, fmt, args);
    va_end(args);
    return nv_error_set(c->err, "%s: %s%s%s", c->name, path, path[0] ? ": " : "", what);
}

static int scn_check_keys(const scn_ctx* c, const cJSON* obj, const char* path, const char* const* allowed) {
    if (!cJSON_IsObject(obj)) return scn_fail(c, path, "expected an object");
    for (const cJSON* it = obj->child; it; it = it->next) {
        int known = 0;
        for (const char* const* k = allowed; *k; k++)
            if (strcmp(it->string, *k) == 0) known = 1;
        if (!known) {
            char full[256];
            snprintf(full, sizeof full, "%s%s%s", path, path[0] ? "." : "", it->string);
            return scn_fail(c, full, "unknown key");
        }
    }
    return 0;
}

static void scn_path(char* out, size_t n, const char* path, const char* key) {
    snprintf(out, n, "%s%s%s", path, path[0] ? "." : "", key);
}

/* Optional number in [lo, hi]; *out keeps its default when the key is absent. */
static int scn_number(const scn_ctx* c, const cJSON* obj, const char* path, const char* key, double lo, double hi,
                      double* out) {
    const cJSON* v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v) return 0;
    char full[256];
    scn_path(full, sizeof full, path, key);
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble)) return scn_fail(c, full, "expected a number");
    if (!(v->valuedouble >= lo && v->valuedouble <= hi))
        return scn_fail(c, full, "%g is out of range [%g, %g]", v->valuedouble, lo, hi);
    *out = v->valuedouble;
    return 0;
}

static int scn_int(const scn_ctx* c, const cJSON* obj, const char* path, const char* key, double lo, double hi,
                   int64_t* out) {
    double d = (double)*out;
    if (scn_number(c, obj, path, key, lo, hi, &d)) return -1;
    if (d != floor(d)) {
        char full[256];
        scn_path(full, sizeof full, path, key);
        return scn_fail(c, full, "expected a whole number (got %g)", d);
    }
    *out = (int64_t)d;
    return 0;
}

/* Array of `min_n`..`max_n` finite numbers; returns how many were read. */
static int scn_numbers(const scn_ctx* c, const cJSON* obj, const char* path, const char* key, int min_n, int max_n,
                       double* out) {
    const cJSON* v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v) return 0;
    char full[256];
    scn_path(full, sizeof full, path, key);
    int n = cJSON_GetArraySize(v);
    if (!cJSON_IsArray(v) || n < min_n || n > max_n) {
        if (min_n == max_n) return scn_fail(c, full, "expected an array of %d numbers", min_n);
        return scn_fail(c, full, "expected an array of %d to %d numbers", min_n, max_n);
    }
    int i = 0;
    for (const cJSON* it = v->child; it; it = it->next, i++) {
        if (!cJSON_IsNumber(it) || !isfinite(it->valuedouble)) return scn_fail(c, full, "element %d is not a number", i);
        out[i] = it->valuedouble;
    }
    return n;
}

static const char* scn_string(const scn_ctx* c, const cJSON* obj, const char* path, const char* key, int required,
                              int* failed) {
    const cJSON* v = cJSON_GetObjectItemCaseSensitive(obj, key);
    char full[256];
    scn_path(full, sizeof full, path, key);
    *failed = 0;
    if (!v) {
        if (required) *failed = scn_fail(c, full, "missing (a string is required)");
        return NULL;
    }
    if (!cJSON_IsString(v) || !v->valuestring[0]) {
        *failed = scn_fail(c, full, "expected a non-empty string");
        return NULL;
    }
    return v->valuestring;
}

static int scn_parse_ocean(const scn_ctx* c, const cJSON* o, ocean_params* p) {
    static const char* const keys[] = {"spectrum", "wind",     "wind_dir", "fetch", "depth",      "size", "resolution",
                                       "cascades", "choppiness", "seed",   "beaufort", "hs", "gamma", "swell", "query", NULL};
    if (scn_check_keys(c, o, "ocean", keys)) return -1;
    *p = ocean_params_default();
    int failed;
    const char* spectrum = scn_string(c, o, "ocean", "spectrum", 0, &failed);
    if (failed) return -1;
    if (spectrum) {
        static const char* const names[] = {"phillips", "pm", "jonswap", "tma"};
        static const spectrum_type types[] = {SPECTRUM_PHILLIPS, SPECTRUM_PIERSON_MOSKOWITZ, SPECTRUM_JONSWAP,
                                              SPECTRUM_TMA};
        int found = -1;
        for (int i = 0; i < 4; i++)
            if (strcmp(spectrum, names[i]) == 0) found = i;
        if (found < 0) return scn_fail(c, "ocean.spectrum", "'%s' is not one of phillips, pm, jonswap, tma", spectrum);
        p->spectrum = types[found];
    }
    if (cJSON_GetObjectItemCaseSensitive(o, "beaufort") &&
        (cJSON_GetObjectItemCaseSensitive(o, "wind") || cJSON_GetObjectItemCaseSensitive(o, "hs")))
        return scn_fail(c, "ocean", "beaufort sets the wind and the wave height: give it alone, or wind / hs");
    int64_t resolution = p->resolution, cascades = p->cascades, beaufort = p->beaufort, seed = (int64_t)p->seed;
    if (scn_number(c, o, "ocean", "wind", 0, 100, &p->wind_speed) ||
        scn_number(c, o, "ocean", "wind_dir", -360, 360, &p->wind_direction) ||
        scn_number(c, o, "ocean", "fetch", 1, 1e8, &p->fetch) || scn_number(c, o, "ocean", "depth", 0, 1e5, &p->depth) ||
        scn_number(c, o, "ocean", "size", 1, 1e6, &p->size) ||
        scn_number(c, o, "ocean", "choppiness", 0, 10, &p->choppiness) ||
        scn_number(c, o, "ocean", "hs", 0, 50, &p->hs_target) || scn_number(c, o, "ocean", "gamma", 1, 20, &p->gamma) ||
        scn_number(c, o, "ocean", "swell", 0, 1, &p->swell) ||
        scn_int(c, o, "ocean", "resolution", 4, OCEAN_MAX_RESOLUTION, &resolution) ||
        scn_int(c, o, "ocean", "cascades", 1, OCEAN_MAX_CASCADES, &cascades) ||
        scn_int(c, o, "ocean", "beaufort", 0, 12, &beaufort) || scn_int(c, o, "ocean", "seed", 0, 9007199254740992.0, &seed))
        return -1;
    p->resolution = (int)resolution;
    p->cascades = (int)cascades;
    p->beaufort = cJSON_GetObjectItemCaseSensitive(o, "beaufort") ? (int)beaufort : p->beaufort;
    p->seed = (uint64_t)seed;
    const char* query = scn_string(c, o, "ocean", "query", 0, &failed);
    if (failed) return -1;
    /* The grid is the fast path wherever it applies. */
    p->surface_grid = p->cascades == 1;
    if (query && strcmp(query, "exact") == 0) p->surface_grid = 0;
    else if (query && strcmp(query, "grid") == 0) p->surface_grid = 1;
    else if (query) return scn_fail(c, "ocean.query", "'%s' is not one of exact, grid", query);
    nv_error inner;
    if (ocean_params_validate(p, &inner)) return scn_fail(c, "ocean", "%s", inner.message);
    return 0;
}

static int scn_parse_hull(const scn_ctx* c, const cJSON* o, const char* path, scenario_hull* h) {
    static const char* const keys[] = {"name", "hull", "up", "flip", "mass", "density", "cg", "gyration", NULL};
    if (scn_check_keys(c, o, path, keys)) return -1;
    memset(h, 0, sizeof *h);
    h->mesh = mesh_options_default();
    h->mass = mass_spec_default();
    int failed;
    const char* name = scn_string(c, o, path, "name", 1, &failed);
    if (failed) return -1;
    if (strlen(name) >= WORLD_NAME_MAX) return scn_fail(c, path, "name is longer than %d characters", WORLD_NAME_MAX - 1);
    strcpy(h->name, name);
    const char* source = scn_string(c, o, path, "hull", 1, &failed);
    if (failed) return -1;
    int n;
    if (strncmp(source, "builtin:", 8) == 0 || source[0] == '/' || !c->base_dir)
        n = snprintf(h->source, sizeof h->source, "%s", source);
    else
        n = snprintf(h->source, sizeof h->source, "%s/%s", c->base_dir, source);
    if (n < 0 || (size_t)n >= sizeof h->source) return scn_fail(c, path, "the hull path is too long");
    const char* up = scn_string(c, o, path, "up", 0, &failed);
    if (failed) return -1;
    if (up) {
        if (strcmp(up, "y") && strcmp(up, "z")) return scn_fail(c, path, "up must be \"y\" or \"z\" (got \"%s\")", up);
        h->mesh.up = up[0];
    }
    const cJSON* flip = cJSON_GetObjectItemCaseSensitive(o, "flip");
    if (flip) {
        if (!cJSON_IsBool(flip)) return scn_fail(c, path, "flip must be true or false");
        h->mesh.flip_inside_out = cJSON_IsTrue(flip);
    }
    if (cJSON_GetObjectItemCaseSensitive(o, "mass") && cJSON_GetObjectItemCaseSensitive(o, "density"))
        return scn_fail(c, path, "give mass or density, not both");
    if (scn_number(c, o, path, "mass", 1e-6, 1e12, &h->mass.mass) ||
        scn_number(c, o, path, "density", 1e-6, 1e6, &h->mass.density))
        return -1;
    double v[3];
    int got = scn_numbers(c, o, path, "cg", 3, 3, v);
    if (got < 0) return -1;
    if (got) h->mass.has_cg = true, h->mass.cg = v3(v[0], v[1], v[2]);
    got = scn_numbers(c, o, path, "gyration", 3, 3, v);
    if (got < 0) return -1;
    if (got) {
        if (!(v[0] > 0 && v[1] > 0 && v[2] > 0)) return scn_fail(c, path, "gyration radii must be positive");
        h->mass.has_gyration = true, h->mass.gyration = v3(v[0], v[1], v[2]);
    }
    return 0;
}

static int scn_find_hull(const scn_ctx* c, const scenario* s, const cJSON* o, const char* path, uint32_t* out) {
    int failed;
    const char* type = scn_string(c, o, path, "type", 1, &failed);
    if (failed) return -1;
    for (uint32_t i = 0; i < s->hull_count; i++)
        if (strcmp(s->hulls[i].name, type) == 0) {
            *out = i;
            return 0;
        }
    return scn_fail(c, path, "type '%s' is not among hull_types", type);
}

static int scn_add_vessel(const scn_ctx* c, scenario* s, const scenario_vessel* v) {
    if (s->vessel_count >= SCENARIO_MAX_VESSELS) return scn_fail(c, "", "more than %u vessels", SCENARIO_MAX_VESSELS);
    if (s->vessel_count == s->vessel_capacity) {
        uint32_t ncap = s->vessel_capacity ? s->vessel_capacity * 2 : 64;
        scenario_vessel* nv = realloc(s->vessels, ncap * sizeof *nv);
        if (!nv) return scn_fail(c, "", "out of memory");
        s->vessels = nv;
        s->vessel_capacity = ncap;
    }
    s->vessels[s->vessel_count++] = *v;
    return 0;
}

static int scn_parse_vessel(const scn_ctx* c, scenario* s, const cJSON* o, const char* path, scenario_vessel* v) {
    static const char* const keys[] = {"type", "position", "heading_deg", "velocity", "angular_velocity", NULL};
    if (scn_check_keys(c, o, path, keys)) return -1;
    memset(v, 0, sizeof *v);
    if (scn_find_hull(c, s, o, path, &v->hull)) return -1;
    double p[3];
    int n = scn_numbers(c, o, path, "position", 2, 3, p);
    if (n < 0) return -1;
    if (n == 0) {
        char full[256];
        scn_path(full, sizeof full, path, "position");
        return scn_fail(c, full, "missing ([x, z] afloat, or [x, y, z])");
    }
    v->afloat = n == 2;
    v->x = p[0];
    v->y = n == 3 ? p[1] : 0.0;
    v->z = n == 3 ? p[2] : p[1];
    if (scn_number(c, o, path, "heading_deg", -3600, 3600, &v->heading_deg)) return -1;
    double w[3];
    if ((n = scn_numbers(c, o, path, "velocity", 3, 3, w)) < 0) return -1;
    if (n) v->velocity = v3(w[0], w[1], w[2]);
    if ((n = scn_numbers(c, o, path, "angular_velocity", 3, 3, w)) < 0) return -1;
    if (n) v->angular_velocity = v3(w[0], w[1], w[2]);
    return 0;
}

/* splitmix64: fleet headings depend on the fleet's seed alone. */
static double scn_random(uint64_t* state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (double)((z ^ (z >> 31)) >> 11) * (1.0 / 9007199254740992.0);
}

static int scn_fleet(const scn_ctx* c, scenario* s, uint32_t type, uint32_t count, double spacing,
                     const double origin[2], double speed, uint64_t seed) {
    scenario_vessel v;
    memset(&v, 0, sizeof v);
    v.hull = type;
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

int scenario_add_fleet(scenario* s, uint32_t type, uint32_t count, double spacing, const double origin[2],
                       double speed, uint64_t seed, nv_error* err) {
    scn_ctx c = {"fleet", NULL, err};
    if (type >= s->hull_count) return scn_fail(&c, "", "no hull type %u", type);
    if (!(spacing > 0.0) || !isfinite(spacing) || !isfinite(speed) || !isfinite(origin[0]) || !isfinite(origin[1]))
        return scn_fail(&c, "", "spacing must be positive and every value finite");
    return scn_fleet(&c, s, type, count, spacing, origin, speed, seed);
}

static int scn_parse_fleet(const scn_ctx* c, scenario* s, const cJSON* o, const char* path) {
    static const char* const keys[] = {"type", "count", "spacing", "origin", "speed", "seed", NULL};
    if (scn_check_keys(c, o, path, keys)) return -1;
    uint32_t type = 0;
    if (scn_find_hull(c, s, o, path, &type)) return -1;
    int64_t count = 0, seed = 1;
    double spacing = 50.0, speed = 0.0, origin[2] = {0, 0};
    if (scn_int(c, o, path, "count", 1, SCENARIO_MAX_VESSELS, &count) ||
        scn_number(c, o, path, "spacing", 0.1, 1e5, &spacing) || scn_number(c, o, path, "speed", 0, 100, &speed) ||
        scn_int(c, o, path, "seed", 0, 9007199254740992.0, &seed) || scn_numbers(c, o, path, "origin", 2, 2, origin) < 0)
        return -1;
    if (count == 0) return scn_fail(c, path, "count is required (1..%u)", SCENARIO_MAX_VESSELS);
    if ((uint64_t)s->vessel_count + (uint64_t)count > SCENARIO_MAX_VESSELS)
        return scn_fail(c, path, "%lld more vessels would pass the limit of %u", (long long)count, SCENARIO_MAX_VESSELS);
    return scn_fleet(c, s, type, (uint32_t)count, spacing, origin, speed, (uint64_t)seed);
}

static int scn_parse_root(const scn_ctx* c, const cJSON* root, scenario* s) {
    static const char* const keys[] = {"tick_hz", "water", "damping", "ocean", "hull_types", "vessels", "fleets", NULL};
    if (scn_check_keys(c, root, "", keys)) return -1;
    if (scn_number(c, root, "", "tick_hz", 1, 1000, &s->world.tick_hz)) return -1;
    const cJSON* water = cJSON_GetObjectItemCaseSensitive(root, "water");
    if (water) {
        static const char* const wkeys[] = {"density", "gravity", NULL};
        if (scn_check_keys(c, water, "water", wkeys) ||
            scn_number(c, water, "water", "density", 1, 1e5, &s->world.water_density) ||
            scn_number(c, water, "water", "gravity", 0.01, 1e3, &s->world.gravity))
            return -1;
    }
    const cJSON* damping = cJSON_GetObjectItemCaseSensitive(root, "damping");
    if (damping) {
        static const char* const dkeys[] = {"linear", "angular", NULL};
        if (scn_check_keys(c, damping, "damping", dkeys) ||
            scn_number(c, damping, "damping", "linear", 0, 100, &s->world.linear_damping) ||
            scn_number(c, damping, "damping", "angular", 0, 100, &s->world.angular_damping))
            return -1;
    }
    const cJSON* sea = cJSON_GetObjectItemCaseSensitive(root, "ocean");
    if (sea && !cJSON_IsNull(sea)) {
        if (scn_parse_ocean(c, sea, &s->ocean)) return -1;
        s->has_ocean = true;
    }
    const cJSON* hulls = cJSON_GetObjectItemCaseSensitive(root, "hull_types");
    if (!cJSON_IsArray(hulls) || cJSON_GetArraySize(hulls) == 0)
        return scn_fail(c, "hull_types", "expected a non-empty array of hull types");
    int nh = cJSON_GetArraySize(hulls);
    if (nh > (int)WORLD_MAX_HULL_TYPES) return scn_fail(c, "hull_types", "at most %u hull types", WORLD_MAX_HULL_TYPES);
    s->hulls = calloc((size_t)nh, sizeof *s->hulls);
    if (!s->hulls) return scn_fail(c, "", "out of memory");
    char path[64];
    int i = 0;
    for (const cJSON* it = hulls->child; it; it = it->next, i++) {
        snprintf(path, sizeof path, "hull_types[%d]", i);
        if (scn_parse_hull(c, it, path, &s->hulls[i])) return -1;
        for (int j = 0; j < i; j++)
            if (strcmp(s->hulls[j].name, s->hulls[i].name) == 0)
                return scn_fail(c, path, "name '%s' is used twice", s->hulls[i].name);
        s->hull_count++;
    }
    const cJSON* vessels = cJSON_GetObjectItemCaseSensitive(root, "vessels");
    if (vessels && !cJSON_IsArray(vessels)) return scn_fail(c, "vessels", "expected an array");
    i = 0;
    for (const cJSON* it = vessels ? vessels->child : NULL; it; it = it->next, i++) {
        snprintf(path, sizeof path, "vessels[%d]", i);
        scenario_vessel v;
        if (scn_parse_vessel(c, s, it, path, &v) || scn_add_vessel(c, s, &v)) return -1;
    }
    const cJSON* fleets = cJSON_GetObjectItemCaseSensitive(root, "fleets");
    if (fleets && !cJSON_IsArray(fleets)) return scn_fail(c, "fleets", "expected an array");
    i = 0;
    for (const cJSON* it = fleets ? fleets->child : NULL; it; it = it->next, i++) {
        snprintf(path, sizeof path, "fleets[%d]", i);
        if (scn_parse_fleet(c, s, it, path)) return -1;
    }
    return 0;
}

int scenario_parse(const char* text, size_t length, const char* name, const char* base_dir, scenario* out,
                   nv_error* err) {
    memset(out, 0, sizeof *out);
    out->world = world_config_default();
    scn_ctx c = {name ? name : "scenario", base_dir, err};
    const char* end = NULL;
    cJSON* root = cJSON_ParseWithLengthOpts(text, length, &end, 0);
    if (!root) {
        /* cJSON points at where parsing stopped: turn it into line:column. */
        int line = 1, col = 1;
        const char* stop = end && end >= text && end <= text + length ? end : text + length;
        for (const char* p = text; p < stop; p++) {
            if (*p == '\n') line++, col = 1;
            else col++;
        }
        return nv_error_set(err, "%s: line %d, column %d: invalid JSON", c.name, line, col);
    }
    int rc = scn_parse_root(&c, root, out);
    cJSON_Delete(root);
    if (rc) scenario_free(out);
    return rc;
}

int scenario_load_file(const char* path, scenario* out, nv_error* err) {
    memset(out, 0, sizeof *out);
    FILE* f = fopen(path, "rb");
    if (!f) return nv_error_set(err, "%s: cannot open: %s", path, strerror(errno));
    char* text = malloc(SCENARIO_MAX_FILE + 1);
    size_t n = text ? fread(text, 1, SCENARIO_MAX_FILE + 1, f) : 0;
    int read_error = ferror(f);
    fclose(f);
    if (!text) return nv_error_set(err, "%s: out of memory", path);
    if (read_error) {
        free(text);
        return nv_error_set(err, "%s: read error", path);
    }
    if (n > SCENARIO_MAX_FILE) {
        free(text);
        return nv_error_set(err, "%s: larger than %u MiB", path, SCENARIO_MAX_FILE >> 20);
    }
    char dir[SCENARIO_PATH_MAX];
    const char* slash = strrchr(path, '/');
    size_t dlen = slash ? (size_t)(slash - path) : 1;
    if (dlen >= sizeof dir) dlen = sizeof dir - 1;
    memcpy(dir, slash ? path : ".", dlen);
    dir[dlen] = '\0';
    if (slash && dlen == 0) strcpy(dir, "/");
    int rc = scenario_parse(text, n, path, dir, out, err);
    free(text);
    return rc;
}

void scenario_free(scenario* s) {
    free(s->hulls);
    free(s->vessels);
    s->hulls = NULL;
    s->vessels = NULL;
    s->hull_count = s->vessel_count = s->vessel_capacity = 0;
}

static int scenario_load_mesh(const scenario_hull* h, mesh* m, nv_error* err) {
    int rc = hullgen_from_spec(h->source, m, NULL, err);
    if (rc < 0) return -1;
    if (rc > 0) return 0;
    mesh_report rep;
    return mesh_load_file(h->source, MESH_FORMAT_AUTO, &h->mesh, m, &rep, err);
}

int scenario_instantiate(const scenario* s, jobs* pool, scenario_instance* out, nv_error* err) {
    memset(out, 0, sizeof *out);
    double* balance = calloc(s->hull_count ? s->hull_count : 1, sizeof *balance);
    if (!balance) return nv_error_set(err, "scenario: out of memory");
    if (s->has_ocean && !(out->ocean = ocean_create(&s->ocean, err))) goto fail;
    if (world_create(&out->world, &s->world, pool, err)) goto fail;
    if (out->ocean) {
        world_water water = ocean_jobs_water(out->ocean);
        world_set_water(out->world, &water);
    }
    for (uint32_t i = 0; i < s->hull_count; i++) {
        mesh m;
        uint32_t type;
        if (scenario_load_mesh(&s->hulls[i], &m, err)) {
            nv_error_prefix(err, "hull type '%s'", s->hulls[i].name);
            goto fail;
        }
        int rc = world_add_hull_type(out->world, s->hulls[i].name, &m, &s->hulls[i].mass, &type, err);
        mesh_free(&m);
        if (rc) goto fail;
        balance[i] = NAN;
    }
    for (uint32_t i = 0; i < s->vessel_count; i++) {
        const scenario_vessel* v = &s->vessels[i];
        double y = v->y;
        if (v->afloat) {
            if (isnan(balance[v->hull]) &&
                statics_balance_height_of(world_hull_type(out->world, v->hull), s->world.water_density,
                                          s->world.gravity, quat_identity(), &balance[v->hull], err)) {
                nv_error_prefix(err, "hull type '%s'", s->hulls[v->hull].name);
                goto fail;
            }
            y = balance[v->hull];
        }
        quat q = quat_from_axis_angle(v3(0, 1, 0), v->heading_deg * NV_PI / 180.0);
        uint32_t id;
        if (world_spawn(out->world, v->hull, v3(v->x, y, v->z), q, &id, err) ||
            world_set_velocity(out->world, id, v->velocity, v->angular_velocity, err)) {
            nv_error_prefix(err, "vessel %u", i);
            goto fail;
        }
    }
    free(balance);
    return 0;
fail:
    free(balance);
    scenario_instance_destroy(out);
    return -1;
}

void scenario_instance_destroy(scenario_instance* inst) {
    world_destroy(inst->world);
    ocean_destroy(inst->ocean);
    inst->world = NULL;
    inst->ocean = NULL;
}
