-- Explorations of the wallet: `stackplay explore scripts/explore/wallet.lua`.
local wallet

--- Whether nothing moves and no card is pressed: `settle(0)` raises while anything animates.
local function at_rest(screen)
  if not pcall(screen.settle, screen, 0) then return false end
  for _, card in ipairs(wallet:cards()) do
    if card.scale ~= 1 then return false end -- W4: a pressed card is drawn at 0.98
  end
  return true
end

--- The selected card's id, or nil: a selection that names no card counts as none (W11).
local function selected()
  local selection = wallet:selection()
  for _, id in ipairs(wallet:ids()) do if id == selection then return id end end
  return nil
end

explore("a wallet with a selection shows it on top", {
  setup = function()
    local screen = stackplay.screen {}
    wallet = screen:wallet_card_stack { items = { "everyday", "savings", "travel", "gift" }, height = 600 }
    return screen
  end,
  invariants = {
    -- W2: once at rest with a selection, exactly one card is at the top and the others are in the
    -- pile, `height - pile_height` down. W11: a selection that names no card counts as none (the
    -- owner may take the selected card away with set_items and keep the binding).
    ["one card on top, the others in the pile"] = function(screen)
      local selection = selected()
      if selection == nil or not at_rest(screen) then return true end
      local frame, state = wallet:frame(), wallet:state()
      local pile_top = frame.y + state.height - 76
      for _, card in ipairs(wallet:cards()) do
        if card.id == selection then
          if math.abs(card.y - frame.y) > 1e-6 then return false, selection .. " is at y " .. card.y end
        elseif card.y < pile_top - 1e-6 then
          return false, card.id .. " is at y " .. card.y .. ", above the pile at " .. pile_top
        end
      end
    end,
    -- W2: with none selected, the cards stand one below another in their order.
    ["without a selection the cards keep their order"] = function(screen)
      if selected() ~= nil or not at_rest(screen) then return true end
      local last = -math.huge
      for _, card in ipairs(wallet:cards()) do
        if card.y < last then return false, card.id .. " is above the card before it" end
        last = card.y
      end
    end,
  },
})
