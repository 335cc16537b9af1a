-- rules/setup.lua
-- Kathmandu, setup in the rulebook's order: build the route (start board, landscape
-- boards, goal board, border strips between them), goods on the cities, the extra temples
-- on marked fields, the Kathmandu tiles; each seat's board, yak tiles, start equipment,
-- map halves and resources; the displays; the weather tiles face down; then start fields
-- in reverse turn order (a decision each). The dice are rolled once every yak stands on
-- its start field (rules/round.lua, choose_start): "Entscheidet euch ... nun noch für ein
-- Startfeld ... Und dann wirft jeder noch die eigenen sechs Würfel".

local deck = require "cairn.deck"
local turn = require "cairn.turn"
local common = require "rules.common"
local tables = require "cairn.tables"

local M = {}

-- build_route: which landscape boards, in which order; the map as one string per row.
---@param g cairn.G
local function build_route(g)
  local st, data = g.state, g.data
  local boards = data.boards
  local pool = {}
  for i = 1, #boards.landscape_boards do pool[i] = i end
  if data.game.route.order == "random" then g.rng.shuffle(pool) end
  local chosen = { boards.start }
  for i = 1, data.game.route.landscape_boards do chosen[#chosen + 1] = boards.landscape_boards[pool[i]] end
  chosen[#chosen + 1] = boards.goal
  st.route, st.needles = {}, {}
  local rows = {}
  for r = 1, boards.size.rows do rows[r] = {} end
  for b, board in ipairs(chosen) do
    st.route[b] = board.id
    st.needles[b] = board.needle or false
    for r = 1, boards.size.rows do rows[r][b] = board.rows[r] end
  end
  st.map = {}
  for r = 1, boards.size.rows do st.map[r] = table.concat(rows[r]) end
  st.cols = #st.map[1]
end

-- place_extra_temples: the extra temples go on the marked fields of boards chosen at
-- random; every other marked field is just its landscape.
---@param g cairn.G
local function place_extra_temples(g)
  local st = g.state
  local marked, fields = {}, common.fields(g.data)
  for r = 1, #st.map do
    for c = 1, st.cols do
      if fields[st.map[r]:byte(c)].kind == "marked" then marked[#marked + 1] = { r, c } end
    end
  end
  g.rng.shuffle(marked)
  for i, rc in ipairs(marked) do
    local r, c = rc[1], rc[2]
    local row = st.map[r]
    local letter = (i <= g.data.game.route.extra_temples) and "T" or row:sub(c, c):upper()
    st.map[r] = row:sub(1, c - 1) .. letter .. row:sub(c + 1)
  end
end

-- fill_cities_and_temples: goods face up on each city; every temple gets its offerings list.
---@param g cairn.G
local function fill_cities_and_temples(g)
  local st, data = g.state, g.data
  local goods, fields = {}, common.fields(data)
  for _, kind in ipairs(data.goods.kinds) do
    for _, pts in ipairs(data.goods.tiles) do goods[#goods + 1] = { kind = kind, points = pts } end
  end
  g.rng.shuffle(goods)
  st.goods_supply = goods          -- tiles left in the box (not on a city)
  st.cities, st.temples = {}, {}
  for r = 1, #st.map do
    for c = 1, st.cols do
      local kind = fields[st.map[r]:byte(c)].kind
      if kind == "city" then
        local here = {}
        for _ = 1, data.game.city_goods do here[#here + 1] = table.remove(goods) end
        st.cities[common.key(r, c)] = here
      elseif kind == "temple" then
        st.temples[common.key(r, c)] = {}
      end
    end
  end
  st.specials = {}
  for _, kind in ipairs(data.goods.kinds) do st.specials[kind] = 0 end   -- 0: in the supply
end

---@param list any[]
---@param rng cairn.Rng
---@return any[] a shuffled copy
local function shuffled(list, rng)
  local d = {}
  for i, v in ipairs(list) do d[i] = v end
  rng.shuffle(d)
  return d
end

-- M.refill_displays(g): animals and equipment up to their display sizes, map halves too.
---@param g cairn.G
function M.refill_displays(g)
  local st, data, n = g.state, g.data, #g.seats
  local want = 0
  for _, row in ipairs(data.game.displays.animals) do if row.seats == n then want = row.cards end end
  while #st.animals < want and #st.animal_deck > 0 do st.animals[#st.animals + 1] = table.remove(st.animal_deck, 1) end
  want = n + data.game.displays.equipment_extra
  while #st.equipment < want and #st.equipment_deck > 0 do
    st.equipment[#st.equipment + 1] = table.remove(st.equipment_deck, 1)
  end
  M.refill_maps(g)
end

---@param g cairn.G
function M.refill_maps(g)
  local st = g.state
  while #st.maps < g.data.game.displays.map_halves and #st.map_pile > 0 do
    st.maps[#st.maps + 1] = table.remove(st.map_pile, 1)
  end
end

-- M.roll_dice(g, seat): all six dice rolled, none used.
---@param g cairn.G
---@param seat integer
function M.roll_dice(g, seat)
  local p = g.state.players[seat]
  for _, d in ipairs(g.data.game.dice) do
    local die = p.dice[d.colour]
    die.pips, die.at = g.rng.die(g.data.game.die_sides), "free"
  end
end

-- deal_map_halves: two random halves of different colours
---@param g cairn.G
---@param p table
local function deal_map_halves(g, p)
  local st = g.state
  local first = table.remove(st.map_pile, 1)
  p.halves[1] = first
  local colour = first:match("^(.-)%-")
  for i = 1, #st.map_pile do
    if st.map_pile[i]:match("^(.-)%-") ~= colour then
      p.halves[2] = table.remove(st.map_pile, i)
      return
    end
  end
end

---@param g cairn.G
function M.setup(g)
  local st, data, n = g.state, g.data, #g.seats
  build_route(g)
  place_extra_temples(g)
  fill_cities_and_temples(g)
  st.kathmandu = {}
  for i, v in ipairs(data.game.kathmandu_tiles) do st.kathmandu[i] = v end
  st.wall = data.game.storm_wall.start
  -- the decks
  local animals, equipment, halves = {}, {}, {}
  for _, a in ipairs(data.cards.animals) do animals[#animals + 1] = a.id end
  for _, e in ipairs(data.cards.equipment) do equipment[#equipment + 1] = e.id end
  for _, colour in ipairs(data.cards.map_halves.colours) do
    for _ = 1, data.cards.map_halves.copies do
      halves[#halves + 1] = colour .. "-a"
      halves[#halves + 1] = colour .. "-b"
    end
  end
  st.animal_deck = shuffled(animals, g.rng)
  st.equipment_deck = shuffled(equipment, g.rng)
  st.map_pile = shuffled(halves, g.rng)
  st.animals, st.equipment, st.maps, st.equipment_discard = {}, {}, {}, {}
  -- the weather: one face-down tile per round
  local tiles = {}
  for _ = 1, data.game.weather.storm do tiles[#tiles + 1] = "storm" end
  for _ = 1, data.game.weather.sun do tiles[#tiles + 1] = "sun" end
  g.rng.shuffle(tiles)
  st.weather, st.weather_seen, st.weather_box = {}, {}, {}
  for i, w in ipairs(tiles) do
    if i <= data.game.rounds then st.weather[#st.weather + 1] = w else st.weather_box[#st.weather_box + 1] = w end
  end
  -- characters (module): one at random each
  local characters = false
  if g.options.characters then
    characters = {}
    for _, c in ipairs(data.characters.characters) do characters[#characters + 1] = c.id end
    g.rng.shuffle(characters)
  end
  -- the seats
  st.players, st.supply_out = {}, 0
  for s = 1, n do
    local p = {
      pos = false, dice = {}, res = {}, exhaustion = 0, yak = false, stack = {},
      candles = data.game.candles, animals = {}, equipment = {}, chests = {}, halves = {},
      goods = {}, specials = {}, tile = 0, arrived = 0, character = false, tents = {},
      ability_used = false,
    }
    for _, d in ipairs(data.game.dice) do p.dice[d.colour] = { pips = 0, at = "unrolled" } end
    local start = data.game.start_resources
    if characters then
      p.character = characters[s]
      start = tables.by(data.characters.characters, "id", p.character).start
    end
    for _, r in ipairs(data.game.resources) do
      p.res[r] = start[r] or 0
      st.supply_out = st.supply_out + p.res[r]
    end
    local stack = {}
    for _, l in ipairs(data.landscapes.landscapes) do
      for _ = 1, data.game.yak_tiles_per_landscape do stack[#stack + 1] = l.id end
    end
    g.rng.shuffle(stack)
    p.yak = table.remove(stack, 1) or false
    p.stack = stack
    for _, kind in ipairs(data.cards.start_equipment) do p.equipment[#p.equipment + 1] = kind end
    deal_map_halves(g, p)
    st.players[s] = p
  end
  M.refill_displays(g)
  -- tents (module)
  st.tent_deck, st.tent_discard = {}, {}
  if g.options.tents then
    for _, l in ipairs(data.landscapes.landscapes) do
      for _ = 1, data.tents.per_landscape do st.tent_deck[#st.tent_deck + 1] = l.id end
    end
    g.rng.shuffle(st.tent_deck)
  end
  -- turn order; start fields are chosen in reverse turn order
  local sp = data.game.start_player
  st.start_player = (sp == "random") and g.rng.int(1, n) or sp
  st.order = turn.order(st.start_player, n)
  st.choosing = {}
  for i = n, 1, -1 do st.choosing[#st.choosing + 1] = st.order[i] end
  st.round, st.turn_no, st.turn, st.tent_ask = 1, 0, false, false
  st.phase = "start"
  st.arrivals = 0
  common.log(g, "log.setup", n, #st.route - 2, common.seat_name(g, st.start_player))
  if characters then
    for s = 1, n do common.log(g, "log.character", common.seat_name(g, s), g.text("character." .. st.players[s].character)) end
  end
end

-- M.start_fields(g) -> the start fields {r, c} from north to south
---@param g cairn.G
---@return integer[][]
function M.start_fields(g)
  local st = g.state
  local list, fields = {}, common.fields(g.data)
  for c = 1, g.data.boards.size.cols do
    for r = 1, #st.map do
      if fields[st.map[r]:byte(c)].kind == "start" then list[#list + 1] = { r, c } end
    end
  end
  return list
end

M.deck = deck
return M
