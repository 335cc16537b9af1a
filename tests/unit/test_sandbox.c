/*
** test_sandbox.c
** The sandbox: what scripts cannot reach, the budget and the memory cap that
** no pcall or coroutine can swallow, read-only tables, deterministic pairs,
** require's search path, and error messages with file:line.
*/
#include "testutil.h"

#include "limits.h"
#include "sandbox.h"

#include <lauxlib.h>
#include <lualib.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <time.h>

#define RULESET "tests/fixtures/lua/ruleset"
#define PARENT "tests/fixtures/lua/parent"
#define STDLIB "tests/fixtures/lua/stdlib"
#define CHUNK "rulesets/t/rules.lua"

#define SMALL_BUDGET 1000000L
#define SMALL_CAP (4u * 1024 * 1024)

typedef struct fx {
    sandbox *sb;
    lua_State *L;
    cerr_list errs;
    char log[4096];
    char err[1024];
} fx;

static int log_print(void *ud, const char *where, const char *text) {
    fx *f = ud;
    if (!text) return 1; /* always listening */
    size_t n = strlen(f->log);
    snprintf(f->log + n, sizeof f->log - n, "%s: %s\n", where, text);
    return 1;
}

/* Check mode's `#` (sandbox_len.c) in the sandboxes setup_strict makes. */
static int strict_len_next;

static sandbox *make(fx *f, size_t cap, long budget) {
    static const char *const dirs[] = {RULESET, PARENT};
    sandbox_config c;
    sandbox_default_config(&c);
    c.mem_cap = cap;
    c.instr_budget = budget;
    c.module_dirs = dirs;
    c.n_module_dirs = 2;
    c.stdlib_dir = STDLIB;
    c.print = log_print;
    c.print_ud = f;
    c.strict_len = strict_len_next;
    return sandbox_new(&c, &f->errs);
}

static int setup_caps(void **state, size_t cap, long budget) {
    fx *f = calloc(1, sizeof *f);
    assert_non_null(f);
    cerr_init(&f->errs, 0);
    f->sb = make(f, cap, budget);
    assert_non_null(f->sb);
    f->L = sandbox_state(f->sb);
    *state = f;
    return 0;
}

static int setup(void **state) { return setup_caps(state, SMALL_CAP, SMALL_BUDGET); }

static int setup_strict(void **state) {
    strict_len_next = 1;
    int rc = setup_caps(state, SMALL_CAP, SMALL_BUDGET);
    strict_len_next = 0;
    return rc;
}

static int teardown(void **state) {
    fx *f = *state;
    sandbox_free(f->sb);
    cerr_free(&f->errs);
    free(f);
    return 0;
}

/* Runs code as the chunk CHUNK, keeping one result on success. */
static int run(fx *f, const char *code) {
    cerr_clear(&f->errs);
    f->err[0] = '\0';
    lua_settop(f->L, 0);
    int st = sandbox_run_string(f->sb, code, strlen(code), CHUNK, 1, &f->errs);
    if (f->errs.n) {
        char *s = cerr_format(&f->errs.items[0]);
        snprintf(f->err, sizeof f->err, "%s", s ? s : "?");
        free(s);
    }
    return st;
}

/* code must run and return true. */
static void expect_true(fx *f, const char *code) {
    int st = run(f, code);
    if (st != SANDBOX_OK || !lua_toboolean(f->L, -1))
        fail_msg("expected true from: %s\n  status %d, error: %s", code, st, f->err);
    lua_settop(f->L, 0);
}

/* code must fail with status st and an error containing needle. */
static void expect_error(fx *f, const char *code, int st, const char *needle) {
    int got = run(f, code);
    if (got != st || !strstr(f->err, needle))
        fail_msg("from: %s\n  expected status %d with \"%s\"\n  got status %d: %s", code, st,
                 needle, got, f->err);
}

/* ---------------------------------------------------- what is not there */

static void removed_capabilities_are_absent(void **state) {
    fx *f = *state;
    static const char *const absent[] = {
        "io", "os", "debug", "package", "dofile", "loadfile", "collectgarbage", "warn",
        "loadstring", "string.dump", "math.random", "math.randomseed", "coroutine.close",
        "(\"\").dump", "_G.io", "_G.os", NULL};
    char code[128];
    for (int i = 0; absent[i]; i++) {
        snprintf(code, sizeof code, "return %s == nil", absent[i]);
        expect_true(f, code);
    }
    /* the libraries that are there, are there */
    expect_true(f, "return type(string.format) == 'function' and type(table.concat) == 'function'"
                   " and math.floor(2.5) == 2 and utf8.char(65) == 'A'"
                   " and type(coroutine.wrap) == 'function' and _VERSION == 'Lua 5.4'"
                   " and _G._G == _G and select('#', 1, 2) == 2");
}

static void load_accepts_only_text(void **state) {
    fx *f = *state;
    expect_true(f, "return load('return 1 + 1')() == 2");
    /* a binary chunk (it starts with ESC "Lua") is refused by the text mode */
    expect_true(f, "local fn, err = load('\\27Lua\\84\\0\\25\\147') "
                   "return fn == nil and err:find('binary chunk') ~= nil");
    expect_error(f, "return load('return 1', 'x', 'b')", SANDBOX_ERR_RUN, "binary chunks are not allowed");
    expect_error(f, "return load('return 1', 'x', 'bt')", SANDBOX_ERR_RUN, "binary chunks are not allowed");
    /* loaded chunks see the sandbox environment, or the env given */
    expect_true(f, "return load('return io')() == nil and load('return x', 'c', 't', {x = 7})() == 7");
    /* a reader function works, in text mode */
    expect_true(f, "local parts = {'return ', '4', '2'} local i = 0 "
                   "return load(function() i = i + 1 return parts[i] end)() == 42");
}

static void require_refuses_paths(void **state) {
    fx *f = *state;
    static const char *const bad[] = {
        "require('../secret')", "require('/etc/passwd')", "require('a/b')", "require('')",
        "require('.x')", "require('x.')", "require('a..b')", "require('..secret')",
        "require('lib/counter')", "require('a\\0b')", "require('x y')", NULL};
    for (int i = 0; bad[i]; i++) expect_error(f, bad[i], SANDBOX_ERR_RUN, "bad module name");
    /* outside every module folder */
    expect_error(f, "return require('secret')", SANDBOX_ERR_RUN, "module 'secret' not found");
    /* inside, but a symlink pointing outside */
    expect_error(f, "return require('escape')", SANDBOX_ERR_RUN, "module 'escape' not found");
    expect_error(f, "return require('nothing.here')", SANDBOX_ERR_RUN, "not found");
}

/* ------------------------------------------------------------- require */

static void require_loads_once_per_state(void **state) {
    fx *f = *state;
    expect_true(f, "local a = require('lib.counter') local b = require('lib.counter') "
                   "return a == b and a.loads() == 1 and counter_loads == 1");
    /* still cached in a later call */
    expect_true(f, "return require('lib.counter').loads() == 1");
    /* forgetting the cache loads it again (hot reload) */
    sandbox_forget_modules(f->sb);
    expect_true(f, "return require('lib.counter').loads() == 2");
}

static void require_search_order(void **state) {
    fx *f = *state;
    expect_true(f, "return require('shadow') == 'ruleset'");             /* ruleset first */
    expect_true(f, "return require('shared').name == 'shared from parent'"); /* then parents */
    expect_true(f, "return type(require('bag').draw) == 'function'");     /* then the stdlib */
    expect_true(f, "return require('noreturn') == true");
}

static void require_loop_and_syntax_errors(void **state) {
    fx *f = *state;
    expect_error(f, "return require('loop_a')", SANDBOX_ERR_RUN, "require loop");
    /* a module whose loading failed is neither cached nor left marked */
    expect_true(f, "local ok, e = pcall(require, 'flaky') "
                   "return not ok and e:find('first load fails') ~= nil and require('flaky') == 2");
    expect_error(f, "return require('bad_syntax')", SANDBOX_ERR_SYNTAX,
                 RULESET "/bad_syntax.lua:2: ");
    expect_error(f, "return require('bad_syntax')", SANDBOX_ERR_SYNTAX, "near '='");
}

