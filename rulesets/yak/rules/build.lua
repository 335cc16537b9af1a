-- rules/build.lua
-- Yak, the Build card: take 1-3 stones from the cart in front of you, pay for them in
-- food that the cart accepts (+1 per crystal; food beyond the cart's 9 goes to the
-- market), then place each stone in your tower. A cart left empty draws 3 stones.
--
-- Steps (state.action.step): "take" (one stone per decision, then "buy"), "pay" (one
-- food per decision), "place" (one cell per stone, in the order the stones were taken).

local tables = require "cairn.tables"
local common = require "rules.common"
local tower = require "rules.tower"

local M = {}

local t = common.t -- t(g, key, ...): the text for key

local PRICE_ROWS = { key = "stones", value = "food" } -- the price table's key and value

-- M.price(data, stones [, extra]) -> food owed for a list of stones (and one more stone,
-- extra, when given): the price table for their number plus the crystal surcharge for
-- each crystal; and the number of crystals.
---@param data table
---@param stones string[]
---@param extra string? one more stone
---@return integer, integer the food owed and the crystals
function M.price(data, stones, extra)
  local b = data.economy.build
  local n = #stones + (extra and 1 or 0)
  local base = tables.exact(b.price, n, PRICE_ROWS)
  if not base then error("no build price for " .. n .. " stones") end
  local crystals = (extra and common.is_crystal(data, extra)) and 1 or 0
  for i = 1, #stones do if common.is_crystal(data, stones[i]) then crystals = crystals + 1 end end
  return base + crystals * b.crystal_surcharge, crystals
end

-- M.max_payable(data, cart_id, food, used [, paying]) -> the most food the reserve `food`
-- can pay at this cart, given the kinds already used in this payment (a map kind -> true):
-- kinds the cart accepts, at most max_kinds different kinds in all. With `paying` (a
-- kind), as if one more `paying` had just been paid: one fewer in food, the kind used.
---@param data table
---@param cart_id string
---@param food table<string, integer> the seat's food reserve
---@param used table<string, boolean> the kinds already used in this payment
---@param paying table<string, integer>? the food paid so far
---@return integer
function M.max_payable(data, cart_id, food, used, paying)
  local cart = common.cart_def(data, cart_id)
  local accepts = cart.accepts
  local total, nused, n, others = 0, 0, 0, {} -- others: what the reserve holds of the kinds not yet used
  local kinds = data.foods.kinds
  for i = 1, #kinds do
    local k = kinds[i].id
    if used[k] or k == paying then nused = nused + 1 end
  end
  for i = 1, #accepts do
    local k = accepts[i]
    local have = (k == paying) and food[k] - 1 or food[k]
    if used[k] or k == paying then total = total + have else n = n + 1; others[n] = have end
  end
  -- the largest max_kinds - nused of the other kinds (all of them when that many may be used)
  local m = cart.max_kinds - nused
  if m < n then table.sort(others) end
  for i = 1, math.min(m, n) do total = total + others[n + 1 - i] end
  return total
end

-- the kinds already used in this payment: a map kind -> true, and how many
---@param data table
---@param paid table<string, integer> the food paid so far
---@return table<string, boolean>, integer the kinds used and how many
local function used_kinds(data, paid)
  local used, n, kinds = {}, 0, data.foods.kinds
  for i = 1, #kinds do
    local k = kinds[i].id
    if (paid[k] or 0) > 0 then used[k], n = true, n + 1 end
  end
  return used, n
end

-- M.start(g, seat): the Build card is revealed; set up the action.
---@param g cairn.G
---@param seat integer
function M.start(g, seat)
  local cart = common.cart_of_seat(g.state, seat)
  g.state.action = { card = "build", seat = seat, step = "take", cart = cart.id,
    stones = {}, owed = 0, paid = common.food_map(g.data) }
end

-- what limits taking one more stone: the tower's free cells and the most food the seat
-- can pay at this cart
---@param g cairn.G
---@param a table the action under way (state.action)
---@return integer, integer the tower's free cells and the most food the seat can pay
local function take_limits(g, a)
  local player = g.state.players[a.seat]
  local room = tower.free(player.tower)
  return room, M.max_payable(g.data, a.cart, player.food, {}) -- no kind used yet
