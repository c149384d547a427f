// SPDX-License-Identifier: MIT
#include "wline.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define WLINE_SEP " \u00b7 "

/* Bytes of the escape sequence at s (CSI: ESC [ ... final byte), else 0. */
static size_t wline_escape(const char* s) {
    if (s[0] != '\x1b' || s[1] != '[') return 0;
    size_t i = 2;
    while (s[i] && !(s[i] >= 0x40 && s[i] <= 0x7e)) i++;
    return s[i] ? i + 1 : i;
}

int wline_width(const char* s) {
    int w = 0;
    for (size_t i = 0; s[i];) {
        size_t esc = wline_escape(s + i);
        if (esc) {
            i += esc;
            continue;
        }
        if (((unsigned char)s[i] & 0xc0) != 0x80) w++;
        i++;
    }
    return w;
}

/* The byte offset where the text reaches `cols` columns (at a code point). */
static size_t wline_offset(const char* s, int cols) {
    int w = 0;
    size_t i = 0;
    while (s[i]) {
        size_t esc = wline_escape(s + i);
        if (esc) {
            i += esc;
            continue;
        }
        if (((unsigned char)s[i] & 0xc0) != 0x80) {
            if (w == cols) break;
            w++;
        }
        i++;
    }
    return i;
}

int wline_fit(char* s, int width, int ascii) {
    if (width < 0) width = 0;
    if (wline_width(s) <= width) return wline_width(s);
    size_t best = 0;
    for (const char* p = strstr(s, WLINE_SEP); p; p = strstr(p + 1, WLINE_SEP)) {
        size_t cut = (size_t)(p - s);
        char keep = s[cut];
        s[cut] = '\0';
        int fits = wline_width(s) <= width;
        s[cut] = keep;
        if (!fits) break;
        best = cut;
    }
    if (best) {
        s[best] = '\0';
        return wline_width(s);
    }
    if (width == 0) {
        s[0] = '\0';
        return 0;
    }
    size_t cut = wline_offset(s, width - 1);
    /* At least two code points follow the cut (the text was wider than
     * `width`): room for "~", and for the 3-byte ellipsis unless both are ASCII. */
    const char* more = !ascii && strlen(s + cut) >= 3 ? "\u2026" : "~";
    memcpy(s + cut, more, strlen(more) + 1);
    return wline_width(s);
}

int wline_scale_bar(double col_m, int max_cols, int ascii, char* out, size_t cap) {
    if (cap) out[0] = '\0';
    if (!(col_m > 0.0) || !isfinite(col_m) || max_cols < 3 || cap < 16) return 0;
    static const double steps[] = {1.0, 2.0, 5.0};
    double best = 0.0;
    for (int e = -2; e <= 9; e++)
        for (int k = 0; k < 3; k++) {
            double len = steps[k] * pow(10.0, e);
            int cols = (int)lround(len / col_m) + 1;
            if (cols >= 3 && cols <= max_cols && len > best) best = len;
        }
    if (!(best > 0.0)) return 0;
    int cols = (int)lround(best / col_m) + 1;
    char label[32];
    if (best >= 1000.0) snprintf(label, sizeof label, " %g km", best / 1000.0);
    else snprintf(label, sizeof label, " %g m", best);
    size_t need = (size_t)cols * 3 + strlen(label) + 1;
    if (need > cap) return 0;
    char* p = out;
    const char* ends[2] = {ascii ? "|" : "\u251c", ascii ? "|" : "\u2524"};
    const char* bar = ascii ? "-" : "\u2500";
    p += sprintf(p, "%s", ends[0]);
    for (int i = 0; i < cols - 2; i++) p += sprintf(p, "%s", bar);
    p += sprintf(p, "%s%s", ends[1], label);
    return wline_width(out);
}
