-- Explorations of the sticky cards: `stackplay explore scripts/explore/sticky_cards.lua`.
local top, peek, max_peeking = 12, 12, 3
local cards

explore("sticky cards stay on their pin lines", {
  setup = function()
    local screen = stackplay.screen {}
    cards = screen:sticky_stacked_cards {
      items = { "Design", "Build", "Test", "Ship", "Measure", "Learn" },
      top = top, peek = peek, max_peeking = max_peeking,
    }
    return screen
  end,
  invariants = {
    -- S1, S2: a card's top never goes above its pin line, however the content scrolls.
    ["no card above its pin line"] = function()
      local frame = cards:frame()
      for index, card in ipairs(cards:cards()) do
        local pin = frame.y + top + math.min(index - 1, max_peeking) * peek
        if card.y < pin - 1e-9 then return false, card.id .. " at y " .. card.y .. " is above its pin line " .. pin end
      end
    end,
    -- S6: the offset stays between 0 and the largest offset.
    ["the scroll offset is in range"] = function()
      local offset, most = cards:scroll_offset(), cards:max_offset()
      return offset >= 0 and offset <= most, "offset " .. offset .. " outside 0 ... " .. most
    end,
    -- S3: a pinned card shrinks to 0.6 at most and never grows.
    ["scale between 0.6 and 1"] = function()
      for _, card in ipairs(cards:cards()) do
        if card.scale < 0.6 - 1e-12 or card.scale > 1 then return false, card.id .. " scale " .. card.scale end
      end
    end,
  },
})
