/*
** test_console_words.c
** The console's command words (console_words.h), which `cairn check` uses to
** refuse option ids a typed command would shadow, are exactly the console's
** play-mode commands and aliases (repl_cmd.c's table): a command added to one
** and not the other fails here.
*/
#include "testutil.h"
#include "console_words.h"
#include "repl_cmd.h"

/* Every play-mode command of the console is in the list. */
static void test_every_command_listed(void **st) {
    (void)st;
    const char *w[128];
    size_t n = repl_play_words(w, 128);
    assert_true(n > 0 && n <= 128);
    for (size_t i = 0; i < n; i++) {
        if (!console_word_is_command(w[i])) fail_msg("console command \"%s\" missing from console_words", w[i]);
    }
    size_t listed = 0;
    while (console_words[listed]) listed++;
    assert_int_equal(listed, n); /* and nothing more: same count, every one found */
}

/* Every listed word is a command of the console while playing. */
static void test_every_word_a_command(void **st) {
    (void)st;
    for (size_t i = 0; console_words[i]; i++)
        if (!repl_is_command(NULL, console_words[i])) fail_msg("\"%s\" is no console command", console_words[i]);
}

/* The first word decides: "undo 2" and "  save;" start with a command,
** "undone", "next" (a replay-only command) and "" do not. */
static void test_first_word(void **st) {
    (void)st;
    assert_int_equal(console_word_starts("undo 2"), 1);
    assert_int_equal(console_word_starts("  save;x"), 1);
    assert_int_equal(console_word_starts("undone"), 0);
    assert_int_equal(console_word_starts("next"), 0);
    assert_int_equal(console_word_starts(""), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_command_listed),
        cmocka_unit_test(test_every_word_a_command),
        cmocka_unit_test(test_first_word),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
