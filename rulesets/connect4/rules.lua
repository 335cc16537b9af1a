-- rules.lua: Connect Four.
-- grid[1] is the bottom row; a disc dropped in column c lands on the lowest
-- empty cell of that column.

local rules = {}

local ids = require "cairn.ids"

local DIRECTIONS = { {0, 1}, {1, 0}, {1, 1}, {1, -1} }  -- across, up, two diagonals

-- The lowest empty row of column c, or nil when the column is full (grid is
-- g.state.grid, b the board: g.data.board).
---@param grid table
---@param b table
---@param c integer
---@return integer?
local function landing_row(grid, b, c)
  local empty = b.empty
  for r = 1, b.rows do
    if grid[r][c] == empty then return r end
  end
  return nil
end

-- How many discs equal to grid[r][c] lie in a line through (r, c) along
-- (dr, dc), on a board of rows x columns.
---@param grid table
---@param rows integer
---@param columns integer
---@param r integer
---@param c integer
---@param dr integer the row's step (-1, 0 or 1)
---@param dc integer the column's step
---@return integer
local function line_length(grid, rows, columns, r, c, dr, dc)
  local disc, n = grid[r][c], 1
  for sign = 1, -1, -2 do
    local rr, cc = r + sign * dr, c + sign * dc
    while rr >= 1 and rr <= rows and cc >= 1 and cc <= columns and grid[rr][cc] == disc do
      n = n + 1
      rr, cc = rr + sign * dr, cc + sign * dc
    end
  end
  return n
end

-- Whether the disc at (r, c) lines up b.connect along one of the directions.
---@param grid table
---@param b table
---@param r integer
---@param c integer
---@return boolean
local function connects(grid, b, r, c)
  local rows, columns, connect = b.rows, b.columns, b.connect
  for i = 1, #DIRECTIONS do
    local d = DIRECTIONS[i]
    if line_length(grid, rows, columns, r, c, d[1], d[2]) >= connect then return true end
  end
  return false
end

-- The option ids: DROP_ID[c] is "drop c" (cairn.ids: the same string each time,
-- and its column read back from it).
local DROP = ids.new()
local DROP_ID = ids.of(DROP, "drop")
---@param id string
---@return integer the column
local function column_of(id) return DROP.parts[id][2] end

---@param g cairn.G
function rules.setup(g)
  local b = g.data.board
  local grid = {}
  for r = 1, b.rows do
    local row = {}
    for c = 1, b.columns do row[c] = b.empty end
    grid[r] = row
  end
  g.state.grid = grid
  g.state.turn = 1
  g.state.moves = 0
  g.state.winner = 0
  g.state.over = false
end

-- The columns, as ids (the fast form): a full column is offered disabled;
-- its reason, the options' labels and the prompt come from the handlers below.
---@param g cairn.G
---@return cairn.Decision[]
function rules.decisions(g)
  local st, b = g.state, g.data.board
  if st.over then return {} end
  local top, empty, options = st.grid[b.rows], b.empty, {}
  for c = 1, b.columns do
    local id = DROP_ID[c]
    options[c] = top[c] == empty and id or { id = id, disabled = true }
  end
  return { { seat = st.turn, options = options } }
end

---@param g cairn.G
---@param seat integer
---@return string
function rules.prompt(g, seat) return g.text("prompt", g.seats[seat].name) end

---@param g cairn.G
---@param seat integer
---@param id string
---@return string
function rules.label(g, seat, id) return g.text("column", column_of(id)) end

---@param g cairn.G
---@param seat integer
---@param id string
---@return string
function rules.reason(g, seat, id) return g.text("column_full", column_of(id)) end

---@param g cairn.G
---@param seat integer
---@param id string
function rules.apply(g, seat, id)
  local st, b = g.state, g.data.board
  local grid, c = st.grid, column_of(id)
  local r = c and landing_row(grid, b, c)
  if not r then error("cannot drop there: " .. id) end
  grid[r][c] = b.discs[seat]
  st.moves = st.moves + 1
  local name = g.seats[seat].name
  g.log_text("drops", name, c)
  if connects(grid, b, r, c) then
    st.winner, st.over = seat, true
    g.log_text("wins", name, b.connect)
  elseif st.moves == b.rows * b.columns then
    st.over = true
    g.log_text("draw")
  else
    g.state.turn = 3 - seat
  end
end

---@param g cairn.G
---@return cairn.Scores
function rules.score(g)
  local scores = {}
  for seat = 1, #g.seats do
    local won = g.state.winner == seat and 1 or 0
    scores[seat] = { total = won, breakdown = { { label = g.text("win"), points = won } } }
  end
  return scores
end

---@param view table
---@param seat integer? nil: no seat's (a spectator's)
---@param g cairn.G
---@return string
function rules.render(view, seat, g)
  local b, lines = g.data.board, {}
  for r = b.rows, 1, -1 do lines[#lines + 1] = "|" .. table.concat(view.grid[r], " ") .. "|" end
  local numbers = {}
  for c = 1, b.columns do numbers[c] = tostring(c % 10) end
  lines[#lines + 1] = " " .. table.concat(numbers, " ")
  return table.concat(lines, "\n")
end

-- who starts (the balance lab's turn positions): seat 1 always
---@param g cairn.G
---@return integer
function rules.start_seat(g) return g.state.turn end

-- For bots that look ahead, added to the score (a win is 1 point; a finished game is
-- judged by its result): the seat's discs in the middle column minus the opponent's.
---@param g cairn.G
---@param seat integer
---@return integer
function rules.heuristic(g, seat)
  local b = g.data.board
  local mid, score = (b.columns + 1) // 2, 0
  for r = 1, b.rows do
    local cell = g.state.grid[r][mid]
    if cell == b.discs[seat] then score = score + 1
    elseif cell ~= b.empty then score = score - 1 end
  end
  return score
end

-- Invariants: discs alternate (seat 1 has as many as seat 2, or one more),
-- `moves` counts them, and no disc floats above an empty cell.
---@param g cairn.G
---@return string?
function rules.check(g)
  local b, count = g.data.board, { 0, 0 }
  for r = 1, b.rows do
    for c = 1, b.columns do
      local cell = g.state.grid[r][c]
      if cell ~= b.empty then
        local seat = cell == b.discs[1] and 1 or 2
        count[seat] = count[seat] + 1
        if r > 1 and g.state.grid[r - 1][c] == b.empty then
          return "floating disc at row " .. r .. " column " .. c
        end
      end
    end
  end
  if count[1] + count[2] ~= g.state.moves then return "moves does not count the discs" end
  if count[1] - count[2] ~= 0 and count[1] - count[2] ~= 1 then return "discs do not alternate" end
  return nil
end

return rules
