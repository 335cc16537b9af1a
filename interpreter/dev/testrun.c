/*
** testrun.c
** `cairn test`: scenario tests and golden playthroughs of a ruleset; and the
** smoke play of `cairn check`. Every game here goes through engine.h.
*/
#include "plural.h"
#include "testrun.h"
#include "unread.h"
#include "console_words.h"
#include "limits_env.h"
#include "pathcheck.h"
#include "sandbox.h"
#include "engine.h"
#include "luatest.h"
#include "limits.h"
#include "rng.h"
#include "ruleset.h"
#include "safe_open.h"
#include "save.h"
#include "strbuf.h"
#include "termsafe.h"
#include "view.h"
#include "yload.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* ------------------------------------------------------------ helpers */

/* The value at a path like `grid[1][4]` or `won[2]` or `prizes.draw`
** (list indexes from 1), or NULL. */
static const value *value_at(const value *v, const char *path) {
    const char *p = path;
    while (v && *p) {
        if (*p == '[') {
            char *end;
            long i = strtol(p + 1, &end, 10);
            if (*end != ']' || v->type != CV_LIST || i < 1 || (size_t)i > v->u.list.n) return NULL;
            v = v->u.list.items[i - 1];
            p = end + 1;
        } else {
            if (*p == '.') p++;
            size_t len = strcspn(p, ".[");
            char key[256];
            if (len == 0 || len >= sizeof key) return NULL;
            memcpy(key, p, len);
            key[len] = '\0';
            v = value_map_get(v, key);
            p += len;
        }
    }
    return v;
}

/* "2 bid 4" -> seat 2, id "bid 4". */
static int parse_play(const char *s, int *seat, const char **id) {
    char *end;
    long n = strtol(s, &end, 10);
    if (end == s || *end != ' ' || n < 1 || n > 64) return -1;
    *seat = (int)n;
    *id = end + 1;
    return 0;
}

static char **choices_of(const value *opts, size_t *n) {
    *n = 0;
    if (!opts || opts->type != CV_LIST || opts->u.list.n == 0) return NULL;
    char **c = calloc(opts->u.list.n, sizeof *c);
    if (!c) return NULL;
    for (size_t i = 0; i < opts->u.list.n; i++) {
        const value *o = opts->u.list.items[i];
        c[i] = cairn_strdup(o->type == CV_STR ? o->u.str.s : "?");
        *n = i + 1;
    }
    return c;
}

static void strs_free(char **v, size_t n) {
    for (size_t i = 0; v && i < n; i++) free(v[i]);
    free(v);
}

static char *describe(const value *v) {
    if (!v) return cairn_strdup("nothing");
    char *y = value_to_yaml(v);
    if (!y) return NULL;
    size_t n = strlen(y);
    while (n && y[n - 1] == '\n') y[--n] = '\0';
    for (char *p = y; *p; p++)
        if (*p == '\n') *p = ' ';
    return y;
}

/* ------------------------------------------------------- scenario tests */

typedef struct tctx {
    const char *ruleset;
    const char *file;
    const char *name;
    strbuf why; /* the failure, if any */
} tctx;

/* Process-wide, because one command runs per process and every game of it
** gets the same: set by main.c (check) or testrun_command (test) before the
** run starts, read by the games' configs below; never changed during it. */
static testrun_opts run_opts;

void testrun_configure(const testrun_opts *o) { run_opts = *o; }

static void debug_line(void *ud, const char *line) {
    fprintf(ud, "%s\n", line);
    fflush(ud); /* interleaved with the report as it happens */
}

/* The run's --set and --debug into a game's config. */
static void run_config(engine_config *c) {
    c->sets = run_opts.sets;
    c->n_sets = run_opts.n_sets;
    c->debug = run_opts.debug ? debug_line : NULL;
    c->debug_ud = run_opts.debug;
    c->track_data_reads = run_opts.unread != NULL;
}

/* A finished test game's reads of g.data, for cairn check --unread. */
static void note_reads(const engine *e) {
    if (run_opts.unread) unread_add_game(run_opts.unread, e); /* an OOM there shows as unread values */
}

static int fail(tctx *t, const char *fmt, const char *a, const char *b) {
    if (t->why.n) return -1; /* keep the first failure */
    strbuf_printf(&t->why, fmt, a ? a : "", b ? b : "");
    return -1;
}

static engine *start_test(tctx *t, const value *test, const value *scenario_state) {
    size_t n_choices;
    char **choices = choices_of(value_map_get(test, "options"), &n_choices);
    engine_config c;
    memset(&c, 0, sizeof c);
    c.ruleset = t->ruleset;
    c.choices = (const char *const *)choices;
    c.n_choices = n_choices;
    c.preset = value_get_str(test, "preset", NULL);
    c.players = (int)value_get_int(test, "players", 0);
    c.seed = (uint64_t)value_get_int(test, "seed", 1);
    c.lang = value_get_str(test, "lang", NULL);
    c.checks = 1;
    c.scenario = scenario_state;
    c.scenario_rng = value_get_str(test, "rng", NULL);
    run_config(&c);
    const value *names = value_map_get(test, "names");
    const char *nm[16];
    if (names && names->type == CV_LIST && names->u.list.n <= 16) {
        for (size_t i = 0; i < names->u.list.n; i++)
            nm[i] = names->u.list.items[i]->type == CV_STR ? names->u.list.items[i]->u.str.s : "?";
        if (c.players == 0) c.players = (int)names->u.list.n;
        if ((size_t)c.players == names->u.list.n) c.names = nm;
    }
    cerr_list errs;
    cerr_init(&errs, 0);
    engine *e = engine_new(&c, &errs);
    if (!e) {
        char *m = errs.n ? cerr_format(&errs.items[0]) : NULL;
        fail(t, "the game does not start: %s%s", m ? m : "out of memory", NULL);
        free(m);
    }
    cerr_free(&errs);
    strs_free(choices, n_choices);
    return e;
}

