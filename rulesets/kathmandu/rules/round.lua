-- rules/round.lua
-- Kathmandu, the round: each seat takes three turns in turn order. The end of a turn
-- (tents may be played on the mover), the next turn, the round's end (the lowest dice sum
-- starts next and draws a tent, the weather is revealed and a storm moves the wall,
-- displays are refilled, dice rerolled) and the end of the game.

local turn = require "cairn.turn"
local common = require "rules.common"
local kturn = require "rules.turn"
local setup = require "rules.setup"

local M = {}

-- M.choose_start(g, seat, k): the seat's yak goes on start field k; when every seat has
-- chosen, everyone rolls six dice and the first round begins.
---@param g cairn.G
---@param seat integer
---@param k integer
function M.choose_start(g, seat, k)
  local st = g.state
  local f = setup.start_fields(g)[k]
  st.players[seat].pos = { f[1], f[2] }
  table.remove(st.choosing, 1)
  common.log(g, "log.start_field", common.seat_name(g, seat), k)
  if #st.choosing == 0 then
    for s = 1, #st.players do setup.roll_dice(g, s) end
    common.log(g, "log.dice_rolled")
    st.phase = "turn"
    kturn.begin_turn(g, st.order[1])
  end
end

---@param g cairn.G
---@return (string|cairn.Option)[]
function M.start_options(g)
  local st = g.state
  local opts = {}
  for k, f in ipairs(setup.start_fields(g)) do
    local taken = false
    if g.data.game.start_fields_exclusive then
      for _, p in ipairs(st.players) do
        if p.pos and p.pos[1] == f[1] and p.pos[2] == f[2] then taken = true end
      end
    end
    local s = common.id("start", k)
    opts[#opts + 1] = taken and kturn.off(s) or s
  end
  return opts
end

-- M.dice_sum(p) -> the pips of the dice the seat used this round; a die set aside by a
-- reroll counts only with game.aside_die_counts
---@param g cairn.G
---@param p table
---@return integer
function M.dice_sum(g, p)
  local sum = 0
  local aside = g.data.game.aside_die_counts
  for _, d in ipairs(g.data.game.dice) do
    local die = p.dice[d.colour]
    if die.at == "used" or (aside and die.at == "aside") then sum = sum + die.pips end
  end
  return sum
end

---@param st table
---@return boolean
local function all_in_kathmandu(st)
  for _, p in ipairs(st.players) do if p.arrived == 0 then return false end end
  return true
end

---@param g cairn.G
function M.game_over(g)
  local st = g.state
  st.phase, st.turn, st.tent_ask = "over", false, false
  common.log(g, "log.game_over")
end

-- tents: every other seat holding a tent of the landscape the mover ended on is asked
---@param g cairn.G
---@param mover integer the seat that moved
---@param landscape string
---@return integer[] the seats asked, in turn order
local function tent_holders(g, mover, landscape)
  local st = g.state
  local queue = {}
  for _, s in ipairs(turn.order(turn.next(mover, #g.seats), #g.seats)) do
    if s ~= mover and common.has(st.players[s].tents, landscape) then queue[#queue + 1] = s end
  end
  return queue
end

-- M.end_turn(g): the turn is over
---@param g cairn.G
function M.end_turn(g)
  local st = g.state
  local t = st.turn
  st.turn = false
  local mover = st.players[t.seat]
  -- a turn lost to exhaustion has no destination: no tent, unless tents.on_lost_turn (then
  -- the field the yak stands on counts)
  if g.options.tents and (t.moved or g.data.tents.on_lost_turn) and mover.arrived == 0 then
    local landscape = common.landscape_at(g, mover.pos[1], mover.pos[2])
    if landscape then
      local queue = tent_holders(g, t.seat, landscape)
      if #queue > 0 then
        st.tent_ask = { seat = t.seat, landscape = landscape, queue = queue }
        st.phase = "tent"
        return
      end
    end
  end
  M.next_turn(g)
end

---@param g cairn.G
---@return (string|cairn.Option)[]
function M.tent_options(g)
  return { common.id("tent", g.state.tent_ask.landscape), "pass" }
end

-- play_tent: the holder plays the tent; the mover takes one exhaustion
---@param g cairn.G
---@param seat integer
---@param play boolean true: the tent is played
function M.play_tent(g, seat, play)
  local st = g.state
  local ask = st.tent_ask
  table.remove(ask.queue, 1)
  if play then
    common.remove(st.players[seat].tents, ask.landscape)
    st.tent_discard[#st.tent_discard + 1] = ask.landscape
    common.log(g, "log.tent", common.seat_name(g, seat), g.text("land." .. ask.landscape), common.seat_name(g, ask.seat))
    common.exhaust(g, ask.seat, 1, "tent")
    if g.data.tents.per_turn == "one" then ask.queue = {} end   -- one tent a turn
  end
  if #ask.queue == 0 then
    st.tent_ask, st.phase = false, "turn"
    M.next_turn(g)
  end
end

-- M.next_turn(g): the next seat in turn order, or the round's end; the game ends early
-- when every yak is in Kathmandu
---@param g cairn.G
function M.next_turn(g)
  local st = g.state
  local n = #g.seats
  if all_in_kathmandu(st) then return M.game_over(g) end
  st.turn_no = st.turn_no + 1
  if st.turn_no >= n * g.data.game.turns_per_round then
    M.round_end(g)
    if st.phase == "over" then return end
  end
  kturn.begin_turn(g, st.order[st.turn_no % n + 1])
end

-- start_player: the lowest dice sum; a tie goes to the earliest (or latest) in this
-- round's turn order (game.start_player_ties); seats in Kathmandu take part unless
-- game.kathmandu_dice_count is false (then only when every seat is there)
---@param g cairn.G
---@return integer, integer the start player and its dice sum
local function start_player(g)
  local st = g.state
  local game = g.data.game
  local latest = game.start_player_ties == "latest"
  local skip_arrived = not game.kathmandu_dice_count and not all_in_kathmandu(st)
  local best, best_sum
  for _, s in ipairs(st.order) do
    local p = st.players[s]
    if not (skip_arrived and p.arrived > 0) then
      local sum = M.dice_sum(g, p)
      if not best or sum < best_sum or (latest and sum == best_sum) then best, best_sum = s, sum end
    end
  end
  return best, best_sum
end

-- draw_tent: the seat with the lowest dice sum draws a tent card
---@param g cairn.G
---@param seat integer
local function draw_tent(g, seat)
  local st = g.state
  if #st.tent_deck == 0 and #st.tent_discard > 0 and g.data.tents.reshuffle then
    for _, t in ipairs(st.tent_discard) do st.tent_deck[#st.tent_deck + 1] = t end
    st.tent_discard = {}
    g.rng.shuffle(st.tent_deck)
  end
  local card = table.remove(st.tent_deck, 1)
  if card then
    local tents = st.players[seat].tents
    tents[#tents + 1] = card
    common.log(g, "log.tent_drawn", common.seat_name(g, seat))
  end
end

-- M.weather(g): reveal this round's tile; a storm moves the wall to the next border strip
-- (onto the goal board only with game.storm_wall.enters_goal_board) and every yak behind it
-- takes one exhaustion (a yak in Kathmandu too unless game.storm_wall.spares_kathmandu)
---@param g cairn.G
function M.weather(g)
  local st = g.state
  local wall = g.data.game.storm_wall
  local tile = table.remove(st.weather, 1)
  if not tile then return end
  st.weather_seen[#st.weather_seen + 1] = tile
  if tile ~= "storm" then return common.log(g, "log.sun") end
  st.wall = math.min(st.wall + 1, wall.enters_goal_board and #st.route or #st.route - 1)
  common.log(g, "log.storm", st.wall)
  for s, p in ipairs(st.players) do
    local spared = p.arrived > 0 and wall.spares_kathmandu
    if not spared and common.board_of(g, p.pos[2]) <= st.wall then common.exhaust(g, s, 1, "storm") end
  end
end

-- M.round_end(g)
---@param g cairn.G
function M.round_end(g)
  local st = g.state
  local n = #g.seats
  local first, sum = start_player(g)
  st.start_player = first
  common.log(g, "log.start_player", common.seat_name(g, first), sum)
  if g.options.tents then draw_tent(g, first) end
  local last = st.round >= g.data.game.rounds
  if not last or g.data.game.storm_wall.last_round then M.weather(g) end
  setup.refill_displays(g)
  if g.data.characters.ability_resets == "round" then
    for _, p in ipairs(st.players) do p.ability_used = false end
  end
  if last then return M.game_over(g) end
  st.round, st.turn_no = st.round + 1, 0
  st.order = turn.order(first, n)
  for s = 1, n do setup.roll_dice(g, s) end
  common.log(g, "log.round", st.round, common.seat_name(g, first))
end

return M