/* ------------------------------------------------------ the budget */

static void budget_stops_an_endless_loop(void **state) {
    fx *f = *state;
    expect_error(f, "local n = 0\nwhile true do n = n + 1 end", SANDBOX_ERR_BUDGET,
                 CHUNK ":2: instruction budget of 1000000 exceeded");
    assert_true(sandbox_instructions_used(f->sb) > SMALL_BUDGET);
    assert_non_null(strstr(sandbox_traceback(f->sb), CHUNK ":2: in main chunk"));
    /* the next call has a fresh budget */
    expect_true(f, "local n = 0 for i = 1, 1000 do n = n + i end return n == 500500");
    assert_true(sandbox_instructions_used(f->sb) < SMALL_BUDGET);
}

static void budget_cannot_be_caught(void **state) {
    fx *f = *state;
    expect_error(f, "local ok = pcall(function() while true do end end)\nreturn 'escaped'",
                 SANDBOX_ERR_BUDGET, "instruction budget of 1000000 exceeded");
    expect_error(f, "for i = 1, 10 do pcall(function() while true do end end) end return 'escaped'",
                 SANDBOX_ERR_BUDGET, "instruction budget");
    expect_error(f, "xpcall(function() while true do end end, function(e) return e end)\n"
                    "return 'escaped'",
                 SANDBOX_ERR_BUDGET, "instruction budget");
    /* a handler that loops forever itself */
    expect_error(f, "xpcall(function() error('x') end, function(e) while true do end end)\n"
                    "return 'escaped'",
                 SANDBOX_ERR_BUDGET, "instruction budget");
    expect_error(f, "xpcall(function() while true do end end, function(e) while true do end end)\n"
                    "return 'escaped'",
                 SANDBOX_ERR_BUDGET, "instruction budget");
    /* __close handlers that loop while the trip unwinds */
    expect_error(f, "local x <close> = setmetatable({}, {__close = function() while true do end end})\n"
                    "while true do end",
                 SANDBOX_ERR_BUDGET, "instruction budget");
    /* nested pcalls, and pcall of pcall */
    expect_error(f, "pcall(pcall, function() while true do end end) return 'escaped'",
                 SANDBOX_ERR_BUDGET, "instruction budget");
    /* error() of the message text is a plain error, not a trip */
    expect_error(f, "error('instruction budget of 1 exceeded')", SANDBOX_ERR_RUN, "instruction budget");
}

static void budget_holds_inside_coroutines(void **state) {
    fx *f = *state;
    expect_error(f, "local co = coroutine.wrap(function() while true do end end)\nco()\nreturn 'escaped'",
                 SANDBOX_ERR_BUDGET, "instruction budget");
    expect_error(f, "local co = coroutine.create(function() while true do end end)\n"
                    "local ok, e = coroutine.resume(co)\nreturn 'escaped'",
                 SANDBOX_ERR_BUDGET, "instruction budget");
    expect_error(f, "local ok = pcall(coroutine.wrap(function() while true do end end))\nreturn 'escaped'",
                 SANDBOX_ERR_BUDGET, "instruction budget");
    /* pcall inside the coroutine */
    expect_error(f, "local co = coroutine.create(function() pcall(function() while true do end end) "
                    "coroutine.yield(1) end)\nlocal ok = coroutine.resume(co)\nreturn 'escaped'",
                 SANDBOX_ERR_BUDGET, "instruction budget");
    /* its __close handlers do not get to run unbudgeted */
    expect_error(f, "local co = coroutine.wrap(function()\n"
                    "  local x <close> = setmetatable({}, {__close = function() while true do end end})\n"
                    "  while true do end\nend)\nco()",
                 SANDBOX_ERR_BUDGET, "instruction budget");
    /* many short coroutines, each below one hook step, still add up: each
    ** is charged a full step when created, so at most budget/step of them */
    expect_error(f, "made = 0\nwhile true do\n  made = made + 1\n"
                    "  local co = coroutine.wrap(function() local x = 0 for i = 1, 20 do x = x + i end end)\n"
                    "  co()\nend",
                 SANDBOX_ERR_BUDGET, "instruction budget");
    expect_true(f, "return made > 100 and made <= 1000");
    /* a coroutine that yields works normally */
    expect_true(f, "local gen = coroutine.wrap(function() for i = 1, 3 do coroutine.yield(i) end end) "
                   "return gen() + gen() + gen() == 6");
}

static void budget_counts_c_loops(void **state) {
    fx *f = *state;
    expect_error(f, "table.move({}, 1, 1 << 30, 2)", SANDBOX_ERR_BUDGET, "instruction budget");
    expect_error(f, "local t = setmetatable({}, {__len = function() return 1 << 30 end})\n"
                    "table.insert(t, 1, 'x')",
                 SANDBOX_ERR_BUDGET, "instruction budget");
    expect_error(f, "local t = setmetatable({}, {__len = function() return 1 << 30 end})\n"
                    "table.remove(t, 1)",
                 SANDBOX_ERR_BUDGET, "instruction budget");
    /* 10^15 copies of nothing is nothing, at once */
    expect_true(f, "return string.rep('', 1 << 50) == '' and string.rep('ab', 3, ',') == 'ab,ab,ab'");
}

/* ------------------------------------------------------ patterns */

static double seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A pattern that backtracks for hours in C: 20 lazy items over 5000 bytes. */
#define BAD_PATTERN "local s, p = string.rep('a', 5000), string.rep('a-', 20) .. 'b'\n"

static void pattern_backtracking_is_budgeted(void **state) {
    fx *f = *state;
    double t0 = seconds();
    expect_error(f, BAD_PATTERN "return s:find(p)", SANDBOX_ERR_BUDGET,
                 CHUNK ":2: instruction budget of 1000000 exceeded");
    assert_true(seconds() - t0 < 20.0); /* contained: run, it would take hours (not a speed figure: make bench) */
    assert_non_null(strstr(sandbox_traceback(f->sb), CHUNK ":2: in main chunk"));
    expect_error(f, BAD_PATTERN "return s:match(p)", SANDBOX_ERR_BUDGET,
                 CHUNK ":2: instruction budget of 1000000 exceeded");
    expect_error(f, BAD_PATTERN "for x in s:gmatch(p) do end", SANDBOX_ERR_BUDGET,
                 CHUNK ":2: instruction budget of 1000000 exceeded");
    expect_error(f, BAD_PATTERN "return s:gsub(p, '')", SANDBOX_ERR_BUDGET,
                 CHUNK ":2: instruction budget of 1000000 exceeded");
    /* no pcall, xpcall or coroutine swallows it */
    expect_error(f, BAD_PATTERN "local ok = pcall(string.find, s, p)\nreturn 'escaped'",
                 SANDBOX_ERR_BUDGET, "instruction budget of 1000000 exceeded");
    expect_error(f, BAD_PATTERN "pcall(function() for x in s:gmatch(p) do end end)\nreturn 'escaped'",
                 SANDBOX_ERR_BUDGET, "instruction budget");
    expect_error(f, BAD_PATTERN "xpcall(string.gsub, function(e) return e end, s, p, '')\n"
                                "return 'escaped'",
                 SANDBOX_ERR_BUDGET, "instruction budget");
    expect_error(f, BAD_PATTERN "pcall(coroutine.wrap(function() return s:match(p) end))\n"
                                "return 'escaped'",
                 SANDBOX_ERR_BUDGET, "instruction budget");
    /* milder, still far past the budget: six greedy items, a quadratic search */
    expect_error(f, "return string.rep('a', 200):find('a*a*a*a*a*a*b')", SANDBOX_ERR_BUDGET,
                 "instruction budget");
    expect_error(f, "return string.rep('x', 100000):find('.-y')", SANDBOX_ERR_BUDGET,
                 "instruction budget");
    /* escaped and class items, sets, %z: each class is measured as Lua reads it */
    static const char *const bad[] = {
        "return string.rep('.', 3000):find(string.rep('%.-', 10) .. 'x')",
        "return string.rep('+', 3000):find(string.rep('%+*', 10) .. 'x')",
        "return string.rep('7', 3000):find(string.rep('%d-', 10) .. 'x')",
        "return string.rep('A', 3000):find(string.rep('%L-', 10) .. 'x')",
        "return string.rep('a', 3000):find(string.rep('[%a_]-', 10) .. 'x')",
        "return string.rep(']', 3000):find(string.rep('[]]-', 10) .. 'x')",
        "return string.rep('-', 3000):find(string.rep('[a-]-', 10) .. 'x')",
        "return string.rep('\\0', 3000):find(string.rep('%z-', 10) .. 'x')",
        "return string.rep('q', 3000):find(string.rep('[^x]-', 10) .. 'x')",
        "return string.rep('a', 3000):find(string.rep('(a-)', 10) .. 'x')",
        "return string.rep('a', 3000):find('(a*)%1%1x')",
        "return string.rep('(', 3000):find('%b()')",
        NULL};
    for (int i = 0; bad[i]; i++) expect_error(f, bad[i], SANDBOX_ERR_BUDGET, "instruction budget");
    assert_true(seconds() - t0 < 20.0); /* contained, even under valgrind: not a speed figure */
}

