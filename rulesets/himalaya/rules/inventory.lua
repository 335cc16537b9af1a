-- rules/inventory.lua
-- Himalaya, phase 5: inventory after months 4, 8 and 12. For each resource type, cheapest
-- first, the player with strictly the most cubes (at least 1) behind the screen wins: the
-- 3-yak inventory token; with long-range inventory a choice of 2 envoys in any region, a
-- 1-point stupa on any empty eligible village, or the token; with complete inventory
-- (MODELLED) the token, envoys by level around the caravan, or a stupa where it stands.
-- Players keep their cubes.

local common = require "rules.common"
local rewards = require "rules.rewards"

local M = {}
local t = common.t

---@param g cairn.G
---@return boolean
function M.is_inventory_month(g)
  for _, m in ipairs(g.data.game.inventory_rounds) do if m == g.state.month then return true end end
  return false
end

-- M.majority(g, kind) -> the seats that win kind's inventory (the most cubes, at least the
-- minimum; a tie for most gives nobody or every tied seat: scoring.inventory_ties), in seat
-- order, or nil; and the most cubes held
---@param g cairn.G
---@param kind string
---@return integer[]?, integer the winning seats and the most cubes held
function M.majority(g, kind)
  local best = -1
  for _, p in ipairs(g.state.players) do if p.cubes[kind] > best then best = p.cubes[kind] end end
  if best < g.data.scoring.inventory_minimum then return nil, best end
  local most = {}
  for s, p in ipairs(g.state.players) do if p.cubes[kind] == best then most[#most + 1] = s end end
  if #most > 1 and g.data.scoring.inventory_ties == "nobody" then return nil, best end
  return most, best
end

---@param g cairn.G
---@return string?
local function variant(g)
  if g.options["long-range-inventory"] then return "long" end
  if g.options["complete-inventory"] then return "complete" end
  return nil
end

---@param g cairn.G
---@param seat integer
---@param kind string
function M.give_token(g, seat, kind)
  local st = g.state
  if st.tokens_left <= 0 then
    g.log(t(g, "log.no_tokens", common.seat_name(g, seat), common.cube_name(g, kind)))
    return
  end
  st.tokens_left = st.tokens_left - 1
  local p = st.players[seat]
  p.tokens, p.token_count = p.tokens + 1, p.token_count + 1
  g.log(t(g, "log.token", common.seat_name(g, seat), common.cube_name(g, kind), g.data.game.inventory.reward))
end

-- M.start(g): compute the winners of the month's inventory; the base rule gives tokens at once
---@param g cairn.G
function M.start(g)
  local st = g.state
  g.log(t(g, "log.inventory", st.month))
  local queue = {}
  for _, kind in ipairs(common.types(g.data)) do
    local winners, n = M.majority(g, kind)
    if not winners then
      g.log(t(g, "log.inventory_none", common.cube_name(g, kind), n))
    else
      for _, who in ipairs(winners) do
        if variant(g) then queue[#queue + 1] = { seat = who, kind = kind } else M.give_token(g, who, kind) end
      end
    end
  end
  st.inventory = #queue > 0 and { queue = queue } or false
end

-- the stupa villages of the variants
---@param g cairn.G
---@param seat integer
---@return integer[] villages
function M.stupa_villages(g, seat)
  local st, out = g.state, {}
  if st.players[seat].stupas <= 0 then return out end
  if variant(g) == "long" then
    local pts = g.data.variants.long_range.stupa_points
    for v, vil in ipairs(st.villages) do
      if not vil.stupa and common.level_row(g, v).stupa == pts then out[#out + 1] = v end
    end
  elseif g.data.variants.complete_inventory.stupa == "any_empty" then
    for v, vil in ipairs(st.villages) do if not vil.stupa then out[#out + 1] = v end end
  else
    local v = st.caravans[seat]
    if not st.villages[v].stupa then out[1] = v end
  end
  return out
end

-- M.complete_envoys(g, v) -> the envoys complete inventory sends around the caravan's
-- village v: its level's count, or a fixed number (variants.complete_inventory.envoys)
---@param g cairn.G
---@param v integer a village
---@return integer
function M.complete_envoys(g, v)
  local n = g.data.variants.complete_inventory.envoys
  if n == "level" then return common.level_row(g, v).envoys end
  return n
end

-- M.pending(g) -> the next inventory choice as a pending decision, or nil when all are done
---@param g cairn.G
---@return boolean?
function M.next_choice(g)
  local st = g.state
  local inv = st.inventory
  if not inv or #inv.queue == 0 then st.inventory = false return nil end
  local item = table.remove(inv.queue, 1)
  st.pending = { kind = "inventory", seat = item.seat, what = item.kind }
  return true
end

---@param g cairn.G
---@return (string|cairn.Option)[]
function M.choice_options(g)
  local st = g.state
  local seat = st.pending.seat
  local opts = {}
  opts[1] = st.tokens_left > 0 and "token" or { id = "token", disabled = true }
  opts[2] = st.players[seat].envoys > 0 and "envoys" or { id = "envoys", disabled = true }
  opts[3] = #M.stupa_villages(g, seat) > 0 and "stupa" or { id = "stupa", disabled = true }
  if st.tokens_left <= 0 and st.players[seat].envoys <= 0 and #M.stupa_villages(g, seat) == 0 then
    opts[4] = "nothing"
  end
  return opts
end

---@param g cairn.G
---@param seat integer
---@param id string
function M.apply_choice(g, seat, id)
  local st = g.state
  local what = st.pending.what
  st.pending = false
  if id == "token" then
    M.give_token(g, seat, what)
  elseif id == "envoys" then
    if variant(g) == "long" then
      local all = {}
      for i, r in ipairs(common.board(g).region_ids) do all[i] = r end
      rewards.start_envoys(g, seat, all, g.data.variants.long_range.envoys)
    else
      local v = st.caravans[seat]
      rewards.start_envoys(g, seat, common.board(g).regions[v], M.complete_envoys(g, v))
    end
  elseif id == "stupa" then
    local vs = M.stupa_villages(g, seat)
    if #vs == 1 then
      rewards.place_stupa(g, seat, vs[1])
    else
      st.pending = { kind = "inv_stupa", seat = seat, villages = vs }
    end
  else
    g.log(t(g, "log.inventory_nothing", common.seat_name(g, seat)))
  end
end

---@param g cairn.G
---@return (string|cairn.Option)[]
function M.stupa_options(g)
  local opts = {}
  for i, v in ipairs(g.state.pending.villages) do opts[i] = common.stupa_id(v) end
  return opts
end

---@param g cairn.G
---@param seat integer
---@param id string
function M.apply_stupa(g, seat, id)
  local v = tonumber(id:match("^stupa (%d+)$"))
  g.state.pending = false
  rewards.place_stupa(g, seat, v)
end

---@param g cairn.G
---@param seat integer
---@param id string
---@return string
function M.label(g, seat, id)
  local p = g.state.pending
  if p.kind == "inv_stupa" then
    local v = tonumber(id:match("(%d+)$"))
    return t(g, "opt.stupa_at", common.village_name(g, v), v)
  end
  if id == "envoys" then
    if variant(g) == "long" then return t(g, "opt.inv_envoys_any", g.data.variants.long_range.envoys) end
    local v = g.state.caravans[seat]
    return t(g, "opt.inv_envoys_here", M.complete_envoys(g, v), common.village_name(g, v))
  end
  return t(g, "opt.inv_" .. id, g.data.game.inventory.reward)
end

---@param g cairn.G
---@param seat integer
---@param id string
---@return string
function M.reason(g, seat, id)
  if id == "token" then return t(g, "why.no_tokens_left") end
  if id == "envoys" then return t(g, "why.no_envoys") end
  return t(g, "why.no_stupa_village")
end

return M
