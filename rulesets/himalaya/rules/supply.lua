-- rules/supply.lua
-- Himalaya: resources and orders. The d20 (or, allergic to chaos, the village-token row)
-- names a village; the next free village in ascending order gets 5 cubes drawn blind from
-- the bag, or 1 order ring, until the seat count's supply is on the board.

local bag = require "cairn.bag"
local deck = require "cairn.deck"
local tables = require "cairn.tables"
local common = require "rules.common"

local M = {}

---@param g cairn.G
---@return table the supply row for this seat count
function M.supply_row(g)
  return assert(tables.by(g.data.game.supply, "seats", #g.seats), "no supply row for " .. #g.seats .. " seats")
end

---@param v integer a village
---@return boolean
local function is_free(v) return #v.cubes == 0 and not v.ring end

-- M.next_free(g, from) -> the first free village from `from` upwards (wrapping past the
-- last when game.refill.wrap), or nil when every village holds something
---@param g cairn.G
---@param from integer a village
---@return integer?
function M.next_free(g, from)
  local vs, n = g.state.villages, #g.state.villages
  for k = 0, n - 1 do
    local v = from + k
    if v > n then
      if not g.data.game.refill.wrap then return nil end
      v = v - n
    end
    if is_free(vs[v]) then return v end
  end
  return nil
end

-- village tokens (allergic to chaos): pile face down, queue face up (queue[1] is the
-- furthest from the pile, used first). Seed: "After the last of the twenty village tokens
-- have been drawn, reshuffle the discarded villages and place them back in the draw pile":
-- the discards go back the moment the pile's last token is drawn, not at a later draw.
---@param g cairn.G
local function reshuffle_discards(g)
  local vt = g.state.village_tokens
  vt.pile, vt.discard = vt.discard, {}
  g.rng.shuffle(vt.pile)
  g.log(common.t(g, "log.tokens_reshuffled", #vt.pile))
end

-- draw_token(g, discard) -> the top token of the pile; with discard it goes straight to the
-- discards (the initial supply), else to the caller (the row). When that was the pile's
-- last token, the discards are reshuffled into a new pile at once.
---@param g cairn.G
---@param discard boolean
---@return integer? a village
local function draw_token(g, discard)
  local vt = g.state.village_tokens
  if #vt.pile == 0 then return nil end   -- every token is in the row
  local token = table.remove(vt.pile, 1)
  if discard then vt.discard[#vt.discard + 1] = token end
  if #vt.pile == 0 then reshuffle_discards(g) end
  return token
end

---@param g cairn.G
function M.fill_queue(g)
  local vt = g.state.village_tokens
  local size = g.data.variants.village_tokens.queue
  while #vt.queue < size do
    local t = draw_token(g, false)
    if not t then break end
    vt.queue[#vt.queue + 1] = t
  end
end

-- M.roll_village(g) -> the village the d20 (or the next village token) names
---@param g cairn.G
---@return integer? a village
function M.roll_village(g)
  local vt = g.state.village_tokens
  if not vt then return g.rng.die(g.data.game.die) end
  if not vt.started then return draw_token(g, true) end
  local v = table.remove(vt.queue, 1)       -- used, discarded, then the row is topped up
  vt.discard[#vt.discard + 1] = v
  M.fill_queue(g)
  return v
end

-- pick_village(g) -> the village named (by the d20 or a token) and the village that gets the
-- cubes or the ring: the next free one from there; with village tokens and
-- variants.village_tokens.taken_village `redraw`, tokens naming a supplied village are
-- discarded and the next one is used instead (at most one pass through the tokens)
---@param g cairn.G
---@return integer?, integer? the village rolled and the free one from there
local function pick_village(g)
  local st = g.state
  local rolled = M.roll_village(g)
  if st.village_tokens and g.data.variants.village_tokens.taken_village == "redraw" then
    for _ = 2, g.data.variants.village_tokens.count do
      if not rolled or is_free(st.villages[rolled]) then break end
      g.log(common.t(g, "log.token_redrawn", rolled, common.village_name(g, rolled)))
      rolled = M.roll_village(g)
    end
  end
  if not rolled then return nil, nil end
  return rolled, M.next_free(g, rolled)
end

-- M.place_cubes(g, quiet) -> the village given cubes, or nil (no free village, or an empty
-- bag); quiet: no event (the setup tells its whole supply in one)
---@param g cairn.G
---@param quiet boolean?
---@return integer?
function M.place_cubes(g, quiet)
  local st, row = g.state, M.supply_row(g)
  if bag.count(st.bag) == 0 then return nil end
  local rolled, v = pick_village(g)
  if not v then return nil end
  local cubes = bag.draw_many(st.bag, g.rng, row.cubes)
  st.villages[v].cubes = common.sort_cubes(g.data, cubes)
  if not quiet then
    g.log(common.t(g, "log.cubes_placed", common.t(g, g.state.village_tokens and "drawn.token" or "drawn.die"),
      rolled, v, common.village_name(g, v), common.cubes_text(g, cubes)))
  end
  return v
end

-- M.place_order(g, quiet) -> the village given a ring, or nil
---@param g cairn.G
---@param quiet boolean?
---@return integer?
function M.place_order(g, quiet)
  local st = g.state
  if deck.size(st.rings) == 0 and deck.discards(st.rings) == 0 then return nil end
  local rolled, v = pick_village(g)
  if not v then return nil end
  local ring = deck.draw(st.rings, g.rng)
  st.villages[v].ring = ring
  if not quiet then
    g.log(common.t(g, "log.order_placed", common.t(g, g.state.village_tokens and "drawn.token" or "drawn.die"),
      rolled, v, common.village_name(g, v), common.wants_text(g, ring)))
  end
  return v
end

---@param g cairn.G
---@param what string
---@return integer
local function count(g, what)
  local n = 0
  for _, v in ipairs(g.state.villages) do
    if (what == "cubes" and #v.cubes > 0) or (what == "ring" and v.ring) then n = n + 1 end
  end
  return n
end

-- M.refill(g): phase 4, cubes first, then orders, up to the supply row
---@param g cairn.G
function M.refill(g)
  local row = M.supply_row(g)
  while count(g, "cubes") < row.villages do
    if not M.place_cubes(g) then break end
  end
  while count(g, "ring") < row.orders do
    if not M.place_order(g) then break end
  end
end

return M
