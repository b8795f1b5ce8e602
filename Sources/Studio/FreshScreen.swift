import Foundation
import StackModel
import Traces

/// A fresh screen picked on the page (component kinds, items, settings), built as a script
/// would build it: the studio writes the few lines of Lua, `stackplay --trace` runs them, and the
/// trace's header (every default filled in by the real bindings) makes the live screen.
struct FreshScreen {
    /// The kinds in the order picked, each stacked below the last.
    var kinds: [String]
    var items: [String]
    var dismissible: Bool
    var settings: [(String, String)]

    static let kindNames = ComponentKinds.standard.kinds.map(\.rawValue)

    init(_ message: JSONValue) throws(StudioError) {
        var kinds: [String] = []
        if case .array(let picked)? = message["kinds"] {
            for case .string(let kind) in picked {
                guard Self.kindNames.contains(kind) else {
                    throw StudioError(
                        "unknown component kind '\(kind)' (\(Self.kindNames.joined(separator: ", ")))")
                }
                kinds.append(kind)
            }
        }
        self.kinds = kinds.isEmpty ? [ComponentKind.notificationStack.rawValue] : kinds
        var items: [String] = []
        if case .string(let text)? = message["items"] {
            items = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                !$0.isEmpty
            }
        }
        for item in items
        where !item.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == " " }) {
            throw StudioError("an item id is letters, digits, '_', '-' and spaces, not '\(item)'")
        }
        self.items = items.isEmpty ? ["messages", "calendar", "mail", "fitness"] : items
        dismissible = message["dismissible"] != .bool(false)
        var settings: [(String, String)] = []
        if case .object(let given)? = message["settings"] {
            for (key, value) in given {
                switch (key, value) {
                case ("layout_direction", .string(let text)) where text == "ltr" || text == "rtl":
                    settings.append((key, "\"\(text)\""))
                case ("reduce_motion", .bool(let on)): settings.append((key, on ? "true" : "false"))
                case ("dynamic_type", .string(let name)) where DynamicTypeSize(name: name) != nil:
                    settings.append((key, "\"\(name)\""))
                case ("device", .string(let name)):
                    guard let device = ScreenSettingsVariant.Device.all.first(where: { $0.name == name })
                    else {
                        throw StudioError("unknown device '\(name)'")
                    }
                    settings.append(("width", JSONValue.format(device.size.width)))
                    settings.append(("height", JSONValue.format(device.size.height)))
                default: throw StudioError("bad setting '\(key)'")
                }
            }
        }
        self.settings = settings
    }

    /// The Lua that makes the screen.
    var lua: String {
        let list = "{ " + items.map { "\"\($0)\"" }.joined(separator: ", ") + " }"
        let options = (settings + [("record", "true")]).map { "\($0.0) = \($0.1)" }.joined(separator: ", ")
        var lines = ["local screen = stackplay.screen { \(options) }"]
        let height = Double(settings.first { $0.0 == "height" }.map { Double($0.1) ?? 844 } ?? 844)
        let share = (height / Double(kinds.count)).rounded(.down)
        for (index, kind) in kinds.enumerated() {
            var fields = ["items = \(list)"]
            if kind == ComponentKind.notificationStack.rawValue {
                fields.append("dismissible = \(dismissible)")
            }
            if kinds.count > 1 {
                fields.append("y = \(JSONValue.format(share * Double(index)))")
                if kind != ComponentKind.notificationStack.rawValue {
                    fields.append("height = \(JSONValue.format(share - 8))")
                }
            }
            lines.append("screen:\(kind) { \(fields.joined(separator: ", ")) }")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Runs the Lua through `stackplay` and builds the live screen from its trace's header.
    func build(stackplay: String) throws(StudioError) -> LiveScreen {
        let folder = NSTemporaryDirectory() + "stackplay-studio-fresh-\(getpid())"
        try? FileManager.default.removeItem(atPath: folder)
        do {
            try FileManager.default.createDirectory(
                atPath: folder + "/traces", withIntermediateDirectories: true)
            try lua.write(toFile: folder + "/fresh.lua", atomically: true, encoding: .utf8)
        } catch { throw StudioError("cannot write the fresh screen's script: \(error.localizedDescription)") }
        let run = TestsPane.spawn(stackplay, ["--trace", folder + "/traces", folder + "/fresh.lua"])
        guard run.status == 0,
            let name = try? FileManager.default.contentsOfDirectory(atPath: folder + "/traces").first(where: {
                $0.hasSuffix(".jsonl")
            })
        else { throw StudioError("the fresh screen did not build:\n\(run.out)\(run.err)") }
        let trace: Trace
        do { trace = try Trace(contentsOf: folder + "/traces/" + name) } catch {
            throw StudioError("\(error)")
        }
        return try LiveScreen(trace: trace, events: nil, origin: "a fresh screen")
    }
}
