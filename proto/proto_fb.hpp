// SPDX-License-Identifier: MIT
// Helpers of the FlatBuffers codec: included by the C++ units only
// (proto_codec.cpp, proto_view_codec.cpp). Everything here but the
// buffer's builder type is internal linkage.
#ifndef NAVAL_PROTO_FB_HPP
#define NAVAL_PROTO_FB_HPP

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <vector>

#include "naval_generated.h"
#include "proto_internal.h"

namespace fb = flatbuffers;
namespace np = naval::proto;

static_assert(FLATBUFFERS_LITTLEENDIAN, "the struct copies assume a little-endian host, like the wire");
static_assert(sizeof(np::VesselState) == sizeof(proto_vessel), "VesselState and proto_vessel differ");
static_assert(offsetof(proto_vessel, position) == 8 && offsetof(proto_vessel, orientation) == 32 &&
                  offsetof(proto_vessel, velocity) == 48 && offsetof(proto_vessel, angular_velocity) == 60,
              "proto_vessel must keep the wire's VesselState layout");
static_assert(sizeof(np::Vec3f) == 3 * sizeof(float), "Vec3f is three packed floats");
static_assert(sizeof(np::Contact) == sizeof(proto_contact) && sizeof(proto_contact) == 64 &&
                  offsetof(proto_contact, point) == 16 && offsetof(proto_contact, normal) == 40 &&
                  offsetof(proto_contact, impulse) == 56,
              "Contact and proto_contact differ");
static_assert(sizeof(np::DamageEvent) == sizeof(proto_damage_event) && sizeof(proto_damage_event) == 32 &&
                  offsetof(proto_damage_event, area) == 16 && offsetof(proto_damage_event, point) == 20,
              "DamageEvent and proto_damage_event differ");
static_assert(PROTO_BODY_DAMAGE == (int)np::RequestBody::Damage && PROTO_BODY_PUMPS == (int)np::RequestBody::Pumps &&
                  PROTO_BODY_DAMAGE == (int)np::ResponseBody::DamageReply &&
                  PROTO_BODY_PUMPS == (int)np::ResponseBody::PumpsReply,
              "proto_body is the wire's RequestBody and ResponseBody");
static_assert(PROTO_BODY_STATS == (int)np::RequestBody::GetStats &&
                  PROTO_BODY_STATS == (int)np::ResponseBody::StatsReply &&
                  PROTO_BODY_HULL == (int)np::ResponseBody::HullMesh,
              "proto_body numbers are the unions' member numbers");
static_assert(PROTO_STATUS_SHUTTING_DOWN == (int)np::Status::ShuttingDown, "proto_status is the wire's Status");

// A proto_buf's builder: one type for every C++ unit (a buffer may be
// filled by any of them and freed by proto_free_buf).
namespace naval_proto_detail {
struct buf_impl {
    fb::FlatBufferBuilder fbb{4096};
};
}  // namespace naval_proto_detail

