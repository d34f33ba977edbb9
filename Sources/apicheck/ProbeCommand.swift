import APICheckCrawler
import APICheckFindings
import APICheckHTTPFetcher
import APICheckHypermedia
import APICheckModel
import APICheckOpenAPI
import APICheckProbe
import ArgumentParser
import Foundation
import Logging

struct ProbeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Crawl an API, then send generated requests to what it lets clients write and read.",
        discussion: """
            Run it against a disposable environment: with --unsafe it creates, changes and deletes data.

            First a crawl from the root, as 'apicheck crawl' does (its findings are in the report \
            too). Then every affordance the crawl found is probed: HAL-FORMS templates, Siren \
            actions, Collection+JSON templates, JSON:API collections (a POST of a resource of the \
            collection's type) and links with a method and parameters are writes, sent only with \
            --unsafe; GET forms (searches) and templated reads (/items/{id}, advertised or inferred \
            from the URLs the crawl fetched, /books/1 … /books/6 → /books/{id}) are safe and \
            probed without it. Valid requests first (the affordance's values, then generated ones \
            that meet its constraints), then edge cases one field at a time: missing required, \
            wrong JSON type, empty, boundaries ±1, very long strings, Unicode, number limits, deep \
            nesting, duplicate keys, unknown fields, a wrong or missing Content-Type; reads get \
            an id that does not exist, 0, -1, a huge number, a word, an empty value, encoded \
            Unicode and ../. The values are the same for the same --seed.

            Findings: probe-server-error (any 5xx or a reset connection, to any request), \
            probe-response-type (a 2xx of another type than declared, or a body that is not its \
            type), probe-accepts-invalid (warning: a 2xx to a body that breaks an advertised \
            constraint), probe-created-resolves (a 201 whose Location or self does not answer GET, \
            or a resource still there after its DELETE). Each failing request is shrunk to the \
            smallest one that still fails the same way, and reported with a curl command that \
            replays it (credentials as shell variables). A valid create is also sent twice, as a \
            retrying client would: a 5xx there is an unhandled duplicate.

            With --openapi FILE|URL the document's operations are probed too: request bodies \
            (writes), query parameters of GETs (searches) and GETs with path parameters \
            (templated reads), with the document's schemas; the crawl checks every answer against \
            it as 'apicheck crawl --openapi' does.

            Safety: probes go to the root's host only; --only and --skip pick affordances by \
            place (root → authors → default) or rel; --dry-run prints the plan (affordances, the \
            requests it would send) after the crawl and sends no probe; what the probe created is \
            deleted again where the API advertises DELETE on it, also after Ctrl-C, and what it \
            could not delete is listed.

            Exit status: 0 no error findings, 1 findings, 2 usage or infrastructure errors.

            Examples:
              apicheck probe http://localhost:8000/ --dry-run
              apicheck probe http://localhost:8000/                  # templated reads and searches only
              apicheck probe http://localhost:8000/ --unsafe --seed 7 --probe-budget 40
              apicheck probe http://localhost:8000/ --unsafe --only authors --format junit=probe.xml
              apicheck probe http://127.0.0.1:8000/ --openapi http://127.0.0.1:8000/openapi.json
              apicheck probe https://staging.example.com/ --unsafe \\
                  --header-from-env 'Authorization: Bearer $STAGING_TOKEN' --format json=probe.json
            """
    )

    @Argument(help: "The API's root URL.")
    var root: String

    @OptionGroup var credentials: CredentialHeaders

    @Flag(help: "Probe writes too (POST, PUT, PATCH): it creates and changes data. Reads are probed without it.")
    var unsafe = false

    @Option(help: "Generated values are the same for the same seed.")
    var seed: UInt64 = 0

    @Option(name: .customLong("probe-budget"), help: ArgumentHelp("Requests per affordance (shrinking aside).", valueName: "n"))
    var probeBudget = 24

    @Option(help: "At most this many HTTP requests in all, crawl and probes (clean-up aside).")
    var maxRequests = 10_000

    @Option(help: ArgumentHelp("Probe only affordances whose place (root → authors → default), rel or 'METHOD rel' contains this; repeatable.", valueName: "place-or-rel"))
    var only: [String] = []

    @Option(help: ArgumentHelp("Leave out affordances whose place, rel or 'METHOD rel' contains this; repeatable.", valueName: "place-or-rel"))
    var skip: [String] = []

    @Flag(help: "Crawl, then print the affordances found and the requests a probe would send (--verbose: all of them); send none.")
    var dryRun = false

    @Flag(name: .customLong("no-infer-templates"), help: "Do not infer templates from the URLs the crawl fetched.")
    var noInferTemplates = false

    @Option(name: .customLong("var"), help: ArgumentHelp("A value for templated hrefs and link parameters, as for crawl.", valueName: "name=value"))
    var variables: [String] = []

    @Option(help: "The crawl follows links at most this many hops from the root.")
    var maxDepth = 32

    @Option(help: ArgumentHelp("The crawl checks at most n resources of each kind.", valueName: "n"))
    var sample: Int?

    @Option(help: ArgumentHelp("Seconds per request.", valueName: "seconds"))
    var timeout: Double = 10

    @OptionGroup(title: "OpenAPI") var openAPIFlags: OpenAPIFlags

    @OptionGroup(title: "TLS (HTTPS APIs)") var tls: ClientTLSFlags

    @Option(name: .customLong("log-level"), help: "trace, debug (every probe request), info, notice, warning, error, critical.")
    var logLevel: LogLevel = .notice

    @OptionGroup var report: ReportOptions

    func validate() throws {
        guard let url = URL(string: root), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil else {
            throw ValidationError("'\(root)' is not an http(s) URL; give the API's root, e.g. http://localhost:8000/.")
        }
        for (flag, value) in [("--probe-budget", Double(probeBudget)), ("--max-requests", Double(maxRequests)), ("--timeout", timeout), ("--sample", Double(sample ?? 1))]
        where value <= 0 {
            throw ValidationError("\(flag) must be positive.")
        }
        guard maxDepth >= 0 else { throw ValidationError("--max-depth must be 0 or more.") }
        _ = try credentials.parsed()
        if dryRun, !report.formats.isEmpty || !report.outputs.isEmpty {
            throw ValidationError("--dry-run prints the plan as text and writes no report: leave out --format and --output.")
        }
        for text in variables where !text.contains("=") || text.hasPrefix("=") {
            throw ValidationError("--var '\(text)' is not 'name=value'.")
        }
    }

    func run() async throws {
        logLevel.bootstrap()
        let interruption = CrawlInterruption()
        let signals = SignalWatch.interrupting(interruption, stopping: "deleting what the probe created, then writing the report")
        defer { signals.cancel() }
        _ = try report.loadBaseline()
        guard let rootURL = URL(string: root) else { throw ValidationError("'\(root)' is not a URL.") }
        let headers = try credentials.parsed()
        var redaction = Redaction()
        for header in headers { redaction.registerHeader(name: header.name, value: header.value) }
        var rules = try report.ruleConfiguration()
        let trust = try tls.checkedTrust(Output(fileDescriptor: STDERR_FILENO), command: "probe")
        rules.insecureTLS = tls.insecure
        let collector = AffordanceCollector()
        var crawl = CrawlOptions(
            root: rootURL, headers: headers, variables: parsedVariables(), maximumDepth: maxDepth, maximumRequests: maxRequests,
            timeout: .milliseconds(Int64(timeout * 1000)), rules: rules, redaction: redaction, sampleSize: sample)
        crawl.observer = collector
        crawl.interruption = interruption
        // The document before the crawl: one that does not load is bad input (exit 2).
        let document = try await openAPIFlags.loadDocument(root: rootURL, credentials: headers, trust: trust)
        let contract = document.map { OpenAPIContract(document: $0, root: rootURL) }
        crawl.contract = contract
        let tool = ToolInfo(version: APICheckVersion.current, informationURI: "https://github.com/apicheck/apicheck")
        let logger = Logger(label: "apicheck.probe")
        let output = Output(fileDescriptor: STDERR_FILENO)
        let progress = ProgressLine.ifTerminal()
        var result = try await withHTTPFetcher(concurrency: 8, trust: trust, logger: logger) { fetcher -> CrawlReport in
            let started = ContinuousClock.now
            var crawlReport = await Crawler(fetcher: fetcher, options: crawl, logger: logger).run(tool: tool, progress: progress?.update)
            progress?.finish()
            var options = ProbeOptions(
                root: rootURL, headers: headers, unsafe: unsafe, seed: seed, budgetPerAffordance: probeBudget,
                maximumRequests: max(0, maxRequests - crawlReport.statistics.requests), only: only, skip: skip,
                infersTemplates: !noInferTemplates, timeout: .milliseconds(Int64(timeout * 1000)), rules: rules, redaction: redaction,
                interruption: interruption)
            options.maximumBodyBytes = crawl.maximumBodyBytes
            options.contract = contract
            var writes = collector.writes
            var reads = collector.reads
            if let document {
                let documented = OpenAPIProbeAffordances.affordances(document.probeInputs, root: rootURL, fetched: collector.fetched, advertised: writes + reads)
                writes += documented.filter { $0.kind != .templatedRead }
                reads += documented.filter { $0.kind == .templatedRead }
            }
            let plan = ProbePlanner(options: options).plan(writes: writes, reads: reads, fetched: collector.fetched)
            if !(only.isEmpty && skip.isEmpty), plan.entries.isEmpty, !plan.skipped.isEmpty {
                // A typo in --only must not pass in CI.
                let names = plan.skipped.map { "\($0.affordance.method) \($0.affordance.rel) at \($0.affordance.place)" }
                throw UsageError(
                    "error: --only/--skip left no affordance to probe; the crawl found: \(names.joined(separator: "; "))\n"
                        + "note: name one by its place (root → authors → default), its rel, or its method and rel ('POST default')")
            }
            if dryRun {
                let text = ProbePlanText.render(
                    plan, root: redaction.url(root), seed: seed, unsafe: unsafe, listsEveryRequest: report.verbose, redaction: redaction)
                FileHandle.standardOutput.write(Data(text.utf8))
                return crawlReport
            }
            if plan.entries.isEmpty {
                output.writeError("apicheck probe: nothing to probe: \(ProbePlanText.nothingToProbe(plan, unsafe: unsafe))")
            }
            let probeProgress = ProbeProgressLine.ifTerminal()
            let outcome = await ProbeRunner(fetcher: fetcher, options: options, logger: logger).run(plan, collector: collector, progress: probeProgress?.update)
            probeProgress?.finish()
            crawlReport.setFindings(crawlReport.findings + outcome.findings)
            crawlReport.statistics.requests += outcome.summary.requests
            crawlReport.probing = outcome.summary
            crawlReport.duration = ContinuousClock.now - started
            return crawlReport
        }
        if dryRun { return }
        result.command = .probe
        let code = try report.emit(result, redaction: redaction)
        if code != 0 { throw ExitCode(code) }
    }

    private func parsedVariables() -> [String: URITemplate.Value] {
        var values: [String: URITemplate.Value] = [:]
        for text in variables {
            guard let equals = text.firstIndex(of: "=") else { continue }
            values[String(text[..<equals])] = .string(String(text[text.index(after: equals)...]))
        }
        return values
    }
}

/// The one-line progress of the probing phase: on a terminal only, silent in CI.
final class ProbeProgressLine: Sendable {
    static func ifTerminal() -> ProbeProgressLine? {
        isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["CI"] == nil ? ProbeProgressLine() : nil
    }

    @Sendable func update(_ progress: ProbeRunner.Progress) {
        let line = "\r\u{1B}[2Kprobing: \(progress.sent) requests sent of \(progress.planned) planned, \(progress.findings) findings so far"
        FileHandle.standardError.write(Data(line.utf8))
    }

    func finish() {
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    }
}
