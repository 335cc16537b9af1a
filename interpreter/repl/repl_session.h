/*
** repl_session.h
** The console session as the REPL's modules share it: the game being
** played and how it is made (repl_settings), the seats, the output
** (repl_say, repl_plain, repl_fail, repl_block), showing the game and
** taking answers (repl.c), and the modules that serve the session
** (repl_disclose.c, repl_layout.c, repl_hotseat.c, repl_setup.c,
** repl_files.c, repl_undo_policy.c, repl_inspect.c, repl_rules.c). The command
** table (repl_cmd.c) uses it; the session reaches the commands only
** through repl_cmd.h, which does not include this header.
*/
#ifndef CAIRN_REPL_SESSION_H
#define CAIRN_REPL_SESSION_H

#if !defined(CAIRN_FOLDER_repl)
#error "repl_session.h is for interpreter/repl/ only: include its public header"
#endif

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"
#include "limits.h"
#include "value.h"
#include "lineedit.h"

struct engine;
struct lineedit;
struct serve;

/* How a game is (re)made: everything `new`, `restart` and `reload` need.
** All strings owned. */
typedef struct repl_settings {
    char *ruleset;
    char **choices;
    size_t n_choices;
    char *preset;
    int players;       /* 0: the ruleset's default */
    int *name_seat;    /* --name SEAT=NAME pairs */
    char **name_val;
    size_t n_names;
    int *bot_seat;     /* --bot SEAT=KIND pairs */
    char **bot_val;
    size_t n_bots;
    uint64_t seed;
    char *lang;
    char **sets;       /* --set DATA.PATH=VALUE data overrides, in order */
    size_t n_sets;
} repl_settings;

/* One file of the ruleset as last read, to say what a reload changed. */
typedef struct repl_file {
    char *path;    /* as shown: relative to the ruleset folder */
    uint64_t hash;
} repl_file;

/* A decision the console took for a person (repl_forced.c). */
typedef struct repl_forced_move {
    size_t index; /* its place in the log */
    int seat;
    char *id;
} repl_forced_move;

/* A bot's reasons for its last choices (repl_why.c): a ring of
** CAIRN_REPL_WHY_KEPT, the newest at [(next - 1) % CAIRN_REPL_WHY_KEPT]. */
typedef struct repl_why_record {
    size_t index[CAIRN_REPL_WHY_KEPT]; /* each decision's place in the log */
    char *text[CAIRN_REPL_WHY_KEPT];   /* the reasons worded (repl_why.c); NULL: none */
    size_t next;                       /* choices noted so far */
} repl_why_record;

/* The last `undo` (repl_cmd.c), for the news of the next person at the
** keyboard when that is another seat than the one that typed it: a hot-seat
** screen is cleared between them, so "Undone: ..." was never theirs to read.
** Told once (repl_layout.c), and only while the game still stands where the
** undo left it. */
typedef struct repl_undo_note {
    int by;          /* the seat at the keyboard that typed it; 0: none pending */
    size_t at, len;  /* the position and the log's length it left */
    size_t taken;    /* decisions taken back in all (bots' included) */
    size_t first;    /* the earliest person's decision taken back (its log index) */
} repl_undo_note;