static int check_expect(tctx *t, engine *e, const value *ex, size_t events_from) {
    const value *v;
    char num[32];
    if ((v = value_map_get(ex, "over")) && v->type == CV_BOOL && engine_is_over(e) != v->u.b)
        return fail(t, "expected the game %s%s", v->u.b ? "to be over" : "not to be over", NULL);
    if ((v = value_map_get(ex, "asked"))) {
        engine_decision_list d;
        if (engine_decisions(e, &d) != 0) return fail(t, "out of memory%s%s", NULL, NULL);
        value *got = value_list();
        for (size_t i = 0; got && i < d.n; i++) value_list_push(got, value_int(d.items[i].seat));
        engine_decision_list_free(&d);
        int same = got && value_equal(got, v, 0);
        char *w = describe(v), *g = describe(got);
        if (!same) fail(t, "expected seats asked: %s, got %s", w, g);
        free(w);
        free(g);
        value_free(got);
        if (!same) return -1;
    }
    if ((v = value_map_get(ex, "state")) && v->type == CV_MAP) {
        for (size_t i = 0; i < v->u.map.n; i++) {
            const char *path = v->u.map.items[i].key->u.str.s;
            const value *got = value_at(engine_state(e), path);
            if (!got || !value_equal(got, v->u.map.items[i].val, 0)) {
                char *w = describe(v->u.map.items[i].val), *g = describe(got);
                char *msg = cairn_strfmt("state %s: expected %s, got %%s%%s", path, w);
                fail(t, msg ? msg : "state: mismatch%s%s", g, NULL);
                free(msg);
                free(w);
                free(g);
                return -1;
            }
        }
    }
    if ((v = value_map_get(ex, "view")) && v->type == CV_MAP) {
        int seat = (int)value_get_int(v, "seat", 0);
        const value *paths = value_map_get(v, "paths");
        value *view = engine_view(e, seat);
        for (size_t i = 0; view && paths && paths->type == CV_MAP && i < paths->u.map.n; i++) {
            const char *path = paths->u.map.items[i].key->u.str.s;
            const value *got = value_at(view, path);
            if (!got || !value_equal(got, paths->u.map.items[i].val, 0)) {
                char *w = describe(paths->u.map.items[i].val), *g = describe(got);
                snprintf(num, sizeof num, "%d", seat);
                char *msg = cairn_strfmt("seat %s's view of %s: expected %s, got %%s%%s", num, path, w);
                fail(t, msg ? msg : "view: mismatch%s%s", g, NULL);
                free(msg);
                free(w);
                free(g);
                value_free(view);
                return -1;
            }
        }
        value_free(view);
    }
    const value *sc = value_map_get(ex, "score"), *rk = value_map_get(ex, "ranking");
    if (sc || rk) {
        engine_score s;
        cerr_list errs;
        cerr_init(&errs, 0);
        if (engine_score_get(e, &s, &errs) != 0) {
            char *m = errs.n ? cerr_format(&errs.items[0]) : NULL;
            fail(t, "score failed: %s%s", m, NULL);
            free(m);
            cerr_free(&errs);
            return -1;
        }
        cerr_free(&errs);
        value *tot = value_list(), *rank = value_list();
        for (size_t i = 0; tot && rank && i < s.n; i++) {
            value_list_push(tot, value_int(s.seats[i].total));
            value_list_push(rank, value_int(s.seats[i].rank));
        }
        engine_score_free(&s);
        int bad = 0;
        if (sc && !value_equal(sc, tot, 0)) {
            char *w = describe(sc), *g = describe(tot);
            fail(t, "expected scores %s, got %s", w, g);
            free(w);
            free(g);
            bad = 1;
        }
        if (!bad && rk && !value_equal(rk, rank, 0)) {
            char *w = describe(rk), *g = describe(rank);
            fail(t, "expected ranks %s, got %s", w, g);
            free(w);
            free(g);
            bad = 1;
        }
        value_free(tot);
        value_free(rank);
        if (bad) return -1;
    }
    const value *en = value_map_get(ex, "enabled"), *dis = value_map_get(ex, "disabled");
    if (en || dis) {
        int seat = (int)value_get_int(ex, "seat", 0);
        engine_decision_list d;
        if (engine_decisions(e, &d) != 0) return fail(t, "out of memory%s%s", NULL, NULL);
        const engine_decision *dd = NULL;
        for (size_t i = 0; i < d.n; i++)
            if (!dd && (seat == 0 || d.items[i].seat == seat)) dd = &d.items[i];
        value *got = value_list(), *gotd = value_map();
        for (size_t i = 0; dd && got && gotd && i < dd->n_options; i++) {
            if (dd->options[i].disabled)
                value_map_set(gotd, dd->options[i].id, value_str(dd->options[i].disabled));
            else
                value_list_push(got, value_str(dd->options[i].id));
        }
        engine_decision_list_free(&d);
        int bad = 0;
        if (en && !value_equal(en, got, 0)) {
            char *w = describe(en), *g = describe(got);
            fail(t, "expected enabled options %s, got %s", w, g);
            free(w);
            free(g);
            bad = 1;
        }
        if (!bad && dis && !value_equal(dis, gotd, 0)) {
            char *w = describe(dis), *g = describe(gotd);
            fail(t, "expected disabled options %s, got %s", w, g);
            free(w);
            free(g);
            bad = 1;
        }
        value_free(got);
        value_free(gotd);
        if (bad) return -1;
    }
    if ((v = value_map_get(ex, "events")) && v->type == CV_LIST) {
        int seat = (int)value_get_int(ex, "events_seat", 0);
        engine_event_list l;
        if (engine_events(e, events_from, seat, &l) != 0) return fail(t, "out of memory%s%s", NULL, NULL);
        value *got = value_list();
        for (size_t i = 0; got && i < l.n; i++) value_list_push(got, value_str(l.items[i].text));
        engine_event_list_free(&l);
        int same = got && value_equal(got, v, 0);
        if (!same) {
            char *w = describe(v), *g = describe(got);
            fail(t, "expected events %s, got %s", w, g);
            free(w);
            free(g);
        }
        value_free(got);
        if (!same) return -1;
    }
    return 0;
}

static int run_scenario(tctx *t, const value *test) {
    engine *e = start_test(t, test, value_map_get(test, "state"));
    if (!e) return -1;
    size_t events_from = engine_event_count(e);
    int rc = 0;
    const value *play = value_map_get(test, "play");
    for (size_t i = 0; play && play->type == CV_LIST && i < play->u.list.n && rc == 0; i++) {
        const value *p = play->u.list.items[i];
        int seat;
        const char *id;
        if (p->type != CV_STR || parse_play(p->u.str.s, &seat, &id) != 0) {
            rc = fail(t, "play: expected \"SEAT ID\" like \"1 drop 4\"%s%s", NULL, NULL);
            break;
        }
        char *why = NULL;
        if (engine_answer(e, seat, id, &why) != ENGINE_OK) {
            char idx[32];
            snprintf(idx, sizeof idx, "%zu", i + 1);
            char *msg = cairn_strfmt("play %s (\"%s\") refused: %%s%%s", idx, p->u.str.s);
            rc = fail(t, msg ? msg : "play refused: %s%s", why, NULL);
            free(msg);
        }
        free(why);
    }
    if (rc == 0) rc = check_expect(t, e, value_map_get(test, "expect"), events_from);
    const value *refuse = value_map_get(test, "refuse");
    for (size_t i = 0; rc == 0 && refuse && refuse->type == CV_LIST && i < refuse->u.list.n; i++) {
        const value *r = refuse->u.list.items[i];
        const char *ps = value_get_str(r, "play", "");
        const char *reason = value_get_str(r, "reason", "");
        int seat;
        const char *id;
        if (parse_play(ps, &seat, &id) != 0) {
            rc = fail(t, "refuse: expected play: \"SEAT ID\"%s%s", NULL, NULL);
            break;
        }
        uint64_t h = engine_state_hash(e);
        char *why = NULL;
        engine_status st = engine_answer(e, seat, id, &why);
        if (st == ENGINE_OK) rc = fail(t, "expected \"%s\" to be refused, it was accepted%s", ps, NULL);
        else if (!why || !strstr(why, reason)) {
            char *msg = cairn_strfmt("\"%s\" refused with \"%%s\", expected a reason containing \"%s\"%%s", ps, reason);
            rc = fail(t, msg ? msg : "wrong reason %s%s", why, NULL);
            free(msg);
        } else if (engine_state_hash(e) != h) {
            rc = fail(t, "refusing \"%s\" changed the state%s", ps, NULL);
        }
        free(why);
    }
    note_reads(e);
    engine_free(e);
    return rc;
}

