/*
** repl_cmd.c
** The REPL's commands: one table (name, arguments, one-line summary, the
** details `help CMD` prints, what its arguments complete to) and one
** function per command. Tab completion reads the same table. Its interface
** is repl_cmd.h; it works on the session through repl_session.h.
*/
#include "repl_cmd.h"
#include "grow.h"
#include "repl_session.h"
#include "repl_signal.h"
#include "repl_text.h"
#include "lineedit.h"

#include "bot.h"
#include "engine.h"
#include "markup.h"
#include "ruleset.h"
#include "save.h"
#include "suggest.h"
#include "value.h"

#include <ctype.h>
#include <errno.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

/* Where a command works: while playing, while replaying a save, or both. */
enum { IN_PLAY = 1, IN_REPLAY = 2, IN_BOTH = 3 };

/* What a command's arguments complete to. */
typedef enum { ARG_NONE, ARG_FILE, ARG_SEAT, ARG_CMD, ARG_OPTION, ARG_ONOFF, ARG_PEEK } arg_kind;

typedef struct repl_cmd {
    const char *name;
    const char *alias; /* another name, or NULL */
    const char *args;  /* as shown in help */
    int (*run)(repl *r, const char *args);
    int where;
    arg_kind complete;
    /* its one line in `help` is the catalogue's "help.NAME", its details for
    ** `help CMD` "detail.NAME", both in the game's language (repl_text.h) */
} repl_cmd;

#define DECL(f) static int f(repl *r, const char *args)
DECL(cmd_help); DECL(cmd_show); DECL(cmd_view); DECL(cmd_state); DECL(cmd_log);
DECL(cmd_score); DECL(cmd_rules); DECL(cmd_history); DECL(cmd_undo); DECL(cmd_redo);
DECL(cmd_goto); DECL(cmd_save); DECL(cmd_load); DECL(cmd_export); DECL(cmd_reload);
DECL(cmd_bot); DECL(cmd_human); DECL(cmd_run); DECL(cmd_auto); DECL(cmd_new);
DECL(cmd_restart); DECL(cmd_seed); DECL(cmd_shell); DECL(cmd_quit); DECL(cmd_next);
DECL(cmd_back); DECL(cmd_first); DECL(cmd_last); DECL(cmd_play); DECL(cmd_why);
DECL(cmd_look); DECL(cmd_links);
#undef DECL

static const repl_cmd commands[] = {
    {"help", NULL, "[CMD]", cmd_help, IN_BOTH, ARG_CMD},
    {"show", "board", "[SEAT]", cmd_show, IN_BOTH, ARG_SEAT},
    {"look", NULL, "", cmd_look, IN_PLAY, ARG_NONE},
    {"view", "seat", "SEAT", cmd_view, IN_BOTH, ARG_SEAT},
    {"state", NULL, "[PATH]", cmd_state, IN_BOTH, ARG_PEEK},
    {"eval", NULL, "EXPR", repl_cmd_eval, IN_BOTH, ARG_NONE},
    {"set", NULL, "PATH VALUE", repl_cmd_set, IN_PLAY, ARG_NONE},
    {"log", NULL, "[N]", cmd_log, IN_BOTH, ARG_NONE},
    {"score", NULL, "", cmd_score, IN_BOTH, ARG_NONE},
    {"rules", "options", "[OPTION]", cmd_rules, IN_BOTH, ARG_OPTION},
    {"history", NULL, "[--peek]", cmd_history, IN_BOTH, ARG_PEEK},
    {"undo", NULL, "[N]", cmd_undo, IN_PLAY, ARG_NONE},
    {"redo", NULL, "[N]", cmd_redo, IN_PLAY, ARG_NONE},
    {"goto", NULL, "N", cmd_goto, IN_BOTH, ARG_NONE},
    {"save", NULL, "[FILE]", cmd_save, IN_PLAY, ARG_FILE},
    {"load", NULL, "FILE", cmd_load, IN_BOTH, ARG_FILE},
    {"export", NULL, "FILE", cmd_export, IN_BOTH, ARG_FILE},
    {"option", NULL, "ID on|off", repl_cmd_option, IN_PLAY, ARG_OPTION},
    {"debug", NULL, "[on|off]", repl_cmd_debug, IN_BOTH, ARG_ONOFF},
    {"trace", NULL, "[on|off]", repl_cmd_trace, IN_BOTH, ARG_ONOFF},
    {"reload", NULL, "", cmd_reload, IN_PLAY, ARG_NONE},
    {"bot", NULL, "SEAT [KIND]", cmd_bot, IN_PLAY, ARG_SEAT},
    {"why", NULL, "[SEAT]", cmd_why, IN_PLAY, ARG_SEAT},
    {"human", NULL, "SEAT", cmd_human, IN_PLAY, ARG_SEAT},
    {"run", NULL, "[N]", cmd_run, IN_PLAY, ARG_NONE},
    {"auto", NULL, "[on|off]", cmd_auto, IN_PLAY, ARG_ONOFF},
    {"new", NULL, "[SEED]", cmd_new, IN_PLAY, ARG_NONE},
    {"restart", NULL, "", cmd_restart, IN_PLAY, ARG_NONE},
    {"seed", NULL, "", cmd_seed, IN_BOTH, ARG_NONE},
    {"shell", "!", "CMD", cmd_shell, IN_BOTH, ARG_FILE},
    {"links", NULL, "", cmd_links, IN_PLAY, ARG_NONE},
    {"quit", "exit", "", cmd_quit, IN_BOTH, ARG_NONE},
    {"next", "n", "[N]", cmd_next, IN_REPLAY, ARG_NONE},
    {"back", "b", "[N]", cmd_back, IN_REPLAY, ARG_NONE},
    {"first", NULL, "", cmd_first, IN_REPLAY, ARG_NONE},
    {"last", NULL, "", cmd_last, IN_REPLAY, ARG_NONE},
    {"play", NULL, "", cmd_play, IN_REPLAY, ARG_NONE},
};

#define N_COMMANDS (sizeof commands / sizeof commands[0])

static int available(const repl *r, const repl_cmd *c) {
    return (c->where & (r->replay ? IN_REPLAY : IN_PLAY)) != 0;
}

static const repl_cmd *find_cmd(const repl *r, const char *name) {
    for (size_t i = 0; i < N_COMMANDS; i++) {
        const repl_cmd *c = &commands[i];
        if (!available(r, c)) continue;
        if (strcmp(c->name, name) == 0 || (c->alias && strcmp(c->alias, name) == 0)) return c;
    }
    return NULL;
}

/* A command of this mode (play or replay; r NULL: play, where answers are
** typed) wins over an option id spelt like it; a command of the other mode
** does not apply here, so the word is an answer (`back` in a game). */
int repl_is_command(const repl *r, const char *word) {
    /* a replay takes no answers: there every command word is one (repl_command explains) */
    int mode = r && r->replay ? IN_BOTH : IN_PLAY;
    for (size_t i = 0; i < N_COMMANDS; i++)
        if ((commands[i].where & mode) &&
            (strcmp(commands[i].name, word) == 0 || (commands[i].alias && strcmp(commands[i].alias, word) == 0)))
            return 1;
    return 0;
}

size_t repl_near_commands(const repl *r, const char *word, const char *out[2]) {
    size_t len = strlen(word), limit = len >= 7 ? 2 : 1, best = SUGGEST_FAR, n = 0;
    if (len < 2) return 0; /* one letter is near every short command */
    for (size_t i = 0; i < N_COMMANDS; i++) {
        if (!available(r, &commands[i])) continue;
        /* an alias of one or two letters (n, b, !) is near too much to hint at */
        const char *names[2] = {commands[i].name,
                                commands[i].alias && strlen(commands[i].alias) > 2 ? commands[i].alias : NULL};
        for (int k = 0; k < 2 && names[k]; k++) {
            size_t d = suggest_distance_swaps(word, names[k]);
            if (d == 0 || d > limit || d > best) continue;
            if (d < best) best = d, n = 0;
            if (n < 2) out[n] = names[k];
            n++;
        }
    }
    return n;
}

