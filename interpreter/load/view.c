/*
** view.c
** Per-seat views of a game state from the manifest's visibility rules:
** path parsing, matching with wildcards, and the five policies.
*/
#include "view.h"

#include <stdlib.h>
#include <string.h>

/* More rules than this are applied one after another (view_by_rules). */
#define VIEW_ONE_PASS_MAX_RULES 32

typedef enum { SEG_KEY, SEG_ANYKEY, SEG_INDEX, SEG_ANYINDEX } seg_kind;

typedef struct {
    seg_kind kind;
    char *key;    /* SEG_KEY */
    size_t index; /* SEG_INDEX, 1-based */
} seg;

typedef struct {
    seg *segs;
    size_t n;
    view_policy policy;
} rule;

struct view_rules {
    rule *rules;
    size_t n;
    int one_pass; /* no rule's path can meet another's (view_emit walks once) */
};

static const char *const policy_names[] = {"public", "owner", "hidden", "count", "order"};

const char *view_policy_name(view_policy p) {
    return (unsigned)p < sizeof policy_names / sizeof *policy_names ? policy_names[p] : NULL;
}

static void rule_clear(rule *ru) {
    for (size_t i = 0; i < ru->n; i++) free(ru->segs[i].key);
    free(ru->segs);
    ru->segs = NULL;
    ru->n = 0;
}

void view_rules_free(view_rules *r) {
    if (!r) return;
    for (size_t i = 0; i < r->n; i++) rule_clear(&r->rules[i]);
    free(r->rules);
    free(r);
}

size_t view_rules_count(const view_rules *r) { return r ? r->n : 0; }

int view_rules_secret(const view_rules *r) {
    for (size_t i = 0; r && i < r->n; i++)
        if (r->rules[i].policy != VIEW_PUBLIC) return 1;
    return 0;
}

static int push_seg(rule *ru, seg s) {
    seg *ns = realloc(ru->segs, (ru->n + 1) * sizeof *ns);
    if (!ns) {
        free(s.key);
        return -1;
    }
    ru->segs = ns;
    ru->segs[ru->n++] = s;
    return 0;
}

/* Parses `a.b[2][*].*` into segments. Returns NULL on success, else a
** static message saying what is wrong; *oom set on allocation failure. */
static const char *parse_path(const char *p, rule *ru, int *oom) {
    if (!*p) return "empty path";
    for (;;) {
        if (*p == '[') {
            p++;
            seg s = {SEG_ANYINDEX, NULL, 0};
            if (*p == '*') {
                p++;
            } else {
                if (*p < '1' || *p > '9') return "list index must be [*] or a number from 1";
                size_t n = 0;
                while (*p >= '0' && *p <= '9') {
                    if (n > 100000000) return "list index too large";
                    n = n * 10 + (size_t)(*p++ - '0');
                }
                s.kind = SEG_INDEX;
                s.index = n;
            }
            if (*p++ != ']') return "missing ']'";
            if (push_seg(ru, s) != 0) return *oom = 1, "out of memory";
        } else {
            size_t len = strcspn(p, ".[]");
            if (len == 0) return "empty key";
            seg s = {SEG_KEY, NULL, 0};
            if (len == 1 && *p == '*') {
                s.kind = SEG_ANYKEY;
            } else {
                s.key = malloc(len + 1);
                if (!s.key) return *oom = 1, "out of memory";
                memcpy(s.key, p, len);
                s.key[len] = '\0';
            }
            if (push_seg(ru, s) != 0) return *oom = 1, "out of memory";
            p += len;
        }
        if (!*p) return NULL;
        if (*p == '.') {
            p++;
            if (!*p || *p == '.' || *p == '[') return "empty key after '.'";
        } else if (*p != '[') {
            return "unexpected character (expected '.' or '[')";
        }
    }
}

/* Can one node be matched by segment a and by segment b? */
static int segs_meet(const seg *a, const seg *b) {
    int a_key = a->kind == SEG_KEY || a->kind == SEG_ANYKEY;
    int b_key = b->kind == SEG_KEY || b->kind == SEG_ANYKEY;
    if (a_key != b_key) return 0; /* a map key and a list index: never the same node */
    if (a->kind == SEG_KEY && b->kind == SEG_KEY) return strcmp(a->key, b->key) == 0;
    if (a->kind == SEG_INDEX && b->kind == SEG_INDEX) return a->index == b->index;
    return 1; /* a wildcard meets anything of its kind */
}

