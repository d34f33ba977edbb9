import APICheckCrawler
import APICheckFindings
import APICheckHypermedia
import APICheckJSON
import APICheckModel
import APICheckProbe
import Foundation

/// `probe`: what `apicheck probe` makes of one crawled answer, from its bytes to the requests it
/// would send, without sending any. The first byte picks the media type (as `links` does) and the
/// budget; the rest is the body. The links extracted, the affordances collected (forms with their
/// constraints, Collection+JSON templates, JSON:API collections, templated reads) and the plan
/// come from hostile input.
///
/// Invariants: every planned request goes to the root's origin; no affordance plans more requests
/// than its budget; every body a case would send is bounded; rendering the plan never traps; the
/// same input plans the same requests; shrinking the first body ends within its attempts.
enum ProbeFuzzer {
    static let root = "http://api.example.test/"
    static let base = "http://api.example.test/v1/things"
    /// Larger than any body the catalog makes from a bounded form (10,000-character strings,
    /// 64 levels of nesting, a few fields): a hostile bound must not make it larger.
    static let maximumBodyBytes = 1 << 20

    static func run(_ data: [UInt8]) {
        var input = FuzzInput(data)
        let selector = input.byte()
        let contentType = LinkFuzzer.mediaTypes[Int(selector & 0x0F)] ?? "application/json"
        let budget = 1 + Int(selector >> 4)
        let body = Array(input.rest)
        let first = plan(body, contentType: contentType, budget: budget)
        let second = plan(body, contentType: contentType, budget: budget)
        FuzzCheck.require(labels(first) == labels(second), "the plan is not deterministic")
        _ = ProbePlanText.render(first, root: root, seed: 1, unsafe: true, listsEveryRequest: true)
        for entry in first.entries {
            FuzzCheck.require(entry.requests.count <= budget, "\(entry.affordance.name) plans \(entry.requests.count) requests for a budget of \(budget)")
            for request in entry.requests {
                FuzzCheck.require(isOnRootOrigin(request.url), "a probe leaves the root's origin: \(request.url)")
                if let probeCase = request.probeCase, let caseBody = probeCase.body {
                    let size = JSONWriter().string(caseBody).utf8.count
                    FuzzCheck.require(size <= maximumBodyBytes, "\(probeCase.label) sends \(size) bytes")
                }
            }
        }
        shrinkFirstBody(first)
    }

    /// The root's scheme, host and port (80, written or not), read from the text.
    static func isOnRootOrigin(_ url: String) -> Bool {
        let prefix = "http://api.example.test"
        guard url.lowercased().hasPrefix(prefix) else { return false }
        let rest = url.dropFirst(prefix.count)
        return rest.isEmpty || ["/", "?", "#", ":80/", ":80?", ":80#"].contains { rest.hasPrefix($0) } || rest == ":80"
    }

    private static func plan(_ body: [UInt8], contentType: String, budget: Int) -> ProbePlan {
        let limits = LinkExtractor.Limits(maximumLinks: 64, maximumNotes: 16, maximumDepth: 32, maximumBodyBytes: 1 << 16, maximumHeaderBytes: 1024)
        let extraction = LinkExtractor(limits: limits).extract(url: base, contentType: contentType, body: body)
        let collector = AffordanceCollector(maximumAffordances: 32, maximumFetchedURLs: 256)
        let relPath: RelPath = ["things"]
        collector.crawled(CrawledResource(
            url: base, status: 200, contentType: contentType, relPath: relPath,
            links: extraction.links.map { ($0, relPath.appending($0.rel)) }, body: body))
        // The links' targets as fetched resources too: templates are inferred from them.
        for link in extraction.links.prefix(32) {
            guard let url = link.url else { continue }
            collector.crawled(CrawledResource(url: url, status: 200, contentType: nil, relPath: relPath.appending(link.rel), links: [], body: nil))
        }
        let options = ProbeOptions(root: URL(string: root)!, unsafe: true, seed: 1, budgetPerAffordance: budget)
        return ProbePlanner(options: options).plan(writes: collector.writes, reads: collector.reads, fetched: collector.fetched)
    }

    private static func labels(_ plan: ProbePlan) -> [String] {
        plan.entries.flatMap { entry in entry.requests.map { "\(entry.affordance.name) \($0.method) \($0.url) \($0.label)" } }
    }

    /// Shrinks the first planned body against a predicate that keeps any object with more than
    /// one member: it must end within its attempts and return a body the predicate accepted.
    private static func shrinkFirstBody(_ plan: ProbePlan) {
        guard let body = plan.entries.lazy.flatMap(\.requests).compactMap({ $0.probeCase?.body }).first else { return }
        let attempts = 16
        let counter = Counter()
        let semaphore = DispatchSemaphore(value: 0)
        Task {
            let result = await ProbeShrinker.shrink(body, maximumAttempts: attempts) { candidate in
                counter.add()
                if case .object(let members) = candidate { return members.count > 1 }
                return false
            }
            FuzzCheck.require(result.attempts <= attempts && counter.value <= attempts, "shrinking took \(counter.value) attempts")
            semaphore.signal()
        }
        semaphore.wait()
    }

    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        var value: Int { lock.withLock { count } }
        func add() { lock.withLock { count += 1 } }
    }
}