size_t repl_play_words(const char **out, size_t max) {
    size_t n = 0;
    for (size_t i = 0; i < N_COMMANDS; i++) {
        if (!(commands[i].where & IN_PLAY)) continue;
        if (n < max) out[n] = commands[i].name;
        n++;
        if (!commands[i].alias) continue;
        if (n < max) out[n] = commands[i].alias;
        n++;
    }
    return n;
}

int repl_command(repl *r, const char *word, const char *args) {
    const repl_cmd *c = find_cmd(r, word);
    if (!c) {
        for (size_t i = 0; i < N_COMMANDS; i++)
            if (strcmp(commands[i].name, word) == 0 || (commands[i].alias && strcmp(commands[i].alias, word) == 0)) {
                repl_fail(r, repl_tr(r, r->replay ? "cmd.only_playing" : "cmd.only_replay"), word);
                return -1;
            }
        return 1;
    }
    return c->run(r, args);
}

/* ------------------------------------------------------------ helpers */

/* A non-negative count from args; dflt when empty. -1 after an error. */
static long count_arg(repl *r, const char *cmd, const char *args, long dflt) {
    if (!args[0]) return dflt;
    char *end;
    long n = strtol(args, &end, 10);
    if (*end || n < 0 || !isdigit((unsigned char)args[0])) {
        repl_fail(r, repl_tr(r, "cmd.number"), cmd, args);
        return -1;
    }
    return n;
}

static int no_args(repl *r, const char *cmd, const char *args) {
    if (!args[0]) return 0;
    repl_fail(r, repl_tr(r, "cmd.no_args"), cmd, args);
    return -1;
}

static size_t log_length(const repl *r) {
    size_t n = 0;
    engine_log(r->e, &n);
    return n;
}

static int seat_is_bot(const repl *r, int seat) {
    return seat >= 1 && seat <= r->n_seats && r->bot[seat];
}

static int any_person(const repl *r) {
    for (int i = 1; i <= r->n_seats; i++)
        if (!r->bot[i]) return 1;
    return 0;
}

/* "Ann: column 4 (drop 4)" as markup, keeping a hidden choice secret. */
static char *describe_logged(const repl *r, const engine_logged *l, int peek) {
    size_t n;
    const engine_logged *log = engine_log(r->e, &n);
    return repl_describe_logged(r, (size_t)(l - log), peek);
}

static void mark_moved(repl *r) {
    r->changed = 1;
    r->dirty = 1;
    r->over_shown = 0;
}

/* ----------------------------------------------------------- commands */

static int help(repl *r, const char *args);

static int cmd_help(repl *r, const char *args) {
    repl_page_begin(r); /* `--More--` on a terminal (repl_pager.c) */
    int rc = help(r, args);
    repl_page_end(r);
    return rc;
}

/* A command's details as paragraphs, to be wrapped at the terminal's width:
** the catalogue breaks its lines for 80 columns, so a line is joined to the
** next unless either is empty or indented (an example, kept on its own
** line). Malloc'd; NULL on OOM. */
static char *reflowed(const char *text) {
    char *out = strdup(text);
    if (!out) return NULL;
    for (char *nl = strchr(out, '\n'); nl; nl = strchr(nl + 1, '\n')) {
        const char *line = nl;
        while (line > out && line[-1] != '\n') line--;
        int this_plain = line < nl && line[0] != ' ';
        int next_plain = nl[1] != '\0' && nl[1] != '\n' && nl[1] != ' ';
        if (this_plain && next_plain) *nl = ' ';
    }
    return out;
}

static int help(repl *r, const char *args) {
    if (args[0]) {
        const repl_cmd *c = find_cmd(r, args);
        if (!c) {
            repl_fail(r, repl_tr(r, "help.no_command"), args);
            return -1;
        }
        repl_plain(r, "`%s%s%s`", c->name, c->args[0] ? " " : "", c->args);
        if (c->alias) repl_plain(r, repl_tr(r, "help.also"), c->alias);
        char key[64];
        snprintf(key, sizeof key, "detail.%s", c->name);
        char *text = reflowed(repl_tr(r, key));
        repl_plain_hanging(r, 0, "%s", text ? text : repl_tr(r, key));
        free(text);
        return 0;
    }
    size_t w = 0;
    for (size_t i = 0; i < N_COMMANDS; i++) {
        if (!available(r, &commands[i])) continue;
        size_t n = strlen(commands[i].name) + 1 + strlen(commands[i].args);
        if (n > w) w = n;
    }
    for (size_t i = 0; i < N_COMMANDS; i++) {
        const repl_cmd *c = &commands[i];
        if (!available(r, c)) continue;
        char head[64];
        snprintf(head, sizeof head, "%s %s", c->name, c->args);
        char key[64];
        snprintf(key, sizeof key, "help.%s", c->name);
        /* a description too long for the terminal wraps under itself, not
        ** under the command names (German and Greek ones are longer) */
        repl_plain_hanging(r, (int)w + 4, "  %-*s  %s", (int)w, head, repl_tr(r, key));
    }
    if (r->replay)
        repl_plain(r, "%s", repl_tr(r, "help.replay"));
    else
        repl_plain(r, "%s", repl_tr(r, "help.decide"));
    return 0;
}

static int cmd_show(repl *r, const char *args) {
    int seat = r->viewer;
    if (args[0] && (seat = repl_parse_seat(r, args, 1)) < 0) return -1;
    if (seat != r->viewer && seat != 0 && r->secret) {
        char *what = cairn_strfmt(repl_tr(r, "confirm.seat_secrets"), repl_seat_name(r, seat));
        int go = repl_confirm_secrets(r, what ? what : repl_tr(r, "confirm.other_secrets"));
        free(what);
        if (!go) return 0;
        repl_say(r, 0, repl_tr(r, "confirm.as_seat"), repl_seat_name(r, seat));
    }
    repl_show_board(r, seat);
    return 0;
}

static int cmd_view(repl *r, const char *args) {
    if (!args[0]) {
        repl_plain(r, repl_tr(r, "view.now"), repl_seat_name(r, r->viewer));
        return 0;
    }
    int seat = repl_parse_seat(r, args, 1);
    if (seat < 0) return -1;
    if (seat != r->viewer && seat != 0 && r->secret && !r->replay) {
        char *what = cairn_strfmt(repl_tr(r, "confirm.seat_secrets"), repl_seat_name(r, seat));
        int go = repl_confirm_secrets(r, what ? what : repl_tr(r, "confirm.other_secrets"));
        free(what);
        if (!go) return 0;
        repl_say(r, 0, repl_tr(r, "confirm.as_seat"), repl_seat_name(r, seat));
    }
    r->viewer = seat;
    repl_plain(r, repl_tr(r, "view.changed"), repl_seat_name(r, seat));
    repl_show_events(r, seat);
    repl_show_board(r, seat);
    return 0;
}

static int print_yaml(repl *r, const value *v) {
    char *y = value_to_yaml(v);
    if (!y) {
        repl_fail(r, "%s", repl_tr(r, "error.oom"));
        return -1;
    }
    fputs(y, r->out);
    if (y[0] && y[strlen(y) - 1] != '\n') fputc('\n', r->out);
    free(y);
    return 0;
}

