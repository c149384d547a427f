// SPDX-License-Identifier: MIT
/* Where connections come from and go to: listening endpoints parsed
 * (tcp://HOST:PORT or HOST:PORT, names not resolved until listening) and
 * the open connections counted per remote address (an open-addressing
 * table of 16-byte keys, IPv4 as ::ffff:a.b.c.d), for the per-address cap
 * and for choosing whom to evict. */
#include <arpa/inet.h>
#include <ctype.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "edge_internal.h"

/* ---- endpoints ------------------------------------------------------------- */


int edge_parse_endpoint(const char* text, int want_scheme, edge_endpoint* ep, char* why, size_t why_size) {
    const char* p = text;
    if (want_scheme) {
        if (strncmp(p, "tcp://", 6) != 0) {
            snprintf(why, why_size, "must be a tcp:// URL (e.g. tcp://0.0.0.0:7700)");
            return -1;
        }
        p += 6;
    }
    const char* colon = NULL;
    const char* host = p;
    size_t host_len;
    if (*p == '[') {
        const char* close = strchr(p, ']');
        if (!close || close[1] != ':') {
            snprintf(why, why_size, "has an IPv6 address without ']:PORT'");
            return -1;
        }
        host = p + 1;
        host_len = (size_t)(close - host);
        colon = close + 1;
    } else {
        colon = strrchr(p, ':');
        if (!colon) {
            snprintf(why, why_size, "needs HOST:PORT");
            return -1;
        }
        host_len = (size_t)(colon - p);
    }
    char* end = NULL;
    long port = strtol(colon + 1, &end, 10);
    if (!isdigit((unsigned char)colon[1]) || *end || port < 0 || port > 65535) {
        snprintf(why, why_size, "needs a port in 0..65535");
        return -1;
    }
    if (host_len >= sizeof ep->host) {
        snprintf(why, why_size, "has a host name over %zu characters", sizeof ep->host - 1);
        return -1;
    }
    for (size_t i = 0; i < host_len; i++)
        if (!isalnum((unsigned char)host[i]) && !strchr(".-:*_%", host[i])) {
            snprintf(why, why_size, "has a character that is not allowed in a host name");
            return -1;
        }
    memcpy(ep->host, host, host_len);
    ep->host[host_len] = '\0';
    ep->port = (int)port;
    ep->wildcard = host_len == 0 || strcmp(ep->host, "*") == 0;
    return 0;
}

int edge_check_endpoint(const char* text, int want_scheme, char* why, size_t why_size) {
    edge_endpoint ep;
    return edge_parse_endpoint(text, want_scheme, &ep, why, why_size);
}

int edge_resolve(const edge_endpoint* ep, struct sockaddr_storage* out, nv_error* err, const char* text) {
    memset(out, 0, sizeof *out);
    if (ep->wildcard) {
        struct sockaddr_in* a = (struct sockaddr_in*)out;
        a->sin_family = AF_INET;
        a->sin_port = htons((uint16_t)ep->port);
        a->sin_addr.s_addr = htonl(INADDR_ANY);
        return 0;
    }
    struct addrinfo hints, *res = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE;
    char port[8];
    snprintf(port, sizeof port, "%d", ep->port);
    int rv = getaddrinfo(ep->host, port, &hints, &res);
    if (rv || !res) return nv_error_set(err, "cannot listen on %s: %s", text, rv ? gai_strerror(rv) : "no address");
    memcpy(out, res->ai_addr, res->ai_addrlen);
    freeaddrinfo(res);
    return 0;
}

/* ---- per-address counts ------------------------------------------------------ */

void edge_addr_key(const struct sockaddr_storage* a, uint8_t key[16]) {
    memset(key, 0, 16);
    if (a->ss_family == AF_INET6) {
        memcpy(key, &((const struct sockaddr_in6*)a)->sin6_addr, 16);
    } else if (a->ss_family == AF_INET) {
        key[10] = key[11] = 0xff; /* ::ffff:a.b.c.d, as the v6 stack writes it */
        memcpy(key + 12, &((const struct sockaddr_in*)a)->sin_addr, 4);
    }
}

void edge_address_text(const uint8_t key[16], char* out, size_t n) {
    static const uint8_t v4[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    if (memcmp(key, v4, 12) == 0) inet_ntop(AF_INET, key + 12, out, (socklen_t)n);
    else inet_ntop(AF_INET6, key, out, (socklen_t)n);
}

static uint32_t edge_addr_hash(const uint8_t key[16]) {
    uint64_t a, b;
    memcpy(&a, key, 8);
    memcpy(&b, key + 8, 8);
    uint64_t h = (a ^ (b * 0x9E3779B97F4A7C15ull)) * 0xff51afd7ed558ccdull;
    return (uint32_t)(h >> 32);
}

/* The slot holding key, or the free slot where it would go. */
uint32_t edge_addr_find(const edge* e, const uint8_t key[16]) {
    uint32_t mask = e->addr_cap - 1, i = edge_addr_hash(key) & mask;
    while (e->addrs[i].count && memcmp(e->addrs[i].key, key, 16) != 0) i = (i + 1) & mask;
    return i;
}

int edge_addr_grow(edge* e) {
    uint32_t old_cap = e->addr_cap;
    edge_addr* old = e->addrs;
    uint32_t cap = old_cap ? old_cap * 2 : 256;
    edge_addr* fresh = calloc(cap, sizeof *fresh);
    if (!fresh) return -1;
    e->addrs = fresh;
    e->addr_cap = cap;
    for (uint32_t i = 0; i < old_cap; i++)
        if (old[i].count) e->addrs[edge_addr_find(e, old[i].key)] = old[i];
    free(old);
    return 0;
}

uint32_t edge_addr_count(const edge* e, const uint8_t key[16]) {
    if (!e->addr_cap) return 0;
    return e->addrs[edge_addr_find(e, key)].count;
}

/* Linear probing with backward-shift deletion: no tombstones to pile up
 * under churn (entries move, so a connection keeps its key, not a slot). */
void edge_addr_release(edge* e, const uint8_t key[16]) {
    uint32_t slot = edge_addr_find(e, key);
    if (!e->addrs[slot].count || --e->addrs[slot].count) return;
    uint32_t mask = e->addr_cap - 1, hole = slot, i = slot;
    for (;;) {
        i = (i + 1) & mask;
        if (!e->addrs[i].count) break;
        uint32_t home = edge_addr_hash(e->addrs[i].key) & mask;
        /* Move it into the hole when its home is not between hole and i. */
        if (((i - home) & mask) >= ((i - hole) & mask)) {
            e->addrs[hole] = e->addrs[i];
            e->addrs[i].count = 0;
            hole = i;
        }
    }
}
