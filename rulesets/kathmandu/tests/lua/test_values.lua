-- rulesets/kathmandu/tests/lua/test_values.lua
-- Each assumption that is a named YAML value does what its name says, in each of its
-- readings (docs/rules/kathmandu.md, "Assumptions and where to change them"). The data of
-- a test game is its own copy (test.ruleset), so a test sets a value by assignment.
local fake = require "kfake"
local common = require "rules.common"
local round = require "rules.round"
local score = require "rules.score"
local destination = require "rules.destination"

local ROWS, NEEDLES = fake.ROWS, { "north", "east", false }
local function game(o)
  o = o or {}
  local g = fake.new { seats = o.seats or 2, seed = o.seed or 3, options = o.options }
  fake.map(g, o.rows or ROWS, NEEDLES)
  g.state.players[1].equipment, g.state.players[2].equipment = {}, {}   -- no rope, no fodder sack
  g.state.equipment_discard = { "rope", "fodder-sack", "rope", "fodder-sack" }   -- (the card count)
  return g
end

-- 1. game.needle_board. Ann at (3,5), a 3 east: (3,6), over strip 1 to (3,7), (3,8). The move
--    starts on board 1 (needle north) and steps onto board 2 (needle east).
--    segment_start (default): only board 1's needle counts: not east: no compass. The strip:
--    food 1 - 1 = 0; compass stays 1. each_board: board 2's needle points east too: the
--    compass is paid as well (1 - 1 = 0).
local g = game()
local p = g.state.players[1]
fake.turn(g, 1, 3, 5, { grey = 3 })
fake.play(g, 1, "die grey", "move east")        -- grey: a compass, 1 + 1 = 2
assert(p.pos[2] == 8 and p.res.food == 0 and p.res.compass == 2 and p.exhaustion == 0)
g = game()
g.data.game.needle_board = "each_board"
p = g.state.players[1]
fake.turn(g, 1, 3, 5, { brown = 3 })
fake.play(g, 1, "die brown", "move east")
assert(p.pos[2] == 8 and p.res.food == 0 and p.res.compass == 0 and p.exhaustion == 0)

-- 2. game.start_player_ties, game.aside_die_counts, game.kathmandu_dice_count: the lowest
--    dice sum at the round's end. Used dice: Ann 3+3+4 = 10, Bob 2+2+6 = 10, Cai 1+1+1 = 3
--    with a 6 set aside. Order this round: Bob, Cai, Ann.
local function sums(set, cai_arrived)
  local g = fake.new { seats = 3, seed = 2 }
  local st = g.state
  for k, v in pairs(set or {}) do g.data.game[k] = v end
  local colours = { "brown", "purple", "orange", "grey", "pink", "black" }
  local function dice(seat, used, aside)
    local q = st.players[seat]
    for _, d in pairs(q.dice) do d.at = "free" end
    for i, pips in ipairs(used) do q.dice[colours[i]].pips, q.dice[colours[i]].at = pips, "used" end
    if aside then q.dice.black.pips, q.dice.black.at = aside, "aside" end
  end
  dice(1, { 3, 3, 4 }); dice(2, { 2, 2, 6 }); dice(3, { 1, 1, 1 }, 6)
  if cai_arrived then st.players[3].arrived = 1 end
  st.weather, st.order, st.round = { "sun" }, { 2, 3, 1 }, 1
  round.round_end(g)
  return st.start_player, g
end
--    defaults: Cai 3 is lowest (the aside 6 not counted)
assert(sums() == 3)
--    aside_die_counts true: Cai 1 + 1 + 1 + 6 = 9, still the lowest (9 < 10)
local _, g2 = sums { aside_die_counts = true }
assert(round.dice_sum(g2, g2.state.players[3]) == 0, "a new round: dice rerolled")
assert(sums { aside_die_counts = true } == 3)
--    kathmandu_dice_count false with Cai in Kathmandu: Cai is skipped; Ann and Bob tie at
--    10: earliest (default) in the order Bob, Cai, Ann: Bob; latest: Ann
assert(sums({ kathmandu_dice_count = false }, true) == 2)
assert(sums({ kathmandu_dice_count = false, start_player_ties = "latest" }, true) == 1)
assert(sums({ kathmandu_dice_count = true }, true) == 3, "true: Cai's 3 counts")

