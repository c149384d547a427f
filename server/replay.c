// SPDX-License-Identifier: MIT
/* naval-replay CHECKPOINT LOG [LOG...] [--threads K] [--json] [--accept-cut]
 * [--export-web FILE [--rate HZ]]: runs a session that
 * naval-server recorded (--record, server/record.h) again, from its base
 * checkpoint: steps the restored world tick by tick with the server's own
 * autopilot (sim_step), applies each logged change at its tick through the
 * server's own code (apply.h), and compares every logged state hash with
 * the world's; --export-web writes the session for the browser as it
 * goes (replay_export.h). Logs after the first go on where the one before
 * ended (the next files of a log the server rotated at its size cap): each
 * one's base must be the replayed world at that point. Exit codes: 0 every
 * hash matched, 1 the first mismatch (or a logged change that no longer
 * applies, such as a spawn that gets another id; or a write to the export
 * that failed; or a last log without its end line, a server killed or a
 * file cut short, unless --accept-cut), 2 bad arguments, unreadable files,
 * a log that does not go on from the one before, or an export that cannot
 * be created. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "apply.h"
#include "cli.h"
#include "log.h"
#include "naval/checkpoint.h"
#include "naval/jobs.h"
#include "owners.h"
#include "record.h"
#include "replay_export.h"
#include "sim.h"

#define REPLAY_MAX_LOGS 4096

typedef struct replay {
    const char* checkpoint_path;
    const char* log_path;                  /* the log being read */
    const char* log_paths[REPLAY_MAX_LOGS];
    int log_count, log_index;
    int accept_cut;                        /* --accept-cut: a log without its end line is not a failure */
    int cut;                               /* the last log has no end line (and it was not accepted) */
    uint64_t first_base_tick;
    uint32_t threads;
    int json;
    const char* export_path;               /* --export-web; NULL: none */
    double rate_hz;                        /* --rate */
    replay_export* out;
    int export_failed;                     /* a write to it failed: exit 1 */
    uint32_t exported, export_stride;      /* snapshots written, ticks between them */
    sim sim;
    owners owners;
    record_reader log;
    uint64_t steps, spawns, controls, despawns, matched, contacts;
    uint32_t contact_next;                 /* the world's events of this tick checked against the log so far */
    uint32_t damage_next;                  /* the same for its damage events */
    uint64_t breaches, pumps, damage_events;
    uint64_t world_ops;                    /* the world's other operations (velocity, model, player, lod, ...) */
    uint64_t mismatch_tick, expected, got; /* the first hash mismatch */
    char failure[2 * NV_ERROR_MAX];        /* why the replay stopped short; "" when it did not */
} replay;

static const char replay_about[] =
    "Runs a session naval-server recorded (--record LOG: files LOG.000001, LOG.000002, ... with their\n"
    "base checkpoints LOG.000001.ckpt, ...; LOG and LOG.ckpt link to the newest) again: restores\n"
    "CHECKPOINT, steps the world, applies the logged changes at their ticks with the server's own code\n"
    "and compares every logged state hash and contact. More LOGs go on where the one before ended\n"
    "(the files a log's size cap started, in order: LOG.000001.ckpt LOG.000001 LOG.000002 ...). Exit 0\n"
    "when all match, 1 on the first mismatch (its tick and both hashes named), a failed write to\n"
    "--export-web's file or a last log without its end line (the server was killed, or the file cut),\n"
    "2 on bad arguments or files, or a LOG that does not go on from the one before.";

/* CHECKPOINT first, then the LOGs. */
static int replay_positional(const char* arg, void* args, char* why, size_t n) {
    replay* r = args;
    if (!r->checkpoint_path) {
        r->checkpoint_path = arg;
    } else if (r->log_count < REPLAY_MAX_LOGS) {
        r->log_paths[r->log_count++] = arg;
    } else {
        snprintf(why, n, "%s: one checkpoint and at most %d logs", arg, REPLAY_MAX_LOGS);
        return -1;
    }
    return 0;
}

