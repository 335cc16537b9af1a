/*
** test_board_width.c
** Every shipped ruleset's board keeps within the width it is given (the
** render's g.width: a console's columns, or the box of a `cairn serve` page
** on a phone held upright, about 40 columns): seeded random games of each
** game at its seat counts and options, in every language it ships, the board
** drawn for each seat and for a spectator every few decisions at 30, 40, 60,
** 80 and 119 columns, and no line may be wider (a console wraps a wider line,
** which breaks a board's columns; a page scrolls it sideways). The height is
** not given (a page shows the whole board), so this is the full board at
** each width.
*/
#include "testutil.h"

#include "engine.h"
#include "markup.h"
#include "ruleset.h"
#include "testgame.h"

static const int widths[] = {30, 40, 60, 80, 119};
#define N_WIDTHS (sizeof widths / sizeof widths[0])

#define EVERY 7      /* the board is drawn at every 7th decision */
#define MAX_MOVES 400 /* of one game: enough to reach a later round of each */

static engine *game(const char *rs, const char *preset, int players, uint64_t seed, const char *lang) {
    engine_config c;
    memset(&c, 0, sizeof c);
    c.ruleset = rs;
    c.preset = preset;
    c.players = players;
    c.seed = seed;
    c.lang = lang;
    return test_game_new(&c);
}

/* The widest line of the board drawn for seat (0: a spectator) at width;
** prints the first line that is wider. */
static size_t widest_line(engine *e, int seat, int width, const char *what) {
    cerr_list errs;
    cerr_init(&errs, 0);
    char *board = engine_render_screen(e, seat, width, 0, &errs);
    if (!board && errs.n) fprintf(stderr, "%s: %s\n", what, errs.items[0].message);
    assert_non_null(board);
    cerr_free(&errs);
    char *plain = markup_render(board, 0);
    assert_non_null(plain);
    size_t widest = 0;
    for (const char *p = plain; *p;) {
        size_t n = strcspn(p, "\n");
        size_t w = markup_width(p, n);
        if (w > (size_t)width && widest <= (size_t)width)
            fprintf(stderr, "%s, seat %d, %d columns: a line of %zu: %.*s\n", what, seat, width, w, (int)n, p);
        if (w > widest) widest = w;
        p += n + (p[n] == '\n');
    }
    free(plain);
    free(board);
    return widest;
}

/* One game of ruleset rs (preset or NULL, players seats, seed) in each
** language it ships, played by the random bot; every EVERY decisions and
** at the end, the board of every seat and of a spectator at every width. */
static void check_game(const char *rs, const char *preset, int players, uint64_t seed) {
    engine *first = game(rs, preset, players, seed, NULL);
    const value *langs = value_map_get(engine_ruleset(first)->manifest, "languages");
    char lang_of[8][16] = {{0}};
    size_t n_langs = 0;
    for (size_t i = 0; langs && langs->type == CV_LIST && i < langs->u.list.n && n_langs < 8; i++)
        snprintf(lang_of[n_langs++], sizeof lang_of[0], "%s", langs->u.list.items[i]->u.str.s);
    engine_free(first);
    assert_true(n_langs >= 1);
    for (size_t li = 0; li < n_langs; li++) {
        const char *lang = lang_of[li];
        engine *e = game(rs, preset, players, seed, lang);
        char what[320];
        int drawn = 0;
        for (int move = 0; move <= MAX_MOVES; move++) {
            int over = engine_is_over(e);
            if (move % EVERY == 0 || over) {
                snprintf(what, sizeof what, "%s%s%s, %d seats, seed %llu, %s, decision %d", rs, preset ? " --preset " : "",
                         preset ? preset : "", players, (unsigned long long)seed, lang, move);
                for (int s = 0; s <= engine_seat_count(e); s++)
                    for (size_t w = 0; w < N_WIDTHS; w++)
                        assert_true(widest_line(e, s, widths[w], what) <= (size_t)widths[w]);
                drawn++;
            }
            if (over) break;
            int seat = 0;
            for (int s = 1; s <= engine_seat_count(e) && !seat; s++)
                if (engine_is_asked(e, s)) seat = s;
            assert_true(seat > 0);
            char *why = NULL;
            engine_status st = engine_bot_move(e, seat, &why);
            if (st != ENGINE_OK) fprintf(stderr, "%s: %s\n", what, why ? why : "?");
            assert_int_equal(st, ENGINE_OK);
            free(why);
        }
        assert_true(drawn >= 3); /* the check saw a game, not only its start */
        engine_free(e);
    }
}

static void test_connect4(void **st) {
    (void)st;
    check_game("rulesets/connect4", NULL, 2, 1);
}

static void test_goofspiel(void **st) {
    (void)st;
    check_game("rulesets/goofspiel", NULL, 3, 2);
}

static void test_yak(void **st) {
    (void)st;
    check_game("rulesets/yak", NULL, 2, 3);
    check_game("rulesets/yak", NULL, 4, 4);
}

static void test_himalaya(void **st) {
    (void)st;
    check_game("rulesets/himalaya", NULL, 3, 5);
    check_game("rulesets/himalaya", "full-expansion", 6, 6);
}

static void test_kathmandu(void **st) {
    (void)st;
    check_game("rulesets/kathmandu", NULL, 2, 7);
    check_game("rulesets/kathmandu", "full", 4, 8);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_connect4), cmocka_unit_test(test_goofspiel), cmocka_unit_test(test_yak),
        cmocka_unit_test(test_himalaya), cmocka_unit_test(test_kathmandu),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