/* Runs code (which must return true) and returns what it was charged. */
static long cost_of(fx *f, const char *code) {
    expect_true(f, code);
    return sandbox_instructions_used(f->sb);
}

static void ordinary_patterns_cost_little(void **state) {
    fx *f = *state;
    /* decision ids, as rulesets match them */
    assert_true(cost_of(f, "local r, c = ('place r0c3'):match('^place r(%d+)c(%d+)$') "
                           "return r == '0' and c == '3'") < 200);
    assert_true(cost_of(f, "return ('take wood'):match('^take (%a+)$') == 'wood' "
                           "and ('bid 12'):find('^bid (%d+)$') == 1") < 200);
    /* a rendered text of ~450 bytes, ten lines */
    expect_true(f, "local t = {} for i = 1, 10 do t[i] = '{b}Cart ' .. i .. '{/b}: wood, wood and "
                   "stone; ' .. i .. ' left  ' end text = table.concat(t, '\\n') .. '\\n' "
                   "return #text > 400");
    long lines = cost_of(f, "local n = 0 for l in text:gmatch('(.-)\\n') do n = n + 1 end "
                            "return n == 10");
    long lines2 = cost_of(f, "local n = 0 for l in text:gmatch('[^\\n]+') do n = n + 1 end "
                             "return n == 10");
    long words = cost_of(f, "local n = 0 for w in text:gmatch('%a+') do n = n + 1 end return n == 80");
    long tags = cost_of(f, "local s, k = text:gsub('{[%a/]*}', '') return k == 20 and not s:find('{')");
    long trail = cost_of(f, "local s, k = text:gsub(' +\\n', '\\n') return k == 10");
    long first = cost_of(f, "return text:match('^(.-)\\n') == '{b}Cart 1{/b}: wood, wood and "
                            "stone; 1 left  '");
    print_message("charged: gmatch (.-)\\n %ld, [^\\n]+ %ld, %%a+ %ld; gsub tags %ld, "
                  "trailing spaces %ld; first line %ld\n",
                  lines, lines2, words, tags, trail, first);
    /* next to nothing: each well under 0.1% of the default budget */
    assert_true(lines < 50000 && lines2 < 10000 && words < 10000);
    assert_true(tags < 50000 && trail < 10000 && first < 10000);
    /* a long text split on a class that cannot cross the line costs by its
    ** longest line; the first line of a long text costs by that line too */
    expect_true(f, "big = string.rep(text, 100) return #big > 40000");
    assert_true(cost_of(f, "local n = 0 for l in big:gmatch('([^\\n]*)\\n') do n = n + 1 end "
                           "return n == 1000") < 500000);
    assert_true(cost_of(f, "return #big:match('^(.-)\\n') < 50") < 500000);
    /* a search whose worst case passes the budget tries its starts one at a
    ** time: a near match is found, cheaply; starts where the first item
    ** cannot match cost next to nothing */
    assert_true(cost_of(f, "local s = 'ab' .. string.rep('x', 3000) .. 'b' "
                           "return s:find('a.-b') == 1 and s:match('x.-b') == string.rep('x', 3000) .. 'b'")
                < 50000);
    assert_true(cost_of(f, "local s = string.rep('x', 100000) .. 'ab' return s:find('a.-b') == 100001")
                < 200000);
}

static void long_patterns_are_refused(void **state) {
    fx *f = *state;
    static const char *const fns[] = {"find", "match", "gmatch", "gsub"};
    char code[256], needle[128];
    for (int i = 0; i < 4; i++) {
        snprintf(code, sizeof code, "return string.%s('x', string.rep('x', %d), %s)", fns[i],
                 CAIRN_LUA_MAX_PATTERN + 1, i == 3 ? "''" : "1");
        snprintf(needle, sizeof needle,
                 "string.%s: pattern longer than %d bytes (limit CAIRN_LUA_MAX_PATTERN)", fns[i],
                 CAIRN_LUA_MAX_PATTERN);
        expect_error(f, code, SANDBOX_ERR_RUN, needle);
    }
    snprintf(code, sizeof code, "return ('x'):rep(%d):find(('x'):rep(%d)) == 1",
             CAIRN_LUA_MAX_PATTERN, CAIRN_LUA_MAX_PATTERN);
    expect_true(f, code);
    /* a plain find has no pattern */
    expect_true(f, "return ('x'):rep(1000):find(('x'):rep(1000), 1, true) == 1");
}

/* The searches, the same in the sandbox and in a plain Lua state: results,
** init, captures, anchors, gmatch's empty matches, errors with file:line. */
static const char PATTERN_CASES[] =
    "local cases = {\n"
    "  {'hello world', 'o'}, {'hello world', '(o)(r)'}, {'hello', ''}, {'hello', '()'},\n"
    "  {'hello', '()ll()'}, {'abc', '^a'}, {'abc', '^b'}, {'^a^b', '^^'}, {'^a^b', '^'},\n"
    "  {'aaa', 'a-'}, {'aaa', 'a*'}, {'aaa', 'a?'}, {'a,b,,c', '[^,]*'}, {'a,b,,c', ',?'},\n"
    "  {'place r0c3', '^place r(%d+)c(%d+)$'}, {'x = 1, y = 22', '(%w+) = (%d+)'},\n"
    "  {'THE (quick) fox', '%f[%a]%a+'}, {'f(a(b)c)d', '%b()'}, {'hello', 'l+', -3},\n"
    "  {'hello', 'l', 10}, {'hello', '', 6}, {'hello', '', 7}, {'', ''}, {'', 'x*'},\n"
    "  {'hello', '(%a)%1'}, {'line1\\nline2\\n', '(.-)\\n'}, {'a.b.c', '[^%.]+'},\n"
    "  {'a+b', 'a+b'}, {'a+b', 'a%+b', 2}, {'[x]]', '[]]'}, {'a-b', '[a-]+'}, {'x$y', '$y'},\n"
    "  {'xy', 'y$'}, {'abc', '.-', -1}, {'12ab', '%x+', 0}, {'hello', 'l', -100},\n"
    "  {'caf\\195\\169!', '[\\128-\\255]+'}, {'  a b  ', '^%s*(.-)%s*$'}, {'aXb', '%u'}, {'xyz', 'a)'},\n"
    "}\n"
    "local function ser(...)\n"
    "  local t, r = table.pack(...), {}\n"
    "  for i = 1, t.n do r[i] = type(t[i]) .. ':' .. tostring(t[i]) end\n"
    "  return table.concat(r, ',')\n"
    "end\n"
    "local out = {}\n"
    "for _, c in ipairs(cases) do\n"
    "  local s, p, i = c[1], c[2], c[3]\n"
    "  local g = {}\n"
    "  for a, b in s:gmatch(p, i) do g[#g + 1] = ser(a, b) end\n"
    "  out[#out + 1] = ser(s:find(p, i)) .. '|' .. ser(s:find(p, i, true)) .. '|' ..\n"
    "    ser(s:match(p, i)) .. '|' .. table.concat(g, ';') .. '|' .. ser(s:gsub(p, '<%0>'))\n"
    "end\n"
    "out[#out + 1] = ser(string.find(12345, 34), string.match(12345, '%d%d'))\n"
    "out[#out + 1] = ser(('abc'):gsub('%w', {a = 1, b = false}), ('abc'):gsub('b', function() end))\n"
    "for _, p in ipairs({'%', '[a', '(a', 'a)', '%b', '%f', '%1'}) do\n"
    "  out[#out + 1] = select(2, pcall(function() return ('abc'):find(p) end))\n"
    "  out[#out + 1] = select(2, pcall(function() return ('abc'):match(p) end))\n"
    "  out[#out + 1] = select(2, pcall(function() for x in ('abc'):gmatch(p) do end end))\n"
    "  out[#out + 1] = select(2, pcall(function() return ('abc'):gsub(p, 'x') end))\n"
    "end\n"
    "out[#out + 1] = select(2, pcall(function() return ('abc'):gsub('b', '%2') end))\n"
    "return table.concat(out, '\\n')\n";

