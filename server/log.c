#include "log.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static atomic_int log_threshold = LOG_LEVEL_INFO;

static const char* const log_names[] = {"debug", "info", "warn", "error", "off"};

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

void log_write(log_level level, const char* fmt, ...) {
    if (!log_enabled(level)) return;
    static const char* const tags[] = {"DEBUG", "INFO ", "WARN ", "ERROR"};
    char line[1024];
    struct timespec ts;
    struct tm tm;
    clock_gettime(CLOCK_REALTIME, &ts);
    gmtime_r(&ts.tv_sec, &tm);
    int n = snprintf(line, sizeof line, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ %s ", tm.tm_year + 1900, tm.tm_mon + 1,
                     tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (int)(ts.tv_nsec / 1000000), tags[level]);
    va_list ap;
    va_start(ap, fmt);
    int m = vsnprintf(line + n, sizeof line - (size_t)n - 1, fmt, ap);
    va_end(ap);
    size_t len = (size_t)n + (m < 0 ? 0 : (size_t)m);
    if (len > sizeof line - 2) len = sizeof line - 2; /* truncated: keep the newline */
    line[len++] = '\n';
    /* One write(2): stdio's buffering could split a long line. */
    ssize_t rc = write(STDERR_FILENO, line, len);
    (void)rc;
}
