-- rulesets/kathmandu/tests/lua/test_destination.lua
-- The destination field: the yak tile, painting an animal, buying equipment, a good and
-- its special good (from the supply and from another player), the offering with a map
-- half, swapping map halves with a yak met there, the chest's protection, a pair into a
-- chest, Kathmandu: arrival order, tiles, and the early end.
local fake = require "kfake"
local common = require "rules.common"

local ROWS = fake.ROWS   -- the hand-drawn route of kfake.lua
local show
-- game(): two seats on this route, the animal and equipment displays emptied
local function game()
  local g = fake.new { seats = 2, seed = 5 }
  fake.map(g, ROWS, { "north", "east", false })
  show(g, "animals", "animal_deck", {})
  show(g, "equipment", "equipment_deck", {})
  return g
end

-- show(g, list, ids): put these cards face up (from the deck; the display's cards go back)
function show(g, display, deck, ids)
  local st = g.state
  for _, id in ipairs(st[display]) do st[deck][#st[deck] + 1] = id end
  st[display] = {}
  for _, id in ipairs(ids) do
    assert(common.remove(st[deck], id), id)
    st[display][#st[display] + 1] = id
  end
end

-- 1. The yak tile, an animal and equipment on a forest field. Ann's tile shows forest,
--    the stack holds snow next. From (5,8) a 1 north to (4,8), forest: the tile is
--    fulfilled (snow revealed); the red panda (forest) can be painted for a paint box,
--    the lantern (forest) bought for a backpack; the gharial (lakeshore) cannot.
local g = game()
local p = g.state.players[1]
p.yak, p.stack = "forest", { "snow", "rice" }
g.state.players[2].stack = { "steppe", "steppe", "forest" }   -- the yak tiles are not counted
show(g, "animals", "animal_deck", { "red-panda", "gharial" })
show(g, "equipment", "equipment_deck", { "lantern-1", "rope-1", "chest-1" })
fake.turn(g, 1, 5, 8, { orange = 1 })
fake.play(g, 1, "die orange", "move north")
assert(p.yak == "snow" and #p.stack == 1, "forest fulfilled, snow revealed")
assert(fake.enabled(g, 1) == "paint red-panda, buy lantern, pass", fake.enabled(g, 1))
fake.play(g, 1, "paint red-panda")               -- paint box 1 - 1 = 0
assert(p.res.paint == 0 and p.animals[1] == "red-panda" and #g.state.animals == 1)
fake.play(g, 1, "buy lantern")                   -- backpack 1 - 1 = 0
assert(p.res.backpack == 0 and common.has(p.equipment, "lantern"))
assert(g.state.turn.seat == 2, "nothing left to do: the turn ended by itself")
--    without a paint box the animal is offered disabled, with the reason
g = game()
fake.res(g, 1, { paint = 0 })
show(g, "animals", "animal_deck", { "red-panda" })
fake.turn(g, 1, 5, 8, { orange = 1 })
fake.play(g, 1, "die orange", "move north")
assert(fake.reason(g, 1, "paint red-panda") == "you hold no paint box")

-- 2. A city: thangka 3 and mask 1 lie on (4,9). From (6,9) a 2 north. Buy the thangka
--    (coin 1 + 1 from the orange die = 2, - 1 = 1), then its special good from the
--    supply (1 - 1 = 0): Ann holds thangka 3 and the special thangka.
g = game()
p = g.state.players[1]
fake.city(g, "4,9", { { "thangka", 3 }, { "mask", 1 } })
fake.turn(g, 1, 6, 9, { orange = 2 })
fake.play(g, 1, "die orange", "move north")
assert(fake.enabled(g, 1) == "buy thangka, buy mask, pass", fake.enabled(g, 1))
fake.play(g, 1, "buy thangka")
assert(p.res.coin == 1 and p.goods[1].kind == "thangka" and p.goods[1].points == 3)
assert(fake.label(g, 1, "special thangka") == "also buy the special thangka for a coin (from the supply)")
fake.play(g, 1, "special thangka")
assert(p.res.coin == 0 and g.state.specials.thangka == 1 and p.specials[1] == "thangka")
assert(#g.state.cities["4,9"] == 1, "the mask stays")
--    the special good taken from another player, who cannot refuse
g = game()
p = g.state.players[1]
local bob = g.state.players[2]
bob.specials, g.state.specials.mask = { "mask" }, 2
fake.city(g, "4,9", { { "mask", 1 } })
fake.turn(g, 1, 6, 9, { orange = 2 })
fake.play(g, 1, "die orange", "move north", "buy mask")
assert(fake.label(g, 1, "special mask"):find("from Bob"))
fake.play(g, 1, "special mask")
assert(#bob.specials == 0 and p.specials[1] == "mask" and g.state.specials.mask == 1)

-- 3. A temple at (6,8): an offering (candles 9 - 1 = 8) and a map half from the display,
--    which is refilled from the pile (3 again); the same temple takes no second offering.
g = game()
p = g.state.players[1]
fake.turn(g, 1, 4, 8, { pink = 2 })
fake.play(g, 1, "die pink", "move south")
assert(fake.enabled(g, 1) == "offer, pass")
fake.play(g, 1, "offer")
assert(p.candles == 8 and g.state.temples["6,8"][1] == 1)
local first = g.state.maps[1]
local pile = #g.state.map_pile
fake.play(g, 1, "map " .. first)
assert(#p.halves == 3 and p.halves[3] == first and #g.state.maps == 3 and #g.state.map_pile == pile - 1)
fake.turn(g, 1, 5, 8, { pink = 1 })
fake.play(g, 1, "die pink", "move south")
assert(g.state.turn.seat == 2, "no second offering here: nothing to do, the turn ended")
--    the pile instead of the display
fake.turn(g, 1, 4, 8, { pink = 2 })
g.state.temples["6,8"] = {}
p.candles = 9
fake.play(g, 1, "die pink", "move south", "offer", "map pile")
assert(#p.halves == 4 and #g.state.map_pile == pile - 2)

-- 4. Meeting a yak: Ann ends on Bob's field (3,8) and swaps a map half: she takes Bob's
--    blue-a and gives her red-a.
g = game()
p, bob = g.state.players[1], g.state.players[2]
local function set_halves(seat, list)
  local st = g.state
  for _, h in ipairs(st.players[seat].halves) do st.map_pile[#st.map_pile + 1] = h end
  st.players[seat].halves = {}
  for _, h in ipairs(list) do
    assert(common.remove(st.map_pile, h) or common.remove(st.maps, h), h)
    st.players[seat].halves[#st.players[seat].halves + 1] = h
  end
end
set_halves(1, { "red-a", "green-b" })
set_halves(2, { "blue-a" })
bob.pos = { 3, 8 }
fake.turn(g, 1, 5, 8, { pink = 2 })
fake.play(g, 1, "die pink", "move north")
assert(fake.enabled(g, 1) == "swap 2, pass", fake.enabled(g, 1))
fake.play(g, 1, "swap 2", "steal blue-a")
assert(fake.enabled(g, 1) == "give red-a, give green-b", "the half just taken is not given back")
fake.play(g, 1, "give red-a")
assert(bob.halves[1] == "red-a" and common.has(p.halves, "blue-a") and not common.has(p.halves, "red-a"))
--    chest protection: Bob's red pair lies in his chest: only his loose blue-b can be taken;
--    with nothing loose, no swap is offered at all
g = game()
bob = g.state.players[2]
set_halves(1, { "green-a" })
set_halves(2, { "red-a", "red-b", "blue-b" })
bob.halves = { "blue-b" }
bob.chests = { "red" }
common.remove(bob.equipment, "rope")       -- the chest card replaces a start card here
bob.pos = { 3, 8 }
fake.turn(g, 1, 5, 8, { pink = 2 })
fake.play(g, 1, "die pink", "move north", "swap 2")
assert(fake.enabled(g, 1) == "steal blue-b", "the chest's halves cannot be taken")
fake.play(g, 1, "steal blue-b", "give green-a")
fake.turn(g, 1, 5, 8, { pink = 2 })
bob.halves = {}
g.state.map_pile[#g.state.map_pile + 1] = "green-a"
fake.play(g, 1, "die pink", "move north")
assert(fake.offered(g, 1, "swap 2") == nil, "nothing loose: no swap")

-- 5. A pair into a chest: Ann holds the chest card and red-a + red-b.
g = game()
p = g.state.players[1]
set_halves(1, { "red-a", "red-b" })
show(g, "equipment", "equipment_deck", { "chest-1" })
common.remove(g.state.equipment, "chest-1")
p.equipment = { "chest", "rope", "fodder-sack" }
g.state.equipment_discard = {}
-- (the chest came from the display; the discard pile is empty again)
fake.turn(g, 1, 5, 8, { pink = 1 })
fake.play(g, 1, "die pink", "move north")
local before = #g.events
fake.play(g, 1, "chest red")
assert(#p.halves == 0 and p.chests[1] == "red" and not common.has(p.equipment, "chest"))
-- the log names the pair in the game's language (map_pair.red), not by its colour's id
assert(fake.events_since(g, before) == "Ann locks the red pair in a chest.", fake.events_since(g, before))

-- 6. Kathmandu: Ann on (1,12) with 2 exhaustion, a 4 east (board 2's needle: a compass)
--    over the strip (food paid) to
--    (1,13), (1,14), then the Kathmandu field (1,15) stops the move (no loss): she drops
--    her exhaustion and takes the top tile, 20. Bob arrives second: 15. Both are there:
--    the game ends at once.
g = game()
p, bob = g.state.players[1], g.state.players[2]
p.exhaustion = 2
fake.turn(g, 1, 1, 12, { brown = 4 })
fake.play(g, 1, "die brown", "move east", "pay food")   -- the compass is paid at once: her only way
assert(p.pos[2] == 15 and p.arrived == 1 and p.tile == 20 and p.exhaustion == 0)
assert(g.state.turn.seat == 2 and g.state.phase == "turn")
--    Ann in Kathmandu: her turns only take a resource of her choice
fake.turn(g, 1, 1, 15, { purple = 3 })
fake.play(g, 1, "die purple")
assert(g.state.turn.step == "joker")
fake.play(g, 1, "take coin")
assert(g.state.turn.seat == 2, "no move, no actions")
fake.turn(g, 2, 2, 12, { brown = 3 })
fake.play(g, 2, "die brown", "move east", "pay food")   -- the compass paid at once
assert(bob.arrived == 2 and bob.tile == 15)
assert(g.state.phase == "over", "every yak is in Kathmandu: the game ends early")
assert(#g.rules.decisions(g) == 0)

-- 7. The most valuable tile, not the first of the list. Seed: "Befindest du dich auf einem
--    Kathmandu-Feld, ... erhältst das wertvollste noch ausliegende Kathmandu-Plättchen."
--    With game.kathmandu_tiles [5, 10, 15, 20] (cairn play --set
--    game.kathmandu_tiles=[5,10,15,20]) Ann, first in, takes max(5, 10, 15, 20) = 20 and
--    Bob, second, max(5, 10, 15) = 15; left: 5 and 10.
g = game()
g.state.kathmandu = { 5, 10, 15, 20 }
p, bob = g.state.players[1], g.state.players[2]
fake.turn(g, 1, 1, 12, { brown = 4 })
fake.play(g, 1, "die brown", "move east", "pay food")
assert(p.arrived == 1 and p.tile == 20, p.tile)
fake.turn(g, 2, 2, 12, { brown = 3 })
fake.play(g, 2, "die brown", "move east", "pay food")
assert(bob.arrived == 2 and bob.tile == 15, bob.tile)
assert(#g.state.kathmandu == 2 and g.state.kathmandu[1] == 5 and g.state.kathmandu[2] == 10)
