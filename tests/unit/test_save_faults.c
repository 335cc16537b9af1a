/*
** test_save_faults.c
** Disk faults on save: a full disk (writes to /dev/full, and a tiny tmpfs
** in the test's own mount namespace where one can be made), a read-only
** folder (a read-only bind mount in a mount namespace when running as root,
** where permissions do not stop writes; a 0555 folder otherwise), a save
** path that became a folder, and a save through a symlink on a full disk.
** Each time: the error names the file and what failed, the previous save
** is there byte for byte, no temporary file is left, and the game in
** memory is as it was (and saves fine once the fault is gone). The crash
** between write and rename is test_save.c's test_atomic_write.
*/
#define _GNU_SOURCE /* unshare, CLONE_NEWNS, CLONE_NEWUSER */
#include "testutil.h"
#include "save.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/cairn-save-faults-XXXXXX";

static char *tmp_path(const char *name) { return cairn_strfmt("%s/%s", tmpdir, name); }

static engine *game(int moves) {
    engine_config c;
    memset(&c, 0, sizeof c);
    c.ruleset = "rulesets/connect4";
    c.seed = 3;
    cerr_list errs;
    cerr_init(&errs, 0);
    engine *e = engine_new(&c, &errs);
    if (!e) cerr_print(stderr, &errs);
    assert_non_null(e);
    cerr_free(&errs);
    for (int i = 0; i < moves && !engine_is_over(e); i++) {
        int seat = engine_is_asked(e, 1) ? 1 : 2;
        assert_int_equal(engine_bot_move(e, seat, NULL), ENGINE_OK);
    }
    return e;
}

static char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = calloc(1, 1 << 20);
    assert_non_null(buf);
    *len = fread(buf, 1, (1 << 20) - 1, f);
    fclose(f);
    return buf;
}

/* Files in dir whose name holds ".tmp-": what a failed save must not leave. */
static int temp_files(const char *dir) {
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d)))
        if (strstr(de->d_name, ".tmp-")) n++;
    closedir(d);
    return n;
}

/* The last error's text, formatted as the REPL prints it. */
static char *last_error(const cerr_list *errs) {
    assert_true(errs->n > 0);
    char *t = cerr_format(&errs->items[errs->n - 1]);
    assert_non_null(t);
    return t;
}

/* A save at path that must fail: checks the error (naming `where` and
** holding `what`), the previous file byte for byte, no temporary file in
** dir, the game untouched. The error text is printed for the log. */
static void save_must_fail(engine *e, const char *path, const char *dir, const char *where,
                           const char *what) {
    size_t old_len = 0, new_len = 0;
    char *old = slurp(path, &old_len);
    uint64_t hash = engine_state_hash(e);
    size_t pos = engine_position(e);
    cerr_list errs;
    cerr_init(&errs, 0);
    assert_int_equal(save_write(e, path, &errs), -1);
    char *msg = last_error(&errs);
    fprintf(stderr, "    (expected) %s\n", msg);
    assert_non_null(strstr(msg, where));
    assert_non_null(strstr(msg, what));
    assert_non_null(strstr(msg, "cannot save"));
    free(msg);
    char *now = slurp(path, &new_len);
    if (old) {
        assert_non_null(now);
        assert_int_equal(new_len, old_len);
        assert_memory_equal(now, old, old_len);
    }
    assert_int_equal(temp_files(dir), 0);
    assert_true(engine_state_hash(e) == hash);
    assert_int_equal(engine_position(e), pos);
    free(old);
    free(now);
    cerr_free(&errs);
}

/* Loads path and checks it is the game e. */
static void loads_as(const char *path, engine *e) {
    cerr_list errs;
    cerr_init(&errs, 0);
    save_load_opts o = {.checks = 1};
    engine *f = save_load(path, &o, NULL, &errs);
    if (!f) cerr_print(stderr, &errs);
    assert_non_null(f);
    assert_true(engine_state_hash(f) == engine_state_hash(e));
    assert_int_equal(engine_position(f), engine_position(e));
    engine_free(f);
    cerr_free(&errs);
}

/* ------------------------------------------------------------ /dev/full */
static void to_dev_full(int fd) {
    int full = open("/dev/full", O_WRONLY);
    assert_true(full >= 0);
    assert_true(dup2(full, fd) == fd);
    close(full);
}

