-- rulesets/yak/tests/lua/test_yak_build.lua
-- Yak, the Build card: prices, the carts' restrictions and the two-kinds limit with their
-- reasons, overflow to the market, placement, the refill of an emptied cart.
local fake = require "yak_fake"
local build = require "rules.build"
local tower = require "rules.tower"

local data = fake.fixture.data

-- 1. Prices: 1 stone 1 food, 2 stones 3, 3 stones 5; +1 per crystal (so 1 to 8 food).
assert(build.price(data, { "red" }) == 1)
assert(build.price(data, { "red", "blue" }) == 3)
assert(build.price(data, { "red", "blue", "green" }) == 5)
assert(build.price(data, { "crystal", "red", "blue" }) == 6)       -- 5 + 1
assert(build.price(data, { "crystal", "crystal", "crystal" }) == 8) -- 5 + 3
assert(build.price(data, { "crystal" }) == 2)                       -- 1 + 1

-- A 4-seat game; seat 1 sits at stop 1 (the no-meat cart), seat 4 at the two-kinds cart.
local function game()
  local g = fake.new { seats = 4, seed = 11 }
  assert(g.state.carts[1].id == "no_meat" and g.state.carts[4].id == "two_kinds")
  return g
end

-- 2. The no-meat cart refuses meat, with the reason.
local g = game()
g.state.carts[1].stones = { "red", "crystal", "blue" }
g.state.players[1].food = { meat = 3, milk = 2, bread = 2 }
fake.rebalance(g)
fake.noon(g, { "build" })
assert(g.state.action.card == "build" and g.state.action.seat == 1)
fake.play(g, 1, "take red", "buy")          -- 1 stone: 1 food
assert(g.state.action.step == "pay" and g.state.action.owed == 1)
assert(fake.option(g, 1, "pay meat").disabled == "the no-meat cart does not take meat")
assert(fake.refused(g, 1, "pay meat") == "the no-meat cart does not take meat")
assert(fake.enabled(g, 1) == "pay milk, pay bread")
fake.play(g, 1, "pay milk")                 -- milk 2 -> 1, the cart's milk 3 -> 4
assert(g.state.players[1].food.milk == 1 and g.state.carts[1].food.milk == 4)
assert(g.state.action.step == "place")
assert(fake.enabled(g, 1) == "place l1p1, place l1p2, place l1p3, place l1p4, place l1p5")
fake.play(g, 1, "place l1p3")
assert(tower.get(g.state.players[1].tower, 0, 2) == "red")
assert(g.state.action.seat == 2, "seat 2's turn")

-- 3. A stone you cannot afford is refused with the price; the last affordable take moves
--    straight on to paying. Seat 1 has 1 bread and 2 meat: at most 1 food at this cart.
g = game()
g.state.carts[1].stones = { "red", "crystal", "blue" }
g.state.players[1].food = { meat = 2, milk = 0, bread = 1 }
fake.rebalance(g)
fake.noon(g, { "build" })
assert(fake.option(g, 1, "take crystal").disabled ==
  "1 stone with 1 crystal costs 2 food; you can pay at most 1 at this cart")
fake.play(g, 1, "take red")
-- blue would make 2 stones = 3 food > 1, the crystal 2 + 1 ... nothing left to take: pay now
assert(g.state.action.step == "pay" and g.state.action.owed == 1)
assert(fake.enabled(g, 1) == "pay bread")

