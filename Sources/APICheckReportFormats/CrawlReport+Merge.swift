import APICheckFindings
import APICheckModel
import APICheckSpool
import Foundation

extension CrawlReport {
    /// Combines the reports of the shards of one crawl (`apicheck report merge`).
    ///
    /// Identical findings, checks and errors are kept once; crawler statistics and suppressed
    /// counts are summed; the merged crawl starts with the earliest shard and ends with the
    /// latest; stale baseline entries are those stale in every shard that applied a baseline.
    /// The result has no shard. The reports must share schema version, tool, root, rule
    /// configuration and shard count; the first report's tool version is kept. When shards of an
    /// `n`-way crawl are missing, the result carries an infrastructure error naming them (its
    /// findings are incomplete, so it exits 2).
    public static func merging(_ reports: [CrawlReport]) throws(ReportMergeError) -> CrawlReport {
        guard let first = reports.first else { throw .noReports }
        for report in reports.dropFirst() {
            if report.schemaVersion != first.schemaVersion {
                throw .mismatch("schemaVersion", String(first.schemaVersion), String(report.schemaVersion))
            }
            if report.command != first.command {
                throw .mismatch("command", first.command.rawValue, report.command.rawValue)
            }
            if report.tool.name != first.tool.name {
                throw .mismatch("tool", first.tool.name, report.tool.name)
            }
            if URLResolution.identityKey(report.root) != URLResolution.identityKey(first.root) {
                throw .mismatch("root", first.root, report.root)
            }
            if report.configuration != first.configuration {
                throw .mismatch("rule configuration", first.configuration.summary, report.configuration.summary)
            }
        }
        let shardCounts = Set(reports.compactMap(\.shard?.count))
        if shardCounts.count > 1 {
            let counts = shardCounts.sorted()
            throw .mismatch("shard count", String(counts[0]), String(counts[1]))
        }
        // A whole crawl among shards, or one shard twice (a retried job's report beside the
        // first attempt's), would count links twice.
        if reports.contains(where: { $0.shard == nil }), reports.contains(where: { $0.shard != nil }) {
            throw ReportMergeError(code: .wholeAmongShards)
        }
        // Whole crawls that count passed checks without listing them cannot be de-duplicated.
        let wholeCrawls = reports.filter { $0.shard == nil }
        if wholeCrawls.count > 1 { throw ReportMergeError(code: .wholeCrawls(wholeCrawls.count)) }
        var seen = Set<Shard>()
        for shard in reports.compactMap(\.shard) where !seen.insert(shard).inserted {
            throw ReportMergeError(code: .duplicateShard(shard.description))
        }

        let start = reports.map { ReportTime.milliseconds($0.startTime) }.min() ?? 0
        let end = reports.map { ReportTime.milliseconds($0.startTime) + ReportTime.milliseconds($0.duration) }.max() ?? start
        var statistics = CrawlStatistics()
        for report in reports {
            statistics.resourcesFetched += report.statistics.resourcesFetched
            statistics.requests += report.statistics.requests
        }

        var baseline: BaselineSummary?
        let summaries = reports.compactMap(\.baseline)
        if let firstSummary = summaries.first {
            var stale = Set(firstSummary.stale.map(\.fingerprint))
            for summary in summaries.dropFirst() {
                stale.formIntersection(summary.stale.map(\.fingerprint))
            }
            var entries: [Baseline.Entry] = []
            var seen: Set<String> = []
            for summary in summaries {
                for entry in summary.stale where stale.contains(entry.fingerprint) && seen.insert(entry.fingerprint).inserted {
                    entries.append(entry)
                }
            }
            baseline = BaselineSummary(suppressed: summaries.reduce(0) { $0 + $1.suppressed }, stale: entries)
        }

        // A shard that is missing left its links unchecked: the merged findings are incomplete,
        // which is an infrastructure error like an aborted crawl (exit code 2), not a silent gap.
        var errors = reports.flatMap(\.errors)
        let shards = reports.compactMap(\.shard)
        if let count = shards.first?.count {
            let present = Set(shards.map(\.index))
            let missing = (1...count).filter { !present.contains($0) }
            if !missing.isEmpty {
                let listed = missing.prefix(10).map { "\($0)/\(count)" }.joined(separator: ", ") + (missing.count > 10 ? ", …" : "")
                errors.append(
                    CrawlProblem(
                        message: "\(missing.count) of \(count) shards missing from the merge (\(listed)): their links were not checked"))
            }
        }

        // Each report lists its checks in report order (discovery order): merged as they stream
        // by, a check of several reports kept once, into a temporary file beyond 50,000 (shards
        // of a large crawl have millions).
        let directory = SpoolDirectory()
        let builder = CheckListBuilder(directory: directory, memoryLimit: 50_000)
        var streams = reports.map { $0.checks.makeIterator() }
        var heads = streams.indices.map { streams[$0].next() }
        var last: CheckedLink?
        while let next = heads.indices.filter({ heads[$0] != nil }).min(by: { CheckedLink.precedes(heads[$0]!, heads[$1]!) }) {
            let check = heads[next]!
            heads[next] = streams[next].next()
            if check != last { builder.append(check) }
            last = check
        }
        let checks = builder.finish()
        let readFailure = reports.lazy.compactMap(\.checks.readFailure).first
        if let failure = builder.failure.map({ "\($0)" }) ?? readFailure {
            errors.append(CrawlProblem(message: "the merged report is incomplete: \(failure)"))
        }

        var merged = CrawlReport(
            schemaVersion: first.schemaVersion, tool: first.tool, root: first.root,
            startTime: Date(timeIntervalSince1970: Double(start) / 1000), duration: .milliseconds(max(0, end - start)),
            shard: nil, configuration: first.configuration, statistics: statistics,
            checks: [], findings: reports.flatMap(\.findings), errors: errors,
            baseline: baseline)
        // Reports that list every check are counted from the merged list (a check in two of them
        // counts once); otherwise each shard's counts add up (each link belongs to one shard).
        var tally = CheckTally()
        if reports.allSatisfy(\.listsEveryCheck) {
            for check in checks { tally.count(check) }
        } else {
            for count in reports.flatMap(\.checkCounts) { tally.add(count) }
        }
        var omitted: [String: Int] = [:]
        for report in reports { omitted.merge(report.omittedFindings, uniquingKeysWith: +) }
        merged.setSortedChecks(checks, counts: tally.counts, listsEveryCheck: true)
        merged.omittedFindings = omitted
        // A shard that listed only some checks makes the merge list only those.
        if reports.contains(where: { !$0.listsEveryCheck }) { merged.listOnlyChecksWorthReading() }
        merged.requestHeaderNames = first.requestHeaderNames
        merged.command = first.command
        // Every shard walks the whole graph, so each saw the same kinds; keep the largest counts.
        var kinds: [String: SampledKind] = [:]
        var order: [String] = []
        for kind in reports.flatMap(\.sampling) {
            if let known = kinds[kind.kind] {
                kinds[kind.kind] = SampledKind(kind: kind.kind, seen: max(known.seen, kind.seen), checked: max(known.checked, kind.checked))
            } else {
                order.append(kind.kind)
                kinds[kind.kind] = kind
            }
        }
        merged.sampling = order.compactMap { kinds[$0] }
        merged.operationCoverage = OperationCoverage.merged(reports.compactMap(\.operationCoverage))
        return merged
    }
}

