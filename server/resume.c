// SPDX-License-Identifier: MIT
#include "resume.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "idmap.h"

#define RESUME_HEADER 4u
#define RESUME_OWNED 20u  /* id + token */
#define RESUME_PILOT_V2 29u /* id + three f64 + u8 */
#define RESUME_PILOT_V3 41u  /* and lane u32 + pace f64 */
#define RESUME_PILOT 49u     /* and berth i64 */
#define RESUME_LANE_V3 80u   /* nine f64 + two u32 */
#define RESUME_LANE_V4 92u   /* ten f64 + three u32 */
#define RESUME_LANE 96u      /* and beach u32 */
#define RESUME_AREA 32u   /* rng + three f64 */

void resume_buf_free(resume_buf* b) {
    free(b->data);
    memset(b, 0, sizeof *b);
}

static void put_u32(uint8_t* p, uint32_t v) {
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static void put_u64(uint8_t* p, uint64_t v) {
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static void put_f64(uint8_t* p, double v) {
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    put_u64(p, bits);
}

int resume_encode(const owners* o, const autopilot* a, resume_buf* b) {
    autopilot_state st = autopilot_get_state(a);
    size_t need = RESUME_HEADER + 4 + (size_t)o->count * RESUME_OWNED + RESUME_AREA + 4 +
                  (size_t)st.lane_count * RESUME_LANE + 4 + (size_t)st.count * RESUME_PILOT;
    if (GROW(&b->data, &b->capacity, need, 1024)) return -1;
    uint8_t* p = b->data;
    p[0] = (uint8_t)RESUME_VERSION;
    p[1] = p[2] = p[3] = 0;
    p += RESUME_HEADER;
    put_u32(p, o->count);
    p += 4;
    for (uint32_t i = 0; i < o->count; i++) {
        put_u32(p, o->list[i].vessel);
        memcpy(p + 4, o->list[i].token.bytes, sizeof o->list[i].token.bytes);
        p += RESUME_OWNED;
    }
    put_u64(p, st.rng);
    put_f64(p + 8, st.cx);
    put_f64(p + 16, st.cz);
    put_f64(p + 24, st.half);
    p += RESUME_AREA;
    put_u32(p, st.lane_count);
    p += 4;
    for (uint32_t i = 0; i < st.lane_count; i++) {
        const lane* l = &st.lanes[i];
        const double f[10] = {l->cx,    l->cz,    l->axis,     l->half_straight, l->radius,
                              l->look,  l->clear, l->throttle, l->speed,         l->berth};
        for (int k = 0; k < 10; k++) put_f64(p + 8 * k, f[k]);
        put_u32(p + 80, l->berth_ticks);
        put_u32(p + 84, l->beach);
        put_u32(p + 88, l->type);
        put_u32(p + 92, l->boats);
        p += RESUME_LANE;
    }
    put_u32(p, st.count);
    p += 4;
    for (uint32_t i = 0; i < st.count; i++) {
        put_u32(p, st.pilots[i].id);
        put_f64(p + 4, st.pilots[i].wx);
        put_f64(p + 12, st.pilots[i].wz);
        put_f64(p + 20, st.pilots[i].turn);
        p[28] = st.pilots[i].slow;
        put_u32(p + 29, st.pilots[i].lane);
        put_f64(p + 33, st.pilots[i].pace);
        put_u64(p + 41, (uint64_t)st.pilots[i].berth);
        p += RESUME_PILOT;
    }
    b->size = (size_t)(p - b->data);
    return 0;
}

/* ---- reading ------------------------------------------------------------ */

typedef struct resume_reader {
    const uint8_t* data;
    size_t pos, size;
    nv_error* err;
} resume_reader;

/* Whether n more bytes lie inside the blob; names what was cut off. */
static int rd_need(resume_reader* r, size_t n, const char* what) {
    if (r->size - r->pos >= n) return 0;
    return nv_error_set(r->err, "owner blob: truncated in %s (at byte %zu of %zu, %zu more needed)", what, r->pos,
                        r->size, n);
}

static uint32_t get_u32(resume_reader* r) {
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) v |= (uint32_t)r->data[r->pos + (size_t)i] << (8 * i);
    r->pos += 4;
    return v;
}

static uint8_t get_u8(resume_reader* r) { return r->data[r->pos++]; }

static uint64_t get_u64(resume_reader* r) {
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v |= (uint64_t)r->data[r->pos + (size_t)i] << (8 * i);
    r->pos += 8;
    return v;
}

static double get_f64(resume_reader* r) {
    uint64_t bits = get_u64(r);
    double v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

/* A count of records of `each` bytes must fit in what is left: a corrupt
 * count cannot make the reader allocate or loop past the end. */
static int rd_count(resume_reader* r, size_t each, const char* what, uint32_t* n) {
    if (rd_need(r, 4, what)) return -1;
    *n = get_u32(r);
    if ((size_t)*n > (r->size - r->pos) / each)
        return nv_error_set(r->err, "owner blob: %u %s do not fit in the %zu bytes left (at byte %zu)", *n, what,
                            r->size - r->pos, r->pos - 4);
    return 0;
}

static int rd_vessel(resume_reader* r, const nv_world* w, uint32_t id, const char* what) {
    nv_world_vessel_state st;
    if (w && nv_world_vessel_get(w, id, &st) != 0)
        return nv_error_set(r->err, "owner blob: %s vessel %u is not in the checkpoint's world", what, id);
    return 0;
}

static int rd_owned(resume_reader* r, const nv_world* w, uint64_t now_ns, owners* o) {
    uint32_t n;
    if (rd_count(r, RESUME_OWNED, "owned vessels", &n)) return -1;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t id = get_u32(r);
        proto_token t;
        memcpy(t.bytes, r->data + r->pos, sizeof t.bytes);
        r->pos += sizeof t.bytes;
        if (rd_vessel(r, w, id, "owned")) return -1;
        if (owners_find(o, id)) return nv_error_set(r->err, "owner blob: owned vessel %u is listed twice", id);
        if (owners_add_token(o, id, 0, &t)) return nv_error_fail(r->err, NV_ENOMEM, "owner blob: out of memory");
        o->list[o->count - 1].orphan_since_ns = now_ns;
    }
    return 0;
}

static int rd_lanes(resume_reader* r, uint8_t version, lane** out, uint32_t* count) {
    if (rd_count(r, version >= 5 ? RESUME_LANE : (version == 4 ? RESUME_LANE_V4 : RESUME_LANE_V3), "lanes", count))
        return -1;
    if (!(*out = malloc((*count ? *count : 1) * sizeof **out)))
        return nv_error_fail(r->err, NV_ENOMEM, "owner blob: out of memory for %u lanes", *count);
    for (uint32_t i = 0; i < *count; i++) {
        lane* l = &(*out)[i];
        l->cx = get_f64(r), l->cz = get_f64(r), l->axis = get_f64(r), l->half_straight = get_f64(r);
        l->radius = get_f64(r), l->look = get_f64(r), l->clear = get_f64(r), l->throttle = get_f64(r);
        l->speed = get_f64(r);
        l->berth = version >= 4 ? get_f64(r) : -1.0;
        l->berth_ticks = version >= 4 ? get_u32(r) : 0;
        l->beach = version >= 5 ? get_u32(r) : 0;
        l->type = get_u32(r), l->boats = get_u32(r);
        if (!isfinite(l->cx) || !isfinite(l->cz) || !isfinite(l->axis) || !(l->half_straight >= 0.0 && l->half_straight < 1e6) ||
            !(l->radius >= 1.0 && l->radius < 1e6) || !(l->look > 0.0 && l->look < 1e5) || !(l->clear > 0.0 && l->clear < 1e5) ||
            !(l->throttle > 0.0 && l->throttle <= 1.0) || !(l->speed > 0.0 && l->speed < 100.0) ||
            !(l->berth < lane_perimeter(l)) || l->beach > 1)
            return nv_error_set(r->err, "owner blob: lane %u: centre (%g, %g), axis %g, half straight %g, radius %g, look %g, "
                                        "clear %g, throttle %g, speed %g, berth %g or beach %u is not valid", i, l->cx, l->cz,
                                l->axis, l->half_straight, l->radius, l->look, l->clear, l->throttle, l->speed, l->berth,
                                l->beach);
    }
    return 0;
}

static int rd_pilots(resume_reader* r, const nv_world* w, uint8_t version, autopilot** a) {
    if (rd_need(r, RESUME_AREA, "the autopilot's area")) return -1;
    autopilot_state st;
    memset(&st, 0, sizeof st);
    st.rng = get_u64(r);
    st.cx = get_f64(r);
    st.cz = get_f64(r);
    st.half = get_f64(r);
    if (!isfinite(st.cx) || !isfinite(st.cz) || !(st.half >= 1.0 && st.half < 1e9))
        return nv_error_set(r->err, "owner blob: autopilot area (%g, %g) +- %g is not valid", st.cx, st.cz, st.half);
    lane* lanes = NULL;
    if (version >= 3 && rd_lanes(r, version, &lanes, &st.lane_count)) {
        free(lanes);
        return -1;
    }
    st.lanes = lanes;
    const size_t pilot_size = version >= 4 ? RESUME_PILOT : (version == 3 ? RESUME_PILOT_V3 : RESUME_PILOT_V2);
    if (rd_count(r, pilot_size, "pilots", &st.count)) {
        free(lanes);
        return -1;
    }
    autopilot_pilot* list = malloc((st.count ? st.count : 1) * sizeof *list);
    if (!list) {
        free(lanes);
        return nv_error_fail(r->err, NV_ENOMEM, "owner blob: out of memory for %u pilots", st.count);
    }
    idmap seen = {0};
    int rc = 0;
    for (uint32_t i = 0; i < st.count && !rc; i++) {
        autopilot_pilot* p = &list[i];
        p->id = get_u32(r);
        p->wx = get_f64(r);
        p->wz = get_f64(r);
        p->turn = get_f64(r);
        p->slow = get_u8(r);
        p->lane = version >= 3 ? get_u32(r) : AUTOPILOT_NO_LANE;
        p->pace = version >= 3 ? get_f64(r) : 1.0;
        p->berth = version >= 4 ? (int64_t)get_u64(r) : 0;
        uint32_t unused;
        if (!isfinite(p->wx) || !isfinite(p->wz))
            rc = nv_error_set(r->err, "owner blob: pilot of vessel %u has a waypoint that is not finite", p->id);
        else if (!(fabs(p->turn) <= 3.2) || p->slow > 1)
            rc = nv_error_set(r->err, "owner blob: pilot of vessel %u: avoidance turn %g rad (|turn| <= pi) and slow %u "
                                      "(0 or 1)", p->id, p->turn, (unsigned)p->slow);
        else if (p->lane != AUTOPILOT_NO_LANE && p->lane >= st.lane_count)
            rc = nv_error_set(r->err, "owner blob: pilot of vessel %u sails lane %u of %u", p->id, p->lane, st.lane_count);
        else if (p->berth < AUTOPILOT_BEACH_OUT)
            rc = nv_error_set(r->err, "owner blob: pilot of vessel %u: berth %lld (-3 to 0 or a tick)", p->id,
                              (long long)p->berth);
        else if (!(p->pace >= 0.0 && p->pace <= AUTOPILOT_PACE_MAX))
            rc = nv_error_set(r->err, "owner blob: pilot of vessel %u: pace %g is outside [0, %g]", p->id, p->pace,
                              AUTOPILOT_PACE_MAX);
        else if (idmap_get(&seen, p->id, &unused))
            rc = nv_error_set(r->err, "owner blob: vessel %u is piloted twice", p->id);
        else if (idmap_put(&seen, p->id, i))
            rc = nv_error_fail(r->err, NV_ENOMEM, "owner blob: out of memory");
        else
            rc = rd_vessel(r, w, p->id, "piloted");
    }
    idmap_free(&seen);
    st.pilots = list;
    if (!rc && !(*a = autopilot_restore(&st)))
        rc = nv_error_fail(r->err, NV_ENOMEM, "owner blob: out of memory for the autopilot");
    free(list);
    free(lanes);
    return rc;
}

int resume_decode(const void* data, size_t size, const nv_world* w, uint64_t now_ns, owners* o, autopilot** a,
                  nv_error* err) {
    *a = NULL;
    resume_reader r = {data, 0, size, err};
    if (rd_need(&r, RESUME_HEADER, "the header")) return -1;
    const uint8_t* h = r.data;
    if (h[0] < 2 || h[0] > RESUME_VERSION)
        return nv_error_set(err, "owner blob: version %u is not supported (this server reads versions 2 to %u)", h[0],
                            RESUME_VERSION);
    if (h[1] || h[2] || h[3]) return nv_error_set(err, "owner blob: reserved header bytes are not zero");
    r.pos = RESUME_HEADER;
    if (rd_owned(&r, w, now_ns, o) || rd_pilots(&r, w, h[0], a)) goto fail;
    if (r.pos != size) {
        nv_error_set(err, "owner blob: %zu bytes after the end (at byte %zu)", size - r.pos, r.pos);
        goto fail;
    }
    return 0;
fail:
    autopilot_destroy(*a);
    *a = NULL;
    owners_free(o);
    return -1;
}
