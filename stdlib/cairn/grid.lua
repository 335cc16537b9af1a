-- cairn/grid.lua
-- Rectangular and offset grids: bounds, neighbours, connected groups.
--
-- A grid shape is plain data:
--   {rows = 6, cols = 7}                          rectangular
--   {rows = 6, cols = 7, diagonal = true}         rectangular, 8 neighbours
--   {widths = {5, 4, 3, 2, 1}, layout = "brick"}  a brick pyramid: row r+1 has one
--       cell fewer and its cell c rests on cells c and c+1 of row r
--   {rows = 5, cols = 5, layout = "offset"}       hex rows, odd rows shifted right
-- origin = 0 or 1 (default 1) is the number of the first row and column.
-- Cells are (r, c) pairs; M.key(r, c) gives "r,c" for use as a map key.
-- The grid holds no cell values: functions take a predicate or a value function.

local M = {}

---@param shape table
---@return integer
local function origin(shape) return shape.origin or 1 end

-- M.key(r, c) -> "r,c"; M.parse(key) -> r, c.
---@param r integer
---@param c integer
---@return string
function M.key(r, c) return r .. "," .. c end
---@param key string
---@return integer, integer
function M.parse(key)
  local r, c = key:match("^(%-?%d+),(%-?%d+)$")
  return math.tointeger(tonumber(r)), math.tointeger(tonumber(c))
end

-- M.row_count(shape), M.width(shape, r) -> the number of rows; the width of row r.
---@param shape table
---@return integer
function M.row_count(shape) return shape.widths and #shape.widths or shape.rows end
---@param shape table
---@param r integer
---@return integer
function M.width(shape, r)
  local i = r - origin(shape) + 1
  if shape.widths then return shape.widths[i] or 0 end
  if i < 1 or i > shape.rows then return 0 end
  return shape.cols
end

-- M.in_bounds(shape, r, c) -> true if (r, c) is a cell of the shape.
---@param shape table
---@param r integer
---@param c integer
---@return boolean
function M.in_bounds(shape, r, c)
  local o = origin(shape)
  return c >= o and c < o + M.width(shape, r)
end

-- M.cells(shape) -> every cell {r, c}, row by row from the first row.
---@param shape table
---@return integer[][]
function M.cells(shape)
  local o, list = origin(shape), {}
  for r = o, o + M.row_count(shape) - 1 do
    for c = o, o + M.width(shape, r) - 1 do list[#list + 1] = { r, c } end
  end
  return list
end

local ORTHO = { { -1, 0 }, { 1, 0 }, { 0, -1 }, { 0, 1 } }
local DIAG = { { -1, -1 }, { -1, 1 }, { 1, -1 }, { 1, 1 } }
-- brick pyramid: same row left/right; below (r-1, c) and (r-1, c+1); above (r+1, c-1), (r+1, c)
local BRICK = { { 0, -1 }, { 0, 1 }, { -1, 0 }, { -1, 1 }, { 1, -1 }, { 1, 0 } }

---@param shape table
---@param r integer
---@return integer[][] the (row, column) steps to the six neighbours
local function offset_steps(shape, r)
  -- odd-r offset layout: odd rows (counted from the origin) are shifted right
  if (r - origin(shape)) % 2 == 0 then
    return { { 0, -1 }, { 0, 1 }, { -1, -1 }, { -1, 0 }, { 1, -1 }, { 1, 0 } }
  end
  return { { 0, -1 }, { 0, 1 }, { -1, 0 }, { -1, 1 }, { 1, 0 }, { 1, 1 } }
end

-- M.neighbours(shape, r, c) -> the cells touching (r, c), in a fixed order.
---@param shape table
---@param r integer
---@param c integer
---@return integer[][]
function M.neighbours(shape, r, c)
  local steps
  if shape.layout == "brick" then steps = BRICK
  elseif shape.layout == "offset" then steps = offset_steps(shape, r)
  else
    steps = ORTHO
    if shape.diagonal then
      steps = { table.unpack(ORTHO) }
      for _, d in ipairs(DIAG) do steps[#steps + 1] = d end
    end
  end
  local list = {}
  for _, d in ipairs(steps) do
    local rr, cc = r + d[1], c + d[2]
    if M.in_bounds(shape, rr, cc) then list[#list + 1] = { rr, cc } end
  end
  return list
end

-- M.below(shape, r, c) -> for a brick pyramid, the two cells (r, c) rests on
-- (empty for the first row).
---@param shape table
---@param r integer
---@param c integer
---@return integer[][]
function M.below(shape, r, c)
  if r == origin(shape) then return {} end
  return { { r - 1, c }, { r - 1, c + 1 } }
end

-- M.flood(shape, r, c, pred) -> the cells connected to (r, c) through cells where
-- pred(r, c) is true (including (r, c) itself if pred holds there), in visit order.
---@param shape table
---@param r integer
---@param c integer
---@param pred fun(r:integer, c:integer):boolean
---@param seen? table
---@return integer[][]
function M.flood(shape, r, c, pred, seen)
  seen = seen or {}
  local out = {}
  if not pred(r, c) or seen[M.key(r, c)] then return out end
  local queue = { { r, c } }
  seen[M.key(r, c)] = true
  local head = 1
  while queue[head] do
    local cell = queue[head]; head = head + 1
    out[#out + 1] = cell
    for _, n in ipairs(M.neighbours(shape, cell[1], cell[2])) do
      local k = M.key(n[1], n[2])
      if not seen[k] and pred(n[1], n[2]) then
        seen[k] = true
        queue[#queue + 1] = n
      end
    end
  end
  return out
end

-- M.groups(shape, value) -> connected groups of cells with the same value.
-- value(r, c) returns a value for occupied cells and nil (or false) for empty ones;
-- neighbours join a group when their values are equal. Returns a list of
-- {value = v, cells = {{r, c}, ...}}, in the order of M.cells.
---@param shape table
---@param value fun(r:integer, c:integer):any
---@return table[]
function M.groups(shape, value)
  local seen, groups = {}, {}
  for _, cell in ipairs(M.cells(shape)) do
    local v = value(cell[1], cell[2])
    if v and not seen[M.key(cell[1], cell[2])] then
      local cells = M.flood(shape, cell[1], cell[2],
        function(r, c) return value(r, c) == v end, seen)
      groups[#groups + 1] = { value = v, cells = cells }
    end
  end
  return groups
end

-- M.from_component(def) -> the shape of a `grid_board` component of
-- schemas/components.schema.yaml: adjacency orthogonal (4), diagonal (8) or hex (offset
-- rows). Cells the board lacks (null in `cells`) are left to the ruleset's predicates.
---@param def table
---@return table
function M.from_component(def)
  local shape = { rows = def.rows, cols = def.cols }
  if def.adjacency == "diagonal" then shape.diagonal = true end
  if def.adjacency == "hex" then shape.layout = "offset" end
  return shape
end

return M
