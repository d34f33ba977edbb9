import APICheckHTTPFetcher
import APICheckModel
import APICheckRecording
import APICheckServer
import ArgumentParser
import Foundation
import Logging

struct RecordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record a live API as stub files: a proxy that writes down what the API answers.",
        discussion: """
            Point a client (an app, a test, curl, 'apicheck crawl') at the URL printed first: each \
            request is forwarded to the upstream, its answer returned (with the upstream's origin \
            rewritten to the proxy's, so links lead back through it; --no-rewrite-links passes \
            answers on byte for byte), and each distinct \
            exchange written into --to as a stub file that 'apicheck lint' accepts and 'apicheck \
            serve' or the interceptor serve again.

            - One file per resource, named after the path (orders/42.json; POST /orders → \
            orders.post.json; a query adds .q-…); matching is on method, path and query, plus \
            --match-header names.
            - The upstream's origin in bodies and in Location, Content-Location and Link headers \
            becomes {{baseURL}}, so the recording serves correct links on any port and in-process.
            - Secrets never reach the disk: Authorization, Cookie and API-key header values, \
            Set-Cookie values, token-like query parameters (token, key, password, signature, …), \
            --redact-header, --redact-json and --redact-query are replaced by REDACTED; the \
            summary says what was.
            - Nothing is written outside --to; existing files are left alone without --overwrite.

            Stop with Ctrl-C: the summary says what was written.

            Exit status: 0 after a stop, 2 when the port is taken or an option is invalid.

            Examples:
              apicheck record https://api.example.com --to stubs/recorded --port 3000
              apicheck record http://localhost:8000 --to stubs/shop --sequences --redact-json /user/email
              apicheck record https://api.example.com --to stubs/rec --format xml --match-header Accept
              apicheck record https://staging.internal:8443 --cacert corp-ca.pem --to stubs/staging
              apicheck record https://api.example.com --to stubs/rec --tls --port 8443   (the proxy speaks HTTPS too)
            """
    )

    @Argument(help: "The API to record, as an origin (https://api.example.com).")
    var upstream: String

    @Option(help: ArgumentHelp("The folder to write stub files into (created if needed).", valueName: "dir"), completion: .directory)
    var to: String

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port (0 picks a free one; the first line printed says which).")
    var port = 8080

    @Option(help: "json or xml stub files.")
    var format: RecordingOptions.Format = .json

    @Option(name: .customLong("max-upstream-body"), help: "Largest answer body forwarded and recorded, in bytes or with K/M/G (502 beyond).")
    var maxUpstreamBody = "64M"

    @Option(help: ArgumentHelp("Seconds the upstream has for a whole answer (502 beyond).", valueName: "seconds"))
    var timeout = 30.0

    @Option(name: .customLong("log-level"), help: "trace, debug, info (one line per forwarded request), notice, warning, error, critical.")
    var logLevel: LogLevel = .info

    @Flag(name: .customLong("no-rewrite-links"), help: "Pass the upstream's answers on byte for byte (default: its origin becomes this server's in text bodies and Location/Link headers, so clients following links stay here).")
    var noRewriteLinks = false

    @OptionGroup(title: "Recording") var recording: RecordingFlags

    @OptionGroup(title: "TLS toward the API (an HTTPS upstream)") var upstreamTLS: ClientTLSFlags

    @OptionGroup(title: "TLS for clients (the proxy listens with HTTPS)") var serverTLS: ServerTLSFlags

    func validate() throws {
        do { _ = try OriginRewriter.normalizedOrigin(upstream) } catch { throw ValidationError("\(error).") }
        guard (0...65535).contains(port) else { throw ValidationError("--port \(port) is not in 0...65535.") }
        guard ServeCommand.byteCount(maxUpstreamBody) != nil else { throw ValidationError("--max-upstream-body '\(maxUpstreamBody)' is not a size such as 64M.") }
        guard timeout > 0, timeout.isFinite else { throw ValidationError("--timeout must be a positive number of seconds.") }
    }

    func run() async throws {
        let termination = TerminationSignal()
        logLevel.bootstrap()
        let logger = Logger(label: "apicheck.record")
        let output = Output(fileDescriptor: STDERR_FILENO)
        let origin = try OriginRewriter.normalizedOrigin(upstream)
        let recorder: StubRecorder
        do {
            recorder = try StubRecorder(directory: URL(fileURLWithPath: to), options: recording.options(format: format), logger: logger)
        } catch {
            output.writeError("apicheck record: \(error)")
            throw ExitCode(2)
        }
        let maximumBody = ServeCommand.byteCount(maxUpstreamBody) ?? 64 << 20
        let timeout = Duration.milliseconds(Int64(self.timeout * 1000))
        let trust = try upstreamTLS.checkedTrust(output, command: "record")
        let preparedTLS = try serverTLS.configuration(output: output)
        try await withHTTPFetcher(concurrency: 64, trust: trust, logger: logger) { fetcher in
            let forwarder = UpstreamForwarder(origin: origin, fetcher: fetcher, maximumBodyBytes: maximumBody, timeout: timeout)
            var configuration = StubServer.Configuration(host: host, port: port)
            configuration.tls = preparedTLS.tls
            configuration.cleartextHTTP2 = serverTLS.cleartextHTTP2
            configuration.upstream = ProxyUpstream(forwarder: forwarder, recorder: recorder, rewritesLinks: !noRewriteLinks)
            configuration.limits.maximumBodyBytes = maximumBody
            configuration.limits.maximumBodyMemory = max(configuration.limits.maximumBodyMemory, maximumBody)
            let server: StubServer
            do throws(StubServerError) {
                server = try await StubServer.start(stubs: StubSet([]), configuration: configuration, logger: logger)
            } catch {
                output.writeError("apicheck record: \(error.message)")
                throw ExitCode(2)
            }
            Output().write("Listening on \(server.baseURL) (recording \(origin) into \(recorder.directory.path))")
            preparedTLS.printTrust(for: server, output: output)
            Output().write("Send requests to \(server.baseURL) as you would to \(origin). Stop with Ctrl-C.")
            try await runUntilSignalled(server, termination: termination, logger: logger)
        }
        output.writeError("Recorded into \(recorder.directory.path): \(recorder.summary)")
        if !recorder.summary.written.isEmpty {
            output.writeError("Next: apicheck lint \(to) && apicheck serve \(to)")
        }
    }
}
