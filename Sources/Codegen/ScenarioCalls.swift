import Exploration
import StackModel
import Traces

/// The calls chosen so far and the screen they lead to; `write(_:next:exact:)` chooses the
/// calls of one segment.
struct BuildState {
    let builder: ScenarioBuilder
    /// The scenario's screen after `calls`.
    var simulation: Simulation
    private(set) var calls: [ScenarioCall] = []
    /// Raw fingers: the trace's touch id to the scenario's variable; the variables declared.
    private var fingers: [Int: String] = [:]
    private var declaredFingers: Set<String> = []
    /// The card the last gesture went down on.
    private(set) var focus: (component: String, id: String)?

    init(builder: ScenarioBuilder, simulation: Simulation) {
        self.builder = builder
        self.simulation = simulation
    }

    mutating func commit(_ call: ScenarioCall) throws {
        try call.run(simulation)
        calls.append(call)
    }

    /// The scenario's screen after `calls` and then `candidate`, made afresh.
    private func trying(_ candidate: ScenarioCall) -> Simulation? {
        guard let fresh = try? builder.setup.makeScreen() else { return nil }
        do {
            for call in calls { try call.run(fresh) }
            try candidate.run(fresh)
        } catch { return nil }
        return fresh
    }

    /// The first of `candidates` that ends `segment` where the trace does, and, when the clock
    /// moves next, still does after it.
    private func first(_ candidates: [ScenarioCall], for segment: TraceSegment, next: TraceSegment?)
        -> ScenarioCall?
    {
        for candidate in candidates {
            guard let fresh = trying(candidate), builder.matches(fresh, segment.end) else { continue }
            if case .wait(let items)? = next {
                do {
                    for item in items {
                        if case .event(.advance(let seconds)) = item.input {
                            try fresh.screen.advance(by: seconds)
                        }
                    }
                } catch { continue }
                guard builder.matches(fresh, next!.end) else { continue }
            }
            return candidate
        }
        return nil
    }

    mutating func write(_ segment: TraceSegment, next: TraceSegment?, exact: Bool) throws {
        switch segment {
        case .wait(let items):
            if !exact, let call = first(waitCalls(items), for: segment, next: nil) { return try commit(call) }
            for item in items { try commit(try single(item)) }
        case .gesture(let items):
            if !exact, let call = first(try gestureCalls(items), for: segment, next: next) {
                return try commit(call)
            }
            for item in items { try commit(try single(item)) }
        case .resize(let items):
            guard case .event(.setSize(let size)) = items[0].input else { return }
            try commit(
                ScenarioCall(
                    "screen:set_size { width = \(luaNumber(size.width)), height = \(luaNumber(size.height)) }"
                ) { try $0.screen.setSize(size) })
        case .raw(let items):
            for item in items { try commit(try single(item)) }
        case .single(let item):
            if !exact, case .event(.escape) = item.input {
                let anywhere = ScenarioCall("screen:escape()") { try $0.screen.escape() }
                if let call = first([anywhere], for: segment, next: next) { return try commit(call) }
            }
            try commit(try single(item))
        }
    }

    // MARK: Waits

    private func waitCalls(_ items: [SegmentItem]) -> [ScenarioCall] {
        let total = items.reduce(0.0) { sum, item in
            if case .event(.advance(let seconds)) = item.input { return sum + seconds }
            return sum
        }
        var out: [ScenarioCall] = []
        if let end = simulation.screen.pendingAnimationEnd,
            end - simulation.screen.now <= Screen.defaultSettleLimit
        {
            out.append(ScenarioCall("screen:settle()") { try $0.screen.settle() })
        }
        var seen: [Double] = []
        for digits in [100.0, 1000.0] {
            let value = (total * digits).rounded() / digits
            if value > 0, !seen.contains(value) { seen.append(value) }
        }
        if !seen.contains(total) { seen.append(total) }
        for value in seen {
            out.append(
                ScenarioCall("screen:advance(\(luaNumber(value)))") { try $0.screen.advance(by: value) })
        }
        return out
    }

