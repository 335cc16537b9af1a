/*
** rng.c
** xoshiro256** seeded by splitmix64; unbiased ranges and weighted picks.
** Reference: https://prng.di.unimi.it/ (public domain code by Vigna).
*/
#include "rng.h"

#include <string.h>

static uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

void rng_seed(rng *r, uint64_t seed) {
    uint64_t x = seed;
    for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&x);
    /* splitmix64 is a bijection of its counter, so four zero outputs in a
    ** row cannot happen; keep the guard xoshiro's authors ask for anyway. */
    if (!(r->s[0] | r->s[1] | r->s[2] | r->s[3])) r->s[0] = 1;
}

void rng_seed_stream(rng *r, uint64_t seed, uint64_t stream) {
    /* mix the stream number through splitmix so nearby streams diverge */
    uint64_t x = stream ^ 0x6a09e667f3bcc909ULL;
    uint64_t k = splitmix64(&x);
    rng_seed(r, seed ^ k);
}

uint64_t rng_next(rng *r) {
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint64_t rng_below(rng *r, uint64_t n) {
    if (n == 0) return rng_next(r);
    /* values below `threshold` would make some residues more likely */
    uint64_t threshold = (0 - n) % n;
    for (;;) {
        uint64_t x = rng_next(r);
        if (x >= threshold) return x % n;
    }
}

int rng_range(rng *r, int64_t lo, int64_t hi, int64_t *out) {
    if (lo > hi) return -1;
    uint64_t span = (uint64_t)hi - (uint64_t)lo + 1; /* 0 means all 2^64 values */
    *out = (int64_t)((uint64_t)lo + rng_below(r, span));
    return 0;
}

long rng_weighted(rng *r, const int64_t *w, size_t n) {
    uint64_t sum = 0;
    for (size_t i = 0; i < n; i++) {
        if (w[i] < 0) return -1;
        sum += (uint64_t)w[i];
        if (sum > (uint64_t)INT64_MAX) return -1;
    }
    if (sum == 0) return -1;
    uint64_t x = rng_below(r, sum);
    for (size_t i = 0; i < n; i++) {
        if (x < (uint64_t)w[i]) return (long)i;
        x -= (uint64_t)w[i];
    }
    return (long)(n - 1); /* not reached: x < sum */
}

void rng_format(const rng *r, char out[RNG_HEX_LEN + 1]) {
    static const char digits[] = "0123456789abcdef";
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 16; j++)
            out[i * 16 + j] = digits[(r->s[i] >> (60 - 4 * j)) & 0xf];
    out[RNG_HEX_LEN] = '\0';
}

int rng_parse(rng *r, const char *hex) {
    if (!hex || strlen(hex) != RNG_HEX_LEN) return -1;
    uint64_t s[4] = {0, 0, 0, 0};
    for (int i = 0; i < RNG_HEX_LEN; i++) {
        char c = hex[i];
        unsigned d;
        if (c >= '0' && c <= '9') d = (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f') d = (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') d = (unsigned)(c - 'A' + 10);
        else return -1;
        s[i / 16] = (s[i / 16] << 4) | d;
    }
    if (!(s[0] | s[1] | s[2] | s[3])) return -1;
    memcpy(r->s, s, sizeof s);
    return 0;
}
