import Exploration
import StackModel
import TestResults
import Traces

/// What `mutate --suggest` compares: scenarios run as Lua tests in two processes, the real model
/// and the mutant, each printing after every step what a user of the component sees, read
/// through the README's API only: the ids and the kind's state (`expanded()`, `selection()`,
/// `scroll_offset()`), what a touch at each card's middle lands on (`screen:hit_test`), what
/// VoiceOver reads, then each card's place, opacity, scale and z, the cards on their way out,
/// the parts and the frame. Each printed expression is one a test can `expect` as written.
struct SuggestProbe {
    let jobs: Int
    let folder: String
    let cache: Cache

    /// One value a scenario showed: how much a user sees of it (0 first: ``Rank``), its Lua type
    /// (`number`, `string`, `boolean`, `nil`, `table` shown as Lua source, or `present`: whether
    /// a table that may be missing is there) and its text.
    struct Value: Equatable {
        var rank: Int
        var kind: String
        var text: String
    }

    /// What one step showed: each expression's value, and the expressions in the order printed.
    struct Shown {
        var values: [String: Value] = [:]
        var order: [String] = []
    }

    /// What a scenario showed after each of its steps (the step's number, 0 before the first),
    /// and whether its test failed.
    struct Run {
        var steps: [Int: Shown] = [:]
        var failed = false
    }

    /// The reporter, prepended to every probe file: `report(screen, c, "stack", step)`.
    static let reporter = """
        local state_methods = {
          notification_stack = { "expanded", "open", "dismissed" },
          wallet_card_stack = { "selection" },
          sticky_stacked_cards = { "scroll_offset" },
        }
        local number_methods = {
          notification_stack = { "progress" },
          wallet_card_stack = { "step", "peek" },
          sticky_stacked_cards = { "max_offset", "content_height" },
        }
        local part_names = { notification_stack = { "header", "Show less" }, wallet_card_stack = { "detail" } }
        local last = {}
        local function report(screen, c, v, step)
          if step == 0 then last = {} end
          local now = {}
          print(step .. "\t=")
          local function put(rank, expr, kind, text)
            local value = rank .. "\t" .. kind .. "\t" .. text
            now[expr] = value
            if last[expr] ~= value then print(step .. "\t" .. expr .. "\t" .. value) end
          end
          local function line(rank, expr, value)
            local kind = type(value)
            local text
            if kind == "number" then text = string.format("%.17g", value)
            elseif kind == "table" then text = stackplay.show(value)
            else text = tostring(value) end
            put(rank, expr, kind, text)
          end
          local function present(rank, expr, value) put(rank, expr, "present", tostring(value ~= nil)) end
          local kind = c:kind()
          line(0, v .. ":ids()", c:ids())
          for _, m in ipairs(state_methods[kind]) do line(1, v .. ":" .. m .. "()", c[m](c)) end
          local cards = c:cards()
          for _, card in ipairs(cards) do
            local x = math.floor(card.x + card.width / 2 + 0.5)
            local y = math.floor(card.y + card.height / 2 + 0.5)
            if x >= card.x and x < card.x + card.width and y >= card.y and y < card.y + card.height then
              line(2, "screen:hit_test(" .. x .. ", " .. y .. ")", screen:hit_test(x, y))
            end
          end
          local elements = c:accessibility()
          line(3, "#" .. v .. ":accessibility()", #elements)
          for i, element in ipairs(elements) do
            local e = v .. ":accessibility()[" .. i .. "]"
            for _, field in ipairs { "id", "label", "value", "hint", "hidden", "traits", "actions" } do
              line(3, e .. "." .. field, element[field])
            end
            present(10, e .. ".activation_point", element.activation_point)
            if element.activation_point then
              line(10, e .. ".activation_point.x", element.activation_point.x)
              line(10, e .. ".activation_point.y", element.activation_point.y)
            end
          end
          for _, card in ipairs(cards) do
            local e = v .. ":card(" .. string.format("%q", card.id) .. ")"
            for _, field in ipairs { "x", "y" } do line(4, e .. "." .. field, card[field]) end
            line(5, e .. ".opacity", card.opacity)
            for _, field in ipairs { "scale", "width", "height" } do line(8, e .. "." .. field, card[field]) end
            line(9, e .. ".z", card.z)
          end
          local leaving = c:leaving()
          line(6, "#" .. v .. ":leaving()", #leaving)
          for i, card in ipairs(leaving) do line(6, v .. ":leaving()[" .. i .. "].opacity", card.opacity) end
          for _, name in ipairs(part_names[kind] or {}) do
            local expr = v .. ":part(" .. string.format("%q", name) .. ")"
            local part = c:part(name)
            present(7, expr, part)
            if part then
              for _, field in ipairs { "y", "height", "opacity" } do line(7, expr .. "." .. field, part[field]) end
            end
          end
          local frame = c:frame()
          for _, field in ipairs { "y", "height" } do line(7, v .. ":frame()." .. field, frame[field]) end
          for _, m in ipairs(number_methods[kind]) do line(9, v .. ":" .. m .. "()", c[m](c)) end
          for expr in pairs(last) do
            if now[expr] == nil then print(step .. "\t" .. expr .. "\t-") end
          end
          last = now
        end

        """

