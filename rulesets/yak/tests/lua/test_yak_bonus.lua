-- rulesets/yak/tests/lua/test_yak_bonus.lua
-- Yak, master builder: each of the 8 (modelled) bonus cards, and the option's wrapping
-- of setup (3 cards revealed) and score (a line per card).
local fake = require "yak_fake"
local bonus = require "rules.bonus"

local data = fake.fixture.data
local T = fake.tower

local function pts(id, towers, seat)
  local list = {}
  for i, lines in ipairs(towers) do list[i] = T(lines) end
  return bonus.score_card(data, list, seat, id)
end

-- majority (5): most non-crystal stones of one colour; ties all score; crystals do not count.
--   seat 1: red 3; seat 2: blue 3 -> both 5; seat 3: * * * * R -> red 1 -> 0
local towers = { { "RRRGB" }, { "BBB**" }, { "****R" } }
assert(pts("majority", towers, 1) == 5 and pts("majority", towers, 2) == 5)
assert(pts("majority", towers, 3) == 0)
-- variety (5): most different colours (non-crystal): seat 1 has R G B = 3, seat 2 B = 1
assert(pts("variety", towers, 1) == 5 and pts("variety", towers, 2) == 0)
-- corners (4): both ends of the base alike, not crystals
assert(pts("corners", { { "RGBYR" } }, 1) == 4)
assert(pts("corners", { { "RGBY*" } }, 1) == 0)
assert(pts("corners", { { "RGBY." } }, 1) == 0)
-- crown (4): a non-crystal top stone
assert(pts("crown", { { "Y", "RB", "GYR", "BBGY", "RRGGB" } }, 1) == 4)
assert(pts("crown", { { "*", "RB", "GYR", "BBGY", "RRGGB" } }, 1) == 0)
-- rainbow (5): five base stones, all different, no crystal
assert(pts("rainbow", { { "RGBYO" } }, 1) == 5)
assert(pts("rainbow", { { "RGBYR" } }, 1) == 0)
assert(pts("rainbow", { { "RGBY*" } }, 1) == 0)
-- solid (5): a full level of 2+ stones in one colour: level 2 all blue
assert(pts("solid", { { "BBBB", "RGBYO" } }, 1) == 5)
assert(pts("solid", { { "BBB*", "RGBYO" } }, 1) == 0)
-- pure (4): 5 or more stones and no crystal
assert(pts("pure", { { "RGBYO" } }, 1) == 4)
assert(pts("pure", { { "RGBY." } }, 1) == 0)
assert(pts("pure", { { "B...", "RGBY*" } }, 1) == 0)
-- spine (4): (0,2), (2,1), (4,0) one colour
assert(pts("spine", { { "R", "RB", "GRY", "BBGY", "GYRGB" } }, 1) == 4)
assert(pts("spine", { { "R", "RB", "GRY", "BBGY", "GY*GB" } }, 1) == 0)
assert(pts("spine", { { "", "", "GRY", "BBGY", "GYRGB" } }, 1) == 0)

-- the option: 3 cards revealed at setup (bonus_cards.reveal from the overlay), one score
-- line per card, added to the total
local g = fake.new { seats = 2, seed = 3, options = { master_builder = true } }
assert(#g.state.bonus == 3, "3 of the 8 cards")
assert(g.state.bonus[1] ~= g.state.bonus[2] and g.state.bonus[2] ~= g.state.bonus[3])
local s = g.rules.score(g)
assert(#s[1].breakdown == 5 + 3, "five base lines (no crystals yet) and three cards")
local plain = fake.new { seats = 2, seed = 3 }
assert(#plain.state.bonus == 0 and #plain.rules.score(plain)[1].breakdown == 5)
print("test_yak_bonus ok")
