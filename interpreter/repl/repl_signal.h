/*
** repl_signal.h
** The REPL's end-of-session signals: SIGTERM and SIGHUP (a closed terminal,
** a shutdown) ask nothing; the game in play is saved to a recovery file
** named in the message, and the REPL ends with status 128 + the signal.
** The handler only sets a flag; the REPL acts on it at its next safe point
** (the prompt, between two bot moves, inside a bot's search or a replay).
*/
#ifndef CAIRN_REPL_SIGNAL_H
#define CAIRN_REPL_SIGNAL_H

#include "engine.h"

#include <stdio.h>

/* Installs the handlers (no SA_RESTART: a read waiting at the prompt returns). */
void repl_signal_catch(void);

/* The signal that asked the session to end, or 0. */
int repl_signal_ending(void);

/* Saves e (may be NULL: nothing to save) to the recovery file and says so on
** err in lang (the console's catalogue; English when it has not lang): "cairn: SIGTERM: the game (decision N) is saved in FILE; go on with
** `cairn play --resume`". Returns the exit status to end with (128 + the signal). */
int repl_signal_recover(const engine *e, const char *lang, FILE *err);

#endif
