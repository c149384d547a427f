// SPDX-License-Identifier: MIT
/* naval-envelope's results: each case over the seeds, each type's verdict,
 * the table and the JSON, in a fixed order whatever ran the worlds. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "envelope.h"

/* One case (type, Beaufort, speed, heading) over the seeds. */
typedef struct env_case {
    uint32_t capsized, frozen;
    double first_capsize; /* s, -1 when none */
    double max_heel, mean_speed, heading_rms;
} env_case;

static env_case env_case_of(const env_ctx* c, uint32_t bi, uint32_t boat) {
    const env_args* a = c->a;
    env_case k = {0, 0, -1.0, 0.0, 0.0, 0.0};
    double speed = 0.0, sq = 0.0;
    uint64_t samples = 0;
    for (uint32_t si = 0; si < a->seeds; si++) {
        const env_run* r = &c->runs[((size_t)bi * a->seeds + si) * c->boats + boat];
        k.capsized += (uint32_t)r->capsized;
        k.frozen += (uint32_t)r->frozen;
        if (r->capsized && (k.first_capsize < 0.0 || r->capsize_time < k.first_capsize))
            k.first_capsize = r->capsize_time;
        if (r->max_heel > k.max_heel) k.max_heel = r->max_heel;
        speed += r->speed_sum;
        sq += r->heading_sq;
        samples += r->samples;
    }
    if (samples) {
        k.mean_speed = speed / (double)samples;
        k.heading_rms = sqrt(sq / (double)samples);
    }
    return k;
}

/* A type's verdict over the swept Beaufort numbers. */

static uint32_t env_capsized_at(const env_ctx* c, uint32_t ti, uint32_t bi) {
    const env_args* a = c->a;
    uint32_t n = 0;
    for (uint32_t j = 0; j < a->speed_count * a->heading_count; j++)
        n += env_case_of(c, bi, ti * a->speed_count * a->heading_count + j).capsized;
    return n;
}

env_verdict env_verdict_of(const env_ctx* c, uint32_t ti) {
    const env_args* a = c->a;
    env_verdict v = {-1, -1, -1};
    for (uint32_t bi = 0; bi < a->beaufort_count; bi++) {
        int b = a->beaufort[bi];
        uint32_t n = env_capsized_at(c, ti, bi);
        if (n && v.first_capsize < 0) v.first_capsize = b;
        if (!n && v.first_capsize < 0) v.clear_to = b;
        if (a->types[ti].rated >= 0 && b <= a->types[ti].rated) {
            if (v.holds < 0) v.holds = 1;
            if (n) v.holds = 0;
        }
    }
    return v;
}

static const char* env_name_of(double v, const char* const* names, const double* values, int count, char* buf,
                               size_t n) {
    for (int i = 0; i < count; i++)
        if (values[i] == v) return names[i];
    snprintf(buf, n, "%g", v);
    return buf;
}

static const char* env_speed_name(double v, char* buf, size_t n) {
    return env_name_of(v, env_speed_names, env_speed_values, 3, buf, n);
}

static const char* env_heading_name(double v, char* buf, size_t n) {
    return env_name_of(v, env_heading_names, env_heading_values, 5, buf, n);
}

/* "beam (full), quartering (half, full)": the cases that capsized at one
 * Beaufort number, heading by heading. */
static void env_capsized_cases(const env_ctx* c, uint32_t ti, uint32_t bi, char* out, size_t n) {
    const env_args* a = c->a;
    size_t len = 0;
    out[0] = '\0';
    for (uint32_t hi = 0; hi < a->heading_count; hi++) {
        int any = 0;
        for (uint32_t vi = 0; vi < a->speed_count; vi++) {
            uint32_t boat = (ti * a->speed_count + vi) * a->heading_count + hi;
            if (!env_case_of(c, bi, boat).capsized) continue;
            char b1[32], b2[32];
            int m = snprintf(out + len, n - len, "%s%s%s", any ? ", " : (len ? "), " : ""),
                             any ? "" : env_heading_name(a->headings[hi], b1, sizeof b1), any ? "" : " (");
            if (m < 0 || (size_t)m >= n - len) return;
            len += (size_t)m;
            m = snprintf(out + len, n - len, "%s", env_speed_name(a->speeds[vi], b2, sizeof b2));
            if (m < 0 || (size_t)m >= n - len) return;
            len += (size_t)m;
            any = 1;
        }
    }
    if (len && len + 1 < n) strcat(out, ")");
}

