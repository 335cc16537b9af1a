/*
** sim.c
** `cairn sim`: self-play statistics. Four layers, top to bottom: the flags,
** one game played by random bots, the running totals, the report. Every
** number is an integer; means are printed in fixed point, so the report is
** the same on every machine and every run.
*/
#include "sim.h"
#include "bot.h"
#include "engine.h"
#include "ruleset.h"
#include "testrun.h" /* CAIRN_TEST_MAX_DECISIONS: when a game counts as stuck */

#include <errno.h>
#include <math.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Most seats a game may have here (the engine's own bound). */
#define SIM_MAX_SEATS 16

/* A win is counted in 1/SIM_SHARE_UNIT parts: lcm(1..16), so a tie among
** any number of seats up to 16 splits it exactly. */
#define SIM_SHARE_UNIT 720720

/* Width of the report's name column; each seat's column is 10 wide. */
#define SIM_NAME_WIDTH 22

/* ----------------------------------------------------------------- flags */

typedef struct sim_opts {
    const char *ruleset;
    ruleset_flags flags;  /* --option, --preset, --players (0: the ruleset's default) */
    long games;
    uint64_t seed;
    int checks, time;
    char *bots[SIM_MAX_SEATS]; /* --bots: one spec per seat (NULL: random) */
    int n_bots;
} sim_opts;

static int usage(FILE *err, const char *fmt, const char *arg) {
    fprintf(err, "cairn sim: ");
    fprintf(err, fmt, arg);
    fprintf(err, "\nusage: %s\n", SIM_USAGE);
    return 2;
}

/* A whole decimal number in [lo, hi]; 0, or -1 if s is anything else. */
static int parse_long(const char *s, long lo, long hi, long *out) {
    char *end;
    errno = 0;
    long n = strtol(s, &end, 10);
    if (!*s || *end || errno || n < lo || n > hi) return -1;
    *out = n;
    return 0;
}

static int parse_seed(const char *s, uint64_t *out) {
    char *end;
    errno = 0;
    unsigned long long n = strtoull(s, &end, 10);
    if (*s < '0' || *s > '9' || *end || errno) return -1;
    *out = (uint64_t)n;
    return 0;
}

/* Splits --bots "mcts:iterations=500,depth=20,random" into one spec per
** seat: a comma starts a new spec unless what follows is PARAM=VALUE
** (a kind never holds "="). 0, or 2 after a usage error. */
static int parse_bots(sim_opts *o, const char *arg, FILE *err) {
    const char *p = arg;
    while (*p) {
        const char *end = p;
        for (;;) {
            const char *comma = strchr(end, ',');
            if (!comma) {
                end += strlen(end);
                break;
            }
            const char *nx = comma + 1, *nc = strchr(nx, ','), *eq = strchr(nx, '=');
            if (!eq || (nc && eq > nc) || memchr(nx, ':', (size_t)(eq - nx))) {
                end = comma;
                break;
            }
            end = nc ? nc : nx + strlen(nx);
            if (!nc) break;
        }
        if (o->n_bots == SIM_MAX_SEATS) return usage(err, "--bots names more than 16 seats: \"%s\"", arg);
        char *spec = strndup(p, (size_t)(end - p));
        if (!spec) return usage(err, "%s", "out of memory");
        o->bots[o->n_bots++] = spec;
        cerr_list errs;
        cerr_init(&errs, 0);
        if (bot_spec_valid(spec, &errs) != 0) {
            char *m = errs.n ? cerr_format(&errs.items[0]) : NULL;
            int rc = usage(err, "--bots: %s", m ? m : "out of memory");
            free(m);
            cerr_free(&errs);
            return rc;
        }
        cerr_free(&errs);
        p = *end ? end + 1 : end;
    }
    if (o->n_bots == 0) return usage(err, "--bots takes KIND,KIND,... (one per seat), got \"%s\"", arg);
    return 0;
}

static void sim_opts_free(sim_opts *o) {
    ruleset_flags_free(&o->flags);
    for (int i = 0; i < o->n_bots; i++) free(o->bots[i]);
    o->n_bots = 0;
}

