import APICheckJSON
import APICheckModel
import APICheckReport
import Foundation
import Logging

/// Walks a hypermedia API from its root and checks every link it advertises (FORMATS §5–§6).
///
/// Breadth-first, level by level: a level's URLs are fetched concurrently (at most
/// ``CrawlOptions/concurrency`` at once), then their links are read in discovery order, so the
/// report is the same whatever the concurrency. Every request draws on one ``CrawlBudget``
/// (request count, deadline, rate). Redirects are followed here, bounded and loop-checked, for
/// live and in-memory fetchers alike.
///
/// ```swift
/// let crawler = Crawler(fetcher: StubSetFetcher(stubs: stubs), options: CrawlOptions(root: root))
/// let report = await crawler.run()
/// ```
public struct Crawler: Sendable {
    public let fetcher: any CrawlFetcher
    public let options: CrawlOptions
    public let logger: Logger
    public var extractor = LinkExtractor()
    public var sniffer = BodySniffer()

    public init(fetcher: any CrawlFetcher, options: CrawlOptions, logger: Logger = Logger(label: "apicheck.crawl", factory: { _ in SwiftLogNoOpLogHandler() })) {
        self.fetcher = fetcher
        self.options = options
        self.logger = logger
    }

    /// Progress for a status line: resources fetched and queued, requests, the level being
    /// fetched, time so far, and how many responses failed so far (not 2xx, or no response).
    /// Defects are known at the end (rules run once everything is fetched).
    public struct Progress: Sendable {
        public var fetched: Int
        public var queued: Int
        public var requests: Int
        public var depth: Int
        public var elapsed: Duration = .zero
        public var failures: Int = 0

        /// Resources per second so far.
        public var rate: Double {
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            return seconds > 0 ? Double(fetched) / seconds : 0
        }
    }

