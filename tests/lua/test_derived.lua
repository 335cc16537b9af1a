-- tests/lua/test_derived.lua
package.path = "tests/lua/?.lua;" .. package.path
local D = require "cairn.derived"

-- of: f runs once per game's data; the same table comes back after
local data = { stones = { colours = { { id = "red" }, { id = "blue" } }, fog = { id = "fog" } } }
local calls = 0
local function kinds(d)
  calls = calls + 1
  local list = { d.stones.fog.id }
  for _, c in ipairs(d.stones.colours) do list[#list + 1] = c.id end
  table.sort(list)
  return list
end
local first = D.of(data, kinds)
assert(table.concat(first, " ") == "blue fog red", "sorted by bytes: blue < fog < red")
assert(D.of(data, kinds) == first and calls == 1, "the second call hands back the same list, f not run again")

-- another function on the same data is its own entry
local function count(d) return #d.stones.colours end
assert(D.of(data, count) == 2 and D.of(data, kinds) == first and calls == 1)

-- a new game's data (another table) starts afresh, even with the same contents
local data2 = { stones = { colours = { { id = "red" } }, fog = { id = "fog" } } }
local second = D.of(data2, kinds)
assert(second ~= first and table.concat(second, " ") == "fog red" and calls == 2)

-- by: the first record with field == value, as tables.by finds it
local carts = { { id = "a", n = 1 }, { id = "b", n = 2 }, { id = "a", n = 3 } }
local d3 = { carts = carts }
assert(D.by(d3, carts, "id", "b").n == 2)
assert(D.by(d3, carts, "id", "a").n == 1, "two records with id a: the first (n = 1), not the last (n = 3)")
assert(D.by(d3, carts, "id", "zz") == nil)
assert(D.by(d3, carts, "n", 3).id == "a", "each field its own index")
-- the index is made once: a record changed afterwards is still found under its old value
-- (data does not change during a game, which is what makes the index valid)
carts[2].id = "c"
assert(D.by(d3, carts, "id", "b") == carts[2] and D.by(d3, carts, "id", "c") == nil)
print("test_derived ok")