static int replay_parse_export(const cli_opt* o, const char* text, void* args, char* why, size_t n) {
    (void)o;
    if (!text[0]) {
        snprintf(why, n, "expected a FILE");
        return -1;
    }
    ((replay*)args)->export_path = text;
    return 0;
}

static int replay_check_rate(const cli_opt* o, double hz, char* why, size_t n) {
    (void)o;
    if (hz > 0.0 && hz <= 1000.0) return 0;
    snprintf(why, n, "must be a number of snapshots per second in (0, 1000] (got %g)", hz);
    return -1;
}

static const cli_opt replay_opts[] = {
    {"--threads", .type = CLI_UINT, CLI_FIELD(replay, threads), .min = 1, .max = JOBS_MAX_THREADS, .value_name = "K",
     .help = "simulation threads (default: all cores; the result does not depend on it)"},
    {"--json", .type = CLI_SWITCH, CLI_FIELD(replay, json), .help = "the summary as JSON on stdout"},
    {"--accept-cut", .type = CLI_SWITCH, CLI_FIELD(replay, accept_cut),
     .help = "a last log without its end line replays what it holds and exits 0"},
    {"--export-web", .type = CLI_CUSTOM, .parse = replay_parse_export, .value_name = "FILE",
     .help = "also write the session for the browser: world info, hulls and full\n"
             "snapshots in one file (docs/protocol.md, \"Replay files\"); open it in the\n"
             "page with ?replay=URL or its Open button. Removed if the replay diverges"},
    {"--rate", .type = CLI_DOUBLE, CLI_FIELD(replay, rate_hz), .check = replay_check_rate, .value_name = "HZ",
     .help = "snapshots per second of sim time in that file (default 20; at most the tick rate)"},
    {0}};

static const cli_spec replay_spec = {
    .prog = "naval-replay",
    .synopsis = "naval-replay CHECKPOINT LOG [LOG...] [--threads K] [--json] [--accept-cut]\n"
                "                    [--export-web FILE [--rate HZ]]",
    .about = replay_about,
    .opts = replay_opts,
    .positional = replay_positional};

/* CLI_RUN, or the exit status (0 after --help, 2 after a usage error, said). */
static int replay_args(replay* r, int argc, char** argv) {
    r->threads = (uint32_t)nv_jobs_hardware_threads();
    int rc = cli_parse(&replay_spec, argc, argv, r);
    if (rc != CLI_RUN) return rc;
    if (!r->log_count) return cli_usage_error("naval-replay", "expected CHECKPOINT and LOG");
    if (r->rate_hz > 0.0 && !r->export_path) return cli_usage_error("naval-replay", "--rate: only with --export-web FILE");
    if (r->rate_hz == 0.0) r->rate_hz = REPLAY_DEFAULT_RATE_HZ;
    r->log_path = r->log_paths[0];
    return CLI_RUN;
}

/* The log's base must be this checkpoint: same tick, same world. */
static int replay_open(replay* r, nv_error* err) {
    if (record_reader_open(&r->log, r->log_path, err)) return -1;
    nv_checkpoint c;
    if (nv_checkpoint_read_file(r->checkpoint_path, &c, err)) return -1;
    int rc = 0;
    if (c.tick != r->log.base_tick || c.state_hash != r->log.base_hash)
        rc = nv_error_set(err,
                          "%s is tick %" PRIu64 " (hash %016" PRIx64 ") but %s starts from tick %" PRIu64
                          " (hash %016" PRIx64 ", %s): not this log's base checkpoint",
                          r->checkpoint_path, c.tick, c.state_hash, r->log_path, r->log.base_tick, r->log.base_hash,
                          r->log.base_path);
    else if (sim_restore(&r->sim, &c, r->threads, 0, &r->owners, err))
        rc = nv_error_prefix(err, "%s", r->checkpoint_path);
    r->first_base_tick = r->log.base_tick;
    nv_checkpoint_free(&c);
    return rc;
}