static void patterns_answer_as_lua_does(void **state) {
    fx *f = *state;
    assert_int_equal(run(f, PATTERN_CASES), SANDBOX_OK);
    const char *got = lua_tostring(f->L, -1);
    assert_non_null(got);
    lua_State *plain = luaL_newstate();
    assert_non_null(plain);
    luaL_openlibs(plain);
    assert_int_equal(luaL_loadbuffer(plain, PATTERN_CASES, strlen(PATTERN_CASES), "@" CHUNK), LUA_OK);
    assert_int_equal(lua_pcall(plain, 0, 1, 0), LUA_OK);
    assert_string_equal(got, lua_tostring(plain, -1));
    assert_non_null(strstr(got, CHUNK ":29: malformed pattern (ends with '%')"));
    lua_close(plain);
}

/* ------------------------------------------------------ the memory cap */

static void memory_cap_stops_string_rep(void **state) {
    fx *f = *state;
    expect_error(f, "local s = 1\nlocal big = string.rep('x', 1 << 30)", SANDBOX_ERR_MEMORY,
                 CHUNK ":2: memory cap of 4 MiB exceeded");
    expect_error(f, "local ok, e = pcall(string.rep, 'x', 1 << 30)\nreturn 'escaped'",
                 SANDBOX_ERR_MEMORY, "memory cap of 4 MiB exceeded");
    expect_error(f, "local s = string.rep('x', 1 << 20, 'yyy')", SANDBOX_ERR_MEMORY, "memory cap");
}

static void memory_cap_stops_growth_bombs(void **state) {
    fx *f = *state;
    expect_error(f, "local t = {}\nlocal i = 0\nwhile true do\n  i = i + 1\n  t[i] = {i}\nend",
                 SANDBOX_ERR_MEMORY, CHUNK ":5: memory cap of 4 MiB exceeded");
    expect_error(f, "local s = 'x'\nwhile true do\n  s = s .. s\nend", SANDBOX_ERR_MEMORY,
                 CHUNK ":3: memory cap of 4 MiB exceeded");
    /* caught by pcall: raised again */
    expect_error(f, "local ok = pcall(function() local t = {} for i = 1, 1 << 40 do t[i] = 'abc' .. i end end)\n"
                    "return 'escaped'",
                 SANDBOX_ERR_MEMORY, "memory cap of 4 MiB exceeded");
    /* inside a coroutine */
    expect_error(f, "local co = coroutine.wrap(function() local s = 'x' while true do s = s .. s end end)\n"
                    "print(pcall(co))\nreturn 'escaped'",
                 SANDBOX_ERR_MEMORY, "memory cap of 4 MiB exceeded");
    expect_error(f, "local t = {}\nfor i = 1, 200 do t[i] = string.rep('y', 10000) end\n"
                    "local u = {}\nfor i = 1, 1000 do u[i] = table.concat(t) end",
                 SANDBOX_ERR_MEMORY, "memory cap of 4 MiB exceeded");
    /* the state recovers: garbage is collected, the next call runs */
    expect_true(f, "local t = {} for i = 1, 1000 do t[i] = i end return #t == 1000");
    assert_true(sandbox_memory_used(f->sb) < SMALL_CAP / 2);
}

static void memory_cap_is_configurable(void **state) {
    fx *f = *state;
    sandbox_free(f->sb);
    f->sb = make(f, 1536 * 1024, SMALL_BUDGET);
    assert_non_null(f->sb);
    f->L = sandbox_state(f->sb);
    expect_error(f, "local s = string.rep('x', 2 * 1024 * 1024)", SANDBOX_ERR_MEMORY,
                 "memory cap of 1536 KiB exceeded");
    /* too small for Lua itself: a clear error, no state */
    sandbox_config c;
    cerr_list errs;
    cerr_init(&errs, 0);
    sandbox_default_config(&c);
    assert_int_equal(c.mem_cap, (size_t)CAIRN_LUA_MEMORY_CAP);
    assert_int_equal(c.instr_budget, CAIRN_LUA_INSTRUCTION_BUDGET);
    c.mem_cap = 1024;
    assert_null(sandbox_new(&c, &errs));
    assert_int_equal(errs.n, 1);
    assert_non_null(strstr(errs.items[0].message, "memory cap of 1 KiB"));
    cerr_free(&errs);
}

/* ------------------------------------------------------- read-only */

/* Makes the global `data` a frozen table. */
static void set_frozen_data(fx *f) {
    assert_int_equal(run(f, "return { carts = { {cap = 2}, {cap = 3} }, name = 'yak', "
                            "tags = {'a', 'b'} }"),
                     SANDBOX_OK);
    assert_int_equal(sandbox_freeze(f->L, -1, "g.data"), 0);
    assert_int_equal(sandbox_set_global(f->sb, "data"), 0);
}

static void frozen_tables_refuse_writes(void **state) {
    fx *f = *state;
    set_frozen_data(f);
    expect_error(f, "data.x = 1", SANDBOX_ERR_RUN,
                 CHUNK ":1: attempt to modify read-only table g.data (field 'x')");
    expect_error(f, "data.name = 'other'", SANDBOX_ERR_RUN, "read-only table g.data (field 'name')");
    expect_error(f, "data.carts[1].cap = 9", SANDBOX_ERR_RUN, "read-only table g.data.carts[1] (field 'cap')");
    expect_error(f, "data.carts[3] = {}", SANDBOX_ERR_RUN, "read-only table g.data.carts (index 3)");
    expect_error(f, "rawset(data, 'x', 1)", SANDBOX_ERR_RUN, "rawset: attempt to modify read-only table g.data");
    expect_error(f, "rawset(data.carts[2], 'cap', 1)", SANDBOX_ERR_RUN, "read-only table g.data.carts[2]");
    expect_error(f, "setmetatable(data, {})", SANDBOX_ERR_RUN, "cannot change a protected metatable");
    expect_error(f, "table.insert(data.tags, 'c')", SANDBOX_ERR_RUN, "read-only table g.data.tags");
    expect_error(f, "table.remove(data.tags)", SANDBOX_ERR_RUN, "read-only table g.data.tags");
    expect_error(f, "table.sort(data.tags, function(a, b) return a > b end)", SANDBOX_ERR_RUN,
                 "read-only table g.data.tags");
    expect_error(f, "data = {}", SANDBOX_ERR_RUN, "attempt to replace the library global 'data'");
    /* nothing changed */
    expect_true(f, "return data.x == nil and data.name == 'yak' and data.carts[1].cap == 2 "
                   "and #data.carts == 2 and rawget(data, 'x') == nil and getmetatable(data) == false");
}

static void frozen_tables_read_as_usual(void **state) {
    fx *f = *state;
    set_frozen_data(f);
    expect_true(f, "local n = 0 for i, c in ipairs(data.carts) do n = n + c.cap end return n == 5");
    expect_true(f, "local ks = {} for k in pairs(data) do ks[#ks + 1] = k end "
                   "return table.concat(ks, ',') == 'carts,name,tags'");
    expect_true(f, "return next(data) == 'carts' and next(data, 'name') == 'tags' and next({}) == nil");
    expect_true(f, "return #data.tags == 2 and rawlen(data.tags) == 2 and rawget(data, 'name') == 'yak' "
                   "and table.concat(data.tags, '+') == 'a+b' and select('#', table.unpack(data.tags)) == 2");
    expect_true(f, "return data.carts == data.carts and data.carts[1] == data.carts[1]");
    /* a copy is writable */
    expect_true(f, "local c = {} for k, v in pairs(data.carts[1]) do c[k] = v end c.cap = 7 return c.cap == 7");
}

