-- options/master_builder.lua
-- Yak, the "master builder" variant: 3 of the 8 bonus cards are revealed at setup (the
-- number is bonus_cards.reveal, set by options/master_builder.yaml) and every player
-- scores each revealed card (rules/bonus.lua).

local bonus = require "rules.bonus"

return function(rules)
  local base_setup, base_score = rules.setup, rules.score

  ---@param g cairn.G
  function rules.setup(g)
    base_setup(g)
    bonus.reveal(g)
  end

  ---@param g cairn.G
  ---@return cairn.Scores
  function rules.score(g)
    local scores = base_score(g)
    local towers = {}
    for s, p in ipairs(g.state.players) do towers[s] = p.tower end
    for s, entry in ipairs(scores) do
      for _, id in ipairs(g.state.bonus or {}) do
        local pts = bonus.score_card(g.data, towers, s, id)
        entry.breakdown[#entry.breakdown + 1] =
          { key = "bonus " .. id, label = g.text("score.bonus", g.text("bonus." .. id)), points = pts }
        entry.total = entry.total + pts
      end
    end
    return scores
  end

  return rules
end
