-- rules/map.lua
-- Himalaya: the board as the rules use it (paths by village and type, regions by village)
-- and the checks a map must pass that its schema cannot state: every region named by a
-- village exists and is bordered, the region count, unique ids, the path graph connected.

local derived = require "cairn.derived"
local graph = require "cairn.graph"

local M = {}

-- M.problems(map) -> a list of problems, empty when the map is sound: each is
-- { at = path into g.data, message = text }, so cairn reports it at the map file's line
-- and column, as it does the schema's own errors (schemas/map.schema.yaml has checked the
-- rest). Paths use Lua's indexes: { "map", "villages", 3 } is the third village.
---@param map table
---@return {at: (string|integer)[], message: string}[]
function M.problems(map)
  local out = {}
  local function bad(at, fmt, ...)
    local path = { "map" }
    for _, k in ipairs(at) do path[#path + 1] = k end
    out[#out + 1] = { at = path, message = string.format(fmt, ...) }
  end
  local regions, bordered = {}, {}
  for i, r in ipairs(map.regions) do
    if regions[r.id] then bad({ "regions", i, "id" }, "region %q is listed twice", r.id) end
    regions[r.id] = true
  end
  if #map.regions ~= map.region_count then
    bad({ "region_count" }, "the board has %d regions, the regions list %d", map.region_count, #map.regions)
  end
  for i, v in ipairs(map.villages) do
    for j, r in ipairs(v.regions) do
      if not regions[r] then bad({ "villages", i, "regions", j }, "no region %q in the regions list", r) end
      bordered[r] = true
    end
  end
  for i, r in ipairs(map.regions) do
    if not bordered[r.id] then bad({ "regions", i }, "no village borders region %q", r.id) end
  end
  local ids, edges = {}, {}
  for i, p in ipairs(map.paths) do
    if ids[p.id] then bad({ "paths", i, "id" }, "path %q is listed twice", p.id) end
    ids[p.id] = true
    edges[#edges + 1] = { tostring(p.ends[1]), tostring(p.ends[2]) }
  end
  local nodes = {}
  for _, v in ipairs(map.villages) do nodes[#nodes + 1] = tostring(v.number) end
  local parts = graph.components(graph.new(edges, false, nodes))
  if #parts > 1 then
    local cut = {}
    for k = 2, #parts do for _, n in ipairs(parts[k]) do cut[#cut + 1] = n end end
    table.sort(cut, function(a, b) return tonumber(a) < tonumber(b) end)
    bad({ "paths" }, "the path graph is not connected: %s %s cannot be reached from village %s",
      #cut == 1 and "village" or "villages", table.concat(cut, ", "), parts[1][1])
  end
  return out
end

-- board(data) -> the lookups the rules use:
--   path[v][type] = {id, to}   regions[v] = {"r1", ...}   level[v]   name[v]   by_id[path id]
---@param data table
---@return table the board: paths, regions, levels and names by village
local function board(data)
  local map = data.map
  local b = { path = {}, regions = {}, level = {}, name = {}, by_id = {}, region_ids = {}, n = #map.villages }
  for _, v in ipairs(map.villages) do
    b.path[v.number], b.regions[v.number] = {}, v.regions
    b.level[v.number], b.name[v.number] = v.level, v.name
  end
  for _, p in ipairs(map.paths) do
    local a, c = p.ends[1], p.ends[2]
    b.path[a][p.type] = { id = p.id, to = c }
    b.path[c][p.type] = { id = p.id, to = a }
    b.by_id[p.id] = p
  end
  for i, r in ipairs(map.regions) do b.region_ids[i] = r.id end
  return b
end

-- M.board(data) -> board(data), made once per game (derived.of): every move reads it
---@param data table
---@return table the board: paths, regions, levels and names by village
function M.board(data) return derived.of(data, board) end

return M
