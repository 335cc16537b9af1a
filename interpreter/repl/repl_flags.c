/*
** repl_flags.c
** The flags of `cairn play`, `cairn serve` and `cairn replay`, one row each: what
** repl.c's parser reads (cliflags.c), the shell completion offers and the
** man page's test checks.
*/
#include "repl.h"
#include "ruleset.h"

static const cli_flag play_rows[] = {
    {"seed", 's', 1, "S", CLI_TEXT, NULL, "the game's seed (default: random; 1 in script mode)"},
    {"bot", 'b', 1, "SEAT=KIND", CLI_TEXT, NULL, "a bot plays SEAT (random, greedy, mcts, ismcts, RULESET:NAME, exec:COMMAND)"},
    {"name", 'n', 1, "SEAT=NAME", CLI_TEXT, NULL, "the name shown for SEAT"},
    {"lang", 0, 1, "CODE", CLI_TEXT, NULL, "the game's language"},
    {"load", 0, 1, "SAVE", CLI_FILE, NULL, "continue a saved game"},
    {"resume", 0, 0, "", CLI_TEXT, NULL, "continue the newest interrupted game (its recovery file)"},
    {"undo", 0, 1, "all|own|none", CLI_WORDS, "all own none", "what may be taken back"},
    {"script", 0, 1, "FILE", CLI_FILE, NULL, "read commands from FILE (script mode)"},
    {"strict", 0, 0, "", CLI_TEXT, NULL, "exit with status 1 if any command failed"},
    {"trust", 0, 0, "", CLI_TEXT, NULL, "a save may open its ruleset from any folder"},
};
static const cli_table play_table = CLI_TABLE(play_rows);
const cli_table *const repl_play_flag_tables[] = {&ruleset_flag_table, &ruleset_set_flag_table, &play_table, NULL};

static const cli_flag serve_rows[] = {
    {"port", 0, 1, "P", CLI_TEXT, NULL, "the port served (default 0: a free one, printed)"},
    {"bind", 0, 1, "ADDR", CLI_TEXT, NULL, "the address served (default 127.0.0.1: this machine only)"},
};
static const cli_table serve_table = CLI_TABLE(serve_rows);
const cli_table *const repl_serve_flag_tables[] = {&ruleset_flag_table, &ruleset_set_flag_table, &play_table,
                                                   &serve_table, NULL};

static const cli_flag replay_rows[] = {
    {"script", 0, 1, "FILE", CLI_FILE, NULL, "read commands from FILE (script mode)"},
    {"strict", 0, 0, "", CLI_TEXT, NULL, "exit with status 1 if any command failed"},
    {"trust", 0, 0, "", CLI_TEXT, NULL, "the save may open its ruleset from any folder"},
};
static const cli_table replay_table = CLI_TABLE(replay_rows);
const cli_table *const repl_replay_flag_tables[] = {&replay_table, NULL};
