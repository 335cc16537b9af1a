-- rules/turn.lua
-- Kathmandu, a turn: (1) optionally set one die aside and reroll the others; (2) choose a
-- die and gain its resource (black: any); (3) the exhaustion check; (4) move exactly the
-- pips in a straight line, then pay for the needle, the border strips and lost steps.
-- The destination is rules/destination.lua.

local common = require "rules.common"
local derived = require "cairn.derived"

local M = {}
local id = common.id

-- a disabled option
---@param s string
---@return cairn.Option
local function off(s) return { id = s, disabled = true } end
M.off = off

---@param name string a function of rules/round.lua
---@return function
local function flow(name) return require("rules.round")[name] end

-- M.begin_turn(g, seat): the seat's next turn starts with the choice of a die.
---@param g cairn.G
---@param seat integer
function M.begin_turn(g, seat)
  g.state.turn = {
    seat = seat, step = "die", rerolls = 0, die = false, pips = 0, moved = false,
    owed = {}, active = {}, painted = false, bought_equipment = false, bought_good = false,
    special_done = false, swapped = 0, swap_with = 0, stolen = false,
  }
end

-- turns_left(g, p) -> this round's turns the seat still takes, the current one included
---@param data table
---@param p table
---@return integer
local function turns_left(data, p)
  local used = 0
  for _, d in ipairs(data.game.dice) do
    local at = p.dice[d.colour].at
    if at == "used" or at == "lost" then used = used + 1 end
  end
  return data.game.turns_per_round - used
end

---@param data table
---@param p table
---@return integer
local function free_dice(data, p)
  local free = 0
  for _, d in ipairs(data.game.dice) do if p.dice[d.colour].at == "free" then free = free + 1 end end
  return free
end

-- M.can_reroll(g, p, t) -> true, or false and the reason's text key
---@param g cairn.G
---@param p table
---@param t table
---@return boolean
function M.can_reroll(g, p, t)
  local data = g.data
  if t.rerolls >= data.game.rerolls_per_turn then return false, "why.rerolled" end
  if free_dice(data, p) - 1 < turns_left(data, p) then return false, "why.dice_needed" end
  return true
end

