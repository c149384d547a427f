// SPDX-License-Identifier: MIT
/* What a naval-server's network edge holds against hostile or careless
 * clients, measured from outside on loopback (docs/scaling.md). Runs a
 * server process (this build's, or --server PATH: an older build, for
 * before/after figures) and one of:
 *
 * --server-fds N starts the server with a descriptor limit of N (1024 is a
 * common limit for services), so that a flood can reach it.
 *
 *   --half-open N [--sources K]  N sockets that send a partial request line
 *       to the HTTP port and wait, from K loopback addresses; meanwhile a
 *       client from another address asks /healthz, subscribes over ws and
 *       says hello. Prints the sockets the server holds (/proc), the
 *       probes' times, its memory; then the same after the head deadline.
 *   --churn N       N snapshot subscribers connect and leave (tcp and ws,
 *       half of them mid-snapshot, half by reset); prints the server's RSS
 *       (and its heap, where /metrics has naval_heap_bytes) per 100k
 *       connects, then the time it takes to exit on SIGTERM.
 *   --hellos N      N hellos, each on a connection of its own; prints the
 *       log lines the server wrote per second.
 *   --nng-churn N   no server: the same subscriber churn against nng's own
 *       PUB socket in this process (tcp, then ws), publishing 30 KB every
 *       millisecond, with the C allocator's count of bytes in use
 *       (mallinfo2) before and after: the library leak the edge replaces
 *       (nanomsg/nng#1713 and the ws transport's failed sends, nng 1.5.2).
 *
 * ./build/tools/bench-edge --half-open 20000 [--server /old/naval-server] */
#include <dirent.h>
#include <malloc.h>
#include <nng/nng.h>
#include <nng/protocol/pubsub0/pub.h>
#include <pthread.h>
#include <stdatomic.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "proto.h"
#include "test_net_util.h"
#include "test_server_proc.h"

typedef struct bench_args {
    const char* server;
    uint64_t half_open, sources, churn, hellos, boats, server_fds, nng_churn;
} bench_args;

static long proc_status_kib(pid_t pid, const char* key) {
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE* f = fopen(path, "r");
    if (!f) return -1;
    long v = -1;
    size_t n = strlen(key);
    while (fgets(line, sizeof line, f))
        if (strncmp(line, key, n) == 0) v = atol(line + n);
    fclose(f);
    return v;
}

static int open_fds(pid_t pid) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/fd", (int)pid);
    DIR* d = opendir(path);
    if (!d) return -1;
    int n = 0;
    while (readdir(d)) n++;
    closedir(d);
    return n - 2;
}

/* GET path from `source`: the status, or -1 within timeout_s. */
static int http_get_from(int port, const char* source, const char* path, char* out, size_t cap, double timeout_s) {
    int fd = net_connect_from(port, source);
    if (fd < 0) return -1;
    char req[256];
    snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", path);
    int closed = 0;
    if (net_send_text(fd, req)) {
        close(fd);
        return -1;
    }
    net_recv_all(fd, out, cap, timeout_s, &closed);
    close(fd);
    int status = -1;
    return sscanf(out, "HTTP/1.%*d %d", &status) == 1 ? status : -1;
}

/* The server's heap (/metrics, where it has naval_heap_bytes): the lowest
 * of five readings, as the ticks allocate and free snapshots all along. */
static double heap_bytes(const server_proc* p) {
    static char text[1 << 17];
    double low = -1;
    for (int i = 0; i < 5; i++) {
        if (http_get_from(p->http_port, "127.0.0.250", "/metrics", text, sizeof text, 5.0) != 200) return -1;
        const char* at = strstr(text, "\nnaval_heap_bytes ");
        if (!at) return -1;
        double h = atof(at + 18);
        if (low < 0 || h < low) low = h;
        net_sleep_ms(100);
    }
    return low;
}

static int hello_from(int port, const char* source) {
    int fd = net_connect_from(port, source);
    if (fd < 0) return -1;
    proto_request req;
    memset(&req, 0, sizeof req);
    req.kind = PROTO_BODY_HELLO;
    req.request_id = 1;
    req.body.hello.protocol_version = PROTO_VERSION;
    snprintf(req.body.hello.client_name, sizeof req.body.hello.client_name, "bench-edge");
    proto_buf buf = {0};
    proto_error pe;
    static uint8_t msg[4096];
    int rc = -1;
    if (net_sp_handshake(fd, NET_SP_REQ, NET_SP_REP) == 0 && proto_encode_request(&buf, &req, &pe) == 0) {
        msg[0] = 0x80, msg[1] = msg[2] = 0, msg[3] = 1;
        memcpy(msg + 4, buf.data, buf.size);
        if (net_sp_send(fd, msg, buf.size + 4) == 0 && net_sp_recv(fd, msg, sizeof msg, 3.0) > 4) rc = 0;
    }
    proto_free_buf(&buf);
    close(fd);
    return rc;
}

