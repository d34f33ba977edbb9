import APICheckFindings
import APICheckHypermedia
import APICheckJSON
import APICheckModel
import APICheckSpool
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
        // The crawl's own limits are the extractor's: what it drops is reported (`crawl-limit`).
        extractor.limits.maximumLinks = options.maximumLinksPerResponse
        extractor.limits.maximumBodyBytes = max(extractor.limits.maximumBodyBytes, options.maximumBodyBytes)
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
    ///
    /// Memory stays flat as the API grows: per URL the crawl keeps a fixed-size key and a small
    /// summary (``ResourceIndex``); links wait for their target's answer in a ``SpillQueue`` (on
    /// disk beyond a run), in discovery order, which is report order; at the end each is completed
    /// from its target's summary, counted, and listed when a person has to look at it.
    public func run(tool: ToolInfo = ToolInfo(version: "dev"), progress: (@Sendable (Progress) -> Void)? = nil) async -> CrawlReport {
        let startDate = Date()
        let start = ContinuousClock.now
        let budget = CrawlBudget(
            maximumRequests: options.maximumRequests, deadline: options.deadline, requestsPerSecond: options.requestsPerSecond,
            interruption: options.interruption)
        let spoolDirectory = SpoolDirectory(parent: options.spooling.directory)
        var state = CrawlState(
            options: options, rules: ContractRules(options: options),
            pending: SpillQueue(directory: spoolDirectory, memoryLimit: options.spooling.runLength))
        let discovery = options.discoversProfiles ? ProfileDiscovery(maximumSchemas: options.maximumDiscoveredSchemas, options: options.schemaOptions) : nil
        var frontier = CrawlFrontier(maximumDepth: options.maximumDepth, directory: spoolDirectory, entriesInMemory: options.spooling.runLength)
        var problems: [CrawlProblem] = []
        var failureCount = 0

        let rootURL = options.root.absoluteString
        _ = frontier.enqueue(
            CrawlFrontier.Entry(key: URLKey(normalised: URLResolution.normalisedKey(rootURL)), url: rootURL, depth: 0, pathNode: RelPathTree.root),
            index: &state.index)
        var depth = 0
        while !frontier.isEmpty, options.interruption?.signalNumber == nil {
            var level = frontier.takeLevel()
            let levelCount = level.count
            let (fetchedBefore, levelDepth, failuresBefore) = (state.resourcesConsumed, depth, failureCount)
            await fetchLevel(&level, budget: budget, discovery: discovery) { record in
                if !record.isSuccess { failureCount += 1 }
                state.consume(record, into: &frontier)
                progress?(Progress(
                    fetched: state.resourcesConsumed, queued: levelCount - (state.resourcesConsumed - fetchedBefore), requests: budget.requestsMade,
                    depth: levelDepth, elapsed: ContinuousClock.now - start, failures: failuresBefore + (failureCount - failuresBefore)))
            }
            if let failure = level.failure { problems.append(CrawlProblem(message: "the crawl is incomplete: \(failure)")) }
            logger.debug("level \(depth): \(levelCount) resources; \(state.index.count) URLs known, \(frontier.count) queued, in \(ContinuousClock.now - start)")
            depth += 1
        }
        if let failure = frontier.failure { problems.append(CrawlProblem(message: "the crawl is incomplete: \(failure)")) }
        logger.debug("fetched \(state.resourcesConsumed) resources in \(budget.requestsMade) requests in \(ContinuousClock.now - start)")

        let methodChecks = await checkMethods(state.methodRequests, budget: budget)
        let builder = CrawlReportBuilder(options: options, tool: tool, startDate: startDate, start: start, logger: logger)
        return builder.report(from: state, methodChecks: methodChecks, budget: budget, problems: problems, directory: spoolDirectory)
    }

    // MARK: Fetching

    /// Fetches a level with bounded concurrency and hands each result to `consume` in the
    /// level's order. Results that finish early wait for the ones before them, but at most a
    /// window of them: fetching pauses rather than hold a level's worth of bodies.
    private func fetchLevel(
        _ level: inout SpillQueue<CrawlFrontier.Entry>.Drain, budget: CrawlBudget, discovery: ProfileDiscovery?, consume: (ResourceRecord) -> Void
    ) async {
        await withTaskGroup(of: (Int, ResourceRecord).self) { group in
            var window = LevelWindow<ResourceRecord>(concurrency: options.concurrency)
            func startMore() {
                while window.canStart, let entry = level.next() {
                    let position = window.start()
                    group.addTask { (position, await self.fetchResource(entry, budget: budget, discovery: discovery)) }
                }
            }
            startMore()
            while let (position, record) = await group.next() {
                for ready in window.finish(position, record) { consume(ready) }
                startMore()
            }
        }
    }

    private func fetchResource(_ entry: CrawlFrontier.Entry, budget: CrawlBudget, discovery: ProfileDiscovery?) async -> ResourceRecord {
        let started = ContinuousClock.now
        var record = ResourceRecord(entry: entry, outcome: .skipped("not fetched"))
        guard let url = URL(string: entry.url) else {
            record.outcome = .failed("'\(entry.url)' is not a URL")
            return record
        }
        let exchange = await send(FetchRequest(method: "GET", url: url, headers: options.headers(for: url)), budget: budget)
        record.duration = ContinuousClock.now - started
        var successfulBody: [UInt8]?
        var contractViolations: [ContractViolation] = []
        var documentLinks: [Link] = []
        switch exchange {
        case .skipped(let reason):
            record.outcome = .skipped(reason)
        case .failed(let reason):
            record.outcome = .failed(reason)
        case .timedOut(let reason):
            record.outcome = .timedOut(reason)
        case .response(let response, let finalURL):
            record.outcome = .response(status: response.status, finalURL: finalURL)
            record.contentType = response.headers.value(named: "Content-Type")
            if response.status == 401 || response.status == 403 { record.challenge = response.headers.value(named: "WWW-Authenticate") }
            record.bodyByteCount = response.body.count
            record.bodyWasTruncated = response.isTruncated
            let body = [UInt8](response.body)
            // Links first: their JSON parse also tells the sniffer the body is JSON (one parse).
            if (200..<300).contains(response.status), !response.isTruncated {
                record.extraction = extractor.extract(url: finalURL.absoluteString, headers: response.headers, body: body)
            }
            if let contentType = record.contentType, let served = try? MediaType(parsing: contentType), !response.isTruncated, !body.isEmpty {
                let parsed = record.extraction.bodyParsedAsJSON && extractor.limits.maximumDepth <= sniffer.maximumJSONDepth
                record.bodyVerdict = sniffer.check(body, against: served, parsedAsJSON: parsed)
            }
            if (200..<300).contains(response.status), !response.isTruncated, !body.isEmpty { successfulBody = body }
            if options.observer != nil, (200..<300).contains(response.status), !response.isTruncated { record.observedBody = body }
            if let contract = options.contract {
                let answer = ContractAnswer(
                    method: "GET", url: finalURL, status: response.status, headers: response.headers, body: response.isTruncated ? nil : body,
                    isOnRootOrigin: OriginRewriter.origin(of: finalURL) == OriginRewriter.origin(of: options.root), requestHeaders: options.headers(for: url))
                let verdict = contract.verdict(on: answer)
                contractViolations = verdict.violations
                record.operation = verdict.operation
                documentLinks = verdict.links
            }
        }
        // The resource's own rules run here, in parallel; its rel path is filled in on consumption.
        let rules = ContractRules(options: options)
        record.findings = rules.evaluateResource(record, relPath: [])
        // After the resource's own rules (duplicate rels, self): these links are the document's.
        record.extraction.links += documentLinks
        var profileFindings: [Finding] = []
        if let successfulBody {
            profileFindings = await bodySchemaFindings(record, body: successfulBody, rules: rules, discovery: discovery, budget: budget)
        }
        // A place in the body that both the document and a profile reject is one finding, the
        // document's: it names the operation and status.
        let contractFindings = rules.contractFindings(contractViolations, record: record)
        let documentPlaces = Set(contractFindings.lazy.filter { $0.rule == .openAPIBody }.map { $0.sourcePointer ?? "" })
        record.findings += profileFindings.filter { $0.rule != .bodySchema || !documentPlaces.contains($0.sourcePointer ?? "") }
        record.findings += contractFindings
        record.extraction.notes = []
        return record
    }

    /// `body-schema` for one answer: the profile its served or declared type has, else the one
    /// it names (fetched once per crawl); none without a profile.
    private func bodySchemaFindings(
        _ record: ResourceRecord, body: [UInt8], rules: ContractRules, discovery: ProfileDiscovery?, budget: CrawlBudget
    ) async -> [Finding] {
        var profile = options.profiles.profile(served: record.contentType, declared: record.entry.declaredType)
        if profile == nil, let discovery, let named = ProfileDiscovery.namedSchema(
                contentType: record.contentType, links: record.extraction.links, declaredProfile: record.entry.declaredProfile)
        {
            if let configured = options.profiles.profile(uri: named) {
                profile = configured
            } else {
                switch await discovery.profile(at: named, fetch: { url in await self.fetchSchema(url, budget: budget) }) {
                case .profile(let found): profile = found
                case .ignored(let reason): logger.debug("no profile", metadata: ["url": "\(options.redaction.url(named))", "reason": "\(options.redaction.text(reason))"])
                case .unusable(let reason): return rules.bodySchemaProblem(reason, schema: named, record: record)
                }
            }
        }
        guard let profile else { return [] }
        let violations = BodySchemaRule.violations(of: body, profile: profile, maximumDepth: extractor.limits.maximumDepth)
        return rules.bodySchemaFindings(violations, profile: profile, record: record)
    }

    /// A schema document an answer names, fetched like a resource (credentials, budget, scope).
    private func fetchSchema(_ url: URL, budget: CrawlBudget) async -> (status: Int, contentType: String?, body: [UInt8], truncated: Bool)? {
        guard options.isInScope(url) else { return nil }
        let headers = options.headers(for: url) + [HTTPHeader(name: "Accept", value: "application/schema+json, application/json")]
        guard case .response(let response, _) = await send(FetchRequest(method: "GET", url: url, headers: headers), budget: budget) else { return nil }
        return (response.status, response.headers.value(named: "Content-Type"), [UInt8](response.body), response.isTruncated)
    }

    /// Why a link whose request the crawl's deadline cut short was not checked.
    static let deadlinePassedReason = "the crawl's deadline (--deadline) passed while it was being fetched"

    /// The outcome of one request after redirects and retries.
    enum Exchange: Sendable {
        case response(FetchedResponse, finalURL: URL)
        case failed(String)
        /// No complete answer in time: the crawl cannot tell whether the link works.
        case timedOut(String)
        case skipped(String)
    }

    /// Sends `request`, following redirects (bounded, loop-checked, only inside the crawl's
    /// scope) and retrying 429/503 as `Retry-After` says: ``RedirectState`` decides, this sends.
    func send(_ request: FetchRequest, budget: CrawlBudget) async -> Exchange {
        var state = RedirectState(
            request: request, maximumRedirects: options.maximumRedirects, maximumRetries: options.maximumRetries,
            maximumRetryDelay: options.maximumRetryDelay, crawlHeaders: options.headers.map(\.name), isInScope: options.isInScope,
            hasCredentials: options.hasCredentials(for:), redact: options.redaction.url)
        while true {
            do {
                try await budget.acquire()
            } catch {
                return .skipped(error.reason)
            }
            let response: FetchedResponse
            // The deadline, when nearer, bounds the request instead of --timeout; it says so.
            let remaining = budget.remaining
            let deadlineBound = remaining < options.timeout
            do {
                let timeout = min(options.timeout, max(remaining, .milliseconds(1)))
                response = try await fetcher.fetch(state.request, maximumBodyBytes: options.maximumBodyBytes, timeout: timeout)
            } catch {
                logger.debug("request failed", metadata: ["url": "\(options.redaction.url(state.request.url.absoluteString))", "error": "\(error)"])
                guard error.kind == .timedOut else { return .failed(error.description) }
                return .timedOut(deadlineBound
                    ? Self.deadlinePassedReason
                    : "timed out: no complete answer within --timeout (\(options.timeout)); raise --timeout, or find out why it is slow")
            }
            switch state.next(after: response.status, headers: response.headers, remaining: budget.remaining) {
            case .answer(let finalURL): return .response(response, finalURL: finalURL)
            case .retry(let delay): try? await Task.sleep(for: delay)
            case .follow: continue
            case .fail(let reason): return .failed(reason)
            case .skip(let reason): return .skipped(reason)
            }
        }
    }

    // MARK: Unsafe methods

    /// `method-valid` evidence for every unsafe link, one request per method, URL and body, in
    /// the order the links were found; the result's slots are the requests'.
    private func checkMethods(_ requests: [MethodRequest], budget: CrawlBudget) async -> [MethodCheck?] {
        var checks = [MethodCheck?](repeating: nil, count: requests.count)
        await withTaskGroup(of: (Int, MethodCheck).self) { group in
            var pending = requests.indices.makeIterator()
            for _ in 0..<max(1, options.concurrency) {
                guard let slot = pending.next() else { break }
                let request = requests[slot]
                group.addTask { (slot, await self.checkMethod(request.request, missingVariables: request.missingVariables, budget: budget)) }
            }
            while let (slot, check) = await group.next() {
                checks[slot] = check
                if let next = pending.next() {
                    let request = requests[next]
                    group.addTask { (next, await self.checkMethod(request.request, missingVariables: request.missingVariables, budget: budget)) }
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
            case .failed(let reason), .timedOut(let reason):
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
        case .failed(let reason), .timedOut(let reason):
            return .unverified("OPTIONS failed: \(reason)")
        case .skipped(let reason):
            return .skipped(reason)
        }
    }

    // MARK: Labels

    /// How each link reads in a rel path: its rel, prefixed by the nested resource that carries
    /// it (`movies[3].poster`), and numbered when the same rel repeats in one place (`item[2]`).
    /// One pass: a page with a million links is labelled in linear time.
    static func labels(of links: [Link]) -> [String] {
        struct Place: Hashable {
            var rel: String
            var owner: String
        }
        var totals: [Place: Int] = [:]
        for link in links { totals[Place(rel: link.rel, owner: link.owner), default: 0] += 1 }
        var positions: [Place: Int] = [:]
        var prefixes: [String: String] = [:]
        return links.map { link in
            let place = Place(rel: link.rel, owner: link.owner)
            let rel = link.compactRel ?? link.rel
            var prefix = ""
            if link.isNested, !link.owner.isEmpty {
                if let known = prefixes[link.owner] {
                    prefix = known
                } else {
                    prefix = ownerPrefix(link.owner)
                    prefixes[link.owner] = prefix
                }
            }
            guard let total = totals[place], total > 1 else { return prefix + rel }
            let position = positions[place, default: 0]
            positions[place] = position + 1
            return "\(prefix)\(rel)[\(position)]"
        }
    }

    /// `movies[3].` for an owner pointer `/_embedded/movies/3`.
    private static func ownerPrefix(_ owner: String) -> String {
        var parts: [String] = []
        for token in owner.split(separator: "/").map(String.init) where !["_embedded", "_links", "links", "entities"].contains(token) {
            if token.allSatisfy(\.isNumber), let last = parts.popLast() {
                parts.append("\(last)[\(token)]")
            } else {
                parts.append(JSONPointer.unescape(token))
            }
        }
        return parts.isEmpty ? "" : parts.joined(separator: ".") + "."
    }
}

/// An unsafe link's request for its method check, found while crawling and sent at the end.
struct MethodRequest: Sendable {
    var request: FetchRequest
    var missingVariables: [String]
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
