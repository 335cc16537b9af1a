/*
** sim_record.c
** A game's record for `cairn sim`: one line of JSON, written by the process
** that played the game and read back by the one that counts it (a worker's
** pipe, a shard's part). Integers and strings only, so nothing is lost.
*/
#include "sim_internal.h"
#include "error.h"
#include "termsafe.h"
#include "yload.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

void sim_rec_free(sim_rec *r) {
    if (!r) return;
    for (int i = 0; r->seats && i < r->n; i++) {
        for (size_t j = 0; j < r->seats[i].n_items; j++) free(r->seats[i].items[j].key);
        free(r->seats[i].items);
    }
    free(r->seats);
    free(r->error);
    for (size_t i = 0; i < r->n_cov; i++) free(r->cov[i].prefix);
    free(r->cov);
    sim_keyindex_free(&r->cov_index);
    free(r->cpu);
    sim_traj_free(r->traj);
    memset(r, 0, sizeof *r);
}

static const char *cov_key(const void *array, size_t i) { return ((const sim_cov *)array)[i].prefix; }

sim_cov *sim_cov_get(sim_cov **cov, size_t *n, sim_keyindex *idx, const char *id) {
    size_t len = strcspn(id, "0123456789"); /* numbers are a rule's parameters */
    while (len && id[len - 1] == ' ') len--;
    if (!len) len = strlen(id);
    size_t at = sim_keyindex_find(idx, id, len, *n, cov_key, *cov);
    if (at == (size_t)-1) return NULL;
    if (at < *n) return &(*cov)[at];
    if (*n == sim_grow_cap(*n)) { /* full: double (an array only grows here) */
        sim_cov *nc = realloc(*cov, (*n ? 2 * *n : 1) * sizeof *nc);
        if (!nc) return NULL;
        *cov = nc;
    }
    sim_cov *c = &(*cov)[*n];
    memset(c, 0, sizeof *c);
    if (!(c->prefix = malloc(len + 1))) return NULL;
    memcpy(c->prefix, id, len);
    c->prefix[len] = '\0';
    (*n)++;
    return c;
}

char *sim_rec_json(const sim_rec *r) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    fprintf(f, "{\"index\": %ld, \"variant\": %d, \"seed\": %" PRIu64 ", \"ok\": %s, \"decisions\": %ld",
            r->index, r->variant, r->seed, r->ok ? "true" : "false", r->decisions);
    fprintf(f, ", \"rounds\": %ld, \"starter\": %d, \"branch\": %ld", r->rounds, r->starter, r->branch);
    if (r->found) fprintf(f, ", \"find\": %d", r->found);
    if (r->leads >= 0) fprintf(f, ", \"leads\": %ld", r->leads);
    if (r->ok && r->error) {
        fputs(", \"find_error\": ", f);
        json_string_writez(f, r->error);
    }
    if (!r->ok) {
        fputs(", \"error\": ", f);
        json_string_writez(f, r->error);
    } else {
        fputs(", \"seats\": [", f);
        for (int i = 0; i < r->n; i++) {
            const sim_seatrec *s = &r->seats[i];
            fprintf(f, "%s{\"total\": %" PRId64 ", \"rank\": %d, \"items\": [", i ? ", " : "", s->total, s->rank);
            for (size_t j = 0; j < s->n_items; j++) {
                fputs(j ? ", [" : "[", f);
                json_string_writez(f, s->items[j].key);
                fprintf(f, ", %" PRId64 "]", s->items[j].points);
            }
            fputs("]}", f);
        }
        fputc(']', f);
    }
    if (r->n_cov) {
        fputs(", \"cov\": [", f);
        for (size_t i = 0; i < r->n_cov; i++) {
            fputs(i ? ", [" : "[", f);
            json_string_writez(f, r->cov[i].prefix);
            fprintf(f, ", %ld, %ld, %ld, %lu]", r->cov[i].offered, r->cov[i].disabled, r->cov[i].taken, r->cov[i].took);
        }
        fputc(']', f);
    }
    sim_traj_json(f, r);
    if (r->cpu) {
        fputs(", \"cpu\": [", f);
        for (int i = 0; i < r->n_cpu; i++) fprintf(f, "%s[%ld, %" PRId64 "]", i ? ", " : "", r->cpu[i].asked, r->cpu[i].ns);
        fputc(']', f);
    }
    fputc('}', f);
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

