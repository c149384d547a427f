// SPDX-License-Identifier: MIT
/* The network edge (net/edge.h) in process, driven over loopback by
 * raw sockets that write what browsers, nng's dialers and attackers write:
 *  - the request-head parser and the WebSocket frame codec against the
 *    RFCs' rules and examples (fed whole and byte by byte);
 *  - HTTP: keep-alive and pipelining, HEAD, and the refusals (400, 405,
 *    413, 414, 426, 431, 505), a decoded NUL in the path among them;
 *  - WebSocket and SP sessions: handshakes, fragments, ping and close,
 *    subscribers that talk, requests with their routing headers, the
 *    pending limit;
 *  - limits: per-address and per-listener caps, the head, idle and send
 *    deadlines, a flood of half-open requests that must not lock others
 *    out;
 *  - subscriber churn with every way of leaving: no connection, buffer or
 *    byte of heap may stay behind (nng 1.5.2's PUB kept 37 bytes per tcp
 *    subscriber and 711 per WebSocket one under the same churn). */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <cmocka.h>

#include <nng/nng.h>
#include <nng/protocol/pubsub0/sub.h>
#include <nng/protocol/reqrep0/req.h>

#include "edge.h"
#include "httphead.h"
#include "log.h"
#include "metrics.h"
#include "test_net_util.h"
#include "wsframe.h"

/* ---- the request-head parser ------------------------------------------------------ */

static httphead_result parse_all(const char* text, httphead_request* r) {
    httphead_limits lim = {4096, 8192};
    httphead_scan scan = {0, 0};
    return httphead_parse(text, strlen(text), &lim, &scan, r);
}

static void test_httphead_rules(void** state) {
    (void)state;
    static httphead_request r;
    assert_int_equal(parse_all("GET /a/b.js?x=1 HTTP/1.1\r\nHost: localhost:8080\r\nX-Y:  z \r\n\r\n", &r), HTTPHEAD_OK);
    assert_true(httphead_equals(&r.method, "GET"));
    assert_string_equal(r.path, "/a/b.js");
    assert_int_equal(r.minor, 1);
    assert_true(httphead_equals(httphead_find(&r, "x-y"), "z"));
    assert_true(httphead_equals(httphead_find(&r, "HOST"), "localhost:8080"));
    /* Bare LF line ends are read (RFC 9112 2.2); the head ends at the empty line. */
    assert_int_equal(parse_all("GET / HTTP/1.0\n\nnext", &r), HTTPHEAD_OK);
    assert_int_equal(r.head_size, strlen("GET / HTTP/1.0\n\n"));
    assert_int_equal(parse_all("GET http://example.com/x%20y HTTP/1.1\r\nHost: a\r\n\r\n", &r), HTTPHEAD_OK);
    assert_string_equal(r.path, "/x y");
    struct {
        const char* head;
        httphead_result want;
    } bad[] = {
        {"GET /app.js%00.png HTTP/1.1\r\nHost: a\r\n\r\n", HTTPHEAD_BAD_REQUEST},
        {"GET /%0a HTTP/1.1\r\nHost: a\r\n\r\n", HTTPHEAD_BAD_REQUEST},
        {"GET /%zz HTTP/1.1\r\nHost: a\r\n\r\n", HTTPHEAD_BAD_REQUEST},
        {"GET /a/../b HTTP/1.1\r\nHost: a\r\n\r\n", HTTPHEAD_BAD_REQUEST},
        {"GET /a/./b HTTP/1.1\r\nHost: a\r\n\r\n", HTTPHEAD_BAD_REQUEST},
        {"GET a HTTP/1.1\r\nHost: a\r\n\r\n", HTTPHEAD_BAD_REQUEST},
        {"GET  / HTTP/1.1\r\n\r\n", HTTPHEAD_BAD_REQUEST},
        {"GET / HTTP/2.0\r\n\r\n", HTTPHEAD_VERSION},
        {"GET / HTTQ/1.1\r\n\r\n", HTTPHEAD_BAD_REQUEST},
        {"GET / HTTP/1.1\r\nHost : a\r\n\r\n", HTTPHEAD_BAD_REQUEST},
        {"GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n", HTTPHEAD_BAD_REQUEST},
        {"GET / HTTP/1.1\r\nHost: a\rb\r\n\r\n", HTTPHEAD_BAD_REQUEST},
        {"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", HTTPHEAD_BAD_REQUEST},
        {"GET / HTTP/1.1\r\nX: a\x01\r\n\r\n", HTTPHEAD_BAD_REQUEST},
        {"VERYLONGMETHODNAMEXX / HTTP/1.1\r\n\r\n", HTTPHEAD_NOT_IMPLEMENTED},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        httphead_result got = parse_all(bad[i].head, &r);
        if (got != bad[i].want) fail_msg("'%s': %d, expected %d", bad[i].head, (int)got, (int)bad[i].want);
        assert_non_null(r.why);
    }
    /* Limits: a long request line is 414 before its end arrives; a big head 431. */
    httphead_limits lim = {64, 256};
    char line[512];
    memset(line, 'a', sizeof line);
    memcpy(line, "GET /", 5);
    httphead_scan scan = {0, 0};
    assert_int_equal(httphead_parse(line, 100, &lim, &scan, &r), HTTPHEAD_URI_TOO_LONG);
    char head[2048];
    int n = snprintf(head, sizeof head, "GET / HTTP/1.1\r\n");
    while (n < 300) n += snprintf(head + n, sizeof head - (size_t)n, "X-Pad: 0123456789\r\n");
    memset(&scan, 0, sizeof scan);
    assert_int_equal(httphead_parse(head, (size_t)n, &lim, &scan, &r), HTTPHEAD_FIELDS_TOO_LARGE);
    n = snprintf(head, sizeof head, "GET / HTTP/1.1\r\n");
    for (int i = 0; i <= HTTPHEAD_MAX_FIELDS; i++) n += snprintf(head + n, sizeof head - (size_t)n, "A%d: b\r\n", i);
    n += snprintf(head + n, sizeof head - (size_t)n, "\r\n");
    assert_int_equal(parse_all(head, &r), HTTPHEAD_FIELDS_TOO_LARGE);
    assert_true(httphead_has_token(&(httphead_slice){"keep-alive, Upgrade", 19}, "upgrade"));
    assert_false(httphead_has_token(&(httphead_slice){"upgrades", 8}, "upgrade"));
}

/* Byte by byte, a head parses as it does whole, and is INCOMPLETE until
 * its last byte. */
static void test_httphead_dripfeed(void** state) {
    (void)state;
    const char* text = "GET /x HTTP/1.1\r\nHost: h\r\nA: b\r\n\r\n";
    size_t len = strlen(text);
    httphead_limits lim = {4096, 8192};
    httphead_scan scan = {0, 0};
    static httphead_request r;
    for (size_t i = 1; i < len; i++) assert_int_equal(httphead_parse(text, i, &lim, &scan, &r), HTTPHEAD_INCOMPLETE);
    assert_int_equal(httphead_parse(text, len, &lim, &scan, &r), HTTPHEAD_OK);
    assert_int_equal(r.head_size, len);
    assert_int_equal(r.field_count, 2);
}

/* ---- WebSocket frames ------------------------------------------------------------- */

static void test_wsframe_rfc(void** state) {
    (void)state;
    char accept[WSFRAME_ACCEPT_LEN + 1];
    assert_int_equal(wsframe_accept_key(NET_WS_KEY, strlen(NET_WS_KEY), accept), 0);
    assert_string_equal(accept, NET_WS_ACCEPT); /* RFC 6455 1.3 */
    assert_int_equal(wsframe_accept_key("short", 5, accept), -1);
    assert_int_equal(wsframe_accept_key("!!!!!!!!!!!!!!!!!!!!!!!!", 24, accept), -1);
    /* RFC 6455 5.7: a masked "Hello". */
    uint8_t hello[] = {0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58};
    wsframe f;
    const char* why = NULL;
    for (size_t i = 0; i < sizeof hello; i++) assert_int_equal(wsframe_decode(hello, i, 1000, &f, &why), 0);
    assert_int_equal(wsframe_decode(hello, sizeof hello, 1000, &f, &why), (long)sizeof hello);
    assert_true(f.fin && f.opcode == WSFRAME_TEXT && f.size == 5 && memcmp(f.payload, "Hello", 5) == 0);
    uint8_t h[WSFRAME_HEADER_MAX];
    assert_int_equal(wsframe_header(h, 1, WSFRAME_BINARY, 125), 2);
    assert_int_equal(wsframe_header(h, 1, WSFRAME_BINARY, 126), 4);
    assert_true(h[1] == 126 && h[2] == 0 && h[3] == 126);
    assert_int_equal(wsframe_header(h, 0, WSFRAME_BINARY, 65536), 10);
    assert_true(h[0] == 0x02 && h[1] == 127 && h[7] == 1 && h[8] == 0 && h[9] == 0);
    /* A long client frame round trip through the test's encoder. */
    static uint8_t big[70000 + 14], payload[70000];
    for (size_t i = 0; i < sizeof payload; i++) payload[i] = (uint8_t)(i * 7);
    size_t n = net_ws_frame(big, 1, WSFRAME_BINARY, payload, sizeof payload);
    assert_int_equal(wsframe_decode(big, n, sizeof payload, &f, &why), (long)n);
    assert_memory_equal(f.payload, payload, sizeof payload);
    n = net_ws_frame(big, 1, WSFRAME_BINARY, payload, sizeof payload);
    assert_int_equal(wsframe_decode(big, n, sizeof payload - 1, &f, &why), -WSFRAME_CLOSE_TOO_BIG);
}

