/*
** test_resume.c
** No game is lost when the console is killed: while a person plays on a
** terminal, the game is kept after every line in a recovery file in the
** per-user state folder ($XDG_STATE_HOME/cairn, not the working folder),
** which `cairn play --resume` continues; the copy goes once the game is
** saved or the person lets it go at `quit`. Runs build/cairn in children.
*/
#include "testutil.h"
#include "testchild.h"

#include <dirent.h>
#include <stdio.h>
#include <sys/stat.h>


/* How many files named recovery-*.save dir holds. */
static int recovery_files(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return 0;
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        size_t len = strlen(de->d_name);
        if (len > 5 && strcmp(de->d_name + len - 5, ".save") == 0) n++;
    }
    closedir(d);
    return n;
}

/* 1 when a recovery file in dir holds text. */
static int recovery_holds(const char *dir, const char *text) {
    DIR *d = opendir(dir);
    if (!d) return 0;
    int found = 0;
    struct dirent *de;
    while (!found && (de = readdir(d)) != NULL) {
        size_t len = strlen(de->d_name);
        if (strncmp(de->d_name, "recovery-", 9) != 0 || strcmp(de->d_name + len - 5, ".save") != 0) continue;
        char *p = cairn_strfmt("%s/%s", dir, de->d_name);
        FILE *f = p ? fopen(p, "r") : NULL;
        char buf[8192];
        size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
        buf[n] = '\0';
        found = strstr(buf, text) != NULL;
        if (f) fclose(f);
        free(p);
    }
    closedir(d);
    return found;
}

static char *state_dir(void) { return cairn_strfmt("%s/cairn", tmpdir); }

/* `cairn play --resume` with input lines; its exit status, output in c. */
static int resume(child *c, const char *input) {
    char *argv[] = {"cairn", "play", "--resume", NULL};
    spawn(c, argv);
    say(c, input);
    close(c->in);
    c->in = open("/dev/null", O_WRONLY); /* wait_end closes it */
    return wait_end(c);
}

/* Two moves on a terminal, then SIGKILL (nothing can be saved at that
** moment): the recovery copy in the state folder holds both, --resume goes
** on from there; the end of the input leaves it for another --resume;
** `quit` answered n lets it go. */
static void test_killed_game_resumes(void **st) {
    (void)st;
    char rs[4200];
    snprintf(rs, sizeof rs, "%s/rulesets/connect4", root);
    char *argv[] = {"cairn", "play", rs, "--seed", "2", NULL};
    child c;
    spawn_on_pty(&c, argv);
    wait_for(&c, "Seat 1, choose a column");
    say(&c, "drop 4\n");
    wait_for(&c, "Seat 2, choose a column");
    say(&c, "drop 3\n");
    wait_for(&c, "Seat 2 drops a disc in column 3");
    char *dir = state_dir();
    assert_non_null(dir);
    for (int i = 0; i < 3000 && !recovery_holds(dir, "position: 2"); i++) pause_ms(10); /* written after the line */
    kill(c.pid, SIGKILL);
    wait_end(&c);
    assert_int_equal(recovery_files(dir), 1);
    assert_int_equal(recovery_files(tmpdir), 0); /* the working folder holds no save (cairn/ is a folder) */

    child r;
    assert_int_equal(resume(&r, "history\n"), 0);
    assert_non_null(strstr(r.buf, ": decision 2 of 2."));
    assert_non_null(strstr(r.buf, "   2  Seat 2: column 3 (drop 3)  <"));
    assert_int_equal(recovery_files(dir), 1); /* the input ended: still there */

    child q;
    assert_int_equal(resume(&q, "drop 5\nquit\nn\n"), 0);
    assert_non_null(strstr(q.buf, "This game (3 decisions) changed since it was last saved."));
    assert_int_equal(recovery_files(dir), 0); /* let go */

    child none;
    assert_int_equal(resume(&none, ""), 1);
    assert_non_null(strstr(none.buf, "cairn play --resume: no interrupted game to resume in "));
    free(dir);
}

/* A game saved on the terminal has no recovery copy left. */
static void test_saved_game_has_no_copy(void **st) {
    (void)st;
    char rs[4200];
    snprintf(rs, sizeof rs, "%s/rulesets/connect4", root);
    char *argv[] = {"cairn", "play", rs, "--seed", "2", NULL};
    child c;
    spawn_on_pty(&c, argv);
    wait_for(&c, "Seat 1, choose a column");
    say(&c, "drop 4\n");
    wait_for(&c, "Seat 2, choose a column");
    char *dir = state_dir();
    assert_non_null(dir);
    for (int i = 0; i < 300 && recovery_files(dir) == 0; i++) pause_ms(10);
    assert_int_equal(recovery_files(dir), 1);
    say(&c, "save kept.save\n");
    wait_for(&c, "Saved to kept.save");
    for (int i = 0; i < 300 && recovery_files(dir) != 0; i++) pause_ms(10);
    assert_int_equal(recovery_files(dir), 0);
    kill(c.pid, SIGKILL);
    wait_end(&c);
    free(dir);
    char *kept = cairn_strfmt("%s/kept.save", tmpdir);
    assert_non_null(kept);
    unlink(kept);
    free(kept);
}

int main(int argc, char **argv) {
    (void)argc;
    cairn = cairn_next_to(argv[0]);
    if (!cairn) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_saved_game_has_no_copy),
        cmocka_unit_test(test_killed_game_resumes),
    };
    int rc = cmocka_run_group_tests(tests, testchild_setup, testchild_teardown);
    free(cairn);
    return rc;
}
