// SPDX-License-Identifier: MIT
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

void report_add_streams(report_role* r, sub_stream* const* subs, uint32_t n, double seconds) {
    report_stream* s = &r->snaps;
    samples lat = {0};
    for (uint32_t i = 0; i < n; i++) {
        if (!subs[i]) continue;
        sub_totals t;
        sub_totals_get(subs[i], &t);
        s->clients++;
        s->messages += t.messages;
        s->bytes += t.bytes;
        s->ticks_missed += t.ticks_missed;
        s->undecodable += t.undecodable;
        s->out_of_order += t.out_of_order;
        if (t.vessels_last) s->vessels_last = t.vessels_last;
        if (t.last_error[0]) snprintf(s->last_error, sizeof s->last_error, "%s", t.last_error);
        samples_merge(&lat, sub_latency_ms(subs[i]));
    }
    if (s->clients && seconds > 0.0) {
        s->snapshots_per_s = (double)s->messages / s->clients / seconds;
        s->bytes_per_s = (double)s->bytes / s->clients / seconds;
    }
    uint64_t expected = s->messages + s->ticks_missed;
    s->drop_rate = expected ? (double)s->ticks_missed / (double)expected : (s->clients ? 1.0 : 0.0);
    s->latency_p50 = samples_percentile(&lat, 50);
    s->latency_p99 = samples_percentile(&lat, 99);
    s->latency_max = samples_max(&lat);
    samples_free(&lat);
}

void report_add_players(report_role* r, player* const* players, uint32_t n, double seconds) {
    samples rtt = {0};
    sub_stream** subs = calloc(n ? n : 1, sizeof *subs);
    uint32_t nsubs = 0;
    if (!subs) return;
    for (uint32_t i = 0; i < n; i++) {
        player_totals t;
        player_totals_get(players[i], &t);
        r->players++;
        r->spawned += t.spawned;
        r->despawned += t.despawned;
        r->commands += t.commands;
        r->command_errors += t.command_errors;
        r->setup_errors += t.setup_errors;
        if (t.last_error[0]) snprintf(r->last_error, sizeof r->last_error, "%s", t.last_error);
        samples_merge(&rtt, player_rtt_ms(players[i]));
        if (player_sub(players[i])) subs[nsubs++] = player_sub(players[i]);
    }
    report_add_streams(r, subs, nsubs, seconds);
    free(subs);
    r->commands_per_s = seconds > 0.0 ? (double)r->commands / seconds : 0.0;
    r->rtt_p50 = samples_percentile(&rtt, 50);
    r->rtt_p99 = samples_percentile(&rtt, 99);
    r->rtt_max = samples_max(&rtt);
    samples_free(&rtt);
}

static double report_min(double a, double b) { return isnan(a) || b < a ? b : a; }
static double report_max(double a, double b) { return isnan(a) || b > a ? b : a; }

/* One player's view into the sums; its kbit/s. */
static double report_add_view(report_views* r, pview* v, double seconds, double tick_hz, hist errors[2],
                              samples* lat, samples* join) {
    pview_totals t;
    pview_totals_get(v, &t);
    r->players++;
    if (t.window_ticks && tick_hz > 0.0)
        r->kbps_sim_max = report_max(r->kbps_sim_max, (double)t.bytes * 8.0 / 1000.0 / ((double)t.window_ticks / tick_hz));
    r->updates_per_s += seconds > 0.0 ? (double)t.updates / seconds : 0.0;
    r->held_mean += t.updates ? (double)t.held_sum / (double)t.updates : 0.0;
    r->keyframes += t.keyframes;
    r->refusals += t.refusals;
    r->undecodable += t.undecodable;
    r->truth_missing += t.truth_missing;
    if (t.last_error[0]) snprintf(r->last_error, sizeof r->last_error, "%s", t.last_error);
    r->joined += (uint32_t)t.joined;
    samples_add(join, t.joined ? t.join_ms : INFINITY);
    double near_hz, view_hz;
    pview_rates(v, REPORT_MIN_STAY_S, &near_hz, &view_hz);
    if (!isnan(near_hz)) r->near_hz_min = report_min(r->near_hz_min, near_hz);
    if (!isnan(view_hz)) r->view_hz_min = report_min(r->view_hz_min, view_hz);
    hist_merge(&errors[0], pview_error_near(v));
    hist_merge(&errors[1], pview_error_far(v));
    samples_merge(lat, pview_latency_ms(v));
    return seconds > 0.0 ? (double)t.bytes * 8.0 / 1000.0 / seconds : NAN;
}