static void test_wsframe_violations(void** state) {
    (void)state;
    wsframe f;
    const char* why = NULL;
    uint8_t buf[64];
    /* A fragmented ping (FIN clear on a control frame). */
    size_t n = net_ws_frame(buf, 0, WSFRAME_PING, "x", 1);
    assert_int_equal(wsframe_decode(buf, n, 1000, &f, &why), -WSFRAME_CLOSE_PROTOCOL);
    assert_non_null(why);
    uint8_t unmasked[] = {0x82, 0x01, 'x'};
    assert_int_equal(wsframe_decode(unmasked, 3, 1000, &f, &why), -WSFRAME_CLOSE_PROTOCOL);
    n = net_ws_frame(buf, 1, WSFRAME_BINARY, "x", 1);
    buf[0] |= 0x40; /* RSV1 */
    assert_int_equal(wsframe_decode(buf, n, 1000, &f, &why), -WSFRAME_CLOSE_PROTOCOL);
    n = net_ws_frame(buf, 1, 0x3, "x", 1);
    assert_int_equal(wsframe_decode(buf, n, 1000, &f, &why), -WSFRAME_CLOSE_PROTOCOL);
    uint8_t long_ping[200];
    memset(long_ping, 0, sizeof long_ping);
    static uint8_t big[300];
    n = net_ws_frame(big, 1, WSFRAME_PING, long_ping, 126);
    assert_int_equal(wsframe_decode(big, n, 1000, &f, &why), -WSFRAME_CLOSE_PROTOCOL);
    /* A 16-bit length for 5 bytes: not the shortest form. */
    uint8_t loose[] = {0x82, 0xfe, 0x00, 0x05, 0, 0, 0, 0, 'a', 'b', 'c', 'd', 'e'};
    assert_int_equal(wsframe_decode(loose, sizeof loose, 1000, &f, &why), -WSFRAME_CLOSE_PROTOCOL);
    /* Fragments out of order. */
    wsframe_sequence seq = {0, WSFRAME_CONTINUATION};
    wsframe cont = {1, WSFRAME_CONTINUATION, NULL, 0}, first = {0, WSFRAME_BINARY, NULL, 0};
    wsframe ping = {1, WSFRAME_PING, NULL, 0}, last = {1, WSFRAME_CONTINUATION, NULL, 0};
    assert_int_equal(wsframe_sequence_check(&seq, &cont, &why), -WSFRAME_CLOSE_PROTOCOL);
    assert_int_equal(wsframe_sequence_check(&seq, &first, &why), 0);
    assert_int_equal(wsframe_sequence_check(&seq, &ping, &why), 0);
    assert_int_equal(wsframe_sequence_check(&seq, &first, &why), -WSFRAME_CLOSE_PROTOCOL);
    assert_int_equal(wsframe_sequence_check(&seq, &last, &why), 0);
    assert_false(seq.open);
}

/* ---- an edge in this process ------------------------------------------------------------ */

typedef struct request_log {
    pthread_mutex_t lock;
    uint32_t conn[256], tag[256];
    size_t size[256];
    uint8_t first[256];
    uint32_t count;
    atomic_int echo;   /* answer at once with the body */
    atomic_int closed; /* requester connections that went */
    atomic_int peers_open, peers_closed, peer_messages;
    atomic_uint last_peer;  /* the newest PAIR1 peer's connection id */
    atomic_uint requests;   /* every request, past the 256 kept above */
    atomic_size_t big;      /* when set, answers are this many bytes instead of the echo */
} request_log;

typedef struct fixture {
    edge* e;
    request_log log;
    int http, pub, rep, pair; /* ports */
    atomic_int held, release; /* GET /hold keeps the edge's thread until release */
} fixture;

static void on_http(void* arg, const edge_http_request* req, edge_response* res) {
    fixture* fx = arg;
    if (strcmp(req->path, "/hello") == 0) *res = (edge_response){200, "text/plain", "hello\n", 6, NULL, NULL};
    if (strcmp(req->path, "/hold") == 0) {
        atomic_store(&fx->held, 1);
        while (!atomic_load(&fx->release)) net_sleep_ms(1);
        *res = (edge_response){200, "text/plain", "held\n", 5, NULL, NULL};
    }
}

static int on_request(void* arg, uint32_t conn, uint32_t tag, const uint8_t* body, size_t size) {
    fixture* fx = arg;
    request_log* l = &fx->log;
    pthread_mutex_lock(&l->lock);
    if (l->count < 256) {
        l->conn[l->count] = conn;
        l->tag[l->count] = tag;
        l->size[l->count] = size;
        l->first[l->count] = size ? body[0] : 0;
        l->count++;
    }
    pthread_mutex_unlock(&l->lock);
    atomic_fetch_add(&l->requests, 1);
    size_t big = atomic_load(&l->big);
    if (big) {
        static uint8_t answer[1 << 20];
        edge_reply(fx->e, conn, tag, answer, big < sizeof answer ? big : sizeof answer);
    } else if (atomic_load(&l->echo)) {
        edge_reply(fx->e, conn, tag, body, size);
    }
    return 0;
}

static void on_peer_open(void* arg, uint32_t conn, const uint8_t addr[16]) {
    (void)addr;
    atomic_store(&((fixture*)arg)->log.last_peer, conn);
    atomic_fetch_add(&((fixture*)arg)->log.peers_open, 1);
}

/* A PAIR1 peer gets its message back (from the edge's own thread: edge_send
 * is for any thread). */
static void on_peer_message(void* arg, uint32_t conn, const uint8_t* body, size_t size) {
    fixture* fx = arg;
    atomic_fetch_add(&fx->log.peer_messages, 1);
    if (atomic_load(&fx->log.echo)) edge_send(fx->e, conn, body, size);
}

static void on_peer_closed(void* arg, uint32_t conn) {
    (void)conn;
    atomic_fetch_add(&((fixture*)arg)->log.peers_closed, 1);
}

static void on_closed(void* arg, uint32_t conn) {
    (void)conn;
    fixture* fx = arg;
    atomic_fetch_add(&fx->log.closed, 1);
}

static uint32_t log_count(fixture* fx) {
    pthread_mutex_lock(&fx->log.lock);
    uint32_t n = fx->log.count;
    pthread_mutex_unlock(&fx->log.lock);
    return n;
}

static int fixture_private_stream; /* set: stream 0 is local-only */

static void fixture_open(fixture* fx, const edge_limits* lim) {
    memset(fx, 0, sizeof *fx);
    pthread_mutex_init(&fx->log.lock, NULL);
    atomic_store(&fx->log.echo, 1);
    edge_callbacks cb = {fx, on_http, on_request, NULL, on_closed, on_peer_open, on_peer_message, on_peer_closed};
    nv_error err;
    if (edge_create(&fx->e, lim, &cb, 1, &err)) fail_msg("%s", err.message);
    int http = edge_listen_http(fx->e, "127.0.0.1:0", &err);
    int pub = edge_listen_sp(fx->e, "tcp://127.0.0.1:0", EDGE_SUBSCRIBER, 0, &err);
    int rep = edge_listen_sp(fx->e, "tcp://127.0.0.1:0", EDGE_REQUESTER, 0, &err);
    int pair = edge_listen_sp(fx->e, "tcp://127.0.0.1:0", EDGE_PEER, 0, &err);
    if (http < 0 || pub < 0 || rep < 0 || pair < 0) fail_msg("%s", err.message);
    if (edge_route_ws(fx->e, http, "/ws/sub", EDGE_SUBSCRIBER, 0, &err) ||
        edge_route_ws(fx->e, http, "/ws/req", EDGE_REQUESTER, 0, &err) ||
        edge_route_ws(fx->e, http, "/ws/pair", EDGE_PEER, 0, &err) ||
        (fixture_private_stream && edge_stream_local_only(fx->e, 0, &err)) || edge_start(fx->e, &err))
        fail_msg("%s", err.message);
    fx->http = edge_listener_port(fx->e, http);
    fx->pub = edge_listener_port(fx->e, pub);
    fx->rep = edge_listener_port(fx->e, rep);
    fx->pair = edge_listener_port(fx->e, pair);
}

static void fixture_close(fixture* fx) {
    edge_destroy(fx->e);
    pthread_mutex_destroy(&fx->log.lock);
}

static uint64_t stat_load(const atomic_uint_least64_t* v) { return atomic_load(v); }

