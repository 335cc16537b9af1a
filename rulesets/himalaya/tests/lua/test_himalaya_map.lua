-- rulesets/himalaya/tests/lua/test_himalaya_map.lua
-- The map checks a schema cannot state (rules/map.lua): region references, every region
-- bordered, the region count, unique ids, the path graph connected. The schema's own checks
-- (numbering, levels, 2-3 paths, one path of each type) are shown on broken map files by
-- tests/transcripts/himalaya-maps.txt.
local map = require "rules.map"
local tables = require "cairn.tables"
local data = test.ruleset().data

assert(#map.problems(data.map) == 0, "the shipped map is sound")

local function broken(edit)
  local m = tables.copy(data.map)
  edit(m)
  return table.concat(map.problems(m), "\n")
end

-- a village names a region that does not exist
local p = broken(function(m) m.villages[3].regions = { "r9" } end)
assert(p:find('data/map.yaml: villages[2].regions[0]: no region "r9" in the regions list', 1, true), p)
-- a region nobody borders (village 16 was r5's only... r5 = 11, 12, 16, 17: drop r5 from all)
p = broken(function(m)
  for _, v in ipairs(m.villages) do
    local keep = {}
    for _, r in ipairs(v.regions) do if r ~= "r5" then keep[#keep + 1] = r end end
    if #keep == 0 then keep = { "r4" } end
    v.regions = keep
  end
end)
assert(p:find('data/map.yaml: regions[4]: no village borders region "r5"', 1, true), p)
-- the region count
p = broken(function(m) m.region_count = 9 end)
assert(p:find("data/map.yaml: region_count: the board has 9 regions, the regions list 8", 1, true), p)
-- duplicate ids
p = broken(function(m) m.paths[2].id = "p01" end)
assert(p:find('data/map.yaml: paths[1].id: path "p01" is listed twice', 1, true), p)
-- not connected: cut 5-10 and 4-5 -> village 5 alone
p = broken(function(m)
  local keep = {}
  for _, x in ipairs(m.paths) do
    if not ((x.ends[1] == 5 or x.ends[2] == 5)) then keep[#keep + 1] = x end
  end
  m.paths = keep
end)
assert(p:find("data/map.yaml: paths: the path graph is not connected: village 5 cannot be reached from village 1", 1, true), p)
-- validate raises them all
assert(not pcall(map.validate, (function() local m = tables.copy(data.map) m.region_count = 1 return m end)()))
