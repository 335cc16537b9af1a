/*
** sim_flags.c
** The flags of `cairn sim`: one row each in the table below (name, short
** name, values, what they are, meaning) and the setter that reads its
** values into sim_opts. The parser is cliflags.c's, as for every command.
*/
#include "sim_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* CAIRN_MAX_SEATS as text, for messages built at compile time */
#define TEXT_OF(n) #n
#define NUMBER_TEXT(n) TEXT_OF(n)
#define SEATS_TEXT NUMBER_TEXT(CAIRN_MAX_SEATS)

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

/* Each flag sim reads besides the ruleset's own (ruleset_flags_apply): a
** setter gets the flag's values (v[0], v[1]; NULL for a switch) and returns
** 0, or 2 after printing the usage error. A flag added is a row of the
** table below and a setter. */
typedef int (*flag_setter)(sim_opts *o, const char *const *v, FILE *err);

static int set_games(sim_opts *o, const char *const *vv, FILE *err) {
    const char *v = vv[0];
    if (parse_long(v, 1, CAIRN_SIM_MAX_GAMES, &o->games) != 0)
        return usage(err, "--games takes a number from 1 to 1000000, got \"%s\"", v);
    return 0;
}
static int set_seed(sim_opts *o, const char *const *vv, FILE *err) {
    const char *v = vv[0];
    if (parse_seed(v, &o->seed) != 0) return usage(err, "--seed takes a whole number from 0 to 2^64-1, got \"%s\"", v);
    return 0;
}
static int set_jobs(sim_opts *o, const char *const *vv, FILE *err) {
    const char *v = vv[0];
    long n;
    if (parse_long(v, 1, 256, &n) != 0) return usage(err, "--jobs takes a number from 1 to 256, got \"%s\"", v);
    o->jobs = (int)n;
    return 0;
}
static int set_shard(sim_opts *o, const char *const *vv, FILE *err) {
    const char *v = vv[0];
    char k[24], n[24], extra;
    if (sscanf(v, "%23[0-9]/%23[0-9]%c", k, n, &extra) != 2 || parse_long(n, 1, 100000, &o->shard_n) != 0 ||
        parse_long(k, 1, o->shard_n, &o->shard_k) != 0)
        return usage(err, "--shard takes K/N with 1 <= K <= N (2/8: the second of eight parts), got \"%s\"", v);
    return 0;
}
static int set_checks(sim_opts *o, const char *const *vv, FILE *err) { return (void)vv, (void)err, o->checks = 1, 0; }
static int set_quiet(sim_opts *o, const char *const *vv, FILE *err) { return (void)vv, (void)err, o->quiet = 1, 0; }
static int set_time(sim_opts *o, const char *const *vv, FILE *err) { return (void)o, (void)vv, (void)err, 0; }
static int set_json(sim_opts *o, const char *const *vv, FILE *err) { return (void)err, o->json = vv[0], 0; }
static int set_csv(sim_opts *o, const char *const *vv, FILE *err) { return (void)err, o->csv = vv[0], 0; }
static int set_coverage(sim_opts *o, const char *const *vv, FILE *err) { return (void)vv, (void)err, o->coverage = 1, 0; }
static int set_ban(sim_opts *o, const char *const *vv, FILE *err) {
    const char *v = vv[0];
    char seat[8];
    long n;
    int used = 0;
    if (sscanf(v, "%7[0-9]:%n", seat, &used) != 1 || !used || !v[used] || parse_long(seat, 1, CAIRN_MAX_SEATS, &n) != 0)
        return usage(err, "--ban takes SEAT:PREFIX (2:card stupa), got \"%s\"", v);
    o->ban[n - 1] = v + used;
    return 0;
}
static int set_set(sim_opts *o, const char *const *vv, FILE *err) {
    const char *v = vv[0];
    char *name, *path, *why = NULL;
    const char *val;
    if (ruleset_set_split(v, &name, &path, &val, &why) != 0) {
        int rc = usage(err, "%s", why ? why : "out of memory");
        free(why);
        return rc;
    }
    free(name);
    free(path);
    if (o->n_sets == CAIRN_SIM_MAX_SETS) return usage(err, "too many --set (CAIRN_SIM_MAX_SETS); \"%s\" is one too many", v);
    o->set[o->n_sets++] = v;
    return 0;
}
static int set_sweep(sim_opts *o, const char *const *vv, FILE *err) {
    const char *v = vv[0];
    const char *eq = strchr(v, '=');
    int n = 1;
    for (const char *p = eq ? eq : v; *p; p++) n += *p == ',';
    if (!eq || eq == v || !eq[1] || (n < 2 && !strstr(v, "..")) || n > CAIRN_SIM_MAX_VARIANTS)
        return usage(err, "--sweep takes KEY=V1,V2,... (2 to 8 values; KEY an option or DATA.PATH), got \"%s\"", v);
    o->sweep = v;
    return 0;
}
static int set_leads(sim_opts *o, const char *const *vv, FILE *err) { return (void)vv, (void)err, o->leads = 1, 0; }
static int set_find(sim_opts *o, const char *const *vv, FILE *err) { return (void)err, o->find = vv[0], 0; }
static int set_starter(sim_opts *o, const char *const *vv, FILE *err) {
    const char *v = vv[0];
    return (void)err, o->starter = v, o->starter_given = 1, 0;
}

