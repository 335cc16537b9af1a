/*
** bot_mcts.c
** Monte Carlo tree search: UCT (Kocsis & Szepesvari) over forks, and its
** information-set form (Cowling, Powley & Whitehouse's single-observer
** ISMCTS) for games with secrets. Each iteration takes a fork (of the real
** position, or of a state sampled from the bot's view by determinize; with
** `pool=K` one of the search's first K samples, kept and reused in turn),
** walks the tree choosing by UCB1, adds one node, plays the rest at random
** (to the end, or `depth` decisions and then the evaluation: the
** provisional score plus the ruleset's heuristic) and backs the
** rewards up. Where several seats are asked at once every seat chooses by
** its own statistics (decoupled UCT), so none learns another's hidden
** choice. Options are statistics per seat and node, counted by how often
** they were available (the availability count of ISMCTS), so states sampled
** with other options share one tree. Chance is left to the forks (an
** open-loop tree). Every draw comes from streams of the game seed and the
** position: an iteration budget gives the same choice on every run. This
** is one search; bot_mcts_root.c splits a decision into several and merges
** their roots (on several cores: bot_parallel.c).
*/
#include "bot_internal.h"
#include "grow.h"
#include "limits.h" /* CAIRN_TEST_MAX_DECISIONS: when a rollout counts as stuck */

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ------------------------------------------------------------ the tree */

typedef struct arm {
    int sym;          /* the option id, interned */
    uint32_t n;       /* times chosen */
    uint32_t avail;   /* times offered (ISMCTS's availability count) */
    double w;         /* rewards summed */
} arm;

typedef struct seat_arms {
    int seat;
    arm *arms;
    size_t n, cap;
} seat_arms;

typedef struct kid {
    uint64_t key;     /* the joint choice that leads there */
    int node;
} kid;

typedef struct node {
    seat_arms *seats;
    size_t n_seats;
    kid *kids;
    size_t n_kids, cap_kids;
} node;

typedef struct search {
    node *nodes;
    size_t n_nodes, cap_nodes;
    char **syms;      /* interned ids */
    size_t n_syms, cap_syms;
    int *slots;       /* open addressing: sym + 1, 0 empty */
    size_t n_slots;
    int oom;
} search;

