-- rules/restock.lua
-- Yak, the Restock card: take all the food of one kind from the cart in front of you (your
-- reserve holds at most 8; the rest stays in the cart), then draw a stone from the quarry
-- bag into that cart if it has room.

local common = require "rules.common"

local M = {}

---@param g cairn.G
---@param ... any
---@return string
local function t(g, ...) return common.t(g, ...) end

---@param g cairn.G
---@param seat integer
function M.start(g, seat)
  local cart = common.cart_of_seat(g.state, seat)
  g.state.action = { card = "restock", seat = seat, step = "take", cart = cart.id }
end

---@param g cairn.G
---@return cairn.Decision
function M.decision(g)
  local st, data, labels = g.state, g.data, g.labels
  local a = st.action
  local food = common.cart_by_id(st, a.cart).food
  local accepts = common.cart_rules(data, a.cart).accepts
  local room = common.player_room(g, a.seat)
  local opts, any = common.new_list(g, "options"), false
  for i = 1, #accepts do
    local k = accepts[i]
    local disabled
    if food[k] == 0 then
      disabled = not labels or t(g, "why.cart_has_none", common.food_name(g, k))
    elseif room <= 0 then
      disabled = not labels or t(g, "why.reserve_full", data.economy.food_cap)
    else
      any = true
    end
    opts[i] = common.option(common.option_id("take", k),
      labels and t(g, "opt.restock", food[k], common.food_name(g, k)), disabled)
  end
  if not any then opts[#opts + 1] = common.option(common.option_id("take", "none"), labels and t(g, "opt.take_none")) end
  return common.decision(g, a.seat, labels and t(g, "prompt.restock", common.cart_name(g, a.cart)), opts)
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
    if common.logging(g) then g.log_text("log.restock", common.seat_name(g, seat), n, common.food_name(g, k)) end
  end
  local data = g.data
  local room = data.carts.capacity.stones - #cart.stones
  local n = math.min(data.economy.restock.draw, room)
  if n > 0 then
    for _, s in ipairs(common.draw_stones(g, n)) do
      cart.stones[#cart.stones + 1] = s
      if common.logging(g) then
        g.log_text("log.stone_to_cart", common.stone_name(g, s), common.cart_name(g, a.cart))
      end
    end
  end
  a.done = true
end

return M
