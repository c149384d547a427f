// SPDX-License-Identifier: MIT
#include "test_server_proc.h"

#include <math.h>

int proc_free_port(void) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return -1;
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    int port = -1;
    if (bind(fd, (struct sockaddr*)&a, sizeof a) == 0 && getsockname(fd, (struct sockaddr*)&a, &len) == 0)
        port = ntohs(a.sin_port);
    close(fd);
    return port;
}

double proc_now(void) { return net_now(); }

void proc_sleep_ms(int ms) { net_sleep_ms(ms); }

/* Servers this program started and has not stopped: a failed assertion
 * jumps past proc_stop, so they are killed at exit instead of running on. */
#define PROC_MAX_STARTED 64
static pid_t proc_started[PROC_MAX_STARTED];

static void proc_kill_leftovers(void) {
    for (int i = 0; i < PROC_MAX_STARTED; i++)
        if (proc_started[i] > 0) {
            kill(proc_started[i], SIGKILL);
            waitpid(proc_started[i], NULL, 0);
            proc_started[i] = 0;
        }
}

static void proc_track(pid_t pid, int add) {
    static int registered;
    if (!registered) registered = atexit(proc_kill_leftovers) == 0;
    for (int i = 0; i < PROC_MAX_STARTED; i++)
        if (add ? proc_started[i] == 0 : proc_started[i] == pid) {
            proc_started[i] = add ? pid : 0;
            return;
        }
}

/* One try of proc_start: -2 when the process exited before answering. */
static int proc_start_once(server_proc* p, const char* binary, const char* const* extra, double timeout_s) {
    memset(p, 0, sizeof *p);
    p->snapshot_port = proc_free_port();
    p->compact_port = proc_free_port();
    p->command_port = proc_free_port();
    p->http_port = proc_free_port();
    p->view_port = proc_free_port();
    if (p->snapshot_port < 0 || p->compact_port < 0 || p->command_port < 0 || p->http_port < 0 || p->view_port < 0)
        return -1;
    snprintf(p->snapshot_url, sizeof p->snapshot_url, "tcp://127.0.0.1:%d", p->snapshot_port);
    snprintf(p->compact_url, sizeof p->compact_url, "tcp://127.0.0.1:%d", p->compact_port);
    snprintf(p->command_url, sizeof p->command_url, "tcp://127.0.0.1:%d", p->command_port);
    snprintf(p->http, sizeof p->http, "127.0.0.1:%d", p->http_port);
    snprintf(p->ws_snapshots, sizeof p->ws_snapshots, "ws://%s/ws/snapshots", p->http);
    snprintf(p->ws_compact, sizeof p->ws_compact, "ws://%s/ws/compact", p->http);
    snprintf(p->ws_commands, sizeof p->ws_commands, "ws://%s/ws/commands", p->http);
    snprintf(p->view_url, sizeof p->view_url, "tcp://127.0.0.1:%d", p->view_port);
    snprintf(p->ws_view, sizeof p->ws_view, "ws://%s/ws/view", p->http);
    const char* argv[64];
    int n = 0;
    argv[n++] = binary;
    argv[n++] = "--snapshot-url";
    argv[n++] = p->snapshot_url;
    argv[n++] = "--compact-url";
    argv[n++] = p->compact_url;
    argv[n++] = "--command-url";
    argv[n++] = p->command_url;
    argv[n++] = "--http";
    argv[n++] = p->http;
    argv[n++] = "--view-url";
    argv[n++] = p->view_url;
    for (int i = 0; extra && extra[i] && n < 63; i++) argv[n++] = extra[i];
    argv[n] = NULL;
    p->pid = fork();
    if (p->pid < 0) return -1;
    if (p->pid == 0) {
        execv(binary, (char* const*)argv);
        fprintf(stderr, "cannot run %s: %s\n", binary, strerror(errno));
        _exit(127);
    }
    proc_track(p->pid, 1);
    double deadline = proc_now() + timeout_s;
    while (proc_now() < deadline) {
        int status;
        if (waitpid(p->pid, &status, WNOHANG) == p->pid) {
            proc_track(p->pid, 0);
            p->pid = 0;
            return -2; /* it exited: the reason is on stderr */
        }
        nvc_options o;
        nvc_options_default(&o);
        o.command_url = p->command_url;
        o.request_timeout_ms = 1000;
        nvc_client* c;
        if (nvc_connect(&c, &o, NULL) == 0) {
            int ok = nvc_hello(c, "probe", NULL, NULL) == 0;
            nvc_close(c);
            if (ok) return 0;
        }
        proc_sleep_ms(50);
    }
    kill(p->pid, SIGKILL);
    waitpid(p->pid, NULL, 0);
    proc_track(p->pid, 0);
    p->pid = 0;
    return -1;
}

