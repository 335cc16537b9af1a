/*
** test_seat_protocol.c
** The seat protocol (docs/protocol.md) and outside agents (`exec:`): a
** state message says what the seat may see and nothing more (in Yak, seat
** 1's message is the same byte for byte whichever card seat 2 chose in
** secret); answers by id and as typed; every bad line (not JSON, an unknown
** field, not asked, a disabled or unknown option, a stale position, the
** game over) refused with a code and the game unchanged; a full game of
** every shipped ruleset with every seat the example Python agent, its
** messages valid under schemas/seat-protocol.schema.json; agents that
** crash, time out, print garbage, answer a disabled option or stop reading
** told with seat and decision while the fallback finishes the game, with
** no child left behind; `cairn sim` with an agent in a seat, the same
** report for --jobs 1 and 2; a save never starts a program.
*/
#include "testutil.h"
#include "bot.h"
#include "engine.h"
#include "error.h"
#include "save.h"
#include "seat_protocol.h"
#include "sim.h"
#include "strbuf.h"
#include "testgame.h"

#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define AGENT "examples/agents/random_agent.py"

static char tmpdir[] = "/tmp/cairn-protocol-XXXXXX";

static engine *game(const char *rs, uint64_t seed, int players) {
    engine_config c;
    memset(&c, 0, sizeof c);
    c.ruleset = rs;
    c.seed = seed;
    c.players = players;
    return test_game_new(&c);
}

/* Seat's state message (malloc'd). */
static char *state_of(engine *e, int seat, size_t since) {
    strbuf b = {0};
    cerr_list errs;
    cerr_init(&errs, 0);
    assert_int_equal(seat_protocol_state(e, seat, since, 80, 0, &b, &errs), 0);
    cerr_free(&errs);
    char *s = strbuf_take(&b);
    assert_non_null(s);
    return s;
}

/* Sends line for seat; the reply (malloc'd) and what the call returned. */
static char *send_line(engine *e, int seat, const char *line, int *rc) {
    strbuf b = {0};
    cerr_list errs;
    cerr_init(&errs, 0);
    *rc = seat_protocol_answer(e, seat, line, &b, &errs);
    cerr_free(&errs);
    char *s = strbuf_take(&b);
    assert_non_null(s);
    return s;
}

static void answer_ok(engine *e, int seat, const char *line) {
    int rc;
    char *r = send_line(e, seat, line, &rc);
    if (rc != SEAT_PROTOCOL_APPLIED) fprintf(stderr, "%s -> %s\n", line, r);
    assert_int_equal(rc, SEAT_PROTOCOL_APPLIED);
    assert_non_null(strstr(r, "\"ok\":true"));
    free(r);
}

/* line is refused with code, the reason holds `why`, and the game has not
** moved (position and state hash as before). */
static void refused(engine *e, int seat, const char *line, const char *code, const char *why) {
    size_t pos = engine_position(e);
    uint64_t hash = engine_state_hash(e);
    int rc;
    char *r = send_line(e, seat, line, &rc);
    char want[80];
    snprintf(want, sizeof want, "\"code\":\"%s\"", code);
    if (rc != SEAT_PROTOCOL_REFUSED || !strstr(r, want) || !strstr(r, why))
        fprintf(stderr, "%s -> %s (wanted %s, %s)\n", line, r, code, why);
    assert_int_equal(rc, SEAT_PROTOCOL_REFUSED);
    assert_non_null(strstr(r, "\"ok\":false"));
    assert_non_null(strstr(r, want));
    assert_non_null(strstr(r, why));
    assert_int_equal(engine_position(e), pos);
    assert_true(engine_state_hash(e) == hash);
    free(r);
}

/* Appends text and a newline to file path (the messages the schema checks). */
static void keep_line(const char *path, const char *text) {
    FILE *f = fopen(path, "a");
    assert_non_null(f);
    fprintf(f, "%s\n", text);
    fclose(f);
}

static char *tmp_path(const char *name) { return cairn_strfmt("%s/%s", tmpdir, name); }

/* Runs tools/validate-json --lines on files: 1 when every line is valid. */
static int schema_valid(const char *files) {
    char *cmd = cairn_strfmt("tools/validate-json --lines schemas/seat-protocol.schema.json %s >&2", files);
    int st = system(cmd);
    free(cmd);
    return st == 0;
}

