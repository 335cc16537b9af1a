/*
** tools/c4solve.h
** A Connect Four solver for the bots' position suite (tools/bot-mistakes.c,
** tests/unit/test_c4solve.c): 7 columns x 6 rows, connect 4, as
** rulesets/connect4 plays it. A position is a bitboard (Pascal Pons's
** layout: each column 7 bits, the bottom bit first, one spare bit on top;
** `mine` the discs of the seat to move, `mask` every disc), solved by
** negamax with alpha-beta, the middle columns first and a transposition
** table of upper bounds, in the null window around a draw: win, draw or
** loss for the seat to move. Header only (static functions): the tool and
** the test include it; C11, no allocation but the table (c4_solver_new).
*/
#ifndef CAIRN_C4SOLVE_H
#define CAIRN_C4SOLVE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define C4_W 7
#define C4_H 6
#define C4_MIN_SCORE (-(C4_W * C4_H) / 2 + 3)
#define C4_TT_BITS 23

typedef struct c4pos {
    uint64_t mine, mask;
    int moves;
} c4pos;

typedef struct c4_solver {
    uint64_t *keys;
    int8_t *vals;
    long nodes;
} c4_solver;

static uint64_t c4_bottom(int col) { return 1ull << (col * (C4_H + 1)); }
static uint64_t c4_top(int col) { return 1ull << (C4_H - 1 + col * (C4_H + 1)); }
static uint64_t c4_column(int col) { return ((1ull << C4_H) - 1) << (col * (C4_H + 1)); }

static int c4_can_play(const c4pos *p, int col) { return (p->mask & c4_top(col)) == 0; }

static void c4_play(c4pos *p, int col) {
    p->mine ^= p->mask; /* the other seat moves next: its discs become "mine" */
    p->mask |= p->mask + c4_bottom(col);
    p->moves++;
}

/* Four in a line in the bitboard b: across (7), up (1), both diagonals (6, 8). */
static int c4_aligned(uint64_t b) {
    static const int shift[4] = {C4_H + 1, 1, C4_H, C4_H + 2};
    for (int i = 0; i < 4; i++) {
        uint64_t m = b & (b >> shift[i]);
        if (m & (m >> (2 * shift[i]))) return 1;
    }
    return 0;
}

/* Whether a disc in col wins for the seat to move. */
static int c4_wins(const c4pos *p, int col) {
    return c4_aligned(p->mine | ((p->mask + c4_bottom(col)) & c4_column(col)));
}

static int c4_solver_new(c4_solver *s) {
    s->keys = calloc((size_t)1 << C4_TT_BITS, sizeof *s->keys);
    s->vals = calloc((size_t)1 << C4_TT_BITS, sizeof *s->vals);
    s->nodes = 0;
    return s->keys && s->vals ? 0 : -1;
}

static void c4_solver_free(c4_solver *s) {
    free(s->keys);
    free(s->vals);
}

/* Pons's negamax: the score of p for the seat to move within [alpha, beta]
** (positive: a win, the sooner the higher; 0: a draw). */
static int c4_negamax(c4_solver *s, const c4pos *p, int alpha, int beta) {
    static const int order[C4_W] = {3, 2, 4, 1, 5, 0, 6};
    s->nodes++;
    if (p->moves == C4_W * C4_H) return 0;
    for (int c = 0; c < C4_W; c++)
        if (c4_can_play(p, c) && c4_wins(p, c)) return (C4_W * C4_H + 1 - p->moves) / 2;
    int max = (C4_W * C4_H - 1 - p->moves) / 2;
    uint64_t key = p->mine + p->mask;
    size_t slot = (size_t)(key % (((uint64_t)1 << C4_TT_BITS) - 1));
    if (s->keys[slot] == key) max = s->vals[slot] + C4_MIN_SCORE - 1;
    if (beta > max) {
        beta = max;
        if (alpha >= beta) return beta;
    }
    for (int i = 0; i < C4_W; i++) {
        int c = order[i];
        if (!c4_can_play(p, c)) continue;
        c4pos q = *p;
        c4_play(&q, c);
        int v = -c4_negamax(s, &q, -beta, -alpha);
        if (v >= beta) return v;
        if (v > alpha) alpha = v;
    }
    s->keys[slot] = key;
    s->vals[slot] = (int8_t)(alpha - C4_MIN_SCORE + 1);
    return alpha;
}

/* 1 won, 0 drawn, -1 lost for the seat to move (p not finished). */
static int c4_value(c4_solver *s, const c4pos *p) {
    int v = c4_negamax(s, p, -1, 1);
    return v > 0 ? 1 : v < 0 ? -1 : 0;
}

/* The value for the seat to move of playing col (which must be playable):
** 1 if it wins, else minus the value of the position after it, 0 when the
** board is then full. */
static int c4_move_value(c4_solver *s, const c4pos *p, int col) {
    if (c4_wins(p, col)) return 1;
    c4pos q = *p;
    c4_play(&q, col);
    if (q.moves == C4_W * C4_H) return 0;
    return -c4_value(s, &q);
}

/* The position after the columns in moves ("4453", columns 1-7), or -1 when
** a column is full or a move finishes the game (a line of four). */
static int c4_from_moves(const char *moves, c4pos *p) {
    memset(p, 0, sizeof *p);
    for (const char *m = moves; *m; m++) {
        int c = *m - '1';
        if (c < 0 || c >= C4_W || !c4_can_play(p, c) || c4_wins(p, c)) return -1;
        c4_play(p, c);
    }
    return 0;
}

#endif
