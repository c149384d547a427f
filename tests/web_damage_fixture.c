// SPDX-License-Identifier: MIT
/* Damage on the wire, written by the C encoders for the web client's test
 * (tests/test_web_unit.mjs): the TypeScript decoders must read the same
 * values as the C decoders did.
 *
 *   web-damage-fixture DIR
 *
 * writes into DIR:
 *   snapshot.bin, snapshot.json   a full Snapshot with damage entries and
 *                                 events of every kind
 *   response.bin, response.json   a Response carrying WorldInfo whose vessel
 *                                 types have compartment volumes and pump rates
 *   reply.bin                     a Response carrying DamageReply (compartment 3)
 *   updates.bin, updates.json     a player view's session from a hub fed
 *                                 damage each tick (a view that steams
 *                                 across a damaged fleet, lost updates, a
 *                                 client gone silent and back: keyframes,
 *                                 a vessel repaired); updates.bin is each
 *                                 update the client received as a 32-bit
 *                                 little-endian length and its bytes;
 *                                 updates.json per update: its damage
 *                                 entries and events, and the damage the C
 *                                 decoder held after it (by id).
 * Exit 0, or 1 with the reason. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto.h"
#include "proto_view.h"
#include "view.h"

static void die(const char* what, const char* why) {
    fprintf(stderr, "web-damage-fixture: %s: %s\n", what, why);
    exit(1);
}

static FILE* open_out(const char* dir, const char* name) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE* f = fopen(path, "wb");
    if (!f) die(path, "cannot write");
    return f;
}

static void write_bytes(const char* dir, const char* name, const uint8_t* data, size_t size) {
    FILE* f = open_out(dir, name);
    if (fwrite(data, 1, size, f) != size) die(name, "short write");
    fclose(f);
}

static void json_damage(FILE* f, const proto_vessel_damage* d, uint32_t n) {
    fputc('[', f);
    for (uint32_t i = 0; i < n; i++) {
        fprintf(f, "%s{\"id\": %u, \"flags\": %u, \"holes\": %u, \"fill\": [", i ? ", " : "", d[i].id, d[i].flags,
                d[i].holes);
        for (uint32_t k = 0; k < d[i].compartment_count; k++) fprintf(f, "%s%u", k ? ", " : "", d[i].fill[k]);
        fputs("]}", f);
    }
    fputc(']', f);
}

static void json_events(FILE* f, const proto_damage_event* e, uint32_t n) {
    fputc('[', f);
    for (uint32_t i = 0; i < n; i++)
        fprintf(f, "%s{\"tick\": %llu, \"id\": %u, \"kind\": %u, \"compartment\": %u, \"area\": %.9g, \"point\": [%.9g, %.9g, %.9g]}",
                i ? ", " : "", (unsigned long long)e[i].tick, e[i].id, e[i].kind, e[i].compartment, (double)e[i].area,
                (double)e[i].point[0], (double)e[i].point[1], (double)e[i].point[2]);
    fputc(']', f);
}

static void event_at(proto_damage_event* e, uint64_t tick, uint32_t id, uint8_t kind, uint8_t compartment, float area,
                     float x, float y, float z) {
    memset(e, 0, sizeof *e);
    e->tick = tick;
    e->id = id;
    e->kind = kind;
    e->compartment = compartment;
    e->area = area;
    e->point[0] = x, e->point[1] = y, e->point[2] = z;
}

/* ---- a snapshot ------------------------------------------------------------------ */

