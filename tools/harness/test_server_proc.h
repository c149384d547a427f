// SPDX-License-Identifier: MIT
/* Starting and stopping a real naval-server process for the end-to-end
 * tests and the benchmark: free loopback ports, fork + exec with the ports
 * as flags, a wait until it answers, SIGTERM and the exit status.
 * Servers started and not stopped (a failed assertion jumps past
 * proc_stop) are killed when the program exits. */
#ifndef NAVAL_TEST_SERVER_PROC_H
#define NAVAL_TEST_SERVER_PROC_H

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "naval_client.h"
#include "test_net_util.h"

typedef struct server_proc {
    pid_t pid;
    int snapshot_port, compact_port, command_port, http_port, view_port;
    char snapshot_url[64], compact_url[64], command_url[64], http[64], view_url[64];
    char ws_snapshots[96], ws_compact[96], ws_commands[96], ws_view[96];
} server_proc;

/* A port the kernel just handed out on 127.0.0.1 (closed again: another
 * process could take it before the server does, which only fails a run). */
int proc_free_port(void);
double proc_now(void);
void proc_sleep_ms(int ms);

/* Starts `binary` with the four endpoints on fresh loopback ports plus the
 * NULL-terminated extra arguments; 0 once it accepts commands (hello
 * answered) within timeout_s, else -1 (the process is killed). A port can
 * be taken by another test between proc_free_port and the server's
 * listen: a server that exits at once is started again on new ports (up
 * to three times; a server that always exits fails the same way). */
int proc_start(server_proc* p, const char* binary, const char* const* extra, double timeout_s);

/* A client of the server under test (either URL may be NULL); NULL, with
 * the reason on stderr, when it cannot connect. */
nvc_client* proc_client(const char* snapshots, const char* commands, int timeout_ms, uint32_t queue_depth);

/* Waits up to timeout_s for a child: its exit code, 128 + signal when a
 * signal ended it, -1 when it had to be killed. */
int proc_wait(pid_t pid, double timeout_s);

/* Sends sig and waits up to timeout_s: the exit code, 128 + signal when a
 * signal ended it, -1 when it had to be killed. */
int proc_stop(server_proc* p, int sig, double timeout_s);
int proc_alive(server_proc* p);

/* A plain HTTP/1.0 GET on 127.0.0.1:port: the status code, the body in out. */
int proc_http_get(int port, const char* path, char* out, size_t cap);
/* One sample of the server's /metrics, asked from `source` (a loopback
 * address of the caller's choice, so that a flood filling 127.0.0.1's
 * share of connections does not block it; NULL: any): `series` is the
 * sample's name and labels, then a space. NAN when the request fails or
 * the series is not there. */
double proc_metric(const server_proc* p, const char* source, const char* series);

#endif
