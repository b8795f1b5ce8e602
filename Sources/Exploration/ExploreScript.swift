import StackModel

/// A shrunk run as an ordinary stackplay scenario: the exploration file copied in (its
/// `explore(...)` calls only keep the spec), then one test that makes the screen with the
/// file's setup, takes the shrunk steps and checks the invariant that broke. `stackplay FILE`
/// fails on it the same way.
public enum ExploreScript {
    /// One step of the shrunk run as the report and the scenario show it.
    public struct Step: Sendable {
        public var action: ExploreAction
        /// What a touch landed on (`notifications card:calendar`), if anything.
        public var hit: String?
        /// The frame after the step, one line a component.
        public var frame: [String]

        public init(action: ExploreAction, hit: String?, frame: [String]) {
            self.action = action
            self.hit = hit
            self.frame = frame
        }
    }

    /// The scenario's text. `command` is how the run was found (`stackplay explore x.lua --seed 3`).
    public static func text(
        exploration: String, file: String, source: String, command: String, run: Int, originalSteps: Int,
        steps: [Step], failure: ExploreFailure, builtin: Bool
    ) -> String {
        var out = """
            -- Found by `\(luaComment(command))`: exploration \(luaString(exploration)), run \(run);
            -- \(originalSteps) steps shrunk to \(steps.count). It fails the invariant \(luaString(failure.invariant)):
            --   \(luaComment(firstLine(failure.message)))
            -- The exploration file follows as it was explored; here its explore(...) calls only keep the spec.
            local explorations = {}
            local function explore(name, spec) explorations[name] = spec end

            do -- \(luaComment(file)) \(String(repeating: "-", count: max(0, 90 - file.count)))

            """
        // A first line `#!/usr/bin/env stackplay` is skipped by Lua only at the top of a chunk:
        // inside `do ... end` it is a comment.
        let body = source.hasPrefix("#") ? "--" + source : source
        out += body.hasSuffix("\n") ? body : body + "\n"
        out += "end -- \(String(repeating: "-", count: 94))\n"
        let header = out
        out = "\n"
        let title =
            "\(exploration): \(failure.invariant) breaks after \(steps.count) step\(steps.count == 1 ? "" : "s")"
        out += "test(\(luaString(title)), function()\n"
        out += "  local spec = explorations[\(luaString(exploration))]\n"
        out += "  local screen = spec.setup()\n"
        let fingers = Set(
            steps.compactMap { step -> Int? in
                if case .touchDown(let finger, _) = step.action { return finger }
                return nil
            })
        if !fingers.isEmpty {
            out += "  local " + fingers.sorted().map { "f\($0)" }.joined(separator: ", ") + "\n"
        }
        for (index, step) in steps.enumerated() {
            var line = "  " + step.action.lua
            if case .custom = step.action {
                line = "  act(spec, screen, \(luaString(step.action.family)), \(customArgument(step.action)))"
            }
            let note = "-- \(index + 1)." + (step.hit.map { " lands on \(luaComment($0))" } ?? "")
            out += line + "  " + note + "\n"
        }
        if failure.invariant == BuiltinInvariant.mirror.name {
            out +=
                "  -- 'mirror': run this file with `stackplay --mirror`, which compares the mirrored run with"
                + " this one, frame by frame\n"
        } else if failure.invariant == BuiltinInvariant.replay.name {
            // A run through the Lua API cannot see its own replay: the trace beside this file can.
            out +=
                "  -- 'replay': these steps pass here; the trace written beside this file is what does not"
                + " replay: stackplay replay it\n"
        } else if failure.invariant == BuiltinInvariant.luaAPI.name {
            // This test is the Lua side; the Swift side it differs from is the explorer's own run.
            out +=
                "  -- '\(BuiltinInvariant.luaAPI.name)': these steps pass here; the explorer took them through"
                + " the Swift API too and"
                + " ended in another frame (the report shows its frames)\n"
        } else if builtin {
            out += "  check_builtin(screen, \(luaString(failure.invariant)))\n"
        } else if failure.invariant.hasPrefix("action '") {
            out +=
                "  -- the last step raised: \(luaComment(firstLine(failure.message)))\n"
        } else {
            out += "  local holds, why = spec.invariants[\(luaString(failure.invariant))](screen)\n"
            // a reason whose __tostring raises or yields is shown as a value, as the explorer shows it
            out += "  local shown, reason = pcall(tostring, why)\n"
            out +=
                "  if not shown then reason = stackplay.show(why) .. \" (its __tostring raised: \" .. tostring(reason) .. \")\" end\n"
            out +=
                "  expect(holds ~= false, \(luaString("the invariant '\(failure.invariant)' holds after step \(steps.count)"))"
                + " .. (why ~= nil and (\": \" .. reason) or \"\")):to_be_truthy()\n"
        }
        out += "end)\n"
        var helpers = ""
        if steps.contains(where: { if case .custom = $0.action { return true } else { return false } }) {
            helpers += """

                --- Runs the file's action `name` as the explorer did.
                local function act(spec, screen, name, n)
                  local action = spec.actions[name]
                  if type(action) == "table" then action = action.run end
                  return action(screen, n)
                end

                """
        }
        if builtin { helpers += builtinChecks }
        // The helpers go before the test that calls them.
        return header + helpers + out
    }

