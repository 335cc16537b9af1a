-- rulesets/yak/tests/lua/gen_scenarios.lua
-- Makes Yak's scenario tests, tests/{scoring,build,round,master_builder}.yaml of this
-- ruleset (the format of docs/testing.md: name, players, names, state, play, expect,
-- refuse). Each start state is built here with the fake g (yak_fake.lua) from the data
-- cairn loads and dumped in full; the expected values are written by hand with their
-- arithmetic and checked here against the Lua rules, so the files and the rules agree.
-- A generator of the manifest (`generate:`): `cairn test yak` fails when a file is not
-- what this script makes, and `cairn test yak --regen` rewrites it.

local fake = require "yak_fake"
local Y = require "yaml_emit"
local tables = require "cairn.tables"

local NAMES = { "Ann", "Bob", "Cai", "Dee" }
local ALL7 = { "red", "orange", "yellow", "green", "blue", "purple", "white" }   -- 3 seats: no black
local ALL6 = { "red", "orange", "yellow", "green", "blue", "purple" }            -- 2 seats

-- a fresh game at sunrise of day 1 with seat `holder` holding the baby yak
local function base(seats, edit, lang, options)
  local g = fake.new { seats = seats, seed = 1, lang = lang, options = options }
  if seats == 3 then g.state.colours = tables.copy(ALL7) end
  if seats == 2 then g.state.colours = tables.copy(ALL6) end
  g.state.holder = 1
  for i, c in ipairs(g.state.carts) do c.stones = ({ { "red", "blue", "green" }, { "yellow", "orange", "red" },
    { "green", "purple", "blue" }, { "orange", "yellow", "purple" } })[i] end
  if edit then edit(g.state, g) end
  fake.rebalance(g)
  return g
end

local function value_at(v, path)
  for part in path:gmatch("[^%.]+") do
    local key, rest = part:match("^([^%[]*)(.*)$")
    if key ~= "" then v = v and v[key] end
    for i in rest:gmatch("%[(%d+)%]") do v = v and v[tonumber(i)] end
  end
  return v
end

local function same(a, b)
  if type(a) ~= "table" or type(b) ~= "table" then return a == b end
  for k, v in pairs(a) do if not same(v, b[k]) then return false end end
  for k in pairs(b) do if a[k] == nil then return false end end
  return true
end

-- play "seat id" strings on g
local function run(g, plays)
  for _, p in ipairs(plays) do
    local seat, id = p:match("^(%d+) (.+)$")
    fake.play(g, tonumber(seat), id)
  end
end

