/*
** test_safe_open.c
** The one door for files (safe_open.h): a regular file is read whole and
** within its bound; a FIFO, a device and a folder are refused at once
** (nothing blocks); a link out of the given folder is refused; writing
** refuses a FIFO without blocking and a loop of symlinks without touching
** the links, and empties an existing file only once it is known regular.
*/
#define _GNU_SOURCE
#include "testutil.h"
#include "safe_open.h"

#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[] = "/tmp/cairn-safe-open-XXXXXX";
static char canon[4096];

static char *at(const char *name) {
    static char p[4200];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return p;
}

static void put(const char *name, const char *text) {
    FILE *f = fopen(at(name), "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int setup(void **st) {
    (void)st;
    if (!mkdtemp(dir) || !realpath(dir, canon)) return -1;
    return 0;
}

static int teardown(void **st) {
    (void)st;
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void test_reads_a_regular_file_within_its_bound(void **st) {
    (void)st;
    char why[128] = "";
    size_t len = 0;
    put("ten", "0123456789");
    char *t = safe_read_file(at("ten"), canon, 10, &len, why, sizeof why);
    assert_non_null(t);
    assert_int_equal(len, 10);
    assert_string_equal(t, "0123456789");
    free(t);
    /* 10 bytes over a bound of 9: refused, nothing returned */
    assert_null(safe_read_file(at("ten"), canon, 9, &len, why, sizeof why));
    assert_string_equal(why, "it is larger than 9 bytes");
    /* a bound past the first 4096-byte buffer: 5000 bytes read whole */
    FILE *f = fopen(at("big"), "w");
    for (int i = 0; i < 5000; i++) fputc('x', f);
    fclose(f);
    t = safe_read_file(at("big"), NULL, 5000, &len, why, sizeof why);
    assert_non_null(t);
    assert_int_equal(len, 5000);
    free(t);
    assert_null(safe_read_file(at("big"), NULL, 4999, &len, why, sizeof why));
}

static void test_refuses_what_is_not_a_file(void **st) {
    (void)st;
    char why[128] = "";
    assert_int_equal(mkfifo(at("fifo"), 0600), 0);
    /* no writer: a blocking open would wait for ever */
    assert_int_equal(safe_open_read(at("fifo"), NULL, why, sizeof why), -1);
    assert_string_equal(why, "it is a FIFO, not a regular file");
    assert_null(safe_fopen_read("/dev/zero", NULL, why, sizeof why));
    assert_string_equal(why, "it is a device, not a regular file");
    assert_null(safe_fopen_read(dir, NULL, why, sizeof why));
    assert_string_equal(why, "it is a folder, not a regular file");
    /* no reader: a blocking open for writing would wait for ever */
    assert_null(safe_fopen_write(at("fifo"), why, sizeof why));
    assert_string_equal(why, "it is a FIFO, not a regular file");
    assert_null(safe_fopen_write("/dev/null", why, sizeof why));
    assert_string_equal(why, "it is a device, not a regular file");
}

static void test_a_link_out_of_the_folder(void **st) {
    (void)st;
    char why[128] = "";
    char outside[4200]; /* beside the folder, not in it */
    snprintf(outside, sizeof outside, "%s-outside", dir);
    FILE *o = fopen(outside, "w");
    assert_non_null(o);
    fclose(o);
    assert_int_equal(symlink(outside, at("out")), 0);
    assert_int_equal(safe_open_read(at("out"), canon, why, sizeof why), -1);
    assert_string_equal(why, "it leads out of its folder (a symlink?)");
    unlink(outside);
    /* a link that stays inside is followed */
    put("target", "in");
    assert_int_equal(symlink("target", at("in")), 0);
    int fd = safe_open_read(at("in"), canon, why, sizeof why);
    assert_true(fd >= 0);
    close(fd);
}

static void test_writing(void **st) {
    (void)st;
    char why[128] = "";
    put("old", "a long old text");
    FILE *f = safe_fopen_write(at("old"), why, sizeof why);
    assert_non_null(f);
    fputs("new", f);
    fclose(f);
    size_t len;
    char *t = safe_read_file(at("old"), NULL, 100, &len, why, sizeof why);
    assert_string_equal(t, "new"); /* emptied first: nothing of the old text */
    free(t);
    assert_int_equal(symlink("loopb", at("loopa")), 0);
    assert_int_equal(symlink("loopa", at("loopb")), 0);
    assert_null(safe_fopen_write(at("loopa"), why, sizeof why));
    assert_string_equal(why, "it is a loop of symlinks");
    struct stat lst;
    assert_int_equal(lstat(at("loopa"), &lst), 0);
    assert_true(S_ISLNK(lst.st_mode));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reads_a_regular_file_within_its_bound),
        cmocka_unit_test(test_refuses_what_is_not_a_file),
        cmocka_unit_test(test_a_link_out_of_the_folder),
        cmocka_unit_test(test_writing),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