/* ------------------------------------------------------------ messages */

static void test_state_message(void **st) {
    (void)st;
    engine *e = game("connect4", 1, 2);
    char *s = state_of(e, 1, 0);
    /* seat 1 begins: asked, its seven columns all enabled, nothing over */
    assert_non_null(strstr(s, "{\"type\":\"state\",\"protocol\":1,\"ruleset\":\"connect4\",\"seat\":1,"));
    assert_non_null(strstr(s, "\"position\":0,\"over\":false,\"asked\":[1],\"your_turn\":true"));
    assert_non_null(strstr(s, "{\"number\":7,\"id\":\"drop 7\",\"label\":\"column 7\",\"enabled\":true}"));
    assert_non_null(strstr(s, "\"scores\":null"));
    assert_null(strchr(s, '\n')); /* one line: a newline in the board is \n */
    assert_null(strstr(s, "\x1b"));
    free(s);
    s = state_of(e, 2, 0);
    assert_non_null(strstr(s, "\"asked\":[1],\"your_turn\":false"));
    assert_non_null(strstr(s, "\"question\":null"));
    free(s);
    /* the news since: seat 1 drops, seat 2 is told once; from news_next on, nothing */
    answer_ok(e, 1, "{\"answer\":\"drop 4\"}");
    s = state_of(e, 2, 0);
    assert_non_null(strstr(s, "\"news\":[{\"index\":0,\"decision\":1,\"text\":\"Seat 1 drops a disc in column 4\"}]"));
    assert_non_null(strstr(s, "\"news_next\":1"));
    free(s);
    s = state_of(e, 2, 1);
    assert_non_null(strstr(s, "\"news\":[]"));
    free(s);
    /* a spectator: no question, no name */
    s = state_of(e, 0, 0);
    assert_non_null(strstr(s, "\"seat\":0,\"name\":null"));
    assert_non_null(strstr(s, "\"your_turn\":false"));
    free(s);
    strbuf b = {0};
    cerr_list errs;
    cerr_init(&errs, 0);
    assert_int_equal(seat_protocol_state(e, 3, 0, 80, 0, &b, &errs), -1);
    assert_non_null(strstr(errs.items[0].message, "no seat 3"));
    cerr_free(&errs);
    strbuf_free(&b);
    engine_free(e);
}

