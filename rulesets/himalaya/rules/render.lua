-- rules/render.lua
-- Himalaya: the board as one seat sees it, within 100 columns: the month track, the
-- village-token row, the villages (number, name, level, paths by type, cubes or order,
-- stupa, caravans), the regions with their envoys, the seat's screen, the programs, and the
-- map: the path graph drawn on the villages' grid positions (map.yaml `at`).

local M = {}

local ABBR = { dirt = "d", ice = "i", stone = "s" }

local function tribe(g, s)
  local tr = g.data.tribes.tribes[s]
  return "{" .. tr.colour .. "}" .. (g.seats[s] and g.seats[s].name or ("seat " .. s)) .. "{/}"
end

local function initial(g, s)
  local tr = g.data.tribes.tribes[s]
  local name = g.seats[s] and g.seats[s].name or ("S" .. s)
  return "{" .. tr.colour .. "}" .. name:sub(1, 1) .. s .. "{/}"
end

local function pad(s, w)
  local visible = s:gsub("{[%a/]+}", "")
  local len = utf8.len(visible) or #visible
  if len >= w then return s end
  return s .. string.rep(" ", w - len)
end

-- M.map_lines(view, g) -> the path graph on a grid: villages as numbers, paths as d/i/s
function M.map_lines(view, g)
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
    local ch = ABBR[p.type]
    if a[1] == b[1] and math.abs(a[2] - b[2]) == 1 then
      local r, c = a[1] * 2 - 1, math.min(a[2], b[2]) * 6 - 5
      for k = 3, 5 do grid[r][c + k - 1 + 1] = (k == 4) and ch or "-" end
    elseif a[2] == b[2] and math.abs(a[1] - b[1]) == 1 then
      grid[math.min(a[1], b[1]) * 2][a[2] * 6 - 5 + 1] = ch
    else
      far[#far + 1] = string.format("%d-%d %s", p.ends[1], p.ends[2], p.type)
    end
  end
  local out = { g.text("render.map") }
  for r = 1, H do out[#out + 1] = "  " .. table.concat(grid[r]):gsub("%s+$", "") end
  if #far > 0 then out[#out + 1] = "  " .. g.text("render.far_paths") .. " " .. table.concat(far, ", ") end
  return out
end

function M.render(view, seat, g)
  local out = {}
  local n = #view.players
  local data = g.data
  -- month track
  local track = {}
  for m = 1, data.game.rounds do
    local inv = false
    for _, k in ipairs(data.game.inventory_rounds) do if k == m then inv = true end end
    local cell = tostring(m) .. (inv and "*" or "")
    track[#track + 1] = (m == view.month) and ("{bold}[" .. cell .. "]{/}") or cell
  end
  local next_inv
  for _, k in ipairs(data.game.inventory_rounds) do if k >= view.month and not next_inv then next_inv = k end end
  out[#out + 1] = g.text("render.month", view.month, table.concat(track, " "), next_inv or "-")
  if view.phase == "resolve" then out[#out + 1] = g.text("render.slot", view.slot) end
  local vt = view.village_tokens
  if type(vt) == "table" then
    local q = {}
    for i, v in ipairs(vt.queue) do q[i] = tostring(v) end
    out[#out + 1] = g.text("render.tokens", table.concat(q, " "), tostring(vt.pile))
  end
  -- villages
  out[#out + 1] = g.text("render.villages_head")
  local here = {}
  for s = 1, n do
    local v = view.caravans[s]
    if v and v > 0 then here[v] = (here[v] or "") .. initial(g, s) .. " " end
  end
  local paths = {}
  for _, p in ipairs(data.map.paths) do
    for i = 1, 2 do
      local a, b = p.ends[i], p.ends[3 - i]
      paths[a] = paths[a] or {}
      paths[a][p.type] = b
    end
  end
  for _, v in ipairs(data.map.villages) do
    local vil = view.villages[v.number]
    local pstr = {}
    for _, ty in ipairs(data.game.path_types) do
      pstr[#pstr + 1] = ABBR[ty] .. ":" .. (paths[v.number][ty] and string.format("%-2d", paths[v.number][ty]) or "- ")
    end
    local holds = ""
    if #vil.cubes > 0 then
      holds = table.concat(vil.cubes, " ")
    elseif vil.ring then
      local r
      for _, x in ipairs(data.rings.rings) do if x.id == vil.ring then r = x end end
      local parts = {}
      for _, ty in ipairs(data.resources.types) do
        if r.wants[ty.id] then parts[#parts + 1] = r.wants[ty.id] .. " " .. ty.id end
      end
      holds = "{cyan}" .. g.text("render.order", table.concat(parts, "+")) .. "{/}"
    end
    local stupa = vil.stupa and ("{bold}" .. g.text("render.stupa") .. "{/}:" .. initial(g, vil.stupa)) or ""
    out[#out + 1] = string.format("%2d %s %s %s %s %s %s", v.number, pad(v.name, 10),
      data.game.levels[v.level].name:sub(1, 5), table.concat(pstr, " "), pad(holds, 28), pad(stupa, 9), here[v.number] or "")
  end
  -- regions
  local regs = {}
  for _, r in ipairs(data.map.regions) do
    local per = view.envoys[r.id]
    local parts = {}
    for s = 1, n do if per[s] > 0 then parts[#parts + 1] = initial(g, s) .. "x" .. per[s] end end
    regs[#regs + 1] = r.name .. " " .. (#parts > 0 and table.concat(parts, " ") or "-")
  end
  out[#out + 1] = g.text("render.regions") .. " " .. table.concat(regs, " | ")
  -- players
  for s = 1, n do
    local p = view.players[s]
    local status
    if view.phase == "program" then
      status = view.ready[s] and g.text("render.programmed") or g.text("render.programming")
    elseif type(view.revealed[s]) == "table" then
      local cells = {}
      for i, a in ipairs(view.revealed[s]) do
        cells[i] = (view.phase == "resolve" and i == view.slot) and ("{bold}" .. a .. "{/}") or a
      end
      status = table.concat(cells, " ")
    else
      status = ""
    end
    out[#out + 1] = string.format("%s %s %s", pad(tribe(g, s), 10),
      g.text("render.supply", p.stupas, p.envoys, p.ring_count, p.token_count), status)
  end
  -- the viewing seat's screen
  if seat and view.players[seat] then
    local p = view.players[seat]
    local cubes = {}
    for _, ty in ipairs(data.resources.types) do
      if type(p.cubes) == "table" and p.cubes[ty.id] > 0 then cubes[#cubes + 1] = p.cubes[ty.id] .. " " .. ty.id end
    end
    local rings = {}
    if type(p.rings) == "table" then
      for _, id in ipairs(p.rings) do
        for _, x in ipairs(data.rings.rings) do if x.id == id then rings[#rings + 1] = tostring(x.yaks) end end
      end
    end
    out[#out + 1] = g.text("render.screen", #cubes > 0 and table.concat(cubes, ", ") or "-",
      #rings > 0 and table.concat(rings, "+") or "-", type(p.tokens) == "number" and p.tokens or 0)
    local prog = view.programs[seat]
    if view.phase == "program" and type(prog) == "table" then
      out[#out + 1] = g.text("render.program", #prog > 0 and table.concat(prog, " ") or "-")
    end
  end
  for _, l in ipairs(M.map_lines(view, g)) do out[#out + 1] = l end
  return table.concat(out, "\n")
end

return M