void report_add_views(report_views* r, player* const* players, uint32_t n, double seconds, double tick_hz) {
    memset(r, 0, sizeof *r);
    r->kbps_max = r->kbps_sim_max = r->near_hz_min = r->view_hz_min = NAN;
    hist* errors = calloc(2, sizeof *errors); /* near, far */
    samples lat = {0}, join = {0};
    if (!errors) return;
    for (uint32_t i = 0; i < n; i++) {
        pview* v = player_view(players[i]);
        if (!v) continue;
        double kbps = report_add_view(r, v, seconds, tick_hz, errors, &lat, &join);
        r->kbps_mean += kbps;
        r->kbps_max = report_max(r->kbps_max, kbps);
    }
    double k = r->players ? (double)r->players : NAN;
    r->kbps_mean /= k;
    r->updates_per_s /= k;
    r->held_mean /= k;
    r->error_near_p99 = hist_percentile(&errors[0], 99);
    r->error_far_p99 = hist_percentile(&errors[1], 99);
    r->error_near_n = errors[0].n;
    r->error_far_n = errors[1].n;
    free(errors);
    r->join_ms_p99 = samples_percentile(&join, 99);
    r->latency_p50 = samples_percentile(&lat, 50);
    r->latency_p99 = samples_percentile(&lat, 99);
    samples_free(&lat);
    samples_free(&join);
}

/* Views' thresholds: a figure that could not be measured misses its threshold. */
static int report_check_views(const report_views* v, const report_limits* lim, char* why, size_t n, size_t* used) {
    int failed = 0;
#define REPORT_VIEW_WHY(...)                                                              \
    do {                                                                                  \
        failed++;                                                                         \
        if (*used < n) *used += (size_t)snprintf(why + *used, n - *used, __VA_ARGS__);    \
    } while (0)
    if (lim->max_kbps_per_player > 0.0 && !(v->kbps_max <= lim->max_kbps_per_player))
        REPORT_VIEW_WHY("views: %.1f kbit/s for a player > %g\n", v->kbps_max, lim->max_kbps_per_player);
    if (lim->min_near_hz > 0.0 && !(v->near_hz_min >= lim->min_near_hz))
        REPORT_VIEW_WHY("views: near boats updated at %.2f Hz < %g\n", v->near_hz_min, lim->min_near_hz);
    if (lim->min_view_hz > 0.0 && !(v->view_hz_min >= lim->min_view_hz))
        REPORT_VIEW_WHY("views: boats in view updated at %.2f Hz < %g\n", v->view_hz_min, lim->min_view_hz);
    if (lim->max_join_ms > 0.0 && !(v->join_ms_p99 <= lim->max_join_ms))
        REPORT_VIEW_WHY("views: join p99 %.0f ms > %g ms (%u of %u players joined)\n", v->join_ms_p99,
                        lim->max_join_ms, v->joined, v->players);
#undef REPORT_VIEW_WHY
    return failed;
}

