-- tools/globals-probe.lua: the rules of the throwaway ruleset tools/gen-lua-config
-- builds to list the globals a live sandbox gives a ruleset's Lua. Its board
-- (shown when the game starts) lists "global NAME" for each standard Lua
-- global (Lua 5.1 to 5.4's, so that a name let through by mistake shows)
-- that is there, and "table NAME N" and "field NAME.FIELD" for each library.
local rules = {}
local STD = { "assert", "collectgarbage", "dofile", "error", "getmetatable", "ipairs", "load", "loadfile",
  "next", "pairs", "pcall", "print", "rawequal", "rawget", "rawlen", "rawset", "require", "select",
  "setmetatable", "tonumber", "tostring", "type", "xpcall", "_G", "_VERSION", "warn",
  "coroutine", "debug", "io", "math", "os", "package", "string", "table", "utf8", "unpack", "module", "setfenv", "getfenv", "loadstring" }
function rules.setup(g)
  local out = {}
  for _, k in ipairs(STD) do
    local v = _ENV[k]
    if type(v) == "table" then
      local n = 0
      for f in pairs(v) do out[#out + 1] = "field " .. k .. "." .. tostring(f); n = n + 1 end
      out[#out + 1] = "table " .. k .. " " .. n
    elseif v ~= nil then
      out[#out + 1] = "global " .. k
    end
  end
  for k in pairs(_ENV) do out[#out + 1] = "env " .. tostring(k) end
  table.sort(out)
  g.state.found = out
end
function rules.decisions(g) return { { seat = 1, options = { "end" } } } end
function rules.apply(g, seat, id) end
function rules.render(view, seat, g) return table.concat(view.found, "\n") end
return rules
