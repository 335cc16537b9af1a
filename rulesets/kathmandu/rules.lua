-- rules.lua
-- Kathmandu (Stefan Feld, Queen Games 2024): the handlers cairn calls. Each rule step
-- lives in rules/*.lua under the rulebook's name: setup, turn (reroll, die, exhaustion
-- check, move and its costs), destination (the field's actions), round (turn order, round
-- end, weather, tents, the end), score, render, check, text (labels, prompts, reasons).

local setup = require "rules.setup"
local turn = require "rules.turn"
local destination = require "rules.destination"
local round = require "rules.round"
local common = require "rules.common"

local rules = {}

---@param g cairn.G
function rules.setup(g) setup.setup(g) end

-- the options of the seat whose turn step is under way (the fast form: ids first)
local STEP = {
  die = turn.die_options,
  joker = turn.joker_options,
  move = turn.move_options,
  pay = turn.pay_options,
  act = destination.act_options,
  map = destination.map_options,
  steal = destination.steal_options,
  give = destination.give_options,
}

---@param g cairn.G
---@return cairn.Decision[]
function rules.decisions(g)
  local st = g.state
  local phase = st.phase
  if phase == "turn" then
    local t = st.turn
    return { { seat = t.seat, options = STEP[t.step](g, t.seat) } }
  elseif phase == "start" then
    return { { seat = st.choosing[1], options = round.start_options(g) } }
  elseif phase == "tent" then
    return { { seat = st.tent_ask.queue[1], options = round.tent_options(g) } }
  end
  return {}
end

-- apply: the engine has checked that id is one of seat's enabled options
local APPLY = {
  ---@param g cairn.G
  ---@param seat integer
  ---@param a (string|integer)[] the option id's words
  die = function(g, seat, a) if a[1] == "die" then turn.choose_die(g, seat, a[2]) else turn.reroll(g, seat, a[2]) end end,
  ---@param g cairn.G
  ---@param seat integer
  ---@param a (string|integer)[] the option id's words
  joker = function(g, seat, a) turn.take(g, seat, a[2]) end,
  ---@param g cairn.G
  ---@param seat integer
  ---@param a (string|integer)[] the option id's words
  move = function(g, seat, a)
    if a[1] == "use" then turn.use(g, seat, a[2], a[3]) else turn.move(g, seat, a[2], a[3], a[4]) end
  end,
  ---@param g cairn.G
  ---@param seat integer
  ---@param a (string|integer)[] the option id's words
  pay = function(g, seat, a) turn.pay(g, seat, a[1], a[2]) end,
  ---@param g cairn.G
  ---@param seat integer
  ---@param a (string|integer)[] the option id's words
  act = function(g, seat, a)
    local verb = a[1]
    if verb == "pass" then return round.end_turn(g) end
    if verb == "paint" then destination.paint(g, seat, a[2])
    elseif verb == "buy" then destination.buy(g, seat, a[2])
    elseif verb == "special" then destination.special(g, seat, a[2])
    elseif verb == "offer" then destination.offer(g, seat)
    elseif verb == "swap" then destination.swap(g, seat, tonumber(a[2]))
    elseif verb == "chest" then destination.chest(g, seat, a[2]) end
    destination.after_action(g, seat)
  end,
  ---@param g cairn.G
  ---@param seat integer
  ---@param a (string|integer)[] the option id's words
  map = function(g, seat, a) destination.take_map(g, seat, a[2]); destination.after_action(g, seat) end,
  ---@param g cairn.G
  ---@param seat integer
  ---@param a (string|integer)[] the option id's words
  steal = function(g, seat, a) destination.steal(g, seat, a[2]) end,
  ---@param g cairn.G
  ---@param seat integer
  ---@param a (string|integer)[] the option id's words
  give = function(g, seat, a) destination.give(g, seat, a[2]); destination.after_action(g, seat) end,
}

---@param g cairn.G
---@param seat integer
---@param id string
function rules.apply(g, seat, id)
  local st = g.state
  local a = common.words(id)
  if st.phase == "turn" then
    APPLY[st.turn.step](g, seat, a)
  elseif st.phase == "start" then
    round.choose_start(g, seat, tonumber(a[2]))
  elseif st.phase == "tent" then
    round.play_tent(g, seat, a[1] == "tent")
  end
end

local score = require "rules.score"
local text = require "rules.text"
rules.score = score.score
-- who starts (the balance lab's turn positions)
---@param g cairn.G
---@return integer
function rules.start_seat(g) return g.state.start_player end
rules.determinize = require("rules.determinize").determinize
rules.render = require("rules.render").render
rules.check = require("rules.check").check
rules.label, rules.prompt, rules.reason = text.label, text.prompt, text.reason

return rules
