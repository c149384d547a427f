// SPDX-License-Identifier: MIT
#include "args.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void args_print_usage(FILE* out) {
    fputs("usage: naval-server [options]\n"
          "A fixed-rate naval simulation streaming snapshots over nng (tcp and WebSocket).\n"
          "With no options: an FFT sea and 200 boats on autopilot; snapshots on tcp://0.0.0.0:7700,\n"
          "commands on tcp://0.0.0.0:7701, web client, /ws/snapshots, /ws/commands, /metrics and\n"
          "/healthz on http://0.0.0.0:8080.\n\n"
          "  --help, -h                 this text\n"
          "  --config FILE              settings as JSON (keys below); also NAVAL_CONFIG\n"
          "  --check-config             validate the settings (and the scenario), print them, exit 0;\n"
          "                             exit 2 with the reason when something is wrong\n",
          out);
    cfg_print_usage(out);
    fputs("\nPriority: flags > environment > config file > defaults. Flags take \"--flag VALUE\" or\n"
          "\"--flag=VALUE\" (a switch such as --agones alone means 1); bad values exit 2 with the reason.\n",
          out);
}

/* The unknown-option message every tool prints (base/cli.h), with the
 * nearest known flag: the flags are read from the usage text (config.c's
 * table and the special ones) and kept when cfg_is_known or special. */
static int args_unknown(const char* name, nv_error* err) {
    char* text = NULL;
    size_t size = 0;
    FILE* f = open_memstream(&text, &size);
    const char* near = NULL;
    char found[64] = "";
    if (f) {
        args_print_usage(f);
        fclose(f);
    }
    enum { ARGS_MAX_FLAGS = 256 };
    const char* flags[ARGS_MAX_FLAGS + 1];
    char* names = text ? malloc(size + 1) : NULL;
    size_t count = 0, used = 0;
    if (names) {
        for (const char* p = text; *p && count < ARGS_MAX_FLAGS; p++) {
            if (p[0] != '-' || p[1] != '-' || (p > text && !isspace((unsigned char)p[-1]) && p[-1] != '"')) continue;
            size_t len = 2;
            while (isalnum((unsigned char)p[len]) || p[len] == '-') len++;
            if (len < 3) continue;
            char* word = names + used;
            memcpy(word, p, len);
            word[len] = '\0';
            used += len + 1;
            p += len - 1;
            if (cfg_is_known(CFG_FROM_FLAG, word) || !strcmp(word, "--config") || !strcmp(word, "--check-config") ||
                !strcmp(word, "--help"))
                flags[count++] = word;
        }
        flags[count] = NULL;
        near = cli_suggest(name, flags);
        if (near) snprintf(found, sizeof found, "%s", near);
    }
    free(names);
    free(text);
    if (found[0]) return nv_error_set(err, "unknown option '%s' (did you mean %s?)", name, found);
    return nv_error_set(err, "unknown option '%s'", name);
}

/* "--name=value" splits into name and value; "--name" takes the next word. */
static int args_split(const char* arg, char* name, size_t n, const char** value) {
    const char* eq = strchr(arg, '=');
    size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
    if (len >= n) return -1;
    memcpy(name, arg, len);
    name[len] = '\0';
    *value = eq ? eq + 1 : NULL;
    return 0;
}

int args_parse(int argc, char** argv, cfg_server* cfg, args_result* out, nv_error* err) {
    memset(out, 0, sizeof *out);
    cfg_defaults(cfg);
    const char* config_path = getenv("NAVAL_CONFIG");
    /* First pass: the special flags, the config file's name, and every
     * unknown or value-less flag, before any source is applied. */
    for (int i = 1; i < argc; i++) {
        char name[64];
        const char* value;
        if (args_split(argv[i], name, sizeof name, &value)) return nv_error_set(err, "unknown option '%.60s...'", argv[i]);
        if (!strcmp(name, "--help") || !strcmp(name, "-h")) {
            out->help = 1;
            return 0;
        }
        if (!strcmp(name, "--check-config")) {
            if (value) return nv_error_set(err, "--check-config takes no value");
            out->check_config = 1;
            continue;
        }
        int is_config = !strcmp(name, "--config");
        if (!is_config && !cfg_is_known(CFG_FROM_FLAG, name)) return args_unknown(name, err);
        if (!value && cfg_is_switch(name)) continue; /* "--agones" alone: on */
        if (!value) {
            if (i + 1 >= argc) return nv_error_set(err, "%s: missing value", name);
            value = argv[++i];
        }
        if (is_config) {
            if (!value[0]) return nv_error_set(err, "--config: empty file name");
            config_path = value;
        }
    }
    if (config_path && config_path[0] && cfg_load_file(cfg, config_path, err)) return -1;
    if (cfg_load_env(cfg, out->unknown_env, sizeof out->unknown_env, err)) return -1;
    for (int i = 1; i < argc; i++) {
        char name[64];
        const char* value = NULL;
        args_split(argv[i], name, sizeof name, &value);
        if (!strcmp(name, "--check-config")) continue;
        if (!value) value = cfg_is_switch(name) ? "1" : argv[++i];
        if (!strcmp(name, "--config")) continue;
        if (cfg_set_text(cfg, CFG_FROM_FLAG, name, value, err)) return -1;
    }
    return cfg_finish(cfg, err);
}
