// SPDX-License-Identifier: MIT
/* Compact snapshots: the keyframe state of the encoder and the decoder
 * around the records of proto_records.c (docs/protocol.md, "Compact
 * snapshots"). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "proto_records.h"

/* ---- the encoder ----------------------------------------------------------- */

struct proto_compact_encoder {
    uint32_t interval;
    int have_key, force;
    uint64_t key_tick;
    double origin[3];
    proto_cvessel* key;          /* the last keyframe, in its order */
    uint32_t key_count, key_cap;
    uint32_t* map;         /* id -> key index + 1, open addressing; 0 = empty */
    uint32_t map_cap;      /* a power of two, >= 2 key_count */
    proto_cvessel* cur;          /* this snapshot, quantised */
    uint32_t cur_cap;
    int32_t* cur_of_key;   /* per key entry: index into cur, or -1 (gone) */
    uint32_t cur_of_key_cap;
    uint32_t* fresh;       /* indices into cur of vessels new since the keyframe */
    uint32_t fresh_cap;
    double* median;        /* scratch of choose_origin */
    uint32_t median_cap;
    uint8_t* bits;
    size_t bits_cap;
};

/* Capacity 0 means the pointer is not ours (a caller's array): start anew. */
static int grow_array(void** p, uint32_t* cap, size_t need, size_t elem) {
    if (need <= *cap) return 0;
    if (*cap == 0) *p = NULL;
    return grow_reserve32(p, cap, need, elem, 64);
}

static uint32_t map_slot(uint32_t id, uint32_t cap) { return (id * 0x9E3779B1u) & (cap - 1u); }

static int map_build(proto_compact_encoder* e) {
    uint32_t cap = 16;
    while (cap < 2u * e->key_count) cap <<= 1;
    if (GROW(&e->map, &e->map_cap, cap, 0)) return -1; /* exactly: a power of two */
    cap = e->map_cap;
    memset(e->map, 0, (size_t)cap * sizeof *e->map);
    for (uint32_t i = 0; i < e->key_count; i++) {
        uint32_t s = map_slot(e->key[i].id, cap);
        while (e->map[s]) s = (s + 1u) & (cap - 1u);
        e->map[s] = i + 1u;
    }
    return 0;
}

static int64_t map_find(const proto_compact_encoder* e, uint32_t id) {
    uint32_t cap = e->map_cap;
    for (uint32_t s = map_slot(id, cap); e->map[s]; s = (s + 1u) & (cap - 1u))
        if (e->key[e->map[s] - 1u].id == id) return (int64_t)e->map[s] - 1;
    return -1;
}

proto_compact_encoder* proto_create_compact_encoder(uint32_t keyframe_interval, proto_error* err) {
    if (keyframe_interval < 1) {
        nv_error_fail(err, NV_EINVAL, "compact encoder: keyframe interval must be >= 1");
        return NULL;
    }
    proto_compact_encoder* e = calloc(1, sizeof *e);
    if (!e) {
        nv_error_fail(err, NV_ENOMEM, "compact encoder: out of memory");
        return NULL;
    }
    e->interval = keyframe_interval;
    return e;
}

void proto_destroy_compact_encoder(proto_compact_encoder* e) {
    if (!e) return;
    free(e->key);
    free(e->map);
    free(e->cur);
    free(e->cur_of_key);
    free(e->fresh);
    free(e->median);
    free(e->bits);
    free(e);
}

void proto_force_keyframe(proto_compact_encoder* e) {
    if (e) e->force = 1;
}

