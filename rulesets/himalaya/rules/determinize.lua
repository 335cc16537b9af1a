-- rules/determinize.lua
-- Himalaya, for the bots that search (docs/bots.md): a full state that shows `seat` exactly
-- its view, every hidden part drawn from `rng` among what the rules allow. Hidden from a
-- seat (ruleset.yaml's visibility): the other seats' programs while they are being laid,
-- the cubes behind their screens, their kept rings and inventory tokens, the order of the
-- cube bag, the ring bag and its discards, and the face-down village token pile. Only the
-- view, g.data, g.options, g.seats and rng are used (docs/rules/himalaya.md, Bots).

local bag = require "cairn.bag"
local common = require "rules.common"
local program = require "rules.program"
local round = require "rules.round"

local M = {}

-- others(view, seat, n) -> the seats whose screens the seat cannot see into
---@param seat integer
---@param n integer
---@return integer[]
local function others(seat, n)
  local list = {}
  for s = 1, n do if s ~= seat then list[#list + 1] = s end end
  return list
end

-- take(pool, n, what) -> the first n items of pool, removed (an error names the shortfall)
---@param pool table
---@param n integer
---@param what string
---@return any[]
local function take(pool, n, what)
  if #pool < n then error(string.format("determinize: %d %s unseen, the view needs %d", #pool, what, n), 2) end
  local out = {}
  for i = 1, n do out[i] = table.remove(pool) end
  return out
end

-- programs: outside the programming every program is empty; during it a ready seat's
-- program is full (6 pieces), another's has 0 to 6 pieces so far, each any action
---@param st table
---@param seat integer
---@param rng cairn.Rng
---@param g cairn.G
local function sample_programs(st, seat, rng, g)
  local size = g.data.game.pieces.actions
  for _, s in ipairs(others(seat, #g.seats)) do
    local prog = {}
    if st.phase == "program" then
      local n = st.ready[s] and size or rng.int(0, size)
      for i = 1, n do prog[i] = rng.pick(program.ACTIONS) end
    end
    st.programs[s] = prog
  end
end

-- cubes: every cube of the game not on a village nor behind the seat's own screen is in
-- the bag (as many as the view counts) or behind another screen (the rest, dealt one by
-- one to a seat drawn at random: the view tells only their total)
---@param st table
---@param seat integer
---@param rng cairn.Rng
---@param g cairn.G
local function sample_cubes(st, seat, rng, g)
  local unseen = round.cube_bag(g)
  for _, vil in ipairs(st.villages) do
    for _, c in ipairs(vil.cubes) do bag.remove(unseen, c) end
  end
  for k, n in pairs(st.players[seat].cubes) do bag.remove(unseen, k, n) end
  local pool = rng.shuffle(bag.list(unseen))
  st.bag = bag.new(take(pool, st.bag, "cubes"))
  local hidden = others(seat, #g.seats)
  for _, s in ipairs(hidden) do
    local cubes = {}
    for _, k in ipairs(common.types(g.data)) do cubes[k] = 0 end
    st.players[s].cubes = cubes
  end
  for _, c in ipairs(pool) do
    local cubes = st.players[rng.pick(hidden)].cubes
    cubes[c] = cubes[c] + 1
  end
end

-- rings: every ring not on a village, in the delivery under way or kept by the seat (or
-- shown by another) is kept by another seat (as many as its public ring count), in the
-- ring bag or on its discards (as many as the view counts each)
---@param st table
---@param seat integer
---@param rng cairn.Rng
---@param g cairn.G
local function sample_rings(st, seat, rng, g)
  local unseen = bag.new()
  for _, r in ipairs(g.data.rings.rings) do bag.add(unseen, r.id) end
  for _, vil in ipairs(st.villages) do if vil.ring then bag.remove(unseen, vil.ring) end end
  if st.pending and st.pending.kind == "reward" then bag.remove(unseen, st.pending.ring) end
  for _, r in ipairs(st.players[seat].rings) do bag.remove(unseen, r) end
  local hidden = others(seat, #g.seats)
  for _, s in ipairs(hidden) do
    local p = st.players[s]
    if type(p.shown_rings) == "table" then
      for _, r in ipairs(p.shown_rings) do bag.remove(unseen, r) end
    end
  end
  local pool = rng.shuffle(bag.list(unseen))
  for _, s in ipairs(hidden) do
    local p = st.players[s]
    if type(p.shown_rings) == "table" then
      local kept = {}
      for i, r in ipairs(p.shown_rings) do kept[i] = r end
      p.rings = kept
    else
      p.rings = take(pool, p.ring_count, "rings")
    end
    p.tokens = p.token_count
  end
  st.rings = { draw = take(pool, st.rings.draw, "rings"), discard = take(pool, st.rings.discard, "rings") }
end

-- village tokens (allergic to chaos): the pile holds every token not in the public row
-- nor on the discards, face down in any order
---@param st table
---@param rng cairn.Rng
---@param g cairn.G
local function sample_village_tokens(st, rng, g)
  local vt = st.village_tokens
  if not vt then return end
  local seen = {}
  for _, v in ipairs(vt.queue) do seen[v] = true end
  for _, v in ipairs(vt.discard) do seen[v] = true end
  local pile = {}
  for v = 1, g.data.variants.village_tokens.count do
    if not seen[v] then pile[#pile + 1] = v end
  end
  vt.pile = take(rng.shuffle(pile), vt.pile, "village tokens")
end

-- M.determinize(view, seat, rng, g) -> the view, its hidden parts filled in
---@param view table
---@param seat integer
---@param rng cairn.Rng
---@param g cairn.G
---@return table
function M.determinize(view, seat, rng, g)
  sample_programs(view, seat, rng, g)
  sample_cubes(view, seat, rng, g)
  sample_rings(view, seat, rng, g)
  sample_village_tokens(view, rng, g)
  return view
end

return M
