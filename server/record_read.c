// SPDX-License-Identifier: MIT
/* Reading a record log back (naval-replay, the tests): one event a line,
 * every field checked, errors naming the file and the line. */
#include "record.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define RECORD_LINE_MAX 2048

/* The next whole line without its newline: 1, 0 at the end (a last line
 * without a newline is a write cut short: not an event). */
static int rd_line(record_reader* r, char* buf, size_t cap, nv_error* err) {
    if (!fgets(buf, (int)cap, r->f))
        return ferror(r->f) ? nv_error_set(err, "%s: read error after line %" PRIu64, r->path, r->line) : 0;
    r->line++;
    size_t n = strlen(buf);
    if (n && buf[n - 1] == '\n') {
        buf[n - 1] = '\0';
        return 1;
    }
    if (n + 1 == cap) return nv_error_set(err, "%s:%" PRIu64 ": line longer than %zu bytes", r->path, r->line, cap - 2);
    r->partial = 1;
    return 0;
}

static int rd_u64(const char* s, int base, uint64_t* out, const char** end) {
    char* e = NULL;
    if (*s == '-' || *s == ' ' || !*s) return -1;
    errno = 0;
    unsigned long long v = strtoull(s, &e, base);
    if (errno || e == s) return -1;
    *out = v;
    *end = e;
    return 0;
}

static int rd_u32(const char* s, uint32_t* out, const char** end) {
    uint64_t v;
    if (rd_u64(s, 10, &v, end) || v > UINT32_MAX) return -1;
    *out = (uint32_t)v;
    return 0;
}

static int rd_f64(const char* s, double* out, const char** end) {
    char* e = NULL;
    if (*s == ' ' || !*s) return -1;
    *out = strtod(s, &e);
    if (e == s || !isfinite(*out)) return -1; /* the server never applies a NaN or an infinity */
    *end = e;
    return 0;
}

/* A space, then a field: each parser leaves `p` after what it read. */
#define RD_SEP(p) (*(p)++ == ' ')

static int rd_hex(char c) { return c >= '0' && c <= '9' ? c - '0' : (c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1); }

static int rd_token(const char* s, proto_token* t, const char** end) {
    for (size_t i = 0; i < sizeof t->bytes; i++) {
        int hi = rd_hex(s[2 * i]), lo = hi < 0 ? -1 : rd_hex(s[2 * i + 1]);
        if (lo < 0) return -1;
        t->bytes[i] = (uint8_t)(hi * 16 + lo);
    }
    *end = s + 2 * sizeof t->bytes;
    return 0;
}

/* n numbers, each after a space. */
static int rd_f64s(const char** p, double* out, int n) {
    for (int i = 0; i < n; i++)
        if (!RD_SEP(*p) || rd_f64(*p, &out[i], p)) return -1;
    return 0;
}

/* " ID" then n numbers. */
static int rd_id_f64s(const char** p, uint32_t* id, double* out, int n) {
    return rd_u32(*p, id, p) ? -1 : rd_f64s(p, out, n);
}

static int rd_flag(const char** p, int* out) {
    uint32_t v;
    if (rd_u32(*p, &v, p) || v > 1) return -1;
    *out = (int)v;
    return 0;
}

static int rd_fields(const char* p) {
    int n = *p ? 1 : 0;
    for (; *p; p++) n += *p == ' ';
    return n;
}

/* The world's operations of version 5 without a kind of their own
 * (RECORD_WORLD); 1: not one of them. */
