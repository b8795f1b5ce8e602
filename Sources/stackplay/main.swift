import Bindings

#if canImport(Glibc)
import Glibc
#endif

// stackplay [options] FILE|DIR ...: runs each Lua scenario script in its own sandbox.
let options: Options
do {
    options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    Reporter.usageError(error.message)
    exit(ExitCode.usage)
}

switch options.action {
case .help:
    print(Options.help)
    exit(ExitCode.success)
case .version:
    print("stackplay \(StackplayVersion.string) (\(StackplayVersion.lua))")
    exit(ExitCode.success)
case .run:
    break
}

let scripts: [Script]
do {
    scripts = try Discovery.scripts(in: options.paths, root: options.root)
} catch {
    Reporter.usageError(error.message)
    exit(ExitCode.usage)
}

let runner = ScriptRunner(budget: options.budget)
var reporter = Reporter()
for script in scripts {
    reporter.record(runner.run(file: script.path, root: script.root))
}
reporter.summarize()
exit(reporter.failed == 0 ? ExitCode.success : ExitCode.failure)
