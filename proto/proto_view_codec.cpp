// SPDX-License-Identifier: MIT
// The FlatBuffers side of player views (docs/protocol.md, "Player views"):
// ViewRequest from a client, the ViewUpdate header around its bit stream.
// The records themselves are C (proto_view.c).
#include "proto_fb.hpp"
#include "proto_view.h"

namespace {

int put_settings(fb::FlatBufferBuilder& fbb, const proto_view_settings& s, fb::Offset<np::ViewSettings>* o,
                 proto_error* err) {
    if (s.own_count > PROTO_VIEW_MAX_OWN)
        return nv_error_fail(err, NV_ELIMIT, "view: %u own vessels, over the limit of %u", s.own_count,
                             PROTO_VIEW_MAX_OWN);
    if (!std::isfinite(s.center[0]) || !std::isfinite(s.center[1]) || !std::isfinite(s.radius) || s.radius < 0.0f)
        return nv_error_fail(err, NV_EINVAL, "view: centre and radius must be finite, the radius >= 0");
    std::vector<np::ViewOwn> own;
    own.reserve(s.own_count);
    for (uint32_t i = 0; i < s.own_count; i++) own.emplace_back(s.own[i].id, token_to_wire(s.own[i].token));
    auto ov = s.own_count ? fbb.CreateVectorOfStructs(own) : fb::Offset<fb::Vector<const np::ViewOwn*>>();
    *o = np::CreateViewSettings(fbb, s.center[0], s.center[1], s.radius, s.budget_kbps, s.follow_own != 0, ov);
    return 0;
}

int get_settings(const np::ViewSettings* w, proto_view_settings* s, proto_error* err) {
    *s = proto_view_settings{};
    s->center[0] = w->center_x();
    s->center[1] = w->center_z();
    s->radius = w->radius();
    s->budget_kbps = w->budget_kbps();
    s->follow_own = w->follow_own() ? 1 : 0;
    if (!std::isfinite(s->center[0]) || !std::isfinite(s->center[1]))
        return proto_set_error(err, "view settings: the centre is not finite");
    if (!std::isfinite(s->radius) || s->radius < 0.0f)
        return proto_set_error(err, "view settings: the radius must be finite and >= 0");
    auto* own = w->own();
    size_t n = own ? own->size() : 0;
    if (n > PROTO_VIEW_MAX_OWN)
        return nv_error_fail(err, NV_ELIMIT, "view settings: %zu own vessels, over the limit of %u", n,
                             PROTO_VIEW_MAX_OWN);
    for (size_t i = 0; i < n; i++) {
        np::ViewOwn o;
        std::memcpy(&o, own->Data() + i * sizeof(np::ViewOwn), sizeof o);
        s->own[i].id = o.id();
        s->own[i].token = token_from_wire(&o.token());
    }
    s->own_count = static_cast<uint32_t>(n);
    return 0;
}

int encode_view_request(proto_buf* out, const proto_view_request* r, proto_error* err) {
    if (!r) return nv_error_fail(err, NV_EINVAL, "view request: no input");
    auto& fbb = builder_of(out);
    fb::Offset<np::ViewSettings> s;
    if (r->has_settings && put_settings(fbb, r->settings, &s, err) != 0) return -1;
    finish(out, fbb, np::CreateViewRequest(fbb, r->ack, r->ack_mask, s), PROTO_ID_VIEW_REQUEST);
    return 0;
}

int decode_view_request(const void* data, size_t size, proto_view_request* out, proto_error* err) {
    if (!out) return nv_error_fail(err, NV_EINVAL, "view request: no output");
    *out = proto_view_request{};
    const proto_limits lim = proto_effective_limits(nullptr);
    std::vector<uint64_t> scratch;
    auto* r = verified_root<np::ViewRequest>(data, size, lim, PROTO_ID_VIEW_REQUEST, "view request", scratch, err);
    if (!r) return -1;
    out->ack = r->ack();
    out->ack_mask = r->ack_mask();
    if (r->settings()) {
        out->has_settings = 1;
        if (get_settings(r->settings(), &out->settings, err) != 0) return -1;
    }
    return 0;
}

int wrap_view_update(proto_buf* out, const proto_view_header* h, const uint8_t* bits, size_t nbytes,
                     proto_error* err) {
    auto& fbb = builder_of(out);
    fb::Offset<np::ViewSettings> s;
    if (h->has_settings && put_settings(fbb, h->settings, &s, err) != 0) return -1;
    fb::Offset<fb::String> error;
    if (h->status != PROTO_STATUS_OK) {
        size_t n = strnlen(h->error, sizeof h->error);
        if (n == sizeof h->error || !proto_check_utf8(h->error, n))
            return proto_set_error(err, "view update: the error text is not UTF-8 within %zu bytes", sizeof h->error);
        error = fbb.CreateString(h->error, n);
    }
    damage_vector damage;
    damage_event_vector events;
    contact_vector contacts;
    if (put_damage(fbb, h->damage, h->damage_count, UINT32_MAX, &damage, err) != 0 ||
        put_damage_events(fbb, h->damage_events, h->damage_event_count, PROTO_VIEW_MAX_DAMAGE_EVENTS, &events, err) != 0 ||
        put_contacts(fbb, h->contacts, h->contact_count, PROTO_VIEW_MAX_CONTACTS, "view update", &contacts, err) != 0)
        return -1;
    auto data = nbytes ? fbb.CreateVector(bits, nbytes) : fb::Offset<fb::Vector<uint8_t>>();
    auto root = np::CreateViewUpdate(fbb, h->seq, h->base_seq, h->keyframe != 0, h->tick, h->sim_time, h->send_time_ns,
                                     h->origin[0], h->origin[1], h->record_count, data,
                                     static_cast<np::Status>(h->status), error, s, damage, events, h->command_port,
                                     contacts);
    finish(out, fbb, root, PROTO_ID_VIEW_UPDATE);
    return 0;
}

int unwrap_view_update(const void* data, size_t size, proto_view_header* h, const uint8_t** bits, size_t* nbytes,
                       proto_view_damage_buf* dmg, uint32_t max_damage, proto_error* err) {
    const proto_limits lim = proto_effective_limits(nullptr);
    std::vector<uint64_t> scratch;
    auto* u = verified_root<np::ViewUpdate>(data, size, lim, PROTO_ID_VIEW_UPDATE, "view update", scratch, err);
    if (!u) return -1;
    *h = proto_view_header{};
    h->seq = u->seq();
    h->base_seq = u->base_seq();
    h->keyframe = u->keyframe() ? 1 : 0;
    h->tick = u->tick();
    h->sim_time = u->sim_time();
    h->command_port = u->command_port();
    h->send_time_ns = u->send_time_ns();
    h->origin[0] = u->origin_x();
    h->origin[1] = u->origin_z();
    h->record_count = u->record_count();
    auto st = static_cast<unsigned>(u->status());
    if (st > static_cast<unsigned>(np::Status::ShuttingDown))
        return proto_set_error(err, "view update: unknown status %u", st);
    h->status = static_cast<proto_status>(st);
    if (copy_string(u->error(), h->error, sizeof h->error, "view update: error", err) != 0) return -1;
    if (h->status != PROTO_STATUS_OK && !h->error[0])
        std::snprintf(h->error, sizeof h->error, "%s", proto_status_name(h->status));
    if (u->settings()) {
        h->has_settings = 1;
        if (get_settings(u->settings(), &h->settings, err) != 0) return -1;
    }
    if (dmg) {
        if (get_damage(u->damage(), max_damage, &dmg->damage, &dmg->damage_cap, &h->damage_count, err) != 0 ||
            get_damage_events(u->damage_events(), PROTO_VIEW_MAX_DAMAGE_EVENTS, &dmg->events, &dmg->event_cap,
                              &h->damage_event_count, err) != 0 ||
            get_contacts(u->contacts(), PROTO_VIEW_MAX_CONTACTS, "view update", &dmg->contacts, &dmg->contact_cap,
                         &h->contact_count, err) != 0) {
            h->damage_count = h->damage_event_count = h->contact_count = 0;
            return -1;
        }
        h->damage = dmg->damage;
        h->damage_events = dmg->events;
        h->contacts = dmg->contacts;
    }
    auto* d = u->data();
    *nbytes = d ? d->size() : 0;
    // Point into the caller's buffer, not the scratch copy that dies here.
    const uint8_t* base = scratch.empty() ? static_cast<const uint8_t*>(data)
                                          : reinterpret_cast<const uint8_t*>(scratch.data());
    *bits = d ? static_cast<const uint8_t*>(data) + (d->Data() - base) : nullptr;
    return 0;
}

}  // namespace

int proto_encode_view_request(proto_buf* out, const proto_view_request* r, proto_error* err) {
    return guarded_encode(out, err, [&] { return encode_view_request(out, r, err); });
}

int proto_decode_view_request(const void* data, size_t size, proto_view_request* out, proto_error* err) {
    return guarded(err, [&] { return decode_view_request(data, size, out, err); });
}

int proto_wrap_view_update(proto_buf* out, const proto_view_header* h, const uint8_t* bits, size_t nbytes,
                           proto_error* err) {
    return guarded_encode(out, err, [&] { return wrap_view_update(out, h, bits, nbytes, err); });
}

int proto_unwrap_view_update(const void* data, size_t size, proto_view_header* h, const uint8_t** bits,
                             size_t* nbytes, proto_view_damage_buf* dmg, uint32_t max_damage, proto_error* err) {
    return guarded(err, [&] { return unwrap_view_update(data, size, h, bits, nbytes, dmg, max_damage, err); });
}

void proto_view_damage_buf_free(proto_view_damage_buf* b) {
    if (!b) return;
    std::free(b->damage);
    std::free(b->events);
    std::free(b->contacts);
    *b = proto_view_damage_buf{};
}
