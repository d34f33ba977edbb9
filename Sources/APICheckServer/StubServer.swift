import APICheckModel
import APICheckResponder
import APICheckStubFiles
import APICheckTLS
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization

/// An HTTP/1.1 server that answers from a ``APICheckModel/StubSet`` over real sockets, on SwiftNIO;
/// with ``Configuration/tls``, HTTPS with HTTP/2 beside HTTP/1.1 (ALPN).
///
/// It answers through a ``APICheckResponder/StubResponder``, as the in-process interceptor does,
/// so matching, sequences, scenarios, templates and the journal behave identically. On the wire:
/// keep-alive and pipelining, `HEAD`, chunked request bodies, `Expect: 100-continue`, the real
/// `Content-Length`, one `Set-Cookie` per cookie, `Date` and `Server`, body files streamed with
/// `sendfile`, latency without blocking, failures as socket behaviour (``SocketFault``), a 404
/// `application/problem+json` with the near-miss report, an admin API under `/__apicheck/`,
/// optional CORS, origin rewriting and hot reload.
///
/// ```swift
/// try await withStubServer(stubSet) { server in
///     let (data, _) = try await URLSession.shared.data(from: server.url.appending(path: "movies/42"))
///     #expect(server.journal.requests(path: "/movies/{id}").count == 1)
/// }
/// ```
///
/// Start one with ``start(stubs:source:configuration:logger:)`` and always call ``shutdown()``
/// (``withStubServer(_:configuration:logger:_:)`` does both).
public final class StubServer: Sendable {
    /// What the server was started with.
    public let configuration: Configuration
    /// The port listened on (the one picked when ``Configuration/port`` was 0).
    public let port: Int
    /// The origin that serves the stubs, e.g. `http://127.0.0.1:8080` (no trailing slash).
    public let baseURL: String
    /// ``baseURL`` as a URL.
    public var url: URL { core.baseURLValue }
    /// The stubs, scenario selection, sequence positions and journal this server answers from.
    /// Not public: each event loop serves its own replica of the stubs, so only
    /// ``replaceStubs(_:)`` changes what is served.
    var responder: StubResponder { core.responder }
    /// Every request answered, in order (the admin API pages through it too).
    public var journal: StubJournal { core.responder.journal }
    /// Request body bytes held in memory right now, across connections (tests, diagnostics).
    package var bodyMemoryHeld: Int { core.bodyMemory.current }

    let core: ServerCore
    private let group: any EventLoopGroup
    /// Whether the server made ``group`` (and stops it) or was given it (and leaves it running).
    private let ownsGroup: Bool
    private let serverChannel: any Channel
    private let lifecycle = Mutex<Lifecycle>(.running)
    /// Resumed once the server has stopped; awaited without any event loop (which may be gone).
    private let stoppedWaiters = Mutex<[CheckedContinuation<Void, Never>]?>([])
    private let watcher: Mutex<Task<Void, Never>?>

    private enum Lifecycle: Sendable {
        case running, stopping, stopped
    }

    private init(configuration: Configuration, port: Int, core: ServerCore, group: any EventLoopGroup, ownsGroup: Bool, serverChannel: any Channel) {
        self.configuration = configuration
        self.port = port
        self.baseURL = core.baseURL
        self.core = core
        self.group = group
        self.ownsGroup = ownsGroup
        self.serverChannel = serverChannel
        self.watcher = Mutex(nil)
    }

    // MARK: Starting

