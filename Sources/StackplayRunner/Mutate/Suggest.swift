import Bindings
import Exploration
import StackModel
import Traces

/// `stackplay mutate --suggest DIR` (docs/mutate.md): for each survivor, a differential
/// exploration. From each of the mutant's worlds (``SuggestWorld``: the seed demo's screen, then
/// the stack open, without `onDismiss`, one or two cards, right to left, Reduce Motion, Dynamic
/// Type, another size) the explorer generates runs of actions on the real model (its actions, in
/// this process, which has no mutant); each run is replayed as a Lua test, once in a process
/// without the mutant and once in a process with it, printing what a user sees after every step
/// (``SuggestProbe``); the first step where the two differ is where they part (in the cards or
/// the state if any run parts there, then in touches or VoiceOver, then anywhere). The run that
/// parts soonest is cut there, shrunk (one action left out, or replaced by a settle or a wait, at
/// a time while the two still part), and its numbers rounded (``SuggestRounding``: each the
/// roundest that still parts); then written as a person would write it (``SuggestWriter``) to
/// DIR/<mutant>.lua. The first world where a run parts gives the test; a mutant no world tells
/// apart is "possibly equivalent". The real model's probes are the same for every mutant: they
/// run once (``SuggestProbe/Cache``).
struct Suggest {
    let runs: Int
    let steps: Int
    let seed: Int
    let jobs: Int
    /// The real model's probes, shared by the survivors' searches.
    let cache = SuggestProbe.Cache()

    /// What the search gave for one mutant.
    enum Found {
        case test(path: String, steps: Int, world: String)
        case none(steps: Int, worlds: Int)
        case broken(String)
    }

    /// Searches for `mutant` and writes DIR/<id>.lua when a run tells it apart.
    func find(_ mutant: Mutant, runner: ScriptRunner, directory: String, scratch: String) -> Found {
        let worlds = SuggestWorld.worlds(for: mutant)
        let exploration = scratch + "/suggest.lua"
        var source = ""
        for (index, world) in worlds.enumerated() {
            source +=
                "explore(\"suggest \(index + 1)\", {\n  setup = function()\n\(world.lua)    return screen\n  end,\n"
            if let weights = world.weights { source += "  actions = \(weights),\n" }
            source += "})\n"
        }
        let file: LuaExplorationFile
        do { try TraceFile.write(source, to: exploration) } catch { return .broken(error.message) }
        do { file = try LuaExplorationFile(file: exploration, root: nil, runner: runner, seed: seed) } catch {
            return .broken(error.message)
        }
        let probe = SuggestProbe(jobs: jobs, folder: scratch, cache: cache)
        var total = 0
        for (index, world) in worlds.enumerated() {
            // the seed demo's world searched longest; the others are there for what it cannot show
            let budget =
                index == 0
                ? ExploreBudget(seed: seed, runs: runs, steps: steps)
                : ExploreBudget(seed: seed, runs: max(1, runs / 2), steps: max(2, steps * 4 / 5))
            let explorer = file.explorer(index, budget: budget)
            explorer.builtins = []
            var generated: [[ExploreAction]] = []
            for run in 0..<budget.runs {
                guard let actions = try? explorer.generatedRun(run) else { break }
                generated.append(actions)
            }
            total += generated.reduce(0) { $0 + $1.count }
            guard let found = search(generated, world: world, mutant: mutant, probe: probe) else { continue }
            guard
                let written = final(found, world: world, explorer: explorer, mutant: mutant, probe: probe)
            else { continue }
            let path = directory + "/" + mutant.id + ".lua"
            do {
                try ReportOutput(flag: "--suggest", path: path, kind: .suggestion, inFolder: true).write(
                    SuggestWriter.test(
                        mutant, body: written.body, difference: written.difference, world: world, seed: seed))
            } catch { return .broken(error.message) }
            return .test(path: path, steps: written.steps, world: world.title)
        }
        return .none(steps: total, worlds: worlds.count)
    }

