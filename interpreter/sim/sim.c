/*
** sim.c
** `cairn sim`: the balance lab. Top to bottom: the flags (one table), the
** variants a run plays (one, or A and B with --compare), one game played
** by the seats' bots into a record, the run (jobs, shards, progress,
** Ctrl-C, the --json and --csv files) and `cairn sim merge`. The figures
** are counted in sim_totals.c and printed by sim_report.c.
*/
#include "sim.h"
#include "bot.h"
#include "cpus.h"
#include "engine.h"
#include "ruleset.h"
#include "safe_open.h"
#include "sim_internal.h"
#include "limits.h" /* CAIRN_TEST_MAX_DECISIONS: when a game counts as stuck */
#include "markup.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ----------------------------------------------------------- variants */

/* What one variant plays: the ruleset (the run's, or a folder given to
** --compare), the option choices (the run's, then the variant's own). */
typedef struct sim_variant {
    const char *ruleset;
    const char **choices;
    size_t n_choices;
    char *spec;           /* the variant's own choices, split in place */
    const char *sets[2 * CAIRN_SIM_MAX_SETS]; /* the run's --set, then the variant's */
    size_t n_sets;
    char *mod;            /* the temporary mod the sets made (sim_set.c), or NULL */
    const char *shown;    /* the ruleset as the user named it */
    engine_rules *rules;
    char *label, *play, *options;
} sim_variant;

/* A --compare value names a ruleset folder when one is there. */
static int is_folder(const char *s) {
    struct stat st;
    char *m = cairn_strfmt("%s/ruleset.yaml", s);
    int yes = m && stat(m, &st) == 0;
    free(m);
    return yes;
}

/* "cards=13 tricks=false": every option in effect (malloc'd). */
static char *options_text(const ruleset *rs) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    const value *m = rs->options;
    size_t n = m && m->type == CV_MAP ? m->u.map.n : 0;
    for (size_t i = 0; i < n; i++) {
        const value *v = m->u.map.items[i].val;
        fprintf(f, "%s%s=%s", i ? " " : "", m->u.map.items[i].key->u.str.s,
                v->type == CV_STR ? v->u.str.s : v->type == CV_BOOL ? (v->u.b ? "true" : "false") : "?");
    }
    if (!n) fputs("none", f);
    return fclose(f) == 0 ? buf : (free(buf), NULL);
}

/* The engine_config of every game of v: fast playouts, unless --checks. */
static void variant_config(const sim_opts *o, const sim_variant *v, engine_config *c) {
    memset(c, 0, sizeof *c);
    c->ruleset = v->ruleset;
    c->choices = v->choices;
    c->n_choices = v->n_choices;
    c->preset = o->flags.preset;
    c->players = o->flags.players;
    c->checks = o->checks;
    c->fast = !o->checks;
    c->rules = v->rules;
}

static const char *seat_bot(const sim_opts *o, int seat) {
    return seat <= CAIRN_MAX_SEATS && o->bot[seat - 1] ? o->bot[seat - 1] : "random";
}

/* The command that replays a game of v, but for --seed (malloc'd). */
static char *play_command(const sim_opts *o, const sim_variant *v, int players) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    fprintf(f, "cairn play %s --players %d", v->shown, players);
    for (size_t i = 0; i < v->n_choices; i++) fprintf(f, " --option %s", v->choices[i]);
    if (o->flags.preset) fprintf(f, " --preset %s", o->flags.preset);
    for (size_t i = 0; i < v->n_sets; i++) fprintf(f, " --set %s", v->sets[i]);
    for (int s = 1; s <= players; s++) fprintf(f, " --bot %d=%s", s, seat_bot(o, s));
    return fclose(f) == 0 ? buf : (free(buf), NULL);
}

