/*
** bot.c
** The bot interface: parsing "KIND[:PARAM=V,...]", which bot may play which
** game, the bots' own random streams, scoring a fork for every seat, and the
** kinds that need no tree: random (the engine's), greedy (one ply on forks,
** by the ruleset's heuristic) and a ruleset's own bots. The search kinds
** are in bot_mcts.c (one search), bot_mcts_root.c (a decision's searches
** merged) and bot_parallel.c (on several cores).
*/
#include "bot_internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ the kinds */

typedef struct bot_param {
    const char *name;
    const char *what; /* for errors and help */
} bot_param;

static const bot_param search_params[] = {
    {"iterations", "playouts per decision (default 1000; exact and repeatable)"},
    {"time", "seconds per decision (a budget: choices may vary from run to run)"},
    {"c", "UCT's exploration constant (default 1.4)"},
    {"depth", "rollout decisions before the heuristic scores the position (default 10; 0: to the end)"},
    {"hscale", "heuristic points that make a clear lead (default 10)"},
    {"rollout", "random (default) or heuristic: each rollout move the best by the heuristic"},
    {"epsilon", "heuristic rollouts: the share of random moves (default 0.1)"},
    {"searches", "independent searches an iteration budget is split into, merged (default 4)"},
    {"cores", "processes the searches run on (default: the CPUs this process may use)"},
    {"pool", "games with secrets: states each search samples and then reuses in turn (default 0: a new one every iteration)"},
    {NULL, NULL},
};
static const bot_param greedy_params[] = {
    {"samples", "sampled states per option in a game with secrets (default 4)"},
    {"hscale", "unused by greedy"},
    {NULL, NULL},
};
static const bot_param no_params[] = {{NULL, NULL}};

typedef struct kind_def {
    const char *name;
    bot_kind_id k;
    const bot_param *params;
} kind_def;

static const kind_def kinds[] = {
    {"random", BOT_RANDOM, no_params},
    {"greedy", BOT_GREEDY, greedy_params},
    {"mcts", BOT_MCTS, search_params},
    {"ismcts", BOT_ISMCTS, search_params},
};
#define N_KINDS (sizeof kinds / sizeof kinds[0])

const char *bot_kinds(void) { return "random, greedy, mcts, ismcts, RULESET:NAME, exec:COMMAND"; }

int bot_spec_is_exec(const char *spec) { return spec && !strncmp(spec, "exec:", 5); }

static const kind_def *find_kind(const char *name, size_t len) {
    for (size_t i = 0; i < N_KINDS; i++)
        if (strlen(kinds[i].name) == len && strncmp(kinds[i].name, name, len) == 0) return &kinds[i];
    return NULL;
}

