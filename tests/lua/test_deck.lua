-- tests/lua/test_deck.lua
package.path = "tests/lua/?.lua;" .. package.path
local deck = require "cairn.deck"
local fake = require "cairn.fake_rng"

local d = deck.new({ "a", "b", "c" })
assert(deck.size(d) == 3)
assert(deck.draw(d) == "a", "draw[1] is the top")
deck.discard(d, "a")
assert(deck.discards(d) == 1)
assert(table.concat(deck.peek(d, 2), "") == "bc")
assert(table.concat(deck.draw_many(d, 5), "") == "bc")
assert(deck.draw(d) == nil, "no rng: no reshuffle")
assert(deck.draw(d, fake.new(1)) == "a", "with rng the discards come back")
assert(deck.discards(d) == 0)
-- shuffle keeps the cards
local s = deck.new({ 1, 2, 3, 4, 5, 6 })
deck.shuffle(s, fake.new(9))
local sum = 0
for _, v in ipairs(s.draw) do sum = sum + v end
assert(sum == 21 and deck.size(s) == 6)
-- deterministic
local function order(seed)
  local x = deck.new({ "a", "b", "c", "d", "e" })
  deck.shuffle(x, fake.new(seed))
  return table.concat(x.draw)
end
assert(order(5) == order(5))
-- shuffle_list without rng.shuffle uses rng.int
local r = fake.new(2); local only_int = { int = r.int }
assert(#deck.shuffle_list({ 1, 2, 3 }, only_int) == 3)
deck.put_top(s, 0); deck.put_bottom(s, 7)
assert(s.draw[1] == 0 and s.draw[#s.draw] == 7)
deck.discard(s, 9); deck.reshuffle(s, fake.new(3))
assert(deck.size(s) == 9 and deck.discards(s) == 0)
print("test_deck ok")
-- from a deck component: copies expanded, shuffled unless shuffle = false
local c = deck.from_component({ cards = { "monsoon", { id = "avalanche", count = 2 } }, shuffle = false })
assert(table.concat(c.draw, " ") == "monsoon avalanche avalanche")
local c2 = deck.from_component({ cards = { "a", "b", "c", { id = "d", count = 3 } } }, fake.new(4))
assert(deck.size(c2) == 6)
print("test_deck component ok")
