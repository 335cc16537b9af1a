/*
** repl_keep.c
** No game is lost: before a command drops a game with decisions not saved
** (`load`, `new`, `restart`, `quit`, Ctrl-D) the console offers to save it,
** and before `save` writes over a file that holds another game (or no
** cairn save at all) it asks. In script mode the answer is the next line of
** the script, read at `cairn:confirm>` as the other questions are, so a
** transcript shows every question and its answer.
*/
#include "repl_session.h"

#include "engine.h"
#include "markup.h"
#include "repl_cmd.h"
#include "save_match.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* What script mode reads a question's answer at (a prompt transcripts know). */
#define REPL_CONFIRM_PROMPT "cairn:confirm> "

/* Decisions the game would lose: those made since it was last saved or
** loaded (all of its log when it changed since, 0 when it did not). */
static size_t unsaved(const repl *r) {
    if (!r->e || !r->dirty || r->replay) return 0;
    size_t n = 0;
    engine_log(r->e, &n);
    return n;
}

/* Columns a question shown as the prompt leaves for the answer (a file
** name such as kathmandu-seed665713.save fits after it). */
#define REPL_ANSWER_ROOM 24

/* Asks question; the answer trimmed (malloc'd), or NULL: *eof at the end of
** the input, else Ctrl-C. A terminal shows the question as the prompt, and
** one too long for a line with room for the answer wrapped at its words,
** its last line the prompt (the terminal would break it anywhere, a file
** name too); script mode says it, then reads at cairn:confirm>. */
static char *ask_line(repl *r, const char *question, int *eof) {
    char *line;
    if (r->script) {
        repl_say(r, 0, "%s", question);
        line = repl_ask(r, REPL_CONFIRM_PROMPT, eof);
    } else {
        int room = r->width - REPL_ANSWER_ROOM;
        int fits = r->width <= 0 || (int)markup_width(question, strlen(question)) < room;
        char *wrapped = fits ? NULL : markup_wrap(question, room > 20 ? room : 20, 0);
        const char *last = wrapped ? strrchr(wrapped, '\n') : NULL;
        if (last) repl_say(r, 0, "%.*s", (int)(last - wrapped), wrapped);
        char *q = cairn_strfmt("%s ", last ? last + 1 : question);
        line = repl_ask(r, q ? q : question, eof);
        free(q);
        free(wrapped);
    }
    if (!line) return NULL;
    char *a = line;
    while (isspace((unsigned char)*a)) a++;
    size_t n = strlen(a);
    while (n > 0 && isspace((unsigned char)a[n - 1])) a[--n] = '\0';
    memmove(line, a, n + 1);
    return line;
}

/* A file name as an answer has a dot or a slash (game.save, ./game): a
** word such as `run` or `drop 4` is a command or a move typed too early,
** never saved to. */
static int looks_like_file(const char *a) { return !strchr(a, ';') && strpbrk(a, "./") != NULL; }


/* doing: the catalogue key of what would drop the game ("keep.leaving") */
int repl_keep_game(repl *r, const char *doing, int leaving) {
    size_t n = unsaved(r);
    if (!n) return 1;
    /* Enter (or y) saves where this game was last saved, else under the name
    ** `save` offers (repl_files.c) */
    char *dflt = r->save_path ? NULL : repl_default_save_name(r);
    const char *target = r->save_path ? r->save_path : dflt;
    repl_say(r, 0, repl_trn(r, "keep.changed", (long long)n), n);
    doing = repl_tr(r, doing);
    char *q = target ? cairn_strfmt(repl_tr(r, "keep.ask"), doing, target)
                     : cairn_strfmt(repl_tr(r, "keep.ask_name"), doing);
    int go = 0;
    for (;;) {
        int eof = 0;
        char *a = ask_line(r, q ? q : "Save it first? (y/n, or a file name):", &eof);
        if (!a) { /* Ctrl-C: back to the game; the end of the input: leave, or stay */
            go = eof && leaving;
            break;
        }
        if (repl_is_no(r, a)) {
            go = 1;
            r->let_go = leaving; /* the recovery copy may go too */
        } else if (!a[0] || repl_is_yes(r, a)) {
            if (!target) { /* nowhere to save: ask again for a name */
                free(a);
                continue;
            }
            go = repl_command(r, "save", r->save_path ? "" : target) == 0;
        } else if (!looks_like_file(a)) {
            repl_plain(r, repl_tr(r, "keep.no_answer"), a);
            free(a);
            if (r->script) break; /* a script's next line was meant for the game: it goes on */
            continue;
        } else {
            go = repl_command(r, "save", a) == 0;
        }
        free(a);
        break;
    }
    if (!go && !leaving) repl_plain(r, "%s", repl_tr(r, "keep.goes_on"));
    free(q);
    free(dflt);
    return go;
}

/* What the file holds, in the game's language (save_match gives the facts). */
static char *word_match(const repl *r, const save_match *m) {
    long long n = (long long)m->decisions;
    switch (m->how) {
    case SAVE_MATCH_FURTHER: return cairn_strfmt(repl_trn(r, "keep.holds_further", n), m->decisions);
    case SAVE_MATCH_OTHER_LINE:
        return cairn_strfmt(repl_trn(r, "keep.holds_line", n), m->decisions, m->departs);
    case SAVE_MATCH_OTHER_GAME:
        return cairn_strfmt(repl_trn(r, "keep.holds_game", n), m->ruleset, m->seed, m->decisions);
    }
    return NULL;
}

int repl_may_overwrite(repl *r, const char *path) {
    save_match m;
    if (save_match_file(path, r->e, &m) != 0) {
        repl_fail(r, "%s", repl_tr(r, "error.oom"));
        return 0;
    }
    int go = 1;
    if (m.kind == SAVE_MATCH_OTHER || m.kind == SAVE_MATCH_NOT_SAVE) {
        char *what = m.kind == SAVE_MATCH_OTHER ? word_match(r, &m) : NULL;
        char *q = m.kind == SAVE_MATCH_NOT_SAVE
                      ? cairn_strfmt(repl_tr(r, "keep.not_a_save"), path)
                      : cairn_strfmt(repl_tr(r, "keep.other_game"), path, what ? what : m.what);
        free(what);
        int eof = 0;
        char *a = ask_line(r, q ? q : "The file holds another game. Replace it? (y/n) [n]:", &eof);
        go = a && repl_is_yes(r, a);
        if (!go) repl_plain(r, repl_tr(r, "keep.not_saved"), path);
        free(a);
        free(q);
    }
    save_match_free(&m);
    return go;
}