static void test_answers_and_refusals(void **st) {
    (void)st;
    engine *e = game("connect4", 1, 2);
    char *msgs = tmp_path("connect4.jsonl");
    refused(e, 1, "", "malformed", "not JSON");
    refused(e, 1, "{\"answer\":\"drop 1\"", "malformed", "not JSON");
    refused(e, 1, "{\"answer\":\"drop 1\"} x", "malformed", "not JSON");
    refused(e, 1, "[\"drop 1\"]", "malformed", "expected a JSON object");
    refused(e, 1, "{\"answer\":\"drop 1\",\"seat\":2}", "malformed", "unknown field \\\"seat\\\"");
    refused(e, 1, "{\"answer\":4}", "malformed", "takes a string");
    refused(e, 1, "{\"answer\":\"drop 1\",\"text\":\"1\"}", "malformed", "not both");
    refused(e, 1, "{}", "malformed", "expected \\\"answer\\\"");
    refused(e, 1, "{\"answer\":\"\xff\"}", "malformed", "not JSON");
    refused(e, 2, "{\"answer\":\"drop 1\"}", "not_asked", "not asked");
    refused(e, 1, "{\"answer\":\"drop 9\"}", "unknown_option", "drop 9");
    refused(e, 1, "{\"text\":\"9\"}", "unknown_option", "choose 1 to 7");
    refused(e, 1, "{\"text\":\"dr\"}", "unknown_option", "could be drop 1, drop 2");
    refused(e, 1, "{\"answer\":\"drop 1\",\"position\":5}", "stale", "position 0, not 5");
    /* fill column 1: six drops, X O X O X O (no four in a row) */
    for (int i = 0; i < 6; i++) {
        char line[64];
        snprintf(line, sizeof line, i % 2 ? "{\"text\":\"1\"}" : "{\"answer\":\"drop 1\",\"position\":%d}", i);
        answer_ok(e, 1 + i % 2, line);
    }
    assert_int_equal(engine_position(e), 6);
    char *s = state_of(e, 1, 0);
    keep_line(msgs, s);
    assert_non_null(strstr(s, "{\"number\":1,\"id\":\"drop 1\",\"label\":\"column 1\",\"enabled\":false,\"disabled\":"));
    free(s);
    refused(e, 1, "{\"answer\":\"drop 1\"}", "disabled", "full");
    refused(e, 1, "{\"text\":\"1\"}", "disabled", "full");
    /* a text answer by the beginning of a label, as at the console */
    answer_ok(e, 1, "{\"text\":\"column 2\"}");
    int rc;
    char *r = send_line(e, 2, "{\"answer\":\"drop 3\"}", &rc);
    assert_int_equal(rc, SEAT_PROTOCOL_APPLIED);
    /* 6 + 2 decisions; seat 1 is asked next */
    assert_string_equal(r, "{\"type\":\"reply\",\"ok\":true,\"answered\":[\"drop 3\"],\"position\":8,\"your_turn\":false,"
                           "\"over\":false}");
    keep_line(msgs, r);
    free(r);
    r = send_line(e, 2, "{\"answer\":\"drop 3\"}", &rc);
    keep_line(msgs, r);
    free(r);
    keep_line(msgs, "{\"answer\":\"drop 3\"}");
    keep_line(msgs, "{\"text\":\"3\",\"position\":8}");
    /* play it out: the lowest enabled column each time */
    while (!engine_is_over(e)) {
        engine_decision_list dl = {0};
        assert_int_equal(engine_decisions(e, &dl), 0);
        const engine_decision *d = &dl.items[0];
        size_t k = 0;
        while (d->options[k].disabled) k++;
        char *line = cairn_strfmt("{\"answer\":\"%s\"}", d->options[k].id);
        answer_ok(e, d->seat, line);
        free(line);
        engine_decision_list_free(&dl);
    }
    s = state_of(e, 1, 0);
    keep_line(msgs, s);
    assert_non_null(strstr(s, "\"over\":true,\"asked\":[],\"your_turn\":false"));
    assert_non_null(strstr(s, "\"scores\":[{\"seat\":1,"));
    free(s);
    refused(e, 1, "{\"answer\":\"drop 1\"}", "game_over", "over");
    r = send_line(e, 1, "{\"answer\":\"drop 1\"}", &rc);
    keep_line(msgs, r);
    free(r);
    assert_true(schema_valid(msgs));
    /* and the schema is no rubber stamp: an unknown field is invalid */
    char *bad = tmp_path("bad.jsonl");
    keep_line(bad, "{\"answer\":\"drop 1\",\"seat\":2}");
    assert_false(schema_valid(bad));
    free(bad);
    free(msgs);
    engine_free(e);
}

/* Himalaya: a whole program typed on one line, read by the ruleset's parse,
** answers six decisions at once; a line the parse refuses changes nothing. */
static void test_text_names_several_decisions(void **st) {
    (void)st;
    engine *e = game("himalaya", 4, 3);
    /* the caravans first: seats 3, 1, 2 place theirs, each in another
    ** village (positions 0 to 2) */
    answer_ok(e, 3, "{\"text\":\"1\"}");
    answer_ok(e, 1, "{\"text\":\"2\"}");
    answer_ok(e, 2, "{\"text\":\"3\"}");
    assert_int_equal(engine_position(e), 3);
    refused(e, 1, "{\"text\":\"program dirt ice fly\"}", "unknown_option", "\\\"fly\\\" is not an action");
    int rc;
    char *r = send_line(e, 1, "{\"text\":\"program dirt ice deal rest stone deal\",\"position\":3}", &rc);
    assert_int_equal(rc, SEAT_PROTOCOL_APPLIED);
    /* 3 + 6 decisions; seat 1 is asked on: ready, or back */
    assert_string_equal(r, "{\"type\":\"reply\",\"ok\":true,\"answered\":[\"dirt\",\"ice\",\"deal\",\"rest\",\"stone\","
                           "\"deal\"],\"position\":9,\"your_turn\":true,\"over\":false}");
    free(r);
    engine_free(e);
}

