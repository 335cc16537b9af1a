-- rulesets/kathmandu/tests/lua/test_board.lua
-- Setup: the route (start board, landscape boards, goal board), the extra temples on
-- marked fields, goods on the cities, start fields chosen in reverse turn order, the
-- material of each seat, display sizes by seat count, the weather tiles.
local fake = require "kfake"
local common = require "rules.common"
local setup = require "rules.setup"

for _, n in ipairs({ 2, 3, 4 }) do
  local g = fake.new { seats = n, seed = 11, setup = false }
  local st = g.state
  -- the standard route: start + 4 landscape boards + goal = 6 boards of 6 columns
  assert(#st.route == 6 and st.route[1] == "start" and st.route[6] == "kathmandu" and st.cols == 36)
  assert(st.needles[1] == "north" and st.needles[6] == false)
  -- 4 printed temples + 2 extra temples on marked fields; the other marked fields are
  -- plain landscape: no lower-case letter is left
  local temples = 0
  for _ in pairs(st.temples) do temples = temples + 1 end
  assert(temples == 6, temples)
  for r = 1, 6 do assert(not st.map[r]:find("[a-z]")) end
  -- 4 cities with 3 goods each; 24 - 12 = 12 goods stay in the box
  local cities = 0
  for _, goods in pairs(st.cities) do cities = cities + 1; assert(#goods == 3) end
  assert(cities == 4 and #st.goods_supply == 12)
  -- displays: animals 1 (2 seats) or 2 (3-4 seats); equipment seats + 1; 3 map halves
  assert(#st.animals == (n == 2 and 1 or 2) and #st.equipment == n + 1 and #st.maps == 3)
  -- 6 weather tiles face down, 2 left in the box
  assert(#st.weather == 6 and #st.weather_box == 2)
  -- each seat: one of each resource, 3 free slots, 10 yak tiles (top shown), 2 start cards,
  -- 2 map halves of different colours, 9 candles, six dice not rolled yet (seed: "Entscheidet
  -- euch ... nun noch für ein Startfeld ... Und dann wirft jeder noch die eigenen sechs Würfel")
  for s = 1, n do
    local p = st.players[s]
    assert(common.resource_total(p) == 5 and p.exhaustion == 0)
    assert(p.yak and #p.stack == 9)
    assert(#p.equipment == 2 and p.candles == 9)
    assert(#p.halves == 2 and p.halves[1]:match("^%a+") ~= p.halves[2]:match("^%a+"))
    for _, d in pairs(p.dice) do assert(d.pips == 0 and d.at == "unrolled") end
  end
  -- start fields in reverse turn order: the seat before the start player chooses first
  assert(st.phase == "start")
  local order = st.order
  assert(st.choosing[1] == order[n] and st.choosing[n] == order[1])
  local fields = setup.start_fields(g)
  assert(#fields == 4 and fields[1][2] == 1)
  fake.play(g, order[n], "start 2")
  if n > 2 then
    assert(fake.offered(g, order[n - 1], "start 2") == "disabled", "a start field holds one yak")
    assert(fake.reason(g, order[n - 1], "start 2") == "start field 2 is taken")
  end
  -- the dice are rolled once the last yak stands on its start field, not before
  for i = n - 1, 1, -1 do
    for _, d in pairs(st.players[order[i + 1]].dice) do assert(d.at == "unrolled") end
    local d = fake.decision(g, order[i])
    for _, opt in ipairs(d.options) do
      if type(opt) == "string" then fake.play(g, order[i], opt); break end
    end
  end
  assert(st.phase == "turn")
  for s = 1, n do
    for _, d in pairs(st.players[s].dice) do assert(d.pips >= 1 and d.pips <= 6 and d.at == "free") end
  end
end

-- the long game: 8 rounds, 6 landscape boards (8 boards), 8 weather tiles, 8 temples
local g = fake.new { seats = 4, seed = 12, options = { ["long-game"] = true }, setup = false }
assert(#g.state.route == 8 and #g.state.weather == 8 and #g.state.weather_box == 0)
assert(g.data.game.rounds == 8)
local temples = 0
for _ in pairs(g.state.temples) do temples = temples + 1 end
assert(temples == 8)

-- the board fits 120 columns: a 4-seat long game with both modules, every seat's view
local render = require "rules.render"
g = fake.new { seats = 4, seed = 13, options = { ["long-game"] = true, characters = true, tents = true } }
for _ = 1, 40 do   -- a few turns in, so that hands and displays hold something
  local d = g.rules.decisions(g)[1]
  for _, o in ipairs(d.options) do if type(o) == "string" then fake.play(g, d.seat, o); break end end
end
local function check_width(game, width, max)
  game.width = width
  for _, lang in ipairs({ "en", "de", "el" }) do
    game.lang = lang
    local text = render.render(game.state, 1, game)
    local n = 0
    for line in (text .. "\n"):gmatch("(.-)\n") do
      local plain = line:gsub("{[%a/]*}", "")
      assert(utf8.len(plain) <= max, lang .. ": too wide (" .. utf8.len(plain) .. "): " .. plain)
      if width then assert(not plain:find(" $"), lang .. ": a blank at the end of: " .. plain) end
      n = n + 1
    end
    assert(n >= 20 and text:find("#") and text:find(({ en = "Legend", de = "Legende", el = "Υπόμνημα" })[lang]))
    assert(text:find("{dim}" .. string.rep("-", width or 119) .. "{/}", 1, true), "the rule line")
  end
  game.width = nil
end
-- in English, German and Greek
check_width(g, nil, 120)
-- on an 80-column screen (g.width) a game of six boards fits 80 (its route's rows are 80
-- wide; the long game's eight boards are not), the rule line is 80 dashes and no line ends
-- in a blank
local short = fake.new { seats = 4, seed = 13, options = { characters = true, tents = true } }
for _ = 1, 40 do
  local d = short.rules.decisions(short)[1]
  for _, o in ipairs(d.options) do if type(o) == "string" then fake.play(short, d.seat, o); break end end
end
check_width(short, 80, 80)

-- the invariants catch what they guard: each broken state is named
local function broken(edit, want)
  local h = fake.new { seats = 3, seed = 14 }
  assert(h.rules.check(h) == nil)
  edit(h.state)
  local bad = h.rules.check(h)
  assert(bad and bad:find(want, 1, true), tostring(bad) .. " / " .. want)
end
broken(function(st) st.players[1].res.coin = st.players[1].res.coin + 1 end, "resources not conserved")
broken(function(st) table.remove(st.animal_deck) end, "animal cards not conserved")
broken(function(st) st.players[2].equipment[#st.players[2].equipment + 1] = "rope" end, "equipment cards not conserved")
broken(function(st) table.remove(st.map_pile) end, "map halves not conserved")
broken(function(st) table.remove(st.goods_supply) end, "goods not conserved")
broken(function(st) st.players[1].exhaustion = 4 end, "exhaustion markers")
broken(function(st) st.players[1].pos = { 7, 1 } end, "off the route")
broken(function(st) st.players[1].pos = { 2, 3 } end, "on a mountain")     -- start board (2,3) is M
broken(function(st) st.specials.mask = 2 end, "special good mask")
