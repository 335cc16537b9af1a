-- rules/market.lua
-- Yak, the Market card: take 2 food of your choice from the market (exactly 2 while a
-- take is legal; economy.market.take_rule `up_to` lets a player stop early), then draw 3
-- stones from the bag, put 1 into any cart with room and return the others to the bag.

local bag = require "cairn.bag"
local tables = require "cairn.tables"
local common = require "rules.common"

local M = {}

local t = common.t -- t(g, key, ...): the text for key

---@param g cairn.G
---@param seat integer
function M.start(g, seat)
  g.state.action = { card = "market", seat = seat, step = "take", took = 0, drawn = {},
    to_put = g.data.economy.market.place }
end

-- whether the seat may take another food: the market has some and its reserve has room
---@param g cairn.G
---@param a string[]
---@return boolean
local function may_take_food(g, a)
  if common.player_room(g, a.seat) <= 0 then return false end
  local market, kinds = g.state.market, g.data.foods.kinds
  for i = 1, #kinds do
    if market[kinds[i].id] ~= 0 then return true end
  end
  return false
end

---@param g cairn.G
---@param a string[]
---@return (string|cairn.Option)[], boolean
local function food_options(g, a)
  local data, market = g.data, g.state.market
  local room = common.player_room(g, a.seat)
  local kinds, opts, any = data.foods.kinds, {}, false
  for i = 1, #kinds do
    local k = kinds[i].id
    local id, why = common.option_id("take", k), nil
    if market[k] == 0 then
      why = t(g, "why.market_has_none", common.food_name(g, k))
    elseif room <= 0 then
      why = t(g, "why.reserve_full", data.economy.food_cap)
    else
      any = true
    end
    opts[i] = why and { id = id, disabled = why } or id
  end
  return opts, any
end

-- "put <stone> <cart>", made once per game for each pair, and read back from it
local put_ids, put_of_id = {}, {}
---@param stone string
---@param cart_id string
---@return string
local function put_id(stone, cart_id)
  local by_cart = put_ids[stone]
  if not by_cart then by_cart = {}; put_ids[stone] = by_cart end
  local id = by_cart[cart_id]
  if not id then
    id = "put " .. stone .. " " .. cart_id
    by_cart[cart_id], put_of_id[id] = id, { stone, cart_id }
  end
  return id
end

-- the stone and the cart of a put id
---@param id string
---@return string?, string? the stone and the cart
local function parse_put(id)
  local p = put_of_id[id]
  if p then return p[1], p[2] end
  return id:match("^put (%a+) ([%w_]+)$") -- an id not offered by this process yet
end

-- whether any cart has room for a stone (all put_options' `any` needs)
---@param g cairn.G
---@return boolean
local function any_cart_room(g)
  local cap, carts = g.data.carts.capacity.stones, g.state.carts
  for i = 1, #carts do
    if #carts[i].stones < cap then return true end
  end
  return false
end

---@param g cairn.G
---@param a string[]
---@return (string|cairn.Option)[], boolean
local function put_options(g, a)
  local cap, carts = g.data.carts.capacity.stones, g.state.carts
  local opts, any, drawn = {}, false, a.drawn
  for i = 1, #drawn do
    local stone = drawn[i]
    if common.first_of_kind(drawn, i) then
      for j = 1, #carts do
        local cart = carts[j]
        local id = put_id(stone, cart.id)
        if #cart.stones >= cap then
          opts[#opts + 1] = { id = id, disabled = t(g, "why.cart_full", common.cart_name(g, cart.id), cap) }
        else
          opts[#opts + 1] = id
          any = true
        end
      end
    end
  end
  return opts, any
end

-- `done` ends the taking: always under the `up_to` reading, else only when no take is legal
---@param g cairn.G
---@param any_take boolean true when some take is legal
---@return boolean
local function may_stop(g, any_take)
  return g.data.economy.market.take_rule == "up_to" or not any_take
end

---@param g cairn.G
---@return cairn.Decision
function M.decision(g)
  local a = g.state.action
  if a.step == "take" then
    local opts, any = food_options(g, a)
    if may_stop(g, any) then
      opts[#opts + 1] = "done"
    end
    return { seat = a.seat, prompt = t(g, "prompt.market", a.took, g.data.economy.market.take_food),
      options = opts }
  end
  return { seat = a.seat, prompt = t(g, "prompt.put"), options = put_options(g, a) }
end

-- M.label(g, id) -> what an option of the current step reads.
---@param g cairn.G
---@param id string
---@return string
function M.label(g, id)
  if id == "done" then return t(g, "opt.market_done") end
  if g.state.action.step == "take" then
    local _, k = common.parse_option(id)
    return t(g, "opt.market_take", common.food_name(g, k))
  end
  local stone, cart_id = parse_put(id)
  return t(g, "opt.put", common.stone_name(g, stone), common.cart_name(g, cart_id))
end

-- return what is left of the drawn stones to the bag; the action is over
---@param g cairn.G
---@param a string[]
local function finish(g, a)
  if #a.drawn > 0 then
    bag.add_all(g.state.bag, a.drawn)
    g.log_text("log.return_stones", #a.drawn)
  end
  a.drawn = {}
  a.done = true
end

-- draw, then either ask where to put a stone or, with no cart room, finish
---@param g cairn.G
---@param a string[]
local function draw(g, a)
  a.drawn = common.draw_stones(g, g.data.economy.market.draw)
  local names = {}
  for _, s in ipairs(a.drawn) do names[#names + 1] = common.stone_name(g, s) end
  g.log_text("log.market_draw", common.seat_name(g, a.seat), table.concat(names, ", "))
  a.step = "put"
  local any = #a.drawn > 0 and any_cart_room(g)
  if not any or a.to_put <= 0 then finish(g, a) end
end

---@param g cairn.G
---@param seat integer
---@param id string
function M.apply(g, seat, id)
  local st = g.state
  local a = st.action
  if a.step == "take" then
    if id == "done" then
      assert(may_stop(g, may_take_food(g, a)), "done: the Market takes 2 food while it can")
    else
      local verb, k = common.parse_option(id)
      assert(verb == "take" and k, "unknown market answer")
      st.market[k] = st.market[k] - 1
      st.players[seat].food[k] = st.players[seat].food[k] + 1
      a.took = a.took + 1
      g.log_text("log.market_take", common.seat_name(g, seat), common.food_name(g, k))
    end
    if id == "done" or a.took >= g.data.economy.market.take_food or not may_take_food(g, a) then draw(g, a) end
    return
  end
  local stone, cart_id = parse_put(id)
  assert(stone, "unknown market answer")
  local cart = assert(common.cart_by_id(st, cart_id), "no such cart")
  local i = assert(tables.find(a.drawn, stone), "no such stone drawn")
  table.remove(a.drawn, i)
  cart.stones[#cart.stones + 1] = stone
  a.to_put = a.to_put - 1
  g.log_text("log.stone_to_cart", common.stone_name(g, stone), common.cart_name(g, cart_id))
  local any = #a.drawn > 0 and any_cart_room(g)
  if a.to_put <= 0 or not any then finish(g, a) end
end

return M
