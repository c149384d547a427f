// SPDX-License-Identifier: MIT
/* Checkpoint files: the atomic write (a temporary beside the file, fsync,
 * rename, fsync of the directory), reading one, and after a crash the
 * newest complete one of the file, its previous one and the temporaries. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "checkpoint_internal.h"

/* Tests stop the writer after a step (to leave the files as a kill -9 there
 * would); NULL in every program. */
static nv_checkpoint_step_fn* ckp_step_hook;

void nv_checkpoint_set_step_hook(nv_checkpoint_step_fn* fn) { ckp_step_hook = fn; }

static void ckp_step(const char* path, nv_checkpoint_step step) {
    if (ckp_step_hook) ckp_step_hook(path, step);
}

static int ckp_write_all(int fd, const uint8_t* p, size_t n) {
    while (n) {
        ssize_t k = write(fd, p, n);
        if (k < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

/* The directory holding `path` ("." or "/" when it names none). */
static void ckp_dir_of(const char* path, char* dir, size_t cap) {
    const char* slash = strrchr(path, '/');
    if (!slash) snprintf(dir, cap, ".");
    else if (slash == path) snprintf(dir, cap, "/");
    else snprintf(dir, cap, "%.*s", (int)(slash - path), path);
}

/* fsync of the directory holding `path`, so that the rename is durable. */
static int ckp_sync_dir(const char* path, nv_error* err) {
    char dir[4096];
    ckp_dir_of(path, dir, sizeof dir);
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return nv_error_fail(err, NV_EIO, "checkpoint: cannot open directory %s to sync it: %s", dir, strerror(errno));
    /* some file systems cannot sync a directory (EINVAL): nothing more to do there */
    int rc = fsync(fd) != 0 && errno != EINVAL ? -1 : 0;
    int saved = errno;
    close(fd);
    if (rc) return nv_error_fail(err, NV_EIO, "checkpoint: fsync of directory %s: %s", dir, strerror(saved));
    return 0;
}

/* The whole file into *data (malloc'd). */
static int ckp_slurp(const char* path, uint8_t** data, size_t* size, nv_error* err) {
    *data = NULL;
    *size = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return nv_error_fail(err, errno == ENOENT ? NV_ENOENT : NV_EIO, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
        close(fd);
        return nv_error_set(err, "%s: not a regular file", path);
    }
    size_t cap = (size_t)st.st_size;
    uint8_t* buf = malloc(cap ? cap : 1);
    if (!buf) {
        close(fd);
        return nv_error_fail(err, NV_ENOMEM, "%s: out of memory for %zu bytes", path, cap);
    }
    size_t got = 0;
    while (got < cap) {
        ssize_t k = read(fd, buf + got, cap - got);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) {
            int saved = errno;
            close(fd);
            free(buf);
            return nv_error_fail(err, NV_EIO, "%s: read: %s", path, strerror(saved));
        }
        if (k == 0) break; /* shrank while read: decoded as truncated */
        got += (size_t)k;
    }
    close(fd);
    *data = buf;
    *size = got;
    return 0;
}

/* 1 when `path` holds a whole checkpoint (its size and checksums hold),
 * 0 when it is missing, unreadable, truncated or corrupt. Only such a file
 * may become path.prev: a broken one (the file a restore just refused)
 * must never take the place of a good previous checkpoint. */
static int ckp_file_is_complete(const char* path) {
    uint8_t* data;
    size_t size;
    nv_error ignored;
    if (ckp_slurp(path, &data, &size, &ignored)) return 0;
    int ok = ckp_check_frame(data, size, path, &ignored) == 0;
    free(data);
    return ok;
}

int nv_checkpoint_write_file(const char* path, const nv_checkpoint_source* src, nv_error* err) {
    nv_checkpoint c;
    if (nv_checkpoint_capture(src, &c, err)) return -1;
    int rc = nv_checkpoint_write_captured(path, &c, err);
    nv_checkpoint_free(&c);
    return rc;
}

/* The bytes into a new temporary file beside `path`, on disk: 0 with its
 * name in tmp, else -1 and no temporary file. */
static int ckp_write_temporary(const char* path, const uint8_t* data, size_t size, char* tmp, size_t cap,
                               nv_error* err) {
    snprintf(tmp, cap, "%s%sXXXXXX", path, CHECKPOINT_TEMPORARY_INFIX);
    int fd = mkstemp(tmp); /* mode 0600: it holds owners' tokens */
    if (fd < 0)
        return nv_error_fail(err, NV_EIO, "checkpoint: cannot create a temporary file beside %s: %s", path,
                             strerror(errno));
    const char* step = NULL;
    if (ckp_write_all(fd, data, size / 2)) step = "write";
    if (!step) ckp_step(path, CHECKPOINT_STEP_TEMP_PARTIAL);
    if (!step && ckp_write_all(fd, data + size / 2, size - size / 2)) step = "write";
    if (!step) ckp_step(path, CHECKPOINT_STEP_TEMP_WRITTEN);
    if (!step && fsync(fd)) step = "fsync";
    int saved = errno;
    if (close(fd) && !step) step = "close", saved = errno;
    if (step) {
        unlink(tmp);
        return nv_error_fail(err, NV_EIO, "checkpoint: %s of %s: %s", step, tmp, strerror(saved));
    }
    ckp_step(path, CHECKPOINT_STEP_TEMP_SYNCED);
    return 0;
}

int nv_checkpoint_write_captured(const char* path, const nv_checkpoint* c, nv_error* err) {
    size_t len = strlen(path);
    if (!len || len > 4000) return nv_error_set(err, "checkpoint: the path must be 1..4000 characters");
    uint8_t* data;
    size_t size;
    if (nv_checkpoint_encode_captured(c, &data, &size, err)) return -1;
    char tmp[4096], prev[4096];
    snprintf(prev, sizeof prev, "%s%s", path, CHECKPOINT_PREVIOUS_SUFFIX);
    int rc = ckp_write_temporary(path, data, size, tmp, sizeof tmp, err);
    free(data);
    if (rc) return -1;
    /* The file there becomes the previous one only when it is whole; a
     * broken one is simply replaced, and path.prev (perhaps the checkpoint
     * the server was restored from) stays. */
    int had_previous = ckp_file_is_complete(path);
    if (had_previous && rename(path, prev)) {
        int saved = errno;
        unlink(tmp);
        return nv_error_fail(err, NV_EIO, "checkpoint: cannot move %s to %s: %s", path, prev, strerror(saved));
    }
    if (had_previous) ckp_step(path, CHECKPOINT_STEP_OLD_MOVED);
    if (rename(tmp, path)) {
        int saved = errno;
        unlink(tmp);
        if (had_previous) rename(prev, path); /* put the old one back; best effort */
        return nv_error_fail(err, NV_EIO, "checkpoint: cannot rename %s to %s: %s", tmp, path, strerror(saved));
    }
    ckp_step(path, CHECKPOINT_STEP_RENAMED);
    if (ckp_sync_dir(path, err)) return -1;
    ckp_step(path, CHECKPOINT_STEP_DIR_SYNCED);
    return 0;
}

int nv_checkpoint_read_file(const char* path, nv_checkpoint* out, nv_error* err) {
    memset(out, 0, sizeof *out);
    uint8_t* data;
    size_t size;
    if (ckp_slurp(path, &data, &size, err)) return -1;
    int rc = nv_checkpoint_decode(data, size, path, out, err);
    free(data);
    return rc;
}

/* ---- the newest complete checkpoint after a crash ---------------------- */

/* A file the writer may have left: path, path.prev or a temporary. */
typedef struct ckp_candidate {
    char name[4096];
    int kind;              /* CHECKPOINT_USED_* */
    struct timespec mtime; /* when its bytes were written (a rename keeps it) */
} ckp_candidate;

/* Calls fn for every path.tmp.* beside `path`; stops at its first
 * non-zero result and returns it; -1 when the directory cannot be read. */
static int ckp_each_temporary(const char* path, int (*fn)(void* ctx, const char* name), void* ctx, nv_error* err) {
    char dir[4096], prefix[4096];
    ckp_dir_of(path, dir, sizeof dir);
    const char* slash = strrchr(path, '/');
    snprintf(prefix, sizeof prefix, "%s%s", slash ? slash + 1 : path, CHECKPOINT_TEMPORARY_INFIX);
    size_t plen = strlen(prefix);
    DIR* d = opendir(dir);
    if (!d) return nv_error_fail(err, NV_EIO, "checkpoint: cannot read directory %s: %s", dir, strerror(errno));
    int rc = 0;
    struct dirent* e;
    while (!rc && (e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, prefix, plen) || !e->d_name[plen]) continue;
        char name[4096 + 256];
        if (slash) snprintf(name, sizeof name, "%s/%s", dir, e->d_name);
        else snprintf(name, sizeof name, "%s", e->d_name);
        rc = fn(ctx, name);
    }
    closedir(d);
    return rc;
}

/* Whether a (whose checkpoint has tick ta) was written after b. */
static int ckp_newer(const ckp_candidate* a, uint64_t ta, const ckp_candidate* b, uint64_t tb) {
    if (a->mtime.tv_sec != b->mtime.tv_sec) return a->mtime.tv_sec > b->mtime.tv_sec;
    if (a->mtime.tv_nsec != b->mtime.tv_nsec) return a->mtime.tv_nsec > b->mtime.tv_nsec;
    if (ta != tb) return ta > tb;
    return a->kind < b->kind; /* path, then path.prev, then a temporary */
}

typedef struct ckp_search {
    nv_checkpoint best;
    ckp_candidate best_at;
    int found;
    nv_error first, second; /* why path and path.prev were refused */
} ckp_search;

/* Reads one candidate and keeps it when it is usable and the newest yet. */
static void ckp_consider(ckp_search* s, const char* name, int kind) {
    ckp_candidate at;
    memset(&at, 0, sizeof at);
    snprintf(at.name, sizeof at.name, "%s", name);
    at.kind = kind;
    nv_error why;
    nv_checkpoint c;
    struct stat st;
    int rc = nv_checkpoint_read_file(name, &c, &why);
    if (!rc && stat(name, &st)) rc = nv_error_fail(&why, NV_EIO, "%s: cannot stat: %s", name, strerror(errno));
    if (rc) {
        if (kind == CHECKPOINT_USED_FILE) s->first = why;
        else if (kind == CHECKPOINT_USED_PREVIOUS) s->second = why;
        return; /* a temporary that does not decode is a write cut short: not a candidate */
    }
    at.mtime = st.st_mtim;
    if (s->found && !ckp_newer(&at, c.tick, &s->best_at, s->best.tick)) {
        nv_checkpoint_free(&c);
        return;
    }
    if (s->found) nv_checkpoint_free(&s->best);
    s->best = c;
    s->best_at = at;
    s->found = 1;
}

static int ckp_consider_temporary(void* ctx, const char* name) {
    ckp_consider(ctx, name, CHECKPOINT_USED_TEMPORARY);
    return 0;
}

/* The newest usable file of path, path.prev and path.tmp.*. */
static int ckp_search_newest(const char* path, ckp_search* s, nv_error* err) {
    memset(s, 0, sizeof *s);
    char prev[4096];
    snprintf(prev, sizeof prev, "%s%s", path, CHECKPOINT_PREVIOUS_SUFFIX);
    ckp_consider(s, path, CHECKPOINT_USED_FILE);
    ckp_consider(s, prev, CHECKPOINT_USED_PREVIOUS);
    nv_error ignored; /* an unreadable directory leaves path and path.prev, which were read above */
    ckp_each_temporary(path, ckp_consider_temporary, s, &ignored);
    if (!s->found)
        return nv_error_set(err, "no usable checkpoint: %s; and %s", s->first.message, s->second.message);
    return 0;
}

int nv_checkpoint_read_newest(const char* path, nv_checkpoint* out, int* used, nv_error* refused, nv_error* err) {
    nv_checkpoint_recovery r;
    if (nv_checkpoint_find_newest(path, out, &r, err)) return -1;
    if (used) *used = r.used;
    if (refused) *refused = r.refused;
    return 0;
}

int nv_checkpoint_find_newest(const char* path, nv_checkpoint* out, nv_checkpoint_recovery* info, nv_error* err) {
    memset(out, 0, sizeof *out);
    memset(info, 0, sizeof *info);
    if (strlen(path) > 4000) return nv_error_set(err, "checkpoint: the path must be 1..4000 characters");
    ckp_search s;
    if (ckp_search_newest(path, &s, err)) return -1;
    *out = s.best;
    info->used = s.best_at.kind;
    snprintf(info->file, sizeof info->file, "%s", s.best_at.name);
    if (s.best_at.kind == CHECKPOINT_USED_FILE) return 0;
    if (s.first.message[0]) info->refused = s.first;
    else
        nv_error_set(&info->refused, "%s: %s is newer (a write cut short before its rename)", path,
                     s.best_at.name);
    return 0;
}

static int ckp_remove_temporary(void* ctx, const char* name) {
    int* removed = ctx;
    if (unlink(name) == 0) (*removed)++;
    return 0;
}

int nv_checkpoint_remove_temporaries(const char* path, int* removed, nv_error* err) {
    int n = 0;
    if (removed) *removed = 0;
    int rc = ckp_each_temporary(path, ckp_remove_temporary, &n, err);
    if (removed) *removed = n;
    return rc < 0 ? -1 : 0;
}

/* The temporary the restore used takes path's place as a finished write
 * would have (path, when whole, becoming path.prev), so that a crash
 * before the next checkpoint finds it again under its own name. */
static int ckp_promote(const char* path, const char* tmp, nv_error* err) {
    char prev[4096];
    snprintf(prev, sizeof prev, "%s%s", path, CHECKPOINT_PREVIOUS_SUFFIX);
    if (ckp_file_is_complete(path) && rename(path, prev))
        return nv_error_fail(err, NV_EIO, "checkpoint: cannot move %s to %s: %s", path, prev, strerror(errno));
    if (rename(tmp, path))
        return nv_error_fail(err, NV_EIO, "checkpoint: cannot rename %s to %s: %s", tmp, path, strerror(errno));
    return ckp_sync_dir(path, err);
}

int nv_checkpoint_recover(const char* path, nv_checkpoint* out, nv_checkpoint_recovery* info, nv_error* err) {
    if (nv_checkpoint_find_newest(path, out, info, err)) return -1;
    if (info->used == CHECKPOINT_USED_TEMPORARY && ckp_promote(path, info->file, &info->tidy)) return 0;
    if (info->used == CHECKPOINT_USED_TEMPORARY) snprintf(info->file, sizeof info->file, "%s", path);
    nv_checkpoint_remove_temporaries(path, &info->removed, &info->tidy);
    return 0;
}
