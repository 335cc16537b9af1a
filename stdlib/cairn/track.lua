-- cairn/track.lua
-- Markers on a numbered track (score track, fog track, round track).
--
-- A track is plain data: {min = 0, max = 20, wrap = false, pos = {ann = 3}}. Marker
-- names are strings (write seats as "1", "2", ... so the map stays string-keyed).

local M = {}

-- M.new(min, max [, wrap]) -> an empty track with spaces min..max.
---@param min integer
---@param max integer
---@param wrap? boolean
---@return table
function M.new(min, max, wrap)
  assert(math.type(min) == "integer" and math.type(max) == "integer" and min <= max,
    "track bounds are integers, min <= max")
  return { min = min, max = max, wrap = wrap and true or false, pos = {} }
end

-- M.step(pos, k, min, max, wrap) -> new position, laps. Clamps to min..max, or with
-- wrap goes round (laps counts whole turns, negative going backwards).
---@param pos integer
---@param k integer
---@param min integer
---@param max integer
---@param wrap? boolean
---@return integer
function M.step(pos, k, min, max, wrap)
  local p = pos + k
  if not wrap then
    if p < min then return min, 0 end
    if p > max then return max, 0 end
    return p, 0
  end
  local size = max - min + 1
  local off = p - min
  return min + off % size, off // size
end

-- M.place(track, who, pos): put marker who at pos (clamped).
---@param track table
---@param who string|integer
---@param pos integer
---@return table the track
function M.place(track, who, pos)
  track.pos[who] = M.step(pos, 0, track.min, track.max, false)
  return track
end

-- M.position(track, who) -> the marker's position, or nil if it is not on the track.
---@param track table
---@param who string|integer
---@return integer?
function M.position(track, who) return track.pos[who] end

-- M.move(track, who, k) -> new position, laps: move a marker k spaces.
---@param track table
---@param who string|integer
---@param k integer
---@return integer
function M.move(track, who, k)
  local p, laps = M.step(assert(track.pos[who], "marker not on track"), k,
    track.min, track.max, track.wrap)
  track.pos[who] = p
  return p, laps
end

-- M.at(track, pos) -> the markers on space pos, sorted.
---@param track table
---@param pos integer
---@return (string|integer)[]
function M.at(track, pos)
  local list = {}
  for who, p in pairs(track.pos) do if p == pos then list[#list + 1] = who end end
  table.sort(list)
  return list
end

-- M.ranking(track) -> markers from the highest position down; ties by name.
---@param track table
---@return (string|integer)[]
function M.ranking(track)
  local list = {}
  for who in pairs(track.pos) do list[#list + 1] = who end
  table.sort(list, function(a, b)
    local pa, pb = track.pos[a], track.pos[b]
    if pa ~= pb then return pa > pb end
    return a < b
  end)
  return list
end

-- M.is_at_end(track, who) -> true if the marker is on the last space.
---@param track table
---@param who string|integer
---@return boolean
function M.is_at_end(track, who) return track.pos[who] == track.max end

-- M.from_component(def) -> an empty track from a `track` component of
-- schemas/components.schema.yaml ({length = 30, start = 0, loop = true}).
---@param def table
---@return table
function M.from_component(def)
  local start = def.start or 0
  return M.new(start, start + def.length - 1, def.loop)
end

return M
