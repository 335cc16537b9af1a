/*
** rating.h
** Ratings from games with any number of seats: the Plackett-Luce model
** (Bradley-Terry when every game has two seats), each player a strength
** gamma = e^theta, a game's ranking the order in which the seats are drawn
** from the ones left, each with chance gamma / (sum of those left). Ties are
** drawn together (Breslow's approximation, as in survival analysis). Fitted
** by Hunter's MM algorithm (2004); the intervals come from the observed
** information. Pure arithmetic: the same games in the same order give the
** same figures, bit for bit. What `cairn sim --tournament` reports.
*/
#ifndef CAIRN_RATING_H
#define CAIRN_RATING_H

#include <stddef.h>

/* Most players one model rates. */
#define RATING_MAX_PLAYERS 16

/* Elo's scale: 400 / ln 10 rating points per unit of theta, so that a
** difference of 400 is 10 to 1 odds in a two-seat game. */
#define RATING_ELO 173.71779276130073

typedef struct rating_model rating_model;

/* A model of k players (1 to RATING_MAX_PLAYERS). NULL on OOM or a bad k. */
rating_model *rating_new(int k);
void rating_free(rating_model *m); /* NULL-safe */

/* One game of n seats: player[i] (0 to k-1) sat in seat i and finished
** rank[i] (1 is first; equal ranks tie). A player may hold several seats.
** 0, or -1 on OOM or a bad player. */
int rating_add(rating_model *m, int n, const int *player, const int *rank);

/* The fit: theta[i] for each player, centred (their mean is 0), and se[i]
** its standard error. prior > 0 adds, for each player, that many wins and
** as many losses against a virtual player of strength 1 (theta 0), so that
** a player who won every game gets a finite rating. Returns the iterations
** taken, or -1 when the fit did not settle (a player with no win or no loss
** and no prior, or players the games do not link). */
int rating_fit(const rating_model *m, double prior, double *theta, double *se);

#endif
