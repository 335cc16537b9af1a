-- cairn/graph.lua
-- Graphs of named nodes: neighbours, shortest paths, connected components.
--
-- A graph is plain data built from an edge list:
--   M.new({{"a", "b"}, {"b", "c", 2}}) -> {directed = false, adj = {a = {"b"}, ...},
--                                          weight = {["a->b"] = 1, ...}}
-- Node ids are strings; the third item of an edge is an integer weight (default 1).
-- Neighbour lists are sorted, so every search visits nodes in a fixed order.

local M = {}

---@param graph table
---@param a string a node
---@param b string a node
---@param w integer the edge's weight
local function add_edge(graph, a, b, w)
  graph.adj[a] = graph.adj[a] or {}
  graph.adj[b] = graph.adj[b] or {}
  local key = a .. "->" .. b
  if graph.weight[key] == nil then table.insert(graph.adj[a], b) end
  if graph.weight[key] == nil or w < graph.weight[key] then graph.weight[key] = w end
end

-- M.new(edges [, directed] [, nodes]) -> graph. nodes: extra nodes without edges.
---@param edges table[]
---@param directed? boolean
---@param nodes? string[]
---@return table
function M.new(edges, directed, nodes)
  local graph = { directed = directed and true or false, adj = {}, weight = {} }
  for _, n in ipairs(nodes or {}) do graph.adj[n] = graph.adj[n] or {} end
  for _, e in ipairs(edges) do
    local w = e[3] or 1
    add_edge(graph, e[1], e[2], w)
    if not graph.directed then add_edge(graph, e[2], e[1], w) end
  end
  for _, list in pairs(graph.adj) do table.sort(list) end
  return graph
end

-- M.nodes(graph) -> every node, sorted.
---@param graph table
---@return string[]
function M.nodes(graph)
  local list = {}
  for n in pairs(graph.adj) do list[#list + 1] = n end
  table.sort(list)
  return list
end

-- M.neighbours(graph, node) -> the nodes one edge away, sorted.
---@param graph table
---@param node string
---@return string[]
function M.neighbours(graph, node) return graph.adj[node] or {} end

-- M.weight(graph, a, b) -> the weight of edge a-b, or nil.
---@param graph table
---@param a string
---@param b string
---@return integer?
function M.weight(graph, a, b) return graph.weight[a .. "->" .. b] end

-- M.shortest_path(graph, from, to [, passable]) -> path (list of nodes from..to), cost;
-- or nil when to cannot be reached. passable(node), if given, excludes nodes
-- (from and to are always allowed). Dijkstra with integer weights; among equal
-- costs the alphabetically first route wins.
---@param graph table
---@param from string
---@param to string
---@param passable? fun(node:string):boolean
---@return string[]?, integer?
function M.shortest_path(graph, from, to, passable)
  local dist, prev, done = { [from] = 0 }, {}, {}
  while true do
    local u, best = nil, nil
    for n, d in pairs(dist) do
      if not done[n] and (best == nil or d < best or (d == best and n < u)) then
        u, best = n, d
      end
    end
    if u == nil then return nil end
    if u == to then break end
    done[u] = true
    for _, v in ipairs(M.neighbours(graph, u)) do
      if v == to or passable == nil or passable(v) then
        local nd = best + M.weight(graph, u, v)
        if dist[v] == nil or nd < dist[v] then dist[v], prev[v] = nd, u end
      end
    end
  end
  local path, n = {}, to
  while n do table.insert(path, 1, n); n = prev[n] end
  return path, dist[to]
end

-- M.reachable(graph, from [, passable]) -> every node reachable from from, sorted.
---@param graph table
---@param from string
---@param passable? fun(node:string):boolean
---@return string[]
function M.reachable(graph, from, passable)
  local seen, queue, head = { [from] = true }, { from }, 1
  while queue[head] do
    local u = queue[head]; head = head + 1
    for _, v in ipairs(M.neighbours(graph, u)) do
      if not seen[v] and (passable == nil or passable(v)) then
        seen[v] = true
        queue[#queue + 1] = v
      end
    end
  end
  table.sort(queue)
  return queue
end

-- M.components(graph [, keep]) -> connected components (edges taken as undirected),
-- each a sorted list, ordered by their first node. keep(node), if given, restricts the
-- graph to the nodes it accepts.
---@param graph table
---@param keep? fun(node:string):boolean
---@return string[][]
function M.components(graph, keep)
  local und = { adj = {} }
  for _, n in ipairs(M.nodes(graph)) do
    if keep == nil or keep(n) then und.adj[n] = und.adj[n] or {} end
  end
  for _, a in ipairs(M.nodes(graph)) do
    for _, b in ipairs(M.neighbours(graph, a)) do
      if und.adj[a] and und.adj[b] then
        table.insert(und.adj[a], b)
        table.insert(und.adj[b], a)
      end
    end
  end
  local seen, out = {}, {}
  for _, n in ipairs(M.nodes(und)) do
    if not seen[n] then
      local comp = M.reachable(und, n)
      for _, m in ipairs(comp) do seen[m] = true end
      out[#out + 1] = comp
    end
  end
  return out
end

-- M.from_component(def) -> a graph from a `graph_board` component of
-- schemas/components.schema.yaml: nodes a map id -> details, edges [a, b] or
-- {from =, to =, cost =}.
---@param def table
---@return table
function M.from_component(def)
  local edges, nodes = {}, {}
  for id in pairs(def.nodes) do nodes[#nodes + 1] = id end
  table.sort(nodes)
  for _, e in ipairs(def.edges) do
    if e.from then edges[#edges + 1] = { e.from, e.to, e.cost or 1 }
    else edges[#edges + 1] = { e[1], e[2] } end
  end
  return M.new(edges, def.directed, nodes)
end

return M
