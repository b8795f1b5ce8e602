/// What must hold of a screen after every change, checked in debug builds after each input the
/// screen takes (``Screen/checkInvariants()``), as swift-collections checks its trees: a violation
/// is a bug in a model, reported at the change that caused it rather than frames later in a
/// failing expectation.
extension Screen {
    /// The invariants that do not hold now, each as a sentence; empty when all hold:
    /// - component names are unique on the screen, card ids unique in their component;
    /// - every frame, scale and opacity is finite, sizes and scales are not negative, opacities are
    ///   within 0...1, for components whose own frame is finite (an extreme but accepted size, a
    ///   width of 1e308, may overflow to infinity in the seed's own arithmetic);
    /// - the z-order of a component's cards is a permutation: no two cards share a z;
    /// - an animated progress (NotificationStack's expansion) stays within its spring's reach, the
    ///   span 0...1 widened by the overshoot a spring of bounce < 1 can make (at most the span).
    public func invariantViolations() -> [String] {
        var violations: [String] = []
        var names = Set<ByteKey>()
        for component in snapshot().components {
            let label = "\(component.kind.rawValue) '\(component.name)'"
            if !names.insert(ByteKey(component.name)).inserted {
                violations.append("two components are named '\(component.name)'")
            }
            var ids = Set<ByteKey>()
            var zs = Set<Double>()
            let checksNumbers = component.frame.isFinite
            for card in component.cards {
                if !ids.insert(ByteKey(card.id)).inserted {
                    violations.append("\(label) holds card '\(card.id)' twice")
                }
                if !zs.insert(card.z).inserted {
                    violations.append("\(label): card '\(card.id)' shares z \(formatNumber(card.z))")
                }
                guard checksNumbers else { continue }
                if !card.frame.isFinite || card.frame.width < 0 || card.frame.height < 0 {
                    violations.append("\(label): card '\(card.id)' has frame \(card.frame)")
                }
                if !card.scale.isFinite || card.scale < 0 {
                    violations.append("\(label): card '\(card.id)' has scale \(formatNumber(card.scale))")
                }
                if !(0...1).contains(card.opacity) {
                    violations.append("\(label): card '\(card.id)' has opacity \(formatNumber(card.opacity))")
                }
            }
            if case .number(let progress)? = component.state("progress"), !(-1...2).contains(progress) {
                violations.append("\(label): progress \(formatNumber(progress)) is beyond its spring's reach")
            }
        }
        return violations
    }

    /// Stops a debug build at the first broken invariant (``invariantViolations()``), naming the
    /// input after which it broke; compiled out of release builds.
    @inline(__always)
    func checkInvariants(after event: @autoclosure () -> InputEvent) {
        #if DEBUG
            let violations = invariantViolations()
            if !violations.isEmpty {
                preconditionFailure(
                    "stackplay: a model invariant broke after \(event()): "
                        + violations.joined(separator: "; "))
            }
        #endif
    }
}

extension Rect {
    /// Whether every coordinate and size is a finite number.
    var isFinite: Bool {
        x.isFinite && y.isFinite && width.isFinite && height.isFinite
    }
}
