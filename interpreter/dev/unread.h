/*
** unread.h
** `cairn check --unread`: the data values no rule read. The smoke games,
** then the ruleset's scenario tests and golden games, are played with the
** engine noting every read of g.data
** (engine_config.track_data_reads); after each game its data values (those
** of its option combination, overlays included) are walked and each one is
** marked read or not; a value is reported when no game that had it read it.
** A value counts as read when a rule (or a stdlib function it called) read
** it, or went over the table holding it with pairs or next; a read of one
** item of a list counts for the same place in its other items (which space
** of a track a game reaches is play, not the rules).
*/
#ifndef CAIRN_UNREAD_H
#define CAIRN_UNREAD_H

#include "engine.h"
#include "error.h"

typedef struct unread_set unread_set;

unread_set *unread_new(void); /* NULL on OOM; free with unread_free */
void unread_free(unread_set *u); /* NULL-safe */

/* Adds a finished game made with track_data_reads: which of its data
** values its rules read. 0, or -1 when out of memory. */
int unread_add_game(unread_set *u, const engine *e);

/* Adds to errs one error per value no game read, in file order, at the
** value's file:line:column and path: "3 is read by no rule in 18 games
** (--unread): a value that changes nothing". Values made in code (no
** file) are left out. Returns how many. */
size_t unread_add_errors(const unread_set *u, cerr_list *errs);

#endif
