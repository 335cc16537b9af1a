-- tests/lua/test_texts.lua
-- Every language of Kathmandu says what English says: every key of en.yaml, each with the
-- same format fields (%s, %d) in the same order, plural forms where English has them;
-- the manifest's words (description, each option's name and description); the `rules`
-- texts (howto, and a legend naming each die's short form with its colour); short forms
-- as short as English's and all different (the dice on a seat's line, the directions in
-- a move's label); the board's legend2 indented under the legend's items. No text says
-- "(s)": plurals are plural forms.
local loaded = test.ruleset()
local en = loaded.text.en
local OPTIONS = { "long-game", "characters", "tents" }

-- fields(s) -> the format fields of a string in order, "%s%d..."
local function fields(s)
  local out = {}
  for f in s:gmatch("%%[-0-9.]*[%a%%]") do out[#out + 1] = f end
  return table.concat(out)
end

local function forms(v) return type(v) == "table" and v or { other = v } end

local function short_forms(t, prefix, ids, width)
  local seen = {}
  for _, id in ipairs(ids) do
    local s = t[prefix .. id]
    assert(type(s) == "string" and utf8.len(s) == width, prefix .. id .. ": not " .. width .. " wide: " .. tostring(s))
    assert(not seen[s], prefix .. id .. " and " .. tostring(seen[s]) .. " are both " .. s)
    seen[s] = prefix .. id
  end
end

local colours = {}
for _, d in ipairs(loaded.data.game.dice) do colours[#colours + 1] = d.colour end

for lang, t in pairs(loaded.text) do
  for key, v in pairs(en) do
    assert(t[key] ~= nil, lang .. ": no " .. key)
    local want, got = forms(v), forms(t[key])
    for form, s in pairs(want) do
      if form ~= "count" then
        assert(type(got[form]) == "string", lang .. ": " .. key .. " has no form " .. form)
        assert(fields(got[form]) == fields(s), lang .. ": " .. key .. "." .. form .. " has fields "
          .. fields(got[form]) .. ", English " .. fields(s))
      end
    end
    assert(got.count == want.count, lang .. ": " .. key .. " counts another argument")
  end
  if lang ~= "en" then
    assert(type(t.description) == "string", lang .. ": no description")
    for _, id in ipairs(OPTIONS) do
      assert(type(t["option." .. id]) == "string", lang .. ": no option." .. id)
      assert(type(t["option." .. id .. ".description"]) == "string", lang .. ": no option." .. id .. ".description")
    end
  end
  assert(type(t.howto) == "string" and #t.howto > 0, lang .. ": no howto")
  for _, c in ipairs(colours) do
    local named = t["die_short." .. c] .. " " .. t["die." .. c]
    assert(t.legend:find(named, 1, true), lang .. ": the legend does not explain " .. named)
  end
  short_forms(t, "die_short.", colours, utf8.len(en["die_short." .. colours[1]]))
  short_forms(t, "dir_short.", { "north", "east", "south", "west" }, 1)
  local head = t["render.legend"]:match("^(.-)%%s")
  assert(#t["render.legend2"]:match("^ *") == utf8.len(head), lang .. ": legend2 is not indented under " .. head)
  for key, v in pairs(t) do
    for _, s in pairs(forms(v)) do
      assert(type(s) ~= "string" or not s:find("(s)", 1, true), lang .. ": " .. key .. " says (s)")
    end
  end
  -- the plural forms choose by count in this language
  local text = test.text(loaded.text, lang)
  assert(text("score.animals", 1, 4) ~= text("score.animals", 2, 4), lang .. ": one card = two cards?")
end

local el = test.text(loaded.text, "el")
assert(test.text(loaded.text, "en")("log.move", "Ann", 1, "north", "2,1") == "Ann moves 1 field north to 2,1.")
assert(el("log.move", "Ann", 1, "βόρεια", "2,1") == "Ο/Η Ann προχωρά 1 πεδίο βόρεια, στο 2,1.")
assert(el("score.animals", 3, 2) == "ζώα (3 κάρτες x 2)")
assert(el("label.offer", 1) == "κάνε εδώ προσφορά και πάρε ένα κομμάτι χάρτη (απομένει 1 κερί)")
print("test_texts ok")
