/*
** test_terminal.c
** What a person sees on a terminal: cairn runs on a pseudo-terminal (80x24)
** and the bytes it writes are played on a small terminal model, which knows
** only the sequences cairn may send (carriage return, newline, backspace,
** bell, and ESC [ digits/; then m, K, H or J) and records anything else. A
** bot's spinner and the sim's progress bar must be drawn in place with
** those, leave no "^M" or "^[" as visible text, and never reach a pipe.
*/
#include "testutil.h"

#include <ctype.h>
#include "testchild.h"

#include <stdio.h>


/* ------------------------------------------------------- the terminal */

#define SCREEN_LINES 4000
#define SCREEN_COLS 256

/* The terminal's lines, scrollback included (a scroll keeps them all). */
typedef struct screen {
    char line[SCREEN_LINES][SCREEN_COLS + 1];
    int row, col, rows;
    int unknown;        /* bytes or sequences a terminal would not show as text */
    char what[64];      /* the first of them, for the failure message */
} screen;

static void put_char(screen *s, char ch) {
    if (s->col < SCREEN_COLS) {
        char *l = s->line[s->row];
        size_t len = strlen(l);
        while ((int)len < s->col) l[len++] = ' ';
        if ((int)len == s->col) l[len + 1] = '\0';
        l[s->col] = ch;
    }
    s->col++;
}

static void unknown(screen *s, const char *what) {
    if (!s->unknown++) snprintf(s->what, sizeof s->what, "%s", what);
}

/* Plays n bytes on s. */
static void play_bytes(screen *s, const char *b, size_t n) {
    memset(s, 0, sizeof *s);
    s->rows = 1;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)b[i];
        if (c == '\r') {
            s->col = 0;
        } else if (c == '\n') {
            if (s->row + 1 < SCREEN_LINES) s->row++;
            if (s->row + 1 > s->rows) s->rows = s->row + 1;
            s->col = 0; /* the pty's ONLCR sends \r\n anyway */
        } else if (c == '\b') {
            if (s->col > 0) s->col--;
        } else if (c == '\a') {
            /* the line editor's bell */
        } else if (c == 0x1b) {
            size_t j = i + 1;
            if (j < n && b[j] == '[') {
                j++;
                while (j < n && ((b[j] >= '0' && b[j] <= '9') || b[j] == ';')) j++;
                char fin = j < n ? b[j] : '\0';
                if (fin == 'K') { /* erase to the end of the line */
                    if ((int)strlen(s->line[s->row]) > s->col) s->line[s->row][s->col] = '\0';
                } else if (fin == 'H' || fin == 'J') { /* the clear between seats */
                    memset(s->line, 0, sizeof s->line);
                    s->row = s->col = 0;
                    s->rows = 1;
                } else if (fin != 'm') {
                    char w[32];
                    snprintf(w, sizeof w, "ESC [ ... %c", fin);
                    unknown(s, w);
                }
                i = j;
            } else {
                unknown(s, "ESC");
            }
        } else if (c < 0x20 || c == 0x7f) {
            char w[32];
            snprintf(w, sizeof w, "control byte 0x%02x", c);
            unknown(s, w);
        } else {
            put_char(s, (char)c);
        }
    }
}

/* The line of s that holds text, or NULL. */
static const char *screen_find(const screen *s, const char *text) {
    for (int i = 0; i < s->rows; i++)
        if (strstr(s->line[i], text)) return s->line[i];
    return NULL;
}

static void screen_dump(const screen *s) {
    for (int i = 0; i < s->rows; i++) fprintf(stderr, "|%s\n", s->line[i]);
}

/* The screen shows no control character made visible ("^M", "^[") and the
** terminal met nothing it does not know. */
static void assert_clean(const screen *s) {
    if (s->unknown || screen_find(s, "^M") || screen_find(s, "^[")) {
        screen_dump(s);
        fprintf(stderr, "unknown: %d (%s)\n", s->unknown, s->what);
        fail();
    }
}

/* ------------------------------------------------------------ tests */

