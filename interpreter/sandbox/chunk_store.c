/*
** chunk_store.c
** The process's compiled Lua chunks (chunk_store.h): per chunk name and
** exact text (as the caller was given it, before the sandbox's rewrite),
** the bytecode lua_dump made of the function compiled from it. A later
** find of the same name and text undumps it, which is several times
** cheaper than rewriting, lexing and parsing it again and gives the same
** function (lua_dump keeps the source name, lines, local and upvalue names;
** the main chunk's one upvalue is set to the loading state's globals
** either way, and the sandbox replaces it with its own _ENV).
*/
#include "chunk_store.h"
#include "grow.h"

#include <lauxlib.h>
#include <stdlib.h>
#include <string.h>


typedef struct stored {
    char *name;
    char *text;
    size_t text_len;
    char *code;
    size_t code_len;
} stored;

/* Process-wide on purpose: the compiles it saves happen in different Lua
** states (check's plain one, each sandbox) built by different modules, and
** a reload's new sandbox comes after the old one is gone. Oldest first. */
static struct {
    stored *items;
    size_t n, cap, bytes;
    size_t hits, misses;
} store;

static void stored_free(stored *s) {
    free(s->name);
    free(s->text);
    free(s->code);
}

static size_t stored_bytes(const stored *s) { return strlen(s->name) + s->text_len + s->code_len; }

void chunk_store_clear(void) {
    for (size_t i = 0; i < store.n; i++) stored_free(&store.items[i]);
    free(store.items);
    store.items = NULL;
    store.n = store.cap = store.bytes = 0;
}

void chunk_store_counts(size_t *hits, size_t *misses) {
    *hits = store.hits;
    *misses = store.misses;
}

static const stored *find(const char *text, size_t len, const char *name) {
    for (size_t i = store.n; i-- > 0;) {
        const stored *s = &store.items[i];
        if (s->text_len == len && strcmp(s->name, name) == 0 && memcmp(s->text, text, len) == 0) return s;
    }
    return NULL;
}

/* lua_dump's writer: appends to a growing buffer; nonzero stops the dump. */
typedef struct dumpbuf {
    char *p;
    size_t n, cap;
} dumpbuf;

static int dump_write(lua_State *L, const void *part, size_t sz, void *ud) {
    (void)L;
    dumpbuf *b = ud;
    if (sz > SIZE_MAX / 2 - b->n) return 1;
    if (b->n + sz > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->n + sz) cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) return 1;
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, part, sz);
    b->n += sz;
    return 0;
}

static void drop_oldest(void) {
    store.bytes -= stored_bytes(&store.items[0]);
    stored_free(&store.items[0]);
    memmove(store.items, store.items + 1, (store.n - 1) * sizeof *store.items);
    store.n--;
}

/* Keeps the function on top of L's stack as the chunk of name and text.
** Out of memory only means it is not kept. */
static void keep(lua_State *L, const char *text, size_t len, const char *name) {
    dumpbuf b = {0};
    if (lua_dump(L, dump_write, &b, 0) != 0 || !b.p) {
        free(b.p);
        return;
    }
    stored s = {.text_len = len, .code = b.p, .code_len = b.n};
    s.name = malloc(strlen(name) + 1);
    s.text = malloc(len ? len : 1);
    if (!s.name || !s.text || len > CAIRN_CHUNK_STORE_MAX_BYTES / 2) {
        stored_free(&s);
        return;
    }
    memcpy(s.name, name, strlen(name) + 1);
    memcpy(s.text, text, len);
    while (store.n && (store.n >= CAIRN_CHUNK_STORE_MAX_CHUNKS || store.bytes + stored_bytes(&s) > CAIRN_CHUNK_STORE_MAX_BYTES))
        drop_oldest();
    if (GROW(store.items, store.cap, store.n + 1) != 0) {
        stored_free(&s);
        return;
    }
    store.items[store.n++] = s;
    store.bytes += stored_bytes(&s);
}

/* lua_load's reader over one stored chunk: all of it at once. */
typedef struct reading {
    const stored *s;
    int done;
} reading;

static const char *read_code(lua_State *L, void *ud, size_t *size) {
    (void)L;
    reading *r = ud;
    if (r->done) {
        *size = 0;
        return NULL;
    }
    r->done = 1;
    *size = r->s->code_len;
    return r->s->code;
}

int chunk_store_find(lua_State *L, const char *text, size_t len, const char *chunkname) {
    const stored *s = find(text, len, chunkname);
    if (s) {
        reading r = {s, 0};
        int st = lua_load(L, read_code, &r, chunkname, "b");
        if (st == LUA_OK) {
            store.hits++;
            return st;
        }
        lua_pop(L, 1); /* out of memory, say: compiling the text tells */
    }
    store.misses++;
    return -1;
}

void chunk_store_keep(lua_State *L, const char *text, size_t len, const char *chunkname) {
    if (lua_isfunction(L, -1) && !lua_iscfunction(L, -1)) keep(L, text, len, chunkname);
}
