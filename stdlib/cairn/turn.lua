-- cairn/turn.lua
-- Turn order around a table of n seats numbered 1..n.
--
-- dir = 1 is clockwise (seat 1, 2, 3, ...), dir = -1 counter-clockwise.

local M = {}

-- M.step(seat, n, k) -> the seat k places further on (k may be negative).
---@param seat integer
---@param n integer
---@param k integer
---@return integer
function M.step(seat, n, k)
  return (seat - 1 + k) % n + 1
end

-- M.next(seat, n [, dir]) -> the next seat in direction dir (default 1).
---@param seat integer
---@param n integer
---@param dir? integer
---@return integer
function M.next(seat, n, dir) return M.step(seat, n, dir or 1) end

-- M.prev(seat, n [, dir]) -> the previous seat in direction dir (default 1).
---@param seat integer
---@param n integer
---@param dir? integer
---@return integer
function M.prev(seat, n, dir) return M.step(seat, n, -(dir or 1)) end

-- M.order(start, n [, dir]) -> all n seats, starting with start, going in dir.
-- "Clockwise from the holder of the start-player marker" is M.order(holder, n).
---@param start integer
---@param n integer
---@param dir? integer
---@return integer[]
function M.order(start, n, dir)
  local list = {}
  for i = 0, n - 1 do list[#list + 1] = M.step(start, n, i * (dir or 1)) end
  return list
end
M.from_holder = M.order

-- M.rotate_start(start, n [, dir]) -> the next start player (the marker passes on).
M.rotate_start = M.next

-- M.distance(from, to, n [, dir]) -> how many steps in dir from seat from to seat to.
---@param from integer
---@param to integer
---@param n integer
---@param dir? integer
---@return integer
function M.distance(from, to, n, dir)
  return ((to - from) * (dir or 1)) % n
end

-- M.position(order, seat) -> the index of seat in an order list, or nil.
---@param order integer[]
---@param seat integer
---@return integer?
function M.position(order, seat)
  for i, s in ipairs(order) do if s == seat then return i end end
  return nil
end

return M
