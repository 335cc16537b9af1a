-- rules/render.lua
-- Kathmandu: the board as text for the REPL, at most 120 columns (or the screen's width,
-- g.width, when narrower), with colour markup.
-- Draws only from the view (what the seat may see), g.data and g.text: the route as a
-- grid (landscapes, mountains, cities with goods, temples with offerings, yaks, border
-- strips, the storm wall, each board's needle), the displays and weather, each seat's board.

local tables = require "cairn.tables"
local ctext = require "cairn.text"   -- width, pad, tags, wrap, seat names: shared with every render

local M = {}

local NEEDLE = { north = "↑", east = "→", south = "↓", west = "←" }
local GLYPH = { mountain = "^", city = "C", temple = "T", start = "x", kathmandu = "K" }
local MARKUP = { mountain = "{dim}", city = "{magenta}{bold}", temple = "{red}{bold}",
  start = "{yellow}", kathmandu = "{yellow}{bold}" }

local pad, name_of, name = ctext.pad, ctext.seat_name, ctext.name
-- the board's width: at most 119 columns (a 120-column screen keeps its last one free),
-- or the screen's own width when the console says it is narrower (g.width); the route's
-- rows are never broken: where they do not fit (80 columns on six boards, 106 on eight)
-- the route is drawn one column a field, in bands of as many boards as fit
local WIDEST = 119
---@param g cairn.G
---@return integer
local function columns(g) return (g.width and g.width < WIDEST) and g.width or WIDEST end
local rules = {}   -- the line above the seats' boards, by width
---@param cols integer
---@return string
local function rule_line(cols)
  local r = rules[cols]
  if not r then r = "{dim}" .. string.rep("-", cols) .. "{/}"; rules[cols] = r end
  return r
end
---@param l table a landscape (or a field kind) with its markup
---@return string
local function markup_of(l) return ctext.tags(l.markup) end

local wrap = ctext.wrap

-- fitted(line, cols, indent) -> the lines a line takes on the board: itself where it
-- fits, else broken where it has two spaces (cairn.text.fit), at the full width too (five
-- equipment cards on display made a line of 129 columns)
---@param line string
---@param cols integer
---@param indent integer
---@return string[]
local function fitted(line, cols, indent)
  return ctext.fit(line, cols, indent)
end

---@param v any
---@return integer
local function count(v) return type(v) == "table" and #v or (tonumber(v) or 0) end

-- the route: a header with each board's name and needle, then one line per row
-- cell_glyphs(data) -> the coloured glyph of every field letter (by byte), made once: its
-- markup, and the markup with the blank drawn where nothing stands on the field
local glyph_data, glyphs
---@param data table
---@return table<integer, table> by the letter's byte: text, bare, kind
local function cell_glyphs(data)
  if glyph_data == data then return glyphs end
  glyphs = {}
  for _, f in ipairs(data.landscapes.fields) do
    local glyph, mk
    if f.kind == "landscape" or f.kind == "marked" then
      glyph, mk = f.letter:upper(), markup_of(tables.by(data.landscapes.landscapes, "id", f.landscape))
    else
      glyph, mk = GLYPH[f.kind], MARKUP[f.kind]
    end
    local text = mk .. glyph .. "{/}"
    glyphs[string.byte(f.letter)] = { text = text, bare = text .. " ", kind = f.kind }
  end
  glyph_data = data
  return glyphs
end

-- row_pieces(cells, r, row, wall, W) -> what a row of the route is drawn from, made once
-- per row string (its field letters), row number and wall: the row's head (its number, and
-- the storm wall when it stands before the first board), and per field c its glyph
-- (glyph[c]), the border strip or wall after it (strip[c], "" inside a board) and the two
-- together with the blank drawn where nothing stands (bare[c]); the city and temple fields
-- in column order (sites: column, "r,c" key, whether a city); runs of bare fields are kept
-- as they are joined (runs, by from * 1000 + to).
local pieces_of, pieces = nil, {}
---@param cells table
---@param r integer
---@param row string the row's field letters
---@param wall integer the border strip the storm wall stands on (0: the start)
---@param W integer the columns of a board
---@return table the row's pieces: head, glyph, strip, bare, sites, runs
local function row_pieces(cells, r, row, wall, W)
  if pieces_of ~= cells then pieces_of, pieces = cells, {} end
  local of_row = pieces[row]
  if not of_row then
    of_row = {}
    pieces[row] = of_row
  end
  local key = r * 1000 + wall
  local p = of_row[key]
  if p then return p end
  p = { glyph = {}, strip = {}, bare = {}, sites = {}, runs = {} }
  p.head = (wall == 0) and (string.format("%2d", r) .. "{red}{bold}#{/}") or string.format("%2d ", r)
  local letters = { row:byte(1, -1) }
  for c = 1, #row do
    local cell = cells[letters[c]]
    local strip = ""
    if c % W == 0 and c < #row then
      strip = (c // W == wall) and "{red}{bold}#{/}" or "{dim}|{/}"
    end
    p.glyph[c], p.strip[c], p.bare[c] = cell.text, strip, cell.bare .. strip
    if cell.kind == "city" or cell.kind == "temple" then
      p.sites[#p.sites + 1] = { c = c, key = r .. "," .. c, city = cell.kind == "city" }
    end
  end
  of_row[key] = p
  return p
end

-- bare_run(p, from, to) -> the fields from..to of a row drawn with nothing on them
---@param p table
---@param from integer
---@param to integer
---@return string
local function bare_run(p, from, to)
  if from > to then return "" end
  local key = from * 1000 + to
  local run = p.runs[key]
  if not run then
    run = table.concat(p.bare, "", from, to)
    p.runs[key] = run
  end
  return run
end

-- row_line(p, r, marks) -> a row of the route: its bare runs, and each field where something
-- stands drawn with its mark
---@param p table
---@param r integer
---@param marks table<integer, string> what stands where, by r * 1000 + c
---@return string
local function row_line(p, r, marks)
  local out, from = { p.head }, 1
  for c = 1, #p.glyph do
    local mark = marks[r * 1000 + c]
    if mark then
      out[#out + 1] = bare_run(p, from, c - 1)
      out[#out + 1] = p.glyph[c] .. mark .. p.strip[c]
      from = c + 1
    end
  end
  out[#out + 1] = bare_run(p, from, #p.glyph)
  return table.concat(out)
end

-- board_name(id) -> a board's name: the start and Kathmandu boards' from the texts
-- (board_name.start), a landscape board's id (L1...) as it is printed on it; set per render
local board_name

-- board_head(id, needle, W) -> a board's column of the route's header: its name and needle
local heads = {}
---@param id string
---@param needle string? a direction (north, east, south, west)
---@param W integer the columns of a board
---@return string
local function board_head(id, needle, W)
  local of_board = heads[board_name(id)]
  if not of_board then
    of_board = {}
    heads[board_name(id)] = of_board
  end
  local key = needle or ""
  local head = of_board[key]
  if not head then
    head = pad(board_name(id) .. (needle and (" " .. NEEDLE[needle]) or ""), 2 * W) .. " "
    of_board[key] = head
  end
  return head
end

-- count_mark("{red}", 2) -> "{red}2{/}": the goods of a city or the offerings of a temple
local count_marks = {}
---@param open string the markup that opens the mark ("{red}")
---@param n integer
---@return string
local function count_mark(open, n)
  local of_open = count_marks[open]
  if not of_open then
    of_open = {}
    count_marks[open] = of_open
  end
  local mark = of_open[n]
  if not mark then
    mark = open .. n .. "{/}"
    of_open[n] = mark
  end
  return mark
end

-- route_lines(g, view) -> the route's lines, and the keys of the cities holding goods in
-- field order (row by row, left to right: the order of the Cities line)
---@param g cairn.G
---@param view table
---@return string[], string[] the lines and the keys of the cities holding goods
local function route_lines(g, view)
  local data = g.data
  local cells = cell_glyphs(data)
  local W = data.boards.size.cols
  local rows = {}
  for r, row in ipairs(view.map) do rows[r] = row_pieces(cells, r, row, view.wall, W) end
  -- what stands on a field, by r * 1000 + c: a yak (or * for several), else goods or offerings
  local marks, city_keys = {}, {}
  for r, p in ipairs(rows) do
    for _, site in ipairs(p.sites) do
      local list = (site.city and view.cities or view.temples)[site.key]
      if list then
        marks[r * 1000 + site.c] = count_mark(site.city and "{magenta}" or "{red}", #list)
        if site.city then city_keys[#city_keys + 1] = site.key end
      end
    end
  end
  local yaks = {}
  for s, p in ipairs(view.players) do
    if type(p) == "table" and type(p.pos) == "table" then
      local k = p.pos[1] * 1000 + p.pos[2]
      yaks[k] = yaks[k] and "*" or tostring(s)
    end
  end
  for k, y in pairs(yaks) do marks[k] = "{bold}{red}" .. y .. "{/}" end
  local lines = {}
  local head = { "   " }
  for b, id in ipairs(view.route) do head[#head + 1] = board_head(id, view.needles[b], W) end
  lines[1] = table.concat(head)
  for r, p in ipairs(rows) do lines[#lines + 1] = row_line(p, r, marks) end
  return lines, city_keys
end

-- the legend: the same two lines all game long (the data and the language do not
-- change), made once
local legend_data, legend_lang, legend_lines
-- legend_indent(g) -> where the legend's items start: its second line's own blanks, which
-- the language sets under its "Legend: " ("Legende: " is one wider), so that a wrapped
-- line goes on under them too
---@param g cairn.G
---@return integer
local function legend_indent(g)
  return #g.text("render.legend2"):match("^ *")
end

---@param g cairn.G
---@return string[]
local function legend(g)
  local data = g.data
  if legend_data == data and legend_lang == g.lang then return legend_lines end
  local parts = {}
  for _, l in ipairs(data.landscapes.landscapes) do
    parts[#parts + 1] = markup_of(l) .. l.letter .. "{/} " .. g.text("land." .. l.id)
  end
  legend_data, legend_lang, legend_lines = data, g.lang, { g.text("render.legend", table.concat(parts, "  ")), g.text("render.legend2") }
  return legend_lines
end

---@param g cairn.G
---@param prefix string
---@param list any[]
---@return string
local function list_text(g, prefix, list)
  if type(list) ~= "table" then return tostring(list) end
  if #list == 0 then return "-" end
  local out = {}
  for _, v in ipairs(list) do
    if type(v) == "table" then out[#out + 1] = name(g, "good.", v.kind) .. " " .. v.points
    elseif prefix then out[#out + 1] = name(g, prefix, v)
    else out[#out + 1] = v end
  end
  return table.concat(out, ", ")
end

-- die_text(g, colour, die) -> a die as a seat's board shows it: its colour and pips, dim
-- in brackets when used, dim after an x when set aside, a dim dash before the first roll,
-- else bold; each made once per game
-- and language
local dice_texts, dice_data, dice_lang = {}, nil, nil
---@param g cairn.G
---@param colour string
---@param die table the die: at, pips
---@return string
local function die_text(g, colour, die)
  if dice_data ~= g.data or dice_lang ~= g.lang then dice_texts, dice_data, dice_lang = {}, g.data, g.lang end
  local key = colour .. " " .. die.at .. " " .. die.pips
  local s = dice_texts[key]
  if not s then
    s = name(g, "die_short.", colour) .. die.pips
    if die.at == "unrolled" then s = "{dim}" .. name(g, "die_short.", colour) .. "-{/}"
    elseif die.at == "used" or die.at == "lost" then s = "{dim}[" .. s .. "]{/}"
    elseif die.at == "aside" then s = "{dim}x" .. s .. "{/}"
    else s = "{bold}" .. s .. "{/}" end
    dice_texts[key] = s
  end
  return s
end

---@param g cairn.G
---@param p table
---@return string
local function dice_text(g, p)
  local out = {}
  for _, d in ipairs(g.data.game.dice) do
    out[#out + 1] = die_text(g, d.colour, p.dice[d.colour])
  end
  return table.concat(out, " ")
end

-- exhaustion_text(n, slots) -> a seat's exhaustion markers: n red, the free slots dim
local exhaustion_texts = {}
---@param n integer
---@param slots integer
---@return string
local function exhaustion_text(n, slots)
  local key = n * 1000 + slots
  local s = exhaustion_texts[key]
  if not s then
    s = string.rep("{red}●{/}", n) .. string.rep("{dim}○{/}", slots - n)
    exhaustion_texts[key] = s
  end
  return s
end

---@param g cairn.G
---@param view table
---@param s integer the seat drawn
---@param cols integer
---@return string[]
local function seat_lines(g, view, s, cols)
  local p = view.players[s]
  local data = g.data
  local head = (view.turn and view.turn.seat == s) and "{green}>{/} " or "  "
  head = head .. "{bold}" .. name_of(g, s) .. "{/} [" .. s .. "]"
  if view.start_player == s then head = head .. " {yellow}" .. g.text("render.start_player") .. "{/}" end
  if p.character then head = head .. " (" .. name(g, "character.", p.character) .. ")" end
  local res = {}
  for _, r in ipairs(data.game.resources) do res[#res + 1] = name(g, "res.", r) .. " " .. p.res[r] end
  local ex = exhaustion_text(p.exhaustion, data.game.exhaustion.slots)
  local yak
  if p.arrived > 0 then yak = g.text("render.arrived", p.arrived, p.tile)
  else yak = g.text("render.yak", p.yak and name(g, "land.", p.yak) or "-", count(p.stack)) end
  local tents = ""
  if g.options and g.options.tents then
    tents = "  " .. g.text("render.tents", type(p.tents) == "table" and list_text(g, "land.", p.tents) or g.text("render.hidden"))
  end
  -- a blank before the dice even after the longest head ("Startperson (Kundschafter)")
  local first = pad(head, 39) .. " " .. dice_text(g, p) .. "  " .. ex .. "  " .. yak
  local out = fitted(first, cols, 4)
  local supply = table.concat(res, " ")
  local parts = {
    supply,
    g.text("render.equipment_held", list_text(g, "equipment.", p.equipment)),
    g.text("render.animals_held", list_text(g, "animal.", p.animals)),
    g.text("render.maps_held", list_text(g, "map_half.", p.halves), list_text(g, "map_pair.", p.chests)),
    g.text("render.goods", list_text(g, nil, p.goods), list_text(g, "good.", p.specials)),
    g.text("render.candles", data.game.candles - p.candles),
  }
  if tents ~= "" then parts[#parts + 1] = tents:sub(3) end
  if 4 + ctext.width(supply) > cols then -- a narrow screen: the supply a resource a part
    table.remove(parts, 1)
    for i = #res, 1, -1 do table.insert(parts, 1, res[i]) end
  end
  for _, l in ipairs(wrap("    ", parts, 4, cols)) do
    for _, f in ipairs(fitted(l, cols, 4)) do out[#out + 1] = f end -- a part wider than a line: at its words
  end
  return out
end

-- compact_route(g, view, cols) -> the route one column a field (no blanks between
-- fields), for a short or narrow screen: a yak's number on its field, the border strips
-- and the storm wall as in the full route, each board's name cut to its width with a dot.
-- Where even that is wider than cols (a phone's page), the boards come in bands of as
-- many as fit, one under the other, each band's rows starting with the border strip
-- (or the storm wall) before its first board.
---@param g cairn.G
---@param view table
---@param cols integer
---@return string[]
local function compact_route(g, view, cols)
  local data = g.data
  local cells = cell_glyphs(data)
  local W = data.boards.size.cols
  local yaks = {}
  for s, p in ipairs(view.players) do
    if type(p) == "table" and type(p.pos) == "table" then
      local k = p.pos[1] * 1000 + p.pos[2]
      yaks[k] = yaks[k] and "*" or tostring(s)
    end
  end
  local boards = #view.route
  local per = math.max(1, math.min(boards, (cols - 3) // (W + 1))) -- "12#" and W + 1 a board
  local lines = {}
  for first = 1, boards, per do
    local last = math.min(first + per - 1, boards)
    local head = { "   " }
    for b = first, last do
      local bn = board_name(view.route[b])
      local h = bn .. (view.needles[b] and NEEDLE[view.needles[b]] or "")
      if utf8.len(h) > W then -- its first W - 1 letters, then the needle or a dot: "Kathm."
        h = ctext.cut(bn, W - 1) .. (view.needles[b] and NEEDLE[view.needles[b]] or ".")
      end
      head[#head + 1] = pad(h, W) .. " "
    end
    lines[#lines + 1] = table.concat(head)
    -- before the first board: the storm wall, else (a later band) the strip it starts at
    local before = (view.wall == first - 1) and "{red}{bold}#{/}" or (first > 1 and "{dim}|{/}" or " ")
    for r, row in ipairs(view.map) do
      local out = { string.format("%2d", r) .. before }
      local letters = { row:byte(1, -1) }
      for c = (first - 1) * W + 1, last * W do
        local y = yaks[r * 1000 + c]
        out[#out + 1] = y and ("{bold}{red}" .. y .. "{/}") or cells[letters[c]].text
        if c % W == 0 and c < last * W then
          out[#out + 1] = (c // W == view.wall) and "{red}{bold}#{/}" or "{dim}|{/}"
        end
      end
      lines[#lines + 1] = table.concat(out)
    end
  end
  for i, l in ipairs(lines) do lines[i] = l:gsub(" +$", "") end
  return lines
end

-- the full board's lines (below), or on a screen of g.height rows too few for it the
-- compact board: the header, the route one column a field, every seat on one line, and
-- in the rows left the viewer's yak tile and supply, the displays, the rest of the
-- viewer's seat and the legend, in that order, while they fit
local full_render
---@param view table
---@param seat integer? nil: no seat's (a spectator's)
---@param g cairn.G
---@return string
function M.render(view, seat, g)
  board_name = function(id)
    local t = name(g, "board_name.", id)
    return t == "board_name." .. id and id or t
  end
  local lines, head = full_render(view, seat, g)
  if not g.height or #lines <= g.height then return table.concat(lines, "\n") end
  local cols = columns(g)
  local top = fitted(head, cols, 2)
  for _, l in ipairs(compact_route(g, view, cols)) do top[#top + 1] = l end
  -- every seat on one line, then in the rows left, most useful first: the viewer's yak
  -- tile and supply (what a player holds is told nowhere else on the screen), the
  -- displays, the rest of the viewer's seat, the legend (also in `rules`)
  local seats, own = {}, nil
  for s = 1, #view.players do
    local sl = seat_lines(g, view, s, cols)
    seats[#seats + 1] = sl[1]
    if s == seat then own = { at = #seats, lines = sl } end
  end
  local room = g.height - #top - #seats
  local own_more = own and #own.lines - 1 or 0
  local own_shown = math.min(own_more, 2, room)
  room = room - own_shown
  local ks = {}
  for _, v in ipairs(view.kathmandu) do ks[#ks + 1] = tostring(v) end
  local displays = fitted(g.text("render.maps", list_text(g, "map_half.", view.maps), count(view.map_pile),
    #ks > 0 and table.concat(ks, " ") or "-"), cols, 8)
  if #displays <= room then
    for _, l in ipairs(displays) do top[#top + 1] = l end
    room = room - #displays
    local more = math.min(own_more - own_shown, room)
    own_shown, room = own_shown + more, room - more
    for _, e in ipairs(legend(g)) do
      local f = fitted(e, cols, legend_indent(g))
      if #f > room then break end
      for _, l in ipairs(f) do top[#top + 1] = l end
      room = room - #f
    end
  end
  for k = own_shown + 1, 2, -1 do table.insert(seats, own.at + 1, own.lines[k]) end
  for _, l in ipairs(seats) do top[#top + 1] = l end
  return table.concat(top, "\n")
end

---@param view table
---@param seat integer? nil: no seat's (a spectator's)
---@param g cairn.G
---@return string[], string the board's lines and its header line
function full_render(view, seat, g)
  local data = g.data
  local cols = columns(g)
  local lines = {}
  local function add(s) lines[#lines + 1] = s end
  local function add_fitted(s, indent)
    for _, l in ipairs(fitted(s, cols, indent)) do add(l) end
  end
  local weather = {}
  for _, w in ipairs(view.weather_seen) do weather[#weather + 1] = name(g, "weather.", w) end
  for _ = 1, count(view.weather) do weather[#weather + 1] = "?" end
  local what = ""
  if view.phase == "over" then what = g.text("render.over")
  elseif view.phase == "start" then what = g.text("render.choosing_start")
  elseif view.turn then what = g.text("render.turn_of", name_of(g, view.turn.seat)) end
  local head = string.format("{bold}KATHMANDU{/}  %s  %s  %s  %s", g.text("render.round", view.round, data.game.rounds),
    what, g.text("render.wall", view.wall), g.text("render.weather", table.concat(weather, " ")))
  add_fitted(head, 2)
  local route, city_keys = route_lines(g, view)
  -- a row is 3 columns and 2 W + 1 a board (the last board's strip a blank): measured only
  -- where that could be wider than the screen
  local measure = 3 + #view.route * (2 * data.boards.size.cols + 1) > cols
  local widest = 0
  for i, l in ipairs(route) do
    -- on a narrow screen without the blanks the rows end in: they would make the
    -- terminal wrap a line that fits
    if cols < WIDEST then route[i] = l:gsub(" +$", "") end
    if measure then widest = math.max(widest, ctext.width(route[i])) end
  end
  if widest > cols then route = compact_route(g, view, cols) end -- one column a field, in bands
  for _, l in ipairs(route) do add(l) end
  for _, l in ipairs(legend(g)) do add_fitted(l, legend_indent(g)) end
  local cities = {}
  for _, key in ipairs(city_keys) do
    cities[#cities + 1] = "{magenta}" .. key .. "{/} " .. list_text(g, nil, view.cities[key])
  end
  for _, l in ipairs(wrap(g.text("render.cities"), cities, 8, cols)) do add_fitted(l, 8) end -- a city wider than a line: at its words
  local specials = {}
  for _, k in ipairs(data.goods.kinds) do
    local o = view.specials[k]
    specials[#specials + 1] = name(g, "good.", k) .. (o == 0 and "" or (" (" .. name_of(g, o) .. ")"))
  end
  add_fitted(g.text("render.specials", table.concat(specials, ", ")), 8)
  local eq = {}
  for _, id in ipairs(view.equipment) do
    local e = tables.by(data.cards.equipment, "id", id)
    eq[#eq + 1] = name(g, "equipment.", e.kind) .. " (" .. name(g, "land.", e.landscape) .. ")"
  end
  local an = {}
  for _, id in ipairs(view.animals) do
    an[#an + 1] = name(g, "animal.", id) .. " (" .. name(g, "land.", tables.by(data.cards.animals, "id", id).landscape) .. ")"
  end
  add_fitted(g.text("render.animals", #an > 0 and table.concat(an, ", ") or "-", count(view.animal_deck)), 8)
  add_fitted(g.text("render.equipment", #eq > 0 and table.concat(eq, ", ") or "-", count(view.equipment_deck)), 8)
  local ks = {}
  for _, v in ipairs(view.kathmandu) do ks[#ks + 1] = tostring(v) end
  add_fitted(g.text("render.maps", list_text(g, "map_half.", view.maps), count(view.map_pile), #ks > 0 and table.concat(ks, " ") or "-"), 8)
  add(rule_line(cols))
  for s = 1, #view.players do
    for _, l in ipairs(seat_lines(g, view, s, cols)) do add(l) end
  end
  return lines, head
end

return M