static int cmd_state(repl *r, const char *args) {
    if (strcmp(args, "--peek") == 0) {
        if (!repl_confirm_secrets(r, repl_tr(r, "confirm.whole_state"))) return 0;
        repl_say(r, 0, "%s", repl_tr(r, "confirm.peek"));
        return print_yaml(r, engine_state(r->e));
    }
    if (args[0]) return repl_state_path(r, args); /* repl_inspect.c */
    value *v = engine_view(r->e, r->viewer);
    if (!v) {
        repl_fail(r, "%s", repl_tr(r, "error.oom"));
        return -1;
    }
    repl_plain(r, repl_tr(r, "state.as_seat"), repl_seat_name(r, r->viewer));
    int rc = print_yaml(r, v);
    value_free(v);
    return rc;
}

static int cmd_log(repl *r, const char *args) {
    long last = count_arg(r, "log", args, 0);
    if (last < 0) return -1;
    engine_event_list ev = {0};
    if (engine_events(r->e, 0, r->viewer, &ev) != 0) {
        repl_fail(r, "%s", repl_tr(r, "error.oom"));
        return -1;
    }
    size_t from = last > 0 && (size_t)last < ev.n ? ev.n - (size_t)last : 0;
    if (ev.n == 0) repl_plain(r, "%s", repl_tr(r, "log.none"));
    for (size_t i = from; i < ev.n; i++) repl_say(r, 6, "%4zu  %s", ev.items[i].decision, ev.items[i].text);
    engine_event_list_free(&ev);
    return 0;
}

static int cmd_score(repl *r, const char *args) {
    if (no_args(r, "score", args)) return -1;
    repl_show_scores(r, engine_is_over(r->e));
    return 0;
}

static int cmd_rules(repl *r, const char *args) {
    repl_page_begin(r); /* `--More--` on a terminal (repl_pager.c) */
    int rc = repl_show_rules(r, args);
    repl_page_end(r);
    return rc;
}

static int cmd_look(repl *r, const char *args) {
    if (no_args(r, "look", args) != 0) return -1;
    repl_show_current(r);
    return 0;
}

static int cmd_links(repl *r, const char *args) {
    if (no_args(r, "links", args) != 0) return -1;
    return repl_serve_links(r);
}

static int cmd_history(repl *r, const char *args) {
    /* a replay watched as a spectator is an analysis after the game: no secrets */
    int peek = strcmp(args, "--peek") == 0 || (r->replay && r->viewer == 0);
    if (args[0] && !peek) {
        repl_fail(r, repl_tr(r, "history.args"), args);
        return -1;
    }
    if (args[0] && !repl_confirm_secrets(r, repl_tr(r, "confirm.history_peek"))) return 0;
    size_t n;
    const engine_logged *log = engine_log(r->e, &n);
    size_t pos = engine_position(r->e);
    if (n == 0) {
        repl_plain(r, "%s", repl_tr(r, "history.none"));
        return 0;
    }
    if (pos == 0) repl_plain(r, "%s", repl_tr(r, "history.start"));
    for (size_t i = 0; i < n; i++) {
        char *d = describe_logged(r, &log[i], peek);
        if (i < pos)
            repl_say(r, 7, "%4zu  %s%s", i + 1, d ? d : "?", i + 1 == pos ? "  <" : "");
        else
            repl_say(r, 7, "{dim}%4zu  %s  (%s){/}", i + 1, d ? d : "?", repl_tr(r, r->replay ? "history.to_come" : "history.undone"));
        free(d);
    }
    return 0;
}

/* The position undo_once would go back to, or (size_t)-1 for none. */
static size_t undo_target(const repl *r) {
    size_t n;
    const engine_logged *log = engine_log(r->e, &n);
    size_t target = engine_position(r->e);
    if (any_person(r))
        while (target > 0 && seat_is_bot(r, log[target - 1].seat)) target--;
    return target == 0 ? (size_t)-1 : target - 1;
}

/* Takes back one person's decision and the bots' after it. Returns the
** entry undone last (a person's), or NULL when there was nothing. */
static const engine_logged *undo_once(repl *r) {
    size_t n;
    const engine_logged *log = engine_log(r->e, &n);
    size_t target = engine_position(r->e); /* just after the last person's decision */
    if (any_person(r))
        while (target > 0 && seat_is_bot(r, log[target - 1].seat)) target--;
    if (target == 0) return NULL;
    while (engine_position(r->e) > target - 1)
        if (engine_undo(r->e) != 0) return NULL;
    log = engine_log(r->e, &n);
    return &log[target - 1];
}

static int cmd_undo(repl *r, const char *args) {
    long k = count_arg(r, "undo", args, 1);
    if (k < 0) return -1;
    size_t n;
    const engine_logged *log = engine_log(r->e, &n);
    size_t pos = engine_position(r->e);
    while (pos > 0 && any_person(r) && seat_is_bot(r, log[pos - 1].seat)) pos--;
    if (pos == 0) {
        repl_fail(r, "%s", repl_tr(r, engine_position(r->e) == 0 ? "undo.nothing_start" : "undo.nothing_person"));
        return -1;
    }
    size_t from = engine_position(r->e), first = (size_t)-1;
    for (long i = 0; i < k; i++) {
        size_t back = undo_target(r);
        char *refused = back == (size_t)-1 ? NULL : undo_policy_refusal(r, back);
        if (refused) {
            repl_fail(r, repl_tr(r, "undo.refused"), refused);
            free(refused);
            if (i == 0) return -1;
            break;
        }
        const engine_logged *l = undo_once(r);
        if (!l) break;
        first = (size_t)(l - engine_log(r->e, &n));
        char *d = describe_logged(r, l, 0);
        repl_say(r, 2, repl_tr(r, "undo.undone"), d ? d : "?");
        free(d);
    }
    repl_plain(r, repl_tr(r, "undo.at"), engine_position(r->e), log_length(r));
    if (first != (size_t)-1) {
        /* undos one after the other by one seat are told as one */
        const repl_undo_note *u = &r->undone;
        size_t before = u->by == r->viewer && u->at == from && u->len == log_length(r) ? u->taken : 0;
        r->undone = (repl_undo_note){r->viewer, engine_position(r->e), log_length(r),
                                     before + from - engine_position(r->e), first};
    }
    mark_moved(r);
    return 0;
}

static int cmd_redo(repl *r, const char *args) {
    long k = count_arg(r, "redo", args, 1);
    if (k < 0) return -1;
    size_t n;
    const engine_logged *log = engine_log(r->e, &n);
    if (engine_position(r->e) >= n) {
        repl_fail(r, "%s", repl_tr(r, "redo.nothing"));
        return -1;
    }
    for (long i = 0; i < k && engine_position(r->e) < n; i++) {
        size_t pos = engine_position(r->e);
        char *d = describe_logged(r, &log[pos], 0);
        if (engine_redo(r->e) != 0) {
            free(d);
            repl_fail(r, repl_tr(r, "redo.failed"), pos + 1);
            break;
        }
        repl_say(r, 2, repl_tr(r, "redo.redone"), d ? d : "?");
        free(d);
        log = engine_log(r->e, &n);
        while (any_person(r) && engine_position(r->e) < n && seat_is_bot(r, log[engine_position(r->e)].seat)) {
            if (engine_redo(r->e) != 0) break;
            log = engine_log(r->e, &n);
        }
    }
    repl_plain(r, repl_tr(r, "undo.at"), engine_position(r->e), n);
    mark_moved(r);
    return 0;
}

/* Below a replay's board: the scores, at the end of a finished game. */
static void below_replay(repl *r, int seat) {
    (void)seat;
    if (engine_is_over(r->e) && engine_position(r->e) == log_length(r)) repl_show_scores(r, 1);
}

