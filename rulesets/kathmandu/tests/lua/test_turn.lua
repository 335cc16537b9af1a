-- rulesets/kathmandu/tests/lua/test_turn.lua
-- A turn: the reroll, choosing a die and its resource, the exhaustion check, the
-- straight-line move stopped by a mountain or the edge, the needle and border costs
-- with and without the resource, equipment that changes the move.
local fake = require "kfake"
local fake_rng = require "cairn.fake_rng"

-- The hand-drawn route of these tests (kfake.lua): three boards, needles north, east, none.
local ROWS = fake.ROWS
local NEEDLES = { "north", "east", false }

local function game()
  local g = fake.new { seats = 2, seed = 3 }
  fake.map(g, ROWS, NEEDLES)
  return g
end

-- 1. Blocked by a mountain: from (2,1) a 5 east goes (2,2), (2,3) and meets the mountain
--    at (2,4): 2 fields, 3 lost, ONE exhaustion (not one per lost step). Without a rope
--    the exhaustion is taken at once.
local g = game()
local p = g.state.players[1]
p.equipment = {}                                       -- no rope
g.state.equipment_discard = { "rope", "fodder-sack" }  -- (kept for the card count)
fake.turn(g, 1, 2, 1, { orange = 5 })
fake.play(g, 1, "die orange")                         -- orange gives a coin: 1 + 1 = 2
assert(p.res.coin == 2)
-- the label tells the 2 fields of the 5 and the exhaustion the lost steps cost
assert(fake.label(g, 1, "move east") == "E 2: 2,3 steppe; +1 exhaustion", fake.label(g, 1, "move east"))
fake.play(g, 1, "move east")
assert(p.pos[1] == 2 and p.pos[2] == 3, "stopped before the mountain")
assert(p.exhaustion == 1, "one exhaustion for 3 lost steps")
-- 2. Blocked by the edge: from (3,2) a 4 west: (3,1), then the west edge: 1 field, 1 exhaustion.
g = game()
p = g.state.players[1]
p.equipment = {}
g.state.equipment_discard = { "rope", "fodder-sack" }
fake.turn(g, 1, 3, 2, { brown = 4 })
fake.play(g, 1, "die brown", "move west")
assert(p.pos[2] == 1 and p.exhaustion == 1)
--    with the rope: the lost steps may cost the rope instead (asked: rope or exhaustion)
g = game()
p = g.state.players[1]
fake.turn(g, 1, 3, 2, { brown = 4 })
fake.play(g, 1, "die brown", "move west")
assert(fake.enabled(g, 1) == "use rope, take exhaustion", fake.enabled(g, 1))
fake.play(g, 1, "use rope")
assert(p.exhaustion == 0 and not require("rules.common").has(p.equipment, "rope"))
--    a direction blocked at once is refused with its reason while another direction moves
g = game()
fake.turn(g, 1, 3, 1, { brown = 2 })
fake.play(g, 1, "die brown")
assert(fake.reason(g, 1, "move west") == "the edge or a black mountain is right there to the west")

