/*
** repl.h
** The console REPL: `cairn play` (hot-seat humans and bots, undo, saves,
** hot reload) and `cairn replay` (step through a saved game): what main.c
** calls. Inside, repl_session.h is the session (repl.c and the modules
** serving it) and repl_cmd.h the command table (repl_cmd.c); each file
** includes the one it uses, neither header the other.
*/
#ifndef CAIRN_REPL_H
#define CAIRN_REPL_H

#include "cliflags.h"

/* The flags of `cairn play` and `cairn replay` (repl_flags.c). */
extern const cli_table *const repl_play_flag_tables[];
extern const cli_table *const repl_replay_flag_tables[];
/* `cairn serve`: play's flags and --port, --bind (repl_flags.c). */
extern const cli_table *const repl_serve_flag_tables[];

/* `cairn play ...` and `cairn replay SAVE`; argv[0] is the command name.
** Exit status: 0 ok, 1 the game could not start (or, with --strict, a
** command failed), 2 usage error. */
int repl_play_main(int argc, char **argv);
int repl_replay_main(int argc, char **argv);
/* `cairn serve RULESET`: `cairn play` whose people play at their own pages
** (repl_serve.c, interpreter/serve/). Exit status as play's. */
int repl_serve_main(int argc, char **argv);

/* The one phrase of the usage text that is words, not flags: worded in the
** usage error's language (usage.asks) */
#define REPL_PLAY_ASKS "(asks the ruleset, the seat count and who plays)"
#define REPL_PLAY_USAGE                                                                     \
    "cairn play RULESET [--players N] [--option ID[=VALUE]]... [--preset NAME] [--seed S]\n" \
    "                  [--bot SEAT=KIND]... [--name SEAT=NAME]... [--lang CODE]\n"           \
    "                  [--set DATA.PATH=VALUE]... [--undo=all|own|none] [--script FILE] [--strict]\n" \
    "       cairn play --load SAVE|--resume [--undo=all|own|none] [--script FILE] [--strict] [--trust]\n" \
    "       cairn play            " REPL_PLAY_ASKS
#define REPL_PLAY_SUMMARY "play a game in the console: hot-seat humans and bots"
#define REPL_PLAY_HELP                                                                        \
    "Starts a game and a console to play it. Whenever a person must decide, the\n"            \
    "options are listed: type the number, the option id or a unique prefix of it;\n"          \
    "several answers can go on one line separated by `;`. Commands (`help` lists\n"           \
    "them) show the board, state, log and scores, undo/redo, save/load, reload\n"             \
    "the rules from disk, and put bots in seats. docs/repl.md has a sample session.\n"        \
    "\n"                                                                                      \
    "  --players N          seat count (default: the ruleset's)\n"                           \
    "  --option ID[=VALUE]  turn an option on (ID=false: off; a choice: ID=ITEM)\n"           \
    "  --preset NAME        a named bundle of options\n"                                     \
    "  --set DATA.PATH=VALUE  override one data value (scoring.bonus=4; repeatable)\n"                                     \
    "  --seed S             the game's seed (default: random; 1 in script mode)\n"           \
    "  --bot SEAT=KIND      a bot plays SEAT: random, greedy, mcts, ismcts or RULESET:NAME,\n" \
    "                       with parameters: 2=mcts:iterations=2000, 2=mcts:time=0.5;\n"     \
    "                       exec:COMMAND, a program on the seat protocol (docs/bots.md)\n"   \
    "  --name SEAT=NAME     the name shown for SEAT\n"                                       \
    "  --lang CODE          the game's language (default: the locale's, if shipped)\n"          \
    "  --load SAVE          continue a saved game\n"                                         \
    "  --undo=POLICY        all (default): any decision can be taken back; own: only your\n" \
    "                       own since the last draw or reveal; none: nothing\n"             \
    "  --script FILE        read commands from FILE (script mode)\n"                         \
    "  --strict             exit with status 1 if any command failed\n"                      \
    "  --trust              a save may open its ruleset from any folder (its Lua runs)\n"                      \
    "\n"                                                                                      \
    "Script mode (stdin not a terminal, or --script): each command is echoed after\n"         \
    "its prompt, nothing is coloured and the output is the same on every run.\n"              \
    "Colour is used on a terminal unless NO_COLOR is set. History is kept in\n"               \
    "$XDG_STATE_HOME/cairn/history (~/.local/state/cairn/history).\n"

#define REPL_SERVE_USAGE                                                                    \
    "cairn serve RULESET [--port P] [--bind ADDR] [the flags of cairn play]\n"                 \
    "       cairn serve --load SAVE|--resume [--port P] [--bind ADDR] [--undo=all|own|none]"
#define REPL_SERVE_SUMMARY "play with each person at their own page (a phone): private links per seat"
#define REPL_SERVE_HELP                                                                       \
    "Starts a game as `cairn play` does, and an HTTP server that gives each seat\n"           \
    "played by a person a private link (an unguessable token), printed with a QR\n"           \
    "code when the terminal has room. The link opens a page with that seat's view\n"          \
    "only: its board, the news, its question with a button per option, whose turn\n"          \
    "it is; it updates live. The console keeps the game: it shows the public board,\n"       \
    "and every command of `cairn play` works (undo, save, load, reload, bot, quit);\n"       \
    "`view SEAT` lets the console answer for a seat. Bots play their seats as in\n"          \
    "`cairn play`. docs/serve.md explains the links, the security model and limits.\n"       \
    "\n"                                                                                      \
    "  --port P             the port (default 0: a free one, printed)\n"                     \
    "  --bind ADDR          the address served (default 127.0.0.1: this machine only;\n"     \
    "                       0.0.0.0: every network of this machine, for phones)\n"           \
    "  and every flag of `cairn play` (`cairn help play`): --players, --option,\n"            \
    "  --preset, --set, --seed, --bot, --name, --lang, --load, --resume, --undo,\n"         \
    "  --script, --strict, --trust.\n"

#define REPL_REPLAY_USAGE "cairn replay SAVE [--script FILE] [--strict] [--trust]"
#define REPL_REPLAY_SUMMARY "step forward and back through a saved game"
#define REPL_REPLAY_HELP                                                                      \
    "Loads a saved game and goes back to its start. Enter (or `next`) applies the\n"          \
    "next decision and shows it with its events and the board; `back` steps back,\n"         \
    "`goto N` jumps, `show SEAT`/`view SEAT` look through a seat's eyes, `play`\n"            \
    "continues the game from the current decision. `help` lists the commands.\n"

#endif