/* One logged event at its tick; -1 sets r->failure. */
static int replay_event(replay* r, const record_event* ev) {
    nv_world* w = r->sim.world;
    nv_error err;
    uint64_t line = ev->line;
    switch (ev->kind) {
    case RECORD_HASH: {
        uint64_t h = nv_world_state_hash(w);
        if (h == ev->hash) {
            r->matched++;
            return 0;
        }
        r->mismatch_tick = ev->tick;
        r->expected = ev->hash;
        r->got = h;
        snprintf(r->failure, sizeof r->failure,
                 "%.300s:%" PRIu64 ": tick %" PRIu64 ": state hash %016" PRIx64 " expected, got %016" PRIx64,
                 r->log.path, line, ev->tick, ev->hash, h);
        return -1;
    }
    case RECORD_SPAWN: {
        uint32_t id;
        proto_token token;
        if (apply_spawn(&r->sim, &r->owners, 0, ev->type, ev->x, ev->z, ev->heading, &ev->token, &id, &token, &err)) {
            snprintf(r->failure, sizeof r->failure, "%.300s:%" PRIu64 ": tick %" PRIu64 ": %s", r->log.path, line,
                     ev->tick, err.message);
            return -1;
        }
        if (id != ev->id) {
            snprintf(r->failure, sizeof r->failure,
                     "%.300s:%" PRIu64 ": tick %" PRIu64 ": the spawn made vessel %u, the log says %u", r->log.path,
                     line, ev->tick, id, ev->id);
            return -1;
        }
        r->spawns++;
        return 0;
    }
    case RECORD_CONTROL:
        if (apply_control(&r->sim, ev->id, ev->throttle, ev->rudder, NULL, &err)) break;
        r->controls++;
        return 0;
    case RECORD_DESPAWN:
        if (apply_despawn(&r->sim, &r->owners, ev->id, &err)) break;
        r->despawns++;
        return 0;
    case RECORD_CONTACT: {
        uint32_t n;
        const nv_world_contact_event* e = nv_world_contact_events(w, &n);
        if (ev->tick != nv_world_tick(w) || r->contact_next >= n) {
            snprintf(r->failure, sizeof r->failure,
                     "%.300s:%" PRIu64 ": tick %" PRIu64 ": the log has contact %u-%u, the replay made no more",
                     r->log.path, line, ev->tick, ev->id, ev->other);
            return -1;
        }
        const nv_world_contact_event* c = &e[r->contact_next++];
        if (c->id_a != ev->id || c->id_b != ev->other || c->structure != ev->structure ||
            c->closing_speed != ev->closing || c->impulse != ev->impulse) {
            snprintf(r->failure, sizeof r->failure,
                     "%.300s:%" PRIu64 ": tick %" PRIu64
                     ": contact %u-%u (closing %.17g, impulse %.17g) in the log, "
                     "%u-%u (closing %.17g, impulse %.17g) in the replay",
                     r->log.path, line, ev->tick, ev->id, ev->other, ev->closing, ev->impulse, c->id_a, c->id_b,
                     c->closing_speed, c->impulse);
            return -1;
        }
        r->contacts++;
        return 0;
    }
    case RECORD_BREACH:
        if (apply_breach(&r->sim, ev->id, ev->point, ev->area, NULL, &err)) break;
        r->breaches++;
        return 0;
    case RECORD_PUMPS:
        if (apply_pumps(&r->sim, ev->id, (int)ev->on, &err)) break;
        r->pumps++;
        return 0;
    case RECORD_DAMAGE: {
        uint32_t n;
        const nv_world_damage_event* e = nv_world_damage_events(w, &n);
        if (ev->tick != nv_world_tick(w) || r->damage_next >= n) {
            snprintf(r->failure, sizeof r->failure,
                     "%.300s:%" PRIu64 ": tick %" PRIu64 ": the log has damage to vessel %u, the replay made no more",
                     r->log.path, line, ev->tick, ev->id);
            return -1;
        }
        const nv_world_damage_event* d = &e[r->damage_next++];
        int64_t comp = d->compartment == UINT32_MAX ? -1 : (int64_t)d->compartment;
        if (d->id != ev->id || d->kind != ev->damage_kind || comp != ev->compartment) {
            snprintf(r->failure, sizeof r->failure,
                     "%.300s:%" PRIu64 ": tick %" PRIu64 ": damage %u to vessel %u (compartment %lld) in the log, %u "
                     "to vessel %u (compartment %lld) in the replay",
                     r->log.path, line, ev->tick, ev->damage_kind, ev->id, (long long)ev->compartment, d->kind, d->id,
                     (long long)comp);
            return -1;
        }
        r->damage_events++;
        return 0;
    }
    case RECORD_WORLD:
        /* The world's own operation (version 5), as the world recorded it. */
        if (nv_world_apply_op(w, &ev->op, &err)) break;
        if (ev->op.kind == NV_WORLD_OP_SPAWN) r->spawns++;
        else r->world_ops++;
        return 0;
    case RECORD_OWNER:
        if (owners_add_token(&r->owners, ev->id, 0, &ev->token)) {
            nv_error_fail(&err, NV_ENOMEM, "no owner entry could be made for vessel %u (out of memory)", ev->id);
            break;
        }
        return 0;
    case RECORD_END:
    case RECORD_NEXT:
        return 0;
    }
    snprintf(r->failure, sizeof r->failure, "%.300s:%" PRIu64 ": tick %" PRIu64 ": %s", r->log.path, line, ev->tick,
             err.message);
    return -1;
}

