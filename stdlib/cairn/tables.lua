-- cairn/tables.lua
-- Lookups in scoring tables, and small helpers on plain-data tables.
--
-- Scoring tables in YAML are lists of records, e.g. group points
--   [{size: 2, points: 2}, {size: 3, points: 4}, ...]
-- because a list keeps its order and has no integer-versus-string key question.

local M = {}

---@param opts? table
---@return string, string the key's field and the value's
local function fields(opts)
  opts = opts or {}
  return opts.key or "at", opts.value or "points"
end

-- M.exact(rows, x [, opts]) -> the value of the row whose key equals x, else opts.default.
-- opts: key (default "at"), value (default "points"), default (default nil).
---@param rows table[]
---@param x integer
---@param opts? table
---@return any
function M.exact(rows, x, opts)
  local k, v = fields(opts)
  for i = 1, #rows do
    local row = rows[i]
    if row[k] == x then return row[v] end
  end
  return opts and opts.default
end

-- M.at_least(rows, x [, opts]) -> the value of the row with the largest key <= x
-- ("3 or more groups: 4 points"), else opts.default (0 unless given).
-- Rows need not be sorted. A value beyond the last row clamps to the last row.
---@param rows table[]
---@param x integer
---@param opts? table
---@return any
function M.at_least(rows, x, opts)
  local k, v = fields(opts)
  local best, best_key = nil, nil
  for _, row in ipairs(rows) do
    if row[k] <= x and (best_key == nil or row[k] > best_key) then
      best, best_key = row[v], row[k]
    end
  end
  if best == nil then
    if opts and opts.default ~= nil then return opts.default end
    return 0
  end
  return best
end

-- M.clamp_index(list, i) -> list[i], with i clamped to 1..#list (0 for i < 1 unless
-- a default is given). For plain lists such as {0, 2, 4, 7}.
---@param list any[]
---@param i integer
---@param default? any
---@return any
function M.clamp_index(list, i, default)
  if i < 1 then return default or 0 end
  if i > #list then return list[#list] end
  return list[i]
end

-- M.get(map, key) -> map[key], also trying the key as a string or an integer
-- (YAML map keys may arrive either way).
---@param map table
---@param key string
---@return any
function M.get(map, key)
  local v = map[key]
  if v ~= nil then return v end
  if type(key) == "number" then return map[tostring(key)] end
  local n = math.tointeger(tonumber(key))
  if n then return map[n] end
  return nil
end

-- M.copy(value) -> a deep copy of plain data (tables copied, other values shared).
---@generic T
---@param value T
---@return T
function M.copy(value)
  if type(value) ~= "table" then return value end
  local out = {}
  for k, v in pairs(value) do out[k] = M.copy(v) end
  return out
end

-- M.keys(map) -> the keys, sorted (numbers before strings).
---@param map table
---@return string[]
function M.keys(map)
  local list = {}
  for k in pairs(map) do list[#list + 1] = k end
  table.sort(list, function(a, b)
    local ta, tb = type(a), type(b)
    if ta ~= tb then return ta < tb end
    return a < b
  end)
  return list
end
M.keys_sorted = M.keys

-- M.sum(map_or_list) -> the sum of the integer values.
---@param t table
---@return integer
function M.sum(t)
  local s = 0
  for _, v in pairs(t) do s = s + v end
  return s
end

-- M.find(list, value) -> the index of value in list, or nil.
---@param list any[]
---@param value any
---@return integer?
function M.find(list, value)
  for i = 1, #list do if list[i] == value then return i end end
  return nil
end

-- M.by(list, field, value) -> the first record whose field equals value, or nil.
---@param list table[]
---@param field string
---@param value any
---@return table?
function M.by(list, field, value)
  for i = 1, #list do
    local row = list[i]
    if row[field] == value then return row end
  end
  return nil
end

-- M.max(list [, f]) -> the largest f(item) (f defaults to identity), and the indices
-- of every item that reaches it (ties), or nil for an empty list.
---@param list any[]
---@param f? fun(x:any):integer
---@return any, integer?
function M.max(list, f)
  f = f or function(x) return x end
  local best, who = nil, {}
  for i, item in ipairs(list) do
    local v = f(item)
    if best == nil or v > best then best, who = v, { i }
    elseif v == best then who[#who + 1] = i end
  end
  return best, who
end

return M