static uint64_t str_hash(const char *s) {
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

/* The symbol of id, adding it. -1 on OOM. */
static int intern(search *t, const char *id) {
    if (t->n_syms * 2 >= t->n_slots) { /* rehash at half full */
        size_t ns = t->n_slots ? t->n_slots * 2 : 64;
        int *sl = calloc(ns, sizeof *sl);
        if (!sl) return -1;
        for (size_t i = 0; i < t->n_syms; i++) {
            size_t h = (size_t)(str_hash(t->syms[i]) & (ns - 1));
            while (sl[h]) h = (h + 1) & (ns - 1);
            sl[h] = (int)i + 1;
        }
        free(t->slots);
        t->slots = sl;
        t->n_slots = ns;
    }
    size_t h = (size_t)(str_hash(id) & (t->n_slots - 1));
    while (t->slots[h]) {
        int s = t->slots[h] - 1;
        if (!strcmp(t->syms[s], id)) return s;
        h = (h + 1) & (t->n_slots - 1);
    }
    if (grow_array((void **)&t->syms, &t->cap_syms, t->n_syms + 1, sizeof *t->syms) != 0) return -1;
    if (!(t->syms[t->n_syms] = cairn_strdup(id))) return -1;
    t->slots[h] = (int)t->n_syms + 1;
    return (int)t->n_syms++;
}

/* A new empty node; its index or -1. */
static int new_node(search *t) {
    if (grow_array((void **)&t->nodes, &t->cap_nodes, t->n_nodes + 1, sizeof *t->nodes) != 0) return -1;
    memset(&t->nodes[t->n_nodes], 0, sizeof *t->nodes);
    return (int)t->n_nodes++;
}

static void search_free(search *t) {
    for (size_t i = 0; i < t->n_nodes; i++) {
        node *nd = &t->nodes[i];
        for (size_t s = 0; s < nd->n_seats; s++) free(nd->seats[s].arms);
        free(nd->seats);
        free(nd->kids);
    }
    free(t->nodes);
    for (size_t i = 0; i < t->n_syms; i++) free(t->syms[i]);
    free(t->syms);
    free(t->slots);
}

/* The statistics of seat at node nd, added when new; NULL on OOM. */
static seat_arms *arms_of(node *nd, int seat) {
    for (size_t i = 0; i < nd->n_seats; i++)
        if (nd->seats[i].seat == seat) return &nd->seats[i];
    seat_arms *s = realloc(nd->seats, (nd->n_seats + 1) * sizeof *s);
    if (!s) return NULL;
    nd->seats = s;
    memset(&s[nd->n_seats], 0, sizeof *s);
    s[nd->n_seats].seat = seat;
    return &s[nd->n_seats++];
}

/* The arm of sym, added when new; its index or -1. */
static long arm_of(seat_arms *sa, int sym) {
    for (size_t i = 0; i < sa->n; i++)
        if (sa->arms[i].sym == sym) return (long)i;
    if (grow_array((void **)&sa->arms, &sa->cap, sa->n + 1, sizeof *sa->arms) != 0) return -1;
    memset(&sa->arms[sa->n], 0, sizeof *sa->arms);
    sa->arms[sa->n].sym = sym;
    return (long)sa->n++;
}

static int child_of(const node *nd, uint64_t key) {
    for (size_t i = 0; i < nd->n_kids; i++)
        if (nd->kids[i].key == key) return nd->kids[i].node;
    return -1;
}

/* ------------------------------------------------------------ one iteration */

/* One seat's choice in one step of the walk: which arm of which seat. */
typedef struct pick {
    int seat;
    long arm;   /* index in the seat's arms at the node */
    size_t k;   /* which enabled option (from 0) in the fork */
    int sym;
} pick;

typedef struct step {
    int node;
    pick picks[CAIRN_MAX_SEATS];
    int n_picks;
} step;

typedef struct walk {
    step *steps;
    size_t n, cap;
} walk;

/* UCB1 with the availability count: the mean plus c * sqrt(ln(avail) / n). */
static double ucb(const arm *a, double c) {
    return a->w / a->n + c * sqrt(log((double)a->avail) / a->n);
}

/* Chooses for seat at node ni of the fork f: an option tried least... by
** UCB1 among those offered now, an untried one first (drawn from r). Fills
** p; 0, or -1 on OOM or when the seat has no option. */
static int choose_arm(search *t, int ni, engine *f, int seat, double c, rng *r, pick *p) {
    size_t n = engine_bot_option_count(f, seat);
    if (n == 0) return -1;
    long untried[64];
    size_t n_untried = 0, seen_untried = 0;
    long best = -1;
    size_t best_k = 0;
    double best_v = -INFINITY;
    for (size_t k = 0; k < n; k++) {
        const char *id = engine_bot_option_id(f, seat, k);
        int sym = id ? intern(t, id) : -1;
        seat_arms *sa = sym >= 0 ? arms_of(&t->nodes[ni], seat) : NULL;
        long a = sa ? arm_of(sa, sym) : -1;
        if (a < 0) return t->oom = 1, -1;
        arm *am = &sa->arms[a];
        am->avail++;
        if (am->n == 0) {
            /* reservoir of the untried, keeping at most 64 */
            seen_untried++;
            if (n_untried < 64) untried[n_untried++] = (long)k;
            else {
                uint64_t j = rng_below(r, seen_untried);
                if (j < 64) untried[j] = (long)k;
            }
            continue;
        }
        double v = ucb(am, c);
        if (v > best_v) best_v = v, best = a, best_k = k;
    }
    size_t k = best_k;
    if (n_untried) k = (size_t)untried[rng_below(r, n_untried)];
    else if (best < 0) return -1;
    const char *id = engine_bot_option_id(f, seat, k);
    int sym = intern(t, id);
    seat_arms *sa = arms_of(&t->nodes[ni], seat);
    p->seat = seat;
    p->k = k;
    p->sym = sym;
    p->arm = arm_of(sa, sym);
    return p->arm < 0 ? -1 : 0;
}

/* The key of a joint choice: the (seat, option) pairs mixed (splitmix64).
** Two joint choices that collide in 64 bits would share a node. */
static uint64_t joint_key(const step *s) {
    uint64_t h = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < s->n_picks; i++) {
        uint64_t z = h ^ ((uint64_t)s->picks[i].seat << 40) ^ (uint64_t)(unsigned)s->picks[i].sym;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        h = z ^ (z >> 31);
    }
    return h;
}

/* Index of sym among seat's enabled options in f, or -1. */
static long find_enabled(search *t, engine *f, int seat, int sym) {
    size_t n = engine_bot_option_count(f, seat);
    for (size_t k = 0; k < n; k++) {
        const char *id = engine_bot_option_id(f, seat, k);
        if (id && !strcmp(id, t->syms[sym])) return (long)k;
    }
    return -1;
}

