-- rules.lua: Goofspiel.
-- Each round a prize is turned up; every seat bids one card from hand in
-- secret (all seats are asked at once); when the last bid is in, the bids
-- are revealed and the single highest bid takes the prize. A tie for the
-- highest bid discards the prize. After the last prize, the values won are
-- added up.

local deck = require "cairn.deck"
local ctext = require "cairn.text"   -- pad and fit by columns: shared with every render

local rules = {}

---@param g cairn.G
---@return integer
local function seats(g) return #g.seats end

-- Turns up the next prize, or ends the game when the deck is empty.
---@param g cairn.G
local function turn_up_prize(g)
  local card = deck.draw(g.state.prizes)
  g.state.prize = card or 0
  if card then
    g.state.round = g.state.round + 1
    g.log(g.text("turned", card))
  else
    g.log(g.text("game_over"))
  end
end

---@param g cairn.G
---@return boolean
local function all_bid(g)
  for seat = 1, seats(g) do
    if g.state.bids[seat] == 0 then return false end
  end
  return true
end

-- Reveals the bids and gives the prize to the single highest bid.
---@param g cairn.G
local function resolve_round(g)
  local state, best, winners, shown = g.state, 0, {}, {}
  for seat = 1, seats(g) do
    local bid = state.bids[seat]
    shown[#shown + 1] = g.seats[seat].name .. " " .. bid
    if bid > best then best, winners = bid, { seat }
    elseif bid == best then winners[#winners + 1] = seat end
  end
  g.log(g.text("reveal", table.concat(shown, ", ")))
  if #winners == 1 then
    local won = state.won[winners[1]]
    won[#won + 1] = state.prize
    g.log(g.text("takes", g.seats[winners[1]].name, state.prize))
  else
    deck.discard(state.prizes, state.prize)
    g.log(g.text("tie", best, state.prize))
  end
  for seat = 1, seats(g) do
    local played = state.played[seat]
    played[#played + 1] = state.bids[seat]   -- revealed: public from now on
    state.bids[seat] = 0
    state.has_bid[seat] = false
  end
  turn_up_prize(g)
end

---@param g cairn.G
function rules.setup(g)
  local n = g.data.game.cards
  local cards = {}
  for v = 1, n do cards[v] = v end
  local state = g.state
  state.hands, state.bids, state.has_bid, state.won, state.played = {}, {}, {}, {}, {}
  for seat = 1, seats(g) do
    state.hands[seat] = deck.new(cards).draw   -- a copy of 1..n
    state.bids[seat] = 0
    state.has_bid[seat] = false   -- public: everyone sees a card laid face down
    state.won[seat] = {}
    state.played[seat] = {}       -- public: the bids revealed in past rounds, in order
  end
  state.prizes = deck.shuffle(deck.new(cards), g.rng)
  state.round = 0
  turn_up_prize(g)
end

-- Every seat that has not bid yet bids at once, secretly.
---@param g cairn.G
---@return cairn.Decision[]
function rules.decisions(g)
  local state = g.state
  if state.prize == 0 then return {} end
  local asked = {}
  for seat = 1, seats(g) do
    if state.bids[seat] == 0 then
      local options = {}
      for _, card in ipairs(state.hands[seat]) do
        options[#options + 1] = { id = "bid " .. card, label = g.text("bid", card) }
      end
      asked[#asked + 1] = {
        seat = seat,
        prompt = g.text("prompt", g.seats[seat].name, state.prize),
        options = options,
      }
    end
  end
  return asked
end

---@param g cairn.G
---@param seat integer
---@param id string
function rules.apply(g, seat, id)
  local card = tonumber(id:match("^bid (%d+)$"))
  local hand = g.state.hands[seat]
  local at
  for i, c in ipairs(hand) do
    if c == card then at = i end
  end
  if not at then error("seat " .. seat .. " holds no card for " .. id) end
  table.remove(hand, at)
  g.state.bids[seat] = card
  g.state.has_bid[seat] = true
  g.log { text = g.text("you_bid", card), to = seat }
  g.log { text = g.text("has_bid", g.seats[seat].name), except = seat }
  if all_bid(g) then resolve_round(g) end
end

---@param g cairn.G
---@return cairn.Scores
function rules.score(g)
  local scores = {}
  for seat = 1, #g.seats do
    local sum = 0
    for _, v in ipairs(g.state.won[seat]) do sum = sum + v end
    scores[seat] = { total = sum, breakdown = { { label = g.text("prize_values"), points = sum } } }
  end
  return scores
end

---@param view table
---@param seat integer? nil: no seat's (a spectator's)
---@param g cairn.G
---@return string
function rules.render(view, seat, g)
  local lines = {}
  if view.prize ~= 0 then
    lines[#lines + 1] = g.text("render.prize", view.prize, view.prizes.draw)
  end
  for s = 1, #g.seats do
    local won = view.won[s]
    local bid, status = view.bids[s], ""
    if view.prize ~= 0 then   -- no bids are pending once the game is over
      -- another seat's bid reads "?" whether or not it was made: has_bid tells
      if not view.has_bid[s] then status = g.text("render.bidding")
      elseif bid == "?" then status = g.text("render.has_bid")
      else status = g.text("bid", bid) end
    end
    -- padded by columns, not bytes: a name in Greek takes two bytes a letter
    local line = ctext.pad(g.seats[s].name, 10) .. " " .. g.text("render.won") .. " " .. ctext.pad(table.concat(won, " "), 20) .. " " .. status
    lines[#lines + 1] = line:gsub("%s+$", "")
  end
  if seat then
    local hand = view.hands[seat]
    lines[#lines + 1] = g.text("hand") .. ": " .. table.concat(hand, " ")
  end
  -- a narrow screen (a phone's page): a line broken where it does not fit
  return table.concat(ctext.fit_lines(lines, g.width, 2), "\n")
end

-- For bots that search a game with secrets (docs/bots.md): a full state that shows `seat`
-- exactly its view, the hidden parts drawn from `rng`. What the view hides: the order of
-- the prize deck (its cards are the ones not up, discarded or won), the other hands and
-- their bids this round. Another seat holds exactly the cards it has not played (the
-- bids revealed are public: state.played); if it has bid this round, which of them it
-- laid down is drawn.
---@param view table
---@param seat integer
---@param rng cairn.Rng
---@param g cairn.G
---@return table
function rules.determinize(view, seat, rng, g)
  local n, st = g.data.game.cards, view
  local gone = {}
  for _, v in ipairs(st.prizes.discard) do gone[v] = true end
  for s = 1, #g.seats do
    for _, v in ipairs(st.won[s]) do gone[v] = true end
  end
  if st.prize ~= 0 then gone[st.prize] = true end
  local deck_left = {}
  for v = 1, n do
    if not gone[v] then deck_left[#deck_left + 1] = v end
  end
  st.prizes.draw = rng.shuffle(deck_left)
  for s = 1, #g.seats do
    if s ~= seat then
      local played, held = {}, {}   -- held: its hand and this round's bid
      for _, v in ipairs(st.played[s]) do played[v] = true end
      for v = 1, n do
        if not played[v] then held[#held + 1] = v end
      end
      local bid = 0
      if st.has_bid[s] then bid = table.remove(held, rng.int(1, #held)) end
      st.hands[s], st.bids[s] = held, bid
    end
  end
  return st
end

-- Invariants: every card 1..n is in exactly one place for each seat (hand,
-- this round's bid, or already played), hands shrink together, and every
-- prize is exactly once in the deck, the discard, a won pile or up.
---@param g cairn.G
---@return string?
function rules.check(g)
  local n, state = g.data.game.cards, g.state
  local seen = {}
  local function note(v)
    if seen[v] then return false end
    seen[v] = true
    return true
  end
  for _, v in ipairs(state.prizes.draw) do if not note(v) then return "prize " .. v .. " twice" end end
  for _, v in ipairs(state.prizes.discard) do if not note(v) then return "prize " .. v .. " twice" end end
  for s = 1, #g.seats do
    for _, v in ipairs(state.won[s]) do if not note(v) then return "prize " .. v .. " twice" end end
  end
  if state.prize ~= 0 and not note(state.prize) then return "prize " .. state.prize .. " twice" end
  for v = 1, n do if not seen[v] then return "prize " .. v .. " lost" end end
  for s = 1, #g.seats do
    local held = #state.hands[s] + (state.bids[s] ~= 0 and 1 or 0)
    local expected = n - state.round + (state.prize ~= 0 and 1 or 0)
    if held ~= expected then return "seat " .. s .. " holds " .. held .. " cards, expected " .. expected end
    local where = {}
    local function put(v)
      if where[v] then return false end
      where[v] = true
      return true
    end
    for _, v in ipairs(state.hands[s]) do if not put(v) then return "seat " .. s .. "'s " .. v .. " twice" end end
    for _, v in ipairs(state.played[s]) do if not put(v) then return "seat " .. s .. "'s " .. v .. " twice" end end
    if state.bids[s] ~= 0 and not put(state.bids[s]) then return "seat " .. s .. "'s " .. state.bids[s] .. " twice" end
    for v = 1, n do if not where[v] then return "seat " .. s .. "'s " .. v .. " lost" end end
  end
  return nil
end

return rules
