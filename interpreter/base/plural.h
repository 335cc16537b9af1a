/*
** plural.h
** Plural forms, CLDR-style: which category (one, other, ...) a count falls in
** for a language, so a text table can hold one form per category and the
** engine's own messages say "1 decision", "2 decisions".
*/
#ifndef CAIRN_PLURAL_H
#define CAIRN_PLURAL_H

/* The CLDR plural category of the integer n in language lang (a code such as
** "en", "de", "el"): "one" or "other" for the languages below; a language
** cairn has no rule for uses the English rule (docs/lua-api.md lists them). */
const char *plural_category(const char *lang, long long n);

/* English word forms for the engine's own messages: one when n is 1, else
** other ("decision" / "decisions"). */
const char *plural_en(long long n, const char *one, const char *other);

#endif