/* ------------------------------------------------------ golden playthroughs */

/* Every event from `from`, with its audience: "[all]" or "[to 1,3]". */
static void add_all_events(strbuf *b, const engine *e, size_t from) {
    int n = engine_seat_count(e);
    size_t end = engine_event_count(e);
    if (from >= end) return;
    /* seat-by-seat lists, merged by index */
    engine_event_list *per = calloc((size_t)n + 1, sizeof *per);
    if (!per) {
        b->oom = 1;
        return;
    }
    for (int s = 1; s <= n; s++)
        if (engine_events(e, from, s, &per[s]) != 0) b->oom = 1;
    for (size_t idx = from; idx < end && !b->oom; idx++) {
        const engine_event *ev = NULL;
        for (int s = 1; s <= n && !ev; s++)
            for (size_t k = 0; k < per[s].n; k++)
                if (per[s].items[k].index == idx) {
                    ev = &per[s].items[k];
                    break;
                }
        if (!ev) continue; /* addressed to nobody */
        if (ev->is_public) {
            strbuf_printf(b, "  [all] %s\n", ev->text);
        } else {
            strbuf_printf(b, "  [to");
            const char *sep = " ";
            for (int s = 1; s <= n; s++)
                if ((ev->to >> (s - 1)) & 1u) {
                    strbuf_printf(b, "%s%d", sep, s);
                    sep = ",";
                }
            strbuf_printf(b, "] %s\n", ev->text);
        }
    }
    for (int s = 1; s <= n; s++) engine_event_list_free(&per[s]);
    free(per);
}

/* Plays a seeded game with random bots for every seat and writes the full
** transcript. Returns NULL with *err set on failure. */
static char *golden_transcript(const char *rsname, const value *g, char **err) {
    size_t n_choices;
    char **choices = choices_of(value_map_get(g, "options"), &n_choices);
    engine_config c;
    memset(&c, 0, sizeof c);
    c.ruleset = rsname;
    c.choices = (const char *const *)choices;
    c.n_choices = n_choices;
    c.players = (int)value_get_int(g, "players", 0);
    c.seed = (uint64_t)value_get_int(g, "seed", 1);
    c.checks = 1;
    run_config(&c);
    cerr_list errs;
    cerr_init(&errs, 0);
    engine *e = engine_new(&c, &errs);
    strs_free(choices, n_choices);
    if (!e) {
        *err = errs.n ? cerr_format(&errs.items[0]) : cairn_strdup("out of memory");
        cerr_free(&errs);
        return NULL;
    }
    strbuf b = {0};
    const ruleset *rs = engine_ruleset(e);
    strbuf_printf(&b, "# golden playthrough of %s %s: seed %" PRIu64 ", %d players, options:", rs->id,
           rs->version, engine_seed(e), engine_seat_count(e));
    const value *o = value_map_get(g, "options");
    for (size_t i = 0; o && o->type == CV_LIST && i < o->u.list.n; i++)
        strbuf_printf(&b, " %s", o->u.list.items[i]->type == CV_STR ? o->u.list.items[i]->u.str.s : "?");
    strbuf_printf(&b, "%s\n# every seat plays the random bot. Regenerate: cairn test %s --regen\n",
           o && value_len(o) ? "" : " defaults", rs->id);
    strbuf_printf(&b, "setup:\n");
    add_all_events(&b, e, 0);
    size_t k = 0;
    while (!engine_is_over(e) && k < CAIRN_TEST_MAX_DECISIONS && !*err) {
        engine_decision_list d;
        if (engine_decisions(e, &d) != 0) {
            *err = cairn_strdup("out of memory");
            break;
        }
        int seat = d.items[0].seat;
        engine_decision_list_free(&d);
        char *id = engine_bot_choice(e, seat);
        if (!id) {
            *err = cairn_strfmt("decision %zu: seat %d is asked but has no enabled option", k + 1, seat);
            break;
        }
        size_t from = engine_event_count(e);
        char *why = NULL;
        if (engine_answer(e, seat, id, &why) != ENGINE_OK) {
            *err = cairn_strfmt("decision %zu (seat %d, \"%s\"): %s", k + 1, seat, id, why ? why : "?");
        } else {
            k++;
            strbuf_printf(&b, "%zu. seat %d: %s\n", k, seat, id);
            add_all_events(&b, e, from);
        }
        free(why);
        free(id);
    }
    if (!*err && !engine_is_over(e))
        *err = cairn_strfmt("the game did not end within %d decisions", CAIRN_TEST_MAX_DECISIONS);
    if (!*err) {
        engine_score s;
        if (engine_score_get(e, &s, &errs) != 0) {
            *err = errs.n ? cerr_format(&errs.items[0]) : cairn_strdup("score failed");
        } else {
            strbuf_printf(&b, "scores:\n");
            for (size_t i = 0; i < s.n; i++) {
                strbuf_printf(&b, "  seat %zu: %" PRId64 " (rank %d)", i + 1, s.seats[i].total, s.seats[i].rank);
                for (size_t j = 0; j < s.seats[i].n_items; j++)
                    strbuf_printf(&b, "%s%s %" PRId64, j ? ", " : "; ", s.seats[i].items[j].label,
                           s.seats[i].items[j].points);
                strbuf_printf(&b, "\n");
            }
            engine_score_free(&s);
        }
        char *board = *err ? NULL : engine_render(e, 0, &errs);
        if (board) {
            strbuf_printf(&b, "final board (spectator):\n");
            for (char *line = strtok(board, "\n"); line; line = strtok(NULL, "\n"))
                strbuf_printf(&b, "  | %s\n", line);
            free(board);
        } else if (!*err) {
            *err = errs.n ? cerr_format(&errs.items[0]) : cairn_strdup("render failed");
        }
    }
    cerr_free(&errs);
    note_reads(e);
    engine_free(e);
    if (b.oom && !*err) *err = cairn_strdup("out of memory");
    if (*err) {
        strbuf_free(&b);
        return NULL;
    }
    /* the file is read by people and diffed in terminals: events and labels
    ** from the rules keep no raw control, C1 or bidi character (termsafe.h) */
    char *safe = termsafe_text(b.s ? b.s : "");
    strbuf_free(&b);
    if (!safe) *err = cairn_strdup("out of memory");
    return safe;
}

/* A golden or generated file's text: a regular file (safe_open.h), inside
** within when it is not NULL, at most CAIRN_TEXT_MAX_FILE_BYTES. NULL when
** it cannot be read so; why (may be NULL) says why. */
static char *read_text(const char *path, const char *within, char *why, size_t whysz) {
    char *rwithin = within ? realpath(within, NULL) : NULL;
    char local[8];
    if (!why) why = local, whysz = sizeof local;
    why[0] = '\0';
    if (within && !rwithin) return NULL;
    char *t = safe_read_file(path, rwithin, (size_t)CAIRN_TEXT_MAX_FILE_BYTES, NULL, why, whysz);
    int e = errno; /* ENOENT: the file is missing */
    free(rwithin);
    errno = e;
    return t;
}

