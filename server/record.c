// SPDX-License-Identifier: MIT
/* The record log's writer (record.h says what a log holds): its lines,
 * the numbered files under a size cap, and the sync off the loop thread.
 * Read back in record_read.c. */
#include "record.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <uv.h>

#include "log.h"


struct record {
    FILE* f;
    char path[RECORD_PATH_MAX];
    uint32_t hash_interval;
    int failed;  /* a write failed: logged once, the log is incomplete from there */
    uint64_t bytes; /* the file's size once the buffer is out */
};

/* fprintf that counts what the file will hold (for the size cap). */
static void record_printf(record* r, const char* fmt, ...) NV_PRINTF_LIKE(2, 3);
static void record_printf(record* r, const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vfprintf(r->f, fmt, ap);
    va_end(ap);
    if (n > 0) r->bytes += (uint64_t)n;
}

static void record_check(record* r) {
    if (r->failed || !ferror(r->f)) return;
    r->failed = 1;
    log_error("record %s: write failed (%s): the log is incomplete from here on", r->path, strerror(errno));
}

int record_open(record** out, const char* path, const char* base_path, uint64_t base_tick, uint64_t base_hash,
                uint32_t hash_interval, nv_error* err) {
    *out = NULL;
    if (strlen(path) >= RECORD_PATH_MAX || strchr(base_path, '\n'))
        return nv_error_set(err, "record: the path is too long or has a newline");
    /* It holds vessel tokens: owner-only, whatever mode a file there had. */
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) return nv_error_set(err, "record %s: cannot create: %s", path, strerror(errno));
    if (fchmod(fd, 0600)) {
        int saved = errno;
        close(fd);
        return nv_error_set(err, "record %s: cannot make it owner-only: %s", path, strerror(saved));
    }
    record* r = calloc(1, sizeof *r);
    FILE* f = r ? fdopen(fd, "w") : NULL;
    if (!f) {
        close(fd);
        free(r);
        return nv_error_fail(err, NV_ENOMEM, "record %s: out of memory", path);
    }
    r->f = f;
    snprintf(r->path, sizeof r->path, "%s", path);
    r->hash_interval = hash_interval ? hash_interval : 1;
    /* A big buffer: a second of controls from many clients in one write. */
    setvbuf(f, NULL, _IOFBF, 1 << 16);
    record_printf(r, "naval-record %d\nbase %" PRIu64 " %016" PRIx64 " %s\nhash_interval %u\n", RECORD_VERSION,
                  base_tick, base_hash, base_path, r->hash_interval);
    if (fflush(f)) {
        int saved = errno;
        fclose(f);
        free(r);
        return nv_error_set(err, "record %s: write: %s", path, strerror(saved));
    }
    *out = r;
    return 0;
}

/* The buffer out and the data on disk, on this thread. */
static void record_sync_now(record* r) {
    record_flush(r);
    if (!r->failed && fdatasync(fileno(r->f)) && errno != EINVAL) {
        r->failed = 1;
        log_error("record %s: fdatasync failed (%s): the log may be incomplete from here on", r->path,
                  strerror(errno));
    }
}

void record_close(record* r, uint64_t tick, int clean) {
    if (!r) return;
    /* "end" says the log is whole: not after a failed write. */
    if (clean && !r->failed) record_printf(r, "end %" PRIu64 "\n", tick);
    record_sync_now(r);
    if (fclose(r->f) && !r->failed) log_error("record %s: close: %s", r->path, strerror(errno));
    free(r);
}

/* ---- fdatasync off the loop thread --------------------------------------- */

/* One sync in flight: its own descriptor (a dup, closed by the callback),
 * so that the log may be closed or rotated while the pool syncs it. */
typedef struct record_sync_req {
    uv_fs_t req;
    int fd;
    char path[RECORD_PATH_MAX];
} record_sync_req;

static int record_syncs_in_flight; /* loop thread only */

static void record_on_synced(uv_fs_t* req) {
    record_sync_req* q = req->data;
    if (req->result < 0 && req->result != UV_EINVAL)
        log_error("record %s: fdatasync failed: %s", q->path, uv_strerror((int)req->result));
    uv_fs_req_cleanup(req);
    close(q->fd);
    free(q);
    record_syncs_in_flight--;
}

