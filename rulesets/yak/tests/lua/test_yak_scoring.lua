-- rulesets/yak/tests/lua/test_yak_scoring.lua
-- Yak scoring from worked examples; the arithmetic is in the comments.
-- Towers are written top row first ("." empty): R red, G green, B blue, Y yellow, O orange,
-- P purple, W white, K black, * crystal.
local fake = require "yak_fake"
local score = require "rules.score"
local tables = require "cairn.tables"

local data = fake.fixture.data

local function tower_total(lines, d)
  return score.tower_score(d or data, fake.tower(lines))
end

-- 1. A group of six stones scores 16 (the seed's example).
--    base R R R G B, level 2 R R R .: the six reds touch (base run + the three above it).
--    red 6 = 16; 1 group -> no count bonus; G and B single = 2. Total 18.
local d = tower_total({ "", "", "", "RRR.", "RRRGB" })
assert(#d.groups == 1 and d.groups[1].size == 6 and d.groups[1].points == 16)
assert(d.count_bonus == 0 and d.singles == 2 and d.total == 18, d.total)

-- 2. Group-count bonus: 3 groups = 4, 4 = 8, 5 = 12, 6 = 16, 7 = 20; fewer 0; 8+ as 7.
local expect = { [0] = 0, 0, 0, 4, 8, 12, 16, 20, 20, 20 }
for n = 0, 9 do
  assert(tables.at_least(data.scoring.group_count_bonus, n, { key = "groups" }) == expect[n], n)
end
--    A full tower with 7 pairs:  top W | K K | B B P | G G P Y | R R O O Y
--    pairs R O Y G B K P = 7 x 2 = 14; 7 groups = 20; the top W single = 1. Total 35.
d = tower_total({ "W", "KK", "BBP", "GGPY", "RROOY" })
assert(#d.groups == 7 and d.group_points == 14 and d.count_bonus == 20 and d.singles == 1)
assert(d.total == 35, d.total)
--    The lower two levels alone: R O Y G pairs (8) + 4 groups (8) + P single (1) = 17.
d = tower_total({ "GGPY", "RROOY" })
assert(#d.groups == 4 and d.count_bonus == 8 and d.total == 17, d.total)
--    3 groups: base R R G G B, (1,3) B on G and B: R2 G2 B2 = 6, +4 = 10.
d = tower_total({ "...B", "RRGGB" })
assert(#d.groups == 3 and d.total == 10, d.total)

-- 3. Crystals take the best colours, each crystal in a tower a different colour.
--    level 2: G *       base: R R * G G      crystals A = (0,2), B = (1,1)
--    A red, B green:  R3 {00 01 02} 4 + G2 {10 11} 2 + G2 {03 04} 2 = 8, 3 groups +4 = 12
--    A green, B red:  G3 4 + R3 {00 01 11} 4 + single (1,0) 1 = 9
--    A lone, B green: three pairs 6 + single 1 + 3 groups 4 = 11; the rest score less.
--    Both green (not allowed) would join G5 {02 03 04 11 10} 11 + R2 2 = 13.
d = tower_total({ "G*..", "RR*GG" })
assert(d.total == 12, d.total)
assert(d.crystals[1] == "red" and d.crystals[2] == "green", table.concat(d.crystals, ","))
local free = tables.copy(data)
free.scoring.crystals_distinct = false
assert(tower_total({ "G*..", "RR*GG" }, free).total == 13, "without the rule both go green")
--    base R * R * R: both crystals red would make red 5 = 11, but they must differ:
--    (0,1) red -> R3 {00 01 02} 4; (0,3) another colour -> single; (0,4) single: 4 + 2 = 6.
d = tower_total({ "R*R*R" })
assert(d.total == 6 and d.crystals[1] == "red" and d.crystals[2] ~= "red", d.total)
assert(tower_total({ "R*R*R" }, free).total == 11)

--    a lone crystal: base R * B . . -- red: R2 2 + B 1 = 3; blue: the same; lone: 3 singles = 3.
--    The first best found wins: red (the data's colour order). 3 singles would be the same 3.
d = tower_total({ "R*B.." })
assert(d.total == 3 and d.crystals[1] == "red", d.total)

-- 4. The whole score pad for a seat: groups, count, singles, crystals, stupa, most food.
local g = fake.new { seats = 3, seed = 1 }
g.state.players[1].tower = fake.tower({ "", "", "", "RRR.", "RRRGB" })   -- 18, as in 1.
g.state.players[2].tower = fake.tower({ "", "", "", "", "R*RG." })       -- R3 4 + G 1 = 5
g.state.players[3].tower = fake.tower({ "", "", "", "", "" })
g.state.players[1].food = { meat = 2, milk = 1, bread = 2 }  -- 5
g.state.players[2].food = { meat = 0, milk = 5, bread = 0 }  -- 5: tied for most food
g.state.players[3].food = { meat = 1, milk = 0, bread = 0 }  -- 1
g.state.stupa = 1
local s = g.rules.score(g)
-- seat 1: 16 + 0 + 2 + stupa 3 + most food 3 = 24
assert(s[1].total == 24, s[1].total)
-- seat 2: 4 + 0 + 1 + 0 + 3 (tie shares the full bonus) = 8; crystals line says "red"
assert(s[2].total == 8, s[2].total)
local found = false
for _, l in ipairs(s[2].breakdown) do if l.label == "crystals as red" then found = true end end
assert(found, "the crystal's colour is in the breakdown")
-- seat 3: nothing
assert(s[3].total == 0)
-- tie-breaks: food, then stones in the tower: 5 food, 8 stones -> 508; 5 food, 4 stones -> 504
assert(s[1].tiebreak == 5 * 100 + 8 and s[2].tiebreak == 5 * 100 + 4)
-- every breakdown adds up to its total
for _, e in ipairs(s) do
  local sum = 0
  for _, l in ipairs(e.breakdown) do sum = sum + l.points end
  assert(sum == e.total)
end
-- nobody with food: nobody scores the most-food bonus (scoring.most_food.min_food = 1)
for i = 1, 3 do g.state.players[i].food = { meat = 0, milk = 0, bread = 0 } end
local fb = score.food_bonus(g.data, g.state.players)
assert(fb[1] == 0 and fb[2] == 0 and fb[3] == 0)
print("test_yak_scoring ok")