int report_check(const report_role* roles, int nroles, const report_server* srv, const report_views* views,
                 const report_limits* lim, char* why, size_t n) {
    size_t used = 0;
    int failed = 0;
    why[0] = '\0';
#define REPORT_WHY(...)                                                                   \
    do {                                                                                  \
        failed++;                                                                         \
        if (used < n) used += (size_t)snprintf(why + used, n - used, __VA_ARGS__);        \
    } while (0)
    if (lim->max_p99_tick_ms > 0.0) {
        if (isnan(srv->tick_p99))
            REPORT_WHY("server tick p99: no snapshot carried it (threshold %g ms)\n", lim->max_p99_tick_ms);
        else if (srv->tick_p99 > lim->max_p99_tick_ms)
            REPORT_WHY("server tick p99 %.3f ms > %g ms\n", srv->tick_p99, lim->max_p99_tick_ms);
    }
    if (lim->max_overrun_rate >= 0.0) {
        if (!srv->window_ticks)
            REPORT_WHY("server overruns: no ticks seen in the window (threshold %g %%)\n", lim->max_overrun_rate * 100.0);
        else if (srv->overrun_rate > lim->max_overrun_rate)
            REPORT_WHY("server overruns %.2f %% of ticks > %g %% (%llu overruns in %llu ticks)\n",
                       srv->overrun_rate * 100.0, lim->max_overrun_rate * 100.0, (unsigned long long)srv->overruns,
                       (unsigned long long)srv->window_ticks);
    }
    if (lim->max_drop_rate >= 0.0 && srv->drop_rate > lim->max_drop_rate)
        REPORT_WHY("monitor: ticks missed %.2f %% > %g %% (%llu ticks missed, %llu received)\n", srv->drop_rate * 100.0,
                   lim->max_drop_rate * 100.0, (unsigned long long)srv->ticks_missed,
                   (unsigned long long)srv->snapshots);
    for (int i = 0; i < nroles; i++) {
        const report_role* r = &roles[i];
        if (r->boats_wanted && r->spawned < r->boats_wanted)
            REPORT_WHY("%s: spawned %u of %u boats of type '%s'%s%s\n", r->name, r->spawned, r->boats_wanted,
                       r->type_name ? r->type_name : "?", r->last_error[0] ? ": " : "", r->last_error);
    }
    if (lim->max_drop_rate >= 0.0)
        for (int i = 0; i < nroles; i++) {
            const report_stream* s = &roles[i].snaps;
            if (s->clients && s->drop_rate > lim->max_drop_rate)
                REPORT_WHY("%s: drop rate %.5f (%.2f %% of ticks missed) > %g (%llu ticks missed, %llu received)\n",
                           roles[i].name, s->drop_rate, s->drop_rate * 100.0, lim->max_drop_rate, (unsigned long long)s->ticks_missed, (unsigned long long)s->messages);
        }
#undef REPORT_WHY
    if (views) failed += report_check_views(views, lim, why, n, &used);
    return failed;
}

static void report_num(FILE* out, double v, int digits) {
    if (isfinite(v)) fprintf(out, "%.*f", digits, v);
    else fputs("null", out);
}

static void report_json_string(FILE* out, const char* s) {
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(out, "\\%c", c);
        else if (c < 0x20) fprintf(out, "\\u%04x", c);
        else fputc(c, out);
    }
    fputc('"', out);
}

static void report_role_json(FILE* out, const report_role* r) {
    const report_stream* s = &r->snaps;
    fprintf(out, "    ");
    report_json_string(out, r->name);
    fprintf(out, ": {\"clients\": %u, \"snapshots_per_s\": ", s->clients);
    report_num(out, s->snapshots_per_s, 2);
    fprintf(out, ", \"snapshots\": %llu, \"ticks_missed\": %llu, \"drop_rate\": ", (unsigned long long)s->messages,
            (unsigned long long)s->ticks_missed);
    report_num(out, s->drop_rate, 6);
    fprintf(out, ",\n      \"latency_ms\": {\"p50\": ");
    report_num(out, s->latency_p50, 3);
    fprintf(out, ", \"p99\": ");
    report_num(out, s->latency_p99, 3);
    fprintf(out, ", \"max\": ");
    report_num(out, s->latency_max, 3);
    fprintf(out, "}, \"bytes_per_s\": ");
    report_num(out, s->bytes_per_s, 0);
    fprintf(out, ", \"vessels_in_snapshot\": %u", s->vessels_last);
    uint64_t errors = s->undecodable + s->out_of_order + r->command_errors + r->setup_errors;
    fprintf(out, ",\n      \"errors\": %llu, \"undecodable\": %llu, \"out_of_order\": %llu", (unsigned long long)errors,
            (unsigned long long)s->undecodable, (unsigned long long)s->out_of_order);
    if (r->players) {
        fprintf(out, ",\n      \"players\": %u, \"boats_wanted\": %u, \"boats_spawned\": %u, \"boats_despawned\": %u, "
                     "\"commands\": %llu, \"commands_per_s\": ",
                r->players, r->boats_wanted, r->spawned, r->despawned, (unsigned long long)r->commands);
        report_num(out, r->commands_per_s, 2);
        fprintf(out, ", \"command_errors\": %llu, \"setup_errors\": %llu,\n      \"command_rtt_ms\": {\"p50\": ",
                (unsigned long long)r->command_errors, (unsigned long long)r->setup_errors);
        report_num(out, r->rtt_p50, 3);
        fprintf(out, ", \"p99\": ");
        report_num(out, r->rtt_p99, 3);
        fprintf(out, ", \"max\": ");
        report_num(out, r->rtt_max, 3);
        fputc('}', out);
    }
    const char* err = r->last_error[0] ? r->last_error : s->last_error;
    if (err[0]) {
        fprintf(out, ",\n      \"last_error\": ");
        report_json_string(out, err);
    }
    fputc('}', out);
}

