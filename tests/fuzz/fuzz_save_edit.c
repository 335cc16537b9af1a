/*
** fuzz_save_edit.c
** Structure-aware libFuzzer harness for saves. At start it plays short games
** of the shipped rulesets (random bots) and keeps each as a save value tree.
** The input is a program of edits on one of them: drop, duplicate, swap or
** rewrite log entries, move the position, change seats (count, names, bots),
** change the seed, delete keys, replace any node (found by a walk the bytes
** steer) with another value or type. The edited tree is dumped as YAML and
** loaded as a save and as a scenario; an accepted game must save and load
** again. Raw-byte mutations of saves are fuzz_save's; this one gets past
** the YAML and schema layers into replay, snapshot checks and seats.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine.h"
#include "error.h"
#include "save.h"
#include "value.h"

#define MAX_BASES 16
static value *bases[MAX_BASES];
static size_t n_bases;
static char in_path[96], out_path[96];

/* One base save: ruleset played `moves` decisions by random bots. */
static void add_base(const char *ruleset, int players, uint64_t seed, int moves) {
    cerr_list errs;
    cerr_init(&errs, 0);
    engine_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.ruleset = ruleset;
    cfg.players = players;
    cfg.seed = seed;
    engine *e = engine_new(&cfg, &errs);
    if (!e) {
        fprintf(stderr, "fuzz_save_edit: cannot start %s:\n", ruleset);
        cerr_print(stderr, &errs);
        abort();
    }
    for (int i = 0; i < moves && !engine_is_over(e); i++) {
        int seat = 0;
        for (int s = 1; s <= engine_seat_count(e) && !seat; s++)
            if (engine_is_asked(e, s)) seat = s;
        if (!seat || engine_bot_move(e, seat, NULL) != ENGINE_OK) break;
    }
    if (moves > 2) engine_undo(e); /* a redo tail in the log */
    value *v = save_to_value(e);
    if (!v || n_bases == MAX_BASES) abort();
    bases[n_bases++] = v;
    engine_free(e);
    cerr_free(&errs);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    const char *tmp = getenv("TMPDIR");
    snprintf(in_path, sizeof in_path, "%.40s/cairn-fuzz-save-edit-%ld.save", tmp && *tmp ? tmp : "/tmp", (long)getpid());
    snprintf(out_path, sizeof out_path, "%.40s/cairn-fuzz-save-edit-%ld.out", tmp && *tmp ? tmp : "/tmp", (long)getpid());
    add_base("connect4", 2, 1, 0);
    add_base("connect4", 2, 2, 9);
    add_base("connect4", 2, 3, 60);
    add_base("goofspiel", 2, 4, 5);
    add_base("goofspiel", 3, 5, 12);
    add_base("yak", 3, 6, 8);
    add_base("himalaya", 3, 7, 6);
    add_base("kathmandu", 3, 8, 6);
    return 0;
}

/* ------------------------------------------------------------- edits */
typedef struct prog {
    const uint8_t *p, *end;
} prog;

static unsigned byte(prog *g) { return g->p < g->end ? *g->p++ : 0; }

static const char *const strings[] = {
    "", "drop 1", "drop 9", "bid 1", "pass", "Seat 1", "random", "greedy", "mcts", "nobody",
    "connect4", "goofspiel", "yak", "../connect4", "/etc", "1.0", "2.0", "en", "el", "xx",
    "80e0359f6c939bb04bf431d4ea56602e5fcf6c7de664d7000292cccdcec918ff",
    "975835de1c9756cebfc846100bfc1e42987bbcbfdd7e532fc3f2827affe7f664", "\xe2\x80\xa8", "a\nb",
};
#define N_STRINGS (sizeof strings / sizeof strings[0])

static const int64_t ints[] = {0, 1, -1, 2, 3, 7, 100, 65536, INT64_MAX, INT64_MIN, 4294967296LL};
#define N_INTS (sizeof ints / sizeof ints[0])

