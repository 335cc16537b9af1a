-- rulesets/himalaya/tests/lua/test_himalaya_scoring.lua
-- The end: influences; 4 seats eliminate the lowest religious (pieces removed before the
-- political recount), then the lowest political, then most yaks; 3 seats: 2 of 3 wins, or
-- the fallback; 5 and 6 seats per the expansion's table (6: two out on political).
local fake = require "hm_fake"
local score = require "rules.score"

-- a finished board: stupas at villages, envoys in regions, rings and tokens by hand
local function board(n, o)
  local g = fake.new { seats = n, seed = 3 }
  fake.clear_board(g)
  local st = g.state
  st.phase = "over"
  for v, s in pairs(o.stupas or {}) do st.villages[v].stupa = s st.players[s].stupas = st.players[s].stupas - 1 end
  for r, per in pairs(o.envoys or {}) do
    for s, c in pairs(per) do st.envoys[r][s] = c st.players[s].envoys = st.players[s].envoys - c end
  end
  for s, tk in pairs(o.tokens or {}) do st.players[s].tokens = tk st.players[s].token_count = tk end
  for s, rings in pairs(o.rings or {}) do
    for _, id in ipairs(rings) do fake.put_ring(g, 1, id) st.villages[1].ring = false table.insert(st.players[s].rings, id) end
    st.players[s].ring_count = #st.players[s].rings
  end
  return g
end

local function ranking(g)
  local r = {}
  for i, tier in ipairs(g.state.result.ranking) do r[i] = table.concat(tier, "=") end
  return table.concat(r, " ")
end

-- 1. Four seats. Levels: 1 house (1), 2 temple (2), 5 monastery (3), 7 temple (2), 8 monastery (3).
--    Religious: Ann 1+2 = 3 (villages 1, 2); Bob 3 (5); Cai 2 (7); Dee 3 (8).
--    Cai is lowest (2): out, and Cai's envoys leave the board.
--    Envoys: r1 Ann 1, Cai 3 -> before removal Cai wins r1; r2 Bob 2, Cai 2 (tie: nobody);
--    r3 Dee 1; r4 Ann 2, Bob 1. After removing Cai: r1 Ann, r2 Bob, r3 Dee, r4 Ann:
--    political Ann 2, Bob 1, Dee 1: Bob and Dee tie for lowest (1). scoring.elimination_ties
--    .political (a 2005 play report: a political tie goes by envoys on the board): fewer
--    envoys goes out: Bob r2 2 + r4 1 = 3, Dee r3 1 = 1: Dee (1 < 3) out.
--    Yaks: Ann 1 token = 3; Bob o40 (12) = 12; Dee o01 (2) + 2 tokens (6) = 8.
--    Survivors Ann 3, Bob 12: Bob wins. Ranking Bob, Ann, Dee (out 2nd), Cai (out 1st).
local g = board(4, {
  stupas = { [1] = 1, [2] = 1, [5] = 2, [7] = 3, [8] = 4 },
  envoys = { r1 = { [1] = 1, [3] = 3 }, r2 = { [2] = 2, [3] = 2 }, r3 = { [4] = 1 }, r4 = { [1] = 2, [2] = 1 } },
  tokens = { [1] = 1, [4] = 2 }, rings = { [2] = { "o40" }, [4] = { "o01" } },
})
assert(score.religious(g, 1) == 3 and score.religious(g, 2) == 3 and score.religious(g, 3) == 2 and score.religious(g, 4) == 3)
local before = score.political(g, { true, true, true, true })
assert(before[1] == 1 and before[2] == 0 and before[3] == 1 and before[4] == 1, "r1 Cai, r2 tied, r3 Dee, r4 Ann")
score.finish(g)
assert(g.state.result.steps[1].out[1] == 3, "Cai out on religious")
assert(g.state.result.steps[2].out[1] == 4, "Dee out on political, tie broken by fewer envoys")
assert(g.state.result.steps[2].tie:find("fewer envoys", 1, true) and g.state.result.steps[2].tie:find("Dee 1, Bob 3", 1, true), g.state.result.steps[2].tie)
assert(g.state.envoys.r1[3] == 0 and g.state.villages[7].stupa == false, "Cai's pieces left the board")
assert(g.state.result.political_final[1] == 2 and g.state.result.political_final[2] == 1)
assert(ranking(g) == "2 1 4 3")
-- the values are listed lowest first, ties in elimination order (fewer yaks first: Ann 3, Dee 8, Bob 12)
assert(fake.has_event(g, "Elimination 1 (religious): Cai 2, Ann 3, Dee 3, Bob 3. Out: Cai."))
local sc = score.score(g)
assert(sc[2].total == 12 and sc[1].total == 3 and sc[4].total == 8)
-- the final table's political influence is the recount that decided (Cai's envoys gone):
-- Ann 2 (r1, r4; before it 1), Bob 1 (r2; before it 0), not the count before the eliminations
local function line(seat_score, key)
  for _, b in ipairs(seat_score.breakdown) do if b.key == key then return b.points end end
end
assert(line(sc[1], "political") == 2 and line(sc[2], "political") == 1, "political after the recount")