/* Waits until cond holds (polling), up to timeout_s. */
#define WAIT_FOR(cond, timeout_s)                                                    \
    do {                                                                             \
        double deadline_ = net_now() + (timeout_s);                                  \
        while (!(cond) && net_now() < deadline_) net_sleep_ms(5);                    \
        if (!(cond)) fail_msg("timed out waiting for %s", #cond);                    \
    } while (0)

static edge_limits test_limits(void) {
    edge_limits l;
    edge_limits_default(&l);
    l.log_interval_s = 3600; /* no summary lines in the test's output */
    return l;
}

/* Sends text and reads everything until the server closes. */
static size_t exchange(int port, const char* text, char* out, size_t cap) {
    int fd = net_connect(port);
    assert_true(fd >= 0);
    assert_int_equal(net_send_text(fd, text), 0);
    int closed = 0;
    size_t n = net_recv_all(fd, out, cap, 5.0, &closed);
    close(fd);
    return n;
}

static void test_http(void** state) {
    (void)state;
    edge_limits lim = test_limits();
    lim.max_header_bytes = 1024;
    fixture fx;
    fixture_open(&fx, &lim);
    static char out[65536];
    /* Two pipelined requests in one write, keep-alive, then one that closes. */
    exchange(fx.http,
             "GET /hello HTTP/1.1\r\nHost: a\r\n\r\nHEAD /hello HTTP/1.1\r\nHost: a\r\n\r\n"
             "GET /nothing HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n",
             out, sizeof out);
    char* first = strstr(out, "HTTP/1.1 200 OK");
    assert_non_null(first);
    char* second = strstr(first + 1, "HTTP/1.1 200 OK");
    assert_non_null(second);
    assert_non_null(strstr(first, "Content-Length: 6\r\n"));
    assert_non_null(strstr(first, "\r\n\r\nhello\n"));
    char* third = strstr(second, "HTTP/1.1 404");
    assert_non_null(third);
    assert_null(strstr(second, "hello\n")); /* HEAD: no body */
    assert_non_null(strstr(third, "Connection: close"));
    struct {
        const char* req;
        const char* status;
    } cases[] = {
        {"POST /hello HTTP/1.1\r\nHost: a\r\n\r\n", "HTTP/1.1 405"},
        {"GET /hello HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello", "HTTP/1.1 413"},
        {"GET /app.js%00.png HTTP/1.1\r\nHost: a\r\n\r\n", "HTTP/1.1 400"},
        {"GET /hello HTTP/1.1\r\n\r\n", "HTTP/1.1 400"},
        {"GET /hello HTTP/3.0\r\nHost: a\r\n\r\n", "HTTP/1.1 505"},
        {"GET /ws/sub HTTP/1.1\r\nHost: a\r\n\r\n", "HTTP/1.1 426"},
        {"GET /ws/none HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n", "HTTP/1.1 404"},
        {"\x16\x03\x01\x02", "HTTP/1.1 400"}, /* a TLS hello's first bytes: refused at once */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        exchange(fx.http, cases[i].req, out, sizeof out);
        if (strncmp(out, cases[i].status, strlen(cases[i].status)) != 0)
            fail_msg("case %zu: got '%.60s', expected %s", i, out, cases[i].status);
    }
    /* Over the limits: a long request line (414), a header flood (431). */
    char big[4096];
    int n = snprintf(big, sizeof big, "GET /");
    memset(big + n, 'a', 700);
    snprintf(big + n + 700, sizeof big - (size_t)n - 700, " HTTP/1.1\r\nHost: a\r\n\r\n");
    exchange(fx.http, big, out, sizeof out);
    assert_int_equal(strncmp(out, "HTTP/1.1 414", 12), 0);
    n = snprintf(big, sizeof big, "GET / HTTP/1.1\r\nHost: a\r\n");
    while (n < 2000) n += snprintf(big + n, sizeof big - (size_t)n, "X-Flood: 0123456789abcdef\r\n");
    snprintf(big + n, sizeof big - (size_t)n, "\r\n");
    exchange(fx.http, big, out, sizeof out);
    assert_int_equal(strncmp(out, "HTTP/1.1 431", 12), 0);
    const edge_stats* st = edge_get_stats(fx.e);
    assert_true(stat_load(&st->http_refused) >= 10);
    fixture_close(&fx);
}

static void test_ws_subscriber(void** state) {
    (void)state;
    edge_limits lim = test_limits();
    fixture fx;
    fixture_open(&fx, &lim);
    static char head[2048];
    static uint8_t msg[1 << 20];
    char host[64];
    snprintf(host, sizeof host, "localhost:%d", fx.http);
    int fd = net_connect(fx.http);
    /* The Host a browser sends from http://localhost:PORT, not the bound 127.0.0.1. */
    assert_int_equal(net_ws_upgrade(fd, "/ws/sub", host, "pub.sp.nanomsg.org", head, sizeof head), 101);
    assert_non_null(strstr(head, "Sec-WebSocket-Accept: " NET_WS_ACCEPT "\r\n"));
    assert_non_null(strstr(head, "Sec-WebSocket-Protocol: pub.sp.nanomsg.org\r\n"));
    const edge_stats* st = edge_get_stats(fx.e);
    WAIT_FOR(atomic_load(&st->subscribers[0]) == 1, 5.0);
    /* A small message, then one of 200 KB (fragments of 64 KiB on the wire). */
    static uint8_t big[200000];
    for (size_t i = 0; i < sizeof big; i++) big[i] = (uint8_t)(i * 31 + 7);
    assert_int_equal(edge_publish(fx.e, 0, "tick", 4), 0);
    int op;
    assert_int_equal(net_ws_recv(fd, msg, sizeof msg, &op, 5.0), 4);
    assert_int_equal(op, WSFRAME_BINARY);
    assert_memory_equal(msg, "tick", 4);
    assert_int_equal(edge_publish(fx.e, 0, big, sizeof big), 0);
    assert_int_equal(net_ws_recv(fd, msg, sizeof msg, &op, 5.0), (long)sizeof big);
    assert_memory_equal(msg, big, sizeof big);
    /* Ping: pong with the same payload. */
    uint8_t frame[256];
    size_t n = net_ws_frame(frame, 1, WSFRAME_PING, "are you there", 13);
    assert_int_equal(net_send(fd, frame, n), 0);
    assert_int_equal(net_ws_recv(fd, msg, sizeof msg, &op, 5.0), 13);
    assert_int_equal(op, WSFRAME_PONG);
    assert_memory_equal(msg, "are you there", 13);
    /* A fragmented ping breaks the protocol: close 1002, then the end. */
    n = net_ws_frame(frame, 0, WSFRAME_PING, "x", 1);
    assert_int_equal(net_send(fd, frame, n), 0);
    long got = net_ws_recv(fd, msg, sizeof msg, &op, 5.0);
    assert_int_equal(op, WSFRAME_CLOSE);
    assert_true(got >= 2 && ((msg[0] << 8) | msg[1]) == WSFRAME_CLOSE_PROTOCOL);
    int closed = 0;
    net_recv_all(fd, head, sizeof head, 5.0, &closed);
    assert_true(closed);
    close(fd);
    /* A subscriber that sends a message is closed with 1008. */
    fd = net_connect(fx.http);
    assert_int_equal(net_ws_upgrade(fd, "/ws/sub", "h", NULL, head, sizeof head), 101);
    assert_null(strstr(head, "Sec-WebSocket-Protocol"));
    n = net_ws_frame(frame, 1, WSFRAME_BINARY, "hi", 2);
    assert_int_equal(net_send(fd, frame, n), 0);
    got = net_ws_recv(fd, msg, sizeof msg, &op, 5.0);
    assert_true(op == WSFRAME_CLOSE && got >= 2 && ((msg[0] << 8) | msg[1]) == WSFRAME_CLOSE_POLICY);
    close(fd);
    /* A close from the client is echoed. */
    fd = net_connect(fx.http);
    assert_int_equal(net_ws_upgrade(fd, "/ws/sub", "h", NULL, head, sizeof head), 101);
    uint8_t code[2] = {0x03, 0xe9}; /* 1001 */
    n = net_ws_frame(frame, 1, WSFRAME_CLOSE, code, 2);
    assert_int_equal(net_send(fd, frame, n), 0);
    got = net_ws_recv(fd, msg, sizeof msg, &op, 5.0);
    assert_true(op == WSFRAME_CLOSE && got == 2 && msg[0] == 0x03 && msg[1] == 0xe9);
    close(fd);
    /* Upgrades the edge refuses. */
    fd = net_connect(fx.http);
    assert_int_equal(net_ws_upgrade(fd, "/ws/sub", "h", "rep.sp.nanomsg.org", head, sizeof head), 400);
    close(fd);
    fd = net_connect(fx.http);
    assert_int_equal(net_send_text(fd, "GET /ws/sub HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                                       "Sec-WebSocket-Key: " NET_WS_KEY "\r\nSec-WebSocket-Version: 12\r\n\r\n"),
                     0);
    assert_int_equal(net_recv_head(fd, head, sizeof head, 5.0), 426);
    assert_non_null(strstr(head, "Sec-WebSocket-Version: 13"));
    close(fd);
    fd = net_connect(fx.http);
    assert_int_equal(net_send_text(fd, "GET /ws/sub HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                                       "Sec-WebSocket-Key: c2hvcnQ=\r\nSec-WebSocket-Version: 13\r\n\r\n"),
                     0);
    assert_int_equal(net_recv_head(fd, head, sizeof head, 5.0), 400);
    close(fd);
    WAIT_FOR(atomic_load(&st->connections) == 0, 5.0);
    assert_int_equal(atomic_load(&st->subscribers[0]), 0);
    fixture_close(&fx);
}

static void test_sp_subscriber(void** state) {
    (void)state;
    edge_limits lim = test_limits();
    fixture fx;
    fixture_open(&fx, &lim);
    const edge_stats* st = edge_get_stats(fx.e);
    int fd = net_connect(fx.pub);
    assert_int_equal(net_sp_handshake(fd, NET_SP_SUB, NET_SP_PUB), 0);
    WAIT_FOR(atomic_load(&st->subscribers[0]) == 1, 5.0);
    assert_int_equal(edge_publish(fx.e, 0, "snapshot", 8), 0);
    static uint8_t msg[4096];
    assert_int_equal(net_sp_recv(fd, msg, sizeof msg, 5.0), 8);
    assert_memory_equal(msg, "snapshot", 8);
    /* nng's own SUB dialer gets the same over tcp and WebSocket. */
    char url[64], ws[64];
    snprintf(url, sizeof url, "tcp://127.0.0.1:%d", fx.pub);
    snprintf(ws, sizeof ws, "ws://127.0.0.1:%d/ws/sub", fx.http);
    nng_socket subs[2];
    for (int i = 0; i < 2; i++) {
        assert_int_equal(nng_sub0_open(&subs[i]), 0);
        assert_int_equal(nng_socket_set(subs[i], NNG_OPT_SUB_SUBSCRIBE, "", 0), 0);
        assert_int_equal(nng_socket_set_ms(subs[i], NNG_OPT_RECVTIMEO, 5000), 0);
        assert_int_equal(nng_dial(subs[i], i ? ws : url, NULL, 0), 0);
    }
    WAIT_FOR(atomic_load(&st->subscribers[0]) == 3, 5.0);
    static uint8_t big[300000];
    for (size_t i = 0; i < sizeof big; i++) big[i] = (uint8_t)(i ^ (i >> 8));
    assert_int_equal(edge_publish(fx.e, 0, big, sizeof big), 0);
    for (int i = 0; i < 2; i++) {
        nng_msg* m = NULL;
        assert_int_equal(nng_recvmsg(subs[i], &m, 0), 0);
        assert_int_equal(nng_msg_len(m), sizeof big);
        assert_memory_equal(nng_msg_body(m), big, sizeof big);
        nng_msg_free(m);
        nng_close(subs[i]);
    }
    /* A subscriber that talks is closed. */
    assert_int_equal(net_send(fd, "x", 1), 0);
    assert_int_equal(net_wait_closed(fd, 5.0), 0);
    close(fd);
    int closed = 0;
    /* A REQ knocking at a PUB: closed after the handshake. */
    fd = net_connect(fx.pub);
    uint8_t h[8] = {0, 'S', 'P', 0, 0, NET_SP_REQ, 0, 0};
    assert_int_equal(net_send(fd, h, 8), 0);
    net_recv_all(fd, (char*)msg, sizeof msg, 5.0, &closed);
    assert_true(closed);
    close(fd);
    WAIT_FOR(atomic_load(&st->connections) == 0, 5.0);
    assert_true(stat_load(&st->protocol_errors) >= 2);
    fixture_close(&fx);
}

/* Messages published while the edge's thread is busy wait in a ring of
 * publish_queue per stream; beyond it the oldest are superseded, and the
 * subscriber gets the newest in the order they were published. */
static void test_publish_queue(void** state) {
    (void)state;
    edge_limits lim = test_limits();
    lim.publish_queue = 4;
    fixture fx;
    fixture_open(&fx, &lim);
    const edge_stats* st = edge_get_stats(fx.e);
    int fd = net_connect(fx.pub);
    assert_int_equal(net_sp_handshake(fd, NET_SP_SUB, NET_SP_PUB), 0);
    WAIT_FOR(atomic_load(&st->subscribers[0]) == 1, 5.0);
    int hold = net_connect(fx.http);
    assert_int_equal(net_send_text(hold, "GET /hold HTTP/1.1\r\nHost: x\r\n\r\n"), 0);
    WAIT_FOR(atomic_load(&fx.held) == 1, 5.0);
    char text[16];
    for (int i = 0; i < 7; i++) {
        snprintf(text, sizeof text, "m%d", i);
        assert_int_equal(edge_publish(fx.e, 0, text, 2), 0);
    }
    assert_int_equal(stat_load(&st->superseded[0]), 3);
    atomic_store(&fx.release, 1);
    static uint8_t msg[64];
    for (int i = 3; i < 7; i++) {
        assert_int_equal(net_sp_recv(fd, msg, sizeof msg, 5.0), 2);
        assert_int_equal(msg[1], '0' + i);
    }
    assert_int_equal(net_sp_recv(fd, msg, sizeof msg, 0.2), -1);
    close(hold);
    close(fd);
    lim.publish_queue = 0;
    edge* bad = NULL;
    nv_error err;
    edge_callbacks cb = {NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    assert_int_equal(edge_create(&bad, &lim, &cb, 1, &err), -1);
    assert_non_null(strstr(err.message, "publish_queue"));
    fixture_close(&fx);
}

/* A request: its routing header (hops, the last with its top bit) and body. */
static size_t make_request(uint8_t* out, int hops, uint32_t id, const char* body) {
    size_t at = 0;
    for (int i = 0; i < hops; i++) {
        uint32_t word = i == hops - 1 ? (0x80000000u | id) : (uint32_t)(100 + i);
        for (int b = 0; b < 4; b++) out[at++] = (uint8_t)(word >> (24 - 8 * b));
    }
    memcpy(out + at, body, strlen(body));
    return at + strlen(body);
}

static void test_requests(void** state) {
    (void)state;
    edge_limits lim = test_limits();
    lim.max_pending = 4;
    fixture fx;
    fixture_open(&fx, &lim);
    const edge_stats* st = edge_get_stats(fx.e);
    static uint8_t req[512], msg[4096];
    static char head[2048];
    /* tcp: answers carry the routing header back, one hop or three. */
    int fd = net_connect(fx.rep);
    assert_int_equal(net_sp_handshake(fd, NET_SP_REQ, NET_SP_REP), 0);
    for (int hops = 1; hops <= 3; hops += 2) {
        size_t n = make_request(req, hops, 77, "ping");
        assert_int_equal(net_sp_send(fd, req, n), 0);
        assert_int_equal(net_sp_recv(fd, msg, sizeof msg, 5.0), (long)n);
        assert_memory_equal(msg, req, n);
    }
    /* No top bit within 8 words: dropped, as nng drops it. */
    uint8_t bad[36];
    memset(bad, 0, sizeof bad);
    assert_int_equal(net_sp_send(fd, bad, sizeof bad), 0);
    size_t n = make_request(req, 1, 78, "after");
    assert_int_equal(net_sp_send(fd, req, n), 0);
    assert_int_equal(net_sp_recv(fd, msg, sizeof msg, 5.0), (long)n);
    assert_memory_equal(msg, req, n);
    close(fd);
    /* WebSocket: the same in a binary message, split over two fragments. */
    fd = net_connect(fx.http);
    assert_int_equal(net_ws_upgrade(fd, "/ws/req", "h", "rep.sp.nanomsg.org", head, sizeof head), 101);
    n = make_request(req, 1, 5, "over websocket");
    uint8_t frame[600];
    size_t f1 = net_ws_frame(frame, 0, WSFRAME_BINARY, req, 6);
    size_t f2 = net_ws_frame(frame + f1, 1, WSFRAME_CONTINUATION, req + 6, n - 6);
    assert_int_equal(net_send(fd, frame, f1 + f2), 0);
    int op;
    assert_int_equal(net_ws_recv(fd, msg, sizeof msg, &op, 5.0), (long)n);
    assert_memory_equal(msg, req, n);
    /* A text message is refused: SP messages are binary. */
    f1 = net_ws_frame(frame, 1, WSFRAME_TEXT, req, n);
    assert_int_equal(net_send(fd, frame, f1), 0);
    long got = net_ws_recv(fd, msg, sizeof msg, &op, 5.0);
    assert_true(op == WSFRAME_CLOSE && got >= 2 && ((msg[0] << 8) | msg[1]) == WSFRAME_CLOSE_UNSUPPORTED);
    close(fd);
    /* nng's REQ over tcp and WebSocket. */
    char url[64], ws[64];
    snprintf(url, sizeof url, "tcp://127.0.0.1:%d", fx.rep);
    snprintf(ws, sizeof ws, "ws://127.0.0.1:%d/ws/req", fx.http);
    for (int i = 0; i < 2; i++) {
        nng_socket s;
        assert_int_equal(nng_req0_open(&s), 0);
        assert_int_equal(nng_socket_set_ms(s, NNG_OPT_RECVTIMEO, 5000), 0);
        assert_int_equal(nng_dial(s, i ? ws : url, NULL, 0), 0);
        assert_int_equal(nng_send(s, "question", 8, 0), 0);
        char answer[64];
        size_t size = sizeof answer;
        assert_int_equal(nng_recv(s, answer, &size, 0), 0);
        assert_int_equal(size, 8);
        assert_memory_equal(answer, "question", 8);
        nng_close(s);
    }
    /* At most max_pending unanswered: the rest wait unread. */
    atomic_store(&fx.log.echo, 0);
    uint32_t before = log_count(&fx);
    fd = net_connect(fx.rep);
    assert_int_equal(net_sp_handshake(fd, NET_SP_REQ, NET_SP_REP), 0);
    for (uint32_t i = 0; i < 10; i++) {
        n = make_request(req, 1, 1000 + i, "x");
        assert_int_equal(net_sp_send(fd, req, n), 0);
    }
    WAIT_FOR(log_count(&fx) == before + 4, 5.0);
    net_sleep_ms(200);
    assert_int_equal(log_count(&fx), before + 4);
    pthread_mutex_lock(&fx.log.lock);
    uint32_t conn = fx.log.conn[before], tag = fx.log.tag[before];
    pthread_mutex_unlock(&fx.log.lock);
    assert_int_equal(edge_reply(fx.e, conn, tag, "ok", 2), 0);
    assert_int_equal(net_sp_recv(fd, msg, sizeof msg, 5.0), 6);
    WAIT_FOR(log_count(&fx) == before + 5, 5.0);
    /* An answer for a gone connection is counted, not sent. */
    close(fd);
    WAIT_FOR(atomic_load(&st->requesters) == 0, 5.0);
    pthread_mutex_lock(&fx.log.lock);
    tag = fx.log.tag[before + 1];
    pthread_mutex_unlock(&fx.log.lock);
    uint64_t lost = stat_load(&st->replies_lost);
    assert_int_equal(edge_reply(fx.e, conn, tag, "late", 4), 0);
    WAIT_FOR(stat_load(&st->replies_lost) == lost + 1, 5.0);
    assert_true(atomic_load(&fx.log.closed) >= 4);
    fixture_close(&fx);
}

static void test_caps_and_deadlines(void** state) {
    (void)state;
    edge_limits lim = test_limits();
    lim.max_connections_per_address = 8;
    lim.max_connections = 12;
    lim.header_timeout_s = 0.3;
    lim.idle_timeout_s = 0.3;
    fixture fx;
    fixture_open(&fx, &lim);
    const edge_stats* st = edge_get_stats(fx.e);
    static char out[4096];
    int fds[16];
    for (int i = 0; i < 8; i++) {
        fds[i] = net_connect(fx.http);
        assert_true(fds[i] >= 0);
    }
    WAIT_FOR(atomic_load(&st->connections) == 8, 5.0);
    /* The ninth from the same address: 503 and closed; SP: closed. */
    int fd = net_connect(fx.http);
    int closed = 0;
    net_recv_all(fd, out, sizeof out, 5.0, &closed);
    assert_true(closed);
    assert_int_equal(strncmp(out, "HTTP/1.1 503", 12), 0);
    close(fd);
    fd = net_connect(fx.pub);
    net_recv_all(fd, out, sizeof out, 5.0, &closed);
    assert_true(closed);
    close(fd);
    assert_int_equal(stat_load(&st->refused[EDGE_REFUSED_ADDRESS_FULL]), 2);
    /* Another address is another client, up to the listener's cap. */
    for (int i = 8; i < 12; i++) {
        fds[i] = net_connect_from(fx.http, "127.0.0.2");
        assert_true(fds[i] >= 0);
    }
    WAIT_FOR(atomic_load(&st->connections) == 12, 5.0);
    /* Full: a newcomer takes the place of the oldest connection that has
     * not sent its request head, and is answered. */
    net_sleep_ms(60);
    fd = net_connect_from(fx.http, "127.0.0.3");
    assert_int_equal(net_send_text(fd, "GET /hello HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"), 0);
    assert_int_equal(net_recv_head(fd, out, sizeof out, 5.0), 200);
    close(fd);
    assert_int_equal(stat_load(&st->evicted), 1);
    net_recv_all(fds[0], out, sizeof out, 5.0, &closed);
    assert_true(closed && out[0] == '\0'); /* the oldest: closed without a word */
    close(fds[0]);
    /* The others, none of which sent a head: 408 at their deadline. */
    double t0 = net_now();
    for (int i = 1; i < 12; i++) {
        net_recv_all(fds[i], out, sizeof out, 5.0, &closed);
        assert_true(closed);
        assert_int_equal(strncmp(out, "HTTP/1.1 408", 12), 0);
        close(fds[i]);
    }
    assert_true(net_now() - t0 < 2.0);
    assert_int_equal(stat_load(&st->timeouts[EDGE_TIMEOUT_HEAD]), 11);
    /* Full of sessions, which do not give way: a newcomer is refused. */
    static char head[2048];
    for (int i = 0; i < 12; i++) {
        char source[24];
        snprintf(source, sizeof source, "127.0.1.%d", i + 1);
        fds[i] = net_connect_from(fx.http, source);
        assert_int_equal(net_ws_upgrade(fds[i], "/ws/sub", "h", NULL, head, sizeof head), 101);
    }
    fd = net_connect_from(fx.http, "127.0.0.3");
    net_recv_all(fd, out, sizeof out, 5.0, &closed);
    assert_true(closed && strncmp(out, "HTTP/1.1 503", 12) == 0);
    close(fd);
    assert_int_equal(stat_load(&st->refused[EDGE_REFUSED_LISTENER_FULL]), 1);
    for (int i = 0; i < 12; i++) close(fds[i]);
    WAIT_FOR(atomic_load(&st->connections) == 0, 5.0);
    /* A slow SP handshake goes too; an idle keep-alive after its answer. */
    fd = net_connect(fx.pub);
    net_recv_all(fd, out, sizeof out, 5.0, &closed);
    assert_true(closed);
    close(fd);
    fd = net_connect(fx.http);
    assert_int_equal(net_send_text(fd, "GET /hello HTTP/1.1\r\nHost: a\r\n\r\n"), 0);
    assert_int_equal(net_recv_head(fd, out, sizeof out, 5.0), 200);
    net_recv_all(fd, out, sizeof out, 5.0, &closed);
    assert_true(closed);
    close(fd);
    assert_int_equal(stat_load(&st->timeouts[EDGE_TIMEOUT_HEAD]), 12);
    assert_int_equal(stat_load(&st->timeouts[EDGE_TIMEOUT_IDLE]), 1);
    WAIT_FOR(atomic_load(&st->connections) == 0, 5.0);
    fixture_close(&fx);
}

/* One connection per address, 300 addresses opened and closed in an
 * interleaved order (the per-address table grows and shifts entries as
 * they go): every count stays right, so each address gets exactly one. */
static void test_address_counts(void** state) {
    (void)state;
    edge_limits lim = test_limits();
    lim.max_connections_per_address = 1;
    fixture fx;
    fixture_open(&fx, &lim);
    const edge_stats* st = edge_get_stats(fx.e);
    enum { N = 300 };
    static int fds[N];
    char source[32];
#define SOURCE(i) (snprintf(source, sizeof source, "127.0.%d.%d", 2 + (i) / 200, 1 + (i) % 200), source)
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < N; i++)
            if (round == 0 || (round == 1 && i % 3 != 1) || (round == 2 && i % 3 == 1)) {
                fds[i] = net_connect_from(fx.http, SOURCE(i));
                assert_true(fds[i] >= 0);
            }
        WAIT_FOR(atomic_load(&st->connections) == N, 5.0);
        assert_int_equal(stat_load(&st->refused[EDGE_REFUSED_ADDRESS_FULL]), 0);
        /* Close two of three (round 0), the others (round 1), all (round 2). */
        for (int i = 0; i < N; i++)
            if ((round == 0 && i % 3 != 1) || (round == 1 && i % 3 == 1) || round == 2) close(fds[i]);
        WAIT_FOR(atomic_load(&st->connections) == (round == 0 ? N / 3 : round == 1 ? N - N / 3 : 0), 5.0);
        assert_int_equal(stat_load(&st->refused[EDGE_REFUSED_ADDRESS_FULL]), 0);
        if (round == 0) {
            /* A second from an address that still has one: refused. */
            int fd = net_connect_from(fx.http, SOURCE(1));
            assert_int_equal(net_wait_closed(fd, 5.0), 0);
            close(fd);
            assert_int_equal(stat_load(&st->refused[EDGE_REFUSED_ADDRESS_FULL]), 1);
            atomic_store((atomic_uint_least64_t*)&st->refused[EDGE_REFUSED_ADDRESS_FULL], 0);
        }
    }
#undef SOURCE
    fixture_close(&fx);
}

/* The process's budget covers all listeners: a newcomer on one listener
 * makes room by closing a half-open connection on another; once only
 * sessions are left, it is refused. */
static void test_server_budget(void** state) {
    (void)state;
    edge_limits lim = test_limits();
    lim.max_total = 4;
    fixture fx;
    fixture_open(&fx, &lim);
    const edge_stats* st = edge_get_stats(fx.e);
    assert_int_equal(atomic_load(&st->budget), 4);
    static char out[4096];
    int fds[4], closed;
    fds[0] = net_connect(fx.http); /* half-open HTTP: the one to give way */
    net_sleep_ms(60);
    for (int i = 1; i < 4; i++) {
        fds[i] = net_connect(fx.pub);
        assert_int_equal(net_sp_handshake(fds[i], NET_SP_SUB, NET_SP_PUB), 0);
    }
    WAIT_FOR(atomic_load(&st->subscribers[0]) == 3, 5.0);
    int fd = net_connect(fx.pub);
    assert_int_equal(net_sp_handshake(fd, NET_SP_SUB, NET_SP_PUB), 0);
    net_recv_all(fds[0], out, sizeof out, 5.0, &closed);
    assert_true(closed);
    close(fds[0]);
    fds[0] = fd;
    assert_int_equal(stat_load(&st->evicted), 1);
    WAIT_FOR(atomic_load(&st->subscribers[0]) == 4, 5.0);
    fd = net_connect(fx.http);
    net_recv_all(fd, out, sizeof out, 5.0, &closed);
    assert_true(closed && strncmp(out, "HTTP/1.1 503", 12) == 0);
    close(fd);
    assert_int_equal(stat_load(&st->refused[EDGE_REFUSED_SERVER_FULL]), 1);
    for (int i = 0; i < 4; i++) close(fds[i]);
    WAIT_FOR(atomic_load(&st->connections) == 0, 5.0);
    fixture_close(&fx);
}

/* A subscriber that stops reading holds its queue, then is closed at the
 * send deadline; the others keep getting every message. */
static void test_stalled_subscriber(void** state) {
    (void)state;
    edge_limits lim = test_limits();
    lim.send_timeout_s = 0.5;
    lim.send_queue = 4;
    fixture fx;
    fixture_open(&fx, &lim);
    const edge_stats* st = edge_get_stats(fx.e);
    int stalled = socket(AF_INET, SOCK_STREAM, 0);
    int small = 4096;
    setsockopt(stalled, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)fx.pub);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(connect(stalled, (struct sockaddr*)&a, sizeof a), 0);
    assert_int_equal(net_sp_handshake(stalled, NET_SP_SUB, NET_SP_PUB), 0);
    int reader = net_connect(fx.pub);
    assert_int_equal(net_sp_handshake(reader, NET_SP_SUB, NET_SP_PUB), 0);
    WAIT_FOR(atomic_load(&st->subscribers[0]) == 2, 5.0);
    static uint8_t big[1 << 20], got[1 << 20];
    double t0 = net_now();
    int received = 0;
    while (net_now() - t0 < 3.0 && atomic_load(&st->subscribers[0]) == 2) {
        big[0] = (uint8_t)received;
        assert_int_equal(edge_publish(fx.e, 0, big, sizeof big), 0);
        assert_int_equal(net_sp_recv(reader, got, sizeof got, 5.0), (long)sizeof big);
        assert_int_equal(got[0], (uint8_t)received);
        received++;
    }
    assert_int_equal(atomic_load(&st->subscribers[0]), 1);
    assert_int_equal(stat_load(&st->timeouts[EDGE_TIMEOUT_SEND]), 1);
    assert_true(stat_load(&st->dropped[0]) > 0);
    close(stalled);
    close(reader);
    WAIT_FOR(atomic_load(&st->connections) == 0, 5.0);
    WAIT_FOR(atomic_load(&st->buffers) == 0, 5.0);
    fixture_close(&fx);
}

/* 600 half-open requests from one address (each a partial request line)
 * while another address uses the site: it is answered at once, the flood
 * holds at most its cap, and every held socket is gone at the deadline. */
static void test_half_open_flood(void** state) {
    (void)state;
    edge_limits lim = test_limits();
    lim.max_connections_per_address = 64;
    lim.header_timeout_s = 1.0;
    fixture fx;
    fixture_open(&fx, &lim);
    const edge_stats* st = edge_get_stats(fx.e);
    enum { FLOOD = 600 };
    static int fds[FLOOD];
    for (int i = 0; i < FLOOD; i++) {
        fds[i] = net_connect(fx.http);
        assert_true(fds[i] >= 0);
        net_send_text(fds[i], "GET / HTTP/1.1\r\nHo");
    }
    /* The edge counts a socket as accepted before it decides to refuse it, so
     * wait for both counters: reading them one after the other raced. */
    WAIT_FOR(stat_load(&st->accepted) == FLOOD &&
                 stat_load(&st->refused[EDGE_REFUSED_ADDRESS_FULL]) == FLOOD - 64,
             5.0);
    assert_int_equal(atomic_load(&st->connections), 64);
    double t0 = net_now();
    int fd = net_connect_from(fx.http, "127.0.0.2");
    assert_int_equal(net_send_text(fd, "GET /hello HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"), 0);
    static char out[4096];
    assert_int_equal(net_recv_head(fd, out, sizeof out, 5.0), 200);
    double answered = net_now() - t0;
    close(fd);
    print_message("a second client was answered in %.1f ms beside %d half-open requests\n", answered * 1e3, FLOOD);
    assert_true(answered < 0.5);
    WAIT_FOR(atomic_load(&st->connections) == 0, 5.0);
    for (int i = 0; i < FLOOD; i++) close(fds[i]);
    assert_int_equal(stat_load(&st->timeouts[EDGE_TIMEOUT_HEAD]), 64);
    fixture_close(&fx);
}

/* ---- PAIR1 peers (player views) ------------------------------------------------------------- */


/* "ping" after a hop count, as nng's PAIR1 sends it. */
static size_t make_pair1(uint8_t* out, uint8_t hops, const char* text) {
    out[0] = out[1] = out[2] = 0;
    out[3] = hops;
    size_t n = strlen(text);
    memcpy(out + 4, text, n);
    return 4 + n;
}

static void test_pair1_peers(void** state) {
    (void)state;
    edge_limits lim = test_limits();
    lim.send_queue = 4;
    lim.send_timeout_s = 1.0;
    lim.peer_messages_per_s = 50;
    fixture fx;
    fixture_open(&fx, &lim);
    const edge_stats* st = edge_get_stats(fx.e);
    static uint8_t msg[70000], out[70000];
    static char head[2048];
    /* tcp: the message comes back with our hop count of 1; the callbacks see it open. */
    int fd = net_connect(fx.pair);
    assert_int_equal(net_sp_handshake(fd, NET_SP_PAIR1, NET_SP_PAIR1), 0);
    size_t n = make_pair1(msg, 0, "ping");
    assert_int_equal(net_sp_send(fd, msg, n), 0);
    assert_int_equal(net_sp_recv(fd, out, sizeof out, 5.0), (long)n);
    assert_int_equal(out[3], 1);
    assert_memory_equal(out + 4, "ping", 4);
    WAIT_FOR(atomic_load(&st->peers) == 1 && atomic_load(&fx.log.peers_open) == 1, 2.0);
    /* A flood past the rate: the rest is dropped and counted, nothing closes. */
    for (int i = 0; i < 200; i++) assert_int_equal(net_sp_send(fd, msg, n), 0);
    WAIT_FOR(stat_load(&st->peer_flooded) > 0, 2.0);
    assert_true(stat_load(&st->peer_received) < 120);
    /* A hop count of 256 or more is not PAIR1: closed, as nng closes it. */
    msg[2] = 1;
    assert_int_equal(net_sp_send(fd, msg, n), 0);
    assert_int_equal(net_wait_closed(fd, 5.0), 0);
    close(fd);
    WAIT_FOR(atomic_load(&fx.log.peers_closed) == 1 && atomic_load(&st->peers) == 0, 2.0);
    /* Not a PAIR1 handshake: closed after ours. */
    fd = net_connect(fx.pair);
    net_sp_handshake(fd, NET_SP_SUB, NET_SP_PAIR1);
    assert_int_equal(net_wait_closed(fd, 5.0), 0);
    close(fd);
    /* WebSocket: the hop count leads each binary message, both ways. */
    fd = net_connect(fx.http);
    assert_int_equal(net_ws_upgrade(fd, "/ws/pair", "h", "pair1.sp.nanomsg.org", head, sizeof head), 101);
    n = make_pair1(msg, 1, "over websocket");
    uint8_t frame[128];
    size_t f = net_ws_frame(frame, 1, WSFRAME_BINARY, msg, n);
    assert_int_equal(net_send(fd, frame, f), 0);
    int op;
    assert_int_equal(net_ws_recv(fd, out, sizeof out, &op, 5.0), (long)n);
    assert_int_equal(out[3], 1);
    assert_memory_equal(out + 4, "over websocket", 14);
    /* Without the hop count: closed. */
    f = net_ws_frame(frame, 1, WSFRAME_BINARY, "ab", 2);
    assert_int_equal(net_send(fd, frame, f), 0);
    assert_int_equal(net_wait_closed(fd, 5.0), 0);
    close(fd);
    /* A peer that never reads: what does not fit in its queue is dropped,
     * and after send_timeout_s it is closed; nothing stays behind. */
    fd = net_connect(fx.pair);
    assert_int_equal(net_sp_handshake(fd, NET_SP_PAIR1, NET_SP_PAIR1), 0);
    int small = 4096;
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
    WAIT_FOR(atomic_load(&fx.log.peers_open) == 3, 2.0);
    atomic_store(&fx.log.echo, 0);
    uint32_t conn = atomic_load(&fx.log.last_peer);
    memset(msg, 0x42, sizeof msg);
    /* As a server does, every few ms, until the edge gives up on it. */
    double t0 = net_now();
    while (atomic_load(&st->peers) != 0 && net_now() - t0 < 10.0) {
        edge_send(fx.e, conn, msg, 60000);
        net_sleep_ms(2);
    }
    print_message("a peer that never reads: closed after %.1f s, %llu messages dropped on the way\n", net_now() - t0,
                  (unsigned long long)stat_load(&st->peer_dropped));
    assert_int_equal(atomic_load(&st->peers), 0);
    assert_true(stat_load(&st->peer_dropped) > 0);
    assert_true(stat_load(&st->timeouts[EDGE_TIMEOUT_SEND]) >= 1);
    close(fd);
    WAIT_FOR(atomic_load(&st->connections) == 0 && atomic_load(&st->connection_memory) == 0, 5.0);
    /* Peers that come, talk and go (closed or reset, tcp or ws) leave
     * nothing: the second round grows nothing. */
    atomic_store(&fx.log.echo, 1);
    uint64_t before = 0;
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < 300; i++) {
            int ws = i & 1;
            fd = net_connect(ws ? fx.http : fx.pair);
            if (fd < 0) continue;
            n = make_pair1(msg, 0, "churn");
            if (ws && net_ws_upgrade(fd, "/ws/pair", "h", "pair1.sp.nanomsg.org", head, sizeof head) == 101) {
                f = net_ws_frame(frame, 1, WSFRAME_BINARY, msg, n);
                net_send(fd, frame, f);
                net_ws_recv(fd, out, sizeof out, &op, 1.0);
            } else if (!ws && net_sp_handshake(fd, NET_SP_PAIR1, NET_SP_PAIR1) == 0) {
                net_sp_send(fd, msg, n);
                if (i & 2) net_sp_recv(fd, out, sizeof out, 1.0);
            }
            if (i & 4) net_abort_close(fd);
            else close(fd);
        }
        WAIT_FOR(atomic_load(&st->connections) == 0 && atomic_load(&st->connection_memory) == 0, 10.0);
        net_sleep_ms(50);
        if (!round) before = metrics_heap_bytes();
    }
    uint64_t after = metrics_heap_bytes();
    print_message("300 peers in churn: heap %llu -> %llu bytes\n", (unsigned long long)before, (unsigned long long)after);
    assert_true(after <= before + 16384);
    fixture_close(&fx);
}

