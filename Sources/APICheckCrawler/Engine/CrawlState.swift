import APICheckFindings
import APICheckHypermedia
import APICheckModel
import APICheckSpool
import Foundation

/// What a crawl remembers between responses, and nothing more: the ``ResourceIndex`` of every
/// URL, the ``RelPathTree``, the pending link checks (queued in discovery order, which is report
/// order), the findings, and the unsafe links' method requests. Responses are consumed one at a
/// time, in discovery order; each link found is numbered then (its discovery index).
struct CrawlState {
    let options: CrawlOptions
    let rules: ContractRules
    var index = ResourceIndex()
    var tree = RelPathTree()
    /// The place of each link, for the counts; each resource's place by its tree node.
    var places = CheckPlaces()
    private var placeOfNode: [Int32] = []
    let pending: SpillQueue<PendingCheck>
    /// Links found so far: the last discovery index given.
    private(set) var linksFound = 0
    var findings: [Finding] = []
    var sampler: CrawlSampler
    /// Unsafe links' requests, one per method, URL and body, in discovery order.
    private(set) var methodRequests: [MethodRequest] = []
    private var methodSlots: [MethodCheckKey: Int] = [:]
    /// The root's record, for the report's infrastructure errors.
    private(set) var rootRecord: ResourceRecord?
    /// Resources consumed (fetched, failed or skipped) and resources that answered.
    private(set) var resourcesConsumed = 0
    private(set) var resourcesFetched = 0
    /// What the crawl's limits left out, for the report (`crawl-limit` findings, incomplete).
    private(set) var timedOut = 0
    private(set) var firstTimedOut: String?
    private(set) var linksBeyondDepth = 0
    private(set) var notFetchedForRequestLimit = 0
    /// The contract's operations some answer reached (`--openapi` coverage).
    private(set) var reachedOperations: Set<String> = []
    /// Parameter-fill links taken so far, per rel (operation), against
    /// ``CrawlOptions/parameterFillsPerOperation``.
    private var parameterFills: [String: Int] = [:]

    init(options: CrawlOptions, rules: ContractRules, pending: SpillQueue<PendingCheck>) {
        self.options = options
        self.rules = rules
        self.pending = pending
        self.sampler = CrawlSampler(size: options.sampleSize)
    }

    /// Takes in one fetched resource: its summary, its own findings, its links' pending checks,
    /// and its links' targets queued for the next level.
    mutating func consume(_ record: ResourceRecord, into frontier: inout CrawlFrontier) {
        resourcesConsumed += 1
        if record.status != nil { resourcesFetched += 1 }
        switch record.outcome {
        case .timedOut(let reason) where reason != Crawler.deadlinePassedReason:
            timedOut += 1
            if firstTimedOut == nil { firstTimedOut = record.entry.url }
        case .skipped(let reason) where reason == CrawlBudget.Refusal.requestLimit(options.maximumRequests).reason: notFetchedForRequestLimit += 1
        default: break
        }
        if record.entry.depth == 0 { rootRecord = record }
        index.record(record.entry.key, record)
        if let operation = record.operation { reachedOperations.insert(operation) }
        var links = record.extraction.links
        if links.last?.format == .openAPIFill { links = capParameterFills(links) }
        if let observer = options.observer { observe(record, links: links, by: observer) }
        guard !record.findings.isEmpty || !links.isEmpty else { return }
        let relPath = tree.path(record.entry.pathNode)
        let resourcePlace = record.entry.pathNode >= 0 ? placeOfNode[Int(record.entry.pathNode)] : CheckPlaces.root
        for var finding in record.findings {
            finding.relPath = relPath
            finding.discoveryIndex = record.entry.discoveryIndex
            findings.append(finding)
        }
        let referrer = record.finalURLString
        // Redacted once here: every rel path is made of these labels, and its checks and findings
        // then skip redacting it step by step.
        let labels = Crawler.labels(of: links).map { options.redaction.text($0) }
        for (link, label) in zip(links, labels) {
            // Numbered whether or not this shard checks it: every shard numbers links alike.
            linksFound += 1
            let linkRelPath = relPath.appending(label)
            let place = places.place(label, under: resourcePlace)
            let resolved = ResolvedTarget(link, variables: options.variables)
            if let (discovered, found) = rules.discover(
                link, resolved, relPath: linkRelPath, referrer: referrer, discoveryIndex: linksFound,
                methodSlot: { methodSlot(for: $0, url: $1, key: $2) })
            {
                var check = discovered
                check.place = place
                pending.append(check)
                findings += found
            }
            queueTarget(of: link, resolved, label: label, relPath: linkRelPath, place: place, from: record, referrer: referrer, into: &frontier)
        }
    }

    private mutating func observe(_ record: ResourceRecord, links: [Link], by observer: any CrawlObserver) {
        let relPath = tree.path(record.entry.pathNode)
        let labels = Crawler.labels(of: links).map { options.redaction.text($0) }
        observer.crawled(CrawledResource(
            url: record.finalURLString, status: record.status, contentType: record.contentType, relPath: relPath,
            links: zip(links, labels).map { ($0, relPath.appending($1)) }, body: record.observedBody))
    }

