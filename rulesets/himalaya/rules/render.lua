-- rules/render.lua
-- Himalaya: the board as one seat sees it, within 100 columns: the month track, the
-- village-token row, the villages (number, name, level, paths by type, cubes or order,
-- stupa, caravans), the regions with their envoys, the seat's screen, the programs, and the
-- map: the path graph drawn on the villages' grid positions (map.yaml `at`). On a screen too
-- short or too narrow for it (g.height, g.width) the compact board, each line within g.width.

local common = require "rules.common"
local ctext = require "cairn.text"   -- width, pad and cut: shared with every render

local M = {}

local pad, name = ctext.pad, ctext.name

-- the one-letter words of the board, by data id, in the game's language: a path type on
-- the map and in a village's paths (d dirt), a cube type and a level on the compact board
-- (s salt, h house)
---@param g cairn.G
---@param ty string a path type
---@return string
local function path_letter(g, ty) return name(g, "path_short.", ty) end

-- what does not change during a game (the data, the language) is drawn once: each
-- village's number, name, level and paths; the orders of the rings; the map; the month
-- cells; the words of the headings and statuses; drawn again for other data or another
-- language (a test may switch g.lang).
-- fixed(g) (below) -> those pieces.
local drawn, fixed

---@param g cairn.G
---@param s integer a seat
---@return string
local function colour_of(g, s) return g.data.tribes.tribes[s].colour end

---@param g cairn.G
---@param s integer a seat
---@return string
local function tribe(g, s)
  return "{" .. colour_of(g, s) .. "}" .. common.seat_name(g, s) .. "{/}"
end

-- initial(g, s) -> "{red}A1{/}": the seat's colour, its name's first letter and number
-- (kept per seat while its name stays the same)
---@param g cairn.G
---@param s integer a seat
---@return string
local function initial(g, s)
  local seat_name = g.seats[s] and g.seats[s].name or ("S" .. s)
  local initials = fixed(g).initials
  local got = initials[s]
  if got and got.name == seat_name then return got.text end
  -- the first character, not byte: Θέση, Άννα
  local first = ctext.cut(seat_name, 1)
  if first == "" then first = "?" end
  local text = "{" .. colour_of(g, s) .. "}" .. first .. s .. "{/}"
  initials[s] = { name = seat_name, text = text }
  return text
end

