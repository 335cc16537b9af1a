-- rules/program.lua
-- Himalaya, phase 2: programming. Every seat at once and in secret lays its 6 action pieces
-- (dirt, ice, stone, deal, rest), one slot per decision; `dirt; ice; deal; rest; stone; deal`
-- or `program dirt ice deal rest stone deal` (M.parse) on one console line fills them all. A full program is shown back and may be changed
-- (`back` takes the last piece off) until the seat says `ready`; the last `ready` reveals
-- every program and resolution begins. Each answer touches only the seat's own program.

local common = require "rules.common"
local ctext = require "cairn.text"   -- name: an action's name looked up once a game

local M = {}

-- the option lists, made once: filling (5 actions), full (ready, back; the actions shown
-- disabled with the reason "the program is full"). `back` is a console convenience, not a
-- rule: search bots pass it by (bot = false), or a one-ply bot that likes the position
-- before the round's resolution better would take its last piece off and lay it forever
local FILLING = { "dirt", "ice", "stone", "deal", "rest" }
local FULL = { "ready", { id = "back", bot = false },
  { id = "dirt", disabled = true }, { id = "ice", disabled = true }, { id = "stone", disabled = true },
  { id = "deal", disabled = true }, { id = "rest", disabled = true } }
M.IS_ACTION = { dirt = true, ice = true, stone = true, deal = true, rest = true }
M.ACTIONS = FILLING

---@param g cairn.G
---@return cairn.Decision[]
function M.decisions(g)
  local st, list = g.state, {}
  local size = g.data.game.pieces.actions
  for s = 1, #g.seats do
    if not st.ready[s] then
      list[#list + 1] = { seat = s, options = #st.programs[s] < size and FILLING or FULL }
    end
  end
  return list
end

-- M.apply(g, seat, id) -> true when the last seat is ready (the round resolves)
---@param g cairn.G
---@param seat integer
---@param id string
---@return boolean
function M.apply(g, seat, id)
  local st = g.state
  local prog = st.programs[seat]
  if M.IS_ACTION[id] then
    prog[#prog + 1] = id
    g.log_text({ to = seat }, "log.you_program", #prog, g.text("action." .. id), table.concat(prog, " "))
  elseif id == "back" then
    prog[#prog] = nil
    g.log_text({ to = seat }, "log.you_back", table.concat(prog, " "))
  else -- ready
    st.ready[seat] = true
    g.log_text({ to = seat }, "log.you_ready", table.concat(prog, " "))
    g.log_text({ except = seat }, "log.has_programmed", common.seat_name(g, seat))
    for s = 1, #g.seats do if not st.ready[s] then return false end end
    return true
  end
  return false
end

-- M.parse(g, seat, text) -> the answers a whole program typed on one line stands for
-- (the console asks when no option matches): `program dirt ice deal rest stone deal`, or
-- the actions alone, laid on an empty program one action each. A line that names actions
-- but cannot be laid gets the reason (a string); anything else is not a program (nil).
---@param g cairn.G
---@param seat integer
---@param text string
---@return (string[]|string)? the option ids in order, or why the line is not a program
function M.parse(g, seat, text)
  local st = g.state
  if st.phase ~= "program" or st.ready[seat] then return nil end
  local words = {}
  for w in text:gmatch("%S+") do words[#words + 1] = w end
  local named = words[1] == "program"
  if named then table.remove(words, 1) end
  local size = g.data.game.pieces.actions
  for _, w in ipairs(words) do
    if not M.IS_ACTION[w] then return named and common.t(g, "why.not_action", w) or nil end
  end
  if #words == 0 then return named and common.t(g, "why.program_words", size) or nil end
  if #words > size then return common.t(g, "why.program_long", size, #words) end
  local prog = st.programs[seat]
  if #prog + #words > size then
    return common.t(g, "why.program_room", #prog, table.concat(prog, " "), size - #prog)
  end
  return words
end

-- M.reveal(g): the screens are lifted: programs become public (revealed), in play order
---@param g cairn.G
function M.reveal(g)
  local st = g.state
  local parts = {}
  for _, s in ipairs(st.order) do
    st.revealed[s], st.programs[s] = st.programs[s], {}
    parts[#parts + 1] = common.seat_name(g, s) .. ": " .. table.concat(st.revealed[s], " ")
  end
  g.log_text("log.reveal", table.concat(parts, "; "))
end

---@param g cairn.G
---@param seat integer
---@param id string
---@return string
function M.label(g, seat, id)
  local prog = g.state.programs[seat]
  if M.IS_ACTION[id] then
    return common.t(g, "opt.action", ctext.name(g, "action.", id))   -- the prompt names the slot
  end
  return common.t(g, "opt." .. id, table.concat(prog, " "))
end

---@param g cairn.G
---@param seat integer
---@return string
function M.prompt(g, seat)
  local prog = g.state.programs[seat]
  if #prog >= g.data.game.pieces.actions then
    return common.t(g, "prompt.program_full", common.seat_name(g, seat), table.concat(prog, " "))
  end
  return common.t(g, "prompt.program", common.seat_name(g, seat), g.state.month, #prog + 1,
    #prog > 0 and table.concat(prog, " ") or "-")
end

---@param g cairn.G
---@param seat integer
---@param id string
---@return string
function M.reason(g, seat, id)
  return common.t(g, "why.program_full", g.data.game.pieces.actions, table.concat(g.state.programs[seat], " "))
end

return M