/* 1 when no rule's path can reach a node that another rule's path reaches
** or passes through: then no rule sees what another changed, every node is
** the target of at most one rule and nothing below a target is any rule's,
** so the rules may be applied in one walk in any order (view_emit). Two
** paths meet when one can match a prefix of the other. */
static int rules_disjoint(const view_rules *r) {
    if (r->n > VIEW_ONE_PASS_MAX_RULES) return 0;
    for (size_t i = 0; i < r->n; i++) {
        for (size_t j = i + 1; j < r->n; j++) {
            const rule *a = &r->rules[i], *b = &r->rules[j];
            size_t n = a->n < b->n ? a->n : b->n, k = 0;
            while (k < n && segs_meet(&a->segs[k], &b->segs[k])) k++;
            if (k == n) return 0;
        }
    }
    return 1;
}

/* parse_path's messages and their catalogue keys, for the console's
** languages: a bad path is the ruleset author's to see at load. One stays
** English in the keyed frame: "unexpected character ...", as the word
** "unexpected" in the catalogue would count Lua's own messages (English on
** purpose) as the console's (test_console_language). */
static const struct {
    const char *text, *key;
} path_problems[] = {
    {"empty path", "view.p.empty"},
    {"list index must be [*] or a number from 1", "view.p.index"},
    {"list index too large", "view.p.index_large"},
    {"missing ']'", "view.p.bracket"},
    {"empty key", "view.p.empty_key"},
    {"empty key after '.'", "view.p.empty_key_dot"},
};

view_rules *view_rules_new(const value *vis, cerr_list *errs) {
    view_rules *r = calloc(1, sizeof *r);
    if (!r) {
        errs->oom = 1;
        return NULL;
    }
    if (!vis || vis->type == CV_NULL) return r;
    const char *file = vis->file ? vis->file->name : NULL;
    if (vis->type != CV_LIST) {
        cerr_addk(errs, file, vis->line, vis->col, "visibility", "view.not_list", "expected a list of rules");
        view_rules_free(r);
        return NULL;
    }
    size_t nerr = cerr_count(errs);
    r->rules = calloc(vis->u.list.n ? vis->u.list.n : 1, sizeof *r->rules);
    if (!r->rules) {
        errs->oom = 1;
        view_rules_free(r);
        return NULL;
    }
    for (size_t i = 0; i < vis->u.list.n; i++) {
        const value *it = vis->u.list.items[i];
        char where[48];
        snprintf(where, sizeof where, "visibility[%zu]", i + 1);
        const char *path = value_get_str(it, "path", NULL);
        const char *pol = value_get_str(it, "policy", NULL);
        if (!path || !pol) {
            cerr_addk(errs, file, it->line, it->col, where, "view.rule", "expected {path: ..., policy: ...}");
            continue;
        }
        int p = -1;
        for (int k = 0; k < 5; k++)
            if (strcmp(pol, policy_names[k]) == 0) p = k;
        if (p < 0) {
            cerr_addk(errs, file, it->line, it->col, where, "view.policy",
                      "policy \"%s\": expected public, owner, hidden, count or order", pol);
            continue;
        }
        rule *ru = &r->rules[r->n];
        int oom = 0;
        const char *bad = parse_path(path, ru, &oom);
        if (oom) {
            errs->oom = 1;
            rule_clear(ru);
            view_rules_free(r);
            return NULL;
        }
        if (bad) {
            size_t before = errs->n;
            cerr_add(errs, file, it->line, it->col, where, "path \"%s\": %s", path, bad);
            for (size_t k = 0; k < sizeof path_problems / sizeof path_problems[0]; k++) {
                if (strcmp(bad, path_problems[k].text) != 0) continue;
                char *why = cerr_phrase(path_problems[k].key, NULL);
                if (why) cerr_key(errs, before, "view.path", 0, path, why);
                free(why);
            }
            rule_clear(ru);
            continue;
        }
        ru->policy = (view_policy)p;
        r->n++;
    }
    if (cerr_count(errs) != nerr) {
        view_rules_free(r);
        return NULL;
    }
    r->one_pass = rules_disjoint(r);
    return r;
}

