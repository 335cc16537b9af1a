/*
** engine_debug_channel.c
** What a modder reads while debugging rules, beside the game: the lines of
** g.debug(...) and print(...) ("debug rules.lua:12: text") and the trace of
** handler calls ("trace apply 0.21 ms: players[1].food"). Neither is ever
** an event, a log entry, part of a save or of a golden file: the engine
** hands each line to the callback its embedder set (the REPL, cairn check,
** cairn test) and drops it when none is set, before converting anything.
** Nothing is said while the log is replayed (e->quiet), so undo, load and
** reload do not repeat old lines.
*/
#include "engine_internal.h"
#include "limits.h"
#include "statepath.h"
#include "strbuf.h"

#include <stdlib.h>
#include <string.h>

/* Paths a trace line names before "and N more". */
#define TRACE_MAX_PATHS 8

/* An apply being traced: the state before it, its own time, and the lines
** of the calls it made (decisions, check) to say after its own. */
typedef struct trace_hold {
    value *before;
    uint64_t apply_ns;
    int is_edit;
    strbuf lines;
} trace_hold;

void engine_set_debug(engine *e, engine_line_fn fn, void *ud) {
    e->debug_fn = fn;
    e->debug_ud = ud;
}

void engine_set_trace(engine *e, engine_line_fn fn, void *ud) {
    e->trace_fn = fn;
    e->trace_ud = ud;
}

/* Past the call's volume nobody listens: print's arguments are then not
** even converted (a 16 MB string printed in a loop costs nothing more). */
int debug_channel_wanted(const engine *e) {
    return e->debug_fn != NULL && e->quiet == 0 && !e->debug_dropped;
}

void debug_channel_new_call(engine *e) {
    e->debug_used = 0;
    e->debug_dropped = 0;
}

/* where without the ruleset's own folder: "rules.lua:12", as the modder
** names the file inside it. Scripts are named "<folder's name>/rules.lua"
** (engine.c's script_shown), modules "<folder>/<module>.lua"; a parent's
** or the stdlib's keep their path. */
static const char *strip_dir(const char *where, const char *dir, size_t n) {
    while (n > 1 && dir[n - 1] == '/') n--;
    return n && strncmp(where, dir, n) == 0 && where[n] == '/' ? where + n + 1 : NULL;
}

static const char *relative(const engine *e, const char *where) {
    const ruleset *rs = e->rt.rules ? e->rt.rules->rs : NULL;
    if (!rs || rs->n_module_dirs == 0) return where;
    while (where[0] == '.' && where[1] == '/') where += 2;
    const char *dir = rs->module_dirs[0];
    while (dir[0] == '.' && dir[1] == '/') dir += 2;
    const char *s = strip_dir(where, dir, strlen(dir));
    if (s) return s;
    size_t n = strlen(rs->dir);
    while (n > 1 && rs->dir[n - 1] == '/') n--;
    size_t b = n;
    while (b > 0 && rs->dir[b - 1] != '/') b--;
    s = strip_dir(where, rs->dir + b, n - b);
    return s ? s : where;
}

void debug_channel_print(engine *e, const char *where, const char *text) {
    if (!debug_channel_wanted(e)) return;
    const char *w = relative(e, where ? where : "?");
    size_t n = text ? strlen(text) : 0, room = (size_t)CAIRN_DEBUG_MAX_BYTES - e->debug_used;
    char *line;
    if (n <= room) {
        line = cairn_strfmt("debug %s: %s", w, text ? text : "");
        e->debug_used += n;
    } else { /* the call's volume is used up: this line cut, the rest dropped */
        line = cairn_strfmt("debug %s: %.*s... (%zu bytes more; debug output past %ld bytes in one "
                            "call is dropped, limit CAIRN_DEBUG_MAX_BYTES)", w, (int)room, text, n - room,
                            (long)CAIRN_DEBUG_MAX_BYTES);
        e->debug_used = (size_t)CAIRN_DEBUG_MAX_BYTES;
        e->debug_dropped = 1;
    }
    if (line) e->debug_fn(e->debug_ud, line);
    free(line);
}

static void say_trace(engine *e, const char *line) { e->trace_fn(e->trace_ud, line); }

void trace_call(engine *e, handler_id h, uint64_t ns) {
    /* what only draws the screen (the board, labels, prompts, reasons) runs
    ** on every command typed: it would bury the rules' own calls */
    if (!trace_on(e) || h == H_RENDER || h == H_LABEL || h == H_PROMPT || h == H_REASON) return;
    trace_hold *t = e->trace_hold;
    if (t && h == H_APPLY) {
        t->apply_ns += ns;
        return;
    }
    const char *name = h == H_EDIT ? "edit" : engine_handler_names[h];
    if (t) {
        strbuf_printf(&t->lines, "trace %s %.2f ms\n", name, (double)ns / 1e6);
        return;
    }
    char *line = cairn_strfmt("trace %s %.2f ms", name, (double)ns / 1e6);
    if (line) say_trace(e, line);
    free(line);
}

void trace_begin(engine *e) {
    if (!trace_on(e) || e->trace_hold) return;
    trace_hold *t = calloc(1, sizeof *t);
    if (!t) return; /* no trace of this one: nothing else depends on it */
    const value *st = engine_state(e);
    t->before = st ? value_clone(st) : NULL;
    e->trace_hold = t;
}

void trace_end(engine *e, int ok) {
    trace_hold *t = e->trace_hold;
    if (!t) return;
    e->trace_hold = NULL;
    strbuf b = {0};
    strbuf_printf(&b, "trace %s %.2f ms", t->is_edit ? "edit" : "apply", (double)t->apply_ns / 1e6);
    if (!ok) {
        strbuf_puts(&b, " (failed: nothing changed)");
    } else {
        const value *after = engine_state(e);
        strbuf paths = {0};
        long n = t->before && after ? statepath_diff(t->before, after, TRACE_MAX_PATHS, &paths) : -1;
        if (n > 0) strbuf_printf(&b, ": %s", strbuf_str(&paths));
        else if (n == 0) strbuf_puts(&b, ": no state changed");
        strbuf_free(&paths);
    }
    if (!b.oom && e->trace_fn) {
        say_trace(e, strbuf_str(&b));
        /* the calls apply made afterwards (decisions asked anew, check) */
        char *rest = t->lines.s;
        for (char *nl; rest && *rest && (nl = strchr(rest, '\n')); rest = nl + 1) {
            *nl = '\0';
            say_trace(e, rest);
        }
    }
    strbuf_free(&b);
    strbuf_free(&t->lines);
    value_free(t->before);
    free(t);
}

/* engine_edit.c's mark: the apply being traced is an edit. */
void trace_mark_edit(engine *e, uint64_t ns) {
    if (e->trace_hold) {
        e->trace_hold->is_edit = 1;
        e->trace_hold->apply_ns += ns;
    }
}
