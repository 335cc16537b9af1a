-- rulesets/yak/tests/lua/yak_fake.lua
-- A fake g for the Yak rules: the ruleset's data and text as cairn loads them (the
-- `test` library of `cairn test`, with the chosen options' overlays applied), the
-- deterministic fake rng, a log that collects events. Used by the test_yak_*.lua unit
-- tests and gen_scenarios.lua, all run by `cairn test yak` (docs/testing.md).


local fixture = test.ruleset()   -- the default options: data and text tables
local fake_rng = require "cairn.fake_rng"
local tables = require "cairn.tables"

local M = {}

-- M.text(lang[, loaded]) -> a g.text function over the loaded ruleset's text tables
function M.text(lang, loaded)
  return test.text((loaded or fixture).text, lang)   -- the engine's lookup and plural forms
end

-- M.new{seats = 4 or {"Ann", ...}, seed = 1, options = {master_builder = true},
--        lang = "en", rng = <rng>, data = function(data) ... end, setup = true} -> g
function M.new(o)
  o = o or {}
  local seats = o.seats or 4
  if type(seats) == "number" then
    local names = { "Ann", "Bob", "Cai", "Dee" }
    local list = {}
    for i = 1, seats do list[i] = { name = names[i] } end
    seats = list
  else
    local list = {}
    for i, n in ipairs(seats) do list[i] = { name = n } end
    seats = list
  end
  -- the data of this game's options and seat count, overlays applied by cairn itself
  local loaded = test.ruleset { options = o.options, players = #seats }
  local g = {
    state = {}, data = loaded.data, options = o.options or {},
    seats = seats, rng = o.rng or fake_rng.new(o.seed or 1), lang = o.lang or "en", labels = true,
    events = {},
  }
  local base = require "rules"
  local rules = {}
  for k, v in pairs(base) do rules[k] = v end
  if g.options.master_builder then rules = require("options.master_builder")(rules) end
  if o.data then o.data(g.data) end
  g.log = function(e) g.events[#g.events + 1] = type(e) == "table" and e.text or e end
  g.log_text = function(key, ...) g.log(g.text(key, ...)) end
  g.text = M.text(g.lang, loaded)
  g.rules = rules
  if o.setup ~= false then rules.setup(g) end
  return g
end

-- M.assert_plain(value): state is plain data (integers, strings, booleans, lists,
-- string-keyed maps; no floats, functions or metatables)
function M.assert_plain(v, path)
  path = path or "state"
  local t = type(v)
  if t == "number" then
    assert(math.type(v) == "integer", path .. " is a float")
  elseif t == "table" then
    assert(getmetatable(v) == nil, path .. " has a metatable")
    local n = #v
    for k, x in pairs(v) do
      if type(k) == "number" then
        assert(math.type(k) == "integer" and k >= 1 and k <= n, path .. " has a bad list key " .. tostring(k))
      else
        assert(type(k) == "string", path .. " has a non-string key")
        assert(n == 0, path .. " mixes list and map keys")
      end
      M.assert_plain(x, path .. "." .. tostring(k))
    end
  else
    assert(t == "string" or t == "boolean", path .. " holds a " .. t)
  end
end

-- M.decisions(g) -> what decisions(g) asks, each option as a person sees it (as the
-- engine shows it): {id =, label =, disabled =}, the label from rules.label when the
-- rules give the bare id
function M.decisions(g)
  local out = {}
  for i, d in ipairs(g.rules.decisions(g)) do
    local opts = {}
    for j, o in ipairs(d.options) do
      local id = type(o) == "string" and o or o.id
      opts[j] = { id = id, label = type(o) == "table" and o.label or g.rules.label(g, d.seat, id),
        disabled = type(o) == "table" and o.disabled or nil }
    end
    out[i] = { seat = d.seat, prompt = d.prompt, options = opts }
  end
  return out
end

-- M.decision(g, seat) -> the decision asked of seat (or nil)
function M.decision(g, seat)
  for _, d in ipairs(M.decisions(g)) do if d.seat == seat then return d end end
  return nil
end

-- M.option(g, seat, id) -> that option of seat's decision (or nil)
function M.option(g, seat, id)
  local d = M.decision(g, seat)
  if not d then return nil end
  for _, o in ipairs(d.options) do if o.id == id then return o end end
  return nil
end

-- M.enabled(g, seat) -> the enabled option ids of seat, space-joined
function M.enabled(g, seat)
  local d = M.decision(g, seat)
  local ids = {}
  for _, o in ipairs(d and d.options or {}) do if not o.disabled then ids[#ids + 1] = o.id end end
  return table.concat(ids, ", ")
end

-- M.check_answer(g, seat, id): refuses as the engine does before apply: an id that is not
-- offered to seat, or offered disabled (raising the reason)
function M.check_answer(g, seat, id)
  local o = M.option(g, seat, id)
  if not o then error("not an option for seat " .. tostring(seat) .. ": " .. tostring(id), 0) end
  if o.disabled then error(o.disabled, 0) end
end

-- M.play(g, seat, id, ...): answer (several answers in turn), checking invariants after each
function M.play(g, seat, ...)
  for _, id in ipairs({ ... }) do
    M.check_answer(g, seat, id)
    g.rules.apply(g, seat, id)
    M.assert_plain(g.state)
    local bad = g.rules.check(g)
    assert(bad == nil, "invariant broken after " .. id .. ": " .. tostring(bad))
  end
end

-- M.refused(g, seat, id) -> the error text of a refused answer (the state is copied back
-- afterwards, as the engine's transaction would do)
function M.refused(g, seat, id)
  local saved = tables.copy(g.state)
  local ok, err = pcall(function() M.check_answer(g, seat, id); g.rules.apply(g, seat, id) end)
  g.state = saved
  assert(not ok, id .. " should have been refused")
  return err
end

-- M.tower(rows) -> a tower from strings, top row first, "." empty, letters by colour:
--   M.tower{"", "", "R", "RG", "RRGBB"}   (rows 4..0)
local LETTERS = { R = "red", O = "orange", Y = "yellow", G = "green", B = "blue",
  P = "purple", W = "white", K = "black", ["*"] = "crystal" }
function M.tower(lines)
  local widths = fixture.data.tower.row_widths
  local rows = {}
  for r = 1, #widths do
    rows[r] = {}
    for c = 1, widths[r] do rows[r][c] = false end
  end
  for i, line in ipairs(lines) do
    local r = #lines - i + 1
    for c = 1, #line do
      local ch = line:sub(c, c)
      if ch ~= "." then rows[r][c] = assert(LETTERS[ch], "bad letter " .. ch) end
    end
  end
  return rows
end

-- M.rebalance(g): after a test has edited reserves, carts or towers by hand, give the
-- market and the bag whatever food and stones the edit left over, so that the
-- conservation invariants hold again. Errors if the edit used more than exists.
function M.rebalance(g)
  local st, data = g.state, g.data
  local n = #st.players
  local by = tables.by(data.carts.by_seats, "seats", n)
  for _, k in ipairs({ "meat", "milk", "bread" }) do
    local want = n * (data.economy.start_food[k] or 0) + (data.economy.market_start[k] or 0)
    for _, id in ipairs(by.carts) do
      want = want + (tables.by(data.carts.carts, "id", id).start_food[k] or 0)
    end
    for _, p in ipairs(st.players) do want = want - p.food[k] end
    for _, c in ipairs(st.carts) do want = want - c.food[k] end
    assert(want >= 0, "the test uses more " .. k .. " than the game has")
    st.market[k] = want
  end
  local want = { [data.stones.crystal.id] = data.stones.crystal.count,
    [data.stones.fog.id] = data.stones.fog.count - st.fog.track - st.fog.out }
  for _, c in ipairs(st.colours) do want[c] = data.stones.per_colour end
  local function take(s) want[s] = want[s] - 1; assert(want[s] >= 0, "too many " .. s) end
  for _, c in ipairs(st.carts) do for _, s in ipairs(c.stones) do take(s) end end
  for _, p in ipairs(st.players) do
    for _, row in ipairs(p.tower) do for _, s in ipairs(row) do if s then take(s) end end end
  end
  st.bag = {}
  for s, k in pairs(want) do if k > 0 then st.bag[s] = k end end
  assert(g.rules.check(g) == nil, g.rules.check(g))
end

-- M.noon(g, cards): start noon with these cards ({[1] = "build", ...}; others "restock")
-- and the baby yak with seat first (default 1).
function M.noon(g, cards, first)
  g.state.holder = first or 1
  for s = 1, #g.seats do M.play(g, s, "card " .. (cards[s] or "restock")) end
end

-- M.finish_noon(g): play the first enabled option of whoever is asked until noon is over
function M.finish_noon(g)
  local round = g.state.round
  while g.state.phase == "noon" and g.state.round == round do
    local d = M.decisions(g)[1]
    for _, o in ipairs(d.options) do
      if not o.disabled then M.play(g, d.seat, o.id); break end
    end
  end
end

-- M.bag_index(bag, item) -> the rng.int value that makes bag.draw pick item
function M.bag_index(b, item)
  local r = 1
  for _, k in ipairs(tables.keys(b)) do
    if k == item then return r end
    r = r + b[k]
  end
  error("no " .. item .. " in the bag")
end

M.fixture = fixture
return M