/* ------------------------------------------------------------- policies */

static value *question(void) { return value_str("?"); }

/* Replaces *slot by repl (NULL repl means OOM: returns -1, *slot kept). */
static int replace(value **slot, value *repl) {
    if (!repl) return -1;
    value_free(*slot);
    *slot = repl;
    return 0;
}

static int all_ints(const value *m) {
    for (size_t i = 0; i < m->u.map.n; i++)
        if (m->u.map.items[i].val->type != CV_INT) return 0;
    return 1;
}

static int apply_hidden(value **slot) { return replace(slot, question()); }

static int apply_count(value **slot) {
    value *v = *slot;
    if (v->type == CV_LIST) return replace(slot, value_int((int64_t)v->u.list.n));
    if (v->type == CV_MAP) {
        if (all_ints(v)) {
            int64_t sum = 0;
            for (size_t i = 0; i < v->u.map.n; i++) sum += v->u.map.items[i].val->u.i;
            return replace(slot, value_int(sum));
        }
        return replace(slot, value_int((int64_t)v->u.map.n));
    }
    if (v->type == CV_INT) return 0;
    return apply_hidden(slot);
}

static int apply_order(value **slot) {
    value *v = *slot;
    if (v->type != CV_LIST) return apply_hidden(slot);
    for (size_t i = 0; i < v->u.list.n; i++)
        if (replace(&v->u.list.items[i], question()) != 0) return -1;
    return 0;
}

/* The seat a wildcard match names: a list index, or a map key that is a
** decimal seat number. 0 when it names nobody. */
static int owner_of_key(const char *k) {
    if (!*k || strlen(k) > 4) return 0;
    int n = 0;
    for (const char *p = k; *p; p++) {
        if (*p < '0' || *p > '9') return 0;
        n = n * 10 + (*p - '0');
    }
    return k[0] == '0' ? 0 : n;
}

typedef int (*leaf_fn)(value **slot, const rule *ru, int owner, int seat);

/* Walks the path from segment i below *slot and calls fn on every match.
** owner is -1 until the first wildcard is matched. */
static int walk(value **slot, const rule *ru, size_t i, int owner, int seat, leaf_fn fn) {
    if (i == ru->n) return fn(slot, ru, owner, seat);
    value *v = *slot;
    const seg *s = &ru->segs[i];
    switch (s->kind) {
    case SEG_KEY:
        if (v->type == CV_MAP) {
            cv_entry *e = value_map_entry(v, s->key);
            if (e) return walk(&e->val, ru, i + 1, owner, seat, fn);
        }
        return 0;
    case SEG_ANYKEY:
        if (v->type != CV_MAP) return 0;
        for (size_t k = 0; k < v->u.map.n; k++) {
            int o = owner >= 0 ? owner : owner_of_key(v->u.map.items[k].key->u.str.s);
            if (walk(&v->u.map.items[k].val, ru, i + 1, o, seat, fn) != 0) return -1;
        }
        return 0;
    case SEG_INDEX:
        if (v->type == CV_LIST && s->index <= v->u.list.n)
            return walk(&v->u.list.items[s->index - 1], ru, i + 1, owner, seat, fn);
        return 0;
    case SEG_ANYINDEX:
        if (v->type != CV_LIST) return 0;
        for (size_t k = 0; k < v->u.list.n; k++) {
            int o = owner >= 0 ? owner : (int)(k + 1);
            if (walk(&v->u.list.items[k], ru, i + 1, o, seat, fn) != 0) return -1;
        }
        return 0;
    }
    return 0;
}

static int hide_leaf(value **slot, const rule *ru, int owner, int seat) {
    switch (ru->policy) {
    case VIEW_PUBLIC: return 0;
    case VIEW_OWNER: return seat > 0 && owner == seat ? 0 : apply_hidden(slot);
    case VIEW_HIDDEN: return apply_hidden(slot);
    case VIEW_COUNT: return apply_count(slot);
    case VIEW_ORDER: return apply_order(slot);
    }
    return 0;
}

