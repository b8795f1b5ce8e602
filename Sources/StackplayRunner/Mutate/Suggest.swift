import Bindings
import Exploration
import StackModel
import TestResults
import Traces

/// `stackplay mutate --suggest DIR` (docs/mutate.md): for each survivor, a differential
/// exploration. The explorer generates runs of actions on the real model (its actions, in this
/// process, which has no mutant); each run is replayed as a Lua test, once in a process without
/// the mutant and once in a process with it, printing the component's cards, state and
/// accessibility elements after every step; the first step where the two print differently is
/// where they part. The run is cut there and shrunk (one action left out at a time, while they
/// still part at its end), and written to DIR/<mutant>.lua as an ordinary test: the steps, then
/// what the real model shows at the parting step (`to_be_near` for numbers, exact otherwise).
struct Suggest {
    let runs: Int
    let steps: Int
    let seed: Int
    let jobs: Int

    /// What the search gave for one mutant.
    enum Found {
        case test(path: String, steps: Int)
        case none(steps: Int)
        case broken(String)
    }

    /// The screen each component's search starts from, and the component's name on it.
    static func setup(for mutant: Mutant) -> (lua: String, component: String) {
        if mutant.file.hasPrefix("Wallet") || mutant.spec.hasPrefix("W") {
            return (
                """
                  local screen = stackplay.screen { width = 390, height = 844 }
                  screen:wallet_card_stack {
                    items = { "everyday", "savings", "travel", "transit" }, x = 20, y = 100, width = 350, height = 600,
                  }
                """, "wallet"
            )
        }
        if mutant.file.hasPrefix("Sticky") || mutant.spec.hasPrefix("S") {
            return (
                """
                  local screen = stackplay.screen { width = 390, height = 844 }
                  local items = {}
                  for i = 1, 7 do items[i] = { id = "c" .. i, label = "Card " .. i } end
                  screen:sticky_stacked_cards { items = items, card_height = 100, x = 20, width = 350, height = 300 }
                """, "sticky"
            )
        }
        return (
            """
              local screen = stackplay.screen { width = 390, height = 844 }
              screen:notification_stack {
                items = { "messages", "calendar", "mail" }, card_height = 70, dismissible = true,
                x = 16, y = 180, width = 358,
              }
            """, "notifications"
        )
    }

    /// Prints, one line each, `step <TAB> expression <TAB> kind <TAB> value` for what a test can read.
    static let reporter = """
        local function report(screen, name, step)
          local c = screen:component(name)
          local base = "screen:component(" .. string.format("%q", name) .. ")"
          local function line(expr, value)
            local kind = type(value)
            if kind == "number" then value = string.format("%.17g", value)
            elseif kind == "table" then return
            else value = tostring(value) end
            print(step .. "\\t" .. expr .. "\\t" .. kind .. "\\t" .. value)
          end
          line("#" .. base .. ":cards()", #c:cards())
          line("#" .. base .. ":accessibility()", #c:accessibility())
          for _, card in ipairs(c:cards()) do
            local e = base .. ":card(" .. string.format("%q", card.id) .. ")"
            for _, field in ipairs { "x", "y", "width", "height", "scale", "opacity", "z" } do
              line(e .. "." .. field, card[field])
            end
          end
          local state = c:state()
          local keys = {}
          for key in pairs(state) do keys[#keys + 1] = key end
          table.sort(keys)
          for _, key in ipairs(keys) do line(base .. ":state()." .. key, state[key]) end
          for i, element in ipairs(c:accessibility()) do
            local e = base .. ":accessibility()[" .. i .. "]"
            for _, field in ipairs { "id", "label", "value", "hint", "hidden", "sort_priority" } do
              line(e .. "." .. field, element[field])
            end
            if element.activation_point then
              line(e .. ".activation_point.x", element.activation_point.x)
              line(e .. ".activation_point.y", element.activation_point.y)
            end
            line("table.concat(" .. e .. ".traits, \\",\\")", table.concat(element.traits, ","))
          end
        end

        """

    /// A test that performs `actions` on the setup, reporting after each.
    static func probe(_ name: String, _ actions: [ExploreAction], setup: (lua: String, component: String))
        -> String
    {
        var out = "test(\(luaString(name)), function()\n" + setup.lua
        out += "\n  local f1, f2, f3\n  report(screen, \(luaString(setup.component)), 0)\n"
        for (index, action) in actions.enumerated() {
            out += "  \(action.lua)\n  report(screen, \(luaString(setup.component)), \(index + 1))\n"
        }
        return out + "end)\n\n"
    }

    /// Runs probes as tests in two processes, the real model and the mutant: each test's printed
    /// lines (nil where the real model's test did not pass).
    func compare(_ probes: [String], _ mutant: Mutant, in folder: String) -> [([String], [String])?] {
        let file = folder + "/probe.lua"
        do { try TraceFile.write(Self.reporter + probes.joined(), to: file) } catch {
            return probes.map { _ in nil }
        }
        func job(_ environment: [String: String?]) -> ChildRuns.Job {
            ChildRuns.Job(arguments: [file, "--json", "--jobs", String(jobs)], environment: environment)
        }
        var outputs: [[TestResult]] = [[], []]
        _ = ChildRuns.run(
            [
                job([Mutant.environmentVariable: nil]),
                job([Mutant.environmentVariable: mutant.id, "CI": "true"]),
            ],
            jobs: 2
        ) { index, ended in
            if case .success(let results) = MutateCommand.parse(ended) { outputs[index] = results }
        }
        return probes.indices.map { index in
            guard index < outputs[0].count, index < outputs[1].count, outputs[0][index].status == .passed
            else {
                return nil
            }
            func lines(_ result: TestResult) -> [String] {
                result.output.split(separator: "\n").map(String.init)
            }
            return (lines(outputs[0][index]), lines(outputs[1][index]))
        }
    }