static int rd_world_op(const char* word, size_t wl, const char* p, record_event* ev) {
    nv_world_op* op = &ev->op;
    double f[7];
#define RD_IS(name) (wl == sizeof name - 1 && !strncmp(word, name, wl))
    if (RD_IS("spawn")) {
        /* Version 5's pose; a version 2-4 spawn has six fields. */
        if (rd_fields(p) != 9) return 1;
        op->kind = NV_WORLD_OP_SPAWN;
        if (rd_u32(p, &op->u.spawn.id, &p) || !RD_SEP(p) || rd_u32(p, &op->u.spawn.type, &p) || rd_f64s(&p, f, 7))
            return -1;
        op->u.spawn.position = v3(f[0], f[1], f[2]);
        op->u.spawn.orientation.w = f[3], op->u.spawn.orientation.x = f[4];
        op->u.spawn.orientation.y = f[5], op->u.spawn.orientation.z = f[6];
        ev->id = op->u.spawn.id;
        ev->type = op->u.spawn.type;
    } else if (RD_IS("velocity")) {
        op->kind = NV_WORLD_OP_VELOCITY;
        if (rd_id_f64s(&p, &op->u.velocity.id, f, 6)) return -1;
        op->u.velocity.velocity = v3(f[0], f[1], f[2]);
        op->u.velocity.angular_velocity = v3(f[3], f[4], f[5]);
        ev->id = op->u.velocity.id;
    } else if (RD_IS("model")) {
        op->kind = NV_WORLD_OP_MODEL;
        uint32_t m;
        if (rd_u32(p, &op->u.model.id, &p) || !RD_SEP(p) || rd_u32(p, &m, &p) || m > WORLD_MODEL_FLOATER) return -1;
        op->u.model.model = (nv_world_model)m;
        ev->id = op->u.model.id;
    } else if (RD_IS("player")) {
        op->kind = NV_WORLD_OP_PLAYER;
        if (rd_u32(p, &op->u.player.id, &p) || !RD_SEP(p) || rd_flag(&p, &op->u.player.player)) return -1;
        ev->id = op->u.player.id;
    } else if (RD_IS("lod")) {
        op->kind = NV_WORLD_OP_LOD;
        if (rd_flag(&p, &op->u.lod.lod.enabled) || rd_f64s(&p, f, 3)) return -1;
        op->u.lod.lod.mesh_within = f[0], op->u.lod.lod.columns_within = f[1], op->u.lod.lod.hysteresis = f[2];
    } else if (RD_IS("wind")) {
        op->kind = NV_WORLD_OP_WIND;
        p--; /* rd_f64s reads the separator */
        if (rd_f64s(&p, f, 3)) return -1;
        op->u.wind.wind = v3(f[0], f[1], f[2]);
    } else if (RD_IS("contact_params")) {
        op->kind = NV_WORLD_OP_CONTACTS;
        nv_world_contact_params* c = &op->u.contacts.params;
        if (rd_flag(&p, &c->enabled) || rd_f64s(&p, f, 6)) return -1;
        c->ground_friction = f[0], c->vessel_friction = f[1], c->restitution = f[2];
        c->hertz = f[3], c->damping_ratio = f[4], c->push_speed = f[5];
    } else if (RD_IS("sunk_removal_depth")) {
        op->kind = NV_WORLD_OP_SUNK_REMOVAL_DEPTH;
        if (rd_f64(p, &op->u.sunk_removal_depth.depth, &p)) return -1;
    } else {
        return 1;
    }
#undef RD_IS
    ev->kind = RECORD_WORLD;
    ev->has_op = 1;
    op->tick = ev->tick;
    return *p ? -1 : 0;
}

static int rd_event(const char* buf, record_event* ev, int version);

/* "next TICK FILE" (the log goes on in FILE), else any other event. */
static int rd_next(const char* buf, record_event* ev, char* next, size_t cap, int version) {
    const char* p = buf;
    if (strncmp(p, "next ", 5)) return rd_event(buf, ev, version);
    ev->kind = RECORD_NEXT;
    if (rd_u64(p + 5, 10, &ev->tick, &p) || !RD_SEP(p) || !*p || strlen(p) >= cap) return -1;
    snprintf(next, cap, "%s", p);
    return 0;
}