/* --bots "mcts:iterations=500,depth=20,random": one spec per seat; a comma
** starts a new spec unless what follows is PARAM=VALUE (a kind never holds
** "="). Each spec is checked (bot_spec_valid). */
static int set_bots(sim_opts *o, const char *const *vv, FILE *err) {
    const char *arg = vv[0];
    int n = sim_split_bot_specs(arg, o->bot_spec, CAIRN_MAX_SEATS); /* sim_tournament.c */
    if (n == -2) return usage(err, "--bots names more than " SEATS_TEXT " seats: \"%s\"", arg);
    if (n < 0) return usage(err, "%s", "out of memory");
    o->n_bots = n;
    for (int i = 0; i < n; i++) {
        o->bot[i] = o->bot_spec[i];
        cerr_list errs;
        cerr_init(&errs, 0);
        if (bot_spec_valid(o->bot_spec[i], &errs) != 0) {
            char *m = errs.n ? cerr_format(&errs.items[0]) : NULL;
            int rc = usage(err, "--bots: %s", m ? m : "out of memory");
            free(m);
            cerr_free(&errs);
            return rc;
        }
        cerr_free(&errs);
    }
    if (o->n_bots == 0) return usage(err, "--bots takes KIND,KIND,... (one per seat), got \"%s\"", arg);
    return 0;
}

static int set_compare(sim_opts *o, const char *const *vv, FILE *err) {
    return (void)err, o->compare[0] = vv[0], o->compare[1] = vv[1], 0;
}

/* The lab's flags (sim_lab_flags.c checks their values). */
#define LAB_SETTER(fn, flag)                                                                       \
    static int fn(sim_opts *o, const char *const *vv, FILE *err) { return sim_lab_flag(&o->lab, flag, vv[0], err); }
LAB_SETTER(set_tournament, "--tournament")
LAB_SETTER(set_skill, "--skill")
LAB_SETTER(set_field, "--field")
LAB_SETTER(set_trajectory, "--trajectory")
LAB_SETTER(set_report, "--report")
LAB_SETTER(set_until_width, "--until-width")
LAB_SETTER(set_factorial, "--factorial")
LAB_SETTER(set_tune, "--tune")
LAB_SETTER(set_target, "--target")

/* One row per flag: the flag as every command's table has it, and its
** setter. */
typedef struct sim_flag {
    cli_flag flag;
    flag_setter set;
} sim_flag;

