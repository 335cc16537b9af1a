-- rules/rewards.lua
-- Himalaya: after a delivery the player takes exactly 2 different rewards of 3: Barter (keep
-- the ring for its yaks), Offering (a stupa in this village if it has none), Delegation
-- (envoys by the village's level into the regions bordering it, one decision per envoy or
-- one line for all). With a reward impossible, the pairs holding it are offered disabled;
-- with only one reward possible, that one alone [§4.4 ASSUMPTION]. Also used by the
-- inventory variants to place envoys and stupas.

local deck = require "cairn.deck"
local common = require "rules.common"

local M = {}
local t = common.t

local PAIRS = { "ring stupa", "ring envoys", "stupa envoys" }
local HAS = {
  ["ring stupa"] = { ring = true, stupa = true }, ["ring envoys"] = { ring = true, envoys = true },
  ["stupa envoys"] = { stupa = true, envoys = true }, ring = { ring = true }, nothing = {},
}
M.HAS = HAS

---@param g cairn.G
---@param seat integer
---@param v integer a village
---@return boolean
local function can_stupa(g, seat, v)
  return not g.state.villages[v].stupa and g.state.players[seat].stupas > 0
end
-- can_envoys: some envoys left, or (game.deal.envoys_short `not_allowed`) as many as the
-- village's level sends
---@param g cairn.G
---@param seat integer
---@param v integer a village
---@return boolean
local function can_envoys(g, seat, v)
  local left = g.state.players[seat].envoys
  if g.data.game.deal.envoys_short == "not_allowed" then return left >= common.level_row(g, v).envoys end
  return left > 0
end

---@param g cairn.G
---@param seat integer
---@param v integer a village
---@param ring string a ring's id
function M.begin(g, seat, v, ring)
  g.state.pending = { kind = "reward", seat = seat, village = v, ring = ring }
end

