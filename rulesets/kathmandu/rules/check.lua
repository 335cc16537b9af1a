-- rules/check.lua
-- Kathmandu invariants, checked after every decision by `cairn check` and `cairn test`:
-- cards, goods, map halves and tents conserved; resources never negative; exhaustion
-- within its slots; every yak on the route and never on a black mountain.

local common = require "rules.common"

local M = {}

---@param players table
---@param f fun(p: table): integer
---@return integer
local function sum(players, f)
  local n = 0
  for _, p in ipairs(players) do n = n + f(p) end
  return n
end

---@param g cairn.G
---@return string?
function M.check(g)
  local st, data = g.state, g.data
  local ps, n = st.players, #st.players
  for s, p in ipairs(ps) do
    for r, v in pairs(p.res) do
      if v < 0 then return "seat " .. s .. " holds " .. v .. " " .. r end
    end
    local ex = data.game.exhaustion
    if p.exhaustion < 0 or (ex.excess == "ignore" and p.exhaustion > ex.slots) then
      return "seat " .. s .. " has " .. p.exhaustion .. " exhaustion markers"
    end
    if p.pos then
      local f = common.field(g, p.pos[1], p.pos[2])
      if not f then return "seat " .. s .. "'s yak is off the route" end
      if f.kind == "mountain" then return "seat " .. s .. "'s yak stands on a mountain" end
      if p.arrived > 0 and f.kind ~= "kathmandu" then return "seat " .. s .. " arrived but is not in Kathmandu" end
    elseif st.phase ~= "start" then
      return "seat " .. s .. "'s yak is not on the route"
    end
    local placed = data.game.candles - p.candles
    local temples = 0
    for _, seats in pairs(st.temples) do temples = temples + common.count(seats, s) end
    if placed < temples or placed > data.characters.pilgrim_candles * temples then return "seat " .. s .. "'s candles do not match its temples" end
    for key, seats in pairs(st.temples) do
      if common.count(seats, s) > 1 then return "temple " .. key .. " holds two offerings of seat " .. s end
    end
  end
  local held = sum(ps, common.resource_total)
  if held ~= st.supply_out then
    return "resources not conserved: seats hold " .. held .. ", the supply handed out " .. st.supply_out
  end
  local animals = #st.animal_deck + #st.animals + sum(ps, function(p) return #p.animals end)
  if animals ~= #data.cards.animals then return "animal cards not conserved: " .. animals end
  local equipment = #st.equipment_deck + #st.equipment + #st.equipment_discard
    + sum(ps, function(p) return #p.equipment + #p.chests end)
  local want = #data.cards.equipment + n * #data.cards.start_equipment
  if equipment ~= want then return "equipment cards not conserved: " .. equipment .. ", expected " .. want end
  local halves = #st.map_pile + #st.maps + sum(ps, function(p) return #p.halves + 2 * #p.chests end)
  want = #data.cards.map_halves.colours * 2 * data.cards.map_halves.copies
  if halves ~= want then return "map halves not conserved: " .. halves .. ", expected " .. want end
  local goods = #st.goods_supply + sum(ps, function(p) return #p.goods end)
  for _, list in pairs(st.cities) do goods = goods + #list end
  want = #data.goods.kinds * #data.goods.tiles
  if goods ~= want then return "goods not conserved: " .. goods .. ", expected " .. want end
  for kind, owner in pairs(st.specials) do
    local holders = sum(ps, function(p) return common.count(p.specials, kind) end)
    if holders ~= (owner == 0 and 0 or 1) or (owner ~= 0 and not common.has(ps[owner].specials, kind)) then
      return "special good " .. kind .. " is in two places"
    end
  end
  if g.options.tents then
    local tents = #st.tent_deck + #st.tent_discard + sum(ps, function(p) return #p.tents end)
    want = #data.landscapes.landscapes * data.tents.per_landscape
    if tents ~= want then return "tent cards not conserved: " .. tents end
  end
  if #st.weather + #st.weather_seen + #st.weather_box ~= data.game.weather.sun + data.game.weather.storm then
    return "weather tiles not conserved"
  end
  return nil
end

return M