/* ------------------------------------------------------------ one walk */

/* When no two rules' paths meet (rules_disjoint), each node is the target
** of at most one rule, nothing below a target is any other rule's, and no
** rule walks through a node another changed: applying the rules one after
** another (view_by_rules) and applying each where the walk meets its
** target give the same view. One walk over the state, copying only what
** the seat sees, instead of a copy of the whole state walked once per
** rule and its hidden parts freed again. */

typedef struct live {
    const rule *ru;
    size_t seg; /* the next segment to match */
    int owner;  /* as walk's: -1 until the first wildcard */
} live;

static const value question_mark = {.type = CV_STR, .u.str = {(char *)"?", 1}};

int view_one_pass(const view_rules *r) { return !r || r->one_pass; }

/* The matches that go on into child k of container v. */
static size_t child_lives(const live *m, size_t nm, const value *v, size_t k, live *sub) {
    size_t ns = 0;
    int is_map = v->type == CV_MAP;
    const char *key = is_map ? v->u.map.items[k].key->u.str.s : NULL;
    for (size_t i = 0; i < nm; i++) {
        const seg *s = &m[i].ru->segs[m[i].seg];
        int owner = m[i].owner;
        if (is_map) {
            if (s->kind == SEG_KEY ? s->key[0] != key[0] || strcmp(s->key, key) != 0 : s->kind != SEG_ANYKEY)
                continue;
            if (s->kind == SEG_ANYKEY && owner < 0) owner = owner_of_key(key);
        } else {
            if (s->kind == SEG_INDEX ? s->index != k + 1 : s->kind != SEG_ANYINDEX) continue;
            if (s->kind == SEG_ANYINDEX && owner < 0) owner = (int)(k + 1);
        }
        sub[ns++] = (live){m[i].ru, m[i].seg + 1, owner};
    }
    return ns;
}

/* The rule whose target v is, or NULL. */
static const live *target_of(const live *m, size_t nm) {
    for (size_t i = 0; i < nm; i++)
        if (m[i].seg == m[i].ru->n) return &m[i];
    return NULL;
}

/* What the target v shows under the policy of t, as a leaf: v itself, "?"
** or a count in *scratch. NULL for `order` on a list (a list of "?"). The
** forms of apply_hidden, apply_count and apply_order. */
static const value *target_leaf(const live *t, const value *v, int seat, value *scratch) {
    switch (t->ru->policy) {
    case VIEW_PUBLIC: return v;
    case VIEW_OWNER: return seat > 0 && t->owner == seat ? v : &question_mark;
    case VIEW_HIDDEN: return &question_mark;
    case VIEW_COUNT:
        memset(scratch, 0, sizeof *scratch);
        scratch->type = CV_INT;
        if (v->type == CV_LIST) {
            scratch->u.i = (int64_t)v->u.list.n;
        } else if (v->type == CV_MAP && all_ints(v)) {
            for (size_t i = 0; i < v->u.map.n; i++) scratch->u.i += v->u.map.items[i].val->u.i;
        } else if (v->type == CV_MAP) {
            scratch->u.i = (int64_t)v->u.map.n;
        } else {
            return v->type == CV_INT ? v : &question_mark;
        }
        return scratch;
    case VIEW_ORDER: return v->type == CV_LIST ? NULL : &question_mark;
    }
    return v;
}

static int emit_rec(const value *v, const live *m, size_t nm, int seat, const view_sink *o) {
    const live *t = target_of(m, nm);
    if (t) {
        value scratch;
        const value *leaf = target_leaf(t, v, seat, &scratch);
        if (leaf) return o->whole(o->ud, leaf);
        /* order: the list's length, every item "?" */
        if (o->open(o->ud, v, v->u.list.n) != 0) return -1;
        for (size_t k = 0; k < v->u.list.n; k++)
            if (o->child(o->ud, v, k) != 0 || o->whole(o->ud, &question_mark) != 0 ||
                o->done_child(o->ud, v, k) != 0)
                return -1;
        return o->close(o->ud, v);
    }
    if (nm == 0 || (v->type != CV_LIST && v->type != CV_MAP)) return o->whole(o->ud, v);
    size_t n = v->type == CV_MAP ? v->u.map.n : v->u.list.n;
    if (o->open(o->ud, v, n) != 0) return -1;
    live sub[VIEW_ONE_PASS_MAX_RULES];
    for (size_t k = 0; k < n; k++) {
        size_t ns = child_lives(m, nm, v, k, sub);
        const value *c = v->type == CV_MAP ? v->u.map.items[k].val : v->u.list.items[k];
        if (o->child(o->ud, v, k) != 0 || emit_rec(c, sub, ns, seat, o) != 0 ||
            o->done_child(o->ud, v, k) != 0)
            return -1;
    }
    return o->close(o->ud, v);
}

