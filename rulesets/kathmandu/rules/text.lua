-- rules/text.lua
-- Kathmandu: what a person reads, made only when a person looks (docs/lua-api.md, the
-- fast decision form): option labels, prompts, and why a disabled option is disabled.

local common = require "rules.common"
local tables = require "cairn.tables"
local turn = require "rules.turn"
local setup = require "rules.setup"
local ctext = require "cairn.text"   -- name: a text with no arguments, looked up once a game

local M = {}

local split = common.words
local name = ctext.name

---@param g cairn.G
---@param r string a resource
---@return string
local function res_name(g, r) return name(g, "res.", r) end

-- move_label: where the move ends and what it will cost, short (the scout's eight
-- options go in two columns at 80): "N 3 −1: 2,1 start field; needle; +1 exhaustion" (the
-- parts separated by label.sep); steps lost show in the steps and the exhaustion
---@param g cairn.G
---@param seat integer
---@param a (string|integer)[] the option id's words
---@return string
local function move_label(g, seat, a)
  local st = g.state
  local p = st.players[seat]
  local r, c, steps, lost, borders, needles, kat = turn.plan(g, seat, a[2], a[3], a[4])
  local parts = {}
  local way = a[3] and (a[3] == "short" and g.text("label.short") or g.text("label.bend", name(g, "dir_short.", a[3]), a[4])) or ""
  local head = g.text("label.move", name(g, "dir_short.", a[2]), steps, way, common.key(r, c))
  local f = common.field(g, r, c)
  local what = name(g, "kind.", f.kind)
  if f.kind == "landscape" or f.kind == "marked" then what = name(g, "land.", f.landscape) end
  head = head .. " " .. what
  local exhaustion = 0
  -- with the resource in hand and game.exhaustion.instead_of_paying `when_unable` the
  -- resource must pay (no exhaustion instead)
  local must = g.data.game.exhaustion.instead_of_paying == "when_unable"
  if needles > 0 then
    local pay = p.res.compass > 0 or turn.holds(p, "lantern")
    local key = pay and ((must and p.res.compass > 0) and "label.needle_must_pay" or "label.needle_pay") or "label.needle_exhaust"
    parts[#parts + 1] = g.text(key)
    if not pay then exhaustion = exhaustion + 1 end
  end
  if borders > 0 then
    local pay = p.res.food > 0 or turn.holds(p, "fodder-sack")
    local key = pay and ((must and p.res.food > 0) and "label.border_must_pay" or "label.border_pay") or "label.border_exhaust"
    parts[#parts + 1] = g.text(key)
    if not pay then exhaustion = exhaustion + 1 end
  end
  if lost then exhaustion = exhaustion + 1 end -- steps lost: told by the steps and the exhaustion
  if kat then parts[#parts + 1] = g.text("label.kathmandu") end
  if exhaustion > 0 then parts[#parts + 1] = g.text("label.costs_exhaustion", exhaustion) end
  if #parts == 0 then return head end
  local sep = name(g, "label.", "sep")   -- "; ", in Greek "· " (";" is its question mark)
  return head .. sep .. table.concat(parts, sep)
end

---@param g cairn.G
---@param seat integer
---@param id string
---@return string
function M.label(g, seat, id)
  local st = g.state
  local a = split(id)
  local verb = a[1]
  local p = st.players[seat]
  if verb == "die" then
    local die = p.dice[a[2]]
    local res = tables.by(g.data.game.dice, "colour", a[2]).resource
    local got = res == "any" and g.text("label.any") or res_name(g, res)
    if common.in_kathmandu(p) then got = g.text("label.any") end
    return g.text("label.die", name(g, "die.", a[2]), die.pips, got)
  elseif verb == "reroll" then
    return g.text("label.reroll", name(g, "die.", a[2]))
  elseif verb == "take" then
    if a[2] == "exhaustion" then return g.text("label.take_exhaustion") end
    return g.text("label.take", res_name(g, a[2]))
  elseif verb == "move" then
    return move_label(g, seat, a)
  elseif verb == "use" then
    if a[2] == "ability" then return g.text("label.herder") end
    return g.text("label.use", name(g, "equipment.", a[2]), g.text("ability." .. a[2] .. (a[3] and ("." .. a[3]) or "")))
  elseif verb == "pay" then
    return g.text("label.pay", res_name(g, a[2]), p.res[a[2]])
  elseif verb == "paint" then
    return g.text("label.paint", name(g, "animal.", a[2]))
  elseif verb == "buy" then
    if tables.find(g.data.goods.kinds, a[2]) then
      return g.text("label.buy_good", name(g, "good.", a[2]))
    end
    return g.text("label.buy_equipment", name(g, "equipment.", a[2]), name(g, "ability.", a[2]))
  elseif verb == "special" then
    local owner = st.specials[a[2]]
    local from = owner == 0 and g.text("label.supply") or common.seat_name(g, owner)
    return g.text("label.special", name(g, "good.", a[2]), from)
  elseif verb == "offer" then
    return g.text("label.offer", p.candles)
  elseif verb == "map" then
    if a[2] == "pile" then return g.text("label.map_pile") end
    return g.text("label.map", name(g, "map_half.", a[2]))
  elseif verb == "swap" then
    return g.text("label.swap", common.seat_name(g, a[2]))
  elseif verb == "steal" then
    return g.text("label.steal", name(g, "map_half.", a[2]))
  elseif verb == "give" then
    return g.text("label.give", name(g, "map_half.", a[2]))
  elseif verb == "chest" then
    return g.text("label.chest", name(g, "map_pair.", a[2]))
  elseif verb == "pass" then
    return g.text(st.phase == "tent" and "label.no_tent" or "label.pass")
  elseif verb == "start" then
    -- the board's rows are numbered, its start fields are not: the label names the row
    local f = setup.start_fields(g)[tonumber(a[2])]
    return g.text("label.start", a[2], f[1])
  elseif verb == "tent" then
    return g.text("label.tent", name(g, "land.", a[2]), common.seat_name(g, st.tent_ask.seat))
  end
  return id
end

---@param g cairn.G
---@param seat integer
---@return string
function M.prompt(g, seat)
  local st = g.state
  local who = common.seat_name(g, seat)
  if st.phase == "start" then return g.text("prompt.start", who) end
  if st.phase == "tent" then
    local ask = st.tent_ask
    return g.text("prompt.tent", who, common.seat_name(g, ask.seat), name(g, "land.", ask.landscape))
  end
  local t = st.turn
  if t.step == "pay" then return g.text("prompt.pay", who, name(g, "why.", t.owed[1])) end
  if t.step == "move" then return g.text("prompt.move", who, turn.pips(g, t)) end
  return g.text("prompt." .. t.step, who, st.round, #st.players[seat].halves)
end

---@param g cairn.G
---@param seat integer
---@param id string
---@return string
function M.reason(g, seat, id)
  local st = g.state
  local a = split(id)
  local verb = a[1]
  local p = st.players[seat]
  if verb == "reroll" then
    local _, why = turn.can_reroll(g, p, st.turn)
    return g.text(why or "why.rerolled")
  elseif verb == "move" then
    return g.text("why.blocked", name(g, "dir.", a[2]))
  elseif verb == "pay" then
    return g.text("why.none", res_name(g, a[2]))
  elseif verb == "paint" then
    return g.text("why.none", res_name(g, "paint"))
  elseif verb == "buy" then
    if tables.find(g.data.goods.kinds, a[2]) then
      return g.text("why.none", res_name(g, "coin"))
    end
    return g.text("why.none", res_name(g, "backpack"))
  elseif verb == "special" then
    return g.text("why.none", res_name(g, "coin"))
  elseif verb == "offer" then
    return g.text("why.no_candles")
  elseif verb == "start" then
    return g.text("why.start_taken", a[2])
  end
  return g.text("why.unavailable")
end

return M