---@param g cairn.G
---@return (string|cairn.Option)[]
function M.reward_options(g)
  local p = g.state.pending
  local ok = { ring = true, stupa = can_stupa(g, p.seat, p.village), envoys = can_envoys(g, p.seat, p.village) }
  local opts, any = {}, false
  for i, id in ipairs(PAIRS) do
    local h = HAS[id]
    local fine = true
    for k in pairs(h) do if not ok[k] then fine = false end end
    opts[i] = fine and id or { id = id, disabled = true }
    any = any or fine
  end
  -- no pair possible: the ring alone is kept, or nothing is gained (game.deal.ring_alone)
  if not any then opts[#opts + 1] = g.data.game.deal.ring_alone and "ring" or "nothing" end
  return opts
end

---@param g cairn.G
---@param seat integer
---@param id string
---@return string?
function M.reward_reason(g, seat, id)
  local p = g.state.pending
  local h = HAS[id]
  if h.stupa and g.state.villages[p.village].stupa then
    return t(g, "why.has_stupa", common.village_name(g, p.village), common.seat_name(g, g.state.villages[p.village].stupa))
  end
  if h.stupa and g.state.players[seat].stupas == 0 then return t(g, "why.no_stupas") end
  if g.state.players[seat].envoys > 0 then
    return t(g, "why.envoys_short", g.state.players[seat].envoys, common.level_row(g, p.village).envoys)
  end
  return t(g, "why.no_envoys")
end

-- M.place_stupa(g, seat, v)
---@param g cairn.G
---@param seat integer
---@param v integer a village
function M.place_stupa(g, seat, v)
  local st = g.state
  st.villages[v].stupa = seat
  st.players[seat].stupas = st.players[seat].stupas - 1
  g.log(t(g, "log.stupa", common.seat_name(g, seat), common.village_name(g, v), common.level_row(g, v).stupa))
end

-- M.start_envoys(g, seat, regions, n, after, one_region): pending envoy placement of up to
-- n envoys (fewer when the supply runs short) into the given regions, each where the seat
-- likes or (one_region) all into one of them; a single region is filled at once
---@param g cairn.G
---@param seat integer
---@param regions string[] region ids
---@param n integer
---@param after table|false? what is pending after the envoys (false: nothing)
---@param one_region boolean? all into one region
function M.start_envoys(g, seat, regions, n, after, one_region)
  local st = g.state
  n = math.min(n, st.players[seat].envoys)
  if n <= 0 then st.pending = after or false return end
  if #regions == 1 then
    M.add_envoys(g, seat, regions[1], n)
    st.pending = after or false
    return
  end
  local copy = {}
  for i, r in ipairs(regions) do copy[i] = r end
  st.pending = { kind = "envoys", seat = seat, regions = copy, left = n, after = after or false,
    one_region = one_region or false }
end

---@param g cairn.G
---@param seat integer
---@param r string a region's id
---@param n integer
function M.add_envoys(g, seat, r, n)
  local st = g.state
  st.envoys[r][seat] = st.envoys[r][seat] + n
  st.players[seat].envoys = st.players[seat].envoys - n
  g.log(t(g, "log.envoys", common.seat_name(g, seat), n, common.region_name(g, r)))
end

---@param g cairn.G
---@return (string|cairn.Option)[]
function M.envoy_options(g)
  local p = g.state.pending
  local opts = {}
  if p.one_region then
    for i, r in ipairs(p.regions) do
      opts[i] = p.left == 1 and common.envoy_id(r) or ("envoys" .. string.rep(" " .. r, p.left))
    end
    return opts
  end
  for i, r in ipairs(p.regions) do opts[i] = common.envoy_id(r) end
  if p.left > 1 then
    for _, id in ipairs(common.envoy_lines(p.regions, p.left)) do opts[#opts + 1] = id end
  end
  return opts
end

---@param g cairn.G
---@param seat integer
---@param id string
function M.apply_envoys(g, seat, id)
  local st = g.state
  local p = st.pending
  local one = id:match("^envoy (%S+)$")
  if one then
    M.add_envoys(g, seat, one, 1)
    p.left = p.left - 1
  else
    local counts, order = {}, {}
    for r in id:sub(8):gmatch("%S+") do
      if not counts[r] then counts[r] = 0 order[#order + 1] = r end
      counts[r] = counts[r] + 1
    end
    for _, r in ipairs(order) do M.add_envoys(g, seat, r, counts[r]) end
    p.left = 0
  end
  if p.left <= 0 then st.pending = p.after end
end

-- M.unkept_ring(g, ring): a ring nobody keeps is discarded (reshuffled into the ring bag
-- once it is empty), or goes straight back into the ring bag (game.deal.unkept_rings)
---@param g cairn.G
---@param ring string a ring's id
function M.unkept_ring(g, ring)
  local st = g.state
  if g.data.game.deal.unkept_rings == "bag" then
    deck.put_bottom(st.rings, ring)
    deck.shuffle(st.rings, g.rng)
  else
    deck.discard(st.rings, ring)
  end
end

-- M.apply_reward(g, seat, id): carry out the chosen pair
---@param g cairn.G
---@param seat integer
---@param id string
function M.apply_reward(g, seat, id)
  local st = g.state
  local p = st.pending
  local h = HAS[id]
  st.pending = false
  if h.ring then
    local pl = st.players[seat]
    pl.rings[#pl.rings + 1] = p.ring
    common.show_rings(g, seat)
    g.log_text({ to = seat }, "log.keep_ring_you", common.ring_def(g, p.ring).yaks)
    g.log_text({ except = seat }, "log.keep_ring", common.seat_name(g, seat))
  else
    M.unkept_ring(g, p.ring)
  end
  if h.stupa then M.place_stupa(g, seat, p.village) end
  if h.envoys then
    M.start_envoys(g, seat, common.board(g).regions[p.village], common.level_row(g, p.village).envoys,
      nil, g.data.game.deal.envoy_split == "one_region")
  end
  if id == "nothing" then
    g.log(t(g, "log.no_reward", common.seat_name(g, seat)))
  end
end

---@param g cairn.G
---@param seat integer
---@param id string
---@return string
function M.label(g, seat, id)
  local p = g.state.pending
  if p.kind == "reward" then
    if id == "nothing" then return t(g, "reward.nothing") end
    local h, parts = HAS[id], {}
    if h.ring then parts[#parts + 1] = t(g, "reward.ring", common.ring_def(g, p.ring).yaks) end
    if h.stupa then parts[#parts + 1] = t(g, "reward.stupa", common.level_row(g, p.village).stupa) end
    if h.envoys then
      parts[#parts + 1] = t(g, "reward.envoys", math.min(common.level_row(g, p.village).envoys, g.state.players[seat].envoys))
    end
    return table.concat(parts, " + ")
  end
  local one = id:match("^envoy (%S+)$")
  if one then return t(g, "opt.envoy", common.region_name(g, one)) end
  return t(g, "opt.envoys", id:sub(8))
end

return M
