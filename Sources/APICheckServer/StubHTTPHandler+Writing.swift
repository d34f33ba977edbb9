import APICheckJSON
import APICheckModel
import APICheckResponder
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix

/// Writing answers: the responder's replies (the cached hot path, latency, files with `sendfile`,
/// socket faults, problem documents) and the server's own simple responses. Every reply's head is
/// the responder's ``APICheckResponder/ReplyHead``, written as its bytes; this adds only
/// `Content-Length`, `Date`, `Connection` and CORS.
extension StubHTTPHandler {
    // MARK: Stub responses

    /// A stub's response with a static body, read from the served set (shared by every loop)
    /// without a reference count. The hot path (no latency, no failure) writes one buffer for head
    /// and body, or the same bytes as a moment ago.
    func deliver(_ served: ServedSlot, in set: ServedStubs, head: HTTPRequestHead, keepAlive: Bool, context: ChannelHandlerContext) {
        let traits = set.traits(ofSlot: served.slot)
        guard let unowned = set.unownedHead(ofSlot: served.slot) else { return }  // a server's heads are all made at install
        let immediate = !traits.contains(.latency) || core.configuration.latencyScale <= 0
        guard !traits.contains(.failure), immediate else {
            let response = set.response(ofSlot: served.slot, stub: served.index)
            let reply = unowned.takeUnretainedValue()
            let delays = delays(of: response.latency)
            if let failure = response.failure {
                deliverFault(SocketFault(failure), after: delays.request, context: context)
                return
            }
            state.answerStarted()
            let body = ReadyBody.bytes(ByteBuffer(bytes: set.body(ofSlot: served.slot)))
            send(reply, body: body, isHead: head.method == .HEAD, keepAlive: keepAlive, head: head, origin: corsOrigin(head), delays: delays, context: context)
            return
        }
        let isHead = head.method == .HEAD
        let origin = corsOrigin(head)
        unowned._withUnsafeGuaranteedRef { reply in
            let sendBody = !isHead && WireRules.allowsBody(reply.status)
            let cacheable = keepAlive && origin == nil && !isHead && head.version.minor == 1 && reply.status >= 200
            if cacheable, let bytes = cache.response(forSlot: served.slot) {
                write(bytes, context: context)
                return
            }
            let body = set.body(ofSlot: served.slot)
            let buffer = assemble(reply, body: body, sendBody: sendBody, keepAlive: keepAlive, head: head, origin: origin, context: context)
            if sendBody, cacheable, body.count <= LoopState.maximumBodyBytes { cache.store(buffer, forSlot: served.slot) }
            write(buffer, context: context)
            if !keepAlive || reply.status < 200 { closeAfterWrites(context: context) }
        }
    }

    /// Head and body in one buffer.
    private func assemble(
        _ reply: ReplyHead, body: Data, sendBody: Bool, keepAlive: Bool, head: HTTPRequestHead, origin: String?, context: ChannelHandlerContext
    ) -> ByteBuffer {
        var buffer = context.channel.allocator.buffer(capacity: reply.wire.count + 128 + (sendBody ? body.count : 0))
        writeHead(reply, bodyCount: body.count, into: &buffer, keepAlive: keepAlive, http10: head.version.minor == 0, origin: origin)
        if sendBody { buffer.writeBytes(body) }
        return buffer
    }

    /// A reply that is not in the served set: a problem document, or (from a stub written in
    /// code) a stub's response.
    func deliver(_ reply: StubReply, head: HTTPRequestHead, keepAlive: Bool, context: ChannelHandlerContext) {
        let delays = delays(of: reply.latency)
        if case .failure(let failure) = reply.kind {
            deliverFault(SocketFault(failure), after: delays.request, context: context)
            return
        }
        guard case .bytes(let data) = reply.body else { return }  // files are pending replies
        guard delays == (.zero, .zero) else {
            state.answerStarted()
            send(reply.head, body: .bytes(ByteBuffer(bytes: data)), isHead: head.method == .HEAD, keepAlive: keepAlive, head: head, origin: corsOrigin(head), delays: delays, context: context)
            return
        }
        let sendBody = head.method != .HEAD && WireRules.allowsBody(reply.status)
        write(assemble(reply.head, body: data, sendBody: sendBody, keepAlive: keepAlive, head: head, origin: corsOrigin(head), context: context), context: context)
        if !keepAlive || reply.status < 200 { closeAfterWrites(context: context) }
    }