    /// Crawls and returns the report. Never throws: an unreachable root or a broken API is in the
    /// report (its ``CrawlReport/exitCode`` tells 2 from 1).
    public func run(tool: ToolInfo = ToolInfo(version: "dev"), progress: (@Sendable (Progress) -> Void)? = nil) async -> CrawlReport {
        let startDate = Date()
        let start = ContinuousClock.now
        let budget = CrawlBudget(
            maximumRequests: options.maximumRequests, deadline: options.deadline, requestsPerSecond: options.requestsPerSecond,
            interruption: options.interruption)
        var frontier = CrawlFrontier(maximumDepth: options.maximumDepth)
        var records: [String: ResourceRecord] = [:]
        var discovered: [DiscoveredLink] = []
        var problems: [CrawlProblem] = []
        var fetchedCount = 0
        var failureCount = 0
        var sampler = CrawlSampler(size: options.sampleSize)

        _ = frontier.enqueue(options.root, depth: 0, relPath: [], referrer: nil)
        var depth = 0
        while !frontier.isEmpty, options.interruption?.signalNumber == nil {
            let level = frontier.takeLevel()
            let (fetchedBefore, levelDepth, failuresBefore) = (fetchedCount, depth, failureCount)
            let results = await fetchLevel(level, budget: budget) { done, failures in
                progress?(Progress(
                    fetched: fetchedBefore + done, queued: level.count - done, requests: budget.requestsMade, depth: levelDepth,
                    elapsed: ContinuousClock.now - start, failures: failuresBefore + failures))
            }
            fetchedCount += level.count
            failureCount += results.filter { !$0.isSuccess }.count
            for var record in results {
                defer {
                    record.extraction.links = ContractRules.linksForResourceRules(record.extraction.links)
                    records[record.entry.key] = record
                }
                for (index, link) in record.extraction.links.enumerated() {
                    let item = DiscoveredLink(link: link, referrer: record.entry, label: Self.label(of: link, among: record.extraction.links, at: index))
                    discovered.append(item)
                    guard link.method == "GET" || link.method == "HEAD",
                        case .url(let target) = link.resolve(with: options.variables),
                        // Most links lead somewhere already queued: skip parsing a URL for them.
                        !frontier.hasSeen(URLResolution.normalisedKey(target)),
                        let url = URL(string: target), options.isInScope(url)
                    else { continue }
                    let relPath = record.entry.relPath + [item.label]
                    let referrer = record.finalURL?.absoluteString ?? record.entry.url.absoluteString
                    if let skipped = sampler.admit(relPath) {
                        // Sampled out: remembered as seen and skipped, so every link to it says why.
                        let key = URLResolution.normalisedKey(target)
                        if frontier.markSeen(key) {
                            let entry = CrawlFrontier.Entry(key: key, url: url, depth: record.entry.depth + 1, relPath: relPath, rel: link.compactRel ?? link.rel, referrer: referrer)
                            records[key] = ResourceRecord(entry: entry, outcome: .skipped(skipped))
                        }
                        continue
                    }
                    _ = frontier.enqueue(url, depth: record.entry.depth + 1, relPath: relPath, rel: link.compactRel ?? link.rel, referrer: referrer)
                }
            }
            depth += 1
        }
        logger.debug("fetched \(fetchedCount) resources in \(budget.requestsMade) requests in \(ContinuousClock.now - start)")

        if let root = records[URLResolution.normalisedKey(options.root.absoluteString)] {
            switch root.outcome {
            case .failed(let reason):
                problems.append(CrawlProblem(message: "the root \(options.root.absoluteString) is unreachable: \(reason)", url: options.root.absoluteString))
            case .skipped(let reason):
                problems.append(CrawlProblem(message: "the root was not fetched: \(reason)", url: options.root.absoluteString))
            case .response(let status, _) where root.needsCredentials && !options.hasCredentials(for: options.root):
                problems.append(CrawlProblem(
                    message: "the root \(options.root.absoluteString) needs credentials (\(status), WWW-Authenticate: \(root.challenge ?? "")): pass them with --header 'Authorization: …' or --header-from-env",
                    url: options.root.absoluteString))
            case .response(let status, _) where !(200..<300).contains(status):
                problems.append(CrawlProblem(message: "the root \(options.root.absoluteString) answered \(status); nothing else could be discovered", url: options.root.absoluteString))
            case .response:
                break
            }
        }

        let methodChecks = await checkMethods(of: discovered, budget: budget)
        let evaluating = ContinuousClock.now
        var evaluation = ContractRules(options: options, records: records, methodChecks: methodChecks, sniffer: sniffer).evaluate(discovered)
        logger.debug("rules evaluated for \(discovered.count) links in \(ContinuousClock.now - evaluating)")
        // Everything the report needs is in the evaluation now: free the crawl's working set
        // before the report's own copies are made (the crawl's peak memory is here).
        let resourcesFetched = records.values.filter { $0.status != nil }.count
        discovered = []
        records = [:]
        if let reason = options.interruption?.reason {
            problems.append(CrawlProblem(message: "\(reason): the report covers what was checked before; links not reached are reported as skipped"))
        }
        if budget.remaining <= .zero {
            problems.append(CrawlProblem(message: "the crawl's deadline (\(options.deadline)) passed; links not reached are reported as skipped"))
        }
        if budget.requestsMade >= options.maximumRequests {
            evaluation.notes.append("the request limit (\(options.maximumRequests)) was reached; links not reached are reported as skipped")
        }
        for note in evaluation.notes { logger.notice("\(note)") }

        let assembling = ContinuousClock.now
        let redaction = options.redaction
        var report = CrawlReport(
            tool: tool, root: redaction.url(options.root.absoluteString), startTime: startDate, duration: ContinuousClock.now - start,
            shard: options.shard, configuration: options.rules,
            statistics: CrawlStatistics(resourcesFetched: resourcesFetched, requests: budget.requestsMade)
        )
        var checks = evaluation.checks
        evaluation.checks = []
        for index in checks.indices { checks[index] = redaction.check(checks[index]) }
        report.setChecks(consume checks)
        report.setFindings(options.rules.apply(to: evaluation.findings).map { redaction.finding($0) })
        report.setErrors(problems.map { CrawlProblem(message: redaction.text($0.message), url: $0.url.map(redaction.url)) })
        report.requestHeaderNames = options.headers.map(\.name)
        report.sampling = sampler.kinds
        logger.debug("report assembled in \(ContinuousClock.now - assembling)")
        return report
    }

