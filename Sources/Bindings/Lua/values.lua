-- Showing and comparing values, for the prelude (prelude.lua): `show` writes a value as Lua
-- source (strings quoted, tables with sorted keys, cycles named), `deep_equal` compares two,
-- `diff` lists where they differ (lists aligned by content) and `near_hint` says when they differ
-- only by floating-point rounding. It runs in the script's own sandbox after the API and before
-- the prelude, which receives the table this chunk returns; every library function is taken here,
-- before any script runs, and every table is read raw (no `__pairs`, `__index`, `__eq`).
local type, ipairs, next, tostring = type, ipairs, next, tostring
local rawget, rawlen, tonumber = rawget, rawlen, tonumber
local format, concat, sort = string.format, table.concat, table.sort
local match, gsub = string.match, string.gsub
local math_type, floor, abs, huge = math.type, math.floor, math.abs, math.huge

-- Showing values -----------------------------------------------------------------------------

local function show_number(n)
  if n ~= n then return "nan" end
  if n == huge then return "inf" end
  if n == -huge then return "-inf" end
  if math_type(n) == "integer" then return tostring(n) end
  if n == floor(n) and abs(n) < 1e15 then return format("%d", n) end
  -- The shortest of 15, 16 and 17 significant digits that reads back as the same double, as
  -- Swift prints numbers in the dump: `0.7818181818181819`, never `0.78181818181818186`.
  for digits = 15, 16 do
    local short = format("%." .. digits .. "g", n)
    if tonumber(short) == n then return short end
  end
  return format("%.17g", n)
end

--- A stable order for table keys of mixed types: by type name, then by value.
local function key_order(a, b)
  local ta, tb = type(a), type(b)
  if ta ~= tb then return ta < tb end
  if ta == "number" or ta == "string" then return a < b end
  return tostring(a) < tostring(b)
end

