-- rulesets/yak/tests/lua/yaml_emit.lua
-- A small YAML writer for plain data (test generators only): maps with sorted keys,
-- short lists and maps in flow style.

local M = {}

local function is_list(t) return #t > 0 or next(t) == nil end

local function scalar(v)
  if type(v) == "string" then
    if v:match("^[%a_][%w_%-]*$") and v ~= "true" and v ~= "false" and v ~= "null" and v ~= "yes" and v ~= "no" then return v end
    return '"' .. v:gsub('\\', '\\\\'):gsub('"', '\\"') .. '"'
  end
  return tostring(v)
end

local function keys(t)
  local list = {}
  for k in pairs(t) do list[#list + 1] = k end
  table.sort(list)
  return list
end

-- M.flow(v) -> v on one line
function M.flow(v)
  if type(v) ~= "table" then return scalar(v) end
  if next(v) == nil then return "[]" end
  if is_list(v) then
    local parts = {}
    for _, x in ipairs(v) do parts[#parts + 1] = M.flow(x) end
    return "[" .. table.concat(parts, ", ") .. "]"
  end
  local parts = {}
  for _, k in ipairs(keys(v)) do parts[#parts + 1] = scalar(k) .. ": " .. M.flow(v[k]) end
  return "{" .. table.concat(parts, ", ") .. "}"
end

-- M.block(v, indent, width) -> lines: maps and lists in block style until they fit on a line
function M.block(v, indent, width)
  indent = indent or ""
  width = width or 96
  local out = {}
  if type(v) ~= "table" or next(v) == nil then return { indent .. M.flow(v) } end
  if is_list(v) then
    for _, x in ipairs(v) do
      local f = M.flow(x)
      if #indent + 2 + #f <= width or type(x) ~= "table" then
        out[#out + 1] = indent .. "- " .. f
      else
        local sub = M.block(x, indent .. "  ", width)
        sub[1] = indent .. "- " .. sub[1]:sub(#indent + 3)
        for _, l in ipairs(sub) do out[#out + 1] = l end
      end
    end
  else
    for _, k in ipairs(keys(v)) do
      local f = M.flow(v[k])
      if #indent + #k + 2 + #f <= width or type(v[k]) ~= "table" then
        out[#out + 1] = indent .. scalar(k) .. ": " .. f
      else
        out[#out + 1] = indent .. scalar(k) .. ":"
        for _, l in ipairs(M.block(v[k], indent .. "  ", width)) do out[#out + 1] = l end
      end
    end
  end
  return out
end

return M
