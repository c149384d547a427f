// SPDX-License-Identifier: MIT
/* HTTP/1.x request heads (RFC 9112), parsed strictly and without
 * allocation: the request line and header fields as slices of the
 * caller's buffer, the target's path percent-decoded into the request.
 * A head that breaks a rule gets the status to answer with (400, 414,
 * 431, 501, 505), never a guess: the edge (edge.h) serves what a browser
 * sends and refuses the rest before any handler sees it.
 *
 * Lines end with LF, an optional CR before it (RFC 9112 2.2); a CR
 * anywhere else, NUL and other control characters, folded lines, spaces
 * before a field's colon, a second Host and a decoded NUL in the path are
 * refused. */
#ifndef NAVAL_SERVER_HTTPHEAD_H
#define NAVAL_SERVER_HTTPHEAD_H

#include <stddef.h>
#include <stdint.h>

#define HTTPHEAD_MAX_FIELDS 64
#define HTTPHEAD_PATH_MAX 1024

typedef enum httphead_result {
    HTTPHEAD_INCOMPLETE = 0,          /* no end of head yet, within the limits */
    HTTPHEAD_OK = 200,
    HTTPHEAD_BAD_REQUEST = 400,
    HTTPHEAD_URI_TOO_LONG = 414,      /* request line over its limit */
    HTTPHEAD_FIELDS_TOO_LARGE = 431,  /* head over its limit, or too many fields */
    HTTPHEAD_NOT_IMPLEMENTED = 501,   /* a method that is not a token of letters */
    HTTPHEAD_VERSION = 505,           /* HTTP/2 and beyond on this port */
} httphead_result;

typedef struct httphead_limits {
    size_t max_line;   /* request line, without its end */
    size_t max_head;   /* the whole head, its empty last line included */
} httphead_limits;

typedef struct httphead_slice {
    const char* p;
    size_t n;
} httphead_slice;

typedef struct httphead_field {
    httphead_slice name, value;  /* value without surrounding spaces */
} httphead_field;

typedef struct httphead_request {
    httphead_slice method, target;
    int minor;                   /* HTTP/1.minor: 0 or 1 */
    httphead_field fields[HTTPHEAD_MAX_FIELDS];
    uint32_t field_count;
    char path[HTTPHEAD_PATH_MAX];  /* target's path, decoded, without query */
    size_t head_size;            /* bytes the head took (next request starts there) */
    const char* why;             /* for a refusal: what was wrong (static text) */
} httphead_request;

/* Where a search for the head's end may resume, so that a head drip-fed
 * byte by byte costs linear time. Zero it per head. */
typedef struct httphead_scan {
    size_t searched;   /* bytes already known not to end the head */
    size_t line_end;   /* 0 until the request line's LF is seen, then its offset + 1 */
} httphead_scan;

/* Parses the head at the start of data[0..len): INCOMPLETE while more bytes
 * may finish it, OK with *out filled, or the refusal's status (out->why
 * says why). */
httphead_result httphead_parse(const char* data, size_t len, const httphead_limits* limits, httphead_scan* scan,
                               httphead_request* out);

/* The value of the first field named `name` (any case), or NULL. */
const httphead_slice* httphead_find(const httphead_request* r, const char* name);
/* Whether a comma-separated field value lists `token` (any case). */
int httphead_has_token(const httphead_slice* value, const char* token);
int httphead_equals(const httphead_slice* s, const char* text);          /* exact */
int httphead_equals_nocase(const httphead_slice* s, const char* text);

/* The reason phrase of a status the server sends ("Not Found"). */
const char* httphead_reason(int status);

#endif
