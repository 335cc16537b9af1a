/*
** json_string.h
** The one writer of a JSON string literal in cairn (RFC 8259): the saves'
** edit lines, `cairn schema`'s JSON and every `cairn sim` file use it. The
** output is always valid UTF-8 JSON, whatever the bytes given: a byte that
** does not belong to a well-formed UTF-8 sequence (a Lua label is any
** bytes) is written as \ufffd, the replacement character, never raw.
*/
#ifndef CAIRN_JSON_STRING_H
#define CAIRN_JSON_STRING_H

#include <stddef.h>
#include <stdio.h>

#include "strbuf.h"

/* Appends s[0..n) (it may hold NULs) as a quoted JSON string: `"` and `\`
** escaped, \n \r \t by name, other control characters and DEL as \u00XX,
** well-formed UTF-8 (no overlongs, no surrogates, at most U+10FFFF) as it
** is, each byte of anything else as \ufffd. */
void json_string_put(strbuf *b, const char *s, size_t n);

/* The same to a stream; NULL writes "". */
void json_string_write(FILE *f, const char *s, size_t n);
void json_string_writez(FILE *f, const char *s);

/* The length of the well-formed UTF-8 sequence at s[0..n): 1 to 4, or 0
** when s[0] starts none (a stray continuation byte, an overlong form, a
** surrogate, past U+10FFFF, cut short). */
size_t json_utf8_len(const unsigned char *s, size_t n);

#endif