/* Fills o from argv. Returns 0, 1 when out of memory, or 2 after printing
** a usage error. o->flags must be freed in every case. */
static int sim_parse(int argc, char **argv, sim_opts *o, FILE *err) {
    memset(o, 0, sizeof *o);
    o->games = CAIRN_SIM_GAMES;
    o->seed = 1;
    if (ruleset_flags_init(&o->flags, argc) != 0) return fprintf(err, "cairn sim: out of memory\n"), 1;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        long n;
        char *why;
        int taken = ruleset_flags_take(&o->flags, argc, argv, &i, &why);
        if (taken < 0) {
            int rc = usage(err, "%s", why ? why : "out of memory");
            free(why);
            return rc;
        }
        if (taken) {
            continue;
        } else if (!strcmp(arg, "--games")) {
            if (!next || parse_long(next, 1, CAIRN_SIM_MAX_GAMES, &n) != 0)
                return usage(err, "--games takes a number from 1 to 1000000, got \"%s\"", next ? next : "");
            o->games = n;
            i++;
        } else if (!strcmp(arg, "--seed")) {
            if (!next || parse_seed(next, &o->seed) != 0)
                return usage(err, "--seed takes a whole number from 0 to 2^64-1, got \"%s\"",
                             next ? next : "");
            i++;
        } else if (!strcmp(arg, "--bots")) {
            if (!next) return usage(err, "--bots takes KIND,KIND,... (one per seat)%s", "");
            int rc = parse_bots(o, next, err);
            if (rc) return rc;
            i++;
        } else if (!strcmp(arg, "--checks")) {
            o->checks = 1;
        } else if (!strcmp(arg, "--time")) {
            o->time = 1;
        } else if (arg[0] == '-') {
            return usage(err, "unknown flag \"%s\"", arg);
        } else if (!o->ruleset) {
            o->ruleset = arg;
        } else {
            return usage(err, "one ruleset at a time; \"%s\" is one too many", arg);
        }
    }
    if (!o->ruleset) return usage(err, "which ruleset?%s", "");
    return 0;
}

/* -------------------------------------------------------------- one game */

typedef struct sim_game {
    size_t decisions;
    engine_score score; /* score.n is the seat count */
} sim_game;

/* The last error of l as text (malloc'd; NULL on OOM). */
static char *last_error(const cerr_list *l) {
    return l->n ? cerr_format(&l->items[l->n - 1]) : cairn_strdup(l->oom ? "out of memory" : "?");
}

/* The engine_config every game of the run shares: fast playouts, unless
** --checks asks for the strict engine and the checks after each decision. */
static void sim_config(const sim_opts *o, engine_config *c) {
    memset(c, 0, sizeof *c);
    c->ruleset = o->ruleset;
    c->choices = o->flags.choices;
    c->n_choices = o->flags.n_choices;
    c->preset = o->flags.preset;
    c->players = o->flags.players;
    c->checks = o->checks;
    c->fast = !o->checks;
}

