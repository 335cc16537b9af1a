/*
** sha256.c
** SHA-256 (FIPS 180-4). Small and dependency-free: a ruleset fingerprint
** must not depend on which crypto library a machine has.
*/
#include "sha256.h"

#include <stdio.h>
#include <string.h>

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

#define CH(e, f, g) ((g) ^ ((e) & ((f) ^ (g))))
#define MAJ(a, b, c) (((a) & (b)) | ((c) & ((a) | (b))))
#define BIG_S0(a) (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22))
#define BIG_S1(e) (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25))
#define SMALL_S0(x) (ROR(x, 7) ^ ROR(x, 18) ^ ((x) >> 3))
#define SMALL_S1(x) (ROR(x, 17) ^ ROR(x, 19) ^ ((x) >> 10))
/* One round, the eight working variables renamed instead of moved: the
** round's new `a` is written into h and its new `e` into d, and the next
** round is called with the names shifted by one. */
#define ROUND(a, b, c, d, e, f, g, h, i)                                     \
    do {                                                                     \
        uint32_t t1 = h + BIG_S1(e) + CH(e, f, g) + K[i] + w[i];             \
        d += t1;                                                             \
        h = t1 + BIG_S0(a) + MAJ(a, b, c);                                   \
    } while (0)

/* The compression function on one 64-byte block (a fingerprint hashes
** every file of a ruleset on each load: the rounds are unrolled by eight). */
static void block(sha256_ctx *c, const unsigned char *p) {
    uint32_t w[64];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
               (uint32_t)p[4 * i + 2] << 8 | (uint32_t)p[4 * i + 3];
    for (int i = 16; i < 64; i++) w[i] = w[i - 16] + SMALL_S0(w[i - 15]) + w[i - 7] + SMALL_S1(w[i - 2]);
    uint32_t a = c->h[0], b = c->h[1], cc = c->h[2], d = c->h[3];
    uint32_t e = c->h[4], f = c->h[5], g = c->h[6], h = c->h[7];
    for (int i = 0; i < 64; i += 8) {
        ROUND(a, b, cc, d, e, f, g, h, i);
        ROUND(h, a, b, cc, d, e, f, g, i + 1);
        ROUND(g, h, a, b, cc, d, e, f, i + 2);
        ROUND(f, g, h, a, b, cc, d, e, i + 3);
        ROUND(e, f, g, h, a, b, cc, d, i + 4);
        ROUND(d, e, f, g, h, a, b, cc, i + 5);
        ROUND(cc, d, e, f, g, h, a, b, i + 6);
        ROUND(b, cc, d, e, f, g, h, a, i + 7);
    }
    c->h[0] += a; c->h[1] += b; c->h[2] += cc; c->h[3] += d;
    c->h[4] += e; c->h[5] += f; c->h[6] += g; c->h[7] += h;
}

void sha256_init(sha256_ctx *c) {
    static const uint32_t iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(c->h, iv, sizeof iv);
    c->len = 0;
    c->nbuf = 0;
}

void sha256_update(sha256_ctx *c, const void *data, size_t n) {
    const unsigned char *p = data;
    c->len += n;
    if (c->nbuf > 0) { /* complete the buffered block first */
        size_t take = 64 - c->nbuf;
        if (take > n) take = n;
        memcpy(c->buf + c->nbuf, p, take);
        c->nbuf += take;
        p += take;
        n -= take;
        if (c->nbuf < 64) return;
        block(c, c->buf);
        c->nbuf = 0;
    }
    for (; n >= 64; p += 64, n -= 64) block(c, p); /* whole blocks straight from the input */
    memcpy(c->buf, p, n);
    c->nbuf = n;
}

void sha256_final(sha256_ctx *c, unsigned char out[32]) {
    uint64_t bits = c->len * 8;
    unsigned char pad = 0x80;
    sha256_update(c, &pad, 1);
    unsigned char zero = 0;
    while (c->nbuf != 56) sha256_update(c, &zero, 1);
    unsigned char lenb[8];
    for (int i = 0; i < 8; i++) lenb[i] = (unsigned char)(bits >> (56 - 8 * i));
    sha256_update(c, lenb, 8);
    for (int i = 0; i < 8; i++) {
        out[4 * i] = (unsigned char)(c->h[i] >> 24);
        out[4 * i + 1] = (unsigned char)(c->h[i] >> 16);
        out[4 * i + 2] = (unsigned char)(c->h[i] >> 8);
        out[4 * i + 3] = (unsigned char)c->h[i];
    }
}

void sha256_hex(const unsigned char digest[32], char out[65]) {
    static const char hex[] = "0123456789abcdef";
    for (int i = 0; i < 32; i++) {
        out[2 * i] = hex[digest[i] >> 4];
        out[2 * i + 1] = hex[digest[i] & 15];
    }
    out[64] = '\0';
}