static void write_snapshot(const char* dir) {
    proto_vessel v[4];
    memset(v, 0, sizeof v);
    for (uint32_t i = 0; i < 4; i++) {
        v[i].id = 10 + i;
        v[i].type = (uint16_t)(i % 2);
        v[i].position[0] = 100.0 * i;
        v[i].orientation[3] = 1.0f;
    }
    proto_vessel_damage d[3];
    memset(d, 0, sizeof d);
    d[0].id = 10, d[0].flags = PROTO_DAMAGE_PUMPING, d[0].holes = 1, d[0].compartment_count = 5;
    const uint8_t f0[5] = {0, 255, 128, 3, 0};
    memcpy(d[0].fill, f0, 5);
    d[1].id = 12, d[1].flags = PROTO_DAMAGE_PUMPING | PROTO_DAMAGE_SUNK_FLAG, d[1].holes = 3, d[1].compartment_count = 7;
    for (uint32_t k = 0; k < 7; k++) d[1].fill[k] = (uint8_t)(200 + 7 * k);
    d[2].id = 13, d[2].holes = 0, d[2].compartment_count = 1, d[2].fill[0] = 77; /* water left, no hole */
    proto_damage_event e[5];
    event_at(&e[0], 4242, 10, PROTO_DAMAGE_BREACH, 1, 0.375f, -3.75f, -0.95f, 0.5f);
    event_at(&e[1], 4242, 12, PROTO_DAMAGE_FULL, 4, 0.0f, 0, 0, 0);
    event_at(&e[2], 4243, 12, PROTO_DAMAGE_CAPSIZED, PROTO_DAMAGE_NO_COMPARTMENT, 0.0f, 0, 0, 0);
    event_at(&e[3], 4243, 12, PROTO_DAMAGE_SUNK, PROTO_DAMAGE_NO_COMPARTMENT, 0.0f, 0, 0, 0);
    event_at(&e[4], 4244, 99, PROTO_DAMAGE_REMOVED, PROTO_DAMAGE_NO_COMPARTMENT, 0.0f, 0, 0, 0);
    proto_snapshot s;
    memset(&s, 0, sizeof s);
    s.tick = 4244;
    s.sim_time = 4244.0 / 60.0;
    s.vessels = v;
    s.vessel_count = 4;
    s.damage = d;
    s.damage_count = 3;
    s.damage_events = e;
    s.damage_event_count = 5;
    proto_buf b = {0};
    proto_error err;
    if (proto_encode_snapshot(&b, &s, &err)) die("snapshot", err.message);
    write_bytes(dir, "snapshot.bin", b.data, b.size);
    /* What the C decoder reads back. */
    proto_snapshot back;
    memset(&back, 0, sizeof back);
    if (proto_decode_snapshot(b.data, b.size, NULL, &back, &err)) die("snapshot back", err.message);
    FILE* f = open_out(dir, "snapshot.json");
    fprintf(f, "{\"tick\": %llu, \"damage\": ", (unsigned long long)back.tick);
    json_damage(f, back.damage, back.damage_count);
    fputs(", \"damage_events\": ", f);
    json_events(f, back.damage_events, back.damage_event_count);
    fputs("}\n", f);
    fclose(f);
    proto_free_snapshot(&back);
    proto_free_buf(&b);
}

/* ---- world info and the damage reply ---------------------------------------------- */

