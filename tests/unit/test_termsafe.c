/*
** test_termsafe.c
** Text made safe for a terminal (termsafe.c): runs of plain ASCII pass
** whole, every unsafe unit between them is made visible, and the stdout
** stream applies the same rule to what printf writes, cut anywhere.
*/
#include "testutil.h"
#include "termsafe.h"

#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void check_text(const char *src, const char *want) {
    char *got = termsafe_text(src);
    assert_non_null(got);
    assert_string_equal(got, want);
    assert_int_equal(termsafe_is_safe(src), strcmp(src, want) == 0);
    free(got);
}

static void test_plain_text_passes(void **st) {
    (void)st;
    check_text("", "");
    check_text("Seat 1 takes a coin.", "Seat 1 takes a coin.");
    check_text("a\tb\nc", "a\tb\nc");
    /* UTF-8 text is text: μ (CE BC), the arrow ↑ (E2 86 91) */
    check_text("\xce\xbc \xe2\x86\x91", "\xce\xbc \xe2\x86\x91");
}

static void test_unsafe_units_between_runs(void **st) {
    (void)st;
    /* ESC is ^[ (0x1b + 0x40 = '['), BEL ^G, DEL ^? */
    check_text("a\x1b[31mb", "a^[[31mb");
    check_text("x\x07y\x7fz", "x^Gy^?z");
    /* C1 CSI U+009B (C2 9B) and the bidi override U+202E (E2 80 AE) */
    check_text("p\xc2\x9bq", "p<U+009B>q");
    check_text("\xe2\x80\xae" "evil", "<U+202E>evil");
    /* not UTF-8: a stray byte, and a sequence cut short at the end */
    check_text("ok\xff!", "ok\\xFF!");
    check_text("end\xe2\x86", "end\\xE2\\x86");
}

/* Every unsafe byte grows 1 -> 4 ("\xFF"): the copy grows past the input
** while plain runs keep coming. */
static void test_growth_between_runs(void **st) {
    (void)st;
    char src[3 * 300 + 1], want[6 * 300 + 1];
    size_t n = 0, m = 0;
    for (int i = 0; i < 300; i++) {
        src[n++] = (char)0xff;
        src[n++] = 'a';
        src[n++] = 'b';
        memcpy(want + m, "\\xFFab", 6);
        m += 6;
    }
    src[n] = want[m] = '\0';
    check_text(src, want);
}

/* What a child writes through the installed stdout, read back. With
** styled 1, styling is allowed; with styled 1 or 2 a piece "<own>" is
** cairn's own mark (termsafe_escape_start(), drawn in the child), written
** cut in two. */
static char *through_stdout_styled(const char *const *pieces, int styled);
static char *through_stdout(const char *const *pieces) { return through_stdout_styled(pieces, 0); }

static char *through_stdout_styled(const char *const *pieces, int styled) {
    int fd[2];
    if (pipe(fd) != 0) return NULL;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd[1], STDOUT_FILENO);
        close(fd[0]);
        close(fd[1]);
        if (termsafe_install() != 0) _exit(2);
        termsafe_allow_styling(styled == 1);
        for (size_t i = 0; pieces[i]; i++) {
            if (styled && strcmp(pieces[i], "<own>") == 0) {
                const char *own = termsafe_escape_start();
                size_t half = strlen(own) / 2;
                fwrite(own, 1, half, stdout);
                fflush(stdout);
                fputs(own + half, stdout);
                fflush(stdout);
                continue;
            }
            fputs(pieces[i], stdout);
            fflush(stdout); /* each piece is its own write: units cut anywhere */
        }
        _exit(0);
    }
    close(fd[1]);
    size_t cap = 1 << 16, len = 0;
    char *out = malloc(cap);
    ssize_t k;
    while (out && (k = read(fd[0], out + len, cap - 1 - len)) > 0) len += (size_t)k;
    close(fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (!out || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        free(out);
        return NULL;
    }
    out[len] = '\0';
    return out;
}

static void test_stream(void **st) {
    (void)st;
    /* ESC cut from its bracket, the arrow cut after its first byte, an
    ** override cut in two */
    const char *pieces[] = {"board\x1b", "[2J \xe2", "\x86\x91 \xe2\x80", "\xae!\n", NULL};
    char *got = through_stdout(pieces);
    assert_non_null(got);
    assert_string_equal(got, "board^[[2J \xe2\x86\x91 <U+202E>!\n");
    free(got);
    /* more plain text than the stream's own buffer (4096 bytes) in one write */
    char *big = malloc(10001);
    assert_non_null(big);
    for (int i = 0; i < 10000; i++) big[i] = (char)('a' + i % 26);
    big[10000] = '\0';
    const char *one[] = {big, "\x01", NULL};
    got = through_stdout(one);
    assert_non_null(got);
    assert_int_equal(strlen(got), 10002);
    assert_memory_equal(got, big, 10000);
    assert_string_equal(got + 10000, "^A");
    free(got);
    free(big);
}

/* Only sequences with this process's mark pass, the mark removed; the
** same sequences without it, or with another secret, are shown as text. */
static void test_own_styling_is_marked(void **st) {
    (void)st;
    const char *pieces[] = {"<own>", "1m", "A\x1b[2J", "B\x1b[<00000000000000000000;1m", "C", "<own>",
                            "0", "m\n", NULL};
    char *got = through_stdout_styled(pieces, 1);
    assert_non_null(got);
    assert_string_equal(got, "\x1b[1mA^[[2JB^[[<00000000000000000000;1mC\x1b[0m\n");
    free(got);
    /* styling off: even the marked sequence is shown as text; its secret
    ** differs per process: "^[[<" 20 digits ";1m" is 4 + 20 + 3 bytes */
    const char *off[] = {"<own>", "1m", NULL};
    got = through_stdout_styled(off, 2);
    assert_non_null(got);
    assert_int_equal(strlen(got), 27);
    assert_memory_equal(got, "^[[<", 4);
    assert_string_equal(got + 24, ";1m");
    free(got);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_text_passes),
        cmocka_unit_test(test_unsafe_units_between_runs),
        cmocka_unit_test(test_growth_between_runs),
        cmocka_unit_test(test_stream),
        cmocka_unit_test(test_own_styling_is_marked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
