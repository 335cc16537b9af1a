/*
** repl_cmd.h
** The REPL's command table (repl_cmd.c): running a typed command, tab
** completion, telling commands from option ids, and what a reload says.
** The session (repl.c) calls these; repl_cmd.c calls the session through
** repl_session.h.
*/
#ifndef CAIRN_REPL_CMD_H
#define CAIRN_REPL_CMD_H

#include <stddef.h>

typedef struct repl repl;
struct engine_reload_report;

/* Runs one command line segment that starts with a command name. Returns
** 1 if `word` is no command (nothing done), 0 when it ran, -1 when it
** failed (already reported). */
int repl_command(repl *r, const char *word, const char *args);
/* Candidates for tab completion (see lineedit_complete_fn). */
size_t repl_complete(void *ctx, const char *line, size_t cursor, char ***out, size_t *n);
/* 1 when word names a command. */
int repl_is_command(const repl *r, const char *word);
/* The commands of this mode (play or replay) that word is a likely
** misspelling of ("svae": save): one edit away, or two for a word of seven
** or more letters, a swap of neighbours counting one ("ready" is not near
** redo). The closest, at most two of them ("lod": log and load) into out;
** returns how many there are at that distance. For the hint after input
** that is neither a command nor an answer. */
size_t repl_near_commands(const repl *r, const char *word, const char *out[2]);

/* After a reload or a remade game: which files changed is said by the
** caller; this says where the replay stopped (if it did), whether the rules
** now keep secrets, and marks the game moved. */
void repl_report_replay(repl *r, const struct engine_reload_report *rep);

/* The names and aliases of the commands that work while a game is played:
** up to max of them into out; returns how many there are. What
** console_words.h lists, which a unit test checks. */
size_t repl_play_words(const char **out, size_t max);

#endif