static int get_int(const value *m, const char *key, int64_t *out) {
    const value *v = value_map_get(m, key);
    if (!v || v->type != CV_INT) return -1;
    *out = v->u.i;
    return 0;
}

/* An integer field in [lo, hi]: -1 when it is missing, not an integer or
** outside (a record from a file is checked, never read through the wrong
** member of the value's union). */
static int get_int_in(const value *m, const char *key, int64_t lo, int64_t hi, int64_t *out) {
    return get_int(m, key, out) != 0 || *out < lo || *out > hi ? -1 : 0;
}

/* The same for an optional field: dflt when absent, -1 when present and wrong. */
static int opt_int_in(const value *m, const char *key, int64_t lo, int64_t hi, int64_t dflt, int64_t *out) {
    if (!value_map_get(m, key)) return *out = dflt, 0;
    return get_int_in(m, key, lo, hi, out);
}

/* A count an honest record can hold: far above any game's, small enough
** that CAIRN_SIM_MAX_GAMES of them times CAIRN_SIM_MAX_VARIANTS sum
** without overflow (10^11 * 10^6 * 8 < 2^63). */
#define SIM_REC_MAX_COUNT 100000000000LL

/* A list item that is an integer in [0, SIM_REC_MAX_COUNT]. */
static int count_item(const value *v, long *out) {
    if (v->type != CV_INT || v->u.i < 0 || v->u.i > SIM_REC_MAX_COUNT) return -1;
    *out = (long)v->u.i;
    return 0;
}

static int seat_from_value(const value *v, sim_seatrec *s) {
    int64_t x;
    const value *items = v->type == CV_MAP ? value_map_get(v, "items") : NULL;
    if (!items || items->type != CV_LIST || get_int(v, "total", &s->total) || get_int(v, "rank", &x)) return -1;
    if (x < 1 || x > CAIRN_MAX_SEATS) return -1;
    s->rank = (int)x;
    s->items = items->u.list.n ? calloc(items->u.list.n, sizeof *s->items) : NULL;
    if (items->u.list.n && !s->items) return -1;
    for (size_t j = 0; j < items->u.list.n; j++) {
        const value *it = items->u.list.items[j];
        if (it->type != CV_LIST || it->u.list.n != 2 || it->u.list.items[0]->type != CV_STR ||
            it->u.list.items[1]->type != CV_INT)
            return -1;
        if (!(s->items[j].key = cairn_strdup(it->u.list.items[0]->u.str.s))) return -1;
        s->items[j].points = it->u.list.items[1]->u.i;
        s->n_items = j + 1;
    }
    return 0;
}

