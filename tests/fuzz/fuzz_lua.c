/*
** fuzz_lua.c
** libFuzzer harness for Lua inside the sandbox against a live game. The
** input's bytes drive a small grammar of Lua statements and expressions
** (locals, g.state, g.data, g.rng, g.log, the allowed libraries, tables,
** closures, pcall, metatables, loops), so almost every run compiles. The
** generated chunk becomes the body of a function the ruleset calls from
** apply (where g.state is writable) and from render (where it is not); the
** game is then played a little (fuzz_game.h): a decision whose apply
** fails must leave the state hash as it was.
** CAIRN_FUZZ_VERBOSE=1 prints each generated chunk.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_game.h"
#include "strbuf.h"

/* ------------------------------------------------------------ the bytes */
typedef struct gen {
    const uint8_t *p, *end;
    strbuf out;
    int depth;
} gen;

static unsigned byte(gen *g) { return g->p < g->end ? *g->p++ : 0; }
static unsigned pick(gen *g, unsigned n) { return byte(g) % n; }
static void put(gen *g, const char *s) { strbuf_puts(&g->out, s); }

static const char *const names[] = {"a", "b", "c", "t", "s"};
#define N_NAMES 5

static void expr(gen *g);
static void block(gen *g, int n);

static void name(gen *g) { put(g, names[pick(g, N_NAMES)]); }

/* something to read or write: a local, a state field, a table slot */
static void place(gen *g) {
    switch (pick(g, 6)) {
    case 0: case 1: name(g); break;
    case 2: put(g, "g.state."); name(g); break;
    case 3: put(g, "t["); expr(g); put(g, "]"); break;
    case 4: put(g, "g.state.t["); expr(g); put(g, "]"); break;
    default: put(g, "g.state.n"); break;
    }
}

static const char *const literals[] = {
    "0", "1", "-1", "2", "3", "7", "255", "1e308", "-0.0", "0/0", "math.huge", "math.maxinteger",
    "math.mininteger", "0x7fffffffffffffff", "''", "'x'", "'drop 1'", "'%d'", "'%s %s'",
    "'\\0'", "'\\xff\\xfe'", "'a.b'", "nil", "true", "false", "{}", "{1, 2, 3}",
    "{x = 1, y = {2}}", "{[1] = 'a', [3] = 'c'}", "'\\u{2028}'", "id", "seat", "#g.seats",
};
#define N_LITERALS (sizeof literals / sizeof literals[0])

static const char *const binops[] = {
    " + ", " - ", " * ", " / ", " // ", " % ", " ^ ", " .. ", " == ", " ~= ", " < ", " <= ",
    " > ", " >= ", " and ", " or ", " & ", " | ", " ~ ", " << ", " >> ",
};
#define N_BINOPS (sizeof binops / sizeof binops[0])

/* calls that reach the engine or the libraries, with 0-3 argument expressions */
static const char *const calls[] = {
    "g.text", "g.log_text", "g.log", "g.rng.int", "g.rng.die", "g.rng.shuffle", "g.rng.pick",
    "g.rng.weighted", "tostring", "tonumber", "type", "select", "rawequal", "rawlen", "rawget",
    "rawset", "next", "pairs", "ipairs", "setmetatable", "getmetatable", "pcall", "error",
    "assert", "print", "string.rep", "string.format", "string.sub", "string.byte", "string.char",
    "string.find", "string.match", "string.gsub", "string.upper", "string.len", "string.pack",
    "string.unpack", "table.concat", "table.insert", "table.remove", "table.sort", "table.unpack",
    "table.move", "table.pack", "math.floor", "math.max", "math.min", "math.tointeger",
    "math.abs", "math.fmod", "utf8.char", "load", "require", "coroutine.wrap",
    "coroutine.resume", "coroutine.yield", "xpcall",
};
#define N_CALLS (sizeof calls / sizeof calls[0])

static void call(gen *g) {
    put(g, calls[pick(g, N_CALLS)]);
    put(g, "(");
    unsigned n = pick(g, 4);
    for (unsigned i = 0; i < n; i++) {
        if (i) put(g, ", ");
        expr(g);
    }
    put(g, ")");
}

static void function(gen *g) {
    put(g, "function(a, b) ");
    block(g, 1 + (int)pick(g, 3));
    put(g, " return ");
    expr(g);
    put(g, " end");
}

static void expr(gen *g) {
    if (++g->depth > 6) {
        put(g, literals[pick(g, N_LITERALS)]);
        g->depth--;
        return;
    }
    switch (pick(g, 12)) {
    case 0: case 1: put(g, literals[pick(g, N_LITERALS)]); break;
    case 2: place(g); break;
    case 3: put(g, "("); expr(g); put(g, binops[pick(g, N_BINOPS)]); expr(g); put(g, ")"); break;
    case 4: /* "- " with its space: "--" would start a comment */
        put(g, "(");
        put(g, pick(g, 3) == 0 ? "not " : pick(g, 2) ? "#" : "- ");
        expr(g);
        put(g, ")");
        break;
    case 5: case 6: call(g); break;
    case 7: put(g, "{"); expr(g); put(g, ", k = "); expr(g); put(g, "}"); break;
    case 8: put(g, "("); function(g); put(g, ")"); break;
    case 9: put(g, pick(g, 2) ? "g.data.d." : "g.options."); name(g); break;
    case 10: put(g, "g.seats["); expr(g); put(g, "]"); break;
    default: put(g, "g."); put(g, pick(g, 2) ? "labels" : "lang"); break;
    }
    g->depth--;
}

