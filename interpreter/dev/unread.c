/*
** unread.c
** The data values no rule read (unread.h): a game's reads as a set of
** paths, its data tree walked with the same path names the sandbox gives
** (sandbox_tables.c: `g.data.a.b`, `g.data.list[2]`, `g.data["a b"]`), and
** per value location (file:line:col) whether any game read it.
*/
#include "unread.h"
#include "error.h"
#include "grow.h"
#include "ruleset.h"
#include "strbuf.h"
#include "value.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------- a set of strings */

typedef struct strset {
    char **slot; /* open addressing, NULL empty; cap a power of two */
    size_t n, cap;
} strset;

static uint64_t hash_of(const char *s) {
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static char **slot_for(const strset *t, const char *s) {
    size_t i = (size_t)hash_of(s) & (t->cap - 1);
    while (t->slot[i] && strcmp(t->slot[i], s) != 0) i = (i + 1) & (t->cap - 1);
    return &t->slot[i];
}

static int strset_has(const strset *t, const char *s) { return t->cap && *slot_for(t, s) != NULL; }

/* Adds a copy of s; 0, or -1 when out of memory. */
static int strset_add(strset *t, const char *s) {
    if ((t->n + 1) * 2 > t->cap) {
        strset bigger = {calloc(t->cap ? t->cap * 2 : 64, sizeof(char *)), 0, t->cap ? t->cap * 2 : 64};
        if (!bigger.slot) return -1;
        for (size_t i = 0; i < t->cap; i++)
            if (t->slot[i]) *slot_for(&bigger, t->slot[i]) = t->slot[i], bigger.n++;
        free(t->slot);
        *t = bigger;
    }
    char **at = slot_for(t, s);
    if (*at) return 0;
    if (!(*at = strdup(s))) return -1;
    t->n++;
    return 0;
}

static void strset_free(strset *t) {
    for (size_t i = 0; i < t->cap; i++) free(t->slot[i]);
    free(t->slot);
    memset(t, 0, sizeof *t);
}

/* ----------------------------------------------------- values by place */

typedef struct place {
    char *file;
    int line, col;
    char *path;  /* the first path it was met at */
    char *shown; /* the value, short */
    int read;
} place;

struct unread_set {
    place *places;
    size_t n, cap;
    strset index; /* "file:line:col" -> known (its place found by a scan) */
    long games;
    int oom;
};

unread_set *unread_new(void) { return calloc(1, sizeof(unread_set)); }

void unread_free(unread_set *u) {
    if (!u) return;
    for (size_t i = 0; i < u->n; i++) free(u->places[i].file), free(u->places[i].path), free(u->places[i].shown);
    free(u->places);
    strset_free(&u->index);
    free(u);
}

static place *place_of(unread_set *u, const value *v, const char *path) {
    char key[4200];
    snprintf(key, sizeof key, "%s:%d:%d", v->file->name, v->line, v->col);
    if (strset_has(&u->index, key)) {
        for (size_t i = 0; i < u->n; i++) /* a few hundred values: a scan is enough */
            if (u->places[i].line == v->line && u->places[i].col == v->col &&
                strcmp(u->places[i].file, v->file->name) == 0)
                return &u->places[i];
    }
    if (strset_add(&u->index, key) != 0 || GROW(u->places, u->cap, u->n + 1) != 0) return NULL;
    place *p = &u->places[u->n];
    memset(p, 0, sizeof *p);
    p->file = strdup(v->file->name);
    p->path = strdup(path);
    p->line = v->line;
    p->col = v->col;
    if (v->type == CV_STR) p->shown = v->u.str.len > 24 ? strdup("a string") : cairn_strfmt("\"%s\"", v->u.str.s);
    else if (v->type == CV_INT) p->shown = cairn_strfmt("%lld", (long long)v->u.i);
    else p->shown = strdup(v->type == CV_BOOL ? (v->u.b ? "true" : "false") : "null");
    if (!p->file || !p->path || !p->shown) {
        free(p->file), free(p->path), free(p->shown);
        return NULL;
    }
    u->n++;
    return p;
}

/* ------------------------------------------------------ walking a game */

/* The path name of child key k under parent, as the sandbox names it. */
static void key_path(strbuf *b, const char *k) {
    int ident = k[0] && (isalpha((unsigned char)k[0]) || k[0] == '_');
    for (const char *c = k; ident && *c; c++) ident = isalnum((unsigned char)*c) || *c == '_';
    if (ident) strbuf_printf(b, ".%s", k);
    else strbuf_printf(b, "[\"%s\"]", k);
}

/* path with every list index written [#]: "g.data.track[3].points" ->
** "g.data.track[#].points". Malloc'd; NULL on OOM. */
static char *any_item(const char *path) {
    char *out = malloc(strlen(path) + 1), *o = out;
    if (!out) return NULL;
    for (const char *p = path; *p;) {
        if (p[0] == '[' && isdigit((unsigned char)p[1])) {
            const char *q = p + 1;
            while (isdigit((unsigned char)*q)) q++;
            if (*q == ']') {
                memcpy(o, "[#]", 3), o += 3, p = q + 1;
                continue;
            }
        }
        *o++ = *p++;
    }
    *o = '\0';
    return out;
}

/* A read counts for its own path and, written with any_item, for the same
** place in every item of the lists on its way: a list's items are alike,
** and which of them a game reaches (the 9th space of a track) is play, not
** the rules. */
static int add_read(void *ud, const char *path) {
    char *any = any_item(path);
    int rc = any ? strset_add(ud, any) : -1;
    free(any);
    return rc ? rc : strset_add(ud, path);
}

/* 1 when path, or its any_item form, was read. */
static int was_read(const strset *reads, const char *path) {
    if (strset_has(reads, path)) return 1;
    char *any = any_item(path);
    int yes = any && strset_has(reads, any);
    free(any);
    return yes;
}

static void walk(unread_set *u, const strset *reads, const value *v, strbuf *path, int parent_all) {
    if (v->type == CV_LIST || v->type == CV_MAP) {
        size_t at = path->n;
        strbuf_puts(path, "[*]");
        int all = was_read(reads, strbuf_str(path)); /* a pairs/next loop over this table */
        strbuf_cut(path, at);
        for (size_t i = 0; i < value_len(v) && !u->oom; i++) {
            const value *child;
            if (v->type == CV_LIST) {
                strbuf_printf(path, "[%zu]", i + 1);
                child = v->u.list.items[i];
            } else {
                key_path(path, v->u.map.items[i].key->u.str.s);
                child = v->u.map.items[i].val;
            }
            walk(u, reads, child, path, all);
            strbuf_cut(path, at);
        }
        return;
    }
    if (!v->file || v->line <= 0) return; /* made in code, not a data file's */
    place *p = place_of(u, v, strbuf_str(path));
    if (!p) {
        u->oom = 1;
        return;
    }
    if (parent_all || was_read(reads, strbuf_str(path))) p->read = 1;
}

int unread_add_game(unread_set *u, const engine *e) {
    strset reads = {0};
    if (engine_data_reads(e, add_read, &reads) != 0) {
        strset_free(&reads);
        return u->oom = 1, -1;
    }
    const ruleset *rs = engine_ruleset(e);
    strbuf path = {0};
    strbuf_puts(&path, "g.data");
    if (rs && rs->data) walk(u, &reads, rs->data, &path, 0);
    if (path.oom) u->oom = 1;
    strbuf_free(&path);
    strset_free(&reads);
    u->games++;
    return u->oom ? -1 : 0;
}

static int by_place(const void *a, const void *b) {
    const place *x = *(place *const *)a, *y = *(place *const *)b;
    int c = strcmp(x->file, y->file);
    if (c) return c;
    if (x->line != y->line) return x->line < y->line ? -1 : 1;
    return (x->col > y->col) - (x->col < y->col);
}

size_t unread_add_errors(const unread_set *u, cerr_list *errs) {
    place **list = calloc(u->n ? u->n : 1, sizeof *list);
    if (!list) return errs->oom = 1, 0;
    size_t k = 0;
    for (size_t i = 0; i < u->n; i++)
        if (!u->places[i].read) list[k++] = &u->places[i];
    qsort(list, k, sizeof *list, by_place);
    /* keyed unread.value, the games counted by the phrase unread.games, so
    ** that cairn check words it in its language */
    char games[24];
    snprintf(games, sizeof games, "%ld", u->games);
    char *games_phrase = cerr_phrase("unread.games", games, NULL);
    for (size_t i = 0; i < k; i++) {
        size_t before = errs->n;
        cerr_add(errs, list[i]->file, list[i]->line, list[i]->col, list[i]->path,
                 "%s is read by no rule in %ld game%s (--unread): a value that changes nothing",
                 list[i]->shown, u->games, u->games == 1 ? "" : "s");
        if (games_phrase) cerr_key(errs, before, "unread.value", 0, list[i]->shown, games_phrase);
    }
    free(games_phrase);
    if (u->oom) errs->oom = 1;
    free(list);
    return k;
}