int sim_rec_from_value(const value *v, sim_rec *r) {
    memset(r, 0, sizeof *r);
    int64_t x[7];
    /* each field of its type and range: a forged part is refused, not read
    ** as whatever its bytes happen to be (issue 29) */
    static const struct { const char *key; int64_t lo, hi; } ints[] = {
        {"index", 0, CAIRN_SIM_MAX_GAMES - 1}, {"variant", 0, CAIRN_SIM_MAX_VARIANTS - 1},
        {"seed", INT64_MIN, INT64_MAX},        {"decisions", 0, SIM_REC_MAX_COUNT},
        {"rounds", -1, SIM_REC_MAX_COUNT},     {"starter", 0, CAIRN_MAX_SEATS},
        {"branch", 0, SIM_REC_MAX_COUNT}};
    if (!v || v->type != CV_MAP) return -1;
    for (int i = 0; i < 7; i++)
        if (get_int_in(v, ints[i].key, ints[i].lo, ints[i].hi, &x[i])) return -1;
    r->index = (long)x[0], r->variant = (int)x[1], r->seed = (uint64_t)x[2], r->decisions = (long)x[3];
    r->rounds = (long)x[4], r->starter = (int)x[5], r->branch = (long)x[6];
    const value *ok = value_map_get(v, "ok");
    if (!ok || ok->type != CV_BOOL) return -1;
    r->ok = ok->u.b;
    int64_t found, leads;
    if (opt_int_in(v, "find", -1, 1, 0, &found) || opt_int_in(v, "leads", -1, SIM_REC_MAX_COUNT, -1, &leads))
        return -1;
    r->found = (int)found, r->leads = (long)leads;
    const value *fev = value_map_get(v, "find_error");
    if (fev && fev->type != CV_STR) return -1;
    const char *fe = fev ? fev->u.str.s : NULL;
    if (r->ok && fe && !(r->error = cairn_strdup(fe))) return -1;
    const value *cov = value_map_get(v, "cov");
    if (cov && cov->type != CV_LIST) return sim_rec_free(r), -1;
    for (size_t i = 0; cov && i < cov->u.list.n; i++) {
        const value *c = cov->u.list.items[i];
        if (c->type != CV_LIST || (c->u.list.n != 4 && c->u.list.n != 5) || c->u.list.items[0]->type != CV_STR)
            return sim_rec_free(r), -1;
        long counts[4] = {0, 0, 0, 0};
        for (size_t k = 1; k < c->u.list.n; k++)
            if (count_item(c->u.list.items[k], &counts[k - 1]) != 0) return sim_rec_free(r), -1;
        sim_cov *e = sim_cov_get(&r->cov, &r->n_cov, &r->cov_index, c->u.list.items[0]->u.str.s);
        if (!e) return sim_rec_free(r), -1;
        e->offered = counts[0], e->disabled = counts[1], e->taken = counts[2];
        if (c->u.list.n == 5) e->took = (unsigned long)counts[3]; /* the seats that took it, a bit each */
    }
    if (r->ok && sim_traj_from_value(v, r) != 0) return sim_rec_free(r), -1;
    const value *cpu = value_map_get(v, "cpu");
    if (cpu && cpu->type == CV_LIST && cpu->u.list.n && cpu->u.list.n <= CAIRN_MAX_SEATS) {
        if (!(r->cpu = calloc(cpu->u.list.n, sizeof *r->cpu))) return sim_rec_free(r), -1;
        r->n_cpu = (int)cpu->u.list.n;
        for (int i = 0; i < r->n_cpu; i++) {
            const value *c = cpu->u.list.items[i];
            if (c->type != CV_LIST || c->u.list.n != 2 || c->u.list.items[0]->type != CV_INT ||
                c->u.list.items[1]->type != CV_INT || c->u.list.items[0]->u.i < 0 || c->u.list.items[1]->u.i < 0)
                return sim_rec_free(r), -1;
            r->cpu[i].asked = (long)c->u.list.items[0]->u.i, r->cpu[i].ns = c->u.list.items[1]->u.i;
        }
    }
    if (!r->ok) {
        const value *ev = value_map_get(v, "error");
        if (ev && ev->type != CV_STR) return sim_rec_free(r), -1;
        return (r->error = cairn_strdup(ev ? ev->u.str.s : "?")) ? 0 : (sim_rec_free(r), -1);
    }
    const value *seats = value_map_get(v, "seats");
    if (!seats || seats->type != CV_LIST || !seats->u.list.n || seats->u.list.n > CAIRN_MAX_SEATS) return -1;
    if (!(r->seats = calloc(seats->u.list.n, sizeof *r->seats))) return -1;
    r->n = (int)seats->u.list.n;
    for (int i = 0; i < r->n; i++)
        if (seat_from_value(seats->u.list.items[i], &r->seats[i]) != 0) return sim_rec_free(r), -1;
    return 0;
}

int sim_rec_parse(const char *line, size_t len, sim_rec *r) {
    cerr_list errs;
    cerr_init(&errs, 0);
    value *v = yload_string("record", line, len, NULL, &errs);
    int rc = v ? sim_rec_from_value(v, r) : -1;
    value_free(v);
    cerr_free(&errs);
    return rc;
}