static void write_responses(const char* dir) {
    proto_vessel_type t[3];
    memset(t, 0, sizeof t);
    const char* names[3] = {"barge", "patrol", "raft"};
    for (uint32_t i = 0; i < 3; i++) {
        t[i].type = (uint16_t)i;
        snprintf(t[i].name, sizeof t[i].name, "%s", names[i]);
        t[i].mass = 1000.0 * (i + 1);
        t[i].vertex_count = 8, t[i].triangle_count = 12;
    }
    t[0].compartment_count = 4;
    const float v0[4] = {20.0f, 20.5f, 19.75f, 20.0f};
    memcpy(t[0].compartment_volumes, v0, sizeof v0);
    t[0].pump_rate = 0.125f;
    t[1].compartment_count = 5;
    for (uint32_t k = 0; k < 5; k++) t[1].compartment_volumes[k] = 12.3f + 1.1f * k;
    t[1].pump_rate = 0.05f;
    /* type 2: no compartments, no pumps */
    proto_response r;
    memset(&r, 0, sizeof r);
    r.request_id = 77;
    r.status = PROTO_STATUS_OK;
    r.kind = PROTO_BODY_WORLD_INFO;
    snprintf(r.world_info.server_name, sizeof r.world_info.server_name, "fixture");
    r.world_info.tick_hz = 60.0;
    r.world_info.gravity = 9.81;
    r.world_info.water_density = 1025.0;
    r.world_info.types = t;
    r.world_info.type_count = 3;
    /* and a structure: a quay's corner as a tetrahedron, world frame */
    float corners[12] = {-40.5f, -4.0f, 10.25f, -30.0f, -4.0f, 10.25f, -40.5f, 4.0f, 10.25f, -40.5f, -4.0f, 22.125f};
    uint32_t faces[12] = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};
    proto_structure_info quay = {.vertices = corners, .vertex_count = 4, .indices = faces, .triangle_count = 4};
    r.world_info.structures = &quay;
    r.world_info.structure_count = 1;
    proto_buf b = {0};
    proto_error err;
    if (proto_encode_response(&b, &r, &err)) die("world info", err.message);
    write_bytes(dir, "response.bin", b.data, b.size);
    proto_response back;
    memset(&back, 0, sizeof back);
    if (proto_decode_response(b.data, b.size, NULL, &back, &err)) die("world info back", err.message);
    FILE* f = open_out(dir, "response.json");
    fputs("{\"types\": [", f);
    for (uint32_t i = 0; i < back.world_info.type_count; i++) {
        const proto_vessel_type* y = &back.world_info.types[i];
        fprintf(f, "%s{\"type\": %u, \"name\": \"%s\", \"pump_rate\": %.9g, \"compartment_volumes\": [", i ? ", " : "",
                y->type, y->name, (double)y->pump_rate);
        for (uint32_t k = 0; k < y->compartment_count; k++)
            fprintf(f, "%s%.9g", k ? ", " : "", (double)y->compartment_volumes[k]);
        fputs("]}", f);
    }
    fputs("], \"structures\": [", f);
    for (uint32_t i = 0; i < back.world_info.structure_count; i++) {
        const proto_structure_info* st = &back.world_info.structures[i];
        fprintf(f, "%s{\"vertices\": [", i ? ", " : "");
        for (uint32_t k = 0; k < 3 * st->vertex_count; k++) fprintf(f, "%s%.9g", k ? ", " : "", (double)st->vertices[k]);
        fputs("], \"indices\": [", f);
        for (uint32_t k = 0; k < 3 * st->triangle_count; k++) fprintf(f, "%s%u", k ? ", " : "", st->indices[k]);
        fputs("]}", f);
    }
    fputs("]}\n", f);
    fclose(f);
    proto_free_response(&back);
    memset(&r, 0, sizeof r);
    r.request_id = 78;
    r.status = PROTO_STATUS_OK;
    r.kind = PROTO_BODY_DAMAGE;
    r.body.damage_compartment = 3;
    if (proto_encode_response(&b, &r, &err)) die("damage reply", err.message);
    write_bytes(dir, "reply.bin", b.data, b.size);
    proto_free_buf(&b);
}

/* ---- a view session ------------------------------------------------------------------ */

#define FLEET 120
#define TICKS 900

static uint64_t rng = 99;
static double frand(void) {
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(rng >> 11) / 9007199254740992.0;
}

typedef struct session {
    view_hub* hub;
    proto_view_decoder* dec;
    proto_buf req;
    FILE* bin;
    FILE* json;
    uint32_t updates, with_damage, with_events, keyframes, clears;
} session;

