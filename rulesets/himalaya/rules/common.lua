-- rules/common.lua
-- Himalaya: lookups shared by every rule step: names, the option ids (made once per game,
-- never in the hot path), cube helpers, the level tables (with the upheaval option), pieces.

local derived = require "cairn.derived"
local ids = require "cairn.ids"
local tables = require "cairn.tables"
local ctext = require "cairn.text"   -- seat_name
local map = require "rules.map"

local M = {}

---@param g cairn.G
---@param key string
---@param ... any
---@return string
function M.t(g, key, ...) return g.text(key, ...) end

-- the words of data ids in the game's language (text keys by id): a cube type
-- ("cube.salt"), a path type ("path.dirt"), an action in a program ("word.dirt": short, one
-- word; "action.dirt" is its name on a label). The news of every decision name them, so
-- they are looked up once per game data and language, not once per event: a random game
-- spends its time in apply, and the arguments of an event are worked out even in a playout
-- that keeps none (6% of `cairn sim himalaya` when each word was a call of cairn.text's name)
local words_data, words_lang, words
---@param g cairn.G
---@return table the words by kind (cube, path, word) and id
local function words_of(g)
  if words_data == g.data and words_lang == g.lang then return words end
  local w = { cube = {}, path = {}, word = {} }
  for _, ty in ipairs(g.data.resources.types) do w.cube[ty.id] = g.text("cube." .. ty.id) end
  for _, ty in ipairs(g.data.game.path_types) do w.path[ty] = g.text("path." .. ty) end
  for _, a in ipairs(M.ACTION_IDS) do w.word[a] = g.text("word." .. a) end
  words_data, words_lang, words = g.data, g.lang, w
  return w
end

---@param g cairn.G
---@param t string a cube type
---@return string
function M.cube_name(g, t) return words_of(g).cube[t] end
---@param g cairn.G
---@param t string a path type
---@return string
function M.path_word(g, t) return words_of(g).path[t] end
---@param g cairn.G
---@param a string an action
---@return string
function M.action_word(g, a) return words_of(g).word[a] end

-- M.program_text(g, prog) -> the actions of a program, one word each: "dirt ice deal"
---@param g cairn.G
---@param prog string[]
---@return string
function M.program_text(g, prog)
  local n = #prog
  if n == 0 then return "" end
  local w = words_of(g).word
  local s = w[prog[1]]
  for i = 2, n do s = s .. " " .. w[prog[i]] end
  return s
end

-- M.cubes_text(g, cubes) -> cube types by name, one each: "salt salt tea"
---@param g cairn.G
---@param cubes string[]
---@return string
function M.cubes_text(g, cubes)
  local w, out = words_of(g).cube, {}
  for i, c in ipairs(cubes) do out[i] = w[c] end
  return table.concat(out, " ")
end

---@param g cairn.G
---@param seat integer
---@return string
function M.seat_name(g, seat) return ctext.seat_name(g, seat) end   -- else the text "seat"

---@param g cairn.G
---@return table the board: paths, regions, names and levels by village
function M.board(g) return map.board(g.data) end

---@param g cairn.G
---@param v integer a village
---@return string
function M.village_name(g, v) return M.board(g).name[v] end

---@param g cairn.G
---@param r string a region's id
---@return string
function M.region_name(g, r)
  local region = tables.by(g.data.map.regions, "id", r)
  return region and region.name or r
end

-- cheapest_first(data) -> the cube types cheapest first by resources.types[].value (a Deal
-- takes the cheapest cube); equal values keep the list's order
---@param data table
---@return string[]
local function cheapest_first(data)
  local order = {}
  for i, ty in ipairs(data.resources.types) do order[i] = { id = ty.id, value = ty.value, i = i } end
  table.sort(order, function(a, b) return a.value < b.value or (a.value == b.value and a.i < b.i) end)
  local list = {}
  for i, ty in ipairs(order) do list[i] = ty.id end
  return list
end

-- ranks(data) -> each cube type's place in cheapest_first (1 = cheapest)
---@param data table
---@return table<string, integer>
local function ranks(data)
  local rank = {}
  for i, ty in ipairs(M.types(data)) do rank[ty] = i end
  return rank
end

-- M.types(data) -> the resource types, cheapest first (made once per game: sorting them
-- again at every call costs 3.2% of a random game's instructions, docs/bench.md)
---@param data table
---@return string[] the cube types, cheapest first
function M.types(data) return derived.of(data, cheapest_first) end

-- M.sort_cubes(data, list): a village's cubes, cheapest first (in place)
---@param data table
---@param list any[]
---@return string[] list, sorted
function M.sort_cubes(data, list)
  local rank = derived.of(data, ranks)
  table.sort(list, function(a, b) return rank[a] < rank[b] end)
  return list
end

-- M.level_row(g, v) -> {stupa = points, envoys = count} for village v's level
-- (game.levels), with the upheaval option's points (variants.upheaval.stupa) and, when it
-- says reverse_envoys, the envoys of level 4 - l
---@param g cairn.G
---@param v integer a village
---@return table the level's row: stupa, envoys, name
function M.level_row(g, v)
  local levels, level = g.data.game.levels, M.board(g).level[v]
  local row = tables.by(levels, "level", level)
  if not g.options.upheaval then return row end
  local up = g.data.variants.upheaval
  local stupa = tables.exact(up.stupa, level, { key = "level" }) or row.stupa
  local reversed = up.reverse_envoys and tables.by(levels, "level", 4 - level)
  return { stupa = stupa, envoys = reversed and reversed.envoys or row.envoys, name = row.name }
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
-- "envoys r1 r1 r2" (multisets, regions in list order)
---@param regions string[] region ids
---@param n integer
---@return string[] the ids
function M.envoy_lines(regions, n)
  local got = {}
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
---@param g cairn.G
---@param id string
---@return table the ring's definition (data rings.rings)
function M.ring_def(g, id) return tables.by(g.data.rings.rings, "id", id) end

-- M.wants_text(g, id) -> "2 salt + 1 tea"
---@param g cairn.G
---@param id string
---@return string
function M.wants_text(g, id)
  local r, parts = M.ring_def(g, id), {}
  for _, t in ipairs(M.types(g.data)) do
    if r.wants[t] then parts[#parts + 1] = r.wants[t] .. " " .. M.cube_name(g, t) end
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
