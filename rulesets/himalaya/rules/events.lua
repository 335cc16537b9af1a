-- rules/events.lua
-- Himalaya advanced rules: event tokens, played before the programming, each seat in the
-- round's resolution order, any number a round, each token once a game. Market day on a
-- village (take any cube there), yeti footprints on a path (closed this round), snowstorm
-- on a path (crossing takes two actions in a row). Tokens are public and leave at the end
-- of the round.

local common = require "rules.common"
local derived = require "cairn.derived"

local M = {}
local t = common.t

-- event_ids(data) -> each event token's ids and targets: "market 7", "yeti p05", "snowstorm p05"
---@param data table
---@return table[] {kind, list = {{id, target}, ...}} by token
local function event_ids(data)
  local out = {}
  for _, e in ipairs(data.events.tokens) do
    local list = {}
    if e.on == "village" then
      for v = 1, #data.map.villages do list[#list + 1] = { id = common.event_id(e.id, v), target = tostring(v) } end
    else
      for _, p in ipairs(data.map.paths) do list[#list + 1] = { id = common.event_id(e.id, p.id), target = p.id } end
    end
    out[#out + 1] = { kind = e.id, list = list }
  end
  return out
end

-- the ids, made once per game (derived.of)
---@param g cairn.G
---@return table[]
local function all_ids(g) return derived.of(g.data, event_ids) end

---@param g cairn.G
---@return table
function M.decision(g)
  local st = g.state
  local seat = st.order[st.ev_turn]
  local p = st.players[seat]
  local opts = { "pass" }
  for _, k in ipairs(all_ids(g)) do
    if (p.events[k.kind] or 0) > 0 then
      local on = st.placed[k.kind]
      for _, o in ipairs(k.list) do
        opts[#opts + 1] = on[o.target] and { id = o.id, disabled = true } or o.id
      end
    end
  end
  return { seat = seat, options = opts }
end

-- M.apply(g, seat, id) -> true when every seat is done (programming begins). A seat plays
-- tokens until it passes; with events.per_round `one` its first token ends its turn.
---@param g cairn.G
---@param seat integer
---@param id string
---@return boolean
function M.apply(g, seat, id)
  local st = g.state
  if id == "pass" then
    g.log(t(g, "log.event_pass", common.seat_name(g, seat)))
    st.ev_turn = st.ev_turn + 1
    return st.ev_turn > #g.seats
  end
  local kind, target = id:match("^(%S+) (%S+)$")
  st.placed[kind][target] = seat
  local p = st.players[seat]
  p.events[kind] = p.events[kind] - 1
  g.log(t(g, "log.event_" .. kind, common.seat_name(g, seat), M.target_name(g, kind, target)))
  if g.data.events.per_round == "one" then
    st.ev_turn = st.ev_turn + 1
    return st.ev_turn > #g.seats
  end
  return false
end

---@param g cairn.G
---@param kind string
---@param target string a village number or a path id
---@return string
function M.target_name(g, kind, target)
  if kind == "market" then return common.village_name(g, tonumber(target)) end
  local p = common.board(g).by_id[target]
  return t(g, "path_name", common.path_word(g, p.type), common.village_name(g, p.ends[1]),
    common.village_name(g, p.ends[2]))
end

---@param g cairn.G
---@param seat integer
---@param id string
---@return string
function M.label(g, seat, id)
  if id == "pass" then return t(g, "opt.pass") end
  local kind, target = id:match("^(%S+) (%S+)$")
  return t(g, "event." .. kind) .. ": " .. M.target_name(g, kind, target)
end

---@param g cairn.G
---@param seat integer
---@param id string
---@return string
function M.reason(g, seat, id)
  local kind = id:match("^(%S+)")
  return t(g, "why.event_there", t(g, "event." .. kind))
end

return M
