-- rules/check.lua
-- Yak invariants, checked after every decision by `cairn check` and `cairn test`:
-- food in play is conserved, every stone is somewhere, towers are legal, limits hold.

local bag = require "cairn.bag"
local tables = require "cairn.tables"
local common = require "rules.common"
local tower = require "rules.tower"

local M = {}

-- the food put into play at setup: reserves, carts and the market
---@param data table
---@param seats integer the seat count
---@return integer
local function food_in_play(data, seats)
  local total = seats * tables.sum(data.economy.start_food) + tables.sum(data.economy.market_start)
  local by = tables.by(data.carts.by_seats, "seats", seats)
  for _, id in ipairs(by.carts) do total = total + tables.sum(common.cart_def(data, id).start_food) end
  return total
end

---@param counts table<string, integer> counts by stone kind
---@param stones string[]
local function count_into(counts, stones)
  for _, s in ipairs(stones) do counts[s] = (counts[s] or 0) + 1 end
end

---@param g cairn.G
---@return string?
function M.check(g)
  local st, data = g.state, g.data
  local n = #st.players
  -- food
  local food = tables.sum(st.market)
  for s, p in ipairs(st.players) do
    food = food + tables.sum(p.food)
    if tables.sum(p.food) > data.economy.food_cap then return "seat " .. s .. " holds more food than the cap" end
  end
  for _, cart in ipairs(st.carts) do
    food = food + tables.sum(cart.food)
    if tables.sum(cart.food) > data.carts.capacity.food then return "cart " .. cart.id .. " holds too much food" end
    if #cart.stones > data.carts.capacity.stones then return "cart " .. cart.id .. " holds too many stones" end
    local def = common.cart_def(data, cart.id)
    for k, v in pairs(cart.food) do
      if v > 0 and not tables.find(def.accepts, k) then return "cart " .. cart.id .. " carries " .. k end
    end
  end
  for k, v in pairs(st.market) do if v < 0 then return "market " .. k .. " below 0" end end
  for _, food_kind in ipairs(data.foods.kinds) do
    local k = food_kind.id
    local kind = st.market[k]
    for _, p in ipairs(st.players) do kind = kind + p.food[k] end
    for _, cart in ipairs(st.carts) do kind = kind + cart.food[k] end
    if kind > data.foods.tokens_per_kind then return "more " .. k .. " in play than the box holds" end
  end
  local expected = food_in_play(data, n)
  if food ~= expected then
    return string.format("food not conserved: %d in play, expected %d", food, expected)
  end
  -- stones
  local counts = bag.contents(st.bag)
  for _, cart in ipairs(st.carts) do count_into(counts, cart.stones) end
  for s, p in ipairs(st.players) do
    for _, row in ipairs(p.tower) do
      for _, v in ipairs(row) do if v then counts[v] = (counts[v] or 0) + 1 end end
    end
    local bad = tower.valid(data, p.tower)
    if bad then return "seat " .. s .. ": " .. bad end
  end
  if st.action then
    count_into(counts, st.action.stones or {})
    count_into(counts, st.action.drawn or {})
  end
  local fog_id, crystal = data.stones.fog.id, data.stones.crystal
  local fog = (counts[fog_id] or 0) + st.fog.track + st.fog.out + st.fog.aside
  if fog ~= data.stones.fog.count then return "fog stones not conserved: " .. fog end
  if (counts[crystal.id] or 0) ~= crystal.count then
    return "crystals not conserved: " .. (counts[crystal.id] or 0)
  end
  for _, c in ipairs(st.colours) do
    if (counts[c] or 0) ~= data.stones.per_colour then
      return string.format("%s stones not conserved: %d", c, counts[c] or 0)
    end
  end
  local known = #st.colours + 2
  local kinds = 0
  for _ in pairs(counts) do kinds = kinds + 1 end
  if kinds > known then return "a stone of a colour not in play" end
  return nil
end

return M