static int rd_event(const char* buf, record_event* ev, int version) {
    const char* p = buf;
    if (!strncmp(p, "end ", 4)) {
        ev->kind = RECORD_END;
        return rd_u64(p + 4, 10, &ev->tick, &p) || *p ? -1 : 0;
    }
    if (rd_u64(p, 10, &ev->tick, &p) || !RD_SEP(p)) return -1;
    const char* word = p;
    p = strchr(p, ' ');
    if (!p) return -1;
    size_t wl = (size_t)(p - word);
    p++;
    if (version >= 5) {
        int rc = rd_world_op(word, wl, p, ev);
        if (rc <= 0) return rc;
        if (wl == 5 && !strncmp(word, "owner", 5)) {
            ev->kind = RECORD_OWNER;
            if (rd_u32(p, &ev->id, &p) || !RD_SEP(p) || rd_token(p, &ev->token, &p)) return -1;
            return *p ? -1 : 0;
        }
    }
    if (wl == 5 && !strncmp(word, "spawn", 5)) {
        ev->kind = RECORD_SPAWN;
        if (rd_u32(p, &ev->id, &p) || !RD_SEP(p) || rd_u32(p, &ev->type, &p) || !RD_SEP(p) ||
            rd_f64(p, &ev->x, &p) || !RD_SEP(p) || rd_f64(p, &ev->z, &p) || !RD_SEP(p) ||
            rd_f64(p, &ev->heading, &p) || !RD_SEP(p) || rd_token(p, &ev->token, &p))
            return -1;
    } else if (wl == 7 && !strncmp(word, "control", 7)) {
        ev->kind = RECORD_CONTROL;
        if (rd_u32(p, &ev->id, &p) || !RD_SEP(p) || rd_f64(p, &ev->throttle, &p) || !RD_SEP(p) ||
            rd_f64(p, &ev->rudder, &p))
            return -1;
    } else if (wl == 7 && !strncmp(word, "despawn", 7)) {
        ev->kind = RECORD_DESPAWN;
        if (rd_u32(p, &ev->id, &p)) return -1;
    } else if (wl == 7 && !strncmp(word, "contact", 7)) {
        ev->kind = RECORD_CONTACT;
        if (rd_u32(p, &ev->id, &p) || !RD_SEP(p) || rd_u32(p, &ev->other, &p) || !RD_SEP(p) ||
            rd_u32(p, &ev->structure, &p) || !RD_SEP(p) || rd_f64(p, &ev->closing, &p) || !RD_SEP(p) ||
            rd_f64(p, &ev->impulse, &p))
            return -1;
    } else if (wl == 6 && !strncmp(word, "breach", 6)) {
        ev->kind = RECORD_BREACH;
        if (rd_u32(p, &ev->id, &p) || !RD_SEP(p) || rd_f64(p, &ev->point[0], &p) || !RD_SEP(p) ||
            rd_f64(p, &ev->point[1], &p) || !RD_SEP(p) || rd_f64(p, &ev->point[2], &p) || !RD_SEP(p) ||
            rd_f64(p, &ev->area, &p))
            return -1;
    } else if (wl == 5 && !strncmp(word, "pumps", 5)) {
        ev->kind = RECORD_PUMPS;
        if (rd_u32(p, &ev->id, &p) || !RD_SEP(p) || rd_u32(p, &ev->on, &p) || ev->on > 1) return -1;
    } else if (wl == 6 && !strncmp(word, "damage", 6)) {
        ev->kind = RECORD_DAMAGE;
        const char* name = p;
        p = strchr(p, ' ');
        if (!p) return -1;
        size_t nl = (size_t)(p - name);
        ev->damage_kind = UINT32_MAX;
        for (uint32_t k = 0; k < RECORD_DAMAGE_KINDS; k++)
            if (strlen(record_damage_names[k]) == nl && !strncmp(name, record_damage_names[k], nl)) ev->damage_kind = k;
        p++;
        if (ev->damage_kind == UINT32_MAX || rd_u32(p, &ev->id, &p) || !RD_SEP(p)) return -1;
        if (!strncmp(p, "-1", 2)) {
            ev->compartment = -1;
            p += 2;
        } else {
            uint32_t k;
            if (rd_u32(p, &k, &p)) return -1;
            ev->compartment = k;
        }
    } else if (wl == 4 && !strncmp(word, "hash", 4)) {
        ev->kind = RECORD_HASH;
        if (strlen(p) != 16 || rd_u64(p, 16, &ev->hash, &p)) return -1;
    } else {
        return -1;
    }
    if (*p) return -1;
    /* The world's operations among them, for nv_world_apply_op. */
    nv_world_op* op = &ev->op;
    op->tick = ev->tick;
    ev->has_op = 1;
    if (ev->kind == RECORD_CONTROL) {
        op->kind = NV_WORLD_OP_CONTROLS;
        op->u.controls = (nv_world_op_controls){ev->id, ev->throttle, ev->rudder};
    } else if (ev->kind == RECORD_DESPAWN) {
        op->kind = NV_WORLD_OP_DESPAWN;
        op->u.despawn.id = ev->id;
    } else if (ev->kind == RECORD_BREACH) {
        op->kind = NV_WORLD_OP_BREACH;
        op->u.breach = (nv_world_op_breach){ev->id, v3(ev->point[0], ev->point[1], ev->point[2]), ev->area};
    } else if (ev->kind == RECORD_PUMPS) {
        op->kind = NV_WORLD_OP_PUMPS;
        op->u.pumps = (nv_world_op_pumps){ev->id, (int)ev->on};
    } else {
        ev->has_op = 0;
    }
    return 0;
}

