/// StackModel: headless models of the three SwiftUI card-stack seeds. Pure Swift, no Lua.
public enum StackModelInfo {
    /// The version of the model, written into traces.
    public static let version = "0.1.0"
}
