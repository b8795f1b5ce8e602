import Bindings
import TestResults

/// A script with no code at all (nothing but blanks and comments) fails instead of passing as
/// one empty test: an empty file is a mistake (a save that did not happen, a wrong path).
enum EmptyScript {
    /// Whether `tests` is a whole file without tests whose text holds no Lua code.
    /// `scanned`: what a scan of the file found already (a lone file's), so it is not read again.
    static func isEmpty(_ tests: [TestCase], scanned: Bool? = nil) -> Bool {
        guard tests.count == 1, tests[0].index == 0 else { return false }
        if let scanned { return scanned }
        guard let source = Check.readFile(tests[0].file) else { return false }
        return LuaScan.tokenize(source).isEmpty
    }

    static func failure(_ test: TestCase) -> TestResult {
        var result = TestResult(
            test: test, status: .failed,
            message: "\(test.file): the script is empty: it defines no tests and runs no code\n"
                + "  To fix: add test(\"name\", function() ... end), or remove the file.",
            position: test.file)
        result.kind = .error
        return result
    }
}
