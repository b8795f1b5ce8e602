@testable import StackModel

/// Whether two numbers agree to `tolerance`: layout arithmetic in a different order can differ in
/// the last bits.
func isClose(_ a: Double, _ b: Double, tolerance: Double = 1e-9) -> Bool {
    abs(a - b) <= tolerance
}

/// Cards with ids `c0`, `c1`, … and labels "Card 0", "Card 1", …, each `height` high.
func makeCards(_ count: Int, height: Double) -> [CardSpec] {
    (0..<count).map { CardSpec(id: "c\($0)", height: height, label: "Card \($0)") }
}

extension Screen {
    /// The snapshot of the component called `name`.
    func snapshot(of name: String) -> ComponentSnapshot? {
        snapshot().components.first { $0.name == name }
    }
}
