// SPDX-License-Identifier: MIT
#include "wmap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define WMAP_PI 3.14159265358979323846

/* Eight sectors from +x (right) turning toward -z (up), as headings. */
static const char* const wmap_arrows[WMAP_FAMILIES][8] = {
    {"\u2192", "\u2197", "\u2191", "\u2196", "\u2190", "\u2199", "\u2193", "\u2198"},  /* thin */
    {"\u21d2", "\u21d7", "\u21d1", "\u21d6", "\u21d0", "\u21d9", "\u21d3", "\u21d8"},  /* double */
    {"\u25b6", "\u25e5", "\u25b2", "\u25e4", "\u25c0", "\u25e3", "\u25bc", "\u25e2"}}; /* triangles */
static const char* const wmap_ascii[8] = {">", "/", "^", "\\", "<", "/", "v", "\\"};

const char* wmap_glyph_family(double heading, unsigned family, int ascii) {
    if (!isfinite(heading)) return ascii ? "o" : "\u25cb";
    long sector = lround(heading / (WMAP_PI / 4.0)) % 8;
    if (sector < 0) sector += 8;
    return ascii ? wmap_ascii[sector] : wmap_arrows[family % WMAP_FAMILIES][sector];
}

const char* wmap_glyph(double heading, int ascii) { return wmap_glyph_family(heading, 0, ascii); }

size_t wmap_capacity(const wmap_view* v) {
    /* per cell: a 3-byte arrow in reverse video and a colour at most; frame and newlines */
    return ((size_t)v->cols + 2) * ((size_t)v->rows + 2) * 20 + 64;
}

typedef struct wmap_cell {
    uint16_t count;
    int marked;
    double heading;
    unsigned family;
    wmap_state state; /* the worst of its boats' */
} wmap_cell;

/* A state's mark (the same in ASCII) and its colour on a terminal. */
static const char* const wmap_state_glyph[] = {"", "*", "!", "x", "_"};
static const char* const wmap_state_colour[] = {"", "\x1b[31m", "\x1b[33m", "\x1b[35m", "\x1b[34m"};

const char* wmap_legend(int ascii) {
    return ascii ? "legend: : land, # structure, >^<v boat, * holed, ! aground, x capsized, _ sunk, @ followed"
                 : "legend: \u2592 land \u00b7 \u2588 structure \u00b7 \u2192 boat \u00b7 * holed \u00b7 ! aground \u00b7 x capsized \u00b7 _ sunk "
                   "\u00b7 @ followed";
}

static void wmap_put(char** p, char* end, const char* s) {
    size_t len = strlen(s);
    if (*p + len >= end) return;
    memcpy(*p, s, len);
    *p += len;
    **p = '\0';
}

size_t wmap_render(const wmap_view* v, const wmap_boat* boats, size_t n, char* out, size_t cap) {
    if (!cap) return 0;
    out[0] = '\0';
    if (v->cols < 1 || v->rows < 1 || !(v->half_width > 0.0)) return 0;
    wmap_cell* cells = calloc((size_t)v->cols * (size_t)v->rows, sizeof *cells);
    if (!cells) return 0;
    double col_m = 2.0 * v->half_width / v->cols, row_m = 2.0 * col_m;
    double left = v->cx - v->half_width, top = v->cz - 0.5 * row_m * v->rows;
    size_t inside = 0;
    for (size_t i = 0; i < n; i++) {
        double fc = (boats[i].x - left) / col_m, fr = (boats[i].z - top) / row_m;
        if (!(fc >= 0.0 && fc < v->cols && fr >= 0.0 && fr < v->rows)) continue;
        wmap_cell* c = &cells[(size_t)fr * (size_t)v->cols + (size_t)fc];
        int mark = v->mark >= 0 && boats[i].id == (uint64_t)v->mark;
        /* The marked boat's heading wins its cell. */
        if (!c->count || mark) c->heading = boats[i].heading, c->family = boats[i].family;
        if (boats[i].state > c->state) c->state = boats[i].state;
        c->marked |= mark;
        c->count++;
        inside++;
    }
    char* p = out;
    char* end = out + cap;
    const char* hbar = v->ascii ? "-" : "\u2500";
    wmap_put(&p, end, v->ascii ? "+" : "\u250c");
    for (int c = 0; c < v->cols; c++) wmap_put(&p, end, hbar);
    wmap_put(&p, end, v->ascii ? "+\n" : "\u2510\n");
    for (int r = 0; r < v->rows; r++) {
        wmap_put(&p, end, v->ascii ? "|" : "\u2502");
        for (int c = 0; c < v->cols; c++) {
            const wmap_cell* cell = &cells[(size_t)r * (size_t)v->cols + (size_t)c];
            char digit[2] = {0, 0};
            const char* g = " ";
            const char* colour = v->highlight && cell->count ? wmap_state_colour[cell->state] : "";
            if (cell->marked) {
                g = v->highlight ? (cell->state ? wmap_state_glyph[cell->state]
                                                : wmap_glyph_family(cell->heading, cell->family, v->ascii))
                                 : "@";
            } else if (cell->count == 1) {
                g = cell->state ? wmap_state_glyph[cell->state] : wmap_glyph_family(cell->heading, cell->family, v->ascii);
            } else if (cell->count > 1) {
                g = cell->count > 9 ? "+" : (digit[0] = (char)('0' + cell->count), digit);
            } else if (v->is_land) {
                int ground = v->is_land(v->land_ctx, left + (c + 0.5) * col_m, top + (r + 0.5) * row_m);
                if (ground == WMAP_STRUCTURE)
                    g = v->ascii ? "#" : "\u2588";
                else if (ground)
                    g = v->ascii ? ":" : "\u2592";
            }
            if (cell->marked && v->highlight) wmap_put(&p, end, "\x1b[7m");
            if (colour[0]) wmap_put(&p, end, colour);
            wmap_put(&p, end, g);
            if ((cell->marked && v->highlight) || colour[0]) wmap_put(&p, end, "\x1b[0m");
        }
        wmap_put(&p, end, v->ascii ? "|\n" : "\u2502\n");
    }
    wmap_put(&p, end, v->ascii ? "+" : "\u2514");
    for (int c = 0; c < v->cols; c++) wmap_put(&p, end, hbar);
    wmap_put(&p, end, v->ascii ? "+\n" : "\u2518\n");
    free(cells);
    return inside;
}
