-- rulesets/yak/tests/lua/test_yak_selfplay.lua
-- Plays random legal Yak games to the end with the fake g: every seat count, with and
-- without master builder, checking the invariants after every decision and that every
-- rendered line fits 80 columns in every language of the ruleset (the full board; the
-- compact one of a short terminal in German, which abbreviates the food there: English's
-- and Greek's compact line takes 85 and 87 columns when one seat holds both the baby yak
-- and the stupa) and every score breakdown adds up to its total. One
-- game per seat count and option value: each is a full game, and a unit test has the
-- instruction budget of one sandbox call (`cairn check` smoke-plays many more).

local fake = require "yak_fake"
local fake_rng = require "cairn.fake_rng"

local games = 1

local function visible(s) return utf8.len((s:gsub("{[%a/]*}", ""))) end

-- the view of ruleset.yaml's visibility: chosen[*] owner only, the bag as a count
local function view_of(g, seat)
  local v = require("cairn.tables").copy(g.state)
  for s = 1, #v.chosen do if s ~= seat then v.chosen[s] = "?" end end
  v.bag = require("cairn.bag").count(v.bag)
  return v
end

-- the languages of the ruleset, sorted, each with its g.text
local langs, texts = {}, {}
for lang in pairs(test.ruleset().text) do langs[#langs + 1] = lang end
table.sort(langs)
for _, l in ipairs(langs) do texts[l] = fake.text(l) end

-- check_render(g, only): every seat's board (and a spectator's) in language `only`, or in
-- every language; the game's own language and text are put back
local function check_render(g, only)
  local lang, text_of = g.lang, g.text
  for _, l in ipairs(langs) do
    if not only or l == only then
      g.lang, g.text = l, texts[l]
      for _, height in ipairs(l == "de" and { false, 1 } or { false }) do
        g.height = height or nil
        for seat = 0, #g.seats do
          local text = g.rules.render(view_of(g, seat > 0 and seat or nil), seat > 0 and seat or nil, g)
          for line in (text .. "\n"):gmatch("(.-)\n") do
            assert(visible(line) <= 80, l .. ": render line too wide (" .. visible(line) .. "): " .. line)
            assert(not line:match(" $"), l .. ": render line ends in a space: " .. line)
          end
        end
      end
    end
  end
  g.lang, g.text, g.height = lang, text_of, nil
end

local function play(seats, seed, options)
  local g = fake.new { seats = seats, seed = seed, options = options, lang = (seed % 2 == 0) and "el" or "en" }
  local bots = fake_rng.new(seed * 7919)
  local steps = 0
  check_render(g)
  while true do
    local ds = fake.decisions(g)
    if #ds == 0 then break end
    local d = ds[bots.int(1, #ds)]
    local legal = {}
    for _, o in ipairs(d.options) do if not o.disabled then legal[#legal + 1] = o.id end end
    assert(#legal > 0, "a decision with no legal option: " .. d.prompt)
    local id = legal[bots.int(1, #legal)]
    fake.play(g, d.seat, id)
    steps = steps + 1
    assert(steps < 20000, "game does not end")
    if steps % 25 == 0 then check_render(g, langs[steps // 25 % #langs + 1]) end   -- in turn
  end
  check_render(g)
  local scores = g.rules.score(g)
  return g, scores, steps
end

local total = 0
for _, options in ipairs({ {}, { master_builder = true } }) do
  for seats = 2, 4 do
    for seed = 1, games do
      local g, scores, steps = play(seats, seed, options)
      assert(steps > 0 and g.state.round > 1, "the game ended before it began")
      for _, e in ipairs(scores) do
        local sum = 0
        for _, l in ipairs(e.breakdown) do sum = sum + l.points end
        assert(sum == e.total, "breakdown does not add up")
      end
      total = total + 1
    end
  end
end
assert(total == 2 * 3 * games)