/* The root's matches: every rule, at its first segment. */
static size_t root_lives(const view_rules *r, live *m) {
    size_t n = 0;
    for (size_t i = 0; r && i < r->n; i++) m[n++] = (live){&r->rules[i], 0, -1};
    return n;
}

int view_emit(const view_rules *r, const value *state, int seat, const view_sink *o) {
    if (!view_one_pass(r)) return -1;
    live m[VIEW_ONE_PASS_MAX_RULES];
    return emit_rec(state, m, root_lives(r, m), seat, o);
}

/* view_of's tree in one walk: emit_rec's cases, building the copy. */
static value *build_rec(const value *v, const live *m, size_t nm, int seat) {
    const live *t = target_of(m, nm);
    value scratch;
    const value *leaf = t ? target_leaf(t, v, seat, &scratch) : NULL;
    if (leaf) return value_clone(leaf);
    if (!t && (nm == 0 || (v->type != CV_LIST && v->type != CV_MAP))) return value_clone(v);
    value *c = v->type == CV_MAP ? value_map() : value_list();
    if (!c) return NULL;
    value_set_loc(c, v->file, v->line, v->col);
    live sub[VIEW_ONE_PASS_MAX_RULES];
    size_t n = v->type == CV_MAP ? v->u.map.n : v->u.list.n;
    if (n) { /* the view's node has the state's number of children: room for them at once */
        void *items = malloc(n * (v->type == CV_MAP ? sizeof(cv_entry) : sizeof(value *)));
        if (!items) {
            value_free(c);
            return NULL;
        }
        if (v->type == CV_MAP) c->u.map.items = items, c->u.map.cap = n;
        else c->u.list.items = items, c->u.list.cap = n;
    }
    for (size_t k = 0; k < n; k++) {
        value *item;
        if (t) { /* order: every item "?" */
            item = value_clone(&question_mark);
        } else {
            size_t ns = child_lives(m, nm, v, k, sub);
            item = build_rec(v->type == CV_MAP ? v->u.map.items[k].val : v->u.list.items[k], sub, ns, seat);
        }
        int rc;
        if (v->type == CV_MAP) {
            value *key = item ? value_clone(v->u.map.items[k].key) : NULL;
            rc = key ? value_map_append(c, key, item) : (value_free(item), -1);
        } else {
            rc = value_list_push(c, item);
        }
        if (rc != 0) {
            value_free(c);
            return NULL;
        }
    }
    return c;
}

/* The rules applied one after another, each walking what the ones before
** it left: the definition of a view, and the way when rules meet. */
static value *view_by_rules(const view_rules *r, const value *state, int seat) {
    value *v = value_clone(state);
    if (!v || !r) return v;
    for (size_t i = 0; i < r->n; i++) {
        if (walk(&v, &r->rules[i], 0, -1, seat, hide_leaf) != 0) {
            value_free(v);
            return NULL;
        }
    }
    return v;
}

value *view_of(const view_rules *r, const value *state, int seat) {
    if (!view_one_pass(r)) return view_by_rules(r, state, seat);
    live m[VIEW_ONE_PASS_MAX_RULES];
    return build_rec(state, m, root_lives(r, m), seat);
}

value *view_of_by_rules(const view_rules *r, const value *state, int seat) {
    return view_by_rules(r, state, seat);
}

/* ---------------------------------------------------------- deltas */

