// SPDX-License-Identifier: MIT
/* Raw-socket peers for the network tests: what a browser, an nng dialer
 * or an attacker writes on the wire, byte for byte (plain HTTP, the
 * WebSocket handshake and masked frames, the SP handshake and length
 * prefixes), with timeouts so that no test waits forever. */
#ifndef NAVAL_TEST_NET_UTIL_H
#define NAVAL_TEST_NET_UTIL_H

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

double net_now(void);
void net_sleep_ms(int ms);

/* A tcp connection to 127.0.0.1:port from `source` (NULL: any; another
 * loopback address such as "127.0.0.2" is another client to per-address
 * limits), within 5 s (a server that accepts nothing fills its backlog,
 * and connect would wait minutes). -1 when it fails. */
int net_connect_within(int port, const char* source, int timeout_ms);
int net_connect_from(int port, const char* source);
int net_connect(int port);

/* Closes with a reset (RST), as a crashed or killed peer does. */
void net_abort_close(int fd);
int net_send(int fd, const void* data, size_t n);
int net_send_text(int fd, const char* text);

/* Up to cap bytes within timeout_s: the count, 0 at EOF, -1 on timeout or error. */
ssize_t net_recv_some(int fd, void* out, size_t cap, double timeout_s);

/* Exactly n bytes within timeout_s: 0, or -1 (EOF, timeout, error). */
int net_recv_exact(int fd, void* out, size_t n, double timeout_s);

/* Reads until the peer closes (or timeout_s): the bytes, NUL-terminated;
 * *closed says whether it did close. */
size_t net_recv_all(int fd, char* out, size_t cap, double timeout_s, int* closed);

/* Reads and drops what comes until the peer closes: 0, or -1 at timeout_s. */
int net_wait_closed(int fd, double timeout_s);

/* Reads an HTTP response head (to the empty line) into out: its status,
 * or -1. */
int net_recv_head(int fd, char* out, size_t cap, double timeout_s);

/* ---- WebSocket ------------------------------------------------------------ */
/* RFC 6455's sample key, and the accept value it must get. */
#define NET_WS_KEY "dGhlIHNhbXBsZSBub25jZQ=="
#define NET_WS_ACCEPT "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="

/* Sends an upgrade for path (protocol may be NULL) and reads the answer's
 * head: the status. */
int net_ws_upgrade(int fd, const char* path, const char* host, const char* protocol, char* head, size_t cap);

/* A client frame (masked, as clients must): its length. */
size_t net_ws_frame(uint8_t* out, int fin, int opcode, const void* payload, size_t n);

/* One whole message from the server (reassembling its fragments); control
 * frames are returned as they come. *opcode gets the first frame's
 * opcode; the payload length, or -1. */
long net_ws_recv(int fd, uint8_t* out, size_t cap, int* opcode, double timeout_s);

/* ---- SP over tcp --------------------------------------------------------------- */
#define NET_SP_PUB 0x20
#define NET_SP_SUB 0x21
#define NET_SP_REQ 0x30
#define NET_SP_REP 0x31
#define NET_SP_PAIR1 0x11

/* Sends our handshake as `proto` and checks the server's is `expect`. */
int net_sp_handshake(int fd, int proto, int expect);
int net_sp_send(int fd, const void* data, size_t n);

/* One message: its length, or -1. */
long net_sp_recv(int fd, uint8_t* out, size_t cap, double timeout_s);

#endif
