/*
** test_sim.c
** `cairn sim`, the balance lab: the report is the same on every run and for
** any --jobs, three shards merged give the one run's report, --compare of a
** ruleset against itself flags nothing and against a mod doubling a score
** value flags that line, a failing game is listed and the run goes on,
** Ctrl-C leaves a valid JSON file, bad flags are refused with a message.
** The small game is tests/fixtures/rulesets/simlab (7 decisions a game).
*/
#include "testutil.h"
#include "error.h"
#include "sim.h"
#include "cpus.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SIMLAB "tests/fixtures/rulesets/simlab"
#define SIMLAB_STARTER "tests/fixtures/rulesets/simlab_starter"
#define DOUBLE "tests/fixtures/rulesets/simlab_double"

/* What one sim run printed, and its exit status. */
typedef struct run {
    int rc;
    char out[32768], err[16384];
} run;

static void slurp(FILE *f, char *buf, size_t size) {
    fflush(f);
    rewind(f);
    size_t n = fread(buf, 1, size - 1, f);
    buf[n] = '\0';
    fclose(f);
}

/* Runs `cairn sim` with the NULL-terminated arguments after "sim". */
static void sim(run *r, const char *const *args) {
    char *argv[40] = {(char *)"sim"};
    int argc = 1;
    while (args[argc - 1]) {
        argv[argc] = (char *)args[argc - 1];
        argc++;
    }
    FILE *out = tmpfile(), *err = tmpfile();
    assert_non_null(out);
    assert_non_null(err);
    r->rc = sim_run(argc, argv, out, err);
    slurp(out, r->out, sizeof r->out);
    slurp(err, r->err, sizeof r->err);
}

/* The report without its timing lines (the time line and the CPU per
** decision after it, the one thing that differs between runs), in place. */
static void drop_time(char *report) {
    char *t = strstr(report, "time: ");
    assert_non_null(t);
    char *end = strchr(t, '\n');
    if (!strncmp(end + 1, "cpu per decision: ", 18)) end = strchr(end + 1, '\n');
    memmove(t, end + 1, strlen(end + 1) + 1);
}

/* The win shares on the report's "win share" row after `from`, as tenths
** of a percent ("57.5% [50.1, 64.3]" -> 575); how many were read. */
static int share_row(const char *from, long *tenths, int max) {
    const char *p = strstr(from, "\nwin share");
    assert_non_null(p);
    p += strlen("\nwin share");
    int n = 0, used;
    long whole, tenth;
    double lo, hi;
    while (n < max && sscanf(p, " %ld.%ld%% [%lf, %lf]%n", &whole, &tenth, &lo, &hi, &used) == 4) {
        tenths[n++] = whole * 10 + tenth;
        p += used;
    }
    return n;
}

