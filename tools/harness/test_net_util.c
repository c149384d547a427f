// SPDX-License-Identifier: MIT
#include "test_net_util.h"

double net_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

void net_sleep_ms(int ms) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

int net_connect_within(int port, const char* source, int timeout_ms) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    if (fd < 0) return -1;
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    if (source) {
        inet_pton(AF_INET, source, &a.sin_addr);
        if (bind(fd, (struct sockaddr*)&a, sizeof a) != 0) {
            close(fd);
            return -1;
        }
    }
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr*)&a, sizeof a) != 0) {
        struct pollfd p = {fd, POLLOUT, 0};
        int err = 0;
        socklen_t len = sizeof err;
        if (errno != EINPROGRESS || poll(&p, 1, timeout_ms) != 1 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) ||
            err) {
            close(fd);
            return -1;
        }
    }
    int flags = fcntl(fd, F_GETFL);
    fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    /* Small writes go at once, as nng's dialers send them. */
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

int net_connect_from(int port, const char* source) { return net_connect_within(port, source, 5000); }

int net_connect(int port) { return net_connect_from(port, NULL); }

void net_abort_close(int fd) {
    struct linger l = {1, 0};
    setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof l);
    close(fd);
}

int net_send(int fd, const void* data, size_t n) {
    const char* p = data;
    while (n) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        if (w <= 0) return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

int net_send_text(int fd, const char* text) { return net_send(fd, text, strlen(text)); }

ssize_t net_recv_some(int fd, void* out, size_t cap, double timeout_s) {
    struct pollfd p = {fd, POLLIN, 0};
    int ms = (int)(timeout_s * 1000);
    if (poll(&p, 1, ms) <= 0) return -1;
    ssize_t n = recv(fd, out, cap, 0);
    return n < 0 ? -1 : n;
}

int net_recv_exact(int fd, void* out, size_t n, double timeout_s) {
    double deadline = net_now() + timeout_s;
    char* p = out;
    while (n) {
        double left = deadline - net_now();
        if (left <= 0) return -1;
        ssize_t got = net_recv_some(fd, p, n, left);
        if (got <= 0) return -1;
        p += got;
        n -= (size_t)got;
    }
    return 0;
}

size_t net_recv_all(int fd, char* out, size_t cap, double timeout_s, int* closed) {
    double deadline = net_now() + timeout_s;
    size_t len = 0;
    *closed = 0;
    while (len + 1 < cap) {
        double left = deadline - net_now();
        if (left <= 0) break;
        ssize_t got = net_recv_some(fd, out + len, cap - 1 - len, left);
        if (got == 0) {
            *closed = 1;
            break;
        }
        if (got < 0) break;
        len += (size_t)got;
    }
    out[len] = '\0';
    return len;
}

int net_wait_closed(int fd, double timeout_s) {
    static char sink[65536];
    double deadline = net_now() + timeout_s;
    for (;;) {
        double left = deadline - net_now();
        if (left <= 0) return -1;
        ssize_t got = net_recv_some(fd, sink, sizeof sink, left);
        if (got == 0) return 0;
        if (got < 0) return -1;
    }
}

int net_recv_head(int fd, char* out, size_t cap, double timeout_s) {
    size_t len = 0;
    double deadline = net_now() + timeout_s;
    while (len + 1 < cap) {
        if (net_now() > deadline || net_recv_some(fd, out + len, 1, deadline - net_now()) != 1) return -1;
        len++;
        out[len] = '\0';
        if (len >= 4 && memcmp(out + len - 4, "\r\n\r\n", 4) == 0) break;
    }
    int status = -1;
    return sscanf(out, "HTTP/1.1 %d", &status) == 1 ? status : -1;
}

int net_ws_upgrade(int fd, const char* path, const char* host, const char* protocol, char* head,
                                 size_t cap) {
    char req[1024];
    snprintf(req, sizeof req,
             "GET %s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: %s\r\n"
             "Sec-WebSocket-Version: 13\r\n%s%s%s\r\n",
             path, host, NET_WS_KEY, protocol ? "Sec-WebSocket-Protocol: " : "", protocol ? protocol : "",
             protocol ? "\r\n" : "");
    if (net_send_text(fd, req)) return -1;
    return net_recv_head(fd, head, cap, 5.0);
}

size_t net_ws_frame(uint8_t* out, int fin, int opcode, const void* payload, size_t n) {
    static const uint8_t mask[4] = {0x37, 0xfa, 0x21, 0x3d};
    size_t at = 0;
    out[at++] = (uint8_t)((fin ? 0x80 : 0) | opcode);
    if (n < 126) {
        out[at++] = (uint8_t)(0x80 | n);
    } else if (n <= 0xffff) {
        out[at++] = 0x80 | 126;
        out[at++] = (uint8_t)(n >> 8);
        out[at++] = (uint8_t)n;
    } else {
        out[at++] = 0x80 | 127;
        for (int i = 0; i < 8; i++) out[at++] = (uint8_t)((uint64_t)n >> (56 - 8 * i));
    }
    memcpy(out + at, mask, 4);
    at += 4;
    for (size_t i = 0; i < n; i++) out[at + i] = ((const uint8_t*)payload)[i] ^ mask[i & 3];
    return at + n;
}

long net_ws_recv(int fd, uint8_t* out, size_t cap, int* opcode, double timeout_s) {
    size_t len = 0;
    *opcode = -1;
    for (;;) {
        uint8_t h[10];
        if (net_recv_exact(fd, h, 2, timeout_s)) return -1;
        int fin = h[0] & 0x80, op = h[0] & 0x0f;
        uint64_t n = h[1] & 0x7f;
        if (h[1] & 0x80) return -1; /* servers do not mask */
        if (n == 126) {
            if (net_recv_exact(fd, h + 2, 2, timeout_s)) return -1;
            n = ((uint64_t)h[2] << 8) | h[3];
        } else if (n == 127) {
            if (net_recv_exact(fd, h + 2, 8, timeout_s)) return -1;
            n = 0;
            for (int i = 0; i < 8; i++) n = (n << 8) | h[2 + i];
        }
        if (len + n > cap) return -1;
        if (n && net_recv_exact(fd, out + len, (size_t)n, timeout_s)) return -1;
        len += (size_t)n;
        if (*opcode < 0) *opcode = op;
        if (op >= 8 || fin) return (long)len;
    }
}

int net_sp_handshake(int fd, int proto, int expect) {
    uint8_t h[8] = {0, 'S', 'P', 0, (uint8_t)(proto >> 8), (uint8_t)proto, 0, 0};
    if (net_send(fd, h, 8) || net_recv_exact(fd, h, 8, 5.0)) return -1;
    return h[0] == 0 && h[1] == 'S' && h[2] == 'P' && h[3] == 0 && ((h[4] << 8) | h[5]) == expect ? 0 : -1;
}

int net_sp_send(int fd, const void* data, size_t n) {
    uint8_t len[8];
    for (int i = 0; i < 8; i++) len[i] = (uint8_t)((uint64_t)n >> (56 - 8 * i));
    return net_send(fd, len, 8) || net_send(fd, data, n) ? -1 : 0;
}

long net_sp_recv(int fd, uint8_t* out, size_t cap, double timeout_s) {
    uint8_t len[8];
    if (net_recv_exact(fd, len, 8, timeout_s)) return -1;
    uint64_t n = 0;
    for (int i = 0; i < 8; i++) n = (n << 8) | len[i];
    if (n > cap || (n && net_recv_exact(fd, out, (size_t)n, timeout_s))) return -1;
    return (long)n;
}