static const sim_flag sim_rows[] = {
    {{"games", 'g', 1, "N", CLI_TEXT, NULL, "games to play (default 100, at most 1000000)"}, set_games},
    {{"seed", 's', 1, "S", CLI_TEXT, NULL, "the first game's seed (default 1)"}, set_seed},
    {{"bots", 'b', 1, "KIND,...", CLI_TEXT, NULL, "one bot per seat (mcts:iterations=500,random; docs/bots.md)"}, set_bots},
    {{"checks", 0, 0, "", CLI_TEXT, NULL, "check the state schema and check() after every decision"}, set_checks},
    {{"compare", 0, 2, "A B", CLI_TEXT, NULL, "play each seed in A and B and report B - A with intervals"}, set_compare},
    {{"set", 0, 1, "DATA.PATH=VALUE", CLI_TEXT, NULL, "a data override for the whole run (repeatable)"}, set_set},
    {{"sweep", 0, 1, "KEY=V1,V2,...", CLI_TEXT, NULL, "one column per value, each against the first"}, set_sweep},
    {{"jobs", 'j', 1, "J", CLI_TEXT, NULL, "worker processes (default: the CPUs this process may use)"}, set_jobs},
    {{"shard", 0, 1, "K/N", CLI_TEXT, NULL, "play the K-th of N slices of the games and write a JSON part"}, set_shard},
    {{"json", 0, 1, "FILE", CLI_FILE, NULL, "the games and the figures as JSON"}, set_json},
    {{"csv", 0, 1, "FILE", CLI_FILE, NULL, "one row per game as CSV"}, set_csv},
    {{"starter", 0, 1, "FIELD", CLI_TEXT, NULL, "the state field naming the seat that starts"}, set_starter},
    {{"ban", 0, 1, "SEAT:PREFIX", CLI_TEXT, NULL, "that seat's bot never takes an option whose id starts with PREFIX"}, set_ban},
    {{"coverage", 0, 0, "", CLI_TEXT, NULL, "how often each option id was offered and taken"}, set_coverage},
    {{"find", 0, 1, "EXPR", CLI_TEXT, NULL, "list the seeds of games where a Lua expression held at the end"}, set_find},
    {{"leads", 0, 0, "", CLI_TEXT, NULL, "count lead changes (score(g) after every decision: slower)"}, set_leads},
    {{"quiet", 'q', 0, "", CLI_TEXT, NULL, "no progress on stderr"}, set_quiet},
    {{"time", 0, 0, "", CLI_TEXT, NULL, "accepted for old scripts: the timing line is always printed"}, set_time},
    {{"tournament", 0, 1, "BOT,BOT,...", CLI_TEXT, NULL, "every bot in every seat and order: ratings with 95% intervals"}, set_tournament},
    {{"skill", 0, 1, "KIND:PARAM=V1,V2,...", CLI_TEXT, NULL, "each level against the field: the win-share curve"}, set_skill},
    {{"field", 0, 1, "BOT", CLI_TEXT, NULL, "who --skill's levels play against (default random)"}, set_field},
    {{"trajectory", 0, 1, "round|N", CLI_TEXT, NULL, "provisional scores and metrics(g) each round or N decisions"}, set_trajectory},
    {{"report", 0, 1, "FILE.html", CLI_FILE, NULL, "the run as one self-contained page of charts"}, set_report},
    {{"until-width", 0, 1, "W", CLI_TEXT, NULL, "stop once every win-share interval is at most W wide"}, set_until_width},
    {{"factorial", 0, 1, "OPT,OPT[,OPT]", CLI_TEXT, NULL, "every combination of 2 or 3 options: main effects, Holm"}, set_factorial},
    {{"tune", 0, 1, "DATA.PATH=LO..HI", CLI_TEXT, NULL, "the value that brings a win share to --target"}, set_tune},
    {{"target", 0, 1, "'position N win share = X'", CLI_TEXT, NULL, "what --tune aims at"}, set_target},
};
static const cli_table sim_table = CLI_TABLE(sim_rows);
const cli_table *const sim_flag_tables[] = {&ruleset_flag_table, &sim_table, NULL};

static const sim_flag *sim_row(const cli_flag *f) {
    for (size_t k = 0; k < sizeof sim_rows / sizeof *sim_rows; k++)
        if (&sim_rows[k].flag == f) return &sim_rows[k];
    return NULL;
}

int sim_parse(int argc, char **argv, sim_opts *o, FILE *err) {
    memset(o, 0, sizeof *o);
    o->games = CAIRN_SIM_GAMES;
    o->seed = 1;
    o->starter = "start_seat";
    if (ruleset_flags_init(&o->flags, argc) != 0) return fprintf(err, "cairn sim: out of memory\n"), 1;
    cli_parser p;
    cli_item it;
    char *why;
    int got, bad = 0;
    cli_start(&p, argc, argv, sim_flag_tables);
    while ((got = cli_next(&p, &it, &why)) > 0) {
        const sim_flag *row = it.flag ? sim_row(it.flag) : NULL;
        if (row) {
            int rc = row->set(o, it.values, err);
            if (rc) return rc;
        } else if (it.flag) {
            cerr_list errs;
            cerr_init(&errs, 0);
            if (ruleset_flags_apply(&o->flags, &it, &errs) < 0) {
                why = cairn_strdup(errs.n ? errs.items[0].message : "out of memory");
                cerr_free(&errs);
                bad = 1;
                break;
            }
            cerr_free(&errs);
        } else if (!o->ruleset) {
            o->ruleset = it.values[0];
        } else {
            return usage(err, "one ruleset at a time; \"%s\" is one too many", it.values[0]);
        }
    }
    if (got < 0 || bad) {
        int rc = usage(err, "%s", why ? why : "out of memory");
        free(why);
        return rc;
    }
    if (!o->ruleset) return usage(err, "which ruleset?%s", "");
    if (o->sweep && o->compare[0]) return usage(err, "--sweep or --compare, not both%s", "");
    return sim_lab_check(&o->lab, o->compare[0] != NULL, o->sweep != NULL, o->shard_n != 0, o->n_bots, err);
}

/* `cairn sim merge`'s flags: read by sim_merge.c. */
static const cli_flag merge_rows[] = {
    {"json", 0, 1, "FILE", CLI_FILE, NULL, "write the merged run as one JSON file"},
    {"csv", 0, 1, "FILE", CLI_FILE, NULL, "write the merged run's games as one CSV file"},
    {"report", 0, 1, "FILE.html", CLI_FILE, NULL, "the merged run as one self-contained page of charts"},
};
static const cli_table merge_table = CLI_TABLE(merge_rows);
const cli_table *const sim_merge_flag_tables[] = {&merge_table, NULL};
