// `make bench`'s sandbox rows (issue 22): the deterministic library against stock lua5.4, the same
// Lua run in this process under stackplay's sandbox and default budgets, and by `lua5.4` in the
// same run. Each figure is CPU time (this thread's; lua5.4's os.clock), the fastest of a few rounds:
// on a shared machine wall time measures the neighbours.
import Bindings
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The workloads, as globals; the table or list a measure reads is built outside its timing.
let sandboxWorkloads = """
    function build_keys() local t = {} for i = 1, 100000 do t["k" .. i] = i end return t end
    function traverse(t) local n = 0 for _ in pairs(t) do n = n + 1 end return n end
    function empty_checks(t, times) local e = 0 for _ = 1, times do if next(t) == nil then e = e + 1 end end return e end
    function formats(n) local s for i = 1, n do s = string.format("%d %s", i, "x") end return s end
    function make_tables(n) local l = {} for i = 1, n do l[i] = {} end return l end
    function tostrings(l) local s for i = 1, #l do s = tostring(l[i]) end return s end
    -- issue 39: pairs over small tables built fresh each time, over one unchanged small table,
    -- and setmetatable (a table per call, the metatable with an __index)
    function fresh_pairs(n) local s = 0 for _ = 1, n do local t = { a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7, h = 8 } for _, v in pairs(t) do s = s + v end end return s end
    -- the same, but each table's keys a window of 8 among 64 names that moves at each table (57
    -- sets of keys in turn): no table has the keys of one traversed just before, so each one sorts
    function fresh_shapes(n)
      local names, s = {}, 0
      for i = 1, 64 do names[i] = "key" .. i end
      for i = 1, n do
        local a = i % 57
        local t = { [names[a + 1]] = 1, [names[a + 2]] = 2, [names[a + 3]] = 3, [names[a + 4]] = 4,
          [names[a + 5]] = 5, [names[a + 6]] = 6, [names[a + 7]] = 7, [names[a + 8]] = 8 }
        for _, v in pairs(t) do s = s + v end
      end
      return s
    end
    function same_pairs(n) local t, s = { a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7, h = 8 }, 0 for _ = 1, n do for _, v in pairs(t) do s = s + v end end return s end
    function metatables(n) local mt, x = { __index = { kind = "k" } }, nil for _ = 1, n do x = setmetatable({}, mt) end return x.kind end
    -- plain Lua: a sort, string building, table churn, arithmetic
    function plain()
      local t = {} for i = 1, 100000 do t[i] = (i * 7919) % 100003 end table.sort(t)
      local parts = {} for i = 1, 100000 do parts[#parts + 1] = i .. "," end local s = table.concat(parts)
      local churn = 0 for i = 1, 200000 do local x = { i, i + 1, name = "n" } churn = churn + #x end
      local f = 0 for i = 1, 1000000 do f = f + i % 7 end
      return #s + churn + f
    end
    """

/// What lua5.4 runs: the workloads, timed with os.clock, one "name seconds" line each.
let stockDriver = """
    local clock, rounds = os.clock, 5
    local function best(setup, run)
      local fastest = math.huge
      for _ = 1, rounds do
        local input = setup and setup()
        local start = clock()
        run(input)
        fastest = math.min(fastest, clock() - start)
      end
      return fastest
    end
    print("pairs", best(build_keys, traverse))
    local keys = build_keys()
    traverse(keys)
    print("next", best(nil, function() empty_checks(keys, 100) end) / 100)
    print("format", best(nil, function() formats(100000) end))
    print("tostring", best(function() return make_tables(100000) end, tostrings))
    print("plain", best(nil, plain))
    print("fresh_pairs", best(nil, function() fresh_pairs(20000) end))
    print("fresh_shapes", best(nil, function() fresh_shapes(20000) end))
    print("same_pairs", best(nil, function() same_pairs(20000) end))
    print("setmetatable", best(nil, function() metatables(100000) end))
    """

/// The CPU time `body` takes on this thread.
func cpuSeconds(_ body: () throws -> Void) rethrows -> Double {
    func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }
    let start = now()
    try body()
    return now() - start
}

/// Seconds per measure under stackplay's sandbox (default budgets), in this process.
func sandboxSeconds() throws -> [String: Double] {
    let lua = try ScriptRunner().makeState(root: nil)
    try lua.run(sandboxWorkloads, name: "=bench")
    func best(_ setup: String?, _ run: String) throws -> Double {
        var fastest = Double.infinity
        for _ in 0..<5 {
            if let setup { try lua.run(setup, name: "=bench") }
            fastest = min(fastest, try cpuSeconds { try lua.run(run, name: "=bench") })
        }
        return fastest
    }
    var seconds: [String: Double] = [:]
    seconds["pairs"] = try best("bench_input = build_keys()", "traverse(bench_input)")
    try lua.run("bench_keys = build_keys() traverse(bench_keys)", name: "=bench")
    seconds["next"] = try best(nil, "empty_checks(bench_keys, 100)") / 100
    seconds["format"] = try best(nil, "formats(100000)")
    seconds["tostring"] = try best("bench_input = make_tables(100000)", "tostrings(bench_input)")
    seconds["plain"] = try best(nil, "plain()")
    seconds["fresh_pairs"] = try best(nil, "fresh_pairs(20000)")
    seconds["fresh_shapes"] = try best(nil, "fresh_shapes(20000)")
    seconds["same_pairs"] = try best(nil, "same_pairs(20000)")
    seconds["setmetatable"] = try best(nil, "metatables(100000)")
    return seconds
}

