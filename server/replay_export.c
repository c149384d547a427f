// SPDX-License-Identifier: MIT
#include "replay_export.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grow.h"
#include "snapshot.h"

struct replay_export {
    FILE* f;
    char path[1024];
    snap_builder snap;
    proto_buf msg;
    uint32_t stride, snapshots;
    uint64_t first_tick, last_written; /* last_written: UINT64_MAX before the first */
    long last_offset;                  /* where the last snapshot's record starts */
    int sent;                          /* the events kept went out with the last snapshot */
    int finished;                      /* replay_export_finish succeeded */
    /* what the steps since the last snapshot began (the snapshot only holds its own tick's) */
    proto_contact* contacts;
    uint32_t contact_count, contact_capacity;
    proto_damage_event* events;
    uint32_t event_count, event_capacity;
};

static void put_u32(uint8_t* p, uint32_t v) {
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static int export_write(replay_export* e, const void* data, size_t size, nv_error* err) {
    if (size && fwrite(data, 1, size, e->f) != size)
        return nv_error_fail(err, NV_EIO, "cannot write '%s': %s", e->path, strerror(errno));
    return 0;
}

/* u32 length, u32 kind, the message, zeros to the next multiple of 8. */
static int export_record(replay_export* e, uint32_t kind, const proto_buf* m, nv_error* err) {
    if (m->size > UINT32_MAX - 8) return nv_error_fail(err, NV_ELIMIT, "%s: a message of %zu bytes", e->path, m->size);
    uint8_t head[8];
    static const uint8_t zeros[8];
    put_u32(head, (uint32_t)m->size);
    put_u32(head + 4, kind);
    size_t pad = (8 - m->size % 8) % 8;
    if (export_write(e, head, sizeof head, err) || export_write(e, m->data, m->size, err) ||
        export_write(e, zeros, pad, err))
        return -1;
    return 0;
}

static int export_header(replay_export* e, uint32_t type_count, nv_error* err) {
    uint8_t h[REPLAY_FILE_HEADER] = {0};
    memcpy(h, REPLAY_FILE_MAGIC, 8);
    put_u32(h + 8, REPLAY_FILE_VERSION);
    put_u32(h + 12, type_count);
    put_u32(h + 16, 0); /* the snapshot count: written by replay_export_close */
    put_u32(h + 20, e->stride);
    return export_write(e, h, sizeof h, err);
}

static int export_response(replay_export* e, proto_response* r, uint32_t kind, nv_error* err) {
    r->status = PROTO_STATUS_OK;
    proto_error pe;
    if (proto_encode_response(&e->msg, r, &pe)) return nv_error_fail(err, NV_EINTERNAL, "%s: %s", e->path, pe.message);
    return export_record(e, kind, &e->msg, err);
}

/* The world info and each type's hull, as GetWorldInfo and GetHull answer them. */
static int export_world(replay_export* e, const sim* s, const char* name, nv_error* err) {
    proto_response r;
    memset(&r, 0, sizeof r);
    r.kind = PROTO_BODY_WORLD_INFO;
    if (snap_world_info(s, name, &r.world_info, err)) {
        snap_free_world_info(&r.world_info);
        return -1;
    }
    int rc = export_response(e, &r, REPLAY_RECORD_WORLD_INFO, err);
    uint32_t types = r.world_info.type_count;
    snap_free_world_info(&r.world_info);
    for (uint32_t t = 0; t < types && rc == 0; t++) {
        const proto_hull* h = snap_hull(&e->snap, s->world, t, err);
        if (!h) return -1;
        memset(&r, 0, sizeof r);
        r.kind = PROTO_BODY_HULL;
        r.hull = *h; /* borrowed: the builder keeps it */
        rc = export_response(e, &r, REPLAY_RECORD_HULL, err);
    }
    return rc;
}

static int grow(void** p, uint32_t* capacity, size_t size, uint32_t n, nv_error* err) {
    if (grow_reserve32(p, capacity, n, size, 16))
        return nv_error_fail(err, NV_ENOMEM, "replay export: out of memory for %u events", n);
    return 0;
}

/* Captures the world now; with `keep`, its tick's contacts and damage
 * events join those of the next snapshot. */
static int export_capture(replay_export* e, const sim* s, int keep, nv_error* err) {
    static const proto_tick_stats none;
    if (snap_capture(&e->snap, s->world, &none, err)) return -1;
    if (!keep) return 0;
    if (e->sent) e->contact_count = e->event_count = 0, e->sent = 0;
    const proto_snapshot* p = &e->snap.snap;
    if (grow((void**)&e->contacts, &e->contact_capacity, sizeof *e->contacts, e->contact_count + p->contact_count,
             err) ||
        grow((void**)&e->events, &e->event_capacity, sizeof *e->events, e->event_count + p->damage_event_count, err))
        return -1;
    if (p->contact_count) memcpy(e->contacts + e->contact_count, p->contacts, p->contact_count * sizeof *p->contacts);
    if (p->damage_event_count)
        memcpy(e->events + e->event_count, p->damage_events, p->damage_event_count * sizeof *p->damage_events);
    e->contact_count += p->contact_count;
    e->event_count += p->damage_event_count;
    return 0;
}

/* The captured snapshot with the events kept since the last one. */
static int export_snapshot(replay_export* e, nv_error* err) {
    proto_snapshot* p = &e->snap.snap;
    proto_contact* own_contacts = p->contacts;
    proto_damage_event* own_events = p->damage_events;
    uint32_t own_nc = p->contact_count, own_ne = p->damage_event_count;
    p->contacts = e->contacts;
    p->contact_count = e->contact_count;
    p->damage_events = e->events;
    p->damage_event_count = e->event_count;
    p->send_time_ns = 0;
    proto_error pe;
    int rc = proto_encode_snapshot(&e->msg, p, &pe);
    p->contacts = own_contacts, p->contact_count = own_nc;
    p->damage_events = own_events, p->damage_event_count = own_ne;
    if (rc) return nv_error_fail(err, NV_EINTERNAL, "%s: snapshot of tick %llu: %s", e->path,
                                 (unsigned long long)p->tick, pe.message);
    e->last_offset = ftell(e->f);
    if (e->last_offset < 0) return nv_error_fail(err, NV_EIO, "cannot write '%s': %s", e->path, strerror(errno));
    if (export_record(e, REPLAY_RECORD_SNAPSHOT, &e->msg, err)) return -1;
    e->sent = 1;
    e->last_written = p->tick;
    e->snapshots++;
    return 0;
}

int replay_export_open(replay_export** out, const char* path, const sim* s, double rate_hz, const char* name,
                       nv_error* err) {
    *out = NULL;
    replay_export* e = calloc(1, sizeof *e);
    if (!e) return nv_error_fail(err, NV_ENOMEM, "replay export: out of memory");
    snprintf(e->path, sizeof e->path, "%s", path);
    double stride = rate_hz > 0.0 ? round(s->tick_hz / rate_hz) : 1.0;
    e->stride = stride < 1.0 ? 1u : stride > 1e6 ? 1000000u : (uint32_t)stride;
    e->first_tick = nv_world_tick(s->world);
    e->last_written = UINT64_MAX;
    /* A device or a pipe cannot take the count written last, and a failed
     * export removes its file: regular files only. */
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        free(e);
        return nv_error_fail(err, NV_EINVAL, "'%s' is not a regular file (the header is completed last)", path);
    }
    if (snap_init(&e->snap, 1, err)) {
        free(e);
        return -1;
    }
    e->f = fopen(path, "wb");
    if (!e->f) {
        int saved = errno;
        snap_free(&e->snap);
        free(e);
        errno = saved;
        return nv_error_fail(err, NV_EIO, "cannot write '%s': %s", path, strerror(saved));
    }
    *out = e;
    if (export_header(e, nv_world_hull_type_count(s->world), err) || export_world(e, s, name, err) ||
        export_capture(e, s, 1, err) || export_snapshot(e, err))
        return -1;
    return 0;
}