/* A fresh value picked by the bytes, sometimes a copy of `like` nudged. */
static value *new_value(prog *g, const value *like) {
    unsigned k = byte(g) % 9;
    if (like && k < 3) {
        if (like->type == CV_INT) return value_int(like->u.i + (int)(byte(g) % 5) - 2);
        if (like->type == CV_BOOL) return value_bool(!like->u.b);
        if (like->type == CV_STR && like->u.str.len > 0)
            return value_strn(like->u.str.s, like->u.str.len - 1);
        return value_clone(like);
    }
    switch (k) {
    case 3: return value_int(ints[byte(g) % N_INTS]);
    case 4: case 5: return value_str(strings[byte(g) % N_STRINGS]);
    case 6: return value_null();
    case 7: return value_list();
    default: return value_map();
    }
}

/* Walks down from root along the bytes: the map or list whose child is
** chosen, and the child's index. 0 when the walk found no container. */
static int walk(prog *g, value *root, value **parent, size_t *index) {
    value *at = root;
    *parent = NULL;
    for (int depth = 0; depth < 8; depth++) {
        size_t n = value_len(at);
        if ((at->type != CV_LIST && at->type != CV_MAP) || n == 0) break;
        size_t i = byte(g) % n;
        *parent = at;
        *index = i;
        value *child = at->type == CV_LIST ? at->u.list.items[i] : at->u.map.items[i].val;
        if (byte(g) % 3 == 0) break; /* stop here */
        at = child;
    }
    return *parent != NULL;
}

static value **slot(value *parent, size_t i) {
    return parent->type == CV_LIST ? &parent->u.list.items[i] : &parent->u.map.items[i].val;
}

static void replace(value **at, value *v) {
    if (!v) return;
    value_free(*at);
    *at = v;
}

static void edit_list(prog *g, value *list, int is_log) {
    if (!list || list->type != CV_LIST) return;
    size_t n = list->u.list.n;
    value **items = list->u.list.items;
    switch (byte(g) % 6) {
    case 0: /* drop one */
        if (n) {
            size_t i = byte(g) % n;
            value_free(items[i]);
            memmove(items + i, items + i + 1, (n - i - 1) * sizeof *items);
            list->u.list.n--;
        }
        break;
    case 1: /* duplicate one at the end */
        if (n) {
            value *c = value_clone(items[byte(g) % n]);
            if (c) value_list_push(list, c); /* frees c when it fails */
        }
        break;
    case 2: /* swap two */
        if (n > 1) {
            size_t i = byte(g) % n, j = byte(g) % n;
            value *t = items[i];
            items[i] = items[j];
            items[j] = t;
        }
        break;
    case 3: /* truncate */
        while (list->u.list.n > byte(g) % (n + 1)) value_free(list->u.list.items[--list->u.list.n]);
        break;
    case 4: /* a log entry's seat or id */
        if (n && is_log && items[0]->type == CV_MAP) {
            value *e = items[byte(g) % n];
            if (e->type != CV_MAP) break;
            if (byte(g) & 1) {
                value *s = value_int((int64_t)(byte(g) % 7) - 1);
                if (s) value_map_set(e, "seat", s); /* frees the value when it fails */
            } else {
                /* another entry's id, or a made-up one */
                value *other = items[byte(g) % n];
                const char *id = other->type == CV_MAP ? value_get_str(other, "id", NULL) : NULL;
                value *s = value_str(id && (byte(g) & 1) ? id : strings[byte(g) % N_STRINGS]);
                if (s) value_map_set(e, "id", s); /* frees the value when it fails */
            }
        }
        break;
    default: /* a new item */
    {
        value *v = n ? value_clone(items[byte(g) % n]) : new_value(g, NULL);
        if (v) value_list_push(list, v); /* frees v when it fails */
    }
    }
}

static void set_int(value *m, const char *key, int64_t i) {
    value *v = value_int(i);
    if (v) value_map_set(m, key, v); /* frees the value when it fails */
}