-- 1 and 2: the die step
---@param g cairn.G
---@param seat integer
---@return (string|cairn.Option)[]
function M.die_options(g, seat)
  local st = g.state
  local p, t = st.players[seat], st.turn
  local opts = {}
  local dice = g.data.game.dice
  for i = 1, #dice do
    local colour = dice[i].colour
    if p.dice[colour].at == "free" then opts[#opts + 1] = id("die", colour) end
  end
  if t.rerolls < g.data.game.rerolls_per_turn then
    local ok = M.can_reroll(g, p, t)
    for i = 1, #dice do
      local colour = dice[i].colour
      if p.dice[colour].at == "free" then
        local s = id("reroll", colour)
        opts[#opts + 1] = ok and s or off(s)
      end
    end
  end
  return opts
end

-- reroll: the die set aside cannot be used this round; the other free dice are rolled.
---@param g cairn.G
---@param seat integer
---@param colour string
function M.reroll(g, seat, colour)
  local st = g.state
  local p = st.players[seat]
  p.dice[colour].at = "aside"
  st.turn.rerolls = st.turn.rerolls + 1
  local rolled = {}
  for _, d in ipairs(g.data.game.dice) do
    local die = p.dice[d.colour]
    if die.at == "free" then
      die.pips = g.rng.die(g.data.game.die_sides)
      rolled[#rolled + 1] = g.text("die." .. d.colour) .. " " .. die.pips
    end
  end
  common.log(g, "log.reroll", common.seat_name(g, seat), g.text("die." .. colour), table.concat(rolled, ", "))
end

---@param g cairn.G
---@param seat integer
---@param res string
local function gain(g, seat, res)
  common.receive(g, seat, res)
  common.log(g, "log.gain", common.seat_name(g, seat), g.text("res." .. res))
end

-- choose a die: its colour gives the resource; in Kathmandu (or black) one of choice
---@param g cairn.G
---@param seat integer
---@param colour string
function M.choose_die(g, seat, colour)
  local st = g.state
  local p, t = st.players[seat], st.turn
  local die = p.dice[colour]
  die.at = "used"
  t.die, t.pips = colour, die.pips
  common.log(g, "log.die", common.seat_name(g, seat), g.text("die." .. colour), die.pips)
  local res = derived.by(g.data, g.data.game.dice, "colour", colour).resource
  if res == "any" or common.in_kathmandu(p) then
    t.step = "joker"
    return
  end
  gain(g, seat, res)
  M.exhaustion_check(g, seat)
end

---@param g cairn.G
---@return (string|cairn.Option)[]
function M.joker_options(g)
  local opts = {}
  for i, r in ipairs(g.data.game.resources) do opts[i] = id("take", r) end
  return opts
end

---@param g cairn.G
---@param seat integer
---@param res string
function M.take(g, seat, res)
  gain(g, seat, res)
  M.exhaustion_check(g, seat)
end

-- 3. the exhaustion check: with every slot full the turn ends; the markers are discarded.
-- A yak in Kathmandu only takes its resource.
---@param g cairn.G
---@param seat integer
function M.exhaustion_check(g, seat)
  local st = g.state
  local p = st.players[seat]
  if common.in_kathmandu(p) then return flow("end_turn")(g) end
  if p.exhaustion >= g.data.game.exhaustion.slots then
    p.exhaustion = 0
    -- the die of a lost turn counts in the dice sum, or not (game.lost_turn_die_counts)
    if not g.data.game.lost_turn_die_counts then p.dice[st.turn.die].at = "lost" end
    common.log(g, "log.too_exhausted", common.seat_name(g, seat))
    return flow("end_turn")(g)
  end
  st.turn.step = "move"
end

-- 4. the move
local DR, DC = common.DR, common.DC

-- M.walk(g, r, c, dir1, n1, dir2, n2, axe) -> r, c, steps, lost, borders, needles, kathmandu
-- Steps from (r, c): n1 fields towards dir1, then n2 towards dir2 (a bend; n2 may be 0).
-- The edge of the route or a black mountain stops the move (lost steps); with the ice axe
-- mountains are passed over but never stopped on. Each border strip crossed counts; a
-- segment that goes in the needle's direction of the board it starts on counts a needle
-- (game.needle_board `segment_start`; `each_board`: every board it steps on counts, once).
---@param g cairn.G
---@param r integer
---@param c integer
---@param dir1 string the first leg's direction
---@param n1 integer the first leg's fields
---@param dir2 string? the second leg's direction, after the bend
---@param n2 integer the second leg's fields
---@param axe boolean true: the ice axe is active (mountains are crossed)
---@return integer, integer, integer, boolean, integer, integer, boolean r, c, steps, lost, borders, needles, kathmandu
function M.walk(g, r, c, dir1, n1, dir2, n2, axe)
  local st = g.state
  local fields, W, map, cols = common.fields(g.data), g.data.boards.size.cols, st.map, st.cols
  local stop_k = g.data.game.kathmandu_stops_move
  local each_board = g.data.game.needle_board == "each_board"
  local steps, borders, needles, lost, kat = 0, 0, 0, false, false
  local okr, okc, ok_borders = r, c, 0
  local dir, n = dir1, n1
  for seg = 1, 2 do
    if seg == 2 then dir, n = dir2, n2 end
    if n and n > 0 then
      local dr, dc = DR[dir], DC[dir]
      local counted = false
      local board = (c - 1) // W + 1
      for _ = 1, n do
        local nr, nc = r + dr, c + dc
        local row = map[nr]
        if not row or nc < 1 or nc > cols then lost = true; break end
        local f = fields[row:byte(nc)]
        local mountain = f.kind == "mountain"
        if mountain and not axe then lost = true; break end
        if not counted then
          counted = true
          if st.needles[board] == dir then needles = needles + 1 end
        end
        if (nc - 1) // W ~= (c - 1) // W then
          borders = borders + 1
          board = (nc - 1) // W + 1
          if each_board and st.needles[board] == dir then needles = needles + 1 end
        end
        r, c, steps = nr, nc, steps + 1
        if not mountain then okr, okc, ok_borders = r, c, borders end
        if stop_k and f.kind == "kathmandu" then kat = true; break end
      end
      if lost or kat then break end
    end
  end
  if r ~= okr or c ~= okc then
    -- the ice axe's move ended on a mountain: back to the last field it may stop on
    lost, r, c, borders = true, okr, okc, ok_borders
  end
  return r, c, steps, lost, borders, needles, kat
end

---@param p table
---@param kind string
---@return boolean
local function holds(p, kind) return common.has(p.equipment, kind) end
---@param t table
---@param kind string
---@return boolean
local function active(t, kind) return common.has(t.active, kind) end
M.holds, M.active = holds, active

-- M.pips(g, t) -> the fields this turn's move goes (the wind horse doubles them)
---@param g cairn.G
---@param t table
---@return integer
function M.pips(g, t)
  return active(t, "wind-horse") and t.pips * g.data.cards.abilities.wind_horse_factor or t.pips
end

local USABLE = { "trekking-poles", "ice-axe", "sherpa", "wind-horse", "butter-tea" }

---@param g cairn.G
---@param seat integer
---@return (string|cairn.Option)[]
function M.move_options(g, seat)
  local st = g.state
  local p, t = st.players[seat], st.turn
  local r, c = p.pos[1], p.pos[2]
  local pips, axe = M.pips(g, t), active(t, "ice-axe")
  local opts, blocked, any = {}, {}, false
  for _, dir in ipairs(common.DIRECTIONS) do
    local _, _, steps = M.walk(g, r, c, dir, pips, nil, 0, axe)
    blocked[dir] = steps == 0
    if steps > 0 then any = true end
  end
  -- a direction blocked at once (every step lost) is refused while another direction moves,
  -- or allowed (game.blocked_at_once); the scout's short move and the sherpa's bends start
  -- with a step in that direction, so they lose every step too and are refused alike
  local refuse = g.data.game.blocked_at_once == "refused_if_another_moves"
  local function offer(dir, s)
    opts[#opts + 1] = (refuse and blocked[dir] and any) and off(s) or s
  end
  for _, dir in ipairs(common.DIRECTIONS) do offer(dir, id("move", dir)) end
  if common.ability(g, p) == "stop-short" and pips > g.data.characters.scout_short then
    for _, dir in ipairs(common.DIRECTIONS) do offer(dir, id("move", dir, "short")) end
  end
  if active(t, "sherpa") then
    for _, dir in ipairs(common.DIRECTIONS) do
      for _, bend in ipairs(common.BENDS[dir]) do
        for k = 1, pips - 1 do offer(dir, id("move", dir, bend, k)) end
      end
    end
  end
  for _, kind in ipairs(USABLE) do
    if holds(p, kind) and not active(t, kind) then
      if kind == "trekking-poles" then
        local step = g.data.cards.abilities.trekking_poles_pips
        if t.pips + step <= g.data.game.die_sides then opts[#opts + 1] = id("use", kind, "up") end
        if t.pips - step >= 1 then opts[#opts + 1] = id("use", kind, "down") end
      elseif kind ~= "butter-tea" or p.exhaustion > 0 then
        opts[#opts + 1] = id("use", kind)
      end
    end
  end
  return opts
end

-- use an equipment card: single use, then discarded
---@param g cairn.G
---@param seat integer
---@param kind string
---@param how string? "up" or "down" (the die's pips)
function M.use(g, seat, kind, how)
  local st = g.state
  local p, t = st.players[seat], st.turn
  common.remove(p.equipment, kind)
  st.equipment_discard[#st.equipment_discard + 1] = kind
  t.active[#t.active + 1] = kind
  if kind == "trekking-poles" then
    local step = g.data.cards.abilities.trekking_poles_pips
    t.pips = t.pips + (how == "up" and step or -step)
    p.dice[t.die].pips = t.pips
  elseif kind == "butter-tea" then
    p.exhaustion = math.max(0, p.exhaustion - g.data.cards.abilities.butter_tea_markers)
  end
  common.log(g, "log.use", common.seat_name(g, seat), g.text("equipment." .. kind))
end

-- M.plan(g, seat, dir, bend, k) -> the walk of a move option (see M.walk)
---@param g cairn.G
---@param seat integer
---@param dir string a direction (north, east, south, west)
---@param bend string|false? the bend's direction, or "short" (the scout)
---@param k integer
---@return integer, integer, integer, boolean, integer, integer, boolean see M.walk
function M.plan(g, seat, dir, bend, k)
  local st = g.state
  local p, t = st.players[seat], st.turn
  local pips = M.pips(g, t)
  local n1, dir2, n2 = pips, nil, 0
  if bend == "short" then n1 = pips - g.data.characters.scout_short
  elseif bend then n1, dir2, n2 = k, bend, pips - k end
  return M.walk(g, p.pos[1], p.pos[2], dir, n1, dir2, n2, active(t, "ice-axe"))
end

---@param g cairn.G
---@param seat integer
---@param dir string a direction (north, east, south, west)
---@param bend string|false? the bend's direction, or "short" (the scout)
---@param k integer
function M.move(g, seat, dir, bend, k)
  local st = g.state
  local p, t = st.players[seat], st.turn
  local r, c, steps, lost, borders, needles = M.plan(g, seat, dir, bend, k)
  p.pos[1], p.pos[2] = r, c
  t.moved = true
  common.log(g, "log.move", common.seat_name(g, seat), steps, g.text("dir." .. dir), common.key(r, c))
  local owed = t.owed
  for _ = 1, needles do owed[#owed + 1] = "needle" end
  for _ = 1, borders do owed[#owed + 1] = "border" end
  if lost then owed[#owed + 1] = "lost" end
  t.step = "pay"
  M.settle(g, seat)
end

-- the ways to pay a cost: its resource, a card or an ability, and the exhaustion marker.
-- Seed: "musst du einen Kompass abgeben, andernfalls erhältst du einen Erschöpfungsmarker"
-- (yak food at a border strip alike): with game.exhaustion.instead_of_paying `when_unable`
-- the marker is offered only to a seat that holds none of the resource; with `by_choice`
-- always. Lost steps have no resource: the marker (or the rope) settles them.
local PAY = { needle = "compass", border = "food" }
local CARD = { needle = "lantern", border = "fodder-sack", lost = "rope" }

---@param g cairn.G
---@param p table
---@param cost string what is owed: border, needle or lost
---@return boolean
local function herder_free(g, p, cost)
  return cost == "border" and p.character and common.ability(g, p) == "free-border" and not p.ability_used
end

-- can_pay(p, cost) -> true when the seat holds the resource that pays cost
---@param p table
---@param cost string what is owed: border, needle or lost
---@return boolean
local function can_pay(p, cost)
  return PAY[cost] ~= nil and p.res[PAY[cost]] > 0
end

-- exhaustion_allowed(g, p, cost) -> true when the seat may take the marker for cost
---@param g cairn.G
---@param p table
---@param cost string what is owed: border, needle or lost
---@return boolean
local function exhaustion_allowed(g, p, cost)
  return g.data.game.exhaustion.instead_of_paying == "by_choice" or not can_pay(p, cost)
end

---@param g cairn.G
---@param seat integer
---@return (string|cairn.Option)[]
function M.pay_options(g, seat)
  local st = g.state
  local p = st.players[seat]
  local cost = st.turn.owed[1]
  local opts = {}
  local res = PAY[cost]
  if res then
    local s = id("pay", res)
    opts[1] = can_pay(p, cost) and s or off(s)
  end
  if holds(p, CARD[cost]) then opts[#opts + 1] = id("use", CARD[cost]) end
  if herder_free(g, p, cost) then opts[#opts + 1] = id("use", "ability") end
  if exhaustion_allowed(g, p, cost) then opts[#opts + 1] = id("take", "exhaustion") end
  return opts
end

-- ways(g, p, cost) -> how many ways there are to settle cost, and the one way when there
-- is only one ("pay" or "exhaustion")
---@param g cairn.G
---@param p table
---@param cost string what is owed: border, needle or lost
---@return integer, string? the ways and the only one
local function ways(g, p, cost)
  local n, only = 0, nil
  if can_pay(p, cost) then n, only = n + 1, "pay" end
  if holds(p, CARD[cost]) then n = n + 1 end
  if herder_free(g, p, cost) then n = n + 1 end
  if exhaustion_allowed(g, p, cost) then n, only = n + 1, "exhaustion" end
  return n, only
end

-- M.settle(g, seat): the costs of the move in order (needle, borders, lost steps). A cost
-- with only one way to settle it is settled at once; otherwise the seat is asked.
---@param g cairn.G
---@param seat integer
function M.settle(g, seat)
  local st = g.state
  local p, t = st.players[seat], st.turn
  while #t.owed > 0 do
    local cost = t.owed[1]
    local n, only = ways(g, p, cost)
    if n > 1 then return end
    table.remove(t.owed, 1)
    if cost == "lost" and common.ability(g, p) == "sure-footed" and not p.ability_used then
      p.ability_used = true
      common.log(g, "log.guide", common.seat_name(g, seat))
    elseif only == "pay" then
      common.spend(g, seat, PAY[cost])
      common.log(g, "log.pay", common.seat_name(g, seat), g.text("res." .. PAY[cost]), g.text("why." .. cost))
    else
      common.exhaust(g, seat, 1, cost)
    end
  end
  require("rules.destination").arrive(g, seat)
end

---@param g cairn.G
---@param seat integer
---@param verb string
---@param what string
function M.pay(g, seat, verb, what)
  local st = g.state
  local p, t = st.players[seat], st.turn
  local cost = table.remove(t.owed, 1)
  if verb == "pay" then
    common.spend(g, seat, what)
    common.log(g, "log.pay", common.seat_name(g, seat), g.text("res." .. what), g.text("why." .. cost))
  elseif what == "exhaustion" then
    common.exhaust(g, seat, 1, cost)
  elseif what == "ability" then
    p.ability_used = true
    common.log(g, "log.herder", common.seat_name(g, seat))
  else
    common.remove(p.equipment, what)
    st.equipment_discard[#st.equipment_discard + 1] = what
    common.log(g, "log.use", common.seat_name(g, seat), g.text("equipment." .. what))
  end
  M.settle(g, seat)
end

return M