/* Yak: the card seat 2 picks at sunrise is its secret until the reveal.
** Seat 1's message, after seat 2 picked one card or another, is the same
** byte for byte; seat 2's own message differs (it holds the card). */
static void test_yak_secret_card(void **st) {
    (void)st;
    static const char *cards[] = {"card build", "card restock", "card market"};
    char *one[3], *two[3];
    for (int i = 0; i < 3; i++) {
        engine *e = game("yak", 7, 2);
        char *line = cairn_strfmt("{\"answer\":\"%s\"}", cards[i]);
        answer_ok(e, 2, line);
        free(line);
        assert_true(engine_is_asked(e, 1)); /* before the reveal: seat 1 has not chosen */
        one[i] = state_of(e, 1, 0);
        two[i] = state_of(e, 2, 0);
        engine_free(e);
    }
    for (int i = 1; i < 3; i++) {
        assert_string_equal(one[0], one[i]);
        assert_string_not_equal(two[0], two[i]);
    }
    /* seat 2 sees its card in its view; seat 1 sees that it chose, not what
    ** (its own entry false: it has not chosen yet) */
    assert_non_null(strstr(two[2], "\"chosen\":[\"?\",\"market\"]"));
    assert_non_null(strstr(two[0], "\"chosen\":[\"?\",\"build\"]"));
    assert_non_null(strstr(one[0], "\"chosen\":[false,\"?\"]"));
    for (int i = 0; i < 3; i++) free(one[i]), free(two[i]);
}

/* ------------------------------------------------------------ agents */

typedef struct notes {
    strbuf text;
    int n;
} notes;

static void take_notice(void *ud, const char *line) {
    notes *n = ud;
    strbuf_printf(&n->text, "%s\n", line);
    n->n++;
}

/* Plays e to its end with bots[s] in seat s (NULL: the random bot),
** then ends every game's agents. The decisions made. */
static long play_out(engine *e, bot **bots, notes *nt) {
    bot_hooks h = {NULL, NULL, nt, take_notice};
    long k = 0;
    while (!engine_is_over(e)) {
        engine_decision_list dl = {0};
        assert_int_equal(engine_decisions(e, &dl), 0);
        int seat = dl.items[0].seat;
        engine_decision_list_free(&dl);
        cerr_list errs;
        cerr_init(&errs, 0);
        char *id = bots[seat] ? bot_choose(bots[seat], e, seat, &h, &errs) : engine_bot_choice(e, seat);
        if (!id && errs.n) fprintf(stderr, "seat %d: %s\n", seat, errs.items[0].message);
        assert_non_null(id);
        char *why = NULL;
        engine_status es = engine_answer(e, seat, id, &why);
        if (es != ENGINE_OK) fprintf(stderr, "seat %d %s: %s\n", seat, id, why ? why : "?");
        assert_int_equal(es, ENGINE_OK);
        free(why);
        free(id);
        cerr_free(&errs);
        k++;
        assert_true(k < 20000);
    }
    for (int s = 1; s <= engine_seat_count(e); s++)
        if (bots[s]) bot_end_game(bots[s], e);
    return k;
}

/* No child of the test is left, running or a zombie. */
static void no_children(void) {
    errno = 0;
    assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
    assert_int_equal(errno, ECHILD);
}

/* A legal final score: every seat ranked 1..n, someone first. */
static void legal_final_score(engine *e) {
    engine_score sc;
    cerr_list errs;
    cerr_init(&errs, 0);
    assert_int_equal(engine_score_get(e, &sc, &errs), 0);
    int n = engine_seat_count(e), first = 0;
    assert_int_equal((int)sc.n, n);
    for (int i = 0; i < n; i++) {
        assert_in_range(sc.seats[i].rank, 1, n);
        first |= sc.seats[i].rank == 1;
    }
    assert_true(first);
    engine_score_free(&sc);
    cerr_free(&errs);
}