static void stop(child *c) {
    kill(c->pid, SIGKILL);
    wait_end(c);
}

/* Yak against an mcts bot that thinks a second a move: the spinner is
** drawn (its text went to the terminal) and erased in place, and the
** screen the person reads holds the board, the news and the question with
** no "^M" or "^[" anywhere. */
static void test_spinner_in_place(void **st) {
    (void)st;
    char rs[4200];
    snprintf(rs, sizeof rs, "%s/rulesets/yak", root);
    char *argv[] = {"cairn", "play", rs, "--players", "2", "--bot", "2=mcts:time=1", "--seed", "3", NULL};
    child c;
    spawn_on_pty(&c, argv);
    wait_for(&c, "card market"); /* seat 1's first question, after the bot's card */
    say(&c, "1\n");              /* Build: the bot reveals and thinks again */
    c.buf[0] = '\0';
    c.n = 0;
    wait_for(&c, "take one");    /* seat 1's Build question */
    pause_ms(200);
    drain(&c);
    assert_non_null(strstr(c.buf, "thinking: ")); /* the spinner was drawn ... */
    static screen s; /* a megabyte: not on the stack */
    play_bytes(&s, c.buf, c.n);
    assert_clean(&s);
    assert_null(screen_find(&s, "thinking")); /* ... and erased */
    assert_non_null(screen_find(&s, "YAK  day 1  noon"));
    assert_non_null(screen_find(&s, "cairn:Seat 1>"));
    stop(&c);
}

/* The same in Greek: the spinner speaks the game's language ("σκέφτεται:",
** not "thinking:") and is erased as in English. */
static void test_spinner_in_the_language(void **st) {
    (void)st;
    char rs[4200];
    snprintf(rs, sizeof rs, "%s/rulesets/yak", root);
    char *argv[] = {"cairn", "play", rs, "--players", "2", "--bot", "2=mcts:time=1", "--seed", "3", "--lang", "el", NULL};
    child c;
    spawn_on_pty(&c, argv);
    wait_for(&c, "cairn:Θέση 1>"); /* seat 1's first question, after the bot's card */
    say(&c, "1\n");                /* Build (Κατασκευή): the bot reveals and thinks again */
    c.buf[0] = '\0';
    c.n = 0;
    wait_for(&c, "πάρε"); /* seat 1's Build question: take a stone */
    pause_ms(200);
    drain(&c);
    const char *spun = strstr(c.buf, "σκέφτεται: ");
    assert_non_null(spun); /* the spinner was drawn in Greek ... */
    assert_null(strstr(c.buf, "thinking"));
    /* ... with a Greek decimal comma in its seconds ("..., 0,5 s (Ctrl-C"),
    ** where the number would read "0.5" in English */
    const char *unit = strstr(spun, " s (Ctrl-C");
    assert_non_null(unit);
    assert_true(unit - spun > 3 && unit[-2] == ',' && isdigit((unsigned char)unit[-1]) &&
                isdigit((unsigned char)unit[-3]));
    static screen s;
    play_bytes(&s, c.buf, c.n);
    assert_clean(&s);
    assert_null(screen_find(&s, "σκέφτεται")); /* ... and erased */
    assert_non_null(screen_find(&s, "cairn:Θέση 1>"));
    stop(&c);
}

/* The same game with its output in a pipe: no spinner, no control byte. */
static void test_no_spinner_in_a_pipe(void **st) {
    (void)st;
    char rs[4200];
    snprintf(rs, sizeof rs, "%s/rulesets/yak", root);
    char *argv[] = {"cairn", "play", rs, "--players", "2", "--bot", "2=mcts:time=0.5", "--seed", "3", NULL};
    child c;
    spawn(&c, argv);
    say(&c, "1\n");
    wait_for(&c, "take one");
    stop(&c);
    assert_null(strstr(c.buf, "thinking"));
    for (size_t i = 0; i < c.n; i++)
        if ((unsigned char)c.buf[i] < 0x20 && c.buf[i] != '\n') fail_msg("control byte 0x%02x at %zu", c.buf[i], i);
}

