/*
** sim_record.c
** A game's record for `cairn sim`: one line of JSON, written by the process
** that played the game and read back by the one that counts it (a worker's
** pipe, a shard's part). Integers and strings only, so nothing is lost.
*/
#include "sim_internal.h"
#include "error.h"
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
    free(r->cpu);
    sim_traj_free(r->traj);
    memset(r, 0, sizeof *r);
}

sim_cov *sim_cov_get(sim_cov **cov, size_t *n, const char *id) {
    size_t len = strcspn(id, "0123456789"); /* numbers are a rule's parameters */
    while (len && id[len - 1] == ' ') len--;
    if (!len) len = strlen(id);
    for (size_t i = 0; i < *n; i++)
        if (strlen((*cov)[i].prefix) == len && !strncmp((*cov)[i].prefix, id, len)) return &(*cov)[i];
    sim_cov *nc = realloc(*cov, (*n + 1) * sizeof *nc);
    if (!nc) return NULL;
    *cov = nc;
    sim_cov *c = &nc[*n];
    memset(c, 0, sizeof *c);
    if (!(c->prefix = malloc(len + 1))) return NULL;
    memcpy(c->prefix, id, len);
    c->prefix[len] = '\0';
    (*n)++;
    return c;
}

void sim_json_string(FILE *f, const char *s) {
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(f, "\\%c", *p);
        else if (*p == '\n') fputs("\\n", f);
        else if (*p < 0x20) fprintf(f, "\\u%04x", *p);
        else fputc(*p, f);
    }
    fputc('"', f);
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
        sim_json_string(f, r->error);
    }
    if (!r->ok) {
        fputs(", \"error\": ", f);
        sim_json_string(f, r->error);
    } else {
        fputs(", \"seats\": [", f);
        for (int i = 0; i < r->n; i++) {
            const sim_seatrec *s = &r->seats[i];
            fprintf(f, "%s{\"total\": %" PRId64 ", \"rank\": %d, \"items\": [", i ? ", " : "", s->total, s->rank);
            for (size_t j = 0; j < s->n_items; j++) {
                fputs(j ? ", [" : "[", f);
                sim_json_string(f, s->items[j].key);
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
            sim_json_string(f, r->cov[i].prefix);
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

static int seat_from_value(const value *v, sim_seatrec *s) {
    int64_t x;
    const value *items = v->type == CV_MAP ? value_map_get(v, "items") : NULL;
    if (!items || items->type != CV_LIST || get_int(v, "total", &s->total) || get_int(v, "rank", &x)) return -1;
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
    static const char *const keys[] = {"index", "variant", "seed", "decisions", "rounds", "starter", "branch"};
    if (!v || v->type != CV_MAP) return -1;
    for (int i = 0; i < 7; i++)
        if (get_int(v, keys[i], &x[i])) return -1;
    r->index = (long)x[0], r->variant = (int)x[1], r->seed = (uint64_t)x[2], r->decisions = (long)x[3];
    r->rounds = (long)x[4], r->starter = (int)x[5], r->branch = (long)x[6];
    r->ok = value_get_bool(v, "ok", 0);
    r->found = (int)value_get_int(v, "find", 0);
    r->leads = (long)value_get_int(v, "leads", -1);
    const char *fe = value_get_str(v, "find_error", NULL);
    if (r->ok && fe && !(r->error = cairn_strdup(fe))) return -1;
    const value *cov = value_map_get(v, "cov");
    for (size_t i = 0; cov && cov->type == CV_LIST && i < cov->u.list.n; i++) {
        const value *c = cov->u.list.items[i];
        if (c->type != CV_LIST || (c->u.list.n != 4 && c->u.list.n != 5) || c->u.list.items[0]->type != CV_STR)
            return sim_rec_free(r), -1;
        sim_cov *e = sim_cov_get(&r->cov, &r->n_cov, c->u.list.items[0]->u.str.s);
        if (!e) return sim_rec_free(r), -1;
        e->offered = (long)c->u.list.items[1]->u.i, e->disabled = (long)c->u.list.items[2]->u.i;
        e->taken = (long)c->u.list.items[3]->u.i;
        if (c->u.list.n == 5) e->took = (unsigned long)c->u.list.items[4]->u.i; /* the seats that took it */
    }
    if (r->ok && sim_traj_from_value(v, r) != 0) return sim_rec_free(r), -1;
    const value *cpu = value_map_get(v, "cpu");
    if (cpu && cpu->type == CV_LIST && cpu->u.list.n && cpu->u.list.n <= CAIRN_MAX_SEATS) {
        if (!(r->cpu = calloc(cpu->u.list.n, sizeof *r->cpu))) return sim_rec_free(r), -1;
        r->n_cpu = (int)cpu->u.list.n;
        for (int i = 0; i < r->n_cpu; i++) {
            const value *c = cpu->u.list.items[i];
            if (c->type != CV_LIST || c->u.list.n != 2 || c->u.list.items[0]->type != CV_INT ||
                c->u.list.items[1]->type != CV_INT)
                return sim_rec_free(r), -1;
            r->cpu[i].asked = (long)c->u.list.items[0]->u.i, r->cpu[i].ns = c->u.list.items[1]->u.i;
        }
    }
    if (!r->ok) {
        const char *e = value_get_str(v, "error", "?");
        return (r->error = cairn_strdup(e)) ? 0 : -1;
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
