/*
** fuzz_repl_commands.c
** libFuzzer harness for the REPL: input lines played as a script against a fresh connect4 game.
*/
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "repl.h"

/* The REPL has no public "run this line" (run_line is static); its script
** mode (`cairn play --script FILE`) is the documented way to feed it lines
** without a terminal, so each input becomes a script file for
** repl_play_main. connect4 is found along ./rulesets: tools/fuzz runs this
** from the repo root.
**
** Before the input becomes a script it is made safe to run: `shell`/`!`
** (which call system()) are dropped, and the file names given to save, load
** and export are confined to a private temporary folder, emptied after each
** run so that runs do not depend on each other. */

static char dir[64];      /* private folder for the script and any saves */
static char script[96];

static void empty_dir(void);

static void remove_dir(void) {
    empty_dir();
    rmdir(dir);
    unlink(script);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%.40s/cairn-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        perror("fuzz_repl_commands: mkdtemp");
        exit(1);
    }
    snprintf(script, sizeof script, "%s.script", dir);
    atexit(remove_dir); /* not after a crash: the folder is then left for inspection */
    /* the REPL talks on stdout; CAIRN_FUZZ_VERBOSE=1 keeps it (reproducing) */
    const char *verbose = getenv("CAIRN_FUZZ_VERBOSE");
    if (!(verbose && *verbose == '1')) {
        int fd = open("/dev/null", O_WRONLY);
        if (fd >= 0) {
            dup2(fd, STDOUT_FILENO);
            close(fd);
        }
    }
    /* stdout's buffer is allocated on its first write: do it now, or the
    ** first run looks like a leak to libFuzzer's malloc/free count */
    fputs("fuzz_repl_commands: the REPL's output follows\n", stdout);
    fflush(stdout);
    return 0;
}

static void empty_dir(void) {
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *de;
    char p[512];
    while ((de = readdir(d)) != NULL) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")) continue;
        snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
        unlink(p);
    }
    closedir(d);
}

/* Writes one `;`-separated segment, made safe (see the top). Returns 1 if
** something was written. The REPL trims with isspace and splits the command
** word at space or tab, so the same is done here. */
static int put_segment(FILE *f, const char *seg, size_t len, int first) {
    while (len > 0 && isspace((unsigned char)*seg)) seg++, len--;
    while (len > 0 && isspace((unsigned char)seg[len - 1])) len--;
    size_t wl = 0;
    while (wl < len && seg[wl] != ' ' && seg[wl] != '\t') wl++;
    const char *w = seg;
    size_t wn = wl;
    if (wn > 0 && w[0] == ':') w++, wn--;
    if (len > 0 && seg[0] == '!') return 0;
    if ((wn == 5 && !memcmp(w, "shell", 5)) || (wn > 0 && w[0] == '!')) return 0;
    if (!first) fputc(';', f);
    int file_cmd = (wn == 4 && (!memcmp(w, "save", 4) || !memcmp(w, "load", 4))) ||
                   (wn == 6 && !memcmp(w, "export", 6));
    if (!file_cmd) {
        fwrite(seg, 1, len, f);
        return 1;
    }
    fwrite(seg, 1, wl, f);
    size_t i = wl;
    while (i < len && (seg[i] == ' ' || seg[i] == '\t')) i++;
    if (len - i >= 10 && !memcmp(seg + i, "--scenario", 10)) { /* load --scenario FILE */
        fputs(" --scenario", f);
        i += 10;
    }
    char name[32];
    size_t n = 0;
    for (; i < len && n < sizeof name - 1; i++)
        if (isalnum((unsigned char)seg[i]) || seg[i] == '_' || seg[i] == '.' || seg[i] == '-') name[n++] = seg[i];
    name[n] = '\0';
    if (n > 0) fprintf(f, " %s/f%s", dir, name);
    return 1;
}

static int write_script(const uint8_t *data, size_t size) {
    FILE *f = fopen(script, "w");
    if (!f) return -1;
    const char *p = (const char *)data, *end = p + size;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *eol = nl ? nl : end;
        int first = 1;
        for (const char *s = p; s <= eol;) {
            const char *semi = memchr(s, ';', (size_t)(eol - s));
            const char *se = semi ? semi : eol;
            /* NUL would end the line early in the REPL but not here: make it a space */
            char seg[4096];
            size_t len = (size_t)(se - s) < sizeof seg ? (size_t)(se - s) : sizeof seg;
            for (size_t i = 0; i < len; i++) seg[i] = s[i] ? s[i] : ' ';
            if (put_segment(f, seg, len, first)) first = 0;
            s = se + 1;
        }
        fputc('\n', f);
        p = eol + 1;
    }
    return fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (write_script(data, size) != 0) return 0;
    char *argv[] = {"play", "connect4", "--name", "1=Ann", "--name", "2=Bob", "--script", script, NULL};
    repl_play_main(8, argv);
    fflush(stdout);
    empty_dir();
    unlink(script);
    return 0;
}
