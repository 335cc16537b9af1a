-- rules/determinize.lua
-- Kathmandu, for the bots that search (docs/bots.md): a full state that shows `seat` exactly
-- its view, every hidden part drawn from `rng` among what the rules allow. Hidden
-- (ruleset.yaml's visibility): every yak stack below its top tile, the face-down weather
-- tiles and those left in the box, the decks (animals, equipment, map halves, tents), the
-- goods tiles left in the box, and the other seats' tent cards. What a deck holds is worked
-- out from every card in sight; only its order is drawn. Only the view, g.data, g.options,
-- g.seats and rng are used (docs/rules/kathmandu.md, Bots).

local bag = require "cairn.bag"
local tables = require "cairn.tables"

local M = {}

-- deal(pool, n, what) -> n items from the (shuffled) pool, removed; an error names a shortfall
---@param pool table
---@param n integer
---@param what string
---@return any[]
local function deal(pool, n, what)
  if #pool < n then error(string.format("determinize: %d %s unseen, the view needs %d", #pool, what, n), 2) end
  local out = {}
  for i = 1, n do out[i] = table.remove(pool) end
  return out
end

-- unseen(all, seen_lists) -> the items of `all` (a bag) in none of the lists, as a sorted list
---@param all table<string, integer> a bag (cairn.bag)
---@param lists string[][]
---@return string[]
local function unseen(all, lists)
  for _, list in ipairs(lists) do
    for _, x in ipairs(list) do bag.remove(all, x) end
  end
  return bag.list(all)
end

-- the yak stacks: each seat's tiles under its top one are any of its ten (two per
-- landscape) but the top one, as many as the view counts. The state keeps no record of the
-- tiles fulfilled, so the view cannot tell which ones are gone.
---@param st table
---@param rng cairn.Rng
---@param g cairn.G
local function sample_stacks(st, rng, g)
  local data = g.data
  for _, p in ipairs(st.players) do
    local tiles = bag.new()
    for _, l in ipairs(data.landscapes.landscapes) do bag.add(tiles, l.id, data.game.yak_tiles_per_landscape) end
    if p.yak then bag.remove(tiles, p.yak) end
    p.stack = deal(rng.shuffle(bag.list(tiles)), p.stack, "yak tiles")
  end
end

