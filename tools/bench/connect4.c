/*
** tools/bench/connect4.c
** The native-C Connect Four baseline of `make bench`: the same game, random
** policy and PRNG as tools/bench/connect4.lua (whose functions each one below
** names), so that both baselines play the very same games from one seed.
** Those follow rulesets/connect4/rules.lua: 7 columns x 6 rows, connect 4, a
** disc lands on the lowest empty cell of its column, lines across, up and
** along both diagonals, a full board without a line is a draw.
*/
#include "bench.h"

enum { ROWS = 6, COLUMNS = 7, CONNECT = 4, EMPTY = 0 }; /* discs are seats 1 and 2 */

static const int DIRECTIONS[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};

typedef int grid_t[ROWS + 1][COLUMNS + 1]; /* 1-based like the Lua, grid[1] the bottom row */

/* connect4.lua: new_rng (splitmix64). */
static uint64_t next_rand(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

/* connect4.lua: landing_row; 0 when the column is full. */
static int landing_row(grid_t grid, int c) {
    for (int r = 1; r <= ROWS; r++)
        if (grid[r][c] == EMPTY) return r;
    return 0;
}

/* connect4.lua: line_length. */
static int line_length(grid_t grid, int r, int c, int dr, int dc) {
    int disc = grid[r][c], n = 1;
    for (int sign = 1; sign >= -1; sign -= 2) {
        int rr = r + sign * dr, cc = c + sign * dc;
        while (rr >= 1 && rr <= ROWS && cc >= 1 && cc <= COLUMNS && grid[rr][cc] == disc) {
            n++;
            rr += sign * dr;
            cc += sign * dc;
        }
    }
    return n;
}

/* connect4.lua: connects. */
static int connects(grid_t grid, int r, int c) {
    for (int i = 0; i < 4; i++)
        if (line_length(grid, r, c, DIRECTIONS[i][0], DIRECTIONS[i][1]) >= CONNECT) return 1;
    return 0;
}

/* connect4.lua: new_grid. */
static void new_grid(grid_t grid) {
    for (int r = 1; r <= ROWS; r++)
        for (int c = 1; c <= COLUMNS; c++)
            grid[r][c] = EMPTY;
}

/* connect4.lua: play_game. Sets the decisions made; returns the winner (0: draw). */
static int play_game(uint64_t *rng, long *moves_out) {
    grid_t grid;
    int legal[COLUMNS + 1];
    int turn = 1;
    long moves = 0;
    new_grid(grid);
    for (;;) {
        int k = 0;
        for (int c = 1; c <= COLUMNS; c++)
            if (landing_row(grid, c)) legal[++k] = c;
        int c = legal[(next_rand(rng) >> 33) % (uint64_t)k + 1];
        int r = landing_row(grid, c);
        grid[r][c] = turn;
        moves++;
        *moves_out = moves;
        if (connects(grid, r, c)) return turn;
        if (moves == ROWS * COLUMNS) return 0;
        turn = 3 - turn;
    }
}

/* connect4.lua: play. */
void c4_native_play(long n, uint64_t seed, c4_tally *out) {
    uint64_t rng = seed;
    c4_tally t = {0};
    for (long i = 0; i < n; i++) {
        long moves = 0;
        int winner = play_game(&rng, &moves);
        t.games++;
        t.decisions += moves;
        if (winner == 1)
            t.wins1++;
        else if (winner == 2)
            t.wins2++;
        else
            t.draws++;
    }
    *out = t;
}
