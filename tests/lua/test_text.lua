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
-- tags and paint
assert(T.tags({ "bold", "yellow" }) == "{bold}{yellow}")
assert(T.tags(nil) == "" and T.tags({}) == "")
assert(T.paint({ "green" }, "G") == "{green}G{/}")
assert(T.paint({}, "G") == "G" and T.paint(nil, "G") == "G")
-- wrap at 12 columns, continuation indented by 2:
-- "head aaaa" is 9; + "  bbbb" = 15 > 12 -> new line "  bbbb" (6); + "  cc" = 10 fits
local lines = T.wrap("head", { "aaaa", "bbbb", "cc" }, 2, 12)
assert(#lines == 2 and lines[1] == "head aaaa" and lines[2] == "  bbbb  cc", table.concat(lines, "|"))
-- a head ending in a blank takes the first part without another space
lines = T.wrap("    ", { "x", "y" }, 4, 80)
assert(#lines == 1 and lines[1] == "    x  y")
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
print("test_text ok")
