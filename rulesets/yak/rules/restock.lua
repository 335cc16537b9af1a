-- rules/restock.lua
-- Yak, the Restock card: take all the food of one kind from the cart in front of you (your
-- reserve holds at most 8; the rest stays in the cart), then draw a stone from the quarry
-- bag into that cart if it has room.

local common = require "rules.common"

local M = {}

local t = common.t -- t(g, key, ...): the text for key

---@param g cairn.G
---@param seat integer
function M.start(g, seat)
  local cart = common.cart_of_seat(g.state, seat)
  g.state.action = { card = "restock", seat = seat, step = "take", cart = cart.id }
end

---@param g cairn.G
---@return cairn.Decision
function M.decision(g)
  local st, data = g.state, g.data
  local a = st.action
  local food = common.cart_by_id(st, a.cart).food
  local accepts = common.cart_def(data, a.cart).accepts
  local room = common.player_room(g, a.seat)
  local opts, any = {}, false
  for i = 1, #accepts do
    local k = accepts[i]
    local id, why = common.option_id("take", k), nil
    if food[k] == 0 then
      why = t(g, "why.cart_has_none", common.food_name(g, k))
    elseif room <= 0 then
      why = t(g, "why.reserve_full", data.economy.food_cap)
    else
      any = true
    end
    opts[i] = why and { id = id, disabled = why } or id
  end
  if not any then opts[#opts + 1] = common.option_id("take", "none") end
  return { seat = a.seat, prompt = t(g, "prompt.restock", common.cart_name(g, a.cart)), options = opts }
end

-- M.label(g, id) -> what an option reads: a food and how much of it the cart holds.
---@param g cairn.G
---@param id string
---@return string
function M.label(g, id)
  local _, k = common.parse_option(id)
  if k == "none" then return t(g, "opt.take_none") end
  local food = common.cart_by_id(g.state, g.state.action.cart).food
  return t(g, "opt.restock", food[k], common.food_name(g, k))
end

---@param g cairn.G
---@param seat integer
---@param id string
function M.apply(g, seat, id)
  local st = g.state
  local a = st.action
  local cart = common.cart_by_id(st, a.cart)
  local verb, k = common.parse_option(id)
  assert(verb == "take" and k, "unknown restock answer")
  if k ~= "none" then
    local n = math.min(cart.food[k], common.player_room(g, seat))
    cart.food[k] = cart.food[k] - n
    st.players[seat].food[k] = st.players[seat].food[k] + n
    g.log_text("log.restock", common.seat_name(g, seat), n, common.food_name(g, k))
  end
  local data = g.data
  local room = data.carts.capacity.stones - #cart.stones
  local n = math.min(data.economy.restock.draw, room)
  if n > 0 then
    for _, s in ipairs(common.draw_stones(g, n)) do
      cart.stones[#cart.stones + 1] = s
      g.log_text("log.stone_to_cart", common.stone_name(g, s), common.cart_name(g, a.cart))
    end
  end
  a.done = true
end

return M