/* Starts an fdatasync of what was flushed; on this thread when it cannot. */
static void record_sync_async(record* r, uv_loop_t* loop) {
    record_sync_req* q = calloc(1, sizeof *q);
    int fd = q ? dup(fileno(r->f)) : -1;
    if (fd < 0) {
        free(q);
        record_sync_now(r);
        return;
    }
    q->fd = fd;
    q->req.data = q;
    snprintf(q->path, sizeof q->path, "%s", r->path);
    if (uv_fs_fdatasync(loop, &q->req, fd, record_on_synced)) {
        close(fd);
        free(q);
        record_sync_now(r);
        return;
    }
    record_syncs_in_flight++;
}

void record_sync(record* r, uv_loop_t* loop) {
    if (!r) return;
    record_flush(r);
    /* A disk slower than the interval: one sync at a time is enough. */
    if (!r->failed && record_syncs_in_flight == 0) record_sync_async(r, loop);
}

void record_close_next(record* r, uint64_t tick, const char* next, uv_loop_t* loop) {
    if (!r) return;
    const char* base = strrchr(next, '/');
    if (!r->failed) record_printf(r, "next %" PRIu64 " %s\n", tick, base ? base + 1 : next);
    record_flush(r);
    if (!r->failed) record_sync_async(r, loop);
    if (fclose(r->f) && !r->failed) log_error("record %s: close: %s", r->path, strerror(errno));
    free(r);
}

uint64_t record_bytes(const record* r) { return r ? r->bytes : 0; }

const char* record_path(const record* r) { return r->path; }

void record_spawn(record* r, uint64_t tick, uint32_t id, uint32_t type, double x, double z, double heading,
                  const proto_token* token) {
    if (r->failed) return; /* a log with a hole replays wrongly: keep a clean prefix */
    char hex[2 * sizeof token->bytes + 1];
    for (size_t i = 0; i < sizeof token->bytes; i++) snprintf(hex + 2 * i, 3, "%02x", token->bytes[i]);
    record_printf(r, "%" PRIu64 " spawn %u %u %.17g %.17g %.17g %s\n", tick, id, type, x, z, heading, hex);
    record_check(r);
}

void record_control(record* r, uint64_t tick, uint32_t id, double throttle, double rudder) {
    if (r->failed) return;
    record_printf(r, "%" PRIu64 " control %u %.17g %.17g\n", tick, id, throttle, rudder);
    record_check(r);
}

void record_despawn(record* r, uint64_t tick, uint32_t id) {
    if (r->failed) return;
    record_printf(r, "%" PRIu64 " despawn %u\n", tick, id);
    record_check(r);
}

void record_breach(record* r, uint64_t tick, uint32_t id, const double point[3], double area) {
    if (r->failed) return;
    record_printf(r, "%" PRIu64 " breach %u %.17g %.17g %.17g %.17g\n", tick, id, point[0], point[1], point[2], area);
    record_check(r);
}

void record_pumps(record* r, uint64_t tick, uint32_t id, int on) {
    if (r->failed) return;
    record_printf(r, "%" PRIu64 " pumps %u %d\n", tick, id, on ? 1 : 0);
    record_check(r);
}

void record_owner(record* r, uint64_t tick, uint32_t id, const proto_token* token) {
    if (r->failed) return;
    char hex[2 * sizeof token->bytes + 1];
    for (size_t i = 0; i < sizeof token->bytes; i++) snprintf(hex + 2 * i, 3, "%02x", token->bytes[i]);
    record_printf(r, "%" PRIu64 " owner %u %s\n", tick, id, hex);
    record_check(r);
}

int record_failed(const record* r) { return r && r->failed; }

/* ---- the world's recorder: one writer per NV_WORLD_OPS entry ------------ */

static void rec_spawn(void* arg, uint64_t tick, const nv_world_op_spawn* op) {
    record* r = arg;
    if (r->failed) return;
    record_printf(r, "%" PRIu64 " spawn %u %u %.17g %.17g %.17g %.17g %.17g %.17g %.17g\n", tick, op->id, op->type,
                  op->position.x, op->position.y, op->position.z, op->orientation.w, op->orientation.x,
                  op->orientation.y, op->orientation.z);
    record_check(r);
}

