-- rules/score.lua
-- Yak, the score pad: (1) points per group of 2+ touching stones of one colour, (2) a
-- bonus for the number of such groups, (3) 1 per single stone, (4) the stupa for
-- triggering the end, (5) the most food left. Each crystal takes the colour that scores
-- best, every crystal in a tower a different colour: all assignments are searched.

local grid = require "cairn.grid"
local tables = require "cairn.tables"
local common = require "rules.common"
local derived = require "cairn.derived"
local tower = require "rules.tower"

local M = {}

-- layout(data) -> the tower's cells and who touches whom, as flat lists: cells[i] = {r, c}
-- in grid.cells order, near[i] = the indices of the cells touching cell i, in
-- grid.neighbours order. Kept for the game by derived.of: scoring searches many colourings
-- of a tower and the heuristic runs in every playout a bot plays.
---@param data table
---@return table cells (the tower's cells {r, c} in layout order) and near (each cell's neighbours by index)
local function layout(data)
  local shape = tower.shape(data)
  local index, cells, near_of = {}, grid.cells(shape), {}
  for i, cell in ipairs(cells) do index[cell[1] * 16 + cell[2]] = i end
  for i, cell in ipairs(cells) do
    local near = {}
    for _, n in ipairs(grid.neighbours(shape, cell[1], cell[2])) do near[#near + 1] = index[n[1] * 16 + n[2]] end
    near_of[i] = near
  end
  return { cells = cells, near = near_of }
end

local SIZE_ROWS, GROUPS_ROWS = { key = "size" }, { key = "groups" } -- scoring tables' keys

-- points_table(data) -> the points of data.scoring (tables.at_least, the same values) for
-- every size a group of the tower can have and every number of groups it can hold:
-- group[size], count_bonus[groups], single_stone. Kept for the game by derived.of: a
-- score tries many colourings of a tower, and the heuristic runs in every playout.
---@param data table
---@return table the points: group (by size), count_bonus (by groups)
local function points_table(data)
  local sc, cells = data.scoring, derived.of(data, layout).cells
  local group, count_bonus = {}, {}
  for n = 0, #cells do
    group[n] = tables.at_least(sc.group_points, n, SIZE_ROWS)
    count_bonus[n] = tables.at_least(sc.group_count_bonus, n, GROUPS_ROWS)
  end
  return { group = group, count_bonus = count_bonus, single_stone = sc.single_stone }
end

-- the groups of a score in their listed order: larger first, then by colour
---@param a table a group: size, colour
---@param b table a group
---@return boolean a before b
local function group_order(a, b)
  if a.size ~= b.size then return a.size > b.size end
  return tostring(a.colour) < tostring(b.colour)
end

-- group_size(near, colours, i, seen, stack) -> how many cells the group of cell i holds:
-- the cells of colours[i] that touch it, and theirs (marked in seen; stack is scratch)
---@param near integer[][] each cell's neighbours by index
---@param colours (string|false)[] the colour of each cell's stone, false when empty
---@param i integer
---@param seen table<integer, boolean> the cells marked so far
---@param stack integer[] scratch
---@return integer
local function group_size(near, colours, i, seen, stack)
  local v, size, top = colours[i], 0, 1
  stack[1], seen[i] = i, true
  while top > 0 do
    local j = stack[top]
    top, size = top - 1, size + 1
    local touching = near[j]
    for n = 1, #touching do
      local k = touching[n]
      if not seen[k] and colours[k] == v then top, seen[k] = top + 1, true; stack[top] = k end
    end
  end
  return size
end

-- M.evaluate(data, colours) -> points, details for one colouring of a tower. colours[i]
-- is the colour of the stone in cell i of the tower's layout (crystals already
-- assigned), false for an empty cell. A group is the stones of one colour that touch.
---@param data table
---@param colours (string|false)[] the colour of each cell's stone, false when empty
---@return integer, table the points and the details (groups, singles, group_points, total)
function M.evaluate(data, colours)
  local pts_of = derived.of(data, points_table)
  local near = derived.of(data, layout).near
  local d = { groups = {}, singles = 0, group_points = 0 }
  local seen, stack = {}, {}
  for i = 1, #near do
    local v = colours[i]
    if v and not seen[i] then
      local size = group_size(near, colours, i, seen, stack)
      if size >= 2 then
        local pts = pts_of.group[size]
        d.groups[#d.groups + 1] = { colour = v, size = size, points = pts }
        d.group_points = d.group_points + pts
      else
        d.singles = d.singles + 1
      end
    end
  end
  table.sort(d.groups, group_order)
  d.count_bonus = pts_of.count_bonus[#d.groups]
  d.single_points = d.singles * pts_of.single_stone
  d.total = d.group_points + d.count_bonus + d.single_points
  return d.total, d
end

-- colouring_total(data, colours) -> the total M.evaluate gives a colouring, without its
-- details (the groups listed and sorted): a score searches many colourings and keeps the
-- details of the best one only.
local seen_scratch, stack_scratch = {}, {} -- the floods' marks and stack (a score never nests)
---@param data table
---@param colours (string|false)[] the colour of each cell's stone, false when empty
---@return integer
local function colouring_total(data, colours)
  local pts_of = derived.of(data, points_table)
  local near = derived.of(data, layout).near
  local seen = seen_scratch
  for i = 1, #near do seen[i] = false end
  local total, groups = 0, 0
  for i = 1, #near do
    if colours[i] and not seen[i] then
      local size = group_size(near, colours, i, seen, stack_scratch)
      if size >= 2 then
        total, groups = total + pts_of.group[size], groups + 1
      else
        total = total + pts_of.single_stone
      end
    end
  end
  return total + pts_of.count_bonus[groups]
end

-- the non-crystal colours touching cell i, in the data's colour order, and as a set
---@param data table
---@param stones (string|false)[] the stone in each cell, false when empty
---@param near_i integer[] the neighbours of cell i
---@return string[], table<string, boolean> the colours in order, and as a set
local function neighbour_colours(data, stones, near_i)
  local near = {}
  for _, j in ipairs(near_i) do
    local s = stones[j]
    if s and not common.is_crystal(data, s) then near[s] = true end
  end
  local list = {}
  for _, col in ipairs(data.stones.colours) do if near[col.id] then list[#list + 1] = col.id end end
  return list, near
end

-- M.tower_score(data, tw) -> details of the best scoring: total, groups, singles,
-- count_bonus, crystals (the colour given to each crystal, in cell order).
---@param data table
---@param tw table
---@return table total, groups, singles, count_bonus, crystals
function M.tower_score(data, tw)
  local lay = derived.of(data, layout)
  local cells, near_of_cell = lay.cells, lay.near
  local stones = {} -- the tower read once: the stone in each cell of the layout, or false
  for i, cell in ipairs(cells) do stones[i] = tower.get(tw, cell[1], cell[2]) end
  local crystals = {}
  for i in ipairs(cells) do
    local s = stones[i]
    if s and common.is_crystal(data, s) then
      local cands, near = neighbour_colours(data, stones, near_of_cell[i])
      crystals[#crystals + 1] = { cell = i, cands = cands, near = near, lone = "lone " .. (#crystals + 1) }
    end
  end
  local all_colours = {}
  for _, col in ipairs(data.stones.colours) do all_colours[#all_colours + 1] = col.id end
  local distinct = data.scoring.crystals_distinct
  if not distinct then
    -- crystals may share colours and join each other: try every colour
    for _, x in ipairs(crystals) do x.cands = all_colours end
  end
  local LONE = false -- "a colour that touches nothing of its own"
  local assign, used = {}, {}
  local best, best_assign, best_colours = nil, nil, nil
  -- each cell's colour in this assignment: the stone's, or the colour its crystal is given
  -- (a lone crystal's own name, "lone 2", which matches nothing)
  local colours = {}
  for i = 1, #cells do colours[i] = stones[i] end

  -- give every lone crystal a real colour: unused, touching none of its colour
  local function resolve_lone()
    local given, taken = {}, {}
    for i, v in ipairs(assign) do if v then given[i] = v; taken[v] = true end end
    for i, v in ipairs(assign) do
      if not v then
        for _, col in ipairs(all_colours) do
          if not (distinct and taken[col]) and not crystals[i].near[col] then
            given[i] = col
            if distinct then taken[col] = true end
            break
          end
        end
        if not given[i] then return nil end
      end
    end
    return given
  end

  -- each crystal's colour in this assignment (LONE: its own name)
  local function colour_crystals(with)
    for k, x in ipairs(crystals) do colours[x.cell] = with[k] or x.lone end
  end

  -- an assignment counts only when its lone crystals can be given real colours; the first
  -- best one found is kept (its details are worked out at the end)
  local function search(i)
    if i > #crystals then
      colour_crystals(assign)
      local total = colouring_total(data, colours)
      if best == nil or total > best then
        local given = resolve_lone()
        if given then best, best_assign, best_colours = total, { table.unpack(assign) }, given end
      end
      return
    end
    for _, col in ipairs(crystals[i].cands) do
      if not (distinct and used[col]) then
        assign[i] = col
        used[col] = true
        search(i + 1)
        used[col] = nil
      end
    end
    assign[i] = LONE
    search(i + 1)
  end
  search(1)
  local best_d
  if best_assign then
    colour_crystals(best_assign)
    best_d = select(2, M.evaluate(data, colours))
  end
  best_d.crystals = best_colours or {}
  -- a lone crystal's group shows its real colour
  local lone_of = {}
  for k, x in ipairs(crystals) do lone_of[x.lone] = k end
  for _, gr in ipairs(best_d.groups) do
    local k = lone_of[gr.colour]
    if k then gr.colour = best_d.crystals[k] end
  end
  return best_d
end

-- M.food_bonus(g) -> a list: the most-food bonus of each seat.
---@param data table
---@param players table
---@return integer[] by seat
function M.food_bonus(data, players)
  local mf = data.scoring.most_food
  local totals = {}
  for s, p in ipairs(players) do totals[s] = common.food_total(data, p.food) end
  local top, who = tables.max(totals)
  local out = {}
  for s = 1, #players do out[s] = 0 end
  if top and top >= mf.min_food and (mf.ties_share_full or #who == 1) then
    for _, s in ipairs(who) do out[s] = mf.points end
  end
  return out
end

-- M.tiebreak(data, player) -> an integer, higher wins: scoring.tie_breaks in order.
---@param data table
---@param player table the seat's state
---@return integer
function M.tiebreak(data, player)
  local v = 0
  for _, key in ipairs(data.scoring.tie_breaks) do
    local x
    if key == "food" then x = common.food_total(data, player.food)
    elseif key == "tower_stones" then x = tower.count(player.tower)
    else error("unknown tie-break " .. key) end
    v = v * 100 + x
  end
  return v
end

---@param g cairn.G
---@param key string
---@param ... any
---@return string
local function label(g, key, ...) return common.t(g, key, ...) end

-- M.seat_score(g, seat, food_bonus) -> {total, breakdown, tiebreak, details}
---@param g cairn.G
---@param seat integer
---@param food_bonus integer[] the most-food bonus by seat (food_bonus)
---@return table
function M.seat_score(g, seat, food_bonus)
  local data, st = g.data, g.state
  local p = st.players[seat]
  local d = M.tower_score(data, p.tower)
  local lines = {}
  local sizes = {}
  for _, gr in ipairs(d.groups) do
    sizes[#sizes + 1] = string.format("%s %d", common.stone_name(g, gr.colour), gr.size)
  end
  -- each line has a stable key (statistics add lines up over many games) and a
  -- label with this game's details
  lines[#lines + 1] = { key = "groups",
    label = label(g, "score.groups", #sizes > 0 and table.concat(sizes, ", ") or "-"),
    points = d.group_points }
  lines[#lines + 1] = { key = "group count", label = label(g, "score.group_count", #d.groups),
    points = d.count_bonus }
  lines[#lines + 1] = { key = "single stones", label = label(g, "score.singles", d.singles),
    points = d.single_points }
  if #d.crystals > 0 then
    local names = {}
    for _, c in ipairs(d.crystals) do names[#names + 1] = common.stone_name(g, c) end
    lines[#lines + 1] = { key = "crystals", label = label(g, "score.crystals", table.concat(names, ", ")),
      points = 0 }
  end
  lines[#lines + 1] = { key = "stupa", label = label(g, "score.stupa"),
    points = (st.stupa == seat) and data.scoring.stupa_bonus or 0 }
  lines[#lines + 1] = { key = "most food", label = label(g, "score.food", common.food_total(data, p.food)),
    points = food_bonus[seat] }
  local total = 0
  for _, l in ipairs(lines) do total = total + l.points end
  return { total = total, breakdown = lines, tiebreak = M.tiebreak(data, p), details = d }
end

-- M.score(g) -> one entry per seat (see docs/lua-api.md "Scores").
---@param g cairn.G
---@return cairn.Scores
function M.score(g)
  local fb = M.food_bonus(g.data, g.state.players)
  local out = {}
  for s = 1, #g.state.players do
    out[s] = M.seat_score(g, s, fb)
    out[s].details = nil
  end
  return out
end

-- M.heuristic(g, seat) -> what the bots add to the provisional score (the tower, the
-- stupa, the most food, and whatever an option adds) to judge a position: half the
-- seat's food, which the score does not count yet but which buys stones.
---@param g cairn.G
---@param seat integer
---@return integer
function M.heuristic(g, seat)
  return common.food_total(g.data, g.state.players[seat].food) // 2
end

return M
