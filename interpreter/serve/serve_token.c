/*
** serve_token.c
** The seats' tokens: 128 random bits from getrandom() written as hex, and
** their comparison in constant time (a request's token is compared with
** every seat's whole token, whatever byte differs first).
*/
#include "serve_internal.h"

#include <errno.h>
#include <string.h>
#include <sys/random.h>

int serve_token_new(char *hex) {
    unsigned char raw[SERVE_TOKEN_BYTES];
    size_t got = 0;
    while (got < sizeof raw) {
        ssize_t n = getrandom(raw + got, sizeof raw - got, 0);
        if (n < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        got += (size_t)n;
    }
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < sizeof raw; i++) {
        hex[2 * i] = digits[raw[i] >> 4];
        hex[2 * i + 1] = digits[raw[i] & 15];
    }
    hex[SERVE_TOKEN_HEX] = '\0';
    memset(raw, 0, sizeof raw);
    return 0;
}

int serve_token_equal(const char *a, size_t n, const char *token) {
    /* the length is no secret (every token has the same), the bytes are */
    if (n != SERVE_TOKEN_HEX) return 0;
    volatile unsigned char diff = 0;
    for (size_t i = 0; i < SERVE_TOKEN_HEX; i++) diff |= (unsigned char)(a[i] ^ token[i]);
    return diff == 0;
}
