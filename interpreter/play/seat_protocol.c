/*
** seat_protocol.c
** The seat protocol's two messages (seat_protocol.h): the state a seat may
** see, written with the project's JSON writer (json_string, value_json),
** and a seat's answer, read with json-c and applied as the console would
** apply the same answer (answer_match.c, the ruleset's parse).
*/
#include "seat_protocol.h"

#include "answer_match.h"
#include "json_string.h"
#include "limits.h"
#include "markup.h"
#include "termsafe.h"
#include "value_json.h"

#include <json.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ writing */

static void put_str(strbuf *b, const char *s) {
    if (!s) strbuf_puts(b, "null");
    else json_string_put(b, s, strlen(s));
}

static void put_key(strbuf *b, const char *key) {
    strbuf_putc(b, ',');
    put_str(b, key);
    strbuf_putc(b, ':');
}

/* Ruleset text as a seat reads it: terminal-safe (termsafe.c), markup
** ({bold}) removed. Malloc'd; NULL on OOM. */
static char *plain_text(const char *s) {
    char *safe = termsafe_text(s ? s : "");
    char *plain = safe ? markup_render(safe, 0) : NULL;
    free(safe);
    return plain;
}

static void put_plain(strbuf *b, const char *s) {
    char *p = plain_text(s);
    if (!p) b->oom = 1;
    else put_str(b, p);
    free(p);
}

static void put_seats(strbuf *b, const engine *e) {
    int n = engine_seat_count(e);
    put_key(b, "seats");
    strbuf_putc(b, '[');
    for (int s = 1; s <= n; s++) {
        strbuf_printf(b, "%s{\"seat\":%d,\"name\":", s > 1 ? "," : "", s);
        put_plain(b, engine_seat_name(e, s));
        /* an outside program's command line is its owner's (it may hold a
        ** key or a path): the others are told only that a program plays */
        const char *kind = engine_seat_bot(e, s);
        strbuf_puts(b, ",\"bot\":");
        put_str(b, kind && !strncmp(kind, "exec:", 5) ? "exec" : kind);
        strbuf_putc(b, '}');
    }
    strbuf_putc(b, ']');
}

/* The seats asked now that seat may know of (a hidden decision is told to
** its own seat only), and seat's own decision (NULL: not asked). */
static void put_asked(strbuf *b, const engine_decision_list *dl, int seat) {
    put_key(b, "asked");
    strbuf_putc(b, '[');
    int first = 1;
    for (size_t i = 0; i < dl->n; i++) {
        if (dl->items[i].hidden && dl->items[i].seat != seat) continue;
        strbuf_printf(b, "%s%d", first ? "" : ",", dl->items[i].seat);
        first = 0;
    }
    strbuf_putc(b, ']');
}

static void put_question(strbuf *b, const engine_decision *d) {
    put_key(b, "question");
    if (!d) {
        strbuf_puts(b, "null");
        return;
    }
    strbuf_puts(b, "{\"prompt\":");
    put_plain(b, d->prompt);
    strbuf_puts(b, ",\"options\":[");
    for (size_t i = 0; i < d->n_options; i++) {
        const engine_option *o = &d->options[i];
        strbuf_printf(b, "%s{\"number\":%zu,\"id\":", i ? "," : "", i + 1);
        put_str(b, o->id);
        strbuf_puts(b, ",\"label\":");
        put_plain(b, o->label ? o->label : o->id);
        strbuf_printf(b, ",\"enabled\":%s", o->disabled ? "false" : "true");
        if (o->disabled) {
            strbuf_puts(b, ",\"disabled\":");
            put_plain(b, o->disabled);
        }
        strbuf_putc(b, '}');
    }
    strbuf_puts(b, "]}");
}