/* Every contact the last step made was in the log; else sets r->failure. */
static int replay_contacts_done(replay* r) {
    uint32_t n;
    const nv_world_contact_event* e = nv_world_contact_events(r->sim.world, &n);
    if (r->contact_next >= n || r->steps == 0) return 0;
    const nv_world_contact_event* c = &e[r->contact_next];
    snprintf(r->failure, sizeof r->failure,
             "%.300s: tick %" PRIu64 ": the replay made contact %u-%u, which the log does not have", r->log.path,
             nv_world_tick(r->sim.world), c->id_a, c->id_b);
    return -1;
}

/* Every damage event the last step made was in the log; else sets r->failure. */
static int replay_damage_done(replay* r) {
    uint32_t n;
    const nv_world_damage_event* e = nv_world_damage_events(r->sim.world, &n);
    if (r->damage_next >= n || r->steps == 0) return 0;
    snprintf(r->failure, sizeof r->failure,
             "%.300s: tick %" PRIu64 ": the replay made damage %u to vessel %u, which the log does not have",
             r->log.path, nv_world_tick(r->sim.world), e[r->damage_next].kind, e[r->damage_next].id);
    return -1;
}

/* The export's file, from the restored world as the log begins; a file
 * that cannot be created is an input error (exit 2), a write that fails
 * a run-time one (export_failed: exit 1). */
static int replay_export_begin(replay* r, nv_error* err) {
    char name[PROTO_NAME_MAX];
    const char* base = strrchr(r->log_path, '/');
    snprintf(name, sizeof name, "replay of %.40s", base ? base + 1 : r->log_path);
    if (replay_export_open(&r->out, r->export_path, &r->sim, r->rate_hz, name, err)) {
        r->export_failed = r->out != NULL; /* created, then a write failed: a run-time failure */
        nv_error ignored;
        replay_export_close(r->out, 0, &ignored);
        r->out = NULL;
        return -1;
    }
    return 0;
}

/* The next log, which must go on from the world as the replay left it
 * (its base: this tick and this state hash). */
