/*
** sim_totals.c
** The running totals of `cairn sim`: per seat, per turn position and per
** breakdown label, the game lengths, the failures; with --compare the
** paired differences B - A of every figure. Records are added in game
** order, so the same games give the same doubles, bit for bit.
*/
#include "sim_internal.h"
#include "grow.h"
#include "error.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

int sim_totals_init(sim_totals *t, int seats) {
    memset(t, 0, sizeof *t);
    t->seats = seats;
    return seats >= 1 && seats <= CAIRN_MAX_SEATS ? 0 : -1;
}

void sim_totals_free(sim_totals *t) {
    for (int i = 0; i < CAIRN_MAX_SEATS; i++) free(t->hist[i].value), free(t->hist[i].count);
    for (size_t i = 0; i < t->n_labels; i++) free(t->label[i].key);
    free(t->label);
    free(t->found_seeds);
    free(t->find_error);
    for (size_t i = 0; i < t->n_cov; i++) free(t->cov[i].prefix);
    free(t->cov);
    for (size_t i = 0; i < t->n_fails; i++) sim_rec_free(&t->fails[i]);
    free(t->fails);
    sim_keyindex_free(&t->label_index);
    sim_keyindex_free(&t->cov_index);
    sim_traj_totals_free(t->traj);
    free(t->dec_hist.value), free(t->dec_hist.count);
    memset(t, 0, sizeof *t);
}

/* Counts v once in h, kept sorted. */
static int hist_add(sim_hist *h, int64_t v) {
    size_t lo = 0, hi = h->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (h->value[mid] < v) lo = mid + 1;
        else hi = mid;
    }
    if (lo < h->n && h->value[lo] == v) return h->count[lo]++, 0;
    size_t cap_value = h->cap, cap_count = h->cap; /* the two grow alike */
    if (GROW(h->value, cap_value, h->n + 1) != 0 || GROW(h->count, cap_count, h->n + 1) != 0) return -1;
    h->cap = cap_value < cap_count ? cap_value : cap_count;
    memmove(h->value + lo + 1, h->value + lo, (h->n - lo) * sizeof *h->value);
    memmove(h->count + lo + 1, h->count + lo, (h->n - lo) * sizeof *h->count);
    h->value[lo] = v, h->count[lo] = 1, h->n++;
    return 0;
}

static const char *label_key(const void *array, size_t i) { return ((const sim_label *)array)[i].key; }

/* The label's entry, found through the index (a breakdown may bring 20,000
** new labels a game), added when new. NULL on OOM. */
static sim_label *label_get(sim_totals *t, const char *key) {
    size_t at = sim_keyindex_find(&t->label_index, key, strlen(key), t->n_labels, label_key, t->label);
    if (at == (size_t)-1) return NULL;
    if (at < t->n_labels) return &t->label[at];
    if (t->n_labels == sim_grow_cap(t->n_labels)) { /* full: double */
        sim_label *nl = realloc(t->label, (t->n_labels ? 2 * t->n_labels : 1) * sizeof *nl);
        if (!nl) return NULL;
        t->label = nl;
    }
    sim_label *l = &t->label[t->n_labels];
    memset(l, 0, sizeof *l);
    if (!(l->key = cairn_strdup(key))) return NULL;
    t->n_labels++;
    return l;
}

/* A seat's breakdown lines grouped by key (a line given in several parts:
** the game's value is their sum), by sorting, not by comparing every pair:
** a score with 20,000 lines costs n log n compares, not 2 x 10^8
** (tests/attacks/5-sim-labels-hashed.attack). */
typedef struct keyed {
    const char *key;
    size_t at; /* the item's index */
} keyed;

static int by_key_then_index(const void *a, const void *b) {
    const keyed *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    return c ? c : (x->at > y->at) - (x->at < y->at);
}

/* For each item: first[j] 1 when it is its key's first item, and then
** sum[j] the points of every item with that key. 0, or -1 out of memory. */
static int group_items(const sim_seatrec *s, unsigned char *first, double *sum) {
    keyed *k = malloc((s->n_items ? s->n_items : 1) * sizeof *k);
    if (!k) return -1;
    for (size_t j = 0; j < s->n_items; j++) k[j] = (keyed){s->items[j].key, j}, first[j] = 0, sum[j] = 0;
    qsort(k, s->n_items, sizeof *k, by_key_then_index);
    for (size_t g = 0; g < s->n_items;) {
        size_t lead = k[g].at, e = g;
        for (; e < s->n_items && !strcmp(k[e].key, k[g].key); e++) sum[lead] += (double)s->items[k[e].at].points;
        first[lead] = 1;
        g = e;
    }
    free(k);
    return 0;
}

