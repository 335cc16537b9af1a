-- tests/lua/test_graph.lua
package.path = "tests/lua/?.lua;" .. package.path
local graph = require "cairn.graph"

--  a -1- b -1- c        a -5- c directly; d - e apart
local gr = graph.new({ { "a", "b" }, { "b", "c" }, { "a", "c", 5 }, { "d", "e" } })
assert(table.concat(graph.neighbours(gr, "a"), "") == "bc")
local path, cost = graph.shortest_path(gr, "a", "c")
assert(table.concat(path, "") == "abc" and cost == 2)
-- forbid b: the direct edge, cost 5
path, cost = graph.shortest_path(gr, "a", "c", function(n) return n ~= "b" end)
assert(table.concat(path, "") == "ac" and cost == 5)
assert(graph.shortest_path(gr, "a", "e") == nil)
local comps = graph.components(gr)
assert(#comps == 2 and table.concat(comps[1], "") == "abc" and table.concat(comps[2], "") == "de")
assert(table.concat(graph.reachable(gr, "d"), "") == "de")
-- directed
local dg = graph.new({ { "x", "y" } }, true, { "z" })
assert(#graph.neighbours(dg, "y") == 0 and #graph.nodes(dg) == 3)
assert(#graph.components(dg) == 2)
-- without b: a-c (the weight-5 edge) and d-e
assert(#graph.components(gr, function(n) return n ~= "b" end) == 2)
print("test_graph ok")
-- from a graph_board component: pairs and detailed edges
local gc = graph.from_component({ nodes = { lhasa = {}, gyantse = {}, shigatse = {} },
  edges = { { "lhasa", "gyantse" }, { from = "gyantse", to = "shigatse", cost = 2 } } })
local p, cost_gc = graph.shortest_path(gc, "lhasa", "shigatse")
assert(table.concat(p, " ") == "lhasa gyantse shigatse" and cost_gc == 3)
assert(#graph.nodes(gc) == 3)
print("test_graph component ok")
