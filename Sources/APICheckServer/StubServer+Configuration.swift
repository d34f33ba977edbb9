import APICheckResponder
import APICheckModel
import APICheckStubFiles
import NIOCore

extension StubServer {
    /// How a ``StubServer`` listens and behaves. The defaults suit a developer machine: loopback
    /// only, a free port, one event loop per core.
    public struct Configuration: Sendable {
        /// The address to bind. Anything but loopback exposes the stubs (and, with
        /// ``adminToken``, the admin API) to the network; it is only used when asked for.
        public var host: String
        /// The port; 0 picks a free one (read it from ``StubServer/port``).
        public var port: Int
        /// The origin clients reach the server at, when it differs from `http://host:port`
        /// (behind a proxy, from an emulator, when binding `0.0.0.0`). Templates see it as
        /// `baseURL`, and rewritten origins become it.
        public var baseURL: String?
        /// Event loop threads; one per core by default.
        public var eventLoopThreads: Int
        /// Bounds on what one client may send or hold.
        public var limits: Limits
        /// Answer CORS preflights and add CORS headers (echoing the request's `Origin`).
        public var cors: Bool
        /// When set, the admin API answers any peer that sends `Authorization: Bearer <token>`,
        /// and nobody without it. When `nil`, it answers loopback peers only.
        public var adminToken: String?
        /// Host names, besides `localhost`, IP addresses and the names of ``host`` and
        /// ``baseURL``, that the admin API accepts in `Host` (a `--tls-host`, a name on the LAN).
        /// Any other name is refused: a web page that rebinds its own name to 127.0.0.1 (DNS
        /// rebinding) would otherwise reach the admin API from a browser.
        public var adminHosts: [String] = []
        /// Origins (`http://localhost:3000`) rewritten to ``StubServer/baseURL`` in text bodies
        /// and in `Location`, `Content-Location` and `Link` headers.
        public var rewriteOrigins: [String]
        /// The active scenario per use case at start.
        public var scenarios: ScenarioSelection
        /// Stub latency is multiplied by this (0 turns it off).
        public var latencyScale: Double
        /// How many requests the journal keeps (the oldest are dropped first).
        public var journalCapacity: Int
        /// How long ``StubServer/shutdown()`` lets requests in flight finish before closing
        /// their connections.
        public var shutdownTimeout: Duration
        /// When set (and the server was started from files), the stub files are polled this often
        /// and reloaded when they change.
        public var watchInterval: Duration?
        /// When set, requests no stub matches are forwarded here instead of answered 404 (spy
        /// and record modes); see ``StubServerUpstream``.
        public var upstream: (any StubServerUpstream)?
        /// Called once, on a thread-pool thread, when request bodies held in memory drop back to
        /// none after a burst of more than 16 MiB, a few seconds after the last: the moment to
        /// return the allocator's free memory to the system. That is a decision about the whole
        /// process, so the server makes no such call of its own; `apicheck serve` passes glibc's
        /// `malloc_trim` (measured: 410 MB resident after 200 × 8 MB uploads, 50 MB after it).
        public var releaseFreeMemory: (@Sendable () -> Void)?
        /// Asked before matching every request; when it answers, that is the reply (see
        /// ``APICheckResponder/RequestGate``: `serve --openapi --validate-requests`).
        public var requestGate: (any RequestGate)?
        /// HTTPS on the port (HTTP/1.1, and HTTP/2 by ALPN unless turned off); `nil` serves cleartext.
        public var tls: TLS?
        /// On a cleartext port, also take HTTP/2 from clients that start with its preface (h2c
        /// "with prior knowledge"; no `Upgrade: h2c`). Off unless asked for (`--h2c`).
        public var cleartextHTTP2: Bool = false

        /// A configuration; every parameter defaults to the property's documented default.
        public init(
            host: String = "127.0.0.1", port: Int = 0, baseURL: String? = nil, eventLoopThreads: Int = System.coreCount,
            limits: Limits = Limits(), cors: Bool = false, adminToken: String? = nil, rewriteOrigins: [String] = [],
            scenarios: ScenarioSelection = [:], latencyScale: Double = 1, journalCapacity: Int = 10_000,
            shutdownTimeout: Duration = .seconds(10), watchInterval: Duration? = nil, upstream: (any StubServerUpstream)? = nil,
            tls: TLS? = nil
        ) {
            self.tls = tls
            self.host = host
            self.port = port
            self.baseURL = baseURL
            self.eventLoopThreads = eventLoopThreads
            self.limits = limits
            self.cors = cors
            self.adminToken = adminToken
            self.rewriteOrigins = rewriteOrigins
            self.scenarios = scenarios
            self.latencyScale = latencyScale
            self.journalCapacity = journalCapacity
            self.shutdownTimeout = shutdownTimeout
            self.watchInterval = watchInterval
            self.upstream = upstream
        }
    }