/* The three probes a newcomer makes, from 127.0.0.200. */
static void probe(const server_proc* p, const char* when) {
    static char out[4096];
    static uint8_t snap[1 << 22];
    double t0 = net_now();
    int health = http_get_from(p->http_port, "127.0.0.200", "/healthz", out, sizeof out, 3.0);
    double t1 = net_now();
    int fd = net_connect_from(p->http_port, "127.0.0.200"), op = 0;
    long got = -1;
    char host[64];
    snprintf(host, sizeof host, "127.0.0.1:%d", p->http_port); /* the bound address: what any server accepts */
    if (fd >= 0 && net_ws_upgrade(fd, "/ws/snapshots", host, "pub.sp.nanomsg.org", out, sizeof out) == 101)
        got = net_ws_recv(fd, snap, sizeof snap, &op, 3.0);
    if (fd >= 0) close(fd);
    double t2 = net_now();
    int hello = hello_from(p->command_port, "127.0.0.200");
    double t3 = net_now();
    printf("  %s: /healthz %s in %.0f ms; ws subscriber %s in %.0f ms; hello %s in %.0f ms\n", when,
           health == 200 ? "200" : "FAILED", (t1 - t0) * 1e3, got > 0 ? "got a snapshot" : "FAILED", (t2 - t1) * 1e3,
           hello == 0 ? "answered" : "FAILED", (t3 - t2) * 1e3);
}

static int bench_half_open(const bench_args* a, server_proc* p) {
    uint32_t n = (uint32_t)a->half_open, k = (uint32_t)a->sources;
    int* fds = malloc(n * sizeof *fds);
    if (!fds) return 1;
    int fds0 = open_fds(p->pid);
    long rss0 = proc_status_kib(p->pid, "VmRSS:");
    double t0 = net_now();
    uint32_t opened = 0, failing = 0;
    for (uint32_t i = 0; i < n; i++) {
        char source[32];
        snprintf(source, sizeof source, "127.0.%u.%u", 1 + (i % k) / 250, 1 + (i % k) % 250);
        /* Once the server accepts no more, connects wait in its backlog:
         * give up on the rest after a run of them. */
        fds[i] = failing < 20 ? net_connect_within(p->http_port, k > 1 ? source : NULL, 200) : -1;
        if (fds[i] >= 0) {
            opened++;
            failing = 0;
            net_send_text(fds[i], "GET /healthz HTTP/1.1\r\nHo");
        } else {
            failing++;
        }
    }
    net_sleep_ms(300);
    printf("half-open: %u of %u sockets connected from %u address%s in %.1f s\n", opened, n, k, k == 1 ? "" : "es",
           net_now() - t0);
    printf("  the server holds %d descriptors (%d before), RSS %ld -> %ld KiB\n", open_fds(p->pid), fds0, rss0,
           proc_status_kib(p->pid, "VmRSS:"));
    probe(p, "beside them");
    net_sleep_ms(6500);
    printf("  after 6.5 s: %d descriptors, RSS %ld KiB\n", open_fds(p->pid), proc_status_kib(p->pid, "VmRSS:"));
    probe(p, "then");
    for (uint32_t i = 0; i < n; i++)
        if (fds[i] >= 0) close(fds[i]);
    free(fds);
    net_sleep_ms(1000);
    printf("  after they left: %d descriptors, RSS %ld KiB\n", open_fds(p->pid), proc_status_kib(p->pid, "VmRSS:"));
    return 0;
}

/* One subscriber on `port` (ws: a WebSocket upgrade on `path`), gone
 * mid-snapshot or not, by a reset or a close. */
static void churn_subscriber(int port, int ws, const char* path, const char* source, int partial, int reset) {
    static uint8_t buf[1 << 16];
    static char head[2048];
    int fd = net_connect_from(port, source);
    if (fd < 0) return;
    char host[64];
    snprintf(host, sizeof host, "127.0.0.1:%d", port);
    int ok = ws ? net_ws_upgrade(fd, path, host, "pub.sp.nanomsg.org", head, sizeof head) == 101
                : net_sp_handshake(fd, NET_SP_SUB, NET_SP_PUB) == 0;
    if (ok && partial) net_recv_some(fd, buf, 1000, 0.5);
    if (reset) net_abort_close(fd);
    else close(fd);
}

