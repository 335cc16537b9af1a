-- rules/bonus.lua
-- Yak, master builder: the scorer of each bonus card, by the `rule` named in
-- data/bonus_cards.yaml. The 8 cards are MODELLED placeholders [yak.md §9]; change a
-- card's points in the YAML, or its rule here.
--
-- Each scorer is f(ctx) -> points for one seat, where ctx = {data, seat, towers, card}
-- (towers: every seat's tower; card: the card's data record).

local tower = require "rules.tower"
local common = require "rules.common"

local M = {}

-- the non-crystal stones of a tower, counted by colour
---@param data table
---@param tw table
---@return table<string, integer> by colour
local function colour_counts(data, tw)
  local counts = {}
  for _, row in ipairs(tw) do
    for _, s in ipairs(row) do
      if s and not common.is_crystal(data, s) then counts[s] = (counts[s] or 0) + 1 end
    end
  end
  return counts
end

---@param data table
---@param tw table
---@return integer
local function best_colour(data, tw)
  local best = 0
  for _, n in pairs(colour_counts(data, tw)) do if n > best then best = n end end
  return best
end

---@param data table
---@param tw table
---@return integer
local function n_colours(data, tw)
  local n = 0
  for _ in pairs(colour_counts(data, tw)) do n = n + 1 end
  return n
end

-- a comparison between players: the seat scores if it has the most (ties all score; 0 never)
---@param ctx table
---@param measure fun(data: table, tw: table): integer
---@return integer
local function most(ctx, measure)
  local mine, top = measure(ctx.data, ctx.towers[ctx.seat]), 0
  for _, tw in ipairs(ctx.towers) do top = math.max(top, measure(ctx.data, tw)) end
  if mine > 0 and mine == top then return ctx.card.points end
  return 0
end

-- the stones at the given cells, if all present, all non-crystal and all one colour
---@param ctx table
---@param cells table
---@return boolean
local function same_colour(ctx, cells)
  local tw, colour = ctx.towers[ctx.seat], nil
  for _, cell in ipairs(cells) do
    local s = tower.get(tw, cell[1], cell[2])
    if not s or common.is_crystal(ctx.data, s) then return false end
    if colour and s ~= colour then return false end
    colour = s
  end
  return true
end

M.rules = {}

-- B1: the most non-crystal stones of any one colour [seed: "most non-crystal stones of a colour"]
---@param ctx table
---@return integer
function M.rules.colour_majority(ctx) return most(ctx, best_colour) end

-- B2: the most different colours among non-crystal stones
---@param ctx table
---@return integer
function M.rules.most_colours(ctx) return most(ctx, n_colours) end

-- B3: both ends of the base row, same colour
---@param ctx table
---@return integer
function M.rules.corners(ctx)
  local w = ctx.data.tower.row_widths[1]
  return same_colour(ctx, { { 0, 0 }, { 0, w - 1 } }) and ctx.card.points or 0
end

-- B4: a non-crystal stone on the top level
---@param ctx table
---@return integer
function M.rules.crown(ctx)
  local top = #ctx.data.tower.row_widths - 1
  return same_colour(ctx, { { top, 0 } }) and ctx.card.points or 0
end

-- B5: a full base of non-crystal stones, all different colours
---@param ctx table
---@return integer
function M.rules.rainbow_base(ctx)
  local tw, seen = ctx.towers[ctx.seat], {}
  for c = 0, ctx.data.tower.row_widths[1] - 1 do
    local s = tower.get(tw, 0, c)
    if not s or common.is_crystal(ctx.data, s) or seen[s] then return 0 end
    seen[s] = true
  end
  return ctx.card.points
end

-- B6: any full level of 2 or more stones, all one non-crystal colour
---@param ctx table
---@return integer
function M.rules.solid_level(ctx)
  for r, w in ipairs(ctx.data.tower.row_widths) do
    if w >= 2 then
      local cells = {}
      for c = 0, w - 1 do cells[#cells + 1] = { r - 1, c } end
      if same_colour(ctx, cells) then return ctx.card.points end
    end
  end
  return 0
end

-- B7: at least 5 stones and not a single crystal
---@param ctx table
---@return integer
function M.rules.no_crystals(ctx)
  local tw = ctx.towers[ctx.seat]
  if tower.count(tw) < 5 then return 0 end
  for _, row in ipairs(tw) do
    for _, s in ipairs(row) do if s and common.is_crystal(ctx.data, s) then return 0 end end
  end
  return ctx.card.points
end

-- B8: the centre column (base middle, level 3 middle, top), one non-crystal colour
---@param ctx table
---@return integer
function M.rules.spine(ctx)
  local cells = {}
  for r, w in ipairs(ctx.data.tower.row_widths) do
    if w % 2 == 1 then cells[#cells + 1] = { r - 1, w // 2 } end
  end
  return same_colour(ctx, cells) and ctx.card.points or 0
end

-- M.card(data, id) -> the card's data record.
---@param data table
---@param id string
---@return table the card's record
function M.card(data, id)
  for _, c in ipairs(data.bonus_cards.cards) do if c.id == id then return c end end
  error("no bonus card " .. tostring(id))
end

-- M.score_card(data, towers, seat, id) -> the points seat scores for card id.
---@param data table
---@param towers table[] every seat's tower
---@param seat integer
---@param id string
---@return integer
function M.score_card(data, towers, seat, id)
  local card = M.card(data, id)
  local f = assert(M.rules[card.rule], "no scorer for bonus rule " .. card.rule)
  return f({ data = data, seat = seat, towers = towers, card = card })
end

-- M.reveal(g): reveal bonus_cards.reveal cards at random, in the data's order.
---@param g cairn.G
function M.reveal(g)
  local n = g.data.bonus_cards.reveal
  local ids = {}
  for _, c in ipairs(g.data.bonus_cards.cards) do ids[#ids + 1] = c.id end
  local picked = {}
  for _ = 1, math.min(n, #ids) do
    picked[#picked + 1] = table.remove(ids, g.rng.int(1, #ids))
  end
  g.state.bonus = picked
  for _, id in ipairs(picked) do g.log_text("log.bonus", common.t(g, "bonus." .. id)) end
end

return M