    // MARK: Fetching

    /// Fetches a level with bounded concurrency; results keep the level's order.
    private func fetchLevel(_ level: [CrawlFrontier.Entry], budget: CrawlBudget, progress: @Sendable (Int, Int) -> Void) async -> [ResourceRecord] {
        var results = [ResourceRecord?](repeating: nil, count: level.count)
        await withTaskGroup(of: (Int, ResourceRecord).self) { group in
            var pending = level.indices.makeIterator()
            var done = 0
            var failures = 0
            for _ in 0..<max(1, options.concurrency) {
                guard let index = pending.next() else { break }
                let entry = level[index]
                group.addTask { (index, await self.fetchResource(entry, budget: budget)) }
            }
            while let (index, record) = await group.next() {
                results[index] = record
                done += 1
                if !record.isSuccess { failures += 1 }
                progress(done, failures)
                if let next = pending.next() {
                    let entry = level[next]
                    group.addTask { (next, await self.fetchResource(entry, budget: budget)) }
                }
            }
        }
        return results.compactMap { $0 }
    }

    private func fetchResource(_ entry: CrawlFrontier.Entry, budget: CrawlBudget) async -> ResourceRecord {
        let started = ContinuousClock.now
        var record = ResourceRecord(entry: entry, outcome: .skipped("not fetched"))
        let exchange = await send(FetchRequest(method: "GET", url: entry.url, headers: options.headers(for: entry.url)), budget: budget)
        record.duration = ContinuousClock.now - started
        switch exchange {
        case .skipped(let reason):
            record.outcome = .skipped(reason)
        case .failed(let reason):
            record.outcome = .failed(reason)
        case .response(let response, let finalURL):
            record.outcome = .response(status: response.status, finalURL: finalURL)
            record.contentType = response.headers.value(named: "Content-Type")
            if response.status == 401 || response.status == 403 { record.challenge = response.headers.value(named: "WWW-Authenticate") }
            record.bodyByteCount = response.body.count
            record.bodyWasTruncated = response.isTruncated
            let body = [UInt8](response.body)
            if let contentType = record.contentType, let served = try? MediaType(parsing: contentType), !response.isTruncated, !body.isEmpty {
                record.bodyVerdict = sniffer.check(body, against: served)
            }
            if (200..<300).contains(response.status), !response.isTruncated {
                record.extraction = extractor.extract(url: finalURL.absoluteString, headers: response.headers, body: body)
            }
        }
        return record
    }

    /// The outcome of one request after redirects and retries.
    enum Exchange: Sendable {
        case response(FetchedResponse, finalURL: URL)
        case failed(String)
        case skipped(String)
    }

