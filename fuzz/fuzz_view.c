// SPDX-License-Identifier: MIT
/* libFuzzer: player views, both ends (docs/protocol.md, "Player views").
 * Each input goes
 *  (a) whole, to proto_decode_view_request;
 *  (b) to a view hub as the requests of one connection: the whole input,
 *      then each chunk (fuzz_view_fleet.h: a 16-bit length, then the
 *      bytes), with an encode of the next frame of a small fleet after
 *      each, so that the fuzzer's settings and acks drive the encoder.
 *      Chunks no request can be: empty, the view closes and reopens; one
 *      byte, odd: the client acknowledges what it holds, even: a frame
 *      passes with no request. What the hub sends goes through a client's
 *      decoder: while every ack came from that decoder the two ends must
 *      agree, so an update it refuses is a finding (with the fuzzer's own
 *      acks, refusals are expected);
 *  (c) chunk by chunk, to one proto_view_decoder (it keeps its base and
 *      pending updates between them), sampling what it holds after each.
 * Everything is freed each run. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz_view_fleet.h"
#include "proto.h"
#include "view.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

typedef struct fuzz_chunks {
    const uint8_t* data;
    size_t size, at;
    uint32_t taken;
} fuzz_chunks;

/* The next chunk: 1 with *chunk and *len, 0 at the end. */
static int fuzz_next_chunk(fuzz_chunks* c, const uint8_t** chunk, size_t* len) {
    if (c->at + 2 > c->size || c->taken == FUZZ_VIEW_MAX_CHUNKS) return 0;
    size_t want = (size_t)c->data[c->at] | (size_t)c->data[c->at + 1] << 8;
    c->at += 2;
    *len = want < c->size - c->at ? want : c->size - c->at;
    *chunk = c->data + c->at;
    c->at += *len;
    c->taken++;
    return 1;
}

/* What a client does with what it holds: sample it before, between and
 * past its samples. */
static void fuzz_sample_all(const proto_view_decoder* d) {
    uint32_t n, events, damaged, dev;
    const proto_view_vessel* vs = proto_view_decoder_vessels(d, &n);
    proto_view_decoder_events(d, &events);
    /* Damage is kept of held vessels only, never a clearing entry. */
    const proto_vessel_damage* dm = proto_view_decoder_damaged(d, &damaged);
    for (uint32_t i = 0; i < damaged; i++)
        if (!proto_view_decoder_find(d, dm[i].id) || proto_view_decoder_damage(d, dm[i].id) != &dm[i] ||
            proto_damage_is_clear(&dm[i]) || dm[i].compartment_count > PROTO_MAX_COMPARTMENTS)
            __builtin_trap();
    const proto_damage_event* de = proto_view_decoder_damage_events(d, &dev);
    if (dev > PROTO_VIEW_MAX_DAMAGE_EVENTS) __builtin_trap();
    for (uint32_t i = 0; i < dev; i++)
        if (de[i].kind > PROTO_DAMAGE_REMOVED) __builtin_trap();
    uint32_t ack, mask;
    proto_view_decoder_ack(d, &ack, &mask);
    for (uint32_t i = 0; i < n; i++) {
        double p[3];
        float q[4];
        double newest = (double)vs[i].samples[0].tick;
        const double at[] = {newest - 7.25, newest - 0.5, newest, newest + 2.5, newest + 1e6};
        for (size_t k = 0; k < sizeof at / sizeof at[0]; k++) proto_view_sample_at(&vs[i], at[k], 3.0, p, q);
        if (proto_view_decoder_find(d, vs[i].id) != &vs[i]) __builtin_trap();
    }
}

static void fuzz_request(const uint8_t* data, size_t size) {
    proto_view_request r;
    proto_error err;
    proto_decode_view_request(data, size, &r, &err);
}

typedef struct fuzz_hub {
    view_hub* hub;
    proto_view_decoder* client;
    uint32_t step;
    int honest; /* every ack the hub took came from the client */
    proto_buf buf;
} fuzz_hub;

