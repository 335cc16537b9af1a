-- rules/destination.lua
-- Kathmandu, the destination field: a Kathmandu field ends the journey (exhaustion
-- dropped, the most valuable Kathmandu tile); otherwise the yak tile is fulfilled when
-- the landscape matches, and then, each at most once and all optional: paint one matching
-- animal (paint box), buy one matching equipment (backpack), buy the city's good (coin)
-- and its special good (another coin, from the supply or another player), an offering at
-- a temple with a map half, swapping a map half with a yak met there, a pair into a chest.

local common = require "rules.common"
local derived = require "cairn.derived"
local turn = require "rules.turn"
local setup = require "rules.setup"

local M = {}
local id, off = common.id, turn.off
local ctext = require "cairn.text"
-- a map half by its name in the game's language ("red A"), never its id
---@param g cairn.G
---@param half string the map half's id
---@return string
local function half_name(g, half) return ctext.name(g, "map_half.", half) end

---@param g cairn.G
local function end_turn(g) return require("rules.round").end_turn(g) end

-- most_valuable(tiles) -> the index of the most valuable tile left (the first of equals),
-- or nil when none is left
---@param tiles integer[] the tiles' values
---@return integer?
local function most_valuable(tiles)
  local best
  for i, v in ipairs(tiles) do
    if not best or v > tiles[best] then best = i end
  end
  return best
end