/* Plays one game with the random bot in every seat: the first asked seat
** answers (answer order never matters, DESIGN.md). Returns 0 with g filled
** (free g->score), or -1 with one error appended naming the seed and the
** decision. */
static int sim_play(const sim_opts *o, engine_rules *rules, bot **bots, uint64_t seed, sim_game *g,
                    cerr_list *errs) {
    engine_config c;
    sim_config(o, &c);
    c.rules = rules;
    c.seed = seed;
    memset(g, 0, sizeof *g);
    cerr_list local;
    cerr_init(&local, 0);
    char *msg = NULL, *m = NULL;
    int failed = 1; /* until the score is in */
    size_t k = 0;
    engine *e = engine_new(&c, &local);
    if (!e) {
        msg = cairn_strfmt("seed %" PRIu64 ": setup failed: %s", seed, (m = last_error(&local)) ? m : "?");
        goto done;
    }
    for (int s = 1; s <= engine_seat_count(e); s++)
        if (engine_set_seat_bot(e, s, bots[s - 1] ? bot_spec(bots[s - 1]) : "random") != 0) goto done;
    for (int s = 1; s <= engine_seat_count(e); s++)
        if (bots[s - 1] && bot_check(bots[s - 1], e, &local) != 0) {
            msg = cairn_strfmt("%s", (m = last_error(&local)) ? m : "?");
            goto done;
        }
    for (; !engine_is_over(e); k++) {
        if (k >= CAIRN_TEST_MAX_DECISIONS) {
            msg = cairn_strfmt("seed %" PRIu64 ": not over after %d decisions (a game that never ends?)",
                               seed, CAIRN_TEST_MAX_DECISIONS);
            goto done;
        }
        int seat = engine_next_bot_seat(e);
        char *why = NULL;
        engine_status st;
        if (seat && bots[seat - 1]) { /* a bot of its own; the random ones as always */
            char *id = bot_choose(bots[seat - 1], e, seat, NULL, &local);
            if (!id) {
                msg = cairn_strfmt("seed %" PRIu64 ", decision %zu: the %s bot of seat %d: %s", seed, k + 1,
                                   bot_spec(bots[seat - 1]), seat, (m = last_error(&local)) ? m : "?");
                goto done;
            }
            st = engine_answer(e, seat, id, &why);
            free(id);
        } else {
            st = seat ? engine_bot_move(e, seat, &why) : ENGINE_NOT_ASKED;
        }
        if (st == ENGINE_NOT_ASKED)
            msg = cairn_strfmt("seed %" PRIu64 ", decision %zu: seat %d is asked but has no enabled option",
                               seed, k + 1, seat);
        else if (st != ENGINE_OK) { /* the game is as before the move: the same pick again */
            char *id = engine_bot_choice(e, seat);
            msg = cairn_strfmt("seed %" PRIu64 ", decision %zu (seat %d, \"%s\"): %s", seed, k + 1, seat,
                               id ? id : "?", why ? why : engine_status_name(st));
            free(id);
        }
        free(why);
        if (st != ENGINE_OK) goto done;
    }
    if (engine_score_get(e, &g->score, &local) != 0) {
        msg = cairn_strfmt("seed %" PRIu64 ": score failed at the end: %s", seed,
                           (m = last_error(&local)) ? m : "?");
        goto done;
    }
    g->decisions = k;
    failed = 0;
done:
    if (failed) cerr_add(errs, NULL, 0, 0, NULL, "%s", msg ? msg : "out of memory");
    free(m);
    free(msg);
    cerr_free(&local);
    engine_free(e);
    return failed ? -1 : 0;
}

/* ---------------------------------------------------------------- totals */

typedef struct sim_seat {
    int64_t sum, min, max;
    int64_t share; /* wins in 1/SIM_SHARE_UNIT parts */
} sim_seat;

typedef struct sim_totals {
    int seats;
    long games, shared;  /* shared: games whose win was split */
    size_t dec_min, dec_max;
    uint64_t dec_sum;
    int64_t margin_sum;
    sim_seat *seat;      /* seat[s - 1] */
    char *label[CAIRN_SIM_MAX_LABELS];
    size_t n_labels;
    int more_labels;     /* a label past CAIRN_SIM_MAX_LABELS was met */
    int64_t *label_sum;  /* label_sum[label * seats + s - 1] */
} sim_totals;

static int totals_init(sim_totals *t, int seats) {
    memset(t, 0, sizeof *t);
    t->seats = seats;
    t->seat = calloc((size_t)seats, sizeof *t->seat);
    t->label_sum = calloc((size_t)seats * CAIRN_SIM_MAX_LABELS, sizeof *t->label_sum);
    return t->seat && t->label_sum ? 0 : -1;
}

static void totals_free(sim_totals *t) {
    for (size_t i = 0; i < t->n_labels; i++) free(t->label[i]);
    free(t->seat);
    free(t->label_sum);
    memset(t, 0, sizeof *t);
}

/* The index of label, adding it while there is room. -1 when the table is
** full (more_labels is then set) or out of memory (it is not). */
static int label_index(sim_totals *t, const char *label) {
    for (size_t i = 0; i < t->n_labels; i++)
        if (!strcmp(t->label[i], label)) return (int)i;
    if (t->n_labels == CAIRN_SIM_MAX_LABELS) return t->more_labels = 1, -1;
    if (!(t->label[t->n_labels] = cairn_strdup(label))) return -1;
    return (int)t->n_labels++;
}

