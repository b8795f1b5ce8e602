-- A recorded session becomes a scenario: replay it, all of it or up to an event, then assert.
-- Paths a script names are relative to the scripts' folder (here, this file's).
local path = "golden/"
  .. "tests-stackplaytests-fixtures-traces-session-lua--wallet-open-a-card-escape-select-new-height-ed5161aa.jsonl"

test("the whole session", function()
  local screen, components = stackplay.replay(path)
  expect(components.wallet:selection()):to_equal("mc")
  expect(screen:now() > 0):to_be_truthy()
end)

test("up to the first tap", function()
  local _, components = stackplay.replay(path, { events = 2 })
  expect(components.wallet:selection()):to_equal("visa")
end)
