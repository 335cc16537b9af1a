-- rulesets/himalaya/tests/lua/test_himalaya_round.lua
-- The month: the supply table by seat count, next free village in ascending order with
-- wrap-around, caravans placed from the start player, the play order rotating, secret
-- programming (back, ready, the reveal), the village-token queue and its reshuffle.
local fake = require "hm_fake"
local supply = require "rules.supply"
local fake_rng = require "cairn.fake_rng"

local function count(g, what)
  local n, cubes = 0, 0
  for _, v in ipairs(g.state.villages) do
    if what == "cubes" and #v.cubes > 0 then n, cubes = n + 1, cubes + #v.cubes end
    if what == "ring" and v.ring then n = n + 1 end
  end
  return n, cubes
end

-- 1. The supply by seat count: 3-4 seats 5 villages x 5 cubes and 5 orders; 5 seats 6 x 4
--    and 6; 6 seats 6 x 5 and 6. Cubes: 60 in the bag, 80 with the expansion.
for _, row in ipairs { { 3, 5, 25, 5, 60 }, { 4, 5, 25, 5, 60 }, { 5, 6, 24, 6, 80 }, { 6, 6, 30, 6, 80 } } do
  local g = fake.new { seats = row[1], seed = 7 }
  local nv, nc = count(g, "cubes")
  assert(nv == row[2] and nc == row[3], row[1] .. " seats: " .. nv .. " villages, " .. nc .. " cubes")
  assert(count(g, "ring") == row[4])
  local bag = 0
  for _, c in pairs(g.state.bag) do bag = bag + c end
  assert(bag + nc == row[5], "cubes in the box")
end

-- 2. The next free village: 20 is taken, 1 is taken: a roll of 20 gives village 2.
local g = fake.new { seats = 4, seed = 7 }
fake.clear_board(g)
fake.put_cubes(g, 20, { "salt" })
fake.put_cubes(g, 1, { "salt" })
assert(supply.next_free(g, 20) == 2 and supply.next_free(g, 19) == 19)
g.rng = fake_rng.script { 20 }
assert(supply.place_cubes(g) == 2)

-- 3. Caravans: the start player places first, then clockwise; one caravan per village;
--    round 1 resolves from the seat left of the first placer, then the first seat rotates.
g = fake.new { seats = 4, seed = 7 }
g.state.start, g.state.place_order, g.state.first = 3, { 3, 4, 1, 2 }, 4
assert(fake.decision(g, 3))
fake.play(g, 3, "start 5")
assert(fake.disabled(g, 4) == "start 5" and g.rules.reason(g, 4, "start 5") == "Cai's caravan is already there")
fake.play(g, 4, "start 6")
fake.play(g, 1, "start 7")
fake.play(g, 2, "start 8")
assert(g.state.phase == "program")
g.state.order = { 4, 1, 2, 3 }
assert(#g.rules.decisions(g) == 4, "every seat programs at once")
-- 4. Programming: a seat's answers touch only its own program; `back` takes the last piece
--    off; a full program offers ready and back, the actions disabled.
fake.play(g, 1, "dirt", "ice", "deal", "rest", "stone", "deal")
assert(fake.enabled(g, 1) == "ready, back")
fake.play(g, 1, "back", "rest")
assert(table.concat(g.state.programs[1], " ") == "dirt ice deal rest stone rest")
assert(#g.state.programs[2] == 0)
fake.play(g, 1, "ready")
assert(#g.rules.decisions(g) == 3, "Ann is no longer asked")
for _, s in ipairs { 2, 3, 4 } do fake.play(g, s, "rest", "rest", "rest", "rest", "rest", "rest", "ready") end
--    the last ready reveals: programs public, resolution done, month 2 from the next seat (1)
assert(g.state.month == 2 and g.state.first == 1 and table.concat(g.state.order, " ") == "1 2 3 4")
assert(fake.has_event(g, "Programs revealed: Dee: rest rest rest rest rest rest; Ann: dirt ice deal rest stone rest;"))
--    Ann at Thame (7): dirt -> Phortse (6), ice -> Namche (1), deal, rest, stone (none at 1), rest
assert(g.state.caravans[1] == 1)

-- 5. The village-token queue (allergic to chaos): the initial placement draws 10 tokens from
--    the pile into the discards, then 5 go face up; the furthest from the pile (queue[1]) is
--    used first and the row slides. Seed: "After the last of the twenty village tokens have
--    been drawn, reshuffle the discarded villages and place them back in the draw pile."
g = fake.new { seats = 4, seed = 7, options = { ["allergic-to-chaos"] = true } }
local vt = g.state.village_tokens
assert(#vt.discard == 10 and #vt.queue == 5 and #vt.pile == 5)   -- 10 + 5 + 5 = 20
local q1, q2, p1 = vt.queue[1], vt.queue[2], vt.pile[1]
fake.clear_board(g)
assert(supply.place_cubes(g) == q1, "the first token of the row names the village (it is free)")
assert(vt.queue[1] == q2 and vt.queue[5] == p1, "the row slid and the pile's top token joined it")
assert(#vt.pile == 4 and #vt.discard == 11)                       -- 5 - 1 = 4; 10 + 1 = 11
for _ = 1, 3 do supply.roll_village(g) end
assert(#vt.pile == 1 and #vt.discard == 14, "19 drawn: no reshuffle yet")   -- 4 - 3; 11 + 3
supply.roll_village(g)
--    the 20th token drawn (10 + 5 + 1 + 4 = 20): the discards (14 + 1 = 15) are reshuffled
--    into the pile at once, before any later draw finds it empty
assert(#vt.pile == 15 and #vt.discard == 0 and #vt.queue == 5, #vt.pile)
assert(fake.has_event(g, "The last village token of the pile is drawn: 15 discarded tokens are reshuffled into a new pile."))
supply.roll_village(g)                 -- the next one comes from the new pile: 15 - 1 = 14
assert(#vt.pile == 14 and #vt.discard == 1)