extension RuleConfiguration {
    /// `strict=false, link-resolves=error, …`, for messages.
    fileprivate var summary: String {
        (["strict=\(strict)"] + RuleID.allCases.sorted().map { "\($0)=\(level(for: $0))" }).joined(separator: ", ")
    }
}

/// Why shard reports could not be merged.
public struct ReportMergeError: Error, Sendable, Hashable, CustomStringConvertible {
    fileprivate enum Code: Sendable, Hashable {
        case noReports
        case mismatch(what: String, first: String, other: String)
        case wholeAmongShards
        case duplicateShard(String)
        case wholeCrawls(Int)
    }

    private let code: Code

    fileprivate init(code: Code) {
        self.code = code
    }

    /// Nothing to merge.
    public static let noReports = ReportMergeError(code: .noReports)

    /// Two reports disagree about something that must be the same for all shards of one crawl.
    public static func mismatch(_ what: String, _ first: String, _ other: String) -> ReportMergeError {
        ReportMergeError(code: .mismatch(what: what, first: first, other: other))
    }

    /// What went wrong, for the command line.
    public var description: String {
        switch code {
        case .noReports:
            "no reports to merge"
        case .mismatch(let what, let first, let other):
            "the reports are not shards of one crawl: their \(what) differs ('\(first)' and '\(other)')"
        case .wholeAmongShards:
            "a whole crawl's report (no \"shard\") is among shard reports: merge only the reports of 'crawl --shard i/n'"
        case .duplicateShard(let shard):
            "shard \(shard) is given twice: merge one report per shard (a re-run job's report replaces the first attempt's)"
        case .wholeCrawls(let count):
            "the \(count) reports are whole crawls (no \"shard\"), not shards of one: their links would be counted twice (a report counts its passed checks without listing them); merge the shard reports of one crawl, or give one report to render it again"
        }
    }
}
