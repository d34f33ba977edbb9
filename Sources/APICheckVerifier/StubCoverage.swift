import APICheckCrawler
import APICheckFindings
import APICheckHypermedia
import APICheckModel
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
    /// `stubs` answers, in the crawl's report order.
    ///
    /// Every link the crawl checked reaches a resource by a kind (its rel path's shape); one
    /// resource is often reached by several (`root → featured` and `root → items → item[*]`). A
    /// kind is covered when a stub answers any resource it reaches, and listed as a gap only if it
    /// is also the kind by which the crawl first reached some resource (the shortest rel path):
    /// `self` and `up` links back to known resources add no kinds of their own. Only resources
    /// that answered (2xx or 3xx) count: a broken link is the crawl's finding, not a gap in the
    /// stubs. A stub answers when method, path and query match; header and body constraints are
    /// set aside, since a crawl's request is not the app's.
    public static func gaps(of stubs: StubSet, in crawl: CrawlReport, origin: String) -> [Gap] {
        struct Kind {
            var example: CheckedLink
            var resources: Set<String> = []
            var covered = false
            var reachesFirst = false
        }
        // Routes: the stubs with what a crawl cannot know of the app's request set aside; matched
        // by the one matcher (not guessed from near misses).
        let routes = StubSet(stubs.stubs.map { stub in
            var route = stub
            route.request.headers = []
            route.request.body = []
            route.request.origin = nil
            return route
        })
        var kinds: [String: Kind] = [:]
        var order: [String] = []
        var firstReach: [String: CheckedLink] = [:]
        var answered: [String: Bool] = [:]
        for check in crawl.checks where check.outcome.wasChecked && (200..<400).contains(check.statusCode ?? 0) {
            guard let url = URL(string: check.url), OriginRewriter.origin(of: url) == origin else { continue }
            let resource = check.method + " " + check.url
            let covered = answered[resource] ?? answers(routes, StubRequest(method: check.method, url: url))
            answered[resource] = covered
            let shape = RelPath.shape(check.relPath)
            if kinds[shape] == nil {
                order.append(shape)
                kinds[shape] = Kind(example: check)
            }
            kinds[shape]?.resources.insert(resource)
            if covered { kinds[shape]?.covered = true }
            if let known = firstReach[resource],
                (known.relPath.count, RelPath.describe(known.relPath)) <= (check.relPath.count, RelPath.describe(check.relPath))
            {
                continue
            }
            firstReach[resource] = check
        }
        for check in firstReach.values { kinds[RelPath.shape(check.relPath)]?.reachesFirst = true }
        return order.compactMap { shape in
            guard let kind = kinds[shape], kind.reachesFirst, !kind.covered else { return nil }
            return Gap(kind: shape, example: kind.example, count: kind.resources.count)
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

    /// Whether a route answers `request` (on method, path and query; any scenario competes).
    static func answers(_ routes: StubSet, _ request: StubRequest) -> Bool {
        if case .matched = routes.match(request) { return true }
        return false
    }
}
