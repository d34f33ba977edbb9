import APICheckJSON
import APICheckModel
import APICheckResponder
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix

/// Writing answers: a stub's response (the cached hot path, latency, files with `sendfile`,
/// socket faults) and simple responses (problem documents). Heads are written as raw bytes from
/// the stub's precomputed ``PreparedResponse``.
extension StubHTTPHandler {
    // MARK: Stub responses

    /// The hot path: a static body, no latency, no failure. One buffer for head and body, or the
    /// same bytes as a moment ago. Returns false when the response needs ``deliver``.
    func deliverStatic(_ prepared: PreparedResponse, head: HTTPRequestHead, keepAlive: Bool, context: ChannelHandlerContext) -> Bool {
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
    func deliver(_ prepared: PreparedResponse, head: HTTPRequestHead, keepAlive: Bool, context: ChannelHandlerContext) {
        let (requestDelay, responseDelay) = delays(of: prepared)
        if let failure = prepared.failure {
            if requestDelay == .zero {
                fault(SocketFault(failure), context: context)
            } else {
                state.answerStarted()
                context.eventLoop.assumeIsolated().scheduleTask(in: requestDelay) { self.fault(SocketFault(failure), context: context) }
            }
            return
        }
        guard case .bytes(let body) = prepared.body else { return }  // files and templates are pending replies
        state.answerStarted()
        let origin = core.configuration.cors ? head.headers.first(name: "origin") : nil
        send(prepared, body: .bytes(body), isHead: head.method == .HEAD, keepAlive: keepAlive, head: head, origin: origin, delays: (requestDelay, responseDelay), context: context)
    }

    func delays(of prepared: PreparedResponse) -> (request: TimeAmount, response: TimeAmount) {
        let scale = max(core.configuration.latencyScale, 0)
        return (Self.delay(prepared.latency.request * scale), Self.delay(prepared.latency.response * scale))
    }

    /// A template to render or a body file to check: the responder completes the reply off the
    /// loop (journaling it), then the body is opened or rewritten there too, and sent.
    func deliverPending(_ pending: PendingReply, prepared: PreparedResponse, head: HTTPRequestHead, keepAlive: Bool, context: ChannelHandlerContext) {
        state.answerStarted()
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
    func send(
        _ prepared: PreparedResponse, body: ReadyBody, isHead: Bool, keepAlive: Bool, head: HTTPRequestHead, origin: String?,
        delays: (request: TimeAmount, response: TimeAmount), context: ChannelHandlerContext
    ) {
        guard !state.isClosing else {
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
    func finishHead(_ buffer: inout ByteBuffer, prepared: PreparedResponse, keepAlive: Bool, http10: Bool, origin: String?) {
        if !prepared.hasDate { buffer.writeImmutableBuffer(cache.dateLine) }
        if !keepAlive {
            buffer.writeStaticString("Connection: close\r\n")
        } else if http10 {
            buffer.writeStaticString("Connection: keep-alive\r\n")
        }
        if let origin { CORS.writeResponseHeaders(&buffer, origin: origin, exposed: prepared.exposedHeaders) }
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

    // MARK: Simple responses (problems, admin, preflight)

    /// A reply that is not a stub's own response (a problem document), with the headers the
    /// responder gave it.
    func writeReply(_ reply: StubReply, head: HTTPRequestHead, keepAlive: Bool, context: ChannelHandlerContext) {
        guard case .bytes(let body) = reply.body else { return }
        let type = reply.headers.value(named: "Content-Type") ?? "application/problem+json"
        writeSimple(status: reply.status, body: body, contentType: type, head: head, keepAlive: keepAlive, context: context)
    }

    func writeSimple(
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
        if core.configuration.cors, let origin = head?.headers.first(name: "origin") { CORS.writeResponseHeaders(&buffer, origin: origin, exposed: "") }
        buffer.writeStaticString("\r\n")
        if head?.method != .HEAD { buffer.writeBytes(bytes) }
        write(buffer, context: context)
        if !keepAlive, head != nil { closeAfterWrites(context: context) }
    }
}
