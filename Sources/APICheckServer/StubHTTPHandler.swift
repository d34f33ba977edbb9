import APICheckJSON
import APICheckModel
import APICheckResponder
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix

/// One connection: receives request parts from NIO's HTTP/1 decoder, answers each request in
/// order (pipelining) and writes the responses as raw bytes.
///
/// Requests are queued as they complete and answered one at a time; an answer that takes time
/// (latency, a body file, a template) holds the queue, and reading pauses when the queue or the
/// buffered bodies grow past their bounds. Synchronous answers are written during the read and
/// flushed once per read burst, so pipelined requests leave in one `writev`.
///
/// The connection's state (queue, backpressure, `100-continue`, how it ends) is a
/// ``ConnectionState``; this handler carries out its decisions on the channel. Writing responses
/// is in `StubHTTPHandler+Writing.swift`, the admin API and CORS preflights in
/// `StubHTTPHandler+Admin.swift`. Everything here runs on the connection's event loop.
final class StubHTTPHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    typealias Incoming = ConnectionState.Incoming

    let core: ServerCore
    /// `core.responder` and its journal, used per request without a reference count: both are
    /// shared by every event loop, so each retain would be an atomic write on a cache line the
    /// other cores also write (measured: two such objects cost more than the matching).
    /// `core`, held strongly, keeps them alive.
    private let responder: Unmanaged<StubResponder>
    private let journal: Unmanaged<StubJournal>
    let limits: StubServer.Limits
    var state: ConnectionState
    /// Within a read burst: answers are flushed once, when it completes.
    private var inRead = false
    var needsFlush = false
    var peerIsLoopback = false
    /// This event loop's view of the served set, `Date` line, journal names and recent responses.
    let cache: LoopState
    /// Whether each request is logged (read once: reading a `Logger` copies its handler).
    private let logsRequests: Bool
    /// Idle detection without a pipeline stage: the last read, and one timer per connection.
    private var lastActivity = NIODeadline.now()
    private var idleCheck: Scheduled<Void>?
    let idleTimeout: TimeAmount
    private let headerTimeout: TimeAmount
    /// Request parts decoded in the current read burst (a burst with none started a head).
    private var partsInBurst = 0
    /// Bytes taken from the server's ``BodyMemoryBudget`` for bodies this connection holds.
    private var reservedBodyBytes = 0
    /// Unmatched requests go upstream (spy and record modes) instead of being answered 404.
    private let unmatched: UnmatchedPolicy
    /// What lies between this handler and the socket (body files go as file regions only on cleartext).
    let transport: Transport

    init(core: ServerCore, loopState: LoopState, transport: Transport = .cleartext) {
        self.transport = transport
        self.core = core
        self.responder = Unmanaged.passUnretained(core.responder)
        self.journal = Unmanaged.passUnretained(core.responder.journal)
        self.cache = loopState
        self.logsRequests = core.logger.logLevel <= .debug
        self.limits = core.configuration.limits
        self.state = ConnectionState(limits: core.configuration.limits)
        self.unmatched = core.configuration.upstream == nil ? .answer : .passThrough
        self.idleTimeout = Self.timeAmount(core.configuration.limits.idleTimeout)
        self.headerTimeout = Self.timeAmount(core.configuration.limits.headerTimeout)
    }

    // MARK: Channel events

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context: context)
        context.fireChannelActive()
        // Accepted before the server stopped accepting but registered after shutdown told every
        // registered connection to quiesce: it would otherwise stay open (keep-alive) until cut.
        if core.stopping.load(ordering: .acquiring) {
            state.quiesce()
            closeIfDone(context: context)
        }
    }

    func start(context: ChannelHandlerContext) {
        guard idleCheck == nil else { return }
        peerIsLoopback = Self.isLoopback(context.channel.remoteAddress)
        lastActivity = context.eventLoop.now
        scheduleIdleCheck(at: lastActivity + idleTimeout, context: context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        state.channelClosed()
        releaseBodyMemory()
        idleCheck?.cancel()
        idleCheck = nil
        context.fireChannelInactive()
    }

    /// Closes a connection idle for the timeout (``ConnectionState/idleDecision(now:lastActivity:timeout:writable:)``).
    /// One timer per connection, no pipeline stage: NIO's `IdleStateHandler` would add a handler
    /// hop to every read and write of every request.
    func scheduleIdleCheck(at deadline: NIODeadline, context: ChannelHandlerContext) {
        idleCheck = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) {
            guard !self.state.isClosing, context.channel.isActive else {
                self.idleCheck = nil
                return
            }
            let decision = self.state.idleDecision(
                now: context.eventLoop.now, lastActivity: self.lastActivity, timeout: self.idleTimeout, headTimeout: self.headerTimeout,
                writable: context.channel.isWritable)
            switch decision {
            case .headTimedOut:
                self.idleCheck = nil
                self.reject(408, "the request head did not arrive within \(self.core.configuration.limits.headerTimeout) (--header-timeout)", context: context)
                self.flushIfNeeded(context: context, force: true)
            case .bodyTooSlow:
                self.idleCheck = nil
                self.reject(408, "the request body arrived slower than \(ConnectionState.minimumBodyRate) bytes/s after the first \(self.core.configuration.limits.headerTimeout) (--header-timeout)", context: context)
                self.flushIfNeeded(context: context, force: true)
            case .checkAgain(let deadline):
                self.scheduleIdleCheck(at: deadline, context: context)
            case .close:
                self.core.logger.debug("idle connection closed", metadata: ["peer": "\(context.channel.remoteAddress.map { "\($0)" } ?? "?")"])
                self.state.close()
                self.idleCheck = nil
                context.close(promise: nil)
            }
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard state.acceptsInput else { return }
        inRead = true
        partsInBurst += 1
        switch unwrapInboundIn(data) {
        case .head(let head):
            switch state.headReceived(head) {
            case .receive(let sendContinue):
                if sendContinue, state.takeContinue() { writeContinue(context: context) }
            case .reject(let status, let detail):
                reject(status, detail, context: context)
            }
        case .body(var buffer):
            guard core.bodyMemory.reserve(buffer.readableBytes) else {
                reject(503, "request bodies in memory would go over the server's limit of \(Self.byteText(core.bodyMemory.limit)) (--max-body-memory); retry in a moment", context: context)
                releaseBodyMemory()
                return
            }
            reservedBodyBytes += buffer.readableBytes
            if !state.bodyReceived(&buffer) {
                reject(413, "the request body is over the limit of \(limits.maximumBodyBytes) bytes", context: context)
            }
            releaseBodyMemory()
        case .end:
            switch state.endReceived() {
            case .answer(let incoming):
                releaseBodyMemory()
                // Nothing queued: answer at once, without the queue's copies.
                respond(to: incoming, context: context)
                closeIfDone(context: context)
            case .drain:
                drain(context: context)
            case .none:
                break
            }
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        inRead = false
        lastActivity = context.eventLoop.now
        let hadNoDeadline = state.headStarted == nil && state.receiving?.bodyStarted == nil
        state.readBurstEnded(partsDecoded: partsInBurst, at: lastActivity)
        partsInBurst = 0
        // A head or a body started: its deadline may come before the idle check scheduled.
        if hadNoDeadline {
            let deadline = min(state.headStarted.map { $0 + headerTimeout } ?? .distantFuture, state.bodyDeadline(grace: headerTimeout) ?? .distantFuture)
            if deadline < lastActivity + idleTimeout {
                idleCheck?.cancel()
                scheduleIdleCheck(at: deadline, context: context)
            }
        }
        flushIfNeeded(context: context)
        // Not forwarded: this handler is the pipeline's last, and the tail does nothing with it
        // but retain NIO's tail handler, one object all event loops share.
    }

    func read(context: ChannelHandlerContext) {
        if state.shouldRead() { context.read() }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard state.acceptsInput else { return }
        if let parserError = error as? HTTPParserError {
            if case .headerOverflow = parserError {
                reject(431, "the request head is over the limit of \(limits.maximumHeaderBytes) bytes or \(limits.maximumHeaderCount) fields", context: context)
            } else {
                reject(400, "the request is not valid HTTP/1.1 (\(parserError))", context: context)
            }
        } else {
            // Connection reset by the peer, and other I/O errors: nothing left to answer.
            core.logger.debug("connection error", metadata: ["error": "\(error)"])
            state.close()
            context.close(promise: nil)
        }
        flushIfNeeded(context: context)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent {
            state.quiesce()
            closeIfDone(context: context)
        } else if let channelEvent = event as? ChannelEvent, channelEvent == .inputClosed {
            state.peerClosedInput()
            closeIfDone(context: context)
            flushIfNeeded(context: context)
        }
        context.fireUserInboundEventTriggered(event)
    }

    // MARK: Receiving

    func writeContinue(context: ChannelHandlerContext) {
        var buffer = context.channel.allocator.buffer(capacity: 32)
        buffer.writeStaticString(HTTPWire.continueResponse)
        context.writeAndFlush(wrapOutboundOut(.byteBuffer(buffer)), promise: nil)
    }

    /// Answers `status` after the requests before it, then closes; nothing more is read.
    func reject(_ status: Int, _ detail: String, context: ChannelHandlerContext) {
        // Notice, not debug: a limit that turns clients away should be seen at the default level.
        core.logger.notice("request rejected (\(status)): \(detail)", metadata: ["peer": "\(context.channel.remoteAddress.map { "\($0)" } ?? "?")"])
        state.reject(status: status, detail: detail)
        drain(context: context)
    }

    // MARK: Answering in order

    /// Answers queued requests until one needs time; closes when the last one asked for it.
    func drain(context: ChannelHandlerContext) {
        defer { releaseBodyMemory() }
        while let work = state.nextWork() {
            switch work {
            case .reject(let status, let detail):
                let body = StubReply.problemDocument(status: status, title: HTTPResponseStatus(statusCode: status).reasonPhrase, detail: detail)
                // A 503 (bodies in memory) passes: say when to try again.
                writeSimple(
                    status: status, body: body, contentType: "application/problem+json", head: nil, keepAlive: false,
                    extraHeaders: status == 503 ? [("Retry-After", "1")] : [], context: context)
                lingeringClose(context: context)
            case .request(let incoming):
                respond(to: incoming, context: context)
            }
        }
        guard state.isIdle else { return }
        if state.takeContinue() { writeContinue(context: context) }
        closeIfDone(context: context)
        if state.takeHeldRead() { context.read() }
    }

    /// Called when an answer that took time is written: the next request may go.
    func finishAsync(context: ChannelHandlerContext) {
        state.answerFinished()
        guard !state.isClosing else { return }
        drain(context: context)
        flushIfNeeded(context: context, force: true)
    }

    func closeIfDone(context: ChannelHandlerContext) {
        if state.isDone { closeAfterWrites(context: context) }
    }

    func flushIfNeeded(context: ChannelHandlerContext, force: Bool = false) {
        guard needsFlush, force || !inRead else { return }
        needsFlush = false
        context.flush()
    }

    func write(_ buffer: ByteBuffer, context: ChannelHandlerContext) {
        context.write(wrapOutboundOut(.byteBuffer(buffer)), promise: nil)
        needsFlush = true
    }

    /// Closes once everything written so far has reached the socket.
    func closeAfterWrites(context: ChannelHandlerContext) {
        guard !state.isClosing else { return }
        state.close()
        let promise = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.byteBuffer(context.channel.allocator.buffer(capacity: 0))), promise: promise)
        needsFlush = false
        promise.futureResult.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }

    /// After an error answer: stop writing, keep reading (and discarding) briefly so the peer
    /// reads the answer instead of a reset caused by its own unread bytes, then close.
    func lingeringClose(context: ChannelHandlerContext) {
        guard !state.isClosing else { return }
        state.close()
        let promise = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.byteBuffer(context.channel.allocator.buffer(capacity: 0))), promise: promise)
        needsFlush = false
        promise.futureResult.assumeIsolated().whenComplete { _ in
            context.close(mode: .output, promise: nil)
            context.eventLoop.assumeIsolated().scheduleTask(in: .seconds(2)) { context.close(promise: nil) }
        }
        if state.takeHeldRead(lingering: true) { context.read() }
    }

    // MARK: One request

    func respond(to incoming: Incoming, context: ChannelHandlerContext) {
        let head = incoming.head
        let keepAlive = head.isKeepAlive && state.allowsKeepAlive && !incoming.upgrade
        if AdminAPI.isAdminTarget(head.uri) {
            respondAdmin(incoming, keepAlive: keepAlive, context: context)
            return
        }
        if core.configuration.cors, CORS.isPreflight(head), let origin = head.headers.first(name: "origin") {
            respondPreflight(head, origin: origin, keepAlive: keepAlive, context: context)
            return
        }

        let request = core.stubRequest(head, host: incoming.host, body: incoming.body)
        // The responder decides the whole answer and journals it; this handler only delivers it.
        // The served set is every loop's; it is read here without a reference count.
        let current = responder._withUnsafeGuaranteedRef { cache.current(of: $0) }
        let options = ReplyOptions(unmatched: unmatched, readsBodyFiles: false, journalShard: cache.index)
        let decision = current.served._withUnsafeGuaranteedRef { served in
            responder._withUnsafeGuaranteedRef { responder in
                responder.decide(
                    request, at: .target(origin: cache.origin, target: head.uri), in: served, scenarios: current.view,
                    selection: current.selection, options: options, names: cache.names)
            }
        }
        switch decision {
        case .served(let slot):
            current.served._withUnsafeGuaranteedRef { served in
                if logsRequests {
                    core.logger.debug("\(head.method) \(head.uri) → \(served.response(ofSlot: slot.slot, stub: slot.index).status) \"\(served.stubs.stubs[slot.index].name)\"")
                }
                deliver(slot, in: served, head: head, keepAlive: keepAlive, context: context)
            }
        case .ready(let reply):
            if case .passthrough = reply.kind, let upstream = core.configuration.upstream {
                deliverUpstream(request, upstream: upstream, head: head, keepAlive: keepAlive, context: context)
                return
            }
            if reply.stubResponse == nil {
                // No stub's own response: a problem document (unmatched, exhausted).
                core.logger.warning("\(reply.explanation ?? "")")
            }
            deliver(reply, head: head, keepAlive: keepAlive, context: context)
        case .pending(let pending):
            if logsRequests { core.logger.debug("\(head.method) \(head.uri) → \"\(pending.matched.stub.name)\"") }
            deliverPending(pending, head: head, keepAlive: keepAlive, context: context)
        }
    }

    // MARK: Helpers

    /// Gives back to the server's budget what this connection no longer holds (answered, dropped
    /// or closed requests' bodies).
    func releaseBodyMemory() {
        let held = state.bufferedBodyBytes
        guard reservedBodyBytes > held else { return }
        core.bodyMemory.release(reservedBodyBytes - held)
        reservedBodyBytes = held
    }

    /// `3 MiB`, `512 KiB`, `900 bytes`.
    static func byteText(_ bytes: Int) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }

    static func timeAmount(_ duration: Duration) -> TimeAmount {
        .nanoseconds(Int64(min(max(duration / .nanoseconds(1), 0), Double(Int64.max / 2))))
    }

    /// Seconds as a `TimeAmount`, clamped to an hour (stub files are untrusted; NaN is zero).
    static func delay(_ seconds: Double) -> TimeAmount {
        guard seconds.isFinite, seconds > 0 else { return .zero }
        return .nanoseconds(Int64(min(seconds, 3600) * 1e9))
    }

    static func isLoopback(_ address: SocketAddress?) -> Bool {
        guard let address else { return false }
        switch address {
        case .v4(let v4):
            return UInt32(bigEndian: v4.address.sin_addr.s_addr) >> 24 == 127
        case .v6(let v6):
            let bytes = withUnsafeBytes(of: v6.address.sin6_addr) { Array($0) }
            if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return true }  // ::1
            // ::ffff:127.x.y.z
            return bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF && bytes[12] == 127
        case .unixDomainSocket:
            return true
        }
    }
}