static char *read_all(const char *path) {
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* ---- a JSON syntax check (RFC 8259), enough to say a file is whole */

static const char *json_value(const char *p);

static const char *json_ws(const char *p) {
    while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r') p++;
    return p;
}

static const char *json_string(const char *p) {
    if (*p++ != '"') return NULL;
    for (; *p && *p != '"'; p++) {
        if ((unsigned char)*p < 0x20) return NULL;
        if (*p == '\\' && !*++p) return NULL;
    }
    return *p == '"' ? p + 1 : NULL;
}

static const char *json_items(const char *p, char close, int keyed) {
    p = json_ws(p + 1);
    if (*p == close) return p + 1;
    for (;;) {
        if (keyed) {
            if (!(p = json_string(json_ws(p)))) return NULL;
            p = json_ws(p);
            if (*p++ != ':') return NULL;
        }
        if (!(p = json_value(p))) return NULL;
        p = json_ws(p);
        if (*p == close) return p + 1;
        if (*p++ != ',') return NULL;
    }
}

static const char *json_value(const char *p) {
    p = json_ws(p);
    if (*p == '{') return json_items(p, '}', 1);
    if (*p == '[') return json_items(p, ']', 0);
    if (*p == '"') return json_string(p);
    if (!strncmp(p, "true", 4) || !strncmp(p, "null", 4)) return p + 4;
    if (!strncmp(p, "false", 5)) return p + 5;
    char *end;
    strtod(p, &end);
    return end > p ? end : NULL;
}

static int json_valid(const char *s) {
    const char *end = json_value(s);
    return end && !*json_ws(end);
}

/* -------------------------------------------------------------- tests */

/* Twenty games of Connect Four: the same report twice. Each game takes at
** least 7 decisions (seat 1's fourth disc is the 7th drop, the first that
** can make four in a row) and at most 42 (the 7x6 grid full). */
static void test_connect4_report(void **st) {
    (void)st;
    static const char *const args[] = {"rulesets/connect4", "--games", "20", "--seed", "7", "--quiet", NULL};
    run a, b;
    sim(&a, args);
    sim(&b, args);
    if (a.rc != 0) fprintf(stderr, "%s", a.err);
    assert_int_equal(a.rc, 0);
    assert_int_equal(b.rc, 0);
    assert_string_equal(a.err, "");
    drop_time(a.out);
    drop_time(b.out);
    assert_string_equal(a.out, b.out);
    assert_non_null(strstr(a.out, "connect4 1.0: 20 games, 2 players, seeds 7-26, checks off, bots random,random\n"));

    const char *d = strstr(a.out, "decisions per game: mean ");
    assert_non_null(d);
    unsigned lo, hi;
    assert_int_equal(sscanf(d, "decisions per game: mean %*f [%*f, %*f], sd %*f, min %u, max %u", &lo, &hi), 2);
    assert_true(lo >= 7);
    assert_true(hi <= 42);
    assert_true(lo <= hi);
    long share[2];
    assert_int_equal(share_row(a.out, share, 2), 2);
    /* no draw in these 20 games: the shares add up to 100.0% (give or take
    ** the rounding of each to a tenth) */
    assert_true(share[0] + share[1] >= 999 && share[0] + share[1] <= 1001);
    /* connect4's start_seat(g) is always seat 1: no table by turn position,
    ** which would repeat the seats' */
    assert_null(strstr(a.out, "by turn position"));
    assert_non_null(strstr(a.out, "seat 1 starts every game: the turn positions are the seats\n"));
    /* no rounds field either */
    assert_null(strstr(a.out, "rounds per game"));
}

/* --leads: in Connect Four both seats score 0 until a win, so nobody leads
** alone until the last decision, and the first leader is no change: 0 lead
** changes in every game. No spread, yet not a zero-width interval: 0 -/+
** 3.8415 / (20 + 3.8415) = 0.16113. */
static void test_leads(void **st) {
    (void)st;
    static const char *const args[] = {"connect4", "--games", "20", "--quiet", "--leads", NULL};
    run r;
    sim(&r, args);
    assert_int_equal(r.rc, 0);
    assert_non_null(strstr(r.out, "lead changes per game: mean 0.00 [-0.16, 0.16], sd 0.00, min 0, max 0\n"));
}

/* Checks on, three seats, a preset: 5 rounds of 3 bids each. */
static void test_goofspiel_three_seats(void **st) {
    (void)st;
    static const char *const args[] = {"goofspiel", "--players", "3", "--preset", "quick",
                                       "--games", "12", "--checks", "--quiet", NULL};
    run r;
    sim(&r, args);
    if (r.rc != 0) fprintf(stderr, "%s", r.err);
    assert_int_equal(r.rc, 0);
    assert_non_null(strstr(r.out, "goofspiel 1.0: 12 games, 3 players, seeds 1-12, checks on"));
    assert_non_null(strstr(r.out, "options: cards=5 tricks=true (preset quick)\n"));
    /* no spread: 15 -/+ 3.8415 / (12 + 3.8415) = 0.24249 */
    assert_non_null(strstr(r.out, "decisions per game: mean 15.00 [14.76, 15.24], sd 0.00, min 15, max 15\n"));
    long share[3];
    assert_int_equal(share_row(r.out, share, 3), 3);
}

/* simlab: seat start_seat picks 4 times, the other 3 times (7 decisions),
** so the seat that started wins far more often: the table by turn position
** shows it while the seat columns (the start seat is drawn at random) do
** not. Its note says so. */
static void test_turn_position(void **st) {
    (void)st;
    static const char *const args[] = {SIMLAB, "--games", "300", "--quiet", "--jobs", "1", NULL};
    run r;
    sim(&r, args);
    assert_int_equal(r.rc, 0);
    assert_non_null(strstr(r.out, "by turn position (from start_seat(g) or state.start_seat at the start):\n"));
    long seat[2], pos[2];
    assert_int_equal(share_row(r.out, seat, 2), 2);
    const char *t = strstr(r.out, "by turn position");
    assert_int_equal(share_row(t, pos, 2), 2);
    assert_true(pos[0] > 600); /* 4 picks of 1..3 against 3: mean 8 vs 6 */
    assert_non_null(strstr(r.out, "note: position 1's win share"));
    assert_non_null(strstr(r.out, "note: every seat's 95% interval holds the even share 50.0%"));
    /* the two breakdown lines; 3 rounds + the starter's extra pick */
    assert_non_null(strstr(r.out, "\n  picks "));
    assert_non_null(strstr(r.out, "\n  bonus "));
    /* 7 -/+ 3.8415 / 303.8415 = 0.01264 */
    assert_non_null(strstr(r.out, "decisions per game: mean 7.00 [6.99, 7.01], sd 0.00, min 7, max 7\n"));
    assert_non_null(strstr(r.out, "branching factor: 3.00 options per decision\n"));
}

/* A ruleset's start_seat(g) says who starts, before any state field: the
** fixture's hook names the seat that did not start, so position 1 is now the
** seat without the extra pick and loses most games (the mirror of
** test_turn_position's > 60%); --starter start_seat reads the field again
** and gives that table back; a hook that names no seat fails each game. */
static void test_start_seat_hook(void **st) {
    (void)st;
    static const char *const hook[] = {SIMLAB_STARTER, "--games", "300", "--quiet", "--jobs", "1", NULL};
    static const char *const field[] = {SIMLAB_STARTER, "--games", "300", "--quiet", "--jobs", "1", "--starter", "start_seat", NULL};
    static const char *const bad[] = {SIMLAB_STARTER, "--games", "2", "--quiet", "--jobs", "1", "--option", "bad_start", NULL};
    static run r;
    long pos[2];
    sim(&r, hook);
    assert_int_equal(r.rc, 0);
    const char *t = strstr(r.out, "by turn position (from start_seat(g) or state.start_seat at the start):\n");
    assert_non_null(t);
    assert_int_equal(share_row(t, pos, 2), 2);
    assert_true(pos[0] < 400);
    sim(&r, field);
    assert_int_equal(r.rc, 0);
    t = strstr(r.out, "by turn position (from state.start_seat at the start):\n");
    assert_non_null(t);
    assert_int_equal(share_row(t, pos, 2), 2);
    assert_true(pos[0] > 600);
    sim(&r, bad);
    assert_int_equal(r.rc, 1);
    assert_non_null(strstr(r.out, "seed 1: start_seat must return a seat from 1 to 2, not 0"));
}

/* --jobs 1, --jobs 2 and three shards merged: the same report, timing
** aside. A merge refuses a part of another run and a missing shard. */
static void test_jobs_and_shards(void **st) {
    (void)st;
    char dir[] = "/tmp/cairn-sim-XXXXXX";
    assert_non_null(mkdtemp(dir));
#define PROBES "--coverage", "--find", "g.totals[1] > 12", "--leads"
    static const char *const one[] = {SIMLAB, "--games", "61", "--quiet", PROBES, "--jobs", "1", NULL};
    static const char *const two[] = {SIMLAB, "--games", "61", "--quiet", PROBES, "--jobs", "2", NULL};
    static run a, b, s, m;
    sim(&a, one);
    sim(&b, two);
    assert_int_equal(a.rc, 0);
    assert_int_equal(b.rc, 0);
    assert_non_null(strstr(b.out, ", 2 jobs\n"));
    drop_time(a.out);
    drop_time(b.out);
    assert_string_equal(a.out, b.out);
    assert_non_null(strstr(a.out, "find (g.totals[1] > 12): held in "));
    assert_non_null(strstr(a.out, "rule coverage"));
    assert_non_null(strstr(a.out, "lead changes per game: mean "));

    char part[3][128], shard[3][16];
    for (int k = 0; k < 3; k++) {
        snprintf(part[k], sizeof part[k], "%s/part-%d.json", dir, k + 1);
        snprintf(shard[k], sizeof shard[k], "%d/3", k + 1);
        const char *args[] = {SIMLAB, "--games", "61", "--quiet", PROBES, "--shard", shard[k], "--json", part[k], NULL};
        sim(&s, args);
        assert_int_equal(s.rc, 0);
        assert_true(json_valid(read_all(part[k])));
    }
    /* shard 3 of 3 of 61 games: games 2*61/3 = 40 to 60, seeds 41-61 */
    assert_non_null(strstr(s.out, "simlab 1.0: 21 games, 2 players, seeds 41-61, "));
    char merged[128];
    snprintf(merged, sizeof merged, "%s/all.json", dir);
    const char *margs[] = {"merge", part[2], part[0], part[1], "--json", merged, NULL};
    sim(&m, margs);
    if (m.rc) fprintf(stderr, "%s", m.err);
    assert_int_equal(m.rc, 0);
    assert_string_equal(m.out, a.out); /* merge prints no timing line */
    assert_true(json_valid(read_all(merged)));

    const char *missing[] = {"merge", part[0], part[2], NULL};
    sim(&m, missing);
    assert_int_equal(m.rc, 1);
    assert_non_null(strstr(m.err, "shard 2 of 3 is missing"));
    char other[128];
    snprintf(other, sizeof other, "%s/other.json", dir);
    const char *oargs[] = {SIMLAB, "--games", "62", "--quiet", PROBES, "--shard", "2/3", "--json", other, NULL};
    sim(&s, oargs);
    const char *mixed[] = {"merge", part[0], other, part[2], NULL};
    sim(&m, mixed);
    assert_int_equal(m.rc, 1);
    assert_non_null(strstr(m.err, "is from another run"));
    assert_non_null(strstr(m.err, "(its games differ)"));
    char *cmd = cairn_strfmt("rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    free(cmd);
}

/* A ruleset against itself: every paired difference is 0 in every game,
** so each interval is 0 -/+ 3.8415 / 103.8415 = 0.037 (never zero wide) and
** nothing is flagged. */
static void test_compare_self(void **st) {
    (void)st;
    static const char *const args[] = {SIMLAB, "--games", "100", "--quiet", "--compare", "", "", NULL};
    run r;
    sim(&r, args);
    assert_int_equal(r.rc, 0);
    assert_non_null(strstr(r.out, "paired games: 100 (the same seed in A and B)\n"));
    assert_null(strstr(r.out, "  *"));
    assert_non_null(strstr(r.out, "note: no figure differs beyond noise (100 paired games)\n"));
    assert_non_null(strstr(r.out, "any seat: bonus "));
}

/* simlab against its mod with the bonus for a 3 doubled (2 -> 4). The bots
** see the same options, so they pick the same numbers: "picks" is equal in
** every game (difference 0 -/+ 0.037, not flagged), while "bonus" in B is twice
** A's in every game, so its mean difference is A's mean and flagged. */
static void test_compare_mod(void **st) {
    (void)st;
    static const char *const args[] = {SIMLAB, "--games", "100", "--quiet", "--compare", SIMLAB, DOUBLE, NULL};
    run r;
    sim(&r, args);
    assert_int_equal(r.rc, 0);
    assert_non_null(strstr(r.out, "B: simlab_double 1.0, options flaky=false\n"));
    {
        char name[32];
        snprintf(name, sizeof name, "any seat: bonus ");
        const char *line = strstr(r.out, name);
        assert_non_null(line);
        double a, b, d;
        assert_int_equal(sscanf(line + strlen(name), "%lf %lf %lf", &a, &b, &d), 3);
        assert_true(a > 0);
        assert_true(b > 2 * a - 0.011 && b < 2 * a + 0.011);
        assert_true(d > a - 0.011 && d < a + 0.011);
        const char *eol = strchr(line, '\n');
        assert_true(eol - line > 3 && !strncmp(eol - 3, "  *", 3));
        snprintf(name, sizeof name, "any seat: picks ");
        line = strstr(r.out, name);
        assert_non_null(line);
        eol = strchr(line, '\n');
        assert_false(!strncmp(eol - 3, "  *", 3));
        assert_non_null(strstr(line, "+0.00 [-0.04, +0.04]\n"));
    }
}

/* --set scoring.bonus=4 as B makes the same mod simlab_double is (sim_set.c
** writes it to a temporary folder): the comparison's figures are the same
** as against the folder, line for line. A path the data does not have is
** refused, naming it. */
static void test_compare_set(void **st) {
    (void)st;
    static const char *const by_set[] = {SIMLAB, "--games", "60", "--quiet", "--compare", "", "scoring.bonus=4", NULL};
    static const char *const by_mod[] = {SIMLAB, "--games", "60", "--quiet", "--compare", SIMLAB, DOUBLE, NULL};
    static run a, b;
    sim(&a, by_set);
    sim(&b, by_mod);
    assert_int_equal(a.rc, 0);
    assert_int_equal(b.rc, 0);
    assert_non_null(strstr(a.out, "B: simlab 1.0, options flaky=false, set scoring.bonus=4\n"));
    const char *fa = strstr(a.out, "\ndecisions "), *fb = strstr(b.out, "\ndecisions ");
    assert_non_null(fa);
    assert_non_null(fb);
    drop_time(a.out);
    drop_time(b.out);
    assert_string_equal(fa, fb);
    static const char *const bad[] = {SIMLAB, "--games", "2", "--quiet", "--set", "scoring.nope=1", NULL};
    sim(&a, bad);
    assert_int_equal(a.rc, 1);
    assert_non_null(strstr(a.err, "--set scoring.nope=1: no \"nope\" there in the data"));
    static const char *const worse[] = {SIMLAB, "--set", "bonus", NULL};
    sim(&a, worse);
    assert_int_equal(a.rc, 2);
    assert_non_null(strstr(a.err, "--set takes DATA.PATH=VALUE"));
}

/* --find: every simlab game takes 7 decisions (3 rounds of 2 picks, and the
** starter's extra one), so "g.decisions == 7" holds in all 40 games, seeds
** 1 to 40 listed from the first; no seat can total over 20 (4 picks of 3,
** plus 2 for each), so "g.totals[1] > 20" holds in none. An expression
** that fails is counted with its message; one that does not compile is a
** usage error. */
static void test_find(void **st) {
    (void)st;
    static const char *const all[] = {SIMLAB, "--games", "40", "--quiet", "--find", "g.decisions == 7", NULL};
    run r;
    sim(&r, all);
    assert_int_equal(r.rc, 0);
    assert_non_null(strstr(r.out, "find (g.decisions == 7): held in 40 of 40 games\n"
                                  "  seeds: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 ...\n"
                                  "  replay: cairn play " SIMLAB " --players 2 --bot 1=random --bot 2=random --seed 1\n"));
    static const char *const none[] = {SIMLAB, "--games", "40", "--quiet", "--find", "g.totals[1] > 20", NULL};
    sim(&r, none);
    assert_int_equal(r.rc, 0);
    assert_non_null(strstr(r.out, "find (g.totals[1] > 20): held in 0 of 40 games\n"));
    static const char *const fails[] = {SIMLAB, "--games", "3", "--quiet", "--find", "g.state.nope.x", NULL};
    sim(&r, fails);
    assert_int_equal(r.rc, 0);
    assert_non_null(strstr(r.out, "held in 0 of 3 games; failed in 3 (seed 1: "));
    assert_non_null(strstr(r.out, "attempt to index a nil value (field 'nope')"));
    static const char *const bad[] = {SIMLAB, "--find", "g.state ++", NULL};
    sim(&r, bad);
    assert_int_equal(r.rc, 2);
    assert_non_null(strstr(r.err, "--find \"g.state ++\" is not a Lua expression"));
    static const char *const escape[] = {SIMLAB, "--games", "1", "--quiet", "--find", "os.execute('true')", NULL};
    sim(&r, escape);
    assert_non_null(strstr(r.out, "failed in 1")); /* the sandbox has no os.execute */
}

/* --sweep scoring.bonus=2,3,4: one column per value, each against the first
** on paired seeds. The picks are the same in every column (the bots see the
** same options), so the bonus line grows as the value: 1.5 and 2 times A's
** mean, both flagged, the picks flagged nowhere; --jobs 1 and 2 agree, and
** so do three shards merged. */
static void test_sweep(void **st) {
    (void)st;
    static const char *const one[] = {SIMLAB, "--games", "50", "--quiet", "--jobs", "1", "--sweep", "scoring.bonus=2,3,4", NULL};
    static const char *const two[] = {SIMLAB, "--games", "50", "--quiet", "--jobs", "2", "--sweep", "scoring.bonus=2,3,4", NULL};
    static run a, b;
    sim(&a, one);
    sim(&b, two);
    assert_int_equal(a.rc, 0);
    assert_int_equal(b.rc, 0);
    drop_time(a.out);
    drop_time(b.out);
    assert_string_equal(a.out, b.out);
    assert_non_null(strstr(a.out, "C: simlab 1.0, options flaky=false, set scoring.bonus=4\n"));
    const char *line = strstr(a.out, "any seat: bonus ");
    assert_non_null(line);
    double x, y, z;
    assert_int_equal(sscanf(line + strlen("any seat: bonus "), "%lf %lf* %lf*", &x, &y, &z), 3);
    assert_true(x > 0);
    assert_true(y > 1.5 * x - 0.011 && y < 1.5 * x + 0.011);
    assert_true(z > 2 * x - 0.011 && z < 2 * x + 0.011);
    line = strstr(a.out, "any seat: picks ");
    assert_non_null(line);
    assert_null(memchr(line, '*', (size_t)(strchr(line, '\n') - line)));
    /* three shards of the sweep, merged, give the same report; merging the
    ** merged file again gives it too (its game lines are whole) */
    char dir[] = "/tmp/cairn-sweep-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char part[3][128], shard[3][16], merged[128];
    static run s, m;
    for (int k = 0; k < 3; k++) {
        snprintf(part[k], sizeof part[k], "%s/part-%d.json", dir, k + 1);
        snprintf(shard[k], sizeof shard[k], "%d/3", k + 1);
        const char *args[] = {SIMLAB, "--games", "50", "--quiet", "--sweep", "scoring.bonus=2,3,4", "--shard", shard[k],
                              "--json", part[k], NULL};
        sim(&s, args);
        assert_int_equal(s.rc, 0);
        assert_true(json_valid(read_all(part[k])));
    }
    snprintf(merged, sizeof merged, "%s/all.json", dir);
    const char *margs[] = {"merge", part[1], part[2], part[0], "--json", merged, NULL};
    sim(&m, margs);
    if (m.rc) fprintf(stderr, "%s", m.err);
    assert_int_equal(m.rc, 0);
    assert_string_equal(m.out, a.out);
    const char *again[] = {"merge", merged, NULL};
    sim(&m, again);
    assert_int_equal(m.rc, 0);
    assert_string_equal(m.out, a.out);
    char *cmd = cairn_strfmt("rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    free(cmd);
    static const char *const both[] = {SIMLAB, "--sweep", "scoring.bonus=2,3", "--compare", "", "", NULL};
    sim(&a, both);
    assert_int_equal(a.rc, 2);
    assert_non_null(strstr(a.err, "--sweep or --compare, not both"));
    static const char *const single[] = {SIMLAB, "--sweep", "scoring.bonus=2", NULL};
    sim(&a, single);
    assert_int_equal(a.rc, 2);
    assert_non_null(strstr(a.err, "--sweep takes KEY=V1,V2,... (2 to 8 values"));
}

/* Games that fail are counted and listed with the command that replays
** them; the others are counted and the run ends with status 1. */
static void test_failing_games(void **st) {
    (void)st;
    static const char *const args[] = {SIMLAB, "--games", "30", "--quiet", "--option", "flaky", NULL};
    run r;
    sim(&r, args);
    assert_int_equal(r.rc, 1);
    assert_non_null(strstr(r.out, "games: 23 finished, 7 failed (not counted below)\n"));
    assert_non_null(strstr(r.out, "  seed 2, decision 4 (seat 1, \"1\"): "));
    assert_non_null(strstr(r.out, "flaky: this game breaks at its fourth decision\n    replay: cairn play " SIMLAB
                                  " --players 2 --option flaky --bot 1=random --bot 2=random --seed 2\n"));
    assert_non_null(strstr(r.out, "\nwin share"));
}

/* A game that never ends counts as failed once it passes the limit. */
static void test_stuck_game(void **st) {
    (void)st;
    static const char *const args[] = {"tests/fixtures/engine/broken", "--games", "2", "--quiet", NULL};
    run r;
    sim(&r, args);
    assert_int_equal(r.rc, 1);
    assert_non_null(strstr(r.out, "games: 0 finished, 2 failed"));
    assert_non_null(strstr(r.out, "seed 1: not over after 10000 decisions"));
}

/* --ban 1:3: seat 1 never picks 3, so its bonus line (2 points per 3) is 0
** in every game: 0 -/+ 3.8415 / 53.8415 = 0.07135 for no spread in 50
** games, kept within the line's least value, 0 (seat 2's bonus takes 0 to 8):
** 0.00 [0.00, 0.07].
** --coverage: every decision offers 1, 2 and 3, all enabled: 50 games x 7
** decisions = 350 offers of each; seat 1 takes 3 never, seat 2 (3 or 4
** decisions a game) sometimes. */
static void test_ban_and_coverage(void **st) {
    (void)st;
    static const char *const args[] = {SIMLAB, "--games", "50", "--quiet", "--ban", "1:3", "--coverage", NULL};
    run r;
    sim(&r, args);
    assert_int_equal(r.rc, 0);
    const char *b = strstr(r.out, "\n  bonus ");
    assert_non_null(b);
    double lo, hi, m;
    assert_int_equal(sscanf(b, "\n  bonus %lf [%lf, %lf]", &m, &lo, &hi), 3);
    assert_true(m == 0 && lo == 0 && hi == 0.07);
    assert_non_null(strstr(r.out, "rule coverage (option ids up to the first digit, 50 games):\n"));
    long offered[3], taken[3], total = 0;
    for (int i = 0; i < 3; i++) {
        char name[16];
        snprintf(name, sizeof name, "\n  %d ", i + 1);
        const char *line = strstr(r.out, name);
        assert_non_null(line);
        long disabled, games;
        assert_int_equal(sscanf(line + strlen(name), "%ld %ld %ld %ld", &offered[i], &disabled, &taken[i], &games), 4);
        assert_int_equal(offered[i], 350);
        assert_int_equal(disabled, 0);
        total += taken[i];
    }
    assert_int_equal(total, 350);
    assert_true(taken[2] > 0 && taken[2] < taken[0]); /* only seat 2 takes 3s */
    assert_null(strstr(r.out, "possibly dead"));
    /* seat 1 never takes a 3 (banned): the seats that took one are seat 2's
    ** games with one, which win far more often (a 3 earns the bonus) */
    const char *eff = strstr(r.out, "option and win share (the seats that took it in a game against those that did not; "
                                    "a correlation, not a cause):\n");
    assert_non_null(eff);
    const char *three = strstr(eff, "\n  3 ");
    assert_non_null(three);
    double with, without;
    assert_int_equal(sscanf(three, "\n  3 %lf%% (%*d) %lf%%", &with, &without), 2);
    assert_true(with > without);
    static const char *const bad[] = {SIMLAB, "--ban", "x", NULL};
    sim(&r, bad);
    assert_int_equal(r.rc, 2);
    assert_non_null(strstr(r.err, "--ban takes SEAT:PREFIX"));
}

/* --csv: a version line, a header, one row per game. */
static void test_csv(void **st) {
    (void)st;
    char path[] = "/tmp/cairn-sim-csv-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    const char *args[] = {SIMLAB, "--games", "5", "--quiet", "--csv", path, NULL};
    run r;
    sim(&r, args);
    assert_int_equal(r.rc, 0);
    const char *csv = read_all(path);
    assert_true(!strncmp(csv, "#cairn-sim csv 1\n"
                              "index,variant,seed,ok,decisions,rounds,starter,branch,total_1,total_2,rank_1,rank_2,"
                              "error\n0,0,1,1,7,",
                         strlen("#cairn-sim csv 1\nindex,variant,seed,ok,decisions,rounds,starter,branch,total_1,"
                                "total_2,rank_1,rank_2,error\n0,0,1,1,7,")));
    int lines = 0;
    for (const char *p = csv; *p; p++) lines += *p == '\n';
    assert_int_equal(lines, 2 + 5);
    unlink(path);
}

/* SIGINT during a long run (goofspiel, 13 rounds, a million games asked):
** the run stops, prints the report of the games finished and leaves a
** whole JSON file saying it was interrupted; with one job and with two. */
static void test_interrupt(void **st) {
    (void)st;
    for (int jobs = 1; jobs <= 2; jobs++) {
        char json[] = "/tmp/cairn-sim-int-XXXXXX", out[] = "/tmp/cairn-sim-out-XXXXXX";
        int fd = mkstemp(json), fo = mkstemp(out);
        assert_true(fd >= 0 && fo >= 0);
        close(fd);
        char j[16];
        snprintf(j, sizeof j, "%d", jobs);
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            char *argv[] = {"sim", "goofspiel", "--games", "1000000", "--quiet", "--jobs", j, "--json", json, NULL};
            FILE *o = fdopen(fo, "w");
            if (!o) _exit(99);
            int rc = sim_run(9, argv, o, stderr);
            fclose(o);
            _exit(rc);
        }
        close(fo);
        struct stat sb;
        for (int i = 0; i < 200 && (stat(json, &sb) != 0 || sb.st_size < 20000); i++)
            nanosleep(&(struct timespec){0, 20000000}, NULL);
        assert_int_equal(kill(pid, SIGINT), 0);
        int status;
        assert_int_equal(waitpid(pid, &status, 0), pid);
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), 130 & 0xff);
        const char *text = read_all(json);
        assert_true(json_valid(text));
        assert_non_null(strstr(text, "\"interrupted\": true"));
        const char *report = read_all(out);
        assert_non_null(strstr(report, "interrupted: "));
        assert_non_null(strstr(report, " of 1000000 games finished\n"));
        assert_non_null(strstr(report, "\nwin share"));
        unlink(json);
        unlink(out);
    }
}