/* Loads variant v (spec: NULL for the run itself, else a --compare value).
** 0, or 1 after printing the ruleset's errors. */
static int variant_load(const sim_opts *o, sim_variant *v, const char *spec, FILE *err) {
    memset(v, 0, sizeof *v);
    v->ruleset = o->ruleset;
    v->choices = calloc(o->flags.n_choices + (spec ? strlen(spec) / 2 + 2 : 1), sizeof *v->choices);
    if (!v->choices) return fprintf(err, "cairn sim: out of memory\n"), 1;
    for (size_t i = 0; i < o->flags.n_choices; i++) v->choices[v->n_choices++] = o->flags.choices[i];
    for (size_t i = 0; i < o->n_sets; i++) v->sets[v->n_sets++] = o->set[i];
    if (spec && is_folder(spec)) {
        v->ruleset = spec;
    } else if (spec) { /* "opt1,opt2=x" or "opt1 opt2=x"; "" is the run's own options; an
                       ** item whose key has a dot is a data override: scoring.bonus=4 */
        if (!(v->spec = cairn_strdup(spec))) return fprintf(err, "cairn sim: out of memory\n"), 1;
        for (char *save = NULL, *t = strtok_r(v->spec, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
            char *eq = strchr(t, '='), *dot = strchr(t, '.');
            if (dot && eq && dot < eq && v->n_sets < 2 * CAIRN_SIM_MAX_SETS) v->sets[v->n_sets++] = t;
            else v->choices[v->n_choices++] = t;
        }
    }
    v->shown = v->ruleset;
    if (v->n_sets && !(v->mod = sim_set_mod(v->ruleset, v->sets, v->n_sets, err))) return 1;
    if (v->mod) v->ruleset = v->mod;
    cerr_list errs;
    cerr_init(&errs, 0);
    engine_config c;
    variant_config(o, v, &c);
    v->rules = engine_rules_new(&c, &errs); /* loaded once for every game */
    const ruleset *rs = v->rules ? engine_rules_ruleset(v->rules) : NULL;
    if (!rs) {
        cerr_print(err, &errs);
        size_t n = cerr_count(&errs);
        fprintf(err, "%s: %zu error%s\n", v->ruleset, n, n == 1 ? "" : "s");
        cerr_free(&errs);
        return 1;
    }
    cerr_free(&errs);
    v->options = options_text(rs);
    if (v->options && o->flags.preset) {
        char *with = cairn_strfmt("%s (preset %s)", v->options, o->flags.preset);
        free(v->options);
        v->options = with;
    }
    v->play = play_command(o, v, engine_rules_players(v->rules));
    char sets[1024] = "";
    for (size_t i = 0; i < v->n_sets; i++)
        snprintf(sets + strlen(sets), sizeof sets - strlen(sets), "%s%s", i ? " " : ", set ", v->sets[i]);
    if (v->options && v->n_sets) { /* the header's options line says what was set */
        char *with = cairn_strfmt("%s%s", v->options, sets);
        free(v->options);
        v->options = with;
    }
    v->label = v->options ? cairn_strfmt("%s %s, options %s", rs->id, rs->version, v->options) : NULL;
    if (!v->options || !v->play || !v->label) return fprintf(err, "cairn sim: out of memory\n"), 1;
    return 0;
}

static void variant_free(sim_variant *v) {
    engine_rules_free(v->rules);
    sim_set_remove(v->mod);
    free(v->choices);
    free(v->spec);
    free(v->label);
    free(v->play);
    free(v->options);
    memset(v, 0, sizeof *v);
}

/* -------------------------------------------------------------- one game */

/* What a game needs: the options and the variants (in the workers too). */
typedef struct sim_ctx {
    const sim_opts *o;
    sim_variant v[CAIRN_SIM_MAX_VARIANTS];
    char *spec[CAIRN_SIM_MAX_VARIANTS]; /* --sweep: "KEY=Vi" per variant */
    int variants, players;
    FILE *json, *csv;
    sim_find *find;         /* --find, compiled once before the workers start */
    sim_totals t;
    sim_compare cmp[CAIRN_SIM_MAX_VARIANTS - 1]; /* variant k against variant 0 */
    long done, total;       /* records handed on, and expected */
    double start;
    sim_progress progress;
    int oom;
    sim_cpu_totals cpu;     /* each seat's decisions and CPU, summed */
    sim_tour *tour;         /* --tournament: who sits where in each game */
    int stopped;            /* --until-width: the intervals are narrow enough */
    sim_factorial *fact;    /* --factorial: the main effects */
    FILE *cells;            /* a sharded --sweep players/bots: every value's records, as variant `cell` */
    int cell;
    long *cells_n;          /* the records written there so far */
} sim_ctx;

/* The decision seat is asked now, from l (NULL when none). */
static const engine_decision *seat_decision(const engine_decision_list *l, int seat) {
    for (size_t i = 0; i < l->n; i++)
        if (l->items[i].seat == seat) return &l->items[i];
    return NULL;
}

static int banned(const char *ban, const char *id) { return ban && !strncmp(id, ban, strlen(ban)); }

/* A random pick among seat's enabled options that ban does not match, from
** a stream of the game seed, the decision and the seat (not the game RNG,
** so A and B of a comparison draw alike). NULL when ban leaves none, or on
** OOM (*oom set). */
static char *pick_unbanned(engine *e, const engine_decision *d, const char *ban, int *oom) {
    size_t n = 0;
    for (size_t i = 0; i < d->n_options; i++) n += !d->options[i].disabled && !banned(ban, d->options[i].id);
    if (!n) return NULL;
    rng g;
    rng_seed_stream(&g, engine_seed(e) ^ 0x62616e62616eULL, (uint64_t)engine_position(e) * 64 + (uint64_t)d->seat);
    uint64_t k = rng_below(&g, n);
    for (size_t i = 0; i < d->n_options; i++)
        if (!d->options[i].disabled && !banned(ban, d->options[i].id) && k-- == 0) {
            char *id = cairn_strdup(d->options[i].id);
            if (!id) *oom = 1;
            return id;
        }
    return NULL;
}

/* Counts what seat is offered now into r's coverage. 0, or -1 on OOM. */
static int count_offers(sim_rec *r, const engine_decision *d) {
    for (size_t i = 0; d && i < d->n_options; i++) {
        sim_cov *c = sim_cov_get(&r->cov, &r->n_cov, &r->cov_index, d->options[i].id);
        if (!c) return -1;
        if (d->options[i].disabled) c->disabled++;
        else c->offered++;
    }
    return 0;
}

/* Seat's move, applied: the one place a game asks a bot, where the bots
** that look ahead plug in (by the seat's kind). --ban and --coverage need
** the options offered; otherwise the random bot's move is made directly. */
static engine_status sim_choose(const sim_opts *o, engine *e, int seat, sim_rec *r, char **why) {
    const char *kind = seat_bot(o, seat), *ban = o->ban[seat - 1];
    if (o->bots[seat - 1]) { /* a search or ruleset bot (bot.c); counted by --coverage too */
        if (o->coverage) {
            engine_decision_list l = {0};
            if (engine_decisions(e, &l) != 0) return ENGINE_NO_MEMORY;
            int oom = count_offers(r, seat_decision(&l, seat)) != 0;
            engine_decision_list_free(&l);
            if (oom) return ENGINE_NO_MEMORY;
        }
        cerr_list errs;
        cerr_init(&errs, 0);
        char *id = bot_choose(o->bots[seat - 1], e, seat, NULL, &errs);
        engine_status st = ENGINE_RULES_ERROR;
        sim_cov *c = id && o->coverage ? sim_cov_get(&r->cov, &r->n_cov, &r->cov_index, id) : NULL;
        if (id && o->coverage && !c) st = ENGINE_NO_MEMORY;
        else if (id) st = engine_answer(e, seat, id, why);
        else if (why) *why = errs.n ? cerr_format(&errs.items[0]) : cairn_strdup("the bot chose nothing");
        if (c && st == ENGINE_OK) c->taken++;
        free(id);
        cerr_free(&errs);
        return st;
    }
    if (strcmp(kind, "random") != 0) {
        if (why) *why = cairn_strfmt("no bot kind \"%s\" (known: random)", kind);
        return ENGINE_RULES_ERROR;
    }
    if (!ban && !o->coverage) return engine_bot_move(e, seat, why);
    engine_decision_list l = {0};
    if (engine_decisions(e, &l) != 0) return ENGINE_NO_MEMORY;
    const engine_decision *d = seat_decision(&l, seat);
    int oom = o->coverage && count_offers(r, d) != 0;
    char *id = ban && d && !oom ? pick_unbanned(e, d, ban, &oom) : NULL;
    if (!id && !oom) id = engine_bot_choice(e, seat); /* no ban, or it leaves nothing: the random pick */
    engine_decision_list_free(&l);
    if (!id) return oom ? ENGINE_NO_MEMORY : ENGINE_NOT_ASKED;
    sim_cov *c = o->coverage ? sim_cov_get(&r->cov, &r->n_cov, &r->cov_index, id) : NULL;
    if (o->coverage && !c) return free(id), ENGINE_NO_MEMORY;
    engine_status st = engine_answer(e, seat, id, why);
    if (c && st == ENGINE_OK) c->taken++, c->took |= 1ul << (seat - 1);
    free(id);
    return st;
}

/* The last error of l as text (malloc'd; NULL on OOM). */
static char *last_error(const cerr_list *l) {
    return l->n ? cerr_format(&l->items[l->n - 1]) : cairn_strdup(l->oom ? "out of memory" : "?");
}

/* An integer field of the game's state now, or dflt (at a game's end read
** off the live table: the whole state is made only for --find). */
static int64_t state_int(const engine *e, const char *field, int64_t dflt) {
    return engine_state_int(e, field, dflt);
}

static int rec_score(sim_rec *r, const engine_score *s) {
    if (!(r->seats = calloc(s->n, sizeof *r->seats))) return -1;
    r->n = (int)s->n;
    for (size_t i = 0; i < s->n; i++) {
        sim_seatrec *d = &r->seats[i];
        d->total = s->seats[i].total;
        d->rank = s->seats[i].rank;
        if (s->seats[i].n_items && !(d->items = calloc(s->seats[i].n_items, sizeof *d->items))) return -1;
        for (size_t j = 0; j < s->seats[i].n_items; j++) {
            if (!(d->items[j].key = cairn_strdup(s->seats[i].items[j].key))) return -1;
            d->items[j].points = s->seats[i].items[j].points;
            d->n_items = j + 1;
        }
    }
    return 0;
}

/* The seat alone at the top of the score now: 0 on a tie, -1 when score(g)
** fails (a ruleset whose score needs a finished game). */
static int leader(engine *e) {
    cerr_list errs;
    cerr_init(&errs, 0);
    engine_score s = {0};
    int top = engine_score_get(e, &s, &errs) == 0 ? 0 : -1;
    for (size_t i = 0; top >= 0 && i < s.n; i++) {
        if (s.seats[i].rank != 1) continue;
        top = top ? 0 : (int)i + 1;
        if (!top) break; /* a shared first place: nobody leads */
    }
    engine_score_free(&s);
    cerr_free(&errs);
    return top;
}

/* Counts a lead change into r when the seat alone on top is not the last
** one who was. */
static void track_lead(engine *e, sim_rec *r, int *last) {
    if (r->leads < 0) return;
    int now = leader(e);
    if (now < 0) r->leads = -1;
    else if (now > 0 && now != *last) r->leads += *last > 0, *last = now;
}

/* Plays game `index` of variant vi with each seat's bot: the first asked
** seat answers (answer order never matters, DESIGN.md). A failure is a
** record with ok 0 and a message naming the seed and the decision. */
static int sim_play(long index, int vi, sim_rec *r, void *ud) {
    sim_ctx *x = ud;
    const sim_variant *v = &x->v[vi];
    engine_config c;
    variant_config(x->o, v, &c);
    uint64_t seed = x->o->seed + (uint64_t)index;
    sim_opts seated; /* --tournament: this game's bots in the seats */
    const sim_opts *o = x->o;
    if (x->tour) {
        seated = *x->o;
        for (int s = 1; s <= x->players; s++)
            seated.bot[s - 1] = sim_tour_spec(x->tour, index, s), seated.bots[s - 1] = sim_tour_bot(x->tour, index, s);
        o = &seated;
        seed = x->o->seed + (uint64_t)(index / sim_tour_seatings(x->tour));
    }
    c.seed = seed;
    memset(r, 0, sizeof *r);
    r->index = index, r->variant = vi, r->seed = seed, r->rounds = -1, r->leads = x->o->leads ? 0 : -1;
    int lead = 0;
    cerr_list local;
    cerr_init(&local, 0);
    char *msg = NULL, *m = NULL;
    long k = 0;
    engine_score score = {0};
    engine *e = engine_new(&c, &local);
    if (!e) {
        msg = cairn_strfmt("seed %" PRIu64 ": setup failed: %s", seed, (m = last_error(&local)) ? m : "?");
        goto done;
    }
    /* the ruleset's start_seat(g), else the state field --starter names */
    int first = 0, hs = x->o->starter_given ? 0 : engine_start_seat(e, &first, &local);
    if (hs < 0) {
        msg = cairn_strfmt("seed %" PRIu64 ": %s", seed, (m = last_error(&local)) ? m : "?");
        goto done;
    }
    if (!(r->cpu = calloc((size_t)engine_seat_count(e), sizeof *r->cpu))) goto done;
    r->n_cpu = engine_seat_count(e);
    int64_t st = hs > 0 ? first : state_int(e, x->o->starter, 0);
    r->starter = st >= 1 && st <= engine_seat_count(e) ? (int)st : 0;
    for (int s = 1; s <= engine_seat_count(e); s++) {
        if (engine_set_seat_bot(e, s, seat_bot(o, s)) != 0) goto done;
        if (o->bots[s - 1] && bot_check(o->bots[s - 1], e, &local) != 0) {
            msg = cairn_strfmt("seed %" PRIu64 ": seat %d: %s", seed, s, (m = last_error(&local)) ? m : "?");
            goto done;
        }
    }
    /* --trajectory round: a point when state.round changes (the ruleset's
    ** rounds), or every seat-count decisions when it has none */
    int every = x->o->lab.trajectory > 0 ? x->o->lab.trajectory : 0, traj_oom = 0;
    int64_t round = x->o->lab.trajectory ? state_int(e, "round", -1) : -1;
    if (x->o->lab.trajectory < 0 && round < 0) every = engine_seat_count(e);
    long sampled = 0;
    for (; !engine_is_over(e); k++) {
        if (k >= CAIRN_TEST_MAX_DECISIONS) {
            msg = cairn_strfmt("seed %" PRIu64 ": not over after %d decisions (a game that never ends?)", seed,
                               CAIRN_TEST_MAX_DECISIONS);
            goto done;
        }
        int seat = engine_next_bot_seat(e);
        r->branch += seat ? (long)engine_enabled_count(e, seat) : 0;
        char *why = NULL;
        int64_t t0 = sim_cpu_now();
        engine_status es = seat ? sim_choose(o, e, seat, r, &why) : ENGINE_NOT_ASKED;
        if (seat && r->cpu && seat <= r->n_cpu) r->cpu[seat - 1].asked++, r->cpu[seat - 1].ns += sim_cpu_now() - t0;
        if (es == ENGINE_NOT_ASKED)
            msg = cairn_strfmt("seed %" PRIu64 ", decision %ld: seat %d is asked but has no enabled option", seed,
                               k + 1, seat);
        else if (es != ENGINE_OK) { /* the game is as before the move: the same pick again */
            char *id = engine_bot_choice(e, seat); /* NULL when the game could not be put back */
            msg = id ? cairn_strfmt("seed %" PRIu64 ", decision %ld (seat %d, \"%s\"): %s", seed, k + 1, seat,
                                    id, why ? why : engine_status_name(es))
                     : cairn_strfmt("seed %" PRIu64 ", decision %ld (seat %d): %s", seed, k + 1, seat,
                                    why ? why : engine_status_name(es));
            free(id);
        }
        free(why);
        if (es != ENGINE_OK) goto done;
        track_lead(e, r, &lead);
        if (x->o->lab.trajectory && !r->traj_failed) {
            int64_t now = every ? 0 : state_int(e, "round", -1);
            if (every ? (k + 1) % every == 0 : now != round) sim_traj_sample(r, e, every, &traj_oom), sampled = k + 1;
            round = now;
            if (traj_oom) goto done;
        }
    }
    if (x->o->lab.trajectory && !r->traj_failed && sampled != k && (sim_traj_sample(r, e, every, &traj_oom), traj_oom))
        goto done; /* the last point: the end of the game */
    if (engine_score_get(e, &score, &local) != 0) {
        msg = cairn_strfmt("seed %" PRIu64 ": score failed at the end: %s", seed, (m = last_error(&local)) ? m : "?");
        goto done;
    }
    r->rounds = state_int(e, "round", -1);
    if (rec_score(r, &score) != 0) msg = cairn_strdup("out of memory");
    else r->ok = 1;
    r->decisions = k;
    if (r->ok && x->find) {
        const value *final = engine_state(e);
        r->found = final ? sim_find_eval(x->find, final, r, &r->error) : -1;
        if (!final) r->error = cairn_strdup("the final state is not plain data");
    }
done:
    r->decisions = k;
    if (!r->ok) { /* the record of a failure: no scores, the coverage kept */
        sim_cov *cov = r->cov;
        size_t n_cov = r->n_cov;
        sim_cpu *cpu = r->cpu;
        int n_cpu = r->n_cpu;
        r->cov = NULL, r->n_cov = 0, r->cpu = NULL;
        sim_rec_free(r);
        r->cov = cov, r->n_cov = n_cov, r->cpu = cpu, r->n_cpu = n_cpu;
        r->index = index, r->variant = vi, r->seed = seed, r->rounds = -1, r->decisions = k, r->leads = -1;
        r->error = msg ? msg : cairn_strdup("out of memory");
        msg = NULL;
    }
    engine_score_free(&score);
    free(m);
    free(msg);
    cerr_free(&local);
    for (int s = 1; s <= CAIRN_MAX_SEATS; s++) bot_end_game(o->bots[s - 1], e); /* outside agents leave */
    engine_free(e);
    return r->ok || r->error ? 0 : -1;
}

/* ------------------------------------------------------------ the run */

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Counts one record (game order), writes it to the files. */
static int sim_sink(sim_rec *r, void *ud) {
    sim_ctx *x = ud;
    if (x->stopped) return sim_rec_free(r), 0; /* --until-width knew already: what the workers still send */
    if (x->tour && sim_tour_add(x->tour, r) != 0) return x->oom = 1, sim_rec_free(r), -1;
    if (x->fact) sim_factorial_add(x->fact, r);
    for (int i = 0; r->cpu && i < r->n_cpu && i < CAIRN_MAX_SEATS; i++)
        x->cpu.asked[i] += r->cpu[i].asked, x->cpu.ns[i] += (double)r->cpu[i].ns;
    free(r->cpu); /* the time differs between runs: not in the files */
    r->cpu = NULL, r->n_cpu = 0;
    if (x->json) {
        char *line = sim_rec_json(r);
        if (!line) return x->oom = 1, sim_rec_free(r), -1;
        fprintf(x->json, "%s  %s", x->done ? ",\n" : "", line);
        free(line);
    }
    if (x->cells) { /* one series part holds every value's games */
        int own = r->variant;
        r->variant = x->cell;
        char *line = sim_rec_json(r);
        r->variant = own;
        if (!line) return x->oom = 1, sim_rec_free(r), -1;
        fprintf(x->cells, "%s  %s", (*x->cells_n)++ ? ",\n" : "", line);
        free(line);
    }
    if (x->csv) sim_csv_row(x->csv, r, x->players);
    int rc = sim_variants_add(&x->t, x->cmp, x->variants, r);
    sim_rec_free(r);
    if (rc) return x->oom = 1, -1;
    x->done++;
    if (sim_progress_note(&x->progress, x->done)) { /* a plain line: the estimate so far ends it */
        sim_until_estimate(x->progress.err, x->variants == 1 ? &x->t : NULL, x->variants == 2 ? &x->cmp[0] : NULL);
        fputc('\n', x->progress.err);
        fflush(x->progress.err);
    }
    if (x->variants == 1 && sim_until_done(&x->t, x->o->lab.until_width)) x->stopped = 1, sim_interrupted = 1;
    return 0;
}

static void on_sigint(int sig) {
    (void)sig;
    sim_interrupted = 1;
}

/* The header of the report, from the loaded variants. */
static void make_header(const sim_ctx *x, sim_header *h) {
    const ruleset *rs = engine_rules_ruleset(x->v[0].rules);
    memset(h, 0, sizeof *h);
    h->ruleset = x->o->ruleset, h->id = rs->id, h->version = rs->version, h->fingerprint = rs->fingerprint;
    h->options = x->v[0].options;
    for (int i = 0; i < CAIRN_SIM_MAX_VARIANTS; i++) {
        h->label[i] = i < x->variants ? x->v[i].label : "";
        h->play[i] = i < x->variants ? x->v[i].play : x->v[0].play;
    }
    h->starter = x->o->starter_given ? x->o->starter : "start_seat(g) or state.start_seat";
    h->sweep = x->o->sweep ? x->o->sweep : x->o->lab.factorial; /* --factorial: its combinations as columns */
    h->players = x->players, h->checks = x->o->checks, h->compare = x->variants >= 2;
    h->games = x->o->games, h->seed = x->o->seed;
}

/* The "run" line of the JSON layout: everything merge checks and prints. */
static void json_run(FILE *f, const sim_header *h, const sim_ctx *x, long first, long last) {
    const char *fp_b = x->variants == 2 ? engine_rules_ruleset(x->v[1].rules)->fingerprint : "";
    fprintf(f, "{\"format\": \"cairn-sim\", \"version\": %d,\n \"run\": {\"ruleset\": ", SIM_FORMAT_VERSION);
    json_string_writez(f, h->ruleset);
    const char *strs[][2] = {{"cairn_version", CAIRN_VERSION}, {"id", h->id},           {"ruleset_version", h->version}, {"fingerprint", h->fingerprint},
                             {"fingerprint_b", fp_b}, {"options", h->options},         {"label_a", h->label[0]},
                             {"label_b", h->label[1]}, {"play_a", h->play[0]},         {"play_b", h->play[1]},
                             {"starter", h->starter}, {"bots", h->bots},          {"find", h->find ? h->find : ""},
                             {"sweep", h->sweep ? h->sweep : ""}};
    for (size_t i = 0; i < sizeof strs / sizeof *strs; i++) {
        fprintf(f, ", \"%s\": ", strs[i][0]);
        json_string_writez(f, strs[i][1]);
    }
    for (int i = 2; i < x->variants; i++) { /* a sweep's further columns: label_c, play_c, ... */
        fprintf(f, ", \"label_%c\": ", 'a' + i);
        json_string_writez(f, h->label[i]);
        fprintf(f, ", \"play_%c\": ", 'a' + i);
        json_string_writez(f, h->play[i]);
    }
    /* what merge needs to count the games again: the tournament's bots, the
    ** skill levels and their field, the factorial's options (only when given:
    ** the other runs' files stay as they were) */
    const char *lab[][2] = {{"tournament", x->o->lab.tournament}, {"skill", x->o->lab.skill},
                            {"field", x->o->lab.skill ? (x->o->lab.field ? x->o->lab.field : "random") : NULL},
                            {"factorial", x->o->lab.factorial}};
    for (size_t i = 0; i < sizeof lab / sizeof *lab; i++)
        if (lab[i][1]) {
            fprintf(f, ", \"%s\": ", lab[i][0]);
            json_string_writez(f, lab[i][1]);
        }
    fprintf(f, ", \"players\": %d, \"checks\": %s, \"compare\": %s, \"games\": %ld, \"seed\": %" PRIu64
               ", \"shard\": [%ld, %ld], \"first\": %ld, \"last\": %ld},\n \"games\": [\n",
            h->players, h->checks ? "true" : "false", h->compare ? "true" : "false", h->games, h->seed,
            x->o->shard_k ? x->o->shard_k : 1, x->o->shard_n ? x->o->shard_n : 1, first, last);
}

static void json_end(FILE *f, const sim_ctx *x, int interrupted) {
    fprintf(f, "\n ],\n \"interrupted\": %s,\n \"cpu\": ", interrupted ? "true" : "false");
    const char *names[CAIRN_MAX_SEATS];
    for (int s = 1; s <= x->players; s++) names[s - 1] = seat_bot(x->o, s);
    sim_cpu_json(f, &x->cpu, names, x->players);
    if (x->o->lab.until_width > 0) {
        fputs(",\n \"until_width\": ", f);
        sim_until_json(f, &x->t, x->o->lab.until_width, x->stopped);
    }
    if (x->tour) {
        fputs(x->tour->skill ? ",\n \"skill\": " : ",\n \"tournament\": ", f);
        sim_tour_json(f, x->tour);
    }
    fputs(",\n \"summary\": ", f);
    if (x->fact) {
        fputs("{\"factorial\": ", f);
        sim_factorial_json(f, x->fact);
        fputs(", \"sweep\": ", f);
        sim_report_sweep_json(f, x->o->lab.factorial, x->cmp, x->variants);
        fputc('}', f);
    } else if (x->o->sweep) sim_report_sweep_json(f, x->o->sweep, x->cmp, x->variants);
    else if (x->variants == 2) sim_report_compare_json(f, &x->cmp[0]);
    else sim_report_json(f, &x->t);
    fputs("}\n", f);
}

static FILE *open_out(const char *path, FILE *err) {
    char why[128];
    FILE *f = safe_fopen_write(path, why, sizeof why); /* a regular file: never a FIFO */
    if (!f) fprintf(err, "cairn sim: cannot write %s: %s\n", path, why);
    return f;
}

/* Closes an output file, saying so when the writes failed. 0 or 1. */
static int close_out(FILE *f, const char *path, FILE *err) {
    if (!f) return 0;
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) return fprintf(err, "cairn sim: writing %s failed\n", path), 1;
    return 0;
}

