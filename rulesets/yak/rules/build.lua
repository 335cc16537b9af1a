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

local function t(g, ...) return common.t(g, ...) end

-- M.price(data, stones) -> food owed for a list of stones: the price table for their
-- number plus the crystal surcharge for each crystal.
function M.price(data, stones)
  local b = data.economy.build
  local base = tables.exact(b.price, #stones, { key = "stones", value = "food" })
  assert(base, "no build price for " .. #stones .. " stones")
  local crystals = 0
  for _, s in ipairs(stones) do if common.is_crystal(data, s) then crystals = crystals + 1 end end
  return base + crystals * b.crystal_surcharge, crystals
end

-- M.max_payable(data, cart_id, food, used) -> the most food the reserve `food` can pay at
-- this cart, given the kinds already used in this payment (a map kind -> true): kinds the
-- cart accepts, at most max_kinds different kinds in all.
function M.max_payable(data, cart_id, food, used)
  local def = common.cart_def(data, cart_id)
  local total, others, nused = 0, {}, 0
  for _ in pairs(used) do nused = nused + 1 end
  for _, k in ipairs(def.accepts) do
    if used[k] then total = total + food[k] else others[#others + 1] = food[k] end
  end
  table.sort(others, function(a, b) return a > b end)
  for i = 1, math.min(def.max_kinds - nused, #others) do total = total + others[i] end
  return total
end

local function used_kinds(paid)
  local used = {}
  for k, n in pairs(paid) do if n > 0 then used[k] = true end end
  return used
end

local function with(list, x)
  local out = { table.unpack(list) }
  out[#out + 1] = x
  return out
end

-- M.start(g, seat): the Build card is revealed; set up the action.
function M.start(g, seat)
  local cart = common.cart_of_seat(g.state, seat)
  g.state.action = { card = "build", seat = seat, step = "take", cart = cart.id,
    stones = {}, owed = 0, paid = common.food_map(g.data) }
end

-- the take options: one per different stone in the cart, with the reason when refused
local function take_options(g, a)
  local st, data = g.state, g.data
  local cart = common.cart_by_id(st, a.cart)
  local player = st.players[a.seat]
  local room = tower.size(player.tower) - tower.count(player.tower)
  local can_pay = M.max_payable(data, a.cart, player.food, {})
  local opts, seen, any = {}, {}, false
  for _, stone in ipairs(cart.stones) do
    if not seen[stone] then
      seen[stone] = true
      local o = { id = "take " .. stone, label = g.labels and t(g, "opt.take_stone", common.stone_name(g, stone)) }
      local want = with(a.stones, stone)
      if #want > data.economy.build.max_stones then
        o.disabled = not g.labels or t(g, "why.max_stones", data.economy.build.max_stones)
      elseif #want > room then
        o.disabled = not g.labels or t(g, "why.tower_room", room)
      else
        local cost, crystals = M.price(data, want)
        if cost > can_pay then
          o.disabled = not g.labels or t(g, "why.cannot_afford", #want, t(g, "count.crystals", crystals), cost, can_pay)
        end
      end
      if not o.disabled then any = true end
      opts[#opts + 1] = o
    end
  end
  return opts, any
end

-- M.decision(g) -> the decision for the current step.
function M.decision(g)
  local a, data = g.state.action, g.data
  local seat = a.seat
  if a.step == "take" then
    local opts, any = take_options(g, a)
    if #a.stones >= data.economy.build.min_stones then
      local cost = M.price(data, a.stones)
      table.insert(opts, 1, { id = "buy", label = g.labels and t(g, "opt.buy", #a.stones, cost) })
    elseif #a.stones == 0 and not any then
      table.insert(opts, 1, { id = "skip", label = g.labels and t(g, "opt.build_nothing") })
    end
    local cart_name = common.cart_name(g, a.cart)
    return { seat = seat, prompt = g.labels and t(g, "prompt.take", cart_name), options = opts }
  elseif a.step == "pay" then
    local player = g.state.players[seat]
    local def = common.cart_def(data, a.cart)
    local used = used_kinds(a.paid)
    local nused = 0
    for _ in pairs(used) do nused = nused + 1 end
    local opts = {}
    for _, k in ipairs(common.food_kinds(data)) do
      local o = { id = "pay " .. k, label = g.labels and t(g, "opt.pay", common.food_name(g, k)) }
      if not tables.find(def.accepts, k) then
        o.disabled = not g.labels or t(g, "why.cart_refuses", common.cart_name(g, a.cart), common.food_name(g, k))
      elseif player.food[k] == 0 then
        o.disabled = not g.labels or t(g, "why.no_food", common.food_name(g, k))
      elseif not used[k] and nused >= def.max_kinds then
        o.disabled = not g.labels or t(g, "why.max_kinds", def.max_kinds)
      else
        local food = tables.copy(player.food)
        food[k] = food[k] - 1
        local u2 = tables.copy(used); u2[k] = true
        if M.max_payable(data, a.cart, food, u2) < a.owed - 1 then
          o.disabled = not g.labels or t(g, "why.rest_unpayable", a.owed - 1)
        end
      end
      opts[#opts + 1] = o
    end
    return { seat = seat, prompt = g.labels and t(g, "prompt.pay", a.owed, common.cart_name(g, a.cart)), options = opts }
  else -- place
    local stone = a.stones[1]
    local opts = {}
    for _, cell in ipairs(tower.legal_cells(data, g.state.players[seat].tower)) do
      opts[#opts + 1] = { id = "place " .. tower.cell_id(cell[1], cell[2]),
        label = g.labels and t(g, "opt.place", cell[1] + 1, cell[2] + 1) }
    end
    return { seat = seat, prompt = g.labels and t(g, "prompt.place", common.stone_name(g, stone)), options = opts }
  end
end

-- M.finish(g): an emptied cart draws its refill; the action is over.
function M.finish(g)
  local a, st = g.state.action, g.state
  local cart = common.cart_by_id(st, a.cart)
  if #cart.stones == 0 then
    local n = math.min(g.data.carts.refill_when_empty, g.data.carts.capacity.stones)
    for _, s in ipairs(common.draw_stones(g, n)) do cart.stones[#cart.stones + 1] = s end
    g.log_text("log.refill", common.cart_name(g, a.cart), #cart.stones)
  end
  a.done = true
end

local function start_paying(g, a)
  a.owed = M.price(g.data, a.stones)
  a.step = "pay"
  g.log_text("log.buy", common.seat_name(g, a.seat), #a.stones, a.owed)
end

-- M.apply(g, seat, id): one answer to the current step (ids checked by the caller
-- against the decision's enabled options).
function M.apply(g, seat, id)
  local st, data = g.state, g.data
  local a = st.action
  local cart = common.cart_by_id(st, a.cart)
  local player = st.players[seat]
  if id == "skip" then
    g.log_text("log.build_nothing", common.seat_name(g, seat))
    a.done = true
  elseif id == "buy" then
    start_paying(g, a)
  elseif id:match("^take ") then
    local stone = id:sub(6)
    local i = assert(tables.find(cart.stones, stone), "no such stone in the cart")
    table.remove(cart.stones, i)
    a.stones[#a.stones + 1] = stone
    local _, any = take_options(g, a)
    if not any then start_paying(g, a) end
  elseif id:match("^pay ") then
    local k = id:sub(5)
    player.food[k] = player.food[k] - 1
    a.paid[k] = a.paid[k] + 1
    a.owed = a.owed - 1
    if common.food_total(cart.food) >= data.carts.capacity.food then
      st.market[k] = st.market[k] + 1
      g.log_text("log.overflow", common.food_name(g, k))
    else
      cart.food[k] = cart.food[k] + 1
    end
  elseif id:match("^place ") then
    local r, c = tower.parse_cell(id:sub(7))
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
