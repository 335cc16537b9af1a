-- rules/common.lua
-- Himalaya: lookups shared by every rule step: names, the option ids (made once per game,
-- never in the hot path), cube helpers, the level tables (with the upheaval option), pieces.

local ids = require "cairn.ids"
local map = require "rules.map"

local M = {}

---@param g cairn.G
---@param key string
---@param ... any
---@return string
function M.t(g, key, ...) return g.text(key, ...) end

---@param g cairn.G
---@param seat integer
---@return string
function M.seat_name(g, seat)
  local s = g.seats and g.seats[seat]
  return (s and s.name) or ("seat " .. seat)
end

---@param g cairn.G
---@return table the board: paths, regions, names and levels by village
function M.board(g) return map.board(g.data) end

---@param g cairn.G
---@param v integer a village
---@return string
function M.village_name(g, v) return M.board(g).name[v] end

local region_names
---@param g cairn.G
---@param r string a region's id
---@return string
function M.region_name(g, r)
  if not region_names then
    region_names = {}
    for _, x in ipairs(g.data.map.regions) do region_names[x.id] = x.name end
  end
  return region_names[r] or r
end

-- the resource types cheapest first, and each type's rank (1 = cheapest)
local types_cache, rank_cache
---@param data table
---@return string[] the cube types, cheapest first
function M.types(data)
  if not types_cache then
    -- cheapest first by resources.types[].value (a Deal takes the cheapest cube); equal
    -- values keep the list's order
    types_cache, rank_cache = {}, {}
    local order = {}
    for i, t in ipairs(data.resources.types) do order[i] = { id = t.id, value = t.value, i = i } end
    table.sort(order, function(a, b) return a.value < b.value or (a.value == b.value and a.i < b.i) end)
    for i, t in ipairs(order) do types_cache[i], rank_cache[t.id] = t.id, i end
  end
  return types_cache
end
---@param data table
---@param t string a cube type
---@return integer
function M.rank(data, t) M.types(data) return rank_cache[t] end

-- M.sort_cubes(data, list): a village's cubes, cheapest first (in place)
---@param data table
---@param list any[]
---@return string[] list, sorted
function M.sort_cubes(data, list)
  M.types(data)
  table.sort(list, function(a, b) return rank_cache[a] < rank_cache[b] end)
  return list
end

-- M.level_row(g, v) -> {stupa = points, envoys = count} for village v, with upheaval applied
local level_caches = {}
---@param g cairn.G
---@param v integer a village
---@return table the level's row: stupa, envoys, name
function M.level_row(g, v)
  local key = g.options.upheaval and "upheaval" or "base"
  local level_cache = level_caches[key]
  if not level_cache then
    level_cache = {}
    level_caches[key] = level_cache
    for _, row in ipairs(g.data.game.levels) do
      level_cache[row.level] = { stupa = row.stupa, envoys = row.envoys, name = row.name }
    end
    if g.options.upheaval then
      local up = g.data.variants.upheaval
      local rev = {}
      for _, row in ipairs(up.stupa) do rev[row.level] = row.points end
      local base_envoys = {}
      for l, row in pairs(level_cache) do base_envoys[l] = row.envoys end
      for l, row in pairs(level_cache) do
        row.stupa = rev[l] or row.stupa
        if up.reverse_envoys then row.envoys = base_envoys[4 - l] or row.envoys end
      end
    end
  end
  return level_cache[M.board(g).level[v]]
end

-- ids, made once per game (cairn.ids)
M.ACTION_IDS = { "dirt", "ice", "stone", "deal", "rest" }
local ID = ids.new()
---@param kind string
---@param x string|integer
---@return string
local function id_of(kind, x) return ids.id(ID, kind, x) end
---@param v integer a village
---@return string
function M.start_id(v) return id_of("start", v) end
---@param r string a region's id
---@return string
function M.envoy_id(r) return id_of("envoy", r) end
---@param t string a cube type
---@return string
function M.take_id(t) return id_of("take", t) end
---@param v integer a village
---@return string
function M.stupa_id(v) return id_of("stupa", v) end
---@param kind string
---@param target string|integer
---@return string
function M.event_id(kind, target) return id_of(kind, target) end

-- M.envoy_lines(regions, n) -> every way of placing n envoys in the regions, as ids
-- "envoys r1 r1 r2" (multisets, regions in list order); cached by region list and n
local lines_cache = {}
---@param regions string[] region ids
---@param n integer
---@return string[] the ids
function M.envoy_lines(regions, n)
  local key = table.concat(regions, " ") .. "#" .. n
  local got = lines_cache[key]
  if got then return got end
  got = {}
  local pick = {}
  local function rec(from, left)
    if left == 0 then got[#got + 1] = "envoys " .. table.concat(pick, " ") return end
    for i = from, #regions do
      pick[#pick + 1] = regions[i]
      rec(i, left - 1)
      pick[#pick] = nil
    end
  end
  rec(1, n)
  lines_cache[key] = got
  return got
end

-- M.cube_count(p) -> cubes behind a player's screen
---@param p table
---@return integer
function M.cube_count(p)
  local n = 0
  for _, c in pairs(p.cubes) do n = n + c end
  return n
end

-- M.ring_def(g, id) -> the ring's data record
local ring_cache
---@param g cairn.G
---@param id string
---@return table the ring's definition (data rings.rings)
function M.ring_def(g, id)
  if not ring_cache then
    ring_cache = {}
    for _, r in ipairs(g.data.rings.rings) do ring_cache[r.id] = r end
  end
  return ring_cache[id]
end

-- M.wants_text(g, id) -> "2 salt + 1 tea"
---@param g cairn.G
---@param id string
---@return string
function M.wants_text(g, id)
  local r, parts = M.ring_def(g, id), {}
  for _, t in ipairs(M.types(g.data)) do
    if r.wants[t] then parts[#parts + 1] = r.wants[t] .. " " .. t end
  end
  return table.concat(parts, " + ")
end

-- M.yaks(g, seat) -> yaks on kept rings + inventory tokens
---@param g cairn.G
---@param seat integer
---@return integer
function M.yaks(g, seat)
  local p = g.state.players[seat]
  local y = 0
  for _, id in ipairs(p.rings) do y = y + M.ring_def(g, id).yaks end
  return y + p.tokens * g.data.game.inventory.reward
end

-- M.show_rings(g, seat): the public copy of kept rings when the rules say they are public
---@param g cairn.G
---@param seat integer
function M.show_rings(g, seat)
  local p = g.state.players[seat]
  p.ring_count = #p.rings
  if g.data.game.visibility.kept_rings_public then
    local copy = {}
    for i, id in ipairs(p.rings) do copy[i] = id end
    p.shown_rings = copy
  end
end

return M