namespace {

using naval_proto_detail::buf_impl;

// The builder of `out`, cleared (its memory kept).
inline fb::FlatBufferBuilder& builder_of(proto_buf* out) {
    if (!out->impl) out->impl = new buf_impl();
    auto& fbb = static_cast<buf_impl*>(out->impl)->fbb;
    fbb.Clear();
    return fbb;
}

template <typename T>
void finish(proto_buf* out, fb::FlatBufferBuilder& fbb, fb::Offset<T> root, const char* id) {
    fbb.Finish(root, id);
    out->data = fbb.GetBufferPointer();
    out->size = fbb.GetSize();
}

template <typename F>
int guarded(proto_error* err, F&& body) noexcept {
    try {
        return body();
    } catch (const std::bad_alloc&) {
        return nv_error_fail(err, NV_ENOMEM, "out of memory");
    } catch (const std::exception& e) {
        return nv_error_fail(err, NV_EINTERNAL, "internal error: %s", e.what());
    } catch (...) {
        return nv_error_fail(err, NV_EINTERNAL, "internal error");
    }
}

template <typename F>
int guarded_encode(proto_buf* out, proto_error* err, F&& body) noexcept {
    if (!out) return nv_error_fail(err, NV_EINVAL, "no output buffer");
    out->data = nullptr;
    out->size = 0;
    int rc = guarded(err, body);
    if (rc != 0) {
        out->data = nullptr;
        out->size = 0;
    }
    return rc;
}

// The verified root of a message of kind T, or nullptr with err set.
// `scratch` holds an aligned copy when the input is misaligned.
template <typename T>
const T* verified_root(const void* data, size_t size, const proto_limits& lim, const char* id, const char* what,
                       std::vector<uint64_t>& scratch, proto_error* err) {
    if (!data || size == 0) return proto_set_error(err, "%s: empty message", what), nullptr;
    // (The constant bound also tells the compiler that the copy below is sane.)
    if (size > lim.max_message_size || size > PROTO_HARD_MAX_MESSAGE)
        return nv_error_fail(err, NV_ELIMIT, "%s: message of %zu bytes is over the limit of %zu", what, size,
                               lim.max_message_size),
               nullptr;
    const uint8_t* buf = static_cast<const uint8_t*>(data);
    if (reinterpret_cast<uintptr_t>(buf) % alignof(uint64_t) != 0) {
        scratch.resize((size + 7) / 8);
        std::memcpy(scratch.data(), buf, size);
        buf = reinterpret_cast<const uint8_t*>(scratch.data());
    }
    if (size < 8 || !fb::BufferHasIdentifier(buf, id))
        return proto_set_error(err, "%s: not a %s message (wrong file identifier)", what, id), nullptr;
    fb::Verifier verifier(buf, size);
    if (!verifier.VerifyBuffer<T>(id)) return proto_set_error(err, "%s: malformed message", what), nullptr;
    return fb::GetRoot<T>(buf);
}

inline int copy_string(const fb::String* s, char* dst, size_t cap, const char* what, proto_error* err) {
    if (!s) {
        dst[0] = '\0';
        return 0;
    }
    size_t n = s->size();
    if (n >= cap) return proto_set_error(err, "%s is too long (%zu bytes, max %zu)", what, n, cap - 1);
    if (!proto_check_utf8(s->c_str(), n)) return proto_set_error(err, "%s is not valid UTF-8 or holds NUL", what);
    std::memcpy(dst, s->c_str(), n);
    dst[n] = '\0';
    return 0;
}

// A checked name as a wire string (0 for ""), or -1.
inline int put_string(fb::FlatBufferBuilder& fbb, const char* s, size_t cap, const char* what, fb::Offset<fb::String>* o,
               proto_error* err) {
    if (proto_check_name(s, cap, what, err) != 0) return -1;
    size_t n = std::strlen(s);
    *o = n ? fbb.CreateString(s, n) : fb::Offset<fb::String>();
    return 0;
}

// Grows a decoder-owned array to at least `need` elements (realloc: the
// proto_free_* functions are C).
template <typename T>
int grow(T** p, uint32_t* cap, size_t need, proto_error* err) {
    if (need <= *cap) return 0;
    if (*cap == 0) *p = nullptr;  // a caller's array (capacity 0) is not ours to realloc
    size_t n = need < 16 ? 16 : need;
    void* q = std::realloc(*p, n * sizeof(T));
    if (!q) return nv_error_fail(err, NV_ENOMEM, "out of memory (%zu elements)", n);
    *p = static_cast<T*>(q);
    *cap = static_cast<uint32_t>(n);
    return 0;
}

template <typename T>
void copy_vector(T* dst, const fb::Vector<T>* v) {
    if (v && v->size()) std::memcpy(dst, v->Data(), v->size() * sizeof(T));
}

inline np::Token token_to_wire(const proto_token& t) {
    uint64_t lo = 0, hi = 0;
    for (int i = 7; i >= 0; i--) {
        lo = (lo << 8) | t.bytes[i];
        hi = (hi << 8) | t.bytes[8 + i];
    }
    return np::Token(lo, hi);
}

inline proto_token token_from_wire(const np::Token* w) {
    proto_token t;
    uint64_t lo = w->lo(), hi = w->hi();
    for (int i = 0; i < 8; i++) {
        t.bytes[i] = static_cast<uint8_t>(lo >> (8 * i));
        t.bytes[8 + i] = static_cast<uint8_t>(hi >> (8 * i));
    }
    return t;
}

// ---- damage, in snapshots and view updates ----------------------------------

typedef fb::Offset<fb::Vector<fb::Offset<np::VesselDamage>>> damage_vector;
typedef fb::Offset<fb::Vector<const np::DamageEvent*>> damage_event_vector;

inline int put_damage(fb::FlatBufferBuilder& fbb, const proto_vessel_damage* d, uint32_t n, uint32_t max,
                      damage_vector* o, proto_error* err) {
    if (!n) return 0;
    if (!d) return nv_error_fail(err, NV_EINVAL, "damage: the list is missing");
    if (n > max) return nv_error_fail(err, NV_ELIMIT, "damage: %u vessels, over the limit of %u", n, max);
    std::vector<fb::Offset<np::VesselDamage>> list(n);
    for (uint32_t i = 0; i < n; i++) {
        if (d[i].compartment_count > PROTO_MAX_COMPARTMENTS)
            return proto_set_error(err, "damage: vessel %u has %u compartments (at most %u)", d[i].id,
                                   d[i].compartment_count, PROTO_MAX_COMPARTMENTS);
        auto fill = fbb.CreateVector(d[i].fill, d[i].compartment_count);
        list[i] = np::CreateVesselDamage(fbb, d[i].id, d[i].flags, d[i].holes, fill);
    }
    *o = fbb.CreateVector(list);
    return 0;
}

inline int put_damage_events(fb::FlatBufferBuilder& fbb, const proto_damage_event* e, uint32_t n, uint32_t max,
                             damage_event_vector* o, proto_error* err) {
    if (!n) return 0;
    if (!e) return nv_error_fail(err, NV_EINVAL, "damage events: the list is missing");
    if (n > max) return nv_error_fail(err, NV_ELIMIT, "damage events: %u, over the limit of %u", n, max);
    *o = fbb.CreateVectorOfStructs(reinterpret_cast<const np::DamageEvent*>(e), n);
    return 0;
}

using contact_vector = fb::Offset<fb::Vector<const np::Contact*>>;

// Same layout (asserted in proto_codec.cpp): the builder copies the array as bytes.
inline int put_contacts(fb::FlatBufferBuilder& fbb, const proto_contact* c, uint32_t n, uint32_t max, const char* what,
                        contact_vector* o, proto_error* err) {
    if (!n) return 0;
    if (!c) return nv_error_fail(err, NV_EINVAL, "%s: contacts missing", what);
    if (n > max) return nv_error_fail(err, NV_ELIMIT, "%s: %u contacts, over the limit of %u", what, n, max);
    *o = fbb.CreateVectorOfStructs(reinterpret_cast<const np::Contact*>(c), n);
    return 0;
}

inline int get_contacts(const fb::Vector<const np::Contact*>* v, uint32_t max, const char* what, proto_contact** out,
                        uint32_t* capacity, uint32_t* count, proto_error* err) {
    *count = 0;
    size_t n = v ? v->size() : 0;
    if (n > max) return nv_error_fail(err, NV_ELIMIT, "%s: %zu contacts, over the limit of %u", what, n, max);
    if (grow(out, capacity, n, err) != 0) return -1;
    if (n) std::memcpy(*out, v->Data(), n * sizeof(proto_contact));
    *count = static_cast<uint32_t>(n);
    return 0;
}

inline int get_damage(const fb::Vector<fb::Offset<np::VesselDamage>>* v, uint32_t max, proto_vessel_damage** out,
                      uint32_t* capacity, uint32_t* count, proto_error* err) {
    *count = 0;
    size_t n = v ? v->size() : 0;
    if (n > max) return nv_error_fail(err, NV_ELIMIT, "damage: %zu vessels, over the limit of %u", n, max);
    if (grow(out, capacity, n, err) != 0) return -1;
    for (size_t i = 0; i < n; i++) {
        auto* d = v->Get(static_cast<fb::uoffset_t>(i));
        if (!d) return proto_set_error(err, "damage: entry %zu missing", i);
        proto_vessel_damage& o = (*out)[i];
        o = proto_vessel_damage{};
        o.id = d->id();
        o.flags = d->flags();
        o.holes = d->holes();
        auto* fill = d->fill();
        size_t k = fill ? fill->size() : 0;
        if (k > PROTO_MAX_COMPARTMENTS)
            return proto_set_error(err, "damage: vessel %u has %zu compartments (at most %u)", o.id, k,
                                   PROTO_MAX_COMPARTMENTS);
        o.compartment_count = static_cast<uint8_t>(k);
        if (k) std::memcpy(o.fill, fill->Data(), k);
    }
    *count = static_cast<uint32_t>(n);
    return 0;
}

inline int get_damage_events(const fb::Vector<const np::DamageEvent*>* v, uint32_t max, proto_damage_event** out,
                             uint32_t* capacity, uint32_t* count, proto_error* err) {
    *count = 0;
    size_t n = v ? v->size() : 0;
    if (n > max) return nv_error_fail(err, NV_ELIMIT, "damage events: %zu, over the limit of %u", n, max);
    if (grow(out, capacity, n, err) != 0) return -1;
    if (n) std::memcpy(*out, v->Data(), n * sizeof(proto_damage_event));
    for (size_t i = 0; i < n; i++)
        if ((*out)[i].kind > PROTO_DAMAGE_REMOVED)
            return proto_set_error(err, "damage events: event %zu has unknown kind %u", i, (*out)[i].kind);
    *count = static_cast<uint32_t>(n);
    return 0;
}

}  // namespace

#endif