static void fuzz_encode(fuzz_hub* f) {
    proto_vessel v[FUZZ_VIEW_FLEET_MAX];
    view_frame frame;
    memset(&frame, 0, sizeof frame);
    frame.count = fuzz_view_fleet(f->step++, v, &frame.tick);
    frame.sim_time = (double)frame.tick / 60.0;
    frame.send_time_ns = frame.tick;
    frame.vessels = v;
    /* Every third step the first two vessels touch, and the first the ground. */
    proto_contact contacts[2];
    if (frame.count >= 2 && f->step % 3 == 0) {
        memset(contacts, 0, sizeof contacts);
        for (int k = 0; k < 2; k++) {
            contacts[k].tick = frame.tick;
            contacts[k].a = v[0].id;
            contacts[k].b = k ? PROTO_CONTACT_GROUND : v[1].id;
            memcpy(contacts[k].point, v[0].position, sizeof contacts[k].point);
            contacts[k].normal[1] = 1.0f;
            contacts[k].closing_speed = 1.0f;
        }
        frame.contacts = contacts;
        frame.contact_count = 2;
    }
    nv_error err;
    proto_vessel_damage dmg[FUZZ_VIEW_DAMAGE_MAX];
    proto_damage_event ev[1];
    uint32_t ndmg, nev;
    fuzz_view_damage(f->step - 1, dmg, &ndmg, ev, &nev);
    if (view_hub_set_damage(f->hub, dmg, ndmg, ev, nev, &err)) __builtin_trap();
    view_hub_encode(f->hub, &frame, NULL, &err);
    for (uint32_t i = 0; i < view_hub_output_count(f->hub); i++) {
        uint32_t conn;
        const uint8_t* out;
        size_t n;
        view_hub_output(f->hub, i, &conn, &out, &n);
        proto_view_header h;
        if (proto_decode_view_update(f->client, out, n, &h, &err)) {
            if (f->honest && err.code != NV_ENOMEM) __builtin_trap(); /* the two ends disagree on what the client holds */
        } else if (h.contact_count > PROTO_VIEW_MAX_CONTACTS) {
            __builtin_trap();
        }
    }
}

static void fuzz_handle(fuzz_hub* f, const uint8_t* msg, size_t size) {
    nv_error err;
    proto_view_request r;
    if (f->honest && !proto_decode_view_request(msg, size, &r, &err) && r.ack) f->honest = 0;
    if (view_handle(f->hub, FUZZ_VIEW_CONN, msg, size, &err)) {
        const uint8_t* out;
        size_t n;
        proto_view_header h;
        if (!view_refusal(f->hub, FUZZ_VIEW_CONN, &err, &out, &n))
            proto_decode_view_update(f->client, out, n, &h, &err);
    }
    fuzz_encode(f);
}

/* What the client library sends after each update: its ack, no settings. */
static void fuzz_client_ack(fuzz_hub* f) {
    proto_view_request r;
    memset(&r, 0, sizeof r);
    proto_view_decoder_ack(f->client, &r.ack, &r.ack_mask);
    proto_error err;
    if (proto_encode_view_request(&f->buf, &r, &err)) __builtin_trap();
    int honest = f->honest;
    fuzz_handle(f, f->buf.data, f->buf.size);
    f->honest = honest;
}

static void fuzz_reopen(fuzz_hub* f, const view_config* cfg) {
    nv_error err;
    view_close(f->hub, FUZZ_VIEW_CONN);
    if (view_open(f->hub, FUZZ_VIEW_CONN, &err)) __builtin_trap();
    proto_destroy_view_decoder(f->client);
    if (!(f->client = proto_create_view_decoder(cfg->max_vessels, &err))) __builtin_trap();
    f->honest = 1;
    fuzz_encode(f);
}

static void fuzz_hub_run(const uint8_t* data, size_t size) {
    view_config cfg;
    fuzz_view_config(&cfg);
    fuzz_hub f;
    memset(&f, 0, sizeof f);
    f.honest = 1;
    nv_error err;
    if (view_hub_create(&f.hub, &cfg, fuzz_view_owner, NULL, &err)) __builtin_trap();
    f.client = proto_create_view_decoder(cfg.max_vessels, &err);
    if (!f.client || view_open(f.hub, FUZZ_VIEW_CONN, &err)) __builtin_trap();
    fuzz_encode(&f);
    fuzz_handle(&f, data, size);
    fuzz_chunks c = {data, size, 0, 0};
    const uint8_t* chunk;
    size_t len;
    while (fuzz_next_chunk(&c, &chunk, &len)) {
        if (len > 1)
            fuzz_handle(&f, chunk, len);
        else if (len == 0)
            fuzz_reopen(&f, &cfg); /* the connection goes and comes back */
        else if (chunk[0] & 1)
            fuzz_client_ack(&f);
        else
            fuzz_encode(&f);
    }
    fuzz_sample_all(f.client);
    proto_free_buf(&f.buf);
    proto_destroy_view_decoder(f.client);
    view_hub_destroy(f.hub);
}

static void fuzz_updates(const uint8_t* data, size_t size) {
    proto_error err;
    proto_view_decoder* d = proto_create_view_decoder(64, &err);
    if (!d) return;
    fuzz_chunks c = {data, size, 0, 0};
    const uint8_t* chunk;
    size_t len;
    while (fuzz_next_chunk(&c, &chunk, &len)) {
        proto_view_header h;
        proto_decode_view_update(d, chunk, len, &h, &err);
        fuzz_sample_all(d);
    }
    proto_destroy_view_decoder(d);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    fuzz_request(data, size);
    fuzz_hub_run(data, size);
    fuzz_updates(data, size);
    return 0;
}
