/*
** test_pattern.c
** Schema patterns against ECMA-262: for every construct of the subset in
** docs/schemas.md, subjects on which cairn's verdict must equal what
** JavaScript's `new RegExp(p, "u").test(s)` answers (worked out from the
** ECMA-262 grammar and semantics, and noted beside each case), and for
** every construct outside the subset, the refusal and its message. Every
** verdict below was also checked against V8 (node's RegExp with "u").
*/
#include "testutil.h"
#include "limits.h"
#include "pattern.h"

#include <stdio.h>

static char why[256];

/* The verdict of pattern p on the len bytes at s; the test fails if p is refused. */
static int match_n(const char *p, const char *s, size_t len) {
    pattern *re = pattern_compile(p, strlen(p), why, sizeof why);
    if (!re) fail_msg("pattern \"%s\" refused: %s", p, why);
    int r = pattern_search(re, s, len);
    pattern_free(re);
    assert_true(r == 0 || r == 1);
    return r;
}

static int match(const char *p, const char *s) { return match_n(p, s, strlen(s)); }

/* Why p is refused; the test fails if it compiles. */
static const char *refusal(const char *p) {
    pattern *re = pattern_compile(p, strlen(p), why, sizeof why);
    if (re) {
        pattern_free(re);
        fail_msg("pattern \"%s\" was accepted", p);
    }
    return why;
}

/* -------------------------------------------------- the accepted subset */

static void test_literals_and_search(void **st) {
    (void)st;
    /* a pattern is a search: /b/u.test("abc") is true, /^b/u.test("abc") false */
    assert_int_equal(match("b", "abc"), 1);
    assert_int_equal(match("^b", "abc"), 0);
    assert_int_equal(match("x", "abc"), 0);
    /* the empty pattern matches everywhere, the empty string included */
    assert_int_equal(match("", ""), 1);
    /* non-ASCII literals are one character each: /^é$/u.test("é") is true */
    assert_int_equal(match("^\xc3\xa9$", "\xc3\xa9"), 1);
    assert_int_equal(match("^\xc3\xa9$", "e"), 0);
    /* / and - and , are ordinary outside a class; /a-b\/c/u matches "a-b/c" */
    assert_int_equal(match("^a-b/c,$", "a-b/c,"), 1);
    /* no flags: matching is case-sensitive */
    assert_int_equal(match("abc", "ABC"), 0);
}

static void test_dot(void **st) {
    (void)st;
    /* . is any code point except the line terminators \n \r U+2028 U+2029 (no s flag) */
    assert_int_equal(match("^.$", "x"), 1);
    assert_int_equal(match("^.$", "\n"), 0);
    assert_int_equal(match("^.$", "\r"), 0);
    assert_int_equal(match("^.$", "\xe2\x80\xa8"), 0); /* U+2028 */
    assert_int_equal(match("^.$", "\xe2\x80\xa9"), 0); /* U+2029 */
    assert_int_equal(match("^.$", "\t"), 1);
    /* with the u flag a character past U+FFFF is one character: /^.$/u.test("😀") is true */
    assert_int_equal(match("^.$", "\xf0\x9f\x98\x80"), 1);
    assert_int_equal(match("^.$", "\xc3\xa9"), 1);
    assert_int_equal(match("^..$", "\xc3\xa9"), 0);
    /* a NUL is an ordinary character */
    assert_int_equal(match_n("^a.b$", "a\0b", 3), 1);
}

static void test_anchors(void **st) {
    (void)st;
    /* no m flag: ^ is the start of the input only, $ the end only, and
    ** $ does not match before a final newline (unlike POSIX and PCRE) */
    assert_int_equal(match("^abc$", "abc"), 1);
    assert_int_equal(match("^abc$", "abc\n"), 0);
    assert_int_equal(match("^b", "a\nb"), 0);
    assert_int_equal(match("a$", "a\nb"), 0);
    assert_int_equal(match("^$", ""), 1);
    /* anchors inside alternatives and groups: /(^a|b$)/u */
    assert_int_equal(match("(^a|b$)", "ca"), 0);
    assert_int_equal(match("(^a|b$)", "cb"), 1);
    assert_int_equal(match("(^a|b$)", "ac"), 1);
}