    /// Binds and starts serving `stubs`. With a `source`, ``reload()`` and the admin API's reload
    /// load it again, and ``Configuration/watchInterval`` watches it.
    ///
    /// - Parameter eventLoopGroup: the event loops to serve on, e.g. the application's own
    ///   (`MultiThreadedEventLoopGroup.singleton`); the server then leaves it running when it
    ///   stops. By default it makes ``Configuration/eventLoopThreads`` loops of its own.
    ///
    /// Throws ``StubServerError`` when the port is taken, the address cannot be bound, or the
    /// configuration is invalid (a bad origin, a port out of range).
    public static func start(
        stubs: StubSet, source: StubSource? = nil, configuration: Configuration = Configuration(),
        eventLoopGroup: (any EventLoopGroup)? = nil,
        logger: Logger = Logger(label: "apicheck.server", factory: { _ in SwiftLogNoOpLogHandler() })
    ) async throws(StubServerError) -> StubServer {
        guard (0...65535).contains(configuration.port) else {
            throw .invalidConfiguration("port \(configuration.port) is not in 0...65535")
        }
        guard configuration.limits.maximumHeaderBytes > 0, configuration.limits.maximumBodyBytes >= 0,
            configuration.limits.maximumPipelinedRequests > 0, configuration.limits.idleTimeout > .zero,
            configuration.limits.headerTimeout > .zero, configuration.limits.maximumConnections > 0,
            configuration.limits.maximumBodyMemory >= configuration.limits.maximumBodyBytes
        else {
            throw .invalidConfiguration("limits must be positive, and the body memory at least one largest body")
        }
        var fixedBaseURL: String?
        do {
            fixedBaseURL = try configuration.baseURL.map { try OriginRewriter.normalizedOrigin($0) }
            for origin in configuration.rewriteOrigins { _ = try OriginRewriter.normalizedOrigin(origin) }
        } catch {
            throw .invalidConfiguration("\(error)")
        }

        let tlsContext: NIOSSLContext?
        do {
            tlsContext = try configuration.tls.map { tls throws(TLSSetupError) in
                try tls.identity.serverContext(http2: tls.http2, clientCertificateAuthorities: tls.clientCertificateAuthorities?.certificates)
            }
        } catch {
            throw .invalidConfiguration("\(error)")
        }
        let ownsGroup = eventLoopGroup == nil
        let group = eventLoopGroup ?? MultiThreadedEventLoopGroup(numberOfThreads: max(1, configuration.eventLoopThreads))
        let slot = CoreSlot()
        let limits = configuration.limits
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 4096)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            // No accepts until the served set is prepared (its origin needs the bound port).
            .serverChannelOption(ChannelOptions.autoRead, value: false)
            // One accept per read: at --max-connections the next read is held, so a client
            // beyond it waits in the backlog instead of being accepted and closed.
            .serverChannelOption(ChannelOptions.maxMessagesPerRead, value: 1)
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    // At the connection limit accepting pauses; out of descriptors it backs off
                    // instead of spinning on the queued connection.
                    try channel.pipeline.syncOperations.addHandler(ConnectionLimiter(maximum: limits.maximumConnections, logger: logger))
                }
            }
            .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .childChannelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
            .childChannelOption(ChannelOptions.maxMessagesPerRead, value: 16)
            .childChannelInitializer { channel in
                guard let core = slot.core else { return channel.close() }
                return channel.eventLoop.makeCompletedFuture {
                    core.connections.add(channel)
                    try core.addTransportHandlers(to: channel, tls: tlsContext)
                }
            }

        let channel: any Channel
        do {
            channel = try await bootstrap.bind(host: configuration.host, port: configuration.port).get()
        } catch {
            if ownsGroup { try? await group.shutdownGracefully() }
            if let io = error as? IOError, io.errnoCode == EADDRINUSE {
                throw .addressInUse(host: configuration.host, port: configuration.port)
            }
            throw .cannotBind(host: configuration.host, port: configuration.port, reason: "\(error)")
        }
        let port = channel.localAddress?.port ?? configuration.port
        let baseURL = fixedBaseURL ?? "\(configuration.tls == nil ? "http" : "https")://\(urlHost(configuration.host)):\(port)"
        // One state per event loop, made on its loop (NIOLoopBound checks it is only used there).
        var loops: [ObjectIdentifier: (loop: any EventLoop, state: NIOLoopBound<LoopState>)] = [:]
        for (index, loop) in group.makeIterator().enumerated() {
            if let state = try? await loop.submit({ NIOLoopBound(LoopState(index: index, origin: baseURL), eventLoop: loop) }).get() {
                loops[ObjectIdentifier(loop)] = (loop, state)
            }
        }
        var rewriters: [OriginRewriter] = []
        for origin in configuration.rewriteOrigins {
            if let rewriter = try? OriginRewriter(from: origin, to: baseURL), rewriter.from != rewriter.to { rewriters.append(rewriter) }
        }
        let core = ServerCore(
            stubs: stubs, source: source, configuration: configuration, baseURL: baseURL, rewriters: rewriters,
            loops: loops, logger: logger
        )
        slot.set(core)
        let server = StubServer(configuration: configuration, port: port, core: core, group: group, ownsGroup: ownsGroup, serverChannel: channel)
        do {
            try await channel.setOption(ChannelOptions.autoRead, value: true).get()
        } catch {
            await server.shutdown()
            throw .cannotBind(host: configuration.host, port: port, reason: "\(error)")
        }
        if configuration.host == "0.0.0.0" || configuration.host == "::", configuration.baseURL == nil {
            logger.warning("listening on all interfaces; links and templates use \(baseURL): pass --base-url with the address clients use")
        }
        logger.info("listening", metadata: ["url": "\(baseURL)", "stubs": "\(stubs.count)", "eventLoops": "\(loops.count)"])
        if let source, let interval = configuration.watchInterval {
            server.watcher.withLock { $0 = StubFileWatcher.start(source: source, interval: interval, core: core) }
        }
        return server
    }

    /// `127.0.0.1`, `localhost`, `[::1]`; a wildcard address becomes loopback.
    private static func urlHost(_ host: String) -> String {
        switch host {
        case "0.0.0.0", "": return "127.0.0.1"
        case "::": return "[::1]"
        default: return host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        }
    }

    // MARK: Stubs, scenarios, reload

    /// The stubs being served.
    public var stubs: StubSet { core.served.stubs }

    /// Serves `stubs` from now on (sequences restart). Requests already matched finish with the
    /// set they matched against.
    public func replaceStubs(_ stubs: StubSet) { core.install(stubs) }

    /// Loads the ``StubSource`` again and serves it if it loads without errors; otherwise keeps
    /// serving the current set. Runs off the caller's thread.
    public func reload() async -> ReloadOutcome {
        let core = self.core
        do {
            return try await core.threadPool.runIfActive { core.reloadNow(trigger: "API") }
        } catch {
            return ReloadOutcome(accepted: false, stubCount: core.served.stubs.count, diagnostics: [], message: "reload unavailable: \(error)")
        }
    }

    /// Makes `scenario` the answer of `useCase` (the folder `screen/use-case`), until changed.
    public func select(_ scenario: String, for useCase: String) { core.responder.select(scenario, for: useCase) }

    /// Lets every scenario of `useCase` compete again.
    public func clearSelection(for useCase: String) { core.responder.clearSelection(for: useCase) }

    /// Forgets the journal, sequence positions and scenario selections; the stubs stay.
    public func reset() { core.responder.reset() }

    // MARK: Stopping

    /// Stops accepting, lets requests in flight finish (up to ``Configuration/shutdownTimeout``),
    /// closes every connection and stops the event loops. Safe to call more than once.
    public func shutdown() async {
        let proceed = lifecycle.withLock { state -> Bool in
            guard case .running = state else { return false }
            state = .stopping
            return true
        }
        guard proceed else {
            await waitUntilStopped()
            return
        }
        watcher.withLock { task in
            task?.cancel()
            task = nil
        }
        core.stopping.store(true, ordering: .releasing)
        try? await serverChannel.close().get()
        for channel in core.connections.all {
            channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        }
        let deadline = ContinuousClock.now + configuration.shutdownTimeout
        while core.connections.count > 0, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        let remaining = core.connections.all
        if !remaining.isEmpty {
            core.logger.warning("closing \(remaining.count) connections still busy after \(configuration.shutdownTimeout)")
            // All at once: a TLS close waits up to its own timeout for the peer's close_notify.
            for channel in remaining { channel.close(promise: nil) }
            for channel in remaining { try? await channel.closeFuture.get() }
        }
        if ownsGroup { try? await group.shutdownGracefully() }
        lifecycle.withLock { $0 = .stopped }
        // Logged before anyone waiting is resumed: `apicheck serve` exits as soon as run() returns.
        core.logger.info("stopped", metadata: ["url": "\(baseURL)"])
        for waiter in stoppedWaiters.withLock({ waiters in defer { waiters = nil }; return waiters ?? [] }) { waiter.resume() }
    }
}