-- the weather: the tiles not yet revealed are shuffled, face down for the rounds to come
-- and in the box
---@param st table
---@param rng cairn.Rng
---@param g cairn.G
local function sample_weather(st, rng, g)
  local w = g.data.game.weather
  local pool = rng.shuffle(unseen(bag.new { storm = w.storm, sun = w.sun }, { st.weather_seen }))
  st.weather = deal(pool, #st.weather, "weather tiles")
  st.weather_box = deal(pool, st.weather_box, "weather tiles")
end

-- the animal deck: every animal card not on the display nor painted
---@param st table
---@param rng cairn.Rng
---@param g cairn.G
local function sample_animals(st, rng, g)
  local all = bag.new()
  for _, a in ipairs(g.data.cards.animals) do bag.add(all, a.id) end
  local lists = { st.animals }
  for _, p in ipairs(st.players) do lists[#lists + 1] = p.animals end
  st.animal_deck = deal(rng.shuffle(unseen(all, lists)), st.animal_deck, "animal cards")
end

-- the equipment deck: cards are on the display by id, but held and discarded by kind (and
-- a chest used up holds a pair), so the deck's kinds are worked out from every card in
-- sight and the start cards; which copy of a kind (its landscape) is still in the deck is
-- drawn among the copies not on the display
---@param st table
---@param rng cairn.Rng
---@param g cairn.G
local function sample_equipment(st, rng, g)
  local data, n = g.data, #st.players
  local left = {}        -- kind -> copies of the deck's set not in sight
  local copies = {}      -- kind -> ids not on the display
  local on_display = {}
  for _, id in ipairs(st.equipment) do on_display[id] = true end
  for _, e in ipairs(data.cards.equipment) do
    left[e.kind] = (left[e.kind] or 0) + 1
    if not on_display[e.id] then
      copies[e.kind] = copies[e.kind] or {}
      copies[e.kind][#copies[e.kind] + 1] = e.id
    end
  end
  local function gone(kind) left[kind] = (left[kind] or 0) - 1 end
  for _, id in ipairs(st.equipment) do gone(tables.by(data.cards.equipment, "id", id).kind) end
  for _, kind in ipairs(st.equipment_discard) do gone(kind) end
  for _, p in ipairs(st.players) do
    for _, kind in ipairs(p.equipment) do gone(kind) end
    for _ = 1, #p.chests do gone("chest") end
  end
  for _, kind in ipairs(data.cards.start_equipment) do left[kind] = (left[kind] or 0) + n end
  local deck = {}
  for _, e in ipairs(data.cards.equipment) do
    local kind = e.kind
    if copies[kind] then
      local ids = copies[kind]
      copies[kind] = nil
      if left[kind] < 0 or left[kind] > #ids then
        error(string.format("determinize: %d %s cards unseen of %d", left[kind], kind, #ids))
      end
      for _, id in ipairs(deal(rng.shuffle(ids), left[kind], kind .. " cards")) do deck[#deck + 1] = id end
    end
  end
  if #deck ~= st.equipment_deck then
    error(string.format("determinize: %d equipment cards unseen, the view counts %d", #deck, st.equipment_deck))
  end
  st.equipment_deck = rng.shuffle(deck)
end

-- the map pile: every half not on the display, held, or in a chest (a pair)
---@param st table
---@param rng cairn.Rng
---@param g cairn.G
local function sample_maps(st, rng, g)
  local mh = g.data.cards.map_halves
  local all = bag.new()
  for _, colour in ipairs(mh.colours) do
    bag.add(all, colour .. "-a", mh.copies)
    bag.add(all, colour .. "-b", mh.copies)
  end
  local lists = { st.maps }
  for _, p in ipairs(st.players) do
    lists[#lists + 1] = p.halves
    for _, colour in ipairs(p.chests) do lists[#lists + 1] = { colour .. "-a", colour .. "-b" } end
  end
  st.map_pile = deal(rng.shuffle(unseen(all, lists)), st.map_pile, "map halves")
end

-- the goods left in the box: every goods tile not on a city nor bought (they never come
-- into play: only their number matters, but the state stays whole)
---@param st table
---@param rng cairn.Rng
---@param g cairn.G
local function sample_goods(st, rng, g)
  local all = bag.new()
  for _, kind in ipairs(g.data.goods.kinds) do
    for _, pts in ipairs(g.data.goods.tiles) do bag.add(all, kind .. ":" .. pts) end
  end
  local lists = {}
  local function tiles(list)
    local keys = {}
    for i, good in ipairs(list) do keys[i] = good.kind .. ":" .. good.points end
    lists[#lists + 1] = keys
  end
  local keys = {}
  for key in pairs(st.cities) do keys[#keys + 1] = key end
  table.sort(keys)
  for _, key in ipairs(keys) do tiles(st.cities[key]) end
  for _, p in ipairs(st.players) do tiles(p.goods) end
  local supply = {}
  for i, key in ipairs(deal(rng.shuffle(unseen(all, lists)), st.goods_supply, "goods tiles")) do
    local kind, pts = key:match("^(.*):(%d+)$")
    supply[i] = { kind = kind, points = math.tointeger(tonumber(pts)) }
  end
  st.goods_supply = supply
end

-- tents (module): the cards not discarded nor in the seat's hand are in the deck (as many
-- as the view counts) or in the other hands (the rest, each to a seat drawn at random: the
-- view does not tell how many each holds)
---@param st table
---@param seat integer
---@param rng cairn.Rng
---@param g cairn.G
local function sample_tents(st, seat, rng, g)
  local hidden = {}
  for s = 1, #st.players do
    if s ~= seat then
      hidden[#hidden + 1] = s
      st.players[s].tents = {}
    end
  end
  local all = bag.new()
  if g.options.tents then
    for _, l in ipairs(g.data.landscapes.landscapes) do bag.add(all, l.id, g.data.tents.per_landscape) end
  end
  local pool = rng.shuffle(unseen(all, { st.tent_discard, st.players[seat].tents }))
  st.tent_deck = deal(pool, st.tent_deck, "tent cards")
  for _, card in ipairs(pool) do
    local tents = st.players[rng.pick(hidden)].tents
    tents[#tents + 1] = card
  end
end

-- M.determinize(view, seat, rng, g) -> the view, its hidden parts filled in
---@param view table
---@param seat integer
---@param rng cairn.Rng
---@param g cairn.G
---@return table
function M.determinize(view, seat, rng, g)
  sample_stacks(view, rng, g)
  sample_weather(view, rng, g)
  sample_animals(view, rng, g)
  sample_equipment(view, rng, g)
  sample_maps(view, rng, g)
  sample_goods(view, rng, g)
  sample_tents(view, seat, rng, g)
  return view
end

return M
