-- rulesets/kathmandu/tests/lua/kfake.lua
-- A stand-in g for the Kathmandu unit tests: the ruleset's data and text as cairn loads
-- them (test.ruleset, overlays applied), the scripted or seeded fake rng, a log that
-- collects events; helpers to draw a route by hand and to start a turn.

local fake_rng = require "cairn.fake_rng"
local tables = require "cairn.tables"

local M = {}

local NAMES = { "Ann", "Bob", "Cai", "Dee" }

-- M.new{seats = 4, seed = 1, options = {tents = true}, setup = true} -> g (after setup,
-- with every yak on a start field and seat 1's turn begun, unless setup = false)
function M.new(o)
  o = o or {}
  local n = o.seats or 4
  local seats = {}
  for i = 1, n do seats[i] = { name = NAMES[i] } end
  local loaded = test.ruleset { options = o.options, players = n }
  local text = loaded.text
  local g = {
    state = {}, data = loaded.data, options = o.options or {}, seats = seats,
    rng = o.rng or fake_rng.new(o.seed or 1), lang = o.lang or "en", labels = true, events = {},
  }
  g.log = function(e) g.events[#g.events + 1] = type(e) == "table" and e.text or e end
  local by_lang = {}                  -- the engine's lookup and plural forms, in g.lang
  g.text = function(...)
    local f = by_lang[g.lang] or test.text(text, g.lang)
    by_lang[g.lang] = f
    return f(...)
  end
  g.log_text = function(...) g.log(g.text(...)) end
  g.rules = require "rules"
  g.rules.setup(g)
  if o.setup ~= false then
    for _ = 1, n do
      local seat = g.state.choosing[1]
      local d = M.decision(g, seat)
      for _, opt in ipairs(d.options) do
        if type(opt) == "string" then M.play(g, seat, opt); break end
      end
    end
  end
  return g
end

-- M.decision(g, seat) -> the options offered to seat now (nil if it is not asked)
function M.decision(g, seat)
  for _, d in ipairs(g.rules.decisions(g)) do if d.seat == seat then return d end end
  return nil
end

-- M.enabled(g, seat) -> the enabled option ids, joined with ", "
function M.enabled(g, seat)
  local d = M.decision(g, seat)
  local ids = {}
  for _, opt in ipairs(d and d.options or {}) do if type(opt) == "string" then ids[#ids + 1] = opt end end
  return table.concat(ids, ", ")
end

-- M.offered(g, seat, id) -> "enabled", "disabled" or nil
function M.offered(g, seat, id)
  local d = M.decision(g, seat)
  for _, opt in ipairs(d and d.options or {}) do
    if opt == id then return "enabled" end
    if type(opt) == "table" and opt.id == id then return "disabled" end
  end
  return nil
end

-- M.reason(g, seat, id) -> the reason of a disabled option
function M.reason(g, seat, id)
  assert(M.offered(g, seat, id) == "disabled", id .. " is not offered disabled")
  return g.rules.reason(g, seat, id)
end

function M.label(g, seat, id) return g.rules.label(g, seat, id) end

-- M.play(g, seat, id, ...): answers as the engine would (only enabled options), checking
-- the invariants after each
function M.play(g, seat, ...)
  for _, id in ipairs({ ... }) do
    local how = M.offered(g, seat, id)
    if how ~= "enabled" then
      error(string.format("%s cannot play %q now (%s); enabled: %s", NAMES[seat], id,
        tostring(how), M.enabled(g, seat)), 2)
    end
    g.rules.apply(g, seat, id)
    local bad = g.rules.check(g)
    assert(bad == nil, "invariant broken after " .. id .. ": " .. tostring(bad))
  end
end

-- M.map(g, rows, needles): replace the route by a hand-drawn one. rows: one string per
-- row, boards separated by "|"; needles: one per board (false for none). Goods go back
-- to the supply and fill the new cities again; temples start empty.
function M.map(g, rows, needles)
  local st = g.state
  st.map = {}
  for r, line in ipairs(rows) do st.map[r] = line:gsub("|", "") end
  st.cols = #st.map[1]
  st.route, st.needles = {}, {}
  for b = 1, #needles do st.route[b] = "b" .. b; st.needles[b] = needles[b] end
  for _, list in pairs(st.cities) do
    for _, good in ipairs(list) do st.goods_supply[#st.goods_supply + 1] = good end
  end
  st.cities, st.temples = {}, {}
  for r = 1, #st.map do
    for c = 1, st.cols do
      local ch = st.map[r]:sub(c, c)
      if ch == "C" then st.cities[r .. "," .. c] = {} end
      if ch == "T" then st.temples[r .. "," .. c] = {} end
    end
  end
end

-- M.city(g, key, goods): put these goods ({kind, points} pairs) on a city, from the supply
function M.city(g, key, goods)
  local st = g.state
  for _, want in ipairs(goods) do
    for i, good in ipairs(st.goods_supply) do
      if good.kind == want[1] and good.points == want[2] then
        table.remove(st.goods_supply, i)
        table.insert(st.cities[key], good)
        break
      end
    end
  end
end

-- M.turn(g, seat, r, c, dice): begin seat's turn with its yak on (r, c) and these pips
-- ({brown = 3, ...}; the others keep theirs)
function M.turn(g, seat, r, c, dice)
  local st = g.state
  st.phase, st.tent_ask = "turn", false
  local p = st.players[seat]
  p.pos = { r, c }
  for colour, pips in pairs(dice or {}) do p.dice[colour].pips = pips end
  for _, d in pairs(p.dice) do d.at = "free" end
  require("rules.turn").begin_turn(g, seat)
  st.order = require("cairn.turn").order(seat, #g.seats)
  st.turn_no = 0
end

-- M.res(g, seat, map): set a seat's resources ({compass = 0, ...}; others unchanged)
function M.res(g, seat, map)
  local st = g.state
  for k, v in pairs(map) do
    st.supply_out = st.supply_out + v - st.players[seat].res[k]   -- (the supply is unlimited)
    st.players[seat].res[k] = v
  end
end

-- M.events_since(g, n) -> the events logged after the first n, joined with " / "
function M.events_since(g, n)
  local out = {}
  for i = n + 1, #g.events do out[#out + 1] = g.events[i] end
  return table.concat(out, " / ")
end

-- M.give_card(g, list_name, seat, id): move a card from a deck into a display or hand
function M.take_from_deck(g, deck, id)
  local st = g.state
  for _, name in ipairs({ deck, "animals", "equipment" }) do
    local list = st[name]
    for i, v in ipairs(list) do
      if v == id then table.remove(list, i); return id end
    end
  end
  error("no " .. id .. " in " .. deck)
end

-- M.ROWS: the hand-drawn route most tests use (needles north, east, none):
--        board 1   board 2   board 3
--  col   123456    789012    345678
M.ROWS = {
  "SSSSSS|FFFFFF|RRKKRR",   -- row 1: Kathmandu fields at (1,15), (1,16)
  "SSSMSS|FFFFFF|RRKKRR",   -- row 2: a black mountain at (2,4)
  "SSSSSS|FFFFFF|RRRRRR",
  "SSSSSS|FFCFFF|RRRRRR",   -- row 4: a city at (4,9)
  "SSSSSS|FFFFFF|RRRRRR",
  "SSSSSS|FTFFFF|RRRRRR",   -- row 6: a temple at (6,8)
}

M.copy = tables.copy
return M