int record_reader_open(record_reader* r, const char* path, nv_error* err) {
    memset(r, 0, sizeof *r);
    snprintf(r->path, sizeof r->path, "%s", path);
    r->f = fopen(path, "r");
    if (!r->f) return nv_error_set(err, "%s: cannot open: %s", path, strerror(errno));
    char buf[RECORD_LINE_MAX];
    int version = 0, n = 0;
    const char* p;
    if (rd_line(r, buf, sizeof buf, err) != 1 || sscanf(buf, "naval-record %d%n", &version, &n) != 1 || buf[n]) {
        nv_error_set(err, "%s: not a naval-server record log (the first line must be 'naval-record %d')", path,
                     RECORD_VERSION);
        goto fail;
    }
    if (version < 2 || version > RECORD_VERSION) {
        nv_error_set(err, "%s: record log version %d is not supported (this reads version %d)", path, version,
                     RECORD_VERSION);
        goto fail;
    }
    if (rd_line(r, buf, sizeof buf, err) != 1 || strncmp(buf, "base ", 5) ||
        rd_u64(buf + 5, 10, &r->base_tick, &p) || !RD_SEP(p) || rd_u64(p, 16, &r->base_hash, &p) || !RD_SEP(p) ||
        !*p) {
        nv_error_set(err, "%s:2: expected 'base TICK HASH CHECKPOINT'", path);
        goto fail;
    }
    snprintf(r->base_path, sizeof r->base_path, "%s", p);
    if (rd_line(r, buf, sizeof buf, err) != 1 || sscanf(buf, "hash_interval %u%n", &r->hash_interval, &n) != 1 ||
        buf[n] || !r->hash_interval) {
        nv_error_set(err, "%s:3: expected 'hash_interval N'", path);
        goto fail;
    }
    r->last_tick = r->base_tick;
    r->version = version;
    return 0;
fail:
    record_reader_close(r);
    return -1;
}

int record_read(record_reader* r, record_event* ev, nv_error* err) {
    char buf[RECORD_LINE_MAX];
    memset(ev, 0, sizeof *ev);
    if (r->ended) return 0;
    int got = rd_line(r, buf, sizeof buf, err);
    if (got <= 0) return got;
    ev->line = r->line;
    if (rd_next(buf, ev, r->next, sizeof r->next, r->version))
        return nv_error_set(err, "%s:%" PRIu64 ": not a record event: '%.80s'", r->path, r->line, buf);
    if (ev->tick < r->last_tick)
        return nv_error_set(err, "%s:%" PRIu64 ": tick %" PRIu64 " goes back (after %" PRIu64 ")", r->path, r->line,
                            ev->tick, r->last_tick);
    r->last_tick = ev->tick;
    if (ev->kind == RECORD_END || ev->kind == RECORD_NEXT) r->ended = 1;
    return 1;
}

void record_reader_close(record_reader* r) {
    if (r->f) fclose(r->f);
    r->f = NULL;
}