/* One full game of rs with every seat the example agent, logging what
** each is sent to DIR/RS-SEAT.jsonl; run in a child process (the games run
** side by side): 0 when it ended with a legal final score, no agent ever
** failed, and seat 1's agent was sent the final state; else 1 with why on
** stderr. */
static int full_game(const char *rs, int players) {
    engine *e = game(rs, 3, players);
    bot *bots[CAIRN_MAX_SEATS + 1] = {0};
    int bad = 0;
    for (int s = 1; s <= players && !bad; s++) {
        /* a time limit far out of the way: starting Python on a loaded machine
        ** took 3 s alone (the limit itself is test_agent_failures's) */
        char *spec = cairn_strfmt("exec:" AGENT " --seed %d --log %s/%s-%d.jsonl%s,timeout=300", s, tmpdir, rs, s,
                                  s == 2 ? " --text" : "");
        cerr_list errs;
        cerr_init(&errs, 0);
        bots[s] = bot_new(spec, &errs);
        bad = !bots[s] || bot_check(bots[s], e, &errs) != 0;
        cerr_free(&errs);
        free(spec);
    }
    notes nt = {{0}, 0};
    bot_hooks h = {NULL, NULL, &nt, take_notice};
    long k = 0;
    while (!bad && !engine_is_over(e) && k < 20000) {
        engine_decision_list dl = {0};
        bad = engine_decisions(e, &dl) != 0 || dl.n == 0;
        int seat = bad ? 0 : dl.items[0].seat;
        engine_decision_list_free(&dl);
        cerr_list errs;
        cerr_init(&errs, 0);
        char *id = bad ? NULL : bot_choose(bots[seat], e, seat, &h, &errs);
        if (!bad && (!id || engine_answer(e, seat, id, NULL) != ENGINE_OK)) {
            fprintf(stderr, "%s: seat %d could not answer %s: %s\n", rs, seat, id ? id : "",
                    errs.n ? errs.items[0].message : "refused");
            bad = 1;
        }
        free(id);
        cerr_free(&errs);
        k++;
    }
    for (int s = 1; s <= players; s++) bot_end_game(bots[s], e);
    if (!bad && nt.n) fprintf(stderr, "%s: %s", rs, strbuf_str(&nt.text)), bad = 1; /* the agent never failed */
    if (!bad && (!engine_is_over(e) || k == 0)) fprintf(stderr, "%s: not over\n", rs), bad = 1;
    engine_score sc;
    cerr_list errs;
    cerr_init(&errs, 0);
    if (!bad && engine_score_get(e, &sc, &errs) == 0) { /* a legal final score: ranks 1..n, someone first */
        int first = 0;
        for (size_t i = 0; i < sc.n; i++) {
            bad |= sc.seats[i].rank < 1 || sc.seats[i].rank > players;
            first |= sc.seats[i].rank == 1;
        }
        bad |= !first || (int)sc.n != players;
        if (bad) fprintf(stderr, "%s: the final ranks are not legal\n", rs);
        engine_score_free(&sc);
    } else if (!bad) {
        fprintf(stderr, "%s: no final score\n", rs), bad = 1;
    }
    cerr_free(&errs);
    for (int s = 1; s <= players; s++) bot_free(bots[s]);
    engine_free(e);
    strbuf_free(&nt.text);
    /* seat 1's agent was told the end: the last line it read is the final state */
    char *log = cairn_strfmt("%s/%s-1.jsonl", tmpdir, rs);
    FILE *f = log ? fopen(log, "r") : NULL;
    char *line = NULL, *last = NULL;
    size_t cap = 0;
    long states = 0;
    while (f && getline(&line, &cap, f) > 0) {
        free(last);
        last = strdup(line);
        states++;
    }
    if (f) fclose(f);
    if (!bad && (states < 2 || !last || !strstr(last, "\"over\":true") || !strstr(last, "\"scores\":[{")))
        fprintf(stderr, "%s: seat 1's agent was not sent the final state\n", rs), bad = 1;
    free(line);
    free(last);
    free(log);
    return bad;
}