    // MARK: Gestures

    private mutating func gestureCalls(_ items: [SegmentItem]) throws -> [ScenarioCall] {
        guard case .event(.touchDown(_, let start)) = items[0].input else { return [] }
        var end = start
        var moves = 0
        for item in items {
            if case .event(.touchMove(_, let point)) = item.input {
                end = point
                moves += 1
            }
        }
        let duration = items.last!.time - items[0].time
        let distance = start.distance(to: end)
        let isTap = distance < 1
        var out: [ScenarioCall] = []
        if let hit = simulation.view.hitTest(start),
            let component = simulation.screen.component(named: hit.componentName),
            let type = builder.kinds.type(of: component.kind),
            let variable = builder.variables[hit.componentName]
        {
            let gesture = RecordedGesture(start: start, end: end, moves: moves, duration: duration, hit: hit)
            if case .card(let id) = hit.part { focus = (hit.componentName, id) }
            if isTap {
                out += tapCalls(gesture, type: type, variable: variable)
            } else {
                out += type.gestureCalls(gesture, variable: variable)
                out += dragCalls(gesture, variable: variable)
            }
        }
        out += screenCalls(
            RecordedGesture(start: start, end: end, moves: moves, duration: duration, hit: nil), isTap: isTap)
        return out
    }

    /// `c:tap(id)`, `c:tap()`, `c:tap("show_less")`, with the tap's duration.
    private func tapCalls(_ gesture: RecordedGesture, type: any ScenarioComponent.Type, variable: String)
        -> [ScenarioCall]
    {
        guard let hit = gesture.hit else { return [] }
        let name = hit.componentName
        let target = hit.part
        let argument: String
        switch target {
        case .card(let id): argument = luaString(id)
        case .part(let part): argument = target == type.defaultTapTarget ? "" : luaString(part)
        }
        return gesture.tapDurations.map { duration in
            let options = duration > 0 ? ", { duration = \(luaNumber(duration)) }" : ""
            // The default target with options is `c:tap(nil, { duration = 0.8 })`.
            let text =
                argument.isEmpty && options.isEmpty
                ? "\(variable):tap()" : "\(variable):tap(\(argument.isEmpty ? "nil" : argument)\(options))"
            return ScenarioCall(text) { simulation in
                let component = try simulation.component(name)
                let at: Point
                if case .card(let id) = target {
                    at = try simulation.view.aim(atCard: id, of: component, force: false)
                } else {
                    at = try component.point(of: target, in: simulation.screen.settings)
                }
                try simulation.screen.tap(at: at, duration: duration)
            }
        }
    }

    /// `c:drag(id, { x =, y = })` for a drag that went down on a card, numbers plainest first.
    private func dragCalls(_ gesture: RecordedGesture, variable: String) -> [ScenarioCall] {
        guard let hit = gesture.hit, case .card(let id) = hit.part else { return [] }
        let name = hit.componentName
        let xs = gesture.roundings(of: gesture.translation.x)
        let ys = gesture.roundings(of: gesture.translation.y)
        let translations = zip(
            xs + Array(repeating: xs.last!, count: max(0, ys.count - xs.count)),
            ys + Array(repeating: ys.last!, count: max(0, xs.count - ys.count)))
        return gesture.dragTimings.flatMap { timing in
            let options = gesture.dragOptions(steps: timing.steps, duration: timing.duration)
            return translations.map { x, y in
                ScenarioCall("\(variable):drag(\(luaString(id)), \(Self.translation(x, y))\(options.text))") {
                    simulation in
                    let component = try simulation.component(name)
                    let at = try simulation.view.aim(atCard: id, of: component, force: false)
                    try simulation.view.drag(
                        fromScreenPoint: at, by: Point(x: x, y: y), steps: options.steps,
                        duration: options.duration)
                }
            }
        }
    }

