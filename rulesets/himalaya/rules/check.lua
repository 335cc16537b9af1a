-- rules/check.lua
-- Himalaya invariants, checked after every decision by `cairn check` and `cairn test`:
-- cubes and rings conserved, pieces conserved, programs of at most 6 (exactly 6 once
-- revealed), at most one stupa per village (a village holds one stupa field), a village
-- never holds both cubes and an order, caravans on the board.

local bag = require "cairn.bag"
local common = require "rules.common"

local M = {}

---@param g cairn.G
---@return string?
function M.check(g)
  local st, data = g.state, g.data
  local n = #g.seats
  -- cubes
  local total = bag.count(require("rules.round").cube_bag(g))
  local have = bag.count(st.bag)
  for v, vil in ipairs(st.villages) do
    have = have + #vil.cubes
    if #vil.cubes > 0 and vil.ring then return "village " .. v .. " holds cubes and an order" end
  end
  for _, p in ipairs(st.players) do have = have + common.cube_count(p) end
  if have ~= total then return string.format("cubes not conserved: %d in play, expected %d", have, total) end
  -- rings
  local rings = #st.rings.draw + #st.rings.discard
  for _, vil in ipairs(st.villages) do if vil.ring then rings = rings + 1 end end
  for _, p in ipairs(st.players) do rings = rings + #p.rings end
  if st.pending and st.pending.kind == "reward" then rings = rings + 1 end
  if rings ~= #data.rings.rings then return string.format("rings not conserved: %d, expected %d", rings, #data.rings.rings) end
  -- pieces
  local pieces = data.game.pieces
  local stupas, envoys = {}, {}
  for s = 1, n do stupas[s], envoys[s] = 0, 0 end
  for _, vil in ipairs(st.villages) do
    if vil.stupa then stupas[vil.stupa] = stupas[vil.stupa] + 1 end
  end
  for _, r in ipairs(common.board(g).region_ids) do
    for s = 1, n do envoys[s] = envoys[s] + st.envoys[r][s] end
  end
  for s, p in ipairs(st.players) do
    if not p.removed then
      if stupas[s] + p.stupas ~= pieces.stupas then return "seat " .. s .. ": stupas not conserved" end
      if envoys[s] + p.envoys ~= pieces.envoys then return "seat " .. s .. ": envoys not conserved" end
    end
    if p.stupas < 0 or p.envoys < 0 then return "seat " .. s .. ": negative supply" end
    for k, c in pairs(p.cubes) do if c < 0 then return "seat " .. s .. ": negative " .. k end end
    if p.ring_count ~= #p.rings then return "seat " .. s .. ": ring count out of date" end
    if #st.programs[s] > pieces.actions then return "seat " .. s .. ": a program of more than 6" end
    if st.revealed[s] and #st.revealed[s] ~= pieces.actions then return "seat " .. s .. ": a revealed program not of 6" end
    if st.phase ~= "place" and (st.caravans[s] < 1 or st.caravans[s] > #st.villages) then
      return "seat " .. s .. ": caravan off the board"
    end
  end
  if st.tokens_left < 0 then return "inventory tokens below 0" end
  return nil
end

return M
