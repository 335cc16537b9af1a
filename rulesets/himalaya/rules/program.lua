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
    g.log_text({ to = seat }, "log.you_program", #prog, g.text("action." .. id), common.program_text(g, prog))
  elseif id == "back" then
    prog[#prog] = nil
    g.log_text({ to = seat }, "log.you_back", common.program_text(g, prog))
  else -- ready
    st.ready[seat] = true
    g.log_text({ to = seat }, "log.you_ready", common.program_text(g, prog))
    g.log_text({ except = seat }, "log.has_programmed", common.seat_name(g, seat))
    for s = 1, #g.seats do if not st.ready[s] then return false end end
    return true
  end
  return false
end

-- the words a typed program may use, by the action each stands for: the ids (dirt, ice,
-- stone, deal, rest, in every language), and the game language's words for them, its short
-- word (`word.dirt`) and its name when that is one word (`action.dirt`), in any case, or a
-- prefix of two letters or more of one of them that names one action only (German:
-- `programm erde eis handeln rast stein handeln`, `er ei ha ra st ha`). "program" is the
-- line's first word, or the language's (`word.program`).
---@param g cairn.G
---@return table<string, string> action by typed word (lower case)
local function typed_words(g)
  local got, ambiguous = {}, {}
  local function add(w, id)
    if got[w] and got[w] ~= id then ambiguous[w] = true else got[w] = id end
  end
  for _, id in ipairs(FILLING) do
    for _, key in ipairs({ "word.", "action." }) do
      local w = ctext.name(g, key, id):lower()
      if w ~= id and not w:find("%s") then
        for k = 2, #w do add(w:sub(1, k), id) end
      end
    end
  end
  for w in pairs(ambiguous) do got[w] = nil end
  for _, id in ipairs(FILLING) do got[id] = id end
  return got
end

-- M.parse(g, seat, text) -> the answers a whole program typed on one line stands for
-- (the console asks when no option matches): `program dirt ice deal rest stone deal`, or
-- the actions alone, laid on an empty program one action each (typed_words: the ids or the
-- game language's words). A line that names actions but cannot be laid gets the reason (a
-- string); anything else is not a program (nil).
---@param g cairn.G
---@param seat integer
---@param text string
---@return (string[]|string)? the option ids in order, or why the line is not a program
function M.parse(g, seat, text)
  local st = g.state
  if st.phase ~= "program" or st.ready[seat] then return nil end
  local words = {}
  for w in text:gmatch("%S+") do words[#words + 1] = w end
  local first = words[1] and words[1]:lower()
  local named = first == "program" or (first ~= nil and first == ctext.name(g, "word.", "program"):lower())
  if named then table.remove(words, 1) end
  local size = g.data.game.pieces.actions
  local typed = typed_words(g)
  for i, w in ipairs(words) do
    local id = M.IS_ACTION[w] and w or typed[w:lower()]
    if not id then return named and common.t(g, "why.not_action", w) or nil end
    words[i] = id
  end
  if #words == 0 then return named and common.t(g, "why.program_words", size) or nil end
  if #words > size then return common.t(g, "why.program_long", size, #words) end
  local prog = st.programs[seat]
  if #prog + #words > size then
    return common.t(g, "why.program_room", #prog, common.program_text(g, prog), size - #prog)
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
    parts[#parts + 1] = common.seat_name(g, s) .. ": " .. common.program_text(g, st.revealed[s])
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
  return common.t(g, "opt." .. id, common.program_text(g, prog))
end

---@param g cairn.G
---@param seat integer
---@return string
function M.prompt(g, seat)
  local prog = g.state.programs[seat]
  if #prog >= g.data.game.pieces.actions then
    return common.t(g, "prompt.program_full", common.seat_name(g, seat), common.program_text(g, prog))
  end
  return common.t(g, "prompt.program", common.seat_name(g, seat), g.state.month, #prog + 1,
    #prog > 0 and common.program_text(g, prog) or "-")
end

---@param g cairn.G
---@param seat integer
---@param id string
---@return string
function M.reason(g, seat, id)
  return common.t(g, "why.program_full", g.data.game.pieces.actions, common.program_text(g, g.state.programs[seat]))
end

return M
