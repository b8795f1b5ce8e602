/// The audit's rules, one function an `AuditType`. README "Accessibility audit" says the same in
/// words; each issue's `rule` names the check that found it.
extension Auditor {
    // MARK: hit_region

    /// Each element a touch acts on that VoiceOver shows and that is at least partly on screen:
    /// some 44 × 44 pt square of it must take touches (hit-tested, so what is over it counts).
    /// `too_small` when its frame is under 44 pt either way, `covered` when what is over it leaves
    /// less.
    func hitRegion(_ subject: Subject) -> [AuditIssue] {
        let side = Screen.minimumTarget
        return subject.targets.compactMap { target in
            guard let element = subject.element(target.element), !element.isHidden,
                let region = element.frame.intersection(bounds)
            else { return nil }
            let reach = reach(region, index: subject.index, target: target.element)
            guard !reach.fits(side: side) else { return nil }
            let reachable = reach.bounds.map(Self.size) ?? "nothing"
            let what = target.gesture == .tap ? "a control" : "a card swiped away"
            if region.width < side || region.height < side {
                return issue(
                    .hitRegion, "too_small", subject, element: element.id, frame: element.frame,
                    "\(Self.size(region)) on screen, under 44 × 44 pt",
                    "\(element.id) is \(what) of \(Self.size(region)) on screen; a touch target needs "
                        + "44 × 44 pt (HIG). Make it taller or wider, or give it a larger content shape.")
            }
            return issue(
                .hitRegion, "covered", subject, element: element.id, frame: element.frame,
                "\(reachable) of it takes touches, under 44 × 44 pt",
                "\(element.id) is \(what) of \(Self.size(region)) on screen, but what lies over it "
                    + "leaves \(reachable) where a touch reaches it; a touch target needs 44 × 44 pt (HIG).")
        }
    }

    // MARK: element_detection

    /// A visible card that a touch reaches must be an element VoiceOver finds (`no_element`,
    /// `hidden_hittable`); each control VoiceOver shows must have its activation point on screen
    /// (`activation_off_screen`) and on itself (`activation_misses`), since VoiceOver's double tap
    /// is a tap there.
    func elementDetection(_ subject: Subject) -> [AuditIssue] {
        var issues: [AuditIssue] = []
        for card in subject.snapshot.cards where card.isVisible && card.isHittable {
            let id = "card:\(card.id)"
            let element = subject.element(id)
            if let element, !element.isHidden { continue }
            guard let region = card.frame.intersection(bounds),
                let reached = reach(region, index: subject.index, target: id).bounds
            else { continue }
            if element == nil {
                issues.append(
                    issue(
                        .elementDetection, "no_element", subject, element: id, frame: card.frame,
                        "a touch reaches it (\(Self.size(reached))), VoiceOver has no element for it",
                        "\(id) shows and takes touches, but no accessibility element stands for it."))
            } else {
                issues.append(
                    issue(
                        .elementDetection, "hidden_hittable", subject, element: id, frame: card.frame,
                        "a touch reaches it (\(Self.size(reached))), VoiceOver hides it",
                        "\(id) shows and takes touches, but is hidden from VoiceOver: what a tap on it "
                            + "does must be reachable another way."))
            }
        }
        for target in subject.targets where target.gesture == .tap {
            guard let element = subject.element(target.element), !element.isHidden else { continue }
            let point = element.activationPoint
            let at = "(\(formatNumber(point.x)), \(formatNumber(point.y)))"
            guard bounds.contains(point) else {
                issues.append(
                    issue(
                        .elementDetection, "activation_off_screen", subject, element: element.id,
                        frame: element.frame, "its activation point \(at) is off screen",
                        "VoiceOver's double tap on \(element.id) is a tap at \(at), outside the screen."))
                continue
            }
            let hit = hitTest(point)
            if hit?.componentIndex == subject.index, hit?.target.isSameBytes(element.id) == true { continue }
            let lands = describeHit(at: point)
            issues.append(
                issue(
                    .elementDetection, "activation_misses", subject, element: element.id,
                    frame: element.frame,
                    "its activation point \(at) lands on \(lands)",
                    "VoiceOver's double tap on \(element.id) is a tap at \(at), which lands on \(lands) "
                        + "instead."))
        }
        return issues
    }

