-- rulesets/kathmandu/tests/lua/test_scoring.lua
-- Every line of the score pad, with the arithmetic by hand.
local fake = require "kfake"
local score = require "rules.score"

local g = fake.new { seats = 3, seed = 7 }
local data, st = g.data, g.state

-- the yak stack: 10 tiles left -28, 5 left -6, 1 left 0, all fulfilled +10
local p = { stack = {}, yak = false }
local function stack(n)
  p.stack = {}
  for i = 1, n - 1 do p.stack[i] = "snow" end
  p.yak = n > 0 and "snow" or false
  return (score.yak_stack(data, p))
end
assert(stack(10) == -28 and stack(5) == -6 and stack(1) == 0 and stack(0) == 10)

-- animals: Ann 3 cards, Bob 1, Cai 0: most - fewest = 3 points per card: 9, 3, 0
st.players[1].animals = { "kiang", "tahr", "otter" }
st.players[2].animals = { "goose" }
st.players[3].animals = {}
assert(score.animal_value(data, st.players, st.players[1]) == 3)
assert(score.animal_value(data, st.players, st.players[3]) == 3)
local bob_lines = select(2, score.seat_score(g, 2))
for _, l in ipairs(bob_lines) do if l.key == "animals" then assert(l.points == 1 * 3) end end
--   scoring.animals: own (kathmandu.md §9.5, reading B): own count - fewest per card:
--   Ann 3 x (3 - 0) = 9, Bob 1 x (1 - 0) = 1, Cai 0 x (0 - 0) = 0
data.scoring.animals = "own"
assert(score.animal_value(data, st.players, st.players[1]) == 3)
assert(score.animal_value(data, st.players, st.players[2]) == 1)
bob_lines = select(2, score.seat_score(g, 2))
for _, l in ipairs(bob_lines) do if l.key == "animals" then assert(l.points == 1 * 1, l.points) end end
data.scoring.animals = "literal"

-- offerings: 3 candles placed -> the 4th value of 0 2 4 7 ... = 7; none -> 0; all 9 -> 28
assert(score.offerings(data, 3) == 7 and score.offerings(data, 0) == 0 and score.offerings(data, 9) == 28)

-- goods sets: 2 each of five kinds and 1 khukri: a set of 6 (12) and a set of 5 (7) = 19,
-- better than two sets of 5 (14)
local function goods(counts)
  local list = {}
  for kind, n in pairs(counts) do for _ = 1, n do list[#list + 1] = { kind = kind, points = 1 } end end
  return list
end
assert(score.goods_sets(data, goods { thangka = 2, ["singing-bowl"] = 2, ["prayer-wheel"] = 2,
  mask = 2, carpet = 2, khukri = 1 }) == 19)
assert(score.goods_sets(data, goods { thangka = 1, mask = 1, carpet = 1, khukri = 1, ["singing-bowl"] = 1 }) == 7)
assert(score.goods_sets(data, goods { thangka = 4 }) == 0)

-- map halves: red-a red-b (a pair, 4) + blue-a blue-a green-b (3 loose, 3) + a red pair
-- in a chest (8) = 15
local mp, pairs_n, loose = score.map_points(data, { halves = { "red-a", "blue-a", "red-b", "blue-a", "green-b" }, chests = { "red" } })
assert(mp == 15 and pairs_n == 1 and loose == 3)

-- distance: a 6-board route (start, 4 landscape boards, goal). On the start board 5 strips
-- lie between the yak and the goal board: 5 x 4 = 20; on board 4, 2 strips: -8; on the goal
-- board 0. In the long game (8 boards) the start board is 7 strips away: 28, capped at 20.
assert(#st.route == 6)
local q = { arrived = 0, pos = { 3, 2 } }
assert(score.distance(g, q) == -20)
q.pos = { 3, 20 }
assert(score.distance(g, q) == -8)
q.pos = { 3, 32 }
assert(score.distance(g, q) == 0)
local long = fake.new { seats = 2, seed = 7, options = { ["long-game"] = true } }
assert(#long.state.route == 8)
local d, strips = score.distance(long, { arrived = 0, pos = { 3, 1 } })
assert(strips == 7 and d == -20)

-- a whole score pad: Ann (seat 1)
p = st.players[1]
p.candles = 7                                             -- 2 placed: 4
p.goods = { { kind = "thangka", points = 3 }, { kind = "mask", points = 2 } }   -- 5
p.specials = { "carpet" }                                 -- 7
p.halves, p.chests = { "red-a", "red-b", "white-a" }, {}  -- pair 4 + loose 1 = 5
-- animals: 3 cards x 3 = 9 (above)
p.yak, p.stack = "snow", { "rice", "rice", "forest" }     -- 4 left: -4
p.tile, p.arrived = 0, 0
p.pos = { 3, 8 }                                          -- board 2: 4 strips: -16
p.equipment = { "rope", "lantern" }                       -- 2 unused: 2
p.res = { backpack = 1, compass = 0, food = 2, paint = 0, coin = 4 }   -- 7 resources: 7
p.exhaustion = 2                                          -- -6
-- 4 + 5 + 0 + 7 + 5 + 9 - 4 + 0 - 16 + 2 + 7 - 6 = 13
local total, lines = score.seat_score(g, 1)
local by = {}
for _, l in ipairs(lines) do by[l.key] = l.points end
assert(by.offerings == 4 and by.goods == 5 and by["goods sets"] == 0 and by["special goods"] == 7)
assert(by["map halves"] == 5 and by.animals == 9 and by["yak stack"] == -4 and by.kathmandu == 0)
assert(by.distance == -16 and by.equipment == 2 and by.resources == 7 and by.exhaustion == -6)
assert(total == 13, total)
assert(#lines == 12, "one line per bullet")
--    in Kathmandu with the 20 tile: no distance, the tile scores: 13 + 16 + 20 = 49
p.arrived, p.tile = 1, 20
assert(score.seat_score(g, 1) == 49)
--    the tiebreak is the leftover resources
assert(g.rules.score(g)[1].tiebreak == 7)
