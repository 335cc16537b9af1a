/*
** scaffold.c
** `cairn new NAME [--extends RULESET]`: a ruleset folder that passes `cairn
** check` and `cairn test` the moment it is made, to start a game from. A new
** game is a small Nim (take 1 to 3 from a pile; who takes the last wins), in
** the fast decision form, with a data table and its schema, text, a state
** schema, scenario tests with their arithmetic, a golden playthrough and a
** README that walks through each file. With --extends it is a mod that
** restates nothing yet. Nothing existing is ever overwritten.
*/
#include "scaffold.h"
#include "error.h"
#include "ruleset.h"
#include "termsafe.h"
#include "testrun.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct template_file {
    const char *path; /* below the new folder; "%s" stands for the name */
    const char *text; /* "%s" stands for the name (at most twice, see write_file) */
} template_file;

static const template_file GAME[] = {
    {"ruleset.yaml",
     "# ruleset.yaml: the manifest (docs/ruleset-format.md). %s is a Nim: a pile of\n"
     "# stones, each player takes 1 to 3 in turn, who takes the last one wins.\n"
     "id: %s\n"
     "name: %s\n"
     "version: \"0.1\"\n"
     "description: Take 1 to 3 stones in turn; who takes the last one wins.\n"
     "players: {min: 2, max: 2, default: 2}\n"
     "languages: [en]\n"
     "rules: rules.lua\n"
     "data:\n"
     "  pile: {file: data/pile.yaml, schema: schemas/pile.schema.yaml}\n"
     "text:\n"
     "  en: text/en.yaml\n"
     "state_schema: schemas/state.schema.yaml\n"
     "visibility:\n"
     "  - path: pile\n"
     "    policy: public\n"
     "tests:\n"
     "  - tests/scenarios.yaml\n"
     "golden:\n"
     "  - {file: golden/seed-1.txt, seed: 1, players: 2}\n"},
    {"data/pile.yaml",
     "# yaml-language-server: $schema=../schemas/pile.schema.yaml\n"
     "# The pile and how much a turn may take: change a number, `reload` in a game.\n"
     "stones: 15\n"
     "take_at_most: 3\n"},
    {"schemas/pile.schema.yaml",
     "# pile.schema.yaml: data/pile.yaml (docs/schemas.md)\n"
     "$schema: https://json-schema.org/draft/2020-12/schema\n"
     "type: object\n"
     "additionalProperties: false\n"
     "required: [stones, take_at_most]\n"
     "properties:\n"
     "  stones: {type: integer, minimum: 1, maximum: 1000}\n"
     "  take_at_most: {type: integer, minimum: 1, maximum: 20}\n"},
    {"schemas/state.schema.yaml",
     "# state.schema.yaml: g.state, checked after every decision in cairn check and test\n"
     "$schema: https://json-schema.org/draft/2020-12/schema\n"
     "type: object\n"
     "additionalProperties: false\n"
     "required: [pile, turn, winner]\n"
     "properties:\n"
     "  pile: {type: integer, minimum: 0}\n"
     "  turn: {type: integer, minimum: 1, maximum: 2}\n"
     "  winner: {type: integer, minimum: 0, maximum: 2}\n"},
    {"text/en.yaml",
     "# Every text a player reads, by key (g.text), with string.format fields; a text that\n"
     "# counts has plural forms, chosen by its first integer argument (docs/lua-api.md).\n"
     "howto: |\n"
     "  Goal: take the last stone.\n"
     "  A turn: take 1 stone or more from the pile, up to the most the data allows.\n"
     "legend: |\n"
     "  The board shows how many stones are left in the pile.\n"
     "prompt: \"%%s, take 1 to %%d stones (%%d left)\"\n"
     "take: {one: \"take %%d stone\", other: \"take %%d stones\"}\n"
     "too_many: \"only %%d left\"\n"
     "takes: \"%%s takes %%d, %%d left\"\n"
     "wins: \"%%s takes the last stone and wins\"\n"
     "win: win\n"},
    {"rules.lua",
     "-- rules.lua: %s, a Nim. Every handler cairn calls is here (docs/lua-api.md).\n"
     "\n"
     "-- The ---@ lines are LuaLS annotations (docs/editors.md): with .luarc.json they\n"
     "-- let an editor complete g. and check each handler's arguments.\n"
     "---@type cairn.Rules\n"
     "---@diagnostic disable-next-line: missing-fields\n"
     "local rules = {}\n"
     "\n"
     "---@param g cairn.G\n"
     "---@return integer\n"
     "local function pile(g) return g.data.pile end\n"
     "\n"
     "-- \"take 1\" ... \"take N\", made once per game: decisions() runs after every move.\n"
     "local take_ids, amount_of = {}, {}\n"
     "---@param n integer\n"
     "---@return string\n"
     "local function take_id(n)\n"
     "  local id = take_ids[n]\n"
     "  if not id then\n"
     "    id = \"take \" .. n\n"
     "    take_ids[n], amount_of[id] = id, n\n"
     "  end\n"
     "  return id\n"
     "end\n"
     "\n"
     "---@param g cairn.G\n"
     "function rules.setup(g)\n"
     "  g.state.pile = pile(g).stones\n"
     "  g.state.turn = 1\n"
     "  g.state.winner = 0\n"
     "end\n"
     "\n"
     "-- The seat to move may take 1 to take_at_most; more than the pile holds is\n"
     "-- offered disabled (its reason from rules.reason). No one is asked once won.\n"
     "---@param g cairn.G\n"
     "---@return cairn.Decision[]\n"
     "function rules.decisions(g)\n"
     "  local st = g.state\n"
     "  if st.winner ~= 0 then return {} end\n"
     "  local options = {}\n"
     "  for n = 1, pile(g).take_at_most do\n"
     "    options[n] = n <= st.pile and take_id(n) or { id = take_id(n), disabled = true }\n"
     "  end\n"
     "  return { { seat = st.turn, options = options } }\n"
     "end\n"
     "\n"
     "---@param g cairn.G\n"
     "---@param seat integer\n"
     "---@return string\n"
     "function rules.prompt(g, seat)\n"
     "  return g.text(\"prompt\", g.seats[seat].name, pile(g).take_at_most, g.state.pile)\n"
     "end\n"
     "---@param g cairn.G\n"
     "---@param seat integer\n"
     "---@param id string\n"
     "---@return string\n"
     "function rules.label(g, seat, id) return g.text(\"take\", amount_of[id]) end\n"
     "---@param g cairn.G\n"
     "---@param seat integer\n"
     "---@param id string\n"
     "---@return string\n"
     "function rules.reason(g, seat, id) return g.text(\"too_many\", g.state.pile) end\n"
     "\n"
     "---@param g cairn.G\n"
     "---@param seat integer\n"
     "---@param id string\n"
     "function rules.apply(g, seat, id)\n"
     "  local st, n = g.state, amount_of[id]\n"
     "  st.pile = st.pile - n\n"
     "  g.log_text(\"takes\", g.seats[seat].name, n, st.pile)\n"
     "  if st.pile == 0 then\n"
     "    st.winner = seat\n"
     "    g.log_text(\"wins\", g.seats[seat].name)\n"
     "  else\n"
     "    st.turn = 3 - seat\n"
     "  end\n"
     "end\n"
     "\n"
     "---@param g cairn.G\n"
     "---@return cairn.Scores\n"
     "function rules.score(g)\n"
     "  local scores = {}\n"
     "  for seat = 1, #g.seats do\n"
     "    local won = g.state.winner == seat and 1 or 0\n"
     "    scores[seat] = { total = won, breakdown = { { label = g.text(\"win\"), points = won } } }\n"
     "  end\n"
     "  return scores\n"
     "end\n"
     "\n"
     "---@param view table the state as seat may see it\n"
     "---@param seat integer?\n"
     "---@param g cairn.G\n"
     "---@return string\n"
     "function rules.render(view, seat, g)\n"
     "  return string.rep(\"o \", view.pile) .. \"(\" .. view.pile .. \")\"\n"
     "end\n"
     "\n"
     "-- For bots that look ahead, added to the score (a finished game is judged by\n"
     "-- its result): a pile that is a multiple of take_at_most + 1 is lost for the\n"
     "-- seat to move.\n"
     "---@param g cairn.G\n"
     "---@param seat integer\n"
     "---@return integer\n"
     "function rules.heuristic(g, seat)\n"
     "  local losing = g.state.pile %% (pile(g).take_at_most + 1) == 0\n"
     "  return (losing == (g.state.turn == seat)) and -1 or 1\n"
     "end\n"
     "\n"
     "---@param g cairn.G\n"
     "---@return string?\n"
     "function rules.check(g)\n"
     "  if g.state.pile < 0 then return \"the pile went below zero\" end\n"
     "end\n"
     "\n"
     "return rules\n"},
    {"tests/scenarios.yaml",
     "# Scenario tests (docs/testing.md), run by `cairn test`. Each expected number is\n"
     "# worked out by hand in the comment beside it.\n"
     "\n"
     "- name: takes come off the pile and the turn passes\n"
     "  names: [Ann, Bob]\n"
     "  play: [\"1 take 3\", \"2 take 2\"]\n"
     "  expect:\n"
     "    seat: 1\n"
     "    state: {pile: 10, turn: 1}   # 15 - 3 - 2 = 10, back to Ann\n"
     "    events: [\"Ann takes 3, 12 left\", \"Bob takes 2, 10 left\"]\n"
     "\n"
     "- name: more than the pile is offered disabled, with the reason\n"
     "  names: [Ann, Bob]\n"
     "  state: {pile: 2, turn: 1, winner: 0}\n"
     "  expect:\n"
     "    enabled: [\"take 1\", \"take 2\"]\n"
     "    disabled: {\"take 3\": \"only 2 left\"}\n"
     "  refuse:\n"
     "    - {play: \"1 take 3\", reason: \"only 2 left\"}\n"
     "    - {play: \"2 take 1\", reason: \"not asked\"}\n"
     "\n"
     "- name: who takes the last stone wins\n"
     "  names: [Ann, Bob]\n"
     "  state: {pile: 2, turn: 1, winner: 0}\n"
     "  play: [\"1 take 2\"]\n"
     "  expect:\n"
     "    over: true\n"
     "    state: {pile: 0, winner: 1}   # 2 - 2 = 0: Ann took the last\n"
     "    score: [1, 0]\n"},
    {"README.md",
     "# %s\n"
     "\n"
     "A new cairn ruleset, made by `cairn new`: a Nim (take 1 to 3 stones in turn; who\n"
     "takes the last one wins), ready to become your game. It passes `cairn check` and\n"
     "`cairn test` as it is. The files, in the order cairn reads them:\n"
     "\n"
     "- `ruleset.yaml`, the manifest: names the rules script, the data table with its\n"
     "  schema, the text, the state schema, what is visible to whom, the tests and the\n"
     "  golden playthrough (docs/ruleset-format.md).\n"
     "- `data/pile.yaml` and `schemas/pile.schema.yaml`: the numbers of the game, checked\n"
     "  against their schema when the ruleset loads (an editor with yaml-language-server\n"
     "  checks them as you type: see the first line).\n"
     "- `text/en.yaml`: every text a player reads, with `string.format` fields; plural forms\n"
     "  (`{one: ..., other: ...}`); `howto` and `legend`, which `rules` shows in the console.\n"
     "- `rules.lua`: `setup`, `decisions` (the fast form: option ids; labels, prompt and\n"
     "  reasons come from `label`, `prompt` and `reason` when someone looks), `apply`,\n"
     "  `score`, `render`, `heuristic` and `check` (docs/lua-api.md).\n"
     "- `schemas/state.schema.yaml`: what `g.state` must look like after every decision.\n"
     "- `tests/scenarios.yaml`: scenario tests; `golden/seed-1.txt`: a seeded game's whole\n"
     "  transcript, made by `cairn test . --regen` (review changes to it with git diff).\n"
     "- `.luarc.json`: tells lua-language-server (VS Code, Neovim) where cairn's Lua API\n"
     "  annotations and stdlib are, so `g.` completes (docs/editors.md).\n"
     "\n"
     "Try it: `cairn play .`, `cairn check .`, `cairn test .`, `cairn sim . --games 1000`.\n"},
};

