-- .luacheckrc: written by tools/gen-lua-config from the globals a live sandbox
-- gives a ruleset's Lua (interpreter/sandbox/sandbox.c's allow-lists); do not
-- edit. luacheck reads it from the repo's root: `luacheck rulesets stdlib`.
-- make test runs it (tools/check-reference); docs/editors.md.
std = "cairn"
stds.cairn = {
  read_globals = {
    "_VERSION",
    "assert",
    "error",
    "getmetatable",
    "ipairs",
    "load",
    "next",
    "pairs",
    "pcall",
    "print",
    "rawequal",
    "rawget",
    "rawlen",
    "rawset",
    "require",
    "select",
    "setmetatable",
    "tonumber",
    "tostring",
    "type",
    "xpcall",
    _G = {fields = {}},
    coroutine = {fields = {"create", "isyieldable", "resume", "running", "status", "wrap", "yield"}},
    math = {fields = {"abs", "acos", "asin", "atan", "ceil", "cos", "exp", "floor", "fmod", "huge", "log", "max", "maxinteger", "min", "mininteger", "modf", "pi", "sin", "sqrt", "tan", "tointeger", "type", "ult"}},
    string = {fields = {"byte", "char", "find", "format", "gmatch", "gsub", "len", "lower", "match", "pack", "packsize", "rep", "reverse", "sub", "unpack", "upper"}},
    table = {fields = {"concat", "insert", "move", "pack", "remove", "sort", "unpack"}},
    utf8 = {fields = {"char", "charpattern", "codepoint", "codes", "len", "offset"}},
  },
}
-- every other warning is on: unused variables, values and arguments, shadowing,
-- unreachable code, empty blocks, ... (docs/editors.md says why these few are off):
-- a handler's arguments are the engine's ((g, seat, id), (view, seat, g)), and the
-- helpers a handler dispatches to take the same, whether each reads them or not
ignore = {"212/g", "212/seat", "212/id", "212/view"}
-- a line quoting the rulebook or making one log line runs long; past 160 is reported
max_line_length = 160
-- the Lua unit tests (`unit:` in a manifest) also see `test` (docs/testing.md); each
-- test case builds its own game `g` (and `st`, `p`) in a block, shadowing the file's
files["**/tests/**/*.lua"] = {read_globals = {"test"}, ignore = {"431/g", "431/st", "431/p", "431/who"}}
-- the stdlib's own tests run in plain Lua 5.4 (test_stdlib), not in the sandbox
files["tests/lua/**/*.lua"] = {std = "lua54"}
-- what is not a ruleset's Lua: the annotations, the tools, scratch builds
exclude_files = {"build/**", "build-*/**", "editors/**", "tools/**", "tests/fixtures/**", "tests/attacks/**", "tests/fuzz/**"}
