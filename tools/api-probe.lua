-- tools/api-probe.lua: the rules of the throwaway ruleset tools/check-reference
-- builds to enumerate the real Lua API from a live sandbox. Its `show` prints,
-- one per line: "g NAME" for each field of g in setup, "rng NAME" for g.rng,
-- "handler NAME" for each key cairn looked up in the rules table, and
-- "stdlib MODULE.NAME" for each function of the modules in MODULES (filled in
-- by the tool from interpreter/lua/cairn/*.lua).
local MODULES = { --MODULES-- }
local looked = {}
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
  g.state.found = out
end
function rules.decisions(g) return { { seat = 1, options = { "end" } } } end
function rules.apply(g, seat, id) end
function rules.render(view, seat, g)
  local out = {}
  for _, l in ipairs(view.found) do out[#out + 1] = l end
  for k in pairs(looked) do out[#out + 1] = "handler " .. k end
  table.sort(out)
  return table.concat(out, "\n")
end
-- every key cairn asks the rules table for and it does not define
return setmetatable(rules, { __index = function(_, k) looked[k] = true end })
