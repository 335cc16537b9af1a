-- cairn/fake_rng.lua
-- A deterministic stand-in for g.rng in Lua tests: a 31-bit LCG, integers only.
--
-- local rng = require("cairn.fake_rng").new(42)     -- seeded generator
-- local rng = require("cairn.fake_rng").script{1, 3} -- int() returns these, in turn (clamped)

local deck = require "cairn.deck"

local M = {}

---@param next_int fun(lo: integer, hi: integer): integer the generator: an integer in [lo, hi]
---@return cairn.Rng
local function api(next_int)
  local rng = {}
  ---@param lo integer
  ---@param hi integer
  ---@return integer
  function rng.int(lo, hi)
    assert(math.type(lo) == "integer" and math.type(hi) == "integer" and lo <= hi,
      "rng.int needs integers lo <= hi")
    return next_int(lo, hi)
  end
  ---@param sides integer
  ---@return integer
  function rng.die(sides) return rng.int(1, sides) end
  -- the stdlib's own Fisher-Yates, drawing from this rng's int
  ---@param list any[]
  ---@return any[]
  function rng.shuffle(list) return deck.shuffle_list(list, { int = rng.int }) end
  ---@param list any[]
  ---@return any
  function rng.pick(list) return list[rng.int(1, #list)] end
  ---@param weights integer[]
  ---@return integer
  function rng.weighted(weights)
    local total = 0
    for _, w in ipairs(weights) do total = total + w end
    local r = rng.int(1, total)
    for i, w in ipairs(weights) do
      r = r - w
      if r <= 0 then return i end
    end
  end
  return rng
end

-- M.new(seed) -> an rng whose sequence depends only on seed.
---@param seed? integer
---@return cairn.Rng
function M.new(seed)
  local s = (seed or 1) % 2147483648
  return api(function(lo, hi)
    s = (s * 1103515245 + 12345) % 2147483648
    return lo + (s >> 8) % (hi - lo + 1)
  end)
end

-- M.script(values) -> an rng whose int() returns values in turn, clamped to [lo, hi];
-- after the list runs out it returns lo.
---@param values integer[]
---@return cairn.Rng
function M.script(values)
  local i = 0
  return api(function(lo, hi)
    i = i + 1
    local v = values[i] or lo
    if v < lo then v = lo elseif v > hi then v = hi end
    return v
  end)
end

return M
