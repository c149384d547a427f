/* Leveled, timestamped log lines on stderr, safe from any thread (the loop,
 * job workers, nng's callbacks): each line is formatted first and written
 * with one call, so lines from different threads never interleave. */
#ifndef NAVAL_SERVER_LOG_H
#define NAVAL_SERVER_LOG_H

#include "nv_error.h"

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

#define log_debug(...) log_write(LOG_LEVEL_DEBUG, __VA_ARGS__)
#define log_info(...) log_write(LOG_LEVEL_INFO, __VA_ARGS__)
#define log_warn(...) log_write(LOG_LEVEL_WARN, __VA_ARGS__)
#define log_error(...) log_write(LOG_LEVEL_ERROR, __VA_ARGS__)

#endif
