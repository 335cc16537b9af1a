/*
** value_json.h
** Writes a value tree as JSON (RFC 8259): maps in their order, strings
** escaped, integers as numbers. For editors and tools that want JSON where
** cairn keeps YAML (`cairn schema NAME`).
*/
#ifndef CAIRN_VALUE_JSON_H
#define CAIRN_VALUE_JSON_H

#include "strbuf.h"
#include "value.h"

#include <stdio.h>

/* Writes v to out, indented by two spaces a level, with a final newline.
** 0, or -1 when writing failed. */
int value_write_json(FILE *out, const value *v);

/* Appends v to b as compact JSON on one line (no spaces, no newline), for
** messages that are one line each (the seat protocol). NULL is "null". */
void value_json_put(strbuf *b, const value *v);

#endif