static void test_alternation_and_groups(void **st) {
    (void)st;
    assert_int_equal(match("^(red|blue)$", "blue"), 1);
    assert_int_equal(match("^(red|blue)$", "redblue"), 0);
    /* | binds loosest: /^red|blue$/u is (^red)|(blue$) */
    assert_int_equal(match("^red|blue$", "redx"), 1);
    assert_int_equal(match("^red|blue$", "xblue"), 1);
    assert_int_equal(match("^red|blue$", "xredx"), 0);
    /* an empty alternative matches the empty string: /^(a|)$/u.test("") is true */
    assert_int_equal(match("^(a|)$", ""), 1);
    assert_int_equal(match("^(?:ab)+$", "abab"), 1);
    assert_int_equal(match("^(?:ab)+$", "aba"), 0);
    assert_int_equal(match("^()$", ""), 1);
}

static void test_quantifiers(void **st) {
    (void)st;
    assert_int_equal(match("^a*$", ""), 1);
    assert_int_equal(match("^a*$", "aaa"), 1);
    assert_int_equal(match("^a+$", ""), 0);
    assert_int_equal(match("^a+$", "aa"), 1);
    assert_int_equal(match("^ab?c$", "ac"), 1);
    assert_int_equal(match("^ab?c$", "abbc"), 0);
    assert_int_equal(match("^a{3}$", "aaa"), 1);
    assert_int_equal(match("^a{3}$", "aaaa"), 0);
    assert_int_equal(match("^a{2,}$", "a"), 0);
    assert_int_equal(match("^a{2,}$", "aaaaa"), 1);
    assert_int_equal(match("^a{1,2}$", "aa"), 1);
    assert_int_equal(match("^a{1,2}$", "aaa"), 0);
    assert_int_equal(match("^a{0}$", ""), 1);
    /* lazy forms change which match is found, never whether one is:
    ** /^a*?$/u.test("aa") and /^a{1,2}?b$/u.test("aab") are true */
    assert_int_equal(match("^a*?$", "aa"), 1);
    assert_int_equal(match("^a+?b$", "aab"), 1);
    assert_int_equal(match("^a??b$", "b"), 1);
    assert_int_equal(match("^a{1,2}?b$", "aab"), 1);
    assert_int_equal(match("^a{2}?$", "a"), 0);
    /* a quantified group that can match empty still terminates */
    assert_int_equal(match("^(a*)*b$", "aaab"), 1);
    assert_int_equal(match("^(a*)*b$", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaac"), 0);
    /* the shipped fingerprint pattern */
    assert_int_equal(match("^[0-9a-f]{64}$",
                           "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"),
                     1);
    assert_int_equal(match("^[0-9a-f]{64}$", "0123456789abcdef"), 0);
}

static void test_classes(void **st) {
    (void)st;
    assert_int_equal(match("^[abc]$", "b"), 1);
    assert_int_equal(match("^[abc]$", "d"), 0);
    assert_int_equal(match("^[a-z]+$", "hello"), 1);
    assert_int_equal(match("^[a-z]+$", "Hello"), 0);
    assert_int_equal(match("^[^a-z]$", "A"), 1);
    assert_int_equal(match("^[^a-z]$", "q"), 0);
    /* a negated class matches a newline and a whole character past U+FFFF */
    assert_int_equal(match("^[^a]$", "\n"), 1);
    assert_int_equal(match("^[^a]$", "\xf0\x9f\x98\x80"), 1);
    /* - is literal first, last, or escaped: the issue's ^[a-z0-9\-_]+$ accepts "a-b" */
    assert_int_equal(match("^[a-z0-9\\-_]+$", "a-b"), 1);
    assert_int_equal(match("^[a-z0-9\\-_]+$", "a_b9"), 1);
    assert_int_equal(match("^[a-z0-9\\-_]+$", "a\\b"), 0); /* the backslash is an escape, not a member */
    assert_int_equal(match("^[-a]$", "-"), 1);
    assert_int_equal(match("^[a-]$", "-"), 1);
    assert_int_equal(match("^[a-z0-9_-]*$", "x-1_"), 1);
    /* a - right after a range is literal: /^[a-c-e]$/u matches "-" and "e", not "d" */
    assert_int_equal(match("^[a-c-e]$", "-"), 1);
    assert_int_equal(match("^[a-c-e]$", "e"), 1);
    assert_int_equal(match("^[a-c-e]$", "d"), 0);
    /* syntax characters are literal inside a class: /^[.*+?(){}|$^]+$/u */
    assert_int_equal(match("^[.*+?(){}|$]+$", "(.*)"), 1);
    assert_int_equal(match("^[.]$", "x"), 0);
    /* [ is literal inside a class; ] and \ need escaping */
    assert_int_equal(match("^[[]$", "["), 1);
    assert_int_equal(match("^[\\]]$", "]"), 1);
    assert_int_equal(match("^[\\\\]$", "\\"), 1);
    /* [] matches nothing, [^] any character (a newline too) */
    assert_int_equal(match("[]", "abc"), 0);
    assert_int_equal(match("^[^]$", "\n"), 1);
    /* \b in a class is a backspace (U+0008) */
    assert_int_equal(match("^[\\b]$", "\b"), 1);
    assert_int_equal(match("^[\\b]$", "b"), 0);
    /* ranges by code point, beyond ASCII too: /^[à-ÿ]$/u.test("é") is true */
    assert_int_equal(match("^[\xc3\xa0-\xc3\xbf]$", "\xc3\xa9"), 1);
    assert_int_equal(match("^[\xc3\xa0-\xc3\xbf]$", "e"), 0);
    /* class escapes inside a class */
    assert_int_equal(match("^[\\d.]+$", "3.14"), 1);
    assert_int_equal(match("^[\\w-]+$", "a-b_c"), 1);
    assert_int_equal(match("^[\\s,]+$", " ,\t"), 1);
    assert_int_equal(match("^[\\D]$", "7"), 0);
    assert_int_equal(match("^[\\D]$", "x"), 1);
    assert_int_equal(match("^[^\\W]$", "_"), 1);
    assert_int_equal(match("^[\\S]$", " "), 0);
    /* the save schema's player names: no braces and no control characters (Cc) */
    const char *name = "^[^{}\\x00-\\x1f\\x7f-\\x9f]+$";
    assert_int_equal(match(name, "Ann-Marie"), 1);
    assert_int_equal(match(name, "Jos\xc3\xa9"), 1);
    assert_int_equal(match(name, "a{b"), 0);
    assert_int_equal(match(name, "a\tb"), 0);
    assert_int_equal(match(name, "a\xc2\x85"), 0); /* U+0085, a C1 control */
}

static void test_class_escapes(void **st) {
    (void)st;
    /* \d and \w are ASCII only (u flag, no i flag); \s is Unicode white space */
    assert_int_equal(match("^\\d+$", "0123456789"), 1);
    assert_int_equal(match("^\\d$", "\xd9\xa3"), 0); /* U+0663 ARABIC-INDIC DIGIT THREE */
    assert_int_equal(match("^\\D$", "x"), 1);
    assert_int_equal(match("^\\D$", "5"), 0);
    assert_int_equal(match("^\\w+$", "az_AZ09"), 1);
    assert_int_equal(match("^\\w$", "\xc3\xa9"), 0);
    assert_int_equal(match("^\\W$", "-"), 1);
    assert_int_equal(match("^\\W$", "_"), 0);
    const char *spaces[] = {" ", "\t", "\n", "\v", "\f", "\r", "\xc2\xa0", "\xe1\x9a\x80",
                            "\xe2\x80\x80", "\xe2\x80\x8a", "\xe2\x80\xa8", "\xe2\x80\xa9",
                            "\xe2\x80\xaf", "\xe2\x81\x9f", "\xe3\x80\x80", "\xef\xbb\xbf"};
    for (size_t i = 0; i < sizeof spaces / sizeof spaces[0]; i++)
        if (match("^\\s$", spaces[i]) != 1) fail_msg("\\s should match space #%zu", i);
    /* U+180E stopped being white space in Unicode 6.3; U+200B never was */
    assert_int_equal(match("^\\s$", "\xe1\xa0\x8e"), 0);
    assert_int_equal(match("^\\s$", "\xe2\x80\x8b"), 0);
    assert_int_equal(match("^\\S$", "x"), 1);
    assert_int_equal(match("^\\S$", " "), 0);
}

static void test_word_boundaries(void **st) {
    (void)st;
    assert_int_equal(match("\\bcat\\b", "a cat."), 1);
    assert_int_equal(match("\\bcat\\b", "concat"), 0);
    assert_int_equal(match("\\Bcat", "concat"), 1);
    assert_int_equal(match("\\Bcat", "cat"), 0);
    /* a boundary between an ASCII letter and é: é is not a word character */
    assert_int_equal(match("a\\b", "a\xc3\xa9"), 1);
    assert_int_equal(match("^\\b$", ""), 0);
    assert_int_equal(match("^\\B$", ""), 1);
}

static void test_character_escapes(void **st) {
    (void)st;
    assert_int_equal(match("^\\t\\n\\v\\f\\r$", "\t\n\v\f\r"), 1);
    assert_int_equal(match("^\\t$", "t"), 0); /* POSIX read it as the letter t */
    assert_int_equal(match("^\\x41\\x7a$", "Az"), 1);
    assert_int_equal(match("^\\u00e9$", "\xc3\xa9"), 1);
    assert_int_equal(match("^\\u{1F600}$", "\xf0\x9f\x98\x80"), 1);
    /* a surrogate pair written as two \u escapes is one character with the u flag */
    assert_int_equal(match("^\\uD83D\\uDE00$", "\xf0\x9f\x98\x80"), 1);
    assert_int_equal(match("^\\cJ$", "\n"), 1);
    assert_int_equal(match("^\\cj$", "\n"), 1);
    assert_int_equal(match("^\\cJ$", "J"), 0);
    assert_int_equal(match_n("^\\0$", "\0", 1), 1);
    assert_int_equal(match("^\\0$", "0"), 0);
    /* identity escapes of the syntax characters and / */
    assert_int_equal(match("^\\^\\$\\\\\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\/$", "^$\\.*+?()[]{}|/"), 1);
    assert_int_equal(match("\\.lua$", "rules.lua"), 1);
    assert_int_equal(match("\\.lua$", "rulesxlua"), 0);
}

/* ------------------------------------------- outside the subset: refused */

static void test_refused_constructs(void **st) {
    (void)st;
    assert_string_equal(refusal("(a)\\1"), "back-reference \\1 is not supported (at character 4)");
    assert_string_equal(refusal("(?<x>a)\\k<x>"),
                        "named group (?<name>...) is not supported; write (...) (at character 1)");
    assert_string_equal(refusal("a\\k<x>"), "named back-reference \\k<...> is not supported (at character 2)");
    assert_string_equal(refusal("a(?=b)"), "lookahead (?=...) is not supported (at character 2)");
    assert_string_equal(refusal("a(?!b)"), "lookahead (?!...) is not supported (at character 2)");
    assert_string_equal(refusal("(?<=a)b"), "lookbehind (?<=...) is not supported (at character 1)");
    assert_string_equal(refusal("(?<!a)b"), "lookbehind (?<!...) is not supported (at character 1)");
    assert_string_equal(refusal("(?i:a)"),
                        "(? that is not (?:...) is not supported (no modifiers, no lookaround) (at "
                        "character 1)");
    assert_string_equal(refusal("^\\p{L}+$"),
                        "Unicode property escape \\p{...} is not supported (at character 2)");
    assert_string_equal(refusal("\\P{L}"), "Unicode property escape \\P{...} is not supported (at character 1)");
    /* escapes ECMA-262 with the u flag refuses (without it, the editor reads a letter) */
    assert_string_equal(refusal("^a\\_b$"),
                        "\\_ is not an escape in ECMA-262 (only \\ before one of ^$\\.*+?()[]{}|/ "
                        "and, inside [...], -); write _ (at character 3)");
    assert_string_equal(refusal("\\a"),
                        "\\a is not an escape in ECMA-262 (only \\ before one of ^$\\.*+?()[]{}|/ "
                        "and, inside [...], -); write a (at character 1)");
    assert_string_equal(refusal("a\\-b"), "\\- is only an escape inside [...]; write - outside (at character 2)");
    assert_string_equal(refusal("\\01"), "octal escape \\01 is not supported; write \\xHH (at character 1)");
    assert_string_equal(refusal("[\\B]"), "\\B inside [...] is not an escape (at character 2)");
    assert_string_equal(refusal("\\\xc3\xa9"),
                        "a backslash before this character is not an escape in ECMA-262 (at character 1)");
    assert_string_equal(refusal("a\\"), "a pattern cannot end with a lone backslash (at character 2)");
}

static void test_refused_posix_habits(void **st) {
    (void)st;
    /* docs/schemas.md used to recommend [[:space:]]: the editor reads it as a
    ** class of [ : s p a c e followed by a literal ] */
    assert_string_equal(refusal("^[[:space:]]+$"),
                        "POSIX bracket expression [:name:] is not ECMA-262 (there it is the characters "
                        "themselves); write \\s, \\d, \\w or list the characters (at character 3)");
    assert_string_equal(refusal("[[=a=]]"),
                        "POSIX bracket expression [=x=] is not ECMA-262 (there it is the characters "
                        "themselves); write \\s, \\d, \\w or list the characters (at character 2)");
    assert_string_equal(refusal("[[.a.]]"),
                        "POSIX bracket expression [.x.] is not ECMA-262 (there it is the characters "
                        "themselves); write \\s, \\d, \\w or list the characters (at character 2)");
    /* lone ] { } are syntax errors with the u flag */
    assert_string_equal(refusal("a]"), "lone ]; write \\] for the character (at character 2)");
    assert_string_equal(refusal("a}"), "lone }; write \\} for the character (at character 2)");
    assert_string_equal(refusal("a{"),
                        "{ that does not start a count {n}, {n,} or {n,m}; write \\{ for the character "
                        "(at character 2)");
    assert_string_equal(refusal("a{,3}"),
                        "{ that does not start a count {n}, {n,} or {n,m}; write \\{ for the character "
                        "(at character 2)");
    assert_string_equal(refusal("{1}"),
                        "{ with nothing to repeat before it; write \\{ for the character (at character 1)");
}

static void test_refused_syntax(void **st) {
    (void)st;
    assert_string_equal(refusal("*a"), "* with nothing to repeat before it; write \\* for the character (at character 1)");
    assert_string_equal(refusal("a|+"), "+ with nothing to repeat before it; write \\+ for the character (at character 3)");
    assert_string_equal(refusal("(?a)"),
                        "(? that is not (?:...) is not supported (no modifiers, no lookaround) (at "
                        "character 1)");
    assert_string_equal(refusal("^*"), "an assertion (^, $, \\b, \\B) cannot be repeated (at character 2)");
    assert_string_equal(refusal("\\b+"), "an assertion (^, $, \\b, \\B) cannot be repeated (at character 3)");
    assert_string_equal(refusal("a**"), "a quantifier cannot follow another (no possessive *+ or ++) (at character 3)");
    assert_string_equal(refusal("a{2}{3}"), "a quantifier cannot follow another (no possessive *+ or ++) (at character 5)");
    assert_string_equal(refusal("a{3,2}"), "count {3,2} has its numbers out of order (at character 2)");
    assert_string_equal(refusal("[z-a]"), "range out of order (U+007A to U+0061) (at character 2)");
    assert_string_equal(refusal("[\\d-z]"), "a class escape (\\d) cannot be the end of a range (at character 2)");
    assert_string_equal(refusal("[a-\\w]"), "a class escape (\\w) cannot be the end of a range (at character 2)");
    assert_string_equal(refusal("[abc"), "[ without its closing ] (at character 1)");
    assert_string_equal(refusal("x(ab"), "( without its closing ) (at character 2)");
    assert_string_equal(refusal("ab)"), "unmatched ); write \\) for the character (at character 3)");
    assert_string_equal(refusal("\\c1"), "\\c must be followed by a letter (\\cA to \\cZ) (at character 1)");
    assert_string_equal(refusal("\\x4"), "\\x must be followed by two hex digits (at character 1)");
    assert_string_equal(refusal("\\u12"),
                        "\\u must be followed by four hex digits or {hex digits} (at character 1)");
    assert_string_equal(refusal("\\u{}"), "\\u{ must be followed by hex digits and } (at character 1)");
    assert_string_equal(refusal("\\u{110000}"), "\\u{...} past U+10FFFF is not a character (at character 1)");
    assert_string_equal(refusal("\\uD800"),
                        "\\uD800 is a lone surrogate, which no UTF-8 string holds; write \\u{...} for "
                        "characters past U+FFFF (at character 1)");
    assert_string_equal(refusal("\\u{DC00}"),
                        "\\u{DC00} is a lone surrogate, which no UTF-8 string holds (at character 1)");
    assert_string_equal(refusal("a\xff"), "the pattern is not valid UTF-8 (at character 2)");
}

static void test_refused_limits(void **st) {
    (void)st;
    char deep[2 * CAIRN_PATTERN_MAX_DEPTH + 8];
    size_t n = 0;
    for (int i = 0; i <= CAIRN_PATTERN_MAX_DEPTH; i++) deep[n++] = '(';
    for (int i = 0; i <= CAIRN_PATTERN_MAX_DEPTH; i++) deep[n++] = ')';
    deep[n] = '\0';
    char expect[160];
    snprintf(expect, sizeof expect,
             "groups nested more than %d deep (limit CAIRN_PATTERN_MAX_DEPTH) (at character %d)",
             CAIRN_PATTERN_MAX_DEPTH, CAIRN_PATTERN_MAX_DEPTH + 1);
    assert_string_equal(refusal(deep), expect);
    deep[CAIRN_PATTERN_MAX_DEPTH] = '\0'; /* exactly the limit: accepted */
    memset(deep + CAIRN_PATTERN_MAX_DEPTH, ')', CAIRN_PATTERN_MAX_DEPTH);
    deep[2 * CAIRN_PATTERN_MAX_DEPTH] = '\0';
    assert_int_equal(match(deep + 0, ""), 1);
    snprintf(expect, sizeof expect,
             "pattern is too large: it compiles to more than %d steps (limit "
             "CAIRN_PATTERN_MAX_PROGRAM); use smaller counts in {n,m}",
             CAIRN_PATTERN_MAX_PROGRAM);
    assert_string_equal(refusal("a{5000}"), expect);
    assert_string_equal(refusal("(a{100}){100}"), expect);
    assert_string_equal(refusal("a{99999999999999999999}"), expect); /* no overflow */
    assert_string_equal(refusal("((){5000}){5000}"), expect);        /* empty bodies count too */
    assert_int_equal(match("^a{1000}$", ""), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_literals_and_search),
        cmocka_unit_test(test_dot),
        cmocka_unit_test(test_anchors),
        cmocka_unit_test(test_alternation_and_groups),
        cmocka_unit_test(test_quantifiers),
        cmocka_unit_test(test_classes),
        cmocka_unit_test(test_class_escapes),
        cmocka_unit_test(test_word_boundaries),
        cmocka_unit_test(test_character_escapes),
        cmocka_unit_test(test_refused_constructs),
        cmocka_unit_test(test_refused_posix_habits),
        cmocka_unit_test(test_refused_syntax),
        cmocka_unit_test(test_refused_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