static void delta_note(view_delta *d, const rule *ru, int owner) {
    switch (ru->policy) {
    case VIEW_PUBLIC: break;
    case VIEW_OWNER:
        if (owner >= 1 && owner <= 32) d->owner_changed |= (uint32_t)1 << (owner - 1);
        else d->unowned_changed = 1;
        break;
    case VIEW_HIDDEN: d->unowned_changed = 1; break;
    case VIEW_COUNT:
    case VIEW_ORDER: d->pool_changed = 1; break;
    }
}

static const value *key_of(const value *m, const char *k) {
    return m && m->type == CV_MAP ? value_map_get(m, k) : NULL;
}

static const value *item_of(const value *l, size_t i) {
    return l && l->type == CV_LIST && i < l->u.list.n ? l->u.list.items[i] : NULL;
}

/* walk() over two states at once: a or b may be missing (NULL). */
static void walk2(const value *a, const value *b, const rule *ru, size_t i, int owner, view_delta *d) {
    if (!a && !b) return;
    if (i == ru->n) {
        if (!a || !b || !value_equal(a, b, 1)) delta_note(d, ru, owner);
        return;
    }
    const seg *s = &ru->segs[i];
    switch (s->kind) {
    case SEG_KEY:
        walk2(key_of(a, s->key), key_of(b, s->key), ru, i + 1, owner, d);
        return;
    case SEG_ANYKEY:
        for (int side = 0; side < 2; side++) {
            const value *m = side ? b : a, *other = side ? a : b;
            if (!m || m->type != CV_MAP) continue;
            for (size_t k = 0; k < m->u.map.n; k++) {
                const char *key = m->u.map.items[k].key->u.str.s;
                if (side && key_of(other, key)) continue; /* seen from a's side */
                int o = owner >= 0 ? owner : owner_of_key(key);
                const value *mine = m->u.map.items[k].val, *theirs = key_of(other, key);
                walk2(side ? theirs : mine, side ? mine : theirs, ru, i + 1, o, d);
            }
        }
        return;
    case SEG_INDEX:
        walk2(item_of(a, s->index - 1), item_of(b, s->index - 1), ru, i + 1, owner, d);
        return;
    case SEG_ANYINDEX: {
        size_t na = a && a->type == CV_LIST ? a->u.list.n : 0, nb = b && b->type == CV_LIST ? b->u.list.n : 0;
        for (size_t k = 0; k < (na > nb ? na : nb); k++)
            walk2(item_of(a, k), item_of(b, k), ru, i + 1, owner >= 0 ? owner : (int)(k + 1), d);
        return;
    }
    }
}

static int is_empty(const value *v) {
    switch (v->type) {
    case CV_NULL: return 1;
    case CV_BOOL: return !v->u.b;
    case CV_INT: return v->u.i == 0;
    case CV_STR: return v->u.str.len == 0;
    case CV_LIST: return v->u.list.n == 0;
    case CV_MAP: return v->u.map.n == 0;
    }
    return 0;
}

/* walk()'s leaf for view_secret_holders: `seat` carries the mask. */
/* Why a static: walk's leaf takes no user pointer. Set only inside
** view_secret_holders, one per thread. */
static _Thread_local uint32_t holders_mask;

static int holder_leaf(value **slot, const rule *ru, int owner, int seat) {
    (void)seat;
    if (ru->policy == VIEW_OWNER && owner >= 1 && owner <= 32 && !is_empty(*slot))
        holders_mask |= (uint32_t)1 << (owner - 1);
    return 0;
}

uint32_t view_secret_holders(const view_rules *r, const value *state) {
    holders_mask = 0;
    value *v = (value *)state; /* holder_leaf only reads */
    for (size_t i = 0; r && i < r->n; i++)
        if (r->rules[i].policy == VIEW_OWNER) walk(&v, &r->rules[i], 0, -1, 0, holder_leaf);
    return holders_mask;
}

int view_delta_of(const view_rules *r, const value *before, const value *after, view_delta *out) {
    memset(out, 0, sizeof *out);
    for (size_t i = 0; r && i < r->n; i++)
        if (r->rules[i].policy != VIEW_PUBLIC) walk2(before, after, &r->rules[i], 0, -1, out);
    return 0;
}

/* ---------------------------------------------------- perturbation (tests) */