/* The screen after a replay's step or jump, as a turn's is made
** (repl_show_turn_screen): the board fitted to the terminal, then what was
** said into `head` since repl_capture_begin (the decision replayed, or
** where the replay is; printed already when it could not be kept), the
** events since and, at the end of a finished game, the scores, all just
** above the prompt, where the eye is when Enter steps. */
static void replay_screen(repl *r, repl_capture *head) {
    size_t len;
    char *said = repl_capture_end(r, head, &len);
    r->news_head = said;
    r->news_head_len = len;
    repl_show_turn_screen(r, r->viewer, below_replay);
    r->news_head = NULL;
    r->news_head_len = 0;
    free(said);
}

static int replay_jump(repl *r, size_t to);

static int cmd_goto(repl *r, const char *args) {
    if (!args[0]) {
        repl_fail(r, repl_tr(r, "goto.which"), log_length(r));
        return -1;
    }
    long k = count_arg(r, "goto", args, 0);
    if (k < 0) return -1;
    size_t n = log_length(r);
    if ((size_t)k > n) {
        repl_fail(r, repl_tr(r, "goto.no_such"), k, n);
        return -1;
    }
    size_t from = engine_position(r->e);
    char *refused = undo_policy_refusal(r, (size_t)k);
    if (refused) {
        repl_fail(r, repl_tr(r, "goto.refused"), k, refused);
        free(refused);
        return -1;
    }
    cerr_list errs;
    cerr_init(&errs, 0);
    if (engine_goto_why(r->e, (size_t)k, &errs) != 0) {
        char *why = errs.n ? repl_error_text(r, &errs.items[0]) : NULL;
        repl_fail(r, repl_tr(r, "goto.redo_failed"), engine_position(r->e) + 1,
                  why ? why : repl_tr(r, "goto.rules_refused"), engine_position(r->e));
        free(why);
        cerr_free(&errs);
        if (engine_position(r->e) != from) mark_moved(r);
        return -1;
    }
    cerr_free(&errs);
    mark_moved(r);
    if (r->replay) return replay_jump(r, (size_t)k);
    repl_plain(r, repl_tr(r, "undo.at"), engine_position(r->e), n);
    return 0;
}

static int cmd_save(repl *r, const char *args) {
    const char *path = args[0] ? args : r->save_path;
    char *offered = NULL; /* no file yet: the default name (repl_files.c) */
    if (!path) {
        if (!(offered = repl_default_save_name(r))) {
            repl_fail(r, "%s", repl_tr(r, "save.where"));
            return -1;
        }
        if (r->interactive) {
            char *q = cairn_strfmt(repl_tr(r, "save.as"), offered);
            int eof;
            char *line = repl_ask(r, q ? q : "Save as: ", &eof);
            free(q);
            char *t = line ? line + strspn(line, " \t") : NULL;
            if (!t) {
                free(offered);
                repl_plain(r, "%s", repl_tr(r, "save.not_saved"));
                return 0;
            }
            if (*t) {
                free(offered);
                offered = strdup(t);
            }
            free(line);
            if (!offered) return -1;
        }
        path = offered;
    }
    char *bad = repl_save_folder_problem(r, path);
    if (!bad && !repl_may_overwrite(r, path)) { /* a file of another game: asked (repl_keep.c) */
        free(offered);
        return -1;
    }
    cerr_list errs;
    cerr_init(&errs, 0);
    if (bad || save_write(r->e, path, &errs) != 0) {
        char *s = bad ? bad : errs.n ? repl_error_text(r, &errs.items[0]) : NULL;
        repl_fail(r, repl_tr(r, "save.failed"), bad ? path : "", bad ? ": " : "", s ? s : path);
        free(s);
        cerr_free(&errs);
        free(offered);
        return -1;
    }
    cerr_free(&errs);
    char *where = repl_save_where(path);
    char *in = where && where[0] ? cairn_strfmt(repl_tr(r, "save.in"), where + strlen(" in ")) : NULL;
    repl_plain(r, repl_tr(r, "save.saved"), path, in ? in : "", engine_position(r->e));
    free(in);
    free(where);
    r->dirty = 0;
    if (path != r->save_path) { /* path may be r->save_path itself: keep it */
        char *p = strdup(path);
        if (p) {
            free(r->save_path);
            r->save_path = p;
        }
    }
    free(offered);
    return 0;
}

/* Takes the settings of a loaded game, so `new` and `restart` make the
** same kind of game. Returns 0 or -1 on OOM. */
static int settings_from_engine(repl *r, engine *e) {
    repl_settings s = {0};
    const ruleset *rs = engine_ruleset(e);
    size_t nc = 0;
    const char *const *ch = engine_choices(e, &nc);
    int n = engine_seat_count(e);
    int oom = !(s.ruleset = strdup(rs->dir));
    s.choices = calloc(nc ? nc : 1, sizeof *s.choices);
    s.name_seat = calloc((size_t)n + 1, sizeof *s.name_seat);
    s.name_val = calloc((size_t)n + 1, sizeof *s.name_val);
    s.bot_seat = calloc((size_t)n + 1, sizeof *s.bot_seat);
    s.bot_val = calloc((size_t)n + 1, sizeof *s.bot_val);
    oom |= !s.choices || !s.name_seat || !s.name_val || !s.bot_seat || !s.bot_val;
    for (size_t i = 0; !oom && i < nc; i++) oom |= !(s.choices[s.n_choices++] = strdup(ch[i]));
    size_t ns = 0;
    const char *const *sets = engine_sets(e, &ns); /* --set of the loaded game */
    if (!oom && !(s.sets = calloc(ns ? ns : 1, sizeof *s.sets))) oom = 1;
    for (size_t i = 0; !oom && i < ns; i++) oom |= !(s.sets[s.n_sets++] = strdup(sets[i]));
    if (!oom && engine_preset(e)) oom |= !(s.preset = strdup(engine_preset(e)));
    if (!oom && engine_lang(e)) oom |= !(s.lang = strdup(engine_lang(e)));
    for (int i = 1; !oom && i <= n; i++) {
        s.name_seat[s.n_names] = i;
        oom |= !(s.name_val[s.n_names++] = strdup(repl_seat_name(r, i)));
        if (!oom && engine_seat_bot(e, i)) {
            s.bot_seat[s.n_bots] = i;
            oom |= !(s.bot_val[s.n_bots++] = strdup(engine_seat_bot(e, i)));
        }
    }
    s.players = n;
    s.seed = engine_seed(e);
    repl_settings old = r->set;
    r->set = s;
    /* free whichever set is not kept */
    repl_settings *drop = oom ? &r->set : &old;
    free(drop->ruleset);
    for (size_t i = 0; i < drop->n_choices; i++) free(drop->choices[i]);
    free(drop->choices);
    for (size_t i = 0; i < drop->n_sets; i++) free(drop->sets[i]);
    free(drop->sets);
    free(drop->preset);
    for (size_t i = 0; i < drop->n_names; i++) free(drop->name_val[i]);
    free(drop->name_seat);
    free(drop->name_val);
    for (size_t i = 0; i < drop->n_bots; i++) free(drop->bot_val[i]);
    free(drop->bot_seat);
    free(drop->bot_val);
    free(drop->lang);
    if (oom) r->set = old;
    return oom ? -1 : 0;
}

/* A save names a ruleset folder neither on the search path nor beside
** it: its Lua would run. The person at the keyboard decides (scripts need
** --trust). */
static int ask_trust(void *ud, const char *folder) {
    repl *r = ud;
    if (r->script) return 0;
    repl_say(r, 0, repl_tr(r, "load.trust"), folder);
    return repl_confirm(r, repl_tr(r, "load.trust_ask"));
}

