/*
** sha256.h
** SHA-256 (FIPS 180-4), for ruleset fingerprints. Streaming interface.
*/
#ifndef CAIRN_SHA256_H
#define CAIRN_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct sha256_ctx {
    uint32_t h[8];
    uint64_t len;        /* bytes hashed so far */
    unsigned char buf[64];
    size_t nbuf;
} sha256_ctx;

void sha256_init(sha256_ctx *c);
void sha256_update(sha256_ctx *c, const void *data, size_t n);
void sha256_final(sha256_ctx *c, unsigned char out[32]);
/* Lower-case hex of the digest into out[65] (NUL-terminated). */
void sha256_hex(const unsigned char digest[32], char out[65]);

#endif