/* Winners are the seats with the best rank; they split the win. The margin
** is the best winner's total minus the best total among the other seats (0
** when every seat shares the win). */
static void add_result(sim_totals *t, const engine_score *s) {
    int best = s->seats[0].rank, k = 0;
    for (int i = 1; i < t->seats; i++)
        if (s->seats[i].rank < best) best = s->seats[i].rank;
    int64_t win_top = INT64_MIN, other_top = INT64_MIN;
    for (int i = 0; i < t->seats; i++) {
        int64_t v = s->seats[i].total;
        if (s->seats[i].rank == best) {
            k++;
            if (v > win_top) win_top = v;
        } else if (v > other_top) {
            other_top = v;
        }
    }
    for (int i = 0; i < t->seats; i++)
        if (s->seats[i].rank == best) t->seat[i].share += SIM_SHARE_UNIT / k;
    if (k > 1) t->shared++;
    if (k < t->seats) t->margin_sum += win_top - other_top;
}

/* Adds one finished game. Returns 0, or -1 on OOM. */
static int totals_add(sim_totals *t, const sim_game *g) {
    const engine_score *s = &g->score;
    if (t->games == 0 || g->decisions < t->dec_min) t->dec_min = g->decisions;
    if (t->games == 0 || g->decisions > t->dec_max) t->dec_max = g->decisions;
    t->dec_sum += g->decisions;
    for (int i = 0; i < t->seats; i++) {
        int64_t v = s->seats[i].total;
        sim_seat *st = &t->seat[i];
        if (t->games == 0 || v < st->min) st->min = v;
        if (t->games == 0 || v > st->max) st->max = v;
        st->sum += v;
        for (size_t j = 0; j < s->seats[i].n_items; j++) {
            int li = label_index(t, s->seats[i].items[j].key);
            if (li < 0 && !t->more_labels) return -1;
            if (li >= 0)
                t->label_sum[(size_t)li * (size_t)t->seats + (size_t)i] += s->seats[i].items[j].points;
        }
    }
    add_result(t, s);
    t->games++;
    return 0;
}

/* ---------------------------------------------------------------- report */

/* sum / n rounded half away from zero to two decimals, as text in buf.
** Integer arithmetic only; no overflow for any sum when n < 2^56. */
static const char *fixed2(char *buf, size_t size, int64_t sum, uint64_t n) {
    uint64_t mag = sum < 0 ? (uint64_t)0 - (uint64_t)sum : (uint64_t)sum;
    uint64_t whole = mag / n, cents = ((mag % n) * 100 + n / 2) / n;
    if (cents == 100) whole++, cents = 0;
    snprintf(buf, size, "%s%" PRIu64 ".%02" PRIu64, sum < 0 && (whole || cents) ? "-" : "", whole, cents);
    return buf;
}

/* Each seat's win share in tenths of a percent, rounded by largest
** remainder so that the shares add up to exactly 100.0%. */
static void win_tenths(const sim_totals *t, int64_t *tenths) {
    uint64_t whole = (uint64_t)SIM_SHARE_UNIT * (uint64_t)t->games, rem[SIM_MAX_SEATS];
    int64_t left = 1000;
    for (int i = 0; i < t->seats; i++) {
        uint64_t x = (uint64_t)t->seat[i].share * 1000;
        tenths[i] = (int64_t)(x / whole);
        rem[i] = x % whole;
        left -= tenths[i];
    }
    while (left-- > 0) {
        int top = 0;
        for (int i = 1; i < t->seats; i++)
            if (rem[i] > rem[top]) top = i;
        tenths[top]++;
        rem[top] = 0;
    }
}

/* One cell of the report's table: a seat's number as text. */
typedef char sim_cell[32];

/* A table row: the name padded to SIM_NAME_WIDTH, then one 10-wide cell per
** seat. */
static void print_row(FILE *out, const char *indent, const char *name, sim_cell *cells, int n) {
    int w = fprintf(out, "%s%s", indent, name);
    fprintf(out, "%*s", w < SIM_NAME_WIDTH ? SIM_NAME_WIDTH - w : 1, "");
    for (int i = 0; i < n; i++) fprintf(out, "%10s", cells[i]);
    fputc('\n', out);
}