static void rec_despawn(void* arg, uint64_t tick, const nv_world_op_despawn* op) {
    record_despawn(arg, tick, op->id);
}

static void rec_velocity(void* arg, uint64_t tick, const nv_world_op_velocity* op) {
    record* r = arg;
    if (r->failed) return;
    record_printf(r, "%" PRIu64 " velocity %u %.17g %.17g %.17g %.17g %.17g %.17g\n", tick, op->id, op->velocity.x,
                  op->velocity.y, op->velocity.z, op->angular_velocity.x, op->angular_velocity.y,
                  op->angular_velocity.z);
    record_check(r);
}

static void rec_controls(void* arg, uint64_t tick, const nv_world_op_controls* op) {
    record_control(arg, tick, op->id, op->throttle, op->rudder);
}

static void rec_breach(void* arg, uint64_t tick, const nv_world_op_breach* op) {
    double point[3] = {op->point.x, op->point.y, op->point.z};
    record_breach(arg, tick, op->id, point, op->area);
}

static void rec_pumps(void* arg, uint64_t tick, const nv_world_op_pumps* op) { record_pumps(arg, tick, op->id, op->on); }

static void rec_model(void* arg, uint64_t tick, const nv_world_op_model* op) {
    record* r = arg;
    if (r->failed) return;
    record_printf(r, "%" PRIu64 " model %u %d\n", tick, op->id, (int)op->model);
    record_check(r);
}

static void rec_player(void* arg, uint64_t tick, const nv_world_op_player* op) {
    record* r = arg;
    if (r->failed) return;
    record_printf(r, "%" PRIu64 " player %u %d\n", tick, op->id, op->player ? 1 : 0);
    record_check(r);
}

static void rec_lod(void* arg, uint64_t tick, const nv_world_op_lod* op) {
    record* r = arg;
    if (r->failed) return;
    record_printf(r, "%" PRIu64 " lod %d %.17g %.17g %.17g\n", tick, op->lod.enabled ? 1 : 0, op->lod.mesh_within,
                  op->lod.columns_within, op->lod.hysteresis);
    record_check(r);
}

static void rec_wind(void* arg, uint64_t tick, const nv_world_op_wind* op) {
    record* r = arg;
    if (r->failed) return;
    record_printf(r, "%" PRIu64 " wind %.17g %.17g %.17g\n", tick, op->wind.x, op->wind.y, op->wind.z);
    record_check(r);
}

static void rec_contacts(void* arg, uint64_t tick, const nv_world_op_contacts* op) {
    record* r = arg;
    if (r->failed) return;
    const nv_world_contact_params* c = &op->params;
    record_printf(r, "%" PRIu64 " contact_params %d %.17g %.17g %.17g %.17g %.17g %.17g\n", tick, c->enabled ? 1 : 0,
                  c->ground_friction, c->vessel_friction, c->restitution, c->hertz, c->damping_ratio, c->push_speed);
    record_check(r);
}

static void rec_sunk_removal_depth(void* arg, uint64_t tick, const nv_world_op_sunk_removal_depth* op) {
    record* r = arg;
    if (r->failed) return;
    record_printf(r, "%" PRIu64 " sunk_removal_depth %.17g\n", tick, op->depth);
    record_check(r);
}

/* Every operation has its writer (one missing does not compile). */
static const nv_world_recorder record_recorder = {
#define REC_CALLBACK_(NAME, name, FIELDS) .name = rec_##name,
    NV_WORLD_OPS(REC_CALLBACK_)
#undef REC_CALLBACK_
};

void record_attach(nv_world* w, record* r) { nv_world_set_recorder(w, r ? &record_recorder : NULL, r); }

const char* const record_damage_names[RECORD_DAMAGE_KINDS] = {"breach", "full", "capsized", "sunk", "removed"};
_Static_assert(RECORD_DAMAGE_KINDS == WORLD_DAMAGE_REMOVED + 1, "a new world_damage_kind needs its word here");

