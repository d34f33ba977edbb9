import APICheckCrawler
import APICheckModel
import APICheckTLS
import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization

/// Crawls a live API over HTTP/1.1 with AsyncHTTPClient.
///
/// Redirects are not followed here (the crawl engine follows them, bounded and loop-checked, so a
/// live crawl and an in-memory crawl behave alike); bodies are read up to the crawl's limit and
/// decompressed with a ratio bound (no zip bombs). One client per crawl, shut down by
/// ``withHTTPFetcher(concurrency:logger:_:)`` whether the crawl throws or not.
public struct HTTPFetcher: CrawlFetcher {
    private let client: HTTPClient
    private let logger: Logger
    /// What the client trusts; a refused certificate is explained against it.
    private let trust: ClientTrust
    /// Each HTTPS origin's certificate, checked once before its first request.
    private let certificates = CertificateChecks()

    init(client: HTTPClient, trust: ClientTrust = .system, logger: Logger) {
        self.client = client
        self.trust = trust
        // AsyncHTTPClient logs every request at debug: that is the crawl's trace level.
        var clientLogger = logger
        if clientLogger.logLevel > .trace { clientLogger.logLevel = max(clientLogger.logLevel, .info) }
        self.logger = clientLogger
    }

    public var isLive: Bool { true }

    /// The headers that describe the body this fetcher hands over. The client asks for gzip and
    /// deflate and decodes them (NIO's decompressor: the first `Content-Encoding` token, when it
    /// is one of those two), so that coding is gone from the body and must go from the headers,
    /// or a proxy would pass on plain bytes labelled gzip and a recording would write them so.
    static func decodedHeaders(_ headers: [HTTPHeader]) -> [HTTPHeader] {
        guard let index = headers.firstIndex(where: { $0.name.caseInsensitiveEquals("Content-Encoding") }) else { return headers }
        var codings = headers[index].value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard let first = codings.first, ["gzip", "deflate"].contains(first.lowercased()) else { return headers }
        codings.removeFirst()
        var result = headers
        if codings.isEmpty {
            result.remove(at: index)
        } else {
            result[index].value = codings.joined(separator: ", ")
        }
        // The length on the wire was the coded body's.
        return result.filter { !$0.name.caseInsensitiveEquals("Content-Length") }
    }

    public func fetch(_ request: FetchRequest, maximumBodyBytes: Int, timeout: Duration) async throws(FetchError) -> FetchedResponse {
        guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw FetchError(.unsupportedScheme, request.url.scheme ?? "none")
        }
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.method)
        for header in request.headers { outgoing.headers.add(name: header.name, value: header.value) }
        if !request.body.isEmpty { outgoing.body = .bytes(ByteBuffer(bytes: request.body)) }
        if case .refused(let reason) = await certificates.outcome(for: request.url, trust: trust) {
            throw FetchError(.connectionFailed, "TLS: " + reason)
        }
        let deadline = TimeAmount.nanoseconds(Int64(timeout.components.seconds) * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000)
        let start = ContinuousClock.now
        do {
            let response = try await client.execute(outgoing, timeout: deadline, logger: logger)
            let received = response.headers.map { HTTPHeader(name: $0.name, value: $0.value) }
            // A HEAD answer has no body to decode: its headers describe the GET's.
            let headers = request.method == "HEAD" ? received : Self.decodedHeaders(received)
            var body = Data()
            var truncated = false
            if request.method != "HEAD" {
                (body, truncated) = try await Self.read(
                    response.body, maximumBytes: maximumBodyBytes, within: timeout - (ContinuousClock.now - start), timer: client.eventLoopGroup.next())
            }
            return FetchedResponse(status: Int(response.status.code), headers: headers, body: body, isTruncated: truncated)
        } catch let error as HTTPClientError {
            throw Self.fetchError(error)
        } catch where CertificateDiagnosis.isCertificateRefusal(error) {
            // Refused after the check passed: the server changed its certificate mid-run.
            let reason = await CertificateDiagnosis.explain(host: request.url.host ?? "localhost", port: request.url.port ?? 443, trust: trust)
            throw FetchError(.connectionFailed, "TLS: " + (reason ?? "the server's certificate was refused (\(error))"))
        } catch {
            throw FetchError(.connectionFailed, Self.connectionFailure(error, url: request.url))
        }
    }

    /// The body up to `maximumBytes` (a 50 MB body costs the limit, not 50 MB), and whether there
    /// was more; `deadlineExceeded` after `time`.
    ///
    /// AsyncHTTPClient's deadline ends when the head arrives, and a body that drips a byte at a
    /// time never trips a read timeout: without this bound such a server holds the exchange (and a
    /// proxy's client) for as long as it likes. Measured: a 40-byte body at one byte per 0.5 s took
    /// 10 s through `apicheck record --timeout 2`; with it, a 502 after 2 s.
    ///
    /// The bound is a timer on an event loop, cancelled when the body is whole: a `Task.sleep`
    /// per request stays allocated until its time is up even when cancelled (measured: 30,000 of
    /// them alive in a 30,000-resource crawl, ~850 bytes each, memory growing with the crawl).
    private static func read(
        _ body: HTTPClientResponse.Body, maximumBytes: Int, within time: Duration, timer eventLoop: any EventLoop
    ) async throws -> (Data, truncated: Bool) {
        let reading = Task<(Data, truncated: Bool), any Error> {
            var data = Data()
            for try await chunk in body {
                let room = maximumBytes - data.count
                if chunk.readableBytes > room {
                    data.append(contentsOf: chunk.readableBytesView.prefix(room))
                    return (data, true)
                }
                data.append(contentsOf: chunk.readableBytesView)
            }
            // A stream ended by cancellation is not a whole body.
            try Task.checkCancellation()
            return (data, false)
        }
        let timedOut = Mutex(false)
        let nanoseconds = max(0, Int64(time.components.seconds) * 1_000_000_000 + time.components.attoseconds / 1_000_000_000)
        // Cancelling the reading task cancels the stream, which closes the connection.
        let timer = eventLoop.scheduleTask(in: .nanoseconds(nanoseconds)) {
            timedOut.withLock { $0 = true }
            reading.cancel()
        }
        defer { timer.cancel() }
        do {
            // Whole (or cut at the limit) before the timer: kept, even if the timer fired since.
            return try await withTaskCancellationHandler { try await reading.value } onCancel: { reading.cancel() }
        } catch {
            if timedOut.withLock({ $0 }) { throw HTTPClientError.deadlineExceeded }
            throw error
        }
    }

    public func stubAnswers(_ request: FetchRequest, ignoringBody: Bool) -> StubAnswerCheck? { nil }


    /// What went wrong connecting, in words a user can act on (NIO's own descriptions name
    /// system calls and errno values).
    static func connectionFailure(_ error: any Error, url: URL) -> String {
        let host = url.host ?? "the host"
        let port = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
        switch error {
        case let error as NIOConnectionError:
            if error.dnsAError != nil || error.dnsAAAAError != nil {
                return "cannot resolve the host \(error.host); check the URL's spelling and the network's DNS"
            }
            if let first = error.connectionErrors.first { return connectionFailure(first.error, url: url) }
            return "could not connect to \(error.host):\(error.port)"
        case let error as IOError:
            return describe(errno: error.errnoCode, host: host, port: port)
        case is SocketAddressError:
            return "cannot resolve the host \(host); check the URL's spelling and the network's DNS"
        default:
            return "\(error)"
        }
    }

    private static func describe(errno code: Int32, host: String, port: Int) -> String {
        switch code {
        case ECONNREFUSED: "connection refused: nothing listens on \(host):\(port); is the server running, on that port?"
        case ECONNRESET: "the server reset the connection"
        case ETIMEDOUT: "connecting to \(host):\(port) timed out"
        case EHOSTUNREACH, ENETUNREACH: "no route to \(host):\(port); check the address and the network"
        default: String(cString: strerror(code))
        }
    }

    private static func fetchError(_ error: HTTPClientError) -> FetchError {
        switch error {
        case .deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout:
            FetchError(.timedOut, "no answer in time")
        case .invalidURL, .emptyHost, .emptyScheme:
            FetchError(.invalidURL, "\(error)")
        case .remoteConnectionClosed:
            FetchError(.connectionFailed, "the server closed the connection")
        default:
            FetchError(.protocolError, "\(error)")
        }
    }
}