static int replay_next_log(replay* r, nv_error* err) {
    const char* before = r->log_path;
    int ended = r->log.ended;
    record_reader_close(&r->log);
    r->log_path = r->log_paths[++r->log_index];
    if (record_reader_open(&r->log, r->log_path, err)) return -1;
    nv_world* w = r->sim.world;
    uint64_t tick = nv_world_tick(w), hash = nv_world_state_hash(w);
    if (r->log.base_tick == tick && r->log.base_hash == hash) return 0;
    return nv_error_set(err,
                        "%s starts from tick %" PRIu64 " (hash %016" PRIx64 ") but %s %s at tick %" PRIu64
                        " (hash %016" PRIx64 "): not the log that goes on from it",
                        r->log_path, r->log.base_tick, r->log.base_hash, before,
                        ended ? "ended" : "was cut short (no end line)", tick, hash);
}

/* The log being read, to its end. */
static int replay_run_log(replay* r, nv_error* err) {
    record_event ev;
    int got;
    while ((got = record_read(&r->log, &ev, err)) == 1) {
        while (nv_world_tick(r->sim.world) < ev.tick) {
            if (replay_contacts_done(r) || replay_damage_done(r)) return 1;
            sim_step(&r->sim);
            apply_removals(&r->sim, &r->owners, NULL, NULL);
            r->steps++;
            if (r->out && replay_export_step(r->out, &r->sim, err)) {
                r->export_failed = 1;
                return -1;
            }
            r->contact_next = 0;
            r->damage_next = 0;
        }
        if (replay_event(r, &ev)) return 1;
    }
    if (got == 0 && r->log.ended && (replay_contacts_done(r) || replay_damage_done(r))) return 1;
    return got < 0 ? -1 : 0;
}

/* 0 when every log replayed, 1 when it diverged, -1 unreadable. */
static int replay_run(replay* r, nv_error* err) {
    for (;;) {
        int rc = replay_run_log(r, err);
        if (rc || r->log_index + 1 >= r->log_count) return rc;
        if (replay_next_log(r, err)) return -1;
    }
}

static void replay_print(const replay* r, int ok, double seconds) {
    uint64_t end = nv_world_tick(r->sim.world);
    if (r->json) {
        printf("{\"checkpoint\": \"%s\", \"log\": \"%s\", \"threads\": %u, \"base_tick\": %" PRIu64
               ", \"end_tick\": %" PRIu64 ", \"steps\": %" PRIu64 ", \"spawns\": %" PRIu64 ", \"controls\": %" PRIu64
               ", \"despawns\": %" PRIu64 ", \"hashes_matched\": %" PRIu64 ", \"contacts_matched\": %" PRIu64
               ", \"breaches\": %" PRIu64 ", \"pumps\": %" PRIu64 ", \"damage_events_matched\": %" PRIu64
               ", \"clean_end\": %s, \"cut\": %s, \"logs\": %d, \"ok\": %s",
               r->checkpoint_path, r->log_path, r->threads, r->first_base_tick, end, r->steps, r->spawns, r->controls,
               r->despawns, r->matched, r->contacts, r->breaches, r->pumps, r->damage_events,
               r->log.ended ? "true" : "false", r->log.ended ? "false" : "true", r->log_index + 1,
               ok ? "true" : "false");
        printf(", \"world_ops\": %" PRIu64 ", \"state_hash\": \"%016" PRIx64 "\"", r->world_ops,
               nv_world_state_hash(r->sim.world));
        if (r->export_path && ok)
            printf(", \"export_web\": \"%s\", \"exported_snapshots\": %u, \"export_stride\": %u", r->export_path,
                   r->exported, r->export_stride);
        if (r->expected != r->got)
            printf(", \"mismatch_tick\": %" PRIu64 ", \"expected\": \"%016" PRIx64 "\", \"got\": \"%016" PRIx64 "\"",
                   r->mismatch_tick, r->expected, r->got);
        printf(", \"seconds\": %.3f}\n", seconds);
        return;
    }
    printf("replayed ticks %" PRIu64 "..%" PRIu64 " (%" PRIu64 " steps, %.2f s): %" PRIu64 " spawns, %" PRIu64
           " controls, %" PRIu64 " despawns\n",
           r->first_base_tick, end, r->steps, seconds, r->spawns, r->controls, r->despawns);
    if (r->log_index > 0) printf("%d logs in a row, the last %s\n", r->log_index + 1, r->log_path);
    printf("%" PRIu64 " state hash%s matched%s\n", r->matched, r->matched == 1 ? "" : "es",
           ok ? "" : (r->cut ? " (the log is cut short)" : " before the mismatch"));
    if (r->export_path && ok)
        printf("exported %u snapshots (every %u ticks and the last) to %s\n", r->exported, r->export_stride,
               r->export_path);
    if (ok && !r->log.ended)
        printf("note: the log has no end line (the server did not stop cleanly), accepted (--accept-cut)%s\n",
               r->log.partial ? "; its last, partial line was ignored" : "");
    if (r->log.next[0])
        printf("note: the session goes on in %s (name it after %s to replay on)\n", r->log.next, r->log_path);
}