    /// A test named `name` that runs `setup` (Lua making `screen` and `variable`), then `steps`,
    /// reporting after each (`report(..., 0)` before the first).
    static func test(_ name: String, setup: String, variable: String, steps: [String]) -> String {
        var out = "test(\(luaString(name)), function()\n" + setup
        out += "  report(screen, \(variable), \(luaString(variable)), 0)\n"
        for (index, step) in steps.enumerated() {
            for line in step.split(separator: "\n", omittingEmptySubsequences: false) {
                out += "  \(line)\n"
            }
            out += "  report(screen, \(variable), \(luaString(variable)), \(index + 1))\n"
        }
        return out + "end)\n\n"
    }

    /// Runs `tests` in a process without the mutant and one with it: for each test, what each
    /// showed, or nil where the real model's test did not pass (or did not run).
    func compare(_ tests: [String], _ mutant: Mutant) -> [(real: Run, mutant: Run)?] {
        // the real model's run of a test is the same for every mutant: each runs once
        let fresh = tests.indices.filter { cache.real[tests[$0]] == nil }
        func job(_ file: String, _ count: Int, _ environment: [String: String?]) -> ChildRuns.Job {
            // a few tests run quicker in one worker than in several started for them
            ChildRuns.Job(
                arguments: [file, "--json", "--jobs", String(count < 8 ? 1 : jobs)], environment: environment)
        }
        var runs = [
            job(folder + "/probe.lua", tests.count, [Mutant.environmentVariable: mutant.id, "CI": "true"])
        ]
        do {
            try TraceFile.write(Self.reporter + tests.joined(), to: folder + "/probe.lua")
            if !fresh.isEmpty {
                try TraceFile.write(
                    Self.reporter + fresh.map { tests[$0] }.joined(), to: folder + "/real.lua")
                runs.append(job(folder + "/real.lua", fresh.count, [Mutant.environmentVariable: nil]))
            }
        } catch { return tests.map { _ in nil } }
        var outputs: [[TestResult]] = [[], []]
        _ = ChildRuns.run(runs, jobs: 2) { index, ended in
            if case .success(let results) = MutateCommand.parse(ended) { outputs[index] = results }
        }
        for (offset, index) in fresh.enumerated() {
            let result = offset < outputs[1].count ? outputs[1][offset] : nil
            cache.real[tests[index]] =
                result.flatMap { $0.status == .passed ? Self.read($0) : nil } ?? Run(failed: true)
        }
        return tests.indices.map { index in
            guard index < outputs[0].count, let real = cache.real[tests[index]], !real.failed else {
                return nil
            }
            return (real, Self.read(outputs[0][index]))
        }
    }

    /// What the real model showed for each test run so far, by the test's text (a test the real
    /// model failed: a run that `failed`).
    final class Cache {
        var real: [String: Run] = [:]
    }

