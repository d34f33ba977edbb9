/// What a crawl checked against a description of the API (`crawl --openapi`) reached of it:
/// how many of the document's operations answered at least once, and the ones that never did,
/// in document order (what the document promises and the crawl never found a way to).
///
/// ```swift
/// report.operationCoverage = OperationCoverage(total: 12, unreached: ["GET /movies/{id}/cast"])
/// // report.operationCoverage?.reached == 11
/// ```
public struct OperationCoverage: Sendable, Hashable {
    /// The document's operations.
    public var total: Int
    /// The operations no answer matched (`GET /movies/{id}/cast`), in document order.
    public var unreached: [String]

    /// Whether the text report lists every unreached operation (`--coverage`), not the first
    /// few; presentation only, not written to the JSON report (as ``CrawlReport/listsEveryCheck``).
    public var isListedInFull = false

    /// The operations some answer matched.
    public var reached: Int { max(0, total - unreached.count) }

    public init(total: Int, unreached: [String]) {
        self.total = total
        self.unreached = unreached
    }

    /// Shards (or runs) of one crawl merged: an operation is reached when any of them reached it.
    public static func merged(_ parts: [OperationCoverage]) -> OperationCoverage? {
        guard let first = parts.first else { return nil }
        var unreached = first.unreached
        for part in parts.dropFirst() {
            let other = Set(part.unreached)
            unreached.removeAll { !other.contains($0) }
        }
        return OperationCoverage(total: parts.map(\.total).max() ?? first.total, unreached: unreached)
    }
}
