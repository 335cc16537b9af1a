-- cairn/text.lua
-- Text for boards drawn in a terminal: the visible width of a line with colour markup,
-- padding, cutting a name to a column, markup tags from a list, wrapping a line of parts,
-- fitting a line to the screen, a seat's name. Pure
-- functions over strings; a render uses them instead of its own copies.

local M = {}

local find, len = string.find, utf8.len

-- M.width(s) -> the columns s takes: markup tags ({red}, {bold}, {/}) take none, every
-- UTF-8 character takes one (invalid UTF-8: one per byte). A render measures the same
-- strings on every board, so the widths are kept (at most WIDTHS_KEPT of them, then the
-- count starts again): a call of a string function costs more than a table lookup.
local WIDTHS_KEPT = 4096
local widths, n_widths = {}, 0
---@param s string
---@return integer
function M.width(s)
  local w = widths[s]
  if w then return w end
  if find(s, "{", 1, true) then
    local plain = s:gsub("{[%a/]*}", "")
    w = len(plain) or #plain
  else
    w = len(s) or #s
  end
  if n_widths == WIDTHS_KEPT then widths, n_widths = {}, 0 end
  widths[s], n_widths = w, n_widths + 1
  return w
end

-- blanks(n) -> n spaces; each count up to BLANKS_KEPT is made once (a board pads to a few
-- widths, the same on every board).
local BLANKS_KEPT = 256
local blank_runs = {}
---@param n integer
---@return string
local function blanks(n)
  local b = blank_runs[n]
  if not b then
    b = string.rep(" ", n)
    if n <= BLANKS_KEPT then blank_runs[n] = b end
  end
  return b
end

-- M.pad(s, w) -> s with spaces added to take w columns (s unchanged when as wide or wider).
-- The padded strings are kept by width (at most PADS_KEPT of them, then the list starts
-- again): a board pads the same strings to the same widths on every board.
local PADS_KEPT = 4096
local padded, n_padded = {}, 0
---@param s string
---@param w integer
---@return string
function M.pad(s, w)
  local of_width = padded[w]
  local p = of_width and of_width[s]
  if p then return p end
  local n = M.width(s)
  p = (n >= w) and s or (s .. blanks(w - n))
  if n_padded == PADS_KEPT then padded, n_padded = {}, 0 end
  of_width = padded[w]
  if not of_width then
    of_width = {}
    padded[w] = of_width
  end
  of_width[s], n_padded = p, n_padded + 1
  return p
end