--- The keys of `t` that are not in its sequence part, sorted; read raw (no `__pairs`, `__index`).
local function sorted_keys(t)
  local keys, n = {}, rawlen(t)
  local k = next(t)
  while k ~= nil do
    if not (math_type(k) == "integer" and k >= 1 and k <= n) then keys[#keys + 1] = k end
    k = next(t, k)
  end
  sort(keys, key_order)
  return keys, n
end

local show
local function show_key(k)
  if type(k) == "string" and match(k, "^[%a_][%w_]*$") then return k end
  return "[" .. show(k) .. "]"
end

--- The deepest a value is shown; deeper tables show as `{...}`.
local show_depth = 20

--- A value as Lua source: strings quoted, tables with sorted keys, cycles named. Raw reads only.
function show(v, seen, depth)
  local t = type(v)
  if t == "string" then return format("%q", v) end
  if t == "number" then return show_number(v) end
  if t ~= "table" then return tostring(v) end
  seen, depth = seen or {}, depth or 0
  if seen[v] then return "<cycle>" end
  if depth >= show_depth then return "{...}" end
  seen[v] = true
  local parts = {}
  local keys, n = sorted_keys(v)
  for i = 1, n do parts[#parts + 1] = show(rawget(v, i), seen, depth + 1) end
  for _, k in ipairs(keys) do parts[#parts + 1] = show_key(k) .. " = " .. show(rawget(v, k), seen, depth + 1) end
  seen[v] = nil
  if #parts == 0 then return "{}" end
  return "{ " .. concat(parts, ", ") .. " }"
end

-- Comparing values ---------------------------------------------------------------------------

--- Whether tables `a` and `b` have the same keys and `matches(a[k], b[k], extra)` holds for each
--- key; raw reads only.
local function tables_match(a, b, matches, extra)
  local k, v = next(a)
  while k ~= nil do
    if not matches(v, rawget(b, k), extra) then return false end
    k, v = next(a, k)
  end
  k = next(b)
  while k ~= nil do
    if rawget(a, k) == nil then return false end
    k = next(b, k)
  end
  return true
end

local function deep_equal(a, b, seen)
  if a == b then return true end
  if type(a) ~= "table" or type(b) ~= "table" then
    return type(a) == "number" and type(b) == "number" and a ~= a and b ~= b
  end
  seen = seen or {}
  if seen[a] == b then return true end
  seen[a] = b
  return tables_match(a, b, deep_equal, seen)
end

--- The longest common subsequence of lists `a` and `b` (elements compared deeply), as the index
--- pairs it matches, in order; nil when the lists are too long to align (then they are compared
--- position by position).
local lcs_limit = 250000
local function common_subsequence(a, b, n, m)
  if n * m > lcs_limit then return nil end
  -- lengths[i][j]: the longest common subsequence of a[i..n] and b[j..m].
  local lengths = {}
  for i = n + 1, 1, -1 do
    local row, below = {}, lengths[i + 1]
    for j = m + 1, 1, -1 do
      if i > n or j > m then row[j] = 0
      elseif deep_equal(rawget(a, i), rawget(b, j)) then row[j] = below[j + 1] + 1
      else
        local down, right = below[j], row[j + 1]
        row[j] = down >= right and down or right
      end
    end
    lengths[i] = row
  end
  local pairs_, i, j = {}, 1, 1
  while i <= n and j <= m do
    if deep_equal(rawget(a, i), rawget(b, j)) then
      pairs_[#pairs_ + 1] = { i, j }; i, j = i + 1, j + 1
    elseif lengths[i + 1][j] >= lengths[i][j + 1] then i = i + 1
    else j = j + 1 end
  end
  return pairs_
end

local diff

--- The path of key `k` under `path`: `.name` or `[2]`.
local function sub_path(path, k)
  return type(k) == "string" and match(k, "^[%a_][%w_]*$") and (path .. "." .. k) or (path .. "[" .. show(k) .. "]")
end

--- `  + cards[2]: "x"`: an element only one side has.
local function list_line(sign, path, k, value)
  return "  " .. sign .. " " .. gsub(sub_path(path, k), "^%.", "") .. ": " .. show(value)
end

--- The diff of two lists' sequence parts aligned by content, as Jest and difflib show them: an
--- element only `expected` has is one `-` line, one only `actual` has one `+` line; between two
--- matched elements, as many removed as added are compared in place (their fields' diff).
local function diff_lists(expected, actual, n, m, path, out)
  local matched = common_subsequence(expected, actual, n, m)
  if not matched then
    for k = 1, n > m and n or m do diff(rawget(expected, k), rawget(actual, k), sub_path(path, k), out) end
    return
  end
  matched[#matched + 1] = { n + 1, m + 1 }
  local i, j = 1, 1
  for _, pair in ipairs(matched) do
    local removed, added = pair[1] - i, pair[2] - j
    if removed == added then
      for k = 0, removed - 1 do diff(rawget(expected, i + k), rawget(actual, j + k), sub_path(path, j + k), out) end
    else
      for k = i, pair[1] - 1 do out[#out + 1] = list_line("-", path, k, rawget(expected, k)) end
      for k = j, pair[2] - 1 do out[#out + 1] = list_line("+", path, k, rawget(actual, k)) end
    end
    i, j = pair[1] + 1, pair[2] + 1
  end
end

--- The lines of a diff between two tables: "- path: expected" and "+ path: actual". Lists (the
--- tables' sequence parts) are aligned by content (``diff_lists``), other keys by key.
function diff(expected, actual, path, out)
  if deep_equal(expected, actual) then return out end
  if type(expected) == "table" and type(actual) == "table" then
    local expected_keys, n = sorted_keys(expected)
    local actual_keys, m = sorted_keys(actual)
    diff_lists(expected, actual, n, m, path, out)
    local union, seen = {}, {}
    for _, keys in ipairs { expected_keys, actual_keys } do
      for _, k in ipairs(keys) do
        -- A key in one table's sequence part and the other's hash part was compared as a list.
        local listed = math_type(k) == "integer" and k >= 1 and (k <= n or k <= m)
        if not seen[k] and not listed then seen[k] = true; union[#union + 1] = k end
      end
    end
    sort(union, key_order)
    for _, k in ipairs(union) do diff(rawget(expected, k), rawget(actual, k), sub_path(path, k), out) end
    return out
  end
  local place = path == "" and "value" or gsub(path, "^%.", "")
  out[#out + 1] = "  - " .. place .. ": " .. show(expected)
  out[#out + 1] = "  + " .. place .. ": " .. show(actual)
  return out
end

--- The largest difference between the numbers of `a` and `b` when they differ only in numbers
--- (two numbers, or tables alike but for numbers); nil when they differ otherwise.
local function number_gap(a, b, depth)
  if type(a) == "number" and type(b) == "number" then
    if a ~= a or b ~= b then return nil end
    return abs(a - b)
  end
  if type(a) ~= "table" or type(b) ~= "table" or (depth or 0) > show_depth then
    return deep_equal(a, b) and 0 or nil
  end
  local gap = 0
  for _, pair in ipairs { { a, b }, { b, a } } do
    local k, v = next(pair[1])
    while k ~= nil do
      local part = number_gap(v, rawget(pair[2], k), (depth or 0) + 1)
      if part == nil then return nil end
      if part > gap then gap = part end
      k, v = next(pair[1], k)
    end
  end
  return gap
end

--- The largest magnitude among the numbers of `v`, for a relative gap.
local function magnitude(v, depth)
  if type(v) == "number" then return abs(v) end
  if type(v) ~= "table" or (depth or 0) > show_depth then return 0 end
  local largest, k, item = 0, next(v)
  while k ~= nil do
    local size = magnitude(item, (depth or 0) + 1)
    if size > largest then largest = size end
    k, item = next(v, k)
  end
  return largest
end

--- What to say when `to_equal` fails on values that differ only in a tiny amount of their
--- numbers (1e-9 of their magnitude or less): floating-point arithmetic, which `to_be_near` takes.
local function near_hint(expected, actual)
  local gap = number_gap(expected, actual)
  if gap == nil or gap == 0 or gap ~= gap then return nil end
  local scale = magnitude(expected)
  if magnitude(actual) > scale then scale = magnitude(actual) end
  if scale < 1 then scale = 1 end
  if gap > 1e-9 * scale then return nil end
  return "the numbers differ by only " .. show_number(gap) .. " (floating-point rounding): use "
    .. "to_be_near(expected, tolerance) for computed numbers, such as :to_be_near(" .. show(expected)
    .. ", " .. show_number(gap * 10) .. ")."
end

return {
  show = show, show_number = show_number, sorted_keys = sorted_keys, deep_equal = deep_equal,
  tables_match = tables_match, diff = diff, near_hint = near_hint,
}