-- map_grid(g) -> the path graph on a grid: villages as numbers, paths as d/i/s
---@param g cairn.G
---@return string[] the lines
local function map_grid(g)
  local vs = g.data.map.villages
  local rows, cols = 0, 0
  for _, v in ipairs(vs) do
    if not v.at then return {} end
    rows, cols = math.max(rows, v.at[1]), math.max(cols, v.at[2])
  end
  local at, grid = {}, {}
  for _, v in ipairs(vs) do at[v.number] = v.at end
  local H, W = rows * 2 - 1, cols * 6 - 5
  for r = 1, H do grid[r] = {} for c = 1, W do grid[r][c] = " " end end
  for _, v in ipairs(vs) do
    local r, c = v.at[1] * 2 - 1, v.at[2] * 6 - 5
    local label = string.format("%2d", v.number)
    grid[r][c], grid[r][c + 1] = label:sub(1, 1), label:sub(2, 2)
  end
  local far = {}
  for _, p in ipairs(g.data.map.paths) do
    local a, b = at[p.ends[1]], at[p.ends[2]]
    local ch = path_letter(g, p.type)
    if a[1] == b[1] and math.abs(a[2] - b[2]) == 1 then
      local r, c = a[1] * 2 - 1, math.min(a[2], b[2]) * 6 - 5
      for k = 3, 5 do grid[r][c + k - 1 + 1] = (k == 4) and ch or "-" end
    elseif a[2] == b[2] and math.abs(a[1] - b[1]) == 1 then
      grid[math.min(a[1], b[1]) * 2][a[2] * 6 - 5 + 1] = ch
    else
      far[#far + 1] = string.format("%d-%d %s", p.ends[1], p.ends[2], common.path_word(g, p.type))
    end
  end
  local out = { g.text("render.map") }
  for r = 1, H do out[#out + 1] = "  " .. table.concat(grid[r]):gsub("%s+$", "") end
  if #far > 0 then out[#out + 1] = "  " .. g.text("render.far_paths") .. " " .. table.concat(far, ", ") end
  return out
end

-- the villages' fixed columns: "%2d name level paths", by village number
---@param g cairn.G
---@return table the columns by village number
local function village_columns(g)
  local data = g.data
  local paths = {}
  for _, p in ipairs(data.map.paths) do
    for i = 1, 2 do
      local a, b = p.ends[i], p.ends[3 - i]
      paths[a] = paths[a] or {}
      paths[a][p.type] = b
    end
  end
  -- the level column: each level's word (`level_col.house`), as wide as the widest
  local level_w = 0
  for _, l in ipairs(data.game.levels) do level_w = math.max(level_w, ctext.width(name(g, "level_col.", l.name))) end
  local cols = {}
  for _, v in ipairs(data.map.villages) do
    local pstr = {}
    for _, ty in ipairs(data.game.path_types) do
      pstr[#pstr + 1] = path_letter(g, ty) .. ":" .. (paths[v.number][ty] and string.format("%-2d", paths[v.number][ty]) or "- ")
    end
    cols[#cols + 1] = { number = v.number, text = string.format("%2d %s %s %s", v.number, pad(v.name, 10),
      pad(name(g, "level_col.", data.game.levels[v.level].name), level_w), table.concat(pstr, " ")) }
  end
  return cols
end

-- the order a ring shows on its village: "{cyan}order 1 salt+1 tea{/}", by ring id
---@param g cairn.G
---@return table<string, string> by ring id
local function ring_orders(g)
  local orders = {}
  for _, r in ipairs(g.data.rings.rings) do
    local parts = {}
    for _, ty in ipairs(common.types(g.data)) do
      if r.wants[ty] then parts[#parts + 1] = r.wants[ty] .. " " .. common.cube_name(g, ty) end
    end
    orders[r.id] = "{cyan}" .. g.text("render.order", table.concat(parts, "+")) .. "{/}"
  end
  return orders
end

-- the month track's cells ("4*": an inventory month) and the inventory months in order
---@param g cairn.G
---@return string[], integer[] the cells and the inventory months
local function month_cells(g)
  local data = g.data
  local inv, cells = {}, {}
  for _, k in ipairs(data.game.inventory_rounds) do inv[#inv + 1] = k end
  for m = 1, data.game.rounds do
    local marked = false
    for _, k in ipairs(inv) do if k == m then marked = true end end
    cells[m] = tostring(m) .. (marked and "*" or "")
  end
  return cells, inv
end

---@param g cairn.G
---@return table what the board draws the same each time (by data and language)
function fixed(g)
  if drawn and drawn.data == g.data and drawn.lang == g.lang then return drawn end
  local cells, inv = month_cells(g)
  local regions = {}
  for i, r in ipairs(g.data.map.regions) do regions[i] = { id = r.id, name = r.name } end
  local words = { villages_head = g.text("render.villages_head"), regions = g.text("render.regions"),
    stupa = "{bold}" .. g.text("render.stupa") .. "{/}:",
    programmed = g.text("render.programmed"), programming = g.text("render.programming") }
  -- the villages' holds column: as wide as the language's heading says (its word for an
  -- order may be longer than English's)
  local holds_w = tonumber(g.text("render.holds_width")) or 27
  -- the stupa column: its word, a colon and a seat's initial (8 in English: stupa:A1)
  local stupa_w = math.max(8, ctext.width(g.text("render.stupa")) + 3)
  drawn = { map = map_grid(g), villages = village_columns(g), orders = ring_orders(g), holds_w = holds_w,
    stupa_w = stupa_w,
    months = cells, inventory = inv, regions = regions, initials = {}, words = words,
    data = g.data, lang = g.lang }
  return drawn
end

-- M.map_lines(view, g) -> the path graph on a grid: villages as numbers, paths as d/i/s
---@param view table
---@param g cairn.G
---@return string[]
function M.map_lines(view, g) return fixed(g).map end

-- compact_villages(g, view, here, cols) -> the villages two or three to a line: number,
-- name, level's initial, what it holds (cubes by their initials, a ring's order as o and
-- the wants), the stupa's and the caravans' initials
---@param g cairn.G
---@param view table
---@param here table<integer, string> the caravans' initials by village number
---@param cols integer
---@return string[]
local function compact_villages(g, view, here, cols)
  local cells, w = {}, 0
  for _, v in ipairs(g.data.map.villages) do
    local vil = view.villages[v.number]
    local holds = {}
    if #vil.cubes > 0 then
      for _, c in ipairs(vil.cubes) do holds[#holds + 1] = name(g, "cube_short.", c) end
      holds = table.concat(holds)
    elseif vil.ring then
      local r = common.ring_def(g, vil.ring)
      local parts = { "{cyan}" .. g.text("render.order_short") }
      for _, ty in ipairs(common.types(g.data)) do
        if r.wants[ty] then parts[#parts + 1] = r.wants[ty] .. name(g, "cube_short.", ty) end
      end
      holds = table.concat(parts) .. "{/}"
    else
      holds = ""
    end
    local cell = string.format("%2d %s %s %s", v.number, pad(ctext.cut(v.name, 9), 9),
      name(g, "level_short.", g.data.game.levels[v.level].name), pad(holds, 5))
    if vil.stupa then cell = cell .. " " .. initial(g, vil.stupa) end
    if here[v.number] then cell = cell .. " " .. here[v.number]:gsub(" +$", "") end
    cells[#cells + 1] = cell
    w = math.max(w, ctext.width(cell))
  end
  local per = math.max(1, (cols + 2) // (w + 2))
  local rows = (#cells + per - 1) // per
  local out = {}
  for r = 1, rows do
    local line = {}
    for c = 0, per - 1 do
      local cell = cells[c * rows + r]
      if cell then line[#line + 1] = (c < per - 1) and pad(cell, w) or cell end
    end
    out[#out + 1] = (table.concat(line, "  ")):gsub(" +$", "")
  end
  return out
end

local full_render
---@param view table
---@param seat integer? nil: no seat's (a spectator's)
---@param g cairn.G
---@return string
function M.render(view, seat, g)
  local out, compact, map_from = full_render(view, seat, g, false)
  -- each line within g.width (a narrow console, a phone's page): broken where it does not
  -- fit; the map cannot be broken, so a board wider than the screen goes without it (the
  -- villages' rows keep their paths); too tall for the screen, the compact board
  local function fit(lines) return ctext.fit_lines(lines, g.width, 2) end
  local wide = false
  for _, l in ipairs(g.width and out or {}) do wide = wide or ctext.width(l) > g.width end
  if wide then out = fit({ table.unpack(out, 1, map_from - 1) }) end
  if g.height and #out > g.height then out = fit(compact()) end
  return table.concat(out, "\n")
end

---@param view table
---@param seat integer? nil: no seat's (a spectator's)
---@param g cairn.G
---@return string[], fun(): string[] the full board's lines, and the compact form (made when asked)
function full_render(view, seat, g)
  local out = {}
  local n = #view.players
  local fix = fixed(g)
  -- month track
  local track = {}
  for m, cell in ipairs(fix.months) do
    track[m] = (m == view.month) and ("{bold}[" .. cell .. "]{/}") or cell
  end
  local next_inv
  for _, k in ipairs(fix.inventory) do if k >= view.month and not next_inv then next_inv = k end end
  out[#out + 1] = g.text("render.month", view.month, table.concat(track, " "), next_inv or "-")
  if view.phase == "resolve" then out[#out + 1] = g.text("render.slot", view.slot) end
  local vt = view.village_tokens
  if type(vt) == "table" then
    local q = {}
    for i, v in ipairs(vt.queue) do q[i] = tostring(v) end
    out[#out + 1] = g.text("render.tokens", table.concat(q, " "), tostring(vt.pile))
  end
  local head_lines = #out
  -- villages
  -- on a screen narrower than a village's row (g.width: a phone's page), each village on
  -- two lines: its number, name, level and paths, then what it holds, its stupa and the
  -- caravans there; the heading so too
  local split_at = g.width and ctext.width(fix.villages[1].text) or nil
  local split = split_at and ctext.width(fix.words.villages_head) > g.width
  if split then
    local h = fix.words.villages_head
    local first = ctext.cut(h, split_at)
    out[#out + 1] = first:gsub(" +$", "")
    out[#out + 1] = "    " .. (h:sub(#first + 1)):gsub("^ +", ""):gsub("  +", "  ")
  else
    out[#out + 1] = fix.words.villages_head
  end
  local here = {}
  for s = 1, n do
    local v = view.caravans[s]
    if v and v > 0 then here[v] = (here[v] or "") .. initial(g, s) .. " " end
  end
  for _, col in ipairs(fix.villages) do
    local vil = view.villages[col.number]
    local holds = ""
    if #vil.cubes > 0 then
      holds = common.cubes_text(g, vil.cubes)
    elseif vil.ring then
      holds = fix.orders[vil.ring]
    end
    local stupa = vil.stupa and (fix.words.stupa .. initial(g, vil.stupa)) or ""
    local row = (col.text .. " " .. pad(holds, fix.holds_w) .. " " .. pad(stupa, fix.stupa_w) .. " " .. (here[col.number] or "")):gsub(" +$", "")
    if split and ctext.width(row) > g.width then
      out[#out + 1] = (col.text:gsub(" +$", ""))
      local rest = (holds .. "  " .. stupa .. "  " .. (here[col.number] or "")):gsub("^ +", ""):gsub(" +$", "")
      if rest ~= "" then out[#out + 1] = "    " .. rest end
    else
      out[#out + 1] = row
    end
  end
  local villages_end = #out
  -- regions
  local regs = {}
  for _, r in ipairs(fix.regions) do
    local per = view.envoys[r.id]
    local parts = {}
    for s = 1, n do if per[s] > 0 then parts[#parts + 1] = initial(g, s) .. "x" .. per[s] end end
    regs[#regs + 1] = r.name .. " " .. (#parts > 0 and table.concat(parts, " ") or "-")
  end
  out[#out + 1] = fix.words.regions .. " " .. table.concat(regs, " | ")
  -- players (short: the supply as four numbers, for the tightest board)
  local players_from, short = #out + 1, {}
  for s = 1, n do
    local p = view.players[s]
    local status
    local status_short
    if view.phase == "program" then
      status = view.ready[s] and fix.words.programmed or fix.words.programming
      status_short = g.text(view.ready[s] and "render.programmed_short" or "render.programming_short")
    elseif type(view.revealed[s]) == "table" then
      local cells = {}
      for i, a in ipairs(view.revealed[s]) do
        local w = common.action_word(g, a)
        cells[i] = (view.phase == "resolve" and i == view.slot) and ("{bold}" .. w .. "{/}") or w
      end
      status = table.concat(cells, " ")
    else
      status = ""
    end
    out[#out + 1] = pad(tribe(g, s), 10) .. " " .. g.text("render.supply", p.stupas, p.envoys, p.ring_count, p.token_count) .. " " .. status
    short[s] = (pad(tribe(g, s), 10) .. " " .. g.text("render.supply_short", p.stupas, p.envoys, p.ring_count, p.token_count)
      .. " " .. (status_short or status)):gsub(" +$", "")
  end
  local players_to = #out
  -- the viewing seat's screen
  if seat and view.players[seat] then
    local p = view.players[seat]
    local cubes = {}
    for _, ty in ipairs(common.types(g.data)) do
      if type(p.cubes) == "table" and p.cubes[ty] > 0 then cubes[#cubes + 1] = p.cubes[ty] .. " " .. common.cube_name(g, ty) end
    end
    local rings = {}
    if type(p.rings) == "table" then
      for _, id in ipairs(p.rings) do rings[#rings + 1] = tostring(common.ring_def(g, id).yaks) end
    end
    out[#out + 1] = g.text("render.screen", #cubes > 0 and table.concat(cubes, ", ") or "-",
      #rings > 0 and table.concat(rings, "+") or "-", type(p.tokens) == "number" and p.tokens or 0)
    local prog = view.programs[seat]
    if view.phase == "program" and type(prog) == "table" then
      out[#out + 1] = g.text("render.program", #prog > 0 and common.program_text(g, prog) or "-")
    end
  end
  local tail_from = #out + 1
  for _, l in ipairs(fix.map) do out[#out + 1] = l end
  -- the compact board: without the map, the villages two or three to a line
  -- and when even that is too tall: the seats two to a line with their supply as four
  -- numbers, the seat's screen and program on one line, where they fit the width
  local function compact()
    local width = g.width or 80
    local c = {}
    for i = 1, head_lines do c[#c + 1] = out[i] end
    for _, l in ipairs(compact_villages(g, view, here, width)) do c[#c + 1] = l end
    for i = villages_end + 1, tail_from - 1 do c[#c + 1] = out[i] end
    if not g.height or #c <= g.height then return c end
    local t = {}
    for i = 1, head_lines do t[#t + 1] = out[i] end
    for _, l in ipairs(compact_villages(g, view, here, width)) do t[#t + 1] = l end
    for i = villages_end + 1, players_from - 1 do t[#t + 1] = out[i] end
    -- the seats as many to a line as the width holds (two when the statuses are long)
    local cellw = 0
    for s = 1, n do cellw = math.max(cellw, ctext.width(short[s])) end
    local per = math.max(1, math.min(n, (width + 2) // (cellw + 2)))
    for s = 1, n, per do
      local line = {}
      for k = s, math.min(n, s + per - 1) do line[#line + 1] = (k < s + per - 1 and k < n) and pad(short[k], cellw) or short[k] end
      t[#t + 1] = table.concat(line, "  ")
    end
    local own = {}
    for i = players_to + 1, tail_from - 1 do own[#own + 1] = out[i] end
    local joined = table.concat(own, "  ")
    if #own > 1 and ctext.width(joined) <= width then t[#t + 1] = joined
    else for _, l in ipairs(own) do t[#t + 1] = l end end
    return t
  end
  return out, compact, tail_from
end

return M