    /// Drops the parameter fills to new resources beyond ``CrawlOptions/parameterFillsPerOperation``
    /// for their operation (the first ones in discovery order are kept: the same every run).
    private mutating func capParameterFills(_ links: [Link]) -> [Link] {
        links.filter { link in
            guard link.format == .openAPIFill else { return true }
            // A resource already known costs nothing: its check is kept, uncounted.
            if let url = link.url, index.contains(URLKey(normalised: URLResolution.normalisedKey(url))) { return true }
            let taken = parameterFills[link.rel, default: 0]
            guard taken < options.parameterFillsPerOperation else { return false }
            parameterFills[link.rel] = taken + 1
            return true
        }
    }

    private mutating func queueTarget(
        of link: Link, _ resolved: ResolvedTarget, label: String, relPath: RelPath, place: Int32, from record: ResourceRecord, referrer: String,
        into frontier: inout CrawlFrontier
    ) {
        guard link.method == "GET" || link.method == "HEAD", case .url(let target) = resolved.resolution else { return }
        let key = resolved.key
        guard !index.contains(key), let url = resolved.url, options.isInScope(url) else { return }
        if let skipped = sampler.admit(relPath) {
            // Sampled out: remembered as seen and skipped, so every link to it says why.
            index.recordSkipped(key, reason: skipped)
            return
        }
        let depth = record.entry.depth + 1
        guard Int(depth) <= options.maximumDepth else {
            linksBeyondDepth += 1
            return
        }
        let node = tree.node(label, under: record.entry.pathNode)
        placeOfNode.append(place)
        _ = frontier.enqueue(
            CrawlFrontier.Entry(
                key: key, url: target, depth: depth, pathNode: node, rel: link.compactRel ?? link.rel, referrer: referrer, declaredType: link.type,
                declaredProfile: link.profile.flatMap { URLResolution.resolve($0, against: referrer) }, discoveryIndex: linksFound),
            index: &index)
    }

    /// The `crawl-limit` findings about the whole crawl (they name the root): links not followed
    /// beyond `--max-depth`, resources not fetched beyond `--max-requests`.
    func crawlWideLimitFindings() -> [Finding] {
        let root = options.root.absoluteString
        var findings: [Finding] = []
        if linksBeyondDepth > 0 {
            findings.append(Finding(
                rule: .crawlLimit, url: root, relPath: [], expected: "--max-depth \(options.maximumDepth)", actual: "\(linksBeyondDepth) deeper",
                message: "\(linksBeyondDepth == 1 ? "1 link leads" : "\(linksBeyondDepth) links lead") deeper than --max-depth \(options.maximumDepth) and \(linksBeyondDepth == 1 ? "was" : "were") not followed (reported as skipped): raise --max-depth"))
        }
        if notFetchedForRequestLimit > 0 {
            findings.append(Finding(
                rule: .crawlLimit, url: root, relPath: [], expected: "--max-requests \(options.maximumRequests)", actual: "\(notFetchedForRequestLimit) not fetched",
                message: "--max-requests \(options.maximumRequests) was reached: \(notFetchedForRequestLimit == 1 ? "1 resource was" : "\(notFetchedForRequestLimit) resources were") not fetched (the links to them are reported as skipped): raise --max-requests"))
        }
        return findings
    }

    /// The slot of the method check for an unsafe link, adding its request when it is new.
    private mutating func methodSlot(for link: Link, url: URL, key: String) -> Int {
        let body = UnsafeRequestBody.make(for: link, variables: options.variables)
        let checkKey = MethodCheckKey(method: link.method, url: key, body: body.data)
        if let slot = methodSlots[checkKey] { return slot }
        var headers = options.headers(for: url)
        if let contentType = body.contentType { headers.append(HTTPHeader(name: "Content-Type", value: contentType)) }
        methodRequests.append(MethodRequest(
            request: FetchRequest(method: link.method, url: url, headers: headers, body: body.data), missingVariables: body.missingVariables))
        methodSlots[checkKey] = methodRequests.count - 1
        return methodRequests.count - 1
    }

    /// Completes every pending check, in discovery order (report order, no sorting): counts each,
    /// and lists the ones worth reading (every one with ``CrawlOptions/listsEveryCheck``; in
    /// memory or spooled, see ``CrawlOptions/Spooling``); returns the findings the targets'
    /// answers decided, and what went wrong with the temporary files, if anything did.
    func completeChecks(methodChecks: [MethodCheck?], directory: SpoolDirectory) -> (CheckList, [CheckCount], [Finding], SpoolIOError?) {
        let builder = CheckListBuilder(directory: directory, memoryLimit: options.spooling.checksInMemory, redaction: options.redaction)
        var tally = places
        var findings: [Finding] = []
        var queued = pending.drain()
        while let item = queued.next() {
            let (check, found) = rules.complete(item, index: index, methodChecks: methodChecks)
            findings += found
            tally.count(check, at: item.place)
            if options.listsEveryCheck || check.outcome.isWorthListing { builder.append(check) }
        }
        let list = builder.finish()
        // A run that could not be written stayed in memory (nothing lost); one that could not be
        // read back, or checks that could not be written, make the report incomplete.
        let failure = builder.failure ?? pending.failure ?? queued.failure.map { SpoolIOError(message: "\($0)") }
        return (list, tally.checkCounts, findings, failure)
    }
}
