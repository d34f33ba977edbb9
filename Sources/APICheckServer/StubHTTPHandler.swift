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
/// Everything here runs on the connection's event loop.
final class StubHTTPHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    /// A request being received or waiting for its turn.
    private struct Incoming {
        var head: HTTPRequestHead
        /// The `Host` header, read in the same pass as the others.
        var host: String?
        /// `Upgrade` was asked for: NIO's decoder stops parsing after such a request.
        var upgrade: Bool
        var body: ByteBuffer?
        var bodyBytes = 0
        var expectsContinue: Bool
        var continueSent = false
    }

    private enum Work {
        case request(Incoming)
        /// An answer to a request that cannot be served (400, 413, 431, …); the connection closes after it.
        case reject(status: Int, detail: String)
    }

    private let core: ServerCore
    /// `core.responder` and its journal, used per request without a reference count: both are
    /// shared by every event loop, so each retain would be an atomic write on a cache line the
    /// other cores also write (measured: two such objects cost more than the matching).
    /// `core`, held strongly, keeps them alive.
    private let responder: Unmanaged<StubResponder>
    private let journal: Unmanaged<StubJournal>
    private let limits: StubServer.Limits
    private var receiving: Incoming?
    private var ready = CircularBuffer<Work>(initialCapacity: 4)
    private var bufferedBodyBytes = 0
    /// An answer is being produced or delayed; later requests wait.
    private var busy = false
    /// A `read()` was held back because too much is queued.
    private var heldRead = false
    /// After a rejection or error, input is ignored until the connection closes.
    private var discardInput = false
    /// The connection closes once the queue is answered (peer half-closed, or shutting down).
    private var inputClosed = false
    private var quiescing = false
    /// Closing or closed: nothing more is written.
    private var closing = false
    /// A stub's `timedOut` failure: silent until the idle timeout.
    private var holding = false
    private var inRead = false
    private var needsFlush = false
    private var peerIsLoopback = false
    /// This event loop's replica of the stubs, `Date` line and recent responses.
    private let cache: LoopState
    /// Whether each request is logged (read once: reading a `Logger` copies its handler).
    private let logsRequests: Bool
    /// The served set this connection used last, reused while no reload happened.
    private var snapshot: ServerCore.Snapshot?
    /// Idle detection without a pipeline stage: the last read, and one timer per connection.
    private var lastActivity = NIODeadline.now()
    private var idleCheck: Scheduled<Void>?
    private let idleTimeout: TimeAmount

    init(core: ServerCore, loopState: LoopState) {
        self.core = core
        self.responder = Unmanaged.passUnretained(core.responder)
        self.journal = Unmanaged.passUnretained(core.responder.journal)
        self.cache = loopState
        self.logsRequests = core.logger.logLevel <= .debug
        self.limits = core.configuration.limits
        self.idleTimeout = .nanoseconds(Int64(min(core.configuration.limits.idleTimeout / .nanoseconds(1), Double(Int64.max / 2))))
    }

    // MARK: Channel events

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context: context)
        context.fireChannelActive()
    }

    private func start(context: ChannelHandlerContext) {
        guard idleCheck == nil else { return }
        peerIsLoopback = Self.isLoopback(context.channel.remoteAddress)
        lastActivity = .now()
        scheduleIdleCheck(at: lastActivity + idleTimeout, context: context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        closing = true
        ready.removeAll()
        receiving = nil
        idleCheck?.cancel()
        idleCheck = nil
        context.fireChannelInactive()
    }

    /// Closes a connection that sent nothing for the idle timeout, unless an answer is being
    /// delayed or streamed (a `timedOut` hold is idle on purpose). A peer that reads a large body
    /// slowly keeps it open while its unsent bytes stay above the write buffer's high mark, for
    /// at most ten idle timeouts.
    private func scheduleIdleCheck(at deadline: NIODeadline, context: ChannelHandlerContext) {
        idleCheck = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) {
            guard !self.closing, context.channel.isActive else {
                self.idleCheck = nil
                return
            }
            let now = NIODeadline.now()
            let due = self.lastActivity + self.idleTimeout
            let answering = self.busy && !self.holding
            let draining = !context.channel.isWritable && now < self.lastActivity + self.idleTimeout * 10
            if now < due {
                self.scheduleIdleCheck(at: due, context: context)
            } else if answering || draining {
                self.scheduleIdleCheck(at: now + self.idleTimeout, context: context)
            } else {
                self.core.logger.debug("idle connection closed", metadata: ["peer": "\(context.channel.remoteAddress.map { "\($0)" } ?? "?")"])
                self.closing = true
                self.idleCheck = nil
                context.close(promise: nil)
            }
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !discardInput, !closing else { return }
        inRead = true
        switch unwrapInboundIn(data) {
        case .head(let head):
            receiveHead(head, context: context)
        case .body(var buffer):
            receiveBody(&buffer, context: context)
        case .end:
            guard let incoming = receiving.take() else { return }
            if !busy, ready.isEmpty {
                // Nothing queued: answer at once, without the queue's copies.
                bufferedBodyBytes -= incoming.bodyBytes
                respond(to: incoming, context: context)
                if !busy, !closing, (inputClosed || quiescing) { closeIfDone(context: context) }
            } else {
                ready.append(.request(incoming))
                drain(context: context)
            }
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        inRead = false
        lastActivity = .now()
        flushIfNeeded(context: context)
        // Not forwarded: this handler is the pipeline's last, and the tail does nothing with it
        // but retain NIO's tail handler, one object all event loops share.
    }

    func read(context: ChannelHandlerContext) {
        if holding || ((busy || !ready.isEmpty) && (ready.count >= limits.maximumPipelinedRequests || bufferedBodyBytes > limits.maximumBodyBytes)) {
            heldRead = true
            return
        }
        context.read()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard !discardInput, !closing else { return }
        if let parserError = error as? HTTPParserError {
            if case .headerOverflow = parserError {
                reject(431, "the request head is over the limit of \(limits.maximumHeaderBytes) bytes or \(limits.maximumHeaderCount) fields", context: context)
            } else {
                reject(400, "the request is not valid HTTP/1.1 (\(parserError))", context: context)
            }
        } else {
            // Connection reset by the peer, and other I/O errors: nothing left to answer.
            core.logger.debug("connection error", metadata: ["error": "\(error)"])
            closing = true
            context.close(promise: nil)
        }
        flushIfNeeded(context: context)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent {
            quiescing = true
            closeIfDone(context: context)
        } else if let channelEvent = event as? ChannelEvent, channelEvent == .inputClosed {
            inputClosed = true
            receiving = nil
            closeIfDone(context: context)
            flushIfNeeded(context: context)
        }
        context.fireUserInboundEventTriggered(event)
    }

    // MARK: Receiving

    private func receiveHead(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        guard head.version.major == 1 else {
            reject(505, "only HTTP/1.0 and HTTP/1.1 are served", context: context)
            return
        }
        // Head size and field count are bounded by the decoder (431 through its headerOverflow).
        // One pass over the headers for everything the server itself needs.
        var host: String?
        var contentLength: String?
        var expect: String?
        var upgrade = head.method == .CONNECT
        for (name, value) in head.headers {
            switch name.utf8.count {
            case 4 where name.caseInsensitiveEquals("host"): host = host ?? value
            case 6 where name.caseInsensitiveEquals("expect"): expect = value
            case 7 where name.caseInsensitiveEquals("upgrade"): upgrade = true
            case 14 where name.caseInsensitiveEquals("content-length"): contentLength = value
            default: break
            }
        }
        if let contentLength, let count = Int(contentLength), count > limits.maximumBodyBytes {
            reject(413, "the request body of \(count) bytes is over the limit of \(limits.maximumBodyBytes) bytes", context: context)
            return
        }
        var expectsContinue = false
        if let expect {
            guard expect.caseInsensitiveEquals("100-continue") else {
                reject(417, "only 'Expect: 100-continue' is supported, not '\(expect)'", context: context)
                return
            }
            expectsContinue = head.version.minor >= 1
        }
        receiving = Incoming(head: head, host: host, upgrade: upgrade, expectsContinue: expectsContinue)
        if expectsContinue, !busy, ready.isEmpty { sendContinue(context: context) }
    }

    private func receiveBody(_ buffer: inout ByteBuffer, context: ChannelHandlerContext) {
        guard var incoming = receiving else { return }
        receiving = nil  // not shared while mutated: appending must not copy the whole body
        incoming.bodyBytes += buffer.readableBytes
        bufferedBodyBytes += buffer.readableBytes
        guard incoming.bodyBytes <= limits.maximumBodyBytes else {
            reject(413, "the request body is over the limit of \(limits.maximumBodyBytes) bytes", context: context)
            return
        }
        if incoming.body == nil {
            incoming.body = buffer
        } else {
            incoming.body?.writeBuffer(&buffer)
        }
        receiving = incoming
    }

    private func sendContinue(context: ChannelHandlerContext) {
        guard var incoming = receiving, !incoming.continueSent else { return }
        incoming.continueSent = true
        receiving = incoming
        var buffer = context.channel.allocator.buffer(capacity: 32)
        buffer.writeStaticString(HTTPWire.continueResponse)
        context.writeAndFlush(wrapOutboundOut(.byteBuffer(buffer)), promise: nil)
    }

    /// Answers `status` after the requests before it, then closes; nothing more is read.
    private func reject(_ status: Int, _ detail: String, context: ChannelHandlerContext) {
        core.logger.debug("request rejected", metadata: ["status": "\(status)", "detail": "\(detail)"])
        receiving = nil
        discardInput = true
        ready.append(.reject(status: status, detail: detail))
        drain(context: context)
    }

    // MARK: Answering in order

    /// Answers queued requests until one needs time; closes when the last one asked for it.
    private func drain(context: ChannelHandlerContext) {
        while !busy, !closing, let work = ready.popFirst() {
            switch work {
            case .reject(let status, let detail):
                let body = StubReply.problemDocument(status: status, title: HTTPResponseStatus(statusCode: status).reasonPhrase, detail: detail)
                writeSimple(status: status, body: body, contentType: "application/problem+json", head: nil, keepAlive: false, context: context)
                lingeringClose(context: context)
            case .request(let incoming):
                bufferedBodyBytes -= incoming.bodyBytes
                respond(to: incoming, context: context)
            }
        }
        guard !busy, !closing else { return }
        if ready.isEmpty, receiving?.expectsContinue == true { sendContinue(context: context) }
        closeIfDone(context: context)
        if heldRead, !closing {
            heldRead = false
            context.read()
        }
    }

    /// Called when an answer that took time is written: the next request may go.
    private func finishAsync(context: ChannelHandlerContext) {
        busy = false
        guard !closing else { return }
        drain(context: context)
        flushIfNeeded(context: context, force: true)
    }

    private func closeIfDone(context: ChannelHandlerContext) {
        guard !busy, !closing, ready.isEmpty, inputClosed || (quiescing && receiving == nil) else { return }
        closeAfterWrites(context: context)
    }

    private func flushIfNeeded(context: ChannelHandlerContext, force: Bool = false) {
        guard needsFlush, force || !inRead else { return }
        needsFlush = false
        context.flush()
    }

    private func write(_ buffer: ByteBuffer, context: ChannelHandlerContext) {
        context.write(wrapOutboundOut(.byteBuffer(buffer)), promise: nil)
        needsFlush = true
    }

    /// Closes once everything written so far has reached the socket.
    private func closeAfterWrites(context: ChannelHandlerContext) {
        guard !closing else { return }
        closing = true
        discardInput = true
        let promise = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.byteBuffer(context.channel.allocator.buffer(capacity: 0))), promise: promise)
        needsFlush = false
        promise.futureResult.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }

    /// After an error answer: stop writing, keep reading (and discarding) briefly so the peer
    /// reads the answer instead of a reset caused by its own unread bytes, then close.
    private func lingeringClose(context: ChannelHandlerContext) {
        guard !closing else { return }
        closing = true
        discardInput = true
        let promise = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.byteBuffer(context.channel.allocator.buffer(capacity: 0))), promise: promise)
        needsFlush = false
        promise.futureResult.assumeIsolated().whenComplete { _ in
            context.close(mode: .output, promise: nil)
            context.eventLoop.assumeIsolated().scheduleTask(in: .seconds(2)) { context.close(promise: nil) }
        }
        if heldRead {
            heldRead = false
            context.read()
        }
    }

    // MARK: One request

    private func respond(to incoming: Incoming, context: ChannelHandlerContext) {
        let head = incoming.head
        let keepAlive = head.isKeepAlive && !quiescing && !inputClosed && !incoming.upgrade
        if AdminAPI.isAdminTarget(head.uri) {
            respondAdmin(incoming, keepAlive: keepAlive, context: context)
            return
        }
        if core.configuration.cors, head.method == .OPTIONS, let origin = head.headers.first(name: "origin"),
            let requestedMethod = head.headers.first(name: "access-control-request-method")
        {
            respondPreflight(head, origin: origin, method: requestedMethod, keepAlive: keepAlive, context: context)
            return
        }

        let request = core.stubRequest(head, host: incoming.host, body: incoming.body)
        // This loop's replica when it is current, else the shared set: the same stubs either way.
        let served: ServedStubs
        if let replica = cache.replica(for: core.currentSequence) {
            served = replica
        } else {
            let snapshot = core.snapshot(reusing: self.snapshot)
            self.snapshot = snapshot
            served = snapshot.served
        }
        // The responder decides the whole answer and journals it; this handler only delivers it.
        let options = ReplyOptions(unmatched: .answer, readsBodyFiles: false, journalShard: cache.index)
        let decision = responder._withUnsafeGuaranteedRef { responder in
            responder.decide(
                request, at: .target(origin: cache.origin, target: head.uri), matchingIn: served.stubs,
                scenarios: cache.scenarios(of: responder), options: options)
        }
        switch decision {
        case .ready(let reply):
            guard let matched = reply.matched, let response = reply.stubResponse else {
                // No stub's own response: a problem document (unmatched, exhausted).
                core.logger.warning("\(reply.explanation ?? "")")
                writeReply(reply, head: head, keepAlive: keepAlive, context: context)
                return
            }
            if logsRequests {
                core.logger.debug("\(head.method) \(head.uri) → \(response.failure.map(\.rawValue) ?? String(response.status)) \"\(matched.stub.name)\"")
            }
            let prepared = core.preparedResponse(for: matched, response: response, in: served)
            if !deliverStatic(prepared, head: head, keepAlive: keepAlive, context: context) {
                deliver(prepared, head: head, keepAlive: keepAlive, context: context)
            }
        case .pending(let pending):
            if logsRequests { core.logger.debug("\(head.method) \(head.uri) → \"\(pending.matched.stub.name)\"") }
            let prepared = core.preparedResponse(for: pending.matched, response: pending.response, in: served)
            deliverPending(pending, prepared: prepared, head: head, keepAlive: keepAlive, context: context)
        }
    }

    // MARK: Stub responses

    /// The hot path: a static body, no latency, no failure. One buffer for head and body, or the
    /// same bytes as a moment ago. Returns false when the response needs ``deliver``.
    private func deliverStatic(_ prepared: PreparedResponse, head: HTTPRequestHead, keepAlive: Bool, context: ChannelHandlerContext) -> Bool {
        guard case .bytes(let body) = prepared.body, prepared.failure == nil, prepared.latency.isZero || core.configuration.latencyScale <= 0 else {
            return false
        }
        let isHead = head.method == .HEAD
        let origin = core.configuration.cors ? head.headers.first(name: "origin") : nil
        let sendBody = !isHead && prepared.allowsBody
        let cacheable = keepAlive && origin == nil && !isHead && head.version.minor == 1 && prepared.status >= 200
            && body.readableBytes <= LoopState.maximumBodyBytes
        if cacheable, let bytes = cache.response(for: prepared) {
            write(bytes, context: context)
            return true
        }
        var buffer = context.channel.allocator.buffer(capacity: prepared.headWithLength.readableBytes + 96 + (sendBody ? body.readableBytes : 0))
        buffer.writeImmutableBuffer(prepared.headWithLength)
        finishHead(&buffer, prepared: prepared, keepAlive: keepAlive, http10: head.version.minor == 0, origin: origin)
        if sendBody {
            if body.readableBytes <= 64 << 10 {
                buffer.writeImmutableBuffer(body)
                if cacheable { cache.store(buffer, for: prepared) }
                write(buffer, context: context)
            } else {
                write(buffer, context: context)
                write(body, context: context)
            }
        } else {
            write(buffer, context: context)
        }
        if !keepAlive || prepared.status < 200 { closeAfterWrites(context: context) }
        return true
    }

    /// A stub response with a static body that needs time (latency) or a socket failure.
    private func deliver(_ prepared: PreparedResponse, head: HTTPRequestHead, keepAlive: Bool, context: ChannelHandlerContext) {
        let (requestDelay, responseDelay) = delays(of: prepared)
        if let failure = prepared.failure {
            if requestDelay == .zero {
                fault(SocketFault(failure), context: context)
            } else {
                busy = true
                context.eventLoop.assumeIsolated().scheduleTask(in: requestDelay) { self.fault(SocketFault(failure), context: context) }
            }
            return
        }
        guard case .bytes(let body) = prepared.body else { return }  // files and templates are pending replies
        busy = true
        let origin = core.configuration.cors ? head.headers.first(name: "origin") : nil
        send(prepared, body: .bytes(body), isHead: head.method == .HEAD, keepAlive: keepAlive, head: head, origin: origin, delays: (requestDelay, responseDelay), context: context)
    }

    private func delays(of prepared: PreparedResponse) -> (request: TimeAmount, response: TimeAmount) {
        let scale = max(core.configuration.latencyScale, 0)
        return (Self.delay(prepared.latency.request * scale), Self.delay(prepared.latency.response * scale))
    }

    /// A template to render or a body file to check: the responder completes the reply off the
    /// loop (journaling it), then the body is opened or rewritten there too, and sent.
    private func deliverPending(_ pending: PendingReply, prepared: PreparedResponse, head: HTTPRequestHead, keepAlive: Bool, context: ChannelHandlerContext) {
        busy = true
        let isHead = head.method == .HEAD
        let origin = core.configuration.cors ? head.headers.first(name: "origin") : nil
        let responder = core.responder
        let rewriters = prepared.rewritesBody ? core.rewriters : []
        let maximumRewritten = limits.maximumRewrittenFileBytes
        core.threadPool.runIfActive(eventLoop: context.eventLoop) { () -> (StubReply, Result<ReadyBody, BodyFileError>?) in
            let reply = responder.complete(pending)
            switch (reply.kind, reply.body) {
            case (.stubbed, .bytes(let data)):
                var bytes = [UInt8](data)
                for rewriter in rewriters { bytes = rewriter.rewrite(bytes) ?? bytes }
                var buffer = ByteBuffer()
                buffer.writeBytes(bytes)
                return (reply, .success(.bytes(buffer)))
            case (.stubbed, .file(let file)):
                return (reply, ReadyBody.open(file, rewriters: rewriters, maximumRewrittenBytes: maximumRewritten, headOnly: isHead))
            default:
                return (reply, nil)  // unservable: its problem document
            }
        }.assumeIsolated().whenComplete { result in
            switch result {
            case .success((let reply, .success(let body)?)):
                self.send(prepared, body: body, isHead: isHead, keepAlive: keepAlive, head: head, origin: origin, delays: self.delays(of: prepared), context: context)
                _ = reply
            case .success((let reply, nil)):
                self.core.logger.error("\(head.method) \(head.uri): \(reply.explanation ?? "")")
                self.writeReply(reply, head: head, keepAlive: keepAlive, context: context)
                self.finishAsync(context: context)
            case .success((let reply, .failure(let error))):
                // The file passed the responder's check and then vanished: too late for another
                // journal entry, so the answer says so and the log does.
                let message = "the body file of stub \"\(reply.matched?.stub.name ?? "")\" \(error.isMissing ? "is gone: " : "")\(error.message)"
                self.failServing(message, head: head, keepAlive: keepAlive, context: context)
            case .failure(let error):
                self.failServing("the stub could not be answered: \(error)", head: head, keepAlive: keepAlive, context: context)
            }
        }
    }

    /// Sends a response whose body is ready, honouring latency: the head after `request`
    /// seconds, the body after `response` more. Always ends with ``finishAsync(context:)``.
    private func send(
        _ prepared: PreparedResponse, body: ReadyBody, isHead: Bool, keepAlive: Bool, head: HTTPRequestHead, origin: String?,
        delays: (request: TimeAmount, response: TimeAmount), context: ChannelHandlerContext
    ) {
        guard !closing else {
            body.discard()
            return
        }
        if delays.request > .zero {
            context.eventLoop.assumeIsolated().scheduleTask(in: delays.request) {
                self.send(prepared, body: body, isHead: isHead, keepAlive: keepAlive, head: head, origin: origin, delays: (.zero, delays.response), context: context)
            }
            return
        }
        let sendBody = !isHead && prepared.allowsBody && body.count > 0
        var buffer = context.channel.allocator.buffer(capacity: prepared.head.readableBytes + 128)
        buffer.writeImmutableBuffer(prepared.head)
        if HTTPWire.allowsContentLength(prepared.status) {
            buffer.writeHeader("Content-Length", String(prepared.allowsBody ? body.count : 0))
        }
        finishHead(&buffer, prepared: prepared, keepAlive: keepAlive, http10: head.version.minor == 0, origin: origin)
        let complete: () -> Void = {
            if !keepAlive || prepared.status < 200 { self.closeAfterWrites(context: context) }
            self.finishAsync(context: context)
        }
        guard sendBody else {
            body.discard()
            if delays.response > .zero {
                context.eventLoop.assumeIsolated().scheduleTask(in: delays.response) {
                    guard !self.closing else { return }
                    self.write(buffer, context: context)
                    complete()
                }
            } else {
                write(buffer, context: context)
                complete()
            }
            return
        }
        write(buffer, context: context)
        flushIfNeeded(context: context, force: true)
        let writeBody = {
            guard !self.closing else {
                body.discard()
                return
            }
            switch body {
            case .bytes(let bytes):
                self.write(bytes, context: context)
                complete()
            case .sizeOnly:
                complete()
            case .file(let descriptor, let size):
                let handle = NIOFileHandle(_deprecatedTakingOwnershipOfDescriptor: descriptor)
                let region = FileRegion(fileHandle: handle, readerIndex: 0, endIndex: size)
                let promise = context.eventLoop.makePromise(of: Void.self)
                context.writeAndFlush(self.wrapOutboundOut(.fileRegion(region)), promise: promise)
                promise.futureResult.assumeIsolated().whenComplete { _ in try? handle.close() }
                complete()
            }
        }
        if delays.response > .zero {
            context.eventLoop.assumeIsolated().scheduleTask(in: delays.response) { writeBody() }
        } else {
            writeBody()
        }
    }

    /// Appends `Date`, `Connection`, CORS and the blank line.
    private func finishHead(_ buffer: inout ByteBuffer, prepared: PreparedResponse, keepAlive: Bool, http10: Bool, origin: String?) {
        if !prepared.hasDate { buffer.writeImmutableBuffer(cache.dateLine) }
        if !keepAlive {
            buffer.writeStaticString("Connection: close\r\n")
        } else if http10 {
            buffer.writeStaticString("Connection: keep-alive\r\n")
        }
        if let origin { writeCORS(&buffer, origin: origin, exposed: prepared.exposedHeaders) }
        buffer.writeStaticString("\r\n")
    }

    private func writeCORS(_ buffer: inout ByteBuffer, origin: String, exposed: String) {
        guard HTTPWire.isSafeValue(origin) else { return }
        buffer.writeHeader("Access-Control-Allow-Origin", origin)
        buffer.writeStaticString("Access-Control-Allow-Credentials: true\r\nVary: Origin\r\n")
        if !exposed.isEmpty { buffer.writeHeader("Access-Control-Expose-Headers", exposed) }
    }

    /// The body could not be produced after the reply was journaled: 500 with the reason.
    private func failServing(_ message: String, head: HTTPRequestHead, keepAlive: Bool, context: ChannelHandlerContext) {
        core.logger.error("\(head.method) \(head.uri): \(message)")
        guard !closing else { return }
        let problem = StubReply.problemDocument(status: 500, title: "The stub cannot be served", detail: message)
        writeSimple(status: 500, body: problem, contentType: "application/problem+json", head: head, keepAlive: keepAlive, context: context)
        if !keepAlive { closeAfterWrites(context: context) }
        finishAsync(context: context)
    }

    private func fault(_ fault: SocketFault, context: ChannelHandlerContext) {
        guard !closing else { return }
        switch fault {
        case .reset:
            closing = true
            discardInput = true
            // SO_LINGER 0: close() sends RST instead of FIN.
            if let provider = context.channel as? any SocketOptionProvider {
                provider.setSoLinger(linger(l_onoff: 1, l_linger: 0)).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
            } else {
                context.close(promise: nil)
            }
        case .close:
            flushIfNeeded(context: context, force: true)
            closeAfterWrites(context: context)
        case .malformed:
            var buffer = context.channel.allocator.buffer(capacity: 64)
            buffer.writeStaticString(SocketFault.malformedBytes)
            write(buffer, context: context)
            closeAfterWrites(context: context)
        case .hold:
            busy = true
            holding = true
            discardInput = true
        }
    }

    // MARK: Simple responses (problems, admin, preflight)

    /// A reply that is not a stub's own response (a problem document), with the headers the
    /// responder gave it.
    private func writeReply(_ reply: StubReply, head: HTTPRequestHead, keepAlive: Bool, context: ChannelHandlerContext) {
        guard case .bytes(let body) = reply.body else { return }
        let type = reply.headers.value(named: "Content-Type") ?? "application/problem+json"
        writeSimple(status: reply.status, body: body, contentType: type, head: head, keepAlive: keepAlive, context: context)
    }

    private func writeSimple(
        status: Int, body bytes: Data, contentType: String, head: HTTPRequestHead?, keepAlive: Bool, extraHeaders: [(String, String)] = [],
        context: ChannelHandlerContext
    ) {
        var buffer = context.channel.allocator.buffer(capacity: bytes.count + 256)
        buffer.writeString(HTTPWire.statusLine(status))
        buffer.writeHeader("Content-Type", contentType)
        buffer.writeHeader("Content-Length", String(bytes.count))
        buffer.writeHeader("Server", ServerCore.serverHeader)
        buffer.writeStaticString("Cache-Control: no-store\r\n")
        for (name, value) in extraHeaders { buffer.writeHeader(name, value) }
        buffer.writeImmutableBuffer(cache.dateLine)
        if !keepAlive {
            buffer.writeStaticString("Connection: close\r\n")
        } else if head?.version.minor == 0 {
            buffer.writeStaticString("Connection: keep-alive\r\n")
        }
        if core.configuration.cors, let origin = head?.headers.first(name: "origin") { writeCORS(&buffer, origin: origin, exposed: "") }
        buffer.writeStaticString("\r\n")
        if head?.method != .HEAD { buffer.writeBytes(bytes) }
        write(buffer, context: context)
        if !keepAlive, head != nil { closeAfterWrites(context: context) }
    }

    private func respondPreflight(_ head: HTTPRequestHead, origin: String, method: String, keepAlive: Bool, context: ChannelHandlerContext) {
        var buffer = context.channel.allocator.buffer(capacity: 512)
        buffer.writeString(HTTPWire.statusLine(204))
        buffer.writeHeader("Server", ServerCore.serverHeader)
        buffer.writeImmutableBuffer(cache.dateLine)
        if HTTPWire.isSafeValue(origin) {
            buffer.writeHeader("Access-Control-Allow-Origin", origin)
            buffer.writeStaticString("Access-Control-Allow-Credentials: true\r\nVary: Origin, Access-Control-Request-Method, Access-Control-Request-Headers\r\n")
            buffer.writeStaticString("Access-Control-Allow-Methods: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS\r\n")
            if let requested = head.headers.first(name: "access-control-request-headers"), HTTPWire.isSafeValue(requested) {
                buffer.writeHeader("Access-Control-Allow-Headers", requested)
            }
            buffer.writeStaticString("Access-Control-Max-Age: 600\r\n")
        }
        if !keepAlive { buffer.writeStaticString("Connection: close\r\n") }
        buffer.writeStaticString("\r\n")
        write(buffer, context: context)
        if !keepAlive { closeAfterWrites(context: context) }
    }

    private func respondAdmin(_ incoming: Incoming, keepAlive: Bool, context: ChannelHandlerContext) {
        let head = incoming.head
        let reply = AdminAPI.handle(method: head.method, uri: head.uri, headers: head.headers, body: incoming.body, peerIsLoopback: peerIsLoopback, core: core)
        switch reply {
        case .now(let status, let body, let headers):
            let type = status >= 400 ? "application/problem+json" : "application/json"
            writeSimple(status: status, body: Data(JSONWriter(style: .pretty).bytes(body)), contentType: type, head: head, keepAlive: keepAlive, extraHeaders: headers, context: context)
        case .reload:
            busy = true
            let available = core.source != nil
            core.reload(trigger: "admin API", on: context.eventLoop).assumeIsolated().whenComplete { result in
                let reply: AdminAPI.Reply
                switch result {
                case .success(let outcome): reply = AdminAPI.reloadReply(outcome, available: available)
                case .failure(let error): reply = .now(status: 503, body: StubReply.problem(status: 503, title: "Reload unavailable", detail: "\(error)"), headers: [])
                }
                if case .now(let status, let body, let headers) = reply, !self.closing {
                    let type = status >= 400 && status != 422 ? "application/problem+json" : "application/json"
                    self.writeSimple(status: status, body: Data(JSONWriter(style: .pretty).bytes(body)), contentType: type, head: head, keepAlive: keepAlive, extraHeaders: headers, context: context)
                }
                self.finishAsync(context: context)
            }
        }
    }

    // MARK: Helpers

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

