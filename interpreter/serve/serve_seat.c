/*
** serve_seat.c
** What the seat server sends and applies, through the seat protocol
** (play/seat_protocol.h) and nothing else, so a page sees exactly what the
** seat's view allows: the state message with the newest news, and one
** answer applied for the page's own seat.
*/
#include "serve_internal.h"

#include "engine.h"
#include "error.h"
#include "json_string.h"
#include "seat_protocol.h"

#include <stdlib.h>
#include <string.h>

/* An error message in place of a state: the page shows it. */
static void state_error(strbuf *out, const char *why) {
    strbuf_free(out);
    strbuf_puts(out, "{\"type\":\"error\",\"error\":");
    json_string_put(out, why, strlen(why));
    strbuf_putc(out, '}');
}

int serve_seat_state(engine *e, int seat, const char *lang, int cols, strbuf *out) {
    size_t count = engine_event_count(e);
    size_t since = count > CAIRN_SERVE_NEWS_KEPT ? count - CAIRN_SERVE_NEWS_KEPT : 0;
    cerr_list errs;
    cerr_init(&errs, 0);
    /* the board as wide as the page's box says (a phone held upright: some
    ** 40 columns), as tall as it likes: the page scrolls down, never sideways
    ** when the rules' render keeps within g.width */
    int rc = seat_protocol_state(e, seat, since, cols, 0, out, &errs);
    if (rc != 0 || out->oom) {
        char *m = errs.n ? cerr_format(&errs.items[0]) : NULL;
        state_error(out, m ? m : "out of memory");
        free(m);
        cerr_free(&errs);
        return -1;
    }
    cerr_free(&errs);
    if (out->n > (size_t)CAIRN_SERVE_MAX_STATE_BYTES) {
        state_error(out, "this seat's state is larger than CAIRN_SERVE_MAX_STATE_BYTES");
        return -1;
    }
    /* the page's language (the game's): one field more, which the
    ** protocol's clients ignore when they do not know it */
    if (out->n > 0 && out->s[out->n - 1] == '}') {
        strbuf_cut(out, out->n - 1);
        strbuf_puts(out, ",\"lang\":");
        const char *l = lang ? lang : "en";
        json_string_put(out, l, strlen(l));
        strbuf_putc(out, '}');
    }
    return out->oom ? -1 : 0;
}

int serve_seat_answer(engine *e, int seat, const char *body, strbuf *reply) {
    cerr_list errs;
    cerr_init(&errs, 0);
    int rc = seat_protocol_answer(e, seat, body, reply, &errs);
    if (rc < 0) {
        char *m = errs.n ? cerr_format(&errs.items[0]) : NULL;
        strbuf_free(reply);
        strbuf_puts(reply, "{\"type\":\"reply\",\"ok\":false,\"code\":\"internal\",\"error\":");
        const char *why = m ? m : "out of memory";
        json_string_put(reply, why, strlen(why));
        strbuf_putc(reply, '}');
        free(m);
    }
    cerr_free(&errs);
    return rc == SEAT_PROTOCOL_APPLIED ? 1 : 0;
}