    // MARK: sufficient_description

    /// Elements VoiceOver shows: a label that is empty (`empty_label`); one equal to a card's id
    /// when the id reads as an identifier, with digits, `_`, `-`, `.`, `:`, `/` or an inner capital
    /// (`raw_id_label`; an id of plain words reads as a label); one already used by another element
    /// of the component (`duplicate_label`); a button with no hint while another button of the
    /// component has one (`missing_hint`).
    func sufficientDescription(_ subject: Subject) -> [AuditIssue] {
        var issues: [AuditIssue] = []
        let cardIDs = Set(subject.snapshot.cards.map(\.id))
        let hinted = subject.elements.contains { $0.traits.contains(.button) && !$0.hint.isEmpty }
        var labels: [String: String] = [:]
        for element in subject.shown {
            let label = element.label.trimmingCharacters(inSet: " \t\n")
            if label.isEmpty {
                issues.append(
                    issue(
                        .sufficientDescription, "empty_label", subject, element: element.id,
                        frame: element.frame,
                        "it has no label", "VoiceOver reads nothing for \(element.id): give it a label."))
            } else if cardIDs.contains(element.label), Self.readsAsIdentifier(element.label) {
                issues.append(
                    issue(
                        .sufficientDescription, "raw_id_label", subject, element: element.id,
                        frame: element.frame, "its label is the raw id '\(element.label)'",
                        "VoiceOver reads the id '\(element.label)': give the item a label people say."))
            } else if let first = labels[label] {
                issues.append(
                    issue(
                        .sufficientDescription, "duplicate_label", subject, element: element.id,
                        frame: element.frame, "its label '\(label)' is also \(first)'s",
                        "\(element.id) and \(first) both read '\(label)': VoiceOver users cannot tell them apart."
                    ))
            }
            if !label.isEmpty, labels[label] == nil { labels[label] = element.id }
            if hinted, element.traits.contains(.button), element.hint.isEmpty {
                issues.append(
                    issue(
                        .sufficientDescription, "missing_hint", subject, element: element.id,
                        frame: element.frame, "a button without a hint",
                        "\(element.id) is a button with no hint, while the component's other buttons say what "
                            + "they do."))
            }
        }
        return issues
    }

    /// Whether `text` reads as an identifier rather than words: a digit, one of `_-.:/#@`, or a
    /// capital after a small letter.
    static func readsAsIdentifier(_ text: String) -> Bool {
        var previousLower = false
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII, a byte a character: the same answers without breaking graphemes (an audit
            // after every input event asks it of every label)
            for byte in text.utf8 {
                if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "_-.:/#@".utf8.contains(byte) {
                    return true
                }
                if (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte), previousLower { return true }
                previousLower = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            }
            return false
        }
        for character in text {
            if character.isNumber || "_-.:/#@".contains(character) { return true }
            if character.isUppercase, previousLower { return true }
            previousLower = character.isLowercase
        }
        return false
    }

    // MARK: dynamic_type

