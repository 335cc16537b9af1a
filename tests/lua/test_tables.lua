-- tests/lua/test_tables.lua
package.path = "tests/lua/?.lua;" .. package.path
local T = require "cairn.tables"

local groups = { { size = 2, points = 2 }, { size = 6, points = 16 }, { size = 7, points = 22 } }
local o = { key = "size" }
assert(T.exact(groups, 6, o) == 16)
assert(T.exact(groups, 5, o) == nil)
assert(T.exact(groups, 5, { key = "size", default = 0 }) == 0)
-- "at least": 9 clamps to the size-7 row; 1 is below every row -> 0
assert(T.at_least(groups, 9, o) == 22 and T.at_least(groups, 1, o) == 0)
assert(T.at_least(groups, 5, o) == 2)
local bonus = { { at = 3, points = 4 }, { at = 7, points = 20 }, { at = 5, points = 12 } }
assert(T.at_least(bonus, 6) == 12, "rows need not be sorted")
assert(T.clamp_index({ 0, 2, 4 }, 9) == 4 and T.clamp_index({ 0, 2 }, 0) == 0)
assert(T.get({ ["3"] = "x" }, 3) == "x" and T.get({ [3] = "y" }, "3") == "y")
local src = { a = { 1, 2 }, b = "s" }
local cp = T.copy(src); cp.a[1] = 9
assert(src.a[1] == 1)
assert(table.concat(T.keys({ b = 1, a = 2, c = 3 }), "") == "abc")
assert(T.sum({ 1, 2, 3 }) == 6 and T.sum({ x = 2, y = 5 }) == 7)
assert(T.find({ "a", "b" }, "b") == 2 and T.by(groups, "size", 7).points == 22)
local best, who = T.max({ 3, 5, 5, 1 })
assert(best == 5 and #who == 2 and who[1] == 2 and who[2] == 3)
print("test_tables ok")
