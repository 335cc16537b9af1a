-- tests/lua/test_track.lua
package.path = "tests/lua/?.lua;" .. package.path
local track = require "cairn.track"

local t = track.new(0, 10)
track.place(t, "1", 8)
assert(track.move(t, "1", 5) == 10, "clamps at the end")
assert(track.is_at_end(t, "1"))
assert(track.move(t, "1", -20) == 0, "clamps at the start")
local w = track.new(1, 4, true)
track.place(w, "a", 3)
local p, laps = track.move(w, "a", 3)  -- 3 -> 4 -> 1 -> 2
assert(p == 2 and laps == 1)
p, laps = track.move(w, "a", -2)      -- 2 -> 1 -> 4
assert(p == 4 and laps == -1)
track.place(w, "b", 4)
assert(table.concat(track.at(w, 4), "") == "ab")
track.place(w, "c", 1)
assert(table.concat(track.ranking(w), "") == "abc")
assert(track.position(w, "z") == nil)
assert(select(1, track.step(5, 7, 1, 6, true)) == 6)
print("test_track ok")
-- from a track component: spaces start .. start + length - 1
local ct = track.from_component({ length = 30, loop = true })
assert(ct.min == 0 and ct.max == 29 and ct.wrap == true)
track.place(ct, "1", 28)
assert(track.move(ct, "1", 3) == 1)
print("test_track component ok")
