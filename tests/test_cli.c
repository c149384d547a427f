// SPDX-License-Identifier: MIT
/* The tools' option parser (base/cli.h): each row type stores what it
 * parsed where its row says, bounds and checks refuse with exit status 2,
 * aliases, deprecated aliases and --flag=value are read, --help is 0 and
 * the usage is generated from the rows (defaults shown from the fields). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli.h"

typedef struct targs {
    uint64_t steps;
    uint32_t small;
    int level;
    double rate;
    float ratio;
    const char* out;
    int mode;
    int quiet;
    int steps_seen;
    int pairs[2];
    const char* files[4];
    int file_count;
} targs;

static int extra_global;

static int check_even(const cli_opt* o, double v, char* why, size_t n) {
    (void)o;
    if ((int64_t)v % 2 == 0) return 0;
    snprintf(why, n, "must be even (got %g)", v);
    return -1;
}

static int parse_pair(const cli_opt* o, const char* text, void* args, char* why, size_t n) {
    uint64_t a, b;
    (void)o;
    if (cli_parse_pair(text, 1, 9, &a, &b)) {
        snprintf(why, n, "must be N,M (got '%s')", text);
        return -1;
    }
    ((targs*)args)->pairs[0] = (int)a;
    ((targs*)args)->pairs[1] = (int)b;
    return 0;
}

static int positional(const char* arg, void* args, char* why, size_t n) {
    targs* a = args;
    if (a->file_count == 4) {
        snprintf(why, n, "four files at most (got '%s')", arg);
        return -1;
    }
    a->files[a->file_count++] = arg;
    return 0;
}

static const char* const modes[] = {"fast", "exact", "off", NULL};

static const cli_opt rows[] = {
    {"--steps", .type = CLI_UINT, CLI_FIELD(targs, steps), CLI_SEEN(targs, steps_seen), .min = 1, .max = 1000,
     .value_name = "N", .help = "steps", .show_default = 1},
    {"--small", .type = CLI_UINT, CLI_FIELD(targs, small), .help = "a 32-bit field's own range"},
    {"--level", .type = CLI_INT, CLI_FIELD(targs, level), .min = -5, .max = 5, .check = check_even,
     .help = "an even level"},
    {"--tick-hz", .deprecated = "--hz", .type = CLI_DOUBLE, CLI_FIELD(targs, rate), .min = 1, .max = 1000,
     .value_name = "H", .help = "rate", .show_default = 1},
    {"--ratio", .type = CLI_DOUBLE, CLI_FIELD(targs, ratio), .min = 0, .max = 1, .bad = "--ratio must be a fraction"},
    {"--out", .alias = "-o", .type = CLI_STRING, CLI_FIELD(targs, out), .value_name = "FILE", .help = "output"},
    {"--mode", .type = CLI_ENUM, CLI_FIELD(targs, mode), .words = modes, .help = "how", .show_default = 1},
    {"--quiet", .type = CLI_SWITCH, CLI_FIELD(targs, quiet), .help = "no log"},
    {"--grid", .type = CLI_CUSTOM, .parse = parse_pair, .value_name = "N,M", .help = "a grid"},
    {"--global", .type = CLI_UINT, .ptr = &extra_global, .size = sizeof extra_global, .min = 0, .max = 9},
    {0}};

static const cli_spec spec = {.prog = "test-cli",
                              .synopsis = "test-cli [FILE...] [options]",
                              .about = "A parser under test.",
                              .opts = rows,
                              .positional = positional,
                              .epilogue = "The end."};

/* cli_parse over a NULL-terminated list, stderr and stdout silenced. */
static int run(targs* a, const char* const* list) {
    char* argv[32] = {"test-cli"};
    int argc = 1;
    while (list[argc - 1]) argv[argc] = (char*)list[argc - 1], argc++;
    memset(a, 0, sizeof *a);
    a->rate = 60.0;
    a->steps = 10;
    fflush(stdout);
    fflush(stderr);
    int saved_out = dup(1), saved_err = dup(2), null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    int rc = cli_parse(&spec, argc, argv, a);
    fflush(stdout);
    fflush(stderr);
    dup2(saved_out, 1);
    dup2(saved_err, 2);
    close(saved_out);
    close(saved_err);
    close(null);
    return rc;
}