    /// A socket fault, after the stub's request latency.
    func deliverFault(_ fault: SocketFault, after delay: TimeAmount, context: ChannelHandlerContext) {
        if delay == .zero {
            self.fault(fault, context: context)
        } else {
            state.answerStarted()
            context.eventLoop.assumeIsolated().scheduleTask(in: delay) { self.fault(fault, context: context) }
        }
    }

    func delays(of latency: StubLatency) -> (request: TimeAmount, response: TimeAmount) {
        let scale = max(core.configuration.latencyScale, 0)
        return (Self.delay(latency.request * scale), Self.delay(latency.response * scale))
    }

    /// The request's `Origin` when the server answers CORS.
    func corsOrigin(_ head: HTTPRequestHead) -> String? {
        core.configuration.cors ? head.headers.first(name: "origin") : nil
    }

    /// A template to render or a body file to check (or read and rewrite): the responder completes
    /// the reply off the loop (journaling it), the file is opened there too, and it is sent.
    func deliverPending(_ pending: PendingReply, head: HTTPRequestHead, keepAlive: Bool, context: ChannelHandlerContext) {
        state.answerStarted()
        let isHead = head.method == .HEAD
        let origin = corsOrigin(head)
        let responder = core.responder
        core.threadPool.runIfActive(eventLoop: context.eventLoop) { () -> (StubReply, Result<ReadyBody, BodyFileError>?) in
            let reply = responder.complete(pending)
            switch (reply.kind, reply.body) {
            case (.stubbed, .bytes(let data)):
                return (reply, .success(.bytes(ByteBuffer(bytes: data))))
            case (.stubbed, .file(let file)):
                return (reply, ReadyBody.open(file, headOnly: isHead))
            default:
                return (reply, nil)  // unservable: its problem document
            }
        }.assumeIsolated().whenComplete { result in
            switch result {
            case .success((let reply, .success(let body)?)):
                self.send(reply.head, body: body, isHead: isHead, keepAlive: keepAlive, head: head, origin: origin, delays: self.delays(of: reply.latency), context: context)
            case .success((let reply, nil)):
                self.core.logger.error("\(head.method) \(head.uri): \(reply.explanation ?? "")")
                self.send(reply.head, body: .bytes(ByteBuffer(bytes: self.bytes(of: reply))), isHead: isHead, keepAlive: keepAlive, head: head, origin: origin, delays: (.zero, .zero), context: context)
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

    private func bytes(of reply: StubReply) -> Data {
        if case .bytes(let data) = reply.body { return data }
        return Data()
    }

    /// Sends `reply` with a body that is ready, honouring latency: the head after `request`
    /// seconds, the body after `response` more. Always ends with ``finishAsync(context:)``.
    func send(
        _ reply: ReplyHead, body: ReadyBody, isHead: Bool, keepAlive: Bool, head: HTTPRequestHead, origin: String?,
        delays: (request: TimeAmount, response: TimeAmount), context: ChannelHandlerContext
    ) {
        guard !state.isClosing else {
            body.discard()
            return
        }
        if delays.request > .zero {
            context.eventLoop.assumeIsolated().scheduleTask(in: delays.request) {
                self.send(reply, body: body, isHead: isHead, keepAlive: keepAlive, head: head, origin: origin, delays: (.zero, delays.response), context: context)
            }
            return
        }
        let sendBody = !isHead && WireRules.allowsBody(reply.status) && body.count > 0
        var buffer = context.channel.allocator.buffer(capacity: reply.wire.count + 128)
        writeHead(reply, bodyCount: body.count, into: &buffer, keepAlive: keepAlive, http10: head.version.minor == 0, origin: origin)
        let complete: () -> Void = {
            if !keepAlive || reply.status < 200 { self.closeAfterWrites(context: context) }
            self.finishAsync(context: context)
        }
        guard sendBody else {
            body.discard()
            if delays.response > .zero {
                context.eventLoop.assumeIsolated().scheduleTask(in: delays.response) {
                    guard !self.state.isClosing else { return }
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
            guard !self.state.isClosing else {
                body.discard()
                return
            }
            switch body {
            case .bytes(let bytes):
                self.write(bytes, context: context)
                complete()
            case .sizeOnly:
                complete()
            case .file(let descriptor, let size) where !self.transport.sendsFileRegions:
                self.streamFile(descriptor: descriptor, size: size, context: context, then: complete)
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

    /// A body file through TLS or HTTP/2, which must see its bytes (no `sendfile`): read on the
    /// thread pool in 64 KiB chunks, each written once the previous one has gone, so a slow
    /// reader holds one chunk, not the file.
    func streamFile(descriptor: CInt, size: Int, context: ChannelHandlerContext, then complete: @escaping () -> Void) {
        let handle = NIOFileHandle(_deprecatedTakingOwnershipOfDescriptor: descriptor)
        let io = NonBlockingFileIO(threadPool: core.threadPool)
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let stallLimit = idleTimeout * 10
        io.readChunked(
            fileHandle: handle, byteCount: size, chunkSize: 64 << 10, allocator: context.channel.allocator, eventLoop: context.eventLoop
        ) { chunk in
            let (handler, context) = loopBound.value
            guard !handler.state.isClosing, context.channel.isActive else { return context.eventLoop.makeFailedFuture(ChannelError.ioOnClosedChannel) }
            let promise = context.eventLoop.makePromise(of: Void.self)
            // A reader that takes nothing (a zero window) is given ten idle timeouts per chunk, as a
            // slow reader of any answer is, then cut: the answer under way would otherwise hold
            // the connection (or stream) for ever.
            let channel = context.channel
            let stalled = context.eventLoop.scheduleTask(in: stallLimit) { channel.close(promise: nil) }
            promise.futureResult.whenComplete { _ in stalled.cancel() }
            context.writeAndFlush(handler.wrapOutboundOut(.byteBuffer(chunk)), promise: promise)
            return promise.futureResult
        }.hop(to: context.eventLoop).assumeIsolated().whenComplete { result in
            try? handle.close()
            switch result {
            case .success:
                // Only now: a pipelined answer after this one must not overtake its chunks.
                complete()
            case .failure:
                let (handler, context) = loopBound.value
                handler.state.close()
                context.close(promise: nil)
            }
        }
    }

    /// The reply's head bytes, then what the server owns: `Content-Length`, `Date` (unless the stub
    /// sets one), `Connection`, CORS and the blank line.
    func writeHead(_ reply: ReplyHead, bodyCount: Int, into buffer: inout ByteBuffer, keepAlive: Bool, http10: Bool, origin: String?) {
        buffer.writeBytes(reply.wire)
        if let length = WireRules.contentLength(status: reply.status, bodyCount: bodyCount) { buffer.writeHeader("Content-Length", String(length)) }
        if !reply.hasDate { buffer.writeImmutableBuffer(cache.dateLine) }
        if !keepAlive {
            buffer.writeStaticString("Connection: close\r\n")
        } else if http10 {
            buffer.writeStaticString("Connection: keep-alive\r\n")
        }
        if let origin { CORS.writeResponseHeaders(&buffer, origin: origin, exposed: reply.exposedHeaders) }
        buffer.writeStaticString("\r\n")
    }

    /// The body could not be produced after the reply was journaled: 500 with the reason.
    func failServing(_ message: String, head: HTTPRequestHead, keepAlive: Bool, context: ChannelHandlerContext) {
        core.logger.error("\(head.method) \(head.uri): \(message)")
        guard !state.isClosing else { return }
        let problem = StubReply.problemDocument(status: 500, title: "The stub cannot be served", detail: message)
        writeSimple(status: 500, body: problem, contentType: "application/problem+json", head: head, keepAlive: keepAlive, context: context)
        if !keepAlive { closeAfterWrites(context: context) }
        finishAsync(context: context)
    }

    func fault(_ fault: SocketFault, context: ChannelHandlerContext) {
        guard !state.isClosing else { return }
        switch fault {
        case .reset:
            state.close()
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
            state.hold()
        }
    }

    // MARK: The server's own responses (rejections, admin, preflight)

    func writeSimple(
        status: Int, body bytes: Data, contentType: String, head: HTTPRequestHead?, keepAlive: Bool, extraHeaders: [(String, String)] = [],
        context: ChannelHandlerContext
    ) {
        var buffer = context.channel.allocator.buffer(capacity: bytes.count + 256)
        buffer.writeString(WireRules.statusLine(status))
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
        if core.configuration.cors, let origin = head?.headers.first(name: "origin") { CORS.writeResponseHeaders(&buffer, origin: origin, exposed: "") }
        buffer.writeStaticString("\r\n")
        if head?.method != .HEAD { buffer.writeBytes(bytes) }
        write(buffer, context: context)
        if !keepAlive, head != nil { closeAfterWrites(context: context) }
    }
}
