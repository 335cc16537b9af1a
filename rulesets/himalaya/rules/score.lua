-- rules/score.lua
-- Himalaya, the end: the three influences, religious (stupa points), political (regions
-- won by a strict majority of envoys) and economic (yaks on kept rings + inventory tokens).
-- 3 seats: strictly most in 2 of 3 wins, else the fallback ending. 4-6 seats: the endings
-- table eliminates the lowest religious (their stupas and envoys leave the board), then the
-- lowest political on the recount (two at 6 seats); the most yaks among the rest wins.
-- The result is settled once in apply (a lot may be drawn) and kept in state.result.

local tables = require "cairn.tables"
local common = require "rules.common"

local M = {}
local t = common.t

---@param g cairn.G
---@param seat integer
---@return integer
function M.religious(g, seat)
  local pts = 0
  for v, vil in ipairs(g.state.villages) do
    if vil.stupa == seat then pts = pts + common.level_row(g, v).stupa end
  end
  return pts
end

-- M.political(g, alive) -> seat -> regions won (most envoys, at least 1) among alive seats;
-- a region tied for most scores for nobody or for every tied seat (scoring.region_ties)
---@param g cairn.G
---@param alive table<integer, boolean> the seats still in
---@return integer[] regions won by seat
function M.political(g, alive)
  local won = {}
  for s = 1, #g.seats do won[s] = 0 end
  local ties = g.data.scoring.region_ties
  for _, r in ipairs(common.board(g).region_ids) do
    local per = g.state.envoys[r]
    local best = 0
    for s = 1, #g.seats do if alive[s] and per[s] > best then best = per[s] end end
    local most = {}
    for s = 1, #g.seats do if alive[s] and best > 0 and per[s] == best then most[#most + 1] = s end end
    if #most == 1 or (#most > 1 and ties == "all") then
      for _, s in ipairs(most) do won[s] = won[s] + 1 end
    end
  end
  return won
end

---@param g cairn.G
---@param seat integer
---@return integer
function M.envoys_on_board(g, seat)
  local n = 0
  for _, r in ipairs(common.board(g).region_ids) do n = n + g.state.envoys[r][seat] end
  return n
end

---@param n integer
---@return table<integer, boolean>
local function all_alive(n)
  local a = {}
  for s = 1, n do a[s] = true end
  return a
end

-- the values that decide, for the seats in `alive`
---@param g cairn.G
---@param alive table<integer, boolean> the seats still in
---@return table the values by influence: religious, political, yaks, envoys (each by seat)
local function measure(g, alive)
  local m = { religious = {}, political = M.political(g, alive), yaks = {}, envoys = {} }
  for s = 1, #g.seats do
    m.religious[s], m.yaks[s], m.envoys[s] = M.religious(g, s), common.yaks(g, s), M.envoys_on_board(g, s)
  end
  return m
end

-- elimination order: lowest value first; ties by scoring.elimination_ties of that influence
-- (religious: fewer yaks goes, then fewer envoys, then lot; political: fewer envoys on the
-- board first). Returns the sorted seats and the name of the tie-break that separated the
-- last seat out from the first seat kept (nil if the values differ).
---@param g cairn.G
---@param seats integer[]
---@param m table
---@param influence string religious or political
---@param lot table<integer, integer> the lot by seat
---@return integer[], fun(a: integer, b: integer): string?, integer?, integer? the seats sorted, and what separated two of them
local function elimination_order(g, seats, m, influence, lot)
  local ties = g.data.scoring.elimination_ties[influence]
  local function key(s, crit)
    if crit == "fewer_yaks" then return m.yaks[s] end
    if crit == "fewer_envoys" then return m.envoys[s] end
    return lot[s]
  end
  local sorted = {}
  for i, s in ipairs(seats) do sorted[i] = s end
  table.sort(sorted, function(a, b)
    if m[influence][a] ~= m[influence][b] then return m[influence][a] < m[influence][b] end
    for _, c in ipairs(ties) do
      if key(a, c) ~= key(b, c) then return key(a, c) < key(b, c) end
    end
    return a < b
  end)
  local function separated(a, b)
    if m[influence][a] ~= m[influence][b] then return nil end
    for _, c in ipairs(ties) do if key(a, c) ~= key(b, c) then return c, key(a, c), key(b, c) end end
    return "seat"
  end
  return sorted, separated
end

