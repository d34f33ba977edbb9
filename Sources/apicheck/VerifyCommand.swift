import APICheckCrawler
import APICheckFindings
import APICheckHTTPFetcher
import APICheckHypermedia
import APICheckModel
import APICheckRecording
import APICheckReportFormats
import APICheckSpool
import APICheckStubFiles
import APICheckVerifier
import ArgumentParser
import Foundation
import Logging

struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check that stubs still describe the live API: each stub's request is sent and the answers compared (drift).",
        discussion: """
            For every stub (GET, HEAD, OPTIONS and TRACE; unsafe methods only with --unsafe), its request is sent \
            to --against and the live answer compared with the stub's, rendered with the live \
            origin as baseURL:
              drift-status   the status differs (and whether its class does)
              drift-type     the Content-Type differs (type/subtype, profile; charset ignored)
              drift-links    rels the stub advertises that the API does not, and the reverse; \
            changed method, type or templated-ness
              drift-shape    JSON key paths and types (arrays by element shape); values only \
            with --compare-values; --ignore /pointer/* skips volatile parts
              drift-header   headers named with --compare-header
              drift-coverage with --coverage: the live API is crawled from --root too, and each \
            kind of resource it reaches (rel path from the root, indices stripped) that no stub \
            answers is listed (a warning; --strict fails on it)

            Templated and glob stub paths need a concrete request: the stub's "example" field \
            (/orders/42) or --var id=42, else they are listed as not checked; failure stubs are \
            not checked. Reports, baselines and rule levels work as for 'apicheck crawl': \
            --format F[=FILE] is repeatable, so one run writes several formats.

            --update rewrites drifted recorded stubs (those 'apicheck record' wrote) from the live \
            answers; hand-written stubs only with --force. The exit status still reports the drift \
            found; run verify again to confirm the update.

            Exit status: 0 no drift, 1 drift, 2 usage or infrastructure error (the API cannot be \
            reached, no stub loads).

            Examples:
              apicheck verify stubs/recorded --against https://api.example.com
              apicheck verify stubs --against https://127.0.0.1:8443 --cacert ~/.local/state/apicheck/tls/ca.pem
              apicheck verify stubs --against https://staging.example.com --var id=42 --ignore '/updatedAt' --format junit --output drift.xml
              apicheck verify stubs --against https://api.example.com --format text --format junit=drift.xml --format sarif=drift.sarif
              apicheck verify stubs --against https://api.example.com --header-from-env 'Authorization: Bearer $API_TOKEN' --update
              apicheck verify stubs --against https://api.example.com --coverage --root /v2/ --format github
            """
    )

    @Argument(help: "Stub files or folders to verify.", completion: .file())
    var paths: [String]

    @Option(help: ArgumentHelp("The live API's origin.", valueName: "url"))
    var against: String

    @OptionGroup var credentials: CredentialHeaders

    @Option(name: .customLong("var"), help: ArgumentHelp("A value for templated stub paths and query parameters.", valueName: "name=value"))
    var variables: [String] = []

    @Flag(help: "Also send POST, PUT, PATCH and DELETE stubs' requests (they change the live API).")
    var unsafe = false

    @Flag(name: .customLong("compare-values"), help: "Compare JSON values too, not only key paths and types.")
    var compareValues = false

    @Option(help: ArgumentHelp("Leave out this JSON pointer and what is below it ('*' matches any key or index). Repeatable.", valueName: "/pointer"))
    var ignore: [String] = []

    @Option(name: .customLong("compare-header"), help: ArgumentHelp("Compare this response header. Repeatable.", valueName: "name"))
    var compareHeaders: [String] = []

    @Option(help: "Requests in flight at once.")
    var concurrency = 8

    @Option(help: ArgumentHelp("Seconds per request.", valueName: "seconds"))
    var timeout = 30.0

    @Option(name: .customLong("max-body"), help: ArgumentHelp("Bodies are read up to this many bytes.", valueName: "bytes"))
    var maxBody = 8 << 20

    @Flag(help: "Also crawl the live API from --root and list the kinds of resource no stub answers (drift-coverage).")
    var coverage = false

    @Option(help: ArgumentHelp("With --coverage: where the crawl starts, a path on --against or a URL.", valueName: "path"))
    var root = "/"

    @Option(name: .customLong("max-requests"), help: "With --coverage: at most this many requests for the crawl.")
    var maxRequests = 10_000

    @Flag(help: "Rewrite drifted recorded stubs from the live answers.")
    var update = false

    @Flag(help: "With --update: rewrite hand-written stubs too.")
    var force = false

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error, critical.")
    var logLevel: LogLevel = .warning

    @OptionGroup var report: ReportOptions

    @OptionGroup(title: "TLS (HTTPS APIs)") var tls: ClientTLSFlags

    @OptionGroup(title: "Profiles (live bodies against their media types' schemas)") var profileFlags: ProfileFlags

    func validate() throws {
        do { _ = try OriginRewriter.normalizedOrigin(against) } catch { throw ValidationError("--against: \(error).") }
        for pattern in ignore {
            if let problem = DriftOptions.problem(inIgnorePattern: pattern) { throw ValidationError("--ignore '\(pattern)': \(problem).") }
        }
        guard concurrency >= 1 else { throw ValidationError("--concurrency must be at least 1.") }
        guard timeout > 0, timeout.isFinite else { throw ValidationError("--timeout must be a positive number of seconds.") }
        if force, !update { throw ValidationError("--force only applies with --update.") }
        guard maxRequests > 0 else { throw ValidationError("--max-requests must be positive.") }
        if coverage { _ = try coverageRoot() } else if root != "/" { throw ValidationError("--root is where the --coverage crawl starts: add --coverage.") }
        _ = try credentials.parsed()
        _ = try parsedVariables()
        try profileFlags.validateProfiles()
    }

    /// `--root` resolved against `--against`: the coverage crawl's start.
    private func coverageRoot() throws -> URL {
        let origin = try OriginRewriter.normalizedOrigin(against)
        let text = root.hasPrefix("/") ? origin + root : root
        guard let url = URL(string: text), url.scheme != nil, url.host != nil else {
            throw ValidationError("--root '\(root)' is not a path such as /v2/ or a URL on --against.")
        }
        // The coverage crawl compares what it reaches with --against's stubs, and sends the
        // credentials there: another origin would be both wrong and a leak.
        guard OriginRewriter.origin(of: url) == origin else {
            throw ValidationError("--root '\(root)' is not on --against (\(origin)); give a path such as /v2/.")
        }
        return url
    }

    private func parsedVariables() throws -> [String: String] {
        var values: [String: String] = [:]
        for text in variables {
            guard let equals = text.firstIndex(of: "="), equals != text.startIndex else { throw ValidationError("--var '\(text)' is not 'name=value'.") }
            values[String(text[..<equals])] = String(text[text.index(after: equals)...])
        }
        return values
    }

    func run() async throws {
        logLevel.bootstrap()
        let logger = Logger(label: "apicheck.verify")
        let output = Output(fileDescriptor: STDERR_FILENO)
        let loaded = StubLoader().load(paths)
        for diagnostic in loaded.diagnostics { output.writeError(output.format(diagnostic)) }
        if loaded.stubSet.isEmpty {
            output.writeError("error: no stubs loaded from \(paths.joined(separator: ", ")); check the paths with 'apicheck lint'.")
            throw ExitCode(2)
        }
        let headers = try credentials.parsed()
        var redaction = Redaction()
        for header in headers { redaction.registerHeader(name: header.name, value: header.value) }
        let (profiles, profileProblems) = profileFlags.load(stubFolders: paths)
        for diagnostic in profileProblems { output.writeError(output.format(diagnostic)) }
        if profileProblems.contains(where: { $0.severity == .error }) {
            output.writeError("error: a profile could not be loaded; fix it (check it with 'apicheck schema lint FILE') or leave it out")
            throw ExitCode(2)
        }
        var options = VerifyOptions(
            origin: try OriginRewriter.normalizedOrigin(against), headers: headers, variables: try parsedVariables(), unsafe: unsafe,
            drift: DriftOptions(compareValues: compareValues, ignoredPointers: ignore, comparedHeaders: compareHeaders),
            concurrency: concurrency, timeout: .milliseconds(Int64(timeout * 1000)), maximumBodyBytes: maxBody,
            rules: try report.ruleConfiguration(), redaction: redaction)
        options.profiles = profiles
        let trust = try tls.checkedTrust(output, command: "verify")
        options.rules.insecureTLS = tls.insecure
        let tool = ToolInfo(version: APICheckVersion.current, informationURI: "https://github.com/apicheck/apicheck")
        var crawlOptions = coverage
            ? CrawlOptions(
                root: try coverageRoot(), headers: headers, variables: options.variables.mapValues { .string($0) }, maximumRequests: maxRequests,
                concurrency: concurrency, timeout: options.timeout, maximumBodyBytes: maxBody, rules: options.rules, redaction: redaction)
            : nil
        // Coverage compares every link the crawl reached with the stubs, passed ones included.
        crawlOptions?.listsEveryCheck = true
        let (verifyReport, verified) = try await withHTTPFetcher(concurrency: concurrency, trust: trust, logger: logger) { fetcher in
            // The crawl only finds what exists live; its own contract findings are crawl's business.
            var crawl: CrawlReport?
            if let crawlOptions { crawl = await Crawler(fetcher: fetcher, options: crawlOptions, logger: logger).run(tool: tool) }
            return await StubVerifier(stubs: loaded.stubSet, live: fetcher, options: options, logger: logger).run(tool: tool, coverage: crawl)
        }
        if update {
            let updated = updateStubs(verified, secrets: headers.map(\.value), output: output)
            if updated > 0 { output.writeError("Updated \(updated) stub file\(updated == 1 ? "" : "s") from the live API; run 'apicheck verify' again to confirm.") }
        }
        let code = try report.emit(verifyReport, redaction: redaction)
        if code != 0 { throw ExitCode(code) }
    }

    /// Re-records drifted stubs that a recording wrote (or any, with --force) over their files.
    private func updateStubs(_ verified: [StubVerifier.Verified], secrets: [String], output: Output) -> Int {
        var updated = 0
        for item in verified where !item.drifts.isEmpty {
            guard let live = item.live else { continue }
            let file = URL(fileURLWithPath: item.stub.source.path)
            guard force || item.stub.description.hasPrefix("Recorded from ") else {
                output.writeError("\(item.stub.source): drifted but written by hand: not updated (add --force to rewrite it)")
                continue
            }
            let request = StubRequest(method: item.request.method, url: item.request.url, headers: item.request.headers)
            let format: RecordingOptions.Format = file.pathExtension.lowercased() == "xml" ? .xml : .json
            let options = RecordingOptions(format: format, overwrite: true, secrets: secrets)
            // The recorder names files after the request: update in place only when that is this
            // file, in the recording folder its name implies.
            let relative = StubRecorder.relativePath(for: request, options: options)
            let filePath = file.standardizedFileURL.path
            guard filePath.hasSuffix("/" + relative),
                let recorder = try? StubRecorder(directory: URL(fileURLWithPath: String(filePath.dropLast(relative.count))), options: options)
            else {
                output.writeError(
                    "\(item.stub.source): drifted, but not updated: a recording of \(item.request.method) \(item.request.url.path) is written as \(relative) in its folder"
                        + (item.stub.request.path.kind == .literal ? "; move the stub there, or re-record it with 'apicheck record'" : ", one file per resource, and this stub answers a pattern; edit it by hand"))
                continue
            }
            let exchange = RecordedExchange(
                request: request, response: UpstreamResponse(status: live.status, headers: live.headers, body: live.body),
                upstream: (try? OriginRewriter.normalizedOrigin(against)) ?? against)
            switch recorder.record(exchange) {
            case .written: updated += 1
            case let outcome: output.writeError("\(item.stub.source): \(outcome)")
            }
        }
        return updated
    }
}