static void libraries_are_read_only(void **state) {
    fx *f = *state;
    expect_error(f, "string.x = 1", SANDBOX_ERR_RUN, "attempt to modify read-only table string (field 'x')");
    expect_error(f, "math.pi = 3", SANDBOX_ERR_RUN, "attempt to modify read-only table math (field 'pi')");
    expect_error(f, "table.insert = print", SANDBOX_ERR_RUN, "read-only table table (field 'insert')");
    expect_error(f, "utf8.char = nil", SANDBOX_ERR_RUN, "read-only table utf8");
    expect_error(f, "coroutine.wrap = nil", SANDBOX_ERR_RUN, "read-only table coroutine");
    expect_error(f, "rawset(string, 'rep', print)", SANDBOX_ERR_RUN, "rawset: attempt to modify read-only table string");
    expect_error(f, "rawset(math, 'pi', 3)", SANDBOX_ERR_RUN, "read-only table math");
    /* the string metatable cannot be reached */
    expect_true(f, "return getmetatable('') == false and getmetatable('abc') == false");
    expect_error(f, "getmetatable('').__index = {}", SANDBOX_ERR_RUN, "attempt to index a boolean value");
    expect_error(f, "setmetatable(string, {})", SANDBOX_ERR_RUN, "cannot change a protected metatable");
    /* library globals cannot be replaced, even with rawset on _G */
    expect_error(f, "pairs = function() end", SANDBOX_ERR_RUN, "library global 'pairs'");
    expect_error(f, "string = {}", SANDBOX_ERR_RUN, "library global 'string'");
    expect_error(f, "_G.print = nil", SANDBOX_ERR_RUN, "library global 'print'");
    expect_error(f, "rawset(_G, 'tostring', print)", SANDBOX_ERR_RUN, "library global 'tostring'");
    expect_error(f, "setmetatable(_G, nil)", SANDBOX_ERR_RUN, "cannot change a protected metatable");
    expect_true(f, "return math.pi > 3.14 and ('x'):rep(3) == 'xxx' and string.rep == ('').rep");
    /* a script's own globals are fine */
    expect_true(f, "score = 1 rawset(_G, 'bonus', 2) return score + bonus == 3");
    expect_true(f, "return score == 1"); /* they last: one state per game */
}

static void gc_dependent_metatables_are_refused(void **state) {
    fx *f = *state;
    expect_error(f, "setmetatable({}, {__gc = function() end})", SANDBOX_ERR_RUN, "__gc is not allowed");
    expect_error(f, "setmetatable({}, {__mode = 'k'})", SANDBOX_ERR_RUN, "__mode is not allowed");
    expect_true(f, "local t = setmetatable({}, {__index = function(t, k) return k .. '!' end}) "
                   "return t.hi == 'hi!'");
}

/* ---------------------------------------------------- determinism */

static void pairs_order_is_fixed(void **state) {
    fx *f = *state;
    /* same keys, inserted in different orders: same sequence, sorted */
    expect_true(f,
        "local function keys(t) local r = {} for k in pairs(t) do r[#r + 1] = tostring(k) end "
        "  return table.concat(r, ' ') end "
        "local a, b = {}, {} "
        "local names = {'zeta', 'alpha', 'Beta', 'beta', 'a', 'aa', '', 'b10', 'b9'} "
        "for i = 1, #names do a[names[i]] = i end "
        "for i = #names, 1, -1 do b[names[i]] = i end "
        "a[3] = 1; a[-2] = 1; a[10] = 1; a[true] = 1; a[false] = 1 "
        "b[false] = 1; b[10] = 1; b[true] = 1; b[-2] = 1; b[3] = 1 "
        "local expect = '-2 3 10  Beta a aa alpha b10 b9 beta zeta false true' "
        "return keys(a) == expect and keys(b) == expect");
    /* next walks the same order */
    expect_true(f,
        "local t = {x = 1, [2] = 1, a = 1, [1] = 1, [true] = 1} local r = {} local k = next(t) "
        "while k ~= nil do r[#r + 1] = tostring(k) k = next(t, k) end "
        "return table.concat(r, ' ') == '1 2 a x true'");
    /* keys without an order are refused, not iterated at random */
    expect_error(f, "for k in pairs({[{}] = 1}) do end", SANDBOX_ERR_RUN, "a table with a table key has no fixed order");
    expect_error(f, "for k in pairs({[1.5] = 1}) do end", SANDBOX_ERR_RUN, "float key");
    expect_error(f, "return next({[print] = 1})", SANDBOX_ERR_RUN, "no fixed order");
    /* a float key met in a small table (next's scan), and next's own
    ** argument: 2.0 is refused though a table would store it as 2 */
    expect_error(f, "for k in pairs({1, [2.5] = 1}) do end", SANDBOX_ERR_RUN,
                 "next: a table with a float key has no fixed order");
    expect_error(f, "return next({1, 2}, 2.0)", SANDBOX_ERR_RUN, "next: a table with a float key");
    /* a table with a metatable that is neither view nor proxy: its own
    ** contents, in order; a __pairs metamethod answers instead */
    expect_true(f, "local t = setmetatable({b = 1, a = 2, [3] = 0}, {}) local r = {} "
                   "for k in pairs(t) do r[#r + 1] = tostring(k) end "
                   "return table.concat(r, ' ') == '3 a b' and next(t) == 3 and next(t, 3) == 'a'");
    expect_true(f, "local t = setmetatable({a = 1}, {__pairs = function(t) "
                   "  return function(_, k) if k == nil then return 'z', 26 end end, t, nil end}) "
                   "local r = {} for k, v in pairs(t) do r[#r + 1] = k .. v end "
                   "return table.concat(r) == 'z26'");
    /* a field removed during the loop is skipped; changing values is fine */
    expect_true(f, "local t = {a = 1, b = 2, c = 3} local seen = {} "
                   "for k, v in pairs(t) do seen[#seen + 1] = k t.c = nil t.a = 10 end "
                   "return table.concat(seen) == 'ab' and t.a == 10");
}

/* The order of string keys in a raw table differs between two states (each
** has its own hash seed); pairs in the sandbox must not. */
static void pairs_order_is_the_same_in_two_states(void **state) {
    fx *f = *state;
    fx g;
    memset(&g, 0, sizeof g);
    cerr_init(&g.errs, 0);
    g.sb = make(&g, SMALL_CAP, SMALL_BUDGET);
    assert_non_null(g.sb);
    g.L = sandbox_state(g.sb);
    const char *code =
        "local t = {} for i = 1, 200 do t['key' .. (i * 7919 % 1000)] = i end "
        "local r = {} for k in pairs(t) do r[#r + 1] = k end return table.concat(r, ',')";
    assert_int_equal(run(f, code), SANDBOX_OK);
    assert_int_equal(run(&g, code), SANDBOX_OK);
    assert_string_equal(lua_tostring(f->L, -1), lua_tostring(g.L, -1));
    /* and it is the sorted order */
    expect_true(f, "local t = {} for i = 1, 200 do t['key' .. (i * 7919 % 1000)] = i end "
                   "local r, s = {}, {} for k in pairs(t) do r[#r + 1] = k s[#s + 1] = k end "
                   "table.sort(s) return #r == 200 and table.concat(r, ',') == table.concat(s, ',')");
    sandbox_free(g.sb);
    cerr_free(&g.errs);
}

