-- tests/lua/test_himalaya_texts.lua
-- Every language of Himalaya explains the game (`rules`): a how-to-play text and a legend
-- naming every letter the board shows, each with its word in that language (the cube
-- types' letters with their names, the path types' with theirs, the levels' initials, the
-- order's mark and an example order made of those letters); within a language no two cube,
-- path or level letters are the same. Every language has every English key, with the same
-- format fields in the same order (each plural form too), and English's plural texts as
-- plural forms; no text says "(s)". A typed program takes the language's words for the
-- actions (German `programm erde eis handel rast stein handeln`), the ids still.
local fake = require "hm_fake"
local loaded = test.ruleset()
local data = loaded.data
local en = loaded.text.en

-- the format fields of s in order: "%s %d %2d" -> {"%s", "%d", "%2d"}
local function fields(s)
  local out = {}
  for f in s:gmatch("%%[-0-9]*[sd]") do out[#out + 1] = f end
  return table.concat(out, " ")
end

local langs = 0
for lang, t in pairs(loaded.text) do
  langs = langs + 1
  assert(type(t.howto) == "string" and #t.howto > 0, lang .. ": no howto")
  assert(type(t.legend) == "string" and #t.legend > 0, lang .. ": no legend")
  -- every English key, with its fields, and a plural where English has one
  for key, ev in pairs(en) do
    local v = t[key]
    assert(v ~= nil, lang .. ": no " .. key)
    local want = fields(type(ev) == "table" and ev.other or ev)
    if type(ev) == "table" then
      assert(type(v) == "table" and v.one and v.other, lang .. ": " .. key .. " has no plural forms")
    end
    for form, s in pairs(type(v) == "table" and v or { v }) do
      -- (a plural's `count` names which argument chooses the form: no text)
      if form ~= "count" then assert(fields(s) == want, lang .. ": " .. key .. " (" .. tostring(form) .. ") has the fields \"" .. fields(s)
        .. "\", English \"" .. want .. "\"") end
    end
  end
  for key, v in pairs(t) do
    for _, s in pairs(type(v) == "table" and v or { v }) do
      assert(type(s) ~= "string" or not s:find("(s)", 1, true), lang .. ": " .. key .. " says (s)")
    end
  end
  -- the legend names every letter of the board with its word
  local seen = {}
  local function letter(kind, key)
    local l = t[key]
    assert(type(l) == "string" and #l > 0, lang .. ": no " .. key)
    assert(not seen[kind .. l], lang .. ": two " .. kind .. " letters are " .. l)
    seen[kind .. l] = true
    return l
  end
  for _, ty in ipairs(data.resources.types) do
    local l, name = letter("cube", "cube_short." .. ty.id), t["cube." .. ty.id]
    assert(t.legend:find(l .. " " .. name, 1, true), lang .. ": the legend does not explain " .. l .. " " .. name)
  end
  for _, ty in ipairs(data.game.path_types) do
    local l, name = letter("path", "path_short." .. ty), t["path." .. ty]
    assert(t.legend:find(l .. " " .. name, 1, true), lang .. ": the legend does not explain " .. l .. " " .. name)
    assert(t["render.map"]:find(l .. " ", 1, true), lang .. ": the map's heading does not explain " .. l)
  end
  local initials = {}
  for i, lv in ipairs(data.game.levels) do initials[i] = letter("level", "level_short." .. lv.name) end
  assert(t.legend:find("(" .. table.concat(initials, ", ") .. ")", 1, true),
    lang .. ": the legend does not list the levels' initials " .. table.concat(initials, ", "))
  local o = t["render.order_short"]
  local example = o .. "1" .. t["cube_short.barley"] .. "1" .. t["cube_short.gold"]
  assert(t.legend:find(" " .. o .. " ", 1, true), lang .. ": the legend does not explain the order's " .. o)
  assert(t.legend:find(example, 1, true), lang .. ": the legend's example order is not " .. example)
  -- the plural forms choose by count in this language
  local text = test.text(loaded.text, lang)
  assert(text("line.rings", 1) ~= text("line.rings", 2), lang .. ": one ring = two rings?")
  assert(text("log.envoys", "Ann", 1, "R1") ~= text("log.envoys", "Ann", 2, "R1"), lang .. ": one envoy = two envoys?")
end
assert(langs >= 2, "Himalaya ships English only?")

-- forms worked out by hand
local en_text, de_text = test.text(loaded.text, "en"), test.text(loaded.text, "de")
assert(en_text("line.rings", 1) == "yaks on 1 kept ring")
assert(de_text("line.rings", 2) == "Yaks auf 2 behaltenen Ringen")
assert(de_text("line.rings", 1) == "Yaks auf 1 behaltenem Ring")
assert(de_text("log.envoys", "Ann", 1, "R1") == "Ann schickt 1 Delegation in Region R1.")
assert(de_text("log.stupa", "Ann", "Lukla", 1) == "Ann baut einen Stupa in Lukla (1 Punkt).")

-- a program typed in German: the words, prefixes of two letters or more, any case, the ids
local g = fake.new { seats = 3 }
fake.place_all(g, { 1, 2, 3 })
assert(g.state.phase == "program")
g.lang, g.text = "de", de_text
local parse = g.rules.parse
local function ids(r) return type(r) == "table" and table.concat(r, " ") or tostring(r) end
assert(ids(parse(g, 1, "programm erde eis handel rast stein handeln")) == "dirt ice deal rest stone deal")
assert(ids(parse(g, 1, "Programm Erdweg Eispiste Steinpfad Handeln Rast Er")) == "dirt ice stone deal rest dirt")
assert(ids(parse(g, 1, "program dirt ice deal rest stone deal")) == "dirt ice deal rest stone deal")
assert(ids(parse(g, 1, "er ei st")) == "dirt ice stone")
-- "e" is Erde and Eis: no action; a line that does not say "programm" is not a program
assert(parse(g, 1, "programm e") == "„e“ ist keine Aktion: ein Programm besteht aus Erde, Eis, Stein, Handel und Rast")
assert(parse(g, 1, "e") == nil)
-- the board in German: the letters, the level column, the program's words
g.state.programs[1] = { "deal", "dirt" }
local board = require("rules.render").render(g.state, 1, g)
assert(board:find("Dein Programm: Handel Erde", 1, true), board)
assert(board:find(" Kloster ", 1, true) or board:find(" Haus ", 1, true), board)
-- Greek: a plural by hand (2 tokens: the plural form), a program typed in Greek words
-- (χώμα πάγος εμπόριο στάση λίθος), the board's Greek program words and level column
local el_text = test.text(loaded.text, "el")
assert(el_text("line.tokens", 1) == "1 μάρκα απογραφής")
assert(el_text("line.tokens", 2) == "2 μάρκες απογραφής")
g.lang, g.text = "el", el_text
g.state.programs[1] = {}
local got = parse(g, 1, "πρόγραμμα χώμα πάγος εμπόριο στάση λίθος εμπόριο"); assert(ids(got) == "dirt ice deal rest stone deal", ids(got))
assert(ids(parse(g, 1, "program dirt ice deal rest stone deal")) == "dirt ice deal rest stone deal")
g.state.programs[1] = { "deal", "dirt" }
board = require("rules.render").render(g.state, 1, g)
assert(board:find("εμπόριο χώμα", 1, true), board)
assert(board:find(" μονή ", 1, true) or board:find(" σπίτι ", 1, true), board)
g.lang, g.text = "en", en_text
print("test_himalaya_texts ok")
