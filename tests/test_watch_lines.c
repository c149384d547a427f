// SPDX-License-Identifier: MIT
/* naval-watch's lines (clients/watch/wline.c): widths in terminal columns
 * (UTF-8 code points, escapes count nothing), lines cut at a " · " between
 * figures or with an ellipsis, and scale bars whose length is true to the
 * metres per column. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "wline.h"

static void widths_count_columns(void** state) {
    (void)state;
    assert_int_equal(wline_width(""), 0);
    assert_int_equal(wline_width("abc"), 3);
    assert_int_equal(wline_width("a \u00b7 b"), 5);
    assert_int_equal(wline_width("\u2192\u21d2\u25b6"), 3);
    assert_int_equal(wline_width("\x1b[7m@\x1b[0m\x1b[K"), 1);
}

static void lines_are_cut_between_figures(void** state) {
    (void)state;
    char s[128];
    snprintf(s, sizeof s, "tick 12 \u00b7 20 boats \u00b7 latency 0.4 ms");
    assert_int_equal(wline_fit(s, 40, 0), 35); /* fits: untouched */
    assert_string_equal(s, "tick 12 \u00b7 20 boats \u00b7 latency 0.4 ms");
    assert_int_equal(wline_fit(s, 30, 0), 18);
    assert_string_equal(s, "tick 12 \u00b7 20 boats");
    assert_int_equal(wline_fit(s, 8, 0), 7);
    assert_string_equal(s, "tick 12");
    /* one part wider than the line: cut with an ellipsis, exactly the width */
    snprintf(s, sizeof s, "following boat 3 (skiff)");
    assert_int_equal(wline_fit(s, 10, 0), 10);
    assert_string_equal(s, "following\u2026");
    snprintf(s, sizeof s, "\u2192\u2192\u2192\u2192\u2192");
    assert_int_equal(wline_fit(s, 3, 1), 3);
    assert_string_equal(s, "\u2192\u2192~");
    snprintf(s, sizeof s, "abc");
    assert_int_equal(wline_fit(s, 2, 0), 2); /* two ASCII bytes left: no room for the 3-byte ellipsis */
    assert_string_equal(s, "a~");
    assert_int_equal(wline_fit(s, 0, 0), 0);
    assert_string_equal(s, "");
}

/* The bar's ends are `len / col_m` columns apart, within the rounding. */
static void scale_bars_are_true(void** state) {
    (void)state;
    static const double col_ms[] = {0.3, 1.0, 2.56, 12.82, 33.3, 140.0, 2500.0};
    for (size_t i = 0; i < sizeof col_ms / sizeof col_ms[0]; i++) {
        char bar[256];
        int w = wline_scale_bar(col_ms[i], 20, 0, bar, sizeof bar);
        assert_true(w > 0);
        int cols = 0;
        for (const char* p = bar; *p && *p != ' '; p++) cols += ((unsigned char)*p & 0xc0) != 0x80;
        double len;
        char unit[4];
        assert_int_equal(sscanf(strchr(bar, ' '), " %lf %3s", &len, unit), 2);
        if (!strcmp(unit, "km")) len *= 1000.0;
        assert_true(cols >= 3 && cols <= 20);
        assert_true(fabs((cols - 1) - len / col_ms[i]) <= 0.5);
        /* the longest round length that fits: the next one up would not */
        double mant = len / pow(10.0, floor(log10(len) + 1e-9));
        double next = len * (mant < 1.5 ? 2.0 : mant < 3.0 ? 2.5 : 2.0);
        assert_true(lround(next / col_ms[i]) + 1 > 20);
    }
    char bar[64];
    assert_int_equal(wline_scale_bar(1.0, 2, 0, bar, sizeof bar), 0);
    assert_string_equal(bar, "");
    assert_int_equal(wline_scale_bar(NAN, 20, 0, bar, sizeof bar), 0);
    assert_true(wline_scale_bar(10.0, 12, 1, bar, sizeof bar) > 0);
    assert_string_equal(bar, "|---------| 100 m");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(widths_count_columns),
        cmocka_unit_test(lines_are_cut_between_figures),
        cmocka_unit_test(scale_bars_are_true),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