    /// Bounds on what one client may send or hold.
    public struct Limits: Sendable {
        /// Request line plus headers; beyond it the answer is 431.
        public var maximumHeaderBytes: Int
        /// Header fields per request; beyond it the answer is 431.
        public var maximumHeaderCount: Int
        /// Request body; beyond it the answer is 413 (checked against `Content-Length` before
        /// reading, and while reading chunked bodies).
        public var maximumBodyBytes: Int
        /// A connection that sends nothing for this long is closed (also ends `timedOut` holds).
        public var idleTimeout: Duration
        /// Pipelined requests queued per connection before reading pauses.
        public var maximumPipelinedRequests: Int
        /// Largest body file read into memory to rewrite origins (larger ones fail with 500).
        public var maximumRewrittenFileBytes: Int
        /// A request head must arrive whole within this time of its first byte, however slowly
        /// it trickles in (slowloris); beyond it the answer is 408 and the connection closes.
        public var headerTimeout: Duration = .seconds(10)
        /// Connections open at once; beyond it new ones wait in the listen backlog (accepting
        /// pauses) until one closes.
        public var maximumConnections: Int = 1024
        /// Request bodies held in memory at once, across all connections; a body that would go
        /// beyond it is answered 503 with `Retry-After`, so many large uploads at once cannot
        /// exhaust memory.
        public var maximumBodyMemory: Int = 256 << 20
        /// The journal keeps at most this many bytes of each request body (the size is recorded)
        /// and at most ``maximumJournalBytes`` of bodies in all.
        public var maximumJournalBodyBytes: Int = 16 << 10
        /// Body bytes the journal holds in all; the oldest entries are dropped first.
        public var maximumJournalBytes: Int = 8 << 20
        /// HTTP/2 streams open at once on one connection (`SETTINGS_MAX_CONCURRENT_STREAMS`);
        /// a client that opens more has them refused.
        public var maximumConcurrentStreams: Int = 100

        /// Limits: 16 KiB heads, 100 header fields, 8 MiB bodies, 30 s idle, 64 pipelined
        /// requests, 64 MiB for body files read to rewrite origins, 10 s for a head, 1,024
        /// connections, 256 MiB of request bodies in memory, a journal of 8 MiB of bodies (16 KiB each).
        public init(
            maximumHeaderBytes: Int = 16 << 10, maximumHeaderCount: Int = 100, maximumBodyBytes: Int = 8 << 20,
            idleTimeout: Duration = .seconds(30), maximumPipelinedRequests: Int = 64, maximumRewrittenFileBytes: Int = 64 << 20
        ) {
            self.maximumHeaderBytes = maximumHeaderBytes
            self.maximumHeaderCount = maximumHeaderCount
            self.maximumBodyBytes = maximumBodyBytes
            self.idleTimeout = idleTimeout
            self.maximumPipelinedRequests = maximumPipelinedRequests
            self.maximumRewrittenFileBytes = maximumRewrittenFileBytes
        }
    }
}

/// Where a server's stubs come from, so it can load them again (admin reload, `--watch`).
public struct StubSource: Sendable {
    /// Stub files and folders, as given to ``APICheckStubFiles/StubLoader/load(_:)``.
    public var paths: [String]
    /// How they are loaded (root, bounds).
    public var options: StubLoadOptions
    /// The state of the files just before they were loaded, so the watcher also sees changes
    /// made between loading and watching. Without it the watcher starts from the files as they
    /// are when it starts.
    package var fingerprint: StubFileWatcher.Fingerprint?
    /// Checks of the loaded stubs beyond the loader's, reported as warnings at every load and
    /// reload and never a reason to refuse a set (`serve` checks bodies against their profiles).
    public var additionalChecks: (@Sendable (StubSet) -> [Diagnostic])?

    /// The files and folders to load, and how.
    public init(paths: [String], options: StubLoadOptions = StubLoadOptions()) {
        self.paths = paths
        self.options = options
    }

    /// Records the files' state; call just before loading them.
    package mutating func recordFingerprint() {
        fingerprint = StubFileWatcher.fingerprint(paths, maximumEntries: options.maximumFileCount * 4)
    }
}

/// Why a stub server could not start.
public struct StubServerError: Error, Sendable, CustomStringConvertible {
    private enum Code: Sendable, Equatable {
        case addressInUse, cannotBind, invalidConfiguration, invalidStubs
    }

    private let code: Code
    /// What went wrong and what to do next.
    public let message: String
    /// For stub files that do not load: every problem, located.
    public let diagnostics: [Diagnostic]

    private init(_ code: Code, _ message: String, diagnostics: [Diagnostic] = []) {
        self.code = code
        self.message = message
        self.diagnostics = diagnostics
    }

    /// The port is taken by another process.
    public static func addressInUse(host: String, port: Int) -> StubServerError {
        StubServerError(.addressInUse, "\(host):\(port) is already in use; pick another --port (0 picks a free one) or stop the process using it")
    }

    /// The address cannot be bound (unknown host, no permission, …).
    public static func cannotBind(host: String, port: Int, reason: String) -> StubServerError {
        StubServerError(.cannotBind, "cannot listen on \(host):\(port): \(reason)")
    }

    /// A configuration value is out of range or malformed.
    public static func invalidConfiguration(_ message: String) -> StubServerError {
        StubServerError(.invalidConfiguration, message)
    }

    /// Stub files have errors (``withStubServer(loading:options:configuration:logger:_:)`` refuses them).
    public static func invalidStubs(_ diagnostics: [Diagnostic]) -> StubServerError {
        let errors = diagnostics.filter { $0.severity == .error }
        return StubServerError(
            .invalidStubs, "\(errors.count) stub file \(errors.count == 1 ? "error" : "errors"):\n" + errors.map(\.description).joined(separator: "\n"),
            diagnostics: diagnostics
        )
    }

    /// The port is taken.
    public var isAddressInUse: Bool { code == .addressInUse }

    /// ``message``.
    public var description: String { message }
}