/* Sets one parameter; -1 after an error naming the parameter. */
static int set_param(bot *b, const kind_def *kd, const char *key, const char *val, cerr_list *errs) {
    int known = 0;
    for (const bot_param *p = kd->params; p->name; p++) known |= !strcmp(p->name, key);
    if (!known) {
        strbuf s = {0};
        for (const bot_param *p = kd->params; p->name; p++) strbuf_printf(&s, "%s%s", s.n ? ", " : "", p->name);
        size_t n = errs->n;
        cerr_add(errs, NULL, 0, 0, NULL, "bot %s: no parameter \"%s\"; %s%s", b->spec, key,
                 s.n ? "it takes: " : "it takes none", s.n ? strbuf_str(&s) : "");
        if (s.n) cerr_key4(errs, n, "bot.no_param", b->spec, key, strbuf_str(&s), NULL);
        else cerr_key(errs, n, "bot.no_param_none", 0, b->spec, key);
        strbuf_free(&s);
        return -1;
    }
    if (!strcmp(key, "rollout")) {
        if (strcmp(val, "random") && strcmp(val, "heuristic")) {
            size_t n = errs->n;
            cerr_add(errs, NULL, 0, 0, NULL, "bot %s: rollout is random or heuristic, not \"%s\"", b->spec, val);
            cerr_key(errs, n, "bot.rollout", 0, b->spec, val);
            return -1;
        }
        b->guided = !strcmp(val, "heuristic");
        return 0;
    }
    char *end;
    errno = 0;
    double d = strtod(val, &end);
    if (!*val || *end || errno || !(d >= 0) || d > 1e12) {
        size_t n = errs->n;
        cerr_add(errs, NULL, 0, 0, NULL, "bot %s: %s takes a number >= 0, got \"%s\"", b->spec, key, val);
        cerr_key4(errs, n, "bot.number", b->spec, key, val, NULL);
        return -1;
    }
    if (!strcmp(key, "iterations") || !strcmp(key, "depth") || !strcmp(key, "samples") || !strcmp(key, "pool")) {
        long top = !strcmp(key, "pool") ? CAIRN_BOT_MAX_POOL : CAIRN_BOT_MAX_ITERATIONS;
        if (d != floor(d) || d > (double)top) {
            size_t n = errs->n;
            cerr_add(errs, NULL, 0, 0, NULL, "bot %s: %s takes a whole number up to %ld, got \"%s\"", b->spec,
                     key, top, val);
            char most[32];
            snprintf(most, sizeof most, "%ld", top);
            cerr_key4(errs, n, "bot.whole_up_to", b->spec, key, most, val);
            return -1;
        }
        if (!strcmp(key, "iterations")) b->iterations = (long)d, b->iterations_given = 1;
        else if (!strcmp(key, "depth")) b->depth = (long)d, b->depth_given = 1;
        else if (!strcmp(key, "pool")) b->pool = (long)d;
        else b->samples = d < 1 ? 1 : (long)d;
    } else if (!strcmp(key, "searches") || !strcmp(key, "cores")) {
        long most = !strcmp(key, "searches") ? CAIRN_BOT_MAX_SEARCHES : CAIRN_BOT_MAX_CORES;
        if (d != floor(d) || d < 1 || d > (double)most) {
            size_t n = errs->n;
            cerr_add(errs, NULL, 0, 0, NULL, "bot %s: %s takes a whole number from 1 to %ld, got \"%s\"", b->spec, key,
                     most, val);
            char top[32];
            snprintf(top, sizeof top, "%ld", most);
            cerr_key4(errs, n, "bot.whole_from_one", b->spec, key, top, val);
            return -1;
        }
        if (!strcmp(key, "searches")) b->searches = (long)d;
        else b->cores = (long)d;
    } else if (!strcmp(key, "time")) {
        if (d > CAIRN_BOT_MAX_TIME) {
            size_t n = errs->n;
            cerr_add(errs, NULL, 0, 0, NULL, "bot %s: time is at most %g seconds", b->spec, CAIRN_BOT_MAX_TIME);
            char most[32];
            snprintf(most, sizeof most, "%g", CAIRN_BOT_MAX_TIME);
            cerr_key(errs, n, "bot.time_most", 0, b->spec, most);
            return -1;
        }
        b->time = d;
    } else if (!strcmp(key, "c")) {
        b->c = d;
    } else if (!strcmp(key, "epsilon")) {
        b->epsilon = d > 1 ? 1 : d;
    } else {
        b->hscale = d > 0 ? d : CAIRN_BOT_HSCALE;
    }
    return 0;
}