extension StubServer {
    /// Returns once the server has stopped (at once if it has).
    func waitUntilStopped() async {
        await withCheckedContinuation { continuation in
            let stopped = stoppedWaiters.withLock { waiters in
                guard waiters != nil else { return true }
                waiters?.append(continuation)
                return false
            }
            if stopped { continuation.resume() }
        }
    }
}

/// Holds the core for connections accepted after it exists (set once, before accepting).
private final class CoreSlot: Sendable {
    private let value = Mutex<ServerCore?>(nil)

    var core: ServerCore? { value.withLock { $0 } }

    func set(_ core: ServerCore) { value.withLock { $0 = core } }
}

// MARK: Scoped servers

/// Starts a server for `stubs` on a free loopback port, runs `body`, and shuts the server down
/// whether `body` returns or throws.
///
/// ```swift
/// try await withStubServer(stubSet) { server in
///     var request = URLRequest(url: server.url.appending(path: "cart/AzCa3T"))
///     …
/// }
/// ```
public func withStubServer<Result>(
    _ stubs: StubSet, configuration: StubServer.Configuration = StubServer.Configuration(),
    logger: Logger = Logger(label: "apicheck.server", factory: { _ in SwiftLogNoOpLogHandler() }),
    _ body: (StubServer) async throws -> Result
) async throws -> Result {
    let server = try await StubServer.start(stubs: stubs, configuration: configuration, logger: logger)
    return try await run(server, body)
}

/// Loads stub files and folders (throwing ``StubServerError`` with every located problem when any
/// file has an error), serves them on a free loopback port, runs `body`, and shuts down.
/// The server can reload them (``StubServer/reload()``, the admin API, ``StubServer/Configuration/watchInterval``).
public func withStubServer<Result>(
    loading paths: [String], options: StubLoadOptions = StubLoadOptions(),
    configuration: StubServer.Configuration = StubServer.Configuration(),
    logger: Logger = Logger(label: "apicheck.server", factory: { _ in SwiftLogNoOpLogHandler() }),
    _ body: (StubServer) async throws -> Result
) async throws -> Result {
    var source = StubSource(paths: paths, options: options)
    source.recordFingerprint()
    let result = StubLoader(options: options, logger: logger).load(paths)
    guard !result.hasErrors else { throw StubServerError.invalidStubs(result.diagnostics) }
    let server = try await StubServer.start(stubs: result.stubSet, source: source, configuration: configuration, logger: logger)
    return try await run(server, body)
}

private func run<Result>(_ server: StubServer, _ body: (StubServer) async throws -> Result) async throws -> Result {
    do {
        let result = try await body(server)
        await server.shutdown()
        return result
    } catch {
        await server.shutdown()
        throw error
    }
}