static int put_board(strbuf *b, engine *e, int seat, int width, int height) {
    cerr_list rerrs;
    cerr_init(&rerrs, 0);
    char *text = engine_render_screen(e, seat, width > 0 ? width : 0, height > 0 ? height : 0, &rerrs);
    put_key(b, "board");
    if (text) {
        put_plain(b, text);
    } else {
        /* a render that fails is the ruleset's bug: the seat still gets its
        ** question, with the error where the board would be */
        char *m = rerrs.n ? cerr_format(&rerrs.items[0]) : NULL;
        strbuf_puts(b, "null");
        put_key(b, "board_error");
        put_plain(b, m ? m : "render failed");
        free(m);
    }
    free(text);
    cerr_free(&rerrs);
    return 0;
}

static int put_news(strbuf *b, const engine *e, int seat, size_t since) {
    engine_event_list ev = {0};
    size_t count = engine_event_count(e);
    if (since > count) since = count; /* the game went back (undo) */
    if (engine_events(e, since, seat, &ev) != 0) return -1;
    put_key(b, "news");
    strbuf_putc(b, '[');
    for (size_t i = 0; i < ev.n; i++) {
        strbuf_printf(b, "%s{\"index\":%zu,\"decision\":%zu,\"text\":", i ? "," : "", ev.items[i].index,
                      ev.items[i].decision);
        put_plain(b, ev.items[i].text);
        strbuf_putc(b, '}');
    }
    strbuf_putc(b, ']');
    engine_event_list_free(&ev);
    put_key(b, "news_next");
    strbuf_printf(b, "%zu", count);
    return 0;
}

static int put_scores(strbuf *b, engine *e, cerr_list *errs) {
    put_key(b, "scores");
    if (!engine_is_over(e)) {
        strbuf_puts(b, "null");
        return 0;
    }
    engine_score sc;
    cerr_list serrs;
    cerr_init(&serrs, 0);
    if (engine_score_get(e, &sc, &serrs) != 0) {
        /* no score (or a broken one): said, not fatal */
        char *m = serrs.n ? cerr_format(&serrs.items[0]) : NULL;
        strbuf_puts(b, "null");
        put_key(b, "scores_error");
        put_plain(b, m ? m : "score failed");
        free(m);
        int oom = serrs.oom;
        cerr_free(&serrs);
        if (oom) errs->oom = 1;
        return oom ? -1 : 0;
    }
    cerr_free(&serrs);
    strbuf_putc(b, '[');
    for (size_t i = 0; i < sc.n; i++) {
        const engine_seat_score *s = &sc.seats[i];
        strbuf_printf(b, "%s{\"seat\":%zu,\"total\":%lld,\"rank\":%d", i ? "," : "", i + 1, (long long)s->total,
                      s->rank);
        if (s->has_tiebreak) strbuf_printf(b, ",\"tiebreak\":%lld", (long long)s->tiebreak);
        strbuf_puts(b, ",\"items\":[");
        for (size_t j = 0; j < s->n_items; j++) {
            strbuf_puts(b, j ? ",{\"label\":" : "{\"label\":");
            put_plain(b, s->items[j].label);
            strbuf_puts(b, ",\"key\":");
            put_str(b, s->items[j].key);
            strbuf_printf(b, ",\"points\":%lld}", (long long)s->items[j].points);
        }
        strbuf_puts(b, "]}");
    }
    strbuf_putc(b, ']');
    engine_score_free(&sc);
    return 0;
}

