// SPDX-License-Identifier: MIT
/* naval-server: the settings from flags, environment and config file,
 * then the loop (loop.c) until SIGINT or SIGTERM. Exit codes: 0 after a
 * clean stop (or --help, or --check-config with good settings), 2 for bad
 * settings (the reason on stderr), 1 when the server could not start (a
 * port in use, say). */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "config.h"
#include "log.h"
#include "loop.h"
#include "sim.h"

int main(int argc, char** argv) {
    cfg_server cfg;
    args_result args;
    nv_error err;
    if (args_parse(argc, argv, &cfg, &args, &err)) {
        fprintf(stderr, "naval-server: %s\n(naval-server --help for usage)\n", err.message);
        return 2;
    }
    if (args.help) {
        args_print_usage(stdout);
        return 0;
    }
    log_level level = LOG_LEVEL_INFO;
    log_parse_level(cfg.log_level, &level);
    log_set_level(level);
    if (args.unknown_env[0])
        log_warn("%s is not a naval-server setting (ignored; see naval-server --help)", args.unknown_env);
    if (args.check_config) {
        /* The world too: a scenario that does not load is a bad setting. */
        if (sim_check(&cfg, &err)) {
            fprintf(stderr, "naval-server: %s\n", err.message);
            return 2;
        }
        cfg_print_json(&cfg, stdout);
        fprintf(stderr, "naval-server: configuration ok\n");
        return 0;
    }
    /* A peer that vanishes mid-write must not kill the process. */
    signal(SIGPIPE, SIG_IGN);
    return loop_run(&cfg);
}
