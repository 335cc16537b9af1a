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
-- the Lua unit tests (`unit:` in a manifest) also see `test` (docs/testing.md)
files["**/tests/**/*.lua"] = {read_globals = {"test"}}
-- the stdlib's own tests run in plain Lua 5.4 (test_stdlib), not in the sandbox
files["tests/lua/**/*.lua"] = {std = "lua54"}
-- what is not a ruleset's Lua: the annotations, the tools, scratch builds
exclude_files = {"build/**", "build-*/**", "editors/**", "tools/**", "tests/fixtures/**", "tests/attacks/**", "tests/fuzz/**"}
-- a rule handler takes (g, seat, id) whether it reads them or not
unused_args = false
max_line_length = false
