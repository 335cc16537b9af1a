-- tests/lua/test_bag.lua
-- cairn.bag: counts, draws, determinism.
package.path = "tests/lua/?.lua;" .. package.path
local bag = require "cairn.bag"
local fake = require "cairn.fake_rng"

local b = bag.new({ red = 2, blue = 1 })
assert(bag.count(b) == 3 and bag.count(b, "red") == 2 and bag.count(b, "green") == 0)
bag.add(b, "green", 2)
assert(bag.count(b) == 5)
bag.remove(b, "green")
assert(bag.count(b, "green") == 1)
assert(not pcall(bag.remove, b, "green", 2), "removing more than held fails")
-- sorted items: blue(1) green(1) red(2); int() = 1 draws the first, blue
local d = bag.draw(b, fake.script({ 1 }))
assert(d == "blue", d)
-- int() = 3 among green(1), red(2): 3 - 1 = 2 -> red
assert(bag.draw(b, fake.script({ 3 })) == "red")
assert(table.concat(bag.list(b), " ") == "green red")
assert(bag.items(b)[1] == "green")
-- from a list
local l = bag.new({ "x", "y", "x" })
assert(bag.count(l, "x") == 2)
-- draw_many stops when empty
local all = bag.draw_many(l, fake.new(7), 10)
assert(#all == 3 and bag.is_empty(l))
assert(bag.draw(l, fake.new(1)) == nil)
-- same seed, same draws
local function seq(seed)
  local bb = bag.new({ a = 5, b = 5, c = 5 })
  return table.concat(bag.draw_many(bb, fake.new(seed), 15), "")
end
assert(seq(3) == seq(3))
-- with the kinds it may hold (sorted, more than it holds: "d" is absent), the same draws:
-- {a = 1, b = 2, c = 3}, int() = 4 -> a(1) b(2): 4 - 1 - 2 = 1, c; then int() = 2 among
-- a(1) b(2) c(2): 2 - 1 = 1 -> b; then int() = 1 -> a
local kb = bag.new({ a = 1, b = 2, c = 3 })
local picks = bag.draw_many(kb, fake.script({ 4, 2, 1 }), 3, { "a", "b", "c", "d" })
assert(table.concat(picks, " ") == "c b a", table.concat(picks, " "))
assert(bag.count(kb, "a") == 0 and bag.count(kb, "b") == 1 and bag.count(kb, "c") == 2)
local function seq_kinds(seed, kinds)
  local bb = bag.new({ a = 5, b = 5, c = 5 })
  return table.concat(bag.draw_many(bb, fake.new(seed), 15, kinds), "")
end
for seed = 1, 5 do assert(seq_kinds(seed, { "a", "b", "c", "d" }) == seq(seed), "kinds change no draw") end
-- contents is a copy
local c = bag.contents(b); c.red = 99
assert(bag.count(b, "red") == 1)
bag.add_all(b, { "red", "red" })
assert(bag.count(b, "red") == 3)
print("test_bag ok")
-- from a bag component of schemas/components.schema.yaml
local comp = bag.from_component({ contents = { salt = 2, tea = 1 } })
assert(bag.count(comp) == 3 and bag.count(comp, "salt") == 2)
print("test_bag component ok")