/// A body ready to send: bytes, an open file streamed with `sendfile`, or only the size of a
/// file (for `HEAD`).
enum ReadyBody: Sendable {
    case bytes(ByteBuffer)
    case file(descriptor: CInt, size: Int)
    case sizeOnly(Int)

    var count: Int {
        switch self {
        case .bytes(let buffer): buffer.readableBytes
        case .file(_, let size), .sizeOnly(let size): size
        }
    }

    /// Releases an open file that will not be sent.
    func discard() {
        if case .file(let descriptor, _) = self { Foundation.close(descriptor) }
    }

    /// Opens a stub's body file on the thread pool: only regular files (`O_NONBLOCK`, so a FIFO
    /// cannot block the pool), its size taken from the open descriptor. With rewriters the file is
    /// read (bounded) and rewritten instead.
    static func open(_ file: StubFile, rewriters: [OriginRewriter], maximumRewrittenBytes: Int, headOnly: Bool) -> Result<ReadyBody, BodyFileError> {
        if !rewriters.isEmpty {
            do {
                var bytes = [UInt8](try file.contents(maximumBytes: maximumRewrittenBytes))
                for rewriter in rewriters { bytes = rewriter.rewrite(bytes) ?? bytes }
                var buffer = ByteBuffer()
                buffer.writeBytes(bytes)
                return .success(.bytes(buffer))
            } catch {
                return .failure(BodyFileError(message: error.message, isMissing: error.isMissing))
            }
        }
        let descriptor = Foundation.open(file.url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            return .failure(BodyFileError(message: "\(file.url.path) (\(file.declaredPath)) cannot be read: \(String(cString: strerror(errno)))", isMissing: true))
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            Foundation.close(descriptor)
            return .failure(BodyFileError(message: "\(file.url.path) (\(file.declaredPath)) is not a regular file", isMissing: false))
        }
        if headOnly {
            Foundation.close(descriptor)
            return .success(.sizeOnly(Int(info.st_size)))
        }
        return .success(.file(descriptor: descriptor, size: Int(info.st_size)))
    }
}

/// Why a body file could not be sent.
struct BodyFileError: Error, Sendable {
    var message: String
    var isMissing: Bool
}