void record_damage(record* r, uint64_t tick, const nv_world_damage_event* events, uint32_t count) {
    if (r->failed) return;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t k = events[i].kind < RECORD_DAMAGE_KINDS ? events[i].kind : 0;
        long long comp = events[i].compartment == UINT32_MAX ? -1 : (long long)events[i].compartment;
        record_printf(r, "%" PRIu64 " damage %s %u %lld\n", tick, record_damage_names[k], events[i].id, comp);
    }
    if (count) record_check(r);
}

void record_hash(record* r, uint64_t tick, uint64_t hash) {
    if (r->failed) return;
    record_printf(r, "%" PRIu64 " hash %016" PRIx64 "\n", tick, hash);
    record_check(r);
}

void record_contacts(record* r, uint64_t tick, const nv_world_contact_event* events, uint32_t count) {
    if (r->failed) return;
    for (uint32_t i = 0; i < count; i++)
        record_printf(r, "%" PRIu64 " contact %u %u %u %.17g %.17g\n", tick, events[i].id_a, events[i].id_b,
                events[i].structure, events[i].closing_speed, events[i].impulse);
    if (count) record_check(r);
}

uint32_t record_hash_interval(const record* r) { return r->hash_interval; }

void record_step(record* r, const nv_world* w) {
    if (!r) return;
    uint64_t tick = nv_world_tick(w);
    if (tick % r->hash_interval == 0) record_hash(r, tick, nv_world_state_hash(w));
    uint32_t n;
    const nv_world_contact_event* e = nv_world_contact_events(w, &n);
    record_contacts(r, tick, e, n);
    const nv_world_damage_event* d = nv_world_damage_events(w, &n);
    record_damage(r, tick, d, n);
}

void record_flush(record* r) {
    if (!r) return;
    fflush(r->f);
    record_check(r);
}

/* ---- numbered files ------------------------------------------------------ */

void record_segment_name(char* out, size_t cap, const char* log, uint32_t n, const char* suffix) {
    snprintf(out, cap, "%s.%0*u%s", log, RECORD_SEGMENT_DIGITS, n, suffix ? suffix : "");
}

/* The directory of `log` and its last component. */
static void record_split(const char* log, char* dir, size_t cap, const char** base) {
    const char* slash = strrchr(log, '/');
    if (!slash) snprintf(dir, cap, ".");
    else if (slash == log) snprintf(dir, cap, "/");
    else snprintf(dir, cap, "%.*s", (int)(slash - log), log);
    *base = slash ? slash + 1 : log;
}

/* A directory entry BASE.NNNNNN... (at least RECORD_SEGMENT_DIGITS digits,
 * then nothing or a '.' suffix such as ".ckpt"): its number, else 0. */
static uint32_t record_segment_number(const char* name, const char* base) {
    size_t bl = strlen(base);
    if (strncmp(name, base, bl) || name[bl] != '.') return 0;
    const char* p = name + bl + 1;
    uint64_t n = 0;
    int digits = 0;
    for (; *p >= '0' && *p <= '9' && digits < 10; p++, digits++) n = n * 10 + (uint64_t)(*p - '0');
    if (digits < RECORD_SEGMENT_DIGITS || (*p && *p != '.') || n == 0 || n > UINT32_MAX) return 0;
    return (uint32_t)n;
}

/* Calls fn for every file of `log`'s numbered files; -1 when the
 * directory cannot be read. */
static int record_segment_each(const char* log, void (*fn)(void* ctx, const char* path, uint32_t n), void* ctx,
                               nv_error* err) {
    char dir[RECORD_PATH_MAX];
    const char* base;
    record_split(log, dir, sizeof dir, &base);
    DIR* d = opendir(dir);
    if (!d) return nv_error_set(err, "record: cannot read the directory %s: %s", dir, strerror(errno));
    struct dirent* e;
    while ((e = readdir(d)) != NULL) {
        uint32_t n = record_segment_number(e->d_name, base);
        if (!n) continue;
        char path[2 * RECORD_PATH_MAX];
        if (strchr(log, '/')) snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        else snprintf(path, sizeof path, "%s", e->d_name);
        fn(ctx, path, n);
    }
    closedir(d);
    return 0;
}

static void record_segment_max(void* ctx, const char* path, uint32_t n) {
    (void)path;
    uint32_t* newest = ctx;
    if (n > *newest) *newest = n;
}

