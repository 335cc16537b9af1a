-- cairn/deck.lua
-- A deck of cards: a draw pile and a discard pile, both plain lists.
--
-- A deck is {draw = {...}, discard = {...}}; draw[1] is the top card. Cards are any
-- plain values (usually string ids). Shuffling uses g.rng (rng.shuffle if present,
-- else Fisher-Yates on rng.int), so replays are exact.

local M = {}

-- M.new(cards) -> deck with cards (copied, in the given order) on the draw pile.
---@param cards any[]
---@return table
function M.new(cards)
  local draw = {}
  for i, c in ipairs(cards or {}) do draw[i] = c end
  return { draw = draw, discard = {} }
end

-- M.shuffle_list(list, rng): shuffle a list in place and return it.
---@param list any[]
---@param rng cairn.Rng
---@return any[]
function M.shuffle_list(list, rng)
  if rng.shuffle then return rng.shuffle(list) end
  for i = #list, 2, -1 do
    local j = rng.int(1, i)
    list[i], list[j] = list[j], list[i]
  end
  return list
end

-- M.shuffle(deck, rng): shuffle the draw pile.
---@param deck table
---@param rng cairn.Rng
---@return table
function M.shuffle(deck, rng)
  M.shuffle_list(deck.draw, rng)
  return deck
end

-- M.reshuffle(deck, rng): put the discard pile under the draw pile and shuffle all.
---@param deck table
---@param rng cairn.Rng
---@return table
function M.reshuffle(deck, rng)
  for _, c in ipairs(deck.discard) do deck.draw[#deck.draw + 1] = c end
  deck.discard = {}
  return M.shuffle(deck, rng)
end

-- M.draw(deck [, rng]) -> the top card, or nil. With rng, an empty draw pile is
-- first refilled by reshuffling the discards.
---@param deck table
---@param rng? cairn.Rng
---@return any
function M.draw(deck, rng)
  if #deck.draw == 0 and rng and #deck.discard > 0 then M.reshuffle(deck, rng) end
  if #deck.draw == 0 then return nil end
  return table.remove(deck.draw, 1)
end

-- M.draw_many(deck, n [, rng]) -> a list of up to n cards.
---@param deck table
---@param n integer
---@param rng? cairn.Rng
---@return any[]
function M.draw_many(deck, n, rng)
  local out = {}
  for _ = 1, n do
    local c = M.draw(deck, rng)
    if c == nil then break end
    out[#out + 1] = c
  end
  return out
end

-- M.discard(deck, card): put a card on the discard pile.
---@param deck table
---@param card any
---@return table
function M.discard(deck, card)
  deck.discard[#deck.discard + 1] = card
  return deck
end

-- M.put_top(deck, card) / M.put_bottom(deck, card): return a card to the draw pile.
---@param deck table
---@param card any
---@return table
function M.put_top(deck, card) table.insert(deck.draw, 1, card); return deck end
---@param deck table
---@param card any
---@return table
function M.put_bottom(deck, card) deck.draw[#deck.draw + 1] = card; return deck end

-- M.size(deck) -> cards left to draw; M.discards(deck) -> cards in the discard pile.
---@param deck table
---@return integer
function M.size(deck) return #deck.draw end
---@param deck table
---@return integer
function M.discards(deck) return #deck.discard end

-- M.peek(deck, n) -> the top n cards (a copy), without drawing them.
---@param deck table
---@param n? integer
---@return any[]
function M.peek(deck, n)
  local out = {}
  for i = 1, math.min(n or 1, #deck.draw) do out[i] = deck.draw[i] end
  return out
end

-- M.from_component(def [, rng]) -> a deck from a `deck` component of
-- schemas/components.schema.yaml: each card an id or {id =, count =}; shuffled with rng
-- unless def.shuffle is false.
---@param def table
---@param rng? cairn.Rng
---@return table
function M.from_component(def, rng)
  local cards = {}
  for _, c in ipairs(def.cards) do
    if type(c) == "table" then
      for _ = 1, c.count or 1 do cards[#cards + 1] = c.id end
    else
      cards[#cards + 1] = c
    end
  end
  local d = M.new(cards)
  if rng and def.shuffle ~= false then M.shuffle(d, rng) end
  return d
end

return M