    /// `screen:tap(x, y)` and `screen:drag(x, y, { x =, y = })` at the recorded points.
    private func screenCalls(_ gesture: RecordedGesture, isTap: Bool) -> [ScenarioCall] {
        let xs = gesture.roundings(of: gesture.start.x)
        let ys = gesture.roundings(of: gesture.start.y)
        let points = zip(
            xs + Array(repeating: xs.last!, count: max(0, ys.count - xs.count)),
            ys + Array(repeating: ys.last!, count: max(0, xs.count - ys.count)))
        if isTap {
            return gesture.tapDurations.flatMap { duration in
                let options = duration > 0 ? ", { duration = \(luaNumber(duration)) }" : ""
                return points.map { x, y in
                    ScenarioCall("screen:tap(\(luaNumber(x)), \(luaNumber(y))\(options))") {
                        try $0.view.tap(at: Point(x: x, y: y), duration: duration)
                    }
                }
            }
        }
        let translation = gesture.translation
        return gesture.dragTimings.flatMap { timing in
            let options = gesture.dragOptions(steps: timing.steps, duration: timing.duration)
            return points.map { x, y in
                ScenarioCall(
                    "screen:drag(\(luaNumber(x)), \(luaNumber(y)), \(Self.translation(translation.x, translation.y))"
                        + "\(options.text))"
                ) {
                    try $0.view.drag(
                        from: Point(x: x, y: y), by: translation, steps: options.steps,
                        duration: options.duration)
                }
            }
        }
    }

    /// `{ x = -120 }`, `{ x = 3, y = 40 }`: a translation, a zero `y` left out.
    static func translation(_ x: Double, _ y: Double) -> String {
        if y == 0 { return "{ x = \(luaNumber(x)) }" }
        if x == 0 { return "{ y = \(luaNumber(y)) }" }
        return "{ x = \(luaNumber(x)), y = \(luaNumber(y)) }"
    }

    // MARK: One event, exactly

    /// The call that makes exactly the input `item` is.
    private mutating func single(_ item: SegmentItem) throws -> ScenarioCall {
        let builder = self.builder
        switch item.input {
        case .add(let spec):
            let name = try TraceFields(spec, file: builder.trace.file, line: 1).string("name")
            return try builder.setup.component(
                spec, variable: builder.variables[name] ?? name, line: line(item),
                screen: simulation.view.settings.size)
        case .event(let event):
            return try single(event, item: item)
        }
    }

    private func line(_ item: SegmentItem) -> Int {
        item.reference.map { builder.trace.steps[$0].line } ?? 0
    }

    private func variable(_ name: String, _ item: SegmentItem) throws -> String {
        if let variable = builder.variables[name] { return variable }
        throw CodegenError(
            "\(builder.trace.file):\(line(item)): no component called '\(name)' is on the screen")
    }