/* Every shipped ruleset, every seat the example agent (the fewest seats
** each allows, to keep it quick; seat 2 answers as typed, by number), the
** games side by side in child processes; then no child is left, and every
** message the agents were sent is valid under the schema. */
static void test_full_games_with_agents(void **st) {
    (void)st;
    static const struct {
        const char *rs;
        int players;
    } games[] = {{"connect4", 2}, {"goofspiel", 2}, {"yak", 2}, {"himalaya", 3}, {"kathmandu", 2}};
    enum { N_GAMES = sizeof games / sizeof games[0] };
    pid_t pids[N_GAMES];
    fflush(NULL);
    for (int g = 0; g < N_GAMES; g++) {
        pids[g] = fork();
        assert_true(pids[g] >= 0);
        if (pids[g] == 0) _exit(full_game(games[g].rs, games[g].players));
    }
    int failed = 0;
    for (int g = 0; g < N_GAMES; g++) {
        int status = 0;
        assert_int_equal(waitpid(pids[g], &status, 0), pids[g]);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) fprintf(stderr, "%s: the game failed\n", games[g].rs);
        failed += !WIFEXITED(status) || WEXITSTATUS(status) != 0;
    }
    assert_int_equal(failed, 0);
    no_children();
    strbuf logs = {0};
    for (int g = 0; g < N_GAMES; g++)
        for (int s = 1; s <= games[g].players; s++) strbuf_printf(&logs, " %s/%s-%d.jsonl", tmpdir, games[g].rs, s);
    assert_true(schema_valid(strbuf_str(&logs)));
    strbuf_free(&logs);
}

