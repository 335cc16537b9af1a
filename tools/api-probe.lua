-- tools/api-probe.lua: the rules of the throwaway ruleset tools/check-reference
-- builds to enumerate the real Lua API from a live sandbox. Its board (shown
-- when the game starts) lists, one per line: "g NAME" for each field of g in
-- setup, "rng NAME" for each field of g.rng, and "stdlib MODULE.NAME" for each
-- function of the modules in MODULES (filled in by the tool from
-- stdlib/cairn/*.lua). The handler names come from the engine's own
-- table (engine_handler_names), which no script can enumerate.
local MODULES = { --MODULES-- }
local rules = {}
local function keys(t, prefix, out)
  for k in pairs(t) do out[#out + 1] = prefix .. tostring(k) end
end
function rules.setup(g)
  local out = {}
  keys(g, "g ", out)
  keys(g.rng, "rng ", out)
  for _, m in ipairs(MODULES) do
    for k, v in pairs(require("cairn." .. m)) do
      if type(v) == "function" then out[#out + 1] = "stdlib " .. m .. "." .. k end
    end
  end
  table.sort(out)
  g.state.found = out
end
function rules.decisions(g) return { { seat = 1, options = { "end" } } } end
function rules.apply(g, seat, id) end
function rules.render(view, seat, g) return table.concat(view.found, "\n") end
return rules
