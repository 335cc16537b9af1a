-- rulesets/kathmandu/tests/lua/test_round.lua
-- The round: three turns per seat in turn order, the lowest dice sum starts the next
-- round (ties: the earliest in turn order), the weather (sun: nothing; storm: the wall
-- moves one border strip and every yak behind it takes an exhaustion), displays refilled,
-- dice rerolled, the end after the last round.
local fake = require "kfake"
local round = require "rules.round"

-- 1. The lowest dice sum. Used dice: Ann 3+4+5 = 12, Bob 2+2+6 = 10, Cai 1+1+1 = 3 but
--    with a 6 set aside (not counted): Cai starts. A tie between Ann and Bob at 10 goes
--    to the earlier of them in this round's order (Bob, order 2, 3, 1).
local g = fake.new { seats = 3, seed = 2 }
local st = g.state
local function dice(seat, used, aside)
  local p = st.players[seat]
  for _, d in pairs(p.dice) do d.at = "free" end
  local colours = { "brown", "purple", "orange", "grey", "pink", "black" }
  for i, pips in ipairs(used) do p.dice[colours[i]].pips, p.dice[colours[i]].at = pips, "used" end
  if aside then p.dice.black.pips, p.dice.black.at = aside, "aside" end
end
dice(1, { 3, 4, 5 }); dice(2, { 2, 2, 6 }); dice(3, { 1, 1, 1 }, 6)
assert(round.dice_sum(g, st.players[3]) == 3)
st.weather = { "sun" }
st.weather_seen, st.weather_box = {}, { "storm", "storm", "storm", "storm", "storm", "sun", "sun" }
st.order, st.round = { 2, 3, 1 }, 1
round.round_end(g)
assert(st.start_player == 3 and st.order[1] == 3 and st.round == 2)
assert(st.wall == 0, "sun: the wall stays")
--    the tie
g = fake.new { seats = 3, seed = 2 }
st = g.state
dice(1, { 3, 3, 4 }); dice(2, { 2, 2, 6 }); dice(3, { 6, 6, 6 })
st.order = { 2, 3, 1 }
round.round_end(g)
assert(st.start_player == 2, "10 = 10: Bob is earlier in the order")
--    the new round: everyone's six dice rerolled and free
for _, p in ipairs(st.players) do
  for _, d in pairs(p.dice) do assert(d.at == "free") end
end

-- 2. The storm: the wall moves from the west edge (0) to border strip 1 (after the start
--    board). Ann on the start board takes an exhaustion (0 + 1 = 1); Bob on board 2 does
--    not. The next storm (strip 2) catches Bob too, and Ann again (1 + 1 = 2).
g = fake.new { seats = 3, seed = 2 }
st = g.state
st.players[1].pos = { 3, 4 }      -- board 1
st.players[2].pos = { 3, 9 }      -- board 2
st.players[3].pos = { 3, 20 }     -- board 4
for _, p in ipairs(st.players) do p.exhaustion = 0 end
st.weather = { "storm", "storm" }
st.weather_box = { "storm", "storm", "storm", "sun", "sun", "sun" }
round.weather(g)
assert(st.wall == 1 and st.players[1].exhaustion == 1 and st.players[2].exhaustion == 0)
round.weather(g)
assert(st.wall == 2 and st.players[1].exhaustion == 2 and st.players[2].exhaustion == 1)
assert(st.players[3].exhaustion == 0 and #st.weather_seen == 2)
--    the wall never enters the goal board: with 6 boards it stops at strip 5; a yak in
--    Kathmandu is never behind it
st.wall = 5
st.weather = { "storm" }
st.players[3].arrived, st.players[3].pos = 1, { 3, 33 }
st.kathmandu = { 15, 10, 5 }
st.arrivals = 1
st.map[3] = st.map[3]:sub(1, 32) .. "K" .. st.map[3]:sub(34)
round.weather(g)
assert(st.wall == 5 and st.players[3].exhaustion == 0)

-- 3. A round is three turns for every seat, in turn order: 2 seats x 3 = 6 turns, then
--    the round ends (the weather tile is revealed, the round counter moves on).
g = fake.new { seats = 2, seed = 4 }
st = g.state
local first = st.turn.seat
local seen = {}
while st.round == 1 do
  local t = st.turn
  if t and t.step == "die" and #seen < 7 then seen[#seen + 1] = t.seat end
  local d = g.rules.decisions(g)[1]
  for _, o in ipairs(d.options) do
    if type(o) == "string" and not o:find("^reroll") and not o:find("^use") then fake.play(g, d.seat, o); break end
  end
end
assert(#seen == 6 and seen[1] == first and seen[2] ~= first and seen[3] == first, table.concat(seen, " "))
assert(#st.weather_seen == 1 and #st.weather == 5, "one tile revealed of 6")
--    the displays were refilled: 1 animal (2 seats), 3 equipment (2 + 1), 3 map halves
assert(#st.animals == 1 and #st.equipment == 3 and #st.maps == 3)

-- 4. The last round ends the game: round 6 of 6.
g = fake.new { seats = 2, seed = 4 }
st = g.state
st.round = 6
round.round_end(g)
assert(st.phase == "over" and #g.rules.decisions(g) == 0)