/* The transcript after its header ("#" lines at the top): the header names
** the ruleset that ran it, so a mod that inherits its parent's golden files
** compares only what was played. *line gets the body's first line number. */
static const char *golden_body(const char *t, int *line) {
    *line = 1;
    while (*t == '#') {
        const char *nl = strchr(t, '\n');
        t = nl ? nl + 1 : t + strlen(t);
        (*line)++;
    }
    return t;
}

/* The first line where two texts differ, as "line N: expected ..., got ...";
** line is the number of want's first line in its file. */
static char *first_diff(const char *want, int line, const char *got) {
    const char *a = want, *b = got;
    while (*a && *b) {
        size_t la = strcspn(a, "\n"), lb = strcspn(b, "\n");
        if (la != lb || memcmp(a, b, la) != 0)
            return cairn_strfmt("line %d: expected \"%.*s\", got \"%.*s\"", line, (int)la, a, (int)lb, b);
        a += la + (a[la] == '\n');
        b += lb + (b[lb] == '\n');
        line++;
    }
    return cairn_strfmt("line %d: %s", line, *a ? "the new text ends early" : "the new text goes on longer");
}

/* Writes text to path atomically; 0, or -1 with why. */
static int write_text(const char *path, const char *text, strbuf *why) {
    cerr_list werr;
    cerr_init(&werr, 0);
    int rc = save_write_text(path, text, &werr);
    if (rc != 0) {
        char *m = werr.n ? cerr_format(&werr.items[0]) : NULL;
        strbuf_printf(why, "%s", m ? m : "cannot write the file");
        free(m);
    }
    cerr_free(&werr);
    return rc;
}

static int run_golden(const char *rsname, const char *dir, const value *g, int regen, strbuf *why) {
    const char *file = value_get_str(g, "file", NULL);
    if (regen && !pathcheck_path_inside(file, dir)) {
        strbuf_printf(why, "not rewritten: %s is not inside %s (a mod's --regen never writes its "
                           "parent's files; give the mod its own `golden:` entries)", file, dir);
        return -1;
    }
    char *err = NULL;
    char *t = golden_transcript(rsname, g, &err);
    if (!t) {
        strbuf_printf(why, "%s", err ? err : "failed");
        free(err);
        return -1;
    }
    int rc = 0;
    if (regen) {
        rc = write_text(file, t, why);
    } else {
        char rwhy[128];
        char *want = read_text(file, NULL, rwhy, sizeof rwhy);
        int lw = 1, lt = 1; /* lt: the new header's length, not reported */
        const char *bw = want ? golden_body(want, &lw) : NULL, *bt = golden_body(t, &lt);
        if (!want) {
            strbuf_printf(why, "cannot read %s: %s (make it with --regen)", file, rwhy);
            rc = -1;
        } else if (strcmp(bw, bt) != 0) {
            char *d = first_diff(bw, lw, bt);
            strbuf_printf(why, "differs from %s, %s", file, d ? d : "");
            free(d);
            rc = -1;
        }
        free(want);
    }
    free(t);
    return rc;
}

/* ------------------------------------------------- Lua tests, generators */

/* Each file a generator makes is a test: it passes when the file on disk
** is what the generator makes now; --regen writes those that differ. */
static void run_generator(const ruleset *rs, const char *name, const char *gen, int regen, int verbose,
                          FILE *out, int *passed, int *failed) {
    luatest_file *files;
    size_t n;
    strbuf why = {0};
    if (luatest_run_generator(rs, name, gen, &files, &n, &why) != 0) {
        (*failed)++;
        fprintf(out, "FAIL generator %s: %s\n", gen, why.s ? why.s : "out of memory");
        strbuf_free(&why);
        return;
    }
    if (n == 0) {
        (*failed)++;
        fprintf(out, "FAIL generator %s: it returned no files\n", gen);
    }
    for (size_t i = 0; i < n; i++) {
        const char *path = files[i].path;
        /* a generated file is the ruleset's own: a link out of it is not read */
        char rwhy[128];
        char *have = read_text(path, rs->dir, rwhy, sizeof rwhy);
        int same = have && strcmp(have, files[i].text) == 0;
        if (!have && rwhy[0] && errno != ENOENT) {
            (*failed)++;
            fprintf(out, "FAIL %s: cannot read it: %s\n", path, rwhy);
            continue;
        }
        if (same) {
            (*passed)++;
            if (verbose) fprintf(out, "ok   %s (made by %s)\n", path, gen);
        } else if (!regen) {
            char *d = have ? first_diff(have, 1, files[i].text) : NULL;
            (*failed)++;
            fprintf(out, "FAIL %s is not what %s makes (%s): run cairn test %s --regen\n", path, gen,
                    have ? (d ? d : "it differs") : "the file is missing", name);
            free(d);
        } else if (!pathcheck_path_inside(path, rs->dir)) {
            (*failed)++;
            fprintf(out, "FAIL %s: not written, it is not inside %s\n", path, rs->dir);
        } else {
            strbuf werr = {0};
            if (write_text(path, files[i].text, &werr) != 0) {
                (*failed)++;
                fprintf(out, "FAIL %s: %s\n", path, werr.s ? werr.s : "cannot write it");
            } else {
                (*passed)++;
                fprintf(out, "wrote %s (made by %s)\n", path, gen);
            }
            strbuf_free(&werr);
        }
        free(have);
    }
    luatest_files_free(files, n);
    strbuf_free(&why);
}

static void run_units(const ruleset *rs, const char *name, int verbose, FILE *out, int *passed, int *failed) {
    const value *units = value_map_get(rs->manifest, "unit");
    for (size_t i = 0; units && units->type == CV_LIST && i < units->u.list.n; i++) {
        const char *file = units->u.list.items[i]->u.str.s;
        strbuf why = {0};
        if (luatest_run_unit(rs, name, file, &why) != 0) {
            (*failed)++;
            fprintf(out, "FAIL %s: %s\n", file, why.s ? why.s : "out of memory");
        } else {
            (*passed)++;
            if (verbose) fprintf(out, "ok   %s\n", file);
        }
        strbuf_free(&why);
    }
}

/* ----------------------------------------------------------------- driver */

