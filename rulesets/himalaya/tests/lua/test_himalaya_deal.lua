-- rulesets/himalaya/tests/lua/test_himalaya_deal.lua
-- Deal and delivery: the contested cube (the earlier seat in slot order takes the cheapest),
-- one cube per village per round, wasted actions with their reasons, a delivery with each
-- of the three reward pairs, envoys by level (and under upheaval), a move with no path.
local fake = require "hm_fake"

-- a 4-seat game at month 1 programming, empty board, caravans Ann 1, Bob 2, Cai 3, Dee 4,
-- play order Bob, Cai, Dee, Ann (Bob resolves first)
local function game(opts)
  local g = fake.new { seats = 4, seed = 2, options = opts }
  fake.clear_board(g)
  g.state.start = 1
  g.state.place_order = { 1, 2, 3, 4 }
  fake.place_all(g, { 1, 2, 3, 4 })
  g.state.first, g.state.order = 2, { 2, 3, 4, 1 }
  return g
end
local R6 = { "rest", "rest", "rest", "rest", "rest", "rest" }

-- 1. Contested cube. Namche (1) holds tea, salt, gold: cheapest first salt, tea, gold.
--    Slot 1: Bob takes the dirt path Lukla (2) -> Namche (1). Slot 2: Bob then Ann deal:
--    Bob (earlier in play order) takes salt, Ann takes tea; gold is left.
--    Slot 3: both deal again at Namche: wasted, one cube per village per round.
local g = game()
fake.put_cubes(g, 1, { "tea", "salt", "gold" })
assert(table.concat(g.state.villages[1].cubes, " ") == "salt tea gold")
fake.program(g, {
  [1] = { "rest", "deal", "deal", "rest", "rest", "rest" },
  [2] = { "dirt", "deal", "deal", "rest", "rest", "rest" },
})
assert(g.state.players[2].cubes.salt == 1 and g.state.players[2].cubes.tea == 0, "Bob took the salt")
assert(g.state.players[1].cubes.tea == 1 and g.state.players[1].cubes.salt == 0, "Ann took the tea")
-- 3 cubes - 2 taken = 1 left, and slot 3 took nothing; then the refill put 5 villages x 5
-- cubes: Namche still holds cubes (gold), so it is not refilled
assert(g.state.villages[1].cubes[1] == "gold" and #g.state.villages[1].cubes == 1)
assert(fake.has_event(g, "Slot 3: Bob's deal is wasted: Bob already took a cube at Namche this month."))
assert(fake.has_event(g, "Slot 3: Ann's deal is wasted: Ann already took a cube at Namche this month."))

-- 2. Wasted moves and deals, each with its reason: Namche (1) has no stone path; Tengboche (3)
--    is empty; Dee at Dingboche (4) lacks the order's cubes.
g = game()
fake.put_ring(g, 4, "o08")            -- o08: 1 barley + 1 jade (7 yaks)
fake.give(g, 4, { barley = 1 })
fake.program(g, {
  [1] = { "stone", "rest", "rest", "rest", "rest", "rest" },
  [3] = { "deal", "rest", "rest", "rest", "rest", "rest" },
  [4] = { "deal", "rest", "rest", "rest", "rest", "rest" },
})
assert(fake.has_event(g, "Slot 1: Ann's stone path is wasted: no stone path from Namche."))
assert(fake.has_event(g, "Slot 1: Cai's deal is wasted: nothing left to take at Tengboche."))
assert(fake.has_event(g, "Slot 1: Dee's deal is wasted: needs 1 jade, holds 0."))
assert(g.state.caravans[1] == 1 and g.state.villages[4].ring == "o08")

-- 3. Deliveries with each reward pair. Lukla (2) is a temple (level 2) bordering r1, r2.
--    Bob holds 2 salt; o01 wants 2 salt (2 yaks). The cubes go back into the bag.
local function deliver(pair, opts)
  local g = game(opts)
  fake.put_ring(g, 2, "o01")
  fake.give(g, 2, { salt = 2 })
  local salt_in_bag = g.state.bag.salt
  fake.play(g, 1, table.unpack(R6)) fake.play(g, 1, "ready")
  fake.play(g, 3, table.unpack(R6)) fake.play(g, 3, "ready")
  fake.play(g, 4, table.unpack(R6)) fake.play(g, 4, "ready")
  fake.play(g, 2, "deal", "rest", "rest", "rest", "rest", "rest", "ready")
  assert(g.state.pending.kind == "reward" and g.state.pending.seat == 2)
  assert(fake.enabled(g, 2) == "ring stupa, ring envoys, stupa envoys")
  assert(g.state.bag.salt == salt_in_bag + 2, "2 salt back into the bag")
  assert(g.state.players[2].cubes.salt == 0 and g.state.villages[2].ring == false)
  fake.play(g, 2, pair)
  return g
end
g = deliver("ring stupa")
assert(#g.state.players[2].rings == 1 and g.state.players[2].ring_count == 1)
assert(g.state.villages[2].stupa == 2 and g.state.players[2].stupas == 4)
assert(g.state.envoys.r1[2] == 0 and g.state.envoys.r2[2] == 0)
--    yaks: the kept ring o01 = 2
assert(require("rules.common").yaks(g, 2) == 2)
g = deliver("ring envoys")
--    a temple: 2 envoys, placed one at a time or on one line
assert(g.state.pending.kind == "envoys" and g.state.pending.left == 2)
assert(fake.enabled(g, 2) == "envoy r1, envoy r2, envoys r1 r1, envoys r1 r2, envoys r2 r2")
fake.play(g, 2, "envoy r2", "envoy r2")
assert(g.state.envoys.r2[2] == 2 and g.state.players[2].envoys == 13 and g.state.villages[2].stupa == false)
g = deliver("stupa envoys")
fake.play(g, 2, "envoys r1 r2")
assert(g.state.envoys.r1[2] == 1 and g.state.envoys.r2[2] == 1)
assert(#g.state.players[2].rings == 0 and #g.state.rings.discard == 1, "the unkept ring is discarded")
--    upheaval: a temple's stupa is 2 points either way; a house 3; envoys stay 1/2/3
local common = require "rules.common"
g = deliver("stupa envoys", { upheaval = true })
assert(g.state.pending.left == 2, "upheaval keeps a temple's 2 envoys (reverse_envoys: false)")
assert(common.level_row(g, 1).stupa == 3 and common.level_row(g, 5).stupa == 1, "house 3, monastery 1")
assert(common.level_row(g, 5).envoys == 3)

-- 4. A village with a stupa offers only ring + envoys (the pairs with a stupa disabled).
g = game()
fake.put_ring(g, 2, "o01")
g.state.villages[2].stupa = 3
g.state.players[3].stupas = 4
fake.give(g, 2, { salt = 2 })
fake.program(g, { [2] = { "deal", "rest", "rest", "rest", "rest", "rest" } })
assert(fake.enabled(g, 2) == "ring envoys")
assert(fake.disabled(g, 2) == "ring stupa, stupa envoys")
assert(g.rules.reason(g, 2, "ring stupa") == "Lukla already has a stupa (Cai's)")

-- 5. Kept rings are behind the screen (game.visibility.kept_rings_public: false): only their
--    number is public (ring_count); with the switch on, shown_rings copies them.
g = deliver("ring stupa")
assert(g.state.players[2].shown_rings == false and g.state.players[2].ring_count == 1)
g = fake.new { seats = 4, seed = 2 }
g.data = setmetatable({ game = setmetatable({ visibility = { kept_rings_public = true } }, { __index = g.data.game }) },
  { __index = g.data })
g.state.players[1].rings = { "o40" }
common.show_rings(g, 1)
assert(g.state.players[1].shown_rings[1] == "o40" and g.state.players[1].ring_count == 1)
