/*
** repl_hard_stop.c
** A console command survives the hard stop. Each command runs under the
** sandbox's escape (sandbox_set_escape): when one of its rules calls runs
** in C past its CPU deadline and CAIRN_LUA_HARD_STOP_GRACE_MS (a huge
** string.rep, a sort comparing long strings), the call is left by a jump
** back here. Nothing the command touched may run or be freed again (the
** stopped Lua state may be in the middle of a rehash): the game's engine
** and the seats' bots are kept aside, and the game is made again from its
** log up to where it stood before the command (engine_rebuild: the log
** replays exactly). The console says which rule line overran; history,
** state and the redo tail are as before the command.
*/
#include "repl_session.h"

#include "bot.h"
#include "engine.h"
#include "error.h"
#include "limits.h"
#include "limits_env.h"
#include "sandbox.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What a hard stop left, kept reachable until cairn ends and never freed.
** Global on purpose: the console's own struct is gone when the process
** exits, and what is kept here must not look lost to a leak checker then;
** at most CAIRN_REPL_HARD_STOPS_KEPT, one process's console. */
typedef struct lost_game {
    engine *e;
    bot **brain;
    sandbox *sb;
    size_t *seen, *seen_pos;
    char **bot_kinds;
} lost_game;
static lost_game kept[CAIRN_REPL_HARD_STOPS_KEPT];
static size_t n_kept;

/* CAIRN_REPL_HARD_STOPS_KEPT, or less as the environment says. */
static size_t kept_max(void) {
    long n = limits_env_count("CAIRN_REPL_HARD_STOPS_KEPT", CAIRN_REPL_HARD_STOPS_KEPT);
    return n < CAIRN_REPL_HARD_STOPS_KEPT ? (size_t)n : CAIRN_REPL_HARD_STOPS_KEPT;
}

/* After the jump: the game made again at decision pos of the engine left
** (or where the engine stands, when the command had replaced it). */
static void recover(repl *r, engine *before, size_t pos) {
    r->guarded = 0;
    if (r->page_mem) repl_page_end(r); /* what was kept for the pager is shown */
    cerr_list errs;
    cerr_init(&errs, 0);
    sandbox *sb = sandbox_escaped(&errs);
    char *msg = errs.n ? repl_error_text(r, &errs.items[0]) : NULL;
    cerr_free(&errs);
    engine *lost = r->e;
    size_t at = lost == before ? pos : engine_position(lost);
    int viewer = r->viewer, dirty = r->dirty, n = r->n_seats;
    kept[n_kept++] = (lost_game){lost, (bot **)r->brain, sb, r->seen, r->seen_pos, r->bot};
    /* the old seen counts are copied below; the arrays stay with what is kept */
    size_t *seen = calloc((size_t)n + 1, sizeof *seen), *seen_pos = calloc((size_t)n + 1, sizeof *seen_pos);
    if (seen && seen_pos) {
        memcpy(seen, r->seen, ((size_t)n + 1) * sizeof *seen);
        memcpy(seen_pos, r->seen_pos, ((size_t)n + 1) * sizeof *seen_pos);
    }
    r->brain = NULL;
    r->e = NULL; /* never freed: adopting the new game must not free it */
    r->seen = r->seen_pos = NULL;
    r->bot = NULL;
    repl_fail(r, "%s", msg ? msg : repl_tr(r, "hardstop.stopped"));
    free(msg);
    engine_reload_report rep = {0};
    cerr_list rerrs;
    cerr_init(&rerrs, 0);
    engine *made = engine_rebuild(lost, at, &rep, &rerrs);
    if (!made || repl_adopt_engine(r, made) != 0) {
        char *why = rerrs.n ? repl_error_text(r, &rerrs.items[0]) : NULL;
        fprintf(stderr, "cairn: the game could not be made again after the hard stop: %s; cairn ends here\n",
                why ? why : repl_tr(r, "error.oom"));
        fflush(NULL);
        _Exit(1); /* nothing of the game is left to run the session on */
    }
    cerr_free(&rerrs);
    r->viewer = viewer;
    r->dirty = dirty;
    if (seen && seen_pos && r->n_seats == n) {
        memcpy(r->seen, seen, ((size_t)n + 1) * sizeof *seen);
        memcpy(r->seen_pos, seen_pos, ((size_t)n + 1) * sizeof *seen_pos);
    }
    free(seen);
    free(seen_pos);
    r->changed = 0; /* the screen as it was: `board`, `state` and `history` show it */
    if (rep.stopped)
        repl_fail(r, repl_tr(r, "hardstop.remade_stopped"), rep.replayed, rep.total, rep.reason ? rep.reason : "?");
    else
        repl_plain(r, repl_tr(r, "hardstop.remade"), rep.replayed, n_kept, (int)kept_max());
    engine_reload_report_free(&rep);
}

int repl_guarded(repl *r, int (*fn)(repl *r, void *arg), void *arg) {
    /* nested, or no room to keep another stopped game: the hard stop ends cairn */
    if (r->guarded || n_kept >= kept_max() || !r->e) return fn(r, arg);
    sigjmp_buf jb;
    engine *volatile before = r->e;
    volatile size_t pos = engine_position(r->e);
    if (sigsetjmp(jb, 1) == 0) {
        r->guarded = 1;
        sandbox_set_escape(&jb);
        int rc = fn(r, arg);
        sandbox_set_escape(NULL);
        r->guarded = 0;
        return rc;
    }
    recover(r, before, pos);
    return -1;
}

void repl_hard_stop_end(int status) {
    if (!n_kept) return;
    /* What a stopped command held lies in frames the jump left (an option
    ** id, a decision's scratch) and in the games kept aside: memory this
    ** process can never free. It ends as the hard stop itself used to, with
    ** no exit handler walking the heap (a leak checker would list those
    ** frames' blocks). */
    fflush(NULL);
    _exit(status);
}
