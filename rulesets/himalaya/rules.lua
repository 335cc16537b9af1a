-- rules.lua
-- Himalaya (Tilsit 2004, Régis Bonnessée) with the 5-6 player expansion: the handlers cairn
-- calls. Each rule step lives in rules/*.lua under the rulebook's name: round (setup, the
-- month), supply (refill), program (phase 2), resolve (phase 3), rewards (a delivery's two
-- rewards), inventory (phase 5), events (advanced rules), score (the end), render, check.
-- Decisions use the fast form: bare ids, labels/prompts/reasons only when a person looks.

local common = require "rules.common"
local round = require "rules.round"
local program = require "rules.program"
local resolve = require "rules.resolve"
local rewards = require "rules.rewards"
local inventory = require "rules.inventory"
local events = require "rules.events"
local supply = require "rules.supply"
local score = require "rules.score"

local rules = {}

---@param g cairn.G
function rules.setup(g) round.setup(g) end

-- the pending decisions inside resolution and inventory, by kind
local PENDING = {
  reward = rewards.reward_options,
  envoys = rewards.envoy_options,
  ---@param g cairn.G
  ---@return (string|cairn.Option)[]
  market = function(g)
    local p = g.state.pending
    local opts = {}
    for _, c in ipairs(g.state.villages[p.village].cubes) do
      local id = common.take_id(c)
      if opts[#opts] ~= id then opts[#opts + 1] = id end
    end
    return opts
  end,
  ---@return table
  deliver = function() return { "deliver", "decline" } end,
  inventory = inventory.choice_options,
  inv_stupa = inventory.stupa_options,
}

---@param g cairn.G
---@return cairn.Decision[]
function rules.decisions(g)
  local st = g.state
  local p = st.pending
  if p then return { { seat = p.seat, options = PENDING[p.kind](g) } } end
  local phase = st.phase
  if phase == "program" then return program.decisions(g) end
  if phase == "place" then return { round.place_decision(g) } end
  if phase == "events" then return { events.decision(g) } end
  return {}
end

-- advance(g): carry the game on until someone must decide: the rest of the resolution,
-- refill, inventory, the next month, the end
---@param g cairn.G
local function advance(g)
  local st = g.state
  while not st.pending do
    if st.phase == "resolve" then
      if not resolve.step(g) then
        supply.refill(g)
        if inventory.is_inventory_month(g) then
          st.phase = "inventory"
          inventory.start(g)
        else
          st.phase = "month_end"
        end
      end
    elseif st.phase == "inventory" then
      if not inventory.next_choice(g) then st.phase = "month_end" end
    elseif st.phase == "month_end" then
      if st.month >= g.data.game.rounds then
        st.phase = "over"
        g.log(common.t(g, "log.game_over"))
        score.finish(g)
        return
      end
      round.begin_month(g, false)
      return
    else
      return
    end
  end
end

-- apply: the engine has checked that id is one of seat's enabled options
---@param g cairn.G
---@param seat integer
---@param id string
function rules.apply(g, seat, id)
  local st = g.state
  local p = st.pending
  if p then
    local kind = p.kind
    if kind == "reward" then rewards.apply_reward(g, seat, id)
    elseif kind == "envoys" then rewards.apply_envoys(g, seat, id)
    elseif kind == "market" then
      st.pending = false
      resolve.take_cube(g, seat, p.village, id:sub(6))
    elseif kind == "deliver" then
      st.pending = false
      if id == "deliver" then resolve.deliver(g, seat, p.village) else resolve.decline(g, seat) end
    elseif kind == "inventory" then inventory.apply_choice(g, seat, id)
    else inventory.apply_stupa(g, seat, id) end
    return advance(g)
  end
  local phase = st.phase
  if phase == "program" then
    if program.apply(g, seat, id) then
      resolve.start(g)
      advance(g)
    end
  elseif phase == "place" then
    round.place_caravan(g, seat, tonumber(id:sub(7)))
  elseif phase == "events" then
    if events.apply(g, seat, id) then st.phase = "program" end
  end
end

-- a whole program typed on one line: `program dirt ice deal rest stone deal`
---@param g cairn.G
---@param seat integer
---@param text string
---@return (string[]|string)? the option ids in order, or why the line is not a program
function rules.parse(g, seat, text) return program.parse(g, seat, text) end

-- labels, prompts and reasons: only when a person looks
---@param g cairn.G
---@param seat integer
---@param id string
---@return string
function rules.label(g, seat, id)
  local st = g.state
  local p = st.pending
  if p then
    if p.kind == "reward" or p.kind == "envoys" then return rewards.label(g, seat, id) end
    if p.kind == "market" then return common.t(g, "opt.take", common.cube_name(g, id:sub(6))) end
    if p.kind == "deliver" then
      return common.t(g, "opt." .. id, common.wants_text(g, st.villages[p.village].ring), common.village_name(g, p.village))
    end
    return inventory.label(g, seat, id)
  end
  if st.phase == "program" then return program.label(g, seat, id) end
  if st.phase == "events" then return events.label(g, seat, id) end
  local v = tonumber(id:sub(7))
  return common.t(g, "opt.start", common.village_name(g, v))
end

---@param g cairn.G
---@param seat integer
---@return string
function rules.prompt(g, seat)
  local st = g.state
  local p = st.pending
  local name = common.seat_name(g, seat)
  if p then
    if p.kind == "reward" then return common.t(g, "prompt.reward", name, common.village_name(g, p.village)) end
    if p.kind == "envoys" then return common.t(g, "prompt.envoys", name, p.left) end
    if p.kind == "market" then return common.t(g, "prompt.market", name, common.village_name(g, p.village)) end
    if p.kind == "deliver" then return common.t(g, "prompt.deliver", name, common.village_name(g, p.village)) end
    if p.kind == "inventory" then return common.t(g, "prompt.inventory", name, common.cube_name(g, p.what)) end
    return common.t(g, "prompt.inv_stupa", name)
  end
  if st.phase == "program" then return program.prompt(g, seat) end
  if st.phase == "events" then return common.t(g, "prompt.events", name, st.month) end
  return common.t(g, "prompt.place", name)
end

---@param g cairn.G
---@param seat integer
---@param id string
---@return string
function rules.reason(g, seat, id)
  local st = g.state
  local p = st.pending
  if p then
    if p.kind == "reward" then return rewards.reward_reason(g, seat, id) end
    return inventory.reason(g, seat, id)
  end
  if st.phase == "program" then return program.reason(g, seat, id) end
  if st.phase == "events" then return events.reason(g, seat, id) end
  local v = tonumber(id:sub(7))
  for s = 1, #g.seats do
    if st.caravans[s] == v then return common.t(g, "why.occupied", common.seat_name(g, s)) end
  end
  return common.t(g, "why.supplied")
end

rules.score = score.score
rules.heuristic = score.heuristic
-- who starts (the balance lab's turn positions): the start player, who places first
---@param g cairn.G
---@return integer
function rules.start_seat(g) return g.state.start end
rules.determinize = require("rules.determinize").determinize
rules.render = require("rules.render").render
rules.check = require("rules.check").check
-- the map checks its schema cannot state, once when the ruleset loads
---@param g cairn.G
---@return (string|{at: string|(string|integer)[], message: string})[]?
function rules.check_data(g) return require("rules.map").problems(g.data.map) end

return rules