/* Notes that seat i had the value x on the line in a game. */
static void label_value(sim_label *l, int i, double x) {
    l->present[i]++;
    if (!l->n_val || x < l->least) l->least = x;
    if (!l->n_val || x > l->most) l->most = x;
    for (int k = 0; k < l->n_val && k < 2; k++)
        if (l->val[k] == x) {
            l->at[i][k]++;
            return;
        }
    if (l->n_val < 2) l->val[l->n_val] = x, l->at[i][l->n_val++]++;
    else l->n_val = 3;
}

stats_interval sim_label_ci(const sim_totals *t, const sim_label *l, int i, int *two) {
    long g = t->games;
    stats_acc a = {g, l->sum[i], l->sumsq[i], 0, 0};
    /* the values the line takes, with 0 for the games a seat went without */
    double v[3];
    int nv = l->n_val;
    for (int k = 0; k < nv && k < 2; k++) v[k] = l->val[k];
    int absent = 0;
    for (int s = 0; s < t->seats; s++) absent |= l->present[s] < g;
    if (absent && nv <= 2 && !(nv >= 1 && v[0] == 0) && !(nv == 2 && v[1] == 0)) v[nv++] = 0;
    if (two) *two = 0;
    if (nv != 2 || g < 1) {
        stats_interval iv = stats_mean_ci(&a);
        double least = absent && l->least > 0 ? 0 : l->least, most = absent && l->most < 0 ? 0 : l->most;
        if (l->n_val && least < most) {
            if (iv.lo < least) iv.lo = least;
            if (iv.hi > most) iv.hi = most;
        }
        return iv;
    }
    int hi = v[1] > v[0]; /* the index of the higher value */
    double k_hi = 0;      /* games seat i had the higher one */
    if (hi < l->n_val) k_hi = (double)l->at[i][hi];
    else k_hi = (double)(g - l->present[i]); /* the higher is the absent 0 */
    if (v[hi] == 0 && hi < l->n_val) k_hi += (double)(g - l->present[i]);
    if (two) *two = 1;
    return stats_two_valued(v[1 - hi], v[hi], k_hi, (double)g);
}

void sim_rec_shares(const sim_rec *r, double *share) {
    int best = r->seats[0].rank, k = 0;
    for (int i = 1; i < r->n; i++)
        if (r->seats[i].rank < best) best = r->seats[i].rank;
    for (int i = 0; i < r->n; i++) k += r->seats[i].rank == best;
    for (int i = 0; i < r->n; i++) share[i] = r->seats[i].rank == best ? 1.0 / k : 0.0;
}

/* The best winner's total minus the best total among the others (0 when
** every seat shares the win). */
static double margin(const sim_rec *r, const double *share) {
    int64_t win = INT64_MIN, other = INT64_MIN;
    for (int i = 0; i < r->n; i++) {
        int64_t v = r->seats[i].total;
        if (share[i] > 0 && v > win) win = v;
        if (share[i] == 0 && v > other) other = v;
    }
    return other == INT64_MIN ? 0.0 : (double)(win - other);
}

static int keep_fail(sim_totals *t, const sim_rec *r) {
    t->failed++;
    if (t->n_fails == CAIRN_SIM_KEEP_FAILS) return 0;
    if (!t->fails && !(t->fails = calloc(CAIRN_SIM_KEEP_FAILS, sizeof *t->fails))) return -1;
    sim_rec *f = &t->fails[t->n_fails];
    *f = (sim_rec){.index = r->index, .variant = r->variant, .seed = r->seed, .decisions = r->decisions,
                   .rounds = -1, .error = cairn_strdup(r->error ? r->error : "?")};
    if (!f->error) return -1;
    t->n_fails++;
    return 0;
}

/* Coverage counts failed games too: a rule reached before a failure was
** reached. */
static int add_cov(sim_totals *t, const sim_rec *r) {
    for (size_t i = 0; i < r->n_cov; i++) {
        sim_cov *c = sim_cov_get(&t->cov, &t->n_cov, &t->cov_index, r->cov[i].prefix);
        if (!c) return -1;
        c->offered += r->cov[i].offered, c->disabled += r->cov[i].disabled, c->taken += r->cov[i].taken;
        c->games_offered += r->cov[i].offered > 0, c->games_taken += r->cov[i].taken > 0;
        if (!r->ok || r->n != t->seats || !r->cov[i].offered) continue;
        double share[CAIRN_MAX_SEATS]; /* the seats that took it against those that did not */
        sim_rec_shares(r, share);
        for (int s = 0; s < r->n; s++)
            if (r->cov[i].took & (1ul << s)) c->with_wins += share[s], c->with_n++;
            else c->without_wins += share[s], c->without_n++;
    }
    return 0;
}

