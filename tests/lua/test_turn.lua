-- tests/lua/test_turn.lua
package.path = "tests/lua/?.lua;" .. package.path
local turn = require "cairn.turn"

assert(turn.next(4, 4) == 1 and turn.next(1, 4) == 2)
assert(turn.prev(1, 4) == 4 and turn.next(1, 4, -1) == 4)
assert(table.concat(turn.order(3, 4), " ") == "3 4 1 2")
assert(table.concat(turn.order(3, 4, -1), " ") == "3 2 1 4")
assert(turn.rotate_start(2, 3) == 3)
assert(turn.distance(4, 2, 4) == 2 and turn.distance(4, 2, 4, -1) == 2)
assert(turn.distance(1, 2, 3, -1) == 2)
assert(turn.position({ 3, 1, 2 }, 2) == 3)
assert(turn.step(1, 3, -4) == 3)
print("test_turn ok")
