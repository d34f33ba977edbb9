import APICheckFindings
import APICheckHypermedia
import APICheckSpool
import Foundation
import Logging

/// Turns what a crawl gathered into its report: completes the pending checks in discovery order
/// (counted, listed when worth reading), adds the findings the targets' answers decided and the
/// crawl-wide limits, says why the report is incomplete when it is, and redacts.
struct CrawlReportBuilder {
    let options: CrawlOptions
    let tool: ToolInfo
    let startDate: Date
    let start: ContinuousClock.Instant
    let logger: Logger

    func report(
        from state: CrawlState, methodChecks: [MethodCheck?], budget: CrawlBudget, problems fetchProblems: [CrawlProblem], directory: SpoolDirectory
    ) -> CrawlReport {
        var problems = fetchProblems + rootProblems(state.rootRecord)
        let evaluating = ContinuousClock.now
        let (checks, checkCounts, linkFindings, spoolFailure) = state.completeChecks(methodChecks: methodChecks, directory: directory)
        logger.debug("rules evaluated for \(checkCounts.reduce(0) { $0 + $1.total }) links (\(checks.count) listed) in \(ContinuousClock.now - evaluating)")
        if let spoolFailure {
            problems.append(CrawlProblem(message: "the report is incomplete: \(spoolFailure)"))
        }
        if let reason = options.interruption?.reason {
            problems.append(CrawlProblem(message: "\(reason): the report covers what was checked before; links not reached are reported as skipped"))
        }
        if budget.remaining <= .zero {
            problems.append(CrawlProblem(message: "the crawl's deadline (\(options.deadline)) passed; links not reached are reported as skipped"))
        }
        if state.notFetchedForRequestLimit > 0 {
            logger.notice("the request limit (\(options.maximumRequests)) was reached; links not reached are reported as skipped")
        }
        if state.timedOut > 0 {
            let first = state.firstTimedOut.map { state.timedOut == 1 ? " (\($0))" : " (the first: \($0))" } ?? ""
            problems.append(CrawlProblem(
                message: "\(state.timedOut == 1 ? "1 request" : "\(state.timedOut) requests") got no complete answer within --timeout (\(options.timeout))\(first): the links to them are reported as not checked; raise --timeout, or find out why they are slow",
                url: state.firstTimedOut))
        }

        let assembling = ContinuousClock.now
        let redaction = options.redaction
        var report = CrawlReport(
            tool: tool, root: redaction.url(options.root.absoluteString), startTime: startDate, duration: ContinuousClock.now - start,
            shard: options.shard, configuration: options.rules,
            statistics: CrawlStatistics(resourcesFetched: state.resourcesFetched, requests: budget.requestsMade)
        )
        report.setSortedChecks(checks, counts: checkCounts, listsEveryCheck: options.listsEveryCheck)
        let limitFindings = state.crawlWideLimitFindings()
        logLimits(limitFindings, findings: state.findings)
        report.setFindings(options.rules.apply(to: state.findings + linkFindings + limitFindings).map { redaction.finding($0, relPathRedacted: true) })
        report.setErrors(problems.map { CrawlProblem(message: redaction.text($0.message), url: $0.url.map(redaction.url)) })
        report.requestHeaderNames = options.headers.map(\.name)
        report.sampling = state.sampler.kinds
        if let contract = options.contract {
            let operations = contract.operationNames
            if !operations.isEmpty {
                var coverage = OperationCoverage(total: operations.count, unreached: operations.filter { !state.reachedOperations.contains($0) })
                coverage.isListedInFull = options.listsEveryUnreachedOperation
                report.operationCoverage = coverage
            }
        }
        logger.debug("report assembled in \(ContinuousClock.now - assembling)")
        return report
    }

    /// Why nothing (or nothing more) could be discovered from the root, if so: exit 2.
    private func rootProblems(_ root: ResourceRecord?) -> [CrawlProblem] {
        let rootURL = options.root.absoluteString
        switch root?.outcome {
        case .failed(let reason)?, .timedOut(let reason)?:
            return [CrawlProblem(message: "the root \(rootURL) is unreachable: \(reason)", url: rootURL)]
        case .skipped(let reason)?:
            return [CrawlProblem(message: "the root was not fetched: \(reason)", url: rootURL)]
        case .response(let status, _)? where root?.needsCredentials == true && !options.hasCredentials(for: options.root):
            return [CrawlProblem(
                message: "the root \(rootURL) needs credentials (\(status), WWW-Authenticate: \(root?.challenge ?? "")): pass them with --header 'Authorization: …' or --header-from-env",
                url: rootURL)]
        case .response(let status, _)? where !(200..<300).contains(status):
            return [CrawlProblem(message: "the root \(rootURL) answered \(status); nothing else could be discovered", url: rootURL)]
        case .response?, nil:
            return []
        }
    }

    /// Limits reached are notices (the log level's documented meaning), once per limit.
    private func logLimits(_ limitFindings: [Finding], findings: [Finding]) {
        for finding in limitFindings { logger.notice("\(finding.message)") }
        let cutBodies = findings.filter { $0.rule == .crawlLimit && $0.sourcePointer == nil }.count
        if cutBodies > 0 { logger.notice("\(cutBodies == 1 ? "1 body was" : "\(cutBodies) bodies were") longer than --max-body (\(options.maximumBodyBytes) bytes): raise --max-body") }
        let cutPages = findings.filter { $0.rule == .crawlLimit && $0.sourcePointer != nil }.count
        if cutPages > 0 { logger.notice("\(cutPages == 1 ? "1 response had" : "\(cutPages) responses had") more links than --max-links (\(options.maximumLinksPerResponse)): raise --max-links") }
    }
}