static int cmd_load(repl *r, const char *args) {
    int scenario = 0;
    if (strncmp(args, "--scenario", 10) == 0 && (args[10] == ' ' || args[10] == '\0')) {
        scenario = 1;
        args += 10;
        while (*args == ' ') args++;
    }
    if (!args[0]) {
        repl_fail(r, "%s", repl_tr(r, "load.which"));
        return -1;
    }
    char *not_save = scenario ? NULL : repl_not_a_save(r, args);
    if (not_save) {
        repl_fail(r, repl_tr(r, r->e ? "load.cannot_kept" : "load.cannot"), args, not_save);
        free(not_save);
        return -1;
    }
    cerr_list errs;
    cerr_init(&errs, 0);
    char *note = NULL;
    save_load_opts opts = {0};
    opts.as_scenario = scenario;
    opts.trust = r->trust;
    opts.ask_trust = ask_trust;
    opts.ask_ud = r;
    save_load_facts facts = {0};
    opts.facts = &facts;
    engine *e = save_load(args, &opts, &note, &errs);
    if (e && (facts.as_scenario || facts.unseated)) { /* the note in the game's language */
        char *worded = cairn_strdup(facts.as_scenario ? repl_tr(r, "load.note_scenario") : "");
        if (worded && facts.unseated) {
            char *seats = cairn_strfmt(repl_trn(r, "load.note_unseated", (long long)facts.unseated), facts.unseated);
            char *both = seats ? cairn_strfmt("%s%s%s", worded, *worded ? repl_tr(r, "list.sep") : "", seats) : NULL;
            free(seats);
            free(worded);
            worded = both;
        }
        if (worded) {
            free(note);
            note = worded;
        }
    }
    if (!e && scenario) {
        /* not a save: maybe a scenario written by `export` */
        cerr_list errs2;
        cerr_init(&errs2, 0);
        engine_config cfg = {0};
        cfg.seed = r->set.seed;
        cfg.trust = r->trust;
        /* the session's --lang and --set win over the file's */
        cfg.lang = r->set.lang;
        cfg.sets = (const char *const *)r->set.sets;
        cfg.n_sets = r->set.n_sets;
        e = save_start_scenario(args, &cfg, &errs2);
        if (e) {
            cerr_clear(&errs);
            free(note);
            note = cairn_strdup(repl_tr(r, "load.from_scenario"));
        } else if (errs.n && errs2.n && strcmp(errs.items[0].message, errs2.items[0].message) != 0) {
            /* both readings failed differently: say why for each */
            cerr_addk(&errs, NULL, 0, 0, NULL, "repl.and_scenario", "and as a scenario:");
            cerr_merge(&errs, &errs2);
        }
        cerr_free(&errs2);
    }
    if (!e) {
        repl_fail(r, repl_tr(r, r->e ? "load.cannot_list_kept" : "load.cannot_list"), args);
        for (size_t i = 0; i < errs.n; i++) {
            char *s = repl_error_text(r, &errs.items[i]);
            repl_plain(r, "  %s", s ? s : errs.items[i].message);
            free(s);
        }
        cerr_free(&errs);
        free(note);
        return -1;
    }
    cerr_free(&errs);
    if (!repl_keep_game(r, "keep.loading", 0)) { /* the game in memory has decisions not saved */
        engine_free(e);
        free(note);
        return 0;
    }
    if (repl_adopt_engine(r, e) != 0 || settings_from_engine(r, e) != 0) {
        if (r->e != e) engine_free(e);
        free(note);
        repl_fail(r, "%s", repl_tr(r, "error.oom"));
        return -1;
    }
    /* the file holds this game, unless it was only its start (--scenario) */
    char *p = scenario ? NULL : strdup(args);
    free(r->save_path);
    r->save_path = p;
    if (r->replay) {
        size_t n = log_length(r);
        engine_goto(r->e, 0);
        r->viewer = 0;
        const ruleset *rs = engine_ruleset(r->e);
        /* what is replayed, said on the first screen under its board */
        repl_capture head;
        repl_capture_begin(r, &head);
        repl_say(r, 2, repl_trn(r, "replay.head", (long long)n), rs->name, rs->version, r->n_seats,
                 (unsigned long long)engine_seed(r->e), n);
        if (note) repl_plain(r, "(%s)", note);
        repl_plain(r, repl_tr(r, "replay.start"), args);
        replay_screen(r, &head);
    } else {
        repl_plain(r, repl_tr(r, "load.loaded"), args, engine_position(r->e), log_length(r));
        if (note) repl_plain(r, "(%s)", note);
        /* what happened before the load is not news: show only the board */
        repl_mark_all_seen(r);
        repl_start(r);
        r->changed = 0;
    }
    free(note);
    return 0;
}

static int cmd_export(repl *r, const char *args) {
    if (!args[0]) {
        repl_fail(r, "%s", repl_tr(r, "export.which"));
        return -1;
    }
    cerr_list errs;
    cerr_init(&errs, 0);
    if (save_export_scenario(r->e, args, &errs) != 0) {
        char *s = errs.n ? repl_error_text(r, &errs.items[0]) : NULL;
        repl_fail(r, repl_tr(r, "export.failed"), s ? s : args);
        free(s);
        cerr_free(&errs);
        return -1;
    }
    cerr_free(&errs);
    repl_plain(r, repl_tr(r, "export.wrote"),
               engine_position(r->e), args, args);
    return 0;
}

static void report_file_changes(repl *r, const repl_file *old, size_t n_old, const repl_file *cur, size_t n_cur) {
    size_t i = 0, j = 0, changes = 0;
    markup_buf b = {0};
    while (i < n_old || j < n_cur) {
        int c = i >= n_old ? 1 : j >= n_cur ? -1 : strcmp(old[i].path, cur[j].path);
        if (c < 0) {
            markup_buf_puts(&b, changes++ ? ", " : "");
            markup_buf_printf(&b, repl_tr(r, "reload.removed"), old[i].path);
            i++;
        } else if (c > 0) {
            markup_buf_puts(&b, changes++ ? ", " : "");
            markup_buf_printf(&b, repl_tr(r, "reload.new"), cur[j].path);
            j++;
        } else {
            if (old[i].hash != cur[j].hash) markup_buf_printf(&b, "%s%s", changes++ ? ", " : "", cur[j].path);
            i++;
            j++;
        }
    }
    char *s = markup_buf_take(&b);
    if (changes)
        repl_plain(r, repl_tr(r, "reload.changed"), s ? s : "?");
    else
        repl_plain(r, "%s", repl_tr(r, "reload.no_change"));
    free(s);
}

/* Ctrl-C (typed input only) or SIGTERM/SIGHUP stop a replay between two decisions. */
static int reload_stop(void *ud) {
    repl *r = ud;
    return repl_signal_ending() || (!r->script && lineedit_interrupted());
}

static int cmd_reload(repl *r, const char *args) {
    if (no_args(r, "reload", args)) return -1;
    engine_reload_report rep = {0};
    cerr_list errs;
    cerr_init(&errs, 0);
    if (engine_reload_until(r->e, reload_stop, r, &rep, &errs) != 0) {
        repl_fail(r, "%s", repl_tr(r, "reload.failed"));
        for (size_t i = 0; i < errs.n; i++) {
            char *s = repl_error_text(r, &errs.items[i]);
            repl_plain(r, "  %s", s ? s : errs.items[i].message);
            free(s);
        }
        if (errs.dropped) {
            char *more = cairn_strfmt(repl_trn(r, "errors.more", (long long)errs.dropped), errs.dropped);
            repl_plain(r, "  %s", more ? more : "?");
            free(more);
        }
        cerr_free(&errs);
        engine_reload_report_free(&rep);
        return -1;
    }
    cerr_free(&errs);
    repl_file *files = NULL;
    size_t n_files = 0;
    repl_snapshot_files(r, &files, &n_files);
    report_file_changes(r, r->files, r->n_files, files, n_files);
    repl_free_files(r->files, r->n_files);
    r->files = files;
    r->n_files = n_files;
    repl_report_replay(r, &rep);
    engine_reload_report_free(&rep);
    return 0;
}