/* Flags sim does not know are usage errors (exit 2); an option the ruleset
** does not declare is the ruleset's error (exit 1), as `cairn check` says. */
static void test_refusals(void **st) {
    (void)st;
    run r;
    static const char *const unknown_option[] = {"connect4", "--option", "nope", NULL};
    sim(&r, unknown_option);
    assert_int_equal(r.rc, 1);
    assert_string_equal(r.out, "");
    assert_non_null(strstr(r.err, "no option \"nope\" in connect4"));

    static const char *const bad_players[] = {"connect4", "--players", "3", NULL};
    sim(&r, bad_players);
    assert_int_equal(r.rc, 1);
    assert_non_null(strstr(r.err, "not 3"));

    static const char *const unknown_flag[] = {"connect4", "--fast", NULL};
    sim(&r, unknown_flag);
    assert_int_equal(r.rc, 2);
    assert_non_null(strstr(r.err, "cairn sim: unknown flag \"--fast\"\nusage: cairn sim RULESET"));

    static const char *const bad_games[] = {"connect4", "--games", "0", NULL};
    sim(&r, bad_games);
    assert_int_equal(r.rc, 2);
    assert_non_null(strstr(r.err, "--games takes a number from 1 to 1000000, got \"0\""));

    static const char *const bad_seed[] = {"connect4", "--seed", "-1", NULL};
    sim(&r, bad_seed);
    assert_int_equal(r.rc, 2);
    assert_non_null(strstr(r.err, "--seed takes"));

    static const char *const bad_shard[] = {"connect4", "--shard", "4/3", NULL};
    sim(&r, bad_shard);
    assert_int_equal(r.rc, 2);
    assert_non_null(strstr(r.err, "--shard takes K/N with 1 <= K <= N"));

    static const char *const half_compare[] = {"connect4", "--compare", "", NULL};
    sim(&r, half_compare);
    assert_int_equal(r.rc, 2);
    assert_non_null(strstr(r.err, "--compare needs A B"));

    static const char *const none[] = {NULL};
    sim(&r, none);
    assert_int_equal(r.rc, 2);
    assert_non_null(strstr(r.err, "which ruleset?"));

    static const char *const nothing[] = {"merge", NULL};
    sim(&r, nothing);
    assert_int_equal(r.rc, 2);
    assert_non_null(strstr(r.err, "which parts?"));
}