-- M.tags(list) -> the markup opening each tag of the list: {"bold", "red"} -> "{bold}{red}".
---@param list string[]?
---@return string
function M.tags(list)
  local out = {}
  for _, tag in ipairs(list or {}) do out[#out + 1] = "{" .. tag .. "}" end
  return table.concat(out)
end

-- M.paint(list, text) -> text in the markup of the list, closed with {/}; text as it is
-- when the list is empty or nil.
---@param list string[]?
---@param text string
---@return string
function M.paint(list, text)
  local open = M.tags(list)
  if open == "" then return text end
  return open .. text .. "{/}"
end

-- M.wrap(head, parts, indent, max) -> lines of at most max columns: head, then the parts
-- separated by two spaces (one space after head, none when head ends in a blank); a part
-- that would pass max starts a new line indented by indent. A part wider than a line
-- stays whole. Each part is measured once, on its own (a markup tag never spans parts).
-- head_ends_in_blank(head) -> whether head ends in a blank (space, tab, newline). The heads
-- of a board are few and the same on every board, so each is matched once (at most
-- HEADS_KEPT of them, then the list starts again).
local HEADS_KEPT = 256
local ends_in_blank, n_heads = {}, 0
---@param head string
---@return boolean
local function head_ends_in_blank(head)
  local blank = ends_in_blank[head]
  if blank == nil then
    blank = head:match("%s$") ~= nil
    if n_heads == HEADS_KEPT then ends_in_blank, n_heads = {}, 0 end
    ends_in_blank[head], n_heads = blank, n_heads + 1
  end
  return blank
end

---@param head string
---@param parts string[]
---@param indent integer
---@param max integer
---@return string[]
function M.wrap(head, parts, indent, max)
  local lines, cur, cur_w = {}, head, M.width(head)
  for i, part in ipairs(parts) do
    local sep = (i == 1) and (head_ends_in_blank(head) and "" or " ") or "  "
    local part_w = M.width(part)
    if cur_w + #sep + part_w > max and cur_w > indent then
      lines[#lines + 1] = cur
      cur, cur_w = blanks(indent) .. part, indent + part_w
    else
      cur, cur_w = cur .. sep .. part, cur_w + #sep + part_w
    end
  end
  lines[#lines + 1] = cur
  return lines
end

-- M.fit(line, max, indent) -> the lines of at most max columns that line becomes: the
-- line itself when it fits; else broken where it has two or more spaces (a board's
-- fields), each line after the first indented by indent, and a piece still wider than
-- max broken between its words. A word wider than max stays whole. Markup tags take no
-- columns and are never cut (they hold no spaces). Leading blanks are kept on the first line.
---@param lines string[] the lines so far
---@param cur string the line being filled
---@param cur_w integer its width in columns
---@param gap string the blanks before piece
---@param piece string
---@param max integer
---@param indent integer
---@return string, integer the line being filled and its width
local function pack(lines, cur, cur_w, gap, piece, max, indent)
  local w = M.width(piece)
  if cur_w > indent and cur_w + #gap + w > max then
    lines[#lines + 1] = cur
    return blanks(indent) .. piece, indent + w
  end
  return cur .. gap .. piece, cur_w + #gap + w
end

---@param line string
---@param max integer
---@param indent integer
---@return string[]
function M.fit(line, max, indent)
  if #line <= max or M.width(line) <= max then return { line } end -- no wider than its bytes: unmeasured
  local lines = {}
  local lead, rest = line:match("^( *)(.*)$")
  local cur, cur_w, gap = lead, #lead, ""
  local at = 1
  while at <= #rest do
    local s, e = find(rest, "  +", at)
    local field = rest:sub(at, (s or #rest + 1) - 1)
    local field_w = M.width(field)
    if cur_w + #gap + field_w > max and field_w > max - indent then
      -- a field wider than a line: its words, one space apart
      local wgap = gap
      for word in field:gmatch("[^ ]+") do
        cur, cur_w = pack(lines, cur, cur_w, wgap, word, max, indent)
        wgap = " "
      end
    else
      cur, cur_w = pack(lines, cur, cur_w, gap, field, max, indent)
    end
    if not s then break end
    gap, at = rest:sub(s, e), e + 1
  end
  lines[#lines + 1] = cur
  return lines
end

-- M.fit_lines(lines, max, indent) -> every line of lines fitted to max columns (M.fit), in
-- order; lines itself when max is nil (the screen's width is not known).
---@param lines string[]
---@param max integer?
---@param indent integer
---@return string[]
function M.fit_lines(lines, max, indent)
  if not max then return lines end
  local out = {}
  for _, l in ipairs(lines) do
    for _, f in ipairs(M.fit(l, max, indent)) do out[#out + 1] = f end
  end
  return out
end

-- M.cut(s, n) -> the first n characters of s, s itself when it has no more: a name cut to
-- its column ("Tengboche" to 5: "Tengb"; "Άννα" to 1: "Ά"). s is plain text (no markup
-- tags: a cut could leave one open); a character takes one column, as in M.width.
---@param s string
---@param n integer
---@return string
function M.cut(s, n)
  if n <= 0 then return "" end
  local after = utf8.offset(s, n + 1)
  return after and s:sub(1, after - 1) or s
end

-- M.name(g, prefix, part) -> g.text(prefix .. part), a text with no arguments (a
-- landscape's or a good's name), looked up once per game and language: the texts do not
-- change within a game, and a table lookup costs less than g.text and the key's concat.
-- The names are kept for one game's data and language (a new game, or another language,
-- starts a new list).
local names, names_data, names_lang = {}, nil, nil
---@param g cairn.G
---@param prefix string
---@param part string|integer
---@return string
function M.name(g, prefix, part)
  if names_data ~= g.data or names_lang ~= g.lang then
    names, names_data, names_lang = {}, g.data, g.lang
  end
  local of_prefix = names[prefix]
  if not of_prefix then
    of_prefix = {}
    names[prefix] = of_prefix
  end
  local s = of_prefix[part]
  if s == nil then
    s = g.text(prefix .. part)
    of_prefix[part] = s
  end
  return s
end

-- M.seat_name(g, seat) -> the seat's name, else the ruleset's text "seat" for it.
---@param g cairn.G
---@param seat integer
---@return string
function M.seat_name(g, seat)
  local s = g.seats and g.seats[seat]
  return (s and s.name) or g.text("seat", seat)
end

return M
