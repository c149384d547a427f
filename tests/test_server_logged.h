// SPDX-License-Identifier: MIT
/* For the end-to-end tests (restore, record, Agones): a server
 * process whose stderr goes to a file the test reads back, a program run
 * to its exit status with its output in files, a temporary folder, and
 * small file helpers. Header-only, beside test_server_proc.h. */
#ifndef NAVAL_TEST_SERVER_LOGGED_H
#define NAVAL_TEST_SERVER_LOGGED_H

#include <fcntl.h>
#include <sys/stat.h>

#include "test_server_proc.h"

/* proc_start with the server's stderr (its log) in `log_path`: the child
 * inherits fd 2 while it is pointed at the file. */
static inline int logged_start(server_proc* p, const char* const* extra, const char* log_path, double timeout_s) {
    fflush(stderr);
    int saved = dup(2);
    int fd = open(log_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (saved < 0 || fd < 0) return -1;
    dup2(fd, 2);
    close(fd);
    int rc = proc_start(p, NAVAL_SERVER_PATH, extra, timeout_s);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    return rc;
}

/* Runs argv (NULL-terminated) with stdout and stderr into files: its exit
 * code, 128 + signal, or -1 when it ran past timeout_s (then killed). */
static inline int logged_run(const char* const* argv, const char* out_path, const char* err_path, double timeout_s) {
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        int o = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int e = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (o < 0 || e < 0) _exit(126);
        dup2(o, 1);
        dup2(e, 2);
        execv(argv[0], (char* const*)argv);
        _exit(127);
    }
    return proc_wait(pid, timeout_s);
}

/* The whole file, NUL-terminated (malloc'd; NULL when it cannot be read). */
static inline char* logged_slurp(const char* path, size_t* size) {
    FILE* f = fopen(path, "rb");
    if (!f) return NULL;
    char* data = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n + 4096 + 1 > cap) {
            cap = (n + 4096 + 1) * 2;
            char* d = realloc(data, cap);
            if (!d) break;
            data = d;
        }
        size_t got = fread(data + n, 1, 4096, f);
        n += got;
        if (got < 4096) break;
    }
    fclose(f);
    if (data) data[n] = '\0';
    if (size) *size = n;
    return data;
}

static inline int logged_write(const char* path, const void* data, size_t size) {
    FILE* f = fopen(path, "wb");
    if (!f) return -1;
    int ok = fwrite(data, 1, size, f) == size;
    return fclose(f) == 0 && ok ? 0 : -1;
}

/* Whether the file contains `text`. */
static inline int logged_contains(const char* path, const char* text) {
    char* d = logged_slurp(path, NULL);
    int found = d && strstr(d, text) != NULL;
    free(d);
    return found;
}

/* proc_stop, and when the exit status is not `expected`, the end of the
 * server's log on stderr: a sanitizer's report is there, and CI keeps
 * only what the test printed. */
static inline int logged_stop(server_proc* p, int sig, double timeout_s, const char* log_path, int expected) {
    int rc = proc_stop(p, sig, timeout_s);
    if (rc != expected) {
        size_t n = 0;
        char* text = logged_slurp(log_path, &n);
        size_t from = n > 16384 ? n - 16384 : 0;
        fprintf(stderr, "exit status %d, not %d; the end of %s:\n%s\n", rc, expected, log_path,
                text ? text + from : "(unreadable)");
        free(text);
    }
    return rc;
}

/* A fresh folder under /tmp, and its removal with every file in it
 * (TEST_KEEP_FILES=1 keeps it, to look at a failure's files). */
static inline int logged_tempdir(char* out, size_t cap, const char* name) {
    snprintf(out, cap, "/tmp/%s_XXXXXX", name);
    return mkdtemp(out) ? 0 : -1;
}

static inline void logged_rmdir(const char* dir) {
    char cmd[512];
    if (getenv("TEST_KEEP_FILES")) {
        fprintf(stderr, "kept %s\n", dir);
        return;
    }
    if (!dir[0] || strncmp(dir, "/tmp/", 5) != 0 || strchr(dir, '\'')) return;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
}

#endif
