-- cairn/derived.lua
-- Tables worked out from the game's data once per game: a list sorted by a rule of the
-- data, an index of the data's records by id. g.data does not change during a game and
-- is the same table in every handler, so what is derived from it is made on its first
-- use and handed back after; a new game's data (another table) starts afresh. Rules read
-- like the rulebook (`derived.of(g.data, stone_kinds)`, `derived.by(g.data,
-- g.data.rings.rings, "id", id)`), and the keeping is written once, here, not in each
-- ruleset (docs/bench.md, "The rulesets' derived-data memos": where reading the data
-- again at every call measured too dear).
--
-- Only for g.data and tables inside it: g.state changes, and a table derived from it
-- would go stale. Callers must not change what these return.

local M = {}

-- what is kept, for one game's data: made[f] = f(data); index[list][field] = records by value
local kept_data, made, index = nil, {}, {}


-- M.of(data, f) -> f(data), made on the first call with this game's data and f, the same
-- table after. f is a function defined once (a module's local), not a closure made per
-- call (each closure would be kept as a new key).
---@param data table g.data
---@param f fun(data: table): any
---@return any
function M.of(data, f)
  if data ~= kept_data then kept_data, made, index = data, {}, {} end -- a new game's data
  local v = made[f]
  if v == nil then
    v = f(data)
    made[f] = v
  end
  return v
end

-- M.by(data, list, field, value) -> the first record of list whose field equals value,
-- or nil: tables.by, through an index of list by field made once per game's data. list
-- is a list of g.data (`g.data.carts.carts`).
---@param data table g.data
---@param list table[] a list inside data
---@param field string
---@param value any
---@return table?
function M.by(data, list, field, value)
  if data ~= kept_data then kept_data, made, index = data, {}, {} end -- a new game's data
  local of_list = index[list]
  if not of_list then
    of_list = {}
    index[list] = of_list
  end
  local by_value = of_list[field]
  if not by_value then
    by_value = {}
    for i = #list, 1, -1 do -- from the end: the first record with a value wins
      local v = list[i][field]
      if v ~= nil then by_value[v] = list[i] end
    end
    of_list[field] = by_value
  end
  return by_value[value]
end

return M
