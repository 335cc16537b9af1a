/*
** bot_mcts_root.c
** An mcts or ismcts decision as several searches whose roots are merged
** (root parallelisation, Chaslot, Winands & van den Herik 2008): an
** iteration budget is split into a fixed number of searches
** (`searches=`, CAIRN_BOT_SEARCHES), each with a stream of its own, and
** their root statistics are summed per option in search order, so the
** choice and the statistics are the same whether the searches run on one
** core or several (bot_parallel.c). A time budget runs one search per
** process until the shared deadline. The best mean among the options
** visited at least half as often as the most visited wins (robust_choice).
*/
#include "bot_internal.h"
#include "cpus.h"
#include "grow.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Options shown by `why`. */
#define MCTS_WHY_TOP BOT_WHY_ROWS

/* What the searches' streams are derived from beside the decision's seed:
** "share". Search 0 uses the decision's stream itself. */
#define SHARE_STREAM_TAG 0x7368617265ull

/* The arm of r named id, or NULL. */
static mcts_arm_total *arm_of(const mcts_root *r, const char *id) {
    for (size_t i = 0; id && i < r->n; i++)
        if (!strcmp(r->arms[i].id, id)) return &r->arms[i];
    return NULL;
}

int mcts_root_add(mcts_root *r, const char *id, uint64_t n, uint64_t avail, double w) {
    mcts_arm_total *had = arm_of(r, id);
    if (had) {
        had->n += n, had->avail += avail, had->w += w;
        return 0;
    }
    if (grow_array((void **)&r->arms, &r->cap, r->n + 1, sizeof *r->arms) != 0) return -1;
    mcts_arm_total *a = &r->arms[r->n];
    if (!(a->id = cairn_strdup(id))) return -1;
    a->n = n, a->avail = avail, a->w = w;
    r->n++;
    return 0;
}

int mcts_root_merge(mcts_root *into, const mcts_root *from) {
    for (size_t i = 0; i < from->n; i++) {
        const mcts_arm_total *a = &from->arms[i];
        if (mcts_root_add(into, a->id, a->n, a->avail, a->w) != 0) return -1;
    }
    into->iterations += from->iterations;
    into->samples += from->samples;
    into->checked += from->checked;
    into->stopped |= from->stopped;
    return 0;
}

