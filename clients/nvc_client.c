// SPDX-License-Identifier: MIT
/* Connecting, closing, and every request: encode, send on a fresh REQ
 * context with the timeout, wait, decode, check the status. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nvc_internal.h"

#include <nng/protocol/reqrep0/req.h>

static void nvc_ok(nv_error* err) { nv_error_clear(err); }

void nvc_options_default(nvc_options* o) {
    memset(o, 0, sizeof *o);
    o->request_timeout_ms = 2000;
    o->max_snapshot_bytes = 64u << 20;
    o->queue_depth = 4;
}

static int nvc_open_requests(nvc_client* c, nv_error* err) {
    const char* url = c->opts.command_url;
    int rv = nng_req0_open(&c->req);
    if (rv) return nv_error_fail(err, NV_ENOMEM, "cannot open a REQ socket: %s", nng_strerror(rv));
    c->req_open = 1;
    nng_dialer d;
    if ((rv = nng_dialer_create(&d, c->req, url)) != 0)
        return nv_error_fail(err, NV_EINVAL, "command URL %s: %s", url, nng_strerror(rv));
    /* Responses carry whole world infos and hull meshes. */
    nng_dialer_set_size(d, NNG_OPT_RECVMAXSZ, c->opts.max_snapshot_bytes);
    if ((rv = nng_dialer_start(d, 0)) != 0)
        return nv_error_fail(err, NV_ECONNECT, "cannot connect to %s: %s", url, nng_strerror(rv));
    return 0;
}

int nvc_connect(nvc_client** out, const nvc_options* opts, nv_error* err) {
    *out = NULL;
    if (!opts || (!opts->snapshot_url && !opts->command_url))
        return nv_error_fail(err, NV_EINVAL, "give a snapshot URL, a command URL or both");
    if (opts->request_timeout_ms <= 0 || opts->queue_depth == 0 || opts->max_snapshot_bytes < 1024)
        return nv_error_fail(err, NV_EINVAL,
                             "request_timeout_ms must be > 0, queue_depth >= 1, max_snapshot_bytes >= 1024 "
                             "(nvc_options_default sets them)");
    if (opts->admin_token && strlen(opts->admin_token) >= PROTO_SECRET_MAX)
        return nv_error_fail(err, NV_EINVAL, "admin token longer than %d characters", PROTO_SECRET_MAX - 1);
    nvc_client* c = calloc(1, sizeof *c);
    if (!c) return nv_error_fail(err, NV_ENOMEM, "out of memory");
    c->opts = *opts;
    if (opts->admin_token) snprintf(c->admin_token, sizeof c->admin_token, "%s", opts->admin_token);
    c->opts.admin_token = NULL;
    if (nng_mtx_alloc(&c->player_lock) != 0) {
        free(c);
        return nv_error_fail(err, NV_ENOMEM, "out of memory");
    }
    /* Ids only label requests in logs and check answers: start somewhere
     * random so that two clients' logs do not look alike. */
    atomic_store(&c->next_request_id, ((uint64_t)nng_random() << 16) | 1u);
    if ((opts->command_url && nvc_open_requests(c, err)) || (opts->snapshot_url && nvc_snapshots_open(c, err))) {
        nvc_close(c);
        return -1;
    }
    c->opts.snapshot_url = c->opts.command_url = NULL; /* not kept: the caller owns those strings */
    *out = c;
    nvc_ok(err);
    return 0;
}

void nvc_close(nvc_client* c) {
    if (!c) return;
    nvc_snapshots_close(c);
    if (c->req_open) nng_close(c->req);
    if (c->player_lock) nng_mtx_free(c->player_lock);
    free(c);
}

/* ---- requests ---------------------------------------------------------------- */

