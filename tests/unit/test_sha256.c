/*
** test_sha256.c
** The fingerprint's SHA-256 against the FIPS 180-2 examples (one block,
** two blocks, a million bytes), the empty message, and the same message fed
** in pieces of every size from 1 to 130 bytes (the buffered and the direct
** paths of sha256_update give the same digest).
*/
#include "testutil.h"
#include "sha256.h"

static void digest_of(const void *data, size_t n, size_t piece, char hex[65]) {
    sha256_ctx c;
    sha256_init(&c);
    const unsigned char *p = data;
    while (n > 0) {
        size_t k = piece && piece < n ? piece : n;
        sha256_update(&c, p, k);
        p += k;
        n -= k;
    }
    unsigned char d[32];
    sha256_final(&c, d);
    sha256_hex(d, hex);
}

static void test_fips_examples(void **st) {
    (void)st;
    char hex[65];
    digest_of("", 0, 0, hex);
    assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    digest_of("abc", 3, 0, hex);
    assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    digest_of(two, strlen(two), 0, hex);
    assert_string_equal(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    char *million = malloc(1000000);
    assert_non_null(million);
    memset(million, 'a', 1000000);
    digest_of(million, 1000000, 0, hex);
    assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    digest_of(million, 1000000, 1000, hex); /* 1000-byte pieces: not a multiple of 64 */
    assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    free(million);
}

static void test_pieces_agree(void **st) {
    (void)st;
    unsigned char msg[300];
    for (size_t i = 0; i < sizeof msg; i++) msg[i] = (unsigned char)(i * 7 + 3);
    char whole[65], parts[65];
    digest_of(msg, sizeof msg, 0, whole);
    for (size_t piece = 1; piece <= 130; piece++) {
        digest_of(msg, sizeof msg, piece, parts);
        assert_string_equal(parts, whole);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fips_examples),
        cmocka_unit_test(test_pieces_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