end

-- why taking `stone` too is refused: "max_stones", "tower_room" or "cannot_afford" (with
-- the cost and the crystals among the stones), or nil when it may be taken
---@param data table
---@param a table the action under way (state.action)
---@param stone string
---@param room integer the tower's free cells
---@param can_pay integer the most food the seat can pay
---@return string?, integer?, integer? the reason's key, the cost and the crystals
local function take_refusal(data, a, stone, room, can_pay)
  local n = #a.stones + 1
  if n > data.economy.build.max_stones then return "max_stones" end
  if n > room then return "tower_room" end
  local cost, crystals = M.price(data, a.stones, stone)
  if cost > can_pay then return "cannot_afford", cost, crystals end
  return nil
end

-- whether any stone in the cart may still be taken
---@param g cairn.G
---@param a table the action under way (state.action)
---@return boolean
local function may_take_more(g, a)
  local stones, data = common.cart_by_id(g.state, a.cart).stones, g.data
  local room, can_pay = take_limits(g, a)
  for i = 1, #stones do
    if not take_refusal(data, a, stones[i], room, can_pay) then return true end
  end
  return false
end

-- the text of a take_refusal
---@param g cairn.G
---@param a table the action under way (state.action)
---@param why string
---@param room integer the tower's free cells
---@param can_pay integer
---@param cost integer
---@param crystals integer
---@return string
local function take_reason(g, a, why, room, can_pay, cost, crystals)
  if why == "max_stones" then return t(g, "why.max_stones", g.data.economy.build.max_stones) end
  if why == "tower_room" then return t(g, "why.tower_room", room) end
  return t(g, "why.cannot_afford", #a.stones + 1, t(g, "count.crystals", crystals), cost, can_pay)
end

-- the take options: one per different stone in the cart, with the reason when refused
---@param g cairn.G
---@param a table the action under way (state.action)
---@return (string|cairn.Option)[], boolean the options, and whether any of them may be taken
local function take_options(g, a)
  local data = g.data
  local stones = common.cart_by_id(g.state, a.cart).stones
  local room, can_pay = take_limits(g, a)
  local opts, any = {}, false
  for i = 1, #stones do
    local stone = stones[i]
    if common.first_of_kind(stones, i) then
      local id = common.option_id("take", stone)
      local why, cost, crystals = take_refusal(data, a, stone, room, can_pay)
      if why then
        opts[#opts + 1] = { id = id, disabled = take_reason(g, a, why, room, can_pay, cost, crystals) }
      else
        opts[#opts + 1] = id
        any = true
      end
    end
  end
  return opts, any
end

-- M.decision(g) -> the decision for the current step (its options' labels: M.label).
---@param g cairn.G
---@return cairn.Decision
function M.decision(g)
  local st, data = g.state, g.data
  local a = st.action
  local seat = a.seat
  if a.step == "take" then
    local opts, any = take_options(g, a)
    if #a.stones >= data.economy.build.min_stones then
      table.insert(opts, 1, "buy")
    elseif #a.stones == 0 and not any then
      table.insert(opts, 1, "skip")
    end
    return { seat = seat, prompt = t(g, "prompt.take", common.cart_name(g, a.cart)), options = opts }
  elseif a.step == "pay" then
    local player = st.players[seat]
    local cart = common.cart_def(data, a.cart)
    local used, nused = used_kinds(data, a.paid)
    local kinds, opts = data.foods.kinds, {}
    for i = 1, #kinds do
      local k = kinds[i].id
      local why
      if not tables.find(cart.accepts, k) then
        why = t(g, "why.cart_refuses", common.cart_name(g, a.cart), common.food_name(g, k))
      elseif player.food[k] == 0 then
        why = t(g, "why.no_food", common.food_name(g, k))
      elseif not used[k] and nused >= cart.max_kinds then
        why = t(g, "why.max_kinds", cart.max_kinds)
      elseif M.max_payable(data, a.cart, player.food, used, k) < a.owed - 1 then
        why = t(g, "why.rest_unpayable", a.owed - 1)
      end
      local id = common.option_id("pay", k)
      opts[i] = why and { id = id, disabled = why } or id
    end
    return { seat = seat, prompt = t(g, "prompt.pay", a.owed, common.cart_name(g, a.cart)), options = opts }
  else -- place
    local stone = a.stones[1]
    local cells, opts = tower.legal_cells(data, st.players[seat].tower), {}
    for i = 1, #cells do
      opts[i] = common.option_id("place", tower.cell_id(cells[i][1], cells[i][2]))
    end
    return { seat = seat, prompt = t(g, "prompt.place", common.stone_name(g, stone)), options = opts }
  end
end

-- M.label(g, id) -> what an option of the current step reads.
---@param g cairn.G
---@param id string
---@return string
function M.label(g, id)
  local a = g.state.action
  local verb, arg = common.parse_option(id)
  if id == "buy" then return t(g, "opt.buy", #a.stones, M.price(g.data, a.stones)) end
  if id == "skip" then return t(g, "opt.build_nothing") end
  if verb == "take" then return t(g, "opt.take_stone", common.stone_name(g, arg)) end
  if verb == "pay" then return t(g, "opt.pay", common.food_name(g, arg)) end
  local r, c = tower.parse_cell(arg)
  return t(g, "opt.place", r + 1, c + 1)
end

-- M.finish(g): an emptied cart draws its refill; the action is over.
---@param g cairn.G
function M.finish(g)
  local a, st, data = g.state.action, g.state, g.data
  local cart = common.cart_by_id(st, a.cart)
  if #cart.stones == 0 then
    local n = math.min(data.carts.refill_when_empty, data.carts.capacity.stones)
    for _, s in ipairs(common.draw_stones(g, n)) do cart.stones[#cart.stones + 1] = s end
    g.log_text("log.refill", common.cart_name(g, a.cart), #cart.stones)
  end
  a.done = true
end

---@param g cairn.G
---@param a table the action under way (state.action)
local function start_paying(g, a)
  a.owed = M.price(g.data, a.stones)
  a.step = "pay"
  g.log_text("log.buy", common.seat_name(g, a.seat), #a.stones, a.owed)
end

-- M.apply(g, seat, id): one answer to the current step (ids checked by the caller
-- against the decision's enabled options).
---@param g cairn.G
---@param seat integer
---@param id string
function M.apply(g, seat, id)
  local st, data = g.state, g.data
  local a = st.action
  local cart = common.cart_by_id(st, a.cart)
  local player = st.players[seat]
  local verb, arg = common.parse_option(id)
  if id == "skip" then
    g.log_text("log.build_nothing", common.seat_name(g, seat))
    a.done = true
  elseif id == "buy" then
    start_paying(g, a)
  elseif verb == "take" then
    local stone = arg
    local i = assert(tables.find(cart.stones, stone), "no such stone in the cart")
    table.remove(cart.stones, i)
    a.stones[#a.stones + 1] = stone
    if not may_take_more(g, a) then start_paying(g, a) end
  elseif verb == "pay" then
    local k = arg
    player.food[k] = player.food[k] - 1
    a.paid[k] = a.paid[k] + 1
    a.owed = a.owed - 1
    if common.food_total(data, cart.food) >= data.carts.capacity.food then
      st.market[k] = st.market[k] + 1
      g.log_text("log.overflow", common.food_name(g, k))
    else
      cart.food[k] = cart.food[k] + 1
    end
  elseif verb == "place" then
    local r, c = tower.parse_cell(arg)
    tower.set(player.tower, r, c, table.remove(a.stones, 1))
    common.check_end_trigger(g, seat)
    if #a.stones == 0 then M.finish(g) end
  else
    error("unknown build answer: " .. id)
  end
  if a.step == "pay" and a.owed == 0 and not a.done then
    a.step = "place"
  end
end

return M