static const template_file MOD[] = {
    {"ruleset.yaml",
     "# ruleset.yaml: a mod (docs/ruleset-format.md): it restates only what it\n"
     "# changes of the ruleset it extends, and its own id and name (both required).\n"
     "# Add an overlay or an option here.\n"
     "id: %s\n"
     "name: %s\n"
     "extends: %s\n"},
    {"README.md",
     "# %s\n"
     "\n"
     "A mod of `%s` made by `cairn new --extends`: it changes nothing yet. Add an option\n"
     "with an overlay and a script to its manifest (docs/ruleset-format.md), then tests of\n"
     "its own (a mod runs its parent's only with `inherit: [tests, golden, unit]`).\n"
     "docs/modding.md walks through a whole mod of Yak, from an option to its balance.\n"},
};

/* The longest --extends: a ruleset name or a path to one. */
#define SCAFFOLD_EXTENDS_MAX 1024

/* Letters, digits, '-' and '_', starting with a letter: an id and a folder. */
static int valid_name(const char *s) {
    if (!s || !((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z'))) return 0;
    size_t n = 0;
    for (const char *p = s; *p; p++, n++) {
        char c = *p;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
              c == '_'))
            return 0;
    }
    return n <= 64;
}

/* Makes dir/<the folders of rel>; 0 or -1 with errno. */
static int make_parents(const char *dir, const char *rel) {
    char path[4096];
    for (const char *p = strchr(rel, '/'); p; p = strchr(p + 1, '/')) {
        if (snprintf(path, sizeof path, "%s/%.*s", dir, (int)(p - rel), rel) >= (int)sizeof path) return -1;
        if (mkdir(path, 0777) != 0 && errno != EEXIST) return -1;
    }
    return 0;
}

/* Writes one file with its "%s" fields (up to three) set to a, b, c. */
static int write_file(const char *dir, const template_file *t, const char *a, const char *b, const char *c,
                      cerr_list *errs) {
    char path[4096];
    if (snprintf(path, sizeof path, "%s/%s", dir, t->path) >= (int)sizeof path || make_parents(dir, t->path) != 0) {
        cerr_add(errs, path, 0, 0, NULL, "cannot make its folder: %s", strerror(errno));
        return -1;
    }
    FILE *f = fopen(path, "wx"); /* never over an existing file */
    if (!f) {
        cerr_add(errs, path, 0, 0, NULL, "cannot write: %s", strerror(errno));
        return -1;
    }
    int bad = fprintf(f, t->text, a, b, c) < 0;
    bad |= fclose(f) != 0;
    if (bad) cerr_add(errs, path, 0, 0, NULL, "cannot write: %s", strerror(errno));
    return bad ? -1 : 0;
}

/* dir/.luarc.json: lua-language-server reads cairn's annotations (editors/luals, next to
** cairn's schemas folder: the checkout's or the installed share) and the stdlib's
** sources, so `require "cairn.bag"` completes too (docs/editors.md). */
static int write_luarc(const char *dir, cerr_list *errs) {
    char path[4096];
    char *schemas = realpath(ruleset_schemas_dir(), NULL), *stdlib = realpath(ruleset_stdlib_dir(), NULL);
    if (!schemas || !stdlib) {
        free(schemas);
        free(stdlib);
        cerr_add(errs, dir, 0, 0, NULL, "cannot find cairn's schemas and stdlib folders for .luarc.json: %s",
                 strerror(errno));
        return -1;
    }
    char *slash = strrchr(schemas, '/');
    if (slash) *slash = '\0';
    FILE *f = snprintf(path, sizeof path, "%s/.luarc.json", dir) < (int)sizeof path ? fopen(path, "wx") : NULL;
    if (!f) {
        free(schemas);
        free(stdlib);
        cerr_add(errs, path, 0, 0, NULL, "cannot write: %s", strerror(errno));
        return -1;
    }
    int bad = fprintf(f,
                      "{\n"
                      "  \"$schema\": \"https://raw.githubusercontent.com/LuaLS/vscode-lua/master/setting/schema.json\",\n"
                      "  \"runtime.version\": \"Lua 5.4\",\n"
                      "  \"runtime.path\": [\"?.lua\", \"?/init.lua\"],\n"
                      /* the libraries the sandbox has none of, as tools/gen-lua-config
                      ** writes them into the repo's .luarc.json (check-reference compares) */
                      "  \"runtime.builtin\": {\"io\": \"disable\", \"os\": \"disable\", \"debug\": \"disable\", "
                      "\"package\": \"disable\", \"ffi\": \"disable\", \"jit\": \"disable\", \"bit\": \"disable\", "
                      "\"bit32\": \"disable\"},\n"
                      "  \"workspace.library\": [\"%s/editors/luals\", \"%s\"],\n"
                      "  \"workspace.checkThirdParty\": false,\n"
                      "  \"diagnostics.globals\": [\"test\"],\n"
                      "  \"diagnostics.severity\": {\"undefined-global\": \"Error\"}\n"
                      "}\n",
                      schemas, stdlib) < 0;
    free(schemas);
    free(stdlib);
    bad |= fclose(f) != 0;
    if (bad) cerr_add(errs, path, 0, 0, NULL, "cannot write: %s", strerror(errno));
    return bad ? -1 : 0;
}

int scaffold_new(const char *dir, const char *name, const char *extends, FILE *out, cerr_list *errs) {
    if (!valid_name(name)) {
        cerr_add(errs, NULL, 0, 0, NULL,
                 "\"%s\" is not a ruleset name: letters, digits, '-' and '_', starting with a letter, "
                 "at most 64", name ? name : "");
        return -1;
    }
    /* the parent's name goes into the manifest: no line break or control
    ** may add keys to it (`connect4\nrules: injected.lua`), and it is
    ** written as a quoted YAML string */
    if (extends && (!extends[0] || strpbrk(extends, "\n\t\r") || !termsafe_is_safe(extends) ||
                    strlen(extends) > SCAFFOLD_EXTENDS_MAX)) {
        char *shown = termsafe_text(extends);
        cerr_add(errs, NULL, 0, 0, NULL, "--extends \"%s\" is not a ruleset name or path: no line breaks, "
                 "control or invisible characters, 1 to %d bytes", shown ? shown : "?", SCAFFOLD_EXTENDS_MAX);
        free(shown);
        return -1;
    }
    if (mkdir(dir, 0777) != 0) {
        cerr_add(errs, dir, 0, 0, NULL, "cannot make the folder: %s", errno == EEXIST ? "it exists already (cairn new never writes over anything)" : strerror(errno));
        return -1;
    }
    const template_file *files = extends ? MOD : GAME;
    size_t n = extends ? sizeof MOD / sizeof *MOD : sizeof GAME / sizeof *GAME;
    char quoted[2 * SCAFFOLD_EXTENDS_MAX + 3]; /* "...", each \ and " escaped */
    size_t q = 0;
    quoted[q++] = '"';
    for (const char *p = extends ? extends : ""; *p; p++) {
        if (*p == '"' || *p == '\\') quoted[q++] = '\\';
        quoted[q++] = *p;
    }
    quoted[q++] = '"';
    quoted[q] = '\0';
    for (size_t i = 0; i < n; i++) {
        /* the manifest of a game takes the name three times; a mod's takes name, name, parent */
        const char *third = extends ? quoted : name;
        const char *second = extends && strcmp(files[i].path, "README.md") == 0 ? extends : name;
        if (write_file(dir, &files[i], name, second, third, errs) != 0) return -1;
    }
    if (write_luarc(dir, errs) != 0) return -1;
    if (!extends) { /* the golden playthrough, made the way a modder remakes it */
        char golden[4096];
        if (snprintf(golden, sizeof golden, "%s/golden", dir) >= (int)sizeof golden || mkdir(golden, 0777) != 0) {
            cerr_add(errs, golden, 0, 0, NULL, "cannot make the folder: %s", strerror(errno));
            return -1;
        }
        FILE *quiet = fopen("/dev/null", "w");
        int rc = testrun_ruleset(dir, 1, 0, quiet ? quiet : out, errs);
        if (quiet) fclose(quiet);
        if (rc != 0) return -1;
    }
    fprintf(out, "made %s: a %s that passes `cairn check %s` and `cairn test %s`; start with its README.md\n",
            dir, extends ? "mod" : "new game", dir, dir);
    return 0;
}

static const cli_flag new_rows[] = {
    {"extends", 'e', 1, "RULESET", CLI_RULESET, NULL, "make a mod of RULESET instead of a new game"},
};
static const cli_table new_table = CLI_TABLE(new_rows);
const cli_table *const scaffold_flag_tables[] = {&new_table, NULL};

int scaffold_command(int argc, char **argv) {
    const char *name = NULL, *extends = NULL;
    cli_parser p;
    cli_item it;
    char *why;
    int got;
    cli_start(&p, argc, argv, scaffold_flag_tables);
    while ((got = cli_next(&p, &it, &why)) > 0) {
        if (cli_is(&it, "extends")) {
            extends = it.values[0];
        } else if (name) {
            fprintf(stderr, "cairn new: one name at a time; \"%s\" is one too many\nusage: %s\n", it.values[0],
                    SCAFFOLD_USAGE);
            return 2;
        } else {
            name = it.values[0];
        }
    }
    if (got < 0) {
        fprintf(stderr, "cairn new: %s\nusage: %s\n", why ? why : "out of memory", SCAFFOLD_USAGE);
        free(why);
        return 2;
    }
    if (!name) {
        fprintf(stderr, "cairn new: which name?\nusage: %s\n", SCAFFOLD_USAGE);
        return 2;
    }
    /* a path, so that cairn reads the new folder and not a ruleset of that name */
    char dir[4096];
    if (snprintf(dir, sizeof dir, "./%s", name) >= (int)sizeof dir) return 2;
    cerr_list errs;
    cerr_init(&errs, 0);
    int rc = scaffold_new(dir, name, extends, stdout, &errs);
    if (rc != 0) {
        cerr_print(stderr, &errs);
        fprintf(stderr, "cairn new %s: nothing more was made\n", name);
    }
    cerr_free(&errs);
    return rc == 0 ? 0 : 1;
}
