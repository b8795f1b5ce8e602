/// The prelude every script runs first: `test`, `skip`, `only`, `before_each`, `after_each`,
/// `expect(...)` with its matchers, and the failure report with the state dump. Written in Lua,
/// since it is about Lua values; installed after the model API.
public struct PreludeModule: LuaModule {
    /// The chunk name failures skip when they look for the script's own line.
    static let chunkName = "=stackplay.prelude"

    public init() {}

    public func install(in lua: LuaState) throws {
        try lua.setField(
            "_where", in: "stackplay",
            .function("_where") { a in
                [a.stack.position(skipping: Self.chunkName).map { .string($0) } ?? .nil]
            })
        try lua.setField(
            "_traceback", in: "stackplay",
            .function("_traceback") { a in
                [.string(a.stack.traceback(level: try a.optionalInt32(at: 1) ?? 1))]
            })
        if let bytecode = Self.bytecode {
            try lua.run(bytecode: bytecode, name: Self.chunkName)
        } else {
            try lua.run(Self.source, name: Self.chunkName)
        }
    }

    /// The prelude compiled once per process: a test's fresh state loads it without parsing.
    static let bytecode: [UInt8]? = {
        guard let lua = try? LuaState(budget: LuaBudget(cpuSeconds: 0, memoryMiB: 0)) else { return nil }
        return try? lua.compile(source, name: chunkName)
    }()

    static let source = #"""
        -- The stackplay prelude: tests, expectations and the failure report. It runs in the script's own
        -- sandbox before the script.
        local api = stackplay
        local registry = { tests = {}, before_each = {}, after_each = {}, screens = {} }
        local type, pairs, ipairs, tostring, select, error = type, pairs, ipairs, tostring, select, error
        local format, rep, concat, sort = string.format, string.rep, table.concat, table.sort

        -- Showing values -----------------------------------------------------------------------------

        local function show_number(n)
          if n ~= n then return "nan" end
          if n == math.huge then return "inf" end
          if n == -math.huge then return "-inf" end
          if math.type(n) == "integer" then return tostring(n) end
          if n == math.floor(n) and math.abs(n) < 1e15 then return format("%d", n) end
          local short = format("%.15g", n)
          if tonumber(short) == n then return short end
          return format("%.17g", n)
        end

        --- A stable order for table keys of mixed types: by type name, then by value.
        local function key_order(a, b)
          local ta, tb = type(a), type(b)
          if ta ~= tb then return ta < tb end
          if ta == "number" or ta == "string" then return a < b end
          return tostring(a) < tostring(b)
        end