static void sort_is_stable(void **state) {
    fx *f = *state;
    /* 500 records with only 3 distinct keys: ties keep their input order */
    expect_true(f,
        "local t = {} for i = 1, 500 do t[i] = {k = i % 3, id = i} end "
        "table.sort(t, function(a, b) return a.k < b.k end) "
        "for i = 2, #t do local a, b = t[i - 1], t[i] "
        "  if a.k > b.k or (a.k == b.k and a.id > b.id) then return false end end "
        "return t[1].id == 3 and t[166].id == 498 and t[167].id == 1 and t[500].id == 500");
    expect_true(f, "local t = {5, 2, 9, 1, 5, 6} table.sort(t) return table.concat(t, ' ') == '1 2 5 5 6 9'");
    expect_true(f, "local t = {'b', 'a', 'c'} table.sort(t, function(x, y) return x > y end) "
                   "return table.concat(t) == 'cba'");
    expect_error(f, "table.sort({1, 'x', 2})", SANDBOX_ERR_RUN, "attempt to compare");
}

static void no_addresses_reach_scripts(void **state) {
    fx *f = *state;
    expect_true(f, "return tostring({}) == 'table' and tostring(print) == 'function' "
                   "and tostring(coroutine.create(print)) == 'thread' "
                   "and string.format('%s|%5s', {}, 'x') == 'table|    x' "
                   "and tostring(setmetatable({}, {__tostring = function() return 'T' end})) == 'T'");
    expect_error(f, "return string.format('%p', {})", SANDBOX_ERR_RUN, "%p is not allowed");
    assert_int_equal(run(f, "print('a', 1, {}, nil, true)"), SANDBOX_OK);
    assert_string_equal(f->log, CHUNK ":1: a 1 table nil true\n");
}

/* -------------------------------------------------------- errors */

static void errors_name_file_and_line(void **state) {
    fx *f = *state;
    expect_error(f, "local x = 1\nlocal y = nil\nreturn y.z", SANDBOX_ERR_RUN,
                 CHUNK ":3: attempt to index a nil value (local 'y')");
    expect_error(f, "\n\nerror('plain message')", SANDBOX_ERR_RUN, CHUNK ":3: plain message");
    expect_error(f, "local x = = 1", SANDBOX_ERR_SYNTAX, CHUNK ":1: unexpected symbol near '='");
    expect_error(f, "error({})", SANDBOX_ERR_RUN, CHUNK ":1: (error object is a table value)");
    /* the message does not repeat the location */
    assert_int_equal(run(f, "\nerror('once')"), SANDBOX_ERR_RUN);
    assert_string_equal(f->errs.items[0].message, "once");
    assert_string_equal(f->errs.items[0].file, CHUNK);
    assert_int_equal(f->errs.items[0].line, 2);
}

/* Builds g from g_code, loads rules.lua from the fixture ruleset (as the
** chunk "rulesets/fx/rules.lua") and calls rules.<fn>(g) as the engine
** would. */
static int call_rule(fx *f, const char *fn, const char *g_code) {
    lua_State *L = f->L;
    lua_settop(L, 0);
    cerr_clear(&f->errs);
    assert_int_equal(sandbox_run_string(f->sb, g_code, strlen(g_code), CHUNK, 1, &f->errs), SANDBOX_OK);
    assert_int_equal(sandbox_run_file(f->sb, RULESET "/rules.lua", "rulesets/fx/rules.lua", 1, &f->errs),
                     SANDBOX_OK);
    assert_int_equal(lua_gettop(L), 2);
    lua_getfield(L, 2, fn);
    lua_pushvalue(L, 1);
    int st = sandbox_call(f->sb, 1, 0, &f->errs);
    f->err[0] = '\0';
    if (f->errs.n) {
        char *e = cerr_format(&f->errs.items[0]);
        snprintf(f->err, sizeof f->err, "%s", e ? e : "?");
        free(e);
    }
    return st;
}

static void errors_in_a_ruleset_file(void **state) {
    fx *f = *state;
    assert_int_equal(call_rule(f, "apply", "return {state = {n = 2}}"), SANDBOX_ERR_RUN);
    assert_string_equal(f->err, "rulesets/fx/rules.lua:9: too many turns: 3");
    const char *tb = sandbox_traceback(f->sb);
    assert_non_null(strstr(tb, "rulesets/fx/rules.lua:9: in upvalue 'check'"));
    assert_non_null(strstr(tb, "rulesets/fx/rules.lua:15: in function <rulesets/fx/rules.lua:13>"));
    assert_null(strstr(tb, "[C]"));
    assert_null(strstr(tb, "error"));
    /* the stdlib raising at level 2 blames the ruleset; its frame is dropped */
    assert_int_equal(call_rule(f, "draw", "return {state = {bag = {}}}"), SANDBOX_ERR_RUN);
    assert_string_equal(f->err, "rulesets/fx/rules.lua:19: draw from an empty bag");
    assert_null(strstr(sandbox_traceback(f->sb), STDLIB));
    /* a bug inside the stdlib keeps its frames */
    expect_error(f, "require('bag').broken({})", SANDBOX_ERR_RUN,
                 STDLIB "/bag.lua:10: attempt to index a nil value (field 'items')");
    assert_non_null(strstr(sandbox_traceback(f->sb), STDLIB "/bag.lua:10: in field 'broken'"));
    /* a file that is not there */
    cerr_clear(&f->errs);
    assert_int_equal(sandbox_run_file(f->sb, RULESET "/missing.lua", NULL, 0, &f->errs), SANDBOX_ERR_FILE);
    assert_non_null(strstr(f->errs.items[0].message, "cannot read script"));
}

static void engine_globals(void **state) {
    fx *f = *state;
    lua_State *L = f->L;
    /* sandbox_set_global from a protected context: build the table inside */
    assert_int_equal(run(f, "return {version = 3}"), SANDBOX_OK);
    assert_int_equal(sandbox_set_global(f->sb, "cairn"), 0);
    assert_int_equal(lua_gettop(L), 0);
    expect_true(f, "return cairn.version == 3");
    expect_error(f, "cairn = nil", SANDBOX_ERR_RUN, "library global 'cairn'");
    lua_pushinteger(L, 1);
    assert_int_equal(sandbox_set_global(f->sb, "not a name"), -1);
    assert_int_equal(lua_gettop(L), 0);
    /* sandbox_call passes arguments and results */
    assert_int_equal(run(f, "return function(a, b) return a * b, a + b end"), SANDBOX_OK);
    lua_pushinteger(L, 6);
    lua_pushinteger(L, 7);
    assert_int_equal(sandbox_call(f->sb, 2, 2, &f->errs), SANDBOX_OK);
    assert_int_equal(lua_tointeger(L, -2), 42);
    assert_int_equal(lua_tointeger(L, -1), 13);
    lua_settop(L, 0);
    /* a failed call leaves the stack as it was below the function */
    lua_pushinteger(L, 99);
    assert_int_equal(run(f, "return function() error('x') end"), SANDBOX_OK);
    lua_pushinteger(L, 99);
    lua_insert(L, 1);
    assert_int_equal(sandbox_call(f->sb, 0, 1, &f->errs), SANDBOX_ERR_RUN);
    assert_int_equal(lua_gettop(L), 1);
}

