-- rulesets/himalaya/tests/lua/test_himalaya_options.lua
-- The advanced rules' event tokens, played before programming in resolution order: yeti
-- footprints close a path, a snowstorm takes two actions in a row, market day lets the
-- dealer pick any cube. Each token once a game.
local fake = require "hm_fake"

local function game()
  local g = fake.new { seats = 4, seed = 5, options = { events = true } }
  fake.clear_board(g)
  g.state.start, g.state.place_order = 1, { 1, 2, 3, 4 }
  g.state.first = 1
  fake.place_all(g, { 1, 2, 3, 4 })
  g.state.order = { 1, 2, 3, 4 }
  return g
end

-- 1. Yeti: Ann puts footprints on p01 (Namche 1 - Lukla 2, dirt); Bob's dirt from Lukla is wasted.
local g = game()
assert(g.state.phase == "events" and fake.decision(g, 1))
fake.play(g, 1, "yeti p01", "pass")
assert(g.state.players[1].events.yeti == 0)
fake.play(g, 2, "pass") fake.play(g, 3, "pass") fake.play(g, 4, "pass")
assert(g.state.phase == "program")
fake.program(g, { [2] = { "dirt", "rest", "rest", "rest", "rest", "rest" } })
assert(fake.has_event(g, "Slot 1: Bob's dirt road is wasted: yeti footprints close the dirt path from Lukla to Namche."))
assert(g.state.caravans[2] == 2)
--    month 2: the tokens left the board; Ann has no yeti left to play
assert(g.state.month == 2 and g.state.placed.yeti.p01 == nil)
assert(g.state.players[1].events.yeti == 0 and g.state.players[1].events.snowstorm == 1)
--    Bob resolves first in month 2 and may put his own yeti on p01 again
assert(fake.enabled(g, 2):find("yeti p01", 1, true))

-- 2. Snowstorm on p03 (Lukla 2 - Tengboche 3, ice). Bob: ice, ice -> slot 1 caught in the
--    storm, slot 2 crosses to Tengboche. Cai at Tengboche: ice, rest -> caught, then the
--    crossing is lost; Cai stays at Tengboche.
g = game()
fake.play(g, 1, "snowstorm p03", "pass")
fake.play(g, 2, "pass") fake.play(g, 3, "pass") fake.play(g, 4, "pass")
fake.program(g, {
  [2] = { "ice", "ice", "rest", "rest", "rest", "rest" },
  [3] = { "ice", "rest", "rest", "rest", "rest", "rest" },
})
assert(g.state.caravans[2] == 3, "Bob crossed in two actions")
assert(g.state.caravans[3] == 3, "Cai lost the crossing")
assert(fake.has_event(g, "Slot 2: Cai leaves the snowstorm: the crossing is lost."))

-- 3. Market day at Namche (1): cubes salt, tea, gold; Ann deals and may take any: gold.
g = game()
fake.put_cubes(g, 1, { "salt", "tea", "gold" })
fake.play(g, 1, "market 1", "pass")
fake.play(g, 2, "pass") fake.play(g, 3, "pass") fake.play(g, 4, "pass")
fake.program(g, { [1] = { "deal", "rest", "rest", "rest", "rest", "rest" } })
assert(g.state.pending.kind == "market" and fake.enabled(g, 1) == "take salt, take tea, take gold")
fake.play(g, 1, "take gold")
assert(g.state.players[1].cubes.gold == 1 and table.concat(g.state.villages[1].cubes, " ") == "salt tea")
