-- tools/bench/uct.lua
-- The plain-Lua UCT of `make bench`'s bot section (tools/bench/bots.c): the
-- same search as cairn's mcts (interpreter/play/bot_mcts.c) written in plain
-- Lua over the ruleset's own rules (rules.lua and its modules, required
-- straight from the ruleset's folder and the stdlib), with no engine around
-- it: a minimal g (state, data, options, seats, rng, text and log that do
-- nothing, labels off), the state copied table by table for every
-- iteration, or sampled from the seat's view by the ruleset's determinize
-- as cairn's ismcts does. Each iteration walks the tree by UCB1 (the first
-- seat asked answers first, as engine_playout does), adds one node, plays
-- `depth` random decisions and scores the position as cairn's bots do: at
-- the end the win share by total, else 0.5 + 0.5 tanh((v - best other v) /
-- 10) of v = score total + heuristic.
--
-- Run in a plain luaL_newstate() + luaL_openlibs() state with package.path
-- set to the ruleset's folder and the stdlib; the chunk returns
-- new(rules, data, options, seats) -> search(state, view, seat, iterations,
-- depth, seed) -> iterations made.

local function new_rng(seed)
  local s = seed
  local function next64()
    s = s + 0x9E3779B97F4A7C15
    local z = s
    z = (z ~ (z >> 30)) * 0xBF58476D1CE4E5B9
    z = (z ~ (z >> 27)) * 0x94D049BB133111EB
    return z ~ (z >> 31)
  end
  local function below(n) return (next64() >> 11) % n end
  local r = {}
  function r.int(a, b) return a + below(b - a + 1) end
  function r.die(n) return 1 + below(n) end
  function r.shuffle(list)
    for i = #list, 2, -1 do
      local j = 1 + below(i)
      list[i], list[j] = list[j], list[i]
    end
    return list
  end
  function r.pick(list) return list[1 + below(#list)] end
  function r.weighted(items, weight)
    local total = 0
    for _, it in ipairs(items) do total = total + (weight and weight(it) or it.weight) end
    local x = below(total)
    for _, it in ipairs(items) do
      x = x - (weight and weight(it) or it.weight)
      if x < 0 then return it end
    end
  end
  r.below = below
  return r
end

local function copy(t)
  if type(t) ~= "table" then return t end
  local c = {}
  for k, v in pairs(t) do c[k] = copy(v) end
  return c
end

local function nothing() end
local function key_text(key) return key end

local function new(rules, data, options, seats)
  local g = { data = data, options = options, seats = seats, labels = false, lang = "en",
              text = key_text, log = nothing, log_text = nothing, width = 80, height = 24 }

  -- the first asked seat's enabled options (those marked bot = false passed by
  -- while it has others), or nil at the end of the game
  local function asked(ids)
    local list = rules.decisions(g)
    if list.seat then list = { list } end
    local d = list[1]
    if not d then return nil end
    local n, avoided = 0, 0
    for _, o in ipairs(d.options) do
      if type(o) == "string" then n = n + 1; ids[n] = o
      elseif not o.disabled then
        if o.bot == false then avoided = avoided + 1 end
        n = n + 1; ids[n] = o
      end
    end
    if avoided > 0 and avoided < n then
      local m = 0
      for i = 1, n do
        local o = ids[i]
        if type(o) == "string" or o.bot ~= false then m = m + 1; ids[m] = o end
      end
      n = m
    end
    for i = 1, n do
      if type(ids[i]) == "table" then ids[i] = ids[i].id end
    end
    for i = n + 1, #ids do ids[i] = nil end
    return d.seat, n
  end

  local function values(n)
    local sc, v = rules.score(g), {}
    for s = 1, n do
      v[s] = sc[s].total
      if rules.heuristic then v[s] = v[s] + rules.heuristic(g, s) end
    end
    return v
  end

  local function rewards(over, n)
    local v, r = values(n), {}
    if over then
      local best, k = math.mininteger, 0
      for s = 1, n do if v[s] > best then best = v[s] end end
      for s = 1, n do if v[s] == best then k = k + 1 end end
      for s = 1, n do r[s] = v[s] == best and 1 / k or 0 end
      return r
    end
    for s = 1, n do
      local other = -math.huge
      for t = 1, n do if t ~= s and v[t] > other then other = v[t] end end
      local x = (v[s] - other) / 10
      local e = math.exp(2 * x)
      r[s] = 0.5 + 0.5 * ((e - 1) / (e + 1))
      if e == math.huge then r[s] = 1 end
    end
    return r
  end

  return function(state, view, seat, iterations, depth, seed)
    local n = #seats
    local root = { kids = {}, n = {}, w = {}, avail = {} }
    local ids, path, who = {}, {}, {}
    for it = 1, iterations do
      local rng = new_rng(seed * 1000003 + it)
      g.rng = rng
      if view then g.state = rules.determinize(copy(view), seat, rng, g)
      else g.state = copy(state) end
      local node, steps, over = root, 0, false
      while true do -- the walk: UCB1 over the options offered now
        local s, k = asked(ids)
        if not s then over = true; break end
        local best, best_v
        for i = 1, k do
          local id = ids[i]
          node.avail[id] = (node.avail[id] or 0) + 1
          local nv = node.n[id] or 0
          local v = nv == 0 and 1e9 + rng.below(1000)
            or node.w[id] / nv + 1.4 * math.sqrt(math.log(node.avail[id]) / nv)
          if not best_v or v > best_v then best, best_v = id, v end
        end
        steps = steps + 1
        path[steps], who[steps] = node, s
        ids.chosen = best
        path[-steps] = best
        rules.apply(g, s, best)
        local kid = node.kids[best]
        if not kid then
          node.kids[best] = { kids = {}, n = {}, w = {}, avail = {} }
          break
        end
        node = kid
      end
      if not over then -- the rollout: depth random decisions
        for _ = 1, depth do
          local s, k = asked(ids)
          if not s then over = true; break end
          rules.apply(g, s, ids[1 + rng.below(k)])
        end
        if not over and not asked(ids) then over = true end
      end
      local r = rewards(over, n)
      for i = 1, steps do
        local nd, id = path[i], path[-i]
        nd.n[id] = (nd.n[id] or 0) + 1
        nd.w[id] = (nd.w[id] or 0) + r[who[i]]
      end
    end
    return iterations
  end
end

return new