/* Check mode: every `#X` is rewritten to a counting call, so each form an
** operand takes must still mean what it meant, `#` inside strings and
** comments is left alone, lines keep their numbers, and a table with holes
** is refused. */
static void strict_len_keeps_meaning(void **state) {
    fx *f = *state;
    expect_true(f, "local t = {1, 2, 3} local s = {x = {4, 5}}\n"
                   "local function mk() return {1} end\n"
                   "local o = {m = function(self) return {1, 2} end}\n"
                   "return #t == 3 and #s.x == 2 and #s['x'] == 2 and #mk() == 1 and #o:m() == 2\n"
                   "  and #'abc' == 3 and #{1, 2, 3, 4} == 4 and # t == 3 and #(t) == 3\n"
                   "  and #t - 1 == 2 and 2 ^ #t == 8 and #[[xy]] == 2 and #mk{} == 1");
    /* nested, and the operand's own suffix chain */
    expect_true(f, "local t = {1, 2} local u = {{1, 2, 3}, {1}} return #u[#t] == 1 and #u[#t - 1] == 3");
    /* not operators: inside strings, long strings and comments */
    expect_true(f, "local a = '#' local b = [==[ #x ]==] --[[ #y ]] -- #z\n"
                   "return a .. b == '# #x ' and select('#', 1, 2) == 2");
    /* varargs keep Lua's own `#` (not a form the rewrite wraps) */
    expect_true(f, "local function n(...) return #{...} end return n(1, 2) == 2");
    /* a __len metamethod answers as it does without check mode */
    expect_true(f, "return #setmetatable({}, {__len = function() return 7 end}) == 7");
    /* holes: below the border, and past it */
    expect_error(f, "local t = {1, 2, 3} t[2] = nil return #t", SANDBOX_ERR_RUN,
                 CHUNK ":1: `#` of a table with holes: 2 of keys 1..3 are set");
    expect_error(f, "local t = {}\nt[1] = 1\nt[3] = 3\nreturn #\n  t", SANDBOX_ERR_RUN,
                 CHUNK ":4: `#` of a table with holes");
    expect_error(f, "return #nil", SANDBOX_ERR_RUN, "attempt to get length of a nil value");
    /* the name the rewrite uses is reserved */
    expect_error(f, "local __cairn_len = function() return 0 end return 1", SANDBOX_ERR_SYNTAX,
                 "`__cairn_len` is a name cairn reserves (its `#`)");
    expect_error(f, "__cairn_len = print", SANDBOX_ERR_SYNTAX, "reserves");
    /* load() is rewritten the same way */
    expect_true(f, "local t = {1, 2, 3} t[2] = nil\n"
                   "local ok, err = pcall(load('local t = ... return #t'), t)\n"
                   "return not ok and err:find('holes', 1, true) ~= nil");
}

/* Outside check mode `#` (and every length the table library and rawlen
** take) is the border a doubling, then binary, search from 1 finds: the
** table's contents decide it, never how its parts were sized. Worked by
** hand:
**   {1, nil, 3}: t[1] set (i = 1), t[2] nil (j = 2): 1.
**   1..8 but 4: t[1], t[2] set (i = 2), t[4] nil (j = 4); t[3] set: 3 (Lua
**   may say 8 for the constructor, whose array part holds all eight).
**   1..1000: doubling to t[512] set, t[1024] nil, then halving: 1000. */
static void plain_len_is_searched(void **state) {
    fx *f = *state;
    expect_true(f, "local t = {1, 2, 3} t[2] = nil return #t == 1 and rawlen(t) == 1");
    expect_true(f, "local a = {1, 2, 3, nil, 5, 6, 7, 8}\n"
                   "local b = {} for i = 8, 1, -1 do if i ~= 4 then b[i] = i end end\n"
                   "return #a == 3 and #b == 3");
    /* the table library takes the same length: insert appends at 3 + 1; then
    ** 1..5 are set: t[4] set (i = 4), t[8] nil, t[6] nil, t[5] set: 5 */
    expect_true(f, "local t = {1, 2, 3, nil, 5} table.insert(t, 'x') return t[4] == 'x' and #t == 5");
    expect_true(f, "local t = {} for i = 1, 1000 do t[i] = i end return #t == 1000 and #{} == 0");
    expect_true(f, "return #setmetatable({}, {__len = function() return 7 end}) == 7 and #'abc' == 3");
    expect_error(f, "return #nil", SANDBOX_ERR_RUN, "attempt to get length of a nil value");
    expect_error(f, "local __cairn_len = 2 return __cairn_len", SANDBOX_ERR_SYNTAX, "reserves");
}

/* The search is the definition: a test-side copy of it in Lua (rawget
** probes 1, 2, 4, ... then halves) must give what `#`, rawlen and
** table.insert take on tables with holes, many of them, including borders
** past 2^8, whose searches take more than the 16 probes sandbox_len.c drops
** at once. Worked by hand, 1..300 without 288: doubling t[1] .. t[256] set,
** t[512] nil (i = 256, j = 512); then 384, 320, 288 nil (j = 288); 272,
** 280, 284, 286, 287 set: 287 after 18 probes (Lua's own `#` says 300). */
static void plain_len_matches_the_doubling_search(void **state) {
    fx *f = *state;
    expect_true(f, "local t = {} for i = 1, 300 do t[i] = i end t[288] = nil\n"
                   "return #t == 287 and rawlen(t) == 287");
    expect_true(f,
                "local function doubling(t)\n"
                "  local i, j = 0, 1\n"
                "  while rawget(t, j) ~= nil do i = j j = j * 2 end\n"
                "  while j - i > 1 do\n"
                "    local m = i + (j - i) // 2\n"
                "    if rawget(t, m) == nil then j = m else i = m end\n"
                "  end\n"
                "  return i\n"
                "end\n"
                "local seed, differ, holed = 7, 0, 0\n"
                "local function rand(n) seed = (seed * 1103515245 + 12345) % 2147483648 return seed % n end\n"
                "for case = 1, 300 do\n"
                "  local n = 1 + rand(case < 200 and 40 or 2000)\n"
                "  local t = {}\n"
                "  for i = 1, n do t[i] = i end\n"
                "  for _ = 1, rand(4) do t[1 + rand(n)] = nil end\n"
                "  if rand(3) == 0 then t[n + 1 + rand(n)] = true end\n"
                "  local want = doubling(t)\n"
                "  if want ~= n then holed = holed + 1 end\n"
                "  local u = {} for k, v in pairs(t) do u[k] = v end\n"
                "  table.insert(u, 'x')\n"
                "  if #t ~= want or rawlen(t) ~= want or u[want + 1] ~= 'x' then differ = differ + 1 end\n"
                "end\n"
                "return differ == 0 and holed > 100");
}

/* A chunk at Lua's limits still loads: the `#` function is a local of the
** rewritten chunk (one more local, and one more upvalue for a function
** using `#`), and a chunk that fails so is compiled again without it,
** each `#` then reading the global. 199 locals + `t` = 200, the most a
** function may have; g uses 150 of the chunk's locals, 104 of f's and a
** global (_ENV), 255 upvalues, the most a function may have. An error past
** the limit is about the text as written. */
static void len_at_lua_limits(void **state) {
    fx *f = *state;
    static char code[40000];
    char *p = code;
    p += sprintf(p, "local a0");
    for (int i = 1; i < 199; i++) p += sprintf(p, ", a%d", i);
    p += sprintf(p, " = 1\nlocal t = {1, 2, 3}\nreturn #t == 3 and a198 == nil\n");
    expect_true(f, code);
    p = code; /* the same through load */
    p += sprintf(p, "local src = 'local a0");
    for (int i = 1; i < 199; i++) p += sprintf(p, ", a%d", i);
    p += sprintf(p, " = 1 local t = {1, 2} return #t'\nreturn load(src)() == 2\n");
    expect_true(f, code);
    p = code;
    for (int i = 0; i < 150; i++) p += sprintf(p, "local c%d = %d\n", i, i);
    p += sprintf(p, "local function f()\n");
    for (int i = 0; i < 104; i++) p += sprintf(p, "  local l%d = %d\n", i, i);
    p += sprintf(p, "  local function g()\n    local s = 0\n");
    for (int i = 0; i < 150; i++) p += sprintf(p, "    s = s + c%d\n", i);
    for (int i = 0; i < 104; i++) p += sprintf(p, "    s = s + l%d\n", i);
    p += sprintf(p, "    return s + #{1, 2} + math.max(0, 1)\n  end\n  return g()\nend\n");
    /* 0 + .. + 149 = 149 * 150 / 2 = 11175, 0 + .. + 103 = 103 * 104 / 2
    ** = 5356, 2 and 1 */
    p += sprintf(p, "return f() == 11175 + 5356 + 2 + 1\n");
    expect_true(f, code);
    p = code; /* 201 locals: Lua's error, on the line of the 201st */
    p += sprintf(p, "local a0");
    for (int i = 1; i < 200; i++) p += sprintf(p, ", a%d", i);
    p += sprintf(p, " = 1\nlocal t = {}\nreturn #t\n");
    expect_error(f, code, SANDBOX_ERR_SYNTAX, CHUNK ":2: too many local variables (limit is 200)");
}

