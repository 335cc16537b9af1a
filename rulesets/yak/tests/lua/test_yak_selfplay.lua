-- rulesets/yak/tests/lua/test_yak_selfplay.lua
-- Plays random legal Yak games to the end with the fake g: every seat count, with and
-- without master builder, checking the invariants after every decision and that every
-- rendered line fits 80 columns and every score breakdown adds up to its total. One
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

local function check_render(g)
  for seat = 0, #g.seats do
    local text = g.rules.render(view_of(g, seat > 0 and seat or nil), seat > 0 and seat or nil, g)
    for line in (text .. "\n"):gmatch("(.-)\n") do
      assert(visible(line) <= 80, "render line too wide (" .. visible(line) .. "): " .. line)
      assert(not line:match(" $"), "render line ends in a space: " .. line)
    end
  end
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
    if steps % 25 == 0 then check_render(g) end
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
