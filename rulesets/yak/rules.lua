-- rules.lua
-- Yak (Pretzel Games 2022, Michael Luu): the handlers cairn calls. Each rule step lives in
-- rules/*.lua under the rulebook's name: round (setup, sunrise, noon, sunset), build,
-- restock, market, common (the bag and the fog), tower, score, render, check.

local round = require "rules.round"
local score = require "rules.score"
local render = require "rules.render"
local check = require "rules.check"

local rules = {}

function rules.setup(g) round.setup(g) end

-- decisions: sunrise asks every seat at once (each answer only sets that seat's hidden
-- card); noon asks the seat whose action is under way. Labels, prompts and the reasons
-- of disabled options are made only when g.labels says a person will read them.
function rules.decisions(g)
  local st = g.state
  if st.phase == "sunrise" then return round.sunrise_decisions(g) end
  if st.phase == "noon" and st.action and not st.action.done then
    return { round.actions[st.action.card].decision(g) }
  end
  return {}
end

-- apply: the engine has checked that id is one of seat's enabled options.
function rules.apply(g, seat, id)
  local st = g.state
  if st.phase == "sunrise" then
    round.choose_card(g, seat, id:match("^card (%a+)$"))
  else
    round.actions[st.action.card].apply(g, seat, id)
    round.advance(g)
  end
end

rules.score = score.score
rules.heuristic = score.heuristic
rules.determinize = require("rules.common").determinize
rules.render = render.render
rules.check = check.check

return rules
