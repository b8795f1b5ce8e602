import LuaRuntime
import StackModel
import TestResults

/// The first step of a test after which `--audit` found issues: what the step was, where the
/// script was, and the issues.
final class AuditFailure {
    /// `a finger came up at t = 0.2 s`.
    let step: String
    let issues: [AuditIssue]
    /// The Lua method that made the step (`tap`), and the script's `path:line`, once known.
    var method: String?
    var position: String?
    /// Whether it was raised into the script (it is raised once).
    var raised = false

    init(step: String, issues: [AuditIssue]) {
        self.step = step
        self.issues = issues
    }

    /// `audit after 'tap' (a finger came up at t = 0 s): 1 accessibility issue` and the issues.
    var message: String {
        let after = method.map { "'\($0)' (\(step))" } ?? step
        return "audit after \(after): \(AuditMethods.count(issues))\n" + AuditMethods.report(issues)
            + "\n  To fix: change the screen, or allow a known issue in .stackplay.lua's "
            + "audit = { allow = { { type =, element = } } }."
    }
}

/// `--audit`: audits a screen after every gesture, settle and setting change, as Espresso's
/// `AccessibilityChecks` do after every action, and keeps the first step with issues in the
/// session. The bound methods raise it at the script's line (``ScriptSession/auditing(_:)``), and
/// the runner fails the test with it even when a `pcall` caught that error.
enum AuditObserver {
    /// Chains an observer after the screen's own (a trace recorder's): it sees each event after
    /// the recorder stored its frame.
    static func attach(to screen: Screen, options: AuditOptions, session: ScriptSession) {
        let previous = screen.onEvent
        screen.onEvent = { [weak screen, weak session] event in
            previous?(event)
            guard let screen, let session, session.auditFailure == nil, let step = step(event, on: screen)
            else {
                return
            }
            let found = screen.audit(options)
            let issues = found.filter { !options.isKnown($0) }
            for issue in found where options.isKnown(issue) {
                let seen = session.knownAuditIssues.contains {
                    $0.type == issue.type && $0.rule == issue.rule && $0.component == issue.component
                        && $0.element == issue.element
                }
                if !seen { session.knownAuditIssues.append(issue) }
            }
            if !issues.isEmpty { session.auditFailure = AuditFailure(step: step, issues: issues) }
        }
    }

    /// The steps audited, in words; nil for the events inside a gesture (a finger down or moving,
    /// the clock moving while a finger is down) and for a component being added.
    static func step(_ event: InputEvent, on screen: Screen) -> String? {
        let at = " at t = \(formatNumber(screen.now)) s"
        switch event {
        case .touchUp: return "a finger came up" + at
        case .advance:
            return screen.touches.isEmpty ? "the clock moved to t = \(formatNumber(screen.now)) s" : nil
        case .setReduceMotion(let on): return "Reduce Motion turned \(on ? "on" : "off")" + at
        case .setLayoutDirection(let direction): return "the layout direction became \(direction)" + at
        case .setDynamicTypeSize(let size): return "the text size became \(size.shortName)" + at
        case .setSize(let size):
            return "the screen became \(formatNumber(size.width)) × \(formatNumber(size.height))" + at
        case .action(let component, let element, let name):
            return "'\(name)' on \(element) of \(component)" + at
        case .escape(let component): return "Escape to \(component)" + at
        case .change(let component, let change): return "\(change.name) on \(component)" + at
        case .touchDown, .touchMove, .add: return nil
        }
    }
}

extension ScriptSession {
    /// `methods`, each raising the first audit failure its call caused, at the script's line;
    /// `methods` itself when `--audit` is off.
    func auditing(_ methods: [String: LuaFunction]) -> [String: LuaFunction] {
        guard audit != nil else { return methods }
        return methods.mapValues { body in
            { [unowned self] a in
                let results = try body(a)
                if let failure = auditFailure, !failure.raised {
                    failure.raised = true
                    failure.method = a.function
                    failure.position = a.stack.position(skippingPrefix: PreludeModule.internalPrefix)
                    throw LuaError(failure.message)
                }
                return results
            }
        }
    }

    /// The runner's side: a test that passed although a step's audit found issues (a `pcall`
    /// caught the error, or no bound method ran after the step) fails; a failed test carries the
    /// issues that failed it, for the reporters and the SVG frames.
    package func applyAudit(to result: inout TestResult) {
        if let failure = auditFailure {
            auditIssues = failure.issues
            if result.status == .passed {
                result.status = .failed
                result.position = failure.position ?? ""
                result.message = (failure.position.map { $0 + ": " } ?? "") + failure.message
            }
            if result.message.contains(failure.message) {
                result.kind = .failure
                result.expected = "no accessibility issues"
                result.actual = AuditMethods.count(failure.issues)
            }
        }
        if result.status == .failed { result.auditIssues = auditIssues }
        result.knownAuditIssues = knownAuditIssues
    }
}