static int sim_go(const sim_opts *o, sim_ctx *x, FILE *out, FILE *err) {
    x->variants = o->compare[0] ? 2 : 1;
    if (o->sweep) { /* KEY=V1,V2,...: the variant specs KEY=V1, KEY=V2, ... */
        const char *eq = strchr(o->sweep, '='), *p = eq + 1;
        int klen = (int)(eq - o->sweep);
        for (x->variants = 0; x->variants < CAIRN_SIM_MAX_VARIANTS; p++) {
            size_t n = strcspn(p, ",");
            if (!(x->spec[x->variants++] = cairn_strfmt("%.*s=%.*s", klen, o->sweep, (int)n, p)))
                return fprintf(err, "cairn sim: out of memory\n"), 1;
            if (!p[n]) break;
            p += n;
        }
    }
    if (o->lab.factorial) { /* every combination of the factors on and off */
        if ((x->variants = sim_factorial_specs(o->lab.factorial, x->spec, err)) < 0) return 2;
    }
    for (int i = 0; i < x->variants; i++)
        if (variant_load(o, &x->v[i], o->sweep || o->lab.factorial ? x->spec[i] : o->compare[0] ? o->compare[i] : NULL,
                         err) != 0)
            return 1;
    x->players = engine_rules_players(x->v[0].rules);
    for (int i = 1; i < x->variants; i++)
        if (engine_rules_players(x->v[i].rules) != x->players)
            return fprintf(err, "cairn sim: %s plays %d seats and %s %d; compare the same seat count\n", x->v[0].label,
                           x->players, x->v[i].label, engine_rules_players(x->v[i].rules)),
                   1;
    if (x->players < 1 || x->players > CAIRN_MAX_SEATS) return fprintf(err, "cairn sim: too many seats\n"), 1;
    /* "random", or each seat's spec ("1=mcts:iterations=40,depth=5 2=random": a
    ** spec's own commas would make a comma-joined list ambiguous) */
    char bots[CAIRN_MAX_SEATS * 64] = "";
    for (int s = 1; s <= x->players; s++)
        if (o->n_bots) snprintf(bots + strlen(bots), sizeof bots - strlen(bots), "%s%d=%s", s > 1 ? " " : "", s,
                                seat_bot(o, s));
        else snprintf(bots + strlen(bots), sizeof bots - strlen(bots), "%s%s", s > 1 ? "," : "", seat_bot(o, s));
    if (o->lab.tournament || o->lab.skill) { /* the seats' bots change from game to game */
        x->tour = o->lab.skill ? sim_skill_new(o->lab.skill, o->lab.field, x->players, err)
                               : sim_tour_new(o->lab.tournament, x->players, err);
        if (!x->tour) return 2;
        snprintf(bots, sizeof bots, "%s %s", o->lab.skill ? "skill" : "tournament", sim_tour_names(x->tour));
    }
    int bad_init = x->variants == 1 && sim_totals_init(&x->t, x->players) != 0;
    if (o->lab.factorial && !(x->fact = sim_factorial_new(o->lab.factorial, x->players))) bad_init = 1;
    for (int k = 1; k < x->variants; k++) bad_init |= sim_compare_init(&x->cmp[k - 1], x->players) != 0;
    if (bad_init) return fprintf(err, "cairn sim: out of memory\n"), 1;
    long first = 0, last = o->games;
    if (o->shard_n) first = (long)((o->shard_k - 1) * o->games / o->shard_n), last = (long)(o->shard_k * o->games / o->shard_n);
    const char *json = o->json;
    char part[64];
    if (o->shard_n && !json && !x->cells) snprintf(part, sizeof part, "sim-part-%ld-of-%ld.json", o->shard_k, o->shard_n), json = part;
    if (o->find && !(x->find = sim_find_new(o->find, err))) return 2;
    sim_header h;
    make_header(x, &h);
    h.bots = bots;
    h.find = o->find;
    h.seatings = x->tour ? sim_tour_seatings(x->tour) : 0;
    h.width = markup_tty_width(STDOUT_FILENO);
    if (json && !(x->json = open_out(json, err))) return 1;
    if (o->csv && !(x->csv = open_out(o->csv, err))) return 1;
    if (x->json) json_run(x->json, &h, x, first, last);
    if (x->csv) sim_csv_head(x->csv, x->players);
    x->total = (last - first) * x->variants;
    x->start = now_seconds();
    sim_progress_start(&x->progress, err, o->quiet, x->total, x->variants);
    int jobs = o->jobs ? o->jobs : cpus_usable(); /* cpus.c */
    bot_set_default_cores(jobs > 1 ? 1 : 0); /* games, not searches, split over the jobs (docs/bots.md) */
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sim_interrupted = 0;
    sigaction(SIGINT, &sa, &old);
    int rc = sim_jobs_run(first, last, x->variants, jobs, sim_play, sim_sink, x, err);
    sigaction(SIGINT, &old, NULL);
    double secs = now_seconds() - x->start;
    if (x->oom) fprintf(err, "cairn sim: out of memory\n");
    if (rc < 0) return 1;
    int interrupted = rc == 1 && !x->stopped;
    if (x->stopped) h.games = x->t.games + x->t.failed; /* the games played */
    sim_progress_stop(&x->progress);
    if (interrupted && !o->quiet) fprintf(err, "\ncairn sim: interrupted; the report of the games finished\n");
    if (o->shard_n) h.games = last - first, h.seed = o->seed + (uint64_t)first;
    double dec = x->variants == 1 ? x->t.decisions.sum : x->cmp[0].t[0].decisions.sum;
    long failed = x->variants == 1 ? x->t.failed : x->cmp[0].t[0].failed;
    for (int k = 1; k < x->variants; k++) dec += x->cmp[k - 1].t[1].decisions.sum, failed += x->cmp[k - 1].t[1].failed;
    if (x->fact) {
        sim_report_sweep(out, &h, x->cmp, x->variants, interrupted);
        sim_factorial_report(out, x->fact);
    } else if (o->sweep) sim_report_sweep(out, &h, x->cmp, x->variants, interrupted);
    else if (x->variants == 2) sim_report_compare(out, &h, &x->cmp[0], interrupted);
    else sim_report_text(out, &h, &x->t, interrupted);
    if (x->tour) sim_tour_report(out, x->tour);
    sim_until_line(out, &x->t, o->lab.until_width, o->games, x->stopped);
    char rate[32];
    sim_rate_text(secs > 0 ? (double)x->done / x->variants / secs : 0.0, rate, sizeof rate);
    fprintf(out, "time: %.2f s, %s, %.0f decisions/s, %d job%s\n", secs, rate, secs > 0 ? dec / secs : 0.0,
            jobs, jobs == 1 ? "" : "s");
    const char *names[CAIRN_MAX_SEATS];
    for (int s = 1; s <= x->players; s++) names[s - 1] = seat_bot(o, s);
    if (x->tour) sim_tour_cpu_line(out, x->tour);
    else sim_cpu_line(out, &x->cpu, names, x->players);
    if (x->json) json_end(x->json, x, interrupted);
    int bad = close_out(x->json, json, err) | close_out(x->csv, o->csv, err);
    if (o->lab.report) { /* the page, from the same figures as the JSON */
        sim_html page = {.h = &h, .command = o->lab.command ? o->lab.command : "cairn sim", .variants = x->variants,
                         .t = x->variants == 1 ? &x->t : NULL, .cmp = x->cmp, .tour = x->tour, .fact = x->fact,
                         .cpu = x->tour ? NULL : &x->cpu, .names = names};
        bad |= sim_report_html(o->lab.report, &page, err);
    }
    x->json = x->csv = NULL;
    return interrupted ? 130 : bad || failed ? 1 : 0;
}


