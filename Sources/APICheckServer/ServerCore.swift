import APICheckJSON
import APICheckModel
import APICheckResponder
import APICheckStubFiles
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// What every connection of one server shares: the responder, the served set and its wire
/// form, the configuration and the reload machinery. Immutable or locked; safe from any loop.
package final class ServerCore: Sendable {
    let configuration: StubServer.Configuration
    let responder: StubResponder
    let logger: Logger
    /// The origin that serves the stubs (`http://127.0.0.1:8080`): templates' `baseURL`.
    let baseURL: String
    let baseURLValue: URL
    let rewriters: [OriginRewriter]
    let source: StubSource?
    let threadPool: NIOThreadPool
    let startedAt = ContinuousClock.now
    let connections = ConnectionRegistry()
    /// Stubs added through the admin API, answered before the files' (``ServerCore/addRuntimeStubs(_:)``).
    let runtimeLayer = Mutex<RuntimeLayer>(RuntimeLayer())
    /// Request bodies held in memory across connections (``StubServer/Limits/maximumBodyMemory``).
    let bodyMemory: BodyMemoryBudget
    static let serverHeader = "apicheck"
    /// `https` when the server speaks TLS: requests' scheme for `match-host` stubs.
    let scheme: String
    let defaultPort: Int
    /// Who may call the admin API (``AdminGuard``).
    let adminGuard: AdminGuard
    /// Each event loop and its state (`Date` line, response cache, journal names), touched only on it.
    private let loops: [ObjectIdentifier: (loop: any EventLoop, state: NIOLoopBound<LoopState>)]
    /// Set when the server stops: no more work is handed to its event loops.
    let stopping = Atomic<Bool>(false)

    /// Serialises installs and reloads (the watcher and the admin API may reload at once).
    private let installLock = Mutex<Void>(())
    private let reloadState = Mutex<ReloadStatus>(ReloadStatus())

    package init(
        stubs: StubSet, source: StubSource?, configuration: StubServer.Configuration, baseURL: String,
        rewriters: [OriginRewriter], loops: [ObjectIdentifier: (loop: any EventLoop, state: NIOLoopBound<LoopState>)], logger: Logger
    ) {
        self.loops = loops
        self.configuration = configuration
        self.source = source
        self.logger = logger
        self.baseURL = baseURL
        self.baseURLValue = URL(string: baseURL) ?? URL(fileURLWithPath: "/")
        self.scheme = configuration.tls == nil ? "http" : "https"
        self.defaultPort = configuration.tls == nil ? 80 : 443
        self.adminGuard = AdminGuard(configuration: configuration, scheme: scheme)
        self.rewriters = rewriters
        self.threadPool = NIOThreadPool.singleton
        self.bodyMemory = BodyMemoryBudget(
            limit: configuration.limits.maximumBodyMemory, timerLoop: loops.values.first?.loop, releaseFreeMemory: configuration.releaseFreeMemory)
        // One served set for every event loop: matching retains nothing it holds (``MatchTables``).
        let serving = ServingOptions(
            origin: baseURL, rewriters: rewriters, serverName: Self.serverHeader, maximumRewrittenFileBytes: configuration.limits.maximumRewrittenFileBytes)
        self.responder = StubResponder(
            stubs: stubs, scenarios: configuration.scenarios,
            journal: StubJournal(
                capacity: configuration.journalCapacity, shards: max(loops.count, 1),
                maximumBodyBytes: configuration.limits.maximumJournalBodyBytes, maximumBytes: configuration.limits.maximumJournalBytes),
            serving: serving, gate: configuration.requestGate
        )
        report(responder.served)
    }

    /// Every event loop of the server's group and its state (tests look at what each loop serves).
    var loopStates: [(loop: any EventLoop, state: NIOLoopBound<LoopState>)] { Array(loops.values) }

    /// The state of `eventLoop`; call on that loop. A loop not of this server's group gets its own.
    func loopState(for eventLoop: any EventLoop) -> LoopState {
        loops[ObjectIdentifier(eventLoop)]?.state.value ?? LoopState(index: 0, origin: baseURL)
    }

    /// Sets up one accepted connection on its event loop: NIO's HTTP/1 decoder bounded by the
    /// configured limits, then the stub handler. The fuzzer (`apicheck-fuzz server`) feeds raw
    /// bytes to exactly this pipeline on an `EmbeddedChannel`.
    package func addConnectionHandlers(to channel: any Channel, transport: Transport = .cleartext) throws {
        var decoderLimits = NIOHTTPDecoderLimitConfiguration()
        decoderLimits.maxHeaderFieldSize = configuration.limits.maximumHeaderBytes
        decoderLimits.maxHeaderListSize = configuration.limits.maximumHeaderBytes
        decoderLimits.maxHeaderFieldCount = configuration.limits.maximumHeaderCount
        let pipeline = channel.pipeline.syncOperations
        try pipeline.addHandler(
            ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes, informationalResponseStrategy: .drop, limitConfiguration: decoderLimits))
        )
        try pipeline.addHandler(StubHTTPHandler(core: self, loopState: loopState(for: channel.eventLoop), transport: transport))
    }

    // MARK: The served set

    /// The set being served.
    var served: ServedStubs { responder.served }

    /// Serves `stubs` from now on. Requests already matched finish with the set they matched.
    func install(_ stubs: StubSet) {
        // Heads are computed before the lock: a large set takes a moment, and requests go on meanwhile.
        let served = ServedStubs(stubs, options: responder.served.options)
        let responder = self.responder
        installLock.withLock { _ in responder.install(served) }
        report(served)
        // Each loop lets go of the previous set now rather than at its next request: an idle loop
        // would otherwise keep a whole set alive.
        for (loop, state) in loops.values where !stopping.load(ordering: .acquiring) {
            loop.execute { _ = state.value.current(of: responder) }
        }
    }

    /// Stubs whose path lies under the admin prefix, which answers first.
    static func shadowed(in served: ServedStubs) -> [Stub] {
        served.stubs.stubs.filter { AdminAPI.shadows($0.request.path) }
    }

    private func report(_ served: ServedStubs) {
        for stub in Self.shadowed(in: served) {
            logger.warning("\(stub.source): warning: stub \"\(stub.name)\" is shadowed: \(AdminAPI.prefix) belongs to the admin API")
        }
        for warning in served.warnings { logger.warning("\(warning)") }
    }

    // MARK: Reloading

    struct ReloadStatus: Sendable {
        var count = 0
        var last: ReloadOutcome?
    }

    var reloadStatus: ReloadStatus { reloadState.withLock { $0 } }

    /// Loads the source again and installs it when it loads without errors; otherwise keeps the
    /// served set and logs each problem as `path:line:col: error: …`. Blocks: call it off the
    /// event loops.
    func reloadNow(trigger: String) -> ReloadOutcome {
        guard let source else {
            return ReloadOutcome(accepted: false, stubCount: served.stubs.count, diagnostics: [], message: "the server was started from a stub set, not from files; there is nothing to reload")
        }
        let start = ContinuousClock.now
        let result = StubLoader(options: source.options, logger: logger).load(source.paths)
        let outcome: ReloadOutcome
        if result.hasErrors {
            for diagnostic in result.errors { logger.error("\(diagnostic)") }
            let message = "reload (\(trigger)) rejected: \(result.errors.count) \(result.errors.count == 1 ? "error" : "errors"); still serving the last good set of \(served.stubs.count) stubs"
            logger.error("\(message)")
            outcome = ReloadOutcome(accepted: false, stubCount: served.stubs.count, diagnostics: result.diagnostics, message: message)
        } else {
            for warning in result.warnings { logger.warning("\(warning)") }
            install(result.stubSet)
            // After the new set serves: these checks never hold a reload back.
            for warning in source.additionalChecks?(result.stubSet) ?? [] { logger.warning("\(warning)") }
            let message = "reloaded (\(trigger)): \(result.stubSet.count) stubs from \(result.files.count) files in \(ContinuousClock.now - start)"
            logger.info("\(message)")
            outcome = ReloadOutcome(accepted: true, stubCount: result.stubSet.count, diagnostics: result.diagnostics, message: message)
        }
        reloadState.withLock {
            $0.count += 1
            $0.last = outcome
        }
        return outcome
    }

    /// ``reloadNow(trigger:)`` on the thread pool, completed on `eventLoop`.
    func reload(trigger: String, on eventLoop: any EventLoop) -> EventLoopFuture<ReloadOutcome> {
        threadPool.runIfActive(eventLoop: eventLoop) { self.reloadNow(trigger: trigger) }
    }

    // MARK: Requests

    /// The transport-neutral request for a received head and body. Origin-form targets take
    /// scheme, host and port from `Host` (for `match-host` stubs); absolute-form targets (a client
    /// using the server as its proxy) carry their own.
    func stubRequest(_ head: HTTPRequestHead, host: String?, body: ByteBuffer?) -> StubRequest {
        var headers: [HTTPHeader] = []
        headers.reserveCapacity(head.headers.count)
        for (name, value) in head.headers { headers.append(HTTPHeader(name: name, value: value)) }
        let data = body.map { Data($0.readableBytesView) } ?? Data()
        let uri = head.uri
        if uri.utf8.first != UInt8(ascii: "/"), uri.hasPrefix("http://") || uri.hasPrefix("https://"), let url = URL(string: uri) {
            return StubRequest(method: head.method.rawValue, url: url, headers: headers, body: data)
        }
        guard let host else { return StubRequest(method: head.method.rawValue, target: uri, headers: headers, body: data, scheme: scheme) }
        let (name, port) = Self.splitHost(host)
        return StubRequest(method: head.method.rawValue, target: uri, headers: headers, body: data, scheme: scheme, host: name, port: port ?? defaultPort)
    }

    /// `example.com:8080` → (`example.com`, 8080); `[::1]:80` → (`::1`, 80). Lower-cases only when
    /// needed and scans bytes: it runs for every request.
    static func splitHost(_ host: String) -> (String, Int?) {
        // The usual `name:port`, lower case, in one pass over contiguous bytes.
        let fast: (String, Int?)?? = host.utf8.withContiguousStorageIfAvailable { bytes -> (String, Int?)? in
            var colon = -1
            for offset in 0..<bytes.count {
                let byte = bytes[offset]
                if (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || byte == UInt8(ascii: "[") { return nil }
                if byte == UInt8(ascii: ":") { colon = offset }
            }
            guard colon >= 0 else { return (host, nil) }
            var port = 0
            for offset in (colon + 1)..<bytes.count {
                let digit = bytes[offset] &- UInt8(ascii: "0")
                guard digit < 10, port < 100_000 else { return (String(decoding: UnsafeBufferPointer(rebasing: bytes[..<colon]), as: UTF8.self), nil) }
                port = port * 10 + Int(digit)
            }
            return (String(decoding: UnsafeBufferPointer(rebasing: bytes[..<colon]), as: UTF8.self), colon + 1 < bytes.count ? port : nil)
        }
        if case .some(.some(let result)) = fast { return result }
        let text = host.utf8.contains { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") } ? host.lowercased() : host
        let bytes = text.utf8
        if bytes.first == UInt8(ascii: "["), let close = bytes.firstIndex(of: UInt8(ascii: "]")) {
            let name = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            return (name, rest.hasPrefix(":") ? Int(rest.dropFirst()) : nil)
        }
        guard let colon = bytes.lastIndex(of: UInt8(ascii: ":")) else { return (text, nil) }
        return (String(Substring(bytes[..<colon])), Int(Substring(bytes[bytes.index(after: colon)...])))
    }
}

/// How a reload went.
public struct ReloadOutcome: Sendable {
    /// Whether the new set is now served. A set with any error is never installed.
    public var accepted: Bool
    /// Stubs served after the reload (the old count when rejected).
    public var stubCount: Int
    /// Every problem the loader reported (errors and warnings), `path:line:col` located.
    public var diagnostics: [Diagnostic]
    /// One sentence for people.
    public var message: String
    /// When the reload finished.
    public var date: Date

    /// An outcome; the server makes these, tests may too.
    public init(accepted: Bool, stubCount: Int, diagnostics: [Diagnostic], message: String, date: Date = Date()) {
        self.accepted = accepted
        self.stubCount = stubCount
        self.diagnostics = diagnostics
        self.message = message
        self.date = date
    }
}

/// The open connections of a server, for graceful shutdown.
final class ConnectionRegistry: Sendable {
    private let channels = Mutex<[ObjectIdentifier: any Channel]>([:])

    func add(_ channel: any Channel) {
        channels.withLock { $0[ObjectIdentifier(channel)] = channel }
        channel.closeFuture.whenComplete { [weak self] _ in
            _ = self?.channels.withLock { $0.removeValue(forKey: ObjectIdentifier(channel)) }
        }
    }

    var all: [any Channel] { channels.withLock { Array($0.values) } }
    var count: Int { channels.withLock { $0.count } }
}
