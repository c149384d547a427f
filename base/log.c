// SPDX-License-Identifier: MIT
#include "log.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static atomic_int log_threshold = LOG_LEVEL_INFO;

static const char* const log_names[] = {"debug", "info", "warn", "error", "off"};

/* The line budget: a token bucket refilled at `rate` per second. */
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static double log_rate, log_tokens;
static struct timespec log_refilled;
static uint64_t log_dropped_pending;
static atomic_uint_least64_t log_dropped_total;
static log_counter* log_counters;

int log_parse_level(const char* text, log_level* out) {
    for (int i = 0; i <= LOG_LEVEL_OFF; i++)
        if (strcmp(text, log_names[i]) == 0) {
            *out = (log_level)i;
            return 0;
        }
    return -1;
}

const char* log_level_name(log_level level) {
    return level >= LOG_LEVEL_DEBUG && level <= LOG_LEVEL_OFF ? log_names[level] : "?";
}

void log_set_level(log_level level) { atomic_store_explicit(&log_threshold, (int)level, memory_order_relaxed); }

log_level log_get_level(void) { return (log_level)atomic_load_explicit(&log_threshold, memory_order_relaxed); }

int log_enabled(log_level level) { return level != LOG_LEVEL_OFF && (int)level >= (int)log_get_level(); }

void log_set_rate(double lines_per_second) {
    pthread_mutex_lock(&log_lock);
    log_rate = lines_per_second > 0 ? lines_per_second : 0;
    log_tokens = log_rate;
    clock_gettime(CLOCK_MONOTONIC, &log_refilled);
    pthread_mutex_unlock(&log_lock);
}

uint64_t log_dropped(void) { return atomic_load_explicit(&log_dropped_total, memory_order_relaxed); }

/* Whether a line may go out now; *dropped gets the lines dropped before it. */
static int log_take_token(uint64_t* dropped) {
    *dropped = 0;
    pthread_mutex_lock(&log_lock);
    if (log_rate > 0) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        double dt = (double)(now.tv_sec - log_refilled.tv_sec) + (double)(now.tv_nsec - log_refilled.tv_nsec) * 1e-9;
        log_refilled = now;
        log_tokens += dt * log_rate;
        if (log_tokens > log_rate) log_tokens = log_rate;
        /* The notice of what was dropped is a line too. */
        if (log_tokens < (log_dropped_pending ? 2.0 : 1.0)) {
            log_dropped_pending++;
            atomic_fetch_add_explicit(&log_dropped_total, 1, memory_order_relaxed);
            pthread_mutex_unlock(&log_lock);
            return 0;
        }
        log_tokens -= log_dropped_pending ? 2.0 : 1.0;
        *dropped = log_dropped_pending;
        log_dropped_pending = 0;
    }
    pthread_mutex_unlock(&log_lock);
    return 1;
}

static size_t log_stamp(char* line, size_t size, log_level level) {
    static const char* const tags[] = {"DEBUG", "INFO ", "WARN ", "ERROR"};
    struct timespec ts;
    struct tm tm;
    clock_gettime(CLOCK_REALTIME, &ts);
    gmtime_r(&ts.tv_sec, &tm);
    int n = snprintf(line, size, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ %s ", tm.tm_year + 1900, tm.tm_mon + 1,
                     tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (int)(ts.tv_nsec / 1000000), tags[level]);
    return n < 0 ? 0 : (size_t)n;
}

/* A byte as a log line shows it: itself, or its escape. Control
 * characters (and DEL) are always escaped; `quoted` text (log_quote) also
 * escapes the quote, the backslash and every byte past ASCII. out gets at
 * most 4 bytes; returns how many. */
static size_t log_escape_byte(unsigned char b, int quoted, char out[4]) {
    static const char hex[] = "0123456789abcdef";
    const char* named = b == '\n' ? "\\n" : b == '\r' ? "\\r" : b == '\t' ? "\\t" : NULL;
    if (quoted && (b == '"' || b == '\\')) named = b == '"' ? "\\\"" : "\\\\";
    if (named) {
        out[0] = named[0];
        out[1] = named[1];
        return 2;
    }
    if (b >= 0x20 && b < 0x7f) {
        out[0] = (char)b;
        return 1;
    }
    if (!quoted && b >= 0x80) { /* UTF-8 from the server's own text stays readable */
        out[0] = (char)b;
        return 1;
    }
    out[0] = '\\';
    out[1] = 'x';
    out[2] = hex[b >> 4];
    out[3] = hex[b & 15];
    return 4;
}