/* The k-th smallest of a[0..n) (Hoare's quickselect; reorders a). */
static double select_kth(double* a, ptrdiff_t n, ptrdiff_t k) {
    ptrdiff_t lo = 0, hi = n - 1;
    while (lo < hi) {
        double pivot = a[lo + (hi - lo) / 2];
        ptrdiff_t i = lo, j = hi;
        while (i <= j) {
            while (a[i] < pivot) i++;
            while (a[j] > pivot) j--;
            if (i <= j) {
                double t = a[i];
                a[i++] = a[j];
                a[j--] = t;
            }
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            break;
    }
    return a[k];
}

/* The fleet's median position in whole metres (exact and readable). The
 * median, not the box's centre: one vessel far away must not push the
 * origin off the fleet and send everyone raw. */
static int choose_origin(proto_compact_encoder* e, const proto_snapshot* s, double origin[3]) {
    if (grow_array((void**)&e->median, &e->median_cap, s->vessel_count, sizeof *e->median) != 0) return -1;
    for (int a = 0; a < 3; a++) {
        ptrdiff_t m = 0;
        for (uint32_t i = 0; i < s->vessel_count; i++) {
            double p = s->vessels[i].position[a];
            if (isfinite(p) && fabs(p) < 1e15) e->median[m++] = p;
        }
        origin[a] = m ? floor(select_kth(e->median, m, m / 2) + 0.5) : 0.0;
    }
    return 0;
}

int proto_encode_compact(proto_compact_encoder* e, const proto_snapshot* s, proto_buf* out, int* is_keyframe,
                         proto_error* err) {
    if (!e || !s || !out) return nv_error_fail(err, NV_EINVAL, "compact: missing argument");
    out->data = NULL;
    out->size = 0;
    uint32_t n = s->vessel_count;
    if (n && !s->vessels) return nv_error_fail(err, NV_EINVAL, "compact: vessels missing");
    if (n > proto_default_limits().max_vessels)
        return nv_error_fail(err, NV_ELIMIT, "compact: %u vessels, over the limit of %u", n,
                             proto_default_limits().max_vessels);
    int key = !e->have_key || e->force || s->tick < e->key_tick || s->tick - e->key_tick >= e->interval;
    size_t need_bits = (size_t)n * PROTO_RECORD_MAX_BYTES + 16;
    if (grow_array((void**)&e->cur, &e->cur_cap, n, sizeof *e->cur) != 0 ||
        grow_array((void**)&e->fresh, &e->fresh_cap, n, sizeof *e->fresh) != 0 ||
        grow_array((void**)&e->cur_of_key, &e->cur_of_key_cap, e->key_count, sizeof *e->cur_of_key) != 0)
        return nv_error_fail(err, NV_ENOMEM, "compact: out of memory (%u vessels)", n);
    if (GROW(&e->bits, &e->bits_cap, need_bits, 0))
        return nv_error_fail(err, NV_ENOMEM, "compact: out of memory (%u vessels)", n);
    proto_compact_header h;
    memset(&h, 0, sizeof h);
    h.tick = s->tick;
    h.sim_time = s->sim_time;
    h.send_time_ns = s->send_time_ns;
    h.stats = s->stats;
    h.keyframe = key;
    proto_bitw w = {e->bits, 0, 0, 0};
    uint32_t prev_id = UINT32_MAX;
    uint16_t prev_type = 0;
    if (key) {
        double origin[3];
        if (choose_origin(e, s, origin) != 0)
            return nv_error_fail(err, NV_ENOMEM, "compact: out of memory (%u vessels)", n);
        for (uint32_t i = 0; i < n; i++) {
            proto_quantise_vessel(&s->vessels[i], origin, &e->cur[i]);
            proto_put_full_record(&w, &e->cur[i], &prev_id, &prev_type);
        }
        h.keyframe_tick = s->tick;
        h.keyframe_count = h.vessel_count = n;
        memcpy(h.origin, origin, sizeof origin);
    } else {
        uint32_t nfresh = 0;
        for (uint32_t k = 0; k < e->key_count; k++) e->cur_of_key[k] = -1;
        for (uint32_t i = 0; i < n; i++) {
            proto_quantise_vessel(&s->vessels[i], e->origin, &e->cur[i]);
            /* Between spawns and despawns slots keep their order: try the
             * same slot before the hash. */
            int64_t k = i < e->key_count && e->key[i].id == e->cur[i].id ? (int64_t)i : map_find(e, e->cur[i].id);
            if (k >= 0 && e->cur_of_key[k] < 0)
                e->cur_of_key[k] = (int32_t)i;
            else
                e->fresh[nfresh++] = i; /* new, or a repeated id (sent as given) */
        }
        for (uint32_t k = 0; k < e->key_count; k++) {
            if (e->cur_of_key[k] < 0)
                proto_put_gone_record(&w);
            else
                proto_put_delta_record(&w, &e->cur[e->cur_of_key[k]], &e->key[k]);
        }
        for (uint32_t j = 0; j < nfresh; j++) proto_put_full_record(&w, &e->cur[e->fresh[j]], &prev_id, &prev_type);
        h.keyframe_tick = e->key_tick;
        h.keyframe_count = e->key_count;
        h.vessel_count = e->key_count + nfresh;
        memcpy(h.origin, e->origin, sizeof h.origin);
    }
    size_t nbytes = proto_flush_bits(&w);
    if (proto_wrap_compact(out, &h, e->bits, nbytes, err) != 0) {
        e->have_key = 0; /* whatever the clients hold, start over */
        return -1;
    }
    if (key) {
        /* The new keyframe is this snapshot: swap it in (cur becomes scratch). */
        proto_cvessel* t = e->key;
        uint32_t tc = e->key_cap;
        e->key = e->cur;
        e->key_cap = e->cur_cap;
        e->cur = t;
        e->cur_cap = tc;
        e->key_count = n;
        e->key_tick = s->tick;
        memcpy(e->origin, h.origin, sizeof e->origin);
        e->force = 0;
        e->have_key = map_build(e) == 0;
        if (!e->have_key) return nv_error_fail(err, NV_ENOMEM, "compact: out of memory");
    }
    if (is_keyframe) *is_keyframe = key;
    return 0;
}

/* ---- the decoder ------------------------------------------------------------- */

struct proto_compact_decoder {
    int have_key;
    uint64_t key_tick;
    double origin[3];
    proto_cvessel* key;
    uint32_t key_count, key_cap;
};

proto_compact_decoder* proto_create_compact_decoder(proto_error* err) {
    proto_compact_decoder* d = calloc(1, sizeof *d);
    if (!d) nv_error_fail(err, NV_ENOMEM, "compact decoder: out of memory");
    return d;
}

void proto_destroy_compact_decoder(proto_compact_decoder* d) {
    if (!d) return;
    free(d->key);
    free(d);
}

static int decode_compact(proto_compact_decoder* d, const void* data, size_t size, const proto_limits* limits,
                          proto_snapshot* out, proto_error* err) {
    proto_compact_header h;
    const uint8_t* bits = NULL;
    size_t nbytes = 0;
    if (proto_unwrap_compact(data, size, limits, &h, &bits, &nbytes, err) != 0) return -1;
    proto_limits lim = proto_effective_limits(limits);
    if (h.vessel_count > lim.max_vessels || h.keyframe_count > lim.max_vessels)
        return nv_error_fail(err, NV_ELIMIT, "compact: %u vessels, over the limit of %u", h.vessel_count,
                             lim.max_vessels);
    /* Every record takes at least one bit: no allocation beyond the data's size. */
    if (h.vessel_count > nbytes * 8)
        return proto_set_error(err, "compact: %u records cannot fit in %zu bytes", h.vessel_count, nbytes);
    if (!isfinite(h.origin[0]) || !isfinite(h.origin[1]) || !isfinite(h.origin[2]))
        return proto_set_error(err, "compact: origin is not finite");
    proto_bitr r = {bits, nbytes, 0, 0, 0, 0};
    uint32_t prev_id = UINT32_MAX;
    uint16_t prev_type = 0;
    if (h.keyframe) {
        if (h.keyframe_count != h.vessel_count || h.keyframe_tick != h.tick)
            return proto_set_error(err, "compact keyframe: inconsistent header");
        d->have_key = 0;
        if (grow_array((void**)&d->key, &d->key_cap, h.vessel_count, sizeof *d->key) != 0 ||
            grow_array((void**)&out->vessels, &out->vessel_capacity, h.vessel_count, sizeof *out->vessels) != 0)
            return nv_error_fail(err, NV_ENOMEM, "compact: out of memory (%u vessels)", h.vessel_count);
        for (uint32_t i = 0; i < h.vessel_count && !r.bad; i++)
            proto_get_full_record(&r, &d->key[i], &prev_id, &prev_type);
        if (proto_check_bits_end(&r, "keyframe", err) != 0) return -1;
        d->have_key = 1;
        d->key_tick = h.tick;
        d->key_count = h.vessel_count;
        memcpy(d->origin, h.origin, sizeof d->origin);
        for (uint32_t i = 0; i < h.vessel_count; i++) proto_dequantise_vessel(&d->key[i], d->origin, &out->vessels[i]);
        out->vessel_count = h.vessel_count;
    } else {
        if (!d->have_key || d->key_tick != h.keyframe_tick || d->key_count != h.keyframe_count ||
            memcmp(d->origin, h.origin, sizeof d->origin) != 0)
            return PROTO_NEED_KEYFRAME;
        if (h.vessel_count < h.keyframe_count) return proto_set_error(err, "compact delta: inconsistent header");
        if (grow_array((void**)&out->vessels, &out->vessel_capacity, h.vessel_count, sizeof *out->vessels) != 0)
            return nv_error_fail(err, NV_ENOMEM, "compact: out of memory (%u vessels)", h.vessel_count);
        uint32_t m = 0;
        proto_cvessel c;
        for (uint32_t k = 0; k < d->key_count && !r.bad; k++) {
            int rc = proto_get_delta_record(&r, &d->key[k], &c);
            if (rc < 0) return proto_set_error(err, "compact delta: bad record %u", k);
            if (rc == 0) proto_dequantise_vessel(&c, d->origin, &out->vessels[m++]);
        }
        for (uint32_t j = h.keyframe_count; j < h.vessel_count && !r.bad; j++) {
            proto_get_full_record(&r, &c, &prev_id, &prev_type);
            proto_dequantise_vessel(&c, d->origin, &out->vessels[m++]);
        }
        if (proto_check_bits_end(&r, "delta", err) != 0) return -1;
        out->vessel_count = m;
    }
    out->tick = h.tick;
    out->sim_time = h.sim_time;
    out->send_time_ns = h.send_time_ns;
    out->stats = h.stats;
    /* A compact snapshot carries neither contacts nor damage: none left
     * over from a full one decoded into the same struct. */
    out->contact_count = 0;
    out->damage_count = out->damage_event_count = 0;
    return 0;
}

int proto_decode_compact(proto_compact_decoder* d, const void* data, size_t size, const proto_limits* limits,
                         proto_snapshot* out, proto_error* err) {
    if (!d || !out) return nv_error_fail(err, NV_EINVAL, "compact: missing argument");
    int rc = decode_compact(d, data, size, limits, out, err);
    if (rc < 0) out->vessel_count = 0;
    return rc;
}