void mcts_root_free(mcts_root *r) {
    for (size_t i = 0; i < r->n; i++) free(r->arms[i].id);
    free(r->arms);
    memset(r, 0, sizeof *r);
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The stream of search i of a decision whose stream is base. */
static uint64_t share_stream(uint64_t base, size_t i) {
    if (i == 0) return base;
    rng r;
    rng_seed_stream(&r, base ^ SHARE_STREAM_TAG, (uint64_t)i);
    return rng_next(&r) | 1;
}

/* The searches of b's decision into shares (at most CAIRN_BOT_MAX_SEARCHES);
** how many. An iteration budget: b->searches of them (fewer when there are
** fewer iterations), the iterations dealt out, the first ones one more; a
** time budget: one per process, all to the same deadline. */
static size_t plan(const bot *b, uint64_t base, int cores, double start, mcts_share *shares) {
    long n = b->time > 0 ? cores : b->searches;
    if (b->iterations > 0 && n > b->iterations) n = b->iterations;
    if (n > CAIRN_BOT_MAX_SEARCHES) n = CAIRN_BOT_MAX_SEARCHES;
    if (n < 1) n = 1;
    for (long i = 0; i < n; i++) {
        mcts_share *s = &shares[i];
        s->stream = share_stream(base, (size_t)i);
        s->iterations = b->iterations > 0 ? b->iterations / n + (i < b->iterations % n) : 0;
        s->start = start;
        s->deadline = b->time > 0 ? start + b->time : 0;
        s->counted = 0;
        /* the samples checked against the view: the decision's first
        ** CAIRN_BOT_CHECKED_SAMPLES in all, dealt out as the iterations are */
        s->checked = CAIRN_BOT_CHECKED_SAMPLES / n + (i < CAIRN_BOT_CHECKED_SAMPLES % n);
    }
    return (size_t)n;
}

/* The explanation: budget, then the root's options for seat, most visited
** first. */
static char *explain(bot *b, const mcts_root *root, size_t searches, int procs, double secs, int sampled,
                     const char *chosen) {
    strbuf w = {0};
    bot_reasons_start(b, BOT_WHY_SEARCH);
    b->reasons.iterations = root->iterations;
    b->reasons.depth = b->depth > 0 ? b->depth : (long)CAIRN_TEST_MAX_DECISIONS;
    b->reasons.depth_is_limit = b->depth <= 0;
    b->reasons.seconds = secs;
    b->reasons.sampled = sampled;
    b->reasons.samples = root->samples;
    b->reasons.checked = root->checked;
    b->reasons.pooled = sampled && b->pool > 0;
    b->reasons.stopped = root->stopped;
    b->reasons.timed = b->time > 0;
    strbuf_printf(&w, "%s: %ld iterations, rollouts of %s%ld decisions, in %.2f s", b->spec, root->iterations,
                  b->depth > 0 ? "" : "up to ", b->depth > 0 ? b->depth : (long)CAIRN_TEST_MAX_DECISIONS, secs);
    if (sampled && b->pool > 0)
        strbuf_printf(&w, " (on %ld state%s sampled from this seat's view, reused in turn)", root->samples,
                      root->samples == 1 ? "" : "s");
    else if (sampled)
        strbuf_printf(&w, " (each on a state sampled from this seat's view)");
    strbuf_printf(&w, "%s", root->stopped ? ", stopped early (Ctrl-C)" : "");
    if (searches > 1) strbuf_printf(&w, "; %zu searches merged, on %d core%s", searches, procs, procs == 1 ? "" : "s");
    if (b->time > 0) strbuf_printf(&w, "; a time budget, so another run may choose otherwise");
    strbuf_printf(&w, "\n  %-20s %8s %8s\n", "option", "visits", "value");
    size_t n = root->n;
    unsigned char *shown = calloc(n + 1, 1);
    for (int row = 0; shown && row < MCTS_WHY_TOP; row++) {
        long top = -1;
        for (size_t i = 0; i < n; i++)
            if (!shown[i] && (top < 0 || root->arms[i].n > root->arms[top].n)) top = (long)i;
        if (top < 0) break;
        shown[top] = 1;
        const mcts_arm_total *a = &root->arms[top];
        strbuf_printf(&w, "  %-20s %8llu %7.1f%%%s\n", a->id, (unsigned long long)a->n,
                      a->n ? 100.0 * a->w / (double)a->n : 0.0, chosen && !strcmp(a->id, chosen) ? "  <- chosen" : "");
        bot_reasons_row(b, a->id, a->n ? 100.0 * a->w / (double)a->n : 0.0, (unsigned)a->n, chosen && !strcmp(a->id, chosen));
    }
    if (n > MCTS_WHY_TOP) b->reasons.options = n - MCTS_WHY_TOP;
    if (n > MCTS_WHY_TOP) strbuf_printf(&w, "  (%zu more options)\n", n - MCTS_WHY_TOP);
    free(shown);
    return strbuf_take(&w);
}

/* The seat's real options (it sees its own): the best mean among those
** visited at least half as often as the most visited ("max-robust"); ties:
** more visits, then the first offered. Borrowed from root, or NULL.
** Why not simply the most visited: merged searches too small to try every
** option (10 iterations split in 4 over a dozen options) visit each once
** or twice, and which were tried twice is the luck of the expansion order,
** not their value; with one visit each this is the best mean, as a single
** tree's choice is, and with a real budget the most visited arm is among
** the few this leaves. */
static const char *robust_choice(engine *e, int seat, const mcts_root *root) {
    size_t n = engine_bot_option_count(e, seat);
    uint64_t most = 0;
    for (size_t k = 0; k < n; k++) {
        const mcts_arm_total *a = arm_of(root, engine_bot_option_id(e, seat, k));
        if (a && a->n > most) most = a->n;
    }
    const mcts_arm_total *best = NULL;
    for (size_t k = 0; most && k < n; k++) {
        const mcts_arm_total *a = arm_of(root, engine_bot_option_id(e, seat, k));
        if (!a || 2 * a->n < most) continue;
        double mean = a->w / (double)a->n;
        if (!best || mean > best->w / (double)best->n || (mean == best->w / (double)best->n && a->n > best->n))
            best = a;
    }
    return best ? best->id : NULL;
}

char *bot_mcts_choose(bot *b, engine *e, int seat, const bot_hooks *hooks, cerr_list *errs) {
    bot_settle_defaults(b, e);
    uint64_t base = bot_stream_seed(e, seat, 0x6d63747331ull); /* "mcts1" */
    double start = now_seconds();
    int cores = bot_cores_of(b);
    mcts_share shares[CAIRN_BOT_MAX_SEARCHES];
    size_t n = plan(b, base, cores, start, shares);
    int procs = cores < (int)n ? cores : (int)n;
    /* a worker costs a fork and the pages it copies (10-40 ms of CPU):
    ** not worth it for a search this bot did in less than a blink last
    ** time. The processes never change the choice, only the wait. */
    if (b->time == 0 && b->iter_ns > 0 && (double)b->iterations * b->iter_ns < CAIRN_BOT_PARALLEL_MIN_MS * 1e6)
        procs = 1;
    mcts_root roots[CAIRN_BOT_MAX_SEARCHES], total;
    memset(roots, 0, sizeof roots);
    memset(&total, 0, sizeof total);
    int bad = bot_parallel_run(b, e, seat, shares, n, procs, hooks, roots, errs) != 0;
    /* in search order, whatever the processes: the same sums on any core count */
    for (size_t i = 0; !bad && i < n; i++)
        if (mcts_root_merge(&total, &roots[i]) != 0) bad = 1, errs->oom = 1;
    char *pick = NULL;
    if (!bad) {
        const char *best = robust_choice(e, seat, &total);
        /* no iteration reached a choice: the random bot's */
        pick = best ? cairn_strdup(best) : engine_bot_choice(e, seat);
        if (!pick) errs->oom = 1;
        bot_set_why(b, explain(b, &total, n, procs, now_seconds() - start, engine_has_secrets(e), best));
    }
    for (size_t i = 0; i < n; i++) mcts_root_free(&roots[i]);
    mcts_root_free(&total);
    return pick;
}