/* put_file(dir, rel, text): a file below dir, its folders made */
static void put_file(const char *dir, const char *rel, const char *text) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    for (char *p = strchr(path + strlen(dir) + 1, '/'); p; p = strchr(p + 1, '/')) {
        *p = '\0';
        mkdir(path, 0777);
        *p = '/';
    }
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* The default --jobs under a cgroup v2 or v1 quota: a scratch /proc/self/cgroup
** and /sys/fs/cgroup. */
static void test_cpu_quota(void **st) {
    (void)st;
    char dir[] = "/tmp/cairn-cpus.XXXXXX", proc[64], v1[64], root[64];
    assert_non_null(mkdtemp(dir));
    snprintf(proc, sizeof proc, "%s/proc-cgroup", dir);
    snprintf(v1, sizeof v1, "%s/proc-cgroup-v1", dir);
    snprintf(root, sizeof root, "%s/sys", dir);
    put_file(dir, "proc-cgroup", "1:cpu:/\n0::/kubepods/pod1/sim\n");
    put_file(dir, "proc-cgroup-v1", "4:memory:/x\n1:cpu:/\n");
    /* no cpu.max anywhere: the affinity's 8 stand */
    assert_int_equal(cpus_limit(proc, root, 8), 8);
    /* the container's own limit, 1.5 CPUs (150000 of every 100000 us): rounded up to 2 */
    put_file(dir, "sys/kubepods/pod1/sim/cpu.max", "150000 100000\n");
    assert_int_equal(cpus_limit(proc, root, 8), 2);
    /* a quota above the affinity does not raise it: 1 CPU in the mask, 2 allowed */
    assert_int_equal(cpus_limit(proc, root, 1), 1);
    /* "max" is no limit; the pod's 1 CPU (100000/100000) two levels up binds */
    put_file(dir, "sys/kubepods/pod1/sim/cpu.max", "max 100000\n");
    put_file(dir, "sys/kubepods/pod1/cpu.max", "100000 100000\n");
    assert_int_equal(cpus_limit(proc, root, 8), 1);
    /* the root's own file counts too (a container sees its cgroup as /) */
    put_file(dir, "proc-cgroup", "0::/\n");
    put_file(dir, "sys/cpu.max", "300000 100000\n");
    assert_int_equal(cpus_limit(proc, root, 8), 3);
    /* cgroup v1 with no quota (-1), or no /proc file: the affinity stands */
    put_file(dir, "sys/cpu,cpuacct/cpu.cfs_quota_us", "-1\n");
    put_file(dir, "sys/cpu,cpuacct/cpu.cfs_period_us", "100000\n");
    assert_int_equal(cpus_limit(v1, root, 8), 8);
    /* cgroup v1's quota (docker --cpus 1.5 on a v1 machine): 150000 of every 100000 us,
    ** rounded up to 2; /proc names the host's path (/docker/c1), the container sees
    ** its cgroup at the mount's root, so the walk up finds it there */
    put_file(dir, "proc-cgroup-v1", "4:memory:/docker/c1\n2:cpu,cpuacct:/docker/c1\n");
    put_file(dir, "sys/cpu,cpuacct/cpu.cfs_quota_us", "150000\n");
    assert_int_equal(cpus_limit(v1, root, 8), 2);
    /* a lower quota in the cgroup itself binds: 50000 / 100000 = 0.5, rounded up to 1 */
    put_file(dir, "sys/cpu,cpuacct/docker/c1/cpu.cfs_quota_us", "50000\n");
    put_file(dir, "sys/cpu,cpuacct/docker/c1/cpu.cfs_period_us", "100000\n");
    assert_int_equal(cpus_limit(v1, root, 8), 1);
    /* "cpuacct" alone is not the cpu controller: its line is not read */
    put_file(dir, "proc-cgroup-v1", "2:cpuacct:/docker/c1\n");
    assert_int_equal(cpus_limit(v1, root, 8), 8);
    assert_int_equal(cpus_limit("/nonexistent/cgroup", root, 8), 8);
    /* and the default is at least 1 */
    assert_true(cpus_usable() >= 1);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* --tournament random,greedy on simlab: 2 seatings (random-greedy and
** greedy-random), each of 20 seeds played in both, 40 games. Greedy takes
** the 3 every time; random won 1 of the 40 (no tie). Bradley-Terry then has
** gamma_greedy / gamma_random = 39 / 1: theta -/+ ln(39) / 2 = 1.83178,
** on Elo's scale 173.718 * 1.83178 = 318.2. The information is 40 * (39/40)
** * (1/40) = 0.975, so var(theta_g - theta_r) = 1 / 0.975 = 1.02564 and the
** centred theta's is a quarter of it, 0.25641: se 0.50637, half-width 1.96 *
** 0.50637 * 173.718 = 172.4: [+146, +491] and [-491, -146]. Win shares: 1
** of 40 is Wilson's [0.4, 12.9]. --jobs 1 and 2 agree; the JSON has it. */
static void test_tournament(void **st) {
    (void)st;
    char path[] = "/tmp/cairn-sim-tour-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    const char *one[] = {SIMLAB, "--tournament", "random,greedy", "--games", "40", "--quiet", "--jobs", "1",
                         "--json", path, NULL};
    static const char *const two[] = {SIMLAB, "--tournament", "random,greedy", "--games", "40", "--quiet",
                                      "--jobs", "2", NULL};
    static run a, b;
    sim(&a, one);
    sim(&b, two);
    if (a.rc) fprintf(stderr, "%s", a.err);
    assert_int_equal(a.rc, 0);
    assert_int_equal(b.rc, 0);
    assert_non_null(strstr(a.out, "seeds 1-20, checks off, bots tournament random,greedy\n"));
    assert_non_null(strstr(a.out, "tournament: 2 bots over 2 seats, 2 seatings"));
    assert_non_null(strstr(a.out, "  random                          40        2.5% [0.4, 12.9]     -318 [-491, -146]\n"));
    assert_non_null(strstr(a.out, "  greedy                          40      97.5% [87.1, 99.6]     +318 [+146, +491]\n"));
    assert_non_null(strstr(a.out, "ratings: Bradley-Terry on Elo's scale"));
    assert_non_null(strstr(a.out, "cpu per decision: random "));
    drop_time(a.out);
    drop_time(b.out);
    assert_string_equal(a.out, b.out);
    const char *json = read_all(path);
    assert_true(json_valid(json));
    assert_non_null(strstr(json, "\"tournament\": {\"seats\": 2, \"seatings\": 2, \"games\": 40, \"model\": \"bradley-terry\""));
    assert_non_null(strstr(json, "\"met\": 40, \"ahead\": 39.000000"));
    unlink(path);
}

/* The whole run's --json file, its "cpu" line (the one figure a part does
** not keep) taken out, in a static buffer. */
static const char *json_without_cpu(const char *path) {
    static char buf[1 << 20];
    snprintf(buf, sizeof buf, "%s", read_all(path));
    char *c = strstr(buf, "\n \"cpu\": ");
    if (c) {
        char *end = strchr(c + 1, '\n');
        memmove(c, end, strlen(end) + 1);
    }
    return buf;
}

static int xml_well_formed(const char *s);
static int page_matches_json(const char *page, const char *json);

