-- rules/render.lua
-- Yak: the board as text for the REPL, 80 columns, with colour markup ({red}...{/}).
-- Uses only the view (what the seat may see) and g.data / g.text. When the console says
-- the board has fewer rows than the full one needs (g.height), the players' towers are
-- drawn one line each (the compact board): the header, carts and what is going on stay.
-- On a narrower screen (g.width: a phone's page) the towers come one under the other,
-- and a line that does not fit is broken between its fields.

local tables = require "cairn.tables"
local ctext = require "cairn.text"   -- width, pad, paint, seat names, names: shared with every render
local tower = require "rules.tower"

local M = {}

local WIDTH = 80
local COLUMN = 40      -- two player boards side by side

local pad, paint, name_of, name = ctext.pad, ctext.paint, ctext.seat_name, ctext.name
local RULE = "{dim}" .. string.rep("-", WIDTH - 1) .. "{/}"

local fit_all = ctext.fit_lines -- each line broken between its fields where it does not fit

---@param data table
---@param stone string
---@return table the stone's record: letter, markup
local function stone_style(data, stone)
  if stone == data.stones.crystal.id then return data.stones.crystal end
  if stone == data.stones.fog.id then return data.stones.fog end
  return tables.by(data.stones.colours, "id", stone) or { letter = "?", markup = {} }
end

-- a stone's letter with its colour markup, made once per game for each kind of stone
local painted = {}
---@param data table
---@param s string
---@return string
local function stone(data, s)
  local text = painted[s]
  if not text then
    local st = stone_style(data, s)
    text = paint(st.markup, st.letter)
    painted[s] = text
  end
  return text
end

-- a stone in a tower's cell: "[R]", made once per game for each kind of stone
local celled = {}
---@param data table
---@param s string
---@return string
local function stone_cell(data, s)
  local text = celled[s]
  if not text then
    text = "[" .. stone(data, s) .. "]"
    celled[s] = text
  end
  return text
end

-- row_head(r) -> the start of a tower's row r (0 the base): its number, and the brick
-- offset of 2 per row; made once per row
local row_heads = {}
---@param r integer
---@return string
local function row_head(r)
  local head = row_heads[r]
  if not head then
    head = string.format("{dim}%d{/} ", r + 1) .. string.rep(" ", 2 * r)
    row_heads[r] = head
  end
  return head
end

---@param g cairn.G
---@param food table<string, integer> a food map
---@param kinds string[] the food kinds in order
---@return string
local function food_line(g, food, kinds)
  local parts = {}
  for _, k in ipairs(kinds) do
    parts[#parts + 1] = string.format("%s %d", name(g, "food.", k), food[k] or 0)
  end
  return table.concat(parts, "  ")
end


-- the tower as 5 lines, top row first; cell "[R]", brick offset of 2 per row
---@param data table
---@param tw table
---@param hint boolean? true: the legal cells are marked
---@return string[]
local function tower_lines(data, tw, hint)
  local legal = {}
  if hint then
    for _, c in ipairs(tower.legal_cells(data, tw)) do legal[c[1] .. "," .. c[2]] = true end
  end
  local lines = {}
  local widths = data.tower.row_widths
  for r = #widths - 1, 0, -1 do
    local cells = {}
    for c = 0, widths[r + 1] - 1 do
      local s = tower.get(tw, r, c)
      if s then cells[#cells + 1] = stone_cell(data, s)
      elseif hint and legal[r .. "," .. c] then cells[#cells + 1] = "{green}[+]{/}"
      else cells[#cells + 1] = "{dim}[ ]{/}" end
    end
    lines[#lines + 1] = row_head(r) .. table.concat(cells, " ")
  end
  return lines
end

---@param g cairn.G
---@param view table
---@param seat integer
---@param viewer integer?
---@return string
local function card_text(g, view, seat, viewer)
  local revealed = view.revealed and view.revealed[seat]
  if revealed and revealed ~= "?" then
    return "{bold}" .. name(g, "card.", revealed) .. "{/}"
  end
  local chosen = view.chosen and view.chosen[seat]
  if viewer == seat and chosen and chosen ~= "?" then
    return g.text("render.your_card", name(g, "card.", chosen))
  end
  if view.ready and view.ready[seat] then return g.text("render.card_chosen") end
  if view.phase == "sunrise" then return "{dim}" .. g.text("render.choosing") .. "{/}" end
  return "{dim}-{/}"
end

---@param g cairn.G
---@param view table
---@param seat integer
---@param viewer integer?
---@param kinds string[] the food kinds in order
---@return string[]
local function player_block(g, view, seat, viewer, kinds)
  local data = g.data
  local p = view.players[seat]
  local head = "{bold}" .. name_of(g, seat) .. "{/}"
  if view.holder == seat then head = head .. " {yellow}" .. g.text("render.baby_yak") .. "{/}" end
  if view.stupa == seat then head = head .. " {cyan}" .. g.text("render.stupa") .. "{/}" end
  if view.turn and view.turn ~= "?" and view.action and view.action.seat == seat then
    head = "{green}>{/} " .. head
  end
  local total = 0
  for _, k in ipairs(kinds) do total = total + (p.food[k] or 0) end
  local info = { card_text(g, view, seat, viewer) }
  for _, k in ipairs(kinds) do
    info[#info + 1] = string.format("  %s %d", name(g, "food.", k), p.food[k] or 0)
  end
  info[#info + 1] = g.text("render.food", total, data.economy.food_cap)
  head = head .. " {dim}(" .. g.text("render.stones", tower.count(p.tower), tower.size(p.tower)) .. "){/}"
  local act = view.action
  local placing = type(act) == "table" and act.seat == seat and act.step == "place"
  local tl = tower_lines(data, p.tower, placing)
  local out = { head }
  for i, l in ipairs(tl) do
    out[#out + 1] = pad(l, 22) .. (info[i] or "")
  end
  return out, tl, info
end

-- a player's block on a screen of cols columns: as player_block draws it where it fits,
-- else the head, the tower and below it the card and the food, each broken to fit
---@param g cairn.G
---@param view table
---@param seat integer
---@param viewer integer?
---@param kinds string[]
---@param cols integer
---@return string[]
local function narrow_block(g, view, seat, viewer, kinds, cols)
  local out, tl, info = player_block(g, view, seat, viewer, kinds)
  local wide = false
  for _, l in ipairs(out) do wide = wide or ctext.width(l) > cols end
  if not wide then return out end
  local lines = fit_all({ out[1] }, cols, 2)
  for _, l in ipairs(tl) do lines[#lines + 1] = l end
  local rest = {}
  for i, s in ipairs(info) do rest[#rest + 1] = (i == 1) and s or s:gsub("^ +", "") end
  for _, l in ipairs(ctext.wrap("", rest, 2, cols)) do
    for _, f in ipairs(ctext.fit(l, cols, 2)) do lines[#lines + 1] = f end
  end
  return lines
end

-- the tower on one line, base first, rows apart by "/": "GG+../..../.../../." ("+": legal)
---@param data table
---@param tw table
---@param hint boolean? true: the legal cells are marked
---@return string
local function tower_line(data, tw, hint)
  local legal = {}
  if hint then
    for _, c in ipairs(tower.legal_cells(data, tw)) do legal[c[1] .. "," .. c[2]] = true end
  end
  local rows = {}
  for r = 0, #data.tower.row_widths - 1 do
    local cells = {}
    for c = 0, data.tower.row_widths[r + 1] - 1 do
      local s = tower.get(tw, r, c)
      if s then cells[#cells + 1] = stone(data, s)
      elseif hint and legal[r .. "," .. c] then cells[#cells + 1] = "{green}+{/}"
      else cells[#cells + 1] = "{dim}.{/}" end
    end
    rows[#rows + 1] = table.concat(cells)
  end
  return table.concat(rows, "{dim}/{/}")
end

-- one player on one line: the compact board's form of player_block (each food by its
-- short name, food_short.*: a language whose names are long abbreviates them there)
---@param g cairn.G
---@param view table
---@param seat integer
---@param viewer integer?
---@param kinds string[] the food kinds in order
---@return string
local function player_line(g, view, seat, viewer, kinds)
  local data = g.data
  local p = view.players[seat]
  local mark = (view.turn and view.turn ~= "?" and view.action and view.action.seat == seat) and "{green}>{/} " or "  "
  local total, food = 0, {}
  for _, k in ipairs(kinds) do
    total = total + (p.food[k] or 0)
    food[#food + 1] = string.format("%s %d", name(g, "food_short.", k), p.food[k] or 0)
  end
  local act = view.action
  local placing = type(act) == "table" and act.seat == seat and act.step == "place"
  local line = mark .. pad("{bold}" .. name_of(g, seat) .. "{/}", 10) .. " " .. pad(card_text(g, view, seat, viewer), 9)
    .. " " .. table.concat(food, " ") .. string.format(" (%d/%d) ", total, data.economy.food_cap)
    .. tower_line(data, p.tower, placing)
  if view.holder == seat then line = line .. " {yellow}" .. g.text("render.baby_yak") .. "{/}" end
  if view.stupa == seat then line = line .. " {cyan}" .. g.text("render.stupa") .. "{/}" end
  return line
end

---@param data table
---@param fog table the fog: track (the stones on the mountain track)
---@return string
local function fog_track(data, fog)
  local cells = {}
  local on_track = stone(data, data.stones.fog.id)   -- the fog stone's letter and markup
  for i = 1, data.fog.track_length do
    cells[#cells + 1] = (i <= fog.track) and on_track or "{dim}.{/}"
  end
  return table.concat(cells)
end

-- food_column(g, kinds) -> the columns a cart's food takes on its line: 24, or more in a
-- language whose food names need them (every kind of food at the cart's capacity, as
-- food_line writes it, and a space), so the carts' food totals line up
---@param g cairn.G
---@param kinds string[] the food kinds in order
---@return integer
local function food_column(g, kinds)
  local most = {}
  for _, k in ipairs(kinds) do most[k] = g.data.carts.capacity.food end
  return math.max(24, ctext.width(food_line(g, most, kinds)) + 1)
end

-- M.render(view, seat, g) -> the board.
---@param view table
---@param seat integer? nil: no seat's (a spectator's)
---@param g cairn.G
---@return string
function M.render(view, seat, g)
  local data = g.data
  local kinds = {}
  for _, k in ipairs(data.foods.kinds) do kinds[#kinds + 1] = k.id end
  local lines = {}
  local function add(s) lines[#lines + 1] = s end
  -- the screen's width when it is narrower than the board (nil: the board's own 80)
  local cols = (g.width and g.width < WIDTH) and math.max(g.width, 20) or nil
  local rule = cols and ("{dim}" .. string.rep("-", cols - 1) .. "{/}") or RULE

  local phase = name(g, "phase.", view.phase)
  local route = {}
  for i = 0, view.stops do
    route[#route + 1] = tostring((view.direction > 0) and (i % view.stops + 1) or ((-i) % view.stops + 1))
  end
  local arrow = table.concat(route, ">")
  add(string.format("{bold}YAK{/}  %s  %s  %s",
    g.text("render.round", view.round), phase, g.text("render.moving", arrow)))
  local bagn = type(view.bag) == "table" and tables.sum(view.bag) or view.bag
  add(string.format("%s   %s   %s %s %s",
    g.text("render.market", food_line(g, view.market, kinds)),
    g.text("render.bag", tostring(bagn)),
    g.text("render.mountain"), fog_track(data, view.fog),
    g.text("render.fills", view.fog.fills, #data.fog.fills)))
  local stupa = view.stupa and name_of(g, view.stupa) or g.text("render.unclaimed")
  local endtxt = view.last_round and g.text("render.last_round", view.last_round) or ""
  add(g.text("render.stupa_line", stupa) .. (endtxt ~= "" and ("  " .. endtxt) or ""))
  if view.bonus and #view.bonus > 0 then
    add(g.text("render.bonus"))
    for _, id in ipairs(view.bonus) do add("  {cyan}*{/} " .. name(g, "bonus.", id)) end
  end
  add(rule)
  -- the carts, in stop order
  local food_w = food_column(g, kinds)
  for stop = 1, view.stops do
    for _, cart in ipairs(view.carts) do
      if cart.stop == stop then
        local who = view.players[stop] and name_of(g, stop) or "{dim}" .. g.text("render.nobody") .. "{/}"
        local st = {}
        for i = 1, data.carts.capacity.stones do
          st[#st + 1] = cart.stones[i] and stone(data, cart.stones[i]) or "{dim}.{/}"
        end
        local total = 0
        for _, k in ipairs(kinds) do total = total + (cart.food[k] or 0) end
        local carried = tables.by(data.carts.carts, "id", cart.id).accepts
        add(string.format("%s %s %s [%s]  %s",
          pad(g.text("render.stop", stop), 7), pad(who, 10),
          pad(name(g, "cart.", cart.id), 20), table.concat(st),
          pad(food_line(g, cart.food, carried), food_w) .. string.format(" %d/%d", total, data.carts.capacity.food)))
      end
    end
  end
  local top = fit_all(lines, cols, 2) -- the header and the carts, shared by both forms
  lines = {}
  add(rule)
  -- the players, two boards per line pair; on a narrow screen one under the other
  local n = #view.players
  for s = 1, n, cols and 1 or 2 do
    if cols then
      for _, l in ipairs(narrow_block(g, view, s, seat, kinds, cols)) do add(l) end
    else
      local a = player_block(g, view, s, seat, kinds)
      local b = (s + 1 <= n) and player_block(g, view, s + 1, seat, kinds) or {}
      for i = 1, #a do add(b[i] and (pad(a[i], COLUMN) .. b[i]) or a[i]) end
    end
    add("")
  end
  local players = lines
  lines = {}
  -- what is going on
  local act = view.action
  if view.phase == "over" then
    add("{bold}" .. g.text("render.over") .. "{/}")
  elseif act and act ~= "?" then
    local held = {}
    for _, s in ipairs(act.stones or act.drawn or {}) do held[#held + 1] = stone(data, s) end
    local extra = #held > 0 and ("  " .. g.text("render.in_hand", table.concat(held, " "))) or ""
    if act.owed and act.owed > 0 then extra = extra .. "  " .. g.text("render.owed", act.owed) end
    add(g.text("render.acting", name_of(g, act.seat), name(g, "card.", act.card)) .. extra)
  end
  local tail = fit_all(lines, cols, 2)
  local full = #top + #players + #tail
  if g.height and full > g.height then -- the compact board: one line a player
    players = { rule }
    for s = 1, n do -- a line wider than the screen (the baby yak and the stupa on one seat: 87 columns) broken
      for _, l in ipairs(fit_all({ player_line(g, view, s, seat, kinds) }, g.width, 4)) do players[#players + 1] = l end
    end
  end
  local out = {}
  for _, part in ipairs({ top, players, tail }) do
    for _, l in ipairs(part) do out[#out + 1] = l end
  end
  return table.concat(out, "\n")
end

return M