static int nvc_exchange(nvc_client* c, const void* data, size_t size, uint64_t request_id, proto_response* resp,
                        nv_error* err) {
    if (!c->req_open) return nv_error_fail(err, NV_ESTATE, "this client has no command URL");
    nng_ctx ctx;
    nng_aio* aio = NULL;
    nng_msg* msg = NULL;
    int rv = nng_ctx_open(&ctx, c->req);
    if (rv) return nv_error_fail(err, rv == NNG_ECLOSED ? NV_ECLOSED : NV_ENOMEM, "request: %s", nng_strerror(rv));
    int result = -1;
    nng_duration timeout = c->opts.request_timeout_ms;
    /* No resend: a spawn sent twice would spawn twice. */
    nng_ctx_set_ms(ctx, NNG_OPT_REQ_RESENDTIME, timeout * 2 + 1000);
    if ((rv = nng_aio_alloc(&aio, NULL, NULL)) != 0 || (rv = nng_msg_alloc(&msg, size)) != 0) {
        nv_error_fail(err, NV_ENOMEM, "request: %s", nng_strerror(rv));
        goto done;
    }
    if (size) memcpy(nng_msg_body(msg), data, size);
    nng_aio_set_timeout(aio, timeout);
    nng_aio_set_msg(aio, msg);
    nng_ctx_send(ctx, aio);
    nng_aio_wait(aio);
    if ((rv = nng_aio_result(aio)) != 0) {
        nng_msg_free(msg); /* still ours when the send failed */
        msg = NULL;
        goto failed;
    }
    msg = NULL;
    nng_aio_set_timeout(aio, timeout);
    nng_ctx_recv(ctx, aio);
    nng_aio_wait(aio);
    if ((rv = nng_aio_result(aio)) != 0) goto failed;
    msg = nng_aio_get_msg(aio);
    proto_error pe;
    if (proto_decode_response(nng_msg_body(msg), nng_msg_len(msg), NULL, resp, &pe)) {
        nv_error_fail(err, NV_EPROTO, "the answer does not decode: %s", pe.message);
        goto done;
    }
    /* The server answers 0 when it could not read the request's id. */
    if (resp->request_id != request_id && resp->request_id != 0) {
        nv_error_fail(err, NV_EPROTO, "answer to request %llu, expected %llu", (unsigned long long)resp->request_id,
                      (unsigned long long)request_id);
        goto done;
    }
    result = 0;
    goto done;
failed:
    if (rv == NNG_ETIMEDOUT)
        nv_error_fail(err, NV_ETIMEDOUT, "no answer within %d ms (is the server running and reachable?)",
                      c->opts.request_timeout_ms);
    else if (rv == NNG_ECLOSED)
        nv_error_fail(err, NV_ECLOSED, "the client is closing");
    else
        nv_error_fail(err, NV_ECONNECT, "request failed: %s", nng_strerror(rv));
done:
    if (msg) nng_msg_free(msg);
    if (aio) nng_aio_free(aio);
    nng_ctx_close(ctx);
    return result;
}

int nvc_request_raw(nvc_client* c, const void* data, size_t size, proto_response* resp, nv_error* err) {
    if (!c || !resp || (size && !data)) return nv_error_fail(err, NV_EINVAL, "request: missing argument");
    /* The id the server reads from these bytes, as it reads it (0 when
     * none can be read). */
    if (nvc_exchange(c, data, size, proto_request_id(data, size), resp, err)) return -1;
    nvc_ok(err);
    return 0;
}

int nvc_request(nvc_client* c, proto_request* req, proto_response* resp, nv_error* err) {
    if (!c || !req || !resp) return nv_error_fail(err, NV_EINVAL, "request: missing argument");
    req->request_id = atomic_fetch_add(&c->next_request_id, 1);
    snprintf(req->admin_token, sizeof req->admin_token, "%s", c->admin_token);
    proto_buf buf = {0};
    proto_error pe;
    if (proto_encode_request(&buf, req, &pe)) {
        proto_free_buf(&buf);
        return nv_error_fail(err, NV_EINVAL, "request: %s", pe.message);
    }
    int rc = nvc_exchange(c, buf.data, buf.size, req->request_id, resp, err);
    proto_free_buf(&buf);
    if (rc == 0) nvc_ok(err);
    return rc;
}

/* The request, then the answer's status: NV_EREFUSED with the reason
 * for anything but OK. */
static int nvc_call(nvc_client* c, proto_request* req, proto_response* resp, nv_error* err) {
    if (nvc_request(c, req, resp, err)) return -1;
    if (resp->status != PROTO_STATUS_OK) {
        nv_error_fail(err, NV_EREFUSED, "server: %s: %s", proto_status_name(resp->status), resp->error);
        if (err) err->status = resp->status;
        return -1;
    }
    if (resp->kind != req->kind)
        return nv_error_fail(err, NV_EPROTO, "the answer is of kind %d, expected %d", (int)resp->kind, (int)req->kind);
    return 0;
}

int nvc_hello(nvc_client* c, const char* client_name, proto_hello_reply* out, nv_error* err) {
    proto_request req = {0};
    proto_response resp = {0};
    req.kind = PROTO_BODY_HELLO;
    req.body.hello.protocol_version = PROTO_VERSION;
    snprintf(req.body.hello.client_name, sizeof req.body.hello.client_name, "%s", client_name ? client_name : "");
    req.body.hello.has_player = (uint8_t)nvc_get_player(c, &req.body.hello.player);
    int rc = nvc_call(c, &req, &resp, err);
    if (rc == 0 && resp.body.hello.has_player) nvc_set_player(c, &resp.body.hello.player);
    if (rc == 0 && out) *out = resp.body.hello;
    proto_free_response(&resp);
    return rc;
}

void nvc_set_player(nvc_client* c, const proto_token* identity) {
    nng_mtx_lock(c->player_lock);
    c->has_player = identity != NULL;
    if (identity) c->player = *identity;
    nng_mtx_unlock(c->player_lock);
}

int nvc_get_player(nvc_client* c, proto_token* out) {
    nng_mtx_lock(c->player_lock);
    int has = c->has_player;
    if (has) *out = c->player;
    nng_mtx_unlock(c->player_lock);
    return has;
}