/* Runs args whole (--json DIR/whole.json) and in n shards, merges the parts
** (given in reverse order) and checks the merge printed the whole run's
** report, timing aside, and wrote its JSON file byte for byte (less "cpu"),
** and a page (--report) whose every figure is the merged JSON's. args ends
** in NULL and has room for the flags added. */
static void shards_make_the_run(const char *dir, const char **args, int n) {
    int argn = 0;
    while (args[argn]) argn++;
    char whole[128], part[4][128], shard[4][24], merged[128], page[128]; /* "%d/%d": at most 21 + 1 */
    snprintf(whole, sizeof whole, "%s/whole.json", dir);
    snprintf(merged, sizeof merged, "%s/merged.json", dir);
    snprintf(page, sizeof page, "%s/merged.html", dir);
    static run w, s, m;
    args[argn] = "--json", args[argn + 1] = whole, args[argn + 2] = NULL;
    sim(&w, args);
    if (w.rc) fprintf(stderr, "%s", w.err);
    assert_int_equal(w.rc, 0);
    if (strstr(w.out, "time: ")) drop_time(w.out); /* a series prints its table only */
    const char *margs[10] = {"merge"};
    for (int k = 0; k < n; k++) {
        snprintf(part[k], sizeof part[k], "%s/part-%d.json", dir, k + 1);
        snprintf(shard[k], sizeof shard[k], "%d/%d", k + 1, n);
        args[argn] = "--shard", args[argn + 1] = shard[k], args[argn + 2] = "--json", args[argn + 3] = part[k];
        args[argn + 4] = NULL;
        sim(&s, args);
        if (s.rc) fprintf(stderr, "%s", s.err);
        assert_int_equal(s.rc, 0);
        margs[n - k] = part[k];
    }
    margs[n + 1] = "--json", margs[n + 2] = merged, margs[n + 3] = "--report", margs[n + 4] = page, margs[n + 5] = NULL;
    sim(&m, margs);
    if (m.rc) fprintf(stderr, "%s", m.err);
    assert_int_equal(m.rc, 0);
    assert_string_equal(m.out, w.out);
    static char want[1 << 20];
    snprintf(want, sizeof want, "%s", json_without_cpu(whole));
    assert_string_equal(read_all(merged), want);
    static char html[1 << 20];
    snprintf(html, sizeof html, "%s", read_all(page));
    assert_true(xml_well_formed(html));
    assert_non_null(strstr(html, "<pre>cairn sim merge "));
    assert_true(page_matches_json(html, read_all(merged)) >= 6); /* at least the seats' or values' shares */
    args[argn] = NULL;
}