static void report_views_json(FILE* out, const report_views* v) {
    if (!v) {
        fprintf(out, "null");
        return;
    }
    const struct {
        const char* name;
        double value;
        int digits;
    } f[] = {
        {"kbps_per_player_mean", v->kbps_mean, 2}, {"kbps_per_player_max", v->kbps_max, 2},
        {"near_hz_min", v->near_hz_min, 2},       {"view_hz_min", v->view_hz_min, 2},
        {"error_near_m_p99", v->error_near_p99, 5}, {"error_far_m_p99", v->error_far_p99, 4},
        {"join_ms_p99", v->join_ms_p99, 1},       {"kbps_per_player_sim_max", v->kbps_sim_max, 2},
        {"updates_per_s", v->updates_per_s, 2},   {"latency_ms_p50", v->latency_p50, 3},
        {"latency_ms_p99", v->latency_p99, 3},    {"vessels_held_mean", v->held_mean, 1},
    };
    fprintf(out, "{");
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        fprintf(out, "%s\"%s\": ", i ? (i % 4 ? ", " : ",\n    ") : "", f[i].name);
        report_num(out, f[i].value, f[i].digits);
    }
    fprintf(out, ",\n    \"players\": %u, \"joined\": %u, \"error_samples_near\": %llu, \"error_samples_far\": %llu, "
                 "\"keyframes\": %llu, \"refusals\": %llu, \"undecodable\": %llu, \"truth_ticks_missing\": %llu",
            v->players, v->joined, (unsigned long long)v->error_near_n, (unsigned long long)v->error_far_n,
            (unsigned long long)v->keyframes, (unsigned long long)v->refusals, (unsigned long long)v->undecodable,
            (unsigned long long)v->truth_missing);
    if (v->last_error[0]) {
        fprintf(out, ", \"last_error\": ");
        report_json_string(out, v->last_error);
    }
    fputc('}', out);
}

void report_print_json(FILE* out, const char* config_json, const report_role* roles, int nroles,
                       const report_server* srv, const report_views* views, double seconds, double cpu_s,
                       const char* why, const char* ramp_json) {
    fprintf(out, "{\n  \"config\": %s,\n  \"measured_s\": ", config_json);
    report_num(out, seconds, 3);
    fprintf(out, ", \"tester_cpu_s\": ");
    report_num(out, cpu_s, 3);
    fprintf(out, ", \"tester_peak_rss_mib\": ");
    report_num(out, report_peak_rss_mib(), 1);
    fprintf(out, ",\n  \"ramp\": %s", ramp_json ? ramp_json : "null");
    fprintf(out, ",\n  \"server\": {\"tick_ms\": {\"p50\": ");
    report_num(out, srv->tick_p50, 3);
    fprintf(out, ", \"p99\": ");
    report_num(out, srv->tick_p99, 3);
    fprintf(out, ", \"max\": ");
    report_num(out, srv->tick_max, 3);
    fprintf(out, "}, \"overruns\": %llu, \"snapshots_seen\": %llu, \"ticks_missed\": %llu, \"vessels\": %u",
            (unsigned long long)srv->overruns, (unsigned long long)srv->snapshots,
            (unsigned long long)srv->ticks_missed, srv->vessels);
    fprintf(out, ",\n    \"figures\": \"in_window\", \"ticks_in_window\": %llu, \"overrun_rate\": ",
            (unsigned long long)srv->window_ticks);
    report_num(out, srv->overrun_rate, 6);
    fprintf(out, ", \"drop_rate\": ");
    report_num(out, srv->drop_rate, 6);
    if (srv->have_stats) {
        const proto_stats* st = &srv->stats;
        fprintf(out, ",\n    \"reported\": {\"figures\": \"since_server_start\", \"tick_hz\": %g, \"vessels\": %u, \"clients\": %u, \"subscribers\": %u, "
                     "\"step_ms_p50\": ",
                st->tick_hz, st->vessel_count, st->clients, st->subscribers);
        report_num(out, st->step_ms_p50, 3);
        fprintf(out, ", \"step_ms_p99\": ");
        report_num(out, st->step_ms_p99, 3);
        fprintf(out, ", \"step_ms_max\": ");
        report_num(out, st->step_ms_max, 3);
        fprintf(out, ", \"overruns\": %llu, \"requests\": %llu, \"request_errors\": %llu}",
                (unsigned long long)st->overruns, (unsigned long long)st->requests,
                (unsigned long long)st->request_errors);
    }
    fprintf(out, ",\n    \"passes_ms_per_tick\": ");
    scrape_print_json(out, &srv->passes_from, &srv->passes_to);
    char passes[512];
    scrape_format(passes, sizeof passes, &srv->passes_from, &srv->passes_to);
    fprintf(out, ", \"passes\": ");
    report_json_string(out, passes);
    fprintf(out, "},\n  \"roles\": {\n");
    for (int i = 0; i < nroles; i++) {
        report_role_json(out, &roles[i]);
        fputs(i + 1 < nroles ? ",\n" : "\n", out);
    }
    fprintf(out, "  },\n  \"stream\": ");
    report_views_json(out, views);
    fprintf(out, ",\n  \"passed\": %s, \"failures\": [", why[0] ? "false" : "true");
    const char* p = why;
    int first = 1;
    while (*p) {
        const char* nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char line[512];
        snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line ? len : sizeof line - 1), p);
        if (!first) fputs(", ", out);
        report_json_string(out, line);
        first = 0;
        p += len + (nl ? 1 : 0);
    }
    fprintf(out, "]\n}\n");
}