-- 3. game.storm_wall. The hand-drawn route has 3 boards; the wall stands at strip 2 (before
--    the goal board). Ann on the goal board (3,14), not in Kathmandu; Bob in Kathmandu (1,15).
local function storm(set)
  local g = fake.new { seats = 2, seed = 3 }
  fake.map(g, ROWS, NEEDLES)
  local st = g.state
  for k, v in pairs(set or {}) do g.data.game.storm_wall[k] = v end
  st.wall = 2
  st.players[1].pos, st.players[1].exhaustion = { 3, 14 }, 0
  st.players[2].pos, st.players[2].exhaustion, st.players[2].arrived = { 1, 15 }, 0, 1
  st.weather = { "storm" }
  round.weather(g)
  return st
end
--    enters_goal_board false (default): the wall stays at 2 (min(2 + 1, 3 - 1) = 2); nobody
--    on board 3 is behind it (3 > 2)
local st = storm()
assert(st.wall == 2 and st.players[1].exhaustion == 0 and st.players[2].exhaustion == 0)
--    true: the wall moves over the goal board (min(2 + 1, 3) = 3): Ann (board 3 <= 3) takes
--    an exhaustion; Bob in Kathmandu is spared (spares_kathmandu, default)
st = storm { enters_goal_board = true }
assert(st.wall == 3 and st.players[1].exhaustion == 1 and st.players[2].exhaustion == 0)
--    spares_kathmandu false: Bob too (0 + 1 = 1)
st = storm { enters_goal_board = true, spares_kathmandu = false }
assert(st.players[2].exhaustion == 1)
--    last_round: the last round's tile is revealed (true, default) or not (false)
local function last(flag)
  local g = fake.new { seats = 2, seed = 3 }
  local st = g.state
  g.data.game.storm_wall.last_round = flag
  st.round, st.weather, st.wall = g.data.game.rounds, { "storm" }, 0
  round.round_end(g)
  return st
