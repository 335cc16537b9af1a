-- cairn/ids.lua
-- Option ids made once: "take red", "envoy r2", "move 3 north". A decision offers the
-- same ids again and again and apply reads their parts back; building and splitting
-- strings on every decision would cost as much as the rule itself. An id set keeps each
-- id it made keyed by its parts (a lookup builds no string): a two-part id in the pair
-- index (pairs[a][b], one table per first part), any other in a tree, one level a part;
-- and each id's parts.

local M = {}

-- M.new() -> an empty id set, {parts = {}, tree = {}, pairs = {}}. A ruleset keeps one in a module
-- local: a new game starts from the module as its loading left it (run again, or put back
-- as it was: docs/lua-api.md, "One process, many games"), so no id set outlives its game.
---@return cairn.IdSet
function M.new() return { parts = {}, tree = {}, pairs = {} } end

-- M.id(set, a [, b [, c [, d]]]) -> "a b c d", the parts given one space apart, the same
-- string every time; set.parts[id] -> {a, b, c, d} as given (numbers stay numbers).
---@param set cairn.IdSet
---@param a string|integer
---@param b? string|integer
---@param c? string|integer
---@param d? string|integer
---@return string
function M.id(set, a, b, c, d)
  if c == nil and b ~= nil then -- the common "verb arg": the pair index alone
    local by_a = set.pairs[a]
    if not by_a then by_a = {}; set.pairs[a] = by_a end
    local s = by_a[b]
    if not s then
      s = (type(a) == "string" and a or tostring(a)) .. " " .. b
      by_a[b] = s
      set.parts[s] = { a, b }
    end
    return s
  end
  local tree = set.tree
  local node = tree[a]
  if not node then node = {}; tree[a] = node end
  if b ~= nil then
    local n = node[b]; if not n then n = {}; node[b] = n end; node = n
    if c ~= nil then
      n = node[c]; if not n then n = {}; node[c] = n end; node = n
      if d ~= nil then
        n = node[d]; if not n then n = {}; node[d] = n end; node = n
      end
    end
  end
  local s = node[false]
  if not s then
    s = tostring(a)
    if b ~= nil then s = s .. " " .. b end
    if c ~= nil then s = s .. " " .. c end
    if d ~= nil then s = s .. " " .. d end
    node[false] = s
    set.parts[s] = { a, b, c, d }
  end
  return s
end

-- M.of(set, a) -> the ids of one verb by argument, read like a list: t[b] is
-- M.id(set, a, b), made on its first read and kept in t ("drop" by column:
-- `local DROP = ids.of(ids.new(), "drop")`, then `DROP[c]` is "drop 3" for c = 3).
---@param set cairn.IdSet
---@param a string|integer
---@return table<string|integer, string>
function M.of(set, a)
  return setmetatable({}, { __index = function(t, b)
    local id = M.id(set, a, b)
    t[b] = id -- no __newindex: kept in t itself
    return id
  end })
end

return M
