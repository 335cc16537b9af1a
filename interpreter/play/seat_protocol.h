/*
** seat_protocol.h
** The seat protocol (docs/protocol.md, schemas/seat-protocol.schema.json):
** JSON lines, one message a line, between a game and whoever plays one
** seat through a program or a page (`--bot SEAT=exec:COMMAND`, `cairn
** serve`). The game tells a seat what its view allows (a "state" message);
** the seat answers with an option id or a line as typed at the console,
** and gets a "reply": ok, or an error with a reason (the game unchanged).
** Everything a seat is sent goes through that seat's view: engine_view,
** engine_events for the seat, render for the seat, its own decision.
*/
#ifndef CAIRN_SEAT_PROTOCOL_H
#define CAIRN_SEAT_PROTOCOL_H

#include <stddef.h>

#include "engine.h"
#include "error.h"
#include "strbuf.h"

/* The protocol's version, the "protocol" field of every state message. A
** change that a client written for an older version could misread raises
** it; new fields alone do not (clients ignore fields they do not know). */
#define SEAT_PROTOCOL_VERSION 1

/* Appends one state message (a JSON object, no newline) for seat (1..n;
** 0: a spectator, who is never asked) to out: protocol version, ruleset
** id, seat and its name, the seats, the position, who is asked, whether
** seat is asked, the board (render for seat at width x height, markup
** stripped, terminal-safe; 0 for either: not known), the structured view,
** the news (events seat may see with index >= news_since; "news_next" is
** the news_since for the next message), the question with every option
** (id, label, number, enabled or why not) when seat is asked, and the
** final scores once the game is over. 0, or -1 after appending an error
** (no such seat, out of memory); out may then hold part of a message. */
int seat_protocol_state(engine *e, int seat, size_t news_since, int width, int height, strbuf *out,
                        cerr_list *errs);

/* What seat_protocol_answer did. */
enum {
    SEAT_PROTOCOL_APPLIED = 0, /* the answer was applied: reply {"ok":true,...} */
    SEAT_PROTOCOL_REFUSED = 1  /* refused, the game unchanged: reply {"ok":false,"error":...} */
};

/* Reads one line a seat sent ({"answer":"OPTION_ID"} or {"text":"as typed
** at the console"}, optionally with "position": N, refused when the game
** is no longer at position N) and applies it for seat only. Appends the
** reply object (no newline) to reply. SEAT_PROTOCOL_APPLIED, or
** SEAT_PROTOCOL_REFUSED with a reply that says why (not JSON, an unknown
** field, not asked, a disabled or unknown option, a stale position, a rules
** error), the game unchanged; -1 after appending an error only when out of
** memory or seat is no seat. Never trusts line: any bytes, any length. */
int seat_protocol_answer(engine *e, int seat, const char *line, strbuf *reply, cerr_list *errs);

/* The same line read but not applied, for a caller that applies answers
** itself (a bot: exec agents): SEAT_PROTOCOL_APPLIED with *ids (malloc'd,
** free with engine_parse_free; *n >= 1) the option ids it names in order,
** the first checked legal now (the rest answer the seat's next decisions,
** checked when applied); or SEAT_PROTOCOL_REFUSED with the error reply in
** reply; -1 as seat_protocol_answer. */
int seat_protocol_read(engine *e, int seat, const char *line, char ***ids, size_t *n, strbuf *reply,
                       cerr_list *errs);

#endif