/* "cards=13 tricks=false": every option in effect, or "none". */
static void print_options(FILE *out, const ruleset *rs, const char *preset) {
    const value *m = rs->options;
    size_t n = m && m->type == CV_MAP ? m->u.map.n : 0;
    fprintf(out, "options:");
    for (size_t i = 0; i < n; i++) {
        const value *v = m->u.map.items[i].val;
        fprintf(out, " %s=%s", m->u.map.items[i].key->u.str.s,
                v->type == CV_STR ? v->u.str.s : v->type == CV_BOOL ? (v->u.b ? "true" : "false") : "?");
    }
    fprintf(out, "%s", n ? "" : " none");
    if (preset) fprintf(out, " (preset %s)", preset);
    fprintf(out, "\n");
}

static void sim_report(FILE *out, const sim_opts *o, const ruleset *rs, const sim_totals *t) {
    sim_cell c[SIM_MAX_SEATS], mean;
    int n = t->seats;
    uint64_t games = (uint64_t)t->games;
    fprintf(out, "%s %s: %ld games, %d players, seeds %" PRIu64 "-%" PRIu64 ", checks %s\n", rs->id,
            rs->version, t->games, n, o->seed, o->seed + games - 1, o->checks ? "on" : "off");
    print_options(out, rs, o->flags.preset);
    if (o->n_bots) {
        fprintf(out, "bots:");
        for (int i = 0; i < o->n_bots; i++) fprintf(out, " %d=%s", i + 1, o->bots[i]);
        fprintf(out, "\n");
    }
    fprintf(out, "decisions per game: min %zu, mean %s, max %zu\n", t->dec_min,
            fixed2(mean, sizeof mean, (int64_t)t->dec_sum, games), t->dec_max);
    for (int i = 0; i < n; i++) snprintf(c[i], sizeof c[i], "seat %d", i + 1);
    print_row(out, "", "", c, n);
    for (int i = 0; i < n; i++) fixed2(c[i], sizeof c[i], t->seat[i].sum, games);
    print_row(out, "", "score mean", c, n);
    for (int i = 0; i < n; i++) snprintf(c[i], sizeof c[i], "%" PRId64, t->seat[i].min);
    print_row(out, "", "score min", c, n);
    for (int i = 0; i < n; i++) snprintf(c[i], sizeof c[i], "%" PRId64, t->seat[i].max);
    print_row(out, "", "score max", c, n);
    for (int i = 0; i < n; i++) fixed2(c[i], sizeof c[i], t->seat[i].share, SIM_SHARE_UNIT);
    print_row(out, "", "wins", c, n);
    int64_t tenths[SIM_MAX_SEATS];
    win_tenths(t, tenths);
    for (int i = 0; i < n; i++)
        snprintf(c[i], sizeof c[i], "%" PRId64 ".%" PRId64 "%%", tenths[i] / 10, tenths[i] % 10);
    print_row(out, "", "win share", c, n);
    if (o->n_bots) { /* strength runs: Wilson's 95% interval of each share */
        for (int i = 0; i < n; i++) {
            double p = (double)t->seat[i].share / SIM_SHARE_UNIT / (double)games, z = 1.96, g = (double)games;
            double mid = (p + z * z / (2 * g)) / (1 + z * z / g);
            double half = z * sqrt(p * (1 - p) / g + z * z / (4 * g * g)) / (1 + z * z / g);
            double lo = mid - half < 0 ? 0 : mid - half, hi = mid + half > 1 ? 1 : mid + half;
            snprintf(c[i], sizeof c[i], "%.0f-%.0f%%", 100 * lo, 100 * hi);
        }
        print_row(out, "", "95% interval", c, n);
    }
    fprintf(out, "shared wins: %ld of %ld games\n", t->shared, t->games);
    fprintf(out, "mean winning margin: %s\n", fixed2(mean, sizeof mean, t->margin_sum, games));
    if (t->n_labels) fprintf(out, "breakdown, mean points per game:\n");
    for (size_t l = 0; l < t->n_labels; l++) {
        for (int i = 0; i < n; i++) fixed2(c[i], sizeof c[i], t->label_sum[l * (size_t)n + (size_t)i], games);
        print_row(out, "  ", t->label[l], c, n);
    }
    if (t->more_labels) fprintf(out, "  (more labels not shown)\n");
}