    /// A test's printed lines, by step: each step says what changed since the one before
    /// (`step <TAB> expression <TAB> rank <TAB> kind <TAB> text`, or `<TAB> -` for an expression
    /// no longer shown), after a line `step <TAB> =` that says the step was reached.
    static func read(_ result: TestResult) -> Run {
        var run = Run(failed: result.status == .failed)
        var shown = Shown()
        var step: Int?
        for line in result.output.split(separator: "\n") {
            let fields = line.split(separator: "\t", maxSplits: 4, omittingEmptySubsequences: false)
            guard let number = Int(fields[0]) else { continue }
            if fields.count == 2, fields[1] == "=" {
                if let step { run.steps[step] = shown }
                step = number
                continue
            }
            let expression = String(fields[1])
            if fields.count == 3, fields[2] == "-" {
                shown.values[expression] = nil
                shown.order.removeAll { $0 == expression }
                continue
            }
            guard fields.count == 5, let rank = Int(fields[2]) else { continue }
            if shown.values[expression] == nil { shown.order.append(expression) }
            shown.values[expression] = Value(rank: rank, kind: String(fields[3]), text: String(fields[4]))
        }
        if let step { run.steps[step] = shown }
        return run
    }

    /// One expression that tells the two apart at a step: the real model's value and the mutant's.
    struct Difference {
        var expression: String
        var real: Value
        var mutant: Value
    }

    /// What tells the real model from the mutant after `step`: the expressions both showed with
    /// different values, ranked `maximumRank` or under, those a user sees most first (then in the
    /// order shown). A step the mutant's test did not reach (it raised before) tells nothing: a
    /// test that raises under a mutant does not kill it (Stryker's `RuntimeError`).
    static func differences(_ pair: (real: Run, mutant: Run), at step: Int, maximumRank: Int = .max)
        -> [Difference]
    {
        guard let real = pair.real.steps[step], let mutant = pair.mutant.steps[step] else { return [] }
        var out: [Difference] = []
        for expression in real.order {
            guard let a = real.values[expression], a.rank <= maximumRank, let b = mutant.values[expression],
                a.kind != b.kind || a.text != b.text
            else { continue }
            out.append(Difference(expression: expression, real: a, mutant: b))
        }
        return out.enumerated().sorted {
            ($0.element.real.rank, $0.offset) < ($1.element.real.rank, $1.offset)
        }.map(
            \.element)
    }

    /// The first step after which the two differ in an expression ranked `maximumRank` or under.
    static func parting(_ pair: (real: Run, mutant: Run), maximumRank: Int = .max) -> Int? {
        pair.real.steps.keys.sorted().first { !differences(pair, at: $0, maximumRank: maximumRank).isEmpty }
    }

    /// How plainly a test shows a difference, the plainest first: the cards and the component's
    /// state (`ids()`, `expanded()`, `selection()`), then where touches land and what VoiceOver
    /// reads, then anything shown. The search looks for a run that parts in the first tier, then
    /// the next.
    static let tiers = [1, 3, Int.max]
}

extension ExploreAction {
    /// The step as a line of Lua through the README's API, the component as `variable`: what a
    /// probe runs and, when `stackplay codegen` cannot say it more plainly, what the suggested
    /// test holds. `declared`: the fingers that already have a local.
    func documentedLua(variable: String, declared: inout Set<Int>) -> String {
        switch self {
        case .touchDown(let finger, let point):
            let local = declared.insert(finger).inserted ? "local " : ""
            return "\(local)f\(finger) = screen:touch_down(\(luaNumber(point.x)), \(luaNumber(point.y)))"
        case .drag(let point, let by, _, let duration) where by.x == 0 && by.y == 0:
            // a drag that goes nowhere is a tap
            return ExploreAction.tap(point, duration: duration).lua
        case .action(_, let element, let name):
            return "\(variable):action(\(luaString(name)), \(luaString(ComponentTarget(element).bareName)))"
        case .activate(_, let element):
            return "\(variable):activate(\(luaString(ComponentTarget(element).bareName)))"
        case .change:
            // `screen:component(name):set_expanded(true)` with the component's variable instead
            let text = lua
            guard let close = text.firstRange(of: "):") else { return text }
            return variable + ":" + text[close.upperBound...]
        default:
            return lua
        }
    }
}