/* Frees what a run's context holds. */
static void ctx_free(sim_ctx *x) {
    if (x->json) fclose(x->json);
    if (x->csv) fclose(x->csv);
    sim_find_free(x->find);
    sim_tour_free(x->tour);
    sim_factorial_free(x->fact);
    for (int i = 0; i < CAIRN_SIM_MAX_VARIANTS; i++) variant_free(&x->v[i]), free(x->spec[i]);
    sim_totals_free(&x->t);
    for (int k = 0; k < CAIRN_SIM_MAX_VARIANTS - 1; k++) sim_compare_free(&x->cmp[k]);
}

/* --sweep players=... or bots=...: one whole run per value (its report
** kept back), then the table of them all (sim_series.c). */
static int run_series(sim_opts *o, sim_series *s, FILE *out, FILE *err) {
    /* a players sweep seats --bots as any run does: seat i plays the i-th
    ** spec, seats past the list random, specs past the seats unused; a bots
    ** sweep names every seat's bot itself */
    if (o->compare[0] || o->csv || (o->n_bots && !s->players) || o->lab.tournament || o->lab.skill ||
        o->lab.until_width > 0)
        return fprintf(err, "cairn sim: --sweep %s plays one run per value: not with --compare, --csv, %s"
                            "--tournament, --skill or --until-width\nusage: %s\n",
                       s->players ? "players=..." : "bots=...", s->players ? "" : "--bots, ", SIM_USAGE), 2;
    if (o->n_bots && o->shard_n)
        return fprintf(err, "cairn sim: --sweep players=... with --bots is not sharded (a part does not carry "
                            "the bots for merge to check): run it whole, --jobs uses every core\nusage: %s\n",
                       SIM_USAGE), 2;
    s->seat_bots = (const char *const *)o->bot_spec, s->n_seat_bots = o->n_bots;
    const char *sweep = o->sweep, *json = o->json, *report = o->lab.report;
    o->sweep = NULL, o->json = NULL, o->lab.report = NULL;
    int rc = 0, failed = 0;
    sim_series_part part = {.n = s->n, .sweep = sweep, .ruleset = o->ruleset, .games = o->games, .seed = o->seed,
                            .shard_k = o->shard_k, .shard_n = o->shard_n, .checks = o->checks};
    char *cells_buf = NULL;
    size_t cells_len = 0;
    long cells_n = 0;
    FILE *cells = o->shard_n ? open_memstream(&cells_buf, &cells_len) : NULL; /* the part's games, till the end */
    if (o->shard_n && !cells) return fprintf(err, "cairn sim: out of memory\n"), 1;
    for (int k = 0; k < s->n && (rc == 0 || rc == 1); k++) {
        bot *shared = NULL;
        if (s->players) o->flags.players = s->seats[k];
        else {
            if (strcmp(s->bot[k], "random") != 0) {
                cerr_list errs;
                cerr_init(&errs, 0);
                if (!(shared = bot_new(s->bot[k], &errs))) cerr_print(err, &errs);
                cerr_free(&errs);
                if (!shared) {
                    rc = 2;
                    break;
                }
            }
            for (int i = 0; i < CAIRN_MAX_SEATS; i++) o->bot[i] = s->bot[k], o->bots[i] = shared;
        }
        char *buf = NULL;
        size_t len = 0;
        FILE *kept = open_memstream(&buf, &len); /* each run's own report is not shown */
        sim_ctx x;
        memset(&x, 0, sizeof x);
        x.o = o, x.cells = cells, x.cell = k, x.cells_n = &cells_n;
        rc = kept ? sim_go(o, &x, kept, err) : (fprintf(err, "cairn sim: out of memory\n"), 1);
        if (kept) fclose(kept);
        free(buf);
        if (rc == 0 || rc == 1) sim_series_take(s, k, &x.t);
        if (cells && k == 0 && x.v[0].rules && sim_series_part_note(&part, engine_rules_ruleset(x.v[0].rules),
                                                                     x.v[0].options, x.players) != 0)
            rc = 2, fprintf(err, "cairn sim: out of memory\n");
        failed |= rc == 1;
        ctx_free(&x);
        for (int i = 0; i < CAIRN_MAX_SEATS && !s->players; i++) o->bot[i] = NULL, o->bots[i] = NULL;
        bot_free(shared);
    }
    o->sweep = sweep, o->json = json, o->lab.report = report;
    if (cells && fclose(cells) != 0) rc = 2, fprintf(err, "cairn sim: out of memory\n");
    if (o->shard_n && (rc == 0 || rc == 1 || rc == 130)) { /* the part: a run line, the games, the slice's table */
        char path[64];
        snprintf(path, sizeof path, "sim-part-%ld-of-%ld.json", o->shard_k, o->shard_n);
        FILE *f = open_out(json ? json : path, err);
        if (f) sim_series_part_write(f, &part, cells_buf, rc == 130, s);
        if (!f || close_out(f, json ? json : path, err)) failed = 1;
        json = NULL; /* written */
    }
    free(cells_buf);
    sim_series_part_free(&part);
    if (rc != 0 && rc != 1) return rc;
    char *text = NULL;
    size_t tlen = 0;
    FILE *m = open_memstream(&text, &tlen); /* the table, printed and on the page */
    if (!m) return fprintf(err, "cairn sim: out of memory\n"), 1;
    sim_series_report(m, s, sweep);
    if (fclose(m) != 0) return free(text), fprintf(err, "cairn sim: out of memory\n"), 1;
    fputs(text, out);
    if (json) {
        FILE *f = open_out(json, err);
        if (!f || (sim_series_json(f, s, sweep), close_out(f, json, err))) return free(text), 1;
    }
    sim_series_page pg = {.ruleset = o->ruleset, .sweep = sweep, .command = o->lab.command ? o->lab.command : "cairn sim",
                          .text = text, .games = o->games, .seed = o->seed};
    if (report && sim_series_html(report, s, &pg, err)) failed = 1;
    free(text);
    return failed;
}

