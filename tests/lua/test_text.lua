-- tests/lua/test_text.lua
package.path = "tests/lua/?.lua;" .. package.path
local T = require "cairn.text"

-- width: tags take no columns, UTF-8 characters one each
assert(T.width("abc") == 3)
assert(T.width("{bold}{red}R{/} x") == 3, "R, space, x")
assert(T.width("↑ Nadel") == 7, "the arrow is one character of three bytes")
assert(T.width("") == 0)
-- the widths kept: the same answer the second time, and after more strings than are kept
-- (4096) the list starts again and still measures right
assert(T.width("{red}ab{/}") == 2 and T.width("{red}ab{/}") == 2)
for i = 1, 5000 do assert(T.width("{bold}" .. i .. "{/}") == #tostring(i)) end
assert(T.width("{red}ab{/}") == 2 and T.width("abc") == 3)
-- pad: to the width, never cut
assert(T.pad("{red}ab{/}", 4) == "{red}ab{/}  ")
assert(T.pad("abcdef", 4) == "abcdef")
assert(T.pad("μπλε", 6) == "μπλε  ", "4 Greek letters + 2 spaces")
-- the blanks of a pad are made once per width up to 256; wider pads are made each time
assert(T.pad("ab", 5) == "ab   " and T.pad("abc", 5) == "abc  ", "the 3 and 2 blanks kept apart")
assert(T.pad("a", 300) == "a" .. string.rep(" ", 299) and T.pad("a", 300) == "a" .. string.rep(" ", 299))
-- the padded strings kept: the same answer the second time and at another width, and after
-- more strings than are kept (4096) the list starts again and still pads right
assert(T.pad("{red}ab{/}", 4) == "{red}ab{/}  " and T.pad("{red}ab{/}", 3) == "{red}ab{/} ")
for i = 1, 5000 do assert(T.pad("p" .. i, 6) == "p" .. i .. string.rep(" ", 5 - #tostring(i))) end
assert(T.pad("{red}ab{/}", 4) == "{red}ab{/}  " and T.pad("abcdef", 4) == "abcdef")
-- tags and paint
assert(T.tags({ "bold", "yellow" }) == "{bold}{yellow}")
assert(T.tags(nil) == "" and T.tags({}) == "")
assert(T.paint({ "green" }, "G") == "{green}G{/}")
assert(T.paint({}, "G") == "G" and T.paint(nil, "G") == "G")
-- fit: a line that fits is itself
local lines = T.fit("short", 10, 2)
assert(#lines == 1 and lines[1] == "short")
-- broken at its double spaces: "Legend: S steppe" (16) + "  F forest" (10) = 26 <= 30;
-- + "  R rice terraces" (17) = 43 > 30: a new line, 8 blanks + 15 = 23; + "  L lakeshore"
-- (13) = 36 > 30: another, 8 + 11 = 19
lines = T.fit("Legend: S steppe  F forest  R rice terraces  L lakeshore", 30, 8)
assert(#lines == 3 and lines[1] == "Legend: S steppe  F forest" and
  lines[2] == "        R rice terraces" and lines[3] == "        L lakeshore")
-- the first line's leading blanks are kept
lines = T.fit("        C city (goods)  T temple (offerings)", 30, 8)
assert(#lines == 2 and lines[1] == "        C city (goods)" and lines[2] == "        T temple (offerings)")
-- one field wider than a line (68 > 30 - 8): broken between its words, one space apart;
-- "Equipment: rope (snowfield)," is 28, + " chest" = 34 > 30
lines = T.fit("Equipment: rope (snowfield), chest (lakeshore), ice axe (snowfield)", 30, 8)
assert(#lines == 3 and lines[1] == "Equipment: rope (snowfield)," and
  lines[2] == "        chest (lakeshore), ice" and lines[3] == "        axe (snowfield)")
-- tags take no columns: "KATHMANDU  round 1/6  choosing" is 30 columns, the rest 2 + 21
lines = T.fit("{bold}KATHMANDU{/}  round 1/6  choosing  storm wall at strip 0", 30, 2)
assert(#lines == 2 and lines[1] == "{bold}KATHMANDU{/}  round 1/6  choosing" and
  lines[2] == "  storm wall at strip 0")
-- fit_lines: each line fitted in order ("aaa  bb" is 7 > 4: "aaa", then " bb" indented
-- by 1; "c" fits), nil max: the same list
local list = { "aaa  bb", "c" }
lines = T.fit_lines(list, 4, 1)
assert(#lines == 3 and lines[1] == "aaa" and lines[2] == " bb" and lines[3] == "c", table.concat(lines, "|"))
assert(T.fit_lines(list, nil, 1) == list)
-- cut: characters, not bytes ("Άννα" is 8 bytes, 4 characters); shorter: s itself
assert(T.cut("Tengboche", 5) == "Tengb")
assert(T.cut("Άννα", 1) == "Ά" and T.cut("Άννα", 3) == "Άνν")
assert(T.cut("Lukla", 9) == "Lukla" and T.cut("Lukla", 5) == "Lukla")
assert(T.cut("Lukla", 0) == "" and T.cut("", 3) == "")
-- a word wider than max stays whole
lines = T.fit("abcdefghijklmnopqrstuvwxyz0123456789 x", 10, 2)
assert(#lines == 2 and lines[1] == "abcdefghijklmnopqrstuvwxyz0123456789" and lines[2] == "  x")
-- wrap at 12 columns, continuation indented by 2:
-- "head aaaa" is 9; + "  bbbb" = 15 > 12 -> new line "  bbbb" (6); + "  cc" = 10 fits
lines = T.wrap("head", { "aaaa", "bbbb", "cc" }, 2, 12)
assert(#lines == 2 and lines[1] == "head aaaa" and lines[2] == "  bbbb  cc", table.concat(lines, "|"))
-- a head ending in a blank takes the first part without another space
lines = T.wrap("    ", { "x", "y" }, 4, 80)
assert(#lines == 1 and lines[1] == "    x  y")
-- the head's blank is looked at once per head, and is the same answer every time; after
-- more heads than are kept (256) the list starts again and still answers right
for _ = 1, 2 do
  lines = T.wrap("    ", { "x" }, 4, 80)
  assert(#lines == 1 and lines[1] == "    x", lines[1])
  lines = T.wrap("h:", { "x" }, 4, 80)
  assert(#lines == 1 and lines[1] == "h: x", lines[1])
end
for i = 1, 300 do assert(T.wrap("h" .. i .. " ", { "x" }, 0, 80)[1] == "h" .. i .. " x") end
assert(T.wrap("h:", { "x" }, 4, 80)[1] == "h: x" and T.wrap("\t", { "x" }, 4, 80)[1] == "\tx")
-- parts with markup are measured without it: "h {red}aaaa{/}" is 6 columns; + "  bb" = 10
-- fits in 10; + "  c" = 13 > 10 -> new line "  c"
lines = T.wrap("h", { "{red}aaaa{/}", "bb", "c" }, 2, 10)
assert(#lines == 2 and lines[1] == "h {red}aaaa{/}  bb" and lines[2] == "  c", table.concat(lines, "|"))
-- a part wider than the line stays whole, alone on its line
lines = T.wrap("h", { "0123456789abc" }, 0, 5)
assert(#lines == 2 and lines[1] == "h" and lines[2] == "0123456789abc", table.concat(lines, "|"))
-- seat_name: the seat's name, else the ruleset's text
local g = { seats = { { name = "Ann" } }, text = function(key, n) return key .. " " .. n end }
assert(T.seat_name(g, 1) == "Ann")
assert(T.seat_name(g, 2) == "seat 2")
-- name: g.text(prefix .. part), asked once per game data and language
local asked = {}
local data1, data2 = {}, {}
local ng = { data = data1, lang = "en" }
ng.text = function(key) asked[#asked + 1] = key; return ng.lang .. ":" .. key end
assert(T.name(ng, "land.", "forest") == "en:land.forest" and T.name(ng, "land.", "forest") == "en:land.forest")
assert(T.name(ng, "res.", "food") == "en:res.food")
assert(#asked == 2 and asked[1] == "land.forest" and asked[2] == "res.food", table.concat(asked, " "))
ng.lang = "de"   -- another language: asked again
assert(T.name(ng, "land.", "forest") == "de:land.forest" and #asked == 3)
ng.data = data2  -- another game's data: asked again
assert(T.name(ng, "land.", "forest") == "de:land.forest" and #asked == 4)
print("test_text ok")