const char* log_quote(char* out, size_t size, const char* text) {
    if (size < 6) { /* not even room for "..." */
        if (size) out[0] = '\0';
        return out;
    }
    size_t n = 0;
    out[n++] = '"';
    for (const unsigned char* p = (const unsigned char*)(text ? text : ""); *p; p++) {
        char e[4];
        size_t k = log_escape_byte(*p, 1, e);
        if (n + k + 5 > size) { /* keep room for ...", NUL */
            memcpy(out + n, "...", 3);
            n += 3;
            break;
        }
        memcpy(out + n, e, k);
        n += k;
    }
    out[n++] = '"';
    out[n] = '\0';
    return out;
}

/* The last line of defence: a message (from any path, whatever it
 * quoted) with a control character in it has them escaped, so that no
 * text can end the line early and forge the next. msg holds len bytes,
 * cap at most; returns the new length (cut at cap). */
static size_t log_defang(char* msg, size_t len, size_t cap) {
    size_t i = 0;
    while (i < len && ((unsigned char)msg[i] >= 0x20 && msg[i] != 0x7f)) i++;
    if (i == len) return len;
    char copy[1024];
    size_t rest = len - i < sizeof copy ? len - i : sizeof copy;
    memcpy(copy, msg + i, rest);
    size_t n = i;
    for (size_t j = 0; j < rest; j++) {
        char e[4];
        size_t k = log_escape_byte((unsigned char)copy[j], 0, e);
        if (n + k > cap) break;
        memcpy(msg + n, e, k);
        n += k;
    }
    return n;
}

static void log_vwrite(log_level level, const char* fmt, va_list ap) {
    uint64_t dropped;
    if (!log_take_token(&dropped)) return;
    char line[1024];
    size_t n = 0;
    if (dropped) {
        n = log_stamp(line, sizeof line, LOG_LEVEL_WARN);
        int m = snprintf(line + n, sizeof line - n, "log: %llu line%s dropped (over %g lines per second)\n",
                         (unsigned long long)dropped, dropped == 1 ? "" : "s", log_rate);
        n += m < 0 ? 0 : (size_t)m;
    }
    size_t head = n + log_stamp(line + n, sizeof line - n, level);
    int m = vsnprintf(line + head, sizeof line - head - 1, fmt, ap);
    size_t len = head + (m < 0 ? 0 : (size_t)m);
    if (len > sizeof line - 2) len = sizeof line - 2; /* truncated: keep the newline */
    len = head + log_defang(line + head, len - head, sizeof line - 2 - head);
    line[len++] = '\n';
    /* One write(2): stdio's buffering could split a long line. */
    ssize_t rc = write(STDERR_FILENO, line, len);
    (void)rc;
}

void log_write(log_level level, const char* fmt, ...) {
    if (!log_enabled(level)) return;
    va_list ap;
    va_start(ap, fmt);
    log_vwrite(level, fmt, ap);
    va_end(ap);
}

void log_event(log_counter* c, const char* fmt, ...) {
    if (!atomic_load_explicit(&c->registered, memory_order_acquire)) {
        pthread_mutex_lock(&log_lock);
        if (!atomic_load_explicit(&c->registered, memory_order_relaxed)) {
            c->next = log_counters;
            log_counters = c;
            atomic_store_explicit(&c->registered, 1, memory_order_release);
        }
        pthread_mutex_unlock(&log_lock);
    }
    atomic_fetch_add_explicit(&c->count, 1, memory_order_relaxed);
    if (!log_enabled(LOG_LEVEL_DEBUG)) return;
    va_list ap;
    va_start(ap, fmt);
    log_vwrite(LOG_LEVEL_DEBUG, fmt, ap);
    va_end(ap);
}

void log_summarize(double interval_s) {
    char text[768];
    size_t n = 0;
    pthread_mutex_lock(&log_lock);
    for (log_counter* c = log_counters; c; c = c->next) {
        uint64_t k = atomic_exchange_explicit(&c->count, 0, memory_order_relaxed);
        if (!k || n >= sizeof text) continue;
        int m = snprintf(text + n, sizeof text - n, "%s%llu %s", n ? ", " : "", (unsigned long long)k, c->what);
        n += m < 0 ? 0 : (size_t)m;
    }
    pthread_mutex_unlock(&log_lock);
    if (n) log_info("in the last %g s: %s", interval_s, text);
}