    /// The probe of `actions` in `world`, reporting after each step.
    private func test(_ name: String, _ actions: [ExploreAction], world: SuggestWorld) -> String {
        var declared: Set<Int> = []
        return SuggestProbe.test(
            name, setup: world.lua, variable: world.variable,
            steps: actions.map { $0.documentedLua(variable: world.variable, declared: &declared) })
    }

    /// The steps of the run that parts soonest, cut where it parts, shrunk and rounded; nil when
    /// no run parts. A run that parts in what a user sees most plainly (``SuggestProbe/tiers``:
    /// the cards, the state) is taken over one that parts sooner in a card's opacity.
    func search(_ generated: [[ExploreAction]], world: SuggestWorld, mutant: Mutant, probe: SuggestProbe)
        -> [ExploreAction]?
    {
        let pairs = probe.compare(
            generated.enumerated().map { test("run \($0)", $1, world: world) }, mutant)
        for tier in SuggestProbe.tiers {
            var best: [ExploreAction]?
            for (index, pair) in pairs.enumerated() {
                guard let pair, let step = SuggestProbe.parting(pair, maximumRank: tier) else { continue }
                let cut = Array(generated[index].prefix(step))
                if best == nil || cut.count < best!.count { best = cut }
            }
            if let best { return simplified(best, tier: tier, world: world, mutant: mutant, probe: probe) }
        }
        return nil
    }

    /// `actions` (which part in `tier`) with as few steps as still part there, then each number
    /// the roundest that still parts.
    func simplified(
        _ found: [ExploreAction], tier: Int, world: SuggestWorld, mutant: Mutant, probe: SuggestProbe
    ) -> [ExploreAction] {
        var actions = found
        /// The first of `candidates` that still parts, cut where it does.
        func first(_ candidates: [[ExploreAction]], _ name: String) -> [ExploreAction]? {
            let results = probe.compare(
                candidates.enumerated().map { test("\(name) \($0)", $1, world: world) }, mutant)
            for (candidate, pair) in zip(candidates, results) {
                guard let pair, let step = SuggestProbe.parting(pair, maximumRank: tier) else { continue }
                return Array(candidate.prefix(step))
            }
            return nil
        }
        // The fewest steps: leave out one at a time while the two still part (cut where they do).
        var shrinking = true
        while shrinking, !actions.isEmpty {
            shrinking = false
            // each step left out, then each (not a wait already) replaced by a settle
            var candidates = actions.indices.map { skip in
                actions.enumerated().filter { $0.offset != skip }.map(\.element)
            }
            for index in actions.indices where actions[index].isGesture {
                var settled = actions
                settled[index] = .settle
                candidates.append(settled)
                // a long press that only lets time pass is a wait of as long
                if let seconds = actions[index].seconds, seconds > 0 {
                    var waited = actions
                    waited[index] = .advance(seconds)
                    candidates.append(waited)
                }
            }
            if let shorter = first(candidates, "candidate") {
                actions = shorter
                shrinking = true
            }
        }
        // The roundest numbers: every candidate of every number tried at once, each number
        // alone; the roundest that still parts for each are taken together when the two still
        // part so, else one number at a time.
        var slots: [(index: Int, slot: Int, candidates: [[ExploreAction]])] = []
        for index in actions.indices {
            let numbers = SuggestRounding.numbers(of: actions[index])
            for slot in numbers.indices {
                let candidates = SuggestRounding.candidates(for: numbers[slot].value, numbers[slot].slot).map
                {
                    value -> [ExploreAction] in
                    var values = numbers.map(\.value)
                    values[slot] = value
                    var changed = actions
                    changed[index] = SuggestRounding.replacing(actions[index], with: values)
                    return changed
                }
                if !candidates.isEmpty { slots.append((index, slot, candidates)) }
            }
        }
        let all = slots.flatMap(\.candidates)
        let results = probe.compare(all.enumerated().map { test("rounded \($0)", $1, world: world) }, mutant)
        var next = 0
        var chosen: [(index: Int, slot: Int, value: Double)] = []
        for item in slots {
            let parted = item.candidates.indices.first { offset in
                guard let pair = results[next + offset] else { return false }
                return SuggestProbe.parting(pair, maximumRank: tier) == actions.count
            }
            if let parted {
                let value = SuggestRounding.numbers(of: item.candidates[parted][item.index])[item.slot].value
                chosen.append((item.index, item.slot, value))
            }
            next += item.candidates.count
        }
        var together = actions
        for choice in chosen {
            var values = SuggestRounding.numbers(of: together[choice.index]).map(\.value)
            values[choice.slot] = choice.value
            together[choice.index] = SuggestRounding.replacing(together[choice.index], with: values)
        }
        if !chosen.isEmpty, let rounder = first([together], "together") {
            actions = rounder
        } else {
            for choice in chosen where choice.index < actions.count {
                var values = SuggestRounding.numbers(of: actions[choice.index]).map(\.value)
                values[choice.slot] = choice.value
                var changed = actions
                changed[choice.index] = SuggestRounding.replacing(actions[choice.index], with: values)
                if let rounder = first([changed], "one") { actions = rounder }
            }
        }
        return actions
    }

