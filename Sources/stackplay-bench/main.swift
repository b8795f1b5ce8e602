// `make bench`: how many touch-move events per second the models take, release build.
// Each event moves a finger that is swiping a card of a 4-card open NotificationStack, then
// reads the whole frame snapshot (every card's geometry), as a scenario or a trace does.
import Bindings
import StackModel

/// `stackplay-bench --rounds N`: exactly N rounds of each measurement, for instruction counts
/// under `valgrind --tool=callgrind` (repeatable where wall time on a shared machine is not).
let fixedRounds: Int? = {
    let arguments = CommandLine.arguments
    guard let flag = arguments.firstIndex(of: "--rounds"), flag + 1 < arguments.count else { return nil }
    return Int(arguments[flag + 1])
}()

/// Runs `body` for about `seconds` and returns the rate of `events` per second.
func measure(_ label: String, seconds: Double = 1, _ body: (Int) throws -> Int) rethrows {
    if let fixedRounds {
        var events = 0
        for round in 0..<fixedRounds { events += try body(round) }
        print("\(label): \(events) events")
        return
    }
    let clock = ContinuousClock()
    var events = 0
    var rounds = 0
    let start = clock.now
    var elapsed = 0.0
    while elapsed < seconds {
        events += try body(rounds)
        rounds += 1
        let duration = clock.now - start
        elapsed = Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }
    let rate = Double(events) / elapsed
    let perEvent = 1e9 / rate
    print("\(label): \(Int(rate)) events/s (\(String(format: perEvent, "%.0f")) ns per event)")
}

func String(format value: Double, _ pattern: String) -> String {
    // Whole nanoseconds are enough here; avoids Foundation in the benchmark.
    String(Int(value.rounded()))
}

func openStack() throws -> (Screen, NotificationStack) {
    let screen = try Screen()
    let stack = try NotificationStack(
        cards: ["messages", "calendar", "mail", "fitness"].map { CardSpec(id: $0, height: 70) },
        isExpanded: true, isDismissible: true, origin: Point(x: 16, y: 100), width: 358)
    try screen.add(stack)
    return (screen, stack)
}

var sink = 0.0
try measure("swift model, touch move + frame snapshot, 4-card open NotificationStack") { _ in
    let (screen, stack) = try openStack()
    let start = try stack.point(of: "calendar", in: screen.settings)
    let (touch, _) = try screen.touchDown(at: start)
    for step in 1...1000 {
        try screen.touchMove(touch, to: Point(x: start.x - Double(step % 100), y: start.y))
        sink += screen.snapshot().components[0].cards[1].frame.x
    }
    try screen.touchUp(touch)
    return 1000
}
if sink == .infinity { print(sink) }
try measure("  touch move only") { _ in
    let (screen, stack) = try openStack()
    let start = try stack.point(of: "calendar", in: screen.settings)
    let (touch, _) = try screen.touchDown(at: start)
    for step in 1...1000 {
        try screen.touchMove(touch, to: Point(x: start.x - Double(step % 100), y: start.y))
    }
    try screen.touchUp(touch)
    return 1000
}
try measure("  snapshot only") { _ in
    let (screen, _) = try openStack()
    for _ in 1...1000 {
        sink += screen.snapshot().components[0].cards[1].frame.x
    }
    return 1000
}