static int bench_churn(const bench_args* a, server_proc* p) {
    /* A first round: the snapshot builder and the tables grow to their
     * size only once someone subscribes. */
    for (uint64_t i = 0; i < 400; i++)
        churn_subscriber(i & 1 ? p->http_port : p->snapshot_port, i & 1, "/ws/snapshots", NULL, (i & 2) != 0, 0);
    net_sleep_ms(500);
    long rss0 = proc_status_kib(p->pid, "VmRSS:");
    double heap0 = heap_bytes(p);
    double t0 = net_now();
    for (uint64_t i = 0; i < a->churn; i++) {
        int ws = i & 1;
        char source[32];
        snprintf(source, sizeof source, "127.0.1.%u", 1 + (unsigned)(i % 200));
        churn_subscriber(ws ? p->http_port : p->snapshot_port, ws, "/ws/snapshots", source, (i & 2) != 0, (i & 4) != 0);
    }
    double took = net_now() - t0;
    net_sleep_ms(1500);
    long rss1 = proc_status_kib(p->pid, "VmRSS:");
    double heap1 = heap_bytes(p);
    double per100k = 100000.0 / (double)a->churn;
    printf("churn: %llu subscribers (tcp and ws) in %.1f s; server RSS %ld -> %ld KiB (%+.1f MB per 100k connects)",
           (unsigned long long)a->churn, took, rss0, rss1, (double)(rss1 - rss0) / 1024.0 * per100k);
    if (heap0 >= 0 && heap1 >= 0)
        printf("; heap %.0f -> %.0f bytes (%+.2f MB per 100k)", heap0, heap1, (heap1 - heap0) / 1e6 * per100k);
    printf("\n");
    double t1 = net_now();
    int rc = proc_stop(p, SIGTERM, 20.0);
    printf("  exit status %d, %.0f ms after SIGTERM\n", rc, (net_now() - t1) * 1e3);
    return 0;
}

static int bench_hellos(const bench_args* a, server_proc* p, const char* log_path) {
    double t0 = net_now();
    uint64_t ok = 0;
    for (uint64_t i = 0; i < a->hellos; i++) ok += hello_from(p->command_port, NULL) == 0;
    double took = net_now() - t0;
    proc_stop(p, SIGTERM, 20.0);
    FILE* f = fopen(log_path, "r");
    long lines = 0;
    for (int c; f && (c = fgetc(f)) != EOF;) lines += c == '\n';
    if (f) fclose(f);
    printf("hellos: %llu of %llu answered in %.1f s (%.0f per second); the server wrote %ld log lines "
           "(%.1f per second)\n",
           (unsigned long long)ok, (unsigned long long)a->hellos, took, (double)ok / took, lines, (double)lines / took);
    return 0;
}

typedef struct nng_pub_bench {
    nng_socket pub;
    atomic_int stop;
} nng_pub_bench;

static void* nng_publisher(void* arg) {
    nng_pub_bench* b = arg;
    while (!atomic_load(&b->stop)) {
        nng_msg* m;
        if (nng_msg_alloc(&m, 30000) == 0) {
            memset(nng_msg_body(m), 1, 30000);
            if (nng_sendmsg(b->pub, m, 0)) nng_msg_free(m);
        }
        net_sleep_ms(1);
    }
    return NULL;
}

static size_t heap_in_use(void) {
    struct mallinfo2 m = mallinfo2();
    return m.uordblks + m.hblkhd;
}

static int bench_nng_churn(const bench_args* a) {
    for (int ws = 0; ws < 2; ws++) {
        int port = proc_free_port();
        char url[64];
        snprintf(url, sizeof url, ws ? "ws://127.0.0.1:%d/pub" : "tcp://127.0.0.1:%d", port);
        nng_pub_bench b;
        memset(&b, 0, sizeof b);
        if (nng_pub0_open(&b.pub) || nng_listen(b.pub, url, NULL, 0)) {
            fprintf(stderr, "bench-edge: cannot listen on %s\n", url);
            return 1;
        }
        pthread_t t;
        pthread_create(&t, NULL, nng_publisher, &b);
        for (uint64_t i = 0; i < 500; i++) churn_subscriber(port, ws, "/pub", NULL, i & 1, (i & 2) != 0);
        net_sleep_ms(1000);
        size_t before = heap_in_use();
        double t0 = net_now();
        for (uint64_t i = 0; i < a->nng_churn; i++) churn_subscriber(port, ws, "/pub", NULL, i & 1, (i & 2) != 0);
        double took = net_now() - t0;
        net_sleep_ms(2000);
        size_t after = heap_in_use();
        printf("nng 1.5.2 PUB over %s: %llu subscribers in %.1f s; heap in use %zu -> %zu bytes (%+.1f per connect, "
               "%+.1f MB per 100k)\n",
               ws ? "ws" : "tcp", (unsigned long long)a->nng_churn, took, before, after,
               ((double)after - (double)before) / (double)a->nng_churn,
               ((double)after - (double)before) / (double)a->nng_churn * 0.1);
        atomic_store(&b.stop, 1);
        pthread_join(t, NULL);
        /* The socket stays open: nng 1.5.2's close can hang (docs/network.md). */
    }
    fflush(stdout);
    _exit(0);
}

