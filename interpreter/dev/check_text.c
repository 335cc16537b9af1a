/*
** check_text.c
** `cairn check`'s note on a ruleset's languages: each language the ruleset
** ships should translate every key of English (else those texts show in
** English in a game in that language, next to the console's own messages
** in it). A key missing is a note, not an error: a mod may translate a few
** keys on purpose (the rest falls back to English, docs/lua-api.md).
*/
#include "check.h"

#include "ruleset.h"
#include "strbuf.h"
#include "value.h"

#include <stdlib.h>
#include <string.h>

/* The keys of en that lang lacks listed at most this far, then "and N more". */
#define CHECK_TEXT_LISTED 8

/* The note on file (language lang) lacking `missing` keys of en: its English
** message and the key check.note.lacks_keys with the file, the count as the
** phrase check.note.keys, the language and the keys listed (with the phrase
** check.note.and_more past CHECK_TEXT_LISTED), for main.c to word. */
static void note_missing(cerr_list *notes, const char *file, const char *lang, const value *en,
                         const value *have, size_t missing) {
    strbuf listed = {0};
    strbuf_puts(&listed, "");
    size_t n = 0;
    for (size_t k = 0; k < en->u.map.n && n < CHECK_TEXT_LISTED; k++) {
        const char *key = en->u.map.items[k].key->u.str.s;
        if (value_map_get(have, key)) continue;
        strbuf_printf(&listed, "%s %s", n++ ? "," : "", key);
    }
    char count[24], more[24];
    snprintf(count, sizeof count, "%zu", missing);
    snprintf(more, sizeof more, "%zu", missing - n);
    char tail_en[48] = "";
    if (missing > n) snprintf(tail_en, sizeof tail_en, " and %s more", more);
    size_t before = notes->n;
    cerr_add(notes, NULL, 0, 0, NULL, "%s lacks %zu key%s of English, shown in English in a game in %s:%s%s", file,
             missing, missing == 1 ? "" : "s", lang, strbuf_str(&listed), tail_en);
    char *keys = cerr_phrase("check.note.keys", count, NULL);
    char *and_more = missing > n ? cerr_phrase("check.note.and_more", more, NULL) : NULL;
    /* the list, then and_more: one argument, a phrase of the two */
    char *tail = and_more ? cerr_phrase("check.note.listed", strbuf_str(&listed), and_more, NULL) : NULL;
    if (keys && !listed.oom && (tail || !and_more))
        cerr_key4(notes, before, "check.note.lacks_keys", file, keys, lang, tail ? tail : strbuf_str(&listed));
    free(keys);
    free(and_more);
    free(tail);
    strbuf_free(&listed);
}

void check_note_texts(const ruleset *r, cerr_list *notes) {
    const value *en = r->text ? value_map_get(r->text, "en") : NULL;
    if (!en || en->type != CV_MAP) return;
    for (size_t l = 0; l < r->text->u.map.n; l++) {
        const cv_entry *lang = &r->text->u.map.items[l];
        if (strcmp(lang->key->u.str.s, "en") == 0 || lang->val->type != CV_MAP) continue;
        size_t missing = 0;
        for (size_t k = 0; k < en->u.map.n; k++)
            if (!value_map_get(lang->val, en->u.map.items[k].key->u.str.s)) missing++;
        if (!missing) continue;
        const char *file = lang->val->file ? lang->val->file->name : lang->key->u.str.s;
        note_missing(notes, file, lang->key->u.str.s, en, lang->val, missing);
    }
}
