-- baserules.lua: the base rules (an attack's rules.lua requires and changes them): seats take turns adding one or two; the game ends at the goal.
local rules = {}

function rules.setup(g)
  g.state.total = 0
  g.state.turn = 1
end

function rules.decisions(g)
  if g.state.total >= g.data.counts.goal then return {} end
  return { { seat = g.state.turn, prompt = "add", options = { { id = "one", label = "add one" }, { id = "two", label = "add two" } } } }
end

function rules.apply(g, seat, id)
  g.state.total = g.state.total + (id == "two" and 2 or 1)
  g.state.turn = 3 - seat
  g.log("seat " .. seat .. " adds " .. id)
end

function rules.score(g)
  return { { total = g.state.total }, { total = 0 } }
end

function rules.render(view, seat)
  return "total " .. tostring(view.total)
end

return rules
