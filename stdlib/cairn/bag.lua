-- cairn/bag.lua
-- A bag of items drawn at random: plain data, a map item -> count.
--
-- A bag is a string-keyed map of positive integers ({red = 8, fog = 5}), so it is
-- valid game state and the `count` visibility policy shows its size. Draws walk the
-- items in sorted order, so the same rng gives the same draw in every process.

local M = {}

-- M.new(contents) -> bag. contents: a map item -> count, or a list of items.
---@param contents table<string, integer>|string[]
---@return table<string, integer>
function M.new(contents)
  local bag = {}
  if contents == nil then return bag end
  if #contents > 0 then
    for _, item in ipairs(contents) do M.add(bag, item, 1) end
  else
    for item, n in pairs(contents) do M.add(bag, item, n) end
  end
  return bag
end

-- M.add(bag, item, n): put n (default 1) of item into the bag.
---@param bag table<string, integer>
---@param item string
---@param n? integer
---@return table<string, integer> the bag
function M.add(bag, item, n)
  n = n or 1
  assert(type(item) == "string", "bag items are strings")
  assert(math.type(n) == "integer" and n >= 0, "bag counts are integers >= 0")
  if n > 0 then bag[item] = (bag[item] or 0) + n end
  return bag
end

-- M.remove(bag, item, n): take n (default 1) of item out; error if there are fewer.
---@param bag table<string, integer>
---@param item string
---@param n? integer
---@return table<string, integer> the bag
function M.remove(bag, item, n)
  n = n or 1
  local have = bag[item] or 0
  if have < n then
    error(string.format("bag holds %d %s, cannot remove %d", have, item, n), 2)
  end
  if have == n then bag[item] = nil else bag[item] = have - n end
  return bag
end

-- M.count(bag [, item]) -> how many of item, or of everything.
---@param bag table<string, integer>
---@param item? string
---@return integer
function M.count(bag, item)
  if item ~= nil then return bag[item] or 0 end
  local total = 0
  for _, n in pairs(bag) do total = total + n end
  return total
end

-- M.items(bag) -> the distinct items, sorted.
---@param bag table<string, integer>
---@return string[]
function M.items(bag)
  local list = {}
  for item, n in pairs(bag) do if n > 0 then list[#list + 1] = item end end
  table.sort(list)
  return list
end

-- M.contents(bag) -> a copy as a map item -> count.
---@param bag table<string, integer>
---@return table<string, integer>
function M.contents(bag)
  local copy = {}
  for item, n in pairs(bag) do if n > 0 then copy[item] = n end end
  return copy
end

-- M.list(bag) -> every item once per copy, sorted ({"blue", "red", "red"}).
---@param bag table<string, integer>
---@return string[]
function M.list(bag)
  local list = {}
  for _, item in ipairs(M.items(bag)) do
    for _ = 1, bag[item] do list[#list + 1] = item end
  end
  return list
end

-- M.is_empty(bag) -> true when nothing is left.
---@param bag table<string, integer>
---@return boolean
function M.is_empty(bag) return next(bag) == nil end

-- M.draw(bag, rng [, kinds]) -> one item drawn uniformly and removed, or nil if the bag
-- is empty. rng is g.rng (only rng.int is used). The items are walked in sorted order:
-- pairs visits string keys sorted by bytes (docs/sandbox.md, Determinism), the order
-- M.items gives. kinds, when given, is a sorted list of every item the bag may hold
-- (more does no harm): the draw then looks those up instead of walking the bag, which
-- costs a sort of its keys in the sandbox, and draws the same item.
-- the draw over a list of kinds: one walk for the total, one to find the item drawn
-- (the same item as a walk over the bag's items; no lists are made)
---@param bag table<string, integer>
---@param rng cairn.Rng
---@param kinds string[] sorted: every item the bag may hold
---@return string?
local function draw_from_kinds(bag, rng, kinds)
  local total = 0
  for i = 1, #kinds do
    local n = bag[kinds[i]]
    if n and n > 0 then total = total + n end
  end
  if total == 0 then return nil end
  local r = rng.int(1, total)
  for i = 1, #kinds do
    local item = kinds[i]
    local n = bag[item]
    if n and n > 0 then
      r = r - n
      if r <= 0 then
        if n == 1 then bag[item] = nil else bag[item] = n - 1 end
        return item
      end
    end
  end
  error("bag.draw: unreachable")
end

---@param bag table<string, integer>
---@param rng cairn.Rng
---@param kinds? string[]
---@return string?
function M.draw(bag, rng, kinds)
  if kinds then return draw_from_kinds(bag, rng, kinds) end
  local items, counts, k, total = {}, {}, 0, 0
  for item, n in pairs(bag) do
    if n > 0 then
      k, total = k + 1, total + n
      items[k], counts[k] = item, n
    end
  end
  if total == 0 then return nil end
  local r = rng.int(1, total)
  for i = 1, k do
    r = r - counts[i]
    if r <= 0 then
      local item = items[i]
      if counts[i] == 1 then bag[item] = nil else bag[item] = counts[i] - 1 end
      return item
    end
  end
  error("bag.draw: unreachable")
end

-- M.draw_many(bag, rng, n [, kinds]) -> a list of up to n items (fewer if the bag runs
-- out); kinds as for M.draw.
---@param bag table<string, integer>
---@param rng cairn.Rng
---@param n integer
---@param kinds? string[]
---@return string[]
function M.draw_many(bag, rng, n, kinds)
  local out = {}
  for _ = 1, n do
    local item = M.draw(bag, rng, kinds)
    if item == nil then break end
    out[#out + 1] = item
  end
  return out
end

-- M.add_all(bag, items): put every item of a list back.
---@param bag table<string, integer>
---@param items string[]
---@return table<string, integer> the bag
function M.add_all(bag, items)
  for _, item in ipairs(items) do M.add(bag, item, 1) end
  return bag
end

-- M.from_component(def) -> a bag from a `bag` component of schemas/components.schema.yaml
-- ({contents = {salt = 12, tea = 12}}).
---@param def table
---@return table<string, integer>
function M.from_component(def) return M.new(def.contents) end

return M