/* ------------------------------------------------------------------ run */

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Plays every game into t. Returns 0, or -1 with one error appended. */
static int sim_games(const sim_opts *o, engine_rules *rules, bot **bots, sim_totals *t, cerr_list *errs) {
    int players = engine_rules_players(rules);
    if (players < 1 || players > SIM_MAX_SEATS || totals_init(t, players) != 0)
        return cerr_add(errs, NULL, 0, 0, NULL, "out of memory"), -1;
    for (long i = 0; i < o->games; i++) {
        sim_game g;
        if (sim_play(o, rules, bots, o->seed + (uint64_t)i, &g, errs) != 0) return -1;
        int rc = 0;
        if (!rc && g.score.n != (size_t)t->seats) { /* the engine scores every seat */
            cerr_add(errs, NULL, 0, 0, NULL, "seed %" PRIu64 ": score has %zu seats, not %d",
                     o->seed + (uint64_t)i, g.score.n, t->seats);
            engine_score_free(&g.score);
            return -1;
        }
        rc = rc || totals_add(t, &g) != 0;
        engine_score_free(&g.score);
        if (rc) return cerr_add(errs, NULL, 0, 0, NULL, "out of memory"), -1;
    }
    return 0;
}

int sim_run(int argc, char **argv, FILE *out, FILE *err) {
    sim_opts o;
    int rc = sim_parse(argc, argv, &o, err);
    if (rc != 0) {
        sim_opts_free(&o);
        return rc;
    }
    cerr_list errs;
    cerr_init(&errs, 0);
    /* option and seat-count errors are the ruleset's to find: report them
    ** once, before any game */
    engine_config c;
    sim_config(&o, &c);
    engine_rules *rules = engine_rules_new(&c, &errs); /* loaded once for every game */
    const ruleset *rs = rules ? engine_rules_ruleset(rules) : NULL;
    sim_totals t;
    memset(&t, 0, sizeof t);
    bot *bots[SIM_MAX_SEATS] = {0}; /* NULL: the engine's random bot */
    int players = rules ? engine_rules_players(rules) : 0;
    if (rs && o.n_bots && o.n_bots != players) {
        fprintf(err, "cairn sim: --bots names %d seat%s, the game has %d\n", o.n_bots, o.n_bots == 1 ? "" : "s",
                players);
        rs = NULL;
        rc = 2;
    }
    for (int i = 0; rs && i < o.n_bots; i++)
        if (strcmp(o.bots[i], "random") != 0 && !(bots[i] = bot_new(o.bots[i], &errs))) rs = NULL;
    if (!rs && rc) {
        /* reported */
    } else if (!rs) {
        cerr_print(err, &errs);
        size_t n = cerr_count(&errs);
        fprintf(err, "%s: %zu error%s\n", o.ruleset, n, n == 1 ? "" : "s");
        rc = 1;
    } else {
        double start = now_seconds();
        if (sim_games(&o, rules, bots, &t, &errs) != 0) {
            fprintf(err, "cairn sim %s: game %ld of %ld failed\n", o.ruleset, t.games + 1, o.games);
            cerr_print(err, &errs);
            rc = 1;
        } else {
            sim_report(out, &o, rs, &t);
            double s = now_seconds() - start;
            if (o.time)
                fprintf(out, "time: %.2f s, %.1f games/second\n", s, s > 0 ? (double)t.games / s : 0.0);
        }
    }
    totals_free(&t);
    for (int i = 0; i < SIM_MAX_SEATS; i++) bot_free(bots[i]);
    engine_rules_free(rules);
    cerr_free(&errs);
    sim_opts_free(&o);
    return rc;
}

int sim_command(int argc, char **argv) { return sim_run(argc, argv, stdout, stderr); }