int proc_start(server_proc* p, const char* binary, const char* const* extra, double timeout_s) {
    int rc = -2;
    for (int attempt = 0; attempt < 3 && rc == -2; attempt++) rc = proc_start_once(p, binary, extra, timeout_s);
    return rc ? -1 : 0;
}

nvc_client* proc_client(const char* snapshots, const char* commands, int timeout_ms,
                                      uint32_t queue_depth) {
    nvc_options o;
    nvc_options_default(&o);
    o.snapshot_url = snapshots;
    o.command_url = commands;
    o.request_timeout_ms = timeout_ms;
    o.queue_depth = queue_depth;
    nvc_client* c = NULL;
    nv_error e;
    if (nvc_connect(&c, &o, &e)) {
        fprintf(stderr, "connect to %s / %s: %s\n", snapshots ? snapshots : "-", commands ? commands : "-", e.message);
        return NULL;
    }
    return c;
}

int proc_wait(pid_t pid, double timeout_s) {
    double deadline = proc_now() + timeout_s;
    int status;
    while (proc_now() < deadline) {
        if (waitpid(pid, &status, WNOHANG) == pid)
            return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        proc_sleep_ms(20);
    }
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    return -1;
}

int proc_stop(server_proc* p, int sig, double timeout_s) {
    if (p->pid <= 0) return -1;
    kill(p->pid, sig);
    int code = proc_wait(p->pid, timeout_s);
    proc_track(p->pid, 0);
    p->pid = 0;
    return code;
}

int proc_alive(server_proc* p) {
    if (p->pid <= 0) return 0;
    int status;
    if (waitpid(p->pid, &status, WNOHANG) == p->pid) {
        proc_track(p->pid, 0);
        p->pid = 0;
        return 0;
    }
    return 1;
}

int proc_http_get(int port, const char* path, char* out, size_t cap) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return -1;
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    struct timeval tv = {5, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    if (connect(fd, (struct sockaddr*)&a, sizeof a) != 0) {
        close(fd);
        return -1;
    }
    char req[256];
    int n = snprintf(req, sizeof req, "GET %s HTTP/1.0\r\n\r\n", path);
    if (write(fd, req, (size_t)n) != n) {
        close(fd);
        return -1;
    }
    size_t len = 0;
    ssize_t got;
    while (len + 1 < cap && (got = read(fd, out + len, cap - 1 - len)) > 0) len += (size_t)got;
    out[len] = '\0';
    close(fd);
    int status = -1;
    if (sscanf(out, "HTTP/1.%*d %d", &status) != 1) return -1;
    char* body = strstr(out, "\r\n\r\n");
    if (body) memmove(out, body + 4, strlen(body + 4) + 1);
    return status;
}

double proc_metric(const server_proc* p, const char* source, const char* series) {
    static char text[1 << 17];
    int fd = net_connect_from(p->http_port, source);
    if (fd < 0) return NAN;
    if (net_send_text(fd, "GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")) {
        close(fd);
        return NAN;
    }
    int closed;
    net_recv_all(fd, text, sizeof text, 5.0, &closed);
    close(fd);
    if (strncmp(text, "HTTP/1.1 200", 12) != 0) return NAN;
    char line[256];
    snprintf(line, sizeof line, "\n%s", series);
    const char* at = strstr(text, line);
    return at ? atof(at + strlen(line)) : NAN;
}