int seat_protocol_state(engine *e, int seat, size_t news_since, int width, int height, strbuf *out,
                        cerr_list *errs) {
    int n = engine_seat_count(e);
    if (seat < 0 || seat > n) {
        char seat_text[24], last[24];
        snprintf(seat_text, sizeof seat_text, "%d", seat);
        snprintf(last, sizeof last, "%d", n);
        cerr_addk(errs, NULL, 0, 0, NULL, "seat.no_seat_watch",
                  "seat protocol: no seat %s (this game has seats 1 to %s, 0 to watch)", seat_text, last);
        return -1;
    }
    engine_decision_list dl = {0};
    if (engine_decisions(e, &dl) != 0) {
        errs->oom = 1;
        return -1;
    }
    const engine_decision *mine = seat ? answer_decision_of(&dl, seat) : NULL;
    const ruleset *rs = engine_ruleset(e);
    strbuf_printf(out, "{\"type\":\"state\",\"protocol\":%d,\"ruleset\":", SEAT_PROTOCOL_VERSION);
    put_str(out, rs && rs->id ? rs->id : engine_ruleset_arg(e));
    strbuf_printf(out, ",\"seat\":%d,\"name\":", seat);
    if (seat) put_plain(out, engine_seat_name(e, seat));
    else strbuf_puts(out, "null");
    put_seats(out, e);
    strbuf_printf(out, ",\"position\":%zu,\"over\":%s", engine_position(e), engine_is_over(e) ? "true" : "false");
    put_asked(out, &dl, seat);
    strbuf_printf(out, ",\"your_turn\":%s", mine ? "true" : "false");
    int rc = put_board(out, e, seat, width, height);
    value *view = engine_view(e, seat);
    put_key(out, "view");
    if (!view) rc = -1;
    value_json_put(out, view);
    value_free(view);
    if (rc == 0 && put_news(out, e, seat, news_since) != 0) rc = -1;
    put_question(out, mine);
    engine_decision_list_free(&dl);
    if (rc == 0 && put_scores(out, e, errs) != 0) rc = -1;
    strbuf_putc(out, '}');
    if (rc != 0 || out->oom) {
        errs->oom = 1;
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------ reading */

/* An error reply: code (a word a program tests) and the reason (a person
** reads). Returns SEAT_PROTOCOL_REFUSED. */
static int refuse(strbuf *reply, const engine *e, const char *code, const char *reason) {
    strbuf_puts(reply, "{\"type\":\"reply\",\"ok\":false,\"code\":");
    put_str(reply, code);
    strbuf_puts(reply, ",\"error\":");
    char *p = plain_text(reason ? reason : code);
    put_str(reply, p ? p : code);
    free(p);
    strbuf_printf(reply, ",\"position\":%zu}", engine_position(e));
    return SEAT_PROTOCOL_REFUSED;
}

static const char *status_code(engine_status st) {
    switch (st) {
    case ENGINE_NOT_ASKED: return "not_asked";
    case ENGINE_DISABLED: return "disabled";
    case ENGINE_UNKNOWN: return "unknown_option";
    case ENGINE_GAME_OVER: return "game_over";
    case ENGINE_RULES_ERROR: return "rules_error";
    case ENGINE_NO_MEMORY: return "no_memory";
    case ENGINE_OK: break;
    }
    return "ok";
}

/* What a line asks, once read. */
typedef struct seat_request {
    const char *answer; /* borrowed from the parsed object */
    const char *text;
    long long position; /* -1: not given */
} seat_request;

/* Reads line into q (strings borrowed from *root, which the caller puts).
** NULL when it is a request, else the reason it is not. */
static const char *read_request(const char *line, json_object **root, seat_request *q, char *why, size_t whysz) {
    q->answer = q->text = NULL;
    q->position = -1;
    *root = NULL;
    size_t len = strlen(line);
    while (len && (line[len - 1] == '\n' || line[len - 1] == '\r')) len--;
    if (len > CAIRN_SEAT_PROTOCOL_MAX_LINE) {
        snprintf(why, whysz, "the line is %zu bytes long; the most is %d (CAIRN_SEAT_PROTOCOL_MAX_LINE)", len,
                 CAIRN_SEAT_PROTOCOL_MAX_LINE);
        return why;
    }
    json_tokener *tok = json_tokener_new();
    if (!tok) return "out of memory";
    json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
    json_object *o = json_tokener_parse_ex(tok, line, (int)len);
    enum json_tokener_error jerr = json_tokener_get_error(tok);
    size_t used = json_tokener_get_parse_end(tok);
    json_tokener_free(tok);
    if (!o || jerr != json_tokener_success) {
        json_object_put(o);
        snprintf(why, whysz, "not JSON: %s", jerr == json_tokener_continue ? "the line ends inside a value"
                                                                          : json_tokener_error_desc(jerr));
        return why;
    }
    *root = o;
    for (size_t i = used; i < len; i++)
        if (line[i] != ' ' && line[i] != '\t') {
            snprintf(why, whysz, "not JSON: something follows the object at byte %zu", used + 1);
            return why;
        }
    if (!json_object_is_type(o, json_type_object)) return "expected a JSON object: {\"answer\":\"ID\"} or {\"text\":\"...\"}";
    json_object_object_foreach(o, key, val) {
        if (!strcmp(key, "answer") || !strcmp(key, "text")) {
            if (!json_object_is_type(val, json_type_string) ||
                strlen(json_object_get_string(val)) != (size_t)json_object_get_string_len(val)) {
                snprintf(why, whysz, "\"%s\" takes a string (without NUL)", key);
                return why;
            }
            if (!strcmp(key, "answer")) q->answer = json_object_get_string(val);
            else q->text = json_object_get_string(val);
        } else if (!strcmp(key, "position")) {
            if (!json_object_is_type(val, json_type_int) || json_object_get_int64(val) < 0) {
                snprintf(why, whysz, "\"position\" takes a whole number >= 0");
                return why;
            }
            q->position = (long long)json_object_get_int64(val);
        } else {
            char *k = plain_text(key);
            snprintf(why, whysz, "unknown field \"%.60s\"; a request has \"answer\" or \"text\", and may have \"position\"",
                     k ? k : "?");
            free(k);
            return why;
        }
    }
    if (!q->answer == !q->text)
        return q->answer ? "give \"answer\" or \"text\", not both" : "expected \"answer\" (an option id) or \"text\"";
    return NULL;
}

/* The ids a line as typed at the console names, as the console reads it:
** an exact id, a number, a unique prefix of an id or label, then the
** ruleset's parse. 0 with ids (malloc'd, engine_parse_free), or
** SEAT_PROTOCOL_REFUSED after writing the reply. */
static int read_text(engine *e, int seat, const char *text, const engine_decision *d, char ***ids, size_t *n,
                     strbuf *reply) {
    char *why = NULL;
    long k = answer_match(d, text, 0, "no option %s: choose 1 to %zu", &why);
    if (k >= 0) {
        free(why);
        *ids = calloc(1, sizeof **ids);
        if (!*ids || !((*ids)[0] = cairn_strdup(d->options[k].id))) {
            free(*ids);
            return refuse(reply, e, "no_memory", "out of memory");
        }
        *n = 1;
        return 0;
    }
    char *pwhy = NULL;
    int pr = engine_parse_answer(e, seat, text, ids, n, &pwhy);
    if (pr > 0 && *n > 0) {
        free(why);
        return 0;
    }
    if (pr > 0) engine_parse_free(*ids, *n);
    int rc;
    if (pr < 0) rc = refuse(reply, e, "unknown_option", pwhy ? pwhy : "the ruleset could not read the line");
    else if (why) rc = refuse(reply, e, "unknown_option", why);
    else {
        engine_status st;
        char *ex = engine_explain(e, seat, text, &st);
        rc = refuse(reply, e, st == ENGINE_OK ? "unknown_option" : status_code(st), ex ? ex : "no such option");
        free(ex);
    }
    free(pwhy);
    free(why);
    return rc;
}

/* Applies ids in order for seat, all or none: a failure takes back the
** ones applied before it (with no redo tail left behind). */
static int apply_all(engine *e, int seat, char **ids, size_t n, strbuf *reply) {
    size_t start = engine_position(e);
    for (size_t i = 0; i < n; i++) {
        char *why = NULL;
        engine_status st = i > 0 && !engine_is_asked(e, seat) ? ENGINE_NOT_ASKED : engine_answer(e, seat, ids[i], &why);
        if (st != ENGINE_OK) {
            char *m = i > 0 ? cairn_strfmt("answer %zu of %zu (\"%s\"): %s; none of them was applied", i + 1, n, ids[i],
                                           why ? why : engine_status_name(st))
                            : NULL;
            if (i > 0) {
                engine_goto(e, start);
                engine_set_redo_tail(e, NULL, 0);
            }
            int rc = refuse(reply, e, status_code(st), m ? m : why ? why : engine_status_name(st));
            free(m);
            free(why);
            return rc;
        }
        free(why);
    }
    strbuf_puts(reply, "{\"type\":\"reply\",\"ok\":true,\"answered\":[");
    for (size_t i = 0; i < n; i++) {
        if (i) strbuf_putc(reply, ',');
        put_str(reply, ids[i]);
    }
    strbuf_printf(reply, "],\"position\":%zu,\"your_turn\":%s,\"over\":%s}", engine_position(e),
                  engine_is_asked(e, seat) ? "true" : "false", engine_is_over(e) ? "true" : "false");
    return SEAT_PROTOCOL_APPLIED;
}

int seat_protocol_read(engine *e, int seat, const char *line, char ***ids, size_t *n, strbuf *reply,
                       cerr_list *errs) {
    *ids = NULL;
    *n = 0;
    int seats = engine_seat_count(e);
    if (seat < 1 || seat > seats) {
        char seat_text[24], last[24];
        snprintf(seat_text, sizeof seat_text, "%d", seat);
        snprintf(last, sizeof last, "%d", seats);
        cerr_addk(errs, NULL, 0, 0, NULL, "seat.no_seat", "seat protocol: no seat %s (this game has seats 1 to %s)",
                  seat_text, last);
        return -1;
    }
    json_object *root = NULL;
    seat_request q;
    char whybuf[200];
    const char *bad = read_request(line ? line : "", &root, &q, whybuf, sizeof whybuf);
    int rc;
    engine_decision_list dl = {0};
    if (bad) rc = refuse(reply, e, "malformed", bad);
    else if (q.position >= 0 && (size_t)q.position != engine_position(e)) {
        char *m = cairn_strfmt("the game is at position %zu, not %lld: read the new state and answer again",
                               engine_position(e), q.position);
        rc = refuse(reply, e, "stale", m ? m : "stale position");
        free(m);
    } else if (engine_is_over(e)) rc = refuse(reply, e, "game_over", "the game is over");
    else if (!engine_is_asked(e, seat)) rc = refuse(reply, e, "not_asked", "you are not asked anything now");
    else if (engine_decisions(e, &dl) != 0) rc = refuse(reply, e, "no_memory", "out of memory");
    else if (q.answer) {
        engine_status st;
        char *ex = engine_explain(e, seat, q.answer, &st);
        if (st != ENGINE_OK) rc = refuse(reply, e, status_code(st), ex ? ex : engine_status_name(st));
        else {
            char *one = cairn_strdup(q.answer);
            *ids = one ? calloc(1, sizeof **ids) : NULL;
            if (*ids) (*ids)[0] = one, *n = 1, rc = SEAT_PROTOCOL_APPLIED;
            else free(one), rc = refuse(reply, e, "no_memory", "out of memory");
        }
        free(ex);
    } else {
        rc = read_text(e, seat, q.text, answer_decision_of(&dl, seat), ids, n, reply);
        if (rc == 0) { /* the first id checked now, as an answer's is */
            engine_status st;
            char *ex = engine_explain(e, seat, (*ids)[0], &st);
            if (st != ENGINE_OK) {
                rc = refuse(reply, e, status_code(st), ex ? ex : engine_status_name(st));
                engine_parse_free(*ids, *n);
                *ids = NULL, *n = 0;
            }
            free(ex);
        }
    }
    engine_decision_list_free(&dl);
    json_object_put(root);
    if (reply->oom) {
        engine_parse_free(*ids, *n);
        *ids = NULL, *n = 0;
        errs->oom = 1;
        return -1;
    }
    return rc;
}

int seat_protocol_answer(engine *e, int seat, const char *line, strbuf *reply, cerr_list *errs) {
    char **ids = NULL;
    size_t n = 0;
    int rc = seat_protocol_read(e, seat, line, &ids, &n, reply, errs);
    if (rc == SEAT_PROTOCOL_APPLIED) rc = apply_all(e, seat, ids, n, reply);
    engine_parse_free(ids, n);
    if (reply->oom) {
        errs->oom = 1;
        return -1;
    }
    return rc;
}
