-- rules/round.lua
-- Yak: setup and the day. Sunrise: every player secretly picks a card. Noon: from the
-- baby-yak holder, clockwise, each reveals their card and carries it out. Sunset: cards
-- back to hand, carts move one stop the way the yaks face, the baby yak passes on.
-- Completing level 4 of a tower triggers the end: finish the round, play one more.

local bag = require "cairn.bag"
local tables = require "cairn.tables"
local turn = require "cairn.turn"
local common = require "rules.common"
local tower = require "rules.tower"

local M = {}

local t = common.t -- t(g, key, ...): the text for key

M.cards = { "build", "restock", "market" }
local card_ids = {} -- the card options: "card build", ...
for i, c in ipairs(M.cards) do card_ids[i] = common.option_id("card", c) end
M.actions = {
  build = require "rules.build",
  restock = require "rules.restock",
  market = require "rules.market",
}

-- M.colours_in_play(g) -> the colours put into the bag: some whole colours are removed
-- at random with fewer seats (stones.colours_by_seats).
---@param g cairn.G
---@return string[]
function M.colours_in_play(g)
  local stones, n = g.data.stones, #g.seats
  local row = assert(tables.by(stones.colours_by_seats, "seats", n), "no colours for " .. n .. " seats")
  local keep = {}
  for i, c in ipairs(stones.colours) do keep[i] = c.id end
  while #keep > row.colours do table.remove(keep, g.rng.int(1, #keep)) end
  return keep
end

-- M.setup(g): the board as in the rulebook's setup order.
---@param g cairn.G
function M.setup(g)
  local data, n = g.data, #g.seats
  local st = g.state
  st.round, st.phase = 1, "sunrise"
  st.colours = M.colours_in_play(g)
  st.bag = {}
  for _, c in ipairs(st.colours) do bag.add(st.bag, c, data.stones.per_colour) end
  bag.add(st.bag, data.stones.crystal.id, data.stones.crystal.count)
  st.players, st.chosen, st.ready, st.revealed = {}, {}, {}, {}
  for s = 1, n do
    st.players[s] = { food = common.food_map(data, data.economy.start_food), tower = tower.new(data) }
    st.chosen[s], st.ready[s], st.revealed[s] = false, false, false
  end
  local by = assert(tables.by(data.carts.by_seats, "seats", n), "no carts for " .. n .. " seats")
  st.carts = {}
  for i, id in ipairs(by.carts) do
    local def = common.cart_def(data, id)
    st.carts[i] = { id = id, stop = i, food = common.food_map(data, def.start_food),
      stones = bag.draw_many(st.bag, g.rng, data.carts.start_stones, common.stone_kinds(data)) }
  end
  st.stops = #st.carts
  -- only now do the fog stones go into the bag: carts never start with fog
  bag.add(st.bag, data.stones.fog.id, data.stones.fog.count)
  st.market = common.food_map(data, data.economy.market_start)
  st.fog = { track = 0, fills = 0, out = 0, aside = 0 }
  st.direction = data.carts.start_direction
  local sp = data.economy.start_player
  st.holder = (sp == "random") and g.rng.int(1, n) or sp
  st.stupa, st.last_round = false, false
  st.turn, st.action = false, false
  st.bonus = {}
  g.log_text("log.setup", n, common.seat_name(g, st.holder))
end

M.check_end_trigger = common.check_end_trigger

-- M.sunrise_decisions(g) -> one card decision per seat that has not chosen yet.
---@param g cairn.G
---@return cairn.Decision[]
function M.sunrise_decisions(g)
  local st = g.state
  local list = {}
  for s = 1, #st.players do
    if not st.ready[s] then
      list[#list + 1] = { seat = s, prompt = t(g, "prompt.card", st.round), options = card_ids }
    end
  end
  return list
end

-- start_turn: the seat reveals its card and begins the action
---@param g cairn.G
---@param seat integer
local function start_turn(g, seat)
  local st = g.state
  local card = st.chosen[seat]
  st.revealed[seat], st.chosen[seat] = card, false
  g.log_text("log.reveal", common.seat_name(g, seat), t(g, "card." .. card))
  M.actions[card].start(g, seat)
end

-- M.sunset(g): cards back to hand; end of the game, or carts move and the yak passes.
---@param g cairn.G
function M.sunset(g)
  local st, n = g.state, #g.seats
  for s = 1, n do st.chosen[s], st.ready[s], st.revealed[s] = false, false, false end
  st.turn, st.action = false, false
  if st.last_round and st.round >= st.last_round then
    st.phase = "over"
    g.log_text("log.game_over")
    return
  end
  for _, cart in ipairs(st.carts) do cart.stop = turn.step(cart.stop, st.stops, st.direction) end
  st.holder = turn.next(st.holder, n)
  st.round = st.round + 1
  st.phase = "sunrise"
  g.log_text("log.sunset", st.round, common.seat_name(g, st.holder))
end

-- M.advance(g): move on until someone must decide (next seat at noon, sunset, ...).
---@param g cairn.G
function M.advance(g)
  local st = g.state
  while st.phase == "noon" do
    if st.action and not st.action.done then return end
    if st.action then
      st.turn.index = st.turn.index + 1
      st.action = false
    end
    if st.turn.index > #st.turn.order then
      M.sunset(g)
    else
      start_turn(g, st.turn.order[st.turn.index])
    end
  end
end

-- M.choose_card(g, seat, card): a secret sunrise choice; the last one starts noon.
---@param g cairn.G
---@param seat integer
---@param card any
function M.choose_card(g, seat, card)
  local st = g.state
  if st.ready[seat] then error("seat " .. seat .. " has already chosen") end
  st.chosen[seat], st.ready[seat] = card, true
  for s = 1, #g.seats do if not st.ready[s] then return end end
  st.phase = "noon"
  st.turn = { order = turn.order(st.holder, #g.seats), index = 1 }
  M.advance(g)
end

return M
