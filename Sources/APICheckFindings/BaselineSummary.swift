import APICheckModel

/// What applying a baseline did to a report.
public struct BaselineSummary: Sendable, Hashable {
    /// Findings suppressed because the baseline knows them.
    public var suppressed: Int
    /// Baseline entries that matched no finding: candidates for removal. Only meaningful for a
    /// whole crawl (apply the baseline after merging shards).
    public var stale: [Baseline.Entry]

    /// A summary; `stale` is sorted like a baseline.
    public init(suppressed: Int, stale: [Baseline.Entry]) {
        self.suppressed = suppressed
        self.stale = stale.sorted(by: Baseline.Entry.precedes)
    }
}