typedef struct mcts_ctx {
    bot *b;
    search t;
    walk w;
    int seats;
    engine *scratch;  /* guided rollouts: where each option is tried */
    rng *r;           /* the iteration's stream */
    cerr_list *errs;
    int failed;
} mcts_ctx;

/* engine_policy for rollout=heuristic: with probability epsilon a random
** option, else the one whose result the evaluation (score plus heuristic,
** bot_evaluate) likes best for seat (bot_margin)
** (each tried on the scratch fork, started over from f); ties go to the
** first. */
static long guided_pick(engine *f, int seat, size_t n, void *ud) {
    mcts_ctx *x = ud;
    if (x->failed) return -1;
    uint64_t roll = rng_next(x->r);
    if ((double)(roll >> 11) / 9007199254740992.0 < x->b->epsilon) return (long)rng_below(x->r, n);
    long best = 0;
    double best_v = -INFINITY;
    for (size_t k = 0; k < n; k++) {
        double margin;
        char *why = NULL;
        if (!x->scratch) x->scratch = engine_fork(f, rng_next(x->r) | 1, x->errs);
        else if (engine_fork_refill(x->scratch, f, NULL, seat, rng_next(x->r) | 1, x->errs) != 0) goto fail;
        if (!x->scratch) goto fail;
        if (engine_bot_answer(x->scratch, seat, k, &why) != ENGINE_OK) {
            cerr_addk(x->errs, NULL, 0, 0, NULL, "mcts.rollout_failed", "mcts: a guided rollout's move failed: %s",
                      why ? why : "?");
            free(why);
            goto fail;
        }
        if (bot_margin(x->scratch, seat, &margin, x->errs) != 0) goto fail;
        if (margin > best_v) best_v = margin, best = (long)k;
    }
    return best;
fail:
    x->failed = 1;
    return -1;
}

/* Walks the tree of ctx in fork f, plays out, backs up. 0, or
** -1 after appending an error. */
static int iterate(mcts_ctx *x, engine *f, rng *r, cerr_list *errs) {
    search *t = &x->t;
    const bot *b = x->b;
    x->w.n = 0;
    int cur = 0, expanded = 0;
    while (!engine_is_over(f) && !expanded) {
        if (grow_array((void **)&x->w.steps, &x->w.cap, x->w.n + 1, sizeof *x->w.steps) != 0) return errs->oom = 1, -1;
        step *st = &x->w.steps[x->w.n++];
        st->node = cur;
        st->n_picks = 0;
        for (int s = 1; s <= x->seats; s++) {
            if (!engine_is_asked(f, s)) continue;
            if (choose_arm(t, cur, f, s, b->c, r, &st->picks[st->n_picks]) != 0) {
                if (t->oom) return errs->oom = 1, -1;
                char seat_text[24];
                snprintf(seat_text, sizeof seat_text, "%d", s);
                cerr_addk(errs, NULL, 0, 0, NULL, "mcts.no_option",
                          "mcts: seat %s is asked in a fork but has no enabled option", seat_text);
                return -1;
            }
            st->n_picks++;
        }
        uint64_t key = joint_key(st);
        for (int i = 0; i < st->n_picks; i++) {
            pick *p = &st->picks[i];
            /* an answer may renumber the next seat's options: find them by id */
            long k = i == 0 ? (long)p->k : find_enabled(t, f, p->seat, p->sym);
            if (k < 0) {
                st->n_picks = i; /* the rest were not played */
                break;
            }
            char *why = NULL;
            engine_status es = engine_bot_answer(f, p->seat, (size_t)k, &why);
            if (es != ENGINE_OK) {
                char seat_text[24];
                snprintf(seat_text, sizeof seat_text, "%d", p->seat);
                cerr_addk(errs, NULL, 0, 0, NULL, "mcts.move_failed", "mcts: \"%s\" of seat %s failed in a fork: %s",
                          t->syms[p->sym], seat_text, why ? why : engine_status_name(es));
                free(why);
                return -1;
            }
        }
        int next = child_of(&t->nodes[cur], key);
        if (next < 0) {
            next = new_node(t);
            node *nd = &t->nodes[cur];
            if (next < 0 || grow_array((void **)&nd->kids, &nd->cap_kids, nd->n_kids + 1, sizeof *nd->kids) != 0)
                return errs->oom = 1, -1;
            nd->kids[nd->n_kids].key = key;
            nd->kids[nd->n_kids++].node = next;
            expanded = 1;
        }
        cur = next;
    }
    if (!engine_is_over(f)) {
        size_t max = b->depth > 0 ? (size_t)b->depth : (size_t)CAIRN_TEST_MAX_DECISIONS;
        x->r = r;
        x->errs = errs;
        if (engine_playout(f, max, b->guided ? guided_pick : NULL, x, errs) < 0 || x->failed) return -1;
    }
    double rew[CAIRN_MAX_SEATS];
    if (bot_rewards(f, b, rew, errs) != 0) return -1;
    for (size_t i = 0; i < x->w.n; i++) {
        step *st = &x->w.steps[i];
        node *nd = &t->nodes[st->node];
        for (int j = 0; j < st->n_picks; j++) {
            seat_arms *sa = arms_of(nd, st->picks[j].seat);
            if (!sa) return errs->oom = 1, -1;
            arm *a = &sa->arms[st->picks[j].arm];
            a->n++;
            a->w += rew[st->picks[j].seat - 1];
        }
    }
    return 0;
}