/* "%.*f UNIT", or "no samples" where nothing was measured (never "nan"). */
static const char* report_f(char* buf, size_t n, int digits, double v, const char* unit) {
    if (isfinite(v)) snprintf(buf, n, "%.*f%s", digits, v, unit);
    else snprintf(buf, n, isinf(v) && v > 0 ? "inf" : "no samples");
    return buf;
}

static void report_views_text(FILE* out, const report_views* v) {
    char b[10][32];
    fprintf(out, "views: %u players, %s per player (max %s; %s per simulated second), %s, "
                 "%s held, latency p50 %s, p99 %s\n",
            v->players, report_f(b[0], 32, 1, v->kbps_mean, " kbit/s"), report_f(b[1], 32, 1, v->kbps_max, ""),
            report_f(b[2], 32, 1, v->kbps_sim_max, ""), report_f(b[3], 32, 1, v->updates_per_s, " updates/s"),
            report_f(b[4], 32, 0, v->held_mean, " vessels"), report_f(b[5], 32, 2, v->latency_p50, " ms"),
            report_f(b[6], 32, 2, v->latency_p99, " ms"));
    fprintf(out, "  update rate: near >= %s, in view >= %s (boats there >= %g s)\n",
            report_f(b[0], 32, 2, v->near_hz_min, " Hz"), report_f(b[1], 32, 2, v->view_hz_min, " Hz"), REPORT_MIN_STAY_S);
    fprintf(out, "  error p99: near %s, far %s (%llu + %llu compared); join p99 %s (%u of %u joined)\n",
            report_f(b[0], 32, 4, v->error_near_p99, " m"), report_f(b[1], 32, 4, v->error_far_p99, " m"),
            (unsigned long long)v->error_near_n, (unsigned long long)v->error_far_n,
            report_f(b[2], 32, 0, v->join_ms_p99, " ms"), v->joined, v->players);
    if (v->refusals || v->undecodable || v->truth_missing)
        fprintf(out, "  %llu refusals, %llu undecodable updates, %llu truth ticks missing\n",
                (unsigned long long)v->refusals, (unsigned long long)v->undecodable,
                (unsigned long long)v->truth_missing);
    if (v->last_error[0]) fprintf(out, "  views: last error: %s\n", v->last_error);
}

double report_peak_rss_mib(void) {
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru)) return NAN;
    return (double)ru.ru_maxrss / 1024.0; /* KiB on Linux */
}

