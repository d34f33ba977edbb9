import APICheckModel
import APICheckReport
import Foundation

/// `verify --coverage`: the kinds of resource a crawl of the live API reached that no stub
/// answers. A kind is the rel path from the root with indices stripped (``RelPath/shape(_:)``,
/// as `--sample` counts them), so a thousand orders are one kind, covered when a stub answers
/// any of them.
public enum StubCoverage {
    /// A kind of resource no stub answers.
    public struct Gap: Sendable, Hashable {
        /// `root → orders[*] → invoice`.
        public var kind: String
        /// The first resource of the kind the crawl reached (its check: method, URL, rel path).
        public var example: CheckedLink
        /// How many resources of the kind the crawl reached.
        public var count: Int
    }

    /// The kinds of resource that `crawl` (of the live API at `origin`) reached and no stub in
    /// `stubs` answers, in the crawl's report order. A resource's kind is the shape of the
    /// shortest rel path that reached it (where breadth-first crawling first found it; `self`
    /// and `up` links back to it add no kind). Only resources that answered (2xx or 3xx) count:
    /// a broken link is the crawl's finding, not a gap in the stubs. A stub answers when method,
    /// path and query match; header and body constraints are set aside, since a crawl's request
    /// is not the app's.
    public static func gaps(of stubs: StubSet, in crawl: CrawlReport, origin: String) -> [Gap] {
        var firstReach: [String: CheckedLink] = [:]
        var order: [String] = []
        for check in crawl.checks where check.outcome.wasChecked && (200..<400).contains(check.statusCode ?? 0) && check.url.hasPrefix(origin) {
            let resource = check.method + " " + check.url
            if let known = firstReach[resource] {
                if (check.relPath.count, RelPath.describe(check.relPath)) < (known.relPath.count, RelPath.describe(known.relPath)) {
                    firstReach[resource] = check
                }
            } else {
                order.append(resource)
                firstReach[resource] = check
            }
        }
        var kinds: [String] = []
        var byKind: [String: (example: CheckedLink, count: Int, covered: Bool)] = [:]
        for resource in order {
            guard let check = firstReach[resource], let url = URL(string: check.url) else { continue }
            let kind = RelPath.shape(check.relPath)
            let covered = answers(stubs, StubRequest(method: check.method, url: url))
            if var known = byKind[kind] {
                known.count += 1
                known.covered = known.covered || covered
                byKind[kind] = known
            } else {
                kinds.append(kind)
                byKind[kind] = (check, 1, covered)
            }
        }
        return kinds.compactMap { kind in
            guard let entry = byKind[kind], !entry.covered else { return nil }
            return Gap(kind: kind, example: entry.example, count: entry.count)
        }
    }

    /// One `drift-coverage` finding per gap.
    public static func findings(for gaps: [Gap]) -> [Finding] {
        gaps.map { gap in
            Finding(
                rule: .driftCoverage, method: gap.example.method, url: gap.example.url, rel: gap.example.rel, relPath: gap.example.relPath,
                referrer: gap.example.referrer,
                message: "no stub answers \(gap.kind) (\(gap.count) \(gap.count == 1 ? "resource" : "resources") live)")
        }
    }

    /// Whether a stub answers `request` on method, path and query.
    static func answers(_ stubs: StubSet, _ request: StubRequest) -> Bool {
        switch stubs.match(request) {
        case .matched: return true
        case .unmatched(let report):
            return report.nearMisses.contains { miss in
                miss.differences.allSatisfy { difference in
                    switch difference {
                    case .method, .path, .query: false
                    case .header, .body, .origin, .scenario, .condition: true
                    }
                }
            }
        }
    }
}