        local function sorted_keys(t)
          local keys, n = {}, #t
          for k in pairs(t) do
            if not (math.type(k) == "integer" and k >= 1 and k <= n) then keys[#keys + 1] = k end
          end
          sort(keys, key_order)
          return keys, n
        end

        local show
        local function show_key(k)
          if type(k) == "string" and k:match("^[%a_][%w_]*$") then return k end
          return "[" .. show(k) .. "]"
        end

        --- A value as Lua source: strings quoted, tables with sorted keys, cycles named.
        function show(v, seen)
          local t = type(v)
          if t == "string" then return format("%q", v) end
          if t == "number" then return show_number(v) end
          if t ~= "table" then return tostring(v) end
          seen = seen or {}
          if seen[v] then return "<cycle>" end
          seen[v] = true
          local parts = {}
          local keys, n = sorted_keys(v)
          for i = 1, n do parts[#parts + 1] = show(v[i], seen) end
          for _, k in ipairs(keys) do parts[#parts + 1] = show_key(k) .. " = " .. show(v[k], seen) end
          seen[v] = nil
          if #parts == 0 then return "{}" end
          return "{ " .. concat(parts, ", ") .. " }"
        end
        api.show = show

        -- Comparing values ---------------------------------------------------------------------------

        local function deep_equal(a, b, seen)
          if a == b then return true end
          if type(a) ~= "table" or type(b) ~= "table" then
            return type(a) == "number" and type(b) == "number" and a ~= a and b ~= b
          end
          seen = seen or {}
          if seen[a] == b then return true end
          seen[a] = b
          for k, v in pairs(a) do
            if not deep_equal(v, b[k], seen) then return false end
          end
          for k in pairs(b) do
            if a[k] == nil then return false end
          end
          return true
        end

        --- The lines of a diff between two tables: "- path: expected" and "+ path: actual".
        local function diff(expected, actual, path, out)
          if deep_equal(expected, actual) then return out end
          if type(expected) == "table" and type(actual) == "table" then
            local union, seen = {}, {}
            for k in pairs(expected) do if not seen[k] then seen[k] = true; union[#union + 1] = k end end
            for k in pairs(actual) do if not seen[k] then seen[k] = true; union[#union + 1] = k end end
            sort(union, key_order)
            for _, k in ipairs(union) do
              local sub = type(k) == "string" and k:match("^[%a_][%w_]*$") and (path .. "." .. k)
                or (path .. "[" .. show(k) .. "]")
              diff(expected[k], actual[k], sub, out)
            end
            return out
          end
          local where = path == "" and "value" or path:gsub("^%.", "")
          out[#out + 1] = "  - " .. where .. ": " .. show(expected)
          out[#out + 1] = "  + " .. where .. ": " .. show(actual)
          return out
        end

        -- Failing ------------------------------------------------------------------------------------

        local Failure = {}
        Failure.__index = Failure
        Failure.__tostring = function(f) return f.message end

        --- Raises an assertion failure pointing at the line that called the expectation.
        local function fail(message, expected, actual, lines, level)
          local position = api._where() or "?"
          local text = position .. ": " .. message
          if lines then text = text .. "\n" .. concat(lines, "\n") end
          error(setmetatable({
            message = text, position = position, expected = expected, actual = actual, assertion = true,
          }, Failure), 0)
        end

        local function check_arity(name, n, count)
          if n < count then error(format("bad argument #%d to '%s' (value expected)", count, name), 3) end
        end

        local Expectation = {}
        Expectation.__index = Expectation

        --- Lua: `expect(actual)`, then `:to_equal(expected)`, `:to_be_near(expected, tolerance)`,
        --- `:to_be_truthy()`, `:to_be_falsy()`, `:to_raise([text])`, `:never()`.
        function _ENV.expect(...)
          check_arity("expect", select("#", ...), 1)
          return setmetatable({ actual = (...), negated = false }, Expectation)
        end

        function Expectation:never()
          self.negated = not self.negated
          return self
        end
        Expectation.to_not = Expectation.never

        local function outcome(self, passed, message, expected, lines)
          if passed == self.negated then
            if self.negated then message = "expected anything but " .. show(expected) .. ", got it" ; lines = nil end
            fail(message, expected, self.actual, lines, 4)
          end
          return self
        end

        function Expectation:to_equal(...)
          check_arity("to_equal", select("#", ...), 1)
          local expected = ...
          local actual = self.actual
          local lines
          if type(expected) == "table" and type(actual) == "table" then
            lines = { "  expected: " .. show(expected), "    actual: " .. show(actual), "  diff (- expected, + actual):" }
            diff(expected, actual, "", lines)
          else
            lines = { "  expected: " .. show(expected), "    actual: " .. show(actual) }
          end
          lines[#lines + 1] = "  To fix: check the gestures and time before this line, or the expected value."
          return outcome(self, deep_equal(expected, actual), "values differ", expected, lines)
        end

        local function near(expected, actual, tolerance)
          if type(expected) == "number" and type(actual) == "number" then
            return math.abs(expected - actual) <= tolerance
          end
          if type(expected) ~= "table" or type(actual) ~= "table" then return false end
          for k, v in pairs(expected) do
            if not near(v, actual[k], tolerance) then return false end
          end
          for k in pairs(actual) do if expected[k] == nil then return false end end
          return true
        end

        function Expectation:to_be_near(expected, tolerance)
          if type(expected) ~= "number" and type(expected) ~= "table" then
            error("bad argument #1 to 'to_be_near' (number or table expected, got " .. type(expected) .. ")", 2)
          end
          tolerance = tolerance == nil and 1e-9 or tolerance
          if type(tolerance) ~= "number" or tolerance ~= tolerance or tolerance < 0 then
            error("bad argument #2 to 'to_be_near' (tolerance must be a number >= 0, got " .. show(tolerance) .. ")", 2)
          end
          local lines = {
            "  expected: " .. show(expected) .. " ± " .. show_number(tolerance),
            "    actual: " .. show(self.actual),
          }
          if type(expected) == "table" and type(self.actual) == "table" then
            lines[#lines + 1] = "  diff (- expected, + actual):"
            diff(expected, self.actual, "", lines)
          end
          return outcome(self, near(expected, self.actual, tolerance), "values are not near", expected, lines)
        end

        function Expectation:to_be_truthy()
          return outcome(self, not not self.actual, "expected a truthy value, got " .. show(self.actual), true)
        end

        function Expectation:to_be_falsy()
          return outcome(self, not self.actual, "expected a falsy value, got " .. show(self.actual), false)
        end

        function Expectation:to_raise(text)
          if type(self.actual) ~= "function" then
            error("bad argument #1 to 'expect' (function expected for to_raise, got " .. type(self.actual) .. ")", 2)
          end
          if text ~= nil and type(text) ~= "string" then
            error("bad argument #1 to 'to_raise' (string expected, got " .. type(text) .. ")", 2)
          end
          local ok, err = pcall(self.actual)
          local message = type(err) == "table" and err.message or tostring(err)
          if ok then
            return outcome(self, false, "expected an error" .. (text and (" containing " .. show(text)) or "") .. ", got none", text)
          end
          if text and not message:find(text, 1, true) then
            return outcome(self, false, "expected an error containing " .. show(text) .. ", got " .. show(message), text)
          end
          return outcome(self, true, "", text)
        end

        --- Lua: `expect(screen):to_match_trace(path)`: the inputs and frames `screen` recorded so far
        --- (`stackplay.screen { record = true }`) against the golden trace at `path`. A missing golden
        --- trace, or any with `--update`, is written and named on stderr.
        function Expectation:to_match_trace(path)
          if type(path) ~= "string" then
            error("bad argument #1 to 'to_match_trace' (string expected, got " .. type(path) .. ")", 2)
          end
          local difference = api._golden(self.actual, path)
          local lines = difference and { "  " .. difference:gsub("\n", "\n  ") } or nil
          local result = outcome(self, difference == nil, "the screen's trace differs from " .. path, path, lines)
          return result
        end

        -- Tests --------------------------------------------------------------------------------------

        local function register(kind, name, fn)
          if type(name) ~= "string" then
            error(format("bad argument #1 to '%s' (string expected, got %s)", kind, type(name)), 3)
          end
          if type(fn) ~= "function" then
            error(format("bad argument #2 to '%s' (function expected, got %s)", kind, type(fn)), 3)
          end
          for _, t in ipairs(registry.tests) do
            if t.name == name then error(format("a test called %s is already defined at %s", show(name), t.position), 3) end
          end
          registry.tests[#registry.tests + 1] = { name = name, fn = fn, mode = kind, position = api._where() }
        end

        --- Lua: `test(name, fn)`: a named test; each runs from a fresh start.
        function _ENV.test(name, fn) register("test", name, fn) end
        --- Lua: `skip(name, fn)`: a test that is listed but not run.
        function _ENV.skip(name, fn) register("skip", name, fn) end
        --- Lua: `only(name, fn)`: when any test is marked `only`, the others are skipped.
        function _ENV.only(name, fn) register("only", name, fn) end

        local function hook(list, kind)
          return function(fn)
            if type(fn) ~= "function" then
              error(format("bad argument #1 to '%s' (function expected, got %s)", kind, type(fn)), 2)
            end
            list[#list + 1] = fn
          end
        end
        --- Lua: `before_each(fn)` runs before every test of the file; `after_each(fn)` after it.
        _ENV.before_each = hook(registry.before_each, "before_each")
        _ENV.after_each = hook(registry.after_each, "after_each")


        local function has_only()
          for _, t in ipairs(registry.tests) do if t.mode == "only" then return true end end
          return false
        end

        --- The runner's view: each test's name, position and whether it runs.
        function api._tests()
          local list, focus = {}, has_only()
          for i, t in ipairs(registry.tests) do
            local skipped = t.mode == "skip" or (focus and t.mode ~= "only")
            list[i] = { name = t.name, position = t.position, skipped = skipped }
          end
          return list
        end


        local function report(err)
          local result = { status = "failed" }
          if getmetatable(err) == Failure then
            result.message, result.position, result.assertion = err.message, err.position, true
          elseif type(err) == "string" then
            -- `assert(false)` and `error(msg, 0)` carry no position: add the test's line.
            local position = err:match("^([^\n]-:%d+):") or api._where()
            result.message = err:match("^[^\n]-:%d+:") and err or ((position and (position .. ": ") or "") .. err)
            result.position = position
          else
            result.position = api._where()
            result.message = (result.position and (result.position .. ": ") or "")
              .. "(error object is a " .. type(err) .. " value: " .. show(err) .. ")"
          end
          -- The script's own frames only: the prelude and the runner are noise to the reader.
          local kept = {}
          for line in api._traceback(2):gmatch("[^\n]+") do
            if not (line:find("stackplay.prelude", 1, true) or line:find("(...tail calls...)", 1, true)
                or line:find("in function 'xpcall'", 1, true) or line:find("in function 'error'", 1, true)) then
              kept[#kept + 1] = line
            end
          end
          result.traceback = concat(kept, "\n")
          return result
        end

        --- Runs test `index`: the before_each hooks, the test, the after_each hooks. Returns
        --- { status = "passed" | "failed", message, traceback, dump }.
        function api._run(index)
          local t = registry.tests[index]
          local failure
          local function step(fn)
            if failure then return end
            local ok, result = xpcall(fn, report)
            if not ok then failure = result end
          end
          for _, fn in ipairs(registry.before_each) do step(fn) end
          step(t.fn)
          for _, fn in ipairs(registry.after_each) do
            local ok, result = xpcall(fn, report)
            if not ok and not failure then failure = result end
          end
          if failure then
            failure.dump = api._dump()
            return failure
          end
          return { status = "passed" }
        end
        """#
}