-- 3. The needle: board 1's needle points north. From (6,1) a 2 north to (4,1).
--    Seed: "Ziehst du in Richtung der roten Kompassnadel ..., musst du einen Kompass
--    abgeben, andernfalls erhältst du einen Erschöpfungsmarker." With a compass (and no
--    lantern) paying is the only way: paid at once (1 - 1 = 0), no exhaustion, not asked.
g = game()
p = g.state.players[1]
fake.turn(g, 1, 6, 1, { brown = 2 })
fake.play(g, 1, "die brown", "move north")
assert(p.res.compass == 0 and p.exhaustion == 0 and p.pos[1] == 4)
assert(g.state.turn.step ~= "pay")
assert(g.events[#g.events - 0]:find("pays a compass") or g.events[#g.events - 1]:find("pays a compass"))
--    game.exhaustion.instead_of_paying: by_choice (the reading some groups play): the same
--    seat is asked, and may keep the compass and take the marker (0 + 1 = 1)
g = game()
g.data.game.exhaustion.instead_of_paying = "by_choice"
p = g.state.players[1]
fake.turn(g, 1, 6, 1, { brown = 2 })
fake.play(g, 1, "die brown", "move north")
assert(fake.enabled(g, 1) == "pay compass, take exhaustion", fake.enabled(g, 1))
fake.play(g, 1, "take exhaustion")
assert(p.res.compass == 1 and p.exhaustion == 1 and p.pos[1] == 4)
--    without a compass (and no lantern) the move is enabled, says it costs an exhaustion,
--    and the exhaustion is taken at once
g = game()
p = g.state.players[1]
fake.res(g, 1, { compass = 0 })
fake.turn(g, 1, 6, 1, { brown = 2 })
fake.play(g, 1, "die brown")
assert(fake.offered(g, 1, "move north") == "enabled")
local label = fake.label(g, 1, "move north")
assert(label:find("needle", 1, true) and label:find("+1 exhaustion", 1, true), label)
fake.play(g, 1, "move north")
assert(p.exhaustion == 1 and p.res.compass == 0)
--    the needle of the board the move starts on: board 2 points east; (4,7) 2 east to the
--    city at (4,9) costs the needle; the same move on board 1 (needle north) does not
g = game()
p = g.state.players[1]
fake.turn(g, 1, 4, 7, { pink = 2 })
local compass = p.res.compass
fake.play(g, 1, "die pink", "move east")
assert(p.res.compass == compass - 1 and p.exhaustion == 0)   -- 1 - 1 = 0, paid at once

-- 4. A border strip: (3,5) a 3 east: (3,6), over the strip to (3,7), (3,8). Food 1 and the
--    fodder sack: asked which; no exhaustion while she holds food (seed: "musst du ein
--    Yakfutter abgeben, andernfalls erhältst du einen Erschöpfungsmarker"). The sack keeps
--    the food (1) and no marker (0).
g = game()
p = g.state.players[1]
fake.turn(g, 1, 3, 5, { grey = 3 })
fake.play(g, 1, "die grey", "move east")
assert(fake.enabled(g, 1) == "pay food, use fodder-sack", fake.enabled(g, 1))
fake.play(g, 1, "use fodder-sack")
assert(p.exhaustion == 0 and p.res.food == 1 and p.pos[2] == 8)
--    pay food: 1 - 1 = 0
g = game()
p = g.state.players[1]
fake.turn(g, 1, 3, 5, { grey = 3 })
fake.play(g, 1, "die grey", "move east", "pay food")
assert(p.res.food == 0 and p.exhaustion == 0)
--    no food, no fodder sack: an exhaustion at once, and the label said so
g = game()
p = g.state.players[1]
p.equipment = { "rope" }
g.state.equipment_discard = { "fodder-sack" }
fake.res(g, 1, { food = 0 })
fake.turn(g, 1, 3, 5, { grey = 3 })
fake.play(g, 1, "die grey")
assert(fake.label(g, 1, "move east"):find("border; +1 exhaustion", 1, true), fake.label(g, 1, "move east"))
fake.play(g, 1, "move east")
assert(p.exhaustion == 1 and p.res.food == 0)

-- 5. Three exhaustion markers lose the turn: the resource is still taken, then the three
--    markers are discarded and Bob's turn begins; the yak does not move.
g = game()
p = g.state.players[1]
p.exhaustion = 3
fake.turn(g, 1, 3, 3, { purple = 4 })
local paint = p.res.paint
fake.play(g, 1, "die purple")
assert(p.res.paint == paint + 1 and p.exhaustion == 0 and p.pos[2] == 3)
assert(g.state.turn.seat == 2, "Bob's turn")
--    a fourth marker is ignored (the slots hold 3)
g = game()
p = g.state.players[1]
p.exhaustion = 3
require("rules.common").exhaust(g, 1, 1, "storm")
assert(p.exhaustion == 3)

-- 6. The reroll: set the brown die aside, the five others are rerolled (scripted 6s); the
--    brown die is out for the round. One reroll a turn.
g = game()
p = g.state.players[1]
fake.turn(g, 1, 3, 3, { brown = 1, purple = 1, orange = 1, grey = 1, pink = 1, black = 1 })
g.rng = fake_rng.script { 6, 6, 6, 6, 6 }
fake.play(g, 1, "reroll brown")
assert(p.dice.brown.at == "aside" and p.dice.brown.pips == 1)
assert(p.dice.purple.pips == 6 and p.dice.black.pips == 6)
assert(fake.offered(g, 1, "reroll purple") == nil, "one reroll a turn")
assert(fake.offered(g, 1, "die brown") == nil, "the die set aside is out")
--    a reroll that would leave too few dice for this round's turns is refused: 1 used,
--    3 aside, 2 free: the 2 remaining turns need both
g = game()
p = g.state.players[1]
fake.turn(g, 1, 3, 3)
p.dice.brown.at, p.dice.purple.at, p.dice.orange.at, p.dice.grey.at = "used", "aside", "aside", "aside"
assert(fake.reason(g, 1, "reroll pink") == "you need the other dice for this round's turns")

-- 7. The black die gives a resource of choice.
g = game()
p = g.state.players[1]
fake.turn(g, 1, 3, 3, { black = 2 })
fake.play(g, 1, "die black")
assert(fake.enabled(g, 1) == "take backpack, take compass, take food, take paint, take coin")
fake.play(g, 1, "take compass")
assert(p.res.compass == 2 and g.state.turn.step == "move")

-- 8. Equipment in the move: trekking poles (+1 pip), the wind horse (double), the ice axe
--    (over the mountain), the sherpa (one bend).
g = game()
p = g.state.players[1]
p.equipment = { "trekking-poles", "wind-horse", "ice-axe", "sherpa" }
g.state.equipment_discard = { "rope", "fodder-sack" }
g.state.equipment_deck = {}
for _, id in ipairs(g.data.cards.equipment) do
  if id.kind ~= "trekking-poles" or id.id ~= "trekking-poles-1" then
    if not (id.kind == "wind-horse" and id.id == "wind-horse-1") and not (id.kind == "ice-axe" and id.id == "ice-axe-1")
      and not (id.kind == "sherpa" and id.id == "sherpa-1") then
      g.state.equipment_deck[#g.state.equipment_deck + 1] = id.id
    end
  end
end
g.state.equipment = {}
fake.turn(g, 1, 2, 1, { orange = 1 })
fake.play(g, 1, "die orange", "use trekking-poles up")      -- 1 + 1 = 2 pips
assert(g.state.turn.pips == 2 and p.dice.orange.pips == 2, "the die itself changes (dice sum)")
fake.play(g, 1, "use wind-horse")                             -- 2 x 2 = 4 fields
fake.play(g, 1, "use ice-axe")
--    east from (2,1): (2,2), (2,3), over the mountain (2,4), (2,5): 4 fields, no loss
fake.play(g, 1, "move east")
assert(p.pos[2] == 5 and p.exhaustion == 0, "passed over the mountain")
--    the sherpa: 3 pips, east 1 then south 2: (3,2) -> (3,3) -> (4,3) -> (5,3)
fake.turn(g, 1, 3, 2, { pink = 3 })
fake.play(g, 1, "die pink", "use sherpa", "move east south 1")
assert(p.pos[1] == 5 and p.pos[2] == 3, p.pos[1] .. "," .. p.pos[2])