end
st = last(true)
assert(st.phase == "over" and st.wall == 1 and #st.weather_seen == 1)
st = last(false)
assert(st.phase == "over" and st.wall == 0 and #st.weather_seen == 0 and #st.weather == 1)

-- 4. game.swaps_per_turn. Ann ends on Bob's field (3,8), both holding a loose half.
--    1 (default): "swap 2" is offered, then no more; 0: never.
local function meet(n)
  local g = game()
  g.data.game.swaps_per_turn = n
  g.state.players[2].pos = { 3, 8 }
  fake.turn(g, 1, 5, 8, { pink = 2 })
  fake.play(g, 1, "die pink", "move north")
  return g
end
g = meet(1)
assert(fake.offered(g, 1, "swap 2") == "enabled")
local mine = g.state.players[1].halves[1]
fake.play(g, 1, "swap 2", "steal " .. g.state.players[2].halves[1])
fake.play(g, 1, "give " .. mine)
assert(fake.offered(g, 1, "swap 2") == nil, "one swap a turn")
g = meet(0)
assert(fake.offered(g, 1, "swap 2") == nil)

-- 5. tents.per_turn and tents.on_lost_turn (module). Bob and Cai hold forest tents; Ann's
--    turn ends on forest (4,8).
local function tents(set, lost)
  local g = fake.new { seats = 3, seed = 9, options = { tents = true } }
  fake.map(g, ROWS, NEEDLES)
  local st = g.state
  for k, v in pairs(set or {}) do g.data.tents[k] = v end
  for _, id in ipairs(st.animals) do st.animal_deck[#st.animal_deck + 1] = id end
  for _, id in ipairs(st.equipment) do st.equipment_deck[#st.equipment_deck + 1] = id end
  st.animals, st.equipment = {}, {}                -- nothing to do on the destination
  common.remove(st.tent_deck, "forest"); common.remove(st.tent_deck, "forest")
  st.players[2].tents, st.players[3].tents = { "forest" }, { "forest" }
  if lost then
    st.players[1].exhaustion = 3
    fake.turn(g, 1, 4, 8, { pink = 1 })
    fake.play(g, 1, "die pink")              -- 3 markers: the turn is lost
  else
    fake.turn(g, 1, 5, 8, { pink = 1 })
    fake.play(g, 1, "die pink", "move north")
  end
  return g, st
end
--    any (default): Bob plays (0 + 1 = 1), Cai is asked too and plays (1 + 1 = 2)
g, st = tents()
fake.play(g, 2, "tent forest")
assert(st.phase == "tent" and fake.decision(g, 3))
fake.play(g, 3, "tent forest")
assert(st.players[1].exhaustion == 2)
--    one: Bob's tent ends the asking: Ann 0 + 1 = 1, Cai keeps his
g, st = tents { per_turn = "one" }
fake.play(g, 2, "tent forest")
assert(st.phase == "turn" and st.players[1].exhaustion == 1 and #st.players[3].tents == 1)
--    on_lost_turn false (default): Ann's lost turn asks nobody; true: her field (4,8) forest
st = select(2, tents({}, true))
assert(st.phase == "turn" and st.turn.seat == 2)
g, st = tents({ on_lost_turn = true }, true)
assert(st.phase == "tent" and fake.decision(g, 2))

-- 6. characters.ability_resets. The guide has used her ability this round: round (default):
--    it comes back at the round's end; game: it stays used.
local function resets(how)
  local g = fake.new { seats = 2, seed = 3, options = { characters = true } }
  g.data.characters.ability_resets = how
  local st = g.state
  st.players[1].ability_used = true
  st.weather, st.round = { "sun" }, 1
  round.round_end(g)
  return st.players[1].ability_used
end
assert(resets("round") == false and resets("game") == true)

-- 7. characters.naturalist_reach. Ann, the naturalist, on steppe (2,2): her 4 orthogonal
--    neighbours are steppe, the diagonal (1,1) is rice. A rice animal (sarus crane) on
--    display: orthogonal (default): not offered; around: offered.
local function naturalist(reach)
  local g = game { options = { characters = true }, rows = {
    "RSSSSS|FFFFFF|RRKKRR", "SSSSSS|FFFFFF|RRKKRR", "SSSSSS|FFFFFF|RRRRRR",
    "SSSSSS|FFCFFF|RRRRRR", "SSSSSS|FFFFFF|RRRRRR", "SSSSSS|FTFFFF|RRRRRR" } }
  g.data.characters.naturalist_reach = reach
  local st = g.state
  st.players[1].character = "naturalist"
  for _, id in ipairs(st.animals) do st.animal_deck[#st.animal_deck + 1] = id end
  st.animals = { fake.take_from_deck(g, "animal_deck", "sarus-crane") }
  fake.turn(g, 1, 2, 2, {})
  st.turn.step = "act"
  return destination.act_options(g, 1) or {}
end
assert(not common.has(naturalist("orthogonal"), "paint sarus-crane"))
assert(common.has(naturalist("around"), "paint sarus-crane"))

-- 8. characters.trader_cities. Ann, the trader, on a city at (1,1) (board 1); other cities
--    at (1,2) (board 1) and (1,13) (board 3). board (default): 2 cities; route: all 3.
local function trader(where)
  local g = game { options = { characters = true }, rows = {
    "CCSSSS|FFFFFF|CRKKRR", "SSSSSS|FFFFFF|RRKKRR", "SSSSSS|FFFFFF|RRRRRR",
    "SSSSSS|FFFFFF|RRRRRR", "SSSSSS|FFFFFF|RRRRRR", "SSSSSS|FTFFFF|RRRRRR" } }
  g.data.characters.trader_cities = where
  g.state.players[1].character = "trader"
  g.state.players[1].pos = { 1, 1 }
  return destination.cities(g, 1)
end
assert(#trader("board") == 2 and #trader("route") == 3)

-- 9. scoring.pair_halves_score and scoring.tiebreak. A red pair (red-a, red-b) and a loose
--    blue-a: false (default): 4 + 1 = 5; true: the pair's halves score too: 4 + 2 + 1 = 7.
g = fake.new { seats = 2, seed = 3 }
local who = { halves = { "red-a", "red-b", "blue-a" }, chests = {} }
assert(score.map_points(g.data, who) == 5)
g.data.scoring.pair_halves_score = true
assert(score.map_points(g.data, who) == 7)
--    the tiebreak: resources (default): the seat's leftover resources (5 at the start);
--    none: 0 for every seat, so equal totals share a place
assert(g.rules.score(g)[1].tiebreak == 5)
g.data.scoring.tiebreak = "none"
assert(g.rules.score(g)[1].tiebreak == 0 and g.rules.score(g)[2].tiebreak == 0)

-- 10. game.exhaustion.excess. Ann holds 3 markers and takes a fourth (a storm): ignore
--     (default): 3; keep: 4, and it scores 4 x -3 = -12.
g = fake.new { seats = 2, seed = 3 }
g.state.players[1].exhaustion = 3
common.exhaust(g, 1, 1, "storm")
assert(g.state.players[1].exhaustion == 3)
g.data.game.exhaustion.excess = "keep"
common.exhaust(g, 1, 1, "storm")
assert(g.state.players[1].exhaustion == 4)
local _, lines = score.seat_score(g, 1)
for _, l in ipairs(lines) do if l.key == "exhaustion" then assert(l.points == -12) end end

-- 11. game.lost_turn_die_counts. Ann holds 3 markers and chooses the purple 4: the turn is
--     lost. true (default, kathmandu.md §9.11): the 4 counts in her dice sum (4); false: 0.
local function lost(flag)
  local g = game()
  g.data.game.lost_turn_die_counts = flag
  local p = g.state.players[1]
  p.exhaustion = 3
  fake.turn(g, 1, 3, 3, { purple = 4 })
  fake.play(g, 1, "die purple")
  assert(p.exhaustion == 0 and p.pos[2] == 3, "the turn is lost")
  return round.dice_sum(g, p)
end
assert(lost(true) == 4 and lost(false) == 0)

-- 12. game.displays.map_refill. Ann makes an offering at the temple (6,8) and takes a half
--     from the display of 3: at_once (default): it is back to 3 at once; round_end: 3 - 1 = 2
--     until the round's end.
local function offer(when)
  local g = game()
  g.data.game.displays.map_refill = when
  local st = g.state
  for _, id in ipairs(st.animals) do st.animal_deck[#st.animal_deck + 1] = id end
  for _, id in ipairs(st.equipment) do st.equipment_deck[#st.equipment_deck + 1] = id end
  st.animals, st.equipment = {}, {}
  fake.turn(g, 1, 5, 8, { pink = 1 })
  fake.play(g, 1, "die pink", "move south", "offer", "map " .. st.maps[1])
  return #st.maps
end
assert(offer("at_once") == 3 and offer("round_end") == 2)

-- 13. tents.reshuffle. The tent deck is empty, one played tent lies on the discards; Bob
--     has the lowest sum and draws: true (default): the discard is shuffled in and drawn
--     (Bob 1 tent); false: no tent (0).
local function draw(flag)
  local g = fake.new { seats = 2, seed = 9, options = { tents = true } }
  g.data.tents.reshuffle = flag
  local st = g.state
  st.tent_discard = { st.tent_deck[1] }
  st.tent_deck = {}
  st.players[1].tents = {}
  for s, used in ipairs({ { 6, 5, 1 }, { 1, 1, 1 } }) do   -- Ann 6 + 5 + 1 = 12, Bob 1 + 1 + 1 = 3
    for i, c in ipairs({ "brown", "purple", "orange" }) do st.players[s].dice[c].pips, st.players[s].dice[c].at = used[i], "used" end
  end
  st.weather, st.order, st.round = { "sun" }, { 1, 2 }, 1
  round.round_end(g)
  return #st.players[2].tents
end
assert(draw(true) == 1 and draw(false) == 0)

-- 14. game.swap_give_back_taken. Ann takes Bob's only loose half X and must give one back:
--     false (default): any of hers but X; true: X too (one more option).
local function give_back(flag)
  local g = meet(1)
  g.data.game.swap_give_back_taken = flag
  local taken = g.state.players[2].halves[1]
  fake.play(g, 1, "swap 2", "steal " .. taken)
  return fake.offered(g, 1, "give " .. taken)
end
assert(give_back(false) == nil and give_back(true) == "enabled")

-- 15. game.blocked_at_once. Ann at (3,1) with a 2: west is the route's edge at once.
--     refused_if_another_moves (default): "move west" disabled; allowed: she may choose it,
--     stays on (3,1) and takes the lost-steps exhaustion (0 + 1 = 1).
g = game()
fake.turn(g, 1, 3, 1, { brown = 2 })
fake.play(g, 1, "die brown")
assert(fake.offered(g, 1, "move west") == "disabled")
g = game()
g.data.game.blocked_at_once = "allowed"
p = g.state.players[1]
fake.turn(g, 1, 3, 1, { brown = 2 })
fake.play(g, 1, "die brown", "move west")
assert(p.pos[1] == 3 and p.pos[2] == 1 and p.exhaustion == 1)
