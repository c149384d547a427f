// SPDX-License-Identifier: MIT
/* bench-relay: what one naval-relay process carries. A PUB in this process
 * publishes numbered, timestamped messages to a real naval-relay child;
 * N subscribers here (tcp, or some over WebSocket) receive its output.
 * Reports messages/s and MB/s delivered, drops (gaps in the numbers),
 * latency through the relay and the relay's CPU use (from /proc).
 *
 *   bench-relay [--subscribers N] [--ws K] [--size BYTES] [--tick-hz H] [--seconds S]
 *               [--queue Q] [--relay PATH] [--json]
 *
 * --tick-hz 0 (or the deprecated --hz 0) publishes as fast as the relay takes messages (the ceiling);
 * otherwise at the tick rate, as a server does. Loopback only. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <nng/nng.h>
#include <nng/protocol/pubsub0/pub.h>
#include <nng/protocol/pubsub0/sub.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "test_server_proc.h"

typedef struct bench_args {
    uint64_t subscribers, ws, size, seconds, queue;
    double hz;
    const char* relay;
    int json;
} bench_args;

typedef struct bench_sub {
    nng_socket s;
    pthread_t thread;
    atomic_int* stop;
    uint64_t received, bytes, gaps, last_seq;
    double* latency_ms; /* one per message received (capped) */
    size_t latency_count, latency_cap;
} bench_sub;

/* CPU seconds (user + system) a process has used, from /proc/PID/stat. */
static double bench_cpu_of(pid_t pid) {
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE* f = fopen(path, "r");
    if (!f) return -1.0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    /* fields after the ")" that ends the command name: 14 and 15 are utime, stime */
    char* p = strrchr(buf, ')');
    unsigned long ut = 0, st = 0;
    if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) != 2) return -1.0;
    return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

static double bench_self_cpu(void) {
    struct tms t;
    times(&t);
    return (double)(t.tms_utime + t.tms_stime) / (double)sysconf(_SC_CLK_TCK);
}

static void* bench_sub_thread(void* arg) {
    bench_sub* b = arg;
    while (!atomic_load(b->stop)) {
        nng_msg* m;
        if (nng_recvmsg(b->s, &m, 0) != 0) continue;
        size_t len = nng_msg_len(m);
        if (len >= 16) {
            uint64_t seq, sent_ns;
            memcpy(&seq, nng_msg_body(m), 8);
            memcpy(&sent_ns, (char*)nng_msg_body(m) + 8, 8);
            if (seq != UINT64_MAX) { /* UINT64_MAX: warm-up probes */
                if (b->received && seq > b->last_seq + 1) b->gaps += seq - b->last_seq - 1;
                b->last_seq = seq;
                b->received++;
                b->bytes += len;
                if (b->latency_count < b->latency_cap)
                    b->latency_ms[b->latency_count++] = (proc_now() * 1e9 - (double)sent_ns) * 1e-6;
            }
        }
        nng_msg_free(m);
    }
    return NULL;
}

static int bench_cmp(const void* a, const void* b) {
    double x = *(const double*)a, y = *(const double*)b;
    return x < y ? -1 : x > y;
}

static const cli_opt bench_opts[] = {
    CLI_UINT_OPT(bench_args, "--subscribers", subscribers, 1, 1024, "N", "subscribers in all"),
    CLI_UINT_OPT(bench_args, "--ws", ws, 0, 1024, "K", "of them on WebSocket (the others on tcp)"),
    CLI_UINT_OPT(bench_args, "--size", size, 16, 64u << 20, "BYTES", "message size"),
    {"--tick-hz", .deprecated = "--hz", .type = CLI_DOUBLE, CLI_FIELD(bench_args, hz), .min = 0, .max = 100000,
     .value_name = "H", .help = "messages per second (0: as fast as they go)", .show_default = 1},
    CLI_UINT_OPT(bench_args, "--seconds", seconds, 1, 600, "S", "measured"),
    CLI_UINT_OPT(bench_args, "--queue", queue, 1, 8192, "Q", "the relay's --queue"),
    {"--relay", .type = CLI_STRING, CLI_FIELD(bench_args, relay), .value_name = "PATH",
     .help = "naval-relay to run (default: the build's)"},
    {"--json", .type = CLI_SWITCH, CLI_FIELD(bench_args, json), .help = "one JSON object on stdout"},
    {0}};

static const cli_spec bench_spec = {.prog = "bench-relay",
                                    .synopsis = "bench-relay [options]",
                                    .about = "What one relay carries (see tools/bench_relay.c).",
                                    .opts = bench_opts};