-- winner order among survivors: most yaks; ties by scoring.winner_ties; tiers share a place
---@param g cairn.G
---@param seats integer[]
---@param m table
---@return integer[][] tiers of seats, best first
local function survivor_tiers(g, seats, m)
  local order = {}
  for i, s in ipairs(seats) do order[i] = s end
  local crit = g.data.scoring.winner_ties
  local function cmp_key(s)
    local k = { m.yaks[s] }
    for _, c in ipairs(crit) do
      if c == "religious" then k[#k + 1] = m.religious[s] elseif c == "political" then k[#k + 1] = m.political[s] end
    end
    return k
  end
  local function better(a, b)
    local ka, kb = cmp_key(a), cmp_key(b)
    for i = 1, #ka do if ka[i] ~= kb[i] then return ka[i] > kb[i] end end
    return false
  end
  table.sort(order, function(a, b)
    if better(a, b) then return true end
    if better(b, a) then return false end
    return a < b
  end)
  local tiers = {}
  for _, s in ipairs(order) do
    local last = tiers[#tiers]
    if last and not better(last[1], s) and not better(s, last[1]) then last[#last + 1] = s
    else tiers[#tiers + 1] = { s } end
  end
  return tiers
end

---@param g cairn.G
---@param seat integer
local function remove_pieces(g, seat)
  local st = g.state
  for _, vil in ipairs(st.villages) do if vil.stupa == seat then vil.stupa = false end end
  for _, r in ipairs(common.board(g).region_ids) do st.envoys[r][seat] = 0 end
  st.players[seat].removed = true
end

---@param g cairn.G
---@param m table
---@param n integer
---@return table<string, integer|false> the single leader of each influence, or false
local function leaders(g, m, n)
  local out = {}
  for _, inf in ipairs({ "religious", "political", "yaks" }) do
    local best, who, tied = -1, nil, false
    for s = 1, n do
      local v = m[inf][s]
      if v > best then best, who, tied = v, s, false elseif v == best then tied = true end
    end
    out[inf] = (not tied) and who or false
  end
  return out
end

-- M.finish(g): settle the game once, in apply; st.result keeps every step for the breakdown
---@param g cairn.G
function M.finish(g)
  local st, n = g.state, #g.seats
  local lot = {}
  local perm = {}
  for s = 1, n do perm[s] = s end
  g.rng.shuffle(perm)
  for i, s in ipairs(perm) do lot[s] = i end
  local alive = all_alive(n)
  local m = measure(g, alive)
  local res = { religious = m.religious, political = m.political, yaks = m.yaks, steps = {}, lines = {} }
  for s = 1, n do res.lines[s] = {} end
  local function note(s, text) res.lines[s][#res.lines[s] + 1] = text end
  local maj = g.data.scoring.majority_win
  if tables.find(maj.seats, n) then
    local lead = leaders(g, m, n)
    local count = {}
    for _, inf in ipairs({ "religious", "political", "yaks" }) do
      local w = lead[inf]
      if w then count[w] = (count[w] or 0) + 1 end
    end
    local winner
    for s = 1, n do if (count[s] or 0) >= maj.of then winner = s end end
    local function lname(inf) return lead[inf] and common.seat_name(g, lead[inf]) or t(g, "nobody") end
    g.log(t(g, "log.leaders", lname("religious"), lname("political"), lname("yaks")))
    if winner then
      g.log(t(g, "log.two_of_three", common.seat_name(g, winner), count[winner]))
      note(winner, t(g, "line.two_of_three", count[winner]))
      local rest = {}
      for s = 1, n do if s ~= winner then rest[#rest + 1] = s note(s, t(g, "line.not_two")) end end
      local tiers = { { winner } }
      for _, tier in ipairs(survivor_tiers(g, rest, m)) do tiers[#tiers + 1] = tier end
      res.ranking, res.mode = tiers, "majority"
      st.result = res
      return
    end
    g.log(t(g, "log.no_two_of_three"))
  end
  local row = assert(tables.by(g.data.scoring.endings, "seats", n), "no ending for " .. n .. " seats")
  local out_tiers = {}
  local seats = {}
  for s = 1, n do seats[s] = s end
  for k, step in ipairs(row.steps) do
    m = measure(g, alive)
    local sorted, separated = elimination_order(g, seats, m, step.influence, lot)
    local outs, values = {}, {}
    for _, s in ipairs(sorted) do values[#values + 1] = common.seat_name(g, s) .. " " .. m[step.influence][s] end
    for i = 1, math.min(step.out, #sorted - 1) do outs[i] = sorted[i] end
    local tie, tie_line = "", nil
    local last, keep = outs[#outs], sorted[#outs + 1]
    local crit, a, b = separated(last, keep)
    if crit then
      tie = t(g, "tie." .. crit, common.seat_name(g, last), a or 0, common.seat_name(g, keep), b or 0)
      tie_line = t(g, "line.tie_" .. crit, common.seat_name(g, last), a or 0, common.seat_name(g, keep), b or 0)
    end
    local names = {}
    for i, s in ipairs(outs) do names[i] = common.seat_name(g, s) end
    g.log(t(g, "log.eliminate", k, t(g, "influence." .. step.influence), table.concat(values, ", "),
      table.concat(names, ", "), tie))
    res.steps[k] = { influence = step.influence, out = outs, values = table.concat(values, ", "), tie = tie }
    local tier_list = {}
    for i = #outs, 1, -1 do tier_list[#tier_list + 1] = { outs[i] } end
    out_tiers[k] = tier_list
    for _, s in ipairs(outs) do
      note(s, t(g, "line.out", k, t(g, "influence." .. step.influence), m[step.influence][s]))
      -- the tie that put this seat out, as a row of its own under it (the log says it in a sentence)
      if s == last and tie_line then note(s, tie_line) end
      alive[s] = false
      if g.data.scoring.remove_pieces_of_eliminated then remove_pieces(g, s) end
    end
    local left = {}
    for _, s in ipairs(seats) do if alive[s] then left[#left + 1] = s end end
    seats = left
  end
  m = measure(g, alive)
  res.political_final = m.political
  local tiers = survivor_tiers(g, seats, m)
  local yl = {}
  for _, s in ipairs(seats) do yl[#yl + 1] = common.seat_name(g, s) .. " " .. m.yaks[s] end
  g.log(t(g, "log.final_yaks", table.concat(yl, ", ")))
  for i, tier in ipairs(tiers) do
    for _, s in ipairs(tier) do note(s, t(g, i == 1 and "line.most_yaks" or "line.fewer_yaks", m.yaks[s])) end
  end
  for k = #out_tiers, 1, -1 do for _, tier in ipairs(out_tiers[k]) do tiers[#tiers + 1] = tier end end
  res.ranking, res.mode = tiers, "elimination"
  st.result = res
end

-- M.score(g): the influences and, at the end, the steps that decided
---@param g cairn.G
---@return cairn.Scores
function M.score(g)
  local st, n = g.state, #g.seats
  local res = st.result
  local m = res and res or measure(g, all_alive(n))
  local scores = {}
  for s = 1, n do
    local p = st.players[s]
    local ring_yaks = 0
    for _, id in ipairs(p.rings) do ring_yaks = ring_yaks + common.ring_def(g, id).yaks end
    local token_yaks = p.tokens * g.data.game.inventory.reward
    local b = {
      { key = "religious", label = t(g, "line.religious"), points = m.religious[s] },
      -- after an elimination the recount (pieces of the eliminated removed) is what decided
      { key = "political", label = t(g, "line.political"), points = (m.political_final or m.political)[s] },
      { key = "rings", label = t(g, "line.rings", #p.rings), points = ring_yaks },
      { key = "tokens", label = t(g, "line.tokens", p.tokens), points = token_yaks },
    }
    if res then
      for _, line in ipairs(res.lines[s]) do b[#b + 1] = { key = "result", label = line, points = 0 } end
    end
    scores[s] = { total = ring_yaks + token_yaks, breakdown = b }
  end
  if res then
    -- a fresh table: the engine reads the ranking raw, and g.state is a read-only view here
    local ranking = {}
    for i, tier in ipairs(res.ranking) do
      ranking[i] = {}
      for j, s in ipairs(tier) do ranking[i][j] = s end
    end
    scores.ranking = ranking
  end
  return scores
end

-- M.heuristic(g, seat): what the bots add to the provisional score (the yaks) to judge a
-- position: the three influences as if the game ended now, weighted by what they decide
-- (docs/rules/himalaya.md, Bots): yaks (economic, the final count) x4 in all (the score's
-- one and 3 more here), stupa points (religious, the first elimination) x3, regions won
-- (political, the second) x3, and each cube behind the screen 1 (it is on its way to an
-- order's yaks)
---@param g cairn.G
---@param seat integer
---@return integer
function M.heuristic(g, seat)
  local regions = M.political(g, all_alive(#g.seats))[seat]
  return common.yaks(g, seat) * 3 + M.religious(g, seat) * 3 + regions * 3
    + common.cube_count(g.state.players[seat])
end

return M