int sim_totals_add(sim_totals *t, const sim_rec *r) {
    if (add_cov(t, r) != 0) return -1;
    if (!r->ok) return keep_fail(t, r);
    if (r->n != t->seats) { /* the engine scores every seat: a record from elsewhere */
        sim_rec bad = *r;
        bad.ok = 0, bad.error = "the record's seat count is not the run's";
        return keep_fail(t, &bad);
    }
    if (r->found == 1) {
        t->found++;
        if (!t->found_seeds && !(t->found_seeds = malloc(CAIRN_SIM_KEEP_FOUND * sizeof *t->found_seeds))) return -1;
        if (t->n_found_seeds < CAIRN_SIM_KEEP_FOUND) t->found_seeds[t->n_found_seeds++] = r->seed;
    } else if (r->found < 0) {
        t->find_failed++;
        if (!t->find_error && !(t->find_error = cairn_strfmt("seed %" PRIu64 ": %s", r->seed, r->error ? r->error : "?")))
            return -1;
    }
    if (r->traj_failed) t->traj_failed++;
    if (sim_traj_add(&t->traj, r) != 0) return -1;
    double share[CAIRN_MAX_SEATS];
    sim_rec_shares(r, share);
    t->games++;
    stats_add(&t->decisions, (double)r->decisions);
    if (hist_add(&t->dec_hist, r->decisions) != 0) return -1;
    if (r->rounds >= 0) t->with_rounds++, stats_add(&t->rounds, (double)r->rounds);
    if (r->leads >= 0) stats_add(&t->leads, (double)r->leads);
    t->branch += (double)r->branch;
    int k = 0;
    for (int i = 0; i < r->n; i++) k += share[i] > 0;
    if (k > 1) t->shared++;
    t->margin += margin(r, share);
    int starter = r->starter >= 1 && r->starter <= r->n ? r->starter : 0;
    if (starter) t->with_starter++;
    if (starter > 1) t->other_starter++;
    for (int i = 0; i < r->n; i++) {
        const sim_seatrec *s = &r->seats[i];
        stats_add(&t->score[i], (double)s->total);
        t->share[i] += share[i], t->sharesq[i] += share[i] * share[i];
        if (hist_add(&t->hist[i], s->total) != 0) return -1;
        if (starter) {
            int p = (i + 1 - starter + r->n) % r->n; /* 0: the seat that started */
            stats_add(&t->pos_score[p], (double)s->total);
            t->pos_share[p] += share[i];
        }
        unsigned char *first = malloc(s->n_items ? s->n_items : 1);
        double *sum = malloc((s->n_items ? s->n_items : 1) * sizeof *sum);
        if (!first || !sum || group_items(s, first, sum) != 0) return free(first), free(sum), -1;
        for (size_t j = 0; j < s->n_items; j++) {
            if (!first[j]) continue; /* counted with its key's first item */
            sim_label *l = label_get(t, s->items[j].key);
            if (!l) return free(first), free(sum), -1;
            double x = sum[j];
            l->sum[i] += x, l->sumsq[i] += x * x;
            label_value(l, i, x);
        }
        free(first);
        free(sum);
    }
    return 0;
}

/* ------------------------------------------------------------ compare */

int sim_compare_init(sim_compare *c, int seats) {
    memset(c, 0, sizeof *c);
    if (sim_totals_init(&c->t[0], seats) != 0 || sim_totals_init(&c->t[1], seats) != 0) return -1;
    return 0;
}

void sim_compare_free(sim_compare *c) {
    sim_totals_free(&c->t[0]);
    sim_totals_free(&c->t[1]);
    for (size_t i = 0; i < c->n_pairs; i++) free(c->pair[i].name);
    free(c->pair);
    sim_rec_free(&c->held);
    memset(c, 0, sizeof *c);
}

/* The figure (name, seat), added with zeros for the games before it was
** first met (a breakdown line one variant never has). */
static sim_pair *pair_get(sim_compare *c, const char *name, int seat) {
    for (size_t i = 0; i < c->n_pairs; i++)
        if (c->pair[i].seat == seat && !strcmp(c->pair[i].name, name)) return &c->pair[i];
    sim_pair *np = realloc(c->pair, (c->n_pairs + 1) * sizeof *np);
    if (!np) return NULL;
    c->pair = np;
    sim_pair *p = &c->pair[c->n_pairs];
    memset(p, 0, sizeof *p);
    if (!(p->name = cairn_strdup(name))) return NULL;
    p->seat = seat;
    c->n_pairs++;
    for (long g = 0; g < c->pairs; g++) stats_add(&p->a, 0), stats_add(&p->b, 0), stats_add(&p->d, 0);
    return p;
}

