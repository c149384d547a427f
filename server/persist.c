// SPDX-License-Identifier: MIT
#include "persist.h"

#include <string.h>
#include <sys/stat.h>

#include "log.h"

void persist_init(persist* p, uv_loop_t* loop, const sim* s, const owners* o, metrics* m, const char* path) {
    memset(p, 0, sizeof *p);
    p->loop = loop;
    p->sim = s;
    p->owners = o;
    p->m = m;
    snprintf(p->path, sizeof p->path, "%s", path);
    p->work.data = p;
}

void persist_free(persist* p) {
    if (p->busy) return; /* still the writer's: the process is ending anyway */
    nv_checkpoint_free(&p->captured);
    resume_buf_free(&p->blob);
}

/* Loop thread: the owner blob, then the world's copy. */
static int persist_capture(persist* p, nv_checkpoint* out, nv_error* err) {
    uint64_t t0 = uv_hrtime();
    if (resume_encode(p->owners, p->sim->pilot, &p->blob))
        return nv_error_fail(err, NV_ENOMEM, "checkpoint: out of memory for the owner blob");
    nv_checkpoint_source src = sim_checkpoint_source(p->sim, p->blob.data, p->blob.size);
    if (nv_checkpoint_capture(&src, out, err)) return -1;
    p->capture_ns = uv_hrtime() - t0;
    return 0;
}

static size_t persist_file_size(const char* path) {
    struct stat st;
    return stat(path, &st) == 0 ? (size_t)st.st_size : 0;
}

/* Writer thread: only the copy and the path, nothing the loop touches. */
static void persist_on_work(uv_work_t* w) {
    persist* p = w->data;
    uint64_t t0 = uv_hrtime();
    p->rc = nv_checkpoint_write_captured(p->path, &p->captured, &p->err);
    p->bytes = p->rc ? 0 : persist_file_size(p->path);
    p->write_ns = uv_hrtime() - t0;
}

static void persist_report(persist* p, uint64_t tick) {
    metrics_record_checkpoint(p->m, p->rc == 0, p->bytes, tick, p->capture_ns, p->write_ns);
    if (p->rc)
        log_error("%scheckpoint at tick %llu not written: %s", p->final ? "final " : "", (unsigned long long)tick,
                  p->err.message);
    else
        log_info("%scheckpoint at tick %llu: %s, %zu bytes, capture %.1f ms (loop thread), write %.1f ms",
                 p->final ? "final " : "", (unsigned long long)tick, p->path, p->bytes, p->capture_ns * 1e-6,
                 p->write_ns * 1e-6);
}

int persist_pending(const persist* p) { return p->busy || p->final_wanted; }

int persist_final_failed(const persist* p) { return p->final_failed; }

static void persist_on_done(uv_work_t* w, int status) {
    persist* p = w->data;
    if (status) { /* UV_ECANCELED: never ran */
        p->rc = -1;
        nv_error_set(&p->err, "the write was cancelled");
    }
    persist_report(p, p->captured.tick);
    if (p->final && p->rc) p->final_failed = 1;
    nv_checkpoint_free(&p->captured);
    p->busy = 0;
    p->final = 0;
    if (p->final_wanted) {
        p->final_wanted = 0;
        persist_final(p);
    }
}

static int persist_launch(persist* p, int final) {
    if (p->busy) return 1;
    nv_error err;
    if (persist_capture(p, &p->captured, &err)) {
        metrics_record_checkpoint(p->m, 0, 0, 0, 0, 0);
        log_error("checkpoint at tick %llu not taken: %s", (unsigned long long)nv_world_tick(p->sim->world),
                  err.message);
        return -1;
    }
    p->busy = 1;
    p->final = final;
    int rv = uv_queue_work(p->loop, &p->work, persist_on_work, persist_on_done);
    if (rv) { /* cannot happen with a live loop; write here rather than lose it */
        persist_on_work(&p->work);
        persist_on_done(&p->work, 0);
    }
    return 0;
}

int persist_start(persist* p) {
    int rc = persist_launch(p, 0);
    if (rc == 1) log_warn("checkpoint skipped: the previous one is still being written (%s)", p->path);
    return rc;
}

void persist_final(persist* p) {
    if (p->busy) {
        if (!p->final) p->final_wanted = 1;
        return;
    }
    if (persist_launch(p, 1) < 0) p->final_failed = 1;
}

int persist_write_now(persist* p, const char* path, size_t* bytes, uint64_t* ms, nv_error* err) {
    nv_checkpoint c;
    uint64_t t0 = uv_hrtime(), in_flight_capture_ns = p->capture_ns; /* a background write's, reported later */
    int captured = persist_capture(p, &c, err);
    p->capture_ns = in_flight_capture_ns;
    if (captured) return -1;
    int rc = nv_checkpoint_write_captured(path, &c, err);
    nv_checkpoint_free(&c);
    *bytes = rc ? 0 : persist_file_size(path);
    *ms = (uv_hrtime() - t0) / 1000000;
    return rc;
}

/* Why the restore did not read `path` itself (used: CHECKPOINT_USED_*). */
static void persist_log_choice(const char* path, const nv_checkpoint_recovery* r) {
    if (r->used == CHECKPOINT_USED_PREVIOUS)
        log_warn("--restore: refused %s: %s; resuming from the previous checkpoint %s%s", path, r->refused.message,
                 path, CHECKPOINT_PREVIOUS_SUFFIX);
    else if (r->used == CHECKPOINT_USED_TEMPORARY)
        log_warn("--restore: %s; resuming from the newer complete checkpoint a write cut short left", r->refused.message);
}

int persist_read(const char* path, nv_checkpoint* out, nv_error* err) {
    nv_checkpoint_recovery r;
    if (nv_checkpoint_find_newest(path, out, &r, err)) return nv_error_prefix(err, "--restore %s", path);
    persist_log_choice(path, &r);
    return 0;
}

int persist_recover(const char* path, nv_checkpoint* out, nv_error* err) {
    nv_checkpoint_recovery r;
    if (nv_checkpoint_recover(path, out, &r, err)) return nv_error_prefix(err, "--restore %s", path);
    persist_log_choice(path, &r);
    if (r.used == CHECKPOINT_USED_TEMPORARY && !r.tidy.message[0])
        log_info("--restore: the checkpoint a write cut short is now %s", r.file);
    if (r.tidy.message[0]) log_warn("--restore: %s (continuing)", r.tidy.message);
    if (r.removed)
        log_info("--restore: removed %d temporary file%s a write cut short left beside %s", r.removed,
                 r.removed == 1 ? "" : "s", path);
    return 0;
}

void persist_tidy(const char* path) {
    int removed = 0;
    nv_error err;
    if (nv_checkpoint_remove_temporaries(path, &removed, &err))
        log_warn("checkpoint: cannot look for temporary files beside %s: %s", path, err.message);
    else if (removed)
        log_info("checkpoint: removed %d temporary file%s a write cut short left beside %s", removed,
                 removed == 1 ? "" : "s", path);
}
