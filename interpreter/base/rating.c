/*
** rating.c
** Plackett-Luce ratings (rating.h). A game becomes its stages: the seats
** left, and the ones drawn from them next (the seats sharing the best rank
** among those left). Stages with the same players left are summed, so the
** fit walks a short list however many games there were.
*/
#include "rating.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One kind of stage: how many seats of each player were left, and how many
** times (in seats drawn) it happened. */
typedef struct stage {
    int left[RATING_MAX_PLAYERS];
    double drawn; /* seats drawn at such stages, summed */
} stage;

struct rating_model {
    int k;
    double wins[RATING_MAX_PLAYERS]; /* seats of each player drawn at a stage */
    stage *stages;
    size_t n, cap;
};

rating_model *rating_new(int k) {
    if (k < 1 || k > RATING_MAX_PLAYERS) return NULL;
    rating_model *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    m->k = k;
    return m;
}

void rating_free(rating_model *m) {
    if (!m) return;
    free(m->stages);
    free(m);
}

static int add_stage(rating_model *m, const int *left, double drawn) {
    for (size_t i = 0; i < m->n; i++)
        if (!memcmp(m->stages[i].left, left, sizeof m->stages[i].left)) return m->stages[i].drawn += drawn, 0;
    if (m->n == m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 16;
        stage *s = realloc(m->stages, cap * sizeof *s);
        if (!s) return -1;
        m->stages = s, m->cap = cap;
    }
    memcpy(m->stages[m->n].left, left, sizeof m->stages[m->n].left);
    m->stages[m->n++].drawn = drawn;
    return 0;
}

int rating_add(rating_model *m, int n, const int *player, const int *rank) {
    int left[RATING_MAX_PLAYERS] = {0}, count = n, done[64] = {0};
    if (n < 1 || n > 64) return -1;
    for (int i = 0; i < n; i++) {
        if (player[i] < 0 || player[i] >= m->k) return -1;
        left[player[i]]++;
    }
    while (count > 1) { /* the best rank among the seats left is drawn next */
        int best = 0, first = 1;
        for (int i = 0; i < n; i++)
            if (!done[i] && (first || rank[i] < best)) best = rank[i], first = 0;
        int drawn = 0;
        for (int i = 0; i < n; i++) drawn += !done[i] && rank[i] == best;
        if (add_stage(m, left, (double)drawn) != 0) return -1;
        for (int i = 0; i < n; i++)
            if (!done[i] && rank[i] == best) done[i] = 1, m->wins[player[i]] += 1, left[player[i]]--, count--;
    }
    return 0;
}

/* The inverse of the k x k matrix a (row-major) into inv by Gauss-Jordan
** with partial pivoting. 0, or -1 when a is singular. */
static int invert(int k, double *a, double *inv) {
    for (int i = 0; i < k; i++)
        for (int j = 0; j < k; j++) inv[i * k + j] = i == j;
    for (int c = 0; c < k; c++) {
        int p = c;
        for (int r = c + 1; r < k; r++)
            if (fabs(a[r * k + c]) > fabs(a[p * k + c])) p = r;
        if (fabs(a[p * k + c]) < 1e-12) return -1;
        for (int j = 0; j < k; j++) {
            double t = a[c * k + j];
            a[c * k + j] = a[p * k + j], a[p * k + j] = t;
            t = inv[c * k + j];
            inv[c * k + j] = inv[p * k + j], inv[p * k + j] = t;
        }
        double d = a[c * k + c];
        for (int j = 0; j < k; j++) a[c * k + j] /= d, inv[c * k + j] /= d;
        for (int r = 0; r < k; r++) {
            if (r == c) continue;
            double f = a[r * k + c];
            for (int j = 0; j < k; j++) a[r * k + j] -= f * a[c * k + j], inv[r * k + j] -= f * inv[c * k + j];
        }
    }
    return 0;
}

#define FIT_MAX_ITERATIONS 100000
#define FIT_TOLERANCE 1e-12

