// SPDX-License-Identifier: MIT
/* Leveled, timestamped log lines on stderr, safe from any thread (the loop,
 * job workers, the edge): each line is formatted first and written with
 * one call, so lines from different threads never interleave.
 *
 * Nothing a client does may flood it: routine events (a hello, a spawn, an
 * orphan removed) are counted per kind, written one by one at DEBUG only,
 * and summed into one INFO line per interval (log_summarize); and every
 * line, whatever its level, draws on a budget of lines per second: lines
 * over it are counted and dropped, and the next line says how many.
 *
 * Nothing a client wrote may forge a line: client text goes through
 * log_quote, and every message is checked again as it is written (a
 * control character left in it, from any path, is written as \xNN). */
#ifndef NAVAL_SERVER_LOG_H
#define NAVAL_SERVER_LOG_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "naval/nv_error.h"

typedef enum log_level {
    LOG_LEVEL_DEBUG = 0,
    LOG_LEVEL_INFO,
    LOG_LEVEL_WARN,
    LOG_LEVEL_ERROR,
    LOG_LEVEL_OFF
} log_level;

/* "debug", "info", "warn", "error", "off"; -1 for anything else. */
int log_parse_level(const char* text, log_level* out);
const char* log_level_name(log_level level);

void log_set_level(log_level level);
log_level log_get_level(void);
int log_enabled(log_level level);

/* "2024-05-01T12:00:00.123Z INFO  message\n" when level is enabled. */
void log_write(log_level level, const char* fmt, ...) NV_PRINTF_LIKE(2, 3);

/* Lines per second, at most (burst: one second's worth); 0: no limit. */
void log_set_rate(double lines_per_second);
/* Lines dropped by the budget since the start. */
uint64_t log_dropped(void);

/* A kind of routine event: `what` names it in the summary ("hellos"). */
typedef struct log_counter {
    const char* what;
    atomic_uint_least64_t count;
    atomic_int registered;
    struct log_counter* next;
} log_counter;
#define LOG_COUNTER(what) {(what), 0, 0, NULL}

/* Counts one event; its line goes out at DEBUG. */
void log_event(log_counter* c, const char* fmt, ...) NV_PRINTF_LIKE(2, 3);
/* One INFO line with the events counted since the last call (none: no
 * line), "in the last 10 s: 812 hellos, 12 spawns"; counts restart. */
void log_summarize(double interval_s);

/* Text a client wrote (a name, a type name), quoted for a log line:
 * "..." with \" \\ \n \r \t, and \xNN for every other byte outside
 * printable ASCII (UTF-8 included), so that nothing a client wrote can end
 * a line, forge the next one or drive a terminal; cut with ... before the
 * closing quote when out is too small. Returns out. */
const char* log_quote(char* out, size_t size, const char* text);
/* Big enough for a name of proto.h's PROTO_NAME_MAX (63 bytes, each \xNN). */
#define LOG_QUOTE_MAX 256
/* log_quote into a buffer that lives until the end of the statement:
 * log_debug("hello from %s", LOG_QUOTED(name)). */
#define LOG_QUOTED(text) log_quote((char[LOG_QUOTE_MAX]){""}, LOG_QUOTE_MAX, (text))

#define log_debug(...) log_write(LOG_LEVEL_DEBUG, __VA_ARGS__)
#define log_info(...) log_write(LOG_LEVEL_INFO, __VA_ARGS__)
#define log_warn(...) log_write(LOG_LEVEL_WARN, __VA_ARGS__)
#define log_error(...) log_write(LOG_LEVEL_ERROR, __VA_ARGS__)

#endif