#define EDGE_COUNT(name, field, vn, text) \
    {name, .type = CLI_UINT, CLI_FIELD(bench_args, field), .min = 1, .max = 1000000, .value_name = vn, .help = text}

static const cli_opt edge_opts[] = {
    EDGE_COUNT("--half-open", half_open, "N", "N connections that never finish a handshake"),
    EDGE_COUNT("--sources", sources, "K", "--half-open: from K loopback addresses (default 1)"),
    EDGE_COUNT("--churn", churn, "N", "N connections opened and closed"),
    EDGE_COUNT("--hellos", hellos, "N", "N hello requests"),
    EDGE_COUNT("--nng-churn", nng_churn, "N", "N nng subscribers through one PUB (no server): its heap"),
    EDGE_COUNT("--boats", boats, "N", "the server's boats (default 200)"),
    {"--server", .type = CLI_STRING, CLI_FIELD(bench_args, server), .value_name = "PATH",
     .help = "naval-server to run (default: the build's)"},
    EDGE_COUNT("--server-fds", server_fds, "N", "the server's descriptor limit (prlimit)"),
    {0}};

static const cli_spec edge_spec = {
    .prog = "bench-edge",
    .synopsis = "bench-edge (--half-open N [--sources K] | --churn N | --hellos N | --nng-churn N) [options]",
    .about = "Measures the server's network edge (see tools/bench_edge.c).",
    .opts = edge_opts};

int main(int argc, char** argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    bench_args a = {NAVAL_SERVER_PATH, 0, 1, 0, 0, 200, 0, 0};
    int parsed = cli_parse(&edge_spec, argc, argv, &a);
    if (parsed != CLI_RUN) return parsed;
    if (!a.half_open + !a.churn + !a.hellos + !a.nng_churn != 3)
        return cli_usage_error("bench-edge", "give one of --half-open, --churn, --hellos, --nng-churn");
    if (a.nng_churn) return bench_nng_churn(&a);
    /* The half-open sockets are this process's descriptors too. */
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    char boats[32];
    snprintf(boats, sizeof boats, "%llu", (unsigned long long)a.boats);
    char log_path[] = "/tmp/bench_edge_log_XXXXXX";
    int tmp = mkstemp(log_path);
    if (tmp < 0) return 1;
    const char* extra[] = {"--boats", boats, "--threads", "2", "--log-level", a.hellos ? "info" : "warn", NULL};
    /* The server's stderr: a file for --hellos, else ours. */
    int saved = dup(2);
    if (a.hellos) dup2(tmp, 2);
    close(tmp);
    /* The server starts with the lower limit, soft and hard (it raises a
     * soft limit itself), through util-linux's prlimit. */
    char wrapper[] = "/tmp/bench_edge_server_XXXXXX";
    const char* binary = a.server;
    if (a.server_fds) {
        int w = mkstemp(wrapper);
        FILE* f = w >= 0 ? fdopen(w, "w") : NULL;
        if (!f) return 1;
        fprintf(f, "#!/bin/sh\nexec prlimit --nofile=%llu:%llu -- '%s' \"$@\"\n", (unsigned long long)a.server_fds,
                (unsigned long long)a.server_fds, a.server);
        fclose(f);
        chmod(wrapper, 0700);
        binary = wrapper;
    }
    server_proc p;
    int started = proc_start(&p, binary, extra, 30.0);
    if (a.server_fds) unlink(wrapper);
    dup2(saved, 2);
    close(saved);
    if (started) {
        fprintf(stderr, "bench-edge: %s did not start\n", a.server);
        return 1;
    }
    printf("server %s (pid %d), %s boats%s\n", a.server, (int)p.pid, boats, a.server_fds ? ", descriptors limited" : "");
    int rc = a.half_open ? bench_half_open(&a, &p) : a.churn ? bench_churn(&a, &p) : bench_hellos(&a, &p, log_path);
    if (p.pid > 0) proc_stop(&p, SIGTERM, 20.0);
    unlink(log_path);
    return rc;
}