const char* report_ms(char* buf, size_t n, double v) {
    if (isfinite(v)) snprintf(buf, n, "%.3f ms", v);
    else snprintf(buf, n, "no samples");
    return buf;
}

/* A table cell: "%7.2fms", or "-" where nothing was measured. */
static const char* report_cell(char* buf, size_t n, double v) {
    if (isfinite(v)) snprintf(buf, n, "%7.2fms", v);
    else snprintf(buf, n, "%9s", "-");
    return buf;
}

void report_print_text(FILE* out, const report_role* roles, int nroles, const report_server* srv,
                       const report_views* views, double seconds, const char* why) {
    char a[32], b[32], c[32], d[32], e[32];
    fprintf(out, "measured %.1f s; server in the window: %u vessels, %llu ticks, tick p50 %s, p99 %s, max %s, "
                 "%llu overruns (%.2f %% of ticks), monitor missed %llu ticks (%.2f %%)\n",
            seconds, srv->vessels, (unsigned long long)srv->window_ticks, report_ms(a, sizeof a, srv->tick_p50),
            report_ms(b, sizeof b, srv->tick_p99), report_ms(c, sizeof c, srv->tick_max),
            (unsigned long long)srv->overruns, isfinite(srv->overrun_rate) ? srv->overrun_rate * 100.0 : 0.0,
            (unsigned long long)srv->ticks_missed, srv->drop_rate * 100.0);
    if (srv->have_stats)
        fprintf(out, "server's own figures since it started (not the window): step p50 %s, p99 %s, %llu overruns, "
                     "%u subscribers, %u clients, %llu request errors\n",
                report_ms(a, sizeof a, srv->stats.step_ms_p50), report_ms(b, sizeof b, srv->stats.step_ms_p99),
                (unsigned long long)srv->stats.overruns, srv->stats.subscribers, srv->stats.clients,
                (unsigned long long)srv->stats.request_errors);
    char passes[512];
    scrape_format(passes, sizeof passes, &srv->passes_from, &srv->passes_to);
    fprintf(out, "server's passes in the window, ms per tick (/metrics): %s\n", passes);
    fprintf(out, "%-15s %7s %9s %8s %7s %9s %9s %9s %10s %9s %9s %7s\n", "role", "clients", "snaps/s", "missed",
            "drop %", "lat p50", "lat p99", "lat max", "KiB/s", "rtt p50", "rtt p99", "errors");
    for (int i = 0; i < nroles; i++) {
        const report_role* r = &roles[i];
        const report_stream* s = &r->snaps;
        if (!s->clients && !r->players) continue;
        uint64_t errors = s->undecodable + s->out_of_order + r->command_errors + r->setup_errors;
        if (s->clients)
            fprintf(out, "%-15s %7u %9.2f %8llu %7.2f %s %s %s %10.1f ", r->name, r->players ? r->players : s->clients,
                    s->snapshots_per_s, (unsigned long long)s->ticks_missed, s->drop_rate * 100.0,
                    report_cell(a, sizeof a, s->latency_p50), report_cell(b, sizeof b, s->latency_p99),
                    report_cell(c, sizeof c, s->latency_max), s->bytes_per_s / 1024.0);
        else /* players with views: their figures follow under "views" */
            fprintf(out, "%-15s %7u %9s %8s %7s %9s %9s %9s %10s ", r->name, r->players, "-", "-", "-", "-", "-", "-",
                    "-");
        if (r->players) fprintf(out, "%s %s", report_cell(d, sizeof d, r->rtt_p50), report_cell(e, sizeof e, r->rtt_p99));
        else fprintf(out, "%9s %9s", "-", "-");
        fprintf(out, " %7llu\n", (unsigned long long)errors);
        const char* err = r->last_error[0] ? r->last_error : s->last_error;
        if (err[0]) fprintf(out, "  %s: last error: %s\n", r->name, err);
        if (r->players)
            fprintf(out, "  players: %u of %u boats spawned, %u despawned, %.1f commands/s\n", r->spawned,
                    r->boats_wanted, r->despawned, r->commands_per_s);
    }
    if (views) report_views_text(out, views);
    fprintf(out, "tester: peak RSS %.1f MiB\n", report_peak_rss_mib());
    if (why[0]) fprintf(out, "THRESHOLDS MISSED:\n%s", why);
    else fprintf(out, "all thresholds met\n");
}