int testrun_ruleset(const char *name, int regen, int verbose, FILE *out, cerr_list *errs) {
    ruleset_request req = {NULL, 0, NULL, 0, NULL, 0};
    ruleset *rs = ruleset_load(name, &req, errs);
    if (!rs) return -1;
    /* an installed ruleset belongs to the installation, not to this user */
    char *share = regen ? cairn_strfmt("%s/rulesets", ruleset_share_dir()) : NULL;
    int installed = share && pathcheck_path_inside(rs->dir, share);
    free(share);
    if (installed) {
        cerr_add(errs, NULL, 0, 0, NULL,
                 "%s is the installed copy (%s): --regen does not write there; copy the folder "
                 "(cp -R %s my-%s) and regenerate the copy", name, rs->dir, rs->dir, rs->id);
        ruleset_free(rs);
        return -1;
    }
    int failed = 0, passed = 0;
    /* generators first: --regen rewrites scenario files before they run */
    const value *gens = value_map_get(rs->manifest, "generate");
    for (size_t i = 0; gens && gens->type == CV_LIST && i < gens->u.list.n; i++)
        run_generator(rs, name, gens->u.list.items[i]->u.str.s, regen, verbose, out, &passed, &failed);
    run_units(rs, name, verbose, out, &passed, &failed);
    const value *tests = value_map_get(rs->manifest, "tests");
    for (size_t i = 0; tests && tests->type == CV_LIST && i < tests->u.list.n; i++) {
        const char *file = tests->u.list.items[i]->u.str.s;
        value *list = yload_file(file, errs);
        if (!list) {
            failed++;
            continue;
        }
        const value *items = list->type == CV_MAP ? value_map_get(list, "tests") : list;
        if (!items || items->type != CV_LIST) {
            cerr_add(errs, file, 0, 0, NULL, "expected a list of tests");
            failed++;
            value_free(list);
            continue;
        }
        for (size_t j = 0; j < items->u.list.n; j++) {
            const value *test = items->u.list.items[j];
            tctx t = {name, file, value_get_str(test, "name", "?"), {0}};
            int rc = run_scenario(&t, test);
            if (rc != 0) {
                failed++;
                fprintf(out, "FAIL %s:%d: %s: %s\n", file, test->line, t.name,
                        t.why.s ? t.why.s : "out of memory");
            } else {
                passed++;
                if (verbose) fprintf(out, "ok   %s: %s\n", file, t.name);
            }
            strbuf_free(&t.why);
        }
        value_free(list);
    }
    const value *golden = value_map_get(rs->manifest, "golden");
    for (size_t i = 0; golden && golden->type == CV_LIST && i < golden->u.list.n; i++) {
        const value *g = golden->u.list.items[i];
        strbuf why = {0};
        const char *file = value_get_str(g, "file", "?");
        if (run_golden(name, rs->dir, g, regen, &why) != 0) {
            failed++;
            fprintf(out, "FAIL golden %s: %s\n", file, why.s ? why.s : "out of memory");
        } else {
            passed++;
            if (verbose || regen) fprintf(out, "%s golden %s\n", regen ? "wrote" : "ok  ", file);
        }
        strbuf_free(&why);
    }
    if (passed + failed == 0)
        fprintf(out, "%s has no tests%s\n", rs->id,
                rs->n_module_dirs > 1 ? " (a mod runs its parent's only with `inherit: [tests, golden, unit]`)"
                                      : "");
    fprintf(out, "%s: %d passed, %d failed\n", rs->id, passed, failed);
    ruleset_free(rs);
    return failed;
}

static const cli_flag test_rows[] = {
    {"regen", 0, 0, "", CLI_TEXT, NULL, "rewrite the generated and golden files instead of comparing"},
    {"verbose", 'v', 0, "", CLI_TEXT, NULL, "one line per test, passed ones too"},
    {"debug", 0, 0, "", CLI_TEXT, NULL, "print the rules' g.debug(...) and print(...) lines"},
};
static const cli_table test_table = CLI_TABLE(test_rows);
const cli_table *const testrun_flag_tables[] = {&test_table, NULL};

#define TEST_USAGE "cairn test RULESET [--regen] [--verbose] [--debug]"

int testrun_command(int argc, char **argv) {
    const char *name = NULL;
    int regen = 0, verbose = 0;
    cli_parser p;
    cli_item it;
    char *why;
    int got;
    cli_start(&p, argc, argv, testrun_flag_tables);
    while ((got = cli_next(&p, &it, &why)) > 0) {
        if (cli_is(&it, "regen")) {
            regen = 1;
        } else if (cli_is(&it, "debug")) {
            testrun_opts o = {NULL, 0, stdout, NULL};
            testrun_configure(&o);
            luatest_set_debug(stdout); /* the Lua unit tests' print lines too */
        } else if (cli_is(&it, "verbose")) {
            verbose = 1;
        } else if (name) {
            fprintf(stderr, "cairn test: one ruleset at a time; \"%s\" is one too many\nusage: " TEST_USAGE "\n",
                    it.values[0]);
            return 2;
        } else {
            name = it.values[0];
        }
    }
    if (got < 0) {
        fprintf(stderr, "cairn test: %s\nusage: " TEST_USAGE "\n", why ? why : "out of memory");
        free(why);
        return 2;
    }
    if (!name) {
        fprintf(stderr, "cairn test: which ruleset?\nusage: " TEST_USAGE "\n");
        return 2;
    }
    cerr_list errs;
    cerr_init(&errs, 0);
    int failed = testrun_ruleset(name, regen, verbose, stdout, &errs);
    if (cerr_count(&errs)) cerr_print(stderr, &errs);
    cerr_free(&errs);
    return failed == 0 ? 0 : 1;
}

/* ------------------------------------------------------------------ smoke */

typedef struct combo {
    char **choices; /* "id=value" per option */
    size_t n;
} combo;

/* Every value an option can take, as "id=value" strings. */
static char **option_values(const ruleset_option *o, size_t *n) {
    *n = 0;
    const value *items = value_map_get(o->def, "items");
    size_t m = o->type == ROPT_SWITCH ? 2 : value_len(items);
    if (m == 0) return NULL;
    char **v = calloc(m, sizeof *v);
    if (!v) return NULL;
    for (size_t i = 0; i < m; i++) {
        const char *val = o->type == ROPT_SWITCH ? (i ? "true" : "false")
                                                 : value_get_str(items->u.list.items[i], "id", "?");
        v[i] = cairn_strfmt("%s=%s", o->id, val);
        *n = i + 1;
        if (!v[i]) break;
    }
    return v;
}

/* Milliseconds of this process's CPU time since t0 (clock()). */
static long cpu_ms_since(clock_t t0) {
    clock_t now = clock();
    if (now == (clock_t)-1 || t0 == (clock_t)-1) return 0;
    return (long)((double)(now - t0) * 1000.0 / CLOCKS_PER_SEC);
}

/* One smoke game; returns 0 or -1 with one error appended. */
/* The forward-model self-test at one position (TAG's ForwardModelTester):
** every enabled option of every asked seat applied to a fork of e; the fork
** starts with e's hash, and e's hash never moves; then undo and redo give
** back the same state. A malloc'd message, or NULL when all is well. */
static char *fork_every_option(engine *e, const char *where, size_t k) {
    uint64_t h = engine_state_hash(e);
    engine_decision_list d;
    if (engine_decisions(e, &d) != 0) return cairn_strdup("out of memory");
    char *msg = NULL;
    for (size_t i = 0; i < d.n && !msg; i++) {
        for (size_t j = 0; j < d.items[i].n_options && !msg; j++) {
            const engine_option *o = &d.items[i].options[j];
            if (o->disabled) continue;
            cerr_list errs;
            cerr_init(&errs, 0);
            engine *f = engine_fork(e, 0, &errs);
            char *why = NULL;
            if (!f) {
                char *m = errs.n ? cerr_format(&errs.items[0]) : NULL;
                msg = cairn_strfmt("%s, decision %zu: cannot fork: %s", where, k + 1, m ? m : "out of memory");
                free(m);
            } else if (engine_state_hash(f) != h) {
                msg = cairn_strfmt("%s, decision %zu: a fork does not start from the game's state", where, k + 1);
            } else if (engine_answer(f, d.items[i].seat, o->id, &why) != ENGINE_OK &&
                       !(why && strstr(why, "ran long under the budget's CPU timer"))) {
                /* (a fork that ran long is over, not wrong: the game counts it) */
                msg = cairn_strfmt("%s, decision %zu (seat %d, \"%s\"), in a fork: %s", where, k + 1,
                                   d.items[i].seat, o->id, why ? why : "?");
            }
            free(why);
            engine_free(f);
            cerr_free(&errs);
            if (!msg && engine_state_hash(e) != h)
                msg = cairn_strfmt("%s, decision %zu: playing \"%s\" in a fork changed the game", where, k + 1,
                                   o->id);
        }
    }
    engine_decision_list_free(&d);
    if (!msg && engine_position(e) > 0) { /* back and forth: the same state */
        size_t pos = engine_position(e);
        cerr_list errs;
        cerr_init(&errs, 0);
        if (engine_goto_why(e, pos - 1, &errs) != 0 || engine_goto_why(e, pos, &errs) != 0) {
            char *m = errs.n ? cerr_format(&errs.items[0]) : NULL;
            msg = cairn_strfmt("%s, decision %zu: undo then redo failed: %s", where, k, m ? m : "?");
            free(m);
        }
        cerr_free(&errs);
        if (msg) return msg;
        if (engine_state_hash(e) != h)
            msg = cairn_strfmt("%s, decision %zu: undo then redo does not give back the same state "
                               "(does the ruleset keep state outside g.state, in a global or an "
                               "upvalue?)", where, k);
    }
    return msg;
}