/* A tournament, a skill curve, a factorial and a players and a bots series,
** each in shards merged: the whole run's report and JSON (the merge counts
** the ratings, the curve, the main effects and each value's row once, from
** all the games; a series' part holds the slice of every value). --tune and --until-width
** refuse --shard and say what to do instead. */
static void test_lab_shards(void **st) {
    (void)st;
    char dir[] = "/tmp/cairn-sim-lab-XXXXXX";
    assert_non_null(mkdtemp(dir));
    const char *tour[16] = {SIMLAB, "--tournament", "random,greedy", "--games", "40", "--quiet", NULL};
    shards_make_the_run(dir, tour, 3);
    const char *three[16] = {SIMLAB, "--players", "3", "--tournament", "random,greedy", "--games", "24", "--quiet", NULL};
    shards_make_the_run(dir, three, 3);
    const char *skill[16] = {"tests/fixtures/rulesets/coinflip", "--skill", "mcts:iterations=1,5", "--games", "40",
                             "--quiet", NULL};
    shards_make_the_run(dir, skill, 3);
    const char *fact[16] = {SIMLAB, "--factorial", "scoring.bonus=4,scoring.rounds=4", "--games", "31", "--quiet", NULL};
    shards_make_the_run(dir, fact, 3);
    const char *players[16] = {SIMLAB, "--sweep", "players=2..3", "--games", "40", "--quiet", NULL};
    shards_make_the_run(dir, players, 3);
    const char *bots[16] = {"connect4", "--sweep", "bots=random,greedy", "--games", "6", "--quiet", NULL};
    shards_make_the_run(dir, bots, 2);
    static run r;
    static const char *const tune[] = {SIMLAB, "--tune", "scoring.rounds=1..40", "--target", "position 1 win share = 0.6",
                                       "--shard", "1/2", NULL};
    sim(&r, tune);
    assert_int_equal(r.rc, 2);
    assert_non_null(strstr(r.err, "--tune cannot be split with --shard: each value it tries is chosen from the shares"));
    static const char *const until[] = {SIMLAB, "--until-width", "0.2", "--shard", "1/2", NULL};
    sim(&r, until);
    assert_int_equal(r.rc, 2);
    assert_non_null(strstr(r.err, "--until-width cannot be split with --shard"));
    char *cmd = cairn_strfmt("rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    free(cmd);
}

/* Three bots over two seats: every ordered pair of different bots, 3 * 2 = 6
** seatings, so 12 games are seeds 1-2, and each bot sits in 4 of the 6
** seatings: 8 games. Two bots over three seats: the 2^3 = 8 ways less the
** 2 with one bot alone, 6 seatings, both bots in every game (12), and
** Plackett-Luce over the rankings. Bad tournaments are refused. */
static void test_tournament_seatings(void **st) {
    (void)st;
    static const char *const three[] = {SIMLAB, "--tournament", "random,greedy,mcts:iterations=10,depth=3", "--games",
                                        "12", "--quiet", NULL};
    static const char *const seats3[] = {SIMLAB, "--players", "3", "--tournament", "random,greedy", "--games", "12",
                                         "--quiet", NULL};
    static run r;
    sim(&r, three);
    if (r.rc) fprintf(stderr, "%s", r.err);
    assert_int_equal(r.rc, 0);
    assert_non_null(strstr(r.out, "seeds 1-2, "));
    assert_non_null(strstr(r.out, "tournament: 3 bots over 2 seats, 6 seatings"));
    assert_non_null(strstr(r.out, "\n  random                           8 "));
    assert_non_null(strstr(r.out, "\n  mcts:iterations=10,depth=3       8 "));
    sim(&r, seats3);
    assert_int_equal(r.rc, 0);
    assert_non_null(strstr(r.out, "tournament: 2 bots over 3 seats, 6 seatings"));
    assert_non_null(strstr(r.out, "\n  greedy                          12 "));
    assert_non_null(strstr(r.out, "ratings: Plackett-Luce over each game's ranking"));
    static const char *const single[] = {SIMLAB, "--tournament", "random", NULL};
    sim(&r, single);
    assert_int_equal(r.rc, 2);
    assert_non_null(strstr(r.err, "--tournament takes two bots or more"));
    static const char *const twice[] = {SIMLAB, "--tournament", "random,random", NULL};
    sim(&r, twice);
    assert_int_equal(r.rc, 2);
    assert_non_null(strstr(r.err, "--tournament names random twice"));
    static const char *const compare[] = {SIMLAB, "--tournament", "random,greedy", "--compare", "", "", NULL};
    sim(&r, compare);
    assert_int_equal(r.rc, 2);
    assert_non_null(strstr(r.err, "not with --compare"));
    static const char *const nobot[] = {SIMLAB, "--tournament", "random,nobot", NULL};
    sim(&r, nobot);
    assert_int_equal(r.rc, 2);
    assert_non_null(strstr(r.err, "nobot"));
}

/* --skill on a game of pure luck (tests/fixtures/rulesets/coinflip draws the
** winner at setup): 2 levels x 2 seats = 4 seatings, so 200 games are 50
** seeds, each level 100 games, and in each seed exactly one of the two seats
** is the lucky one: 50 wins of 100, Wilson [40.4, 59.6] for both levels. The
** same seed and seat give the same winner at any level, so the 100 paired
** differences are all 0: 0 -/+ 3.8415 / 103.8415 = 3.7 points, which holds 0
** and is under 5 points wide either side: a flat curve, called luck. With 24
** games (12 pairs: -/+ 3.8415 / 15.8415 = 24.2) it is too wide to say so. */
static void test_skill_luck(void **st) {
    (void)st;
    static const char *const args[] = {"tests/fixtures/rulesets/coinflip", "--skill", "mcts:iterations=1,50",
                                       "--games", "200", "--quiet", NULL};
    static run r;
    sim(&r, args);
    if (r.rc) fprintf(stderr, "%s", r.err);
    assert_int_equal(r.rc, 0);
    assert_non_null(strstr(r.out, "seeds 1-50, checks off, bots skill mcts:iterations=1,mcts:iterations=50,random\n"));
    assert_non_null(strstr(r.out, "skill: 2 levels of mcts:iterations=1,50, each in every seat in turn against random"));
    assert_non_null(strstr(r.out, "  mcts:iterations=1               100    50.0% [40.4, 59.6]\n"));
    assert_non_null(strstr(r.out, "  mcts:iterations=50              100    50.0% [40.4, 59.6]         +0.0 [-3.7, +3.7]\n"));
    assert_non_null(strstr(r.out, "verdict: a flat curve: from the first level to the last the win share moved +0.0 "
                                  "[-3.7, +3.7], within noise; against this field the game plays like luck"));
    static const char *const few[] = {"tests/fixtures/rulesets/coinflip", "--skill", "mcts:iterations=1,50",
                                      "--games", "24", "--quiet", NULL};
    sim(&r, few);
    assert_int_equal(r.rc, 0);
    assert_non_null(strstr(r.out, "+0.0 [-24.2, +24.2]"));
    assert_non_null(strstr(r.out, "too wide to call the game luck: play more games"));
}

/* --skill where skill matters: in Connect Four a search bot of 200
** iterations beats the random field nearly always, one of 1 iteration about
** half the time; 24 games (6 seeds in 4 seatings). Other parameters ride
** along (depth=0 in every level); --field names the field. Bad specs are
** refused. */
static void test_skill_depth(void **st) {
    (void)st;
    static const char *const args[] = {"connect4", "--skill", "mcts:iterations=1,200,depth=0", "--field", "random",
                                       "--games", "24", "--quiet", NULL};
    static run r;
    sim(&r, args);
    if (r.rc) fprintf(stderr, "%s", r.err);
    assert_int_equal(r.rc, 0);
    assert_non_null(strstr(r.out, "\n  mcts:iterations=1,depth=0        12 "));
    assert_non_null(strstr(r.out, "\n  mcts:iterations=200,depth=0      12 "));
    assert_non_null(strstr(r.out, "verdict: skill matters: "));
    static const char *const flat[] = {"connect4", "--skill", "mcts:iterations=10,depth=2", NULL};
    sim(&r, flat);
    assert_int_equal(r.rc, 2);
    assert_non_null(strstr(r.err, "--skill takes one parameter with 2 to 15 values"));
    static const char *const both[] = {"connect4", "--skill", "mcts:iterations=1,2", "--tournament", "random,greedy", NULL};
    sim(&r, both);
    assert_int_equal(r.rc, 2);
    assert_non_null(strstr(r.err, "not with --skill"));
    static const char *const field[] = {"connect4", "--field", "greedy", NULL};
    sim(&r, field);
    assert_int_equal(r.rc, 2);
    assert_non_null(strstr(r.err, "--field goes with --skill"));
}

/* --trajectory round on simlab, whose rounds are state.round (1 to 4; the
** 4th is the starter's extra pick) and whose metrics(g) gives each seat's
** 3s and the picks left. Two picks a round leave 7 - 2 = 5, 3, 1 and, at the
** end, 0 picks in every game: no spread, so 5.00 -/+ 3.8415 / 103.8415 =
** 0.037: [4.96, 5.04]. The last point is the end of the game, so its scores
** are the report's score means, cell for cell, and the seat alone on top
** there is the winner: leader wins 100.0%. --jobs 2 and three shards merged
** give the same report. */
static void test_trajectory(void **st) {
    (void)st;
    static const char *const one[] = {SIMLAB, "--trajectory", "round", "--games", "100", "--quiet", "--jobs", "1", NULL};
    static const char *const two[] = {SIMLAB, "--trajectory", "round", "--games", "100", "--quiet", "--jobs", "2", NULL};
    static run a, b;
    sim(&a, one);
    sim(&b, two);
    if (a.rc) fprintf(stderr, "%s", a.err);
    assert_int_equal(a.rc, 0);
    drop_time(a.out);
    drop_time(b.out);
    assert_string_equal(a.out, b.out);
    assert_non_null(strstr(a.out, "trajectory: at the end of each round (g.state.round)"));
    assert_non_null(strstr(a.out, "metric left:\nround   games                  game\n"
                                  "1         100     5.00 [4.96, 5.04]\n"
                                  "2         100     3.00 [2.96, 3.04]\n"
                                  "3         100     1.00 [0.96, 1.04]\n"
                                  "4         100    0.00 [-0.04, 0.04]\n"));
    assert_non_null(strstr(a.out, "metric threes:\nround   games                seat 1                seat 2\n"));
    /* the score means of the report against the trajectory's last point */
    const char *mean = strstr(a.out, "\nscore mean ");
    assert_non_null(mean);
    char s1[32], s2[32], row[128];
    assert_int_equal(sscanf(mean, "\nscore mean %31[^]]] %31[^]]]", s1, s2), 2);
    snprintf(row, sizeof row, "\n4         100%*s]%*s]", 21, s1, 21, s2);
    const char *last = strstr(a.out, row);
    if (!last) fprintf(stderr, "no row %s in\n%s", row, a.out);
    assert_non_null(last);
    assert_non_null(strstr(last, "100.0% ["));
    /* three shards merged */
    char dir[] = "/tmp/cairn-traj-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char part[3][128], shard[3][16];
    static run s, m;
    for (int k = 0; k < 3; k++) {
        snprintf(part[k], sizeof part[k], "%s/part-%d.json", dir, k + 1);
        snprintf(shard[k], sizeof shard[k], "%d/3", k + 1);
        const char *args[] = {SIMLAB, "--trajectory", "round", "--games", "100", "--quiet", "--shard", shard[k],
                              "--json", part[k], NULL};
        sim(&s, args);
        assert_int_equal(s.rc, 0);
        assert_true(json_valid(read_all(part[k])));
    }
    const char *margs[] = {"merge", part[0], part[1], part[2], NULL};
    sim(&m, margs);
    if (m.rc) fprintf(stderr, "%s", m.err);
    assert_int_equal(m.rc, 0);
    assert_string_equal(m.out, a.out);
    char *cmd = cairn_strfmt("rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    free(cmd);
    static const char *const bad[] = {SIMLAB, "--trajectory", "0", NULL};
    sim(&a, bad);
    assert_int_equal(a.rc, 2);
    assert_non_null(strstr(a.err, "--trajectory takes round (the end of each round) or N"));
}

/* --trajectory N: a point every N decisions. Connect Four has no
** state.round; every game takes 7 decisions or more, so each of the 20
** reaches the points after 2, 4 and 6, where nobody has scored: 0 -/+
** 3.8415 / 23.8415 = 0.16. */
static void test_trajectory_every(void **st) {
    (void)st;
    static const char *const args[] = {"connect4", "--trajectory", "2", "--games", "20", "--quiet", NULL};
    static run r;
    sim(&r, args);
    assert_int_equal(r.rc, 0);
    assert_non_null(strstr(r.out, "trajectory: every 2 decisions (after N), "));
    assert_non_null(strstr(r.out, "\n2          20    0.00 [-0.16, 0.16]    0.00 [-0.16, 0.16]    0.00 [-0.16, 0.16]"));
    assert_non_null(strstr(r.out, "\n6          20    0.00 [-0.16, 0.16]    0.00 [-0.16, 0.16]    0.00 [-0.16, 0.16]"));
}

/* ---- the --report page: well-formed, and each figure the JSON's */

/* The value at a dotted path ("summary.seats.0.share") in JSON text, or
** NULL: object members by key, array items by index. */
static const char *json_at(const char *p, const char *path) {
    while (*path) {
        char part[64];
        size_t n = strcspn(path, ".");
        if (n >= sizeof part) return NULL;
        memcpy(part, path, n);
        part[n] = '\0';
        path += n + (path[n] == '.');
        p = json_ws(p);
        if (*p == '{') {
            p = json_ws(p + 1);
            for (;;) {
                const char *k = p, *end = json_string(p);
                if (!end) return NULL;
                int hit = (size_t)(end - k - 2) == strlen(part) && !strncmp(k + 1, part, strlen(part));
                p = json_ws(end);
                if (*p++ != ':') return NULL;
                if (hit) break;
                if (!(p = json_value(p))) return NULL;
                p = json_ws(p);
                if (*p++ != ',') return NULL;
                p = json_ws(p);
            }
        } else if (*p == '[') {
            p++;
            for (long i = atol(part); i > 0; i--) {
                if (!(p = json_value(p))) return NULL;
                p = json_ws(p);
                if (*p++ != ',') return NULL;
            }
        } else {
            return NULL;
        }
    }
    return json_ws(p);
}

/* Whether the page is well-formed XML: tags nest and close, attributes are
** quoted, & starts an entity; the doctype is skipped. */
static int xml_well_formed(const char *s) {
    const char *stack[256];
    size_t nstack[256];
    int depth = 0;
    for (const char *p = s; *p;) {
        if (*p == '&') {
            const char *semi = strchr(p, ';');
            if (!semi || semi - p > 8) return fprintf(stderr, "bare & at %.40s\n", p), 0;
            p = semi + 1;
        } else if (*p != '<') {
            p++;
        } else if (!strncmp(p, "<!DOCTYPE", 9)) {
            p = strchr(p, '>') + 1;
        } else if (p[1] == '/') {
            size_t n = strcspn(p + 2, ">");
            if (!depth || n != nstack[depth - 1] || strncmp(p + 2, stack[depth - 1], n))
                return fprintf(stderr, "</%.*s> closes nothing open at %.40s\n", (int)n, p + 2, p), 0;
            depth--;
            p += n + 3;
        } else {
            const char *name = p + 1;
            size_t n = strcspn(name, " />");
            p = name + n;
            while (*p && *p != '>' && strncmp(p, "/>", 2)) { /* attributes: name="value" */
                if (*p == ' ' || *p == '\n') {
                    p++;
                    continue;
                }
                p += strcspn(p, "= />");
                if (*p != '=' || p[1] != '"') return fprintf(stderr, "unquoted attribute at %.40s\n", p), 0;
                const char *q = strchr(p + 2, '"');
                if (!q || memchr(p + 2, '<', (size_t)(q - p - 2))) return 0;
                p = q + 1;
            }
            if (!*p) return 0;
            if (*p == '>') {
                if (depth == 256) return 0;
                stack[depth] = name, nstack[depth++] = n;
            }
            p += *p == '>' ? 1 : 2;
        }
    }
    return depth == 0 || (fprintf(stderr, "%d elements left open\n", depth), 0);
}

/* Every data-key="PATH" data-v="X" (and data-key2/3) of the page against the
** number at PATH in the JSON: the same within 1e-6. How many were checked. */
static int page_matches_json(const char *page, const char *json) {
    int n = 0;
    for (const char *p = strstr(page, " data-key"); p; p = strstr(p + 1, " data-key")) {
        char path[160], num[64];
        if (sscanf(p, " data-key%*[23]=\"%159[^\"]\" data-v%*[23]=\"%63[^\"]\"", path, num) != 2 &&
            sscanf(p, " data-key=\"%159[^\"]\" data-v=\"%63[^\"]\"", path, num) != 2) {
            fprintf(stderr, "a data-key without its value at %.60s\n", p);
            return -1;
        }
        const char *at = json_at(json, path);
        if (!at) {
            fprintf(stderr, "%s: not in the JSON\n", path);
            return -1;
        }
        double a = strtod(at, NULL), b = strtod(num, NULL);
        if (fabs(a - b) > 1e-6) {
            fprintf(stderr, "%s: the page says %s, the JSON %.20s\n", path, num, at);
            return -1;
        }
        n++;
    }
    return n;
}

/* The page of a run (seats, positions, histograms, trajectory, CPU), of a
** comparison, of a tournament and a skill curve, of a players and a bots
** series, of a tune and of a factorial (its main effects): each well-formed, no
** script and no link out, the command that made it, and each figure the
** JSON's. simlab's 100 games have 2 seats x 3 share figures, 2 positions x
** 3, the histograms and the trajectory: over 60 figures. */
static void test_report_page(void **st) {
    (void)st;
    char dir[] = "/tmp/cairn-report-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char html[128], json[128];
    snprintf(html, sizeof html, "%s/r.html", dir);
    snprintf(json, sizeof json, "%s/r.json", dir);
    static const char *const runs[][12] = {
        {SIMLAB, "--games", "100", "--trajectory", "round", NULL},
        {SIMLAB, "--games", "60", "--compare", "", "scoring.bonus=4", NULL},
        {SIMLAB, "--games", "40", "--sweep", "scoring.bonus=2,3,4", NULL},
        {SIMLAB, "--games", "40", "--tournament", "random,greedy", NULL},
        {"tests/fixtures/rulesets/coinflip", "--games", "40", "--skill", "mcts:iterations=1,5", NULL},
        {SIMLAB, "--games", "40", "--sweep", "players=2..3", NULL},
        {"connect4", "--games", "4", "--sweep", "bots=random,greedy", NULL},
        {SIMLAB, "--games", "40", "--tune", "scoring.rounds=1..40", "--target", "position 1 win share = 0.6", NULL},
        {SIMLAB, "--games", "20", "--factorial", "scoring.bonus=4,scoring.rounds=4", NULL},
    };
    /* the series: 3 figures of position 1 per value, 3 per position (2 + 3
    ** positions, or 2 + 2 seats) and the length per value: 2 * 3 + 5 * 3 + 2
    ** = 23 and 2 * 3 + 4 * 3 + 2 = 20; the tune: 3 per value tried, at
    ** least the two ends and one middle, 9; the factorial: 2 factors x 5
    ** figures (length, 2 seats' share and score) x 3, 30, and its columns */
    static const int least[] = {60, 20, 20, 10, 8, 23, 20, 9, 30};
    for (size_t k = 0; k < sizeof runs / sizeof *runs; k++) {
        const char *args[20];
        int n = 0;
        for (; runs[k][n]; n++) args[n] = runs[k][n];
        args[n++] = "--quiet", args[n++] = "--json", args[n++] = json, args[n++] = "--report", args[n++] = html;
        args[n] = NULL;
        static run r;
        sim(&r, args);
        if (r.rc) fprintf(stderr, "%s", r.err);
        assert_int_equal(r.rc, 0);
        static char page[1 << 20];
        snprintf(page, sizeof page, "%s", read_all(html));
        assert_true(xml_well_formed(page));
        assert_null(strstr(page, "<script"));
        assert_null(strstr(page, "href="));
        assert_null(strstr(page, "src="));
        assert_null(strstr(page, "url("));
        assert_non_null(strstr(page, "<pre>cairn sim "));
        if (k == 3 || k == 4) assert_non_null(strstr(page, "CPU per decision, each bot")); /* the bots' cost */
        if (k == 7) /* the command is quoted for a shell where it must be */
            assert_non_null(strstr(page, "<pre>cairn sim tests/fixtures/rulesets/simlab --games 40 --tune "
                                         "scoring.rounds=1..40 --target &#39;position 1 win share = 0.6&#39; --quiet --json "));
        if (k == 8) assert_non_null(strstr(page, "<h2>Main effects</h2>"));
        int checked = page_matches_json(page, read_all(json));
        if (checked < least[k]) fprintf(stderr, "run %zu: %d figures checked\n", k, checked);
        assert_true(checked >= least[k]);
    }
    const char *quoted[] = {SIMLAB, "--games", "2", "--compare", "", "scoring.bonus=4", "--quiet",
                                         "--report", html, NULL};
    static run q;
    sim(&q, quoted);
    assert_int_equal(q.rc, 0);
    assert_non_null(strstr(read_all(html), "--compare &#39;&#39; scoring.bonus=4 --quiet --report "));
    assert_true(xml_well_formed("<p>a &amp; <b x=\"1\">b</b><br/></p>"));
    assert_false(xml_well_formed("<p>a <b>b</p></b>"));
    assert_false(xml_well_formed("<p x=1>a</p>"));
    assert_false(xml_well_formed("<p>a & b</p>"));
    char *cmd = cairn_strfmt("rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    free(cmd);
}

/* --until-width 0.2: simlab stops at the first game count where both seats'
** and both positions' Wilson intervals are at most 0.2 wide (about 1.96 /
** sqrt(n) at an even share: n near 96), the same with 1 job and 2; bounded
** by --games one fewer it is not reached, so the stop is the first. The
** progress lines (a file, not a terminal: one each 10%) carry the running
** estimate. A comparison says how many games its win-share shifts need. */
static void test_until_width(void **st) {
    (void)st;
    static const char *const one[] = {SIMLAB, "--until-width", "0.2", "--games", "1000", "--jobs", "1", NULL};
    static const char *const two[] = {SIMLAB, "--until-width", "0.2", "--games", "1000", "--jobs", "2", "--quiet", NULL};
    static run a, b;
    sim(&a, one);
    sim(&b, two);
    assert_int_equal(a.rc, 0);
    assert_int_equal(b.rc, 0);
    long n = 0;
    const char *u = strstr(a.out, "until width 0.200: stopped after ");
    assert_non_null(u);
    assert_int_equal(sscanf(u, "until width 0.200: stopped after %ld of at most 1000 games", &n), 1);
    assert_true(n >= 60 && n <= 200);
    drop_time(a.out);
    drop_time(b.out);
    assert_string_equal(a.out, b.out);
    char games[24], want[96];
    snprintf(games, sizeof games, "%ld", n - 1);
    const char *fewer[] = {SIMLAB, "--until-width", "0.2", "--games", games, NULL};
    sim(&b, fewer);
    assert_int_equal(b.rc, 0);
    assert_non_null(strstr(b.err, "cairn sim: 10% ("));
    assert_non_null(strstr(b.err, " games/s); so far seat 1 "));
    snprintf(want, sizeof want, "until width 0.200: not reached in %ld games", n - 1);
    assert_non_null(strstr(b.out, want));
    static const char *const self[] = {SIMLAB, "--games", "100", "--quiet", "--compare", "", "", NULL};
    sim(&b, self);
    assert_non_null(strstr(b.out, "games to detect each win-share shift of the size seen (5% level, 80% power, "
                                  "paired): seat 1 none seen, seat 2 none seen\n"));
    /* doubling the bonus changes no pick, but in 1 game of the 100 a tie
    ** becomes seat 1's win: differences +0.5 once and 0 else, mean 0.005,
    ** sd sqrt((0.25 - 100 * 0.005^2) / 99) = 0.05; ((1.95996 + 0.84162) *
    ** 0.05 / 0.005)^2 = 28.0158^2 = 784.9: 785 games */
    static const char *const cmp[] = {SIMLAB, "--games", "100", "--quiet", "--compare", SIMLAB, DOUBLE, NULL};
    sim(&b, cmp);
    assert_non_null(strstr(b.out, "paired): seat 1 +0.5 needs about 785, seat 2 -0.5 needs about 785\n"));
    static const char *const bad[] = {SIMLAB, "--until-width", "2", NULL};
    sim(&b, bad);
    assert_int_equal(b.rc, 2);
    assert_non_null(strstr(b.err, "--until-width takes a width between 0 and 1"));
}

/* --sweep players=2..3: one run per seat count, each the run --players N
** gives: simlab's 2 seats take 3 rounds x 2 + 1 = 7 decisions, 3 seats 3 x 3
** + 1 = 10, and position 1's win share in the table is the one of the run by
** turn position, cell for cell. --sweep bots=random,greedy likewise against
** --bots greedy,greedy. */
static void test_sweep_series(void **st) {
    (void)st;
    static const char *const series[] = {SIMLAB, "--sweep", "players=2..3", "--games", "200", "--quiet", NULL};
    static run r, p;
    sim(&r, series);
    if (r.rc) fprintf(stderr, "%s", r.err);
    assert_int_equal(r.rc, 0);
    assert_non_null(strstr(r.out, "sweep players=2..3: one run per value, each on the same seeds\n"));
    for (int n = 2; n <= 3; n++) {
        char players[16], cell[64], row[160];
        snprintf(players, sizeof players, "%d", n);
        const char *one[] = {SIMLAB, "--players", players, "--games", "200", "--quiet", NULL};
        sim(&p, one);
        const char *t = strstr(p.out, "by turn position");
        assert_non_null(t);
        t = strstr(t, "\nwin share");
        assert_int_equal(sscanf(t, "\nwin share %63[^]]]", cell), 1);
        snprintf(row, sizeof row, "players=%d                       200%23s]", n, cell);
        if (!strstr(r.out, row)) fprintf(stderr, "no \"%s\" in\n%s", row, r.out);
        assert_non_null(strstr(r.out, row));
    }
    assert_non_null(strstr(r.out, "         7.0   "));
    assert_non_null(strstr(r.out, "        10.0   "));
    static const char *const bots[] = {"connect4", "--sweep", "bots=random,greedy", "--games", "20", "--quiet", NULL};
    static const char *const greedy[] = {"connect4", "--bots", "greedy,greedy", "--games", "20", "--quiet", NULL};
    sim(&r, bots);
    assert_int_equal(r.rc, 0);
    sim(&p, greedy);
    char cell[64], row[160];
    assert_int_equal(sscanf(strstr(p.out, "\nwin share"), "\nwin share %63[^]]]", cell), 1);
    snprintf(row, sizeof row, "bots=greedy                      20%23s]", cell);
    assert_non_null(strstr(r.out, row));
    /* a players sweep seats --bots as a run does: at 2 seats connect4's
    ** greedy,greedy is the run above, so the sweep's players=2 row has its
    ** first-player share; the specs past the seats are unused (no seat 3) */
    static const char *const seated[] = {"connect4", "--sweep", "players=2..2", "--bots", "greedy,greedy,greedy",
                                         "--games", "20", "--quiet", NULL};
    sim(&r, seated);
    if (r.rc) fprintf(stderr, "%s", r.err);
    assert_int_equal(r.rc, 0);
    assert_non_null(strstr(r.out, "\nbots: 1=greedy 2=greedy 3=greedy (in each run the seats it has; any further "
                                  "seat random)\n"));
    assert_int_equal(sscanf(strstr(p.out, "\nwin share"), "\nwin share %63[^]]]", cell), 1); /* seat 1 starts */
    snprintf(row, sizeof row, "players=2                        20%23s]", cell);
    if (!strstr(r.out, row)) fprintf(stderr, "no \"%s\" in\n%s", row, r.out);
    assert_non_null(strstr(r.out, row));
    static const char *const sharded[] = {"connect4", "--sweep", "players=2..2", "--bots", "greedy", "--shard", "1/2", NULL};
    sim(&r, sharded);
    assert_int_equal(r.rc, 2);
    assert_non_null(strstr(r.err, "--sweep players=... with --bots is not sharded"));
    static const char *const botsbots[] = {"connect4", "--sweep", "bots=random,greedy", "--bots", "greedy", NULL};
    sim(&r, botsbots);
    assert_int_equal(r.rc, 2);
    assert_non_null(strstr(r.err, "not with --compare, --csv, --bots,"));
    static const char *const bad[] = {SIMLAB, "--sweep", "players=1..20", NULL};
    sim(&r, bad);
    assert_int_equal(r.rc, 2);
    assert_non_null(strstr(r.err, "--sweep takes players=LO..HI"));
}

/* --factorial scoring.bonus=4,scoring.rounds=4: 4 combinations (A none, B
** bonus, C rounds, D both). A fourth round adds one pick per seat: 9
** decisions against 7 in every game, so the main effect of rounds on the
** length is +2.00 exactly (no spread: -/+ 3.8415 / 103.8415 = 0.04) and
** flagged, and the bonus's is 0. A main effect is the mean of the two
** differences it makes: bonus on seat 1's score = ((B - A) + (D - C)) / 2,
** from the columns of the table above it. */
static void test_factorial(void **st) {
    (void)st;
    static const char *const args[] = {SIMLAB, "--factorial", "scoring.bonus=4,scoring.rounds=4", "--games", "100",
                                       "--quiet", NULL};
    static run r;
    sim(&r, args);
    if (r.rc) fprintf(stderr, "%s", r.err);
    assert_int_equal(r.rc, 0);
    assert_non_null(strstr(r.out, "factorial: 2 factors, 4 combinations, each seed in every one; 100 games in all of them\n"));
    assert_non_null(strstr(r.out, "\ndecisions                     +0.00 [-0.04, +0.04]        +2.00 [+1.96, +2.04] *\n"));
    double a, b, c, d, e;
    const char *row = strstr(r.out, "\nseat 1 score ");
    assert_non_null(row);
    assert_int_equal(sscanf(row, "\nseat 1 score %lf %lf* %lf* %lf*", &a, &b, &c, &d), 4);
    const char *eff = strstr(strstr(r.out, "main effect"), "\nseat 1 score ");
    assert_non_null(eff);
    assert_int_equal(sscanf(eff, "\nseat 1 score %lf", &e), 1);
    assert_true(fabs(e - ((b - a) + (d - c)) / 2) < 0.011);
    assert_non_null(strstr(r.out, "*: beyond noise after Holm's adjustment over all 10 effects"));
    static const char *const one[] = {SIMLAB, "--factorial", "scoring.bonus=4", NULL};
    sim(&r, one);
    assert_int_equal(r.rc, 2);
    assert_non_null(strstr(r.err, "--factorial takes 2 or 3 options"));
}

/* --tune scoring.rounds=1..40 --target 'position 1 win share = 0.6': the
** starter's extra pick counts for less as the rounds grow. Bisection keeps
** the sign change of share - 0.6 between LO and HI: it tries 1 and 40, then
** the middles, each on the same 200 seeds, and reports the value tried
** closest to the target; each value tried is the run --set gives. */
static void test_tune(void **st) {
    (void)st;
    static const char *const args[] = {SIMLAB, "--tune", "scoring.rounds=1..40", "--target", "position 1 win share = 0.6",
                                       "--games", "200", "--quiet", NULL};
    static run r, p;
    sim(&r, args);
    if (r.rc) fprintf(stderr, "%s", r.err);
    assert_int_equal(r.rc, 0);
    assert_non_null(strstr(r.out, "tune scoring.rounds in 1..40: position 1 win share = 0.600, by bisection on the same seeds\n"));
    /* each row against the run --set gives */
    long value, games, tried = 0, best = 0;
    double bestd = 2, lo = 0, hi = 0;
    int lo_sign = 0;
    for (const char *l = strstr(r.out, "holds the target\n") + 17; sscanf(l, "%ld %ld", &value, &games) == 2;
         l = strchr(l, '\n') + 1) {
        double share;
        assert_int_equal(sscanf(l, "%*d %*d %lf%%", &share), 1);
        char set[64];
        snprintf(set, sizeof set, "scoring.rounds=%ld", value);
        const char *one[] = {SIMLAB, "--set", set, "--games", "200", "--quiet", NULL};
        sim(&p, one);
        if (p.rc) fprintf(stderr, "%s --set %s:\n%s%s", SIMLAB, set, p.out, p.err);
        assert_int_equal(p.rc, 0);
        const char *t = strstr(strstr(p.out, "by turn position"), "\nwin share");
        double s1;
        assert_int_equal(sscanf(t, "\nwin share %lf%%", &s1), 1);
        if (fabs(s1 - share) >= 0.01) fprintf(stderr, "value %ld: tune %.1f, run %.1f\n", value, share, s1);
        assert_true(fabs(s1 - share) < 0.01);
        double d = fabs(share / 100 - 0.6);
        if (d < bestd) bestd = d, best = value;
        if (value == 1) lo_sign = share > 60, lo = share;
        if (value == 40) hi = share;
        tried++;
    }
    assert_true(tried >= 3 && tried <= 10); /* 2 ends and about log2(39) = 5.3 middles */
    assert_true(lo_sign);                    /* 1 round: the starter wins far more than 60% */
    assert_true(lo > 60 && hi < 60);
    char want[64];
    snprintf(want, sizeof want, "tune: scoring.rounds = %ld comes closest", best);
    assert_non_null(strstr(r.out, want));
    static const char *const bad[] = {SIMLAB, "--tune", "scoring.rounds=1..40", NULL};
    sim(&r, bad);
    assert_int_equal(r.rc, 2);
    assert_non_null(strstr(r.err, "--tune and --target go together"));
    static const char *const badt[] = {SIMLAB, "--tune", "scoring.rounds=1..40", "--target", "seat 1 wins", NULL};
    sim(&r, badt);
    assert_int_equal(r.rc, 2);
    assert_non_null(strstr(r.err, "--tune needs --target 'position N win share = X'"));
}

/* A call the CPU timer stops is run again counted, or taken back and run
** again: neither may change a game. CAIRN_TEST_STOP_TIMED_EVERY=N stops
** every Nth timed call 5 instructions in, as the timer would on a slow or
** busy machine; the report must be the unstopped run's, timing aside.
** Before the fix a fast game's decisions(g) stopped after setup failed the
** game ("out of memory starting the game": 100 of simlab's 200 games at
** N=3), which is how make asan once saw 54.5% for 54.0% in test_tune. The
** control: the upvalue fixture keeps its count outside g.state, so its
** re-runs show. */
static void test_timer_stops_invisible(void **st) {
    (void)st;
    static const char *const runs[][10] = {
        {SIMLAB, "--set", "scoring.rounds=40", "--games", "200", "--quiet", NULL},
        {"rulesets/goofspiel", "--bots", "greedy,random", "--games", "20", "--quiet", NULL},
        {"rulesets/connect4", "--bots", "mcts:iterations=50,random", "--games", "4", "--quiet", NULL},
        {"tests/fixtures/rulesets/upvalue", "--games", "5", "--quiet", NULL},
    };
    static run plain, stopped;
    for (size_t i = 0; i < sizeof runs / sizeof *runs; i++) {
        int control = i == 3;
        assert_int_equal(unsetenv("CAIRN_TEST_STOP_TIMED_EVERY"), 0);
        sim(&plain, runs[i]);
        assert_int_equal(plain.rc, 0);
        drop_time(plain.out);
        static const char *const every[] = {"1", "3"};
        for (size_t k = 0; k < 2; k++) {
            assert_int_equal(setenv("CAIRN_TEST_STOP_TIMED_EVERY", every[k], 1), 0);
            sim(&stopped, runs[i]);
            assert_int_equal(unsetenv("CAIRN_TEST_STOP_TIMED_EVERY"), 0);
            drop_time(stopped.out);
            if (control) {
                assert_string_not_equal(plain.out, stopped.out);
                continue;
            }
            if (strcmp(plain.out, stopped.out))
                fprintf(stderr, "%s, every %s: unstopped\n%s\nstopped\n%s%s", runs[i][0], every[k],
                        plain.out, stopped.out, stopped.err);
            assert_int_equal(stopped.rc, 0);
            assert_string_equal(plain.out, stopped.out);
        }
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cpu_quota),
        cmocka_unit_test(test_connect4_report), cmocka_unit_test(test_leads),
        cmocka_unit_test(test_goofspiel_three_seats),
        cmocka_unit_test(test_turn_position),   cmocka_unit_test(test_jobs_and_shards),
        cmocka_unit_test(test_compare_self),    cmocka_unit_test(test_compare_mod),
        cmocka_unit_test(test_failing_games),   cmocka_unit_test(test_stuck_game),
        cmocka_unit_test(test_csv),             cmocka_unit_test(test_interrupt),
        cmocka_unit_test(test_ban_and_coverage), cmocka_unit_test(test_compare_set),
        cmocka_unit_test(test_find),            cmocka_unit_test(test_sweep),
        cmocka_unit_test(test_refusals),        cmocka_unit_test(test_start_seat_hook),
        cmocka_unit_test(test_tournament),      cmocka_unit_test(test_tournament_seatings),
        cmocka_unit_test(test_skill_luck),      cmocka_unit_test(test_skill_depth),
        cmocka_unit_test(test_trajectory),      cmocka_unit_test(test_trajectory_every),
        cmocka_unit_test(test_report_page),     cmocka_unit_test(test_until_width),
        cmocka_unit_test(test_sweep_series),      cmocka_unit_test(test_factorial),
        cmocka_unit_test(test_tune),            cmocka_unit_test(test_timer_stops_invisible),            cmocka_unit_test(test_lab_shards),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
