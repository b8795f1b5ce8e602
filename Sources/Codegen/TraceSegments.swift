import StackModel
import Traces

/// One input of a trace, the clock's implicit moves made explicit: a trace from another tool may
/// leave `advance` events out, and its events' times say them (docs/traces.md).
struct SegmentItem {
    var input: TraceInput
    /// The clock after it.
    var time: Double
    /// The trace's event index it is (nil for an implicit advance): its frame is compared.
    var reference: Int?
}

/// A run of a trace's inputs that a scenario writes as one call (or a few).
enum TraceSegment {
    /// The clock moving, in one or more `advance` events: `screen:settle()` or `screen:advance(t)`.
    case wait([SegmentItem])
    /// One finger down, its moves and the clock's moves, then up: a tap, a drag, a scroll.
    case gesture([SegmentItem])
    /// Anything else: several fingers at once, or a finger still down when something else
    /// happens; written event by event.
    case raw([SegmentItem])
    /// A screen resize and the layout changes it makes (`set_width`, ...), one `set_size` call.
    case resize([SegmentItem])
    /// One event that is one call (a setting, an owner change, Escape, an added component).
    case single(SegmentItem)

    var items: [SegmentItem] {
        switch self {
        case .wait(let items), .gesture(let items), .raw(let items), .resize(let items): items
        case .single(let item): [item]
        }
    }

    /// The last event whose frame the trace holds, and the clock after the segment.
    var end: (reference: Int?, time: Double) {
        (items.last { $0.reference != nil }?.reference, items.last!.time)
    }

    /// Splits a trace's events into segments, in order.
    static func split(_ trace: Trace) -> [TraceSegment] {
        var items: [SegmentItem] = []
        var clock = trace.settings.now
        for step in trace.steps {
            var isAdvance = false
            if case .event(.advance) = step.input { isAdvance = true }
            if !isAdvance, step.time > clock {
                items.append(
                    SegmentItem(
                        input: .event(.advance(seconds: step.time - clock)), time: step.time, reference: nil))
            }
            clock = step.time
            items.append(SegmentItem(input: step.input, time: step.time, reference: step.index))
        }
        let containerChanges = Set(trace.kinds.types.flatMap { $0.containerChanges }.map(\.name))
        var segments: [TraceSegment] = []
        var index = 0
        while index < items.count {
            let item = items[index]
            guard case .event(let event) = item.input else {
                segments.append(.single(item))
                index += 1
                continue
            }
            switch event {
            case .advance:
                var end = index + 1
                while end < items.count, case .event(.advance) = items[end].input { end += 1 }
                segments.append(.wait(Array(items[index..<end])))
                index = end
            case .touchDown(let finger, _):
                var down: Set<Int> = [finger]
                var onlyOne = true
                var end = index + 1
                while end < items.count, !down.isEmpty {
                    switch items[end].input {
                    case .event(.touchDown(let other, _)):
                        down.insert(other)
                        onlyOne = false
                    case .event(.touchUp(let other)): down.remove(other)
                    case .event(.touchMove), .event(.advance): break
                    default: onlyOne = false
                    }
                    end += 1
                }
                let run = Array(items[index..<end])
                segments.append(onlyOne && down.isEmpty ? .gesture(run) : .raw(run))
                index = end
            case .setSize:
                var end = index + 1
                while end < items.count, case .event(.change(_, let change)) = items[end].input,
                    containerChanges.contains(change.name)
                {
                    end += 1
                }
                segments.append(.resize(Array(items[index..<end])))
                index = end
            case .touchMove, .touchUp:
                // A finger that went down before the trace began (a trace cut short): as it is.
                segments.append(.raw([item]))
                index += 1
            default:
                segments.append(.single(item))
                index += 1
            }
        }
        return segments
    }
}