/// Seconds per measure under stock lua5.4, or nil when it cannot run.
func stockSeconds(folder: String) -> [String: Double]? {
    let script = folder + "/sandbox-bench.lua"
    do {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try (sandboxWorkloads + "\n" + stockDriver).write(toFile: script, atomically: true, encoding: .utf8)
    } catch { return nil }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["lua5.4", script]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return nil }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    var seconds: [String: Double] = [:]
    for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
        let fields = line.split(separator: "\t")
        if fields.count == 2, let value = Double(fields[1]) { seconds[String(fields[0])] = value }
    }
    return seconds
}

/// The rows: ratios to lua5.4 where the target is one, else the figure itself.
func sandboxRows() throws -> [BenchRow] {
    let folder = NSTemporaryDirectory() + "stackplay-bench-sandbox-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: folder) }
    // Both sides twice, in turns, the fastest of each kept: on a shared machine the load changes
    // between one side's run and the other's (measured: lua5.4's pairs row from 7 to 20 ms).
    func fastest(_ a: [String: Double]?, _ b: [String: Double]?) -> [String: Double]? {
        guard let a, let b else { return a ?? b }
        return a.merging(b, uniquingKeysWith: min)
    }
    var ours = try sandboxSeconds()
    var stock = stockSeconds(folder: folder)
    ours = fastest(ours, try sandboxSeconds()) ?? ours
    stock = fastest(stock, stockSeconds(folder: folder))
    func milli(_ x: Double) -> String { String(format: "%.2f ms", x * 1e3) }
    func row(_ key: String, _ measure: String, today: String, target: Double) -> BenchRow {
        guard let mine = ours[key], let theirs = stock?[key], theirs > 0 else {
            return BenchRow(
                measure: measure, today: today, target: String(format: "≤ %.1f×", target),
                now: "not measured (no lua5.4)", met: nil)
        }
        let ratio = mine / theirs
        return BenchRow(
            measure: measure, today: today, target: String(format: "≤ %g×", target),
            now: String(format: "%.2f× (%@ vs %@)", ratio, milli(mine), milli(theirs)), met: ratio <= target)
    }
    let next = ours["next"] ?? .infinity
    return [
        row("pairs", "sandbox: one pairs traversal of 10^5 string keys vs lua5.4", today: "55×", target: 3),
        BenchRow(
            measure: "sandbox: next(t) == nil on 10^5 keys", today: "371 ms", target: "≤ 1 ms",
            now: milli(next),
            met: next <= 1e-3),
        row("format", "sandbox: string.format(\"%d %s\", i, \"x\") vs lua5.4", today: "10×", target: 1.5),
        row("tostring", "sandbox: tostring of 10^5 distinct tables vs lua5.4", today: "4.3×", target: 1.5),
        row(
            "plain", "sandbox: plain Lua (sort, strings, churn) under default budgets vs lua5.4",
            today: "1.9×",
            target: 1.2),
        row(
            "fresh_pairs", "sandbox: pairs over 2×10^4 freshly built 8-key tables vs lua5.4", today: "4.1×",
            target: 1.5),
        row(
            "fresh_shapes",
            "sandbox: pairs over 2×10^4 freshly built 8-key tables, keys unlike the last vs lua5.4",
            today: "1.6-1.7×", target: 1.5),
        row(
            "same_pairs", "sandbox: pairs over one unchanged 8-key table, 2×10^4 times vs lua5.4",
            today: "2.2×", target: 1.2),
        row(
            "setmetatable", "sandbox: setmetatable of 10^5 new tables vs lua5.4", today: "1.6-2.0×",
            target: 1.2),
    ]
}

/// `--sandbox`: the rows; `--sandbox MEASURE ROUNDS`: that measure's setup and run ROUNDS times in
/// a sandboxed state, nothing printed (under callgrind, the instructions of one run are the
/// difference of two ROUNDS divided by their difference; `lua5.4` runs the same Lua).
func sandboxCommand(_ arguments: [String]) throws {
    guard arguments.count == 2, let rounds = Int(arguments[1]) else {
        printTable(BenchTable(rows: try sandboxRows(), curve: []))
        return
    }
    let lua = try ScriptRunner().makeState(root: nil)
    try lua.run(sandboxWorkloads, name: "=bench")
    for _ in 0..<rounds {
        switch arguments[0] {
        case "pairs": try lua.run("traverse(build_keys())", name: "=bench")
        case "next": try lua.run("local t = build_keys() traverse(t) empty_checks(t, 100)", name: "=bench")
        case "format": try lua.run("formats(100000)", name: "=bench")
        case "tostring": try lua.run("tostrings(make_tables(100000))", name: "=bench")
        case "plain": try lua.run("plain()", name: "=bench")
        case "fresh_pairs": try lua.run("fresh_pairs(20000)", name: "=bench")
        case "fresh_shapes": try lua.run("fresh_shapes(20000)", name: "=bench")
        case "same_pairs": try lua.run("same_pairs(20000)", name: "=bench")
        case "setmetatable": try lua.run("metatables(100000)", name: "=bench")
        default:
            throw BenchError(
                "--sandbox takes pairs, next, format, tostring, plain, fresh_pairs, fresh_shapes, same_pairs or setmetatable, not '\(arguments[0])'"
            )
        }
    }
}
