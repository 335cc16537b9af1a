-- rulesets/himalaya/tests/lua/test_himalaya_inventory.lua
-- Inventory after months 4, 8, 12: strictly most cubes (at least 1) of a type wins the
-- 3-yak token, a tie gives nobody anything; long-range inventory's three choices; the
-- modelled complete inventory.
local fake = require "hm_fake"
local inventory = require "rules.inventory"

local function at_inventory(opts)
  local g = fake.new { seats = 4, seed = 4, options = opts }
  fake.clear_board(g)
  g.state.start, g.state.place_order = 1, { 1, 2, 3, 4 }
  fake.place_all(g, { 1, 2, 3, 4 })
  g.state.month = 4
  return g
end

-- 1. Base rule. Salt: Ann 2, Bob 1 -> Ann. Barley: Bob 1, Cai 1 -> tied, nobody.
--    Tea: nobody holds any -> nobody (0 never wins). Jade: Dee 1 -> Dee. Gold: none.
--    Ann 1 token (3 yaks), Dee 1 token; 15 - 2 = 13 tokens left; cubes are kept.
local g = at_inventory()
fake.give(g, 1, { salt = 2 })
fake.give(g, 2, { salt = 1, barley = 1 })
fake.give(g, 3, { barley = 1 })
fake.give(g, 4, { jade = 1 })
assert(inventory.majority(g, "barley") == nil)
fake.program(g, {})                     -- month 4: everyone rests; then refill and inventory
assert(g.state.players[1].tokens == 1 and g.state.players[4].tokens == 1)
assert(g.state.players[2].tokens == 0 and g.state.players[3].tokens == 0)
assert(g.state.tokens_left == 13 and g.state.players[1].cubes.salt == 2, "cubes are kept")
assert(fake.has_event(g, "Inventory: no one holds strictly the most barley (most: 1)."))
assert(g.state.month == 5 and g.state.phase == "program")
assert(require("rules.common").yaks(g, 1) == 3)

-- 2. Long-range inventory: Ann holds most salt and chooses. Envoys: 2 into any region;
--    stupa: any empty house (1 point); token.
g = at_inventory { ["long-range-inventory"] = true }
fake.give(g, 1, { salt = 2 })
fake.program(g, {})
assert(g.state.pending.kind == "inventory" and g.state.pending.seat == 1)
assert(fake.enabled(g, 1) == "token, envoys, stupa")
fake.play(g, 1, "envoys")
assert(g.state.pending.kind == "envoys" and #g.state.pending.regions == 8 and g.state.pending.left == 2)
fake.play(g, 1, "envoys r5 r8")       -- r5 and r8 border none of Ann's villages: anywhere
assert(g.state.envoys.r5[1] == 1 and g.state.envoys.r8[1] == 1 and g.state.players[1].envoys == 13)
assert(g.state.month == 5)
--    the stupa: houses only (level 1 = 1 point): 1, 3, 4, 6, 9, 12, 15, 17, 18, 20 = 10 villages
g = at_inventory { ["long-range-inventory"] = true }
fake.give(g, 1, { salt = 2 })
fake.program(g, {})
fake.play(g, 1, "stupa")
assert(#g.state.pending.villages == 10)
fake.play(g, 1, "stupa 20")
assert(g.state.villages[20].stupa == 1 and require("rules.score").religious(g, 1) == 1)
--    with upheaval the 1-point stupa goes on a monastery: 5, 8, 13, 16
g = at_inventory { ["long-range-inventory"] = true, upheaval = true }
fake.give(g, 1, { salt = 2 })
fake.program(g, {})
fake.play(g, 1, "stupa")
assert(table.concat(g.state.pending.villages, " ") == "5 8 13 16")
fake.play(g, 1, "stupa 16")
assert(require("rules.score").religious(g, 1) == 1)

-- 3. Complete inventory (modelled): envoys by the caravan village's level around it. Ann is
--    at Namche (1, a house, region r1): 1 envoy, placed at once (one region).
g = at_inventory { ["complete-inventory"] = true }
fake.give(g, 1, { salt = 2 })
fake.program(g, {})
assert(fake.enabled(g, 1) == "token, envoys, stupa")
fake.play(g, 1, "envoys")
assert(g.state.envoys.r1[1] == 1 and not g.state.pending)
