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
#include "value.h"

#include <string.h>

/* The keys of en that lang lacks listed at most this far, then "and N more". */
#define CHECK_TEXT_LISTED 8

void check_note_texts(const ruleset *r, FILE *out) {
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
        fprintf(out, "note: %s lacks %zu key%s of English, shown in English in a game in %s:", file, missing,
                missing == 1 ? "" : "s", lang->key->u.str.s);
        size_t listed = 0;
        for (size_t k = 0; k < en->u.map.n && listed < CHECK_TEXT_LISTED; k++) {
            const char *key = en->u.map.items[k].key->u.str.s;
            if (value_map_get(lang->val, key)) continue;
            fprintf(out, "%s %s", listed++ ? "," : "", key);
        }
        if (missing > listed) fprintf(out, " and %zu more", missing - listed);
        fputc('\n', out);
    }
}