void env_print_text(const env_ctx* c) {
    const env_args* a = c->a;
    printf("naval-envelope: %u type%s, Beaufort", a->type_count, a->type_count == 1 ? "" : "s");
    for (uint32_t bi = 0; bi < a->beaufort_count; bi++) printf("%s%d", bi ? "," : " ", a->beaufort[bi]);
    printf(", %llu seed%s from %llu, %g min of sea time (%llu steps at %g Hz), %u boats a world %g m apart\n",
           (unsigned long long)a->seeds, a->seeds == 1 ? "" : "s", (unsigned long long)a->seed_base, a->minutes,
           (unsigned long long)c->steps, c->tick_hz, c->boats, a->spacing);
    printf("cells: Cn capsized with n of %llu seeds, else the largest heel in degrees; headings to the waves: head 180,\n"
           "bow 135, beam 90, quartering 45, following 0 degrees\n",
           (unsigned long long)a->seeds);
    for (uint32_t ti = 0; ti < a->type_count; ti++) {
        const env_type* t = &a->types[ti];
        env_verdict v = env_verdict_of(c, ti);
        printf("\n%s (%s), rated Beaufort ", t->name, t->spec);
        if (t->rated >= 0) printf("%d", t->rated);
        else printf("none");
        printf(": %s\n", v.holds < 0 ? "no rating to check" : (v.holds ? "the rating holds" : "the rating FAILS"));
        printf("%-16s", "");
        for (uint32_t vi = 0; vi < a->speed_count; vi++) {
            char b[32];
            char label[64];
            snprintf(label, sizeof label, "%s (%g)", env_speed_name(a->speeds[vi], b, sizeof b), a->speeds[vi]);
            printf("  %-*s", (int)(5 * a->heading_count), label);
        }
        printf("\n%3s %6s %5s", "Bft", "Hs m", "Tp s");
        for (uint32_t vi = 0; vi < a->speed_count; vi++) {
            printf("  ");
            for (uint32_t hi = 0; hi < a->heading_count; hi++) {
                char b[32];
                printf("%5.4s", env_heading_name(a->headings[hi], b, sizeof b));
            }
        }
        printf("  capsized\n");
        for (uint32_t bi = 0; bi < a->beaufort_count; bi++) {
            const env_sea* sea = &c->seas[(size_t)bi * a->seeds];
            printf("%3d %6.2f %5.1f", a->beaufort[bi], sea->hs, sea->tp);
            uint32_t total = 0;
            for (uint32_t vi = 0; vi < a->speed_count; vi++) {
                printf("  ");
                for (uint32_t hi = 0; hi < a->heading_count; hi++) {
                    env_case k = env_case_of(c, bi, (ti * a->speed_count + vi) * a->heading_count + hi);
                    char cell[16];
                    if (k.capsized) snprintf(cell, sizeof cell, "C%u", k.capsized);
                    else snprintf(cell, sizeof cell, "%.0f%s", k.max_heel, k.frozen ? "F" : "");
                    printf("%5s", cell);
                    total += k.capsized;
                }
            }
            printf("  %u/%u\n", total, a->speed_count * a->heading_count * (uint32_t)a->seeds);
        }
        printf("mean speed in the last half, m/s:");
        for (uint32_t vi = 0; vi < a->speed_count; vi++) {
            /* At the lowest Beaufort swept, over the headings. */
            double sum = 0.0;
            for (uint32_t hi = 0; hi < a->heading_count; hi++)
                sum += env_case_of(c, 0, (ti * a->speed_count + vi) * a->heading_count + hi).mean_speed;
            char b[32];
            printf(" %s %.2f", env_speed_name(a->speeds[vi], b, sizeof b), sum / a->heading_count);
        }
        printf(" (Beaufort %d)\n", a->beaufort[0]);
    }
    printf("\n%-14s %5s %8s %13s  %s\n", "type", "rated", "clear to", "first capsize", "rating (first capsizes)");
    for (uint32_t ti = 0; ti < a->type_count; ti++) {
        const env_type* t = &a->types[ti];
        env_verdict v = env_verdict_of(c, ti);
        char rated[16] = "-", clear[16] = "-", first[16] = "-", cases[512] = "";
        if (t->rated >= 0) snprintf(rated, sizeof rated, "%d", t->rated);
        if (v.clear_to >= 0) snprintf(clear, sizeof clear, "%d", v.clear_to);
        if (v.first_capsize >= 0) {
            snprintf(first, sizeof first, "%d", v.first_capsize);
            for (uint32_t bi = 0; bi < a->beaufort_count; bi++)
                if (a->beaufort[bi] == v.first_capsize) env_capsized_cases(c, ti, bi, cases, sizeof cases);
        }
        printf("%-14s %5s %8s %13s  %s%s%s%s\n", t->name, rated, clear, first,
               v.holds < 0 ? "-" : (v.holds ? "holds" : "FAILS"), cases[0] ? " (" : "", cases, cases[0] ? ")" : "");
    }
}

static void env_print_json_string(const char* s) {
    putchar('"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') putchar('\\');
        putchar(*s);
    }
    putchar('"');
}

