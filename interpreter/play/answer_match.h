/*
** answer_match.h
** Which offered option a typed answer names, the console's way: the exact
** id, then a number (1 = the first option as listed), then the one option
** whose id, label or id word starts with the text (any case). Shared by the
** console (repl.c) and the seat protocol's text answers (seat_protocol.c),
** so that a line typed at the console and the same line sent by a seat
** mean the same option.
*/
#ifndef CAIRN_ANSWER_MATCH_H
#define CAIRN_ANSWER_MATCH_H

#include "engine.h"

/* The index in d->options of the option text names, or -1. With exact_only
** only an exact id counts. *why is set (malloc'd) when text could name an
** option but names none: a number out of range (out_of_range_fmt, with
** "%s" for the text and "%zu" for the option count, the caller's language)
** or a prefix several options share; else left NULL. */
long answer_match(const engine_decision *d, const char *text, int exact_only, const char *out_of_range_fmt,
                  char **why);

/* The options a prefix could name, as answer_match looks for them: those
** whose id starts with text, or failing that those whose label or id word
** does. Their indexes go to idx (at most cap of them); returns how many
** there are (more than cap when idx was too short). None for a number:
** answer_match reads digits as an option's number, never as a prefix. */
size_t answer_candidates(const engine_decision *d, const char *text, size_t *idx, size_t cap);

/* seat's decision in l, or NULL when seat is not asked. Borrowed from l. */
const engine_decision *answer_decision_of(const engine_decision_list *l, int seat);

#endif
