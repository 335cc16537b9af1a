/*
** answer_match.c
** A typed answer to an option index (answer_match.h): exact id, number,
** then a unique prefix of an id, a label or a word of an id.
*/
#include "answer_match.h"

#include "error.h"
#include "strbuf.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Does `text` start `s` (or, with words, one of the words of s)? */
static int starts(const char *s, const char *text, int fold, int words) {
    size_t len = strlen(text);
    for (const char *p = s; p; p = words ? strchr(p, ' ') : NULL) {
        while (*p == ' ') p++;
        if ((fold ? strncasecmp(p, text, len) : strncmp(p, text, len)) == 0) return 1;
        if (!words) break;
    }
    return 0;
}

/* Does text start o's id (pass 0), or its label or a word of its id (pass 1)? */
static int hits_option(const engine_option *o, const char *text, int pass) {
    return pass == 0 ? starts(o->id, text, 0, 0)
                     : (o->label && starts(o->label, text, 1, 0)) || starts(o->id, text, 1, 1);
}

/* The one option whose id (pass 0) or label or id word (pass 1) starts
** with text; -1 when none, or several (then *why lists them). */
static long match_prefix(const engine_decision *d, const char *text, int pass, char **why) {
    long found = -1;
    size_t hits = 0;
    strbuf b = {0};
    for (size_t i = 0; i < d->n_options; i++) {
        const engine_option *o = &d->options[i];
        if (!hits_option(o, text, pass)) continue;
        if (hits++ == 0) found = (long)i;
        strbuf_printf(&b, "%s%s", hits > 1 ? ", " : "", o->id);
    }
    if (hits > 1) {
        *why = cairn_strfmt("\"%s\" could be %s: type more of it", text, b.oom ? "several" : strbuf_str(&b));
        found = -1;
    }
    strbuf_free(&b);
    return found;
}

long answer_match(const engine_decision *d, const char *text, int exact_only, const char *out_of_range_fmt,
                  char **why) {
    *why = NULL;
    if (!d) return -1;
    for (size_t i = 0; i < d->n_options; i++)
        if (strcmp(d->options[i].id, text) == 0) return (long)i;
    if (exact_only) return -1;
    size_t len = strlen(text);
    if (len > 0 && strspn(text, "0123456789") == len) {
        long k = strtol(text, NULL, 10);
        if (k >= 1 && (size_t)k <= d->n_options) return k - 1;
        *why = cairn_strfmt(out_of_range_fmt, text, d->n_options);
        return -1;
    }
    /* a prefix of the id; failing that, of the label or of a word of the
    ** id ("build" for `card build`, labelled "Build"), any case */
    long found = -1;
    for (int pass = 0; pass < 2 && found < 0 && !*why; pass++) found = match_prefix(d, text, pass, why);
    return found;
}

const engine_decision *answer_decision_of(const engine_decision_list *l, int seat) {
    for (size_t i = 0; i < l->n; i++)
        if (l->items[i].seat == seat) return &l->items[i];
    return NULL;
}

size_t answer_candidates(const engine_decision *d, const char *text, size_t *idx, size_t cap) {
    /* digits name an option by its number (answer_match), never by a prefix */
    if (!d || !*text || strspn(text, "0123456789") == strlen(text)) return 0;
    for (int pass = 0; pass < 2; pass++) {
        size_t n = 0;
        for (size_t i = 0; i < d->n_options; i++) {
            if (!hits_option(&d->options[i], text, pass)) continue;
            if (n < cap) idx[n] = i;
            n++;
        }
        if (n) return n;
    }
    return 0;
}
