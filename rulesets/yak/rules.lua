-- rules.lua
-- Yak (Pretzel Games 2022, Michael Luu): the handlers cairn calls. Each rule step lives in
-- rules/*.lua under the rulebook's name: round (setup, sunrise, noon, sunset), build,
-- restock, market, common (the bag and the fog), tower, score, render, check.

local round = require "rules.round"
local score = require "rules.score"
local render = require "rules.render"
local check = require "rules.check"
local common = require "rules.common"

local rules = {}

---@param g cairn.G
function rules.setup(g) round.setup(g) end

-- decisions: sunrise asks every seat at once (each answer only sets that seat's hidden
-- card); noon asks the seat whose action is under way.
---@param g cairn.G
---@return cairn.Decision[]
function rules.decisions(g)
  local st = g.state
  if st.phase == "sunrise" then return round.sunrise_decisions(g) end
  if st.phase == "noon" and st.action and not st.action.done then
    return { round.actions[st.action.card].decision(g) }
  end
  return {}
end

-- label: what an option reads, asked only when a person looks (docs/lua-api.md,
-- Decisions): a card at sunrise, else the step of the action under way says.
---@param g cairn.G
---@param seat integer
---@param id string
---@return string
function rules.label(g, seat, id)
  local st = g.state
  if st.phase == "sunrise" then
    local _, card = common.parse_option(id)
    return g.text("card." .. card)
  end
  return round.actions[st.action.card].label(g, id)
end

-- apply: the engine has checked that id is one of seat's enabled options.
---@param g cairn.G
---@param seat integer
---@param id string
function rules.apply(g, seat, id)
  local st = g.state
  if st.phase == "sunrise" then
    local _, card = common.parse_option(id) -- "card build" -> "build"
    round.choose_card(g, seat, card)
  else
    round.actions[st.action.card].apply(g, seat, id)
    round.advance(g)
  end
end

rules.score = score.score
rules.heuristic = score.heuristic
-- who starts (the balance lab's turn positions): the first baby-yak holder
---@param g cairn.G
---@return integer
function rules.start_seat(g) return g.state.holder end
rules.determinize = common.determinize
rules.render = render.render

-- Bots this ruleset ships (`--bot 2=yak:builder`, docs/bots.md): each gets the seat's
-- view, the seat, its enabled option ids and g without state, and returns one id.
rules.bots = {}

-- builder: a typical eager player. It picks Build whenever the cart in front of it has
-- stones and it has food, else Restock; it takes two stones when it can, then buys, pays
-- and places with the first option offered.
---@param view table
---@param seat integer
---@param options string[] its enabled option ids
---@param g cairn.G
---@return string
function rules.bots.builder(view, seat, options, g)
  local function offered(id)
    for _, o in ipairs(options) do if o == id then return true end end
    return false
  end
  if view.phase == "sunrise" then
    local cart = require("rules.common").cart_of_seat(view, seat)
    local food = 0
    for _, n in pairs(view.players[seat].food) do food = food + n end
    if cart and #cart.stones > 0 and food > 0 and offered("card build") then return "card build" end
    return offered("card restock") and "card restock" or options[1]
  end
  local taken = view.action and view.action.stones and #view.action.stones or 0
  if offered("buy") and taken >= 2 then return "buy" end
  for _, o in ipairs(options) do
    if o:match("^take ") then return o end
  end
  return offered("buy") and "buy" or options[1]
end
rules.check = check.check

return rules