int replay_export_step(replay_export* e, const sim* s, nv_error* err) {
    if (export_capture(e, s, 1, err)) return -1;
    if ((nv_world_tick(s->world) - e->first_tick) % e->stride) return 0;
    return export_snapshot(e, err);
}

int replay_export_finish(replay_export* e, const sim* s, nv_error* err) {
    /* The world as it ends: changes applied after the last step are in it
     * (a despawn at the last tick). A snapshot of this tick already written
     * is written again in place. Its events, or those of the steps since
     * the last snapshot, are kept already: capture the vessels alone. */
    if (e->last_written == nv_world_tick(s->world)) {
        if (fflush(e->f) || ftruncate(fileno(e->f), e->last_offset) || fseek(e->f, e->last_offset, SEEK_SET))
            return nv_error_fail(err, NV_EIO, "cannot write '%s': %s", e->path, strerror(errno));
        e->snapshots--;
    }
    if (export_capture(e, s, 0, err) || export_snapshot(e, err)) return -1;
    uint8_t n[4];
    put_u32(n, e->snapshots);
    if (fseek(e->f, 16, SEEK_SET) || fwrite(n, 1, 4, e->f) != 4 || fflush(e->f))
        return nv_error_fail(err, NV_EIO, "cannot write '%s': %s", e->path, strerror(errno));
    e->finished = 1;
    return 0;
}

int replay_export_close(replay_export* e, int keep, nv_error* err) {
    if (!e) return 0;
    int rc = 0;
    if (fclose(e->f) && keep && e->finished)
        rc = nv_error_fail(err, NV_EIO, "cannot write '%s': %s", e->path, strerror(errno));
    if (!keep || !e->finished || rc) remove(e->path);
    snap_free(&e->snap);
    proto_free_buf(&e->msg);
    free(e->contacts);
    free(e->events);
    free(e);
    return rc;
}

uint32_t replay_export_snapshots(const replay_export* e) {
    return e ? e->snapshots : 0;
}

uint32_t replay_export_stride(const replay_export* e) {
    return e ? e->stride : 0;
}