int rating_fit(const rating_model *m, double prior, double *theta, double *se) {
    int k = m->k, it;
    if (prior < 0) return -1;
    double g[RATING_MAX_PLAYERS], next[RATING_MAX_PLAYERS];
    for (int i = 0; i < k; i++) g[i] = 1;
    for (it = 1; it <= FIT_MAX_ITERATIONS; it++) {
        /* MM: gamma_i = wins_i / sum over stages of drawn * left_i / sum(left gamma) */
        double denom[RATING_MAX_PLAYERS] = {0};
        for (size_t s = 0; s < m->n; s++) {
            double sum = 0;
            for (int i = 0; i < k; i++) sum += m->stages[s].left[i] * g[i];
            for (int i = 0; i < k; i++) denom[i] += m->stages[s].drawn * m->stages[s].left[i] / sum;
        }
        double change = 0;
        for (int i = 0; i < k; i++) {
            double w = m->wins[i] + prior, d = denom[i] + 2 * prior / (g[i] + 1);
            if (w <= 0 || d <= 0) return -1; /* never drawn, or never met anyone */
            next[i] = w / d;
        }
        if (prior == 0) { /* no anchor: the geometric mean is 1 */
            double lg = 0;
            for (int i = 0; i < k; i++) lg += log(next[i]);
            for (int i = 0; i < k; i++) next[i] /= exp(lg / k);
        }
        for (int i = 0; i < k; i++) {
            double c = fabs(log(next[i]) - log(g[i]));
            if (c > change) change = c;
            g[i] = next[i];
            if (!isfinite(g[i]) || g[i] <= 0 || g[i] > 1e12) return -1;
        }
        if (change < FIT_TOLERANCE) break;
    }
    if (it > FIT_MAX_ITERATIONS) return -1;
    /* the observed information of theta: each stage adds drawn * (diag(p) - p p^T),
    ** p_i = left_i gamma_i / sum; the prior's stages each p (1 - p) */
    double info[RATING_MAX_PLAYERS * RATING_MAX_PLAYERS] = {0}, cov[RATING_MAX_PLAYERS * RATING_MAX_PLAYERS];
    for (size_t s = 0; s < m->n; s++) {
        double sum = 0, p[RATING_MAX_PLAYERS];
        for (int i = 0; i < k; i++) sum += m->stages[s].left[i] * g[i];
        for (int i = 0; i < k; i++) p[i] = m->stages[s].left[i] * g[i] / sum;
        for (int i = 0; i < k; i++)
            for (int j = 0; j < k; j++) info[i * k + j] += m->stages[s].drawn * ((i == j) * p[i] - p[i] * p[j]);
    }
    for (int i = 0; i < k; i++) info[i * k + i] += 2 * prior * g[i] / (g[i] + 1) / (g[i] + 1);
    /* without a prior the information is singular along (1, ..., 1): its
    ** pseudo-inverse is (I + J/k)^-1 - J/k (J all ones); with one, the
    ** inverse. Either way the centred theta's covariance is C cov C, C = I - J/k. */
    if (prior == 0)
        for (int i = 0; i < k * k; i++) info[i] += 1.0 / k;
    if (invert(k, info, cov) != 0) return -1;
    if (prior == 0)
        for (int i = 0; i < k * k; i++) cov[i] -= 1.0 / k;
    double mean = 0, row[RATING_MAX_PLAYERS] = {0}, all = 0;
    for (int i = 0; i < k; i++) mean += log(g[i]) / k;
    for (int i = 0; i < k; i++)
        for (int j = 0; j < k; j++) row[i] += cov[i * k + j] / k, all += cov[i * k + j] / k / k;
    for (int i = 0; i < k; i++) {
        theta[i] = log(g[i]) - mean;
        double v = cov[i * k + i] - 2 * row[i] + all; /* (C cov C)_ii */
        se[i] = v > 0 ? sqrt(v) : 0;
    }
    return it;
}