static void session_receive(session* s, const uint8_t* data, size_t size, int silent) {
    proto_view_header h;
    proto_error err;
    if (proto_decode_view_update(s->dec, data, size, &h, &err)) die("view update", err.message);
    uint32_t n = (uint32_t)size;
    uint8_t len[4] = {(uint8_t)n, (uint8_t)(n >> 8), (uint8_t)(n >> 16), (uint8_t)(n >> 24)};
    fwrite(len, 1, 4, s->bin);
    fwrite(data, 1, size, s->bin);
    fprintf(s->json, "%s{\"seq\": %u, \"keyframe\": %d, \"damage\": ", s->updates ? ",\n " : "", h.seq, h.keyframe);
    json_damage(s->json, h.damage, h.damage_count);
    fputs(", \"damage_events\": ", s->json);
    json_events(s->json, h.damage_events, h.damage_event_count);
    /* What the decoder holds after it, by id. */
    uint32_t count;
    const proto_vessel_damage* held = proto_view_decoder_damaged(s->dec, &count);
    proto_vessel_damage* sorted = malloc((count ? count : 1) * sizeof *sorted);
    if (count) memcpy(sorted, held, count * sizeof *sorted);
    for (uint32_t i = 1; i < count; i++)
        for (uint32_t j = i; j > 0 && sorted[j - 1].id > sorted[j].id; j--) {
            proto_vessel_damage t = sorted[j];
            sorted[j] = sorted[j - 1];
            sorted[j - 1] = t;
        }
    fputs(", \"held\": ", s->json);
    json_damage(s->json, sorted, count);
    fputc('}', s->json);
    free(sorted);
    s->updates++;
    s->with_damage += h.damage_count > 0;
    s->with_events += h.damage_event_count > 0;
    s->keyframes += (uint32_t)h.keyframe;
    for (uint32_t k = 0; k < h.damage_count; k++) s->clears += proto_damage_is_clear(&h.damage[k]);
    if (silent) return;
    proto_view_request r;
    memset(&r, 0, sizeof r);
    proto_view_decoder_ack(s->dec, &r.ack, &r.ack_mask);
    nv_error e;
    if (proto_encode_view_request(&s->req, &r, &err) || view_handle(s->hub, 1, s->req.data, s->req.size, &e))
        die("view ack", "refused");
}