-- kathmandu_arrival: drop the exhaustion, take the most valuable tile left (seed: "erhältst
-- das wertvollste noch ausliegende Kathmandu-Plättchen"), whatever the order of the list
---@param g cairn.G
---@param seat integer
local function kathmandu_arrival(g, seat)
  local st = g.state
  local p = st.players[seat]
  p.exhaustion = 0
  local best = most_valuable(st.kathmandu)
  p.tile = best and table.remove(st.kathmandu, best) or 0
  st.arrivals = st.arrivals + 1
  p.arrived = st.arrivals
  common.log(g, "log.kathmandu", common.seat_name(g, seat), st.arrivals, p.tile)
end

-- yak_tile: the revealed yak tile is fulfilled on its landscape; the next one is revealed
---@param g cairn.G
---@param seat integer
---@param landscape string
local function yak_tile(g, seat, landscape)
  local p = g.state.players[seat]
  if p.yak and p.yak == landscape then
    p.yak = table.remove(p.stack, 1) or false
    common.log(g, "log.yak_tile", common.seat_name(g, seat), g.text("land." .. landscape))
  end
end

-- M.arrive(g, seat): the move and its costs are done; look at the destination field.
---@param g cairn.G
---@param seat integer
function M.arrive(g, seat)
  local st = g.state
  local p = st.players[seat]
  local f = common.field(g, p.pos[1], p.pos[2])
  if f.kind == "kathmandu" then
    kathmandu_arrival(g, seat)
    return end_turn(g)
  end
  if f.landscape then yak_tile(g, seat, f.landscape) end
  st.turn.step = "act"
  if not M.act_options(g, seat) then return end_turn(g) end
end

-- matcher(g, seat) -> a function landscape -> true when an animal or equipment card of
-- that landscape may be taken here (the naturalist also takes the neighbours' landscapes)
---@param g cairn.G
---@param seat integer
---@param landscape string
---@return boolean
local function matches(g, seat, landscape)
  local p = g.state.players[seat]
  local r, c = p.pos[1], p.pos[2]
  if common.landscape_at(g, r, c) == landscape then return true end
  if common.ability(g, p) == "adjacent-landscape" then
    -- the neighbour fields: orthogonal, or all eight around (characters.naturalist_reach)
    local around = g.data.characters.naturalist_reach == "around"
    for dr = -1, 1 do
      for dc = -1, 1 do
        if (dr ~= 0 or dc ~= 0) and (around or dr == 0 or dc == 0)
          and common.landscape_at(g, r + dr, c + dc) == landscape then return true end
      end
    end
  end
  return false
end

-- M.cities(g, seat) -> the keys of the cities the seat may buy from: the field it stands
-- on, or (the trader) every city on its board, or on the route (characters.trader_cities)
---@param g cairn.G
---@param seat integer
---@return string[] city keys ("r,c")
function M.cities(g, seat)
  local st = g.state
  local p = st.players[seat]
  local here = common.key(p.pos[1], p.pos[2])
  local list = {}
  if st.cities[here] then list[1] = here end
  if common.ability(g, p) == "any-city-on-board" then
    local board = common.board_of(g, p.pos[2])
    local anywhere = g.data.characters.trader_cities == "route"
    for key in pairs(st.cities) do
      local c = tonumber(key:match(",(%d+)$"))
      if key ~= here and (anywhere or common.board_of(g, c) == board) then list[#list + 1] = key end
    end
    table.sort(list)
  end
  return list
end

---@param p table
---@param colour string
---@return boolean
local function loose_pair(p, colour)
  return common.has(p.halves, colour .. "-a") and common.has(p.halves, colour .. "-b")
end

-- M.act_options(g, seat) -> the destination actions, with pass; nil when there is none
-- offered(opts, s) -> true when option s is in opts already, enabled or disabled
---@param opts (string|cairn.Option)[]
---@param s string
---@return boolean
local function offered(opts, s)
  for i = 1, #opts do
    local o = opts[i]
    if o == s or (type(o) == "table" and o.id == s) then return true end
  end
  return false
end

---@param g cairn.G
---@param seat integer
---@return (string|cairn.Option)[]
function M.act_options(g, seat)
  local st = g.state
  local p, t = st.players[seat], st.turn
  local opts = {}
  local cards = g.data.cards
  if not t.painted then
    for _, a in ipairs(st.animals) do
      if matches(g, seat, derived.by(g.data, cards.animals, "id", a).landscape) then
        local s = id("paint", a)
        opts[#opts + 1] = p.res.paint > 0 and s or off(s)
      end
    end
  end
  if not t.bought_equipment then
    for _, e in ipairs(st.equipment) do
      local card = derived.by(g.data, cards.equipment, "id", e)
      local s = id("buy", card.kind)
      if matches(g, seat, card.landscape) and not offered(opts, s) then
        opts[#opts + 1] = p.res.backpack > 0 and s or off(s)
      end
    end
  end
  if not t.bought_good then
    for _, key in ipairs(M.cities(g, seat)) do
      for _, good in ipairs(st.cities[key]) do
        local s = id("buy", good.kind)
        if not offered(opts, s) then
          opts[#opts + 1] = p.res.coin > 0 and s or off(s)
        end
      end
    end
  elseif not t.special_done and st.specials[t.bought_good] ~= seat then
    local s = id("special", t.bought_good)
    opts[#opts + 1] = p.res.coin > 0 and s or off(s)
  end
  local temple = st.temples[common.key(p.pos[1], p.pos[2])]
  if temple and not common.has(temple, seat) then
    opts[#opts + 1] = p.candles > 0 and "offer" or off("offer")
  end
  if t.swapped < g.data.game.swaps_per_turn and #p.halves > 0 then
    for s = 1, #st.players do
      local o = st.players[s]
      if s ~= seat and o.pos and o.arrived == 0 and o.pos[1] == p.pos[1] and o.pos[2] == p.pos[2] and #o.halves > 0 then
        opts[#opts + 1] = id("swap", s)
      end
    end
  end
  if common.has(p.equipment, "chest") then
    for _, colour in ipairs(g.data.cards.map_halves.colours) do
      if loose_pair(p, colour) then opts[#opts + 1] = id("chest", colour) end
    end
  end
  if #opts == 0 then return nil end
  opts[#opts + 1] = "pass"
  return opts
end

-- the actions
---@param g cairn.G
---@param seat integer
---@param animal string an animal card
function M.paint(g, seat, animal)
  local st = g.state
  local p = st.players[seat]
  common.remove(st.animals, animal)
  p.animals[#p.animals + 1] = animal
  common.spend(g, seat, "paint")
  st.turn.painted = true
  common.log(g, "log.paint", common.seat_name(g, seat), g.text("animal." .. animal))
end

-- buy: an equipment card of that kind from the display (a matching one), or a good
---@param g cairn.G
---@param seat integer
---@param what string
function M.buy(g, seat, what)
  local st = g.state
  local p, t = st.players[seat], st.turn
  for i, e in ipairs(st.equipment) do
    local card = derived.by(g.data, g.data.cards.equipment, "id", e)
    if card.kind == what and matches(g, seat, card.landscape) then
      table.remove(st.equipment, i)
      p.equipment[#p.equipment + 1] = what
      common.spend(g, seat, "backpack")
      t.bought_equipment = true
      common.log(g, "log.buy_equipment", common.seat_name(g, seat), g.text("equipment." .. what))
      return
    end
  end
  -- a good: the most valuable of that kind in the cities the seat may buy from
  local best_key, best_i, best
  for _, key in ipairs(M.cities(g, seat)) do
    for i, good in ipairs(st.cities[key]) do
      if good.kind == what and (not best or good.points > best.points) then best_key, best_i, best = key, i, good end
    end
  end
  table.remove(st.cities[best_key], best_i)
  p.goods[#p.goods + 1] = best
  common.spend(g, seat, "coin")
  t.bought_good = what
  common.log(g, "log.buy_good", common.seat_name(g, seat), g.text("good." .. what), best.points)
end

---@param g cairn.G
---@param seat integer
---@param kind string
function M.special(g, seat, kind)
  local st = g.state
  local p = st.players[seat]
  local owner = st.specials[kind]
  if owner ~= 0 then common.remove(st.players[owner].specials, kind) end
  p.specials[#p.specials + 1] = kind
  st.specials[kind] = seat
  common.spend(g, seat, "coin")
  st.turn.special_done = true
  if owner ~= 0 then
    common.log(g, "log.special_from", common.seat_name(g, seat), g.text("good." .. kind), common.seat_name(g, owner))
  else
    common.log(g, "log.special", common.seat_name(g, seat), g.text("good." .. kind))
  end
end

-- offer: one candle on this temple (the pilgrim places two), then a map half
---@param g cairn.G
---@param seat integer
function M.offer(g, seat)
  local st = g.state
  local p = st.players[seat]
  local temple = st.temples[common.key(p.pos[1], p.pos[2])]
  local double = g.data.characters.pilgrim_candles
  local n = (common.ability(g, p) == "double-offering" and p.candles >= double) and double or 1
  temple[#temple + 1] = seat
  p.candles = p.candles - n
  common.log(g, "log.offer", common.seat_name(g, seat), n)
  if #st.maps > 0 or #st.map_pile > 0 then st.turn.step = "map" end
end

---@param g cairn.G
---@return (string|cairn.Option)[]
function M.map_options(g)
  local st = g.state
  local opts = {}
  for _, h in ipairs(st.maps) do
    local s = id("map", h)
    if not common.has(opts, s) then opts[#opts + 1] = s end
  end
  if #st.map_pile > 0 then opts[#opts + 1] = id("map", "pile") end
  return opts
end

---@param g cairn.G
---@param seat integer
---@param half integer
function M.take_map(g, seat, half)
  local st = g.state
  local p = st.players[seat]
  if half == "pile" then
    p.halves[#p.halves + 1] = table.remove(st.map_pile, 1)
    common.log(g, "log.map_pile", common.seat_name(g, seat))
  else
    common.remove(st.maps, half)
    p.halves[#p.halves + 1] = half
    common.log(g, "log.map", common.seat_name(g, seat), half_name(g, half))
  end
  -- the display of map halves: refilled at once, or with the other displays at the round's
  -- end (game.displays.map_refill)
  if g.data.game.displays.map_refill == "at_once" then setup.refill_maps(g) end
  st.turn.step = "act"
end

-- swap: take one loose map half from the yak met here, give one of your own back
---@param g cairn.G
---@param seat integer
---@param other integer the seat met here
function M.swap(g, seat, other)
  local t = g.state.turn
  t.swap_with, t.step = other, "steal"
end

---@param g cairn.G
---@return (string|cairn.Option)[]
function M.steal_options(g)
  local st = g.state
  local opts = {}
  for _, h in ipairs(st.players[st.turn.swap_with].halves) do
    local s = id("steal", h)
    if not common.has(opts, s) then opts[#opts + 1] = s end
  end
  return opts
end

---@param g cairn.G
---@param seat integer
---@param half integer
function M.steal(g, seat, half)
  local st = g.state
  local t = st.turn
  common.remove(st.players[t.swap_with].halves, half)
  local mine = st.players[seat].halves
  mine[#mine + 1] = half
  t.stolen, t.step = half, "give"
end

-- the half given back: any of the seat's halves but the one just taken, unless
-- game.swap_give_back_taken allows that one too
---@param g cairn.G
---@param seat integer
---@return (string|cairn.Option)[]
function M.give_options(g, seat)
  local st = g.state
  local opts = {}
  local skipped = g.data.game.swap_give_back_taken
  for _, h in ipairs(st.players[seat].halves) do
    if h == st.turn.stolen and not skipped then
      skipped = true
    else
      local s = id("give", h)
      if not common.has(opts, s) then opts[#opts + 1] = s end
    end
  end
  return opts
end

---@param g cairn.G
---@param seat integer
---@param half integer
function M.give(g, seat, half)
  local st = g.state
  local t = st.turn
  common.remove(st.players[seat].halves, half)
  local theirs = st.players[t.swap_with].halves
  theirs[#theirs + 1] = half
  common.log(g, "log.swap", common.seat_name(g, seat), half_name(g, t.stolen),
    common.seat_name(g, t.swap_with), half_name(g, half))
  t.swapped, t.step, t.stolen, t.swap_with = t.swapped + 1, "act", false, 0
end

-- chest: an A/B pair of one colour goes into a chest card, safe and worth more
---@param g cairn.G
---@param seat integer
---@param colour string
function M.chest(g, seat, colour)
  local p = g.state.players[seat]
  common.remove(p.equipment, "chest")
  common.remove(p.halves, colour .. "-a")
  common.remove(p.halves, colour .. "-b")
  p.chests[#p.chests + 1] = colour
  common.log(g, "log.chest", common.seat_name(g, seat), ctext.name(g, "map_pair.", colour))
end

-- after an action: more actions, or the turn ends when none is left
---@param g cairn.G
---@param seat integer
function M.after_action(g, seat)
  if g.state.turn.step == "act" and not M.act_options(g, seat) then end_turn(g) end
end

return M
