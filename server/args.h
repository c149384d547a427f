// SPDX-License-Identifier: MIT
/* naval-server's command line: the settings' flags (config.h's table),
 * --config FILE, --check-config and --help, applied over the defaults, the
 * config file and the environment in that order. */
#ifndef NAVAL_SERVER_ARGS_H
#define NAVAL_SERVER_ARGS_H

#include <stdio.h>

#include "config.h"
#include "naval/nv_error.h"

typedef struct args_result {
    int help;          /* --help / -h: print the usage, exit 0 */
    int check_config;  /* --check-config: validate (scenario included) and exit */
    char unknown_env[64]; /* a NAVAL_* variable that is no setting (warned about) */
} args_result;

/* Fills *cfg from every source; -1 with the reason (naming the flag,
 * variable or file key) on bad input. */
int args_parse(int argc, char** argv, cfg_server* cfg, args_result* out, nv_error* err);

void args_print_usage(FILE* out);

#endif