/* The engine's reason for a replay that stopped names the decision first
** ("decision 5 (seat 2, \"take\"): why", engine_history.c): the console
** says which decision in the game's language, and the reason after it. */
static const char *reason_after_decision(const engine_reload_report *rep) {
    if (!rep->reason || !rep->id) return rep->reason;
    char *head = cairn_strfmt("decision %zu (seat %d, \"%s\"): ", rep->replayed + 1, rep->seat, rep->id);
    size_t n = head ? strlen(head) : 0;
    const char *tail = head && strncmp(rep->reason, head, n) == 0 ? rep->reason + n : rep->reason;
    free(head);
    return tail;
}

void repl_report_replay(repl *r, const engine_reload_report *rep) {
    if (rep->stopped) {
        const char *why = reason_after_decision(rep);
        char *worded = NULL; /* the engine's own reason in the game's language */
        if (why && rep->reason_key) {
            cairn_error e = {.message = (char *)why, .key = rep->reason_key,
                             .args = {rep->reason_args[0], rep->reason_args[1]}};
            if ((worded = repl_error_message_in(repl_lang(r), &e))) why = worded;
        }
        if (!rep->id) {
            repl_plain(r, repl_tr(r, "replay.stopped"), why ? why : repl_tr(r, "replay.refused"));
        } else {
            /* the decision as `history` tells it: another seat's secret choice stays secret */
            char *which = repl_describe_logged(r, rep->replayed, 0);
            repl_plain(r, repl_tr(r, "replay.stopped_at"), rep->replayed + 1, rep->total, which ? which : "?",
                       why ? why : repl_tr(r, "replay.refused"));
            free(which);
        }
        repl_plain(r, repl_tr(r, "replay.kept"), rep->replayed);
        free(worded);
    } else if (!r->script) {
        char secs[REPL_DECIMAL_MAX];
        repl_plain(r, repl_trn(r, "reload.replayed_in", (long long)rep->replayed), rep->replayed,
                   repl_decimal(r, rep->seconds, 3, secs));
    } else {
        repl_plain(r, repl_trn(r, "reload.replayed", (long long)rep->replayed), rep->replayed);
    }
    /* the edit may have added or removed visibility rules: the keyboard
    ** passing, secret history and per-seat logs follow the rules now in force */
    int secret = ruleset_has_secrets(engine_ruleset(r->e));
    if (secret && !r->secret)
        for (int i = 1; i <= r->n_seats; i++) {
            r->seen[i] = r->seen[0];
            r->seen_pos[i] = r->seen_pos[0];
        }
    if (secret != r->secret) {
        r->secret = secret;
        r->viewer = 0; /* the next person to decide gets the keyboard passed */
        repl_plain(r, "%s", repl_tr(r, secret ? "reload.secrets_on" : "reload.secrets_off"));
    }
    r->changed = 1;
    r->over_shown = 0;
}

/* Keeps the settings in step with a seat's kind, for `new` and `restart`. */
static int settings_set_bot(repl *r, int seat, const char *kind) {
    repl_settings *s = &r->set;
    s->players = r->n_seats;
    for (size_t i = 0; i < s->n_bots; i++) {
        if (s->bot_seat[i] != seat) continue;
        free(s->bot_val[i]);
        s->bot_val[i] = NULL;
        s->n_bots--;
        s->bot_seat[i] = s->bot_seat[s->n_bots];
        s->bot_val[i] = s->bot_val[s->n_bots];
        break;
    }
    if (!kind) return 0;
    int *bs = realloc(s->bot_seat, (s->n_bots + 1) * sizeof *bs);
    if (!bs) return -1;
    s->bot_seat = bs;
    char **bv = realloc(s->bot_val, (s->n_bots + 1) * sizeof *bv);
    if (!bv) return -1;
    s->bot_val = bv;
    if (!(bv[s->n_bots] = strdup(kind))) return -1;
    bs[s->n_bots++] = seat;
    return 0;
}

/* The first seat a person plays, or 0. */
static int first_person(const repl *r) {
    for (int i = 1; i <= r->n_seats; i++)
        if (!r->bot[i]) return i;
    return 0;
}

static int cmd_bot(repl *r, const char *args) {
    char seat_s[64] = "", kind[256] = "random";
    if (sscanf(args, "%63s", seat_s) < 1) {
        repl_fail(r, "%s", repl_tr(r, "bot.which"));
        return -1;
    }
    /* KIND is the rest of the line: an outside program's command has blanks */
    const char *rest = args + strspn(args, " \t");
    rest += strcspn(rest, " \t");
    rest += strspn(rest, " \t");
    size_t klen = strlen(rest);
    while (klen && (rest[klen - 1] == ' ' || rest[klen - 1] == '\t')) klen--;
    if (klen >= sizeof kind) {
        repl_fail(r, repl_tr(r, "bot.too_long"), sizeof kind - 1);
        return -1;
    }
    if (klen) memcpy(kind, rest, klen), kind[klen] = '\0';
    int seat = repl_parse_seat(r, seat_s, 0);
    if (seat < 0) return -1;
    cerr_list errs;
    cerr_init(&errs, 0);
    bot *probe = bot_new(kind, &errs);
    if (probe && bot_check(probe, r->e, &errs) != 0) {
        bot_free(probe);
        probe = NULL;
    }
    bot_free(probe);
    if (!probe) {
        char *m = errs.n ? repl_error_text(r, &errs.items[0]) : NULL;
        repl_fail(r, "%s", m ? m : repl_tr(r, "error.oom"));
        free(m);
        cerr_free(&errs);
        return -1;
    }
    cerr_free(&errs);
    char *k = strdup(kind);
    if (!k || settings_set_bot(r, seat, kind) != 0 || engine_set_seat_bot(r->e, seat, kind) != 0) {
        free(k);
        repl_fail(r, "%s", repl_tr(r, "error.oom"));
        return -1;
    }
    free(r->bot[seat]);
    r->bot[seat] = k;
    r->dirty = 1; /* saves record who plays each seat */
    repl_plain(r, repl_tr(r, "bot.plays"), repl_seat_name(r, seat), kind);
    if (r->viewer == seat) /* nobody's screen now: the next person gets the keyboard passed */
        r->viewer = r->secret ? 0 : first_person(r);
    if (r->auto_bots && engine_is_asked(r->e, seat)) repl_run_bots(r, 0);
    r->changed = 1;
    return 0;
}

/* The seat of the last decision a bot made, or 0. */
static int last_bot_seat(const repl *r) {
    size_t n;
    const engine_logged *log = engine_log(r->e, &n);
    for (size_t i = engine_position(r->e); i > 0; i--)
        if (seat_is_bot(r, log[i - 1].seat)) return log[i - 1].seat;
    return 0;
}

/* The bot seat whose last choice (repl_why.c) is the latest now, else the last bot that moved. */
static int last_choice_seat(const repl *r) {
    int best = 0;
    size_t best_at = 0;
    for (int s = 1; s <= r->n_seats; s++) {
        int found;
        size_t at = repl_why_latest(r, s, &found);
        if (found && (!best || at > best_at)) best = s, best_at = at;
    }
    return best ? best : last_bot_seat(r);
}