    /// `actions` as a Lua chunk taking `screen, act`: what the Lua-API invariant runs.
    public static func chunk(_ actions: [ExploreAction]) -> String {
        var out = "local screen, act = ...\nlocal f1, f2, f3\n"
        for action in actions {
            if case .custom(let name, let argument) = action {
                out += "act(screen, \(luaString(name)), \(argument))\n"
            } else {
                out += action.lua + "\n"
            }
        }
        return out
    }

    /// The first line of `text` ("" for none).
    private static func firstLine(_ text: String) -> String {
        text.split(separator: "\n").first.map(String.init) ?? ""
    }

    private static func customArgument(_ action: ExploreAction) -> Int {
        if case .custom(_, let argument) = action { return argument }
        return 0
    }

    /// The built-in invariants that a scenario can check through the Lua API (`settles` fails
    /// at the `screen:settle()` step itself; `replay` is checked by `stackplay replay` on the
    /// trace written beside the scenario).
    static let builtinChecks = """

        --- The explorer's built-in invariant `name`, through the Lua API.
        local function check_builtin(screen, name)
          local elements = {}
          for _, c in ipairs(screen:snapshot().components) do -- hidden elements too (W10)
            for _, e in ipairs(screen:component(c.name):accessibility()) do elements[c.name .. "/" .. e.id] = e end
          end
          for _, c in ipairs(screen:snapshot().components) do
            local seen = {}
            for _, card in ipairs(c.cards) do
              local where = c.name .. " card " .. tostring(card.id)
              if name == "finite" then
                for _, key in ipairs { "x", "y", "width", "height", "scale", "opacity", "z" } do
                  expect(card[key] == card[key] and card[key] ~= math.huge and card[key] ~= -math.huge,
                    where .. "." .. key .. " is finite"):to_be_truthy()
                end
              elseif name == "opacity" then
                expect(card.opacity, where .. " opacity"):to_be_between(0, 1)
              elseif name == "unique_ids" then
                expect(seen[card.id], where .. " is the only card with its id"):to_be_nil()
                seen[card.id] = true
              elseif name == "hittable_visible" and card.hittable then
                expect(card.opacity > 0 and card.width > 0 and card.height > 0, where .. " is hittable, so drawn")
                  :to_be_truthy()
              elseif name == "accessibility" and card.visible then
                local e = elements[c.name .. "/card:" .. tostring(card.id)]
                local named = e ~= nil and e.label ~= ""
                for key, g in pairs(elements) do
                  -- Lua lists the elements VoiceOver reads: the others are hidden on purpose
                  -- while one is selected (the wallet's pile, W10).
                  if key:sub(1, #c.name + 1) == c.name .. "/" then
                    for _, trait in ipairs(g.traits) do if trait == "selected" then named = true end end
                  end
                  local f = g.frame
                  if key:sub(1, #c.name + 1) == c.name .. "/" and not g.id:find("^card:") and g.label ~= "" and not g.hidden
                    and f.x < card.x + card.width and card.x < f.x + f.width
                    and f.y < card.y + card.height and card.y < f.y + f.height then named = true end
                end
                expect(named, where .. " is visible, so VoiceOver reads it"):to_be_truthy()
              end
            end
          end
        end

        """

    /// A frame as the report shows it: a line a component, its state, then each card's place.
    public static func frameLines(_ frame: FrameSnapshot) -> [String] {
        frame.components.map { component in
            let state = component.state.compactMap { entry -> String? in
                if case .strings = entry.value { return nil }
                return "\(entry.name) \(entry.value)"
            }.prefix(6).joined(separator: ", ")
            let cards = component.cards.prefix(8).map { card in
                "\(card.id) (\(formatNumber((card.frame.x * 10).rounded() / 10)), \(formatNumber((card.frame.y * 10).rounded() / 10)))"
                    + (card.opacity < 1 ? " α\(formatNumber((card.opacity * 100).rounded() / 100))" : "")
                    + (card.isVisible ? "" : " hidden")
            }.joined(separator: " ")
            let more = component.cards.count > 8 ? " +\(component.cards.count - 8)" : ""
            return "\(component.name): \(state) | \(cards.isEmpty ? "no cards" : cards)\(more)"
        }
    }
}