/* ---- churn ------------------------------------------------------------------------------ */

typedef struct publisher {
    edge* e;
    pthread_t thread;
    atomic_int run, stop;
} publisher;

static void* publisher_main(void* arg) {
    publisher* p = arg;
    static uint8_t snapshot[30000];
    memset(snapshot, 0x5a, sizeof snapshot);
    while (!atomic_load(&p->stop)) {
        if (atomic_load(&p->run)) edge_publish(p->e, 0, snapshot, sizeof snapshot);
        net_sleep_ms(1);
    }
    return NULL;
}

/* One subscriber's life, ended one of eight ways. */
static void churn_one(const fixture* fx, int way) {
    static uint8_t buf[65536];
    static char head[2048];
    int ws = way & 1;
    int fd = net_connect(ws ? fx->http : fx->pub);
    if (fd < 0) return;
    switch (way >> 1) {
    case 0: /* gone before the handshake */
        break;
    case 1: /* gone right after it */
        if (ws) net_ws_upgrade(fd, "/ws/sub", "h", NULL, head, sizeof head);
        else net_sp_handshake(fd, NET_SP_SUB, NET_SP_PUB);
        break;
    case 2: /* gone in the middle of a message */
        if (ws ? net_ws_upgrade(fd, "/ws/sub", "h", NULL, head, sizeof head) != 101
               : net_sp_handshake(fd, NET_SP_SUB, NET_SP_PUB) != 0)
            break;
        net_recv_some(fd, buf, 1000, 1.0);
        break;
    default: /* after a whole message */
        if (ws) {
            int op;
            if (net_ws_upgrade(fd, "/ws/sub", "h", NULL, head, sizeof head) == 101)
                net_ws_recv(fd, buf, sizeof buf, &op, 1.0);
        } else if (net_sp_handshake(fd, NET_SP_SUB, NET_SP_PUB) == 0) {
            net_sp_recv(fd, buf, sizeof buf, 1.0);
        }
        break;
    }
    if (way & 2) net_abort_close(fd); /* half of them reset the connection */
    else close(fd);
}

