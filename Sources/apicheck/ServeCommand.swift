import APICheckCrawler
import APICheckHTTPFetcher
import APICheckHypermedia
import APICheckModel
import APICheckOpenAPI
import APICheckRecording
import APICheckServer
import APICheckStubFiles
import APICheckVerifier
import ArgumentParser
import CAPICheckMalloc
import Dispatch
import Foundation
import Logging
import ServiceLifecycle
import Synchronization

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve stub files, or an OpenAPI document as a mock, over HTTP/1.1 on 127.0.0.1, or HTTPS with HTTP/2 (--tls) (SwiftNIO).",
        discussion: """
            Answers requests from the stubs exactly as the in-process interceptor does (same \
            matching, sequences, scenarios, templates). The first line printed is the URL it \
            listens on. Unmatched requests get a 404 application/problem+json that explains the \
            nearest stubs. The admin API lives under /__apicheck/ (health, stubs, runtime stubs \
            added and removed as WireMock's are, the journal and its queries, scenarios, reset, \
            reload); see docs/stub-server.md. A browser at /__apicheck/ gets the live page: \
            the stubs with their match rules, scenarios to select, the requests as they arrive \
            with each one's stub or near misses, the last reload and its errors.

            Binds 127.0.0.1 unless --host says otherwise. Stops gracefully on Ctrl-C or SIGTERM \
            (requests in flight finish) and exits 0.

            Exit status: 0 after a graceful stop, 2 when the port is taken, a path is missing, \
            no stub loads, or an option is invalid.

            Examples:
              apicheck serve stubs/acmeflix --port 3000
              apicheck serve stubs/acmeflix --tls --port 8443
              apicheck serve stubs --tls --tls-host 10.0.2.2 --host 0.0.0.0 --base-url https://10.0.2.2:8443 --port 8443
              apicheck serve stubs --cert server.pem --key server-key.pem --client-ca clients.pem
              apicheck serve stubs/acmeflix --port 0 --rewrite-origin http://localhost:3000
              apicheck serve stubs --watch --scenario welcome-screen/sign-in=fail-locked
              apicheck serve stubs --host 0.0.0.0 --base-url http://10.0.2.2:8080 --cors
              apicheck serve stubs --proxy https://api.example.com --record-to recorded
              apicheck serve --openapi stubs/acmeflix.openapi.yaml --port 4010
              apicheck serve --openapi api.yaml --validate-requests
              curl -H 'Prefer: code=404' http://127.0.0.1:4010/movies/1

            HTTPS (--tls): one port speaks TLS 1.2+ with HTTP/2 (ALPN h2) and HTTP/1.1, the \
            same answers as cleartext. The certificate comes from a local CA made once under \
            --tls-dir and kept (trust it once: the path, its SHA-256 fingerprint and how to trust \
            it on macOS, the iOS Simulator, Android and curl are printed); it covers localhost, \
            127.0.0.1, ::1 and each --tls-host, and is issued again when those change or it nears \
            its end. --cert/--key serve your own; --client-ca requires client certificates. On \
            HTTP/2 a stub's connection failure resets its stream. --h2c adds cleartext HTTP/2 \
            (prior knowledge) to a plain port.

            Spy mode (--proxy): stubs answer what they match; everything else goes to the API \
            and comes back with the API's origin rewritten to this server's in text bodies and \
            Location/Link headers, so clients following links stay here (--no-rewrite-links: byte \
            for byte); a 502 problem document when it cannot be reached. With \
            --record-to, those answers are also written as stub files, as 'apicheck record' does.

            Mock mode (--openapi FILE, instead of stub folders): serves the stubs 'apicheck \
            import openapi FILE' would write, without writing them: each operation's default \
            answer (lowest 2xx, else 3xx, else default), 'Prefer: code=404' for another \
            documented status, 'Prefer: example=name' for a named example (Prism's \
            conventions); a Prefer the operation does not answer gets a 404 problem document \
            listing the ones it does. Paths are the document's templates without the servers' \
            base path. --validate-requests also refuses requests the document does not allow \
            (404 unknown path, 405 method, 400 missing or invalid parameter, 415 body type, 422 \
            body against the requestBody schema), each an application/problem+json naming the \
            parameter or the body's failing location.
            """
    )

    @Argument(help: "Stub files or folders to serve.", completion: .file())
    var paths: [String] = []

    @Option(help: ArgumentHelp("Serve an OpenAPI document's stubs (mock mode) instead of stub files.", valueName: "file"), completion: .file())
    var openapi: String?

    @Flag(name: .customLong("validate-requests"), help: "With --openapi: answer requests the document does not allow with a 400/404/405/415/422 problem document.")
    var validateRequests = false

    @Option(help: "The address to listen on. Anything but loopback exposes the stubs to the network.")
    var host = "127.0.0.1"

    @Option(help: "The port (0 picks a free one; the first line printed says which).")
    var port = 8080

    @Option(name: .customLong("base-url"), help: "The origin clients use to reach the server, when not http://host:port (templates' baseURL, rewritten links).")
    var baseURL: String?

    @Flag(help: "Reload when stub files change; a broken file is reported and the last good set keeps serving.")
    var watch = false

    @Option(name: .customLong("scenario"), help: ArgumentHelp("Activate a scenario: use-case=scenario (the folder and the file name). Repeatable.", valueName: "use-case=name"))
    var scenarios: [String] = []

    @Option(name: .customLong("admin-token"), help: "Open the admin API to any peer that sends 'Authorization: Bearer <token>' (otherwise loopback only).")
    var adminToken: String?

    @Option(
        name: .customLong("admin-host"),
        help: ArgumentHelp(
            "Another host name the admin API answers to in Host (repeatable); IP addresses, localhost, --host, --base-url and each --tls-host are accepted already, other names are refused (DNS rebinding).",
            valueName: "name"))
    var adminHosts: [String] = []

    @Option(name: .customLong("rewrite-origin"), help: ArgumentHelp("Rewrite this origin to the server's own in text bodies and Location/Content-Location/Link headers. Repeatable.", valueName: "http://host:port"))
    var rewriteOrigins: [String] = []

    @Flag(help: "Answer CORS preflights and add CORS headers to every response.")
    var cors = false

    @Option(name: .customLong("log-level"), help: "trace, debug (one line per request), info, notice, warning (unmatched requests), error, critical.")
    var logLevel: LogLevel = .info

    @Option(name: .customLong("max-body"), help: "Largest request body accepted, in bytes or with K/M/G (413 beyond).")
    var maxBody = "8M"

    @Option(name: .customLong("max-header"), help: "Largest request head (request line + headers), in bytes or with K/M (431 beyond).")
    var maxHeader = "16K"

    @Option(name: .customLong("idle-timeout"), help: "Seconds a connection may stay silent before it is closed.")
    var idleTimeout = 30.0

    @Option(name: .customLong("header-timeout"), help: "Seconds a request head may take to arrive once it has started, and the grace before a body must keep 500 bytes/s (408 beyond: dripping clients cannot hold connections).")
    var headerTimeout = 10.0

    @Option(name: .customLong("max-connections"), help: "Connections open at once; beyond it new ones wait until one closes.")
    var maxConnections = 1024

    @Option(name: .customLong("max-body-memory"), help: "Request bodies held in memory at once, across connections, with K/M/G (503 with Retry-After beyond).")
    var maxBodyMemory = "256M"

    @Option(name: .customLong("journal-bytes"), help: "Request body bytes the journal keeps in all, with K/M/G (each entry keeps at most 16K of its body; beyond it the oldest entries are dropped whole).")
    var journalBytes = "8M"

    @Option(name: .customLong("shutdown-timeout"), help: "Seconds requests in flight get to finish on Ctrl-C or SIGTERM.")
    var shutdownTimeout = 10.0

    @Option(name: .customLong("journal-capacity"), help: "How many requests the journal (admin API) keeps; the oldest are dropped first.")
    var journalCapacity = 10_000

    @Option(help: "Event loop threads (default: one per core).")
    var threads: Int?

    @Option(help: "The stub root that body-file paths resolve against and may not leave (default: each folder argument).", completion: .directory)
    var root: String?

    @Option(help: ArgumentHelp("Spy mode: send what no stub matches to this API and return its answer (the journal and the log say which requests went there).", valueName: "url"))
    var proxy: String?

    @Option(name: .customLong("record-to"), help: ArgumentHelp("With --proxy: write what the API answered as stub files in this folder.", valueName: "dir"), completion: .directory)
    var recordTo: String?

    @Option(name: .customLong("record-format"), help: "With --record-to: json or xml stub files.")
    var recordFormat: RecordingOptions.Format = .json

    @Flag(name: .customLong("no-rewrite-links"), help: "Pass the upstream's answers on byte for byte (default: its origin becomes this server's in text bodies and Location/Link headers, so clients following links stay here).")
    var noRewriteLinks = false

    @OptionGroup(title: "Recording (with --record-to)") var recording: RecordingFlags

    @OptionGroup(title: "Profiles (stub bodies checked at load, warnings only)") var profileFlags: ProfileFlags

    @OptionGroup(title: "HTTPS and HTTP/2") var tls: ServerTLSFlags

    @OptionGroup(title: "TLS toward the upstream (with --proxy)") var upstreamTLS: ClientTLSFlags

    func validate() throws {
        try profileFlags.validateProfiles()
        if let openapi {
            guard paths.isEmpty else {
                throw ValidationError("Serve either stub files or --openapi \(openapi), not both (import the document with 'apicheck import openapi' to combine them).")
            }
            guard OpenAPIDocumentLoader.isURL(openapi) || FileManager.default.fileExists(atPath: openapi) else { throw ValidationError("'\(openapi)': no such file.") }
            if watch { throw ValidationError("--watch reloads stub files; with --openapi, restart the server after changing the document.") }
            if proxy != nil { throw ValidationError("--proxy sends unmatched requests upstream; with --openapi every documented operation is answered: serve imported stubs instead.") }
        } else if validateRequests {
            throw ValidationError("--validate-requests checks requests against a document: add --openapi FILE.")
        }
        if paths.isEmpty, openapi == nil {
            throw ValidationError("Name at least one stub folder or file, e.g. 'apicheck serve stubs/acmeflix' (or --openapi FILE).")
        }
        for path in paths where !FileManager.default.fileExists(atPath: path) {
            throw ValidationError("'\(path)': no such file or folder.")
        }
        try validateRoot(root)
        guard (0...65535).contains(port) else { throw ValidationError("--port \(port) is not in 0...65535.") }
        _ = try selection()
        guard Self.byteCount(maxBody) != nil else { throw ValidationError("--max-body '\(maxBody)' is not a size such as 8M or 1048576.") }
        guard Self.byteCount(maxHeader).map({ $0 > 0 }) == true else { throw ValidationError("--max-header '\(maxHeader)' is not a size such as 16K.") }
        guard idleTimeout > 0, idleTimeout.isFinite else { throw ValidationError("--idle-timeout must be a positive number of seconds.") }
        guard headerTimeout > 0, headerTimeout.isFinite else { throw ValidationError("--header-timeout must be a positive number of seconds.") }
        guard maxConnections > 0 else { throw ValidationError("--max-connections must be at least 1.") }
        guard let bodyMemory = Self.byteCount(maxBodyMemory), bodyMemory > 0 else {
            throw ValidationError("--max-body-memory '\(maxBodyMemory)' is not a size such as 256M.")
        }
        if let body = Self.byteCount(maxBody), body > bodyMemory {
            throw ValidationError("--max-body \(maxBody) is larger than --max-body-memory \(maxBodyMemory): no such body could ever be received; raise --max-body-memory.")
        }
        guard Self.byteCount(journalBytes) != nil else { throw ValidationError("--journal-bytes '\(journalBytes)' is not a size such as 64M.") }
        guard shutdownTimeout >= 0, shutdownTimeout.isFinite else { throw ValidationError("--shutdown-timeout must be zero or more seconds.") }
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1.") }
        if journalCapacity < 1 { throw ValidationError("--journal-capacity must be at least 1.") }
        if recordTo != nil, proxy == nil {
            throw ValidationError("--record-to records what the upstream answers: add --proxy <url>, or use 'apicheck record <url> --to DIR' to record without stubs.")
        }
        for origin in rewriteOrigins + (baseURL.map { [$0] } ?? []) + (proxy.map { [$0] } ?? []) {
            do { _ = try OriginRewriter.normalizedOrigin(origin) } catch { throw ValidationError("\(error).") }
        }
    }

    func selection() throws -> ScenarioSelection {
        var selection: ScenarioSelection = [:]
        for item in scenarios {
            let parts = item.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw ValidationError("--scenario '\(item)' must be use-case=scenario, e.g. welcome-screen/sign-in=fail-locked.")
            }
            selection[String(parts[0])] = String(parts[1])
        }
        return selection
    }

    /// `8M`, `512K`, `1G`, `1048576`.
    static func byteCount(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).uppercased()
        let multipliers: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        if let last = trimmed.last, let multiplier = multipliers[last] {
            guard let value = Int(trimmed.dropLast()), value >= 0, value <= Int.max / multiplier else { return nil }
            return value * multiplier
        }
        guard let value = Int(trimmed), value >= 0 else { return nil }
        return value
    }

    func run() async throws {
        // Before anything else: a signal source registers asynchronously, and a SIGTERM sent as
        // soon as the URL is printed must not find the default action (or nothing) in place.
        let termination = TerminationSignal()
        logLevel.bootstrap()
        let logger = Logger(label: "apicheck.server")
        let output = Output(fileDescriptor: STDERR_FILENO)

        let options = StubLoadOptions(root: root)
        var source = StubSource(paths: paths, options: options)
        if watch { source.recordFingerprint() }
        // Stub bodies against their profiles, at load and at every reload: warnings, never a
        // reason to refuse a request (lint makes them errors).
        let (profileFiles, formatAssertion, folders) = (profileFlags.profiles, profileFlags.formatAssertion, paths)
        source.additionalChecks = { stubs in
            var flags = ProfileFlags()
            flags.profiles = profileFiles
            flags.formatAssertion = formatAssertion
            let (profiles, problems) = flags.load(stubFolders: folders)
            return problems.map { Diagnostic(.warning, $0.message, at: $0.location) }
                + StubProfileCheck(profiles: profiles).diagnostics(stubs.stubs, severity: .warning)
        }
        let result: StubLoadResult
        var requestGate: OpenAPIRequestGate?
        if let openapi {
            (result, requestGate) = try await Self.mock(openapi, validatesRequests: validateRequests, options: options, logger: logger, output: output)
        } else {
            result = StubLoader(options: options, logger: logger).load(paths)
        }
        for diagnostic in result.diagnostics + (source.additionalChecks?(result.stubSet) ?? []) { output.writeError(output.format(diagnostic)) }
        if result.stubSet.isEmpty, openapi != nil {
            output.writeError("apicheck serve: \(openapi ?? "") documents no operation to answer.")
            throw ExitCode(2)
        }
        if result.stubSet.isEmpty, proxy == nil {
            output.writeError("apicheck serve: no stubs loaded from \(paths.joined(separator: " ")); fix the errors above (apicheck lint shows them) or name a folder with stub files.")
            throw ExitCode(2)
        }
        if result.hasErrors {
            let invalid = result.files.filter { !$0.isValid }.count
            output.writeError("apicheck serve: \(invalid) invalid \(invalid == 1 ? "file is" : "files are") not served; serving the \(counted(result.stubSet.count, "stub")) of the valid files.")
        }

        var limits = StubServer.Limits(
            maximumHeaderBytes: Self.byteCount(maxHeader) ?? 16 << 10, maximumBodyBytes: Self.byteCount(maxBody) ?? 8 << 20,
            idleTimeout: .milliseconds(Int64(idleTimeout * 1000))
        )
        limits.headerTimeout = .milliseconds(Int64(headerTimeout * 1000))
        limits.maximumConnections = maxConnections
        limits.maximumBodyMemory = Self.byteCount(maxBodyMemory) ?? limits.maximumBodyMemory
        limits.maximumJournalBytes = Self.byteCount(journalBytes) ?? limits.maximumJournalBytes
        var configuration = StubServer.Configuration(
            host: host, port: port, baseURL: baseURL, eventLoopThreads: threads ?? ProcessInfo.processInfo.activeProcessorCount,
            limits: limits,
            cors: cors, adminToken: adminToken, rewriteOrigins: rewriteOrigins, scenarios: try selection(),
            journalCapacity: journalCapacity, shutdownTimeout: .milliseconds(Int64(shutdownTimeout * 1000)), watchInterval: watch ? .milliseconds(300) : nil
        )
        // The process is ours: after a burst of large uploads, give glibc's free heap back.
        configuration.releaseFreeMemory = { apicheck_release_free_memory() }
        configuration.requestGate = requestGate
        let preparedTLS = try tls.configuration(output: output)
        configuration.tls = preparedTLS.tls
        configuration.cleartextHTTP2 = tls.cleartextHTTP2
        configuration.adminHosts = adminHosts + tls.tlsHosts
        let stubs = result.stubSet
        guard let proxy else {
            try await serve(
                stubs, source: openapi == nil ? source : nil, configuration: configuration, preparedTLS: preparedTLS, termination: termination, logger: logger,
                output: output)
            return
        }
        let upstreamOrigin = try OriginRewriter.normalizedOrigin(proxy)
        let recordingOptions = recording.options(format: recordFormat)
        let recordTo = self.recordTo
        let trust = try upstreamTLS.checkedTrust(output, command: "serve")
        try await withHTTPFetcher(concurrency: 64, trust: trust, logger: logger) { fetcher in
            let recorder = try recordTo.map { folder in
                do {
                    return try StubRecorder(directory: URL(fileURLWithPath: folder), options: recordingOptions, logger: logger)
                } catch {
                    output.writeError("apicheck serve: \(error)")
                    throw ExitCode(2)
                }
            }
            var configuration = configuration
            configuration.upstream = ProxyUpstream(
                forwarder: UpstreamForwarder(origin: upstreamOrigin, fetcher: fetcher), recorder: recorder, rewritesLinks: !noRewriteLinks)
            try await serve(stubs, source: source, configuration: configuration, preparedTLS: preparedTLS, termination: termination, logger: logger, output: output)
            if let recorder { output.writeError("Recorded into \(recorder.directory.path): \(recorder.summary)") }
        }
    }

    /// The stub set `apicheck import openapi` would write, loaded from memory, and the gate in
    /// front of it (Prefer values the stubs do not answer; with `validatesRequests`, the requests
    /// the document does not allow).
    static func mock(
        _ path: String, validatesRequests: Bool, options: StubLoadOptions, logger: Logger, output: Output
    ) async throws -> (StubLoadResult, OpenAPIRequestGate) {
        let document = try await OpenAPIFlags.load(path)
        let stubs = OpenAPIStubBuilder().build(document).servedAlsoUnder(document.basePaths)
        // Where relative names of the stubs resolve (files named in a document read by URL: the working folder).
        let folder = OpenAPIDocumentLoader.isURL(path) ? FileManager.default.currentDirectoryPath : URL(fileURLWithPath: path).deletingLastPathComponent().path
        var result = StubLoader(options: options, logger: logger).load(
            jsonFiles: stubs.files.map { (path + "#" + $0.name, $0.bytes) }, folder: folder)
        let gate = OpenAPIRequestGate(document: document, stubs: stubs, validatesRequests: validatesRequests)
        result.diagnostics = stubs.diagnostics + gate.diagnostics + result.diagnostics
        return (result, gate)
    }

    private func serve(
        _ stubs: StubSet, source: StubSource?, configuration: StubServer.Configuration, preparedTLS: ServerTLSFlags.PreparedTLS,
        termination: TerminationSignal, logger: Logger, output: Output
    ) async throws {
        let server: StubServer
        do {
            server = try await StubServer.start(stubs: stubs, source: source, configuration: configuration, logger: logger)
        } catch {
            output.writeError("apicheck serve: \(error.message)")
            throw ExitCode(2)
        }
        for (useCase, scenario) in configuration.scenarios
        where !stubs.stubs.contains(where: { $0.scenario?.useCase == useCase && $0.scenario?.name == scenario }) {
            logger.warning("--scenario \(useCase)=\(scenario) names no stub; GET \(server.baseURL)/__apicheck/scenarios lists the use cases")
        }

        // The first line says where it listens; scripts and tests read it.
        Output().write("Listening on \(server.baseURL) (\(counted(stubs.count, "stub")))")
        preparedTLS.printTrust(for: server, output: output)
        Output().write(
            "Live page and admin API: \(server.baseURL)/__apicheck/\(adminToken == nil ? " (loopback only)" : " (token required)")\(watch ? "; watching for changes" : ""). Stop with Ctrl-C.")

        if let upstream = configuration.upstream {
            Output().write("Unmatched requests go to \(upstream.origin)\(recordTo.map { "; recording into \($0)" } ?? "").")
        }
        try await runUntilSignalled(server, termination: termination, logger: logger)
    }
}

