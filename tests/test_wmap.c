// SPDX-License-Identifier: MIT
/* naval-watch's map (clients/watch/wmap.c) from outside: a boat's state
 * shows as its mark (holed '*', aground '!', capsized 'x', sunk '_'), a
 * cell of several shows their count (in the worst one's colour on a
 * terminal), an afloat boat its heading arrow, and the
 * cells with no boat over land the land mark; on a terminal the marks are
 * coloured. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "wmap.h"

/* Land west of x = -40. */
static int west_is_land(const void* ctx, double x, double z) {
    (void)ctx;
    (void)z;
    return x < -40.0;
}

/* The character in row r, column c of an ASCII map (frame included). */
static char at(const char* map, int cols, int r, int c) { return map[(size_t)(r + 1) * (size_t)(cols + 3) + 1 + (size_t)c]; }

static void marks_show_each_state_and_land(void** state) {
    (void)state;
    /* 10 x 5 cells of 10 m x 20 m about (0, 0): x -50..50, z -50..50 */
    wmap_view v = {0.0, 0.0, 50.0, 10, 5, 1, 0, -1, west_is_land, NULL};
    const wmap_boat boats[] = {
        {-25.0, -45.0, 0.0, 1, 0, WMAP_AFLOAT},   /* column 2, row 0: '>' */
        {-15.0, -45.0, 0.0, 2, 0, WMAP_DAMAGED},  /* column 3 */
        {-5.0, -45.0, 0.0, 3, 0, WMAP_AGROUND},   /* column 4 */
        {5.0, -45.0, 0.0, 4, 0, WMAP_CAPSIZED},   /* column 5 */
        {15.0, -45.0, 0.0, 5, 0, WMAP_SUNK},      /* column 6 */
        {25.0, 15.0, 0.0, 6, 0, WMAP_AFLOAT},     /* column 7, row 3: two boats, one sunk */
        {25.0, 15.0, 0.0, 7, 0, WMAP_SUNK},
    };
    size_t cap = wmap_capacity(&v);
    char* map = malloc(cap);
    assert_non_null(map);
    assert_int_equal(wmap_render(&v, boats, sizeof boats / sizeof boats[0], map, cap), 7);
    print_message("%s", map);
    assert_int_equal(at(map, 10, 0, 2), '>');
    assert_int_equal(at(map, 10, 0, 3), '*');
    assert_int_equal(at(map, 10, 0, 4), '!');
    assert_int_equal(at(map, 10, 0, 5), 'x');
    assert_int_equal(at(map, 10, 0, 6), '_');
    assert_int_equal(at(map, 10, 3, 7), '2'); /* a count where two share a cell */
    for (int r = 0; r < 5; r++) assert_int_equal(at(map, 10, r, 0), ':'); /* x -50..-40: land */
    assert_int_equal(at(map, 10, 2, 1), ' ');                             /* -40..-30: sea */
    /* the followed boat marked '@' whatever its state, off a terminal */
    v.mark = 4;
    wmap_render(&v, boats, sizeof boats / sizeof boats[0], map, cap);
    assert_int_equal(at(map, 10, 0, 5), '@');
    /* on a terminal: coloured; the cell of two, one sunk, in the sunk colour */
    v.mark = -1;
    v.highlight = 1;
    wmap_render(&v, boats, sizeof boats / sizeof boats[0], map, cap);
    assert_non_null(strstr(map, "\x1b[31m*\x1b[0m"));
    assert_non_null(strstr(map, "\x1b[34m_\x1b[0m"));
    assert_non_null(strstr(map, "\x1b[34m2\x1b[0m"));
    assert_non_null(strstr(wmap_legend(1), "x capsized"));
    free(map);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(marks_show_each_state_and_land)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
