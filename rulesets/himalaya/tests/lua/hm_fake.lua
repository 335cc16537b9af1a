-- rulesets/himalaya/tests/lua/hm_fake.lua
-- A fake g for the Himalaya rules: data and text as cairn loads them (test.ruleset, with
-- the options' overlays), a scripted or seeded rng, a log that collects event texts, and
-- helpers to set a position by hand and play decisions with the invariants checked.

local fake_rng = require "cairn.fake_rng"

local M = {}

local NAMES = { "Ann", "Bob", "Cai", "Dee", "Eve", "Fay" }

function M.new(o)
  o = o or {}
  local n = o.seats or 4
  local seats = {}
  for i = 1, n do seats[i] = { name = NAMES[i] } end
  local options = o.options or {}
  if n >= 5 then options.expansion = true end
  local loaded = test.ruleset { options = options, players = n }
  local text = loaded.text
  local g = { state = {}, data = loaded.data, options = options, seats = seats,
    rng = o.rng or fake_rng.new(o.seed or 1), lang = "en", labels = true, events = {} }
  g.log = function(e) g.events[#g.events + 1] = type(e) == "table" and e.text or e end
  g.text = test.text(text, "en")      -- the engine's lookup and plural forms
  g.log_text = function(first, ...)   -- an audience first: {to =, except =}, as g.log's
    if type(first) == "table" then
      g.log { text = g.text(...), to = first.to, except = first.except }
    else
      g.log(g.text(first, ...))
    end
  end
  g.rules = require "rules"
  if o.setup ~= false then g.rules.setup(g) end
  return g
end

-- M.clear_board(g): no cubes, no orders on any village; everything back in the bag/deck
function M.clear_board(g)
  local st = g.state
  for _, v in ipairs(st.villages) do
    for _, c in ipairs(v.cubes) do st.bag[c] = (st.bag[c] or 0) + 1 end
    v.cubes = {}
    if v.ring then st.rings.draw[#st.rings.draw + 1] = v.ring v.ring = false end
  end
end

-- M.put_cubes(g, v, list): cubes from the bag onto village v (cheapest first)
function M.put_cubes(g, v, list)
  for _, c in ipairs(list) do
    g.state.bag[c] = g.state.bag[c] - 1
    table.insert(g.state.villages[v].cubes, c)
  end
  require("rules.common").sort_cubes(g.data, g.state.villages[v].cubes)
end

-- M.put_ring(g, v, id): that ring from the ring deck onto village v
function M.put_ring(g, v, id)
  local draw = g.state.rings.draw
  for i, r in ipairs(draw) do if r == id then table.remove(draw, i) break end end
  g.state.villages[v].ring = id
end

-- M.give(g, seat, cubes): cubes from the bag behind seat's screen
function M.give(g, seat, cubes)
  for k, n in pairs(cubes) do
    g.state.bag[k] = g.state.bag[k] - n
    g.state.players[seat].cubes[k] = g.state.players[seat].cubes[k] + n
  end
end

function M.decision(g, seat)
  for _, d in ipairs(g.rules.decisions(g)) do if d.seat == seat then return d end end
end

local function id_of(o) return type(o) == "table" and o.id or o end

-- M.enabled(g, seat) -> the enabled ids, ", "-joined
function M.enabled(g, seat)
  local d, ids = M.decision(g, seat), {}
  for _, o in ipairs(d and d.options or {}) do
    if type(o) == "string" or not o.disabled then ids[#ids + 1] = id_of(o) end
  end
  return table.concat(ids, ", ")
end

-- M.disabled(g, seat) -> the disabled ids, ", "-joined
function M.disabled(g, seat)
  local d, ids = M.decision(g, seat), {}
  for _, o in ipairs(d and d.options or {}) do
    if type(o) == "table" and o.disabled then ids[#ids + 1] = o.id end
  end
  return table.concat(ids, ", ")
end

-- M.play(g, seat, id, ...): answers as the engine would (refusing ids not enabled), checking
-- the invariants after each
function M.play(g, seat, ...)
  for _, id in ipairs({ ... }) do
    local d = M.decision(g, seat)
    assert(d, "seat " .. seat .. " is not asked (for " .. id .. ")")
    local ok = false
    for _, o in ipairs(d.options) do
      if id_of(o) == id and (type(o) == "string" or not o.disabled) then ok = true end
    end
    assert(ok, "not an enabled option of seat " .. seat .. ": " .. id .. " (enabled: " .. M.enabled(g, seat) .. ")")
    g.rules.apply(g, seat, id)
    local bad = g.rules.check(g)
    assert(bad == nil, "invariant broken after " .. id .. ": " .. tostring(bad))
  end
end

-- M.place_all(g, villages): every seat places its caravan, in placing order
function M.place_all(g, villages)
  for i = 1, #g.seats do
    local seat = g.state.place_order[i]
    M.play(g, seat, "start " .. villages[seat])
  end
end

-- M.program(g, progs): every seat programs {seat = {6 actions}} and says ready
function M.program(g, progs)
  for s = 1, #g.seats do
    local p = progs[s] or { "rest", "rest", "rest", "rest", "rest", "rest" }
    M.play(g, s, table.unpack(p))
    M.play(g, s, "ready")
  end
end

-- M.has_event(g, text) -> whether an event containing text (plain) was logged
function M.has_event(g, pattern)
  for _, e in ipairs(g.events) do if e:find(pattern, 1, true) then return true end end
  return false
end

return M