static void test_full_disk_dev_full(void **st) {
    (void)st;
    char *path = tmp_path("full.save");
    engine *old = game(2), *e = game(9);
    cerr_list errs;
    cerr_init(&errs, 0);
    assert_int_equal(save_write(old, path, &errs), 0);
    save_after_create_hook = to_dev_full; /* every write now gets ENOSPC from the kernel */
    save_must_fail(e, path, tmpdir, path, "write failed: No space left on device");
    save_after_create_hook = NULL;
    /* memory is fine and so is the disk now: the same game saves and loads */
    loads_as(path, old);
    assert_int_equal(save_write(e, path, &errs), 0);
    loads_as(path, e);
    engine_free(old);
    engine_free(e);
    cerr_free(&errs);
    free(path);
}

/* A symlink to a save in another folder, on a full disk: the target keeps
** its bytes, the link stays a link, the error names the target. */
static void test_symlink_full_disk(void **st) {
    (void)st;
    char *sub = tmp_path("elsewhere"), *target = tmp_path("elsewhere/real.save"), *link = tmp_path("link.save");
    assert_int_equal(mkdir(sub, 0755), 0);
    engine *old = game(1), *e = game(7);
    cerr_list errs;
    cerr_init(&errs, 0);
    assert_int_equal(save_write(old, target, &errs), 0);
    assert_int_equal(symlink(target, link), 0);
    save_after_create_hook = to_dev_full;
    save_must_fail(e, link, sub, target, "No space left on device");
    save_after_create_hook = NULL;
    struct stat lst;
    assert_int_equal(lstat(link, &lst), 0);
    assert_true(S_ISLNK(lst.st_mode));
    assert_int_equal(temp_files(tmpdir), 0);
    loads_as(link, old);
    assert_int_equal(save_write(e, link, &errs), 0);
    loads_as(target, e);
    engine_free(old);
    engine_free(e);
    cerr_free(&errs);
    free(sub);
    free(target);
    free(link);
}

/* --------------------------------------------------- folder, not a file */
static void test_path_became_a_folder(void **st) {
    (void)st;
    char *path = tmp_path("now-a-folder.save"), *inner = tmp_path("now-a-folder.save/keep.txt");
    assert_int_equal(mkdir(path, 0755), 0);
    FILE *f = fopen(inner, "w");
    assert_non_null(f);
    fputs("mine\n", f);
    fclose(f);
    engine *e = game(4);
    save_must_fail(e, path, tmpdir, path, "is not a regular file (a folder)");
    size_t n = 0;
    char *kept = slurp(inner, &n);
    assert_non_null(kept);
    assert_string_equal(kept, "mine\n");
    free(kept);
    engine_free(e);
    free(path);
    free(inner);
}

/* ------------------------------------------- mount namespaces (children) */
/* The file-system type given to the mount calls that ignore it (a bind
** mount, a remount, a change of propagation: mount(2)). Not NULL, though
** the kernel allows it: valgrind's memcheck (3.19, Debian's) reads the
** type of every mount call as a string and reports a NULL one as a
** "Syscall param mount(type) points to unaddressable byte(s)" error, which
** turns the child's exit status into tools/valgrind's --error-exitcode. */
#define FSTYPE_IGNORED "none"

/* A mount namespace of the test's own: as root directly, else inside a new
** user namespace. 0, or -1 with the reason in why. */
static int own_mount_namespace(char *why, size_t n) {
    if (unshare(CLONE_NEWNS) != 0 && unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) {
        snprintf(why, n, "unshare: %s", strerror(errno));
        return -1;
    }
    if (mount(NULL, "/", FSTYPE_IGNORED, MS_REC | MS_PRIVATE, NULL) != 0) {
        snprintf(why, n, "making / private: %s", strerror(errno));
        return -1;
    }
    return 0;
}

/* Runs fn in a child; its exit status: 0 passed, 77 could not set up (the
** reason printed), anything else failed (printed here: under valgrind a
** child that passed its checks but made a memory error exits with
** tools/valgrind's --error-exitcode, 99, and its report is in its own log). */
static int in_child(void (*fn)(const char *dir), const char *dir) {
    fflush(stderr);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        fn(dir);
        _exit(0);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    int rc = WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
    if (rc != 0 && rc != 77)
        fprintf(stderr, "    the child checking %s %s %d%s\n", dir,
                WIFSIGNALED(status) ? "was killed by signal" : "exited", rc,
                rc == 99 ? " (valgrind's error exit code: see the child's report)" : "");
    return rc;
}