int main(int argc, char** argv) {
    static replay r;
    nv_error err;
    int parsed = replay_args(&r, argc, argv);
    if (parsed != CLI_RUN) return parsed;
    log_set_level(LOG_LEVEL_WARN);
    int code = 2;
    uint64_t t0 = uv_hrtime();
    if (replay_open(&r, &err)) {
        fprintf(stderr, "naval-replay: %s\n", err.message);
    } else if (r.export_path && replay_export_begin(&r, &err)) {
        fprintf(stderr, "naval-replay: --export-web: %s\n", err.message);
        code = r.export_failed ? 1 : 2;
    } else {
        int rc = replay_run(&r, &err);
        /* A log without its end line: the server was killed or the file
         * cut; what it holds matched, but the session is not all there. */
        if (rc == 0 && !r.log.ended && !r.accept_cut) {
            r.cut = 1;
            rc = 1;
            snprintf(r.failure, sizeof r.failure,
                     "%.300s ends without its end line after line %" PRIu64 " (tick %" PRIu64
                     "%s): the server was killed or the file cut short; what it holds matched (--accept-cut to "
                     "accept a cut log)",
                     r.log_path, r.log.line, r.log.last_tick, r.log.partial ? ", a partial last line ignored" : "");
        }
        /* The file is the session only when the whole log replayed. */
        if (r.out && rc == 0 && replay_export_finish(r.out, &r.sim, &err)) {
            r.export_failed = 1;
            rc = -1;
        }
        r.export_stride = replay_export_stride(r.out);
        r.exported = replay_export_snapshots(r.out);
        if (replay_export_close(r.out, rc == 0, &err)) {
            r.export_failed = 1;
            rc = -1;
        }
        r.out = NULL;
        if (rc < 0) {
            fprintf(stderr, "naval-replay: %s%s\n", r.export_failed ? "--export-web: " : "", err.message);
            code = r.export_failed ? 1 : 2;
        } else {
            replay_print(&r, rc == 0, (double)(uv_hrtime() - t0) * 1e-9);
            if (rc) fprintf(stderr, "naval-replay: %s\n", r.failure);
            if (rc && r.export_path)
                fprintf(stderr, "naval-replay: %s removed: %s\n", r.export_path,
                        r.cut ? "the log is cut short" : "not the recorded session");
            code = rc ? 1 : 0;
        }
    }
    replay_export_close(r.out, 0, &err);
    record_reader_close(&r.log);
    owners_free(&r.owners);
    if (r.sim.world) sim_destroy(&r.sim);
    return code;
}
