import Bindings
import Traces

#if canImport(Glibc)
    import Glibc
#endif

// stackplay [options] FILE|DIR ...: runs the tests of Lua scenario scripts, each in its own sandbox.
var options: Options
do {
    options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    Output.usageError(error.message)
    exit(ExitCode.usage)
}

switch options.action {
case .help:
    Output.out(Options.help)
    exit(ExitCode.success)
case .version:
    Output.out("stackplay \(StackplayVersion.string) (\(StackplayVersion.lua))")
    exit(ExitCode.success)
case .replay:
    guard !options.paths.isEmpty else {
        Output.usageError("replay needs at least one trace")
        exit(ExitCode.usage)
    }
    exit(TraceCommands.replay(options.paths, tolerance: options.tolerance ?? 1e-9))
case .render:
    guard options.paths.count == 1 else {
        Output.usageError("render needs exactly one trace, got \(options.paths.count)")
        exit(ExitCode.usage)
    }
    exit(TraceCommands.render(options.paths[0], at: options.at, to: options.outputFile))
case .run, .check:
    break
}

let config: Config
do {
    config = try Config.load()
} catch {
    Output.usageError(error.message)
    exit(ExitCode.usage)
}
config.apply(to: &options)
guard !options.paths.isEmpty else {
    Output.usageError("no scripts given")
    exit(ExitCode.usage)
}

let scripts: [Script]
do {
    scripts = try Discovery.scripts(
        in: options.paths, root: options.root, includingHelpers: options.action == .check)
} catch {
    Output.usageError(error.message)
    exit(ExitCode.usage)
}

if options.action == .check {
    exit(Check.run(scripts) ? ExitCode.success : ExitCode.failure)
}

let defaults = config.screen
let modules = StackplayModules.standard(
    screen: defaults, recordsTraces: options.recordsTraces, updatesGolden: options.update,
    golden: TraceOutputs(options: options).policy)
if options.randomSeed {
    options.seed = Int(UInt64.random(in: 0...UInt64(Int32.max)))
    Output.err("stackplay: seed \(options.seed!) (run again with --seed \(options.seed!))")
}
let seed = options.seed ?? RunSeed.standard
let runner = TestRunner(scripts: ScriptRunner(budget: options.budget, modules: modules), seed: seed)
let jobs = options.jobs ?? max(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 1)
let isolated = IsolatedRunner(runner: runner, jobs: jobs, timeout: options.timeout, repeats: options.repeats)
WorkerPool.installSignalHandlers()

// Find every test (a file that does not load is one failed test), then choose and run.
let (discovered, discoveryEnded) = isolated.discover(scripts)
guard discoveryEnded else { exit(Interruption.report([], of: 0, junit: options.junit, format: options.format)) }
var tests: [TestCase] = []
var broken: [TestResult] = []
for outcome in discovered {
    switch outcome {
    case .success(let found) where EmptyScript.isEmpty(found):
        broken.append(EmptyScript.failure(found[0]))
    case .success(let found): tests += found
    case .failure(let failed): broken.append(failed)
    }
}
let chosen = Selection.apply(
    tests, filters: options.filters, tags: options.tags, excludedTags: options.excludedTags,
    shard: options.shard)
// A file that does not load has no tags: a tag selection leaves it out, a filter may keep it.
let chosenBroken =
    options.tags.isEmpty ? Selection.apply(broken.map(\.test), filters: options.filters, shard: nil) : []
let selecting = !options.filters.isEmpty || !options.tags.isEmpty || !options.excludedTags.isEmpty
if selecting, chosen.isEmpty, chosenBroken.isEmpty {
    let selection = Selection.describe(
        filters: options.filters, tags: options.tags, excludedTags: options.excludedTags)
    Output.err("stackplay: no test matches \(selection)")
    exit(ExitCode.failure)
}
if options.list {
    for test in chosen {
        let tags = test.tags.isEmpty ? "" : " [" + test.tags.joined(separator: ", ") + "]"
        Output.out(test.fullName + tags + (test.skipped ? " (skipped)" : ""))
    }
    for test in chosenBroken { Output.out(test.fullName + " (does not load)") }
    exit(chosenBroken.isEmpty ? ExitCode.success : ExitCode.failure)
}

let (ran, runEnded) = isolated.run(chosen)
var results = broken.filter { chosenBroken.contains($0.test) } + ran.compactMap { $0 }
if options.forbidOnly || options.ci { results = FocusRule.apply(to: results, ci: options.ci) }
guard runEnded else {
    exit(Interruption.report(results, of: chosen.count, junit: options.junit, format: options.format))
}
let (tracedResults, tracesWritten) = TraceOutputs(options: options).apply(to: results)
results = tracedResults

Reporters.report(results, format: options.format ?? .human, seed: seed)
if let junit = options.junit {
    do { try JUnitReporter.write(results, seed: seed, to: junit) } catch {
        Output.err("stackplay: \(error.message)")
        exit(ExitCode.failure)
    }
}
exit(Summary(results).failed == 0 && tracesWritten ? ExitCode.success : ExitCode.failure)
