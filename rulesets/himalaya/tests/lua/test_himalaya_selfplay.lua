-- rulesets/himalaya/tests/lua/test_himalaya_selfplay.lua
-- Whole games with a deal-heavy policy (random bots rarely deliver): every seat programs
-- mostly Deal and takes the first enabled option elsewhere, so deliveries, stupas, envoys
-- and the inventory variants are played many times, with the invariants checked after
-- every decision (hm_fake.play). Each game must end with a result ranking every seat.
local fake = require "hm_fake"
local fake_rng = require "cairn.fake_rng"

local function first_enabled(d)
  for _, o in ipairs(d.options) do
    if type(o) == "string" then return o end
    if not o.disabled then return o.id end
  end
end

local function play_game(n, options, seed)
  local g = fake.new { seats = n, seed = seed, options = options }
  local pick = fake_rng.new(seed * 7 + 1)
  local moves = { "dirt", "ice", "stone" }
  local steps = 0
  while true do
    local ds = g.rules.decisions(g)
    if #ds == 0 then break end
    local d = ds[pick.int(1, #ds)]
    local id
    if g.state.phase == "program" and not g.state.pending then
      if #g.state.programs[d.seat] >= 6 then id = "ready"
      elseif pick.int(1, 2) == 1 then id = "deal" else id = moves[pick.int(1, 3)] end
    elseif g.state.phase == "place" then
      id = first_enabled(d)
    else
      id = d.options[pick.int(1, #d.options)]
      if type(id) == "table" then id = first_enabled(d) end
    end
    fake.play(g, d.seat, id)
    steps = steps + 1
    assert(steps < 5000, "the game does not end")
  end
  local ranked = 0
  for _, tier in ipairs(g.state.result.ranking) do ranked = ranked + #tier end
  assert(ranked == n, "every seat ranked")
  local rings, stupas = 0, 0
  for _, p in ipairs(g.state.players) do rings = rings + #p.rings stupas = stupas + (5 - p.stupas) end
  return rings, stupas
end

local total_rings, total_stupas = 0, 0
for seed = 1, 3 do
  for _, case in ipairs {
    { 3, {} }, { 4, {} }, { 4, { events = true, ["complete-inventory"] = true } },
    { 5, { upheaval = true, ["long-range-inventory"] = true } },
    { 6, { ["allergic-to-chaos"] = true, upheaval = true, ["long-range-inventory"] = true, events = true } },
  } do
    local r, s = play_game(case[1], case[2], seed)
    total_rings, total_stupas = total_rings + r, total_stupas + s
  end
end
assert(total_rings > 0 and total_stupas > 0, "deliveries happened: " .. total_rings .. " rings, " .. total_stupas .. " stupas")