bot *bot_new(const char *spec, cerr_list *errs) {
    bot *b = calloc(1, sizeof *b);
    if (!b || !(b->spec = cairn_strdup(spec))) {
        free(b);
        errs->oom = 1;
        return NULL;
    }
    b->iterations = -1; /* not given */
    b->c = CAIRN_BOT_UCT_C;
    b->depth = CAIRN_BOT_DEPTH;
    b->epsilon = 0.1;
    b->hscale = CAIRN_BOT_HSCALE;
    b->samples = CAIRN_BOT_SAMPLES;
    b->searches = CAIRN_BOT_SEARCHES;
    if (bot_spec_is_exec(spec)) { /* exec:COMMAND (bot_exec.c) */
        b->k = BOT_EXEC;
        if (!(b->kind = cairn_strdup("exec"))) {
            bot_free(b);
            errs->oom = 1;
            return NULL;
        }
        if (!(b->exec = bot_exec_parse(spec, spec + 5, errs))) {
            bot_free(b);
            return NULL;
        }
        return b;
    }
    const char *colon = strchr(spec, ':');
    size_t klen = colon ? (size_t)(colon - spec) : strlen(spec);
    const kind_def *kd = find_kind(spec, klen);
    if (!kd) {
        /* RULESET:NAME, a bot the ruleset ships (checked against the game) */
        if (colon && klen > 0 && colon[1] && !strchr(colon + 1, '=')) {
            b->k = BOT_RULESET;
            if (!(b->kind = strndup(spec, klen)) || !(b->name = cairn_strdup(colon + 1))) {
                bot_free(b);
                errs->oom = 1;
                return NULL;
            }
            return b;
        }
        size_t n = errs->n;
        cerr_add(errs, NULL, 0, 0, NULL, "no bot kind \"%.*s\"; the kinds are: %s", (int)klen, spec, bot_kinds());
        char *kind = strndup(spec, klen);
        if (kind) cerr_key(errs, n, "bot.no_kind", 0, kind, bot_kinds());
        free(kind);
        bot_free(b);
        return NULL;
    }
    b->k = kd->k;
    if (!(b->kind = cairn_strdup(kd->name))) {
        bot_free(b);
        errs->oom = 1;
        return NULL;
    }
    /* PARAM=V,... */
    const char *p = colon ? colon + 1 : NULL;
    while (p && *p) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char item[128];
        if (len == 0 || len >= sizeof item) {
            size_t n = errs->n;
            cerr_add(errs, NULL, 0, 0, NULL, "bot %s: expected PARAM=VALUE after \"%s:\"", spec, kd->name);
            cerr_key(errs, n, "bot.param_expected", 0, spec, kd->name);
            bot_free(b);
            return NULL;
        }
        memcpy(item, p, len);
        item[len] = '\0';
        char *eq = strchr(item, '=');
        if (!eq) {
            size_t n = errs->n;
            cerr_add(errs, NULL, 0, 0, NULL, "bot %s: \"%s\" is not PARAM=VALUE", spec, item);
            cerr_key(errs, n, "bot.not_param", 0, spec, item);
            bot_free(b);
            return NULL;
        }
        *eq = '\0';
        if (set_param(b, kd, item, eq + 1, errs) != 0) {
            bot_free(b);
            return NULL;
        }
        p = comma ? comma + 1 : NULL;
    }
    if (b->iterations < 0) b->iterations = b->time > 0 ? 0 : CAIRN_BOT_ITERATIONS;
    if ((b->k == BOT_MCTS || b->k == BOT_ISMCTS) && b->iterations == 0 && b->time == 0) {
        size_t n = errs->n;
        cerr_add(errs, NULL, 0, 0, NULL, "bot %s: give iterations or time a budget above 0", spec);
        cerr_key(errs, n, "bot.no_budget", 0, spec, NULL);
        bot_free(b);
        return NULL;
    }
    return b;
}

void bot_free(bot *b) {
    if (!b) return;
    bot_exec_free(b->exec);
    free(b->spec);
    free(b->kind);
    free(b->name);
    free(b->why);
    bot_reasons_free(&b->reasons);
    free(b);
}

int bot_spec_valid(const char *spec, cerr_list *errs) {
    bot *b = bot_new(spec, errs);
    bot_free(b);
    return b ? 0 : -1;
}

const char *bot_spec(const bot *b) { return b->spec; }
const char *bot_kind(const bot *b) { return b->kind; }
int bot_is_timed(const bot *b) { return (b->k == BOT_MCTS || b->k == BOT_ISMCTS) && b->time > 0; }

void bot_set_why(bot *b, char *s) {
    free(b->why);
    b->why = s;
}

void bot_reasons_free(bot_reasons *r) {
    for (size_t i = 0; i < r->n_rows; i++) free(r->rows[i].id);
    memset(r, 0, sizeof *r);
}

void bot_reasons_start(bot *b, bot_why_kind kind) {
    bot_reasons_free(&b->reasons);
    b->reasons.kind = kind;
}

int bot_reasons_row(bot *b, const char *id, double value, unsigned visits, int chosen) {
    bot_reasons *r = &b->reasons;
    if (r->n_rows >= BOT_WHY_ROWS) return -1;
    char *c = cairn_strdup(id);
    if (!c) return -1;
    r->rows[r->n_rows++] = (bot_why_row){c, value, visits, chosen};
    return 0;
}

int bot_reasons_copy(const bot *b, bot_reasons *out) {
    *out = b->reasons;
    for (size_t i = 0; i < out->n_rows; i++) out->rows[i].id = NULL;
    for (size_t i = 0; i < out->n_rows; i++)
        if (!(out->rows[i].id = cairn_strdup(b->reasons.rows[i].id))) {
            bot_reasons_free(out);
            return -1;
        }
    return 0;
}

char *bot_why(const bot *b) {
    return cairn_strdup(b->why ? b->why : "no choice made yet");
}

/* ------------------------------------------------------------ checking */

