// SPDX-License-Identifier: MIT
/* Writes PNG files for the tests that read heightmaps (test_terrain,
 * test_scenario): compiled into each of them. */
#ifndef NAVAL_TEST_PNG_H
#define NAVAL_TEST_PNG_H

/* A w x h PNG of bit depth 8 or 16, colour type PNG_COLOR_TYPE_GRAY or
 * PNG_COLOR_TYPE_RGB (every channel the same), pixel (i, j) = value(i, j)
 * (16-bit; 8-bit files take its high byte). 0, or -1 when it cannot be
 * written. */
int test_write_png(const char* path, int w, int h, int depth, int type, unsigned (*value)(int, int));

#endif