int main(int argc, char** argv) {
    bench_args a = {.subscribers = 1, .ws = 0, .size = 80000, .seconds = 5, .queue = 16, .hz = 60.0,
                    .relay = NAVAL_RELAY_PATH, .json = 0};
    int rc = cli_parse(&bench_spec, argc, argv, &a);
    if (rc != CLI_RUN) return rc;
    if (a.ws > a.subscribers) return cli_usage_error("bench-relay", "--ws must not exceed --subscribers");
    signal(SIGPIPE, SIG_IGN);
    int up = proc_free_port(), tp = proc_free_port(), wp = proc_free_port();
    char up_url[64], tcp_url[64], ws_url[96], health[64], queue[16];
    snprintf(up_url, sizeof up_url, "tcp://127.0.0.1:%d", up);
    snprintf(tcp_url, sizeof tcp_url, "tcp://127.0.0.1:%d", tp);
    snprintf(ws_url, sizeof ws_url, "ws://127.0.0.1:%d/snapshots", wp);
    snprintf(health, sizeof health, "127.0.0.1:%d", wp);
    snprintf(queue, sizeof queue, "%llu", (unsigned long long)a.queue);

    nng_socket pub;
    int rv = nng_pub0_open(&pub);
    if (!rv) rv = nng_listen(pub, up_url, NULL, 0);
    if (rv) {
        fprintf(stderr, "bench-relay: %s: %s\n", up_url, nng_strerror(rv));
        return 1;
    }
    pid_t pid = fork();
    if (pid == 0) {
        execl(a.relay, a.relay, "--upstream", up_url, "--listen", tcp_url, "--listen", ws_url, "--health", health,
              "--queue", queue, "--quiet", (char*)NULL);
        fprintf(stderr, "bench-relay: cannot run %s: %s\n", a.relay, strerror(errno));
        _exit(127);
    }
    atomic_int stop;
    atomic_init(&stop, 0);
    bench_sub* subs = calloc(a.subscribers, sizeof *subs);
    size_t cap = (size_t)(a.hz > 0 ? a.hz * (double)a.seconds * 1.2 + 64 : 200000);
    for (uint64_t i = 0; i < a.subscribers; i++) {
        bench_sub* b = &subs[i];
        b->stop = &stop;
        b->latency_cap = cap;
        b->latency_ms = malloc(cap * sizeof(double));
        nng_sub0_open(&b->s);
        nng_socket_set(b->s, NNG_OPT_SUB_SUBSCRIBE, "", 0);
        nng_socket_set_size(b->s, NNG_OPT_RECVMAXSZ, (size_t)a.size + 1024);
        nng_socket_set_ms(b->s, NNG_OPT_RECVTIMEO, 100);
        nng_socket_set_ms(b->s, NNG_OPT_RECONNMINT, 50);
        nng_dial(b->s, i < a.ws ? ws_url : tcp_url, NULL, NNG_FLAG_NONBLOCK);
    }
    /* Warm up until every subscriber hears a probe (all hops connected). */
    uint8_t* msg = calloc(1, a.size);
    uint64_t probe = UINT64_MAX;
    memcpy(msg, &probe, 8);
    double deadline = proc_now() + 20.0;
    uint64_t ready = 0;
    while (ready < a.subscribers && proc_now() < deadline) {
        nng_send(pub, msg, 16, 0);
        for (uint64_t i = 0; i < a.subscribers; i++) {
            if (subs[i].received == UINT64_MAX) continue;
            nng_msg* m;
            if (nng_recvmsg(subs[i].s, &m, NNG_FLAG_NONBLOCK) == 0) {
                nng_msg_free(m);
                subs[i].received = UINT64_MAX;
                ready++;
            }
        }
        struct timespec ts = {0, 20000000};
        nanosleep(&ts, NULL);
    }
    if (ready < a.subscribers) {
        fprintf(stderr, "bench-relay: only %llu of %llu subscribers connected\n", (unsigned long long)ready,
                (unsigned long long)a.subscribers);
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        return 1;
    }
    struct timespec settle = {0, 300000000};
    nanosleep(&settle, NULL);
    for (uint64_t i = 0; i < a.subscribers; i++) {
        nng_msg* m;
        while (nng_recvmsg(subs[i].s, &m, NNG_FLAG_NONBLOCK) == 0) nng_msg_free(m);
        subs[i].received = 0;
        pthread_create(&subs[i].thread, NULL, bench_sub_thread, &subs[i]);
    }

    double relay_cpu0 = bench_cpu_of(pid), self_cpu0 = bench_self_cpu(), t0 = proc_now();
    uint64_t sent = 0;
    double next = t0;
    while (proc_now() - t0 < (double)a.seconds) {
        uint64_t ns = (uint64_t)(proc_now() * 1e9);
        memcpy(msg, &sent, 8);
        memcpy(msg + 8, &ns, 8);
        if (nng_send(pub, msg, a.size, 0) == 0) sent++;
        if (a.hz > 0) {
            next += 1.0 / a.hz;
            double wait = next - proc_now();
            if (wait > 0) {
                struct timespec ts = {(time_t)wait, (long)((wait - (double)(time_t)wait) * 1e9)};
                nanosleep(&ts, NULL);
            }
        }
    }
    double elapsed = proc_now() - t0;
    /* what is still in flight arrives; then the counters stop */
    struct timespec drain = {0, 500000000};
    nanosleep(&drain, NULL);
    double relay_cpu = bench_cpu_of(pid) - relay_cpu0, self_cpu = bench_self_cpu() - self_cpu0;
    atomic_store(&stop, 1);
    uint64_t received = 0, bytes = 0, gaps = 0, worst = UINT64_MAX;
    size_t nlat = 0;
    for (uint64_t i = 0; i < a.subscribers; i++) {
        pthread_join(subs[i].thread, NULL);
        received += subs[i].received;
        bytes += subs[i].bytes;
        gaps += subs[i].gaps;
        if (subs[i].received < worst) worst = subs[i].received;
        nlat += subs[i].latency_count;
    }
    double* lat = malloc((nlat ? nlat : 1) * sizeof(double));
    size_t k = 0;
    for (uint64_t i = 0; i < a.subscribers; i++) {
        memcpy(lat + k, subs[i].latency_ms, subs[i].latency_count * sizeof(double));
        k += subs[i].latency_count;
    }
    qsort(lat, nlat, sizeof(double), bench_cmp);
    double p50 = nlat ? lat[nlat / 2] : 0, p99 = nlat ? lat[(size_t)(0.99 * (double)(nlat - 1))] : 0,
           max = nlat ? lat[nlat - 1] : 0;
    double expected = (double)sent * (double)a.subscribers;
    double lost = expected > 0 ? 1.0 - (double)received / expected : 0.0;
    if (a.json)
        printf("{\"subscribers\": %llu, \"ws\": %llu, \"size\": %llu, \"hz\": %g, \"seconds\": %.3f, \"sent\": %llu, "
               "\"sent_per_s\": %.1f, \"delivered_per_s\": %.1f, \"delivered_mb_per_s\": %.2f, \"lost_fraction\": %.5f, "
               "\"gaps\": %llu, \"worst_subscriber\": %llu, \"latency_ms_p50\": %.3f, \"latency_ms_p99\": %.3f, "
               "\"latency_ms_max\": %.3f, \"relay_cpu_percent\": %.1f, \"bench_cpu_percent\": %.1f}\n",
               (unsigned long long)a.subscribers, (unsigned long long)a.ws, (unsigned long long)a.size, a.hz, elapsed,
               (unsigned long long)sent, (double)sent / elapsed, (double)received / elapsed, (double)bytes / elapsed / 1e6,
               lost, (unsigned long long)gaps, (unsigned long long)worst, p50, p99, max, 100.0 * relay_cpu / elapsed,
               100.0 * self_cpu / elapsed);
    else
        printf("%llu subscribers (%llu ws), %llu B at %s: sent %.1f msg/s; delivered %.1f msg/s, %.1f MB/s; lost %.3f %% "
               "(%llu gaps); latency p50 %.2f ms, p99 %.2f ms, max %.2f ms; relay CPU %.0f %%, bench CPU %.0f %%\n",
               (unsigned long long)a.subscribers, (unsigned long long)a.ws, (unsigned long long)a.size,
               a.hz > 0 ? "paced" : "full speed", (double)sent / elapsed, (double)received / elapsed,
               (double)bytes / elapsed / 1e6, 100.0 * lost, (unsigned long long)gaps, p50, p99, max,
               100.0 * relay_cpu / elapsed, 100.0 * self_cpu / elapsed);
    kill(pid, SIGTERM);
    int status = 0;
    waitpid(pid, &status, 0);
    for (uint64_t i = 0; i < a.subscribers; i++) {
        nng_close(subs[i].s);
        free(subs[i].latency_ms);
    }
    nng_close(pub);
    free(subs);
    free(lat);
    free(msg);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