/* A log an older server wrote at LOG itself (a regular file, not our
 * link): it becomes number n with its base, so that it is kept and pruned
 * like the others. */
static int record_adopt_legacy(const char* log, uint32_t n, nv_error* err) {
    struct stat st;
    if (lstat(log, &st) || !S_ISREG(st.st_mode)) return 0;
    char to[RECORD_PATH_MAX + 32], base[RECORD_PATH_MAX + 8], base_to[RECORD_PATH_MAX + 40];
    record_segment_name(to, sizeof to, log, n, NULL);
    snprintf(base, sizeof base, "%s%s", log, RECORD_BASE_SUFFIX);
    record_segment_name(base_to, sizeof base_to, log, n, RECORD_BASE_SUFFIX);
    if (rename(log, to))
        return nv_error_set(err, "record: cannot move the earlier log %s to %s: %s", log, to, strerror(errno));
    if (lstat(base, &st) == 0 && S_ISREG(st.st_mode) && rename(base, base_to))
        return nv_error_set(err, "record: cannot move the earlier base %s to %s: %s", base, base_to, strerror(errno));
    log_info("record: the earlier log %s is now %s (replay it with %s)", log, to, base_to);
    return 1;
}

int record_segment_next(const char* log, uint32_t* next, nv_error* err) {
    uint32_t newest = 0;
    if (record_segment_each(log, record_segment_max, &newest, err)) return -1;
    if (newest >= UINT32_MAX - 1) return nv_error_set(err, "record %s: no file numbers left", log);
    int adopted = record_adopt_legacy(log, newest + 1, err);
    if (adopted < 0) return -1;
    *next = newest + 1 + (uint32_t)adopted;
    return 0;
}

typedef struct record_prune_ctx {
    uint32_t below; /* numbers below this go */
    uint32_t removed;
} record_prune_ctx;

static void record_prune_one(void* ctx, const char* path, uint32_t n) {
    record_prune_ctx* c = ctx;
    if (n >= c->below) return;
    if (unlink(path) == 0) c->removed++;
    else log_warn("record: cannot remove the old file %s: %s", path, strerror(errno));
}

void record_segment_prune(const char* log, uint32_t newest, uint32_t keep) {
    if (!keep || newest <= keep) return;
    record_prune_ctx c = {newest - keep + 1, 0};
    nv_error err;
    if (record_segment_each(log, record_prune_one, &c, &err)) log_warn("%s", err.message);
    else if (c.removed)
        log_info("record: removed %u file%s of logs before %s.%0*u (record_keep %u)", c.removed,
                 c.removed == 1 ? "" : "s", log, RECORD_SEGMENT_DIGITS, c.below, keep);
}

/* `link` -> `target`'s last component (same directory), replaced atomically. */
static int record_link_one(const char* link, const char* target, nv_error* err) {
    struct stat st;
    if (lstat(link, &st) == 0 && !S_ISLNK(st.st_mode))
        return nv_error_set(err, "record: %s is not a link this server made: left alone", link);
    const char* name = strrchr(target, '/');
    char tmp[RECORD_PATH_MAX + 16];
    snprintf(tmp, sizeof tmp, "%s.link-tmp", link);
    unlink(tmp);
    if (symlink(name ? name + 1 : target, tmp))
        return nv_error_set(err, "record: cannot make the link %s: %s", tmp, strerror(errno));
    if (rename(tmp, link)) {
        int saved = errno;
        unlink(tmp);
        return nv_error_set(err, "record: cannot rename %s to %s: %s", tmp, link, strerror(saved));
    }
    return 0;
}

int record_segment_link(const char* log, uint32_t n, nv_error* err) {
    char target[RECORD_PATH_MAX + 32], base[RECORD_PATH_MAX + 8], base_target[RECORD_PATH_MAX + 40];
    record_segment_name(target, sizeof target, log, n, NULL);
    record_segment_name(base_target, sizeof base_target, log, n, RECORD_BASE_SUFFIX);
    snprintf(base, sizeof base, "%s%s", log, RECORD_BASE_SUFFIX);
    if (record_link_one(base, base_target, err) || record_link_one(log, target, err)) return -1;
    return 0;
}
