/// The mirror across a screen's vertical centre line (`stackplay --mirror`, R3): the one place
/// where a mirrored world's geometry is turned around. A script on a mirrored screen writes and
/// reads its own world; the screen under it runs the other layout direction, and every x passes
/// through here on the way in and on the way out. Mirroring twice gives back what went in.
///
/// A point's x becomes `width − x`, a translation's `dx` becomes `−dx`, a rectangle's x becomes
/// `width − x − w`, and a layout direction becomes the other one. `width` is the screen's width
/// at the moment of the call. y, sizes, times and ids never change.
public struct Mirror: Hashable, Sendable {
    /// The screen width the mirror is taken across; nil: the identity (a screen not mirrored).
    public let width: Double?

    /// The identity: nothing is turned around.
    public static let none = Mirror(width: nil)

    /// A mirror across the centre line of a screen `width` points wide.
    public init(width: Double?) { self.width = width }

    public var isOn: Bool { width != nil }

    public func x(_ x: Double) -> Double { width.map { $0 - x } ?? x }

    public func point(_ point: Point) -> Point { Point(x: x(point.x), y: point.y) }

    public func translation(_ translation: Point) -> Point {
        isOn ? Point(x: -translation.x, y: translation.y) : translation
    }

    public func rect(_ rect: Rect) -> Rect {
        isOn ? Rect(x: x(rect.x) - rect.width, y: rect.y, width: rect.width, height: rect.height) : rect
    }

    public func direction(_ direction: LayoutDirection) -> LayoutDirection {
        guard isOn else { return direction }
        return direction == .leftToRight ? .rightToLeft : .leftToRight
    }

    public func settings(_ settings: ScreenSettings) -> ScreenSettings {
        var mirrored = settings
        mirrored.layoutDirection = direction(settings.layoutDirection)
        return mirrored
    }

    public func card(_ card: CardSnapshot) -> CardSnapshot {
        var mirrored = card
        mirrored.frame = rect(card.frame)
        return mirrored
    }

    public func part(_ part: PartSnapshot) -> PartSnapshot {
        var mirrored = part
        mirrored.frame = rect(part.frame)
        return mirrored
    }

    public func component(_ component: ComponentSnapshot) -> ComponentSnapshot {
        guard isOn else { return component }
        var mirrored = component
        mirrored.frame = rect(component.frame)
        mirrored.cards = component.cards.map(card)
        mirrored.leaving = component.leaving.map(card)
        mirrored.parts = component.parts.map(part)
        return mirrored
    }

    public func frame(_ frame: FrameSnapshot) -> FrameSnapshot {
        guard isOn else { return frame }
        return FrameSnapshot(settings: settings(frame.settings), components: frame.components.map(component))
    }

    public func element(_ element: AccessibilityElement) -> AccessibilityElement {
        guard isOn else { return element }
        var mirrored = element
        mirrored.frame = rect(element.frame)
        mirrored.activationPoint = point(element.activationPoint)
        return mirrored
    }

    /// An input as the other world sees it: touches at mirrored points, the other direction.
    public func event(_ event: InputEvent) -> InputEvent {
        guard isOn else { return event }
        switch event {
        case .touchDown(let touch, let at): return .touchDown(touch: touch, at: point(at))
        case .touchMove(let touch, let to): return .touchMove(touch: touch, to: point(to))
        case .setLayoutDirection(let value): return .setLayoutDirection(direction(value))
        default: return event
        }
    }
}

extension Screen {
    /// The mirror this screen is seen through now: across its current width when
    /// ``isMirrored``, else ``Mirror/none``.
    public var mirror: Mirror { isMirrored ? Mirror(width: settings.size.width) : .none }
}
