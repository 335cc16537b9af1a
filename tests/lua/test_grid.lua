-- tests/lua/test_grid.lua
package.path = "tests/lua/?.lua;" .. package.path
local grid = require "cairn.grid"

local function keys(cells)
  local t = {}
  for _, c in ipairs(cells) do t[#t + 1] = grid.key(c[1], c[2]) end
  table.sort(t)
  return table.concat(t, " ")
end

-- rectangle 3x3, 1-based
local sq = { rows = 3, cols = 3 }
assert(keys(grid.neighbours(sq, 1, 1)) == "1,2 2,1")
assert(#grid.neighbours({ rows = 3, cols = 3, diagonal = true }, 2, 2) == 8)
assert(#grid.cells(sq) == 9 and grid.in_bounds(sq, 3, 3) and not grid.in_bounds(sq, 4, 1))
assert(select(2, grid.parse("12,-3")) == -3)

-- the Yak tower: a brick pyramid 5-4-3-2-1, rows and columns from 0
local tower = { widths = { 5, 4, 3, 2, 1 }, layout = "brick", origin = 0 }
assert(#grid.cells(tower) == 15)
-- (1,1) touches (1,0) (1,2), rests on (0,1) (0,2), carries (2,0) (2,1)
assert(keys(grid.neighbours(tower, 1, 1)) == "0,1 0,2 1,0 1,2 2,0 2,1")
assert(keys(grid.neighbours(tower, 4, 0)) == "3,0 3,1")
assert(keys(grid.below(tower, 2, 1)) == "1,1 1,2")

-- groups: a red pair on the base and a red stone on top of them
local cells = { ["0,0"] = "red", ["0,1"] = "red", ["0,2"] = "blue", ["1,0"] = "red", ["0,3"] = "red" }
local groups = grid.groups(tower, function(r, c) return cells[grid.key(r, c)] end)
assert(#groups == 3)
assert(groups[1].value == "red" and #groups[1].cells == 3)
assert(groups[2].value == "blue" and groups[3].value == "red" and #groups[3].cells == 1)
-- flood by predicate
local occupied = function(r, c) return cells[grid.key(r, c)] ~= nil end
assert(#grid.flood(tower, 0, 0, occupied) == 5)
assert(#grid.flood(tower, 4, 0, occupied) == 0)

-- offset (hex) rows: even rows reach up-left, odd rows up-right
local hex = { rows = 3, cols = 3, layout = "offset" }
assert(keys(grid.neighbours(hex, 2, 2)) == "1,2 1,3 2,1 2,3 3,2 3,3")
assert(keys(grid.neighbours(hex, 1, 2)) == "1,1 1,3 2,1 2,2")
print("test_grid ok")
-- from a grid_board component
local gb = grid.from_component({ rows = 2, cols = 3, adjacency = "hex" })
assert(gb.layout == "offset" and #grid.cells(gb) == 6)
assert(grid.from_component({ rows = 2, cols = 2, adjacency = "diagonal" }).diagonal)
print("test_grid component ok")
