/*
** testbot.h
** The bot tests' shared step: one decision of a bot made from a spec, which
** must succeed. Included by test_bot.c and test_bot_cores.c after bot.h.
*/
#ifndef CAIRN_TESTBOT_H
#define CAIRN_TESTBOT_H

#include <stdio.h>

/* spec's choice for seat (malloc'd; the test fails if there is none). The
** bot is handed to *kept for its reasons and explanation, or freed when
** kept is NULL. */
static inline char *test_bot_decide(const char *spec, engine *e, int seat, const bot_hooks *h, bot **kept) {
    cerr_list errs;
    cerr_init(&errs, 0);
    bot *b = bot_new(spec, &errs);
    assert_non_null(b);
    char *id = bot_choose(b, e, seat, h, &errs);
    if (!id && errs.n) fprintf(stderr, "%s: %s\n", spec, errs.items[0].message);
    assert_non_null(id);
    cerr_free(&errs);
    if (kept)
        *kept = b;
    else
        bot_free(b);
    return id;
}

#endif
