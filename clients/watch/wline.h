// SPDX-License-Identifier: MIT
/* naval-watch's text lines fitted to the terminal: a line that wraps
 * pushes the map's top border off a redrawn screen, so every line is cut
 * to the width before it is printed, at a " · " between its figures when
 * it can (the first figures are the ones that matter), and the scale bar
 * that tells how far a column is. Widths are in terminal columns: UTF-8
 * code points, ANSI escapes counting nothing. */
#ifndef NAVAL_WATCH_WLINE_H
#define NAVAL_WATCH_WLINE_H

#include <stddef.h>

/* Columns the text takes. */
int wline_width(const char* s);
/* Cuts s in place to at most `width` columns: after the last whole
 * " · "-separated part that fits, else mid-part ending in "…" ("~" with
 * ascii). Returns the columns left. */
int wline_fit(char* s, int width, int ascii);
/* A scale bar for col_m metres per column: a round length (1, 2 or 5 x
 * 10^k m) spanning at most max_cols columns and at least 3, drawn
 * "├────┤ 50 m" ("|----| 50 m" with ascii). Returns its width in
 * columns, 0 (and "") when not even 3 columns fit. */
int wline_scale_bar(double col_m, int max_cols, int ascii, char* out, size_t cap);

#endif
