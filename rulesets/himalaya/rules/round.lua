-- rules/round.lua
-- Himalaya: setup and the month. Setup: bags, the initial supply, caravans placed from the
-- start player clockwise. A month: move the month marker; (events) play event tokens;
-- programming, every seat at once and in secret; resolution slot by slot; refill;
-- inventory in months 4, 8 and 12. After month 12 the game ends (rules/score.lua).

local bag = require "cairn.bag"
local deck = require "cairn.deck"
local turn = require "cairn.turn"
local common = require "rules.common"
local supply = require "rules.supply"

local M = {}
local t = common.t

-- the cube bag: the base counts, plus the expansion's cubes
---@param g cairn.G
---@return table<string, integer>
function M.cube_bag(g)
  local b = bag.new(g.data.resources.bag)
  if g.options.expansion then
    for k, n in pairs(g.data.resources.expansion_cubes) do bag.add(b, k, n) end
  end
  return b
end

---@param g cairn.G
---@return table
function M.new_player(g)
  local pieces, cubes = g.data.game.pieces, {}
  for _, k in ipairs(common.types(g.data)) do cubes[k] = 0 end
  local events = {}
  if g.options.events then
    for _, e in ipairs(g.data.events.tokens) do events[e.id] = g.data.events.per_player end
  end
  return { cubes = cubes, rings = {}, ring_count = 0, tokens = 0, token_count = 0,
           stupas = pieces.stupas, envoys = pieces.envoys, events = events, shown_rings = false }
end

-- M.setup(g): the rulebook's setup order
---@param g cairn.G
function M.setup(g)
  local st, n, data = g.state, #g.seats, g.data
  st.month, st.phase = 1, "place"
  st.bag = M.cube_bag(g)
  local ring_ids = {}
  for i, r in ipairs(data.rings.rings) do ring_ids[i] = r.id end
  st.rings = deck.shuffle(deck.new(ring_ids), g.rng)
  st.villages = {}
  for v = 1, #data.map.villages do st.villages[v] = { cubes = {}, ring = false, stupa = false } end
  st.envoys = {}
  for _, r in ipairs(data.map.regions) do
    local per = {}
    for s = 1, n do per[s] = 0 end
    st.envoys[r.id] = per
  end
  st.players, st.programs, st.ready, st.revealed, st.took, st.storm, st.caravans = {}, {}, {}, {}, {}, {}, {}
  st.storm_actions = {}
  for s = 1, n do
    st.players[s] = M.new_player(g)
    st.programs[s], st.ready[s], st.revealed[s] = {}, false, false
    st.took[s], st.storm[s], st.caravans[s] = 0, false, 0
    st.storm_actions[s] = 0
  end
  st.tokens_left = data.game.inventory.tokens
  st.placed = { market = {}, yeti = {}, snowstorm = {} }
  st.pending, st.inventory, st.result = false, false, false
  st.slot, st.turn, st.ev_turn = 0, 0, 0
  if g.options["allergic-to-chaos"] then
    local pile = {}
    for v = 1, data.variants.village_tokens.count do pile[v] = v end
    g.rng.shuffle(pile)
    st.village_tokens = { pile = pile, queue = {}, discard = {}, started = false }
  else
    st.village_tokens = false
  end
  -- resources, then orders [§3 steps 4, 5]
  M.initial_supply(g)
  local sp = data.game.start.player
  st.start = (sp == "random") and g.rng.int(1, n) or sp
  st.place_order = turn.order(st.start, n)
  st.place_turn = 1
  st.first = data.game.start.first_resolver == "after_first_placer" and turn.next(st.start, n) or st.start
  st.order = turn.order(st.first, n)
  g.log(t(g, "log.setup", n, common.seat_name(g, st.start)))
end

-- the setup's supply, told in one event (the board shows what each village got)
---@param g cairn.G
function M.initial_supply(g)
  local row = supply.supply_row(g)
  local cubes, orders = {}, {}
  for _ = 1, row.villages do cubes[#cubes + 1] = supply.place_cubes(g, true) end
  for _ = 1, row.orders do orders[#orders + 1] = supply.place_order(g, true) end
  g.log(t(g, "log.initial_supply", t(g, g.state.village_tokens and "drawn.tokens" or "drawn.dice"),
    #cubes > 0 and table.concat(cubes, " ") or "-", #orders > 0 and table.concat(orders, " ") or "-"))
  local vt = g.state.village_tokens
  if vt then
    vt.started = true
    supply.fill_queue(g)
  end
end

-- placing caravans: one decision per seat, from the start player clockwise
---@param g cairn.G
---@return table
function M.place_decision(g)
  local st = g.state
  local seat = st.place_order[st.place_turn]
  local occupied, opts = {}, {}
  for s = 1, #g.seats do if st.caravans[s] > 0 then occupied[st.caravans[s]] = true end end
  local any_supplied = g.data.game.start.on_supplied_village
  for v = 1, #st.villages do
    local vv = st.villages[v]
    if occupied[v] or (not any_supplied and (#vv.cubes > 0 or vv.ring)) then
      opts[#opts + 1] = { id = common.start_id(v), disabled = true }
    else
      opts[#opts + 1] = common.start_id(v)
    end
  end
  return { seat = seat, options = opts }
end

---@param g cairn.G
---@param seat integer
---@param v integer a village
function M.place_caravan(g, seat, v)
  local st = g.state
  st.caravans[seat] = v
  g.log(t(g, "log.placed", common.seat_name(g, seat), common.village_name(g, v), v))
  st.place_turn = st.place_turn + 1
  if st.place_turn > #g.seats then M.begin_month(g, true) end
end

-- M.begin_month(g, first): the month marker moves (not for month 1); events or programming
---@param g cairn.G
---@param first boolean? true for the first month
function M.begin_month(g, first)
  local st = g.state
  if not first then
    st.month = st.month + 1
    if g.data.game.start.rotate then st.first = turn.next(st.first, #g.seats) end
    st.order = turn.order(st.first, #g.seats)
  end
  for s = 1, #g.seats do
    st.programs[s], st.ready[s], st.revealed[s], st.took[s], st.storm[s] = {}, false, false, 0, false
    st.storm_actions[s] = 0
  end
  -- event tokens leave the board at the month's end, or stay for the game (events.lasts)
  if g.data.events.lasts == "round" or not st.placed then st.placed = { market = {}, yeti = {}, snowstorm = {} } end
  st.slot, st.turn = 0, 0
  g.log(t(g, "log.month", st.month, common.seat_name(g, st.first)))
  if g.options.events then
    st.phase, st.ev_turn = "events", 1
  else
    st.phase = "program"
  end
end

return M