    /// Sends `request`, following redirects (bounded, loop-checked, only inside the crawl's
    /// scope) and retrying 429/503 as `Retry-After` says.
    func send(_ request: FetchRequest, budget: CrawlBudget) async -> Exchange {
        var request = request
        var visited: Set<String> = [URLResolution.normalisedKey(request.url.absoluteString)]
        var redirects = 0
        var retries = 0
        while true {
            do {
                try await budget.acquire()
            } catch {
                return .skipped(error.reason)
            }
            let response: FetchedResponse
            do {
                let timeout = min(options.timeout, max(budget.remaining, .milliseconds(1)))
                response = try await fetcher.fetch(request, maximumBodyBytes: options.maximumBodyBytes, timeout: timeout)
            } catch {
                logger.debug("request failed", metadata: ["url": "\(options.redaction.url(request.url.absoluteString))", "error": "\(error)"])
                return .failed(error.description)
            }
            if [429, 503].contains(response.status), retries < options.maximumRetries {
                retries += 1
                let delay = min(Self.retryDelay(response.headers.value(named: "Retry-After"), attempt: retries), options.maximumRetryDelay)
                guard delay < budget.remaining else { return .response(response, finalURL: request.url) }
                try? await Task.sleep(for: delay)
                continue
            }
            guard [301, 302, 303, 307, 308].contains(response.status), let location = response.headers.value(named: "Location") else {
                return .response(response, finalURL: request.url)
            }
            guard let next = URLResolution.resolve(location, against: request.url.absoluteString).flatMap(URL.init(string:)) else {
                return .failed("the redirect's Location '\(location)' is not a URL")
            }
            redirects += 1
            guard redirects <= options.maximumRedirects else { return .failed("more than \(options.maximumRedirects) redirects") }
            guard visited.insert(URLResolution.normalisedKey(next.absoluteString)).inserted else {
                return .failed("a redirect loop at \(options.redaction.url(next.absoluteString))")
            }
            guard options.isInScope(next) else { return .skipped("redirects to another origin (\(options.redaction.url(next.absoluteString)))") }
            if response.status == 303 || ([301, 302].contains(response.status) && request.method == "POST") {
                request.method = "GET"
                request.body = Data()
            }
            // Credentials go to the origins they were given for, never where a redirect points.
            if !options.hasCredentials(for: next) {
                let crawlHeaders = Set(options.headers.map { $0.name.lowercased() })
                request.headers.removeAll { crawlHeaders.contains($0.name.lowercased()) }
            }
            request.url = next
        }
    }

    /// `Retry-After` as seconds or an HTTP date; without one, exponential back-off from 0.5 s.
    static func retryDelay(_ value: String?, attempt: Int) -> Duration {
        if let value = value?.trimmingCharacters(in: .whitespaces) {
            if let seconds = Int(value), seconds >= 0 { return .seconds(seconds) }
            if let date = HTTPDate.parse(value) {
                let seconds = max(0, date.timeIntervalSinceNow)
                return .milliseconds(Int64(seconds * 1000))
            }
        }
        return .milliseconds(500 << min(attempt - 1, 6))
    }

    // MARK: Unsafe methods

    /// `method-valid` evidence for every non-GET link, one request per method and URL.
    private func checkMethods(of links: [DiscoveredLink], budget: CrawlBudget) async -> [MethodCheckKey: MethodCheck] {
        var wanted: [MethodCheckKey: (FetchRequest, missing: [String])] = [:]
        var order: [MethodCheckKey] = []
        for item in links where !HTTPMethodToken.safe.contains(item.link.method) {
            guard HTTPMethodToken.problem(with: item.link.method, allowedVendorTokens: options.allowedMethodTokens) == nil,
                HTTPMethodToken.standard.contains(item.link.method),
                case .url(let target) = item.link.resolve(with: options.variables), let url = URL(string: target), options.isInScope(url)
            else { continue }
            let body = UnsafeRequestBody.make(for: item.link, variables: options.variables)
            let key = MethodCheckKey(method: item.link.method, url: URLResolution.normalisedKey(target), body: body.data)
            guard wanted[key] == nil else { continue }
            var headers = options.headers(for: url)
            if let contentType = body.contentType { headers.append(HTTPHeader(name: "Content-Type", value: contentType)) }
            wanted[key] = (FetchRequest(method: item.link.method, url: url, headers: headers, body: body.data), body.missingVariables)
            order.append(key)
        }
        var checks: [MethodCheckKey: MethodCheck] = [:]
        let requests = order.compactMap { key in wanted[key].map { (key, $0.0, $0.missing) } }
        await withTaskGroup(of: (MethodCheckKey, MethodCheck).self) { group in
            var pending = requests.makeIterator()
            for _ in 0..<max(1, options.concurrency) {
                guard let (key, request, missing) = pending.next() else { break }
                group.addTask { (key, await self.checkMethod(request, missingVariables: missing, budget: budget)) }
            }
            while let (key, check) = await group.next() {
                checks[key] = check
                if let (key, request, missing) = pending.next() {
                    group.addTask { (key, await self.checkMethod(request, missingVariables: missing, budget: budget)) }
                }
            }
        }
        return checks
    }