void env_print_json(const env_ctx* c) {
    const env_args* a = c->a;
    printf("{\"tool\": \"naval-envelope\", \"minutes\": %.6g, \"tick_hz\": %.6g, \"steps\": %llu, ", a->minutes,
           c->tick_hz, (unsigned long long)c->steps);
    printf("\"seeds\": [");
    for (uint64_t si = 0; si < a->seeds; si++)
        printf("%s%llu", si ? ", " : "", (unsigned long long)(a->seed_base + si));
    printf("], \"beaufort\": [");
    for (uint32_t bi = 0; bi < a->beaufort_count; bi++) printf("%s%d", bi ? ", " : "", a->beaufort[bi]);
    printf("], \"speeds\": [");
    for (uint32_t vi = 0; vi < a->speed_count; vi++) {
        char b[32];
        printf("%s{\"name\": \"%s\", \"throttle\": %.6g}", vi ? ", " : "", env_speed_name(a->speeds[vi], b, sizeof b),
               a->speeds[vi]);
    }
    printf("], \"headings\": [");
    for (uint32_t hi = 0; hi < a->heading_count; hi++) {
        char b[32];
        printf("%s{\"name\": \"%s\", \"off_waves_deg\": %.6g}", hi ? ", " : "",
               env_heading_name(a->headings[hi], b, sizeof b), a->headings[hi]);
    }
    printf("], \"spacing_m\": %.6g, ", a->spacing);
    printf("\"ocean\": {\"spectrum\": \"jonswap\", \"fetch_m\": %.6g, \"tile_m\": %.6g, \"resolution\": %d, "
           "\"wave_direction_deg\": %.6g}, ",
           ENV_FETCH, ENV_TILE, ENV_RESOLUTION, ENV_WIND_DIR);
    printf("\"sea_states\": [");
    for (uint32_t bi = 0; bi < a->beaufort_count; bi++) {
        const env_sea* sea = &c->seas[(size_t)bi * a->seeds];
        printf("%s{\"beaufort\": %d, \"wind_mps\": %.6g, \"hs_m\": %.6g, \"tp_s\": %.6g}", bi ? ", " : "",
               a->beaufort[bi], sea->wind, sea->hs, sea->tp);
    }
    printf("],\n \"types\": [");
    for (uint32_t ti = 0; ti < a->type_count; ti++) {
        const env_type* t = &a->types[ti];
        env_verdict v = env_verdict_of(c, ti);
        printf("%s\n  {\"name\": ", ti ? "," : "");
        env_print_json_string(t->name);
        printf(", \"spec\": ");
        env_print_json_string(t->spec);
        printf(", \"rated_beaufort\": ");
        if (t->rated >= 0) printf("%d", t->rated);
        else printf("null");
        printf(", \"rating_holds\": %s", v.holds < 0 ? "null" : (v.holds ? "true" : "false"));
        printf(", \"first_capsize_beaufort\": ");
        if (v.first_capsize >= 0) printf("%d", v.first_capsize);
        else printf("null");
        printf(", \"clear_to_beaufort\": ");
        if (v.clear_to >= 0) printf("%d", v.clear_to);
        else printf("null");
        printf(", \"sea_states\": [");
        for (uint32_t bi = 0; bi < a->beaufort_count; bi++) {
            uint32_t total = 0;
            double heel = 0.0;
            for (uint32_t j = 0; j < a->speed_count * a->heading_count; j++) {
                env_case k = env_case_of(c, bi, ti * a->speed_count * a->heading_count + j);
                total += k.capsized;
                if (k.max_heel > heel) heel = k.max_heel;
            }
            printf("%s\n   {\"beaufort\": %d, \"capsized_runs\": %u, \"max_heel_deg\": %.4f, \"cases\": [",
                   bi ? "," : "", a->beaufort[bi], total, heel);
            for (uint32_t vi = 0; vi < a->speed_count; vi++)
                for (uint32_t hi = 0; hi < a->heading_count; hi++) {
                    uint32_t boat = (ti * a->speed_count + vi) * a->heading_count + hi;
                    env_case k = env_case_of(c, bi, boat);
                    char b1[32], b2[32];
                    printf("%s\n    {\"speed\": \"%s\", \"throttle\": %.6g, \"heading\": \"%s\", "
                           "\"off_waves_deg\": %.6g, \"runs\": %llu, \"capsized\": %u, \"frozen\": %u, "
                           "\"first_capsize_s\": ",
                           vi + hi ? "," : "", env_speed_name(a->speeds[vi], b1, sizeof b1), a->speeds[vi],
                           env_heading_name(a->headings[hi], b2, sizeof b2), a->headings[hi],
                           (unsigned long long)a->seeds, k.capsized, k.frozen);
                    if (k.first_capsize >= 0.0) printf("%.4f", k.first_capsize);
                    else printf("null");
                    printf(", \"max_heel_deg\": %.4f, \"mean_speed_mps\": %.4f, \"heading_rms_deg\": %.4f, "
                           "\"per_seed\": [",
                           k.max_heel, k.mean_speed, k.heading_rms);
                    for (uint32_t si = 0; si < a->seeds; si++) {
                        const env_run* r = &c->runs[((size_t)bi * a->seeds + si) * c->boats + boat];
                        printf("%s{\"seed\": %llu, \"capsized\": %s, \"capsize_s\": ", si ? ", " : "",
                               (unsigned long long)(a->seed_base + si), r->capsized ? "true" : "false");
                        if (r->capsized) printf("%.4f", r->capsize_time);
                        else printf("null");
                        printf(", \"max_heel_deg\": %.4f}", r->max_heel);
                    }
                    printf("]}");
                }
            printf("]}");
        }
        printf("]}");
    }
    printf("]}\n");
}