static void churn_round(const fixture* fx, int count) {
    for (int i = 0; i < count; i++) churn_one(fx, i % 8);
}

/* Quiet: no publishing, every connection gone, every buffer freed. */
static uint64_t settle(fixture* fx, publisher* p) {
    const edge_stats* st = edge_get_stats(fx->e);
    atomic_store(&p->run, 0);
    net_sleep_ms(20);
    WAIT_FOR(atomic_load(&st->connections) == 0 && atomic_load(&st->connection_memory) == 0 &&
                 atomic_load(&st->buffers) == 0,
             10.0);
    return metrics_heap_bytes();
}

static void test_churn_leaves_nothing(void** state) {
    (void)state;
    edge_limits lim = test_limits();
    fixture fx;
    fixture_open(&fx, &lim);
    publisher p = {fx.e, 0, 1, 0};
    assert_int_equal(pthread_create(&p.thread, NULL, publisher_main, &p), 0);
    /* A first round grows the edge's tables to their size; the second must
     * not grow anything. */
    churn_round(&fx, 800);
    uint64_t before = settle(&fx, &p);
    atomic_store(&p.run, 1);
    enum { CONNECTS = 4000 };
    double t0 = net_now();
    churn_round(&fx, CONNECTS);
    double took = net_now() - t0;
    uint64_t after = settle(&fx, &p);
    const edge_stats* st = edge_get_stats(fx.e);
    double per = ((double)after - (double)before) / CONNECTS;
    print_message("%d connects in %.1f s (tcp and ws, 8 ways to leave): heap %llu -> %llu bytes (%+.2f per connect); "
                  "%llu snapshots queued to them\n",
                  CONNECTS, took, (unsigned long long)before, (unsigned long long)after, per,
                  (unsigned long long)stat_load(&st->messages[0]));
    assert_true(stat_load(&st->messages[0]) > CONNECTS / 4);
    assert_true(after <= before + 16384);
    atomic_store(&p.stop, 1);
    pthread_join(p.thread, NULL);
    fixture_close(&fx);
}


