-- rules.lua: Connect Four.
-- grid[1] is the bottom row; a disc dropped in column c lands on the lowest
-- empty cell of that column.

local rules = {}

local DIRECTIONS = { {0, 1}, {1, 0}, {1, 1}, {1, -1} }  -- across, up, two diagonals

-- The board (g.data.board) as a plain table of its figures: every move of
-- every playout reads them, and each read through g.data's read-only view
-- costs a metatable lookup. Copied once per game, again only if g.data's
-- board is another table (g.data never changes while the rules are loaded).
local board_of, board_copy
---@param g cairn.G
---@return table the board's figures: rows, columns, connect, empty, discs
local function board(g)
  local b = g.data.board
  if b ~= board_of then
    local discs = {}
    for i = 1, #b.discs do discs[i] = b.discs[i] end
    board_copy = { rows = b.rows, columns = b.columns, connect = b.connect, empty = b.empty, discs = discs }
    board_of = b
  end
  return board_copy
end

-- The lowest empty row of column c, or nil when the column is full.
-- (grid and b are g.state.grid and the board: these run for every move of
-- every playout, so each handler reads them out of g once.)
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

-- The option ids, "drop 1" ... "drop N", made once per game and looked up
-- both ways: decisions() runs after every move and should not build strings.
local drop_ids, column_of = {}, {}
---@param c integer
---@return string
local function drop_id(c)
  local id = drop_ids[c]
  if not id then
    id = "drop " .. c
    drop_ids[c], column_of[id] = id, c
  end
  return id
end

-- A full column as an option: offered, disabled (made once per game too).
local full_options = {}
---@param c integer
---@return cairn.Option
local function full_option(c)
  local o = full_options[c]
  if not o then
    o = { id = drop_id(c), disabled = true }
    full_options[c] = o
  end
  return o
end

-- What decisions() returns: one list per game, refreshed after every move
-- (the engine reads it at once and keeps nothing of it), so that a playout
-- allocates no tables per move.
local offered = {}
local asked = { seat = 1, options = offered }
local decision_list = { asked }

---@param g cairn.G
function rules.setup(g)
  local b = board(g)
  local grid, empty, first = {}, b.empty, {}
  for c = 1, b.columns do first[c] = empty end
  for r = 1, b.rows do
    -- each row a copy of the first, made at its size (no growing cell by cell)
    grid[r] = r == 1 and first or { table.unpack(first) }
  end
  g.state.grid = grid
  g.state.turn = 1
  g.state.moves = 0
  g.state.winner = 0
  g.state.over = false
end

-- The columns, as ids (the fast form): a full column is offered disabled,
-- and its reason, the labels and the prompt are made only when someone
-- looks (reason, label, prompt below).
---@param g cairn.G
---@return cairn.Decision[]
function rules.decisions(g)
  local st = g.state
  if st.over then return {} end
  local b = board(g)
  local top, empty = st.grid[b.rows], b.empty
  for c = 1, b.columns do
    offered[c] = top[c] == empty and (drop_ids[c] or drop_id(c)) or full_option(c)
  end
  asked.seat = st.turn
  return decision_list
end

---@param g cairn.G
---@param seat integer
---@return string
function rules.prompt(g, seat) return g.text("prompt", g.seats[seat].name) end

---@param g cairn.G
---@param seat integer
---@param id string
---@return string
function rules.label(g, seat, id) return g.text("column", column_of[id]) end

---@param g cairn.G
---@param seat integer
---@param id string
---@return string
function rules.reason(g, seat, id) return g.text("column_full", column_of[id]) end

---@param g cairn.G
---@param seat integer
---@param id string
function rules.apply(g, seat, id)
  local st, b = g.state, board(g)
  local grid, c = st.grid, column_of[id]
  local r = c and landing_row(grid, b, c)
  if not r then error("cannot drop there: " .. id) end
  grid[r][c] = b.discs[seat]
  st.moves = st.moves + 1
  -- the log names the player; a playout keeps no log and looks up no name
  -- (g.labels is false exactly there, docs/lua-api.md)
  local name = g.labels and g.seats[seat].name
  if name then g.log_text("drops", name, c) end
  if connects(grid, b, r, c) then
    st.winner, st.over = seat, true
    if name then g.log_text("wins", name, b.connect) end
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
  local b, mid, score = board(g), (board(g).columns + 1) // 2, 0
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
  local b, count = board(g), { 0, 0 }
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