-- the plays of "first enabled option" until done(g); at sunrise always Restock, whose
-- choices do not depend on the stones drawn (so the plays replay under any rng)
local function auto(g, done)
  local out = {}
  while not done(g) do
    local d = fake.decisions(g)[1]
    assert(d, "auto: nobody is asked")
    for _, o in ipairs(d.options) do
      if not o.disabled and (o.id == "card restock" or not o.id:match("^card ")) then
        out[#out + 1] = d.seat .. " " .. o.id
        fake.play(g, d.seat, o.id)
        break
      end
    end
  end
  return out
end

-- check a test's expectations against the Lua rules
local function verify(t, g)
  local ex = t.expect or {}
  for path, want in pairs(ex.state or {}) do
    assert(same(value_at(g.state, path), want), t.name .. ": state " .. path)
  end
  if ex.over ~= nil then assert((#g.rules.decisions(g) == 0) == ex.over, t.name .. ": over") end
  if ex.asked then
    local got = {}
    for _, d in ipairs(g.rules.decisions(g)) do got[#got + 1] = d.seat end
    assert(same(got, ex.asked), t.name .. ": asked")
  end
  if ex.score then
    local s = g.rules.score(g)
    for i, want in ipairs(ex.score) do assert(s[i].total == want, t.name .. ": score of seat " .. i .. " is " .. s[i].total) end
  end
  if ex.enabled or ex.disabled then
    local d = fake.decision(g, ex.seat)
    local en, dis = {}, {}
    for _, o in ipairs(d.options) do
      if o.disabled then dis[o.id] = o.disabled else en[#en + 1] = o.id end
    end
    if ex.enabled then assert(same(en, ex.enabled), t.name .. ": enabled " .. table.concat(en, ", ")) end
    if ex.disabled then assert(same(dis, ex.disabled), t.name .. ": disabled") end
  end
  for _, r in ipairs(t.refuse or {}) do
    local seat, id = r.play:match("^(%d+) (.+)$")
    local why = fake.refused(g, tonumber(seat), id)
    assert(why:find(r.reason, 1, true), t.name .. ": refused with " .. why)
  end
end

local files = {}   -- path inside the ruleset -> text: what this script returns

local function emit(file, header, tests)
  local lines = {}
  for l in header:gmatch("[^\n]+") do lines[#lines + 1] = l end
  for _, t in ipairs(tests) do
    local g = t.game()
    local start = tables.copy(g.state)
    run(g, t.play or {})
    local plays = tables.copy(t.play or {})
    if t.auto then for _, p in ipairs(auto(g, t.auto)) do plays[#plays + 1] = p end end
    verify(t, g)
    lines[#lines + 1] = ""
    for l in t.comment:gmatch("[^\n]+") do lines[#lines + 1] = "# " .. l end
    lines[#lines + 1] = "- name: " .. Y.flow(t.name)
    lines[#lines + 1] = "  players: " .. #start.players
    local names = {}
    for i = 1, #start.players do names[i] = NAMES[i] end
    lines[#lines + 1] = "  names: " .. Y.flow(names)
    if t.options then lines[#lines + 1] = "  options: " .. Y.flow(t.options) end
    if t.lang then lines[#lines + 1] = "  lang: " .. t.lang end
    lines[#lines + 1] = "  seed: 1"
    lines[#lines + 1] = "  state:"
    for _, l in ipairs(Y.block(start, "    ")) do lines[#lines + 1] = l end
    if #plays > 0 then
      lines[#lines + 1] = "  play:"
      for _, p in ipairs(plays) do lines[#lines + 1] = "    - " .. Y.flow(p) end
    end
    if t.expect then
      lines[#lines + 1] = "  expect:"
      for _, l in ipairs(Y.block(t.expect, "    ")) do lines[#lines + 1] = l end
    end
    if t.refuse then
      lines[#lines + 1] = "  refuse:"
      for _, l in ipairs(Y.block(t.refuse, "    ")) do lines[#lines + 1] = l end
    end
  end
  files[file] = table.concat(lines, "\n") .. "\n"
end

local cards = function(list) local out = {} for s, c in ipairs(list) do out[#out + 1] = s .. " card " .. c end return out end
local function concat(...)
  local out = {}
  for _, l in ipairs({ ... }) do for _, x in ipairs(l) do out[#out + 1] = x end end
  return out
end

---------------------------------------------------------------------------- scoring
emit("tests/scoring.yaml", [[
# scoring.yaml: Yak's score pad from worked examples (arithmetic in the comments).
# GENERATED with its checks by tests/lua/gen_scenarios.lua (cairn test yak --regen); edit there.
# Towers: rows from the base up (tower[1] is the base), false = empty.]], {
  {
    name = "a group of six scores 16",
    comment = [[
Ann: base R R R G B, level 2 R R R -: six touching reds = 16; 1 group, no bonus;
     G and B single 2; stupa 3; most food (5, tied with Bob) 3.   16 + 2 + 3 + 3 = 24
Bob: base R * R G: the crystal joins the reds, R3 = 4; G single 1; most food 3 = 8
Cai: nothing (1 food).   Ranks: Ann 1, Bob 2, Cai 3]],
    game = function()
      return base(3, function(st)
        st.phase = "over"
        for _, c in ipairs(st.carts) do c.stones = { "crystal" } end
        st.players[1].tower = fake.tower({ "", "", "", "RRR.", "RRRGB" })
        st.players[2].tower = fake.tower({ "", "", "", "", "R*RG." })
        st.players[1].food = { meat = 2, milk = 1, bread = 2 }
        st.players[2].food = { meat = 0, milk = 5, bread = 0 }
        st.players[3].food = { meat = 1, milk = 0, bread = 0 }
        st.carts[3].food = { meat = 3, milk = 2, bread = 0 }
        st.stupa, st.last_round = 1, 1
      end)
    end,
    expect = { over = true, score = { 24, 8, 0 }, ranking = { 1, 2, 3 } },
  },
  {
    name = "seven groups score the count bonus of 20",
    comment = [[
Ann's full tower, top down:  W | K K | B B P | G G P Y | R R O O Y
  seven pairs R O Y G B K P = 7 x 2 = 14; 7 groups = 20; the top W single = 1;
  stupa 3; most food (all tied at 3) 3.   14 + 20 + 1 + 3 + 3 = 41
Bob, Cai, Dee: most food 3 each.   Ranks: Ann 1, the others 2]],
    game = function()
      return base(4, function(st)
        st.phase = "over"
        for _, c in ipairs(st.carts) do c.stones = { "crystal" } end
        st.players[1].tower = fake.tower({ "W", "KK", "BBP", "GGPY", "RROOY" })
        st.stupa, st.last_round = 1, 1
      end)
    end,
    expect = { score = { 41, 3, 3, 3 }, ranking = { 1, 2, 2, 2 } },
  },
  {
    name = "crystals take the best colours, each a different one",
    comment = [[
Ann: level 2 G *, base R R * G G (crystals A = base middle, B = level 2 right)
  A red, B green: R3 4 + G2 2 + G2 2 = 8, 3 groups +4 = 12   <- best allowed
  A green, B red: G3 4 + R3 4 + single 1 = 9;  A lone, B green: 6 + 1 + 4 = 11
  both green (not allowed: one colour per crystal) would be G5 11 + R2 2 = 13
  12 + most food 3 = 15
Bob: base R * R * R: both red would be R5 = 11, but they must differ:
  R3 (first crystal red) 4 + the other crystal single 1 + the last R single 1 = 6; + 3 = 9]],
    game = function()
      return base(2, function(st)
        st.phase = "over"
        for _, c in ipairs(st.carts) do c.stones = { "crystal" } end
        st.players[1].tower = fake.tower({ "", "", "", "G*..", "RR*GG" })
        st.players[2].tower = fake.tower({ "", "", "", "", "R*R*R" })
        st.last_round = 1
      end)
    end,
    expect = { score = { 15, 9 } },
  },
})

---------------------------------------------------------------------------- master builder
emit("tests/master_builder.yaml", [[
# master_builder.yaml: the bonus cards of the master-builder variant (MODELLED cards).
# GENERATED with its checks by tests/lua/gen_scenarios.lua (cairn test yak --regen); edit there.]], {
  {
    name = "bonus cards score for every player",
    options = { "master_builder" },
    comment = [[
Revealed: majority (5), crown (4), pure (4).
Ann: base R R R G B, level 2 R R R -: red 6 = 16, G and B single 2 = 18; most food (3 each) 3;
     majority: 6 reds beat Bob's 2 purples, 5; crown: no top stone, 0; pure: 8 stones, no
     crystal, 4.   18 + 3 + 5 + 0 + 4 = 30
Bob: base P P O Y *: P2 2, the crystal yellow with the Y: Y2 2, O single 1 = 5; 2 groups, no
     bonus; most food 3; majority 0; crown 0; pure: a crystal, 0.   5 + 3 = 8]],
    game = function()
      return base(2, function(st)
        st.phase = "over"
        for _, c in ipairs(st.carts) do c.stones = { "crystal" } end
        st.players[1].tower = fake.tower({ "", "", "", "RRR.", "RRRGB" })
        st.players[2].tower = fake.tower({ "", "", "", "", "PPOY*" })
        st.bonus = { "majority", "crown", "pure" }
        st.last_round = 1
      end, nil, { master_builder = true })
    end,
    expect = { score = { 30, 8 } },
  },
})

---------------------------------------------------------------------------- build
emit("tests/build.yaml", [[
# build.yaml: the Build card: prices, restrictions and the two-kinds limit with their
# reasons, overflow to the market, placement.
# GENERATED with its checks by tests/lua/gen_scenarios.lua (cairn test yak --regen); edit there.
# Seat s stands at stop s: Ann no-meat, Bob no-milk, Cai no-bread, Dee two-kinds.]], {
  {
    name = "the no-meat cart refuses meat",
    comment = [[
Ann builds 1 red stone (1 food) at the no-meat cart: meat is refused, milk and bread not.]],
    game = function()
      return base(4, function(st) st.players[1].food = { meat = 3, milk = 2, bread = 2 } end)
    end,
    play = concat(cards { "build", "restock", "restock", "restock" }, { "1 take red", "1 buy" }),
    expect = { seat = 1, enabled = { "pay milk", "pay bread" },
      disabled = { ["pay meat"] = "the no-meat cart does not take meat" },
      state = { ["action.owed"] = 1 } },
    refuse = { { play = "1 pay meat", reason = "does not take meat" } },
  },
  {
    name = "reasons in Greek",
    lang = "el",
    comment = [[
The same refusal with --lang el: the no-meat cart does not take meat.]],
    game = function()
      return base(4, function(st) st.players[1].food = { meat = 3, milk = 2, bread = 2 } end, "el")
    end,
    play = concat(cards { "build", "restock", "restock", "restock" }, { "1 take red", "1 buy" }),
    expect = { seat = 1, disabled = { ["pay meat"] = "το καρότσι χωρίς κρέας δεν δέχεται κρέας" } },
    refuse = { { play = "1 pay meat", reason = "δεν δέχεται κρέας" } },
  },
  {
    name = "a crystal costs one more",
    comment = [[
Ann has 1 milk (and meat, which this cart refuses): at most 1 food here. A crystal costs
1 + 1 = 2: refused with the price; a plain stone (1) is fine.]],
    game = function()
      return base(4, function(st)
        st.carts[1].stones = { "crystal", "red", "blue" }
        st.players[1].food = { meat = 2, milk = 1, bread = 0 }
      end)
    end,
    play = cards { "build", "restock", "restock", "restock" },
    expect = { seat = 1, enabled = { "take red", "take blue" }, disabled = {
      ["take crystal"] = "1 stone with 1 crystal costs 2 food; you can pay at most 1 at this cart" } },
    refuse = { { play = "1 take crystal", reason = "costs 2 food" } },
  },
  {
    name = "crystal plus a stone is beyond reach: pay straight away",
    comment = [[
Ann (milk 2, bread 1: at most 3 here) takes the crystal (2). Another stone would make
2 stones (3) + 1 crystal = 4 > 3, so nothing more can be taken and she pays 2 at once.]],
    game = function()
      return base(4, function(st)
        st.carts[1].stones = { "crystal", "red", "blue" }
        st.players[1].food = { meat = 0, milk = 2, bread = 1 }
      end)
    end,
    play = concat(cards { "build", "restock", "restock", "restock" }, { "1 take crystal" }),
    expect = { seat = 1, enabled = { "pay milk", "pay bread" },
      disabled = { ["pay meat"] = "the no-meat cart does not take meat" },
      state = { ["action.step"] = "pay", ["action.owed"] = 2, ["action.stones"] = { "crystal" } } },
  },
  {
    name = "the two-kinds cart takes at most two kinds",
    comment = [[
Dee (meat 1, milk 1, bread 2) holds the baby yak and buys red + blue (3 food) at the
two-kinds cart. After milk, meat would leave 1 to pay with no milk or meat left (refused);
after milk and bread a third kind is refused.]],
    game = function()
      return base(4, function(st)
        st.holder = 4
        st.carts[4].stones = { "red", "blue", "green" }
        st.players[4].food = { meat = 1, milk = 1, bread = 2 }
      end)
    end,
    play = concat(cards { "restock", "restock", "restock", "build" },
      { "4 take red", "4 take blue", "4 pay milk", "4 pay bread" }),
    expect = { seat = 4, enabled = { "pay bread" },
      disabled = { ["pay meat"] = "this cart takes at most 2 kinds of food in one payment",
        ["pay milk"] = "you have no milk left" },
      state = { ["action.owed"] = 1, ["players[4].food"] = { meat = 1, milk = 0, bread = 1 } } },
    refuse = { { play = "4 pay meat", reason = "at most 2 kinds" } },
  },
  {
    name = "food beyond the cart's 9 goes to the market",
    comment = [[
The no-meat cart holds milk 5 + bread 4 = 9. Ann pays 3 milk for red + blue: all 3 go to
the market (0 + 3 = 3 milk there: all 15 milk were elsewhere); the cart keeps 5 milk.
She places both stones on the base.]],
    game = function()
      return base(4, function(st)
        st.carts[1].food = { meat = 0, milk = 5, bread = 4 }
        st.carts[3].food = { meat = 3, milk = 1, bread = 0 }
        st.players[1].food = { meat = 0, milk = 3, bread = 0 }
      end)
    end,
    play = concat(cards { "build", "restock", "restock", "restock" },
      { "1 take red", "1 take blue", "1 pay milk", "1 pay milk", "1 pay milk", "1 place l1p3", "1 place l1p4" }),
    expect = { state = { ["carts[1].food.milk"] = 5, ["market.milk"] = 3, ["players[1].food.milk"] = 0,
      ["players[1].tower[1]"] = { false, false, "red", "blue", false } } },
  },
  {
    name = "stones go on the base, touching, or on two stones",
    comment = [[
Ann's base holds R R at the left. Her new stone may go next to them (l1p3) or on them
(l2p1); nowhere else.]],
    game = function()
      return base(4, function(st)
        st.players[1].tower = fake.tower({ "", "", "", "", "RR..." })
        st.players[1].food = { meat = 1, milk = 2, bread = 1 }
      end)
    end,
    play = concat(cards { "build", "restock", "restock", "restock" }, { "1 take green", "1 buy", "1 pay milk" }),
    expect = { seat = 1, enabled = { "place l1p3", "place l2p1" } },
  },
})

---------------------------------------------------------------------------- round
-- every stone in a tower or a cart, so the bag holds only the fog stones still in play; Ann
-- (seat 1) has a Restock's worth of food, the others none; `fog` edits the fog record first
local function empty_quarry(fog)
  local g = fake.new { seats = 4, seed = 1 }
  local st = g.state
  if fog then for k, v in pairs(fog) do st.fog[k] = v end end
  local all = {}
  for _, c in ipairs(st.colours) do for _ = 1, 8 do all[#all + 1] = c end end
  for _ = 1, 8 do all[#all + 1] = "crystal" end
  local i = 0
  local function next_stone() i = i + 1; return all[i] end
  for s = 1, 4 do
    local n = (s == 1) and 15 or 14
    for r = 1, 5 do for c = 1, #st.players[s].tower[r] do
      if n > 0 then st.players[s].tower[r][c] = next_stone(); n = n - 1 end
    end end
  end
  for ci, cart in ipairs(st.carts) do
    cart.stones = {}
    for _ = 1, (ci == 1) and 3 or 4 do cart.stones[#cart.stones + 1] = next_stone() end
  end
  for s = 2, 4 do st.players[s].food = { meat = 0, milk = 0, bread = 0 } end
  st.holder, st.stupa, st.last_round = 1, 1, 3
  fake.rebalance(g)
  return g
end

emit("tests/round.yaml", [[
# round.yaml: sunrise secrecy, Restock at the cap, the end trigger plus one more day, fog
# reversing the carts, the two-seat extra cart. (Fog in a Market draw and the second fill
# depend on the rng: see tests/lua/test_yak_round.lua.)
# GENERATED with its checks by tests/lua/gen_scenarios.lua (cairn test yak --regen); edit there.]], {
  {
    name = "sunrise choices stay secret",
    comment = [[
Bob picks Market. Ann, Cai and Dee are still asked; Ann's view shows Bob's card as "?",
Bob's own view shows it, and everyone sees that Bob is ready.]],
    game = function() return base(4) end,
    play = { "2 card market" },
    expect = { asked = { 1, 3, 4 }, state = { ["ready[2]"] = true },
      view = { seat = 1, paths = { ["chosen[2]"] = "?", ["ready[2]"] = true } } },
  },
  {
    name = "restock up to the cap of 8",
    comment = [[
Ann holds 7 food; the no-meat cart has 3 milk and 4 stones (full). She takes milk: only 1
fits (7 + 1 = 8), 2 stay in the cart; the full cart draws no stone.]],
    game = function()
      return base(4, function(st)
        st.players[1].food = { meat = 3, milk = 2, bread = 2 }
        st.carts[1].stones = { "red", "blue", "green", "red" }
      end)
    end,
    play = concat(cards { "restock", "restock", "restock", "restock" }, { "1 take milk" }),
    expect = { state = { ["players[1].food.milk"] = 3, ["carts[1].food.milk"] = 2,
      ["carts[1].stones"] = { "red", "blue", "green", "red" } } },
  },
  {
    name = "level 4 ends the game after one more day",
    comment = [[
Ann's tower has 13 stones; her red fills level 4: she takes the stupa, and the last day
is day 2 (this day + 1). Everyone restocks to the end of day 2; then the game is over.
Ann: R2 2 + G2 2 + B2 2 + Y... (see the test's score) -- only the stupa is checked here.]],
    game = function()
      return base(4, function(st)
        st.players[1].tower = fake.tower({ "", "R.", "GYR", "BBGY", "RRGGB" })
        st.carts[1].stones = { "red" }
      end)
    end,
    play = concat(cards { "build", "restock", "restock", "restock" }, { "1 take red", "1 pay milk", "1 place l4p2" }),
    auto = function(g) return g.state.phase == "over" end,
    expect = { over = true, state = { stupa = 1, last_round = 2, round = 2 } },
  },
  {
    name = "fog from an empty quarry turns the yaks round",
    comment = [[
Every stone is in a tower or a cart; the bag holds only the 5 fog stones. Ann restocks and
her cart (3 black stones) draws 1: fog, fog, fog, fog, fog, then the bag is empty. Five reversals:
the yaks now face the other way (-1). The 5 fog fill the mountain track (5 spaces): first
fill, all 5 go back into the bag. Bob, Cai and Dee have no food, so their Build does
nothing. At sunset every cart moves one stop back: the no-meat cart goes from stop 1 to 4.]],
    game = function()
      local g = empty_quarry()
      assert(require("cairn.bag").count(g.state.bag) == 5 and g.state.bag.fog == 5)
      return g
    end,
    play = concat(cards { "restock", "build", "build", "build" }, { "1 take milk" }),
    auto = function(g) return g.state.round == 2 end,
    expect = { state = { direction = -1, fog = { track = 0, fills = 1, out = 0, aside = 0 },
      bag = { fog = 5 }, ["carts[1].id"] = "no_meat", ["carts[1].stop"] = 4, ["carts[1].stones"] = {
        "black", "black", "black" }, ["players[1].food.milk"] = 4 } },
  },
  {
    name = "after the last fill, fog goes straight back into the bag",
    comment = [[
The mountain track has filled twice (fog.fills has 2 entries): 4 fog stones left the game
and 1 is in the bag, the only stone there. The seed: "The track fills twice in a game,
after which only one fog stone stays in the bag"; fog.after_last_fill = bag: a fog drawn
now goes straight back into the bag, not onto the track. Ann restocks and her cart draws 1:
the fog (1 reversal: the yaks face -1), then the bag is empty. The fog goes back: bag 1
fog, track 0, fills 2, out 4; the no-meat cart moves back from stop 1 to 4.]],
    game = function()
      local g = empty_quarry { fills = 2, out = 4 }
      assert(require("cairn.bag").count(g.state.bag) == 1 and g.state.bag.fog == 1)
      return g
    end,
    play = concat(cards { "restock", "build", "build", "build" }, { "1 take milk" }),
    auto = function(g) return g.state.round == 2 end,
    expect = { state = { direction = -1, fog = { track = 0, fills = 2, out = 4, aside = 0 },
      bag = { fog = 1 }, ["carts[1].stop"] = 4, ["carts[1].stones"] = { "black", "black", "black" } } },
  },
  {
    name = "two seats: the extra cart comes round",
    comment = [[
With two seats there are three carts; the no-bread cart stands at stop 3, in front of
nobody. After one day (carts move to the next stop) it stands in front of Ann.]],
    game = function() return base(2) end,
    play = cards { "restock", "restock" },
    auto = function(g) return g.state.round == 2 end,
    expect = { state = { ["carts[3].id"] = "no_bread", ["carts[3].stop"] = 1, stops = 3 } },
  },
})

---------------------------------------------------------------------------- market
emit("tests/market.yaml", [[
# market.yaml: the Market card takes exactly two food of the player's choice (the seed:
# "take two food of your choice", Greek "Πάρτε δύο είδη διατροφής"); it stops early only
# when no take is legal (economy.market.take_rule: exactly; the `up_to` reading is tested
# in tests/lua/test_yak_round.lua).
# GENERATED with its checks by tests/lua/gen_scenarios.lua (cairn test yak --regen); edit there.]], {
  {
    name = "the Market takes exactly two food",
    comment = [[
Ann (the baby yak, so she acts first at noon) picks Market, the others Restock. The market
holds meat 2, milk 2, bread 2 and Ann 1 of each (3 of 8 food). After `take meat` the market
has 2 - 1 = 1 meat and Ann 1 + 1 = 2; a second take is still legal, so she is asked again
and `done` is not offered: all three foods may be taken, two of one kind included.]],
    game = function() return base(4) end,
    play = concat(cards { "market", "restock", "restock", "restock" }, { "1 take meat" }),
    expect = { seat = 1, enabled = { "take meat", "take milk", "take bread" },
      state = { ["market.meat"] = 1, ["players[1].food.meat"] = 2, ["action.took"] = 1,
        ["action.step"] = "take" } },
    refuse = { { play = "1 done", reason = "done" } },
  },
  {
    name = "the second take ends the taking and draws the stones",
    comment = [[
The same Market: `take meat`, then `take milk`. Ann holds meat 1 + 1 = 2, milk 1 + 1 = 2,
bread 1 (5 of 8); the market keeps meat 2 - 1 = 1, milk 2 - 1 = 1, bread 2. Two were taken
(took = 2), so 3 stones are drawn and she is asked where to put one (step "put").]],
    game = function() return base(4) end,
    play = concat(cards { "market", "restock", "restock", "restock" }, { "1 take meat", "1 take milk" }),
    expect = { state = { ["market.meat"] = 1, ["market.milk"] = 1, ["market.bread"] = 2,
      ["players[1].food"] = { meat = 2, milk = 2, bread = 1 }, ["action.took"] = 2,
      ["action.step"] = "put" } },
  },
  {
    name = "a full reserve stops the Market after one food",
    comment = [[
Ann holds meat 3, milk 2, bread 2 = 7 of 8 food. After `take bread` she holds 7 + 1 = 8,
the cap: no second take is legal, so the taking ends at 1 (took = 1) and the 3 stones are
drawn at once (step "put"); she was never offered `done`.]],
    game = function()
      return base(4, function(st) st.players[1].food = { meat = 3, milk = 2, bread = 2 } end)
    end,
    play = concat(cards { "market", "restock", "restock", "restock" }, { "1 take bread" }),
    expect = { state = { ["players[1].food.bread"] = 3, ["action.took"] = 1, ["action.step"] = "put" } },
  },
})

return files