/* `quit` with a game not saved asks whether to save it, the question the
** prompt. At 80 columns "Save it before leaving? (y/n, or a file name) [y:
** connect4-seed3.save]: " (72 columns, then the answer) is wrapped at its
** words, the file name whole on the prompt's line, where the terminal
** itself would have cut it anywhere once the answer is typed. */
static void test_save_question_wraps_at_words(void **st) {
    (void)st;
    char rs[4200];
    snprintf(rs, sizeof rs, "%s/rulesets/connect4", root);
    char *argv[] = {"cairn", "play", rs, "--seed", "3", NULL};
    child c;
    spawn_on_pty(&c, argv);
    wait_for(&c, "cairn:Seat 1>");
    say(&c, "4\n");
    wait_for(&c, "cairn:Seat 2>");
    say(&c, "quit\n");
    wait_for(&c, ".save]: ");
    pause_ms(100);
    drain(&c);
    static screen s;
    play_bytes(&s, c.buf, c.n);
    assert_clean(&s);
    const char *q = screen_find(&s, "Save it before leaving?");
    const char *p = screen_find(&s, "connect4-seed3.save]:");
    if (!q || !p || strcmp(q, "Save it before leaving? (y/n, or a file name) [y:") != 0 ||
        strncmp(p, "connect4-seed3.save]:", 21) != 0) {
        screen_dump(&s);
        fail();
    }
    say(&c, "n\n");
    wait_end(&c);
}

/* The output of connect4 with an mcts bot and `why`, at COLUMNS=width
** (NULL if it could not be run). */
static char *why_at_width(int width) {
    char *cmd = cairn_strfmt("printf '4\\nwhy\\nquit\\nn\\n' | COLUMNS=%d %s play %s/rulesets/connect4 "
                             "--bot 2=mcts:iterations=20 --seed 3 2>&1",
                             width, cairn, root);
    assert_non_null(cmd);
    FILE *p = popen(cmd, "r");
    free(cmd);
    assert_non_null(p);
    char *out = calloc(1, 65536);
    assert_non_null(out);
    size_t n = fread(out, 1, 65535, p);
    out[n] = '\0';
    assert_int_equal(pclose(p), 0);
    return out;
}

/* `why` never wraps a number away from its unit: "in 0.00 s" keeps its
** seconds on one line (a no-break space between them). The width is chosen
** so that the unit alone would not fit: the head line is measured at width
** 200, then shown at one column less than its length. */
static void test_why_keeps_seconds_with_their_unit(void **st) {
    (void)st;
    char *wide = why_at_width(200);
    const char *head = strstr(wide, "iterations, rollouts of");
    assert_non_null(head);
    while (head > wide && head[-1] != '\n') head--;
    const char *end = strchr(head, '\n');
    assert_non_null(end);
    /* "... in 0.00<U+00A0>s": digits, the two bytes of U+00A0, the unit */
    assert_true(end - head > 4 && end[-1] == 's' && (unsigned char)end[-2] == 0xA0 &&
                (unsigned char)end[-3] == 0xC2 && isdigit((unsigned char)end[-4]));
    int columns = (int)(end - head) - 1; /* its display width: U+00A0 is one column of two bytes */
    free(wide);
    char *narrow = why_at_width(columns - 1);
    head = strstr(narrow, "iterations, rollouts of");
    assert_non_null(head);
    const char *unit = strstr(head, "\xc2\xa0s");
    assert_non_null(unit);
    assert_true(isdigit((unsigned char)unit[-1])); /* the number is still in front of it */
    assert_null(strstr(narrow, "\n  s\n"));          /* and no line holds the unit alone */
    const char *line = unit;
    while (line > narrow && line[-1] != '\n') line--;
    assert_true(line > head); /* the line was wrapped: the number went with its unit */
    free(narrow);
}