-- 4. The two-kinds cart: at most two kinds in one payment. Seat 4 holds meat 1, milk 1,
--    bread 2 and buys 2 stones for 3 food. At most 3 is payable (bread 2 + one other).
g = game()
g.state.carts[4].stones = { "red", "blue", "green" }
g.state.players[4].food = { meat = 1, milk = 1, bread = 2 }
fake.rebalance(g)
fake.noon(g, { [4] = "build" }, 4)
assert(g.state.action.seat == 4)
fake.play(g, 4, "take red", "take blue")   -- a third stone would cost 5 > 3: on to paying
assert(g.state.action.step == "pay" and g.state.action.owed == 3)
fake.play(g, 4, "pay milk")                 -- kinds: milk; 2 to pay, bread 2 can do it
-- meat now would make the kinds milk + meat, with 0 of both left for the last 1
assert(fake.option(g, 4, "pay meat").disabled == "then the remaining 1 food could not be paid at this cart")
fake.play(g, 4, "pay bread")                -- kinds: milk + bread; 1 to pay
assert(fake.option(g, 4, "pay meat").disabled == "this cart takes at most 2 kinds of food in one payment")
fake.play(g, 4, "pay bread")
assert(g.state.action.step == "place")
fake.play(g, 4, "place l1p3")
assert(fake.enabled(g, 4) == "place l1p2, place l1p4", "the second base stone must touch the first")
fake.play(g, 4, "place l1p4")
assert(#g.state.carts[4].stones == 1, "one stone left: no refill")

-- 5. Overflow: the no-meat cart holds 9 food (milk 5, bread 4); paid food goes to the market.
g = game()
g.state.carts[1].stones = { "red", "blue" }
g.state.carts[1].food = { meat = 0, milk = 5, bread = 4 }
g.state.carts[3].food = { meat = 3, milk = 1, bread = 0 }
g.state.players[1].food = { meat = 0, milk = 3, bread = 0 }
fake.rebalance(g)
local market_milk = g.state.market.milk
fake.noon(g, { "build" })
fake.play(g, 1, "take red", "take blue")   -- 2 stones: 3 food, all milk
fake.play(g, 1, "pay milk", "pay milk", "pay milk")
assert(g.state.carts[1].food.milk == 5, "the full cart takes no more")
assert(g.state.market.milk == market_milk + 3, "all 3 milk went to the market")
assert(g.state.players[1].food.milk == 0)

-- 6. An emptied cart draws 3 new stones.
g = game()
g.state.carts[1].stones = { "red" }
fake.rebalance(g)
fake.noon(g, { "build" })
fake.play(g, 1, "take red")                -- the cart is empty: straight to paying
fake.play(g, 1, "pay milk", "place l1p1")
assert(#g.state.carts[1].stones == 3, "refilled with 3")

-- 7. Tower room: with 14 stones only 1 more fits; the tower's shape rules.
g = game()
g.state.players[1].tower = fake.tower({ "", "RB", "GYR", "BBGY", "RRGGB" })
g.state.carts[1].stones = { "red", "blue" }
fake.rebalance(g)
fake.noon(g, { "build" })
fake.play(g, 1, "take red")
assert(g.state.action.step == "pay", "the blue would not fit")
local tw = fake.tower({ "RR..." })
local cells = {}
for _, c in ipairs(tower.legal_cells(data, tw)) do cells[#cells + 1] = tower.cell_id(c[1], c[2]) end
-- next to the base run (l1p3) or resting on two stones (l2p1)
assert(table.concat(cells, " ") == "l1p3 l2p1", table.concat(cells, " "))
assert(select(2, tower.legal(data, tw, 1, 1)) == "why.needs_support")
assert(select(2, tower.legal(data, tw, 0, 4)) == "why.must_touch")
assert(select(2, tower.legal(data, tower.new(data), 1, 0)) == "why.first_on_base")

-- 8. Nothing to build: a Build with no affordable stone offers only "build nothing".
g = game()
g.state.carts[1].stones = { "red" }
g.state.players[1].food = { meat = 1, milk = 0, bread = 0 }
fake.rebalance(g)
fake.noon(g, { "build" })
assert(fake.enabled(g, 1) == "skip")
assert(fake.option(g, 1, "take red").disabled ~= nil)
fake.play(g, 1, "skip")
assert(g.state.action.seat == 2)
print("test_yak_build ok")
