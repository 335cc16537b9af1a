/*
** plural.c
** CLDR plural categories for integer counts (plural.h). Only integers reach
** here (a text's count is an integer argument), so the rules are CLDR's with
** v = 0 (no visible fraction digits).
*/
#include "plural.h"

#include <limits.h>
#include <string.h>

/* one: n = 1, other: everything else (en, de, el and many more) */
static const char *rule_one_is_1(long long n) { return n == 1 ? "one" : "other"; }

/* one: n = 0 or 1 (fr, pt: CLDR's i = 0,1) */
static const char *rule_one_is_0_1(long long n) { return n == 0 || n == 1 ? "one" : "other"; }

/* no plural distinction at all (ja, zh, ko, ...) */
static const char *rule_other(long long n) {
    (void)n;
    return "other";
}

typedef struct plural_rule {
    const char *lang;
    const char *(*category)(long long n);
} plural_rule;

static const plural_rule rules[] = {
    {"en", rule_one_is_1}, {"de", rule_one_is_1}, {"el", rule_one_is_1}, {"nl", rule_one_is_1},
    {"sv", rule_one_is_1}, {"da", rule_one_is_1}, {"nb", rule_one_is_1}, {"fi", rule_one_is_1},
    {"it", rule_one_is_1}, {"es", rule_one_is_1}, {"ca", rule_one_is_1}, {"hu", rule_one_is_1},
    {"tr", rule_one_is_1}, {"bg", rule_one_is_1}, {"et", rule_one_is_1}, {"fr", rule_one_is_0_1},
    {"pt", rule_one_is_0_1}, {"ja", rule_other}, {"zh", rule_other}, {"ko", rule_other},
    {"vi", rule_other}, {"th", rule_other},
};

const char *plural_category(const char *lang, long long n) {
    if (n < 0) n = n == LLONG_MIN ? LLONG_MAX : -n; /* CLDR's n is the absolute value */
    for (size_t i = 0; lang && i < sizeof rules / sizeof rules[0]; i++)
        if (strcmp(rules[i].lang, lang) == 0) return rules[i].category(n);
    return rule_one_is_1(n);
}

const char *plural_en(long long n, const char *one, const char *other) { return n == 1 ? one : other; }
