-- rules/resolve.lua
-- Himalaya, phase 3: resolution. Slot 1 of every seat in play order from the round's first
-- seat, then slot 2, ... slot 6. A move follows the path of that type or is wasted; Deal
-- takes the cheapest cube (one per village per round per seat) or delivers a whole order;
-- Rest does nothing. Every wasted action is logged with its reason. A delivery (and a
-- market-day choice) stops the loop for that seat's decision; advance() carries on after.

local bag = require "cairn.bag"
local common = require "rules.common"

local M = {}
local t = common.t

---@param g cairn.G
---@param seat integer
---@param action string an action (dirt, ice, stone, deal, rest)
---@param why string
local function wasted(g, seat, action, why)
  g.log_text("log.wasted", g.state.slot, common.seat_name(g, seat), t(g, "action." .. action), why)
end

-- move_caravan: along the path of `kind` from the caravan's village (events: yeti, snowstorm)
---@param g cairn.G
---@param seat integer
---@param kind string
---@param storm_before string|false the snowstorm path the seat's last action was spent in
function M.move_caravan(g, seat, kind, storm_before)
  local st, b = g.state, common.board(g)
  local from = st.caravans[seat]
  local p = b.path[from][kind]
  local here = common.village_name(g, from)
  local way = common.path_word(g, kind)
  if not p then return wasted(g, seat, kind, t(g, "why.no_path", way, here)) end
  local to = common.village_name(g, p.to)
  local yeti = st.placed.yeti[p.id]
  if yeti and (g.data.events.yeti_blocks == "everyone" or yeti ~= seat) then
    return wasted(g, seat, kind, t(g, "why.yeti", way, here, to))
  end
  -- a snowstorm: events.snowstorm_actions actions of the path's type in a row cross it; each
  -- but the last is spent in the storm (an action of another type loses the crossing: act)
  if st.placed.snowstorm[p.id] then
    local spent = (storm_before == p.id) and (st.storm_actions[seat] or 0) or 0
    spent = spent + 1
    if spent < g.data.events.snowstorm_actions then
      st.storm[seat], st.storm_actions[seat] = p.id, spent
      g.log_text("log.storm_wait", st.slot, common.seat_name(g, seat), way, here, to)
      return
    end
    st.storm_actions[seat] = 0
  end
  st.caravans[seat] = p.to
  g.log_text("log.move", st.slot, common.seat_name(g, seat), way, here, to)
end

-- M.lacking(g, seat, ring) -> nil when seat holds every cube the ring wants, else "needs 2
-- tea, holds 1"
---@param g cairn.G
---@param seat integer
---@param ring string a ring's id
---@return string? nil when the seat holds every cube the ring wants, else what is missing
function M.lacking(g, seat, ring)
  local cubes, r = g.state.players[seat].cubes, common.ring_def(g, ring)
  for _, k in ipairs(common.types(g.data)) do
    local want = r.wants[k]
    if want and cubes[k] < want then return t(g, "why.needs", want, common.cube_name(g, k), cubes[k]) end
  end
  return nil
end

-- take_cube: the cheapest cube, or (market day) a chosen one
---@param g cairn.G
---@param seat integer
---@param v integer a village
---@param kind string
function M.take_cube(g, seat, v, kind)
  local st = g.state
  local cubes = st.villages[v].cubes
  local at = 1
  if kind then for i, c in ipairs(cubes) do if c == kind then at = i break end end end
  local c = table.remove(cubes, at)
  local p = st.players[seat]
  p.cubes[c] = p.cubes[c] + 1
  st.took[seat] = st.took[seat] | (1 << v)
  g.log_text("log.take", st.slot, common.seat_name(g, seat), common.cube_name(g, c), common.village_name(g, v), #cubes)
end

-- deliver: the cubes go back into the bag, the ring leaves the village; the rewards follow
---@param g cairn.G
---@param seat integer
---@param v integer a village
function M.deliver(g, seat, v)
  local st = g.state
  local ring = st.villages[v].ring
  local p, r = st.players[seat], common.ring_def(g, ring)
  for k, n in pairs(r.wants) do
    p.cubes[k] = p.cubes[k] - n
    if g.data.game.deal.delivered_cubes_to_bag then bag.add(st.bag, k, n) end
  end
  st.villages[v].ring = false
  g.log(t(g, "log.deliver", st.slot, common.seat_name(g, seat), common.wants_text(g, ring),
    common.village_name(g, v), r.yaks))
  require("rules.rewards").begin(g, seat, v, ring)
end

---@param g cairn.G
---@param seat integer
function M.deal(g, seat)
  local st = g.state
  local v = st.caravans[seat]
  local vil = st.villages[v]
  local here = common.village_name(g, v)
  if vil.ring then
    local why = M.lacking(g, seat, vil.ring)
    if why then return wasted(g, seat, "deal", why) end
    -- a seat that can fill the order delivers, or chooses (game.deal.must_deliver)
    if not g.data.game.deal.must_deliver then
      st.pending = { kind = "deliver", seat = seat, village = v }
      return
    end
    return M.deliver(g, seat, v)
  end
  if #vil.cubes == 0 then return wasted(g, seat, "deal", t(g, "why.nothing", here)) end
  local market = st.placed.market[tostring(v)]
  -- one cube per village per month per seat, unless market day there lifts the limit
  -- (events.market_lifts_cube_limit)
  local lifted = market and g.data.events.market_lifts_cube_limit
  if not lifted and st.took[seat] & (1 << v) ~= 0 then return wasted(g, seat, "deal", t(g, "why.took_here", common.seat_name(g, seat), here)) end
  if market then
    local kinds = {}
    for _, c in ipairs(vil.cubes) do if kinds[#kinds] ~= c then kinds[#kinds + 1] = c end end
    if #kinds > 1 then
      st.pending = { kind = "market", seat = seat, village = v }
      return
    end
  end
  M.take_cube(g, seat, v)
end

-- M.decline(g, seat): the seat keeps its cubes; the Deal is spent (game.deal.must_deliver false)
---@param g cairn.G
---@param seat integer
function M.decline(g, seat)
  wasted(g, seat, "deal", t(g, "why.declined"))
end

-- M.act(g, seat): the seat's action of the current slot
---@param g cairn.G
---@param seat integer
function M.act(g, seat)
  local st = g.state
  local action = st.revealed[seat][st.slot]
  local storm_before = st.storm[seat]
  st.storm[seat] = false
  if storm_before and action ~= g.state.revealed[seat][st.slot - 1] then
    g.log_text("log.storm_lost", st.slot, common.seat_name(g, seat))
  end
  if action == "deal" then
    M.deal(g, seat)
  elseif action == "rest" then
    g.log_text("log.rest", st.slot, common.seat_name(g, seat))
  else
    M.move_caravan(g, seat, action, storm_before)
  end
end

-- M.start(g): the reveal; slot 1 from the round's first seat
---@param g cairn.G
function M.start(g)
  local st = g.state
  require("rules.program").reveal(g)
  st.phase, st.slot, st.turn = "resolve", 1, 0
end

-- M.step(g) -> false when the six slots are done
---@param g cairn.G
---@return boolean
function M.step(g)
  local st, n = g.state, #g.seats
  st.turn = st.turn + 1
  if st.turn > n then
    st.turn, st.slot = 1, st.slot + 1
    if st.slot > g.data.game.pieces.actions then return false end
  end
  M.act(g, st.order[st.turn])
  return true
end

return M