    private mutating func single(_ event: InputEvent, item: SegmentItem) throws -> ScenarioCall {
        switch event {
        case .touchDown(let touch, let point):
            var n = 1
            while fingers.values.contains("f\(n)") { n += 1 }
            let finger = "f\(n)"
            fingers[touch] = finger
            let declare = declaredFingers.insert(finger).inserted ? "local " : ""
            return ScenarioCall(
                "\(declare)\(finger) = screen:touch_down(\(luaNumber(point.x)), \(luaNumber(point.y)))"
            ) {
                $0.fingers[finger] = try $0.view.touchDown(at: point).touch
            }
        case .touchMove(let touch, let point):
            let finger = try self.finger(touch, item)
            return ScenarioCall("screen:touch_move(\(finger), \(luaNumber(point.x)), \(luaNumber(point.y)))")
            {
                try $0.view.touchMove($0.fingers[finger] ?? -1, to: point)
            }
        case .touchUp(let touch):
            let finger = try self.finger(touch, item)
            fingers[touch] = nil
            return ScenarioCall("screen:touch_up(\(finger))") {
                try $0.screen.touchUp($0.fingers[finger] ?? -1)
            }
        case .advance(let seconds):
            return ScenarioCall("screen:advance(\(luaNumber(seconds)))") {
                try $0.screen.advance(by: seconds)
            }
        case .setReduceMotion(let on):
            return ScenarioCall("screen:set_reduce_motion(\(on))") { $0.screen.setReduceMotion(on) }
        case .setLayoutDirection(let direction):
            return ScenarioCall("screen:set_layout_direction(\(luaString(direction.rawValue)))") {
                $0.view.setLayoutDirection(direction)
            }
        case .setDynamicTypeSize(let size):
            return ScenarioCall("screen:set_dynamic_type(\(luaString(size.shortName)))") {
                $0.screen.setDynamicTypeSize(size)
            }
        case .setSize(let size):
            return ScenarioCall(
                "screen:set_size { width = \(luaNumber(size.width)), height = \(luaNumber(size.height)) }"
            ) { try $0.screen.setSize(size) }
        case .action(let component, let element, let name):
            let variable = try variable(component, item)
            let argument = ComponentTarget(element).bareName
            return ScenarioCall("\(variable):action(\(luaString(name)), \(luaString(argument)))") {
                _ = try $0.screen.performAction(name, on: element, of: component)
            }
        case .escape(let component):
            let variable = try variable(component, item)
            return ScenarioCall("\(variable):escape()") { _ = try $0.screen.escape(component) }
        case .add(let name):
            throw CodegenError(
                "\(builder.trace.file):\(line(item)): an add event must carry the component's parameters, not only '\(name)'"
            )
        case .change(let component, let change):
            let variable = try variable(component, item)
            return ScenarioCall(try changeLua(change, variable: variable, component: component, item: item)) {
                try $0.screen.change(change, of: component)
            }
        }
    }

    private func finger(_ touch: Int, _ item: SegmentItem) throws -> String {
        if let finger = fingers[touch] { return finger }
        throw CodegenError("\(builder.trace.file):\(line(item)): no finger \(touch) is down")
    }

    /// An owner's change as the kind's method of that name: `stack:set_expanded(true)`,
    /// `wallet:select("amex")`, `stack:set_items { items = { ... } }`.
    private func changeLua(_ change: OwnerChange, variable: String, component: String, item: SegmentItem)
        throws
        -> String
    {
        let containerChanges = Set(builder.trace.kinds.types.flatMap { $0.containerChanges }.map(\.name))
        guard !containerChanges.contains(change.name) else {
            throw CodegenError(
                "\(builder.trace.file):\(line(item)): a \(change.name) that no screen resize made has no Lua call"
            )
        }
        if change.fields.count == 1, case .cards(let cards) = change.fields[0].value {
            // A kind that keeps `card_height` (the wallet) defaults its new items to it.
            let made = simulation.screen.component(named: component)
            let type = made.flatMap { builder.kinds.type(of: $0.kind) }
            var defaultHeight = type?.defaultCardHeight ?? 0
            if type?.keepsCardHeight == true,
                case .number(let kept)? = (made as? any TraceableComponent)?.traceFields.first(where: {
                    $0.0 == "card_height"
                })?.1
            {
                defaultHeight = kept
            }
            let height = ScenarioSetup.commonest(cards.map(\.height)) ?? defaultHeight
            var options = "items = " + ScenarioSetup.items(cards, height: height)
            if height != defaultHeight { options += ", card_height = \(luaNumber(height))" }
            return "\(variable):\(change.name) { \(options) }"
        }
        let values = change.fields.map { field -> String in
            switch field.value {
            case .null: "nil"
            case .bool(let flag): String(flag)
            case .number(let number): luaNumber(number)
            case .string(let text): luaString(text)
            case .cards(let cards): ScenarioSetup.items(cards, height: .nan)
            }
        }
        return "\(variable):\(change.name)(\(values.joined(separator: ", ")))"
    }
}
