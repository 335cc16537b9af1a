-- options/tricks.lua: the `tricks` scoring variant. Each prize won scores 1
-- point; the sum of the prizes' values breaks ties. Wraps rules.score.
return function(rules)
  local value_score = rules.score
  ---@param g cairn.G
  ---@return cairn.Scores
  function rules.score(g)
    local by_value = value_score(g)
    local scores = {}
    for seat = 1, #g.seats do
      local n = #g.state.won[seat]
      scores[seat] = {
        total = n,
        tiebreak = by_value[seat].total,
        breakdown = { { label = g.text("prizes_won"), points = n } },
      }
    end
    return scores
  end
  return rules
end
