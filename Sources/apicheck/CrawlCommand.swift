import APICheckCrawler
import APICheckFindings
import APICheckHTTPFetcher
import APICheckHypermedia
import APICheckModel
import APICheckOpenAPI
import APICheckRecording
import APICheckReportFormats
import APICheckSpool
import APICheckStubFiles
import APICheckVerifier
import ArgumentParser
import Foundation
import Logging
import Synchronization

struct CrawlCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crawl",
        abstract: "Walk a hypermedia API from its root and check every link it advertises.",
        discussion: """
            Follows every GET link breadth-first from the root (same origin unless --allow-host), \
            checks each with the rules of docs/reports.md (link-resolves, method-valid, \
            type-matches, type-syntax, body-schema, content-type-present, self-consistent, \
            duplicate-rel, format-shape, template-valid, crawl-limit) and reports the findings with the path of rels from the \
            root. Unsafe methods are never sent to a live API without --unsafe: OPTIONS and its \
            Allow header stand in. With --stubs the stub set is crawled in memory, no sockets, \
            through the same engine. With --record DIR every whole answer from the root's origin \
            is also written as a stub file (as 'apicheck record' writes them), so that \
            'apicheck crawl <root> --stubs DIR' replays the same crawl offline.

            Bodies are checked against the JSON Schema of their media type (body-schema): \
            --profile TYPE=FILE, a stub folder's apicheck.json, or a schema the API names itself \
            (a Content-Type's profile parameter, a describedby or profile link), fetched once, \
            inside the crawl's scope (--no-discover-profiles turns that off).

            With --openapi FILE|URL every answer is also matched to its operation in an OpenAPI \
            3.0, 3.1 or 3.2 document (servers' base paths, path templates, method) and checked: \
            openapi-operation, openapi-status, openapi-content-type, openapi-body, \
            openapi-header. A document that does not load is an error at its line (exit 2). \
            A document by URL (FastAPI's /openapi.json) is fetched with its $refs on the same \
            origin; other hosts' $refs only with --allow-remote-refs. \
            The document's Link Objects become links the crawl follows, their runtime \
            expressions ($response.body#/id, $request.path.id, $url…) filled from real answers, \
            and GET operations whose path parameters a list answer's items fill (an id) are \
            reached too, at most --sample N (3 without it) per operation (--no-openapi-links \
            turns both off). The report counts the operations reached and lists the ones never \
            reached (--coverage lists them all).

            Every crawl ends: --timeout bounds each request however slowly its body arrives, \
            --deadline the whole crawl; what they cut is reported as not checked or skipped and \
            the crawl is incomplete (exit 2). Links, bodies, depth and requests beyond \
            --max-links, --max-body, --max-depth and --max-requests are reported as crawl-limit \
            warnings naming the flag to raise.

            One crawl writes its report in several formats: --format F[=FILE] is repeatable, \
            each FILE replaced atomically, and the one format without =FILE goes to standard \
            output (text when no --format is given). The older --format F --output FILE still \
            works for a single format.

            Exit status: 0 no error findings (no warnings either with --strict), 1 contract \
            violations, 2 usage or infrastructure errors (unreachable root, bad flags, a request \
            timed out, the deadline passed).

            Examples:
              apicheck crawl http://localhost:3000/ --stubs stubs/acmeflix
              apicheck crawl https://api.example.com/ --sample 3 --verbose
              apicheck crawl https://127.0.0.1:8443/ --cacert ~/.local/state/apicheck/tls/ca.pem
              apicheck crawl http://localhost:3000/ --stubs stubs/acmeflix --openapi stubs/acmeflix.openapi.yaml
              apicheck crawl http://127.0.0.1:8000/ --openapi http://127.0.0.1:8000/openapi.json
              apicheck crawl http://localhost:8000/ --openapi openapi.yaml --coverage --sample 5
              apicheck crawl https://api.example.com/ \\
                  --profile 'application/vnd.example.movie+json=schemas/movie.json'
              apicheck crawl https://api.example.com/ --format junit --output crawl.xml
              apicheck crawl https://api.example.com/ --format text \\
                  --format junit=report.xml --format sarif=report.sarif \\
                  --format json=report.json
              apicheck crawl https://api.example.com/ \\
                  --header-from-env 'Authorization: Bearer $API_TOKEN'
              apicheck crawl http://localhost:8080/ --var id=p-1001 --strict \\
                  --rule duplicate-rel=off
              apicheck crawl https://api.example.com/ --sample 3 --format json=report.json
              apicheck crawl https://api.example.com/ --format json=every-check.json \\
                  --list-checks --all-occurrences
              apicheck crawl https://api.example.com/ --write-baseline baseline.json
              apicheck crawl https://api.example.com/ --record stubs/recorded
              apicheck crawl https://api.example.com/ --baseline baseline.json \\
                  --format github
            """
    )

    @Argument(help: "The API's root URL.")
    var root: String

    @Option(help: ArgumentHelp("Crawl these stub files or folders in memory instead of the network.", valueName: "dir"), completion: .directory)
    var stubs: [String] = []

    @Option(help: ArgumentHelp("With --stubs: the active scenario of a use case (PESimu-Select folders).", valueName: "use-case=scenario"))
    var scenario: [String] = []

    @OptionGroup var credentials: CredentialHeaders

    @Flag(name: .customLong("header-to-allowed-hosts"), help: "Send --header and --header-from-env headers to --allow-host origins too, not only to the root's.")
    var headerToAllowedHosts = false

    @Option(help: ArgumentHelp("Check at most n resources of each kind (same rel path from the root, indices stripped), the same ones every run.", valueName: "n"))
    var sample: Int?

    @Option(name: .customLong("var"), help: ArgumentHelp("A value for templated hrefs and link parameters.", valueName: "name=value"))
    var variables: [String] = []

    @Option(help: "Links further than this many hops from the root are not followed (at most 10000).")
    var maxDepth = 32

    @Option(help: "At most this many HTTP requests in all.")
    var maxRequests = 100_000

    @Option(help: "Requests in flight at once.")
    var concurrency = 8

    @Option(help: ArgumentHelp("At most this many requests start per second.", valueName: "n/s"))
    var rate: String?

    @Option(help: ArgumentHelp("Seconds per request, connect to last body byte however slowly it arrives; a link that times out is not checked and the crawl is incomplete (exit 2).", valueName: "seconds"))
    var timeout: Double = 30

    @Option(help: ArgumentHelp("Seconds for the whole crawl; what is not reached is reported as skipped and the crawl is incomplete (exit 2).", valueName: "seconds"))
    var deadline: Double = 3600

    @Option(help: ArgumentHelp("Bodies are read up to this size, in bytes or with K/M/G; a longer one is reported (crawl-limit) and its links not read.", valueName: "size"))
    var maxBody = "10M"

    /// `--max-body` in bytes (validated).
    private var maximumBodyBytes: Int { ServeCommand.byteCount(maxBody) ?? 10 << 20 }

    @Option(name: .customLong("max-redirects"), help: ArgumentHelp("Redirects followed per link; a longer chain fails link-resolves.", valueName: "n"))
    var maxRedirects = 10

    @Option(name: .customLong("max-links"), help: ArgumentHelp("Links read from one response; the rest are counted and reported (crawl-limit).", valueName: "n"))
    var maxLinks = 10_000

    @Flag(help: "Send unsafe methods (POST, PUT, PATCH, DELETE) with a body from the link's parameters.")
    var unsafe = false

    @Option(help: ArgumentHelp("Also follow links to this host.", valueName: "host"))
    var allowHost: [String] = []

    @Option(help: ArgumentHelp("Accept a vendor method token (REDIRECT is accepted by default).", valueName: "token"))
    var allowMethod: [String] = []

    @Option(help: ArgumentHelp(
        "Deprecated: check only the links whose target falls in shard i of n (1-based). Every shard fetches the whole API, so a shard takes about as long as the whole crawl; use --sample N for an API too big to crawl whole. Shards still merge exactly with 'apicheck report merge'.",
        valueName: "i/n"))
    var shard: String?

    @Option(name: .customLong("record"), help: ArgumentHelp("Also write every answer from the root's origin as a stub file in this folder (secrets redacted).", valueName: "dir"), completion: .directory)
    var recordTo: String?

    @Option(name: .customLong("record-format"), help: "With --record: json or xml stub files.")
    var recordFormat: RecordingOptions.Format = .json

    @OptionGroup(title: "Recording (with --record)") var recording: RecordingFlags

    @Option(name: .customLong("log-level"), help: "trace, debug (timings of each phase), info, notice (limits reached), warning, error, critical.")
    var logLevel: LogLevel = .notice

    @OptionGroup(title: "Profiles (body-schema)") var profileFlags: ProfileFlags

    @Flag(name: .customLong("no-discover-profiles"), help: "Do not fetch the schemas the API names for its bodies (a Content-Type's profile, describedby and profile links).")
    var noDiscoverProfiles = false

    @OptionGroup(title: "OpenAPI") var openAPIFlags: OpenAPIFlags

    @OptionGroup(title: "TLS (HTTPS APIs)") var tls: ClientTLSFlags

    @Flag(
        name: .customLong("coverage"),
        help: "With --openapi: list every documented operation the crawl never reached (the text report lists the first 10 without it; the JSON report always lists all).")
    var coverage = false

    @Flag(
        name: .customLong("no-openapi-links"),
        help: "With --openapi: do not follow the document's Link Objects nor fill operations' path parameters from answers.")
    var noOpenAPILinks = false

    @OptionGroup var report: ReportOptions

    func validate() throws {
        guard let url = URL(string: root), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil else {
            throw ValidationError("'\(root)' is not an http(s) URL; give the API's root, e.g. http://localhost:3000/.")
        }
        guard concurrency > 0, maxRequests > 0, maxDepth >= 0, timeout > 0, deadline > 0, (ServeCommand.byteCount(maxBody) ?? 0) > 0, maxLinks > 0, maxRedirects >= 0, (sample ?? 1) > 0 else {
            throw ValidationError("--concurrency, --max-requests, --timeout, --deadline, --max-body, --max-links and --sample must be positive.")
        }
        guard maxDepth <= RelPath.maximumDepth else {
            throw ValidationError("--max-depth \(maxDepth) is over \(RelPath.maximumDepth), the deepest rel path a report is read back with.")
        }
        for path in stubs where !FileManager.default.fileExists(atPath: path) {
            throw ValidationError("--stubs '\(path)': no such file or folder.")
        }
        if let shard, Shard(parsing: shard) == nil {
            throw ValidationError("--shard '\(shard)' is not i/n with 1 ≤ i ≤ n ≤ 10,000, e.g. 2/4.")
        }
        _ = try parsedRate()
        _ = try credentials.parsed()
        _ = try parsedVariables()
        _ = try parsedScenarios()
        try profileFlags.validateProfiles()
    }

    func run() async throws {
        logLevel.bootstrap()
        // Ctrl-C or a cancelled CI job: finish with the report of what was checked (exit 2); a
        // second signal exits at once.
        let interruption = CrawlInterruption()
        let signals = SignalWatch.interrupting(interruption, stopping: "writing the report of what was checked")
        defer { signals.cancel() }
        var options = try makeOptions()
        if shard != nil {
            // Still accepted and merged exactly; it just does not save what users expect.
            Output(fileDescriptor: STDERR_FILENO).writeError(
                "apicheck crawl: notice: --shard is deprecated: every shard fetches the whole API (a shard of a 100,000-resource crawl takes about as long as the whole crawl), so sharding saves little; for an API too big to crawl whole use --sample N (at most N resources of each kind, the same ones every run)")
        }
        options.interruption = interruption
        let trust = try tls.checkedTrust(Output(fileDescriptor: STDERR_FILENO), command: "crawl")
        options.rules.insecureTLS = tls.insecure
        options.maximumLinksPerResponse = maxLinks
        options.maximumRedirects = maxRedirects
        options.discoversProfiles = !noDiscoverProfiles
        options.schemaOptions = profileFlags.schemaOptions
        // Profiles before the crawl: a broken schema is a usage error now, not after a long crawl.
        let (profiles, profileProblems) = profileFlags.load(stubFolders: stubs)
        if !profileProblems.isEmpty {
            let output = Output(fileDescriptor: STDERR_FILENO)
            for diagnostic in profileProblems { output.writeError(output.format(diagnostic)) }
            if profileProblems.contains(where: { $0.severity == .error }) {
                output.writeError("error: a profile could not be loaded; fix it (check it with 'apicheck schema lint FILE') or leave it out")
                throw ExitCode(2)
            }
        }
        options.profiles = profiles
        // The document before the crawl too: one that does not load is bad input (exit 2).
        if let document = try await openAPIFlags.loadDocument(root: options.root, credentials: options.headers, trust: trust) {
            let output = Output(fileDescriptor: STDERR_FILENO)
            var contract = OpenAPIContract(document: document, root: options.root)
            // Which security schemes the run can satisfy: a 401 where a scheme's credential was given is not the document's security at work.
            contract.credentials = OpenAPICredentials(headers: options.headers)
            contract.followsLinks = !noOpenAPILinks
            contract.fillsParameters = !noOpenAPILinks
            // --sample N bounds the fills as it bounds every kind of resource; 3 without it.
            contract.fillsPerAnswer = sample ?? 3
            options.parameterFillsPerOperation = sample ?? 3
            options.listsEveryUnreachedOperation = coverage
            if contract.rootIsOutsideServers {
                let bases = document.basePaths.filter { !$0.isEmpty }.joined(separator: ", ")
                output.writeError(
                    "\(document.file): note: the crawl's root is not under the document's servers (\(bases)); operations are matched under the root's path too")
            }
            if contract.undocumentedRoot != nil {
                let path = options.root.path(percentEncoded: true)
                Output(fileDescriptor: STDERR_FILENO).writeError(
                    "\(document.file): note: the crawl's root (GET \(path.isEmpty ? "/" : path)) is not an operation of the document; its answer is checked for links only (a generated document often leaves out the entry point)")
            }
            options.contract = contract
        }
        // A bad baseline fails now, not after a long crawl.
        _ = try report.loadBaseline()
        let tool = ToolInfo(version: APICheckVersion.current, informationURI: "https://github.com/apicheck/apicheck")
        let progress = ProgressLine.ifTerminal()
        let logger = Logger(label: "apicheck.crawl")
        let recorder = try makeRecorder(secrets: options.headers.map(\.value), logger: logger)
        let crawlReport: CrawlReport
        if stubs.isEmpty {
            crawlReport = try await withHTTPFetcher(concurrency: concurrency, trust: trust, logger: logger) { fetcher in
                if let recorder {
                    let recording = RecordingCrawlFetcher(base: fetcher, recorder: recorder, origin: try recordedOrigin())
                    return await Crawler(fetcher: recording, options: options, logger: logger).run(tool: tool, progress: progress?.update)
                }
                return await Crawler(fetcher: fetcher, options: options, logger: logger).run(tool: tool, progress: progress?.update)
            }
        } else {
            let loaded = StubLoader().load(stubs)
            let output = Output(fileDescriptor: STDERR_FILENO)
            for diagnostic in loaded.diagnostics { output.writeError(output.format(diagnostic)) }
            if loaded.stubSet.isEmpty {
                output.writeError("error: no stubs loaded from \(stubs.joined(separator: ", ")); check the paths with 'apicheck lint'.")
                throw ExitCode(2)
            }
            // Nobody reads this crawl's journal.
            let fetcher = StubSetFetcher(stubs: loaded.stubSet, scenarios: try parsedScenarios(), keepsJournal: false)
            if let recorder {
                let recording = RecordingCrawlFetcher(base: fetcher, recorder: recorder, origin: try recordedOrigin())
                crawlReport = await Crawler(fetcher: recording, options: options, logger: logger).run(tool: tool, progress: progress?.update)
            } else {
                crawlReport = await Crawler(fetcher: fetcher, options: options, logger: logger).run(tool: tool, progress: progress?.update)
            }
        }
        progress?.finish()
        if let recorder, let recordTo {
            let output = Output(fileDescriptor: STDERR_FILENO)
            output.writeError("Recorded into \(recorder.directory.path): \(recorder.summary)")
            if !recorder.summary.written.isEmpty {
                // A crawl limited by these recorded only what it fetched: a replay needs the same limits.
                var limits: [String] = []
                if let sample { limits.append("--sample \(sample)") }
                if maxDepth != 32 { limits.append("--max-depth \(maxDepth)") }
                if let shard { limits.append("--shard \(shard)") }
                let hint = limits.isEmpty ? "" : " " + limits.joined(separator: " ")
                output.writeError("Replay it offline: apicheck crawl \(root) --stubs \(recordTo)\(hint)")
                if crawlReport.counts.linksSkipped > 0 {
                    output.writeError("(\(crawlReport.counts.linksSkipped) links were not followed, so their answers were not recorded.)")
                }
            }
        }
        let writing = ContinuousClock.now
        let code = try report.emit(crawlReport, redaction: options.redaction)
        logger.debug("report written in \(ContinuousClock.now - writing)")
        // A document none of whose operations any answer matched checked nothing: not a pass.
        if let coverage = crawlReport.operationCoverage, coverage.total > 0, coverage.reached == 0, crawlReport.statistics.resourcesFetched > 0,
            let source = openAPIFlags.openAPI
        {
            Output(fileDescriptor: STDERR_FILENO).writeError(
                "error: no answer of the crawl matched an operation of \(source), so nothing was checked against it: "
                    + "compare its servers and paths with the crawl's root \(root) (openapi-operation findings show what the crawl reached)")
            throw ExitCode(2)
        }
        if code != 0 { throw ExitCode(code) }
    }

    // MARK: Parsing

    /// The recorder of `--record`, or `nil`; a folder that cannot be created is a usage error now,
    /// before the crawl.
    private func makeRecorder(secrets: [String], logger: Logger) throws -> StubRecorder? {
        guard let recordTo else { return nil }
        do {
            return try StubRecorder(directory: URL(fileURLWithPath: recordTo), options: recording.options(format: recordFormat, secrets: secrets), logger: logger)
        } catch {
            Output(fileDescriptor: STDERR_FILENO).writeError("apicheck crawl: \(error)")
            throw ExitCode(2)
        }
    }

    /// The root's origin, which recorded stubs name `{{baseURL}}`.
    private func recordedOrigin() throws -> String {
        guard let url = URL(string: root), case let origin = OriginRewriter.origin(of: url), !origin.isEmpty else {
            throw ValidationError("'\(root)' has no origin to record.")
        }
        return origin
    }

    private func makeOptions() throws -> CrawlOptions {
        guard let rootURL = URL(string: root) else { throw ValidationError("'\(root)' is not a URL.") }
        var redaction = Redaction()
        let headers = try credentials.parsed()
        for header in headers { redaction.registerHeader(name: header.name, value: header.value) }
        var options = CrawlOptions(
            root: rootURL, headers: headers, variables: try parsedVariables(), maximumDepth: maxDepth, maximumRequests: maxRequests,
            concurrency: concurrency, requestsPerSecond: try parsedRate(), timeout: .milliseconds(Int64(timeout * 1000)),
            deadline: .milliseconds(Int64(deadline * 1000)), maximumBodyBytes: maximumBodyBytes, allowedHosts: Set(allowHost), unsafe: unsafe,
            allowedMethodTokens: Set(["REDIRECT"] + allowMethod), rules: try report.ruleConfiguration(), shard: shard.flatMap(Shard.init(parsing:)),
            redaction: redaction, sampleSize: sample, sendsHeadersToAllowedHosts: headerToAllowedHosts
        )
        options.listsEveryCheck = report.listChecks
        return options
    }

    private func parsedRate() throws -> Double? {
        guard let rate else { return nil }
        let number = rate.hasSuffix("/s") ? String(rate.dropLast(2)) : rate
        guard let value = Double(number), value > 0 else { throw ValidationError("--rate '\(rate)' is not a positive number of requests per second, e.g. 20/s.") }
        return value
    }

    private func parsedVariables() throws -> [String: URITemplate.Value] {
        var values: [String: URITemplate.Value] = [:]
        for text in variables {
            guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
                throw ValidationError("--var '\(text)' is not 'name=value'.")
            }
            values[String(text[..<equals])] = .string(String(text[text.index(after: equals)...]))
        }
        return values
    }

    private func parsedScenarios() throws -> ScenarioSelection {
        var selection: ScenarioSelection = [:]
        for text in scenario {
            guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
                throw ValidationError("--scenario '\(text)' is not 'use-case=scenario'.")
            }
            selection[String(text[..<equals])] = String(text[text.index(after: equals)...])
        }
        return selection
    }
}

/// The one-line progress display of a long crawl: on a terminal only (stderr), silent in CI.
final class ProgressLine: Sendable {
    private let lastDraw = Mutex<ContinuousClock.Instant?>(nil)

    static func ifTerminal() -> ProgressLine? {
        isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["CI"] == nil ? ProgressLine() : nil
    }

    @Sendable func update(_ progress: Crawler.Progress) {
        let now = ContinuousClock.now
        let draw = lastDraw.withLock { last -> Bool in
            guard last.map({ now - $0 > .milliseconds(100) }) ?? true else { return false }
            last = now
            return true
        }
        guard draw else { return }
        var line = "\r\u{1B}[2Kcrawling: \(progress.fetched) done, \(progress.queued) queued (depth \(progress.depth)), \(Int(progress.rate.rounded()))/s"
        if progress.failures > 0 { line += ", \(progress.failures) failing \(progress.failures == 1 ? "response" : "responses") so far" }
        FileHandle.standardError.write(Data(line.utf8))
    }

    func finish() {
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    }
}