/* The value of one figure in a game. */
static double figure(const sim_rec *r, const sim_pair *p, const double *share) {
    if (!strcmp(p->name, "decisions")) return (double)r->decisions;
    if (!strcmp(p->name, "rounds")) return r->rounds < 0 ? 0 : (double)r->rounds;
    if (p->seat < 0) { /* a breakdown line over every seat: the mean per seat */
        double x = 0;
        for (int i = 0; i < r->n; i++)
            for (size_t j = 0; j < r->seats[i].n_items; j++)
                if (!strcmp(r->seats[i].items[j].key, p->name + 1)) x += (double)r->seats[i].items[j].points;
        return x / r->n;
    }
    if (p->seat < 1) return 0;
    const sim_seatrec *s = &r->seats[p->seat - 1];
    if (!strcmp(p->name, "win share")) return share[p->seat - 1];
    if (!strcmp(p->name, "score")) return (double)s->total;
    double x = 0;
    for (size_t j = 0; j < s->n_items; j++)
        if (!strcmp(s->items[j].key, p->name + 1)) x += (double)s->items[j].points; /* after the ':' */
    return x;
}

/* Every figure of the pair (a, b) exists in c (breakdown keys as ":key"). */
static int pair_names(sim_compare *c, const sim_rec *r) {
    if (!pair_get(c, "decisions", 0) || (r->rounds >= 0 && !pair_get(c, "rounds", 0))) return -1;
    for (int i = 1; i <= r->n; i++)
        if (!pair_get(c, "win share", i) || !pair_get(c, "score", i)) return -1;
    for (int i = 0; i < r->n; i++)
        for (size_t j = 0; j < r->seats[i].n_items; j++) {
            char *name = cairn_strfmt(":%s", r->seats[i].items[j].key);
            sim_pair *p = name ? pair_get(c, name, -1) : NULL;
            p = p ? pair_get(c, name, i + 1) : NULL;
            free(name);
            if (!p) return -1;
        }
    return 0;
}

int sim_compare_add(sim_compare *c, sim_rec *r) {
    if (sim_totals_add(&c->t[r->variant ? 1 : 0], r) != 0) return -1;
    if (r->variant == 0) { /* A waits for its B: moved, not copied */
        sim_rec_free(&c->held);
        c->holding = r->ok;
        if (r->ok) c->held = *r, memset(r, 0, sizeof *r);
        return 0;
    }
    const sim_rec *a = &c->held;
    int paired = c->holding && r->ok && a->index == r->index;
    c->holding = 0;
    if (!paired) return 0;
    if (pair_names(c, a) != 0 || pair_names(c, r) != 0) return -1;
    double sa[CAIRN_MAX_SEATS], sb[CAIRN_MAX_SEATS];
    sim_rec_shares(a, sa);
    sim_rec_shares(r, sb);
    for (size_t i = 0; i < c->n_pairs; i++) {
        sim_pair *p = &c->pair[i];
        double x = figure(a, p, sa), y = figure(r, p, sb);
        stats_add(&p->a, x), stats_add(&p->b, y), stats_add(&p->d, y - x);
    }
    c->pairs++;
    return 0;
}

int sim_variants_add(sim_totals *t, sim_compare *cmp, int variants, sim_rec *r) {
    if (variants == 1) return sim_totals_add(t, r);
    if (r->variant > 0) {
        int k = r->variant;
        r->variant = 1; /* B of the pair (0, k) */
        int rc = sim_compare_add(&cmp[k - 1], r);
        r->variant = k;
        return rc;
    }
    int rc = 0;
    for (int k = 1; k < variants && !rc; k++) { /* A of every pair: a copy for each but the last */
        sim_rec copy, *a = r;
        char *line = k < variants - 1 ? sim_rec_json(r) : NULL;
        if (k < variants - 1) a = line && sim_rec_parse(line, strlen(line), &copy) == 0 ? &copy : NULL;
        free(line);
        rc = a ? sim_compare_add(&cmp[k - 1], a) : -1;
        if (a == &copy) sim_rec_free(&copy);
    }
    return rc;
}

int sim_sweep_variants(const char *sweep) {
    const char *eq = sweep ? strchr(sweep, '=') : NULL;
    if (!eq) return 0;
    int n = 1;
    for (const char *p = eq + 1; *p; p++) n += *p == ',';
    return n;
}
