/// The exit statuses: `EX_USAGE` (64) for usage errors, as sysexits.h and swift-argument-parser.
enum ExitCode {
    /// Every script passed (or `--help`, `--version`).
    static let success: Int32 = 0
    /// A script failed, errored or was stopped by a budget.
    static let failure: Int32 = 1
    /// An unknown option, a bad value, a missing file.
    static let usage: Int32 = 64
}
