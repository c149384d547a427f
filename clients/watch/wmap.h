// SPDX-License-Identifier: MIT
/* The top-down map of naval-watch: boats as heading arrows on a grid of
 * terminal cells around a centre. Seen from above (+y), +x runs right and
 * -z up, so a heading (radians about +y from +x toward -z, the protocol's)
 * is the arrow's angle on the screen. A cell is twice as tall as wide, so
 * a row spans twice the metres of a column and distances look true. */
#ifndef NAVAL_WATCH_WMAP_H
#define NAVAL_WATCH_WMAP_H

#include <stddef.h>
#include <stdint.h>

/* What became of a boat, worst last: a cell shows its worst boat's. */
typedef enum wmap_state {
    WMAP_AFLOAT = 0, /* its heading arrow */
    WMAP_DAMAGED,    /* holed ('*'; red on a terminal) */
    WMAP_AGROUND,    /* touching the ground ('!'; yellow) */
    WMAP_CAPSIZED,   /* keel-up ('x'; magenta) */
    WMAP_SUNK        /* cannot float ('_'; blue) */
} wmap_state;

typedef struct wmap_boat {
    double x, z;       /* m */
    double heading;    /* rad */
    uint32_t id;
    unsigned family;   /* glyph family (wmap_glyph_family): one per vessel type */
    wmap_state state;
} wmap_boat;

enum { WMAP_WATER = 0, WMAP_LAND = 1, WMAP_STRUCTURE = 2 };

typedef struct wmap_view {
    double cx, cz;     /* centre, m */
    double half_width; /* m from the centre to the left and right edges */
    int cols, rows;    /* cells inside the frame */
    int ascii;         /* plain ASCII arrows (diagonals show the axis only) */
    int highlight;     /* ANSI reverse video on the marked boat, else '@' */
    int64_t mark;      /* id of the boat to mark, -1: none */
    /* What lies at (x, z) m, for the cells no boat is in (NULL: open
     * sea): WMAP_WATER, WMAP_LAND or WMAP_STRUCTURE. */
    int (*is_land)(const void* ctx, double x, double z);
    const void* land_ctx;
} wmap_view;

/* The legend of the map's marks (UTF-8, or ASCII with `ascii`). */
const char* wmap_legend(int ascii);

/* Glyph families, so that types look different: thin arrows, double
 * arrows, triangles (UTF-8); ASCII has one. */
#define WMAP_FAMILIES 3
/* The arrow for a heading: UTF-8, or ASCII with view.ascii. */
const char* wmap_glyph(double heading, int ascii);
/* The same in a family (taken modulo WMAP_FAMILIES; ASCII ignores it). */
const char* wmap_glyph_family(double heading, unsigned family, int ascii);
/* Writes the framed map (rows + 2 lines, each ending in '\n') into out
 * (NUL-terminated, cut short if cap is too small). Cells holding several
 * boats show their count (2-9, '+' for more). Returns the boats inside. */
size_t wmap_render(const wmap_view* v, const wmap_boat* boats, size_t n, char* out, size_t cap);
/* Bytes wmap_render may need for a view. */
size_t wmap_capacity(const wmap_view* v);

#endif