/* The end of the self-test: the log replayed from the start in a new
** process (strict: a fresh sandbox, a fresh string hash seed) and played
** again as a fast game must reach e's final hash. */
static char *replay_agrees(engine *e, const engine_config *c, const char *where) {
    uint64_t h = engine_state_hash(e);
    size_t n;
    const engine_logged *log = engine_log(e, &n);
    int fds[2];
    if (pipe(fds) != 0) return cairn_strdup("cannot make a pipe for the replay");
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return cairn_strdup("cannot fork a process for the replay");
    }
    if (pid == 0) {
        close(fds[0]);
        cerr_list errs;
        cerr_init(&errs, 0);
        engine *r = engine_new(c, &errs);
        size_t failed;
        uint64_t got = r && engine_replay(r, log, n, &failed, &errs) == 0 ? engine_state_hash(r) : 0;
        ssize_t w = write(fds[1], &got, sizeof got);
        _exit(w == (ssize_t)sizeof got ? 0 : 1);
    }
    close(fds[1]);
    uint64_t got = 0;
    ssize_t rd = read(fds[0], &got, sizeof got);
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (rd != (ssize_t)sizeof got || !WIFEXITED(status) || WEXITSTATUS(status) != 0 || got != h)
        return cairn_strfmt("%s: replaying its %zu %s in a new process does not reach the same "
                            "state (nondeterminism)", where, n, plural_en((long long)n, "decision", "decisions"));
    engine_config fc = *c;
    fc.fast = 1;
    fc.checks = 0;
    cerr_list errs;
    cerr_init(&errs, 0);
    engine *f = engine_new(&fc, &errs);
    char *msg = NULL;
    for (size_t i = 0; f && i < n && !msg; i++) {
        char *why = NULL;
        if (engine_answer(f, log[i].seat, log[i].id, &why) != ENGINE_OK)
            msg = cairn_strfmt("%s: decision %zu (seat %d, \"%s\") fails in a fast game: %s", where, i + 1,
                               log[i].seat, log[i].id, why ? why : "?");
        free(why);
    }
    if (!f) msg = cairn_strfmt("%s: a fast game does not start", where);
    else if (!msg && engine_state_hash(f) != h)
        msg = cairn_strfmt("%s: the same decisions in a fast game reach another state (does decisions() "
                           "or heuristic() write to g.state?)", where);
    engine_free(f);
    cerr_free(&errs);
    return msg;
}

/* A smoke game's failure: its English message, and, when it opens with the
** game's frame (where), the key "smoke.game" with the frame's facts (the
** seat count as the phrase "smoke.players", the options, the seed) and the
** rest ("smoke.not_over" when the game did not end, else the English
** rest), so that cairn check words the frame in its language. */
static void smoke_error(cerr_list *errs, const char *msg, const char *where, int players, const combo *cb,
                        uint64_t seed, int not_over) {
    size_t before = errs->n;
    cerr_add(errs, NULL, 0, 0, NULL, "%s", msg);
    size_t w = strlen(where);
    if (strncmp(msg, where, w) != 0) return;
    char seats[24], seed_text[24], most[24];
    snprintf(seats, sizeof seats, "%d", players);
    snprintf(seed_text, sizeof seed_text, "%" PRIu64, seed);
    snprintf(most, sizeof most, "%d", CAIRN_TEST_MAX_DECISIONS);
    strbuf opts = {0};
    strbuf_puts(&opts, "");
    for (size_t i = 0; i < cb->n; i++) strbuf_printf(&opts, "%s%s", i ? " " : "", cb->choices[i]);
    char *seats_phrase = cerr_phrase("smoke.players", seats, NULL);
    char *rest = not_over ? cerr_phrase("smoke.not_over", most, NULL) : cairn_strdup(msg + w);
    if (seats_phrase && rest && !opts.oom)
        cerr_key4(errs, before, "smoke.game", seats_phrase, strbuf_str(&opts), seed_text, rest);
    free(seats_phrase);
    free(rest);
    strbuf_free(&opts);
}

