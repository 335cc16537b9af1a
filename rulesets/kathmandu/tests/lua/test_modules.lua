-- rulesets/kathmandu/tests/lua/test_modules.lua
-- The two modules. Characters: start resources and each ability (naturalist, trader,
-- pilgrim from the seed; guide, herder, scout modelled). Tents: drawn by the lowest dice
-- sum at a round's end, played at the end of an opponent's turn on their landscape.
local fake = require "kfake"
local tables = require "cairn.tables"
local common = require "rules.common"
local round = require "rules.round"

local ROWS = fake.ROWS   -- the hand-drawn route of kfake.lua
local function game(options)
  local g = fake.new { seats = 2, seed = 9, options = options }
  fake.map(g, ROWS, { "north", "east", false })
  local st = g.state
  for _, id in ipairs(st.animals) do st.animal_deck[#st.animal_deck + 1] = id end
  for _, id in ipairs(st.equipment) do st.equipment_deck[#st.equipment_deck + 1] = id end
  st.animals, st.equipment = {}, {}
  return g
end
local function as(g, seat, character) g.state.players[seat].character = character end

-- 1. Start resources: each seat's character sets them (data/characters.yaml).
local g = game { characters = true }
for s = 1, 2 do
  local p = g.state.players[s]
  local want = tables.by(g.data.characters.characters, "id", p.character).start
  for _, r in ipairs(g.data.game.resources) do assert(p.res[r] == (want[r] or 0), p.character .. " " .. r) end
end
assert(g.state.players[1].character ~= g.state.players[2].character, "dealt without repeats")

-- 2. The naturalist may paint an animal of a neighbouring landscape: on steppe (3,6) next
--    to the forest (3,7), the red panda (forest) is offered; for anyone else it is not.
g = game { characters = true }
assert(common.remove(g.state.animal_deck, "red-panda"))
g.state.animals = { "red-panda" }
fake.res(g, 1, { paint = 1 })
as(g, 1, "scout")
fake.turn(g, 1, 3, 4, { pink = 2 })
fake.play(g, 1, "die pink", "move east")         -- (3,6): steppe, the forest east of it
assert(fake.offered(g, 1, "paint red-panda") == nil)
as(g, 1, "naturalist")
fake.turn(g, 1, 3, 4, { pink = 2 })
fake.play(g, 1, "die pink", "move east")
assert(fake.offered(g, 1, "paint red-panda") == "enabled",
  fake.enabled(g, 1) .. " " .. g.state.players[1].pos[2] .. " " .. tostring(g.state.turn and g.state.turn.seat))

-- 3. The trader buys from any city of the board the yak is on: (1,7) is on board 2 with
--    the city (4,9).
g = game { characters = true }
fake.city(g, "4,9", { { "carpet", 2 } })
as(g, 1, "trader")
fake.turn(g, 1, 3, 7, { orange = 2 })
fake.play(g, 1, "die orange", "move north")       -- (1,7), forest
fake.play(g, 1, "buy carpet")                     -- coin 2 (trader) + 1 - 1 = 2
assert(g.state.players[1].goods[1].kind == "carpet" and #g.state.cities["4,9"] == 0)

-- 4. The pilgrim places two candles at once: 9 - 2 = 7 (offerings score 4, not 2).
g = game { characters = true }
as(g, 1, "pilgrim")
fake.turn(g, 1, 4, 8, { pink = 2 })
fake.play(g, 1, "die pink", "move south", "offer")
assert(g.state.players[1].candles == 7 and #g.state.temples["6,8"] == 1)

-- 5. The guide: once a round a cut-short move gives no exhaustion (without the rope).
g = game { characters = true }
local p = g.state.players[1]
as(g, 1, "guide")
p.equipment = {}
g.state.equipment_discard = { "rope", "fodder-sack" }
fake.turn(g, 1, 3, 2, { brown = 4 })
fake.play(g, 1, "die brown", "move west")
assert(p.exhaustion == 0 and p.ability_used)
fake.turn(g, 1, 3, 2, { brown = 4 })
fake.play(g, 1, "die brown", "move west")
assert(p.exhaustion == 1, "only once a round")

-- 6. The herder: once a round a border strip for free (offered beside food and the
--    fodder sack; no exhaustion, since she holds food: game.exhaustion.instead_of_paying).
g = game { characters = true }
p = g.state.players[1]
as(g, 1, "herder")
fake.turn(g, 1, 3, 5, { grey = 3 })
fake.play(g, 1, "die grey", "move east")
assert(fake.enabled(g, 1) == "pay food, use fodder-sack, use ability", fake.enabled(g, 1))
local food = p.res.food
fake.play(g, 1, "use ability")
assert(p.res.food == food and p.exhaustion == 0 and p.ability_used)

-- 7. The scout may stop one field short: a 3 east from (5,1) ends on (5,3), not (5,4).
g = game { characters = true }
p = g.state.players[1]
as(g, 1, "scout")
fake.turn(g, 1, 5, 1, { pink = 3 })
fake.play(g, 1, "die pink", "move east short")
assert(p.pos[2] == 3)

-- 8. Tents: the lowest dice sum at the round's end draws one.
g = game { tents = true }
local st = g.state
for s = 1, 2 do for _, d in pairs(st.players[s].dice) do d.at = "free" end end
st.players[1].dice.brown.pips, st.players[1].dice.brown.at = 6, "used"
st.players[2].dice.brown.pips, st.players[2].dice.brown.at = 1, "used"
local deck = #st.tent_deck
round.round_end(g)
assert(#st.players[2].tents == 1 and #st.tent_deck == deck - 1 and #st.players[1].tents == 0)
--    Bob holds a forest tent; Ann's turn ends on forest (4,8): Bob is asked, plays it,
--    and Ann takes an exhaustion (0 + 1 = 1); the tent is discarded.
g = game { tents = true }
st = g.state
common.remove(st.tent_deck, "forest")
st.players[2].tents = { "forest" }
fake.turn(g, 1, 5, 8, { pink = 1 })
fake.play(g, 1, "die pink", "move north")
assert(st.phase == "tent" and fake.enabled(g, 2) == "tent forest, pass")
assert(fake.label(g, 2, "tent forest") == "play a forest tent: Ann takes an exhaustion")
fake.play(g, 2, "tent forest")
assert(st.players[1].exhaustion == 1 and #st.players[2].tents == 0 and st.tent_discard[1] == "forest")
assert(st.phase == "turn" and st.turn.seat == 2, "then Bob's turn")
--    passing keeps the tent; a turn ending on steppe asks nobody
g = game { tents = true }
st = g.state
common.remove(st.tent_deck, "forest")
st.players[2].tents = { "forest" }
fake.turn(g, 1, 5, 8, { pink = 1 })
fake.play(g, 1, "die pink", "move north")
fake.play(g, 2, "pass")
assert(st.players[1].exhaustion == 0 and #st.players[2].tents == 1)
fake.turn(g, 1, 5, 2, { pink = 1 })
fake.play(g, 1, "die pink", "move east")
assert(st.phase == "turn" and st.turn.seat == 2, "steppe: no tent asked")
