-- rules/tower.lua
-- Yak: the tower, a brick pyramid (rows 5-4-3-2-1 from the bottom). A stone above the
-- base rests on two stones; a base stone other than the first touches another base stone.
--
-- state.players[s].tower is a list of rows (row r of the rulebook is tower[r + 1]), each
-- a list of cells: false when empty, else the stone ("red", "crystal", ...).

local M = {}

-- M.shape(data) -> the grid shape of the tower (rows and columns counted from 0).
---@param data table
---@return table the grid shape (cairn.grid) of the tower
function M.shape(data) return { widths = data.tower.row_widths, layout = "brick", origin = 0 } end

-- M.new(data) -> an empty tower.
---@param data table
---@return table
function M.new(data)
  local rows = {}
  for r, w in ipairs(data.tower.row_widths) do
    rows[r] = {}
    for c = 1, w do rows[r][c] = false end
  end
  return rows
end

-- M.get(tower, r, c) -> the stone at row r, column c (both from 0), or false.
---@param tower table
---@param r integer
---@param c integer
---@return string|false the stone, or false
function M.get(tower, r, c)
  local row = tower[r + 1]
  if not row then return false end
  local v = row[c + 1]
  if v == nil then return false end
  return v
end

---@param tower table
---@param r integer
---@param c integer
---@param stone string
function M.set(tower, r, c, stone) tower[r + 1][c + 1] = stone end

-- M.count(tower) -> stones in the tower.
---@param tower table
---@return integer
function M.count(tower)
  local n = 0
  for r = 1, #tower do
    local row = tower[r]
    for c = 1, #row do if row[c] then n = n + 1 end end
  end
  return n
end

-- M.free(tower) -> empty cells in the tower (M.size - M.count, in one walk).
---@param tower table
---@return integer
function M.free(tower)
  local n = 0
  for r = 1, #tower do
    local row = tower[r]
    for c = 1, #row do if not row[c] then n = n + 1 end end
  end
  return n
end

-- M.size(tower) -> cells in the tower (15).
---@param tower table
---@return integer
function M.size(tower)
  local n = 0
  for _, row in ipairs(tower) do n = n + #row end
  return n
end

-- M.cell_id(r, c) -> "l1p4" for row 0, cell 3: level and place counted from 1, as the
-- player reads them on the board and in "level 1, place 4"; M.parse_cell("l1p4") -> 0, 3.
-- Both are made once per game for each cell (numbers to text cost as much as a rule).
local cell_ids, cells_of_id = {}, {}
---@param r integer
---@param c integer
---@return string
function M.cell_id(r, c)
  local k = r * 64 + c
  local id = cell_ids[k]
  if not id then
    id = "l" .. (r + 1) .. "p" .. (c + 1)
    cell_ids[k], cells_of_id[id] = id, { r, c }
  end
  return id
end
---@param id string
---@return integer?, integer? the row and the column
function M.parse_cell(id)
  local cell = cells_of_id[id]
  if cell then return cell[1], cell[2] end
  local l, p = id:match("^l(%d+)p(%d+)$")
  if not l then return nil end
  return math.tointeger(tonumber(l)) - 1, math.tointeger(tonumber(p)) - 1
end

-- M.legal(data, tower, r, c [, count]) -> true, or false and the text key of the reason,
-- by the placing rules of data.tower (row_widths, first_stone_row).
-- count, when given, is M.count(tower) (legal_cells counts once for every cell).
-- (Row r of the rulebook is tower[r + 1] and its cell c is tower[r + 1][c + 1]; the
-- rows are read directly here, as M.get reads them, because legal_cells asks this of
-- every cell on every placement.)
---@param data table
---@param tower table
---@param r integer
---@param c integer
---@param count integer
---@return boolean, string? true, or false and the reason's text key
function M.legal(data, tower, r, c, count)
  local rules = data.tower
  local width = rules.row_widths[r + 1]
  if not width or c < 0 or c >= width then return false, "why.off_tower" end
  if tower[r + 1][c + 1] then return false, "why.occupied" end
  if (count or M.count(tower)) == 0 then
    if r ~= rules.first_stone_row then return false, "why.first_on_base" end
    return true
  end
  if r == 0 then -- touching a base stone: cell c - 1 or c + 1 of the base
    local base = tower[1]
    if base[c] or base[c + 2] then return true end
    return false, "why.must_touch"
  end
  -- above the base a stone rests on the two stones below it: cells c and c + 1 of row r - 1
  local below = tower[r]
  if not (below[c + 1] and below[c + 2]) then return false, "why.needs_support" end
  return true
end

-- M.cell(r, c) -> the pair {r, c}, made once per game for each cell: legal_cells
-- returns these (callers must not change them).
local cells = {}
---@param r integer
---@param c integer
---@return integer[]
function M.cell(r, c)
  local k = r * 64 + c
  local cell = cells[k]
  if not cell then cell = { r, c }; cells[k] = cell end
  return cell
end

-- M.legal_cells(data, tower) -> every legal cell {r, c}, row by row.
---@param data table
---@param tower table
---@return integer[][]
function M.legal_cells(data, tower)
  local out, widths, count = {}, data.tower.row_widths, M.count(tower)
  for r = 0, #widths - 1 do
    for c = 0, widths[r + 1] - 1 do
      if M.legal(data, tower, r, c, count) then out[#out + 1] = M.cell(r, c) end
    end
  end
  return out
end

-- M.level_complete(tower, level) -> true if rows 0..level-1 are all full.
---@param tower table
---@param level integer
---@return boolean
function M.level_complete(tower, level)
  for r = 1, level do
    local row = tower[r]
    if not row then return false end
    for _, v in ipairs(row) do if not v then return false end end
  end
  return true
end

-- M.valid(data, tower) -> nil, or a message: every stone above the base rests on two
-- stones and the base is one unbroken run.
---@param data table
---@param tower table
---@return string?
function M.valid(data, tower)
  local widths = data.tower.row_widths
  if #tower ~= #widths then return "tower has the wrong number of rows" end
  for r, w in ipairs(widths) do
    if #tower[r] ~= w then return "tower row " .. (r - 1) .. " has the wrong width" end
  end
  for r = 1, #widths - 1 do
    for c = 0, widths[r + 1] - 1 do
      if M.get(tower, r, c) and not (M.get(tower, r - 1, c) and M.get(tower, r - 1, c + 1)) then
        return "stone at " .. M.cell_id(r, c) .. " lacks support"
      end
    end
  end
  local runs, inside = 0, false
  for c = 0, widths[1] - 1 do
    local v = M.get(tower, 0, c) and true or false
    if v and not inside then runs = runs + 1 end
    inside = v
  end
  if runs > 1 then return "tower base is broken" end
  return nil
end

return M