int nvc_get_world_info(nvc_client* c, proto_world_info* out, nv_error* err) {
    if (!out) return nv_error_fail(err, NV_EINVAL, "world info: no output");
    proto_request req = {0};
    proto_response resp = {0};
    req.kind = PROTO_BODY_WORLD_INFO;
    /* Decode into the caller's struct so that its arrays are reused. */
    resp.world_info = *out;
    int rc = nvc_call(c, &req, &resp, err);
    *out = resp.world_info;
    memset(&resp.world_info, 0, sizeof resp.world_info);
    proto_free_response(&resp);
    return rc;
}

int nvc_get_hull(nvc_client* c, uint16_t type, proto_hull* out, nv_error* err) {
    if (!out) return nv_error_fail(err, NV_EINVAL, "hull: no output");
    proto_request req = {0};
    proto_response resp = {0};
    req.kind = PROTO_BODY_HULL;
    req.body.get_hull.type = type;
    resp.hull = *out;
    int rc = nvc_call(c, &req, &resp, err);
    *out = resp.hull;
    memset(&resp.hull, 0, sizeof resp.hull);
    proto_free_response(&resp);
    return rc;
}

int nvc_spawn(nvc_client* c, const char* type_name, uint16_t type, double x, double z, double heading, nvc_vessel* out,
              nv_error* err) {
    if (!out) return nv_error_fail(err, NV_EINVAL, "spawn: no output");
    if (type_name && strlen(type_name) >= PROTO_NAME_MAX)
        return nv_error_fail(err, NV_EINVAL, "spawn: type name longer than %d characters", PROTO_NAME_MAX - 1);
    proto_request req = {0};
    proto_response resp = {0};
    req.kind = PROTO_BODY_SPAWN;
    snprintf(req.body.spawn.type_name, sizeof req.body.spawn.type_name, "%s", type_name ? type_name : "");
    req.body.spawn.type = type;
    req.body.spawn.x = x;
    req.body.spawn.z = z;
    req.body.spawn.heading = heading;
    int rc = nvc_call(c, &req, &resp, err);
    if (rc == 0) {
        out->id = resp.body.spawn.vessel_id;
        out->token = resp.body.spawn.token;
        out->x = resp.body.spawn.x;
        out->z = resp.body.spawn.z;
    }
    proto_free_response(&resp);
    return rc;
}

int nvc_control(nvc_client* c, const nvc_vessel* v, float throttle, float rudder, nv_error* err) {
    if (!v) return nv_error_fail(err, NV_EINVAL, "control: no vessel");
    proto_request req = {0};
    proto_response resp = {0};
    req.kind = PROTO_BODY_CONTROL;
    req.body.control.vessel_id = v->id;
    req.body.control.token = v->token;
    req.body.control.throttle = throttle;
    req.body.control.rudder = rudder;
    int rc = nvc_call(c, &req, &resp, err);
    proto_free_response(&resp);
    return rc;
}

const proto_vessel_damage* nvc_snapshot_damage(const proto_snapshot* s, uint32_t id) {
    if (!s) return NULL;
    for (uint32_t i = 0; i < s->damage_count; i++)
        if (s->damage[i].id == id) return &s->damage[i];
    return NULL;
}

int nvc_despawn(nvc_client* c, const nvc_vessel* v, nv_error* err) {
    if (!v) return nv_error_fail(err, NV_EINVAL, "despawn: no vessel");
    proto_request req = {0};
    proto_response resp = {0};
    req.kind = PROTO_BODY_DESPAWN;
    req.body.despawn.vessel_id = v->id;
    req.body.despawn.token = v->token;
    int rc = nvc_call(c, &req, &resp, err);
    proto_free_response(&resp);
    return rc;
}

int nvc_damage(nvc_client* c, uint32_t id, float x, float y, float z, float area, uint32_t* compartment,
               nv_error* err) {
    proto_request req = {0};
    proto_response resp = {0};
    req.kind = PROTO_BODY_DAMAGE;
    req.body.damage.vessel_id = id;
    req.body.damage.point[0] = x, req.body.damage.point[1] = y, req.body.damage.point[2] = z;
    req.body.damage.area = area;
    int rc = nvc_call(c, &req, &resp, err);
    if (rc == 0 && compartment) *compartment = resp.body.damage_compartment;
    proto_free_response(&resp);
    return rc;
}

int nvc_pumps(nvc_client* c, const nvc_vessel* v, int on, nv_error* err) {
    if (!v) return nv_error_fail(err, NV_EINVAL, "pumps: no vessel");
    proto_request req = {0};
    proto_response resp = {0};
    req.kind = PROTO_BODY_PUMPS;
    req.body.pumps.vessel_id = v->id;
    req.body.pumps.token = v->token;
    req.body.pumps.on = on ? 1 : 0;
    int rc = nvc_call(c, &req, &resp, err);
    proto_free_response(&resp);
    return rc;
}

int nvc_get_stats(nvc_client* c, proto_stats* out, nv_error* err) {
    proto_request req = {0};
    proto_response resp = {0};
    req.kind = PROTO_BODY_STATS;
    int rc = nvc_call(c, &req, &resp, err);
    if (rc == 0 && out) *out = resp.body.stats;
    proto_free_response(&resp);
    return rc;
}