static void every_type_is_stored(void** state) {
    (void)state;
    targs a;
    const char* args[] = {"f1", "--steps", "7", "--small=4000000000", "--level", "-4", "--hz", "30", "--ratio",
                          "0.5", "-o", "x.txt", "--mode", "exact", "--quiet", "--grid", "3,4", "--global", "8",
                          "f2", NULL};
    assert_int_equal(run(&a, args), CLI_RUN);
    assert_int_equal(a.steps, 7);
    assert_int_equal(a.steps_seen, 1);
    assert_int_equal(a.small, 4000000000u);
    assert_int_equal(a.level, -4);
    assert_true(a.rate == 30.0);
    assert_true(a.ratio == 0.5f);
    assert_string_equal(a.out, "x.txt");
    assert_int_equal(a.mode, 1);
    assert_int_equal(a.quiet, 1);
    assert_int_equal(a.pairs[0], 3);
    assert_int_equal(a.pairs[1], 4);
    assert_int_equal(extra_global, 8);
    assert_int_equal(a.file_count, 2);
    assert_string_equal(a.files[1], "f2");
}

static void mistakes_exit_2(void** state) {
    (void)state;
    targs a;
    const char* const cases[][4] = {
        {"--steps", "0", NULL},        {"--steps", "1001", NULL},  {"--steps", "x", NULL},
        {"--steps", NULL},             {"--small", "4294967296", NULL}, {"--level", "3", NULL},
        {"--level", "-6", NULL},       {"--hz", "0", NULL},        {"--ratio", "2", NULL},
        {"--mode", "slow", NULL},      {"--quiet=1", NULL},        {"--grid", "0,4", NULL},
        {"--stps", "3", NULL},         {"-x", NULL},               {"--level", "2.5", NULL}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const char* list[8] = {0};
        for (int j = 0; j < 4 && cases[k][j]; j++) list[j] = cases[k][j];
        if (run(&a, list) != 2) fail_msg("case %zu (%s) was taken", k, cases[k][0]);
    }
    const char* five[] = {"a", "b", "c", "d", "e", NULL};
    assert_int_equal(run(&a, five), 2);
}

static void help_is_0_and_generated(void** state) {
    (void)state;
    targs a;
    const char* args[] = {"--steps", "5", "--help", NULL};
    assert_int_equal(run(&a, args), 0);
    memset(&a, 0, sizeof a);
    a.steps = 42;
    a.rate = 60.0;
    a.mode = 2;
    FILE* f = tmpfile();
    assert_non_null(f);
    cli_print_usage(&spec, &a, f);
    rewind(f);
    char text[4096];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    assert_non_null(strstr(text, "usage: test-cli [FILE...] [options]"));
    assert_non_null(strstr(text, "A parser under test."));
    assert_non_null(strstr(text, "--steps N"));
    assert_non_null(strstr(text, "steps (default 42)"));
    assert_non_null(strstr(text, "--tick-hz H"));
    assert_non_null(strstr(text, "(default 60) (--hz is a deprecated alias)"));
    assert_non_null(strstr(text, "--out, -o FILE"));
    assert_non_null(strstr(text, "--mode fast|exact|off"));
    assert_non_null(strstr(text, "how (default off)"));
    assert_non_null(strstr(text, "The end."));
}

static void suggestion_and_pair(void** state) {
    (void)state;
    static const char* const known[] = {"--steps", "--tick-hz", "--help", NULL};
    assert_string_equal(cli_suggest("--stps", known), "--steps");
    assert_null(cli_suggest("--frobnicate", known));
    uint64_t x, y;
    assert_int_equal(cli_parse_pair("20,5", 1, 1024, &x, &y), 0);
    assert_int_equal(x, 20);
    assert_int_equal(y, 5);
    assert_int_equal(cli_parse_pair("20", 1, 1024, &x, &y), -1);
    assert_int_equal(cli_parse_pair(",5", 1, 1024, &x, &y), -1);
    assert_int_equal(cli_parse_pair("0,5", 1, 1024, &x, &y), -1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_type_is_stored),
        cmocka_unit_test(mistakes_exit_2),
        cmocka_unit_test(help_is_0_and_generated),
        cmocka_unit_test(suggestion_and_pair),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