static int cmd_why(repl *r, const char *args) {
    int seat = args[0] ? repl_parse_seat(r, args, 0) : last_choice_seat(r);
    if (seat < 0) return -1;
    if (seat == 0 || !seat_is_bot(r, seat)) {
        if (seat)
            repl_fail(r, repl_tr(r, "why.person"), repl_seat_name(r, seat));
        else
            repl_fail(r, "%s", repl_tr(r, "why.no_bot"));
        return -1;
    }
    return repl_why_show(r, seat); /* repl_why.c */
}

static int cmd_human(repl *r, const char *args) {
    if (!args[0]) {
        repl_fail(r, "%s", repl_tr(r, "human.which"));
        return -1;
    }
    int seat = repl_parse_seat(r, args, 0);
    if (seat < 0) return -1;
    if (settings_set_bot(r, seat, NULL) != 0 || engine_set_seat_bot(r->e, seat, NULL) != 0) {
        repl_fail(r, "%s", repl_tr(r, "error.oom"));
        return -1;
    }
    free(r->bot[seat]);
    r->bot[seat] = NULL;
    r->dirty = 1; /* saves record who plays each seat */
    repl_plain(r, repl_tr(r, "human.plays"), repl_seat_name(r, seat));
    r->changed = 1;
    return 0;
}

static int cmd_run(repl *r, const char *args) {
    long k = count_arg(r, "run", args, 0);
    if (k < 0) return -1;
    if (engine_is_over(r->e)) {
        repl_fail(r, "%s", repl_tr(r, "run.over"));
        return -1;
    }
    size_t n = repl_run_bots(r, (size_t)k);
    if (n == 0) repl_plain(r, "%s", repl_tr(r, "run.no_bot"));
    return 0;
}

static int cmd_auto(repl *r, const char *args) {
    if (strncmp(args, "forced", 6) == 0 && (args[6] == ' ' || !args[6])) return repl_cmd_auto_forced(r, args + 6);
    if (strcmp(args, "on") == 0)
        r->auto_bots = 1;
    else if (strcmp(args, "off") == 0)
        r->auto_bots = 0;
    else if (args[0]) {
        repl_fail(r, repl_tr(r, "switch.bad"), "auto", args);
        return -1;
    }
    repl_plain(r, "%s", repl_tr(r, r->auto_bots ? "auto.on" : "auto.off"));
    return 0;
}

static int restart_with_seed(repl *r, uint64_t seed) {
    uint64_t old = r->set.seed;
    r->set.seed = seed;
    /* the seats as they are now, with the names they have */
    r->set.players = r->n_seats;
    if (repl_new_game(r) != 0) {
        r->set.seed = old;
        return -1;
    }
    free(r->save_path); /* another game: it has no file yet, and `save` must not offer the old one's */
    r->save_path = NULL;
    repl_start(r);
    r->changed = 0;
    return 0;
}

static int cmd_new(repl *r, const char *args) {
    uint64_t seed;
    if (args[0]) {
        char *end;
        errno = 0;
        seed = strtoull(args, &end, 10);
        if (*end || !isdigit((unsigned char)args[0]) || errno == ERANGE) {
            repl_fail(r, repl_tr(r, "new.bad_seed"), args);
            return -1;
        }
    } else {
        seed = repl_fresh_seed(r);
    }
    if (!repl_keep_game(r, "keep.new", 0)) return 0;
    return restart_with_seed(r, seed);
}

static int cmd_restart(repl *r, const char *args) {
    if (no_args(r, "restart", args)) return -1;
    char *refused = undo_policy_refusal(r, 0);
    if (refused) {
        repl_fail(r, repl_tr(r, "restart.refused"), refused);
        free(refused);
        return -1;
    }
    if (!repl_keep_game(r, "keep.restart", 0)) return 0;
    return restart_with_seed(r, engine_seed(r->e));
}

static int cmd_seed(repl *r, const char *args) {
    if (no_args(r, "seed", args)) return -1;
    markup_buf b = {0};
    markup_buf_printf(&b, "cairn play %s --players %d --seed %llu", engine_ruleset(r->e)->id, r->n_seats,
                      (unsigned long long)engine_seed(r->e));
    size_t nc;
    const char *const *ch = engine_choices(r->e, &nc);
    for (size_t i = 0; i < nc; i++) markup_buf_printf(&b, " --option %s", ch[i]);
    if (engine_preset(r->e)) markup_buf_printf(&b, " --preset %s", engine_preset(r->e));
    size_t ns;
    const char *const *sets = engine_sets(r->e, &ns);
    for (size_t i = 0; i < ns; i++) markup_buf_printf(&b, strpbrk(sets[i], " '\"$`\\{}[]") ? " --set '%s'" : " --set %s", sets[i]);
    for (int i = 1; i <= r->n_seats; i++) {
        /* a seat without --name has the console's default in the game's
        ** language ("Platz 2"), which is no name to give again: in another
        ** language the seat would be "Platz 2" still */
        char dflt[64];
        snprintf(dflt, sizeof dflt, repl_text_in(engine_lang(r->e), "seat.default", 0), i);
        const char *name = repl_seat_name(r, i);
        if (strcmp(name, dflt) != 0)
            markup_buf_printf(&b, strpbrk(name, " '\"$`\\") ? " --name '%d=%s'" : " --name %d=%s", i, name);
        if (r->bot[i]) markup_buf_printf(&b, " --bot %d=%s", i, r->bot[i]);
    }
    char *cmd = markup_buf_take(&b);
    repl_plain(r, repl_tr(r, "seed.show"), (unsigned long long)engine_seed(r->e), cmd ? cmd : "?");
    free(cmd);
    return 0;
}

static int cmd_shell(repl *r, const char *args) {
    if (!args[0]) {
        repl_fail(r, "%s", repl_tr(r, "shell.which"));
        return -1;
    }
    fflush(r->out);
    fflush(stderr);
    int st = system(args);
    if (st == -1) {
        repl_fail(r, "%s", repl_tr(r, "shell.no_sh"));
        return -1;
    }
    if (WIFEXITED(st) && WEXITSTATUS(st) != 0) {
        repl_fail(r, repl_tr(r, "shell.status"), WEXITSTATUS(st));
        return -1;
    }
    if (WIFSIGNALED(st)) {
        repl_fail(r, repl_tr(r, "shell.signal"), WTERMSIG(st));
        return -1;
    }
    return 0;
}

static int cmd_quit(repl *r, const char *args) {
    if (no_args(r, "quit", args)) return -1;
    r->quit = 1;
    return 0;
}

/* ------------------------------------------------------------ replays */

/* Replays the next decision and says which it was, then what it did.
** 1: the end of the save, -1: it could not be replayed. */
static int replay_step(repl *r) {
    size_t n;
    const engine_logged *log = engine_log(r->e, &n);
    size_t pos = engine_position(r->e);
    if (pos >= n) return 1;
    char *d = describe_logged(r, &log[pos], r->viewer == 0);
    if (engine_redo(r->e) != 0) {
        free(d);
        return -1;
    }
    repl_say(r, 2, repl_tr(r, "replay.decision"), pos + 1, n, d ? d : "?");
    free(d);
    repl_show_events(r, r->viewer);
    return 0;
}