static void edit(prog *g, value *root) {
    switch (byte(g) % 12) {
    case 0: case 1: case 2: edit_list(g, value_map_get(root, "log"), 1); break;
    case 3: {
        value *log = value_map_get(root, "log");
        size_t n = log ? value_len(log) : 0;
        set_int(root, "position", (int64_t)(byte(g) % (n + 3)) - 1);
        break;
    }
    case 4: edit_list(g, value_map_get(root, "seats"), 0); break;
    case 5: {
        value *seats = value_map_get(root, "seats");
        if (seats && seats->type == CV_LIST && seats->u.list.n) {
            value *s = seats->u.list.items[byte(g) % seats->u.list.n];
            if (s->type == CV_MAP) {
                value *v = value_str(strings[byte(g) % N_STRINGS]);
                if (v) value_map_set(s, byte(g) & 1 ? "bot" : "name", v); /* frees the value when it fails */
            }
        }
        break;
    }
    case 6: set_int(root, "seed", ints[byte(g) % N_INTS]); break;
    case 7: { /* delete a key somewhere */
        value *parent;
        size_t i;
        if (walk(g, root, &parent, &i) && parent->type == CV_MAP)
            value_map_del(parent, parent->u.map.items[i].key->u.str.s);
        break;
    }
    case 8: { /* the snapshot's state: edit inside it */
        value *snap = value_map_get(root, "snapshot");
        value *state = snap ? value_map_get(snap, "state") : NULL;
        value *parent;
        size_t i;
        if (state && walk(g, state, &parent, &i)) replace(slot(parent, i), new_value(g, *slot(parent, i)));
        break;
    }
    case 9: { /* a whole section of the save, another type or value */
        if (root->type == CV_MAP && root->u.map.n) {
            size_t i = byte(g) % root->u.map.n;
            replace(&root->u.map.items[i].val, new_value(g, root->u.map.items[i].val));
        }
        break;
    }
    default: { /* any node */
        value *parent;
        size_t i;
        if (walk(g, root, &parent, &i)) replace(slot(parent, i), new_value(g, *slot(parent, i)));
    }
    }
}

/* ------------------------------------------------------------- loading */
static void check_resave(engine *e) {
    cerr_list errs;
    cerr_init(&errs, 0);
    if (save_write(e, out_path, &errs) != 0) {
        fprintf(stderr, "fuzz_save_edit: an accepted game does not save:\n");
        cerr_print(stderr, &errs);
        abort();
    }
    save_load_opts o = {.checks = 1, .trust = 1};
    char *note = NULL;
    engine *back = save_load(out_path, &o, &note, &errs);
    if (!back) {
        fprintf(stderr, "fuzz_save_edit: the save of an accepted game does not load:\n");
        cerr_print(stderr, &errs);
        abort();
    }
    if (engine_state_hash(back) != engine_state_hash(e) || engine_position(back) != engine_position(e)) {
        fprintf(stderr, "fuzz_save_edit: a save loads as another game\n");
        abort();
    }
    free(note);
    engine_free(back);
    cerr_free(&errs);
    unlink(out_path);
}

static void load_as(int as_scenario) {
    cerr_list errs;
    cerr_init(&errs, 0);
    char *note = NULL;
    save_load_opts o = {.as_scenario = as_scenario, .checks = 1};
    engine *e = save_load(in_path, &o, &note, &errs);
    if (!e && cerr_count(&errs) == 0 && !errs.oom) {
        fprintf(stderr, "fuzz_save_edit: save refused without an error\n");
        abort();
    }
    if (e) check_resave(e);
    free(note);
    engine_free(e);
    cerr_free(&errs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    prog g = {data, data + size};
    value *v = value_clone(bases[byte(&g) % n_bases]);
    if (!v) return 0;
    unsigned n_edits = 1 + byte(&g) % 8;
    for (unsigned k = 0; k < n_edits && g.p < g.end; k++) edit(&g, v);
    char *text = value_to_yaml(v);
    value_free(v);
    if (!text) return 0;
    FILE *f = fopen(in_path, "wb");
    if (!f) abort();
    size_t len = strlen(text);
    if (fwrite(text, 1, len, f) != len || fclose(f) != 0) abort();
    free(text);
    load_as(0);
    load_as(1);
    unlink(in_path);
    return 0;
}