void bot_end_game(bot *b, engine *e) {
    if (b && b->exec) bot_exec_end_game(b->exec, e);
}

int bot_check(const bot *b, engine *e, cerr_list *errs) {
    const ruleset *rs = engine_ruleset(e);
    if (b->k == BOT_EXEC) return bot_exec_check(b->exec, e, errs);
    if (b->k == BOT_RULESET) {
        if (strcmp(b->kind, rs->id) != 0) {
            cerr_addk(errs, NULL, 0, 0, NULL, "bot.other_game", "bot %s: this game is %s, not %s", b->spec, rs->id,
                      b->kind);
            return -1;
        }
        const value *list = rs->manifest ? value_map_get(rs->manifest, "bots") : NULL;
        int declared = 0;
        for (size_t i = 0; list && list->type == CV_LIST && i < list->u.list.n; i++) {
            const char *id = value_get_str(list->u.list.items[i], "id", NULL);
            declared |= id && !strcmp(id, b->name);
        }
        if (!declared) {
            cerr_addk(errs, NULL, 0, 0, NULL, "bot.undeclared", "bot %s: %s declares no bot \"%s\" (the manifest's bots:)",
                      b->spec, rs->id, b->name);
            return -1;
        }
        if (engine_has_secrets(e) && !engine_has_determinize(e)) {
            cerr_addk(errs, NULL, 0, 0, NULL, "bot.own_secrets",
                      "bot %s: %s keeps secrets and has no determinize hook, so its own bots could only run "
                      "beside the true state; they are refused (docs/bots.md)", b->spec, rs->id);
            return -1;
        }
        if (!engine_has_ruleset_bot(e, b->name)) {
            cerr_addk(errs, NULL, 0, 0, NULL, "bot.no_rules_bot", "bot %s: %s declares it but its rules have no rules.bots.%s",
                      b->spec, rs->id, b->name);
            return -1;
        }
        return 0;
    }
    int search = b->k == BOT_MCTS || b->k == BOT_ISMCTS || b->k == BOT_GREEDY;
    if (search && engine_has_secrets(e) && !engine_has_determinize(e)) {
        cerr_addk(errs, NULL, 0, 0, NULL, "bot.search_secrets",
                  "bot %s: %s keeps secrets (its visibility rules) and has no determinize hook, so a %s "
                  "bot could only look ahead by reading the true state; it is refused (docs/bots.md)",
                  b->spec, rs->id, b->kind);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------ defaults */

void bot_settle_defaults(bot *b, const engine *e) {
    const ruleset *rs = engine_ruleset(e);
    const value *d = rs && rs->manifest ? value_map_get(rs->manifest, "bot_defaults") : NULL;
    if (!b->iterations_given && b->time == 0)
        b->iterations = d ? (long)value_get_int(d, "iterations", CAIRN_BOT_ITERATIONS) : CAIRN_BOT_ITERATIONS;
    if (!b->depth_given) b->depth = d ? (long)value_get_int(d, "depth", CAIRN_BOT_DEPTH) : CAIRN_BOT_DEPTH;
}

/* ------------------------------------------------------------ streams */

uint64_t bot_stream_seed(const engine *e, int seat, uint64_t tag) {
    rng r;
    rng_seed_stream(&r, engine_seed(e) ^ tag, (uint64_t)engine_position(e) * 17 + (uint64_t)seat);
    return rng_next(&r) | 1; /* 0 means "keep the game's RNG" to engine_fork */
}

/* ------------------------------------------------------------ rewards */

/* How much a finished game's result outweighs any margin, for greedy. */
#define GREEDY_RESULT_WEIGHT 1e12

/* The seat's margin mapped into [0, 1]: 0.5 level, near 1 well ahead. */
static double lead_reward(double mine, double best_other, double scale) {
    return 0.5 + 0.5 * tanh((mine - best_other) / scale);
}

int bot_evaluate(engine *f, double *v, cerr_list *errs) {
    int n = engine_seat_count(f);
    int64_t tot[CAIRN_MAX_SEATS];
    if (n > CAIRN_MAX_SEATS) n = CAIRN_MAX_SEATS;
    int rc = engine_score_totals(f, tot, errs);
    if (rc < 0) return -1;
    for (int i = 0; i < n; i++) v[i] = rc > 0 ? (double)tot[i] : 0.0;
    for (int s = 1; s <= n; s++) { /* the ruleset's addition, where it has one */
        int64_t h;
        int hr = engine_heuristic(f, s, &h, errs);
        if (hr < 0) return -1;
        if (hr == 0) break;
        v[s - 1] += (double)h;
    }
    return 0;
}

/* The win share of each seat of the finished game in f, into r. */
static int final_shares(engine *f, double *r, cerr_list *errs) {
    int n = engine_seat_count(f);
    engine_score sc;
    if (engine_score_get(f, &sc, errs) != 0) return -1;
    int best = sc.seats[0].rank, k = 0;
    for (int i = 1; i < n; i++)
        if (sc.seats[i].rank < best) best = sc.seats[i].rank;
    for (int i = 0; i < n; i++) k += sc.seats[i].rank == best;
    for (int i = 0; i < n; i++) r[i] = sc.seats[i].rank == best ? 1.0 / k : 0.0;
    engine_score_free(&sc);
    return 0;
}

/* The best value among the seats but seat i (from 0). */
static double best_other(const double *v, int n, int i) {
    double other = -INFINITY;
    for (int j = 0; j < n; j++)
        if (j != i && v[j] > other) other = v[j];
    return other;
}

int bot_rewards(engine *f, const bot *b, double *r, cerr_list *errs) {
    int n = engine_seat_count(f);
    double v[CAIRN_MAX_SEATS];
    if (engine_is_over(f)) return final_shares(f, r, errs);
    if (bot_evaluate(f, v, errs) != 0) return -1;
    for (int i = 0; i < n; i++) r[i] = n == 1 ? 0.5 : lead_reward(v[i], best_other(v, n, i), b->hscale);
    return 0;
}

/* ------------------------------------------------------------ greedy */

int bot_margin(engine *f, int seat, double *out, cerr_list *errs) {
    int n = engine_seat_count(f);
    double v[CAIRN_MAX_SEATS], share[CAIRN_MAX_SEATS];
    if (bot_evaluate(f, v, errs) != 0) return -1;
    *out = n == 1 ? v[0] : v[seat - 1] - best_other(v, n, seat - 1);
    if (engine_is_over(f)) {
        if (final_shares(f, share, errs) != 0) return -1;
        *out += (share[seat - 1] - 0.5) * GREEDY_RESULT_WEIGHT;
    }
    return 0;
}

/* Index of id among seat's enabled options in f, or -1. */
static long enabled_index(const engine *f, int seat, const char *id) {
    size_t n = engine_bot_option_count(f, seat);
    for (size_t k = 0; k < n; k++) {
        const char *s = engine_bot_option_id(f, seat, k);
        if (s && !strcmp(s, id)) return (long)k;
    }
    return -1;
}

static char *greedy_choose(bot *b, engine *e, int seat, cerr_list *errs) {
    size_t n = engine_bot_option_count(e, seat);
    int secret = engine_has_secrets(e);
    long samples = secret ? b->samples : 1;
    uint64_t base = bot_stream_seed(e, seat, 0x67726565647931ull); /* "greedy1" */
    value *view = secret ? engine_view(e, seat) : NULL;
    char **ids = calloc(n, sizeof *ids);
    double *val = calloc(n, sizeof *val);
    char *pick = NULL;
    engine *f = NULL; /* one fork, started over for each option and sample */
    int bad = !ids || !val || (secret && !view);
    if (bad) errs->oom = 1;
    for (size_t k = 0; k < n && !bad; k++) {
        const char *id = engine_bot_option_id(e, seat, k);
        if (!id || !(ids[k] = cairn_strdup(id))) {
            errs->oom = bad = 1;
            break;
        }
        for (long s = 0; s < samples && !bad; s++) {
            /* the same sampled states for every option: they differ only by the move */
            uint64_t reseed = base + 2 * (uint64_t)s;
            if (!f) f = secret ? engine_fork_sampled(e, view, seat, reseed, errs) : engine_fork(e, reseed, errs);
            else if (engine_fork_refill(f, e, view, seat, reseed, errs) != 0) bad = 1;
            long q = f && !bad ? enabled_index(f, seat, ids[k]) : -1;
            char *why = NULL;
            double v = 0;
            if (!f || bad) bad = 1;
            else if (q < 0) {
                char seat_text[24];
                snprintf(seat_text, sizeof seat_text, "%d", seat);
                cerr_addk(errs, NULL, 0, 0, NULL, "bot.greedy_not_offered",
                          "greedy: \"%s\" is not offered to seat %s in a sampled state (the ruleset's determinize?)",
                          ids[k], seat_text);
                bad = 1;
            } else if (engine_bot_answer(f, seat, (size_t)q, &why) != ENGINE_OK) {
                cerr_addk(errs, NULL, 0, 0, NULL, "bot.greedy_fork", "greedy: \"%s\" failed in a fork: %s", ids[k],
                          why ? why : "?");
                bad = 1;
            } else if (bot_margin(f, seat, &v, errs) != 0) {
                bad = 1;
            }
            free(why);
            val[k] += v;
        }
    }
    if (!bad) {
        /* the best value; ties drawn from the bot's own stream */
        size_t best = 0, ties = 0;
        for (size_t k = 0; k < n; k++) {
            if (k == 0 || val[k] > val[best]) best = k, ties = 1;
            else if (val[k] == val[best]) ties++;
        }
        rng r;
        rng_seed_stream(&r, base, 1);
        uint64_t t = rng_below(&r, ties);
        for (size_t k = 0; k < n; k++)
            if (val[k] == val[best] && t-- == 0) {
                best = k;
                break;
            }
        pick = cairn_strdup(ids[best]);
        strbuf w = {0};
        bot_reasons_start(b, BOT_WHY_GREEDY);
        b->reasons.sampled = secret;
        strbuf_printf(&w, "greedy: one move ahead, by %s%s\n",
                      "the provisional score (score(g), options and mods included) plus the ruleset's heuristic", secret ? ", averaged over sampled states" : "");
        for (int shown = 0; shown < 5; shown++) { /* the top five */
            long top = -1;
            for (size_t k = 0; k < n; k++)
                if (ids[k] && (top < 0 || val[k] > val[top])) top = (long)k;
            if (top < 0) break;
            strbuf_printf(&w, "  %-20s %10.2f%s\n", ids[top], val[top] / (double)samples,
                          (size_t)top == best ? "  <- chosen" : "");
            bot_reasons_row(b, ids[top], val[top] / (double)samples, 0, (size_t)top == best);
            free(ids[top]);
            ids[top] = NULL;
        }
        bot_set_why(b, strbuf_take(&w));
    }
    engine_free(f);
    for (size_t k = 0; ids && k < n; k++) free(ids[k]);
    free(ids);
    free(val);
    value_free(view);
    return pick;
}

/* ------------------------------------------------------------ choose */

char *bot_choose(bot *b, engine *e, int seat, const bot_hooks *hooks, cerr_list *errs) {
    size_t n = engine_bot_option_count(e, seat);
    if (n == 0) {
        char seat_text[24];
        snprintf(seat_text, sizeof seat_text, "%d", seat);
        cerr_addk(errs, NULL, 0, 0, NULL, "bot.no_option", "the %s bot of seat %s has no option it may choose",
                  b->spec, seat_text);
        return NULL;
    }
    if (b->k != BOT_RANDOM && bot_check(b, e, errs) != 0) return NULL;
    if (b->k == BOT_EXEC) return bot_exec_choose(b, e, seat, hooks, errs); /* asked even with one option */
    if (n == 1 || b->k == BOT_RANDOM) { /* random: over every enabled option, `bot = false` too */
        char *id = b->k == BOT_RANDOM ? engine_bot_choice(e, seat) : cairn_strdup(engine_bot_option_id(e, seat, 0));
        if (!id) errs->oom = 1;
        bot_set_why(b, n == 1 ? cairn_strfmt("%s: the only option", b->spec)
                              : cairn_strfmt("%s: uniform over the %zu options", b->spec, n));
        bot_reasons_start(b, n == 1 ? BOT_WHY_ONLY : BOT_WHY_UNIFORM);
        b->reasons.options = n;
        return id;
    }
    if (b->k == BOT_GREEDY) return greedy_choose(b, e, seat, errs);
    if (b->k == BOT_RULESET) {
        char *id = engine_ruleset_bot(e, b->name, seat, bot_stream_seed(e, seat, 0x72626f7431ull) /* "rbot1" */, errs);
        if (id) {
            bot_set_why(b, cairn_strfmt("%s: the ruleset's own bot chose %s", b->spec, id));
            bot_reasons_start(b, BOT_WHY_RULESET);
            bot_reasons_row(b, id, 0, 0, 1); /* out of memory: no row, the reasons say less */
        }
        return id;
    }
    return bot_mcts_choose(b, e, seat, hooks, errs);
}