static int cmd_next(repl *r, const char *args) {
    long k = count_arg(r, "next", args, 1);
    if (k < 0) return -1;
    /* the steps (each decision and its events) are said on the screen,
    ** under the board they led to */
    repl_capture head;
    repl_capture_begin(r, &head);
    int rc = 0;
    long i = 0;
    for (; i < k && rc == 0; i++) rc = replay_step(r);
    if (rc == 0 || (rc == 1 && i > 1)) {
        replay_screen(r, &head);
        return 0;
    }
    /* nothing replayed (the end), or a step that failed: what was said, then why */
    size_t len;
    char *said = repl_capture_end(r, &head, &len);
    if (said) fwrite(said, 1, len, r->out);
    free(said);
    if (rc < 0) {
        repl_fail(r, repl_tr(r, "replay.failed"), engine_position(r->e) + 1);
        return -1;
    }
    repl_plain(r, repl_tr(r, "replay.end"), engine_position(r->e));
    if (engine_is_over(r->e)) repl_show_scores(r, 1);
    return 0;
}

static int replay_jump(repl *r, size_t to) {
    if (engine_goto(r->e, to) != 0) {
        repl_fail(r, repl_tr(r, "replay.cannot_go"), to);
        return -1;
    }
    /* a jump is not news: the events up to here count as seen */
    repl_mark_all_seen(r);
    repl_capture head;
    repl_capture_begin(r, &head);
    repl_plain(r, repl_tr(r, "undo.at"), engine_position(r->e), log_length(r));
    replay_screen(r, &head);
    return 0;
}

static int cmd_back(repl *r, const char *args) {
    long k = count_arg(r, "back", args, 1);
    if (k < 0) return -1;
    size_t pos = engine_position(r->e);
    if (pos == 0) {
        repl_fail(r, "%s", repl_tr(r, "replay.at_start"));
        return -1;
    }
    return replay_jump(r, (size_t)k > pos ? 0 : pos - (size_t)k);
}

static int cmd_first(repl *r, const char *args) {
    if (no_args(r, "first", args)) return -1;
    return replay_jump(r, 0);
}

static int cmd_last(repl *r, const char *args) {
    if (no_args(r, "last", args)) return -1;
    return replay_jump(r, log_length(r)); /* the scores below the board, at the end of a finished game */
}

static int cmd_play(repl *r, const char *args) {
    if (no_args(r, "play", args)) return -1;
    r->replay = 0;
    r->auto_bots = 1;
    repl_plain(r, repl_tr(r, "replay.play_on"), engine_position(r->e));
    r->changed = 1;
    r->over_shown = 0;
    repl_present(r);
    r->changed = 0;
    return 0;
}

/* --------------------------------------------------------- completion */

typedef struct cands {
    char **items;
    size_t n, cap;
} cands;

static void cand_add(cands *c, const char *s) {
    if (GROW(c->items, c->cap, c->n + 1) != 0) return;
    char *d = strdup(s);
    if (d) c->items[c->n++] = d;
}

static void add_files(cands *c, const char *tok) {
    const char *slash = strrchr(tok, '/');
    char dir[4096];
    size_t dlen = slash ? (size_t)(slash - tok + 1) : 0;
    if (dlen >= sizeof dir) return;
    memcpy(dir, tok, dlen);
    dir[dlen] = '\0';
    const char *base = tok + dlen;
    DIR *d = opendir(dlen ? dir : ".");
    if (!d) return;
    struct dirent *de;
    while ((de = readdir(d)) != NULL && c->n < 1000) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0) continue;
        if (de->d_name[0] == '.' && base[0] != '.') continue;
        if (strncmp(de->d_name, base, strlen(base)) != 0) continue;
        char *full = cairn_strfmt("%s%s", dir, de->d_name);
        if (!full) continue;
        struct stat st;
        int is_dir = stat(full, &st) == 0 && S_ISDIR(st.st_mode);
        char *shown = is_dir ? cairn_strfmt("%s/", full) : NULL;
        cand_add(c, shown ? shown : full);
        free(shown);
        free(full);
    }
    closedir(d);
}

static void add_option_ids(cands *c, const repl *r) {
    int seat = r->e && !r->replay ? repl_deciding_seat(r) : 0;
    if (!seat) return;
    engine_decision_list dl = {0};
    if (engine_decisions(r->e, &dl) != 0) return;
    for (size_t i = 0; i < dl.n; i++)
        if (dl.items[i].seat == seat)
            for (size_t j = 0; j < dl.items[i].n_options; j++)
                if (!dl.items[i].options[j].disabled) cand_add(c, dl.items[i].options[j].id);
    engine_decision_list_free(&dl);
}

size_t repl_complete(void *ctx, const char *line, size_t cursor, char ***out, size_t *n) {
    repl *r = ctx;
    cands c = {0};
    size_t seg = 0;
    for (size_t i = 0; i < cursor; i++)
        if (line[i] == ';') seg = i + 1;
    while (seg < cursor && line[seg] == ' ') seg++;
    size_t start = seg;
    if (!r->e) { /* choosing a ruleset */
        size_t k;
        char **names = ruleset_list(&k);
        for (size_t i = 0; i < k; i++) cand_add(&c, names[i]);
        ruleset_list_free(names, k);
    } else if (line[seg] == '!') {
        start = cursor;
        while (start > seg + 1 && line[start - 1] != ' ') start--;
        char *tok = strndup(line + start, cursor - start);
        if (tok) add_files(&c, tok);
        free(tok);
    } else {
        const char *sp = memchr(line + seg, ' ', cursor - seg);
        add_option_ids(&c, r); /* ids may hold spaces: matched from the segment start */
        if (!sp) {
            for (size_t i = 0; i < N_COMMANDS; i++)
                if (available(r, &commands[i])) cand_add(&c, commands[i].name);
        } else {
            char word[64];
            size_t wl = (size_t)(sp - (line + seg));
            snprintf(word, sizeof word, "%.*s", (int)(wl < 63 ? wl : 63), line + seg);
            const repl_cmd *cmd = find_cmd(r, word);
            if (cmd) {
                for (size_t i = 0; i < c.n; i++) free(c.items[i]);
                c.n = 0;
                start = cursor;
                while (start > seg && line[start - 1] != ' ') start--;
                char *tok = strndup(line + start, cursor - start);
                /* `bot SEAT KIND`: the second argument is a kind */
                int second = 0;
                for (const char *p = sp; p < line + start; p++)
                    if (*p != ' ' && (p[-1] == ' ')) second++;
                switch (cmd->complete) {
                case ARG_FILE:
                    if (tok) add_files(&c, tok);
                    break;
                case ARG_SEAT:
                    if (strcmp(cmd->name, "bot") == 0 && second >= 1) {
                        cand_add(&c, "random");
                        break;
                    }
                    for (int i = 0; i <= r->n_seats; i++) {
                        char num[16];
                        snprintf(num, sizeof num, "%d", i);
                        if (i > 0 || strcmp(cmd->name, "show") == 0 || strcmp(cmd->name, "view") == 0)
                            cand_add(&c, num);
                    }
                    break;
                case ARG_CMD:
                    for (size_t i = 0; i < N_COMMANDS; i++)
                        if (available(r, &commands[i])) cand_add(&c, commands[i].name);
                    break;
                case ARG_OPTION: {
                    const ruleset *rs = engine_ruleset(r->e);
                    for (size_t i = 0; i < rs->n_opts; i++) cand_add(&c, rs->opts[i].id);
                    break;
                }
                case ARG_ONOFF:
                    cand_add(&c, "on");
                    cand_add(&c, "off");
                    break;
                case ARG_PEEK:
                    cand_add(&c, "--peek");
                    break;
                case ARG_NONE:
                    break;
                }
                if (strcmp(cmd->name, "load") == 0 && tok && tok[0] == '-') cand_add(&c, "--scenario");
                free(tok);
            }
        }
    }
    *out = c.items;
    *n = c.n;
    return start;
}