/* The bytes the result of code keeps alive (after full collections). */
static size_t kept_bytes(fx *f, const char *code) {
    assert_int_equal(run(f, code), SANDBOX_OK);
    lua_gc(f->L, LUA_GCCOLLECT);
    size_t with = sandbox_memory_used(f->sb);
    lua_settop(f->L, 0);
    lua_gc(f->L, LUA_GCCOLLECT);
    return with - sandbox_memory_used(f->sb);
}

/* Every empty constructor `{}` gets room for CAIRN_LUA_TABLE_ROOM list
** entries (sandbox_presize.c), which nothing a script sees can tell: the
** table is empty, lists and maps fill as before, lines keep their numbers,
** and `{}` inside strings and comments is text. The room is there: 100
** empty tables kept hold 100 * 8 * 16 = 12,800 bytes more (8 nils, a Lua
** value 16 bytes each) than 100 written with a comment between the braces,
** which the rewrite leaves as written; with 0 room they would hold the
** same. */
static void empty_tables_get_room(void **state) {
    fx *f = *state;
    expect_true(f, "local t = {} return next(t) == nil and #t == 0 and rawlen(t) == 0 and t[1] == nil");
    expect_true(f, "local t = {} for i = 1, 20 do t[i] = i * i end return #t == 20 and t[20] == 400");
    expect_true(f, "local m, keys = {}, {} m.b = 2 m.a = 1 m[3] = 'x'\n"
                   "for k in pairs(m) do keys[#keys + 1] = tostring(k) end\n"
                   "return table.concat(keys, ',') == '3,a,b'");
    expect_true(f, "local function empty(t) return next(t) == nil end return empty{} and empty{ } and empty({\n})");
    expect_true(f, "local s = '{}' .. \"{ }\" .. [[{}]] -- {}\nreturn s == '{' .. '}{ }{' .. '}'");
    expect_error(f, "local t = {\n}\nerror('here')", SANDBOX_ERR_RUN, CHUNK ":3: here");
    expect_true(f, "return load('local t = {} t[1] = 1 return #t')() == 1");
    /* a string that goes on past a line break after \z is still a string */
    expect_true(f, "local s = 'a\\z\n  {}' return s == 'a{' .. '}'");
    size_t room = kept_bytes(f, "local t = {} for i = 1, 100 do t[i] = {} end return t");
    size_t written = kept_bytes(f, "local t = {} for i = 1, 100 do t[i] = { --[[ as written ]] } end return t");
    /* the rest is the two chunks' own code (its nils, its registers):
    ** 64 bytes here, under 256 whatever the build */
    assert_true(room - written >= 100 * CAIRN_LUA_TABLE_ROOM * 16);
    assert_true(room - written < 100 * CAIRN_LUA_TABLE_ROOM * 16 + 256);
}

/* The heap brackets (sandbox_heap_begin/end): C code the rules call that
** uses the C heap must not be left in the middle by the hard stop. A C
** function spins 300 ms of CPU, far past a 20 ms deadline and 20 ms grace
** (the stop lands at about 8 ticks of 5 ms = 40 ms); inside the brackets
** the jump waits until sandbox_heap_end, so the spin finished; outside them
** (the control) the jump leaves the spin half-way. */
static sandbox *heap_lost[2]; /* a left sandbox is kept reachable, never freed */
static volatile sig_atomic_t heap_spun;

static int l_spin_on_heap(lua_State *L) {
    int bracket = lua_toboolean(L, 1);
    if (bracket) sandbox_heap_begin();
    struct timespec t0, t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    do clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < 300);
    heap_spun = 1;
    if (bracket) sandbox_heap_end();
    return 0;
}

static void hard_stop_waits_for_the_heap(void **state) {
    (void)state;
    static sigjmp_buf jb;
    for (volatile int bracket = 1; bracket >= 0; bracket--) { /* lives across the jump */
        static fx f;
        memset(&f, 0, sizeof f);
        cerr_init(&f.errs, 0);
        /* read by sandbox_new only: unset at once, so a failure here leaves
        ** the next tests their usual limits */
        assert_int_equal(setenv("CAIRN_LUA_CALL_CPU_MS", "20", 1), 0);
        assert_int_equal(setenv("CAIRN_LUA_HARD_STOP_GRACE_MS", "20", 1), 0);
        sandbox *sb = make(&f, SMALL_CAP, SMALL_BUDGET);
        assert_int_equal(unsetenv("CAIRN_LUA_CALL_CPU_MS"), 0);
        assert_int_equal(unsetenv("CAIRN_LUA_HARD_STOP_GRACE_MS"), 0);
        assert_non_null(sb);
        heap_spun = 0;
        if (sigsetjmp(jb, 1) == 0) {
            sandbox_set_escape(&jb);
            lua_State *L = sandbox_state(sb);
            lua_pushcfunction(L, l_spin_on_heap);
            lua_pushboolean(L, bracket);
            sandbox_call(sb, 1, 0, &f.errs);
            fail_msg("the hard stop did not leave the call");
        }
        cerr_list errs;
        cerr_init(&errs, 0);
        heap_lost[bracket] = sandbox_escaped(&errs);
        assert_ptr_equal(heap_lost[bracket], sb);
        cerr_free(&errs);
        cerr_free(&f.errs);
        assert_int_equal(heap_spun, bracket); /* waited: finished; else left half-way */
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hard_stop_waits_for_the_heap),
        cmocka_unit_test_setup_teardown(removed_capabilities_are_absent, setup, teardown),
        cmocka_unit_test_setup_teardown(load_accepts_only_text, setup, teardown),
        cmocka_unit_test_setup_teardown(require_refuses_paths, setup, teardown),
        cmocka_unit_test_setup_teardown(require_loads_once_per_state, setup, teardown),
        cmocka_unit_test_setup_teardown(require_search_order, setup, teardown),
        cmocka_unit_test_setup_teardown(require_loop_and_syntax_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(budget_stops_an_endless_loop, setup, teardown),
        cmocka_unit_test_setup_teardown(budget_cannot_be_caught, setup, teardown),
        cmocka_unit_test_setup_teardown(budget_holds_inside_coroutines, setup, teardown),
        cmocka_unit_test_setup_teardown(budget_counts_c_loops, setup, teardown),
        cmocka_unit_test_setup_teardown(pattern_backtracking_is_budgeted, setup, teardown),
        cmocka_unit_test_setup_teardown(ordinary_patterns_cost_little, setup, teardown),
        cmocka_unit_test_setup_teardown(long_patterns_are_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(patterns_answer_as_lua_does, setup, teardown),
        cmocka_unit_test_setup_teardown(memory_cap_stops_string_rep, setup, teardown),
        cmocka_unit_test_setup_teardown(memory_cap_stops_growth_bombs, setup, teardown),
        cmocka_unit_test_setup_teardown(memory_cap_is_configurable, setup, teardown),
        cmocka_unit_test_setup_teardown(frozen_tables_refuse_writes, setup, teardown),
        cmocka_unit_test_setup_teardown(frozen_tables_read_as_usual, setup, teardown),
        cmocka_unit_test_setup_teardown(libraries_are_read_only, setup, teardown),
        cmocka_unit_test_setup_teardown(gc_dependent_metatables_are_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(pairs_order_is_fixed, setup, teardown),
        cmocka_unit_test_setup_teardown(pairs_order_is_the_same_in_two_states, setup, teardown),
        cmocka_unit_test_setup_teardown(sort_is_stable, setup, teardown),
        cmocka_unit_test_setup_teardown(no_addresses_reach_scripts, setup, teardown),
        cmocka_unit_test_setup_teardown(errors_name_file_and_line, setup, teardown),
        cmocka_unit_test_setup_teardown(errors_in_a_ruleset_file, setup, teardown),
        cmocka_unit_test_setup_teardown(engine_globals, setup, teardown),
        cmocka_unit_test_setup_teardown(strict_len_keeps_meaning, setup_strict, teardown),
        cmocka_unit_test_setup_teardown(plain_len_is_searched, setup, teardown),
        cmocka_unit_test_setup_teardown(plain_len_matches_the_doubling_search, setup, teardown),
        cmocka_unit_test_setup_teardown(len_at_lua_limits, setup, teardown),
        cmocka_unit_test_setup_teardown(empty_tables_get_room, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
