-- rules/score.lua
-- Kathmandu, the final scoring, one line per bullet of the rulebook: offerings, goods and
-- their sets, special goods, map halves and pairs, animals, the yak stack, the Kathmandu
-- tile, the distance to Kathmandu, unused equipment, leftover resources, exhaustion.

local tables = require "cairn.tables"
local common = require "rules.common"

local M = {}

-- M.offerings(data, placed) -> the value of the last emptied offering space
---@param data table
---@param placed integer the offerings placed
---@return integer
function M.offerings(data, placed)
  return tables.clamp_index(data.scoring.offering_track, placed + 1)
end

-- M.goods_sets(data, goods) -> the best bonus for disjoint sets of different goods
-- (5 different: 7, 6 different: 12). Every split is searched: a seat holds few goods.
---@param data table
---@param goods table[] the goods cards held ({kind = ...})
---@return integer
function M.goods_sets(data, goods)
  local counts = {}
  for _, good in ipairs(goods) do counts[good.kind] = (counts[good.kind] or 0) + 1 end
  local list = {}
  for _, kind in ipairs(data.goods.kinds) do list[#list + 1] = counts[kind] or 0 end
  local sets = data.scoring.goods_sets
  local best = 0
  local function search(from, total)
    if total > best then best = total end
    for i = from, #sets do
      local k = sets[i].kinds
      -- take one of each of the k kinds held most often (the best choice for later sets)
      local order = {}
      for j = 1, #list do order[j] = j end
      table.sort(order, function(x, y) return list[x] > list[y] or (list[x] == list[y] and x < y) end)
      if list[order[k]] and list[order[k]] > 0 then
        for j = 1, k do list[order[j]] = list[order[j]] - 1 end
        search(i, total + sets[i].points)
        for j = 1, k do list[order[j]] = list[order[j]] + 1 end
      end
    end
  end
  search(1, 0)
  return best
end

-- M.map_points(data, p) -> points, pairs: each A/B pair of a colour 4, each loose half 1,
-- each pair in a chest 8
---@param data table
---@param p table
---@return integer, integer, integer the points, the pairs and the loose halves
function M.map_points(data, p)
  local a, b = {}, {}
  for _, h in ipairs(p.halves) do
    local colour, side = h:match("^(.-)%-(%a)$")
    if side == "a" then a[colour] = (a[colour] or 0) + 1 else b[colour] = (b[colour] or 0) + 1 end
  end
  local pairs_n, loose = 0, 0
  for _, colour in ipairs(data.cards.map_halves.colours) do
    local x, y = a[colour] or 0, b[colour] or 0
    local n = math.min(x, y)
    pairs_n = pairs_n + n
    loose = loose + x + y - 2 * n
  end
  local s = data.scoring
  -- a half in a pair scores its own point too only with scoring.pair_halves_score
  local per_pair = s.map_pair + (s.pair_halves_score and 2 * s.map_half or 0)
  return pairs_n * per_pair + loose * s.map_half + #p.chests * s.map_chest_pair, pairs_n, loose
end

-- M.animal_value(data, players, p) -> the points per animal card for seat p. Seed: "Schaut,
-- wer die meisten und wer die wenigsten Tierkarten gesammelt hat. Diese Differenz ist die
-- Punkteanzahl, die jeder pro gesammelter Tierkarte erhält." scoring.animals `literal`:
-- most - fewest held by any seat, the same for every seat; `own`: the seat's own count -
-- fewest (kathmandu.md §9.5, reading B).
---@param data table
---@param players table
---@param p table
---@return integer
function M.animal_value(data, players, p)
  local most, fewest = 0, math.maxinteger
  for _, q in ipairs(players) do
    most = math.max(most, #q.animals)
    fewest = math.min(fewest, #q.animals)
  end
  if data.scoring.animals == "own" then return #p.animals - fewest end
  return most - fewest
end

-- M.distance(g, p) -> the (negative) points for the border strips between the yak and
-- the goal board, capped
---@param g cairn.G
---@param p table
---@return integer, integer the points and the strips
function M.distance(g, p)
  if p.arrived > 0 or not p.pos then return 0, 0 end
  local st = g.state
  local strips = #st.route - common.board_of(g, p.pos[2])
  local d = g.data.scoring.distance
  return -math.min(d.cap, strips * d.per_border), strips
end

---@param data table
---@param p table
---@return integer, integer the points and the stones left
function M.yak_stack(data, p)
  local left = #p.stack + (p.yak and 1 or 0)
  return tables.exact(data.scoring.yak_track, left, { key = "left" }), left
end

---@param key string
---@param label string
---@param points integer
---@return table
local function line(key, label, points) return { key = key, label = label, points = points } end

-- M.seat_score(g, seat) -> total, breakdown
---@param g cairn.G
---@param seat integer
---@return integer, cairn.ScoreLine[], integer the total, the breakdown and the resources held (the tiebreak)
function M.seat_score(g, seat)
  local st, data = g.state, g.data
  local s = data.scoring
  local p = st.players[seat]
  local t = g.text
  local b = {}
  local placed = data.game.candles - p.candles
  b[#b + 1] = line("offerings", t("score.offerings", placed), M.offerings(data, placed))
  local printed = 0
  for _, good in ipairs(p.goods) do printed = printed + good.points end
  b[#b + 1] = line("goods", t("score.goods", #p.goods), printed)
  b[#b + 1] = line("goods sets", t("score.goods_sets"), M.goods_sets(data, p.goods))
  b[#b + 1] = line("special goods", t("score.specials", #p.specials), #p.specials * s.special_good_points)
  local mp, pairs_n, loose = M.map_points(data, p)
  b[#b + 1] = line("map halves", t("score.maps", loose, pairs_n, #p.chests), mp)
  local v = M.animal_value(data, st.players, p)
  b[#b + 1] = line("animals", t("score.animals", #p.animals, v), #p.animals * v)
  local yp, left = M.yak_stack(data, p)
  b[#b + 1] = line("yak stack", t("score.yak_stack", left), yp)
  b[#b + 1] = line("kathmandu", t("score.kathmandu"), p.tile)
  local dp, strips = M.distance(g, p)
  b[#b + 1] = line("distance", t("score.distance", strips), dp)
  b[#b + 1] = line("equipment", t("score.equipment", #p.equipment), #p.equipment * s.unused_equipment)
  local res = common.resource_total(p)
  b[#b + 1] = line("resources", t("score.resources", res), res * s.leftover_resource)
  b[#b + 1] = line("exhaustion", t("score.exhaustion", p.exhaustion), p.exhaustion * s.exhaustion)
  local total = 0
  for _, l in ipairs(b) do total = total + l.points end
  return total, b, res
end

---@param g cairn.G
---@return cairn.Scores
function M.score(g)
  local out = {}
  for s = 1, #g.state.players do
    local total, breakdown, res = M.seat_score(g, s)
    -- ties: most leftover resources, then a shared place; or a shared place at once
    local tiebreak = g.data.scoring.tiebreak == "resources" and res or 0
    out[s] = { total = total, breakdown = breakdown, tiebreak = tiebreak }
  end
  return out
end

return M
