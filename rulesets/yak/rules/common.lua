-- rules/common.lua
-- Yak: lookups shared by every rule step (carts, foods, names), drawing from the
-- quarry bag (fog stones reverse the carts and climb the mountain track), the end trigger,
-- and the hidden parts a bot must sample (determinize).

local bag = require "cairn.bag"
local derived = require "cairn.derived"
local ids = require "cairn.ids"
local tables = require "cairn.tables"
local tower = require "rules.tower"

local M = {}

-- M.t(g, key, ...) -> the text for key in the game's language.
---@param g cairn.G
---@param key string
---@param ... any
---@return string
function M.t(g, key, ...) return g.text(key, ...) end

-- M.food_map(data [, from]) -> a map with every food kind, 0 unless from has it.
---@param data table
---@param from table<string, integer>? a food map
---@return table<string, integer>
function M.food_map(data, from)
  local map = {}
  for _, kind in ipairs(data.foods.kinds) do map[kind.id] = (from and tables.get(from, kind.id)) or 0 end
  return map
end

-- M.food_total(data, food) -> the number of tokens in a food map (its keys are food kinds:
-- state.schema.yaml; summed kind by kind, which needs no walk over the map's keys).
---@param data table
---@param food table<string, integer> a food map
---@return integer
function M.food_total(data, food)
  local n, kinds = 0, data.foods.kinds
  for i = 1, #kinds do n = n + (food[kinds[i].id] or 0) end
  return n
end

-- Option ids ("take red", "pay meat", "card build") are made once per game for each verb
-- and argument, and read back by a table lookup: building and matching strings on every
-- decision would cost as much as the rule itself (cairn.ids).
local ID = ids.new()
local parsed = ID.parts

-- M.option_id(verb, arg) -> "verb arg".
---@param verb string
---@param arg string|integer? nothing for a bare verb ("buy")
---@return string
function M.option_id(verb, arg) return ids.id(ID, verb, arg) end

-- M.parse_option(id) -> verb, arg: the parts M.option_id joined ("buy" -> "buy", nil).
---@param id string
---@return string, string? the verb and the argument
function M.parse_option(id)
  local p = parsed[id]
  if p then return p[1], p[2] end
  -- an id with no argument ("buy"), or one not offered by this process yet: parsed once
  local verb, arg = id:match("^(%S+) (.+)$")
  if not verb then verb = id end
  parsed[id] = { verb, arg }
  return verb, arg
end

-- M.cart_def(data, id) -> the data record of cart id (through derived.by's index: a
-- payment asks it for every option, and a walk of the list there costs 1.9% of a random
-- game's instructions, docs/bench.md)
---@param data table
---@param id string
---@return table the cart's record in the data
function M.cart_def(data, id) return assert(derived.by(data, data.carts.carts, "id", id), id) end

-- M.first_of_kind(list, i) -> true when list[i] is not among list[1 .. i - 1]: one
-- option per different stone of a cart or a draw (a few stones), in the order they lie.
---@param list any[]
---@param i integer
---@return boolean
function M.first_of_kind(list, i)
  local v = list[i]
  for j = 1, i - 1 do if list[j] == v then return false end end
  return true
end

-- M.cart_at(state, stop) -> the cart at a stop and its index in state.carts.
---@param state table
---@param stop integer a stop (seat s sits at stop s)
---@return table?, integer? the cart and its index in state.carts
function M.cart_at(state, stop)
  local carts = state.carts
  for i = 1, #carts do if carts[i].stop == stop then return carts[i], i end end
  return nil
end

-- M.cart_by_id(state, id) -> the cart with that id and its index.
---@param state table
---@param id string
---@return table?, integer? the cart and its index in state.carts
function M.cart_by_id(state, id)
  local carts = state.carts
  for i = 1, #carts do if carts[i].id == id then return carts[i], i end end
  return nil
end

-- Seat s sits at stop s; with 2 seats the last stop has nobody in front of it.
---@param state table
---@param seat integer
---@return table?, integer?
function M.cart_of_seat(state, seat) return M.cart_at(state, seat) end

-- M.seat_name(g, seat) -> the seat's player name.
---@param g cairn.G
---@param seat integer
---@return string
function M.seat_name(g, seat)
  local s = g.seats and g.seats[seat]
  return (s and s.name) or g.text("seat", seat)
end

---@param g cairn.G
---@param kind string
---@return string
function M.food_name(g, kind) return g.text("food." .. kind) end
---@param g cairn.G
---@param stone string
---@return string
function M.stone_name(g, stone) return g.text("stone." .. stone) end
---@param g cairn.G
---@param id string
---@return string
function M.cart_name(g, id) return g.text("cart." .. id) end

-- stone_kinds(data) -> every kind of stone (the colours, crystal, fog), sorted: what the
-- quarry bag may hold, for bag.draw (derived.of keeps it for the game: a draw walking the
-- bag's own keys instead sorts them every time, +7.6% instructions in a random game,
-- docs/bench.md)
---@param data table
---@return string[]
local function stone_kinds(data)
  local list = { data.stones.crystal.id, data.stones.fog.id }
  for _, c in ipairs(data.stones.colours) do list[#list + 1] = c.id end
  table.sort(list)
  return list
end

-- M.stone_kinds(data) -> stone_kinds(data), made once per game
---@param data table
---@return string[]
function M.stone_kinds(data) return derived.of(data, stone_kinds) end

-- M.is_crystal(data, stone) -> true for a crystal.
---@param data table
---@param stone string
---@return boolean
function M.is_crystal(data, stone) return stone == data.stones.crystal.id end

-- M.reverse(g): every yak turns round (one global heading; all yaks face the same way).
---@param g cairn.G
function M.reverse(g)
  g.state.direction = -g.state.direction
end

-- M.place_fog(g, n): n fog stones set aside during a draw go onto the mountain track;
-- each time the track fills, the fog.fills entry for that fill says how many go back
-- into the bag (the rest leave the game). After the last fill fog goes where
-- fog.after_last_fill says: "bag", straight back into the bag; "out", out of the game.
---@param g cairn.G
---@param n integer
function M.place_fog(g, n)
  local data = g.data
  local fog, rules = g.state.fog, data.fog
  local fog_id = data.stones.fog.id
  for _ = 1, n do
    fog.aside = fog.aside - 1
    if fog.fills >= #rules.fills then
      if rules.after_last_fill == "bag" then
        bag.add(g.state.bag, fog_id, 1)
        g.log_text("log.fog_back")
      else
        fog.out = fog.out + 1
        g.log_text("log.fog_out")
      end
    else
      fog.track = fog.track + 1
      if fog.track >= rules.track_length then
        fog.fills = fog.fills + 1
        local back = math.min(rules.fills[fog.fills].return_to_bag, fog.track)
        bag.add(g.state.bag, fog_id, back)
        fog.out = fog.out + fog.track - back
        g.log_text("log.fog_full", fog.fills, back)
        fog.track = 0
      end
    end
  end
end

-- M.draw_stones(g, n) -> up to n real stones from the bag. Each fog stone drawn reverses
-- the carts and is set aside; a replacement is drawn. When the draw is done the fog goes
-- onto the mountain track [seed]. An empty bag simply gives fewer stones.
---@param g cairn.G
---@param n integer
---@return string[]
function M.draw_stones(g, n)
  local st, data, rng = g.state, g.data, g.rng
  local fog_id, kinds = data.stones.fog.id, M.stone_kinds(data)
  local out, fogs = {}, 0
  while #out < n do
    local stone = bag.draw(st.bag, rng, kinds)
    if stone == nil then break end
    if stone == fog_id then
      fogs = fogs + 1
      st.fog.aside = st.fog.aside + 1
      if data.fog.reverse_each or fogs == 1 then M.reverse(g) end
      g.log_text("log.fog_drawn")
    else
      out[#out + 1] = stone
    end
  end
  if fogs > 0 then M.place_fog(g, fogs) end
  return out
end

-- M.player_room(g, seat) -> how many more food the seat's reserve can hold.
---@param g cairn.G
---@param seat integer
---@return integer
function M.player_room(g, seat)
  local data = g.data
  return data.economy.food_cap - M.food_total(data, g.state.players[seat].food)
end

-- M.check_end_trigger(g, seat): the first tower to complete the trigger level takes the
-- stupa; the game ends after this round and extra_rounds more.
---@param g cairn.G
---@param seat integer
function M.check_end_trigger(g, seat)
  local st, data = g.state, g.data
  if st.stupa then return end
  if tower.level_complete(st.players[seat].tower, data.tower.end_trigger_level) then
    st.stupa = seat
    st.last_round = st.round + data.tower.extra_rounds
    g.log_text("log.stupa", M.seat_name(g, seat), data.tower.end_trigger_level)
  end
end

-- M.determinize(view, seat, rng, g) -> a full state that shows `seat` exactly its view
-- (docs/bots.md). Hidden: the others' cards picked at sunrise and not yet revealed (drawn
-- at random), and what the quarry bag holds: every stone not seen elsewhere, so the
-- bag is worked out from the view, not guessed.
---@param view table
---@param seat integer
---@param rng cairn.Rng
---@param g cairn.G
---@return table
function M.determinize(view, seat, rng, g)
  local st, data = view, g.data
  for s = 1, #g.seats do
    if s ~= seat then
      local hidden = st.ready[s] and not st.revealed[s]
      st.chosen[s] = hidden and rng.pick({ "build", "restock", "market" }) or false
    end
  end
  local left = {}
  for _, c in ipairs(st.colours) do left[c] = data.stones.per_colour end
  left[data.stones.crystal.id] = data.stones.crystal.count
  local function seen(v)   -- every stone outside the bag: towers, carts, the action's hands
    if type(v) == "string" then
      if left[v] then left[v] = left[v] - 1 end
    elseif type(v) == "table" then
      for _, x in pairs(v) do seen(x) end
    end
  end
  for k, v in pairs(st) do
    if k ~= "bag" and k ~= "colours" and k ~= "bonus" then seen(v) end
  end
  local fog = data.stones.fog.count - st.fog.track - st.fog.out - st.fog.aside
  local contents = {}
  for stone, count in pairs(left) do
    if count > 0 then contents[stone] = count end
  end
  if fog > 0 then contents[data.stones.fog.id] = fog end
  st.bag = contents
  return st
end

return M