static int smoke_game(const char *name, int players, const combo *cb, uint64_t seed,
                      const view_rules *vr, unsigned char *matched, int selftest, unread_set *unread,
                      cerr_list *errs) {
    engine_config c;
    memset(&c, 0, sizeof c);
    c.ruleset = name;
    c.players = players;
    c.choices = (const char *const *)cb->choices;
    c.n_choices = cb->n;
    c.seed = seed;
    c.checks = 1;
    cerr_list local;
    cerr_init(&local, 0);
    strbuf where = {0};
    strbuf_printf(&where, "smoke game: %d players, options [", players);
    for (size_t i = 0; i < cb->n; i++) strbuf_printf(&where, "%s%s", i ? " " : "", cb->choices[i]);
    strbuf_printf(&where, "], seed %" PRIu64, seed);
    char *msg = NULL;
    int not_over = 0; /* msg says the game did not end in time */
    run_config(&c);
    c.track_data_reads = unread != NULL;
    engine *e = engine_new(&c, &local);
    c.debug = NULL; /* the twin and the replays below say nothing twice */
    /* the same game again in lockstep, never drawn between decisions: a
    ** rule that reads what render or decisions left in a global plays
    ** differently there, and such a game's saves would not load back */
    c.track_data_reads = 0; /* the twin plays the same game: its reads are e's */
    engine *twin = e ? engine_new(&c, &local) : NULL;
    if (e && !twin) {
        engine_free(e);
        e = NULL;
    }
    if (!e) {
        char *m = local.n ? cerr_format(&local.items[0]) : NULL;
        msg = cairn_strfmt("%s: setup failed: %s", where.s, m ? m : "out of memory");
        free(m);
        goto done;
    }
    for (int s = 0; s <= players && !msg; s++) {
        char *r = engine_render(e, s, &local);
        if (!r) {
            char *m = local.n ? cerr_format(&local.items[0]) : NULL;
            msg = cairn_strfmt("%s: render for seat %d failed at the start: %s", where.s, s, m ? m : "?");
            free(m);
        }
        free(r);
    }
    size_t k = 0;
    view_rules_mark_matches(vr, engine_state(e), matched);
    while (!msg && !engine_is_over(e)) {
        if (k >= CAIRN_TEST_MAX_DECISIONS) {
            msg = cairn_strfmt("%s: not over after %d decisions", where.s, CAIRN_TEST_MAX_DECISIONS);
            not_over = 1;
            break;
        }
        engine_decision_list d;
        if (engine_decisions(e, &d) != 0) {
            msg = cairn_strdup("out of memory");
            break;
        }
        /* pick which asked seat answers first at random, so simultaneous
        ** phases are tried in different orders */
        rng r;
        rng_seed_stream(&r, seed, 0x5eed0000u + k);
        int seat = d.items[rng_below(&r, d.n)].seat;
        for (size_t i = 0; i < d.n && !msg; i++)
            for (size_t j = 0; j < d.items[i].n_options && !msg; j++)
                if (console_word_starts(d.items[i].options[j].id))
                    msg = cairn_strfmt("%s, decision %zu: option id \"%s\" starts with a console "
                                       "command, which would run instead when typed: rename it",
                                       where.s, k + 1, d.items[i].options[j].id);
        engine_decision_list_free(&d);
        if (msg) break;
        char *id = engine_bot_choice(e, seat);
        if (!id) {
            msg = cairn_strfmt("%s, decision %zu: seat %d is asked but every option is disabled", where.s,
                               k + 1, seat);
            break;
        }
        /* the self-test in the first game of each seat count, at its first few positions */
        if (selftest && k % CAIRN_SMOKE_FORK_EVERY == 0 && k < CAIRN_SMOKE_FORK_EVERY * CAIRN_SMOKE_FORK_POSITIONS)
            msg = fork_every_option(e, where.s, k);
        char *why = NULL;
        if (!msg && engine_answer(e, seat, id, &why) != ENGINE_OK)
            msg = cairn_strfmt("%s, decision %zu (seat %d, \"%s\"): %s", where.s, k + 1, seat, id,
                               why ? why : "?");
        free(why);
        why = NULL;
        int twin_st = msg ? ENGINE_OK : engine_answer(twin, seat, id, &why);
        if (!msg && twin_st != ENGINE_OK && sandbox_is_cpu_limit_error(why))
            /* a CPU-time limit trips by the clock, not by the rules: where it
            ** trips differs from play to play, and is no rules' nondeterminism */
            msg = cairn_strfmt("%s, decision %zu (seat %d, \"%s\"): %s", where.s, k + 1, seat, id, why);
        else if (!msg && (twin_st != ENGINE_OK || engine_state_hash(twin) != engine_state_hash(e)))
            msg = cairn_strfmt("%s, decision %zu (seat %d, \"%s\"): the game is not deterministic: "
                               "played again without drawing the board between decisions it %s (a "
                               "global that render, decisions or score change, read by apply?)",
                               where.s, k + 1, seat, id, why ? "refused this decision" : "reached another state");
        free(why);
        free(id);
        if (!msg && k % 4 == 0) { /* the board for one seat in turn; the twin's never */
            int who = (int)(k / 4 % (size_t)(players + 1));
            char *board = engine_render(e, who, &local);
            if (!board)
                msg = cairn_strfmt("%s: render for seat %d failed after decision %zu", where.s, who,
                                   k + 1);
            free(board);
        }
        if (!msg && k % 16 == 15) { /* score, and take the decision back and make it again:
                                    ** decisions and apply run more often here than in the twin */
            engine_score sc;
            if (engine_score_get(e, &sc, &local) == 0) engine_score_free(&sc);
            size_t at = engine_position(e);
            if (engine_goto_why(e, at - 1, &local) != 0 || engine_goto_why(e, at, &local) != 0) {
                char *m = local.n ? cerr_format(&local.items[local.n - 1]) : NULL;
                msg = cairn_strfmt("%s: taking decision %zu back and making it again failed: %s",
                                   where.s, k + 1, m ? m : "?");
                free(m);
            } else if (engine_state_hash(twin) != engine_state_hash(e))
                msg = cairn_strfmt("%s, decision %zu: the game is not deterministic: taking the "
                                   "decision back and making it again reached another state (a "
                                   "global that decisions, render or score change, read by apply?)",
                                   where.s, k + 1);
        }
        view_rules_mark_matches(vr, engine_state(e), matched);
        k++;
    }
    if (!msg && selftest) msg = replay_agrees(e, &c, where.s);
    if (!msg) {
        engine_score s;
        if (engine_score_get(e, &s, &local) != 0) {
            char *m = local.n ? cerr_format(&local.items[local.n - 1]) : NULL;
            msg = cairn_strfmt("%s: score failed at the end: %s", where.s, m ? m : "?");
            free(m);
        } else {
            engine_score_free(&s);
        }
        char *r = msg ? NULL : engine_render(e, 0, &local);
        if (!msg && !r) msg = cairn_strfmt("%s: render failed at the end", where.s);
        free(r);
    }
done:
    if (!msg && unread && e && unread_add_game(unread, e) != 0) msg = cairn_strdup("--unread: out of memory");
    if (msg) smoke_error(errs, msg, where.s, players, cb, seed, not_over);
    free(msg);
    strbuf_free(&where);
    cerr_free(&local);
    engine_free(e);
    engine_free(twin);
    return msg ? -1 : 0;
}

/* Notes why the manifest refused a combination: each distinct reason,
** with how many combinations it refused. */
static void skip_note(testrun_tally *t, const cerr_list *why) {
    const char *m = why->n ? why->items[0].message : "refused";
    for (int i = 0; i < TESTRUN_MAX_REASONS; i++) {
        if (!t->reason[i]) {
            if (!(t->reason[i] = cairn_strdup(m))) break;
            if (why->n && t->why.n == (size_t)i) { /* kept whole, for cairn check's languages */
                cerr_list first = *why;
                first.n = 1, first.dropped = 0, first.oom = 0;
                if (t->why.limit == 0) cerr_init(&t->why, TESTRUN_MAX_REASONS);
                cerr_merge(&t->why, &first);
            }
        }
        if (strcmp(t->reason[i], m) == 0) {
            t->reason_count[i]++;
            return;
        }
    }
    t->other_reasons++;
}

void testrun_tally_free(testrun_tally *t) {
    for (int i = 0; i < TESTRUN_MAX_REASONS; i++) {
        free(t->reason[i]);
        t->reason[i] = NULL;
    }
    cerr_free(&t->why);
}