    private func checkMethod(_ request: FetchRequest, missingVariables: [String], budget: CrawlBudget) async -> MethodCheck {
        if options.unsafe, !missingVariables.isEmpty {
            return .needsVariables(missingVariables)
        }
        if options.unsafe {
            switch await send(request, budget: budget) {
            case .response(let response, _):
                return .sent(status: response.status, contentType: response.headers.value(named: "Content-Type"))
            case .failed(let reason):
                return .failed(reason)
            case .skipped(let reason):
                return .skipped(reason)
            }
        }
        if let answer = fetcher.stubAnswers(request, ignoringBody: !missingVariables.isEmpty) {
            switch answer {
            case .answered(let stub): return .stubbed(stub)
            case .unanswered(let explanation): return .noStub(explanation)
            }
        }
        // A live API without --unsafe: ask OPTIONS, never send the method itself.
        var probe = request
        probe.method = "OPTIONS"
        probe.body = Data()
        probe.headers.removeAll { $0.name.caseInsensitiveEquals("Content-Type") }
        switch await send(probe, budget: budget) {
        case .response(let response, _):
            guard (200..<300).contains(response.status), let allow = response.headers.value(named: "Allow") else {
                return .unverified("OPTIONS answered \(response.status) without an Allow header")
            }
            let allowed = allow.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            return .allowHeader(allowed, allows: allowed.contains(request.method))
        case .failed(let reason):
            return .unverified("OPTIONS failed: \(reason)")
        case .skipped(let reason):
            return .skipped(reason)
        }
    }

    // MARK: Labels

    /// How a link reads in a rel path: its rel, prefixed by the nested resource that carries it
    /// (`movies[3].poster`), and numbered when the same rel repeats in one place (`item[2]`).
    static func label(of link: Link, among links: [Link], at index: Int) -> String {
        let rel = link.compactRel ?? link.rel
        var prefix = ""
        if link.isNested, !link.owner.isEmpty {
            var parts: [String] = []
            for token in link.owner.split(separator: "/").map(String.init) where !["_embedded", "_links", "links", "entities"].contains(token) {
                if token.allSatisfy(\.isNumber), let last = parts.popLast() {
                    parts.append("\(last)[\(token)]")
                } else {
                    parts.append(token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~"))
                }
            }
            if !parts.isEmpty { prefix = parts.joined(separator: ".") + "." }
        }
        let siblings = links.indices.filter { links[$0].rel == link.rel && links[$0].owner == link.owner }
        if siblings.count > 1, let position = siblings.firstIndex(of: index) {
            return "\(prefix)\(rel)[\(position)]"
        }
        return prefix + rel
    }
}

/// A link as found, with the resource that carried it.
struct DiscoveredLink: Sendable {
    var link: Link
    var referrer: CrawlFrontier.Entry
    /// This link's step in a rel path.
    var label: String

    var relPath: [String] { referrer.relPath + [label] }
}

struct MethodCheckKey: Hashable, Sendable {
    var method: String
    var url: String
    var body: Data
}

/// What is known about an unsafe link's method.
enum MethodCheck: Sendable {
    /// Sent (`--unsafe`): the answer's status and type.
    case sent(status: Int, contentType: String?)
    /// A stub answers it (in-memory crawl).
    case stubbed(String)
    /// No stub answers it; the near-miss explanation.
    case noStub(String)
    /// `OPTIONS` listed the allowed methods.
    case allowHeader([String], allows: Bool)
    /// The server could not tell (no `Allow`); not a finding, reported as not checked.
    case unverified(String)
    /// Not sent: the body's placeholders need `--var` values.
    case needsVariables([String])
    case failed(String)
    case skipped(String)
}