/* `cairn sim` on a terminal: a bar redrawn in place with the games, the
** rate and the time left, which ends on its own line at 100%; no "10%" log
** lines, and a rate never "0.0". */
static void test_sim_bar_on_a_terminal(void **st) {
    (void)st;
    char rs[4200];
    snprintf(rs, sizeof rs, "%s/rulesets/connect4", root);
    char *argv[] = {"cairn", "sim", rs, "--games", "200", "--jobs", "1", NULL};
    child c;
    spawn_on_pty(&c, argv);
    assert_int_equal(wait_end(&c), 0);
    assert_null(strstr(c.buf, "cairn sim: 10%")); /* not the pipe's lines */
    assert_null(strstr(c.buf, " 0.0 games/s"));
    assert_non_null(strstr(c.buf, "ETA "));
    static screen s; /* a megabyte: not on the stack */
    play_bytes(&s, c.buf, c.n);
    assert_clean(&s);
    /* the bar was redrawn in place: the screen keeps one bar line, the last */
    int bars = 0;
    for (int i = 0; i < s.rows; i++)
        if (s.line[i][0] == '[') bars++;
    if (bars != 1) screen_dump(&s);
    assert_int_equal(bars, 1);
    const char *bar = screen_find(&s, "[##############################] 100% 200/200 games, ");
    if (!bar) screen_dump(&s);
    assert_non_null(bar);
    assert_non_null(strstr(bar, " games/s, ETA 0 s"));
    assert_true(strlen(bar) < 80); /* never wraps an 80-column terminal */
    assert_non_null(screen_find(&s, "time: ")); /* the report follows, on stdout */
}

/* `cairn sim` into a pipe: the tenths as lines, no bar, no control byte. */
static void test_sim_lines_in_a_pipe(void **st) {
    (void)st;
    char rs[4200];
    snprintf(rs, sizeof rs, "%s/rulesets/connect4", root);
    char *argv[] = {"cairn", "sim", rs, "--games", "200", "--jobs", "1", NULL};
    child c;
    spawn(&c, argv);
    assert_int_equal(wait_end(&c), 0);
    assert_non_null(strstr(c.buf, "cairn sim: 10% (20 of 200 games, "));
    assert_non_null(strstr(c.buf, "cairn sim: 100% (200 of 200 games, "));
    assert_null(strstr(c.buf, "ETA"));
    for (size_t i = 0; i < c.n; i++)
        if ((unsigned char)c.buf[i] < 0x20 && c.buf[i] != '\n') fail_msg("control byte 0x%02x at %zu", c.buf[i], i);
}

/* The model itself: a raw "^M"-free stream with an unknown sequence is
** caught, a spinner erased in place leaves nothing. */
static void test_terminal_model(void **st) {
    (void)st;
    static screen s; /* a megabyte: not on the stack */
    const char *erased = "board\n\r| thinking: 5 iterations\r\033[Kcairn> ";
    play_bytes(&s, erased, strlen(erased));
    assert_int_equal(s.unknown, 0);
    assert_null(screen_find(&s, "thinking"));
    assert_string_equal(s.line[1], "cairn> ");
    const char *cursor = "a\033[2Ab"; /* a cursor movement cairn never sends */
    play_bytes(&s, cursor, strlen(cursor));
    assert_int_equal(s.unknown, 1);
    assert_string_equal(s.what, "ESC [ ... A");
    const char *visible = "x^M\n";
    play_bytes(&s, visible, strlen(visible));
    assert_non_null(screen_find(&s, "^M"));
}

int main(int argc, char **argv) {
    (void)argc;
    cairn = cairn_next_to(argv[0]);
    if (!cairn) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_terminal_model),
        cmocka_unit_test(test_spinner_in_place),
        cmocka_unit_test(test_spinner_in_the_language),
        cmocka_unit_test(test_no_spinner_in_a_pipe),
        cmocka_unit_test(test_why_keeps_seconds_with_their_unit),
        cmocka_unit_test(test_save_question_wraps_at_words),
        cmocka_unit_test(test_sim_bar_on_a_terminal),
        cmocka_unit_test(test_sim_lines_in_a_pipe),
    };
    int rc = cmocka_run_group_tests(tests, testchild_setup, testchild_teardown);
    free(cairn);
    return rc;
}
