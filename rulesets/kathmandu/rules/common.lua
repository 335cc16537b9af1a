-- rules/common.lua
-- Kathmandu: lookups shared by every rule step: the data by name, the option ids (made
-- once and parsed back by table lookup, never by pattern matching in the hot path), the
-- fields of the route, resources and exhaustion.

local derived = require "cairn.derived"
local ids = require "cairn.ids"

local M = {}

M.DIRECTIONS = { "north", "east", "south", "west" }
M.DR = { north = -1, east = 0, south = 1, west = 0 }
M.DC = { north = 0, east = 1, south = 0, west = -1 }
M.BENDS = { north = { "east", "west" }, south = { "east", "west" },
  east = { "north", "south" }, west = { "north", "south" } }

-- Option ids: M.id(a, b, c, d) -> "a b c d", the same string every time, and M.parse[id]
-- -> {a, b, c, d}: apply reads its arguments from there (cairn.ids).
local ID = ids.new()
local parse = ID.parts
M.parse = parse
---@param a string|integer
---@param b? string|integer
---@param c? string|integer
---@param d? string|integer
---@return string
function M.id(a, b, c, d) return ids.id(ID, a, b, c, d) end

-- M.words(id) -> the parsed id: from M.parse, or split into words (numbers as integers)
-- for an id this sandbox has not made yet
---@param id string
---@return (string|integer)[] the id's words
function M.words(id)
  local a = parse[id]
  if a then return a end
  a = {}
  for w in id:gmatch("%S+") do a[#a + 1] = math.tointeger(tonumber(w)) or w end
  return a
end

---@param r integer
---@param c integer
---@return string
function M.key(r, c) return r .. "," .. c end

-- fields_by_byte(data) -> the field records of landscapes.fields by their letter's byte:
-- the map's rows are strings of these letters
---@param data table
---@return table<integer, table>
local function fields_by_byte(data)
  local by = {}
  for _, f in ipairs(data.landscapes.fields) do by[string.byte(f.letter)] = f end
  return by
end

-- M.field(g, r, c) -> the field record at (r, c) (landscapes.yaml), nil off the route.
---@param g cairn.G
---@param r integer
---@param c integer
---@return table? the field record
function M.field(g, r, c)
  local st = g.state
  local row = st.map[r]
  if not row or c < 1 or c > st.cols then return nil end
  return derived.of(g.data, fields_by_byte)[row:byte(c)]
end

-- M.fields(data) -> fields_by_byte(data), kept for the game by derived.of: a move reads the
-- field of every step, and finding it in the list by its letter instead (row:sub and
-- tables.by) costs 10.7% of a random game's instructions (docs/bench.md)
---@param data table
---@return table<integer, table>
function M.fields(data) return derived.of(data, fields_by_byte) end

-- M.board_of(g, c) -> the index of the board (1 = start) that column c lies on.
---@param g cairn.G
---@param c integer
---@return integer
function M.board_of(g, c) return (c - 1) // g.data.boards.size.cols + 1 end

-- M.landscape_at(g, r, c) -> the landscape of a field, or nil (city, temple, mountain, ...)
---@param g cairn.G
---@param r integer
---@param c integer
---@return string?
function M.landscape_at(g, r, c)
  local f = M.field(g, r, c)
  return f and f.landscape
end

---@param g cairn.G
---@param seat integer
---@return string
function M.seat_name(g, seat)
  local s = g.seats and g.seats[seat]
  return (s and s.name) or g.text("seat", seat)
end

-- M.log(g, key, ...): an event for everyone, g.text(key, ...).
---@param g cairn.G
---@param key string
---@param ... any
function M.log(g, key, ...) g.log_text(key, ...) end

---@param p table
---@return boolean
function M.in_kathmandu(p) return p.arrived > 0 end

-- M.ability(g, p) -> the ability of the seat's character (characters.yaml), or nil
---@param g cairn.G
---@param p table
---@return string?
function M.ability(g, p)
  if not p.character then return nil end
  return derived.by(g.data, g.data.characters.characters, "id", p.character).ability
end

-- M.exhaust(g, seat, n, why): n exhaustion markers; beyond the slots they are ignored or
-- kept, as game.exhaustion.excess says.
---@param g cairn.G
---@param seat integer
---@param n integer
---@param why string
---@return integer the markers placed
function M.exhaust(g, seat, n, why)
  local p = g.state.players[seat]
  local ex = g.data.game.exhaustion
  local before = p.exhaustion
  p.exhaustion = p.exhaustion + n
  if ex.excess == "ignore" then p.exhaustion = math.min(ex.slots, p.exhaustion) end
  M.log(g, "log.exhausted", M.seat_name(g, seat), g.text("why." .. why), p.exhaustion)
  return p.exhaustion - before
end

-- M.spend(g, seat, res) / M.receive(g, seat, res): a resource back to the supply, or from
-- it; the supply is unlimited, st.supply_out counts what it has handed out (check.lua)
---@param g cairn.G
---@param seat integer
---@param res string
function M.spend(g, seat, res)
  local st = g.state
  st.players[seat].res[res] = st.players[seat].res[res] - 1
  st.supply_out = st.supply_out - 1
end

---@param g cairn.G
---@param seat integer
---@param res string
function M.receive(g, seat, res)
  local st = g.state
  st.players[seat].res[res] = st.players[seat].res[res] + 1
  st.supply_out = st.supply_out + 1
end

-- M.resource_total(p) -> the resources a seat holds.
---@param p table
---@return integer
function M.resource_total(p)
  local n = 0
  for _, v in pairs(p.res) do n = n + v end
  return n
end

-- M.remove(list, v) -> removes the first v from list; true if found
---@param list any[]
---@param v any
---@return boolean
function M.remove(list, v)
  for i = 1, #list do
    if list[i] == v then table.remove(list, i); return true end
  end
  return false
end

---@param list any[]
---@param v any
---@return integer
function M.count(list, v)
  local n = 0
  for i = 1, #list do if list[i] == v then n = n + 1 end end
  return n
end

---@param list any[]
---@param v any
---@return boolean
function M.has(list, v)
  for i = 1, #list do if list[i] == v then return true end end
  return false
end

-- M.other(half) -> the matching half of the pair ("red-a" <-> "red-b") and its colour
---@param half string a map half ("red-a")
---@return string, string the other half and its colour
function M.pair_of(half)
  local colour, side = half:match("^(.-)%-(%a)$")
  return colour .. (side == "a" and "-b" or "-a"), colour
end

return M
