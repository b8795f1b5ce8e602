import CSystemCalls

/// Where a forked worker starts: at once on another CPU, rather than queued behind its parent on
/// the parent's (cores.c).
public enum Cores {
    /// From the parent, right after fork(): `child` starts on another CPU than the parent's, when
    /// there is one; it may run anywhere again once it calls ``runAnywhere()``.
    @discardableResult
    public static func startElsewhere(_ child: Int32) -> Bool { stackplay_start_elsewhere(child) == 1 }

    /// In the child, once it runs (its first request read: the parent moved it before sending it):
    /// it may run on every CPU its parent may.
    public static func runAnywhere() { stackplay_run_anywhere() }
}