    /// The first line where the two outputs differ, and the step it belongs to.
    static func parting(_ pair: ([String], [String])) -> (step: Int, real: String, mutant: String)? {
        let (real, mutant) = pair
        for index in 0..<max(real.count, mutant.count) {
            let a = index < real.count ? real[index] : ""
            let b = index < mutant.count ? mutant[index] : ""
            if a != b {
                let line = a.isEmpty ? b : a
                return (Int(line.prefix { $0 != "\t" }) ?? 0, a, b)
            }
        }
        return nil
    }

    /// Searches for `mutant` and writes DIR/<id>.lua when the two part.
    func find(_ mutant: Mutant, runner: ScriptRunner, directory: String, scratch: String) -> Found {
        let setup = Self.setup(for: mutant)
        let exploration = scratch + "/suggest.lua"
        do {
            try TraceFile.write(
                "explore(\"suggest\", { setup = function()\n" + setup.lua + "  return screen\nend })\n",
                to: exploration)
        } catch { return .broken(error.message) }
        let explorer: Explorer
        do {
            let file = try LuaExplorationFile(file: exploration, root: nil, runner: runner, seed: seed)
            explorer = file.explorer(0, budget: ExploreBudget(seed: seed, runs: runs, steps: steps))
        } catch { return .broken(error.message) }
        explorer.builtins = []
        var generated: [[ExploreAction]] = []
        for run in 0..<runs {
            guard let actions = try? explorer.generatedRun(run) else { break }
            generated.append(actions)
        }
        let total = generated.reduce(0) { $0 + $1.count }
        // The run that parts soonest, cut at that step.
        let pairs = compare(
            generated.enumerated().map { Self.probe("run \($0)", $1, setup: setup) }, mutant, in: scratch)
        var best: [ExploreAction]?
        for (index, pair) in pairs.enumerated() {
            guard let pair, let part = Self.parting(pair) else { continue }
            let cut = Array(generated[index].prefix(part.step))
            if best == nil || cut.count < best!.count { best = cut }
        }
        guard var actions = best else { return .none(steps: total) }
        // Shrink: leave out one action at a time while the two still part at the end.
        var shrinking = true
        while shrinking, actions.count > 1 {
            shrinking = false
            let candidates = actions.indices.map { skip in
                actions.enumerated().filter { $0.offset != skip }.map(\.element)
            }
            let results = compare(
                candidates.enumerated().map { Self.probe("candidate \($0)", $1, setup: setup) }, mutant,
                in: scratch)
            for (candidate, pair) in zip(candidates, results) {
                guard let pair, let part = Self.parting(pair), part.step == candidate.count else { continue }
                actions = candidate
                shrinking = true
                break
            }
        }
        guard
            let pair = compare([Self.probe("final", actions, setup: setup)], mutant, in: scratch).first
                ?? nil,
            let part = Self.parting(pair)
        else { return .none(steps: total) }
        let path = directory + "/" + mutant.id + ".lua"
        do {
            try ReportOutput(flag: "--suggest", path: path, kind: .suggestion, inFolder: true)
                .write(Self.test(mutant, actions, setup: setup, part: part))
        } catch { return .broken(error.message) }
        return .test(path: path, steps: actions.count)
    }

    /// The written test: the steps, then the real model's value where the mutant's differs.
    static func test(
        _ mutant: Mutant, _ actions: [ExploreAction], setup: (lua: String, component: String),
        part: (step: Int, real: String, mutant: String)
    ) -> String {
        let fields = part.real.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        let other = part.mutant.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        var out = """
            -- Written by `stackplay mutate --suggest`: it passes on the real model and fails on the mutant
            -- \(mutant.id) (\(mutant.spec): \(mutant.summary)).
            -- The two part after step \(part.step) of \(actions.count): \(fields.count > 1 ? fields[1] : "the output").

            """
        out +=
            "test(\(luaString("\(mutant.spec) \(mutant.id) is told apart from the model")), function()\n"
            + setup.lua
        out += "\n  local f1, f2, f3\n"
        for action in actions { out += "  \(action.lua)\n" }
        if fields.count == 4 {
            let (expression, kind, value) = (fields[1], fields[2], fields[3])
            switch kind {
            case "number":
                let real = Double(value) ?? 0
                let theirs = other.count == 4 && other[1] == expression ? Double(other[3]) : nil
                let gap = theirs.map { abs($0 - real) / 4 } ?? 1e-6
                let tolerance = min(1e-6, gap > 0 ? gap : 1e-6)
                out += "  expect(\(expression)):to_be_near(\(luaNumber(real)), \(luaNumber(tolerance)))\n"
            case "boolean": out += "  expect(\(expression)):to_equal(\(value))\n"
            default: out += "  expect(\(expression)):to_equal(\(luaString(value)))\n"
            }
        } else {
            // The real model stopped printing: its test ends there (the counts come first, so
            // the mutant cannot have more cards or elements unseen).
            out += "  expect(true):to_be_truthy()\n"
        }
        return out + "end)\n"
    }
}