#define CHILD_CHECK(cond)                                                                          \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);              \
            _exit(1);                                                                              \
        }                                                                                          \
    } while (0)

/* The read-only folder, in a child (the mount namespace must not outlive
** it). A failing cmocka assert in the child ends the child's copy of the
** run with a failure status, which the parent's check then reports. */
static void readonly_child(const char *dir) {
    char why[256] = "";
    char *path = cairn_strfmt("%s/ro.save", dir);
    engine *old = game(2), *e = game(6);
    cerr_list errs;
    cerr_init(&errs, 0);
    CHILD_CHECK(save_write(old, path, &errs) == 0);
    if (geteuid() == 0) {
        /* root writes through permissions: a read-only bind mount instead */
        if (own_mount_namespace(why, sizeof why) != 0) {
            fprintf(stderr, "read-only folder as root: cannot make a mount namespace (%s)\n", why);
            _exit(1); /* not a skip: the error path must be exercised */
        }
        CHILD_CHECK(mount(dir, dir, FSTYPE_IGNORED, MS_BIND, NULL) == 0);
        CHILD_CHECK(mount(NULL, dir, FSTYPE_IGNORED, MS_BIND | MS_REMOUNT | MS_RDONLY, NULL) == 0);
        save_must_fail(e, path, dir, path, "create a temporary file failed: Read-only file system");
    } else {
        CHILD_CHECK(chmod(dir, 0555) == 0);
        save_must_fail(e, path, dir, path, "create a temporary file failed: Permission denied");
        CHILD_CHECK(chmod(dir, 0755) == 0);
    }
    loads_as(path, old);
    engine_free(old);
    engine_free(e);
    cerr_free(&errs);
    free(path);
}

static void test_read_only_folder(void **st) {
    (void)st;
    char *dir = tmp_path("ro");
    assert_int_equal(mkdir(dir, 0755), 0);
    assert_int_equal(in_child(readonly_child, dir), 0);
    free(dir);
}

/* A tmpfs of 64 KiB holding the previous save and a filler to the brim. */
static void tmpfs_child(const char *dir) {
    char why[256] = "";
    if (own_mount_namespace(why, sizeof why) != 0 ||
        mount("tmpfs", dir, "tmpfs", 0, "size=64k") != 0) {
        fprintf(stderr, "    skipped the tmpfs full-disk case: %s%s (the /dev/full case ran)\n",
                why[0] ? why : "mount tmpfs: ", why[0] ? "" : strerror(errno));
        _exit(77);
    }
    char *path = cairn_strfmt("%s/small.save", dir), *filler = cairn_strfmt("%s/filler", dir);
    engine *old = game(0), *e = game(30);
    cerr_list errs;
    cerr_init(&errs, 0);
    CHILD_CHECK(save_write(old, path, &errs) == 0);
    FILE *f = fopen(filler, "wb");
    CHILD_CHECK(f != NULL);
    static char block[512];
    while (fwrite(block, 1, sizeof block, f) == sizeof block && fflush(f) == 0) {}
    fclose(f);
    save_must_fail(e, path, dir, path, "No space left on device");
    unlink(filler);
    loads_as(path, old);
    CHILD_CHECK(save_write(e, path, &errs) == 0);
    loads_as(path, e);
    engine_free(old);
    engine_free(e);
    cerr_free(&errs);
    free(path);
    free(filler);
}

static void test_full_disk_tmpfs(void **st) {
    (void)st;
    char *dir = tmp_path("tiny");
    assert_int_equal(mkdir(dir, 0755), 0);
    int rc = in_child(tmpfs_child, dir);
    assert_true(rc == 0 || rc == 77);
    free(dir);
}

static int setup(void **st) {
    (void)st;
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **st) {
    (void)st;
    char *cmd = cairn_strfmt("rm -rf '%s'", tmpdir);
    int rc = cmd ? system(cmd) : -1;
    free(cmd);
    return rc == 0 ? 0 : -1;
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_full_disk_dev_full),
        cmocka_unit_test(test_symlink_full_disk),
        cmocka_unit_test(test_path_became_a_folder),
        cmocka_unit_test(test_read_only_folder),
        cmocka_unit_test(test_full_disk_tmpfs),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