    /// At a text size other than Large: a visible card or part that lies inside the screen and
    /// its component's frame at Large, and no longer does (`pushed_off_screen`,
    /// `overflows_component`). The same component laid out at Large is the reference, so only
    /// what the text size moved is reported. Judged at rest (`Auditor.isAtRest`).
    func dynamicType(_ subject: Subject) -> [AuditIssue] {
        guard settings.dynamicTypeSize != .large else { return [] }
        var large = settings
        large.dynamicTypeSize = .large
        let reference = subject.component.snapshot(in: large)
        let size = settings.dynamicTypeSize.shortName
        var pieces: [(id: String, now: Rect, before: Rect)] = []
        // Each id's first card at Large (as `reference.card(_:)` finds it), looked up in constant time.
        var before: [ByteKey: Rect] = [:]
        for card in reference.cards where before[ByteKey(card.id)] == nil {
            before[ByteKey(card.id)] = card.frame
        }
        for card in subject.snapshot.cards where card.isVisible {
            if let frame = before[ByteKey(card.id)] { pieces.append(("card:\(card.id)", card.frame, frame)) }
        }
        for part in subject.snapshot.parts where part.opacity > 0 {
            if let before = reference.part(part.name) { pieces.append((part.name, part.frame, before.frame)) }
        }
        var issues: [AuditIssue] = []
        for piece in pieces {
            guard Self.fits(piece.before, in: bounds), Self.fits(piece.before, in: reference.frame) else {
                continue
            }
            if !Self.fits(piece.now, in: bounds) {
                issues.append(
                    issue(
                        .dynamicType, "pushed_off_screen", subject, element: piece.id, frame: piece.now,
                        "at \(size) it is pushed off the screen (it fits at Large)",
                        "\(piece.id) fits the screen at Large; at \(size) it ends at x \(formatNumber(piece.now.maxX)), "
                            + "y \(formatNumber(piece.now.maxY)), outside the \(Self.size(bounds)) screen."))
            } else if !Self.fits(piece.now, in: subject.snapshot.frame) {
                issues.append(
                    issue(
                        .dynamicType, "overflows_component", subject, element: piece.id, frame: piece.now,
                        "at \(size) it overflows its component (it fits at Large)",
                        "\(piece.id) fits \(subject.component.name) at Large; at \(size) it no longer does."))
            }
        }
        return issues
    }

    static func fits(_ rect: Rect, in container: Rect) -> Bool {
        let epsilon = 1e-9
        return rect.minX >= container.minX - epsilon && rect.minY >= container.minY - epsilon
            && rect.maxX <= container.maxX + epsilon && rect.maxY <= container.maxY + epsilon
    }

    // MARK: trait

    /// A control VoiceOver shows without the Button trait (`not_a_button`); the card a
    /// component's `selection` names, shown, without the Selected trait (`not_selected`).
    func trait(_ subject: Subject) -> [AuditIssue] {
        var issues: [AuditIssue] = []
        for target in subject.targets where target.gesture == .tap {
            guard let element = subject.element(target.element), !element.isHidden,
                !element.traits.contains(.button)
            else { continue }
            issues.append(
                issue(
                    .trait, "not_a_button", subject, element: element.id, frame: element.frame,
                    "a control without the Button trait",
                    "A tap on \(element.id) does something, but VoiceOver does not call it a button."))
        }
        if case .string(let id)? = subject.snapshot.state("selection"),
            let element = subject.element("card:\(id)"),
            !element.isHidden, !element.traits.contains(.selected)
        {
            issues.append(
                issue(
                    .trait, "not_selected", subject, element: element.id, frame: element.frame,
                    "the selected card without the Selected trait",
                    "\(element.id) is the selection, but VoiceOver does not say it is selected."))
        }
        return issues
    }

    // MARK: action

    /// A named action of an element VoiceOver shows that would change nothing if performed now
    /// (`does_nothing`), as its kind says (`Component.wouldChange`). `escape` is VoiceOver's
    /// gesture, not a named action, and a kind that cannot tell is not checked.
    func action(_ subject: Subject) -> [AuditIssue] {
        var issues: [AuditIssue] = []
        for element in subject.shown {
            for name in element.actions where name != "escape" {
                guard subject.component.wouldChange(performing: name, on: element.id, in: settings) == false
                else {
                    continue
                }
                issues.append(
                    issue(
                        .action, "does_nothing", subject, element: element.id, frame: element.frame,
                        "its action '\(name)' does nothing now",
                        "VoiceOver offers '\(name)' on \(element.id), and performing it now changes nothing: "
                            + "offer it only when it works."))
            }
        }
        return issues
    }
}

extension String {
    /// The text without `set`'s characters at either end.
    func trimmingCharacters(inSet set: String) -> String {
        // nothing to trim when neither end's byte is one of an ASCII set's (the first and the last
        // character hold those bytes): the text itself, not an array of its characters
        if set.utf8.allSatisfy({ $0 < 0x80 }), let first = utf8.first, let last = utf8.last,
            !set.utf8.contains(first), !set.utf8.contains(last)
        {
            return self
        }
        let characters = Array(self)
        var start = 0
        var end = characters.count
        while start < end, set.contains(characters[start]) { start += 1 }
        while end > start, set.contains(characters[end - 1]) { end -= 1 }
        return String(characters[start..<end])
    }
}
