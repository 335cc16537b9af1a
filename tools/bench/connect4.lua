-- tools/bench/connect4.lua
-- The plain-Lua Connect Four baseline of `make bench`: the rules of
-- rulesets/connect4/rules.lua (7 columns x 6 rows, connect 4; a disc lands on
-- the lowest empty cell of its column; a line counts across, up and along both
-- diagonals; the board full without a line is a draw) with a uniform random
-- choice among the columns that are not full, written as tight plain Lua with
-- no engine around it. tools/bench/connect4.c is the same game in C; each
-- function below names the function of rules.lua it matches, and the C file
-- names this file's. The two play the very same games from the same seed
-- (same PRNG, same draws), which tools/bench checks.
--
-- Run in a plain luaL_newstate() + luaL_openlibs() state: the chunk returns
-- play(n, seed) -> games, decisions, wins of seat 1, wins of seat 2, draws.

local ROWS, COLUMNS, CONNECT = 6, 7, 4        -- rulesets/connect4/data/board.yaml
local EMPTY = 0                               -- discs are the seat numbers 1 and 2
local DIRECTIONS = { {0, 1}, {1, 0}, {1, 1}, {1, -1} }  -- across, up, two diagonals

-- splitmix64 on Lua's 64-bit integers (+ and * wrap, >> is a logical shift):
-- the baselines' own PRNG, so math.random plays no part.
local function new_rng(seed)
  local s = seed
  return function()
    s = s + 0x9E3779B97F4A7C15
    local z = s
    z = (z ~ (z >> 30)) * 0xBF58476D1CE4E5B9
    z = (z ~ (z >> 27)) * 0x94D049BB133111EB
    return z ~ (z >> 31)
  end
end

-- rules.lua: landing_row. The lowest empty row of column c, or nil when full.
local function landing_row(grid, c)
  for r = 1, ROWS do
    if grid[r][c] == EMPTY then return r end
  end
  return nil
end

-- rules.lua: line_length. Discs equal to grid[r][c] in the line through
-- (r, c) along (dr, dc), both ways.
local function line_length(grid, r, c, dr, dc)
  local disc, n = grid[r][c], 1
  for sign = 1, -1, -2 do
    local rr, cc = r + sign * dr, c + sign * dc
    while rr >= 1 and rr <= ROWS and cc >= 1 and cc <= COLUMNS and grid[rr][cc] == disc do
      n = n + 1
      rr, cc = rr + sign * dr, cc + sign * dc
    end
  end
  return n
end

-- rules.lua: connects.
local function connects(grid, r, c)
  for i = 1, #DIRECTIONS do
    local d = DIRECTIONS[i]
    if line_length(grid, r, c, d[1], d[2]) >= CONNECT then return true end
  end
  return false
end

-- rules.lua: setup. A fresh empty grid, grid[1] the bottom row.
local function new_grid()
  local grid = {}
  for r = 1, ROWS do
    local row = {}
    for c = 1, COLUMNS do row[c] = EMPTY end
    grid[r] = row
  end
  return grid
end

-- One game; returns the decisions made and the winner (0: a draw).
-- The choice matches the random bot: uniform over the enabled options, which
-- rules.decisions lists column by column (a full column is disabled). The
-- rest matches rules.apply.
local function play_game(rand)
  local grid, turn, moves = new_grid(), 1, 0
  local legal = {}
  while true do
    local k = 0
    for c = 1, COLUMNS do
      if landing_row(grid, c) then k = k + 1; legal[k] = c end
    end
    local c = legal[(rand() >> 33) % k + 1]
    local r = landing_row(grid, c)
    grid[r][c] = turn
    moves = moves + 1
    if connects(grid, r, c) then return moves, turn end
    if moves == ROWS * COLUMNS then return moves, 0 end
    turn = 3 - turn
  end
end

local function play(n, seed)
  local rand = new_rng(seed)
  local decisions, wins1, wins2, draws = 0, 0, 0, 0
  for _ = 1, n do
    local moves, winner = play_game(rand)
    decisions = decisions + moves
    if winner == 1 then wins1 = wins1 + 1
    elseif winner == 2 then wins2 = wins2 + 1
    else draws = draws + 1 end
  end
  return n, decisions, wins1, wins2, draws
end

return play