/* --tune: one value's run (its report kept back), its target share. */
static int tune_one(void *ud, const sim_tune *t, int64_t v, sim_tune_point *p) {
    sim_opts *o = ud;
    char set[320];
    snprintf(set, sizeof set, "%s=%" PRId64, t->path, v);
    if (o->n_sets == CAIRN_SIM_MAX_SETS) return -1;
    o->set[o->n_sets++] = set;
    char *buf = NULL;
    size_t len = 0;
    FILE *kept = open_memstream(&buf, &len);
    sim_ctx x;
    memset(&x, 0, sizeof x);
    x.o = o;
    int rc = kept ? sim_go(o, &x, kept, o->lab.tune_err) : 1;
    if (kept) fclose(kept);
    free(buf);
    o->n_sets--;
    int ok = rc == 0 || rc == 1;
    if (ok) {
        p->games = x.t.games;
        int i = t->which - 1;
        if (i >= x.t.seats) ok = 0;
        else if (t->by_position && !(x.t.games && x.t.with_starter == x.t.games)) ok = 0;
        else p->wins = t->by_position ? x.t.pos_share[i] : x.t.share[i];
        if (!ok) fprintf(o->lab.tune_err, "cairn sim: --target names %s %d, which these games do not have\n",
                         t->by_position ? "position" : "seat", t->which);
    }
    ctx_free(&x);
    return ok ? 0 : -1;
}

