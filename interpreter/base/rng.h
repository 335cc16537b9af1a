/*
** rng.h
** The engine's random numbers: xoshiro256** (Blackman & Vigna), seeded
** through splitmix64. Its whole state is four 64-bit words, kept with every
** history snapshot and in saves, so undo, replay and load reproduce it.
*/
#ifndef CAIRN_RNG_H
#define CAIRN_RNG_H

#include <stddef.h>
#include <stdint.h>

typedef struct rng {
    uint64_t s[4];
} rng;

/* Length of the textual form of a state: 4 x 16 hex digits, no separators. */
#define RNG_HEX_LEN 64

/* Seeds from one 64-bit number: the four words are the first four outputs
** of splitmix64 started at seed (never all zero). */
void rng_seed(rng *r, uint64_t seed);

/* A separate stream derived from (seed, stream), independent of the game
** RNG: used for bots, whose choice at decision k is drawn from stream k. */
void rng_seed_stream(rng *r, uint64_t seed, uint64_t stream);

/* Next raw 64-bit output. */
uint64_t rng_next(rng *r);

/* Uniform in [0, n) without modulo bias (rejection sampling). n == 0 means
** the full 64-bit range. */
uint64_t rng_below(rng *r, uint64_t n);

/* Uniform in [lo, hi]. Returns 0, or -1 (and draws nothing) when lo > hi. */
int rng_range(rng *r, int64_t lo, int64_t hi, int64_t *out);

/* An index i with probability w[i] / sum(w). Weights must be >= 0 and their
** sum > 0 and fit in 63 bits. Returns the index, or -1 (drawing nothing) on
** bad weights. */
long rng_weighted(rng *r, const int64_t *w, size_t n);

/* Writes the state as RNG_HEX_LEN lowercase hex digits plus NUL. */
void rng_format(const rng *r, char out[RNG_HEX_LEN + 1]);

/* Parses rng_format's output. Returns 0, or -1 (r untouched) on anything
** else, including the all-zero state xoshiro cannot leave. */
int rng_parse(rng *r, const char *hex);

#endif