/// Runs `body` with a live fetcher whose HTTP client is shut down afterwards, whatever happens.
///
/// `concurrency` sizes the connection pool (one HTTP/1.1 connection per request in flight).
///
/// `trust` says which certificates HTTPS servers may present (`--cacert`, `--insecure`); a CA file
/// that cannot be read throws ``APICheckTLS/TLSSetupError`` before any request.
public func withHTTPFetcher<Result: Sendable>(
    concurrency: Int, connectTimeout: Duration = .seconds(10), trust: ClientTrust = .system, logger: Logger,
    _ body: (HTTPFetcher) async throws -> Result
) async throws -> Result {
    var configuration = HTTPClient.Configuration(
        redirectConfiguration: .disallow,
        timeout: .init(connect: .seconds(connectTimeout.components.seconds)),
        connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: max(concurrency, 1)),
        decompression: .enabled(limit: .ratio(100))
    )
    configuration.httpVersion = .http1Only
    configuration.tlsConfiguration = try trust.tlsConfiguration()
    let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    do {
        let result = try await body(HTTPFetcher(client: client, trust: trust, logger: logger))
        try await client.shutdown()
        return result
    } catch {
        try? await client.shutdown()
        throw error
    }
}

/// Each HTTPS origin's certificate checked once, before its first request, by a handshake of its
/// own (``APICheckTLS/CertificateDiagnosis``): a refused one fails every request to it at once
/// with the reason, instead of after AsyncHTTPClient has retried the same refusal until its
/// connect timeout. Requests that arrive together wait for the one check.
private final class CertificateChecks: Sendable {
    private let checks = Mutex<[String: Task<CertificateDiagnosis.Outcome, Never>]>([:])

    func outcome(for url: URL, trust: ClientTrust) async -> CertificateDiagnosis.Outcome {
        guard url.scheme?.lowercased() == "https", !trust.insecure else { return .trusted }
        let host = url.host ?? "localhost"
        let port = url.port ?? 443
        let task = checks.withLock { checks in
            if let running = checks["\(host):\(port)"] { return running }
            let task = Task { await CertificateDiagnosis.check(host: host, port: port, trust: trust) }
            checks["\(host):\(port)"] = task
            return task
        }
        let outcome = await task.value
        // Unreachable now is not unreachable later: only a handshake's verdict is kept.
        if outcome == .unreachable { checks.withLock { $0["\(host):\(port)"] = nil } }
        return outcome
    }
}
