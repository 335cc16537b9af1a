-- rulesets/yak/tests/lua/test_yak_round.lua
-- Yak, the day and the bag: sunrise choices, Restock at the cap, Market with fog drawn,
-- fog reversing the carts' movement, the mountain track's fills, the end trigger plus one
-- more round, the 2-seat extra cart.
local fake = require "yak_fake"
local fake_rng = require "cairn.fake_rng"
local common = require "rules.common"

-- 1. Sunrise asks every seat at once; a seat's answer only marks that seat.
local g = fake.new { seats = 3, seed = 5 }
assert(#g.rules.decisions(g) == 3 and g.state.phase == "sunrise")
fake.play(g, 2, "card market")
assert(g.state.chosen[2] == "market" and g.state.ready[2] and g.state.phase == "sunrise")
assert(#g.rules.decisions(g) == 2, "seat 2 is no longer asked")
assert(not pcall(g.rules.apply, g, 2, "card build"), "one card a day")

-- 2. Restock up to the reserve cap of 8; a full cart draws no stone.
g = fake.new { seats = 4, seed = 5 }
g.state.players[1].food = { meat = 3, milk = 2, bread = 2 }       -- 7 food: room for 1
g.state.carts[1].food = { meat = 0, milk = 3, bread = 3 }
g.state.carts[1].stones = { "red", "blue", "green", "red" }       -- full (4 stones)
fake.rebalance(g)
local bag_before = require("cairn.bag").count(g.state.bag)
fake.noon(g, { "restock" })
assert(fake.enabled(g, 1) == "take milk, take bread")
fake.play(g, 1, "take milk")            -- takes 1 of the 3 milk; 2 stay in the cart
assert(g.state.players[1].food.milk == 3 and g.state.carts[1].food.milk == 2)
assert(#g.state.carts[1].stones == 4 and require("cairn.bag").count(g.state.bag) == bag_before,
  "a full cart draws nothing")
--    with room, the cart draws 1 stone; a full reserve refuses food and offers "take none"
g = fake.new { seats = 4, seed = 5 }
g.state.players[1].food = { meat = 3, milk = 3, bread = 2 }       -- 8: full
fake.rebalance(g)
fake.noon(g, { "restock" })
assert(fake.option(g, 1, "take milk").disabled == "your reserve is full (8 food)")
assert(fake.enabled(g, 1) == "take none")
fake.play(g, 1, "take none")
assert(#g.state.carts[1].stones == 4, "3 + 1 drawn")

-- 3. Market with fog drawn: take 2 food, draw 3 stones; the fog reverses the carts, goes
--    to the mountain track and is replaced; 1 stone goes into any cart, 2 back to the bag.
g = fake.new { seats = 4, seed = 5 }
local fog_at = fake.bag_index(g.state.bag, "fog")
g.rng = fake_rng.script { fog_at, 1, 1, 1 }   -- fog, then the first stone in the bag x3
local first = require("cairn.tables").keys(g.state.bag)[1]
fake.noon(g, { "market" })
assert(g.state.direction == 1)
fake.play(g, 1, "take meat", "take meat")     -- the market had 2 meat: now 0
assert(g.state.market.meat == 0 and g.state.players[1].food.meat == 3)
assert(g.state.direction == -1, "fog: the yaks turned round")
assert(g.state.fog.track == 1, "the fog went onto the mountain track")
assert(#g.state.action.drawn == 3, "3 real stones after the replacement")
assert(fake.option(g, 1, "put " .. first .. " no_milk"), "any cart with room")
local no_milk = common.cart_by_id(g.state, "no_milk")
fake.play(g, 1, "put " .. first .. " no_milk")
assert(#no_milk.stones == 4, "3 + the one put in")
assert(g.state.action.seat ~= 1, "Ann's Market is over; the 2 other stones went back")
--    the reversed heading takes effect at sunset: the cart at stop 2 goes to stop 1
assert(no_milk.stop == 2)
fake.finish_noon(g)
assert(g.state.round == 2 and no_milk.stop == 1, "carts moved the other way")
--    a market short of food: what it lacks is refused with the reason
g = fake.new { seats = 4, seed = 5 }
g.state.players[1].food = { meat = 3, milk = 1, bread = 1 }   -- the 2 market meat
fake.rebalance(g)
assert(g.state.market.meat == 0)
fake.noon(g, { "market" })
assert(fake.option(g, 1, "take meat").disabled == "the market has no meat")
assert(fake.enabled(g, 1) == "take milk, take bread", "exactly 2: no done while a take is legal")
--    a full reserve (8 of 8): no take is legal, so `done` is the only way on
g = fake.new { seats = 4, seed = 5 }
g.state.players[1].food = { meat = 3, milk = 3, bread = 2 }
fake.rebalance(g)
fake.noon(g, { "market" })
assert(fake.enabled(g, 1) == "done")
--    the `up_to` reading (economy.market.take_rule): `done` after 0 or 1 take
g = fake.new { seats = 4, seed = 5, data = function(data) data.economy.market.take_rule = "up_to" end }
fake.noon(g, { "market" })
assert(fake.enabled(g, 1) == "take meat, take milk, take bread, done")
fake.play(g, 1, "take meat")
assert(fake.enabled(g, 1) == "take meat, take milk, take bread, done")
fake.play(g, 1, "done")
assert(g.state.action.took == 1 and g.state.action.step ~= "take", "stopped after 1 of 2")

-- 4. The mountain track: full after 5 fog; the first fill returns all 5 to the bag, the
--    second keeps 1 in play (4 leave); after that the last fog goes straight back.
-- draw 1 stone (the test puts the real stone back, so the stones stay conserved)
local function draw1(g)
  local got = common.draw_stones(g, 1)
  require("cairn.bag").add_all(g.state.bag, got)
  return got
end
g = fake.new { seats = 4, seed = 5 }
g.state.fog.track = 4
fake.rebalance(g)                              -- 1 fog left in the bag
g.rng = fake_rng.script { fake.bag_index(g.state.bag, "fog"), 1 }
draw1(g)
assert(g.state.fog.fills == 1 and g.state.fog.track == 0 and g.state.bag.fog == 5)
g.state.fog.track = 4
fake.rebalance(g)
g.rng = fake_rng.script { fake.bag_index(g.state.bag, "fog"), 1 }
draw1(g)
assert(g.state.fog.fills == 2 and g.state.fog.out == 4 and g.state.bag.fog == 1)
local dir = g.state.direction
g.rng = fake_rng.script { fake.bag_index(g.state.bag, "fog"), 1 }
draw1(g)
assert(g.state.bag.fog == 1 and g.state.fog.track == 0 and g.state.direction == -dir)
assert(g.rules.check(g) == nil, g.rules.check(g))
--    fog.after_last_fill out: that last fog leaves the game instead (out 4 + 1 = 5, the
--    bag 1 - 1 = 0 fog, the track still 0), and the yaks still turn (-dir back to dir)
g.data.fog.after_last_fill = "out"
g.rng = fake_rng.script { fake.bag_index(g.state.bag, "fog"), 1 }
draw1(g)
assert(g.state.fog.out == 5 and (g.state.bag.fog or 0) == 0 and g.state.fog.track == 0)
assert(g.state.direction == dir)
assert(g.rules.check(g) == nil, g.rules.check(g))
--    two fogs in one draw reverse twice: the heading is back where it was
g = fake.new { seats = 4, seed = 5 }
local fi = fake.bag_index(g.state.bag, "fog")
g.rng = fake_rng.script { fi, fi, 1 }
local got = draw1(g)
assert(#got == 1 and g.state.direction == 1 and g.state.fog.track == 2)

-- 5. The end: completing level 4 takes the stupa; finish the round, play one more, score.
g = fake.new { seats = 4, seed = 5 }
g.state.players[1].tower = fake.tower({ "", "R.", "GYR", "BBGY", "RRGGB" })  -- 13 stones
g.state.carts[1].stones = { "red" }
fake.rebalance(g)
fake.noon(g, { "build" })
fake.play(g, 1, "take red", "pay milk", "place l4p2")   -- level 4 complete
assert(g.state.stupa == 1 and g.state.last_round == 2)
fake.finish_noon(g)
assert(g.state.round == 2 and g.state.phase == "sunrise", "one more day")
fake.noon(g, {}, g.state.holder)
fake.finish_noon(g)
assert(g.state.phase == "over" and #g.rules.decisions(g) == 0, "then the game is over")
local s = g.rules.score(g)
local stupa = 0
for _, l in ipairs(s[1].breakdown) do if l.label == "stupa" then stupa = l.points end end
assert(stupa == 3)

-- 6. Two seats: three carts, the third stop has nobody; the extra cart takes Market stones
--    and comes round to the players.
g = fake.new { seats = 2, seed = 5 }
assert(#g.state.carts == 3 and g.state.stops == 3 and #g.state.colours == 6)
local extra = common.cart_at(g.state, 3)
assert(extra.id == "no_bread")
g.rng = fake_rng.script { 1, 1, 1 }
fake.noon(g, { "market" })
fake.play(g, 1, "take meat", "take milk")     -- exactly 2 food; then draw 3
local stone = g.state.action.drawn[1]
fake.play(g, 1, "put " .. stone .. " no_bread")
assert(#extra.stones == 4)
fake.finish_noon(g)
assert(extra.stop == 1, "the extra cart now stands in front of seat 1")
assert(common.cart_of_seat(g.state, 1) == extra)
print("test_yak_round ok")
