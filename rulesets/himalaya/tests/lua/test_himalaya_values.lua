-- rulesets/himalaya/tests/lua/test_himalaya_values.lua
-- Every named value of the YAML does what its name says, in each of its readings: market
-- day and the cube limit, events a round and how long they last, region and inventory
-- ties, unkept rings, a village token naming a supplied village, complete inventory.
local fake = require "hm_fake"
local score = require "rules.score"
local inventory = require "rules.inventory"
local supply = require "rules.supply"

local function game(opts, seed)
  local g = fake.new { seats = 4, seed = seed or 5, options = opts }
  fake.clear_board(g)
  g.state.start, g.state.place_order = 1, { 1, 2, 3, 4 }
  g.state.first = 1
  fake.place_all(g, { 1, 2, 3, 4 })
  g.state.order = { 1, 2, 3, 4 }
  return g
end

local function pass_events(g, from)
  for s = from or 1, 4 do fake.play(g, s, "pass") end
end

-- 1. events.market_lifts_cube_limit. Market day at Namche (1), cubes salt tea gold; Ann
--    deals twice in a row there. false (default): one cube per village per month: the
--    first deal takes her pick (gold), the second is wasted; 3 - 1 = 2 cubes stay.
local g = game { events = true }
fake.put_cubes(g, 1, { "salt", "tea", "gold" })
fake.play(g, 1, "market 1", "pass")
pass_events(g, 2)
fake.program(g, { [1] = { "deal", "deal", "rest", "rest", "rest", "rest" } })
fake.play(g, 1, "take gold")
assert(#g.state.villages[1].cubes == 2 and g.state.players[1].cubes.gold == 1)
assert(fake.has_event(g, "Slot 2: Ann's deal is wasted"))
--    true: market day lifts the limit there: two picks, gold then tea; 3 - 2 = 1 left (salt)
g = game { events = true }
g.data.events.market_lifts_cube_limit = true
fake.put_cubes(g, 1, { "salt", "tea", "gold" })
fake.play(g, 1, "market 1", "pass")
pass_events(g, 2)
fake.program(g, { [1] = { "deal", "deal", "rest", "rest", "rest", "rest" } })
fake.play(g, 1, "take gold")
fake.play(g, 1, "take tea")
assert(table.concat(g.state.villages[1].cubes, " ") == "salt")
assert(g.state.players[1].cubes.gold == 1 and g.state.players[1].cubes.tea == 1)

-- 2. events.per_round. any (default): Ann plays a yeti and is asked again. one: her yeti
--    ends her turn in the events phase; Bob is asked next.
g = game { events = true }
fake.play(g, 1, "yeti p01")
assert(fake.decision(g, 1), "any: Ann may play another token")
g = game { events = true }
g.data.events.per_round = "one"
fake.play(g, 1, "yeti p01")
assert(not fake.decision(g, 1) and fake.decision(g, 2), "one: Bob's turn")

-- 3. events.lasts. round (default): the yeti on p01 is gone in month 2. game: it stays,
--    so Bob's dirt from Lukla (2) to Namche (1) is wasted in month 2 as well.
g = game { events = true }
g.data.events.lasts = "game"
fake.play(g, 1, "yeti p01", "pass")
pass_events(g, 2)
fake.program(g, {})
assert(g.state.month == 2 and g.state.placed.yeti.p01 == 1)
for _, s in ipairs({ 2, 3, 4, 1 }) do fake.play(g, s, "pass") end   -- month 2 starts with Bob
fake.program(g, { [2] = { "dirt", "rest", "rest", "rest", "rest", "rest" } })
assert(g.state.caravans[2] == 2, "the footprints stay: Bob's dirt is wasted again")

-- 4. scoring.region_ties. Envoys in r1: Ann 2, Bob 2; r2: Cai 1. nobody (default): r1
--    scores for nobody: Ann 0, Bob 0, Cai 1. all: r1 scores for Ann and Bob: 1, 1, 1.
g = game()
local alive = { true, true, true, true }
g.state.envoys.r1[1], g.state.envoys.r1[2], g.state.envoys.r2[3] = 2, 2, 1
local won = score.political(g, alive)
assert(won[1] == 0 and won[2] == 0 and won[3] == 1)
g.data.scoring.region_ties = "all"
won = score.political(g, alive)
assert(won[1] == 1 and won[2] == 1 and won[3] == 1 and won[4] == 0)

-- 5. scoring.inventory_ties. Salt: Ann 2, Bob 2. nobody (default): no token. all: a token
--    (3 yaks) each: 15 - 2 = 13 tokens left.
g = game()
fake.give(g, 1, { salt = 2 })
fake.give(g, 2, { salt = 2 })
assert(inventory.majority(g, "salt") == nil)
g.data.scoring.inventory_ties = "all"
local who = inventory.majority(g, "salt")
assert(#who == 2 and who[1] == 1 and who[2] == 2)
g.state.month = 4
fake.program(g, {})
assert(g.state.players[1].tokens == 1 and g.state.players[2].tokens == 1 and g.state.tokens_left == 13)

-- 6. game.deal.unkept_rings. A delivery rewarded by stupa + envoys leaves the ring unkept.
--    discard (default): it goes on the discards (1). bag: back into the ring bag at once:
--    the bag grows by one and the discards stay empty.
local function deliver(unkept)
  local g = game()
  g.data.game.deal.unkept_rings = unkept
  fake.put_ring(g, 1, "o01")                       -- 2 salt, at Namche (1), where Ann stands
  fake.give(g, 1, { salt = 2 })
  fake.program(g, { [1] = { "deal", "rest", "rest", "rest", "rest", "rest" } })
  fake.play(g, 1, "stupa envoys")
  return g
end
g = deliver("discard")
assert(#g.state.rings.discard == 1 and g.state.rings.discard[1] == "o01")
g = deliver("bag")
assert(#g.state.rings.discard == 0)
local found = false
for _, r in ipairs(g.state.rings.draw) do if r == "o01" then found = true end end
for _, v in ipairs(g.state.villages) do if v.ring == "o01" then found = true end end
assert(found, "the unkept ring is back in the bag (or drawn from it by the month's refill)")

-- 7. variants.village_tokens.taken_village (allergic to chaos). The row's next token names
--    a village that holds cubes. next_free (default): the cubes go to the next free village
--    from there (as the d20 does). redraw: that token is discarded and the row's next token
--    is used instead.
local function chaos(taken)
  local g = fake.new { seats = 4, seed = 7, options = { ["allergic-to-chaos"] = true } }
  g.data.variants.village_tokens.taken_village = taken
  fake.clear_board(g)
  local vt = g.state.village_tokens
  local q1, q2 = vt.queue[1], vt.queue[2]
  fake.put_cubes(g, q1, { "salt" })                 -- the first token's village is taken
  return g, q1, q2
end
local q1, q2, _
g, q1 = chaos("next_free")
local free1 = supply.next_free(g, q1)
assert(free1 ~= q1 and supply.place_cubes(g) == free1)
g, _, q2 = chaos("redraw")
local free2 = supply.next_free(g, q2)
assert(free2 == q2 and supply.place_cubes(g) == q2)
assert(#g.state.village_tokens.discard == 10 + 2, "both tokens used: 10 + 2 discards")
assert(fake.has_event(g, "holds cubes or an order: the next token is used"))

-- 8. variants.complete_inventory (MODELLED). Ann holds most salt at month 4, her caravan at
--    Namche (1, a house in r1). envoys: level -> 1 envoy (a house); envoys: 3 -> 3 into r1
--    (its only region): 15 - 3 = 12 left. stupa: caravan_village -> only Namche (1);
--    any_empty -> every village without a stupa: all 20.
local function complete(envoys, stupa)
  local g = game({ ["complete-inventory"] = true }, 4)
  g.data.variants.complete_inventory.envoys = envoys
  g.data.variants.complete_inventory.stupa = stupa
  fake.give(g, 1, { salt = 2 })
  g.state.month = 4
  fake.program(g, {})
  return g
end
g = complete("level", "caravan_village")
fake.play(g, 1, "envoys")
assert(g.state.envoys.r1[1] == 1 and g.state.players[1].envoys == 14)
g = complete(3, "caravan_village")
fake.play(g, 1, "envoys")
assert(g.state.envoys.r1[1] == 3 and g.state.players[1].envoys == 12)
assert(#inventory.stupa_villages(g, 1) == 1 and inventory.stupa_villages(g, 1)[1] == 1)
g = complete("level", "any_empty")
assert(#inventory.stupa_villages(g, 1) == 20)
fake.play(g, 1, "stupa")
fake.play(g, 1, "stupa 16")
assert(g.state.villages[16].stupa == 1 and score.religious(g, 1) == 3)   -- Manang: a monastery, 3

-- 9. The expansion at 4 seats adds the 20 cubes and nothing else (its description): the
--    seed's "20 resource cubes to be added to the stock of the basic game", while its supply
--    and victory rows are "for 5 or 6 players". Bag 18 + 15 + 12 + 9 + 6 = 60, + 6 + 5 + 4 +
--    3 + 2 = 80 cubes; the 4-seat supply 5 villages x 5 cubes + 5 orders: 80 - 25 = 55 in
--    the bag; the 4-seat ending (religious out, political out).
local bagmod = require "cairn.bag"
g = fake.new { seats = 4, seed = 3, options = { expansion = true } }
assert(supply.supply_row(g).villages == 5 and supply.supply_row(g).cubes == 5)
local on_board, orders = 0, 0
for _, v in ipairs(g.state.villages) do
  on_board = on_board + #v.cubes
  if v.ring then orders = orders + 1 end
end
assert(on_board == 25 and orders == 5 and bagmod.count(g.state.bag) == 55)
local ending = require("cairn.tables").by(g.data.scoring.endings, "seats", 4)
assert(#ending.steps == 2 and ending.steps[2].influence == "political" and ending.steps[2].out == 1)

-- 10. game.deal.must_deliver. Bob at Lukla (2) holds 2 salt; o01 (2 salt) lies there.
--     true (default): his Deal delivers at once. false: he is asked; "decline" keeps his
--     2 salt, the ring stays and the Deal is spent.
local function at_lukla(set)
  local g = game()
  for k, v in pairs(set or {}) do g.data.game.deal[k] = v end
  fake.put_ring(g, 2, "o01")
  fake.give(g, 2, { salt = 2 })
  fake.program(g, { [2] = { "deal", "rest", "rest", "rest", "rest", "rest" } })
  return g
end
g = at_lukla()
assert(g.state.pending.kind == "reward" and g.state.players[2].cubes.salt == 0)   -- 2 - 2 = 0
g = at_lukla { must_deliver = false }
assert(g.state.pending.kind == "deliver" and fake.enabled(g, 2) == "deliver, decline")
fake.play(g, 2, "decline")
assert(g.state.players[2].cubes.salt == 2 and g.state.villages[2].ring == "o01")
assert(fake.has_event(g, "the order is not delivered"))
g = at_lukla { must_deliver = false }
fake.play(g, 2, "deliver")
assert(g.state.pending.kind == "reward" and g.state.players[2].cubes.salt == 0)

-- 11. game.deal.envoy_split. Lukla is a temple (level 2: 2 envoys) bordering r1 and r2.
--     by_choice (default): each envoy on its own (envoy r1, envoy r2) or a whole line
--     (envoys r1 r1, envoys r1 r2, envoys r2 r2). one_region: both into one region.
g = at_lukla()
fake.play(g, 2, "ring envoys")
assert(fake.enabled(g, 2) == "envoy r1, envoy r2, envoys r1 r1, envoys r1 r2, envoys r2 r2", fake.enabled(g, 2))
g = at_lukla { envoy_split = "one_region" }
fake.play(g, 2, "ring envoys")
assert(fake.enabled(g, 2) == "envoys r1 r1, envoys r2 r2", fake.enabled(g, 2))
fake.play(g, 2, "envoys r2 r2")
assert(g.state.envoys.r2[2] == 2 and g.state.players[2].envoys == 13)   -- 15 - 2

-- 12. game.deal.envoys_short. Bob has 1 envoy left; the temple sends 2. place_the_rest
--     (default): the envoys reward places 1 (1 - 1 = 0 left). not_allowed: the pairs with
--     envoys are disabled, with the reason.
local function short(how)
  local g = game()
  g.data.game.deal.envoys_short = how
  g.state.players[2].envoys = 1
  g.state.envoys.r5[2] = 14                        -- the other 14 are on the board
  fake.put_ring(g, 2, "o01")
  fake.give(g, 2, { salt = 2 })
  fake.program(g, { [2] = { "deal", "rest", "rest", "rest", "rest", "rest" } })
  return g
end
g = short("place_the_rest")
assert(fake.enabled(g, 2) == "ring stupa, ring envoys, stupa envoys")
fake.play(g, 2, "ring envoys")
fake.play(g, 2, "envoy r1")
assert(g.state.envoys.r1[2] == 1 and g.state.players[2].envoys == 0)
g = short("not_allowed")
assert(fake.enabled(g, 2) == "ring stupa" and fake.disabled(g, 2) == "ring envoys, stupa envoys")
assert(g.rules.reason(g, 2, "ring envoys") == "you have 1 envoys left and this village sends 2")

-- 13. game.deal.ring_alone. Lukla already holds Ann's stupa and Bob has no envoy left: no
--     pair is possible. true (default): the ring alone (o01: 2 yaks). false: nothing; the
--     ring is not kept (it goes to the discards: 1).
local function alone(flag)
  local g = game()
  g.data.game.deal.ring_alone = flag
  g.state.villages[2].stupa = 1
  g.state.players[1].stupas = 4
  g.state.players[2].envoys = 0
  g.state.envoys.r5[2] = 15
  fake.put_ring(g, 2, "o01")
  fake.give(g, 2, { salt = 2 })
  fake.program(g, { [2] = { "deal", "rest", "rest", "rest", "rest", "rest" } })
  return g
end
g = alone(true)
assert(fake.enabled(g, 2) == "ring")
fake.play(g, 2, "ring")
assert(require("rules.common").yaks(g, 2) == 2)
g = alone(false)
assert(fake.enabled(g, 2) == "nothing")
fake.play(g, 2, "nothing")
assert(require("rules.common").yaks(g, 2) == 0 and #g.state.rings.discard == 1)

-- 14. events.snowstorm_actions. A snowstorm on p03 (Lukla 2 - Tengboche 3, ice); Bob at
--     Lukla. 2 (default): ice, ice crosses at slot 2. 3: ice, ice still in the storm, the
--     third ice crosses; ice, ice, rest loses the crossing (Bob stays at Lukla).
local function storm(n, prog)
  local g = game { events = true }
  g.data.events.snowstorm_actions = n
  fake.play(g, 1, "snowstorm p03", "pass")
  pass_events(g, 2)
  fake.program(g, { [2] = prog })
  return g
end
g = storm(2, { "ice", "ice", "rest", "rest", "rest", "rest" })
assert(g.state.caravans[2] == 3 and fake.has_event(g, "Slot 2: Bob takes the ice"))
g = storm(3, { "ice", "ice", "ice", "rest", "rest", "rest" })
assert(g.state.caravans[2] == 3 and fake.has_event(g, "Slot 3: Bob takes the ice"))
g = storm(3, { "ice", "ice", "rest", "rest", "rest", "rest" })
assert(g.state.caravans[2] == 2 and fake.has_event(g, "Slot 3: Bob leaves the snowstorm: the crossing is lost."))

-- 15. events.yeti_blocks. Ann puts yeti footprints on p01 (Namche 1 - Lukla 2, dirt); Ann
--     and Bob both take the dirt road. everyone (default): both wasted. others: Ann, who
--     placed them, goes to Lukla (2); Bob's is wasted (he stays at Lukla, 2).
local function yeti(who)
  local g = game { events = true }
  g.data.events.yeti_blocks = who
  fake.play(g, 1, "yeti p01", "pass")
  pass_events(g, 2)
  fake.program(g, { [1] = { "dirt", "rest", "rest", "rest", "rest", "rest" },
    [2] = { "dirt", "rest", "rest", "rest", "rest", "rest" } })
  return g
end
g = yeti("everyone")
assert(g.state.caravans[1] == 1 and g.state.caravans[2] == 2)
g = yeti("others")
assert(g.state.caravans[1] == 2 and g.state.caravans[2] == 2)
assert(fake.has_event(g, "Slot 1: Bob's dirt road is wasted: yeti footprints"))