    /// What is written: the statements, the expectation that tells the two apart, and how many
    /// steps it took.
    struct Written {
        var body: [String]
        var difference: SuggestProbe.Difference
        var steps: Int
    }

    /// The test as written: the steps as `stackplay codegen` writes them (else through the
    /// README's API as the probes ran them), as found or followed by `screen:settle()`, whichever
    /// ends in what a user sees most plainly (``SuggestProbe/Value/rank``); checked once more in
    /// both processes as it will be written.
    func final(
        _ actions: [ExploreAction], world: SuggestWorld, explorer: Explorer, mutant: Mutant,
        probe: SuggestProbe
    ) -> Written? {
        // as found; then let go of the fingers still down and settle
        var variants = [actions]
        var down: [Int] = []
        for action in actions {
            if case .touchDown(let finger, _) = action { down.append(finger) }
            if case .touchUp(let finger) = action { down.removeAll { $0 == finger } }
        }
        if actions.last != .settle { variants.append(actions + [.settle]) }
        if !down.isEmpty { variants.append(actions + down.map { .touchUp(finger: $0) } + [.settle]) }
        var bodies: [(body: [String], steps: Int, order: Int)] = []
        for (settled, variant) in variants.enumerated() {
            if let body = SuggestWriter.codegenBody(variant, explorer: explorer) {
                // codegen replays a gesture it cannot say plainly event by event, with waits as
                // long as the recording's: then the steps as rounded read better
                let unround = body.contains { $0.firstMatch(of: /[0-9]\.[0-9]{4,}/) != nil }
                bodies.append((body, variant.count, unround ? settled * 2 + 2 : settled * 2))
            }
            bodies.append((SuggestWriter.plainBody(variant, world: world), variant.count, settled * 2 + 1))
        }
        let tests = bodies.enumerated().map { index, item in
            "test(\"final \(index)\", function()\n"
                + item.body.flatMap { $0.split(separator: "\n", omittingEmptySubsequences: false) }.map {
                    "  \($0)\n"
                }.joined()
                + "  report(screen, \(world.variable), \(luaString(world.variable)), 1)\nend)\n\n"
        }
        var best: (written: Written, key: (Int, Int))?
        for (item, pair) in zip(bodies, probe.compare(tests, mutant)) {
            guard let pair, let difference = SuggestProbe.differences(pair, at: 1).first else { continue }
            let key = (difference.real.rank, item.order)
            if best == nil || key < best!.key {
                best = (Written(body: item.body, difference: difference, steps: item.steps), key)
            }
        }
        return best?.written
    }
}