static void stmt(gen *g) {
    if (++g->depth > 5) {
        place(g);
        put(g, " = ");
        put(g, literals[pick(g, N_LITERALS)]);
        put(g, "\n");
        g->depth--;
        return;
    }
    switch (pick(g, 11)) {
    case 0: case 1: case 2: place(g); put(g, " = "); expr(g); break;
    case 3: call(g); break;
    case 4: put(g, "if "); expr(g); put(g, " then "); block(g, 2); put(g, " else "); block(g, 1); put(g, " end"); break;
    case 5: {
        char lim[16];
        snprintf(lim, sizeof lim, "%u", pick(g, 40));
        put(g, "for i = 1, ");
        put(g, lim);
        put(g, " do ");
        block(g, 2);
        put(g, " end");
        break;
    }
    case 6: put(g, "for k, v in pairs("); expr(g); put(g, ") do "); block(g, 2); put(g, " end"); break;
    case 7: put(g, "local ok, err = pcall(function() "); block(g, 2); put(g, " end)"); break;
    case 8: put(g, "while "); expr(g); put(g, " do "); block(g, 1); put(g, " break end"); break;
    case 9: put(g, "setmetatable(t, {__index = "); expr(g); put(g, ", __newindex = "); expr(g); put(g, "})"); break;
    default: put(g, "do local "); name(g); put(g, " = "); expr(g); put(g, " end"); break;
    }
    put(g, "\n");
    g->depth--;
}

static void block(gen *g, int n) {
    for (int i = 0; i < n && g->p < g->end; i++) stmt(g);
    if (g->p >= g->end) put(g, "\n");
}

/* ------------------------------------------------------------ the game */
static const char manifest[] =
    "id: luafuzz\nname: Lua fuzz\nversion: \"1\"\nplayers: {min: 2, max: 2}\n"
    "languages: [en]\nrules: rules.lua\ndata:\n  d: data.yaml\ntext:\n  en: text.yaml\n"
    "options:\n  - {id: a, name: A, type: switch, default: true}\n"
    "visibility:\n  - {path: secret, policy: owner}\n";
static const char data_file[] = "a: 1\nb: [1, 2, 3]\nc: {x: \"y\"}\nt: \"text\"\ns: [\"drop 1\", \"\"]\n";
static const char text_file[] = "hello: \"hello %s\"\nn: \"%d items\"\nplain: plain\n";

/* rules.lua: the snippet is `fuzzed`, called by apply and by render */
static const char rules_head[] =
    "local rules = {}\n"
    "local function fuzzed(g, seat, id, a, b, c, t, s)\n";
static const char rules_tail[] =
    "\nend\n"
    "function rules.setup(g)\n"
    "  g.state.turn, g.state.n, g.state.t, g.state.s = 1, 0, {1, 2, 'x'}, 'start'\n"
    "  g.state.secret = {{1}, {2}}\n"
    "end\n"
    "function rules.decisions(g)\n"
    "  if g.state.n >= 5 then return {} end\n"
    "  return {{seat = g.state.turn, options = {'a', 'b', {id = 'c', disabled = g.state.n % 2 == 1}}}}\n"
    "end\n"
    "function rules.apply(g, seat, id)\n"
    "  g.state.turn = 3 - seat\n"
    "  g.state.n = (tonumber(g.state.n) or 0) + 1\n"
    "  fuzzed(g, seat, id, 1, 'b', nil, {}, g.state.s)\n"
    "end\n"
    "function rules.score(g)\n"
    "  return {{total = 1}, {total = 2}}\n"
    "end\n"
    "function rules.render(view, seat, g)\n"
    "  local ok, r = pcall(fuzzed, g, seat, 'render', view, seat, nil, {}, '')\n"
    "  return tostring(view.n)\n"
    "end\n"
    "return rules\n";

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    fuzz_make_dir("lua");
    fuzz_write("ruleset.yaml", manifest, strlen(manifest));
    fuzz_write("data.yaml", data_file, strlen(data_file));
    fuzz_write("text.yaml", text_file, strlen(text_file));
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    gen g = {data, data + size, {0}, 0};
    put(&g, rules_head);
    /* the first bytes pick the moves; the rest is the program */
    size_t n_pick = size < 8 ? size : 8;
    g.p += n_pick;
    block(&g, 64);
    put(&g, rules_tail);
    if (g.out.oom) {
        strbuf_free(&g.out);
        return 0;
    }
    if (getenv("CAIRN_FUZZ_VERBOSE")) fputs(strbuf_str(&g.out), stderr);
    fuzz_write("rules.lua", g.out.s, g.out.n);
    strbuf_free(&g.out);

    cerr_list errs;
    cerr_init(&errs, 0);
    engine_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.ruleset = fuzz_dir;
    cfg.checks = 1;
    cfg.seed = 7;
    cfg.budget = 200000;
    cfg.mem_cap = 16u << 20;
    engine *e = engine_new(&cfg, &errs);
    if (!e) fuzz_fail("fuzz_lua", "the Lua fuzz ruleset does not start", &errs);
    fuzz_play("fuzz_lua", e, data, n_pick, 8);
    engine_free(e);
    cerr_free(&errs);
    return 0;
}
