-- tests/lua/test_ids.lua
local ids = require "cairn.ids"

local set = ids.new()
-- the parts one space apart, numbers written as Lua writes them
local a = ids.id(set, "take", "red")
assert(a == "take red")
assert(ids.id(set, "move", 3, "north") == "move 3 north")
assert(ids.id(set, "envoys", "r1", "r1", "r2") == "envoys r1 r1 r2")
assert(ids.id(set, "buy") == "buy")
-- the same string every time, and its parts as given (3 stays a number)
assert(ids.id(set, "take", "red") == a)
local p = set.parts["move 3 north"]
assert(p[1] == "move" and p[2] == 3 and math.type(p[2]) == "integer" and p[3] == "north" and p[4] == nil)
assert(set.parts["buy"][1] == "buy" and set.parts["buy"][2] == nil)
-- "take red" and "take" "red" nested are one id; "take" alone is another
assert(ids.id(set, "take") == "take" and set.parts["take"][2] == nil)
-- an id not made by this set has no parts
assert(set.parts["take blue"] == nil)
-- two sets share nothing
local other = ids.new()
assert(other.parts["take red"] == nil)
assert(ids.id(other, "take", "red") == "take red" and other.parts["take red"] ~= set.parts["take red"])
-- two parts made before come back from the pair index: the same string, and a
-- three-part id sharing its first two parts is still its own
local fresh = ids.new()
local first = ids.id(fresh, "drop", 3)
assert(ids.id(fresh, "drop", 3) == first and first == "drop 3")
assert(ids.id(fresh, "drop", 3, "x") == "drop 3 x" and ids.id(fresh, "drop", 3) == "drop 3")
assert(fresh.parts["drop 3"][2] == 3 and fresh.parts["drop 3 x"][3] == "x")
-- ids.of: one verb's ids by argument, the same strings as ids.id gives, parts kept
local set2 = ids.new()
local drop = ids.of(set2, "drop")
assert(drop[4] == "drop 4" and drop[4] == ids.id(set2, "drop", 4))
assert(set2.parts["drop 4"][2] == 4 and rawget(drop, 4) == "drop 4" and rawget(drop, 5) == nil)