static void write_session(const char* dir) {
    session s;
    memset(&s, 0, sizeof s);
    view_config cfg;
    view_config_default(&cfg);
    nv_error e;
    proto_error err;
    if (view_hub_create(&s.hub, &cfg, NULL, NULL, &e) || view_open(s.hub, 1, &e)) die("view hub", e.message);
    if (!(s.dec = proto_create_view_decoder(4096, &err))) die("view decoder", err.message);
    proto_view_request r;
    memset(&r, 0, sizeof r);
    r.has_settings = 1;
    r.settings.radius = 600.0f;
    r.settings.budget_kbps = 128;
    if (proto_encode_view_request(&s.req, &r, &err) || view_handle(s.hub, 1, s.req.data, s.req.size, &e))
        die("view settings", "refused");
    s.bin = open_out(dir, "updates.bin");
    s.json = open_out(dir, "updates.json");
    fputs("[", s.json);
    /* A fleet at rest on a line along x; the view steams along it at 10 m/s. */
    proto_vessel v[FLEET];
    memset(v, 0, sizeof v);
    for (uint32_t i = 0; i < FLEET; i++) {
        v[i].id = 100 + i;
        v[i].type = (uint16_t)(i % 3);
        v[i].position[0] = 25.0 * i - 200.0;
        v[i].position[2] = 40.0 * sin(i);
        v[i].orientation[3] = 1.0f;
    }
    proto_vessel_damage dmg[FLEET];
    proto_damage_event ev[8];
    for (uint64_t tick = 1; tick <= TICKS; tick++) {
        for (uint32_t i = 0; i < FLEET; i++) v[i].position[1] = 0.2 * sin(0.05 * (double)tick + i);
        /* Every third vessel damaged, its water rising; vessel 103 pumps on
         * from tick 200; vessel 106 sinks at tick 300; vessel 109 is
         * repaired (no longer in the list) from tick 400. */
        uint32_t nd = 0;
        for (uint32_t i = 0; i < FLEET; i += 3) {
            uint32_t id = 100 + i;
            if (id == 109 && tick >= 400) continue;
            proto_vessel_damage* d = &dmg[nd++];
            memset(d, 0, sizeof *d);
            d->id = id;
            d->holes = (uint8_t)(1 + i % 2);
            d->flags = (uint8_t)((id == 103 && tick >= 200 ? PROTO_DAMAGE_PUMPING : 0) |
                                 (id == 106 && tick >= 300 ? PROTO_DAMAGE_SUNK_FLAG : 0));
            d->compartment_count = (uint8_t)(3 + i % 5);
            for (uint32_t k = 0; k < d->compartment_count; k++) {
                double w = (double)tick / 4.0 + 30.0 * k + i;
                d->fill[k] = (uint8_t)(w > 255.0 ? 255.0 : w);
            }
        }
        /* An event most ticks, of vessels along the line. */
        uint32_t ne = 0;
        if (tick % 2 == 0) {
            uint32_t i = (uint32_t)((tick * 7) % FLEET);
            uint8_t kind = (uint8_t)(tick / 2 % 5);
            event_at(&ev[ne++], tick, 100 + i, kind, kind <= PROTO_DAMAGE_FULL ? (uint8_t)(tick % 4) : PROTO_DAMAGE_NO_COMPARTMENT,
                     kind == PROTO_DAMAGE_BREACH ? 0.25f + (float)(tick % 8) / 8.0f : 0.0f, (float)(tick % 5) - 2.0f, -0.75f,
                     0.5f);
        }
        if (view_hub_set_damage(s.hub, dmg, nd, ev, ne, &e)) die("set damage", e.message);
        view_frame f = {tick, (double)tick / 60.0, 0, v, FLEET, NULL, 0};
        int silent = tick >= 500 && tick < 650; /* keyframes, then back */
        /* The view moves 10 m/s along the line (settings every second, but
         * while the client is silent). */
        if (tick % 60 == 0 && !silent) {
            memset(&r, 0, sizeof r);
            r.has_settings = 1;
            r.settings.center[0] = (double)tick / 6.0;
            r.settings.radius = 600.0f;
            r.settings.budget_kbps = 128;
            proto_view_decoder_ack(s.dec, &r.ack, &r.ack_mask);
            if (proto_encode_view_request(&s.req, &r, &err) || view_handle(s.hub, 1, s.req.data, s.req.size, &e))
                die("view move", "refused");
        }
        if (view_hub_encode(s.hub, &f, NULL, &e)) die("view encode", e.message);
        for (uint32_t k = 0; k < view_hub_output_count(s.hub); k++) {
            uint32_t conn;
            const uint8_t* data;
            size_t size;
            view_hub_output(s.hub, k, &conn, &data, &size);
            if (!silent && frand() < 0.05) continue; /* lost on the way */
            session_receive(&s, data, size, silent);
        }
    }
    fputs("]\n", s.json);
    fclose(s.bin);
    fclose(s.json);
    fprintf(stderr, "web-damage-fixture: %u updates, %u with damage entries (%u clearing), %u with events, %u keyframes\n",
            s.updates, s.with_damage, s.clears, s.with_events, s.keyframes);
    if (!s.with_damage || !s.with_events || !s.keyframes || !s.clears) die("session", "does not cover what it should");
    proto_free_buf(&s.req);
    proto_destroy_view_decoder(s.dec);
    view_hub_destroy(s.hub);
}

int main(int argc, char** argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: web-damage-fixture DIR\n");
        return 2;
    }
    write_snapshot(argv[1]);
    write_responses(argv[1]);
    write_session(argv[1]);
    return 0;
}
