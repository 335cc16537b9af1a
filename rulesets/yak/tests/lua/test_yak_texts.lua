-- tests/lua/test_yak_texts.lua
-- Every language of Yak explains the game (`rules`): a how-to-play text and a legend
-- naming every stone letter the board shows (the colours' letters and the crystal's come
-- from data/stones.yaml, so a changed letter must change the legend too); no text says
-- "(s)": plurals are plural forms.
local loaded = test.ruleset()
local st = loaded.data.stones
local letters = { st.crystal.letter }
for _, c in ipairs(st.colours) do letters[#letters + 1] = c.letter end
for lang, t in pairs(loaded.text) do
  assert(type(t.howto) == "string" and #t.howto > 0, lang .. ": no howto")
  assert(type(t.legend) == "string", lang .. ": no legend")
  for _, l in ipairs(letters) do
    assert(t.legend:find(l .. " ", 1, true), lang .. ": the legend does not explain " .. l)
  end
  for key, v in pairs(t) do
    local forms = type(v) == "table" and v or { v }
    for _, s in pairs(forms) do
      assert(type(s) ~= "string" or not s:find("(s)", 1, true), lang .. ": " .. key .. " says (s)")
    end
  end
  -- the plural forms choose by count in this language
  local text = test.text(loaded.text, lang)
  assert(text("score.group_count", 1) ~= text("score.group_count", 2), lang .. ": one group = two groups?")
end
assert(test.text(loaded.text, "en")("score.singles", 1) == "1 single stone")
assert(test.text(loaded.text, "el")("score.singles", 2) == "2 μεμονωμένες πέτρες")
assert(test.text(loaded.text, "de")("score.singles", 2) == "2 Einzelsteine")
print("test_yak_texts ok")