/* ------------------------------------------------------------ one search */

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int bot_mcts_search(bot *b, engine *e, int seat, const mcts_share *share, const bot_hooks *hooks, mcts_root *out,
                    cerr_list *errs) {
    int sampled = engine_has_secrets(e);
    mcts_ctx x;
    memset(&x, 0, sizeof x);
    x.b = b;
    x.seats = engine_seat_count(e);
    if (x.seats > CAIRN_MAX_SEATS) {
        cerr_add(errs, NULL, 0, 0, NULL, "mcts: at most %d seats", CAIRN_MAX_SEATS);
        return -1;
    }
    value *view = sampled ? engine_view(e, seat) : NULL;
    if ((sampled && !view) || new_node(&x.t) != 0) {
        value_free(view);
        search_free(&x.t);
        errs->oom = 1;
        return -1;
    }
    /* pool=K: the search's iterations 0..K-1 sample as without it and keep
    ** their states; iteration i >= K starts from kept state i mod K, with its
    ** own chance (engine_fork_pool.c). Per search: the same on any core count */
    long pool = sampled ? b->pool : 0;
    value **kept = pool > 0 ? calloc((size_t)pool, sizeof *kept) : NULL;
    if (pool > 0 && !kept) {
        value_free(view);
        search_free(&x.t);
        errs->oom = 1;
        return -1;
    }
    double last_tick = now_seconds();
    long iters = 0;
    int bad = 0;
    engine *f = NULL;
    for (;;) {
        if (share->iterations > 0 && iters >= share->iterations) break;
        double now = now_seconds();
        if (share->deadline > 0 && now >= share->deadline) break;
        if (hooks && hooks->interrupted && iters > 0 && hooks->interrupted(hooks->ud)) {
            out->stopped = 1;
            break;
        }
        if (hooks && hooks->tick && now - last_tick >= 0.1) {
            hooks->tick(hooks->ud, share->counted + iters, now - share->start);
            last_tick = now;
        }
        rng r;
        rng_seed_stream(&r, share->stream, (uint64_t)iters);
        uint64_t reseed = rng_next(&r) | 1;
        /* one fork, started over for every iteration (a sandbox costs more than a playout) */
        value **slot = pool > 0 ? &kept[iters % pool] : NULL;
        if (!f) {
            f = sampled ? engine_fork_sampled(e, view, seat, reseed, errs) : engine_fork(e, reseed, errs);
            if (f) engine_fork_check_first(f, (size_t)share->checked);
        }
        else if (slot && *slot) bad = engine_fork_refill_sample(f, e, *slot, reseed, errs) != 0;
        else if (engine_fork_refill(f, e, view, seat, reseed, errs) != 0) bad = 1;
        if (f && !bad && slot && !*slot && !(*slot = engine_fork_take_sample(f, errs))) bad = 1;
        if (!f || bad || iterate(&x, f, &r, errs) != 0) bad = 1;
        if (bad) break;
        iters++;
    }
    if (f) out->samples += (long)engine_fork_samples(f), out->checked += (long)engine_fork_checked(f);
    engine_free(f);
    for (long i = 0; i < pool; i++) value_free(kept[i]);
    free(kept);
    out->iterations += iters;
    /* the root's statistics for seat, in the order the arms were made */
    seat_arms *sa = bad ? NULL : arms_of(&x.t.nodes[0], seat);
    if (!bad && !sa) bad = 1, errs->oom = 1;
    for (size_t i = 0; !bad && i < sa->n; i++) {
        const arm *a = &sa->arms[i];
        if (mcts_root_add(out, x.t.syms[a->sym], a->n, a->avail, a->w) != 0) bad = 1, errs->oom = 1;
    }
    free(x.w.steps);
    engine_free(x.scratch);
    search_free(&x.t);
    value_free(view);
    return bad ? -1 : 0;
}