/* A requester that never reads its answers: reading it pauses once
 * max_pending answers wait unwritten, so the server holds at most that
 * much for it (not every answer it asked for), and it is closed when its
 * oldest answer has waited send_timeout_s; then nothing of it is left. */
static void test_unread_answers(void** state) {
    (void)state;
    edge_limits lim = test_limits();
    lim.max_pending = 4;
    /* room for a slow build to reach the pause before the timeout closes
     * both (ThreadSanitizer beside the suite took over 300 ms) */
    lim.send_timeout_s = 3.0;
    fixture fx;
    fixture_open(&fx, &lim);
    const edge_stats* st = edge_get_stats(fx.e);
    const size_t answer = 256 * 1024;
    atomic_store(&fx.log.big, answer);
    int fds[2];
    static uint8_t req[64];
    for (int k = 0; k < 2; k++) {
        fds[k] = net_connect(fx.rep);
        int small = 4096;
        setsockopt(fds[k], SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
        assert_int_equal(net_sp_handshake(fds[k], NET_SP_REQ, NET_SP_REP), 0);
    }
    /* 400 requests each, 100 MB of answers if every one were kept. */
    for (uint32_t i = 0; i < 400; i++)
        for (int k = 0; k < 2; k++) {
            size_t n = make_request(req, 1, 1 + i, "info");
            assert_int_equal(net_sp_send(fds[k], req, n), 0);
        }
    /* the server reads until it pauses: wait until the count has held
     * for 300 ms (a server that never paused would take all 800) */
    uint32_t asked = atomic_load(&fx.log.requests);
    const double started = net_now();
    for (double since = net_now(); asked == 0 || net_now() - since < 0.3;) {
        assert_true(net_now() - started < 2.0);
        net_sleep_ms(20);
        uint32_t now = atomic_load(&fx.log.requests);
        if (now != asked) asked = now, since = net_now();
    }
    uint64_t held = stat_load(&st->reply_bytes_queued);
    printf("unread answers: %u of 800 requests taken, %.2f MB held for 2 connections (held still after %.2f s)\n",
           asked, held / 1e6, net_now() - started);
    assert_true(held <= 2 * lim.max_pending * (answer + 64));
    assert_true(asked < 200);
    net_sleep_ms(300);
    assert_int_equal(atomic_load(&fx.log.requests), asked); /* paused: nothing more is read */
    assert_int_equal(stat_load(&st->timeouts[EDGE_TIMEOUT_SEND]), 0); /* and still open while it was checked */
    /* Past send_timeout_s both go, and what they held with them. */
    WAIT_FOR(stat_load(&st->timeouts[EDGE_TIMEOUT_SEND]) == 2, 5.0);
    WAIT_FOR(stat_load(&st->reply_bytes_queued) == 0 && atomic_load(&st->connection_memory) == 0, 5.0);
    for (int k = 0; k < 2; k++) close(fds[k]);
    /* A requester that reads gets every answer through the same limits. */
    atomic_store(&fx.log.big, 70000);
    int fd = net_connect(fx.rep);
    assert_int_equal(net_sp_handshake(fd, NET_SP_REQ, NET_SP_REP), 0);
    for (uint32_t i = 0; i < 40; i++) {
        size_t n = make_request(req, 1, 1 + i, "info");
        assert_int_equal(net_sp_send(fd, req, n), 0);
    }
    static uint8_t msg[80000];
    for (uint32_t i = 0; i < 40; i++) assert_int_equal(net_sp_recv(fd, msg, sizeof msg, 5.0), 70004);
    close(fd);
    fixture_close(&fx);
}

/* Sessions past a role's cap: the longest idle one of the most crowded
 * address makes room, so parked connections from a few addresses keep
 * nobody out; a busy one is never closed for a newcomer. */
static void test_session_eviction(void** state) {
    (void)state;
    edge_limits lim = test_limits();
    lim.max_requesters = 4;
    lim.max_peers = 4;
    fixture fx;
    fixture_open(&fx, &lim);
    const edge_stats* st = edge_get_stats(fx.e);
    static uint8_t req[64], msg[4096];
    static char head[2048];
    const char* from[4] = {"127.0.0.2", "127.0.0.2", "127.0.0.2", "127.0.0.3"};
    int fds[4], peers[4];
    for (int i = 0; i < 4; i++) {
        fds[i] = net_connect_from(fx.rep, from[i]);
        assert_int_equal(net_sp_handshake(fds[i], NET_SP_REQ, NET_SP_REP), 0);
        peers[i] = net_connect_from(fx.http, from[i]);
        assert_int_equal(net_ws_upgrade(peers[i], "/ws/pair", "h", NULL, head, sizeof head), 101);
    }
    WAIT_FOR(atomic_load(&st->requesters) == 4 && atomic_load(&st->peers) == 4, 5.0);
    net_sleep_ms(1100); /* all idle now */
    /* A newcomer from a fifth address is served; one of 127.0.0.2's
     * parked sessions is gone, the oldest. */
    int fd = net_connect_from(fx.rep, "127.0.0.9");
    assert_int_equal(net_sp_handshake(fd, NET_SP_REQ, NET_SP_REP), 0);
    size_t n = make_request(req, 1, 7, "hello");
    assert_int_equal(net_sp_send(fd, req, n), 0);
    assert_int_equal(net_sp_recv(fd, msg, sizeof msg, 5.0), (long)n);
    assert_int_equal(net_wait_closed(fds[0], 5.0), 0);
    for (int i = 1; i < 4; i++) assert_int_equal(net_recv_some(fds[i], msg, sizeof msg, 0.05), -1); /* open, silent */
    assert_int_equal(stat_load(&st->sessions_evicted), 1);
    /* The same for a view. */
    int peer = net_connect_from(fx.http, "127.0.0.9");
    assert_int_equal(net_ws_upgrade(peer, "/ws/pair", "h", NULL, head, sizeof head), 101);
    assert_int_equal(net_wait_closed(peers[0], 5.0), 0);
    assert_int_equal(stat_load(&st->sessions_evicted), 2);
    WAIT_FOR(atomic_load(&st->peers) == 4, 5.0);
    /* Nobody idle (each just spoke): the newcomer still comes in, over the
     * cap, for the owner's own cap to answer. */
    for (int i = 1; i < 4; i++) {
        n = make_request(req, 1, 8, "busy");
        assert_int_equal(net_sp_send(fds[i], req, n), 0);
        assert_int_equal(net_sp_recv(fds[i], msg, sizeof msg, 5.0), (long)n);
    }
    int late = net_connect_from(fx.rep, "127.0.0.10");
    assert_int_equal(net_sp_handshake(late, NET_SP_REQ, NET_SP_REP), 0);
    WAIT_FOR(atomic_load(&st->requesters) == 5, 5.0);
    assert_int_equal(stat_load(&st->sessions_evicted), 2);
    close(late);
    close(fd);
    close(peer);
    for (int i = 0; i < 4; i++) {
        close(fds[i]);
        close(peers[i]);
    }
    WAIT_FOR(atomic_load(&st->connections) == 0, 5.0);
    fixture_close(&fx);
}

/* Every state a peer can park in has a deadline: a requester with nothing
 * asked, a peer that never speaks, a message begun and never finished
 * (over tcp and WebSocket). */
static void test_session_deadlines(void** state) {
    (void)state;
    edge_limits lim = test_limits();
    lim.request_idle_timeout_s = 0.6;
    lim.peer_idle_timeout_s = 0.6;
    lim.message_timeout_s = 0.4;
    fixture fx;
    fixture_open(&fx, &lim);
    const edge_stats* st = edge_get_stats(fx.e);
    static uint8_t req[2048], msg[4096];
    static char head[2048];
    /* An idle requester lives while it asks, and goes when it stops. */
    int fd = net_connect(fx.rep);
    assert_int_equal(net_sp_handshake(fd, NET_SP_REQ, NET_SP_REP), 0);
    for (int i = 0; i < 4; i++) {
        net_sleep_ms(300);
        size_t n = make_request(req, 1, 1 + (uint32_t)i, "keep");
        assert_int_equal(net_sp_send(fd, req, n), 0);
        assert_int_equal(net_sp_recv(fd, msg, sizeof msg, 5.0), (long)n);
    }
    double t0 = net_now();
    assert_int_equal(net_wait_closed(fd, 5.0), 0);
    assert_true(net_now() - t0 < 1.5);
    close(fd);
    assert_int_equal(stat_load(&st->timeouts[EDGE_TIMEOUT_SESSION]), 1);
    /* A silent peer. */
    fd = net_connect(fx.pair);
    assert_int_equal(net_sp_handshake(fd, NET_SP_PAIR1, NET_SP_PAIR1), 0);
    assert_int_equal(net_wait_closed(fd, 5.0), 0);
    close(fd);
    assert_int_equal(stat_load(&st->timeouts[EDGE_TIMEOUT_SESSION]), 2);
    /* 999 of a 1000-byte request over tcp. */
    fd = net_connect(fx.rep);
    assert_int_equal(net_sp_handshake(fd, NET_SP_REQ, NET_SP_REP), 0);
    uint8_t len[8] = {0, 0, 0, 0, 0, 0, 0x03, 0xe8};
    memset(req, 0x80, sizeof req);
    assert_int_equal(net_send(fd, len, 8), 0);
    assert_int_equal(net_send(fd, req, 999), 0);
    assert_int_equal(net_wait_closed(fd, 5.0), 0);
    close(fd);
    assert_int_equal(stat_load(&st->timeouts[EDGE_TIMEOUT_MESSAGE]), 1);
    /* A WebSocket message whose last fragment never comes. */
    fd = net_connect(fx.http);
    assert_int_equal(net_ws_upgrade(fd, "/ws/req", "h", NULL, head, sizeof head), 101);
    uint8_t frame[64];
    size_t f = net_ws_frame(frame, 0, WSFRAME_BINARY, "\x80\0\0\1part", 8);
    assert_int_equal(net_send(fd, frame, f), 0);
    int closed = 0;
    net_recv_all(fd, (char*)msg, sizeof msg, 5.0, &closed);
    assert_true(closed);
    close(fd);
    assert_int_equal(stat_load(&st->timeouts[EDGE_TIMEOUT_MESSAGE]), 2);
    WAIT_FOR(atomic_load(&st->connections) == 0 && atomic_load(&st->connection_memory) == 0, 5.0);
    fixture_close(&fx);
}

/* A local-only stream: subscribers from this host (127.0.0.1) get it,
 * others are refused, with a 403 over WebSocket. */
static void test_private_stream(void** state) {
    (void)state;
    edge_limits lim = test_limits();
    fixture_private_stream = 1;
    fixture fx;
    fixture_open(&fx, &lim);
    fixture_private_stream = 0;
    const edge_stats* st = edge_get_stats(fx.e);
    static char head[2048], out[4096];
    int fd = net_connect_from(fx.http, "127.0.0.1");
    assert_int_equal(net_ws_upgrade(fd, "/ws/sub", "h", NULL, head, sizeof head), 101);
    int sub = net_connect_from(fx.pub, "127.0.0.1");
    assert_int_equal(net_sp_handshake(sub, NET_SP_SUB, NET_SP_PUB), 0);
    WAIT_FOR(atomic_load(&st->subscribers[0]) == 2, 5.0);
    int far = net_connect_from(fx.http, "127.0.0.5");
    assert_int_equal(net_ws_upgrade(far, "/ws/sub", "h", NULL, head, sizeof head), 403);
    int closed = 0;
    net_recv_all(far, out, sizeof out, 5.0, &closed);
    assert_true(strstr(head, "private") || strstr(out, "private"));
    close(far);
    far = net_connect_from(fx.pub, "127.0.0.5");
    net_sp_handshake(far, NET_SP_SUB, NET_SP_PUB);
    net_recv_all(far, out, sizeof out, 5.0, &closed);
    assert_true(closed);
    close(far);
    assert_int_equal(stat_load(&st->private_refused), 2);
    assert_int_equal(atomic_load(&st->subscribers[0]), 2);
    /* Requesters and peers are not streams: any host. */
    far = net_connect_from(fx.http, "127.0.0.5");
    assert_int_equal(net_ws_upgrade(far, "/ws/req", "h", NULL, head, sizeof head), 101);
    close(far);
    close(fd);
    close(sub);
    fixture_close(&fx);
}

int main(void) {
    log_set_level(LOG_LEVEL_ERROR);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_httphead_rules),   cmocka_unit_test(test_httphead_dripfeed),
        cmocka_unit_test(test_wsframe_rfc),      cmocka_unit_test(test_wsframe_violations),
        cmocka_unit_test(test_http),             cmocka_unit_test(test_ws_subscriber),
        cmocka_unit_test(test_sp_subscriber),
        cmocka_unit_test(test_publish_queue),
        cmocka_unit_test(test_requests),
        cmocka_unit_test(test_pair1_peers),
        cmocka_unit_test(test_caps_and_deadlines), cmocka_unit_test(test_address_counts),
        cmocka_unit_test(test_server_budget),
        cmocka_unit_test(test_stalled_subscriber),
        cmocka_unit_test(test_half_open_flood),  cmocka_unit_test(test_churn_leaves_nothing),
        cmocka_unit_test(test_unread_answers),   cmocka_unit_test(test_session_eviction),
        cmocka_unit_test(test_session_deadlines), cmocka_unit_test(test_private_stream),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