-- 2. Three seats, a 2-of-3 leader: Ann religious 3 (monastery 5), Bob 1 (house 1), Cai 0;
--    political: r1 Ann 2 -> Ann 1, others 0; yaks: Bob 12, Ann 0, Cai 3. Ann leads 2 of 3: wins.
--    The rest by yaks: Bob 12, Cai 3.
g = board(3, { stupas = { [5] = 1, [1] = 2 }, envoys = { r1 = { [1] = 2 } }, rings = { [2] = { "o40" } }, tokens = { [3] = 1 } })
score.finish(g)
assert(g.state.result.mode == "majority" and ranking(g) == "1 2 3")
--    no 2-of-3 leader: religious Ann 3 (5), Bob 3 (8) tie -> no leader; political Bob (r1 1);
--    yaks Cai 12. Each leads at most 1: fallback: lowest religious out = Cai (0). Then most
--    yaks of Ann (0) and Bob (3 = 1 token): Bob wins. Ranking Bob, Ann, Cai.
g = board(3, { stupas = { [5] = 1, [8] = 2 }, envoys = { r1 = { [2] = 1 } }, rings = { [3] = { "o40" } }, tokens = { [2] = 1 } })
score.finish(g)
assert(g.state.result.mode == "elimination" and g.state.result.steps[1].out[1] == 3)
assert(ranking(g) == "2 1 3")

-- 3. Five seats: one out on religious, one on political, the most yaks of three wins.
--    Religious: Ann 3 (5), Bob 3 (8), Cai 2 (2), Dee 2 (7), Eve 1 (1): Eve out.
--    Political: r1 Ann, r2 Bob, r3 Cai; Dee none: Dee out. Yaks: Ann 3, Bob 6, Cai 12: Cai wins.
g = board(5, {
  stupas = { [5] = 1, [8] = 2, [2] = 3, [7] = 4, [1] = 5 },
  envoys = { r1 = { [1] = 1 }, r2 = { [2] = 1 }, r3 = { [3] = 1 } },
  tokens = { [1] = 1, [2] = 2 }, rings = { [3] = { "o40" } },
})
score.finish(g)
assert(#g.state.result.steps == 2 and g.state.result.steps[1].out[1] == 5 and g.state.result.steps[2].out[1] == 4)
assert(ranking(g) == "3 2 1 4 5")

-- 4. Six seats: two out on political. Religious: Fay 0 lowest (others have a stupa): Fay out.
--    Political among 5: r1 Ann, r2 Bob, r3 Cai 2 regions (r3, r4); Dee 0, Eve 0: both out, the
--    tie between them broken by fewer yaks (Dee 0 < Eve 3), so Dee ranks below Eve.
--    Yaks: Ann 3, Bob 6, Cai 0: Bob wins, Ann, Cai. Ranking Bob Ann Cai Eve Dee Fay.
g = board(6, {
  stupas = { [5] = 1, [8] = 2, [2] = 3, [7] = 4, [1] = 5 },
  envoys = { r1 = { [1] = 1 }, r2 = { [2] = 1 }, r3 = { [3] = 1 }, r4 = { [3] = 1 } },
  tokens = { [1] = 1, [2] = 2, [5] = 1 },
})
score.finish(g)
local outs = g.state.result.steps[2].out
assert(#outs == 2 and outs[1] == 4 and outs[2] == 5, "Dee and Eve out on political")
assert(ranking(g) == "2 1 3 5 4 6")

-- 5. The two sources that disagree, each a named value (docs/rules/himalaya.md, "Conflicting
--    sources").
--    a) The political tie-break (scoring.elimination_ties.political). Four seats as in 1,
--    but Dee holds 5 tokens (15 yaks) instead of 2: Bob and Dee tie for lowest political
--    (1). Envoys on the board (the 2005 play report, the default): Bob 2 + 1 = 3, Dee 1:
--    Dee goes out (1 < 3). Yaks first (§6.4's assumption): Bob 12, Dee o01 2 + 15 = 17:
--    Bob goes out (12 < 17).
local function four(political)
  local g = board(4, {
    stupas = { [1] = 1, [2] = 1, [5] = 2, [7] = 3, [8] = 4 },
    envoys = { r1 = { [1] = 1, [3] = 3 }, r2 = { [2] = 2, [3] = 2 }, r3 = { [4] = 1 }, r4 = { [1] = 2, [2] = 1 } },
    tokens = { [1] = 1, [4] = 5 }, rings = { [2] = { "o40" }, [4] = { "o01" } },
  })
  if political then g.data.scoring.elimination_ties.political = political end
  score.finish(g)
  return g
end
g = four()
assert(g.state.result.steps[2].out[1] == 4 and g.state.result.steps[2].tie:find("fewer envoys on the board: Dee 1, Bob 3", 1, true))
g = four { "fewer_yaks", "fewer_envoys", "lot" }
assert(g.state.result.steps[2].out[1] == 2 and g.state.result.steps[2].tie:find("fewer yaks: Bob 12, Dee 17", 1, true))
--    b) Three seats (scoring.majority_win.seats). The board of 2's first game: Ann leads
--    religious (3) and political (1): 2 of 3, she wins (S16, S17: the default). With
--    seats: [] (a 2005 newspaper review: religious elimination, then most yaks): Cai (0)
--    goes out on religious, then most yaks of Ann (0) and Bob (12): Bob wins; Ann second.
local function three(seats)
  local g = board(3, { stupas = { [5] = 1, [1] = 2 }, envoys = { r1 = { [1] = 2 } }, rings = { [2] = { "o40" } }, tokens = { [3] = 1 } })
  if seats then g.data.scoring.majority_win.seats = seats end
  score.finish(g)
  return g
end
g = three()
assert(g.state.result.mode == "majority" and ranking(g) == "1 2 3")
g = three {}
assert(g.state.result.mode == "elimination" and g.state.result.steps[1].out[1] == 3 and ranking(g) == "2 1 3")