/* Changes every leaf below v; grow also changes lengths. */
static int perturb_all(value **slot, int grow) {
    value *v = *slot;
    switch (v->type) {
    case CV_NULL: return replace(slot, value_str("~"));
    case CV_BOOL: v->u.b = !v->u.b; return 0;
    case CV_INT: v->u.i += 1000; return 0;
    case CV_STR: {
        char *s = cairn_strfmt("~%s", v->u.str.s);
        if (!s) return -1;
        value *n = value_str(s);
        free(s);
        return replace(slot, n);
    }
    case CV_LIST:
        for (size_t i = 0; i < v->u.list.n; i++)
            if (perturb_all(&v->u.list.items[i], grow) != 0) return -1;
        return grow ? value_list_push(v, value_str("~extra")) : 0;
    case CV_MAP:
        for (size_t i = 0; i < v->u.map.n; i++)
            if (perturb_all(&v->u.map.items[i].val, grow) != 0) return -1;
        return grow ? value_map_set(v, "~extra", value_str("~")) : 0;
    }
    return 0;
}

static int perturb_leaf(value **slot, const rule *ru, int owner, int seat) {
    value *v = *slot;
    switch (ru->policy) {
    case VIEW_PUBLIC: return 0;
    case VIEW_OWNER:
        if (seat > 0 && owner == seat) return 0;
        return perturb_all(slot, 1);
    case VIEW_HIDDEN: return perturb_all(slot, 1);
    case VIEW_ORDER:
        if (v->type == CV_LIST) return perturb_all(slot, 0);
        return perturb_all(slot, 1);
    case VIEW_COUNT:
        if (v->type == CV_LIST) return perturb_all(slot, 0);
        if (v->type == CV_MAP && all_ints(v)) {
            /* keep the sum: move one unit between the first two entries */
            if (v->u.map.n >= 2 && v->u.map.items[0].val->u.i > 0) {
                v->u.map.items[0].val->u.i--;
                v->u.map.items[1].val->u.i++;
            }
            return 0;
        }
        if (v->type == CV_MAP) {
            /* keep the number of items and each value's type */
            for (size_t i = 0; i < v->u.map.n; i++)
                if (v->u.map.items[i].val->type != CV_INT &&
                    perturb_all(&v->u.map.items[i].val, 0) != 0)
                    return -1;
            return 0;
        }
        if (v->type == CV_INT) return 0;
        return perturb_all(slot, 1);
    }
    return 0;
}

value *view_perturb_secrets(const view_rules *r, const value *state, int seat) {
    value *v = value_clone(state);
    if (!v || !r) return v;
    /* hide-only rules are applied in order by view_of; perturbing in
    ** reverse order keeps an outer rule from growing a list an inner rule
    ** relies on matching with the same shape */
    for (size_t i = r->n; i-- > 0;) {
        if (walk(&v, &r->rules[i], 0, -1, seat, perturb_leaf) != 0) {
            value_free(v);
            return NULL;
        }
    }
    return v;
}

/* Does the path from segment i on reach a node of v? */
static int path_reaches(const value *v, const rule *ru, size_t i) {
    if (i == ru->n) return 1;
    const seg *s = &ru->segs[i];
    switch (s->kind) {
    case SEG_KEY: {
        const value *c = v->type == CV_MAP ? value_map_get(v, s->key) : NULL;
        return c && path_reaches(c, ru, i + 1);
    }
    case SEG_ANYKEY:
        for (size_t k = 0; v->type == CV_MAP && k < v->u.map.n; k++)
            if (path_reaches(v->u.map.items[k].val, ru, i + 1)) return 1;
        return 0;
    case SEG_INDEX:
        return v->type == CV_LIST && s->index <= v->u.list.n &&
               path_reaches(v->u.list.items[s->index - 1], ru, i + 1);
    case SEG_ANYINDEX:
        for (size_t k = 0; v->type == CV_LIST && k < v->u.list.n; k++)
            if (path_reaches(v->u.list.items[k], ru, i + 1)) return 1;
        return 0;
    }
    return 0;
}

void view_rules_mark_matches(const view_rules *r, const value *state, unsigned char *matched) {
    for (size_t i = 0; r && state && i < r->n; i++)
        if (!matched[i] && path_reaches(state, &r->rules[i], 0)) matched[i] = 1;
}