/* Writes an agent script into the temporary folder; its path (malloc'd). */
static char *script(const char *name, const char *body) {
    char *p = tmp_path(name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(body, f);
    fclose(f);
    chmod(p, 0755);
    return p;
}

/* connect4 with spec in seat 1 (random in seat 2): the notices. */
static void play_connect4(const char *spec, notes *nt, uint64_t seed) {
    engine *e = game("connect4", seed, 2);
    bot *bots[3] = {0};
    cerr_list errs;
    cerr_init(&errs, 0);
    assert_non_null(bots[1] = bot_new(spec, &errs));
    cerr_free(&errs);
    play_out(e, bots, nt);
    assert_true(engine_is_over(e));
    legal_final_score(e);
    bot_free(bots[1]);
    engine_free(e);
    no_children();
}

static void test_agent_failures(void **st) {
    (void)st;
    notes nt = {{0}, 0};
    /* a crash at the first decision: told once, the fallback plays on */
    char *crash = script("crash.sh", "#!/bin/sh\nread line\nexit 3\n");
    char *spec = cairn_strfmt("exec:%s", crash);
    play_connect4(spec, &nt, 1);
    assert_int_equal(nt.n, 1);
    assert_non_null(strstr(strbuf_str(&nt.text), "seat 1, decision 1: the outside agent"));
    assert_non_null(strstr(strbuf_str(&nt.text), "exited with status 3"));
    assert_non_null(strstr(strbuf_str(&nt.text), "the greedy fallback plays seat 1 for the rest of the game"));
    free(spec);
    strbuf_free(&nt.text), nt.n = 0;

    /* a timeout (0.2 s; it sleeps 30 s): killed, told, the game goes on at once */
    char *slow = script("slow.sh", "#!/bin/sh\nread line\nexec sleep 30\n");
    spec = cairn_strfmt("exec:%s,timeout=0.2,fallback=random", slow);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    play_connect4(spec, &nt, 2);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    assert_true(t1.tv_sec - t0.tv_sec < 20); /* never the agent's 30 s */
    assert_int_equal(nt.n, 1);
    assert_non_null(strstr(strbuf_str(&nt.text), "seat 1, decision 1"));
    assert_non_null(strstr(strbuf_str(&nt.text), "did not answer within the time limit of 200 ms"));
    assert_non_null(strstr(strbuf_str(&nt.text), "the random fallback plays seat 1"));
    free(spec);
    strbuf_free(&nt.text), nt.n = 0;

    /* garbage for every state: each decision of seat 1 refused and told,
    ** the fallback deciding each time; seat 1 decides 1, 3, 5, ... */
    char *junk = script("junk.sh", "#!/bin/sh\nwhile read line; do echo 'hello {'; done\n");
    spec = cairn_strfmt("exec:%s", junk);
    play_connect4(spec, &nt, 3);
    assert_true(nt.n >= 4); /* a connect4 game lasts 7 decisions of seat 1 at least */
    assert_non_null(strstr(strbuf_str(&nt.text), "seat 1, decision 1: the outside agent"));
    assert_non_null(strstr(strbuf_str(&nt.text), "seat 1, decision 3: the outside agent"));
    assert_non_null(strstr(strbuf_str(&nt.text), "answered hello {, which was refused: not JSON"));
    assert_null(strstr(strbuf_str(&nt.text), "decision 2:"));
    free(spec);
    strbuf_free(&nt.text), nt.n = 0;

    /* always column 1: legal six times, refused as disabled at the 7th
    ** (seat 2 is the same program): decisions 1-6 fill it, 7 is refused */
    char *col1 = script("col1.sh", "#!/bin/sh\nwhile read line; do echo '{\"answer\":\"drop 1\"}'; done\n");
    spec = cairn_strfmt("exec:%s", col1);
    engine *e = game("connect4", 4, 2);
    bot *bots[3] = {0};
    cerr_list errs;
    cerr_init(&errs, 0);
    assert_non_null(bots[1] = bot_new(spec, &errs));
    assert_non_null(bots[2] = bot_new(spec, &errs));
    cerr_free(&errs);
    play_out(e, bots, &nt);
    assert_non_null(strstr(strbuf_str(&nt.text), "seat 1, decision 7: the outside agent"));
    assert_non_null(strstr(strbuf_str(&nt.text), "which was refused: column 1 is full"));
    assert_null(strstr(strbuf_str(&nt.text), "decision 6:"));
    legal_final_score(e);
    bot_free(bots[1]);
    bot_free(bots[2]);
    engine_free(e);
    no_children();
    free(spec);
    strbuf_free(&nt.text), nt.n = 0;

    /* it closes its stdin after the first state, answers, and waits: the
    ** next state is written to a pipe nobody reads (EPIPE, never SIGPIPE:
    ** this test would die of it) */
    char *closer = script("closer.sh", "#!/bin/sh\nread line\nexec 0<&-\necho '{\"answer\":\"drop 4\"}'\n"
                                       "exec sleep 30\n");
    spec = cairn_strfmt("exec:%s,fallback=random", closer);
    play_connect4(spec, &nt, 5);
    assert_int_equal(nt.n, 1);
    assert_non_null(strstr(strbuf_str(&nt.text), "seat 1, decision 3: the outside agent"));
    assert_non_null(strstr(strbuf_str(&nt.text), "no longer reads its stdin"));
    free(spec);
    strbuf_free(&nt.text), nt.n = 0;

    /* a command that does not exist: the exit status 127, told */
    play_connect4("exec:/nonexistent/agent", &nt, 6);
    assert_int_equal(nt.n, 1);
    assert_non_null(strstr(strbuf_str(&nt.text), "exited with status 127"));
    strbuf_free(&nt.text), nt.n = 0;

    /* fallback=none: the failure is the bot's error */
    spec = cairn_strfmt("exec:%s,fallback=none", crash);
    engine *g = game("connect4", 1, 2);
    cerr_init(&errs, 0);
    bot *b = bot_new(spec, &errs);
    assert_non_null(b);
    bot_hooks h = {NULL, NULL, &nt, take_notice};
    assert_null(bot_choose(b, g, 1, &h, &errs));
    assert_non_null(strstr(errs.items[0].message, "has no fallback"));
    assert_int_equal(engine_position(g), 0);
    bot_free(b);
    engine_free(g);
    no_children();
    cerr_free(&errs);
    free(spec);
    strbuf_free(&nt.text);
    free(crash), free(slow), free(junk), free(col1), free(closer);
}

static void bad_spec(const char *spec, const char *want) {
    cerr_list errs;
    cerr_init(&errs, 0);
    assert_null(bot_new(spec, &errs));
    if (!strstr(errs.items[0].message, want)) fprintf(stderr, "%s: %s\n", spec, errs.items[0].message);
    assert_non_null(strstr(errs.items[0].message, want));
    cerr_free(&errs);
}

static void test_exec_specs(void **st) {
    (void)st;
    bad_spec("exec:", "takes a command");
    bad_spec("exec:  ", "takes a command");
    bad_spec("exec:./a.py,timeout=0", "timeout takes seconds above 0");
    bad_spec("exec:./a.py,timeout=x", "timeout takes seconds");
    bad_spec("exec:./a.py,fallback=smart", "no bot kind \"smart\"");
    bad_spec("exec:./a.py,fallback=exec:./b.py", "not another program");
    bad_spec("exec:'./a.py", "unclosed '");
    cerr_list errs;
    cerr_init(&errs, 0);
    bot *b = bot_new("exec:python3 -u 'my agent.py' --seed 3,timeout=2.5,fallback=random", &errs);
    assert_non_null(b);
    assert_string_equal(bot_kind(b), "exec");
    bot_free(b);
    assert_true(bot_spec_is_exec("exec:x"));
    assert_false(bot_spec_is_exec("random"));
    cerr_free(&errs);
}

/* A save names an outside program in a seat: loading it seats a person. */
static void test_save_never_starts_a_program(void **st) {
    (void)st;
    static const char *const bots[] = {"exec:/bin/false", "random"};
    engine_config c;
    memset(&c, 0, sizeof c);
    c.ruleset = "connect4";
    c.seed = 1;
    c.bots = bots;
    cerr_list errs;
    cerr_init(&errs, 0);
    engine *e = engine_new(&c, &errs);
    assert_non_null(e);
    char *path = tmp_path("exec.cairn");
    assert_int_equal(save_write(e, path, &errs), 0);
    char *note = NULL;
    engine *l = save_load(path, NULL, &note, &errs);
    assert_non_null(l);
    assert_null(engine_seat_bot(l, 1));
    assert_string_equal(engine_seat_bot(l, 2), "random");
    assert_non_null(note);
    assert_non_null(strstr(note, "1 seat played by an outside program (exec:) in the save is played by a person now"));
    free(note);
    free(path);
    engine_free(l);
    engine_free(e);
    cerr_free(&errs);
}

/* `cairn sim` with an agent in seat 1: the report names it, and is the
** same for --jobs 1 and --jobs 2 (each game its own agent process) but
** for the lines of times. */
static char *sim_report(const char *jobs) {
    /* the time limit out of the way of a loaded machine (test_agent_failures tests it) */
    char *argv[] = {"sim", "connect4", "--games", "2", "--bots", "exec:" AGENT ",timeout=300,random", "--jobs", (char *)jobs,
                    NULL};
    char *buf = NULL, *ebuf = NULL;
    size_t len = 0, elen = 0;
    FILE *out = open_memstream(&buf, &len), *err = open_memstream(&ebuf, &elen);
    assert_int_equal(sim_run(8, argv, out, err), 0);
    fclose(out);
    fclose(err);
    assert_null(strstr(ebuf, "outside agent")); /* it never failed */
    free(ebuf);
    strbuf kept = {0};
    for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n"))
        if (strncmp(line, "time: ", 6) && strncmp(line, "cpu per decision: ", 18)) strbuf_printf(&kept, "%s\n", line);
    free(buf);
    return strbuf_take(&kept);
}

static void test_sim_with_agent(void **st) {
    (void)st;
    char *one = sim_report("1"), *two = sim_report("2");
    assert_non_null(strstr(one, "bots 1=exec:" AGENT ",timeout=300 2=random"));
    assert_non_null(strstr(one, "games: 2 finished"));
    assert_string_equal(one, two);
    free(one);
    free(two);
    no_children();
}

static int setup(void **st) {
    (void)st;
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **st) {
    (void)st;
    char *cmd = cairn_strfmt("rm -rf %s", tmpdir);
    int rc = system(cmd);
    free(cmd);
    return rc == 0 ? 0 : -1;
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_state_message),
        cmocka_unit_test(test_answers_and_refusals),
        cmocka_unit_test(test_text_names_several_decisions),
        cmocka_unit_test(test_yak_secret_card),
        cmocka_unit_test(test_exec_specs),
        cmocka_unit_test(test_agent_failures),
        cmocka_unit_test(test_full_games_with_agents),
        cmocka_unit_test(test_save_never_starts_a_program),
        cmocka_unit_test(test_sim_with_agent),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