typedef struct repl {
    repl_settings set;
    struct engine *e;
    int n_seats;
    char **bot;        /* [n_seats + 1]: each seat's bot kind, NULL: human (index 0 unused) */
    struct bot **brain; /* [n_seats + 1]: the bot playing each seat, made from bot[] when asked */
    size_t *seen;      /* [n_seats + 1]: events shown to each seat; [0] the shared screen */
    size_t *seen_pos;  /* [n_seats + 1]: the position each seat was last told about, likewise */
    int viewer;        /* the seat whose view is shown; 0: spectator */
    int secret;        /* the ruleset hides something from some seat */
    int auto_bots;     /* bots move by themselves after a person's move */
    uint32_t forced;   /* bit s: a move with one option is taken for seat s (`auto forced on`) */
    repl_forced_move *forced_at; /* the decisions taken so, for the news */
    size_t n_forced_at;
    repl_why_record *why; /* [n_seats + 1]: each bot seat's last choice explained */
    int dirty;         /* changed since the last save or load */
    int changed;       /* the game moved during this input line */
    int answered;      /* a person answered during this input line */
    int over_shown;    /* final scores shown for this position */
    repl_undo_note undone; /* the last `undo`, told to the next seat at the keyboard */
    char *save_path;   /* the last file saved to or loaded from */
    char *recovery;    /* the recovery copy written for this session (repl_recovery.c), or NULL */
    int recovery_warned; /* said once that no recovery copy can be written */
    int let_go;        /* the person answered n to "save it before leaving?" */
    repl_file *files;  /* the ruleset's files when the game was made */
    size_t n_files;
    /* replay mode (cairn replay) */
    int replay;
    /* output */
    FILE *out;
    int color;         /* ANSI escapes on */
    int width;         /* columns */
    int script;        /* script mode: echo input, no colour, no pauses */
    int interactive;   /* stdin is a terminal and no --script */
    int strict;
    int trust;         /* --trust: saves may open a ruleset folder anywhere */
    int undo;          /* --undo: UNDO_ALL, UNDO_OWN or UNDO_NONE (repl_undo_policy.c) */
    size_t failures;   /* commands that failed */
    struct lineedit *le;
    struct serve *server; /* cairn serve: the seats' pages (repl_serve.c), else NULL */
    FILE *in;
    int quit;
    /* debugging (repl_inspect.c) */
    int debug;         /* `debug on`: the rules' g.debug/print lines are shown */
    int trace;         /* `trace on`: each handler call is shown */
    /* the screen (repl_layout.c, repl_pager.c) */
    int rows;          /* the terminal's rows at the last turn screen, 0: not known */
    int options_in_columns; /* a turn too tall for the screen: the options in columns */
    int news_joined;   /* ... and still too tall: each run's events on one paragraph */
    const char *news_head; /* said above the news at the next turn screen (a replay's step or
                           ** jump, repl_cmd.c; its text, not owned), NULL: nothing */
    size_t news_head_len;
    int guarded;       /* a command runs under the hard stop's escape (repl_hard_stop.c) */
    FILE *page_saved;  /* r->out while a page is kept in page_mem */
    FILE *page_mem;
    char *page_buf;
    size_t page_len;
} repl;

