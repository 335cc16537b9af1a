/*
** testgame.h
** The tests' shared start of a game: an engine made from a config, which
** must succeed (the first error printed when it does not). Included after
** engine.h by the tests that play shipped rulesets.
*/
#ifndef CAIRN_TESTGAME_H
#define CAIRN_TESTGAME_H

#include <stdio.h>

/* An engine for cfg; the test fails when there is none. */
static inline engine *test_game_new(const engine_config *cfg) {
    cerr_list errs;
    cerr_init(&errs, 0);
    engine *e = engine_new(cfg, &errs);
    if (!e && errs.n) fprintf(stderr, "%s: %s\n", cfg->ruleset, errs.items[0].message);
    assert_non_null(e);
    cerr_free(&errs);
    return e;
}

#endif