/* The smoke summary in English, for testrun_smoke's callers (cairn check
** words the same facts in its language: main.c): games played,
** combinations, and every reason a combination was not played. */
static void smoke_summary(FILE *out, const testrun_tally *t) {
    fprintf(out, "smoke: %ld game%s played (%ld option combination%s", t->played, t->played == 1 ? "" : "s",
            t->combos, t->combos == 1 ? "" : "s");
    if (t->skipped) {
        fprintf(out, "; %ld seat count and combination pair%s skipped as the manifest forbids them:", t->skipped,
                t->skipped == 1 ? "" : "s");
        for (int i = 0; i < TESTRUN_MAX_REASONS && t->reason[i]; i++)
            fprintf(out, "%s %s (%ld)", i ? ";" : "", t->reason[i], t->reason_count[i]);
        if (t->other_reasons) fprintf(out, "; other reasons (%ld)", t->other_reasons);
    }
    if (t->capped)
        fprintf(out, "; %ld combination%s beyond CAIRN_SMOKE_MAX_COMBINATIONS (%d) not played, their "
                     "overlays and scripts checked all the same",
                t->capped, t->capped == 1 ? "" : "s", CAIRN_SMOKE_MAX_COMBINATIONS);
    if (t->thinned)
        fprintf(out, "; %ld seat count and combination pair%s left out by --cover each: every seat count "
                     "and every option value played at least once", t->thinned, t->thinned == 1 ? "" : "s");
    fprintf(out, ")\n");
}

int testrun_smoke(const char *name, int games, int cover_each, FILE *out, cerr_list *errs) {
    testrun_tally t;
    memset(&t, 0, sizeof t);
    int rc = testrun_smoke_reads(name, games, cover_each, &t, NULL, errs);
    /* a ruleset that does not load played nothing and says so by its errors */
    if (out && t.combos) smoke_summary(out, &t);
    testrun_tally_free(&t);
    return rc;
}

int testrun_smoke_reads(const char *name, int games, int cover_each, testrun_tally *tally, unread_set *unread,
                        cerr_list *errs) {
    ruleset_request req = {NULL, 0, NULL, 0, NULL, 0};
    ruleset *rs = ruleset_load(name, &req, errs);
    if (!rs) return -1;
    if (games <= 0) games = CAIRN_SMOKE_GAMES;
    size_t no = rs->n_opts;
    char ***vals = calloc(no ? no : 1, sizeof *vals);
    size_t *nv = calloc(no ? no : 1, sizeof *nv), *digit = calloc(no ? no : 1, sizeof *digit);
    combo cb = {calloc(no ? no : 1, sizeof(char *)), no};
    int rc = 0;
    long played = 0, skipped = 0, combos = 0, capped = 0, thinned = 0;
    /* --cover each: which seat counts and which option values (vals[i][v]
    ** at seen_val + first[i] + v) some played game had */
    unsigned char *seen_seats = calloc((size_t)(rs->max_players > 0 ? rs->max_players : 0) + 1, 1);
    size_t *first = calloc(no + 1, sizeof *first);
    unsigned char *seen_val = NULL;
    view_rules *vr = view_rules_new(rs->visibility, errs);
    unsigned char *matched = calloc(vr && view_rules_count(vr) ? view_rules_count(vr) : 1, 1);
    if (!vals || !nv || !digit || !cb.choices || !vr || !matched) {
        errs->oom = 1;
        rc = -1;
        goto done;
    }
    if (!first || !seen_seats) {
        errs->oom = 1;
        rc = -1;
        goto done;
    }
    for (size_t i = 0; i < no; i++) {
        vals[i] = option_values(&rs->opts[i], &nv[i]);
        first[i + 1] = first[i] + nv[i];
    }
    if (!(seen_val = calloc(first[no] + 1, 1))) {
        errs->oom = 1;
        rc = -1;
        goto done;
    }
    clock_t t0 = clock();
    long check_ms = limits_env_ms("CAIRN_CHECK_CPU_MS", CAIRN_CHECK_CPU_MS);
    for (;;) {
        /* the combination named by the mixed-radix counter `digit` */
        for (size_t i = 0; i < no; i++) cb.choices[i] = nv[i] ? vals[i][digit[i]] : NULL;
        combo use = cb;
        size_t m = 0;
        for (size_t i = 0; i < no; i++)
            if (cb.choices[i]) cb.choices[m++] = cb.choices[i];
        use.n = m;
        if (combos < CAIRN_SMOKE_MAX_COMBINATIONS) {
            for (int p = rs->min_players; p <= rs->max_players && rc == 0; p++) {
                int fresh = !seen_seats[p];
                for (size_t i = 0; i < no && !fresh; i++) fresh = nv[i] && !seen_val[first[i] + digit[i]];
                if (cover_each && !fresh) { /* nothing this pair plays that a played one did not */
                    thinned++;
                    continue;
                }
                /* only a combination the manifest itself forbids
                ** (requires/excludes, forced by the seat count) is
                ** skipped; any other error in it is a failure */
                ruleset_request r2 = {(const char *const *)use.choices, use.n, NULL, p, NULL, 0};
                cerr_list why;
                cerr_init(&why, 0);
                int refused = 0;
                ruleset *probe = ruleset_load_combination(name, &r2, &refused, &why);
                if (!probe && refused) {
                    skip_note(tally, &why);
                    skipped++;
                } else if (!probe) {
                    cerr_merge(errs, &why);
                    rc = -1;
                }
                cerr_free(&why);
                if (!probe) continue;
                ruleset_free(probe);
                seen_seats[p] = 1;
                for (size_t i = 0; i < no; i++)
                    if (nv[i]) seen_val[first[i] + digit[i]] = 1;
                for (int s = 1; s <= games && rc == 0; s++) {
                    if (cpu_ms_since(t0) > check_ms) {
                        cerr_add(errs, NULL, 0, 0, NULL,
                                 "smoke play: CPU time limit of %ld ms for one cairn check exceeded "
                                 "after %ld games (limit CAIRN_CHECK_CPU_MS)", check_ms, played);
                        rc = -1;
                        break;
                    }
                    if (smoke_game(name, p, &use, (uint64_t)s, vr, matched, combos == 0 && s == 1, unread, errs) != 0)
                        rc = -1;
                    played++;
                }
            }
        } else {
            capped++;
        }
        combos++;
        if (rc) break;
        size_t i = 0;
        while (i < no && ++digit[i] >= (nv[i] ? nv[i] : 1)) digit[i++] = 0;
        if (i == no) break;
    }
    /* a visibility rule that reached nothing in any state of any game hides
    ** nothing: most likely a misspelt path, and a secret shown to everyone */
    for (size_t i = 0; rc == 0 && played > 0 && vr && i < view_rules_count(vr); i++) {
        const value *rule = rs->visibility->u.list.items[i];
        if (matched[i] || strcmp(value_get_str(rule, "policy", "public"), "public") == 0) continue;
        cerr_add(errs, rule->file ? rule->file->name : NULL, rule->line, rule->col, "visibility",
                 "the rule for \"%s\" (%s) matched nothing in any state of %ld smoke games, so it "
                 "hides nothing: check the path against the state",
                 value_get_str(rule, "path", "?"), value_get_str(rule, "policy", "?"), played);
        rc = -1;
    }
    tally->played = played;
    tally->combos = combos;
    tally->skipped = skipped;
    tally->capped = capped;
    tally->thinned = thinned;
done:
    free(first);
    free(seen_val);
    free(seen_seats);
    for (size_t i = 0; vals && i < no; i++) strs_free(vals[i], nv[i]);
    free(vals);
    free(nv);
    free(digit);
    free(cb.choices);
    free(matched);
    view_rules_free(vr);
    ruleset_free(rs);
    return rc;
}