/* Output. say: markup (ruleset text and the REPL's own styling) rendered,
** wrapped at the width, newline added; `indent` for continuation lines.
** plain: text shown as is (error messages, file names), wrapped. fail: a
** one-line error, counted for --strict. */
void repl_say(repl *r, int indent, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
void repl_plain(repl *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void repl_fail(repl *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* repl_plain with `indent` spaces before each continuation line: a row of
** a two-column list (`help`) whose second column wraps under itself. */
void repl_plain_hanging(repl *r, int indent, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* The `rules` command (repl_rules.c): how to play, the legend, the rulebook,
** options and assumed values; with an option id, that option. */
int repl_show_rules(repl *r, const char *args);
/* Text (may be several lines) shown unwrapped: boards keep their shape. */
void repl_block(repl *r, const char *markup);
/* The same, each line wrapped at the terminal's width (a board drawn for a
** turn: no line wider than the terminal). */
void repl_board_block(repl *r, const char *markup);
/* Asks a yes/no question at the keyboard; 1 for y/yes. Script mode (and
** end of input) answers no without asking. */
int repl_confirm(repl *r, const char *question);

/* "Ann" or "Seat 2"; never NULL. */
const char *repl_seat_name(const repl *r, int seat);
/* Parses a seat given as a number or a name ("0" and "spectator" give 0
** when allow_zero). Returns the seat or -1 after printing an error. */
int repl_parse_seat(repl *r, const char *s, int allow_zero);

/* Showing the game. */
void repl_show_board(repl *r, int seat);
/* What happened since seat was last told (repl_disclose.c): the events it
** may see and, for each decision it heard nothing of, who decided what
** (the label) or only that they decided (a hidden choice). */
void repl_show_events(repl *r, int seat);
void repl_show_scores(repl *r, int final);
/* After the game moved: events, bots (if after a person's move), the board
** and whoever must decide next. */
void repl_present(repl *r);
/* Starts the game that r now holds (after `new`, `restart`, `load`): the
** header, bots that move first, the first turn. */
void repl_start(repl *r);
/* Lets bots play until a person must decide, the game ends, Ctrl-C, or
** `limit` decisions (0: no limit). Returns the number of decisions made. */
size_t repl_run_bots(repl *r, size_t limit);
/* Makes the game from r->set (replacing the current one). Returns 0, or -1
** after printing the errors (the current game is then kept). */
int repl_new_game(repl *r);
/* Runs fn(r, arg) under the hard stop's escape (repl_hard_stop.c): when a
** rules call it makes overruns in C, the game is made again as it was
** before, the console says which rule overran, and -1 is returned; else
** fn's result. Not nested: inside another, fn simply runs. */
int repl_guarded(repl *r, int (*fn)(repl *r, void *arg), void *arg);
/* Ends the process with status when a hard stop was survived this session
** (the memory it left is never freed: no exit handler must walk it);
** returns otherwise. After the session is closed. */
void repl_hard_stop_end(int status);

/* Resets per-game REPL state after the engine was replaced. */
int repl_adopt_engine(repl *r, struct engine *e);
/* The seat that answers typed option ids now (a person asked now, the
** viewer first), or 0. */
int repl_deciding_seat(const repl *r);
/* Applies one answer for seat; prints what happened. 0 or -1. */
int repl_answer(repl *r, int seat, const char *id);
/* The bot of seat (made from r->bot[seat], kept while the kind is the
** same), or NULL after printing why (unknown kind, refused for this game). */
struct bot *repl_brain(repl *r, int seat);
/* Frees every seat's bot (a new game, or the end). */
void repl_free_brains(repl *r);

/* Events seen so far by seat (its slot in r->seen). */
size_t *repl_seen(repl *r, int seat);

/* ---- repl_disclose.c ---- */

/* 1 when the choice of log entry index (from 0) is hidden from seat (0: a
** spectator): the engine's disclosure, else (not known) any other seat's
** choice in a game with secrets. */
int repl_choice_hidden(const repl *r, size_t index, int seat);
/* "Ann: take one red stone (take red)" as markup (malloc'd); a choice hidden
** from the viewer is "(secret)" unless peek. */
char *repl_describe_logged(const repl *r, size_t index, int peek);
/* The position seat was last told about (its slot in r->seen_pos). */
size_t *repl_seen_pos(repl *r, int seat);
/* Everything up to now counts as told, for every seat (a load, a jump). */
void repl_mark_all_seen(repl *r);
/* Snapshots the ruleset's files (for reload reports). */
void repl_snapshot_files(repl *r, repl_file **out, size_t *n);
void repl_free_files(repl_file *f, size_t n);
uint64_t repl_fresh_seed(const repl *r);

/* ---- repl_layout.c ---- */

/* The terminal's rows (TIOCGWINSZ on a terminal, else $LINES), 0 when not known. */
int repl_term_height(const repl *r);
/* A turn's screen: the board, sized to leave room for what `below` prints
** (the news and the options), then that. */
void repl_show_turn_screen(repl *r, int seat, void (*below)(repl *r, int seat));

/* What the REPL says between repl_capture_begin and repl_capture_end, kept
** in memory instead of printed (to measure a screen, or to say it on one). */
typedef struct repl_capture {
    FILE *out, *mem; /* mem NULL: nothing is being captured (no memory) */
    char *buf;
    size_t len;
} repl_capture;
/* From now on r->out writes into c; when that cannot be, r->out is left as
** it is (the text is then printed at once) and c captures nothing. */
void repl_capture_begin(repl *r, repl_capture *c);
/* r->out back as it was; the text said since (malloc'd, *len bytes), or
** NULL when nothing could be captured. */
char *repl_capture_end(repl *r, repl_capture *c, size_t *len);

/* `look`: the current question and its board again, as at the turn. */
void repl_show_current(repl *r);

/* ---- repl_pager.c ---- */

/* What is printed between begin and end is shown a screen at a time with
** `--More--` on a terminal, whole in a pipe or a script. */
void repl_page_begin(repl *r);
void repl_page_end(repl *r);
/* Shows text (len bytes) so: paged on a terminal. */
void repl_page_text(repl *r, const char *text, size_t len);
/* text paged, then (on a terminal, when it took more than a screen with
** what follows: `following` rows) a `--More--` before what follows, so that
** what follows (a turn's board and question) starts on a screen of its own. */
void repl_page_text_then(repl *r, const char *text, size_t len, int following);

/* ---- repl_text.c: the console's messages in the game's language ---- */

/* The game's language ("en" before any game). */
const char *repl_lang(const repl *r);
/* The message `key` (a format string); repl_trn: the plural form for n. */
const char *repl_tr(const repl *r, const char *key);
const char *repl_trn(const repl *r, const char *key, long long n);
/* v with `places` decimals and the game's language's decimal point (the
** catalogue's "number.decimal_point": 1.5 in English, 1,5 in German and
** Greek) into out, which it returns. */
enum { REPL_DECIMAL_MAX = 48 };
const char *repl_decimal(const repl *r, double v, int places, char out[REPL_DECIMAL_MAX]);
/* 1 when a is yes (no) in English or in the game's language: y, yes, and
** the catalogue's "answer.yes_words" ("j ja", "ν ναι"), any case. */
int repl_is_yes(const repl *r, const char *a);
int repl_is_no(const repl *r, const char *a);

/* ---- repl_error_text.c ---- */

/* An error of a layer below in the game's language, as cerr_format writes
** it (repl_error_text_in in repl_text.h). malloc'd; NULL on OOM. */
char *repl_error_text(const repl *r, const cairn_error *e);
/* A scalar described in the game's language ("ganze Zahl 1" for English's
** "integer 1", value_describe's words by the catalogue's schema.type.*);
** lists and maps as value_describe says them. malloc'd; NULL on OOM. */
char *repl_value_words(const repl *r, const value *v);

/* ---- repl_hotseat.c ---- */

/* How many seats people play (no bot). */
int repl_people(const repl *r);
/* SEAT=VALUE (`--bot 2=mcts`, `--name 1=Ann`) into the settings' pair
** arrays. Returns 0, or -1 (bad), -2 (OOM). */
int repl_add_seat_pair(const char *arg, int **seats, char ***vals, size_t *n);
/* Clears the terminal (and its scrollback); script mode prints a marker
** line instead. */
void repl_clear_screen(repl *r);
/* Reads one answer after prompt (echoed in script mode). NULL at the end of
** the input (*eof set) or on Ctrl-C. */
char *repl_ask(repl *r, const char *prompt, int *eof);
/* Clears the screen, then `-- pass the keyboard to TO --` and (on a
** terminal) waits for Enter and clears again. */
void repl_pass_keyboard(repl *r, const char *to);
/* With secrets and two or more people at the keyboard, asks whether the
** others look away before showing `what`; 1 to go on. Else 1. */
int repl_confirm_secrets(repl *r, const char *what);

/* ---- repl_setup.c ---- */

/* `cairn play` with no ruleset: asks the ruleset, the seat count and which
** seats people play, into r->set. 0, or -1 (nothing found, or the input
** ended). */
int repl_setup_ask(repl *r);

/* ---- repl_files.c ---- */

/* "yak-seed3.save" (malloc'd): the ruleset's name and the seed, numbered on
** (yak-seed3-2.save) past files that exist; NULL on OOM. */
char *repl_default_save_name(const repl *r);
/* "the folder x/y does not exist" (malloc'd) for a path whose folder is
** missing or no folder, else NULL. */
char *repl_save_folder_problem(const repl *r, const char *path);
/* " in /current/folder" for a relative path, "" for an absolute one (malloc'd). */
char *repl_save_where(const char *path);
/* Why path is no cairn save (malloc'd), or NULL when it may be one (or
** cannot be read: the loader says why). */
char *repl_not_a_save(const repl *r, const char *path);

/* ---- repl_forced.c ---- */

/* 1 when a one-option move of person seat is taken for it. */
int repl_forced_on(const repl *r, int seat);
/* Takes one such move, if a person who chose it is asked one now: 1 when
** it did. */
int repl_take_forced(repl *r);
/* 1 when log entry index was taken for its seat that way. */
int repl_was_forced(const repl *r, size_t index);
void repl_forced_free(repl *r);
/* `auto forced [on|off] [SEAT|all]`. */
int repl_cmd_auto_forced(repl *r, const char *args);

/* ---- repl_why.c ---- */

struct engine_decision_list; /* engine.h */

/* After seat's bot decided log entry index among `options` options: its
** reasons kept, worded in the game's language with the options' labels as
** they were asked (asked), when it was a choice (two options or more). */
void repl_why_note(repl *r, int seat, size_t index, size_t options, const struct engine_decision_list *asked);
/* `why` for seat's bot: its last choice's reasons once that choice is
** public to the viewing seat. 0, or -1 after saying why not. */
int repl_why_show(repl *r, int seat);
/* The log place of seat's newest choice kept (not undone); *found 0: none. */
size_t repl_why_latest(const repl *r, int seat, int *found);
/* For a new engine: no reasons kept. 0 or -1 (OOM). */
int repl_why_reset(repl *r);
void repl_why_free(repl *r);

/* ---- repl_keep.c ---- */

/* Before a command drops the game (doing: "loading another", "leaving"):
** when it has decisions not saved, offers to save it (y, n, or a file
** name; Ctrl-C stays). Returns 1 to go on. When leaving, the end of the
** input leaves; otherwise it stays. */
int repl_keep_game(repl *r, const char *doing, int leaving);
/* Before writing the game to path: when the file there holds another game
** (or is no cairn save), asks whether to replace it. 1 to go on. */
int repl_may_overwrite(repl *r, const char *path);

/* ---- repl_score_view.c ---- */

/* A number of a score the viewing seat may not know, shown as "?". */
#define REPL_SCORE_HIDDEN INT64_MIN
struct engine_score;
/* Mid-game, in a game with secrets: the totals, tie-breaks and points of sc
** that depend on what the viewing seat may not see become
** REPL_SCORE_HIDDEN (labels that do become the line's key), and with any
** total hidden every rank becomes 0. Does nothing once the game is over. */
void repl_score_mask(repl *r, struct engine_score *sc);

/* ---- repl_recovery.c ---- */

struct cerr_list;
/* The per-user state folder: $XDG_STATE_HOME/cairn, else
** ~/.local/state/cairn (malloc'd); NULL without either variable. */
char *repl_state_dir(void);
/* Writes e to this process's recovery file (the state folder, made when
** missing, else $TMPDIR or /tmp); 0 with *path set (malloc'd), or -1. */
int repl_recovery_write(const struct engine *e, char **path, struct cerr_list *errs);
/* After a typed line: the recovery copy written when the game has
** decisions not saved, removed when it has none. */
void repl_recovery_update(repl *r);
/* Removes the recovery copy (the session ends as asked). */
void repl_recovery_drop(repl *r);
/* The newest recovery file in the state folder whose cairn no longer runs
** (*path NULL: none), how many others there are, and the folder looked
** in (both malloc'd). 0, or -1 when out of memory. */
int repl_recovery_newest(char **path, size_t *others, char **dir);
/* The resumed file becomes this session's recovery copy. 0 or -1 (OOM). */
int repl_recovery_adopt(repl *r, const char *path);

/* ---- repl_serve.c: cairn serve ---- */

/* Starts the seats' server on bind and port, each seat a person plays
** getting a link (printed, with its QR code on a terminal). 0, or -1 after
** saying why. */
int repl_serve_open(repl *r, const char *bind, int port);
/* Stops it (NULL-safe: r->server NULL does nothing). */
void repl_serve_close(repl *r);
/* The console's read while serving: the pages' requests are answered
** while it waits; *st LINEEDIT_WAKE when a page's answer moved the game. */
char *repl_serve_ask(repl *r, const char *prompt, lineedit_status *st);
/* After a page's answer moved the game: the bots, then the board. */
void repl_serve_moved(repl *r);
/* Every served seat's page gets the game as it is now. */
void repl_serve_publish(repl *r);
/* The line under the public board while people decide at their pages. */
void repl_serve_waiting(repl *r);
/* `links`: every served seat's link again (with its QR code). */
int repl_serve_links(repl *r);

/* ---- repl_undo_policy.c ---- */

/* --undo=all|own|none (repl.undo). */
enum { UNDO_ALL = 0, UNDO_OWN = 1, UNDO_NONE = 2 };
/* 0 with *out set, or -1 when s names no policy. */
int undo_policy_parse(const char *s, int *out);
const char *undo_policy_name(int policy);
/* Why going back to position `to` is refused now (malloc'd), or NULL. */
char *undo_policy_refusal(const repl *r, size_t to);

/* ---- repl_inspect.c ---- */

/* Points the engine's debug channel and trace at the REPL as r->debug and
** r->trace say (after an engine is adopted, or a switch). */
void repl_inspect_attach(repl *r);
/* The same for a game about to be made (its setup's lines). */
struct engine_config;
void repl_inspect_config(repl *r, struct engine_config *cfg);
/* The commands: debug, trace, eval, set, option; `state PATH`. Each
** returns 0, or -1 after printing the error. */
int repl_cmd_debug(repl *r, const char *args);
int repl_cmd_trace(repl *r, const char *args);
int repl_cmd_eval(repl *r, const char *args);
int repl_cmd_set(repl *r, const char *args);
int repl_cmd_option(repl *r, const char *args);
int repl_state_path(repl *r, const char *args);

#endif