int sim_run(int argc, char **argv, FILE *out, FILE *err) {
    if (argc > 1 && !strcmp(argv[1], "merge")) return sim_merge(argc - 1, argv + 1, out, err);
    sim_opts o;
    int rc = sim_parse(argc, argv, &o, err);
    char *command = rc == 0 && o.lab.report ? sim_lab_command(argc, argv) : NULL;
    o.lab.command = command;
    for (int i = 0; rc == 0 && i < o.n_bots; i++) { /* the search bots, once for every game */
        if (strcmp(o.bot_spec[i], "random") == 0) continue;
        cerr_list errs;
        cerr_init(&errs, 0);
        if (!(o.bots[i] = bot_new(o.bot_spec[i], &errs))) {
            cerr_print(err, &errs);
            rc = 2;
        }
        cerr_free(&errs);
    }
    sim_series series;
    int in_series = rc == 0 && o.sweep ? sim_series_parse(o.sweep, &series, err) : 0;
    if (in_series < 0) rc = 2;
    if (rc == 0 && o.lab.tune) {
        sim_tune tune;
        if (sim_tune_parse(o.lab.tune, o.lab.target, &tune, err) != 0) rc = 2;
        else {
            const char *json = o.json, *report = o.lab.report;
            o.json = NULL, o.lab.report = NULL, o.lab.tune_err = err;
            rc = sim_tune_search(&tune, tune_one, &o) == 0 ? 0 : 1;
            o.json = json, o.lab.report = report;
            char *text = NULL;
            size_t tlen = 0;
            FILE *m = tune.n ? open_memstream(&text, &tlen) : NULL; /* printed and on the page */
            if (m) sim_tune_report(m, &tune);
            if (m && fclose(m) == 0) fputs(text, out);
            FILE *f = rc == 0 && json ? open_out(json, err) : NULL;
            if (f) sim_tune_json(f, &tune), rc |= close_out(f, json, err);
            sim_series_page pg = {.ruleset = o.ruleset, .command = command ? command : "cairn sim",
                                  .text = text ? text : "", .games = o.games, .seed = o.seed};
            if (rc == 0 && report) rc |= sim_tune_html(report, &tune, &pg, err);
            free(text);
        }
    } else if (rc == 0 && in_series) {
        rc = run_series(&o, &series, out, err);
        sim_series_free(&series);
    } else if (rc == 0) {
        sim_ctx x;
        memset(&x, 0, sizeof x);
        x.o = &o;
        rc = sim_go(&o, &x, out, err);
        ctx_free(&x);
    }
    ruleset_flags_free(&o.flags);
    free(command);
    for (int i = 0; i < CAIRN_MAX_SEATS; i++) {
        bot_free(o.bots[i]);
        free(o.bot_spec[i]);
    }
    return rc;
}

/* The report is made whole, then printed fitted to the terminal (markup_print_fitted);
** to a file or a pipe it goes as it is made. */
int sim_command(int argc, char **argv) {
    int width = markup_tty_width(STDOUT_FILENO);
    char *text = NULL;
    size_t len = 0;
    FILE *m = width > 0 ? open_memstream(&text, &len) : NULL;
    if (!m) return sim_run(argc, argv, stdout, stderr);
    int rc = sim_run(argc, argv, m, stderr);
    if (fclose(m) != 0) {
        free(text);
        fprintf(stderr, "cairn sim: out of memory\n");
        return 1;
    }
    markup_print_fitted(stdout, text, width);
    free(text);
    return rc;
}
